//! Values crossing the boundary: the caller's messages and options read (as JSON text,
//! see the crate docs), core outputs handed back as plain JS objects.

use compactor::format::{self, Conversation, Format, ParseOptions};
use compactor::tokens::Encoding;
use compactor::wire;
use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::error::{Code, Failure, Js, js_message};
use crate::fields::{self, Fields, type_of};

/// The options of `assess` and `calibrate` (`ReadOptions`).
pub(crate) const READ_OPTIONS: &[&str] = &["format", "lenient"];

/// The options of `plan` and `session` (`PinOptions`): how to read the messages, and what
/// the caller pins.
pub(crate) const PIN_OPTIONS: &[&str] = &["format", "lenient", "pin", "compactable"];

/// `format` and `lenient` of an options object: how to read the messages (`None`: in the
/// format detected from them).
pub(crate) fn read_format(options: &Fields) -> Result<(Option<Format>, bool), Failure> {
    let format = match options.string("format")? {
        Some(name) => Some(wire::format_named::<Js>(&name, &options.path("format"))?),
        None => None,
    };
    Ok((format, options.bool("lenient")?.unwrap_or(false)))
}

/// An encoding named by `value` at `path`.
pub(crate) fn encoding_named(value: &JsValue, path: &str) -> Result<Encoding, Failure> {
    let Some(name) = value.as_string() else {
        return Err(Failure::invalid(
            path,
            format!("expected an encoding name, found {}", fields::shown(value)),
        ));
    };
    Ok(wire::encoding_named(&name, path)?)
}

/// `value` read as JSON (what `JSON.stringify` makes of it), or an error at `path`;
/// `undefined` is `None`.
///
/// The text reaches wasm as UTF-8 bytes of exactly its length: a JS string handed over as
/// a `String` is first given room for three bytes a character, which for a conversation of
/// megabytes is the largest block the module ever asks for, and linear memory never shrinks.
pub(crate) fn read_json(value: &JsValue, path: &str) -> Result<Option<serde_json::Value>, Failure> {
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
        .map_err(|e| Failure::invalid(path, wire::without_position(&e)))
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

/// Parses the caller's messages in the format the options name.
pub(crate) fn read_messages(
    messages: &JsValue,
    options: &JsValue,
) -> Result<Vec<compactor::message::Message>, Failure> {
    let (format, lenient) = read_format(&Fields::new(options, "options", READ_OPTIONS)?)?;
    Ok(read_conversation(messages, format, lenient)?.messages)
}

/// Parses the caller's messages as `format` (`None`: the one detected from them), keeping
/// what writing them back needs.
pub(crate) fn read_conversation(
    messages: &JsValue,
    format: Option<Format>,
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
    // Undecided, a conversation is OpenAI's; what is not one at all is refused by its reader.
    let format = format
        .or_else(|| Format::detect(&json))
        .unwrap_or(Format::OpenAi);
    Ok(format::parse_value(json, format, ParseOptions { lenient })?)
}

/// A JSON value as the JS value `JSON.parse` makes of it: exact for every number the
/// input held, which serde-wasm-bindgen is not for integers past 2^53.
pub(crate) fn json_to_js(value: &impl AsValue) -> JsValue {
    // Serializing a `Value` cannot fail, and its text is valid JSON.
    let text = serde_json::to_string(&value.as_value()).unwrap_or_else(|_| "null".to_owned());
    js_sys::JSON::parse(&text).unwrap_or(JsValue::NULL)
}

/// JSON to hand to JS: a `Value`, or a conversation written back.
pub(crate) trait AsValue {
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
pub(crate) fn session_id_of(value: &JsValue, path: &str) -> Result<String, Failure> {
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
pub(crate) fn to_js<T: Serialize>(value: &T) -> Result<JsValue, Failure> {
    parse_js(wire::json(value))
}

/// JSON text made by the core as a JS value: one copy of this for every type serialized,
/// not one each.
pub(crate) fn parse_js(text: Result<String, wire::Failure<Js>>) -> Result<JsValue, Failure> {
    js_sys::JSON::parse(&text?)
        .map_err(|_| Failure::new(Code::Internal, "result not representable"))
}
