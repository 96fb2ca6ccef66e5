//! The fidelity report: every corpus trajectory compacted to 50% and 25% of its own tokens
//! (message signal off, the extractive summarizer), and what survives — beside a naive
//! "keep the newest messages that fit" trim of the same conversation at the same target.
//!
//! Printed per run: tokens after / target, fact retention (the share of the conversation's
//! facts — file paths, numbers of three or more digits, lines naming an error or an
//! exception; the system prompt excluded — still present verbatim somewhere in the output),
//! task kept (the first user message verbatim), newest user message verbatim, valid
//! (`validate` and the format checker), raw messages kept. `cargo test -p compactor-tests
//! --test fidelity -- --nocapture` shows the table.

use std::collections::HashSet;

use compactor::engine::{CompactError, Outcome};
use compactor::facts::{FactKind, facts};
use compactor::format::Format;
use compactor::message::{Message, Role};
use compactor::validate::{validate, validate_format};
use compactor_tests::corpus;
use compactor_tests::harness::{Script, Scripted, SimClock, drive_bounded};
use compactor_tests::setup::{begin, compactor_for, lenient, tokens_of};

const SHARES: [f64; 2] = [0.5, 0.25];

/// What one compaction (or trim) of one conversation kept.
#[derive(Debug, Clone, Copy, Default)]
struct Row {
    tokens: u64,
    target: u64,
    retention: f64,
    task: bool,
    newest_user: bool,
    valid: bool,
    raw: usize,
}

/// The distinct facts of the messages outside the system prompt.
fn conversation_facts(messages: &[Message]) -> HashSet<String> {
    messages
        .iter()
        .filter(|m| m.role != Role::System)
        .flat_map(|m| {
            facts(&m.text())
                .into_iter()
                .filter(|f| matches!(f.kind, FactKind::Path | FactKind::Number | FactKind::Error))
                .map(|f| f.text.to_owned())
                .collect::<Vec<_>>()
        })
        .collect()
}

fn plain_user(m: &Message) -> bool {
    m.role == Role::User && !m.is_compaction() && m.tool_results().next().is_none()
}

fn row(original: &[Message], output: &[Message], target: u64, valid: bool) -> Row {
    let wanted = conversation_facts(original);
    let text: String = output
        .iter()
        .filter(|m| m.role != Role::System)
        .map(|m| m.text() + "\n")
        .collect();
    let kept = wanted.iter().filter(|f| text.contains(f.as_str())).count();
    let originals: HashSet<&Message> = original.iter().collect();
    let verbatim = |m: Option<&Message>| m.is_some_and(|m| output.contains(m));
    Row {
        tokens: tokens_of(output),
        target,
        retention: if wanted.is_empty() {
            1.0
        } else {
            kept as f64 / wanted.len() as f64
        },
        task: verbatim(original.iter().find(|m| plain_user(m))),
        newest_user: verbatim(original.iter().rev().find(|m| plain_user(m))),
        valid,
        raw: output
            .iter()
            .filter(|m| m.role != Role::System && originals.contains(m))
            .count(),
    }
}

/// Per-run diagnostics (`FIDELITY_DETAIL=1`): the sizes of what must stay verbatim, each
/// level's tokens, and the output message by message (`=` unchanged, `S` summary, `~`
/// rewritten).
fn detail(original: &[Message], outcome: &Outcome, events: &[compactor::engine::Event]) -> String {
    use compactor::engine::Event;
    let size = |m: &Message| tokens_of(std::slice::from_ref(m)).saturating_sub(tokens_of(&[]));
    let sys: u64 = original.iter().filter(|m| m.role == Role::System).map(size).sum();
    let task = original.iter().find(|m| plain_user(m)).map_or(0, size);
    let newest = original.iter().rev().find(|m| plain_user(m)).map_or(0, size);
    let last = original.iter().rposition(|m| m.role == Role::Assistant).unwrap_or(original.len());
    let turn: u64 = original[last..].iter().map(size).sum();
    let mut out = format!(
        "  system {sys} · task {task} · newest user {newest} · newest turn {turn} ({} msgs) · {} msgs\n  ",
        original.len() - last,
        original.len()
    );
    for e in events {
        match e {
            Event::LevelSkipped { level, predicted } => out.push_str(&format!("{level} skipped (pred {predicted}) · ")),
            Event::LevelLeft { level, tokens_before, tokens_after } => out.push_str(&format!("{level} {tokens_before}→{tokens_after} · ")),
            _ => {}
        }
    }
    out.push_str("\n  ");
    for m in &outcome.messages {
        let mark = if m.is_compaction() { "S" } else if original.contains(m) { "=" } else { "~" };
        let role = match m.role { Role::System => "s", Role::User => "u", Role::Assistant => "a", Role::Tool => "t" };
        out.push_str(&format!("{mark}{role}{} ", size(m)));
    }
    out.push('\n');
    out
}

fn compacted(messages: &[Message], total: u64, share: f64) -> Option<(Outcome, bool)> {
    let compactor = compactor_for(total, share, |_| {});
    let mut run = begin(&compactor, messages.to_vec());
    run.check_format(Format::OpenAi);
    let result = drive_bounded(
        &mut run,
        &Scripted::always(Script::Extract),
        &SimClock::default(),
        10_000,
    );
    match result {
        Ok(outcome) => {
            let limit = compactor.budget().absolute_limit;
            let tokens = tokens_of(&outcome.messages);
            let valid = validate(messages, &outcome.messages, tokens, limit).is_ok()
                && validate_format(Format::OpenAi, messages, &outcome.messages).is_ok();
            if std::env::var_os("FIDELITY_DETAIL").is_some() {
                println!("{share}\n{}", detail(messages, &outcome, &run.events()));
            }
            Some((outcome, valid))
        }
        // The pinned system prompt alone is larger than this budget: nothing may touch it
        // (the corpus test checks the error names it). Not a run the report can score.
        Err(CompactError::ContextOverflow { .. }) => None,
        Err(e) => panic!("{e}"),
    }
}

/// The naive trim: system messages, then the newest messages that fit the target.
fn naive_trim(messages: &[Message], target: u64) -> Vec<Message> {
    let system: Vec<&Message> = messages.iter().filter(|m| m.role == Role::System).collect();
    let mut used = tokens_of(&system.iter().map(|m| (*m).clone()).collect::<Vec<_>>());
    let mut keep = vec![false; messages.len()];
    for (i, m) in messages.iter().enumerate().rev() {
        if m.role == Role::System {
            keep[i] = true;
            continue;
        }
        let cost = tokens_of(std::slice::from_ref(m)).saturating_sub(tokens_of(&[]));
        if used + cost > target {
            break;
        }
        used += cost;
        keep[i] = true;
    }
    messages
        .iter()
        .zip(keep)
        .filter(|(_, k)| *k)
        .map(|(m, _)| m.clone())
        .collect()
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 2).copied().unwrap_or(0.0)
}

fn mean(values: &[f64]) -> f64 {
    values.iter().sum::<f64>() / values.len().max(1) as f64
}

fn yes(b: bool) -> &'static str {
    if b { "yes" } else { "NO" }
}

/// The figures of the report: per share, then across shares.
fn summary(rows: &[Vec<(Row, Row)>], raw_by_file: &[(String, usize, usize)]) -> String {
    let mut summary = String::new();
    for (share, rows) in SHARES.iter().zip(rows) {
        let ours: Vec<Row> = rows.iter().map(|r| r.0).collect();
        let ratios: Vec<f64> = ours
            .iter()
            .map(|r| r.tokens as f64 / r.target as f64)
            .collect();
        let near = ratios.iter().filter(|r| (0.85..=1.0).contains(*r)).count();
        let retention: Vec<f64> = ours.iter().map(|r| r.retention).collect();
        let naive: Vec<f64> = rows.iter().map(|r| r.1.retention).collect();
        summary.push_str(&format!(
            "at {share}: {} runs · valid {} · ratio median {:.2}, within 0.85..1.0 in {near} · fact retention mean {:.3} median {:.3} (naive trim mean {:.3} median {:.3}) · task kept {} · newest user kept {}\n",
            ours.len(),
            ours.iter().filter(|r| r.valid).count(),
            median(ratios.clone()),
            mean(&retention),
            median(retention.clone()),
            mean(&naive),
            median(naive.clone()),
            ours.iter().filter(|r| r.task).count(),
            ours.iter().filter(|r| r.newest_user).count(),
        ));
    }
    let more_raw_at_half = raw_by_file.iter().filter(|(_, h, q)| h > q).count();
    summary.push_str(&format!(
        "strictly more raw messages at 0.5 than at 0.25: {more_raw_at_half} of {} files\n",
        raw_by_file.len()
    ));
    summary
}

#[test]
fn fidelity_report() {
    let mut table = String::from(
        "file                                                         share   tokens/target  ratio  facts  naive  task  newest  valid  raw (naive)\n",
    );
    // Per share: the compactor's rows and the naive trim's.
    let mut rows: Vec<Vec<(Row, Row)>> = vec![Vec::new(); SHARES.len()];
    let mut raw_by_file: Vec<(String, usize, usize)> = Vec::new();
    for (name, text) in corpus() {
        let messages = lenient(&text, Format::OpenAi).expect(&name).messages;
        let total = tokens_of(&messages);
        let mut raws = [None; 2];
        for (s, share) in SHARES.into_iter().enumerate() {
            let Some((outcome, valid)) = compacted(&messages, total, share) else {
                table.push_str(&format!(
                    "{name:<60} {share:>5}  pinned system prompt over the budget: skipped\n"
                ));
                continue;
            };
            let target = outcome.report.target_tokens;
            let ours = row(&messages, &outcome.messages, target, valid);
            let trimmed = naive_trim(&messages, target);
            let naive = row(&messages, &trimmed, target, false);
            table.push_str(&format!(
                "{:<60} {share:>5} {:>7}/{:<7} {:>5.2}  {:>5.2}  {:>5.2}  {:>4}  {:>6}  {:>5}  {:>3} ({})\n",
                name.chars().take(60).collect::<String>(),
                ours.tokens,
                target,
                ours.tokens as f64 / target as f64,
                ours.retention,
                naive.retention,
                yes(ours.task),
                yes(ours.newest_user),
                yes(ours.valid),
                ours.raw,
                naive.raw,
            ));
            raws[s] = Some(ours.raw);
            rows[s].push((ours, naive));
        }
        if let [Some(half), Some(quarter)] = raws {
            raw_by_file.push((name, half, quarter));
        }
    }
    let summary = summary(&rows, &raw_by_file);
    println!("{table}\n{summary}");

    // The targets that hold with today's planners are asserted; the others are printed
    // above (output near the target, the task and newest user message always verbatim,
    // more raw messages at a larger budget) and asserted once the planners meet them.
    for (share, rows) in SHARES.iter().zip(&rows) {
        assert!(rows.len() >= 15, "at {share}: {} runs scored", rows.len());
        for (r, _) in rows {
            assert!(r.valid, "at {share}: an invalid result\n{table}");
        }
        let retention = mean(&rows.iter().map(|r| r.0.retention).collect::<Vec<_>>());
        let floor = if *share >= 0.5 { 0.45 } else { 0.30 };
        assert!(
            retention >= floor,
            "at {share}: fact retention {retention:.3} < {floor}\n{summary}"
        );
    }
}
