//! The provider-neutral conversation model.
//!
//! A [`Message`] is a role and a list of [`Part`]s. Tool calls and tool results are parts,
//! so every provider shape maps onto the model without loss of structure: an OpenAI `tool`
//! message is a [`Role::Tool`] message with one [`Part::ToolResult`]; an Anthropic user
//! message carrying `tool_result` blocks is a [`Role::User`] message with several.
//!
//! The format adapters ([`crate::format`]) keep each message's original JSON beside it, so
//! what the engine does not rewrite goes back to the provider byte for byte.

use std::fmt;

use crate::level::Level;

/// A stable identifier of a message within a conversation.
///
/// Adapters derive ids from the message's content (and its occurrence among equal
/// messages), so the same message keeps its id across turns and across compactions:
/// that is what makes idempotency keys and the summary cache work without the caller
/// storing anything.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(transparent)
)]
pub struct MessageId(String);

impl MessageId {
    /// Wraps a caller-chosen id.
    pub fn new(id: impl Into<String>) -> Self {
        Self(id.into())
    }

    /// The id as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for MessageId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<&str> for MessageId {
    fn from(id: &str) -> Self {
        Self::new(id)
    }
}

/// Who speaks a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "lowercase")
)]
pub enum Role {
    /// Instructions from the agent's owner (OpenAI `system`/`developer`, Anthropic's top-level
    /// `system`).
    System,
    /// The user, or the environment speaking as the user (observations in text-only agents).
    User,
    /// The model.
    Assistant,
    /// Tool output (OpenAI `tool`, AI SDK `tool`).
    Tool,
}

impl Role {
    /// The lowercase name, as providers spell it.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::System => "system",
            Role::User => "user",
            Role::Assistant => "assistant",
            Role::Tool => "tool",
        }
    }

    /// One letter, for compact displays (`S`, `U`, `A`, `T`).
    pub fn letter(self) -> char {
        match self {
            Role::System => 'S',
            Role::User => 'U',
            Role::Assistant => 'A',
            Role::Tool => 'T',
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A tool invocation requested by the model.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ToolCall {
    /// The provider's call id; the matching [`ToolResult::call_id`] carries the same.
    pub id: String,
    /// The tool's name.
    pub name: String,
    /// The arguments as the model wrote them (usually JSON text).
    pub arguments: String,
}

/// The output of a tool call.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ToolResult {
    /// The id of the [`ToolCall`] this answers.
    pub call_id: String,
    /// The tool's name where the format carries it (Anthropic and OpenAI do not; the
    /// segmenter can find it from the call).
    pub tool_name: Option<String>,
    /// The output: text, and media where the format allows it.
    pub content: Vec<Part>,
    /// The tool reported a failure.
    pub is_error: bool,
}

/// Kinds of non-text content.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "lowercase")
)]
pub enum MediaKind {
    /// A picture.
    Image,
    /// Sound.
    Audio,
    /// A file or document (PDF and the like).
    File,
}

/// Non-text content: counted by an estimate, never summarized into text.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Media {
    /// What it is.
    pub kind: MediaKind,
    /// A short human label: a media type, a file name, or a shortened URL.
    pub label: String,
    /// The adapter's token estimate for this item (documented per format).
    pub tokens: u64,
}

/// Model reasoning kept by the provider (Anthropic `thinking`, AI SDK `reasoning`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Reasoning {
    /// The visible reasoning text; empty when redacted.
    pub text: String,
    /// The provider sent only an encrypted form.
    pub redacted: bool,
}

/// A content part the model does not interpret, carried through untouched.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Opaque {
    /// The provider's name for it (a block type, or a role).
    pub kind: String,
    /// An estimate of its size in tokens.
    pub tokens: u64,
}

impl Opaque {
    /// The kind of a provider's own compaction result: a Responses `compaction` item, an
    /// Anthropic `compaction` block.
    pub const PROVIDER_SUMMARY: &'static str = "compaction";

    /// Is this a provider's own compaction result? It stands for the turns before it, as
    /// an earlier summary does, and is kept whole: the engine cannot read it (Responses
    /// encrypts it) or would only lose by rewriting it.
    pub fn is_provider_summary(&self) -> bool {
        self.kind == Self::PROVIDER_SUMMARY
    }
}

/// One piece of a message's content.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(tag = "type", rename_all = "snake_case")
)]
#[non_exhaustive]
pub enum Part {
    /// Plain text.
    Text {
        /// The text.
        text: String,
    },
    /// A tool invocation (assistant messages).
    ToolCall(ToolCall),
    /// A tool's output.
    ToolResult(ToolResult),
    /// An image, audio clip or file.
    Media(Media),
    /// Reasoning the provider returned.
    Reasoning(Reasoning),
    /// Something the model keeps but does not interpret.
    Opaque(Opaque),
}

impl Part {
    /// A text part.
    pub fn text(text: impl Into<String>) -> Self {
        Part::Text { text: text.into() }
    }
}

/// How a summary message came to be: carried by every message the engine writes.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CompactionMeta {
    /// The summary, without the prefix line that marks the message.
    pub summary_text: String,
    /// The ids of the original messages the summary stands for, oldest first.
    pub covers: Vec<MessageId>,
    /// The ladder level that wrote it.
    pub level: Level,
    /// The idempotency key of the run that wrote it.
    pub key: String,
    /// The version of the prompt builder that asked for it.
    pub prompt_version: u32,
}

/// One message of a conversation.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Message {
    /// Stable id (see [`MessageId`]).
    pub id: MessageId,
    /// Who speaks.
    pub role: Role,
    /// The content, in order.
    pub parts: Vec<Part>,
    /// The speaker's name, where the format has one (OpenAI `name`).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub name: Option<String>,
    /// May the engine rewrite or summarize this message? System prompts are not by default;
    /// owners also pin user inputs or final answers.
    pub compactable: bool,
    /// Set on summary messages the engine wrote.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub compaction: Option<CompactionMeta>,
}

impl Message {
    /// A message with the given role and parts. System messages start non-compactable,
    /// everything else compactable.
    pub fn new(id: impl Into<MessageId>, role: Role, parts: Vec<Part>) -> Self {
        Self {
            id: id.into(),
            role,
            parts,
            name: None,
            compactable: role != Role::System,
            compaction: None,
        }
    }

    /// A system message holding `text`.
    pub fn system(id: impl Into<MessageId>, text: impl Into<String>) -> Self {
        Self::new(id, Role::System, vec![Part::text(text)])
    }

    /// A user message holding `text`.
    pub fn user(id: impl Into<MessageId>, text: impl Into<String>) -> Self {
        Self::new(id, Role::User, vec![Part::text(text)])
    }

    /// An assistant message holding `text`.
    pub fn assistant(id: impl Into<MessageId>, text: impl Into<String>) -> Self {
        Self::new(id, Role::Assistant, vec![Part::text(text)])
    }

    /// An assistant message requesting `calls`, with optional text before them.
    pub fn assistant_calls(
        id: impl Into<MessageId>,
        text: Option<&str>,
        calls: impl IntoIterator<Item = ToolCall>,
    ) -> Self {
        let parts = text
            .map(Part::text)
            .into_iter()
            .chain(calls.into_iter().map(Part::ToolCall))
            .collect();
        Self::new(id, Role::Assistant, parts)
    }

    /// A tool message answering `call_id` with `text`.
    pub fn tool_result(
        id: impl Into<MessageId>,
        call_id: impl Into<String>,
        text: impl Into<String>,
    ) -> Self {
        let result = ToolResult {
            call_id: call_id.into(),
            tool_name: None,
            content: vec![Part::text(text)],
            is_error: false,
        };
        Self::new(id, Role::Tool, vec![Part::ToolResult(result)])
    }

    /// Marks the message as pinned (non-compactable) or not.
    #[must_use]
    pub fn with_compactable(mut self, compactable: bool) -> Self {
        self.compactable = compactable;
        self
    }

    /// The tool calls this message makes, in order.
    pub fn tool_calls(&self) -> impl Iterator<Item = &ToolCall> {
        self.parts.iter().filter_map(|part| match part {
            Part::ToolCall(call) => Some(call),
            _ => None,
        })
    }

    /// The tool results this message carries, in order.
    pub fn tool_results(&self) -> impl Iterator<Item = &ToolResult> {
        self.parts.iter().filter_map(|part| match part {
            Part::ToolResult(result) => Some(result),
            _ => None,
        })
    }

    /// Is this message nothing but reasoning (an OpenAI Responses `reasoning` item)? Such a
    /// message belongs to the response it leads.
    pub fn is_reasoning_only(&self) -> bool {
        !self.parts.is_empty()
            && self
                .parts
                .iter()
                .all(|part| matches!(part, Part::Reasoning(_)))
    }

    /// Does this message request tools?
    pub fn has_tool_calls(&self) -> bool {
        self.tool_calls().next().is_some()
    }

    /// Is this a summary the engine wrote?
    pub fn is_compaction(&self) -> bool {
        self.compaction.is_some()
    }

    /// The ids of the messages this one stands for: a summary's covered messages, or the
    /// message itself (a message, or a summary that names none of what it covers).
    pub fn stands_for(&self) -> &[MessageId] {
        match &self.compaction {
            Some(meta) if !meta.covers.is_empty() => &meta.covers,
            _ => std::slice::from_ref(&self.id),
        }
    }

    /// The message's text parts (and tool-result text) joined by newlines: what a person
    /// would read, and what summaries are made of.
    pub fn text(&self) -> String {
        text_of(&self.parts)
    }
}

/// The text of `parts` as [`Message::text`] reads it, for parts outside a message (a tool
/// result's content).
pub(crate) fn text_of(parts: &[Part]) -> String {
    let mut out = String::new();
    for part in parts {
        push_part_text(&mut out, part);
    }
    out
}

fn push_part_text(out: &mut String, part: &Part) {
    let mut push = |text: &str| {
        if !out.is_empty() && !text.is_empty() {
            out.push('\n');
        }
        out.push_str(text);
    };
    match part {
        Part::Text { text } => push(text),
        Part::ToolCall(call) => push(&format!("{}({})", call.name, call.arguments)),
        Part::ToolResult(result) => {
            for inner in &result.content {
                push_part_text(out, inner);
            }
        }
        Part::Media(media) => push(&format!("[{:?}: {}]", media.kind, media.label)),
        Part::Reasoning(_) | Part::Opaque(_) => {}
    }
}

/// The words of the marker a middle-out clip ([`crate::prune::clip_middle`]) puts where it
/// cut a text.
pub const CLIP_MARKER: &str = "tokens clipped from the middle by compactor";

/// Does `text` carry the marker of a middle-out clip?
pub fn is_clipped(text: &str) -> bool {
    text.contains(CLIP_MARKER)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(id: &str) -> ToolCall {
        ToolCall {
            id: id.into(),
            name: "bash".into(),
            arguments: r#"{"command":"ls"}"#.into(),
        }
    }

    #[test]
    fn system_messages_start_pinned_and_others_compactable() {
        assert!(!Message::system("s", "rules").compactable);
        assert!(Message::user("u", "hi").compactable);
        assert!(Message::tool_result("t", "c1", "out").compactable);
    }

    #[test]
    fn tool_calls_and_results_are_found_among_parts() {
        let asked = Message::assistant_calls("a", Some("looking"), [call("c1"), call("c2")]);
        let ids: Vec<_> = asked.tool_calls().map(|c| c.id.as_str()).collect();
        assert_eq!(ids, ["c1", "c2"]);
        assert!(asked.has_tool_calls());
        let answered = Message::tool_result("t", "c1", "file.txt");
        assert_eq!(
            answered.tool_results().next().map(|r| r.call_id.as_str()),
            Some("c1")
        );
        assert!(!answered.has_tool_calls());
    }

    #[test]
    fn text_joins_visible_content() {
        let asked = Message::assistant_calls("a", Some("looking"), [call("c1")]);
        assert_eq!(asked.text(), "looking\nbash({\"command\":\"ls\"})");
        assert_eq!(Message::tool_result("t", "c1", "out").text(), "out");
    }
}
