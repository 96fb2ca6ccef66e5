//! Which format a list of messages is in: the first decisive sign, in message order.

use serde_json::Value;

use super::Format;

impl Format {
    /// Names the format of `json` from its first decisive sign (see the module docs), or
    /// `None` when it is not a list of messages at all.
    pub fn detect(json: &Value) -> Option<Format> {
        let items = match json {
            Value::Array(items) => items,
            Value::Object(body) => {
                if body.contains_key("system") {
                    return Some(Format::Anthropic);
                }
                if body.contains_key("contents") || body.contains_key("systemInstruction") {
                    return Some(Format::Gemini);
                }
                if body.contains_key("input") || body.contains_key("instructions") {
                    return Some(Format::OpenAiResponses);
                }
                body.get("messages")?.as_array()?
            }
            _ => return None,
        };
        Some(
            items
                .iter()
                .find_map(detect_message)
                .unwrap_or(Format::OpenAi),
        )
    }
}

fn detect_message(message: &Value) -> Option<Format> {
    let object = message.as_object()?;
    if object.contains_key("parts") || object.get("role").and_then(Value::as_str) == Some("model") {
        return Some(Format::Gemini);
    }
    if object
        .get("type")
        .and_then(Value::as_str)
        .is_some_and(super::responses::is_item_type)
    {
        return Some(Format::OpenAiResponses);
    }
    if object.contains_key("tool_calls")
        || object.contains_key("tool_call_id")
        || object.get("role").and_then(Value::as_str) == Some("developer")
    {
        return Some(Format::OpenAi);
    }
    if object.contains_key("providerOptions") {
        return Some(Format::AiSdk);
    }
    object
        .get("content")?
        .as_array()?
        .iter()
        .find_map(detect_part)
}

fn detect_part(part: &Value) -> Option<Format> {
    let object = part.as_object()?;
    if object.contains_key("providerOptions") {
        return Some(Format::AiSdk);
    }
    if object.contains_key("cache_control") {
        return Some(Format::Anthropic);
    }
    match object.get("type")?.as_str()? {
        "image" if object.contains_key("source") => Some(Format::Anthropic),
        "image" if object.contains_key("image") => Some(Format::AiSdk),
        kind => part_format(kind),
    }
}

/// The one format a content part type belongs to, when only one has it.
pub(crate) fn part_format(kind: &str) -> Option<Format> {
    match kind {
        "image_url" | "input_audio" | "refusal" => Some(Format::OpenAi),
        "input_text" | "output_text" | "input_image" | "input_file" => {
            Some(Format::OpenAiResponses)
        }
        "tool_use" | "tool_result" | "thinking" | "redacted_thinking" | "document" => {
            Some(Format::Anthropic)
        }
        "tool-call" | "tool-result" | "reasoning" | "file" => Some(Format::AiSdk),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn detection_follows_the_first_decisive_sign() {
        let cases = [
            (
                json!({"system": "x", "messages": []}),
                Some(Format::Anthropic),
            ),
            (
                json!([{"role":"user","content":"hi"}]),
                Some(Format::OpenAi),
            ),
            (
                json!([{"role":"user","content":"hi"},{"role":"assistant","content":null,"tool_calls":[]}]),
                Some(Format::OpenAi),
            ),
            (
                json!([{"role":"developer","content":"x"}]),
                Some(Format::OpenAi),
            ),
            (
                json!([{"role":"user","content":[{"type":"image_url","image_url":{"url":"u"}}]}]),
                Some(Format::OpenAi),
            ),
            (
                json!([{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"f","input":{}}]}]),
                Some(Format::Anthropic),
            ),
            (
                json!([{"role":"user","content":[{"type":"text","text":"x","cache_control":{"type":"ephemeral"}}]}]),
                Some(Format::Anthropic),
            ),
            (
                json!([{"role":"user","content":[{"type":"image","source":{}}]}]),
                Some(Format::Anthropic),
            ),
            (
                json!([{"role":"tool","content":[{"type":"tool-result"}]}]),
                Some(Format::AiSdk),
            ),
            (
                json!([{"role":"user","content":[{"type":"image","image":"u"}]}]),
                Some(Format::AiSdk),
            ),
            (
                json!({"messages":[{"role":"user","content":"x","providerOptions":{}}]}),
                Some(Format::AiSdk),
            ),
            (
                json!([{"type":"message","role":"user","content":"hi"}]),
                Some(Format::OpenAiResponses),
            ),
            (
                json!([{"role":"user","content":[{"type":"input_text","text":"x"}]}]),
                Some(Format::OpenAiResponses),
            ),
            (
                json!({"model":"o3","input":[{"role":"user","content":"x"}]}),
                Some(Format::OpenAiResponses),
            ),
            (
                json!([{"role":"user","parts":[{"text":"x"}]}]),
                Some(Format::Gemini),
            ),
            (
                json!({"contents":[],"systemInstruction":{"parts":[]}}),
                Some(Format::Gemini),
            ),
            (json!(42), None),
            (json!({"model": "x"}), None),
        ];
        for (json, expected) in cases {
            assert_eq!(Format::detect(&json), expected, "{json}");
        }
    }
}
