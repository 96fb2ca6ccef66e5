use serde_json::json;

use crate::format::check::{Rule, check};
use crate::format::{Format, FormatError, ParseOptions, parse_str};
use crate::message::{Message, Part, Role};

fn strict(text: &str) -> Result<crate::format::Conversation, FormatError> {
    parse_str(text, Format::OpenAiResponses, ParseOptions::default())
}

/// An agent's request: instructions, a user message, reasoning, a call, its output, a
/// built-in tool call, and the answer, with numbers a `Value` does not keep as written.
const BODY: &str = r#"{"model":"o4-mini","instructions":"Be brief.","input":[{"role":"user","content":"list files","t":1.10},{"type":"reasoning","id":"rs_1","summary":[{"type":"summary_text","text":"Use ls."}],"encrypted_content":"gAAA"},{"type":"function_call","id":"fc_1","call_id":"call_1","name":"shell","arguments":"{\"cmd\":\"ls\"}","status":"completed"},{"type":"function_call_output","call_id":"call_1","output":"a.txt\nb.txt","n":1E5},{"type":"web_search_call","id":"ws_1","status":"completed","action":{"type":"search","query":"x"}},{"type":"message","id":"msg_1","role":"assistant","status":"completed","content":[{"type":"output_text","text":"Two files.","annotations":[]}]}],"temperature":0.70}"#;

#[test]
fn items_are_read_one_message_each() {
    let conversation = strict(BODY).expect("valid");
    let m = &conversation.messages;
    assert_eq!(
        m.iter().map(|m| m.role).collect::<Vec<_>>(),
        [
            Role::System,
            Role::User,
            Role::Assistant,
            Role::Assistant,
            Role::Tool,
            Role::Assistant,
            Role::Assistant
        ]
    );
    assert!(matches!(&m[2].parts[..], [Part::Reasoning(r)] if r.text == "Use ls."));
    assert_eq!(
        m[3].tool_calls().next().map(|c| c.id.as_str()),
        Some("call_1")
    );
    assert_eq!(
        m[4].tool_results().next().map(|r| r.call_id.as_str()),
        Some("call_1")
    );
    assert!(!m[5].compactable, "a built-in call is carried, pinned");
    assert_eq!(m[6].text(), "Two files.");
    assert_eq!(check(Format::OpenAiResponses, m), Ok(()));
}

#[test]
fn unchanged_and_rewritten_items_keep_their_bytes() {
    let conversation = strict(BODY).expect("valid");
    assert_eq!(
        conversation.to_json(&conversation.messages).to_string(),
        BODY
    );
    let mut messages = conversation.messages.clone();
    if let Part::ToolResult(result) = &mut messages[4].parts[0] {
        result.content = vec![Part::text("[cleared]")];
    }
    let summary = Message::user("s", "summary of earlier work");
    messages.insert(1, summary);
    let written = conversation.to_json(&messages).to_string();
    assert!(
        written.contains(
            r#"{"type":"function_call_output","call_id":"call_1","output":"[cleared]","n":1E5}"#
        ),
        "{written}"
    );
    assert!(
        written.contains(r#"{"type":"message","role":"user","content":"summary of earlier work"}"#),
        "{written}"
    );
    assert!(written.starts_with(r#"{"model":"o4-mini","instructions":"Be brief.","input":["#));
    assert!(written.ends_with(r#""temperature":0.70}"#));
}

#[test]
fn clipped_assistant_text_stays_output_text() {
    let text = r#"[{"type":"message","role":"assistant","content":[{"type":"output_text","text":"long answer","annotations":[]},{"type":"refusal","refusal":"no"}]}]"#;
    let conversation = strict(text).expect("valid");
    let mut messages = conversation.messages.clone();
    messages[0].parts[0] = Part::text("long…");
    let out = conversation.to_json(&messages).to_value();
    assert_eq!(
        out[0]["content"],
        json!([{"type":"output_text","text":"long…","annotations":[]},{"type":"refusal","refusal":"no"}])
    );
}

#[test]
fn bad_input_names_the_item_path() {
    let cases = [
        (
            r#"[{"type":"function_call","name":"f"}]"#,
            "input[0].call_id",
        ),
        (r#"[{"type":7}]"#, "input[0].type"),
        (r#"[{"content":"x"}]"#, "input[0].type"),
        (r#"[{"role":"bot","content":"x"}]"#, "input[0].role"),
        (
            r#"[{"role":"user","content":[{"text":"x"}]}]"#,
            "input[0].content[0].type",
        ),
        (
            r#"[{"type":"reasoning","summary":[{"type":"summary_text"}]}]"#,
            "input[0].summary[0].text",
        ),
        (r#"{"input":7}"#, "input"),
        (r#"{"instructions":7,"input":[]}"#, "instructions"),
        (
            r#"{"instructions":"x","input":[{"role":"user","content":"go"},{"type":"function_call_output","call_id":"c9","output":"x"}]}"#,
            "input[1].call_id",
        ),
    ];
    for (text, path) in cases {
        let error = strict(text).expect_err(text);
        assert_eq!(error.path, path, "{text}: {error}");
    }
    let error = strict(r#"[{"role":"user","content":"x"},{"type":"function_call_output"}]"#)
        .expect_err("no call_id");
    assert_eq!(error.message_index(), Some(1));
    let error = strict(r#"[{"role":"user","content":"x"},{"type":"function_call_output","call_id":"c7","output":""}]"#)
        .expect_err("an orphan output");
    assert_eq!(
        error.to_string(),
        "input[1].call_id: no function_call with this id before it"
    );
}

#[test]
fn unknown_items_and_parts_are_kept_pinned_in_every_mode() {
    let text = r#"[{"role":"user","content":[{"type":"input_text","text":"x"},{"type":"input_video","v":1}]},{"type":"future_call","data":[1.10]},{"type":"future_item","data":[1.10]}]"#;
    for options in [ParseOptions::default(), ParseOptions { lenient: true }] {
        let conversation = parse_str(text, Format::OpenAiResponses, options).expect("kept");
        let m = &conversation.messages;
        assert!(m.iter().all(|m| !m.compactable));
        assert_eq!(
            m.iter().map(|m| m.role).collect::<Vec<_>>(),
            [Role::User, Role::Assistant, Role::User]
        );
        assert_eq!(conversation.to_json(m).to_string(), text);
    }
}

/// Codex's items: injected context, encrypted reasoning, a shell call answered by a
/// `function_call_output`, a freeform `custom_tool_call`, a web search, and a provider's
/// compaction item standing for what came before.
const CODEX: &str = r#"[{"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>\n  <cwd>/repo</cwd>\n</environment_context>"}]},{"type":"message","role":"user","content":[{"type":"input_text","text":"fix the build"}]},{"type":"reasoning","summary":[],"content":null,"encrypted_content":"gAAAAABo"},{"type":"local_shell_call","id":"lsh_1","call_id":"call_1","status":"completed","action":{"type":"exec","command":["bash","-lc","cargo build"],"timeout_ms":10000}},{"type":"function_call_output","call_id":"call_1","output":"{\"output\":\"error[E0425]\",\"metadata\":{\"exit_code\":101}}"},{"type":"custom_tool_call","status":"completed","call_id":"call_2","name":"apply_patch","input":"*** Begin Patch\n*** End Patch"},{"type":"custom_tool_call_output","call_id":"call_2","output":"Done!"},{"type":"web_search_call","status":"completed","action":{"type":"search","query":"E0425"}},{"type":"compaction","encrypted_content":"gAAAAABp"},{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Fixed."}]}]"#;

#[test]
fn codex_items_read_pair_and_come_back_byte_for_byte() {
    let conversation = strict(CODEX).expect("Codex's items read strictly");
    let m = &conversation.messages;
    assert!(matches!(&m[2].parts[..], [Part::Reasoning(r)] if r.redacted));
    let shell = m[3].tool_calls().next().expect("a shell call");
    assert_eq!(
        (shell.id.as_str(), shell.name.as_str()),
        ("call_1", "local_shell")
    );
    assert!(shell.arguments.contains("cargo build"));
    assert!(m[3].compactable && m[4].compactable && m[5].compactable);
    assert_eq!(
        m[5].tool_calls().next().map(|c| c.name.as_str()),
        Some("apply_patch")
    );
    assert!(!m[7].compactable && !m[8].compactable);
    assert!(matches!(&m[8].parts[..], [Part::Opaque(o)] if o.is_provider_summary()));
    assert_eq!(check(Format::OpenAiResponses, m), Ok(()));
    assert_eq!(conversation.to_json(m).to_string(), CODEX);
    // A changed shell call is written back as it came; its output is rewritten.
    let mut messages = m.clone();
    if let Part::ToolCall(call) = &mut messages[3].parts[0] {
        call.arguments = "{}".into();
    }
    if let Part::ToolResult(result) = &mut messages[4].parts[0] {
        result.content = vec![Part::text("[cleared]")];
    }
    let out = conversation.to_json(&messages).to_value();
    let input: serde_json::Value = serde_json::from_str(CODEX).expect("json");
    assert_eq!(out[3], input[3]);
    assert_eq!(out[4]["output"], "[cleared]");
}

fn violations(text: &str) -> Vec<(usize, Rule, String)> {
    // Lenient: strict reading refuses orphan outputs before any checker sees them.
    let conversation = parse_str(
        text,
        Format::OpenAiResponses,
        ParseOptions { lenient: true },
    )
    .expect("parses");
    check(Format::OpenAiResponses, &conversation.messages)
        .err()
        .unwrap_or_default()
        .into_iter()
        .map(|v| (v.index, v.rule, v.to_string()))
        .collect()
}

#[test]
fn the_checker_names_each_broken_rule() {
    let call = r#"{"type":"function_call","call_id":"c1","name":"f","arguments":"{}"}"#;
    let output = r#"{"type":"function_call_output","call_id":"c1","output":"ok"}"#;
    let reasoning = r#"{"type":"reasoning","id":"rs","summary":[]}"#;
    let user = r#"{"role":"user","content":"go"}"#;
    let answer = r#"{"role":"assistant","content":"done"}"#;
    let cases: [(String, Vec<(usize, Rule)>); 7] = [
        (
            format!("[{user},{reasoning},{call},{output},{answer}]"),
            vec![],
        ),
        // The step in progress: a call with nothing after it.
        (format!("[{user},{reasoning},{call}]"), vec![]),
        (
            format!("[{user},{output}]"),
            vec![(1, Rule::OrphanToolResult)],
        ),
        (
            format!("[{user},{call},{output},{output},{answer}]"),
            vec![(3, Rule::OrphanToolResult)],
        ),
        (
            format!("[{user},{call},{answer}]"),
            vec![(1, Rule::UnansweredToolCall)],
        ),
        (
            format!("[{user},{reasoning},{user},{answer}]"),
            vec![(1, Rule::ReasoningSeparated)],
        ),
        (
            format!("[{user},{answer},{reasoning}]"),
            vec![(2, Rule::ReasoningSeparated)],
        ),
    ];
    for (text, expected) in cases {
        let found: Vec<(usize, Rule)> = violations(&text)
            .into_iter()
            .map(|(i, r, _)| (i, r))
            .collect();
        assert_eq!(found, expected, "{text}");
    }
    let detail = &violations(&format!(
        "[{user},{call},{user},{},{answer}]",
        output.replace("c1", "c9")
    ))[..];
    assert!(detail.iter().any(|(_, _, text)| text == r#"messages[3]: output for call_id "c9": no function_call with this id before it (every tool result answers an earlier call, once)"#), "{detail:?}");
}

#[test]
fn a_summary_in_a_system_role_is_refused() {
    let mut summary = Message::system("s", "summary");
    summary.compaction = Some(crate::message::CompactionMeta {
        summary_text: "summary".into(),
        covers: Vec::new(),
        level: crate::level::Level::Aggressive,
        key: String::new(),
        prompt_version: 1,
    });
    let violations = check(Format::OpenAiResponses, &[summary]).expect_err("refused");
    assert_eq!(violations[0].rule, Rule::SummaryInSystemRole);
}
