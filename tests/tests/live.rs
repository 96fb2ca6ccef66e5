//! A session handle and the stateless calls agree on every corpus trajectory: the same
//! assessment and plan after each append, the same compaction, and after it the same
//! conversation going on.

use compactor::budget::BudgetConfig;
use compactor::engine::{CompactionConfig, Compactor, Trigger};
use compactor::extractive::Extractive;
use compactor::format::{Format, ParseOptions, parse_str};
use compactor::level::Level;
use compactor::live::Session;
use compactor::message::Message;
use compactor::plan::plan;
use compactor::select::TailPolicy;
use compactor_tests::corpus;
use compactor_tests::harness::SimClock;
use futures_executor::block_on;

/// The target is set explicitly: the session's default policy, which weighs the growth
/// only a session sees, stays out, and the session must agree with the stateless calls.
fn compactor(window: u64) -> Compactor {
    Compactor::new(CompactionConfig {
        budget: BudgetConfig {
            max_context_tokens: Some(window),
            output_reserve: Some(0),
            target_ratio: Some(compactor::budget::DEFAULT_TARGET_RATIO),
            ..BudgetConfig::default()
        },
        ..CompactionConfig::default()
    })
    .expect("valid numbers")
}

fn trajectories() -> Vec<(String, Vec<Message>)> {
    corpus()
        .into_iter()
        .map(|(name, text)| {
            let conversation =
                parse_str(&text, Format::OpenAi, ParseOptions { lenient: true }).expect(&name);
            (name, conversation.messages)
        })
        .collect()
}

#[test]
fn appending_one_message_at_a_time_assesses_and_plans_as_the_stateless_calls() {
    let trajectories = trajectories();
    assert!(trajectories.len() >= 20, "expected the shared corpus");
    for (name, messages) in trajectories {
        let compactor = compactor(8_000);
        let policy =
            TailPolicy::for_budget(compactor.config().keep_recent_turns, compactor.budget());
        let mut session = Session::new(&compactor, &name, Vec::new());
        for (i, message) in messages.iter().enumerate() {
            session.append([message.clone()]);
            let prefix = &messages[..=i];
            assert_eq!(*session.assess(), compactor.assess(prefix), "{name} at {i}");
            // Planning every prefix is quadratic: every 7th and the last.
            if i % 7 == 0 || i + 1 == messages.len() {
                let expected = plan(compactor.accountant(), prefix, compactor.budget(), &policy);
                assert_eq!(session.plan(), expected, "{name} at {i}");
            }
        }
    }
}

#[test]
fn a_session_compacts_as_the_stateless_call_and_goes_on_from_its_result() {
    for (name, messages) in trajectories() {
        let half = messages.len() / 2;
        let (first, rest) = messages.split_at(half);
        let clock = SimClock::default();
        let stateless = compactor(2_000);
        let expected = block_on(stateless.compact(
            &name,
            first.to_vec(),
            Trigger::Manual,
            &Extractive,
            &clock,
        ));
        let live = compactor(2_000);
        let mut session = Session::new(&live, &name, first.to_vec());
        let outcome = block_on(session.compact(Trigger::Manual, &Extractive, &clock));
        let (expected, outcome) = match (expected, outcome) {
            (Ok(expected), Ok(outcome)) => (expected, outcome),
            (Err(expected), Err(error)) => {
                assert_eq!(error.to_string(), expected.to_string(), "{name}");
                continue;
            }
            (expected, outcome) => panic!("{name}: {expected:?} but {outcome:?}"),
        };
        assert_eq!(outcome, expected, "{name}");
        assert_eq!(session.messages(), expected.messages, "{name}");
        let splice = session.changes().expect("recorded").clone();
        let mut applied = first.to_vec();
        applied.splice(splice.deleted(), splice.insert);
        assert_eq!(applied, expected.messages, "{name}");
        // The rest of the trajectory arrives after the compaction.
        session.append(rest.iter().cloned());
        let mut going_on = expected.messages.clone();
        going_on.extend_from_slice(rest);
        assert_eq!(*session.assess(), stateless.assess(&going_on), "{name}");
        let policy =
            TailPolicy::for_budget(stateless.config().keep_recent_turns, stateless.budget());
        let expected = plan(
            stateless.accountant(),
            &going_on,
            stateless.budget(),
            &policy,
        );
        assert_eq!(session.plan(), expected, "{name}");
    }
}

/// A compactor of `window` tokens with the target left to the session's default policy.
fn under_policy(window: u64, reserve: u64) -> Compactor {
    Compactor::new(CompactionConfig {
        budget: BudgetConfig {
            max_context_tokens: Some(window),
            output_reserve: Some(reserve),
            max_messages: None,
            ..BudgetConfig::default()
        },
        ..CompactionConfig::default()
    })
    .expect("valid numbers")
}

#[test]
fn a_cut_under_the_default_policy_never_pays_for_summaries_it_folds_again() {
    let mut runs = 0;
    for (name, messages) in trajectories() {
        for (window, reserve) in [(24_000, 4_000), (8_000, 0)] {
            let compactor = under_policy(window, reserve);
            let mut session = Session::new(&compactor, &name, Vec::new());
            for message in &messages {
                session.append([message.clone()]);
                if !session.assess().needs_compaction() {
                    continue;
                }
                let clock = SimClock::default();
                let Ok(outcome) =
                    block_on(session.compact(Trigger::Proactive, &Extractive, &clock))
                else {
                    continue;
                };
                runs += 1;
                let asked = |level: Level| {
                    outcome
                        .report
                        .levels
                        .iter()
                        .any(|l| l.level == level && l.requests > 0)
                };
                // MODERATE's summaries over the target are folded again by AGGRESSIVE's
                // running summary: paid for twice. The policy plans them at their whole
                // allowance, and skips a MODERATE that would miss.
                assert!(
                    !(asked(Level::Moderate) && asked(Level::Aggressive)),
                    "{name} at {window}: {:?}",
                    outcome.report.levels
                );
            }
        }
    }
    assert!(runs > 20, "{runs}");
}
