//! The JS driver: `compact` is a thin loop over the engine's `begin`/`poll`/`complete`,
//! the same loop as the Rust `drive`, awaiting the caller's Promises in between
//! (`compactSession` runs it between a store's load and save: the `store` module). No
//! engine borrow is held while JS runs: requests are handed out as plain objects, the
//! answers come back through `complete`.
//!
//! Time is `Date.now()`, read here and passed in; the engine never reads a clock.

use std::future::Future;
use std::pin::Pin;
use std::task::Poll;

use compactor::engine::{
    self, CompactError, Outcome, RequestId, Run, Step, SummaryFailure, SummaryRequest, Trigger,
};
use compactor::format::{Conversation, Format};
use compactor::pin::Pins;
use futures_util::FutureExt;
use futures_util::future::poll_fn;
use futures_util::stream::{FuturesUnordered, StreamExt};
use js_sys::{Function, Object, Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::{JsFuture, future_to_promise};

use crate::convert::{apply_pins, json_to_js, read_conversation, read_format, to_js};
use crate::error::{Code, Failure, js_message};
use crate::fields::{Fields, describe};

#[wasm_bindgen]
extern "C" {
    /// An `AbortSignal`, or anything shaped like one (checked before use).
    #[wasm_bindgen(typescript_type = "AbortSignal")]
    pub(crate) type Signal;
    #[wasm_bindgen(method, getter)]
    fn aborted(this: &Signal) -> bool;
    #[wasm_bindgen(method, getter)]
    pub(crate) fn reason(this: &Signal) -> JsValue;
    #[wasm_bindgen(method, js_name = addEventListener)]
    fn add_event_listener(this: &Signal, kind: &str, listener: &Function);
    #[wasm_bindgen(method, js_name = removeEventListener)]
    fn remove_event_listener(this: &Signal, kind: &str, listener: &Function);

    // Every runtime the package supports (browsers, Node, workers) has these globals.
    #[wasm_bindgen(js_name = setTimeout)]
    fn set_timeout(handler: &Function, ms: f64) -> JsValue;
    #[wasm_bindgen(js_name = clearTimeout)]
    fn clear_timeout(id: &JsValue);
}

/// The caller's clock, in milliseconds.
fn now() -> u64 {
    js_sys::Date::now() as u64
}

/// The options of `compact` (and of `compactSession`, without `sessionId`).
pub(crate) struct Options {
    summarize: Function,
    on_event: Option<Function>,
    signal: Option<Signal>,
    pub(crate) format: Format,
    pub(crate) lenient: bool,
    session: String,
    trigger: Trigger,
    /// `pin` and `compactable`, applied to the messages as they are read.
    pub(crate) pins: Pins,
}

/// The options of `compact`; `compactSession` takes all but the last.
const COMPACT_OPTIONS: [&str; 9] = [
    "summarize",
    "signal",
    "onEvent",
    "format",
    "lenient",
    "trigger",
    "pin",
    "compactable",
    "sessionId",
];

/// The session `compact` uses when the options name none.
const DEFAULT_SESSION: &str = "default";

impl Options {
    pub(crate) fn read(options: &JsValue, with_session: bool) -> Result<Options, Failure> {
        if !options.is_object() || options.is_function() {
            return Err(Failure::invalid(
                "options",
                format!(
                    "expected an object with a summarize function, found {}",
                    describe(options)
                ),
            ));
        }
        // `compactSession` names its session as an argument, `compact` in its options.
        let known = &COMPACT_OPTIONS[..COMPACT_OPTIONS.len() - usize::from(!with_session)];
        let fields = Fields::new(options, "options", known)?;
        let summarize = match fields.value("summarize")? {
            Some(summarize) if summarize.is_function() => summarize.unchecked_into::<Function>(),
            found => {
                return Err(fields.invalid("summarize", "a function", &found.unwrap_or_default()));
            }
        };
        let on_event = fields.function("onEvent")?;
        let signal = match fields.value("signal")? {
            Some(v) if !v.is_null() => {
                let shaped = v.is_object()
                    && Reflect::get(&v, &"aborted".into()).is_ok_and(|a| a.as_bool().is_some())
                    && Reflect::get(&v, &"addEventListener".into()).is_ok_and(|f| f.is_function());
                if !shaped {
                    return Err(fields.invalid("signal", "an AbortSignal", &v));
                }
                Some(v.unchecked_into::<Signal>())
            }
            _ => None,
        };
        let (format, lenient) = read_format(&fields)?;
        let session = fields
            .string("sessionId")?
            .unwrap_or_else(|| DEFAULT_SESSION.to_owned());
        let trigger = match fields.string("trigger")?.as_deref() {
            None | Some("proactive") => Trigger::Proactive,
            Some("reactive") => Trigger::Reactive,
            Some("manual") => Trigger::Manual,
            Some(other) => {
                return Err(Failure::invalid(
                    "options.trigger",
                    format!("expected \"proactive\", \"reactive\" or \"manual\", found {other:?}"),
                ));
            }
        };
        let pins = fields.pins()?;
        Ok(Options {
            summarize,
            on_event,
            signal,
            format,
            lenient,
            session,
            trigger,
            pins,
        })
    }

    /// The signal, when it has fired.
    pub(crate) fn aborted(&self) -> Option<&Signal> {
        self.signal.as_ref().filter(|s| s.aborted())
    }
}

/// Why a driven run stopped without an outcome.
pub(crate) enum Stop {
    /// The engine's error, or the driver's own (a coded failure).
    Failure(Failure),
    /// The signal fired; its reason becomes the error's `cause`.
    Aborted(JsValue),
    /// The caller's `onEvent` threw this: it is rethrown as it is.
    Thrown(JsValue),
}

impl From<CompactError> for Stop {
    fn from(error: CompactError) -> Self {
        Stop::Failure(error.into())
    }
}

impl From<Failure> for Stop {
    fn from(failure: Failure) -> Self {
        Stop::Failure(failure)
    }
}

impl From<Stop> for JsValue {
    fn from(stop: Stop) -> Self {
        match stop {
            Stop::Failure(failure) => failure.into(),
            Stop::Aborted(reason) => with_cause(
                Failure::new(Code::Aborted, "aborted: nothing was applied").into(),
                &reason,
            ),
            Stop::Thrown(thrown) => thrown,
        }
    }
}

/// Sets `cause` on a JS error.
pub(crate) fn with_cause(error: JsValue, cause: &JsValue) -> JsValue {
    if !cause.is_undefined() {
        let _ = Reflect::set(&error, &"cause".into(), cause);
    }
    error
}

/// A Promise that settles when the signal fires; the listener goes when this does.
struct AbortWatch {
    signal: Signal,
    listener: Option<Function>,
    fired: JsFuture,
}

impl AbortWatch {
    fn new(signal: &Signal) -> Self {
        let mut listener = None;
        let promise = Promise::new(&mut |resolve, _reject| {
            signal.add_event_listener("abort", &resolve);
            listener = Some(resolve);
        });
        Self {
            signal: signal.unchecked_ref::<JsValue>().clone().unchecked_into(),
            listener,
            fired: JsFuture::from(promise),
        }
    }
}

impl Drop for AbortWatch {
    fn drop(&mut self) {
        if let Some(listener) = &self.listener {
            self.signal.remove_event_listener("abort", listener);
        }
    }
}

/// A Promise that settles after `ms`; the timer is cleared when this goes.
struct Timer {
    id: JsValue,
    fired: JsFuture,
}

impl Timer {
    fn new(ms: u64) -> Self {
        // setTimeout's delay is a signed 32-bit number: longer ones fire at once.
        let ms = ms.min(i32::MAX as u64) as f64;
        let mut id = JsValue::UNDEFINED;
        let promise = Promise::new(&mut |resolve, _reject| id = set_timeout(&resolve, ms));
        Self {
            id,
            fired: JsFuture::from(promise),
        }
    }
}

impl Drop for Timer {
    fn drop(&mut self) {
        clear_timeout(&self.id);
    }
}

/// Awaits a JS value: a Promise (or any thenable) settles, anything else is itself.
pub(crate) async fn settle(value: JsValue) -> Result<JsValue, JsValue> {
    JsFuture::from(Promise::resolve(&value)).await
}

/// A summarizer's answer as the engine takes it. A string is the summary; `{ inputTooLong:
/// true }`, or a rejection whose `code` is `"INPUT_TOO_LONG"`, asks for a smaller input;
/// anything else is a failure with its message.
fn answer(settled: Result<JsValue, JsValue>) -> Result<String, SummaryFailure> {
    let flag = |value: &JsValue, key: &str| {
        value.is_object()
            && Reflect::get(value, &key.into())
                .unwrap_or_default()
                .as_bool()
                == Some(true)
    };
    let code = |value: &JsValue| {
        if value.is_object() {
            Reflect::get(value, &"code".into())
                .ok()
                .and_then(|c| c.as_string())
        } else {
            None
        }
    };
    match settled {
        Ok(value) => match value.as_string() {
            Some(text) => Ok(text),
            None if flag(&value, "inputTooLong") => Err(SummaryFailure::InputTooLong),
            None => Err(SummaryFailure::failed(format!(
                "summarize resolved to {}, expected a string",
                describe(&value)
            ))),
        },
        Err(thrown) if code(&thrown).as_deref() == Some("INPUT_TOO_LONG") => {
            Err(SummaryFailure::InputTooLong)
        }
        Err(thrown) => Err(SummaryFailure::failed(js_message(&thrown))),
    }
}

type Answer = (RequestId, Result<String, SummaryFailure>);

/// Calls `summarize(request, { signal })` and returns the future of its answer. A
/// synchronous throw is a failed answer like a rejection.
fn ask(options: &Options, request: &SummaryRequest) -> Pin<Box<dyn Future<Output = Answer>>> {
    let id = request.id;
    let called = to_js(request).map_err(JsValue::from).and_then(|request| {
        let context = Object::new();
        if let Some(signal) = &options.signal {
            let _ = Reflect::set(&context, &"signal".into(), signal);
        }
        options
            .summarize
            .call2(&JsValue::UNDEFINED, &request, &context)
    });
    Box::pin(async move {
        let settled = match called {
            Ok(value) => settle(value).await,
            Err(thrown) => Err(thrown),
        };
        (id, answer(settled))
    })
}

/// What woke the driver.
enum Wake {
    Answer(Answer),
    Aborted,
    Deadline,
}

/// Drives `run` to its end: spawns the requests `poll` hands out (the engine bounds how
/// many are in flight), feeds the answers back, reports every event to `onEvent`, lets
/// the engine fail requests whose deadline passed, and stops at once when the signal
/// fires. The loop of the Rust `drive`, with the caller's Promises, `setTimeout` and
/// `AbortSignal`.
async fn drive(run: &mut Run, options: &Options) -> Result<Outcome, Stop> {
    let mut abort = options.signal.as_ref().map(AbortWatch::new);
    let mut in_flight = FuturesUnordered::new();
    loop {
        let step = run.poll();
        // Deliver what happened before acting on the step, the last events included.
        for event in run.events() {
            if let Some(on_event) = &options.on_event {
                let event = to_js(&event)?;
                if let Err(thrown) = on_event.call1(&JsValue::UNDEFINED, &event) {
                    run.cancel();
                    return Err(Stop::Thrown(thrown));
                }
            }
        }
        let until_ms = match step {
            Step::Summarize(requests) => {
                in_flight.extend(requests.iter().map(|request| ask(options, request)));
                None
            }
            Step::Done(outcome) => return Ok(outcome),
            Step::Failed(error) => return Err(error.into()),
            Step::Wait { until_ms } => Some(until_ms),
            // A step this driver does not know: stop rather than guess.
            _ => {
                run.cancel();
                return Err(Failure::new(Code::Internal, "unknown step from the engine").into());
            }
        };
        // `summarize` (or `onEvent`) may have aborted synchronously.
        if let Some(signal) = options.aborted() {
            run.cancel();
            return Err(Stop::Aborted(signal.reason()));
        }
        let Some(until_ms) = until_ms else {
            continue;
        };
        let mut timer = Timer::new(until_ms.saturating_sub(now()) + 1);
        let wake = poll_fn(|cx| {
            if let Some(abort) = abort.as_mut()
                && abort.fired.poll_unpin(cx).is_ready()
            {
                return Poll::Ready(Wake::Aborted);
            }
            // Empty, it answers `None`: then only the timer can wake the run.
            if let Poll::Ready(Some(answer)) = in_flight.poll_next_unpin(cx) {
                return Poll::Ready(Wake::Answer(answer));
            }
            if timer.fired.poll_unpin(cx).is_ready() {
                return Poll::Ready(Wake::Deadline);
            }
            Poll::Pending
        })
        .await;
        drop(timer);
        match wake {
            Wake::Aborted => {
                // Pending Promises are left to settle unheard.
                run.cancel();
                drop(abort.take());
                let reason = options
                    .signal
                    .as_ref()
                    .map(|s| s.reason())
                    .unwrap_or_default();
                return Err(Stop::Aborted(reason));
            }
            Wake::Answer((id, result)) => match run.complete(id, result, now()) {
                // The request's job was settled meanwhile (another part of it failed, or
                // its deadline passed): the answer is no longer wanted.
                Ok(()) | Err(CompactError::StaleRequest(_)) => {}
                Err(error) => return Err(error.into()),
            },
            Wake::Deadline => run.handle_timeout(now()),
        }
    }
}

/// `{ messages, report, status }`: the outcome, its messages written back in the
/// caller's format (untouched messages verbatim).
pub(crate) fn result(conversation: &Conversation, outcome: &Outcome) -> Result<JsValue, Failure> {
    let object = Object::new();
    let messages = json_to_js(&conversation.to_json(&outcome.messages));
    let _ = Reflect::set(&object, &"messages".into(), &messages);
    let _ = Reflect::set(&object, &"report".into(), &to_js(&outcome.report)?);
    let _ = Reflect::set(&object, &"status".into(), &to_js(&outcome.status)?);
    Ok(object.into())
}

/// Begins a run and drives it to its outcome.
pub(crate) async fn run(
    engine: &engine::Compactor,
    options: &Options,
    session: &str,
    conversation: &Conversation,
) -> Result<Outcome, Stop> {
    run_messages(
        engine,
        options,
        session,
        &conversation.messages,
        conversation.format,
    )
    .await
}

/// Begins a run over `messages`, read in `format`, and drives it to its outcome: `run`
/// for callers that keep their messages outside a `Conversation` (session handles).
pub(crate) async fn run_messages(
    engine: &engine::Compactor,
    options: &Options,
    session: &str,
    messages: &[compactor::message::Message],
    format: Format,
) -> Result<Outcome, Stop> {
    if let Some(signal) = options.aborted() {
        return Err(Stop::Aborted(signal.reason()));
    }
    let mut run = engine.begin(session, messages.to_vec(), options.trigger, now())?;
    run.check_format(format);
    drive(&mut run, options).await
}

/// `compactor.compact(messages, options)`.
pub(crate) fn compact(engine: engine::Compactor, messages: &JsValue, options: &JsValue) -> Promise {
    // Read everything before the first await: the caller may change its objects after.
    let prepared = Options::read(options, true).and_then(|options| {
        let mut conversation = read_conversation(messages, options.format, options.lenient)?;
        apply_pins(&mut conversation, &options.pins)?;
        Ok((options, conversation))
    });
    let (options, conversation) = match prepared {
        Ok(prepared) => prepared,
        Err(failure) => return Promise::reject(&failure.into()),
    };
    future_to_promise(async move {
        let outcome = run(&engine, &options, &options.session, &conversation).await?;
        Ok(result(&conversation, &outcome)?)
    })
}
