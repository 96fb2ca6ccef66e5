//! The fault matrix: every way a summarizer fails × runs that end at each summarizing
//! level × cancellation at every step. Each cell: no panic; a result that passes
//! validation (pairs, pinned bytes, conservation: no message lost) and the provider
//! format's rules, at or below the absolute limit; or a typed error, the caller keeping
//! the original. `--nocapture` prints the table.

use std::collections::{BTreeMap, VecDeque};
use std::panic::{AssertUnwindSafe, catch_unwind};

use compactor::engine::{
    CompactError, Compactor, Event, Outcome, Run, Status, Step, SummaryFailure, SummaryRequest,
    Trigger,
};
use compactor::extractive::Extractive;
use compactor::format::Format;
use compactor::ladder::Level;
use compactor::message::{Message, Part};
use compactor::validate::{validate, validate_format};
use compactor_tests::setup::{agent_session, summarizing_compactor, tokens_of};

/// How the summarizer answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Fault {
    /// Answers well (the baseline).
    None,
    /// Throws or rejects: a typed failure (in JS also a non-string answer).
    Fails,
    /// An empty summary.
    Empty,
    /// Far longer than asked.
    FarTooLong,
    /// Drops the artifact references of its input.
    DropsRefs,
    /// Answers after the request's deadline.
    Late,
    /// Never answers: the deadline fails it.
    NeverSettles,
    /// Says its input is too long.
    InputTooLong,
}

const FAULTS: [Fault; 8] = [
    Fault::None,
    Fault::Fails,
    Fault::Empty,
    Fault::FarTooLong,
    Fault::DropsRefs,
    Fault::Late,
    Fault::NeverSettles,
    Fault::InputTooLong,
];

/// Every request gets the fault, or only the first one (the rest answer well).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Mode {
    Always,
    FirstOnly,
}

/// The answer to `request` under `fault`: `None` for never; the time it comes at.
fn answer(
    fault: Fault,
    request: &SummaryRequest,
    now_ms: u64,
) -> Option<(Result<String, SummaryFailure>, u64)> {
    let extract = || Extractive.summarize_prompt(&request.prompt, request.max_output_tokens);
    let result = match fault {
        Fault::None => Ok(extract()),
        Fault::Fails => Err(SummaryFailure::failed("model unavailable")),
        Fault::Empty => Ok(String::new()),
        Fault::FarTooLong => Ok("word ".repeat(request.max_output_tokens as usize * 20 + 100)),
        Fault::DropsRefs => {
            let text = extract();
            let refs = compactor::prompt::artifact_refs(&text);
            Ok(refs.iter().fold(text, |t, r| t.replace(r.as_str(), "")))
        }
        Fault::Late => return Some((Ok(extract()), request.deadline_ms.saturating_add(1))),
        Fault::NeverSettles => return None,
        Fault::InputTooLong => Err(SummaryFailure::InputTooLong),
    };
    Some((result, now_ms))
}

/// Most polls a run may take: past it, the run is stuck.
const MAX_STEPS: usize = 10_000;

/// Drives `run`, answering in issue order under `fault` and `mode`; cancels before poll
/// number `cancel_at`. Returns the result and the polls taken.
fn drive(
    run: &mut Run,
    fault: Fault,
    mode: Mode,
    cancel_at: Option<usize>,
) -> (Result<Outcome, CompactError>, usize) {
    let mut pending: VecDeque<SummaryRequest> = VecDeque::new();
    let mut answered = 0usize;
    let mut now = 0u64;
    for step in 0..MAX_STEPS {
        if cancel_at == Some(step) {
            run.cancel();
        }
        match run.poll() {
            Step::Summarize(requests) => pending.extend(requests),
            Step::Done(outcome) => return (Ok(outcome), step + 1),
            Step::Failed(error) => return (Err(error), step + 1),
            Step::Wait { until_ms } => match pending.pop_front() {
                Some(request) => {
                    let fault = if mode == Mode::FirstOnly && answered > 0 {
                        Fault::None
                    } else {
                        fault
                    };
                    answered += 1;
                    if let Some((result, at)) = answer(fault, &request, now) {
                        now = now.max(at);
                        match run.complete(request.id, result, now) {
                            Ok(()) | Err(CompactError::StaleRequest(_)) => {}
                            Err(error) => panic!("complete refused an issued request: {error}"),
                        }
                    }
                }
                None => {
                    now = now.max(until_ms.saturating_add(1));
                    run.handle_timeout(now);
                }
            },
            _ => unreachable!("new Step variant"),
        }
    }
    panic!("stuck: no end within {MAX_STEPS} polls");
}

/// A synthetic agent session whose tool results carry artifact references.
fn conversation() -> Vec<Message> {
    let mut messages = agent_session(16, 30);
    for (i, message) in messages.iter_mut().enumerate().filter(|(i, _)| i % 6 == 3) {
        if let Some(Part::ToolResult(result)) = message.parts.first_mut() {
            result
                .content
                .push(Part::text(format!("saved as «artifact:file~report-{i}»")));
        }
    }
    messages
}

/// For each level, a compactor whose run (with a summarizer that answers well) ends at it.
fn windows(messages: &[Message]) -> Vec<(Level, Compactor)> {
    let mut found: Vec<(Level, Compactor)> = Vec::new();
    for step in 1..40 {
        let share = 1.0 - f64::from(step) * 0.025;
        let compactor = summarizing_compactor(messages, share, |c| c.max_concurrency = 4);
        let mut run = compactor
            .begin("s", messages.to_vec(), Trigger::Proactive, 0)
            .expect("begin");
        let (result, _) = drive(&mut run, Fault::None, Mode::Always, None);
        let Ok(outcome) = result else { continue };
        let Some(last) = outcome.report.levels.last().map(|l| l.level) else {
            continue;
        };
        let ended = matches!(outcome.status, Status::Compacted { .. });
        if ended
            && matches!(last, Level::Moderate | Level::Aggressive | Level::Maximum)
            && found.iter().all(|(l, _)| *l != last)
        {
            found.push((last, compactor));
        }
    }
    found.sort_by_key(|(l, _)| *l);
    found
}

/// Checks one cell's result; returns its label for the table.
fn check(
    compactor: &Compactor,
    original: &[Message],
    result: &Result<Outcome, CompactError>,
) -> Result<&'static str, String> {
    match result {
        Ok(outcome) => {
            let limit = compactor.budget().absolute_limit;
            let tokens = compactor.assess(&outcome.messages).total_tokens;
            if tokens > limit {
                return Err(format!("{tokens} tokens over the limit {limit}"));
            }
            validate(original, &outcome.messages, tokens, limit)
                .and_then(|()| validate_format(Format::OpenAi, original, &outcome.messages))
                .map_err(|e| format!("invalid result: {e}"))?;
            Ok(match outcome.status {
                Status::Compacted { target_met: true } => "compacted",
                Status::Compacted { target_met: false } => "best fit",
                _ if outcome.messages != original => {
                    return Err("unchanged status, changed messages".into());
                }
                Status::NoProgress => "no progress",
                _ => "skipped",
            })
        }
        Err(CompactError::Validation(e)) => Err(format!("validation refused a result: {e}")),
        Err(CompactError::SummaryFailed { .. }) => Ok("SUMMARY_FAILED"),
        Err(CompactError::ContextOverflow { .. }) => Ok("CONTEXT_OVERFLOW"),
        Err(CompactError::Cancelled) => Ok("cancelled"),
        Err(other) => Err(format!("unexpected error: {other}")),
    }
}

/// What the cells came to.
#[derive(Default)]
struct Tally {
    table: BTreeMap<(Fault, Mode), Vec<String>>,
    runs: usize,
    cancelled_runs: usize,
    panics: usize,
    restored: usize,
    failures: Vec<String>,
}

impl Tally {
    fn failed(&mut self, cell: &str, why: &str, panicked: bool) {
        self.panics += usize::from(panicked);
        self.failures.push(format!("{cell}: {why}"));
    }

    fn print(&self) {
        println!(
            "\n{:<14} {:<10} | {:<34} | {:<34} | {:<34}",
            "fault", "on", "ends at MODERATE", "ends at AGGRESSIVE", "ends at MAXIMUM"
        );
        println!("{}", "-".repeat(14 + 10 + 3 * 37 + 2));
        for ((fault, mode), cells) in &self.table {
            let mode = match (fault, mode) {
                (Fault::None, _) => "-",
                (_, Mode::Always) => "every",
                (_, Mode::FirstOnly) => "first",
            };
            let cells: Vec<String> = cells.iter().map(|c| format!("{c:<34}")).collect();
            println!(
                "{:<14} {mode:<10} | {}",
                format!("{fault:?}"),
                cells.join(" | ")
            );
        }
        println!(
            "runs {} (cancelled at every poll: {}); artifact refs restored in {} answers; panics {}; broken, over-limit or lossy results {}",
            self.runs,
            self.cancelled_runs,
            self.restored,
            self.panics,
            self.failures.len() - self.panics
        );
    }
}

/// One cell: the whole run, checked; then a run cancelled before each of its polls.
fn cell(
    tally: &mut Tally,
    compactor: &Compactor,
    original: &[Message],
    fault: Fault,
    mode: Mode,
    level: Level,
) {
    let name = format!("{fault:?} {mode:?} {level}");
    let session = name.replace(' ', "-");
    let begin = || {
        compactor.clear_cache();
        compactor
            .begin(&session, original.to_vec(), Trigger::Proactive, 0)
            .expect("begin")
    };
    let whole = catch_unwind(AssertUnwindSafe(|| {
        let mut run = begin();
        let (result, steps) = drive(&mut run, fault, mode, None);
        (result, steps, run.events())
    }));
    tally.runs += 1;
    let Ok((result, steps, events)) = whole else {
        return tally.failed(&name, "panicked", true);
    };
    tally.restored += events
        .iter()
        .filter(|e| matches!(e, Event::ArtifactRefsRestored { .. }))
        .count();
    let label = check(compactor, original, &result).unwrap_or_else(|why| {
        tally.failed(&name, &why, false);
        "FAILED"
    });
    // Cancelled before each poll: `Cancelled`, nothing applied, and it stays cancelled.
    let mut cancels_ok = 0;
    for k in 0..steps {
        let cancelled = catch_unwind(AssertUnwindSafe(|| {
            let mut run = begin();
            let (result, _) = drive(&mut run, fault, mode, Some(k));
            (result, run.poll())
        }));
        tally.runs += 1;
        tally.cancelled_runs += 1;
        match cancelled {
            Ok((Err(CompactError::Cancelled), Step::Failed(CompactError::Cancelled))) => {
                cancels_ok += 1;
            }
            // The run ended before poll k: that is the uncancelled result.
            Ok((other, _)) if k + 1 == steps && other.is_ok() == result.is_ok() => {
                cancels_ok += 1;
            }
            Ok((other, _)) => {
                let why = format!("cancelled at {k} of {steps}: {:?}", other.map(|o| o.status));
                tally.failed(&name, &why, false);
            }
            Err(_) => tally.failed(&name, &format!("cancelled at {k}: panicked"), true),
        }
    }
    tally
        .table
        .entry((fault, mode))
        .or_default()
        .push(format!("{label} · cancel {cancels_ok}/{steps}"));
}

#[test]
fn the_fault_matrix() {
    let original = conversation();
    let windows = windows(&original);
    assert_eq!(
        windows.iter().map(|(l, _)| *l).collect::<Vec<_>>(),
        [Level::Moderate, Level::Aggressive, Level::Maximum],
        "a window ending at each summarizing level (tokens {})",
        tokens_of(&original)
    );
    let mut tally = Tally::default();
    for fault in FAULTS {
        for mode in [Mode::Always, Mode::FirstOnly] {
            if fault == Fault::None && mode == Mode::FirstOnly {
                continue;
            }
            for (level, compactor) in &windows {
                cell(&mut tally, compactor, &original, fault, mode, *level);
            }
        }
    }
    tally.print();
    assert!(tally.failures.is_empty(), "{}", tally.failures.join("\n"));
}
