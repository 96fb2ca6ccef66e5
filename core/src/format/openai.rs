//! OpenAI Chat Completions messages.
//!
//! Input: an array of messages, or a request body (an object with `messages`; its other
//! fields are kept and written back). Roles `system` and `developer` read as
//! [`Role::System`], `user`, `assistant` (with `tool_calls`, `refusal`) and `tool` (with
//! `tool_call_id`) as themselves. Content is a string, `null`, or an array of parts
//! (`text`, `refusal`, `image_url`, `input_audio`, `file`).
//!
//! Media are counted by estimate: an image 765 tokens (85 with `"detail": "low"`), the
//! figure OpenAI gives for a 1024×1024 tile set; audio one token per 40 characters of
//! base64 data (at least 50); a file one token per 3 characters of inline data, or 1,500
//! when it is referenced by id.

use serde_json::{Map, Value, json};

use super::{
    Conversation, Format, FormatError, ParseOptions, Source, at, base_object, index,
    inline_data_tokens, kind_of, object_at, pin_opaque, read_conversation, required_str,
    unknown_part, unknown_role,
};
use crate::message::{
    Media, MediaKind, Message, MessageId, Part, Role, ToolCall, ToolResult, text_of,
};

/// Estimated tokens of an image at `auto` or `high` detail.
pub const IMAGE_TOKENS: u64 = 765;
/// Estimated tokens of an image at `low` detail.
pub const IMAGE_LOW_TOKENS: u64 = 85;
/// Estimated tokens of a file referenced by id.
pub const FILE_REF_TOKENS: u64 = 1_500;

/// Parses an array of messages or a request body.
pub fn parse(json: &Value, options: ParseOptions) -> Result<Conversation, FormatError> {
    read(Source::of(json), options)
}

pub(crate) fn read(source: Source<'_>, options: ParseOptions) -> Result<Conversation, FormatError> {
    read_conversation(
        source,
        Format::OpenAi,
        |_| Ok(Vec::new()),
        |item, path| parse_message(item, path, options),
    )
}

pub(crate) fn parse_message(
    item: &Value,
    path: &str,
    options: ParseOptions,
) -> Result<Message, FormatError> {
    let object = object_at(item, path, "message")?;
    let role = match required_str(item, path, "role")? {
        "system" | "developer" => Role::System,
        "user" => Role::User,
        "assistant" => Role::Assistant,
        "tool" => Role::Tool,
        unknown => return unknown_role(unknown, item, path, options),
    };
    let content_path = at(path, "content");
    let mut parts = content_parts(object.get("content"), &content_path)?;
    if let Some(refusal) = object.get("refusal").and_then(Value::as_str) {
        parts.push(Part::text(refusal));
    }
    if role == Role::Assistant {
        parts.extend(tool_calls(
            object.get("tool_calls"),
            &at(path, "tool_calls"),
        )?);
    }
    if role == Role::Tool {
        let call_id = match object.get("tool_call_id") {
            Some(Value::String(id)) => id.clone(),
            Some(other) => {
                return Err(FormatError::new(
                    at(path, "tool_call_id"),
                    format!("expected a string, found {}", kind_of(other)),
                ));
            }
            None => {
                return Err(FormatError::new(
                    at(path, "tool_call_id"),
                    "missing on a tool message",
                ));
            }
        };
        parts = vec![Part::ToolResult(ToolResult {
            call_id,
            tool_name: None,
            content: parts,
            is_error: false,
        })];
    }
    let mut message = Message::new(MessageId::new(""), role, parts);
    message.name = object
        .get("name")
        .and_then(Value::as_str)
        .map(str::to_owned);
    Ok(pin_opaque(message))
}

fn content_parts(content: Option<&Value>, path: &str) -> Result<Vec<Part>, FormatError> {
    match content {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::String(text)) => Ok(vec![Part::text(text.clone())]),
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(i, item)| content_part(item, &index(path, i)))
            .collect(),
        Some(other) => Err(FormatError::new(
            path,
            format!(
                "expected a string, null or an array of parts, found {}",
                kind_of(other)
            ),
        )),
    }
}

fn content_part(item: &Value, path: &str) -> Result<Part, FormatError> {
    let object = object_at(item, path, "content part")?;
    let kind = object
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let field = |name: &str| {
        object
            .get(name)
            .ok_or_else(|| FormatError::new(at(path, name), format!("missing on a {kind:?} part")))
    };
    let text_of = |name: &str| -> Result<String, FormatError> {
        field(name)?
            .as_str()
            .map(str::to_owned)
            .ok_or_else(|| FormatError::new(at(path, name), "expected a string"))
    };
    Ok(match kind {
        "text" => Part::text(text_of("text")?),
        "refusal" => Part::text(text_of("refusal")?),
        "image_url" => {
            let image = field("image_url")?;
            let url = image.get("url").and_then(Value::as_str).unwrap_or_default();
            let low = image.get("detail").and_then(Value::as_str) == Some("low");
            Part::Media(Media {
                kind: MediaKind::Image,
                label: short_label(url),
                tokens: if low { IMAGE_LOW_TOKENS } else { IMAGE_TOKENS },
            })
        }
        "input_audio" => {
            let audio = field("input_audio")?;
            let data = audio
                .get("data")
                .and_then(Value::as_str)
                .unwrap_or_default();
            let format = audio
                .get("format")
                .and_then(Value::as_str)
                .unwrap_or("audio");
            Part::Media(Media {
                kind: MediaKind::Audio,
                label: format.to_owned(),
                tokens: (data.len() as u64 / 40).max(50),
            })
        }
        "file" => {
            let file = field("file")?;
            let data = file.get("file_data").and_then(Value::as_str);
            let name = file
                .get("filename")
                .or_else(|| file.get("file_id"))
                .and_then(Value::as_str)
                .unwrap_or("file");
            Part::Media(Media {
                kind: MediaKind::File,
                label: name.to_owned(),
                tokens: data.map_or(FILE_REF_TOKENS, inline_data_tokens),
            })
        }
        "" => return Err(FormatError::new(at(path, "type"), "missing")),
        // A type not known yet: kept whole.
        unknown => unknown_part(unknown, item, path, Format::OpenAi)?,
    })
}

pub(crate) fn short_label(url: &str) -> String {
    if let Some(rest) = url.strip_prefix("data:") {
        return rest.split([';', ',']).next().unwrap_or("data").to_owned();
    }
    if url.chars().count() > 60 {
        let head: String = url.chars().take(57).collect();
        format!("{head}...")
    } else {
        url.to_owned()
    }
}

fn tool_calls(calls: Option<&Value>, path: &str) -> Result<Vec<Part>, FormatError> {
    let items = match calls {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::Array(items)) => items,
        Some(other) => {
            return Err(FormatError::new(
                path,
                format!("expected an array, found {}", kind_of(other)),
            ));
        }
    };
    items
        .iter()
        .enumerate()
        .map(|(i, call)| {
            let call_path = index(path, i);
            let id = call
                .get("id")
                .and_then(Value::as_str)
                .ok_or_else(|| FormatError::new(at(&call_path, "id"), "missing or not a string"))?;
            let function = call
                .get("function")
                .ok_or_else(|| FormatError::new(at(&call_path, "function"), "missing"))?;
            let name = function
                .get("name")
                .and_then(Value::as_str)
                .ok_or_else(|| {
                    FormatError::new(
                        at(&at(&call_path, "function"), "name"),
                        "missing or not a string",
                    )
                })?;
            let arguments = match function.get("arguments") {
                Some(Value::String(text)) => text.clone(),
                None | Some(Value::Null) => String::new(),
                Some(other) => other.to_string(),
            };
            Ok(Part::ToolCall(ToolCall {
                id: id.to_owned(),
                name: name.to_owned(),
                arguments,
            }))
        })
        .collect()
}

/// Renders a message the engine wrote or changed. When the message replaces an original
/// (same id), the original's other fields are kept and only the content is rewritten.
pub(crate) fn render(message: &Message, original: Option<&Value>) -> Value {
    let mut object = base_object(original);
    // A `refusal` was read into the parts, whatever the role: the rewritten content holds
    // what is left of it, and keeping the key would read it twice.
    object.shift_remove("refusal");
    let text = message
        .parts
        .iter()
        .filter_map(|part| match part {
            Part::Text { text } => Some(text.as_str()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n");
    match message.role {
        Role::Tool => {
            if let Some(result) = message.tool_results().next() {
                object.insert("role".into(), json!("tool"));
                object.insert("tool_call_id".into(), json!(result.call_id));
                object.insert("content".into(), json!(text_of(&result.content)));
            }
        }
        Role::Assistant => {
            object.insert("role".into(), json!("assistant"));
            object.insert(
                "content".into(),
                if text.is_empty() {
                    Value::Null
                } else {
                    json!(text)
                },
            );
            let calls: Vec<Value> = message
                .tool_calls()
                .map(|call| {
                    json!({
                        "id": call.id,
                        "type": "function",
                        "function": { "name": call.name, "arguments": call.arguments },
                    })
                })
                .collect();
            if calls.is_empty() {
                object.shift_remove("tool_calls");
            } else {
                object.insert("tool_calls".into(), Value::Array(calls));
            }
        }
        role => {
            if !object.contains_key("role") || role != Role::System {
                object.insert("role".into(), json!(role.as_str()));
            }
            // Parts the run did not change (an image beside clipped text) stay as they were.
            let content = match object.get("content").and_then(Value::as_array) {
                Some(originals) => Value::Array(super::render_blocks(
                    &message.parts,
                    originals,
                    |part| content_part(part, "").ok(),
                    render_part,
                )),
                None => json!(text),
            };
            object.insert("content".into(), content);
        }
    }
    Value::Object(object)
}

/// Renders one content part, on top of the original part at its place.
fn render_part(part: &Part, base: Option<&Map<String, Value>>) -> Value {
    match part {
        Part::Text { text } => {
            let mut object = base.cloned().unwrap_or_default();
            object.insert("type".into(), json!("text"));
            object.insert("text".into(), json!(text));
            object.shift_remove("refusal");
            Value::Object(object)
        }
        other => json!({"type": "text", "text": super::placeholder(other)}),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse_str;

    fn strict(text: &str) -> Result<Conversation, FormatError> {
        parse_str(text, Format::OpenAi, ParseOptions::default())
    }

    #[test]
    fn roles_content_and_tool_calls_are_read() {
        let conversation = strict(
            r#"[
            {"role":"developer","content":"rules"},
            {"role":"user","content":[{"type":"text","text":"look"},{"type":"image_url","image_url":{"url":"data:image/png;base64,AAAA","detail":"low"}}]},
            {"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"bash","arguments":"{\"cmd\":\"ls\"}"}}]},
            {"role":"tool","tool_call_id":"c1","content":"a.txt"}
        ]"#,
        )
        .expect("valid");
        let m = &conversation.messages;
        assert_eq!(
            m.iter().map(|m| m.role).collect::<Vec<_>>(),
            [Role::System, Role::User, Role::Assistant, Role::Tool]
        );
        assert!(!m[0].compactable);
        assert!(
            matches!(&m[1].parts[1], Part::Media(Media { kind: MediaKind::Image, tokens: IMAGE_LOW_TOKENS, label }) if label == "image/png")
        );
        assert_eq!(
            m[2].tool_calls().next().map(|c| c.name.as_str()),
            Some("bash")
        );
        assert_eq!(
            m[3].tool_results().next().map(|r| r.call_id.as_str()),
            Some("c1")
        );
    }

    #[test]
    fn unchanged_messages_are_written_back_verbatim() {
        let text = r#"[{"role":"user","content":"hi","extra":{"k":[1,2],"t":1776068401.3278353}},{"role":"assistant","content":"yo","provider_specific_fields":null}]"#;
        let conversation = strict(text).expect("valid");
        let out = conversation.to_json(&conversation.messages);
        assert_eq!(
            out.to_value(),
            serde_json::from_str::<Value>(text).expect("json")
        );
        // Byte for byte, keys in their original order: prompt caches key on the bytes.
        assert_eq!(out.to_string(), text);
    }

    #[test]
    fn rewritten_messages_keep_their_other_fields() {
        let text = r#"[{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"bash","arguments":"{}"}}]},{"role":"tool","tool_call_id":"c1","content":"long output","cache":1}]"#;
        let conversation = strict(text).expect("valid");
        let mut messages = conversation.messages.clone();
        if let Part::ToolResult(result) = &mut messages[1].parts[0] {
            result.content = vec![Part::text("[cleared]")];
        }
        let out = conversation.to_json(&messages).to_value();
        assert_eq!(
            out[1],
            json!({"role":"tool","tool_call_id":"c1","content":"[cleared]","cache":1})
        );
    }

    #[test]
    fn a_refusal_is_read_once_after_a_rewrite_whatever_the_role() {
        // Found by the fuzzer: a tool message carrying `refusal` instead of `content`.
        let text = r#"[{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"open","arguments":"{}"}}]},{"role":"tool","tool_call_id":"c1","refusal":"file text"}]"#;
        let conversation = strict(text).expect("valid");
        let mut messages = conversation.messages.clone();
        if let Part::ToolResult(result) = &mut messages[1].parts[0] {
            assert_eq!(result.content, [Part::text("file text")]);
            result.content = vec![Part::text("[cleared]")];
        }
        let out = conversation.to_json(&messages).to_value();
        assert_eq!(
            out[1],
            json!({"role":"tool","tool_call_id":"c1","content":"[cleared]"})
        );
        let again = strict(&out.to_string()).expect("parses");
        assert_eq!(again.messages[1].parts, messages[1].parts);
    }

    #[test]
    fn clipping_text_keeps_the_image_beside_it() {
        let text = r#"[{"role":"user","content":[{"type":"text","text":"long text"},{"type":"image_url","image_url":{"url":"https://x/y.png"}}]}]"#;
        let conversation = strict(text).expect("valid");
        let mut messages = conversation.messages.clone();
        messages[0].parts[0] = Part::text("long…");
        let out = conversation.to_json(&messages).to_value();
        assert_eq!(
            out[0]["content"],
            json!([{"type":"text","text":"long…"},{"type":"image_url","image_url":{"url":"https://x/y.png"}}])
        );
    }

    #[test]
    fn ids_are_content_derived_and_repeats_are_numbered() {
        let a = strict(r#"[{"role":"user","content":"ok"},{"role":"assistant","content":"x"},{"role":"user","content":"ok"}]"#).expect("valid");
        let b = strict(r#"[{"role":"user","content":"ok"}]"#).expect("valid");
        assert_eq!(a.messages[0].id, b.messages[0].id);
        assert_eq!(a.messages[2].id.as_str(), format!("{}~2", a.messages[0].id));
    }

    #[test]
    fn bad_input_names_the_path() {
        let cases = [
            ("{", "$"),
            (r#"[{"role":"bot","content":"x"}]"#, "messages[0].role"),
            (r#"[{"content":"x"}]"#, "messages[0].role"),
            (
                r#"[{"role":"user","content":[{"text":"x"}]}]"#,
                "messages[0].content[0].type",
            ),
            (r#"[{"role":"user","content":7}]"#, "messages[0].content"),
            (
                r#"[{"role":"tool","content":"x"}]"#,
                "messages[0].tool_call_id",
            ),
            (
                r#"[{"role":"assistant","tool_calls":[{"function":{"name":"f"}}]}]"#,
                "messages[0].tool_calls[0].id",
            ),
            (r#"{"messages":3}"#, "messages"),
            ("42", "$"),
        ];
        for (text, path) in cases {
            let error = strict(text).expect_err(text);
            assert_eq!(error.path, path, "{text}: {error}");
        }
        let error = strict(r#"[{"role":"user","content":"x"},{"role":"bot","content":"x"}]"#)
            .expect_err("bad role");
        assert_eq!(error.to_string(), r#"messages[1].role: unknown role "bot""#);
        assert_eq!(error.message_index(), Some(1));
    }

    #[test]
    fn lenient_parsing_keeps_unknown_roles_pinned_and_verbatim() {
        let text =
            r#"[{"role":"user","content":"go"},{"role":"exit","content":"diff --git a/x b/x"}]"#;
        let conversation =
            parse_str(text, Format::OpenAi, ParseOptions { lenient: true }).expect("lenient");
        let exit = &conversation.messages[1];
        assert!(!exit.compactable);
        assert!(matches!(&exit.parts[0], Part::Opaque(o) if o.kind == "role:exit" && o.tokens > 0));
        assert_eq!(
            conversation.to_json(&conversation.messages).to_value(),
            serde_json::from_str::<Value>(text).expect("json")
        );
    }

    #[test]
    fn request_bodies_keep_their_envelope() {
        let text = r#"{"model":"gpt-4o","messages":[{"role":"user","content":"hi"}],"tools":[]}"#;
        let conversation = strict(text).expect("valid");
        assert_eq!(
            conversation.to_json(&conversation.messages).to_value(),
            serde_json::from_str::<Value>(text).expect("json")
        );
    }
}
