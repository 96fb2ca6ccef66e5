//! AGGRESSIVE and MAXIMUM: running summaries of everything not kept verbatim.
//!
//! AGGRESSIVE keeps raw as many recent turns as the target leaves room for (at least
//! `min_tail_turns`) and folds what is older — earlier summaries and user messages past
//! the cap included — into a running summary; MAXIMUM folds the tail too, keeping only
//! what always stays verbatim ([`verbatim`]). A summary covers one contiguous range and
//! sits where that range was, so a verbatim message in between (the task, a kept user
//! message) splits the fold in two: the order of events stays true.

use crate::config::MIN_SUMMARY_TOKENS;
use crate::ladder::{
    Fold, Level, LevelContext, SUMMARY_FRAMING_TOKENS, always_verbatim, predict, verbatim,
};
use crate::segment::SegmentKind;

/// The running summaries' folds at `level` (AGGRESSIVE or MAXIMUM).
pub fn plan_running(ctx: &LevelContext<'_>, level: Level) -> Vec<Fold> {
    let verbatim = verbatim(ctx, level);
    if level == Level::Maximum {
        return contiguous_folds(ctx, level, &|i| verbatim[i]);
    }
    let folds = folds_before_tail(ctx, &verbatim);
    if predict(ctx, &folds).meets(ctx) {
        return folds;
    }
    // Each user message kept in between splits the running summary, and every range pays
    // a summary's framing and floor: in a chat, where every other message is the user's,
    // that alone can miss the target, and MAXIMUM would then fold the raw tail too (a
    // 2,900-token chat at a 1,441-token target came out at 523, its newest turns but one
    // summarized). One running summary of everything before the tail, those messages
    // included (the rules and decisions they state stay in its standing block), keeps the
    // tail raw instead.
    let one = folds_before_tail(ctx, &always_verbatim(ctx));
    if predict(ctx, &one).meets(ctx) {
        one
    } else {
        folds
    }
}

/// The folds of everything before AGGRESSIVE's raw tail but what `verbatim` keeps.
fn folds_before_tail(ctx: &LevelContext<'_>, verbatim: &[bool]) -> Vec<Fold> {
    let tail_start = aggressive_tail(ctx, verbatim);
    contiguous_folds(ctx, Level::Aggressive, &|i| verbatim[i] || i >= tail_start)
}

/// Where AGGRESSIVE's raw tail starts: the newest turns, newest first, while the verbatim
/// messages, the tail and room for a summary fit the target — its tokens and, when the
/// message signal fired, its messages (a summary for each range folded); at least
/// `min_tail_turns`.
///
/// The room set aside is a summary's usual size (a quarter of the target). When the turn
/// that does not fit beside it is large — one tool exchange of parallel calls, a pasted
/// file — stopping there folds everything older into summaries that come back far smaller
/// than the room left: a real Codex run went from 853 items to 7, at 0.4 of its target.
/// So, where the tail so far would land the run under the band (its summaries at their
/// expected size in all the room the tail leaves), the tail goes on taking turns while it
/// still lands under the target with the summaries in a smaller room, down to a quarter
/// of the usual one: the newest turns stay raw, and the older history is summarized
/// tighter. Not under a session's policy: its target was made of the summaries' room and
/// a raw tail of the newest calls, and the tail does not grow into that room. Measured by
/// replay (24,000-token window, OpenAI prices), the facts a model sees over a whole run
/// went from 0.73 to 0.84 on the bundled trajectory, and from 0.59 to 0.67 (mini-swe-agent,
/// 9 runs) and 0.59 to 0.61 (OpenHands, 6 runs) on public runs outside the repository, at
/// the same cost.
fn aggressive_tail(ctx: &LevelContext<'_>, verbatim: &[bool]) -> usize {
    let config = ctx.config;
    let reserve = ctx.summary_reserve();
    let kept: u64 = (0..ctx.messages.len())
        .filter(|&i| verbatim[i])
        .map(|i| ctx.counts[i])
        .sum();
    let kept_messages = verbatim.iter().filter(|&&v| v).count();
    // summaries_before[i]: the ranges to fold, hence summaries, if the tail starts at i.
    let mut summaries_before = Vec::with_capacity(verbatim.len() + 1);
    summaries_before.push(0);
    // block_before[i]: what the summaries' standing blocks hold whatever their room, if the
    // tail starts at i.
    let mut block_before = Vec::with_capacity(verbatim.len() + 1);
    block_before.push(0);
    for (i, &v) in verbatim.iter().enumerate() {
        let starts_a_range = !v && (i == 0 || verbatim[i - 1]);
        summaries_before.push(summaries_before[i] + usize::from(starts_a_range));
        let block = if v { 0 } else { ctx.block_of([i]) };
        block_before.push(block_before[i] + block);
    }
    let mut start = ctx.messages.len();
    let mut tail_tokens = 0;
    let mut tail_messages = 0;
    let mut turns = 0;
    for segment in ctx.segmentation.segments.iter().rev() {
        if segment.kind == SegmentKind::Preamble {
            break;
        }
        let raw = segment.messages.clone().filter(|&i| !verbatim[i]);
        let added: u64 = raw.clone().map(|i| ctx.counts[i]).sum();
        let added_messages = raw.count();
        let messages_fit = ctx.target.messages.is_none_or(|max| {
            kept_messages
                + tail_messages
                + added_messages
                + summaries_before[segment.messages.start].max(1)
                <= max
        });
        // The summary holds the standing block of what it folds, whatever its room: a
        // tail that left it less would land over the target.
        let block = block_before[segment.messages.start];
        let needed = reserve.max(ctx.expected_summary(MIN_SUMMARY_TOKENS) + block);
        let fits = kept + tail_tokens + added + needed <= ctx.target.tokens && messages_fit;
        let fits_tighter = ctx.summary_room.is_none()
            && messages_fit
            && lands_under_band(ctx, kept + tail_tokens, summaries_before[start])
            && lands(ctx, kept + tail_tokens + added + block, reserve / 4);
        if turns >= config.min_tail_turns && !fits && !fits_tighter {
            break;
        }
        tail_tokens += added;
        tail_messages += added_messages;
        start = segment.messages.start;
        if segment.kind == SegmentKind::Exchange {
            turns += 1;
        }
    }
    start
}

/// The share of the target under which a run has folded more than it needed.
const BAND_FLOOR: f64 = 0.85;

/// The most of its input a summary is expected to keep, however much room it is given: a
/// summary restates, it does not copy (MODERATE asks the newest segments for as much).
const SUMMARY_SHARE_OF_INPUT: f64 = 0.4;

/// Would `kept` tokens raw and the summaries of the rest in `ranges` folded ranges land
/// under the band? The summaries at their expected size in nine tenths of the room `kept`
/// leaves (within `max_summary_tokens` each), and at most [`SUMMARY_SHARE_OF_INPUT`] of
/// what they fold.
fn lands_under_band(ctx: &LevelContext<'_>, kept: u64, ranges: usize) -> bool {
    let ranges = ranges.max(1) as u64;
    let room = ctx
        .target
        .tokens
        .saturating_sub(kept + SUMMARY_FRAMING_TOKENS * ranges);
    let allowance = (room * 9 / 10).min(ctx.config.max_summary_tokens * ranges);
    let folded = ctx.counts.iter().sum::<u64>().saturating_sub(kept);
    let expected = (allowance as f64 * ctx.summary_ratio)
        .min(folded as f64 * SUMMARY_SHARE_OF_INPUT) as u64
        + SUMMARY_FRAMING_TOKENS * ranges;
    ((kept + expected) as f64) < ctx.target.tokens as f64 * BAND_FLOOR
}

/// Do `kept` tokens raw and a summary of at least `floor` tokens' room fit the target?
fn lands(ctx: &LevelContext<'_>, kept: u64, floor: u64) -> bool {
    kept + floor.max(ctx.expected_summary(MIN_SUMMARY_TOKENS)) <= ctx.target.tokens
}

/// One fold per maximal contiguous range of replaceable messages, each allowed its share
/// of the room the kept messages leave under the target (within `max_summary_tokens`: a
/// summary sized for a large window would overflow a small one). Below MAXIMUM a range
/// whose summary would not be smaller than itself is left alone (no progress), unless the
/// message signal fired and it holds more than one message.
fn contiguous_folds(
    ctx: &LevelContext<'_>,
    level: Level,
    keep: &dyn Fn(usize) -> bool,
) -> Vec<Fold> {
    let replace = ctx.replaceable(0..ctx.messages.len(), keep);
    let mut ranges: Vec<Vec<usize>> = Vec::new();
    for i in replace {
        match ranges.last_mut() {
            Some(range) if range.last().map(|&last| last + 1) == Some(i) => range.push(i),
            _ => ranges.push(vec![i]),
        }
    }
    let tokens_of = |range: &[usize]| range.iter().map(|&i| ctx.counts[i]).sum::<u64>();
    let replaced: u64 = ranges.iter().map(|r| tokens_of(r)).sum();
    if replaced == 0 {
        return Vec::new();
    }
    let kept = ctx.counts.iter().sum::<u64>() - replaced;
    let room = ctx
        .target
        .tokens
        .saturating_sub(kept + SUMMARY_FRAMING_TOKENS * ranges.len() as u64);
    let allowance = room * 9 / 10;
    ranges
        .into_iter()
        .filter_map(|range| {
            let tokens = tokens_of(&range);
            let share = (allowance as f64 * tokens as f64 / replaced as f64) as u64;
            let mut max_output_tokens = share
                .min(ctx.config.max_summary_tokens)
                .max(MIN_SUMMARY_TOKENS);
            // Folded for the message count alone, a range of many messages is progress
            // even when its tokens would fit; its summary is still shorter than it.
            let for_messages = ctx.target.messages.is_some() && range.len() > 1;
            if for_messages && tokens <= max_output_tokens {
                max_output_tokens = (tokens / 2).max(MIN_SUMMARY_TOKENS);
            }
            let existing = ctx
                .config
                .enable_incremental
                .then(|| {
                    range
                        .iter()
                        .filter_map(|&i| ctx.messages[i].compaction.as_ref())
                        .rfind(|meta| meta.level >= Level::Aggressive)
                        .map(|meta| meta.summary_text.clone())
                })
                .flatten();
            (tokens > max_output_tokens || for_messages || level == Level::Maximum).then_some(
                Fold {
                    replace: range,
                    age: 0,
                    existing,
                    max_output_tokens,
                },
            )
        })
        .collect()
}
