//! Content parts shared by the adapters: tool calls read, blocks rendered over their
//! originals, placeholders and estimates.

use serde_json::{Map, Value};

use super::{FormatError, at, required_str};
use crate::message::Part;

/// Renders content parts as blocks. A part equal to what an original block reads as keeps
/// that block verbatim; a changed part is rendered on top of the block at its position
/// (keeping fields such as `cache_control`) when the number of parts did not change, and
/// fresh otherwise.
pub(crate) fn render_blocks(
    parts: &[Part],
    originals: &[Value],
    read: impl Fn(&Value) -> Option<Part>,
    render: impl Fn(&Part, Option<&Map<String, Value>>) -> Value,
) -> Vec<Value> {
    let read: Vec<Option<Part>> = originals.iter().map(read).collect();
    render_blocks_read(parts, originals, &read, render)
}

/// [`render_blocks`] with the originals already read (`read[i]` is what `originals[i]`
/// reads as), for formats where a block reads differently depending on its siblings.
pub(crate) fn render_blocks_read(
    parts: &[Part],
    originals: &[Value],
    read: &[Option<Part>],
    render: impl Fn(&Part, Option<&Map<String, Value>>) -> Value,
) -> Vec<Value> {
    let mut used = vec![false; originals.len()];
    let same_shape = parts.len() == originals.len() && read.len() == originals.len();
    parts
        .iter()
        .enumerate()
        .map(|(i, part)| {
            let verbatim = if same_shape {
                (read.get(i).and_then(Option::as_ref) == Some(part)).then_some(i)
            } else {
                (0..originals.len())
                    .find(|&j| !used[j] && read.get(j).and_then(Option::as_ref) == Some(part))
            };
            if let Some(j) = verbatim {
                used[j] = true;
                return originals[j].clone();
            }
            let base = if same_shape {
                originals[i].as_object()
            } else {
                None
            };
            render(part, base)
        })
        .collect()
}

/// The text a part that cannot be rebuilt stands as: its label in brackets.
pub(crate) fn placeholder(part: &Part) -> String {
    match part {
        Part::Media(media) => format!("[{:?}: {}]", media.kind, media.label),
        Part::Opaque(opaque) => format!("[{}]", opaque.kind),
        Part::Reasoning(_) => String::new(),
        other => crate::message::text_of(std::slice::from_ref(other)),
    }
}

/// A tool call part read from `value` at `path`: its id and name are the string fields
/// `id_key` and `name_key`, its arguments the JSON text of the required field `input_key`.
pub(crate) fn tool_call(
    value: &Value,
    path: &str,
    [id_key, name_key, input_key]: [&str; 3],
) -> Result<Part, FormatError> {
    let input = value
        .get(input_key)
        .ok_or_else(|| FormatError::new(at(path, input_key), "missing"))?;
    Ok(Part::ToolCall(crate::message::ToolCall {
        id: required_str(value, path, id_key)?.to_owned(),
        name: required_str(value, path, name_key)?.to_owned(),
        arguments: input.to_string(),
    }))
}

/// Estimated tokens of data given inline (base64): one token per 3 characters, at least
/// one.
pub(crate) fn inline_data_tokens(data: &str) -> u64 {
    (data.len() as u64 / 3).max(1)
}

/// The fields of the original JSON a changed message is rendered on top of: all of them
/// when there is an original object, none otherwise.
pub(crate) fn base_object(original: Option<&Value>) -> Map<String, Value> {
    match original {
        Some(Value::Object(object)) => object.clone(),
        _ => Map::new(),
    }
}
