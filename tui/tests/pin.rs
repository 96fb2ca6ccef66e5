//! `--pin` and `--pin-all` on the real binary: pinned messages come back verbatim, a bad
//! index is an input error, and a conversation that opts out is only assessed.

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;

const SAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../samples/sample.json");

fn compactor(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_compactor"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("compactor-pin-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

/// Compacts the sample for a 3,000-token window with `extra` arguments; the written
/// messages.
fn compact_sample(out: &str, extra: &[&str]) -> Vec<Value> {
    let out = temp(out);
    let mut args = vec![
        "compact",
        SAMPLE,
        "--max-context",
        "3000",
        "--output-reserve",
        "500",
        "-o",
        out.to_str().expect("utf-8"),
    ];
    args.extend(extra);
    let output = compactor(&args);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = std::fs::read_to_string(&out).expect("written");
    let _ = std::fs::remove_file(&out);
    match serde_json::from_str(&text).expect("JSON") {
        Value::Array(items) => items,
        other => panic!("expected an array, found {other}"),
    }
}

fn sample() -> Vec<Value> {
    match serde_json::from_str(&std::fs::read_to_string(SAMPLE).expect("sample")).expect("JSON") {
        Value::Array(items) => items,
        other => panic!("expected an array, found {other}"),
    }
}

#[test]
fn compact_pin_keeps_the_named_messages_verbatim() {
    let original = sample();
    // An old tool result (and its call): without the pin, the run clears or summarizes it.
    let unpinned = compact_sample("unpinned.json", &[]);
    assert!(!unpinned.contains(&original[9]), "the control run keeps it");
    let pinned = compact_sample("pinned.json", &["--pin", "9,2"]);
    assert!(
        pinned.contains(&original[9]),
        "the pinned result is verbatim"
    );
    assert!(pinned.contains(&original[2]), "the pinned call is verbatim");
    assert!(pinned.len() < original.len(), "the rest was compacted");
}

#[test]
fn a_pin_past_the_end_is_an_input_error_naming_the_option() {
    for command in ["plan", "compact"] {
        let output = compactor(&[command, SAMPLE, "--pin", "3,24"]);
        assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
        assert_eq!(
            stderr(&output).trim_end(),
            "compactor: --pin: index 24 is out of range: the conversation has 24 messages"
        );
    }
}

#[test]
fn pin_all_is_assessed_never_rewritten() {
    let output = compactor(&[
        "compact",
        SAMPLE,
        "--max-context",
        "9000",
        "--output-reserve",
        "500",
        "--reason",
        "manual",
        "--pin-all",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("skipped (nothing may be compacted"),
        "{}",
        stdout(&output)
    );
    // Over the absolute limit it fails, naming the largest message, and writes nothing.
    let out = temp("over.json");
    let output = compactor(&[
        "compact",
        SAMPLE,
        "--max-context",
        "3000",
        "--output-reserve",
        "500",
        "--pin-all",
        "-o",
        out.to_str().expect("utf-8"),
    ]);
    assert_eq!(output.status.code(), Some(1), "{}", stdout(&output));
    let err = stderr(&output);
    assert!(
        err.contains("context overflow") && err.contains("largest messages"),
        "{err}"
    );
    assert!(!out.exists());
}

#[test]
fn plan_shows_pinned_segments() {
    let count = |extra: &[&str]| {
        let mut args = vec!["plan", SAMPLE];
        args.extend(extra);
        let output = compactor(&args);
        assert!(output.status.success(), "{}", stderr(&output));
        stdout(&output).matches("pinned").count()
    };
    let before = count(&[]);
    assert_eq!(
        count(&["--pin", "4,5"]),
        before + 1,
        "segment 4..6 is pinned whole"
    );
    let segments = compactor(&["plan", SAMPLE, "--json"]);
    let plan: Value = serde_json::from_slice(&segments.stdout).expect("JSON");
    let total = plan["segmentation"]["segments"]
        .as_array()
        .map_or(0, Vec::len);
    assert_eq!(count(&["--pin-all"]), total);
}
