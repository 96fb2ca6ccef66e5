//! Reading a transcript: its lines by role with markup removed, an earlier summary's
//! bullets under their headings, its messages whole, and a command output's key line.

use std::borrow::Cow;

use super::{Entry, Heading, MAX_LINE_CHARS};
use crate::facts::{is_error_label, labelled, strip_markup};
use crate::message::Message;
use crate::prompt::HEADINGS;
use crate::summary::{SUMMARY_FRAMING, SUMMARY_MARKER};

/// The transcript's lines with their roles, markup removed; an existing summary's bullets
/// first, under their headings. A summary inside the transcript (an earlier level's) is
/// read the same way: its headings are never lines of their own.
pub(super) fn read_entries<'a>(
    existing: Option<&'a str>,
    body: &'a str,
    said: &[(&str, String)],
) -> Vec<Entry<'a>> {
    let mut entries = Vec::new();
    let mut heading = None;
    if let Some(summary) = existing {
        read_summary_line(&mut entries, &mut heading, "summary", summary.lines());
    }
    let mut role = "user";
    let mut message = 0;
    let mut task_open = true;
    heading = None;
    // A middle-out clip cuts a line in two: the halves beside its marker are nobody's
    // sentences ("This suggests the issue is specific to having"), and are not read.
    let mut before_clip = entries.len();
    let mut after_clip = false;
    // A tool's error label alone (`ERROR:`), waiting for its message on the next line.
    let mut label: Option<usize> = None;
    for raw in body.lines() {
        let mut line = raw.trim();
        if crate::message::is_clipped(line) {
            entries.truncate(before_clip);
            after_clip = true;
            continue;
        }
        before_clip = entries.len();
        if std::mem::take(&mut after_clip) && tag_of(line).is_none() {
            continue;
        }
        if let Some((known, text)) = tag_of(line) {
            // An earlier summary folded again: its lines are a summary's bullets, its
            // framing is nobody's words.
            let summary = text.starts_with(SUMMARY_MARKER);
            // The task is the first user message, when nothing came before it (not an
            // update of an existing summary) and it is not a tool's output.
            // A text-action agent's observation comes in a user turn: it is a tool's.
            let observation = is_observation(said, message);
            task_open =
                message == 0 && existing.is_none() && known == "user" && !observation && !summary;
            role = if summary {
                "summary"
            } else if observation {
                "tool"
            } else {
                known
            };
            message += 1;
            heading = None;
            label = None;
            line = text.trim();
            if summary {
                continue;
            }
        }
        if role == "summary" && (line.starts_with(SUMMARY_FRAMING) || line.is_empty()) {
            continue;
        }
        if line.starts_with('#') || line.starts_with("- ") && heading.is_some() {
            read_summary_line(&mut entries, &mut heading, role, [line].into_iter());
            continue;
        }
        if is_bold_heading(line) {
            continue;
        }
        // The user's words mid-run are read a sentence at a time: one may be a choice,
        // the next a sigh.
        let by_sentence = role == "user" && !task_open;
        let parts: Vec<Cow<'a, str>> = match strip_markup(line) {
            Cow::Borrowed(b) => parts_of(b, by_sentence)
                .into_iter()
                .map(Cow::Borrowed)
                .collect(),
            Cow::Owned(o) => parts_of(&o, by_sentence)
                .into_iter()
                .map(|s| Cow::Owned(s.to_owned()))
                .collect(),
        };
        for text in parts {
            push_part(&mut entries, &mut label, role, text, task_open);
        }
    }
    entries
}

/// Reads one part of a line: an entry of its own, or the message of the error label
/// alone before it (`label`, the entry waiting for it).
fn push_part<'a>(
    entries: &mut Vec<Entry<'a>>,
    label: &mut Option<usize>,
    role: &'a str,
    text: Cow<'a, str>,
    task: bool,
) {
    if let Some(at) = label.take()
        && at + 1 == entries.len()
    {
        // `ERROR:` then `No replacement was performed, …`: one error, said whole.
        entries[at].text = Cow::Owned(labelled(&entries[at].text, &text));
        return;
    }
    if role == "tool" && is_error_label(&text) {
        *label = Some(entries.len());
    }
    entries.push(Entry {
        role,
        text,
        heading: None,
        task,
    });
}

/// The sentences of the user's words in a transcript that are standing instructions
/// ([`crate::standing::instructions`], read on the transcript's messages as the engine
/// reads the conversation), markup removed: the engine carries those that stand in the
/// summary's block, and never quotes one a later one replaced; the answer repeats neither.
pub(super) fn instructions_in(said: &[(&str, String)]) -> Vec<String> {
    let messages: Vec<Message> = said
        .iter()
        .enumerate()
        .map(|(at, (tag, text))| {
            let id = crate::message::MessageId::new(format!("t{at}"));
            if *tag == "assistant" {
                Message::assistant(id, text.as_str())
            } else {
                Message::user(id, text.as_str())
            }
        })
        .collect();
    let refs: Vec<&Message> = messages.iter().collect();
    // A tool's output, and a summary folded again (its block is read back by the engine),
    // are nobody's words here.
    crate::standing::instructions(&refs, |at| {
        said[at].0 == "system" || is_observation(said, at) || said[at].1.starts_with(SUMMARY_MARKER)
    })
    .into_iter()
    .map(|i| strip_markup(i.text.trim()).into_owned())
    .collect()
}

/// The transcript's messages whole: each one's role tag and its text.
pub(super) fn transcript_messages(body: &str) -> Vec<(&str, String)> {
    let mut said: Vec<(&str, String)> = Vec::new();
    for raw in body.lines() {
        match tag_of(raw.trim()) {
            Some((tag, text)) => said.push((tag, text.to_owned())),
            None => {
                if let Some((_, text)) = said.last_mut() {
                    text.push('\n');
                    text.push_str(raw);
                }
            }
        }
    }
    said
}

/// The role tag a transcript line opens a message with (`[user] …`, `[assistant]` alone
/// for a message with no text), and the text after it.
fn tag_of(line: &str) -> Option<(&'static str, &str)> {
    let (tag, text) = line.strip_prefix('[').and_then(|rest| {
        rest.split_once("] ")
            .or_else(|| Some((rest.strip_suffix(']')?, "")))
    })?;
    ["system", "user", "assistant", "tool"]
        .into_iter()
        .find(|r| *r == tag)
        .map(|known| (known, text))
}

/// Is message `at` of the transcript a tool's output: a tool's, or a user turn that shows
/// an output's mark or answers the action a text-action agent's message closed with
/// ([`crate::action`])?
fn is_observation(said: &[(&str, String)], at: usize) -> bool {
    let (tag, text) = &said[at];
    *tag == "tool"
        || (*tag == "user"
            && (is_output(text)
                || at.checked_sub(1).is_some_and(|before| {
                    said[before].0 == "assistant"
                        && crate::action::ends_with_action(&said[before].1)
                })))
}

/// Reads summary lines: a `## ` heading of the prompt's sets where the bullets after it
/// go; other `#` lines are markdown headings, not facts worth a line.
pub(super) fn read_summary_line<'a>(
    entries: &mut Vec<Entry<'a>>,
    heading: &mut Option<Heading>,
    role: &'a str,
    lines: impl Iterator<Item = &'a str>,
) {
    for line in lines {
        let line = line.trim();
        if let Some(title) = line.strip_prefix("## ") {
            *heading = HEADINGS
                .iter()
                .position(|h| *h == title.trim())
                .map(|h| Heading::ALL[h]);
        } else if let Some(text) = line.strip_prefix("- ") {
            entries.push(Entry {
                role: "summary",
                text: strip_markup(text),
                heading: *heading,
                task: false,
            });
        } else if !line.starts_with('#') && !line.is_empty() {
            entries.push(Entry {
                role,
                text: strip_markup(line),
                heading: None,
                task: false,
            });
        }
    }
}

/// Is the line a heading written in bold (`**Carrying your stuff**`, `**Step 2:**`)? Like
/// a `#` heading, it labels what follows and says nothing alone ("Decide your rule in
/// advance" read as a decision).
fn is_bold_heading(line: &str) -> bool {
    let line = line.strip_suffix(':').unwrap_or(line);
    line.strip_prefix("**")
        .and_then(|rest| rest.strip_suffix("**"))
        .is_some_and(|inner| !inner.trim().is_empty() && !inner.contains("**"))
}

/// Does a message starting with `text` show a tool's output (text-action agents get it
/// in user messages)?
pub(super) fn is_output(text: &str) -> bool {
    [
        "<returncode>",
        "<output>",
        "(Open file:",
        "[File:",
        "OBSERVATION",
        "Observation:",
    ]
    .iter()
    .any(|mark| text.trim_start().starts_with(mark))
}

/// A line too short in words to be worth one of its own (`44-)`, `});`, `OK`).
pub(super) fn is_fragment(text: &str) -> bool {
    text.chars().filter(|c| c.is_alphabetic()).count() < 3
}

/// The parts of a line read as lines of their own: its sentences, or the line whole
/// unless it is long prose ([`sentences`]).
fn parts_of(line: &str, by_sentence: bool) -> Vec<&str> {
    if by_sentence {
        crate::standing::line_sentences(line)
    } else {
        sentences(line).collect()
    }
}

pub(super) fn sentences(line: &str) -> impl Iterator<Item = &str> {
    // Long prose lines split into sentences; code and output lines stay whole.
    let split = line.len() > MAX_LINE_CHARS && line.contains(". ");
    let parts: Vec<&str> = if split {
        line.split_inclusive(". ").collect()
    } else {
        vec![line]
    };
    parts.into_iter()
}

pub(super) fn shorten(text: &str) -> String {
    if text.chars().count() <= MAX_LINE_CHARS {
        return text.to_owned();
    }
    let cut: String = text.chars().take(MAX_LINE_CHARS - 1).collect();
    format!("{cut}…")
}
