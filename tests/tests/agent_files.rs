//! Agents' own session files — Codex rollouts, Claude Code transcripts, gemini-cli and Qwen
//! Code chats — read as the requests they sent, compacted to 50% and 25% of their tokens,
//! and what comes out.
//!
//! The files are people's sessions, not part of the repository: the report runs on a
//! folder of them when `COMPACTOR_SESSIONS` names it (one folder per agent inside, or the
//! files directly), and is ignored otherwise:
//!
//! ```text
//! COMPACTOR_SESSIONS=/path/to/sessions cargo test --release -p compactor-tests \
//!     --test agent_files -- --ignored --nocapture
//! ```
//!
//! Per agent: files read (strictly), untouched items back byte for byte, compacted outputs
//! breaking the provider's rules (the format checkers, beyond what the input already
//! broke; Gemini's thought signatures on the written JSON), runs that dropped the newest
//! user words where the protected messages fit, runs that kept the task verbatim where it
//! fits, and runs within 0.85–1.0 of the target where the protected messages fit (all,
//! and those of sessions of 10K–200K tokens). `AGENT_FILES_DETAIL=1` prints each run;
//! `AGENT_FILES_ONLY=text` measures the files whose path holds `text` and prints their
//! output message by message (`=` kept, `~` rewritten, `S` a summary; role letter and
//! tokens).
//!
//! Asserted: every file read, no output breaking the provider's rules, the newest words
//! never dropped where the protected messages fit.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use compactor::engine::{CompactError, Event, Outcome, Trigger};
use compactor::format::recording;
use compactor::format::{Conversation, Format, ParseOptions, gemini, parse_str, parse_str_auto};
use compactor::message::{Message, Part, Role};
use compactor::segment::segment;
use compactor::task::{newest_words, prefix};
use compactor::validate::{validate, validate_format};
use compactor_tests::harness::{Script, Scripted, SimClock, drive_bounded};
use compactor_tests::setup::{compactor_for, tokens_of};
use serde_json::Value;

const SHARES: [f64; 2] = [0.5, 0.25];

/// The smallest summary the engine asks for, with its framing.
const SMALLEST_SUMMARY: u64 = 64 + 80;

/// Every `.json` and `.jsonl` file under `dir`, sorted; folders starting with `_` or `.`
/// are skipped.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for path in entries.filter_map(Result::ok).map(|e| e.path()) {
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("_");
            if name.starts_with(['_', '.']) {
                continue;
            }
            if path.is_dir() {
                stack.push(path);
            } else if name.ends_with(".json") || name.ends_with(".jsonl") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// What one agent's files gave.
#[derive(Default, Debug)]
struct Tally {
    files: usize,
    read: usize,
    byte_for_byte: usize,
    runs: usize,
    broken: usize,
    overflows: usize,
    words_fit: usize,
    words_dropped: usize,
    task_fit: usize,
    task_kept: usize,
    band_scored: usize,
    band_near: usize,
    sized_scored: usize,
    sized_near: usize,
    failures: Vec<String>,
}

/// The agent a file is from: its folder's name, else what read it.
fn agent_of(path: &Path, otherwise: &str) -> String {
    let folder = path
        .parent()
        .and_then(|p| p.file_name())
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    match folder {
        "codex" | "claude-code" | "gemini-cli" | "qwen-code" => folder.to_owned(),
        _ => otherwise.to_owned(),
    }
}

/// A file as one conversation's text: an agent's session file as the run it recorded, a
/// conversation (a checkpoint) as it is; with its agent and format.
fn load(path: &Path, text: &str) -> Result<(String, Format, String), (String, String)> {
    match recording::read(text) {
        Ok(Some(recording)) => {
            let body = serde_json::to_string(&recording.run()).unwrap_or_default();
            Ok((
                agent_of(path, recording.agent.name()),
                recording.format,
                body,
            ))
        }
        Ok(None) => match parse_str_auto(text, ParseOptions::default()) {
            Ok(c) => Ok((agent_of(path, "conversation"), c.format, text.to_owned())),
            Err(e) => Err((agent_of(path, "unknown"), e.to_string())),
        },
        Err(e) => Err((agent_of(path, "unknown"), e.to_string())),
    }
}

/// The texts a message carries in its own parts (not inside tool results).
fn texts(message: &Message) -> Vec<&str> {
    message
        .parts
        .iter()
        .filter_map(|p| match p {
            Part::Text { text } => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

fn size(message: &Message) -> u64 {
    tokens_of(std::slice::from_ref(message)).saturating_sub(tokens_of(&[]))
}

/// Do the pinned messages and what always stays verbatim (the stable prefix and the task,
/// the newest words, the newest turn) fit `target` beside the smallest summary?
fn protected_fit(messages: &[Message], target: u64) -> bool {
    let the_prefix = prefix(messages);
    let newest = newest_words(messages);
    let last = messages
        .iter()
        .rposition(|m| m.role == Role::Assistant)
        .unwrap_or(messages.len());
    let kept: u64 = (0..messages.len())
        .filter(|&i| {
            !messages[i].compactable || the_prefix.holds(i) || Some(i) == newest || i >= last
        })
        .map(|i| size(&messages[i]))
        .sum();
    tokens_of(&[]) + kept + SMALLEST_SUMMARY <= target
}

/// The output message by message, and the levels, for `AGENT_FILES_ONLY`.
fn detail_map(messages: &[Message], outcome: &Outcome, events: &[Event]) -> String {
    let levels: Vec<String> = events
        .iter()
        .filter_map(|e| match e {
            Event::LevelSkipped { level, predicted } => {
                Some(format!("{level} skipped (predicted {predicted})"))
            }
            Event::LevelLeft {
                level,
                tokens_before,
                tokens_after,
            } => Some(format!("{level} {tokens_before}→{tokens_after}")),
            _ => None,
        })
        .collect();
    let input: Vec<String> = messages
        .iter()
        .map(|m| {
            format!(
                "{}{}{}",
                if m.compactable { "" } else { "!" },
                m.role.letter(),
                size(m)
            )
        })
        .collect();
    let output: Vec<String> = outcome
        .messages
        .iter()
        .map(|m| {
            let mark = match (m.is_compaction(), messages.contains(m)) {
                (true, _) => "S",
                (false, true) => "=",
                (false, false) => "~",
            };
            format!("{mark}{}{}", m.role.letter(), size(m))
        })
        .collect();
    format!(
        "{} · input {}\n  output {}",
        levels.join(" · "),
        input.join(" "),
        output.join(" ")
    )
}

/// One compaction of `conversation` to `share` of its tokens, tallied.
fn one_run(name: &str, conversation: &Conversation, share: f64, tally: &mut Tally) {
    let messages = &conversation.messages;
    let format = conversation.format;
    let total = tokens_of(messages);
    let compactor = compactor_for(total, share, |_| {});
    let target = compactor.budget().target_tokens;
    // Nothing but what always stays (its prompt, the task): nothing to compact.
    let mut run = match compactor.begin("s1", messages.clone(), Trigger::Proactive, 0) {
        Err(CompactError::NoMessagesToCompact) => return,
        run => run.unwrap_or_else(|error| panic!("{name}: {error}")),
    };
    run.check_format(format);
    let result = drive_bounded(
        &mut run,
        &Scripted::always(Script::Extract),
        &SimClock::default(),
        100_000,
    );
    let outcome = match result {
        Ok(outcome) => outcome,
        Err(CompactError::ContextOverflow { .. }) => {
            tally.overflows += 1;
            return;
        }
        Err(e) => {
            tally.failures.push(format!("{name} at {share}: {e}"));
            return;
        }
    };
    tally.runs += 1;
    let output = &outcome.messages;
    let tokens = tokens_of(output);
    let limit = compactor.budget().absolute_limit;
    let written = conversation.to_json(output);
    let rereads = parse_str(&written.to_string(), format, ParseOptions::default()).is_ok();
    let input_json: Value =
        serde_json::from_str(&conversation.to_json(messages).to_string()).unwrap_or(Value::Null);
    let signatures =
        format != Format::Gemini || gemini::check_written(&input_json, &written.to_value()).is_ok();
    let rules = validate_format(format, messages, output);
    let valid = validate(messages, output, tokens, limit).is_ok() && rules.is_ok();
    if !(valid && rereads && signatures) {
        tally.broken += 1;
        tally.failures.push(format!(
            "{name} at {share}: breaks the provider's rules ({:?})",
            rules.err()
        ));
    }
    let fits = protected_fit(messages, target);
    score(messages, output, (total, tokens, target), fits, tally);
    if fits
        && newest_words(messages).is_some_and(|i| {
            let wanted = texts(&messages[i]);
            !output
                .iter()
                .any(|m| m.id == messages[i].id && texts(m) == wanted)
        })
    {
        tally
            .failures
            .push(format!("{name} at {share}: newest words dropped"));
    }
    let ratio = tokens as f64 / target as f64;
    if std::env::var_os("AGENT_FILES_ONLY").is_some() {
        println!(
            "{name} at {share}: target {target}, {}",
            detail_map(messages, &outcome, &run.events())
        );
    }
    if std::env::var_os("AGENT_FILES_DETAIL").is_some() {
        let levels: Vec<_> = outcome
            .report
            .levels
            .iter()
            .map(|l| (l.level, l.tokens_after))
            .collect();
        println!(
            "{name} at {share}: {total} → {tokens} tokens (target {target}, {ratio:.2}), {} → {} messages, levels {levels:?}, valid {valid}, fits {fits}",
            messages.len(),
            output.len(),
        );
    }
}

/// Tallies what stayed of `messages` in `output`, and where it landed: `(total, tokens,
/// target)` are the tokens before, after, and the target; `fits` says whether what always
/// stays verbatim fits the target.
fn score(
    messages: &[Message],
    output: &[Message],
    (total, tokens, target): (u64, u64, u64),
    fits: bool,
    tally: &mut Tally,
) {
    if !fits {
        return;
    }
    if let Some(i) = newest_words(messages) {
        tally.words_fit += 1;
        let wanted = texts(&messages[i]);
        let kept = output
            .iter()
            .any(|m| m.id == messages[i].id && texts(m) == wanted);
        tally.words_dropped += usize::from(!kept);
    }
    if let Some(i) = prefix(messages).task {
        tally.task_fit += 1;
        tally.task_kept += usize::from(output.contains(&messages[i]));
    }
    let near = (0.85..=1.0).contains(&(tokens as f64 / target as f64));
    tally.band_scored += 1;
    tally.band_near += usize::from(near);
    if (10_000..=200_000).contains(&total) {
        tally.sized_scored += 1;
        tally.sized_near += usize::from(near);
    }
}

/// Reads one file and compacts it at each share.
fn one_file(path: &Path, tallies: &mut BTreeMap<String, Tally>) {
    let name = path.display().to_string();
    let Ok(text) = std::fs::read_to_string(path) else {
        return; // gone since the folder was listed
    };
    let (agent, format, body) = match load(path, &text) {
        Ok(loaded) => loaded,
        Err((agent, error)) => {
            let tally = tallies.entry(agent).or_default();
            tally.files += 1;
            tally.failures.push(format!("{name}: {error}"));
            return;
        }
    };
    let tally = tallies.entry(agent).or_default();
    tally.files += 1;
    let read = parse_str(&body, format, ParseOptions::default())
        .map_err(|e| e.to_string())
        .and_then(|c| segment(&c.messages).map(|_| c).map_err(|e| e.to_string()));
    let conversation = match read {
        Ok(conversation) => conversation,
        Err(e) => {
            tally.failures.push(format!("{name}: {e}"));
            return;
        }
    };
    tally.read += 1;
    if conversation.to_json(&conversation.messages).to_string() == body {
        tally.byte_for_byte += 1;
    } else {
        tally
            .failures
            .push(format!("{name}: not written back byte for byte"));
    }
    if std::env::var_os("AGENT_FILES_READ_ONLY").is_none() {
        for share in SHARES {
            one_run(&name, &conversation, share, tally);
        }
    }
}

#[test]
#[ignore = "needs COMPACTOR_SESSIONS: a folder of agents' session files"]
fn agent_session_files_read_compact_and_keep_what_they_must() {
    let Some(dir) = std::env::var_os("COMPACTOR_SESSIONS") else {
        println!("COMPACTOR_SESSIONS is not set: nothing to measure");
        return;
    };
    let only = std::env::var("AGENT_FILES_ONLY").ok();
    let mut tallies: BTreeMap<String, Tally> = BTreeMap::new();
    for path in files(Path::new(&dir)) {
        if only
            .as_deref()
            .is_none_or(|o| path.to_string_lossy().contains(o))
        {
            one_file(&path, &mut tallies);
        }
    }
    for (agent, t) in &tallies {
        println!(
            "{agent}: {} of {} files read, {} byte for byte; {} runs, {} breaking the provider's rules, {} context overflows; newest words dropped in {} of the {} runs where the protected messages fit; task verbatim in {} of {}; within 0.85–1.0 of the target in {} of {} ({} of {} for sessions of 10K–200K tokens)",
            t.read,
            t.files,
            t.byte_for_byte,
            t.runs,
            t.broken,
            t.overflows,
            t.words_dropped,
            t.words_fit,
            t.task_kept,
            t.task_fit,
            t.band_near,
            t.band_scored,
            t.sized_near,
            t.sized_scored
        );
        for failure in t.failures.iter().take(40) {
            println!("  {failure}");
        }
    }
    for (agent, t) in &tallies {
        assert_eq!(t.read, t.files, "{agent}: every file read");
        assert_eq!(
            t.broken, 0,
            "{agent}: no output breaks the provider's rules"
        );
        assert_eq!(t.words_dropped, 0, "{agent}: the newest words stay");
    }
}
