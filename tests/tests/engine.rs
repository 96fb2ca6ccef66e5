//! The engine driven by the scripted harness: every level, the failure discipline,
//! idempotency, cache, breaker, store, and the corpus at 50% and 25% budgets.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::Ordering;
use std::time::Duration;

use compactor::budget::BudgetConfig;
use compactor::driver::{SessionStore, drive};
use compactor::engine::{
    CompactError, CompactionConfig, Compactor, Event, Outcome, Run, Status, Trigger,
};
use compactor::format::{Conversation, Format, FormatError, ParseOptions, parse_str};
use compactor::ladder::Level;
use compactor::message::{Message, ToolCall};
use compactor::segment::segment;
use compactor::validate::validate;
use compactor_tests::harness::{Script, Scripted, compactor_for, drive_bounded};
use compactor_tests::{arb, corpus};
use proptest::prelude::*;

/// A compactor whose target is `share` of the tokens of `messages`, with LIGHT switched off
/// (its threshold out of reach) so that summaries do the work.
fn summarizing_compactor(
    messages: &[Message],
    share: f64,
    tweak: impl FnOnce(&mut CompactionConfig),
) -> Compactor {
    compactor_for(tokens_of(messages), share, |c| {
        c.clear_at_least = u64::MAX;
        tweak(c);
    })
}

fn tokens_of(messages: &[Message]) -> u64 {
    let c = Compactor::new(CompactionConfig {
        budget: BudgetConfig::for_model("gpt-4o"),
        ..CompactionConfig::default()
    })
    .expect("catalog");
    c.assess(messages).total_tokens
}

fn agent_session(turns: usize, body_words: usize) -> Vec<Message> {
    let mut messages = vec![
        Message::system("sys", "You are a coding agent."),
        Message::user(
            "task",
            "Fix the failing test in src/lib.rs; do not touch the public API.",
        ),
    ];
    for i in 0..turns {
        let call = ToolCall {
            id: format!("call{i}"),
            name: "bash".into(),
            arguments: format!("{{\"command\":\"pytest tests/test_{i}.py\"}}"),
        };
        messages.push(Message::assistant_calls(
            format!("a{i}").as_str(),
            Some(&format!("Step {i}: running the tests of module {i}.")),
            [call],
        ));
        let body = (0..body_words)
            .map(|w| format!("line {w} of output for src/module_{i}.py value {}", w * i))
            .collect::<Vec<_>>()
            .join("\n");
        messages.push(Message::tool_result(
            format!("t{i}").as_str(),
            format!("call{i}"),
            body,
        ));
        if i % 5 == 4 {
            messages.push(Message::assistant(
                format!("r{i}").as_str(),
                format!("Checkpoint {i}: error E{i} fixed in src/module_{i}.py."),
            ));
            messages.push(Message::user(
                format!("u{i}").as_str(),
                format!("Good, continue with part {}.", i + 1),
            ));
        }
    }
    messages
}

fn run_with(
    compactor: &Compactor,
    messages: Vec<Message>,
    trigger: Trigger,
    scripted: &Scripted,
) -> (Result<Outcome, CompactError>, Vec<Event>) {
    let mut run = compactor.begin("s1", messages, trigger, 0).expect("begin");
    let result = drive_bounded(&mut run, scripted, 0, 10_000);
    (result, run.events())
}

/// [`run_with`] a summarizer that always answers (extractively).
fn run_extracting(
    compactor: &Compactor,
    messages: Vec<Message>,
    trigger: Trigger,
) -> (Result<Outcome, CompactError>, Vec<Event>) {
    run_with(
        compactor,
        messages,
        trigger,
        &Scripted::always(Script::Extract),
    )
}

/// A proactive run of session `s1`, begun at time 0, for tests that drive it step by step.
fn begin(compactor: &Compactor, messages: Vec<Message>) -> Run {
    compactor
        .begin("s1", messages, Trigger::Proactive, 0)
        .expect("begin")
}

/// Parses `text` leniently, as the corpus needs (its trajectories end with an `exit` role).
fn lenient(text: &str, format: Format) -> Result<Conversation, FormatError> {
    parse_str(text, format, ParseOptions { lenient: true })
}

fn assert_sound(original: &[Message], outcome: &Outcome) {
    let tokens = tokens_of(&outcome.messages);
    validate(original, &outcome.messages, tokens, u64::MAX)
        .expect("pairs intact, pinned messages identical");
    assert!(
        tokens <= tokens_of(original),
        "never worse: {tokens} > {}",
        tokens_of(original)
    );
}

#[test]
fn light_clears_old_tool_results_when_that_is_enough() {
    let messages = agent_session(12, 40);
    let total = tokens_of(&messages);
    let compactor = compactor_for(total, 0.7, |_| {});
    let (result, events) = run_with(
        &compactor,
        messages.clone(),
        Trigger::Proactive,
        &Scripted::always(Script::Fail("unused".into())),
    );
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

#[test]
fn moderate_summarizes_old_segments_in_parallel_and_keeps_user_messages() {
    let messages = agent_session(20, 40);
    let compactor = summarizing_compactor(&messages, 0.25, |_| {});
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
    let oldest = requests.iter().max_by_key(|r| r.age).expect("some");
    let newest = requests.iter().min_by_key(|r| r.age).expect("some");
    assert!(
        oldest.max_output_tokens <= newest.max_output_tokens,
        "older segments are asked for terser summaries"
    );
    for request in requests {
        let answer = Scripted::answer(&Script::Extract, &request).expect("answers");
        run.complete(request.id, answer, 0).expect("known request");
    }
    let outcome = drive_bounded(&mut run, &scripted, 0, 1000).expect("compacts");
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
fn best_effort_levels_keep_originals_when_summaries_fail() {
    let messages = agent_session(20, 40);
    for (script, cause) in [
        (
            Script::Fail("model unavailable".into()),
            "model unavailable",
        ),
        (Script::Text("   \n ".into()), "empty summary"),
        (Script::Text("word ".repeat(5_000)), "exceeds"),
    ] {
        let compactor = summarizing_compactor(&messages, 0.25, |_| {});
        let scripted = Scripted::new(vec![script.clone(); 40], Script::Fail("still down".into()));
        let (result, events) =
            run_with(&compactor, messages.clone(), Trigger::Proactive, &scripted);
        assert!(
            events.iter().any(
                |e| matches!(e, Event::RequestFailed { reason, .. } if reason.contains(cause))
            ),
            "{cause}"
        );
        assert!(
            events.iter().any(|e| matches!(
                e,
                Event::FallbackTaken {
                    level: Level::Moderate,
                    ..
                }
            )),
            "{cause}"
        );
        // MAXIMUM is loud: its failure is an error, and the caller keeps the original.
        assert!(
            matches!(
                result,
                Err(CompactError::SummaryFailed {
                    level: Level::Maximum,
                    ..
                })
            ),
            "{cause}: {result:?}"
        );
    }
}

#[test]
fn dropped_artifact_references_are_restored() {
    let mut messages = agent_session(12, 30);
    messages[3] = Message::tool_result(
        "t0",
        "call0",
        "report saved as «artifact:file~report-1» and «artifact:img~plot-2»",
    );
    let compactor = summarizing_compactor(&messages, 0.3, |_| {});
    let (result, events) = run_with(
        &compactor,
        messages.clone(),
        Trigger::Proactive,
        &Scripted::always(Script::DropArtifacts),
    );
    let outcome = result.expect("compacts");
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::ArtifactRefsRestored { refs, .. } if refs.len() == 2))
    );
    let all: String = outcome.messages.iter().map(Message::text).collect();
    assert!(all.contains("«artifact:file~report-1»") && all.contains("«artifact:img~plot-2»"));
}

#[test]
fn cancellation_applies_nothing() {
    let messages = agent_session(20, 40);
    let compactor = summarizing_compactor(&messages, 0.25, |_| {});
    let (result, _) = run_with(
        &compactor,
        messages,
        Trigger::Proactive,
        &Scripted::always(Script::Hang),
    );
    assert_eq!(result, Err(CompactError::Cancelled));
}

#[test]
fn over_long_inputs_are_retried_smaller() {
    let messages = agent_session(20, 40);
    let compactor = summarizing_compactor(&messages, 0.25, |_| {});
    let scripted = Scripted::new(vec![Script::TooLong, Script::TooLong], Script::Extract);
    let (result, _) = run_with(&compactor, messages, Trigger::Proactive, &scripted);
    result.expect("compacts after retries");
    let seen = scripted.seen.lock().expect("seen");
    let retried: Vec<_> = seen.iter().filter(|r| r.attempt > 1).collect();
    assert!(!retried.is_empty());
    let first = seen
        .iter()
        .find(|r| r.covers == retried[0].covers && r.attempt == 1)
        .expect("first attempt");
    assert!(
        retried[0].input_tokens < first.input_tokens,
        "{} !< {}",
        retried[0].input_tokens,
        first.input_tokens
    );
}

#[test]
fn answers_past_the_deadline_count_as_failures() {
    let messages = agent_session(20, 40);
    let compactor = summarizing_compactor(&messages, 0.25, |c| c.request_timeout_ms = 1_000);
    let mut run = begin(&compactor, messages);
    let compactor::engine::Step::Summarize(requests) = run.poll() else {
        panic!("requests")
    };
    let late = &requests[0];
    let answer = Scripted::answer(&Script::Extract, late).expect("answer");
    run.complete(late.id, answer, 5_000).expect("known");
    assert!(
        run.events().iter().any(
            |e| matches!(e, Event::RequestFailed { reason, .. } if reason.contains("deadline"))
        )
    );
    run.expire(5_000);
    assert!(
        run.in_flight().is_empty(),
        "expire fails every overdue request"
    );
}

#[test]
fn unknown_request_ids_are_typed_errors() {
    let messages = agent_session(20, 40);
    let compactor = summarizing_compactor(&messages, 0.25, |_| {});
    let mut run = begin(&compactor, messages);
    let _ = run.poll();
    let bogus = compactor::engine::RequestId(999_999);
    assert_eq!(
        run.complete(bogus, Ok("x".into()), 0),
        Err(CompactError::UnknownRequest(bogus))
    );
}

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
    let few = compactor_for(10, 1.0, |c| c.min_messages = 100);
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
fn a_run_that_cannot_cut_enough_reports_no_progress() {
    let messages = agent_session(6, 3);
    let compactor = compactor_for(tokens_of(&messages), 0.99, |c| c.min_reduction = 0.9);
    let (result, _) = run_extracting(&compactor, messages.clone(), Trigger::Manual);
    let outcome = result.expect("outcome");
    assert_eq!(outcome.status, Status::NoProgress);
    assert_eq!(outcome.messages, messages);
}

/// A store with versions, for `compact_session`.
#[derive(Default)]
struct MemoryStore {
    rows: Mutex<HashMap<String, (Vec<Message>, u64)>>,
    bump_before_save: bool,
}

impl SessionStore for MemoryStore {
    type Error = String;
    async fn load(&self, session: &str) -> Result<Option<(Vec<Message>, u64)>, String> {
        let row = self
            .rows
            .lock()
            .map_err(|e| e.to_string())?
            .get(session)
            .cloned();
        if self.bump_before_save
            && let Some((messages, version)) = &row
        {
            self.rows
                .lock()
                .map_err(|e| e.to_string())?
                .insert(session.into(), (messages.clone(), version + 1));
        }
        Ok(row)
    }
    async fn save(
        &self,
        session: &str,
        messages: &[Message],
        expected: u64,
    ) -> Result<Result<(), u64>, String> {
        let mut rows = self.rows.lock().map_err(|e| e.to_string())?;
        let found = rows.get(session).map_or(0, |(_, v)| *v);
        if found != expected {
            return Ok(Err(found));
        }
        rows.insert(session.into(), (messages.to_vec(), expected + 1));
        Ok(Ok(()))
    }
}

#[test]
fn compact_session_writes_back_with_the_version_read_or_reports_a_conflict() {
    let messages = agent_session(20, 40);
    let compactor = compactor_for(tokens_of(&messages), 0.25, |_| {});
    let store = MemoryStore::default();
    store
        .rows
        .lock()
        .expect("rows")
        .insert("s1".into(), (messages.clone(), 7));
    let scripted = Scripted::always(Script::Extract);
    let outcome =
        futures_executor::block_on(compactor.compact_session(&store, "s1", &scripted, &|| 0))
            .expect("compacts");
    let (saved, version) = store.rows.lock().expect("rows")["s1"].clone();
    assert_eq!((saved, version), (outcome.messages, 8));

    let racing = MemoryStore {
        bump_before_save: true,
        ..MemoryStore::default()
    };
    racing
        .rows
        .lock()
        .expect("rows")
        .insert("s1".into(), (messages.clone(), 3));
    compactor.clear_cache();
    let result =
        futures_executor::block_on(compactor.compact_session(&racing, "s2", &scripted, &|| 0));
    assert_eq!(result, Err(CompactError::NoMessagesToCompact));
    let result =
        futures_executor::block_on(compactor.compact_session(&racing, "s1", &scripted, &|| 0));
    assert_eq!(
        result,
        Err(CompactError::Conflict {
            expected: 3,
            found: 4
        })
    );
    assert_eq!(
        racing.rows.lock().expect("rows")["s1"].0,
        messages,
        "nothing written"
    );
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
    let mut k = 0;
    let outcome = futures_executor::block_on(drive(&mut run, &scripted, 64, &|| 0, &mut |event| {
        if let Event::RequestIssued {
            level: Level::Moderate,
            ..
        } = event
        {
            k += 1;
        }
    }))
    .expect("compacts");
    assert!(k >= 3, "{k}");
    assert_eq!(scripted.max_in_flight.load(Ordering::SeqCst), k);
    assert!(matches!(outcome.status, Status::Compacted { .. }));
    // Bounded: with a limit of 2, never more than 2 at once.
    let bounded = Scripted::always(Script::Extract).with_latency(Duration::from_millis(5));
    let mut run = compactor
        .begin("s2", agent_session(20, 40), Trigger::Proactive, 0)
        .expect("begin");
    futures_executor::block_on(drive(&mut run, &bounded, 2, &|| 0, &mut |_| {})).expect("compacts");
    assert_eq!(bounded.max_in_flight.load(Ordering::SeqCst), 2);
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
        let outcome = drive_bounded(&mut run, &scripted, 0, 100_000).expect("compacts");
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
fn every_corpus_file_compacts_to_half_and_a_quarter() {
    let mut table = String::new();
    for (name, text) in corpus() {
        let conversation = lenient(&text, Format::OpenAi).expect(&name);
        let messages = conversation.messages;
        let total = tokens_of(&messages);
        let pinned: u64 = messages
            .iter()
            .filter(|m| !m.compactable)
            .map(|m| tokens_of(std::slice::from_ref(m)))
            .sum();
        for share in [0.5, 0.25] {
            let compactor = compactor_for(total, share, |_| {});
            let (result, _) = run_extracting(&compactor, messages.clone(), Trigger::Proactive);
            let limit = compactor.budget().absolute_limit;
            if pinned + 200 > limit {
                // The pinned system prompt alone nearly fills this budget: nothing may touch it,
                // so the honest answer is an overflow naming it.
                match &result {
                    Err(CompactError::ContextOverflow { offenders, .. }) => {
                        assert!(
                            offenders
                                .iter()
                                .take(2)
                                .any(|o| messages.iter().any(|m| m.id == o.id && !m.compactable)),
                            "{name}"
                        );
                    }
                    Ok(outcome) => assert_sound(&messages, outcome),
                    Err(other) => panic!("{name} at {share}: {other}"),
                }
                table.push_str(&format!("{name:<70} {share:>4}: {total:>7} tokens, pinned {pinned} vs limit {limit}: {}\n", if result.is_ok() { "compacted" } else { "context overflow (pinned)" }));
                continue;
            }
            let outcome = result.unwrap_or_else(|e| panic!("{name} at {share}: {e}"));
            assert!(
                matches!(outcome.status, Status::Compacted { .. }),
                "{name} at {share}: {:?}",
                outcome.status
            );
            assert_sound(&messages, &outcome);
            segment(&outcome.messages).expect("pairs intact");
            let written = conversation_json_ok(&text, &outcome.messages);
            assert!(written, "{name}: written back");
            let levels: Vec<&str> = outcome
                .report
                .levels
                .iter()
                .map(|l| l.level.as_str())
                .collect();
            // AGGRESSIVE keeps the recent turns the target has room for: it lands near the
            // target, not far under it with everything but the newest turn folded away.
            if levels.last() == Some(&"aggressive") {
                let (after, target) = (outcome.report.tokens_after, outcome.report.target_tokens);
                assert!(
                    after * 10 >= target * 6,
                    "{name} at {share}: aggressive left {after} of a {target}-token target"
                );
            }
            table.push_str(&format!(
                "{name:<70} {share:>4}: {:>7} -> {:>6} (target {:>6}) {:?} requests {}\n",
                total,
                outcome.report.tokens_after,
                outcome.report.target_tokens,
                levels,
                outcome.report.requests
            ));
        }
    }
    println!("{table}");
}

fn conversation_json_ok(text: &str, messages: &[Message]) -> bool {
    let conversation = lenient(text, Format::OpenAi).expect("parses");
    let json = conversation.to_json(messages).to_value();
    let again = lenient(&json.to_string(), Format::OpenAi).expect("output parses");
    again.messages.len() == messages.len()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn random_conversations_compact_soundly(messages in arb::conversation(40), share in 0.1f64..0.9, fail_every in 0usize..4) {
        let total = tokens_of(&messages);
        let compactor = compactor_for(total, share, |_| {});
        let script: Vec<Script> = (0..200).map(|i| if fail_every > 0 && i % (fail_every + 1) == 0 { Script::Fail("scripted".into()) } else { Script::Extract }).collect();
        let scripted = Scripted::new(script, Script::Extract);
        let (result, _) = run_with(&compactor, messages.clone(), Trigger::Proactive, &scripted);
        match result {
            Ok(outcome) => {
                assert_sound(&messages, &outcome);
                if let Status::Compacted { target_met: false } = outcome.status {
                    prop_assert_eq!(outcome.report.levels.last().map(|l| l.level), Some(Level::Maximum));
                }
                // Calling begin again on the result changes nothing.
                let (again, _) = run_extracting(&compactor, outcome.messages.clone(), Trigger::Proactive);
                prop_assert_eq!(again.expect("second run").messages, outcome.messages);
            }
            Err(CompactError::SummaryFailed { .. } | CompactError::ContextOverflow { .. }) => {}
            Err(other) => prop_assert!(false, "untyped failure: {other}"),
        }
    }
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
                &|| 0,
            ));
        }
        let result = futures_executor::block_on(compactor.compact(
            "s1",
            messages.clone(),
            Trigger::Proactive,
            &failing,
            &|| 0,
        ));
        match (fallback, result) {
            (false, Err(CompactError::CircuitOpen { .. })) => {}
            (true, Ok(outcome)) => {
                assert!(outcome.report.extractive_fallback);
                assert!(matches!(outcome.status, Status::Compacted { .. }));
                // The stand-in's summaries are not the model's: nothing was cached, and
                // the circuit stays open until the model is back.
                assert_eq!(compactor.cache_len(), 0);
                let again = compactor.begin("s1", messages.clone(), Trigger::Proactive, 0);
                assert!(matches!(again, Err(CompactError::CircuitOpen { .. })));
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
        clock: || 0,
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
    let fresh = compactor_for(10, 1.0, |_| {});
    let (again, _) = run_with(&fresh, summaries_only.clone(), Trigger::Manual, &scripted);
    let again = again.expect("outcome");
    assert_eq!(again.messages, summaries_only);
    assert!(
        scripted.seen.lock().expect("seen").is_empty(),
        "no new request"
    );
}

struct BrokenStore;

impl SessionStore for BrokenStore {
    type Error = String;
    async fn load(&self, _: &str) -> Result<Option<(Vec<Message>, u64)>, String> {
        Err("connection refused".into())
    }
    async fn save(&self, _: &str, _: &[Message], _: u64) -> Result<Result<(), u64>, String> {
        Err("read-only".into())
    }
}

#[test]
fn store_failures_are_persist_failed_errors() {
    let compactor = compactor_for(10_000, 1.0, |_| {});
    let result = futures_executor::block_on(compactor.compact_session(
        &BrokenStore,
        "s1",
        &Scripted::always(Script::Extract),
        &|| 0,
    ));
    assert_eq!(
        result,
        Err(CompactError::PersistFailed("connection refused".into()))
    );
}

#[test]
fn inputs_larger_than_the_summarizers_window_are_map_reduced() {
    let messages = agent_session(30, 30);
    let compactor = summarizing_compactor(&messages, 0.1, |c| c.summarizer_input_tokens = 2_000);
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
        8,
        &|| 0,
        &mut |e| seen.push(e.clone()),
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

/// The corpus converted to each provider format compacts to half and a quarter of its
/// tokens, and the written result passes that format's checker.
#[test]
fn the_corpus_in_every_format_compacts_to_results_its_provider_accepts() {
    use compactor::format::check::{Rule, check};
    use compactor_tests::convert::{to_aisdk, to_anthropic};
    let mut compacted = 0;
    for (name, text) in corpus() {
        let openai = lenient(&text, Format::OpenAi).expect(&name);
        let inputs = [
            (Format::OpenAi, text.clone()),
            (
                Format::Anthropic,
                to_anthropic(&openai.messages).to_string(),
            ),
            (Format::AiSdk, to_aisdk(&openai.messages).to_string()),
        ];
        for (format, json) in inputs {
            let conversation =
                lenient(&json, format).unwrap_or_else(|e| panic!("{name} as {format}: {e}"));
            let total = tokens_of(&conversation.messages);
            for share in [0.5, 0.25] {
                let compactor = compactor_for(total, share, |_| {});
                let mut run = begin(&compactor, conversation.messages.clone());
                run.check_format(format);
                let result = drive_bounded(&mut run, &Scripted::always(Script::Extract), 0, 10_000);
                let outcome = match result {
                    Ok(outcome) => outcome,
                    // A pinned system prompt larger than the budget: nothing may touch it.
                    Err(CompactError::ContextOverflow { .. }) => continue,
                    Err(e) => panic!("{name} as {format} at {share}: {e}"),
                };
                let written = conversation.to_json(&outcome.messages).to_string();
                let reread = lenient(&written, format)
                    .unwrap_or_else(|e| panic!("{name} as {format}: output: {e}"));
                let broken: Vec<_> = check(format, &reread.messages)
                    .err()
                    .unwrap_or_default()
                    .into_iter()
                    .filter(|v| v.rule != Rule::RolesDoNotAlternate)
                    .collect();
                assert!(
                    broken.is_empty(),
                    "{name} as {format} at {share}: {broken:?}"
                );
                compacted += 1;
            }
        }
    }
    assert!(compacted >= 100, "{compacted}");
}

#[test]
fn answers_to_a_summary_that_already_failed_are_stale_not_fatal() {
    let messages = agent_session(30, 30);
    let compactor = summarizing_compactor(&messages, 0.1, |c| c.summarizer_input_tokens = 2_000);
    let mut run = begin(&compactor, messages);
    // Walk to the first level that splits its input into several parts.
    let requests = loop {
        match run.poll() {
            compactor::engine::Step::Summarize(requests)
                if requests.len() > 1 && requests[0].level >= Level::Aggressive =>
            {
                break requests;
            }
            compactor::engine::Step::Summarize(requests) => {
                for r in requests {
                    let answer = Scripted::answer(&Script::Extract, &r).expect("answer");
                    run.complete(r.id, answer, 0).expect("pending");
                }
            }
            other => panic!("expected a map step, got {other:?}"),
        }
    };
    run.complete(
        requests[0].id,
        Err(compactor::engine::SummaryFailure::Failed(
            "part failed".into(),
        )),
        0,
    )
    .expect("pending");
    let late = Scripted::answer(&Script::Extract, &requests[1]).expect("answer");
    assert_eq!(
        run.complete(requests[1].id, late, 0),
        Err(CompactError::StaleRequest(requests[1].id))
    );
    assert_eq!(
        run.complete(compactor::engine::RequestId(10_000), Ok("x".into()), 0),
        Err(CompactError::UnknownRequest(compactor::engine::RequestId(
            10_000
        )))
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
