//! `Extractive`: a deterministic, offline summarizer.
//!
//! It reads the transcript of a [`SummaryRequest`] and writes what a careful engineer
//! would leave as notes, most important first: the task and what the user asked of it,
//! the errors that happened (each once, newest first), the decisions and findings the
//! agent stated, the next steps — each line verbatim from the transcript, under the
//! prompt's fixed headings, within the requested size. The caller's focus
//! (`instructions`) comes first: a line that names what the focus names ranks above the
//! rest. What is not worth a line is left out even when there is room: narration ("Let
//! me check …"), small talk, markup, bare lists. So an answer is often shorter than asked:
//! the engine gives the room it leaves to the summary's trail ([`crate::trail`]), which
//! keeps the commands run, the files touched and the facts, in context, far more densely
//! than lines of prose. The user's rules and decisions are not repeated here either: the
//! engine carries them verbatim ([`crate::standing`]) — and never a decision a later one
//! replaced. What else the user said of the work is kept in their words, under the task:
//! a requirement, a fact of their setup, a choice said without a mark of one ("Marco from
//! security vetoed it, so it's one cert per service") — not their questions, reactions,
//! small talk or asides on nothing the conversation spoke of. No model, no network: the
//! default for demos, tests and the command line, and an opt-in fallback when the model
//! summarizer's circuit is open.

use std::borrow::Cow;
use std::collections::HashSet;

use crate::facts::{FactKind, fact_head, is_error_line, line_facts, without_label};
use crate::prompt::{HEADINGS, PromptMessage, artifact_refs, focus, transcript_body};
use crate::standing::kind_of;
use crate::summary::{SummaryFailure, SummaryRequest};
use crate::tokens::{Estimator, TokenCounter};
use read::{instructions_in, is_fragment, read_entries, shorten, transcript_messages};

/// The extractive summarizer. Stateless; counts with the [`Estimator`] so its output size
/// errs small against every tokenizer.
#[derive(Debug, Clone, Copy, Default)]
pub struct Extractive;

/// Longest line kept, in characters; longer ones are cut with an ellipsis.
const MAX_LINE_CHARS: usize = 240;
/// Tokens set aside for the headings of the answer.
const LAYOUT_TOKENS: u64 = 24;
/// The least a line must be worth to be written at all, room or not.
const MIN_SCORE: u32 = 3;
/// The most error lines written: the newest.
const MAX_ERRORS: usize = 6;

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

/// One line the summary may keep.
struct Item {
    heading: Heading,
    text: String,
    /// Value per token, scaled to an integer so ranking is exact and deterministic.
    priority: u64,
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
    /// [`Estimator`] counts). Returns an empty string when the transcript holds nothing
    /// worth a line (the engine then keeps a marker and the trail).
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
        let focus_words = prompt
            .first()
            .and_then(|system| focus(&system.content))
            .map(focus_words)
            .unwrap_or_default();
        // The transcript's messages whole, read once: for each line's role, and for the
        // user's instructions.
        let said = transcript_messages(body);
        let entries = read_entries(existing, body, &said);
        let users = UsersWords::of(&said, &entries);
        let items = line_items(&entries, &focus_words, &users);
        let refs = artifact_refs(body);
        let refs_line = (!refs.is_empty()).then(|| format!("Artifacts: {}", refs.join(" ")));
        let fixed = refs_line.as_deref().map_or(0, |l| Estimator.count(l) + 3) + LAYOUT_TOKENS;
        let mut order: Vec<usize> = (0..items.len()).collect();
        crate::sort::sort_by(&mut order, |&a, &b| {
            (items[b].priority, items[a].position, a).cmp(&(
                items[a].priority,
                items[b].position,
                b,
            ))
        });
        // The estimate of each item's cost is close but not exact (counts round per
        // piece): choose, render, and choose again with less room if the answer came out
        // over the limit.
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

/// The words of a focus worth looking for: four letters or more, not a word every
/// instruction has.
fn focus_words(focus: &str) -> Vec<String> {
    const COMMON: &[&str] = &[
        "keep",
        "every",
        "all",
        "the",
        "and",
        "preserve",
        "what",
        "that",
        "with",
        "from",
        "about",
        "them",
        "this",
        "those",
        "these",
        "must",
        "should",
        "summary",
        "summaries",
    ];
    crate::case::lowercase(focus)
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.len() >= 4 && !COMMON.contains(w))
        // A plural finds its singular: "decisions" finds "decision", "decided".
        .map(|w| w.strip_suffix('s').unwrap_or(w).to_owned())
        .map(|w| {
            if w.len() > 6 {
                w[..w.len() - 2].to_owned()
            } else {
                w
            }
        })
        .collect()
}

/// What the summarizer needs to keep the user's own words: the sentences of theirs that
/// are standing instructions (the engine's to carry), and what the assistant spoke of.
struct UsersWords {
    instructions: Vec<String>,
    /// The words of substance of the assistant's lines, sorted.
    discussed: Vec<String>,
}

impl UsersWords {
    fn of(said: &[(&str, String)], entries: &[Entry<'_>]) -> Self {
        let mut discussed: Vec<String> = entries
            .iter()
            .filter(|e| e.role == "assistant")
            .flat_map(|e| crate::standing::subject_words(&e.text))
            .collect();
        crate::sort::sort_dedup(&mut discussed);
        UsersWords {
            instructions: instructions_in(said),
            discussed,
        }
    }

    /// A line of the user's as the answer may keep it, and what it is worth for saying
    /// what they asked of the work ([`UsersWords::statements`]): what they will do or have
    /// settled before what they report; `None` for a line of an instruction. The
    /// user's rules and decisions are the engine's to carry, verbatim, and only while no
    /// later one replaced them: a line of one is left out, and those said in a line are
    /// taken out of it.
    fn read<'t>(&self, line: &'t str) -> Option<(Cow<'t, str>, u32)> {
        if self.is_instruction(line) {
            return None;
        }
        let besides = self.without_instructions(line);
        Some(match self.statements(&besides) {
            Some(statements) => {
                let worth = if commits(&crate::case::lowercase(&statements)) {
                    MIN_SCORE + 2
                } else {
                    MIN_SCORE
                };
                (Cow::Owned(statements), worth)
            }
            None => (besides, 0),
        })
    }

    /// Is the line one of the user's standing instructions, or part of one?
    fn is_instruction(&self, line: &str) -> bool {
        let line = line.trim();
        !line.is_empty() && self.instructions.iter().any(|i| i.contains(line))
    }

    /// The line without the standing instructions said in it.
    fn without_instructions<'t>(&self, line: &'t str) -> Cow<'t, str> {
        let mut rest = Cow::Borrowed(line);
        for instruction in &self.instructions {
            if rest.contains(instruction.as_str()) {
                rest = Cow::Owned(rest.replace(instruction.as_str(), " "));
            }
        }
        match rest {
            Cow::Borrowed(b) => Cow::Borrowed(b.trim()),
            Cow::Owned(o) => Cow::Owned(o.split_whitespace().collect::<Vec<_>>().join(" ")),
        }
    }

    /// What a line of the user's (besides their instructions) states of the work: its
    /// sentences that say something the assistant spoke of — a requirement, a fact of
    /// their setup, a choice no mark made an instruction ("Marco from security vetoed it,
    /// so it's one cert per service"). Not a question, a reaction or small talk, nor an
    /// aside on nothing the work spoke of ("I just remembered I need to send someone an
    /// email later."). `None` when nothing is left.
    fn statements(&self, line: &str) -> Option<String> {
        let kept: Vec<&str> = crate::standing::line_sentences(line)
            .into_iter()
            .filter(|sentence| {
                let lower = crate::case::lowercase(sentence.trim());
                // A question said without its mark ("what's the easiest way to quilt
                // it") asks; it states nothing of the work.
                !lower.ends_with('?')
                    && !crate::standing::asks(&lower)
                    && !is_small_talk(&lower, false)
                    && !crate::standing::reacts(&lower)
            })
            .collect();
        let kept = kept.join(" ");
        let about_the_work = crate::standing::subject_words(&kept)
            .iter()
            .any(|w| self.discussed.binary_search(w).is_ok());
        (kept.split_whitespace().count() >= 4 && about_the_work).then_some(kept)
    }
}

/// Does a line of the user's say what will be done or what is settled ("ok we'll do the
/// rec center camp on the 29th and 30th then", "Marcus will take the 31st too")?
fn commits(lower: &str) -> bool {
    [
        " will ",
        "'ll ",
        "going to ",
        "gonna ",
        "let's ",
        "we're doing",
        "decided",
        "settled",
        " instead",
        "go with ",
        "going with ",
    ]
    .iter()
    .any(|w| lower.contains(w) || lower.starts_with(w.trim_start()))
}

/// Scales a line's value by how late it was said, per token.
fn rank(value: u64, position: usize, total: usize, cost: u64) -> u64 {
    let recency = (position as u64 * 1_000) / total.max(1) as u64;
    value * 100 * (1_000 + recency) / cost.max(1)
}

/// Lines worth keeping whole: the task, errors (by the head that names them), the
/// agent's decisions and findings, next steps, an earlier summary's bullets. Each once.
fn line_items(entries: &[Entry<'_>], focus: &[String], users: &UsersWords) -> Vec<Item> {
    let mut seen = HashSet::new();
    let mut items = Vec::new();
    let total = entries.len();
    let mut first_task_line = true;
    for (position, entry) in entries.iter().enumerate() {
        let stated = stated(entry);
        let (text, asked_worth) = if entry.role == "user" && !entry.task {
            match users.read(&stated) {
                Some(read) => read,
                None => continue,
            }
        } else {
            (Cow::Borrowed(stated.as_ref()), 0)
        };
        let text = text.as_ref();
        let summary = entry.role == "summary";
        if text.is_empty()
            || is_list_line(text)
            || is_fragment(text)
            || is_lead_in(text)
            || text.starts_with("```")
            || is_tool_call(text)
            || (!summary && entry.role != "user" && is_narration(text))
        {
            continue;
        }
        if matches!(entry.role, "user" | "summary") && kind_of(text).is_some() && !entry.task {
            continue;
        }
        let (classified, mut score) = classify(entry.role, text);
        score += asked_worth;
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
            None if asked_worth > 0 && classified == Heading::Facts => Heading::Task,
            None if classified == Heading::Task => Heading::Facts,
            None => classified,
        };
        if summary {
            score = score.max(MIN_SCORE);
        }
        let lower = crate::case::lowercase(text);
        if !focus.is_empty() && focus.iter().any(|w| lower.contains(w.as_str())) {
            score = score * 2 + 5;
        }
        if score < MIN_SCORE {
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
        // the task and the reasons; an earlier summary's bullet was chosen once already.
        let weight = match entry.role {
            "tool" => 1,
            "summary" => 3,
            _ => 2,
        };
        let cost = Estimator.count(&text) + 3;
        items.push(Item {
            heading,
            priority: rank(weight * u64::from(score), position, total, cost),
            text,
            position,
            cost,
        });
    }
    newest_errors_only(items)
}

/// `items` with the newest [`MAX_ERRORS`] errors only: an old one fixed since is history
/// the trail keeps.
fn newest_errors_only(items: Vec<Item>) -> Vec<Item> {
    let mut errors: Vec<usize> = (0..items.len())
        .filter(|&i| items[i].heading == Heading::Errors)
        .collect();
    crate::sort::sort_by_key(&mut errors, |&i| std::cmp::Reverse(items[i].position));
    let dropped: HashSet<usize> = errors.into_iter().skip(MAX_ERRORS).collect();
    items
        .into_iter()
        .enumerate()
        .filter(|(i, _)| !dropped.contains(i))
        .map(|(_, item)| item)
        .collect()
}

/// What an entry states: its line without a list mark or a label, and an agent's without
/// the sentences that say what it was about to do.
fn stated<'e>(entry: &'e Entry<'_>) -> Cow<'e, str> {
    let text = without_label(entry.text.trim().trim_start_matches("- ").trim());
    if entry.role == "assistant" {
        Cow::Owned(without_narrated_sentences(text))
    } else {
        Cow::Borrowed(text)
    }
}

/// Does the line only lead into what follows it (`` `schema.py` imports: ``, "And the
/// caller (from `base.py`):")? Without the block it introduced it says nothing.
fn is_lead_in(text: &str) -> bool {
    text.ends_with(':') && !is_error_line(text)
}

/// Lines this summarizer wrote as lists in earlier versions (an earlier summary's, being
/// merged): not lines worth keeping whole.
fn is_list_line(text: &str) -> bool {
    ["Files: ", "Numbers: ", "Artifacts: "]
        .iter()
        .any(|label| text.starts_with(label))
}

/// A tool call as the transcript renders it: `name({json arguments})`.
fn is_tool_call(text: &str) -> bool {
    text.split_once('(').is_some_and(|(name, rest)| {
        !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_alphanumeric() || "_-.".contains(c))
            && rest.trim_start().starts_with('{')
    })
}

/// Does an agent open the line with what it is about to do ("Let me check …", "Now I'll
/// look at …"), which tells nothing once it is done?
fn is_narration(text: &str) -> bool {
    const OPENERS: &[&str] = &[
        "let me ",
        "now let me ",
        "now, let me ",
        "first, let me ",
        "next, let me ",
        "i'll ",
        "i will ",
        "we'll ",
        "we will ",
        "now i'll ",
        "let's ",
        "now let's ",
        "now, let's ",
        "first, let's ",
        "next, let's ",
        "i need to ",
        "i'm going to ",
        "now i need to ",
        "i should ",
        "we should ",
        "we need to ",
        "we are now ",
        "first we ",
        "now we ",
        "i can ",
        "i could ",
        "i want to ",
        "so i ",
        "and then ",
        "then ",
        "or i ",
        "maybe ",
        "wait",
        "hmm",
        "great",
        "perfect",
        "excellent",
        "good",
        "ok",
        "okay",
        "alright",
        "now ",
        "first, ",
        "next, ",
        "then, ",
    ];
    let lower = crate::case::lowercase(text.trim());
    let opens = OPENERS.iter().any(|o| lower.starts_with(o));
    // "Actually, let me write a simple fix first" narrates wherever it says so; a question
    // ("But what if it finds the second one?") is thinking aloud, not what was found.
    let aside = lower.contains("let me ") || lower.contains("let's ") || lower.ends_with('?');
    (opens || aside) && (!has_finding(&lower) || is_guess(&lower))
}

/// `text` without the sentences that narrate what comes next ("Let me look at the code
/// one more time."), when others in it say something: "Let me think about this
/// differently. The issue is that `Delimited` matches nothing." keeps its finding alone.
fn without_narrated_sentences(text: &str) -> String {
    let sentences = crate::standing::line_sentences(text);
    if sentences.len() < 2 {
        return text.to_owned();
    }
    let kept: Vec<&str> = sentences
        .iter()
        .copied()
        .filter(|s| !is_narration(s))
        .collect();
    if kept.is_empty() {
        text.to_owned()
    } else {
        kept.join(" ")
    }
}

/// Does a line guess ("I think the issue is …", "maybe", "what if", "If I look at …, I
/// can …") rather than state?
fn is_guess(lower: &str) -> bool {
    [
        "i think",
        "maybe",
        "might",
        "perhaps",
        "what if",
        "could be",
        "seems",
        "probably",
        "i wonder",
        "not sure",
        "possibly",
        "suspect",
        "even if",
        "is likely",
        "are likely",
        "if the issue",
        "if the problem",
    ]
    .iter()
    .any(|w| lower.contains(w))
        || ["if i ", "if we "].iter().any(|w| lower.starts_with(w))
}

/// Does a line state what was found or done ("the root cause is", "fixed", "passes")?
fn has_finding(lower: &str) -> bool {
    [
        "root cause",
        "the issue is",
        "the problem is",
        "the bug is",
        "because",
        "fixed",
        "now passes",
        "tests pass",
        "now works",
        "confirmed",
        "the fix is",
        "resolved",
        "succeeded",
    ]
    .iter()
    .any(|w| lower.contains(w))
        || reports_passing(lower)
}

/// Does a line say something passed ("all 12 tests passed", "passed."), not that a value
/// was handed on ("the object passed to `Editor`")?
fn reports_passing(lower: &str) -> bool {
    const HANDED: &[&str] = &[
        "to", "in", "into", "as", "by", "through", "from", "along", "on",
    ];
    let words: Vec<&str> = lower.split_whitespace().collect();
    words.iter().enumerate().any(|(at, word)| {
        word.trim_end_matches(|c: char| !c.is_alphanumeric()) == "passed"
            && words.get(at + 1).is_none_or(|next| !HANDED.contains(next))
    })
}

/// The items kept within `budget`, best value per token first. A line said inside a kept
/// one is not said twice.
fn choose(items: &[Item], order: &[usize], budget: u64) -> Vec<bool> {
    let mut chosen = vec![false; items.len()];
    let mut used = 0u64;
    for &i in order {
        let item = &items[i];
        if items
            .iter()
            .zip(&chosen)
            .any(|(kept, &c)| c && kept.text.contains(item.text.as_str()))
        {
            continue;
        }
        if used + item.cost > budget {
            continue;
        }
        used += item.cost;
        chosen[i] = true;
        // A kept line said inside this one (an error its line repeats) goes.
        for (j, other) in items.iter().enumerate() {
            if chosen[j] && j != i && item.text.contains(other.text.as_str()) {
                chosen[j] = false;
                used -= other.cost;
            }
        }
    }
    chosen
}

/// The answer: bullets under the prompt's headings, in reading order.
fn render(items: &[Item], chosen: &[bool], refs_line: Option<&str>) -> String {
    let mut out = String::new();
    for (h, heading) in Heading::ALL.into_iter().enumerate() {
        let mut section: Vec<&Item> = items
            .iter()
            .zip(chosen)
            .filter(|(item, keep)| **keep && item.heading == heading)
            .map(|(item, _)| item)
            .collect();
        crate::sort::sort_by_key(&mut section, |item| item.position);
        let mut lines: Vec<&str> = section.iter().map(|i| i.text.as_str()).collect();
        if heading == Heading::Facts {
            lines.extend(refs_line);
        }
        if lines.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&format!("## {}\n", HEADINGS[h]));
        for line in lines {
            out.push_str(&format!("- {line}\n"));
        }
    }
    out.trim_end().to_owned()
}

fn has_path(text: &str) -> bool {
    line_facts(text).iter().any(|f| f.kind == FactKind::Path)
}

/// Words that make an agent's line a decision or a finding of cause.
const DECISION_WORDS: &[&str] = &[
    "decid",
    "i will",
    "i'll",
    "we will",
    "chose",
    "the fix",
    "root cause",
    "because",
    "the issue is",
    "the problem is",
    "the bug",
];

/// Words that make an agent's line a step still to take.
const NEXT_WORDS: &[&str] = &[
    "next step",
    "todo",
    "remaining step",
    "remaining work",
    "remaining task",
    "remaining issue",
    "remaining fail",
    "still need",
    "then run",
    "left to do",
];

/// Words that make a line report an error.
const ERROR_WORDS: &[&str] = &[
    "error",
    "failed",
    "failure",
    "exception",
    "traceback",
    "panicked",
];

/// The heading a line goes under, and whether it is one of the heading's own (a finding
/// under Facts is; a line that merely holds facts is not).
fn heading_of(role: &str, text: &str, lower: &str) -> (Heading, bool) {
    let has = |words: &[&str]| words.iter().any(|w| lower.contains(w));
    // What the agent would do about an error ("I should not include the keys if I want a
    // KeyError") is not one; nor is an apology ("I apologize for the error in my last
    // edit"), which decides nothing either: the error it regrets is on a line of its own.
    let intends = has(&["i should", "i want", "if i ", "i can ", "i could", "i need"]);
    let agent = role != "user";
    let apologizes = agent && apologizes(lower);
    let names_an_error = ERROR_WORDS.iter().any(|w| says_word(lower, w))
        && !is_command(text)
        && !(agent && supposes(lower));
    // A file's line as a listing numbers it (`  503\t    ZeroDivisionError: …` in a
    // docstring, `145:    raise ValueError(`) is the file's text, not what happened.
    let listed = role == "tool" && is_listed_line(text);
    if (is_error_line(text) && !listed)
        || (role != "tool" && !intends && !apologizes && names_an_error)
    {
        return (Heading::Errors, true);
    }
    // The user's decisions and rules are the engine's ([`crate::standing`]); what else a
    // user says mid-run is worth a line for its facts, not for its words. A guess
    // ("Maybe the issue is in the parser") decides nothing, whatever words it uses.
    if agent && !is_guess(lower) && !apologizes && has(DECISION_WORDS) {
        (Heading::Decisions, true)
    } else if agent && has(NEXT_WORDS) && !supposes(lower) {
        (Heading::Next, true)
    } else {
        let finding = agent && has_finding(lower) && text.split_whitespace().count() >= 4;
        (Heading::Facts, finding)
    }
}

fn classify(role: &str, text: &str) -> (Heading, u32) {
    let lower = crate::case::lowercase(text);
    let mut score: u32 = 0;
    if has_path(text) {
        score += 2;
    }
    if text.contains('`') || text.contains("::") || text.contains("()") {
        score += 1;
    }
    let agent = role != "user";
    let (heading, own) = heading_of(role, text, &lower);
    if own {
        score += match heading {
            Heading::Errors if role == "tool" => 4,
            Heading::Errors => 2,
            _ => 3,
        };
    }
    // A guess is worth less than what was found, whatever words it uses ("I think the
    // issue is …" is no finding until a later line says it is).
    if agent && is_guess(&lower) {
        score = score.saturating_sub(2);
    }
    // What a tool printed that names no error is the trail's: its facts are kept there,
    // in context, and a line of it here says nothing the trail does not.
    if role == "tool" && heading != Heading::Errors {
        score = 0;
    }
    let small_talk = is_small_talk(&lower, agent);
    // "ok. the upload of photo 7 failed: HTTP 413" opens as small talk and reports an error.
    if small_talk && score < 4 && heading != Heading::Errors {
        score = 0;
    }
    if lower.contains("«artifact:") {
        score += 5;
    }
    (heading, score)
}

/// Does a line only acknowledge, apologize (an agent's) or greet?
fn is_small_talk(lower: &str, agent: bool) -> bool {
    acknowledges(lower)
        || (agent && apologizes(lower))
        || (lower.len() < 40
            && ["thanks", "thank you", "great", "sure", "ok", "hello", "hi "]
                .iter()
                .any(|w| lower.contains(w)))
}

/// Does a short line only acknowledge ("Got it. I'll work within that from here on.")? It
/// decides nothing.
fn acknowledges(lower: &str) -> bool {
    const ACKNOWLEDGES: &[&str] = &[
        "got it",
        "understood",
        "no problem",
        "noted",
        "of course",
        "will do",
        "sounds good",
        "sure",
        "ok",
        "okay",
        "fair point",
    ];
    lower.split_whitespace().count() <= 12
        && ACKNOWLEDGES.iter().any(|a| {
            lower
                .strip_prefix(a)
                .is_some_and(|rest| rest.starts_with(|c: char| !c.is_alphanumeric()))
        })
}

/// Is `text` a command as typed (`sed -i '…' a.py`, `python -c "…"`) or a tool call?
/// Words in its arguments are code, not what happened.
fn is_command(text: &str) -> bool {
    const PROGRAMS: &[&str] = &[
        "sed", "grep", "cat", "python", "python3", "echo", "cd", "ls", "find", "git", "pip", "awk",
        "perl", "rg", "node", "npm", "cargo", "pytest", "printf",
    ];
    let mut words = text.split_whitespace();
    let program = words.next().unwrap_or("").trim_start_matches(['$', '`']);
    (PROGRAMS.contains(&program)
        && words
            .next()
            .is_some_and(|w| w.starts_with(['-', '\'', '"'])))
        || is_tool_call(text)
}

/// Is `text` a line of a file as a numbered listing shows it (`cat -n`, `nl`, `grep -n`):
/// its number, then a tab, a colon or a dash?
fn is_listed_line(text: &str) -> bool {
    let trimmed = text.trim_start();
    let digits = trimmed.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && trimmed[digits..].starts_with(['\t', ':', '-'])
}

/// Does `lower` say `word` (or a word it begins: `failed` for `fail`) as a word of its
/// own, not inside a name (`traceback.print_exc()`, `error_handler`)?
fn says_word(lower: &str, word: &str) -> bool {
    lower.match_indices(word).any(|(at, _)| {
        let before = lower[..at].chars().next_back();
        let after = lower[at + word.len()..].trim_start_matches(char::is_alphanumeric);
        let joined = |c: char| c.is_alphanumeric() || c == '_' || c == '.';
        let goes_on = after.starts_with(['_', '('])
            || after
                .strip_prefix('.')
                .is_some_and(|rest| rest.starts_with(char::is_alphanumeric));
        before.is_none_or(|c| !joined(c)) && !goes_on
    })
}

/// Does an agent's line tell what would happen, not what did ("if any upload returns
/// `failure()`, the whole chain after it is failed", "re-tapping won't double-enqueue and
/// it handles a previously failed chain", "make sure a failed job is retried", "you'd
/// still need something to survive process death")? Advice names errors and steps it
/// describes; the ones that happened, and the steps left, are on lines of their own.
fn supposes(lower: &str) -> bool {
    const SUPPOSING: &[&str] = &[
        "if",
        "unless",
        "whenever",
        "would",
        "could",
        "might",
        "means",
        "lets",
        "caution",
        "make sure",
        "in case",
        "handles",
        "instead of",
        "you'd",
        "it'd",
    ];
    SUPPOSING.iter().any(|w| says_word(lower, w))
}

/// Does an agent's line open with an apology ("I apologize for the confusion. Let me…")?
fn apologizes(lower: &str) -> bool {
    const APOLOGIES: &[&str] = &[
        "i apologize",
        "i apologise",
        "apologies",
        "my apologies",
        "sorry",
        "i'm sorry",
        "i am sorry",
        "my mistake",
        "i made a mistake",
        "you're right, i",
        "you are right, i",
    ];
    APOLOGIES.iter().any(|a| lower.trim_start().starts_with(a))
}

mod read;
#[cfg(test)]
mod tests;
