//! The inspector's driver: it drives a [`Run`] as every driver does — after `begin`,
//! `complete` or `handle_timeout` it advances the run to `Wait` or the end (the core's
//! [`advance`], the loop every driver shares), the requests handed out go to the
//! summarizer at once (the engine keeps at most `max_concurrency` in
//! flight), answers go back through `complete`, and once the clock passes `Wait`'s
//! deadline `handle_timeout` fails the late requests, so a summarizer that never answers
//! cannot hold the run.
//!
//! Two things are the inspector's own. What the run produces is *held* and handed to the
//! app in order ([`Stepper::next`]); in step mode that stops where the next level would be
//! entered, so its requests go out only when the user resumes. And the run's clock stands
//! still while held, so a long look at a level cannot push requests past their deadline.

use std::collections::VecDeque;

use compactor::driver::{Produced, Then, advance};
use compactor::engine::{
    CompactError, Compactor, Event, Outcome, RequestId, Run, SummaryFailure, SummaryRequest,
    Trigger,
};
use compactor::message::Message;

/// The session name the inspector's runs are recorded under.
pub(crate) const SESSION: &str = "inspect";

/// What the run produced, in the order it happened.
#[derive(Debug)]
pub enum Output {
    /// Something happened in the run.
    Event(Event),
    /// A request handed out: ask the summarizer now.
    Summarize(SummaryRequest),
    /// The run ended.
    Finished(Result<Outcome, CompactError>),
    /// Step mode: a level ended and the next one is held until [`Stepper::resume`].
    Paused,
}

/// The run's clock: time since the run began on the inspector's clock, less the time it
/// was held in step mode.
#[derive(Debug, Clone, Copy, Default)]
struct RunClock {
    /// The inspector's clock (ms since start), as last told.
    now_ms: u64,
    /// When the run began, on the inspector's clock.
    started_ms: u64,
    /// Time spent held before the current hold.
    held_total_ms: u64,
    /// Held since then, if held now.
    held_since: Option<u64>,
}

impl RunClock {
    fn now(&self) -> u64 {
        let held = self
            .held_since
            .map_or(0, |since| self.now_ms.saturating_sub(since));
        self.now_ms
            .saturating_sub(self.started_ms)
            .saturating_sub(self.held_total_ms + held)
    }

    fn restart(&mut self) {
        *self = Self {
            now_ms: self.now_ms,
            started_ms: self.now_ms,
            ..Self::default()
        };
    }

    fn hold(&mut self) {
        self.held_since.get_or_insert(self.now_ms);
    }

    fn release(&mut self) {
        if let Some(since) = self.held_since.take() {
            self.held_total_ms += self.now_ms.saturating_sub(since);
        }
    }
}

/// Drives one run at a time and holds what it produces for the app.
#[derive(Default)]
pub struct Stepper {
    run: Option<Run>,
    /// Counts runs, so answers to a run that was cancelled or replaced are recognized.
    generation: u64,
    held: VecDeque<Output>,
    /// `Wait`'s deadline on the run's clock: once passed, `handle_timeout` is due.
    wake_ms: Option<u64>,
    clock: RunClock,
    /// A level ended since the last resume: in step mode the next one is held.
    level_ended: bool,
}

impl Stepper {
    /// The current run's number; answers carry it so stale ones are dropped.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// The run's clock.
    pub fn run_clock(&self) -> u64 {
        self.clock.now()
    }

    /// The inspector's clock moved on (ms since start; it never goes back).
    pub fn set_now(&mut self, now_ms: u64) {
        self.clock.now_ms = self.clock.now_ms.max(now_ms);
    }

    /// The conversation as the run has it now, if one is going.
    pub fn messages(&self) -> Option<&[Message]> {
        self.run.as_ref().map(Run::messages)
    }

    /// Drops the run (cancelling it) and what it produced, and starts the clock afresh:
    /// answers still out for it will be dropped.
    pub fn reset(&mut self) {
        if let Some(run) = self.run.as_mut() {
            run.cancel();
        }
        self.run = None;
        self.generation += 1;
        self.held.clear();
        self.wake_ms = None;
        self.clock.restart();
        self.level_ended = false;
    }

    /// Begins a run over `messages`; on success its first outputs are held.
    pub fn begin(
        &mut self,
        compactor: &Compactor,
        messages: Vec<Message>,
        trigger: Trigger,
    ) -> Result<(), CompactError> {
        let run = compactor.begin(SESSION, messages, trigger, self.clock.now())?;
        self.run = Some(run);
        self.poll();
        Ok(())
    }

    /// Hands the summarizer's answer to request `id` to the run. An error says the run
    /// did not want it (it was stale or unknown); the run goes on either way.
    pub fn complete(
        &mut self,
        id: RequestId,
        result: Result<String, SummaryFailure>,
    ) -> Result<(), CompactError> {
        let now = self.clock.now();
        let Some(run) = self.run.as_mut() else {
            return Ok(());
        };
        let completed = run.complete(id, result, now);
        self.poll();
        completed
    }

    /// Past `Wait`'s deadline, fails the late requests; says whether it did.
    pub fn handle_timeout(&mut self) -> bool {
        let now = self.clock.now();
        let due = self.wake_ms.is_some_and(|wake| now > wake);
        match self.run.as_mut() {
            Some(run) if due => {
                run.handle_timeout(now);
                self.poll();
                true
            }
            _ => false,
        }
    }

    /// Cancels the run: what it held is dropped, answers still out will be, and the run's
    /// end ([`CompactError::Cancelled`]) is held. False when no run is going.
    pub fn cancel(&mut self) -> bool {
        let Some(run) = self.run.as_mut() else {
            return false;
        };
        run.cancel();
        self.generation += 1;
        self.held.clear();
        self.clock.release();
        self.poll();
        true
    }

    /// Lets the next level through (step mode) and starts the run's clock again.
    pub fn resume(&mut self) {
        self.clock.release();
        self.level_ended = false;
    }

    /// The next output, or `None` when nothing is held. In step mode, once a level has
    /// ended, the next one's entry is held: [`Output::Paused`], until [`resume`](Self::resume).
    pub fn next(&mut self, step_mode: bool) -> Option<Output> {
        let entering = matches!(
            self.held.front()?,
            Output::Event(Event::LevelEntered { .. })
        );
        if step_mode && self.level_ended && entering {
            self.clock.hold();
            return Some(Output::Paused);
        }
        let output = self.held.pop_front()?;
        if matches!(output, Output::Event(Event::LevelLeft { .. })) {
            self.level_ended = true;
        }
        Some(output)
    }

    /// Advances the run to its next wait or its end, holding what it produces.
    fn poll(&mut self) {
        self.wake_ms = None;
        let Some(run) = self.run.as_mut() else {
            return;
        };
        let (produced, then) = advance(run);
        self.held
            .extend(produced.into_iter().filter_map(|item| match item {
                Produced::Event(event) => Some(Output::Event(event)),
                Produced::Request(request) => Some(Output::Summarize(request)),
                // Something this inspector does not know: nothing to show.
                _ => None,
            }));
        let end = match then {
            Then::Wait { until_ms } => {
                self.wake_ms = Some(until_ms);
                return;
            }
            Then::Done(outcome) => Ok(outcome),
            Then::Failed(error) => Err(error),
            // An end this inspector does not know: stop the run rather than guess.
            _ => {
                run.cancel();
                Err(CompactError::Cancelled)
            }
        };
        self.held.push_back(Output::Finished(end));
        self.run = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use compactor::engine::CompactionConfig;

    fn sample() -> Vec<Message> {
        let conversation = crate::input::parse_text(
            super::super::SAMPLE,
            "sample.json",
            crate::input::FormatArg::Openai,
            false,
            crate::input::View::Context,
        )
        .expect("the sample parses");
        conversation.messages
    }

    /// The sample against a window that makes MODERATE ask for summaries that never come.
    fn waiting_run(max_concurrency: usize) -> (Stepper, Vec<SummaryRequest>) {
        let mut config = CompactionConfig::default();
        config.budget.max_context_tokens = Some(8_000);
        config.budget.output_reserve = Some(1_000);
        config.clear_at_least = u64::MAX;
        config.request_timeout_ms = 1_000;
        config.max_concurrency = max_concurrency;
        let compactor = Compactor::new(config).expect("the numbers resolve");
        let mut stepper = Stepper::default();
        stepper
            .begin(&compactor, sample(), Trigger::Proactive)
            .expect("begins");
        let mut requests = Vec::new();
        while let Some(output) = stepper.next(false) {
            if let Output::Summarize(request) = output {
                requests.push(request);
            }
        }
        (stepper, requests)
    }

    #[test]
    fn the_engine_bounds_what_is_handed_out() {
        let (_, requests) = waiting_run(1);
        assert_eq!(requests.len(), 1, "one at a time: {requests:?}");
    }

    #[test]
    fn timeouts_are_handled_only_past_the_deadline() {
        let (mut stepper, requests) = waiting_run(8);
        assert!(!requests.is_empty());
        stepper.set_now(1_000);
        assert!(
            !stepper.handle_timeout(),
            "the deadline itself is still in time"
        );
        assert!(stepper.next(false).is_none(), "nothing happened");
        stepper.set_now(1_001);
        assert!(stepper.handle_timeout());
        let failed: Vec<RequestId> = std::iter::from_fn(|| stepper.next(false))
            .filter_map(|output| match output {
                Output::Event(Event::RequestFailed { id, .. }) => Some(id),
                _ => None,
            })
            .collect();
        assert!(
            requests.iter().all(|r| failed.contains(&r.id)),
            "{failed:?}"
        );
    }

    #[test]
    fn the_clock_stands_still_while_held() {
        let mut stepper = Stepper::default();
        stepper.set_now(500);
        stepper.reset();
        stepper.set_now(700);
        assert_eq!(stepper.run_clock(), 200);
        stepper.clock.hold();
        stepper.set_now(10_000);
        assert_eq!(stepper.run_clock(), 200);
        stepper.resume();
        stepper.set_now(10_050);
        assert_eq!(stepper.run_clock(), 250);
    }
}
