//! `compactor replay`: replays a trajectory call by call and prices it
//! ([`compactor::replay`]), for one policy or several side by side.

use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Args;
use compactor::engine::{CompactionConfig, Compactor};
use compactor::message::Message;
use compactor::policy::PRICE_PRESETS;
use compactor::replay::{Policy, Prices, Replay, Rule, Totals, replay};
use serde_json::json;

use crate::clock::SystemClock;
use crate::failure::{Failure, print, say};
use crate::input::{BudgetArgs, InputArgs, View};
use crate::summarizer::{SummarizerArgs, SummarizerKind, Threaded};
use crate::words::thousands;

/// Arguments of `compactor replay`.
#[derive(Args, Debug)]
pub struct ReplayArgs {
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    budget: BudgetArgs,
    #[command(flatten)]
    summarizer: SummarizerArgs,
    #[command(flatten)]
    prices: PriceArgs,
    /// Replay other policies beside the configured one, in one table with a
    /// keep-everything row and trimming on every call: `target=0.5,0.3` (any numbers).
    #[arg(long, value_parser = parse_compare, value_name = "target=R,R…")]
    compare: Option<Targets>,
    /// Print the figures, and each call's, as JSON.
    #[arg(long)]
    json: bool,
}

/// Prices per token, relative to an uncached input token.
#[derive(Args, Debug, Clone)]
pub struct PriceArgs {
    /// Prices as a provider bills them: `default` (cache reads 0.1, writes 1.0),
    /// `openai` and `anthropic` (writes 1.25), `anthropic-1h` (writes 2.0); summary output
    /// 4.0 in all. The flags below override a preset's prices one by one.
    #[arg(long, default_value = "default", value_parser = preset_names())]
    pub prices: String,
    /// A prompt token read from the provider's cache.
    #[arg(long)]
    pub cached_price: Option<f64>,
    /// A prompt token past the cached prefix, written to the cache (in place of the
    /// uncached price: 1.0 adds nothing, Anthropic's five-minute cache is 1.25).
    #[arg(long)]
    pub cache_write_price: Option<f64>,
    /// A summary token the summarizer returns.
    #[arg(long)]
    pub output_price: Option<f64>,
}

fn preset_names() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(PRICE_PRESETS.map(|(name, _)| name))
}

impl PriceArgs {
    /// The prices, checked: the preset's, each overridden where a flag gives one.
    pub fn prices(&self) -> Result<Prices, Failure> {
        let preset = Prices::preset(&self.prices).unwrap_or_default();
        let prices = Prices {
            cached: self.cached_price.unwrap_or(preset.cached),
            cache_write: self.cache_write_price.unwrap_or(preset.cache_write),
            output: self.output_price.unwrap_or(preset.output),
        };
        if prices.is_valid() {
            Ok(prices)
        } else {
            Err(Failure::Input(
                "prices must be finite numbers of at least 0".into(),
            ))
        }
    }
}

/// The targets of `--compare`.
#[derive(Debug, Clone)]
pub struct Targets(pub Vec<f64>);

fn parse_compare(text: &str) -> Result<Targets, String> {
    let list = text
        .strip_prefix("target=")
        .ok_or_else(|| format!("expected target=R,R…, got {text:?}"))?;
    list.split(',')
        .map(|r| {
            r.trim()
                .parse::<f64>()
                .ok()
                .filter(|r| r.is_finite() && *r > 0.0 && *r < 1.0)
                .ok_or_else(|| format!("{r:?} is not a ratio between 0 and 1"))
        })
        .collect::<Result<_, _>>()
        .map(Targets)
}

/// One replayed policy: its name and what it did.
struct Row {
    name: String,
    replay: Replay,
}

/// Runs `compactor replay`.
pub fn run(args: &ReplayArgs) -> Result<(), Failure> {
    let conversation = args.input.read(View::Run)?;
    let prices = args.prices.prices()?;
    let config = CompactionConfig {
        prices,
        ..args.budget.compaction_config(&args.summarizer)
    };
    let mut policies = vec![("configured".to_owned(), policy(&config, Rule::Session)?)];
    if let Some(Targets(targets)) = &args.compare {
        for &target in targets {
            let mut config = config.clone();
            config.budget.target_ratio = Some(target);
            policies.push((format!("target {target}"), policy(&config, Rule::Session)?));
        }
        policies.push(("trim every call".into(), policy(&config, Rule::Trim)?));
    }
    policies.push((
        "keep everything".into(),
        policy(&config, Rule::KeepEverything)?,
    ));
    let mut rows = Vec::new();
    for (name, policy) in policies {
        let replay = replay_one(&conversation.messages, &policy, &prices, args, &name)?;
        rows.push(Row { name, replay });
    }
    let file = args.input.file.display().to_string();
    if args.json {
        let rows: Vec<_> = rows
            .iter()
            .map(|row| json!({ "policy": row.name, "totals": row.replay.totals(), "calls": row.replay.calls }))
            .collect();
        let text = serde_json::to_string_pretty(
            &json!({ "file": file, "prices": prices, "policies": rows }),
        )
        .map_err(|e| Failure::Other(e.to_string()))?;
        return print(&(text + "\n"));
    }
    print(&render(&file, &prices, &rows))
}

fn policy(config: &CompactionConfig, rule: Rule) -> Result<Policy, Failure> {
    let compactor = Compactor::new(config.clone()).map_err(|e| Failure::Input(e.to_string()))?;
    Ok(Policy { compactor, rule })
}

/// Replays one policy, its progress on stderr at most every half second.
fn replay_one(
    messages: &[Message],
    policy: &Policy,
    prices: &Prices,
    args: &ReplayArgs,
    name: &str,
) -> Result<Replay, Failure> {
    let started = Instant::now();
    let mut shown = started;
    let mut progress = |done: usize, calls: usize| {
        if shown.elapsed() >= Duration::from_millis(500) {
            shown = Instant::now();
            let at = started.elapsed().as_secs_f64();
            say(&format!("[{at:5.1}s] {name}: {done}/{calls} calls"));
        }
    };
    let plain = args.summarizer.summarizer == SummarizerKind::Extractive
        && args.summarizer.fail_rate == 0.0
        && args.summarizer.fail_every.is_none()
        && args.summarizer.hang_every.is_none()
        && args.summarizer.latency == 0;
    let replay = if plain {
        // Answers at once on this thread: no request thread, no timer.
        futures_executor::block_on(replay(
            messages,
            policy,
            prices,
            &compactor::extractive::Extractive,
            &Stopped,
            &mut progress,
        ))
    } else {
        let summarizer = Threaded(Arc::new(args.summarizer.build(&args.budget.model)?));
        futures_executor::block_on(replay(
            messages,
            policy,
            prices,
            &summarizer,
            &SystemClock,
            &mut progress,
        ))
    };
    Ok(replay)
}

/// A clock for a summarizer that answers at once: its deadlines never come.
pub(crate) struct Stopped;

impl compactor::driver::Clock for Stopped {
    fn now_ms(&self) -> u64 {
        0
    }

    fn sleep_until(&self, _: u64) -> impl std::future::Future<Output = ()> {
        std::future::pending()
    }
}

/// The table: one row per policy.
fn render(file: &str, prices: &Prices, rows: &[Row]) -> String {
    let calls = rows.first().map_or(0, |r| r.replay.calls.len());
    let mut out = format!(
        "{file}: {calls} calls; prices per token: cached {}, cache write {}, summary output {} (uncached input 1)\n\n",
        prices.cached, prices.cache_write, prices.output
    );
    out.push_str(
        "policy              cost   cache  mean prompt  peak prompt  compactions  over window  facts seen\n",
    );
    for row in rows {
        out.push_str(&line(&row.name, &row.replay.totals()));
    }
    if let Some(row) = rows.first() {
        out.push_str(&format!(
            "\nwriting each call's new tokens once: {:.2}× — no policy pays less; compaction saves on the rest, the cached reads\n",
            row.replay.totals().floor
        ));
    }
    for row in rows {
        if let Some(error) = &row.replay.first_failure {
            out.push_str(&format!(
                "\n{}: {} compaction runs failed, the first: {error}\n",
                row.name, row.replay.failures
            ));
        }
    }
    out
}

fn line(name: &str, t: &Totals) -> String {
    format!(
        "{name:<18} {:>5.2}× {:>5.0}% {:>12} {:>12} {:>12} {:>12} {:>11.2}\n",
        t.relative_cost,
        t.cache_share * 100.0,
        thousands(t.mean_prompt.round() as u64),
        thousands(t.peak_prompt),
        t.compactions,
        t.over_window,
        t.facts_seen,
    )
}
