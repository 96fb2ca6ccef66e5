use std::collections::HashSet;
use std::sync::Arc;

use super::*;
use crate::message::{Message, ToolCall};
use crate::retention::{Contexts, is_counted};
use crate::tokens::Estimator;

fn accountant() -> TokenAccountant {
    TokenAccountant::new(Arc::new(Estimator))
}

/// A text-action agent's run: a read, an edit, tests that fail.
fn text_run() -> Vec<Message> {
    vec![
        Message::assistant(
            "a1",
            "Let me look at the total.\n```bash\nsed -n '1460,1480p' src/app/models.py\n```",
        ),
        Message::user(
            "o1",
            "<returncode>0</returncode>\n<output>\n  1474\t        total = price * qty\n  1475\t        return total\n</output>",
        ),
        Message::assistant(
            "a2",
            "```bash\nsed -i 's/total = price/total = Decimal(price)/' src/app/models.py\n```",
        ),
        Message::user("o2", "<returncode>0</returncode>\n<output>\n</output>"),
        Message::assistant("a3", "```bash\npytest tests/test_models.py -x\n```"),
        Message::user(
            "o3",
            "<returncode>1</returncode>\n<output>\n  File \"/app/src/app/models.py\", line 1474, in total\nTypeError: unsupported operand type(s) for *: 'Decimal' and 'float'\nFAILED tests/test_models.py::test_total - TypeError\n1 failed in 0.42s\n</output>",
        ),
    ]
}

/// A tool-calling agent's run.
fn tool_run() -> Vec<Message> {
    let call = |id: &str, name: &str, args: &str| ToolCall {
        id: id.into(),
        name: name.into(),
        arguments: args.into(),
    };
    vec![
        Message::assistant_calls(
            "a1",
            None,
            vec![call(
                "c1",
                "str_replace_editor",
                r#"{"command": "view", "path": "/testbed/src/parser.py", "view_range": [200, 240]}"#,
            )],
        ),
        Message::tool_result(
            "t1",
            "c1",
            "   212\t    def parse(self, text):\n   213\t        return self.grammar.match(text)",
        ),
        Message::assistant_calls(
            "a2",
            None,
            vec![call(
                "c2",
                "str_replace_editor",
                r#"{"command": "str_replace", "path": "/testbed/src/parser.py", "old_str": "return self.grammar.match(text)", "new_str": "return self.grammar.match(text, strict=True)"}"#,
            )],
        ),
        Message::tool_result(
            "t2",
            "c2",
            "The file /testbed/src/parser.py has been edited.",
        ),
        Message::assistant_calls(
            "a3",
            None,
            vec![call(
                "c3",
                "bash",
                r#"{"command": "cd /testbed && python -m pytest tests -q"}"#,
            )],
        ),
        Message::tool_result("t3", "c3", "12 passed, 1 skipped in 3.21s\nexit code: 0"),
    ]
}

fn in_context_share(input: &[Message], block: &str) -> (usize, usize) {
    let mut contexts = Contexts::new();
    for m in input {
        contexts.add(&m.text(), is_counted);
    }
    (contexts.held_by(block).len(), contexts.len())
}

#[test]
fn a_file_is_one_entry_with_what_was_done_to_it_and_what_followed() {
    let run = text_run();
    let trail = Trail::new(&run, &HashSet::new());
    let block = trail.block("", 400, &accountant()).expect("a block");
    assert!(block.starts_with(TRAIL_HEADER), "{block}");
    let file = block
        .lines()
        .find(|l| l.starts_with("- src/app/models.py"))
        .unwrap_or_else(|| panic!("no entry for the file:\n{block}"));
    assert!(file.contains("(read, edited)"), "{file}");
    // The line the traceback names, whole; the line after it, which nothing touched, not.
    assert!(file.contains("1474 total = price * qty"), "{file}");
    assert!(!file.contains("1475"), "{file}");
    let command = block
        .lines()
        .find(|l| l.contains("pytest tests/test_models.py -x"))
        .unwrap_or_else(|| panic!("no entry for the tests:\n{block}"));
    assert!(command.contains("→ exit 1"), "{command}");
    assert!(
        command.contains("TypeError: unsupported operand type(s)"),
        "{command}"
    );
    // Every other fact of the run is kept, each in context.
    let (held, all) = in_context_share(&run, &block);
    assert_eq!(held, all - 1, "{block}");
    // Nothing bare: no line of the block lists facts without words between them.
    assert!(
        !block.contains("numbers:") && !block.contains("paths:"),
        "{block}"
    );
}

#[test]
fn a_file_tool_is_read_as_the_file_it_acts_on() {
    let run = tool_run();
    let trail = Trail::new(&run, &HashSet::new());
    let block = trail.block("", 400, &accountant()).expect("a block");
    let file = block
        .lines()
        .find(|l| l.starts_with("- /testbed/src/parser.py"))
        .unwrap_or_else(|| panic!("no entry for the file:\n{block}"));
    assert!(file.contains("(read, edited)"), "{file}");
    assert!(file.contains("lines 200-240"), "{file}");
    assert!(
        file.contains(
            "\"return self.grammar.match(text)\" → \"return self.grammar.match(text, strict=True)\""
        ),
        "{file}"
    );
    assert!(
        block.contains("`cd /testbed && python -m pytest tests -q` → exit 0"),
        "{block}"
    );
    let (held, all) = in_context_share(&run, &block);
    assert_eq!(held, all, "{block}");
}

#[test]
fn what_the_answer_holds_in_context_is_not_written_again_and_a_bare_list_holds_nothing() {
    let run = text_run();
    let trail = Trail::new(&run, &HashSet::new());
    let accountant = accountant();
    let full = trail.block("", 400, &accountant).expect("a block");
    let answer =
        "- The tests fail: TypeError: unsupported operand type(s) for *: 'Decimal' and 'float'";
    let rest = trail.block(answer, 400, &accountant).expect("a block");
    assert!(
        !rest.contains("TypeError: unsupported operand type(s) for *"),
        "{rest}"
    );
    // A bag of the same facts holds none of them: the block is the same as for no answer.
    let bag = "numbers: 1474 1460\nfailures: TypeError";
    assert_eq!(
        trail.block(bag, 400, &accountant).as_deref(),
        Some(full.as_str())
    );
}

#[test]
fn the_block_stays_within_its_budget_and_keeps_the_most_per_token() {
    let run = text_run();
    let trail = Trail::new(&run, &HashSet::new());
    let accountant = accountant();
    for budget in [0, 10, 20, 40, 60, 80, 400] {
        let tokens = trail
            .block("", budget, &accountant)
            .map_or(0, |b| accountant.text_tokens(&b));
        assert!(tokens <= budget, "{tokens} > {budget}");
    }
    // A small budget keeps the failure first.
    let small = trail.block("", 60, &accountant).expect("a block");
    assert!(small.contains("TypeError"), "{small}");
}

#[test]
fn a_folded_summary_gives_its_trail_back() {
    let run = text_run();
    let accountant = accountant();
    let trail = Trail::new(&run, &HashSet::new());
    let text = trail.write("- Fixing the total.", 400, &accountant);
    let mut summary = Message::user("s", text.clone());
    summary.compaction = Some(crate::message::CompactionMeta {
        summary_text: text.clone(),
        covers: Vec::new(),
        level: crate::level::Level::Moderate,
        key: "k".into(),
        prompt_version: 1,
    });
    let again = Trail::new(std::slice::from_ref(&summary), &HashSet::new());
    let block = again.block("", 400, &accountant).expect("a block");
    let (held, all) = in_context_share(&run, &block);
    let (first, _) = in_context_share(&run, &text);
    assert_eq!(held, first, "{block}");
    assert!(held + 1 >= all, "{block}");
    assert!(
        block.contains("src/app/models.py (read, edited)"),
        "{block}"
    );
    assert!(block.contains("→ exit 1"), "{block}");
    assert_eq!(prose(&text), "- Fixing the total.");
}

#[test]
fn what_stays_raw_is_not_repeated_and_its_files_come_first() {
    let run = text_run();
    let kept: HashSet<String> = ["tests/test_models.py".to_owned()].into_iter().collect();
    let trail = Trail::new(&run, &kept);
    let block = trail.block("", 400, &accountant()).expect("a block");
    let first = block.lines().nth(1).unwrap_or("");
    assert!(first.starts_with("- tests/test_models.py"), "{block}");
}

#[test]
fn shell_commands_say_what_they_do_to_files() {
    let actions = |c: &str| file_actions(c);
    assert_eq!(
        actions("cat src/a.py"),
        [("src/a.py".to_owned(), Action::Read)]
    );
    assert_eq!(
        actions("sed -i 's/a/b/' src/a.py"),
        [("src/a.py".to_owned(), Action::Edited)]
    );
    assert_eq!(
        actions("cat > fix.py << 'EOF'"),
        [("fix.py".to_owned(), Action::Created)]
    );
    assert_eq!(
        actions("python reproduce.py"),
        [("reproduce.py".to_owned(), Action::Ran)]
    );
    assert_eq!(
        actions("python -m pytest tests/test_a.py -x"),
        [("tests/test_a.py".to_owned(), Action::Tested)]
    );
    assert_eq!(
        actions("rm -f old.txt"),
        [("old.txt".to_owned(), Action::Deleted)]
    );
    assert_eq!(
        actions("grep -n foo src/a.py | head -5"),
        [("src/a.py".to_owned(), Action::Searched)]
    );
}

#[test]
fn a_line_gives_its_facts_with_the_words_around_them() {
    assert_eq!(
        excerpts("  1474\t  total = price * qty"),
        ["1474 total = price * qty"]
    );
    // A bare path, a fragment: nothing a reader could use alone.
    assert!(excerpts("./src/app/models.py").is_empty());
    assert!(excerpts("263- ):").is_empty());
    // A long line: the words around each fact.
    let long = format!(
        "{} at src/a.py line 1474 {}",
        "word ".repeat(40),
        "more ".repeat(40)
    );
    let cut = excerpts(&long);
    assert_eq!(cut.len(), 1, "{cut:?}");
    assert!(cut[0].contains("at src/a.py line 1474"), "{cut:?}");
    assert!(cut[0].len() < 100, "{cut:?}");
}

#[test]
fn a_listing_is_never_more_than_eight_facts_in_a_row() {
    let listing = (0..20)
        .map(|i| format!("src/m{i}.py"))
        .collect::<Vec<_>>()
        .join(" ");
    let cut = excerpts(&listing);
    assert!(cut.len() >= 3, "{cut:?}");
    for excerpt in &cut {
        assert!(longest_bare_run(excerpt) <= MAX_BARE_RUN, "{excerpt}");
    }
    assert_eq!(longest_bare_run(&listing), 20);
    assert_eq!(longest_bare_run("src/a.py line 1474 in src/b.py"), 1);
}

#[test]
fn a_traceback_gives_its_innermost_frame_of_the_code_and_no_cut_notice_is_quoted() {
    let run = vec![
        Message::assistant("a1", "```bash\npython reproduce.py\n```"),
        Message::user(
            "o1",
            "<returncode>1</returncode>\n<output>\nTraceback (most recent call last):\n  \
             File \"/testbed/reproduce.py\", line 12, in <module>\n    main()\n  \
             File \"/testbed/app/schema.py\", line 711, in alter_field\n    self._alter(x)\n  \
             File \"/opt/conda/lib/python3.9/importlib/__init__.py\", line 127, in import_module\n    \
             return _bootstrap._gcd_import(name[level:], package, level)\n  \
             File \"<frozen importlib._bootstrap>\", line 1030, in _gcd_import\n\
             AttributeError: 'MockConnection' object has no attribute 'data_types'\n\
             <elided_chars>\n57447 characters elided\n</elided_chars>\n</output>",
        ),
    ];
    let trail = Trail::new(&run, &HashSet::new());
    let block = trail.block("", 400, &accountant()).expect("a block");
    assert!(block.contains("app/schema.py\", line 711"), "{block}");
    assert!(
        block.contains("AttributeError: 'MockConnection'"),
        "{block}"
    );
    for gone in ["line 12,", "importlib/__init__.py", "<frozen", "57447"] {
        assert!(!block.contains(gone), "{gone} in:\n{block}");
    }
}

#[test]
fn names_of_a_recursive_listing_say_which_directory_holds_them() {
    let run = vec![
        Message::assistant("a1", "```bash\nls -R /repo\n```"),
        Message::user(
            "o1",
            "<returncode>0</returncode>\n<output>\n/repo:\nREADME.md setup.py src\n\n\
             /repo/src:\n__init__.py app.py\n\n/repo/src/domains:\n__init__.py c.py \
             python.py rst.py\n</output>",
        ),
    ];
    let block = Trail::new(&run, &HashSet::new())
        .block("", 400, &accountant())
        .expect("a block");
    assert!(
        block.contains("__init__.py c.py python.py rst.py (in src/domains)"),
        "{block}"
    );
    assert!(block.contains("__init__.py app.py (in src)"), "{block}");
    // The listing's own directory is the entry's subject: its names stand as they are.
    assert!(block.contains(": README.md setup.py src ·"), "{block}");
    assert!(!block.contains("(in /repo)"), "{block}");
}

#[test]
fn a_read_keeps_the_lines_the_run_touched_whole_and_not_the_rest() {
    let call = |id: &str, args: &str| ToolCall {
        id: id.into(),
        name: "str_replace_editor".into(),
        arguments: args.into(),
    };
    let listing = [
        "   101\tdef _print_seq(self, seq):",
        "   102\t    \"\"\"Prints a sequence of items the way Python writes them",
        "   103\t    with each of its items separated by the delimiter given\"\"\"",
        "   104\t    delimiter = ', '",
        "   105\t    return delimiter.join(self._print(item) for item in seq)",
        "   106\t",
        "   107\t    # The remaining lines say nothing anyone came back for later",
    ]
    .join("\n");
    let run = vec![
        Message::assistant_calls(
            "a1",
            None,
            vec![call(
                "c1",
                r#"{"command": "view", "path": "/testbed/printer.py", "view_range": [101, 107]}"#,
            )],
        ),
        Message::tool_result("t1", "c1", &listing),
        Message::assistant_calls(
            "a2",
            None,
            vec![call(
                "c2",
                r#"{"command": "str_replace", "path": "/testbed/printer.py", "old_str": "    delimiter = ', '", "new_str": "    delimiter = ','"}"#,
            )],
        ),
        Message::tool_result("t2", "c2", "The file /testbed/printer.py has been edited."),
        Message::user(
            "u1",
            "The test still fails at printer.py:105 when the tuple has one item.",
        ),
    ];
    let trail = Trail::new(&run, &HashSet::new());
    let block = trail.block("", 2_000, &accountant()).expect("a block");
    let file = block
        .lines()
        .find(|l| l.starts_with("- /testbed/printer.py"))
        .unwrap_or_else(|| panic!("no entry for the file:\n{block}"));
    // The outline, the edited line and the line a reader named, each whole.
    assert!(file.contains("101 def _print_seq(self, seq):"), "{file}");
    assert!(file.contains("104 delimiter = ', '"), "{file}");
    assert!(
        file.contains("105 return delimiter.join(self._print(item) for item in seq)"),
        "{file}"
    );
    // Not the docstring's half-lines nor a comment nothing touched, even with room.
    for untouched in ["Prints a sequence", "separated by", "remaining lines"] {
        assert!(!block.contains(untouched), "{untouched}: {block}");
    }
}

#[test]
fn a_numbered_listing_through_grep_keeps_the_touched_lines_and_no_blank_one() {
    let command = r#"{"command": "nl -ba printer.py | grep -n \"def _print_seq\" -A 4"}"#;
    let listing = [
        "1:   101\tdef _print_seq(self, seq):",
        "2-   102\t    \"\"\"Prints a sequence of items the way Python writes them\"\"\"",
        "3-   103\t",
        "4-   104\t    delimiter = ', '",
        "5-   105\t    # a comment nothing came back for",
    ]
    .join("\n");
    let run = vec![
        Message::assistant_calls(
            "a1",
            None,
            vec![ToolCall {
                id: "c1".into(),
                name: "bash".into(),
                arguments: command.into(),
            }],
        ),
        Message::tool_result("t1", "c1", &listing),
    ];
    let trail = Trail::new(&run, &HashSet::new());
    let block = trail.block("", 2_000, &accountant()).expect("a block");
    assert!(block.contains("def _print_seq(self, seq):"), "{block}");
    for untouched in [
        "Prints a sequence",
        "a comment nothing",
        "3- 103",
        "delimiter",
    ] {
        assert!(!block.contains(untouched), "{untouched}: {block}");
    }
}

#[test]
fn a_chats_answer_that_shows_a_block_is_no_command_and_the_reply_stays_the_users() {
    let folded = [
        Message::user("t", "How do I alert on expiring certs?"),
        Message::assistant(
            "a",
            "Add this rule:\n\n```yaml\nmetadata:\n  name: cert-expiry\n```\n\nThen reload Prometheus.",
        ),
        Message::user(
            "u",
            "that worked. the alert fires for grafana.int.example.io at 14 days",
        ),
    ];
    let trail = Trail::new(folded.iter(), &HashSet::new());
    let block = trail.block("", 400, &accountant()).expect("a block");
    // No command `metadata: …` with the user's words as its output.
    assert!(!block.contains("`metadata:"), "{block}");
    assert!(
        block.contains("the alert fires for grafana.int.example.io at 14 days"),
        "{block}"
    );
}

#[test]
fn a_web_page_an_output_printed_gives_its_message_not_its_styling() {
    let call = ToolCall {
        id: "c1".into(),
        name: "bash".into(),
        arguments: r#"{"command": "curl -s localhost:8000/admin/report/1/change/"}"#.into(),
    };
    let page = "<!DOCTYPE html>\n<html lang=\"en\">\n<style type=\"text/css\">\n  table.source th { color:#666; }\n  pre.exception_value { font-family: sans-serif; color: #575757; font-size: 1.5em; }\n  ul.traceback li.frame { padding-bottom:1em; color:#4f4f4f; }\n</style>\n<td class=\"code\">1209600</td>\n<h1>ValidationError at /admin/report/1/change/</h1>\nManagementForm data is missing in django/forms/formsets.py line 94\nconfig = { retries: 3; timeout: 3000 }";
    let run = vec![
        Message::assistant_calls("a1", None, [call]),
        Message::tool_result("t1", "c1", page),
    ];
    let trail = Trail::new(&run, &HashSet::new());
    let block = trail.block("", 400, &accountant()).expect("a block");
    assert!(
        block.contains("django/forms/formsets.py line 94"),
        "{block}"
    );
    for styling in ["#666", "575757", "li.frame", "1209600"] {
        assert!(!block.contains(styling), "{styling}: {block}");
    }
}

#[test]
fn an_error_label_alone_keeps_the_message_after_it() {
    let output = "ERROR:\nNo replacement was performed, old_str `  x = 1` did not appear \
                  verbatim in /repo/src/a.py.";
    let trail = Trail::of_output(output);
    let excerpts = trail.excerpts_within(200, &|s: &str| s.len() as u64 / 4);
    assert!(
        excerpts.contains(&"ERROR: No replacement was performed, old_str ` x = 1` did not appear verbatim in /repo/src/a.py."),
        "{excerpts:?}"
    );
}
