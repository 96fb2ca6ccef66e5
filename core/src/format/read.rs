//! Reading a conversation: from a `Value` or from text, in a named or detected format.

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::conversation::Envelope;
use super::ids::IdAssigner;
use super::verbatim::{self, Layout, Original, Text};
use super::{
    Conversation, Format, FormatError, ParseOptions, aisdk, anthropic, gemini, index, kind_of,
    openai, responses,
};
use crate::message::Message;

/// Parses `json` as `format`.
pub fn parse(
    json: &Value,
    format: Format,
    options: ParseOptions,
) -> Result<Conversation, FormatError> {
    read(Source::of(json), format, options)
}

/// Parses `json` as `format`, as [`parse`] does, keeping `json`'s values as the messages'
/// originals instead of copies of them: for a large conversation, half the memory.
pub fn parse_value(
    json: Value,
    format: Format,
    options: ParseOptions,
) -> Result<Conversation, FormatError> {
    read(Source::owned(json), format, options)
}

fn read(
    source: Source<'_>,
    format: Format,
    options: ParseOptions,
) -> Result<Conversation, FormatError> {
    match format {
        Format::OpenAi => openai::read(source, options),
        Format::Anthropic => anthropic::read(source, options),
        Format::AiSdk => aisdk::read(source, options),
        Format::OpenAiResponses => responses::read(source, options),
        Format::Gemini => gemini::read(source, options),
    }
}

/// Parses `json` in the format [`Format::detect`] names; input with no recognizable
/// format is an error at path `$`.
pub fn parse_auto(json: &Value, options: ParseOptions) -> Result<Conversation, FormatError> {
    parse(json, detected(json)?, options)
}

fn detected(json: &Value) -> Result<Format, FormatError> {
    Format::detect(json).ok_or_else(|| {
        FormatError::new(
            "$",
            format!(
                "expected an array of messages or an object with \"messages\", found {}",
                kind_of(json)
            ),
        )
    })
}

/// Parses JSON text as `format`; text that is not JSON is an error at path `$`. The
/// conversation keeps the text of every message and of every field of a request body, and
/// writes them back byte for byte ([`Conversation::to_json`]).
pub fn parse_str(
    text: &str,
    format: Format,
    options: ParseOptions,
) -> Result<Conversation, FormatError> {
    let json = from_text(text)?;
    read(Source::text(json, text, format.list_key()), format, options)
}

/// Parses JSON text in the format [`Format::detect`] names, as [`parse_str`] does.
pub fn parse_str_auto(text: &str, options: ParseOptions) -> Result<Conversation, FormatError> {
    let json = from_text(text)?;
    let format = detected(&json)?;
    read(Source::text(json, text, format.list_key()), format, options)
}

pub(super) fn from_text(text: &str) -> Result<Value, FormatError> {
    verbatim::read(text).map_err(|e| FormatError::new("$", format!("not JSON: {e}")))
}

/// What a conversation is read from: its JSON, and the text of its parts when it was
/// read from text.
pub(crate) struct Source<'a> {
    /// Owned when the conversation may keep its values as the originals.
    json: Cow<'a, Value>,
    /// The texts of the messages, in order.
    items: Option<Vec<Text>>,
    /// The texts of a request body's fields other than `messages`.
    fields: Vec<(String, Text)>,
    layout: Layout,
}

impl<'a> Source<'a> {
    pub(crate) fn of(json: &'a Value) -> Self {
        Self::with(Cow::Borrowed(json))
    }

    fn owned(json: Value) -> Self {
        Self::with(Cow::Owned(json))
    }

    fn with(json: Cow<'a, Value>) -> Self {
        Self {
            json,
            items: None,
            fields: Vec::new(),
            layout: Layout::Compact,
        }
    }

    /// `json`, read from `text`: with its texts when the `verbatim` feature keeps them.
    #[cfg(not(feature = "verbatim"))]
    fn text(json: Value, _text: &str, _key: &str) -> Self {
        Self::owned(json)
    }

    /// `json`, read from `text`; `key` names the list in a request body.
    #[cfg(feature = "verbatim")]
    fn text(json: Value, text: &str, key: &str) -> Self {
        fn owned(items: Vec<&serde_json::value::RawValue>) -> Vec<Text> {
            items.into_iter().map(ToOwned::to_owned).collect()
        }
        let mut source = Self::owned(json);
        source.layout = Layout::of(text);
        // The text parsed as `json` just now: splitting it cannot fail, and if it did the
        // conversation would only lose its texts, not its messages.
        match &*source.json {
            Value::Array(_) => source.items = verbatim::items(text).ok().map(owned),
            Value::Object(_) => {
                if let Ok(fields) = verbatim::fields(text) {
                    source.items = verbatim::field(&fields, key)
                        .and_then(|messages| verbatim::items(messages.get()).ok())
                        .map(owned);
                    source.fields = fields
                        .into_iter()
                        .filter(|(k, _)| k != key)
                        .map(|(key, text)| (key, text.to_owned()))
                        .collect();
                }
            }
            _ => {}
        }
        source
    }
}

/// A request body: the object around the messages.
pub(crate) type Body = Map<String, Value>;

/// The messages array of `json` — an array, or a request body with the list `key`
/// (`messages`, `input`, `contents`) — and the body around it.
pub(crate) fn messages_of<'a>(
    json: &'a Value,
    key: &str,
) -> Result<(&'a Vec<Value>, Option<&'a Body>), FormatError> {
    match json {
        Value::Array(items) => Ok((items, None)),
        Value::Object(body) => match body.get(key) {
            Some(Value::Array(items)) => Ok((items, Some(body))),
            Some(other) => Err(FormatError::new(
                key,
                format!("expected an array, found {}", kind_of(other)),
            )),
            None => Err(FormatError::new(
                "$",
                format!("expected an array of messages or an object with {key:?}"),
            )),
        },
        other => Err(FormatError::new(
            "$",
            format!("expected an array of messages, found {}", kind_of(other)),
        )),
    }
}

/// The items of `json`'s messages array, taken out (an empty array left in their place);
/// `None` when `json` holds no such array.
fn take_items(json: &mut Value, key: &str) -> Option<Vec<Value>> {
    let array = match json {
        Value::Array(items) => items,
        Value::Object(body) => match body.get_mut(key) {
            Some(Value::Array(items)) => items,
            _ => return None,
        },
        _ => return None,
    };
    Some(std::mem::take(array))
}

/// Reads a conversation in `format`: first the messages `leading` finds in the request
/// body around the messages array (Anthropic's top-level `system`; `None` when the input is
/// a bare array), then every item of the array read with `read` (given the item and its
/// path). Each message keeps its item's JSON (and text) beside it, and gets its
/// content-derived id in that order.
pub(crate) fn read_conversation(
    source: Source<'_>,
    format: Format,
    leading: impl FnOnce(Option<&Envelope>) -> Result<Vec<(Message, Original)>, FormatError>,
    mut read: impl FnMut(&Value, &str) -> Result<Message, FormatError>,
) -> Result<Conversation, FormatError> {
    let key = format.list_key();
    let mut json = source.json;
    // An owned input gives its messages to the conversation as their originals; a
    // borrowed one gives copies.
    let owned_items = match &mut json {
        Cow::Owned(json) => take_items(json, key),
        Cow::Borrowed(_) => None,
    };
    let (items, body) = messages_of(&json, key)?;
    let items = owned_items.unwrap_or_else(|| items.clone());
    let envelope = body.map(|body| {
        let mut texts = source.fields;
        let mut fields = Vec::with_capacity(body.len());
        for (field, value) in body {
            let original = if field == key {
                Original::new(Value::Null, None)
            } else {
                // The last of a repeated key, as the `Value` kept it. `remove`, not
                // `swap_remove`: the texts left must stay in order for the next key's last.
                let text = texts.iter().rposition(|(k, _)| k == field);
                Original::new(value.clone(), text.map(|at| texts.remove(at).1))
            };
            fields.push((field.clone(), original));
        }
        Envelope(fields)
    });
    let mut parsed = leading(envelope.as_ref())?;
    let leads = parsed.len();
    parsed.reserve(items.len());
    let texts = source.items.filter(|texts| texts.len() == items.len());
    let mut texts = texts.into_iter().flatten();
    for (i, item) in items.into_iter().enumerate() {
        let message = read(&item, &index(key, i))?;
        parsed.push((message, Original::new(item, texts.next())));
    }
    let mut ids = IdAssigner::new();
    for (message, _) in &mut parsed {
        ids.assign(message);
    }
    let lead = (leads == 1).then(|| parsed[0].0.id.clone());
    let last_calls: Vec<_> = parsed
        .last()
        .map(|(m, _)| m.tool_calls().cloned().collect())
        .unwrap_or_default();
    let mut conversation = Conversation::new(format, parsed, envelope, source.layout);
    conversation.ids = ids;
    conversation.lead = lead;
    conversation.last_calls = last_calls.into();
    Ok(conversation)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_auto_uses_the_detected_format_and_explicit_formats_win() {
        let text = r#"[{"role":"user","content":[{"type":"text","text":"x"}]},{"role":"assistant","content":[{"type":"tool-call","toolCallId":"c","toolName":"f","input":{}}]}]"#;
        let auto = parse_str_auto(text, ParseOptions::default()).expect("ai sdk");
        assert_eq!(auto.format, Format::AiSdk);
        let forced =
            parse_str(text, Format::Anthropic, ParseOptions::default()).expect_err("not anthropic");
        assert_eq!(forced.path, "messages[1].content[0].type");
        assert_eq!(
            forced.message,
            r#""tool-call" is a part of the ai-sdk format, not anthropic"#
        );
        assert_eq!(
            parse_str_auto("7", ParseOptions::default())
                .expect_err("no format")
                .path,
            "$"
        );
    }

    #[cfg(feature = "verbatim")]
    #[test]
    fn a_repeated_body_key_writes_back_the_last_one() {
        // The last of a repeated key is the one a JSON reader keeps, and the one the
        // request meant: it writes back as its own text, whatever fields come before it.
        let text = r#"{"model": "m", "max_tokens": 10, "system": "s", "tools": "first",
            "tools": [ {"name": "f"} ], "messages": [{"role": "user", "content": "hi"}]}"#;
        let conversation =
            parse_str(text, Format::Anthropic, ParseOptions::default()).expect("parses");
        let written = serde_json::to_string(&conversation.to_json(&conversation.messages))
            .expect("serializes");
        assert!(
            written.contains(r#""tools":[ {"name": "f"} ]"#),
            "{written}"
        );
        assert!(!written.contains("first"), "{written}");
    }
}
