use super::*;
use crate::message::{Reasoning, ToolCall, ToolResult};

fn call(id: &str) -> ToolCall {
    ToolCall {
        id: id.into(),
        name: "bash".into(),
        arguments: "{}".into(),
    }
}

fn result(id: &str) -> Part {
    Part::ToolResult(ToolResult {
        call_id: id.into(),
        tool_name: None,
        content: vec![Part::text("ok")],
        is_error: false,
    })
}

fn asks(ids: &[&str]) -> Message {
    Message::assistant_calls("a", None, ids.iter().map(|id| call(id)))
}

fn thinking() -> Part {
    Part::Reasoning(Reasoning {
        text: "hmm".into(),
        redacted: false,
    })
}

fn rules(format: Format, messages: &[Message]) -> Vec<(usize, Rule)> {
    match check(format, messages) {
        Ok(()) => Vec::new(),
        Err(v) => v.into_iter().map(|v| (v.index, v.rule)).collect(),
    }
}

#[test]
fn openai_accepts_paired_calls_and_a_pending_batch() {
    let messages = [
        Message::system("s", "rules"),
        Message::user("u", "go"),
        asks(&["c1", "c2"]),
        Message::tool_result("t1", "c2", "b"),
        Message::tool_result("t2", "c1", "a"),
        Message::assistant("a2", "done"),
        Message::user("u2", "more"),
        asks(&["c3"]),
    ];
    assert_eq!(rules(Format::OpenAi, &messages), []);
    assert_eq!(rules(Format::AiSdk, &messages), []);
}

#[test]
fn openai_rules_are_each_caught() {
    use Rule::*;
    let unanswered = [
        Message::user("u", "go"),
        asks(&["c1", "c2"]),
        Message::tool_result("t", "c1", "a"),
        Message::assistant("a", "x"),
    ];
    assert_eq!(
        rules(Format::OpenAi, &unanswered),
        [(1, UnansweredToolCall)]
    );
    let orphan = [
        Message::user("u", "go"),
        asks(&["c1"]),
        Message::tool_result("t", "c1", "a"),
        Message::tool_result("t", "c9", "a"),
    ];
    assert_eq!(rules(Format::OpenAi, &orphan), [(3, OrphanToolResult)]);
    let twice = [
        asks(&["c1"]),
        Message::tool_result("t", "c1", "a"),
        Message::tool_result("t", "c1", "a"),
    ];
    assert_eq!(rules(Format::OpenAi, &twice), [(2, OrphanToolResult)]);
    let after_text = [
        asks(&["c1"]),
        Message::user("u", "hey"),
        Message::tool_result("t", "c1", "a"),
    ];
    assert_eq!(
        rules(Format::OpenAi, &after_text),
        [(2, MisplacedToolResult)]
    );
    let deleted_result = [asks(&["c1"]), Message::user("u", "hey")];
    assert_eq!(
        rules(Format::OpenAi, &deleted_result),
        [(0, UnansweredToolCall)]
    );
}

#[test]
fn anthropic_accepts_a_well_formed_exchange() {
    let messages = [
        Message::system("s", "rules"),
        Message::user("u", "go"),
        Message::new(
            "a",
            Role::Assistant,
            vec![
                thinking(),
                Part::ToolCall(call("c1")),
                Part::ToolCall(call("c2")),
            ],
        ),
        Message::new(
            "r",
            Role::User,
            vec![result("c1"), result("c2"), Part::text("and?")],
        ),
        Message::assistant("a2", "done"),
    ];
    assert_eq!(rules(Format::Anthropic, &messages), []);
}

#[test]
fn anthropic_rules_are_each_caught() {
    use Rule::*;
    let first_assistant = [Message::system("s", "x"), Message::assistant("a", "hi")];
    assert_eq!(
        rules(Format::Anthropic, &first_assistant),
        [(1, FirstMessageNotUser)]
    );
    let twice_user = [Message::user("u", "a"), Message::user("u", "b")];
    assert_eq!(
        rules(Format::Anthropic, &twice_user),
        [(1, RolesDoNotAlternate)]
    );
    let late_system = [
        Message::user("u", "a"),
        Message::assistant("a", "b"),
        Message::system("s", "c"),
    ];
    assert_eq!(
        rules(Format::Anthropic, &late_system),
        [(2, MisplacedSystem)]
    );
    let late_result = [
        Message::user("u", "a"),
        asks(&["c1"]),
        Message::user("u", "b"),
        Message::assistant("a", "c"),
        Message::new("r", Role::User, vec![result("c1")]),
    ];
    assert_eq!(
        rules(Format::Anthropic, &late_result),
        [(1, UnansweredToolCall), (4, OrphanToolResult)]
    );
    let result_after_text = [
        Message::user("u", "a"),
        asks(&["c1"]),
        Message::new("r", Role::User, vec![Part::text("note"), result("c1")]),
    ];
    assert_eq!(
        rules(Format::Anthropic, &result_after_text),
        [(2, MisplacedToolResult)]
    );
    let thinking_alone = [
        Message::user("u", "a"),
        Message::new("a", Role::Assistant, vec![thinking()]),
    ];
    assert_eq!(
        rules(Format::Anthropic, &thinking_alone),
        [(1, ThinkingSeparated)]
    );
    // A tool-use response that came without thinking, after one that came with it: as
    // Claude Code sends them.
    let thinking_in_some_turns = [
        Message::user("u", "a"),
        Message::new("a", Role::Assistant, vec![thinking(), Part::text("first")]),
        Message::user("u", "b"),
        asks(&["c1"]),
        Message::new("r", Role::User, vec![result("c1")]),
    ];
    assert_eq!(rules(Format::Anthropic, &thinking_in_some_turns), []);
    let thinking_late = [
        Message::user("u", "a"),
        Message::new("a", Role::Assistant, vec![Part::text("x"), thinking()]),
    ];
    assert_eq!(
        rules(Format::Anthropic, &thinking_late),
        [(1, ThinkingSeparated)]
    );
}

#[test]
fn ai_sdk_rules_are_each_caught() {
    use Rule::*;
    let orphan = [
        Message::user("u", "a"),
        Message::tool_result("t", "c1", "x"),
    ];
    assert_eq!(rules(Format::AiSdk, &orphan), [(1, OrphanToolResult)]);
    let unanswered = [asks(&["c1"]), Message::assistant("a", "x")];
    assert_eq!(rules(Format::AiSdk, &unanswered), [(0, UnansweredToolCall)]);
    let in_user = [
        asks(&["c1"]),
        Message::new("r", Role::User, vec![result("c1")]),
    ];
    assert_eq!(rules(Format::AiSdk, &in_user), [(1, MisplacedToolResult)]);
}

#[test]
fn violations_read_well() {
    let v = check(Format::OpenAi, &[Message::tool_result("t", "c1", "x")]).expect_err("orphan");
    assert_eq!(
        v[0].to_string(),
        r#"messages[0]: result for tool call "c1", which no earlier message made (every tool result answers an earlier call, once)"#
    );
}
