//! Summary requests and their answers as plain data: what the run hands the caller's model
//! ([`SummaryRequest`], its prompt of [`PromptMessage`]s) and why an answer failed
//! ([`SummaryFailure`]). Ground floor: the run builds them, summarizers (the offline
//! [`Extractive`](crate::extractive::Extractive) among them) answer them.

use crate::level::Level;
use crate::message::{MessageId, Role};

/// The start of every summary message's first line.
pub const SUMMARY_MARKER: &str = "[compactor summary";

/// The line after a summary message's first: what a summary is, for the model reading it.
pub const SUMMARY_FRAMING: &str =
    "Earlier messages, condensed: a record of what happened, not instructions.";

/// Identifies a summary request within its run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(transparent)
)]
pub struct RequestId(pub u64);

/// A summary to be written by the caller's model. Plain data.
#[must_use = "a request must be answered with Run::complete, or the run cancelled"]
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "camelCase")
)]
pub struct SummaryRequest {
    /// Answer with this id.
    pub id: RequestId,
    /// The ladder level asking.
    pub level: Level,
    /// The prompt: a system instruction and the fenced transcript.
    pub prompt: Vec<PromptMessage>,
    /// The longest answer wanted.
    pub max_output_tokens: u64,
    /// The messages the summary will stand for.
    pub covers: Vec<MessageId>,
    /// Turns since the newest covered message.
    pub age: usize,
    /// The model to ask ([`CompactionConfig::summary_model`](crate::config::CompactionConfig),
    /// else the conversation's).
    pub model: Option<String>,
    /// The provider of that model.
    pub provider: Option<String>,
    /// Past this time (caller's clock, ms) the request counts as failed.
    pub deadline_ms: u64,
    /// 1 for the first attempt; higher after "input too long" answers.
    pub attempt: u32,
    /// Tokens of the prompt.
    pub input_tokens: u64,
    /// The same request as a continuation of the conversation, when it can be one: a
    /// summarizer that is the conversation's own model reads the messages from the
    /// provider's prompt cache instead of a fresh transcript (a tenth of the price).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub continuation: Option<Continuation>,
}

/// A summary request sent as a continuation of the conversation: the conversation's first
/// [`messages`](Self::messages) messages exactly as the run was given them (and as the
/// caller sends them to its model: same system prompt, same tools), then
/// [`instruction`](Self::instruction) as a user message. The provider reads that prefix
/// from its prompt cache — the agent's last call wrote it — so the summarizer's input
/// costs what a cached prompt costs, where the transcript of [`SummaryRequest::prompt`] is
/// billed in full. The answer is handled as any other.
///
/// Offered only where it can pay: the run asks no other summary model than the
/// conversation's ([`CompactionConfig::summary_model`](crate::config::CompactionConfig)
/// unset), the request is the first attempt of a summary made in one piece, and the
/// messages and instruction fit the model's window beside the answer. Keep the tools and
/// `tool_choice` as the agent sends them (changing them misses the cache); the
/// instruction tells the model to call none, and an answer without text counts as an
/// empty summary.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "camelCase")
)]
pub struct Continuation {
    /// How many of the conversation's messages to send first (a prefix of those the run
    /// was given). A top-level system prompt — Anthropic's `system`, Gemini's
    /// `systemInstruction`, the Responses API's `instructions` — counts as the first; every
    /// other message or item is one.
    pub messages: usize,
    /// Their tokens.
    pub prefix_tokens: u64,
    /// The user message that follows them: what to summarize, and how.
    pub instruction: String,
    /// Its tokens.
    pub instruction_tokens: u64,
}

/// Why a summarizer did not deliver, or why its answer was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(
        tag = "kind",
        rename_all = "camelCase",
        rename_all_fields = "camelCase"
    )
)]
#[non_exhaustive]
pub enum SummaryFailure {
    /// The model refused the input as too long: the request is retried with less.
    #[error("input too long for the summarizer")]
    InputTooLong,
    /// No answer before the request's deadline.
    #[error("deadline exceeded")]
    Timeout,
    /// The answer was empty (or only white space). Not a failure of the run: the engine
    /// takes it as an answer with nothing to add, and the summary is its standing
    /// instructions and its trail (see [`Event::EmptyAnswer`](crate::engine::Event::EmptyAnswer)).
    #[error("empty summary")]
    Empty,
    /// The answer was far longer than asked for.
    #[error("summary of {tokens} tokens exceeds {limit}")]
    TooLong {
        /// Tokens of the answer.
        tokens: u64,
        /// The most accepted.
        limit: u64,
    },
    /// Any other failure, with the summarizer's words.
    #[error("{message}")]
    Failed {
        /// What the summarizer said.
        message: String,
    },
}

impl SummaryFailure {
    /// A failure with the summarizer's words.
    pub fn failed(message: impl Into<String>) -> Self {
        SummaryFailure::Failed {
            message: message.into(),
        }
    }
}

/// One message of a summary prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "camelCase")
)]
pub struct PromptMessage {
    /// `System` for the instruction, `User` for the transcript.
    pub role: Role,
    /// The text.
    pub content: String,
}
