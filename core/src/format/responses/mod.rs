//! OpenAI Responses API input items.
//!
//! Input: an array of items, or a request body (an object with `input`, and optionally
//! `instructions`; every other field is kept and written back). `instructions` becomes a
//! leading [`Role::System`] message, pinned, written back to `instructions` while it leads
//! the messages. Each item is one message, so pins and errors name items by their index in
//! `input`:
//!
//! - `message` (the `type` may be left out): roles `system` and `developer` read as
//!   [`Role::System`], `user` and `assistant` as themselves; content a string or parts
//!   (`input_text`, `output_text`, `refusal`, `input_image`, `input_file`, `input_audio`);
//! - `function_call` and `custom_tool_call` are assistant tool calls, by `call_id`;
//!   `function_call_output` and `custom_tool_call_output` their results ([`Role::Tool`]),
//!   whose `output` is a string or parts;
//! - `reasoning` is an assistant message of one [`Part::Reasoning`]: its summary text, or
//!   redacted when it carries only `encrypted_content`. The API refuses a reasoning item
//!   sent without the item that followed it, so segmentation keeps the two in one unit.
//! - `local_shell_call` is an assistant tool call too, by `call_id`, its arguments the
//!   JSON of its `action` (the command); Codex answers it with a `function_call_output`.
//!   Such a call is never rewritten: a changed one is written back as it came;
//! - the built-in tools' items (`web_search_call`, `file_search_call`, `computer_call`
//!   and its output, `local_shell_call_output`, `mcp_call` and the other `mcp_` items,
//!   `image_generation_call`, `code_interpreter_call`), `item_reference`, and any item of
//!   a type not known yet are carried without interpreting: pinned opaque messages, in
//!   strict mode too, counted by an estimate of their JSON and written back as they came.
//!   An unknown item whose type ends in `_call` is the model's (assistant), any other the
//!   caller's;
//! - the `compaction` item a server-side compaction returns (its `encrypted_content`
//!   holds what came before it) is kept whole, pinned, as an earlier summary: see
//!   [`crate::message::Opaque::is_provider_summary`].
//!
//! Counting: media as in [`super::openai`] (an image 765 tokens, 85 at `low` detail; a file
//! by its inline data or 1,500 by id). Reasoning is estimated by its visible summary; its
//! `encrypted_content` counts nothing, because nobody outside OpenAI can count it and the
//! API drops the reasoning of earlier turns from the context; nor is the item framed as a
//! message of its own ([`crate::tokens::count_message`]). The usage the API reports
//! for a response includes it: a caller who wants it counted passes that figure on.

mod render;
#[cfg(test)]
mod tests;

use serde_json::Value;

use super::openai::{FILE_REF_TOKENS, IMAGE_LOW_TOKENS, IMAGE_TOKENS, short_label};
use super::{
    Conversation, Format, FormatError, ParseOptions, Source, at, index, inline_data_tokens,
    kind_of, object_at, opaque_part, pin_opaque, read_conversation, required_str, unknown_part,
    unknown_role,
};
use crate::message::{
    Media, MediaKind, Message, MessageId, Part, Reasoning, Role, ToolCall, ToolResult,
};

pub(crate) use render::{render, render_instructions};

/// Documented item types the model produces that the adapter carries without reading.
const CARRIED_CALLS: &[&str] = &[
    "web_search_call",
    "file_search_call",
    "computer_call",
    "mcp_call",
    "mcp_list_tools",
    "mcp_approval_request",
    "image_generation_call",
    "code_interpreter_call",
];

/// Documented item types the caller sends that the adapter carries without reading.
const CARRIED_INPUTS: &[&str] = &[
    "computer_call_output",
    "local_shell_call_output",
    "mcp_approval_response",
    "item_reference",
    "compaction",
];

/// Is `kind` an item type this adapter knows?
pub(crate) fn is_item_type(kind: &str) -> bool {
    matches!(
        kind,
        "message"
            | "function_call"
            | "function_call_output"
            | "custom_tool_call"
            | "custom_tool_call_output"
            | "local_shell_call"
            | "reasoning"
    ) || CARRIED_CALLS.contains(&kind)
        || CARRIED_INPUTS.contains(&kind)
}

/// Parses an array of items or a request body.
pub fn parse(json: &Value, options: ParseOptions) -> Result<Conversation, FormatError> {
    read(Source::of(json), options)
}

pub(crate) fn read(source: Source<'_>, options: ParseOptions) -> Result<Conversation, FormatError> {
    let conversation = read_conversation(
        source,
        Format::OpenAiResponses,
        |body| match body.and_then(|body| body.get("instructions")) {
            Some(instructions) => match &instructions.value {
                Value::String(text) => {
                    let message = Message::system(MessageId::new(""), text.clone());
                    Ok(vec![(message, instructions.clone())])
                }
                // `null` is what the API itself sends back for no instructions.
                Value::Null => Ok(Vec::new()),
                other => Err(FormatError::new(
                    "instructions",
                    format!("expected a string, found {}", kind_of(other)),
                )),
            },
            None => Ok(Vec::new()),
        },
        |item, path| parse_item(item, path, options),
    )?;
    if !options.lenient {
        answered_calls_only(&conversation)?;
    }
    Ok(conversation)
}

/// Strict reading refuses an output whose `call_id` no earlier call made: the API would
/// refuse it too, and the engine cannot place it.
fn answered_calls_only(conversation: &Conversation) -> Result<(), FormatError> {
    let start = conversation.given_start(&conversation.messages);
    let mut calls = std::collections::HashSet::new();
    for (i, message) in conversation.messages.iter().enumerate().skip(start) {
        calls.extend(message.tool_calls().map(|call| call.id.as_str()));
        if message
            .tool_results()
            .any(|result| !calls.contains(result.call_id.as_str()))
        {
            return Err(FormatError::new(
                at(&index("input", i - start), "call_id"),
                "no function_call with this id before it",
            ));
        }
    }
    Ok(())
}

/// Reads one input item at `path` as a message.
pub(crate) fn parse_item(
    item: &Value,
    path: &str,
    options: ParseOptions,
) -> Result<Message, FormatError> {
    let object = object_at(item, path, "item")?;
    let kind = match object.get("type") {
        Some(Value::String(kind)) => kind.as_str(),
        Some(other) => {
            return Err(FormatError::new(
                at(path, "type"),
                format!("expected a string, found {}", kind_of(other)),
            ));
        }
        None if object.contains_key("role") => "message",
        None => return Err(FormatError::new(at(path, "type"), "missing")),
    };
    let message = match kind {
        "message" => return parse_message(item, path, options),
        "function_call" => assistant(call(item, path, "arguments")?),
        "custom_tool_call" => assistant(call(item, path, "input")?),
        "function_call_output" | "custom_tool_call_output" => {
            let result = ToolResult {
                call_id: required_str(item, path, "call_id")?.to_owned(),
                tool_name: None,
                content: output(object.get("output"), &at(path, "output"))?,
                is_error: false,
            };
            Message::new(
                MessageId::new(""),
                Role::Tool,
                vec![Part::ToolResult(result)],
            )
        }
        "local_shell_call" => assistant(shell_call(item, path)?),
        "reasoning" => assistant(reasoning(item, path)?),
        carried if CARRIED_CALLS.contains(&carried) => assistant(opaque_part(carried, item)),
        carried if CARRIED_INPUTS.contains(&carried) => Message::new(
            MessageId::new(""),
            Role::User,
            vec![opaque_part(carried, item)],
        ),
        // A type not known yet: kept whole, on the side its name says.
        unknown if unknown.ends_with("_call") => assistant(opaque_part(unknown, item)),
        unknown => Message::new(
            MessageId::new(""),
            Role::User,
            vec![opaque_part(unknown, item)],
        ),
    };
    Ok(pin_opaque(message))
}

fn assistant(part: Part) -> Message {
    Message::new(MessageId::new(""), Role::Assistant, vec![part])
}

/// A `function_call` (arguments in `arguments`) or `custom_tool_call` (in `input`).
fn call(item: &Value, path: &str, input_key: &str) -> Result<Part, FormatError> {
    let arguments = match item.get(input_key) {
        Some(Value::String(text)) => text.clone(),
        None | Some(Value::Null) => String::new(),
        Some(other) => {
            return Err(FormatError::new(
                at(path, input_key),
                format!("expected a string, found {}", kind_of(other)),
            ));
        }
    };
    Ok(Part::ToolCall(ToolCall {
        id: required_str(item, path, "call_id")?.to_owned(),
        name: required_str(item, path, "name")?.to_owned(),
        arguments,
    }))
}

/// A `local_shell_call`: a call by `call_id` named `local_shell`, its arguments the JSON of
/// its `action`.
fn shell_call(item: &Value, path: &str) -> Result<Part, FormatError> {
    let action = item
        .get("action")
        .ok_or_else(|| FormatError::new(at(path, "action"), "missing"))?;
    Ok(Part::ToolCall(ToolCall {
        id: required_str(item, path, "call_id")?.to_owned(),
        name: "local_shell".to_owned(),
        arguments: action.to_string(),
    }))
}

/// A `reasoning` item: its summary texts, or redacted reasoning when it has none.
fn reasoning(item: &Value, path: &str) -> Result<Part, FormatError> {
    let summary_path = at(path, "summary");
    let summary = match item.get("summary") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(parts)) => parts
            .iter()
            .enumerate()
            .map(|(i, part)| required_str(part, &index(&summary_path, i), "text"))
            .collect::<Result<Vec<_>, _>>()?,
        Some(other) => {
            return Err(FormatError::new(
                summary_path,
                format!("expected an array, found {}", kind_of(other)),
            ));
        }
    };
    let text = summary.join("\n");
    Ok(Part::Reasoning(Reasoning {
        redacted: text.is_empty() && item.get("encrypted_content").is_some(),
        text,
    }))
}

fn parse_message(item: &Value, path: &str, options: ParseOptions) -> Result<Message, FormatError> {
    let object = object_at(item, path, "message")?;
    let role = match required_str(item, path, "role")? {
        "system" | "developer" => Role::System,
        "user" => Role::User,
        "assistant" => Role::Assistant,
        unknown => return unknown_role(unknown, item, path, options),
    };
    let parts = output(object.get("content"), &at(path, "content"))?;
    Ok(pin_opaque(Message::new(MessageId::new(""), role, parts)))
}

/// A message's `content` or an output's `output`: a string or an array of parts.
fn output(value: Option<&Value>, path: &str) -> Result<Vec<Part>, FormatError> {
    match value {
        Some(Value::String(text)) => Ok(vec![Part::text(text.clone())]),
        Some(Value::Array(parts)) => parts
            .iter()
            .enumerate()
            .map(|(i, part)| content_part(part, &index(path, i)))
            .collect(),
        None => Err(FormatError::new(path, "missing")),
        Some(other) => Err(FormatError::new(
            path,
            format!(
                "expected a string or an array of parts, found {}",
                kind_of(other)
            ),
        )),
    }
}

pub(super) fn content_part(item: &Value, path: &str) -> Result<Part, FormatError> {
    let object = object_at(item, path, "content part")?;
    let kind = match object.get("type") {
        Some(Value::String(kind)) => kind.as_str(),
        _ => {
            return Err(FormatError::new(
                at(path, "type"),
                "missing or not a string",
            ));
        }
    };
    let str_field = |name: &str| object.get(name).and_then(Value::as_str);
    Ok(match kind {
        "input_text" | "output_text" | "text" | "summary_text" => {
            Part::text(required_str(item, path, "text")?)
        }
        "refusal" => Part::text(required_str(item, path, "refusal")?),
        "input_image" => {
            let low = str_field("detail") == Some("low");
            let label = str_field("image_url")
                .map(short_label)
                .or_else(|| str_field("file_id").map(str::to_owned))
                .unwrap_or_else(|| "image".to_owned());
            Part::Media(Media {
                kind: MediaKind::Image,
                label,
                tokens: if low { IMAGE_LOW_TOKENS } else { IMAGE_TOKENS },
            })
        }
        "input_file" => {
            let label = str_field("filename")
                .or_else(|| str_field("file_id"))
                .or_else(|| str_field("file_url"))
                .unwrap_or("file");
            Part::Media(Media {
                kind: MediaKind::File,
                label: label.to_owned(),
                tokens: str_field("file_data").map_or(FILE_REF_TOKENS, inline_data_tokens),
            })
        }
        "input_audio" => {
            let audio = object.get("input_audio");
            let field = |name: &str| audio.and_then(|a| a.get(name)).and_then(Value::as_str);
            Part::Media(Media {
                kind: MediaKind::Audio,
                label: field("format").unwrap_or("audio").to_owned(),
                tokens: (field("data").unwrap_or_default().len() as u64 / 40).max(50),
            })
        }
        // A type not known yet: kept whole.
        unknown => unknown_part(unknown, item, path, Format::OpenAiResponses)?,
    })
}
