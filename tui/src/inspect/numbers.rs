//! The numbers editor's model: the window, reserve, ratios, tail and focus the run can be
//! re-done with, edited in place as text (the keys: [`edit`](super::edit)).

use compactor::budget::Budget;
use compactor::engine::CompactionConfig;

/// The numbers that can be edited in place and the run re-done with.
#[derive(Debug, Clone, PartialEq)]
pub struct Numbers {
    /// The model's window.
    pub max_context: u64,
    /// Tokens kept free for the answer.
    pub output_reserve: u64,
    /// Compaction starts above this share of the limit.
    pub trigger: f64,
    /// A run stops at or below this share.
    pub target: f64,
    /// Recent turns kept raw.
    pub keep_recent_turns: usize,
    /// What every summary should focus on (the config's `instructions`); empty for none.
    pub focus: String,
}

impl Numbers {
    /// Field labels, in edit order.
    pub const LABELS: [&'static str; 6] = [
        "window",
        "output reserve",
        "trigger",
        "target",
        "keep recent turns",
        "focus",
    ];

    /// The field that takes any text (the others take numbers).
    pub const FOCUS: usize = 5;

    /// The numbers in force for `config`.
    pub fn of(config: &CompactionConfig, budget: &Budget) -> Self {
        Self {
            max_context: budget.max_context_tokens,
            output_reserve: budget.output_reserve,
            trigger: budget.trigger_ratio,
            target: budget.target_ratio,
            keep_recent_turns: config.keep_recent_turns,
            focus: config.instructions.clone().unwrap_or_default(),
        }
    }

    /// Field `i` as text.
    pub fn field(&self, i: usize) -> String {
        match i {
            0 => self.max_context.to_string(),
            1 => self.output_reserve.to_string(),
            2 => format!("{}", self.trigger),
            3 => format!("{}", self.target),
            4 => self.keep_recent_turns.to_string(),
            _ => self.focus.clone(),
        }
    }

    /// Sets field `i` from text.
    pub fn set_field(&mut self, i: usize, text: &str) -> Result<(), String> {
        let label = Numbers::LABELS.get(i).copied().unwrap_or("field");
        let bad = |_| format!("{label}: {text:?} is not a number");
        let bad_ratio = |_| format!("{label}: {text:?} is not a number");
        match i {
            0 => self.max_context = text.trim().parse().map_err(bad)?,
            1 => self.output_reserve = text.trim().parse().map_err(bad)?,
            2 => self.trigger = text.trim().parse().map_err(bad_ratio)?,
            3 => self.target = text.trim().parse().map_err(bad_ratio)?,
            4 => self.keep_recent_turns = text.trim().parse().map_err(bad)?,
            _ => self.focus = text.trim().to_owned(),
        }
        Ok(())
    }

    /// `config` with these numbers.
    pub fn apply(&self, config: &CompactionConfig) -> CompactionConfig {
        let mut config = config.clone();
        config.budget.max_context_tokens = Some(self.max_context);
        config.budget.output_reserve = Some(self.output_reserve);
        config.budget.trigger_ratio = Some(self.trigger);
        config.budget.target_ratio = Some(self.target);
        config.keep_recent_turns = self.keep_recent_turns;
        config.instructions = (!self.focus.is_empty()).then(|| self.focus.clone());
        config
    }
}
