//! LIGHT: old tool-result bodies replaced by placeholders that keep the result's facts in
//! context (the command, its exit status, the lines of the output that hold its facts,
//! artifact references); no model calls.
//!
//! A text-action agent's observations (user messages carrying a command's output) are not
//! cleared here: measured on mini-swe-agent runs, each observation keeping its own best
//! lines kept fewer facts in context (0.50 / 0.47 at 50% / 25%) than folding them into a
//! summary whose trail chooses across all of them at once (0.58 / 0.51). Tool results are
//! the same: LIGHT clears them only when clearing alone meets the target. When it cannot,
//! a summary follows anyway, and results cleared first would reach it as placeholders
//! (and stay as placeholders beside it), where its trail would have chosen among their
//! lines itself: on 6 OpenHands runs, facts in context went from 0.385 / 0.243 to 0.455 /
//! 0.412 at 50% / 25% when LIGHT stood aside (0.255 / 0.165 for a naive trim).

use std::collections::HashMap;

use crate::facts::command_of;
use crate::ladder::{LevelContext, MIN_CLIPPED_TOKENS};
use crate::level::Clearing;
use crate::message::{Part, Role, ToolCall, text_of};
use crate::prune::{cleared_placeholder, clip_middle, is_cleared, placeholder_room};
use crate::tokens::TokenAccountant;

/// What LIGHT does: the clearings it applies, and those it holds back because a summary
/// keeps more of what they hold — what the run falls back to, should every summary fail.
#[derive(Debug, Default)]
pub struct LightPlan {
    /// Applied now.
    pub clear: Vec<Clearing>,
    /// Applied only if the summaries that follow fail.
    pub held_back: Vec<Clearing>,
}

/// The tool results to clear, oldest first, until the projection meets the target: only
/// results before the tail, never the newest `keep_tool_results`, and at least
/// `clear_at_least` tokens or nothing (every rewrite breaks the provider's prompt cache).
/// When that cannot meet the target, a summary does the work: only the outputs larger than
/// the target are clipped, the rest held back. The last one, when clearing it would cut
/// far more than the target needs, is clipped middle-out to just enough instead.
pub fn plan_light(ctx: &LevelContext<'_>, accountant: &TokenAccountant) -> LightPlan {
    let tail = ctx.tail(ctx.config.keep_recent_turns);
    let outputs = outputs(ctx);
    let candidates = candidates(&outputs, accountant);
    // The newest `keep_tool_results` results stay, whether or not the tail holds them:
    // only results before the message holding the oldest of those are cleared.
    let kept_from = ctx
        .messages
        .iter()
        .enumerate()
        .rev()
        .flat_map(|(i, m)| m.tool_results().map(move |_| i))
        .nth(ctx.config.keep_tool_results.saturating_sub(1))
        .filter(|_| ctx.config.keep_tool_results > 0)
        .unwrap_or(ctx.messages.len());
    let before = tail.start.min(kept_from);
    let needed = ctx.total.saturating_sub(ctx.target.tokens);
    if needed == 0 {
        return LightPlan::default(); // only the message count is over: clearing cannot help
    }
    let goal = needed.max(ctx.config.clear_at_least);
    let mut plan = Vec::new();
    let mut saved = 0;
    let mut last_saving = 0;
    // An output larger than the whole target cannot stay whole wherever it stands (short
    // of the newest turn): kept raw it pushes everything else into a summary and is then
    // folded itself, the run far under its target. It keeps the lines that hold its facts,
    // in a quarter of the target (and up to half of it, head and tail, when that is all
    // the target still needs cut).
    let newest_turn = crate::task::newest_turn(ctx.messages).unwrap_or(ctx.messages.len());
    let huge = huge(ctx, &outputs, accountant, newest_turn)
        .into_iter()
        .chain(huge_texts(ctx, accountant, newest_turn));
    for (clearing, placeholder_tokens) in huge {
        last_saving = clearing.tokens.saturating_sub(placeholder_tokens);
        saved += last_saving;
        plan.push(clearing);
    }
    let huge_planned: Vec<(usize, usize)> = plan.iter().map(|c| (c.message, c.part)).collect();
    for (clearing, placeholder_tokens) in candidates {
        if huge_planned.contains(&(clearing.message, clearing.part)) {
            continue;
        }
        if clearing.message >= before || saved >= goal {
            break;
        }
        last_saving = clearing.tokens.saturating_sub(placeholder_tokens);
        saved += last_saving;
        plan.push(clearing);
    }
    if saved < needed {
        // Clearing alone cannot meet the target: a summary follows, and its trail keeps
        // more of these outputs' facts in context than their placeholders would (the
        // module's note). Only what cannot stay whole is clipped here.
        let held_back = plan.split_off(huge_planned.len());
        return LightPlan {
            clear: plan,
            held_back,
        };
    }
    if saved < ctx.config.clear_at_least {
        return LightPlan::default();
    }
    if saved > goal
        && let Some(last) = plan.last_mut()
    {
        // The last result cleared saves more than the target still needed: it keeps what
        // the target leaves room for instead, head and tail, when that is more than its
        // placeholder would say.
        let still = goal - (saved - last_saving);
        let placeholder_tokens = last.tokens - last_saving;
        trim(ctx, accountant, last, placeholder_tokens, still);
    }
    LightPlan {
        clear: plan,
        held_back: Vec::new(),
    }
}

/// Makes `clearing` save about `still` tokens rather than all its body: the body clipped
/// middle-out to what is left, when that keeps at least twice its placeholder's
/// `placeholder_tokens`.
fn trim(
    ctx: &LevelContext<'_>,
    accountant: &TokenAccountant,
    clearing: &mut Clearing,
    placeholder_tokens: u64,
    still: u64,
) {
    // Never more than half the target: an output that large is why it was cleared.
    let keep = clearing
        .tokens
        .saturating_sub(still)
        .min(ctx.target.tokens / 2);
    if keep < placeholder_tokens * 2 {
        return;
    }
    let Some(Part::ToolResult(result)) = ctx
        .messages
        .get(clearing.message)
        .and_then(|m| m.parts.get(clearing.part))
    else {
        return;
    };
    let body = text_of(&result.content);
    if let Some(clipped) = clip_middle(accountant.counter(), &body, keep)
        && accountant.text_tokens(&clipped) <= keep
    {
        clearing.placeholder = clipped;
    }
}

/// A tool result that may be cleared: where it stands, its text, the tool's name and the
/// command it ran.
struct Output<'a> {
    message: usize,
    part: usize,
    body: String,
    tool: &'a str,
    command: Option<String>,
}

/// The text tool results of compactable messages, oldest first, not cleared already. A result answers the newest call with its id before it: ids may be reused once
/// answered (Gemini's id-less calls are named `f#k` afresh in every turn), so a map of the
/// whole conversation would name the last call's command for every result.
fn outputs<'a>(ctx: &'a LevelContext<'_>) -> Vec<Output<'a>> {
    let mut calls: HashMap<&str, &ToolCall> = HashMap::new();
    let mut found = Vec::new();
    for (i, message) in ctx.messages.iter().enumerate() {
        calls.extend(message.tool_calls().map(|c| (c.id.as_str(), c)));
        if !message.compactable {
            continue;
        }
        for (p, part) in message.parts.iter().enumerate() {
            let Part::ToolResult(result) = part else {
                continue;
            };
            if result.content.iter().any(|c| matches!(c, Part::Media(_))) {
                continue;
            }
            let body = text_of(&result.content);
            if is_cleared(&body) {
                continue;
            }
            let call = calls.get(result.call_id.as_str());
            found.push(Output {
                message: i,
                part: p,
                body,
                tool: result
                    .tool_name
                    .as_deref()
                    .or_else(|| call.map(|c| c.name.as_str()))
                    .unwrap_or("tool"),
                command: call.and_then(|c| command_of(&c.arguments)),
            });
        }
    }
    found
}

/// The tool results before `newest_turn` larger than the target, each with its
/// placeholder of a quarter of the target's room.
fn huge(
    ctx: &LevelContext<'_>,
    outputs: &[Output<'_>],
    accountant: &TokenAccountant,
    newest_turn: usize,
) -> Vec<(Clearing, u64)> {
    let whole = ctx.target.tokens;
    outputs
        .iter()
        // A message no larger than the target holds no output larger than it.
        .filter(|o| o.message < newest_turn && ctx.counts[o.message] > whole)
        .filter_map(|o| {
            let tokens = accountant.text_tokens(&o.body);
            if tokens <= whole {
                return None;
            }
            let placeholder =
                cleared_placeholder(o.tool, tokens, o.command.as_deref(), &o.body, whole / 4);
            let placeholder_tokens = accountant.text_tokens(&placeholder);
            let clearing = Clearing {
                message: o.message,
                part: o.part,
                placeholder,
                tokens,
            };
            Some((clearing, placeholder_tokens))
        })
        .collect()
}

/// The assistant's own texts before `newest_turn` larger than the whole target (a model
/// caught in a loop writes 40,000 tokens of "Wait, …"), each clipped middle-out: folded
/// whole into a summary, such a message leaves the run far under its target, everything
/// else summarized with it. Its head and tail keep what the target leaves beside
/// everything else, when that is something; at most a quarter of the target (what it
/// repeats is worth less than the rest), at least a sixteenth.
fn huge_texts(
    ctx: &LevelContext<'_>,
    accountant: &TokenAccountant,
    newest_turn: usize,
) -> Vec<(Clearing, u64)> {
    let whole = ctx.target.tokens;
    let mut found = Vec::new();
    for (i, message) in ctx.messages.iter().enumerate().take(newest_turn) {
        if message.role != Role::Assistant || !message.compactable || ctx.counts[i] <= whole {
            continue;
        }
        for (p, part) in message.parts.iter().enumerate() {
            let Part::Text { text } = part else {
                continue;
            };
            let tokens = accountant.text_tokens(text);
            if tokens <= whole {
                continue;
            }
            let left = whole.saturating_sub(ctx.total.saturating_sub(tokens));
            let keep = left.min(whole / 4).max(whole / 16).max(MIN_CLIPPED_TOKENS);
            if let Some(clipped) = clip_middle(accountant.counter(), text, keep) {
                let clipped_tokens = accountant.text_tokens(&clipped);
                let clearing = Clearing {
                    message: i,
                    part: p,
                    placeholder: clipped,
                    tokens,
                };
                found.push((clearing, clipped_tokens));
            }
        }
    }
    found
}

/// Every tool result worth clearing (its placeholder is under half its size), oldest first,
/// with its placeholder's tokens.
fn candidates(outputs: &[Output<'_>], accountant: &TokenAccountant) -> Vec<(Clearing, u64)> {
    outputs
        .iter()
        .filter_map(|o| {
            clearing(
                o.message,
                o.part,
                o.tool,
                o.command.as_deref(),
                &o.body,
                accountant,
            )
        })
        .collect()
}

/// The clearing of the output `body` of `tool` (run as `command`) at `message`'s `part`,
/// with its placeholder's tokens: `None` unless the placeholder is under half its size.
fn clearing(
    message: usize,
    part: usize,
    tool: &str,
    command: Option<&str>,
    body: &str,
    accountant: &TokenAccountant,
) -> Option<(Clearing, u64)> {
    let tokens = accountant.text_tokens(body);
    let placeholder = cleared_placeholder(tool, tokens, command, body, placeholder_room(tokens));
    let placeholder_tokens = accountant.text_tokens(&placeholder);
    (tokens > placeholder_tokens * 2).then(|| {
        let clearing = Clearing {
            message,
            part,
            placeholder,
            tokens,
        };
        (clearing, placeholder_tokens)
    })
}
