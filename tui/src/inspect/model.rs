//! The inspector's state: what is shown and what the run is doing. No IO here; the
//! [`update`](super::update) functions change it and the [`view`](super::view) draws it.

use std::collections::{BTreeMap, VecDeque};
use std::path::PathBuf;

use compactor::budget::Budget;
use compactor::engine::{
    CompactError, CompactionConfig, Compactor, Event, Outcome, RequestId, Run, SummaryFailure,
    SummaryRequest, Trigger,
};
use compactor::format::Conversation;
use compactor::ladder::Level;
use compactor::message::Message;
use compactor::plan::plan;
use compactor::select::TailPolicy;

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

/// A segment's state in the list: the plan's, or in flight.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SegmentState {
    /// What the segment holds (raw, tail, pinned, masked, summarized).
    Planned(compactor::plan::SegmentState),
    /// A summary request covering it is out.
    InFlight,
}

impl SegmentState {
    /// The word shown.
    pub fn as_str(self) -> &'static str {
        match self {
            SegmentState::Planned(state) => state.as_str(),
            SegmentState::InFlight => "in flight",
        }
    }
}

/// One row of the segment list.
#[derive(Debug, Clone, PartialEq)]
pub struct SegmentRow {
    /// Position among the segments.
    pub index: usize,
    /// Turns since it; `None` for the system preamble.
    pub age: Option<usize>,
    /// Its messages, as indices into the shown conversation.
    pub messages: std::ops::Range<usize>,
    /// Roles in order, runs compressed (`A T×3`).
    pub roles: String,
    /// Its tokens.
    pub tokens: u64,
    /// Its state.
    pub state: SegmentState,
}

/// The segment list of the conversation as it is now.
#[derive(Debug, Clone, Default)]
pub struct SegmentTable {
    /// The rows.
    pub rows: Vec<SegmentRow>,
    /// The first segment of the raw tail.
    pub tail_segment: usize,
    /// The selected row.
    pub selected: usize,
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
    /// Issued, waiting for a worker.
    Queued,
    /// A worker is on it since this time (run clock).
    InFlight {
        /// When it was handed to a worker.
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
    /// Requests a worker is on.
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

/// The numbers that can be edited in place and the run re-done with.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Numbers {
    /// The model's window.
    pub max_context: u64,
    /// Tokens kept free for the answer.
    pub output_reserve: u64,
    /// Compaction starts above this share of the limit.
    pub trigger: f64,
    /// A run stops at or below this share.
    pub target: f64,
    /// Recent turns kept raw.
    pub keep_recent_turns: usize,
}

impl Numbers {
    /// Field labels, in edit order.
    pub const LABELS: [&'static str; 5] = [
        "window",
        "output reserve",
        "trigger",
        "target",
        "keep recent turns",
    ];

    /// The numbers in force for `config`.
    pub fn of(config: &CompactionConfig, budget: &Budget) -> Self {
        Self {
            max_context: budget.max_context_tokens,
            output_reserve: budget.output_reserve,
            trigger: budget.trigger_ratio,
            target: budget.target_ratio,
            keep_recent_turns: config.keep_recent_turns,
        }
    }

    /// Field `i` as text.
    pub fn field(&self, i: usize) -> String {
        match i {
            0 => self.max_context.to_string(),
            1 => self.output_reserve.to_string(),
            2 => format!("{}", self.trigger),
            3 => format!("{}", self.target),
            _ => self.keep_recent_turns.to_string(),
        }
    }

    /// Sets field `i` from text.
    pub fn set_field(&mut self, i: usize, text: &str) -> Result<(), String> {
        let label = Numbers::LABELS.get(i).copied().unwrap_or("field");
        let bad = |_| format!("{label}: {text:?} is not a number");
        let bad_ratio = |_| format!("{label}: {text:?} is not a number");
        match i {
            0 => self.max_context = text.trim().parse().map_err(bad)?,
            1 => self.output_reserve = text.trim().parse().map_err(bad)?,
            2 => self.trigger = text.trim().parse().map_err(bad_ratio)?,
            3 => self.target = text.trim().parse().map_err(bad_ratio)?,
            _ => self.keep_recent_turns = text.trim().parse().map_err(bad)?,
        }
        Ok(())
    }

    /// `config` with these numbers.
    pub fn apply(&self, config: &CompactionConfig) -> CompactionConfig {
        let mut config = config.clone();
        config.budget.max_context_tokens = Some(self.max_context);
        config.budget.output_reserve = Some(self.output_reserve);
        config.budget.trigger_ratio = Some(self.trigger);
        config.budget.target_ratio = Some(self.target);
        config.keep_recent_turns = self.keep_recent_turns;
        config
    }
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

/// What a step of the engine handed out, released to the panes in order. In step mode the
/// release stops at a level boundary, so the next level's requests wait for `Space`.
#[derive(Debug)]
pub(crate) enum Held {
    Event(Event),
    Requests(Vec<SummaryRequest>),
    Finished(Result<Outcome, CompactError>),
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
    pub(crate) run: Option<Run>,
    /// Counts runs, so answers of an abandoned run are recognized and dropped.
    pub(crate) generation: u64,
    pub(crate) held: VecDeque<Held>,
    /// Requests released and waiting for a worker.
    pub(crate) queue: VecDeque<SummaryRequest>,
    pub(crate) effects: Vec<Effect>,
    /// The inspector's clock (ms since start), as last told.
    pub(crate) now_ms: u64,
    /// When the run began, on the inspector's clock.
    pub(crate) run_started_ms: u64,
    /// Time the run spent held in step mode: the run's clock stands still meanwhile, so a
    /// long pause cannot push requests past their deadline.
    pub(crate) paused_total_ms: u64,
    pub(crate) paused_since: Option<u64>,
    /// A level ended since the run was last resumed: in step mode the next is held.
    pub(crate) level_ended: bool,
    /// Why runs start: proactive runs skip a conversation no signal fired for.
    pub trigger: Trigger,
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
            run: None,
            generation: 0,
            held: VecDeque::new(),
            queue: VecDeque::new(),
            effects: Vec::new(),
            now_ms: 0,
            run_started_ms: 0,
            paused_total_ms: 0,
            paused_since: None,
            level_ended: false,
            trigger: Trigger::Proactive,
        };
        app.refresh();
        Ok(app)
    }

    /// The resolved numbers in force.
    pub fn budget(&self) -> &Budget {
        self.compactor.budget()
    }

    /// Requests a worker may run at once.
    pub fn max_concurrency(&self) -> usize {
        self.config.max_concurrency.max(1)
    }

    /// Takes what the runtime must do.
    pub fn take_effects(&mut self) -> Vec<Effect> {
        std::mem::take(&mut self.effects)
    }

    /// The run's clock: time since it began, less the time it was held in step mode.
    pub fn run_clock(&self) -> u64 {
        let held = self
            .paused_since
            .map_or(0, |since| self.now_ms.saturating_sub(since));
        self.now_ms
            .saturating_sub(self.run_started_ms)
            .saturating_sub(self.paused_total_ms + held)
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
        let budget = self.compactor.budget().clone();
        let accountant = self.compactor.accountant();
        let policy = TailPolicy::for_budget(self.config.keep_recent_turns, &budget);
        let in_flight: Vec<&SummaryRequest> = self
            .requests
            .rows
            .values()
            .filter(|r| {
                matches!(
                    r.state,
                    RequestState::InFlight { .. } | RequestState::Queued
                )
            })
            .map(|r| &r.request)
            .collect();
        let Ok(plan) = plan(accountant, &self.messages, &budget, &policy) else {
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
            .map(|(s, state)| {
                let messages = &self.messages[s.messages.clone()];
                let covered = messages
                    .iter()
                    .any(|m| in_flight.iter().any(|r| r.covers.contains(&m.id)));
                let state = if covered {
                    SegmentState::InFlight
                } else {
                    SegmentState::Planned(state)
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

    /// The detail view's title and lines.
    pub fn detail(&self, target: DetailTarget) -> (String, Vec<String>) {
        match target {
            DetailTarget::Segment(index) => {
                let Some(row) = self.segments.rows.get(index) else {
                    return ("segment".into(), vec!["(gone)".into()]);
                };
                let mut lines = Vec::new();
                for i in row.messages.clone() {
                    let Some(m) = self.messages.get(i) else {
                        continue;
                    };
                    let tokens = self.message_tokens.get(i).copied().unwrap_or(0);
                    let mut head = format!(
                        "── message {i} · {} · {} · {tokens} tokens",
                        m.id,
                        m.role.as_str()
                    );
                    if !m.compactable {
                        head.push_str(" · pinned");
                    }
                    if let Some(meta) = &m.compaction {
                        head.push_str(&format!(
                            " · summary ({}) of {} messages",
                            meta.level,
                            meta.covers.len()
                        ));
                    }
                    lines.push(head);
                    for call in m.tool_calls() {
                        lines.push(format!("→ {}({})", call.name, call.arguments));
                    }
                    lines.extend(m.text().lines().map(str::to_owned));
                    if let Some(meta) = &m.compaction
                        && let Some(row) = self
                            .requests
                            .rows
                            .values()
                            .find(|r| r.request.covers == meta.covers)
                    {
                        lines.push(format!(
                            "── written by request #{} (Enter on it in Requests for the prompt)",
                            row.request.id.0
                        ));
                    }
                    lines.push(String::new());
                }
                (
                    format!(
                        "segment {} · messages {}..{} · {}",
                        row.index,
                        row.messages.start,
                        row.messages.end,
                        row.state.as_str()
                    ),
                    lines,
                )
            }
            DetailTarget::Level(level) => {
                let mut lines = Vec::new();
                if let Some(row) = self.ladder.rows.iter().find(|r| r.level == level) {
                    lines.push(format!("outcome: {}", level_outcome(row)));
                    lines.push(format!(
                        "requests {} · answered {} · failed {} · cache hits {} · fallbacks {}",
                        row.requests, row.answered, row.failed, row.cache_hits, row.fallbacks
                    ));
                }
                lines.push(String::new());
                for r in self
                    .requests
                    .rows
                    .values()
                    .filter(|r| r.request.level == level)
                {
                    lines.push(request_summary(r, self.requests.now_ms));
                }
                (format!("level {level}"), lines)
            }
            DetailTarget::Request(id) => {
                let Some(row) = self.requests.rows.get(&id) else {
                    return (format!("request #{}", id.0), vec!["(unknown)".into()]);
                };
                let r = &row.request;
                let mut lines = vec![
                    format!(
                        "level {} · attempt {} · covers {} messages · age {} · {} prompt tokens · max {} answer tokens",
                        r.level,
                        r.attempt,
                        r.covers.len(),
                        r.age,
                        r.input_tokens,
                        r.max_output_tokens
                    ),
                    request_summary(row, self.requests.now_ms),
                    String::new(),
                ];
                for m in &r.prompt {
                    lines.push(format!("── prompt: {} ──", m.role.as_str()));
                    lines.extend(m.content.lines().map(str::to_owned));
                    lines.push(String::new());
                }
                lines.push("── answer ──".into());
                match &row.state {
                    RequestState::Answered { text, .. } => {
                        lines.extend(text.lines().map(str::to_owned));
                    }
                    RequestState::Failed { reason, .. } => lines.push(format!("failed: {reason}")),
                    RequestState::Abandoned => lines.push("(abandoned: the run ended)".into()),
                    _ => lines.push("(waiting for the summarizer…)".into()),
                }
                (format!("request #{}", id.0), lines)
            }
        }
    }
}

/// A level's outcome in words.
pub fn level_outcome(row: &LevelRow) -> String {
    let mut text = match (&row.outcome, row.tokens_before, row.tokens_after) {
        (LevelOutcome::Pending, ..) => "—".into(),
        (LevelOutcome::Running, ..) => "running".into(),
        (LevelOutcome::Skipped { predicted }, ..) => {
            format!("skipped (≥{})", crate::plan::thousands(*predicted))
        }
        (LevelOutcome::Left, Some(before), Some(after)) if after < before => {
            format!("−{}", crate::plan::thousands(before - after))
        }
        (LevelOutcome::Left, ..) => "no change".into(),
    };
    if row.failed > 0 {
        text.push_str(&format!(", {} failed", row.failed));
    }
    if row.cache_hits > 0 {
        text.push_str(&format!(", {} cached", row.cache_hits));
    }
    text
}

/// One line about a request: id, level, size, state and times.
pub fn request_summary(row: &RequestRow, now_ms: u64) -> String {
    let r = &row.request;
    let state = match &row.state {
        RequestState::Queued => "queued".to_owned(),
        RequestState::InFlight { since_ms } => seconds(now_ms.saturating_sub(*since_ms)),
        RequestState::Answered { took_ms, .. } => format!("done {}", seconds(*took_ms)),
        RequestState::Failed { reason, took_ms } => {
            format!("failed {}: {reason}", seconds(*took_ms))
        }
        RequestState::Abandoned => "abandoned".into(),
    };
    let retry = if r.attempt > 1 {
        format!(" try {}", r.attempt)
    } else {
        String::new()
    };
    format!(
        "#{} {}{retry} · {} msg · {} tok · {state}",
        r.id.0,
        r.level,
        r.covers.len(),
        crate::plan::thousands(r.input_tokens)
    )
}

/// Milliseconds as seconds with one decimal.
pub fn seconds(ms: u64) -> String {
    format!("{}.{}s", ms / 1000, (ms % 1000) / 100)
}
