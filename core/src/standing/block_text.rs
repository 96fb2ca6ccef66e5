//! The block of standing instructions a summary carries, written and read back: whole,
//! tightened, terse, or its newest lines alone when the room is short.

use super::*;

/// The first line of the block of standing instructions.
pub const STANDING_HEADER: &str = "The user's standing instructions (verbatim, still in force):";

/// The mark of a decision, at the start of its line.
pub(super) const DECIDED: &str = "Decided: ";
/// The mark of a decision that replaces an earlier one.
const DECIDED_AGAIN: &str = "Decided (replacing an earlier decision): ";
/// The mark of a rule that replaces an earlier instruction.
const RULE_AGAIN: &str = "(replacing an earlier instruction) ";
/// The marks of a decision and of a rule a message after the summary replaces: they stood
/// when the messages it folds were said, and the message kept after it says what changed.
const DECIDED_LATER: &str = "Decided (replaced by a later message): ";
const RULE_LATER: &str = "(replaced by a later message) ";

/// What a block read back says replaced an instruction marked replaced by a later
/// message: a message after the summary it was read from, not one of those read.
pub(super) const LATER: usize = usize::MAX;

/// What opens and closes the words of the instruction a line's instruction replaced, at
/// the line's end: `[replaced: "…"]`. Said so that the reader knows what no longer holds —
/// as replaced, never as current.
const REPLACED_OPEN: &str = " [replaced: \"";
const REPLACED_CLOSE: &str = "\"]";

/// The first line of a block in its fewest words ([`terse`]), for a window too small for
/// the whole one (3 tokens; read only on a line of its own).
pub(super) const TERSE_HEADER: &str = "In force:";
/// The terse marks of a decision and of a rule that replace an earlier one.
const DECIDED_INSTEAD: &str = "Instead: ";
const INSTEAD: &str = "(instead) ";

/// Every mark a block's line may open with: what it says of the instruction (its kind,
/// whether it replaces an earlier one, whether a later one replaces it).
pub(super) const MARKS: [(Kind, bool, bool, &str); 7] = [
    (Kind::Decision, false, true, DECIDED_LATER),
    (Kind::Rule, false, true, RULE_LATER),
    (Kind::Decision, true, false, DECIDED_AGAIN),
    (Kind::Decision, true, false, DECIDED_INSTEAD),
    (Kind::Decision, false, false, DECIDED),
    (Kind::Rule, true, false, RULE_AGAIN),
    (Kind::Rule, true, false, INSTEAD),
];

/// The block for the instructions said in the messages `folded` marks, as they stand at
/// the last of them, oldest first; `None` when there is none. One a later message the
/// fold leaves out replaces still stood then: written, marked as replaced by a later
/// message (that message, kept after the summary, says what changed — and when the
/// engine read it wrongly as an override, the choice is not lost); such lines give way to
/// the summarizer's answer where the room is short ([`lean_block`]). Written whatever the
/// summarizer's answer says: its prose is rewritten at every fold, the block is read back
/// whole.
pub fn block(instructions: &[Instruction], folded: impl Fn(usize) -> bool) -> Option<String> {
    let kept: Vec<&Instruction> = instructions
        .iter()
        .filter(|i| folded(i.message) && i.superseded.is_none_or(|by| !folded(by)))
        .collect();
    write_block(&kept, false)
}

/// [`block`] without the instructions a later message replaced: what stands now — what a
/// summary must hold, whatever its room ([`block_tokens`] counts it); the lines marked
/// replaced by a later message give way to the summarizer's answer where the room is
/// short. `None` when nothing stands now.
pub fn lean_block(instructions: &[Instruction], folded: impl Fn(usize) -> bool) -> Option<String> {
    let standing: Vec<&Instruction> = instructions
        .iter()
        .filter(|i| folded(i.message) && i.superseded.is_none())
        .collect();
    write_block(&standing, false)
}

/// The block of `instructions`, whole or [`terse`].
pub(super) fn write_block(instructions: &[&Instruction], terse: bool) -> Option<String> {
    // Tersely, what stands now alone.
    let lines: Vec<String> = instructions
        .iter()
        .filter(|i| !terse || i.superseded.is_none())
        .map(|i| line(i, terse))
        .collect();
    if lines.is_empty() {
        return None;
    }
    let header = if terse { TERSE_HEADER } else { STANDING_HEADER };
    Some(format!("{header}\n{}", lines.join("\n")))
}

/// The block's line for one instruction: its mark and its words.
pub(super) fn line(i: &Instruction, terse: bool) -> String {
    let mark = match (i.kind, i.overrides, terse) {
        _ if i.superseded.is_some() => match i.kind {
            Kind::Decision => DECIDED_LATER,
            Kind::Rule => RULE_LATER,
        },
        (Kind::Decision, false, _) => DECIDED,
        (Kind::Decision, true, false) => DECIDED_AGAIN,
        (Kind::Decision, true, true) => DECIDED_INSTEAD,
        (Kind::Rule, true, false) => RULE_AGAIN,
        (Kind::Rule, true, true) => INSTEAD,
        (Kind::Rule, false, _) => "",
    };
    match i.replaced.as_deref() {
        // Tersely, the mark alone says it replaces; one replaced in turn says only
        // what it chose.
        Some(replaced) if !terse && i.superseded.is_none() => {
            // One line per instruction: a quote that ran over lines would end the block.
            let replaced = replaced.split_whitespace().collect::<Vec<_>>().join(" ");
            format!(
                "- {mark}{}{REPLACED_OPEN}{replaced}{REPLACED_CLOSE}",
                i.text
            )
        }
        _ => format!("- {mark}{}", i.text),
    }
}

/// A block line's words and the words of what it replaced, when it says.
fn with_replaced(line: &str) -> (&str, Option<&str>) {
    line.strip_suffix(REPLACED_CLOSE)
        .and_then(|rest| rest.rsplit_once(REPLACED_OPEN))
        .map_or((line, None), |(text, replaced)| (text, Some(replaced)))
}

/// For each of `messages` messages, the tokens (by `tokens` of a text) a summary's block
/// takes for the instructions said in it that still stand: their lines, and the block's
/// header with the first (counted again for each message: a bound, never short). What a
/// summary folding that message must hold whatever room it is given.
pub fn block_tokens(
    instructions: &[Instruction],
    messages: usize,
    tokens: impl Fn(&str) -> u64,
) -> Vec<u64> {
    let mut out = vec![0; messages];
    for i in instructions.iter().filter(|i| i.superseded.is_none()) {
        if let Some(at) = out.get_mut(i.message) {
            if *at == 0 {
                *at = tokens(STANDING_HEADER) + 1;
            }
            *at += tokens(&line(i, false)) + 1;
        }
    }
    out
}

/// `summary` split at its block's header line: what is before it, and what follows.
pub(super) fn split_at_header(summary: &str) -> Option<(&str, &str)> {
    summary.split_once(STANDING_HEADER).or_else(|| {
        // The terse header is a few common words: a line of its own, before an entry.
        let at = summary
            .match_indices(TERSE_HEADER)
            .map(|(at, _)| at)
            .find(|&at| {
                (at == 0 || summary[..at].ends_with('\n'))
                    && summary[at + TERSE_HEADER.len()..].starts_with("\n- ")
            })?;
        Some((&summary[..at], &summary[at + TERSE_HEADER.len()..]))
    })
}

/// The instructions of a block an earlier summary carries (none when it has no block).
pub fn read_block(summary: &str) -> Vec<Instruction> {
    let Some((_, rest)) = split_at_header(summary) else {
        return Vec::new();
    };
    rest.lines()
        .skip(1)
        .map_while(|line| line.strip_prefix("- "))
        .map(|line| {
            let (kind, overrides, later, text) = MARKS
                .into_iter()
                .find_map(|(kind, overrides, later, mark)| {
                    line.strip_prefix(mark)
                        .map(|text| (kind, overrides, later, text))
                })
                .unwrap_or((Kind::Rule, false, false, line));
            let (text, replaced) = with_replaced(text);
            Instruction {
                kind,
                text: text.to_owned(),
                overrides,
                replaced: replaced.map(str::to_owned),
                superseded: later.then_some(LATER),
                message: 0,
            }
        })
        .collect()
}

/// A block of standing instructions (as [`block`] writes it) with each instruction cut to
/// the sentences that make it one: "Actually, wait — scratch that. Instead, let's skip
/// email verification. Ignore the earlier instruction." keeps "Instead, let's skip email
/// verification." — the user's words still, for a room too small for their reasons.
/// `None` when that saves nothing.
pub fn tightened(block: &str) -> Option<String> {
    let tight = write_block(
        &own_sentences(block, false).iter().collect::<Vec<_>>(),
        false,
    )?;
    (tight.len() < block.trim_end().len()).then_some(tight)
}

/// A block [`tightened`], under a shorter header and shorter marks ("Instead:
/// …"): the user's words all the same, for a window with room for little more than them.
/// `None` when that saves nothing.
pub fn terse(block: &str) -> Option<String> {
    let terse = write_block(&own_sentences(block, true).iter().collect::<Vec<_>>(), true)?;
    (terse.len() < block.trim_end().len()).then_some(terse)
}

/// [`terse`] blocks of the newest instructions alone, the most first: all but the oldest,
/// then all but the two oldest, down to the newest alone — for a window with room for
/// some of the user's words but not all (the newest speak for the work as it is now).
pub fn newest_terse(block: &str) -> Vec<String> {
    let own = own_sentences(block, true);
    (1..own.len())
        .filter_map(|from| write_block(&own[from..].iter().collect::<Vec<_>>(), true))
        .collect()
}

/// The instructions of `block`, each cut to the sentences that make it one.
pub(super) fn own_sentences(block: &str, terse: bool) -> Vec<Instruction> {
    read_block(block)
        .into_iter()
        .map(|mut instruction| {
            let all = sentences(&instruction.text);
            let said: Vec<&str> = all
                .iter()
                .copied()
                .filter(|sentence| kind_of(sentence).is_some())
                .collect();
            // "Scratch that." takes back; the sentence that says what instead is the one
            // to keep, and the mark says it replaces.
            let substance: Vec<&str> = said
                .iter()
                .copied()
                .filter(|sentence| !subject_words(sentence).is_empty())
                .collect();
            // Tersely, what replaces says only what instead: "Same goal, but let's swap
            // the approach. Use Redis instead. The Memcached plan is off the table." keeps
            // "Use Redis instead." — the mark says it replaces.
            let choice: Vec<&str> = substance
                .iter()
                .copied()
                .filter(|sentence| !takes_back(sentence))
                .collect();
            let said = if terse && instruction.overrides && !choice.is_empty() {
                choice
            } else if !substance.is_empty() {
                substance
            } else if let Some(said) = with_antecedent(&all, &said) {
                // "It blew up in production. So — let's not do that this time.": an order
                // that only points back keeps what it points at.
                said.to_vec()
            } else {
                said
            };
            if !said.is_empty() {
                instruction.text = said.join(" ");
            }
            instruction
        })
        .collect()
}

/// Does a sentence of an override only take the old choice back or announce the change
/// ("The Memcached plan is off the table.", "Same goal, but let's swap the approach."),
/// naming nothing new: no word of substance beyond the plan's own?
pub(super) fn takes_back(sentence: &str) -> bool {
    const TAKE_BACK: &[&str] = &[
        "off the table",
        "scratch",
        "forget",
        "ditch",
        "scrap",
        "no longer",
        "not anymore",
        "is out",
        "are out",
        "ignore the earlier",
        "ignore that",
        "ignore what",
        "ignore everything",
        "disregard",
        "reset",
    ];
    const PLAN: &[&str] = &[
        "same",
        "goal",
        "approach",
        "idea",
        "option",
        "choice",
        "way",
        "thing",
        "things",
        "different",
        "course",
        "direction",
        "tack",
        "earlier",
        "previous",
        "old",
        "original",
    ];
    let lower = crate::case::lowercase(sentence);
    // "That's the only direction now.": a pronoun's contraction names nothing either.
    let announces = subject_words(sentence)
        .iter()
        .all(|w| PLAN.contains(&w.as_str()) || w.contains('\''));
    announces || says_any(&lower, TAKE_BACK)
}

/// The sentences from the one an instruction's words point back at ("that", "it": no
/// subject of their own) to its last: from the newest sentence before them that has a
/// subject. `None` when they stand alone, or nothing before them says more.
pub(super) fn with_antecedent<'a, 't>(all: &'a [&'t str], said: &[&str]) -> Option<&'a [&'t str]> {
    let first = all.iter().position(|s| said.first() == Some(s))?;
    let last = all.iter().rposition(|s| said.last() == Some(s))?;
    let points_back = |sentence: &str| {
        crate::case::lowercase(sentence)
            .split(|c: char| !c.is_alphanumeric() && c != '\'')
            .any(|w| {
                one_of(
                    w,
                    &[
                        "that", "this", "it", "those", "them", "these", "that's", "it's",
                    ],
                )
            })
    };
    if !said.iter().any(|s| points_back(s)) {
        return None;
    }
    // Back through the sentences that point back in turn ("It blew up in production."),
    // to one that says what they point at.
    let from = (0..first)
        .rev()
        .find(|&at| !subject_words(all[at]).is_empty() && !points_back(all[at]))?;
    all.get(from..=last)
}

/// `summary` without its block of standing instructions: what its summarizer wrote (and
/// the trail after it).
pub fn without_block(summary: &str) -> &str {
    let Some((before, rest)) = split_at_header(summary) else {
        return summary;
    };
    if !before.trim().is_empty() {
        return summary;
    }
    // The block ends at its first line that is not one of its entries.
    let mut end = 0;
    for (i, line) in rest.split_inclusive('\n').enumerate() {
        if i > 0 && !line.starts_with("- ") {
            break;
        }
        end += line.len();
    }
    rest[end..].trim_start()
}
