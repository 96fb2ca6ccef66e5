//! The loss receipt: which facts of a conversation a compaction dropped.
//!
//! A fact (see [`crate::facts`]) of the input — every message but system ones — is lost
//! when its text appears nowhere in the output's text. The receipt counts the input's
//! distinct facts and the lost ones, by kind, with the first few lost of each kind as
//! examples. It runs at the end of every compaction, million-token sessions included: the
//! input's facts go into one set, the output's text is read once, and a fact is looked up
//! only in the lines that could hold it (see [`lost_facts`]).

use std::collections::HashSet;

use crate::facts::{FactKind, commands, line_facts};
use crate::message::{Message, Role};

/// The most examples a [`KindLoss`] lists.
pub const MAX_EXAMPLES: usize = 5;

/// What a compaction dropped, in facts.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "camelCase")
)]
pub struct LostFacts {
    /// Distinct facts of the input (system messages excluded).
    pub before: u32,
    /// Of those, the ones absent from the output's text.
    pub lost: u32,
    /// Per kind, in the order of [`FactKind::ALL`]; kinds the input does not have are left
    /// out.
    pub kinds: Vec<KindLoss>,
}

/// What a compaction dropped of one kind of fact.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "camelCase")
)]
pub struct KindLoss {
    /// The kind.
    pub kind: FactKind,
    /// Distinct facts of this kind in the input.
    pub before: u32,
    /// Of those, the ones absent from the output.
    pub lost: u32,
    /// The first lost ones (at most [`MAX_EXAMPLES`]), in the order the input names them.
    pub examples: Vec<String>,
}

impl LostFacts {
    /// One line for people: `lost facts: 12 of 340 (path 3, number 7, error 2)`.
    pub fn summary_line(&self) -> String {
        let kinds: Vec<String> = self
            .kinds
            .iter()
            .filter(|k| k.lost > 0)
            .map(|k| format!("{} {}", k.kind.as_str(), k.lost))
            .collect();
        if kinds.is_empty() {
            format!("lost facts: {} of {}", self.lost, self.before)
        } else {
            format!(
                "lost facts: {} of {} ({})",
                self.lost,
                self.before,
                kinds.join(", ")
            )
        }
    }
}

/// The facts of `before` (system messages excluded) absent from the text of `after`.
///
/// A fact is present when the output holds its text verbatim, its first word as a whole
/// word (`1474` is not in `11474`). The output is read once into sets of its facts and its
/// words, and a fact is looked up there; only a fact whose first word is in the output but
/// which is not one of its facts is searched for in the whole text. Searching the whole
/// output for every fact was the first version: on a million-token session that is tens
/// of thousands of scans of megabytes.
pub fn lost_facts(before: &[Message], after: &[Message]) -> LostFacts {
    // Distinct facts in first-seen order, so examples and counts are deterministic. The
    // set's key is the kind's name and the text: a map of a new key type costs the wasm
    // package kilobytes, a set of strings is already in it.
    let mut seen: HashSet<String> = HashSet::new();
    let mut wanted: Vec<(FactKind, String)> = Vec::new();
    let mut add = |kind: FactKind, text: &str| {
        if seen.insert(format!("{}:{text}", kind.as_str())) {
            wanted.push((kind, text.to_owned()));
        }
    };
    for message in before.iter().filter(|m| m.role != Role::System) {
        for line in message.text().lines() {
            for fact in line_facts(line) {
                add(fact.kind, fact.text);
            }
        }
    }
    // `commands` passes system messages over itself.
    for run in commands(before) {
        add(FactKind::Command, &run.command);
    }
    let output: String = after
        .iter()
        .filter(|m| m.role != Role::System)
        .map(|m| m.text() + "\n")
        .collect();
    let index = Index::new(&output);
    let mut receipt = LostFacts::default();
    for (kind, text) in wanted {
        let at = match receipt.kinds.iter().position(|k| k.kind == kind) {
            Some(at) => at,
            None => {
                receipt.kinds.push(KindLoss {
                    kind,
                    before: 0,
                    lost: 0,
                    examples: Vec::new(),
                });
                receipt.kinds.len() - 1
            }
        };
        let entry = &mut receipt.kinds[at];
        entry.before += 1;
        receipt.before += 1;
        if index.contains(&text) {
            continue;
        }
        entry.lost += 1;
        receipt.lost += 1;
        if entry.examples.len() < MAX_EXAMPLES {
            entry.examples.push(text);
        }
    }
    receipt
        .kinds
        .sort_by_key(|k| FactKind::ALL.iter().position(|all| *all == k.kind));
    receipt
}

/// What the output holds: its facts, and its words (maximal runs of letters, digits and
/// `_`). Sets of strings: a map of positions was the first version, and a new map type
/// costs the wasm package kilobytes.
struct Index<'a> {
    text: &'a str,
    facts: HashSet<&'a str>,
    words: HashSet<&'a str>,
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The first word of `text` (a maximal run of word characters).
fn first_word(text: &str) -> Option<&str> {
    let start = text.find(is_word_char)?;
    let rest = &text[start..];
    let end = rest.find(|c: char| !is_word_char(c)).unwrap_or(rest.len());
    Some(&rest[..end])
}

impl<'a> Index<'a> {
    fn new(text: &'a str) -> Self {
        let mut facts = HashSet::new();
        for line in text.lines() {
            facts.insert(line.trim());
            facts.extend(line_facts(line).into_iter().map(|f| f.text));
        }
        let words = text
            .split(|c: char| !is_word_char(c))
            .filter(|w| !w.is_empty())
            .collect();
        Index { text, facts, words }
    }

    /// Is `fact` in the output? Found as a fact or a line of it (one lookup, most present
    /// facts); absent when its first word is not a word of the output (one lookup, most
    /// lost facts: `1474` is not in `11474`); else searched for in the whole text (an error
    /// line or a command inside a summary's bullet).
    fn contains(&self, fact: &str) -> bool {
        if self.facts.contains(fact) {
            return true;
        }
        match first_word(fact) {
            Some(word) if !self.words.contains(word) => false,
            _ => self.text.contains(fact),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lost_facts_are_counted_by_kind_with_examples() {
        let before = [
            Message::system("s", "see /etc/secret.cfg"),
            Message::user("u", "Fix src/a.py and src/b.py; 1474 fails"),
            Message::assistant("a", "ValueError: bad tag at https://x.dev/t"),
            Message::user(
                "u2",
                "then src/c.py src/d.py src/e.py src/f.py src/g.py 1474",
            ),
        ];
        let after = [
            Message::system("s", "see /etc/secret.cfg"),
            Message::assistant("c", "- ran tests: ValueError: bad tag\n- src/a.py 11474"),
        ];
        let receipt = lost_facts(&before, &after);
        assert_eq!(receipt.before, 10);
        assert_eq!(receipt.lost, 9);
        let path = &receipt.kinds[0];
        assert_eq!((path.kind, path.before, path.lost), (FactKind::Path, 7, 6));
        assert_eq!(
            path.examples,
            ["src/b.py", "src/c.py", "src/d.py", "src/e.py", "src/f.py"]
        );
        // `1474` is not in `11474`: a fact starts where a word starts.
        assert_eq!(receipt.kinds[1].examples, ["1474"]);
        // The error line counts whole: its head without the URL is not it.
        assert_eq!(
            receipt.kinds[2].examples,
            ["ValueError: bad tag at https://x.dev/t"]
        );
        assert_eq!(receipt.kinds[3].kind, FactKind::Url);
        assert_eq!(
            receipt.summary_line(),
            "lost facts: 9 of 10 (path 6, number 1, error 1, url 1)"
        );
        assert_eq!(lost_facts(&before, &before).lost, 0);
    }
}
