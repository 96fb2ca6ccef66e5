//! Option objects (`config`, the options of every method) read field by field off the JS
//! value, each error naming its field.
//!
//! Hand-written rather than serde-derived: typed deserialization brings serde's error
//! machinery (float formatting and string escaping for its messages) into the packages,
//! some 18 kB gzipped, more than a tenth of the lite package.

use js_sys::{Function, Reflect};
use wasm_bindgen::prelude::*;

use compactor::pin::Pins;

use crate::error::{Failure, js_message};

/// The largest integer a JS number holds exactly.
const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

#[wasm_bindgen]
extern "C" {
    /// `Array.isArray`, which throws for a revoked `Proxy`.
    #[wasm_bindgen(catch, js_namespace = Array, js_name = isArray)]
    fn is_array(value: &JsValue) -> Result<bool, JsValue>;
}

/// The fields of an options object at `path` (`config`, `options`).
pub(crate) struct Fields<'a> {
    /// `None` when the caller passed `undefined` or `null`: every field is absent.
    object: Option<&'a JsValue>,
    path: &'a str,
}

impl<'a> Fields<'a> {
    /// `value` as an options object with no fields but `known` (a field set to
    /// `undefined` counts as absent); `undefined` and `null` read as `{}`.
    pub(crate) fn new<S: AsRef<str>>(
        value: &'a JsValue,
        path: &'a str,
        known: &[S],
    ) -> Result<Self, Failure> {
        if value.is_undefined() || value.is_null() {
            return Ok(Fields { object: None, path });
        }
        let thrown = |thrown: JsValue| Failure::invalid(path, js_message(&thrown));
        if !value.is_object() || is_array(value).map_err(thrown)? {
            return Err(Failure::invalid(
                path,
                format!("expected an object, found {}", describe(value)),
            ));
        }
        let fields = Fields {
            object: Some(value),
            path,
        };
        let keys = Reflect::own_keys(value).map_err(thrown)?;
        for key in keys.iter().filter_map(|key| key.as_string()) {
            if !known.iter().any(|k| k.as_ref() == key) && fields.value(&key)?.is_some() {
                let names: Vec<&str> = known.iter().map(AsRef::as_ref).collect();
                return Err(Failure::invalid(
                    fields.path(&key),
                    format!("unknown field (expected one of {})", names.join(", ")),
                ));
            }
        }
        Ok(fields)
    }

    /// The path of field `name`, for errors.
    pub(crate) fn path(&self, name: &str) -> String {
        format!("{}.{name}", self.path)
    }

    /// Field `name`, `None` when it is `undefined`. A throwing getter is an error.
    pub(crate) fn value(&self, name: &str) -> Result<Option<JsValue>, Failure> {
        let Some(object) = self.object else {
            return Ok(None);
        };
        match Reflect::get(object, &name.into()) {
            Ok(value) if value.is_undefined() => Ok(None),
            Ok(value) => Ok(Some(value)),
            Err(thrown) => Err(Failure::invalid(self.path(name), js_message(&thrown))),
        }
    }

    /// `value`, field `name`, as `read` makes it, `None` when it is absent or `null`; an
    /// error saying it is not `expected` when `read` refuses it.
    fn read<T>(
        &self,
        name: &str,
        value: Option<JsValue>,
        expected: &str,
        read: impl FnOnce(&JsValue) -> Option<T>,
    ) -> Result<Option<T>, Failure> {
        match value {
            Some(value) if !value.is_null() => match read(&value) {
                Some(read) => Ok(Some(read)),
                None => Err(self.invalid(name, expected, &value)),
            },
            _ => Ok(None),
        }
    }

    /// Field `name` is not `expected`: it is `found`.
    pub(crate) fn invalid(&self, name: &str, expected: &str, found: &JsValue) -> Failure {
        Failure::invalid(
            self.path(name),
            format!("expected {expected}, found {}", shown(found)),
        )
    }

    pub(crate) fn string(&self, name: &str) -> Result<Option<String>, Failure> {
        self.string_of(name, self.value(name)?, "a string")
    }

    /// A string, already read from field `name`: a name of something when `expected` says
    /// so (`an encoding name`).
    pub(crate) fn string_of(
        &self,
        name: &str,
        value: Option<JsValue>,
        expected: &str,
    ) -> Result<Option<String>, Failure> {
        self.read(name, value, expected, JsValue::as_string)
    }

    pub(crate) fn bool(&self, name: &str) -> Result<Option<bool>, Failure> {
        self.bool_of(name, self.value(name)?)
    }

    /// [`Fields::bool`] of a value already read from field `name`.
    pub(crate) fn bool_of(
        &self,
        name: &str,
        value: Option<JsValue>,
    ) -> Result<Option<bool>, Failure> {
        self.read(name, value, "a boolean", JsValue::as_bool)
    }

    /// A finite number, already read from field `name`.
    pub(crate) fn number_of(
        &self,
        name: &str,
        value: Option<JsValue>,
    ) -> Result<Option<f64>, Failure> {
        self.read(name, value, "a finite number", |value| {
            value.as_f64().filter(|n| n.is_finite())
        })
    }

    /// A whole number from 0 to `max` (at most what JS numbers hold exactly, 2^53 - 1),
    /// already read from field `name`.
    pub(crate) fn integer_of(
        &self,
        name: &str,
        value: Option<JsValue>,
        max: u64,
    ) -> Result<Option<u64>, Failure> {
        let max = max.min(MAX_SAFE_INTEGER);
        let expected = format!("an integer from 0 to {max}");
        self.read(name, value, &expected, |value| {
            let n = value.as_f64()?;
            // Exact: both bounds are at most 2^53 - 1.
            (n.fract() == 0.0 && (0.0..=max as f64).contains(&n)).then_some(n as u64)
        })
    }

    /// `pin` (message indices) and `compactable` (`false`: the conversation opts out), as
    /// the core's [`Pins`].
    pub(crate) fn pins(&self) -> Result<Pins, Failure> {
        let mut pins = Pins::default();
        if let Some(value) = self.value("pin")?.filter(|v| !v.is_null()) {
            let thrown = |thrown: JsValue| Failure::invalid(self.path("pin"), js_message(&thrown));
            if !is_array(&value).map_err(thrown)? {
                return Err(self.invalid("pin", "an array of message indices", &value));
            }
            for (i, item) in value.unchecked_ref::<js_sys::Array>().iter().enumerate() {
                let index = item
                    .as_f64()
                    .filter(|n| n.fract() == 0.0 && (0.0..=u32::MAX as f64).contains(n));
                match index {
                    Some(index) => pins.indices.push(index as usize),
                    None => {
                        return Err(Failure::invalid(
                            format!("{}[{i}]", self.path("pin")),
                            format!("expected a message index, found {}", shown(&item)),
                        ));
                    }
                }
            }
        }
        pins.compactable = self.bool("compactable")?.unwrap_or(true);
        Ok(pins)
    }

    pub(crate) fn function(&self, name: &str) -> Result<Option<Function>, Failure> {
        self.read(name, self.value(name)?, "a function", |value| {
            value.dyn_ref::<Function>().cloned()
        })
    }
}

/// A value for messages: `null`, `an array`, or its `typeof`.
pub(crate) fn describe(value: &JsValue) -> String {
    if value.is_null() {
        "null".to_owned()
    } else if is_array(value).unwrap_or(false) {
        "an array".to_owned()
    } else {
        type_of(value)
    }
}

/// A value for messages, numbers as they are (`-1`, `1.5`, `NaN`, written by JS), anything
/// else [described](describe).
pub(crate) fn shown(value: &JsValue) -> String {
    match value.as_f64() {
        Some(_) => value
            .unchecked_ref::<js_sys::Number>()
            .to_string_with_radix(10)
            .map_or_else(|_| describe(value), String::from),
        None => describe(value),
    }
}

/// `typeof value`, for messages.
pub(crate) fn type_of(value: &JsValue) -> String {
    value.js_typeof().as_string().unwrap_or_default()
}
