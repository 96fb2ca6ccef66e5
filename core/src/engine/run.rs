//! One compaction run: `poll` walks the ladder and hands out requests, `complete` and
//! `handle_timeout` route answers and deadlines to their jobs, `cancel` stops, and the
//! run finishes with a checked result or the original conversation.

use std::collections::VecDeque;

use crate::engine::jobs::{Job, PartRef};
use crate::engine::{
    CompactError, Compactor, Event, LevelReport, Offender, Outcome, Report, RequestId, Status,
    Step, SummaryFailure, SummaryRequest, result_key,
};
use crate::hash::message_hash;
use crate::level::Level;
use crate::message::{Message, MessageId};
use crate::overflow::Target;
use crate::prompt::{PromptKind, build_with};
use crate::summary::Continuation;
use crate::validate::validate;

/// The share of its allowance a summary is expected at before any answer was seen; each
/// run starts from it, so that a result depends on its input alone.
const PRIOR_SUMMARY_RATIO: f64 = 0.5;

/// The weight of each new answer in the moving average.
const RATIO_WEIGHT: f64 = 0.3;

/// A request handed out and not yet settled.
#[derive(Debug, Clone, Copy)]
struct InFlight {
    job: usize,
    part: PartRef,
    deadline_ms: u64,
}

/// The level being walked.
#[derive(Debug)]
pub(super) struct LevelRun {
    pub(super) level: Level,
    pub(super) jobs: Vec<Job>,
    pub(super) report: LevelReport,
    /// 1 for the level's first plan; MODERATE plans again while the target is not met.
    pub(super) round: u32,
}

/// One compaction run. See the [module docs](super) for the driving loop.
pub struct Run {
    pub(super) session: String,
    pub(super) compactor: Compactor,
    pub(super) original: Vec<Message>,
    pub(super) current: Vec<Message>,
    pub(super) tokens_before: u64,
    pub(super) target: Target,
    pub(super) events: Vec<Event>,
    pub(super) report: Report,
    pub(super) next_level: usize,
    pub(super) level: Option<LevelRun>,
    pub(super) next_request: u64,
    /// Parts waiting for a place among the `max_concurrency` in flight.
    pub(super) queue: VecDeque<(usize, PartRef)>,
    /// At most `max_concurrency` entries, in the order handed out. (A map's code costs
    /// the lite npm package more than a scan of a few entries costs a run.)
    in_flight: Vec<(RequestId, InFlight)>,
    pub(super) finished: Option<Result<Outcome, CompactError>>,
    pub(super) created: Vec<MessageId>,
    /// The caller's clock at the latest `begin`, `complete` or `handle_timeout`: requests
    /// handed out by the next `poll` take their deadline from it.
    pub(super) now_ms: u64,
    /// The offline extractive summarizer answers every request from here on (the circuit
    /// was open, or MAXIMUM failed with `extractive_fallback`). Its summaries stay out of
    /// the cache (the model should write them once it is back); a run begun past an open
    /// circuit neither resets the session's failures nor becomes its latest result.
    pub(super) offline: bool,
    /// Begun past an open circuit.
    pub(super) past_open_circuit: bool,
    /// What this run's summaries came back at, as a share of their allowance (a moving
    /// average, from a prior): what the planners expect of the next ones. Per run, so the
    /// same input always gets the same first plan (and the cache serves it).
    pub(super) summary_ratio: f64,
    /// The summarizer failed at MAXIMUM and the offline summarizer stood in: the run
    /// counts as a failure for the breaker, whatever its outcome.
    pub(super) summarizer_failed: bool,
    /// The smallest result so far that fits the absolute limit, and its tokens, kept in
    /// case a later level fails.
    pub(super) best_fit: Option<(Vec<Message>, u64)>,
    /// Begun with [`Trigger::Reactive`](crate::engine::Trigger::Reactive): the result must
    /// be smaller than the input, whatever `min_reduction` says.
    pub(super) reactive: bool,
    /// The latest summary failure, with its level: what a reactive run that could not cut
    /// anything reports.
    last_failure: Option<(Level, SummaryFailure)>,
    #[cfg(feature = "serde")]
    pub(super) format: Option<crate::format::Format>,
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
    /// A run over `messages` (already recognized and assessed) with nothing done yet.
    pub(super) fn new(
        compactor: &Compactor,
        session: &str,
        messages: Vec<Message>,
        target: Target,
        report: Report,
        now_ms: u64,
    ) -> Self {
        Run {
            session: session.to_owned(),
            compactor: compactor.clone(),
            original: messages.clone(),
            current: messages,
            tokens_before: report.tokens_before,
            target,
            events: Vec::new(),
            report,
            next_level: 0,
            level: None,
            next_request: 1,
            queue: VecDeque::new(),
            in_flight: Vec::new(),
            finished: None,
            created: Vec::new(),
            now_ms,
            offline: false,
            past_open_circuit: false,
            summary_ratio: PRIOR_SUMMARY_RATIO,
            summarizer_failed: false,
            best_fit: None,
            reactive: false,
            last_failure: None,
            #[cfg(feature = "serde")]
            format: None,
        }
    }

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

    /// The requests in flight: handed out and not yet settled.
    pub fn in_flight(&self) -> Vec<RequestId> {
        self.in_flight.iter().map(|(id, _)| *id).collect()
    }

    /// Advances the run. Call after `begin`, `complete` and `handle_timeout`, until `Wait`,
    /// `Done` or `Failed`.
    pub fn poll(&mut self) -> Step {
        loop {
            if let Some(finished) = &self.finished {
                return match finished.clone() {
                    Ok(outcome) => Step::Done(outcome),
                    Err(error) => Step::Failed(error),
                };
            }
            let requests = self.hand_out();
            if !requests.is_empty() {
                if self.offline {
                    self.answer_offline(requests);
                    continue;
                }
                return Step::Summarize(requests);
            }
            if let Some(until_ms) = self.in_flight.iter().map(|(_, f)| f.deadline_ms).min() {
                return Step::Wait { until_ms };
            }
            match &self.level {
                Some(level) if level.jobs.iter().any(Job::is_open) => {
                    // An open job with nothing queued or in flight is a bug: stop rather
                    // than spin.
                    self.fail(CompactError::Validation(
                        crate::validate::ValidationError::Internal(
                            "a job waits for no request".into(),
                        ),
                    ));
                }
                Some(_) => self.end_level(),
                None => self.start_next_level(),
            }
        }
    }

    /// Answers request `id` with the summarizer's text or failure, at `now_ms` on the
    /// caller's clock (an answer past the request's deadline counts as
    /// [`SummaryFailure::Timeout`]). Routing only: the job judges the answer.
    pub fn complete(
        &mut self,
        id: RequestId,
        result: Result<String, SummaryFailure>,
        now_ms: u64,
    ) -> Result<(), CompactError> {
        self.now_ms = self.now_ms.max(now_ms);
        let position = self.in_flight.iter().position(|(i, _)| *i == id);
        let Some((_, flight)) = position.map(|p| self.in_flight.remove(p)) else {
            // Ids are issued in sequence: one below the next was handed out and is settled.
            return Err(if (1..self.next_request).contains(&id.0) {
                CompactError::StaleRequest(id)
            } else {
                CompactError::UnknownRequest(id)
            });
        };
        let result = if now_ms > flight.deadline_ms {
            Err(SummaryFailure::Timeout)
        } else {
            result
        };
        // An empty answer is not a summary, and not a reason to lose the run: a marker
        // stands for it, and the summary's trail keeps what the request folds.
        let result = match result {
            Err(SummaryFailure::Empty) => Ok(String::new()),
            other => other,
        };
        if result.as_ref().is_ok_and(|text| text.trim().is_empty()) {
            self.events.push(Event::EmptyAnswer { id });
        }
        let accountant = self.compactor.accountant.clone();
        let max_attempts = self.compactor.config.max_attempts;
        let Some(level) = self.level.as_mut() else {
            return Err(CompactError::StaleRequest(id));
        };
        let job = &mut level.jobs[flight.job];
        let failure = match result.and_then(|text| job.accept(flight.part, &text, &accountant)) {
            Ok(accepted) => {
                if !accepted.restored.is_empty() {
                    self.events.push(Event::ArtifactRefsRestored {
                        id,
                        refs: accepted.restored,
                    });
                }
                self.events.push(Event::RequestAnswered {
                    id,
                    tokens: accepted.tokens,
                });
                if let crate::engine::jobs::JobState::Done(text) = &job.state
                    && !self.offline
                {
                    self.compactor
                        .shared()
                        .cache
                        .insert(job.cache_key.clone(), text.clone());
                }
                if accepted.reduce_due {
                    self.queue.push_back((flight.job, PartRef::Reduce));
                }
                return Ok(());
            }
            Err(failure) => failure,
        };
        if failure == SummaryFailure::InputTooLong
            && job.retry_smaller(flight.part, max_attempts, &accountant)
        {
            level.report.failures += 1;
            self.report.failures += 1;
            self.events.push(Event::RequestFailed {
                id,
                reason: "input too long: retrying with a smaller input".into(),
            });
            self.queue.push_back((flight.job, flight.part));
            return Ok(());
        }
        if let SummaryFailure::TooLong { tokens, .. } = failure
            && job.ask_shorter(flight.part, tokens, max_attempts)
        {
            level.report.failures += 1;
            self.report.failures += 1;
            self.events.push(Event::RequestFailed {
                id,
                reason: format!("{failure}: asking again for less"),
            });
            self.queue.push_back((flight.job, flight.part));
            return Ok(());
        }
        self.fail_job(flight.job, id, failure);
        Ok(())
    }

    /// Fails every request in flight whose deadline passed at `now_ms`
    /// ([`SummaryFailure::Timeout`]). Drivers call it when `Wait`'s `until_ms` comes, so a
    /// hung summarizer cannot hold a run forever.
    pub fn handle_timeout(&mut self, now_ms: u64) {
        self.now_ms = self.now_ms.max(now_ms);
        let overdue: Vec<RequestId> = self
            .in_flight
            .iter()
            .filter(|(_, f)| f.deadline_ms < now_ms)
            .map(|(id, _)| *id)
            .collect();
        for id in overdue {
            let _ = self.complete(id, Err(SummaryFailure::Timeout), now_ms);
        }
    }

    /// Stops the run at once. Nothing is applied; `poll` answers `Failed(Cancelled)`.
    pub fn cancel(&mut self) {
        if self.finished.is_none() {
            self.queue.clear();
            self.in_flight.clear();
            self.level = None;
            self.finished = Some(Err(CompactError::Cancelled));
        }
    }

    fn fail_job(&mut self, j: usize, id: RequestId, failure: SummaryFailure) {
        self.events.push(Event::RequestFailed {
            id,
            reason: failure.to_string(),
        });
        self.report.failures += 1;
        if let Some(level) = self.level.as_mut() {
            level.report.failures += 1;
            self.last_failure = Some((level.level, failure.clone()));
            level.jobs[j].state = crate::engine::jobs::JobState::Failed(failure);
        }
        // The job's other parts are moot: their answers will be stale.
        self.queue.retain(|(job, _)| *job != j);
        self.in_flight.retain(|(_, f)| f.job != j);
    }

    /// Hands out queued parts up to `max_concurrency` in flight.
    fn hand_out(&mut self) -> Vec<SummaryRequest> {
        let mut requests = Vec::new();
        while self.in_flight.len() < self.compactor.config.max_concurrency {
            let Some((j, part)) = self.queue.pop_front() else {
                break;
            };
            if let Some(request) = self.request(j, part) {
                requests.push(request);
            }
        }
        requests
    }

    /// The offline summarizer answers `requests` at once.
    fn answer_offline(&mut self, requests: Vec<SummaryRequest>) {
        for request in requests {
            #[cfg(feature = "extractive")]
            let answer = crate::extractive::Extractive.answer(&request);
            // Unreachable: validation refuses `extractive_fallback` in such a build.
            #[cfg(not(feature = "extractive"))]
            let answer = Err(SummaryFailure::failed(
                "no offline summarizer in this build",
            ));
            let _ = self.complete(request.id, answer, self.now_ms);
        }
    }

    /// Part `part` of job `j` as a continuation of the conversation, where it can be one
    /// ([`Continuation`]): a summary in one piece, first asked, of the summary model that
    /// is the conversation's, whose messages and instruction fit the window beside the
    /// answer.
    fn continuation(&self, j: usize, part: PartRef) -> Option<Continuation> {
        let compactor = &self.compactor;
        let job = self.level.as_ref()?.jobs.get(j)?;
        let chunk = job.part(part)?;
        let kind = job.prompt_kind(part);
        if compactor.config.summary_model.is_some()
            || job.chunks.len() != 1
            || chunk.attempt != 1
            || matches!(kind, PromptKind::Reduce)
        {
            return None;
        }
        // The run's input messages the summary folds: those it replaces, and those they
        // stand for.
        let replaced: Vec<&MessageId> = job
            .replace
            .iter()
            .filter_map(|&i| self.current.get(i))
            .map(|m| &m.id)
            .collect();
        let folded = |m: &Message| replaced.contains(&&m.id) || job.covers.contains(&m.id);
        let start = self.original.iter().position(folded)?;
        let end = self.original.iter().rposition(folded)? + 1;
        let accountant = &compactor.accountant;
        let prefix_tokens: u64 = accountant
            .count_messages(&self.original[..end])
            .iter()
            .sum();
        // Where the summary starts, as the model can find it: the first folded message with
        // words (a reasoning item has none to show); none, no continuation.
        let first = self.original[start..end]
            .iter()
            .map(opening)
            .find(|o| !o.is_empty())?;
        let instruction = crate::prompt::continuation(
            kind,
            chunk.max_output_tokens,
            compactor.config.instructions.as_deref(),
            &first,
        );
        let instruction_tokens = accountant.text_tokens(&instruction);
        let needs = prefix_tokens
            .saturating_add(instruction_tokens)
            .saturating_add(chunk.max_output_tokens);
        (needs <= compactor.budget.max_context_tokens).then_some(Continuation {
            messages: end,
            prefix_tokens,
            instruction,
            instruction_tokens,
        })
    }

    /// Builds the request for part `part` of job `j` and puts it in flight.
    fn request(&mut self, j: usize, part: PartRef) -> Option<SummaryRequest> {
        let continuation = self.continuation(j, part);
        let config = &self.compactor.config;
        let accountant = &self.compactor.accountant;
        let level = self.level.as_mut()?;
        let job = level.jobs.get(j).filter(|job| job.is_open())?;
        let chunk = job.part(part)?;
        let kind = job.prompt_kind(part);
        let prompt = build_with(
            kind,
            &chunk.messages,
            chunk.max_output_tokens,
            config.instructions.as_deref(),
        );
        // The transcript's messages are counted through the memo (they were counted when
        // the level was planned); only the instruction and the existing summary are new
        // text. Re-tokenizing whole prompts cost a third of a level's time on long inputs.
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
        let id = RequestId(self.next_request);
        self.next_request += 1;
        // A deadline is missed once the clock is strictly past it: one at `u64::MAX` could
        // never be, and a caller's clock reading `u64::MAX` would wait forever.
        let deadline_ms = self
            .now_ms
            .saturating_add(config.request_timeout_ms)
            .min(u64::MAX - 1);
        let request = SummaryRequest {
            id,
            level: level.level,
            prompt,
            max_output_tokens: chunk.max_output_tokens,
            covers: job.covers.clone(),
            age: job.age,
            model: config
                .summary_model
                .clone()
                .or_else(|| self.compactor.budget.model.clone()),
            provider: config.summary_provider.clone(),
            deadline_ms,
            attempt: chunk.attempt,
            input_tokens,
            continuation,
        };
        level.report.requests += 1;
        self.report.requests += 1;
        self.report.summary_input_tokens += input_tokens;
        self.events.push(Event::RequestIssued {
            id,
            level: level.level,
            covers: request.covers.len(),
            input_tokens,
            attempt: request.attempt,
        });
        self.in_flight.push((
            id,
            InFlight {
                job: j,
                part,
                deadline_ms,
            },
        ));
        Some(request)
    }

    /// Folds a summary's size (trail included) into the estimate of what summaries come back at.
    pub(super) fn observe_summary(&mut self, tokens: u64, allowed: u64) {
        let ratio = (tokens as f64 / allowed.max(1) as f64).min(1.5);
        self.summary_ratio += RATIO_WEIGHT * (ratio - self.summary_ratio);
    }

    pub(super) fn tokens(&self) -> u64 {
        let counts = self.compactor.accountant.count_messages(&self.current);
        self.compactor.accountant.total(&counts)
    }

    pub(super) fn fail(&mut self, error: CompactError) {
        self.level = None;
        self.queue.clear();
        self.in_flight.clear();
        if error.counts_as_failure() {
            self.count_failure();
        }
        self.finished = Some(Err(error));
    }

    pub(super) fn count_failure(&mut self) {
        let config = &self.compactor.config;
        let opened = self
            .compactor
            .shared()
            .session(&self.session)
            .and_then(|state| state.count_failure(config.max_failures, self.now_ms));
        if let Some(failures) = opened {
            self.events.push(Event::CircuitOpened {
                session: self.session.clone(),
                failures,
            });
        }
    }

    /// Would a result of `tokens` be what a failed level falls back to: does it fit, and
    /// is it smaller than the fallback kept so far?
    pub(super) fn better_fallback(&self, tokens: u64) -> bool {
        tokens <= self.compactor.budget.absolute_limit
            && self
                .best_fit
                .as_ref()
                .is_none_or(|(_, best)| tokens < *best)
    }

    /// The overflow error for the current messages, largest first.
    pub(super) fn overflow(&self, tokens: u64) -> CompactError {
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
        Offender::largest_first(&mut offenders);
        CompactError::ContextOverflow {
            tokens,
            limit: self.compactor.budget.absolute_limit,
            offenders,
        }
    }

    pub(super) fn finish(&mut self, tokens: u64) {
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
        if tokens > limit {
            let error = self.overflow(tokens);
            self.fail(error);
            return;
        }
        if self.reactive {
            if tokens >= self.tokens_before {
                self.cannot_cut(tokens);
                return;
            }
        } else if self.too_small_a_cut(tokens) {
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

    /// Is a cut to `tokens` too small to count (under `min_reduction`)? Not when the input
    /// was over the absolute limit and the result fits: then the cut is what lets the agent
    /// go on.
    fn too_small_a_cut(&self, tokens: u64) -> bool {
        let reduction = 1.0 - tokens as f64 / self.tokens_before.max(1) as f64;
        reduction < self.compactor.config.min_reduction
            && self.tokens_before <= self.compactor.budget.absolute_limit
    }

    /// A reactive run walked the whole ladder and is no smaller than its input. The
    /// provider refused the input, so handing it back would have the agent send it again:
    /// the run fails with the summarizer's failure when a summary failed (it counts for
    /// the breaker), else with `ContextOverflow` naming what remains, largest first.
    fn cannot_cut(&mut self, tokens: u64) {
        let error = match self.last_failure.take() {
            Some((level, failure)) => CompactError::SummaryFailed { level, failure },
            None => self.overflow(tokens),
        };
        self.fail(error);
    }

    pub(super) fn finish_with(&mut self, status: Status, record: bool) {
        let compacted = matches!(status, Status::Compacted { .. });
        if !compacted {
            self.current = self.original.clone();
        }
        let tokens = if compacted {
            self.tokens()
        } else {
            self.tokens_before
        };
        self.report.tokens_after = tokens;
        self.report.messages_after = self.current.len();
        if compacted {
            self.report.lost_facts = crate::receipt::lost_facts(&self.original, &self.current);
        }
        if record && !self.past_open_circuit {
            let mut shared = self.compactor.shared();
            if let Some(state) = shared.session(&self.session) {
                if !self.summarizer_failed {
                    state.failures = 0;
                }
                if let Some(key) = &self.report.key {
                    state.last =
                        Some((key.clone(), self.current.iter().map(message_hash).collect()));
                }
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

/// The opening words of a message, on one line (its calls read as `name(arguments)`): how a
/// continuation's instruction names where the summary starts.
fn opening(message: &Message) -> String {
    const WORDS: usize = 12;
    let text = message.text();
    let words: Vec<&str> = text.split_whitespace().take(WORDS + 1).collect();
    let mut out = words[..words.len().min(WORDS)].join(" ");
    if words.len() > WORDS {
        out.push_str(" …");
    }
    out
}
