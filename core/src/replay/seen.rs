//! Facts seen: which of the history's facts a call's prompt still holds in context, kept
//! up to date message by message.
//!
//! Every history message's facts are read once, with the lines that hold them, when it is
//! appended ([`crate::retention::Contexts`], the kinds the fidelity report counts). A
//! message of the prompt holds the facts it holds in context: an appended message its
//! own; a summary or placeholder a compaction inserts, those of its lines that share words
//! with a line that held the fact — a fact in a bare list is not seen. The tracker keeps
//! how many prompt messages hold each fact: an append or a splice costs the messages it
//! touches, never the whole prompt.

use crate::message::{Message, Role};
use crate::retention::{Contexts, FactId, is_counted};

/// The facts of a history and of the prompt made from it.
#[derive(Debug, Default)]
pub(super) struct Seen {
    /// The history's facts, with the lines that held them.
    contexts: Contexts,
    /// How many prompt messages hold each fact.
    in_prompt: Vec<u32>,
    /// The facts of each prompt message, in order.
    per_message: Vec<Vec<FactId>>,
    /// Facts of the history the prompt holds.
    held: usize,
}

impl Seen {
    /// The share of the history's facts the prompt holds (1 when the history has none).
    pub(super) fn share(&self) -> f64 {
        if self.contexts.is_empty() {
            1.0
        } else {
            self.held as f64 / self.contexts.len() as f64
        }
    }

    /// The history's facts so far.
    #[cfg(test)]
    pub(super) fn history(&self) -> usize {
        self.contexts.len()
    }

    fn hold(&mut self, id: FactId) {
        let i = id as usize;
        if self.in_prompt.len() <= i {
            self.in_prompt.resize(i + 1, 0);
        }
        self.in_prompt[i] += 1;
        if self.in_prompt[i] == 1 {
            self.held += 1;
        }
    }

    fn release(&mut self, id: FactId) {
        if let Some(n) = self.in_prompt.get_mut(id as usize) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                self.held -= 1;
            }
        }
    }

    /// New history messages, appended to the prompt as they are.
    pub(super) fn append(&mut self, messages: &[Message]) {
        for message in messages {
            let mut found = if message.role == Role::System {
                Vec::new()
            } else {
                self.contexts.add(&message.text(), is_counted)
            };
            found.sort_unstable();
            found.dedup();
            for &id in &found {
                self.hold(id);
            }
            self.per_message.push(found);
        }
    }

    /// The prompt's messages `start..start + delete` became `insert` (a compaction's
    /// splice, or a trim).
    pub(super) fn splice(&mut self, start: usize, delete: usize, insert: &[Message]) {
        let start = start.min(self.per_message.len());
        let end = (start + delete).min(self.per_message.len());
        let removed: Vec<Vec<FactId>> = self.per_message.drain(start..end).collect();
        for id in removed.into_iter().flatten() {
            self.release(id);
        }
        let mut added = Vec::with_capacity(insert.len());
        for message in insert {
            let found = if message.role == Role::System {
                Vec::new()
            } else {
                self.contexts.held_by(&message.text())
            };
            for &id in &found {
                self.hold(id);
            }
            added.push(found);
        }
        self.per_message.splice(start..start, added);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folded_facts_are_lost_unless_the_summary_keeps_them() {
        let mut seen = Seen::default();
        seen.append(&[
            Message::system("s", "see /etc/passwd"),
            Message::user("u", "fix src/lib.rs"),
            Message::assistant("a", "saw 4242 in src/main.rs"),
        ]);
        // The system prompt's facts are not the history's.
        assert_eq!(seen.history(), 3);
        assert_eq!(seen.share(), 1.0);
        // A summary that quotes the fact in its clause keeps it; a bare list does not.
        seen.splice(2, 1, &[Message::assistant("sum", "- saw 4242 then")]);
        assert!((seen.share() - 2.0 / 3.0).abs() < 1e-9);
        seen.splice(2, 1, &[Message::assistant("sum", "numbers: 4242")]);
        assert!((seen.share() - 1.0 / 3.0).abs() < 1e-9);
        seen.splice(1, 2, &[]);
        assert_eq!(seen.share(), 0.0);
        seen.append(&[Message::user("again", "src/lib.rs")]);
        assert!((seen.share() - 1.0 / 3.0).abs() < 1e-9);
    }
}
