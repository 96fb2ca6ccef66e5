//! Message ids derived from content, since provider formats carry none.

use std::collections::HashMap;

use crate::hash::{ContentHash, Hasher};
use crate::message::{Message, MessageId};

/// Assigns content-derived ids: the message hash, with `~N` for the N-th repeat.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct IdAssigner {
    seen: HashMap<ContentHash, usize>,
}

impl IdAssigner {
    pub(super) fn new() -> Self {
        Self {
            seen: HashMap::new(),
        }
    }

    pub(super) fn assign(&mut self, message: &mut Message) {
        let hash = Hasher::new().message(message).finish();
        let count = self.seen.entry(hash).or_insert(0);
        *count += 1;
        let short = &hash.to_hex()[..12];
        message.id = if *count == 1 {
            MessageId::new(format!("m{short}"))
        } else {
            MessageId::new(format!("m{short}~{count}"))
        };
    }
}
