//! Provider message formats, read and written without loss.
//!
//! Three adapters, each in its provider's own shape: [`openai`] (Chat Completions),
//! [`anthropic`] (Messages API) and [`aisdk`] (Vercel AI SDK `ModelMessage`). An adapter
//! turns the caller's JSON into [`Message`]s and remembers each message's original JSON.
//! Writing back emits the original JSON, untouched, for every message the run did not
//! rewrite (unknown fields, `extra`, `cache_control`, `providerOptions` and all), and
//! renders only the messages the engine wrote or changed. A changed message keeps its
//! original's other fields, and inside it every content block whose part did not change
//! goes back verbatim: clearing one `tool_result` of an Anthropic user message leaves its
//! siblings, and their `cache_control`, as they were.
//!
//! Messages the engine creates (summaries) have no original and are rendered fresh: a
//! user-role message with string content in every format (see [`render`]).
//!
//! # Which format?
//!
//! [`Format::detect`] looks at the JSON and names the format from the first decisive sign,
//! in message order:
//!
//! - a request body with a top-level `system` field is Anthropic;
//! - OpenAI: a `tool_calls` field, a `tool_call_id`, the `developer` role, or content parts
//!   `image_url`, `input_audio`, `refusal`;
//! - Anthropic: content blocks `tool_use`, `tool_result`, `thinking`, `redacted_thinking`,
//!   `document`, an `image` with a `source`, or `cache_control` on a block;
//! - AI SDK: content parts `tool-call`, `tool-result`, `reasoning`, `file`, an `image` with an
//!   `image` field, or `providerOptions` on a message or part.
//!
//! A conversation of plain text messages reads the same in every format and is taken as
//! OpenAI. Input that is neither an array nor an object with `messages` has no format.
//! [`parse_auto`] parses in the detected format; [`parse`] takes an explicit one, which
//! always wins over detection.
//!
//! # Media, documents and reasoning
//!
//! Images, audio, files and documents become [`Part::Media`], reasoning (`thinking`,
//! `redacted_thinking`, AI SDK `reasoning`) becomes [`Part::Reasoning`]. None of them is ever
//! turned into text: they stay verbatim, in place, in every message the run keeps, and are
//! counted by a documented estimate per kind (the constants in each adapter module). When a
//! message holding them is summarized away, the summary text mentions each by its label
//! (`[Image: image/png]`, `[File: report.pdf]`) so the model knows it was there; the bytes
//! themselves are not carried into the summary. Reasoning is counted by its visible text;
//! redacted reasoning counts nothing, since the providers drop reasoning of earlier turns
//! from the context anyway.
//!
//! # Message ids
//!
//! Provider formats carry no message ids, so the adapters derive them from content: the
//! hash of the message's role and content, with `~2`, `~3`… appended to repeats. The same
//! message keeps its id across turns and across compactions, which is what idempotency
//! keys and the summary cache rely on.
//!
//! # Strict and lenient
//!
//! Strict parsing (the default) refuses what it does not understand with an error naming
//! the JSON path: `messages[85].role: unknown role "exit"`, or
//! `messages[3].content[1].type: unknown block type "foo"`. Lenient parsing keeps such
//! messages and content parts as [`Part::Opaque`], and pins the message holding them
//! (non-compactable): they are counted by an estimate, survive every level verbatim, and go
//! back as they came. The `exit` message that mini-swe-agent appends to its trajectories
//! (`{"role": "exit", "content": "<the final diff>"}`) is the typical case: strict parsing
//! of such a trajectory fails at `messages[85].role`, lenient parsing keeps the message as
//! an opaque, pinned user-side message and writes it back unchanged.
//!
//! # Checking
//!
//! [`check::check`] tells whether a list of messages would be accepted by the provider:
//! tool calls and results paired the way the provider wants, roles in an order it takes.
//!
//! [`Part::Media`]: crate::message::Part::Media
//! [`Part::Reasoning`]: crate::message::Part::Reasoning
//! [`Part::Opaque`]: crate::message::Part::Opaque

pub mod aisdk;
pub mod anthropic;
pub mod check;
pub mod openai;

use std::collections::HashMap;
use std::fmt;

use serde_json::{Map, Value};

use crate::hash::{ContentHash, Hasher, message_hash};
use crate::message::{Message, MessageId, Part};

/// The provider formats compactor reads and writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "kebab-case")
)]
#[non_exhaustive]
pub enum Format {
    /// OpenAI Chat Completions messages.
    #[cfg_attr(feature = "serde", serde(rename = "openai"))]
    OpenAi,
    /// Anthropic Messages API: content blocks, top-level `system`.
    Anthropic,
    /// Vercel AI SDK `ModelMessage`s.
    AiSdk,
}

impl Format {
    /// Every format, in the order detection prefers them.
    pub const ALL: [Format; 3] = [Format::OpenAi, Format::Anthropic, Format::AiSdk];

    /// The name used in options and on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::OpenAi => "openai",
            Format::Anthropic => "anthropic",
            Format::AiSdk => "ai-sdk",
        }
    }

    /// The format named `name` (as [`Format::as_str`] spells it).
    pub fn parse_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.as_str() == name)
    }

    /// Names the format of `json` from its first decisive sign (see the module docs), or
    /// `None` when it is not a list of messages at all.
    pub fn detect(json: &Value) -> Option<Format> {
        let items = match json {
            Value::Array(items) => items,
            Value::Object(body) => {
                if body.contains_key("system") {
                    return Some(Format::Anthropic);
                }
                body.get("messages")?.as_array()?
            }
            _ => return None,
        };
        Some(
            items
                .iter()
                .find_map(detect_message)
                .unwrap_or(Format::OpenAi),
        )
    }
}

fn detect_message(message: &Value) -> Option<Format> {
    let object = message.as_object()?;
    if object.contains_key("tool_calls")
        || object.contains_key("tool_call_id")
        || object.get("role").and_then(Value::as_str) == Some("developer")
    {
        return Some(Format::OpenAi);
    }
    if object.contains_key("providerOptions") {
        return Some(Format::AiSdk);
    }
    object
        .get("content")?
        .as_array()?
        .iter()
        .find_map(detect_part)
}

fn detect_part(part: &Value) -> Option<Format> {
    let object = part.as_object()?;
    if object.contains_key("providerOptions") {
        return Some(Format::AiSdk);
    }
    if object.contains_key("cache_control") {
        return Some(Format::Anthropic);
    }
    match object.get("type")?.as_str()? {
        "image_url" | "input_audio" | "refusal" => Some(Format::OpenAi),
        "tool_use" | "tool_result" | "thinking" | "redacted_thinking" | "document" => {
            Some(Format::Anthropic)
        }
        "tool-call" | "tool-result" | "reasoning" | "file" => Some(Format::AiSdk),
        "image" if object.contains_key("source") => Some(Format::Anthropic),
        "image" if object.contains_key("image") => Some(Format::AiSdk),
        _ => None,
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How to parse.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(default, rename_all = "camelCase")
)]
pub struct ParseOptions {
    /// Keep unknown roles and content parts as opaque, pinned messages instead of failing.
    pub lenient: bool,
}

/// Input that does not fit the format: the JSON path of the offending value and what is
/// wrong with it. Nothing has been parsed when this is returned.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path}: {message}")]
pub struct FormatError {
    /// Where: `messages[3].content[1].type`.
    pub path: String,
    /// What: `unknown part type "foo"`.
    pub message: String,
}

impl FormatError {
    /// An error at `path`.
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            path: path.into(),
            message: message.into(),
        }
    }

    /// The index of the message the error is in, when the path names one.
    pub fn message_index(&self) -> Option<usize> {
        let rest = self.path.strip_prefix("messages[")?;
        rest[..rest.find(']')?].parse().ok()
    }
}

/// A parsed conversation: the messages, and what is needed to write them back unchanged.
#[derive(Debug, Clone, PartialEq)]
pub struct Conversation {
    /// The format it was read from, and is written back in.
    pub format: Format,
    /// The messages.
    pub messages: Vec<Message>,
    originals: HashMap<MessageId, (ContentHash, Value)>,
    envelope: Option<Map<String, Value>>,
    ids: IdAssigner,
}

impl Conversation {
    fn new(
        format: Format,
        parsed: Vec<(Message, Value)>,
        envelope: Option<Map<String, Value>>,
    ) -> Self {
        let mut originals = HashMap::with_capacity(parsed.len());
        let messages = parsed
            .into_iter()
            .map(|(message, json)| {
                originals.insert(message.id.clone(), (message_hash(&message), json));
                message
            })
            .collect();
        Self {
            format,
            messages,
            originals,
            envelope,
            ids: IdAssigner::new(),
        }
    }

    /// Reads `items`, a JSON array of messages that come after this conversation's (an
    /// agent's next turn), in its format: each gets its content-derived id as if it had
    /// been read with the others, and its JSON is kept for writing back. The messages are
    /// returned, not added to [`Conversation::messages`]: the caller keeps them where it
    /// keeps the conversation's messages. On error nothing changed.
    pub fn read_more(
        &mut self,
        items: &Value,
        options: ParseOptions,
    ) -> Result<Vec<Message>, FormatError> {
        let Value::Array(items) = items else {
            return Err(FormatError::new(
                "messages",
                format!("expected an array of messages, found {}", kind_of(items)),
            ));
        };
        let read = match self.format {
            Format::OpenAi => openai::parse_message,
            Format::Anthropic => anthropic::parse_message,
            Format::AiSdk => aisdk::parse_message,
        };
        let mut parsed = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            parsed.push(read(item, &index("messages", i), options)?);
        }
        for (message, item) in parsed.iter_mut().zip(items) {
            self.ids.assign(message);
            self.originals
                .insert(message.id.clone(), (message_hash(message), item.clone()));
        }
        Ok(parsed)
    }

    /// Forgets the original JSON of every message not in `messages` (those a compaction
    /// replaced), so a long-lived conversation does not keep them.
    pub fn retain_originals(&mut self, messages: &[Message]) {
        let kept: std::collections::HashSet<&MessageId> = messages.iter().map(|m| &m.id).collect();
        self.originals.retain(|id, _| kept.contains(id));
    }

    /// The original JSON of a message, if it came from the input unchanged.
    pub fn original(&self, message: &Message) -> Option<&Value> {
        self.originals
            .get(&message.id)
            .filter(|(hash, _)| *hash == message_hash(message))
            .map(|(_, json)| json)
    }

    /// The JSON the input held for a message with this id, changed since or not: what a
    /// rewritten message is rendered on top of.
    fn base(&self, message: &Message) -> Option<&Value> {
        self.originals.get(&message.id).map(|(_, json)| json)
    }

    /// The JSON of one message: its original when unchanged, else rendered by `render` on
    /// top of the original with the same id.
    fn write(&self, message: &Message, render: fn(&Message, Option<&Value>) -> Value) -> Value {
        match self.original(message) {
            Some(json) => json.clone(),
            None => render(message, self.base(message)),
        }
    }

    /// The JSON of `messages` in this conversation's format: originals verbatim where the
    /// message is unchanged, rendered otherwise. When the input was a request body (an
    /// object with `messages`), the output is that body with its messages replaced.
    ///
    /// Anthropic: leading [`Role::System`](crate::message::Role::System) messages go to the
    /// top-level `system` field (a bare array input becomes a body then), never into
    /// `messages`.
    pub fn to_json(&self, messages: &[Message]) -> Value {
        match self.format {
            Format::OpenAi => self.wrap(
                messages
                    .iter()
                    .map(|m| self.write(m, openai::render))
                    .collect(),
            ),
            Format::AiSdk => self.wrap(
                messages
                    .iter()
                    .map(|m| self.write(m, aisdk::render))
                    .collect(),
            ),
            Format::Anthropic => anthropic::write(self, messages),
        }
    }

    fn wrap(&self, rendered: Vec<Value>) -> Value {
        match &self.envelope {
            Some(envelope) => {
                let mut body = envelope.clone();
                body.insert("messages".into(), Value::Array(rendered));
                Value::Object(body)
            }
            None => Value::Array(rendered),
        }
    }
}

/// Renders `messages` in `format` with no originals to keep: every message is written
/// fresh, text as string content. Media and opaque parts have nothing to be rebuilt from
/// and render as their label in brackets; keep such messages in a [`Conversation`] and
/// write them with [`Conversation::to_json`] instead.
pub fn render(format: Format, messages: &[Message]) -> Value {
    Conversation::new(format, Vec::new(), None).to_json(messages)
}

/// Parses `json` as `format`.
pub fn parse(
    json: &Value,
    format: Format,
    options: ParseOptions,
) -> Result<Conversation, FormatError> {
    match format {
        Format::OpenAi => openai::parse(json, options),
        Format::Anthropic => anthropic::parse(json, options),
        Format::AiSdk => aisdk::parse(json, options),
    }
}

/// Parses `json` in the format [`Format::detect`] names; input with no recognizable
/// format is an error at path `$`.
pub fn parse_auto(json: &Value, options: ParseOptions) -> Result<Conversation, FormatError> {
    let format = Format::detect(json).ok_or_else(|| {
        FormatError::new(
            "$",
            format!(
                "expected an array of messages or an object with \"messages\", found {}",
                kind_of(json)
            ),
        )
    })?;
    parse(json, format, options)
}

/// Parses JSON text as `format`; text that is not JSON is an error at path `$`.
pub fn parse_str(
    text: &str,
    format: Format,
    options: ParseOptions,
) -> Result<Conversation, FormatError> {
    parse(&from_text(text)?, format, options)
}

/// Parses JSON text in the format [`Format::detect`] names.
pub fn parse_str_auto(text: &str, options: ParseOptions) -> Result<Conversation, FormatError> {
    parse_auto(&from_text(text)?, options)
}

fn from_text(text: &str) -> Result<Value, FormatError> {
    serde_json::from_str(text).map_err(|e| FormatError::new("$", format!("not JSON: {e}")))
}

/// Renders content parts as blocks. A part equal to what an original block reads as keeps
/// that block verbatim; a changed part is rendered on top of the block at its position
/// (keeping fields such as `cache_control`) when the number of parts did not change, and
/// fresh otherwise.
pub(crate) fn render_blocks(
    parts: &[Part],
    originals: &[Value],
    read: impl Fn(&Value) -> Option<Part>,
    render: impl Fn(&Part, Option<&Map<String, Value>>) -> Value,
) -> Vec<Value> {
    let read: Vec<Option<Part>> = originals.iter().map(read).collect();
    let mut used = vec![false; originals.len()];
    let same_shape = parts.len() == originals.len();
    parts
        .iter()
        .enumerate()
        .map(|(i, part)| {
            let verbatim = if same_shape {
                (read[i].as_ref() == Some(part)).then_some(i)
            } else {
                (0..originals.len()).find(|&j| !used[j] && read[j].as_ref() == Some(part))
            };
            if let Some(j) = verbatim {
                used[j] = true;
                return originals[j].clone();
            }
            let base = if same_shape {
                originals[i].as_object()
            } else {
                None
            };
            render(part, base)
        })
        .collect()
}

/// The text a part that cannot be rebuilt stands as: its label in brackets.
pub(crate) fn placeholder(part: &Part) -> String {
    match part {
        Part::Media(media) => format!("[{:?}: {}]", media.kind, media.label),
        Part::Opaque(opaque) => format!("[{}]", opaque.kind),
        Part::Reasoning(_) => String::new(),
        other => crate::message::text_of(std::slice::from_ref(other)),
    }
}

/// A part the adapter keeps but does not interpret, estimated from its JSON.
pub(crate) fn opaque_part(kind: &str, json: &Value) -> Part {
    Part::Opaque(crate::message::Opaque {
        kind: kind.to_owned(),
        tokens: crate::tokens::TokenCounter::count(&crate::tokens::Estimator, &json.to_string()),
    })
}

/// A message with a role the format does not know, kept whole and pinned.
pub(crate) fn opaque_message(role: &str, json: &Value) -> Message {
    Message::new(
        MessageId::new(""),
        crate::message::Role::User,
        vec![opaque_part(&format!("role:{role}"), json)],
    )
    .with_compactable(false)
}

/// Pins a message that holds an opaque part: the engine cannot summarize what it cannot
/// read without losing it.
pub(crate) fn pin_opaque(mut message: Message) -> Message {
    fn opaque(part: &Part) -> bool {
        match part {
            Part::Opaque(_) => true,
            Part::ToolResult(result) => result.content.iter().any(opaque),
            _ => false,
        }
    }
    if message.parts.iter().any(opaque) {
        message.compactable = false;
    }
    message
}

/// Assigns content-derived ids: the message hash, with `~N` for the N-th repeat.
#[derive(Debug, Clone, PartialEq)]
struct IdAssigner {
    seen: HashMap<ContentHash, usize>,
}

impl IdAssigner {
    fn new() -> Self {
        Self {
            seen: HashMap::new(),
        }
    }

    fn assign(&mut self, message: &mut Message) {
        let hash = Hasher::new().message(message).finish();
        let count = self.seen.entry(hash).or_insert(0);
        *count += 1;
        let short = &hash.to_hex()[..12];
        message.id = if *count == 1 {
            MessageId::new(format!("m{short}"))
        } else {
            MessageId::new(format!("m{short}~{count}"))
        };
    }
}

/// The fields of a request body other than its messages, written back unchanged.
pub(crate) type Envelope = serde_json::Map<String, Value>;

/// The messages array of `json` — an array, or a request body with `messages` — and the
/// body around it.
pub(crate) fn messages_of(json: &Value) -> Result<(&Vec<Value>, Option<Envelope>), FormatError> {
    match json {
        Value::Array(items) => Ok((items, None)),
        Value::Object(body) => match body.get("messages") {
            Some(Value::Array(items)) => Ok((items, Some(body.clone()))),
            Some(other) => Err(FormatError::new(
                "messages",
                format!("expected an array, found {}", kind_of(other)),
            )),
            None => Err(FormatError::new(
                "$",
                "expected an array of messages or an object with \"messages\"",
            )),
        },
        other => Err(FormatError::new(
            "$",
            format!("expected an array of messages, found {}", kind_of(other)),
        )),
    }
}

/// `value` as an object, or an error at `path` saying a `what` object was expected.
pub(crate) fn object_at<'a>(
    value: &'a Value,
    path: &str,
    what: &str,
) -> Result<&'a serde_json::Map<String, Value>, FormatError> {
    value.as_object().ok_or_else(|| {
        FormatError::new(
            path,
            format!("expected a {what} object, found {}", kind_of(value)),
        )
    })
}

/// The string field `key` of the JSON object `value` at `path`: missing and not-a-string
/// are errors.
pub(crate) fn required_str<'a>(
    value: &'a Value,
    path: &str,
    key: &str,
) -> Result<&'a str, FormatError> {
    match value.get(key) {
        Some(Value::String(text)) => Ok(text),
        Some(other) => Err(FormatError::new(
            at(path, key),
            format!("expected a string, found {}", kind_of(other)),
        )),
        None => Err(FormatError::new(at(path, key), "missing")),
    }
}

/// Reads a conversation in `format`: first the messages `leading` finds in the request
/// body around the messages array (Anthropic's top-level `system`; `None` when the input is
/// a bare array), then every item of the array read with `read` (given the item and its
/// path). Each message keeps its item's JSON beside it, and gets its content-derived id in
/// that order.
pub(crate) fn read_conversation(
    json: &Value,
    format: Format,
    leading: impl FnOnce(Option<&Envelope>) -> Result<Vec<(Message, Value)>, FormatError>,
    read: impl Fn(&Value, &str) -> Result<Message, FormatError>,
) -> Result<Conversation, FormatError> {
    let (items, envelope) = messages_of(json)?;
    let mut parsed = leading(envelope.as_ref())?;
    parsed.reserve(items.len());
    for (i, item) in items.iter().enumerate() {
        parsed.push((read(item, &index("messages", i))?, item.clone()));
    }
    let mut ids = IdAssigner::new();
    for (message, _) in &mut parsed {
        ids.assign(message);
    }
    let mut conversation = Conversation::new(format, parsed, envelope);
    conversation.ids = ids;
    Ok(conversation)
}

/// The error or the opaque message for a role the format does not know: lenient parsing
/// keeps the message whole and pinned, strict parsing names the role at `path.role`.
pub(crate) fn unknown_role(
    role: &str,
    item: &Value,
    path: &str,
    options: ParseOptions,
) -> Result<Message, FormatError> {
    if options.lenient {
        Ok(opaque_message(role, item))
    } else {
        Err(FormatError::new(
            at(path, "role"),
            format!("unknown role {role:?}"),
        ))
    }
}

/// A tool call part read from `value` at `path`: its id and name are the string fields
/// `id_key` and `name_key`, its arguments the JSON text of the required field `input_key`.
pub(crate) fn tool_call(
    value: &Value,
    path: &str,
    [id_key, name_key, input_key]: [&str; 3],
) -> Result<Part, FormatError> {
    let input = value
        .get(input_key)
        .ok_or_else(|| FormatError::new(at(path, input_key), "missing"))?;
    Ok(Part::ToolCall(crate::message::ToolCall {
        id: required_str(value, path, id_key)?.to_owned(),
        name: required_str(value, path, name_key)?.to_owned(),
        arguments: input.to_string(),
    }))
}

/// Estimated tokens of data given inline (base64): one token per 3 characters, at least
/// one.
pub(crate) fn inline_data_tokens(data: &str) -> u64 {
    (data.len() as u64 / 3).max(1)
}

/// The fields of the original JSON a changed message is rendered on top of: all of them
/// when there is an original object, none otherwise.
pub(crate) fn base_object(original: Option<&Value>) -> Map<String, Value> {
    match original {
        Some(Value::Object(object)) => object.clone(),
        _ => Map::new(),
    }
}

/// `path` helpers shared by the adapters.
pub(crate) fn at(path: &str, key: &str) -> String {
    format!("{path}.{key}")
}

pub(crate) fn index(path: &str, i: usize) -> String {
    format!("{path}[{i}]")
}

/// A short JSON description of a value's type, for errors.
pub(crate) fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn detection_follows_the_first_decisive_sign() {
        let cases = [
            (
                json!({"system": "x", "messages": []}),
                Some(Format::Anthropic),
            ),
            (
                json!([{"role":"user","content":"hi"}]),
                Some(Format::OpenAi),
            ),
            (
                json!([{"role":"user","content":"hi"},{"role":"assistant","content":null,"tool_calls":[]}]),
                Some(Format::OpenAi),
            ),
            (
                json!([{"role":"developer","content":"x"}]),
                Some(Format::OpenAi),
            ),
            (
                json!([{"role":"user","content":[{"type":"image_url","image_url":{"url":"u"}}]}]),
                Some(Format::OpenAi),
            ),
            (
                json!([{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"f","input":{}}]}]),
                Some(Format::Anthropic),
            ),
            (
                json!([{"role":"user","content":[{"type":"text","text":"x","cache_control":{"type":"ephemeral"}}]}]),
                Some(Format::Anthropic),
            ),
            (
                json!([{"role":"user","content":[{"type":"image","source":{}}]}]),
                Some(Format::Anthropic),
            ),
            (
                json!([{"role":"tool","content":[{"type":"tool-result"}]}]),
                Some(Format::AiSdk),
            ),
            (
                json!([{"role":"user","content":[{"type":"image","image":"u"}]}]),
                Some(Format::AiSdk),
            ),
            (
                json!({"messages":[{"role":"user","content":"x","providerOptions":{}}]}),
                Some(Format::AiSdk),
            ),
            (json!(42), None),
            (json!({"model": "x"}), None),
        ];
        for (json, expected) in cases {
            assert_eq!(Format::detect(&json), expected, "{json}");
        }
    }

    #[test]
    fn parse_auto_uses_the_detected_format_and_explicit_formats_win() {
        let text = r#"[{"role":"user","content":[{"type":"text","text":"x"}]},{"role":"assistant","content":[{"type":"tool-call","toolCallId":"c","toolName":"f","input":{}}]}]"#;
        let auto = parse_str_auto(text, ParseOptions::default()).expect("ai sdk");
        assert_eq!(auto.format, Format::AiSdk);
        let forced =
            parse_str(text, Format::Anthropic, ParseOptions::default()).expect_err("not anthropic");
        assert_eq!(forced.path, "messages[1].content[0].type");
        assert_eq!(
            parse_str_auto("7", ParseOptions::default())
                .expect_err("no format")
                .path,
            "$"
        );
    }

    #[test]
    fn names_round_trip() {
        for format in Format::ALL {
            assert_eq!(Format::parse_name(format.as_str()), Some(format));
        }
    }

    #[test]
    fn render_writes_fresh_messages_in_each_format() {
        let messages = [Message::system("s", "rules"), Message::user("u", "hi")];
        assert_eq!(
            render(Format::OpenAi, &messages),
            json!([{"role":"system","content":"rules"},{"role":"user","content":"hi"}])
        );
        assert_eq!(
            render(Format::AiSdk, &messages),
            json!([{"role":"system","content":"rules"},{"role":"user","content":"hi"}])
        );
        assert_eq!(
            render(Format::Anthropic, &messages),
            json!({"system":"rules","messages":[{"role":"user","content":"hi"}]})
        );
    }
}
