//! Summarizers the command drives from worker threads: the offline extractive one, any
//! OpenAI-compatible `/v1/chat/completions` endpoint, and fault injection around either.
//!
//! They block: each request runs on its own thread, so a slow model never holds the
//! interface. The engine never sees them; the driver hands their answers to
//! `Run::complete`.

use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Poll, Waker};
use std::time::Duration;

use clap::{Args, ValueEnum};
use compactor::driver::Summarize;
use compactor::engine::{CompactionConfig, SummaryFailure, SummaryRequest};
use compactor::extractive::Extractive;
use compactor::message::Role;
use serde_json::{Value, json};

use crate::failure::Failure;

/// Writes one summary, blocking the calling thread.
pub trait BlockingSummarizer: Send + Sync {
    /// Answers `request` with the summary text, or says why not.
    fn summarize(&self, request: &SummaryRequest) -> Result<String, SummaryFailure>;

    /// A short name for status lines.
    fn name(&self) -> String;
}

/// Answers `request` on a thread of its own and hands the result to `deliver`: a slow
/// model holds only that thread, and a panicking summarizer is a failed request.
pub fn answer_on_thread(
    summarizer: Arc<dyn BlockingSummarizer>,
    request: SummaryRequest,
    deliver: impl FnOnce(Result<String, SummaryFailure>) + Send + 'static,
) {
    std::thread::spawn(move || {
        deliver(
            catch_unwind(AssertUnwindSafe(|| summarizer.summarize(&request)))
                .unwrap_or_else(|_| Err(SummaryFailure::failed("summarizer panicked"))),
        );
    });
}

/// A blocking summarizer as the engine's async driver takes it: each request is answered
/// on its own thread ([`answer_on_thread`]), so `drive` keeps a level's requests in
/// flight together.
pub struct Threaded(pub Arc<dyn BlockingSummarizer>);

/// Where a request's thread leaves its answer for the future awaiting it.
#[derive(Default)]
struct Slot {
    answer: Option<Result<String, SummaryFailure>>,
    waker: Option<Waker>,
}

impl Summarize for Threaded {
    fn summarize(
        &self,
        request: &SummaryRequest,
    ) -> impl Future<Output = Result<String, SummaryFailure>> {
        let slot = Arc::new(Mutex::new(Slot::default()));
        let filled = Arc::clone(&slot);
        answer_on_thread(Arc::clone(&self.0), request.clone(), move |answer| {
            let mut slot = filled.lock().unwrap_or_else(PoisonError::into_inner);
            slot.answer = Some(answer);
            if let Some(waker) = slot.waker.take() {
                waker.wake();
            }
        });
        std::future::poll_fn(move |cx| {
            let mut slot = slot.lock().unwrap_or_else(PoisonError::into_inner);
            match slot.answer.take() {
                Some(answer) => Poll::Ready(answer),
                None => {
                    slot.waker = Some(cx.waker().clone());
                    Poll::Pending
                }
            }
        })
    }
}

impl BlockingSummarizer for Extractive {
    fn summarize(&self, request: &SummaryRequest) -> Result<String, SummaryFailure> {
        self.answer(request)
    }

    fn name(&self) -> String {
        "extractive".into()
    }
}

/// Any OpenAI-compatible chat completions endpoint.
#[derive(Debug, Clone)]
pub struct OpenAi {
    /// The endpoint's base, e.g. `https://api.openai.com` or `http://127.0.0.1:8080/v1`:
    /// `/v1/chat/completions` is appended unless the base already ends in `/v1`.
    pub base_url: String,
    /// The model asked when the request names none.
    pub model: String,
    /// Sent as a bearer token when set.
    pub api_key: Option<String>,
    /// The whole exchange's time limit.
    pub timeout: Duration,
}

impl OpenAi {
    fn url(&self) -> String {
        let base = self.base_url.trim_end_matches('/');
        if base.ends_with("/chat/completions") {
            base.to_owned()
        } else if base.ends_with("/v1") {
            format!("{base}/chat/completions")
        } else {
            format!("{base}/v1/chat/completions")
        }
    }

    /// The request body: the prompt messages, the model and `max_tokens`.
    pub fn body(&self, request: &SummaryRequest) -> Value {
        let messages: Vec<Value> = request
            .prompt
            .iter()
            .map(|m| {
                let role = match m.role {
                    Role::System => "system",
                    Role::Assistant => "assistant",
                    _ => "user",
                };
                json!({ "role": role, "content": m.content })
            })
            .collect();
        json!({
            "model": request.model.as_deref().unwrap_or(&self.model),
            "messages": messages,
            "max_tokens": request.max_output_tokens,
        })
    }
}

/// Reads an OpenAI-compatible answer: `choices[0].message.content` on success; an HTTP 400
/// about the context length is [`SummaryFailure::InputTooLong`], so the engine retries
/// with less; anything else fails with the server's words.
pub fn parse_answer(status: u16, body: &str) -> Result<String, SummaryFailure> {
    if status == 400 {
        let lower = body.to_lowercase();
        if [
            "context_length",
            "context length",
            "maximum context",
            "too long",
        ]
        .iter()
        .any(|needle| lower.contains(needle))
        {
            return Err(SummaryFailure::InputTooLong);
        }
    }
    if !(200..300).contains(&status) {
        let detail: String = body.chars().take(200).collect();
        return Err(SummaryFailure::failed(format!("HTTP {status}: {detail}")));
    }
    let json: Value = serde_json::from_str(body)
        .map_err(|e| SummaryFailure::failed(format!("answer is not JSON: {e}")))?;
    json["choices"][0]["message"]["content"]
        .as_str()
        .map(str::to_owned)
        .ok_or_else(|| SummaryFailure::failed("answer has no choices[0].message.content"))
}

impl BlockingSummarizer for OpenAi {
    fn summarize(&self, request: &SummaryRequest) -> Result<String, SummaryFailure> {
        let config = ureq::Agent::config_builder()
            .timeout_global(Some(self.timeout))
            .http_status_as_error(false)
            .build();
        let agent = ureq::Agent::new_with_config(config);
        let body = self.body(request).to_string();
        let mut call = agent
            .post(&self.url())
            .header("Content-Type", "application/json");
        if let Some(key) = &self.api_key {
            call = call.header("Authorization", &format!("Bearer {key}"));
        }
        let mut response = call
            .send(body.as_str())
            .map_err(|e| SummaryFailure::failed(format!("request failed: {e}")))?;
        let status = response.status().as_u16();
        let text = response
            .body_mut()
            .read_to_string()
            .map_err(|e| SummaryFailure::failed(format!("reading the answer failed: {e}")))?;
        parse_answer(status, &text)
    }

    fn name(&self) -> String {
        format!("openai {}", self.model)
    }
}

/// A summarizer slowed down and made to fail on purpose, to watch the failure discipline
/// and the circuit breaker at work.
pub struct Faulty {
    /// The summarizer that answers when no fault is injected.
    pub inner: Box<dyn BlockingSummarizer>,
    /// Added before every answer.
    pub latency: Duration,
    /// Every Nth request fails (1-based count).
    pub fail_every: Option<u64>,
    /// This share of requests fails, chosen by a fixed pseudo-random sequence so runs
    /// repeat.
    pub fail_rate: f64,
    /// Every Nth request is never answered (1-based count): only the engine's deadline
    /// ends it.
    pub hang_every: Option<u64>,
    count: AtomicU64,
}

impl Faulty {
    /// Wraps `inner`.
    pub fn new(
        inner: Box<dyn BlockingSummarizer>,
        latency: Duration,
        fail_every: Option<u64>,
        fail_rate: f64,
    ) -> Self {
        Self {
            inner,
            latency,
            fail_every,
            fail_rate,
            hang_every: None,
            count: AtomicU64::new(0),
        }
    }
}

/// Every `every`th of a 1-based count.
fn nth(every: Option<u64>, n: u64) -> bool {
    every.is_some_and(|every| every > 0 && n.is_multiple_of(every))
}

/// Blocks the calling thread for good: a summarizer that never answers.
fn hang() -> ! {
    loop {
        std::thread::park();
    }
}

/// splitmix64: a fixed, well-spread sequence; no randomness crate needed for a fault knob.
fn splitmix(n: u64) -> u64 {
    let mut z = n.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl BlockingSummarizer for Faulty {
    fn summarize(&self, request: &SummaryRequest) -> Result<String, SummaryFailure> {
        let n = self.count.fetch_add(1, Ordering::Relaxed) + 1;
        if !self.latency.is_zero() {
            std::thread::sleep(self.latency);
        }
        if nth(self.hang_every, n) {
            hang();
        }
        if nth(self.fail_every, n) {
            return Err(SummaryFailure::failed(format!(
                "injected failure (every {} requests)",
                self.fail_every.unwrap_or_default()
            )));
        }
        let draw = (splitmix(n) >> 11) as f64 / ((1u64 << 53) as f64);
        if self.fail_rate > 0.0 && draw < self.fail_rate {
            return Err(SummaryFailure::failed(format!(
                "injected failure (rate {})",
                self.fail_rate
            )));
        }
        self.inner.summarize(request)
    }

    fn name(&self) -> String {
        let mut name = self.inner.name();
        if !self.latency.is_zero() {
            name.push_str(&format!(" +{}ms", self.latency.as_millis()));
        }
        if let Some(every) = self.fail_every {
            name.push_str(&format!(" fail every {every}"));
        }
        if self.fail_rate > 0.0 {
            name.push_str(&format!(" fail {:.0}%", self.fail_rate * 100.0));
        }
        if let Some(every) = self.hang_every {
            name.push_str(&format!(" hang every {every}"));
        }
        name
    }
}

/// Who writes the summaries.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum SummarizerKind {
    /// Built in, offline and deterministic.
    Extractive,
    /// Any OpenAI-compatible `/v1/chat/completions` endpoint.
    Openai,
}

/// The summarizer and its knobs.
#[derive(Args, Debug, Clone)]
pub struct SummarizerArgs {
    /// Who writes the summaries.
    #[arg(long, value_enum, default_value = "extractive")]
    pub summarizer: SummarizerKind,
    /// The OpenAI-compatible endpoint (with `--summarizer openai`).
    #[arg(long, default_value = "https://api.openai.com")]
    pub base_url: String,
    /// The model that writes summaries [default: the conversation's `--model`].
    #[arg(long)]
    pub summary_model: Option<String>,
    /// The environment variable holding the API key.
    #[arg(long, default_value = "OPENAI_API_KEY")]
    pub api_key_env: String,
    /// Time limit of one summary request, in seconds: past it the request fails.
    #[arg(long, default_value_t = 120)]
    pub request_timeout: u64,
    /// Delay every answer by this many milliseconds (to watch requests in flight).
    #[arg(long, default_value_t = 0)]
    pub latency: u64,
    /// Fail this share of requests (0 to 1), to watch fallbacks and the breaker.
    #[arg(long, default_value_t = 0.0)]
    pub fail_rate: f64,
    /// Fail every Nth request.
    #[arg(long)]
    pub fail_every: Option<u64>,
    /// Never answer every Nth request, to watch `--request-timeout` end it.
    #[arg(long)]
    pub hang_every: Option<u64>,
    /// What every summary should focus on ("keep the schema decisions"), added to each
    /// summary prompt apart from the transcript (at most 2,000 characters).
    #[arg(long, value_name = "TEXT")]
    pub instructions: Option<String>,
    /// Hand tool outputs to the running summary's summarizer whole, instead of as their
    /// fact-keeping placeholders (the summary's trail keeps their facts either way):
    /// for agents whose outputs are the information (web pages, documents).
    #[arg(long)]
    pub summarize_outputs: bool,
}

impl SummarizerArgs {
    /// Builds the summarizer; `model` is the conversation's model.
    pub fn build(&self, model: &str) -> Result<Faulty, Failure> {
        if !(0.0..=1.0).contains(&self.fail_rate) {
            return Err(Failure::Input(format!(
                "--fail-rate {} is not between 0 and 1",
                self.fail_rate
            )));
        }
        let inner: Box<dyn BlockingSummarizer> = match self.summarizer {
            SummarizerKind::Extractive => Box::new(Extractive),
            SummarizerKind::Openai => Box::new(OpenAi {
                base_url: self.base_url.clone(),
                model: self
                    .summary_model
                    .clone()
                    .unwrap_or_else(|| model.to_owned()),
                api_key: std::env::var(&self.api_key_env)
                    .ok()
                    .filter(|k| !k.is_empty()),
                timeout: Duration::from_secs(self.request_timeout.max(1)),
            }),
        };
        let mut faulty = Faulty::new(
            inner,
            Duration::from_millis(self.latency),
            self.fail_every,
            self.fail_rate,
        );
        faulty.hang_every = self.hang_every;
        Ok(faulty)
    }

    /// The engine's side of these options: the model named in summary requests and each
    /// request's deadline.
    pub fn configure(&self, config: CompactionConfig) -> CompactionConfig {
        CompactionConfig {
            summary_model: self.summary_model.clone(),
            request_timeout_ms: self.request_timeout.max(1).saturating_mul(1000),
            instructions: self.instructions.clone(),
            summarize_outputs: self.summarize_outputs,
            ..config
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use compactor_tests::loopback::{Answer, Loopback, completion};

    #[test]
    fn answers_are_parsed_and_context_errors_recognized() {
        let ok = r#"{"choices":[{"message":{"role":"assistant","content":"- done"}}]}"#;
        assert_eq!(parse_answer(200, ok), Ok("- done".into()));
        let long = r#"{"error":{"code":"context_length_exceeded","message":"This model's maximum context length is 8192 tokens"}}"#;
        assert_eq!(parse_answer(400, long), Err(SummaryFailure::InputTooLong));
        assert!(
            matches!(parse_answer(500, "boom"), Err(SummaryFailure::Failed { message: m }) if m.contains("HTTP 500"))
        );
        assert!(matches!(
            parse_answer(200, "{}"),
            Err(SummaryFailure::Failed { .. })
        ));
    }

    #[test]
    fn urls_gain_the_completions_path_once() {
        let mut s = OpenAi {
            base_url: "http://h:1".into(),
            model: "m".into(),
            api_key: None,
            timeout: Duration::from_secs(1),
        };
        assert_eq!(s.url(), "http://h:1/v1/chat/completions");
        s.base_url = "http://h:1/v1/".into();
        assert_eq!(s.url(), "http://h:1/v1/chat/completions");
        s.base_url = "http://h:1/v1/chat/completions".into();
        assert_eq!(s.url(), "http://h:1/v1/chat/completions");
    }

    #[test]
    fn fail_every_fails_exactly_every_nth() {
        struct Echo;
        impl BlockingSummarizer for Echo {
            fn summarize(&self, _: &SummaryRequest) -> Result<String, SummaryFailure> {
                Ok("x".into())
            }
            fn name(&self) -> String {
                "echo".into()
            }
        }
        let faulty = Faulty::new(Box::new(Echo), Duration::ZERO, Some(3), 0.0);
        let request = SummaryRequest {
            id: compactor::engine::RequestId(1),
            level: compactor::ladder::Level::Moderate,
            prompt: vec![],
            max_output_tokens: 10,
            covers: vec![],
            age: 0,
            model: None,
            provider: None,
            deadline_ms: 0,
            attempt: 1,
            input_tokens: 0,
            continuation: None,
        };
        let failed: Vec<bool> = (0..6)
            .map(|_| faulty.summarize(&request).is_err())
            .collect();
        assert_eq!(failed, [false, false, true, false, false, true]);
        assert_eq!(faulty.name(), "echo fail every 3");
    }

    #[test]
    fn hang_every_never_answers_exactly_every_nth() {
        let mut faulty = Faulty::new(Box::new(Extractive), Duration::ZERO, None, 0.0);
        faulty.hang_every = Some(3);
        assert_eq!(faulty.name(), "extractive hang every 3");
        let faulty: Arc<dyn BlockingSummarizer> = Arc::new(faulty);
        let (tx, rx) = std::sync::mpsc::channel();
        for _ in 0..6 {
            let tx = tx.clone();
            answer_on_thread(Arc::clone(&faulty), request(), move |answer| {
                let _ = tx.send(answer.is_ok());
            });
        }
        for _ in 0..4 {
            assert_eq!(rx.recv_timeout(Duration::from_secs(5)), Ok(true));
        }
        assert!(
            rx.recv_timeout(Duration::from_millis(300)).is_err(),
            "the 3rd and 6th never answer"
        );
    }

    /// A loopback endpoint that gives `answers` in order.
    fn serve(answers: Vec<Answer>) -> Loopback {
        Loopback::serve(move |n, _| answers[n.min(answers.len() - 1)].clone())
    }

    fn request() -> SummaryRequest {
        SummaryRequest {
            id: compactor::engine::RequestId(7),
            level: compactor::ladder::Level::Moderate,
            prompt: vec![
                compactor::prompt::PromptMessage {
                    role: Role::System,
                    content: "Summarize.".into(),
                },
                compactor::prompt::PromptMessage {
                    role: Role::User,
                    content: "<transcript>\n[user] fix src/lib.rs\n</transcript>".into(),
                },
            ],
            max_output_tokens: 321,
            covers: vec![],
            age: 2,
            model: Some("summary-model".into()),
            provider: None,
            deadline_ms: 0,
            attempt: 1,
            input_tokens: 20,
            continuation: None,
        }
    }

    fn client(base_url: String, timeout: Duration) -> OpenAi {
        OpenAi {
            base_url,
            model: "fallback-model".into(),
            api_key: Some("sk-test".into()),
            timeout,
        }
    }

    #[test]
    fn the_openai_client_sends_the_prompt_and_reads_the_answer() {
        let server = serve(vec![(
            200,
            completion("## Facts\n- src/lib.rs"),
            Duration::ZERO,
        )]);
        let answer = client(server.url.clone(), Duration::from_secs(5)).summarize(&request());
        assert_eq!(answer, Ok("## Facts\n- src/lib.rs".into()));
        let bodies = server.bodies();
        let body: Value = serde_json::from_str(&bodies[0]).expect("JSON body");
        assert_eq!(body["model"], "summary-model");
        assert_eq!(body["max_tokens"], 321);
        assert_eq!(body["messages"][0]["role"], "system");
        assert_eq!(body["messages"][0]["content"], "Summarize.");
        assert_eq!(body["messages"][1]["role"], "user");
        assert!(
            body["messages"][1]["content"]
                .as_str()
                .is_some_and(|c| c.contains("fix src/lib.rs"))
        );
    }

    #[test]
    fn the_openai_client_surfaces_errors_and_timeouts_as_failures() {
        let too_long = r#"{"error":{"code":"context_length_exceeded"}}"#;
        let server = serve(vec![
            (500, r#"{"error":"boom"}"#.into(), Duration::ZERO),
            (400, too_long.into(), Duration::ZERO),
            (200, "{}".into(), Duration::from_millis(1500)),
        ]);
        let summarizer = client(server.url.clone(), Duration::from_millis(300));
        let failed = summarizer.summarize(&request());
        assert!(
            matches!(&failed, Err(SummaryFailure::Failed { message: m }) if m.contains("HTTP 500")),
            "{failed:?}"
        );
        assert_eq!(
            summarizer.summarize(&request()),
            Err(SummaryFailure::InputTooLong)
        );
        let started = std::time::Instant::now();
        let timed_out = summarizer.summarize(&request());
        assert!(
            matches!(&timed_out, Err(SummaryFailure::Failed { message: m }) if m.contains("request failed")),
            "{timed_out:?}"
        );
        assert!(
            started.elapsed() < Duration::from_millis(1400),
            "the timeout held"
        );
        assert_eq!(server.bodies().len(), 3);
    }

    #[test]
    fn an_unreachable_endpoint_is_a_failure() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let url = format!("http://{}", listener.local_addr().expect("address"));
        drop(listener);
        let answer = client(url, Duration::from_secs(2)).summarize(&request());
        assert!(
            matches!(answer, Err(SummaryFailure::Failed { .. })),
            "{answer:?}"
        );
    }
}
