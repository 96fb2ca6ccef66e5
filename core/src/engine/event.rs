//! Events: what happened during a run, for live displays and logs.

use crate::engine::{RequestId, Status, Trigger};
use crate::level::Level;
use crate::overflow::{Signals, Target};

/// Something that happened during a run, for live displays and logs.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(
        tag = "type",
        rename_all = "camelCase",
        rename_all_fields = "camelCase"
    )
)]
#[non_exhaustive]
pub enum Event {
    /// The input was assessed.
    Assessed {
        /// Its tokens.
        tokens: u64,
        /// Its messages.
        messages: usize,
        /// The signals that fired.
        signals: Signals,
        /// The target of the run.
        target: Target,
        /// Why the run started.
        trigger: Trigger,
    },
    /// A reactive run compacts although the count says the conversation fits.
    ReactiveOverride {
        /// Tokens counted.
        counted: u64,
        /// The absolute limit.
        absolute_limit: u64,
    },
    /// A level began.
    LevelEntered {
        /// The level.
        level: Level,
        /// Tokens at its start.
        tokens: u64,
    },
    /// A level was skipped: even at best it could not reach the target, so its requests
    /// would only have fed the next level.
    LevelSkipped {
        /// The level.
        level: Level,
        /// The best result it could have reached.
        predicted: u64,
    },
    /// A level ended.
    LevelLeft {
        /// The level.
        level: Level,
        /// Tokens at its start.
        tokens_before: u64,
        /// Tokens at its end.
        tokens_after: u64,
    },
    /// A request was handed out.
    RequestIssued {
        /// Its id.
        id: RequestId,
        /// The level.
        level: Level,
        /// Messages covered.
        covers: usize,
        /// Prompt tokens.
        input_tokens: u64,
        /// Attempt number.
        attempt: u32,
    },
    /// A request was answered with a usable summary.
    RequestAnswered {
        /// Its id.
        id: RequestId,
        /// Tokens of the summary.
        tokens: u64,
    },
    /// A request failed; at LIGHT–AGGRESSIVE the covered messages stay as they were.
    RequestFailed {
        /// Its id.
        id: RequestId,
        /// Why.
        reason: String,
    },
    /// A summary was taken from the cache instead of asked for.
    CacheHit {
        /// The level.
        level: Level,
        /// Messages covered.
        covers: usize,
    },
    /// A best-effort level kept original messages because a summary failed.
    FallbackTaken {
        /// The level.
        level: Level,
        /// Messages kept.
        kept: usize,
        /// Why.
        reason: String,
    },
    /// The summarizer answered with nothing: a marker stands for its answer, and the
    /// summary's trail keeps what the request folds. Not a failure: the run goes on.
    EmptyAnswer {
        /// The request.
        id: RequestId,
    },
    /// A summary dropped artifact references; they were appended to it.
    ArtifactRefsRestored {
        /// The request.
        id: RequestId,
        /// The references restored.
        refs: Vec<String>,
    },
    /// The offline extractive summarizer answers this run's requests from here on: the
    /// session's circuit is open, or a MAXIMUM summary failed (`extractive_fallback`).
    ExtractiveFallback {
        /// The level it stands in from; `None` for the whole run.
        level: Option<Level>,
        /// Why.
        reason: String,
    },
    /// The session's circuit opened: runs are refused until it is reset.
    CircuitOpened {
        /// The session.
        session: String,
        /// Consecutive failed runs.
        failures: u32,
    },
    /// The run finished.
    Finished {
        /// Its status.
        status: Status,
        /// Tokens before.
        tokens_before: u64,
        /// Tokens after.
        tokens_after: u64,
    },
}
