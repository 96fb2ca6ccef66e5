//! The checks a result passes before it leaves the engine. A failure is a bug in the
//! engine: the run returns the original conversation and this error, never a broken
//! conversation.

use crate::message::{Message, MessageId, Part, Role};
use crate::prune::{is_cleared, is_clipped};
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
    /// An original message is not conserved (see [`conserved`]), or an unanswered
    /// tool-call batch of the input is gone.
    #[error("message {id} {broken}")]
    NotConserved {
        /// The message (for a lost batch, the one making the calls).
        id: MessageId,
        /// How.
        broken: Broken,
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

/// How a message was not conserved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Broken {
    /// Neither kept nor covered by a summary.
    Lost,
    /// Covered more than once: by two summaries, or kept and covered.
    CoveredTwice,
    /// Kept, but changed other than by a marked clip or a cleared tool result.
    Altered,
    /// In the result, neither an original message in its place nor a summary.
    Unknown,
    /// The unanswered tool calls it made vanished.
    PendingCallsLost,
}

impl std::fmt::Display for Broken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Broken::Lost => "vanished: neither kept nor covered by a summary",
            Broken::CoveredTwice => "is covered more than once",
            Broken::Altered => "changed other than by clipping or clearing",
            Broken::Unknown => "is neither an original message in its place nor a summary",
            Broken::PendingCallsLost => "made tool calls that are still unanswered, and vanished",
        })
    }
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
/// order, an unanswered tool-call batch still there, every original message conserved
/// (see [`conserved`]), an acceptable first message, and `tokens` within `absolute_limit`.
pub fn validate(
    original: &[Message],
    result: &[Message],
    tokens: u64,
    absolute_limit: u64,
) -> Result<(), ValidationError> {
    let pending_unit = |messages: &[Message]| {
        segment(messages)
            .ok()
            .and_then(|s| s.units.last().cloned())
            .filter(|u| u.kind == UnitKind::PendingCalls)
            .map(|u| u.messages)
    };
    let segmentation = segment(result)?;
    let pending_before = pending_unit(original);
    if let Some(unit) = segmentation
        .units
        .last()
        .filter(|u| u.kind == UnitKind::PendingCalls)
        && pending_before.is_none()
    {
        return Err(ValidationError::UnansweredCalls {
            index: unit.messages.start,
        });
    }
    if let Some(before) = pending_before {
        let after = pending_unit(result)
            .and_then(|r| result.get(r))
            .unwrap_or_default();
        let same = original[before.clone()]
            .iter()
            .map(|m| &m.id)
            .eq(after.iter().map(|m| &m.id));
        if !same {
            return Err(ValidationError::NotConserved {
                id: original[before.start].id.clone(),
                broken: Broken::PendingCallsLost,
            });
        }
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
    conserved(original, result)?;
    if tokens > absolute_limit {
        return Err(ValidationError::OverLimit {
            tokens,
            limit: absolute_limit,
        });
    }
    Ok(())
}

/// Conservation: each original message is in the result, in order, unchanged or changed
/// only by compaction (text clipped middle-out with its marker, a tool result cleared to
/// its placeholder under the same call id); or else it stands, exactly once, in the
/// `covers` of one summary the result holds that the original did not. An earlier summary
/// folded into a new one stands for what it covered. Summaries sit where what they cover
/// was, so what the missing messages stand for, in order, is what the new summaries
/// cover, in order.
pub fn conserved(original: &[Message], result: &[Message]) -> Result<(), ValidationError> {
    let broken = |message: &Message, broken| ValidationError::NotConserved {
        id: message.id.clone(),
        broken,
    };
    // Scans, not maps: kept messages come in order, so the search for each goes forward
    // from the last one found (and each map type costs the lite npm package).
    let mut kept = vec![false; original.len()];
    let mut covered: Vec<&MessageId> = Vec::new();
    let mut from = 0;
    for message in result {
        let place = original[from..]
            .iter()
            .position(|o| o.id == message.id)
            .map(|p| from + p);
        let unchanged = place.map(|i| (i, changed_only_by_compaction(&original[i], message)));
        match (unchanged, &message.compaction) {
            (Some((i, true)), _) => {
                kept[i] = true;
                from = i + 1;
            }
            // Summary ids derive from their content: a summary written again over the very
            // messages an earlier one covered, with the same text, takes its id (and a new
            // key). It is a new summary.
            (_, Some(meta)) => covered.extend(&meta.covers),
            (Some(_), None) => return Err(broken(message, Broken::Altered)),
            // Not found ahead: invented, or moved before a message kept after it.
            (None, None) => return Err(broken(message, Broken::Unknown)),
        }
    }
    let mut expected: Vec<&MessageId> = Vec::new();
    for (message, _) in original.iter().zip(&kept).filter(|(_, kept)| !**kept) {
        expected.extend(message.stands_for());
    }
    let Some(k) =
        (0..expected.len().max(covered.len())).find(|&k| expected.get(k) != covered.get(k))
    else {
        return Ok(());
    };
    // At the first difference: a message still wanted further on was skipped (lost), or
    // the summary covers one no missing message stands for (twice covered, or kept too).
    let (id, how) = match (expected.get(k), covered.get(k)) {
        (Some(&want), Some(&got)) if expected[k..].contains(&got) => (want, Broken::Lost),
        (_, Some(&got)) => (got, Broken::CoveredTwice),
        (Some(&want), None) => (want, Broken::Lost),
        (None, None) => return Ok(()),
    };
    Err(ValidationError::NotConserved {
        id: id.clone(),
        broken: how,
    })
}

/// Is `after` the message `before`, or `before` changed only as compaction changes a
/// compactable message?
fn changed_only_by_compaction(before: &Message, after: &Message) -> bool {
    if before == after {
        return true;
    }
    before.compactable
        && after.compactable
        && before.role == after.role
        && before.name == after.name
        && before.compaction == after.compaction
        && before.parts.len() == after.parts.len()
        && before.parts.iter().zip(&after.parts).all(|(b, a)| {
            b == a
                || match (b, a) {
                    (Part::Text { .. }, Part::Text { text }) => is_clipped(text),
                    (Part::ToolResult(b), Part::ToolResult(a)) => {
                        b.call_id == a.call_id
                            && b.tool_name == a.tool_name
                            && b.is_error == a.is_error
                            && (matches!(a.content.as_slice(), [Part::Text { text }] if is_cleared(text) || is_clipped(text))
                                || (b.content.len() == a.content.len()
                                    && b.content.iter().zip(&a.content).all(|(b, a)| {
                                        b == a || matches!(a, Part::Text { text } if is_clipped(text))
                                    })))
                    }
                    _ => false,
                }
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Level;
    use crate::message::ToolCall;
    use crate::prune::{CLIP_MARKER, cleared_placeholder, summary_message};

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

    /// `[system, task, assistant, user]` and a summary of the task and the assistant.
    fn chat() -> (Vec<Message>, Message) {
        let c = vec![
            Message::system("s", "rules"),
            Message::user("u1", "fix src/lib.rs"),
            Message::assistant("a1", "fixed"),
            Message::user("u2", "thanks"),
        ];
        let summary = summary_message(
            "- fixed src/lib.rs",
            vec!["u1".into(), "a1".into()],
            Level::Aggressive,
            "k",
            1,
        );
        (c, summary)
    }

    #[test]
    fn summaries_clips_and_clearings_conserve_the_originals() {
        let (c, summary) = chat();
        let folded = vec![c[0].clone(), summary.clone(), c[3].clone()];
        assert_eq!(validate(&c, &folded, 10, 100), Ok(()));
        // A summary folded again stands for what it covered.
        let again = summary_message(
            "- fixed",
            vec!["u1".into(), "a1".into(), "u2".into()],
            Level::Maximum,
            "k2",
            1,
        );
        assert_eq!(validate(&folded, &[c[0].clone(), again], 10, 100), Ok(()));
        // The same summary written again (same id, as ids derive from the text) by a
        // later run, under that run's key.
        let mut rewritten = folded.clone();
        if let Some(meta) = rewritten[1].compaction.as_mut() {
            meta.key = "k2".into();
        }
        assert_eq!(validate(&folded, &rewritten, 10, 100), Ok(()));
        let mut clipped = c.clone();
        clipped[2] = Message::assistant("a1", format!("fix\n[… 9 {CLIP_MARKER} …]\ned"));
        assert_eq!(validate(&c, &clipped, 10, 100), Ok(()));
        let tools = conversation();
        let mut cleared = tools.clone();
        if let Part::ToolResult(result) = &mut cleared[3].parts[0] {
            result.content = vec![Part::text(cleared_placeholder(
                "bash", 900, None, "out", 48,
            ))];
        }
        assert_eq!(validate(&tools, &cleared, 10, 100), Ok(()));
    }

    #[test]
    fn lost_twice_covered_altered_and_invented_messages_are_refused() {
        let (c, summary) = chat();
        let dropped = vec![c[0].clone(), c[1].clone(), c[3].clone()];
        assert_eq!(
            validate(&c, &dropped, 10, 100),
            Err(ValidationError::NotConserved {
                id: "a1".into(),
                broken: Broken::Lost,
            })
        );
        let kept_and_covered = vec![c[0].clone(), summary.clone(), c[2].clone(), c[3].clone()];
        assert_eq!(
            validate(&c, &kept_and_covered, 10, 100),
            Err(ValidationError::NotConserved {
                id: "a1".into(),
                broken: Broken::CoveredTwice,
            })
        );
        let mut second = summary_message("- again", vec!["a1".into()], Level::Maximum, "k", 1);
        second.id = "c-other".into();
        let covered_twice = vec![c[0].clone(), summary.clone(), second, c[3].clone()];
        assert_eq!(
            validate(&c, &covered_twice, 10, 100),
            Err(ValidationError::NotConserved {
                id: "a1".into(),
                broken: Broken::CoveredTwice,
            })
        );
        let mut altered = c.clone();
        altered[2] = Message::assistant("a1", "did nothing");
        assert_eq!(
            validate(&c, &altered, 10, 100),
            Err(ValidationError::NotConserved {
                id: "a1".into(),
                broken: Broken::Altered,
            })
        );
        let swapped = vec![c[0].clone(), c[1].clone(), c[3].clone(), c[2].clone()];
        assert_eq!(
            validate(&c, &swapped, 10, 100),
            Err(ValidationError::NotConserved {
                id: "a1".into(),
                broken: Broken::Unknown,
            })
        );
        let mut invented = c.clone();
        invented.push(Message::user("x", "hello"));
        assert_eq!(
            validate(&c, &invented, 10, 100),
            Err(ValidationError::NotConserved {
                id: "x".into(),
                broken: Broken::Unknown,
            })
        );
    }

    #[test]
    fn a_vanished_pending_batch_is_refused() {
        let tools = conversation();
        let pending = tools[..3].to_vec();
        assert_eq!(validate(&pending, &pending, 10, 100), Ok(()));
        // Dropped, and folded into a summary (which conserves it, but the agent waits
        // for results to calls it no longer sees).
        let dropped = pending[..2].to_vec();
        let folded = vec![
            pending[0].clone(),
            pending[1].clone(),
            summary_message("- ran bash", vec!["a".into()], Level::Maximum, "k", 1),
        ];
        for result in [dropped, folded] {
            assert_eq!(
                validate(&pending, &result, 10, 100),
                Err(ValidationError::NotConserved {
                    id: "a".into(),
                    broken: Broken::PendingCallsLost,
                })
            );
        }
    }
}
