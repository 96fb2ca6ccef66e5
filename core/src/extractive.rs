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

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use crate::facts::{
    FactKind, command_head, command_of, exit_status, fact_head, is_error_line, line_facts,
    text_command,
};
use crate::prompt::{HEADINGS, PromptMessage, artifact_refs, transcript_body};
use crate::summary::{SummaryFailure, SummaryRequest};
use crate::tokens::{Estimator, TokenCounter};
use read::{is_fragment, key_line, raw_messages, read_entries, shorten};

/// The extractive summarizer. Stateless; counts with the [`Estimator`] so its output size
/// errs small against every tokenizer.
#[derive(Debug, Clone, Copy, Default)]
pub struct Extractive;

/// Longest line kept, in characters; longer ones are cut with an ellipsis.
const MAX_LINE_CHARS: usize = 240;
/// Longest command kept, in characters (its first line).
const MAX_COMMAND_CHARS: usize = 120;
/// Longest key line of a command's output kept beside it, in characters.
const MAX_KEY_CHARS: usize = 100;
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

impl Heading {
    /// In the order of [`HEADINGS`].
    const ALL: [Heading; 5] = [
        Heading::Task,
        Heading::Facts,
        Heading::Decisions,
        Heading::Errors,
        Heading::Next,
    ];
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

/// One line of the transcript, markup removed, and where it came from.
struct Entry<'a> {
    role: &'a str,
    text: Cow<'a, str>,
    /// The heading an earlier summary filed it under, when it is one of its bullets.
    heading: Option<Heading>,
    /// It belongs to the task: the transcript's first user message, before any answer.
    task: bool,
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
        let (commands, ran) = command_items(body);
        items.extend(commands);
        items.extend(line_items(&entries, &ran));
        if items.is_empty()
            && let Some(first) = entries
                .iter()
                .find(|e| !is_fragment(&e.text))
                .or_else(|| entries.iter().find(|e| !e.text.trim().is_empty()))
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

/// Scales a value by how often (up to ten times) and how late a fact is named, per token.
fn rank(weight: u64, count: u64, last: usize, total: usize, cost: u64) -> u64 {
    let recency = (last as u64 * 1_000) / total.max(1) as u64;
    weight * (100 + 30 * count.min(10)) * (1_000 + recency) / cost.max(1)
}

/// The paths and numbers named in the transcript, each once, ranked.
fn fact_items(entries: &[Entry<'_>]) -> Vec<Item> {
    let mut seen: HashMap<&str, Seen> = HashMap::new();
    // First-seen order: items from the map come out in it, so ties rank the same way on
    // every run (a map's own order is not stable).
    let mut order: Vec<&str> = Vec::new();
    for (position, entry) in entries.iter().enumerate() {
        for fact in line_facts(&entry.text) {
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
    }
    let total = entries.len();
    order
        .into_iter()
        .filter_map(|text| seen.remove(text).map(|s| (text, s)))
        .filter_map(|(text, s)| {
            let (slot, weight) = match s.kind {
                FactKind::Path => (Slot::Files, 3),
                FactKind::Number => (Slot::Numbers, 1),
                _ => return None,
            };
            let cost = Estimator.count(text) + 1;
            Some(Item {
                slot,
                text: text.to_owned(),
                priority: rank(weight, s.count, s.last, total, cost),
                last: s.last,
                position: s.first,
                cost,
            })
        })
        .collect()
}

/// The commands run, each with its exit status and the key line of its output (its first
/// error line, else its last line of words), ranked by how late they ran.
/// Also returns the commands' first lines: the lines that wrote them are not kept again.
fn command_items(body: &str) -> (Vec<Item>, HashSet<String>) {
    let messages = raw_messages(body);
    let total = messages.len();
    let mut items = Vec::new();
    let mut ran = HashSet::new();
    for (at, (role, text)) in messages.iter().enumerate() {
        if *role != "assistant" {
            continue;
        }
        let mut runs: Vec<String> = text.lines().filter_map(tool_call_command).collect();
        if runs.is_empty() {
            runs.extend(text_command(text).map(|c| command_head(&c, MAX_COMMAND_CHARS)));
        }
        let outputs: Vec<&str> = messages[at + 1..]
            .iter()
            .take_while(|(role, _)| *role != "assistant")
            .map(|(_, text)| text.as_str())
            .collect();
        for (n, command) in runs.into_iter().enumerate() {
            ran.insert(command.trim_end_matches(['…', ' ']).to_owned());
            let output = outputs.get(n).copied().unwrap_or("");
            let mut text = format!("ran `{command}`");
            if let Some(status) = exit_status(output) {
                text.push_str(&format!(" → exit {status}"));
            }
            if let Some(key) = key_line(output) {
                text.push_str(&format!(": {key}"));
            }
            let cost = Estimator.count(&text) + 3;
            items.push(Item {
                slot: Slot::Line(Heading::Facts),
                priority: rank(3, 1, at, total, cost),
                text,
                last: at,
                position: at,
                cost,
            });
        }
    }
    (items, ran)
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
fn line_items(entries: &[Entry<'_>], ran: &HashSet<String>) -> Vec<Item> {
    let mut seen = HashSet::new();
    let mut items = Vec::new();
    let total = entries.len();
    let mut first_task_line = true;
    for (position, entry) in entries.iter().enumerate() {
        let text = entry.text.trim().trim_start_matches("- ").trim();
        let summary = entry.role == "summary";
        if text.is_empty()
            || is_list_line(text)
            || (!summary && is_fragment(text))
            || text.starts_with("```")
            || ran.contains(text)
            || (entry.role == "assistant" && tool_call_command(text).is_some())
        {
            continue;
        }
        let (classified, mut score) = classify(entry.role, text);
        // The task section holds the task, and what an earlier summary filed there: never
        // a later message that sounds like a constraint (an agent's aside).
        let heading = match entry.heading {
            Some(heading) => heading,
            None if entry.task => {
                // Its first line of words says what the task is.
                if first_task_line {
                    score += 3;
                    first_task_line = false;
                }
                Heading::Task
            }
            None if classified == Heading::Task => Heading::Facts,
            None => classified,
        };
        if score == 0 && !summary {
            continue;
        }
        let text = if heading == Heading::Errors || is_error_line(text) {
            fact_head(text).to_owned()
        } else {
            shorten(text)
        };
        // Each line once, errors included: the same error printed again adds nothing.
        if !seen.insert(text.clone()) {
            continue;
        }
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
            priority: rank(weight * u64::from(score.max(1)), 1, position, total, cost),
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
    let mut lines: Vec<&str> = Vec::new();
    let mut used = 0u64;
    for &i in order {
        let item = &items[i];
        let listed = matches!(item.slot, Slot::Files | Slot::Numbers);
        if listed && written.contains(item.text.as_str()) {
            continue;
        }
        // A line already said inside a kept one (an error a command's key line shows, a
        // command's own line) is not said twice.
        if !listed
            && lines
                .iter()
                .any(|kept: &&str| kept.contains(item.text.as_str()))
        {
            continue;
        }
        if used + item.cost > budget {
            continue;
        }
        used += item.cost;
        chosen[i] = true;
        if !listed {
            // A kept line said inside this one (an error its key line repeats) goes.
            for (j, other) in items.iter().enumerate() {
                if chosen[j]
                    && j != i
                    && !matches!(other.slot, Slot::Files | Slot::Numbers)
                    && item.text.contains(other.text.as_str())
                {
                    chosen[j] = false;
                    used -= other.cost;
                }
            }
            lines.push(&item.text);
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
            // Numbers apart by a space alone: a comma is a token more per number for exact
            // tokenizers, which the estimate does not see, and lists of line numbers came
            // back over the size asked for.
            let separator = if slot == Slot::Numbers { " " } else { ", " };
            format!("{label}: {}", names.join(separator))
        })
    };
    let mut out = String::new();
    for (h, heading) in Heading::ALL.into_iter().enumerate() {
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

mod read;
#[cfg(test)]
mod tests;
