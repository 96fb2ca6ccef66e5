//! What a finished run returns: its status, the messages to use, and the numbers.

use crate::level::Level;
use crate::message::Message;
use crate::receipt::LostFacts;

/// The outcome's kind.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(
        tag = "kind",
        rename_all = "camelCase",
        rename_all_fields = "camelCase"
    )
)]
#[non_exhaustive]
pub enum Status {
    /// Nothing to do; the messages are the input.
    Skipped {
        /// Why.
        reason: SkipReason,
    },
    /// The input is this session's latest result: returned as it is.
    NoOp,
    /// Compacted; `target_met` says whether the target was reached.
    Compacted {
        /// At or below the target.
        target_met: bool,
    },
    /// No level could cut `min_reduction` of the tokens: the input is returned unchanged,
    /// so an agent cannot spin in a compaction loop. Never for a reactive run (it is
    /// returned smaller, or fails).
    NoProgress,
}

/// Why a run was skipped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "camelCase")
)]
#[non_exhaustive]
pub enum SkipReason {
    /// No signal fired (proactive runs only).
    BelowTrigger,
    /// Fewer than `min_messages` messages.
    TooFewMessages,
    /// The session or every message opts out of compaction.
    NotCompactable,
}

/// One level's part in a run.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "camelCase")
)]
pub struct LevelReport {
    /// The level.
    pub level: Level,
    /// Tokens when it began.
    pub tokens_before: u64,
    /// Tokens when it ended.
    pub tokens_after: u64,
    /// Requests it issued (retries included).
    pub requests: u32,
    /// Summaries it took from the cache.
    pub cache_hits: u32,
    /// Requests that failed.
    pub failures: u32,
}

/// What a run did, in numbers.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "camelCase")
)]
pub struct Report {
    /// Tokens of the input.
    pub tokens_before: u64,
    /// Tokens of the result.
    pub tokens_after: u64,
    /// Messages of the input.
    pub messages_before: usize,
    /// Messages of the result.
    pub messages_after: usize,
    /// The target aimed at.
    pub target_tokens: u64,
    /// The levels walked, in order.
    pub levels: Vec<LevelReport>,
    /// Requests issued in all.
    pub requests: u32,
    /// Cache hits in all.
    pub cache_hits: u32,
    /// Failed requests in all.
    pub failures: u32,
    /// Prompt tokens handed to the summarizer in all.
    pub summary_input_tokens: u64,
    /// The idempotency key of the result, when it holds a summary.
    pub key: Option<String>,
    /// The circuit was open and the offline extractive summarizer stood in.
    pub extractive_fallback: bool,
    /// The loss receipt: the input's facts absent from the result (see
    /// [`crate::receipt::lost_facts`]). Filled when the run compacted; empty (all zero)
    /// when the messages returned are the input, which loses nothing.
    #[cfg_attr(feature = "serde", serde(default))]
    pub lost_facts: LostFacts,
}

/// A finished run.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "camelCase")
)]
pub struct Outcome {
    /// What happened.
    pub status: Status,
    /// The conversation to use from now on.
    pub messages: Vec<Message>,
    /// The numbers.
    pub report: Report,
}
