//! `Extractive`: a deterministic, offline summarizer.
//!
//! It reads the transcript of a [`SummaryRequest`](crate::engine::SummaryRequest) and keeps
//! the lines and sentences that carry facts — file paths, numbers, identifiers, commands,
//! error lines, decisions, user constraints, next steps — and every artifact reference,
//! within the requested size, sorted under the prompt's fixed headings. No model, no
//! network: the default for demos, tests and the command line, and an opt-in fallback when
//! the model summarizer's circuit is open.

use crate::engine::{SummaryFailure, SummaryRequest};
use crate::prompt::{HEADINGS, PromptMessage, artifact_refs, transcript_body};
use crate::tokens::{Estimator, TokenCounter};

/// The extractive summarizer. Stateless; counts with the [`Estimator`] so its output size
/// errs small against every tokenizer.
#[derive(Debug, Clone, Copy, Default)]
pub struct Extractive;

/// Longest line kept, in characters; longer ones are cut with an ellipsis.
const MAX_LINE_CHARS: usize = 240;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Heading {
    Task,
    Facts,
    Decisions,
    Errors,
    Next,
}

struct Candidate {
    position: usize,
    heading: Heading,
    score: u32,
    text: String,
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

    /// Summarizes the transcript in `prompt` in at most `max_tokens` tokens. Returns an
    /// empty string when the transcript holds nothing at all (the engine treats that as a
    /// failure, never as a summary).
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
        let mut candidates = Vec::new();
        let mut role = "user";
        let mut lines: Vec<(String, String)> = Vec::new(); // (role, line)
        if let Some(summary) = existing {
            for line in summary.lines().filter(|l| l.trim_start().starts_with("- ")) {
                lines.push(("summary".into(), line.trim_start()[2..].to_owned()));
            }
        }
        for raw in body.lines() {
            let mut line = raw.trim();
            if let Some(rest) = line.strip_prefix('[')
                && let Some((tag, text)) = rest.split_once("] ")
                && ["system", "user", "assistant", "tool"].contains(&tag)
            {
                role = match tag {
                    "system" => "system",
                    "user" => "user",
                    "assistant" => "assistant",
                    _ => "tool",
                };
                line = text.trim();
            }
            for sentence in sentences(line) {
                lines.push((role.to_owned(), sentence.to_owned()));
            }
        }
        let mut seen = std::collections::HashSet::new();
        for (position, (role, text)) in lines.iter().enumerate() {
            let text = text.trim().trim_start_matches("- ").trim();
            if text.is_empty() || !seen.insert(text.to_owned()) {
                continue;
            }
            let (heading, score) = classify(role, text);
            if score == 0 && role != "summary" {
                continue;
            }
            candidates.push(Candidate {
                position,
                heading,
                score: if role == "summary" { score + 10 } else { score },
                text: shorten(text),
            });
        }
        if candidates.is_empty()
            && let Some((_, first)) = lines.iter().find(|(_, l)| !l.trim().is_empty())
        {
            candidates.push(Candidate {
                position: 0,
                heading: Heading::Facts,
                score: 1,
                text: shorten(first.trim()),
            });
        }
        let refs = artifact_refs(body);
        let refs_line = (!refs.is_empty()).then(|| format!("Artifacts: {}", refs.join(" ")));
        let budget = max_tokens
            .saturating_sub(refs_line.as_deref().map_or(0, |l| Estimator.count(l) + 2) + 12);
        let mut order: Vec<usize> = (0..candidates.len()).collect();
        order.sort_by(|&a, &b| {
            candidates[b]
                .score
                .cmp(&candidates[a].score)
                .then(candidates[a].position.cmp(&candidates[b].position))
        });
        let mut chosen = vec![false; candidates.len()];
        let mut used = 0u64;
        for i in order {
            let cost = Estimator.count(&candidates[i].text) + 3;
            if used + cost <= budget {
                used += cost;
                chosen[i] = true;
            }
        }
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
            let mut section: Vec<&str> = candidates
                .iter()
                .zip(&chosen)
                .filter(|(c, keep)| **keep && c.heading == heading)
                .map(|(c, _)| c.text.as_str())
                .collect();
            if heading == Heading::Facts {
                section.extend(refs_line.as_deref());
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
    text.split(|c: char| c.is_whitespace() || "\"'`(),:;".contains(c))
        .any(|word| {
            let looks_like_file = word.rsplit_once('.').is_some_and(|(stem, ext)| {
                !stem.is_empty()
                    && (1..=5).contains(&ext.len())
                    && ext.chars().all(|c| c.is_ascii_alphanumeric())
                    && ext.chars().any(|c| c.is_ascii_alphabetic())
            });
            (word.contains('/') && word.len() > 2 && !word.starts_with("http"))
                || (looks_like_file && !word.ends_with('.'))
        })
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
