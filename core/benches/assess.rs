//! Counting and assessing: a full assessment of a generated 1,000-message conversation
//! with a cold memo, the re-assessment after appending one message (warm memo), and raw
//! `o200k_base` counting speed on the corpus in tokens per second.
//!
//! Run: `cargo bench -p compactor --bench assess`.

use std::hint::black_box;
use std::sync::Arc;

use compactor::budget::BudgetConfig;
use compactor::message::{Message, ToolCall};
use compactor::overflow::assess;
use compactor::tokens::{Tiktoken, TokenAccountant, TokenCounter};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

const WORDS: &[&str] = &[
    "the",
    "test",
    "fails",
    "in",
    "src/lib.rs",
    "line",
    "42",
    "because",
    "assert_eq!",
    "left",
    "right",
    "cargo",
    "build",
    "error[E0308]:",
    "mismatched",
    "types",
    "expected",
    "u64",
    "found",
    "usize",
    "def",
    "return",
    "self",
    "import",
    "os",
    "path",
    "join",
    "None",
    "True",
    "{",
    "}",
    "(",
    ")",
    "=>",
    "TraceBack",
    "(most",
    "recent",
    "call",
    "last):",
    "File",
    "\"/repo/x.py\",",
];

/// A deterministic tool-using agent session of `n` messages.
fn conversation(n: usize) -> Vec<Message> {
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut text = |words: usize| -> String {
        (0..words)
            .map(|i| {
                let w = WORDS[(next() % WORDS.len() as u64) as usize];
                if i % 12 == 11 {
                    format!("{w}\n")
                } else {
                    format!("{w} ")
                }
            })
            .collect()
    };
    let mut messages = vec![
        Message::system("s", text(300)),
        Message::user("u", text(120)),
    ];
    let mut i = 0;
    while messages.len() < n {
        let call_id = format!("call_{i}");
        let call = ToolCall {
            id: call_id.clone(),
            name: "bash".into(),
            arguments: format!("{{\"command\": \"{}\"}}", text(8).trim()),
        };
        messages.push(Message::assistant_calls(
            format!("a{i}").as_str(),
            Some(&text(40)),
            [call],
        ));
        messages.push(Message::tool_result(
            format!("t{i}").as_str(),
            call_id,
            text(400),
        ));
        i += 1;
    }
    messages.truncate(n);
    messages
}

fn corpus_text() -> Vec<String> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus");
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .filter_map(|e| std::fs::read_to_string(e.path()).ok())
        .collect()
}

fn bench(c: &mut Criterion) {
    let budget = BudgetConfig::for_model("gpt-4o")
        .resolve()
        .expect("catalog model");
    let o200k = Tiktoken::o200k_base();
    o200k.count("warm the singleton");
    let counter: Arc<dyn TokenCounter> = Arc::new(o200k.clone());
    let base = conversation(1_000);
    let mut appended = base.clone();
    appended.push(Message::user("new", "one more observation: tests pass"));

    let mut group = c.benchmark_group("assess");
    group.sample_size(10);
    group.bench_function("full_1000_cold", |b| {
        b.iter(|| {
            let accountant = TokenAccountant::new(counter.clone());
            black_box(assess(&accountant, black_box(&base), &budget))
        })
    });
    group.bench_function("reassess_1001_after_append", |b| {
        b.iter_batched(
            || {
                let accountant = TokenAccountant::new(counter.clone());
                assess(&accountant, &base, &budget);
                accountant
            },
            |accountant| black_box(assess(&accountant, black_box(&appended), &budget)),
            criterion::BatchSize::LargeInput,
        )
    });
    group.finish();

    let corpus = corpus_text();
    if !corpus.is_empty() {
        let tokens: u64 = corpus.iter().map(|t| o200k.count(t)).sum();
        let mut group = c.benchmark_group("count");
        group.sample_size(10);
        group.throughput(Throughput::Elements(tokens));
        group.bench_function("o200k_corpus", |b| {
            b.iter(|| {
                corpus
                    .iter()
                    .map(|t| o200k.count(black_box(t)))
                    .sum::<u64>()
            })
        });
        // The reference, side by side: tiktoken-rs (fancy-regex split, same merge rule).
        let reference = tiktoken_rs::o200k_base_singleton();
        group.bench_function("tiktoken_rs_o200k_corpus", |b| {
            b.iter(|| {
                corpus
                    .iter()
                    .map(|t| reference.encode_ordinary(black_box(t)).len() as u64)
                    .sum::<u64>()
            })
        });
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
