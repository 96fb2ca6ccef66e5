//! compactor keeps an LLM agent's conversation inside the model's context window.
//! This crate is the engine: deterministic, it performs no IO, reads no clock and draws no
//! random numbers; time and the summarizer's answers come in as arguments.
//!
//! # Accounting
//!
//! The first stages read a conversation without changing it:
//!
//! - [`budget`] resolves the numbers (window, output reserve, comfort, trigger, target,
//!   absolute limit) from explicit overrides, the built-in [`catalog`], and defaults;
//! - [`overflow`] assesses the conversation against them, counting through a memoized
//!   [`tokens::TokenAccountant`];
//! - [`segment`] cuts it into atomic units (a tool call never leaves its result) and
//!   segments (the messages between assistant responses);
//! - [`select`] picks the raw tail the model keeps seeing;
//! - [`plan`] does all of the above in one call.
//!
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

pub mod budget;
pub mod catalog;
pub mod driver;
pub mod engine;
pub mod extractive;
#[cfg(feature = "serde")]
pub mod format;
pub mod hash;
pub mod ladder;
pub mod message;
pub mod overflow;
pub mod plan;
pub mod prompt;
pub mod prune;
pub mod segment;
pub mod select;
pub mod tokens;
pub mod validate;
