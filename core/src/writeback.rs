//! The session write-back as a state machine: load, compact, save with the version read,
//! and when the save is refused, load again, rebase the appends, compact again if they
//! push the result over the limit, and save again. It does no IO: [`SessionWrite::poll`]
//! says what to do, and the driver does it and hands the answer back. The Rust
//! [`Compactor::compact_session`](crate::engine::Compactor::compact_session) and the npm
//! package's `compactSession` are a few lines of IO around it.
//!
//! The invariant every driver keeps: **after each answer, call `poll` again**, until
//! [`WriteStep::Done`], [`WriteStep::Missing`], [`WriteStep::Conflict`] or
//! [`WriteStep::Failed`]. A failed compaction is the driver's own error to return: the
//! machine is dropped with it.

use crate::engine::{CompactError, Compactor, Outcome, Status};
use crate::message::Message;
use crate::rebase::{AfterRebase, WriteBack};

/// A session's write-back under way. `B` is what the store's messages were read into
/// (plain messages, or a conversation that keeps what writing them back needs), `V` the
/// store's version.
#[derive(Debug)]
pub struct SessionWrite<B, V> {
    compactor: Compactor,
    state: State<B, V>,
}

#[derive(Debug)]
enum State<B, V> {
    /// Nothing read yet.
    Start,
    /// Compacting the base (with the write-back once a rebase pushed it over the limit).
    Compacting {
        base: B,
        version: V,
        write: Option<WriteBack>,
    },
    /// The result is ready: save it with `version`.
    Saving {
        base: B,
        version: V,
        write: WriteBack,
    },
    /// The save was refused (`found` by the store): read the store again.
    Refused {
        base: B,
        version: V,
        found: V,
        write: WriteBack,
    },
    /// Over: the final step, not yet handed out by `poll`.
    Over(Final<B, V>),
    /// Over, the final step handed out.
    Spent,
}

/// The final steps, owned until `poll` hands them out.
#[derive(Debug)]
enum Final<B, V> {
    Done { write: WriteBack, base: B },
    Missing,
    Conflict { expected: V, found: V },
    Failed(CompactError),
}

/// What the driver does next.
#[derive(Debug)]
#[non_exhaustive]
pub enum WriteStep<'a, B, V> {
    /// Read the session from the store and answer with [`SessionWrite::loaded`].
    Load,
    /// Compact `messages` (in the format of `base`, what the store held) and answer with
    /// [`SessionWrite::compacted`]; a failed run is the driver's error.
    Compact {
        /// The messages to compact.
        messages: Vec<Message>,
        /// What the store held when they were read.
        base: &'a B,
    },
    /// Write `write`'s messages if the store's version is still `expected`, and answer
    /// with [`SessionWrite::saved`].
    Save {
        /// What to write: [`WriteBack::outcome`]'s messages.
        write: &'a WriteBack,
        /// What the store held last read (its format, its envelope).
        base: &'a B,
        /// The version those were read with.
        expected: &'a V,
    },
    /// Over: the result was written, or (its status not `Compacted`) there was nothing to
    /// write. `base` is what the store held last read.
    Done {
        /// What was written, or the outcome of a run that changed nothing.
        write: WriteBack,
        /// What the store held last read.
        base: B,
    },
    /// The store has no such session: nothing was written.
    Missing,
    /// The store changed in a way no rebase follows, or kept changing: nothing was
    /// written. Report both versions.
    Conflict {
        /// The version the write expected.
        expected: V,
        /// The version the store had instead.
        found: V,
    },
    /// The result compacted again is still over the absolute limit: nothing was written.
    Failed(CompactError),
}

impl<B: AsRef<[Message]>, V> SessionWrite<B, V> {
    /// A write-back for one session, with `compactor`'s limits.
    pub fn new(compactor: Compactor) -> Self {
        Self {
            compactor,
            state: State::Start,
        }
    }

    /// What to do now. Call again after each answer; once a final step (`Done`,
    /// `Missing`, `Conflict`, `Failed`) was handed out, the machine is spent and says
    /// `Missing`.
    pub fn poll(&mut self) -> WriteStep<'_, B, V> {
        if let State::Over(_) = self.state {
            let State::Over(last) = std::mem::replace(&mut self.state, State::Spent) else {
                return WriteStep::Missing;
            };
            return match last {
                Final::Done { write, base } => WriteStep::Done { write, base },
                Final::Missing => WriteStep::Missing,
                Final::Conflict { expected, found } => WriteStep::Conflict { expected, found },
                Final::Failed(error) => WriteStep::Failed(error),
            };
        }
        match &self.state {
            State::Start | State::Refused { .. } => WriteStep::Load,
            State::Compacting { base, write, .. } => WriteStep::Compact {
                // The first run compacts what was read; a rebased result is compacted again.
                messages: match write {
                    None => base.as_ref().to_vec(),
                    Some(write) => write.outcome.messages.clone(),
                },
                base,
            },
            State::Saving {
                base,
                version,
                write,
            } => WriteStep::Save {
                write,
                base,
                expected: version,
            },
            State::Over(_) | State::Spent => WriteStep::Missing,
        }
    }

    /// The store answered a [`WriteStep::Load`]: its messages and version, `None` for an
    /// unknown session.
    pub fn loaded(&mut self, stored: Option<(B, V)>) {
        self.state = match (std::mem::replace(&mut self.state, State::Spent), stored) {
            (State::Start, Some((base, version))) => State::Compacting {
                base,
                version,
                write: None,
            },
            (State::Start, None) => State::Over(Final::Missing),
            (
                State::Refused {
                    base,
                    version,
                    found,
                    mut write,
                },
                stored,
            ) => {
                let Some((now, now_version)) = stored else {
                    self.state = State::Over(Final::Conflict {
                        expected: version,
                        found,
                    });
                    return;
                };
                match write.rebase(&self.compactor, base.as_ref(), now.as_ref()) {
                    Err(_) => State::Over(Final::Conflict {
                        expected: version,
                        found: now_version,
                    }),
                    Ok(AfterRebase::Save) => State::Saving {
                        base: now,
                        version: now_version,
                        write,
                    },
                    Ok(AfterRebase::CompactAgain) => State::Compacting {
                        base: now,
                        version: now_version,
                        write: Some(write),
                    },
                }
            }
            (other, _) => other,
        };
    }

    /// The run of a [`WriteStep::Compact`] finished with `outcome`.
    pub fn compacted(&mut self, outcome: Outcome) {
        let State::Compacting {
            base,
            version,
            write,
        } = std::mem::replace(&mut self.state, State::Spent)
        else {
            return;
        };
        self.state = match write {
            // A run that changed nothing is not written.
            None if !matches!(outcome.status, Status::Compacted { .. }) => {
                State::Over(Final::Done {
                    write: WriteBack::new(outcome),
                    base,
                })
            }
            None => State::Saving {
                base,
                version,
                write: WriteBack::new(outcome),
            },
            Some(mut write) => match write.compacted_again(&self.compactor, outcome) {
                Err(error) => State::Over(Final::Failed(error)),
                Ok(()) => State::Saving {
                    base,
                    version,
                    write,
                },
            },
        };
    }

    /// The store answered a [`WriteStep::Save`]: `Ok` when written, else the version it
    /// holds.
    pub fn saved(&mut self, saved: Result<(), V>) {
        let State::Saving {
            base,
            version,
            mut write,
        } = std::mem::replace(&mut self.state, State::Spent)
        else {
            return;
        };
        self.state = match saved {
            Ok(()) => State::Over(Final::Done { write, base }),
            Err(found) if write.refused().is_err() => State::Over(Final::Conflict {
                expected: version,
                found,
            }),
            Err(found) => State::Refused {
                base,
                version,
                found,
                write,
            },
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Report;

    fn convo(texts: &[&str]) -> Vec<Message> {
        texts
            .iter()
            .enumerate()
            .map(|(i, t)| Message::user(format!("m{i}").as_str(), *t))
            .collect()
    }

    fn compacted(messages: Vec<Message>) -> Outcome {
        Outcome {
            status: Status::Compacted { target_met: true },
            report: Report::default(),
            messages,
        }
    }

    fn texts(messages: &[Message]) -> Vec<String> {
        messages
            .iter()
            .map(|m| crate::message::text_of(&m.parts))
            .collect()
    }

    #[test]
    fn a_refused_save_is_reloaded_rebased_and_saved_again() {
        let mut write = SessionWrite::new(Compactor::for_window(200));
        assert!(matches!(write.poll(), WriteStep::Load));
        write.loaded(Some((convo(&["a", "b", "c"]), 1)));
        let WriteStep::Compact { messages, .. } = write.poll() else {
            panic!("compacts what was read");
        };
        assert_eq!(texts(&messages), ["a", "b", "c"]);
        write.compacted(compacted(convo(&["summary of a b", "c"])));
        assert!(matches!(write.poll(), WriteStep::Save { expected: 1, .. }));
        write.saved(Err(2));
        assert!(matches!(write.poll(), WriteStep::Load));
        write.loaded(Some((convo(&["a", "b", "c", "d"]), 2)));
        let WriteStep::Save {
            write: result,
            expected,
            ..
        } = write.poll()
        else {
            panic!("saves the rebased result");
        };
        assert_eq!(*expected, 2);
        assert_eq!(
            texts(&result.outcome.messages),
            ["summary of a b", "c", "d"]
        );
        write.saved(Ok(()));
        let WriteStep::Done { write: done, .. } = write.poll() else {
            panic!("done once saved");
        };
        assert_eq!((done.rebased, done.conflicts), (1, 1));
        assert!(matches!(write.poll(), WriteStep::Missing));
    }

    #[test]
    fn a_diverged_store_is_a_conflict_and_an_unknown_session_missing() {
        let mut write = SessionWrite::new(Compactor::for_window(200));
        write.loaded(Some((convo(&["a", "b"]), 1)));
        write.compacted(compacted(convo(&["summary"])));
        write.saved(Err(2));
        write.loaded(Some((convo(&["a", "B", "c"]), 3)));
        assert!(matches!(
            write.poll(),
            WriteStep::Conflict {
                expected: 1,
                found: 3
            }
        ));

        let mut write = SessionWrite::<Vec<Message>, u32>::new(Compactor::for_window(200));
        write.loaded(None);
        assert!(matches!(write.poll(), WriteStep::Missing));
    }

    #[test]
    fn a_run_that_changed_nothing_is_not_saved() {
        let mut write = SessionWrite::new(Compactor::for_window(200));
        write.loaded(Some((convo(&["a"]), 1)));
        let mut outcome = compacted(convo(&["a"]));
        outcome.status = Status::NoOp;
        write.compacted(outcome);
        assert!(matches!(write.poll(), WriteStep::Done { .. }));
    }
}
