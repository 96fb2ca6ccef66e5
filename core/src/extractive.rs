//! `Extractive`: a deterministic, offline summarizer.
//!
//! It reads the transcript of a [`SummaryRequest`] and keeps
//! its facts (see [`crate::facts`]): the files touched, most recent first; the commands run
//! with their exit status; error lines; numbers; and the lines that carry decisions, user
//! constraints and next steps — every artifact reference always — within the requested
//! size, sorted under the prompt's fixed headings. What fits is chosen by value per token:
//! a fact named often and lately is worth more, and a line whose facts are already kept
//! costs without adding. No model, no network: the default for demos, tests and the
//! command line, and an opt-in fallback when the model summarizer's circuit is open.

use std::collections::{HashMap, HashSet};

use crate::facts::{FactKind, command_head, command_of, exit_status, fact_head, line_facts};
use crate::prompt::{HEADINGS, PromptMessage, artifact_refs, transcript_body};
use crate::summary::{SummaryFailure, SummaryRequest};
use crate::tokens::{Estimator, TokenCounter};

/// The extractive summarizer. Stateless; counts with the [`Estimator`] so its output size
/// errs small against every tokenizer.
#[derive(Debug, Clone, Copy, Default)]
pub struct Extractive;

/// Longest line kept, in characters; longer ones are cut with an ellipsis.
const MAX_LINE_CHARS: usize = 240;
/// Longest command kept, in characters (its first line).
const MAX_COMMAND_CHARS: usize = 120;
/// Tokens set aside for the headings and list labels of the answer.
const LAYOUT_TOKENS: u64 = 24;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Heading {
    Task,
    Facts,
    Decisions,
    Errors,
    Next,
}

/// Where a kept item is written: a bullet line of its own, or an entry of a list line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Slot {
    Line(Heading),
    Files,
    Numbers,
}

/// One thing the summary may keep.
struct Item {
    slot: Slot,
    text: String,
    /// Value per token, scaled to an integer so ranking is exact and deterministic.
    priority: u64,
    /// For files: the last position it was named at (the list is most recent first).
    last: usize,
    /// Its position in the transcript, for reading order and ties.
    position: usize,
    cost: u64,
}

/// One line of the transcript and who wrote it.
struct Entry<'a> {
    role: &'a str,
    text: &'a str,
}

/// How often and how late a fact is named.
#[derive(Clone, Copy)]
struct Seen {
    kind: FactKind,
    count: u64,
    first: usize,
    last: usize,
}

impl Extractive {
    /// Answers a request as the caller's model would: every driver (Rust, JS, the
    /// inspector) and the engine's own fallback answer through this one function. An
    /// empty transcript is [`SummaryFailure::Empty`], never an empty summary.
    pub fn answer(&self, request: &SummaryRequest) -> Result<String, SummaryFailure> {
        let text = self.summarize_prompt(&request.prompt, request.max_output_tokens);
        if text.trim().is_empty() {
            Err(SummaryFailure::Empty)
        } else {
            Ok(text)
        }
    }

    /// Summarizes the transcript in `prompt` in at most `max_tokens` tokens (as the
    /// [`Estimator`] counts). Returns an empty string when the transcript holds nothing at
    /// all (the engine treats that as a failure, never as a summary).
    pub fn summarize_prompt(&self, prompt: &[PromptMessage], max_tokens: u64) -> String {
        let Some(body) = transcript_body(prompt) else {
            return String::new();
        };
        let existing = prompt.iter().rev().find_map(|m| {
            m.content
                .split_once("<summary>\n")
                .and_then(|(_, rest)| rest.split_once("\n</summary>"))
                .map(|(s, _)| s)
        });
        let entries = read_entries(existing, body);
        let mut items = fact_items(&entries);
        items.extend(line_items(&entries));
        if items.is_empty()
            && let Some(first) = entries.iter().find(|e| !e.text.trim().is_empty())
        {
            let text = shorten(first.text.trim());
            items.push(Item {
                slot: Slot::Line(Heading::Facts),
                cost: Estimator.count(&text) + 3,
                text,
                priority: 1,
                last: 0,
                position: 0,
            });
        }
        let refs = artifact_refs(body);
        let refs_line = (!refs.is_empty()).then(|| format!("Artifacts: {}", refs.join(" ")));
        let fixed = refs_line.as_deref().map_or(0, |l| Estimator.count(l) + 3) + LAYOUT_TOKENS;
        let mut order: Vec<usize> = (0..items.len()).collect();
        order.sort_by(|&a, &b| {
            (items[b].priority, items[a].position).cmp(&(items[a].priority, items[b].position))
        });
        // The estimate of each item's cost is close but not exact (lists share their
        // labels, counts round per piece): choose, render, and choose again with less room
        // if the answer came out over the limit.
        let mut budget = max_tokens.saturating_sub(fixed);
        loop {
            let chosen = choose(&items, &order, budget);
            let out = render(&items, &chosen, refs_line.as_deref());
            let tokens = Estimator.count(&out);
            if tokens <= max_tokens || budget == 0 {
                return out;
            }
            budget = budget.saturating_sub(tokens - max_tokens + 2);
        }
    }
}

/// The transcript's lines with their roles; an existing summary's bullets first.
fn read_entries<'a>(existing: Option<&'a str>, body: &'a str) -> Vec<Entry<'a>> {
    let mut entries = Vec::new();
    if let Some(summary) = existing {
        for line in summary.lines() {
            if let Some(text) = line.trim_start().strip_prefix("- ") {
                entries.push(Entry {
                    role: "summary",
                    text,
                });
            }
        }
    }
    let mut role = "user";
    for raw in body.lines() {
        let mut line = raw.trim();
        if let Some(rest) = line.strip_prefix('[')
            && let Some((tag, text)) = rest.split_once("] ")
            && let Some(known) = ["system", "user", "assistant", "tool"]
                .into_iter()
                .find(|r| *r == tag)
        {
            role = known;
            line = text.trim();
        }
        for sentence in sentences(line) {
            entries.push(Entry {
                role,
                text: sentence,
            });
        }
    }
    entries
}

/// Scales a value by how often (up to ten times) and how late a fact is named, per token.
fn rank(weight: u64, count: u64, last: usize, total: usize, cost: u64) -> u64 {
    let recency = (last as u64 * 1_000) / total.max(1) as u64;
    weight * (100 + 30 * count.min(10)) * (1_000 + recency) / cost.max(1)
}

/// The paths and numbers named in the transcript, and the commands run with their exit
/// status, each once, ranked.
fn fact_items(entries: &[Entry<'_>]) -> Vec<Item> {
    let mut seen: HashMap<&str, Seen> = HashMap::new();
    // First-seen order: items from the map come out in it, so ties rank the same way on
    // every run (a map's own order is not stable).
    let mut order: Vec<&str> = Vec::new();
    let mut commands: Vec<(usize, String, Option<i64>)> = Vec::new();
    let mut awaiting_status = false;
    for (position, entry) in entries.iter().enumerate() {
        for fact in line_facts(entry.text) {
            if !seen.contains_key(fact.text) {
                order.push(fact.text);
            }
            let s = seen.entry(fact.text).or_insert(Seen {
                kind: fact.kind,
                count: 0,
                first: position,
                last: position,
            });
            s.count += 1;
            s.last = position;
        }
        if entry.role == "assistant"
            && let Some(command) = tool_call_command(entry.text)
        {
            commands.push((position, command, None));
            awaiting_status = true;
        } else if entry.role == "tool"
            && awaiting_status
            && let Some(status) = exit_status(entry.text)
        {
            if let Some(last) = commands.last_mut() {
                last.2 = Some(status);
            }
            awaiting_status = false;
        }
    }
    let total = entries.len();
    let mut items: Vec<Item> = order
        .into_iter()
        .filter_map(|text| seen.remove(text).map(|s| (text, s)))
        .filter(|(_, s)| s.kind != FactKind::Error)
        .map(|(text, s)| {
            let (slot, weight) = match s.kind {
                FactKind::Path => (Slot::Files, 3),
                _ => (Slot::Numbers, 1),
            };
            let cost = Estimator.count(text) + 1;
            Item {
                slot,
                text: text.to_owned(),
                priority: rank(weight, s.count, s.last, total, cost),
                last: s.last,
                position: s.first,
                cost,
            }
        })
        .collect();
    for (position, command, status) in commands {
        let text = match status {
            Some(status) => format!("ran `{command}` → exit {status}"),
            None => format!("ran `{command}`"),
        };
        let cost = Estimator.count(&text) + 3;
        items.push(Item {
            slot: Slot::Line(Heading::Facts),
            priority: rank(3, 1, position, total, cost),
            text,
            last: position,
            position,
            cost,
        });
    }
    items
}

/// The command of a tool call as the transcript renders it: `name({json arguments})`.
fn tool_call_command(text: &str) -> Option<String> {
    let (name, rest) = text.split_once('(')?;
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_alphanumeric() || "_-.".contains(c))
    {
        return None;
    }
    let arguments = rest.strip_suffix(')')?;
    let command = command_of(arguments)?;
    Some(command_head(&command, MAX_COMMAND_CHARS))
}

/// Lines worth keeping whole: errors (by the head that names them), user constraints,
/// decisions, next steps, and lines dense in facts. Each once.
fn line_items(entries: &[Entry<'_>]) -> Vec<Item> {
    let mut seen = HashSet::new();
    let mut items = Vec::new();
    let total = entries.len();
    for (position, entry) in entries.iter().enumerate() {
        let text = entry.text.trim().trim_start_matches("- ").trim();
        if text.is_empty() || is_list_line(text) || !seen.insert(text) {
            continue;
        }
        let (heading, score) = classify(entry.role, text);
        if score == 0 && entry.role != "summary" {
            continue;
        }
        let text = if heading == Heading::Errors {
            fact_head(text).to_owned()
        } else {
            shorten(text)
        };
        // What the tool printed is evidence; what the user and the agent said carries
        // the task and the reasons.
        let weight = match entry.role {
            "tool" => 1,
            "summary" => 4,
            _ => 2,
        };
        let cost = Estimator.count(&text) + 3;
        items.push(Item {
            slot: Slot::Line(heading),
            priority: rank(weight * u64::from(score), 1, position, total, cost),
            text,
            last: position,
            position,
            cost,
        });
    }
    items
}

/// Lines this summarizer writes as lists (an earlier summary's, being merged): their
/// facts are read one by one, the line itself is not kept whole.
fn is_list_line(text: &str) -> bool {
    ["Files: ", "Numbers: ", "Artifacts: "]
        .iter()
        .any(|label| text.starts_with(label))
}

/// The items kept within `budget`, best value per token first. A path or number already
/// written in a kept line is not listed again.
fn choose(items: &[Item], order: &[usize], budget: u64) -> Vec<bool> {
    let mut chosen = vec![false; items.len()];
    let mut written: HashSet<&str> = HashSet::new();
    let mut used = 0u64;
    for &i in order {
        let item = &items[i];
        let listed = matches!(item.slot, Slot::Files | Slot::Numbers);
        if listed && written.contains(item.text.as_str()) {
            continue;
        }
        if used + item.cost > budget {
            continue;
        }
        used += item.cost;
        chosen[i] = true;
        if !listed {
            written.extend(line_facts(&item.text).into_iter().map(|f| f.text));
        }
    }
    chosen
}

/// The answer: bullets under the prompt's headings, in reading order; files most
/// recently named first.
fn render(items: &[Item], chosen: &[bool], refs_line: Option<&str>) -> String {
    let kept = |slot: Slot| {
        let mut kept: Vec<&Item> = items
            .iter()
            .zip(chosen)
            .filter(|(item, keep)| **keep && item.slot == slot)
            .map(|(item, _)| item)
            .collect();
        kept.sort_by_key(|item| item.position);
        kept
    };
    let list = |slot: Slot, label: &str| {
        let mut entries = kept(slot);
        if slot == Slot::Files {
            entries.sort_by(|a, b| b.last.cmp(&a.last).then(a.position.cmp(&b.position)));
        }
        (!entries.is_empty()).then(|| {
            let names: Vec<&str> = entries.iter().map(|i| i.text.as_str()).collect();
            format!("{label}: {}", names.join(", "))
        })
    };
    let mut out = String::new();
    for (h, heading) in [
        Heading::Task,
        Heading::Facts,
        Heading::Decisions,
        Heading::Errors,
        Heading::Next,
    ]
    .into_iter()
    .enumerate()
    {
        let mut section: Vec<String> = Vec::new();
        if heading == Heading::Facts {
            section.extend(list(Slot::Files, "Files"));
        }
        section.extend(kept(Slot::Line(heading)).iter().map(|i| i.text.clone()));
        if heading == Heading::Facts {
            section.extend(list(Slot::Numbers, "Numbers"));
            section.extend(refs_line.map(str::to_owned));
        }
        if section.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&format!("## {}\n", HEADINGS[h]));
        for line in section {
            out.push_str(&format!("- {line}\n"));
        }
    }
    out.trim_end().to_owned()
}

fn sentences(line: &str) -> impl Iterator<Item = &str> {
    // Long prose lines split into sentences; code and output lines stay whole.
    let split = line.len() > MAX_LINE_CHARS && line.contains(". ");
    let parts: Vec<&str> = if split {
        line.split_inclusive(". ").collect()
    } else {
        vec![line]
    };
    parts.into_iter()
}

fn shorten(text: &str) -> String {
    if text.chars().count() <= MAX_LINE_CHARS {
        return text.to_owned();
    }
    let cut: String = text.chars().take(MAX_LINE_CHARS - 1).collect();
    format!("{cut}…")
}

fn has_path(text: &str) -> bool {
    line_facts(text).iter().any(|f| f.kind == FactKind::Path)
}

fn classify(role: &str, text: &str) -> (Heading, u32) {
    let lower = text.to_lowercase();
    let has = |words: &[&str]| words.iter().any(|w| lower.contains(w));
    let mut score = 0;
    if has_path(text) {
        score += 3;
    }
    if text.chars().any(|c| c.is_ascii_digit()) {
        score += 1;
    }
    if text.contains('`') || text.starts_with("$ ") || text.contains("::") || text.contains("()") {
        score += 2;
    }
    if text
        .split_whitespace()
        .any(|w| w.contains('_') && w.len() > 3)
    {
        score += 1;
    }
    let error = has(&[
        "error",
        "failed",
        "failure",
        "exception",
        "traceback",
        "panicked",
        "not found",
        "denied",
        "cannot",
        "invalid",
    ]);
    let decision = has(&[
        "decid",
        "i will",
        "i'll",
        "let's",
        "we will",
        "instead",
        "chose",
        "the fix",
        "root cause",
        "because",
    ]);
    let constraint = role == "user"
        && has(&[
            "must", "don't", "do not", "never", "always", "please", "should", "need",
        ]);
    let next = has(&["next", "todo", "remaining", "then run", "still need"]);
    let heading = if error {
        score += 3;
        Heading::Errors
    } else if constraint {
        score += 3;
        Heading::Task
    } else if decision {
        score += 2;
        Heading::Decisions
    } else if next {
        score += 2;
        Heading::Next
    } else {
        Heading::Facts
    };
    let small_talk =
        text.len() < 40 && has(&["thanks", "thank you", "great", "sure", "ok", "hello", "hi "]);
    if small_talk && score < 3 {
        score = 0;
    }
    if lower.contains("«artifact:") {
        score += 5;
    }
    (heading, score)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::Message;
    use crate::prompt::{PromptKind, build};

    fn summarize(messages: &[Message], max_tokens: u64) -> String {
        Extractive.summarize_prompt(
            &build(PromptKind::Segment { age: 0 }, messages, max_tokens),
            max_tokens,
        )
    }

    #[test]
    fn facts_are_kept_and_small_talk_dropped() {
        let messages = [
            Message::user(
                "u",
                "Please fix the failing test. You must not change the public API.",
            ),
            Message::assistant("a", "Thanks, sure!"),
            Message::assistant("b", "Running `pytest tests/test_fields.py` now."),
            Message::user(
                "o",
                "FAILED tests/test_fields.py::test_timedelta - AssertionError: 345 != 344",
            ),
            Message::assistant(
                "c",
                "The root cause is rounding in src/marshmallow/fields.py line 1474; I will use round().",
            ),
        ];
        let summary = summarize(&messages, 400);
        assert!(summary.contains("## Task and constraints"), "{summary}");
        assert!(
            summary.contains("must not change the public API"),
            "{summary}"
        );
        assert!(summary.contains("AssertionError: 345 != 344"), "{summary}");
        assert!(
            summary.contains("src/marshmallow/fields.py line 1474"),
            "{summary}"
        );
        assert!(!summary.contains("Thanks, sure"), "{summary}");
    }

    #[test]
    fn the_size_limit_holds_and_artifact_refs_always_survive() {
        let long: Vec<Message> = (0..200)
            .map(|i| {
                Message::assistant(
                    format!("a{i}").as_str(),
                    format!("edited src/module_{i}.rs line {i}"),
                )
            })
            .chain([Message::user(
                "u",
                "keep «artifact:file~report-7» for later",
            )])
            .collect();
        let summary = summarize(&long, 150);
        assert!(
            Estimator.count(&summary) <= 150,
            "{}",
            Estimator.count(&summary)
        );
        assert!(summary.contains("«artifact:file~report-7»"));
    }

    #[test]
    fn it_is_deterministic_and_empty_only_for_empty_input() {
        let messages = [Message::user("u", "just chatting")];
        assert_eq!(summarize(&messages, 100), summarize(&messages, 100));
        assert!(!summarize(&messages, 100).is_empty());
        assert_eq!(Extractive.summarize_prompt(&[], 100), "");
    }
}
