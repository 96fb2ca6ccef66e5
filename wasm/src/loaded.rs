//! The vocabularies `loadEncoding` loaded, and the counter for an encoding.

use crate::convert::encoding_named;
use crate::error::Failure;
use crate::fields::type_of;
use compactor::tokens::{Encoding, Tiktoken, TokenCounter};
use std::cell::RefCell;
use std::sync::Arc;
use wasm_bindgen::{JsCast, JsValue};

thread_local! {
    /// By encoding. A wasm instance runs one thread, so this is the module's registry.
    static LOADED: RefCell<Vec<(Encoding, Arc<dyn TokenCounter>)>> =
        const { RefCell::new(Vec::new()) };
}

pub(crate) fn get(encoding: Encoding) -> Option<Arc<dyn TokenCounter>> {
    LOADED.with_borrow(|loaded| {
        loaded
            .iter()
            .find(|(e, _)| *e == encoding)
            .map(|(_, c)| c.clone())
    })
}

/// Loads `ranks` for `encoding` (`o200k_base` when `undefined` or `null`).
pub(crate) fn load(ranks: &JsValue, encoding: Option<&JsValue>) -> Result<(), Failure> {
    let encoding = match encoding.filter(|e| !e.is_undefined() && !e.is_null()) {
        None => Encoding::O200kBase,
        Some(name) => match encoding_named(name, "encoding")? {
            Encoding::Estimate => {
                return Err(Failure::invalid(
                    "encoding",
                    "the estimator has no vocabulary: expected \"o200k_base\" or \"cl100k_base\"",
                ));
            }
            exact => exact,
        },
    };
    let bytes = if let Some(text) = ranks.as_string() {
        text.into_bytes()
    } else if let Some(array) = ranks.dyn_ref::<js_sys::Uint8Array>() {
        array.to_vec()
    } else {
        return Err(Failure::invalid(
            "ranks",
            format!(
                "expected a Uint8Array or a string, found {}",
                type_of(ranks)
            ),
        ));
    };
    let tiktoken =
        Tiktoken::from_ranks(encoding, &bytes).map_err(|e| Failure::invalid("ranks", e))?;
    LOADED.with_borrow_mut(|loaded| {
        loaded.retain(|(e, _)| *e != encoding);
        loaded.push((encoding, Arc::new(tiktoken)));
    });
    Ok(())
}

/// The counter for `encoding`: the vocabulary `loadEncoding` loaded for it, else the
/// embedded one, else the estimator.
pub(crate) fn counter(encoding: Encoding) -> Arc<dyn TokenCounter> {
    get(encoding).unwrap_or_else(|| encoding.counter())
}
