//! Facts in context: which of a conversation's facts an output still lets a model use.
//!
//! A fact (see [`crate::facts`]) that an output holds in a bare list — `numbers: 2024 4096
//! 102` — tells a model nothing: which line, which file, what the number counted. So a fact
//! counts as kept only *in context*: where a line of the output that holds it shares at
//! least [`SHARED_WORDS`] words with a line of the input that held it (the fact itself is
//! one of them), or is that line. `line 34`, `exit 1`, `took 340 ms`, a traceback frame
//! quoted whole: kept. A path alone in a list of paths: not kept.
//!
//! Words are what whitespace and the marks that never belong to a word (quotes, brackets,
//! `,;=|`) separate, without the punctuation around them, ASCII letters compared without
//! case (`"src/a.py",` and `src/a.py` are one word; so are `{"path":"src/a.py"}`'s `path`
//! and `path`). The loss receipt
//! ([`crate::receipt`]), the replay's facts seen and the fidelity report all count through
//! [`Contexts`], so they agree on what a model can still use.
//!
//! Cost: every line of the input that holds a fact is read once into a set of word hashes
//! (identical lines once); a fact keeps the ids of up to [`MAX_CONTEXTS`] such lines. A
//! line of the output is read once and checked against the contexts of the facts it holds.

use std::collections::HashMap;

use crate::facts::{FactKind, WORD_BREAKS, is_error_line, line_facts};
use crate::hash::Hasher;

/// How many words an output line must share with an input line that held a fact.
pub const SHARED_WORDS: usize = 2;

/// The most input lines a fact keeps as its contexts: a number printed on thousands of
/// lines keeps the first ones. Bounds memory on million-token sessions.
pub const MAX_CONTEXTS: usize = 64;

/// A line's words, hashed, sorted and without repeats.
pub type Words = Box<[u64]>;

/// The words of `line`, as the in-context count compares them.
pub fn words(line: &str) -> Words {
    let mut out: Vec<u64> = line
        .split(|c: char| c.is_whitespace() || WORD_BREAKS.contains(c))
        .filter_map(|w| {
            let w = w.trim_matches(|c: char| !c.is_alphanumeric());
            (!w.is_empty()).then(|| word_hash(w))
        })
        .collect();
    out.sort_unstable();
    out.dedup();
    out.into_boxed_slice()
}

fn word_hash(word: &str) -> u64 {
    let mut hasher = Hasher::new();
    if word.bytes().any(|b| b.is_ascii_uppercase()) {
        hasher.str(&word.to_ascii_lowercase());
    } else {
        hasher.str(word);
    }
    hasher.finish().0
}

fn line_hash(line: &str) -> u64 {
    Hasher::new().str(line.trim()).finish().0
}

/// Do two sorted word sets share at least [`SHARED_WORDS`] words?
pub fn share(a: &[u64], b: &[u64]) -> bool {
    let (mut i, mut j, mut shared) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                shared += 1;
                if shared >= SHARED_WORDS {
                    return true;
                }
                i += 1;
                j += 1;
            }
        }
    }
    false
}

/// Is `kind` one of the kinds the fidelity report and the replay count (paths, numbers of
/// three or more digits, error lines)?
pub fn is_counted(kind: FactKind) -> bool {
    matches!(kind, FactKind::Path | FactKind::Number | FactKind::Error)
}

/// One fact of the input and the lines that held it.
#[derive(Debug)]
struct Entry {
    kind: FactKind,
    text: String,
    lines: Vec<u32>,
}

/// An input line that held a fact.
#[derive(Debug)]
struct Line {
    words: Words,
    text_hash: u64,
}

/// The facts of an input, each with the lines that held it: what an output is checked
/// against.
#[derive(Debug, Default)]
pub struct Contexts {
    facts: Vec<Entry>,
    by_text: HashMap<String, u32>,
    lines: Vec<Line>,
    line_ids: HashMap<u64, u32>,
    /// Error facts by the hash of their first word: an output quotes an error line inside
    /// a longer one (`pytest → exit 1: TypeError: …`), where extraction reads another head.
    errors_by_first_word: HashMap<u64, Vec<u32>>,
}

/// A fact's id in its [`Contexts`], in first-seen order.
pub type FactId = u32;

impl Contexts {
    /// An empty set of contexts.
    pub fn new() -> Self {
        Self::default()
    }

    /// How many distinct facts the input holds.
    pub fn len(&self) -> usize {
        self.facts.len()
    }

    /// Does the input hold no fact?
    pub fn is_empty(&self) -> bool {
        self.facts.is_empty()
    }

    /// A fact's kind and text.
    pub fn fact(&self, id: FactId) -> (FactKind, &str) {
        let entry = &self.facts[id as usize];
        (entry.kind, &entry.text)
    }

    /// The id of a fact of the input, if it is one.
    pub fn id(&self, text: &str) -> Option<FactId> {
        self.by_text.get(text).copied()
    }

    /// Reads `text` as input: each line's facts of the kinds `keep` accepts, with the line
    /// as their context. Returns the ids of the facts it held, in order, repeats included.
    pub fn add(&mut self, text: &str, keep: impl Fn(FactKind) -> bool) -> Vec<FactId> {
        let mut ids = Vec::new();
        for line in text.lines() {
            let facts = line_facts(line);
            if !facts.iter().any(|f| keep(f.kind)) {
                continue;
            }
            let line_id = self.line_id(line);
            for fact in facts.into_iter().filter(|f| keep(f.kind)) {
                let id = self.fact_id(fact.kind, fact.text);
                let lines = &mut self.facts[id as usize].lines;
                if lines.len() < MAX_CONTEXTS && !lines.contains(&line_id) {
                    lines.push(line_id);
                }
                ids.push(id);
            }
        }
        ids
    }

    fn line_id(&mut self, line: &str) -> u32 {
        let text_hash = line_hash(line);
        if let Some(&id) = self.line_ids.get(&text_hash) {
            return id;
        }
        let id = self.lines.len() as u32;
        self.lines.push(Line {
            words: words(line),
            text_hash,
        });
        self.line_ids.insert(text_hash, id);
        id
    }

    fn fact_id(&mut self, kind: FactKind, text: &str) -> FactId {
        if let Some(&id) = self.by_text.get(text) {
            return id;
        }
        let id = self.facts.len() as FactId;
        self.facts.push(Entry {
            kind,
            text: text.to_owned(),
            lines: Vec::new(),
        });
        self.by_text.insert(text.to_owned(), id);
        if kind == FactKind::Error
            && let Some(first) = text.split_whitespace().next()
        {
            let first = first.trim_matches(|c: char| !c.is_alphanumeric());
            self.errors_by_first_word
                .entry(word_hash(first))
                .or_default()
                .push(id);
        }
        id
    }

    /// Does an output line (its text and [`words`]) hold fact `id` in context: is it one of
    /// the lines that held the fact, or does it share [`SHARED_WORDS`] words with one?
    pub fn holds(&self, id: FactId, line: &str, line_words: &[u64]) -> bool {
        let text_hash = line_hash(line);
        self.facts[id as usize].lines.iter().any(|&l| {
            let input = &self.lines[l as usize];
            input.text_hash == text_hash || share(&input.words, line_words)
        })
    }

    /// The facts of the input that `text` holds in context, each once, in the order found.
    pub fn held_by(&self, text: &str) -> Vec<FactId> {
        let mut found = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for line in text.lines() {
            self.held_by_line(line, |id| {
                if seen.insert(id) {
                    found.push(id);
                }
            });
        }
        found
    }

    /// Calls `found` with each fact of the input that `line` holds in context (a fact may
    /// come more than once).
    pub fn held_by_line(&self, line: &str, mut found: impl FnMut(FactId)) {
        if line.trim().is_empty() {
            return;
        }
        let mut line_words: Option<Words> = None;
        let mut check = |id: FactId, found: &mut dyn FnMut(FactId)| {
            let w = line_words.get_or_insert_with(|| words(line));
            if self.holds(id, line, w) {
                found(id);
            }
        };
        for fact in line_facts(line) {
            if let Some(&id) = self.by_text.get(fact.text) {
                check(id, &mut found);
            }
        }
        if !self.errors_by_first_word.is_empty() && is_error_line(line) {
            for word in line.split_whitespace() {
                let word = word.trim_matches(|c: char| !c.is_alphanumeric());
                if word.is_empty() {
                    continue;
                }
                let Some(ids) = self.errors_by_first_word.get(&word_hash(word)) else {
                    continue;
                };
                for &id in ids {
                    if line.contains(self.facts[id as usize].text.as_str()) {
                        check(id, &mut found);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn contexts(text: &str) -> Contexts {
        let mut c = Contexts::new();
        c.add(text, is_counted);
        c
    }

    fn held(c: &Contexts, output: &str) -> Vec<String> {
        let mut texts: Vec<String> = c
            .held_by(output)
            .into_iter()
            .map(|id| c.fact(id).1.to_owned())
            .collect();
        crate::sort::sort(&mut texts);
        texts
    }

    #[test]
    fn a_fact_counts_where_its_line_shares_words_with_the_input() {
        let input = "  File \"/testbed/src/app/models.py\", line 1474, in save\n\
                     TypeError: unsupported operand type(s)\n\
                     src/app/views.py\n\
                     took 340 ms, 2048 bytes";
        let c = contexts(input);
        assert_eq!(c.len(), 6);
        // A bag of the same facts holds none of them in context.
        let bag = "numbers: 1474 2048\npaths: /testbed/src/app/models.py src/app/views.py";
        assert!(held(&c, bag).is_empty(), "{:?}", held(&c, bag));
        // Clauses do: the frame, the number in its clause, the error quoted in a bullet.
        let clauses = "- /testbed/src/app/models.py line 1474 in save\n\
                       - the write took 2048 bytes\n\
                       - `pytest` → exit 1: TypeError: unsupported operand type(s)";
        assert_eq!(
            held(&c, clauses),
            [
                "/testbed/src/app/models.py",
                "1474",
                "2048",
                "TypeError: unsupported operand type(s)"
            ]
        );
        // A line kept as it was counts, though it has no other word.
        assert_eq!(held(&c, "src/app/views.py"), ["src/app/views.py"]);
        // The fact is one of the shared words: `340 ms` is two; a lone number is one.
        assert_eq!(held(&c, "340 ms"), ["340"]);
        assert!(held(&c, "2048").is_empty());
    }

    #[test]
    fn words_ignore_the_punctuation_around_them_and_case() {
        assert_eq!(words("\"src/a.py\", Line"), words("src/a.py line"));
        assert_ne!(words("src/a.py"), words("src/b.py"));
        assert!(share(&words("a b c"), &words("c x b")));
        assert!(!share(&words("a b c"), &words("c x y")));
    }
}
