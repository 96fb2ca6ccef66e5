//! Vercel AI SDK `ModelMessage`s (AI SDK 5 and later), and AI SDK 4's `CoreMessage`s.
//!
//! Input: an array of messages, or an object with `messages` (its other fields are kept
//! and written back). Roles and content:
//!
//! - `system`: `content` a string;
//! - `user`: a string, or parts `text`, `image` ({ image, mediaType? }), `file`
//!   ({ data, mediaType, filename? });
//! - `assistant`: a string, or parts `text`, `file`, `reasoning`, `tool-call`
//!   ({ toolCallId, toolName, input }) and provider-executed `tool-result`;
//! - `tool`: parts `tool-result` ({ toolCallId, toolName, output }), read as one
//!   [`Role::Tool`] message with a [`Part::ToolResult`] per part.
//!
//! A tool result's `output` is `{ type: "text" | "json" | "error-text" | "error-json",
//! value }` or `{ type: "content", value: [text | media items] }`; `json` values read as
//! their JSON text, the `error-` kinds set [`ToolResult::is_error`]. `providerOptions`, on a
//! message or on any part, stays in the original JSON and survives every write.
//!
//! **Pinning.** A message whose `providerOptions` hold `compactor: { pin: true }` is pinned
//! (non-compactable, see [`crate::pin`]): kept verbatim, marker included, at every level.
//! The AI SDK hands each provider only the options under its own name, so no provider sees
//! the marker. A `pin` that is not a boolean is an error at its path.
//!
//! AI SDK 4 wrote some fields under other names: a tool call's `args` (for `input`), a
//! tool result's `result` (any JSON, for `output`) with `isError` and an optional
//! `experimental_content` (text and image items, read as the result's content when
//! present), `mimeType` (for `mediaType`); and it had `redacted-reasoning` parts
//! ({ data }). Both spellings read; a rewritten part keeps the one it came with (a result
//! rewritten in the 4 shape drops its `experimental_content`, which described the old
//! result). New parts are written in the current shape.
//!
//! Estimates: the AI SDK talks to every provider, so an image counts as [`IMAGE_TOKENS`],
//! the larger of OpenAI's and Anthropic's per-image figures; a file given inline one token
//! per 3 characters of its data, and [`FILE_REF_TOKENS`] when given as a URL.

use serde_json::{Map, Value, json};

use super::{
    Conversation, Format, FormatError, ParseOptions, Source, at, base_object, index,
    inline_data_tokens, kind_of, object_at, opaque_part, pin_opaque, placeholder,
    read_conversation, render_blocks, required_str, tool_call, unknown_part, unknown_role,
};
use crate::message::{
    Media, MediaKind, Message, MessageId, Part, Reasoning, Role, ToolResult, text_of,
};

/// Estimated tokens of an image.
pub const IMAGE_TOKENS: u64 = 1_600;
/// Estimated tokens of a file given by URL.
pub const FILE_REF_TOKENS: u64 = 1_500;

/// Parses an array of messages or an object with `messages`.
pub fn parse(json: &Value, options: ParseOptions) -> Result<Conversation, FormatError> {
    read(Source::of(json), options)
}

pub(crate) fn read(source: Source<'_>, options: ParseOptions) -> Result<Conversation, FormatError> {
    read_conversation(
        source,
        Format::AiSdk,
        |_| Ok(Vec::new()),
        |item, path| parse_message(item, path, options),
    )
}

pub(crate) fn parse_message(
    item: &Value,
    path: &str,
    options: ParseOptions,
) -> Result<Message, FormatError> {
    let object = object_at(item, path, "message")?;
    let role = match required_str(item, path, "role")? {
        "system" => Role::System,
        "user" => Role::User,
        "assistant" => Role::Assistant,
        "tool" => Role::Tool,
        unknown => return unknown_role(unknown, item, path, options),
    };
    let content_path = at(path, "content");
    let parts = match (role, object.get("content")) {
        (_, None) => return Err(FormatError::new(content_path, "missing")),
        (Role::System | Role::User | Role::Assistant, Some(Value::String(text))) => {
            vec![Part::text(text.clone())]
        }
        (Role::System, Some(other)) => {
            return Err(FormatError::new(
                content_path,
                format!("expected a string, found {}", kind_of(other)),
            ));
        }
        (_, Some(Value::Array(items))) => items
            .iter()
            .enumerate()
            .map(|(i, item)| read_part(item, role, &index(&content_path, i), options))
            .collect::<Result<_, _>>()?,
        (_, Some(other)) => {
            return Err(FormatError::new(
                content_path,
                format!(
                    "expected {}, found {}",
                    if role == Role::Tool {
                        "an array of parts"
                    } else {
                        "a string or an array of parts"
                    },
                    kind_of(other)
                ),
            ));
        }
    };
    let message = pin_opaque(Message::new(MessageId::new(""), role, parts));
    marked(object, path, message)
}

/// The name under an AI SDK message's `providerOptions` that compactor reads: `{ pin: true }`
/// there pins the message.
pub const MARKER: &str = "compactor";

/// `message` read from the AI SDK message `object` at `path`, pinned when its
/// `providerOptions.compactor.pin` is `true`; a `pin` that is not a boolean is an error.
fn marked(
    object: &serde_json::Map<String, serde_json::Value>,
    path: &str,
    mut message: Message,
) -> Result<Message, FormatError> {
    let pin = object
        .get("providerOptions")
        .and_then(|options| options.get(MARKER))
        .and_then(|marker| marker.get("pin"));
    match pin {
        None | Some(Value::Bool(false)) => Ok(message),
        Some(Value::Bool(true)) => {
            message.compactable = false;
            Ok(message)
        }
        Some(other) => Err(FormatError::new(
            format!("{path}.providerOptions.{MARKER}.pin"),
            format!("expected true or false, found {}", kind_of(other)),
        )),
    }
}

/// Whether a part spells a field as AI SDK 4 did: `old` present, `new` absent.
fn is_v4(part: &Map<String, Value>, new: &str, old: &str) -> bool {
    part.contains_key(old) && !part.contains_key(new)
}

/// The field of a tool call's arguments: `input`, or `args` as AI SDK 4 named it.
fn input_key(part: &Map<String, Value>) -> &'static str {
    if is_v4(part, "input", "args") {
        "args"
    } else {
        "input"
    }
}

/// An AI SDK 4 tool result's content: its `experimental_content` (text and image items,
/// what providers that take rich results are sent) when there is one, else `result` (a
/// string as it is, any other JSON as its text).
fn v4_result(
    result: &Value,
    part: &Map<String, Value>,
    path: &str,
) -> Result<Vec<Part>, FormatError> {
    let Some(Value::Array(items)) = part.get("experimental_content") else {
        return Ok(vec![Part::text(match result {
            Value::String(text) => text.clone(),
            other => other.to_string(),
        })]);
    };
    let content_path = at(path, "experimental_content");
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let item_path = index(&content_path, i);
            match item.get("type").and_then(Value::as_str) {
                Some("text") => Ok(Part::text(required_str(item, &item_path, "text")?)),
                Some("image") => {
                    required_str(item, &item_path, "data")?;
                    let label = item.as_object().and_then(media_type).unwrap_or("image");
                    Ok(Part::Media(Media {
                        kind: MediaKind::Image,
                        label: label.to_owned(),
                        tokens: IMAGE_TOKENS,
                    }))
                }
                Some(other) => Err(FormatError::new(
                    at(&item_path, "type"),
                    format!("unknown content item type {other:?}"),
                )),
                None => Err(FormatError::new(at(&item_path, "type"), "missing")),
            }
        })
        .collect()
}

/// A media part's `mediaType` (AI SDK 4: `mimeType`).
fn media_type(part: &Map<String, Value>) -> Option<&str> {
    part.get("mediaType")
        .or_else(|| part.get("mimeType"))
        .and_then(Value::as_str)
}

fn is_url(data: &str) -> bool {
    data.starts_with("http://") || data.starts_with("https://")
}

/// Which part types each role may carry.
fn allowed(role: Role, kind: &str) -> bool {
    match role {
        Role::User => matches!(kind, "text" | "image" | "file"),
        Role::Assistant => matches!(
            kind,
            "text" | "file" | "reasoning" | "redacted-reasoning" | "tool-call" | "tool-result"
        ),
        Role::Tool => kind == "tool-result",
        Role::System => false,
    }
}

fn read_part(
    part: &Value,
    role: Role,
    path: &str,
    options: ParseOptions,
) -> Result<Part, FormatError> {
    let object = object_at(part, path, "content part")?;
    let kind = required_str(part, path, "type")?;
    if !allowed(role, kind) {
        return not_allowed(part, kind, role, path, options);
    }
    Ok(match kind {
        "text" => Part::text(required_str(part, path, "text")?),
        "reasoning" => Part::Reasoning(Reasoning {
            text: required_str(part, path, "text")?.to_owned(),
            redacted: false,
        }),
        "redacted-reasoning" => {
            required_str(part, path, "data")?;
            Part::Reasoning(Reasoning {
                text: String::new(),
                redacted: true,
            })
        }
        "image" => image_part(part, object, path)?,
        "file" => file_part(part, object, path)?,
        "tool-call" => tool_call(part, path, ["toolCallId", "toolName", input_key(object)])?,
        "tool-result" => tool_result_part(part, object, path)?,
        other => unreachable_kind(other, path)?,
    })
}

/// A part of a kind `role` may not carry: a known kind in the wrong role is an error naming
/// it (opaque when lenient); a kind not known yet is kept whole, in every mode.
fn not_allowed(
    part: &Value,
    kind: &str,
    role: Role,
    path: &str,
    options: ParseOptions,
) -> Result<Part, FormatError> {
    let known = [
        "text",
        "image",
        "file",
        "reasoning",
        "redacted-reasoning",
        "tool-call",
        "tool-result",
    ];
    if options.lenient {
        return Ok(opaque_part(kind, part));
    }
    if !known.contains(&kind) {
        return unknown_part(kind, part, path, Format::AiSdk);
    }
    Err(FormatError::new(
        at(path, "type"),
        format!("part type {kind:?} is not allowed in a {role} message"),
    ))
}

/// An `image` part: labelled by its media type, or by a short form of its URL or data.
fn image_part(part: &Value, object: &Map<String, Value>, path: &str) -> Result<Part, FormatError> {
    let image = required_str(part, path, "image")?;
    let label = media_type(object)
        .map(str::to_owned)
        .unwrap_or_else(|| super::openai::short_label(image));
    Ok(Part::Media(Media {
        kind: MediaKind::Image,
        label,
        tokens: IMAGE_TOKENS,
    }))
}

/// A `file` part: labelled by its file name or media type, estimated from its data.
fn file_part(part: &Value, object: &Map<String, Value>, path: &str) -> Result<Part, FormatError> {
    let data = required_str(part, path, "data")?;
    let media_type =
        media_type(object).ok_or_else(|| FormatError::new(at(path, "mediaType"), "missing"))?;
    let label = object
        .get("filename")
        .and_then(Value::as_str)
        .unwrap_or(media_type)
        .to_owned();
    Ok(Part::Media(Media {
        kind: MediaKind::File,
        label,
        tokens: if is_url(data) {
            FILE_REF_TOKENS
        } else {
            inline_data_tokens(data)
        },
    }))
}

/// A `tool-result` part, in the current shape (`output`) or AI SDK 4's (`result`).
fn tool_result_part(
    part: &Value,
    object: &Map<String, Value>,
    path: &str,
) -> Result<Part, FormatError> {
    let call_id = required_str(part, path, "toolCallId")?.to_owned();
    let tool_name = required_str(part, path, "toolName")?.to_owned();
    let (content, is_error) = match object.get("result") {
        Some(result) if is_v4(object, "output", "result") => {
            let is_error = object.get("isError").and_then(Value::as_bool) == Some(true);
            (v4_result(result, object, path)?, is_error)
        }
        _ => output(object.get("output"), &at(path, "output"))?,
    };
    Ok(Part::ToolResult(ToolResult {
        call_id,
        tool_name: Some(tool_name),
        content,
        is_error,
    }))
}

/// Part kinds `allowed` lets through are all handled above; this keeps the match total
/// without a panic should the two lists ever drift.
fn unreachable_kind(kind: &str, path: &str) -> Result<Part, FormatError> {
    Err(FormatError::new(
        at(path, "type"),
        format!("unknown part type {kind:?}"),
    ))
}

/// A tool result's `output`: its content as parts, and whether it reports an error.
fn output(output: Option<&Value>, path: &str) -> Result<(Vec<Part>, bool), FormatError> {
    let Some(Value::Object(object)) = output else {
        return Err(match output {
            None => FormatError::new(path, "missing"),
            Some(other) => FormatError::new(
                path,
                format!("expected an object, found {}", kind_of(other)),
            ),
        });
    };
    let kind = object
        .get("type")
        .and_then(Value::as_str)
        .ok_or_else(|| FormatError::new(at(path, "type"), "missing or not a string"))?;
    let value = || {
        object
            .get("value")
            .ok_or_else(|| FormatError::new(at(path, "value"), "missing"))
    };
    let text_value = || -> Result<String, FormatError> {
        value()?
            .as_str()
            .map(str::to_owned)
            .ok_or_else(|| FormatError::new(at(path, "value"), "expected a string"))
    };
    Ok(match kind {
        "text" => (vec![Part::text(text_value()?)], false),
        "error-text" => (vec![Part::text(text_value()?)], true),
        "json" => (vec![Part::text(value()?.to_string())], false),
        "error-json" => (vec![Part::text(value()?.to_string())], true),
        "execution-denied" => {
            let reason = object
                .get("reason")
                .and_then(Value::as_str)
                .unwrap_or("execution denied");
            (vec![Part::text(reason)], true)
        }
        "content" => {
            let items = value()?
                .as_array()
                .ok_or_else(|| FormatError::new(at(path, "value"), "expected an array"))?;
            let parts = items
                .iter()
                .enumerate()
                .map(|(i, item)| output_item(item, &index(&at(path, "value"), i)))
                .collect::<Result<_, _>>()?;
            (parts, false)
        }
        other => {
            return Err(FormatError::new(
                at(path, "type"),
                format!("unknown output type {other:?}"),
            ));
        }
    })
}

/// One item of a `content` output: text, or media (an image or a file by its type).
fn output_item(item: &Value, item_path: &str) -> Result<Part, FormatError> {
    match item.get("type").and_then(Value::as_str) {
        Some("text") => Ok(Part::text(required_str(item, item_path, "text")?)),
        Some("media") => {
            let data = required_str(item, item_path, "data")?;
            let media_type = required_str(item, item_path, "mediaType")?;
            let image = media_type.starts_with("image/");
            Ok(Part::Media(Media {
                kind: if image {
                    MediaKind::Image
                } else {
                    MediaKind::File
                },
                label: media_type.to_owned(),
                tokens: if image {
                    IMAGE_TOKENS
                } else {
                    inline_data_tokens(data)
                },
            }))
        }
        Some(other) => Err(FormatError::new(
            at(item_path, "type"),
            format!("unknown output item type {other:?}"),
        )),
        None => Err(FormatError::new(at(item_path, "type"), "missing")),
    }
}

fn reread(role: Role) -> impl Fn(&Value) -> Option<Part> {
    move |part| read_part(part, role, "", ParseOptions { lenient: true }).ok()
}

/// Renders a message the engine wrote or changed, on top of the original with its id.
pub(crate) fn render(message: &Message, original: Option<&Value>) -> Value {
    let mut object = base_object(original);
    object.insert("role".into(), json!(message.role.as_str()));
    let all_text = message.parts.iter().all(|p| matches!(p, Part::Text { .. }));
    let original_parts = object.get("content").and_then(Value::as_array);
    let content = match (message.role, original_parts) {
        (Role::System, _) => json!(message.text()),
        // A tool message's content is parts even when they are all text.
        (role, None) if role != Role::Tool && all_text => json!(message.text()),
        // On top of the original parts, or fresh parts when there were none.
        (role, parts) => Value::Array(render_blocks(
            &message.parts,
            parts.map_or(&[], Vec::as_slice),
            reread(role),
            render_part,
        )),
    };
    object.insert("content".into(), content);
    Value::Object(object)
}

fn render_part(part: &Part, base: Option<&Map<String, Value>>) -> Value {
    let mut object = base.cloned().unwrap_or_default();
    match part {
        Part::Text { text } => {
            object.insert("type".into(), json!("text"));
            object.insert("text".into(), json!(text));
        }
        Part::Reasoning(reasoning) if reasoning.redacted => {
            object.insert("type".into(), json!("redacted-reasoning"));
            object.entry("data").or_insert_with(|| json!(""));
        }
        Part::Reasoning(reasoning) => {
            object.insert("type".into(), json!("reasoning"));
            object.insert("text".into(), json!(reasoning.text));
        }
        Part::ToolCall(call) => {
            let input = input_key(&object);
            object.insert("type".into(), json!("tool-call"));
            object.insert("toolCallId".into(), json!(call.id));
            object.insert("toolName".into(), json!(call.name));
            object.insert(
                input.into(),
                serde_json::from_str(&call.arguments).unwrap_or_else(|_| json!(call.arguments)),
            );
        }
        Part::ToolResult(result) => {
            object.insert("type".into(), json!("tool-result"));
            object.insert("toolCallId".into(), json!(result.call_id));
            let name = result
                .tool_name
                .clone()
                .or_else(|| {
                    object
                        .get("toolName")
                        .and_then(Value::as_str)
                        .map(str::to_owned)
                })
                .unwrap_or_default();
            object.insert("toolName".into(), json!(name));
            let text = text_of(&result.content);
            if is_v4(&object, "output", "result") {
                object.insert("result".into(), json!(text));
                if result.is_error || object.contains_key("isError") {
                    object.insert("isError".into(), json!(result.is_error));
                }
                object.shift_remove("experimental_content");
            } else {
                let kind = if result.is_error {
                    "error-text"
                } else {
                    "text"
                };
                object.insert("output".into(), json!({"type": kind, "value": text}));
            }
        }
        other => return json!({"type": "text", "text": placeholder(other)}),
    }
    Value::Object(object)
}

#[cfg(test)]
mod tests;
