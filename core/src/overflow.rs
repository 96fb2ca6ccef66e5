//! Assessment: a conversation's tokens and messages against its [`Budget`].
//!
//! Pure and idempotent: the same messages and budget always give the same assessment.
//! Counting goes through the [`TokenAccountant`]'s memo, so assessing every turn costs only
//! the new messages.

use crate::budget::Budget;
use crate::message::{Message, MessageId};
use crate::tokens::TokenAccountant;

/// Which limits a conversation crosses.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "camelCase")
)]
pub struct Signals {
    /// More tokens than the trigger.
    pub over_trigger: bool,
    /// More messages than `max_messages`.
    pub over_max_messages: bool,
    /// More tokens than the absolute limit: the provider would refuse the request.
    pub over_absolute_limit: bool,
}

impl Signals {
    /// Did any compaction signal fire?
    pub fn any(self) -> bool {
        self.over_trigger || self.over_max_messages || self.over_absolute_limit
    }
}

/// Where a run must bring the conversation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "camelCase")
)]
pub struct Target {
    /// At or below this many tokens.
    pub tokens: u64,
    /// At or below this many messages, when the message-count signal fired.
    pub messages: Option<usize>,
}

impl Target {
    /// Does a conversation of this size meet the target?
    pub fn is_met(&self, tokens: u64, messages: usize) -> bool {
        tokens <= self.tokens && self.messages.is_none_or(|max| messages <= max)
    }
}

/// One message's share.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "camelCase")
)]
pub struct MessageTokens {
    /// The message.
    pub id: MessageId,
    /// Its tokens, framing included.
    pub tokens: u64,
}

/// The assessment of one conversation.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "camelCase")
)]
pub struct Assessment {
    /// Tokens of the whole request (messages plus reply priming).
    pub total_tokens: u64,
    /// How many messages.
    pub message_count: usize,
    /// The numbers measured against.
    pub budget: Budget,
    /// The limits crossed.
    pub signals: Signals,
    /// Where a run must bring the conversation. The message part is set only when the
    /// message-count signal fired: otherwise a run would stop at once and fire again next
    /// turn.
    pub target: Target,
    /// Each message's tokens, in order.
    pub messages: Vec<MessageTokens>,
}

impl Assessment {
    /// Should a proactive run compact?
    pub fn needs_compaction(&self) -> bool {
        self.signals.any()
    }

    /// Each message's tokens, in order, without the ids.
    pub fn message_tokens(&self) -> Vec<u64> {
        self.messages.iter().map(|m| m.tokens).collect()
    }
}

/// Assesses `messages` against `budget`.
pub fn assess(accountant: &TokenAccountant, messages: &[Message], budget: &Budget) -> Assessment {
    let counts = accountant.count_messages(messages);
    let total_tokens = accountant.total(&counts);
    let (signals, target) = judge(total_tokens, messages.len(), budget);
    Assessment {
        total_tokens,
        message_count: messages.len(),
        budget: budget.clone(),
        signals,
        target,
        messages: messages
            .iter()
            .zip(counts)
            .map(|(message, tokens)| MessageTokens {
                id: message.id.clone(),
                tokens,
            })
            .collect(),
    }
}

/// The signals a conversation of `total_tokens` tokens in `message_count` messages fires
/// against `budget`, and the target a run must reach: the verdict of [`assess`], for
/// callers that keep the totals themselves.
pub fn judge(total_tokens: u64, message_count: usize, budget: &Budget) -> (Signals, Target) {
    let over_max_messages = budget.max_messages.is_some_and(|max| message_count > max);
    let signals = Signals {
        over_trigger: total_tokens > budget.trigger_tokens,
        over_max_messages,
        over_absolute_limit: total_tokens > budget.absolute_limit,
    };
    let target = Target {
        tokens: budget.target_tokens,
        messages: budget.target_messages.filter(|_| over_max_messages),
    };
    (signals, target)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::budget::BudgetConfig;
    use crate::tokens::Estimator;
    use std::sync::Arc;

    fn budget(window: u64, max_messages: Option<usize>) -> Budget {
        BudgetConfig {
            max_context_tokens: Some(window),
            output_reserve: Some(0),
            comfort_tokens: None,
            max_messages,
            ..BudgetConfig::default()
        }
        .resolve()
        .expect("valid")
    }

    fn conversation(n: usize) -> Vec<Message> {
        (0..n)
            .map(|i| Message::user(format!("m{i}").as_str(), "some words here"))
            .collect()
    }

    #[test]
    fn small_conversations_need_nothing() {
        let accountant = TokenAccountant::new(Arc::new(Estimator));
        let assessment = assess(&accountant, &conversation(3), &budget(10_000, Some(50)));
        assert!(!assessment.needs_compaction());
        assert_eq!(assessment.message_count, 3);
        assert_eq!(
            assessment.total_tokens,
            accountant.total(&assessment.message_tokens())
        );
    }

    #[test]
    fn token_signals_fire_at_the_trigger_and_the_absolute_limit() {
        let accountant = TokenAccountant::new(Arc::new(Estimator));
        let messages = conversation(20);
        let total = assess(&accountant, &messages, &budget(1_000_000, None)).total_tokens;
        let just_over_trigger = budget((total as f64 / 0.95) as u64, None);
        let assessment = assess(&accountant, &messages, &just_over_trigger);
        assert!(assessment.signals.over_trigger);
        assert!(!assessment.signals.over_absolute_limit);
        assert_eq!(assessment.target.messages, None);
        let overflowing = assess(&accountant, &messages, &budget(total - 1, None));
        assert!(overflowing.signals.over_absolute_limit);
    }

    #[test]
    fn the_message_signal_sets_a_message_target() {
        let accountant = TokenAccountant::new(Arc::new(Estimator));
        let assessment = assess(&accountant, &conversation(51), &budget(1_000_000, Some(50)));
        assert!(assessment.signals.over_max_messages);
        assert!(!assessment.signals.over_trigger);
        assert_eq!(assessment.target.messages, Some(37));
        assert!(!assessment.target.is_met(10, 51));
        assert!(assessment.target.is_met(10, 37));
    }

    #[test]
    fn assessment_is_idempotent() {
        let accountant = TokenAccountant::new(Arc::new(Estimator));
        let messages = conversation(10);
        let b = budget(1_000, Some(50));
        assert_eq!(
            assess(&accountant, &messages, &b),
            assess(&accountant, &messages, &b)
        );
    }
}
