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

/// gemini-cli's shape: a signed thought and two id-less calls, answered by responses with
/// ids of gemini-cli's own making, in the order of the calls for one name and not for the
/// other; then text beside a response in the next user turn.
const GEMINI_CLI: &str = r#"[
  {"role": "user", "parts": [{"text": "This is the Gemini CLI. We are setting up the context for our chat."}]},
  {"role": "model", "parts": [{"text": "Got it. Thanks for the context!"}]},
  {"role": "user", "parts": [{"text": "Read both files."}]},
  {"role": "model", "parts": [{"text": "Reading.", "thought": true, "thoughtSignature": "c2lnQQ=="}, {"functionCall": {"name": "read_file", "args": {"path": "a.rs"}}}, {"functionCall": {"name": "glob", "args": {"pattern": "*.rs"}}}, {"functionCall": {"name": "read_file", "args": {"path": "b.rs"}}}]},
  {"role": "user", "parts": [{"functionResponse": {"id": "glob-1752306492230-1a2b3c", "name": "glob", "response": {"output": "a.rs\nb.rs"}}}, {"functionResponse": {"id": "read_file-1752306492234-58ddc370e4ec6", "name": "read_file", "response": {"output": "fn a() {}"}}}, {"functionResponse": {"id": "read_file-1752306492235-77aa", "name": "read_file", "response": {"output": "fn b() {}"}}}]},
  {"role": "model", "parts": [{"functionCall": {"name": "run_shell_command", "args": {"command": "cargo test"}}, "thoughtSignature": "c2lnQg=="}]},
  {"role": "user", "parts": [{"functionResponse": {"id": "run_shell_command-1752306499999-ff", "name": "run_shell_command", "response": {"error": "[Operation Cancelled] Reason: User cancelled"}}}, {"text": "Skip the tests; just fix b.rs."}]},
  {"role": "model", "parts": [{"text": "Fixed.", "thoughtSignature": "c2lnQw=="}, {"futurePart": {"x": 1}}]}
]"#;

#[test]
fn idless_calls_pair_with_responses_of_their_own_ids_by_name_and_order() {
    let conversation = strict(GEMINI_CLI).expect("gemini-cli's chats read strictly");
    let m = &conversation.messages;
    let calls: Vec<&str> = m[3].tool_calls().map(|c| c.id.as_str()).collect();
    assert_eq!(calls, ["read_file#0", "glob#0", "read_file#1"]);
    let results: Vec<&str> = m[4].tool_results().map(|r| r.call_id.as_str()).collect();
    assert_eq!(results, ["glob#0", "read_file#0", "read_file#1"]);
    assert_eq!(
        m[6].tool_results().next().map(|r| r.call_id.as_str()),
        Some("run_shell_command#0")
    );
    assert!(matches!(&m[7].parts[1], Part::Opaque(o) if o.kind == "futurePart"));
    assert!(!m[7].compactable, "an unknown part pins its message");
    assert_eq!(check(Format::Gemini, m), Ok(()));
    assert_eq!(conversation.to_json(m).to_string(), GEMINI_CLI);
}

#[test]
fn a_masked_gemini_cli_response_keeps_its_id_its_siblings_and_the_signatures() {
    let conversation = strict(GEMINI_CLI).expect("valid");
    let mut messages = conversation.messages.clone();
    if let Part::ToolResult(result) = &mut messages[4].parts[1] {
        result.content = vec![Part::text("[cleared]")];
    }
    if let Part::ToolResult(result) = &mut messages[6].parts[0] {
        result.content = vec![Part::text("[cleared]")];
    }
    let written = conversation.to_json(&messages);
    let value = written.to_value();
    let input: Value = serde_json::from_str(GEMINI_CLI).expect("json");
    assert_eq!(value[4]["parts"][0], input[4]["parts"][0]);
    assert_eq!(value[4]["parts"][2], input[4]["parts"][2]);
    assert_eq!(
        value[4]["parts"][1],
        json!({"functionResponse": {"id": "read_file-1752306492234-58ddc370e4ec6", "name": "read_file", "response": {"output": "[cleared]"}}})
    );
    // The user's words beside a masked response stay.
    assert_eq!(value[6]["parts"][1], input[6]["parts"][1]);
    assert_eq!(check_written(&input, &value), Ok(()));
    let text = written.to_string();
    let again = strict(&text).expect("reads back");
    assert_eq!(again.messages[4].parts, messages[4].parts);
    assert_eq!(again.messages[6].parts, messages[6].parts);
}

#[test]
fn responses_read_in_a_later_batch_pair_with_the_calls_before_them() {
    let all: Vec<Value> = serde_json::from_str(GEMINI_CLI).expect("json");
    let whole = strict(GEMINI_CLI).expect("valid");
    let first = Value::Array(all[..4].to_vec());
    let mut conversation =
        crate::format::parse(&first, Format::Gemini, ParseOptions::default()).expect("valid");
    let mut messages = conversation.messages.clone();
    for item in &all[4..] {
        let more = conversation
            .read_more(Value::Array(vec![item.clone()]), ParseOptions::default())
            .expect("reads");
        messages.extend(more);
    }
    assert_eq!(messages, whole.messages);
}
