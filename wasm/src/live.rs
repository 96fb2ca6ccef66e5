//! `compactor.session(id, messages?, options?)`: a conversation kept inside the engine (the
//! core's `live::Session`), so an agent's per-turn check costs its new messages only.
//!
//! Messages cross the boundary once, when they are appended (as JSON text, like every
//! other input); `messages` writes the conversation back in its format on demand, with the
//! same bytes `compact` would answer. Runs go through the same driver as `compact`.

use std::cell::RefCell;
use std::rc::Rc;

use compactor::engine::Status;
use compactor::format::{Conversation, ParseOptions};
use compactor::live::{Session as LiveSession, Splice};
use compactor::pin::Pins;
use compactor::wire::{Changes, PlanView, SessionAssessment};
use js_sys::{Array, Object, Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

use crate::convert::{PIN_OPTIONS, json_to_js, read_conversation, read_format, read_json, to_js};
use crate::driver::{Options, run_messages};
use crate::error::Code;
use crate::error::Failure;
use crate::fields::Fields;

/// A session's state: the engine's session, and what writing its messages back needs.
struct State {
    live: LiveSession,
    /// The format, the request body around the messages and each message's original JSON;
    /// its `messages` stay empty (the engine's session holds them).
    conversation: Conversation,
    lenient: bool,
    /// A `compact` is under way.
    compacting: bool,
}

impl State {
    /// Pins messages of the session (indices in its messages array, which does not hold
    /// the messages its format writes elsewhere, such as Anthropic's `system`);
    /// `INVALID_INPUT` at `path` when one is past its end.
    fn pin(&mut self, pins: &Pins, path: &str) -> Result<(), Failure> {
        let given = self.conversation.given_start(self.live.messages());
        self.live
            .pin(pins, given)
            .map_err(|e| Failure::invalid(path, e.to_string()))
    }
}

/// A conversation kept inside the engine: `append` each new message, `assess` before
/// each model call, `compact` when a signal fires. Created by `compactor.session`.
#[wasm_bindgen(js_name = Session)]
pub struct SessionHandle {
    state: Rc<RefCell<State>>,
}

/// A session handle `id` holding `messages` (none when `undefined`), read as
/// `options.format` says, with `options.pin` and `options.compactable` applied.
pub(crate) fn open(
    engine: &compactor::engine::Compactor,
    id: String,
    messages: Option<JsValue>,
    options: Option<JsValue>,
) -> Result<SessionHandle, Failure> {
    let options = options.unwrap_or_default();
    let options = Fields::new(&options, "options", PIN_OPTIONS)?;
    let (format, lenient) = read_format(&options)?;
    let pins = options.pins()?;
    let messages = messages
        .filter(|m| !m.is_undefined())
        .unwrap_or_else(|| Array::new().into());
    let mut conversation = read_conversation(&messages, format, lenient)?;
    let messages = std::mem::take(&mut conversation.messages);
    let mut state = State {
        live: LiveSession::new(engine, &id, messages),
        conversation,
        lenient,
        compacting: false,
    };
    state.pin(&pins, "options.pin")?;
    Ok(SessionHandle {
        state: Rc::new(RefCell::new(state)),
    })
}

#[wasm_bindgen(js_class = Session)]
impl SessionHandle {
    /// Adds messages at the end (an array, in the session's format): only they are read,
    /// counted and segmented. Throws `INVALID_INPUT` (path `messages[i]` within the array)
    /// and adds none when one is bad. `append(...messages)` is this with the messages as
    /// arguments.
    #[wasm_bindgen(js_name = appendAll)]
    pub fn append_all(
        &self,
        #[wasm_bindgen(unchecked_param_type = "readonly object[]")] messages: JsValue,
    ) -> Result<(), JsValue> {
        let Some(json) = read_json(&messages, "messages")? else {
            return Err(Failure::invalid("messages", "expected an array of messages").into());
        };
        let mut state = self.state.borrow_mut();
        let lenient = state.lenient;
        let new = state
            .conversation
            .read_more(json, ParseOptions { lenient })
            .map_err(Failure::from)?;
        state.live.append(new);
        Ok(())
    }

    /// The assessment of the session's messages, as `compactor.assess` gives it but without
    /// the per-message list (see `plan()`): kept current by `append`, so this costs the
    /// same whatever the conversation's length.
    #[wasm_bindgen(unchecked_return_type = "SessionAssessment")]
    pub fn assess(&self) -> Result<JsValue, JsValue> {
        let mut state = self.state.borrow_mut();
        Ok(to_js(&SessionAssessment::from(state.live.assess()))?)
    }

    /// The plan of the session's messages, as `compactor.plan` gives it.
    #[wasm_bindgen(unchecked_return_type = "Plan")]
    pub fn plan(&self) -> Result<JsValue, JsValue> {
        let mut state = self.state.borrow_mut();
        let plan = state.live.plan().map_err(Failure::from)?;
        Ok(to_js(&PlanView::of(&plan, state.live.messages()))?)
    }

    /// Compacts the session's messages as `compactor.compact` would, and applies the
    /// result to the session: resolves to `{ status, report, changes }` (`session.messages`
    /// has the messages). Messages appended meanwhile stay after the result. Options are
    /// `compact`'s but `format`, `lenient` and `sessionId`, which are the session's. On
    /// rejection the session is unchanged; a second `compact` while one is under way
    /// rejects with `CONFLICT`.
    #[wasm_bindgen(unchecked_return_type = "Promise<SessionCompactResult>")]
    pub fn compact(
        &self,
        #[wasm_bindgen(unchecked_param_type = "SessionCompactOptions")] options: JsValue,
    ) -> Promise {
        let prepared = (|| {
            for name in ["format", "lenient", "sessionId", "pin", "compactable"] {
                if options.is_object()
                    && Reflect::get(&options, &name.into()).is_ok_and(|v| !v.is_undefined())
                {
                    let why = match name {
                        "pin" | "compactable" => {
                            "a session's pins are set when it is created or by session.pin"
                        }
                        _ => "a session's format and id are set when it is created",
                    };
                    return Err(Failure::invalid(format!("options.{name}"), why));
                }
            }
            let read = Options::read(&options, false)?;
            let mut state = self.state.borrow_mut();
            if state.compacting {
                return Err(Failure::new(
                    Code::Conflict,
                    "a compaction of this session is already under way",
                ));
            }
            state.compacting = true;
            let messages = state.live.messages().to_vec();
            Ok((read, messages))
        })();
        let (read, messages) = match prepared {
            Ok(prepared) => prepared,
            Err(failure) => return Promise::reject(&failure.into()),
        };
        let state = Rc::clone(&self.state);
        future_to_promise(async move {
            let (engine, id, format) = {
                let s = state.borrow();
                (
                    s.live.compactor().clone(),
                    s.live.id().to_owned(),
                    s.conversation.format,
                )
            };
            let outcome = run_messages(&engine, &read, &id, &messages, format).await;
            let mut s = state.borrow_mut();
            s.compacting = false;
            let outcome = outcome?;
            let splice = s.live.apply(&outcome, messages.len()).clone();
            if matches!(outcome.status, Status::Compacted { .. }) {
                let State {
                    live, conversation, ..
                } = &mut *s;
                conversation.retain_originals(live.messages());
            }
            let object = Object::new();
            let _ = Reflect::set(&object, &"status".into(), &to_js(&outcome.status)?);
            let _ = Reflect::set(&object, &"report".into(), &to_js(&outcome.report)?);
            let _ = Reflect::set(&object, &"changes".into(), &changes(&s, &splice)?);
            Ok(object.into())
        })
    }

    /// The session's messages in its format, written as `compact` writes them: messages no
    /// compaction rewrote come back exactly as they were appended. Built on each read.
    #[wasm_bindgen(getter, unchecked_return_type = "Conversation")]
    pub fn messages(&self) -> JsValue {
        let state = self.state.borrow();
        json_to_js(&state.conversation.to_json(state.live.messages()))
    }

    /// What the last compaction changed, as a splice of the messages array before it
    /// (`{ start, deleteCount, insert }`: `array.splice(start, deleteCount, ...insert)`
    /// brings a copy of the array up to date); `undefined` before the first.
    #[wasm_bindgen(getter, unchecked_return_type = "SessionChanges | undefined")]
    pub fn changes(&self) -> JsValue {
        let state = self.state.borrow();
        match state.live.changes() {
            Some(splice) => changes(&state, splice).unwrap_or(JsValue::UNDEFINED),
            None => JsValue::UNDEFINED,
        }
    }

    /// Pins the messages at `indices` (positions in the session's messages array now): they
    /// stay verbatim in every later compaction. A pin follows its message, not its index:
    /// after a compaction moves the message, it is still pinned (and `indices` of later
    /// calls count in the array as it is then). Throws `INVALID_INPUT` and pins nothing when
    /// an index is past the end.
    pub fn pin(
        &self,
        #[wasm_bindgen(unchecked_param_type = "readonly number[]")] indices: JsValue,
    ) -> Result<(), JsValue> {
        let holder = Object::new();
        let _ = Reflect::set(&holder, &"pin".into(), &indices);
        let pins = Fields::new(&holder, "session", &["pin"])?.pins()?;
        self.state.borrow_mut().pin(&pins, "session.pin")?;
        Ok(())
    }

    /// The session id.
    #[wasm_bindgen(getter)]
    pub fn id(&self) -> String {
        self.state.borrow().live.id().to_owned()
    }

    /// How many messages the session holds (the engine's: for Anthropic, the `system`
    /// field counts as one).
    #[wasm_bindgen(getter)]
    pub fn length(&self) -> u32 {
        u32::try_from(self.state.borrow().live.len()).unwrap_or(u32::MAX)
    }
}

/// `{ start, deleteCount, insert }` in array positions of the session's format.
fn changes(state: &State, splice: &Splice) -> Result<JsValue, Failure> {
    to_js(&Changes::of(
        &state.conversation,
        state.live.messages(),
        splice,
    ))
}
