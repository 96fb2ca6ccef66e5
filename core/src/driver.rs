//! Drivers: thin loops over [`Run::poll`] and [`Run::complete`], never a second engine.

use std::future::{Future, poll_fn};
use std::pin::pin;
use std::task::Poll;

use futures_util::stream::{FuturesUnordered, StreamExt};

use crate::engine::{
    CompactError, Compactor, Event, Outcome, RequestId, Run, Status, Step, SummaryFailure,
    SummaryRequest, Trigger,
};
use crate::extractive::Extractive;
use crate::message::Message;
use crate::rebase::WriteBack;
use crate::writeback::{SessionWrite, WriteStep};

/// Writes summaries: the caller's model behind a request/answer interface.
pub trait Summarize {
    /// Answers one request with the summary text, or says why not.
    fn summarize(
        &self,
        request: &SummaryRequest,
    ) -> impl Future<Output = Result<String, SummaryFailure>>;
}

impl Summarize for Extractive {
    fn summarize(
        &self,
        request: &SummaryRequest,
    ) -> impl Future<Output = Result<String, SummaryFailure>> {
        std::future::ready(self.answer(request))
    }
}

/// The caller's clock, for [`drive`]: the engine reads none of its own. With tokio:
/// `now_ms` from `Instant` since a start, `sleep_until` as `tokio::time::sleep`.
pub trait Clock {
    /// Now, in milliseconds.
    fn now_ms(&self) -> u64;
    /// Completes when [`now_ms`](Self::now_ms) reaches `deadline_ms`.
    fn sleep_until(&self, deadline_ms: u64) -> impl Future<Output = ()>;
}

/// Drives `run` to its end: spawns the requests `poll` hands out (the engine keeps at most
/// `max_concurrency` in flight), feeds answers back, fails requests whose deadline passes
/// (a summarizer that never answers cannot hold the run), and reports every event to
/// `on_event`. [`drive_until`] with nothing to stop it.
pub async fn drive<S: Summarize, C: Clock>(
    run: &mut Run,
    summarizer: &S,
    clock: &C,
    on_event: &mut dyn FnMut(&Event),
) -> Result<Outcome, CompactError> {
    let mut sink = |event: &Event| {
        on_event(event);
        Ok::<(), std::convert::Infallible>(())
    };
    match drive_until(run, summarizer, clock, std::future::pending(), &mut sink).await {
        Ok(outcome) => Ok(outcome),
        Err(Stopped::Failed(error)) => Err(error),
        Err(Stopped::Cancelled) => Err(CompactError::Cancelled),
        Err(Stopped::Sink(never)) => match never {},
    }
}

/// Why [`drive_until`] stopped without an outcome. In every case nothing was applied.
#[derive(Debug)]
#[non_exhaustive]
pub enum Stopped<E> {
    /// The run failed: the engine's error.
    Failed(CompactError),
    /// `cancelled` completed: the run was cancelled.
    Cancelled,
    /// The event sink failed with this: the run was cancelled.
    Sink(E),
}

impl<E> From<CompactError> for Stopped<E> {
    fn from(error: CompactError) -> Self {
        Stopped::Failed(error)
    }
}

/// The one drive loop, which every host's driver is: [`drive`], stopped at once (the
/// run cancelled, answers still out left unheard) when `cancelled` completes (an
/// `AbortSignal`, a cancellation token) or `on_event` fails (a callback that threw).
/// After each step its events are delivered before the step is acted on.
pub async fn drive_until<S: Summarize, C: Clock, E>(
    run: &mut Run,
    summarizer: &S,
    clock: &C,
    cancelled: impl Future<Output = ()>,
    on_event: &mut dyn FnMut(&Event) -> Result<(), E>,
) -> Result<Outcome, Stopped<E>> {
    let mut cancelled = pin!(cancelled);
    let mut in_flight = FuturesUnordered::new();
    loop {
        if poll_fn(|cx| Poll::Ready(cancelled.as_mut().poll(cx).is_ready())).await {
            run.cancel();
            return Err(Stopped::Cancelled);
        }
        let (produced, then) = advance(run);
        for item in produced {
            match item {
                Produced::Event(event) => {
                    if let Err(error) = on_event(&event) {
                        run.cancel();
                        return Err(Stopped::Sink(error));
                    }
                }
                Produced::Request(request) => in_flight.push(async move {
                    let result = summarizer.summarize(&request).await;
                    (request.id, result)
                }),
            }
        }
        let until_ms = match then {
            Then::Wait { until_ms } => until_ms,
            Then::Done(outcome) => return Ok(outcome),
            Then::Failed(error) => return Err(Stopped::Failed(error)),
        };
        let mut timer = pin!(clock.sleep_until(until_ms));
        let wake = poll_fn(|cx| {
            // Cancellation first: an answer that came with it is not applied.
            if cancelled.as_mut().poll(cx).is_ready() {
                return Poll::Ready(Wake::Cancelled);
            }
            // Empty, it answers `None`: then only the deadline can wake the run (answers
            // the engine has given up on are dropped as they come).
            if let Poll::Ready(Some(answer)) = in_flight.poll_next_unpin(cx) {
                return Poll::Ready(Wake::Answer(answer));
            }
            if timer.as_mut().poll(cx).is_ready() {
                return Poll::Ready(Wake::Deadline);
            }
            Poll::Pending
        })
        .await;
        match wake {
            Wake::Cancelled => {
                run.cancel();
                return Err(Stopped::Cancelled);
            }
            // A stale answer (its job already settled) changes nothing.
            Wake::Answer((id, result)) => match run.complete(id, result, clock.now_ms()) {
                Ok(()) | Err(CompactError::StaleRequest(_)) => {}
                Err(error) => return Err(Stopped::Failed(error)),
            },
            Wake::Deadline => run.handle_timeout(clock.now_ms()),
        }
    }
}

/// Something a run produced on the way to its next wait: an event, or a request to hand
/// to the summarizer.
#[derive(Debug)]
#[non_exhaustive]
pub enum Produced {
    /// Something happened in the run.
    Event(Event),
    /// A summary to ask for: answer it with [`Run::complete`].
    Request(SummaryRequest),
}

/// Where a run stands once [`advance`] is done with it.
#[derive(Debug)]
#[non_exhaustive]
pub enum Then {
    /// It waits for answers: once `until_ms` passes with none, call
    /// [`Run::handle_timeout`], then advance again.
    Wait {
        /// The earliest deadline of a request in flight.
        until_ms: u64,
    },
    /// It is over.
    Done(Outcome),
    /// It failed; nothing was applied.
    Failed(CompactError),
}

/// The one rule every driver follows, kept once: after `begin`, `complete` or
/// `handle_timeout`, poll until `Wait`, `Done` or `Failed`. Returns what the run produced
/// on the way, in order (each step's events before its requests), and where it stands.
pub fn advance(run: &mut Run) -> (Vec<Produced>, Then) {
    let mut produced = Vec::new();
    loop {
        let step = run.poll();
        // What happened before the step, the last events included.
        produced.extend(run.events().into_iter().map(Produced::Event));
        let then = match step {
            Step::Summarize(requests) => {
                produced.extend(requests.into_iter().map(Produced::Request));
                continue;
            }
            Step::Wait { until_ms } => Then::Wait { until_ms },
            Step::Done(outcome) => Then::Done(outcome),
            Step::Failed(error) => Then::Failed(error),
        };
        return (produced, then);
    }
}

/// What woke [`drive_until`] from a `Wait`.
enum Wake {
    Answer((RequestId, Result<String, SummaryFailure>)),
    Deadline,
    Cancelled,
}

impl Compactor {
    /// Compacts `messages` for `session` with `summarizer`: `begin`, then [`drive`]. When
    /// the session's circuit is open and `extractive_fallback` is set, the engine answers
    /// with the offline [`Extractive`] summarizer (the report says so).
    pub async fn compact<S: Summarize, C: Clock>(
        &self,
        session: &str,
        messages: Vec<Message>,
        trigger: Trigger,
        summarizer: &S,
        clock: &C,
    ) -> Result<Outcome, CompactError> {
        let mut run = self.begin(session, messages, trigger, clock.now_ms())?;
        drive(&mut run, summarizer, clock, &mut |_| {}).await
    }
}

/// Compaction as an agent loop sees it: hand over the conversation before each model
/// call, get back a new one when compaction happened.
pub trait ContextCompaction {
    /// Compacts when needed: `Some(outcome)` when the conversation changed, `None` when
    /// it was left as it is (below the trigger, already compact).
    fn compact(
        &self,
        session: &str,
        messages: Vec<Message>,
    ) -> impl Future<Output = Result<Option<Outcome>, CompactError>>;

    /// The session's token count as last assessed, from the memo: no recount.
    fn token_count_hint(&self, session: &str) -> Option<u64>;
}

/// A [`Compactor`] with its summarizer and clock: the [`ContextCompaction`] of an agent.
pub struct AgentCompaction<S, C> {
    /// The engine handle.
    pub compactor: Compactor,
    /// Who writes summaries.
    pub summarizer: S,
    /// The caller's clock.
    pub clock: C,
}

impl<S: Summarize, C: Clock> ContextCompaction for AgentCompaction<S, C> {
    async fn compact(
        &self,
        session: &str,
        messages: Vec<Message>,
    ) -> Result<Option<Outcome>, CompactError> {
        let outcome = self
            .compactor
            .compact(
                session,
                messages,
                Trigger::Proactive,
                &self.summarizer,
                &self.clock,
            )
            .await?;
        Ok(matches!(outcome.status, Status::Compacted { .. }).then_some(outcome))
    }

    fn token_count_hint(&self, session: &str) -> Option<u64> {
        self.compactor.token_count_hint(session)
    }
}

/// A stored session: its messages and their version.
pub type Stored<V> = (Vec<Message>, V);

/// Loads and saves conversations for [`Compactor::compact_session`]: a KV with
/// compare-and-set, a SQL row, a Durable Object.
pub trait SessionStore {
    /// The store's version of a session: a counter, an etag, a timestamp. Compared by the
    /// store only; shown in [`CompactError::Conflict`].
    type Version: Clone + std::fmt::Display;
    /// The store's own error.
    type Error: std::fmt::Display;

    /// The session's messages and their version; `None` when the session is unknown.
    fn load(
        &self,
        session: &str,
    ) -> impl Future<Output = Result<Option<Stored<Self::Version>>, Self::Error>>;

    /// Writes `messages` if the stored version is still `expected_version`; otherwise
    /// writes nothing and answers `Ok(Err(found_version))`.
    fn save(
        &self,
        session: &str,
        messages: &[Message],
        expected_version: &Self::Version,
    ) -> impl Future<Output = Result<Result<(), Self::Version>, Self::Error>>;
}

/// What [`Compactor::compact_session`] did: the write-back that landed. Its outcome's
/// messages are what was written (appends rebased included), its report counts every run
/// made on the way.
pub type SessionOutcome = WriteBack;

impl Compactor {
    /// Reads the session from `store`, compacts it, and writes the result back with the
    /// version read; a result that changed nothing is not written.
    ///
    /// When the save is refused because messages were appended meanwhile, they are
    /// rebased: the session is read again and the result followed by the new messages is
    /// written with the new version (compacted again first when that would exceed the
    /// absolute limit), up to [`crate::rebase::MAX_REBASES`] times. Any other change (a loaded
    /// message edited or removed, another compaction's result written) is
    /// [`CompactError::Conflict`], and nothing is written.
    pub async fn compact_session<S: Summarize, C: Clock, T: SessionStore>(
        &self,
        store: &T,
        session: &str,
        summarizer: &S,
        clock: &C,
    ) -> Result<SessionOutcome, CompactError> {
        let persist = |e: T::Error| CompactError::PersistFailed(e.to_string());
        let mut write = SessionWrite::new(self.clone());
        loop {
            match write.poll() {
                WriteStep::Load => write.loaded(store.load(session).await.map_err(persist)?),
                WriteStep::Compact { messages, .. } => {
                    let outcome = self
                        .compact(session, messages, Trigger::Proactive, summarizer, clock)
                        .await?;
                    write.compacted(outcome);
                }
                WriteStep::Save {
                    write: result,
                    expected,
                    ..
                } => {
                    let messages = &result.outcome.messages;
                    let saved = store.save(session, messages, expected).await;
                    write.saved(saved.map_err(persist)?);
                }
                WriteStep::Done { write, .. } => return Ok(write),
                WriteStep::Conflict { expected, found } => {
                    return Err(CompactError::Conflict {
                        expected: expected.to_string(),
                        found: found.to_string(),
                    });
                }
                WriteStep::Failed(error) => return Err(error),
                WriteStep::Missing => return Err(CompactError::NoMessagesToCompact),
            }
        }
    }
}
