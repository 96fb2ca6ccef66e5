//! `compactSession`: a session read from the caller's store, compacted by the driver, and
//! written back with the version read. Appends made meanwhile are rebased after the result
//! (the core's `SessionWrite`, the same state machine the Rust driver follows); any other change is `CONFLICT`.

use compactor::format::Conversation;
use compactor::rebase::WriteBack;
use compactor::wire::{Handle, apply_pins};
use compactor::writeback::{SessionWrite, WriteStep};
use js_sys::{Function, Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

use crate::callbacks::{settle, with_cause};
use crate::convert::{read_conversation, session_id_of};
use crate::error::{Code, Failure, Js, js_message};
use crate::fields::describe;
use crate::run::{Options, Stop, result};

/// A store's method, bound to the store.
fn method(store: &JsValue, name: &str) -> Result<Function, Failure> {
    let path = format!("store.{name}");
    if !store.is_object() {
        return Err(Failure::invalid(
            "store",
            format!(
                "expected an object with load and save, found {}",
                describe(store)
            ),
        ));
    }
    Reflect::get(store, &name.into())
        .map_err(|thrown| Failure::invalid(&path, js_message(&thrown)))?
        .dyn_into::<Function>()
        .map_err(|value| {
            Failure::invalid(
                &path,
                format!("expected a function, found {}", describe(&value)),
            )
        })
}

/// A store's `load` or `save` threw or rejected: its error is the cause.
fn persist_failed(method: &str, thrown: JsValue) -> Stop {
    let failure = Failure::new(
        Code::PersistFailed,
        format!(
            "session store failed: store.{method}: {}",
            js_message(&thrown)
        ),
    );
    Stop::Thrown(with_cause(failure.into(), &thrown))
}

/// `compactor.compactSession(store, sessionId, options)`: the Rust `compact_session` over
/// the caller's promises. Read with the version, compact, write back only a compacted
/// result, with the version read, as the core's [`SessionWrite`] says: appends made meanwhile
/// are rebased after the result, anything else is `CONFLICT`.
pub(crate) fn compact_session(
    handle: Handle,
    store: &JsValue,
    session_id: &JsValue,
    options: &JsValue,
) -> Promise {
    let prepared = (|| {
        let load = method(store, "load")?;
        let save = method(store, "save")?;
        let session = session_id_of(session_id, "sessionId")?;
        let options = Options::read(options, false)?;
        Ok::<_, Failure>((load, save, session, options))
    })();
    let (load, save, session, options) = match prepared {
        Ok(prepared) => prepared,
        Err(failure) => return Promise::reject(&failure.into()),
    };
    let store = Store {
        this: store.clone(),
        load,
        save,
        id: JsValue::from_str(&session),
    };
    future_to_promise(async move {
        let mut write = SessionWrite::new(handle.engine().clone());
        loop {
            match write.poll() {
                WriteStep::Load => write.loaded(store.load(&options).await?),
                WriteStep::Compact { messages, base } => {
                    let outcome = options
                        .run(&handle, &session, messages, base.format)
                        .await?;
                    write.compacted(outcome);
                }
                WriteStep::Save {
                    write: result,
                    base,
                    expected,
                } => {
                    // Once the write starts it is awaited to its end: rejecting ABORTED while
                    // it lands would tell the caller nothing was written when it was.
                    if let Some(signal) = options.aborted() {
                        return Err(Stop::Aborted(signal.reason()).into());
                    }
                    // Written in the format and envelope of what the store holds now:
                    // messages the run did not rewrite, the appended ones included, go
                    // back verbatim.
                    let written = session_result(base, result)?;
                    let messages = Reflect::get(&written, &"messages".into()).unwrap_or_default();
                    match store.save(&messages, expected).await? {
                        None => return Ok(written),
                        Some(found) => write.saved(Err(found)),
                    }
                }
                WriteStep::Done { write, base } => return Ok(session_result(&base, &write)?),
                WriteStep::Conflict { expected, found } => return Err(conflict(&expected, &found)),
                WriteStep::Failed(error) => return Err(Stop::from(error).into()),
                // `Missing`: the store has no such session.
                _ => {
                    return Err(Failure::invalid(
                        "sessionId",
                        format!("no messages to compact: the store has no session {session:?}"),
                    )
                    .into());
                }
            }
        }
    })
}

/// `{ messages, report, status, rebased, conflicts }`: `compact`'s result, and how many
/// appended messages were rebased after it in how many refused saves.
fn session_result(conversation: &Conversation, write: &WriteBack) -> Result<JsValue, Failure> {
    let object = result(conversation, &write.outcome)?;
    let _ = Reflect::set(&object, &"rebased".into(), &(write.rebased as f64).into());
    let _ = Reflect::set(
        &object,
        &"conflicts".into(),
        &f64::from(write.conflicts).into(),
    );
    Ok(object)
}

/// The caller's `{ load, save }`, bound to one session.
struct Store {
    this: JsValue,
    load: Function,
    save: Function,
    id: JsValue,
}

impl Store {
    /// The stored conversation and its version; `None` for an unknown session.
    async fn load(&self, options: &Options) -> Result<Option<(Conversation, JsValue)>, JsValue> {
        let loaded = match self.load.call1(&self.this, &self.id) {
            Ok(value) => settle(value).await,
            Err(thrown) => Err(thrown),
        }
        .map_err(|thrown| persist_failed("load", thrown))?;
        if loaded.is_null() || loaded.is_undefined() {
            return Ok(None);
        }
        let field = |name: &str| {
            if loaded.is_object() {
                Reflect::get(&loaded, &name.into()).unwrap_or_default()
            } else {
                JsValue::UNDEFINED
            }
        };
        let (messages, version) = (field("messages"), field("version"));
        if messages.is_undefined() || version.is_undefined() {
            return Err(Failure::invalid(
                "store.load()",
                format!(
                    "expected {{ messages, version }} or null, found {}",
                    describe(&loaded)
                ),
            )
            .into());
        }
        let mut conversation = read_conversation(&messages, options.format, options.lenient)
            .map_err(|f| f.rebased("store.load().messages"))?;
        apply_pins::<Js>(&mut conversation, &options.pins).map_err(Failure::from)?;
        Ok(Some((conversation, version)))
    }

    /// Writes `messages` if the version is still `version`: `None` when written, else the
    /// version found.
    async fn save(
        &self,
        messages: &JsValue,
        version: &JsValue,
    ) -> Result<Option<JsValue>, JsValue> {
        let saved = match self.save.call3(&self.this, &self.id, messages, version) {
            Ok(value) => settle(value).await,
            Err(thrown) => Err(thrown),
        }
        .map_err(|thrown| persist_failed("save", thrown))?;
        if saved.as_bool() == Some(true) {
            return Ok(None);
        }
        let found = saved
            .is_object()
            .then(|| Reflect::get(&saved, &"conflict".into()).ok())
            .flatten()
            .filter(|found| !found.is_undefined());
        match found {
            Some(found) => Ok(Some(found)),
            None => Err(Failure::invalid(
                "store.save()",
                format!(
                    "expected true or {{ conflict: version }}, found {}",
                    describe(&saved)
                ),
            )
            .into()),
        }
    }
}

/// `CONFLICT`, with both versions as the store gave them.
fn conflict(expected: &JsValue, found: &JsValue) -> JsValue {
    let error: JsValue = Failure::new(
        Code::Conflict,
        format!(
            "session changed meanwhile: expected version {}, found {}",
            display(expected),
            display(found)
        ),
    )
    .into();
    let _ = Reflect::set(&error, &"expected".into(), expected);
    let _ = Reflect::set(&error, &"found".into(), found);
    error
}

/// A version for messages: numbers and strings as they are, anything else as JSON.
fn display(value: &JsValue) -> String {
    if let Some(text) = value.as_string() {
        return format!("{text:?}");
    }
    js_sys::JSON::stringify(value)
        .ok()
        .and_then(|t| t.as_string())
        .unwrap_or_else(|| describe(value))
}
