//! Gemini `contents` (`generateContent`, `@google/genai`).
//!
//! Input: an array of contents, or a request body (an object with `contents`, and
//! optionally `systemInstruction`; every other field is kept and written back). The system
//! instruction (a content of text parts, or a string) becomes a leading [`Role::System`]
//! message, pinned, written back to `systemInstruction` while it leads the messages.
//!
//! A content is one message: role `user` (or none, or the older `function`) reads as
//! [`Role::User`], `model` as [`Role::Assistant`]. Each part is one [`Part`]: `text` (a
//! [`Part::Reasoning`] when it has `"thought": true`), `inlineData` and `fileData` (media),
//! `functionCall` (a tool call) and `functionResponse` (its result, in the next user
//! turn). Parts are read in the REST API's camelCase and in the snake_case the Python SDK
//! writes. `executableCode` and `codeExecutionResult` are documented parts the adapter
//! carries without interpreting, and so is a part of a kind not known yet: opaque and
//! pinned, in strict mode too.
//!
//! Responses pair with the calls of the turn before them as Gemini pairs them: by `id`
//! when both carry the same, else by name and order. The adapter names the k-th id-less
//! call to `f` in a turn `f#k` (and never writes that name out); a response that answers
//! no call of the turn before by its own `id` (or has none) answers the k-th call to its
//! name left unanswered by id, and takes that call's id. gemini-cli is the case: its
//! calls carry no `id`, its responses one of its own (`read_file-1752306492234-58dd…`). A `thoughtSignature` belongs to the part that carries
//! it: untouched parts are written verbatim, a changed part is written over the original
//! part at its place only when that part is of the same kind (so a signature can stay on its
//! part, never move to another), and [`check_written`] proves it on the written JSON.
//!
//! Counting: an image (inline or by URI) is estimated at [`IMAGE_TOKENS`], Gemini's figure
//! for an image up to 384 pixels a side (larger ones are tiled at that much per tile); other
//! inline data one token per 3 characters of base64, other files by URI
//! [`FILE_REF_TOKENS`]. Thought parts count their visible text.

mod render;
mod signatures;
#[cfg(test)]
mod tests;

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::{
    Conversation, Format, FormatError, ParseOptions, Source, at, index, inline_data_tokens,
    kind_of, object_at, opaque_part, pin_opaque, read_conversation, required_str, unknown_role,
};
use crate::message::{
    Media, MediaKind, Message, MessageId, Part, Reasoning, Role, ToolCall, ToolResult,
};

pub(crate) use render::{render, render_instruction};
pub use signatures::check_written;

/// Estimated tokens of an image.
pub const IMAGE_TOKENS: u64 = 258;
/// Estimated tokens of a file other than an image, referenced by URI.
pub const FILE_REF_TOKENS: u64 = 1_500;

/// Parses an array of contents or a request body.
pub fn parse(json: &Value, options: ParseOptions) -> Result<Conversation, FormatError> {
    read(Source::of(json), options)
}

pub(crate) fn read(source: Source<'_>, options: ParseOptions) -> Result<Conversation, FormatError> {
    let mut before: Vec<ToolCall> = Vec::new();
    let conversation = read_conversation(
        source,
        Format::Gemini,
        |body| match body.and_then(|body| body.get("systemInstruction")) {
            Some(instruction) => {
                let parts = instruction_parts(&instruction.value)?;
                let message = Message::new(MessageId::new(""), Role::System, parts);
                Ok(vec![(message, instruction.clone())])
            }
            None => Ok(Vec::new()),
        },
        |item, path| {
            let mut message = parse_content(item, path, options)?;
            answer(&mut message, &before);
            before = message.tool_calls().cloned().collect();
            Ok(message)
        },
    )?;
    if !options.lenient {
        answered_calls_only(&conversation)?;
    }
    Ok(conversation)
}

/// Strict reading refuses a `functionResponse` that answers no `functionCall` of the turn
/// right before it (by `id`, or by order and name): the API would refuse it too.
fn answered_calls_only(conversation: &Conversation) -> Result<(), FormatError> {
    let messages = &conversation.messages;
    let start = conversation.given_start(messages);
    for (i, message) in messages.iter().enumerate().skip(start) {
        let before: Vec<&str> = match i.checked_sub(1).filter(|&p| p >= start) {
            Some(p) => messages[p].tool_calls().map(|c| c.id.as_str()).collect(),
            None => Vec::new(),
        };
        for (j, part) in message.parts.iter().enumerate() {
            if let Part::ToolResult(result) = part
                && !before.contains(&result.call_id.as_str())
            {
                return Err(FormatError::new(
                    at(
                        &index(&at(&index("contents", i - start), "parts"), j),
                        "functionResponse",
                    ),
                    "no functionCall with this id (or name, in order) in the turn before",
                ));
            }
        }
    }
    Ok(())
}

fn instruction_parts(instruction: &Value) -> Result<Vec<Part>, FormatError> {
    let path = "systemInstruction";
    match instruction {
        Value::String(text) => Ok(vec![Part::text(text.clone())]),
        Value::Object(_) => {
            let parts = parts_of(instruction, path)?;
            parts
                .iter()
                .enumerate()
                .map(|(i, part)| {
                    Ok(Part::text(required_str(
                        part,
                        &index(&at(path, "parts"), i),
                        "text",
                    )?))
                })
                .collect()
        }
        other => Err(FormatError::new(
            path,
            format!("expected a content or a string, found {}", kind_of(other)),
        )),
    }
}

/// The `parts` array of the content `item` at `path`.
fn parts_of<'a>(item: &'a Value, path: &str) -> Result<&'a Vec<Value>, FormatError> {
    match item.get("parts") {
        Some(Value::Array(parts)) => Ok(parts),
        Some(other) => Err(FormatError::new(
            at(path, "parts"),
            format!("expected an array, found {}", kind_of(other)),
        )),
        None => Err(FormatError::new(at(path, "parts"), "missing")),
    }
}

/// Reads one content at `path` as a message.
pub(crate) fn parse_content(
    item: &Value,
    path: &str,
    options: ParseOptions,
) -> Result<Message, FormatError> {
    object_at(item, path, "content")?;
    let role = match item.get("role") {
        None | Some(Value::Null) => Role::User,
        Some(Value::String(role)) => match role.as_str() {
            "user" | "function" => Role::User,
            "model" => Role::Assistant,
            unknown => return unknown_role(unknown, item, path, options),
        },
        Some(other) => {
            return Err(FormatError::new(
                at(path, "role"),
                format!("expected a string, found {}", kind_of(other)),
            ));
        }
    };
    let parts = read_parts(parts_of(item, path)?, &at(path, "parts"))?;
    Ok(pin_opaque(Message::new(MessageId::new(""), role, parts)))
}

/// Pairs the responses of `message` with `before`, the calls of the turn before it, as
/// Gemini does: a response whose id names one of those calls answers it; any other
/// answers the first call to its name that no response answers by id, in order, and
/// takes its id.
pub(crate) fn answer(message: &mut Message, before: &[ToolCall]) {
    let by_id: Vec<&str> = message
        .tool_results()
        .map(|r| r.call_id.as_str())
        .filter(|id| before.iter().any(|c| c.id == *id))
        .collect();
    let mut open: Vec<&ToolCall> = before
        .iter()
        .filter(|c| !by_id.contains(&c.id.as_str()))
        .collect();
    let by_id: Vec<String> = by_id.into_iter().map(str::to_owned).collect();
    for part in &mut message.parts {
        let Part::ToolResult(result) = part else {
            continue;
        };
        if by_id.contains(&result.call_id) {
            continue;
        }
        let name = result.tool_name.as_deref();
        if let Some(at) = open.iter().position(|c| Some(c.name.as_str()) == name) {
            result.call_id = open.remove(at).id.clone();
        }
    }
}

/// Reads the parts of one content, naming id-less calls and responses by order and name.
pub(super) fn read_parts(parts: &[Value], path: &str) -> Result<Vec<Part>, FormatError> {
    let mut ordinals: HashMap<(bool, String), usize> = HashMap::new();
    let mut name_of = |response: bool, name: &str| {
        let count = ordinals.entry((response, name.to_owned())).or_insert(0);
        *count += 1;
        format!("{name}#{}", *count - 1)
    };
    parts
        .iter()
        .enumerate()
        .map(|(i, part)| {
            let path = index(path, i);
            let object = object_at(part, &path, "part")?;
            read_part(object, part, &path, &mut name_of)
        })
        .collect()
}

/// The field `camel` of `object`, or its snake_case spelling `snake`.
pub(super) fn field<'a>(
    object: &'a Map<String, Value>,
    camel: &str,
    snake: &str,
) -> Option<&'a Value> {
    object.get(camel).or_else(|| object.get(snake))
}

/// Fields a part may carry beside its data: what the part is, is the other one.
const PART_METADATA: &[&str] = &[
    "thought",
    "thoughtSignature",
    "thought_signature",
    "partMetadata",
    "part_metadata",
    "videoMetadata",
    "video_metadata",
];

fn read_part(
    object: &Map<String, Value>,
    part: &Value,
    path: &str,
    name_of: &mut impl FnMut(bool, &str) -> String,
) -> Result<Part, FormatError> {
    if let Some(text) = object.get("text") {
        let Value::String(text) = text else {
            return Err(FormatError::new(
                at(path, "text"),
                format!("expected a string, found {}", kind_of(text)),
            ));
        };
        if object.get("thought").and_then(Value::as_bool) == Some(true) {
            return Ok(Part::Reasoning(Reasoning {
                text: text.clone(),
                redacted: false,
            }));
        }
        return Ok(Part::text(text.clone()));
    }
    if let Some(call) = field(object, "functionCall", "function_call") {
        let path = at(path, "functionCall");
        let name = required_str(call, &path, "name")?;
        let id = match call.get("id").and_then(Value::as_str) {
            Some(id) => id.to_owned(),
            None => name_of(false, name),
        };
        let arguments = call.get("args").map(Value::to_string).unwrap_or_default();
        return Ok(Part::ToolCall(ToolCall {
            id,
            name: name.to_owned(),
            arguments,
        }));
    }
    if let Some(response) = field(object, "functionResponse", "function_response") {
        let path = at(path, "functionResponse");
        let name = required_str(response, &path, "name")?;
        let id = match response.get("id").and_then(Value::as_str) {
            Some(id) => id.to_owned(),
            None => name_of(true, name),
        };
        let content = match response.get("response") {
            Some(value) => vec![Part::text(response_text(value))],
            None => return Err(FormatError::new(at(&path, "response"), "missing")),
        };
        return Ok(Part::ToolResult(ToolResult {
            call_id: id,
            tool_name: Some(name.to_owned()),
            content,
            is_error: false,
        }));
    }
    if let Some(data) = field(object, "inlineData", "inline_data") {
        let mime = mime_of(data);
        let bytes = data.get("data").and_then(Value::as_str).unwrap_or_default();
        return Ok(media(mime, mime.to_owned(), inline_data_tokens(bytes)));
    }
    if let Some(file) = field(object, "fileData", "file_data") {
        let mime = mime_of(file);
        let uri = field(
            file.as_object().unwrap_or(&Map::new()),
            "fileUri",
            "file_uri",
        )
        .and_then(Value::as_str)
        .unwrap_or(mime)
        .to_owned();
        return Ok(media(mime, uri, FILE_REF_TOKENS));
    }
    for carried in [
        ("executableCode", "executable_code"),
        ("codeExecutionResult", "code_execution_result"),
    ] {
        if field(object, carried.0, carried.1).is_some() {
            return Ok(opaque_part(carried.0, part));
        }
    }
    // A kind not known yet: kept whole, named by its data field.
    let kind = object
        .keys()
        .find(|key| !PART_METADATA.contains(&key.as_str()))
        .map_or("part", String::as_str);
    Ok(opaque_part(kind, part))
}

fn mime_of(data: &Value) -> &str {
    data.as_object()
        .and_then(|object| field(object, "mimeType", "mime_type"))
        .and_then(Value::as_str)
        .unwrap_or("application/octet-stream")
}

/// A media part of type `mime`: images at [`IMAGE_TOKENS`], anything else at `tokens`.
fn media(mime: &str, label: String, tokens: u64) -> Part {
    let kind = match mime.split('/').next() {
        Some("image") => MediaKind::Image,
        Some("audio") => MediaKind::Audio,
        _ => MediaKind::File,
    };
    let tokens = if kind == MediaKind::Image {
        IMAGE_TOKENS
    } else {
        tokens
    };
    Part::Media(Media {
        kind,
        label,
        tokens,
    })
}

/// The text of a function response: the string of a response whose only field is a string
/// (`{"output": "…"}`, `{"result": "…"}`), else its JSON.
pub(crate) fn response_text(response: &Value) -> String {
    match response.as_object() {
        Some(object) if object.len() == 1 => match object.values().next() {
            Some(Value::String(text)) => text.clone(),
            _ => response.to_string(),
        },
        _ => response.to_string(),
    }
}
