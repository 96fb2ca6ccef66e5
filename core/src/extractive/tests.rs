use super::*;
use crate::message::Message;
use crate::prompt::{PromptKind, build};

fn summarize(messages: &[Message], max_tokens: u64) -> String {
    Extractive.summarize_prompt(
        &build(PromptKind::Segment { age: 0 }, messages, max_tokens),
        max_tokens,
    )
}

/// The lines under a summary's `heading`, up to the next heading (empty without it).
fn section<'s>(summary: &'s str, heading: &str) -> &'s str {
    summary
        .split(&format!("## {heading}"))
        .nth(1)
        .map(|s| s.split("\n## ").next().unwrap_or(s))
        .unwrap_or_default()
}

#[test]
fn facts_are_kept_and_small_talk_dropped() {
    let messages = [
        Message::user(
            "u",
            "Please fix the failing test. You must not change the public API.",
        ),
        Message::assistant("a", "Thanks, sure!"),
        Message::assistant("b", "Running `pytest tests/test_fields.py` now."),
        Message::user(
            "o",
            "FAILED tests/test_fields.py::test_timedelta - AssertionError: 345 != 344",
        ),
        Message::assistant(
            "c",
            "The root cause is rounding in src/marshmallow/fields.py line 1474; I will use round().",
        ),
    ];
    let summary = summarize(&messages, 400);
    assert!(summary.contains("## Task and constraints"), "{summary}");
    assert!(
        summary.contains("must not change the public API"),
        "{summary}"
    );
    assert!(summary.contains("AssertionError: 345 != 344"), "{summary}");
    assert!(
        summary.contains("src/marshmallow/fields.py line 1474"),
        "{summary}"
    );
    assert!(!summary.contains("Thanks, sure"), "{summary}");
}

#[test]
fn the_size_limit_holds_and_artifact_refs_always_survive() {
    let long: Vec<Message> = (0..200)
        .map(|i| {
            Message::assistant(
                format!("a{i}").as_str(),
                format!("edited src/module_{i}.rs line {i}"),
            )
        })
        .chain([Message::user(
            "u",
            "keep «artifact:file~report-7» for later",
        )])
        .collect();
    let summary = summarize(&long, 150);
    assert!(
        Estimator.count(&summary) <= 150,
        "{}",
        Estimator.count(&summary)
    );
    assert!(summary.contains("«artifact:file~report-7»"));
}

#[test]
fn it_is_deterministic_and_empty_only_for_empty_input() {
    let messages = [Message::user("u", "just chatting")];
    assert_eq!(summarize(&messages, 100), summarize(&messages, 100));
    assert!(!summarize(&messages, 100).is_empty());
    assert_eq!(Extractive.summarize_prompt(&[], 100), "");
}

#[test]
fn markup_asides_and_repeated_headings_stay_out() {
    let messages = [
        Message::user("u", "Fix the parser: it must handle `@` in names."),
        Message::assistant(
            "a",
            "Let me also check if we need to handle the `@` character.\n```bash\ngrep -n split src/lang.py\n```",
        ),
        Message::user(
            "o",
            "<returncode>0</returncode>\n<output>\n44-)\nparts = lang_code.split('-') in src/lang.py\n</output>",
        ),
        Message::assistant(
            "s",
            "## Errors\n- ValueError: bad tag in src/lang.py\n## Next steps\n- run the tests",
        ),
        Message::assistant("b", "```bash\npytest -q tests/test_lang.py\n```"),
        Message::user(
            "o2",
            "<returncode>1</returncode>\n<output>\nValueError: bad tag in src/lang.py\n1 failed\n</output>",
        ),
    ];
    let summary = summarize(&messages, 400);
    for fragment in [
        "</output>",
        "<returncode>",
        "44-)",
        "- ## ",
        "/output",
        "lang_code.split,",
    ] {
        assert!(!summary.contains(fragment), "{fragment} in\n{summary}");
    }
    let task = summary
        .split("## ")
        .find(|s| s.starts_with("Task and constraints"))
        .unwrap_or("");
    assert!(task.contains("must handle"), "{summary}");
    assert!(!task.contains("Let me also check"), "{summary}");
    // Commands, outputs and narration are the trail's or nobody's; the error is here.
    assert!(!summary.contains("pytest"), "{summary}");
    assert!(!summary.contains("Let me"), "{summary}");
    assert_eq!(
        summary.matches("ValueError: bad tag").count(),
        1,
        "{summary}"
    );
    for heading in crate::prompt::HEADINGS {
        assert!(
            summary.matches(&format!("## {heading}\n")).count() <= 1,
            "{summary}"
        );
    }
}

#[test]
fn the_focus_is_kept_first_and_narration_left_out() {
    let messages = [
        Message::user("u", "Migrate the billing service to the new database."),
        Message::assistant("a", "Let me check the current tables first."),
        Message::assistant(
            "b",
            "The root cause of the slow reports is the missing index on invoices.customer_id.",
        ),
        Message::assistant(
            "c",
            "I decided the schema keeps amounts as integer cents in a BIGINT column, because floats lose cents.",
        ),
        Message::assistant(
            "d",
            "The fix for the report timeout is done because the index was added.",
        ),
    ];
    let prompt = |focus: Option<&str>| {
        crate::prompt::build_with(PromptKind::Segment { age: 0 }, &messages, 60, focus)
    };
    let plain = Extractive.summarize_prompt(&prompt(None), 60);
    let focused = Extractive.summarize_prompt(&prompt(Some("Keep every schema decision.")), 60);
    assert!(!plain.contains("Let me check"), "{plain}");
    assert!(focused.contains("BIGINT"), "{focused}");
    assert_ne!(plain, focused);
}

#[test]
fn lead_ins_labels_and_intentions_stay_out_and_findings_stay() {
    let messages = vec![
        Message::user("u", "Fix the collation bug in django."),
        Message::assistant(
            "a",
            "THOUGHT: I'll read `django/db/backends/mysql/schema.py` to see how it handles keys.\n\n\
             Now I need to mock the connection object passed to `DatabaseSchemaEditor`.\n\n\
             `django/db/backends/mysql/schema.py` imports:\n```python\nfrom x import y\n```\n\
             I should not include the keys in the dict if I want a KeyError exception.\n\n\
             THOUGHT: The root cause is that `ForeignKey.db_parameters` drops `collation`.\n\n\
             All 12 tests passed.",
        ),
    ];
    let summary = summarize(&messages, 400);
    for gone in ["THOUGHT", "I'll read", "Now I need", "imports:", "I should"] {
        assert!(!summary.contains(gone), "{gone} in:\n{summary}");
    }
    for kept in [
        "- The root cause is that `ForeignKey.db_parameters` drops `collation`.",
        "- All 12 tests passed.",
    ] {
        assert!(summary.contains(kept), "{kept} missing:\n{summary}");
    }
    assert!(!summary.contains("## Errors"), "{summary}");
}

#[test]
fn guesses_and_apologies_are_not_decisions_nor_errors() {
    let messages = vec![
        Message::user("u", "Fix the collation bug in django."),
        Message::assistant(
            "a",
            "Maybe the issue is in `django/db/models/fields/related.py` because of the clone.\n\n\
             I apologize for the error in my last edit of `django/db/backends/mysql/schema.py`.\n\n\
             The root cause is that `ForeignKey.db_parameters` drops `collation`.",
        ),
    ];
    let summary = summarize(&messages, 400);
    let decisions = section(&summary, "Decisions");
    assert!(decisions.contains("The root cause is"), "{summary}");
    assert!(!decisions.contains("Maybe the issue"), "{summary}");
    assert!(!summary.contains("I apologize"), "{summary}");
    assert!(!summary.contains("## Errors"), "{summary}");
}

#[test]
fn a_conditional_plan_is_no_decision_and_code_naming_a_traceback_is_no_error() {
    let messages = vec![
        Message::user("u", "Fix the lazy object crash in django."),
        Message::assistant(
            "a",
            "If I look at `django/db/models/sql/query.py`, I can add a check because the value is lazy.\n\n\
             I made a mistake in the previous turn by running two commands in `django/db/models/query.py`.\n\n\
             traceback.print_exc() in `django/db/backends/sqlite3/base.py` prints the stack.\n\n\
             sed -i '1030i import traceback' django/db/models/fields/__init__.py\n\n\
             The root cause is that `sqlite3` cannot bind a `SimpleLazyObject` in `django/db/backends/sqlite3/operations.py`.",
        ),
    ];
    let summary = summarize(&messages, 400);
    let section = |name: &str| {
        summary
            .split(name)
            .nth(1)
            .map(|s| s.split("\n## ").next().unwrap_or(s).to_owned())
            .unwrap_or_default()
    };
    assert!(
        section("## Decisions").contains("The root cause is"),
        "{summary}"
    );
    assert!(!section("## Decisions").contains("If I look"), "{summary}");
    assert!(!summary.contains("I made a mistake"), "{summary}");
    assert!(!summary.contains("## Errors"), "{summary}");
}

#[test]
fn an_error_in_a_files_numbered_listing_is_the_files_text_not_an_error() {
    let call = |id: &str, args: &str| crate::message::ToolCall {
        id: id.into(),
        name: "str_replace_editor".into(),
        arguments: args.into(),
    };
    let messages = vec![
        Message::user(
            "u",
            "Fix the tuple printing in sympy/utilities/lambdify.py.",
        ),
        Message::assistant_calls(
            "a1",
            None,
            vec![call(
                "c1",
                r#"{"command": "view", "path": "/repo/sympy/utilities/lambdify.py"}"#,
            )],
        ),
        Message::tool_result(
            "t1",
            "c1",
            "   501\t    >>> f(0)\n   502\t    Traceback (most recent call last):\n   503\t    ZeroDivisionError: division by zero",
        ),
        Message::assistant_calls(
            "a2",
            None,
            vec![call(
                "c2",
                r#"{"command": "view", "path": "/repo/reproduce.py"}"#,
            )],
        ),
        Message::tool_result(
            "t2",
            "c2",
            "TypeError: cannot unpack non-iterable int object",
        ),
    ];
    let summary = summarize(&messages, 400);
    assert!(
        summary.contains("TypeError: cannot unpack non-iterable int object"),
        "{summary}"
    );
    assert!(!summary.contains("ZeroDivisionError"), "{summary}");
}

#[test]
fn a_finding_is_kept_without_the_narration_around_it_and_data_remaining_is_no_next_step() {
    let messages = vec![
        Message::user("u", "Fix the doubled semicolon crash in sqlfluff."),
        Message::assistant(
            "a1",
            "I think the issue is in the `Delimited.match` method.",
        ),
        Message::assistant(
            "a2",
            "Let me think about this differently. The issue is that `Delimited` drops the \
             second delimiter in `src/sqlfluff/core/parser/grammar/delimited.py`. Let me look \
             at the code one more time.",
        ),
        Message::assistant(
            "a3",
            "4. It continues with the remaining segments after the delimiter.",
        ),
        Message::assistant(
            "a4",
            "The remaining step is to run `test/core/parser/grammar_test.py` again.",
        ),
    ];
    let summary = summarize(&messages, 400);
    assert!(
        summary.contains(
            "- The issue is that `Delimited` drops the second delimiter in \
             `src/sqlfluff/core/parser/grammar/delimited.py`.\n"
        ),
        "{summary}"
    );
    assert!(!summary.contains("Let me"), "{summary}");
    assert!(!summary.contains("I think the issue"), "{summary}");
    assert!(!summary.contains("remaining segments"), "{summary}");
    let next = summary.split("## Next steps").nth(1).unwrap_or_default();
    assert!(next.contains("The remaining step is to run"), "{summary}");
}

#[test]
fn checking_whether_something_is_the_issue_finds_nothing() {
    let messages = vec![
        Message::user("u", "Fix the doubled semicolon crash in sqlfluff."),
        Message::assistant(
            "a1",
            "Let me check if the issue is in how `Delimited` handles `StatementSegment`.",
        ),
        Message::assistant(
            "a2",
            "The root cause is that `Delimited` keeps the delimiter in `pre_content`.",
        ),
    ];
    let summary = summarize(&messages, 400);
    assert!(summary.contains("The root cause is"), "{summary}");
    assert!(!summary.contains("check if the issue"), "{summary}");
}

#[test]
fn headings_written_in_bold_are_not_lines_of_their_own() {
    let messages = [
        Message::user("u", "Plan my bike commute: 9 miles each way."),
        Message::assistant(
            "a",
            "**Decide your rule in advance**\nThe fix: ride only when the forecast is under 40% rain at 7am.\n\n**Carrying your stuff:**\nA waterproof backpack keeps a laptop dry.",
        ),
    ];
    let summary = summarize(&messages, 400);
    assert!(summary.contains("forecast is under 40% rain"), "{summary}");
    assert!(!summary.contains("Decide your rule"), "{summary}");
    assert!(!summary.contains("Carrying your stuff"), "{summary}");
}

#[test]
fn advice_about_errors_is_no_error_that_happened() {
    let messages = vec![
        Message::user(
            "u",
            "Uploads die when the phone locks. What's the right way?",
        ),
        Message::assistant(
            "a",
            "The unique name means re-tapping submit won't double-enqueue; `APPEND_OR_REPLACE` \
             handles a previously failed chain.\n\n\
             One caution: if any upload returns `Result.failure()`, the whole chain after it is \
             failed, including finalize.\n\n\
             You'd still need something to survive process death with the Firebase SDK.",
        ),
        Message::user(
            "u2",
            "ok. the upload of photo 7 failed: HTTP 413 from /api/photos",
        ),
    ];
    let summary = summarize(&messages, 400);
    let errors = section(&summary, "Errors");
    assert!(errors.contains("HTTP 413"), "{summary}");
    assert!(!errors.contains("double-enqueue"), "{summary}");
    assert!(!errors.contains("One caution"), "{summary}");
    assert!(
        !section(&summary, "Next steps").contains("You'd still need"),
        "{summary}"
    );
}

#[test]
fn the_users_other_words_of_the_work_are_kept_and_their_instructions_left_to_the_engine() {
    let messages = [
        Message::user(
            "t",
            "We need real certs for internal services. What's the approach?",
        ),
        Message::assistant(
            "a",
            "Use DNS-01 with cert-manager: one issuer, a wildcard cert or one cert per service.",
        ),
        Message::user(
            "u",
            "I was leaning wildcard but Marco from security vetoed it, so it's one cert per service. we have maybe 35 services, so rate limits should be fine?",
        ),
        Message::assistant(
            "b",
            "Yes, 35 certs is far below the weekly limit of the issuer.",
        ),
        Message::user("v", "Never expose port 80 on the internal load balancer."),
        Message::user(
            "w",
            "I just remembered I need to send someone an email later.",
        ),
        Message::user("x", "how do we renew the issuer's certs before they expire"),
        Message::assistant("c", "Noted. The issuer then needs the DNS-01 solver only."),
    ];
    let summary = summarize(&messages, 400);
    let task = section(&summary, "Task and constraints");
    // A choice no mark makes an instruction, in the user's words; without the question
    // beside it.
    assert!(
        task.contains("Marco from security vetoed it, so it's one cert per service."),
        "{summary}"
    );
    assert!(
        !summary.contains("rate limits should be fine?"),
        "{summary}"
    );
    // A question said without its mark asks; it states nothing.
    assert!(!summary.contains("how do we renew"), "{summary}");
    // The rule is the engine's block to carry, once; an aside on nothing the work spoke
    // of is not the work's.
    assert!(!summary.contains("Never expose port 80"), "{summary}");
    assert!(!summary.contains("send someone an email"), "{summary}");
}

#[test]
fn what_the_user_will_do_ranks_above_what_they_report() {
    let messages = [
        Message::user("t", "Plan winter break childcare for Nora and Eli."),
        Message::assistant(
            "a",
            "Options: the rec center camp on the 29th and 30th, a swap with the Lindqvists, or PTO for Marcus.",
        ),
        Message::user(
            "u",
            "Ugh. The Lindqvists just called, their in-laws decided to come for the whole week after Christmas so they can't do it. Sigh. ok we'll do the rec center camp on the 29th and 30th then, $180, whatever, it's two days.",
        ),
        Message::assistant("b", "Then the camp covers the 29th and the 30th."),
        Message::user(
            "v",
            "Eli keeps asking whether the camp has a pool, Nora wants to know about the rec center gym.",
        ),
        Message::assistant("c", "The rec center camp has a gym; no pool in winter."),
    ];
    let summary = summarize(&messages, 60);
    let task = section(&summary, "Task and constraints");
    // Without the sighs around it; above a newer line that reports.
    assert!(
        task.lines().any(|l| l == "- ok we'll do the rec center camp on the 29th and 30th then, $180, whatever, it's two days."),
        "{summary}"
    );
    assert!(!summary.contains("Eli keeps asking"), "{summary}");
}

#[test]
fn the_halves_of_a_line_a_clip_cut_are_not_quoted() {
    let clipped = format!(
        "RuntimeError: Dropped elements in sequence matching.\nThis suggests the issue is specific to having\n[… 900 {} …]\nent.parse`. This is after the match has returned.\nThe fix belongs in Delimited.match.",
        crate::message::CLIP_MARKER
    );
    let messages = [
        Message::user("u", "Fix the crash on `select id from tbl;;`."),
        Message::assistant("a", clipped),
    ];
    let summary = summarize(&messages, 400);
    assert!(summary.contains("Delimited.match"), "{summary}");
    assert!(!summary.contains("specific to having"), "{summary}");
    assert!(!summary.contains("ent.parse"), "{summary}");
}

#[test]
fn an_error_label_alone_is_listed_with_its_message() {
    let call = crate::message::ToolCall {
        id: "c1".into(),
        name: "str_replace_editor".into(),
        arguments: r#"{"command": "str_replace", "path": "/repo/src/app.py", "old_str": " try:", "new_str": " with ctx:"}"#.into(),
    };
    let messages = vec![
        Message::user("u", "Fix the context handling in src/app.py."),
        Message::assistant_calls("a1", None, vec![call]),
        Message::tool_result(
            "t1",
            "c1",
            "ERROR:\nNo replacement was performed, old_str ` try:` did not appear verbatim in /repo/src/app.py.",
        ),
    ];
    let summary = summarize(&messages, 400);
    let errors = section(&summary, "Errors");
    assert!(
        errors.contains("ERROR: No replacement was performed"),
        "{summary}"
    );
    assert!(!errors.lines().any(|l| l.trim() == "- ERROR:"), "{summary}");
}
