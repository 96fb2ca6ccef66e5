//! Provider message formats, read and written without loss.
//!
//! Five adapters, each in its provider's own shape: [`openai`] (Chat Completions),
//! [`anthropic`] (Messages API), [`aisdk`] (Vercel AI SDK `ModelMessage`), [`responses`]
//! (OpenAI Responses input items, one message per item) and [`gemini`] (Gemini
//! `contents`). An adapter
//! turns the caller's JSON into [`Message`]s and remembers each message's original JSON.
//! Writing back emits the original JSON, untouched, for every message the run did not
//! rewrite (unknown fields, `extra`, `cache_control`, `providerOptions` and all), and
//! renders only the messages the engine wrote or changed. A changed message keeps its
//! original's other fields, and inside it every content block whose part did not change
//! goes back verbatim: clearing one `tool_result` of an Anthropic user message leaves its
//! siblings, and their `cache_control`, as they were.
//!
//! Messages the engine creates (summaries) have no original and are rendered fresh: a
//! user-role message with string content in every format (see [`render`]).
//!
//! Agents' own session files — a Codex rollout, a Claude Code transcript, a gemini-cli
//! chat — are read as the requests they sent by [`recording`], one module per file kind
//! (`codex_rollout`, `claude_transcript`, `gemini_chat`).
//!
//! Beside the adapters, one private module per shared concept: `read` (parsing from a
//! `Value` or text), `detect` (which format), `conversation` (writing back), `verbatim`
//! (the input's own text), `ids` (content-derived message ids), `opaque` (what lenient
//! parsing keeps unread, pinned), `parts` (content parts shared by the adapters) and
//! `path` (JSON fields read with errors naming their path).
//!
//! # Which format?
//!
//! [`Format::detect`] looks at the JSON and names the format from the first decisive sign,
//! in message order:
//!
//! - a request body with a top-level `system` field is Anthropic; one with `contents` or
//!   `systemInstruction` is Gemini; one with `input` or `instructions` is OpenAI Responses;
//! - Gemini: a `parts` field or the `model` role;
//! - OpenAI Responses: an item `type` of the Responses API (`message`, `function_call`,
//!   `reasoning`, …), or content parts `input_text`, `output_text`, `input_image`,
//!   `input_file`;
//! - OpenAI: a `tool_calls` field, a `tool_call_id`, the `developer` role, or content parts
//!   `image_url`, `input_audio`, `refusal`;
//! - Anthropic: content blocks `tool_use`, `tool_result`, `thinking`, `redacted_thinking`,
//!   `document`, an `image` with a `source`, or `cache_control` on a block;
//! - AI SDK: content parts `tool-call`, `tool-result`, `reasoning`, `file`, an `image` with an
//!   `image` field, or `providerOptions` on a message or part.
//!
//! A conversation of plain text messages reads the same in every format and is taken as
//! OpenAI. Input that is neither an array nor an object with `messages` has no format.
//! [`parse_auto`] parses in the detected format; [`parse`] takes an explicit one, which
//! always wins over detection.
//!
//! # Media, documents and reasoning
//!
//! Images, audio, files and documents become [`Part::Media`], reasoning (`thinking`,
//! `redacted_thinking`, AI SDK `reasoning`) becomes [`Part::Reasoning`]. None of them is ever
//! turned into text: they stay verbatim, in place, in every message the run keeps, and are
//! counted by a documented estimate per kind (the constants in each adapter module). When a
//! message holding them is summarized away, the summary text mentions each by its label
//! (`[Image: image/png]`, `[File: report.pdf]`) so the model knows it was there; the bytes
//! themselves are not carried into the summary. Reasoning is counted by its visible text;
//! redacted reasoning counts nothing, since the providers drop reasoning of earlier turns
//! from the context anyway.
//!
//! # Message ids
//!
//! Provider formats carry no message ids, so the adapters derive them from content: the
//! hash of the message's role and content, with `~2`, `~3`… appended to repeats. The same
//! message keeps its id across turns and across compactions, which is what idempotency
//! keys and the summary cache rely on.
//!
//! # Strict and lenient
//!
//! Strict parsing (the default) refuses what does not fit the format with an error naming
//! the JSON path: `messages[85].role: unknown role "exit"`, `messages[3].content: missing`.
//! A content block, part or item of a type the adapter does not know yet is *not* bad
//! input: providers add types (Anthropic's `tool_reference` inside a `tool_result`), and a
//! library must not refuse a user's conversation for it. Such a part is kept as
//! [`Part::Opaque`] in every mode, and pins the message holding it (non-compactable): it is
//! counted by an estimate of its JSON, survives every level verbatim, goes back as it came,
//! and the checkers still enforce the pairing rules they know around it.
//!
//! Lenient parsing also keeps messages of a role the format does not know, whole and
//! pinned, and reads tool results that answer no call. The `exit` message that
//! mini-swe-agent appends to its trajectories (`{"role": "exit", "content": "<the final
//! diff>"}`) is the typical case: strict parsing of such a trajectory fails at
//! `messages[85].role`, lenient parsing keeps the message as an opaque, pinned user-side
//! message and writes it back unchanged.
//!
//! # Checking
//!
//! [`check::check`] tells whether a list of messages would be accepted by the provider:
//! tool calls and results paired the way the provider wants, roles in an order it takes.
//!
//! [`Message`]: crate::message::Message
//! [`Part::Media`]: crate::message::Part::Media
//! [`Part::Reasoning`]: crate::message::Part::Reasoning
//! [`Part::Opaque`]: crate::message::Part::Opaque

pub mod aisdk;
pub mod anthropic;
pub mod check;
mod conversation;
mod detect;
pub mod gemini;
mod ids;
mod opaque;
pub mod openai;
mod parts;
mod path;
mod read;
pub mod recording;
pub mod responses;
mod verbatim;

use std::fmt;

pub use conversation::{Conversation, Written, render};
pub(crate) use opaque::{is_unknown_role, opaque_part, pin_opaque, unknown_part, unknown_role};
pub(crate) use parts::{
    base_object, inline_data_tokens, placeholder, render_blocks, render_blocks_read, tool_call,
};
pub(crate) use path::{at, index, kind_of, object_at, required_str};
pub(crate) use read::{Source, read_conversation};
pub use read::{parse, parse_auto, parse_str, parse_str_auto, parse_value};

/// The provider formats compactor reads and writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "kebab-case")
)]
#[non_exhaustive]
pub enum Format {
    /// OpenAI Chat Completions messages.
    #[cfg_attr(feature = "serde", serde(rename = "openai"))]
    OpenAi,
    /// Anthropic Messages API: content blocks, top-level `system`.
    Anthropic,
    /// Vercel AI SDK `ModelMessage`s.
    AiSdk,
    /// OpenAI Responses API input items.
    #[cfg_attr(feature = "serde", serde(rename = "openai-responses"))]
    OpenAiResponses,
    /// Gemini `contents`: `user` and `model` turns of parts.
    Gemini,
}

impl Format {
    /// Every format, in the order detection prefers them.
    pub const ALL: [Format; 5] = [
        Format::OpenAi,
        Format::Anthropic,
        Format::AiSdk,
        Format::OpenAiResponses,
        Format::Gemini,
    ];

    /// The name used in options and on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::OpenAi => "openai",
            Format::Anthropic => "anthropic",
            Format::AiSdk => "ai-sdk",
            Format::OpenAiResponses => "openai-responses",
            Format::Gemini => "gemini",
        }
    }

    /// The field of a request body that holds the list of messages: `messages`, `input`
    /// (OpenAI Responses) or `contents` (Gemini).
    pub fn list_key(self) -> &'static str {
        match self {
            Format::OpenAi | Format::Anthropic | Format::AiSdk => "messages",
            Format::OpenAiResponses => "input",
            Format::Gemini => "contents",
        }
    }

    /// The field of a request body that holds the system prompt, read as a leading
    /// system message and written back there: `system` (Anthropic), `instructions`
    /// (OpenAI Responses) or `systemInstruction` (Gemini). OpenAI Chat and the AI SDK have
    /// none; their name is `system` and a body never holds it.
    pub fn system_key(self) -> &'static str {
        match self {
            Format::OpenAi | Format::Anthropic | Format::AiSdk => "system",
            Format::OpenAiResponses => "instructions",
            Format::Gemini => "systemInstruction",
        }
    }

    /// The format named `name` (as [`Format::as_str`] spells it).
    pub fn parse_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.as_str() == name)
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How to parse.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(default, rename_all = "camelCase")
)]
pub struct ParseOptions {
    /// Keep messages of unknown roles as opaque, pinned messages, and results that answer
    /// no call, instead of failing. (Parts of an unknown type are kept in every mode.)
    pub lenient: bool,
}

/// Input that does not fit the format: the JSON path of the offending value and what is
/// wrong with it. Nothing has been parsed when this is returned.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path}: {message}")]
pub struct FormatError {
    /// Where: `messages[3].content[1].type`.
    pub path: String,
    /// What: `unknown role "bot"`.
    pub message: String,
}

impl FormatError {
    /// An error at `path`.
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            path: path.into(),
            message: message.into(),
        }
    }

    /// The index of the message the error is in, when the path names one (`messages[3]`,
    /// `input[3]`, `contents[3]`: the index in the input's list).
    pub fn message_index(&self) -> Option<usize> {
        let rest = ["messages[", "input[", "contents["]
            .iter()
            .find_map(|prefix| self.path.strip_prefix(prefix))?;
        rest[..rest.find(']')?].parse().ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for format in Format::ALL {
            assert_eq!(Format::parse_name(format.as_str()), Some(format));
        }
    }
}
