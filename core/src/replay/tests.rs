use super::*;
use crate::extractive::Extractive;
use crate::message::ToolCall;

/// A coding agent's run: a task, then `turns` tool calls whose outputs name paths and
/// numbers.
fn agent(turns: usize) -> Vec<Message> {
    let mut messages = vec![
        Message::system("s", "You are a coding agent."),
        Message::user("u", "Fix the failing test in src/parser.rs."),
    ];
    for i in 0..turns {
        let call = ToolCall {
            id: format!("c{i}"),
            name: "bash".into(),
            arguments: format!("{{\"cmd\":\"cat src/file{i}.rs\"}}"),
        };
        messages.push(Message::assistant_calls(
            format!("a{i}").as_str(),
            None,
            [call],
        ));
        let output = format!(
            "src/module{i}/item{i}.rs line {} holds {}\n",
            1000 + i,
            "let x = 1; ".repeat(40)
        );
        messages.push(Message::tool_result(
            format!("t{i}").as_str(),
            format!("c{i}"),
            &output,
        ));
    }
    messages.push(Message::assistant("done", "Fixed."));
    messages
}

/// A clock at 0 that never fires: the offline summarizer answers at once.
struct Stopped;

impl Clock for Stopped {
    fn now_ms(&self) -> u64 {
        0
    }

    fn sleep_until(&self, _: u64) -> impl std::future::Future<Output = ()> {
        std::future::pending()
    }
}

fn window(tokens: u64) -> Compactor {
    Compactor::for_window(tokens)
}

fn run(messages: &[Message], compactor: Compactor, rule: Rule) -> Replay {
    let policy = Policy { compactor, rule };
    futures_executor::block_on(replay(
        messages,
        &policy,
        &Prices::default(),
        &Extractive,
        &Stopped,
        &mut |_, _| {},
    ))
}

#[test]
fn keeping_everything_is_the_reference() {
    let messages = agent(40);
    let replay = run(&messages, window(3_000), Rule::KeepEverything);
    let totals = replay.totals();
    assert_eq!(totals.calls, 41);
    assert_eq!(totals.relative_cost, 1.0);
    assert_eq!(totals.facts_seen, 1.0);
    assert_eq!(totals.compactions, 0);
    // Every call but the first reads the whole previous prompt from the cache.
    for pair in replay.calls.windows(2) {
        let tokens = pair[0].prompt_tokens - window(3_000).accountant().total(&[]);
        assert_eq!(pair[1].cached_tokens, tokens);
    }
}

#[test]
fn no_policy_costs_less_than_writing_each_new_token_once() {
    let messages = agent(60);
    let kept = run(&messages, window(3_000), Rule::KeepEverything);
    let written: u64 = kept.calls.iter().map(|c| c.written_tokens).sum();
    let floor = kept.totals().floor;
    assert!(
        (floor * kept.totals().baseline_cost - written as f64).abs() < 1e-6,
        "keeping everything writes exactly the new tokens"
    );
    assert!(floor > 0.0 && floor < 1.0, "{floor}");
    for rule in [Rule::Session, Rule::Trim] {
        let totals = run(&messages, window(3_000), rule).totals();
        assert_eq!(
            totals.floor, floor,
            "a property of the run, not of the policy"
        );
        assert!(totals.relative_cost >= floor, "{rule:?}: {totals:?}");
    }
}

#[test]
fn cached_and_written_add_up_to_the_prompt() {
    let messages = agent(60);
    for rule in [Rule::Session, Rule::Trim, Rule::KeepEverything] {
        let replay = run(&messages, window(3_000), rule);
        for call in &replay.calls {
            assert_eq!(call.cached_tokens + call.written_tokens, call.prompt_tokens);
            let expected = 0.1 * call.cached_tokens as f64
                + call.written_tokens as f64
                + 0.1 * call.summary_cached_tokens as f64
                + (call.summary_sent_tokens - call.summary_cached_tokens) as f64
                + 4.0 * call.summary_output_tokens as f64;
            assert!((call.cost - expected).abs() < 1e-6, "{rule:?}");
        }
    }
}

#[test]
fn the_prompt_is_the_sessions_and_never_over_the_window() {
    let messages = agent(60);
    let compactor = window(3_000);
    let replay = run(&messages, compactor.clone(), Rule::Session);
    let totals = replay.totals();
    assert!(totals.compactions > 0, "{totals:?}");
    assert_eq!(totals.over_window, 0, "{totals:?}");
    assert_eq!(totals.failures, 0);
    assert!(totals.peak_prompt <= compactor.budget().absolute_limit);
    assert!(totals.relative_cost < 1.0, "{totals:?}");
    assert!(totals.facts_seen < 1.0 && totals.facts_seen > 0.0);
    // Summaries were paid for (their output may be nothing: the offline summarizer has no
    // line worth writing about tool outputs alone, and the trail carries their facts); a
    // compacted call rewrites much of its prompt.
    assert!(replay.calls.iter().any(|c| c.summary_input_tokens > 0));
    // Sent as continuations of the conversation, most of their input is the previous
    // call's prompt, read from the cache.
    assert!(
        replay
            .calls
            .iter()
            .any(|c| c.summary_cached_tokens > c.summary_sent_tokens / 2)
    );
    let compacted = replay
        .calls
        .iter()
        .find(|c| c.compactions > 0)
        .expect("one compacted");
    assert!(compacted.written_tokens > compacted.prompt_tokens / 4);
}

#[test]
fn trimming_drops_turns_on_every_call_over_the_trigger() {
    let messages = agent(60);
    let compactor = window(3_000);
    let trigger = compactor.budget().trigger_tokens;
    let replay = run(&messages, compactor, Rule::Trim);
    let totals = replay.totals();
    assert_eq!(totals.over_window, 0);
    assert!(replay.calls.iter().all(|c| c.prompt_tokens <= trigger));
    assert!(totals.compactions > 20, "{totals:?}");
    assert_eq!(totals.calls, 61);
}

#[test]
fn an_empty_trajectory_costs_what_keeping_everything_does() {
    let totals = run(&[], window(3_000), Rule::Session).totals();
    assert_eq!(totals.calls, 0);
    assert_eq!(totals.relative_cost, 1.0);
}

#[test]
fn invalid_prices_are_refused() {
    assert!(Prices::default().is_valid());
    let negative = Prices {
        cached: -0.1,
        ..Prices::default()
    };
    assert!(!negative.is_valid());
    let nan = Prices {
        output: f64::NAN,
        ..Prices::default()
    };
    assert!(!nan.is_valid());
    // The configuration names the numbers it refused.
    let config = crate::engine::CompactionConfig {
        prices: negative,
        ..crate::engine::CompactionConfig::default()
    };
    let error = config.validate().expect_err("refused").to_string();
    assert!(
        error.contains("cached -0.1, cache write 1.0, output 4.0"),
        "{error}"
    );
}
