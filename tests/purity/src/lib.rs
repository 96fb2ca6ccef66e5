//! Exports entry points that drive the engine end to end, so the linker keeps every code
//! path a caller can reach; the module's import section must then be empty.
#![deny(unsafe_code)]

use compactor::budget::BudgetConfig;
use compactor::message::{Message, ToolCall};
use compactor::plan::plan;
use compactor::select::TailPolicy;
use compactor::tokens::{Encoding, TokenAccountant};

fn conversation(turns: u32) -> Vec<Message> {
    let mut messages = vec![Message::system("s", "You are a coding agent.")];
    messages.push(Message::user("u", "Fix the failing test in src/lib.rs."));
    for i in 0..turns {
        let call = ToolCall {
            id: format!("c{i}"),
            name: "bash".into(),
            arguments: format!("{{\"command\":\"cargo test -- case_{i}\"}}"),
        };
        messages.push(Message::assistant_calls(format!("a{i}").as_str(), Some("Running it."), [call]));
        messages.push(Message::tool_result(format!("t{i}").as_str(), format!("c{i}"), "error[E0308]: mismatched types"));
    }
    messages
}

/// Plans a generated conversation of `turns` turns and returns its token total, or
/// `u64::MAX` when planning failed.
#[allow(unsafe_code)] // exporting a symbol is the probe's whole purpose
#[unsafe(no_mangle)]
pub extern "C" fn probe_plan(turns: u32, encoding: u32) -> u64 {
    let encoding = match encoding {
        0 => Encoding::O200kBase,
        1 => Encoding::Cl100kBase,
        _ => Encoding::Estimate,
    };
    let Ok(budget) = BudgetConfig::for_model("gpt-4o").resolve() else { return u64::MAX };
    let accountant = TokenAccountant::new(encoding.counter());
    let messages = conversation(turns);
    match plan(&accountant, &messages, &budget, &TailPolicy::for_budget(4, &budget)) {
        Ok(plan) => plan.assessment.total_tokens,
        Err(_) => u64::MAX,
    }
}

/// Compacts a generated conversation of `turns` turns into a window of `window` tokens
/// with the extractive summarizer, driving the run by hand; returns the tokens after, or
/// `u64::MAX` when the run failed.
#[allow(unsafe_code)] // exporting a symbol is the probe's whole purpose
#[unsafe(no_mangle)]
pub extern "C" fn probe_compact(turns: u32, window: u64) -> u64 {
    use compactor::engine::{CompactionConfig, Compactor, Step, Trigger};
    use compactor::extractive::Extractive;
    let config = CompactionConfig {
        budget: BudgetConfig {
            max_context_tokens: Some(window),
            ..BudgetConfig::for_model("gpt-4o")
        },
        ..CompactionConfig::default()
    };
    let Ok(compactor) = Compactor::new(config) else { return u64::MAX };
    let Ok(mut run) = compactor.begin("probe", conversation(turns), Trigger::Manual, 0) else { return u64::MAX };
    loop {
        match run.poll() {
            Step::Summarize(requests) => {
                for request in requests {
                    let text = Extractive.summarize_prompt(&request.prompt, request.max_output_tokens);
                    if run.complete(request.id, Ok(text), 0).is_err() {
                        return u64::MAX;
                    }
                }
            }
            Step::Done(outcome) => return outcome.report.tokens_after,
            _ => return u64::MAX,
        }
    }
}
