//! What the caller keeps out of compaction: pinned messages and the opt-out of a whole
//! conversation.
//!
//! A message is pinned when its [`Message::compactable`] is false: every level keeps it
//! verbatim, in place, and validation checks it byte-identical in the result. System
//! messages start pinned, and lenient parsing pins the opaque messages it keeps. A caller
//! pins its own messages in one of two ways:
//!
//! - **A marker on the message**, in the AI SDK format: `providerOptions: { compactor: {
//!   pin: true } }` ([`MARKER`]). The AI SDK hands each provider only the options under its
//!   own name, so the marker never reaches a provider, and the message goes back with it,
//!   byte for byte. The OpenAI and Anthropic wire formats have no such place: Anthropic's
//!   Messages API refuses a message field it does not know (`messages.0.name: Extra inputs
//!   are not permitted`), and OpenAI's Chat Completions has refused them too (`Additional
//!   properties are not allowed`) and documents none. A marker there would be sent on to the
//!   provider with the message, so compactor reads none in those formats: pin by index.
//! - **[`Pins`]**, for messages the caller cannot mark: indices into the conversation as
//!   given, and `compactable: false` for all of it. A conversation that opts out is only
//!   assessed: a run over it is skipped ([`SkipReason::NotCompactable`]) when it fits
//!   within the absolute limit, and fails with [`CompactError::ContextOverflow`] naming its
//!   largest messages when it does not.
//!
//! The flag travels with the message, not with its position: in a [`live`](crate::live)
//! session a message pinned once stays pinned after compactions move it.
//!
//! ```
//! use compactor::message::Message;
//! use compactor::pin::Pins;
//!
//! let mut messages = vec![
//!     Message::user("u1", "Fix the failing test."),
//!     Message::assistant("a1", "On it."),
//! ];
//! Pins::indices([1]).apply(&mut messages, 0)?;
//! assert!(messages[0].compactable && !messages[1].compactable);
//! assert!(Pins::indices([2]).apply(&mut messages, 0).is_err()); // out of range
//! # Ok::<(), compactor::pin::PinError>(())
//! ```
//!
//! [`SkipReason::NotCompactable`]: crate::engine::SkipReason::NotCompactable
//! [`CompactError::ContextOverflow`]: crate::engine::CompactError::ContextOverflow

use crate::message::Message;

/// The caller's pins for one conversation (or session).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pins {
    /// Messages kept verbatim, by their index in the conversation as given (for a request
    /// body, in its `messages` array).
    pub indices: Vec<usize>,
    /// `false`: nothing in the conversation may be rewritten; it is only assessed.
    pub compactable: bool,
}

impl Default for Pins {
    fn default() -> Self {
        Self {
            indices: Vec::new(),
            compactable: true,
        }
    }
}

/// A pinned index past the end of the conversation. Nothing was pinned.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("index {index} is out of range: the conversation has {len} messages")]
pub struct PinError {
    /// The index given.
    pub index: usize,
    /// How many messages the conversation has (indices run from 0 to `len - 1`).
    pub len: usize,
}

impl Pins {
    /// Pins the messages at `indices`.
    pub fn indices(indices: impl IntoIterator<Item = usize>) -> Self {
        Self {
            indices: indices.into_iter().collect(),
            compactable: true,
        }
    }

    /// The whole conversation opts out: assessed, never rewritten.
    pub fn none_compactable() -> Self {
        Self {
            indices: Vec::new(),
            compactable: false,
        }
    }

    /// Does this pin nothing?
    pub fn is_empty(&self) -> bool {
        self.indices.is_empty() && self.compactable
    }

    /// Marks the pinned messages of `messages` non-compactable (every message when the
    /// conversation opts out). The caller's indices count from `messages[given]`: messages
    /// before it are the ones a format reads from outside its messages array (see
    /// `format::Conversation::given_start`). Checks every index before changing anything.
    pub fn apply(&self, messages: &mut [Message], given: usize) -> Result<(), PinError> {
        let given = given.min(messages.len());
        let len = messages.len() - given;
        if let Some(&index) = self.indices.iter().find(|&&i| i >= len) {
            return Err(PinError { index, len });
        }
        for &i in &self.indices {
            messages[given + i].compactable = false;
        }
        if !self.compactable {
            for message in messages.iter_mut() {
                message.compactable = false;
            }
        }
        Ok(())
    }
}

/// The name under an AI SDK message's `providerOptions` that compactor reads (defined with
/// the AI SDK reader, which reads it).
#[cfg(feature = "serde")]
pub use crate::format::aisdk::MARKER;

#[cfg(test)]
mod tests {
    use super::*;

    fn three() -> Vec<Message> {
        vec![
            Message::system("s", "rules"),
            Message::user("u", "task"),
            Message::assistant("a", "answer"),
        ]
    }

    #[test]
    fn indices_count_from_the_given_start() {
        let mut messages = three();
        Pins::indices([0])
            .apply(&mut messages, 1)
            .expect("in range");
        assert!(!messages[1].compactable && messages[2].compactable);
    }

    #[test]
    fn an_index_out_of_range_pins_nothing() {
        let mut messages = three();
        let error = Pins::indices([1, 2]).apply(&mut messages, 1);
        assert_eq!(error, Err(PinError { index: 2, len: 2 }));
        assert!(messages[1].compactable);
    }

    #[test]
    fn opting_out_pins_every_message() {
        let mut messages = three();
        Pins::none_compactable()
            .apply(&mut messages, 0)
            .expect("no index");
        assert!(messages.iter().all(|m| !m.compactable));
    }
}
