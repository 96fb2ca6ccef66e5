//! The host layer: what every host needs beside the engine, written once. The npm package
//! (wasm-bindgen) and the WebAssembly component (WIT), and the Python package on it,
//! convert values in and out around it and decide nothing.
//!
//! - [`Handle`] and [`Session`]: the compactor and the session a host keeps (the live
//!   session, its conversation and format, lenient reading, whether a run of it is under
//!   way, its changes as a splice of the caller's array). A session's runs go through its
//!   runner, so its default policy applies in every host as in Rust.
//! - [`options`]: every config option once (name, kind, range, doc, what turns it off),
//!   read by each host through [`read_config`] in its own spelling; the npm typings and
//!   the WIT record are written from it.
//! - [`names`]: the names of formats, triggers and encodings, and how a host spells a
//!   name ([`Spelling`]).
//! - [`Failure`]: an engine error as a stable [`Code`], a readable message and the path of
//!   the bad input, in the host's names ([`Host`]), so `?` converts an engine error in
//!   either crate.
//! - The views handed back as JSON: a plan with its summaries ([`PlanView`]), a session's
//!   assessment without the per-message counts ([`SessionAssessment`]), a session's change
//!   ([`Changes`]), a finished run ([`Finished`]).
//!
//! What is left to each host is its representation: a JS `Error` or a WIT variant, JS
//! objects or JSON text, a JS object read field by field or a typed WIT record; and its
//! IO: the npm package drives runs with the core's [`drive_until`](crate::driver::drive_until)
//! over the caller's Promises, the component hands the steps to its host.

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
