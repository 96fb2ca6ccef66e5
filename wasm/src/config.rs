//! `new Compactor(config)`: the fields of the config object, read into the core's
//! `CompactionConfig`.

use compactor::budget::{BudgetConfig, DEFAULT_MAX_MESSAGES};
use compactor::engine::CompactionConfig;
use compactor::select::DEFAULT_KEEP_RECENT_TURNS;
use wasm_bindgen::JsValue;

use crate::convert::encoding_named;
use crate::error::Failure;
use crate::fields::Fields;

/// The fields of `new Compactor(config)` (`CompactorConfig`): the numbers, the tail policy,
/// the tokenizer, and how runs behave (the core's `CompactionConfig`, camelCase).
pub(crate) const CONFIG_FIELDS: &[&str] = &[
    "model",
    "maxContextTokens",
    "outputReserve",
    "comfortTokens",
    "triggerRatio",
    "targetRatio",
    "maxMessages",
    "keepRecentTurns",
    "tailTokens",
    "keepToolResults",
    "encoding",
    "minTailTurns",
    "maxSummaryTokens",
    "summaryModel",
    "summaryProvider",
    "enableIncremental",
    "maxFailures",
    "breakerCooldownMs",
    "minMessages",
    "clearAtLeast",
    "maxPreservedUserTokens",
    "summarizerInputTokens",
    "requestTimeoutMs",
    "maxAttempts",
    "minReduction",
    "maxConcurrency",
    "cacheCapacity",
    "sessionCapacity",
    "extractiveFallback",
];

/// The config object read: the core's config, and the turns the plan's tail keeps.
pub(crate) fn read(config: &JsValue) -> Result<(CompactionConfig, usize), Failure> {
    let config = Fields::new(config, "config", CONFIG_FIELDS)?;
    let defaults = CompactionConfig::default();
    let keep_recent_turns = config
        .integer("keepRecentTurns")?
        .unwrap_or(DEFAULT_KEEP_RECENT_TURNS);
    let compaction = CompactionConfig {
        budget: read_budget(&config)?,
        keep_recent_turns,
        tail_tokens: config.integer("tailTokens")?,
        keep_tool_results: config
            .integer("keepToolResults")?
            .unwrap_or(defaults.keep_tool_results),
        min_tail_turns: config
            .integer("minTailTurns")?
            .unwrap_or(defaults.min_tail_turns),
        max_summary_tokens: config
            .integer("maxSummaryTokens")?
            .unwrap_or(defaults.max_summary_tokens),
        summary_model: config.string("summaryModel")?,
        summary_provider: config.string("summaryProvider")?,
        enable_incremental: config
            .bool("enableIncremental")?
            .unwrap_or(defaults.enable_incremental),
        max_failures: config
            .integer("maxFailures")?
            .unwrap_or(defaults.max_failures),
        breaker_cooldown_ms: config.integer("breakerCooldownMs")?,
        min_messages: config
            .integer("minMessages")?
            .unwrap_or(defaults.min_messages),
        clear_at_least: config
            .integer("clearAtLeast")?
            .unwrap_or(defaults.clear_at_least),
        max_preserved_user_tokens: config
            .integer("maxPreservedUserTokens")?
            .unwrap_or(defaults.max_preserved_user_tokens),
        summarizer_input_tokens: config
            .integer("summarizerInputTokens")?
            .unwrap_or(defaults.summarizer_input_tokens),
        request_timeout_ms: config
            .integer("requestTimeoutMs")?
            .unwrap_or(defaults.request_timeout_ms),
        max_attempts: config
            .integer("maxAttempts")?
            .unwrap_or(defaults.max_attempts),
        min_reduction: config
            .number("minReduction")?
            .unwrap_or(defaults.min_reduction),
        max_concurrency: config
            .integer("maxConcurrency")?
            .unwrap_or(defaults.max_concurrency),
        cache_capacity: config
            .integer("cacheCapacity")?
            .unwrap_or(defaults.cache_capacity),
        session_capacity: config
            .integer("sessionCapacity")?
            .unwrap_or(defaults.session_capacity),
        extractive_fallback: extractive_fallback(config.bool("extractiveFallback")?)?,
    };
    Ok((compaction, keep_recent_turns))
}

/// `config.extractiveFallback`, which needs the built-in summarizer (not in the lite
/// package).
fn extractive_fallback(asked: Option<bool>) -> Result<bool, Failure> {
    match asked {
        Some(true) if !cfg!(feature = "extractive") => Err(Failure::invalid(
            "config.extractiveFallback",
            "the lite package has no built-in summarizer: use @compactor-rs/compactor, \
             or catch CIRCUIT_OPEN and call resetCircuit with a summarizer of your own",
        )),
        asked => Ok(asked.unwrap_or(false)),
    }
}

/// The numbers of `config`: model, window, reserve, ratios, message signal, encoding.
fn read_budget(config: &Fields) -> Result<BudgetConfig, Failure> {
    // `null` turns the message-count signal off.
    let max_messages = match config.value("maxMessages")? {
        Some(off) if off.is_null() => None,
        given => Some(
            config
                .integer_of("maxMessages", given)?
                .unwrap_or(DEFAULT_MAX_MESSAGES),
        ),
    };
    let encoding = match config.value("encoding")? {
        Some(name) if !name.is_null() => Some(encoding_named(&name, &config.path("encoding"))?),
        _ => None,
    };
    Ok(BudgetConfig {
        model: config.string("model")?,
        max_context_tokens: config.integer("maxContextTokens")?,
        output_reserve: config.integer("outputReserve")?,
        comfort_tokens: config.integer("comfortTokens")?,
        trigger_ratio: config.number("triggerRatio")?,
        target_ratio: config.number("targetRatio")?,
        max_messages,
        encoding,
    })
}
