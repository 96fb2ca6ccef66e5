//! Calibration from the token usage providers report.

/// Ratio between what the provider reported and what compactor counted, learned from
/// usage reports. Starts at 1.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Calibration {
    /// Multiplier applied to every count.
    pub factor: f64,
    /// How many reports shaped it.
    pub observations: u32,
}

impl Default for Calibration {
    fn default() -> Self {
        Self {
            factor: 1.0,
            observations: 0,
        }
    }
}

impl Calibration {
    /// The factor never leaves this range, so one absurd report cannot wreck the counts.
    pub const RANGE: (f64, f64) = (0.5, 4.0);

    /// Folds in one report: compactor counted `counted` for a prompt the provider billed as
    /// `reported`. The first report sets the factor; later ones move it by a quarter of the
    /// way, so a drifting tokenizer is followed without jitter.
    pub fn observe(&mut self, counted: u64, reported: u64) {
        if counted == 0 || reported == 0 {
            return;
        }
        let ratio = (reported as f64 / counted as f64).clamp(Self::RANGE.0, Self::RANGE.1);
        self.factor = if self.observations == 0 {
            ratio
        } else {
            self.factor + (ratio - self.factor) * 0.25
        };
        self.observations = self.observations.saturating_add(1);
    }

    /// `raw` scaled by the factor, rounded up.
    pub fn apply(&self, raw: u64) -> u64 {
        if self.observations == 0 {
            raw
        } else {
            (raw as f64 * self.factor).ceil() as u64
        }
    }
}
