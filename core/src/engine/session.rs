//! What the engine remembers per session, shared by every clone of a handle: the circuit
//! breaker, the latest result (for idempotency), and the summary cache. Bounded (LRU), and
//! plain data in and out ([`EngineState`]), so a session can move to another worker.

use crate::engine::lru::Lru;
use crate::hash::ContentHash;

/// The version of [`EngineState`] this build writes and reads.
pub const STATE_VERSION: u32 = 1;

/// One session's record.
#[derive(Debug, Default, Clone)]
pub(crate) struct SessionState {
    pub(crate) failures: u32,
    pub(crate) opened_at_ms: Option<u64>,
    /// The latest result: its key and the content hash of each message (ids change when a
    /// result is stored as JSON and read back; content does not).
    pub(crate) last: Option<(String, Vec<ContentHash>)>,
    /// Tokens of the conversation the session's latest `begin` assessed.
    pub(crate) last_tokens: Option<u64>,
}

impl SessionState {
    /// Is the circuit open at `now_ms`? A cool-down that passed closes it.
    pub(crate) fn circuit_open(&mut self, now_ms: u64, cooldown_ms: Option<u64>) -> bool {
        match (self.opened_at_ms, cooldown_ms) {
            (Some(opened), Some(cooldown)) if now_ms.saturating_sub(opened) >= cooldown => {
                self.opened_at_ms = None;
                self.failures = 0;
                false
            }
            (Some(_), _) => true,
            (None, _) => false,
        }
    }

    /// Counts a failed run; `Some(failures)` when this opened the circuit.
    pub(crate) fn count_failure(&mut self, max_failures: u32, now_ms: u64) -> Option<u32> {
        self.failures = self.failures.saturating_add(1);
        if self.failures >= max_failures && self.opened_at_ms.is_none() {
            self.opened_at_ms = Some(now_ms);
            return Some(self.failures);
        }
        None
    }
}

/// The state behind a handle and its clones.
#[derive(Debug)]
pub(crate) struct Shared {
    pub(crate) cache: Lru<String, String>,
    pub(crate) sessions: Lru<String, SessionState>,
}

impl Shared {
    pub(crate) fn new(cache_capacity: usize, session_capacity: usize) -> Self {
        Self {
            cache: Lru::new(cache_capacity),
            sessions: Lru::new(session_capacity),
        }
    }

    /// The session's record, made when absent (`None` only at a capacity of 0, which
    /// validation refuses).
    pub(crate) fn session(&mut self, id: &str) -> Option<&mut SessionState> {
        self.sessions
            .get_or_insert_with(&id.to_owned(), SessionState::default)
    }

    pub(crate) fn export(&self) -> EngineState {
        EngineState {
            version: STATE_VERSION,
            sessions: self
                .sessions
                .iter()
                .map(|(id, s)| SessionRecord {
                    id: id.clone(),
                    failures: s.failures,
                    opened_at_ms: s.opened_at_ms,
                    last_tokens: s.last_tokens,
                    latest: s.last.as_ref().map(|(key, hashes)| LatestResult {
                        key: key.clone(),
                        hashes: hashes.iter().map(|h| h.to_hex()).collect(),
                    }),
                })
                .collect(),
            cache: self
                .cache
                .iter()
                .map(|(key, summary)| CachedSummary {
                    key: key.clone(),
                    summary: summary.clone(),
                })
                .collect(),
        }
    }

    /// Checks all of `state` first, then merges it in: its records replace this handle's
    /// for the same sessions and keys.
    pub(crate) fn import(&mut self, state: EngineState) -> Result<(), StateError> {
        if state.version != STATE_VERSION {
            return Err(StateError::new(
                "version",
                format!(
                    "unsupported state version {} (this build reads {STATE_VERSION})",
                    state.version
                ),
            ));
        }
        let mut sessions = Vec::with_capacity(state.sessions.len());
        for (i, record) in state.sessions.into_iter().enumerate() {
            let last = match record.latest {
                Some(latest) => {
                    let mut hashes = Vec::with_capacity(latest.hashes.len());
                    for (h, hex) in latest.hashes.iter().enumerate() {
                        let hash = ContentHash::from_hex(hex).ok_or_else(|| {
                            StateError::new(
                                format!("sessions[{i}].latest.hashes[{h}]"),
                                format!("expected 16 hex digits, found {hex:?}"),
                            )
                        })?;
                        hashes.push(hash);
                    }
                    Some((latest.key, hashes))
                }
                None => None,
            };
            let state = SessionState {
                failures: record.failures,
                opened_at_ms: record.opened_at_ms,
                last,
                last_tokens: record.last_tokens,
            };
            sessions.push((record.id, state));
        }
        for (id, state) in sessions {
            self.sessions.insert(id, state);
        }
        for entry in state.cache {
            self.cache.insert(entry.key, entry.summary);
        }
        Ok(())
    }
}

/// The engine's memory, as plain data: export it from one handle
/// ([`Compactor::export_state`](super::Compactor::export_state)), store it beside the
/// session's messages, import it into another. Format version [`STATE_VERSION`]; entries
/// are listed from the least to the most recently used.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(rename_all = "camelCase")
)]
pub struct EngineState {
    /// The format's version.
    pub version: u32,
    /// Breaker and latest result of each session.
    pub sessions: Vec<SessionRecord>,
    /// Cached summaries.
    pub cache: Vec<CachedSummary>,
}

/// One session in an [`EngineState`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(rename_all = "camelCase")
)]
pub struct SessionRecord {
    /// The session.
    pub id: String,
    /// Consecutive failed runs.
    pub failures: u32,
    /// When the circuit opened (caller's clock, ms), if it is open.
    pub opened_at_ms: Option<u64>,
    /// Tokens of the conversation last assessed.
    pub last_tokens: Option<u64>,
    /// The session's latest result, which a later `begin` answers with a no-op.
    pub latest: Option<LatestResult>,
}

/// The latest result of a session.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(rename_all = "camelCase")
)]
pub struct LatestResult {
    /// Its idempotency key.
    pub key: String,
    /// The content hash of each of its messages, 16 hex digits each.
    pub hashes: Vec<String>,
}

/// One cached summary.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(rename_all = "camelCase")
)]
pub struct CachedSummary {
    /// The cache key (session, level, prompt version, content of the covered messages).
    pub key: String,
    /// The summary.
    pub summary: String,
}

/// A state the engine refuses: a newer or damaged format. Nothing was imported.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path}: {message}")]
pub struct StateError {
    /// Where in the state (`sessions[2].latest.hashes[0]`).
    pub path: String,
    /// What is wrong.
    pub message: String,
}

impl StateError {
    /// An error at `path`.
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            path: path.into(),
            message: message.into(),
        }
    }
}

/// Reading a state from JSON, field by field: the version first (a newer format is refused
/// as such, not as a list of unknown fields), then every field, with the path of the first
/// thing wrong. Written out rather than derived: serde's derived errors would pull float
/// formatting into the lite npm package.
#[cfg(feature = "serde")]
mod json {
    use serde_json::{Map, Value};

    use super::{
        CachedSummary, EngineState, LatestResult, STATE_VERSION, SessionRecord, StateError,
    };

    type Fields<'a> = (&'a Map<String, Value>, String);

    fn object<'a>(value: &'a Value, path: &str, known: &[&str]) -> Result<Fields<'a>, StateError> {
        let map = value
            .as_object()
            .ok_or_else(|| StateError::new(path, "expected an object"))?;
        if let Some(unknown) = map.keys().find(|k| !known.contains(&k.as_str())) {
            return Err(StateError::new(join(path, unknown), "unknown field"));
        }
        Ok((map, path.to_owned()))
    }

    fn join(path: &str, field: &str) -> String {
        if path.is_empty() {
            field.to_owned()
        } else {
            format!("{path}.{field}")
        }
    }

    fn field<'a>((map, path): &Fields<'a>, name: &str) -> (Option<&'a Value>, String) {
        (map.get(name).filter(|v| !v.is_null()), join(path, name))
    }

    fn integer(fields: &Fields<'_>, name: &str, max: u64) -> Result<Option<u64>, StateError> {
        match field(fields, name) {
            (None, _) => Ok(None),
            (Some(v), path) => v.as_u64().filter(|&n| n <= max).map(Some).ok_or_else(|| {
                StateError::new(path, format!("expected an integer from 0 to {max}"))
            }),
        }
    }

    fn string(fields: &Fields<'_>, name: &str) -> Result<String, StateError> {
        match field(fields, name) {
            (Some(Value::String(s)), _) => Ok(s.clone()),
            (_, path) => Err(StateError::new(path, "expected a string")),
        }
    }

    fn array<'a>(fields: &Fields<'a>, name: &str) -> Result<(&'a [Value], String), StateError> {
        match field(fields, name) {
            (Some(Value::Array(items)), path) => Ok((items, path)),
            (_, path) => Err(StateError::new(path, "expected an array")),
        }
    }

    fn session(value: &Value, path: &str) -> Result<SessionRecord, StateError> {
        let known = ["id", "failures", "openedAtMs", "lastTokens", "latest"];
        let fields = object(value, path, &known)?;
        let latest = match field(&fields, "latest") {
            (None, _) => None,
            (Some(latest), path) => {
                let latest = object(latest, &path, &["key", "hashes"])?;
                let (items, path) = array(&latest, "hashes")?;
                let hashes = items
                    .iter()
                    .enumerate()
                    .map(|(i, h)| {
                        h.as_str().map(str::to_owned).ok_or_else(|| {
                            StateError::new(format!("{path}[{i}]"), "expected a string")
                        })
                    })
                    .collect::<Result<_, _>>()?;
                Some(LatestResult {
                    key: string(&latest, "key")?,
                    hashes,
                })
            }
        };
        Ok(SessionRecord {
            id: string(&fields, "id")?,
            failures: integer(&fields, "failures", u64::from(u32::MAX))?.unwrap_or(0) as u32,
            opened_at_ms: integer(&fields, "openedAtMs", u64::MAX)?,
            last_tokens: integer(&fields, "lastTokens", u64::MAX)?,
            latest,
        })
    }

    impl EngineState {
        /// Reads a state written by [`EngineState`]'s `Serialize` (or the npm package's
        /// `exportState`). A newer or damaged state is refused with the path of the first
        /// thing wrong.
        pub fn from_json(value: &Value) -> Result<Self, StateError> {
            let fields = object(value, "", &["version", "sessions", "cache"])
                .map_err(|e| StateError::new("version", e.message))?;
            let version = integer(&fields, "version", u64::from(u32::MAX))?;
            if version != Some(u64::from(STATE_VERSION)) {
                return Err(StateError::new(
                    "version",
                    format!(
                        "expected {STATE_VERSION}, found {}",
                        field(&fields, "version")
                            .0
                            .map_or("nothing".into(), ToString::to_string)
                    ),
                ));
            }
            let (items, path) = array(&fields, "sessions")?;
            let sessions = items
                .iter()
                .enumerate()
                .map(|(i, v)| session(v, &format!("{path}[{i}]")))
                .collect::<Result<_, _>>()?;
            let (items, path) = array(&fields, "cache")?;
            let cache = items
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    let entry = object(v, &format!("{path}[{i}]"), &["key", "summary"])?;
                    Ok(CachedSummary {
                        key: string(&entry, "key")?,
                        summary: string(&entry, "summary")?,
                    })
                })
                .collect::<Result<_, StateError>>()?;
            Ok(EngineState {
                version: STATE_VERSION,
                sessions,
                cache,
            })
        }
    }
}
