//! Whatever a host sends, the host layer answers with a value or a failure: a panic would
//! trap the component instance, and every later call on it would fail.

use compactor::engine::Trigger;
use compactor_component::{Config, Host, Next, ReadOptions};
use proptest::prelude::*;

/// JSON-ish text: real messages, broken ones, and noise.
fn text() -> impl Strategy<Value = String> {
    let role = prop::sample::select(vec!["user", "assistant", "tool", "system", "bot", ""]);
    let message = (role, ".{0,40}", any::<bool>(), 0u8..4).prop_map(|(role, content, call, id)| {
        let mut m = serde_json::json!({"role": role, "content": content});
        if call {
            m["tool_calls"] = serde_json::json!([{"id": format!("c{id}"), "type": "function",
                "function": {"name": "f", "arguments": "{}"}}]);
        }
        if role == "tool" {
            m["tool_call_id"] = serde_json::json!(format!("c{id}"));
        }
        m
    });
    prop_oneof![
        prop::collection::vec(message, 0..30).prop_map(|m| serde_json::Value::Array(m).to_string()),
        ".{0,200}",
        "[\\[\\]{}\",:0-9a-z ]{0,200}",
    ]
}

fn format() -> impl Strategy<Value = Option<String>> {
    prop::option::of(
        prop::sample::select(vec!["openai", "anthropic", "ai-sdk", "x"]).prop_map(str::to_owned),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn any_input_gets_an_answer(text in text(), format in format(), lenient in any::<bool>(), window in 1u64..40_000) {
        let config = Config::default()
            .with("model", Some("gpt-4o".to_owned()))
            .with("max_context_tokens", Some(window));
        let Ok(host) = Host::new(&config) else { return Ok(()) };
        let read = ReadOptions { format, lenient };
        let _ = host.assess(&text, &read);
        let _ = host.plan(&text, &read);
        let _ = host.count_tokens(&text, None);
        if let Ok(session) = host.session("s", &text, &read) {
            let _ = session.append(&text);
            let _ = session.assess();
            let _ = session.plan();
        }
        if let Ok(mut run) = host.begin(&text, &read, "s", Trigger::Manual, 0) {
            for _ in 0..100 {
                match run.poll().next {
                    Next::Summarize(requests) => {
                        for request in requests {
                            let answer = run.offline_summary(request.id).unwrap_or_default();
                            let _ = run.complete(request.id, Ok(answer), 0);
                        }
                    }
                    Next::Wait(until) => run.handle_timeout(until),
                    Next::Done(_) | Next::Failed(_) => break,
                }
            }
        }
    }
}
