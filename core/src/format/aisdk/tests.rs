use super::*;
use crate::format::parse_str;

fn strict(text: &str) -> Result<Conversation, FormatError> {
    parse_str(text, Format::AiSdk, ParseOptions::default())
}

fn value(text: &str) -> Value {
    serde_json::from_str(text).expect("json")
}

const MESSAGES: &str = r#"[
    {"role":"system","content":"You are a helpful assistant."},
    {"role":"user","content":[{"type":"text","text":"What is in this image?"},{"type":"image","image":"https://example.com/cat.png","mediaType":"image/png"}],"providerOptions":{"anthropic":{"cacheControl":{"type":"ephemeral"}}}},
    {"role":"assistant","content":[
        {"type":"reasoning","text":"Need the weather too."},
        {"type":"tool-call","toolCallId":"call-1","toolName":"weather","input":{"city":"Paris"},"providerOptions":{"openai":{"x":1}}},
        {"type":"tool-call","toolCallId":"call-2","toolName":"weather","input":{"city":"Rome"}}]},
    {"role":"tool","content":[
        {"type":"tool-result","toolCallId":"call-1","toolName":"weather","output":{"type":"json","value":{"temp":18}}},
        {"type":"tool-result","toolCallId":"call-2","toolName":"weather","output":{"type":"error-text","value":"timeout"}}]},
    {"role":"assistant","content":"A cat; Paris is 18C."}
]"#;

#[test]
fn messages_read_with_parts_and_results() {
    let c = strict(MESSAGES).expect("valid");
    let m = &c.messages;
    assert_eq!(
        m.iter().map(|m| m.role).collect::<Vec<_>>(),
        [
            Role::System,
            Role::User,
            Role::Assistant,
            Role::Tool,
            Role::Assistant
        ]
    );
    assert!(
        matches!(&m[1].parts[1], Part::Media(Media { kind: MediaKind::Image, label, .. }) if label == "image/png")
    );
    assert_eq!(
        m[2].tool_calls()
            .map(|c| c.arguments.as_str())
            .collect::<Vec<_>>(),
        [r#"{"city":"Paris"}"#, r#"{"city":"Rome"}"#]
    );
    let results: Vec<_> = m[3].tool_results().collect();
    assert_eq!(results[0].content, vec![Part::text(r#"{"temp":18}"#)]);
    assert_eq!(results[0].tool_name.as_deref(), Some("weather"));
    assert!(results[1].is_error);
    assert_eq!(c.to_json(&c.messages).to_value(), value(MESSAGES));
}

#[test]
fn clearing_a_result_keeps_the_other_and_provider_options() {
    let c = strict(MESSAGES).expect("valid");
    let mut messages = c.messages.clone();
    if let Part::ToolResult(result) = &mut messages[3].parts[0] {
        result.content = vec![Part::text("[cleared]")];
    }
    messages[2].parts.remove(0);
    let out = c.to_json(&messages).to_value();
    let original = value(MESSAGES);
    assert_eq!(out[3]["content"][1], original[3]["content"][1]);
    assert_eq!(
        out[3]["content"][0],
        json!({"type":"tool-result","toolCallId":"call-1","toolName":"weather","output":{"type":"text","value":"[cleared]"}})
    );
    assert_eq!(out[2]["content"][0], original[2]["content"][1]);
    assert_eq!(out[1], original[1]);
}

/// AI SDK 4 `CoreMessage`s: `args`, `result` with `isError` and `experimental_content`,
/// `mimeType`, `redacted-reasoning`.
const V4: &str = r#"[
    {"role":"user","content":[{"type":"text","text":"Describe it"},{"type":"file","data":"https://example.com/a.pdf","mimeType":"application/pdf"},{"type":"image","image":"https://example.com/cat.png","mimeType":"image/png"}]},
    {"role":"assistant","content":[{"type":"redacted-reasoning","data":"c2VjcmV0"},{"type":"tool-call","toolCallId":"call-1","toolName":"weather","args":{"city":"Paris"}},{"type":"tool-call","toolCallId":"call-2","toolName":"search","args":{"q":"cats"}}]},
    {"role":"tool","content":[
        {"type":"tool-result","toolCallId":"call-1","toolName":"weather","result":{"temp":18},"experimental_content":[{"type":"text","text":"18C and sunny"},{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"}]},
        {"type":"tool-result","toolCallId":"call-2","toolName":"search","result":"rate limited","isError":true}]},
    {"role":"assistant","content":"Paris is 18C."}
]"#;

#[test]
fn ai_sdk_4_messages_read_and_keep_their_shape_when_rewritten() {
    let c = strict(V4).expect("valid");
    let m = &c.messages;
    assert!(
        matches!(&m[0].parts[1], Part::Media(Media { kind: MediaKind::File, label, .. }) if label == "application/pdf")
    );
    assert!(
        matches!(&m[0].parts[2], Part::Media(Media { kind: MediaKind::Image, label, .. }) if label == "image/png")
    );
    assert_eq!(
        m[1].tool_calls()
            .map(|c| c.arguments.as_str())
            .collect::<Vec<_>>(),
        [r#"{"city":"Paris"}"#, r#"{"q":"cats"}"#]
    );
    assert_eq!(
        m[1].parts[0],
        Part::Reasoning(Reasoning {
            text: String::new(),
            redacted: true
        })
    );
    let results: Vec<_> = m[2].tool_results().collect();
    // The rich content is what providers that take it are sent.
    assert_eq!(results[0].content[0], Part::text("18C and sunny"));
    assert!(
        matches!(&results[0].content[1], Part::Media(Media { kind: MediaKind::Image, label, tokens: IMAGE_TOKENS }) if label == "image/png")
    );
    assert!(!results[0].is_error);
    assert_eq!(results[1].content, vec![Part::text("rate limited")]);
    assert!(results[1].is_error);
    assert_eq!(c.to_json(&c.messages).to_value(), value(V4));

    let mut messages = c.messages.clone();
    for part in &mut messages[2].parts {
        if let Part::ToolResult(result) = part {
            result.content = vec![Part::text("[cleared]")];
        }
    }
    if let Part::ToolCall(call) = &mut messages[1].parts[1] {
        call.arguments = r#"{"city":"Rome"}"#.into();
    }
    let out = c.to_json(&messages).to_value();
    assert_eq!(
        out[2]["content"],
        json!([
            {"type":"tool-result","toolCallId":"call-1","toolName":"weather","result":"[cleared]"},
            {"type":"tool-result","toolCallId":"call-2","toolName":"search","result":"[cleared]","isError":true}
        ])
    );
    assert_eq!(
        out[1]["content"][1],
        json!({"type":"tool-call","toolCallId":"call-1","toolName":"weather","args":{"city":"Rome"}})
    );
    assert_eq!(out[1]["content"][0], value(V4)[1]["content"][0]);
    let reread = parse(&out, ParseOptions::default()).expect("the rewrite reads back");
    assert_eq!(reread.messages[2].parts, messages[2].parts);
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
            r#"[{"role":"user","content":[{"type":"tool-call","toolCallId":"c","toolName":"f","input":{}}]}]"#,
            "messages[0].content[0].type",
            r#"part type "tool-call" is not allowed in a user message"#,
        ),
        (
            r#"[{"role":"system","content":[]}]"#,
            "messages[0].content",
            "expected a string, found an array",
        ),
        (
            r#"[{"role":"tool","content":"x"}]"#,
            "messages[0].content",
            "expected an array of parts, found a string",
        ),
        (
            r#"[{"role":"tool","content":[{"type":"tool-result","toolCallId":"c","toolName":"f"}]}]"#,
            "messages[0].content[0].output",
            "missing",
        ),
        (
            r#"[{"role":"tool","content":[{"type":"tool-result","toolCallId":"c","toolName":"f","output":{"type":"blob"}}]}]"#,
            "messages[0].content[0].output.type",
            r#"unknown output type "blob""#,
        ),
        (
            r#"[{"role":"assistant","content":[{"type":"tool-call","toolName":"f","input":{}}]}]"#,
            "messages[0].content[0].toolCallId",
            "missing",
        ),
        (
            r#"[{"role":"exit","content":"x"}]"#,
            "messages[0].role",
            r#"unknown role "exit""#,
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
fn unknown_parts_are_kept_pinned_and_verbatim_and_lenient_keeps_unknown_roles() {
    let unknown = r#"[{"role":"user","content":"go"},{"role":"assistant","content":[{"type":"tool-approval-request","id":"a"}]}]"#;
    let c = strict(unknown).expect("an unknown part is kept");
    assert!(c.messages[0].compactable && !c.messages[1].compactable);
    assert_eq!(c.to_json(&c.messages).to_string(), unknown);
    let text = r#"[{"role":"assistant","content":[{"type":"tool-approval-request","id":"a"}]},{"role":"exit","content":"x"}]"#;
    let c = parse_str(text, Format::AiSdk, ParseOptions { lenient: true }).expect("lenient");
    assert!(c.messages.iter().all(|m| !m.compactable));
    assert_eq!(c.to_json(&c.messages).to_value(), value(text));
}
