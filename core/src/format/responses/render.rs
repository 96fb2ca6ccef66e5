//! Writing a message the run changed or made back as a Responses item.

use serde_json::{Map, Value, json};

use super::content_part;
use crate::format::{base_object, placeholder, render_blocks};
use crate::message::{Message, Part, Role, text_of};

/// Renders a message the engine wrote or changed as one item, on top of its original item
/// (whose other fields, `id` and `status` included, are kept). A summary has no original
/// and becomes a user `message` item with string content.
pub(crate) fn render(message: &Message, original: Option<&Value>) -> Value {
    let mut object = base_object(original);
    let kind = object
        .get("type")
        .and_then(Value::as_str)
        .map(str::to_owned);
    if let Some(result) = message.tool_results().next() {
        if kind.is_none() {
            object.insert("type".into(), json!("function_call_output"));
        }
        object.insert("call_id".into(), json!(result.call_id));
        object.insert("output".into(), json!(text_of(&result.content)));
        return Value::Object(object);
    }
    if let Some(call) = message.tool_calls().next() {
        let input_key = match kind.as_deref() {
            // A shell call is never rewritten: the original stands.
            Some("local_shell_call") => return Value::Object(object),
            Some("custom_tool_call") => "input",
            Some(_) => "arguments",
            None => {
                object.insert("type".into(), json!("function_call"));
                "arguments"
            }
        };
        object.insert("call_id".into(), json!(call.id));
        object.insert("name".into(), json!(call.name));
        object.insert(input_key.into(), json!(call.arguments));
        return Value::Object(object);
    }
    let reasoning: Vec<&str> = message
        .parts
        .iter()
        .filter_map(|part| match part {
            Part::Reasoning(reasoning) => Some(reasoning.text.as_str()),
            _ => None,
        })
        .collect();
    if !reasoning.is_empty() && reasoning.len() == message.parts.len() {
        // Reasoning is never rewritten; an item without an original is written with its
        // summary (the API wants the item's `id` too, which only the original has).
        if original.is_none() {
            object.insert("type".into(), json!("reasoning"));
            let summary: Vec<Value> = reasoning
                .iter()
                .filter(|text| !text.is_empty())
                .map(|text| json!({"type": "summary_text", "text": text}))
                .collect();
            object.insert("summary".into(), Value::Array(summary));
        }
        return Value::Object(object);
    }
    if kind.as_deref().is_some_and(|kind| kind != "message") {
        // A carried item (opaque) is never changed: the original stands.
        return Value::Object(object);
    }
    render_message(message, original.is_none(), object)
}

/// Renders a `message` item over `object`, its original's fields.
fn render_message(message: &Message, fresh: bool, mut object: Map<String, Value>) -> Value {
    if fresh {
        object.insert("type".into(), json!("message"));
    }
    let role = match message.role {
        Role::System => match object.get("role").and_then(Value::as_str) {
            Some(role @ ("system" | "developer")) => role.to_owned(),
            _ => "developer".to_owned(),
        },
        role => role.as_str().to_owned(),
    };
    object.insert("role".into(), json!(role));
    let text_type = if message.role == Role::Assistant {
        "output_text"
    } else {
        "input_text"
    };
    let content = match object.get("content").and_then(Value::as_array) {
        Some(originals) => Value::Array(render_blocks(
            &message.parts,
            originals,
            |part| content_part(part, "").ok(),
            |part, base| render_part(part, base, text_type),
        )),
        None => json!(
            message
                .parts
                .iter()
                .map(placeholder)
                .filter(|text| !text.is_empty())
                .collect::<Vec<_>>()
                .join("\n")
        ),
    };
    object.insert("content".into(), content);
    Value::Object(object)
}

/// Renders one content part on top of the original part at its place.
fn render_part(part: &Part, base: Option<&Map<String, Value>>, text_type: &str) -> Value {
    let text = match part {
        Part::Text { text } => text.clone(),
        other => placeholder(other),
    };
    let mut object = base.cloned().unwrap_or_default();
    let keeps_type = matches!(
        object.get("type").and_then(Value::as_str),
        Some("input_text" | "output_text")
    );
    if !keeps_type {
        object.clear();
        object.insert("type".into(), json!(text_type));
    }
    object.shift_remove("refusal");
    object.insert("text".into(), json!(text));
    if object.get("type").and_then(Value::as_str) == Some("output_text")
        && !object.contains_key("annotations")
    {
        object.insert("annotations".into(), json!([]));
    }
    Value::Object(object)
}

/// Renders the message read from `instructions`: a string.
pub(crate) fn render_instructions(message: &Message, _original: Option<&Value>) -> Value {
    json!(message.text())
}
