use serde_json::{Value, json};

use super::check_written;
use crate::format::check::{Rule, check};
use crate::format::{Format, FormatError, ParseOptions, parse_str};
use crate::message::{Part, Role};

fn strict(text: &str) -> Result<crate::format::Conversation, FormatError> {
    parse_str(text, Format::Gemini, ParseOptions::default())
}

/// A request: a system instruction, a user turn, a model turn with a thought and two
/// id-less calls (the first signed), their responses, and the answer.
const BODY: &str = r#"{
  "systemInstruction": {"parts": [{"text": "Be brief."}]},
  "contents": [
    {"role": "user", "parts": [{"text": "weather in Paris and Rome?"}, {"inlineData": {"mimeType": "image/png", "data": "iVBORw0KGgo="}}]},
    {"role": "model", "parts": [{"text": "Two lookups.", "thought": true}, {"functionCall": {"name": "weather", "args": {"city": "Paris", "t": 1.10}}, "thoughtSignature": "c2lnMQ=="}, {"functionCall": {"name": "weather", "args": {"city": "Rome"}}}]},
    {"role": "user", "parts": [{"functionResponse": {"name": "weather", "response": {"output": "18C and sunny, light wind from the west"}}}, {"functionResponse": {"name": "weather", "response": {"output": "24C"}}}]},
    {"role": "model", "parts": [{"text": "Paris 18C, Rome 24C.", "thoughtSignature": "c2lnMg=="}]}
  ],
  "generationConfig": {"temperature": 0.70}
}"#;

#[test]
fn contents_are_read_and_idless_calls_pair_by_order_and_name() {
    let conversation = strict(BODY).expect("valid");
    let m = &conversation.messages;
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
    assert!(matches!(&m[1].parts[1], Part::Media(media) if media.tokens == super::IMAGE_TOKENS));
    assert!(matches!(&m[2].parts[0], Part::Reasoning(r) if r.text == "Two lookups."));
    let calls: Vec<&str> = m[2].tool_calls().map(|c| c.id.as_str()).collect();
    let results: Vec<&str> = m[3].tool_results().map(|r| r.call_id.as_str()).collect();
    assert_eq!(calls, ["weather#0", "weather#1"]);
    assert_eq!(results, calls);
    assert_eq!(check(Format::Gemini, m), Ok(()));
    assert_eq!(
        conversation.to_json(&conversation.messages).to_string(),
        BODY
    );
    let value: Value = serde_json::from_str(BODY).expect("json");
    assert_eq!(Format::detect(&value), Some(Format::Gemini));
}

#[test]
fn a_masked_response_keeps_its_part_and_signatures_stay() {
    let conversation = strict(BODY).expect("valid");
    let mut messages = conversation.messages.clone();
    if let Part::ToolResult(result) = &mut messages[3].parts[0] {
        result.content = vec![Part::text("[cleared]")];
    }
    messages[4].parts[0] = Part::text("Paris 18C…");
    let written = conversation.to_json(&messages);
    let text = written.to_string();
    assert!(!text.contains(r#""id""#), "no made-up ids written: {text}");
    let value = written.to_value();
    assert_eq!(
        value["contents"][2]["parts"][0],
        json!({"functionResponse": {"name": "weather", "response": {"output": "[cleared]"}}})
    );
    assert!(text.contains(r#""output": "24C""#), "{text}");
    assert_eq!(
        value["contents"][3]["parts"][0],
        json!({"text": "Paris 18C…", "thoughtSignature": "c2lnMg=="})
    );
    let input: Value = serde_json::from_str(BODY).expect("json");
    assert_eq!(check_written(&input, &value), Ok(()));
    // Read back, the masked conversation is the one written.
    let again = strict(&text).expect("reads");
    assert_eq!(again.messages[3].parts, messages[3].parts);
}

#[test]
fn a_moved_signature_is_caught() {
    let input: Value = serde_json::from_str(BODY).expect("json");
    let mut moved = input.clone();
    let signature = moved["contents"][1]["parts"][1]
        .as_object_mut()
        .and_then(|part| part.remove("thoughtSignature"))
        .expect("signed");
    moved["contents"][1]["parts"][2]["thoughtSignature"] = signature;
    let violations = check_written(&input, &moved).expect_err("moved");
    assert_eq!(violations[0].rule, Rule::ThoughtSignatureMoved);
    assert_eq!(violations[0].index, 1);
    let mut copied = input.clone();
    copied["contents"][3]["parts"][0]["thoughtSignature"] = json!("c2lnMQ==");
    assert!(check_written(&input, &copied).is_err());
}

#[test]
fn the_checker_wants_responses_in_the_next_user_turn() {
    let call = r#"{"role":"model","parts":[{"functionCall":{"id":"a","name":"f","args":{}}}]}"#;
    let response =
        r#"{"role":"user","parts":[{"functionResponse":{"id":"a","name":"f","response":{}}}]}"#;
    let user = r#"{"role":"user","parts":[{"text":"go"}]}"#;
    let model = r#"{"role":"model","parts":[{"text":"ok"}]}"#;
    let cases: [(String, Vec<(usize, Rule)>); 5] = [
        (format!("[{user},{call},{response},{model}]"), vec![]),
        (format!("[{user},{call}]"), vec![]),
        (
            format!("[{user},{call},{user},{response},{model}]"),
            vec![(1, Rule::UnansweredToolCall), (3, Rule::OrphanToolResult)],
        ),
        (
            format!("[{user},{model},{response}]"),
            vec![(2, Rule::OrphanToolResult)],
        ),
        (
            format!("[{user},{}]", call.replace("model", "user")),
            vec![(1, Rule::MisplacedToolCall)],
        ),
    ];
    for (text, expected) in cases {
        // Lenient: strict reading refuses orphan responses before any checker sees them.
        let conversation =
            parse_str(&text, Format::Gemini, ParseOptions { lenient: true }).expect("parses");
        let found: Vec<(usize, Rule)> = check(Format::Gemini, &conversation.messages)
            .err()
            .unwrap_or_default()
            .into_iter()
            .map(|v| (v.index, v.rule))
            .collect();
        assert_eq!(found, expected, "{text}");
    }
}

#[test]
fn bad_input_names_the_path() {
    let cases = [
        (r#"[{"role":"model"}]"#, "contents[0].parts"),
        (r#"[{"role":"bot","parts":[]}]"#, "contents[0].role"),
        (
            r#"[{"role":"user","parts":[{"foo":1}]}]"#,
            "contents[0].parts[0]",
        ),
        (
            r#"[{"role":"model","parts":[{"functionCall":{"args":{}}}]}]"#,
            "contents[0].parts[0].functionCall.name",
        ),
        (
            r#"[{"role":"user","parts":[{"text":7}]}]"#,
            "contents[0].parts[0].text",
        ),
        (r#"{"contents":{}}"#, "contents"),
        (
            r#"{"systemInstruction":7,"contents":[]}"#,
            "systemInstruction",
        ),
    ];
    for (text, path) in cases {
        let error = strict(text).expect_err(text);
        assert_eq!(error.path, path, "{text}: {error}");
    }
}

#[test]
fn snake_case_parts_and_carried_parts_read() {
    let text = r#"[{"role":"user","parts":[{"text":"run"}]},{"role":"model","parts":[{"function_call":{"name":"f","args":{}}},{"executableCode":{"code":"1+1"}}]},{"role":"user","parts":[{"function_response":{"name":"f","response":{"result":"2"}}}]}]"#;
    let conversation = strict(text).expect("valid");
    assert!(!conversation.messages[1].compactable);
    assert_eq!(check(Format::Gemini, &conversation.messages), Ok(()));
    assert_eq!(
        conversation.to_json(&conversation.messages).to_string(),
        text
    );
}
