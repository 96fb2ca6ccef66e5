//! A plan: what compactor sees in a conversation before it changes anything — the
//! assessment, the segments and the tail.

use crate::budget::Budget;
use crate::message::{Message, Part};
use crate::overflow::{Assessment, assess};
use crate::prune::{is_cleared, is_clipped, recognize};
use crate::segment::{SegmentError, Segmentation, segment};
use crate::select::{Tail, TailPolicy, select_tail};
use crate::tokens::TokenAccountant;

/// The assessment, segmentation and tail of one conversation.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "camelCase")
)]
pub struct Plan {
    /// Tokens and limits.
    pub assessment: Assessment,
    /// Units and segments.
    pub segmentation: Segmentation,
    /// The raw tail.
    pub tail: Tail,
}

/// What a segment holds, as the plan sees it: what compaction did to it, or would leave.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "camelCase")
)]
pub enum SegmentState {
    /// Older than the tail and untouched: a candidate for compaction.
    Raw,
    /// In the raw tail the model keeps seeing.
    Tail,
    /// Nothing in it may be compacted.
    Pinned,
    /// Tool-result bodies cleared or clipped (LIGHT).
    Masked,
    /// Holds a summary the engine wrote.
    Summarized,
}

impl SegmentState {
    /// The word shown for it.
    pub fn as_str(self) -> &'static str {
        match self {
            SegmentState::Raw => "raw",
            SegmentState::Tail => "tail",
            SegmentState::Pinned => "pinned",
            SegmentState::Masked => "masked",
            SegmentState::Summarized => "summarized",
        }
    }
}

impl Plan {
    /// The state of each segment, in order. `messages` are the messages this plan was made
    /// of. A summary wins over everything, then pinned, masked, tail and raw.
    pub fn segment_states(&self, messages: &[Message]) -> Vec<SegmentState> {
        self.segmentation
            .segments
            .iter()
            .map(|segment| {
                let held = messages.get(segment.messages.clone()).unwrap_or_default();
                if held.iter().any(Message::is_compaction) {
                    SegmentState::Summarized
                } else if held.iter().all(|m| !m.compactable) {
                    SegmentState::Pinned
                } else if held.iter().any(has_cleared_result) {
                    SegmentState::Masked
                } else if segment.index >= self.tail.first_segment {
                    SegmentState::Tail
                } else {
                    SegmentState::Raw
                }
            })
            .collect()
    }
}

/// Does `message` hold a tool result LIGHT cleared or clipped?
fn has_cleared_result(message: &Message) -> bool {
    message.tool_results().any(|result| {
        result
            .content
            .iter()
            .any(|c| matches!(c, Part::Text { text } if is_cleared(text) || is_clipped(text)))
    })
}

/// Plans `messages`: assesses them against `budget`, segments them and selects the tail.
pub fn plan(
    accountant: &TokenAccountant,
    messages: &[Message],
    budget: &Budget,
    policy: &TailPolicy,
) -> Result<Plan, SegmentError> {
    let segmentation = segment(messages)?;
    let assessment = assess(accountant, messages, budget);
    let tail = select_tail(&segmentation, &assessment.message_tokens(), policy);
    Ok(Plan {
        assessment,
        segmentation,
        tail,
    })
}

/// Plans messages as they were read (a file, a provider format, a store): first marks the
/// summaries an earlier run wrote, by their marker, as a run does ([`recognize`]), then
/// [`plan`]s them. The entry point for every caller that plans what it read, so a compacted
/// conversation shows its summaries as summaries, not as one candidate segment.
pub fn plan_read(
    accountant: &TokenAccountant,
    messages: &mut [Message],
    budget: &Budget,
    policy: &TailPolicy,
) -> Result<Plan, SegmentError> {
    recognize(messages);
    plan(accountant, messages, budget, policy)
}
