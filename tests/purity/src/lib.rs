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
