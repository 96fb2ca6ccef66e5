//! Content hashing: one stable 64-bit hash (XXH3) for memo keys, message ids and cache keys.
//!
//! XXH3 is deterministic across platforms and releases (unlike `std`'s `DefaultHasher`),
//! and hashes at memory speed, so checking a long conversation for changes costs little
//! next to tokenizing even one new message.

use xxhash_rust::xxh3::Xxh3;

use crate::message::{Message, Part};

/// A 64-bit content hash.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(transparent)
)]
pub struct ContentHash(pub u64);

impl ContentHash {
    /// Sixteen lowercase hex digits.
    pub fn to_hex(self) -> String {
        format!("{:016x}", self.0)
    }

    /// Reads [`to_hex`](Self::to_hex)'s form back; `None` for anything else.
    pub fn from_hex(hex: &str) -> Option<Self> {
        (hex.len() == 16 && hex.bytes().all(|b| b.is_ascii_hexdigit()))
            .then(|| u64::from_str_radix(hex, 16).ok().map(ContentHash))
            .flatten()
    }
}

/// Incremental hasher over tagged fields, so that `("ab", "c")` and `("a", "bc")` differ.
#[derive(Default, Clone)]
pub struct Hasher(Xxh3);

impl Hasher {
    /// A fresh hasher.
    pub fn new() -> Self {
        Self::default()
    }

    /// Feeds a length-prefixed string.
    pub fn str(&mut self, text: &str) -> &mut Self {
        self.u64(text.len() as u64);
        self.0.update(text.as_bytes());
        self
    }

    /// Feeds a number.
    pub fn u64(&mut self, value: u64) -> &mut Self {
        self.0.update(&value.to_le_bytes());
        self
    }

    /// Feeds what the model reads of a message: role, name and content (not its id or
    /// flags).
    pub fn message(&mut self, message: &Message) -> &mut Self {
        self.str(message.role.as_str());
        self.str(message.name.as_deref().unwrap_or(""));
        self.u64(message.parts.len() as u64);
        for part in &message.parts {
            self.part(part);
        }
        self
    }

    fn part(&mut self, part: &Part) {
        match part {
            Part::Text { text } => {
                self.u64(0).str(text);
            }
            Part::ToolCall(call) => {
                self.u64(1)
                    .str(&call.id)
                    .str(&call.name)
                    .str(&call.arguments);
            }
            Part::ToolResult(result) => {
                self.u64(2).str(&result.call_id);
                self.str(result.tool_name.as_deref().unwrap_or(""));
                self.u64(u64::from(result.is_error));
                self.u64(result.content.len() as u64);
                for inner in &result.content {
                    self.part(inner);
                }
            }
            Part::Media(media) => {
                self.u64(3)
                    .u64(media.kind as u64)
                    .str(&media.label)
                    .u64(media.tokens);
            }
            Part::Reasoning(reasoning) => {
                self.u64(4)
                    .str(&reasoning.text)
                    .u64(u64::from(reasoning.redacted));
            }
            Part::Opaque(opaque) => {
                self.u64(5).str(&opaque.kind).u64(opaque.tokens);
            }
        }
    }

    /// The hash of everything fed so far.
    pub fn finish(&self) -> ContentHash {
        ContentHash(self.0.digest())
    }
}

/// The hash of one message's role and content.
pub fn message_hash(message: &Message) -> ContentHash {
    Hasher::new().message(message).finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_boundaries_matter() {
        let a = Hasher::new().str("ab").str("c").finish();
        let b = Hasher::new().str("a").str("bc").finish();
        assert_ne!(a, b);
    }

    #[test]
    fn ids_do_not_change_the_content_hash_but_text_does() {
        let a = Message::user("1", "hello");
        let b = Message::user("2", "hello");
        let c = Message::user("1", "hello!");
        assert_eq!(message_hash(&a), message_hash(&b));
        assert_ne!(message_hash(&a), message_hash(&c));
        assert_ne!(
            message_hash(&a),
            message_hash(&Message::assistant("1", "hello"))
        );
    }

    #[test]
    fn the_hash_is_stable_across_releases() {
        // Cache keys and message ids persist in callers' stores: this value must not move.
        assert_eq!(
            Hasher::new().str("compactor").finish().to_hex(),
            "57aab090e72f1e1d"
        );
    }
}
