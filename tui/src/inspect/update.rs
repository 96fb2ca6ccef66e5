//! How the inspector's state changes: keys, answers and the clock in, [`Effect`]s out.
//! No IO: the runtime performs the effects and feeds the results back as [`AppEvent`]s.
//!
//! The run itself is driven by the [`Stepper`](super::stepper::Stepper); what it produces
//! is applied to the panes here, in order ([`App::drive`]).

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use compactor::engine::{
    CompactError, Compactor, Event, RequestId, Status, SummaryFailure, SummaryRequest,
};
use compactor::extractive::Extractive;
use compactor::ladder::Level;
use compactor::replay::{Policy, Rule, replay};

use super::model::{
    App, AppEvent, DetailTarget, Effect, EventLog, LadderTable, LevelOutcome, LevelRow, LogLine,
    Mode, Numbers, Overlay, Pane, Phase, RequestRow, RequestState, RequestTable,
};
use super::stepper::Output;
use crate::replay::Stopped;
use crate::words::thousands;
use crate::words::{event_line, status_words};

impl App {
    /// Handles one input.
    pub fn handle_event(&mut self, event: AppEvent) {
        match event {
            AppEvent::Key(key) => self.handle_key(key),
            AppEvent::Scroll { lines, over } => {
                // An overlay takes the wheel wherever the pointer is.
                if let (None, Some(pane)) = (&self.overlay, over) {
                    self.focus = pane;
                }
                self.scroll(lines);
            }
            AppEvent::Click(pane) => {
                if self.overlay.is_none() {
                    self.focus = pane;
                }
            }
            AppEvent::Tick(now_ms) => self.tick(now_ms),
            AppEvent::Answered {
                generation,
                id,
                result,
                now_ms,
            } => {
                self.stepper.set_now(now_ms);
                self.answer(generation, id, result);
            }
            AppEvent::Written { path, result } => {
                self.status = match result {
                    Ok(()) => format!("exported to {}", path.display()),
                    Err(e) => format!("export failed: {}: {e}", path.display()),
                };
            }
        }
    }

    /// Handles one key.
    pub fn handle_key(&mut self, key: KeyEvent) {
        if key.kind == KeyEventKind::Release {
            return;
        }
        if key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c') {
            self.quit = true;
            return;
        }
        if self.overlay.is_some() {
            self.overlay_key(key);
            return;
        }
        match key.code {
            KeyCode::Char('q') | KeyCode::Esc => self.quit = true,
            KeyCode::Char('?') => self.overlay = Some(Overlay::Help),
            KeyCode::Tab => self.focus = Pane::ALL[(self.focus.index() + 1) % Pane::ALL.len()],
            KeyCode::BackTab => {
                self.focus = Pane::ALL[(self.focus.index() + Pane::ALL.len() - 1) % Pane::ALL.len()]
            }
            KeyCode::Up | KeyCode::Char('k') => self.move_selection(-1),
            KeyCode::Down | KeyCode::Char('j') => self.move_selection(1),
            KeyCode::PageUp => self.move_selection(-10),
            KeyCode::PageDown => self.move_selection(10),
            KeyCode::Home | KeyCode::Char('g') => self.move_selection(i32::MIN / 2),
            KeyCode::End | KeyCode::Char('G') => self.move_selection(i32::MAX / 2),
            KeyCode::Enter => self.open_detail(),
            KeyCode::Char(' ') => self.step(),
            KeyCode::Char('r') => self.run_to_end(),
            KeyCode::Char('c') => self.cancel(),
            KeyCode::Char('u') => self.undo(),
            KeyCode::Char('p') => self.toggle_pin(),
            KeyCode::Char('e') => self.export(),
            KeyCode::Char('b') => self.overlay = Some(Overlay::Compare { scroll: 0 }),
            KeyCode::Char('v') => self.open_replay(),
            KeyCode::Char('n') => {
                self.overlay = Some(Overlay::Edit {
                    fields: (0..Numbers::LABELS.len())
                        .map(|i| self.numbers.field(i))
                        .collect(),
                    field: 0,
                })
            }
            _ => {}
        }
    }

    fn overlay_key(&mut self, key: KeyEvent) {
        if matches!(self.overlay, Some(Overlay::Edit { .. })) {
            self.edit_key(key);
            return;
        }
        match key.code {
            KeyCode::Esc => self.overlay = None,
            KeyCode::Char('q') => self.quit = true,
            KeyCode::Char('?') if self.overlay == Some(Overlay::Help) => self.overlay = None,
            KeyCode::Char('?') => self.overlay = Some(Overlay::Help),
            KeyCode::Enter if self.overlay == Some(Overlay::Help) => self.overlay = None,
            KeyCode::Char('v') if self.overlay == Some(Overlay::Replay) => self.overlay = None,
            KeyCode::Up | KeyCode::Char('k') => self.scroll(-1),
            KeyCode::Down | KeyCode::Char('j') => self.scroll(1),
            KeyCode::PageUp => self.scroll(-20),
            KeyCode::PageDown | KeyCode::Char(' ') => self.scroll(20),
            KeyCode::Home | KeyCode::Char('g') => self.scroll(i32::MIN / 2),
            _ => {}
        }
    }

    /// Opens the replay view, replaying the input first if it has not been under these
    /// numbers.
    ///
    /// The replay runs here, on the key, with the extractive summarizer whatever the run
    /// uses: it answers at once and needs no thread, and a corpus trajectory of a few
    /// hundred calls replays in well under a second in a release build. Handing it to the
    /// runtime thread was considered and left for when a slow summarizer is wanted here.
    fn open_replay(&mut self) {
        if self.replay.is_none() {
            // A compactor of its own: a clone would share the run's summary cache.
            let compactor = match Compactor::new(self.config.clone()) {
                Ok(compactor) => compactor,
                Err(e) => {
                    self.status = format!("replay refused: {e}");
                    return;
                }
            };
            let policy = Policy {
                compactor,
                rule: Rule::Session,
            };
            self.replay = Some(futures_executor::block_on(replay(
                self.original(),
                &policy,
                &self.config.prices,
                &Extractive,
                &Stopped,
                &mut |_, _| {},
            )));
        }
        self.overlay = Some(Overlay::Replay);
    }

    fn scroll(&mut self, lines: i32) {
        match &mut self.overlay {
            Some(Overlay::Detail { scroll, .. } | Overlay::Compare { scroll }) => {
                *scroll = (i64::from(*scroll) + i64::from(lines)).clamp(0, 60_000) as u16;
            }
            Some(_) => {}
            None => self.move_selection(lines),
        }
    }

    fn move_selection(&mut self, by: i32) {
        let moved = |at: usize, len: usize| -> usize {
            if len == 0 {
                return 0;
            }
            (at as i64 + i64::from(by)).clamp(0, len as i64 - 1) as usize
        };
        match self.focus {
            Pane::Segments => {
                self.segments.selected = moved(self.segments.selected, self.segments.rows.len())
            }
            Pane::Ladder => {
                self.ladder.selected = moved(self.ladder.selected, self.ladder.rows.len())
            }
            Pane::Requests => {
                self.requests.selected = moved(self.requests.selected, self.requests.rows.len())
            }
            Pane::Log => {
                let len = self.log.lines.len();
                let at = self.log.selected.unwrap_or(len.saturating_sub(1));
                let next = moved(at, len);
                // Back at the newest line, the log follows new lines again.
                self.log.selected = (next + 1 < len).then_some(next);
            }
        }
    }

    fn open_detail(&mut self) {
        let target = match self.focus {
            Pane::Segments => (!self.segments.rows.is_empty())
                .then_some(DetailTarget::Segment(self.segments.selected)),
            Pane::Ladder => self
                .ladder
                .rows
                .get(self.ladder.selected)
                .map(|r| DetailTarget::Level(r.level)),
            Pane::Requests => self
                .requests
                .rows
                .keys()
                .nth(self.requests.selected)
                .map(|&id| DetailTarget::Request(id)),
            Pane::Log => {
                let len = self.log.lines.len();
                self.log
                    .lines
                    .get(self.log.selected.unwrap_or(len.saturating_sub(1)))
                    .and_then(|l| l.request)
                    .map(DetailTarget::Request)
            }
        };
        match target {
            Some(target) => self.overlay = Some(Overlay::Detail { target, scroll: 0 }),
            None => self.status = "nothing to show in detail here".into(),
        }
    }

    /// `Space`: one ladder level, beginning a run when none is going.
    fn step(&mut self) {
        self.mode = Mode::Step;
        match self.phase {
            Phase::Paused => self.resume(),
            Phase::Running => self.status = "step mode: stopping after this level".into(),
            _ => self.begin(),
        }
    }

    /// `r`: to the end, beginning a run when none is going.
    fn run_to_end(&mut self) {
        self.mode = Mode::Run;
        match self.phase {
            Phase::Paused => self.resume(),
            Phase::Running => {
                self.status = "run mode: to the end".into();
                self.drive();
            }
            _ => self.begin(),
        }
    }

    pub(super) fn reset_run_state(&mut self) {
        self.stepper.reset();
        self.ladder = LadderTable::default();
        self.requests = RequestTable::default();
        self.log = EventLog::default();
        self.messages = self.conversation.messages.clone();
    }

    fn begin(&mut self) {
        self.reset_run_state();
        self.phase = Phase::Running;
        match self
            .stepper
            .begin(&self.compactor, self.messages.clone(), self.trigger)
        {
            Ok(()) => {
                self.status = match self.mode {
                    Mode::Step => "step mode: Space enters the next level, r runs to the end",
                    Mode::Run => "running to the end (c cancels)",
                }
                .into();
                self.drive();
            }
            Err(error) => self.finish(Err(error)),
        }
        self.refresh();
    }

    fn resume(&mut self) {
        self.stepper.resume();
        self.phase = Phase::Running;
        self.status = "stepping: the next level runs, then the inspector pauses".into();
        self.drive();
    }

    /// Applies what the run produced to the panes, in order, until it is all applied or
    /// step mode holds the next level.
    fn drive(&mut self) {
        while self.phase == Phase::Running {
            let Some(output) = self.stepper.next(self.mode == Mode::Step) else {
                break;
            };
            match output {
                Output::Event(event) => self.apply_event(event),
                Output::Summarize(request) => self.summarize(request),
                Output::Finished(result) => self.finish(result),
                Output::Paused => self.pause(),
            }
        }
        self.refresh();
    }

    /// Sends `request` to the summarizer.
    fn summarize(&mut self, request: SummaryRequest) {
        let since_ms = self.run_clock();
        self.requests.rows.insert(
            request.id,
            RequestRow {
                request: request.clone(),
                state: RequestState::InFlight { since_ms },
            },
        );
        self.effects.push(Effect::Summarize {
            generation: self.stepper.generation(),
            request,
        });
    }

    fn pause(&mut self) {
        self.phase = Phase::Paused;
        let left = self
            .ladder
            .rows
            .iter()
            .rev()
            .find(|r| r.outcome != LevelOutcome::Pending)
            .map_or("the level".to_owned(), |r| r.level.to_string());
        self.status =
            format!("paused after {left}: Space enters the next level, r runs to the end");
    }

    fn answer(&mut self, generation: u64, id: RequestId, result: Result<String, SummaryFailure>) {
        if generation != self.stepper.generation() {
            return; // an answer to a run that was cancelled or replaced
        }
        let now = self.run_clock();
        self.requests.now_ms = now;
        if let Some(row) = self.requests.rows.get_mut(&id) {
            let RequestState::InFlight { since_ms } = row.state else {
                return;
            };
            let took_ms = now.saturating_sub(since_ms);
            row.state = match &result {
                Ok(text) => RequestState::Answered {
                    text: text.clone(),
                    took_ms,
                },
                Err(failure) => RequestState::Failed {
                    reason: failure.to_string(),
                    took_ms,
                },
            };
        }
        if let Err(error) = self.stepper.complete(id, result) {
            self.log_line(
                format!("answer to #{} dropped: {error}", id.0),
                Some(id),
                true,
            );
        }
        self.drive();
    }

    fn tick(&mut self, now_ms: u64) {
        self.stepper.set_now(now_ms);
        self.requests.now_ms = self.run_clock();
        if self.phase == Phase::Running && self.stepper.handle_timeout() {
            self.drive();
        }
    }

    fn cancel(&mut self) {
        if !self.stepper.cancel() {
            self.status = match self.phase {
                Phase::Running | Phase::Paused => "cancelling".into(),
                _ => "no run to cancel".into(),
            };
            return;
        }
        self.phase = Phase::Running;
        self.drive();
    }

    fn undo(&mut self) {
        let config = self.original_config.clone();
        match compactor::engine::Compactor::new(config.clone()) {
            Ok(compactor) => {
                self.numbers = Numbers::of(&config, compactor.budget());
                self.compactor = compactor;
                self.live = None; // the shown session belongs to the old compactor
                self.replay = None; // replayed under the old numbers
                self.config = config;
            }
            Err(e) => self.status = format!("undo failed: {e}"),
        }
        self.reset_run_state();
        self.phase = Phase::Ready;
        self.overlay = None;
        self.refresh();
        self.status = "undone: the original conversation and numbers".into();
    }

    /// Pins the selected segment's messages, or, when all are pinned, unpins them back to
    /// how they were read (system prompts, `--pin` and markers stay pinned). Pins belong to
    /// the input: they change only when no run holds it.
    fn toggle_pin(&mut self) {
        if !matches!(
            self.phase,
            Phase::Ready | Phase::Failed(_) | Phase::Cancelled
        ) {
            self.status = "pins change the input: u goes back to it, then p pins".into();
            return;
        }
        let Some(row) = self.segments.rows.get(self.segments.selected) else {
            return;
        };
        let (index, range) = (row.index, row.messages.clone());
        let (Some(messages), Some(loaded)) = (
            self.conversation.messages.get_mut(range.clone()),
            self.loaded_pins.get(range),
        ) else {
            return;
        };
        let pin = messages.iter().any(|m| m.compactable);
        for (message, &pinned) in messages.iter_mut().zip(loaded) {
            message.compactable = !pin && !pinned;
        }
        self.replay = None; // replayed with the old pins
        self.reset_run_state();
        self.phase = Phase::Ready;
        self.refresh();
        self.status = if pin {
            format!("segment {index} pinned: kept verbatim at every level (p unpins)")
        } else {
            format!("segment {index} unpinned: back to how it was read")
        };
    }

    fn export(&mut self) {
        let Phase::Done(outcome) = &self.phase else {
            self.status = "nothing to export yet: run to the end first (r)".into();
            return;
        };
        // In the input's own layout: untouched messages byte for byte.
        let text = self.conversation.to_json(&outcome.messages).to_string();
        self.effects.push(Effect::Write {
            path: self.export_path.clone(),
            text: text + "\n",
        });
        self.status = format!("exporting to {}…", self.export_path.display());
    }

    fn finish(&mut self, result: Result<compactor::engine::Outcome, CompactError>) {
        for row in self.requests.rows.values_mut() {
            if matches!(row.state, RequestState::InFlight { .. }) {
                row.state = RequestState::Abandoned;
            }
        }
        for row in &mut self.ladder.rows {
            if row.outcome == LevelOutcome::Running {
                row.outcome = LevelOutcome::Left;
            }
        }
        match result {
            Ok(outcome) => {
                self.messages = outcome.messages.clone();
                let r = &outcome.report;
                let mut what = status_words(&outcome.status);
                if matches!(outcome.status, Status::Skipped { .. }) {
                    what.push_str("; n edits the numbers");
                }
                self.status = format!(
                    "{what}: {} → {} tokens · e exports, u undoes",
                    thousands(r.tokens_before),
                    thousands(r.tokens_after)
                );
                self.phase = Phase::Done(outcome);
            }
            Err(CompactError::Cancelled) => {
                self.messages = self.conversation.messages.clone();
                self.status = "cancelled: nothing applied".into();
                self.phase = Phase::Cancelled;
            }
            Err(error) => {
                self.messages = self.conversation.messages.clone();
                self.status = format!("failed, conversation unchanged: {error}");
                self.log_line(format!("run failed: {error}"), None, true);
                self.phase = Phase::Failed(error.to_string());
            }
        }
    }

    fn log_line(&mut self, text: String, request: Option<RequestId>, warning: bool) {
        self.log.lines.push(LogLine {
            at_ms: self.run_clock(),
            text,
            request,
            warning,
        });
    }

    fn level_row(&mut self, level: Level) -> Option<&mut LevelRow> {
        self.ladder.rows.iter_mut().find(|r| r.level == level)
    }

    fn request_level(&self, id: RequestId) -> Option<Level> {
        self.requests.rows.get(&id).map(|r| r.request.level)
    }

    fn apply_event(&mut self, event: Event) {
        let now = self.run_clock();
        let mut line = event_line(&event);
        match event {
            Event::LevelEntered { level, tokens } => {
                if let Some(row) = self.level_row(level) {
                    row.entered_ms = Some(now);
                    row.tokens_before = Some(tokens);
                    row.outcome = LevelOutcome::Running;
                }
                self.ladder.selected = level_index(level);
            }
            Event::LevelSkipped { level, predicted } => {
                if let Some(row) = self.level_row(level) {
                    row.outcome = LevelOutcome::Skipped { predicted };
                }
            }
            Event::LevelLeft {
                level,
                tokens_after,
                ..
            } => {
                if let Some(row) = self.level_row(level) {
                    row.tokens_after = Some(tokens_after);
                    if row.outcome == LevelOutcome::Running {
                        row.outcome = LevelOutcome::Left;
                    }
                }
                if let Some(messages) = self.stepper.messages() {
                    self.messages = messages.to_vec();
                }
            }
            Event::RequestIssued { level, .. } => {
                if let Some(row) = self.level_row(level) {
                    row.requests += 1;
                }
            }
            Event::RequestAnswered { id, .. } => {
                if let Some(level) = self.request_level(id)
                    && let Some(row) = self.level_row(level)
                {
                    row.answered += 1;
                }
            }
            Event::RequestFailed { id, reason } => {
                if let Some(level) = self.request_level(id)
                    && let Some(row) = self.level_row(level)
                {
                    row.failed += 1;
                }
                // An answer the engine refused (empty, over-long) was Answered; a request
                // the engine timed out is still InFlight: both end as failed rows.
                if let Some(row) = self.requests.rows.get_mut(&id) {
                    let took_ms = match row.state {
                        RequestState::Answered { took_ms, .. } => Some(took_ms),
                        RequestState::InFlight { since_ms } => Some(now.saturating_sub(since_ms)),
                        _ => None,
                    };
                    if let Some(took_ms) = took_ms {
                        row.state = RequestState::Failed { reason, took_ms };
                    }
                }
            }
            Event::CacheHit { level, .. } => {
                if let Some(row) = self.level_row(level) {
                    row.cache_hits += 1;
                }
            }
            Event::FallbackTaken { level, .. } => {
                if let Some(row) = self.level_row(level) {
                    row.fallbacks += 1;
                }
            }
            Event::CircuitOpened { .. } => line.text.push_str(" (u resets)"),
            _ => {}
        }
        self.log_line(line.text, line.request, line.warning);
    }
}

fn level_index(level: Level) -> usize {
    Level::ALL.iter().position(|&l| l == level).unwrap_or(0)
}
