//! The host layer natively: what the component does for every host, without wasm.

use compactor_component::{Code, Config, Host, Next, ReadOptions};

fn config(window: u64) -> Config {
    Config::default()
        .with("model", Some("gpt-4o".to_owned()))
        .with("max_context_tokens", Some(window))
        .with("output_reserve", Some(2_000u64))
}

fn conversation(turns: usize) -> String {
    let mut messages = vec![
        serde_json::json!({"role": "system", "content": "You are a coding agent."}),
        serde_json::json!({"role": "user", "content": "Fix the failing test."}),
    ];
    for i in 0..turns {
        messages.push(serde_json::json!({
            "role": "assistant", "content": null,
            "tool_calls": [{"id": format!("c{i}"), "type": "function",
                            "function": {"name": "shell", "arguments": format!("{{\"cmd\":\"cat f{i}\"}}")}}]
        }));
        messages.push(serde_json::json!({
            "role": "tool", "tool_call_id": format!("c{i}"),
            "content": format!("fn f{i}() {{}}\n").repeat(60)
        }));
    }
    serde_json::Value::Array(messages).to_string()
}

/// Drives a run with the engine's offline summaries, failing after a bounded number of steps.
fn drive(
    run: &mut compactor_component::Driven,
) -> Result<compactor_component::Finished, compactor_component::Failure> {
    for _ in 0..1_000 {
        match run.poll().next {
            Next::Summarize(requests) => {
                for request in requests {
                    let answer = run.offline_summary(request.id)?;
                    run.complete(request.id, Ok(answer), 0)?;
                }
            }
            Next::Wait(until) => run.handle_timeout(until),
            Next::Done(finished) => return Ok(finished),
            Next::Failed(failure) => return Err(failure),
        }
    }
    panic!("the run did not end");
}

#[test]
fn a_run_compacts_and_writes_back_in_the_callers_layout() {
    let host = Host::new(&config(12_000)).expect("config");
    let text = conversation(30);
    let mut run = host
        .begin(
            &text,
            &ReadOptions::default(),
            "s",
            compactor::engine::Trigger::Proactive,
            0,
        )
        .expect("begin");
    let finished = drive(&mut run).expect("run");
    assert_eq!(finished.status, "compacted");
    let report: serde_json::Value = serde_json::from_str(&finished.report).expect("report");
    assert!(report["tokensAfter"].as_u64() < report["tokensBefore"].as_u64());
    // Compact input, compact output; the system prompt is the input's own bytes.
    let messages = finished.messages.as_deref().expect("a call's messages");
    assert!(messages.starts_with(r#"[{"role":"system","content":"You are a coding agent."}"#));
    // Polled again, the run answers the same, with no new events.
    let again = run.poll();
    assert_eq!(again.next, Next::Done(finished));
    assert_eq!(again.events, "[]");
}

#[test]
fn bad_input_is_a_failure_with_a_path_never_a_panic() {
    let host = Host::new(&config(12_000)).expect("config");
    let read = ReadOptions::default();
    let cases = [
        (r#"[{"role":"bot"}]"#, "messages[0].role"),
        ("{", "messages"),
        ("[1]", "messages[0]"),
        (
            r#"[{"role":"tool","tool_call_id":"x","content":"r"}]"#,
            "messages[0]",
        ),
    ];
    for (text, path) in cases {
        let failure = host.plan(text, &read).expect_err(text);
        assert_eq!(failure.code, Code::InvalidInput, "{text}");
        assert_eq!(
            failure.path.as_deref(),
            Some(path),
            "{text}: {}",
            failure.message
        );
    }
    let deep = "[".repeat(10_000) + &"]".repeat(10_000);
    assert_eq!(
        host.assess(&deep, &read).expect_err("deep").code,
        Code::InvalidInput
    );
    let named = ReadOptions {
        format: Some("bogus".to_owned()),
        lenient: false,
    };
    assert_eq!(
        host.assess("[]", &named)
            .expect_err("format")
            .path
            .as_deref(),
        Some("format")
    );
    let bad = config(12_000).with("trigger_ratio", Some(2.0));
    assert_eq!(Host::new(&bad).expect_err("ratio").code, Code::InvalidInput);
    assert!(Host::new(&Config::default().with("model", Some("nope".to_owned()))).is_err());
}

#[test]
fn unknown_request_ids_and_late_answers_are_handled() {
    let host = Host::new(&config(12_000).with("clear_at_least", Some(u64::MAX))).expect("config");
    let mut run = host
        .begin(
            &conversation(30),
            &ReadOptions::default(),
            "s",
            compactor::engine::Trigger::Manual,
            0,
        )
        .expect("begin");
    let failure = run
        .complete(999, Ok("x".into()), 0)
        .expect_err("unknown id");
    assert_eq!(failure.path.as_deref(), Some("id"));
    assert!(run.offline_summary(999).is_err());
    run.cancel();
    assert!(matches!(run.poll().next, Next::Failed(f) if f.code == Code::Aborted));
    // After the end, answers are ignored.
    assert!(run.complete(1, Ok("late".into()), 0).is_ok());
}

#[test]
fn a_session_compacts_in_place_and_reports_the_splice() {
    let host = Host::new(&config(12_000)).expect("config");
    let session = host
        .session("s", "[]", &ReadOptions::default())
        .expect("session");
    let text = conversation(30);
    let all: Vec<serde_json::Value> = serde_json::from_str(&text).expect("json");
    for message in &all {
        session
            .append(&serde_json::Value::Array(vec![message.clone()]).to_string())
            .expect("append");
    }
    assert_eq!(session.len(), all.len());
    let mut run = session
        .compact_begin(compactor::engine::Trigger::Proactive, 0)
        .expect("begin");
    // One compaction at a time.
    assert_eq!(
        session
            .compact_begin(compactor::engine::Trigger::Proactive, 0)
            .expect_err("busy")
            .code,
        Code::Conflict
    );
    let finished = drive(&mut run).expect("run");
    // The session holds the messages; only the changes cross.
    assert_eq!(finished.messages, None);
    assert_eq!(finished.changes, session.changes().expect("changes"));
    let changes: serde_json::Value =
        serde_json::from_str(&session.changes().expect("changes").expect("some")).expect("json");
    assert!(changes["deleteCount"].as_u64() > Some(0));
    drop(run);
    assert!(
        session
            .compact_begin(compactor::engine::Trigger::Manual, 0)
            .is_ok()
    );
}
