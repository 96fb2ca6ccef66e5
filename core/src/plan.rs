//! A plan: what compactor sees in a conversation before it changes anything — the
//! assessment, the segments and the tail.

use crate::budget::Budget;
use crate::message::Message;
use crate::overflow::{Assessment, assess};
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
