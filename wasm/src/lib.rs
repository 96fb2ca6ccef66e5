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
//! [`Code`]) and, for bad input, a `path`. Nothing input can reach panics: a panic
//! would poison the module for every later call.

mod callbacks;
mod config;
mod convert;
mod error;
mod extractive;
mod fields;
mod live;
mod loaded;
mod run;
mod store;
mod types;

use compactor::format::Format;
use compactor::tokens::Encoding;
use compactor::wire::{self, Handle, Host, apply_pins};
use convert::{
    PIN_OPTIONS, READ_OPTIONS, encoding_named, parse_js, read_conversation, read_format, read_json,
    read_messages, session_id_of, to_js,
};
use fields::{Fields, type_of};
use live::SessionHandle;
use wasm_bindgen::prelude::*;

pub use error::{Code, Failure, Js};

/// Panics are bugs; when one happens anyway, its message reaches the console.
#[wasm_bindgen(start)]
fn start() {
    console_error_panic_hook::set_once();
}

/// The format of a conversation, as the engine detects it from its first decisive sign:
/// `"openai"`, `"anthropic"`, `"aiSdk"`, `"openaiResponses"` or `"gemini"`; `null` when it
/// is not a list of messages (or a body holding one).
#[wasm_bindgen(js_name = detectFormat, unchecked_return_type = "MessageFormat | null")]
pub fn detect_format(
    #[wasm_bindgen(unchecked_param_type = "unknown")] conversation: JsValue,
) -> Result<JsValue, JsValue> {
    let Some(json) = read_json(&conversation, "conversation")? else {
        return Ok(JsValue::NULL);
    };
    Ok(match Format::detect(&json) {
        Some(format) => wire::names::format_name(format, Js::SPELLING).into(),
        None => JsValue::NULL,
    })
}

/// Keeps a JS conversation inside the model's context window.
///
/// Cheap to clone with [`Compactor::clone_handle`]: clones share the engine — token memo,
/// calibration, summary cache and circuit breakers.
#[wasm_bindgen]
pub struct Compactor {
    handle: Handle,
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
        Ok(Compactor {
            handle: Handle::new::<Js>(config::read(config)?, loaded::counter)?,
        })
    }

    /// A session handle `id` (it keys the circuit breaker and results, as `sessionId` does
    /// for `compact`) holding `messages` (none when `undefined`), read as `options.format`
    /// says. `options.pin` pins messages by index, `options.compactable: false` opts the
    /// session out (see `Session.pin`). Throws `INVALID_INPUT` for bad messages or pins.
    #[wasm_bindgen(unchecked_return_type = "Session")]
    pub fn session(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "Conversation")] messages: Option<JsValue>,
        #[wasm_bindgen(unchecked_optional_param_type = "PinOptions")] options: Option<JsValue>,
    ) -> Result<SessionHandle, JsValue> {
        let id = session_id_of(&id, "id")?;
        Ok(live::open(&self.handle, &id, messages, options)?)
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
        Ok(parse_js(self.handle.assess(&messages))?)
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
        apply_pins::<Js>(&mut conversation, &options.pins()?).map_err(Failure::from)?;
        Ok(parse_js(self.handle.plan(conversation.messages))?)
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
        self.handle
            .engine()
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
            handle: self.handle.clone(),
        }
    }

    /// Closes a session's circuit breaker and forgets its failures: `compact` runs again.
    #[wasm_bindgen(js_name = resetCircuit)]
    pub fn reset_circuit(
        &self,
        #[wasm_bindgen(js_name = sessionId, unchecked_param_type = "string")] session_id: JsValue,
    ) -> Result<(), JsValue> {
        let session = session_id_of(&session_id, "sessionId")?;
        self.handle.engine().reset_circuit(&session);
        Ok(())
    }

    /// Forgets every cached summary, for every handle cloned from this one.
    /// The engine's memory as plain, JSON-safe data: every session's breaker and latest
    /// result, and the summary cache. Store it beside the session; `importState` continues
    /// from it in another worker (or the native engine).
    #[wasm_bindgen(js_name = exportState, unchecked_return_type = "EngineState")]
    pub fn export_state(&self) -> Result<JsValue, JsValue> {
        Ok(parse_js(self.handle.export_state())?)
    }

    /// Merges an exported state into this handle and its clones. A state of another
    /// version, or damaged, throws `INVALID_INPUT` naming the path, and nothing is imported.
    #[wasm_bindgen(js_name = importState)]
    pub fn import_state(
        &self,
        #[wasm_bindgen(unchecked_param_type = "EngineState")] state: JsValue,
    ) -> Result<(), JsValue> {
        let Some(value) = read_json(&state, "state")? else {
            return Err(Failure::invalid("state", "expected an object, found undefined").into());
        };
        Ok(self
            .handle
            .import_state::<Js>(&value)
            .map_err(Failure::from)?)
    }

    #[wasm_bindgen(js_name = clearCache)]
    pub fn clear_cache(&self) {
        self.handle.engine().clear_cache();
    }

    /// How many summaries the shared cache holds.
    #[wasm_bindgen(getter, js_name = cacheSize)]
    pub fn cache_size(&self) -> u32 {
        u32::try_from(self.handle.engine().cache_len()).unwrap_or(u32::MAX)
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
        Ok(self
            .handle
            .engine()
            .token_count_hint(&session)
            .map(|t| t as f64))
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
        run::compact(self.handle.clone(), &messages, &options)
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
        store::compact_session(self.handle.clone(), &store, &session_id, &options)
    }

    /// The resolved numbers.
    #[wasm_bindgen(getter, unchecked_return_type = "Budget")]
    pub fn budget(&self) -> Result<JsValue, JsValue> {
        Ok(parse_js(self.handle.budget())?)
    }

    /// The counter in use: `o200k_base`, `cl100k_base` or `estimate` (an exact encoding
    /// neither embedded nor loaded with `loadEncoding` is counted by the estimator).
    #[wasm_bindgen(getter)]
    pub fn counter(&self) -> String {
        self.handle.engine().accountant().counter_name().to_owned()
    }

    /// The calibration in force.
    #[wasm_bindgen(getter, unchecked_return_type = "Calibration")]
    pub fn calibration(&self) -> Result<JsValue, JsValue> {
        Ok(to_js(&self.handle.engine().accountant().calibration())?)
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
        Ok(self.handle.count_tokens(&text, encoding) as f64)
    }

    /// How many message counts the shared memo holds.
    #[wasm_bindgen(getter, js_name = memoSize)]
    pub fn memo_size(&self) -> u32 {
        u32::try_from(self.handle.engine().accountant().memo_len()).unwrap_or(u32::MAX)
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
    let violations =
        compactor::format::check::check(conversation.format, &conversation.messages).err();
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
    Ok(loaded::counter(encoding.unwrap_or(Encoding::O200kBase)).count(&text) as f64)
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

/// The error codes a `CompactorError` may carry, for `switch`es that want to be
/// exhaustive at run time.
#[wasm_bindgen(js_name = errorCodes, unchecked_return_type = "ErrorCode[]")]
pub fn error_codes() -> Vec<JsValue> {
    Code::ALL
        .iter()
        .map(|code| JsValue::from_str(code.as_str()))
        .collect()
}
