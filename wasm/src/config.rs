//! `new Compactor(config)`: the fields of the config object, read into the core's
//! `CompactionConfig`, and their TypeScript declaration — both from one table.
//!
//! A field is one row: its JS name, its TypeScript type, its doc, and how it is read
//! (`set`: the field's value, absent or not; `or`: the value, else the core's default;
//! `with`: a reader of its own). The hand-written reader stays (serde would cost the lite
//! package its size budget, see `fields`).

use compactor::budget::DEFAULT_MAX_MESSAGES;
use compactor::engine::CompactionConfig;
use compactor::tokens::Encoding;
use wasm_bindgen::prelude::*;

use crate::convert::encoding_named;
use crate::error::Failure;
use crate::fields::Fields;

/// The table: the rows make `CONFIG_FIELDS` (the names `Fields` accepts), the
/// `CompactorConfig` interface of the typings, and `read_fields`.
macro_rules! config_fields {
    ($($js:literal: $ts:literal, $doc:literal => $how:ident $kind:ident $($target:ident).+;)*) => {
        /// The fields of `new Compactor(config)` (`CompactorConfig`).
        pub(crate) const CONFIG_FIELDS: &[&str] = &[$($js),*];

        #[wasm_bindgen(typescript_custom_section)]
        const COMPACTOR_CONFIG: &'static str = concat!(
            "\n/** `new Compactor(config)`. Every number left out comes from the model catalog, else a default. */\n",
            "export interface CompactorConfig {\n",
            $("  /** ", $doc, " */\n  ", $js, "?: ", $ts, ";\n",)*
            "}\n"
        );

        /// Each field of `fields` into `config`, in table order.
        fn read_fields(config: &mut CompactionConfig, fields: &Fields) -> Result<(), Failure> {
            $(config_fields!(@$how $kind, fields, $js, config.$($target).+);)*
            Ok(())
        }
    };
    (@set $kind:ident, $fields:ident, $js:literal, $target:expr) => {
        $target = $fields.$kind($js)?
    };
    (@or $kind:ident, $fields:ident, $js:literal, $target:expr) => {
        if let Some(value) = $fields.$kind($js)? {
            $target = value;
        }
    };
    (@with $kind:ident, $fields:ident, $js:literal, $target:expr) => {
        $target = $kind($fields, $js)?
    };
}

config_fields! {
    "model": "string",
        "A catalog model (`gpt-4o`, `claude-sonnet-4-5`, …); unknown models need `maxContextTokens`."
        => set string budget.model;
    "maxContextTokens": "number",
        "The model's hard window."
        => set integer budget.max_context_tokens;
    "outputReserve": "number",
        "Tokens kept free for the answer (default: the model's max output, else 4096)."
        => set integer budget.output_reserve;
    "comfortTokens": "number",
        "Size past which answers degrade (default 128,000)."
        => set integer budget.comfort_tokens;
    "triggerRatio": "number",
        "Compaction starts above this share of the limit (default 0.92)."
        => set number budget.trigger_ratio;
    "targetRatio": "number",
        "A run stops at or below this share (default 0.75)."
        => set number budget.target_ratio;
    "maxMessages": "number | null",
        "The message-count signal (default 50); `null` turns it off."
        => with max_messages budget.max_messages;
    "keepRecentTurns": "number",
        "LIGHT and MODERATE keep at least this many recent turns raw, and more while they fit in `tailTokens` (default 4)."
        => or integer keep_recent_turns;
    "tailTokens": "number",
        "The raw tail's size: the newest turns up to this many tokens (default: half the run's target)."
        => set integer tail_tokens;
    "keepToolResults": "number",
        "LIGHT never clears the newest this many tool results (default 3)."
        => or integer keep_tool_results;
    "encoding": "EncodingName",
        "Overrides the model's tokenizer."
        => with encoding budget.encoding;
    "minTailTurns": "number",
        "The fewest turns AGGRESSIVE keeps raw (default 1); it keeps more while the target leaves room."
        => or integer min_tail_turns;
    "maxSummaryTokens": "number",
        "The largest summary asked for, in tokens (default 16,000): a ceiling, since each request asks for the room its plan leaves it."
        => or integer max_summary_tokens;
    "summaryModel": "string",
        "Handed to the summarizer in every request as `model` (default: `model`)."
        => set string summary_model;
    "instructions": "string",
        "What every summary should focus on, added to each summary prompt apart from the transcript (1 to 2,000 characters, not blank); part of the summary cache key."
        => set string instructions;
    "summaryProvider": "string",
        "Handed to the summarizer in every request as `provider`."
        => set string summary_provider;
    "summarizeOutputs": "boolean",
        "Hand tool outputs to the running summary's summarizer whole; by default (false) it reads each as its fact-keeping placeholder and the summary's fact ledger keeps the output's facts. Set it when the outputs are the information (web pages, documents)."
        => or bool summarize_outputs;
    "enableIncremental": "boolean",
        "Keep earlier summaries and summarize only what came since (default true)."
        => or bool enable_incremental;
    "maxFailures": "number",
        "Failed runs before a session's circuit opens (default 3)."
        => or integer max_failures;
    "breakerCooldownMs": "number",
        "An open circuit closes by itself after this long; absent: only `resetCircuit` closes it."
        => set integer breaker_cooldown_ms;
    "minMessages": "number",
        "Below this many messages a run is skipped (default 4)."
        => or integer min_messages;
    "clearAtLeast": "number",
        "LIGHT clears at least this many tokens or nothing (default 1000)."
        => or integer clear_at_least;
    "maxPreservedUserTokens": "number",
        "MODERATE keeps old user messages verbatim up to this many tokens (default 2000)."
        => or integer max_preserved_user_tokens;
    "summarizerInputTokens": "number",
        "The summarizer's input window: larger inputs are map-reduced (default 64,000)."
        => or integer summarizer_input_tokens;
    "requestTimeoutMs": "number",
        "A request unanswered this long counts as failed (default 360,000 ms)."
        => or integer request_timeout_ms;
    "maxAttempts": "number",
        "Attempts per request when the summarizer answers that the input is too long (default 3)."
        => or integer max_attempts;
    "minReduction": "number",
        "A run that cannot cut this share of the tokens reports `noProgress` (default 0.05)."
        => or number min_reduction;
    "maxConcurrency": "number",
        "Summary requests in flight at once: `summarize` is never called more often at once (default 8)."
        => or integer max_concurrency;
    "cacheCapacity": "number",
        "Summaries the cache keeps (shared by cloned handles); the least recently used go first (default 1024)."
        => or integer cache_capacity;
    "sessionCapacity": "number",
        "Sessions whose breaker and latest result the handle remembers; the least recently used go first (default 1024)."
        => or integer session_capacity;
    "extractiveFallback": "boolean",
        "When a session's circuit is open, or a MAXIMUM summary fails, compact with the built-in offline extractive summarizer instead of rejecting (default false); the report's `extractiveFallback` and an `extractiveFallback` event say so."
        => with extractive_fallback extractive_fallback;
    "cachedPrice": "number",
        "A cached prompt token's price, relative to uncached input (default 0.1): the session's default policy weighs it."
        => or number prices.cached;
    "cacheWritePrice": "number",
        "A prompt token written past the cached prefix, in place of the uncached price (default 1.0)."
        => or number prices.cache_write;
    "outputPrice": "number",
        "A summary token's price, relative to uncached input (default 4)."
        => or number prices.output;
}

/// The config object read into the core's config.
pub(crate) fn read(config: &JsValue) -> Result<CompactionConfig, Failure> {
    let fields = Fields::new(config, "config", CONFIG_FIELDS)?;
    let mut compaction = CompactionConfig::default();
    read_fields(&mut compaction, &fields)?;
    Ok(compaction)
}

/// `config.maxMessages`: `null` turns the message-count signal off.
fn max_messages(config: &Fields, name: &str) -> Result<Option<usize>, Failure> {
    Ok(match config.value(name)? {
        Some(off) if off.is_null() => None,
        given => Some(
            config
                .integer_of(name, given)?
                .unwrap_or(DEFAULT_MAX_MESSAGES),
        ),
    })
}

/// `config.encoding`: a tokenizer by name; `null` or absent keeps the model's.
fn encoding(config: &Fields, name: &str) -> Result<Option<Encoding>, Failure> {
    match config.value(name)? {
        Some(name_given) if !name_given.is_null() => {
            Ok(Some(encoding_named(&name_given, &config.path(name))?))
        }
        _ => Ok(None),
    }
}

/// `config.extractiveFallback`, which needs the built-in summarizer (not in the lite
/// package).
fn extractive_fallback(config: &Fields, name: &str) -> Result<bool, Failure> {
    match config.bool(name)? {
        Some(true) if !cfg!(feature = "extractive") => Err(Failure::invalid(
            "config.extractiveFallback",
            "the lite package has no built-in summarizer: use @compactor-rs/compactor, \
             or catch CIRCUIT_OPEN and call resetCircuit with a summarizer of your own",
        )),
        asked => Ok(asked.unwrap_or(false)),
    }
}
