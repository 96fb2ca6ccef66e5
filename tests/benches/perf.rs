//! The native half of the performance suite (`scripts/perf.sh` runs it and writes
//! `docs/PERFORMANCE.md`): counting beside tiktoken-rs and bpe-openai, assessment cold and
//! per turn with a session handle beside the stateless call, planning, and the summarizer
//! input of a 400-turn session beside naive re-summarization. Inputs come from
//! `wasm/bench/corpora.mjs`, so the wasm half measures the same bytes.
//!
//! Run: `cargo bench -p compactor-tests --bench perf -- DIR [--quick]` (writes
//! `DIR/native.json`).

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Instant;

use compactor::budget::BudgetConfig;
use compactor::engine::{CompactionConfig, Compactor, Trigger};
use compactor::extractive::Extractive;
use compactor::format::{Format, ParseOptions, parse_str};
use compactor::live::Session;
use compactor::message::{Message, Role};
use compactor::plan::plan;
use compactor::select::TailPolicy;
use compactor::tokens::{Tiktoken, TokenCounter};
use compactor_tests::harness::SimClock;
use serde_json::{Value, json};

fn median(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

/// Seconds `f` takes.
fn time<T>(f: impl FnOnce() -> T) -> (f64, T) {
    let start = Instant::now();
    let value = f();
    (start.elapsed().as_secs_f64(), value)
}

fn texts(dir: &Path, name: &str) -> Vec<String> {
    let text = fs::read_to_string(dir.join(name)).expect("run wasm/bench/corpora.mjs first");
    serde_json::from_str(&text).expect("an array of strings")
}

/// Tokens per second of each tokenizer over `texts`, and their totals.
fn counting(texts: &[String], reps: usize) -> Value {
    let ours = Tiktoken::o200k_base();
    let tiktoken = tiktoken_rs::o200k_base().expect("tiktoken-rs o200k_base");
    let bpe = bpe_openai::o200k_base();
    type Count<'a> = Box<dyn Fn(&str) -> usize + 'a>;
    let counters: Vec<(&str, Count)> = vec![
        ("compactor", Box::new(|t| ours.count(t) as usize)),
        (
            "tiktoken-rs",
            Box::new(|t| tiktoken.encode_ordinary(t).len()),
        ),
        ("bpe-openai", Box::new(|t| bpe.count(t))),
    ];
    let bytes: usize = texts.iter().map(String::len).sum();
    let mut results = serde_json::Map::new();
    for (name, count) in &counters {
        let tokens: usize = texts.iter().map(|t| count(t)).sum(); // warm-up, and the total
        let seconds = median(
            (0..reps)
                .map(|_| time(|| texts.iter().map(|t| count(t)).sum::<usize>()).0)
                .collect(),
        );
        results.insert(
            (*name).into(),
            json!({ "tokens": tokens, "seconds": seconds, "tokensPerSecond": tokens as f64 / seconds }),
        );
    }
    json!({ "texts": texts.len(), "bytes": bytes, "tokenizers": results })
}

fn compactor() -> Compactor {
    Compactor::new(CompactionConfig {
        budget: BudgetConfig::for_model("gpt-4o"),
        ..CompactionConfig::default()
    })
    .expect("catalog numbers")
}

fn parse(text: &str) -> Vec<Message> {
    parse_str(text, Format::OpenAi, ParseOptions::default())
        .expect("the session parses")
        .messages
}

/// Cold and per-turn assessment and planning of one session, handle beside stateless call.
fn session_figures(path: &Path, turns: usize, reps: usize) -> Value {
    let text = fs::read_to_string(path).expect("run wasm/bench/corpora.mjs first");
    let messages = parse(&text);
    let tokens = compactor().assess(&messages).total_tokens;

    // Cold: the JSON text read and assessed by a compactor whose memo is empty.
    let cold_stateless = median(
        (0..reps)
            .map(|_| {
                let c = compactor();
                time(|| c.assess(&parse(&text)).total_tokens).0
            })
            .collect(),
    );
    let cold_session = median(
        (0..reps)
            .map(|_| {
                let c = compactor();
                time(|| Session::new(&c, "s", parse(&text)).assess().total_tokens).0
            })
            .collect(),
    );

    // Per turn: append one message, assess; the last `turns` messages arrive one by one.
    let split = messages.len() - turns.min(messages.len() - 1);
    let (head, tail) = messages.split_at(split);
    let c = compactor();
    let mut session = Session::new(&c, "s", head.to_vec());
    let per_turn_session = median(
        tail.iter()
            .map(|m| {
                time(|| {
                    session.append([m.clone()]);
                    session.assess().total_tokens
                })
                .0
            })
            .collect(),
    );
    let c = compactor();
    let mut held = head.to_vec();
    c.assess(&held); // the memo knows the head, as it would turn after turn
    let per_turn_stateless = median(
        tail.iter()
            .map(|m| {
                time(|| {
                    held.push(m.clone());
                    c.assess(&held).total_tokens
                })
                .0
            })
            .collect(),
    );

    // Planning the whole session, memo warm.
    let policy = TailPolicy::for_budget(c.config().keep_recent_turns, c.budget());
    let plan_session = median(
        (0..reps)
            .map(|_| time(|| session.plan().expect("plans")).0)
            .collect(),
    );
    let plan_stateless = median(
        (0..reps)
            .map(|_| time(|| plan(c.accountant(), &held, c.budget(), &policy).expect("plans")).0)
            .collect(),
    );
    json!({
        "messages": messages.len(),
        "tokens": tokens,
        "jsonBytes": text.len(),
        "coldStateless": cold_stateless,
        "coldSession": cold_session,
        "perTurnSession": per_turn_session,
        "perTurnStateless": per_turn_stateless,
        "planSession": plan_session,
        "planStateless": plan_stateless,
    })
}

/// A `turns`-turn session grown turn by turn, compacted whenever a signal fires: the
/// summarizer input compactor sends, beside what re-summarizing the whole history at each
/// compaction would send.
fn summarizer_input(path: &Path, turns: usize) -> Value {
    let messages = parse(&fs::read_to_string(path).expect("session file"));
    let c = Compactor::new(CompactionConfig {
        budget: BudgetConfig {
            max_context_tokens: Some(128_000),
            output_reserve: Some(16_000),
            max_messages: None,
            ..BudgetConfig::for_model("gpt-4o")
        },
        ..CompactionConfig::default()
    })
    .expect("valid numbers");
    let mut session = Session::new(&c, "grow", Vec::new());
    let (mut done, mut history, mut compactions, mut ours, mut naive) = (0, 0u64, 0, 0u64, 0u64);
    let mut failed = 0;
    let clock = SimClock::default();
    for message in &messages {
        history += c.accountant().message_tokens(message);
        session.append([message.clone()]);
        if message.role != Role::Assistant {
            continue;
        }
        done += 1;
        if session.assess().needs_compaction() {
            let outcome = futures_executor::block_on(session.compact(
                Trigger::Proactive,
                &Extractive,
                &clock,
            ));
            if let Ok(outcome) = outcome {
                compactions += 1;
                ours += outcome.report.summary_input_tokens;
                // Naive: every compaction summarizes the whole original history again.
                naive += history;
            } else {
                failed += 1; // what the pinned messages hold, no run can shrink
            }
        }
        if done == turns {
            break;
        }
    }
    json!({
        "turns": done,
        "historyTokens": history,
        "compactions": compactions,
        "failed": failed,
        "compactor": ours,
        "naive": naive,
    })
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let quick = args.iter().any(|a| a == "--quick");
    let dir = PathBuf::from(
        args.iter()
            .find(|a| !a.starts_with("--"))
            .expect("usage: perf DIR [--quick]"),
    );
    let reps = if quick { 3 } else { 7 };
    let mut sessions = serde_json::Map::new();
    let sizes: &[&str] = if quick {
        &["10k", "100k"]
    } else {
        &["10k", "100k", "1m"]
    };
    for size in sizes {
        let figures = session_figures(&dir.join(format!("session-{size}.json")), 50, 5);
        eprintln!("native session {size}: {figures}");
        sessions.insert((*size).into(), figures);
    }
    let result = json!({
        "counting": {
            "corpus": counting(&texts(&dir, "corpus-texts.json"), reps),
            "mixed": counting(&texts(&dir, "mixed-texts.json"), reps),
        },
        "sessions": sessions,
        "summarizerInput": if quick { Value::Null } else { summarizer_input(&dir.join("session-1m.json"), 400) },
    });
    fs::write(
        dir.join("native.json"),
        serde_json::to_string_pretty(&result).expect("json"),
    )
    .expect("writes native.json");
}
