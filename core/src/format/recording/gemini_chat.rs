//! A gemini-cli chat (`~/.gemini/tmp/<project>/chats/session-*.json`, before 0.39; older
//! Qwen Code versions wrote the same under `~/.qwen/tmp`), read as the Gemini `contents`
//! requests it sent. gemini-cli 0.39 on writes the same messages as JSON Lines, read by
//! `gemini_jsonl` through [`Turns`].
//!
//! A chat is one JSON object: `sessionId`, `projectHash`, times, and `messages`, each with
//! a `type`: `user` (its `content` a string or Gemini parts), `gemini` (`qwen` in Qwen
//! Code: one model answer, its text in `content`, the thoughts shown and the token usage
//! beside it, and the `toolCalls` it made, each with its `result` parts), or `info` and
//! `error` (the interface's own, never sent). Each model answer is one call, its request
//! every content before it: a user turn, a `model` turn of its text and its calls, and
//! the user turn of its calls' results, right after it. gemini-cli 0.44 on also records
//! the responses it sends as a `user` message of their own, and may rewrite an answer's
//! `content` as the model turn it holds, its calls in it: neither is sent twice.
//!
//! A checkpoint (`/chat save`, `checkpoint-<tag>.json`) is the Gemini contents gemini-cli
//! held, its setup context first: read as they are, each `model` turn a call.
//!
//! gemini-cli also keeps a log of the prompts typed (`logs.json`: an array of `{sessionId,
//! messageId, type, message, timestamp}`): read as the user's turns alone, with no call.
//!
//! gemini-cli names each call itself (the Gemini API sends none): its calls go back
//! without an `id` and its results with gemini-cli's (`read_file-1752306492234-58dd…`),
//! paired by name and order (see [`crate::format::gemini`]). Qwen Code's calls keep the id their
//! API gave them. A response whose call the chat did not record (older versions kept a
//! tool's result in the user's turn and dropped the call) is kept as text. Thoughts are
//! not sent back, nor recorded with their signatures; the system instruction and the tools
//! are not in the file.

use serde_json::{Map, Value, json};

use super::{Agent, Epoch, Recording};
use crate::format::{Format, FormatError, at, index, kind_of};

/// Is `object` a gemini-cli chat?
pub(crate) fn is_chat(object: &Map<String, Value>) -> bool {
    object.contains_key("sessionId")
        && object.get("messages").is_some_and(|m| {
            m.as_array()
                .is_some_and(|m| m.iter().all(|m| m.get("type").is_some()))
        })
}

/// Is `items` a gemini-cli checkpoint: Gemini contents opening with its setup context?
pub(crate) fn is_checkpoint(items: &[Value]) -> bool {
    let opening = items
        .first()
        .and_then(|c| c.get("parts"))
        .and_then(|p| p.get(0))
        .and_then(|p| p.get("text"))
        .and_then(Value::as_str);
    opening.is_some_and(crate::task::is_setup_context)
        && items
            .iter()
            .all(|c| c.get("role").is_some() && c.get("parts").is_some_and(Value::is_array))
}

/// Reads a checkpoint: the contents as they are, each `model` turn a call.
pub(crate) fn read_checkpoint(items: &[Value]) -> Result<Recording, FormatError> {
    let mut epoch = Epoch::default();
    for item in items {
        if item.get("role").and_then(Value::as_str) == Some("model") {
            epoch.calls.push(epoch.items.len());
            epoch.items.push(item.clone());
            continue;
        }
        let parts = item
            .get("parts")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let mut item = item.clone();
        item["parts"] = Value::Array(unanswering(parts, epoch.items.last()));
        epoch.items.push(item);
    }
    Ok(Recording::new(
        Agent::GeminiCli,
        Format::Gemini,
        Map::new(),
        vec![epoch],
    ))
}

/// Is `items` a gemini-cli prompt log?
pub(crate) fn is_log(items: &[Value]) -> bool {
    !items.is_empty()
        && items.iter().all(|item| {
            item.get("sessionId").is_some()
                && item.get("messageId").is_some()
                && item.get("message").is_some()
        })
}

/// Reads a prompt log: each user prompt a turn of its own.
pub(crate) fn read_log(items: &[Value]) -> Result<Recording, FormatError> {
    let mut epoch = Epoch::default();
    for (i, item) in items.iter().enumerate() {
        if item.get("type").and_then(Value::as_str) != Some("user") {
            continue;
        }
        let path = index("$", i);
        let parts = parts(item.get("message"), &at(&path, "message"))?;
        epoch.items.push(json!({"role": "user", "parts": parts}));
    }
    Ok(Recording::new(
        Agent::GeminiCli,
        Format::Gemini,
        Map::new(),
        vec![epoch],
    ))
}

/// Reads a chat.
pub(crate) fn read(chat: &Map<String, Value>) -> Result<Recording, FormatError> {
    let messages = chat
        .get("messages")
        .and_then(Value::as_array)
        .ok_or_else(|| FormatError::new("messages", "missing or not an array"))?;
    let mut turns = Turns::default();
    for (i, message) in messages.iter().enumerate() {
        turns.message(message, &index("messages", i))?;
    }
    Ok(turns.finish(vec![]))
}

/// A chat's messages turned into Gemini contents, one message at a time.
#[derive(Default)]
pub(crate) struct Turns {
    /// The contents so far, and the calls among them.
    pub(crate) epoch: Epoch,
    /// The first model named.
    model: Option<String>,
    /// The result parts the last answer's calls gave. gemini-cli 0.44 on also records the
    /// responses it sends as a user message of their own: the same parts, not sent twice.
    answered: Vec<Value>,
}

impl Turns {
    /// Adds `message` (at `path`, for errors): a `user` turn, a model answer (one call,
    /// then the user turn of its calls' results), or the interface's own (nothing).
    pub(crate) fn message(&mut self, message: &Value, path: &str) -> Result<(), FormatError> {
        let kind = message
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or_default();
        match kind {
            "user" => {
                let mut parts = parts(message.get("content"), &at(path, "content"))?;
                let recorded = parts.len();
                for result in std::mem::take(&mut self.answered) {
                    if let Some(at) = parts.iter().position(|part| *part == result) {
                        parts.remove(at);
                    }
                }
                if recorded > 0 && parts.is_empty() {
                    return Ok(()); // only the results, already sent
                }
                let parts = unanswering(parts, self.epoch.items.last());
                self.epoch
                    .items
                    .push(json!({"role": "user", "parts": parts}));
            }
            "gemini" | "qwen" => {
                if let Some(model) = message.get("model").and_then(Value::as_str) {
                    self.model.get_or_insert_with(|| model.to_owned());
                }
                self.epoch.calls.push(self.epoch.items.len());
                let (turn, results) = answer(message, path, kind == "qwen")?;
                self.epoch.items.push(turn);
                if !results.is_empty() {
                    self.epoch
                        .items
                        .push(json!({"role": "user", "parts": results.clone()}));
                }
                self.answered = results;
            }
            _ => {}
        }
        Ok(())
    }

    /// The recording: earlier `epochs`, then this one.
    pub(crate) fn finish(self, mut epochs: Vec<Epoch>) -> Recording {
        let mut fields = Map::new();
        if let Some(model) = self.model {
            fields.insert("model".into(), Value::String(model));
        }
        epochs.push(self.epoch);
        Recording::new(Agent::GeminiCli, Format::Gemini, fields, epochs)
    }
}

/// `parts` with each `functionResponse` that answers no call of `before` (the turn before,
/// when it is the model's: older chats did not record their calls) as a text part of its
/// response: the API refuses a response without its call.
pub(crate) fn unanswering(parts: Vec<Value>, before: Option<&Value>) -> Vec<Value> {
    let mut calls: Vec<&str> = before
        .filter(|turn| turn.get("role").and_then(Value::as_str) == Some("model"))
        .and_then(|turn| turn.get("parts"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|part| part.get("functionCall")?.get("name")?.as_str())
        .collect();
    parts
        .into_iter()
        .map(|part| {
            let Some(response) = part.get("functionResponse") else {
                return part;
            };
            let name = response.get("name").and_then(Value::as_str);
            match calls.iter().position(|call| Some(*call) == name) {
                Some(at) => {
                    calls.remove(at);
                    part
                }
                None => {
                    let text = response
                        .get("response")
                        .map(crate::format::gemini::response_text)
                        .unwrap_or_default();
                    json!({ "text": text })
                }
            }
        })
        .collect()
}

/// A message's `content` as parts: a string is one text part.
fn parts(content: Option<&Value>, path: &str) -> Result<Vec<Value>, FormatError> {
    match content {
        Some(Value::String(text)) => Ok(vec![json!({ "text": text })]),
        Some(Value::Array(parts)) => Ok(parts.clone()),
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(other) => Err(FormatError::new(
            path,
            format!("expected a string or parts, found {}", kind_of(other)),
        )),
    }
}

/// A model answer as its `model` turn (its text, then its calls) and the parts of its
/// calls' results. `keep_ids`: the calls go back with their ids (Qwen Code).
fn answer(message: &Value, path: &str, keep_ids: bool) -> Result<(Value, Vec<Value>), FormatError> {
    let mut turn = parts(message.get("content"), &at(path, "content"))?;
    turn.retain(|part| part.get("text").and_then(Value::as_str) != Some(""));
    let mut results = Vec::new();
    let calls = match message.get("toolCalls") {
        None | Some(Value::Null) => &[][..],
        Some(Value::Array(calls)) => calls,
        Some(other) => {
            return Err(FormatError::new(
                at(path, "toolCalls"),
                format!("expected an array, found {}", kind_of(other)),
            ));
        }
    };
    // gemini-cli 0.44 on may rewrite an answer's content as the model turn it holds, its
    // calls in it: those are not added again.
    let mut in_content: Vec<&Value> = turn
        .iter()
        .filter_map(|part| part.get("functionCall"))
        .collect();
    let mut added = Vec::new();
    for (j, call) in calls.iter().enumerate() {
        let call_path = index(&at(path, "toolCalls"), j);
        let name = crate::format::required_str(call, &call_path, "name")?;
        let same = in_content
            .iter()
            .position(|function| match function.get("id") {
                Some(id) => Some(id) == call.get("id"),
                None => function.get("name").and_then(Value::as_str) == Some(name),
            });
        match same {
            Some(at) => {
                in_content.remove(at);
            }
            None => {
                let mut function =
                    json!({"name": name, "args": call.get("args").cloned().unwrap_or(json!({}))});
                if keep_ids && let Some(id) = call.get("id") {
                    function["id"] = id.clone();
                }
                added.push(json!({ "functionCall": function }));
            }
        }
        match call.get("result") {
            Some(Value::Array(parts)) => results.extend(parts.iter().cloned()),
            None | Some(Value::Null) => {}
            Some(other) => {
                return Err(FormatError::new(
                    at(&call_path, "result"),
                    format!("expected parts, found {}", kind_of(other)),
                ));
            }
        }
    }
    turn.extend(added);
    Ok((json!({"role": "model", "parts": turn}), results))
}
