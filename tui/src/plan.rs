//! `compactor plan`: the assessment, the segments and the tail, as text or JSON.

use std::fmt::Write as _;

use clap::Args;
use compactor::message::Message;
use compactor::overflow::Assessment;
use compactor::plan::{Plan, SegmentState, plan_read};
use compactor::segment::SegmentKind;
use compactor::select::TailPolicy;
use compactor::tokens::TokenAccountant;

use crate::failure::Failure;
use crate::input::{BudgetArgs, InputArgs, View};
use crate::words::{fired, thousands};

/// Arguments of `compactor plan`.
#[derive(Args, Debug)]
pub struct PlanArgs {
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    budget: BudgetArgs,
    /// Print the plan as JSON.
    #[arg(long)]
    json: bool,
}

/// Runs `compactor plan`.
pub fn run(args: &PlanArgs) -> Result<(), Failure> {
    let mut conversation = args.input.read(View::Context)?;
    let budget = args.budget.budget()?;
    let accountant = TokenAccountant::new(budget.encoding.counter());
    let policy = TailPolicy::for_budget(args.budget.keep_recent_turns, &budget);
    let plan = plan_read(&accountant, &mut conversation.messages, &budget, &policy)
        .map_err(|e| Failure::Input(format!("{}: {e}", args.input.file.display())))?;
    if args.json {
        let json =
            serde_json::to_string_pretty(&plan).map_err(|e| Failure::Other(e.to_string()))?;
        crate::failure::print(&(json + "\n"))
    } else {
        crate::failure::print(&render(
            &args.input.file.display().to_string(),
            &conversation.messages,
            &plan,
            accountant.counter_name(),
        ))
    }
}

fn render(name: &str, messages: &[Message], plan: &Plan, counter: &str) -> String {
    let mut out = String::new();
    render_numbers(&mut out, name, &plan.assessment, counter);
    render_verdict(&mut out, &plan.assessment);
    let _ = writeln!(out);
    render_segments(&mut out, messages, plan);
    out
}

/// The conversation's size and the limits it is measured against.
fn render_numbers(out: &mut String, name: &str, a: &Assessment, counter: &str) {
    let b = &a.budget;
    let _ = writeln!(
        out,
        "{name}: {} messages, {} tokens ({counter})",
        a.message_count,
        thousands(a.total_tokens)
    );
    let _ = writeln!(
        out,
        "model {}: window {} · output reserve {} · comfort {}",
        b.model.as_deref().unwrap_or("(custom)"),
        thousands(b.max_context_tokens),
        thousands(b.output_reserve),
        thousands(b.comfort_tokens)
    );
    let _ = writeln!(
        out,
        "limits: effective {} · trigger {} · target {} · absolute {}",
        thousands(b.effective_limit),
        thousands(b.trigger_tokens),
        thousands(b.target_tokens),
        thousands(b.absolute_limit)
    );
    if let Some(max) = b.max_messages {
        let _ = writeln!(out, "messages: {} of {max}", a.message_count);
    }
}

/// Whether compaction is needed, why, and towards what.
fn render_verdict(out: &mut String, a: &Assessment) {
    let share = a.total_tokens as f64 * 100.0 / a.budget.absolute_limit.max(1) as f64;
    if a.needs_compaction() {
        let messages_target = a
            .target
            .messages
            .map(|m| format!(", {m} messages"))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "verdict: compaction needed ({}; {share:.1}% of the absolute limit): target {} tokens{messages_target}",
            fired(&a.signals).join(", "),
            thousands(a.target.tokens)
        );
    } else {
        let _ = writeln!(
            out,
            "verdict: below the trigger ({share:.1}% of the absolute limit): nothing to do"
        );
    }
}

/// The segment table with the tail boundary.
fn render_segments(out: &mut String, messages: &[Message], plan: &Plan) {
    let tail = &plan.tail;
    let _ = writeln!(
        out,
        "segments: {} ({} turns); tail from message {}: {} turns, {} tokens{}",
        plan.segmentation.segments.len(),
        plan.segmentation.turns(),
        tail.start,
        tail.turns,
        thousands(tail.tokens),
        if tail.capped {
            " (capped by the tail budget)"
        } else {
            ""
        }
    );
    let _ = writeln!(
        out,
        "  {:>4}  {:>4}  {:>11}  {:<14} {:>9}  state",
        "seg", "age", "messages", "roles", "tokens"
    );
    let tokens = plan.assessment.message_tokens();
    let states = plan.segment_states(messages);
    for (segment, state) in plan.segmentation.segments.iter().zip(states) {
        if segment.index == tail.first_segment {
            let _ = writeln!(out, "  ──── tail ────");
        }
        let seg_tokens: u64 = tokens[segment.messages.clone()].iter().sum();
        let age = if segment.kind == SegmentKind::Preamble {
            "-".to_owned()
        } else {
            segment.age.to_string()
        };
        let _ = writeln!(
            out,
            "  {:>4}  {:>4}  {:>11}  {:<14} {:>9}  {}",
            segment.index,
            age,
            format!("{}..{}", segment.messages.start, segment.messages.end),
            role_mix(&messages[segment.messages.clone()]),
            thousands(seg_tokens),
            state_word(state)
        );
    }
}

pub fn role_mix(messages: &[Message]) -> String {
    let mut runs: Vec<(char, usize)> = Vec::new();
    for message in messages {
        let letter = message.role.letter();
        match runs.last_mut() {
            Some((last, count)) if *last == letter => *count += 1,
            _ => runs.push((letter, 1)),
        }
    }
    runs.iter()
        .map(|(letter, count)| {
            if *count == 1 {
                letter.to_string()
            } else {
                format!("{letter}×{count}")
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The word for a segment's state: the plan's own, but `candidate` for a raw segment
/// (what a compaction would work on).
fn state_word(state: SegmentState) -> &'static str {
    match state {
        SegmentState::Raw => "candidate",
        other => other.as_str(),
    }
}
