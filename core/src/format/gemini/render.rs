//! Writing a message the run changed or made back as a Gemini content.

use serde_json::{Map, Value, json};

use super::{field, read_parts};
use crate::format::{base_object, placeholder, render_blocks_read};
use crate::message::{Message, Part, Role, text_of};

/// Renders a message the engine wrote or changed as one content, on top of its original
/// (whose other fields are kept). Unchanged parts stay verbatim; a changed part is written
/// over the original part at its place only when that part is of the same kind, so a
/// `thoughtSignature` never lands on another part. A summary has no original and becomes
/// a `user` content of one text part.
pub(crate) fn render(message: &Message, original: Option<&Value>) -> Value {
    let mut object = base_object(original);
    let role_kept = matches!(
        (message.role, object.get("role").and_then(Value::as_str)),
        (Role::User | Role::Tool, Some("user" | "function") | None)
            | (Role::Assistant, Some("model"))
    );
    if !role_kept || !object.contains_key("role") && original.is_none() {
        let role = if message.role == Role::Assistant {
            "model"
        } else {
            "user"
        };
        object.insert("role".into(), json!(role));
    }
    let originals = object
        .get("parts")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let read: Vec<Option<Part>> = read_parts(&originals, "")
        .map(|mut parts| {
            answered_as(&mut parts, &message.parts);
            parts.into_iter().map(Some).collect()
        })
        .unwrap_or_default();
    let parts = render_blocks_read(&message.parts, &originals, &read, render_part);
    object.insert("parts".into(), Value::Array(parts));
    Value::Object(object)
}

/// Gives the responses in `read` (the original parts, read alone) the call ids their
/// message's responses took when they were paired with the turn before (see
/// [`super::answer`]): the k-th response to a name takes the id of the message's k-th
/// response to it, so that a response the run did not change reads as itself.
fn answered_as(read: &mut [Part], parts: &[Part]) {
    let mut taken = vec![false; parts.len()];
    for part in read {
        let Part::ToolResult(result) = part else {
            continue;
        };
        let same = parts.iter().enumerate().find_map(|(j, p)| match p {
            Part::ToolResult(r) if !taken[j] && r.tool_name == result.tool_name => Some((j, r)),
            _ => None,
        });
        if let Some((j, answered)) = same {
            taken[j] = true;
            result.call_id = answered.call_id.clone();
        }
    }
}

/// What kind of part a JSON part is, by its data field.
fn kind(object: &Map<String, Value>) -> Option<&'static str> {
    if object.contains_key("text") {
        Some("text")
    } else if field(object, "functionCall", "function_call").is_some() {
        Some("functionCall")
    } else if field(object, "functionResponse", "function_response").is_some() {
        Some("functionResponse")
    } else {
        None
    }
}

/// Renders one part over `base`, the original part at its place, when `base` is of the
/// same kind; fresh otherwise.
fn render_part(part: &Part, base: Option<&Map<String, Value>>) -> Value {
    let same = |wanted: &str| base.filter(|b| kind(b) == Some(wanted)).cloned();
    match part {
        Part::Text { text } => {
            let mut object = same("text").unwrap_or_default();
            object.shift_remove("thought");
            object.insert("text".into(), json!(text));
            Value::Object(object)
        }
        Part::Reasoning(reasoning) => {
            let mut object = same("text").unwrap_or_default();
            object.insert("text".into(), json!(reasoning.text));
            object.insert("thought".into(), json!(true));
            Value::Object(object)
        }
        Part::ToolResult(result) => {
            let text = text_of(&result.content);
            match same("functionResponse") {
                Some(mut object) => {
                    let key = if object.contains_key("functionResponse") {
                        "functionResponse"
                    } else {
                        "function_response"
                    };
                    if let Some(Value::Object(response)) = object.get_mut(key) {
                        let field = match response.get("response").and_then(Value::as_object) {
                            Some(old) if old.len() == 1 => old
                                .keys()
                                .next()
                                .cloned()
                                .unwrap_or_else(|| "output".into()),
                            _ => "output".into(),
                        };
                        response.insert("response".into(), json!({ field: text }));
                    }
                    Value::Object(object)
                }
                None => {
                    let name = result.tool_name.as_deref().unwrap_or("tool");
                    let mut response = json!({"name": name, "response": {"output": text}});
                    if !is_synthetic(&result.call_id, name) {
                        response["id"] = json!(result.call_id);
                    }
                    json!({ "functionResponse": response })
                }
            }
        }
        Part::ToolCall(call) => {
            let args: Value = serde_json::from_str(&call.arguments).unwrap_or(json!({}));
            let mut function = json!({"name": call.name, "args": args});
            if !is_synthetic(&call.id, &call.name) {
                function["id"] = json!(call.id);
            }
            json!({ "functionCall": function })
        }
        other => json!({ "text": placeholder(other) }),
    }
}

/// Is `id` a name the adapter gave an id-less call or response to `name` (`name#k`)?
fn is_synthetic(id: &str, name: &str) -> bool {
    id.strip_prefix(name)
        .and_then(|rest| rest.strip_prefix('#'))
        .is_some_and(|k| !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()))
}

/// Renders the message read from `systemInstruction`: a content of text parts over the
/// original, or a string when the original was one.
pub(crate) fn render_instruction(message: &Message, original: Option<&Value>) -> Value {
    match original {
        Some(Value::Object(_)) => {
            let mut object = base_object(original);
            let originals = object
                .get("parts")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            let read: Vec<Option<Part>> = originals
                .iter()
                .map(|p| p.get("text").and_then(Value::as_str).map(Part::text))
                .collect();
            let parts = render_blocks_read(&message.parts, &originals, &read, render_part);
            object.insert("parts".into(), Value::Array(parts));
            Value::Object(object)
        }
        _ => json!(message.text()),
    }
}
