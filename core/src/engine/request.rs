//! The step `poll` returns. The requests it hands out and their answers are plain data on
//! the ground floor ([`crate::summary`]).

use crate::engine::{CompactError, Outcome};
use crate::summary::SummaryRequest;

/// What `poll` tells the driver to do.
#[derive(Debug)]
#[non_exhaustive]
pub enum Step {
    /// Run these requests (concurrently), then answer each with `complete`. `poll` never
    /// has more than `max_concurrency` requests out at once.
    Summarize(Vec<SummaryRequest>),
    /// Requests are in flight: wait for one to finish and `complete` it, or until
    /// `until_ms` (the earliest deadline, caller's clock) and call `handle_timeout`.
    Wait {
        /// The earliest deadline of the requests in flight.
        until_ms: u64,
    },
    /// The run is over: use the outcome's messages.
    Done(Outcome),
    /// The run failed: keep the original conversation. Nothing was applied.
    Failed(CompactError),
}
