//! Replay: a trajectory as its agent lived it, call by call, priced.
//!
//! Each assistant response of a trajectory (one assistant message, or a run of them: a
//! Responses call's reasoning, message and function calls) is one model call, made with
//! the history before it. [`replay`] appends that history to a [`Session`] call by call,
//! compacts when the session's assessment says so (with default options, as a caller following the
//! [`live`](crate::live) docs would), and records the prompt each call would have sent.
//! Nothing here reads a clock or does IO: the summarizer's answers come through
//! [`Summarize`] and [`drive`](crate::driver::drive), as in every other driver.
//!
//! # Pricing
//!
//! Prices are relative to one uncached input token ([`Prices`]). Providers cache a prompt's
//! prefix: a call's **cached** tokens are those of the messages it shares, from the start,
//! with the previous call's prompt (compared message by message: with no compaction in
//! between, the whole previous prompt; after one, the messages before the first it
//! changed), billed at [`Prices::cached`]. The rest of the prompt — everything past the
//! shared prefix, the reply priming included — is **written** to the cache by this call,
//! and billed at [`Prices::cache_write`] in place of the uncached price (1.0 bills a write
//! as plain input, as OpenAI and Gemini do; Anthropic's five-minute cache is 1.25).
//! A summarizer request is sent as its [`Continuation`] where it offers one, as a caller
//! whose summary model is the agent's sends it: the conversation's prefix it shares with
//! the previous call's prompt is read from the cache, at [`Prices::cached`]; the rest of its
//! input — a continuation's newer messages and instruction, or a request's transcript — is
//! billed at 1×, and the summary it returns at [`Prices::output`]. The agent's own answers
//! cost the same under every policy and are left out.
//!
//! Every figure is relative to keeping everything — an unlimited window, priced alike —
//! which the same pass computes beside the policy's.

mod seen;

use crate::driver::{Clock, Summarize};
use crate::engine::{Compactor, Status, SummaryFailure, SummaryRequest, Trigger};
use crate::live::Session;
use crate::message::{Message, Role};
use crate::summary::Continuation;
use crate::tokens::TokenAccountant;
use seen::Seen;

pub use crate::policy::Prices;

/// What decides the replayed prompt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Rule {
    /// A [`Session`]: compacts when its assessment's signals fire (proactively, and
    /// reactively when a result is still over the absolute limit), with default options.
    Session,
    /// Keeps everything: an unlimited window.
    KeepEverything,
    /// Drops the oldest turns after the stable prefix (system messages, injected context,
    /// the task: [`crate::task::prefix`]) whenever
    /// the prompt is over the trigger, until it is at or under it: trimming on every call.
    Trim,
}

/// A policy to replay: a rule and the compactor whose window, counts and settings it uses.
#[derive(Debug, Clone)]
pub struct Policy {
    /// The compactor (its budget and token accountant; its settings for [`Rule::Session`]).
    pub compactor: Compactor,
    /// What decides the prompt.
    pub rule: Rule,
}

/// One model call of the replay.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(rename_all = "camelCase")
)]
pub struct Call {
    /// The index of the assistant message the call produced, in the trajectory.
    pub message: usize,
    /// The prompt's tokens.
    pub prompt_tokens: u64,
    /// Of which read from the cache: the prefix shared with the previous call's prompt.
    pub cached_tokens: u64,
    /// Of which written: the rest.
    pub written_tokens: u64,
    /// Tokens of the summary requests' prompts before the call.
    pub summary_input_tokens: u64,
    /// What was sent for them: each request's continuation where it offers one (its
    /// prefix and instruction), else its prompt.
    pub summary_sent_tokens: u64,
    /// Of which read from the cache.
    pub summary_cached_tokens: u64,
    /// Tokens the summarizer returned before the call.
    pub summary_output_tokens: u64,
    /// Compactions made before the call.
    pub compactions: u32,
    /// The prompt is over the absolute limit: the provider would refuse it.
    pub over_window: bool,
    /// The share of the history's facts the prompt holds.
    pub facts_seen: f64,
    /// The call's cost, summaries included.
    pub cost: f64,
    /// The same call's cost with everything kept.
    pub baseline_cost: f64,
    /// Tokens the call's prompt adds to the previous one (its new messages and the reply's
    /// priming): what keeping everything writes, and what every policy writes at least.
    pub new_tokens: u64,
}

/// The figures of a whole replay.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(rename_all = "camelCase")
)]
pub struct Totals {
    /// Model calls.
    pub calls: usize,
    /// The cost, relative to keeping everything (1.0 with no call).
    pub relative_cost: f64,
    /// The cost, in uncached input tokens.
    pub cost: f64,
    /// Keeping everything's cost, in uncached input tokens.
    pub baseline_cost: f64,
    /// The share of prompt tokens read from the cache.
    pub cache_share: f64,
    /// The mean prompt, in tokens.
    pub mean_prompt: f64,
    /// The largest prompt, in tokens.
    pub peak_prompt: u64,
    /// Compactions made.
    pub compactions: u32,
    /// Compactions that failed (the call went on with the prompt as it was).
    pub failures: u32,
    /// Calls whose prompt was over the absolute limit.
    pub over_window: usize,
    /// The mean share of the history's facts each call's prompt holds.
    pub facts_seen: f64,
    /// Writing each call's new tokens once, relative to keeping everything: the part of
    /// the cost no policy that sends every message saves; a policy saves only on the
    /// rest (cached reads).
    pub floor: f64,
}

/// A replay: every call, and what a compaction run failed on.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(rename_all = "camelCase")
)]
pub struct Replay {
    /// The calls, in order.
    pub calls: Vec<Call>,
    /// Compaction runs that failed.
    pub failures: u32,
    /// The first failure's message.
    pub first_failure: Option<String>,
    /// The prices the calls were billed at.
    pub prices: Prices,
}

impl Replay {
    /// The figures of the whole replay.
    pub fn totals(&self) -> Totals {
        let calls = self.calls.len();
        let sum = |f: fn(&Call) -> f64| self.calls.iter().map(f).sum::<f64>();
        let cost = sum(|c| c.cost);
        let baseline_cost = sum(|c| c.baseline_cost);
        let prompt: u64 = self.calls.iter().map(|c| c.prompt_tokens).sum();
        let cached: u64 = self.calls.iter().map(|c| c.cached_tokens).sum();
        let share = |part: f64, whole: f64| if whole > 0.0 { part / whole } else { 1.0 };
        Totals {
            calls,
            relative_cost: share(cost, baseline_cost),
            cost,
            baseline_cost,
            cache_share: share(cached as f64, prompt as f64),
            mean_prompt: if calls == 0 {
                0.0
            } else {
                prompt as f64 / calls as f64
            },
            peak_prompt: self
                .calls
                .iter()
                .map(|c| c.prompt_tokens)
                .max()
                .unwrap_or(0),
            compactions: self.calls.iter().map(|c| c.compactions).sum(),
            failures: self.failures,
            over_window: self.calls.iter().filter(|c| c.over_window).count(),
            facts_seen: share(sum(|c| c.facts_seen), calls as f64),
            floor: share(
                self.prices.cache_write
                    * self.calls.iter().map(|c| c.new_tokens).sum::<u64>() as f64,
                baseline_cost,
            ),
        }
    }
}

/// The indices of a trajectory's model calls: the first of each run of assistant messages
/// after the first message. A response may be several assistant messages in a row (a
/// Responses `reasoning`, `message` and `function_call` item each): one call made them.
pub fn calls(messages: &[Message]) -> Vec<usize> {
    (1..messages.len())
        .filter(|&i| messages[i].role == Role::Assistant && messages[i - 1].role != Role::Assistant)
        .collect()
}

/// A summarizer that counts what goes in and out.
struct Counting<'a, S> {
    inner: &'a S,
    accountant: &'a TokenAccountant,
    taken: std::cell::RefCell<Taken>,
}

/// What went to the summarizer and came back.
#[derive(Default)]
struct Taken {
    /// Tokens of every request's prompt.
    input: u64,
    /// Of which those of the requests without a continuation.
    transcripts: u64,
    /// The continuations of the others, sent in place of their prompts.
    continued: Vec<Continuation>,
    /// Tokens of the summaries.
    output: u64,
}

impl<S: Summarize> Summarize for Counting<'_, S> {
    async fn summarize(&self, request: &SummaryRequest) -> Result<String, SummaryFailure> {
        {
            let mut taken = self.taken.borrow_mut();
            taken.input += request.input_tokens;
            match &request.continuation {
                Some(continuation) => taken.continued.push(continuation.clone()),
                None => taken.transcripts += request.input_tokens,
            }
        }
        let answer = self.inner.summarize(request).await;
        if let Ok(text) = &answer {
            self.taken.borrow_mut().output += self.accountant.text_tokens(text);
        }
        answer
    }
}

impl<S> Counting<'_, S> {
    /// What went in and out since the last take.
    fn take(&self) -> Taken {
        self.taken.take()
    }
}

impl Taken {
    /// The tokens these requests sent, of which read from the cache, and their cost with
    /// the summaries': a continuation's prefix is read from the cache as far as it runs
    /// over the first `shared` messages (tokens per message: `tokens`) of the prompt the
    /// previous call sent; the rest of what is sent is billed at 1×.
    fn billed(&self, prices: &Prices, tokens: &[u64], shared: usize) -> (u64, u64, f64) {
        let (mut sent, mut read) = (self.transcripts, 0u64);
        for c in &self.continued {
            let end = c.messages.min(shared).min(tokens.len());
            read += tokens[..end].iter().sum::<u64>().min(c.prefix_tokens);
            sent += c.prefix_tokens + c.instruction_tokens;
        }
        let cost =
            prices.cached * read as f64 + (sent - read) as f64 + prices.output * self.output as f64;
        (sent, read, cost)
    }
}

/// The prompt a policy keeps, message by message.
#[derive(Default)]
struct Prompt {
    messages: Vec<Message>,
    tokens: Vec<u64>,
}

/// What happened to the prompt before one call.
#[derive(Default)]
struct Change {
    /// The first message changed, when any was.
    first: Option<usize>,
    compactions: u32,
    failures: u32,
    error: Option<String>,
}

impl Change {
    fn at(&mut self, start: usize) {
        self.first = Some(self.first.map_or(start, |f| f.min(start)));
    }
}

/// Replays `messages` under `policy`, pricing each call with `prices`; `summarizer`
/// writes the summaries, `clock` times their requests (a clock that never fires suits
/// a summarizer that answers at once). `progress` hears `(calls done, calls)` after each
/// call. Never fails: a compaction run that fails is counted, and the call goes on with
/// the prompt as it was.
pub async fn replay<S: Summarize, C: Clock>(
    messages: &[Message],
    policy: &Policy,
    prices: &Prices,
    summarizer: &S,
    clock: &C,
    progress: &mut dyn FnMut(usize, usize),
) -> Replay {
    let compactor = &policy.compactor;
    let accountant = compactor.accountant();
    let counting = Counting {
        inner: summarizer,
        accountant,
        taken: Default::default(),
    };
    let priming = accountant.total(&[]);
    let absolute = compactor.budget().absolute_limit;
    let stable = crate::task::prefix(messages).end();
    let points = calls(messages);
    let mut session = Session::new(compactor, "replay", Vec::new());
    let mut prompt = Prompt::default();
    let mut seen = Seen::default();
    let mut replay = Replay {
        calls: Vec::with_capacity(points.len()),
        failures: 0,
        first_failure: None,
        prices: *prices,
    };
    // The history's tokens so far, and the previous prompt's (messages only).
    let (mut history, mut before) = (0u64, 0u64);
    let mut appended = 0;
    for (done, &at) in points.iter().enumerate() {
        let new = &messages[appended..at];
        appended = at;
        let counts = accountant.count_messages(new);
        let added: u64 = counts.iter().sum();
        let baseline = price(prices, history, history + added + priming);
        history += added;
        seen.append(new);
        let previous = prompt.messages.len();
        prompt.messages.extend_from_slice(new);
        prompt.tokens.extend(counts);
        // The conversation a compaction starts from, per message: what its requests'
        // continuations send first.
        let given = (policy.rule == Rule::Session).then(|| prompt.tokens.clone());
        let change = match policy.rule {
            Rule::KeepEverything => Change::default(),
            Rule::Trim => {
                let trigger = compactor.budget().trigger_tokens;
                trim(&mut prompt, &mut seen, stable, trigger, priming)
            }
            Rule::Session => {
                session.append(new.iter().cloned());
                follow(&mut session, &mut prompt, &mut seen, &counting, clock).await
            }
        };
        let shared = change.first.map_or(previous, |f| f.min(previous));
        let cached = if shared == previous {
            before
        } else {
            prompt.tokens[..shared].iter().sum()
        };
        before = prompt.tokens.iter().sum();
        let prompt_tokens = before + priming;
        let taken = counting.take();
        let (summary_sent_tokens, summary_cached_tokens, summaries) =
            taken.billed(prices, given.as_deref().unwrap_or_default(), previous);
        replay.failures += change.failures;
        replay.first_failure = replay.first_failure.take().or(change.error);
        replay.calls.push(Call {
            message: at,
            prompt_tokens,
            cached_tokens: cached,
            written_tokens: prompt_tokens - cached,
            summary_input_tokens: taken.input,
            summary_sent_tokens,
            summary_cached_tokens,
            summary_output_tokens: taken.output,
            compactions: change.compactions,
            over_window: policy.rule != Rule::KeepEverything && prompt_tokens > absolute,
            facts_seen: seen.share(),
            cost: price(prices, cached, prompt_tokens) + summaries,
            baseline_cost: baseline,
            new_tokens: added + priming,
        });
        progress(done + 1, points.len());
    }
    replay
}

/// A prompt of `tokens` whose first `cached` are read from the cache.
fn price(prices: &Prices, cached: u64, tokens: u64) -> f64 {
    prices.cached * cached as f64 + prices.cache_write * tokens.saturating_sub(cached) as f64
}

/// Follows the session's assessment: a proactive run when a signal fires, a reactive one
/// when the prompt is still over the absolute limit. Mirrors the session's messages into
/// `prompt` and `seen`.
async fn follow<S: Summarize, C: Clock>(
    session: &mut Session,
    prompt: &mut Prompt,
    seen: &mut Seen,
    summarizer: &S,
    clock: &C,
) -> Change {
    let mut change = Change::default();
    if !session.assess().needs_compaction() {
        return change;
    }
    for trigger in [Trigger::Proactive, Trigger::Reactive] {
        if trigger == Trigger::Reactive && !session.assess().signals.over_absolute_limit {
            break;
        }
        match session.compact(trigger, summarizer, clock).await {
            Ok(outcome) if matches!(outcome.status, Status::Compacted { .. }) => {
                change.compactions += 1;
                if let Some(splice) = session.changes() {
                    change.at(splice.start);
                    seen.splice(splice.start, splice.delete_count, &splice.insert);
                }
            }
            Ok(_) => {}
            Err(error) => {
                change.failures += 1;
                change.error.get_or_insert(error.to_string());
            }
        }
    }
    if change.first.is_some() {
        prompt.messages = session.messages().to_vec();
        prompt.tokens = session.assess().message_tokens();
    }
    change
}

/// Drops the oldest turns after the first `stable` messages while the prompt is over
/// `trigger` (a turn: a message and the tool results that answer it).
fn trim(prompt: &mut Prompt, seen: &mut Seen, stable: usize, trigger: u64, priming: u64) -> Change {
    let mut change = Change::default();
    let mut total: u64 = prompt.tokens.iter().sum::<u64>() + priming;
    let mut end = stable;
    let len = prompt.messages.len();
    // Keep the newest message: the call answers it.
    while total > trigger && end + 1 < len {
        total -= prompt.tokens[end];
        end += 1;
        while end + 1 < len && is_result(&prompt.messages[end]) {
            total -= prompt.tokens[end];
            end += 1;
        }
    }
    if end > stable {
        prompt.messages.drain(stable..end);
        prompt.tokens.drain(stable..end);
        seen.splice(stable, end - stable, &[]);
        change.at(stable);
        change.compactions = 1;
    }
    change
}

fn is_result(message: &Message) -> bool {
    message.role == Role::Tool || message.tool_results().next().is_some()
}

#[cfg(test)]
mod tests;
