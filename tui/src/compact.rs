//! `compactor compact`: compacts a conversation and writes it back in its own format.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use clap::{Args, ValueEnum};
use compactor::engine::{CompactError, Compactor, EngineState, Event, Outcome, Status, Trigger};

use crate::clock::SystemClock;
use crate::failure::Failure;
use crate::input::{BudgetArgs, InputArgs, View};
use crate::summarizer::{SummarizerArgs, Threaded};
use crate::words::thousands;
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
    /// The engine's state (breakers, latest results, summary cache) as JSON: read before
    /// the run when the file exists, written back after it, so repeated runs share a cache
    /// and a breaker, as an agent's worker would (the npm package reads the same format).
    #[arg(long)]
    state: Option<PathBuf>,
    /// The session the run belongs to (breaker, cache and idempotency are per session).
    #[arg(long, default_value = "cli")]
    session: String,
}

#[derive(ValueEnum, Debug, Clone, Copy)]
enum TriggerArg {
    Proactive,
    Reactive,
    Manual,
}

/// Runs `compactor compact`.
pub fn run(args: &CompactArgs) -> Result<(), Failure> {
    let conversation = args.input.read(View::Context)?;
    let budget = args.budget.budget()?;
    let config = args.budget.compaction_config(&args.summarizer);
    let summarizer = Threaded(Arc::new(args.summarizer.build(&args.budget.model)?));
    let compactor = Compactor::new(config).map_err(|e| Failure::Input(e.to_string()))?;
    if let Some(path) = &args.state {
        load_state(&compactor, path)?;
    }
    debug_assert_eq!(compactor.budget(), &budget);
    let trigger = match args.reason {
        TriggerArg::Proactive => Trigger::Proactive,
        TriggerArg::Reactive => Trigger::Reactive,
        TriggerArg::Manual => Trigger::Manual,
    };
    let begun = compactor.begin(
        &args.session,
        conversation.messages.clone(),
        trigger,
        crate::clock::now_ms(),
    );
    let mut run = match begun {
        Ok(run) => run,
        Err(e @ CompactError::CircuitOpen { .. }) => {
            return Err(Failure::Other(format!("compaction refused: {e}")));
        }
        Err(e) => return Err(Failure::Input(e.to_string())),
    };
    run.check_format(conversation.format);
    let mut log = Vec::new();
    let started = Instant::now();
    let result = futures_executor::block_on(compactor::driver::drive(
        &mut run,
        &summarizer,
        &SystemClock,
        &mut |event| {
            if args.progress {
                let at = started.elapsed().as_secs_f64();
                crate::failure::say(&format!("[{at:6.1}s] {}", event_line(event).text));
            }
            log.push(event.clone());
        },
    ));
    if let Some(path) = &args.state {
        save_state(&compactor, path)?;
    }
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
    crate::failure::print(&render(
        &args.input.file.display().to_string(),
        &outcome,
        &log,
    ))
}

/// Imports the state in `path`, when the file exists.
fn load_state(compactor: &Compactor, path: &Path) -> Result<(), Failure> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(Failure::Input(format!("{}: {e}", path.display()))),
    };
    let json: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| Failure::Input(format!("{}: not JSON: {e}", path.display())))?;
    let state = EngineState::from_json(&json)
        .map_err(|e| Failure::Input(format!("{}: {e}", path.display())))?;
    compactor
        .import_state(state)
        .map_err(|e| Failure::Input(format!("{}: {e}", path.display())))
}

/// Writes the engine's state to `path`.
fn save_state(compactor: &Compactor, path: &Path) -> Result<(), Failure> {
    let text = serde_json::to_string_pretty(&compactor.export_state())
        .map_err(|e| Failure::Other(e.to_string()))?;
    std::fs::write(path, text + "\n")
        .map_err(|e| Failure::Other(format!("{}: {e}", path.display())))
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
        .filter(|e| {
            matches!(
                e,
                Event::FallbackTaken { .. } | Event::ExtractiveFallback { .. }
            )
        })
        .count();
    out.push_str(&format!(
        "requests {} · cache hits {} · failures {} · fallbacks {} · summarizer input {} tokens\n",
        r.requests,
        r.cache_hits,
        r.failures,
        fallbacks,
        thousands(r.summary_input_tokens)
    ));
    if matches!(outcome.status, Status::Compacted { .. }) {
        out.push_str(&r.lost_facts.summary_line());
        out.push('\n');
    }
    out
}
