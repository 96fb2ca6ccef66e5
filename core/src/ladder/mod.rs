//! The compaction ladder: LIGHT → MODERATE → AGGRESSIVE → MAXIMUM.

mod keep;
mod light;
mod moderate;
mod predict;
mod running;

pub use crate::level::{Clearing, Level};
pub use keep::{always_verbatim, clips, verbatim};
pub use light::{LightPlan, plan_light};
pub use moderate::plan_moderate;
pub use predict::{Prediction, predict};
pub use running::plan_running;

use crate::budget::Budget;
use crate::config::CompactionConfig;
use crate::message::Message;
use crate::overflow::Target;
use crate::segment::Segmentation;
use crate::standing::Instruction;

/// Tokens a summary message adds around the summary itself (marker line and notice).
pub const SUMMARY_FRAMING_TOKENS: u64 = 80;

/// No message is clipped below this many tokens.
pub const MIN_CLIPPED_TOKENS: u64 = 64;

/// What a level's planner sees: the conversation as the run has it, and the numbers.
#[derive(Debug, Clone, Copy)]
pub struct LevelContext<'a> {
    /// The conversation, levels so far applied.
    pub messages: &'a [Message],
    /// Each message's tokens.
    pub counts: &'a [u64],
    /// Tokens of the whole request: the messages plus the reply's priming.
    pub total: u64,
    /// Its segmentation.
    pub segmentation: &'a Segmentation,
    /// The engine's configuration.
    pub config: &'a CompactionConfig,
    /// The resolved numbers.
    pub budget: &'a Budget,
    /// Where the run must bring the conversation.
    pub target: Target,
    /// What summaries come back at, as a share of the tokens they are allowed: the
    /// engine's running estimate from the answers it has seen.
    pub summary_ratio: f64,
    /// The room a session's policy keeps for the summaries of a cut, when it set one: the
    /// run's target was made of it, the stable prefix and a raw tail of the newest calls
    /// ([`crate::policy::depth`]).
    pub summary_room: Option<u64>,
    /// Which messages are a text-action agent's observations ([`crate::observation`]).
    pub observed: &'a [bool],
    /// The user's standing instructions in `messages` ([`crate::standing::instructions`]).
    pub instructions: &'a [Instruction],
    /// For each message, the tokens its user's standing instructions take in the block of
    /// a summary that folds it ([`crate::standing::block_tokens`]): written whole, at any
    /// room.
    pub standing: &'a [u64],
}

/// A range of messages one summary will replace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fold {
    /// Indices of the messages the summary replaces, ascending.
    pub replace: Vec<usize>,
    /// Turns since the newest replaced message.
    pub age: usize,
    /// The running summary to update instead of re-summarizing (incremental mode).
    pub existing: Option<String>,
    /// The summary's size limit.
    pub max_output_tokens: u64,
}

impl LevelContext<'_> {
    /// The raw tail: the newest turns within `tail_tokens` (half the run's target by
    /// default), never fewer than `min_turns`.
    pub fn tail(&self, min_turns: usize) -> crate::select::Tail {
        let mut policy = crate::select::TailPolicy::for_target(min_turns, self.target.tokens);
        if let Some(tokens) = self.config.tail_tokens {
            policy.max_tail_tokens = Some(tokens);
        }
        crate::select::select_tail(self.segmentation, self.counts, &policy)
    }

    /// The size a summary allowed `max_output_tokens` is expected to come back at, with its
    /// framing.
    pub fn expected_summary(&self, max_output_tokens: u64) -> u64 {
        (max_output_tokens as f64 * self.summary_ratio).ceil() as u64 + SUMMARY_FRAMING_TOKENS
    }

    /// The tokens of the standing block a summary of `folded` writes whatever its room.
    pub fn block_of(&self, folded: impl IntoIterator<Item = usize>) -> u64 {
        folded
            .into_iter()
            .filter_map(|i| self.standing.get(i))
            .sum()
    }

    /// The size a summary of `fold` is expected to come back at, with its framing: as
    /// [`Self::expected_summary`] of its room, and never less than its standing block.
    pub fn expected_fold(&self, fold: &Fold) -> u64 {
        self.expected_summary(fold.max_output_tokens)
            .max(self.block_of(fold.replace.iter().copied()) + SUMMARY_FRAMING_TOKENS)
    }

    /// The room a running summary needs: the policy's [`summary_room`](Self::summary_room)
    /// when it set one, else its expected size when allowed `max_summary_tokens` (within a
    /// quarter of the target), with its framing.
    pub fn summary_reserve(&self) -> u64 {
        if let Some(room) = self.summary_room {
            return room.max(self.expected_summary(crate::config::MIN_SUMMARY_TOKENS));
        }
        let allowed = self
            .config
            .max_summary_tokens
            .min(self.target.tokens / 4)
            .max(crate::config::MIN_SUMMARY_TOKENS);
        self.expected_summary(allowed)
    }

    /// Indices of the messages in `range` whose units are entirely compactable and not
    /// kept: a unit (a tool call and its results) is replaced whole or not at all.
    pub fn replaceable(
        &self,
        range: std::ops::Range<usize>,
        keep: &dyn Fn(usize) -> bool,
    ) -> Vec<usize> {
        self.segmentation
            .units
            .iter()
            .filter(|u| u.messages.start >= range.start && u.messages.end <= range.end)
            .filter(|u| {
                u.messages
                    .clone()
                    .all(|i| self.messages[i].compactable && !keep(i))
            })
            .flat_map(|u| u.messages.clone())
            .collect()
    }
}
