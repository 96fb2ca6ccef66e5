//! The property every adapter target checks, on any bytes: input that parses writes back
//! to JSON that parses to the same messages, unchanged or after the engine's kind of
//! rewrite (tool results cleared, a message dropped); nothing panics.

use compactor::format::{Format, ParseOptions, parse};
use compactor::message::{Message, Part};
use serde_json::Value;

/// Runs the round-trip property for `format` on `data`.
pub fn round_trip(format: Format, data: &[u8]) {
    let Ok(json) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    for lenient in [false, true] {
        let options = ParseOptions { lenient };
        let Ok(conversation) = parse(&json, format, options) else {
            continue;
        };
        let written = conversation.to_json(&conversation.messages);
        assert_eq!(written, json, "unchanged messages must write back equal");
        let again = parse(&written, format, options).expect("written JSON parses");
        assert_eq!(again.messages, conversation.messages);

        // The engine's kind of rewrite: clear the tool results of compactable messages.
        let cleared: Vec<Message> = conversation
            .messages
            .iter()
            .cloned()
            .map(|mut message| {
                if !message.compactable {
                    return message;
                }
                for part in &mut message.parts {
                    if let Part::ToolResult(result) = part {
                        result.content = vec![Part::text("[cleared]")];
                    }
                }
                message
            })
            .collect();
        let written = conversation.to_json(&cleared);
        let again = parse(&written, format, options).expect("rewritten JSON parses");
        assert_eq!(shape(&again.messages), shape(&cleared));
    }
}

/// What a message says, without its id (ids follow content, and content changed).
fn shape(messages: &[Message]) -> Vec<(compactor::message::Role, Vec<Part>, bool)> {
    messages
        .iter()
        .map(|m| (m.role, m.parts.clone(), m.compactable))
        .collect()
}
