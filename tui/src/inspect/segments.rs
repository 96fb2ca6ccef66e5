//! The segment table's model: a row per segment of the shown conversation, and the plan
//! it is made from, kept up to date through a session handle.

use compactor::engine::Compactor;
use compactor::live::Session;
use compactor::message::Message;
use compactor::plan::{Plan, SegmentState};
use compactor::segment::SegmentError;

use super::stepper::SESSION;

/// A segment's state in the list: the engine's, or in flight, which only the inspector
/// knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowState {
    /// As the plan has it ([`compactor::plan::Plan::segment_states`]).
    Planned(SegmentState),
    /// A summary request covering it is out.
    InFlight,
}

impl RowState {
    /// The word shown.
    pub fn as_str(self) -> &'static str {
        match self {
            RowState::Planned(state) => state.as_str(),
            RowState::InFlight => "in flight",
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
    pub state: RowState,
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

/// The plan of `messages` from the session handle `live`, which is brought up to them
/// first: messages added after the ones it holds are appended (read, counted and segmented
/// on their own); any other change (a level's result, the original again) starts a new
/// handle. Cleared where the compactor is replaced.
pub(super) fn shown_plan(
    live: &mut Option<Session>,
    compactor: &Compactor,
    messages: &[Message],
) -> Result<Plan, SegmentError> {
    let session = match live {
        Some(session) if messages.starts_with(session.messages()) => {
            let held = session.len();
            session.append(messages[held..].iter().cloned());
            session
        }
        _ => live.insert(Session::new(compactor, SESSION, messages.to_vec())),
    };
    session.plan()
}

#[cfg(test)]
mod shown_plan_tests {
    use super::*;
    use compactor::engine::CompactionConfig;
    use compactor::select::TailPolicy;

    #[test]
    fn the_shown_plan_follows_appends_and_rewrites_as_the_stateless_plan() {
        // An explicit target: the session's default policy weighs growth the stateless
        // plan cannot see, and would aim elsewhere.
        let config = CompactionConfig {
            budget: compactor::budget::BudgetConfig {
                target_ratio: Some(compactor::budget::DEFAULT_TARGET_RATIO),
                ..compactor::budget::BudgetConfig::for_model("gpt-4o")
            },
            ..CompactionConfig::default()
        };
        let compactor = Compactor::new(config).expect("valid numbers");
        let messages: Vec<Message> = (0..12)
            .map(|i| match i % 2 {
                0 => Message::user(
                    format!("u{i}").as_str(),
                    format!("question {i}: why does it fail?"),
                ),
                _ => Message::assistant(
                    format!("a{i}").as_str(),
                    format!("answer {i}: read the log"),
                ),
            })
            .collect();
        let policy =
            TailPolicy::for_budget(compactor.config().keep_recent_turns, compactor.budget());
        let mut live = None;
        // Appends, then fewer messages (a level's result), then appends again.
        for n in [4, 8, 12, 6, 10] {
            let shown = &messages[..n];
            let ours = shown_plan(&mut live, &compactor, shown).expect("plans");
            let stateless =
                compactor::plan::plan(compactor.accountant(), shown, compactor.budget(), &policy)
                    .expect("plans");
            assert_eq!(ours, stateless, "{n} messages");
            let session = live.as_ref().expect("a handle");
            assert_eq!(session.messages(), shown, "{n} messages");
        }
    }
}
