//! The ladder driven by the scripted harness: what each level does, skips and the
//! async driver.

use std::sync::atomic::Ordering;
use std::time::Duration;

use compactor::budget::BudgetConfig;
use compactor::driver::drive;
use compactor::engine::{CompactError, CompactionConfig, Compactor, Event, Status, Trigger};
use compactor::ladder::Level;
use compactor::message::{Message, Role, ToolCall};
use compactor::prune::is_clipped;
use compactor_tests::harness::{RealClock, Script, Scripted, SimClock, drive_bounded};
use compactor_tests::setup::*;

/// A run to `share` of the tokens of `messages` whose summarizer fails if it is asked.
fn without_summaries(
    messages: &[Message],
    share: f64,
) -> (Result<compactor::engine::Outcome, CompactError>, Vec<Event>) {
    let compactor = compactor_for(tokens_of(messages), share, |_| {});
    run_with(
        &compactor,
        messages.to_vec(),
        Trigger::Proactive,
        &Scripted::always(Script::Fail("unused".into())),
    )
}

#[test]
fn light_clears_old_tool_results_when_that_is_enough() {
    let messages = agent_session(12, 40);
    let (result, events) = without_summaries(&messages, 0.7);
    let outcome = result.expect("compacts");
    assert_eq!(outcome.status, Status::Compacted { target_met: true });
    assert_eq!(
        outcome
            .report
            .levels
            .iter()
            .map(|l| l.level)
            .collect::<Vec<_>>(),
        [Level::Light]
    );
    assert_eq!(
        outcome.messages.len(),
        messages.len(),
        "LIGHT keeps every message"
    );
    assert!(
        outcome
            .messages
            .iter()
            .any(|m| m.text().contains("cleared by compactor"))
    );
    assert!(events.iter().any(|e| matches!(
        e,
        Event::LevelEntered {
            level: Level::Light,
            ..
        }
    )));
    assert_sound(&messages, &outcome);
}

/// An agent reading a file a turn, each output long enough for LIGHT to clear.
fn file_reads(turns: usize) -> Vec<Message> {
    let mut messages = vec![
        Message::system("sys", "You are a coding agent."),
        Message::user("task", "Find the bug."),
    ];
    for i in 0..turns {
        let call = ToolCall {
            id: format!("call{i}"),
            name: "read_file".into(),
            arguments: format!("{{\"path\":\"src/m{i}.rs\"}}"),
        };
        messages.push(Message::assistant_calls(
            format!("a{i}").as_str(),
            None,
            [call],
        ));
        let body: String = (0..120)
            .map(|n| format!("src/m{i}.rs:{n}: let value_{n} = compute({n});\n"))
            .collect();
        messages.push(Message::tool_result(
            format!("t{i}").as_str(),
            format!("call{i}"),
            body,
        ));
    }
    messages
}

#[test]
fn a_summary_of_cleared_outputs_quotes_their_lines_not_their_placeholders() {
    // An earlier run's LIGHT left placeholders in the conversation; a later run folds
    // them into a summary. The summary's trail keeps the outputs' lines the placeholders
    // kept, never a placeholder's own first line ("[output of read_file cleared by compactor
    // …]"): compactor's words about a message it rewrote are not what that message said.
    let messages = file_reads(16);
    let (light, _) = without_summaries(&messages, 0.7);
    let cleared = light.expect("LIGHT compacts").messages;
    let placeholders = cleared
        .iter()
        .filter(|m| m.text().contains("cleared by compactor"))
        .count();
    assert!(placeholders >= 2, "{placeholders} placeholders");
    let compactor = summarizing_compactor(&cleared, 0.3, |_| {});
    let answer = Script::Text("The agent ran the tests module by module.".into());
    let (result, _) = run_with(
        &compactor,
        cleared.clone(),
        Trigger::Proactive,
        &Scripted::always(answer),
    );
    let outcome = result.expect("compacts");
    assert_sound(&cleared, &outcome);
    let summaries: Vec<String> = outcome
        .messages
        .iter()
        .filter(|m| m.is_compaction())
        .map(Message::text)
        .collect();
    assert!(!summaries.is_empty(), "no summary");
    for summary in &summaries {
        assert!(!summary.contains("cleared by compactor"), "{summary}");
    }
    // What the placeholders kept of the outputs is still quoted.
    assert!(
        summaries.iter().any(|s| s.contains("let value_")),
        "{summaries:?}"
    );
}

/// A text-action agent's run (mini-swe-agent's fenced blocks, SWE-agent's `<function=…>`
/// calls): each command ends an assistant message, its output is the next user message.
fn text_action_run() -> Vec<Message> {
    let mut messages = vec![
        Message::system(
            "sys",
            "You are a coding agent. End each answer with one command.",
        ),
        Message::user("task", "Fix the failing test in src/lib.rs."),
    ];
    for i in 0..12 {
        let command = if i % 2 == 0 {
            format!("Looking at module {i}.\n\n```bash\npytest tests/test_{i}.py\n```")
        } else {
            format!(
                "Viewing it.\n\n<function=str_replace_editor>\n<parameter=command>view</parameter>\n\
                 <parameter=path>/testbed/src/module_{i}.py</parameter>\n</function>"
            )
        };
        messages.push(Message::assistant(format!("a{i}").as_str(), &command));
        let output = (0..40)
            .map(|w| format!("row {w} of output from src/module_{i}/part_{w:02}.py"))
            .collect::<Vec<_>>()
            .join("\n");
        messages.push(Message::user(format!("o{i}").as_str(), &output));
    }
    messages
}

#[test]
fn summaries_read_outputs_as_placeholders_and_keep_their_facts() {
    // The summarizer reads each output as its fact-keeping placeholder (the command and
    // the paths it had room for), not whole; whatever it answers, the summary's trail
    // carries the outputs' facts, read from the outputs themselves.
    let messages = text_action_run();
    let answer = Script::Text("The agent ran the tests module by module.".into());
    for summarize_outputs in [false, true] {
        let compactor = summarizing_compactor(&messages, 0.3, |c| {
            c.summarize_outputs = summarize_outputs;
        });
        let scripted = Scripted::always(answer.clone());
        let (result, _) = run_with(&compactor, messages.clone(), Trigger::Proactive, &scripted);
        let outcome = result.expect("compacts");
        assert_sound(&messages, &outcome);
        let seen = scripted.seen.lock().expect("seen");
        let read: String = seen
            .iter()
            .flat_map(|r| &r.prompt)
            .map(|p| p.content.as_str())
            .collect();
        assert!(read.contains("src/module_0/part_00.py"), "{read}");
        if summarize_outputs {
            assert!(read.contains("row 7 of output from src/module_0"), "{read}");
        } else {
            assert!(
                !read.contains("row 7 of output"),
                "outputs read whole: {read}"
            );
            assert!(read.contains("cleared by compactor"), "{read}");
            assert!(read.contains("$ pytest tests/test_0.py"), "{read}");
            assert!(
                read.contains("$ str_replace_editor view /testbed/src/module_1.py"),
                "{read}"
            );
        }
        let summaries: String = outcome
            .messages
            .iter()
            .filter(|m| m.is_compaction())
            .map(Message::text)
            .collect();
        if !summarize_outputs {
            // Paths the placeholders had no room for, kept by the trail.
            let beyond = (0..12)
                .flat_map(|m| (0..40).map(move |w| format!("src/module_{m}/part_{w:02}.py")))
                .filter(|p| summaries.contains(p.as_str()) && !read.contains(p.as_str()))
                .count();
            assert!(
                beyond > 5,
                "{beyond} paths beyond the placeholder: {summaries}"
            );
        }
    }
}

#[test]
fn observations_are_folded_with_their_commands_not_kept_as_the_users_words() {
    // A text-action agent's outputs come back as user messages, but they are not the
    // user's words: short ones (an empty output, a return code) are not kept verbatim
    // between the task and the raw tail, where each would split the summary in two and
    // stand before the summary of its own command.
    let mut messages = text_action_run();
    for (i, message) in messages.iter_mut().enumerate() {
        if message.role == Role::User && i % 4 == 1 && i > 1 {
            *message = Message::user(message.id.as_str(), "<returncode>0</returncode>");
        }
    }
    for share in [0.5, 0.3] {
        let compactor = summarizing_compactor(&messages, share, |_| {});
        let (result, _) = run_extracting(&compactor, messages.clone(), Trigger::Proactive);
        let outcome = result.unwrap_or_else(|e| panic!("at {share}: {e}"));
        assert_sound(&messages, &outcome);
        let summaries = outcome
            .messages
            .iter()
            .filter(|m| m.is_compaction())
            .count();
        assert_eq!(summaries, 1, "at {share}: {:#?}", outcome.messages);
        assert!(
            outcome.messages[2].is_compaction(),
            "at {share}: an output kept before the summary of its command: {:#?}",
            outcome.messages
        );
    }
}

#[test]
fn a_summary_never_spans_a_message_kept_between_what_it_covers() {
    // A turn whose user message is not kept verbatim holds an earlier summary before its
    // answer: MODERATE summarizes the two around it separately, or the new summary would
    // stand before the older one, and folding both later would put events out of order
    // (the run was refused by validation).
    use compactor::ladder::Level;
    use compactor::message::MessageId;
    use compactor::prune::summary_message;
    let earlier = |n: &str| {
        summary_message(
            &format!("Earlier: looked at src/{n}.py, found 42 tests."),
            vec![
                MessageId::new(format!("{n}-1")),
                MessageId::new(format!("{n}-2")),
            ],
            Level::Aggressive,
            "k",
            2,
        )
    };
    let words = |n: usize, what: &str| {
        (0..n)
            .map(|w| format!("{what} {w} in src/file_{w}.py"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let mut messages = vec![
        Message::system("sys", "You are a coding agent."),
        Message::user("task", "Fix the failing test in src/lib.rs."),
        earlier("old"),
        Message::assistant("a1", words(60, "first look")),
        Message::user("u2", words(80, "pasted log line")),
        earlier("older"),
        Message::assistant("a2", words(60, "second look")),
    ];
    for i in 3..9 {
        messages.push(Message::user(format!("u{i}").as_str(), words(40, "more")));
        messages.push(Message::assistant(
            format!("a{i}").as_str(),
            words(40, "reply"),
        ));
    }
    for share in [0.7, 0.5, 0.3] {
        let compactor = compactor_for(tokens_of(&messages), share, |c| {
            c.max_preserved_user_tokens = 10;
        });
        let (result, _) = run_extracting(&compactor, messages.clone(), Trigger::Proactive);
        let outcome = result.unwrap_or_else(|e| panic!("at {share}: {e}"));
        assert_sound(&messages, &outcome);
        // Every kept message and every message a new summary covers, at its original place.
        let place = |id: &MessageId| messages.iter().position(|m| &m.id == id);
        let order: Vec<usize> = outcome
            .messages
            .iter()
            .flat_map(|m| match (place(&m.id), &m.compaction) {
                (Some(i), _) => vec![i],
                (None, Some(meta)) => meta.covers.iter().filter_map(place).collect(),
                (None, None) => panic!("at {share}: {} came from nowhere", m.id),
            })
            .collect();
        assert!(order.is_sorted(), "at {share}: out of order {order:?}");
    }
}

#[test]
fn light_clips_the_last_result_it_needs_to_just_enough() {
    // An old result far larger than the target needs cleared: clearing it whole would land
    // far under the target; its head and tail stay, the middle clipped to what is needed.
    let mut messages = agent_session(12, 40);
    let big = position_of(&messages, "t2");
    let body = (0..400)
        .map(|w| format!("row {w} of the dump of src/module_2.py value {}", w * 7))
        .collect::<Vec<_>>()
        .join("\n");
    messages[big] = Message::tool_result("t2", "call2", body);
    let (result, _) = without_summaries(&messages, 0.8);
    let outcome = result.expect("compacts");
    assert_eq!(outcome.status, Status::Compacted { target_met: true });
    let target = outcome.report.target_tokens;
    let tokens = tokens_of(&outcome.messages);
    assert!(
        tokens as f64 >= 0.95 * target as f64 && tokens <= target,
        "{tokens} tokens for a target of {target}"
    );
    let kept = outcome.messages[big].text();
    assert!(kept.contains(compactor::prune::CLIP_MARKER), "{kept}");
    let last_row = "row 399 of the dump of src/module_2.py value 2793";
    assert!(
        kept.starts_with("row 0 of the dump") && kept.ends_with(last_row),
        "{kept}"
    );
    assert!(
        outcome.messages[..big]
            .iter()
            .filter(|m| m.text().contains("cleared by compactor"))
            .count()
            == 2,
        "the two results before it are cleared"
    );
    assert_sound(&messages, &outcome);
}

#[test]
fn the_message_signal_alone_folds_only_the_turns_it_must() {
    // Many short turns, far under the token target: only the message count is over. The
    // running summary folds the oldest turns and keeps as many recent ones raw as the
    // message target allows, rather than folding the tail too at MAXIMUM.
    let messages = agent_session(60, 3);
    let compactor = compactor_for(tokens_of(&messages), 4.0, |c| {
        c.budget.max_messages = Some(50);
    });
    let assessment = compactor.assess(&messages);
    let target = assessment
        .target
        .messages
        .expect("the message signal fired");
    assert!(!assessment.signals.over_trigger, "tokens are not over");
    let (result, _) = run_extracting(&compactor, messages.clone(), Trigger::Proactive);
    let outcome = result.expect("compacts");
    assert_eq!(outcome.status, Status::Compacted { target_met: true });
    let levels: Vec<Level> = outcome.report.levels.iter().map(|l| l.level).collect();
    assert_eq!(levels.last(), Some(&Level::Aggressive), "{levels:?}");
    let kept = outcome.messages.len();
    assert!(
        kept <= target && kept + 3 >= target,
        "{kept} messages for a target of {target} (from {})",
        messages.len()
    );
    assert_sound(&messages, &outcome);
}

#[test]
fn moderate_summarizes_old_segments_in_parallel_and_keeps_user_messages() {
    let messages = agent_session(20, 40);
    let compactor = summarizing_compactor(&messages, 0.5, |_| {});
    let scripted = Scripted::always(Script::Extract);
    let mut run = begin(&compactor, messages.clone());
    // LIGHT clears nothing (threshold unreachable); MODERATE hands out all its requests at once.
    let compactor::engine::Step::Summarize(requests) = run.poll() else {
        panic!("expected requests")
    };
    assert!(requests.len() >= 3, "{} requests", requests.len());
    assert!(
        requests
            .iter()
            .all(|r| r.level == Level::Moderate && r.model.as_deref() == Some("gpt-4o"))
    );
    // Summaries are asked for a share of what they cover, terser with age: at most 40%,
    // and 15% for segments eight turns old or more; the newest, whose summary meets the
    // target, may take the room the others leave under it (at most three quarters of
    // what it covers), so that the run cuts just enough.
    let share = |r: &compactor::engine::SummaryRequest| {
        r.max_output_tokens as f64 / r.input_tokens.max(1) as f64
    };
    let sizes: Vec<_> = requests
        .iter()
        .map(|r| (r.age, r.input_tokens, r.max_output_tokens))
        .collect();
    let (newest, older) = requests.split_last().expect("requests");
    assert!(share(newest) <= 0.75, "{sizes:?}");
    for request in older {
        let most = if request.age >= 8 { 0.15 } else { 0.4 };
        assert!(
            share(request) <= most
                || request.max_output_tokens == compactor::engine::MIN_SUMMARY_TOKENS,
            "older segments are asked for terser summaries: {sizes:?}"
        );
    }
    for request in requests {
        let answer = Scripted::answer(&Script::Extract, &request).expect("answers");
        run.complete(request.id, answer, 0).expect("known request");
    }
    let outcome = drive_bounded(&mut run, &scripted, &SimClock::default(), 1000).expect("compacts");
    assert!(
        outcome
            .report
            .levels
            .iter()
            .any(|l| l.level == Level::Moderate && l.requests >= 3)
    );
    let kept_users = outcome
        .messages
        .iter()
        .filter(|m| m.id.as_str().starts_with('u'))
        .count();
    assert!(kept_users > 0, "user messages survive verbatim");
    assert_sound(&messages, &outcome);
}

#[test]
fn a_segment_far_larger_than_the_rest_is_folded_without_the_older_ones() {
    // An agent that looped on one answer: a message holding half the run, well after its
    // start. Folding it meets the target; the older segments stay raw, not folded with it.
    let mut messages = agent_session(20, 40);
    let at = position_of(&messages, "r14");
    let loop_text = "Wait, is it `msubsup` or `mmsubsup`? I am confused.\n".repeat(500);
    messages[at] = Message::assistant("r14", loop_text.as_str());
    let compactor = summarizing_compactor(&messages, 0.6, |_| {});
    let (outcome, _) = run_with(
        &compactor,
        messages.clone(),
        Trigger::Proactive,
        &Scripted::always(Script::Extract),
    );
    let outcome = outcome.expect("compacts");
    assert!(
        !outcome.messages.iter().any(|m| m.id.as_str() == "r14"),
        "the loop is folded"
    );
    assert!(
        outcome.messages.iter().any(|m| m.id.as_str() == "t1"),
        "an old segment stays raw"
    );
    assert!(
        outcome.report.tokens_after * 100 >= outcome.report.target_tokens * 85,
        "{} of {}: {:?}\n{:?}",
        outcome.report.tokens_after,
        outcome.report.target_tokens,
        outcome.report.levels,
        outcome
            .messages
            .iter()
            .map(|m| m.id.as_str().to_owned())
            .collect::<Vec<_>>()
    );
    assert_sound(&messages, &outcome);
}

#[test]
fn aggressive_and_maximum_reach_small_targets() {
    let messages = agent_session(30, 30);
    let total = tokens_of(&messages);
    for share in [0.5, 0.25, 0.1] {
        let compactor = compactor_for(total, share, |_| {});
        let (result, _) = run_extracting(&compactor, messages.clone(), Trigger::Proactive);
        let outcome = result.unwrap_or_else(|e| panic!("share {share}: {e}"));
        assert!(
            matches!(outcome.status, Status::Compacted { .. }),
            "{:?}",
            outcome.status
        );
        assert_sound(&messages, &outcome);
        let target = outcome.report.target_tokens;
        let last = outcome.report.levels.last().expect("levels").level;
        assert!(
            outcome.report.tokens_after <= target || last == Level::Maximum,
            "share {share}: {} > {target} at {last}",
            outcome.report.tokens_after
        );
    }
}

#[test]
fn skips_are_outcomes_not_errors() {
    let small = agent_session(2, 2);
    let compactor = compactor_for(100_000, 1.0, |_| {});
    let (result, _) = run_extracting(&compactor, small.clone(), Trigger::Proactive);
    assert_eq!(
        result.expect("skip").status,
        Status::Skipped {
            reason: compactor::engine::SkipReason::BelowTrigger
        }
    );
    let few = compactor_for(100_000, 1.0, |c| c.min_messages = 100);
    let (result, _) = run_extracting(&few, small.clone(), Trigger::Proactive);
    assert_eq!(
        result.expect("skip").status,
        Status::Skipped {
            reason: compactor::engine::SkipReason::TooFewMessages
        }
    );
    let pinned: Vec<Message> = small
        .iter()
        .cloned()
        .map(|m| m.with_compactable(false))
        .collect();
    let (result, _) = run_extracting(&compactor, pinned, Trigger::Manual);
    assert_eq!(
        result.expect("skip").status,
        Status::Skipped {
            reason: compactor::engine::SkipReason::NotCompactable
        }
    );
    assert!(matches!(
        compactor.begin("s", vec![], Trigger::Manual, 0),
        Err(CompactError::NoMessagesToCompact)
    ));
}

#[test]
fn pinned_messages_too_large_for_the_window_are_a_context_overflow() {
    let mut messages = agent_session(6, 10);
    messages[1] = Message::user("task", "requirement ".repeat(3_000)).with_compactable(false);
    let compactor = compactor_for(2_000, 1.0, |_| {});
    let (result, _) = run_extracting(&compactor, messages, Trigger::Proactive);
    match result {
        Err(CompactError::ContextOverflow { offenders, .. }) => {
            assert_eq!(offenders[0].id.as_str(), "task")
        }
        other => panic!("expected an overflow naming the pinned task, got {other:?}"),
    }
}

#[test]
fn reactive_runs_compact_even_when_the_count_fits() {
    let messages = agent_session(20, 40);
    let compactor = compactor_for(tokens_of(&messages), 2.0, |_| {});
    let (result, events) = run_extracting(&compactor, messages, Trigger::Reactive);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::ReactiveOverride { .. }))
    );
    assert!(matches!(
        result.expect("compacts").status,
        Status::Compacted { .. }
    ));
}

/// A reactive run's cut counts however small: the provider refused the input, so the
/// same input handed back would only be sent again. The same cut is `NoProgress` for a
/// manual run, which `min_reduction` still gates.
#[test]
fn reactive_runs_return_a_smaller_conversation_even_under_min_reduction() {
    let messages = agent_session(20, 40);
    let before = tokens_of(&messages);
    let compactor = compactor_for(before, 2.0, |c| c.min_reduction = 0.9);
    let (result, _) = run_extracting(&compactor, messages.clone(), Trigger::Manual);
    assert_eq!(result.expect("manual run").status, Status::NoProgress);
    let (result, _) = run_extracting(&compactor, messages.clone(), Trigger::Reactive);
    let outcome = result.expect("reactive run");
    assert!(
        matches!(outcome.status, Status::Compacted { .. }),
        "{:?}",
        outcome.status
    );
    assert!(
        outcome.report.tokens_after < before,
        "{} → {}",
        before,
        outcome.report.tokens_after
    );
    assert_sound(&messages, &outcome);
}

/// A reactive run that cannot make the conversation any smaller (what is compactable is
/// too small to fold) fails with `ContextOverflow` naming what remains, largest first,
/// instead of handing the refused conversation back.
#[test]
fn a_reactive_run_that_cannot_cut_is_a_context_overflow() {
    let messages = vec![
        Message::system("sys", "rule ".repeat(2_000)),
        Message::user("task", "Fix it."),
        Message::assistant("a1", "Done."),
        Message::user("u2", "Thanks."),
    ];
    let compactor = compactor_for(tokens_of(&messages), 2.0, |_| {});
    let (result, _) = run_extracting(&compactor, messages, Trigger::Reactive);
    match result {
        Err(CompactError::ContextOverflow { offenders, .. }) => {
            assert_eq!(offenders[0].id.as_str(), "sys")
        }
        other => panic!(
            "expected an overflow naming the system prompt, got {:?}",
            other.map(|o| (o.status, o.report.tokens_after))
        ),
    }
}

#[test]
fn summary_requests_carry_the_configured_summary_model() {
    let messages = agent_session(20, 40);
    let compactor = summarizing_compactor(&messages, 0.25, |c| {
        c.summary_model = Some("gpt-4o-mini".into());
        c.summary_provider = Some("openai".into());
    });
    let scripted = Scripted::always(Script::Extract);
    run_with(&compactor, messages, Trigger::Proactive, &scripted)
        .0
        .expect("compacts");
    let seen = scripted.seen.lock().expect("seen");
    assert!(
        seen.iter()
            .all(|r| r.model.as_deref() == Some("gpt-4o-mini")
                && r.provider.as_deref() == Some("openai"))
    );
}

#[test]
fn a_summary_in_one_piece_can_be_sent_as_a_continuation_of_the_conversation() {
    // Assistant messages with words, and of tool calls alone.
    for messages in [agent_session(20, 40), file_reads(20)] {
        continued_as_the_conversation(&messages);
    }
    let messages = agent_session(20, 40);

    // Another summary model reads no cache of this conversation: no continuation.
    let other = summarizing_compactor(&messages, 0.25, |c| {
        c.summary_model = Some("gpt-4o-mini".into());
    });
    let scripted = Scripted::always(Script::Extract);
    run_with(&other, messages, Trigger::Proactive, &scripted)
        .0
        .expect("compacts");
    let seen = scripted.seen.lock().expect("seen");
    assert!(!seen.is_empty());
    assert!(seen.iter().all(|r| r.continuation.is_none()));
}

/// Runs a compaction of `messages` to 70% of their tokens (the conversation fits the
/// window, as where a session compacts before a call) and checks every continuation its
/// requests offer: the conversation as given up to the last message folded, an
/// instruction that names where the summary starts, within the window.
fn continued_as_the_conversation(messages: &[Message]) {
    let compactor = summarizing_compactor(messages, 0.7, |_| {});
    let scripted = Scripted::always(Script::Extract);
    let outcome = run_with(&compactor, messages.to_vec(), Trigger::Proactive, &scripted)
        .0
        .expect("compacts");
    let seen = scripted.seen.lock().expect("seen");
    let accountant = compactor.accountant();
    let mut continued = 0;
    for request in seen.iter() {
        let Some(continuation) = &request.continuation else {
            continue;
        };
        continued += 1;
        // The prefix is the conversation as given, up to the last message folded: every
        // message it covers, none of the raw tail the result keeps.
        let prefix = &messages[..continuation.messages];
        assert!(
            request
                .covers
                .iter()
                .all(|id| prefix.iter().any(|m| &m.id == id))
        );
        let tail = outcome.messages.last().expect("a tail");
        assert!(!prefix.iter().any(|m| m.id == tail.id));
        assert_eq!(
            continuation.prefix_tokens,
            accountant.count_messages(prefix).iter().sum::<u64>()
        );
        // The instruction names where the summary starts: the first message it covers (a
        // message of tool calls alone reads as its calls).
        let first = prefix
            .iter()
            .find(|m| request.covers.contains(&m.id))
            .expect("a covered message");
        let text = first.text();
        let opening: Vec<&str> = text.split_whitespace().take(5).collect();
        assert!(!opening.is_empty());
        assert!(
            // (its double quotes made single, inside the instruction's quotes)
            continuation
                .instruction
                .contains(&opening.join(" ").replace('"', "'")),
            "{}",
            continuation.instruction
        );
        assert!(continuation.instruction.contains("call no tool"));
        assert!(
            continuation.prefix_tokens + continuation.instruction_tokens
                <= compactor.budget().max_context_tokens
        );
    }
    // Each in one piece, first asked, within the window: every request offers one.
    assert!(continued > 0);
    assert_eq!(continued, seen.len(), "a request offered no continuation");
}

#[test]
fn a_run_that_cannot_cut_enough_reports_no_progress() {
    let messages = agent_session(6, 3);
    let compactor = compactor_for(tokens_of(&messages), 0.99, |c| c.min_reduction = 0.9);
    let (result, _) = run_extracting(&compactor, messages.clone(), Trigger::Manual);
    let outcome = result.expect("outcome");
    assert_eq!(outcome.status, Status::NoProgress);
    assert_eq!(outcome.messages, messages);
}

/// MODERATE's requests run concurrently: all k are in the summarizer at once. (Its wall
/// time, about L rather than k·L, is measured by the `moderate` benchmark, not here: this
/// machine is shared and timings in tests are noise.)
#[test]
fn moderate_requests_are_all_in_flight_at_once() {
    let messages = agent_session(20, 40);
    let compactor = summarizing_compactor(&messages, 0.5, |c| c.max_concurrency = 64);
    let scripted = Scripted::always(Script::Extract).with_latency(Duration::from_millis(20));
    let mut run = begin(&compactor, messages);
    // The requests of MODERATE's first round: those issued before any is answered (a
    // second round, when the first's summaries come back short of the target, is another
    // batch).
    let mut k = 0;
    let mut answered = false;
    let outcome = futures_executor::block_on(drive(
        &mut run,
        &scripted,
        &RealClock::default(),
        &mut |event| match event {
            Event::RequestIssued {
                level: Level::Moderate,
                ..
            } if !answered => k += 1,
            Event::RequestAnswered { .. } => answered = true,
            _ => {}
        },
    ))
    .expect("compacts");
    assert!(k >= 3, "{k}");
    assert_eq!(scripted.max_in_flight.load(Ordering::SeqCst), k);
    assert!(matches!(outcome.status, Status::Compacted { .. }));
    // Bounded: with a limit of 2, never more than 2 at once.
    let bounded = Scripted::always(Script::Extract).with_latency(Duration::from_millis(5));
    let compactor = summarizing_compactor(&agent_session(20, 40), 0.5, |c| c.max_concurrency = 2);
    let mut run = compactor
        .begin("s2", agent_session(20, 40), Trigger::Proactive, 0)
        .expect("begin");
    futures_executor::block_on(drive(
        &mut run,
        &bounded,
        &RealClock::default(),
        &mut |_| {},
    ))
    .expect("compacts");
    assert_eq!(bounded.max_in_flight.load(Ordering::SeqCst), 2);
}

#[test]
fn inputs_larger_than_the_summarizers_window_are_map_reduced() {
    let messages = agent_session(30, 30);
    // The tool outputs read whole, so that the input outgrows the summarizer's window.
    let compactor = summarizing_compactor(&messages, 0.1, |c| {
        c.summarizer_input_tokens = 2_000;
        c.summarize_outputs = true;
    });
    let scripted = Scripted::always(Script::Extract);
    let (result, events) = run_with(&compactor, messages.clone(), Trigger::Proactive, &scripted);
    let outcome = result.expect("compacts");
    assert_sound(&messages, &outcome);
    let seen = scripted.seen.lock().expect("seen");
    let sizes: Vec<(u64, usize, String)> = seen
        .iter()
        .map(|r| (r.input_tokens, r.covers.len(), r.level.to_string()))
        .collect();
    assert!(
        seen.iter().all(|r| r.input_tokens <= 2_000 + 600),
        "every request fits the window (plus the instruction): {sizes:?}"
    );
    let reduces = seen
        .iter()
        .filter(|r| r.prompt[0].content.contains("Merge the partial summaries"))
        .count();
    assert!(reduces >= 1, "chunk summaries were merged");
    assert!(events.iter().any(|e| matches!(
        e,
        Event::LevelLeft {
            level: Level::Aggressive | Level::Maximum,
            ..
        }
    )));
}

#[test]
fn the_async_driver_delivers_every_event_the_last_included() {
    let messages = agent_session(20, 40);
    let compactor = summarizing_compactor(&messages, 0.5, |_| {});
    let mut run = begin(&compactor, messages);
    let mut seen = Vec::new();
    futures_executor::block_on(drive(
        &mut run,
        &Scripted::always(Script::Extract),
        &SimClock::default(),
        &mut |e: &Event| seen.push(e.clone()),
    ))
    .expect("compacts");
    assert!(matches!(seen.first(), Some(Event::Assessed { .. })));
    assert!(matches!(seen.last(), Some(Event::Finished { .. })));
    let entered = seen
        .iter()
        .filter(|e| matches!(e, Event::LevelEntered { .. }))
        .count();
    let left = seen
        .iter()
        .filter(|e| matches!(e, Event::LevelLeft { .. }))
        .count();
    assert_eq!(entered, left, "every level entered is left");
}

/// A pinned system prompt larger than the target: the target cannot be met, and the newest
/// turn, which fits under the absolute limit beside it, stays whole — protected messages
/// are clipped only when the absolute limit requires it.
#[test]
fn protected_messages_are_clipped_only_for_the_absolute_limit() {
    let policy = "Refunds need an order number and a reason. ".repeat(120);
    let mut messages = vec![Message::system("sys", policy.as_str())];
    for i in 0..20 {
        messages.push(Message::user(
            format!("u{i}").as_str(),
            format!("Order {i}: where is parcel 4411{i}? It was due on Monday, and the tracking page still says it is in the depot."),
        ));
        messages.push(Message::assistant(
            format!("a{i}").as_str(),
            format!("Parcel 4411{i} left the depot this morning and arrives in two days; I sent the tracking link."),
        ));
    }
    // The newest answer is long enough to clip (the engine never clips below 64 tokens).
    messages.push(Message::user("u20", "And the refund for order 7?"));
    messages.push(Message::assistant(
        "a20",
        "The refund for order 7 was approved: 129.90 will reach the card ending 4242 within five working days, and the confirmation was sent to the address on the order. ".repeat(3),
    ));
    let system = tokens_of(&messages[..1]);
    // The target (75% of the window) is under the system prompt; the window is not.
    let window = system * 13 / 10;
    let compactor = Compactor::new(CompactionConfig {
        budget: BudgetConfig {
            model: Some("gpt-4o".into()),
            max_context_tokens: Some(window),
            output_reserve: Some(0),
            max_messages: None,
            ..BudgetConfig::default()
        },
        ..CompactionConfig::default()
    })
    .expect("valid numbers");
    assert!(compactor.budget().target_tokens < system);
    let (result, _) = run_extracting(&compactor, messages.clone(), Trigger::Proactive);
    let outcome = result.expect("fits under the absolute limit");
    assert_eq!(outcome.status, Status::Compacted { target_met: false });
    assert!(outcome.report.tokens_after <= compactor.budget().absolute_limit);
    let newest = messages.last().expect("messages");
    assert!(
        outcome.messages.contains(newest),
        "the newest turn was clipped: {:?}",
        outcome.messages.last()
    );
    assert!(outcome.messages.contains(&messages[0]));
    let clipped: Vec<&str> = outcome
        .messages
        .iter()
        .filter(|m| m.text().contains("clipped from the middle"))
        .map(|m| m.id.as_str())
        .collect();
    assert!(
        clipped.is_empty(),
        "clipped for the target alone: {clipped:?}"
    );
}

/// A call reading `src/module_{i}.rs`.
fn read_call(i: usize) -> compactor::message::ToolCall {
    compactor::message::ToolCall {
        id: format!("call{i}"),
        name: "bash".into(),
        arguments: format!("{{\"command\":\"cat src/module_{i}.rs\"}}"),
    }
}

/// What reading `src/module_{i}.rs` printed.
fn file_body(i: usize) -> String {
    (0..120)
        .map(|w| format!("line {w} of src/module_{i}.rs value {}", w * i))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn injected_context_and_the_newest_words_beside_tool_results_stay_verbatim() {
    // Codex opens with injected context; Claude Code merges an interrupted tool's result,
    // the interruption notice and the user's new instruction into one user message, which
    // the agent's work then pushes out of the tail. At every budget the context and the
    // task stay (the task is the first request the user wrote), and so does the message
    // carrying the newest words, however old. LIGHT is off: summaries do the work.
    use compactor::message::{Part, ToolResult};
    let mut messages = vec![
        Message::system("sys", "You are a coding agent."),
        Message::user(
            "agents",
            "# AGENTS.md instructions for /repo\n\n<INSTRUCTIONS>\nRun cargo fmt.\n</INSTRUCTIONS>",
        ),
        Message::user(
            "env",
            "<environment_context>\n  <cwd>/repo</cwd>\n</environment_context>",
        ),
        Message::user("task", "Fix the failing test in src/lib.rs."),
    ];
    let reads = |range: std::ops::Range<usize>| {
        range.flat_map(|i| {
            [
                Message::assistant_calls(format!("a{i}").as_str(), None, [read_call(i)]),
                Message::tool_result(format!("t{i}").as_str(), format!("call{i}"), file_body(i)),
            ]
        })
    };
    messages.extend(reads(0..6));
    messages.push(Message::assistant_calls("a6", None, [read_call(6)]));
    let interrupted = Message::new(
        "words",
        Role::User,
        vec![
            Part::ToolResult(ToolResult {
                call_id: "call6".into(),
                tool_name: None,
                content: vec![Part::text(file_body(6))],
                is_error: true,
            }),
            Part::text("[Request interrupted by user for tool use]"),
            Part::text("Stop: keep the public API as it is."),
        ],
    );
    messages.push(interrupted.clone());
    messages.extend(reads(7..14));
    messages.push(Message::assistant("done", "Fixed, the API is unchanged."));
    for share in [0.6, 0.5, 0.25] {
        let compactor = summarizing_compactor(&messages, share, |_| {});
        let (result, _) = run_extracting(&compactor, messages.clone(), Trigger::Proactive);
        let outcome = result.unwrap_or_else(|e| panic!("at {share}: {e}"));
        assert_sound(&messages, &outcome);
        for id in ["agents", "env", "task"] {
            let original = messages.iter().find(|m| m.id.as_str() == id);
            assert!(
                original.is_some_and(|m| outcome.messages.contains(m)),
                "at {share}: {id} was rewritten"
            );
        }
        let kept = outcome.messages.iter().find(|m| m.id.as_str() == "words");
        let text = kept.map(Message::text).unwrap_or_default();
        assert!(
            text.contains("Stop: keep the public API as it is."),
            "at {share}: the newest words were lost: {:?}",
            kept
        );
    }
}

#[test]
fn a_large_newest_exchange_stays_raw_rather_than_everything_folding_under_the_band() {
    // The turn before the newest is one exchange of parallel calls with large outputs, as
    // a Codex run reads five files at once. AGGRESSIVE's tail set room aside for a summary
    // of a quarter of the target, could not take that exchange beside it, and folded all
    // the older history into summaries that came back far smaller: the run ended far
    // under its target. It keeps the exchange raw and summarizes the rest tighter.
    use compactor::message::ToolCall;
    let words = |n: usize, what: &str| {
        (0..n)
            .map(|w| format!("{what} {w} of src/mod_{}.rs", w % 7))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let mut messages = vec![
        Message::system("sys", "You are a coding agent."),
        Message::user("task", "Find why the build is slow."),
    ];
    for i in 0..30 {
        let call = ToolCall {
            id: format!("c{i}"),
            name: "bash".into(),
            arguments: format!("{{\"command\":\"cat src/mod_{i}.rs\"}}"),
        };
        messages.push(Message::assistant_calls(
            format!("a{i}").as_str(),
            Some(&words(20, "plan")),
            [call],
        ));
        messages.push(Message::tool_result(
            format!("t{i}").as_str(),
            format!("c{i}"),
            words(60, "line"),
        ));
    }
    let calls: Vec<ToolCall> = (0..5)
        .map(|k| ToolCall {
            id: format!("p{k}"),
            name: "read".into(),
            arguments: format!("{{\"path\":\"src/big_{k}.rs\"}}"),
        })
        .collect();
    messages.push(Message::assistant_calls("fan", None, calls));
    for k in 0..5 {
        messages.push(Message::tool_result(
            format!("r{k}").as_str(),
            format!("p{k}"),
            words(160, "code"),
        ));
    }
    messages.push(Message::assistant(
        "done",
        "The build compiles mod_3 twice.",
    ));
    for share in [0.26, 0.27, 0.28, 0.3] {
        let compactor = summarizing_compactor(&messages, share, |_| {});
        let (result, _) = run_extracting(&compactor, messages.clone(), Trigger::Proactive);
        let outcome = result.expect("compacts");
        assert_sound(&messages, &outcome);
        let ratio = tokens_of(&outcome.messages) as f64 / compactor.budget().target_tokens as f64;
        assert!(
            (0.85..=1.0).contains(&ratio),
            "at {share}: ended at {ratio:.2} of the target"
        );
        assert!(
            outcome.messages.iter().any(|m| m.id.as_str() == "r4"),
            "at {share}: the exchange stays raw"
        );
    }
}

#[test]
fn an_answer_larger_than_the_whole_target_is_clipped_and_the_rest_stays_raw() {
    // An agent caught in a loop: one answer larger than the whole target. Folded whole,
    // it would take the rest into its summary and leave the run far under the target;
    // clipped middle-out to what the rest leaves, everything else stays as it was.
    let mut messages = agent_session(20, 40);
    let at = position_of(&messages, "r14");
    let rest = tokens_of(&messages) - tokens_of(&messages[at..=at]);
    let loop_text = "Wait, is it `msubsup` or `mmsubsup`? I am confused.\n".repeat(2_000);
    messages[at] = Message::assistant("r14", loop_text.as_str());
    let total = tokens_of(&messages);
    let share = (rest as f64 * 1.1) / total as f64;
    let compactor = compactor_for(total, share, |_| {});
    assert!(tokens_of(&messages[at..=at]) > compactor.budget().target_tokens);
    let (outcome, _) = run_extracting(&compactor, messages.clone(), Trigger::Proactive);
    let outcome = outcome.expect("compacts");
    let clipped = outcome
        .messages
        .iter()
        .find(|m| m.id.as_str() == "r14")
        .unwrap_or_else(|| panic!("the loop stays, clipped: {:?}", outcome.report.levels));
    assert!(clipped.text().contains(compactor::prune::CLIP_MARKER));
    assert!(
        !outcome.messages.iter().any(|m| m.is_compaction()),
        "nothing folded"
    );
    assert!(
        outcome.report.tokens_after * 100 >= outcome.report.target_tokens * 85,
        "{} of {}",
        outcome.report.tokens_after,
        outcome.report.target_tokens
    );
    assert_sound(&messages, &outcome);
}

#[test]
fn the_newest_words_stay_whole_where_the_agents_later_steps_can_give_way() {
    // The user spoke, then the agent took many steps, each its own assistant message (as
    // gemini-cli and Chat record them): all of it the newest turn. When it does not fit
    // the limit beside the user's words, the earlier steps are clipped, not the words.
    let mut messages = vec![
        Message::system("sys", "You are a coding agent."),
        Message::user("task", "Fix the failing test in src/lib.rs."),
        Message::assistant("a0", "Looking at src/lib.rs now."),
        Message::user(
            "words",
            "Here is the whole spec you need to follow. "
                .repeat(150)
                .as_str(),
        ),
    ];
    for i in 0..6 {
        let step = format!("Step {i}: reading module {i} and noting what it exports. ").repeat(25);
        messages.push(Message::assistant(format!("s{i}").as_str(), step.as_str()));
    }
    let words = tokens_of(&messages[3..4]);
    let steps = tokens_of(&messages[4..]);
    let total = tokens_of(&messages);
    // A limit under the words and the steps together, well over the words alone.
    let limit_share = (words + steps / 2) as f64 / total as f64;
    let compactor = compactor_for(total, limit_share * 0.75, |_| {});
    assert!(compactor.budget().absolute_limit < words + steps);
    let (outcome, _) = run_extracting(&compactor, messages.clone(), Trigger::Proactive);
    let outcome = outcome.expect("compacts");
    assert!(
        outcome.messages.iter().any(|m| *m == messages[3]),
        "the newest words verbatim"
    );
    assert_eq!(
        outcome.messages.last(),
        messages.last(),
        "the last step whole"
    );
    assert!(outcome.report.tokens_after <= compactor.budget().absolute_limit);
}

#[test]
fn in_a_chat_awaiting_its_answer_the_reply_before_the_newest_words_gives_way_to_the_rules() {
    // A chat ends with the user's words: the assistant's reply before them closed the turn
    // before and folds at MAXIMUM like the rest, and the room it leaves keeps the rule the
    // user stated, in the summary's block, where the reply kept raw left none.
    let rule = "Never trust the X-Forwarded-For header blindly.";
    let messages = vec![
        Message::user("task", "Let's plan the CI overhaul with Iris."),
        Message::assistant("a0", "Sounds good. What constraints should I keep in mind?"),
        Message::user("rule", rule),
        Message::user("u1", "Do you happen to know what a quokka is?"),
        Message::assistant("a1", "It is a small marsupial from Western Australia."),
        Message::user(
            "u2",
            "I just remembered I need to send someone an email later.",
        ),
        Message::assistant(
            "a2",
            "I can answer, but let me know when you want to return to the main question \
             about the overhaul and what comes first in it.",
        ),
        Message::user("newest", "Given all that, propose a concrete next step."),
    ];
    let total = tokens_of(&messages);
    // A window where the reply kept raw leaves the rule no room.
    let compactor = compactor_for(total, 0.5, |c| c.clear_at_least = u64::MAX);
    let (outcome, _) = run_extracting(&compactor, messages.clone(), Trigger::Proactive);
    let outcome = outcome.expect("compacts");
    let text: String = outcome.messages.iter().map(|m| m.text() + "\n").collect();
    assert!(text.contains(rule), "{text}");
    assert_eq!(outcome.messages.last(), messages.last());
    assert!(outcome.report.tokens_after <= compactor.budget().absolute_limit);
}

#[test]
fn a_window_with_room_for_what_stays_verbatim_but_not_for_a_marker_line_still_compacts() {
    // The task and the newest words fit the limit; beside them a summary's full marker
    // line does not. The summary keeps a short marker instead of failing the run, and the
    // conversation it leaves compacts again (its summary named none of what it covers).
    // Ids as long as the ones the formats derive from content.
    let id = |i: usize| format!("m{:012x}", i * 7_919_003);
    let mut messages = vec![Message::user(
        "task",
        "Let's plan the CI overhaul with Iris.",
    )];
    for i in 0..6 {
        messages.push(Message::assistant(
            id(2 * i).as_str(),
            "Noted. Do you want to get back to the plan we were making earlier?",
        ));
        messages.push(Message::user(
            id(2 * i + 1).as_str(),
            "I just remembered I need to send someone an email later today.",
        ));
    }
    messages.push(Message::user("newest", "Remind me what we decided."));
    let verbatim = tokens_of(&[messages[0].clone(), messages[messages.len() - 1].clone()]);
    let total = tokens_of(&messages);
    let compactor = compactor_for(total, (verbatim + 24) as f64 * 0.75 / total as f64, |c| {
        c.clear_at_least = u64::MAX
    });
    let limit = compactor.budget().absolute_limit;
    let (outcome, _) = run_extracting(&compactor, messages.clone(), Trigger::Proactive);
    let outcome = outcome.expect("compacts");
    assert!(outcome.report.tokens_after <= limit);
    let summary = outcome
        .messages
        .iter()
        .find(|m| m.is_compaction())
        .expect("a summary");
    assert!(!summary.text().contains("first="), "{}", summary.text());
    // Handed back as plain messages, with more said.
    let mut again: Vec<Message> = outcome
        .messages
        .iter()
        .map(|m| Message::new(m.id.clone(), m.role, m.parts.clone()))
        .collect();
    again.push(Message::assistant(
        "a9",
        "We decided nothing yet, apart from the plan.",
    ));
    again.push(Message::user("later", "Then remind me of the plan."));
    let (outcome, _) = run_extracting(&compactor, again, Trigger::Proactive);
    let outcome = outcome.expect("compacts again");
    assert!(outcome.report.tokens_after <= limit);
}

#[test]
fn a_summarizers_words_are_never_clipped_to_meet_a_target() {
    // Models overrun the length they are asked for. AGGRESSIVE's summaries, a third longer
    // than planned, leave it over its target: what the model wrote is what it judged worth
    // keeping, and is not clipped middle-out to make up for it (only the trail the engine
    // appends gives way): the next level makes up for it, and MAXIMUM's own overrun stays
    // under the limit.
    let messages = agent_session(30, 30);
    for (share, script) in [
        (0.12, vec![Script::Percent(135); 8]),
        (0.15, vec![Script::Percent(300)]),
    ] {
        let compactor = summarizing_compactor(&messages, share, |_| {});
        let (result, _) = run_with(
            &compactor,
            messages.clone(),
            Trigger::Proactive,
            &Scripted::new(script, Script::Percent(100)),
        );
        let outcome = result.expect("compacts");
        assert_sound(&messages, &outcome);
        // Over the target where the model overran it, never over the limit.
        assert!(
            outcome.report.tokens_after <= compactor.budget().absolute_limit,
            "share {share}: {} of {} {:?}",
            outcome.report.tokens_after,
            outcome.report.target_tokens,
            outcome.report.levels
        );
        for summary in outcome.messages.iter().filter(|m| m.compaction.is_some()) {
            let text = summary.text();
            assert!(!is_clipped(&text), "share {share}: {text}");
        }
    }
}

/// A chat: short user messages, each answered at length.
fn chat(turns: usize) -> Vec<Message> {
    let mut messages = vec![Message::user(
        "task",
        "Help me plan a ten-day trip to Portugal in late May.",
    )];
    for i in 0..turns {
        messages.push(Message::user(
            format!("u{i}").as_str(),
            format!("Question {i}: what about the neighborhoods and trains for day {i}?"),
        ));
        let reply = (0..12)
            .map(|s| format!("For day {i}, option {s} is a fine choice with a train at {s}:15."))
            .collect::<Vec<_>>()
            .join(" ");
        messages.push(Message::assistant(format!("a{i}").as_str(), reply));
    }
    messages
}

/// In a chat every other message is the user's, kept verbatim below MAXIMUM; each one
/// kept splits the running summary, and the summaries' framing alone can miss the
/// target. AGGRESSIVE then folds them into one running summary and keeps the newest
/// turns raw, in the band, instead of leaving MAXIMUM to fold the tail too.
#[test]
fn a_chat_keeps_its_newest_turns_raw_when_kept_user_messages_would_miss_the_target() {
    let messages = chat(12);
    let total = tokens_of(&messages);
    let compactor = compactor_for(total, 0.5, |_| {});
    let (result, _) = run_extracting(&compactor, messages.clone(), Trigger::Proactive);
    let outcome = result.expect("compacts");
    assert_sound(&messages, &outcome);
    let last = outcome.report.levels.last().expect("levels").level;
    assert_eq!(last, Level::Aggressive);
    let target = outcome.report.target_tokens;
    assert!(
        outcome.report.tokens_after as f64 >= 0.85 * target as f64
            && outcome.report.tokens_after <= target,
        "{} of a {target}-token target",
        outcome.report.tokens_after
    );
    let raw = |id: &str| outcome.messages.iter().any(|m| m.id.as_str() == id);
    assert!(
        raw("a10") && raw("u10"),
        "the turn before the newest stays raw"
    );
}

#[test]
fn light_leaves_outputs_to_a_summary_when_clearing_alone_cannot_meet_the_target() {
    // Clearing every old output leaves 12,211 of these 31,123 tokens: over a target of
    // 35% (10,893). A summary follows, and its trail keeps more of those outputs in
    // context than their placeholders would, so LIGHT clears nothing...
    let messages = file_reads(16);
    let compactor = compactor_for(tokens_of(&messages), 0.35, |_| {});
    let (result, _) = run_with(
        &compactor,
        messages.clone(),
        Trigger::Proactive,
        &Scripted::always(Script::Extract),
    );
    let outcome = result.expect("compacts");
    assert_eq!(outcome.status, Status::Compacted { target_met: true });
    let light = &outcome.report.levels[0];
    assert_eq!(light.level, Level::Light);
    assert_eq!(light.tokens_after, light.tokens_before, "LIGHT stood aside");
    assert!(
        !outcome
            .messages
            .iter()
            .any(|m| m.text().contains("cleared by compactor")),
        "no placeholder stays beside the summary"
    );
    assert_sound(&messages, &outcome);
    // ... and should every summary fail, its clearings are the result: under the
    // absolute limit (14,524), the target missed, not the run.
    let (result, events) = without_summaries(&messages, 0.35);
    let fallen_back = result.expect("compacts without a summary");
    assert_eq!(fallen_back.status, Status::Compacted { target_met: false });
    assert!(fallen_back.report.tokens_after <= compactor.budget().absolute_limit);
    assert!(
        fallen_back
            .messages
            .iter()
            .any(|m| m.text().contains("cleared by compactor"))
    );
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::FallbackTaken { .. }))
    );
    assert_sound(&messages, &fallen_back);
}
