//! The caller's focus (`instructions`): checked when the handle is made, fenced into every
//! summary prompt apart from the transcript, and part of the summary cache key.

use compactor::budget::BudgetConfig;
use compactor::engine::{CompactionConfig, Compactor, ConfigError, Step, Trigger};
use compactor::message::Message;
use compactor_tests::harness::{Script, Scripted, SimClock, drive_bounded};
use compactor_tests::setup::{agent_session, summarizing_compactor};

const FOCUS: &str = "Keep every database schema decision.";

fn with_focus(messages: &[Message], focus: Option<&str>) -> Compactor {
    summarizing_compactor(messages, 0.3, |c| {
        c.instructions = focus.map(str::to_owned);
    })
}

#[test]
fn instructions_are_bounded_and_not_blank() {
    for bad in ["x".repeat(2_001), "  \n ".to_owned()] {
        let config = CompactionConfig {
            budget: BudgetConfig::for_model("gpt-4o"),
            instructions: Some(bad),
            ..CompactionConfig::default()
        };
        match Compactor::new(config) {
            Err(ConfigError::Invalid { field, .. }) => assert_eq!(field, "instructions"),
            other => panic!("{other:?}"),
        }
    }
    let fine = CompactionConfig {
        budget: BudgetConfig::for_model("gpt-4o"),
        instructions: Some("x".repeat(2_000)),
        ..CompactionConfig::default()
    };
    assert!(Compactor::new(fine).is_ok());
}

#[test]
fn every_summary_prompt_carries_the_focus_apart_from_the_transcript() {
    let messages = agent_session(24, 60);
    let compactor = with_focus(&messages, Some(FOCUS));
    let mut run = compactor
        .begin("s1", messages, Trigger::Manual, 0)
        .expect("begin");
    let Step::Summarize(requests) = run.poll() else {
        panic!("no summary requested");
    };
    assert!(!requests.is_empty());
    for request in &requests {
        let fenced = format!("<focus>\n{FOCUS}\n</focus>");
        assert!(request.prompt[0].content.contains(&fenced));
        assert!(!request.prompt[1].content.contains(FOCUS));
    }
}

#[test]
fn another_focus_is_another_summary() {
    let messages = agent_session(24, 60);
    let run = |compactor: &Compactor| {
        let mut run = compactor
            .begin("s1", messages.clone(), Trigger::Manual, 0)
            .expect("begin");
        let scripted = Scripted::always(Script::Extract);
        drive_bounded(&mut run, &scripted, &SimClock::default(), 10_000).expect("compacts")
    };
    let first = with_focus(&messages, Some(FOCUS));
    assert_eq!(run(&first).report.cache_hits, 0);
    for (focus, hits) in [
        (Some(FOCUS), true),
        (Some("Keep the API names."), false),
        (None, false),
    ] {
        let other = with_focus(&messages, focus);
        other
            .import_state(first.export_state())
            .expect("same shape");
        let report = run(&other).report;
        assert_eq!(report.cache_hits > 0, hits, "{focus:?}: {report:?}");
    }
}
