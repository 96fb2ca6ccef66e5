//! compactor for JavaScript: a thin wasm-bindgen wrapper over the `compactor` engine.
//! It only converts values; every decision is the engine's.

use wasm_bindgen::prelude::*;

use compactor::tokens::Encoding;

/// Counts the tokens of `text` with `encoding` (`o200k_base`, `cl100k_base` or
/// `estimate`).
#[wasm_bindgen(js_name = countTokens)]
pub fn count_tokens(text: &str, encoding: &str) -> Result<f64, JsError> {
    let encoding = Encoding::parse(encoding)
        .ok_or_else(|| JsError::new(&format!("unknown encoding {encoding:?}")))?;
    Ok(encoding.counter().count(text) as f64)
}
