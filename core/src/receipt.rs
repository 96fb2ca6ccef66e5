//! The loss receipt: which facts of a conversation a compaction dropped.
//!
//! A fact (see [`crate::facts`]) of the input — every message but system ones — is lost
//! when the output no longer holds it in context ([`crate::retention`]): a model cannot
//! use a number without the clause it came from. The receipt counts the input's
//! distinct facts and the lost ones, by kind, with the first few lost of each kind as
//! examples. It runs at the end of every compaction, million-token sessions included: the
//! input's facts go into one set, the output's text is read once, and a fact is looked up
//! only in the lines that could hold it (see [`lost_facts`]).

use std::collections::HashSet;

use crate::facts::{FactKind, commands};
use crate::message::{Message, Role};
use crate::retention::{Contexts, FactId};

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

/// The facts of `before` (system messages excluded) that `after` no longer holds in
/// context ([`crate::retention`]): a fact is kept where a line of the output holding it
/// shares words with a line of the input that held it, or is that line — not where it
/// stands in a bare list. A command is kept where the output quotes it whole.
///
/// Each line of the input and of the output is read once; a fact of the output is checked
/// only against the lines that held it (a bounded number). Searching the whole output for
/// every fact was the first version: on a million-token session that is tens of
/// thousands of scans of megabytes.
pub fn lost_facts(before: &[Message], after: &[Message]) -> LostFacts {
    let mut contexts = Contexts::new();
    for message in before.iter().filter(|m| m.role != Role::System) {
        contexts.add(&message.text(), |_| true);
    }
    let output: String = after
        .iter()
        .filter(|m| m.role != Role::System)
        .map(|m| m.text() + "\n")
        .collect();
    let mut held = vec![false; contexts.len()];
    for id in contexts.held_by(&output) {
        held[id as usize] = true;
    }
    let mut wanted: Vec<(FactKind, String, bool)> = (0..contexts.len())
        .map(|id| {
            let (kind, text) = contexts.fact(id as FactId);
            (kind, text.to_owned(), held[id])
        })
        .collect();
    // `commands` passes system messages over itself.
    let mut commands_seen: HashSet<String> = HashSet::new();
    for run in commands(before) {
        if commands_seen.insert(run.command.clone()) {
            let kept = output.contains(run.command.as_str());
            wanted.push((FactKind::Command, run.command, kept));
        }
    }
    let mut receipt = LostFacts::default();
    for (kind, text, kept) in wanted {
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
        if kept {
            continue;
        }
        entry.lost += 1;
        receipt.lost += 1;
        if entry.examples.len() < MAX_EXAMPLES {
            entry.examples.push(text);
        }
    }
    crate::sort::sort_by_key(&mut receipt.kinds, |k| {
        FactKind::ALL.iter().position(|all| *all == k.kind)
    });
    receipt
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
            Message::assistant(
                "c",
                "- ran tests: ValueError: bad tag\n- fix src/a.py and src/b.py\n- paths: src/c.py 11474",
            ),
        ];
        let receipt = lost_facts(&before, &after);
        assert_eq!(receipt.before, 10);
        assert_eq!(receipt.lost, 8);
        let path = &receipt.kinds[0];
        // Kept where their clause is; a bare list of paths keeps none of them.
        assert_eq!((path.kind, path.before, path.lost), (FactKind::Path, 7, 5));
        assert_eq!(
            path.examples,
            ["src/c.py", "src/d.py", "src/e.py", "src/f.py", "src/g.py"]
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
            "lost facts: 8 of 10 (path 5, number 1, error 1, url 1)"
        );
        assert_eq!(lost_facts(&before, &before).lost, 0);
    }
}
