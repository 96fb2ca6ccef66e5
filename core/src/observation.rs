//! Observations: the environment's answer to a text-action agent.
//!
//! Agents that act through text (mini-swe-agent's fenced `bash` block, SWE-agent's and
//! OpenHands' `<function=…>` calls, OpenHands CodeAct's `<execute_bash>` and
//! `<execute_ipython>` tags, `<command>` tags) get each command's output back as
//! a *user* message. Such a message is a tool result in all but form: like a tool result,
//! a running summary's request reads it as the fact-keeping placeholder LIGHT gives a cleared result
//! ([`masked_outputs`]) — the summary's trail takes its facts from the output itself,
//! so the summarizer need not read every output whole (the dearest input of a long run),
//! unless `summarize_outputs` says otherwise. A user message is an observation when
//! the message before it is an assistant message without tool calls that wrote an action: a
//! `<function=…>` call, an `<execute_…>` or `<command>` tag, or a fenced block of shell
//! ([`SHELLS`](crate::action::SHELLS)) — a
//! chat answer ending with a Python block is not an action, and the user's reply to it
//! stays the user's. What an action is, [`crate::action`] says.

use crate::action::{command_before, may_answer_action};
use crate::message::{Message, Part, text_of};
use crate::prune::{READ_PLACEHOLDER_TOKENS, cleared_placeholder, is_cleared};
use crate::segment::{Segmentation, UnitKind};
use crate::tokens::TokenAccountant;

/// For each message of `messages`, whether it is an observation: the output an action's
/// unit took in when `messages` were segmented ([`crate::segment`] pairs each action with
/// the user message after it), so no message is read for its action twice.
pub fn observations(segmentation: &Segmentation, messages: &[Message]) -> Vec<bool> {
    let mut observed = vec![false; messages.len()];
    for unit in &segmentation.units {
        let last = unit.messages.end.saturating_sub(1);
        if unit.kind == UnitKind::ToolExchange
            && last > unit.messages.start
            && messages.get(last).is_some_and(may_answer_action)
        {
            observed[last] = true;
        }
    }
    observed
}

/// `message` as a summary request reads it when the trail carries what its outputs
/// said: each tool result, or its text when it is an observation (the output of the
/// command `previous` wrote), cleared to the fact-keeping placeholder LIGHT would give it,
/// where that is under half its size. `None` when nothing would change.
pub fn masked_outputs(
    message: &Message,
    previous: Option<&Message>,
    observation: bool,
    accountant: &TokenAccountant,
) -> Option<Message> {
    let mask = |tool: &str, command: Option<&str>, body: &str| {
        let tokens = accountant.text_tokens(body);
        let placeholder = cleared_placeholder(tool, tokens, command, body, READ_PLACEHOLDER_TOKENS);
        (!is_cleared(body) && accountant.text_tokens(&placeholder) * 2 < tokens)
            .then_some(placeholder)
    };
    let mut out = message.clone();
    let mut changed = false;
    if observation && let [Part::Text { text }] = out.parts.as_mut_slice() {
        let command = previous.and_then(command_before);
        if let Some(placeholder) = mask("command", command.as_deref(), text) {
            *text = placeholder;
            changed = true;
        }
    }
    for part in &mut out.parts {
        if let Part::ToolResult(result) = part
            && !result.content.iter().any(|c| matches!(c, Part::Media(_)))
        {
            let tool = result.tool_name.as_deref().unwrap_or("tool");
            if let Some(placeholder) = mask(tool, None, &text_of(&result.content)) {
                result.content = vec![Part::text(placeholder)];
                changed = true;
            }
        }
    }
    changed.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_user_message_after_a_text_command_is_its_output() {
        let messages = [
            Message::system("s", "rules"),
            Message::user("task", "fix the bug"),
            Message::assistant("a1", "Look first.\n\n```bash\nls src\n```"),
            Message::user("o1", "lib.rs main.rs"),
            Message::assistant("a2", "I think it is fixed now."),
            Message::user("u2", "Thanks, and the tests?"),
            Message::assistant(
                "a3",
                "<function=str_replace_editor>\n<parameter=command>view</parameter>\n\
                 <parameter=path>/testbed/setup.py</parameter>\n</function>",
            ),
            Message::user("o3", "OBSERVATION: ..."),
            Message::assistant("a4", "Try this:\n\n```python\nprint(1)\n```"),
            Message::user("u4", "That printed 2."),
            Message::assistant(
                "a5",
                "The test first:\n```python\nassert f()\n```\n\
                 <execute_bash>\npytest -x tests/test_f.py\n</execute_bash>",
            ),
            Message::user(
                "o5",
                "OBSERVATION:\n1 failed\n[Command finished with exit code 1]",
            ),
            // A tag named in prose, then example code: a chat answer, and the user's reply.
            Message::assistant(
                "a6",
                "I used <execute_bash> tags before. Try:\n```python\nprint(1)\n```",
            ),
            Message::user("u6", "It printed 1."),
            // A chat answer that shows shell commands and goes on explaining them: the
            // reply is the user's words, their instructions read as such.
            Message::assistant(
                "a7",
                "Biggest files:\n```bash\ndu -h . | sort -hr | head\n```\n\
                 The `-h` flag prints sizes a person can read.",
            ),
            Message::user("u7", "Thanks! Keep daily walking under 5 km for my mom."),
        ];
        let segmentation = crate::segment::segment(&messages).expect("valid");
        assert_eq!(
            observations(&segmentation, &messages),
            [
                false, false, false, true, false, false, false, true, false, false, false, true,
                false, false, false, false
            ]
        );
        // OpenHands CodeAct's tag is the command, not the fenced block before it.
        assert_eq!(
            command_before(&messages[10]).as_deref(),
            Some("pytest -x tests/test_f.py")
        );
        assert_eq!(command_before(&messages[2]).as_deref(), Some("ls src"));
        assert_eq!(
            command_before(&messages[6]).as_deref(),
            Some("str_replace_editor view /testbed/setup.py")
        );
    }
}
