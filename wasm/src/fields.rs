//! Option objects (`config`, the options of every method) read field by field off the JS
//! value, each error naming its field.
//!
//! Hand-written rather than serde-derived: typed deserialization brings serde's error
//! machinery (float formatting and string escaping for its messages) into the packages,
//! some 18 kB gzipped, more than a tenth of the lite package.

use js_sys::{Array, Function, Reflect};
use wasm_bindgen::{JsCast, JsValue};

use crate::{Failure, js_message, type_of};

/// The largest integer a JS number holds exactly.
pub(crate) const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// The fields of an options object at `path` (`config`, `options`).
pub(crate) struct Fields<'a> {
    /// `None` when the caller passed `undefined` or `null`: every field is absent.
    object: Option<&'a JsValue>,
    path: &'a str,
}

impl<'a> Fields<'a> {
    /// `value` as an options object with no fields but `known`; `undefined` and `null`
    /// read as `{}`.
    pub(crate) fn new(value: &'a JsValue, path: &'a str, known: &[&str]) -> Result<Self, Failure> {
        if value.is_undefined() || value.is_null() {
            return Ok(Fields { object: None, path });
        }
        if !value.is_object() || Array::is_array(value) {
            return Err(Failure::invalid(
                path,
                format!("expected an object, found {}", describe(value)),
            ));
        }
        let keys = Reflect::own_keys(value)
            .map_err(|thrown| Failure::invalid(path, js_message(&thrown)))?;
        for key in keys.iter().filter_map(|key| key.as_string()) {
            if !known.contains(&key.as_str()) {
                return Err(Failure::invalid(
                    format!("{path}.{key}"),
                    format!("unknown field (expected one of {})", known.join(", ")),
                ));
            }
        }
        Ok(Fields {
            object: Some(value),
            path,
        })
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

    /// Field `name` as `read` makes it, `None` when it is `undefined` or `null`; an error
    /// saying it is not `expected` when `read` refuses it.
    fn read<T>(
        &self,
        name: &str,
        expected: &str,
        read: impl FnOnce(&JsValue) -> Option<T>,
    ) -> Result<Option<T>, Failure> {
        match self.value(name)? {
            Some(value) if !value.is_null() => match read(&value) {
                Some(read) => Ok(Some(read)),
                None => Err(self.invalid(name, expected, &value)),
            },
            _ => Ok(None),
        }
    }

    /// Field `name` is not `expected`: it is `found`.
    pub(crate) fn invalid(&self, name: &str, expected: &str, found: &JsValue) -> Failure {
        let found = match found.as_f64() {
            // Its JS text (`-1`, `1.5`, `NaN`), written by JS.
            Some(_) => found
                .unchecked_ref::<js_sys::Number>()
                .to_string_with_radix(10)
                .map_or_else(|_| describe(found), String::from),
            None => describe(found),
        };
        Failure::invalid(
            self.path(name),
            format!("expected {expected}, found {found}"),
        )
    }

    pub(crate) fn string(&self, name: &str) -> Result<Option<String>, Failure> {
        self.read(name, "a string", JsValue::as_string)
    }

    pub(crate) fn bool(&self, name: &str) -> Result<Option<bool>, Failure> {
        self.read(name, "a boolean", JsValue::as_bool)
    }

    /// A finite number.
    pub(crate) fn number(&self, name: &str) -> Result<Option<f64>, Failure> {
        self.read(name, "a finite number", |value| {
            value.as_f64().filter(|n| n.is_finite())
        })
    }

    /// A non-negative integer that JS numbers hold exactly and `T` holds.
    pub(crate) fn integer<T: TryFrom<u64>>(&self, name: &str) -> Result<Option<T>, Failure> {
        let whole = self.read(name, "a non-negative integer", |value| {
            value.as_f64().filter(|n| n.fract() == 0.0 && *n >= 0.0)
        })?;
        let Some(whole) = whole else {
            return Ok(None);
        };
        if whole > MAX_SAFE_INTEGER as f64 {
            return Err(Failure::invalid(
                self.path(name),
                "above Number.MAX_SAFE_INTEGER",
            ));
        }
        // Exact: a whole number from 0 to 2^53 - 1.
        T::try_from(whole as u64)
            .map(Some)
            .map_err(|_| Failure::invalid(self.path(name), "too large"))
    }

    pub(crate) fn function(&self, name: &str) -> Result<Option<Function>, Failure> {
        self.read(name, "a function", |value| {
            value.dyn_ref::<Function>().cloned()
        })
    }
}

/// A value for messages: `null`, `an array`, or its `typeof`.
pub(crate) fn describe(value: &JsValue) -> String {
    if value.is_null() {
        "null".to_owned()
    } else if Array::is_array(value) {
        "an array".to_owned()
    } else {
        type_of(value)
    }
}
