//! What crosses a host boundary, written once for every host: the npm package
//! (wasm-bindgen) and the WebAssembly component (WIT) both convert through this module.
//!
//! Before it, each host carried its own copy of the same conversions, and the copies had
//! begun to drift (the component wrote a session's changes with the wrong list key for
//! Responses and Gemini bodies). What is here is the part that does not depend on how a
//! host represents values:
//!
//! - [`Failure`]: an engine error as a stable [`Code`], a readable message and the path of
//!   the bad input. A host names its inputs its own way (`config.maxMessages` in JS,
//!   `config.max-messages` in WIT): it says how with a [`Host`], and the failure is typed
//!   by it, so `?` converts an engine error in either crate.
//! - The views the hosts hand back as JSON: a plan with its summaries ([`PlanView`]), a
//!   session's assessment without the per-message counts ([`SessionAssessment`]), and the
//!   session's latest change as a splice of the caller's array ([`Changes`]).
//!
//! - [`encoding_named`]: the one name both read the same way.
//!
//! What is left to each host is only its representation: a JS `Error` or a WIT variant,
//! JS objects or JSON text. Reading the config stays with each host too, as a different
//! job in each: the npm package reads a JS object field by field (each field's path and
//! integer range in its errors, its TypeScript declaration from the same table, and a
//! size budget that rules out serde), while the component receives a typed WIT record
//! whose `0` stands for JS's `null`. What they share is the core's: every field left out
//! takes [`CompactionConfig::default`](crate::engine::CompactionConfig)'s value, and
//! [`ConfigError`](crate::engine::ConfigError) paths are spelled by [`Host`].

mod failure;
mod handle;
mod input;
pub mod names;
pub mod options;
mod session;
mod view;

pub use failure::{Code, Failure, Host, without_position};
pub use handle::{Counters, Handle};
pub use input::apply_pins;
pub use names::{Spelling, encoding_named, format_named, trigger_named};
pub use options::{Given, Kind, OPTIONS, Opt, read_config};
pub use session::Session;
pub use view::{Changes, Finished, PlanView, SessionAssessment, SummaryAt, json};

#[cfg(test)]
mod tests;
