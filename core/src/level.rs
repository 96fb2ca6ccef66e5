//! The ladder's rungs as plain data: [`Level`], and the [`Clearing`] a LIGHT plan lists.
//! Ground floor: the message model names a summary's level, and the planners (in
//! [`ladder`](crate::ladder)) and the pruner both speak of clearings.

use std::fmt;

/// A rung of the ladder, from the gentlest to the most drastic.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "lowercase")
)]
pub enum Level {
    /// Old tool-result bodies are replaced by short placeholders; no model calls.
    Light,
    /// Each old segment is summarized on its own; user messages are kept verbatim.
    Moderate,
    /// What is older than a raw tail folds into a running summary. The tail is as many
    /// recent turns as the target leaves room for beside the summary (at least
    /// `min_tail_turns`).
    Aggressive,
    /// The tail too: only what always stays verbatim is left (pinned messages, the task,
    /// the newest user message, the newest turn), clipped when it alone overflows.
    Maximum,
}

impl Level {
    /// Every level, in the order the ladder walks them.
    pub const ALL: [Level; 4] = [
        Level::Light,
        Level::Moderate,
        Level::Aggressive,
        Level::Maximum,
    ];

    /// The lowercase name.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Light => "light",
            Level::Moderate => "moderate",
            Level::Aggressive => "aggressive",
            Level::Maximum => "maximum",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One tool result to clear.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clearing {
    /// The message holding it.
    pub message: usize,
    /// The part of that message.
    pub part: usize,
    /// What replaces its body: a placeholder keeping its facts, or (the last of a plan,
    /// when clearing it all would cut far more than needed) the body clipped middle-out.
    pub placeholder: String,
    /// Tokens of the body cleared.
    pub tokens: u64,
}
