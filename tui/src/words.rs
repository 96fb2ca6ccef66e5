//! The engine's events and outcomes in words: the inspector's event log and the progress
//! lines of `compactor compact` say the same things the same way.

use compactor::engine::{Event, RequestId, SkipReason, Status};
use compactor::overflow::Signals;

/// An outcome's status as a phrase.
pub fn status_words(status: &Status) -> String {
    match status {
        Status::Compacted { target_met: true } => "compacted, target met".to_owned(),
        Status::Compacted { target_met: false } => {
            "compacted under the absolute limit, target missed".to_owned()
        }
        Status::Skipped { reason } => format!("skipped ({})", skip_words(*reason)),
        Status::NoOp => "no-op: already this session's latest result".to_owned(),
        Status::NoProgress => "no progress: conversation left as it was".to_owned(),
        other => format!("{other:?}"),
    }
}

/// Why a run was skipped, in words.
fn skip_words(reason: SkipReason) -> String {
    match reason {
        SkipReason::BelowTrigger => "no signal fired".to_owned(),
        SkipReason::TooFewMessages => "too few messages".to_owned(),
        SkipReason::NotCompactable => {
            "nothing may be compacted: every message is pinned".to_owned()
        }
        other => format!("{other:?}"),
    }
}

/// One line about `event`.
pub struct EventLine {
    pub text: String,
    /// The request it is about, if any.
    pub request: Option<RequestId>,
    /// Something went wrong or was given up (shown as a warning).
    pub warning: bool,
}

/// Thousands separated by commas.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The signals that fired, as phrases (the absolute limit implies the trigger).
pub fn fired(signals: &Signals) -> Vec<&'static str> {
    let mut fired = Vec::new();
    if signals.over_absolute_limit {
        fired.push("over the absolute limit");
    } else if signals.over_trigger {
        fired.push("over the trigger");
    }
    if signals.over_max_messages {
        fired.push("too many messages");
    }
    fired
}

/// `event` in words.
pub fn event_line(event: &Event) -> EventLine {
    match event {
        Event::RequestIssued { .. }
        | Event::RequestAnswered { .. }
        | Event::EmptyAnswer { .. }
        | Event::RequestFailed { .. }
        | Event::ArtifactRefsRestored { .. } => request_line(event),
        Event::LevelEntered { .. }
        | Event::LevelSkipped { .. }
        | Event::LevelLeft { .. }
        | Event::CacheHit { .. }
        | Event::FallbackTaken { .. } => level_line(event),
        Event::Assessed {
            tokens,
            messages,
            signals,
            target,
            trigger,
        } => {
            let fired = fired(signals);
            let fired = if fired.is_empty() {
                "no signal".to_owned()
            } else {
                fired.join(", ")
            };
            line(format!(
                "assessed ({trigger:?}): {} tokens, {messages} messages, {fired}; target {} tokens",
                thousands(*tokens),
                thousands(target.tokens)
            ))
        }
        Event::ReactiveOverride {
            counted,
            absolute_limit,
        } => line(format!(
            "reactive: compacting although {} ≤ {} counted",
            thousands(*counted),
            thousands(*absolute_limit)
        )),
        Event::CircuitOpened { session, failures } => warning(format!(
            "circuit opened for {session:?} after {failures} failed runs"
        )),
        Event::Finished {
            status,
            tokens_before,
            tokens_after,
        } => line(format!(
            "finished: {}, {} → {} tokens",
            status_words(status),
            thousands(*tokens_before),
            thousands(*tokens_after)
        )),
        other => line(format!("{other:?}")),
    }
}

fn line(text: String) -> EventLine {
    EventLine {
        text,
        request: None,
        warning: false,
    }
}

fn warning(text: String) -> EventLine {
    EventLine {
        text,
        request: None,
        warning: true,
    }
}

fn about(id: &RequestId, text: String, warning: bool) -> EventLine {
    EventLine {
        text,
        request: Some(*id),
        warning,
    }
}

/// An event about one summary request.
fn request_line(event: &Event) -> EventLine {
    match event {
        Event::RequestIssued {
            id,
            level,
            covers,
            input_tokens,
            attempt,
        } => {
            let retry = if *attempt > 1 {
                format!(" (attempt {attempt})")
            } else {
                String::new()
            };
            about(
                id,
                format!(
                    "request #{} issued: {level}, {covers} messages, {} tokens{retry}",
                    id.0,
                    thousands(*input_tokens)
                ),
                false,
            )
        }
        Event::RequestAnswered { id, tokens } => about(
            id,
            format!("request #{} answered: {tokens} tokens", id.0),
            false,
        ),
        Event::EmptyAnswer { id } => about(
            id,
            format!(
                "request #{} answered with nothing: its trail stands for it",
                id.0
            ),
            true,
        ),
        Event::RequestFailed { id, reason } => {
            about(id, format!("request #{} failed: {reason}", id.0), true)
        }
        Event::ArtifactRefsRestored { id, refs } => about(
            id,
            format!("request #{}: restored {}", id.0, refs.join(" ")),
            true,
        ),
        other => line(format!("{other:?}")),
    }
}

/// An event about a ladder level.
fn level_line(event: &Event) -> EventLine {
    match event {
        Event::LevelEntered { level, tokens } => {
            line(format!("entered {level} at {} tokens", thousands(*tokens)))
        }
        Event::LevelSkipped { level, predicted } => line(format!(
            "skipped {level}: at best {} tokens, short of the target",
            thousands(*predicted)
        )),
        Event::LevelLeft {
            level,
            tokens_before,
            tokens_after,
        } => line(format!(
            "left {level}: {} → {} tokens",
            thousands(*tokens_before),
            thousands(*tokens_after)
        )),
        Event::CacheHit { level, covers } => {
            line(format!("{level}: cache hit for {covers} messages"))
        }
        Event::FallbackTaken {
            level,
            kept,
            reason,
        } => warning(format!(
            "{level}: kept {kept} messages as they were ({reason})"
        )),
        other => line(format!("{other:?}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_are_separated() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }
}
