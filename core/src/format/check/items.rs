//! The checkers of the item formats: OpenAI Responses items and Gemini contents.
//!
//! Both see every message, opaque items included: a built-in tool call the adapter carries
//! unread is still an item the API sees, and one that may follow a reasoning item.

use std::collections::{HashMap, HashSet};

use super::{Rule, Violation, check_anthropic_results, check_results_in_next, violation};
use crate::message::{Message, Role};

/// A summary the engine wrote never speaks as the system (or developer).
fn check_summaries(messages: &[&Message], out: &mut Vec<Violation>) {
    for (index, message) in messages.iter().enumerate() {
        if message.is_compaction() && message.role == Role::System {
            out.push(violation(
                index,
                Rule::SummaryInSystemRole,
                "a summary in a system message",
            ));
        }
    }
}

/// Responses: outputs answer an earlier call by `call_id`, once; every call is answered
/// (a trailing batch of calls with only calls and reasoning after it is pending); calls
/// come from the assistant, outputs are `function_call_output` items; a reasoning item is
/// followed by the assistant item it led to, never by nothing or by another side's item.
pub(super) fn check_responses(messages: &[&Message], out: &mut Vec<Violation>) {
    check_summaries(messages, out);
    let mut open: HashMap<&str, usize> = HashMap::new();
    let mut answered: HashSet<&str> = HashSet::new();
    for (index, message) in messages.iter().enumerate() {
        for result in message.tool_results() {
            let id = result.call_id.as_str();
            if message.role != Role::Tool {
                out.push(violation(
                    index,
                    Rule::MisplacedToolResult,
                    format!("output for {id:?} in a {} item", message.role),
                ));
            }
            if open.remove(id).is_some() {
                answered.insert(id);
            } else {
                let detail = if answered.contains(id) {
                    format!("second output for call_id {id:?}")
                } else {
                    format!("output for call_id {id:?}: no function_call with this id before it")
                };
                out.push(violation(index, Rule::OrphanToolResult, detail));
            }
        }
        for call in message.tool_calls() {
            if message.role != Role::Assistant {
                out.push(violation(
                    index,
                    Rule::MisplacedToolCall,
                    format!("call {:?} in a {} item", call.id, message.role),
                ));
            }
            answered.remove(call.id.as_str());
            open.insert(call.id.as_str(), index);
        }
        if message.is_reasoning_only() {
            let next = messages.get(index + 1);
            let followed = next.is_some_and(|next| {
                next.role == Role::Assistant && next.tool_results().next().is_none()
            });
            if !followed {
                let detail = match next {
                    None => "a reasoning item with no item after it".to_owned(),
                    Some(next) => format!("a reasoning item followed by a {} item", next.role),
                };
                out.push(violation(index, Rule::ReasoningSeparated, detail));
            }
        }
    }
    // Calls with nothing but calls and reasoning after them are the step in progress.
    let pending_from = messages
        .iter()
        .rposition(|m| m.role != Role::Assistant || !(m.has_tool_calls() || m.is_reasoning_only()))
        .map_or(0, |i| i + 1);
    let mut left: Vec<(&str, usize)> = open
        .into_iter()
        .filter(|(_, index)| *index < pending_from)
        .collect();
    crate::sort::sort_by_key(&mut left, |&(id, index)| (index, id));
    for (id, index) in left {
        out.push(violation(
            index,
            Rule::UnansweredToolCall,
            format!("call_id {id:?} has no function_call_output"),
        ));
    }
}

/// Gemini: the system instruction only at the start; calls from the model, each answered
/// in the very next content, a user turn, which answers nothing else.
pub(super) fn check_gemini(messages: &[&Message], out: &mut Vec<Violation>) {
    check_summaries(messages, out);
    let start = messages
        .iter()
        .take_while(|m| m.role == Role::System)
        .count();
    for (index, message) in messages.iter().enumerate() {
        if index >= start && message.role == Role::System {
            out.push(violation(
                index,
                Rule::MisplacedSystem,
                "a system message after the start (Gemini takes one systemInstruction)",
            ));
        }
        if let Some(call) = message.tool_calls().next()
            && message.role != Role::Assistant
        {
            out.push(violation(
                index,
                Rule::MisplacedToolCall,
                format!("functionCall {:?} in a {} turn", call.name, message.role),
            ));
        }
        check_results_in_next(messages, index, out);
        check_anthropic_results(messages, index, message, out);
    }
}
