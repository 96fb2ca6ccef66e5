//! The extractive summarizer over every corpus trajectory: whole conversations summarized
//! at a small and a large size, and every summary an engine run at 50% and 25% writes.
//! Asserted: no markup fragments (tags, closing tags read as paths, bullets without
//! words), no heading twice, no bullet that is a heading, within the size asked for, and
//! the same answer twice.

use compactor::extractive::Extractive;
use compactor::format::Format;
use compactor::message::{Message, Role};
use compactor::prompt::{HEADINGS, PromptKind, build};
use compactor::tokens::{Estimator, TokenCounter};
use compactor_tests::corpus;
use compactor_tests::harness::{Script, Scripted, SimClock, drive_bounded};
use compactor_tests::setup::{begin, compactor_for, lenient, tokens_of};

/// What is wrong with `summary`, if anything.
fn flaws(summary: &str) -> Vec<String> {
    let mut flaws = Vec::new();
    for heading in HEADINGS {
        if summary.matches(&format!("## {heading}\n")).count() > 1 {
            flaws.push(format!("heading `{heading}` twice"));
        }
    }
    for line in summary.lines() {
        let Some(bullet) = line.strip_prefix("- ") else {
            continue;
        };
        let markup = ["</", "<returncode>", "<output>", "<command>"]
            .iter()
            .any(|tag| bullet.contains(tag));
        let wordless = bullet.chars().filter(|c| c.is_alphanumeric()).count() < 3;
        let heading = bullet.starts_with('#') || bullet.starts_with("```");
        let tag_path = ["/output", "/returncode", "/command"]
            .iter()
            .any(|p| bullet.split([' ', ',']).any(|w| w == *p));
        if markup || wordless || heading || tag_path {
            flaws.push(format!("bullet `{bullet}`"));
        }
    }
    flaws
}

fn summarize(messages: &[Message], max_tokens: u64) -> String {
    let prompt = build(PromptKind::Running { existing: None }, messages, max_tokens);
    Extractive.summarize_prompt(&prompt, max_tokens)
}

#[test]
fn extractive_summaries_of_the_corpus_are_clean() {
    let mut problems = Vec::new();
    let mut summaries = 0;
    for (name, text) in corpus() {
        let conversation = lenient(&text, Format::OpenAi).expect("corpus parses");
        let messages: Vec<Message> = conversation
            .messages
            .into_iter()
            .filter(|m| m.role != Role::System)
            .collect();
        let mut texts = Vec::new();
        for max_tokens in [200, 1_500] {
            let summary = summarize(&messages, max_tokens);
            assert!(
                Estimator.count(&summary) <= max_tokens,
                "{name}: over {max_tokens}"
            );
            assert_eq!(
                summary,
                summarize(&messages, max_tokens),
                "{name}: not deterministic"
            );
            texts.push(summary);
        }
        let total = tokens_of(&messages);
        for share in [0.5, 0.25] {
            let compactor = compactor_for(total, share, |_| {});
            let mut run = begin(&compactor, messages.clone());
            let scripted = Scripted::always(Script::Extract);
            if let Ok(outcome) = drive_bounded(&mut run, &scripted, &SimClock::default(), 10_000) {
                texts.extend(
                    outcome
                        .messages
                        .iter()
                        .filter_map(|m| m.compaction.as_ref())
                        .map(|meta| meta.summary_text.clone()),
                );
            }
        }
        for summary in texts {
            summaries += 1;
            for flaw in flaws(&summary) {
                problems.push(format!("{name}: {flaw}"));
            }
        }
    }
    assert!(summaries > 40, "only {summaries} summaries");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
