//! What always stays verbatim: pinned messages, the stable prefix (the context an agent
//! injected before the task, and the task: the first message with the user's words, see
//! [`crate::task`]), the newest user words (whatever message carries them: text beside tool
//! results, an interrupted turn) and the newest turn (the last assistant response, however
//! many messages in a row it takes, and what follows it, unanswered tool calls included;
//! when the conversation ends with the user's own words, the turn they open is those words);
//! below MAXIMUM also the user's own messages in between (not a text-action agent's
//! [observations](crate::observation), which are folded with their commands), newest
//! first, up to `max_preserved_user_tokens` (and a quarter of the target, and what the
//! target leaves beside the rest and a summary; when the message signal fired, half the
//! messages the target leaves), and at MODERATE earlier summaries.
//!
//! One of the task, the newest user words and the newest turn's messages that alone
//! exceeds its share (a quarter of the absolute limit) is clipped middle-out ([`clips`]),
//! never folded into a summary — and only when they do not fit the absolute limit together.

use crate::config::MIN_SUMMARY_TOKENS;
use crate::ladder::{Level, LevelContext, MIN_CLIPPED_TOKENS};
use crate::message::{Message, Role};
use crate::task;

/// A message of the user's own words alone: no tool result beside them.
fn plain_user(message: &Message) -> bool {
    task::has_user_words(message) && message.tool_results().next().is_none()
}

/// What stays verbatim at every level: pinned messages, the stable prefix (injected
/// context and the task), the newest user words and the newest turn.
pub fn always_verbatim(ctx: &LevelContext<'_>) -> Vec<bool> {
    let messages = ctx.messages;
    let mut keep: Vec<bool> = messages.iter().map(|m| !m.compactable).collect();
    let prefix = task::prefix(messages);
    for (i, k) in keep.iter_mut().enumerate() {
        *k |= prefix.holds(i);
    }
    let newest = task::newest_words(messages);
    if let Some(newest) = newest {
        keep[newest] = true;
    }
    // The newest turn: the last assistant response and everything after it — unless the
    // user has spoken since, in words of their own (a chat awaiting its answer): the turn
    // is then those words, and the answer before them closed the turn before.
    let opens_a_turn = newest
        .is_some_and(|n| n + 1 == messages.len() && !ctx.observed[n] && plain_user(&messages[n]));
    if let Some(first) = task::newest_turn(messages)
        && !opens_a_turn
    {
        keep[first..].iter_mut().for_each(|k| *k = true);
    }
    keep
}

fn tokens_of(ctx: &LevelContext<'_>, keep: &[bool]) -> u64 {
    keep.iter()
        .zip(ctx.counts)
        .filter(|(k, _)| **k)
        .map(|(_, t)| *t)
        .sum()
}

/// For each message, whether it stays verbatim at `level`.
pub fn verbatim(ctx: &LevelContext<'_>, level: Level) -> Vec<bool> {
    let messages = ctx.messages;
    let mut keep = always_verbatim(ctx);
    if level < Level::Maximum {
        // Within a quarter of the target, and within what the target leaves beside what
        // always stays and a summary: in a small window, kept user messages would leave
        // no room for anything else.
        let room = ctx
            .target
            .tokens
            .saturating_sub(tokens_of(ctx, &keep) + ctx.summary_reserve());
        let budget = ctx
            .config
            .max_preserved_user_tokens
            .min(ctx.target.tokens / 4)
            .min(room);
        // When the message signal fired, within half the messages the target leaves beside
        // what always stays and a summary: the other half is for the raw tail and the
        // summaries a kept message in between adds.
        let mut count = ctx.target.messages.map_or(usize::MAX, |max| {
            let always = keep.iter().filter(|&&k| k).count();
            max.saturating_sub(always + 1) / 2
        });
        let mut kept_tokens = 0;
        for (i, message) in messages.iter().enumerate().rev() {
            if count == 0 {
                break;
            }
            if plain_user(message)
                && !ctx.observed[i]
                && !keep[i]
                && kept_tokens + ctx.counts[i] <= budget
            {
                kept_tokens += ctx.counts[i];
                keep[i] = true;
                count -= 1;
            }
        }
    }
    if level == Level::Moderate {
        for (i, message) in messages.iter().enumerate() {
            keep[i] |= message.is_compaction();
        }
    }
    keep
}

/// The messages to clip before a running summary is planned, each with the tokens it is
/// clipped to: only when what always stays verbatim and the smallest summary do not fit
/// the *absolute* limit together — a target they miss is missed (`target_met: false`), never
/// met by clipping the task or the newest turn — each compactable one larger than its share
/// is clipped to it. Its share is a quarter of the limit, or, when everything else fits raw
/// beside it, what everything else leaves. Pinned messages are never clipped.
pub fn clips(ctx: &LevelContext<'_>) -> Vec<(usize, u64)> {
    let keep = always_verbatim(ctx);
    let limit = ctx.budget.absolute_limit;
    let needed = tokens_of(ctx, &keep) + ctx.expected_summary(MIN_SUMMARY_TOKENS);
    if needed <= limit {
        return Vec::new();
    }
    // The newest user words are what the run must answer: when the newest turn is many
    // messages (an agent's steps since the user last spoke, each its own response in
    // gemini-cli's and Chat's records), its earlier ones give way first, each by its share
    // of what is over.
    let newest = task::newest_words(ctx.messages);
    let last = ctx
        .messages
        .iter()
        .rposition(|m| m.role == Role::Assistant)
        .unwrap_or(ctx.messages.len());
    let prefix = task::prefix(ctx.messages);
    let earlier: Vec<usize> = (0..last)
        .filter(|&i| {
            keep[i] && ctx.messages[i].compactable && Some(i) != newest && !prefix.holds(i)
        })
        .filter(|&i| ctx.counts[i] > MIN_CLIPPED_TOKENS)
        .collect();
    let excess = needed - limit;
    let cut = excess + excess / 8;
    let spare: u64 = earlier
        .iter()
        .map(|&i| ctx.counts[i] - MIN_CLIPPED_TOKENS)
        .sum();
    if newest.is_some_and(|n| n > prefix.end()) && spare > cut {
        return earlier
            .into_iter()
            .map(|i| {
                let own = ctx.counts[i] - MIN_CLIPPED_TOKENS;
                let share = (cut as f64 * own as f64 / spare as f64).ceil() as u64;
                (
                    i,
                    ctx.counts[i].saturating_sub(share).max(MIN_CLIPPED_TOKENS),
                )
            })
            .collect();
    }
    let quarter = limit / 4;
    let oversized: Vec<usize> = (0..ctx.messages.len())
        .filter(|&i| keep[i] && ctx.messages[i].compactable && ctx.counts[i] > quarter)
        .collect();
    let oversized_tokens: u64 = oversized.iter().map(|&i| ctx.counts[i]).sum();
    let left = limit.saturating_sub(ctx.total - oversized_tokens) / oversized.len().max(1) as u64;
    let share = quarter.max(left).max(MIN_CLIPPED_TOKENS);
    oversized
        .into_iter()
        .filter(|&i| ctx.counts[i] > share)
        .map(|i| (i, share))
        .collect()
}
