//! A deterministic harness: a scripted summarizer and a bounded driver.

use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use compactor::driver::{Clock, Summarize};
use compactor::engine::{
    CompactError, Outcome, RequestId, Run, Step, SummaryFailure, SummaryRequest,
};
use compactor::extractive::Extractive;

/// What the scripted summarizer does with one request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Script {
    /// Answer with the extractive summary.
    Extract,
    /// Answer with this text.
    Text(String),
    /// Fail with this message.
    Fail(String),
    /// Answer that the input is too long.
    TooLong,
    /// Answer with the extractive summary minus every artifact reference.
    DropArtifacts,
    /// Never answer (the driver must cancel or expire it).
    Hang,
    /// Answer with this percentage of the tokens the request allows (a filler word that is
    /// one token in o200k_base, repeated): for tests of sizes, not of content.
    Percent(u64),
}

/// A summarizer following a script: one entry per request in issue order, then `fallback`.
/// Every answer takes `latency` of real time; the requests seen are recorded.
#[derive(Clone)]
pub struct Scripted {
    script: Arc<Mutex<VecDeque<Script>>>,
    fallback: Script,
    latency: Duration,
    /// Every request received, in order.
    pub seen: Arc<Mutex<Vec<SummaryRequest>>>,
    in_flight: Arc<AtomicUsize>,
    /// The most requests that were being answered at the same time.
    pub max_in_flight: Arc<AtomicUsize>,
}

impl Scripted {
    /// Answers every request with `fallback`.
    pub fn always(fallback: Script) -> Self {
        Self::new(Vec::new(), fallback)
    }

    /// Follows `script`, then `fallback`.
    pub fn new(script: Vec<Script>, fallback: Script) -> Self {
        Self {
            script: Arc::new(Mutex::new(script.into())),
            fallback,
            latency: Duration::ZERO,
            seen: Arc::default(),
            in_flight: Arc::default(),
            max_in_flight: Arc::default(),
        }
    }

    /// Takes `latency` to answer each request.
    #[must_use]
    pub fn with_latency(mut self, latency: Duration) -> Self {
        self.latency = latency;
        self
    }

    fn next(&self, request: &SummaryRequest) -> Script {
        self.seen.lock().expect("seen").push(request.clone());
        self.script
            .lock()
            .expect("script")
            .pop_front()
            .unwrap_or_else(|| self.fallback.clone())
    }

    /// The answer to `request` under `script`, without latency.
    pub fn answer(
        script: &Script,
        request: &SummaryRequest,
    ) -> Option<Result<String, SummaryFailure>> {
        let extract = || Extractive.summarize_prompt(&request.prompt, request.max_output_tokens);
        match script {
            Script::Extract => Some(Ok(extract())),
            Script::Text(text) => Some(Ok(text.clone())),
            Script::Fail(why) => Some(Err(SummaryFailure::failed(why.clone()))),
            Script::TooLong => Some(Err(SummaryFailure::InputTooLong)),
            Script::DropArtifacts => {
                let text = extract();
                let refs = compactor::prompt::artifact_refs(&text);
                Some(Ok(refs.iter().fold(text, |t, r| t.replace(r.as_str(), ""))))
            }
            Script::Hang => None,
            Script::Percent(percent) => {
                let wanted = request.max_output_tokens * percent / 100;
                Some(Ok(" ok".repeat(wanted as usize)))
            }
        }
    }
}

/// A future ready after a real delay, woken by a timer thread.
struct Delay {
    until: std::time::Instant,
    started: bool,
}

impl Future for Delay {
    type Output = ();
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let now = std::time::Instant::now();
        if now >= self.until {
            return Poll::Ready(());
        }
        if !self.started {
            self.started = true;
            let waker = cx.waker().clone();
            let wait = self.until - now;
            std::thread::spawn(move || {
                std::thread::sleep(wait);
                waker.wake();
            });
        }
        Poll::Pending
    }
}

impl Summarize for Scripted {
    fn summarize(
        &self,
        request: &SummaryRequest,
    ) -> impl Future<Output = Result<String, SummaryFailure>> {
        let script = self.next(request);
        let answer = Self::answer(&script, request);
        let delay = Delay {
            until: std::time::Instant::now() + self.latency,
            started: false,
        };
        let (in_flight, max_in_flight) = (self.in_flight.clone(), self.max_in_flight.clone());
        async move {
            let now = in_flight.fetch_add(1, Ordering::SeqCst) + 1;
            max_in_flight.fetch_max(now, Ordering::SeqCst);
            delay.await;
            in_flight.fetch_sub(1, Ordering::SeqCst);
            match answer {
                Some(answer) => answer,
                None => std::future::pending().await,
            }
        }
    }
}

/// A simulated clock: sleeping jumps time to the deadline once the other futures of the
/// task have had their turns, so a test of deadlines takes no real time. Use it with
/// summarizers that answer at once (or never), not with real latency.
#[derive(Debug, Default)]
pub struct SimClock {
    now: AtomicU64,
}

impl SimClock {
    /// A clock reading `now_ms`.
    pub fn at(now_ms: u64) -> Self {
        Self {
            now: AtomicU64::new(now_ms),
        }
    }
}

impl Clock for SimClock {
    fn now_ms(&self) -> u64 {
        self.now.load(Ordering::SeqCst)
    }

    fn sleep_until(&self, deadline_ms: u64) -> impl Future<Output = ()> {
        // Ready answers may sit behind `FuturesUnordered`'s yield: give them turns first.
        let mut turns = 64;
        std::future::poll_fn(move |cx| {
            if turns > 0 {
                turns -= 1;
                cx.waker().wake_by_ref();
                return Poll::Pending;
            }
            // Just past the deadline: deadlines are missed when strictly passed.
            self.now
                .fetch_max(deadline_ms.saturating_add(1), Ordering::SeqCst);
            Poll::Ready(())
        })
    }
}

/// The real clock (milliseconds since it was made), sleeping on a timer thread.
#[derive(Debug)]
pub struct RealClock {
    start: std::time::Instant,
}

impl Default for RealClock {
    fn default() -> Self {
        Self {
            start: std::time::Instant::now(),
        }
    }
}

impl Clock for RealClock {
    fn now_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    fn sleep_until(&self, deadline_ms: u64) -> impl Future<Output = ()> {
        Delay {
            until: self.start + Duration::from_millis(deadline_ms.saturating_add(1)),
            started: false,
        }
    }
}

/// Drives `run` synchronously with `scripted` on `clock`, answering requests in issue
/// order; fails after `max_steps` polls instead of looping. Hanging requests are left
/// unanswered: once only they remain, the clock jumps to their deadline and
/// `handle_timeout` fails them, as a driver's timer would.
pub fn drive_bounded(
    run: &mut Run,
    scripted: &Scripted,
    clock: &SimClock,
    max_steps: usize,
) -> Result<Outcome, CompactError> {
    let mut pending: VecDeque<SummaryRequest> = VecDeque::new();
    let mut hanging: Vec<RequestId> = Vec::new();
    for _ in 0..max_steps {
        match run.poll() {
            Step::Summarize(requests) => pending.extend(requests),
            Step::Done(outcome) => return Ok(outcome),
            Step::Failed(error) => return Err(error),
            Step::Wait { until_ms } => match pending.pop_front() {
                Some(request) => match Scripted::answer(&scripted.next(&request), &request) {
                    Some(answer) => match run.complete(request.id, answer, clock.now_ms()) {
                        Ok(()) | Err(CompactError::StaleRequest(_)) => {}
                        Err(error) => return Err(error),
                    },
                    None => hanging.push(request.id),
                },
                None => {
                    assert!(!hanging.is_empty(), "the run waits with nothing in flight");
                    futures_executor::block_on(clock.sleep_until(until_ms));
                    run.handle_timeout(clock.now_ms());
                }
            },
            _ => unreachable!("new Step variant"),
        }
    }
    panic!("run did not finish within {max_steps} steps");
}
