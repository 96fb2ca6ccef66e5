//! The core's outputs as the hosts hand them back: what `plan` and a session's `assess`
//! and `changes` answer, in the npm package's shapes (the component's JSON is the same).

use serde::Serialize;
use serde_json::Value;

use super::{Code, Failure};
use crate::budget::Budget;
use crate::engine::{Outcome, Status};
use crate::format::Conversation;
use crate::level::Level;
use crate::live::Splice;
use crate::message::{Message, MessageId};
use crate::overflow::{Assessment, Signals, Target};
use crate::plan::{Plan, SegmentState};

/// `plan`'s answer: the core's plan, with what each segment holds and where the summaries
/// stand (`Plan` in the npm typings).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlanView<'a> {
    #[serde(flatten)]
    plan: &'a Plan,
    segment_states: Vec<SegmentState>,
    summaries: Vec<SummaryAt<'a>>,
}

/// A summary message of a planned conversation.
#[derive(Debug, Serialize)]
pub struct SummaryAt<'a> {
    /// Its index.
    message: usize,
    level: Level,
    /// The first and last message it stands for (their ids in the original conversation).
    covers: &'a [MessageId],
}

impl<'a> PlanView<'a> {
    /// The view of `plan`, made of `messages`.
    pub fn of(plan: &'a Plan, messages: &'a [Message]) -> Self {
        let summaries = messages
            .iter()
            .enumerate()
            .filter_map(|(message, m)| {
                let meta = m.compaction.as_ref()?;
                Some(SummaryAt {
                    message,
                    level: meta.level,
                    covers: &meta.covers,
                })
            })
            .collect();
        PlanView {
            plan,
            segment_states: plan.segment_states(messages),
            summaries,
        }
    }
}

/// A session's assessment without its per-message list: what a per-turn check reads, in
/// time that does not grow with the conversation (`SessionAssessment` in the npm typings).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionAssessment<'a> {
    total_tokens: u64,
    message_count: usize,
    budget: &'a Budget,
    signals: Signals,
    target: Target,
}

impl<'a> From<&'a Assessment> for SessionAssessment<'a> {
    fn from(a: &'a Assessment) -> Self {
        SessionAssessment {
            total_tokens: a.total_tokens,
            message_count: a.message_count,
            budget: &a.budget,
            signals: a.signals,
            target: a.target,
        }
    }
}

/// What a session's latest compaction changed, as a splice of the caller's messages array
/// (`{ start, deleteCount, insert }`: `array.splice(start, deleteCount, ...insert)` brings
/// a copy of the array up to date).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Changes {
    /// The first message replaced, counted in the caller's array.
    pub start: usize,
    /// How many messages were removed from `start`.
    pub delete_count: usize,
    /// The messages that take their place, in the conversation's format.
    pub insert: Value,
}

impl Changes {
    /// `splice` of the session holding `messages`, in the positions and format of
    /// `conversation`. The engine counts every message; the caller's array does not hold
    /// those its format writes outside it (Anthropic's leading system messages go to
    /// `system`, a Responses or Gemini body's lead to its instructions).
    pub fn of(conversation: &Conversation, messages: &[Message], splice: &Splice) -> Self {
        let outside = conversation.given_start(messages);
        // Through the written `Value`: serializing the written form itself would link the
        // text-splitting code into the npm package for nothing.
        let insert = match conversation.to_json(&splice.insert).to_value() {
            Value::Object(mut body) => body
                .remove(conversation.format.list_key())
                .unwrap_or(Value::Array(Vec::new())),
            items => items,
        };
        Changes {
            start: splice.start.saturating_sub(outside),
            delete_count: splice.delete_count,
            insert,
        }
    }
}

/// A finished run as a host hands it back: its status and report as JSON, and for a
/// session's run, the changes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finished {
    /// The status's kind: `compacted`, `skipped`, `noOp`, `noProgress`.
    pub kind: &'static str,
    /// The status as JSON.
    pub status: String,
    /// The report as JSON.
    pub report: String,
    /// A session's run: how its messages changed, as JSON `{start, deleteCount, insert}`.
    pub changes: Option<String>,
}

/// The kind of a status, as its JSON names it.
fn status_kind(status: &Status) -> &'static str {
    match status {
        Status::Compacted { .. } => "compacted",
        Status::Skipped { .. } => "skipped",
        Status::NoOp => "noOp",
        Status::NoProgress => "noProgress",
    }
}

impl Finished {
    /// The outcome's status and report.
    pub fn of<H>(outcome: &Outcome) -> Result<Self, Failure<H>> {
        Ok(Finished {
            kind: status_kind(&outcome.status),
            status: json(&outcome.status)?,
            report: json(&outcome.report)?,
            changes: None,
        })
    }
}

/// An output of the core as JSON text. Its types are plain data: this cannot fail, and an
/// `INTERNAL` failure says so if it ever does.
pub fn json<H, T: Serialize + ?Sized>(value: &T) -> Result<String, Failure<H>> {
    serde_json::to_string(value)
        .map_err(|e| Failure::new(Code::Internal, format!("result not representable: {e}")))
}
