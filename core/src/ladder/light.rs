//! LIGHT: old tool-result bodies replaced by short placeholders that keep the result's
//! facts (command, exit status, error lines, paths, artifact references); no model calls.

use std::collections::HashMap;

use crate::facts::command_of;
use crate::ladder::LevelContext;
use crate::message::{Message, Part, Role, ToolCall};
use crate::prune::{cleared_placeholder, is_cleared};
use crate::select::{TailPolicy, select_tail};

/// One tool result to clear.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clearing {
    /// The message holding it.
    pub message: usize,
    /// The part of that message.
    pub part: usize,
    /// What replaces its body.
    pub placeholder: String,
    /// Tokens of the body cleared.
    pub tokens: u64,
}

/// The tool results before the tail worth clearing, all or nothing: nothing when together
/// they save less than `clear_at_least` (every rewrite breaks the provider's prompt cache).
pub fn plan_light(
    ctx: &LevelContext<'_>,
    accountant: &crate::tokens::TokenAccountant,
) -> Vec<Clearing> {
    let tail = select_tail(
        ctx.segmentation,
        ctx.counts,
        &TailPolicy::for_budget(ctx.config.keep_recent_turns, ctx.budget),
    );
    let calls: HashMap<&str, &ToolCall> = ctx
        .messages
        .iter()
        .flat_map(|m| m.tool_calls())
        .map(|c| (c.id.as_str(), c))
        .collect();
    let mut plan = Vec::new();
    for (i, message) in ctx.messages.iter().enumerate().take(tail.start) {
        if !message.compactable {
            continue;
        }
        for (p, part) in message.parts.iter().enumerate() {
            let Part::ToolResult(result) = part else {
                continue;
            };
            let body = Message::new("x", Role::Tool, result.content.clone()).text();
            if is_cleared(&body) || result.content.iter().any(|c| matches!(c, Part::Media(_))) {
                continue;
            }
            let tokens = accountant.text_tokens(&body);
            let call = calls.get(result.call_id.as_str());
            let tool = result
                .tool_name
                .as_deref()
                .or_else(|| call.map(|c| c.name.as_str()))
                .unwrap_or("tool");
            let command = call.and_then(|c| command_of(&c.arguments));
            let placeholder = cleared_placeholder(tool, tokens, command.as_deref(), &body);
            if tokens > accountant.text_tokens(&placeholder) * 2 {
                plan.push(Clearing {
                    message: i,
                    part: p,
                    placeholder,
                    tokens,
                });
            }
        }
    }
    let cleared: u64 = plan.iter().map(|c| c.tokens).sum();
    if cleared < ctx.config.clear_at_least {
        return Vec::new();
    }
    plan
}
