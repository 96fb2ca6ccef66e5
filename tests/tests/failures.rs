//! The failure discipline: failed, empty, late and over-long answers, cancellation,
//! unknown and stale ids, and random conversations with failing summarizers.

use compactor::driver::Clock;
use compactor::engine::{CompactError, Event, Status, Step, SummaryFailure, Trigger};
use compactor::ladder::Level;
use compactor::message::Message;
use compactor_tests::arb;
use compactor_tests::harness::{Script, Scripted, SimClock, drive_bounded};
use compactor_tests::setup::*;
use proptest::prelude::*;

#[test]
fn best_effort_levels_keep_originals_when_summaries_fail() {
    let messages = agent_session(20, 40);
    for (script, cause) in [
        (
            Script::Fail("model unavailable".into()),
            "model unavailable",
        ),
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
                    level: Level::Moderate | Level::Aggressive,
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

/// An empty answer is not a lost run: at every level the summary is the standing
/// instructions and the trail of what it folds, and the run ends valid, under the limit.
#[test]
fn empty_answers_degrade_to_the_trail_and_the_run_still_ends() {
    let messages = agent_session(20, 40);
    for share in [0.5, 0.25, 0.1] {
        let compactor = summarizing_compactor(&messages, share, |_| {});
        let scripted = Scripted::always(Script::Text("   \n ".into()));
        let (result, events) =
            run_with(&compactor, messages.clone(), Trigger::Proactive, &scripted);
        let outcome = result.unwrap_or_else(|e| panic!("at {share}: {e}"));
        assert_sound(&messages, &outcome);
        assert!(
            events
                .iter()
                .any(|e| matches!(e, Event::EmptyAnswer { .. })),
            "at {share}"
        );
        assert!(
            !events
                .iter()
                .any(|e| matches!(e, Event::RequestFailed { .. })),
            "at {share}: an empty answer counted as a failure"
        );
        for summary in outcome.messages.iter().filter(|m| m.is_compaction()) {
            let text = summary.text();
            assert!(
                text.contains(compactor::trail::TRAIL_HEADER) || text.contains("worth keeping"),
                "at {share}: {text}"
            );
        }
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
    let mut run = begin(&compactor, messages.clone());
    let Step::Summarize(requests) = run.poll() else {
        panic!("requests")
    };
    assert!(!requests.is_empty());
    run.cancel();
    assert!(matches!(run.poll(), Step::Failed(CompactError::Cancelled)));
    assert_eq!(run.messages(), messages, "nothing applied");
    assert_eq!(
        run.complete(requests[0].id, Ok("late".into()), 0),
        Err(CompactError::StaleRequest(requests[0].id)),
        "an answer after cancellation changes nothing"
    );
}

/// A summarizer that never answers cannot hold `Compactor::compact`: the engine's
/// deadlines fail its requests, and the run ends within one timeout per level that asked.
#[test]
fn a_summarizer_that_never_answers_cannot_hold_the_run() {
    let messages = agent_session(20, 40);
    let timeout = 60_000;
    let compactor = summarizing_compactor(&messages, 0.25, |c| c.request_timeout_ms = timeout);
    let clock = SimClock::default();
    let result = futures_executor::block_on(compactor.compact(
        "s1",
        messages,
        Trigger::Proactive,
        &Scripted::always(Script::Hang),
        &clock,
    ));
    assert!(
        matches!(
            result,
            Err(CompactError::SummaryFailed {
                failure: SummaryFailure::Timeout,
                ..
            })
        ),
        "{result:?}"
    );
    assert!(
        clock.now_ms() <= 3 * (timeout + 1),
        "ended at {} ms",
        clock.now_ms()
    );
}

#[test]
fn over_long_inputs_are_retried_smaller() {
    let messages = agent_session(20, 40);
    // The tool outputs read whole: an input with something to retry smaller.
    let compactor = summarizing_compactor(&messages, 0.25, |c| c.summarize_outputs = true);
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
fn an_answer_far_longer_than_asked_is_asked_again_for_less() {
    let messages = agent_session(20, 40);
    let compactor = summarizing_compactor(&messages, 0.5, |_| {});
    // The first answer runs on twenty times the length asked; the rest answer well.
    let verbose = "word ".repeat(20_000);
    let scripted = Scripted::new(vec![Script::Text(verbose)], Script::Extract);
    let mut run = begin(&compactor, messages);
    drive_bounded(&mut run, &scripted, &SimClock::default(), 10_000).expect("compacts");
    let seen = scripted.seen.lock().expect("seen");
    let first = &seen[0];
    let again = seen
        .iter()
        .find(|r| r.covers == first.covers && r.attempt == 2)
        .expect("the same summary asked again");
    assert!(
        again.max_output_tokens < first.max_output_tokens,
        "{} !< {}",
        again.max_output_tokens,
        first.max_output_tokens
    );
    // Its level went through: what the verbose answer covered was not kept raw for it.
    assert!(
        !run.events()
            .iter()
            .any(|e| matches!(e, Event::FallbackTaken { .. })),
        "{:?}",
        run.events()
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
    run.handle_timeout(5_000);
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
                // Calling begin again on the result changes nothing, unless the result is
                // the best that fit after a summary failed (the next run tries again).
                let settled = outcome.status == Status::Compacted { target_met: true } || outcome.report.failures == 0;
                let tokens = tokens_of(&outcome.messages);
                prop_assert!(tokens <= compactor.budget().absolute_limit, "over the limit: {}", tokens);
                if settled {
                    let (again, _) = run_extracting(&compactor, outcome.messages.clone(), Trigger::Proactive);
                    prop_assert_eq!(again.expect("second run").messages, outcome.messages);
                }
            }
            Err(CompactError::SummaryFailed { .. } | CompactError::ContextOverflow { .. }) => {}
            Err(other) => prop_assert!(false, "untyped failure: {other}"),
        }
    }
}

#[test]
fn answers_to_a_summary_that_already_failed_are_stale_not_fatal() {
    let messages = agent_session(30, 30);
    // The tool outputs read whole, so that the input outgrows the summarizer's window.
    let compactor = summarizing_compactor(&messages, 0.1, |c| {
        c.summarizer_input_tokens = 2_000;
        c.summarize_outputs = true;
    });
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
        Err(compactor::engine::SummaryFailure::failed("part failed")),
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
