//! The caller's side of a run, as the core's drive loop takes it: `options.summarize` as a
//! [`Summarize`], `Date.now()` and `setTimeout` as a [`Clock`], an `AbortSignal` as the
//! future that cancels. No engine borrow is held while JS runs: requests go out as plain
//! objects, answers come back as values.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use compactor::driver::{Clock, Summarize};
use compactor::engine::{SummaryFailure, SummaryRequest};
use futures_util::FutureExt;
use js_sys::{Function, Object, Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

use crate::convert::to_js;
use crate::error::js_message;
use crate::fields::describe;

#[wasm_bindgen]
extern "C" {
    /// An `AbortSignal`, or anything shaped like one (checked before use).
    #[wasm_bindgen(typescript_type = "AbortSignal")]
    pub(crate) type Signal;
    #[wasm_bindgen(method, getter)]
    pub(crate) fn aborted(this: &Signal) -> bool;
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
pub(crate) fn now() -> u64 {
    js_sys::Date::now() as u64
}

/// `Date.now()`, and `setTimeout` to wait for a deadline.
pub(crate) struct JsClock;

impl Clock for JsClock {
    fn now_ms(&self) -> u64 {
        now()
    }

    fn sleep_until(&self, deadline_ms: u64) -> impl Future<Output = ()> {
        Timer::new(deadline_ms.saturating_sub(now()) + 1)
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

impl Future for Timer {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        self.fired.poll_unpin(cx).map(|_| ())
    }
}

impl Drop for Timer {
    fn drop(&mut self) {
        clear_timeout(&self.id);
    }
}

/// Completes when the signal fires (at once when it already has); the listener goes when
/// this does. Without a signal, never.
pub(crate) struct Aborted {
    watch: Option<(Signal, Function, JsFuture)>,
    fired: bool,
}

impl Aborted {
    pub(crate) fn new(signal: Option<&Signal>) -> Self {
        let Some(signal) = signal else {
            return Self {
                watch: None,
                fired: false,
            };
        };
        let mut listener = None;
        let promise = Promise::new(&mut |resolve, _reject| {
            signal.add_event_listener("abort", &resolve);
            listener = Some(resolve);
        });
        let signal: Signal = signal.unchecked_ref::<JsValue>().clone().unchecked_into();
        Self {
            fired: signal.aborted(),
            watch: listener.map(|listener| (signal, listener, JsFuture::from(promise))),
        }
    }
}

impl Future for Aborted {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        // `summarize` or `onEvent` may have aborted synchronously: the flag says so before
        // the event's Promise settles.
        let this = &mut *self;
        match &mut this.watch {
            _ if this.fired => Poll::Ready(()),
            Some((signal, _, fired)) => {
                if signal.aborted() || fired.poll_unpin(cx).is_ready() {
                    this.fired = true;
                    Poll::Ready(())
                } else {
                    Poll::Pending
                }
            }
            None => Poll::Pending,
        }
    }
}

impl Drop for Aborted {
    fn drop(&mut self) {
        if let Some((signal, listener, _)) = &self.watch {
            signal.remove_event_listener("abort", listener);
        }
    }
}

/// Awaits a JS value: a Promise (or any thenable) settles, anything else is itself.
pub(crate) async fn settle(value: JsValue) -> Result<JsValue, JsValue> {
    JsFuture::from(Promise::resolve(&value)).await
}

/// `options.summarize`, called as `summarize(request, { signal })`.
pub(crate) struct JsSummarizer<'a> {
    pub(crate) summarize: &'a Function,
    pub(crate) signal: Option<&'a Signal>,
}

impl Summarize for JsSummarizer<'_> {
    fn summarize(
        &self,
        request: &SummaryRequest,
    ) -> impl Future<Output = Result<String, SummaryFailure>> {
        // Called now, not when first awaited: a synchronous throw is a failed answer like
        // a rejection.
        let called = to_js(request).map_err(JsValue::from).and_then(|request| {
            let context = Object::new();
            if let Some(signal) = self.signal {
                let _ = Reflect::set(&context, &"signal".into(), signal);
            }
            self.summarize
                .call2(&JsValue::UNDEFINED, &request, &context)
        });
        async move {
            let settled = match called {
                Ok(value) => settle(value).await,
                Err(thrown) => Err(thrown),
            };
            answer(settled)
        }
    }
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

/// Sets `cause` on a JS error.
pub(crate) fn with_cause(error: JsValue, cause: &JsValue) -> JsValue {
    if !cause.is_undefined() {
        let _ = Reflect::set(&error, &"cause".into(), cause);
    }
    error
}
