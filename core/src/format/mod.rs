//! Provider message formats, read and written without loss.
//!
//! An adapter turns the caller's JSON into [`Message`]s and remembers each message's
//! original JSON. Writing back emits the original JSON, untouched, for every message the
//! run did not rewrite (unknown fields, `extra`, `cache_control` and all), and renders only
//! the messages the engine wrote or changed.
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
//! the JSON path: `messages[85].role: unknown role "exit"`. Lenient parsing keeps such
//! messages and content parts as [`Part::Opaque`](crate::message::Part::Opaque),
//! non-compactable: they are counted by an estimate, survive every level verbatim, and go
//! back as they came. The `exit` message that mini-swe-agent appends to its trajectories
//! is the typical case.

pub mod openai;

use std::collections::HashMap;
use std::fmt;

use serde_json::Value;

use crate::hash::{ContentHash, Hasher, message_hash};
use crate::message::{Message, MessageId};

/// The provider formats compactor reads and writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "lowercase")
)]
#[non_exhaustive]
pub enum Format {
    /// OpenAI Chat Completions messages.
    OpenAi,
}

impl Format {
    /// The name used in options and on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::OpenAi => "openai",
        }
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
    envelope: Option<serde_json::Map<String, Value>>,
}

impl Conversation {
    fn new(
        format: Format,
        parsed: Vec<(Message, Value)>,
        envelope: Option<serde_json::Map<String, Value>>,
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
        }
    }

    /// The original JSON of a message, if it came from the input unchanged.
    pub fn original(&self, message: &Message) -> Option<&Value> {
        self.originals
            .get(&message.id)
            .filter(|(hash, _)| *hash == message_hash(message))
            .map(|(_, json)| json)
    }

    /// The JSON of `messages` in this conversation's format: originals verbatim where the
    /// message is unchanged, rendered otherwise. When the input was a request body (an
    /// object with `messages`), the output is that body with its messages replaced.
    pub fn to_json(&self, messages: &[Message]) -> Value {
        let rendered: Vec<Value> = messages
            .iter()
            .map(|message| match self.original(message) {
                Some(json) => json.clone(),
                None => match self.format {
                    Format::OpenAi => openai::render(
                        message,
                        self.originals.get(&message.id).map(|(_, json)| json),
                    ),
                },
            })
            .collect();
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

/// Parses `json` as `format`.
pub fn parse(
    json: &Value,
    format: Format,
    options: ParseOptions,
) -> Result<Conversation, FormatError> {
    match format {
        Format::OpenAi => openai::parse(json, options),
    }
}

/// Parses JSON text as `format`; text that is not JSON is an error at path `$`.
pub fn parse_str(
    text: &str,
    format: Format,
    options: ParseOptions,
) -> Result<Conversation, FormatError> {
    let json: Value =
        serde_json::from_str(text).map_err(|e| FormatError::new("$", format!("not JSON: {e}")))?;
    parse(&json, format, options)
}

/// Assigns content-derived ids: the message hash, with `~N` for the N-th repeat.
pub(crate) struct IdAssigner {
    seen: HashMap<ContentHash, usize>,
}

impl IdAssigner {
    pub(crate) fn new() -> Self {
        Self {
            seen: HashMap::new(),
        }
    }

    pub(crate) fn assign(&mut self, message: &mut Message) {
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
