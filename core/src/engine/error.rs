//! Why a run failed.

use crate::budget::BudgetError;
use crate::engine::{RequestId, SummaryFailure};
use crate::level::Level;
use crate::message::MessageId;
use crate::pin::PinError;
use crate::segment::SegmentError;
use crate::validate::ValidationError;

/// A message and its tokens, for overflow reports.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "camelCase")
)]
pub struct Offender {
    /// The message.
    pub id: MessageId,
    /// Its tokens.
    pub tokens: u64,
}

impl Offender {
    /// `offenders` largest first; those of equal size in the order they were said.
    pub(crate) fn largest_first(offenders: &mut [Offender]) {
        crate::sort::sort_by_key(offenders, |o| std::cmp::Reverse(o.tokens));
    }
}

/// Why a run failed. In every case the caller's conversation is unchanged: use the
/// messages you had.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum CompactError {
    /// The session holds no messages: nothing to do, and not a failure (the breaker does
    /// not count it).
    #[error("no messages to compact")]
    NoMessagesToCompact,
    /// A MAXIMUM summary failed; the conversation could not be brought under the limit.
    #[error("summary at level {level} failed: {failure}")]
    SummaryFailed {
        /// The level.
        level: Level,
        /// The summarizer's failure.
        failure: SummaryFailure,
    },
    /// The store could not be read or written; nothing was written.
    #[error("session store failed: {0}")]
    PersistFailed(String),
    /// Too many failed runs: compaction is off for this session until
    /// [`Compactor::reset_circuit`](super::Compactor::reset_circuit) (or the cool-down passes).
    #[error(
        "circuit open for session {session:?} after {failures} failed runs; reset it to try again"
    )]
    CircuitOpen {
        /// The session.
        session: String,
        /// Failed runs counted.
        failures: u32,
    },
    /// Even fully compacted, the conversation exceeds the absolute limit — or, for a
    /// reactive run (the provider refused it), it could not be made any smaller: these
    /// messages (largest first) are what remains. Remove or shorten them.
    #[error("context overflow: {tokens} tokens left after compaction (absolute limit {limit}); largest messages: {}", offenders.iter().take(5).map(|o| format!("{} ({} tokens)", o.id, o.tokens)).collect::<Vec<_>>().join(", "))]
    ContextOverflow {
        /// Tokens left.
        tokens: u64,
        /// The absolute limit.
        limit: u64,
        /// The messages that remain, largest first.
        offenders: Vec<Offender>,
    },
    /// The store changed since it was read in a way other than appends at its end (those
    /// are rebased); nothing was written. Read again and retry.
    #[error("session changed meanwhile: expected version {expected}, found {found}")]
    Conflict {
        /// The version read, as the store displays it.
        expected: String,
        /// The version found at write time, as the store displays it.
        found: String,
    },
    /// The run was cancelled; nothing was applied.
    #[error("cancelled")]
    Cancelled,
    /// The conversation's tool calls and results do not pair up.
    #[error("invalid conversation: {0}")]
    InvalidConversation(#[from] SegmentError),
    /// A pinned index is past the end of the conversation; nothing ran.
    #[error("pin: {0}")]
    Pin(#[from] PinError),
    /// The numbers could not be resolved.
    #[error(transparent)]
    Budget(#[from] BudgetError),
    /// The result failed its final check (a bug); the original is kept.
    #[error("result refused by validation: {0}")]
    Validation(#[from] ValidationError),
    /// `complete` named a request this run never issued. Nothing changed.
    #[error("unknown request {0:?}")]
    UnknownRequest(RequestId),
    /// `complete` named a request already settled: answered, failed, or moot because
    /// another part of its summary failed. Nothing changed; drivers may ignore it.
    #[error("request {0:?} was already settled")]
    StaleRequest(RequestId),
}

impl CompactError {
    /// Does this failure count towards the session's circuit breaker? Only the
    /// summarizer's: an oversized system prompt or a bug is not cured by waiting, and
    /// opening the circuit would only hide it.
    pub(crate) fn counts_as_failure(&self) -> bool {
        matches!(self, CompactError::SummaryFailed { .. })
    }
}
