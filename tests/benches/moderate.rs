//! MODERATE's wall time at a fixed summarizer latency L with k old segments: concurrent
//! requests take about L, where sequential ones would take k·L.
//!
//! Run: `cargo bench -p compactor-tests --bench moderate`.

use std::time::{Duration, Instant};

use compactor::budget::BudgetConfig;
use compactor::driver::drive;
use compactor::engine::{CompactionConfig, Compactor, Event, Trigger};
use compactor::ladder::Level;
use compactor::message::{Message, ToolCall};
use compactor_tests::harness::{RealClock, Script, Scripted};
use criterion::{Criterion, criterion_group, criterion_main};

const LATENCY: Duration = Duration::from_millis(100);

fn session(turns: usize) -> Vec<Message> {
    let mut messages = vec![
        Message::system("sys", "You are a coding agent."),
        Message::user("task", "Fix the tests."),
    ];
    for i in 0..turns {
        let call = ToolCall {
            id: format!("c{i}"),
            name: "bash".into(),
            arguments: format!("{{\"command\":\"pytest -k case_{i}\"}}"),
        };
        messages.push(Message::assistant_calls(
            format!("a{i}").as_str(),
            Some("Running."),
            [call],
        ));
        let body = (0..300)
            .map(|w| format!("output line {w} of case {i} in src/case_{i}.py"))
            .collect::<Vec<_>>()
            .join("\n");
        messages.push(Message::tool_result(
            format!("t{i}").as_str(),
            format!("c{i}"),
            body,
        ));
    }
    messages
}

/// One MODERATE level at LATENCY; returns (k, wall time of the level).
fn moderate_once(compactor: &Compactor, messages: &[Message]) -> (usize, Duration) {
    let scripted = Scripted::always(Script::Extract).with_latency(LATENCY);
    let mut run = compactor
        .begin("bench", messages.to_vec(), Trigger::Proactive, 0)
        .expect("begin");
    let (mut k, mut entered, mut left) = (0, None, None);
    futures_executor::block_on(drive(
        &mut run,
        &scripted,
        &RealClock::default(),
        &mut |event| match event {
            Event::LevelEntered {
                level: Level::Moderate,
                ..
            } => entered = Some(Instant::now()),
            Event::RequestIssued {
                level: Level::Moderate,
                ..
            } => k += 1,
            Event::LevelLeft {
                level: Level::Moderate,
                ..
            } => left = Some(Instant::now()),
            _ => {}
        },
    ))
    .expect("compacts");
    (k, left.expect("left") - entered.expect("entered"))
}

fn bench(c: &mut Criterion) {
    let messages = session(24);
    let total = Compactor::new(CompactionConfig {
        budget: BudgetConfig::for_model("gpt-4o"),
        ..CompactionConfig::default()
    })
    .expect("catalog")
    .assess(&messages)
    .total_tokens;
    let compactor = Compactor::new(CompactionConfig {
        budget: BudgetConfig {
            max_context_tokens: Some(total * 2 / 3),
            output_reserve: Some(0),
            max_messages: None,
            ..BudgetConfig::for_model("gpt-4o")
        },
        clear_at_least: u64::MAX,
        max_concurrency: 64,
        ..CompactionConfig::default()
    })
    .expect("valid");
    let (k, _) = moderate_once(&compactor, &messages);
    let mut group = c.benchmark_group("moderate");
    group.sample_size(10);
    group.bench_function(format!("k{k}_latency{}ms", LATENCY.as_millis()), |b| {
        b.iter_custom(|iters| {
            (0..iters)
                .map(|_| {
                    compactor.clear_cache();
                    moderate_once(&compactor, &messages).1
                })
                .sum()
        })
    });
    group.finish();
    let mut walls: Vec<Duration> = (0..9)
        .map(|_| {
            compactor.clear_cache();
            moderate_once(&compactor, &messages).1
        })
        .collect();
    walls.sort();
    let median = walls[walls.len() / 2];
    println!(
        "moderate: k = {k} requests at L = {LATENCY:?}: median wall {median:?} = {:.2} L (sequential: {k} L)",
        median.as_secs_f64() / LATENCY.as_secs_f64()
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
