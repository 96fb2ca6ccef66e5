//! What a level's plan is expected to leave, before any request is made.

use crate::ladder::{Fold, LevelContext};

/// The conversation's expected size after a plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Prediction {
    /// Tokens.
    pub tokens: u64,
    /// Messages.
    pub messages: usize,
}

impl Prediction {
    /// Does it meet the context's target?
    pub fn meets(&self, ctx: &LevelContext<'_>) -> bool {
        ctx.target.is_met(self.tokens, self.messages)
    }
}

/// The size after `folds` if every summary comes back at its expected size
/// ([`LevelContext::expected_fold`]).
pub fn predict(ctx: &LevelContext<'_>, folds: &[Fold]) -> Prediction {
    let replaced: u64 = folds
        .iter()
        .flat_map(|f| f.replace.iter())
        .map(|&i| ctx.counts[i])
        .sum();
    let summaries: u64 = folds.iter().map(|f| ctx.expected_fold(f)).sum();
    Prediction {
        tokens: ctx.total.saturating_sub(replaced) + summaries,
        messages: ctx.messages.len() - folds.iter().map(|f| f.replace.len()).sum::<usize>()
            + folds.len(),
    }
}
