//! The compaction run: a state machine the caller drives.
//!
//! [`Compactor::begin`] assesses the conversation and returns a [`Run`]. The invariant
//! every driver keeps: **after `begin`, `complete` or `handle_timeout`, poll until `Wait`,
//! `Done` or `Failed`**. [`Run::poll`] hands out [`SummaryRequest`]s (up to
//! `max_concurrency` in flight, to run in parallel), says to wait until a deadline, or
//! finishes. Each request must be answered by [`Run::complete`], failed by
//! [`Run::handle_timeout`] once its deadline passed, or the whole run dropped with
//! [`Run::cancel`]. Events are drained with [`Run::events`].
//!
//! Nothing is applied to the caller's conversation: the run works on its own copy and
//! returns the result in the [`Outcome`], or the original when anything went wrong.
//!
//! # Where things live
//!
//! | concept | module |
//! |---|---|
//! | the handle, `begin` and its admission rules | this module |
//! | configuration and its validation | [`crate::config`] ([`CompactionConfig`], [`ConfigError`]) |
//! | requests, answers, typed failures | [`crate::summary`] ([`SummaryRequest`], [`SummaryFailure`]) |
//! | steps | `request` ([`Step`]) |
//! | outcome and report | `outcome` ([`Outcome`], [`Report`]) |
//! | events | `event` ([`Event`]) |
//! | errors | `error` ([`CompactError`]) |
//! | breaker, latest result, summary cache, exported state | `session` ([`EngineState`]) |
//! | jobs: chunks, map-reduce, answers, retry smaller | `jobs` |
//! | the run: poll, complete, timeouts, cancel, finish | `run` ([`Run`]) |
//! | what each level plans | [`crate::ladder`] |
//! | applying a plan | [`crate::prune`] |

use std::sync::{Arc, Mutex, MutexGuard};

use crate::budget::Budget;
use crate::hash::{Hasher, message_hash};
use crate::message::{Message, MessageId};
use crate::overflow::assess;
use crate::pin::Pins;
use crate::policy::Sizing;
use crate::prune::recognize;
use crate::segment::segment;
use crate::tokens::TokenAccountant;

mod error;
mod event;
mod jobs;
mod lru;
mod outcome;
mod request;
mod run;
mod session;
mod walk;

pub use crate::config::{
    CompactionConfig, ConfigError, MAX_ATTEMPTS, MAX_COUNT, MAX_INSTRUCTIONS_CHARS,
    MIN_SUMMARY_TOKENS, Trigger,
};
pub use crate::summary::{RequestId, SummaryFailure, SummaryRequest};
pub use error::{CompactError, Offender};
pub use event::Event;
pub use outcome::{LevelReport, Outcome, Report, SkipReason, Status};
pub use request::Step;
pub use run::Run;
pub use session::{
    CachedSummary, EngineState, LatestResult, STATE_VERSION, SessionRecord, StateError,
};

use session::Shared;

/// The engine's handle: configuration, token memo, summary cache and per-session breaker
/// state. Clones share the memo, the cache and the sessions.
#[derive(Clone)]
pub struct Compactor {
    config: CompactionConfig,
    budget: Budget,
    /// How runs size their summaries: for the target's band, or for cost under a
    /// session's policy.
    sizing: Sizing,
    /// The room a cut under a session's policy keeps for its summaries ([`None`]
    /// otherwise): the raw tail AGGRESSIVE keeps leaves it to them.
    summary_room: Option<u64>,
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
    /// For tests: a compactor with a window of `tokens`, no output reserve and the message
    /// signal off; the rest as by default.
    #[cfg(test)]
    pub(crate) fn for_window(tokens: u64) -> Self {
        Self::new(CompactionConfig {
            budget: crate::budget::BudgetConfig {
                max_context_tokens: Some(tokens),
                output_reserve: Some(0),
                max_messages: None,
                ..crate::budget::BudgetConfig::default()
            },
            ..CompactionConfig::default()
        })
        .expect("valid numbers")
    }

    /// A compactor with `config` (checked: [`CompactionConfig::validate`]); counts with
    /// the budget's encoding.
    pub fn new(config: CompactionConfig) -> Result<Self, ConfigError> {
        let budget = config.budget.resolve()?;
        let accountant = TokenAccountant::new(budget.encoding.counter());
        Self::with_accountant(config, budget, accountant)
    }

    /// A compactor counting through `accountant` (to share a memo, or count with a
    /// custom [`TokenCounter`](crate::tokens::TokenCounter)).
    pub fn with_accountant(
        config: CompactionConfig,
        budget: Budget,
        accountant: TokenAccountant,
    ) -> Result<Self, ConfigError> {
        config.validate()?;
        let shared = Shared::new(config.cache_capacity, config.session_capacity);
        Ok(Self {
            config,
            budget,
            sizing: Sizing::BAND,
            summary_room: None,
            accountant,
            shared: Arc::new(Mutex::new(shared)),
        })
    }

    /// This handle with its runs aiming at `target_tokens`, proactive above
    /// `trigger_tokens`, keeping `summary_room` of it for their summaries and sizing them
    /// for cost (sharing memo, cache and sessions): a cut under a session's policy
    /// ([`crate::policy`]).
    pub(crate) fn for_policy(
        &self,
        target_tokens: u64,
        trigger_tokens: u64,
        summary_room: u64,
    ) -> Self {
        let mut handle = self.clone();
        handle.budget.target_tokens = target_tokens;
        handle.budget.trigger_tokens = trigger_tokens;
        handle.sizing = Sizing::THRIFT;
        handle.summary_room = Some(summary_room);
        handle
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

    /// How many summaries the cache holds (at most `cache_capacity`).
    pub fn cache_len(&self) -> usize {
        self.shared().cache.len()
    }

    /// Closes a session's circuit and forgets its failures.
    pub fn reset_circuit(&self, session: &str) {
        if let Some(state) = self.shared().sessions.get_mut(&session.to_owned()) {
            state.failures = 0;
            state.opened_at_ms = None;
        }
    }

    /// Is the session's circuit open at `now_ms`?
    pub fn circuit_open(&self, session: &str, now_ms: u64) -> bool {
        let cooldown = self.config.breaker_cooldown_ms;
        self.shared()
            .sessions
            .get_mut(&session.to_owned())
            .is_some_and(|state| state.circuit_open(now_ms, cooldown))
    }

    /// Tokens of the conversation this session's latest run assessed (memoized counts:
    /// an agent loop can check it before deciding to call `begin`).
    pub fn token_count_hint(&self, session: &str) -> Option<u64> {
        self.shared()
            .sessions
            .peek(&session.to_owned())
            .and_then(|s| s.last_tokens)
    }

    /// The engine's memory as plain data: every session's breaker and latest result, and
    /// the summary cache. Store it beside the session; [`import_state`](Self::import_state)
    /// continues from it in another process.
    pub fn export_state(&self) -> EngineState {
        self.shared().export()
    }

    /// Merges an exported state into this handle (and its clones): its sessions and cache
    /// entries replace the ones held for the same ids and keys, within the capacities. A
    /// state of another version, or damaged, is refused whole: nothing is imported.
    pub fn import_state(&self, state: EngineState) -> Result<(), StateError> {
        self.shared().import(state)
    }

    /// Assesses without starting a run.
    pub fn assess(&self, messages: &[Message]) -> crate::overflow::Assessment {
        assess(&self.accountant, messages, &self.budget)
    }

    /// Starts a run over `messages` for `session`. Summary messages the engine wrote
    /// earlier are recognized by their marker.
    ///
    /// When the session's circuit is open: with `extractive_fallback` the run compacts
    /// with the offline summarizer (an [`Event::ExtractiveFallback`] and the report say
    /// so), else [`CompactError::CircuitOpen`].
    pub fn begin(
        &self,
        session: &str,
        mut messages: Vec<Message>,
        trigger: Trigger,
        now_ms: u64,
    ) -> Result<Run, CompactError> {
        if messages.is_empty() {
            return Err(CompactError::NoMessagesToCompact);
        }
        let past_open_circuit = self.circuit_open(session, now_ms);
        if past_open_circuit && !self.config.extractive_fallback {
            let failures = self
                .shared()
                .sessions
                .peek(&session.to_owned())
                .map_or(0, |s| s.failures);
            return Err(CompactError::CircuitOpen {
                session: session.to_owned(),
                failures,
            });
        }
        recognize(&mut messages);
        fix_keys(session, &mut messages);
        segment(&messages)?;
        let assessment = assess(&self.accountant, &messages, &self.budget);
        let tokens_before = assessment.total_tokens;
        if let Some(state) = self.shared().session(session) {
            state.last_tokens = Some(tokens_before);
        }
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
        if past_open_circuit {
            events.push(Event::ExtractiveFallback {
                level: None,
                reason: "the session's circuit is open".into(),
            });
        }
        let report = Report {
            tokens_before,
            tokens_after: tokens_before,
            messages_before: messages.len(),
            messages_after: messages.len(),
            target_tokens: target.tokens,
            extractive_fallback: past_open_circuit,
            ..Report::default()
        };
        let mut run = Run::new(self, session, messages, target, report, now_ms);
        run.events = events;
        run.offline = past_open_circuit;
        run.past_open_circuit = past_open_circuit;
        run.reactive = trigger == Trigger::Reactive;
        self.admit(&mut run, trigger, assessment.needs_compaction());
        Ok(run)
    }

    /// [`begin`](Self::begin) with the caller's [`Pins`]: the messages at `pins.indices`
    /// (into `messages`) are kept verbatim at every level, and with `pins.compactable`
    /// false the conversation is only assessed (skipped, or `ContextOverflow` over the
    /// absolute limit). An index past the end is [`CompactError::Pin`].
    pub fn begin_with(
        &self,
        session: &str,
        mut messages: Vec<Message>,
        trigger: Trigger,
        pins: &Pins,
        now_ms: u64,
    ) -> Result<Run, CompactError> {
        pins.apply(&mut messages, 0)?;
        self.begin(session, messages, trigger, now_ms)
    }

    /// Ends `run` at once when there is nothing to do: the input is this session's latest
    /// result, it cannot be compacted, it is too short, or no signal fired. Never when the
    /// input is over the absolute limit (a run must bring it under, or say it cannot),
    /// and never for a reactive run (the provider refused it: compact further).
    fn admit(&self, run: &mut Run, trigger: Trigger, signalled: bool) {
        let limit = self.budget.absolute_limit;
        let over_limit = run.tokens_before > limit;
        let reactive = trigger == Trigger::Reactive;
        let nothing_compactable = run
            .current
            .iter()
            .all(|m| !m.compactable || m.is_compaction());
        if nothing_compactable && (over_limit || reactive) {
            let error = run.overflow(run.tokens_before);
            run.fail(error);
            return;
        }
        if over_limit || reactive {
            return;
        }
        if let Some(key) = self.latest_result(&run.session, &run.current) {
            run.report.key = Some(key);
            run.finish_with(Status::NoOp, false);
            return;
        }
        let reason = if nothing_compactable {
            SkipReason::NotCompactable
        } else if run.current.len() < self.config.min_messages {
            SkipReason::TooFewMessages
        } else if trigger == Trigger::Proactive && !signalled {
            SkipReason::BelowTrigger
        } else {
            return;
        };
        run.finish_with(Status::Skipped { reason }, false);
    }

    /// The key of this session's latest result, when `messages` are that result.
    fn latest_result(&self, session: &str, messages: &[Message]) -> Option<String> {
        let (key, hashes) = self
            .shared()
            .sessions
            .peek(&session.to_owned())
            .and_then(|s| s.last.clone())?;
        let same = result_key(session, messages).as_deref() == Some(key.as_str())
            && messages.iter().map(message_hash).eq(hashes.iter().copied());
        same.then_some(key)
    }
}

/// Derives the key of every recognized summary whose key the marker did not carry.
fn fix_keys(session: &str, messages: &mut [Message]) {
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
}

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
