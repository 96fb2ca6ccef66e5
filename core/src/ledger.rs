//! The fact ledger: what a summary must carry whatever the summarizer wrote.
//!
//! When a level folds messages into a summary, the facts of those messages (file paths,
//! numbers, error lines, commands, … as [`crate::facts`] reads them) that are not still
//! present raw elsewhere in the conversation are its *candidates*. Once the summarizer's
//! answer is in, each candidate the answer does not contain verbatim is written into a
//! ledger block appended to the summary, as many as fit (the shortest per mention first,
//! the newest among equals: [`candidates`]), within the tokens the plan left the summary:
//! the summarizer is asked for that room less a reserve for the ledger (at most the run's
//! [`Sizing::ledger_share`](crate::policy::Sizing::ledger_share) of it), and the ledger takes what the answer left — the reserve, or
//! more when the answer came back short. An answer that dropped every path gets them back;
//! an answer that kept them costs nothing more.
//!
//! The block is plain text laid out so that [`crate::facts`] reads the same facts back
//! (one error line per line, words apart): when a later level folds this summary again,
//! its ledger's facts are candidates again, and survive that fold too. So the summarizer
//! that updates a running summary is handed its [`prose`] alone: it neither reads the
//! ledger nor is asked to write its facts out again, at the output price.

use std::collections::{HashMap, HashSet};

use crate::facts::{Fact, FactKind, commands, facts};
use crate::message::Message;
use crate::tokens::TokenAccountant;

/// The first line of a ledger block.
pub const LEDGER_HEADER: &str = "Facts from the condensed messages (verbatim):";

/// The order of the block's sections.
const KINDS: [FactKind; 7] = [
    FactKind::Error,
    FactKind::Command,
    FactKind::Path,
    FactKind::Url,
    FactKind::Artifact,
    FactKind::Identifier,
    FactKind::Number,
];

/// A section's label.
fn label(kind: FactKind) -> &'static str {
    match kind {
        // Not "errors": the label line would read as an error line itself.
        FactKind::Error => "failures",
        FactKind::Command => "commands run",
        FactKind::Path => "paths",
        FactKind::Url => "urls",
        FactKind::Artifact => "artifacts",
        FactKind::Identifier => "names",
        _ => "numbers",
    }
}

/// Does a fact of `kind` take a line of its own (it holds spaces)?
fn is_line(kind: FactKind) -> bool {
    matches!(kind, FactKind::Error | FactKind::Command)
}

/// A fact a summary must carry, with what ranks it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    /// What kind of fact.
    pub kind: FactKind,
    /// Its text, verbatim.
    pub text: String,
    /// The position of the newest folded message it appears in (higher is newer).
    pub last: usize,
    /// How many times it appears in the folded messages.
    pub count: u32,
}

/// The distinct facts of `messages` (each message's text), as a set of their texts.
pub fn fact_set<'a>(messages: impl IntoIterator<Item = &'a Message>) -> HashSet<String> {
    let mut set = HashSet::new();
    for message in messages {
        for fact in facts(&message.text()) {
            if !set.contains(fact.text) {
                set.insert(fact.text.to_owned());
            }
        }
    }
    set
}

/// The candidates of a fold: the facts of `folded` (oldest first) absent from `kept`
/// (the facts of what stays raw beside it), ranked so that a ledger holds as many as its
/// room allows: the shortest per mention first (ten line numbers cost what one error line
/// costs; a fact the folded messages repeat is worth its length more than once), then the
/// newest, then by kind and text (deterministic).
pub fn candidates<'a>(
    folded: impl IntoIterator<Item = &'a Message>,
    kept: &HashSet<String>,
) -> Vec<Candidate> {
    let folded: Vec<&Message> = folded.into_iter().collect();
    let mut found: HashMap<String, Candidate> = HashMap::new();
    for (position, message) in folded.iter().enumerate() {
        for Fact { kind, text } in facts(&message.text()) {
            if kept.contains(text) {
                continue;
            }
            match found.get_mut(text) {
                Some(candidate) => {
                    candidate.last = position;
                    candidate.count = candidate.count.saturating_add(1);
                }
                None => {
                    found.insert(
                        text.to_owned(),
                        Candidate {
                            kind,
                            text: text.to_owned(),
                            last: position,
                            count: 1,
                        },
                    );
                }
            }
        }
    }
    // Commands with the exit status their output showed: `pytest -x → exit 1`.
    let runs = commands(folded.iter().copied());
    let count = runs.len().max(1);
    for (n, run) in runs.into_iter().enumerate() {
        // Where in the folded messages the command stood, about: runs are in order.
        let position = n * folded.len() / count;
        let text = match run.status {
            Some(status) => format!("{} → exit {status}", run.command),
            None => run.command,
        };
        if kept.contains(&text) || found.contains_key(&text) {
            continue;
        }
        found.insert(
            text.clone(),
            Candidate {
                kind: FactKind::Command,
                text,
                last: position,
                count: 1,
            },
        );
    }
    let mut ranked: Vec<Candidate> = found.into_values().collect();
    // Length per mention, compared without division: `a.len / a.count < b.len / b.count`.
    let per_mention =
        |c: &Candidate, other: &Candidate| c.text.len() as u64 * u64::from(other.count);
    ranked.sort_by(|a, b| {
        per_mention(a, b)
            .cmp(&per_mention(b, a))
            .then(b.last.cmp(&a.last))
            .then(a.kind.cmp(&b.kind))
            .then(a.text.cmp(&b.text))
    });
    ranked
}

/// A summary's text without its ledger block: what its summarizer wrote.
pub fn prose(summary: &str) -> &str {
    summary
        .split_once(LEDGER_HEADER)
        .map_or(summary, |(prose, _)| prose.trim_end())
}

/// The tokens a summary's ledger may use: what the answer left of `room`. The request
/// asked for the room less the ledger's reserve ([`Sizing::ledger_share`](crate::policy::Sizing::ledger_share) at most), so an answer
/// that kept to its size leaves the reserve at least.
pub fn budget(room: u64, answer_tokens: u64) -> u64 {
    room.saturating_sub(answer_tokens)
}

/// The ledger block for an answer: the candidates it does not contain, within `budget`
/// tokens (header included), grouped by kind in rank order. `None` when the answer holds
/// every candidate, or the budget fits none.
pub fn block(
    answer: &str,
    candidates: &[Candidate],
    budget: u64,
    accountant: &TokenAccountant,
) -> Option<String> {
    let header = accountant.text_tokens(LEDGER_HEADER) + 1;
    let mut left = budget.checked_sub(header)?;
    let mut chosen: Vec<&Candidate> = Vec::new();
    for candidate in candidates.iter().filter(|c| !answer.contains(&c.text)) {
        // A fact costs its tokens and its separator; a kind's label is paid once.
        let label = if chosen.iter().any(|c| c.kind == candidate.kind) {
            0
        } else {
            3
        };
        let cost = accountant.text_tokens(&candidate.text) + 1 + label;
        if cost <= left {
            left -= cost;
            chosen.push(candidate);
        } else if left < 4 {
            break;
        }
    }
    if chosen.is_empty() {
        return None;
    }
    let mut out = String::from(LEDGER_HEADER);
    for kind in KINDS {
        let texts: Vec<&str> = chosen
            .iter()
            .filter(|c| c.kind == kind)
            .map(|c| c.text.as_str())
            .collect();
        if texts.is_empty() {
            continue;
        }
        out.push('\n');
        out.push_str(label(kind));
        out.push(':');
        if is_line(kind) {
            // Whole lines: one per line, bare, so each reads back as the same fact.
            for text in texts {
                out.push('\n');
                out.push_str(text);
            }
        } else {
            for text in texts {
                out.push(' ');
                out.push_str(text);
            }
        }
    }
    Some(out)
}

/// `answer` with its ledger block appended (when it needs one).
pub fn with_ledger(
    answer: &str,
    candidates: &[Candidate],
    room: u64,
    accountant: &TokenAccountant,
) -> String {
    let answer_tokens = accountant.text_tokens(answer);
    match block(answer, candidates, budget(room, answer_tokens), accountant) {
        Some(block) => format!("{answer}\n\n{block}"),
        None => answer.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::tokens::Estimator;

    fn accountant() -> TokenAccountant {
        TokenAccountant::new(Arc::new(Estimator))
    }

    fn folded() -> Vec<Message> {
        vec![
            Message::tool_result(
                "t1",
                "call_1",
                "File src/app/models.py, line 1474: TypeError: unsupported operand\nsee docs/guide.md",
            ),
            Message::assistant("a1", "Looking at src/app/models.py again, line 1474."),
            Message::tool_result("t2", "call_2", "tests/test_models.py passed in 2048 ms"),
        ]
    }

    #[test]
    fn candidates_skip_what_stays_raw_and_rank_the_shortest_per_mention_first() {
        let kept: HashSet<String> = ["docs/guide.md".to_owned()].into_iter().collect();
        let ranked = candidates(&folded(), &kept);
        let texts: Vec<&str> = ranked.iter().map(|c| c.text.as_str()).collect();
        assert!(!texts.contains(&"docs/guide.md"), "{texts:?}");
        // A number mentioned twice, then one mentioned once; a path mentioned twice before
        // a longer one mentioned once; the error line, longest, last.
        assert_eq!(texts[..2], ["1474", "2048"]);
        let at = |text: &str| texts.iter().position(|t| *t == text).expect(text);
        assert!(
            at("src/app/models.py") < at("tests/test_models.py"),
            "{texts:?}"
        );
        assert_eq!(
            ranked.last().map(|c| c.kind),
            Some(FactKind::Error),
            "{texts:?}"
        );
        let path = ranked
            .iter()
            .find(|c| c.text == "src/app/models.py")
            .expect("the path is a candidate");
        assert_eq!((path.last, path.count), (1, 2));
    }

    #[test]
    fn the_block_restores_what_the_answer_dropped_and_reads_back() {
        let ranked = candidates(&folded(), &HashSet::new());
        let answer = "- Fixed the operand in src/app/models.py.";
        let with = with_ledger(answer, &ranked, 400, &accountant());
        for candidate in &ranked {
            assert!(
                with.contains(&candidate.text),
                "{} missing:\n{with}",
                candidate.text
            );
        }
        // The block's facts read back as the same facts.
        let block = with.split_once(LEDGER_HEADER).expect("a block").1;
        let back: HashSet<&str> = facts(block).into_iter().map(|f| f.text).collect();
        for candidate in ranked.iter().filter(|c| !answer.contains(&c.text)) {
            assert!(back.contains(candidate.text.as_str()), "{}", candidate.text);
        }
        // An answer that holds every fact gets no block.
        let full: String = ranked.iter().map(|c| c.text.clone() + "\n").collect();
        assert_eq!(with_ledger(&full, &ranked, 400, &accountant()), full);
    }

    #[test]
    fn the_block_stays_within_its_budget() {
        let many: Vec<Message> = (0..200)
            .map(|i| {
                Message::tool_result(
                    format!("t{i}").as_str(),
                    "c",
                    format!("src/mod{i}/file{i}.rs"),
                )
            })
            .collect();
        let ranked = candidates(&many, &HashSet::new());
        let accountant = accountant();
        for budget in [0, 10, 40, 200] {
            let block = block("", &ranked, budget, &accountant);
            let tokens = block.as_deref().map_or(0, |b| accountant.text_tokens(b));
            assert!(tokens <= budget, "{tokens} > {budget}");
        }
        // The shortest facts are the ones kept, the newest of those.
        let small = block("", &ranked, 40, &accountant).expect("a block");
        assert!(small.contains("src/mod9/file9.rs"), "{small}");
        assert!(!small.contains("src/mod0/file0.rs"), "{small}");
        assert!(!small.contains("src/mod199/file199.rs"), "{small}");
    }

    #[test]
    fn the_budget_is_the_room_the_answer_left() {
        assert_eq!(budget(1000, 300), 700);
        assert_eq!(budget(1000, 5000), 0);
    }
}
