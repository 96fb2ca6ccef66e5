//! AGGRESSIVE and MAXIMUM: one running summary of everything not kept.
//!
//! AGGRESSIVE keeps the recent turns the target has room for and folds the rest (earlier
//! summaries included) into one running summary; MAXIMUM folds the tail too, except the
//! newest user message and any unanswered tool-call batch.

use crate::engine::MIN_SUMMARY_TOKENS;
use crate::ladder::{Fold, Level, LevelContext, SUMMARY_FRAMING_TOKENS};
use crate::message::Role;
use crate::segment::UnitKind;
use crate::select::{TailPolicy, select_tail};

/// The running summary's fold at `level` (AGGRESSIVE or MAXIMUM), if there is one.
pub fn plan_running(ctx: &LevelContext<'_>, level: Level) -> Option<Fold> {
    match level {
        Level::Maximum => maximum(ctx),
        _ => aggressive(ctx),
    }
}

/// Keeps as many recent turns raw as still leave the running summary at least half its
/// allowed size: folding all but the newest turn would land far under the target and
/// discard context the budget has room for.
fn aggressive(ctx: &LevelContext<'_>) -> Option<Fold> {
    let config = ctx.config;
    let floor = config.max_summary_tokens / 2;
    // No more turns than the conversation has: the count is the caller's number.
    let most = config
        .keep_recent_turns
        .max(config.min_tail_turns)
        .min(ctx.segmentation.turns().max(config.min_tail_turns));
    let fewest = config.min_tail_turns.min(most);
    let mut fold = None;
    for turns in (fewest..=most).rev() {
        let policy = TailPolicy {
            keep_recent_turns: turns,
            max_tail_tokens: None,
        };
        let tail = select_tail(ctx.segmentation, ctx.counts, &policy);
        fold = fold_all_but(ctx, Level::Aggressive, &|i| i >= tail.start);
        if fold.as_ref().is_some_and(|f| f.max_output_tokens >= floor) {
            break;
        }
    }
    fold
}

fn maximum(ctx: &LevelContext<'_>) -> Option<Fold> {
    let newest_user = ctx.messages.iter().rposition(|m| {
        m.role == Role::User && !m.is_compaction() && m.tool_results().next().is_none()
    });
    let pending = ctx
        .segmentation
        .units
        .last()
        .filter(|u| u.kind == UnitKind::PendingCalls)
        .map(|u| u.messages.clone());
    let keep =
        |i: usize| Some(i) == newest_user || pending.as_ref().is_some_and(|p| p.contains(&i));
    fold_all_but(ctx, Level::Maximum, &keep)
}

/// What a running summary over everything `keep` leaves out would replace, and the
/// summary's size limit: the room the kept messages leave under the target, within
/// `max_summary_tokens` (a summary sized for a large window would overflow a small one).
/// `None` when nothing is replaceable or, below MAXIMUM, when the summary would not be
/// smaller than what it replaces (no progress).
fn fold_all_but(
    ctx: &LevelContext<'_>,
    level: Level,
    keep: &dyn Fn(usize) -> bool,
) -> Option<Fold> {
    let replace = ctx.replaceable(0..ctx.messages.len(), keep);
    if replace.is_empty() {
        return None;
    }
    let tokens: u64 = replace.iter().map(|&i| ctx.counts[i]).sum();
    let kept = ctx.counts.iter().sum::<u64>() - tokens;
    let room = ctx
        .target
        .tokens
        .saturating_sub(kept + SUMMARY_FRAMING_TOKENS);
    let max_output_tokens = (room * 9 / 10)
        .min(ctx.config.max_summary_tokens)
        .max(MIN_SUMMARY_TOKENS);
    let existing = if ctx.config.enable_incremental {
        replace
            .iter()
            .filter_map(|&i| ctx.messages[i].compaction.as_ref())
            .rfind(|meta| meta.level >= Level::Aggressive)
            .map(|meta| meta.summary_text.clone())
    } else {
        None
    };
    (tokens > max_output_tokens || level == Level::Maximum).then_some(Fold {
        replace,
        age: 0,
        existing,
        max_output_tokens,
    })
}
