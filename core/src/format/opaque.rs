//! What lenient parsing keeps without reading it: opaque parts and messages, pinned.

use serde_json::Value;

use super::{FormatError, ParseOptions, at};
use crate::message::{Message, MessageId, Part};

/// A part the adapter keeps but does not interpret, estimated from its JSON.
pub(crate) fn opaque_part(kind: &str, json: &Value) -> Part {
    Part::Opaque(crate::message::Opaque {
        kind: kind.to_owned(),
        tokens: crate::tokens::TokenCounter::count(&crate::tokens::Estimator, &json.to_string()),
    })
}

/// A message with a role the format does not know, kept whole and pinned.
pub(crate) fn opaque_message(role: &str, json: &Value) -> Message {
    Message::new(
        MessageId::new(""),
        crate::message::Role::User,
        vec![opaque_part(&format!("role:{role}"), json)],
    )
    .with_compactable(false)
}

/// Pins a message that holds an opaque part: the engine cannot summarize what it cannot
/// read without losing it.
pub(crate) fn pin_opaque(mut message: Message) -> Message {
    fn opaque(part: &Part) -> bool {
        match part {
            Part::Opaque(_) => true,
            Part::ToolResult(result) => result.content.iter().any(opaque),
            _ => false,
        }
    }
    if message.parts.iter().any(opaque) {
        message.compactable = false;
    }
    message
}

/// The error or the opaque message for a role the format does not know: lenient parsing
/// keeps the message whole and pinned, strict parsing names the role at `path.role`.
pub(crate) fn unknown_role(
    role: &str,
    item: &Value,
    path: &str,
    options: ParseOptions,
) -> Result<Message, FormatError> {
    if options.lenient {
        Ok(opaque_message(role, item))
    } else {
        Err(FormatError::new(
            at(path, "role"),
            format!("unknown role {role:?}"),
        ))
    }
}
