//! Shared helpers for the integration tests: the corpus of real agent trajectories, random
//! sessions, a converter from OpenAI conversations to the other formats, and a loopback
//! HTTP endpoint.

pub mod chats;

pub mod convert;

pub mod harness;

pub mod setup;

pub mod loopback;

use std::path::PathBuf;

/// The folder of corpus trajectories: `COMPACTOR_CORPUS` if set, else `../shared/corpus`
/// beside the repository.
pub fn corpus_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("COMPACTOR_CORPUS") {
        return PathBuf::from(dir);
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus")
}

/// Every corpus file, sorted by name, with its text.
pub fn corpus() -> Vec<(String, String)> {
    let dir = corpus_dir();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("corpus folder {}: {e}", dir.display()))
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            (name, text)
        })
        .collect()
}

/// Random conversations shaped like agent sessions.
pub mod arb {
    use compactor::message::{Message, ToolCall};
    use proptest::prelude::*;

    /// One step of a generated session.
    #[derive(Debug, Clone)]
    pub enum Step {
        /// A user message.
        User(String),
        /// An assistant answer without tools.
        Answer(String),
        /// An assistant message with this many calls; results follow in the given order.
        Tools {
            calls: usize,
            order_seed: u64,
            body: String,
        },
        /// A system message in the middle.
        System(String),
    }

    fn words() -> impl Strategy<Value = String> {
        proptest::collection::vec("[a-z]{1,8}|src/[a-z]{1,6}\\.rs|[0-9]{1,4}|\n", 1..40)
            .prop_map(|w| w.join(" "))
    }

    fn step() -> impl Strategy<Value = Step> {
        prop_oneof![
            3 => words().prop_map(Step::User),
            2 => words().prop_map(Step::Answer),
            4 => (1usize..4, any::<u64>(), words()).prop_map(|(calls, order_seed, body)| Step::Tools { calls, order_seed, body }),
            1 => words().prop_map(Step::System),
        ]
    }

    /// Builds the messages of `steps`; with `pending`, the last tool batch stays
    /// unanswered.
    pub fn build(system: &str, steps: &[Step], pending: bool) -> Vec<Message> {
        let mut messages = vec![Message::system("sys", system)];
        let mut next_id = 0usize;
        let mut id = |prefix: &str| {
            next_id += 1;
            format!("{prefix}{next_id}")
        };
        let last_tools = steps.iter().rposition(|s| matches!(s, Step::Tools { .. }));
        for (i, step) in steps.iter().enumerate() {
            match step {
                Step::User(text) => messages.push(Message::user(id("u").as_str(), text.clone())),
                Step::Answer(text) => {
                    messages.push(Message::assistant(id("a").as_str(), text.clone()))
                }
                Step::System(text) => {
                    messages.push(Message::system(id("s").as_str(), text.clone()))
                }
                Step::Tools {
                    calls,
                    order_seed,
                    body,
                } => {
                    let ids: Vec<String> = (0..*calls).map(|_| id("call")).collect();
                    let tool_calls = ids.iter().map(|call_id| ToolCall {
                        id: call_id.clone(),
                        name: "bash".into(),
                        arguments: format!("{{\"command\":\"{}\"}}", body.replace('\n', " ")),
                    });
                    messages.push(Message::assistant_calls(
                        id("a").as_str(),
                        Some(body),
                        tool_calls,
                    ));
                    if pending && Some(i) == last_tools {
                        return messages;
                    }
                    let mut order = ids.clone();
                    let len = order.len();
                    order.rotate_left((*order_seed as usize) % len);
                    for call_id in order {
                        messages.push(Message::tool_result(
                            id("t").as_str(),
                            call_id,
                            body.clone(),
                        ));
                    }
                }
            }
        }
        messages
    }

    /// A random session: a system prompt, then up to `max_steps` steps, sometimes ending
    /// with an unanswered tool batch.
    pub fn conversation(max_steps: usize) -> impl Strategy<Value = Vec<Message>> {
        (
            words(),
            proptest::collection::vec(step(), 0..max_steps),
            any::<bool>(),
        )
            .prop_map(|(system, steps, pending)| build(&system, &steps, pending))
    }
}
