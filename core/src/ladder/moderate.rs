//! MODERATE: the oldest segments summarized, each on its own, as parallel requests, until
//! the projection meets the target; older segments get terser summaries; user messages
//! kept verbatim (the task always, the others newest first up to
//! `max_preserved_user_tokens`: hybrid retention); earlier summaries left as they are.

use crate::config::MIN_SUMMARY_TOKENS;
use crate::ladder::{
    Fold, Level, LevelContext, Prediction, SUMMARY_FRAMING_TOKENS, predict, verbatim,
};
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
/// rest stays raw. Consecutive small segments share a request, so the prompt's fixed
/// instruction is paid per `MIN_REQUEST_TOKENS` of history, not per turn; a group closes
/// early once its summary alone would meet the target, so no more is summarized than
/// needed. A verbatim message (user input, earlier summary) closes a group, so summaries
/// stay in order around it.
pub fn plan_moderate(ctx: &LevelContext<'_>) -> Vec<Fold> {
    let tail = ctx.tail(ctx.config.keep_recent_turns);
    let verbatim = verbatim(ctx, Level::Moderate);
    let keep = |i: usize| verbatim[i];
    let mut plan = Plan {
        ctx,
        folds: Vec::new(),
        predicted: predict(ctx, &[]),
        group: Vec::new(),
        age: 0,
    };
    for s in ctx
        .segmentation
        .segments
        .iter()
        .filter(|s| s.kind == SegmentKind::Exchange && s.index < tail.first_segment)
    {
        if plan.predicted.meets(ctx) {
            return plan.folds;
        }
        if s.messages.clone().any(keep) {
            plan.flush();
        }
        for i in ctx.replaceable(s.messages.clone(), &keep) {
            // A verbatim message inside the segment (a kept user message, an earlier
            // summary) closes the group too: a summary covers one contiguous range.
            if plan
                .group
                .last()
                .is_some_and(|&last| (last + 1..i).any(keep))
            {
                plan.flush();
            }
            plan.group.push(i);
        }
        plan.age = s.age;
        if plan.group_tokens() >= MIN_REQUEST_TOKENS || plan.would_meet() {
            plan.flush();
        }
    }
    if !plan.predicted.meets(ctx) {
        plan.flush();
    }
    plan.folds
}

/// MODERATE's plan as it grows: the folds so far, the projection with their summaries,
/// and the group being gathered.
struct Plan<'c, 'a> {
    ctx: &'c LevelContext<'a>,
    folds: Vec<Fold>,
    predicted: Prediction,
    group: Vec<usize>,
    age: usize,
}

impl Plan<'_, '_> {
    fn group_tokens(&self) -> u64 {
        self.group.iter().map(|&i| self.ctx.counts[i]).sum()
    }

    /// The summary allowance of the group: a share of it, terser with age.
    fn allowance(&self) -> u64 {
        let wanted = (self.group_tokens() as f64 * share_for_age(self.age)) as u64;
        wanted
            .min(self.ctx.config.max_summary_tokens)
            .max(MIN_SUMMARY_TOKENS)
    }

    /// The projection if the group were summarized now.
    fn with_group(&self) -> Prediction {
        self.with_allowance(self.allowance())
    }

    /// The projection if the group were summarized now within `allowance`.
    fn with_allowance(&self, allowance: u64) -> Prediction {
        Prediction {
            tokens: (self.predicted.tokens + self.ctx.expected_summary(allowance))
                .saturating_sub(self.group_tokens()),
            messages: (self.predicted.messages + 1).saturating_sub(self.group.len()),
        }
    }

    /// Would summarizing the group now meet the target?
    fn would_meet(&self) -> bool {
        self.group_tokens() >= MIN_SEGMENT_TOKENS && self.with_group().meets(self.ctx)
    }

    /// The allowance of a group whose summary meets the target: nine tenths of the room
    /// the rest leaves under the target (as a running summary is sized), three quarters
    /// when earlier summaries are planned beside it (the other quarter for them: they may
    /// come back fuller than expected, as a trail with candidates to spare fills its
    /// allowance); within three quarters of the group. The last group of a mild run cuts
    /// just enough instead of a whole group's worth, in one round.
    fn room_allowance(&self) -> u64 {
        let rest = self.predicted.tokens.saturating_sub(self.group_tokens());
        let room = self
            .ctx
            .target
            .tokens
            .saturating_sub(rest + SUMMARY_FRAMING_TOKENS);
        let share = if self.folds.is_empty() {
            room * 9 / 10
        } else {
            room * 3 / 4
        };
        share
            .min(self.group_tokens() * 3 / 4)
            .min(self.ctx.config.max_summary_tokens)
    }

    /// Closes the group: a fold when it is worth a summary, else it stays raw.
    fn flush(&mut self) {
        if self.group_tokens() >= MIN_SEGMENT_TOKENS {
            let mut max_output_tokens = self.allowance();
            if self.with_group().meets(self.ctx) {
                max_output_tokens = max_output_tokens.max(self.room_allowance());
            }
            self.predicted = self.with_allowance(max_output_tokens);
            self.folds.push(Fold {
                replace: std::mem::take(&mut self.group),
                age: self.age,
                existing: None,
                max_output_tokens,
            });
        }
        self.group.clear();
    }
}
