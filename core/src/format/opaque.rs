//! What the adapters keep without reading it, pinned: parts of a type not known yet (a
//! block type a provider adds next month is not bad input) and documented parts they
//! carry unread, in every mode; messages of an unknown role, when parsing is lenient.

use serde_json::Value;

use super::{FormatError, ParseOptions, at};
use crate::message::{Message, MessageId, Part};

/// A part the adapter keeps but does not interpret, estimated from its JSON: a documented
/// part carried unread, or one of a type not known yet.
pub(crate) fn opaque_part(kind: &str, json: &Value) -> Part {
    Part::Opaque(crate::message::Opaque {
        kind: kind.to_owned(),
        tokens: crate::tokens::TokenCounter::count(&crate::tokens::Estimator, &json.to_string()),
    })
}

/// A content part of a type `own` does not know: kept whole (see [`opaque_part`]), unless
/// the type is another format's own (`tool_use` read as OpenAI Chat): then the input is in
/// another format, an error at `path.type` that says which.
pub(crate) fn unknown_part(
    kind: &str,
    json: &Value,
    path: &str,
    own: super::Format,
) -> Result<Part, FormatError> {
    match super::detect::part_format(kind) {
        Some(other) if other != own => Err(FormatError::new(
            at(path, "type"),
            format!("{kind:?} is a part of the {other} format, not {own}"),
        )),
        _ => Ok(opaque_part(kind, json)),
    }
}

/// The kind an opaque message of an unknown role carries: `role:exit`.
const ROLE_PREFIX: &str = "role:";

/// A message with a role the format does not know, kept whole and pinned.
pub(crate) fn opaque_message(role: &str, json: &Value) -> Message {
    Message::new(
        MessageId::new(""),
        crate::message::Role::User,
        vec![opaque_part(&format!("{ROLE_PREFIX}{role}"), json)],
    )
    .with_compactable(false)
}

/// Is `message` one lenient parsing kept for a role the format does not know? The
/// provider never sees such a message as it is: it is the caller's own business.
pub(crate) fn is_unknown_role(message: &Message) -> bool {
    matches!(message.parts.as_slice(), [Part::Opaque(o)] if o.kind.starts_with(ROLE_PREFIX))
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
