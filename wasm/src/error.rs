//! Errors as JS sees them: an `Error` named `CompactorError` with a stable `code` and, for
//! bad input, the `path` of the offending value.

use compactor::budget::BudgetError;
use compactor::engine::CompactError;
use compactor::engine::ConfigError;
use compactor::format::FormatError;
use compactor::segment::SegmentError;

use wasm_bindgen::{JsCast, JsValue};

/// The stable error codes. JS code branches on these, never on messages, so they are only
/// ever added to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorCode {
    /// The input (config, messages, options, arguments) is malformed; `path` says where.
    /// Nothing was changed.
    InvalidInput,
    /// Non-compactable messages plus the newest turn exceed the absolute limit.
    ContextOverflow,
    /// The session's circuit breaker is open after repeated failed runs.
    CircuitOpen,
    /// A session store changed between read and write-back; nothing was written.
    Conflict,
    /// The caller's `AbortSignal` fired; nothing was applied.
    Aborted,
    /// A summary at the MAXIMUM level failed; `level` and `failure` say which and why.
    /// The conversation is unchanged.
    SummaryFailed,
    /// The session store's `load` or `save` threw (or rejected); `cause` is what it threw.
    /// Nothing was written by compactor.
    PersistFailed,
    /// A bug in compactor: the result failed its final check, or the driver and the
    /// engine disagreed. The conversation is unchanged; please report it.
    Internal,
}

impl ErrorCode {
    /// Every code, in declaration order.
    pub const ALL: [ErrorCode; 8] = [
        ErrorCode::InvalidInput,
        ErrorCode::ContextOverflow,
        ErrorCode::CircuitOpen,
        ErrorCode::Conflict,
        ErrorCode::Aborted,
        ErrorCode::SummaryFailed,
        ErrorCode::PersistFailed,
        ErrorCode::Internal,
    ];

    /// The value of the error's `code` property.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::InvalidInput => "INVALID_INPUT",
            ErrorCode::ContextOverflow => "CONTEXT_OVERFLOW",
            ErrorCode::CircuitOpen => "CIRCUIT_OPEN",
            ErrorCode::Conflict => "CONFLICT",
            ErrorCode::Aborted => "ABORTED",
            ErrorCode::SummaryFailed => "SUMMARY_FAILED",
            ErrorCode::PersistFailed => "PERSIST_FAILED",
            ErrorCode::Internal => "INTERNAL",
        }
    }
}

/// An error on its way to JS.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// What kind of failure.
    pub code: ErrorCode,
    /// The readable message; for bad input it starts with the path.
    pub message: String,
    /// Where the bad input is: `messages[3].role`, `config.maxContextTokens`.
    pub path: Option<String>,
    /// More properties of the JS error, by name: the offenders of an overflow, the
    /// versions of a conflict.
    pub details: Vec<(String, serde_json::Value)>,
}

impl Failure {
    /// Bad input at `path`: the message reads `{path}: {what}`.
    pub fn invalid(path: impl Into<String>, what: impl std::fmt::Display) -> Self {
        let path = path.into();
        Self {
            code: ErrorCode::InvalidInput,
            message: format!("{path}: {what}"),
            path: Some(path),
            details: Vec::new(),
        }
    }

    /// A failure that is not about one input value.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            path: None,
            details: Vec::new(),
        }
    }

    /// Adds the property `name` to the JS error.
    #[must_use]
    pub fn with(self, name: &str, value: impl serde::Serialize) -> Self {
        // The values are the core's own plain types: serializing them cannot fail. Through
        // text, as every output goes: serde_json's `Value` serializer would be more code in
        // every package.
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
}

impl From<CompactError> for Failure {
    fn from(error: CompactError) -> Self {
        let message = error.to_string();
        match error {
            CompactError::NoMessagesToCompact => Failure::invalid("messages", message),
            CompactError::SummaryFailed { level, failure } => {
                Failure::new(ErrorCode::SummaryFailed, message)
                    .with("level", level)
                    .with("failure", failure)
            }
            CompactError::PersistFailed(_) => Failure::new(ErrorCode::PersistFailed, message),
            CompactError::CircuitOpen { session, failures } => {
                Failure::new(ErrorCode::CircuitOpen, message)
                    .with("session", session)
                    .with("failures", failures)
            }
            CompactError::ContextOverflow {
                tokens,
                limit,
                offenders,
            } => Failure::new(ErrorCode::ContextOverflow, message)
                .with("tokens", tokens)
                .with("limit", limit)
                .with("offenders", offenders),
            CompactError::Conflict { expected, found } => {
                Failure::new(ErrorCode::Conflict, message)
                    .with("expected", expected)
                    .with("found", found)
            }
            CompactError::Cancelled => {
                Failure::new(ErrorCode::Aborted, "aborted: nothing was applied")
            }
            CompactError::InvalidConversation(error) => error.into(),
            CompactError::Pin(_) => Failure::invalid("options.pin", message),
            CompactError::Budget(error) => error.into(),
            // Validation refusing a result, an unknown request id, and whatever the core
            // adds later: none is the caller's doing.
            _ => Failure::new(ErrorCode::Internal, message),
        }
    }
}

impl From<FormatError> for Failure {
    fn from(error: FormatError) -> Self {
        // The adapters call the value they were given `$`; in JS it is the `messages`
        // argument.
        let path = match error.path.as_str() {
            "$" => "messages".to_owned(),
            _ => error.path,
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
            code: ErrorCode::InvalidInput,
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
                format!("config.{}", camel_case(field)),
                format!("expected {expected}, found {found}"),
            ),
            ConfigError::Budget(error) => error.into(),
            _ => Failure::invalid("config", error.to_string()),
        }
    }
}

/// `max_summary_tokens` → `maxSummaryTokens`: the core names fields as Rust does, JS
/// callers as JS does.
fn camel_case(field: &str) -> String {
    let mut out = String::with_capacity(field.len());
    let mut upper = false;
    for c in field.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

impl From<BudgetError> for Failure {
    fn from(error: BudgetError) -> Self {
        let field = match &error {
            BudgetError::UnknownModel(_) => "config.model",
            BudgetError::BadRatios { .. } => "config.targetRatio",
            BudgetError::NoRoom { .. } => "config.outputReserve",
            BudgetError::BadMaxMessages(_) => "config.maxMessages",
            _ => "config",
        };
        Failure::invalid(field, error)
    }
}

impl From<Failure> for JsValue {
    fn from(failure: Failure) -> Self {
        let error = js_sys::Error::new(&failure.message);
        error.set_name("CompactorError");
        // Setting a property on a fresh, unfrozen Error cannot fail.
        let _ = js_sys::Reflect::set(&error, &"code".into(), &failure.code.as_str().into());
        if let Some(path) = &failure.path {
            let _ = js_sys::Reflect::set(&error, &"path".into(), &path.into());
        }
        for (name, value) in &failure.details {
            let value = serde_json::to_string(value)
                .ok()
                .and_then(|text| js_sys::JSON::parse(&text).ok())
                .unwrap_or(JsValue::UNDEFINED);
            let _ = js_sys::Reflect::set(&error, &name.into(), &value);
        }
        error.into()
    }
}

/// The message of a thrown JS value.
pub(crate) fn js_message(thrown: &JsValue) -> String {
    thrown
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| thrown.as_string())
        .unwrap_or_else(|| "an exception was thrown".to_owned())
}
