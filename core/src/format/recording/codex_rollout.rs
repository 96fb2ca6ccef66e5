//! A Codex rollout (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`), read as the OpenAI
//! Responses requests Codex sent.
//!
//! A rollout is JSON Lines. Current versions write `{timestamp, type, payload}` records:
//! `session_meta` (the session; `base_instructions.text` is the system prompt, sent as
//! `instructions`), `turn_context` (each turn's settings; its `model` names the model),
//! `response_item` (an item of the history: what was sent and what the model answered),
//! `event_msg` (what the interface showed, never sent) and `compacted` (Codex compacted
//! its context: the history goes on from its `replacement_history`, or from the user's
//! messages and its summary `message` where older versions wrote no such history). Older
//! versions wrote a header line (`{id, timestamp, instructions, git}`), then items as
//! lines of their own among `{"record_type": "state"}` lines.
//!
//! Every item is sent as recorded but `ghost_snapshot`s (Codex's undo points, which it
//! never sends). A model call's answer is a run of the model's items (`reasoning`,
//! assistant `message`, `function_call`, `custom_tool_call`, `local_shell_call`,
//! `web_search_call`); its request is everything before it. The tools Codex declared
//! are not in the file.

use serde_json::{Map, Value, json};

use super::{Agent, Epoch, Lines, Recording, line_path};
use crate::format::{Format, FormatError, at};

/// Record types of a rollout's current shape.
const RECORDS: &[&str] = &[
    "session_meta",
    "response_item",
    "event_msg",
    "turn_context",
    "compacted",
];

/// Is `first`, a file's first object, the start of a rollout?
pub(crate) fn is_rollout(first: &Map<String, Value>) -> bool {
    let record = first.get("type").and_then(Value::as_str);
    let current = record.is_some_and(|t| RECORDS.contains(&t)) && first.contains_key("payload");
    // The older header: a session id and time, and the instructions or git state.
    let header = record.is_none()
        && first.contains_key("id")
        && first.contains_key("timestamp")
        && (first.contains_key("instructions") || first.contains_key("git"));
    current || header
}

/// Item types the model produces: a run of them is one call's answer.
fn is_model_item(item: &Value) -> bool {
    match item.get("type").and_then(Value::as_str) {
        Some("message") | None => item.get("role").and_then(Value::as_str) == Some("assistant"),
        Some(kind) => matches!(
            kind,
            "reasoning"
                | "function_call"
                | "custom_tool_call"
                | "local_shell_call"
                | "web_search_call"
        ),
    }
}

/// A rollout as it is read, record by record.
#[derive(Default)]
struct Reader {
    model: Option<String>,
    instructions: Option<String>,
    epochs: Vec<Epoch>,
    epoch: Epoch,
    /// The user's messages so far, for a compaction that recorded no history.
    user_messages: Vec<Value>,
    /// The last item was the model's: a model item after it belongs to the same call.
    answering: bool,
}

impl Reader {
    fn session_meta(&mut self, payload: &Value) {
        let base = payload
            .get("base_instructions")
            .and_then(|b| b.get("text").or(Some(b)))
            .and_then(Value::as_str);
        if let Some(text) = base {
            self.instructions = Some(text.to_owned());
        }
    }

    fn turn_context(&mut self, payload: &Value) {
        if let Some(model) = payload.get("model").and_then(Value::as_str) {
            self.model.get_or_insert_with(|| model.to_owned());
        }
    }

    fn item(&mut self, payload: &Value, path: &str) -> Result<(), FormatError> {
        if !payload.is_object() {
            return Err(FormatError::new(
                at(path, "payload"),
                "expected an item object",
            ));
        }
        if payload.get("type").and_then(Value::as_str) == Some("ghost_snapshot") {
            return Ok(());
        }
        let model = is_model_item(payload);
        if model && !self.answering {
            self.epoch.calls.push(self.epoch.items.len());
        }
        self.answering = model;
        if payload.get("role").and_then(Value::as_str) == Some("user") {
            self.user_messages.push(payload.clone());
        }
        self.epoch.items.push(sendable(payload));
        Ok(())
    }

    /// Codex compacted its context: what follows starts from its replacement history, or
    /// from the user's messages and its summary.
    fn compacted(&mut self, payload: &Value) {
        let lead = match payload.get("replacement_history") {
            Some(Value::Array(history)) => history.clone(),
            _ => {
                let summary = payload
                    .get("message")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                let mut lead = self.user_messages.clone();
                lead.push(json!({
                    "type": "message",
                    "role": "user",
                    "content": [{"type": "input_text", "text": summary}],
                }));
                lead
            }
        };
        let next = Epoch {
            lead,
            ..Epoch::default()
        };
        self.epochs.push(std::mem::replace(&mut self.epoch, next));
        self.answering = false;
    }

    fn finish(mut self) -> Recording {
        self.epochs.push(self.epoch);
        let mut fields = Map::new();
        if let Some(model) = self.model {
            fields.insert("model".into(), Value::String(model));
        }
        if let Some(text) = self.instructions {
            fields.insert("instructions".into(), Value::String(text));
        }
        Recording::new(Agent::Codex, Format::OpenAiResponses, fields, self.epochs)
    }
}

/// Reads a rollout's lines.
pub(crate) fn read(lines: &Lines) -> Result<Recording, FormatError> {
    let mut reader = Reader::default();
    for (number, object) in &lines.objects {
        let (kind, payload) = match (object.get("type"), object.get("payload")) {
            (Some(Value::String(kind)), Some(payload)) if RECORDS.contains(&kind.as_str()) => {
                (kind.as_str(), payload)
            }
            // The older shape: the header, state lines, and bare items.
            _ if object.contains_key("record_type") => continue,
            // (Its `instructions` are the user's, which Codex sends as a message too.)
            _ if object.contains_key("id") && !object.contains_key("type") => continue,
            _ => ("response_item", &Value::Object(object.clone())),
        };
        match kind {
            "session_meta" => reader.session_meta(payload),
            "turn_context" => reader.turn_context(payload),
            "response_item" => reader.item(payload, &line_path(*number))?,
            "compacted" => reader.compacted(payload),
            _ => {}
        }
    }
    Ok(reader.finish())
}

/// An item as Codex sends it. Newer versions record a tool's output that is one content
/// item (`{"type": "input_text", "text": …}`) as that object alone; the Responses API takes
/// a string or a list of content items, and the request held the list of one.
fn sendable(item: &Value) -> Value {
    let mut item = item.clone();
    let output_item = matches!(
        item.get("type").and_then(Value::as_str),
        Some("function_call_output" | "custom_tool_call_output")
    );
    if output_item
        && let Some(output) = item.get_mut("output")
        && output.get("type").is_some()
    {
        *output = Value::Array(vec![output.take()]);
    }
    item
}
