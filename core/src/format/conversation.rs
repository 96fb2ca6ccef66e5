//! A parsed conversation and how it is written back: originals verbatim, changes rendered
//! on top of them.

use std::collections::HashMap;
use std::fmt;

use serde::Serialize;
use serde_json::Value;

use super::ids::IdAssigner;
use super::verbatim::{Layout, Original, Piece};
use super::{
    Format, FormatError, ParseOptions, aisdk, anthropic, gemini, index, kind_of, openai, responses,
};
use crate::hash::{ContentHash, message_hash};
use crate::message::{Message, MessageId, ToolCall};

/// A parsed conversation: the messages, and what is needed to write them back unchanged.
#[derive(Debug, Clone, PartialEq)]
pub struct Conversation {
    /// The format it was read from, and is written back in.
    pub format: Format,
    /// The messages.
    pub messages: Vec<Message>,
    originals: HashMap<MessageId, (ContentHash, Original)>,
    /// Boxed: a conversation is held inside other values, and most have no body.
    pub(super) envelope: Option<Box<Envelope>>,
    /// How the input text was laid out (compact when the input was a `Value`).
    layout: Layout,
    /// The ids given so far, so that messages read later get the ids they would have had.
    pub(super) ids: IdAssigner,
    /// The message read from the request body's system field (`instructions`,
    /// `systemInstruction`), written back there while it leads the messages.
    pub(super) lead: Option<MessageId>,
    /// The tool calls of the last message read: Gemini pairs the responses of the next
    /// turn read with them, by id or by name and order.
    pub(super) last_calls: Box<[ToolCall]>,
}

/// The messages, for what works on plain messages (the session write-back).
impl AsRef<[Message]> for Conversation {
    fn as_ref(&self) -> &[Message] {
        &self.messages
    }
}

impl Conversation {
    pub(super) fn new(
        format: Format,
        parsed: Vec<(Message, Original)>,
        envelope: Option<Envelope>,
        layout: Layout,
    ) -> Self {
        let mut originals = HashMap::with_capacity(parsed.len());
        let messages = parsed
            .into_iter()
            .map(|(message, original)| {
                originals.insert(message.id.clone(), (message_hash(&message), original));
                message
            })
            .collect();
        Self {
            format,
            messages,
            originals,
            envelope: envelope.map(Box::new),
            layout,
            ids: IdAssigner::new(),
            lead: None,
            last_calls: Box::default(),
        }
    }

    /// Reads `items`, a JSON array of messages that come after this conversation's (an
    /// agent's next turn), in its format: each gets its content-derived id as if it had
    /// been read with the others, and its JSON is kept for writing back. The messages are
    /// returned, not added to [`Conversation::messages`]: the caller keeps them where it
    /// keeps the conversation's messages. On error nothing changed.
    pub fn read_more(
        &mut self,
        items: Value,
        options: ParseOptions,
    ) -> Result<Vec<Message>, FormatError> {
        let key = self.format.list_key();
        let Value::Array(items) = items else {
            return Err(FormatError::new(
                key,
                format!("expected an array of messages, found {}", kind_of(&items)),
            ));
        };
        let read = match self.format {
            Format::OpenAi => openai::parse_message,
            Format::Anthropic => anthropic::parse_message,
            Format::AiSdk => aisdk::parse_message,
            Format::OpenAiResponses => responses::parse_item,
            Format::Gemini => gemini::parse_content,
        };
        let mut parsed = Vec::with_capacity(items.len());
        let mut before = self.last_calls.to_vec();
        for (i, item) in items.iter().enumerate() {
            let mut message = read(item, &index(key, i), options)?;
            if self.format == Format::Gemini {
                gemini::answer(&mut message, &before);
            }
            before = message.tool_calls().cloned().collect();
            parsed.push(message);
        }
        if !parsed.is_empty() {
            self.last_calls = before.into();
        }
        for (message, item) in parsed.iter_mut().zip(items) {
            self.ids.assign(message);
            self.originals.insert(
                message.id.clone(),
                (message_hash(message), Original::new(item, None)),
            );
        }
        Ok(parsed)
    }

    /// Where the input's list (`messages`, `input`, `contents`) starts in `messages`, this
    /// conversation's messages or what became of them: after the system prompt a request
    /// body held outside the list (Anthropic's `system`, read as leading system messages;
    /// Responses' `instructions` and Gemini's `systemInstruction`, while their message
    /// still leads). Pins and changes given by list index are offset by it.
    pub fn given_start(&self, messages: &[Message]) -> usize {
        match self.format {
            Format::Anthropic => messages
                .iter()
                .take_while(|m| m.role == crate::message::Role::System)
                .count(),
            Format::OpenAiResponses | Format::Gemini => usize::from(
                matches!((&self.lead, messages.first()), (Some(id), Some(first)) if &first.id == id),
            ),
            _ => 0,
        }
    }

    /// Forgets the original JSON of every message not in `messages` (those a compaction
    /// replaced), so a long-lived conversation does not keep them.
    pub fn retain_originals(&mut self, messages: &[Message]) {
        let kept: std::collections::HashSet<&MessageId> = messages.iter().map(|m| &m.id).collect();
        self.originals.retain(|id, _| kept.contains(id));
    }

    /// The original JSON of a message, if it came from the input unchanged.
    pub fn original(&self, message: &Message) -> Option<&Value> {
        self.originals
            .get(&message.id)
            .filter(|(hash, _)| *hash == message_hash(message))
            .map(|(_, original)| &original.value)
    }

    /// The piece that writes one message: its original when unchanged; else rendered by
    /// `render` on top of the original with the same id (what the input held for it), or
    /// fresh when there is none.
    pub(super) fn piece(
        &self,
        message: &Message,
        render: fn(&Message, Option<&Value>) -> Value,
    ) -> Piece<'_> {
        match self.originals.get(&message.id) {
            Some((hash, original)) if *hash == message_hash(message) => Piece::Verbatim(original),
            Some((_, original)) => Piece::Over(render(message, Some(&original.value)), original),
            None => Piece::Fresh(render(message, None)),
        }
    }

    /// `messages` in this conversation's format: originals verbatim where the message is
    /// unchanged, rendered otherwise. When the input was a request body (an object with
    /// `messages`), the output is that body with its messages replaced.
    ///
    /// Anthropic: leading [`Role::System`](crate::message::Role::System) messages go to the
    /// top-level `system` field (a bare array input becomes a body then), never into
    /// `messages`.
    ///
    /// Serialize the result with serde_json (`to_string`, `to_writer`, pretty or not), or
    /// print it (`to_string()` lays it out as the input text was). Conversations parsed from
    /// text ([`parse_str`](super::parse_str)) come back byte for byte: every untouched message, every field of
    /// the request body, and the unchanged fields of a rewritten message are the input's
    /// own text, numbers included (`1776068401.3278353`, `1E5`, integers past 2^64).
    /// [`Written::to_value`] gives a `Value` instead, with numbers as a `Value` holds them.
    pub fn to_json(&self, messages: &[Message]) -> Written<'_> {
        let root = match self.format {
            Format::OpenAi => self.wrap(
                messages
                    .iter()
                    .map(|m| self.piece(m, openai::render))
                    .collect(),
            ),
            Format::AiSdk => self.wrap(
                messages
                    .iter()
                    .map(|m| self.piece(m, aisdk::render))
                    .collect(),
            ),
            Format::Anthropic => anthropic::write(self, messages),
            Format::OpenAiResponses => {
                self.write_with_lead(messages, responses::render, responses::render_instructions)
            }
            Format::Gemini => {
                self.write_with_lead(messages, gemini::render, gemini::render_instruction)
            }
        };
        Written {
            root,
            layout: &self.layout,
        }
    }

    fn wrap<'a>(&'a self, rendered: Vec<Piece<'a>>) -> Piece<'a> {
        match &self.envelope {
            Some(envelope) => envelope.with(self.format, Piece::Array(rendered), None),
            None => Piece::Array(rendered),
        }
    }

    /// Writes `messages` with the message read from the body's system field (see
    /// [`Format::system_key`]) back in that field while it still leads them; without it
    /// the field is left out. Every other message goes in the list.
    fn write_with_lead<'a>(
        &'a self,
        messages: &[Message],
        render: fn(&Message, Option<&Value>) -> Value,
        render_lead: fn(&Message, Option<&Value>) -> Value,
    ) -> Piece<'a> {
        let (lead, rest) = match (&self.lead, messages.split_first()) {
            (Some(id), Some((first, rest))) if &first.id == id => (Some(first), rest),
            _ => (None, messages),
        };
        let list = Piece::Array(rest.iter().map(|m| self.piece(m, render)).collect());
        let lead = lead.map(|m| self.piece(m, render_lead));
        match &self.envelope {
            Some(envelope) => envelope.with(self.format, list, Some(lead)),
            None => list,
        }
    }
}

/// A conversation written back by [`Conversation::to_json`]: serialize it with serde_json
/// (other serializers cannot take the input's text verbatim), print it, or take its
/// [`Written::to_value`].
#[derive(Debug)]
pub struct Written<'a> {
    root: Piece<'a>,
    layout: &'a Layout,
}

impl Written<'_> {
    /// The written conversation as a `Value`. Numbers are as a `Value` holds them, which is
    /// not always as the input wrote them: serialize the `Written` itself for the input's
    /// text.
    pub fn to_value(&self) -> Value {
        self.root.to_value()
    }
}

impl Serialize for Written<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.root.serialize(serializer)
    }
}

/// The JSON text, laid out as the input text was: indented by the same unit, spaced as
/// Python writes it, or compact (as it is when the input was a `Value`). Untouched
/// messages then read exactly as in the input, whitespace included.
impl fmt::Display for Written<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.layout.write(self).map_err(|_| fmt::Error)?)
    }
}

/// The fields of a request body, in order, each with its text; the list (`messages`,
/// `input`, `contents`) is there (its value unused) to keep its place.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Envelope(pub(super) Vec<(String, Original)>);

impl Envelope {
    /// The field `key`.
    pub(crate) fn get(&self, key: &str) -> Option<&Original> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// The body with `messages` in place of its list of messages, and `system` (when
    /// given) in place of its system field (`system`, `instructions`, `systemInstruction`),
    /// or last when it had none. Every other field is verbatim.
    pub(super) fn with<'a>(
        &'a self,
        format: Format,
        messages: Piece<'a>,
        system: Option<Option<Piece<'a>>>,
    ) -> Piece<'a> {
        let (list_key, system_key) = (format.list_key(), format.system_key());
        let mut messages = Some(messages);
        let mut system = system;
        let mut fields: Vec<(String, Piece<'a>)> = Vec::with_capacity(self.0.len() + 1);
        for (key, original) in &self.0 {
            let piece = if key == list_key {
                messages.take()
            } else if key == system_key {
                match system.take() {
                    Some(replaced) => replaced,
                    None => Some(Piece::Verbatim(original)),
                }
            } else {
                Some(Piece::Verbatim(original))
            };
            if let Some(piece) = piece {
                fields.push((key.clone(), piece));
            }
        }
        for (key, piece) in [(system_key, system.flatten()), (list_key, messages)] {
            if let Some(piece) = piece {
                fields.push((key.to_owned(), piece));
            }
        }
        Piece::Object(fields)
    }
}

/// Renders `messages` in `format` with no originals to keep: every message is written
/// fresh, text as string content. Media and opaque parts have nothing to be rebuilt from
/// and render as their label in brackets; keep such messages in a [`Conversation`] and
/// write them with [`Conversation::to_json`] instead.
pub fn render(format: Format, messages: &[Message]) -> Value {
    Conversation::new(format, Vec::new(), None, Layout::Compact)
        .to_json(messages)
        .to_value()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::read::from_text;
    use crate::format::{parse, parse_str};
    use crate::message::Part;
    use serde_json::json;

    /// Numbers a `Value` does not hold as written, in an `extra` of each message.
    const EXTRA: &str = r#"{"t":1776068401.3278353,"big":123456789012345678901234567890,"u64":18446744073709551615,"neg":-0.0,"inf":1e400,"e":1E5,"d":1.10,"s":"\u00e9\/"}"#;

    /// A conversation in each format: a call, its result, and an answer, each with the
    /// `extra` above; request bodies with numbers of their own.
    fn texts() -> [(Format, String); 3] {
        let openai = format!(
            r#"{{"model":"gpt-4o","temperature":0.70,"messages":[{{"role":"user","content":"go","extra":{EXTRA}}},{{"role":"assistant","content":null,"tool_calls":[{{"id":"c1","type":"function","function":{{"name":"ls","arguments":"{{}}"}}}}],"extra":{EXTRA}}},{{"role":"tool","tool_call_id":"c1","content":"a long listing","extra":{EXTRA}}},{{"role":"assistant","content":"done","extra":{EXTRA}}}],"seed":18446744073709551615}}"#
        );
        let anthropic = format!(
            r#"{{
 "system": [{{"type":"text","text":"rules","cache_control":{{"type":"ephemeral","n":1.50}}}}],
 "max_tokens": 1E3,
 "messages": [
  {{"role":"user","content":"go","extra":{EXTRA}}},
  {{"role":"assistant","content":[{{"type":"tool_use","id":"c1","name":"ls","input":{{"depth":2.0}}}}],"extra":{EXTRA}}},
  {{"role":"user","content":[{{"type":"tool_result","tool_use_id":"c1","content":"a long listing","extra":{EXTRA}}},{{"type":"text","text":"and?","n":1.10}}],"extra":{EXTRA}}},
  {{"role":"assistant","content":"done","extra":{EXTRA}}}
 ]
}}"#
        );
        let aisdk = format!(
            r#"[{{"role":"user","content":"go","providerOptions":{{"x":{EXTRA}}}}},{{"role":"assistant","content":[{{"type":"tool-call","toolCallId":"c1","toolName":"ls","input":{{"depth":2.0}}}}],"providerOptions":{{"x":{EXTRA}}}}},{{"role":"tool","content":[{{"type":"tool-result","toolCallId":"c1","toolName":"ls","output":{{"type":"text","value":"a long listing"}},"providerOptions":{{"x":{EXTRA}}}}}],"providerOptions":{{"x":{EXTRA}}}}},{{"role":"assistant","content":"done","providerOptions":{{"x":{EXTRA}}}}}]"#
        );
        [
            (Format::OpenAi, openai),
            (Format::Anthropic, anthropic),
            (Format::AiSdk, aisdk),
        ]
    }

    #[test]
    fn text_comes_back_byte_for_byte_in_every_format() {
        for (format, text) in texts() {
            let conversation = parse_str(&text, format, ParseOptions::default())
                .unwrap_or_else(|e| panic!("{format}: {e}"));
            assert_eq!(
                Format::detect(&from_text(&text).expect("json")),
                Some(format)
            );
            let written = conversation.to_json(&conversation.messages).to_string();
            assert_eq!(written, text, "{format}");
        }
    }

    #[test]
    fn a_rewritten_message_keeps_the_text_of_its_other_fields() {
        for (format, text) in texts() {
            let conversation = parse_str(&text, format, ParseOptions::default()).expect("parses");
            let mut messages = conversation.messages.clone();
            let result = messages
                .iter_mut()
                .flat_map(|m| m.parts.iter_mut())
                .find_map(|part| match part {
                    Part::ToolResult(result) => Some(result),
                    _ => None,
                })
                .expect("a tool result");
            result.content = vec![Part::text("[cleared]")];
            let written = conversation.to_json(&messages).to_string();
            assert_eq!(
                written.matches(EXTRA).count(),
                text.matches(EXTRA).count(),
                "{format}: {written}"
            );
            assert!(written.contains("[cleared]"), "{format}");
            assert!(!written.contains("a long listing"), "{format}");
            // Reads back as the messages written.
            let again = parse_str(&written, format, ParseOptions::default()).expect("reads");
            let parts = |m: &[Message]| m.iter().map(|m| m.parts.clone()).collect::<Vec<_>>();
            assert_eq!(parts(&again.messages), parts(&messages), "{format}");
        }
    }

    #[test]
    fn writing_lays_text_out_as_the_input_was_and_values_compactly() {
        let pretty = "[\n\t{\n\t\t\"role\": \"user\",\n\t\t\"content\": \"hi\"\n\t}\n]";
        let conversation =
            parse_str(pretty, Format::OpenAi, ParseOptions::default()).expect("parses");
        let summary = Message::user("new", "summary");
        let written = conversation
            .to_json(&[conversation.messages[0].clone(), summary.clone()])
            .to_string();
        assert_eq!(
            written,
            "[\n\t{\n\t\t\"role\": \"user\",\n\t\t\"content\": \"hi\"\n\t},\n\t{\n\t\t\"role\": \"user\",\n\t\t\"content\": \"summary\"\n\t}\n]"
        );
        let spaced = r#"[{"role": "user", "content": "hi", "n": [1.10, 2]}]"#;
        let conversation =
            parse_str(spaced, Format::OpenAi, ParseOptions::default()).expect("parses");
        assert_eq!(
            conversation
                .to_json(&[conversation.messages[0].clone(), summary.clone()])
                .to_string(),
            r#"[{"role": "user", "content": "hi", "n": [1.10, 2]}, {"role": "user", "content": "summary"}]"#
        );
        let value: Value = serde_json::from_str(pretty).expect("json");
        let conversation = parse(&value, Format::OpenAi, ParseOptions::default()).expect("parses");
        assert_eq!(
            conversation.to_json(&[summary]).to_string(),
            r#"[{"role":"user","content":"summary"}]"#
        );
    }

    #[test]
    fn render_writes_fresh_messages_in_each_format() {
        let messages = [Message::system("s", "rules"), Message::user("u", "hi")];
        assert_eq!(
            render(Format::OpenAi, &messages),
            json!([{"role":"system","content":"rules"},{"role":"user","content":"hi"}])
        );
        assert_eq!(
            render(Format::AiSdk, &messages),
            json!([{"role":"system","content":"rules"},{"role":"user","content":"hi"}])
        );
        assert_eq!(
            render(Format::Anthropic, &messages),
            json!({"system":"rules","messages":[{"role":"user","content":"hi"}]})
        );
    }
}
