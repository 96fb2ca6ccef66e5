//! Errors as JS sees them: an `Error` named `CompactorError` with a stable `code` and, for
//! bad input, the `path` of the offending value.

use compactor::budget::BudgetError;
use compactor::format::FormatError;
use compactor::segment::SegmentError;
use wasm_bindgen::JsValue;

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
    /// A summary at the MAXIMUM level failed.
    SummaryFailed,
}

impl ErrorCode {
    /// Every code, in declaration order.
    pub const ALL: [ErrorCode; 6] = [
        ErrorCode::InvalidInput,
        ErrorCode::ContextOverflow,
        ErrorCode::CircuitOpen,
        ErrorCode::Conflict,
        ErrorCode::Aborted,
        ErrorCode::SummaryFailed,
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
}

impl Failure {
    /// Bad input at `path`: the message reads `{path}: {what}`.
    pub fn invalid(path: impl Into<String>, what: impl std::fmt::Display) -> Self {
        let path = path.into();
        Self {
            code: ErrorCode::InvalidInput,
            message: format!("{path}: {what}"),
            path: Some(path),
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
        }
    }
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
        error.into()
    }
}
