//! The compaction ladder: LIGHT → MODERATE → AGGRESSIVE → MAXIMUM.

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
    /// Everything before a short tail folds into one running summary. The tail is the
    /// most recent turns (up to `keep_recent_turns`, at least `min_tail_turns`) that leave
    /// the summary at least half of `max_summary_tokens` under the target.
    Aggressive,
    /// The tail too, except the newest user message and any unanswered tool calls.
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
