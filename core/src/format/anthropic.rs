//! Anthropic Messages API.
//!
//! Input: a request body (an object with `messages`, and optionally a top-level `system`
//! given as a string or as text blocks; every other field is kept and written back), or a
//! bare array of messages. The top-level `system` becomes a leading
//! [`Role::System`] message, pinned, and is written back to the `system` field, never into
//! `messages`.
//!
//! Messages have roles `user` and `assistant`, and content that is a string or an array of
//! blocks: `text`, `image`, `document`, `tool_use` (assistant), `tool_result` (user; its
//! `content` a string or blocks, `is_error` optional), `thinking` and `redacted_thinking`
//! (assistant). A user message carrying several `tool_result` blocks is one [`Role::User`]
//! message with several [`Part::ToolResult`]s. Fields the model does not interpret —
//! `cache_control`, `citations`, a thinking block's `signature` — stay in the original
//! JSON and survive every write. Server-side tool blocks (`server_tool_use`,
//! `web_search_tool_result` and their kin), the `tool_reference` blocks a tool search
//! answers with inside a `tool_result`, a `tool_result` in an assistant message (some
//! proxies answer server-side calls in place), and any block of a type not known yet are
//! kept as pinned opaque parts, in strict mode too. The `compaction` block a server-side
//! compaction puts in an assistant message is kept so too, as an earlier summary.
//!
//! Estimates: an image is counted as [`IMAGE_TOKENS`], Anthropic's figure for an image near
//! its 1.15 megapixel resize limit (`width × height / 750`); a document with inline text
//! one token per 4 characters, with inline base64 data one token per 3 characters, and
//! [`DOCUMENT_REF_TOKENS`] when it is referenced by URL or file id. Thinking counts its
//! visible text; redacted thinking counts nothing (the API drops thinking of earlier turns
//! from the context).

use serde_json::{Map, Value, json};

use super::verbatim::Piece;
use super::{
    Conversation, Format, FormatError, ParseOptions, Source, at, base_object, index,
    inline_data_tokens, kind_of, object_at, opaque_part, pin_opaque, placeholder,
    read_conversation, render_blocks, required_str, tool_call, unknown_part, unknown_role,
};
use crate::message::{
    Media, MediaKind, Message, MessageId, Part, Reasoning, Role, ToolResult, text_of,
};

/// Estimated tokens of an image.
pub const IMAGE_TOKENS: u64 = 1_600;
/// Estimated tokens of a document referenced by URL or file id.
pub const DOCUMENT_REF_TOKENS: u64 = 1_500;

/// Parses a request body or a bare array of messages.
pub fn parse(json: &Value, options: ParseOptions) -> Result<Conversation, FormatError> {
    read(Source::of(json), options)
}

pub(crate) fn read(source: Source<'_>, options: ParseOptions) -> Result<Conversation, FormatError> {
    read_conversation(
        source,
        Format::Anthropic,
        |body| match body.and_then(|body| body.get("system")) {
            Some(system) => {
                let parts = system_parts(&system.value)?;
                let message = Message::new(MessageId::new(""), Role::System, parts);
                Ok(vec![(message, system.clone())])
            }
            None => Ok(Vec::new()),
        },
        |item, path| parse_message(item, path, options),
    )
}

fn system_parts(system: &Value) -> Result<Vec<Part>, FormatError> {
    match system {
        Value::String(text) => Ok(vec![Part::text(text.clone())]),
        Value::Array(blocks) => blocks
            .iter()
            .enumerate()
            .map(|(i, block)| {
                let path = index("system", i);
                match block.get("type").and_then(Value::as_str) {
                    Some("text") => Ok(Part::text(required_str(block, &path, "text")?)),
                    Some(other) => Err(FormatError::new(
                        at(&path, "type"),
                        format!("expected a text block, found {other:?}"),
                    )),
                    None => Err(FormatError::new(at(&path, "type"), "missing")),
                }
            })
            .collect(),
        other => Err(FormatError::new(
            "system",
            format!(
                "expected a string or an array of text blocks, found {}",
                kind_of(other)
            ),
        )),
    }
}

pub(crate) fn parse_message(
    item: &Value,
    path: &str,
    options: ParseOptions,
) -> Result<Message, FormatError> {
    let object = object_at(item, path, "message")?;
    let role = match required_str(item, path, "role")? {
        "user" => Role::User,
        "assistant" => Role::Assistant,
        "system" if !options.lenient => {
            return Err(FormatError::new(
                at(path, "role"),
                "unknown role \"system\" (the system prompt goes in the top-level \"system\" field)",
            ));
        }
        unknown => return unknown_role(unknown, item, path, options),
    };
    let mut parts = content(object.get("content"), &at(path, "content"))?;
    if role == Role::Assistant
        && let Some(Value::Array(blocks)) = object.get("content")
    {
        // A `tool_result` the model's own message holds answers a server-side call in place
        // (as some proxies write them): carried, not a result the caller owes.
        for (part, block) in parts.iter_mut().zip(blocks) {
            if matches!(part, Part::ToolResult(_)) {
                *part = opaque_part("tool_result", block);
            }
        }
    }
    Ok(pin_opaque(Message::new(MessageId::new(""), role, parts)))
}

fn content(content: Option<&Value>, path: &str) -> Result<Vec<Part>, FormatError> {
    match content {
        Some(Value::String(text)) => Ok(vec![Part::text(text.clone())]),
        Some(Value::Array(blocks)) => blocks
            .iter()
            .enumerate()
            .map(|(i, block)| read_block(block, &index(path, i)))
            .collect(),
        Some(other) => Err(FormatError::new(
            path,
            format!(
                "expected a string or an array of blocks, found {}",
                kind_of(other)
            ),
        )),
        None => Err(FormatError::new(path, "missing")),
    }
}

/// One content block as a part.
fn read_block(block: &Value, path: &str) -> Result<Part, FormatError> {
    let object = object_at(block, path, "content block")?;
    let kind = required_str(block, path, "type")?;
    Ok(match kind {
        "text" => Part::text(required_str(block, path, "text")?),
        "image" => image_block(object, path)?,
        "document" => document_block(object, path)?,
        "tool_use" => tool_call(block, path, ["id", "name", "input"])?,
        "tool_result" => tool_result_block(block, object, path)?,
        "thinking" => Part::Reasoning(Reasoning {
            text: required_str(block, path, "thinking")?.to_owned(),
            redacted: false,
        }),
        "redacted_thinking" => {
            required_str(block, path, "data")?;
            Part::Reasoning(Reasoning {
                text: String::new(),
                redacted: true,
            })
        }
        // Server-side blocks, `tool_reference` and types not known yet: kept whole.
        other => unknown_part(other, block, path, Format::Anthropic)?,
    })
}

/// The `source` object of an image or document block.
fn source_of<'a>(
    object: &'a Map<String, Value>,
    path: &str,
) -> Result<&'a Map<String, Value>, FormatError> {
    object
        .get("source")
        .and_then(Value::as_object)
        .ok_or_else(|| FormatError::new(at(path, "source"), "missing or not an object"))
}

/// An `image` block: labelled by its URL, file id or media type.
fn image_block(object: &Map<String, Value>, path: &str) -> Result<Part, FormatError> {
    let source = source_of(object, path)?;
    let label = match source.get("type").and_then(Value::as_str) {
        Some("url") => {
            super::openai::short_label(source.get("url").and_then(Value::as_str).unwrap_or("url"))
        }
        Some("file") => source
            .get("file_id")
            .and_then(Value::as_str)
            .unwrap_or("file")
            .to_owned(),
        _ => source
            .get("media_type")
            .and_then(Value::as_str)
            .unwrap_or("image")
            .to_owned(),
    };
    Ok(Part::Media(Media {
        kind: MediaKind::Image,
        label,
        tokens: IMAGE_TOKENS,
    }))
}

/// A `document` block: estimated from its inline text, data or content, labelled by its
/// title or where it comes from.
fn document_block(object: &Map<String, Value>, path: &str) -> Result<Part, FormatError> {
    let source = source_of(object, path)?;
    let data = source.get("data").and_then(Value::as_str);
    let tokens = match (source.get("type").and_then(Value::as_str), data) {
        (Some("text"), Some(text)) => (text.len() as u64 / 4).max(1),
        (_, Some(data)) => inline_data_tokens(data),
        (Some("content"), None) => crate::tokens::TokenCounter::count(
            &crate::tokens::Estimator,
            &source
                .get("content")
                .map(Value::to_string)
                .unwrap_or_default(),
        ),
        _ => DOCUMENT_REF_TOKENS,
    };
    let label = object
        .get("title")
        .or_else(|| source.get("url"))
        .or_else(|| source.get("file_id"))
        .or_else(|| source.get("media_type"))
        .and_then(Value::as_str)
        .unwrap_or("document");
    Ok(Part::Media(Media {
        kind: MediaKind::File,
        label: super::openai::short_label(label),
        tokens,
    }))
}

/// A `tool_result` block: its content read as blocks, its `is_error` a boolean or absent.
fn tool_result_block(
    block: &Value,
    object: &Map<String, Value>,
    path: &str,
) -> Result<Part, FormatError> {
    let call_id = required_str(block, path, "tool_use_id")?.to_owned();
    let inner = match object.get("content") {
        None => Vec::new(),
        some => content(some, &at(path, "content"))?,
    };
    let is_error = match object.get("is_error") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(flag)) => *flag,
        Some(other) => {
            return Err(FormatError::new(
                at(path, "is_error"),
                format!("expected a boolean, found {}", kind_of(other)),
            ));
        }
    };
    Ok(Part::ToolResult(ToolResult {
        call_id,
        tool_name: None,
        content: inner,
        is_error,
    }))
}

/// What an original block reads as, for telling whether its part changed.
fn reread(block: &Value) -> Option<Part> {
    read_block(block, "").ok()
}

/// Writes `messages`: leading system messages to the top-level `system` field, the rest
/// to `messages`.
pub(crate) fn write<'a>(conversation: &'a Conversation, messages: &[Message]) -> Piece<'a> {
    let leading = messages
        .iter()
        .take_while(|m| m.role == Role::System)
        .count();
    let (system, rest) = messages.split_at(leading);
    let rendered = Piece::Array(rest.iter().map(|m| conversation.piece(m, render)).collect());
    let system = match system {
        [] => None,
        [only] => Some(conversation.piece(only, render_system)),
        several => {
            // Several leading system messages (only a caller's own list has them) fold into
            // one list of text blocks, written fresh.
            let blocks = several
                .iter()
                .flat_map(|m| match conversation.piece(m, render_system).to_value() {
                    Value::Array(blocks) => blocks,
                    Value::String(text) => vec![json!({"type": "text", "text": text})],
                    other => vec![other],
                })
                .collect();
            Some(Piece::Fresh(Value::Array(blocks)))
        }
    };
    match (&conversation.envelope, system) {
        (Some(envelope), system) => envelope.with(Format::Anthropic, rendered, Some(system)),
        (None, Some(system)) => Piece::Object(vec![
            ("system".into(), system),
            ("messages".into(), rendered),
        ]),
        (None, None) => rendered,
    }
}

/// Renders a system message for the top-level `system` field: a string, or text blocks when
/// the original was blocks.
fn render_system(message: &Message, original: Option<&Value>) -> Value {
    match original {
        Some(Value::Array(blocks)) => {
            Value::Array(render_blocks(&message.parts, blocks, reread, render_block))
        }
        _ => json!(message.text()),
    }
}

/// Renders a message the engine wrote or changed, on top of the original with its id.
pub(crate) fn render(message: &Message, original: Option<&Value>) -> Value {
    let mut object = base_object(original);
    let role = match message.role {
        Role::Assistant => "assistant",
        // A system message past the start has no place in `messages`: it is said as the
        // user, which is also how the engine's summaries speak.
        Role::User | Role::Tool | Role::System => "user",
    };
    object.insert("role".into(), json!(role));
    let content = render_content(&message.parts, object.get("content"));
    object.insert("content".into(), content);
    Value::Object(object)
}

/// Renders the `content` of a message or a tool result: on top of the original blocks when
/// there were blocks, else a string when every part is text, else fresh blocks.
fn render_content(parts: &[Part], original: Option<&Value>) -> Value {
    let all_text = parts.iter().all(|p| matches!(p, Part::Text { .. }));
    match original.and_then(Value::as_array) {
        Some(blocks) => Value::Array(render_blocks(parts, blocks, reread, render_block)),
        None if all_text => json!(text_of(parts)),
        None => Value::Array(render_blocks(parts, &[], reread, render_block)),
    }
}

/// Renders one part as a block, on top of `base` (the original block at its place).
fn render_block(part: &Part, base: Option<&Map<String, Value>>) -> Value {
    let mut block = base.cloned().unwrap_or_default();
    let mut set = |key: &str, value: Value| {
        block.insert(key.into(), value);
    };
    match part {
        Part::Text { text } => {
            set("type", json!("text"));
            set("text", json!(text));
            // Citations point into the old text.
            block.shift_remove("citations");
        }
        Part::ToolCall(call) => {
            set("type", json!("tool_use"));
            set("id", json!(call.id));
            set("name", json!(call.name));
            set(
                "input",
                serde_json::from_str(&call.arguments).unwrap_or_else(|_| json!({})),
            );
        }
        Part::ToolResult(result) => {
            set("type", json!("tool_result"));
            set("tool_use_id", json!(result.call_id));
            let content = render_content(&result.content, base.and_then(|b| b.get("content")));
            set("content", content);
            if result.is_error {
                set("is_error", json!(true));
            } else if block.contains_key("is_error") {
                block.insert("is_error".into(), json!(false));
            }
        }
        Part::Reasoning(reasoning) if reasoning.redacted => {
            set("type", json!("redacted_thinking"));
            block.entry("data").or_insert_with(|| json!(""));
        }
        Part::Reasoning(reasoning) => {
            set("type", json!("thinking"));
            set("thinking", json!(reasoning.text));
            block.entry("signature").or_insert_with(|| json!(""));
        }
        other => {
            return json!({"type": "text", "text": placeholder(other)});
        }
    }
    Value::Object(block)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse_str;

    fn strict(text: &str) -> Result<Conversation, FormatError> {
        parse_str(text, Format::Anthropic, ParseOptions::default())
    }

    fn value(text: &str) -> Value {
        serde_json::from_str(text).expect("json")
    }

    const BODY: &str = r#"{
        "model": "claude-sonnet-4-5", "max_tokens": 1024,
        "system": [{"type":"text","text":"You are terse.","cache_control":{"type":"ephemeral"}}],
        "messages": [
            {"role":"user","content":[{"type":"text","text":"Weather in Paris and Rome?"},{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBOR"}}]},
            {"role":"assistant","content":[
                {"type":"thinking","thinking":"Two lookups.","signature":"sig=="},
                {"type":"tool_use","id":"toolu_1","name":"weather","input":{"city":"Paris"}},
                {"type":"tool_use","id":"toolu_2","name":"weather","input":{"city":"Rome"}}]},
            {"role":"user","content":[
                {"type":"tool_result","tool_use_id":"toolu_1","content":"18C","cache_control":{"type":"ephemeral"}},
                {"type":"tool_result","tool_use_id":"toolu_2","content":[{"type":"text","text":"no data"}],"is_error":true}]},
            {"role":"assistant","content":"Paris is 18C; Rome failed."}
        ]
    }"#;

    #[test]
    fn a_request_body_reads_with_its_system_prompt_first() {
        let c = strict(BODY).expect("valid");
        let m = &c.messages;
        assert_eq!(
            m.iter().map(|m| m.role).collect::<Vec<_>>(),
            [
                Role::System,
                Role::User,
                Role::Assistant,
                Role::User,
                Role::Assistant
            ]
        );
        assert!(!m[0].compactable);
        assert!(matches!(
            &m[1].parts[1],
            Part::Media(Media {
                kind: MediaKind::Image,
                tokens: IMAGE_TOKENS,
                ..
            })
        ));
        assert!(matches!(&m[2].parts[0], Part::Reasoning(r) if r.text == "Two lookups."));
        assert_eq!(m[2].tool_calls().count(), 2);
        let results: Vec<_> = m[3].tool_results().collect();
        assert_eq!(results.len(), 2);
        assert!(results[1].is_error && !results[0].is_error);
    }

    #[test]
    fn unchanged_conversations_are_written_back_equal() {
        let c = strict(BODY).expect("valid");
        assert_eq!(c.to_json(&c.messages).to_value(), value(BODY));
        let bare = r#"[{"role":"user","content":"hi","x":1}]"#;
        let c = strict(bare).expect("valid");
        assert_eq!(c.to_json(&c.messages).to_value(), value(bare));
    }

    #[test]
    fn clearing_one_result_keeps_its_siblings_and_cache_control() {
        let c = strict(BODY).expect("valid");
        let mut messages = c.messages.clone();
        if let Part::ToolResult(result) = &mut messages[3].parts[1] {
            result.content = vec![Part::text("[cleared]")];
            result.is_error = false;
        }
        let out = c.to_json(&messages).to_value();
        let original = value(BODY);
        assert_eq!(
            out["messages"][2]["content"][0],
            original["messages"][2]["content"][0]
        );
        assert_eq!(
            out["messages"][2]["content"][1],
            json!({"type":"tool_result","tool_use_id":"toolu_2","content":[{"type":"text","text":"[cleared]"}],"is_error":false})
        );
        assert_eq!(out["system"], original["system"]);
    }

    #[test]
    fn a_changed_system_prompt_goes_back_to_the_system_field() {
        let c = strict(BODY).expect("valid");
        let mut messages = c.messages.clone();
        messages[0].parts = vec![Part::text("You are brief.")];
        let out = c.to_json(&messages).to_value();
        assert_eq!(
            out["system"],
            json!([{"type":"text","text":"You are brief.","cache_control":{"type":"ephemeral"}}])
        );
        assert_eq!(out["messages"].as_array().map(Vec::len), Some(4));
        let without = c.to_json(&messages[1..]).to_value();
        assert!(without.get("system").is_none());
    }

    #[test]
    fn new_summary_messages_render_as_user_text() {
        let c = strict(BODY).expect("valid");
        let summary = Message::user("s1", "[summary] earlier: weather lookups");
        let out = c
            .to_json(&[c.messages[0].clone(), summary, c.messages[4].clone()])
            .to_value();
        assert_eq!(
            out["messages"][0],
            json!({"role":"user","content":"[summary] earlier: weather lookups"})
        );
    }

    #[test]
    fn bad_input_names_the_path() {
        let cases = [
            (
                r#"[{"role":"user","content":[{"type":"text","text":"a"},{"text":"b"}]}]"#,
                "messages[0].content[1].type",
                "missing",
            ),
            (
                r#"[{"role":"bot","content":"x"}]"#,
                "messages[0].role",
                r#"unknown role "bot""#,
            ),
            (r#"[{"role":"user"}]"#, "messages[0].content", "missing"),
            (
                r#"[{"role":"assistant","content":[{"type":"tool_use","id":"t","input":{}}]}]"#,
                "messages[0].content[0].name",
                "missing",
            ),
            (
                r#"[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","is_error":"yes"}]}]"#,
                "messages[0].content[0].is_error",
                "expected a boolean, found a string",
            ),
            (
                r#"{"system":7,"messages":[]}"#,
                "system",
                "expected a string or an array of text blocks, found a number",
            ),
            (
                r#"[{"role":"user","content":[{"type":"image"}]}]"#,
                "messages[0].content[0].source",
                "missing or not an object",
            ),
        ];
        for (text, path, message) in cases {
            let error = strict(text).expect_err(text);
            assert_eq!(
                (error.path.as_str(), error.message.as_str()),
                (path, message),
                "{text}"
            );
        }
    }

    #[test]
    fn unknown_blocks_are_kept_pinned_and_verbatim_in_every_mode() {
        // Claude Code's tool search answers with `tool_reference` blocks inside a
        // `tool_result`; a block type added later is the same case.
        let text = r#"[{"role":"user","content":"find a tool"},{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"ToolSearch","input":{"query":"read"}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":[{"type":"tool_reference","tool_name":"Read"}]},{"type":"foo","x":1}]}]"#;
        for options in [ParseOptions::default(), ParseOptions { lenient: true }] {
            let c = parse_str(text, Format::Anthropic, options).expect("kept");
            let m = &c.messages;
            assert!(m[0].compactable && m[1].compactable && !m[2].compactable);
            let Part::ToolResult(result) = &m[2].parts[0] else {
                panic!("a tool result: {:?}", m[2].parts);
            };
            assert!(matches!(&result.content[..], [Part::Opaque(o)] if o.kind == "tool_reference"));
            assert!(matches!(&m[2].parts[1], Part::Opaque(o) if o.kind == "foo"));
            assert_eq!(c.to_json(&c.messages).to_string(), text);
            assert_eq!(crate::format::check::check(Format::Anthropic, m), Ok(()));
        }
        // The pairing rules still hold around them: the result answers no call here.
        let orphan = r#"[{"role":"user","content":"go"},{"role":"assistant","content":"ok"},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t9","content":[{"type":"tool_reference","tool_name":"Read"}]}]}]"#;
        let c = strict(orphan).expect("reads");
        assert!(crate::format::check::check(Format::Anthropic, &c.messages).is_err());
    }

    #[test]
    fn a_result_in_the_models_own_message_is_carried_and_a_foreign_block_refused() {
        // A proxy answering a server-side call in place, in the assistant's message.
        let text = r#"[{"role":"user","content":"search"},{"role":"assistant","content":[{"type":"server_tool_use","id":"s1","name":"web_search","input":{}},{"type":"tool_result","tool_use_id":"s1","content":"found"},{"type":"text","text":"Found it."}]}]"#;
        let c = strict(text).expect("reads");
        assert!(matches!(&c.messages[1].parts[1], Part::Opaque(o) if o.kind == "tool_result"));
        assert!(!c.messages[1].compactable);
        assert_eq!(
            crate::format::check::check(Format::Anthropic, &c.messages),
            Ok(())
        );
        assert_eq!(c.to_json(&c.messages).to_string(), text);
        let foreign = r#"[{"role":"user","content":[{"type":"input_text","text":"x"}]}]"#;
        let error = strict(foreign).expect_err("another format's part");
        assert_eq!(
            (error.path.as_str(), error.message.as_str()),
            (
                "messages[0].content[0].type",
                r#""input_text" is a part of the openai-responses format, not anthropic"#
            )
        );
    }

    #[test]
    fn lenient_parsing_keeps_unknown_roles_pinned_and_verbatim() {
        let text = r#"[{"role":"user","content":"a"},{"role":"exit","content":"bye"}]"#;
        assert_eq!(strict(text).expect_err("strict").path, "messages[1].role");
        let c =
            parse_str(text, Format::Anthropic, ParseOptions { lenient: true }).expect("lenient");
        assert!(!c.messages[1].compactable);
        assert_eq!(c.to_json(&c.messages).to_value(), value(text));
    }
}
