//! Segmentation: the conversation cut into atomic units and segments.
//!
//! A **unit** is what can never be split: a single message, or a tool exchange — an
//! assistant message requesting tools together with every message carrying their results
//! (parallel calls included), and whatever stands between them; or a text agent's action
//! (an assistant message that wrote a command, [`is_action`]) together with the user message
//! that carries its output (an observation: [`crate::observation`]). A trailing batch whose
//! results have not all arrived is a unit of its own ([`UnitKind::PendingCalls`]). A
//! message of nothing but reasoning (an OpenAI Responses `reasoning` item) opens the unit
//! of the message after it: the API refuses the one without the other.
//!
//! A **segment** is the messages between assistant responses: the units leading up to an
//! assistant response, and that response (with its tool results). Leading system messages
//! form a preamble segment; units after the last response form an open segment.
//!
//! A **turn** is one assistant response with the tool results it caused: one segment of
//! kind [`SegmentKind::Exchange`].

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use crate::action::{is_action, may_answer_action};
use crate::message::{Message, Role};

/// What a unit holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "snake_case")
)]
pub enum UnitKind {
    /// One message without tool calls (with the reasoning that led to it, if any).
    Single,
    /// Tool calls and all their results; or a text action and its output.
    ToolExchange,
    /// Tool calls some of whose results have not arrived: the agent is mid-step.
    PendingCalls,
}

/// An atomic run of messages.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Unit {
    /// The messages, as indices into the conversation.
    pub messages: Range<usize>,
    /// What it holds.
    pub kind: UnitKind,
}

/// What a segment holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "snake_case")
)]
pub enum SegmentKind {
    /// The leading system messages.
    Preamble,
    /// Messages ending with an assistant response: one turn.
    Exchange,
    /// Messages after the last assistant response (a new user message, pending calls).
    Open,
}

/// A run of units ending with an assistant response.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Segment {
    /// Position among the segments.
    pub index: usize,
    /// The messages, as indices into the conversation.
    pub messages: Range<usize>,
    /// The units, as indices into [`Segmentation::units`].
    pub units: Range<usize>,
    /// What it holds.
    pub kind: SegmentKind,
    /// How many turns came after it (0 for the newest).
    pub age: usize,
}

/// A conversation cut into units and segments. Both cover every message exactly once, in
/// order.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Segmentation {
    /// The atomic units, in order.
    pub units: Vec<Unit>,
    /// The segments, in order.
    pub segments: Vec<Segment>,
}

impl Segmentation {
    /// How many turns (assistant responses) the conversation holds.
    pub fn turns(&self) -> usize {
        self.segments
            .iter()
            .filter(|s| s.kind == SegmentKind::Exchange)
            .count()
    }

    /// Is `index` the first message of a unit (a place the conversation may be cut)?
    pub fn is_unit_start(&self, index: usize) -> bool {
        self.units.iter().any(|u| u.messages.start == index)
    }

    /// The segment holding message `index`.
    pub fn segment_of(&self, index: usize) -> Option<&Segment> {
        self.segments.iter().find(|s| s.messages.contains(&index))
    }
}

/// Tool calls and results that do not pair up. Nothing has changed when this is returned.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SegmentError {
    /// A tool result answers a call no earlier message made.
    #[error("messages[{index}]: tool result for call {call_id:?}, which no earlier message made")]
    OrphanToolResult {
        /// The message carrying the result.
        index: usize,
        /// The call id it names.
        call_id: String,
    },
    /// A second result for a call already answered.
    #[error("messages[{index}]: second tool result for call {call_id:?}")]
    DuplicateToolResult {
        /// The message carrying the second result.
        index: usize,
        /// The call id.
        call_id: String,
    },
    /// A call reuses the id of an earlier call that has not been answered yet.
    #[error(
        "messages[{index}]: tool call id {call_id:?} reused while the earlier call with that id is unanswered"
    )]
    DuplicateToolCallId {
        /// The message carrying the second call.
        index: usize,
        /// The call id.
        call_id: String,
    },
}

/// Cuts `messages` into units and segments.
pub fn segment(messages: &[Message]) -> Result<Segmentation, SegmentError> {
    let mut segmenter = Segmenter::default();
    segmenter.extend(messages);
    segmenter.segmentation()
}

#[derive(Debug, Clone, PartialEq)]
enum CallState {
    Open,
    Answered,
}

/// Segmentation kept up to date as messages arrive: each [`Segmenter::push`] looks at the
/// new message only, and [`Segmenter::segmentation`] materializes the units and segments
/// (only the open unit and segment at the end are still undecided; a text action whose
/// output has not arrived shows as a response of its own, and joins its output's unit when
/// it does). [`segment`] is a segmenter fed a whole conversation.
#[derive(Debug, Clone, Default)]
pub struct Segmenter {
    /// Every call id seen, and whether its result arrived.
    calls: HashMap<String, CallState>,
    /// The unit still waiting for results: its first message, that message's role, and
    /// the call ids not yet answered.
    open_unit: Option<(usize, Role, HashSet<String>)>,
    /// The closed units.
    units: Vec<Unit>,
    /// The closed segments, as unit ranges.
    spans: Vec<(Range<usize>, SegmentKind)>,
    /// No unit but single system messages so far.
    past_preamble: bool,
    /// The first unit of the segment still open.
    start: usize,
    /// Messages pushed.
    len: usize,
    /// The first unpaired call or result: later messages are counted but not segmented.
    error: Option<SegmentError>,
    /// The first of the reasoning messages waiting for the message they lead to.
    held: Option<usize>,
    /// A text action's unit (from its first message), waiting for the message after it:
    /// its output joins the unit, anything else closes it alone.
    action: Option<usize>,
}

impl Segmenter {
    /// Messages pushed so far.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Has nothing been pushed?
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Pushes every message of `messages`, in order.
    pub fn extend<'a>(&mut self, messages: impl IntoIterator<Item = &'a Message>) {
        for message in messages {
            self.push(message);
        }
    }

    /// Adds the next message of the conversation. After an error (see
    /// [`Segmenter::segmentation`]) messages are only counted.
    pub fn push(&mut self, message: &Message) {
        let index = self.len;
        self.len += 1;
        if self.error.is_none()
            && let Err(error) = self.push_inner(index, message)
        {
            self.error = Some(error);
        }
    }

    fn push_inner(&mut self, index: usize, message: &Message) -> Result<(), SegmentError> {
        if let Some(start) = self.action.take() {
            if may_answer_action(message) {
                let unit = Unit {
                    messages: start..index + 1,
                    kind: UnitKind::ToolExchange,
                };
                self.close_unit(unit, Role::Assistant);
                return Ok(());
            }
            let unit = Unit {
                messages: start..index,
                kind: UnitKind::Single,
            };
            self.close_unit(unit, Role::Assistant);
        }
        if self.open_unit.is_none() && message.is_reasoning_only() {
            self.held.get_or_insert(index);
            return Ok(());
        }
        let start = self.held.take().unwrap_or(index);
        for result in message.tool_results() {
            let call_id = result.call_id.as_str();
            match self.calls.get_mut(call_id) {
                Some(state @ CallState::Open) => {
                    *state = CallState::Answered;
                    if let Some((_, _, pending)) = &mut self.open_unit {
                        pending.remove(call_id);
                    }
                }
                Some(CallState::Answered) => {
                    return Err(SegmentError::DuplicateToolResult {
                        index,
                        call_id: call_id.to_owned(),
                    });
                }
                None => {
                    return Err(SegmentError::OrphanToolResult {
                        index,
                        call_id: call_id.to_owned(),
                    });
                }
            }
        }
        for call in message.tool_calls() {
            // Ids may be reused once answered (some agents number calls per turn); a
            // reuse while the first call is still open would make results ambiguous.
            if self.calls.insert(call.id.clone(), CallState::Open) == Some(CallState::Open) {
                return Err(SegmentError::DuplicateToolCallId {
                    index,
                    call_id: call.id.clone(),
                });
            }
            self.open_unit
                .get_or_insert_with(|| (start, message.role, HashSet::new()))
                .2
                .insert(call.id.clone());
        }
        match self.open_unit.take() {
            Some((start, role, pending)) if pending.is_empty() => self.close_unit(
                Unit {
                    messages: start..index + 1,
                    kind: UnitKind::ToolExchange,
                },
                role,
            ),
            Some(still_open) => self.open_unit = Some(still_open),
            None if is_action(message) => self.action = Some(start),
            None => self.close_unit(
                Unit {
                    messages: start..index + 1,
                    kind: UnitKind::Single,
                },
                message.role,
            ),
        }
        Ok(())
    }

    /// Records a closed unit whose first message has `role`, and closes the segment it ends.
    fn close_unit(&mut self, unit: Unit, role: Role) {
        let index = self.units.len();
        let system = unit.kind == UnitKind::Single && role == Role::System;
        let responds = role == Role::Assistant && unit.kind != UnitKind::PendingCalls;
        self.units.push(unit);
        if !self.past_preamble {
            if system {
                return;
            }
            self.past_preamble = true;
            if index > 0 {
                self.spans.push((0..index, SegmentKind::Preamble));
            }
            self.start = index;
        }
        if responds {
            self.spans
                .push((self.start..index + 1, SegmentKind::Exchange));
            self.start = index + 1;
        }
    }

    /// The units and segments of the messages pushed so far, or the first tool call or
    /// result that does not pair up.
    pub fn segmentation(&self) -> Result<Segmentation, SegmentError> {
        if let Some(error) = &self.error {
            return Err(error.clone());
        }
        let mut units = self.units.clone();
        let mut spans = self.spans.clone();
        let mut start = self.start;
        if !self.past_preamble {
            // Every closed unit is a system message.
            if !units.is_empty() {
                spans.push((0..units.len(), SegmentKind::Preamble));
            }
            start = units.len();
        }
        if let Some(first) = self.action {
            // An action whose output has not arrived: the response it is.
            units.push(Unit {
                messages: first..self.len,
                kind: UnitKind::Single,
            });
            spans.push((start..units.len(), SegmentKind::Exchange));
            start = units.len();
        }
        if let Some(first) = self.held {
            // Reasoning with nothing after it yet: the response in progress.
            units.push(Unit {
                messages: first..self.len,
                kind: UnitKind::Single,
            });
        }
        if let Some((first, _, _)) = &self.open_unit {
            units.push(Unit {
                messages: *first..self.len,
                kind: UnitKind::PendingCalls,
            });
        }
        if start < units.len() {
            spans.push((start..units.len(), SegmentKind::Open));
        }
        let mut segments: Vec<Segment> = spans
            .into_iter()
            .enumerate()
            .map(|(index, (range, kind))| Segment {
                index,
                messages: units[range.start].messages.start..units[range.end - 1].messages.end,
                units: range,
                kind,
                age: 0,
            })
            .collect();
        let mut turns_after = 0;
        for segment in segments.iter_mut().rev() {
            segment.age = turns_after;
            if segment.kind == SegmentKind::Exchange {
                turns_after += 1;
            }
        }
        Ok(Segmentation { units, segments })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::ToolCall;

    /// A Responses request: instructions, a user message, reasoning, a call, its output, a
    /// built-in tool call, and the answer.
    #[cfg(feature = "serde")]
    const RESPONSES: &str = r#"{"model":"o4-mini","instructions":"Be brief.","input":[{"role":"user","content":"list files","t":1.10},{"type":"reasoning","id":"rs_1","summary":[{"type":"summary_text","text":"Use ls."}],"encrypted_content":"gAAA"},{"type":"function_call","id":"fc_1","call_id":"call_1","name":"shell","arguments":"{\"cmd\":\"ls\"}","status":"completed"},{"type":"function_call_output","call_id":"call_1","output":"a.txt\nb.txt","n":1E5},{"type":"web_search_call","id":"ws_1","status":"completed","action":{"type":"search","query":"x"}},{"type":"message","id":"msg_1","role":"assistant","status":"completed","content":[{"type":"output_text","text":"Two files.","annotations":[]}]}],"temperature":0.70}"#;

    #[cfg(feature = "serde")]
    #[test]
    fn reasoning_opens_the_unit_of_the_item_after_it() {
        let conversation = crate::format::parse_str(
            RESPONSES,
            crate::format::Format::OpenAiResponses,
            crate::format::ParseOptions::default(),
        )
        .expect("valid");
        let segmentation = segment(&conversation.messages).expect("pairs");
        let units: Vec<_> = segmentation
            .units
            .iter()
            .map(|u| u.messages.clone())
            .collect();
        assert_eq!(units, [0..1, 1..2, 2..5, 5..6, 6..7]);
    }

    fn call(id: &str) -> ToolCall {
        ToolCall {
            id: id.into(),
            name: "bash".into(),
            arguments: "{}".into(),
        }
    }

    fn kinds(s: &Segmentation) -> Vec<(Range<usize>, SegmentKind)> {
        s.segments
            .iter()
            .map(|s| (s.messages.clone(), s.kind))
            .collect()
    }

    #[test]
    fn tool_exchanges_with_parallel_calls_are_atomic() {
        let messages = [
            Message::system("s", "rules"),
            Message::user("u", "fix it"),
            Message::assistant_calls("a1", None, [call("c1"), call("c2")]),
            Message::tool_result("t1", "c2", "two"),
            Message::tool_result("t2", "c1", "one"),
            Message::assistant("a2", "done"),
        ];
        let s = segment(&messages).expect("valid");
        let units: Vec<_> = s
            .units
            .iter()
            .map(|u| (u.messages.clone(), u.kind))
            .collect();
        assert_eq!(
            units,
            [
                (0..1, UnitKind::Single),
                (1..2, UnitKind::Single),
                (2..5, UnitKind::ToolExchange),
                (5..6, UnitKind::Single),
            ]
        );
        assert_eq!(
            kinds(&s),
            [
                (0..1, SegmentKind::Preamble),
                (1..5, SegmentKind::Exchange),
                (5..6, SegmentKind::Exchange),
            ]
        );
        assert_eq!(
            s.segments.iter().map(|s| s.age).collect::<Vec<_>>(),
            [2, 1, 0]
        );
        assert_eq!(s.turns(), 2);
        assert!(!s.is_unit_start(3));
    }

    #[test]
    fn text_agents_keep_each_action_with_its_output() {
        let action = |id: &str, command: &str| {
            Message::assistant(id, format!("Next.\n\n```bash\n{command}\n```").as_str())
        };
        let messages = [
            Message::system("s", "rules"),
            Message::user("u1", "task"),
            action("a1", "ls"),
            Message::user("o1", "file.txt"),
            action("a2", "cat file.txt"),
            Message::user("o2", "contents"),
            Message::assistant("a3", "Done: the file says contents."),
            Message::user("u2", "thanks"),
            action("a4", "rm file.txt"),
        ];
        let s = segment(&messages).expect("valid");
        // A cut never falls between a command and its output: the output is the turn's
        // result, as a tool result is.
        assert_eq!(
            kinds(&s),
            [
                (0..1, SegmentKind::Preamble),
                (1..4, SegmentKind::Exchange),
                (4..6, SegmentKind::Exchange),
                (6..7, SegmentKind::Exchange),
                (7..9, SegmentKind::Exchange),
            ]
        );
        assert!(!s.is_unit_start(3) && !s.is_unit_start(5));
        assert_eq!(s.units[2].kind, UnitKind::ToolExchange);
        // Before its output arrives, an action is a response of its own; then its unit
        // takes the output in.
        let before = segment(&messages[..3]).expect("valid");
        assert_eq!(kinds(&before).last(), Some(&(1..3, SegmentKind::Exchange)));
        assert_eq!(before.units.last().map(|u| u.messages.clone()), Some(2..3));
        let after = segment(&messages[..4]).expect("valid");
        assert_eq!(after.units.last().map(|u| u.messages.clone()), Some(2..4));
        assert_eq!(after.turns(), 1);
    }

    #[test]
    fn an_unanswered_trailing_batch_is_its_own_pending_unit() {
        let messages = [
            Message::user("u", "go"),
            Message::assistant_calls("a", None, [call("c1"), call("c2")]),
            Message::tool_result("t1", "c1", "one"),
        ];
        let s = segment(&messages).expect("valid");
        assert_eq!(
            s.units.last().map(|u| (u.messages.clone(), u.kind)),
            Some((1..3, UnitKind::PendingCalls))
        );
        assert_eq!(kinds(&s), [(0..3, SegmentKind::Open)]);
    }

    #[test]
    fn unpaired_results_are_errors_naming_the_message() {
        let orphan = [
            Message::user("u", "go"),
            Message::tool_result("t", "nope", "x"),
        ];
        assert_eq!(
            segment(&orphan),
            Err(SegmentError::OrphanToolResult {
                index: 1,
                call_id: "nope".into()
            })
        );
        let twice = [
            Message::assistant_calls("a", None, [call("c1")]),
            Message::tool_result("t1", "c1", "x"),
            Message::tool_result("t2", "c1", "x"),
        ];
        assert!(matches!(
            segment(&twice),
            Err(SegmentError::DuplicateToolResult { index: 2, .. })
        ));
        let reused_while_open = [
            Message::assistant_calls("a", None, [call("c1")]),
            Message::assistant_calls("b", None, [call("c1")]),
        ];
        assert!(matches!(
            segment(&reused_while_open),
            Err(SegmentError::DuplicateToolCallId { index: 1, .. })
        ));
    }

    #[test]
    fn call_ids_may_be_reused_once_answered() {
        let reused = [
            Message::assistant_calls("a", None, [call("c1")]),
            Message::tool_result("t1", "c1", "x"),
            Message::assistant_calls("b", None, [call("c1")]),
            Message::tool_result("t2", "c1", "y"),
        ];
        let s = segment(&reused).expect("valid");
        assert_eq!(
            s.units
                .iter()
                .map(|u| u.messages.clone())
                .collect::<Vec<_>>(),
            [0..2, 2..4]
        );
    }

    #[test]
    fn empty_conversations_have_no_segments() {
        let s = segment(&[]).expect("valid");
        assert!(s.units.is_empty() && s.segments.is_empty());
    }
}
