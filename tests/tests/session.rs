//! What the engine remembers per session: idempotency, the cache, the breaker and its
//! fallback, incremental summaries over a long session.

use compactor::engine::{CompactError, Event, Status, Trigger};
use compactor::format::Format;
use compactor::message::Message;
use compactor_tests::harness::{Script, Scripted, SimClock, drive_bounded};
use compactor_tests::setup::*;

#[test]
fn begin_on_the_result_is_a_no_op_and_the_cache_serves_repeats() {
    let messages = agent_session(20, 40);
    let compactor = summarizing_compactor(&messages, 0.25, |_| {});
    let scripted = Scripted::always(Script::Extract);
    let (first, _) = run_with(&compactor, messages.clone(), Trigger::Proactive, &scripted);
    let first = first.expect("compacts");
    let asked = scripted.seen.lock().expect("seen").len();
    assert!(asked > 0);
    let (again, _) = run_with(
        &compactor,
        first.messages.clone(),
        Trigger::Manual,
        &scripted,
    );
    let again = again.expect("no-op");
    assert_eq!(again.status, Status::NoOp);
    assert_eq!(again.messages, first.messages);
    // A clone shares the cache: the same input compacts again without a single request.
    let clone = compactor.clone();
    let (repeat, _) = run_with(&clone, messages.clone(), Trigger::Proactive, &scripted);
    let repeat = repeat.expect("compacts");
    assert_eq!(
        scripted.seen.lock().expect("seen").len(),
        asked,
        "served from the cache"
    );
    assert!(repeat.report.cache_hits > 0);
    assert_eq!(repeat.messages, first.messages);
    clone.clear_cache();
    assert_eq!(
        compactor.cache_len(),
        0,
        "clear_cache clears it for every handle"
    );
}

#[test]
fn the_breaker_opens_after_max_failures_and_resets() {
    let messages = agent_session(20, 40);
    let compactor =
        summarizing_compactor(&messages, 0.25, |c| c.breaker_cooldown_ms = Some(60_000));
    let failing = Scripted::always(Script::Fail("down".into()));
    let mut opened = false;
    for _ in 0..3 {
        let (result, events) = run_with(&compactor, messages.clone(), Trigger::Proactive, &failing);
        assert!(result.is_err());
        opened |= events
            .iter()
            .any(|e| matches!(e, Event::CircuitOpened { failures: 3, .. }));
    }
    assert!(opened, "the third failure opens the circuit, with an event");
    let refused = compactor
        .begin("s1", messages.clone(), Trigger::Proactive, 1)
        .map(|_| ());
    assert!(matches!(
        refused,
        Err(CompactError::CircuitOpen { failures: 3, .. })
    ));
    assert!(
        compactor
            .begin("other", messages.clone(), Trigger::Proactive, 1)
            .is_ok(),
        "per session"
    );
    assert!(
        compactor
            .begin("s1", messages.clone(), Trigger::Proactive, 60_001)
            .is_ok(),
        "cool-down on the caller's clock"
    );
    compactor.reset_circuit("s1");
    assert!(!compactor.circuit_open("s1", 0));
}

/// Over a long session that compacts repeatedly, incremental summaries and the cache
/// keep the summarizer's input near the conversation's own size.
#[test]
fn repeated_compaction_reads_each_message_about_once() {
    let full = agent_session(400, 12);
    let total = tokens_of(&full);
    let window_share = 12_000.0 / total as f64;
    // LIGHT alone would keep this session small: switch it off so summaries do the work.
    let compactor = summarizing_compactor(&full, window_share, |_| {});
    let scripted = Scripted::always(Script::Extract);
    let mut conversation: Vec<Message> = Vec::new();
    let (mut input_tokens, mut naive_tokens, mut runs) = (0u64, 0u64, 0);
    for (n, message) in full.iter().enumerate() {
        conversation.push(message.clone());
        let mut run = compactor
            .begin("long", conversation.clone(), Trigger::Proactive, 0)
            .expect("begin");
        let outcome =
            drive_bounded(&mut run, &scripted, &SimClock::default(), 100_000).expect("compacts");
        if let Status::Compacted { .. } = outcome.status {
            runs += 1;
            input_tokens += outcome.report.summary_input_tokens;
            // Re-summarizing everything each time would read the whole history again.
            naive_tokens += tokens_of(&full[..=n]);
            conversation = outcome.messages;
        }
    }
    println!(
        "{runs} compactions over a {total}-token session: summarizer input {input_tokens} tokens ({:.2}x), naive {naive_tokens} ({:.2}x)",
        input_tokens as f64 / total as f64,
        naive_tokens as f64 / total as f64
    );
    assert!(runs >= 3, "{runs}");
    assert!(
        input_tokens as f64 <= 1.5 * total as f64,
        "{input_tokens} > 1.5 × {total}"
    );
}

#[test]
fn an_open_circuit_can_fall_back_to_the_extractive_summarizer() {
    let messages = agent_session(20, 40);
    let failing = Scripted::always(Script::Fail("down".into()));
    for fallback in [false, true] {
        let compactor =
            summarizing_compactor(&messages, 0.25, |c| c.extractive_fallback = fallback);
        for _ in 0..3 {
            let _ = futures_executor::block_on(compactor.compact(
                "s1",
                messages.clone(),
                Trigger::Proactive,
                &failing,
                &SimClock::default(),
            ));
        }
        let result = futures_executor::block_on(compactor.compact(
            "s1",
            messages.clone(),
            Trigger::Proactive,
            &failing,
            &SimClock::default(),
        ));
        match (fallback, result) {
            (false, Err(CompactError::CircuitOpen { .. })) => {}
            (true, Ok(outcome)) => {
                assert!(outcome.report.extractive_fallback);
                assert!(matches!(outcome.status, Status::Compacted { .. }));
                // The stand-in's summaries are not the model's: nothing was cached, and
                // the circuit stays open until the model is back.
                assert_eq!(compactor.cache_len(), 0);
                assert!(compactor.circuit_open("s1", 0));
            }
            (fallback, other) => panic!("fallback {fallback}: {other:?}"),
        }
    }
}

#[test]
fn agent_loops_get_an_outcome_only_when_the_conversation_changed() {
    use compactor::driver::{AgentCompaction, ContextCompaction};
    let messages = agent_session(20, 40);
    let total = tokens_of(&messages);
    let agent = AgentCompaction {
        compactor: compactor_for(total, 0.25, |_| {}),
        summarizer: Scripted::always(Script::Extract),
        clock: SimClock::default(),
    };
    assert_eq!(agent.token_count_hint("s1"), None);
    let compacted =
        futures_executor::block_on(agent.compact("s1", messages.clone())).expect("compacts");
    let compacted = compacted.expect("over the trigger: compacted");
    assert_eq!(
        agent.token_count_hint("s1"),
        Some(total),
        "the hint is the count last assessed"
    );
    let again =
        futures_executor::block_on(agent.compact("s1", compacted.messages)).expect("no error");
    assert_eq!(again, None, "below the trigger now: nothing to do");
}

#[test]
fn a_conversation_already_compacted_returns_its_summary_without_a_request() {
    let messages = agent_session(20, 40);
    let compactor = summarizing_compactor(&messages, 0.25, |_| {});
    let first = run_extracting(&compactor, messages, Trigger::Proactive)
        .0
        .expect("compacts");
    let summaries_only: Vec<Message> = first
        .messages
        .iter()
        .filter(|m| m.is_compaction() || !m.compactable)
        .cloned()
        .collect();
    assert!(summaries_only.iter().any(Message::is_compaction));
    let scripted = Scripted::always(Script::Extract);
    let fresh = compactor_for(100_000, 1.0, |_| {});
    let (again, _) = run_with(&fresh, summaries_only.clone(), Trigger::Manual, &scripted);
    let again = again.expect("outcome");
    assert_eq!(again.messages, summaries_only);
    assert!(
        scripted.seen.lock().expect("seen").is_empty(),
        "no new request"
    );
    // Too large for a tiny window, it is not returned as a success either.
    let tiny = compactor_for(10, 1.0, |_| {});
    let (over, _) = run_with(&tiny, summaries_only, Trigger::Manual, &scripted);
    assert!(
        matches!(over, Err(CompactError::ContextOverflow { .. })),
        "{over:?}"
    );
}

#[test]
fn a_result_stored_as_json_and_read_back_is_still_a_no_op() {
    let text = std::fs::read_to_string(
        compactor_tests::corpus_dir().join("mini-swe-agent--django-13230.json"),
    )
    .expect("corpus");
    let conversation = lenient(&text, Format::OpenAi).expect("parses");
    let compactor = compactor_for(tokens_of(&conversation.messages), 0.5, |_| {});
    let (first, _) = run_extracting(
        &compactor,
        conversation.messages.clone(),
        Trigger::Proactive,
    );
    let first = first.expect("compacts");
    let stored = conversation.to_json(&first.messages).to_string();
    let read_back = lenient(&stored, Format::OpenAi).expect("parses");
    let scripted = Scripted::always(Script::Extract);
    let (again, _) = run_with(
        &compactor,
        read_back.messages.clone(),
        Trigger::Manual,
        &scripted,
    );
    assert_eq!(again.expect("outcome").status, Status::NoOp);
    assert!(scripted.seen.lock().expect("seen").is_empty());
}

/// The engine's memory travels as JSON: a fresh handle that imports it answers the
/// previous result with a no-op, serves the summaries from the cache, and keeps a circuit
/// open; the cache and the sessions stay within their capacities.
#[test]
fn exported_state_continues_in_another_handle() {
    let messages = agent_session(20, 40);
    let compactor = summarizing_compactor(&messages, 0.25, |_| {});
    let (first, _) = run_extracting(&compactor, messages.clone(), Trigger::Proactive);
    let first = first.expect("compacts");
    // Three failed runs (of a longer conversation: the cache would serve this one).
    for _ in 0..3 {
        let failing = Scripted::always(Script::Fail("down".into()));
        let _ = run_with(
            &compactor,
            agent_session(22, 40),
            Trigger::Proactive,
            &failing,
        );
    }
    let mut other = compactor.export_state();
    // Another session's breaker, opened elsewhere.
    other.sessions.retain(|s| s.id == "s1");
    let json = serde_json::to_value(&other).expect("serializes");
    let state = compactor::engine::EngineState::from_json(&json).expect("reads back");
    assert_eq!(state, other);

    let fresh = summarizing_compactor(&messages, 0.25, |_| {});
    fresh.import_state(state).expect("imports");
    assert_eq!(fresh.cache_len(), compactor.cache_len());
    assert!(fresh.circuit_open("s1", 0), "the breaker travels");
    fresh.reset_circuit("s1");
    let scripted = Scripted::always(Script::Fail("must not be asked".into()));
    let (again, _) = run_with(&fresh, first.messages.clone(), Trigger::Manual, &scripted);
    assert_eq!(again.expect("no-op").status, Status::NoOp);
    let (repeat, _) = run_with(&fresh, messages, Trigger::Proactive, &scripted);
    let repeat = repeat.expect("from the cache");
    assert_eq!(repeat.messages, first.messages);
    assert_eq!(repeat.report.requests, 0);

    let mut newer = json.clone();
    newer["version"] = 2.into();
    let error = compactor::engine::EngineState::from_json(&newer).expect_err("newer");
    assert_eq!(error.path, "version");
    let mut damaged = json;
    damaged["sessions"][0]["latest"]["hashes"][0] = "xyz".into();
    let state = compactor::engine::EngineState::from_json(&damaged).expect("shape is fine");
    let error = fresh.import_state(state).expect_err("bad hash");
    assert_eq!(error.path, "sessions[0].latest.hashes[0]");
}

#[test]
fn the_cache_and_the_sessions_stay_within_their_capacities() {
    let messages = agent_session(20, 40);
    let compactor = summarizing_compactor(&messages, 0.5, |c| {
        c.cache_capacity = 2;
        c.session_capacity = 3;
    });
    for session in 0..5 {
        let mut run = compactor
            .begin(
                &format!("s{session}"),
                messages.clone(),
                Trigger::Proactive,
                0,
            )
            .expect("begin");
        drive_bounded(
            &mut run,
            &Scripted::always(Script::Extract),
            &SimClock::default(),
            10_000,
        )
        .expect("compacts");
    }
    assert_eq!(compactor.cache_len(), 2);
    let state = compactor.export_state();
    assert_eq!(
        state
            .sessions
            .iter()
            .map(|s| s.id.as_str())
            .collect::<Vec<_>>(),
        ["s2", "s3", "s4"],
        "the least recently used go first"
    );
}

/// A running summary is updated from what its summarizer wrote: its trail block is the
/// engine's to carry (its excerpts are the fold's again), not text the summarizer is paid
/// to read and asked to copy out again at the output price.
#[test]
fn a_running_summary_is_updated_from_its_prose_and_keeps_its_trail() {
    use compactor::trail::TRAIL_HEADER;
    let full = agent_session(40, 40);
    let half = full.len() / 2;
    let compactor = summarizing_compactor(&full[..half], 0.25, |_| {});
    let scripted = Scripted::always(Script::Text("The agent kept working.".into()));
    let (first, _) = run_with(
        &compactor,
        full[..half].to_vec(),
        Trigger::Proactive,
        &scripted,
    );
    let first = first.expect("compacts");
    let summary = first
        .messages
        .iter()
        .find(|m| m.is_compaction())
        .map(Message::text)
        .expect("a summary");
    let trail = summary
        .split_once(TRAIL_HEADER)
        .expect("a trail")
        .1
        .to_owned();
    let mut next = first.messages.clone();
    next.extend(full[half..].iter().cloned());
    let (second, _) = run_with(&compactor, next, Trigger::Proactive, &scripted);
    let second = second.expect("compacts");
    let seen = scripted.seen.lock().expect("seen");
    let updates: Vec<String> = seen
        .iter()
        .map(|r| {
            r.prompt
                .iter()
                .map(|p| p.content.as_str())
                .collect::<String>()
        })
        .filter(|p| p.contains("The agent kept working."))
        .collect();
    assert!(!updates.is_empty(), "no request updated the first summary");
    for prompt in &updates {
        assert!(!prompt.contains(TRAIL_HEADER), "{prompt}");
    }
    // The first trail's excerpts are read back from the summary, not lost with its prose:
    // its subjects are the second summary's to rank again (the newest win the room here;
    // `trail::tests::a_folded_summary_gives_its_trail_back` checks they come back whole).
    let after: String = second
        .messages
        .iter()
        .filter(|m| m.is_compaction())
        .map(Message::text)
        .collect();
    assert!(after.contains(compactor::trail::TRAIL_HEADER), "{after}");
    assert!(!trail.trim().is_empty());
}
