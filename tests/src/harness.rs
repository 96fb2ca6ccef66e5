//! A deterministic harness: a scripted summarizer and a bounded driver.

use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use compactor::budget::BudgetConfig;
use compactor::driver::Summarize;
use compactor::engine::{
    CompactError, CompactionConfig, Compactor, Outcome, RequestId, Run, Step, SummaryFailure,
    SummaryRequest,
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
            Script::Fail(why) => Some(Err(SummaryFailure::Failed(why.clone()))),
            Script::TooLong => Some(Err(SummaryFailure::InputTooLong)),
            Script::DropArtifacts => {
                let text = extract();
                let refs = compactor::prompt::artifact_refs(&text);
                Some(Ok(refs.iter().fold(text, |t, r| t.replace(r.as_str(), ""))))
            }
            Script::Hang => None,
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

/// Drives `run` synchronously with `scripted`, answering requests in issue order at
/// `now_ms`; fails after `max_steps` polls instead of looping. Hanging requests are
/// left unanswered: the run is cancelled once only hanging requests remain.
pub fn drive_bounded(
    run: &mut Run,
    scripted: &Scripted,
    now_ms: u64,
    max_steps: usize,
) -> Result<Outcome, CompactError> {
    let mut pending: VecDeque<SummaryRequest> = VecDeque::new();
    let mut hanging: Vec<RequestId> = Vec::new();
    for _ in 0..max_steps {
        match run.poll() {
            Step::Summarize(requests) => pending.extend(requests),
            Step::Done(outcome) => return Ok(outcome),
            Step::Failed(error) => return Err(error),
            Step::Wait => match pending.pop_front() {
                Some(request) => match Scripted::answer(&scripted.next(&request), &request) {
                    Some(answer) => match run.complete(request.id, answer, now_ms) {
                        Ok(()) | Err(CompactError::StaleRequest(_)) => {}
                        Err(error) => return Err(error),
                    },
                    None => hanging.push(request.id),
                },
                None => {
                    assert!(!hanging.is_empty(), "the run waits with nothing in flight");
                    run.cancel();
                }
            },
            _ => unreachable!("new Step variant"),
        }
    }
    panic!("run did not finish within {max_steps} steps");
}

/// A compactor whose target is `share` of `tokens` (no output reserve, no message signal),
/// counting as gpt-4o does; `tweak` changes the rest of its config.
pub fn compactor_for(
    tokens: u64,
    share: f64,
    tweak: impl FnOnce(&mut CompactionConfig),
) -> Compactor {
    let mut config = CompactionConfig {
        budget: BudgetConfig {
            model: Some("gpt-4o".into()),
            max_context_tokens: Some(((tokens as f64 * share) / 0.75).ceil() as u64 + 1),
            output_reserve: Some(0),
            max_messages: None,
            ..BudgetConfig::default()
        },
        ..CompactionConfig::default()
    };
    tweak(&mut config);
    Compactor::new(config).expect("valid numbers")
}
