//! Engine errors as a host shows them: a stable code, a readable message, the path of the
//! bad input, and details by name.

use std::fmt;
use std::marker::PhantomData;

use serde_json::{Map, Value};

use super::names::Spelling;
use crate::budget::BudgetError;
use crate::engine::{CompactError, ConfigError};
use crate::format::FormatError;
use crate::segment::SegmentError;

/// The stable error codes. Callers branch on these, never on messages, so they are only
/// ever added to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Code {
    /// The input (config, messages, options, arguments) is malformed; `path` says where.
    /// Nothing was changed.
    InvalidInput,
    /// Non-compactable messages plus the newest turn exceed the absolute limit.
    ContextOverflow,
    /// The session's circuit breaker is open after repeated failed runs.
    CircuitOpen,
    /// The session changed while it was being compacted (a store between read and
    /// write-back, or a second compaction of a live session); nothing was written.
    Conflict,
    /// The run was cancelled (the caller's abort signal fired); nothing was applied.
    Aborted,
    /// A summary at the MAXIMUM level failed; the details `level` and `failure` say which
    /// and why. The conversation is unchanged.
    SummaryFailed,
    /// A session store's `load` or `save` failed; nothing was written by compactor. Only
    /// hosts that drive a store raise it (the npm package).
    PersistFailed,
    /// A bug in compactor: the result failed its final check, or the driver and the
    /// engine disagreed. The conversation is unchanged; please report it.
    Internal,
}

impl Code {
    /// Every code, in declaration order.
    pub const ALL: [Code; 8] = [
        Code::InvalidInput,
        Code::ContextOverflow,
        Code::CircuitOpen,
        Code::Conflict,
        Code::Aborted,
        Code::SummaryFailed,
        Code::PersistFailed,
        Code::Internal,
    ];

    /// The name hosts show: `INVALID_INPUT`.
    pub fn as_str(self) -> &'static str {
        match self {
            Code::InvalidInput => "INVALID_INPUT",
            Code::ContextOverflow => "CONTEXT_OVERFLOW",
            Code::CircuitOpen => "CIRCUIT_OPEN",
            Code::Conflict => "CONFLICT",
            Code::Aborted => "ABORTED",
            Code::SummaryFailed => "SUMMARY_FAILED",
            Code::PersistFailed => "PERSIST_FAILED",
            Code::Internal => "INTERNAL",
        }
    }
}

/// How a host names things: the inputs the core's errors point at, config options,
/// formats. The names are the only part of a failure that differs between hosts;
/// everything else is decided here once.
pub trait Host {
    /// Where the caller gives the pins: `options.pin` in JS, `pin` in WIT.
    const PIN: &'static str;

    /// How the host joins the words of a name: camel case in JS, kebab case in WIT.
    const SPELLING: Spelling;

    /// The host's name for the config field the core calls `field` (`max_summary_tokens`):
    /// `maxSummaryTokens` in JS, `max-summary-tokens` in WIT.
    fn config_field(field: &str) -> String {
        Self::SPELLING.spell(field.split('_'))
    }
}

/// A failure on its way to the host `H`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure<H> {
    /// What kind of failure.
    pub code: Code,
    /// The readable message; for bad input it starts with the path.
    pub message: String,
    /// Where the bad input is: `messages[3].role`, `config.maxContextTokens`.
    pub path: Option<String>,
    /// More about it, by name: the offenders of an overflow, the level of a failed summary.
    pub details: Vec<(String, Value)>,
    host: PhantomData<fn() -> H>,
}

impl<H> Failure<H> {
    /// Bad input at `path`: the message reads `{path}: {what}`.
    pub fn invalid(path: impl Into<String>, what: impl fmt::Display) -> Self {
        let path = path.into();
        Self {
            code: Code::InvalidInput,
            message: format!("{path}: {what}"),
            path: Some(path),
            details: Vec::new(),
            host: PhantomData,
        }
    }

    /// A failure that is not about one input value.
    pub fn new(code: Code, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            path: None,
            details: Vec::new(),
            host: PhantomData,
        }
    }

    /// Adds the detail `name`.
    #[must_use]
    pub fn with(self, name: &str, value: impl serde::Serialize) -> Self {
        // The values are the core's own plain types: serializing them cannot fail. Through
        // text, as every output goes: serde_json's `Value` serializer would be more code in
        // every wasm build.
        self.with_text(name, &serde_json::to_string(&value).unwrap_or_default())
    }

    /// `with` past serializing: one copy for every type, not one each.
    fn with_text(mut self, name: &str, text: &str) -> Self {
        if let Ok(value) = serde_json::from_str(text) {
            self.details.push((name.to_owned(), value));
        }
        self
    }

    /// The same failure with its path (and the path in its message) under `prefix`
    /// instead of `messages`: messages read from a store are `store.load().messages`.
    #[must_use]
    pub fn rebased(mut self, prefix: &str) -> Self {
        if let Some(path) = self.path.take() {
            let rest = path.strip_prefix("messages").unwrap_or(&path);
            let new = format!("{prefix}{rest}");
            if let Some(message) = self.message.strip_prefix(path.as_str()) {
                self.message = format!("{new}{message}");
            }
            self.path = Some(new);
        }
        self
    }

    /// The details as JSON text (`{}` when there are none).
    pub fn details_json(&self) -> String {
        Value::Object(self.details.iter().cloned().collect::<Map<String, Value>>()).to_string()
    }
}

impl<H> fmt::Display for Failure<H> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code.as_str(), self.message)
    }
}

impl<H: fmt::Debug> std::error::Error for Failure<H> {}

impl<H: Host> From<CompactError> for Failure<H> {
    fn from(error: CompactError) -> Self {
        let message = error.to_string();
        match error {
            CompactError::NoMessagesToCompact => Failure::invalid("messages", message),
            CompactError::SummaryFailed { level, failure } => {
                Failure::new(Code::SummaryFailed, message)
                    .with("level", level)
                    .with("failure", failure)
            }
            CompactError::PersistFailed(_) => Failure::new(Code::PersistFailed, message),
            CompactError::CircuitOpen { session, failures } => {
                Failure::new(Code::CircuitOpen, message)
                    .with("session", session)
                    .with("failures", failures)
            }
            CompactError::ContextOverflow {
                tokens,
                limit,
                offenders,
            } => Failure::new(Code::ContextOverflow, message)
                .with("tokens", tokens)
                .with("limit", limit)
                .with("offenders", offenders),
            CompactError::Conflict { expected, found } => Failure::new(Code::Conflict, message)
                .with("expected", expected)
                .with("found", found),
            CompactError::Cancelled => Failure::new(Code::Aborted, "aborted: nothing was applied"),
            CompactError::InvalidConversation(error) => error.into(),
            CompactError::Pin(_) => Failure::invalid(H::PIN, message),
            CompactError::Budget(error) => error.into(),
            // Validation refusing a result, an unknown request id, and whatever the core
            // adds later: none is the caller's doing.
            _ => Failure::new(Code::Internal, message),
        }
    }
}

impl<H> From<FormatError> for Failure<H> {
    fn from(error: FormatError) -> Self {
        // The adapters call the value they were given `$`; to the host it is the
        // `messages` argument.
        let path = match error.path.strip_prefix('$') {
            Some(rest) => format!("messages{rest}"),
            None => error.path,
        };
        Failure::invalid(path, error.message)
    }
}

impl<H> From<SegmentError> for Failure<H> {
    fn from(error: SegmentError) -> Self {
        let index = match &error {
            SegmentError::OrphanToolResult { index, .. }
            | SegmentError::DuplicateToolResult { index, .. }
            | SegmentError::DuplicateToolCallId { index, .. } => index,
        };
        // The core's message already starts with the path.
        Self {
            path: Some(format!("messages[{index}]")),
            ..Failure::new(Code::InvalidInput, error.to_string())
        }
    }
}

impl<H: Host> From<ConfigError> for Failure<H> {
    fn from(error: ConfigError) -> Self {
        match error {
            ConfigError::Invalid {
                field,
                expected,
                found,
            } => Failure::invalid(
                format!("config.{}", H::config_field(field)),
                format!("expected {expected}, found {found}"),
            ),
            ConfigError::Budget(error) => error.into(),
        }
    }
}

impl<H: Host> From<BudgetError> for Failure<H> {
    fn from(error: BudgetError) -> Self {
        let field = match &error {
            BudgetError::UnknownModel(_) => "model",
            BudgetError::BadRatios { .. } => "target_ratio",
            BudgetError::NoRoom { .. } => "output_reserve",
            BudgetError::BadMaxMessages(_) => "max_messages",
            _ => return Failure::invalid("config", error),
        };
        Failure::invalid(format!("config.{}", H::config_field(field)), error)
    }
}

/// A serde_json error without its `at line 1 column 23` suffix: the position is in JSON
/// text the caller never wrote itself.
pub fn without_position(error: &serde_json::Error) -> String {
    let text = error.to_string();
    match text.rfind(" at line ") {
        Some(cut) if error.line() > 0 => text[..cut].to_owned(),
        _ => text,
    }
}
