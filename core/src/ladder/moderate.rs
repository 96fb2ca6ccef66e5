//! MODERATE: the oldest segments summarized, each on its own, as parallel requests, until
//! the projection meets the target; older segments get terser summaries; user messages
//! kept verbatim (the task always, the others newest first up to
//! `max_preserved_user_tokens`: hybrid retention); earlier summaries left as they are.

use crate::engine::MIN_SUMMARY_TOKENS;
use crate::ladder::{Fold, Level, LevelContext, predict, verbatim};
use crate::segment::SegmentKind;

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

/// The oldest groups of old segments whose summaries, at their expected size, bring the
/// projection to the target (tokens and, when the message signal fired, messages); the
/// rest stays raw.
pub fn plan_moderate(ctx: &LevelContext<'_>) -> Vec<Fold> {
    let mut folds = Vec::new();
    let mut predicted = predict(ctx, &folds);
    for fold in groups(ctx) {
        if predicted.meets(ctx) {
            break;
        }
        let replaced: u64 = fold.replace.iter().map(|&i| ctx.counts[i]).sum();
        predicted.tokens = (predicted.tokens + ctx.expected_summary(fold.max_output_tokens))
            .saturating_sub(replaced);
        predicted.messages = (predicted.messages + 1).saturating_sub(fold.replace.len());
        folds.push(fold);
    }
    folds
}

/// Every group of old segments before the tail, oldest first: consecutive small segments
/// share a request, so the prompt's fixed instruction is paid per MIN_REQUEST_TOKENS of
/// history, not per turn. A verbatim message (user input, earlier summary) closes a group,
/// so summaries stay in order around it.
fn groups(ctx: &LevelContext<'_>) -> Vec<Fold> {
    let config = ctx.config;
    let tail = ctx.tail(config.keep_recent_turns);
    let verbatim = verbatim(ctx, Level::Moderate);
    let keep = |i: usize| verbatim[i];
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
        if s.messages.clone().any(keep) {
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
