//! Token counting: exact tokenizers, a fast estimator that errs high, a per-message memo,
//! and calibration from the token usage providers report.
//!
//! # Framing
//!
//! Providers add a few tokens around each message (role markers, separators) and around
//! each tool call. The counts here add fixed, documented amounts for that framing
//! ([`MESSAGE_OVERHEAD`], [`TOOL_CALL_OVERHEAD`], [`TOOL_RESULT_OVERHEAD`],
//! [`REPLY_PRIMING`]), taken from OpenAI's published counting recipe; the text itself is
//! counted exactly by the chosen [`TokenCounter`].
//!
//! # The estimator
//!
//! [`Estimator`] counts without a vocabulary, for models whose tokenizer is not public
//! and for builds that cannot carry one. Plain `bytes / 4` undercounts mixed prose by
//! 15–18% against `o200k_base`, hex, base64 and ciphertext by up to 69% per message, and
//! CJK text several-fold; an undercount makes compaction fire too late, when the provider
//! already refuses the request. So the estimator weighs characters by class (lowercase,
//! uppercase, digits, spaces, newlines, punctuation, two-byte scripts, CJK, rarer scripts,
//! emoji) and adds a little at each change between lowercase, uppercase and digits (where
//! tokenizers split identifiers, hex and base64), with weights fitted to err high.
//! Measured against `o200k_base` on the project's corpus of agent trajectories (test
//! `estimator_errs_high_on_the_corpus`, messages of 200 bytes and more), it overcounts the
//! whole corpus by 23% and undercounts no message by more than 8.2% (`bytes / 4`: −1.5%
//! overall, but 68.6% under on its worst message); on CJK, Korean and Cyrillic samples it
//! overcounts (unit test `estimator_errs_high_on_cjk_and_cyrillic`). Feed provider-reported
//! usage to
//! [`TokenAccountant::calibrate`] to bring it close to the truth for a given model.

use std::sync::Arc;

use crate::message::{Message, Part};

mod accountant;
#[cfg(feature = "bpe-runtime")]
mod bpe;
mod calibration;
#[cfg(feature = "bpe-runtime")]
mod classes;
#[cfg(feature = "bpe-runtime")]
mod cuts;
mod estimator;
#[cfg(feature = "bpe-runtime")]
mod filter;
#[cfg(feature = "bpe-runtime")]
mod split;
#[cfg(feature = "bpe-runtime")]
mod tiktoken;

pub use accountant::TokenAccountant;
pub use calibration::Calibration;
pub use estimator::Estimator;
#[cfg(feature = "bpe-runtime")]
pub use tiktoken::{RanksError, Tiktoken};

/// Tokens added per message for its role and separators.
pub const MESSAGE_OVERHEAD: u64 = 3;
/// Tokens added per tool call for its framing (id, type, braces), besides name and arguments.
pub const TOOL_CALL_OVERHEAD: u64 = 4;
/// Tokens added per tool result for its framing (call id), besides its content.
pub const TOOL_RESULT_OVERHEAD: u64 = 4;
/// Tokens added once per request: the provider primes the reply with an assistant header.
pub const REPLY_PRIMING: u64 = 3;

/// Counts the tokens of a piece of text.
///
/// Implementations must be deterministic: the same text always gives the same count.
pub trait TokenCounter: Send + Sync {
    /// The number of tokens `text` encodes to.
    fn count(&self, text: &str) -> u64;

    /// A short name identifying the counter (`o200k_base`, `estimate`, …); memo entries of
    /// different counters never mix.
    fn name(&self) -> &str;
}

pub use crate::catalog::Encoding;

impl Encoding {
    /// A counter for this encoding. An exact encoding whose feature (`o200k`, `cl100k`, or
    /// `tiktoken` for both) is off is unavailable, and the estimator stands in (its name
    /// says so).
    pub fn counter(self) -> Arc<dyn TokenCounter> {
        match self {
            #[cfg(feature = "o200k")]
            Encoding::O200kBase => Arc::new(Tiktoken::o200k_base()),
            #[cfg(feature = "cl100k")]
            Encoding::Cl100kBase => Arc::new(Tiktoken::cl100k_base()),
            _ => Arc::new(Estimator),
        }
    }
}

/// Counts one message: its text exactly (per `counter`), plus the documented framing.
/// Media and opaque parts count their adapter's estimate.
///
/// A message of nothing but reasoning (an OpenAI Responses `reasoning` item) has no
/// framing of its own: it belongs to the response it leads, as a thinking block belongs to
/// its Anthropic message, and the API drops it from earlier turns. Framed, it would make
/// every step of a Responses conversation three tokens dearer than the same step in Chat.
pub fn count_message(counter: &dyn TokenCounter, message: &Message) -> u64 {
    let name = message.name.as_deref().map_or(0, |n| counter.count(n) + 1);
    let framing = if message.is_reasoning_only() {
        0
    } else {
        MESSAGE_OVERHEAD
    };
    framing
        + name
        + message
            .parts
            .iter()
            .map(|p| count_part(counter, p))
            .sum::<u64>()
}

fn count_part(counter: &dyn TokenCounter, part: &Part) -> u64 {
    match part {
        Part::Text { text } => counter.count(text),
        Part::ToolCall(call) => {
            TOOL_CALL_OVERHEAD + counter.count(&call.name) + counter.count(&call.arguments)
        }
        Part::ToolResult(result) => {
            TOOL_RESULT_OVERHEAD
                + result
                    .content
                    .iter()
                    .map(|p| count_part(counter, p))
                    .sum::<u64>()
        }
        Part::Media(media) => media.tokens,
        Part::Reasoning(reasoning) => counter.count(&reasoning.text),
        Part::Opaque(opaque) => opaque.tokens,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// Counts one token per word and remembers how often it was asked.
    #[derive(Default)]
    pub(super) struct Words(pub(super) AtomicUsize);

    impl TokenCounter for Words {
        fn count(&self, text: &str) -> u64 {
            self.0.fetch_add(1, Ordering::Relaxed);
            text.split_whitespace().count() as u64
        }
        fn name(&self) -> &str {
            "words"
        }
    }

    #[test]
    fn message_count_is_text_plus_framing() {
        let counter = Words::default();
        let user = Message::user("u", "three small words");
        assert_eq!(count_message(&counter, &user), MESSAGE_OVERHEAD + 3);
        let tool = Message::tool_result("t", "c1", "a b");
        assert_eq!(
            count_message(&counter, &tool),
            MESSAGE_OVERHEAD + TOOL_RESULT_OVERHEAD + 2
        );
    }

    #[test]
    fn a_reasoning_item_counts_its_text_without_framing() {
        let counter = Words::default();
        let reasoning = |text: &str| {
            Message::new(
                "r",
                crate::message::Role::Assistant,
                vec![Part::Reasoning(crate::message::Reasoning {
                    text: text.into(),
                    redacted: text.is_empty(),
                })],
            )
        };
        assert_eq!(count_message(&counter, &reasoning("")), 0);
        assert_eq!(count_message(&counter, &reasoning("two words")), 2);
    }
}
