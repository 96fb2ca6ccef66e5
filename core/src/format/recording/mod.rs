//! An agent's own record of a session, read as the requests it sent.
//!
//! Coding agents keep every session in a file of their own: Codex a rollout (read by the
//! private module `codex_rollout` inside this one), Claude Code a transcript
//! (`claude_transcript`), gemini-cli a chat, one JSON object (`gemini_chat`) or, from 0.39
//! on, JSON Lines (`gemini_jsonl`), and Qwen Code a chat of its own in JSON Lines
//! (`qwen_chat`). [`read`] tells them apart by their content, not their name, and turns one
//! into a [`Recording`]: the request bodies the agent sent, one per model call, in the
//! provider's own format (OpenAI Responses, Anthropic Messages, Gemini `contents`), with the
//! system prompt, the model and the tools where the file records them. A gemini-cli
//! checkpoint is the list of Gemini contents it held, told by its setup context; its
//! `logs.json` holds only the prompts typed, read as user turns with no call.
//!
//! An agent may compact its own context mid-session (Codex's `compacted` records, Claude
//! Code's compact boundaries, Qwen Code's and gemini-cli's compressions): the requests
//! after it start from what the agent put in place of the turns before (its *lead*: a
//! summary, a provider's compaction item, the user's messages kept). A recording keeps each
//! stretch between two such compactions as an *epoch*, and gives the session two ways:
//!
//! - [`Recording::run`]: the whole run as one request body, the agent's own compactions
//!   left out — every item the model saw first, in order, the last answer included. What
//!   `compactor replay` replays and prices: the policies decide what to keep, not the
//!   agent;
//! - [`Recording::context`]: the conversation as the agent holds it at the end — the last
//!   epoch, after its lead. What `plan`, `compact` and `inspect` work on.
//!
//! Reading is pure: the caller reads the file and hands its text over.

use serde_json::{Map, Value};

use super::{Format, FormatError};

mod claude_transcript;
mod codex_rollout;
mod gemini_chat;
mod gemini_jsonl;
mod qwen_chat;

/// The agents whose session files are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Agent {
    /// OpenAI Codex: a rollout, `~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`.
    Codex,
    /// Claude Code: a transcript, `~/.claude/projects/<project>/<session>.jsonl`.
    ClaudeCode,
    /// gemini-cli: a chat, `~/.gemini/tmp/<project>/chats/session-*.jsonl` (`.json` before
    /// 0.39; older Qwen Code versions wrote the same under `~/.qwen/tmp/…`).
    GeminiCli,
    /// Qwen Code: a chat, `~/.qwen/projects/<project>/chats/<session>.jsonl`.
    QwenCode,
}

impl Agent {
    /// The agent's name, for messages.
    pub fn name(self) -> &'static str {
        match self {
            Agent::Codex => "Codex",
            Agent::ClaudeCode => "Claude Code",
            Agent::GeminiCli => "gemini-cli",
            Agent::QwenCode => "Qwen Code",
        }
    }
}

/// A stretch of a session between two of the agent's own compactions.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Epoch {
    /// What the agent put first in place of the turns before (nothing in the first).
    pub(crate) lead: Vec<Value>,
    /// The items the agent sent or received in this stretch, in order.
    pub(crate) items: Vec<Value>,
    /// For each model call, the number of `items` before its answer: its request holds
    /// the lead and `items[..call]`.
    pub(crate) calls: Vec<usize>,
}

/// A session an agent recorded, as the requests it sent (see the module docs).
#[derive(Debug, Clone, PartialEq)]
pub struct Recording {
    /// Who recorded it.
    pub agent: Agent,
    /// The provider format of its requests.
    pub format: Format,
    /// The request body's fields beside the list of messages (`model`, the system prompt,
    /// `tools`), where the file records them.
    fields: Map<String, Value>,
    epochs: Vec<Epoch>,
}

impl Recording {
    pub(crate) fn new(
        agent: Agent,
        format: Format,
        fields: Map<String, Value>,
        epochs: Vec<Epoch>,
    ) -> Self {
        let mut epochs: Vec<Epoch> = epochs
            .into_iter()
            .filter(|e| !e.items.is_empty() || !e.lead.is_empty())
            .collect();
        if epochs.is_empty() {
            epochs.push(Epoch::default());
        }
        Self {
            agent,
            format,
            fields,
            epochs,
        }
    }

    /// The model calls recorded.
    pub fn calls(&self) -> usize {
        self.epochs.iter().map(|e| e.calls.len()).sum()
    }

    /// The agent's own compactions: one fewer than the epochs.
    pub fn compactions(&self) -> usize {
        self.epochs.len() - 1
    }

    /// The model the session used, where recorded.
    pub fn model(&self) -> Option<&str> {
        self.fields.get("model").and_then(Value::as_str)
    }

    /// The request body of model call `call` (counted from 0 over the whole session): the
    /// body fields, and the lead and items its epoch had before the call's answer.
    pub fn request(&self, call: usize) -> Option<Value> {
        let mut left = call;
        for epoch in &self.epochs {
            match epoch.calls.get(left) {
                Some(&end) => {
                    let mut list = epoch.lead.clone();
                    append(self.format, &mut list, epoch.items[..end].iter().cloned());
                    return Some(self.body(list));
                }
                None => left -= epoch.calls.len(),
            }
        }
        None
    }

    /// The whole run as one request body: every epoch's items in order, the agent's own
    /// compactions (their leads) left out, the last answer included.
    pub fn run(&self) -> Value {
        let mut list = Vec::new();
        for epoch in &self.epochs {
            append(self.format, &mut list, epoch.items.iter().cloned());
        }
        self.body(list)
    }

    /// The conversation as the agent holds it at the end: the last epoch's lead and items.
    pub fn context(&self) -> Value {
        let mut list = Vec::new();
        if let Some(epoch) = self.epochs.last() {
            list = epoch.lead.clone();
            append(self.format, &mut list, epoch.items.iter().cloned());
        }
        self.body(list)
    }

    /// A request body with `list` as its messages.
    fn body(&self, list: Vec<Value>) -> Value {
        let mut body = self.fields.clone();
        body.insert(self.format.list_key().to_owned(), Value::Array(list));
        Value::Object(body)
    }
}

/// Appends `items` to `list`. Anthropic combines consecutive turns of one role into one,
/// and so does this, where an epoch's items meet its lead or the epoch before.
pub(crate) fn append(
    format: Format,
    list: &mut Vec<Value>,
    items: impl IntoIterator<Item = Value>,
) {
    for item in items {
        if format == Format::Anthropic
            && let Some(last) = list.last_mut()
            && last.get("role").is_some()
            && last.get("role") == item.get("role")
        {
            let mut blocks = blocks_of(last);
            blocks.extend(blocks_of(&item));
            last["content"] = Value::Array(blocks);
            continue;
        }
        list.push(item);
    }
}

/// An Anthropic message's content as blocks: a string becomes one text block.
pub(crate) fn blocks_of(message: &Value) -> Vec<Value> {
    match message.get("content") {
        Some(Value::Array(blocks)) => blocks.clone(),
        Some(Value::String(text)) => vec![serde_json::json!({"type": "text", "text": text})],
        _ => Vec::new(),
    }
}

/// Reads `text` as an agent's session file, told from its content; `Ok(None)` when it is
/// none (a conversation or a request body: read those with [`super::parse_str_auto`]).
pub fn read(text: &str) -> Result<Option<Recording>, FormatError> {
    let trimmed = text.trim_start();
    if trimmed.starts_with('{')
        && let Ok(Value::Object(object)) = serde_json::from_str::<Value>(trimmed)
    {
        // One JSON object: a gemini-cli chat, a chat in JSON Lines one line long (gemini-cli's
        // metadata alone, or one Qwen Code record), or a request body.
        return if gemini_chat::is_chat(&object) {
            gemini_chat::read(&object).map(Some)
        } else if gemini_jsonl::is_start(&object) {
            gemini_jsonl::read(&Lines::of(text)?).map(Some)
        } else if qwen_chat::is_record(&object) {
            qwen_chat::read(&Lines::of(text)?).map(Some)
        } else {
            Ok(None)
        };
    }
    if trimmed.starts_with('[') {
        // A list of messages, or gemini-cli's checkpoint or log of prompts.
        return match serde_json::from_str::<Value>(trimmed) {
            Ok(Value::Array(items)) if gemini_chat::is_log(&items) => {
                gemini_chat::read_log(&items).map(Some)
            }
            Ok(Value::Array(items)) if gemini_chat::is_checkpoint(&items) => {
                gemini_chat::read_checkpoint(&items).map(Some)
            }
            _ => Ok(None),
        };
    }
    let lines = Lines::of(text)?;
    let Some(first) = lines.objects.first() else {
        return Ok(None);
    };
    if codex_rollout::is_rollout(&first.1) {
        return codex_rollout::read(&lines).map(Some);
    }
    if gemini_jsonl::is_start(&first.1) {
        return gemini_jsonl::read(&lines).map(Some);
    }
    // Before Claude Code's: Qwen Code's records have a `uuid` and a `parentUuid` too.
    if lines.objects.iter().any(|(_, o)| qwen_chat::is_record(o)) {
        return qwen_chat::read(&lines).map(Some);
    }
    if lines
        .objects
        .iter()
        .any(|(_, o)| claude_transcript::is_entry(o))
    {
        return claude_transcript::read(&lines).map(Some);
    }
    if lines.objects.len() > 1 {
        // Records one per line, of no agent this reads: say so, not "trailing characters".
        return Err(FormatError::new(
            "$",
            format!(
                "JSON Lines of {} records, none of them a session's: not a Codex rollout, a \
                 Claude Code transcript, or a gemini-cli or Qwen Code chat",
                lines.objects.len()
            ),
        ));
    }
    Ok(None)
}

/// The objects of a JSON Lines file, each with its line number (from 1).
pub(crate) struct Lines {
    pub(crate) objects: Vec<(usize, Map<String, Value>)>,
}

impl Lines {
    /// Reads every non-empty line as a JSON object. A line of objects one after another is
    /// each of them: an append whose newline was lost (Qwen Code's reader recovers those
    /// too). A last line that is not JSON is a write cut short (the agent was stopped
    /// mid-line) and is left out; any other is an error at its line.
    fn of(text: &str) -> Result<Self, FormatError> {
        let lines: Vec<(usize, &str)> = text
            .lines()
            .enumerate()
            .map(|(i, line)| (i + 1, line.trim()))
            .filter(|(_, line)| !line.is_empty())
            .collect();
        let mut objects = Vec::with_capacity(lines.len());
        for (k, &(number, line)) in lines.iter().enumerate() {
            match serde_json::from_str::<Value>(line) {
                Ok(Value::Object(object)) => objects.push((number, object)),
                Ok(other) => {
                    return Err(FormatError::new(
                        line_path(number),
                        format!("expected an object, found {}", super::kind_of(&other)),
                    ));
                }
                Err(_) if let Some(glued) = glued(line) => {
                    objects.extend(glued.into_iter().map(|object| (number, object)));
                }
                Err(_) if k + 1 == lines.len() && k > 0 => {}
                Err(error) => {
                    return Err(FormatError::new(
                        line_path(number),
                        format!("not JSON: {error}"),
                    ));
                }
            }
        }
        Ok(Self { objects })
    }
}

/// `line` as two or more JSON objects written one after another, if it is that.
fn glued(line: &str) -> Option<Vec<Map<String, Value>>> {
    let objects = serde_json::Deserializer::from_str(line)
        .into_iter::<Value>()
        .map(|value| match value {
            Ok(Value::Object(object)) => Some(object),
            _ => None,
        })
        .collect::<Option<Vec<_>>>()?;
    (objects.len() > 1).then_some(objects)
}

/// The path of line `number` of a JSON Lines file.
pub(crate) fn line_path(number: usize) -> String {
    format!("line {number}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn conversations_and_request_bodies_are_no_recording() {
        for text in [
            r#"[{"role":"user","content":"hi"}]"#,
            r#"{"model":"m","messages":[{"role":"user","content":"hi"}]}"#,
            "",
            "  \n",
        ] {
            assert_eq!(read(text), Ok(None), "{text}");
        }
    }

    #[test]
    fn a_codex_tool_output_recorded_as_one_content_item_is_sent_as_a_list_of_it() {
        let meta = r#"{"type":"session_meta","payload":{"id":"x"}}"#;
        let call = r#"{"type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{}","call_id":"c1"}}"#;
        let output = r#"{"type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":{"type":"input_text","text":"a.txt"}}}"#;
        let recording = read(&format!(
            "{meta}
{call}
{output}"
        ))
        .expect("reads")
        .expect("a rollout");
        let run = recording.run();
        assert_eq!(
            run["input"][1]["output"],
            json!([{"type": "input_text", "text": "a.txt"}])
        );
        let conversation = crate::format::parse(&run, recording.format, Default::default())
            .expect("a valid request");
        assert_eq!(conversation.messages.len(), 2);
    }

    #[test]
    fn a_torn_last_line_is_left_out_and_a_bad_line_before_it_is_an_error() {
        let good = r#"{"type":"session_meta","payload":{"id":"x"}}"#;
        let item = r#"{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}}"#;
        let torn = format!("{good}\n{item}\n{{\"type\":\"resp");
        let recording = read(&torn).expect("reads").expect("a rollout");
        assert_eq!(recording.run()["input"].as_array().map(Vec::len), Some(1));
        let bad = format!("{good}\nnot json\n{item}");
        let error = read(&bad).expect_err("a bad line");
        assert_eq!(error.path, "line 2");
    }

    #[test]
    fn a_claude_transcript_trimmed_of_its_ids_is_read_in_file_order() {
        let lines = [
            r#"{"type":"user","message":{"content":"Fix the login bug"}}"#,
            r#"{"type":"assistant","message":{"content":[{"type":"text","text":"Reading it."},{"type":"tool_use","id":"t1","name":"Read","input":{}}]}}"#,
            r#"{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]}}"#,
            r#"{"type":"assistant","message":{"content":[{"type":"text","text":"Fixed."}]}}"#,
        ];
        let recording = read(&lines.join("\n"))
            .expect("reads")
            .expect("a transcript");
        let run = recording.run();
        let messages = run["messages"].as_array().expect("messages");
        assert_eq!(messages.len(), 4, "{run}");
        assert_eq!(messages[0]["content"], "Fix the login bug");
        assert_eq!(messages[3]["content"][0]["text"], "Fixed.");
    }

    #[test]
    fn json_lines_of_no_agent_are_refused_by_what_they_are() {
        let text = "{\"sessionId\":\"s\",\"message\":{\"usage\":{}}}\n\
                    {\"sessionId\":\"s\",\"message\":{\"usage\":{}}}";
        let error = read(text).expect_err("no session");
        assert_eq!(error.path, "$");
        assert!(error.message.contains("JSON Lines of 2 records"), "{error}");
    }

    #[test]
    fn a_line_of_objects_glued_together_is_each_of_them() {
        let first = r#"{"uuid":"a","parentUuid":null,"type":"user","message":{"role":"user","parts":[{"text":"hi"}]}}"#;
        let second = r#"{"uuid":"b","parentUuid":"a","type":"assistant","message":{"role":"model","parts":[{"text":"hello"}]}}"#;
        let recording = read(&format!("{first}{second}\n"))
            .expect("reads")
            .expect("a chat");
        assert_eq!(recording.calls(), 1);
        // Glued to what is no object: an error at its line.
        let error = read(&format!("{first}[1]\n{second}")).expect_err("refused");
        assert_eq!(error.path, "line 1");
    }

    #[test]
    fn anthropic_turns_of_one_role_are_combined_where_epochs_meet() {
        let mut list = vec![json!({"role":"user","content":"summary"})];
        append(
            Format::Anthropic,
            &mut list,
            [
                json!({"role":"user","content":[{"type":"text","text":"go on"}]}),
                json!({"role":"assistant","content":"ok"}),
            ],
        );
        assert_eq!(
            list,
            [
                json!({"role":"user","content":[{"type":"text","text":"summary"},{"type":"text","text":"go on"}]}),
                json!({"role":"assistant","content":"ok"}),
            ]
        );
    }
}
