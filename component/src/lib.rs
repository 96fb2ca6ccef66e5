//! compactor as a WebAssembly component: the engine behind the WIT world
//! `compactor:engine` (`wit/compactor.wit`), for any host that runs components — Python
//! on wasmtime, JavaScript through jco, Rust.
//!
//! The crate is two layers. The host layer ([`Host`], [`Driven`], [`Session`]) only
//! converts: JSON text and plain records in, core calls, JSON text out; every decision is
//! the engine's. It is plain Rust, tested natively. The `bindings` module, built only for
//! `wasm32`, maps the WIT resources onto it one call each.
//!
//! Nothing the caller can send panics: a panic traps the instance, and every later call on
//! it fails. The component reads no clock (time comes in as `now-ms`), no files and no
//! random numbers; `scripts/component.sh` builds it and checks its imports.

mod config;
mod error;
mod host;
mod run;
mod session;

#[cfg(target_arch = "wasm32")]
mod bindings;

pub use config::{Config, Field, ReadOptions, read_conversation};
pub use error::{Code, Failure, Wit};
pub use host::Host;
pub use run::{Driven, Finished, Next, Polled, Request};
pub use session::Session;

/// Counts `text` with `encoding` (default `o200k_base`).
pub fn count_tokens(text: &str, encoding: Option<&str>) -> Result<u64, Failure> {
    Ok(host::counter(encoding)?.count(text))
}

/// Counts each of `texts` with `encoding` (default `o200k_base`).
pub fn count_tokens_each(texts: &[String], encoding: Option<&str>) -> Result<Vec<u64>, Failure> {
    let counter = host::counter(encoding)?;
    Ok(texts.iter().map(|text| counter.count(text)).collect())
}

/// The name of the format detected in `messages` (`openai`, `ai-sdk`, …); `None` when the
/// text is not a conversation.
pub fn detect_format(messages: &str) -> Option<String> {
    use compactor::wire::{Host, names};
    let json: serde_json::Value = serde_json::from_str(messages).ok()?;
    compactor::format::Format::detect(&json).map(|f| names::format_name(f, Wit::SPELLING))
}
