//! The numbers a conversation is measured against, resolved as
//! explicit override > model catalog entry > default.
//!
//! | number | meaning | default |
//! |---|---|---|
//! | `max_context_tokens` | the model's hard window | catalog |
//! | `output_reserve` | tokens kept free for the answer | catalog max output, else 4096 |
//! | `comfort_tokens` | size past which answers degrade | 128,000 |
//! | `effective_limit` | `min(comfort_tokens, max_context_tokens)` | derived |
//! | `trigger_ratio` | compaction starts above `trigger_ratio × effective_limit` | 0.92 |
//! | `target_ratio` | a run stops at or below `target_ratio × effective_limit` | 0.75 |
//! | `absolute_limit` | `max_context_tokens − output_reserve` | derived |
//! | `max_messages` | a message-count signal | 50 (`None`: off) |
//!
//! The ratios apply to `min(effective_limit, absolute_limit)`, not to the effective limit
//! alone: for a model like GPT-4o (128K window, 16K output) `0.92 × 128,000` lies above
//! the absolute limit, and compaction would start only once the provider already refuses.

use crate::catalog::Encoding;
use crate::catalog::{self, ModelInfo};

/// Default `comfort_tokens`.
pub const DEFAULT_COMFORT_TOKENS: u64 = 128_000;
/// Default `output_reserve` when the catalog has no entry.
pub const DEFAULT_OUTPUT_RESERVE: u64 = 4_096;
/// Default `trigger_ratio`.
pub const DEFAULT_TRIGGER_RATIO: f64 = 0.92;
/// Default `target_ratio`.
pub const DEFAULT_TARGET_RATIO: f64 = 0.75;
/// Default `max_messages`.
pub const DEFAULT_MAX_MESSAGES: usize = 50;

/// What the caller sets; every `None` is resolved from the catalog or the defaults.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(default, rename_all = "camelCase")
)]
pub struct BudgetConfig {
    /// The model's name, looked up in the [catalog](crate::catalog::lookup).
    pub model: Option<String>,
    /// Overrides the hard window.
    pub max_context_tokens: Option<u64>,
    /// Overrides the tokens kept free for the answer.
    pub output_reserve: Option<u64>,
    /// Overrides the size past which answers degrade.
    pub comfort_tokens: Option<u64>,
    /// Overrides the trigger ratio (0 < target < trigger ≤ 1).
    pub trigger_ratio: Option<f64>,
    /// Overrides the target ratio.
    pub target_ratio: Option<f64>,
    /// The message-count signal; `None` turns it off.
    pub max_messages: Option<usize>,
    /// Overrides the tokenizer.
    pub encoding: Option<Encoding>,
}

impl Default for BudgetConfig {
    fn default() -> Self {
        Self {
            model: None,
            max_context_tokens: None,
            output_reserve: None,
            comfort_tokens: None,
            trigger_ratio: None,
            target_ratio: None,
            max_messages: Some(DEFAULT_MAX_MESSAGES),
            encoding: None,
        }
    }
}

/// The resolved numbers.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "camelCase")
)]
pub struct Budget {
    /// The catalog entry's name, when the model was found.
    pub model: Option<String>,
    /// The model's hard window.
    pub max_context_tokens: u64,
    /// Tokens kept free for the answer.
    pub output_reserve: u64,
    /// Size past which answers degrade.
    pub comfort_tokens: u64,
    /// `min(comfort_tokens, max_context_tokens)`.
    pub effective_limit: u64,
    /// The trigger ratio in force.
    pub trigger_ratio: f64,
    /// The target ratio in force.
    pub target_ratio: f64,
    /// Compaction starts above this many tokens.
    pub trigger_tokens: u64,
    /// A run stops at or below this many tokens.
    pub target_tokens: u64,
    /// `max_context_tokens − output_reserve`: only exceeding this is an overflow.
    pub absolute_limit: u64,
    /// The message-count signal, if on.
    pub max_messages: Option<usize>,
    /// When the message-count signal is on: a run also stops at or below this many
    /// messages (`max_messages × target_ratio`), or it would fire again next turn.
    pub target_messages: Option<usize>,
    /// The tokenizer to count with.
    pub encoding: Encoding,
}

/// Why the numbers could not be resolved. Nothing has changed when this is returned.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum BudgetError {
    /// The model is not in the catalog and no window was given: pass `max_context_tokens`.
    #[error("unknown model {0:?}: give its context window (max_context_tokens)")]
    UnknownModel(String),
    /// Neither a model nor a window was given.
    #[error("no model and no context window given: set one of them")]
    NoWindow,
    /// The ratios must satisfy 0 < target < trigger ≤ 1.
    #[error(
        "ratios must satisfy 0 < target ({}) < trigger ({}) <= 1",
        Float(*.target),
        Float(*.trigger)
    )]
    BadRatios {
        /// The trigger ratio given.
        trigger: f64,
        /// The target ratio given.
        target: f64,
    },
    /// The output reserve leaves no room for a prompt.
    #[error(
        "output reserve {output_reserve} leaves no room in a window of {max_context_tokens} tokens"
    )]
    NoRoom {
        /// The window.
        max_context_tokens: u64,
        /// The reserve.
        output_reserve: u64,
    },
    /// `max_messages` must be at least 2 (a request and an answer).
    #[error("max_messages must be at least 2, got {0}")]
    BadMaxMessages(usize),
}

/// A float as messages show it: the shortest text that reads back as the same number.
pub(crate) struct Float(pub(crate) f64);

impl std::fmt::Display for Float {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(zmij::Buffer::new().format(self.0))
    }
}

impl BudgetConfig {
    /// A configuration for a catalog model with every other number at its default.
    pub fn for_model(model: impl Into<String>) -> Self {
        Self {
            model: Some(model.into()),
            ..Self::default()
        }
    }

    /// Resolves the numbers: explicit override > catalog entry > default.
    pub fn resolve(&self) -> Result<Budget, BudgetError> {
        let info: Option<&ModelInfo> = match &self.model {
            Some(name) => match catalog::lookup(name) {
                Some(info) => Some(info),
                None if self.max_context_tokens.is_some() => None,
                None => return Err(BudgetError::UnknownModel(name.clone())),
            },
            None => None,
        };
        let max_context_tokens = self
            .max_context_tokens
            .or(info.map(|i| i.max_context_tokens))
            .ok_or(BudgetError::NoWindow)?;
        let output_reserve = self
            .output_reserve
            .or(info.map(|i| i.max_output_tokens))
            .unwrap_or(DEFAULT_OUTPUT_RESERVE);
        if output_reserve >= max_context_tokens {
            return Err(BudgetError::NoRoom {
                max_context_tokens,
                output_reserve,
            });
        }
        let comfort_tokens = self
            .comfort_tokens
            .or(info.and_then(|i| i.comfort_tokens))
            .unwrap_or(DEFAULT_COMFORT_TOKENS);
        let trigger_ratio = self.trigger_ratio.unwrap_or(DEFAULT_TRIGGER_RATIO);
        let target_ratio = self.target_ratio.unwrap_or(DEFAULT_TARGET_RATIO);
        let ratios_ok = target_ratio > 0.0 && target_ratio < trigger_ratio && trigger_ratio <= 1.0;
        if !ratios_ok {
            return Err(BudgetError::BadRatios {
                trigger: trigger_ratio,
                target: target_ratio,
            });
        }
        if let Some(max) = self.max_messages.filter(|&max| max < 2) {
            return Err(BudgetError::BadMaxMessages(max));
        }
        let effective_limit = comfort_tokens.min(max_context_tokens);
        let absolute_limit = max_context_tokens - output_reserve;
        let ratio_base = effective_limit.min(absolute_limit) as f64;
        let ratio_of = |ratio: f64| (ratio_base * ratio).floor() as u64;
        Ok(Budget {
            model: info
                .map(|i| i.name.to_owned())
                .or_else(|| self.model.clone()),
            max_context_tokens,
            output_reserve,
            comfort_tokens,
            effective_limit,
            trigger_ratio,
            target_ratio,
            trigger_tokens: ratio_of(trigger_ratio),
            target_tokens: ratio_of(target_ratio),
            absolute_limit,
            max_messages: self.max_messages,
            target_messages: self
                .max_messages
                .map(|max| ((max as f64 * target_ratio).floor() as usize).max(2)),
            encoding: self
                .encoding
                .or(info.map(|i| i.encoding))
                .unwrap_or(Encoding::O200kBase),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalog_models_resolve_with_defaults() {
        let budget = BudgetConfig::for_model("gpt-4o")
            .resolve()
            .expect("known model");
        assert_eq!(budget.max_context_tokens, 128_000);
        assert_eq!(budget.output_reserve, 16_384);
        assert_eq!(budget.effective_limit, 128_000);
        assert_eq!(budget.absolute_limit, 111_616);
        // 0.92 × 128,000 would lie above the absolute limit: ratios apply to 111,616.
        assert_eq!(budget.trigger_tokens, 102_686);
        assert_eq!(budget.target_tokens, 83_712);
        assert_eq!(budget.target_messages, Some(37));
        assert_eq!(budget.encoding, Encoding::O200kBase);
    }

    #[test]
    fn comfort_caps_large_windows() {
        let budget = BudgetConfig::for_model("gpt-4.1")
            .resolve()
            .expect("known model");
        assert_eq!(budget.effective_limit, DEFAULT_COMFORT_TOKENS);
        assert_eq!(budget.trigger_tokens, 117_760);
    }

    #[test]
    fn overrides_beat_the_catalog() {
        let config = BudgetConfig {
            max_context_tokens: Some(10_000),
            output_reserve: Some(1_000),
            trigger_ratio: Some(0.8),
            target_ratio: Some(0.5),
            max_messages: None,
            ..BudgetConfig::for_model("gpt-4o")
        };
        let budget = config.resolve().expect("valid numbers");
        assert_eq!(
            (
                budget.effective_limit,
                budget.trigger_tokens,
                budget.target_tokens
            ),
            (10_000, 7_200, 4_500)
        );
        assert_eq!(budget.absolute_limit, 9_000);
        assert_eq!(budget.target_messages, None);
    }

    #[test]
    fn unknown_models_need_a_window() {
        let unknown = BudgetConfig::for_model("my-local-llama");
        assert_eq!(
            unknown.resolve(),
            Err(BudgetError::UnknownModel("my-local-llama".into()))
        );
        let with_window = BudgetConfig {
            max_context_tokens: Some(32_768),
            ..unknown
        };
        let budget = with_window.resolve().expect("window given");
        assert_eq!(budget.output_reserve, DEFAULT_OUTPUT_RESERVE);
        assert_eq!(budget.model.as_deref(), Some("my-local-llama"));
        assert_eq!(
            BudgetConfig::default().resolve(),
            Err(BudgetError::NoWindow)
        );
    }

    #[test]
    fn bad_numbers_are_refused() {
        let base = BudgetConfig::for_model("gpt-4o");
        let bad_ratio = BudgetConfig {
            trigger_ratio: Some(0.5),
            target_ratio: Some(0.6),
            ..base.clone()
        };
        let error = bad_ratio.resolve().expect_err("target above trigger");
        assert!(matches!(error, BudgetError::BadRatios { .. }));
        assert_eq!(
            error.to_string(),
            "ratios must satisfy 0 < target (0.6) < trigger (0.5) <= 1"
        );
        let no_room = BudgetConfig {
            output_reserve: Some(128_000),
            ..base.clone()
        };
        assert!(matches!(no_room.resolve(), Err(BudgetError::NoRoom { .. })));
        let few = BudgetConfig {
            max_messages: Some(1),
            ..base
        };
        assert_eq!(few.resolve(), Err(BudgetError::BadMaxMessages(1)));
    }
}
