//! The per-message memo: counts keyed by content hash, calibrated.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard};

use super::{Calibration, REPLY_PRIMING, TokenCounter, count_message};
use crate::hash::{ContentHash, message_hash};
use crate::message::Message;

/// Counts messages through a per-message memo keyed by content hash, so re-assessing a
/// conversation after an append tokenizes only the new messages.
///
/// Clones share the memo. The memo is bounded: past [`TokenAccountant::MEMO_CAPACITY`]
/// entries it starts over (an agent's conversation is far smaller; this only stops a
/// process that serves many sessions from growing without end).
#[derive(Clone)]
pub struct TokenAccountant {
    counter: Arc<dyn TokenCounter>,
    state: Arc<Mutex<MemoState>>,
}

#[derive(Default)]
struct MemoState {
    counts: HashMap<ContentHash, u64>,
    calibration: Calibration,
}

impl TokenAccountant {
    /// Entries the memo holds before it starts over.
    pub const MEMO_CAPACITY: usize = 200_000;

    /// An accountant counting with `counter`.
    pub fn new(counter: Arc<dyn TokenCounter>) -> Self {
        Self {
            counter,
            state: Arc::default(),
        }
    }

    /// The counter's name.
    pub fn counter_name(&self) -> &str {
        self.counter.name()
    }

    /// The underlying counter.
    pub fn counter(&self) -> &dyn TokenCounter {
        &*self.counter
    }

    fn state(&self) -> MutexGuard<'_, MemoState> {
        // The memo holds only derived numbers: a panic elsewhere cannot leave it wrong.
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The calibrated token count of one message.
    pub fn message_tokens(&self, message: &Message) -> u64 {
        self.count_messages(std::slice::from_ref(message))[0]
    }

    /// The calibrated token count of each message, in order.
    pub fn count_messages(&self, messages: &[Message]) -> Vec<u64> {
        let hashes: Vec<ContentHash> = messages.iter().map(message_hash).collect();
        self.count_hashed(messages, &hashes)
    }

    /// [`TokenAccountant::count_messages`] for messages whose content hashes
    /// ([`message_hash`]) the caller already holds, in the same order.
    pub fn count_hashed(&self, messages: &[Message], hashes: &[ContentHash]) -> Vec<u64> {
        debug_assert_eq!(messages.len(), hashes.len());
        let mut state = self.state();
        if state.counts.len() + messages.len() > Self::MEMO_CAPACITY {
            state.counts.clear();
        }
        let calibration = state.calibration;
        messages
            .iter()
            .zip(hashes)
            .map(|(message, hash)| {
                let raw = *state
                    .counts
                    .entry(*hash)
                    .or_insert_with(|| count_message(&*self.counter, message));
                calibration.apply(raw)
            })
            .collect()
    }

    /// Tokens of a whole request: every message plus [`REPLY_PRIMING`].
    pub fn total(&self, message_tokens: &[u64]) -> u64 {
        REPLY_PRIMING + message_tokens.iter().sum::<u64>()
    }

    /// Tokens of free text (a summary, a prompt), calibrated but not memoized.
    pub fn text_tokens(&self, text: &str) -> u64 {
        let calibration = self.state().calibration;
        calibration.apply(self.counter.count(text))
    }

    /// Feeds back a provider's reported prompt tokens for `messages`: later counts are
    /// scaled so they track the provider's tokenizer.
    pub fn calibrate(&self, messages: &[Message], reported_prompt_tokens: u64) {
        let raw: u64 = REPLY_PRIMING
            + messages
                .iter()
                .map(|m| count_message(&*self.counter, m))
                .sum::<u64>();
        self.state()
            .calibration
            .observe(raw, reported_prompt_tokens);
    }

    /// The calibration in force.
    pub fn calibration(&self) -> Calibration {
        self.state().calibration
    }

    /// How many message counts the memo holds.
    pub fn memo_len(&self) -> usize {
        self.state().counts.len()
    }
}

impl fmt::Debug for TokenAccountant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TokenAccountant")
            .field("counter", &self.counter.name())
            .field("memo_len", &self.memo_len())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokens::Estimator;
    use crate::tokens::tests::Words;
    use std::sync::atomic::Ordering;

    #[test]
    fn the_memo_counts_each_distinct_message_once() {
        let words = Arc::new(Words::default());
        let accountant = TokenAccountant::new(words.clone());
        let mut messages = vec![Message::user("1", "a b c"), Message::assistant("2", "d e")];
        assert_eq!(accountant.count_messages(&messages), [6, 5]);
        let calls_after_first = words.0.load(Ordering::Relaxed);
        messages.push(Message::user("3", "f"));
        assert_eq!(accountant.count_messages(&messages), [6, 5, 4]);
        assert_eq!(words.0.load(Ordering::Relaxed), calls_after_first + 1);
        assert_eq!(accountant.memo_len(), 3);
    }

    #[test]
    fn clones_share_the_memo() {
        let accountant = TokenAccountant::new(Arc::new(Estimator));
        let clone = accountant.clone();
        clone.count_messages(&[Message::user("1", "hello")]);
        assert_eq!(accountant.memo_len(), 1);
    }

    #[test]
    fn calibration_scales_counts_and_resists_outliers() {
        let accountant = TokenAccountant::new(Arc::new(Words::default()));
        let messages = [Message::user("1", "a b c d e f g")]; // 3 + 7 + priming 3 = 13
        accountant.calibrate(&messages, 26);
        assert_eq!(accountant.calibration().factor, 2.0);
        assert_eq!(accountant.count_messages(&messages), [20]);
        accountant.calibrate(&messages, 13_000_000);
        let factor = accountant.calibration().factor;
        assert!(
            factor <= 2.5,
            "one absurd report moved the factor to {factor}"
        );
    }
}
