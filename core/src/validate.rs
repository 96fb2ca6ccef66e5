//! The checks a result passes before it leaves the engine. A failure is a bug in the
//! engine: the run returns the original conversation and this error, never a broken
//! conversation.

use crate::message::{Message, MessageId, Role};
use crate::segment::{SegmentError, UnitKind, segment};

/// Why a result was refused. The caller's conversation is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ValidationError {
    /// A tool call lost its result, or a result its call.
    #[error("orphan tool call or result: {0}")]
    Orphan(#[from] SegmentError),
    /// A tool-call batch is left unanswered where the original had it answered.
    #[error("tool calls at message {index} lost their results")]
    UnansweredCalls {
        /// The message making the calls.
        index: usize,
    },
    /// A pinned (non-compactable) message changed, moved or vanished.
    #[error("pinned message {id} changed, moved or vanished")]
    PinnedChanged {
        /// Its id.
        id: MessageId,
    },
    /// The first message after the system prompt is not one providers accept.
    #[error("the conversation would start with a {role} message")]
    BadStart {
        /// The role it starts with.
        role: Role,
    },
    /// The result breaks a rule of the provider format in play that the input kept.
    #[cfg(feature = "serde")]
    #[error("the result breaks {format} rules: {}", violations.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
    Provider {
        /// The format.
        format: crate::format::Format,
        /// What is broken.
        violations: Vec<crate::format::check::Violation>,
    },
    /// The engine's own bookkeeping broke (a bug): the original is kept.
    #[error("internal: {0}")]
    Internal(String),
    /// The result is still larger than the absolute limit.
    #[error("{tokens} tokens exceed the absolute limit of {limit}")]
    OverLimit {
        /// The result's tokens.
        tokens: u64,
        /// The absolute limit.
        limit: u64,
    },
}

/// Checks `result` against the rules of the provider `format`: every rule the original
/// kept must still hold. Consecutive user messages are allowed (a summary next to a kept
/// user message): Anthropic's API combines consecutive same-role turns, and the others
/// accept them.
#[cfg(feature = "serde")]
pub fn validate_format(
    format: crate::format::Format,
    original: &[Message],
    result: &[Message],
) -> Result<(), ValidationError> {
    use crate::format::check::{Rule, check};
    let broken_before: Vec<Rule> = check(format, original)
        .err()
        .unwrap_or_default()
        .into_iter()
        .map(|v| v.rule)
        .collect();
    let violations: Vec<_> = check(format, result)
        .err()
        .unwrap_or_default()
        .into_iter()
        .filter(|v| v.rule != Rule::RolesDoNotAlternate && !broken_before.contains(&v.rule))
        .collect();
    if violations.is_empty() {
        Ok(())
    } else {
        Err(ValidationError::Provider { format, violations })
    }
}

/// Checks `result` against `original`: pairs intact, pinned messages byte-identical and in
/// order, an acceptable first message, and `tokens` within `absolute_limit`.
pub fn validate(
    original: &[Message],
    result: &[Message],
    tokens: u64,
    absolute_limit: u64,
) -> Result<(), ValidationError> {
    let segmentation = segment(result)?;
    let originally_pending = segment(original)
        .ok()
        .and_then(|s| s.units.last().cloned())
        .is_some_and(|u| u.kind == UnitKind::PendingCalls);
    if let Some(unit) = segmentation
        .units
        .last()
        .filter(|u| u.kind == UnitKind::PendingCalls)
        && !originally_pending
    {
        return Err(ValidationError::UnansweredCalls {
            index: unit.messages.start,
        });
    }
    let pinned_before = original.iter().filter(|m| !m.compactable);
    let pinned_after: Vec<&Message> = result.iter().filter(|m| !m.compactable).collect();
    let mut after = pinned_after.iter();
    for message in pinned_before {
        if after.next() != Some(&message) {
            return Err(ValidationError::PinnedChanged {
                id: message.id.clone(),
            });
        }
    }
    let first_of = |messages: &[Message]| {
        messages
            .iter()
            .find(|m| m.role != Role::System)
            .map(|m| m.role)
    };
    if let Some(role) = first_of(result)
        && role != Role::User
        && first_of(original) != Some(role)
    {
        return Err(ValidationError::BadStart { role });
    }
    if tokens > absolute_limit {
        return Err(ValidationError::OverLimit {
            tokens,
            limit: absolute_limit,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::ToolCall;

    fn conversation() -> Vec<Message> {
        let call = ToolCall {
            id: "c1".into(),
            name: "bash".into(),
            arguments: "{}".into(),
        };
        vec![
            Message::system("s", "rules"),
            Message::user("u", "go"),
            Message::assistant_calls("a", None, [call]),
            Message::tool_result("t", "c1", "out"),
        ]
    }

    #[test]
    fn an_unchanged_conversation_passes() {
        let c = conversation();
        assert_eq!(validate(&c, &c, 10, 100), Ok(()));
    }

    #[test]
    fn broken_results_are_refused() {
        let c = conversation();
        let orphan = vec![c[0].clone(), c[1].clone(), c[3].clone()];
        assert!(matches!(
            validate(&c, &orphan, 10, 100),
            Err(ValidationError::Orphan(_))
        ));
        let unanswered = c[..3].to_vec();
        assert!(matches!(
            validate(&c, &unanswered, 10, 100),
            Err(ValidationError::UnansweredCalls { index: 2 })
        ));
        let no_system = c[1..].to_vec();
        assert!(matches!(
            validate(&c, &no_system, 10, 100),
            Err(ValidationError::PinnedChanged { .. })
        ));
        let assistant_first = vec![c[0].clone(), c[2].clone(), c[3].clone()];
        assert!(matches!(
            validate(&c, &assistant_first, 10, 100),
            Err(ValidationError::BadStart {
                role: Role::Assistant
            })
        ));
        assert!(matches!(
            validate(&c, &c, 101, 100),
            Err(ValidationError::OverLimit { .. })
        ));
    }
}
