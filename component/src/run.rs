//! The `run` resource: one compaction in progress, driven by the host. The engine owns time
//! and concurrency; this layer only converts, remembers the requests it handed out (for
//! `offline-summary`), and writes the outcome back in the caller's format.

use std::cell::RefCell;
use std::rc::Rc;

use compactor::engine::{
    CompactError, Outcome, RequestId, Run, Step, SummaryFailure, SummaryRequest,
};
use compactor::extractive::Extractive;
use compactor::format::Conversation;
use compactor::wire::{self, json};

use crate::error::{Code, Failure};

/// Whose messages a run compacts, and so where its outcome goes.
#[derive(Debug)]
pub(crate) enum Owner {
    /// A `begin` call's conversation: the outcome is written back in its format.
    Call(Conversation),
    /// A session's: when the run is done, the session holds the result.
    Session(Rc<RefCell<wire::Session>>),
}

/// A summary request as it crosses: the id, the size asked for, the whole request as JSON.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// Hand it back to `complete` with the answer.
    pub id: u64,
    /// The most tokens the answer may have.
    pub max_output_tokens: u64,
    /// The whole request (prompt, level, covers, deadline) as JSON.
    pub json: String,
}

/// A finished run, written for the host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finished {
    /// The status's kind: `compacted`, `skipped`, `noOp`, `noProgress`.
    pub status: String,
    /// The status as JSON.
    pub status_json: String,
    /// The report as JSON.
    pub report: String,
    /// A `begin` run's conversation to use from now on, in the format it came in; `None`
    /// for a session's run (the session holds it).
    pub messages: Option<String>,
    /// A session's run: how its messages changed, as JSON.
    pub changes: Option<String>,
}

/// What the host must do next (the WIT `step`).
#[derive(Debug, Clone, PartialEq)]
pub enum Next {
    /// Ask the model for these summaries, then `complete` each.
    Summarize(Vec<Request>),
    /// Wait for an answer until then, else `handle_timeout`.
    Wait(u64),
    /// The run is over.
    Done(Finished),
    /// The run failed; nothing was applied.
    Failed(Failure),
}

/// A poll's answer: the events since the last poll (a JSON array), and the next step.
#[derive(Debug, Clone, PartialEq)]
pub struct Polled {
    /// What happened since the last poll, as JSON.
    pub events: String,
    /// What the host must do next.
    pub next: Next,
}

/// A run and what it needs to answer the host.
#[derive(Debug)]
pub struct Driven {
    run: Run,
    owner: Owner,
    /// Requests handed out and not yet answered.
    issued: Vec<SummaryRequest>,
    /// The last step, once the run is over: polled again, it is answered again.
    ended: Option<Next>,
}

impl Driven {
    pub(crate) fn new(run: Run, owner: Owner) -> Self {
        Self {
            run,
            owner,
            issued: Vec::new(),
            ended: None,
        }
    }

    /// What happened since the last poll, and what the host must do next.
    pub fn poll(&mut self) -> Polled {
        let next = self.step();
        let events = json(&self.run.events()).unwrap_or_else(|_: Failure| "[]".to_owned());
        Polled { events, next }
    }

    /// The next step.
    fn step(&mut self) -> Next {
        if let Some(ended) = &self.ended {
            return ended.clone();
        }
        let next = match self.run.poll() {
            Step::Summarize(requests) => {
                let crossing = requests.iter().map(request).collect::<Result<Vec<_>, _>>();
                self.issued.extend(requests);
                match crossing {
                    Ok(requests) => return Next::Summarize(requests),
                    Err(failure) => {
                        self.run.cancel();
                        Next::Failed(failure)
                    }
                }
            }
            Step::Wait { until_ms } => return Next::Wait(until_ms),
            Step::Done(outcome) => match self.finish(&outcome) {
                Ok(finished) => Next::Done(finished),
                Err(failure) => Next::Failed(failure),
            },
            Step::Failed(error) => Next::Failed(error.into()),
            // A step this layer does not know: stop rather than guess.
            _ => {
                self.run.cancel();
                Next::Failed(Failure::new(Code::Internal, "unknown step from the engine"))
            }
        };
        self.release();
        self.ended = Some(next.clone());
        next
    }

    /// Hands back the answer to request `id`. An answer no longer wanted is ignored.
    pub fn complete(
        &mut self,
        id: u64,
        answer: Result<String, SummaryFailure>,
        now_ms: u64,
    ) -> Result<(), Failure> {
        if self.ended.is_some() {
            return Ok(());
        }
        self.issued.retain(|r| r.id != RequestId(id));
        match self.run.complete(RequestId(id), answer, now_ms) {
            Ok(()) | Err(CompactError::StaleRequest(_)) => Ok(()),
            Err(CompactError::UnknownRequest(_)) => Err(Failure::invalid(
                "id",
                format!("no request {id} was handed out by this run"),
            )),
            Err(error) => Err(error.into()),
        }
    }

    /// Fails every request whose deadline has passed.
    pub fn handle_timeout(&mut self, now_ms: u64) {
        if self.ended.is_none() {
            self.run.handle_timeout(now_ms);
        }
    }

    /// Stops the run: the next poll answers `ABORTED`.
    pub fn cancel(&mut self) {
        if self.ended.is_none() {
            self.run.cancel();
        }
    }

    /// The engine's offline summary for request `id`, as the command line's extractive
    /// summarizer writes it.
    pub fn offline_summary(&self, id: u64) -> Result<String, Failure> {
        let request = self
            .issued
            .iter()
            .find(|r| r.id == RequestId(id))
            .ok_or_else(|| {
                Failure::invalid("id", format!("no request {id} is awaiting an answer"))
            })?;
        // Empty when the transcript holds nothing worth a line: an answer with nothing to
        // add, which the run takes (a marker and the trail stand for it).
        Ok(Extractive.summarize_prompt(&request.prompt, request.max_output_tokens))
    }

    /// The outcome written back: in the call's format, or applied to the session.
    fn finish(&mut self, outcome: &Outcome) -> Result<Finished, Failure> {
        let (finished, messages) = match &self.owner {
            Owner::Call(conversation) => (
                wire::Finished::of(outcome)?,
                Some(conversation.to_json(&outcome.messages).to_string()),
            ),
            Owner::Session(session) => (session.borrow_mut().finish(outcome)?, None),
        };
        Ok(Finished {
            status: finished.kind.to_owned(),
            status_json: finished.status,
            report: finished.report,
            messages,
            changes: finished.changes,
        })
    }

    /// The session may begin another compaction once this one is over.
    fn release(&mut self) {
        self.issued.clear();
        if let Owner::Session(session) = &self.owner {
            session.borrow_mut().release();
        }
    }
}

impl Drop for Driven {
    fn drop(&mut self) {
        if self.ended.is_none() {
            self.run.cancel();
            self.release();
        }
    }
}

/// A request as it crosses.
fn request(request: &SummaryRequest) -> Result<Request, Failure> {
    Ok(Request {
        id: request.id.0,
        max_output_tokens: request.max_output_tokens,
        json: json(request)?,
    })
}
