//! `compact_session` against a store that moves while the compaction runs: appends are
//! rebased after the result and never lost, anything else is a conflict with nothing
//! written, and two compactions of one session at once leave exactly one result.

use std::collections::HashMap;
use std::future::Future;
use std::sync::Mutex;
use std::time::Duration;

use compactor::budget::BudgetConfig;
use compactor::driver::{SessionOutcome, SessionStore, Summarize};
use compactor::engine::{CompactError, CompactionConfig, Compactor, SummaryRequest};
use compactor::engine::{Status, SummaryFailure};
use compactor::message::Message;
use compactor::rebase::MAX_REBASES;
use compactor_tests::harness::{RealClock, Script, Scripted, SimClock};

/// A store whose versions are etags (`"v1"`, `"v2"`, …): `compact_session` takes any
/// version type.
#[derive(Default)]
struct EtagStore {
    rows: Mutex<HashMap<String, (Vec<Message>, u64)>>,
    saves: Mutex<u32>,
    /// Appends one message just before every save, as an agent always one step ahead.
    append_on_save: bool,
}

impl EtagStore {
    fn with(session: &str, messages: Vec<Message>) -> Self {
        let store = Self::default();
        store.put(session, messages);
        store
    }

    fn put(&self, session: &str, messages: Vec<Message>) {
        let mut rows = self.rows.lock().expect("rows");
        let version = rows.get(session).map_or(1, |(_, v)| v + 1);
        rows.insert(session.into(), (messages, version));
    }

    fn get(&self, session: &str) -> (Vec<Message>, String) {
        let (messages, version) = self.rows.lock().expect("rows")[session].clone();
        (messages, format!("v{version}"))
    }

    /// The agent's side: append messages to the stored conversation.
    fn append(&self, session: &str, new: &[Message]) {
        let (mut messages, _) = self.get(session);
        messages.extend_from_slice(new);
        self.put(session, messages);
    }
}

impl SessionStore for EtagStore {
    type Version = String;
    type Error = String;

    async fn load(&self, session: &str) -> Result<Option<(Vec<Message>, String)>, String> {
        let rows = self.rows.lock().map_err(|e| e.to_string())?;
        Ok(rows
            .get(session)
            .map(|(messages, v)| (messages.clone(), format!("v{v}"))))
    }

    async fn save(
        &self,
        session: &str,
        messages: &[Message],
        expected: &String,
    ) -> Result<Result<(), String>, String> {
        *self.saves.lock().map_err(|e| e.to_string())? += 1;
        if self.append_on_save {
            self.append(session, &[Message::user("late", "one more thing")]);
        }
        let (_, found) = self.get(session);
        if &found != expected {
            return Ok(Err(found));
        }
        self.put(session, messages.to_vec());
        Ok(Ok(()))
    }
}

/// A summarizer that lets `meanwhile` touch the store on its first request (the agent
/// appending while the model writes the summary), then answers as `inner` does.
struct Meanwhile<F: Fn()> {
    inner: Scripted,
    meanwhile: F,
    done: Mutex<bool>,
}

impl<F: Fn()> Meanwhile<F> {
    fn new(meanwhile: F) -> Self {
        Self {
            inner: Scripted::always(Script::Extract),
            meanwhile,
            done: Mutex::new(false),
        }
    }
}

impl<F: Fn()> Summarize for Meanwhile<F> {
    fn summarize(
        &self,
        request: &SummaryRequest,
    ) -> impl Future<Output = Result<String, SummaryFailure>> {
        let mut done = self.done.lock().expect("done");
        if !*done {
            *done = true;
            (self.meanwhile)();
        }
        self.inner.summarize(request)
    }
}

/// A chat of `turns` user/assistant turns, each naming its number.
fn chat(turns: usize) -> Vec<Message> {
    let mut messages = vec![Message::system("sys", "You are a helpful assistant.")];
    for i in 0..turns {
        messages.push(Message::user(
            format!("u{i}").as_str(),
            format!(
                "Question {i}: what does module {i} do, and why does test {i} fail? {}",
                "Details follow. ".repeat(20)
            ),
        ));
        messages.push(Message::assistant(
            format!("a{i}").as_str(),
            format!(
                "Answer {i}: module {i} parses the config; test {i} fails on a missing key. {}",
                "More context here. ".repeat(20)
            ),
        ));
    }
    messages
}

fn appended(from: usize, count: usize) -> Vec<Message> {
    (from..from + count)
        .map(|i| Message::user(format!("new{i}").as_str(), format!("appended message {i}")))
        .collect()
}

/// A compactor whose trigger fires on `messages`, summarizing (LIGHT has nothing to clear).
fn compactor_over(messages: &[Message], tweak: impl FnOnce(&mut CompactionConfig)) -> Compactor {
    let probe = Compactor::new(CompactionConfig {
        budget: BudgetConfig::for_model("gpt-4o"),
        ..CompactionConfig::default()
    })
    .expect("catalog");
    let tokens = probe.assess(messages).total_tokens;
    let mut config = CompactionConfig {
        budget: BudgetConfig {
            model: Some("gpt-4o".into()),
            max_context_tokens: Some(tokens * 11 / 10),
            output_reserve: Some(0),
            trigger_ratio: Some(0.5),
            target_ratio: Some(0.4),
            max_messages: None,
            ..BudgetConfig::default()
        },
        ..CompactionConfig::default()
    };
    tweak(&mut config);
    Compactor::new(config).expect("valid numbers")
}

fn compact<S: Summarize>(
    compactor: &Compactor,
    store: &EtagStore,
    summarizer: &S,
) -> Result<SessionOutcome, CompactError> {
    futures_executor::block_on(compactor.compact_session(
        store,
        "s",
        summarizer,
        &SimClock::default(),
    ))
}

#[test]
fn appends_made_while_a_compaction_runs_are_written_after_its_result() {
    let messages = chat(30);
    let store = EtagStore::with("s", messages.clone());
    let compactor = compactor_over(&messages, |_| {});
    let new = appended(0, 3);
    let summarizer = Meanwhile::new(|| store.append("s", &new));
    let done = compact(&compactor, &store, &summarizer).expect("compacts");
    assert!(matches!(done.outcome.status, Status::Compacted { .. }));
    assert_eq!((done.rebased, done.conflicts), (3, 1));
    let (stored, version) = store.get("s");
    assert_eq!(version, "v3", "loaded v1, appended v2, rebased result v3");
    assert_eq!(stored, done.outcome.messages);
    assert!(stored.len() < messages.len(), "compacted");
    assert_eq!(
        &stored[stored.len() - 3..],
        &new[..],
        "appends last, as stored"
    );
    assert_eq!(
        stored
            .iter()
            .filter(|m| m.id.as_str().starts_with("new"))
            .count(),
        3,
        "each append exactly once"
    );
}

#[test]
fn an_edit_of_a_loaded_message_is_a_conflict_and_nothing_is_written() {
    let messages = chat(30);
    let store = EtagStore::with("s", messages.clone());
    let compactor = compactor_over(&messages, |_| {});
    let mut edited = messages.clone();
    edited[3] = Message::user("u1", "Question 1, reworded.");
    edited.extend(appended(0, 1));
    let summarizer = Meanwhile::new(|| store.put("s", edited.clone()));
    let result = compact(&compactor, &store, &summarizer).map(|_| ());
    assert_eq!(
        result,
        Err(CompactError::Conflict {
            expected: "v1".into(),
            found: "v2".into()
        })
    );
    assert_eq!(store.get("s"), (edited.clone(), "v2".into()), "untouched");
}

#[test]
fn two_compactions_of_one_session_at_once_leave_one_result() {
    let messages = chat(30);
    let store = EtagStore::with("s", messages.clone());
    let compactor = compactor_over(&messages, |_| {});
    // Two workers: two engines (no shared idempotency record), slow summarizers so that
    // both read before either writes.
    let other = compactor_over(&messages, |_| {});
    let slow = Scripted::always(Script::Extract).with_latency(Duration::from_millis(20));
    let clock = RealClock::default();
    let (a, b) = futures_executor::block_on(futures_util::future::join(
        compactor.compact_session(&store, "s", &slow, &clock),
        other.compact_session(&store, "s", &slow, &clock),
    ));
    let (won, lost) = match (a, b) {
        (Ok(won), Err(lost)) | (Err(lost), Ok(won)) => (won, lost),
        (a, b) => panic!("expected one result and one conflict, got {a:?} / {b:?}"),
    };
    assert_eq!(
        lost,
        CompactError::Conflict {
            expected: "v1".into(),
            found: "v2".into()
        },
        "the loser's read is not a prefix of the winner's result: no rebase"
    );
    assert_eq!(store.get("s"), (won.outcome.messages, "v2".into()));
}

#[test]
fn appends_that_push_the_result_over_the_limit_are_compacted_again() {
    let messages = chat(30);
    let store = EtagStore::with("s", messages.clone());
    let compactor = compactor_over(&messages, |_| {});
    let limit = compactor.budget().absolute_limit;
    // Turns as long as the whole window allows, appended while the first run works.
    let big: Vec<Message> = (0..6)
        .flat_map(|i| {
            [
                Message::user(
                    format!("bu{i}").as_str(),
                    format!("Long question {i}. {}", "Words of context. ".repeat(120)),
                ),
                Message::assistant(
                    format!("ba{i}").as_str(),
                    format!("Long answer {i}. {}", "Words of reply. ".repeat(120)),
                ),
            ]
        })
        .collect();
    let before = compactor.assess(&big).total_tokens;
    assert!(
        before > limit / 2,
        "{before} tokens appended, limit {limit}"
    );
    let summarizer = Meanwhile::new(|| store.append("s", &big));
    let done = compact(&compactor, &store, &summarizer).expect("compacts");
    assert_eq!(done.rebased, big.len());
    let (stored, _) = store.get("s");
    let tokens = compactor.assess(&stored).total_tokens;
    assert!(tokens <= limit, "{tokens} tokens written, limit {limit}");
    assert_eq!(
        stored.last(),
        big.last(),
        "the newest turn is kept as it is"
    );
}

#[test]
fn a_store_that_keeps_moving_gives_up_after_a_bounded_number_of_rebases() {
    let messages = chat(30);
    let store = EtagStore {
        append_on_save: true,
        ..EtagStore::with("s", messages.clone())
    };
    let compactor = compactor_over(&messages, |_| {});
    let summarizer = Meanwhile::new(|| store.append("s", &appended(0, 1)));
    let result = compact(&compactor, &store, &summarizer);
    assert!(
        matches!(result, Err(CompactError::Conflict { .. })),
        "{result:?}"
    );
    assert_eq!(*store.saves.lock().expect("saves"), MAX_REBASES + 1);
    let (stored, _) = store.get("s");
    assert_eq!(
        &stored[..messages.len()],
        &messages[..],
        "nothing compacted written"
    );
}
