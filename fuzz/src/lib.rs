//! The property every adapter target checks, on any bytes: input that parses writes back
//! to JSON that parses to the same messages, unchanged or after the engine's kind of
//! rewrite (tool results cleared, a message dropped); read as text, every message the
//! rewrite left alone (and every field of a request body) writes back as its own bytes;
//! nothing panics.

use compactor::format::{Conversation, Format, ParseOptions, parse, parse_str};
use compactor::message::{Message, Part, Role};
use serde_json::Value;
use serde_json::value::RawValue;

/// Runs the round-trip properties for `format` on `data`.
pub fn round_trip(format: Format, data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data) {
        text_round_trip(format, text);
    }
    let Ok(json) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    for lenient in [false, true] {
        let options = ParseOptions { lenient };
        let Ok(conversation) = parse(&json, format, options) else {
            continue;
        };
        let written = conversation.to_json(&conversation.messages).to_value();
        assert_eq!(written, json, "unchanged messages must write back equal");
        let again = parse(&written, format, options).expect("written JSON parses");
        assert_eq!(again.messages, conversation.messages);

        let cleared = cleared(&conversation);
        let written = conversation.to_json(&cleared).to_value();
        let again = parse(&written, format, options).expect("rewritten JSON parses");
        assert_eq!(shape(&again.messages), shape(&cleared));
    }
}

/// Parsed from text, written back: the same bytes for every untouched message and body
/// field, before and after a rewrite, and the written text reads as the messages.
fn text_round_trip(format: Format, text: &str) {
    for lenient in [false, true] {
        let options = ParseOptions { lenient };
        let Ok(conversation) = parse_str(text, format, options) else {
            continue;
        };
        let input = Pieces::of(text, format);
        let written = serde_json::to_string(&conversation.to_json(&conversation.messages))
            .expect("a written conversation serializes");
        assert_eq!(
            Pieces::of(&written, format),
            input,
            "untouched text must write back as it was"
        );
        let again = parse_str(&written, format, options).expect("written text parses");
        assert_eq!(again.messages, conversation.messages);

        let cleared = cleared(&conversation);
        let written = serde_json::to_string(&conversation.to_json(&cleared))
            .expect("a written conversation serializes");
        let output = Pieces::of(&written, format);
        assert_eq!(
            output.fields, input.fields,
            "body fields must write back as they were"
        );
        // A system prompt read from the body (Anthropic's `system`, Responses'
        // `instructions`, Gemini's `systemInstruction`) is a message of the conversation,
        // not of the list.
        let offset = conversation.messages.len() - input.messages.len();
        for (i, message) in cleared.iter().enumerate().skip(offset) {
            if *message == conversation.messages[i] {
                assert_eq!(
                    output.messages.get(i - offset),
                    input.messages.get(i - offset),
                    "message {i} was not rewritten and must write back as it was"
                );
            }
        }
        let again = parse_str(&written, format, options).expect("rewritten text parses");
        assert_eq!(shape(&again.messages), shape(&cleared));
    }
}

/// The texts of a conversation's parts: the messages, and the fields of a request body
/// around them (each key once, the last occurrence, as a `Value` keeps it).
#[derive(Debug, PartialEq)]
struct Pieces {
    messages: Vec<String>,
    fields: Vec<(String, String)>,
}

impl Pieces {
    /// The pieces of `text`, whose list of messages is under `format`'s key in a body.
    fn of(text: &str, format: Format) -> Self {
        let key = match format {
            Format::OpenAiResponses => "input",
            Format::Gemini => "contents",
            _ => "messages",
        };
        let items = |text: &str| -> Vec<String> {
            serde_json::from_str::<Vec<&RawValue>>(text)
                .map(|items| items.iter().map(|i| i.get().to_owned()).collect())
                .unwrap_or_default()
        };
        match serde_json::from_str::<std::collections::BTreeMap<String, &RawValue>>(text) {
            Ok(mut body) => Self {
                messages: body
                    .remove(key)
                    .map(|m| items(m.get()))
                    .unwrap_or_default(),
                fields: body
                    .into_iter()
                    .map(|(k, v)| (k, v.get().to_owned()))
                    .collect(),
            },
            Err(_) => Self {
                messages: items(text),
                fields: Vec::new(),
            },
        }
    }
}

/// The engine's kind of rewrite: the tool results of compactable messages cleared.
fn cleared(conversation: &Conversation) -> Vec<Message> {
    conversation
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
        .collect()
}

/// What a message says, without its id (ids follow content, and content changed).
fn shape(messages: &[Message]) -> Vec<(Role, Vec<Part>, bool)> {
    messages
        .iter()
        .map(|m| (m.role, m.parts.clone(), m.compactable))
        .collect()
}
