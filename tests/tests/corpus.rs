//! The real corpus: every trajectory loads, round-trips, segments and assesses, and the
//! token totals are the tiktoken counts of the same text.

use compactor::budget::BudgetConfig;
use compactor::engine::Trigger;
use compactor::format::{Format, ParseOptions, parse_str};
use compactor::message::{Message, Part};
use compactor::overflow::assess;
use compactor::plan::{SegmentState, plan, plan_read};
use compactor::segment::segment;
use compactor::select::TailPolicy;
use compactor::tokens::{
    Estimator, MESSAGE_OVERHEAD, REPLY_PRIMING, TOOL_CALL_OVERHEAD, TOOL_RESULT_OVERHEAD, Tiktoken,
    TokenAccountant, TokenCounter,
};
use compactor_tests::corpus;
use compactor_tests::setup::{lenient, run_extracting, summarizing_compactor};
use serde_json::Value;
use std::sync::Arc;

const LENIENT: ParseOptions = ParseOptions { lenient: true };

#[test]
fn the_corpus_is_there() {
    assert!(
        corpus().len() >= 20,
        "expected the shared corpus of trajectories"
    );
}

#[test]
fn strict_parsing_accepts_the_corpus_except_unknown_roles() {
    for (name, text) in corpus() {
        match parse_str(&text, Format::OpenAi, ParseOptions::default()) {
            Ok(conversation) => assert!(!conversation.messages.is_empty(), "{name}"),
            Err(error) => {
                assert!(name.starts_with("mini-swe-agent"), "{name}: {error}");
                assert_eq!(error.message, "unknown role \"exit\"", "{name}");
                let last = serde_json::from_str::<Value>(&text)
                    .expect(&name)
                    .as_array()
                    .map_or(0, |a| a.len() - 1);
                assert_eq!(error.message_index(), Some(last), "{name}: {error}");
            }
        }
    }
}

#[test]
fn every_file_round_trips_byte_for_byte() {
    for (name, text) in corpus() {
        let conversation = parse_str(&text, Format::OpenAi, LENIENT).expect(&name);
        let written = conversation.to_json(&conversation.messages);
        assert_eq!(written.to_string(), text.trim_end(), "{name}");
        let original: Value = serde_json::from_str(&text).expect(&name);
        assert_eq!(written.to_value(), original, "{name}");
    }
}

/// The text tiktoken sees for a message, piece by piece, and the framing added around it.
fn pieces(message: &Message) -> (Vec<String>, u64) {
    let mut texts = Vec::new();
    let mut framing = MESSAGE_OVERHEAD;
    let mut opaque = 0;
    for part in &message.parts {
        match part {
            Part::Text { text } => texts.push(text.clone()),
            Part::ToolCall(call) => {
                framing += TOOL_CALL_OVERHEAD;
                texts.push(call.name.clone());
                texts.push(call.arguments.clone());
            }
            Part::ToolResult(result) => {
                framing += TOOL_RESULT_OVERHEAD;
                texts.push(Message::new("x", message.role, result.content.clone()).text());
            }
            Part::Opaque(o) => opaque += o.tokens,
            other => panic!("unexpected part in corpus: {other:?}"),
        }
    }
    (texts, framing + opaque)
}

#[test]
fn token_totals_equal_tiktoken_counts_of_the_same_text() {
    let bpe = tiktoken_rs::o200k_base_singleton();
    let accountant = TokenAccountant::new(Arc::new(Tiktoken::o200k_base()));
    let budget = BudgetConfig::for_model("gpt-4o")
        .resolve()
        .expect("catalog");
    for (name, text) in corpus() {
        let conversation = parse_str(&text, Format::OpenAi, LENIENT).expect(&name);
        let assessment = assess(&accountant, &conversation.messages, &budget);
        let mut expected = REPLY_PRIMING;
        for (message, counted) in conversation.messages.iter().zip(&assessment.messages) {
            let (texts, framing) = pieces(message);
            let exact: u64 = texts
                .iter()
                .map(|t| bpe.encode_ordinary(t).len() as u64)
                .sum();
            assert_eq!(
                counted.tokens,
                exact + framing,
                "{name}: message {}",
                counted.id
            );
            expected += exact + framing;
        }
        assert_eq!(assessment.total_tokens, expected, "{name}");
    }
}

#[test]
fn the_tokenizer_counts_every_file_as_tiktoken_rs_does() {
    let pairs = [
        (Tiktoken::o200k_base(), tiktoken_rs::o200k_base_singleton()),
        (
            Tiktoken::cl100k_base(),
            tiktoken_rs::cl100k_base_singleton(),
        ),
    ];
    for (name, text) in corpus() {
        // The raw file (JSON, escapes and all) and every message's text on its own.
        let conversation = parse_str(&text, Format::OpenAi, LENIENT).expect(&name);
        let texts = conversation.messages.iter().flat_map(|m| pieces(m).0);
        for text in std::iter::once(text.clone()).chain(texts) {
            for (ours, reference) in &pairs {
                let expected = reference.encode_ordinary(&text).len() as u64;
                assert_eq!(ours.count(&text), expected, "{name}: {}", ours.name());
            }
        }
    }
}

#[test]
fn every_file_segments_and_plans() {
    let accountant = TokenAccountant::new(Arc::new(Tiktoken::o200k_base()));
    let budget = BudgetConfig::for_model("gpt-4o")
        .resolve()
        .expect("catalog");
    let policy = TailPolicy::for_budget(4, &budget);
    for (name, text) in corpus() {
        let conversation = parse_str(&text, Format::OpenAi, LENIENT).expect(&name);
        let s = segment(&conversation.messages).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(s.turns() >= 4, "{name}: {} turns", s.turns());
        let plan = plan(&accountant, &conversation.messages, &budget, &policy).expect(&name);
        // At least the 4 newest turns; more only while within half the target.
        assert!(plan.tail.turns >= 4.min(s.turns()), "{name}");
        assert!(
            plan.tail.turns <= 4 || plan.tail.tokens <= budget.target_tokens / 2,
            "{name}"
        );
        assert!(
            plan.tail.start > 0,
            "{name}: the system prompt is never tail"
        );
    }
}

/// A compacted file, written and read again, plans with its summaries recognized: the
/// summary messages keep only their marker through the file, and `plan_read`, which every
/// caller plans through, marks them again, so they show as `summarized` segments and not
/// as one long `raw` candidate.
#[test]
fn a_compacted_file_plans_with_its_summaries_recognized() {
    let (name, text) = corpus().into_iter().next().expect("a corpus file");
    let conversation = lenient(&text, Format::OpenAi).expect(&name);
    let compactor = summarizing_compactor(&conversation.messages, 0.25, |_| {});
    let (outcome, _) = run_extracting(
        &compactor,
        conversation.messages.clone(),
        Trigger::Proactive,
    );
    let outcome = outcome.expect(&name);
    let summaries = outcome
        .messages
        .iter()
        .filter(|m| m.is_compaction())
        .count();
    assert!(summaries > 0, "{name}: compacted with summaries");
    let written = conversation.to_json(&outcome.messages).to_string();
    let mut read = parse_str(&written, Format::OpenAi, LENIENT).expect(&name);
    assert!(read.messages.iter().all(|m| !m.is_compaction()));

    let budget = compactor.budget();
    let policy = TailPolicy::for_budget(4, budget);
    let plan = plan_read(compactor.accountant(), &mut read.messages, budget, &policy).expect(&name);
    let recognized = read.messages.iter().filter(|m| m.is_compaction()).count();
    assert_eq!(recognized, summaries, "{name}: every summary recognized");
    let states = plan.segment_states(&read.messages);
    assert_eq!(
        states
            .iter()
            .filter(|s| **s == SegmentState::Summarized)
            .count(),
        summaries,
        "{name}: {states:?}"
    );
}

/// The estimator must err high: an undercount makes compaction fire too late.
#[test]
fn estimator_errs_high_on_the_corpus() {
    let exact = Tiktoken::o200k_base();
    let (mut exact_total, mut estimate_total, mut bytes_total) = (0u64, 0u64, 0u64);
    let (mut worst_under, mut bytes_worst_under) = (0.0f64, 0.0f64);
    for (name, text) in corpus() {
        let conversation = parse_str(&text, Format::OpenAi, LENIENT).expect(&name);
        for message in &conversation.messages {
            let body = message.text();
            if body.len() < 200 {
                continue; // tiny texts round up either way
            }
            let (e, x) = (Estimator.count(&body), exact.count(&body));
            exact_total += x;
            estimate_total += e;
            bytes_total += body.len() as u64 / 4;
            worst_under = worst_under.max(1.0 - e as f64 / x as f64);
            bytes_worst_under = bytes_worst_under.max(1.0 - (body.len() / 4) as f64 / x as f64);
        }
    }
    let over = estimate_total as f64 / exact_total as f64 - 1.0;
    let bytes_over = bytes_total as f64 / exact_total as f64 - 1.0;
    println!(
        "estimator: {:+.1}% on the corpus, worst message {:.1}% under; bytes/4: {:+.1}%, worst message {:.1}% under",
        over * 100.0,
        worst_under * 100.0,
        bytes_over * 100.0,
        bytes_worst_under * 100.0
    );
    assert!(
        over > 0.0 && over < 0.35,
        "estimator off by {:+.1}% overall",
        over * 100.0
    );
    assert!(
        worst_under < 0.10,
        "estimator undercounts a message by {:.1}%",
        worst_under * 100.0
    );
}

/// The engine on every corpus file: compacted at 50% and 25% budgets, and in every
/// provider format.
mod compaction {
    use compactor::engine::{CompactError, Status, Trigger};
    use compactor::format::Format;

    use compactor::segment::segment;
    use compactor_tests::corpus;
    use compactor_tests::harness::{Script, Scripted, SimClock, drive_bounded};
    use compactor_tests::setup::*;

    #[test]
    fn every_corpus_file_compacts_to_half_and_a_quarter() {
        let mut table = String::new();
        for (name, text) in corpus() {
            let conversation = lenient(&text, Format::OpenAi).expect(&name);
            let messages = conversation.messages;
            let total = tokens_of(&messages);
            let pinned: u64 = messages
                .iter()
                .filter(|m| !m.compactable)
                .map(|m| tokens_of(std::slice::from_ref(m)))
                .sum();
            for share in [0.5, 0.25] {
                let compactor = compactor_for(total, share, |_| {});
                let (result, _) = run_extracting(&compactor, messages.clone(), Trigger::Proactive);
                let limit = compactor.budget().absolute_limit;
                if pinned + 200 > limit {
                    // The pinned system prompt alone nearly fills this budget: nothing may touch it,
                    // so the honest answer is an overflow naming it.
                    match &result {
                        Err(CompactError::ContextOverflow { offenders, .. }) => {
                            assert!(
                                offenders.iter().take(2).any(|o| messages
                                    .iter()
                                    .any(|m| m.id == o.id && !m.compactable)),
                                "{name}"
                            );
                        }
                        Ok(outcome) => assert_sound(&messages, outcome),
                        Err(other) => panic!("{name} at {share}: {other}"),
                    }
                    table.push_str(&format!("{name:<70} {share:>4}: {total:>7} tokens, pinned {pinned} vs limit {limit}: {}\n", if result.is_ok() { "compacted" } else { "context overflow (pinned)" }));
                    continue;
                }
                let outcome = result.unwrap_or_else(|e| panic!("{name} at {share}: {e}"));
                assert!(
                    matches!(outcome.status, Status::Compacted { .. }),
                    "{name} at {share}: {:?}",
                    outcome.status
                );
                assert_sound(&messages, &outcome);
                segment(&outcome.messages).expect("pairs intact");
                let written = conversation_json_ok(&text, &outcome.messages);
                assert!(written, "{name}: written back");
                let levels: Vec<&str> = outcome
                    .report
                    .levels
                    .iter()
                    .map(|l| l.level.as_str())
                    .collect();
                // AGGRESSIVE keeps the recent turns the target has room for: it lands near the
                // target, not far under it with everything but the newest turn folded away.
                if levels.last() == Some(&"aggressive") {
                    let (after, target) =
                        (outcome.report.tokens_after, outcome.report.target_tokens);
                    assert!(
                        after * 10 >= target * 6,
                        "{name} at {share}: aggressive left {after} of a {target}-token target"
                    );
                }
                table.push_str(&format!(
                    "{name:<70} {share:>4}: {:>7} -> {:>6} (target {:>6}) {:?} requests {}\n",
                    total,
                    outcome.report.tokens_after,
                    outcome.report.target_tokens,
                    levels,
                    outcome.report.requests
                ));
            }
        }
        println!("{table}");
    }

    /// The corpus converted to each provider format compacts to half and a quarter of its
    /// tokens, and the written result passes that format's checker.
    #[test]
    fn the_corpus_in_every_format_compacts_to_results_its_provider_accepts() {
        use compactor::format::check::{Rule, check};
        use compactor_tests::convert::{to_aisdk, to_anthropic};
        let mut compacted = 0;
        for (name, text) in corpus() {
            let openai = lenient(&text, Format::OpenAi).expect(&name);
            let inputs = [
                (Format::OpenAi, text.clone()),
                (
                    Format::Anthropic,
                    to_anthropic(&openai.messages).to_string(),
                ),
                (Format::AiSdk, to_aisdk(&openai.messages).to_string()),
            ];
            for (format, json) in inputs {
                let conversation =
                    lenient(&json, format).unwrap_or_else(|e| panic!("{name} as {format}: {e}"));
                let total = tokens_of(&conversation.messages);
                for share in [0.5, 0.25] {
                    let compactor = compactor_for(total, share, |_| {});
                    let mut run = begin(&compactor, conversation.messages.clone());
                    run.check_format(format);
                    let result = drive_bounded(
                        &mut run,
                        &Scripted::always(Script::Extract),
                        &SimClock::default(),
                        10_000,
                    );
                    let outcome = match result {
                        Ok(outcome) => outcome,
                        // A pinned system prompt larger than the budget: nothing may touch it.
                        Err(CompactError::ContextOverflow { .. }) => continue,
                        Err(e) => panic!("{name} as {format} at {share}: {e}"),
                    };
                    let written = conversation.to_json(&outcome.messages).to_string();
                    let reread = lenient(&written, format)
                        .unwrap_or_else(|e| panic!("{name} as {format}: output: {e}"));
                    let broken: Vec<_> = check(format, &reread.messages)
                        .err()
                        .unwrap_or_default()
                        .into_iter()
                        .filter(|v| v.rule != Rule::RolesDoNotAlternate)
                        .collect();
                    assert!(
                        broken.is_empty(),
                        "{name} as {format} at {share}: {broken:?}"
                    );
                    compacted += 1;
                }
            }
        }
        assert!(compacted >= 100, "{compacted}");
    }
}
