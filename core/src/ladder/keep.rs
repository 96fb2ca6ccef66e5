//! What always stays verbatim: pinned messages, the task (the first user message), the
//! newest user message and the newest turn (the last assistant message and what follows
//! it, unanswered tool calls included); below MAXIMUM also the user messages in between,
//! newest first, up to `max_preserved_user_tokens` (and a quarter of the target), and at
//! MODERATE earlier summaries.
//! One of these that alone exceeds its share is clipped middle-out at MAXIMUM, never
//! folded into a summary.

use crate::ladder::{Level, LevelContext};
use crate::message::{Message, Role};

/// A user's own words: not a summary, not a tool result.
fn plain_user(message: &Message) -> bool {
    message.role == Role::User
        && !message.is_compaction()
        && message.tool_results().next().is_none()
}

/// For each message, whether it stays verbatim at `level`.
pub fn verbatim(ctx: &LevelContext<'_>, level: Level) -> Vec<bool> {
    let messages = ctx.messages;
    let mut keep: Vec<bool> = messages.iter().map(|m| !m.compactable).collect();
    let task = messages.iter().position(plain_user);
    let newest_user = messages.iter().rposition(plain_user);
    for i in task.into_iter().chain(newest_user) {
        keep[i] = true;
    }
    // The newest turn: the last assistant message and everything after it.
    if let Some(last) = messages.iter().rposition(|m| m.role == Role::Assistant) {
        keep[last..].iter_mut().for_each(|k| *k = true);
    }
    if level < Level::Maximum {
        // Within a quarter of the target too: in a small window, kept user messages would
        // leave no room for anything else.
        let budget = ctx
            .config
            .max_preserved_user_tokens
            .min(ctx.target.tokens / 4);
        let mut kept_tokens = 0;
        for (i, message) in messages.iter().enumerate().rev() {
            if plain_user(message) && !keep[i] && kept_tokens + ctx.counts[i] <= budget {
                kept_tokens += ctx.counts[i];
                keep[i] = true;
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
