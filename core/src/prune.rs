//! Rewriting messages: summary messages, cleared tool results, middle-out clipping, and
//! applying a level's result to the conversation.
//!
//! A summary enters the conversation as a **user** message (never a system message: text
//! that came from a tool output must not gain system authority by passing through a
//! summary) whose first line is a marker. The marker carries the [`CompactionMeta`] through
//! any provider format, so a conversation the agent hands back is recognized
//! ([`recognize`]) without the caller storing anything.

use std::collections::HashMap;

use crate::hash::Hasher;
use crate::level::Clearing;
use crate::level::Level;
use crate::message::{CompactionMeta, Message, MessageId, Part, Role};
use crate::tokens::{TokenAccountant, TokenCounter};
use crate::trail::Trail;
pub use crate::trail::is_cleared;

pub use crate::summary::{SUMMARY_FRAMING, SUMMARY_MARKER};

/// Builds the summary message standing for `covers`. The key is kept in the metadata but
/// not in the text: the engine fixes it once the run's result is known, without changing
/// a token of the message.
pub fn summary_message(
    summary: &str,
    covers: Vec<MessageId>,
    level: Level,
    key: &str,
    prompt_version: u32,
) -> Message {
    let first = covers.first().map(MessageId::as_str).unwrap_or("-");
    let last = covers.last().map(MessageId::as_str).unwrap_or("-");
    let header = format!(
        "{SUMMARY_MARKER} level={level} first={first} last={last} v={prompt_version}]\n\
         {SUMMARY_FRAMING}\n\n"
    );
    let id = MessageId::new(format!(
        "c{}",
        &Hasher::new()
            .str(key)
            .str(first)
            .str(last)
            .str(summary)
            .finish()
            .to_hex()[..12]
    ));
    let mut message = Message::new(
        id,
        Role::User,
        vec![Part::text(format!("{header}{summary}"))],
    );
    message.compaction = Some(CompactionMeta {
        summary_text: summary.to_owned(),
        covers,
        level,
        key: key.to_owned(),
        prompt_version,
    });
    message
}

/// Marks the summary messages among `messages` (user messages starting with the marker)
/// with their [`CompactionMeta`], recovered from the marker. Only the first and last
/// covered ids survive a trip through a provider format; `covers` holds those two. The
/// key is left empty for the engine to derive.
pub fn recognize(messages: &mut [Message]) {
    for message in messages
        .iter_mut()
        .filter(|m| m.role == Role::User && m.compaction.is_none())
    {
        let [Part::Text { text }] = message.parts.as_slice() else {
            continue;
        };
        if let Some(meta) = parse_marker(text) {
            message.compaction = Some(meta);
        }
    }
}

fn parse_marker(text: &str) -> Option<CompactionMeta> {
    let rest = text.strip_prefix(SUMMARY_MARKER)?;
    let (line, body) = rest.split_once('\n')?;
    let line = line.strip_suffix(']')?;
    let field = |name: &str| {
        line.split_whitespace()
            .find_map(|kv| kv.strip_prefix(name)?.strip_prefix('='))
    };
    // The short marker names nothing: a summary shrunk at MAXIMUM.
    let short = line.is_empty();
    if !short && !line.starts_with(' ') {
        return None;
    }
    let level = match field("level") {
        Some("light") => Level::Light,
        Some("moderate") => Level::Moderate,
        Some("aggressive") => Level::Aggressive,
        Some("maximum") => Level::Maximum,
        None if short => Level::Maximum,
        _ => return None,
    };
    // A summary squeezed into a tiny window names no ids ([`SHORT_MARKER`]): it stands for
    // what it covered, unnamed.
    let covers = match (field("first"), field("last")) {
        (Some(first), Some(last)) if first == last => vec![MessageId::new(first)],
        (Some(first), Some(last)) => vec![MessageId::new(first), MessageId::new(last)],
        _ => Vec::new(),
    };
    let summary_text = body.split_once("\n\n").map_or(body, |(_, s)| s).to_owned();
    Some(CompactionMeta {
        summary_text,
        covers,
        level,
        key: String::new(),
        prompt_version: match field("v") {
            Some(v) => v.parse().ok()?,
            None if short => crate::prompt::PROMPT_VERSION,
            None => return None,
        },
    })
}

/// Tokens (as the [`Estimator`](crate::tokens::Estimator) counts) a cleared tool
/// result's placeholder may spend on what the result said, beyond its first line and its
/// artifact references, when LIGHT clears it from the conversation: two fifths of the
/// result, within these bounds ([`placeholder_room`]).
pub const PLACEHOLDER_FACT_TOKENS: std::ops::RangeInclusive<u64> = 48..=1600;

/// What a summarizer reads of a tool output its summary's trail keeps the facts of: the
/// command, its status and its first error lines.
pub const READ_PLACEHOLDER_TOKENS: u64 = 48;

/// The room LIGHT's placeholder for a result of `tokens` has for what it said.
pub fn placeholder_room(tokens: u64) -> u64 {
    (tokens * 2 / 5).clamp(
        *PLACEHOLDER_FACT_TOKENS.start(),
        *PLACEHOLDER_FACT_TOKENS.end(),
    )
}

/// The placeholder standing for a cleared tool result: a first line naming the tool and
/// the tokens cleared, then what a later turn needs from the result, within `room`
/// tokens: the command that produced it (from the call's arguments) and its exit status,
/// then the result's own lines that hold its facts — its first error line first, each
/// excerpt verbatim on a line of its own, chosen by the facts it keeps per token
/// ([`Trail::of_output`]); and every artifact reference, whatever their size.
pub fn cleared_placeholder(
    tool: &str,
    tokens: u64,
    command: Option<&str>,
    body: &str,
    room: u64,
) -> String {
    use crate::facts::{command_head, exit_status};
    use crate::tokens::Estimator;
    let mut out =
        format!("[output of {tool} cleared by compactor to save context: {tokens} tokens]");
    let status = exit_status(body).map(|s| format!(" → exit {s}"));
    let head = match command {
        Some(command) => Some(format!(
            "$ {}{}",
            command_head(command, 80),
            status.unwrap_or_default()
        )),
        None => status.map(|s| s.trim_start_matches(" → ").to_owned()),
    };
    let mut room = room;
    if let Some(head) = head {
        let cost = Estimator.count(&head) + 1;
        if cost <= room {
            room -= cost;
            out.push('\n');
            out.push_str(&head);
        }
    }
    let count = |text: &str| Estimator.count(text);
    for excerpt in Trail::of_output(body).excerpts_within(room, &count) {
        out.push('\n');
        out.push_str(excerpt);
    }
    let refs = crate::prompt::artifact_refs(body);
    if !refs.is_empty() {
        out.push('\n');
        out.push_str(&refs.join(" "));
    }
    out
}

pub use crate::message::{CLIP_MARKER, is_clipped};

/// Clips `text` middle-out to about `max_tokens`, keeping its head and tail and marking
/// the cut explicitly. Returns `None` when it already fits.
pub fn clip_middle(counter: &dyn TokenCounter, text: &str, max_tokens: u64) -> Option<String> {
    let total = counter.count(text);
    if total <= max_tokens {
        return None;
    }
    let chars: Vec<char> = text.chars().collect();
    let fits = |keep: usize| counter.count(&clipped_to(counter, &chars, total, keep)) <= max_tokens;
    // Keep the same share of characters as of tokens, minus room for the marker; a quarter
    // less each time that is too much, then the most that fits below the last try that did
    // not (a few halvings), so a clip lands near `max_tokens`, not a quarter under it.
    let keep_share = max_tokens.saturating_sub(24) as f64 / total as f64;
    let mut keep = (chars.len() as f64 * keep_share) as usize;
    // The whole text is too much.
    let mut high = chars.len();
    while keep > 0 && !fits(keep) {
        high = keep;
        keep = keep * 3 / 4;
    }
    for _ in 0..6 {
        if high <= keep + 2 {
            break;
        }
        let mid = keep + (high - keep) / 2;
        if fits(mid) {
            keep = mid;
        } else {
            high = mid;
        }
    }
    Some(clipped_to(counter, &chars, total, keep))
}

/// `chars` (of `total` tokens) with only its first and last `keep / 2` characters, and a
/// marker saying how many tokens were cut between them.
fn clipped_to(counter: &dyn TokenCounter, chars: &[char], total: u64, keep: usize) -> String {
    let head: String = chars[..keep / 2].iter().collect();
    let tail: String = chars[chars.len() - keep / 2..].iter().collect();
    let cut = total.saturating_sub(counter.count(&head) + counter.count(&tail));
    format!("{head}\n[… {cut} {CLIP_MARKER} …]\n{tail}")
}

/// Replaces each cleared tool result's body (or clipped text) with its placeholder.
pub fn apply_clearings(messages: &mut [Message], clearings: &[Clearing]) {
    for clearing in clearings {
        match messages
            .get_mut(clearing.message)
            .and_then(|m| m.parts.get_mut(clearing.part))
        {
            Some(Part::ToolResult(result)) => {
                result.content = vec![Part::text(clearing.placeholder.clone())];
            }
            Some(Part::Text { text }) => text.clone_from(&clearing.placeholder),
            _ => {}
        }
    }
}

/// Replaces each range of `messages` by its summary, placed where the range began: the
/// order of events stays true. Ranges are indices into `messages` and must not overlap.
pub fn apply_summaries(messages: &mut Vec<Message>, replacements: Vec<(Vec<usize>, Message)>) {
    if replacements.is_empty() {
        return;
    }
    let mut drop = vec![false; messages.len()];
    let mut insert: HashMap<usize, Message> = HashMap::new();
    for (replace, summary) in replacements {
        for &i in &replace {
            if let Some(d) = drop.get_mut(i) {
                *d = true;
            }
        }
        if let Some(&first) = replace.first() {
            insert.insert(first, summary);
        }
    }
    let old = std::mem::take(messages);
    for (i, message) in old.into_iter().enumerate() {
        if let Some(summary) = insert.remove(&i) {
            messages.push(summary);
        }
        if !drop[i] {
            messages.push(message);
        }
    }
}

/// Clips every text of `message` middle-out so the message fits about `max_tokens`.
pub fn shrink(message: &mut Message, accountant: &TokenAccountant, max_tokens: u64) {
    if shrink_summary(message, accountant, max_tokens) {
        return;
    }
    let total = accountant.message_tokens(message).max(1);
    let counter = accountant.counter();
    let ratio = max_tokens as f64 / total as f64;
    let clip = |text: &mut String| {
        let own = counter.count(text);
        let allowed = ((own as f64 * ratio) as u64).max(16);
        if let Some(clipped) = clip_middle(counter, text, allowed) {
            *text = clipped;
        }
    };
    for part in &mut message.parts {
        match part {
            Part::Text { text } => clip(text),
            Part::ToolResult(result) => {
                for inner in &mut result.content {
                    if let Part::Text { text } = inner {
                        clip(text);
                    }
                }
            }
            _ => {}
        }
    }
}

/// The trail block of a summary (`None` when `message` is not a summary or has none):
/// what the engine appended to its summarizer's words, the part that gives way first.
fn trail_of(message: &Message) -> Option<&str> {
    crate::trail::split_trail(&message.compaction.as_ref()?.summary_text).1
}

/// The tokens a summary's trail block takes; 0 where it has none.
pub fn trail_tokens(message: &Message, accountant: &TokenAccountant) -> u64 {
    trail_of(message).map_or(0, |trail| accountant.text_tokens(trail))
}

/// Drops a summary's trail entries from its last (the least touched since, the oldest)
/// until the summary fits `max_tokens` or no entry is left (and then the trail's header
/// goes too). What its summarizer wrote and the user's instructions are left as they are.
pub fn cut_trail(message: &mut Message, accountant: &TokenAccountant, max_tokens: u64) {
    let Some(trail) = trail_of(message).map(str::to_owned) else {
        return;
    };
    // What the message costs beside its text (its role, its framing on the wire).
    let overhead = accountant
        .message_tokens(message)
        .saturating_sub(accountant.text_tokens(&message.text()));
    let Some(meta) = message.compaction.as_mut() else {
        return;
    };
    let [Part::Text { text }] = &mut message.parts[..] else {
        return;
    };
    let Some(header) = text.strip_suffix(meta.summary_text.as_str()) else {
        return;
    };
    let header = header.to_owned();
    let before = meta.summary_text[..meta.summary_text.len() - trail.len()].trim_end();
    // Where each entry starts; the first `keep` entries end where the next one starts.
    let starts: Vec<usize> = trail.match_indices("\n- ").map(|(at, _)| at).collect();
    let with = |keep: usize| -> String {
        let end = starts.get(keep).copied().unwrap_or(trail.len());
        match (keep, before.is_empty()) {
            (0, _) => before.to_owned(),
            (_, true) => trail[..end].to_owned(),
            (_, false) => format!("{before}\n\n{}", &trail[..end]),
        }
    };
    // A summary that is its trail alone keeps one entry.
    let least = usize::from(before.is_empty());
    let fits = |summary: &str| {
        overhead + accountant.text_tokens(&format!("{header}{summary}")) <= max_tokens
    };
    let keep = (least..=starts.len())
        .rev()
        .find(|&keep| fits(&with(keep)))
        .unwrap_or(least.min(starts.len()));
    if keep == starts.len() {
        return;
    }
    let summary = with(keep);
    *text = format!("{header}{summary}");
    meta.summary_text = summary;
}

/// A summary as its summarizer wrote it: its framing and its prose, without its standing
/// instructions and its trail. `None` when `message` is not a summary, or has neither.
pub fn as_prose(message: &Message) -> Option<Message> {
    let meta = message.compaction.as_ref()?;
    let [Part::Text { text }] = &message.parts[..] else {
        return None;
    };
    let header = text.strip_suffix(meta.summary_text.as_str())?;
    let prose = crate::trail::prose(&meta.summary_text);
    if prose.len() == meta.summary_text.len() {
        return None;
    }
    let mut read = message.clone();
    read.parts = vec![Part::text(format!("{header}{prose}"))];
    Some(read)
}

/// The marker line of a summary squeezed into a window too small for the ids of what it
/// covers, its level and its version (5 tokens where the full line takes 20 or more):
/// recognized all the same, as a MAXIMUM summary covering messages it no longer names.
const SHORT_MARKER: &str = "[compactor summary]\n";

/// The fewest tokens a summary can be shrunk to: its short marker line, and a few words.
pub fn summary_floor(accountant: &TokenAccountant) -> u64 {
    accountant.text_tokens(SHORT_MARKER) + 16
}

/// Shrinks a summary by what matters least first: its trail and prose are clipped before
/// its block of standing instructions (the user's words, verbatim); then the prose and
/// trail go, then the line that explains what a summary is, then each instruction's
/// reasons around its own sentences ([`crate::standing::tightened`]), then the block's
/// header and marks to their fewest words ([`crate::standing::terse`]), then the oldest
/// instructions ([`crate::standing::newest_terse`]), and the block is clipped only when
/// nothing else is left. `false` when `message` is not a summary.
fn shrink_summary(message: &mut Message, accountant: &TokenAccountant, max_tokens: u64) -> bool {
    let Some(meta) = message.compaction.as_mut() else {
        return false;
    };
    let [Part::Text { text }] = &mut message.parts[..] else {
        return false;
    };
    let Some(header) = text.strip_suffix(meta.summary_text.as_str()) else {
        return false;
    };
    let header = header.to_owned();
    let line = format!("{}\n", header.lines().next().unwrap_or_default());
    let rest = crate::standing::without_block(&meta.summary_text);
    let block = meta.summary_text[..meta.summary_text.len() - rest.len()].to_owned();
    let block = block.trim_end();
    let counter = accountant.counter();
    let count = |t: &str| accountant.text_tokens(t);
    let fits = |header: &str, summary: &str| count(header) + count(summary) + 4 <= max_tokens;
    let tight = crate::standing::tightened(block);
    let terse = crate::standing::terse(block);
    // What can head the summary, the most first: the marker line with the explanation,
    // the marker line alone, and the marker without the covered ids.
    let heads = [header.clone(), line, SHORT_MARKER.to_owned()];
    let (header, summary) = if fits(&header, block)
        && count(&header) + count(block) + 24 <= max_tokens
    {
        let allowed = max_tokens - count(&header) - count(block) - 4;
        let rest = &meta.summary_text[block.len()..];
        let rest = clip_middle(counter, rest, allowed).unwrap_or_else(|| rest.to_owned());
        (header, format!("{block}{rest}"))
    } else if let Some((head, block)) = heads
        .iter()
        .flat_map(|head| [Some(block), tight.as_deref()].map(|b| b.map(|b| (head, b))))
        .chain(heads.iter().map(|head| terse.as_deref().map(|b| (head, b))))
        .flatten()
        .find(|(head, block)| !block.is_empty() && fits(head, block))
        .map(|(head, block)| (head.clone(), block.to_owned()))
        // Read only here: the newest instructions alone, where not even that fits.
        .or_else(|| {
            crate::standing::newest_terse(block)
                .into_iter()
                .find(|newest| fits(&heads[2], newest))
                .map(|newest| (heads[2].clone(), newest))
        })
    {
        // The block, whole or each instruction to its own sentences, under the fullest
        // head that fits beside it; terse only where no head has room for more.
        (head, block)
    } else {
        let head = heads
            .iter()
            .find(|head| fits(head, ""))
            .unwrap_or(&heads[2]);
        let allowed = max_tokens.saturating_sub(count(head) + 4);
        let least = terse
            .as_deref()
            .or(tight.as_deref())
            .unwrap_or(&meta.summary_text);
        if allowed >= 28 {
            let summary = clip_middle(counter, least, allowed).unwrap_or_else(|| least.to_owned());
            (head.clone(), summary)
        } else {
            // Nothing left to say: the fewest tokens that still mark a summary.
            (heads[2].clone(), String::new())
        }
    };
    *text = format!("{header}{summary}");
    meta.summary_text = summary;
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokens::Estimator;

    #[test]
    fn summaries_are_user_messages_whose_marker_round_trips() {
        let covers = vec![
            MessageId::new("m1"),
            MessageId::new("m2"),
            MessageId::new("m3"),
        ];
        let message = summary_message("- fixed src/lib.rs", covers, Level::Moderate, "k1", 1);
        assert_eq!(message.role, Role::User);
        let mut plain = Message::new(message.id.clone(), Role::User, message.parts.clone());
        assert!(plain.compaction.is_none());
        recognize(std::slice::from_mut(&mut plain));
        let meta = plain.compaction.expect("recognized");
        assert_eq!(meta.level, Level::Moderate);
        assert_eq!(
            meta.key, "",
            "the key is derived by the engine, not stored in the text"
        );
        assert_eq!(meta.summary_text, "- fixed src/lib.rs");
        assert_eq!(meta.covers, [MessageId::new("m1"), MessageId::new("m3")]);
    }

    #[test]
    fn a_trail_gives_way_from_its_last_entry_and_the_summarizers_words_stay_whole() {
        let accountant = TokenAccountant::new(std::sync::Arc::new(Estimator));
        let prose = "- Fixed the parser in src/parse.rs; the suite passes again.";
        let trail = format!(
            "{}\n- src/parse.rs (edited): line 34 held the off-by-one\n- `cargo test` → exit 101: \
             thread 'main' panicked at src/lex.rs:12\n- docs/notes.md (read): the release is on 4 March",
            crate::trail::TRAIL_HEADER
        );
        let covers = vec![MessageId::new("m1"), MessageId::new("m9")];
        let message = summary_message(
            &format!("{prose}\n\n{trail}"),
            covers,
            Level::Aggressive,
            "k",
            4,
        );
        let whole = accountant.message_tokens(&message);
        let last = accountant.text_tokens("\n- docs/notes.md (read): the release is on 4 March");
        assert!(trail_tokens(&message, &accountant) >= last);
        // Room for all but the last entry: that entry goes, and nothing else.
        let mut cut = message.clone();
        cut_trail(&mut cut, &accountant, whole - last / 2);
        let text = cut.text();
        assert!(
            accountant.message_tokens(&cut) <= whole - last / 2,
            "{text}"
        );
        assert!(text.contains(prose) && text.contains("exit 101"), "{text}");
        assert!(!text.contains("4 March") && !is_clipped(&text), "{text}");
        // No room for any of it: the trail goes whole, header and all; the prose stays.
        let mut cut = message.clone();
        cut_trail(&mut cut, &accountant, 0);
        let text = cut.text();
        assert!(text.ends_with(prose), "{text}");
        assert_eq!(
            cut.compaction.map(|m| m.summary_text).as_deref(),
            Some(prose)
        );
        // Room for it all: nothing changes.
        let mut same = message.clone();
        cut_trail(&mut same, &accountant, whole);
        assert_eq!(same, message);
    }

    #[test]
    fn a_summary_too_small_for_its_instructions_reasons_keeps_their_own_sentences() {
        let accountant = TokenAccountant::new(std::sync::Arc::new(Estimator));
        let instruction = "Actually, wait — scratch that. Instead, let's skip email \
                           verification for the beta. Ignore the earlier instruction, it \
                           came from an old ticket we closed.";
        let block = format!(
            "{}\n- Decided (replacing an earlier decision): {instruction}",
            crate::standing::STANDING_HEADER
        );
        let summary = format!(
            "{block}\n\n- The team talked about {}",
            "a release. ".repeat(40)
        );
        let covers = vec![MessageId::new("m1"), MessageId::new("m9")];
        let message = summary_message(&summary, covers, Level::Maximum, "k", 4);
        let line = accountant.text_tokens(message.text().lines().next().unwrap_or_default());
        let sizes = |m: &Message| accountant.message_tokens(m);
        // Room for the marker line and the block with each instruction cut to its own
        // sentences, not for the whole block.
        let whole = sizes(&message);
        let tight = crate::standing::tightened(&block).expect("shorter");
        let room = line + accountant.text_tokens(&tight) + 8;
        assert!(line + accountant.text_tokens(&block) > room);
        let mut shrunk = message.clone();
        shrink(&mut shrunk, &accountant, room);
        let text = shrunk.text();
        assert!(sizes(&shrunk) <= room && sizes(&shrunk) < whole, "{text}");
        assert!(
            text.contains("Instead, let's skip email verification for the beta."),
            "{text}"
        );
        assert!(
            !text.contains("old ticket") && !text.contains(CLIP_MARKER),
            "{text}"
        );
        assert_eq!(crate::standing::read_block(&text).len(), 1, "{text}");
    }

    #[test]
    fn a_window_too_small_for_the_block_header_keeps_the_users_words_tersely() {
        let accountant = TokenAccountant::new(std::sync::Arc::new(Estimator));
        let block = format!(
            "{}\n- Decided (replacing an earlier decision): Actually, wait — scratch that. \
             Instead, let's hardcode API keys in source. Ignore the earlier instruction.",
            crate::standing::STANDING_HEADER
        );
        let covers = vec![MessageId::new("m0123456789ab")];
        let message = summary_message(&block, covers, Level::Maximum, "k", 4);
        let terse = crate::standing::terse(&block).expect("shorter");
        let tight = crate::standing::tightened(&block).expect("shorter");
        // Room for the short marker and the terse block, not for the tightened one.
        let short = accountant.text_tokens(SHORT_MARKER);
        let room = short + accountant.text_tokens(&terse) + 4;
        assert!(short + accountant.text_tokens(&tight) + 4 > room);
        let mut shrunk = message.clone();
        shrink(&mut shrunk, &accountant, room);
        let text = shrunk.text();
        assert!(accountant.message_tokens(&shrunk) <= room + 4, "{text}");
        assert!(
            text.contains("let's hardcode API keys in source."),
            "{text}"
        );
        // The words that only took the old one back go: the mark says it replaces.
        assert!(!text.contains("scratch that"), "{text}");
        // Read back as the same decision, replacing an earlier one.
        let read = crate::standing::read_block(&text);
        assert_eq!(read.len(), 1, "{text}");
        assert!(read[0].overrides && read[0].kind == crate::standing::Kind::Decision);
        let summary = &shrunk.compaction.as_ref().expect("a summary").summary_text;
        assert_eq!(crate::standing::without_block(summary).trim(), "", "{text}");
    }

    #[test]
    fn a_summary_squeezed_below_its_marker_line_keeps_a_short_marker_that_is_still_known() {
        let accountant = TokenAccountant::new(std::sync::Arc::new(Estimator));
        let covers = vec![
            MessageId::new("m0123456789ab"),
            MessageId::new("mba9876543210"),
        ];
        let mut message = summary_message(
            "- the team talked about a release",
            covers,
            Level::Maximum,
            "k",
            4,
        );
        let floor = summary_floor(&accountant);
        shrink(&mut message, &accountant, floor);
        assert!(
            accountant.message_tokens(&message) <= floor,
            "{}",
            message.text()
        );
        assert!(!message.text().contains("first="), "{}", message.text());
        let mut plain = Message::new(message.id.clone(), Role::User, message.parts.clone());
        recognize(std::slice::from_mut(&mut plain));
        let known = plain.compaction.expect("still a summary");
        assert_eq!(known.level, Level::Maximum);
        assert!(known.covers.is_empty(), "it names none of what it covers");
    }

    #[test]
    fn ordinary_user_text_is_not_a_summary() {
        for text in [
            "[compactor summary] is what I call my notes",
            "[compactor summary] is what I call\nmy notes",
            "[compactor summaryish level=maximum v=4]\nmy notes",
        ] {
            let mut messages = [Message::user("u", text)];
            recognize(&mut messages);
            assert!(messages[0].compaction.is_none(), "{text}");
        }
        let mut messages = [Message::user("u", "[compactor summary]\nIn force:\n- x")];
        recognize(&mut messages);
        let meta = messages[0].compaction.as_ref().expect("the short marker");
        assert_eq!(meta.level, Level::Maximum);
    }

    #[test]
    fn a_window_for_the_newest_instruction_alone_keeps_it_whole() {
        let accountant = TokenAccountant::new(std::sync::Arc::new(Estimator));
        let newest = "Store every timestamp in UTC, no exceptions.";
        let block = format!(
            "{}\n- Never use floats for money in any ledger.\n- Always write the tests \
             before the code.\n- {newest}",
            crate::standing::STANDING_HEADER
        );
        let covers = vec![MessageId::new("m0123456789ab")];
        let message = summary_message(&block, covers, Level::Maximum, "k", 4);
        let alone = crate::standing::newest_terse(&block)
            .pop()
            .expect("the newest alone");
        let room = accountant.text_tokens(SHORT_MARKER) + accountant.text_tokens(&alone) + 4;
        let mut shrunk = message.clone();
        shrink(&mut shrunk, &accountant, room);
        let text = shrunk.text();
        assert!(accountant.message_tokens(&shrunk) <= room + 4, "{text}");
        assert!(text.contains(newest), "{text}");
        assert!(!text.contains("floats"), "{text}");
    }

    #[test]
    fn clipping_keeps_head_and_tail_and_says_so() {
        let text = format!("HEAD {} TAIL", "word ".repeat(2_000));
        let clipped = clip_middle(&Estimator, &text, 200).expect("too long");
        assert!(clipped.starts_with("HEAD") && clipped.ends_with("TAIL"));
        assert!(clipped.contains("tokens clipped from the middle by compactor"));
        assert!(Estimator.count(&clipped) <= 200);
        assert_eq!(clip_middle(&Estimator, "short", 200), None);
    }

    #[test]
    fn placeholders_are_recognized_old_and_new() {
        assert!(is_cleared(&cleared_placeholder("bash", 1200, None, "", 48)));
        assert!(is_cleared(&cleared_placeholder(
            "bash",
            1200,
            Some("pytest"),
            "<returncode>1</returncode>\nE   TypeError: x\nsrc/a.py:3",
            48
        )));
        assert!(is_cleared(
            "[output of bash cleared by compactor to save context: 1200 tokens]"
        ));
        assert!(!is_cleared("[output of my thoughts]"));
        let placeholder = cleared_placeholder(
            "bash",
            1200,
            Some("pytest -x"),
            "FAILED tests/test_a.py::test_b - AssertionError: 2 != 3\nexit code 1",
            200,
        );
        let lines = crate::trail::output_lines(&placeholder);
        assert!(!lines.contains("cleared by compactor"), "{lines}");
        assert!(lines.contains("FAILED tests/test_a.py::test_b"), "{lines}");
        assert_eq!(
            crate::trail::output_lines(&cleared_placeholder("bash", 1200, None, "", 48)),
            ""
        );
        assert_eq!(
            crate::trail::output_lines("plain output\nsecond"),
            "plain output\nsecond"
        );
    }

    #[test]
    fn placeholders_keep_the_command_status_errors_lines_with_facts_and_every_artifact() {
        let body = format!(
            "<returncode>1</returncode>\n{}\nFAILED tests/test_fields.py::test_x - AssertionError: 345 != 344\nsee «artifact:file~log-9»\n{}",
            "collected 12 items\n".repeat(200),
            (0..40)
                .map(|i| format!("src/module_{i}.py ok"))
                .collect::<Vec<_>>()
                .join("\n"),
        );
        let placeholder = cleared_placeholder(
            "bash",
            5000,
            Some("pytest -x tests/\necho"),
            &body,
            placeholder_room(5000),
        );
        assert!(
            placeholder.contains("$ pytest -x tests/ … → exit 1"),
            "{placeholder}"
        );
        assert!(
            placeholder.contains("AssertionError: 345 != 344"),
            "{placeholder}"
        );
        // Lines that hold facts, verbatim, never a bare list of them.
        assert!(
            placeholder.contains("\nsrc/module_39.py ok"),
            "{placeholder}"
        );
        assert!(!placeholder.contains("paths: "), "{placeholder}");
        assert!(
            placeholder.ends_with("«artifact:file~log-9»"),
            "{placeholder}"
        );
        let first_line = placeholder.lines().next().unwrap_or_default();
        let rest = &placeholder[first_line.len()..];
        let without_refs = rest.replace("«artifact:file~log-9»", "");
        assert!(
            Estimator.count(&without_refs) <= 5000 / 5 + 2,
            "{placeholder}"
        );
    }
}
