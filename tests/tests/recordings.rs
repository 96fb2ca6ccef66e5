//! Agents' own session files (fixtures written for these tests, carrying each shape the
//! agents write: no one's session) read as the requests the agent sent: the run equals
//! the request body rebuilt by hand, each call's request is what the agent had then, and
//! the requests read strictly, pass their provider's checker, and come back byte for byte.

use std::path::PathBuf;

use compactor::format::check::check;
use compactor::format::recording::{self, Agent, Recording};
use compactor::format::{Format, ParseOptions, parse, parse_str};
use compactor::message::{Part, Role};
use compactor::segment::segment;
use compactor::task::{newest_words, prefix};
use serde_json::Value;

fn fixture(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/sessions")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn recording(name: &str) -> Recording {
    recording::read(&fixture(name))
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .unwrap_or_else(|| panic!("{name}: not told apart as an agent's file"))
}

/// The run equals the body rebuilt by hand; it and every call's request read strictly,
/// segment, pass the checker and come back byte for byte.
fn reads_as_rebuilt(name: &str, agent: Agent, format: Format, calls: usize) -> Recording {
    let recording = recording(name);
    assert_eq!(
        (recording.agent, recording.format),
        (agent, format),
        "{name}"
    );
    assert_eq!(recording.calls(), calls, "{name}: model calls");
    let stem = name.trim_end_matches(".jsonl").trim_end_matches(".json");
    let rebuilt: Value = serde_json::from_str(&fixture(&format!("{stem}.run.json"))).expect("json");
    assert_eq!(recording.run(), rebuilt, "{name}: the run");
    let bodies = (0..calls)
        .map(|k| recording.request(k).expect("a request per call"))
        .chain([recording.run(), recording.context()]);
    for (k, body) in bodies.enumerate() {
        let text = serde_json::to_string(&body).expect("json");
        let conversation = parse_str(&text, format, ParseOptions::default())
            .unwrap_or_else(|e| panic!("{name} request {k}: {e}"));
        segment(&conversation.messages).unwrap_or_else(|e| panic!("{name} request {k}: {e}"));
        assert_eq!(
            check(format, &conversation.messages),
            Ok(()),
            "{name} request {k}"
        );
        assert_eq!(
            conversation.to_json(&conversation.messages).to_string(),
            text
        );
    }
    assert!(recording.request(calls).is_none());
    recording
}

fn list(body: &Value, format: Format) -> Vec<Value> {
    body[format.list_key()]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

#[test]
fn a_codex_rollout_is_the_responses_requests_codex_sent() {
    let recording = reads_as_rebuilt(
        "codex-rollout.jsonl",
        Agent::Codex,
        Format::OpenAiResponses,
        6,
    );
    assert_eq!(recording.model(), Some("gpt-5.1-codex"));
    assert_eq!(recording.compactions(), 1);
    let run = recording.run();
    assert_eq!(
        run["instructions"],
        "You are Codex, a coding agent. Be precise."
    );
    // The first call's request: everything before its reasoning; ghost snapshots never sent.
    let first = list(
        &recording.request(0).expect("a call"),
        Format::OpenAiResponses,
    );
    assert_eq!(first.len(), 4);
    assert!(first.iter().all(|i| i["type"] != "ghost_snapshot"));
    // After Codex's own compaction, a request starts from its replacement history.
    let after = list(
        &recording.request(4).expect("a call"),
        Format::OpenAiResponses,
    );
    assert_eq!(after.len(), 3);
    assert_eq!(after[2]["type"], "compaction");
    let conversation =
        parse(&run, Format::OpenAiResponses, ParseOptions::default()).expect("reads");
    let m = &conversation.messages;
    // The task is the user's first request, not the context Codex injected before it.
    let task = prefix(m).task.expect("a task");
    assert_eq!(
        m[task].text(),
        "Fix the failing parser test in src/parse.rs."
    );
    assert!(prefix(m).context > 1);
    assert_eq!(
        m[newest_words(m).expect("words")].text(),
        "Also run clippy."
    );
    let shell = m
        .iter()
        .flat_map(|m| m.tool_calls())
        .find(|c| c.name == "local_shell");
    assert!(shell.is_some_and(|c| c.arguments.contains("sed -n 30,40p")));
    let context = parse(
        &recording.context(),
        Format::OpenAiResponses,
        ParseOptions::default(),
    )
    .expect("reads");
    // The instructions, then the replacement history: the compaction item is an earlier
    // summary, and the task is still the user's first request.
    let summary = context
        .messages
        .iter()
        .position(compactor::task::is_summary);
    assert_eq!(summary, Some(3));
    assert!(matches!(&context.messages[3].parts[..], [Part::Opaque(o)] if o.is_provider_summary()));
    assert_eq!(prefix(&context.messages).task, Some(1));
}

#[test]
fn a_claude_code_transcript_is_the_messages_claude_code_sent() {
    let recording = reads_as_rebuilt(
        "claude-transcript.jsonl",
        Agent::ClaudeCode,
        Format::Anthropic,
        7,
    );
    assert_eq!(recording.compactions(), 1);
    // After the compact boundary, a request opens with Claude Code's summary, joined to
    // the prompt typed after it.
    let after = list(&recording.request(5).expect("a call"), Format::Anthropic);
    assert_eq!(after.len(), 1);
    let opening = after[0]["content"][0]["text"].as_str().unwrap_or_default();
    assert!(opening.starts_with("This session is being continued"));
    let conversation =
        parse(&recording.run(), Format::Anthropic, ParseOptions::default()).expect("reads");
    let m = &conversation.messages;
    // The slash command's wrappers and caveat share a message with the first prompt.
    assert_eq!(prefix(m).task, Some(0));
    // The interrupted tool's result, the notice and the new instruction: one message.
    let interrupted = &m[6];
    assert_eq!(interrupted.tool_results().count(), 1);
    assert!(
        interrupted
            .text()
            .contains("just make count() allocation-free")
    );
    // The tool search's tool_reference is kept, pinning its message.
    assert!(!m[4].compactable);
    assert_eq!(
        m[newest_words(m).expect("words")].text(),
        "Now add a test for empty input."
    );
    assert!(m.iter().all(|m| m.text().find("API Error").is_none()));
}

#[test]
fn a_gemini_cli_chat_is_the_contents_gemini_cli_sent() {
    let recording = reads_as_rebuilt("gemini-chat.json", Agent::GeminiCli, Format::Gemini, 4);
    assert_eq!(recording.compactions(), 0);
    let conversation =
        parse(&recording.run(), Format::Gemini, ParseOptions::default()).expect("reads");
    let m = &conversation.messages;
    // Id-less calls, answered by responses with gemini-cli's own ids, pair by name and order.
    let calls: Vec<&str> = m[1].tool_calls().map(|c| c.id.as_str()).collect();
    let results: Vec<&str> = m[2].tool_results().map(|r| r.call_id.as_str()).collect();
    assert_eq!(calls, ["read_file#0", "run_shell_command#0"]);
    assert_eq!(results, calls);
    assert_eq!(m[4].role, Role::User);
    assert_eq!(
        m[newest_words(m).expect("words")].text().lines().last(),
        Some("Rename Cfg to Config then.")
    );
}

#[test]
fn a_gemini_cli_checkpoint_and_its_prompt_log_read() {
    let checkpoint = r#"[{"role":"user","parts":[{"text":"This is the Gemini CLI. We are setting up the context for our chat.\nToday is Monday."}]},{"role":"model","parts":[{"text":"Got it. Thanks for the context!"}]},{"role":"user","parts":[{"functionResponse":{"id":"read_file-1-a","name":"read_file","response":{"output":"x"}}},{"text":"Go on."}]},{"role":"model","parts":[{"text":"Done."}]}]"#;
    let recording = recording::read(checkpoint)
        .expect("reads")
        .expect("a checkpoint");
    assert_eq!((recording.agent, recording.calls()), (Agent::GeminiCli, 2));
    // A response whose call the checkpoint lost is kept as text.
    let contents = list(&recording.run(), Format::Gemini);
    assert_eq!(contents[2]["parts"][0], serde_json::json!({"text": "x"}));
    let log = r#"[{"sessionId":"s","messageId":0,"type":"user","message":"build it","timestamp":"t"},{"sessionId":"s","messageId":1,"type":"user","message":"and test it","timestamp":"t"}]"#;
    let recording = recording::read(log).expect("reads").expect("a log");
    assert_eq!(
        (
            recording.calls(),
            list(&recording.run(), Format::Gemini).len()
        ),
        (0, 2)
    );
    // A plain list of Gemini contents is no agent's file.
    let plain = r#"[{"role":"user","parts":[{"text":"hi"}]}]"#;
    assert_eq!(recording::read(plain), Ok(None));
}

#[test]
fn a_gemini_cli_chat_in_json_lines_is_the_contents_gemini_cli_sent() {
    let recording = reads_as_rebuilt(
        "gemini-chat-lines.jsonl",
        Agent::GeminiCli,
        Format::Gemini,
        5,
    );
    assert_eq!(recording.model(), Some("gemini-2.5-pro"));
    // The `$set` of messages that replaced the history with a summary.
    assert_eq!(recording.compactions(), 1);
    let after = list(&recording.request(4).expect("a call"), Format::Gemini);
    let opening = after[0]["parts"][0]["text"].as_str().unwrap_or_default();
    assert!(opening.starts_with("<state_snapshot>"));
    // The summary, its answer and the turns kept; the duplicate of the kept results is
    // not sent twice.
    assert_eq!(after.len(), 7);
    let conversation =
        parse(&recording.run(), Format::Gemini, ParseOptions::default()).expect("reads");
    let m = &conversation.messages;
    // The rewound turn and the interface's notice are not in it, nor the summary (the
    // agent's own compaction).
    assert!(m.iter().all(|m| {
        let text = m.text();
        !text.contains("panic") && !text.contains("cancelled") && !text.contains("state_snapshot")
    }));
    // Each call answered once: by the results on its record, not again by the message
    // gemini-cli 0.44 writes of the responses it sends.
    assert_eq!(m.iter().flat_map(|m| m.tool_calls()).count(), 2);
    assert_eq!(m.iter().flat_map(|m| m.tool_results()).count(), 2);
    assert_eq!(
        m[newest_words(m).expect("words")].text(),
        "Now add a test for it."
    );
}

#[test]
fn a_qwen_code_chat_is_the_contents_qwen_code_sent() {
    let recording = reads_as_rebuilt("qwen-chat.jsonl", Agent::QwenCode, Format::Gemini, 5);
    assert_eq!(recording.model(), Some("qwen3-coder-plus"));
    // The compression checkpoint: later requests start from its compressed history.
    assert_eq!(recording.compactions(), 1);
    let after = list(&recording.request(4).expect("a call"), Format::Gemini);
    assert_eq!(after.len(), 3);
    let opening = after[0]["parts"][0]["text"].as_str().unwrap_or_default();
    assert!(opening.starts_with("<state_snapshot>"));
    let conversation =
        parse(&recording.run(), Format::Gemini, ParseOptions::default()).expect("reads");
    let m = &conversation.messages;
    // The turn the user rewound is off the chain of parents.
    assert!(m.iter().all(|m| !m.text().contains("Abandoned")));
    // One response's streamed records are one turn: its thought and both calls; their
    // two results (a record each) one user turn.
    let calls: Vec<&str> = m[1].tool_calls().map(|c| c.id.as_str()).collect();
    assert_eq!(calls, ["call_a", "call_b"]);
    let results: Vec<&str> = m[2].tool_results().map(|r| r.call_id.as_str()).collect();
    assert_eq!(results, calls);
    // A message typed mid-turn joins the tool's result.
    assert_eq!(m[4].tool_results().count(), 1);
    assert!(m[4].text().contains("Also document it in the README."));
    assert_eq!(
        m[newest_words(m).expect("words")].text(),
        "Now run the tests."
    );
}
