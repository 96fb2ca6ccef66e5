//! Inputs every host reads the same way, whatever carries them.

use super::{Failure, Host};
use crate::format::Conversation;
use crate::pin::Pins;
use crate::tokens::Encoding;

/// The encoding `name` given at `path` (`o200k_base`, `cl100k_base`, `estimate`).
pub fn encoding_named<H>(name: &str, path: &str) -> Result<Encoding, Failure<H>> {
    Encoding::parse(name).ok_or_else(|| {
        Failure::invalid(
            path,
            format!(
                "unknown encoding {name:?} (expected \"o200k_base\", \"cl100k_base\" or \"estimate\")"
            ),
        )
    })
}

/// Applies `pins` to a conversation just read: indices count in its messages array (see
/// [`Conversation::given_start`]). An index past its end is `INVALID_INPUT` at `H::PIN`.
pub fn apply_pins<H: Host>(conversation: &mut Conversation, pins: &Pins) -> Result<(), Failure<H>> {
    let given = conversation.given_start(&conversation.messages);
    pins.apply(&mut conversation.messages, given)
        .map_err(|e| Failure::invalid(H::PIN, e.to_string()))
}
