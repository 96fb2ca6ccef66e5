//! Inputs every host reads the same way, whatever carries them.

use super::{Failure, Host};
use crate::format::Conversation;
use crate::pin::Pins;

/// Applies `pins` to a conversation just read: indices count in its messages array (see
/// [`Conversation::given_start`]). An index past its end is `INVALID_INPUT` at `H::PIN`.
pub fn apply_pins<H: Host>(conversation: &mut Conversation, pins: &Pins) -> Result<(), Failure<H>> {
    let given = conversation.given_start(&conversation.messages);
    pins.apply(&mut conversation.messages, given)
        .map_err(|e| Failure::invalid(H::PIN, e.to_string()))
}
