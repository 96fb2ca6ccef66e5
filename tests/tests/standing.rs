//! Rules and decisions a user states mid-run survive compaction: chat conversations (no
//! tools) with rules and decisions in middle turns, later decisions overriding earlier
//! ones, filler between, compacted to 50% and 25% of their tokens with the extractive
//! summarizer. Checked on the compacted text, model-free:
//!
//! - a rule survives when its text is in the output verbatim;
//! - the newest decision of each choice survives likewise;
//! - a superseded decision is *stated as current* when its text is in the output and the
//!   decision that replaced it is not — and the engine never writes a superseded decision
//!   into a summary as current: only quoted as what a newer one replaced (`[replaced:
//!   "…"]`), or marked replaced by a later message the summary does not fold; it may
//!   still stand in a message kept verbatim, the task.
//!
//! The conversations come from `compactor_tests::chats` (generated, deterministic), and
//! from `COMPACTOR_CHATS` when set: a folder of `NAME.json` (an array of `{role, content}`)
//! with `NAME.truth.json` (`{"rules": [text], "decisions": [{"text", "superseded"}]}`).
//! `cargo test -p compactor-tests --test standing -- --nocapture` prints the figures.

use compactor::engine::CompactError;
use compactor::format::Format;
use compactor::message::Message;
use compactor_tests::chats::{Chat, generated};
use compactor_tests::harness::{Script, Scripted, SimClock, drive_bounded};
use compactor_tests::setup::{begin, compactor_for, lenient, tokens_of};

/// What one compaction kept of one conversation's instructions.
#[derive(Debug, Default, Clone, Copy)]
struct Kept {
    rules: usize,
    rules_all: usize,
    decisions: usize,
    decisions_all: usize,
    /// Superseded decisions stated as current.
    stale_current: usize,
    /// Superseded decisions written into a summary.
    stale_in_summary: usize,
    superseded_all: usize,
    within_limit: bool,
}

fn compact(chat: &Chat, share: f64) -> Option<(Vec<Message>, u64)> {
    let messages = lenient(&chat.json, Format::OpenAi).ok()?.messages;
    let total = tokens_of(&messages);
    let compactor = compactor_for(total, share, |_| {});
    let limit = compactor.budget().absolute_limit;
    let mut run = begin(&compactor, messages);
    match drive_bounded(
        &mut run,
        &Scripted::always(Script::Extract),
        &SimClock::default(),
        10_000,
    ) {
        Ok(outcome) => Some((outcome.messages, limit)),
        // A window so small that what must stay verbatim and a summary's framing do not
        // fit beside each other: no run to score.
        Err(CompactError::ContextOverflow { .. }) => None,
        Err(e) => panic!("{} at {share}: {e}", chat.name),
    }
}

fn kept(chat: &Chat, output: &[Message], limit: u64) -> Kept {
    let text: String = output.iter().map(|m| m.text() + "\n").collect();
    // What a summary states, without what it quotes as replaced by a newer instruction.
    let summaries: String = output
        .iter()
        .filter(|m| m.is_compaction())
        .map(|m| without_replaced(&m.text()) + "\n")
        .collect();
    let mut kept = Kept {
        rules_all: chat.rules.len(),
        within_limit: tokens_of(output) <= limit,
        ..Kept::default()
    };
    kept.rules = chat
        .rules
        .iter()
        .filter(|r| text.contains(r.as_str()))
        .count();
    for decision in &chat.decisions {
        if decision.superseded {
            kept.superseded_all += 1;
            // What replaced it, followed to the end of the chain (A, then B, then C: A
            // is stated as current only when C is not there to say otherwise).
            let mut newest = decision;
            while let Some(by) = newest.superseded_by.as_deref()
                && let Some(next) = chat.decisions.iter().find(|d| d.text == by)
            {
                newest = next;
            }
            let replaced_by_kept = !newest.superseded && text.contains(newest.text.as_str());
            if text.contains(decision.text.as_str()) && !replaced_by_kept {
                kept.stale_current += 1;
            }
            if summaries.contains(decision.text.as_str()) {
                kept.stale_in_summary += 1;
            }
        } else {
            kept.decisions_all += 1;
            if text.contains(decision.text.as_str()) {
                kept.decisions += 1;
            }
        }
    }
    kept
}

/// `text` without what a block says was replaced: the words a line quotes as replaced
/// (`[replaced: "…"]`), and the lines marked replaced by a later message.
fn without_replaced(text: &str) -> String {
    text.lines()
        .filter(|line| !line.contains("(replaced by a later message)"))
        .map(|line| {
            match line
                .strip_suffix("\"]")
                .and_then(|l| l.rsplit_once(" [replaced: \""))
            {
                Some((kept, _)) => kept,
                None => line,
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn chats() -> Vec<Chat> {
    match std::env::var_os("COMPACTOR_CHATS") {
        Some(dir) => compactor_tests::chats::read_folder(std::path::Path::new(&dir)),
        None => generated(),
    }
}

#[test]
fn rules_and_newest_decisions_survive_and_nothing_superseded_is_stated_as_current() {
    let chats = chats();
    assert!(!chats.is_empty());
    let mut report = String::new();
    let mut sums = Vec::new();
    for share in [0.5, 0.25] {
        let mut sum = Kept::default();
        let mut misses = Vec::new();
        let mut scored = 0;
        for chat in &chats {
            let Some((output, limit)) = compact(chat, share) else {
                continue;
            };
            scored += 1;
            let k = kept(chat, &output, limit);
            if k.rules < k.rules_all
                || k.decisions < k.decisions_all
                || k.stale_current > 0
                || k.stale_in_summary > 0
            {
                misses.push(format!("{} in {limit} tokens ({k:?})", chat.name));
            }
            assert!(k.within_limit, "{} at {share}: over the limit", chat.name);
            sum.rules += k.rules;
            sum.rules_all += k.rules_all;
            sum.decisions += k.decisions;
            sum.decisions_all += k.decisions_all;
            sum.stale_current += k.stale_current;
            sum.stale_in_summary += k.stale_in_summary;
            sum.superseded_all += k.superseded_all;
        }
        report.push_str(&format!(
            "at {share}: {scored} of {} chats scored (the others overflow) · rules {}/{} · newest decisions {}/{} · superseded stated as current {} of {} · superseded in a summary {}\n",
            chats.len(),
            sum.rules,
            sum.rules_all,
            sum.decisions,
            sum.decisions_all,
            sum.stale_current,
            sum.superseded_all,
            sum.stale_in_summary,
        ));
        for miss in &misses {
            report.push_str(&format!("  missed: {miss}\n"));
        }
        sums.push(sum);
    }
    println!("{report}");
    let share_of = |a: usize, b: usize| if b == 0 { 1.0 } else { a as f64 / b as f64 };
    for sum in sums {
        assert!(
            share_of(sum.rules, sum.rules_all) >= 0.9
                && share_of(sum.decisions, sum.decisions_all) >= 0.9,
            "{report}"
        );
        assert_eq!(sum.stale_in_summary, 0, "{report}");
        assert_eq!(sum.stale_current, 0, "{report}");
    }
}

#[test]
#[ignore]
fn show() {
    let name = std::env::var("CHAT").unwrap_or("chat-3-1".into());
    let share: f64 = std::env::var("SHARE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0.5);
    let chat = chats().into_iter().find(|c| c.name == name).expect("chat");
    let (output, limit) = compact(&chat, share).expect("compacts");
    println!("{} tokens, limit {limit}", tokens_of(&output));
    for m in &output {
        println!(
            "--- {:?}{} ({} tokens)\n{}",
            m.role,
            if m.is_compaction() { " (summary)" } else { "" },
            tokens_of(std::slice::from_ref(m)),
            m.text()
        );
    }
    println!("rules {:?}\ndecisions {:?}", chat.rules, chat.decisions);
}

#[test]
#[ignore]
fn show_instructions() {
    let name = std::env::var("CHAT").unwrap_or("chat-1-4".into());
    let chat = chats().into_iter().find(|c| c.name == name).expect("chat");
    let messages = lenient(&chat.json, Format::OpenAi)
        .expect("parses")
        .messages;
    let refs: Vec<&Message> = messages.iter().collect();
    for i in compactor::standing::instructions(&refs, |_| false) {
        println!("{i:?}");
    }
}

/// What the reading of instructions misses and mistakes, chat by chat (`--ignored`).
#[test]
#[ignore]
fn detection() {
    for chat in chats() {
        let messages = lenient(&chat.json, Format::OpenAi)
            .expect("parses")
            .messages;
        let refs: Vec<&Message> = messages.iter().collect();
        let found = compactor::standing::instructions(&refs, |_| false);
        let holds = |text: &str| found.iter().find(|i| i.text.contains(text));
        for rule in &chat.rules {
            if holds(rule).is_none() {
                println!("{} MISSED RULE: {rule}", chat.name);
            }
        }
        for d in &chat.decisions {
            match holds(&d.text) {
                None => println!("{} MISSED DECISION: {}", chat.name, d.text),
                Some(i) if i.superseded.is_some() != d.superseded => println!(
                    "{} WRONG SUPERSEDED ({} should be {}): {}",
                    chat.name,
                    i.superseded.is_some(),
                    d.superseded,
                    d.text
                ),
                _ => {}
            }
        }
        for i in &found {
            let known = chat.rules.iter().any(|r| i.text.contains(r.as_str()))
                || chat
                    .decisions
                    .iter()
                    .any(|d| i.text.contains(d.text.as_str()));
            if !known {
                println!(
                    "{} EXTRA {:?}{}: {}",
                    chat.name,
                    i.kind,
                    if i.superseded.is_some() {
                        " (superseded)"
                    } else {
                        ""
                    },
                    i.text
                );
            }
        }
    }
}

/// A summarizer that names every tag (`[u3]`, `[a3]`) of the transcript it is handed, so
/// that what a summary covers stays countable.
struct NamesTags;

impl compactor::driver::Summarize for NamesTags {
    async fn summarize(
        &self,
        request: &compactor::engine::SummaryRequest,
    ) -> Result<String, compactor::engine::SummaryFailure> {
        let text = request.prompt.last().map_or("", |m| m.content.as_str());
        let mut tags: Vec<&str> = Vec::new();
        for (at, _) in text.match_indices('[') {
            let rest = &text[at..];
            if let Some(end) = rest.find(']')
                && rest[1..].starts_with(['u', 'a'])
                && rest[2..end].chars().all(|c| c.is_ascii_digit())
                && end > 2
                && !tags.contains(&&rest[..=end])
            {
                tags.push(&rest[..=end]);
            }
        }
        Ok(format!("- Covered: {}", tags.join(" ")))
    }
}

/// Turns that each read as a choice replacing the one before ("Please handle step 5: …"
/// after step 4): the newest folded one is replaced by a turn kept raw, and its line
/// (marked replaced by a later message) must not push out an answer that names every
/// message the summary covers — each message stays, as itself or named by one summary.
#[test]
fn a_line_replaced_by_a_later_message_gives_way_to_the_answer() {
    for turns in [20, 70] {
        let messages: Vec<Message> = (0..turns)
            .flat_map(|i| {
                [
                    Message::user(
                        format!("u{i}").as_str(),
                        format!("[u{i}] Please handle step {i}: check the file src/part_{i}.rs for the value {}.", i * 17),
                    ),
                    Message::assistant(
                        format!("a{i}").as_str(),
                        format!("[a{i}] Step {i} done: src/part_{i}.rs holds {}; the test for part {i} passes now, and nothing else changed.", i * 17),
                    ),
                ]
            })
            .collect();
        let compactor = compactor::engine::Compactor::new(compactor::engine::CompactionConfig {
            budget: compactor::budget::BudgetConfig {
                model: Some("gpt-4o".into()),
                max_context_tokens: Some(1000),
                output_reserve: Some(0),
                max_messages: None,
                ..Default::default()
            },
            keep_recent_turns: 2,
            max_summary_tokens: 1000,
            ..Default::default()
        })
        .expect("valid numbers");
        let mut run = begin(&compactor, messages);
        let outcome = futures_executor::block_on(compactor::driver::drive(
            &mut run,
            &NamesTags,
            &SimClock::default(),
            &mut |_| {},
        ))
        .expect("compacts");
        let text: String = outcome.messages.iter().map(|m| m.text() + "\n").collect();
        for i in 0..turns {
            for tag in [format!("[u{i}]"), format!("[a{i}]")] {
                assert!(text.contains(&tag), "{turns} turns: {tag} lost\n{text}");
            }
        }
    }
}
