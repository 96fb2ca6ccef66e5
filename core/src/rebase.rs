//! Rebase of appends: messages a session's store gained while a compaction ran are put
//! after the compaction's result, never lost.
//!
//! A compaction reads a session's messages (the *base*), works on them for a while (its
//! summarizer is a model call), and writes back a *replacement* for them. Meanwhile the
//! agent may have appended messages to the store. When the store now holds the base
//! followed by new messages, the write becomes the replacement followed by those new
//! messages; any other change (a loaded message edited, removed or reordered, another
//! compaction's result written) cannot be rebased and stays a conflict.
//!
//! Messages are compared by [`message_hash`] (role, name and content; not ids or flags),
//! so a store that hands back the same messages under fresh ids still matches.

use crate::engine::{CompactError, Compactor, Offender};
use crate::hash::message_hash;
use crate::message::Message;

/// How many refused saves a session's write-back rebases before it gives up with a
/// conflict: each one means the agent appended again while the write was under way.
pub const MAX_REBASES: u32 = 3;

/// The store's messages are not the base plus appends: one of the base's messages was
/// changed or removed. Nothing can be rebased; the write is a conflict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the stored conversation diverged from the one compacted at message {at}")]
pub struct Diverged {
    /// The index of the first base message the store no longer holds as it was (the
    /// store's length when it holds fewer messages than the base).
    pub at: usize,
}

/// The messages appended to `base` in `now`: the tail of `now` after a prefix equal, message
/// by message, to `base`. Empty when `now` holds just the base.
pub fn appended<'a>(base: &[Message], now: &'a [Message]) -> Result<&'a [Message], Diverged> {
    if let Some(at) = base
        .iter()
        .zip(now)
        .position(|(b, n)| message_hash(b) != message_hash(n))
    {
        return Err(Diverged { at });
    }
    match now.get(base.len()..) {
        Some(tail) => Ok(tail),
        None => Err(Diverged { at: now.len() }),
    }
}

/// `replacement` (what was made of `base`) followed by the messages appended to `base` in
/// `now`, and how many those are.
pub fn rebase(
    base: &[Message],
    replacement: &[Message],
    now: &[Message],
) -> Result<Rebased, Diverged> {
    let tail = appended(base, now)?;
    let mut messages = Vec::with_capacity(replacement.len() + tail.len());
    messages.extend_from_slice(replacement);
    messages.extend_from_slice(tail);
    Ok(Rebased {
        messages,
        appended: tail.len(),
    })
}

/// A replacement with the appends after it.
#[derive(Debug, Clone, PartialEq)]
pub struct Rebased {
    /// The replacement, then the appended messages as the store holds them.
    pub messages: Vec<Message>,
    /// How many messages were appended.
    pub appended: usize,
}

/// `Ok` when `messages` fit `compactor`'s absolute limit; else
/// [`CompactError::ContextOverflow`] naming every message, largest first. A rebased result
/// is checked with this before it is written: appends can push it over.
pub fn within_limit(compactor: &Compactor, messages: &[Message]) -> Result<(), CompactError> {
    let assessment = compactor.assess(messages);
    if !assessment.signals.over_absolute_limit {
        return Ok(());
    }
    let mut offenders: Vec<Offender> = assessment
        .messages
        .iter()
        .map(|m| Offender {
            id: m.id.clone(),
            tokens: m.tokens,
        })
        .collect();
    offenders.sort_by_key(|o| std::cmp::Reverse(o.tokens));
    Err(CompactError::ContextOverflow {
        tokens: assessment.total_tokens,
        limit: assessment.budget.absolute_limit,
        offenders,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn convo(texts: &[&str]) -> Vec<Message> {
        texts
            .iter()
            .enumerate()
            .map(|(i, t)| Message::user(format!("m{i}").as_str(), *t))
            .collect()
    }

    #[test]
    fn appends_go_after_the_replacement() {
        let base = convo(&["a", "b", "c"]);
        let now = convo(&["a", "b", "c", "d", "e"]);
        let replacement = convo(&["summary of a b", "c"]);
        let rebased = rebase(&base, &replacement, &now).expect("rebases");
        assert_eq!(rebased.appended, 2);
        assert_eq!(rebased.messages.len(), 4);
        assert_eq!(&rebased.messages[..2], &replacement[..]);
        assert_eq!(&rebased.messages[2..], &now[3..]);
    }

    #[test]
    fn ids_do_not_matter_content_does() {
        let base = convo(&["a", "b"]);
        let mut now = convo(&["a", "b", "c"]);
        now[0].id = crate::message::MessageId::new("other");
        assert_eq!(appended(&base, &now).map(<[_]>::len), Ok(1));
        assert_eq!(appended(&base, &base).map(<[_]>::len), Ok(0));
    }

    #[test]
    fn edits_removals_and_rewrites_diverge() {
        let base = convo(&["a", "b", "c"]);
        assert_eq!(
            appended(&base, &convo(&["a", "B", "c", "d"])),
            Err(Diverged { at: 1 })
        );
        assert_eq!(
            appended(&base, &convo(&["a", "b"])),
            Err(Diverged { at: 2 })
        );
        // Another compaction's result written meanwhile.
        assert_eq!(
            appended(&base, &convo(&["summary", "c", "d"])),
            Err(Diverged { at: 0 })
        );
        assert_eq!(appended(&base, &[]), Err(Diverged { at: 0 }));
    }
}
