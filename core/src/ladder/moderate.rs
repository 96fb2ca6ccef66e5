//! MODERATE: each old segment summarized on its own, as parallel requests; older segments
//! get terser summaries; user messages kept verbatim, newest first, up to
//! `max_preserved_user_tokens` (hybrid retention); earlier summaries left as they are.

use crate::engine::MIN_SUMMARY_TOKENS;
use crate::ladder::{Fold, LevelContext};
use crate::message::Role;
use crate::segment::SegmentKind;
use crate::select::{TailPolicy, select_tail};

/// MODERATE groups consecutive old segments until a request covers this many tokens.
const MIN_REQUEST_TOKENS: u64 = 2_000;
/// MODERATE leaves alone what is smaller than this: its summary would not be smaller.
const MIN_SEGMENT_TOKENS: u64 = 150;

/// The share of its input a summary may take: terser with age.
fn share_for_age(age: usize) -> f64 {
    if age >= 8 {
        0.15
    } else if age >= 3 {
        0.25
    } else {
        0.4
    }
}

/// One fold per group of old segments before the tail.
pub fn plan_moderate(ctx: &LevelContext<'_>) -> Vec<Fold> {
    let config = ctx.config;
    let tail = select_tail(
        ctx.segmentation,
        ctx.counts,
        &TailPolicy::for_budget(config.keep_recent_turns, ctx.budget),
    );
    let mut preserved = vec![false; ctx.messages.len()];
    let mut kept_tokens = 0;
    for i in (0..tail.start).rev() {
        let m = &ctx.messages[i];
        let plain_user =
            m.role == Role::User && !m.is_compaction() && m.tool_results().next().is_none();
        if plain_user && kept_tokens + ctx.counts[i] <= config.max_preserved_user_tokens {
            kept_tokens += ctx.counts[i];
            preserved[i] = true;
        }
    }
    let keep = |i: usize| preserved[i] || ctx.messages[i].is_compaction();
    // Consecutive small segments share a request, so the prompt's fixed instruction is
    // paid per MIN_REQUEST_TOKENS of history, not per turn. A kept message (user input,
    // earlier summary) closes a group, so summaries stay in order around it.
    let mut folds = Vec::new();
    let mut group: Vec<usize> = Vec::new();
    let mut group_tokens = 0;
    let mut group_age = 0;
    let flush = |group: &mut Vec<usize>, tokens: &mut u64, age: usize, folds: &mut Vec<Fold>| {
        if *tokens >= MIN_SEGMENT_TOKENS {
            let wanted = (*tokens as f64 * share_for_age(age)) as u64;
            folds.push(Fold {
                replace: std::mem::take(group),
                age,
                existing: None,
                max_output_tokens: wanted
                    .min(config.max_summary_tokens)
                    .max(MIN_SUMMARY_TOKENS),
            });
        }
        group.clear();
        *tokens = 0;
    };
    for s in ctx
        .segmentation
        .segments
        .iter()
        .filter(|s| s.kind == SegmentKind::Exchange && s.index < tail.first_segment)
    {
        if s.messages
            .clone()
            .any(|i| keep(i) || !ctx.messages[i].compactable)
        {
            flush(&mut group, &mut group_tokens, group_age, &mut folds);
        }
        let replace = ctx.replaceable(s.messages.clone(), &keep);
        group_tokens += replace.iter().map(|&i| ctx.counts[i]).sum::<u64>();
        group.extend(replace);
        group_age = s.age;
        if group_tokens >= MIN_REQUEST_TOKENS {
            flush(&mut group, &mut group_tokens, group_age, &mut folds);
        }
    }
    flush(&mut group, &mut group_tokens, group_age, &mut folds);
    folds
}
