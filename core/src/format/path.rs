//! Reading JSON fields with errors that name the JSON path of the offending value.

use serde_json::Value;

use super::FormatError;

/// `value` as an object, or an error at `path` saying a `what` object was expected.
pub(crate) fn object_at<'a>(
    value: &'a Value,
    path: &str,
    what: &str,
) -> Result<&'a serde_json::Map<String, Value>, FormatError> {
    value.as_object().ok_or_else(|| {
        FormatError::new(
            path,
            format!("expected a {what} object, found {}", kind_of(value)),
        )
    })
}

/// The string field `key` of the JSON object `value` at `path`: missing and not-a-string
/// are errors.
pub(crate) fn required_str<'a>(
    value: &'a Value,
    path: &str,
    key: &str,
) -> Result<&'a str, FormatError> {
    match value.get(key) {
        Some(Value::String(text)) => Ok(text),
        Some(other) => Err(FormatError::new(
            at(path, key),
            format!("expected a string, found {}", kind_of(other)),
        )),
        None => Err(FormatError::new(at(path, key), "missing")),
    }
}

/// `path` helpers shared by the adapters.
pub(crate) fn at(path: &str, key: &str) -> String {
    format!("{path}.{key}")
}

pub(crate) fn index(path: &str, i: usize) -> String {
    format!("{path}[{i}]")
}

/// A short JSON description of a value's type, for errors.
pub(crate) fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
