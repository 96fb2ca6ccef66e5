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
mod verbatim;

use std::collections::HashMap;
use std::fmt;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::hash::{ContentHash, Hasher, message_hash};
use crate::message::{Message, MessageId, Part};
use verbatim::{Layout, Original, Piece, Text};

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
    originals: HashMap<MessageId, (ContentHash, Original)>,
    envelope: Option<Envelope>,
    /// How the input text was laid out (compact when the input was a `Value`).
    layout: Layout,
    /// The ids given so far, so that messages read later get the ids they would have had.
    ids: IdAssigner,
}

impl Conversation {
    fn new(
        format: Format,
        parsed: Vec<(Message, Original)>,
        envelope: Option<Envelope>,
        layout: Layout,
    ) -> Self {
        let mut originals = HashMap::with_capacity(parsed.len());
        let messages = parsed
            .into_iter()
            .map(|(message, original)| {
                originals.insert(message.id.clone(), (message_hash(&message), original));
                message
            })
            .collect();
        Self {
            format,
            messages,
            originals,
            envelope,
            layout,
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
            self.originals.insert(
                message.id.clone(),
                (message_hash(message), Original::new(item.clone(), None)),
            );
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
            .map(|(_, original)| &original.value)
    }

    /// The piece that writes one message: its original when unchanged; else rendered by
    /// `render` on top of the original with the same id (what the input held for it), or
    /// fresh when there is none.
    fn piece(&self, message: &Message, render: fn(&Message, Option<&Value>) -> Value) -> Piece<'_> {
        match self.originals.get(&message.id) {
            Some((hash, original)) if *hash == message_hash(message) => Piece::Verbatim(original),
            Some((_, original)) => Piece::Over(render(message, Some(&original.value)), original),
            None => Piece::Fresh(render(message, None)),
        }
    }

    /// `messages` in this conversation's format: originals verbatim where the message is
    /// unchanged, rendered otherwise. When the input was a request body (an object with
    /// `messages`), the output is that body with its messages replaced.
    ///
    /// Anthropic: leading [`Role::System`](crate::message::Role::System) messages go to the
    /// top-level `system` field (a bare array input becomes a body then), never into
    /// `messages`.
    ///
    /// Serialize the result with serde_json (`to_string`, `to_writer`, pretty or not), or
    /// print it (`to_string()` lays it out as the input text was). Conversations parsed from
    /// text ([`parse_str`]) come back byte for byte: every untouched message, every field of
    /// the request body, and the unchanged fields of a rewritten message are the input's
    /// own text, numbers included (`1776068401.3278353`, `1E5`, integers past 2^64).
    /// [`Written::to_value`] gives a `Value` instead, with numbers as a `Value` holds them.
    pub fn to_json(&self, messages: &[Message]) -> Written<'_> {
        let root = match self.format {
            Format::OpenAi => self.wrap(
                messages
                    .iter()
                    .map(|m| self.piece(m, openai::render))
                    .collect(),
            ),
            Format::AiSdk => self.wrap(
                messages
                    .iter()
                    .map(|m| self.piece(m, aisdk::render))
                    .collect(),
            ),
            Format::Anthropic => anthropic::write(self, messages),
        };
        Written {
            root,
            layout: &self.layout,
        }
    }

    fn wrap<'a>(&'a self, rendered: Vec<Piece<'a>>) -> Piece<'a> {
        match &self.envelope {
            Some(envelope) => envelope.with(Piece::Array(rendered), None),
            None => Piece::Array(rendered),
        }
    }
}

/// A conversation written back by [`Conversation::to_json`]: serialize it with serde_json
/// (other serializers cannot take the input's text verbatim), print it, or take its
/// [`Written::to_value`].
#[derive(Debug)]
pub struct Written<'a> {
    root: Piece<'a>,
    layout: &'a Layout,
}

impl Written<'_> {
    /// The written conversation as a `Value`. Numbers are as a `Value` holds them, which is
    /// not always as the input wrote them: serialize the `Written` itself for the input's
    /// text.
    pub fn to_value(&self) -> Value {
        self.root.to_value()
    }
}

impl Serialize for Written<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.root.serialize(serializer)
    }
}

/// The JSON text, laid out as the input text was: indented by the same unit, spaced as
/// Python writes it, or compact (as it is when the input was a `Value`). Untouched
/// messages then read exactly as in the input, whitespace included.
impl fmt::Display for Written<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.layout.write(self).map_err(|_| fmt::Error)?)
    }
}

/// The fields of a request body, in order, each with its text; `messages` is there (its
/// value unused) to keep its place.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Envelope(Vec<(String, Original)>);

impl Envelope {
    /// The field `key`.
    pub(crate) fn get(&self, key: &str) -> Option<&Original> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// The body with `messages` in place of its messages, and `system` (when given) in
    /// place of its `system` field, or last when it had none. Every other field is
    /// verbatim.
    fn with<'a>(&'a self, messages: Piece<'a>, system: Option<Option<Piece<'a>>>) -> Piece<'a> {
        let mut messages = Some(messages);
        let mut system = system;
        let mut fields: Vec<(String, Piece<'a>)> = Vec::with_capacity(self.0.len() + 1);
        for (key, original) in &self.0 {
            let piece = match key.as_str() {
                "messages" => messages.take(),
                "system" => match system.take() {
                    Some(replaced) => replaced,
                    None => Some(Piece::Verbatim(original)),
                },
                _ => Some(Piece::Verbatim(original)),
            };
            if let Some(piece) = piece {
                fields.push((key.clone(), piece));
            }
        }
        for (key, piece) in [("system", system.flatten()), ("messages", messages)] {
            if let Some(piece) = piece {
                fields.push((key.to_owned(), piece));
            }
        }
        Piece::Object(fields)
    }
}

/// Renders `messages` in `format` with no originals to keep: every message is written
/// fresh, text as string content. Media and opaque parts have nothing to be rebuilt from
/// and render as their label in brackets; keep such messages in a [`Conversation`] and
/// write them with [`Conversation::to_json`] instead.
pub fn render(format: Format, messages: &[Message]) -> Value {
    Conversation::new(format, Vec::new(), None, Layout::Compact)
        .to_json(messages)
        .to_value()
}

/// Parses `json` as `format`.
pub fn parse(
    json: &Value,
    format: Format,
    options: ParseOptions,
) -> Result<Conversation, FormatError> {
    read(Source::of(json), format, options)
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
    read(Source::text(&json, text), format, options)
}

/// Parses JSON text in the format [`Format::detect`] names, as [`parse_str`] does.
pub fn parse_str_auto(text: &str, options: ParseOptions) -> Result<Conversation, FormatError> {
    let json = from_text(text)?;
    read(Source::text(&json, text), detected(&json)?, options)
}

fn from_text(text: &str) -> Result<Value, FormatError> {
    verbatim::read(text).map_err(|e| FormatError::new("$", format!("not JSON: {e}")))
}

/// What a conversation is read from: its JSON, and the text of its parts when it was
/// read from text.
pub(crate) struct Source<'a> {
    json: &'a Value,
    /// The texts of the messages, in order.
    items: Option<Vec<Text>>,
    /// The texts of a request body's fields other than `messages`.
    fields: Vec<(String, Text)>,
    layout: Layout,
}

impl<'a> Source<'a> {
    pub(crate) fn of(json: &'a Value) -> Self {
        Self {
            json,
            items: None,
            fields: Vec::new(),
            layout: Layout::Compact,
        }
    }

    /// `json`, read from `text`: with its texts when the `verbatim` feature keeps them.
    #[cfg(not(feature = "verbatim"))]
    fn text(json: &'a Value, _text: &str) -> Self {
        Self::of(json)
    }

    /// `json`, read from `text`.
    #[cfg(feature = "verbatim")]
    fn text(json: &'a Value, text: &str) -> Self {
        fn owned(items: Vec<&serde_json::value::RawValue>) -> Vec<Text> {
            items.into_iter().map(ToOwned::to_owned).collect()
        }
        let mut source = Self::of(json);
        source.layout = Layout::of(text);
        // The text parsed as `json` just now: splitting it cannot fail, and if it did the
        // conversation would only lose its texts, not its messages.
        match json {
            Value::Array(_) => source.items = verbatim::items(text).ok().map(owned),
            Value::Object(_) => {
                if let Ok(fields) = verbatim::fields(text) {
                    source.items = verbatim::field(&fields, "messages")
                        .and_then(|messages| verbatim::items(messages.get()).ok())
                        .map(owned);
                    source.fields = fields
                        .into_iter()
                        .filter(|(key, _)| key != "messages")
                        .map(|(key, text)| (key, text.to_owned()))
                        .collect();
                }
            }
            _ => {}
        }
        source
    }
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

/// A request body: the object around the messages.
pub(crate) type Body = Map<String, Value>;

/// The messages array of `json` — an array, or a request body with `messages` — and the
/// body around it.
pub(crate) fn messages_of(json: &Value) -> Result<(&Vec<Value>, Option<&Body>), FormatError> {
    match json {
        Value::Array(items) => Ok((items, None)),
        Value::Object(body) => match body.get("messages") {
            Some(Value::Array(items)) => Ok((items, Some(body))),
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
/// path). Each message keeps its item's JSON (and text) beside it, and gets its
/// content-derived id in that order.
pub(crate) fn read_conversation(
    source: Source<'_>,
    format: Format,
    leading: impl FnOnce(Option<&Envelope>) -> Result<Vec<(Message, Original)>, FormatError>,
    read: impl Fn(&Value, &str) -> Result<Message, FormatError>,
) -> Result<Conversation, FormatError> {
    let (items, body) = messages_of(source.json)?;
    let envelope = body.map(|body| {
        let mut texts = source.fields;
        let mut fields = Vec::with_capacity(body.len());
        for (key, value) in body {
            let original = match key.as_str() {
                "messages" => Original::new(Value::Null, None),
                _ => {
                    // The last of a repeated key, as the `Value` kept it.
                    let text = texts.iter().rposition(|(k, _)| k == key);
                    Original::new(value.clone(), text.map(|at| texts.swap_remove(at).1))
                }
            };
            fields.push((key.clone(), original));
        }
        Envelope(fields)
    });
    let mut parsed = leading(envelope.as_ref())?;
    parsed.reserve(items.len());
    let texts = source.items.filter(|texts| texts.len() == items.len());
    let mut texts = texts.into_iter().flatten();
    for (i, item) in items.iter().enumerate() {
        let message = read(item, &index("messages", i))?;
        parsed.push((message, Original::new(item.clone(), texts.next())));
    }
    let mut ids = IdAssigner::new();
    for (message, _) in &mut parsed {
        ids.assign(message);
    }
    let mut conversation = Conversation::new(format, parsed, envelope, source.layout);
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

    /// Numbers a `Value` does not hold as written, in an `extra` of each message.
    const EXTRA: &str = r#"{"t":1776068401.3278353,"big":123456789012345678901234567890,"u64":18446744073709551615,"neg":-0.0,"inf":1e400,"e":1E5,"d":1.10,"s":"\u00e9\/"}"#;

    /// A conversation in each format: a call, its result, and an answer, each with the
    /// `extra` above; request bodies with numbers of their own.
    fn texts() -> [(Format, String); 3] {
        let openai = format!(
            r#"{{"model":"gpt-4o","temperature":0.70,"messages":[{{"role":"user","content":"go","extra":{EXTRA}}},{{"role":"assistant","content":null,"tool_calls":[{{"id":"c1","type":"function","function":{{"name":"ls","arguments":"{{}}"}}}}],"extra":{EXTRA}}},{{"role":"tool","tool_call_id":"c1","content":"a long listing","extra":{EXTRA}}},{{"role":"assistant","content":"done","extra":{EXTRA}}}],"seed":18446744073709551615}}"#
        );
        let anthropic = format!(
            r#"{{
 "system": [{{"type":"text","text":"rules","cache_control":{{"type":"ephemeral","n":1.50}}}}],
 "max_tokens": 1E3,
 "messages": [
  {{"role":"user","content":"go","extra":{EXTRA}}},
  {{"role":"assistant","content":[{{"type":"tool_use","id":"c1","name":"ls","input":{{"depth":2.0}}}}],"extra":{EXTRA}}},
  {{"role":"user","content":[{{"type":"tool_result","tool_use_id":"c1","content":"a long listing","extra":{EXTRA}}},{{"type":"text","text":"and?","n":1.10}}],"extra":{EXTRA}}},
  {{"role":"assistant","content":"done","extra":{EXTRA}}}
 ]
}}"#
        );
        let aisdk = format!(
            r#"[{{"role":"user","content":"go","providerOptions":{{"x":{EXTRA}}}}},{{"role":"assistant","content":[{{"type":"tool-call","toolCallId":"c1","toolName":"ls","input":{{"depth":2.0}}}}],"providerOptions":{{"x":{EXTRA}}}}},{{"role":"tool","content":[{{"type":"tool-result","toolCallId":"c1","toolName":"ls","output":{{"type":"text","value":"a long listing"}},"providerOptions":{{"x":{EXTRA}}}}}],"providerOptions":{{"x":{EXTRA}}}}},{{"role":"assistant","content":"done","providerOptions":{{"x":{EXTRA}}}}}]"#
        );
        [
            (Format::OpenAi, openai),
            (Format::Anthropic, anthropic),
            (Format::AiSdk, aisdk),
        ]
    }

    #[test]
    fn text_comes_back_byte_for_byte_in_every_format() {
        for (format, text) in texts() {
            let conversation = parse_str(&text, format, ParseOptions::default())
                .unwrap_or_else(|e| panic!("{format}: {e}"));
            assert_eq!(
                Format::detect(&from_text(&text).expect("json")),
                Some(format)
            );
            let written = conversation.to_json(&conversation.messages).to_string();
            assert_eq!(written, text, "{format}");
        }
    }

    #[test]
    fn a_rewritten_message_keeps_the_text_of_its_other_fields() {
        for (format, text) in texts() {
            let conversation = parse_str(&text, format, ParseOptions::default()).expect("parses");
            let mut messages = conversation.messages.clone();
            let result = messages
                .iter_mut()
                .flat_map(|m| m.parts.iter_mut())
                .find_map(|part| match part {
                    Part::ToolResult(result) => Some(result),
                    _ => None,
                })
                .expect("a tool result");
            result.content = vec![Part::text("[cleared]")];
            let written = conversation.to_json(&messages).to_string();
            assert_eq!(
                written.matches(EXTRA).count(),
                text.matches(EXTRA).count(),
                "{format}: {written}"
            );
            assert!(written.contains("[cleared]"), "{format}");
            assert!(!written.contains("a long listing"), "{format}");
            // Reads back as the messages written.
            let again = parse_str(&written, format, ParseOptions::default()).expect("reads");
            let parts = |m: &[Message]| m.iter().map(|m| m.parts.clone()).collect::<Vec<_>>();
            assert_eq!(parts(&again.messages), parts(&messages), "{format}");
        }
    }

    #[test]
    fn writing_lays_text_out_as_the_input_was_and_values_compactly() {
        let pretty = "[\n\t{\n\t\t\"role\": \"user\",\n\t\t\"content\": \"hi\"\n\t}\n]";
        let conversation =
            parse_str(pretty, Format::OpenAi, ParseOptions::default()).expect("parses");
        let summary = Message::user("new", "summary");
        let written = conversation
            .to_json(&[conversation.messages[0].clone(), summary.clone()])
            .to_string();
        assert_eq!(
            written,
            "[\n\t{\n\t\t\"role\": \"user\",\n\t\t\"content\": \"hi\"\n\t},\n\t{\n\t\t\"role\": \"user\",\n\t\t\"content\": \"summary\"\n\t}\n]"
        );
        let spaced = r#"[{"role": "user", "content": "hi", "n": [1.10, 2]}]"#;
        let conversation =
            parse_str(spaced, Format::OpenAi, ParseOptions::default()).expect("parses");
        assert_eq!(
            conversation
                .to_json(&[conversation.messages[0].clone(), summary.clone()])
                .to_string(),
            r#"[{"role": "user", "content": "hi", "n": [1.10, 2]}, {"role": "user", "content": "summary"}]"#
        );
        let value: Value = serde_json::from_str(pretty).expect("json");
        let conversation = parse(&value, Format::OpenAi, ParseOptions::default()).expect("parses");
        assert_eq!(
            conversation.to_json(&[summary]).to_string(),
            r#"[{"role":"user","content":"summary"}]"#
        );
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
