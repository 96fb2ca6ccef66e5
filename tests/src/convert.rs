//! Turns neutral messages (read from OpenAI corpus files) into Anthropic, AI SDK, OpenAI
//! Responses and Gemini JSON, so the real trajectories exercise every adapter. Used only by
//! tests: it takes the shortest valid path (a leading system prompt to the top-level field,
//! consecutive same-side messages merged for Anthropic, tool messages merged for the AI
//! SDK, one item per text, call and output for Responses, a turn's results in one user
//! content for Gemini) and drops opaque messages such as mini-swe-agent's `exit`.

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

/// The text parts of a message, without what its calls would read as.
fn plain_text(message: &Message) -> String {
    message
        .parts
        .iter()
        .filter_map(|part| match part {
            Part::Text { text } => Some(text.as_str()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The leading system messages' text, and the messages after them.
fn split_system(messages: &[Message]) -> (Option<String>, &[Message]) {
    let leading = messages
        .iter()
        .take_while(|m| m.role == Role::System)
        .count();
    let system: Vec<String> = messages[..leading].iter().map(Message::text).collect();
    let system = (!system.is_empty()).then(|| system.join("\n\n"));
    (system, &messages[leading..])
}

/// An OpenAI Responses request body: `{ "model", "instructions", "input" }`. Each assistant
/// turn that makes calls is led by a `reasoning` item (encrypted, no summary, as a
/// reasoning model sends it back), so the corpus exercises keeping the two together.
pub fn to_responses(messages: &[Message]) -> Value {
    let (system, rest) = split_system(messages);
    let mut input = Vec::new();
    for (i, message) in rest.iter().filter(|m| !is_opaque(m)).enumerate() {
        let text = plain_text(message);
        match message.role {
            Role::System => input.push(json!({"role": "developer", "content": text})),
            Role::User => input.push(json!({"role": "user", "content": text})),
            Role::Assistant => {
                if message.has_tool_calls() {
                    input.push(json!({
                        "type": "reasoning", "id": format!("rs_{i}"), "summary": [],
                        "encrypted_content": format!("gAAAAB{i:08}"),
                    }));
                }
                if !text.trim().is_empty() || !message.has_tool_calls() {
                    input.push(json!({
                        "type": "message", "id": format!("msg_{i}"), "role": "assistant", "status": "completed",
                        "content": [{"type": "output_text", "text": text, "annotations": []}],
                    }));
                }
                for call in message.tool_calls() {
                    input.push(json!({
                        "type": "function_call", "id": format!("fc_{}", call.id), "call_id": call.id,
                        "name": call.name, "arguments": call.arguments, "status": "completed",
                    }));
                }
            }
            Role::Tool => {
                for result in message.tool_results() {
                    input.push(json!({
                        "type": "function_call_output", "call_id": result.call_id,
                        "output": result_text(&result.content),
                    }));
                }
            }
        }
    }
    let mut body = json!({ "model": "gpt-5" });
    if let Some(system) = system {
        body["instructions"] = json!(system);
    }
    body["input"] = Value::Array(input);
    body
}

/// A Gemini request body: `{ "systemInstruction", "contents" }`. With `ids`, calls and
/// responses carry the corpus ids; without, they pair by order and name. The first call of
/// each model turn carries a `thoughtSignature`, as Gemini's thinking models send them.
pub fn to_gemini(messages: &[Message], ids: bool) -> Value {
    // Some agents reuse call ids across turns: a result is named after the latest call.
    let mut names: HashMap<&str, &str> = HashMap::new();
    let (system, rest) = split_system(messages);
    let mut contents: Vec<Value> = Vec::new();
    let mut last_results = false;
    for (i, message) in rest.iter().filter(|m| !is_opaque(m)).enumerate() {
        let text = plain_text(message);
        let results = message.role == Role::Tool;
        names.extend(
            message
                .tool_calls()
                .map(|c| (c.id.as_str(), c.name.as_str())),
        );
        let parts: Vec<Value> = match message.role {
            Role::Assistant => {
                let mut parts = Vec::new();
                if !text.trim().is_empty() {
                    parts.push(json!({"text": text}));
                }
                for (k, call) in message.tool_calls().enumerate() {
                    let mut function =
                        json!({"name": call.name, "args": input_of(&call.arguments)});
                    if ids {
                        function["id"] = json!(call.id);
                    }
                    let mut part = json!({"functionCall": function});
                    if k == 0 {
                        part["thoughtSignature"] = json!(format!("c2lnbmF0dXJl{i:06}"));
                    }
                    parts.push(part);
                }
                parts
            }
            Role::Tool => message
                .tool_results()
                .map(|result| {
                    let name = names
                        .get(result.call_id.as_str())
                        .copied()
                        .unwrap_or("tool");
                    let mut response =
                        json!({"name": name, "response": {"output": result_text(&result.content)}});
                    if ids {
                        response["id"] = json!(result.call_id);
                    }
                    json!({"functionResponse": response})
                })
                .collect(),
            Role::User | Role::System => vec![json!({"text": text})],
        };
        let parts = if parts.is_empty() {
            vec![json!({"text": "(empty)"})]
        } else {
            parts
        };
        match contents.last_mut() {
            Some(last) if results && last_results => {
                if let Some(existing) = last["parts"].as_array_mut() {
                    existing.extend(parts);
                }
            }
            _ => {
                let role = if message.role == Role::Assistant {
                    "model"
                } else {
                    "user"
                };
                contents.push(json!({"role": role, "parts": parts}));
            }
        }
        last_results = results;
    }
    let mut body = json!({});
    if let Some(system) = system {
        body["systemInstruction"] = json!({"parts": [{"text": system}]});
    }
    body["contents"] = Value::Array(contents);
    body["generationConfig"] = json!({"temperature": 0.7});
    body
}
