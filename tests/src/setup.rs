//! The setup the engine tests share: compactors sized to a share of a conversation, a
//! synthetic agent session, runs driven by the scripted harness, and the soundness check.

use compactor::budget::BudgetConfig;
use compactor::engine::{CompactError, CompactionConfig, Compactor, Event, Outcome, Run, Trigger};
use compactor::format::{Conversation, Format, FormatError, ParseOptions, parse_str};
use compactor::message::{Message, ToolCall};
use compactor::validate::validate;

use crate::harness::{Script, Scripted, SimClock, drive_bounded};

/// A compactor whose target is `share` of `tokens` (no output reserve, no message signal).
pub fn compactor_for(
    tokens: u64,
    share: f64,
    tweak: impl FnOnce(&mut CompactionConfig),
) -> Compactor {
    let mut config = CompactionConfig {
        budget: BudgetConfig {
            model: Some("gpt-4o".into()),
            max_context_tokens: Some(((tokens as f64 * share) / 0.75).ceil() as u64 + 1),
            output_reserve: Some(0),
            max_messages: None,
            ..BudgetConfig::default()
        },
        ..CompactionConfig::default()
    };
    tweak(&mut config);
    Compactor::new(config).expect("valid numbers")
}

/// A compactor whose target is `share` of the tokens of `messages`, with LIGHT switched off
/// (its threshold out of reach) so that summaries do the work.
pub fn summarizing_compactor(
    messages: &[Message],
    share: f64,
    tweak: impl FnOnce(&mut CompactionConfig),
) -> Compactor {
    compactor_for(tokens_of(messages), share, |c| {
        c.clear_at_least = u64::MAX;
        tweak(c);
    })
}

pub fn tokens_of(messages: &[Message]) -> u64 {
    let c = Compactor::new(CompactionConfig {
        budget: BudgetConfig::for_model("gpt-4o"),
        ..CompactionConfig::default()
    })
    .expect("catalog");
    c.assess(messages).total_tokens
}

pub fn agent_session(turns: usize, body_words: usize) -> Vec<Message> {
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

pub fn run_with(
    compactor: &Compactor,
    messages: Vec<Message>,
    trigger: Trigger,
    scripted: &Scripted,
) -> (Result<Outcome, CompactError>, Vec<Event>) {
    let mut run = compactor.begin("s1", messages, trigger, 0).expect("begin");
    let result = drive_bounded(&mut run, scripted, &SimClock::default(), 10_000);
    (result, run.events())
}

/// [`run_with`] a summarizer that always answers (extractively).
pub fn run_extracting(
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
pub fn begin(compactor: &Compactor, messages: Vec<Message>) -> Run {
    compactor
        .begin("s1", messages, Trigger::Proactive, 0)
        .expect("begin")
}

/// Parses `text` leniently, as the corpus needs (its trajectories end with an `exit` role).
pub fn lenient(text: &str, format: Format) -> Result<Conversation, FormatError> {
    parse_str(text, format, ParseOptions { lenient: true })
}

pub fn assert_sound(original: &[Message], outcome: &Outcome) {
    let tokens = tokens_of(&outcome.messages);
    validate(original, &outcome.messages, tokens, u64::MAX)
        .expect("pairs intact, pinned messages identical");
    assert!(
        tokens <= tokens_of(original),
        "never worse: {tokens} > {}",
        tokens_of(original)
    );
}

/// Does `messages` written back in the format of `text` read again as many messages?
pub fn conversation_json_ok(text: &str, messages: &[Message]) -> bool {
    let conversation = lenient(text, Format::OpenAi).expect("parses");
    let json = conversation.to_json(messages);
    let again = lenient(&json.to_string(), Format::OpenAi).expect("output parses");
    again.messages.len() == messages.len()
}

/// Where the message with id `id` stands in `messages`.
pub fn position_of(messages: &[Message], id: &str) -> usize {
    messages
        .iter()
        .position(|m| m.id.as_str() == id)
        .unwrap_or_else(|| panic!("no message {id}"))
}
