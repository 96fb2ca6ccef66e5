//! `compactor replay` on a corpus trajectory: the table, the JSON, the invariants of its
//! figures, and the cost of the default policy.

use std::process::{Command, Output};

use compactor_tests::corpus_dir;
use serde_json::Value;

fn compactor(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_compactor"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// The longest corpus trajectory, in a 24,000-token window.
fn replay(extra: &[&str]) -> Output {
    let path = corpus_dir().join("mini-swe-agent--sqlfluff-1517.json");
    let path = path.to_str().expect("utf-8 path").to_owned();
    let mut args = vec![
        "replay",
        &path,
        "--lenient",
        "--max-context",
        "24000",
        "--output-reserve",
        "4000",
        "--max-messages",
        "off",
    ];
    args.extend_from_slice(extra);
    compactor(&args)
}

fn policy<'a>(json: &'a Value, name: &str) -> &'a Value {
    json["policies"]
        .as_array()
        .and_then(|p| p.iter().find(|p| p["policy"] == name))
        .unwrap_or_else(|| panic!("no policy {name}"))
}

#[test]
fn replay_prints_a_table_of_policies() {
    let output = replay(&["--compare", "target=0.5,0.3"]);
    assert!(output.status.success());
    let text = String::from_utf8_lossy(&output.stdout);
    for expected in [
        "calls; prices per token: cached 0.1, cache write 1, summary output 4",
        "policy",
        "facts seen",
        "configured",
        "target 0.5",
        "target 0.3",
        "trim every call",
        "keep everything     1.00×",
    ] {
        assert!(text.contains(expected), "no {expected:?} in\n{text}");
    }
}

#[test]
fn replay_json_keeps_its_invariants_and_the_default_is_cheap() {
    let output = replay(&["--compare", "target=0.5,0.75", "--json"]);
    assert!(output.status.success());
    let json: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let keep = &policy(&json, "keep everything")["totals"];
    assert_eq!(keep["relativeCost"], 1.0);
    assert_eq!(keep["factsSeen"], 1.0);
    for name in ["configured", "target 0.5", "trim every call"] {
        let p = policy(&json, name);
        assert_eq!(p["totals"]["overWindow"], 0, "{name}");
        for call in p["calls"].as_array().expect("calls") {
            let sum = call["cachedTokens"].as_u64().unwrap_or(0)
                + call["writtenTokens"].as_u64().unwrap_or(0);
            assert_eq!(Some(sum), call["promptTokens"].as_u64(), "{name}");
            let seen = call["factsSeen"].as_f64().unwrap_or(-1.0);
            assert!((0.0..=1.0).contains(&seen), "{name}");
        }
    }
    // The default cuts deep and seldom: cheaper than cutting to half the window or to
    // 0.75 (the old default), with fewer compactions, and cheaper than keeping everything.
    let default = &policy(&json, "configured")["totals"];
    let half = &policy(&json, "target 0.5")["totals"];
    let old = &policy(&json, "target 0.75")["totals"];
    let cost = default["relativeCost"].as_f64().unwrap_or(9.0);
    assert!(cost < 1.0, "{cost}");
    assert!(cost < half["relativeCost"].as_f64().unwrap_or(0.0));
    assert!(cost < old["relativeCost"].as_f64().unwrap_or(0.0));
    assert!(default["compactions"].as_u64() <= half["compactions"].as_u64());
}

#[test]
fn replay_refuses_bad_numbers_with_exit_code_2() {
    for args in [
        &["--compare", "trigger=0.5"][..],
        &["--compare", "target=1.5"],
        &["--cached-price", "-1"],
    ] {
        let output = replay(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
    }
}

/// An agent's session file (a fixture carrying its shapes) and the request body of its run
/// rebuilt by hand.
fn session_fixture(name: &str) -> (String, String) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/sessions");
    let stem = name.trim_end_matches(".jsonl").trim_end_matches(".json");
    let path = |file: &str| dir.join(file).to_str().expect("utf-8 path").to_owned();
    (path(name), path(&format!("{stem}.run.json")))
}

#[test]
fn replay_reads_agents_session_files_as_the_requests_they_sent() {
    // A Codex rollout, a Claude Code transcript and a gemini-cli chat give the same figures
    // as the request bodies of their runs rebuilt by hand, in windows small enough that
    // the session compacts.
    for (name, window) in [
        ("codex-rollout.jsonl", "420"),
        ("claude-transcript.jsonl", "420"),
        ("gemini-chat.json", "190"),
    ] {
        let (session, rebuilt) = session_fixture(name);
        let figures = |file: &str| {
            let output = compactor(&[
                "replay",
                file,
                "--max-context",
                window,
                "--output-reserve",
                "10",
                "--max-messages",
                "off",
                "--json",
            ]);
            assert!(
                output.status.success(),
                "{file}: {}",
                String::from_utf8_lossy(&output.stderr)
            );
            let json: Value = serde_json::from_slice(&output.stdout).expect("json");
            json["policies"].clone()
        };
        let from_session = serde_json::json!({ "policies": figures(&session) });
        let from_rebuilt = serde_json::json!({ "policies": figures(&rebuilt) });
        assert_eq!(from_session, from_rebuilt, "{name}");
        let totals = &policy(&from_session, "configured")["totals"];
        assert!(
            totals["calls"].as_u64().is_some_and(|c| c >= 4),
            "{name}: {totals}"
        );
        assert!(
            totals["compactions"].as_u64().is_some_and(|c| c >= 1),
            "{name}: {totals}"
        );
    }
}
