use super::*;

fn texts(line: &str, kind: FactKind) -> Vec<&str> {
    line_facts(line)
        .into_iter()
        .filter(|f| f.kind == kind)
        .map(|f| f.text)
        .collect()
}

#[test]
fn paths_are_found_without_sentence_punctuation() {
    let line =
        "Edited src/marshmallow/fields.py: see ./tests/test_a.py, setup.cfg and (docs/x.md).";
    assert_eq!(
        texts(line, FactKind::Path),
        [
            "src/marshmallow/fields.py",
            "./tests/test_a.py",
            "setup.cfg",
            "docs/x.md"
        ]
    );
    assert!(
        texts(
            "see https://example.com/a.html or 3.14 or e.g. this",
            FactKind::Path
        )
        .is_empty()
    );
    assert!(texts("and/or", FactKind::Path).is_empty());
}

#[test]
fn numbers_stand_alone_with_three_digits_or_more() {
    let line = "line 1474: 345 != 344 in abc123 at 0x1f2e and 12 or _999";
    assert_eq!(texts(line, FactKind::Number), ["1474", "345", "344"]);
}

#[test]
fn error_lines_count_by_their_head() {
    assert_eq!(
        texts("  TypeError: bad operand  ", FactKind::Error),
        ["TypeError: bad operand"]
    );
    let long = format!("Exception: {}", "x".repeat(500));
    assert_eq!(
        texts(&long, FactKind::Error)[0].chars().count(),
        MAX_FACT_CHARS
    );
    assert!(texts("all good", FactKind::Error).is_empty());
}

#[test]
fn an_error_line_reports_an_error_it_does_not_only_mention_one() {
    for line in [
        "TypeError: 'RuleSet' object is not iterable",
        "java.lang.IllegalStateException: closed",
        "E       AssertionError",
        "FAILED tests/test_a.py::test_b - ValueError: bad",
        "error[E0308]: mismatched types",
        "src/main.rs:3:5: error: expected `;`",
        "Error during parsing: Dropped elements in sequence matching!",
        "Error: GreedyUntil.greedy_match() takes from 5 to 6 positional arguments",
        "ERROR tests/test_x.py - ImportError while importing test module",
    ] {
        assert!(is_error_line(line), "{line}");
    }
    for line in [
        "raise ValueError(",
        "    except SQLParseError as err:",
        "from sqlfluff.api.simple import lint, fix, parse, APIParsingError",
        "615-    ) -> Tuple[BaseSegment, List[SQLBaseError]]:",
        "During handling of the above exception, another exception occurred:",
        "No syntax error. Let me restore the file and think about it:",
        "Let me check how the error is raised:",
        "Success: Parsed without error",
        "failures:",
        "WITH example AS (",
    ] {
        assert!(!is_error_line(line), "{line}");
    }
}

#[test]
fn commands_and_exit_statuses_are_read() {
    assert_eq!(
        command_of(r#"{"command": "grep -n \"def add\" a.py\nls"}"#).as_deref(),
        Some("grep -n \"def add\" a.py\nls")
    );
    assert_eq!(command_of("{}"), None);
    assert_eq!(exit_status("<returncode>1</returncode>\n<output>"), Some(1));
    assert_eq!(exit_status("Process finished. Exit code: 2"), Some(2));
    assert_eq!(exit_status("fine"), None);
    assert_eq!(command_head("cat <<EOF\nx\nEOF", 80), "cat <<EOF …");
}

#[test]
fn a_text_action_is_the_form_that_closes_last() {
    let action = |text| text_action(text).map(|(form, c)| (form, c.into_owned()));
    // A CodeAct tag whose code names another tag: the pair that closes last, whole.
    assert_eq!(
        action("<execute_ipython>\nprint('<execute_bash>')\n</execute_ipython>"),
        Some((ActionForm::Execute, "print('<execute_bash>')".to_owned()))
    );
    // A tag, then a fenced block: the block is the command.
    assert_eq!(
        action("<execute_bash>ls</execute_bash> and then\n```bash\npytest\n```"),
        Some((ActionForm::Fence("bash"), "pytest".to_owned()))
    );
    // A fenced example in the prose, then the tag.
    assert_eq!(
        action("For example:\n```python\nf()\n```\n<execute_bash>\nls -la\n</execute_bash>"),
        Some((ActionForm::Execute, "ls -la".to_owned()))
    );
    // Code in a function call's parameter: the call.
    assert_eq!(
        action(
            "<function=bash>\n<parameter=command>cat <<EOF\n```\nx\n```\nEOF</parameter>\n</function>"
        ),
        Some((
            ActionForm::Function,
            "cat <<EOF\n```\nx\n```\nEOF".to_owned()
        ))
    );
    assert_eq!(action("A tag named <execute_bash> in prose."), None);
}

#[test]
fn markup_is_not_a_fact() {
    let line = "<returncode>0</returncode><output>/usr/lib/x ok</output> </div>";
    assert_eq!(texts(line, FactKind::Path), ["/usr/lib/x"]);
    let calls = "parts = lang_code.split('-'); lines = content.split() in fields.py";
    assert_eq!(texts(calls, FactKind::Path), ["fields.py"]);
    assert_eq!(
        texts(calls, FactKind::Identifier),
        ["lang_code.split", "content.split"]
    );
    assert_eq!(
        texts("console.log(x) then make -f Makefile", FactKind::Path),
        ["Makefile"]
    );
}

#[test]
fn urls_artifacts_and_identifiers_are_facts_of_their_own() {
    let line = "See https://docs.rs/serde. Keep «artifact:file~a1» for fields.Nested, \
                TimeDelta.serialize and std::io::Error, not e.g. example.com or 3.14";
    assert_eq!(texts(line, FactKind::Url), ["https://docs.rs/serde"]);
    assert_eq!(texts(line, FactKind::Artifact), ["«artifact:file~a1»"]);
    assert_eq!(
        texts(line, FactKind::Identifier),
        ["fields.Nested", "TimeDelta.serialize", "std::io::Error"]
    );
    assert!(texts(line, FactKind::Path).is_empty());
    assert_eq!(FactKind::Identifier.as_str(), "identifier");
    assert_eq!(FactKind::ALL.len(), 7);
}

#[test]
fn commands_come_from_tool_calls_and_text_actions_with_their_status() {
    use crate::message::ToolCall;
    let call = ToolCall {
        id: "c1".into(),
        name: "bash".into(),
        arguments: r#"{"command": "pytest -q tests\nls"}"#.into(),
    };
    let messages = [
        Message::system("s", "```\nnot run\n```"),
        Message::assistant_calls("a", Some("testing"), [call]),
        Message::tool_result(
            "t",
            "c1",
            "<returncode>1</returncode>\n<output>1 failed</output>",
        ),
        Message::assistant("b", "Let me look.\n```bash\ncat setup.cfg\n```"),
        Message::user("o", "<returncode>0</returncode>"),
        Message::assistant("c", "Done.\n<command>\nsubmit\n</command>"),
    ];
    let found = commands(&messages);
    let runs: Vec<(&str, Option<i64>)> = found
        .iter()
        .map(|c| (c.command.as_str(), c.status))
        .collect();
    assert_eq!(
        runs,
        [
            ("pytest -q tests", Some(1)),
            ("cat setup.cfg", Some(0)),
            ("submit", None)
        ]
    );
}

#[test]
fn a_reused_call_id_gives_its_status_to_the_newest_call() {
    use crate::message::ToolCall;
    // Gemini's id-less calls are named `bash#0` afresh in every turn.
    let call = |command: &str| ToolCall {
        id: "bash#0".into(),
        name: "bash".into(),
        arguments: format!(r#"{{"command":"{command}"}}"#),
    };
    let messages = [
        Message::assistant_calls("a1", None, [call("make")]),
        Message::tool_result("t1", "bash#0", "<returncode>0</returncode>"),
        Message::assistant_calls("a2", None, [call("pytest")]),
        Message::tool_result("t2", "bash#0", "<returncode>1</returncode>"),
    ];
    let runs: Vec<(String, Option<i64>)> = commands(&messages)
        .into_iter()
        .map(|c| (c.command, c.status))
        .collect();
    assert_eq!(
        runs,
        [("make".to_owned(), Some(0)), ("pytest".to_owned(), Some(1))]
    );
}

#[cfg(feature = "serde")]
#[test]
fn kinds_serialize_by_name() {
    assert_eq!(
        serde_json::to_string(&FactKind::Artifact).ok().as_deref(),
        Some("\"artifact\"")
    );
}

#[test]
fn a_heading_is_not_an_error() {
    assert!(!is_error_line("ERRORS:"));
    assert!(!is_error_line("Errors"));
    assert!(is_error_line("ERROR: could not build"));
}
