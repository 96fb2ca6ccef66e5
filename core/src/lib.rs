//! compactor keeps an LLM agent's conversation inside the model's context window.
//! This crate is the engine: deterministic, it performs no IO, reads no clock and draws no
//! random numbers; time and the summarizer's answers come in as arguments.
//!
//! # Driving a run
//!
//! [`engine::Compactor::begin`] assesses a conversation and returns a [`engine::Run`]. The
//! one rule every driver follows: **after `begin`, `complete` or `handle_timeout`, poll
//! until `Wait`, `Done` or `Failed`.** Requests handed out by `poll` are plain data (never
//! more than `max_concurrency` in flight); run them in parallel with your model and hand
//! each answer back with `complete`. `Wait` names the earliest deadline: when it passes
//! with no answer, call `handle_timeout`, and the engine fails the late requests.
//!
//! ```no_run
//! use compactor::budget::BudgetConfig;
//! use compactor::engine::{CompactionConfig, Compactor, Step, Trigger};
//! # fn ask_model(_: &compactor::engine::SummaryRequest) -> Result<String, compactor::engine::SummaryFailure> { todo!() }
//! # fn now_ms() -> u64 { 0 }
//! # let messages = Vec::new();
//! let compactor = Compactor::new(CompactionConfig {
//!     budget: BudgetConfig::for_model("gpt-4o"),
//!     ..CompactionConfig::default()
//! })?;
//! let mut run = compactor.begin("session-1", messages, Trigger::Proactive, now_ms())?;
//! let outcome = loop {
//!     match run.poll() {
//!         Step::Summarize(requests) => {
//!             for request in requests {
//!                 let answer = ask_model(&request); // spawn these concurrently in a real driver
//!                 run.complete(request.id, answer, now_ms())?;
//!             }
//!         }
//!         Step::Wait { until_ms } => {
//!             // Await the next answer and `complete` it, or, once `until_ms` passes:
//!             run.handle_timeout(now_ms());
//!         }
//!         Step::Done(outcome) => break outcome,
//!         Step::Failed(error) => return Err(error.into()),
//!         _ => unreachable!(),
//!     }
//! };
//! let compacted = outcome.messages; // send these to the provider from now on
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! [`driver::drive`] is that loop, async, over a [`driver::Clock`] ([`driver::drive_until`]
//! also stops on a cancellation future or a failing event sink: every host's driver is
//! it); [`driver::advance`] is the rule itself, for a driver of its own making (the
//! inspector's). [`driver::Summarize`] is the summarizer's side;
//! [`extractive::Extractive`] is an offline summarizer.
//! The engine's memory (breakers, latest results, summary cache) is bounded and travels
//! as plain data: [`engine::Compactor::export_state`] / [`engine::Compactor::import_state`].
//!
//! # Pipeline
//!
//! One module per stage: [`overflow`] (assess), [`segment`], [`select`] (the raw tail),
//! [`ladder`] (LIGHT → MODERATE → AGGRESSIVE → MAXIMUM: what each level plans, as pure
//! functions), [`prompt`], [`prune`] (apply), [`validate`]. [`engine`] walks the ladder:
//! its module docs map where each part of a run lives (config, requests, jobs, the run,
//! session state). Around them: [`message`] (the provider-neutral model),
//! [`format`](mod@format) (OpenAI, Anthropic and AI SDK messages, lossless), [`tokens`] (counting),
//! [`budget`] and [`catalog`] (the numbers), [`rebase`] (appends made during a run, put
//! after its result) and [`writeback`] (the session write-back as a state machine, driven
//! by [`driver`]'s `compact_session`), [`pin`] (what the caller keeps out of
//! compaction).
//!
//! # Floors
//!
//! The modules stand in floors; each imports only from its own floor or below (the test
//! `tests/floors.rs` holds it, from one table). Convenient paths such as
//! `engine::CompactionConfig` or `ladder::Level` are re-exports in a higher module of a
//! type defined lower, never an import going up.
//!
//! | floor | modules |
//! |---|---|
//! | ground: plain data | [`message`], [`task`], [`level`], [`hash`], `case`, [`summary`], [`catalog`], [`budget`], [`config`], [`policy`], `sort` |
//! | counting | [`tokens`] |
//! | formats | [`format`](mod@format) |
//! | knowing facts | [`facts`], [`action`], [`standing`], [`trail`], [`retention`], [`receipt`], [`prompt`], [`extractive`] |
//! | reading a conversation's shape | [`pin`], [`segment`], [`select`], [`overflow`], [`observation`], [`prune`], [`validate`], [`plan`] |
//! | planning | [`ladder`] |
//! | the run | [`engine`] |
//! | drivers | [`driver`], [`rebase`], [`writeback`], [`live`], [`replay`] |
//! | host boundary | [`wire`](mod@wire) |
//!
//! No two modules import each other, inside a floor or across (the same test fails on any
//! import loop, in the wrapper, the component and the command line too).
//!
//! The accounting stages can be used alone:
//! ```
//! use std::sync::Arc;
//! use compactor::budget::BudgetConfig;
//! use compactor::message::Message;
//! use compactor::select::TailPolicy;
//! use compactor::tokens::{Estimator, TokenAccountant};
//!
//! let budget = BudgetConfig::for_model("gpt-4o").resolve()?;
//! let accountant = TokenAccountant::new(Arc::new(Estimator));
//! let messages = vec![
//!     Message::system("s", "You are a coding agent."),
//!     Message::user("u", "Fix the failing test in src/lib.rs."),
//!     Message::assistant("a", "Running the tests first."),
//! ];
//! let plan = compactor::plan::plan(&accountant, &messages, &budget, &TailPolicy::for_budget(4, &budget))?;
//! assert!(!plan.assessment.needs_compaction());
//! assert_eq!(plan.tail.start, 1); // everything after the system prompt is recent
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![warn(missing_docs)]

pub mod action;
pub mod budget;
mod case;
pub mod catalog;
pub mod config;
pub mod driver;
pub mod engine;
pub mod extractive;
pub mod facts;
#[cfg(feature = "serde")]
pub mod format;
pub mod hash;
pub mod ladder;
pub mod level;
pub mod live;
pub mod message;
pub mod observation;
pub mod overflow;
pub mod pin;
pub mod plan;
pub mod policy;
pub mod prompt;
pub mod prune;
pub mod rebase;
pub mod receipt;
pub mod replay;
pub mod retention;
pub mod segment;
pub mod select;
mod sort;
pub mod standing;
pub mod summary;
pub mod task;
pub mod tokens;
pub mod trail;
pub mod validate;
#[cfg(feature = "serde")]
pub mod wire;
pub mod writeback;
