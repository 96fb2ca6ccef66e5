//! `compact_session` against a versioned store.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use compactor::driver::SessionStore;
use compactor::engine::CompactError;
use compactor::message::Message;
use compactor_tests::harness::{Script, Scripted, SimClock};
use compactor_tests::setup::*;

/// A store with versions, for `compact_session`.
#[derive(Default)]
struct MemoryStore {
    rows: Mutex<HashMap<String, (Vec<Message>, u64)>>,
    /// The next load is followed by an edit: the first message removed, the version bumped.
    bump_before_save: AtomicBool,
}

impl SessionStore for MemoryStore {
    type Version = u64;
    type Error = String;
    async fn load(&self, session: &str) -> Result<Option<(Vec<Message>, u64)>, String> {
        let row = self
            .rows
            .lock()
            .map_err(|e| e.to_string())?
            .get(session)
            .cloned();
        if let Some((messages, version)) = &row
            && self.bump_before_save.swap(false, Ordering::SeqCst)
        {
            self.rows
                .lock()
                .map_err(|e| e.to_string())?
                .insert(session.into(), (messages[1..].to_vec(), version + 1));
        }
        Ok(row)
    }
    async fn save(
        &self,
        session: &str,
        messages: &[Message],
        expected: &u64,
    ) -> Result<Result<(), u64>, String> {
        let expected = *expected;
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
    let outcome = futures_executor::block_on(compactor.compact_session(
        &store,
        "s1",
        &scripted,
        &SimClock::default(),
    ))
    .expect("compacts")
    .outcome;
    let (saved, version) = store.rows.lock().expect("rows")["s1"].clone();
    assert_eq!((saved, version), (outcome.messages, 8));

    let racing = MemoryStore {
        bump_before_save: true.into(),
        ..MemoryStore::default()
    };
    racing
        .rows
        .lock()
        .expect("rows")
        .insert("s1".into(), (messages.clone(), 3));
    compactor.clear_cache();
    let result = futures_executor::block_on(compactor.compact_session(
        &racing,
        "s2",
        &scripted,
        &SimClock::default(),
    ));
    assert_eq!(result.map(|_| ()), Err(CompactError::NoMessagesToCompact));
    let result = futures_executor::block_on(compactor.compact_session(
        &racing,
        "s1",
        &scripted,
        &SimClock::default(),
    ));
    assert_eq!(
        result.map(|_| ()),
        Err(CompactError::Conflict {
            expected: "3".into(),
            found: "4".into()
        })
    );
    assert_eq!(
        racing.rows.lock().expect("rows")["s1"].0,
        messages[1..],
        "nothing written over the edit"
    );
}

#[test]
fn store_failures_are_persist_failed_errors() {
    let compactor = compactor_for(10_000, 1.0, |_| {});
    let result = futures_executor::block_on(compactor.compact_session(
        &BrokenStore,
        "s1",
        &Scripted::always(Script::Extract),
        &SimClock::default(),
    ));
    assert_eq!(
        result.map(|_| ()),
        Err(CompactError::PersistFailed("connection refused".into()))
    );
}

struct BrokenStore;

impl SessionStore for BrokenStore {
    type Version = u64;
    type Error = String;
    async fn load(&self, _: &str) -> Result<Option<(Vec<Message>, u64)>, String> {
        Err("connection refused".into())
    }
    async fn save(&self, _: &str, _: &[Message], _: &u64) -> Result<Result<(), u64>, String> {
        Err("read-only".into())
    }
}
