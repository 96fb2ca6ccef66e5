//! Actions: what an agent that acts through text writes for its environment to run —
//! mini-swe-agent's fenced `bash` block, SWE-agent's and OpenHands' `<function=…>` calls,
//! OpenHands CodeAct's `<execute_bash>` and `<execute_ipython>` tags, `<command>` tags —
//! and the command each names. Segmentation pairs an action with the user message after
//! it ([`crate::segment`]); [`crate::observation`] reads that message as its output.

use crate::facts::{ActionForm, text_action, text_command};
use crate::message::{Message, Part, Role};

/// Is `message` an assistant message that wrote an action an environment answers, and no
/// tool call?
pub fn is_action(message: &Message) -> bool {
    message.role == Role::Assistant
        && message.tool_calls().next().is_none()
        && message
            .parts
            .iter()
            .any(|part| matches!(part, Part::Text { text } if ends_with_action(text)))
}

/// Could `message` be the output of the action before it: a user message that is neither
/// a summary nor a tool result?
pub fn may_answer_action(message: &Message) -> bool {
    message.role == Role::User
        && !message.is_compaction()
        && message.tool_results().next().is_none()
}

/// The languages a fenced block of shell is written in (none at all included).
pub const SHELLS: [&str; 6] = ["", "bash", "sh", "shell", "console", "zsh"];

/// Does `text` end with an action an environment answers: a function call or a tag, or a
/// fenced block of shell that closes it? An answer that shows commands and goes on
/// explaining them ("The `2>/dev/null` bits just hide …") is a chat's, and the user's
/// reply to it stays the user's.
pub(crate) fn ends_with_action(text: &str) -> bool {
    closing_action(text).is_some()
}

/// The action `text` ends with, when it ends with one an environment answers
/// ([`ends_with_action`]): its form and its command.
pub(crate) fn closing_action(text: &str) -> Option<(ActionForm<'_>, std::borrow::Cow<'_, str>)> {
    text_action(text).filter(|(form, _)| match form {
        ActionForm::Fence(language) => {
            SHELLS.contains(language) && text.trim_end().ends_with("```")
        }
        _ => true,
    })
}

/// The command an observation answered: the text command of the message before it.
pub fn command_before(previous: &Message) -> Option<String> {
    previous.parts.iter().rev().find_map(|part| match part {
        Part::Text { text } => text_command(text).map(|c| c.into_owned()),
        _ => None,
    })
}
