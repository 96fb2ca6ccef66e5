//! `compact`, and every run the package drives: the options read, then the core's one
//! drive loop ([`drive_until`]) over the caller's summarizer, clock and signal
//! (`callbacks`). `compactSession` runs it between a store's load and save (`store`), a
//! session handle on its own messages (`live`).

use compactor::driver::{Stopped, drive_until};
use compactor::engine::{CompactError, Outcome, Run, Trigger};
use compactor::format::{Conversation, Format};
use compactor::pin::Pins;
use compactor::wire::{self, Handle, apply_pins};
use js_sys::{Function, Object, Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

use crate::callbacks::{Aborted, JsClock, JsSummarizer, Signal, now, with_cause};
use crate::convert::{json_to_js, read_conversation, read_format, to_js};
use crate::error::{Code, Failure, Js};
use crate::fields::{Fields, describe};

/// The options of `compact` (and of `compactSession`, without `sessionId`).
pub(crate) struct Options {
    summarize: Function,
    on_event: Option<Function>,
    signal: Option<Signal>,
    pub(crate) format: Option<Format>,
    pub(crate) lenient: bool,
    session: String,
    pub(crate) trigger: Trigger,
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
        let trigger = match fields.string("trigger")? {
            Some(name) => wire::trigger_named::<Js>(&name, "options.trigger")?,
            None => Trigger::Proactive,
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

    /// Reads the caller's messages as these options say, with their pins applied.
    pub(crate) fn conversation(&self, messages: &JsValue) -> Result<Conversation, Failure> {
        let mut conversation = read_conversation(messages, self.format, self.lenient)?;
        apply_pins::<Js>(&mut conversation, &self.pins).map_err(Failure::from)?;
        Ok(conversation)
    }
}

/// Why a driven run stopped without an outcome.
pub(crate) enum Stop {
    /// The engine's error, or the driver's own (a coded failure).
    Failure(Failure),
    /// The signal fired; its reason becomes the error's `cause`.
    Aborted(JsValue),
    /// The caller's `onEvent` (or a store) threw this: it is rethrown as it is.
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

impl Options {
    /// The signal's reason, for an `ABORTED` run.
    pub(crate) fn abort(&self) -> Stop {
        Stop::Aborted(self.signal.as_ref().map(Signal::reason).unwrap_or_default())
    }

    /// Drives `run` to its end with the core's drive loop: `summarize` writes the
    /// summaries, `onEvent` hears every event, the signal stops it.
    pub(crate) async fn drive(&self, run: &mut Run) -> Result<Outcome, Stop> {
        let summarizer = JsSummarizer {
            summarize: &self.summarize,
            signal: self.signal.as_ref(),
        };
        let mut on_event = |event: &compactor::engine::Event| -> Result<(), JsValue> {
            let Some(on_event) = &self.on_event else {
                return Ok(());
            };
            let event = to_js(event)?;
            on_event.call1(&JsValue::UNDEFINED, &event).map(drop)
        };
        let aborted = Aborted::new(self.signal.as_ref());
        match drive_until(run, &summarizer, &JsClock, aborted, &mut on_event).await {
            Ok(outcome) => Ok(outcome),
            Err(Stopped::Cancelled) => Err(self.abort()),
            Err(Stopped::Sink(thrown)) => Err(Stop::Thrown(thrown)),
            Err(Stopped::Failed(error)) => Err(error.into()),
            Err(_) => {
                Err(Failure::new(Code::Internal, "the run stopped for no known reason").into())
            }
        }
    }

    /// Begins a run over `messages`, read in `format`, and drives it to its outcome.
    pub(crate) async fn run(
        &self,
        handle: &Handle,
        session: &str,
        messages: Vec<compactor::message::Message>,
        format: Format,
    ) -> Result<Outcome, Stop> {
        if self.aborted().is_some() {
            return Err(self.abort());
        }
        let mut run = handle
            .begin::<Js>(messages, format, session, self.trigger, now())
            .map_err(Failure::from)?;
        self.drive(&mut run).await
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

/// `compactor.compact(messages, options)`.
pub(crate) fn compact(handle: Handle, messages: &JsValue, options: &JsValue) -> Promise {
    // Read everything before the first await: the caller may change its objects after.
    let prepared = Options::read(options, true)
        .and_then(|options| Ok((options.conversation(messages)?, options)));
    let (mut conversation, options) = match prepared {
        Ok(prepared) => prepared,
        Err(failure) => return Promise::reject(&failure.into()),
    };
    future_to_promise(async move {
        // Written back from the originals the conversation keeps: its messages go to the
        // run as they are, uncopied.
        let messages = std::mem::take(&mut conversation.messages);
        let outcome = options
            .run(&handle, &options.session, messages, conversation.format)
            .await?;
        Ok(result(&conversation, &outcome)?)
    })
}
