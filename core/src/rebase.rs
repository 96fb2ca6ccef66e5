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
//!
//! [`WriteBack`] is the result on its way back and the rebase policy; the order of loads,
//! saves and compactions around it is [`crate::writeback::SessionWrite`], which the session
//! drivers (the Rust [`Compactor::compact_session`] and the npm package's `compactSession`)
//! follow.

use crate::engine::{CompactError, Compactor, Offender, Outcome};
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

/// A compacted result on its way back to the session's store, and the saves refused on
/// the way. A driver saves [`outcome`](Self::outcome)'s messages with the version it read;
/// when the save is refused it calls [`refused`](Self::refused), reads the store again and
/// calls [`rebase`](Self::rebase) with what it read, compacts again when told to
/// ([`compacted_again`](Self::compacted_again)), and saves again with the new version.
#[derive(Debug, Clone, PartialEq)]
pub struct WriteBack {
    /// What to write: the run's result, the appends rebased after it. Its report counts
    /// every run made on the way and describes the messages to write.
    pub outcome: Outcome,
    /// Messages appended to the store meanwhile, rebased after the result.
    pub rebased: usize,
    /// Saves refused because the store had moved on, each resolved by a rebase.
    pub conflicts: u32,
}

/// What the driver does after [`WriteBack::rebase`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AfterRebase {
    /// Save the outcome's messages with the version just read.
    Save,
    /// The appends pushed the result over the absolute limit: compact the outcome's
    /// messages again and hand the result to [`WriteBack::compacted_again`] before saving;
    /// never write what the provider would refuse.
    CompactAgain,
}

/// The write-back gives up: the store changed in a way a rebase cannot follow, or kept
/// changing through [`MAX_REBASES`] rebases. The driver reports a conflict with the
/// versions it saw, and writes nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GiveUp;

impl WriteBack {
    /// The write-back of a run's compacted `outcome`.
    pub fn new(outcome: Outcome) -> Self {
        Self {
            outcome,
            rebased: 0,
            conflicts: 0,
        }
    }

    /// A save was refused: `Ok` when the driver should read the store again and rebase,
    /// [`GiveUp`] when [`MAX_REBASES`] saves were refused already.
    pub fn refused(&mut self) -> Result<(), GiveUp> {
        if self.conflicts >= MAX_REBASES {
            return Err(GiveUp);
        }
        self.conflicts += 1;
        Ok(())
    }

    /// The store, read again, holds `now`; the result was made of `base` (the messages
    /// read before). The appends go after the result; [`GiveUp`] when `now` is not `base`
    /// followed by appends.
    pub fn rebase(
        &mut self,
        compactor: &Compactor,
        base: &[Message],
        now: &[Message],
    ) -> Result<AfterRebase, GiveUp> {
        let next = rebase(base, &self.outcome.messages, now).map_err(|_| GiveUp)?;
        self.rebased += next.appended;
        self.outcome.messages = next.messages;
        let assessment = compactor.assess(&self.outcome.messages);
        self.outcome.report.tokens_after = assessment.total_tokens;
        self.outcome.report.messages_after = self.outcome.messages.len();
        Ok(if assessment.signals.over_absolute_limit {
            AfterRebase::CompactAgain
        } else {
            AfterRebase::Save
        })
    }

    /// `again`, the rebased result compacted again, becomes what is written: its messages,
    /// status and sizes; the report keeps what was read, lists every level walked and counts
    /// every request. [`CompactError::ContextOverflow`] when it is still over the limit.
    pub fn compacted_again(
        &mut self,
        compactor: &Compactor,
        again: Outcome,
    ) -> Result<(), CompactError> {
        within_limit(compactor, &again.messages)?;
        let first = std::mem::replace(&mut self.outcome, again);
        let report = &mut self.outcome.report;
        report.tokens_before = first.report.tokens_before;
        report.messages_before = first.report.messages_before;
        let mut levels = first.report.levels;
        levels.append(&mut report.levels);
        report.levels = levels;
        report.requests += first.report.requests;
        report.cache_hits += first.report.cache_hits;
        report.failures += first.report.failures;
        report.summary_input_tokens += first.report.summary_input_tokens;
        report.extractive_fallback |= first.report.extractive_fallback;
        Ok(())
    }
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
    Offender::largest_first(&mut offenders);
    Err(CompactError::ContextOverflow {
        tokens: assessment.total_tokens,
        limit: assessment.budget.absolute_limit,
        offenders,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Level;

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

    fn outcome(messages: Vec<Message>, levels: &[Level], requests: u32) -> Outcome {
        use crate::engine::{LevelReport, Report, Status};
        Outcome {
            status: Status::Compacted { target_met: true },
            report: Report {
                tokens_before: 9_000,
                messages_before: 90,
                messages_after: messages.len(),
                levels: levels
                    .iter()
                    .map(|&level| LevelReport {
                        level,
                        tokens_before: 0,
                        tokens_after: 0,
                        requests,
                        cache_hits: 0,
                        failures: 1,
                    })
                    .collect(),
                requests,
                failures: 1,
                summary_input_tokens: 100,
                ..Report::default()
            },
            messages,
        }
    }

    #[test]
    fn a_write_back_gives_up_after_max_rebases_refusals() {
        let mut write = WriteBack::new(outcome(convo(&["s"]), &[], 0));
        for _ in 0..MAX_REBASES {
            assert_eq!(write.refused(), Ok(()));
        }
        assert_eq!(write.refused(), Err(GiveUp));
        assert_eq!(write.conflicts, MAX_REBASES);
    }

    #[test]
    fn appends_are_rebased_and_compacted_again_only_past_the_limit() {
        let compactor = Compactor::for_window(200);
        let base = convo(&["a", "b", "c"]);
        let mut write = WriteBack::new(outcome(convo(&["summary of a b", "c"]), &[], 0));

        let now = convo(&["a", "b", "c", "d"]);
        assert_eq!(write.rebase(&compactor, &base, &now), Ok(AfterRebase::Save));
        assert_eq!((write.rebased, write.outcome.messages.len()), (1, 3));
        let report = &write.outcome.report;
        assert_eq!(
            report.messages_after, 3,
            "the report describes what is written"
        );
        assert_eq!(
            report.tokens_after,
            compactor.assess(&write.outcome.messages).total_tokens
        );

        let base = now;
        let long = "words of a long answer ".repeat(60);
        let now = convo(&["a", "b", "c", "d", &long]);
        assert_eq!(
            write.rebase(&compactor, &base, &now),
            Ok(AfterRebase::CompactAgain)
        );
        assert_eq!(write.rebased, 2);
        assert_eq!(
            write.rebase(&compactor, &base, &convo(&["a", "B"])),
            Err(GiveUp),
            "an edit is not rebased"
        );
    }

    #[test]
    fn a_result_compacted_again_is_written_and_every_run_is_counted() {
        let compactor = Compactor::for_window(200);
        let mut write = WriteBack::new(outcome(convo(&["s", "t"]), &[Level::Light], 2));
        let mut again = outcome(convo(&["shorter"]), &[Level::Moderate], 3);
        again.report.tokens_before = 500;
        again.report.messages_before = 5;
        write.compacted_again(&compactor, again).expect("fits");
        let report = &write.outcome.report;
        assert_eq!(write.outcome.messages, convo(&["shorter"]));
        assert_eq!((report.tokens_before, report.messages_before), (9_000, 90));
        assert_eq!(report.messages_after, 1);
        assert_eq!(
            report.levels.iter().map(|l| l.level).collect::<Vec<_>>(),
            [Level::Light, Level::Moderate]
        );
        assert_eq!((report.requests, report.failures), (5, 2));
        assert_eq!(report.summary_input_tokens, 200);

        let long = "words of a long answer ".repeat(60);
        let over = outcome(convo(&[&long]), &[], 0);
        assert!(matches!(
            write.compacted_again(&compactor, over),
            Err(CompactError::ContextOverflow { .. })
        ));
    }
}
