//! Facts seen: which of the history's facts a call's prompt still holds, kept up to date
//! message by message.
//!
//! Every message's facts are extracted once, when it enters the prompt ([`crate::facts`],
//! the kinds the fidelity report counts). The tracker keeps how many prompt messages
//! hold each fact, and how many of the history's facts are held: an append or a splice
//! costs the messages it touches, never the whole prompt.
//!
//! A summary may quote a fact inside a longer line, where extraction would cut it
//! differently (an error line behind a bullet): the facts missing after a splice are
//! also looked for as text in the messages it inserted, and count for as long as those
//! messages stay.

use std::collections::HashMap;

use crate::facts::{FactKind, facts};
use crate::message::{Message, Role};

/// The facts of a history and of the prompt made from it.
#[derive(Debug, Default)]
pub(super) struct Seen {
    /// Each fact's id.
    ids: HashMap<String, u32>,
    /// Each fact's text, by id.
    texts: Vec<String>,
    /// Is the fact in the history so far?
    in_history: Vec<bool>,
    /// How many prompt messages hold it.
    in_prompt: Vec<u32>,
    /// The facts of each prompt message, in order.
    per_message: Vec<Vec<u32>>,
    /// Facts of the history.
    history: usize,
    /// Facts of the history the prompt holds.
    held: usize,
}

impl Seen {
    /// The share of the history's facts the prompt holds (1 when the history has none).
    pub(super) fn share(&self) -> f64 {
        if self.history == 0 {
            1.0
        } else {
            self.held as f64 / self.history as f64
        }
    }

    /// The history's facts so far.
    #[cfg(test)]
    pub(super) fn history(&self) -> usize {
        self.history
    }

    fn id(&mut self, text: &str) -> u32 {
        if let Some(&id) = self.ids.get(text) {
            return id;
        }
        let id = self.texts.len() as u32;
        self.ids.insert(text.to_owned(), id);
        self.texts.push(text.to_owned());
        self.in_history.push(false);
        self.in_prompt.push(0);
        id
    }

    fn extract(&mut self, message: &Message) -> Vec<u32> {
        if message.role == Role::System {
            return Vec::new();
        }
        let text = message.text();
        let mut found: Vec<u32> = facts(&text)
            .into_iter()
            .filter(|f| matches!(f.kind, FactKind::Path | FactKind::Number | FactKind::Error))
            .map(|f| f.text)
            .collect::<Vec<_>>()
            .into_iter()
            .map(|text| self.id(text))
            .collect();
        found.sort_unstable();
        found.dedup();
        found
    }

    fn hold(&mut self, id: u32) {
        let i = id as usize;
        self.in_prompt[i] += 1;
        if self.in_prompt[i] == 1 && self.in_history[i] {
            self.held += 1;
        }
    }

    fn release(&mut self, id: u32) {
        let i = id as usize;
        self.in_prompt[i] = self.in_prompt[i].saturating_sub(1);
        if self.in_prompt[i] == 0 && self.in_history[i] {
            self.held -= 1;
        }
    }

    /// New history messages, appended to the prompt as they are.
    pub(super) fn append(&mut self, messages: &[Message]) {
        for message in messages {
            let found = self.extract(message);
            for &id in &found {
                self.hold(id);
                let i = id as usize;
                if !self.in_history[i] {
                    self.in_history[i] = true;
                    self.history += 1;
                    self.held += 1;
                }
            }
            self.per_message.push(found);
        }
    }

    /// The prompt's messages `start..start + delete` became `insert` (a compaction's
    /// splice, or a trim).
    pub(super) fn splice(&mut self, start: usize, delete: usize, insert: &[Message]) {
        let start = start.min(self.per_message.len());
        let end = (start + delete).min(self.per_message.len());
        let removed: Vec<Vec<u32>> = self.per_message.drain(start..end).collect();
        for id in removed.into_iter().flatten() {
            self.release(id);
        }
        let mut added = Vec::with_capacity(insert.len());
        for message in insert {
            let found = self.extract(message);
            for &id in &found {
                self.hold(id);
            }
            added.push(found);
        }
        self.quoted(insert, &mut added);
        self.per_message.splice(start..start, added);
    }

    /// Facts of the history missing from the prompt that `insert` quotes as text.
    fn quoted(&mut self, insert: &[Message], added: &mut [Vec<u32>]) {
        let missing: Vec<u32> = (0..self.texts.len())
            .filter(|&i| self.in_history[i] && self.in_prompt[i] == 0)
            .map(|i| i as u32)
            .collect();
        if missing.is_empty() {
            return;
        }
        for (message, found) in insert.iter().zip(added.iter_mut()) {
            if message.role == Role::System {
                continue;
            }
            let text = message.text();
            for &id in &missing {
                if self.in_prompt[id as usize] == 0 && text.contains(&self.texts[id as usize]) {
                    self.hold(id);
                    found.push(id);
                }
            }
        }
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
        seen.splice(2, 1, &[Message::assistant("sum", "I looked at 4242.")]);
        assert!((seen.share() - 2.0 / 3.0).abs() < 1e-9);
        seen.splice(1, 2, &[]);
        assert_eq!(seen.share(), 0.0);
        seen.append(&[Message::user("again", "src/lib.rs")]);
        assert!((seen.share() - 1.0 / 3.0).abs() < 1e-9);
    }
}
