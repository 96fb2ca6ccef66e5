//! Errors as JS sees them: an `Error` named `CompactorError` with a stable `code` and, for
//! bad input, the `path` of the offending value.

use compactor::wire;
use wasm_bindgen::{JsCast, JsValue};

pub use compactor::wire::Code;

/// The npm package's names: config fields in camel case (`config.maxSummaryTokens`), the
/// pins as `options.pin`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Js {}

impl wire::Host for Js {
    const PIN: &'static str = "options.pin";
    /// `max_summary_tokens` → `maxSummaryTokens`, `ai-sdk` → `aiSdk`.
    const SPELLING: wire::Spelling = wire::Spelling::Camel;
}

/// An error on its way to JS: the failure every host shares, in a type of this crate so
/// that it can become a JS value (`From<wire::Failure> for JsValue` would join two foreign
/// types, which Rust refuses). It reads as the shared one (`Deref`), and `?` makes one of
/// every error the shared one is made of.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure(wire::Failure<Js>);

impl<E> From<E> for Failure
where
    wire::Failure<Js>: From<E>,
{
    fn from(error: E) -> Self {
        Failure(error.into())
    }
}

impl std::ops::Deref for Failure {
    type Target = wire::Failure<Js>;

    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl Failure {
    /// Bad input at `path`: the message reads `{path}: {what}`.
    pub fn invalid(path: impl Into<String>, what: impl std::fmt::Display) -> Self {
        Failure(wire::Failure::invalid(path, what))
    }

    /// A failure that is not about one input value.
    pub fn new(code: Code, message: impl Into<String>) -> Self {
        Failure(wire::Failure::new(code, message))
    }

    /// The failure every host shares, for the host layer's readers.
    pub(crate) fn into_wire(self) -> wire::Failure<Js> {
        self.0
    }

    /// The same failure with its path under `prefix` ([`wire::Failure::rebased`]).
    #[must_use]
    pub fn rebased(self, prefix: &str) -> Self {
        Failure(self.0.rebased(prefix))
    }
}

impl From<Failure> for JsValue {
    fn from(Failure(failure): Failure) -> Self {
        let error = js_sys::Error::new(&failure.message);
        error.set_name("CompactorError");
        // Setting a property on a fresh, unfrozen Error cannot fail.
        let _ = js_sys::Reflect::set(&error, &"code".into(), &failure.code.as_str().into());
        if let Some(path) = &failure.path {
            let _ = js_sys::Reflect::set(&error, &"path".into(), &path.into());
        }
        for (name, value) in &failure.details {
            let value = serde_json::to_string(value)
                .ok()
                .and_then(|text| js_sys::JSON::parse(&text).ok())
                .unwrap_or(JsValue::UNDEFINED);
            let _ = js_sys::Reflect::set(&error, &name.into(), &value);
        }
        error.into()
    }
}

/// The message of a thrown JS value.
pub(crate) fn js_message(thrown: &JsValue) -> String {
    thrown
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| thrown.as_string())
        .unwrap_or_else(|| "an exception was thrown".to_owned())
}
