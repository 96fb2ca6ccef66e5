//! A Claude Code transcript (`~/.claude/projects/<project>/<session>.jsonl`), read as the
//! Anthropic Messages requests Claude Code sent.
//!
//! A transcript is JSON Lines, one entry per line, each with a `uuid` and the
//! `parentUuid` of the entry before it: `user` and `assistant` entries carry an API
//! `message`; `system`, `attachment`, `progress`, `summary`, `file-history-snapshot` and
//! their kin are the interface's own and are never sent as they are. The conversation is
//! the chain of parents from the newest entry back (a rewound or edited turn leaves a
//! branch behind, which is not in it; a parent the file does not hold is taken to be the
//! entry before in the file); a subagent's transcript (every entry
//! `isSidechain`) is read the same way, and a main transcript's sidechain entries are
//! left out.
//!
//! Claude Code writes one entry per content block of a response, each with the response's
//! `message.id`: consecutive entries of one role are one message, as the API combines
//! them, and a user's prompt typed after an interrupted tool's result joins that result's
//! message. Each assistant message is one model call; its request is every message before
//! it. Entries Claude Code made itself without calling the model (`<synthetic>` answers,
//! API errors) are left out. A compact boundary (`system` entry, subtype
//! `compact_boundary`) starts a new epoch: its requests begin with the summary Claude Code
//! wrote (the `isCompactSummary` entry), and the chain goes on before it through the
//! boundary's `logicalParentUuid`. A tool result whose call the file does not hold (it
//! starts mid-turn) is kept as the blocks it carried. The system prompt and the tools are
//! not in the file.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value, json};

use super::{Agent, Epoch, Lines, Recording, append, line_path};
use crate::format::{Format, FormatError, at};

/// Entry types of a transcript.
const ENTRIES: &[&str] = &[
    "user",
    "assistant",
    "system",
    "summary",
    "attachment",
    "progress",
    "file-history-snapshot",
    "queue-operation",
    "permission-mode",
    "last-prompt",
    "ai-title",
    "custom-title",
];

/// Is `object` a transcript entry?
pub(crate) fn is_entry(object: &Map<String, Value>) -> bool {
    let kind = object.get("type").and_then(Value::as_str);
    let session = object.contains_key("sessionId") && !object.contains_key("payload");
    let summary = kind == Some("summary") && object.contains_key("leafUuid");
    let snapshot = kind == Some("file-history-snapshot") && object.contains_key("messageId");
    // A transcript trimmed of its ids (by a viewer, an export) is still its entries: a
    // `user` or `assistant` type around a `message` with content.
    let bare = matches!(kind, Some("user" | "assistant"))
        && object
            .get("message")
            .and_then(Value::as_object)
            .is_some_and(|m| m.contains_key("content"));
    (session && kind.is_some_and(|k| ENTRIES.contains(&k)))
        || summary
        || snapshot
        || bare
        || (object.contains_key("uuid") && object.contains_key("parentUuid"))
}

/// One entry of the conversation, as the chain has it.
struct Entry<'a> {
    number: usize,
    object: &'a Map<String, Value>,
}

impl<'a> Entry<'a> {
    fn kind(&self) -> Option<&'a str> {
        self.object.get("type").and_then(Value::as_str)
    }

    fn flag(&self, key: &str) -> bool {
        self.object.get(key).and_then(Value::as_bool) == Some(true)
    }

    /// The API message's id: one per response, shared by the entries of its blocks.
    fn message_id(&self) -> Option<&'a str> {
        self.object.get("message")?.get("id")?.as_str()
    }

    /// The content blocks of the entry's message.
    fn blocks(&self) -> impl Iterator<Item = &'a Value> {
        self.object
            .get("message")
            .and_then(|m| m.get("content"))
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
    }

    fn is_boundary(&self) -> bool {
        self.kind() == Some("system")
            && self.object.get("subtype").and_then(Value::as_str) == Some("compact_boundary")
    }
}

/// Reads a transcript's lines.
pub(crate) fn read(lines: &Lines) -> Result<Recording, FormatError> {
    let chain = chain(lines);
    let mut fields = Map::new();
    let mut epochs = Vec::new();
    let mut epoch = Epoch::default();
    let mut last_role: Option<&str> = None;
    let mut called: HashSet<String> = HashSet::new();
    for entry in chain {
        if entry.is_boundary() {
            epochs.push(std::mem::take(&mut epoch));
            last_role = None;
            continue;
        }
        let role = match entry.kind() {
            Some(role @ ("user" | "assistant")) => role,
            _ => continue,
        };
        let path = line_path(entry.number);
        let message = entry
            .object
            .get("message")
            .and_then(Value::as_object)
            .ok_or_else(|| FormatError::new(at(&path, "message"), "missing or not an object"))?;
        let model = message.get("model").and_then(Value::as_str);
        if role == "assistant" && (model == Some("<synthetic>") || entry.flag("isApiErrorMessage"))
        {
            continue;
        }
        let content = message
            .get("content")
            .filter(|c| c.is_string() || c.is_array())
            .ok_or_else(|| {
                FormatError::new(
                    at(&at(&path, "message"), "content"),
                    "missing or not a string or an array",
                )
            })?;
        let content = match role {
            "assistant" => {
                for block in content.as_array().into_iter().flatten() {
                    if let Some(id) = block.get("id").and_then(Value::as_str) {
                        called.insert(id.to_owned());
                    }
                }
                content.clone()
            }
            _ => unanswering(content, &called),
        };
        let item = json!({"role": role, "content": content});
        if entry.flag("isCompactSummary") {
            append(Format::Anthropic, &mut epoch.lead, [item]);
            continue;
        }
        if role == "assistant" {
            if let Some(model) = model {
                fields
                    .entry("model")
                    .or_insert_with(|| Value::String(model.to_owned()));
            }
            if last_role != Some("assistant") {
                epoch.calls.push(epoch.items.len());
            }
        }
        last_role = Some(role);
        append(Format::Anthropic, &mut epoch.items, [item]);
    }
    epochs.push(epoch);
    Ok(Recording::new(
        Agent::ClaudeCode,
        Format::Anthropic,
        fields,
        epochs,
    ))
}

/// A user message's `content` with every `tool_result` that answers no call in `called`
/// (the file starts after the call, or never held it) in place as the blocks it carried,
/// after the results that do answer one: the API refuses a result without its call.
fn unanswering(content: &Value, called: &HashSet<String>) -> Value {
    let Some(blocks) = content.as_array() else {
        return content.clone();
    };
    let orphan = |b: &Value| {
        b.get("type").and_then(Value::as_str) == Some("tool_result")
            && !b
                .get("tool_use_id")
                .and_then(Value::as_str)
                .is_some_and(|id| called.contains(id))
    };
    if !blocks.iter().any(orphan) {
        return content.clone();
    }
    let (results, rest): (Vec<&Value>, Vec<&Value>) = blocks
        .iter()
        .partition(|b| b.get("type").and_then(Value::as_str) == Some("tool_result") && !orphan(b));
    let mut out: Vec<Value> = results.into_iter().cloned().collect();
    for block in rest {
        if !orphan(block) {
            out.push(block.clone());
            continue;
        }
        match block.get("content") {
            Some(Value::String(text)) => out.push(json!({"type": "text", "text": text})),
            Some(Value::Array(inner)) => out.extend(inner.iter().cloned()),
            _ => {}
        }
    }
    Value::Array(out)
}

/// The conversation's entries in file order: the newest user or assistant entry (of the
/// main conversation when the file holds one, else of the subagent's), its chain of
/// parents (through compact boundaries by their logical parent), and what belongs to the
/// responses on it — the other blocks of each response (Claude Code may chain a response's
/// parallel tool calls and their results as a fan of branches), and the results of its
/// tool calls. A branch a rewound or edited prompt left behind is not in it.
fn chain(lines: &Lines) -> Vec<Entry<'_>> {
    let entries: Vec<Entry<'_>> = lines
        .objects
        .iter()
        .map(|(number, object)| Entry {
            number: *number,
            object,
        })
        .collect();
    let main = entries
        .iter()
        .any(|e| matches!(e.kind(), Some("user" | "assistant")) && !e.flag("isSidechain"));
    let ours = |e: &Entry<'_>| !main || !e.flag("isSidechain");
    let mut live = spine(&entries, &ours);
    // The responses on the chain, and their tool calls.
    let mut responses: HashSet<&str> = HashSet::new();
    for (i, e) in entries.iter().enumerate() {
        if live[i] && e.kind() == Some("assistant") {
            responses.extend(e.message_id());
        }
    }
    let mut calls: HashSet<&str> = HashSet::new();
    for (i, e) in entries.iter().enumerate() {
        if e.kind() == Some("assistant")
            && ours(e)
            && e.message_id().is_some_and(|id| responses.contains(id))
        {
            live[i] = true;
            calls.extend(e.blocks().filter_map(|b| b.get("id")?.as_str()));
        }
    }
    for (i, e) in entries.iter().enumerate() {
        let answers = e.kind() == Some("user")
            && ours(e)
            && e.blocks().any(|b| {
                b.get("tool_use_id")
                    .and_then(Value::as_str)
                    .is_some_and(|id| calls.contains(id))
            });
        live[i] |= answers;
    }
    // Each entry once (a repeated one at its first writing), in file order.
    let mut taken: HashSet<&str> = HashSet::new();
    entries
        .into_iter()
        .zip(live)
        .filter(|(e, live)| {
            *live
                && e.object
                    .get("uuid")
                    .and_then(Value::as_str)
                    .is_none_or(|uuid| taken.insert(uuid))
        })
        .map(|(e, _)| e)
        .collect()
}

/// Which `entries` are on the chain of parents from the newest user or assistant entry
/// of the conversation (`ours`), through compact boundaries by their logical parent.
fn spine(entries: &[Entry<'_>], ours: &dyn Fn(&Entry<'_>) -> bool) -> Vec<bool> {
    let mut by_uuid: HashMap<&str, usize> = HashMap::new();
    for (i, e) in entries.iter().enumerate() {
        if let Some(uuid) = e.object.get("uuid").and_then(Value::as_str)
            && ours(e)
        {
            // A repeated entry (written again on resume) is its first writing.
            by_uuid.entry(uuid).or_insert(i);
        }
    }
    let mut live = vec![false; entries.len()];
    let mut at = entries
        .iter()
        .rposition(|e| matches!(e.kind(), Some("user" | "assistant")) && ours(e));
    while let Some(i) = at {
        if live[i] {
            break; // a loop of parents: the chain ends where it closes
        }
        live[i] = true;
        let entry = &entries[i];
        let parent = entry
            .object
            .get("parentUuid")
            .and_then(Value::as_str)
            .or_else(|| {
                entry
                    .is_boundary()
                    .then(|| {
                        entry
                            .object
                            .get("logicalParentUuid")
                            .and_then(Value::as_str)
                    })
                    .flatten()
            });
        at = match parent {
            Some(uuid) => by_uuid.get(uuid).copied().or_else(|| {
                // A parent the file does not hold (an entry left out of it, as a
                // subagent's transcript leaves its progress entries): the entry of the
                // conversation before this one in the file.
                (0..i)
                    .rev()
                    .find(|&j| ours(&entries[j]) && entries[j].object.contains_key("uuid"))
            }),
            // An entry without ids (a transcript trimmed of them): the entry of the
            // conversation before it in the file.
            None if !entry.object.contains_key("uuid")
                && !entry.object.contains_key("parentUuid") =>
            {
                (0..i).rev().find(|&j| {
                    ours(&entries[j]) && matches!(entries[j].kind(), Some("user" | "assistant"))
                })
            }
            None => None,
        };
    }
    live
}
