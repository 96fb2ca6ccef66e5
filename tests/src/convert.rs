//! Turns neutral messages (read from OpenAI corpus files) into Anthropic and AI SDK JSON, so
//! the real trajectories exercise every adapter. Used only by tests: it takes the shortest
//! valid path (a leading system prompt to the top-level field, consecutive same-side
//! messages merged for Anthropic, tool messages merged for the AI SDK) and drops opaque
//! messages such as mini-swe-agent's `exit`.

use std::collections::HashMap;

use compactor::message::{Message, Part, Role};
use serde_json::{Value, json};

fn is_opaque(message: &Message) -> bool {
    message.parts.iter().all(|p| matches!(p, Part::Opaque(_))) && !message.parts.is_empty()
}

fn input_of(arguments: &str) -> Value {
    match serde_json::from_str::<Value>(arguments) {
        Ok(object @ Value::Object(_)) => object,
        _ => json!({ "arguments": arguments }),
    }
}

fn result_text(parts: &[Part]) -> String {
    Message::new("", Role::Tool, parts.to_vec()).text()
}

/// An Anthropic request body: `{ "system", "messages" }`.
pub fn to_anthropic(messages: &[Message]) -> Value {
    let leading = messages
        .iter()
        .take_while(|m| m.role == Role::System)
        .count();
    let system: Vec<String> = messages[..leading].iter().map(Message::text).collect();
    let mut out: Vec<(&'static str, Vec<Value>)> = Vec::new();
    for message in messages[leading..].iter().filter(|m| !is_opaque(m)) {
        let side = if message.role == Role::Assistant {
            "assistant"
        } else {
            "user"
        };
        let mut blocks = Vec::new();
        for part in &message.parts {
            match part {
                Part::Text { text } if !text.trim().is_empty() => {
                    blocks.push(json!({"type": "text", "text": text}));
                }
                Part::ToolCall(call) => blocks.push(json!({
                    "type": "tool_use", "id": call.id, "name": call.name, "input": input_of(&call.arguments),
                })),
                Part::ToolResult(result) => blocks.push(json!({
                    "type": "tool_result", "tool_use_id": result.call_id, "content": result_text(&result.content),
                })),
                _ => {}
            }
        }
        if blocks.is_empty() {
            blocks.push(json!({"type": "text", "text": "(empty)"}));
        }
        match out.last_mut() {
            Some((last, existing)) if *last == side => existing.extend(blocks),
            _ => out.push((side, blocks)),
        }
    }
    if out.first().is_some_and(|(side, _)| *side == "assistant") {
        out.insert(
            0,
            ("user", vec![json!({"type": "text", "text": "(start)"})]),
        );
    }
    let messages: Vec<Value> = out
        .into_iter()
        .map(|(role, content)| json!({"role": role, "content": content}))
        .collect();
    let mut body =
        json!({ "model": "claude-sonnet-4-5", "max_tokens": 4096, "messages": messages });
    if !system.is_empty() {
        body["system"] = json!(system.join("\n\n"));
    }
    body
}

/// An array of AI SDK `ModelMessage`s.
pub fn to_aisdk(messages: &[Message]) -> Value {
    let names: HashMap<&str, &str> = messages
        .iter()
        .flat_map(Message::tool_calls)
        .map(|c| (c.id.as_str(), c.name.as_str()))
        .collect();
    let mut out: Vec<Value> = Vec::new();
    for message in messages.iter().filter(|m| !is_opaque(m)) {
        match message.role {
            Role::System => out.push(json!({"role": "system", "content": message.text()})),
            Role::User => out.push(json!({"role": "user", "content": message.text()})),
            Role::Assistant if !message.has_tool_calls() => {
                out.push(json!({"role": "assistant", "content": message.text()}));
            }
            Role::Assistant => {
                let parts: Vec<Value> = message
                    .parts
                    .iter()
                    .filter_map(|part| match part {
                        Part::Text { text } => Some(json!({"type": "text", "text": text})),
                        Part::ToolCall(call) => Some(json!({
                            "type": "tool-call", "toolCallId": call.id, "toolName": call.name, "input": input_of(&call.arguments),
                        })),
                        _ => None,
                    })
                    .collect();
                out.push(json!({"role": "assistant", "content": parts}));
            }
            Role::Tool => {
                let parts: Vec<Value> = message
                    .tool_results()
                    .map(|result| json!({
                        "type": "tool-result",
                        "toolCallId": result.call_id,
                        "toolName": names.get(result.call_id.as_str()).copied().unwrap_or("tool"),
                        "output": {"type": "text", "value": result_text(&result.content)},
                    }))
                    .collect();
                match out.last_mut() {
                    Some(last) if last["role"] == "tool" => {
                        if let Some(existing) = last["content"].as_array_mut() {
                            existing.extend(parts);
                        }
                    }
                    _ => out.push(json!({"role": "tool", "content": parts})),
                }
            }
        }
    }
    Value::Array(out)
}
