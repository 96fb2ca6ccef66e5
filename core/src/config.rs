//! What a compactor can be told, checked once when the handle is made. Ground floor: the
//! planners read it, the run is built from it.

use crate::budget::{BudgetConfig, BudgetError};

/// The smallest summary the engine asks for, in tokens: below this a summary cannot hold
/// the facts it must keep.
pub const MIN_SUMMARY_TOKENS: u64 = 64;

/// Everything a compactor can be told.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(default, rename_all = "camelCase")
)]
pub struct CompactionConfig {
    /// The numbers (model, window, ratios…).
    pub budget: BudgetConfig,
    /// LIGHT and MODERATE keep at least this many recent turns raw (4), and more while
    /// they fit in `tail_tokens`.
    pub keep_recent_turns: usize,
    /// The raw tail's size in tokens: the newest turns up to this many (default `None`:
    /// half the run's target).
    pub tail_tokens: Option<u64>,
    /// The fewest turns AGGRESSIVE keeps raw (1); it keeps as many more as the target
    /// leaves room for.
    pub min_tail_turns: usize,
    /// LIGHT never clears the newest this many tool results (3).
    pub keep_tool_results: usize,
    /// The largest summary asked for, in tokens (16,000; at least [`MIN_SUMMARY_TOKENS`]): a
    /// ceiling only, since every request asks for the room its plan leaves it.
    pub max_summary_tokens: u64,
    /// The model summaries are asked of; handed to the summarizer in every request
    /// (default: the conversation's model).
    pub summary_model: Option<String>,
    /// The provider of `summary_model`, handed to the summarizer in every request.
    pub summary_provider: Option<String>,
    /// Keep earlier summaries and summarize only what came since (true).
    pub enable_incremental: bool,
    /// Failed runs before a session's circuit opens (3).
    pub max_failures: u32,
    /// After this long (caller's clock, ms) an open circuit closes by itself; `None`: only
    /// [`Compactor::reset_circuit`](crate::engine::Compactor::reset_circuit) closes it.
    pub breaker_cooldown_ms: Option<u64>,
    /// Below this many messages a run is skipped (4).
    pub min_messages: usize,
    /// LIGHT clears at least this many tokens or nothing: every rewrite breaks the
    /// provider's prompt cache (1000).
    pub clear_at_least: u64,
    /// MODERATE keeps old user messages verbatim up to this many tokens, newest first (2000).
    pub max_preserved_user_tokens: u64,
    /// The summarizer's input window: larger inputs are map-reduced in chunks (64,000).
    pub summarizer_input_tokens: u64,
    /// A request unanswered this long after it was handed out counts as failed (6 minutes).
    pub request_timeout_ms: u64,
    /// Attempts per request when the summarizer answers that the input is too long (3).
    pub max_attempts: u32,
    /// A run that cannot cut this share of the tokens reports `NoProgress` (0.05); not
    /// for reactive runs, where any cut counts.
    pub min_reduction: f64,
    /// Requests in flight at once: `poll` hands out no more (8).
    pub max_concurrency: usize,
    /// Summaries kept in the cache shared by the handle's clones; the least recently used
    /// go first (1024).
    pub cache_capacity: usize,
    /// Sessions whose breaker and latest result the handle remembers; the least recently
    /// used go first (1024).
    pub session_capacity: usize,
    /// The offline [`Extractive`](crate::extractive::Extractive) summarizer stands in when
    /// a session's circuit is open, and for a failed MAXIMUM summary, instead of failing
    /// (false). Needs the `extractive` feature.
    pub extractive_fallback: bool,
    /// What tokens cost, relative to uncached input: the session's default policy
    /// weighs them ([`crate::policy`]).
    pub prices: crate::policy::Prices,
    /// Hand tool outputs (tool results, a text-action agent's observations) to the
    /// running summary's summarizer whole. By default (`false`) an AGGRESSIVE or MAXIMUM
    /// request reads each as the fact-keeping placeholder LIGHT gives a cleared result —
    /// command, exit status, error lines, paths — and the summary's trail carries the
    /// facts of the output itself: on coding-agent runs that keeps about as many facts for
    /// half the summarizer input. MODERATE's summaries read their segments whole. Under a
    /// session's default policy a message longer than the answer asked for is read
    /// clipped to that size ([`Sizing::clip_inputs`](crate::policy::Sizing::clip_inputs));
    /// set, every message is read whole. Set it when the outputs are the information (web
    /// pages, documents) the summary must retell.
    pub summarize_outputs: bool,
    /// The caller's focus, added to every summary prompt (`"keep the database schema
    /// decisions"`), fenced apart from the transcript; part of the summary cache key.
    /// At most [`MAX_INSTRUCTIONS_CHARS`] characters, not blank (default `None`).
    pub instructions: Option<String>,
}

impl Default for CompactionConfig {
    fn default() -> Self {
        Self {
            budget: BudgetConfig::default(),
            keep_recent_turns: 4,
            tail_tokens: None,
            min_tail_turns: 1,
            keep_tool_results: 3,
            max_summary_tokens: 16_000,
            summary_model: None,
            summary_provider: None,
            enable_incremental: true,
            max_failures: 3,
            breaker_cooldown_ms: None,
            min_messages: 4,
            clear_at_least: 1_000,
            max_preserved_user_tokens: 2_000,
            summarizer_input_tokens: 64_000,
            request_timeout_ms: 6 * 60 * 1000,
            max_attempts: 3,
            min_reduction: 0.05,
            max_concurrency: 8,
            cache_capacity: 1024,
            session_capacity: 1024,
            extractive_fallback: false,
            prices: crate::policy::Prices::default(),
            summarize_outputs: false,
            instructions: None,
        }
    }
}

/// The largest count a caller may give for turns, messages and concurrency: far past any
/// real conversation, small enough that no loop over it can hang.
pub const MAX_COUNT: usize = 1_000_000;
/// The longest `instructions`, in characters: a focus, not a second prompt.
pub const MAX_INSTRUCTIONS_CHARS: usize = 2_000;
/// The most attempts per request: each retry halves the input, so more are pointless.
pub const MAX_ATTEMPTS: u32 = 16;

/// One range check: passed, the field, what it must be, what it was.
type Check<'a> = (bool, &'static str, &'static str, &'a dyn std::fmt::Display);

/// A configuration the engine refuses. Nothing was created.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigError {
    /// A field is out of its range.
    #[error("{field}: expected {expected}, found {found}")]
    Invalid {
        /// The field, as in the Rust struct (`max_summary_tokens`).
        field: &'static str,
        /// What it must be.
        expected: &'static str,
        /// What it was.
        found: String,
    },
    /// The numbers could not be resolved.
    #[error(transparent)]
    Budget(#[from] BudgetError),
}

impl CompactionConfig {
    /// Checks every field against its range. [`Compactor::new`](crate::engine::Compactor::new)
    /// calls it; the engine relies on it (no clamp or shift on an unchecked number).
    pub fn validate(&self) -> Result<(), ConfigError> {
        let failed = self
            .count_checks()
            .into_iter()
            .chain(self.other_checks())
            .find(|(ok, ..)| !ok);
        if let Some((_, field, expected, found)) = failed {
            return Err(ConfigError::Invalid {
                field,
                expected,
                found: found.to_string(),
            });
        }
        if let Some(instructions) = &self.instructions {
            let chars = instructions.chars().count();
            if chars > MAX_INSTRUCTIONS_CHARS || instructions.trim().is_empty() {
                return Err(ConfigError::Invalid {
                    field: "instructions",
                    expected: "a text of 1 to 2000 characters, not blank",
                    found: format!("{chars} characters"),
                });
            }
        }
        if !(0.0..=1.0).contains(&self.min_reduction) {
            return Err(ConfigError::Invalid {
                field: "min_reduction",
                expected: "a number from 0 to 1",
                found: crate::budget::Float(self.min_reduction).to_string(),
            });
        }
        if !self.prices.is_valid() {
            return Err(ConfigError::Invalid {
                field: "prices",
                expected: "finite numbers of at least 0",
                // Each number through `Float`: `f64`'s own formatting would add ~7 kB
                // gzipped to the wasm packages.
                found: format!(
                    "cached {}, cache write {}, output {}",
                    crate::budget::Float(self.prices.cached),
                    crate::budget::Float(self.prices.cache_write),
                    crate::budget::Float(self.prices.output)
                ),
            });
        }
        self.budget.resolve()?;
        Ok(())
    }

    /// The counts a caller gives: each a bounded integer, so no loop over one can hang.
    fn count_checks(&self) -> [Check<'_>; 7] {
        let count = |n: usize| (1..=MAX_COUNT).contains(&n);
        let counts = "an integer from 1 to 1000000";
        let any = "an integer from 0 to 1000000";
        [
            (
                count(self.keep_recent_turns),
                "keep_recent_turns",
                counts,
                &self.keep_recent_turns,
            ),
            (
                count(self.min_tail_turns),
                "min_tail_turns",
                counts,
                &self.min_tail_turns,
            ),
            (
                self.min_messages <= MAX_COUNT,
                "min_messages",
                any,
                &self.min_messages,
            ),
            (
                self.keep_tool_results <= MAX_COUNT,
                "keep_tool_results",
                any,
                &self.keep_tool_results,
            ),
            (
                count(self.max_concurrency),
                "max_concurrency",
                counts,
                &self.max_concurrency,
            ),
            (
                self.cache_capacity <= MAX_COUNT,
                "cache_capacity",
                any,
                &self.cache_capacity,
            ),
            (
                count(self.session_capacity),
                "session_capacity",
                counts,
                &self.session_capacity,
            ),
        ]
    }

    /// Sizes, times, attempts, shares and the features the settings need.
    fn other_checks(&self) -> [Check<'_>; 6] {
        [
            (
                self.max_summary_tokens >= MIN_SUMMARY_TOKENS,
                "max_summary_tokens",
                "an integer of at least 64",
                &self.max_summary_tokens,
            ),
            (
                self.summarizer_input_tokens >= 4 * MIN_SUMMARY_TOKENS,
                "summarizer_input_tokens",
                "an integer of at least 256",
                &self.summarizer_input_tokens,
            ),
            (
                self.max_failures >= 1,
                "max_failures",
                "an integer of at least 1",
                &self.max_failures,
            ),
            (
                self.request_timeout_ms >= 1,
                "request_timeout_ms",
                "an integer of at least 1",
                &self.request_timeout_ms,
            ),
            (
                (1..=MAX_ATTEMPTS).contains(&self.max_attempts),
                "max_attempts",
                "an integer from 1 to 16",
                &self.max_attempts,
            ),
            (
                !self.extractive_fallback || cfg!(feature = "extractive"),
                "extractive_fallback",
                "false in a build without the extractive summarizer",
                &self.extractive_fallback,
            ),
        ]
    }
}

/// Why a run was started.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "lowercase")
)]
pub enum Trigger {
    /// Before a call: compacts only when a signal fired.
    Proactive,
    /// The provider refused the request as too long: always compacts further (the count
    /// is wrong for this model, or the previous result was still too long), or fails;
    /// never a no-op. The run aims at the target as usual, and at most `target_ratio` of
    /// the input (a quarter off by default), walking the ladder to MAXIMUM if it must.
    /// `min_reduction` does not apply: any result smaller than the input is returned
    /// (`target_met` says whether the target was reached), since the input is what the
    /// provider refused. A run that cannot cut a single token fails with `ContextOverflow`
    /// naming what remains, or with `SummaryFailed` when a summary failed on the way.
    Reactive,
    /// Asked for by a person or the agent: compacts towards the target whatever the signals.
    Manual,
}
