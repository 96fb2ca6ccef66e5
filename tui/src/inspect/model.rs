//! The inspector's state: what is shown and where the run is. No IO here; the
//! [`update`](super::update) functions change it, the [`stepper`](super::stepper) drives
//! the run, and the [`view`](super::view) draws it.

use std::collections::BTreeMap;
use std::path::PathBuf;

use compactor::budget::Budget;
use compactor::engine::{
    CompactionConfig, Compactor, Outcome, RequestId, SummaryFailure, SummaryRequest, Trigger,
};
use compactor::format::Conversation;
use compactor::ladder::Level;
use compactor::live::Session;
use compactor::message::Message;

pub use super::numbers::Numbers;
use super::segments::shown_plan;
pub use super::segments::{RowState, SegmentRow, SegmentTable};
use super::stepper::Stepper;
use crate::plan::role_mix;

/// The pane that has the keyboard.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pane {
    /// The segment list.
    Segments,
    /// The ladder.
    Ladder,
    /// Summary requests.
    Requests,
    /// The event log.
    Log,
}

impl Pane {
    /// `Tab` order.
    pub const ALL: [Pane; 4] = [Pane::Segments, Pane::Ladder, Pane::Requests, Pane::Log];

    pub(crate) fn index(self) -> usize {
        Pane::ALL.iter().position(|&p| p == self).unwrap_or(0)
    }
}

/// How the run advances.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// One ladder level per `Space`.
    Step,
    /// To the end.
    Run,
}

/// What became of a level.
#[derive(Debug, Clone, PartialEq)]
pub enum LevelOutcome {
    /// Not reached (yet).
    Pending,
    /// Being walked.
    Running,
    /// Walked.
    Left,
    /// Skipped: even at best it could not reach the target.
    Skipped {
        /// The best it could have reached.
        predicted: u64,
    },
}

/// One row of the ladder.
#[derive(Debug, Clone, PartialEq)]
pub struct LevelRow {
    /// The level.
    pub level: Level,
    /// When it was entered, on the run's clock.
    pub entered_ms: Option<u64>,
    /// Requests issued.
    pub requests: u32,
    /// Requests answered with a usable summary.
    pub answered: u32,
    /// Requests failed.
    pub failed: u32,
    /// Summaries taken from the cache.
    pub cache_hits: u32,
    /// Fallbacks taken (original messages kept).
    pub fallbacks: u32,
    /// Tokens when it began.
    pub tokens_before: Option<u64>,
    /// Tokens when it ended.
    pub tokens_after: Option<u64>,
    /// What became of it.
    pub outcome: LevelOutcome,
}

impl LevelRow {
    fn new(level: Level) -> Self {
        Self {
            level,
            entered_ms: None,
            requests: 0,
            answered: 0,
            failed: 0,
            cache_hits: 0,
            fallbacks: 0,
            tokens_before: None,
            tokens_after: None,
            outcome: LevelOutcome::Pending,
        }
    }
}

/// The ladder as the run walks it.
#[derive(Debug, Clone)]
pub struct LadderTable {
    /// One row per level, in ladder order.
    pub rows: Vec<LevelRow>,
    /// The selected row.
    pub selected: usize,
}

impl Default for LadderTable {
    fn default() -> Self {
        Self {
            rows: Level::ALL.iter().map(|&l| LevelRow::new(l)).collect(),
            selected: 0,
        }
    }
}

/// Where a request stands.
#[derive(Debug, Clone, PartialEq)]
pub enum RequestState {
    /// The summarizer is on it since this time (run clock).
    InFlight {
        /// When it was handed to the summarizer.
        since_ms: u64,
    },
    /// Answered.
    Answered {
        /// The text returned.
        text: String,
        /// How long it took.
        took_ms: u64,
    },
    /// Failed.
    Failed {
        /// Why.
        reason: String,
        /// How long it took.
        took_ms: u64,
    },
    /// The run ended before it was answered.
    Abandoned,
}

/// A summary request and what became of it.
#[derive(Debug, Clone)]
pub struct RequestRow {
    /// The request as the engine handed it out.
    pub request: SummaryRequest,
    /// Where it stands.
    pub state: RequestState,
}

/// Every request of the run, in the order issued.
#[derive(Debug, Clone, Default)]
pub struct RequestTable {
    /// By id.
    pub rows: BTreeMap<RequestId, RequestRow>,
    /// The run's clock, for elapsed times and the spinner.
    pub now_ms: u64,
    /// The selected row.
    pub selected: usize,
}

impl RequestTable {
    /// Requests the summarizer is on.
    pub fn in_flight(&self) -> usize {
        self.rows
            .values()
            .filter(|r| matches!(r.state, RequestState::InFlight { .. }))
            .count()
    }
}

/// One line of the event log.
#[derive(Debug, Clone, PartialEq)]
pub struct LogLine {
    /// When, on the run's clock.
    pub at_ms: u64,
    /// What happened.
    pub text: String,
    /// The request it is about, for the detail view.
    pub request: Option<RequestId>,
    /// A failure, a fallback, an open circuit.
    pub warning: bool,
}

/// The event log.
#[derive(Debug, Clone, Default)]
pub struct EventLog {
    /// Oldest first.
    pub lines: Vec<LogLine>,
    /// The selected line; `None` follows the newest.
    pub selected: Option<usize>,
}

/// What the detail view shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DetailTarget {
    /// The messages of a segment of the shown conversation.
    Segment(usize),
    /// A level's requests and numbers.
    Level(Level),
    /// A request: the prompt sent and the text returned.
    Request(RequestId),
}

/// A window over the panes.
#[derive(Debug, Clone, PartialEq)]
pub enum Overlay {
    /// The keys.
    Help,
    /// One item in full, scrollable.
    Detail {
        /// What.
        target: DetailTarget,
        /// First line shown.
        scroll: u16,
    },
    /// The conversation before and after, side by side.
    Compare {
        /// First line shown.
        scroll: u16,
    },
    /// The input replayed call by call: prompt tokens per call, compactions, running
    /// cost ([`App::replay`]).
    Replay,
    /// The numbers, edited in place.
    Edit {
        /// The values being edited, as text.
        fields: Vec<String>,
        /// The field with the cursor.
        field: usize,
    },
}

/// Where the run is.
#[derive(Debug, Clone, PartialEq)]
pub enum Phase {
    /// No run yet (or undone): the plan of the input is shown.
    Ready,
    /// A run is going.
    Running,
    /// Step mode: a level ended; `Space` enters the next.
    Paused,
    /// The run finished.
    Done(Outcome),
    /// The run failed; the conversation is unchanged.
    Failed(String),
    /// The run was cancelled; nothing was applied.
    Cancelled,
}

/// Something the runtime must do: the update functions do no IO themselves.
#[derive(Debug, Clone)]
pub enum Effect {
    /// Ask the summarizer; answer with `AppEvent::Answered` carrying `generation`.
    Summarize {
        /// The run this request belongs to.
        generation: u64,
        /// The request.
        request: SummaryRequest,
    },
    /// Write a file; answer with `AppEvent::Written`.
    Write {
        /// Where.
        path: PathBuf,
        /// What.
        text: String,
    },
}

/// Input to the inspector: keys, answers, the clock.
#[derive(Debug, Clone)]
pub enum AppEvent {
    /// A key.
    Key(crossterm::event::KeyEvent),
    /// The mouse wheel: positive scrolls down; over a pane it scrolls that pane.
    Scroll {
        /// Lines (rows of a table).
        lines: i32,
        /// The pane under the pointer.
        over: Option<Pane>,
    },
    /// A click on a pane focuses it.
    Click(Pane),
    /// Time passed (ms since the inspector started).
    Tick(u64),
    /// A summarizer answered.
    Answered {
        /// The run the request belonged to: answers of earlier runs are dropped.
        generation: u64,
        /// The request.
        id: RequestId,
        /// The answer.
        result: Result<String, SummaryFailure>,
        /// When (ms since the inspector started).
        now_ms: u64,
    },
    /// A file was written, or not.
    Written {
        /// Where.
        path: PathBuf,
        /// The error, if any.
        result: Result<(), String>,
    },
}

/// The inspector's whole state.
pub struct App {
    /// The input's name, as shown.
    pub name: String,
    /// The parsed input, kept to write the result in its format.
    pub conversation: Conversation,
    /// Where `e` writes the result.
    pub export_path: PathBuf,
    /// The summarizer's name, as shown.
    pub summarizer: String,
    /// The configuration the inspector started with (for undo).
    pub(crate) original_config: CompactionConfig,
    /// The configuration in force.
    pub(crate) config: CompactionConfig,
    pub(crate) compactor: Compactor,
    /// The numbers in force.
    pub numbers: Numbers,
    /// The conversation shown: the input, the run's current state, or its result.
    pub messages: Vec<Message>,
    /// Tokens of each shown message.
    pub message_tokens: Vec<u64>,
    /// Tokens of the shown conversation.
    pub tokens: u64,
    /// The segments of the shown conversation.
    pub segments: SegmentTable,
    /// The ladder.
    pub ladder: LadderTable,
    /// Summary requests.
    pub requests: RequestTable,
    /// The event log.
    pub log: EventLog,
    /// Where the run is.
    pub phase: Phase,
    /// Step or run.
    pub mode: Mode,
    /// The pane with the keyboard.
    pub focus: Pane,
    /// A window over the panes.
    pub overlay: Option<Overlay>,
    /// The status line.
    pub status: String,
    /// Set when the inspector should exit.
    pub quit: bool,
    /// Why runs start: proactive runs skip a conversation no signal fired for.
    pub trigger: Trigger,
    /// Which messages were pinned as read (format, markers, `--pin`): `p` unpins back to
    /// this.
    pub(crate) loaded_pins: Vec<bool>,
    /// Drives the run.
    pub(crate) stepper: Stepper,
    /// The shown messages as a session handle: messages added at the end are read on
    /// their own; see [`shown_plan`].
    pub(crate) live: Option<Session>,
    pub(crate) effects: Vec<Effect>,
    /// The input replayed under the numbers in force, computed when first shown and
    /// dropped when the numbers change.
    pub replay: Option<compactor::replay::Replay>,
}

impl App {
    /// An inspector over `conversation` with `config`; nothing runs until asked.
    pub fn new(
        name: impl Into<String>,
        conversation: Conversation,
        export_path: PathBuf,
        config: CompactionConfig,
        summarizer: impl Into<String>,
    ) -> Result<Self, String> {
        let compactor = Compactor::new(config.clone()).map_err(|e| e.to_string())?;
        let numbers = Numbers::of(&config, compactor.budget());
        let messages = conversation.messages.clone();
        let loaded_pins = messages.iter().map(|m| !m.compactable).collect();
        let mut app = Self {
            name: name.into(),
            conversation,
            export_path,
            summarizer: summarizer.into(),
            original_config: config.clone(),
            config,
            compactor,
            numbers,
            messages,
            message_tokens: Vec::new(),
            tokens: 0,
            segments: SegmentTable::default(),
            ladder: LadderTable::default(),
            requests: RequestTable::default(),
            log: EventLog::default(),
            phase: Phase::Ready,
            mode: Mode::Step,
            focus: Pane::Segments,
            overlay: None,
            status: String::new(),
            quit: false,
            trigger: Trigger::Proactive,
            loaded_pins,
            stepper: Stepper::default(),
            live: None,
            effects: Vec::new(),
            replay: None,
        };
        app.refresh();
        Ok(app)
    }

    /// The resolved numbers in force.
    pub fn budget(&self) -> &Budget {
        self.compactor.budget()
    }

    /// Takes what the runtime must do.
    pub fn take_effects(&mut self) -> Vec<Effect> {
        std::mem::take(&mut self.effects)
    }

    /// The run's clock: time since it began, less the time it was held in step mode.
    pub fn run_clock(&self) -> u64 {
        self.stepper.run_clock()
    }

    /// Tokens of the original conversation.
    pub fn original_tokens(&self) -> u64 {
        let accountant = self.compactor.accountant();
        accountant.total(&accountant.count_messages(self.original()))
    }

    /// The conversation's original messages.
    pub fn original(&self) -> &[Message] {
        &self.conversation.messages
    }

    /// Recomputes tokens, segments and tail of the shown conversation.
    pub(crate) fn refresh(&mut self) {
        let in_flight: Vec<&SummaryRequest> = self
            .requests
            .rows
            .values()
            .filter(|r| matches!(r.state, RequestState::InFlight { .. }))
            .map(|r| &r.request)
            .collect();
        let Ok(plan) = shown_plan(&mut self.live, &self.compactor, &self.messages) else {
            self.segments.rows.clear();
            return;
        };
        self.message_tokens = plan.assessment.message_tokens();
        self.tokens = plan.assessment.total_tokens;
        self.segments.tail_segment = plan.tail.first_segment;
        let states = plan.segment_states(&self.messages);
        self.segments.rows = plan
            .segmentation
            .segments
            .iter()
            .zip(states)
            .map(|(s, planned)| {
                let messages = &self.messages[s.messages.clone()];
                let covered = messages
                    .iter()
                    .any(|m| in_flight.iter().any(|r| r.covers.contains(&m.id)));
                let state = if covered {
                    RowState::InFlight
                } else {
                    RowState::Planned(planned)
                };
                SegmentRow {
                    index: s.index,
                    age: (s.kind != compactor::segment::SegmentKind::Preamble).then_some(s.age),
                    messages: s.messages.clone(),
                    roles: role_mix(messages),
                    tokens: self.message_tokens[s.messages.clone()].iter().sum(),
                    state,
                }
            })
            .collect();
        let last = self.segments.rows.len().saturating_sub(1);
        self.segments.selected = self.segments.selected.min(last);
    }
}
