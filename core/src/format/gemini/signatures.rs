//! Thought signatures, checked on written JSON: the messages do not hold them.

use std::collections::HashMap;

use serde_json::Value;

use super::field;
use crate::format::check::{Rule, Violation};

/// The parts carrying a `thoughtSignature` in `json` (contents or a request body): for each
/// signature, the content index and the part without its text (what it is: a call with its
/// name and arguments, a text, a thought).
fn signed(json: &Value) -> Vec<(String, usize, Value)> {
    let contents = match json {
        Value::Array(items) => items,
        Value::Object(body) => match body.get("contents") {
            Some(Value::Array(items)) => items,
            _ => return Vec::new(),
        },
        _ => return Vec::new(),
    };
    let mut out = Vec::new();
    for (index, content) in contents.iter().enumerate() {
        let Some(parts) = content.get("parts").and_then(Value::as_array) else {
            continue;
        };
        for part in parts {
            let Some(object) = part.as_object() else {
                continue;
            };
            let Some(signature) =
                field(object, "thoughtSignature", "thought_signature").and_then(Value::as_str)
            else {
                continue;
            };
            // Text may be clipped in place; what the part is must not change.
            let mut what = object.clone();
            what.shift_remove("thoughtSignature");
            what.shift_remove("thought_signature");
            if what.contains_key("text") {
                what.insert("text".into(), Value::Null);
            }
            out.push((signature.to_owned(), index, Value::Object(what)));
        }
    }
    out
}

/// Checks that every `thoughtSignature` in `written` is on the part that carried it in
/// `input`: a part of the same kind (the same call, with the same arguments; a text or a
/// thought whose text may have been clipped), and no more often than in the input. Indices
/// in the violations are into `written`'s contents.
pub fn check_written(input: &Value, written: &Value) -> Result<(), Vec<Violation>> {
    let mut available: HashMap<(String, String), usize> = HashMap::new();
    for (signature, _, what) in signed(input) {
        *available.entry((signature, what.to_string())).or_insert(0) += 1;
    }
    let mut violations = Vec::new();
    for (signature, index, what) in signed(written) {
        let slot = available.get_mut(&(signature.clone(), what.to_string()));
        match slot {
            Some(count) if *count > 0 => *count -= 1,
            _ => violations.push(Violation {
                index,
                rule: Rule::ThoughtSignatureMoved,
                detail: format!(
                    "thoughtSignature {:?} on a part that did not carry it",
                    signature.chars().take(16).collect::<String>()
                ),
            }),
        }
    }
    if violations.is_empty() {
        Ok(())
    } else {
        Err(violations)
    }
}
