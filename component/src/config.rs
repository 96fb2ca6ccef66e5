//! The `config` record and the other plain inputs: format and encoding names, messages.

use compactor::budget::BudgetConfig;
use compactor::engine::CompactionConfig;
use compactor::format::{self, Conversation, Format, ParseOptions};
use compactor::select::DEFAULT_KEEP_RECENT_TURNS;
use compactor::wire;

use crate::error::Failure;

/// The WIT `config` record: every field left out comes from the model catalog, else the
/// engine's default.
#[derive(Debug, Clone, Default, PartialEq)]
#[allow(missing_docs)] // Each field is the core's `CompactionConfig` field of that name.
pub struct Config {
    pub model: Option<String>,
    pub max_context_tokens: Option<u64>,
    pub output_reserve: Option<u64>,
    pub comfort_tokens: Option<u64>,
    pub trigger_ratio: Option<f64>,
    pub target_ratio: Option<f64>,
    /// The message-count signal; `Some(0)` turns it off.
    pub max_messages: Option<u64>,
    pub keep_recent_turns: Option<u32>,
    pub tail_tokens: Option<u64>,
    pub keep_tool_results: Option<u32>,
    pub encoding: Option<String>,
    pub min_tail_turns: Option<u32>,
    pub max_summary_tokens: Option<u64>,
    pub summary_model: Option<String>,
    pub summary_provider: Option<String>,
    pub enable_incremental: Option<bool>,
    pub max_failures: Option<u32>,
    pub breaker_cooldown_ms: Option<u64>,
    pub min_messages: Option<u32>,
    pub clear_at_least: Option<u64>,
    pub max_preserved_user_tokens: Option<u64>,
    pub summarizer_input_tokens: Option<u64>,
    pub request_timeout_ms: Option<u64>,
    pub max_attempts: Option<u32>,
    pub min_reduction: Option<f64>,
    pub max_concurrency: Option<u32>,
    pub cache_capacity: Option<u32>,
    pub session_capacity: Option<u32>,
    pub extractive_fallback: Option<bool>,
    pub summarize_outputs: Option<bool>,
    pub instructions: Option<String>,
    pub cached_price: Option<f64>,
    pub cache_write_price: Option<f64>,
    pub output_price: Option<f64>,
}

/// A count that must fit the platform's `usize` (always true on wasm32 for a `u32`).
fn count(value: Option<u32>, default: usize) -> usize {
    value.map_or(default, |v| v as usize)
}

impl Config {
    /// The core's configuration. Numbers are checked by the core when the compactor is
    /// built; here only names are read.
    pub fn to_core(&self) -> Result<CompactionConfig, Failure> {
        let defaults = CompactionConfig::default();
        let encoding = self
            .encoding
            .as_deref()
            .map(|name| wire::encoding_named(name, "config.encoding"))
            .transpose()?;
        let max_messages = match self.max_messages {
            Some(0) => None,
            Some(n) => Some(usize::try_from(n).unwrap_or(usize::MAX)),
            None => Some(compactor::budget::DEFAULT_MAX_MESSAGES),
        };
        Ok(CompactionConfig {
            summarize_outputs: self.summarize_outputs.unwrap_or(defaults.summarize_outputs),
            budget: BudgetConfig {
                model: self.model.clone(),
                max_context_tokens: self.max_context_tokens,
                output_reserve: self.output_reserve,
                comfort_tokens: self.comfort_tokens,
                trigger_ratio: self.trigger_ratio,
                target_ratio: self.target_ratio,
                max_messages,
                encoding,
            },
            keep_recent_turns: count(self.keep_recent_turns, DEFAULT_KEEP_RECENT_TURNS),
            tail_tokens: self.tail_tokens,
            min_tail_turns: count(self.min_tail_turns, defaults.min_tail_turns),
            keep_tool_results: count(self.keep_tool_results, defaults.keep_tool_results),
            max_summary_tokens: self
                .max_summary_tokens
                .unwrap_or(defaults.max_summary_tokens),
            summary_model: self.summary_model.clone(),
            summary_provider: self.summary_provider.clone(),
            enable_incremental: self
                .enable_incremental
                .unwrap_or(defaults.enable_incremental),
            max_failures: self.max_failures.unwrap_or(defaults.max_failures),
            breaker_cooldown_ms: self.breaker_cooldown_ms,
            min_messages: count(self.min_messages, defaults.min_messages),
            clear_at_least: self.clear_at_least.unwrap_or(defaults.clear_at_least),
            max_preserved_user_tokens: self
                .max_preserved_user_tokens
                .unwrap_or(defaults.max_preserved_user_tokens),
            summarizer_input_tokens: self
                .summarizer_input_tokens
                .unwrap_or(defaults.summarizer_input_tokens),
            request_timeout_ms: self
                .request_timeout_ms
                .unwrap_or(defaults.request_timeout_ms),
            max_attempts: self.max_attempts.unwrap_or(defaults.max_attempts),
            min_reduction: self.min_reduction.unwrap_or(defaults.min_reduction),
            max_concurrency: count(self.max_concurrency, defaults.max_concurrency),
            cache_capacity: count(self.cache_capacity, defaults.cache_capacity),
            session_capacity: count(self.session_capacity, defaults.session_capacity),
            extractive_fallback: self
                .extractive_fallback
                .unwrap_or(defaults.extractive_fallback),
            instructions: self.instructions.clone(),
            prices: compactor::policy::Prices {
                cached: self.cached_price.unwrap_or(defaults.prices.cached),
                cache_write: self
                    .cache_write_price
                    .unwrap_or(defaults.prices.cache_write),
                output: self.output_price.unwrap_or(defaults.prices.output),
            },
        })
    }
}

/// The format `name` (`openai`, `anthropic`, `ai-sdk`; the npm spelling `aiSdk` too).
pub fn format_named(name: &str) -> Result<Format, Failure> {
    let name = if name == "aiSdk" { "ai-sdk" } else { name };
    Format::parse_name(name).ok_or_else(|| {
        Failure::invalid(
            "format",
            format!("unknown format {name:?} (expected \"openai\", \"anthropic\" or \"ai-sdk\")"),
        )
    })
}

/// How to read a conversation (the WIT `read-options`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReadOptions {
    /// `openai`, `anthropic` or `ai-sdk`; `None` detects it.
    pub format: Option<String>,
    /// Keep unknown roles and parts as pinned, opaque messages instead of failing.
    pub lenient: bool,
}

/// Reads `text` as a conversation in the format the options name, or in the one detected
/// from it. Messages keep their text: untouched ones are written back byte for byte.
pub fn read_conversation(text: &str, read: &ReadOptions) -> Result<Conversation, Failure> {
    let options = ParseOptions {
        lenient: read.lenient,
    };
    let conversation = match read.format.as_deref() {
        Some(name) => format::parse_str(text, format_named(name)?, options),
        None => format::parse_str_auto(text, options),
    }?;
    Ok(conversation)
}
