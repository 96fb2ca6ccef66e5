//! The loss receipt of real runs: every corpus trajectory compacted to 25% with the
//! extractive summarizer reports the facts it dropped, consistently (totals are the sums of
//! the kinds, examples are facts the output does not hold in context), and the receipt of the largest
//! trajectory is timed.

use std::time::Instant;

use compactor::engine::Status;
use compactor::format::Format;
use compactor::message::Role;
use compactor::receipt::{MAX_EXAMPLES, lost_facts};
use compactor::retention::Contexts;
use compactor_tests::corpus;
use compactor_tests::harness::{Script, Scripted, SimClock, drive_bounded};
use compactor_tests::setup::{begin, compactor_for, lenient, tokens_of};

#[test]
fn every_compacted_run_reports_what_it_lost() {
    let mut compacted = 0;
    let mut largest = None;
    for (name, text) in corpus() {
        let messages = lenient(&text, Format::OpenAi)
            .expect("corpus parses")
            .messages;
        let compactor = compactor_for(tokens_of(&messages), 0.25, |_| {});
        let mut run = begin(&compactor, messages.clone());
        let scripted = Scripted::always(Script::Extract);
        let Ok(outcome) = drive_bounded(&mut run, &scripted, &SimClock::default(), 10_000) else {
            continue;
        };
        let receipt = &outcome.report.lost_facts;
        if !matches!(outcome.status, Status::Compacted { .. }) {
            assert_eq!(receipt.before, 0, "{name}");
            continue;
        }
        compacted += 1;
        assert!(
            receipt.lost > 0 && receipt.lost < receipt.before,
            "{name}: {receipt:?}"
        );
        assert_eq!(
            receipt.before,
            receipt.kinds.iter().map(|k| k.before).sum::<u32>()
        );
        assert_eq!(
            receipt.lost,
            receipt.kinds.iter().map(|k| k.lost).sum::<u32>()
        );
        let output: String = outcome
            .messages
            .iter()
            .filter(|m| m.role != Role::System)
            .map(|m| m.text() + "\n")
            .collect();
        // A lost fact may still stand in the output, but nowhere in context.
        let mut contexts = Contexts::new();
        for m in messages.iter().filter(|m| m.role != Role::System) {
            contexts.add(&m.text(), |_| true);
        }
        let held = contexts.held_by(&output);
        for kind in &receipt.kinds {
            assert!(kind.examples.len() <= MAX_EXAMPLES);
            assert_eq!(
                kind.examples.len() as u32,
                kind.lost.min(MAX_EXAMPLES as u32)
            );
            for example in &kind.examples {
                let kept = match contexts.id(example) {
                    Some(id) => held.contains(&id),
                    None => output.contains(example.as_str()),
                };
                assert!(!kept, "{name}: {example} is in the output, in context");
            }
        }
        if largest
            .as_ref()
            .is_none_or(|(_, m, _): &(String, Vec<_>, _)| m.len() < messages.len())
        {
            largest = Some((name, messages, outcome.messages));
        }
    }
    assert!(compacted >= 10, "{compacted} compacted runs");
    if let Some((name, before, after)) = largest {
        let started = Instant::now();
        let receipt = lost_facts(&before, &after);
        println!(
            "{name}: {} ({} messages, {} tokens) in {:.1?}",
            receipt.summary_line(),
            before.len(),
            tokens_of(&before),
            started.elapsed()
        );
    }
}
