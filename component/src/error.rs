//! Errors as a host sees them: a stable code, a readable message, the path of the bad
//! input, and details as a JSON object.

use compactor::budget::BudgetError;
use compactor::engine::{CompactError, ConfigError};
use compactor::format::FormatError;
use compactor::segment::SegmentError;
use serde_json::{Map, Value};

/// The stable error codes (the WIT enum `error-code`); only ever added to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Code {
    /// The input (config, messages, arguments) is malformed; `path` says where.
    InvalidInput,
    /// Non-compactable messages plus the newest turn exceed the absolute limit.
    ContextOverflow,
    /// The session's circuit breaker is open after repeated failed runs.
    CircuitOpen,
    /// A session was changed while a compaction of it was under way.
    Conflict,
    /// The run was cancelled; nothing was applied.
    Aborted,
    /// A summary at the MAXIMUM level failed; the conversation is unchanged.
    SummaryFailed,
    /// A bug in compactor; the conversation is unchanged.
    Internal,
}

impl Code {
    /// The name hosts show (`INVALID_INPUT`), as the npm package spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            Code::InvalidInput => "INVALID_INPUT",
            Code::ContextOverflow => "CONTEXT_OVERFLOW",
            Code::CircuitOpen => "CIRCUIT_OPEN",
            Code::Conflict => "CONFLICT",
            Code::Aborted => "ABORTED",
            Code::SummaryFailed => "SUMMARY_FAILED",
            Code::Internal => "INTERNAL",
        }
    }
}

/// A failure on its way to the host.
#[derive(Debug, Clone, PartialEq)]
pub struct Failure {
    /// What kind of failure.
    pub code: Code,
    /// The readable message; for bad input it starts with the path.
    pub message: String,
    /// Where the bad input is: `messages[3].role`, `config.max-context-tokens`.
    pub path: Option<String>,
    /// More about it, by name: the offenders of an overflow, the level of a failed summary.
    pub details: Vec<(String, Value)>,
}

impl Failure {
    /// Bad input at `path`: the message reads `{path}: {what}`.
    pub fn invalid(path: impl Into<String>, what: impl std::fmt::Display) -> Self {
        let path = path.into();
        Self {
            code: Code::InvalidInput,
            message: format!("{path}: {what}"),
            path: Some(path),
            details: Vec::new(),
        }
    }

    /// A failure that is not about one input value.
    pub fn new(code: Code, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            path: None,
            details: Vec::new(),
        }
    }

    /// Adds the detail `name`. The values are the core's plain types, which serialize.
    #[must_use]
    pub fn with(mut self, name: &str, value: impl serde::Serialize) -> Self {
        if let Ok(value) = serde_json::to_value(value) {
            self.details.push((name.to_owned(), value));
        }
        self
    }

    /// The details as JSON text (`{}` when there are none).
    pub fn details_json(&self) -> String {
        Value::Object(self.details.iter().cloned().collect::<Map<String, Value>>()).to_string()
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code.as_str(), self.message)
    }
}

impl std::error::Error for Failure {}

impl From<CompactError> for Failure {
    fn from(error: CompactError) -> Self {
        let message = error.to_string();
        match error {
            CompactError::NoMessagesToCompact => Failure::invalid("messages", message),
            CompactError::SummaryFailed { level, failure } => {
                Failure::new(Code::SummaryFailed, message)
                    .with("level", level)
                    .with("failure", failure)
            }
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
            CompactError::Pin(_) => Failure::invalid("pin", message),
            CompactError::Budget(error) => error.into(),
            // A result refused by validation, an unknown request id, and whatever the core
            // adds later: none is the caller's doing.
            _ => Failure::new(Code::Internal, message),
        }
    }
}

impl From<FormatError> for Failure {
    fn from(error: FormatError) -> Self {
        // The adapters call the value they were given `$`: here, the `messages` argument.
        let path = match error.path.strip_prefix('$') {
            Some(rest) => format!("messages{rest}"),
            None => error.path,
        };
        Failure::invalid(path, error.message)
    }
}

impl From<SegmentError> for Failure {
    fn from(error: SegmentError) -> Self {
        let path = match &error {
            SegmentError::OrphanToolResult { index, .. }
            | SegmentError::DuplicateToolResult { index, .. }
            | SegmentError::DuplicateToolCallId { index, .. } => format!("messages[{index}]"),
            _ => "messages".to_owned(),
        };
        // The core's message already starts with the path.
        Self {
            code: Code::InvalidInput,
            message: error.to_string(),
            path: Some(path),
            details: Vec::new(),
        }
    }
}

impl From<ConfigError> for Failure {
    fn from(error: ConfigError) -> Self {
        match error {
            ConfigError::Invalid {
                field,
                expected,
                found,
            } => Failure::invalid(
                format!("config.{}", field.replace('_', "-")),
                format!("expected {expected}, found {found}"),
            ),
            ConfigError::Budget(error) => error.into(),
            _ => Failure::invalid("config", error.to_string()),
        }
    }
}

impl From<BudgetError> for Failure {
    fn from(error: BudgetError) -> Self {
        let field = match &error {
            BudgetError::UnknownModel(_) => "config.model",
            BudgetError::BadRatios { .. } => "config.target-ratio",
            BudgetError::NoRoom { .. } => "config.output-reserve",
            BudgetError::BadMaxMessages(_) => "config.max-messages",
            _ => "config",
        };
        Failure::invalid(field, error)
    }
}

/// A serde_json error without its `at line 1 column 23` suffix when the caller cannot use
/// it (a position in text it never wrote itself).
pub(crate) fn serde_message(error: &serde_json::Error) -> String {
    let text = error.to_string();
    match text.rfind(" at line ") {
        Some(cut) if error.line() > 0 => text[..cut].to_owned(),
        _ => text,
    }
}
