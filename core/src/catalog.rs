//! A small built-in catalog of current models: window, maximum output, tokenizer.
//!
//! Figures are the providers' published limits. Models whose tokenizer is not public
//! (Anthropic, Google) count with the [`Encoding::Estimate`] estimator, which errs high;
//! feed their reported usage to calibration for closer counts.

/// What compactor knows about one model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ModelInfo {
    /// The model's name as the provider spells it (snapshots match by prefix).
    pub name: &'static str,
    /// Who serves it.
    pub provider: &'static str,
    /// The hard context window in tokens.
    pub max_context_tokens: u64,
    /// The largest answer the model may write, in tokens.
    pub max_output_tokens: u64,
    /// The tokenizer to count with.
    pub encoding: Encoding,
    /// The size past which answers are known to degrade, where published or measured.
    pub comfort_tokens: Option<u64>,
}

const fn model(
    name: &'static str,
    provider: &'static str,
    max_context_tokens: u64,
    max_output_tokens: u64,
    encoding: Encoding,
) -> ModelInfo {
    ModelInfo {
        name,
        provider,
        max_context_tokens,
        max_output_tokens,
        encoding,
        comfort_tokens: None,
    }
}

use Encoding::{Cl100kBase, Estimate, O200kBase};

/// The built-in entries.
pub const MODELS: &[ModelInfo] = &[
    model("gpt-5", "openai", 400_000, 128_000, O200kBase),
    model("gpt-5-mini", "openai", 400_000, 128_000, O200kBase),
    model("gpt-5-nano", "openai", 400_000, 128_000, O200kBase),
    model("gpt-4.1", "openai", 1_047_576, 32_768, O200kBase),
    model("gpt-4.1-mini", "openai", 1_047_576, 32_768, O200kBase),
    model("gpt-4.1-nano", "openai", 1_047_576, 32_768, O200kBase),
    model("gpt-4o", "openai", 128_000, 16_384, O200kBase),
    model("gpt-4o-mini", "openai", 128_000, 16_384, O200kBase),
    model("o3", "openai", 200_000, 100_000, O200kBase),
    model("o4-mini", "openai", 200_000, 100_000, O200kBase),
    model("gpt-4-turbo", "openai", 128_000, 4_096, Cl100kBase),
    model("gpt-4", "openai", 8_192, 4_096, Cl100kBase),
    model("gpt-3.5-turbo", "openai", 16_385, 4_096, Cl100kBase),
    model("claude-opus-4-5", "anthropic", 200_000, 64_000, Estimate),
    model("claude-opus-4-1", "anthropic", 200_000, 32_000, Estimate),
    model("claude-opus-4", "anthropic", 200_000, 32_000, Estimate),
    model("claude-sonnet-4-5", "anthropic", 200_000, 64_000, Estimate),
    model("claude-sonnet-4", "anthropic", 200_000, 64_000, Estimate),
    model("claude-haiku-4-5", "anthropic", 200_000, 64_000, Estimate),
    model("claude-3-7-sonnet", "anthropic", 200_000, 64_000, Estimate),
    model("claude-3-5-haiku", "anthropic", 200_000, 8_192, Estimate),
    model("gemini-2.5-pro", "google", 1_048_576, 65_536, Estimate),
    model("gemini-2.5-flash", "google", 1_048_576, 65_536, Estimate),
    model(
        "gemini-2.5-flash-lite",
        "google",
        1_048_576,
        65_536,
        Estimate,
    ),
    model("gemini-2.0-flash", "google", 1_048_576, 8_192, Estimate),
];

/// Finds a model by name: exact, or a dated snapshot of a known model
/// (`gpt-4o-2024-08-06`, `claude-sonnet-4-5-20250929`), with an optional `provider/`
/// prefix (`openai/gpt-4o`). Case does not matter. The longest matching name wins, so
/// `gpt-4o-mini-2024-07-18` is `gpt-4o-mini`, not `gpt-4o`.
pub fn lookup(name: &str) -> Option<&'static ModelInfo> {
    let lowered = name.trim().to_ascii_lowercase();
    let bare = lowered.rsplit('/').next().unwrap_or(&lowered);
    MODELS
        .iter()
        .filter(|info| {
            bare.strip_prefix(info.name)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with(['-', '@', ':']))
        })
        .max_by_key(|info| info.name.len())
}

/// The tokenizers compactor knows by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "snake_case")
)]
pub enum Encoding {
    /// OpenAI's GPT-4o/4.1/5 and o-series vocabulary.
    O200kBase,
    /// OpenAI's GPT-4 and GPT-3.5 vocabulary.
    Cl100kBase,
    /// The vocabulary-free [`Estimator`](crate::tokens::Estimator) (models whose tokenizer is not public).
    Estimate,
}

impl Encoding {
    /// The name used in configuration and on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Encoding::O200kBase => "o200k_base",
            Encoding::Cl100kBase => "cl100k_base",
            Encoding::Estimate => "estimate",
        }
    }

    /// Parses a name as written by [`Encoding::as_str`].
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "o200k_base" => Some(Encoding::O200kBase),
            "cl100k_base" => Some(Encoding::Cl100kBase),
            "estimate" => Some(Encoding::Estimate),
            _ => None,
        }
    }
}

impl std::fmt::Display for Encoding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_names_snapshots_and_provider_prefixes_resolve() {
        assert_eq!(lookup("gpt-4o").map(|m| m.name), Some("gpt-4o"));
        assert_eq!(lookup("gpt-4o-2024-08-06").map(|m| m.name), Some("gpt-4o"));
        assert_eq!(
            lookup("GPT-4o-mini-2024-07-18").map(|m| m.name),
            Some("gpt-4o-mini")
        );
        assert_eq!(lookup("openai/gpt-4.1").map(|m| m.name), Some("gpt-4.1"));
        assert_eq!(
            lookup("claude-sonnet-4-5-20250929").map(|m| m.name),
            Some("claude-sonnet-4-5")
        );
        assert_eq!(
            lookup("claude-opus-4-5@20251101").map(|m| m.name),
            Some("claude-opus-4-5")
        );
    }

    #[test]
    fn near_misses_do_not_resolve() {
        assert_eq!(lookup("gpt-4.5-preview"), None);
        assert_eq!(lookup("gpt-4ox"), None);
        assert_eq!(lookup(""), None);
    }

    #[test]
    fn every_entry_leaves_room_for_a_prompt() {
        for info in MODELS {
            assert!(
                info.max_output_tokens < info.max_context_tokens,
                "{}",
                info.name
            );
            assert_eq!(lookup(info.name).map(|m| m.name), Some(info.name));
        }
    }
}
