//! A Qwen Code chat (`~/.qwen/projects/<project>/chats/<session>.jsonl`, Qwen Code 0.5 on),
//! read as the Gemini `contents` requests Qwen Code sent.
//!
//! A chat is JSON Lines, one record per line, each with a `uuid`, the `parentUuid` of the
//! record before it, and a `type`: `user` (a prompt, or what Qwen Code injected as one: a
//! notification, a cron prompt), `assistant` (a model answer) and `tool_result` (a tool's
//! response) carry the Gemini content sent or received as their `message` (`role` and
//! `parts`: text, thoughts, `functionCall`s with their API's ids, `functionResponse`s);
//! `system` records are the interface's own (telemetry, titles, slash commands, rewinds)
//! and are never sent. As Qwen Code rebuilds a session, the conversation is the chain of
//! parents from the last record in the file back (a rewound turn leaves a branch behind,
//! which is not in it), and the records written under one `uuid` (a response's streamed
//! pieces) are one, their parts joined.
//!
//! Each `assistant` record is one model call; its request is every content before it.
//! The tool results of one answer (a record each) are one user turn, and a message typed
//! mid-turn (`mid_turn_user_message`) joins the user turn before it, as Qwen Code sends
//! them. A compression (`system` record, subtype `chat_compression`) starts a new epoch:
//! its requests begin with the contents Qwen Code put in place of the history
//! (`systemPayload.compressedHistory`: its summary and the turns it kept). A response
//! whose call the conversation does not hold is kept as text. Thoughts are kept as
//! recorded; the system instruction and the tools are not in the file.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value, json};

use super::gemini_chat::unanswering;
use super::{Agent, Epoch, Lines, Recording, line_path};
use crate::format::{Format, FormatError, at, index, kind_of};

/// Is `object` a Qwen Code record? Claude Code's entries share `uuid` and `parentUuid`;
/// theirs carry Anthropic content, never Gemini `parts`, a `tool_result` type or a
/// `systemPayload`.
pub(crate) fn is_record(object: &Map<String, Value>) -> bool {
    let gemini = object
        .get("message")
        .and_then(|m| m.get("parts"))
        .is_some_and(Value::is_array);
    object.contains_key("uuid")
        && object.contains_key("parentUuid")
        && (gemini
            || object.contains_key("systemPayload")
            || object.get("type").and_then(Value::as_str) == Some("tool_result"))
}

/// The records written under one `uuid`, as one.
struct Record<'a> {
    number: usize,
    object: &'a Map<String, Value>,
    /// The parts of every record's message, in the order written.
    parts: Vec<Value>,
    has_message: bool,
    model: Option<&'a str>,
}

impl Record<'_> {
    fn kind(&self) -> Option<&str> {
        self.object.get("type").and_then(Value::as_str)
    }

    fn subtype(&self) -> Option<&str> {
        self.object.get("subtype").and_then(Value::as_str)
    }
}

/// Reads a chat's lines.
pub(crate) fn read(lines: &Lines) -> Result<Recording, FormatError> {
    let chain = chain(lines)?;
    let mut fields = Map::new();
    let mut epochs = Vec::new();
    let mut epoch = Epoch::default();
    for record in &chain {
        let path = line_path(record.number);
        match (record.kind(), record.subtype()) {
            (Some("system"), Some("chat_compression")) => {
                let Some(history) = record
                    .object
                    .get("systemPayload")
                    .and_then(|p| p.get("compressedHistory"))
                else {
                    continue;
                };
                let lead = compressed(
                    history,
                    &at(&at(&path, "systemPayload"), "compressedHistory"),
                )?;
                epochs.push(std::mem::replace(
                    &mut epoch,
                    Epoch {
                        lead,
                        ..Epoch::default()
                    },
                ));
                continue;
            }
            (Some("system"), _) | (_, Some("realtime_message" | "code_mode_tool_result")) => {
                continue;
            }
            _ if !record.has_message => continue,
            _ => {}
        }
        if record.kind() == Some("assistant") {
            if let Some(model) = record.model {
                fields
                    .entry("model")
                    .or_insert_with(|| Value::String(model.to_owned()));
            }
            epoch.calls.push(epoch.items.len());
            epoch
                .items
                .push(json!({"role": "model", "parts": record.parts.clone()}));
            continue;
        }
        let results = record.kind() == Some("tool_result");
        let joins = epoch.items.last().is_some_and(|turn| {
            turn.get("role").and_then(Value::as_str) == Some("user")
                && (record.subtype() == Some("mid_turn_user_message")
                    || (results && only_responses(turn)))
        });
        if joins {
            // The model turn the user turn it joins follows.
            let answered = (epoch.items.len() >= 2)
                .then(|| &epoch.items[epoch.items.len() - 2])
                .or(epoch.lead.last())
                .cloned();
            let parts = unanswering(record.parts.clone(), answered.as_ref());
            if let Some(Value::Array(list)) = epoch
                .items
                .last_mut()
                .and_then(|turn| turn.get_mut("parts"))
            {
                list.extend(parts);
            }
        } else {
            let before = epoch.items.last().or(epoch.lead.last());
            let parts = unanswering(record.parts.clone(), before);
            epoch.items.push(json!({"role": "user", "parts": parts}));
        }
    }
    epochs.push(epoch);
    Ok(Recording::new(
        Agent::QwenCode,
        Format::Gemini,
        fields,
        epochs,
    ))
}

/// Does `turn` hold only function responses?
fn only_responses(turn: &Value) -> bool {
    turn.get("parts")
        .and_then(Value::as_array)
        .is_some_and(|parts| {
            !parts.is_empty() && parts.iter().all(|p| p.get("functionResponse").is_some())
        })
}

/// A compression's `compressedHistory`: Gemini contents.
fn compressed(history: &Value, path: &str) -> Result<Vec<Value>, FormatError> {
    let contents = history.as_array().ok_or_else(|| {
        FormatError::new(
            path,
            format!("expected Gemini contents, found {}", kind_of(history)),
        )
    })?;
    for (i, content) in contents.iter().enumerate() {
        if !content.get("parts").is_some_and(Value::is_array) {
            return Err(FormatError::new(
                index(path, i),
                "expected a Gemini content (`role` and `parts`)",
            ));
        }
    }
    Ok(contents.clone())
}

/// The conversation: the chain of parents from the file's last record back to its root,
/// in order, each `uuid`'s records as one.
fn chain(lines: &Lines) -> Result<Vec<Record<'_>>, FormatError> {
    let mut by_uuid: HashMap<&str, Vec<usize>> = HashMap::new();
    for (k, (number, object)) in lines.objects.iter().enumerate() {
        let uuid = object.get("uuid").and_then(Value::as_str).ok_or_else(|| {
            FormatError::new(
                at(&line_path(*number), "uuid"),
                "expected a record's uuid (a string)",
            )
        })?;
        by_uuid.entry(uuid).or_default().push(k);
    }
    let mut uuids = Vec::new();
    let mut seen: HashSet<&str> = HashSet::new();
    let mut at_uuid = lines
        .objects
        .last()
        .and_then(|(_, o)| o.get("uuid"))
        .and_then(Value::as_str);
    while let Some(uuid) = at_uuid {
        let Some(first) = by_uuid.get(uuid).and_then(|ks| ks.first()) else {
            break; // a parent the file does not hold: the chain starts here
        };
        if !seen.insert(uuid) {
            break; // a loop of parents: the chain ends where it closes
        }
        uuids.push(uuid);
        at_uuid = lines.objects[*first]
            .1
            .get("parentUuid")
            .and_then(Value::as_str);
    }
    uuids.reverse();
    uuids
        .into_iter()
        .map(|uuid| one(lines, &by_uuid[uuid]))
        .collect()
}

/// The records `ks` (one `uuid`'s, in file order) as one.
fn one<'a>(lines: &'a Lines, ks: &[usize]) -> Result<Record<'a>, FormatError> {
    let (number, object) = &lines.objects[ks[0]];
    let mut record = Record {
        number: *number,
        object,
        parts: Vec::new(),
        has_message: false,
        model: None,
    };
    for &k in ks {
        let (number, object) = &lines.objects[k];
        if record.model.is_none() {
            record.model = object
                .get("model")
                .and_then(Value::as_str)
                .filter(|m| !m.is_empty());
        }
        let Some(message) = object.get("message") else {
            continue;
        };
        let path = at(&line_path(*number), "message");
        if object.get("type").and_then(Value::as_str) == Some("system") {
            continue; // the interface's own: never sent, whatever it carries
        }
        let parts = message
            .get("parts")
            .and_then(Value::as_array)
            .ok_or_else(|| {
                FormatError::new(&path, "expected a Gemini content (`role` and `parts`)")
            })?;
        record.has_message = true;
        record.parts.extend(parts.iter().cloned());
    }
    Ok(record)
}

#[cfg(test)]
mod tests {
    use crate::format::recording::{Agent, read as read_file};
    use serde_json::json;

    #[test]
    fn a_message_without_parts_is_an_error_at_its_line() {
        let text = [
            json!({"uuid": "a", "parentUuid": null, "type": "user", "message": {"role": "user", "parts": [{"text": "hi"}]}}),
            json!({"uuid": "b", "parentUuid": "a", "type": "assistant", "message": {"role": "model", "content": "hello"}}),
        ]
        .map(|line| line.to_string())
        .join("\n");
        let error = read_file(&text).expect_err("refused");
        assert_eq!(error.path, "line 2.message");
        assert!(error.message.contains("parts"), "{error}");
        let no_uuid = format!(
            "{}\n{}",
            text.lines().next().unwrap_or_default(),
            json!({"type": "user"})
        );
        let error = read_file(&no_uuid).expect_err("refused");
        assert_eq!(error.path, "line 2.uuid");
    }

    #[test]
    fn records_are_told_from_claude_codes_entries() {
        let qwen = json!({"uuid": "a", "parentUuid": null, "sessionId": "s", "type": "user", "message": {"role": "user", "parts": [{"text": "hi"}]}});
        let claude = json!({"uuid": "a", "parentUuid": null, "sessionId": "s", "type": "user", "message": {"role": "user", "content": "hi"}});
        // Two lines each: one JSON object alone is read as a request body or a chat first.
        let read = |line: &serde_json::Value| {
            let again = line.to_string().replace("\"a\"", "\"b\"");
            read_file(&format!("{line}\n{again}\n"))
                .ok()
                .flatten()
                .map(|r| r.agent)
        };
        assert_eq!(read(&qwen), Some(Agent::QwenCode));
        assert_eq!(read(&claude), Some(Agent::ClaudeCode));
    }

    #[test]
    fn a_parent_the_file_does_not_hold_starts_the_chain() {
        let text = [
            json!({"uuid": "a", "parentUuid": "lost", "type": "user", "message": {"role": "user", "parts": [{"text": "hi"}]}}),
            json!({"uuid": "b", "parentUuid": "a", "type": "assistant", "model": "m", "message": {"role": "model", "parts": [{"text": "hello"}]}}),
        ]
        .map(|line| line.to_string())
        .join("\n");
        let recording = read_file(&text).expect("reads").expect("a chat");
        assert_eq!((recording.calls(), recording.model()), (1, Some("m")));
    }
}
