//! Would the provider accept these messages? One checker per format.
//!
//! The engine's output is checked against the rules of the format it goes back in, and so
//! can any caller's conversation. Indices in a [`Violation`] are into the slice of
//! [`Message`]s given, so for Anthropic the system prompt, when present, is index 0.
//!
//! - **OpenAI**: every tool call is answered before the next assistant message; every tool
//!   result answers an earlier call, once; a `tool` message follows an assistant message
//!   with tool calls or another `tool` message.
//! - **Anthropic**: system messages only at the start; then the first message is the user's
//!   and roles alternate user/assistant; the results of an assistant message's `tool_use`
//!   blocks all come in the very next message, a user message, before any other block;
//!   a thinking block sits first in its assistant message, never alone. (A response that
//!   came without thinking goes back without it: Claude Code's transcripts are full of
//!   tool-use turns with no thinking beside turns with it, and the API took them. That a
//!   kept turn keeps its thinking is for validation to hold: it is byte-identical.)
//! - **AI SDK**: calls and results pair up (each result after its call, once; each call
//!   answered before the next assistant message), results in `tool` messages.
//!
//! - **OpenAI Responses**: outputs pair with calls by `call_id` (each after its call,
//!   once; every call answered, but for the batch in progress at the end); a `reasoning`
//!   item is followed by the assistant item it led to; a summary never speaks as the
//!   system or developer.
//! - **Gemini**: the system instruction only at the start; each model turn's
//!   `functionCall`s are answered in the very next content, a user turn, which answers
//!   nothing else; a summary never speaks as the system. Thought signatures live in the
//!   JSON, not in the messages: [`super::gemini::check_written`] checks them on what is
//!   written.
//!
//! A conversation may end mid-step: calls of the last assistant message with nothing
//! after them are pending, not a violation.

use std::collections::{HashMap, HashSet};
use std::fmt;

use super::Format;
use crate::message::{Message, Part, Role};

mod items;

/// A rule a provider enforces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "snake_case")
)]
#[non_exhaustive]
pub enum Rule {
    /// A tool call has no result before the next assistant message (or, for Anthropic, in
    /// the very next message). Fix: add the result, or drop the call.
    UnansweredToolCall,
    /// A tool result answers no earlier call, or answers one a second time. Fix: drop it.
    OrphanToolResult,
    /// A tool result is not where the format wants it: an OpenAI `tool` message after a
    /// message without tool calls, an Anthropic `tool_result` outside the user message right
    /// after its call or after other blocks, an AI SDK result outside a `tool` message.
    MisplacedToolResult,
    /// A tool call is in a message that may not make one (not an assistant message).
    MisplacedToolCall,
    /// Anthropic: a system message after the start.
    MisplacedSystem,
    /// Anthropic: the first message after the system prompt is not the user's.
    FirstMessageNotUser,
    /// Anthropic: two user or two assistant messages in a row.
    RolesDoNotAlternate,
    /// Anthropic: thinking separated from the response it belongs to (alone in a message,
    /// or after other blocks).
    ThinkingSeparated,
    /// OpenAI Responses: a `reasoning` item not followed by the assistant item it led to
    /// (last, or followed by another side's item). Fix: keep or drop the two together.
    ReasoningSeparated,
    /// Gemini: a `thoughtSignature` on another part than the one that carried it. Fix:
    /// write the part back as it was.
    ThoughtSignatureMoved,
    /// A summary the engine wrote in a system or developer message. Fix: write it as a
    /// user message.
    SummaryInSystemRole,
}

impl Rule {
    /// A short statement of the rule.
    pub fn describe(self) -> &'static str {
        match self {
            Rule::UnansweredToolCall => "every tool call is answered in time",
            Rule::OrphanToolResult => "every tool result answers an earlier call, once",
            Rule::MisplacedToolResult => "tool results sit where the format wants them",
            Rule::MisplacedToolCall => "only assistant messages make tool calls",
            Rule::MisplacedSystem => "system messages only at the start",
            Rule::FirstMessageNotUser => "the first message is the user's",
            Rule::RolesDoNotAlternate => "user and assistant messages alternate",
            Rule::ThinkingSeparated => "thinking stays first in its tool-use message",
            Rule::ReasoningSeparated => "a reasoning item travels with the item after it",
            Rule::ThoughtSignatureMoved => "a thought signature stays on its part",
            Rule::SummaryInSystemRole => "a summary is a user message",
        }
    }
}

/// One broken rule: which message, which rule, and the detail.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Violation {
    /// The index of the offending message in the checked slice.
    pub index: usize,
    /// The rule it breaks.
    pub rule: Rule,
    /// What exactly is wrong.
    pub detail: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "messages[{}]: {} ({})",
            self.index,
            self.detail,
            self.rule.describe()
        )
    }
}

/// Checks `messages` against the rules of `format`: `Ok` when the provider would accept
/// them, else every violation found, in message order.
pub fn check(format: Format, messages: &[Message]) -> Result<(), Vec<Violation>> {
    // Messages of an unknown role kept by lenient parsing are the caller's own business:
    // the provider never sees them as they are, so they are skipped. The item formats keep
    // items of types they do not read (built-in tool calls) as opaque messages too: the
    // provider sees those, so they are checked; and so is every opaque part of a known role.
    let items = matches!(format, Format::OpenAiResponses | Format::Gemini);
    let kept: Vec<usize> = (0..messages.len())
        .filter(|&i| items || !super::is_unknown_role(&messages[i]))
        .collect();
    let view: Vec<&Message> = kept.iter().map(|&i| &messages[i]).collect();
    let mut violations = Vec::new();
    match format {
        Format::OpenAi => check_openai(&view, &mut violations),
        Format::Anthropic => check_anthropic(&view, &mut violations),
        Format::AiSdk => check_aisdk(&view, &mut violations),
        Format::OpenAiResponses => items::check_responses(&view, &mut violations),
        Format::Gemini => items::check_gemini(&view, &mut violations),
    }
    for violation in &mut violations {
        violation.index = kept[violation.index];
    }
    crate::sort::sort_by_key(&mut violations, |v| v.index);
    if violations.is_empty() {
        Ok(())
    } else {
        Err(violations)
    }
}

fn violation(index: usize, rule: Rule, detail: impl Into<String>) -> Violation {
    Violation {
        index,
        rule,
        detail: detail.into(),
    }
}

/// Pairing shared by OpenAI and the AI SDK: results after their call, once; every call
/// answered before the next assistant message; calls only from the assistant.
fn check_pairing(messages: &[&Message], out: &mut Vec<Violation>) {
    // Open calls: id → index of the message that made it.
    let mut open: HashMap<&str, usize> = HashMap::new();
    let mut answered: HashSet<&str> = HashSet::new();
    for (index, message) in messages.iter().enumerate() {
        if message.role == Role::Assistant {
            report_open(&mut open, out);
        }
        for result in message.tool_results() {
            let id = result.call_id.as_str();
            if open.remove(id).is_some() {
                answered.insert(id);
            } else if answered.contains(id) {
                out.push(violation(
                    index,
                    Rule::OrphanToolResult,
                    format!("second result for tool call {id:?}"),
                ));
            } else {
                out.push(violation(
                    index,
                    Rule::OrphanToolResult,
                    format!("result for tool call {id:?}, which no earlier message made"),
                ));
            }
        }
        for call in message.tool_calls() {
            if message.role != Role::Assistant {
                out.push(violation(
                    index,
                    Rule::MisplacedToolCall,
                    format!("tool call {:?} in a {} message", call.id, message.role),
                ));
            }
            answered.remove(call.id.as_str());
            open.insert(call.id.as_str(), index);
        }
    }
    // Calls of the last assistant message with nothing after them are pending: fine.
    let pending_from = messages
        .iter()
        .rposition(|m| m.role == Role::Assistant)
        .filter(|&i| messages[i + 1..].is_empty());
    open.retain(|_, index| Some(*index) != pending_from);
    report_open(&mut open, out);
}

fn report_open(open: &mut HashMap<&str, usize>, out: &mut Vec<Violation>) {
    let mut left: Vec<_> = open.drain().collect();
    crate::sort::sort(&mut left);
    for (id, index) in left {
        out.push(violation(
            index,
            Rule::UnansweredToolCall,
            format!("tool call {id:?} has no result before the next assistant message"),
        ));
    }
}

fn check_openai(messages: &[&Message], out: &mut Vec<Violation>) {
    check_pairing(messages, out);
    for (index, message) in messages.iter().enumerate() {
        let results = message.tool_results().count();
        if results > 0 && message.role != Role::Tool {
            out.push(violation(
                index,
                Rule::MisplacedToolResult,
                format!("tool result in a {} message", message.role),
            ));
        }
        if message.role == Role::Tool {
            let after_calls = index
                .checked_sub(1)
                .map(|i| &messages[i])
                .is_some_and(|prev| prev.role == Role::Tool || prev.has_tool_calls());
            if !after_calls {
                out.push(violation(
                    index,
                    Rule::MisplacedToolResult,
                    "tool message not after an assistant message with tool calls",
                ));
            }
        }
    }
}

fn check_aisdk(messages: &[&Message], out: &mut Vec<Violation>) {
    check_pairing(messages, out);
    for (index, message) in messages.iter().enumerate() {
        if message.role == Role::User && message.tool_results().next().is_some() {
            out.push(violation(
                index,
                Rule::MisplacedToolResult,
                "tool result in a user message (results go in tool messages)",
            ));
        }
    }
}

fn check_anthropic(messages: &[&Message], out: &mut Vec<Violation>) {
    check_anthropic_turns(messages, out);
    for (index, message) in messages.iter().enumerate() {
        check_anthropic_results(messages, index, message, out);
    }
}

/// One top-level system prompt, then user and assistant turns alternating from the user's,
/// tool calls only from the assistant, each answered in the next turn.
fn check_anthropic_turns(messages: &[&Message], out: &mut Vec<Violation>) {
    let start = messages
        .iter()
        .take_while(|m| m.role == Role::System)
        .count();
    // Tool results speak as the user in Anthropic's format.
    let side = |m: &Message| match m.role {
        Role::Assistant => Role::Assistant,
        _ => Role::User,
    };
    for (index, message) in messages.iter().enumerate().skip(start) {
        if message.role == Role::System {
            out.push(violation(
                index,
                Rule::MisplacedSystem,
                "system message after the start (Anthropic takes one top-level system prompt)",
            ));
        }
        if index == start && side(message) != Role::User {
            out.push(violation(
                index,
                Rule::FirstMessageNotUser,
                format!("first message is the {}'s", message.role),
            ));
        }
        if index > start && side(messages[index - 1]) == side(message) {
            out.push(violation(
                index,
                Rule::RolesDoNotAlternate,
                format!("two {} messages in a row", side(message)),
            ));
        }
        if let Some(call) = message.tool_calls().next()
            && message.role != Role::Assistant
        {
            out.push(violation(
                index,
                Rule::MisplacedToolCall,
                format!("tool_use {:?} in a user message", call.id),
            ));
        }
        check_results_in_next(messages, index, out);
        check_thinking(message, index, out);
    }
}

/// The results of message `index` answer the message right before it (anything else is
/// an orphan), once each, in a user message, before its other content.
fn check_anthropic_results(
    messages: &[&Message],
    index: usize,
    message: &Message,
    out: &mut Vec<Violation>,
) {
    let previous: HashSet<&str> = index
        .checked_sub(1)
        .map(|i| messages[i].tool_calls().map(|c| c.id.as_str()).collect())
        .unwrap_or_default();
    let mut seen = HashSet::new();
    for result in message.tool_results() {
        let id = result.call_id.as_str();
        if !previous.contains(id) || !seen.insert(id) {
            out.push(violation(
                index,
                Rule::OrphanToolResult,
                format!(
                    "tool_result for {id:?}, which the message right before did not call (or already answered)"
                ),
            ));
        }
    }
    if message.role == Role::Assistant && message.tool_results().next().is_some() {
        out.push(violation(
            index,
            Rule::MisplacedToolResult,
            "tool_result in an assistant message",
        ));
    }
    let first_other = message
        .parts
        .iter()
        .position(|p| !matches!(p, Part::ToolResult(_)));
    let last_result = message
        .parts
        .iter()
        .rposition(|p| matches!(p, Part::ToolResult(_)));
    if let (Some(other), Some(result)) = (first_other, last_result)
        && other < result
    {
        out.push(violation(
            index,
            Rule::MisplacedToolResult,
            "tool_result after other content (results come first)",
        ));
    }
}

/// The calls of message `index` are all answered in the message right after it.
fn check_results_in_next(messages: &[&Message], index: usize, out: &mut Vec<Violation>) {
    let message = &messages[index];
    if message.role != Role::Assistant || !message.has_tool_calls() {
        return;
    }
    let Some(next) = messages.get(index + 1) else {
        return; // pending: the conversation ends mid-step
    };
    let answered: HashSet<&str> = next.tool_results().map(|r| r.call_id.as_str()).collect();
    for call in message.tool_calls() {
        if !answered.contains(call.id.as_str()) {
            out.push(violation(
                index,
                Rule::UnansweredToolCall,
                format!(
                    "tool_use {:?} has no tool_result in the next message",
                    call.id
                ),
            ));
        }
    }
}

fn check_thinking(message: &Message, index: usize, out: &mut Vec<Violation>) {
    let reasoning = |p: &Part| matches!(p, Part::Reasoning(_));
    if !message.parts.iter().any(reasoning) {
        return;
    }
    if message.role != Role::Assistant {
        out.push(violation(
            index,
            Rule::ThinkingSeparated,
            "thinking in a user message",
        ));
        return;
    }
    if message.parts.iter().all(reasoning) {
        out.push(violation(
            index,
            Rule::ThinkingSeparated,
            "thinking alone, without the response it belongs to",
        ));
        return;
    }
    // Interleaved thinking may put more thinking between tool calls; the API only insists
    // that the message opens with it.
    if !message.parts.first().is_some_and(reasoning) {
        out.push(violation(
            index,
            Rule::ThinkingSeparated,
            "thinking after other content (it comes first)",
        ));
    }
}

#[cfg(test)]
mod tests;
