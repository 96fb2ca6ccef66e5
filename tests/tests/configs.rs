//! Random configurations and options, extremes included, through `Compactor::new` and a
//! whole run on real conversations: a typed error or a valid result at or below the
//! absolute limit, never a panic, never a hang.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use compactor::budget::BudgetConfig;
use compactor::engine::{
    CompactError, CompactionConfig, Compactor, ConfigError, MAX_COUNT, Trigger,
};
use compactor::format::Format;
use compactor::message::Message;
use compactor::tokens::Encoding;
use compactor::validate::validate;
use compactor_tests::corpus;
use compactor_tests::harness::{Script, Scripted, SimClock, drive_bounded};
use compactor_tests::setup::{agent_session, lenient, tokens_of};
use proptest::prelude::*;

/// Cases run (each one a `Compactor::new` and up to two runs).
const CASES: u32 = 200;
/// The longest one case may take before it counts as a hang.
const CASE_TIME: Duration = Duration::from_secs(60);

/// The conversations every case picks from: the bundled sample, two corpus trajectories
/// and a synthetic agent session.
fn conversations() -> &'static [Vec<Message>] {
    static ALL: OnceLock<Vec<Vec<Message>>> = OnceLock::new();
    ALL.get_or_init(|| {
        let sample = include_str!("../../samples/sample.json");
        let mut all = vec![lenient(sample, Format::OpenAi).expect("sample").messages];
        for (name, text) in corpus() {
            if name.starts_with("ctf-eps") || name.starts_with("function_calling_simple") {
                all.push(lenient(&text, Format::OpenAi).expect("corpus").messages);
            }
        }
        all.push(agent_session(16, 30));
        all
    })
}

fn count() -> BoxedStrategy<usize> {
    prop_oneof![
        20 => 1usize..12,
        1 => prop_oneof![Just(0), Just(1), Just(MAX_COUNT), Just(MAX_COUNT + 1), Just(usize::MAX)],
    ]
    .boxed()
}

fn tokens() -> BoxedStrategy<u64> {
    prop_oneof![
        20 => 256u64..100_000,
        1 => prop_oneof![
            Just(0),
            Just(1),
            Just(63),
            Just(64),
            Just(255),
            Just(u64::from(u32::MAX)),
            Just(u64::MAX)
        ],
    ]
    .boxed()
}

fn ratio() -> BoxedStrategy<f64> {
    prop_oneof![
        20 => 0.0f64..1.0,
        1 => prop_oneof![
            Just(f64::NAN),
            Just(f64::INFINITY),
            Just(f64::NEG_INFINITY),
            Just(-1.0),
            Just(0.0),
            Just(1e-9),
            Just(1.0),
            Just(1.5)
        ],
    ]
    .boxed()
}

fn maybe<T: std::fmt::Debug + Clone + 'static>(
    s: impl Strategy<Value = T> + 'static,
) -> BoxedStrategy<Option<T>> {
    prop_oneof![1 => Just(None), 2 => s.prop_map(Some)].boxed()
}

/// Mostly absent (the default), now and then any value of `s`.
fn rarely<T: std::fmt::Debug + Clone + 'static>(
    s: impl Strategy<Value = T> + 'static,
) -> BoxedStrategy<Option<T>> {
    prop_oneof![8 => Just(None), 1 => s.prop_map(Some)].boxed()
}

/// The window: a caller's number, or a share of the conversation's tokens (so that every
/// level gets reached).
#[derive(Debug, Clone)]
enum Window {
    Tokens(Option<u64>),
    Share(f64),
}

fn window() -> BoxedStrategy<Window> {
    prop_oneof![
        1 => maybe(tokens()).prop_map(Window::Tokens),
        8 => (0.02f64..2.5).prop_map(Window::Share),
    ]
    .boxed()
}

fn budget() -> BoxedStrategy<(BudgetConfig, Window)> {
    (
        maybe(prop_oneof![
            Just("gpt-4o".to_owned()),
            Just("claude-sonnet-4-5".to_owned()),
            Just("no-such-model".to_owned())
        ]),
        window(),
        rarely(tokens()),
        rarely(tokens()),
        prop_oneof![
            6 => Just((None, None)),
            3 => (0.05f64..0.9, 0.0f64..1.0)
                .prop_map(|(target, up)| (Some(target + (1.0 - target) * up), Some(target))),
            1 => (rarely(ratio()), rarely(ratio())),
        ],
        maybe(count()),
        maybe(prop_oneof![
            Just(Encoding::O200kBase),
            Just(Encoding::Cl100kBase),
            Just(Encoding::Estimate)
        ]),
    )
        .prop_map(
            |(model, window, reserve, comfort, (trigger, target), max_messages, encoding)| {
                let budget = BudgetConfig {
                    model,
                    max_context_tokens: None,
                    output_reserve: reserve,
                    comfort_tokens: comfort,
                    trigger_ratio: trigger,
                    target_ratio: target,
                    max_messages,
                    encoding,
                };
                (budget, window)
            },
        )
        .boxed()
}

fn config() -> BoxedStrategy<(CompactionConfig, Window)> {
    (
        budget(),
        (count(), maybe(tokens()), count(), count()),
        (
            tokens(),
            any::<bool>(),
            prop_oneof![20 => 1u32..5, 1 => Just(0)],
            maybe(tokens()),
        ),
        (count(), tokens(), tokens(), tokens()),
        (
            tokens(),
            prop_oneof![
                20 => 1u32..=16,
                1 => prop_oneof![Just(0u32), Just(17), Just(1000), Just(u32::MAX)],
            ],
            ratio(),
        ),
        (count(), count(), count(), any::<bool>()),
    )
        .prop_map(|((budget, window), a, b, c, d, e)| {
            let config = CompactionConfig {
                budget,
                keep_recent_turns: a.0,
                tail_tokens: a.1,
                min_tail_turns: a.2,
                keep_tool_results: a.3,
                max_summary_tokens: b.0,
                enable_incremental: b.1,
                max_failures: b.2,
                breaker_cooldown_ms: b.3,
                min_messages: c.0,
                clear_at_least: c.1,
                max_preserved_user_tokens: c.2,
                summarizer_input_tokens: c.3,
                request_timeout_ms: d.0,
                max_attempts: d.1,
                min_reduction: d.2,
                max_concurrency: e.0,
                cache_capacity: e.1,
                session_capacity: e.2,
                extractive_fallback: e.3,
                ..CompactionConfig::default()
            };
            (config, window)
        })
        .boxed()
}

fn script() -> BoxedStrategy<Script> {
    prop_oneof![
        4 => Just(Script::Extract),
        1 => Just(Script::Fail("down".into())),
        1 => Just(Script::TooLong),
        1 => Just(Script::Text(String::new())),
        1 => Just(Script::Text("word ".repeat(20_000))),
        1 => Just(Script::DropArtifacts),
        1 => Just(Script::Hang),
    ]
    .boxed()
}

/// The compact options a caller gives: trigger, session, clock, the format to check.
#[derive(Debug, Clone)]
struct Options {
    trigger: Trigger,
    session: String,
    now_ms: u64,
    check: Option<Format>,
}

fn options() -> BoxedStrategy<Options> {
    (
        prop_oneof![
            Just(Trigger::Proactive),
            Just(Trigger::Reactive),
            Just(Trigger::Manual)
        ],
        prop_oneof![
            Just(String::new()),
            "[a-z]{1,8}",
            Just("é\u{0}🦀".to_owned())
        ],
        prop_oneof![Just(0u64), Just(u64::MAX), any::<u64>()],
        maybe(prop_oneof![
            Just(Format::OpenAi),
            Just(Format::Anthropic),
            Just(Format::AiSdk)
        ]),
    )
        .prop_map(|(trigger, session, now_ms, check)| Options {
            trigger,
            session,
            now_ms,
            check,
        })
        .boxed()
}

/// What the cases came to, for the figures printed at the end.
#[derive(Default)]
struct Tally {
    refused: AtomicUsize,
    refused_fields: std::sync::Mutex<Vec<String>>,
    compacted: AtomicUsize,
    unchanged: AtomicUsize,
    typed_errors: AtomicUsize,
}

fn tally() -> &'static Tally {
    static TALLY: OnceLock<Tally> = OnceLock::new();
    TALLY.get_or_init(Tally::default)
}

/// One run of `messages` under `options`, checked: a typed error, or a valid result at or
/// below the absolute limit.
fn run_checked(
    compactor: &Compactor,
    messages: &[Message],
    options: &Options,
    scripted: &Scripted,
) -> Result<Option<Vec<Message>>, String> {
    let run = compactor.begin(
        &options.session,
        messages.to_vec(),
        options.trigger,
        options.now_ms,
    );
    let mut run = match run {
        Ok(run) => run,
        Err(error) => return typed(error).map(|()| None),
    };
    if let Some(format) = options.check {
        run.check_format(format);
    }
    let clock = SimClock::at(options.now_ms);
    match drive_bounded(&mut run, scripted, &clock, 20_000) {
        Ok(outcome) => {
            let limit = compactor.budget().absolute_limit;
            let tokens = compactor.assess(&outcome.messages).total_tokens;
            if tokens > limit {
                return Err(format!(
                    "{tokens} tokens over the limit {limit}: {:?}",
                    outcome.status
                ));
            }
            validate(messages, &outcome.messages, tokens, limit)
                .map_err(|e| format!("invalid result: {e}"))?;
            let counter = if outcome.messages == messages {
                &tally().unchanged
            } else {
                &tally().compacted
            };
            counter.fetch_add(1, Ordering::Relaxed);
            Ok(Some(outcome.messages))
        }
        Err(error) => typed(error).map(|()| None),
    }
}

/// A failure the caller can act on. A validation failure is a bug in the engine.
fn typed(error: CompactError) -> Result<(), String> {
    match error {
        CompactError::Validation(e) => Err(format!("validation refused a result: {e}")),
        _ => {
            tally().typed_errors.fetch_add(1, Ordering::Relaxed);
            Ok(())
        }
    }
}

/// A case: make the compactor, run it, run again on its result (reactive: the result was
/// refused), all on a thread that must finish within [`CASE_TIME`].
fn case(
    (mut config, window): (CompactionConfig, Window),
    pick: usize,
    script: Script,
    options: Options,
) -> Result<(), String> {
    let all = conversations();
    let messages = all[pick % all.len()].clone();
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        config.budget.max_context_tokens = match window {
            Window::Tokens(tokens) => tokens,
            Window::Share(share) => {
                // The room the conversation gets: a share of its tokens, after the
                // output reserve (the catalog's, 16,384 for gpt-4o, unless given).
                let room = (tokens_of(&messages) as f64 * share) as u64;
                let reserve = *config.budget.output_reserve.get_or_insert(room / 8);
                Some(room.saturating_add(reserve))
            }
        };
        // A summarizer that never answers, with no deadline a clock can reach, waits as
        // long as the caller asked: not a hang of the engine's.
        if script == Script::Hang {
            config.request_timeout_ms = config.request_timeout_ms.min(u64::from(u32::MAX));
        }
        let compactor = match Compactor::new(config) {
            Ok(compactor) => compactor,
            Err(error) => {
                tally().refused.fetch_add(1, Ordering::Relaxed);
                let field = match error {
                    ConfigError::Invalid { field, .. } => field,
                    _ => "budget",
                };
                if let Ok(mut fields) = tally().refused_fields.lock() {
                    fields.push(field.to_owned());
                }
                let _ = sender.send(Ok(()));
                return;
            }
        };
        let scripted = Scripted::always(script);
        let result = run_checked(&compactor, &messages, &options, &scripted).and_then(|first| {
            let again = Options {
                trigger: Trigger::Reactive,
                ..options.clone()
            };
            match first {
                Some(result) => run_checked(&compactor, &result, &again, &scripted).map(drop),
                None => Ok(()),
            }
        });
        let _ = sender.send(result);
    });
    match receiver.recv_timeout(CASE_TIME) {
        Ok(result) => result,
        // A panic drops the sender; the panic message is on stderr.
        Err(mpsc::RecvTimeoutError::Disconnected) => Err("panicked".into()),
        Err(mpsc::RecvTimeoutError::Timeout) => Err(format!("no answer within {CASE_TIME:?}")),
    }
}

/// [`CASES`] random configurations, conversations, summarizer behaviours and options; the
/// figures are printed (run with `--nocapture`).
#[test]
fn random_configs_and_options_never_panic_hang_or_break_a_conversation() {
    // A fixed seed: the figures printed are the same on every run.
    let mut runner = proptest::test_runner::TestRunner::new_with_rng(
        ProptestConfig {
            cases: CASES,
            failure_persistence: None,
            ..ProptestConfig::default()
        },
        proptest::test_runner::TestRng::deterministic_rng(
            proptest::test_runner::RngAlgorithm::ChaCha,
        ),
    );
    let strategy = (config(), 0usize..4, script(), options());
    runner
        .run(&strategy, |(config, pick, script, options)| {
            case(config, pick, script, options).map_err(TestCaseError::fail)
        })
        .expect("every case holds");
    let t = tally();
    println!(
        "random configs: {CASES} cases; configs refused with a typed ConfigError {}; runs (two per accepted config at most) compacted {}, returned unchanged {}, ended in a typed error {}; 0 panics, 0 hangs, 0 invalid or over-limit results",
        t.refused.load(Ordering::Relaxed),
        t.compacted.load(Ordering::Relaxed),
        t.unchanged.load(Ordering::Relaxed),
        t.typed_errors.load(Ordering::Relaxed),
    );
    let mut fields = t
        .refused_fields
        .lock()
        .map(|f| f.clone())
        .unwrap_or_default();
    fields.sort();
    fields.dedup();
    println!("refused for: {}", fields.join(", "));
}
