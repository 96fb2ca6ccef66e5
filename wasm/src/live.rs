//! `compactor.session(id, messages?, options?)`: a conversation kept inside the engine (the
//! host layer's `wire::Session`), so an agent's per-turn check costs its new messages only.
//!
//! Messages cross the boundary once, when they are appended (as JSON text, like every
//! other input); `messages` writes the conversation back in its format on demand, with the
//! same bytes `compact` would answer. Runs go through the session's runner, as in every
//! host, and the same drive loop as `compact`.

use std::cell::RefCell;
use std::rc::Rc;

use compactor::wire::{self, Handle};
use js_sys::{Array, Object, Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

use crate::callbacks::now;
use crate::convert::{
    PIN_OPTIONS, json_to_js, parse_js, read_conversation, read_format, read_json,
};
use crate::error::{Failure, Js};
use crate::fields::Fields;
use crate::run::{Options, Stop};

/// A conversation kept inside the engine: `append` each new message, `assess` before
/// each model call, `compact` when a signal fires. Created by `compactor.session`.
#[wasm_bindgen(js_name = Session)]
pub struct SessionHandle {
    state: Rc<RefCell<wire::Session>>,
}

/// A session handle `id` holding `messages` (none when `undefined`), read as
/// `options.format` says, with `options.pin` and `options.compactable` applied.
pub(crate) fn open(
    handle: &Handle,
    id: &str,
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
    let conversation = read_conversation(&messages, format, lenient)?;
    let session = handle.session::<Js>(id, conversation, lenient, &pins)?;
    Ok(SessionHandle {
        state: Rc::new(RefCell::new(session)),
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
        Ok(self
            .state
            .borrow_mut()
            .append::<Js>(json)
            .map_err(Failure::from)?)
    }

    /// The assessment of the session's messages, as `compactor.assess` gives it but without
    /// the per-message list (see `plan()`): kept current by `append`, so this costs the
    /// same whatever the conversation's length.
    #[wasm_bindgen(unchecked_return_type = "SessionAssessment")]
    pub fn assess(&self) -> Result<JsValue, JsValue> {
        Ok(parse_js(self.state.borrow_mut().assess())?)
    }

    /// The plan of the session's messages, as `compactor.plan` gives it.
    #[wasm_bindgen(unchecked_return_type = "Plan")]
    pub fn plan(&self) -> Result<JsValue, JsValue> {
        Ok(parse_js(self.state.borrow_mut().plan())?)
    }

    /// Compacts the session's messages as `compactor.compact` would, through the session's
    /// policy, and applies the result to the session: resolves to `{ status, report,
    /// changes }` (`session.messages` has the messages). Messages appended meanwhile stay
    /// after the result. Options are `compact`'s but `format`, `lenient` and `sessionId`,
    /// which are the session's. On rejection the session is unchanged; a second `compact`
    /// while one is under way rejects with `CONFLICT`.
    #[wasm_bindgen(unchecked_return_type = "Promise<SessionCompactResult>")]
    pub fn compact(
        &self,
        #[wasm_bindgen(unchecked_param_type = "SessionCompactOptions")] options: JsValue,
    ) -> Promise {
        let begun = (|| {
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
                    return Err(Failure::invalid(format!("options.{name}"), why).into());
                }
            }
            let options = Options::read(&options, false)?;
            if options.aborted().is_some() {
                return Err(options.abort());
            }
            let run = self
                .state
                .borrow_mut()
                .begin::<Js>(options.trigger, now())
                .map_err(Failure::from)?;
            Ok::<_, Stop>((options, run))
        })();
        let (options, mut run) = match begun {
            Ok(begun) => begun,
            Err(stop) => return Promise::reject(&stop.into()),
        };
        let state = Rc::clone(&self.state);
        future_to_promise(async move {
            let outcome = options.drive(&mut run).await;
            let mut session = state.borrow_mut();
            let outcome = match outcome {
                Ok(outcome) => outcome,
                Err(stop) => {
                    session.release();
                    return Err(stop.into());
                }
            };
            let finished = session.finish::<Js>(&outcome).map_err(Failure::from)?;
            let object = Object::new();
            let _ = Reflect::set(&object, &"status".into(), &parse_js(Ok(finished.status))?);
            let _ = Reflect::set(&object, &"report".into(), &parse_js(Ok(finished.report))?);
            let changes = parse_js(Ok(finished.changes.unwrap_or_default()))?;
            let _ = Reflect::set(&object, &"changes".into(), &changes);
            Ok(object.into())
        })
    }

    /// The session's messages in its format, written as `compact` writes them: messages no
    /// compaction rewrote come back exactly as they were appended. Built on each read.
    #[wasm_bindgen(getter, unchecked_return_type = "Conversation")]
    pub fn messages(&self) -> JsValue {
        json_to_js(&self.state.borrow().written())
    }

    /// What the last compaction changed, as a splice of the messages array before it
    /// (`{ start, deleteCount, insert }`: `array.splice(start, deleteCount, ...insert)`
    /// brings a copy of the array up to date); `undefined` before the first.
    #[wasm_bindgen(getter, unchecked_return_type = "SessionChanges | undefined")]
    pub fn changes(&self) -> JsValue {
        match self.state.borrow().changes::<Js>() {
            Ok(Some(changes)) => parse_js(Ok(changes)).unwrap_or(JsValue::UNDEFINED),
            _ => JsValue::UNDEFINED,
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
        Ok(self
            .state
            .borrow_mut()
            .pin::<Js>(&pins, "session.pin")
            .map_err(Failure::from)?)
    }

    /// The session id.
    #[wasm_bindgen(getter)]
    pub fn id(&self) -> String {
        self.state.borrow().id().to_owned()
    }

    /// How many messages the session holds (the engine's: for Anthropic, the `system`
    /// field counts as one).
    #[wasm_bindgen(getter)]
    pub fn length(&self) -> u32 {
        u32::try_from(self.state.borrow().len()).unwrap_or(u32::MAX)
    }
}
