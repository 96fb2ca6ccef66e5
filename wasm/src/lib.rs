//! compactor for JavaScript: a thin wasm-bindgen wrapper over the `compactor` engine.
//! It only converts — JS values in, core calls, plain JS objects out; every decision is
//! the engine's.
//!
//! # How values cross
//!
//! Inputs (config, messages, options) cross as JSON text: `JSON.stringify` on the JS side,
//! `serde_json` here. The format adapters need a `serde_json::Value` anyway, the result is
//! exactly what the provider would receive over HTTP (`toJSON` honoured, `undefined`
//! dropped), and serde_json's nesting limit (128) refuses pathologically deep input. A
//! direct walk of the JS object graph (serde-wasm-bindgen into a `Value`) has no such
//! limit, and wasm's stack lives in linear memory without a guard page: deep enough input
//! would overwrite the heap instead of trapping. Outputs are the core's own types and
//! cross through serde-wasm-bindgen in its JSON-compatible mode (numbers, not BigInts;
//! objects, not Maps).
//!
//! # Errors
//!
//! Every failure is a JS `Error` named `CompactorError` with a stable `code` (see
//! [`ErrorCode`]) and, for bad input, a `path`. Nothing input can reach panics: a panic
//! would poison the module for every later call.

mod error;
mod types;

use compactor::budget::{Budget, BudgetConfig, DEFAULT_MAX_MESSAGES};
use compactor::format::{self, Format, ParseOptions};
use compactor::message::Message;
use compactor::select::{DEFAULT_KEEP_RECENT_TURNS, TailPolicy};
use compactor::tokens::{Encoding, TokenAccountant};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize};
use wasm_bindgen::prelude::*;

pub use error::{ErrorCode, Failure};

/// Panics are bugs; when one happens anyway, its message reaches the console.
#[wasm_bindgen(start)]
fn start() {
    console_error_panic_hook::set_once();
}

/// The largest integer a JS number holds exactly.
const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// `new Compactor(config)`: the numbers, the tail policy and the tokenizer.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Config {
    model: Option<String>,
    max_context_tokens: Option<u64>,
    output_reserve: Option<u64>,
    comfort_tokens: Option<u64>,
    trigger_ratio: Option<f64>,
    target_ratio: Option<f64>,
    /// Absent: the default (50); `null`: off.
    #[serde(default, deserialize_with = "present")]
    max_messages: Option<Option<usize>>,
    keep_recent_turns: Option<usize>,
    encoding: Option<Encoding>,
}

/// Tells a field given as `null` (`Some(None)`) from a missing one (`None`).
fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

/// The options of `assess`, `plan` and `calibrate`.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ReadOptions {
    format: Option<String>,
    #[serde(default)]
    lenient: bool,
}

/// The format named in JS options. Known names of formats this build cannot read yet are
/// refused with a message saying so.
fn parse_format(name: Option<&str>) -> Result<Format, Failure> {
    match name.unwrap_or("openai") {
        "openai" => Ok(Format::OpenAi),
        other @ ("anthropic" | "aiSdk") => Err(Failure::invalid(
            "options.format",
            format!("format {other:?} is not supported by this version (supported: \"openai\")"),
        )),
        other => Err(Failure::invalid(
            "options.format",
            format!("unknown format {other:?} (expected \"openai\", \"anthropic\" or \"aiSdk\")"),
        )),
    }
}

/// `value` as JSON text, or an error at `path`; `undefined` is `None`.
fn json_text(value: &JsValue, path: &str) -> Result<Option<String>, Failure> {
    if value.is_undefined() {
        return Ok(None);
    }
    let text = js_sys::JSON::stringify(value).map_err(|thrown| {
        Failure::invalid(
            path,
            format!("not JSON-serializable: {}", js_message(&thrown)),
        )
    })?;
    match text.as_string() {
        Some(text) => Ok(Some(text)),
        None => Err(Failure::invalid(
            path,
            format!("not JSON-serializable: {}", type_of(value)),
        )),
    }
}

/// Deserializes JSON text into `T`, naming the path of the first bad value.
fn from_json<T: DeserializeOwned>(text: &str, path: &str) -> Result<T, Failure> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    serde_path_to_error::deserialize(&mut deserializer).map_err(|error| {
        let inner = error.path().to_string();
        let at = if inner == "." {
            path.to_owned()
        } else {
            format!("{path}.{inner}")
        };
        Failure::invalid(at, without_position(&error.into_inner()))
    })
}

/// A serde_json error without its `at line 1 column 23` suffix: the position is in JSON
/// text the caller never saw.
fn without_position(error: &serde_json::Error) -> String {
    let text = error.to_string();
    match text.rfind(" at line ") {
        Some(cut) if error.line() > 0 => text[..cut].to_owned(),
        _ => text,
    }
}

/// An optional object argument: `undefined` and `null` are the defaults.
fn optional<T: DeserializeOwned + Default>(value: &JsValue, path: &str) -> Result<T, Failure> {
    if value.is_null() {
        return Ok(T::default());
    }
    match json_text(value, path)? {
        None => Ok(T::default()),
        Some(text) => from_json(&text, path),
    }
}

/// The message of a thrown JS value.
fn js_message(thrown: &JsValue) -> String {
    thrown
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| thrown.as_string())
        .unwrap_or_else(|| "an exception was thrown".to_owned())
}

/// `typeof value`, for messages.
fn type_of(value: &JsValue) -> String {
    value.js_typeof().as_string().unwrap_or_default()
}

/// Parses the caller's messages in the format the options name.
fn read_messages(messages: &JsValue, options: &JsValue) -> Result<Vec<Message>, Failure> {
    let options: ReadOptions = optional(options, "options")?;
    let format = parse_format(options.format.as_deref())?;
    let Some(text) = json_text(messages, "messages")? else {
        return Err(Failure::invalid(
            "messages",
            "expected an array of messages, found undefined",
        ));
    };
    let json: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| Failure::invalid("messages", without_position(&e)))?;
    let parse_options = ParseOptions {
        lenient: options.lenient,
    };
    Ok(format::parse(&json, format, parse_options)?.messages)
}

/// A core output as a plain JS object.
fn to_js<T: Serialize>(value: &T) -> Result<JsValue, Failure> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        // Only numbers past 2^53 can fail, and the config refuses those.
        .map_err(|e| Failure::invalid("config", format!("result not representable: {e}")))
}

/// Keeps a JS conversation inside the model's context window.
///
/// Cheap to clone with [`Compactor::clone_handle`]: clones share the token memo.
#[wasm_bindgen]
pub struct Compactor {
    budget: Budget,
    tail: TailPolicy,
    accountant: TokenAccountant,
}

#[wasm_bindgen]
impl Compactor {
    /// Resolves the numbers (explicit value > model catalog > default) and picks the
    /// tokenizer. Throws `INVALID_INPUT` when they do not add up.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "CompactorConfig")] config: JsValue,
    ) -> Result<Compactor, JsValue> {
        Ok(Self::from_config(&config)?)
    }

    fn from_config(config: &JsValue) -> Result<Compactor, Failure> {
        let config: Config = optional(config, "config")?;
        let safe = [
            ("maxContextTokens", config.max_context_tokens),
            ("outputReserve", config.output_reserve),
            ("comfortTokens", config.comfort_tokens),
        ];
        for (name, value) in safe {
            if value.is_some_and(|v| v > MAX_SAFE_INTEGER) {
                return Err(Failure::invalid(
                    format!("config.{name}"),
                    "above Number.MAX_SAFE_INTEGER",
                ));
            }
        }
        let budget = BudgetConfig {
            model: config.model,
            max_context_tokens: config.max_context_tokens,
            output_reserve: config.output_reserve,
            comfort_tokens: config.comfort_tokens,
            trigger_ratio: config.trigger_ratio,
            target_ratio: config.target_ratio,
            max_messages: config.max_messages.unwrap_or(Some(DEFAULT_MAX_MESSAGES)),
            encoding: config.encoding,
        }
        .resolve()?;
        let keep_recent_turns = config
            .keep_recent_turns
            .unwrap_or(DEFAULT_KEEP_RECENT_TURNS);
        Ok(Compactor {
            tail: TailPolicy::for_budget(keep_recent_turns, &budget),
            accountant: TokenAccountant::new(budget.encoding.counter()),
            budget,
        })
    }

    /// Tokens and messages against the limits: which signals fired and where a run must
    /// bring the conversation. Pure; counts only messages the memo has not seen.
    #[wasm_bindgen(unchecked_return_type = "Assessment")]
    pub fn assess(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Conversation")] messages: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "ReadOptions")] options: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        let messages = read_messages(&messages, &options.unwrap_or_default())?;
        let assessment = compactor::overflow::assess(&self.accountant, &messages, &self.budget);
        Ok(to_js(&assessment)?)
    }

    /// The assessment, the segments (tool calls never apart from their results) and the
    /// raw tail: what a compaction would work on. Changes nothing.
    #[wasm_bindgen(unchecked_return_type = "Plan")]
    pub fn plan(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Conversation")] messages: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "ReadOptions")] options: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        let messages = read_messages(&messages, &options.unwrap_or_default())?;
        let plan = compactor::plan::plan(&self.accountant, &messages, &self.budget, &self.tail)
            .map_err(Failure::from)?;
        Ok(to_js(&plan)?)
    }

    /// Feeds back the prompt tokens the provider reported for `messages`, so later counts
    /// track the provider's tokenizer. Shared by every handle cloned from this one.
    pub fn calibrate(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Conversation")] messages: JsValue,
        #[wasm_bindgen(js_name = reportedPromptTokens, unchecked_param_type = "number")]
        reported_prompt_tokens: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "ReadOptions")] options: Option<JsValue>,
    ) -> Result<(), JsValue> {
        let reported = reported_prompt_tokens
            .as_f64()
            .filter(|n| n.is_finite() && *n >= 0.0 && n.fract() == 0.0)
            .ok_or_else(|| {
                Failure::invalid("reportedPromptTokens", "expected a non-negative integer")
            })?;
        let messages = read_messages(&messages, &options.unwrap_or_default())?;
        self.accountant.calibrate(&messages, reported as u64);
        Ok(())
    }

    /// Another handle on the same compactor: same numbers, shared token memo and
    /// calibration.
    #[wasm_bindgen(js_name = cloneHandle)]
    pub fn clone_handle(&self) -> Compactor {
        Compactor {
            budget: self.budget.clone(),
            tail: self.tail,
            accountant: self.accountant.clone(),
        }
    }

    /// The resolved numbers.
    #[wasm_bindgen(getter, unchecked_return_type = "Budget")]
    pub fn budget(&self) -> Result<JsValue, JsValue> {
        Ok(to_js(&self.budget)?)
    }

    /// The counter in use: `o200k_base`, `cl100k_base` or `estimate` (the lite package
    /// counts exact encodings with the estimator).
    #[wasm_bindgen(getter)]
    pub fn counter(&self) -> String {
        self.accountant.counter_name().to_owned()
    }

    /// The calibration in force.
    #[wasm_bindgen(getter, unchecked_return_type = "Calibration")]
    pub fn calibration(&self) -> Result<JsValue, JsValue> {
        Ok(to_js(&self.accountant.calibration())?)
    }

    /// How many message counts the shared memo holds.
    #[wasm_bindgen(getter, js_name = memoSize)]
    pub fn memo_size(&self) -> u32 {
        u32::try_from(self.accountant.memo_len()).unwrap_or(u32::MAX)
    }
}

/// Counts the tokens of `text` with `encoding` (default `o200k_base`). Without embedded
/// vocabularies (the lite package) exact encodings are counted by the estimator.
#[wasm_bindgen(js_name = countTokens)]
pub fn count_tokens(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "EncodingName")] encoding: Option<JsValue>,
) -> Result<f64, JsValue> {
    let text = text.as_string().ok_or_else(|| {
        Failure::invalid(
            "text",
            format!("expected a string, found {}", type_of(&text)),
        )
    })?;
    let encoding = encoding.unwrap_or_default();
    let encoding = if encoding.is_undefined() || encoding.is_null() {
        Encoding::O200kBase
    } else {
        let name = encoding.as_string().unwrap_or_default();
        Encoding::parse(&name).ok_or_else(|| {
            Failure::invalid(
                "encoding",
                format!(
                    "unknown encoding {:?} (expected \"o200k_base\", \"cl100k_base\" or \"estimate\")",
                    encoding.as_string().unwrap_or_else(|| type_of(&encoding))
                ),
            )
        })?
    };
    Ok(encoding.counter().count(&text) as f64)
}

/// The error codes a `CompactorError` may carry, for `switch`es that want to be
/// exhaustive at run time.
#[wasm_bindgen(js_name = errorCodes, unchecked_return_type = "ErrorCode[]")]
pub fn error_codes() -> Vec<JsValue> {
    ErrorCode::ALL
        .iter()
        .map(|code| JsValue::from_str(code.as_str()))
        .collect()
}
