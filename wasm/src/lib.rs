//! compactor for JavaScript: a thin wasm-bindgen wrapper over the `compactor` engine.
//! It only converts — JS values in, core calls, plain JS objects out; every decision is
//! the engine's.
//!
//! # How values cross
//!
//! Messages cross as JSON text: `JSON.stringify` on the JS side, `serde_json` here. The
//! format adapters need a `serde_json::Value` anyway, the result is exactly what the
//! provider would receive over HTTP (`toJSON` honoured, `undefined` dropped), and
//! serde_json's nesting limit (128) refuses pathologically deep input. A direct walk of the
//! JS object graph (serde-wasm-bindgen into a `Value`) has no such limit, and wasm's stack
//! lives in linear memory without a guard page: deep enough input would overwrite the heap
//! instead of trapping. Option objects (`config`, the options of each method) are flat and
//! are read field by field (the `fields` module). Outputs are the core's own types, serialized to
//! JSON text and handed to `JSON.parse`.
//!
//! # Errors
//!
//! Every failure is a JS `Error` named `CompactorError` with a stable `code` (see
//! [`ErrorCode`]) and, for bad input, a `path`. Nothing input can reach panics: a panic
//! would poison the module for every later call.

mod driver;
mod error;
mod extractive;
mod fields;
mod live;
mod store;
mod types;

use compactor::budget::{BudgetConfig, DEFAULT_MAX_MESSAGES};
use compactor::engine::{self, CompactionConfig};
use compactor::format::{self, Conversation, Format, ParseOptions};
use compactor::select::{DEFAULT_KEEP_RECENT_TURNS, TailPolicy};
use compactor::tokens::{Encoding, TokenAccountant, TokenCounter};
use fields::Fields;
use serde::Serialize;
use std::sync::Arc;
use wasm_bindgen::prelude::*;

pub use error::{ErrorCode, Failure};

/// Panics are bugs; when one happens anyway, its message reaches the console.
#[wasm_bindgen(start)]
fn start() {
    console_error_panic_hook::set_once();
}

/// The fields of `new Compactor(config)` (`CompactorConfig`): the numbers, the tail policy,
/// the tokenizer, and how runs behave (the core's `CompactionConfig`, camelCase).
const CONFIG_FIELDS: &[&str] = &[
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
    "instructions",
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

/// The options of `assess` and `calibrate` (`ReadOptions`).
const READ_OPTIONS: &[&str] = &["format", "lenient"];

/// The options of `plan` and `session` (`PinOptions`): how to read the messages, and what
/// the caller pins.
const PIN_OPTIONS: &[&str] = &["format", "lenient", "pin", "compactable"];

/// Applies the caller's pins to a conversation just read: `pin` indices count in its
/// messages array. An index past its end is `INVALID_INPUT` at `options.pin`.
fn apply_pins(conversation: &mut Conversation, pins: &compactor::pin::Pins) -> Result<(), Failure> {
    let given = compactor::pin::given_start(conversation.format, &conversation.messages);
    pins.apply(&mut conversation.messages, given)
        .map_err(|e| Failure::invalid("options.pin", e.to_string()))
}

/// `format` and `lenient` of an options object: how to read the messages.
fn read_format(options: &Fields) -> Result<(Format, bool), Failure> {
    let format = match options.string("format")? {
        None => Format::OpenAi,
        Some(name) => match name.as_str() {
            "openai" => Format::OpenAi,
            "anthropic" => Format::Anthropic,
            "aiSdk" => Format::AiSdk,
            other => {
                return Err(Failure::invalid(
                    options.path("format"),
                    format!(
                        "unknown format {other:?} (expected \"openai\", \"anthropic\" or \"aiSdk\")"
                    ),
                ));
            }
        },
    };
    Ok((format, options.bool("lenient")?.unwrap_or(false)))
}

/// An encoding named by `value` at `path`.
fn encoding_named(value: &JsValue, path: &str) -> Result<Encoding, Failure> {
    let Some(name) = value.as_string() else {
        return Err(Failure::invalid(
            path,
            format!("expected an encoding name, found {}", fields::shown(value)),
        ));
    };
    Encoding::parse(&name).ok_or_else(|| {
        Failure::invalid(
            path,
            format!(
                "unknown encoding {name:?} (expected \"o200k_base\", \"cl100k_base\" or \"estimate\")"
            ),
        )
    })
}

/// `value` read as JSON (what `JSON.stringify` makes of it), or an error at `path`;
/// `undefined` is `None`.
///
/// The text reaches wasm as UTF-8 bytes of exactly its length: a JS string handed over as
/// a `String` is first given room for three bytes a character, which for a conversation of
/// megabytes is the largest block the module ever asks for, and linear memory never shrinks.
fn read_json(value: &JsValue, path: &str) -> Result<Option<serde_json::Value>, Failure> {
    if value.is_undefined() {
        return Ok(None);
    }
    let text = js_sys::JSON::stringify(value).map_err(|thrown| {
        Failure::invalid(
            path,
            format!("not JSON-serializable: {}", js_message(&thrown)),
        )
    })?;
    if !JsValue::from(&text).is_string() {
        return Err(Failure::invalid(
            path,
            format!("not JSON-serializable: {}", type_of(value)),
        ));
    }
    // `TextEncoder` writes UTF-8 (a lone surrogate as U+FFFD), so the check passes; read
    // as `str`, the text goes through the JSON reader every other input uses.
    let bytes = TextEncoder::new().encode(&text).to_vec();
    let text = String::from_utf8(bytes).map_err(|_| Failure::invalid(path, "not UTF-8"))?;
    serde_json::from_str(&text)
        .map(Some)
        .map_err(|e| Failure::invalid(path, without_position(&e)))
}

#[wasm_bindgen]
extern "C" {
    /// The host's `TextEncoder` (every browser, Node, Deno, workers).
    type TextEncoder;
    #[wasm_bindgen(constructor)]
    fn new() -> TextEncoder;
    /// The string's UTF-8 bytes, in a JS `Uint8Array` of their length.
    #[wasm_bindgen(method)]
    fn encode(this: &TextEncoder, text: &js_sys::JsString) -> js_sys::Uint8Array;
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
fn read_messages(
    messages: &JsValue,
    options: &JsValue,
) -> Result<Vec<compactor::message::Message>, Failure> {
    let (format, lenient) = read_format(&Fields::new(options, "options", READ_OPTIONS)?)?;
    Ok(read_conversation(messages, format, lenient)?.messages)
}

/// Parses the caller's messages as `format`, keeping what writing them back needs.
fn read_conversation(
    messages: &JsValue,
    format: Format,
    lenient: bool,
) -> Result<Conversation, Failure> {
    // Through a `Value`, not `parse_str`: JavaScript's numbers are `f64`s, which a
    // `Value` holds exactly when serde_json reads floats exactly (the `exact-floats`
    // feature), and keeping each message's text as well costs the lite package 20 kB.
    let Some(json) = read_json(messages, "messages")? else {
        return Err(Failure::invalid(
            "messages",
            "expected an array of messages, found undefined",
        ));
    };
    Ok(format::parse_value(json, format, ParseOptions { lenient })?)
}

/// A JSON value as the JS value `JSON.parse` makes of it: exact for every number the
/// input held, which serde-wasm-bindgen is not for integers past 2^53.
fn json_to_js(value: &impl AsValue) -> JsValue {
    // Serializing a `Value` cannot fail, and its text is valid JSON.
    let text = serde_json::to_string(&value.as_value()).unwrap_or_else(|_| "null".to_owned());
    js_sys::JSON::parse(&text).unwrap_or(JsValue::NULL)
}

/// An exported engine state, read field by field with the path of the first thing wrong.
fn read_state(state: &JsValue) -> Result<engine::EngineState, Failure> {
    let Some(value) = read_json(state, "state")? else {
        return Err(Failure::invalid(
            "state",
            "expected an object, found undefined",
        ));
    };
    engine::EngineState::from_json(&value)
        .map_err(|e| Failure::invalid(format!("state.{}", e.path), e.message))
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

/// JSON to hand to JS: a `Value`, or a conversation written back.
trait AsValue {
    fn as_value(&self) -> std::borrow::Cow<'_, serde_json::Value>;
}

impl AsValue for serde_json::Value {
    fn as_value(&self) -> std::borrow::Cow<'_, serde_json::Value> {
        std::borrow::Cow::Borrowed(self)
    }
}

/// Through its `Value`: the conversation was read from a `Value` (see
/// `read_conversation`), so there is no input text to keep, and serializing the written
/// form itself would link the text-splitting code (20 kB gzipped) for nothing.
impl AsValue for format::Written<'_> {
    fn as_value(&self) -> std::borrow::Cow<'_, serde_json::Value> {
        std::borrow::Cow::Owned(self.to_value())
    }
}

/// A session id: a string.
fn session_id_of(value: &JsValue, path: &str) -> Result<String, Failure> {
    value.as_string().ok_or_else(|| {
        Failure::invalid(
            path,
            format!("expected a string, found {}", fields::describe(value)),
        )
    })
}

/// A core output as a plain JS object, through JSON text: one serializer (serde_json,
/// which the adapters need anyway) instead of a second one for JS values keeps the lite
/// package within its size budget, and `JSON.parse` builds objects faster than
/// property-by-property calls across the boundary.
fn to_js<T: Serialize>(value: &T) -> Result<JsValue, Failure> {
    parse_js(serde_json::to_string(value))
}

/// `to_js` past serializing: one copy for every type serialized, not one each.
fn parse_js(text: Result<String, serde_json::Error>) -> Result<JsValue, Failure> {
    let text =
        text.map_err(|e| Failure::invalid("config", format!("result not representable: {e}")))?;
    js_sys::JSON::parse(&text).map_err(|_| Failure::invalid("config", "result not representable"))
}

/// `plan()`'s output: the core's plan, with what each segment holds and where the
/// summaries stand (`Plan` in the typings).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PlanView<'a> {
    #[serde(flatten)]
    plan: &'a compactor::plan::Plan,
    segment_states: Vec<compactor::plan::SegmentState>,
    summaries: Vec<SummaryAt<'a>>,
}

/// A summary message of a planned conversation.
#[derive(Serialize)]
struct SummaryAt<'a> {
    /// Its index.
    message: usize,
    level: compactor::ladder::Level,
    /// The first and last message it stands for (their ids in the original conversation).
    covers: &'a [compactor::message::MessageId],
}

impl<'a> PlanView<'a> {
    fn of(plan: &'a compactor::plan::Plan, messages: &'a [compactor::message::Message]) -> Self {
        let summaries = messages
            .iter()
            .enumerate()
            .filter_map(|(message, m)| {
                let meta = m.compaction.as_ref()?;
                Some(SummaryAt {
                    message,
                    level: meta.level,
                    covers: &meta.covers,
                })
            })
            .collect();
        PlanView {
            plan,
            segment_states: plan.segment_states(messages),
            summaries,
        }
    }
}

/// The format of a conversation, as the engine detects it from its first decisive sign:
/// `"openai"`, `"anthropic"` or `"aiSdk"`; `null` when it is not a list of messages (or a
/// body holding one).
#[wasm_bindgen(js_name = detectFormat, unchecked_return_type = "MessageFormat | null")]
pub fn detect_format(
    #[wasm_bindgen(unchecked_param_type = "unknown")] conversation: JsValue,
) -> Result<JsValue, JsValue> {
    let Some(json) = read_json(&conversation, "conversation")? else {
        return Ok(JsValue::NULL);
    };
    Ok(match Format::detect(&json) {
        // The option's spelling: the command line's is `ai-sdk`.
        Some(Format::AiSdk) => "aiSdk".into(),
        Some(format) => format.as_str().into(),
        None => JsValue::NULL,
    })
}

/// Keeps a JS conversation inside the model's context window.
///
/// Cheap to clone with [`Compactor::clone_handle`]: clones share the engine — token memo,
/// calibration, summary cache and circuit breakers.
#[wasm_bindgen]
pub struct Compactor {
    engine: engine::Compactor,
    tail: TailPolicy,
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
        let config = Fields::new(config, "config", CONFIG_FIELDS)?;
        let defaults = CompactionConfig::default();
        let keep_recent_turns = config
            .integer("keepRecentTurns")?
            .unwrap_or(DEFAULT_KEEP_RECENT_TURNS);
        let config = CompactionConfig {
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
            instructions: config.string("instructions")?,
        };
        let budget = config.budget.resolve()?;
        let accountant = TokenAccountant::new(counter(budget.encoding));
        let engine = engine::Compactor::with_accountant(config, budget, accountant)?;
        Ok(Compactor {
            tail: TailPolicy::for_budget(keep_recent_turns, engine.budget()),
            engine,
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
        let assessment = self.engine.assess(&messages);
        Ok(to_js(&assessment)?)
    }

    /// The assessment, the segments (tool calls never apart from their results) and the
    /// raw tail: what a compaction would work on. Changes nothing.
    #[wasm_bindgen(unchecked_return_type = "Plan")]
    pub fn plan(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Conversation")] messages: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "PinOptions")] options: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        let options = options.unwrap_or_default();
        let options = Fields::new(&options, "options", PIN_OPTIONS)?;
        let (format, lenient) = read_format(&options)?;
        let mut conversation = read_conversation(&messages, format, lenient)?;
        apply_pins(&mut conversation, &options.pins()?)?;
        let mut messages = conversation.messages;
        // Summaries a run wrote, recognized by their marker as a run recognizes them.
        compactor::prune::recognize(&mut messages);
        let plan = compactor::plan::plan(
            self.engine.accountant(),
            &messages,
            self.engine.budget(),
            &self.tail,
        )
        .map_err(Failure::from)?;
        Ok(to_js(&PlanView::of(&plan, &messages))?)
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
        self.engine
            .accountant()
            .calibrate(&messages, reported as u64);
        Ok(())
    }

    /// Another handle on the same compactor: same numbers; shared token memo,
    /// calibration, summary cache and circuit breakers. Freeing one handle leaves the
    /// others working.
    #[wasm_bindgen(js_name = cloneHandle)]
    pub fn clone_handle(&self) -> Compactor {
        Compactor {
            engine: self.engine.clone(),
            tail: self.tail,
        }
    }

    /// Closes a session's circuit breaker and forgets its failures: `compact` runs again.
    #[wasm_bindgen(js_name = resetCircuit)]
    pub fn reset_circuit(
        &self,
        #[wasm_bindgen(js_name = sessionId, unchecked_param_type = "string")] session_id: JsValue,
    ) -> Result<(), JsValue> {
        let session = session_id_of(&session_id, "sessionId")?;
        self.engine.reset_circuit(&session);
        Ok(())
    }

    /// Forgets every cached summary, for every handle cloned from this one.
    /// The engine's memory as plain, JSON-safe data: every session's breaker and latest
    /// result, and the summary cache. Store it beside the session; `importState` continues
    /// from it in another worker (or the native engine).
    #[wasm_bindgen(js_name = exportState, unchecked_return_type = "EngineState")]
    pub fn export_state(&self) -> Result<JsValue, JsValue> {
        Ok(to_js(&self.engine.export_state())?)
    }

    /// Merges an exported state into this handle and its clones. A state of another
    /// version, or damaged, throws `INVALID_INPUT` naming the path, and nothing is imported.
    #[wasm_bindgen(js_name = importState)]
    pub fn import_state(
        &self,
        #[wasm_bindgen(unchecked_param_type = "EngineState")] state: JsValue,
    ) -> Result<(), JsValue> {
        Ok(self
            .engine
            .import_state(read_state(&state)?)
            .map_err(|e| Failure::invalid(format!("state.{}", e.path), e.message))?)
    }

    #[wasm_bindgen(js_name = clearCache)]
    pub fn clear_cache(&self) {
        self.engine.clear_cache();
    }

    /// How many summaries the shared cache holds.
    #[wasm_bindgen(getter, js_name = cacheSize)]
    pub fn cache_size(&self) -> u32 {
        u32::try_from(self.engine.cache_len()).unwrap_or(u32::MAX)
    }

    /// The tokens of the conversation the session's latest `compact` assessed, without
    /// counting anything: `undefined` before the first. An agent loop can skip `compact`
    /// while this is far below the trigger.
    #[wasm_bindgen(js_name = tokenCountHint)]
    pub fn token_count_hint(
        &self,
        #[wasm_bindgen(js_name = sessionId, unchecked_param_type = "string")] session_id: JsValue,
    ) -> Result<Option<f64>, JsValue> {
        let session = session_id_of(&session_id, "sessionId")?;
        Ok(self.engine.token_count_hint(&session).map(|t| t as f64))
    }

    /// Compacts `messages` when a limit is crossed: summaries are written by
    /// `options.summarize`, all of a level's requests at once (at most `maxConcurrency`
    /// in flight). Resolves to the conversation to use from now on, in the format it came
    /// in, with the report; rejects with a `CompactorError` and changes nothing.
    #[wasm_bindgen(unchecked_return_type = "Promise<CompactResult>")]
    pub fn compact(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Conversation")] messages: JsValue,
        #[wasm_bindgen(unchecked_param_type = "CompactOptions")] options: JsValue,
    ) -> js_sys::Promise {
        driver::compact(self.engine.clone(), &messages, &options)
    }

    /// Reads the session from `store`, compacts it, and writes the result back with the
    /// version read; a conversation left as it was is not written. Messages appended
    /// meanwhile are written after the result (`rebased`); any other change rejects with
    /// `CONFLICT` and nothing is written.
    #[wasm_bindgen(js_name = compactSession, unchecked_return_type = "Promise<SessionResult>")]
    pub fn compact_session(
        &self,
        #[wasm_bindgen(unchecked_param_type = "SessionStore")] store: JsValue,
        #[wasm_bindgen(js_name = sessionId, unchecked_param_type = "string")] session_id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "SessionOptions")] options: JsValue,
    ) -> js_sys::Promise {
        store::compact_session(self.engine.clone(), &store, &session_id, &options)
    }

    /// The resolved numbers.
    #[wasm_bindgen(getter, unchecked_return_type = "Budget")]
    pub fn budget(&self) -> Result<JsValue, JsValue> {
        Ok(to_js(self.engine.budget())?)
    }

    /// The counter in use: `o200k_base`, `cl100k_base` or `estimate` (an exact encoding
    /// neither embedded nor loaded with `loadEncoding` is counted by the estimator).
    #[wasm_bindgen(getter)]
    pub fn counter(&self) -> String {
        self.engine.accountant().counter_name().to_owned()
    }

    /// The calibration in force.
    #[wasm_bindgen(getter, unchecked_return_type = "Calibration")]
    pub fn calibration(&self) -> Result<JsValue, JsValue> {
        Ok(to_js(&self.engine.accountant().calibration())?)
    }

    /// `Compactor.loadEncoding(ranks, encoding = "o200k_base")`: counts `encoding`
    /// exactly from now on with `ranks`, the contents of its `.tiktoken` file
    /// (`Uint8Array` or string). Compactors constructed afterwards and `countTokens` use
    /// it; compactors constructed before keep their counter (their memo and calibration
    /// belong to it). Throws `INVALID_INPUT` (path `ranks`, naming the line) for a
    /// damaged file.
    #[wasm_bindgen(js_name = loadEncoding)]
    pub fn load_encoding(
        #[wasm_bindgen(unchecked_param_type = "Uint8Array | string")] ranks: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "VocabularyName")] encoding: Option<JsValue>,
    ) -> Result<(), JsValue> {
        Ok(loaded::load(&ranks, encoding.as_ref())?)
    }

    /// Counts the tokens of `text` with this compactor's tokenizer (`counter`), or with
    /// `encoding` when one is named. The raw count: calibration applies to messages.
    #[wasm_bindgen(js_name = countTokens)]
    pub fn count_tokens(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "EncodingName")] encoding: Option<JsValue>,
    ) -> Result<f64, JsValue> {
        let (text, encoding) = count_arguments(&text, encoding.as_ref())?;
        let count = match encoding {
            Some(encoding) => counter(encoding).count(&text),
            None => self.engine.accountant().counter().count(&text),
        };
        Ok(count as f64)
    }

    /// How many message counts the shared memo holds.
    #[wasm_bindgen(getter, js_name = memoSize)]
    pub fn memo_size(&self) -> u32 {
        u32::try_from(self.engine.accountant().memo_len()).unwrap_or(u32::MAX)
    }
}

/// The rules of its format that `messages` break, in message order: `[]` when the provider
/// would accept them. A stored conversation can be checked before it is sent.
#[wasm_bindgen(js_name = checkFormat, unchecked_return_type = "FormatViolation[]")]
pub fn check_format(
    #[wasm_bindgen(unchecked_param_type = "Conversation")] messages: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ReadOptions")] options: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let options = options.unwrap_or_default();
    let (format, lenient) = read_format(&Fields::new(&options, "options", READ_OPTIONS)?)?;
    let conversation = read_conversation(&messages, format, lenient)?;
    let violations = compactor::format::check::check(format, &conversation.messages).err();
    Ok(to_js(&violations.unwrap_or_default())?)
}

/// Counts the tokens of `text` with `encoding` (default `o200k_base`): with the vocabulary
/// `loadEncoding` loaded for it, else the embedded one, else the estimator.
#[wasm_bindgen(js_name = countTokens)]
pub fn count_tokens(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "EncodingName")] encoding: Option<JsValue>,
) -> Result<f64, JsValue> {
    let (text, encoding) = count_arguments(&text, encoding.as_ref())?;
    Ok(counter(encoding.unwrap_or(Encoding::O200kBase)).count(&text) as f64)
}

/// The text and the encoding (if named) of a `countTokens` call.
fn count_arguments(
    text: &JsValue,
    encoding: Option<&JsValue>,
) -> Result<(String, Option<Encoding>), Failure> {
    let text = text.as_string().ok_or_else(|| {
        Failure::invalid(
            "text",
            format!("expected a string, found {}", type_of(text)),
        )
    })?;
    let encoding = match encoding {
        Some(name) if !name.is_undefined() && !name.is_null() => {
            Some(encoding_named(name, "encoding")?)
        }
        _ => None,
    };
    Ok((text, encoding))
}

/// The counter for `encoding`: the vocabulary `loadEncoding` loaded for it, else the
/// embedded one, else the estimator.
fn counter(encoding: Encoding) -> Arc<dyn TokenCounter> {
    loaded::get(encoding).unwrap_or_else(|| encoding.counter())
}

/// The vocabularies `loadEncoding` loaded.
mod loaded {
    use super::{Failure, encoding_named, type_of};
    use compactor::tokens::{Encoding, Tiktoken, TokenCounter};
    use std::cell::RefCell;
    use std::sync::Arc;
    use wasm_bindgen::{JsCast, JsValue};

    thread_local! {
        /// By encoding. A wasm instance runs one thread, so this is the module's registry.
        static LOADED: RefCell<Vec<(Encoding, Arc<dyn TokenCounter>)>> =
            const { RefCell::new(Vec::new()) };
    }

    pub(super) fn get(encoding: Encoding) -> Option<Arc<dyn TokenCounter>> {
        LOADED.with_borrow(|loaded| {
            loaded
                .iter()
                .find(|(e, _)| *e == encoding)
                .map(|(_, c)| c.clone())
        })
    }

    /// Loads `ranks` for `encoding` (`o200k_base` when `undefined` or `null`).
    pub(super) fn load(ranks: &JsValue, encoding: Option<&JsValue>) -> Result<(), Failure> {
        let encoding = match encoding.filter(|e| !e.is_undefined() && !e.is_null()) {
            None => Encoding::O200kBase,
            Some(name) => match encoding_named(name, "encoding")? {
                Encoding::Estimate => {
                    return Err(Failure::invalid(
                        "encoding",
                        "the estimator has no vocabulary: expected \"o200k_base\" or \"cl100k_base\"",
                    ));
                }
                exact => exact,
            },
        };
        let bytes = if let Some(text) = ranks.as_string() {
            text.into_bytes()
        } else if let Some(array) = ranks.dyn_ref::<js_sys::Uint8Array>() {
            array.to_vec()
        } else {
            return Err(Failure::invalid(
                "ranks",
                format!(
                    "expected a Uint8Array or a string, found {}",
                    type_of(ranks)
                ),
            ));
        };
        let tiktoken =
            Tiktoken::from_ranks(encoding, &bytes).map_err(|e| Failure::invalid("ranks", e))?;
        LOADED.with_borrow_mut(|loaded| {
            loaded.retain(|(e, _)| *e != encoding);
            loaded.push((encoding, Arc::new(tiktoken)));
        });
        Ok(())
    }
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
