//! Selection of the raw tail: the recent turns the model keeps seeing verbatim.
//!
//! The tail is the newest turns (a turn being one assistant response with the tool results
//! it caused, together with the messages that led up to it and whatever came after the last
//! response) up to a token budget — by default half the target — never fewer than
//! `min_turns`, never more than `keep_recent_turns`. In agent loops every tool call is a
//! turn, so a count of turns alone is far too small: the budget sizes the tail. It always
//! starts at a segment boundary, so it never starts inside a unit: no tool call is
//! separated from its result. Everything before it is a compaction candidate.

use crate::budget::Budget;
use crate::segment::{SegmentKind, Segmentation};

/// Default share of the target the tail may take, leaving the rest for the pinned
/// messages and the summaries.
pub const DEFAULT_TAIL_SHARE: f64 = 0.5;

/// How large the tail may be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "camelCase")
)]
pub struct TailPolicy {
    /// At most this many turns.
    pub keep_recent_turns: usize,
    /// At least this many turns, whatever their tokens (the newest turn is always kept).
    pub min_turns: usize,
    /// At most this many tokens, beyond the `min_turns` newest turns.
    pub max_tail_tokens: Option<u64>,
}

impl TailPolicy {
    /// The engine's tail: the newest turns within [`DEFAULT_TAIL_SHARE`] of `target_tokens`,
    /// never fewer than `min_turns`.
    pub fn for_target(min_turns: usize, target_tokens: u64) -> Self {
        Self {
            keep_recent_turns: usize::MAX,
            min_turns,
            max_tail_tokens: Some((target_tokens as f64 * DEFAULT_TAIL_SHARE) as u64),
        }
    }

    /// [`for_target`](Self::for_target) the budget's target: the tail a proactive run keeps.
    pub fn for_budget(min_turns: usize, budget: &Budget) -> Self {
        Self::for_target(min_turns, budget.target_tokens)
    }
}

/// The selected tail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "camelCase")
)]
pub struct Tail {
    /// The first message of the tail; equal to the message count when the tail is empty.
    pub start: usize,
    /// The first segment of the tail; equal to the segment count when the tail is empty.
    pub first_segment: usize,
    /// The turns it holds.
    pub turns: usize,
    /// Its tokens.
    pub tokens: u64,
    /// Fewer turns than asked for, because of the token cap.
    pub capped: bool,
}

/// Selects the tail of a segmented conversation; `message_tokens` holds each message's
/// count.
pub fn select_tail(
    segmentation: &Segmentation,
    message_tokens: &[u64],
    policy: &TailPolicy,
) -> Tail {
    let segments = &segmentation.segments;
    let mut tail = Tail {
        start: message_tokens.len(),
        first_segment: segments.len(),
        turns: 0,
        tokens: 0,
        capped: false,
    };
    for segment in segments.iter().rev() {
        let tokens: u64 = message_tokens[segment.messages.clone()].iter().sum();
        match segment.kind {
            SegmentKind::Preamble => break,
            SegmentKind::Open => {}
            SegmentKind::Exchange => {
                if tail.turns >= policy.keep_recent_turns {
                    break;
                }
                let over_cap = policy
                    .max_tail_tokens
                    .is_some_and(|cap| tail.tokens + tokens > cap);
                if tail.turns >= policy.min_turns.max(1) && over_cap {
                    tail.capped = true;
                    break;
                }
                tail.turns += 1;
            }
        }
        tail.tokens += tokens;
        tail.start = segment.messages.start;
        tail.first_segment = segment.index;
    }
    tail
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::Message;
    use crate::segment::segment;

    fn text_agent(turns: usize) -> Vec<Message> {
        let mut messages = vec![Message::system("s", "rules")];
        for i in 0..turns {
            messages.push(Message::user(format!("u{i}").as_str(), "observation"));
            messages.push(Message::assistant(format!("a{i}").as_str(), "action"));
        }
        messages
    }

    #[test]
    fn the_tail_keeps_the_last_turns_with_their_lead_messages() {
        let messages = text_agent(6);
        let s = segment(&messages).expect("valid");
        let tokens = vec![10; messages.len()];
        let policy = TailPolicy {
            keep_recent_turns: 4,
            min_turns: 1,
            max_tail_tokens: None,
        };
        let tail = select_tail(&s, &tokens, &policy);
        assert_eq!(
            (tail.start, tail.turns, tail.tokens, tail.capped),
            (5, 4, 80, false)
        );
        assert_eq!(messages[tail.start].id.as_str(), "u2");
    }

    #[test]
    fn the_token_cap_shortens_the_tail_but_keeps_the_newest_turn() {
        let messages = text_agent(6);
        let s = segment(&messages).expect("valid");
        let tokens = vec![10; messages.len()];
        let capped = TailPolicy {
            keep_recent_turns: 4,
            min_turns: 1,
            max_tail_tokens: Some(45),
        };
        let tail = select_tail(&s, &tokens, &capped);
        assert_eq!((tail.turns, tail.tokens, tail.capped), (2, 40, true));
        let tiny = TailPolicy {
            keep_recent_turns: 4,
            min_turns: 1,
            max_tail_tokens: Some(1),
        };
        assert_eq!(select_tail(&s, &tokens, &tiny).turns, 1);
        let floor = TailPolicy {
            min_turns: 3,
            ..tiny
        };
        assert_eq!(
            select_tail(&s, &tokens, &floor).turns,
            3,
            "never fewer than min_turns"
        );
    }

    #[test]
    fn short_conversations_are_all_tail_but_the_preamble() {
        let messages = text_agent(2);
        let s = segment(&messages).expect("valid");
        let tail = select_tail(
            &s,
            &vec![1; messages.len()],
            &TailPolicy {
                keep_recent_turns: 4,
                min_turns: 1,
                max_tail_tokens: None,
            },
        );
        assert_eq!((tail.start, tail.first_segment, tail.turns), (1, 1, 2));
    }
}
