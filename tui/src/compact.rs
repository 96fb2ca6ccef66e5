//! `compactor compact`: compacts a conversation and writes it back in its own format.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use clap::{Args, ValueEnum};
use compactor::engine::{CompactError, Compactor, Event, Outcome, Trigger};

use crate::Failure;
use crate::input::{BudgetArgs, InputArgs};
use crate::plan::thousands;
use crate::summarizer::{SummarizerArgs, Threaded};
use crate::words::{event_line, status_words};

/// Arguments of `compactor compact`.
#[derive(Args, Debug)]
pub struct CompactArgs {
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    budget: BudgetArgs,
    /// Why compact: `proactive` only when a signal fired; `reactive` the provider refused
    /// the request as too long; `manual` always, towards the target.
    #[arg(long, value_enum, default_value = "proactive")]
    reason: TriggerArg,
    #[command(flatten)]
    summarizer: SummarizerArgs,
    /// Write the compacted conversation here (same format as the input).
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Write the report as JSON here.
    #[arg(long)]
    report: Option<PathBuf>,
    /// Print each event to stderr as it happens (levels, requests sent and answered).
    #[arg(long)]
    progress: bool,
}

#[derive(ValueEnum, Debug, Clone, Copy)]
enum TriggerArg {
    Proactive,
    Reactive,
    Manual,
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// Runs `compactor compact`.
pub fn run(args: &CompactArgs) -> Result<(), Failure> {
    let conversation = args.input.read()?;
    let budget = args.budget.budget()?;
    let config = args
        .budget
        .compaction_config(args.summarizer.summary_model.clone());
    let summarizer = Threaded(Arc::new(args.summarizer.build(&args.budget.model)?));
    let compactor = Compactor::new(config).map_err(|e| Failure::Input(e.to_string()))?;
    debug_assert_eq!(compactor.budget(), &budget);
    let trigger = match args.reason {
        TriggerArg::Proactive => Trigger::Proactive,
        TriggerArg::Reactive => Trigger::Reactive,
        TriggerArg::Manual => Trigger::Manual,
    };
    let mut run = compactor
        .begin("cli", conversation.messages.clone(), trigger, now_ms())
        .map_err(|e| Failure::Input(e.to_string()))?;
    run.check_format(conversation.format);
    let mut log = Vec::new();
    let started = Instant::now();
    let result = futures_executor::block_on(compactor::driver::drive(
        &mut run,
        &summarizer,
        compactor.config().max_concurrency,
        &now_ms,
        &mut |event| {
            if args.progress {
                let at = started.elapsed().as_secs_f64();
                crate::say(&format!("[{at:6.1}s] {}", event_line(event).text));
            }
            log.push(event.clone());
        },
    ));
    let outcome = result.map_err(|e: CompactError| {
        Failure::Other(format!("compaction failed, conversation unchanged: {e}"))
    })?;
    if let Some(path) = &args.output {
        // Laid out as the input was, so that untouched messages are the input's own
        // lines: `diff` shows only what the run rewrote.
        let text = conversation.to_json(&outcome.messages).to_string();
        std::fs::write(path, text + "\n")
            .map_err(|e| Failure::Other(format!("{}: {e}", path.display())))?;
    }
    if let Some(path) = &args.report {
        let text = serde_json::to_string_pretty(&serde_json::json!({ "status": outcome.status, "report": outcome.report, "events": log }))
            .map_err(|e| Failure::Other(e.to_string()))?;
        std::fs::write(path, text + "\n")
            .map_err(|e| Failure::Other(format!("{}: {e}", path.display())))?;
    }
    crate::print(&render(
        &args.input.file.display().to_string(),
        &outcome,
        &log,
    ))
}

fn render(name: &str, outcome: &Outcome, events: &[Event]) -> String {
    let r = &outcome.report;
    let status = status_words(&outcome.status);
    let mut out = format!(
        "{name}: {status}\ntokens: {} → {} (target {}), messages: {} → {}\n",
        thousands(r.tokens_before),
        thousands(r.tokens_after),
        thousands(r.target_tokens),
        r.messages_before,
        r.messages_after
    );
    for level in &r.levels {
        out.push_str(&format!(
            "  {:<10} {:>9} → {:>9} tokens  requests {}  cache hits {}  failures {}\n",
            level.level.as_str(),
            thousands(level.tokens_before),
            thousands(level.tokens_after),
            level.requests,
            level.cache_hits,
            level.failures
        ));
    }
    let fallbacks = events
        .iter()
        .filter(|e| matches!(e, Event::FallbackTaken { .. }))
        .count();
    out.push_str(&format!(
        "requests {} · cache hits {} · failures {} · fallbacks {} · summarizer input {} tokens\n",
        r.requests,
        r.cache_hits,
        r.failures,
        fallbacks,
        thousands(r.summary_input_tokens)
    ));
    out
}
