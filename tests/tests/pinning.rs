//! Callers can pin: messages named by index survive every level verbatim, a pinned message
//! too large for the window is a `ContextOverflow` naming it, and a conversation that opts
//! out is only assessed.

use compactor::engine::{CompactError, Compactor, Outcome, SkipReason, Status, Trigger};
use compactor::extractive::Extractive;
use compactor::format::{Format, ParseOptions, parse_str};
use compactor::ladder::Level;
use compactor::live::Session;
use compactor::message::{Message, Role};
use compactor::pin::{PinError, Pins};
use compactor_tests::corpus;
use compactor_tests::harness::{Script, Scripted, SimClock, drive_bounded};
use compactor_tests::setup::*;

/// A proactive run with `pins`, answered extractively.
fn run_pinned(
    compactor: &Compactor,
    messages: Vec<Message>,
    pins: &Pins,
) -> Result<Outcome, CompactError> {
    run_triggered(compactor, messages, Trigger::Proactive, pins)
}

fn run_triggered(
    compactor: &Compactor,
    messages: Vec<Message>,
    trigger: Trigger,
    pins: &Pins,
) -> Result<Outcome, CompactError> {
    let mut run = compactor.begin_with("s1", messages, trigger, pins, 0)?;
    drive_bounded(
        &mut run,
        &Scripted::always(Script::Extract),
        &SimClock::default(),
        10_000,
    )
}

/// A message a third of the way in: old, not the task, not a user message.
fn deep_old_index(messages: &[Message]) -> usize {
    (messages.len() / 3..messages.len())
        .find(|&i| messages[i].role == Role::Assistant && messages[i].compactable)
        .expect("an assistant message")
}

#[test]
fn a_pinned_message_deep_in_the_old_part_survives_every_level_verbatim() {
    // Two trajectories whose system prompt and newest turn fit a tenth of their tokens, so
    // that the smallest budget takes the ladder to MAXIMUM rather than to an overflow.
    let files: Vec<(String, String)> = corpus()
        .into_iter()
        .filter(|(name, _)| {
            name == "mini-swe-agent--django-13230.json"
                || name == "marshmallow-code__marshmallow-1867--function_calling.json"
        })
        .collect();
    assert_eq!(files.len(), 2, "the corpus is there");
    for (name, text) in files {
        let conversation = lenient(&text, Format::OpenAi).expect(&name);
        let messages = conversation.messages.clone();
        let pinned = deep_old_index(&messages);
        let item = serde_json::from_str::<serde_json::Value>(&text).expect(&name)[pinned].clone();
        let total = tokens_of(&messages);
        let mut reached_maximum = false;
        for share in [0.5, 0.25, 0.1] {
            let compactor = compactor_for(total, share, |_| {});
            let pins = Pins::indices([pinned]);
            let outcome = run_pinned(&compactor, messages.clone(), &pins)
                .unwrap_or_else(|e| panic!("{name} at {share}: {e}"));
            let levels: Vec<Level> = outcome.report.levels.iter().map(|l| l.level).collect();
            reached_maximum |= levels.contains(&Level::Maximum);
            let kept = outcome
                .messages
                .iter()
                .find(|m| m.id == messages[pinned].id)
                .unwrap_or_else(|| panic!("{name} at {share}: pinned message gone ({levels:?})"));
            assert_eq!(kept.parts, messages[pinned].parts, "{name} at {share}");
            // Written back, it is the caller's own JSON.
            let written = conversation.to_json(&outcome.messages).to_value();
            let items = written.as_array().expect("an array");
            assert!(items.contains(&item), "{name} at {share}: not verbatim");
            // Without the pin, the same run does not keep it as it was: the pin did it.
            let unpinned = run_pinned(&compactor, messages.clone(), &Pins::default())
                .unwrap_or_else(|e| panic!("{name} at {share} unpinned: {e}"));
            let written = conversation.to_json(&unpinned.messages).to_value();
            if share < 0.3 {
                assert!(
                    !written.as_array().expect("an array").contains(&item),
                    "{name} at {share}: the message survives even unpinned"
                );
            }
        }
        assert!(reached_maximum, "{name}: no run reached MAXIMUM");
    }
}

#[test]
fn a_pinned_message_too_large_for_the_window_is_a_context_overflow_naming_it() {
    let mut messages = agent_session(8, 10);
    // A plain assistant message in the old part (not a tool call: its result would be
    // left without it).
    let big = position_of(&messages, "r4");
    messages[big] = Message::assistant("big", "a long analysis ".repeat(2_000));
    let compactor = compactor_for(2_000, 1.0, |_| {});
    match run_pinned(&compactor, messages.clone(), &Pins::indices([big])) {
        Err(CompactError::ContextOverflow {
            offenders, limit, ..
        }) => {
            assert_eq!(offenders[0].id.as_str(), "big");
            assert!(offenders[0].tokens > limit);
        }
        other => panic!("expected ContextOverflow, got {other:?}"),
    }
    // Unpinned, the same message is clipped or summarized away and the run succeeds.
    let outcome = run_pinned(&compactor, messages, &Pins::default()).expect("compacts");
    assert!(
        outcome
            .messages
            .iter()
            .all(|m| m.id.as_str() != "big" || m.text().contains(compactor::prune::CLIP_MARKER))
    );
}

#[test]
fn a_pin_past_the_end_is_an_error_naming_the_option() {
    let messages = agent_session(3, 5);
    let len = messages.len();
    let compactor = compactor_for(1_000, 1.0, |_| {});
    let Err(error) =
        compactor.begin_with("s1", messages, Trigger::Manual, &Pins::indices([len]), 0)
    else {
        panic!("an index past the end is refused");
    };
    assert_eq!(error, CompactError::Pin(PinError { index: len, len }));
    assert!(error.to_string().starts_with("pin: index"), "{error}");
}

#[test]
fn a_conversation_that_opts_out_is_skipped_within_the_absolute_limit() {
    let messages = agent_session(12, 40);
    let total = tokens_of(&messages);
    // The target is 90% of the tokens and the limit above them: a manual run would
    // compact.
    let compactor = compactor_for(total, 0.9, |_| {});
    assert!(compactor.budget().absolute_limit > total);
    let outcome = run_triggered(
        &compactor,
        messages.clone(),
        Trigger::Manual,
        &Pins::none_compactable(),
    )
    .expect("skipped, not failed");
    assert_eq!(
        outcome.status,
        Status::Skipped {
            reason: SkipReason::NotCompactable
        }
    );
    assert_eq!(outcome.messages.len(), messages.len());
    assert!(
        outcome
            .messages
            .iter()
            .zip(&messages)
            .all(|(a, b)| a.parts == b.parts)
    );
    // The same conversation, not opted out, is compacted.
    let compacted =
        run_triggered(&compactor, messages, Trigger::Manual, &Pins::default()).expect("compacts");
    assert!(matches!(compacted.status, Status::Compacted { .. }));
}

#[test]
fn a_conversation_that_opts_out_over_the_absolute_limit_is_a_context_overflow() {
    let messages = agent_session(12, 40);
    let total = tokens_of(&messages);
    let compactor = compactor_for(total, 0.5, |_| {});
    match run_pinned(&compactor, messages.clone(), &Pins::none_compactable()) {
        Err(CompactError::ContextOverflow {
            offenders, tokens, ..
        }) => {
            assert_eq!(tokens, total);
            assert!(offenders.windows(2).all(|w| w[0].tokens >= w[1].tokens));
            let largest = compactor.accountant().count_messages(&messages);
            assert_eq!(Some(&offenders[0].tokens), largest.iter().max());
            assert_eq!(offenders.len(), messages.len());
        }
        other => panic!("expected ContextOverflow, got {other:?}"),
    }
}

#[test]
fn a_session_pin_follows_its_message_through_compactions() {
    let messages = agent_session(20, 40);
    let total = tokens_of(&messages);
    let compactor = compactor_for(total, 0.15, |_| {});
    let pinned = deep_old_index(&messages);
    let id = messages[pinned].id.clone();
    let mut session = Session::new(&compactor, "s1", messages);
    session.pin(&Pins::indices([pinned]), 0).expect("in range");
    let clock = SimClock::default();
    let first = futures_executor::block_on(session.compact(Trigger::Manual, &Extractive, &clock))
        .expect("compacts");
    assert!(matches!(first.status, Status::Compacted { .. }));
    let moved = session
        .messages()
        .iter()
        .position(|m| m.id == id)
        .expect("kept");
    assert_ne!(moved, pinned, "the compaction moved it");
    assert!(!session.messages()[moved].compactable);
    // Another compaction, after more turns: still there.
    session.append(agent_session(20, 40).into_iter().skip(2).map(|mut m| {
        m.id = format!("late-{}", m.id).as_str().into();
        m
    }));
    futures_executor::block_on(session.compact(Trigger::Manual, &Extractive, &clock))
        .expect("compacts again");
    assert!(session.messages().iter().any(|m| m.id == id));
}

#[test]
fn a_session_that_opts_out_pins_what_is_appended_later() {
    let messages = agent_session(4, 10);
    let compactor = compactor_for(tokens_of(&messages), 0.5, |_| {});
    let mut session = Session::new(&compactor, "s1", messages);
    session.pin(&Pins::none_compactable(), 0).expect("no index");
    session.append([Message::user("later", "one more thing")]);
    assert!(!session.compactable());
    assert!(session.messages().iter().all(|m| !m.compactable));
}

/// An AI SDK agent conversation of `turns` tool calls with long results, the message at
/// `marked` carrying the pin marker.
fn ai_sdk_session(turns: usize, marked: usize) -> String {
    let mut items = vec![
        serde_json::json!({"role": "system", "content": "You are a coding agent."}),
        serde_json::json!({"role": "user", "content": "Fix the failing test in src/lib.rs."}),
    ];
    for i in 0..turns {
        let body = (0..60)
            .map(|w| format!("line {w} of output for src/module_{i}.py"))
            .collect::<Vec<_>>()
            .join("\n");
        items.push(serde_json::json!({"role": "assistant", "content": [
            {"type": "text", "text": format!("Step {i}: running the tests.")},
            {"type": "tool-call", "toolCallId": format!("c{i}"), "toolName": "bash",
             "input": {"command": format!("pytest tests/test_{i}.py")}}]}));
        items.push(serde_json::json!({"role": "tool", "content": [
            {"type": "tool-result", "toolCallId": format!("c{i}"), "toolName": "bash",
             "output": {"type": "text", "value": body}}]}));
    }
    items.push(serde_json::json!({"role": "assistant", "content": "Done."}));
    items[marked]["providerOptions"] = serde_json::json!({"compactor": {"pin": true}});
    serde_json::to_string(&items).expect("JSON")
}

#[test]
fn the_ai_sdk_marker_pins_a_message_and_goes_back_with_it() {
    let marked = 7; // a tool result, three turns in
    let text = ai_sdk_session(12, marked);
    let conversation = parse_str(&text, Format::AiSdk, ParseOptions::default()).expect("parses");
    assert!(!conversation.messages[marked].compactable);
    assert!(conversation.messages[marked - 1].compactable);
    let item = serde_json::from_str::<serde_json::Value>(&text).expect("JSON")[marked].clone();
    let total = tokens_of(&conversation.messages);
    let compactor = compactor_for(total, 0.2, |_| {});
    let outcome =
        run_pinned(&compactor, conversation.messages.clone(), &Pins::default()).expect("compacts");
    assert!(matches!(outcome.status, Status::Compacted { .. }));
    let written = conversation.to_json(&outcome.messages).to_string();
    assert!(written.contains(&serde_json::to_string(&item).expect("JSON")));
    // The marker's neighbour, not marked, was compacted.
    let neighbour =
        serde_json::from_str::<serde_json::Value>(&text).expect("JSON")[marked + 2].clone();
    assert!(!written.contains(&serde_json::to_string(&neighbour).expect("JSON")));
}

#[test]
fn a_marker_pin_that_is_not_a_boolean_is_an_error_at_its_path() {
    let text = r#"[{"role":"user","content":"hi","providerOptions":{"compactor":{"pin":"yes"}}}]"#;
    let error = parse_str(text, Format::AiSdk, ParseOptions::default()).expect_err("refused");
    assert_eq!(error.path, "messages[0].providerOptions.compactor.pin");
    assert_eq!(error.message, "expected true or false, found a string");
}
