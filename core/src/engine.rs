//! The compaction run: a state machine the caller drives.
//!
//! [`Compactor::begin`] assesses the conversation and returns a [`Run`]. The invariant
//! every driver keeps: **after `begin` or `complete`, poll until `Wait` or `Done`**.
//! [`Run::poll`] hands out [`SummaryRequest`]s (all of a level's at once, to run in
//! parallel), says to wait, or finishes. Each request must be answered by
//! [`Run::complete`] or the whole run dropped with [`Run::cancel`]. Events are drained
//! with [`Run::events`].
//!
//! Nothing is applied to the caller's conversation: the run works on its own copy and
//! returns the result in the [`Outcome`], or the original when anything went wrong.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use crate::budget::{Budget, BudgetConfig, BudgetError};
use crate::hash::{ContentHash, Hasher, message_hash};
use crate::ladder::Level;
use crate::message::{Message, MessageId, Part, Role};
use crate::overflow::{Signals, Target, assess};
use crate::prompt::{PROMPT_VERSION, PromptKind, PromptMessage, artifact_refs, build};
use crate::prune::{cleared_placeholder, clip_middle, is_cleared, recognize, summary_message};
use crate::segment::{SegmentError, SegmentKind, Segmentation, UnitKind, segment};
use crate::select::{Tail, TailPolicy, select_tail};
use crate::tokens::TokenAccountant;
use crate::validate::{ValidationError, validate};

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
    /// Recent turns kept raw (4).
    pub keep_recent_turns: usize,
    /// The fewest turns AGGRESSIVE keeps raw (1); it keeps more, up to
    /// `keep_recent_turns`, while the target leaves its summary room.
    pub min_tail_turns: usize,
    /// The largest summary asked for, in tokens (1000).
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
    /// [`Compactor::reset_circuit`] closes it.
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
    /// A request unanswered this long after it was issued counts as failed (6 minutes).
    pub request_timeout_ms: u64,
    /// Attempts per request when the summarizer answers that the input is too long (3).
    pub max_attempts: u32,
    /// A run that cannot cut this share of the tokens reports `NoProgress` (0.05).
    pub min_reduction: f64,
    /// Requests a driver runs at once (8).
    pub max_concurrency: usize,
    /// When a session's circuit is open, [`Compactor::compact`] compacts with the offline
    /// [`Extractive`](crate::extractive::Extractive) summarizer instead of refusing (false).
    pub extractive_fallback: bool,
}

impl Default for CompactionConfig {
    fn default() -> Self {
        Self {
            budget: BudgetConfig::default(),
            keep_recent_turns: 4,
            min_tail_turns: 1,
            max_summary_tokens: 1_000,
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
            extractive_fallback: false,
        }
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
    /// The provider refused the request as too long: compacts even if the count says it
    /// fits (the count is wrong for this model), and says so in an event.
    Reactive,
    /// Asked for by a person or the agent: compacts towards the target whatever the signals.
    Manual,
}

/// Identifies a summary request within its run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(transparent)
)]
pub struct RequestId(pub u64);

/// A summary to be written by the caller's model. Plain data.
#[must_use = "a request must be answered with Run::complete, or the run cancelled"]
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "camelCase")
)]
pub struct SummaryRequest {
    /// Answer with this id.
    pub id: RequestId,
    /// The ladder level asking.
    pub level: Level,
    /// The prompt: a system instruction and the fenced transcript.
    pub prompt: Vec<PromptMessage>,
    /// The longest answer wanted.
    pub max_output_tokens: u64,
    /// The messages the summary will stand for.
    pub covers: Vec<MessageId>,
    /// Turns since the newest covered message.
    pub age: usize,
    /// The model to ask ([`CompactionConfig::summary_model`], else the conversation's).
    pub model: Option<String>,
    /// The provider of that model.
    pub provider: Option<String>,
    /// Past this time (caller's clock, ms) the request counts as failed.
    pub deadline_ms: u64,
    /// 1 for the first attempt; higher after "input too long" answers.
    pub attempt: u32,
    /// Tokens of the prompt.
    pub input_tokens: u64,
}

/// Why a summarizer did not deliver.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(tag = "kind", content = "message", rename_all = "camelCase")
)]
#[non_exhaustive]
pub enum SummaryFailure {
    /// The model refused the input as too long: the request is retried with less.
    #[error("input too long for the summarizer")]
    InputTooLong,
    /// Any other failure, with the summarizer's words.
    #[error("{0}")]
    Failed(String),
}

/// What `poll` tells the driver to do.
#[derive(Debug)]
#[non_exhaustive]
pub enum Step {
    /// Run these requests (concurrently), then answer each with `complete`.
    Summarize(Vec<SummaryRequest>),
    /// Requests are in flight: wait for one to finish and `complete` it.
    Wait,
    /// The run is over: use the outcome's messages.
    Done(Outcome),
    /// The run failed: keep the original conversation. Nothing was applied.
    Failed(CompactError),
}

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
    /// so an agent cannot spin in a compaction loop.
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
    /// A summary dropped artifact references; they were appended to it.
    ArtifactRefsRestored {
        /// The request.
        id: RequestId,
        /// The references restored.
        refs: Vec<String>,
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
    /// [`Compactor::reset_circuit`] (or the cool-down passes).
    #[error(
        "circuit open for session {session:?} after {failures} failed runs; reset it to try again"
    )]
    CircuitOpen {
        /// The session.
        session: String,
        /// Failed runs counted.
        failures: u32,
    },
    /// Even fully compacted, the conversation exceeds the absolute limit: these messages
    /// (largest first) are what remains. Remove or shorten them.
    #[error("context overflow: {tokens} tokens over the absolute limit of {limit} even after compaction; largest messages: {}", offenders.iter().take(5).map(|o| format!("{} ({} tokens)", o.id, o.tokens)).collect::<Vec<_>>().join(", "))]
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
    /// Does this failure count towards the session's circuit breaker?
    fn counts_as_failure(&self) -> bool {
        matches!(
            self,
            CompactError::SummaryFailed { .. }
                | CompactError::Validation(_)
                | CompactError::ContextOverflow { .. }
        )
    }
}

#[derive(Default)]
struct SessionState {
    failures: u32,
    opened_at_ms: Option<u64>,
    /// The latest result: its key, the content hash of each message (ids change when a
    /// result is stored as JSON and read back; content does not), and its report.
    last: Option<(String, Vec<ContentHash>, Report)>,
    /// Tokens of the conversation the session's latest `begin` assessed.
    last_tokens: Option<u64>,
}

#[derive(Default)]
struct Shared {
    cache: HashMap<String, String>,
    sessions: HashMap<String, SessionState>,
}

/// The engine's handle: configuration, token memo, summary cache and per-session breaker
/// state. Clones share the memo, the cache and the sessions.
#[derive(Clone)]
pub struct Compactor {
    config: CompactionConfig,
    budget: Budget,
    accountant: TokenAccountant,
    shared: Arc<Mutex<Shared>>,
}

impl std::fmt::Debug for Compactor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Compactor")
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

impl Compactor {
    /// A compactor with `config`; counts with the budget's encoding.
    pub fn new(config: CompactionConfig) -> Result<Self, BudgetError> {
        let budget = config.budget.resolve()?;
        let accountant = TokenAccountant::new(budget.encoding.counter());
        Ok(Self::with_accountant(config, budget, accountant))
    }

    /// A compactor counting through `accountant` (to share a memo, or count with a
    /// custom [`TokenCounter`](crate::tokens::TokenCounter)).
    pub fn with_accountant(
        config: CompactionConfig,
        budget: Budget,
        accountant: TokenAccountant,
    ) -> Self {
        Self {
            config,
            budget,
            accountant,
            shared: Arc::default(),
        }
    }

    /// The configuration.
    pub fn config(&self) -> &CompactionConfig {
        &self.config
    }

    /// The resolved numbers.
    pub fn budget(&self) -> &Budget {
        &self.budget
    }

    /// The token accountant (memo and calibration).
    pub fn accountant(&self) -> &TokenAccountant {
        &self.accountant
    }

    fn shared(&self) -> MutexGuard<'_, Shared> {
        // Cache and breaker counters stay consistent under any panic: each update is one
        // assignment.
        self.shared.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Forgets every cached summary, for every clone of this handle.
    pub fn clear_cache(&self) {
        self.shared().cache.clear();
    }

    /// How many summaries the cache holds.
    pub fn cache_len(&self) -> usize {
        self.shared().cache.len()
    }

    /// Closes a session's circuit and forgets its failures.
    pub fn reset_circuit(&self, session: &str) {
        if let Some(state) = self.shared().sessions.get_mut(session) {
            state.failures = 0;
            state.opened_at_ms = None;
        }
    }

    /// Is the session's circuit open at `now_ms`?
    pub fn circuit_open(&self, session: &str, now_ms: u64) -> bool {
        let mut shared = self.shared();
        let Some(state) = shared.sessions.get_mut(session) else {
            return false;
        };
        match (state.opened_at_ms, self.config.breaker_cooldown_ms) {
            (Some(opened), Some(cooldown)) if now_ms.saturating_sub(opened) >= cooldown => {
                state.opened_at_ms = None;
                state.failures = 0;
                false
            }
            (Some(_), _) => true,
            (None, _) => false,
        }
    }

    /// Starts a run over `messages` for `session`. Summary messages the engine wrote
    /// earlier are recognized by their marker.
    pub fn begin(
        &self,
        session: &str,
        messages: Vec<Message>,
        trigger: Trigger,
        now_ms: u64,
    ) -> Result<Run, CompactError> {
        self.begin_inner(session, messages, trigger, now_ms, true)
    }

    /// Tokens of the conversation this session's latest run assessed (memoized counts:
    /// an agent loop can check it before deciding to call `begin`).
    pub fn token_count_hint(&self, session: &str) -> Option<u64> {
        self.shared()
            .sessions
            .get(session)
            .and_then(|s| s.last_tokens)
    }

    /// `begin` past an open circuit, for the offline fallback: a run whose requests the
    /// caller answers with [`Extractive`](crate::extractive::Extractive), which does not
    /// depend on the model whose failures opened the circuit.
    /// [`Compactor::compact`](crate::driver) does this when
    /// [`CompactionConfig::extractive_fallback`] is set; other drivers (the npm package's)
    /// call it themselves.
    pub fn begin_fallback(
        &self,
        session: &str,
        messages: Vec<Message>,
        trigger: Trigger,
        now_ms: u64,
    ) -> Result<Run, CompactError> {
        self.begin_inner(session, messages, trigger, now_ms, false)
    }

    /// `begin`, optionally past an open circuit.
    fn begin_inner(
        &self,
        session: &str,
        mut messages: Vec<Message>,
        trigger: Trigger,
        now_ms: u64,
        check_breaker: bool,
    ) -> Result<Run, CompactError> {
        if messages.is_empty() {
            return Err(CompactError::NoMessagesToCompact);
        }
        if check_breaker && self.circuit_open(session, now_ms) {
            let failures = self
                .shared()
                .sessions
                .get(session)
                .map_or(0, |s| s.failures);
            return Err(CompactError::CircuitOpen {
                session: session.to_owned(),
                failures,
            });
        }
        recognize(&mut messages);
        for i in 0..messages.len() {
            if messages[i]
                .compaction
                .as_ref()
                .is_some_and(|meta| meta.key.is_empty())
            {
                let key = result_key(session, &messages[..=i]).unwrap_or_default();
                if let Some(meta) = messages[i].compaction.as_mut() {
                    meta.key = key;
                }
            }
        }
        segment(&messages)?;
        let assessment = assess(&self.accountant, &messages, &self.budget);
        let tokens_before = assessment.total_tokens;
        self.shared()
            .sessions
            .entry(session.to_owned())
            .or_default()
            .last_tokens = Some(tokens_before);
        let mut target = assessment.target;
        let mut events = vec![];
        if trigger != Trigger::Proactive {
            target.tokens = target
                .tokens
                .min((tokens_before as f64 * self.budget.target_ratio) as u64);
            if trigger == Trigger::Reactive && !assessment.signals.over_absolute_limit {
                events.push(Event::ReactiveOverride {
                    counted: tokens_before,
                    absolute_limit: self.budget.absolute_limit,
                });
            }
        }
        events.insert(
            0,
            Event::Assessed {
                tokens: tokens_before,
                messages: messages.len(),
                signals: assessment.signals,
                target,
                trigger,
            },
        );
        let report = Report {
            tokens_before,
            tokens_after: tokens_before,
            messages_before: messages.len(),
            messages_after: messages.len(),
            target_tokens: target.tokens,
            ..Report::default()
        };
        let mut run = Run {
            session: session.to_owned(),
            compactor: self.clone(),
            original: messages.clone(),
            current: messages,
            tokens_before,
            target,
            events,
            report,
            next_level: 0,
            level: None,
            next_request: 1,
            outbox: Vec::new(),
            finished: None,
            created: Vec::new(),
            now_ms,
            fallback: !check_breaker,
            #[cfg(feature = "serde")]
            format: None,
        };
        let last = self
            .shared()
            .sessions
            .get(session)
            .and_then(|s| s.last.clone());
        if let Some((key, hashes, report)) = last {
            let hashes_now: Vec<ContentHash> = run.current.iter().map(message_hash).collect();
            if result_key(session, &run.current).as_deref() == Some(key.as_str())
                && hashes_now == hashes
            {
                run.report = Report {
                    key: Some(key),
                    ..report
                };
                run.finish_with(Status::NoOp, false);
                return Ok(run);
            }
        }
        if run
            .current
            .iter()
            .all(|m| !m.compactable || m.is_compaction())
        {
            run.finish_with(
                Status::Skipped {
                    reason: SkipReason::NotCompactable,
                },
                false,
            );
        } else if run.current.len() < self.config.min_messages {
            run.finish_with(
                Status::Skipped {
                    reason: SkipReason::TooFewMessages,
                },
                false,
            );
        } else if trigger == Trigger::Proactive && !assessment.needs_compaction() {
            run.finish_with(
                Status::Skipped {
                    reason: SkipReason::BelowTrigger,
                },
                false,
            );
        }
        Ok(run)
    }

    /// Assesses without starting a run.
    pub fn assess(&self, messages: &[Message]) -> crate::overflow::Assessment {
        assess(&self.accountant, messages, &self.budget)
    }
}

/// MODERATE groups consecutive old segments until a request covers this many tokens.
const MIN_REQUEST_TOKENS: u64 = 2_000;
/// MODERATE leaves alone what is smaller than this: its summary would not be smaller.
const MIN_SEGMENT_TOKENS: u64 = 150;

/// Tokens a summary message adds around the summary itself (marker line and notice).
const SUMMARY_FRAMING_TOKENS: u64 = 80;

/// The idempotency key of a conversation: `(session, last summarized message id, head
/// count)`, taken from its newest summary; `None` without one.
pub fn result_key(session: &str, messages: &[Message]) -> Option<String> {
    let (index, meta) = messages
        .iter()
        .enumerate()
        .rev()
        .find_map(|(i, m)| m.compaction.as_ref().map(|meta| (i, meta)))?;
    let last = meta.covers.last().map(MessageId::as_str).unwrap_or("-");
    let hash = Hasher::new()
        .str(session)
        .str(last)
        .u64(index as u64 + 1)
        .finish();
    Some(format!("k{}", &hash.to_hex()[..12]))
}

#[derive(Debug)]
struct Chunk {
    messages: Vec<Message>,
    /// The answer's size limit: the job's, or less for the map step of a map-reduce, so
    /// that all partial summaries fit the summarizer's window together.
    max_output_tokens: u64,
    request: Option<RequestId>,
    deadline_ms: u64,
    attempt: u32,
    result: Option<String>,
}

#[derive(Debug)]
enum JobState {
    Open,
    Done(String),
    Failed(SummaryFailure),
}

#[derive(Debug)]
struct Job {
    /// Indices into the run's current messages that the summary replaces.
    replace: Vec<usize>,
    covers: Vec<MessageId>,
    age: usize,
    existing: Option<String>,
    max_output_tokens: u64,
    cache_key: String,
    chunks: Vec<Chunk>,
    reduce: Option<Chunk>,
    state: JobState,
}

#[derive(Debug)]
struct LevelRun {
    level: Level,
    jobs: Vec<Job>,
    report: LevelReport,
}

/// One compaction run. See the [module docs](self) for the driving loop.
pub struct Run {
    session: String,
    compactor: Compactor,
    original: Vec<Message>,
    current: Vec<Message>,
    tokens_before: u64,
    target: Target,
    events: Vec<Event>,
    report: Report,
    next_level: usize,
    level: Option<LevelRun>,
    next_request: u64,
    outbox: Vec<SummaryRequest>,
    finished: Option<Result<Outcome, CompactError>>,
    created: Vec<MessageId>,
    /// The caller's clock at the latest `begin`, `complete` or `expire`: requests issued
    /// by the next `poll` take their deadline from it.
    now_ms: u64,
    /// Begun past an open circuit for the offline summarizer: its summaries stay out of
    /// the cache (the model should write them once it is back), and it neither resets the
    /// session's failures nor becomes its latest result.
    fallback: bool,
    #[cfg(feature = "serde")]
    format: Option<crate::format::Format>,
}

impl std::fmt::Debug for Run {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Run")
            .field("session", &self.session)
            .field("level", &self.level.as_ref().map(|l| l.level))
            .field("finished", &self.finished.is_some())
            .finish_non_exhaustive()
    }
}

impl Run {
    /// Also checks the result against the rules of the provider `format` the conversation
    /// travels in ([`validate_format`](crate::validate::validate_format)) before it leaves.
    /// Call before the first `poll`.
    #[cfg(feature = "serde")]
    pub fn check_format(&mut self, format: crate::format::Format) {
        self.format = Some(format);
    }

    /// The session this run belongs to.
    pub fn session(&self) -> &str {
        &self.session
    }

    /// The target the run aims at.
    pub fn target(&self) -> Target {
        self.target
    }

    /// The level being walked, if any.
    pub fn current_level(&self) -> Option<Level> {
        self.level.as_ref().map(|l| l.level)
    }

    /// The conversation as the run has it now (levels applied so far).
    pub fn messages(&self) -> &[Message] {
        &self.current
    }

    /// Drains the events that happened since the last call.
    pub fn events(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.events)
    }

    /// Advances the run. Call after `begin` and after each `complete`, until `Wait`,
    /// `Done` or `Failed`.
    pub fn poll(&mut self) -> Step {
        loop {
            if let Some(finished) = &self.finished {
                return match finished.clone() {
                    Ok(outcome) => Step::Done(outcome),
                    Err(error) => Step::Failed(error),
                };
            }
            if !self.outbox.is_empty() {
                return Step::Summarize(std::mem::take(&mut self.outbox));
            }
            match &self.level {
                Some(level) if level.jobs.iter().any(|j| matches!(j.state, JobState::Open)) => {
                    return Step::Wait;
                }
                Some(_) => self.end_level(),
                None => self.start_next_level(),
            }
        }
    }

    /// Answers request `id` with the summarizer's text or failure, at `now_ms` on the
    /// caller's clock (an answer past the request's deadline counts as a failure).
    pub fn complete(
        &mut self,
        id: RequestId,
        result: Result<String, SummaryFailure>,
        now_ms: u64,
    ) -> Result<(), CompactError> {
        self.now_ms = self.now_ms.max(now_ms);
        let config = self.compactor.config.clone();
        // Ids are issued in sequence: one below the next is known, and if it is not
        // pending any more, its answer is stale.
        let not_pending = if (1..self.next_request).contains(&id.0) {
            CompactError::StaleRequest(id)
        } else {
            CompactError::UnknownRequest(id)
        };
        let Some(level) = self.level.as_mut() else {
            return Err(not_pending);
        };
        let found = level.jobs.iter_mut().enumerate().find_map(|(j, job)| {
            if job
                .reduce
                .as_ref()
                .is_some_and(|c| c.request == Some(id) && c.result.is_none())
            {
                return Some((j, None));
            }
            job.chunks
                .iter()
                .position(|c| c.request == Some(id) && c.result.is_none())
                .map(|c| (j, Some(c)))
        });
        let Some((j, chunk_index)) = found else {
            return Err(not_pending);
        };
        let level_name = level.level;
        let job = &mut level.jobs[j];
        if !matches!(job.state, JobState::Open) {
            return Err(not_pending);
        }
        let chunk = match chunk_index {
            Some(c) => &mut job.chunks[c],
            None => job.reduce.as_mut().ok_or(not_pending)?,
        };
        let result = if now_ms > chunk.deadline_ms {
            Err(SummaryFailure::Failed("deadline exceeded".into()))
        } else {
            result
        };
        let accountant = self.compactor.accountant.clone();
        match result {
            Ok(text) => {
                let text = text.trim().to_owned();
                let tokens = accountant.text_tokens(&text);
                let limit = chunk.max_output_tokens + chunk.max_output_tokens / 2 + 16;
                if text.is_empty() {
                    return self.fail_job(j, id, SummaryFailure::Failed("empty summary".into()));
                }
                if tokens > limit {
                    return self.fail_job(
                        j,
                        id,
                        SummaryFailure::Failed(format!(
                            "summary of {tokens} tokens exceeds {limit}"
                        )),
                    );
                }
                let input: String = chunk
                    .messages
                    .iter()
                    .map(Message::text)
                    .collect::<Vec<_>>()
                    .join("\n");
                let missing: Vec<String> = artifact_refs(&input)
                    .into_iter()
                    .filter(|r| !text.contains(r.as_str()))
                    .collect();
                let text = if missing.is_empty() {
                    text
                } else {
                    self.events.push(Event::ArtifactRefsRestored {
                        id,
                        refs: missing.clone(),
                    });
                    format!("{text}\n- Artifacts: {}", missing.join(" "))
                };
                self.events.push(Event::RequestAnswered { id, tokens });
                chunk.result = Some(text);
                let level = self.level.as_mut().expect("level in progress");
                let job = &mut level.jobs[j];
                if chunk_index.is_none() || (job.chunks.len() == 1) {
                    let text = if chunk_index.is_none() {
                        job.reduce.as_ref().and_then(|c| c.result.clone())
                    } else {
                        job.chunks[0].result.clone()
                    };
                    if let Some(text) = text {
                        if !self.fallback {
                            self.compactor
                                .shared()
                                .cache
                                .insert(job.cache_key.clone(), text.clone());
                        }
                        job.state = JobState::Done(text);
                    }
                } else if job.chunks.iter().all(|c| c.result.is_some()) && job.reduce.is_none() {
                    // The existing running summary (incremental mode) is the first part.
                    let partials: Vec<Message> = job
                        .existing
                        .iter()
                        .cloned()
                        .chain(
                            job.chunks
                                .iter()
                                .map(|c| c.result.clone().unwrap_or_default()),
                        )
                        .enumerate()
                        .map(|(i, text)| Message::user(format!("part{i}").as_str(), text))
                        .collect();
                    let mut reduce = Chunk {
                        messages: partials,
                        max_output_tokens: job.max_output_tokens,
                        request: None,
                        deadline_ms: 0,
                        attempt: 1,
                        result: None,
                    };
                    let request =
                        self.issue(level_name, j, &mut reduce, PromptKind::Reduce, &config);
                    let level = self.level.as_mut().expect("level in progress");
                    level.jobs[j].reduce = Some(reduce);
                    self.outbox.push(request);
                }
                Ok(())
            }
            Err(SummaryFailure::InputTooLong) if chunk.attempt < config.max_attempts => {
                // Escalating truncation: each retry halves every message of the input.
                chunk.attempt += 1;
                let share = 1u64 << (chunk.attempt - 1);
                for message in &mut chunk.messages {
                    let tokens = accountant.message_tokens(message);
                    shrink(message, &accountant, (tokens / share).max(32));
                }
                self.events.push(Event::RequestFailed {
                    id,
                    reason: "input too long: retrying with a smaller input".into(),
                });
                let kind = match chunk_index {
                    None => PromptKind::Reduce,
                    Some(_) => PromptKind::Running { existing: None },
                };
                let mut taken = std::mem::replace(
                    chunk,
                    Chunk {
                        messages: vec![],
                        max_output_tokens: 0,
                        request: None,
                        deadline_ms: 0,
                        attempt: 0,
                        result: None,
                    },
                );
                let existing = job.existing.clone();
                let kind = if job.chunks.len() == 1 && chunk_index.is_some() {
                    if level_name == Level::Moderate {
                        PromptKind::Segment { age: job.age }
                    } else {
                        PromptKind::Running {
                            existing: existing.as_deref(),
                        }
                    }
                } else {
                    kind
                };
                let request = self.issue(level_name, j, &mut taken, kind, &config);
                let level = self.level.as_mut().expect("level in progress");
                let job = &mut level.jobs[j];
                match chunk_index {
                    Some(c) => job.chunks[c] = taken,
                    None => job.reduce = Some(taken),
                }
                level.report.failures += 1;
                self.report.failures += 1;
                self.outbox.push(request);
                Ok(())
            }
            Err(failure) => self.fail_job(j, id, failure),
        }
    }

    /// Fails every request still in flight whose deadline passed at `now_ms`. Drivers call
    /// it when their timer fires, so a hung summarizer cannot hold a run forever.
    pub fn expire(&mut self, now_ms: u64) {
        self.now_ms = self.now_ms.max(now_ms);
        let overdue: Vec<RequestId> = self
            .level
            .iter()
            .flat_map(|l| l.jobs.iter())
            .filter(|j| matches!(j.state, JobState::Open))
            .flat_map(|j| j.chunks.iter().chain(j.reduce.iter()))
            .filter(|c| c.result.is_none() && c.deadline_ms < now_ms)
            .filter_map(|c| c.request)
            .collect();
        for id in overdue {
            let _ = self.complete(
                id,
                Err(SummaryFailure::Failed("deadline exceeded".into())),
                now_ms,
            );
        }
    }

    /// The requests in flight: issued and not yet answered.
    pub fn in_flight(&self) -> Vec<RequestId> {
        self.level
            .iter()
            .flat_map(|l| l.jobs.iter())
            .filter(|j| matches!(j.state, JobState::Open))
            .flat_map(|j| j.chunks.iter().chain(j.reduce.iter()))
            .filter(|c| c.result.is_none())
            .filter_map(|c| c.request)
            .collect()
    }

    /// Stops the run at once. Nothing is applied; `poll` answers `Failed(Cancelled)`.
    pub fn cancel(&mut self) {
        if self.finished.is_none() {
            self.outbox.clear();
            self.level = None;
            self.finished = Some(Err(CompactError::Cancelled));
        }
    }

    fn fail_job(
        &mut self,
        j: usize,
        id: RequestId,
        failure: SummaryFailure,
    ) -> Result<(), CompactError> {
        self.events.push(Event::RequestFailed {
            id,
            reason: failure.to_string(),
        });
        self.report.failures += 1;
        if let Some(level) = self.level.as_mut() {
            level.report.failures += 1;
            level.jobs[j].state = JobState::Failed(failure);
        }
        Ok(())
    }

    fn issue(
        &mut self,
        level: Level,
        job_index: usize,
        chunk: &mut Chunk,
        kind: PromptKind<'_>,
        config: &CompactionConfig,
    ) -> SummaryRequest {
        let now_ms = self.now_ms;
        let id = RequestId(self.next_request);
        self.next_request += 1;
        let max_output_tokens = chunk.max_output_tokens;
        let (covers, age) = match self.level.as_ref().map(|l| &l.jobs[job_index]) {
            Some(job) => (job.covers.clone(), job.age),
            None => (Vec::new(), 0),
        };
        let prompt = build(kind, &chunk.messages, max_output_tokens);
        // The transcript's messages are counted through the memo (they were counted when
        // the level was planned); only the instruction and the existing summary are new
        // text. Re-tokenizing whole prompts cost a third of a level's time on long inputs.
        let accountant = &self.compactor.accountant;
        let input_tokens: u64 = chunk
            .messages
            .iter()
            .map(|m| accountant.message_tokens(m))
            .sum::<u64>()
            + prompt.first().map_or(0, |instruction| {
                accountant.text_tokens(&instruction.content)
            })
            + match kind {
                PromptKind::Running {
                    existing: Some(summary),
                } => accountant.text_tokens(summary),
                _ => 0,
            };
        chunk.request = Some(id);
        chunk.deadline_ms = now_ms.saturating_add(config.request_timeout_ms);
        chunk.result = None;
        self.report.requests += 1;
        self.report.summary_input_tokens += input_tokens;
        if let Some(level) = self.level.as_mut() {
            level.report.requests += 1;
        }
        self.events.push(Event::RequestIssued {
            id,
            level,
            covers: covers.len(),
            input_tokens,
            attempt: chunk.attempt,
        });
        SummaryRequest {
            id,
            level,
            prompt,
            max_output_tokens,
            covers,
            age,
            model: config
                .summary_model
                .clone()
                .or_else(|| self.compactor.budget.model.clone()),
            provider: config.summary_provider.clone(),
            deadline_ms: chunk.deadline_ms,
            attempt: chunk.attempt,
            input_tokens,
        }
    }

    fn tokens(&self) -> u64 {
        let counts = self.compactor.accountant.count_messages(&self.current);
        self.compactor.accountant.total(&counts)
    }

    fn start_next_level(&mut self) {
        let Some(&level) = Level::ALL.get(self.next_level) else {
            self.finish(self.tokens());
            return;
        };
        self.next_level += 1;
        let tokens = self.tokens();
        self.events.push(Event::LevelEntered { level, tokens });
        let report = LevelReport {
            level,
            tokens_before: tokens,
            tokens_after: tokens,
            requests: 0,
            cache_hits: 0,
            failures: 0,
        };
        let segmentation = match segment(&self.current) {
            Ok(s) => s,
            Err(e) => {
                self.fail(CompactError::InvalidConversation(e));
                return;
            }
        };
        let counts = self.compactor.accountant.count_messages(&self.current);
        let config = &self.compactor.config;
        let jobs = match level {
            Level::Light => {
                let tail = select_tail(
                    &segmentation,
                    &counts,
                    &TailPolicy::for_budget(config.keep_recent_turns, &self.compactor.budget),
                );
                self.clear_tool_results(tail.start);
                Vec::new()
            }
            Level::Moderate => {
                let tail = select_tail(
                    &segmentation,
                    &counts,
                    &TailPolicy::for_budget(config.keep_recent_turns, &self.compactor.budget),
                );
                self.segment_jobs(&segmentation, &counts, &tail)
            }
            Level::Aggressive => {
                // Keep as many recent turns raw as still leave the running summary at
                // least half its allowed size: folding all but the newest turn would land
                // far under the target and discard context the budget has room for.
                let floor = config.max_summary_tokens / 2;
                let most = config.keep_recent_turns.max(config.min_tail_turns);
                let mut fold = None;
                for turns in (config.min_tail_turns..=most).rev() {
                    let policy = TailPolicy {
                        keep_recent_turns: turns,
                        max_tail_tokens: None,
                    };
                    let tail = select_tail(&segmentation, &counts, &policy);
                    let keep = |i: usize| i >= tail.start;
                    fold = self.running_fold(level, &segmentation, &counts, &keep);
                    if fold
                        .as_ref()
                        .is_some_and(|&(_, max_output)| max_output >= floor)
                    {
                        break;
                    }
                }
                fold.map(|fold| self.running_job(level, fold))
                    .into_iter()
                    .collect()
            }
            Level::Maximum => {
                let newest_user = self.current.iter().rposition(|m| {
                    m.role == Role::User && !m.is_compaction() && m.tool_results().next().is_none()
                });
                let pending = segmentation
                    .units
                    .last()
                    .filter(|u| u.kind == UnitKind::PendingCalls)
                    .map(|u| u.messages.clone());
                let keep = |i: usize| {
                    Some(i) == newest_user || pending.as_ref().is_some_and(|p| p.contains(&i))
                };
                self.running_fold(level, &segmentation, &counts, &keep)
                    .map(|fold| self.running_job(level, fold))
                    .into_iter()
                    .collect()
            }
        };
        // A level that cannot reach the target even if every summary comes back at half
        // its allowed size would only feed the next level: skip it and save its requests.
        if matches!(level, Level::Moderate | Level::Aggressive) && !jobs.is_empty() {
            let replaced: u64 = jobs
                .iter()
                .flat_map(|j| j.replace.iter())
                .map(|&i| counts[i])
                .sum();
            let summaries: u64 = jobs
                .iter()
                .map(|j| j.max_output_tokens / 2 + SUMMARY_FRAMING_TOKENS)
                .sum();
            let predicted = tokens.saturating_sub(replaced) + summaries;
            let messages_after = self.current.len()
                - jobs.iter().map(|j| j.replace.len()).sum::<usize>()
                + jobs.len();
            if !self.target.is_met(predicted, messages_after) {
                self.events.push(Event::LevelSkipped { level, predicted });
                self.events.push(Event::LevelLeft {
                    level,
                    tokens_before: tokens,
                    tokens_after: tokens,
                });
                self.report.levels.push(report);
                return;
            }
        }
        let mut level_run = LevelRun {
            level,
            jobs,
            report,
        };
        // Serve what the cache has; hand out requests for the rest.
        let config = self.compactor.config.clone();
        let mut requests = Vec::new();
        for j in 0..level_run.jobs.len() {
            let cached = self
                .compactor
                .shared()
                .cache
                .get(&level_run.jobs[j].cache_key)
                .cloned();
            if let Some(text) = cached {
                level_run.report.cache_hits += 1;
                self.report.cache_hits += 1;
                self.events.push(Event::CacheHit {
                    level,
                    covers: level_run.jobs[j].covers.len(),
                });
                level_run.jobs[j].state = JobState::Done(text);
            }
        }
        self.level = Some(level_run);
        let open: Vec<usize> = self
            .level
            .iter()
            .flat_map(|l| l.jobs.iter().enumerate())
            .filter(|(_, j)| matches!(j.state, JobState::Open))
            .map(|(i, _)| i)
            .collect();
        for j in open {
            let level_run = self.level.as_mut().expect("level set above");
            let job = &mut level_run.jobs[j];
            let single = job.chunks.len() == 1;
            let existing = job.existing.clone();
            let age = job.age;
            let mut chunks = std::mem::take(&mut job.chunks);
            for chunk in &mut chunks {
                let kind = match (level, single) {
                    (Level::Moderate, _) => PromptKind::Segment { age },
                    (_, true) => PromptKind::Running {
                        existing: existing.as_deref(),
                    },
                    (_, false) => PromptKind::Running { existing: None },
                };
                requests.push(self.issue(level, j, chunk, kind, &config));
            }
            let level_run = self.level.as_mut().expect("level set above");
            level_run.jobs[j].chunks = chunks;
        }
        self.outbox.extend(requests);
    }

    /// LIGHT: clears old tool-result bodies before `tail_start`, all or nothing.
    fn clear_tool_results(&mut self, tail_start: usize) {
        let accountant = self.compactor.accountant.clone();
        let names: HashMap<String, String> = self
            .current
            .iter()
            .flat_map(|m| m.tool_calls())
            .map(|c| (c.id.clone(), c.name.clone()))
            .collect();
        let mut plan: Vec<(usize, usize, String, u64)> = Vec::new();
        for (i, message) in self.current.iter().enumerate().take(tail_start) {
            if !message.compactable {
                continue;
            }
            for (p, part) in message.parts.iter().enumerate() {
                let Part::ToolResult(result) = part else {
                    continue;
                };
                let body = Message::new("x", Role::Tool, result.content.clone()).text();
                if is_cleared(&body) || result.content.iter().any(|c| matches!(c, Part::Media(_))) {
                    continue;
                }
                let tokens = accountant.text_tokens(&body);
                let tool = result
                    .tool_name
                    .clone()
                    .or_else(|| names.get(&result.call_id).cloned())
                    .unwrap_or_else(|| "tool".into());
                let placeholder = cleared_placeholder(&tool, tokens);
                if tokens > accountant.text_tokens(&placeholder) * 2 {
                    plan.push((i, p, placeholder, tokens));
                }
            }
        }
        let cleared: u64 = plan.iter().map(|(.., tokens)| tokens).sum();
        if cleared < self.compactor.config.clear_at_least {
            return;
        }
        for (i, p, placeholder, _) in plan {
            if let Part::ToolResult(result) = &mut self.current[i].parts[p] {
                result.content = vec![Part::text(placeholder)];
            }
        }
    }

    /// Indices of messages in units that are entirely compactable and not kept.
    fn replaceable(
        &self,
        segmentation: &Segmentation,
        range: std::ops::Range<usize>,
        keep: &dyn Fn(usize) -> bool,
    ) -> Vec<usize> {
        segmentation
            .units
            .iter()
            .filter(|u| u.messages.start >= range.start && u.messages.end <= range.end)
            .filter(|u| {
                u.messages
                    .clone()
                    .all(|i| self.current[i].compactable && !keep(i))
            })
            .flat_map(|u| u.messages.clone())
            .collect()
    }

    fn cache_key(&self, level: Level, messages: &[&Message], existing: Option<&str>) -> String {
        let mut hasher = Hasher::new();
        hasher
            .str(&self.session)
            .str(level.as_str())
            .u64(u64::from(PROMPT_VERSION));
        hasher.str(existing.unwrap_or(""));
        for message in messages {
            hasher.message(message);
        }
        hasher.finish().to_hex()
    }

    /// MODERATE: one job per old segment; old user messages kept verbatim, newest first.
    fn segment_jobs(&self, segmentation: &Segmentation, counts: &[u64], tail: &Tail) -> Vec<Job> {
        let config = &self.compactor.config;
        let mut preserved = vec![false; self.current.len()];
        let mut kept_tokens = 0;
        for i in (0..tail.start).rev() {
            let m = &self.current[i];
            let plain_user =
                m.role == Role::User && !m.is_compaction() && m.tool_results().next().is_none();
            if plain_user && kept_tokens + counts[i] <= config.max_preserved_user_tokens {
                kept_tokens += counts[i];
                preserved[i] = true;
            }
        }
        let keep = |i: usize| preserved[i] || self.current[i].is_compaction();
        // Consecutive small segments share a request, so the prompt's fixed instruction
        // is paid per MIN_REQUEST_TOKENS of history, not per turn. A kept message (user
        // input, earlier summary) closes a group, so summaries stay in order around it.
        let mut jobs = Vec::new();
        let mut group: Vec<usize> = Vec::new();
        let mut group_tokens = 0;
        let mut group_age = 0;
        let flush = |group: &mut Vec<usize>, tokens: &mut u64, age: usize, jobs: &mut Vec<Job>| {
            if *tokens >= MIN_SEGMENT_TOKENS {
                let share = if age >= 8 {
                    0.15
                } else if age >= 3 {
                    0.25
                } else {
                    0.4
                };
                let max_output_tokens =
                    ((*tokens as f64 * share) as u64).clamp(64, config.max_summary_tokens);
                jobs.push(self.job(
                    Level::Moderate,
                    std::mem::take(group),
                    age,
                    None,
                    max_output_tokens,
                ));
            }
            group.clear();
            *tokens = 0;
        };
        for s in segmentation
            .segments
            .iter()
            .filter(|s| s.kind == SegmentKind::Exchange && s.index < tail.first_segment)
        {
            if s.messages
                .clone()
                .any(|i| keep(i) || !self.current[i].compactable)
            {
                flush(&mut group, &mut group_tokens, group_age, &mut jobs);
            }
            let replace = self.replaceable(segmentation, s.messages.clone(), &keep);
            group_tokens += replace.iter().map(|&i| counts[i]).sum::<u64>();
            group.extend(replace);
            group_age = s.age;
            if group_tokens >= MIN_REQUEST_TOKENS {
                flush(&mut group, &mut group_tokens, group_age, &mut jobs);
            }
        }
        flush(&mut group, &mut group_tokens, group_age, &mut jobs);
        jobs
    }

    /// AGGRESSIVE and MAXIMUM: one running summary of everything not kept.
    /// What a running summary over everything `keep` leaves out would replace, and the
    /// summary's size limit: the room the kept messages leave under the target, within
    /// `max_summary_tokens` (a summary sized for a large window would overflow a small
    /// one). `None` when nothing is replaceable or, below MAXIMUM, when the summary would
    /// not be smaller than what it replaces (no progress).
    fn running_fold(
        &self,
        level: Level,
        segmentation: &Segmentation,
        counts: &[u64],
        keep: &dyn Fn(usize) -> bool,
    ) -> Option<(Vec<usize>, u64)> {
        let replace = self.replaceable(segmentation, 0..self.current.len(), keep);
        if replace.is_empty() {
            return None;
        }
        let tokens: u64 = replace.iter().map(|&i| counts[i]).sum();
        let kept: u64 = counts.iter().sum::<u64>() - tokens;
        let room = self
            .target
            .tokens
            .saturating_sub(kept + SUMMARY_FRAMING_TOKENS);
        let max_output_tokens = (room * 9 / 10).clamp(64, self.compactor.config.max_summary_tokens);
        (tokens > max_output_tokens || level == Level::Maximum)
            .then_some((replace, max_output_tokens))
    }

    /// The running summary's job for a fold from [`Run::running_fold`].
    fn running_job(&self, level: Level, (replace, max_output_tokens): (Vec<usize>, u64)) -> Job {
        let existing = if self.compactor.config.enable_incremental {
            replace
                .iter()
                .filter_map(|&i| self.current[i].compaction.as_ref())
                .rfind(|meta| meta.level >= Level::Aggressive)
                .map(|meta| meta.summary_text.clone())
        } else {
            None
        };
        self.job(level, replace, 0, existing, max_output_tokens)
    }

    fn job(
        &self,
        level: Level,
        replace: Vec<usize>,
        age: usize,
        existing: Option<String>,
        max_output_tokens: u64,
    ) -> Job {
        let config = &self.compactor.config;
        let accountant = &self.compactor.accountant;
        let covers: Vec<MessageId> = replace
            .iter()
            .flat_map(|&i| match &self.current[i].compaction {
                Some(meta) => meta.covers.clone(),
                None => vec![self.current[i].id.clone()],
            })
            .collect();
        // With incremental summaries the existing running summary is the prompt's base,
        // not part of the transcript.
        let inputs: Vec<&Message> = replace
            .iter()
            .map(|&i| &self.current[i])
            .filter(|m| {
                existing.is_none()
                    || m.compaction
                        .as_ref()
                        .is_none_or(|meta| meta.level < Level::Aggressive)
            })
            .collect();
        let cache_key = self.cache_key(level, &inputs, existing.as_deref());
        let mut chunks = vec![];
        let mut current: Vec<Message> = vec![];
        let mut current_tokens = 0;
        for message in inputs {
            let mut message = message.clone();
            let tokens = accountant.message_tokens(&message);
            if tokens > config.summarizer_input_tokens {
                shrink(&mut message, accountant, config.summarizer_input_tokens / 2);
            }
            let tokens = accountant.message_tokens(&message);
            if current_tokens + tokens > config.summarizer_input_tokens && !current.is_empty() {
                chunks.push(std::mem::take(&mut current));
                current_tokens = 0;
            }
            current_tokens += tokens;
            current.push(message);
        }
        if !current.is_empty() || chunks.is_empty() {
            chunks.push(current);
        }
        let chunk_output_tokens = if chunks.len() > 1 {
            (config.summarizer_input_tokens / (chunks.len() as u64 + 1))
                .clamp(64, max_output_tokens)
        } else {
            max_output_tokens
        };
        Job {
            replace,
            covers,
            age,
            existing,
            max_output_tokens,
            cache_key,
            chunks: chunks
                .into_iter()
                .map(|messages| Chunk {
                    messages,
                    max_output_tokens: chunk_output_tokens,
                    request: None,
                    deadline_ms: u64::MAX,
                    attempt: 1,
                    result: None,
                })
                .collect(),
            reduce: None,
            state: JobState::Open,
        }
    }

    fn end_level(&mut self) {
        let Some(mut level_run) = self.level.take() else {
            return;
        };
        let level = level_run.level;
        let mut replacements: Vec<(Vec<usize>, Message)> = Vec::new();
        for job in &level_run.jobs {
            match &job.state {
                JobState::Done(text) => {
                    let message =
                        summary_message(text, job.covers.clone(), level, "pending", PROMPT_VERSION);
                    replacements.push((job.replace.clone(), message));
                }
                JobState::Failed(failure) if level == Level::Maximum => {
                    self.fail(CompactError::SummaryFailed {
                        level,
                        failure: failure.clone(),
                    });
                    return;
                }
                JobState::Failed(failure) => self.events.push(Event::FallbackTaken {
                    level,
                    kept: job.replace.len(),
                    reason: failure.to_string(),
                }),
                JobState::Open => {}
            }
        }
        if !replacements.is_empty() {
            let mut drop = vec![false; self.current.len()];
            let mut insert: HashMap<usize, Message> = HashMap::new();
            for (replace, message) in replacements {
                for &i in &replace {
                    drop[i] = true;
                }
                if let Some(&first) = replace.first() {
                    self.created.push(message.id.clone());
                    insert.insert(first, message);
                }
            }
            let old = std::mem::take(&mut self.current);
            for (i, message) in old.into_iter().enumerate() {
                if let Some(summary) = insert.remove(&i) {
                    self.current.push(summary);
                }
                if !drop[i] {
                    self.current.push(message);
                }
            }
        }
        if level == Level::Maximum {
            self.clip_oversized();
        }
        let tokens = self.tokens();
        level_run.report.tokens_after = tokens;
        self.events.push(Event::LevelLeft {
            level,
            tokens_before: level_run.report.tokens_before,
            tokens_after: tokens,
        });
        self.report.levels.push(level_run.report);
        if self.target.is_met(tokens, self.current.len()) || level == Level::Maximum {
            self.finish(tokens);
        }
    }

    /// MAXIMUM, last resort: clips compactable messages larger than a quarter of the
    /// absolute limit, middle-out, when the conversation is still over the limit.
    fn clip_oversized(&mut self) {
        let limit = self.compactor.budget.absolute_limit;
        if self.tokens() <= limit {
            return;
        }
        let accountant = self.compactor.accountant.clone();
        let cap = (limit / 4).max(64);
        for message in self.current.iter_mut().filter(|m| m.compactable) {
            if accountant.message_tokens(message) > cap {
                shrink(message, &accountant, cap);
            }
        }
    }

    fn fail(&mut self, error: CompactError) {
        self.level = None;
        self.outbox.clear();
        if error.counts_as_failure() {
            self.count_failure();
        }
        self.finished = Some(Err(error));
    }

    fn count_failure(&mut self) {
        let max = self.compactor.config.max_failures;
        let mut shared = self.compactor.shared();
        let state = shared.sessions.entry(self.session.clone()).or_default();
        state.failures += 1;
        if state.failures >= max && state.opened_at_ms.is_none() {
            state.opened_at_ms = Some(self.now_ms);
            let failures = state.failures;
            drop(shared);
            self.events.push(Event::CircuitOpened {
                session: self.session.clone(),
                failures,
            });
        }
    }

    fn finish(&mut self, tokens: u64) {
        // Fix the idempotency key into the summaries written by this run (metadata only:
        // the text, and so the tokens, do not change).
        let key = result_key(&self.session, &self.current);
        if let Some(key) = &key {
            for message in self
                .current
                .iter_mut()
                .filter(|m| self.created.contains(&m.id))
            {
                if let Some(meta) = message.compaction.as_mut() {
                    meta.key = key.clone();
                }
            }
        }
        let limit = self.compactor.budget.absolute_limit;
        let reduction = 1.0 - tokens as f64 / self.tokens_before.max(1) as f64;
        if tokens > limit {
            let counts = self.compactor.accountant.count_messages(&self.current);
            let mut offenders: Vec<Offender> = self
                .current
                .iter()
                .zip(counts)
                .map(|(m, tokens)| Offender {
                    id: m.id.clone(),
                    tokens,
                })
                .collect();
            offenders.sort_by_key(|o| std::cmp::Reverse(o.tokens));
            self.fail(CompactError::ContextOverflow {
                tokens,
                limit,
                offenders,
            });
            return;
        }
        if reduction < self.compactor.config.min_reduction {
            self.current = self.original.clone();
            if self.report.failures > 0 {
                self.count_failure();
            }
            self.finish_with(Status::NoProgress, false);
            return;
        }
        let checked = validate(&self.original, &self.current, tokens, limit);
        #[cfg(feature = "serde")]
        let checked = checked.and_then(|()| match self.format {
            Some(format) => crate::validate::validate_format(format, &self.original, &self.current),
            None => Ok(()),
        });
        if let Err(error) = checked {
            self.fail(CompactError::Validation(error));
            return;
        }
        self.report.key = key;
        let target_met = self.target.is_met(tokens, self.current.len());
        self.finish_with(Status::Compacted { target_met }, true);
    }

    fn finish_with(&mut self, status: Status, record: bool) {
        let tokens = if matches!(status, Status::Compacted { .. }) {
            self.tokens()
        } else {
            self.tokens_before
        };
        if !matches!(status, Status::Compacted { .. }) {
            self.current = self.original.clone();
        }
        self.report.tokens_after = tokens;
        self.report.messages_after = self.current.len();
        if record && !self.fallback {
            let mut shared = self.compactor.shared();
            let state = shared.sessions.entry(self.session.clone()).or_default();
            state.failures = 0;
            if let Some(key) = &self.report.key {
                state.last = Some((
                    key.clone(),
                    self.current.iter().map(message_hash).collect(),
                    self.report.clone(),
                ));
            }
        }
        self.events.push(Event::Finished {
            status: status.clone(),
            tokens_before: self.tokens_before,
            tokens_after: tokens,
        });
        self.level = None;
        self.finished = Some(Ok(Outcome {
            status,
            messages: self.current.clone(),
            report: self.report.clone(),
        }));
    }
}

/// Clips every text of `message` middle-out so the message fits about `max_tokens`.
fn shrink(message: &mut Message, accountant: &TokenAccountant, max_tokens: u64) {
    let total = accountant.message_tokens(message).max(1);
    let counter = accountant.counter();
    let ratio = max_tokens as f64 / total as f64;
    let clip = |text: &mut String| {
        let own = counter.count(text);
        let allowed = ((own as f64 * ratio) as u64).max(16);
        if let Some(clipped) = clip_middle(counter, text, allowed) {
            *text = clipped;
        }
    };
    for part in &mut message.parts {
        match part {
            Part::Text { text } => clip(text),
            Part::ToolResult(result) => {
                for inner in &mut result.content {
                    if let Part::Text { text } = inner {
                        clip(text);
                    }
                }
            }
            _ => {}
        }
    }
}
