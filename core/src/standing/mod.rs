//! Standing instructions: the rules, constraints, preferences and decisions a user states
//! mid-run, kept verbatim through every compaction.
//!
//! A summarizer (a model, or the extractive one) may fold "Absolutely never use floats for
//! money" away as one line among filler; a published study saw constraint violations go
//! from none to a third of cases after compaction, and back to none with the constraint
//! pinned. So the engine reads the user's words itself: a sentence that states a rule
//! ("never…", "always…", "…must…", "don't…", "stick to…", "from now on…", "no
//! exceptions") or a decision ("let's go with…", "we'll use…", "I've decided…", "lock
//! in…") is an [`Instruction`], and every summary that folds it carries it verbatim in a
//! block of its own ([`STANDING_HEADER`]) ahead of the summarizer's prose.
//!
//! A later instruction that overrides an earlier one ("actually, let's go with C instead",
//! "scratch that", "change of plan") supersedes it: the one it overrides is the earlier
//! decision or rule that shares a word of substance with it, else the newest one before
//! it. A superseded instruction is never written as current again: the one that replaced
//! it says so and quotes it at its line's end (`Decided (replacing an earlier decision):
//! let's go with C instead. [replaced: "We'll use option B."]`), so the reader knows what
//! no longer holds — and when the engine read an override wrongly, the choice it took for
//! replaced is still there in the user's words. An override that starts over replaces
//! every decision and quotes none. A summary says what stood at the end of the messages
//! it folds: one replaced by a later message it leaves out is carried, marked so
//! (`Decided (replaced by a later message): …`), where it fits beside the summarizer's
//! answer, and that message, kept after it, says what changed. When the superseded one
//! is in a message that stays verbatim (the task), the block still says the newer one
//! replaces an earlier instruction. Tersely ([`terse`]), the mark alone says it replaces.
//!
//! The block is read back when a summary is folded again ([`read_block`]), so an
//! instruction outlives any number of compactions. What stays raw is not repeated.

use crate::message::{Message, Part, Role};

mod block_text;
mod decision;
mod overrides;
mod reply;
mod rule;
mod words;

pub use block_text::{
    STANDING_HEADER, block, block_tokens, lean_block, newest_terse, read_block, terse, tightened,
    without_block,
};
pub(crate) use overrides::subject_words;
pub(crate) use reply::reacts;
pub(crate) use words::asks;
pub(crate) use words::line_sentences;

use decision::*;
use overrides::*;
use reply::*;
use rule::*;
use words::*;

/// The longest instruction kept, in characters: a longer sentence is not an instruction
/// but a paste that happens to hold a "must".
const MAX_CHARS: usize = 400;

/// What an instruction is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A rule, constraint or preference that holds from now on.
    Rule,
    /// A choice made among options.
    Decision,
}

/// One instruction the user gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instruction {
    /// Rule or decision.
    pub kind: Kind,
    /// The user's words, verbatim (a sentence, or the whole short message).
    pub text: String,
    /// It overrides an earlier instruction.
    pub overrides: bool,
    /// The words of the instruction it replaced, when it names one (not when it starts
    /// over).
    pub replaced: Option<String>,
    /// The message of the later instruction that overrides it, if one does (read back
    /// from a block that marks it replaced by a later message: `usize::MAX`, a message
    /// after that summary).
    pub superseded: Option<usize>,
    /// The index of the message it was said in (among those read).
    pub message: usize,
}

/// Is `sentence` (any case) a rule, a decision, or neither?
pub fn kind_of(sentence: &str) -> Option<Kind> {
    // "I must stress that every condition report is to be photographed …": what is said
    // past the saying, when the whole reads as nothing.
    kind_as_worded(sentence).or_else(|| {
        let lower = crate::case::lowercase(sentence.trim());
        past_a_saying(&lower).and_then(kind_of)
    })
}

/// What `sentence` is, read as it is worded ([`kind_of`]).
fn kind_as_worded(sentence: &str) -> Option<Kind> {
    let text = sentence.trim();
    if text.ends_with('?') {
        // "I think (b) is the most defensible course, and she is content with it; would you
        // be good enough to draft it …?": what it states, then what it asks.
        if let Some((stated, _)) = text.split_once("; ")
            && !stated.contains('?')
            && !asks(&crate::case::lowercase(stated))
            && let Some(kind) = kind_of(stated)
        {
            return Some(kind);
        }
        return requests_a_rule(text)
            .or_else(|| asks_a_change(text).then_some(Kind::Decision))
            .or_else(|| confirmed(text).and_then(kind_of));
    }
    let lower = respelled(&crate::case::lowercase(text));
    // A favour asked without its mark ("so can you always tell me what … does.").
    let asked = asks(&lower);
    // "Change of heart on the date.": what changes, the next sentence says.
    if turns_on_a_topic(text) {
        return None;
    }
    if asked || text.len() < 8 || text.len() > MAX_CHARS {
        return asked
            .then(|| requests_a_rule(text).or(asks_a_change(text).then_some(Kind::Decision)))
            .flatten();
    }
    if reports_advice(&lower) || reports_scores(&lower) || muses(&lower) || reports_a_saying(&lower)
    {
        return None;
    } else if let Some(kind) = after_its_topic(&lower) {
        return Some(kind);
    } else if let Some(kind) = past_a_change(&lower).and_then(kind_of) {
        // "So we change, we use 'homemade' everywhere": the change announced, then what.
        return Some(kind);
    } else if relays_a_choice(&lower) {
        return Some(Kind::Decision);
    }
    let idiom = says_a_choice(text, &lower) || set_anew_now(text);
    let wonders = wonders(&lower);
    // "I'd rather not have a free tier at all": a preference against, a rule.
    let refuses = prefers_against(&lower);
    let decides = !wonders
        && !refuses
        && !says_any(&lower, DEFERRED)
        && !reports_a_proposal(&lower)
        && (((idiom || accepts_a_way(&lower) || agrees_on_a_pick(&lower)) && !is_personal(&lower))
            || (((marks_a_choice(&lower) && !says_any(&lower, UNDECIDED))
                || proposes(&lower)
                || commits(&lower)
                || judges_best(&lower))
                && speaks_for_the_work(&lower)
                && !tells_a_habit(&lower)));
    if decides && !says_any(&lower, GOING_ON) && !reports_the_past(&lower) {
        return Some(Kind::Decision);
    }
    // A rule may be one clause of the sentence: "I don't own a mixer, so don't suggest
    // anything that needs one."
    let rule = clauses(&lower).any(|clause| clause_orders(&lower, clause));
    let contrast = orders_with_contrast(&lower);
    // "customer emails stay out of the feature tables, full stop": stressed as it ends.
    let stressed = stressed_at_its_end(&lower) || requires_bare(&lower);
    let each_time = orders_each_time(&lower);
    (rule
        || contrast
        || stressed
        || each_time
        || refuses_ever(&lower)
        || labels_a_rule(&lower)
        || orders_gently(&lower))
    .then_some(Kind::Rule)
}

/// Does a sentence relay a choice made for the work by someone the user answers to ("the
/// finance committee has asked us to request $45,000 rather than $48,000")? Said to the
/// user, not a saying heard ([`reports_a_saying`]).
fn relays_a_choice(lower: &str) -> bool {
    [
        " asked us to ",
        " asked me to ",
        " told us to ",
        " told me to ",
        " wants us to ",
    ]
    .iter()
    .any(|asked| lower.contains(asked))
        && reported_order(lower).and_then(kind_of) == Some(Kind::Decision)
}

/// Does a clause foretell what one other person will do ("she'll bring three pies no
/// matter what anybody tells her", "he'll be late no matter what")? Not what they must
/// ("he'll have to sign in").
fn foretells(clause: &str) -> bool {
    let words = bare_words(clause);
    matches!(
        words.as_slice(),
        ["she'll" | "he'll", ..] | ["she" | "he", "will", ..]
    ) && !says_any(
        clause,
        &["have to", "has to", "must", "need to", "needs to"],
    )
}

/// Does a clause of a sentence (`lower`, in lower case) give an order that holds: marked
/// and said as an order, or in one of the forms a rule takes whatever marks it?
fn clause_orders(lower: &str, clause: &str) -> bool {
    if deduces(clause) || recalls_a_habit(clause) || owns_an_errand(clause) || foretells(clause) {
        return false;
    }
    // "the intro – like the cold open plus the theme – keep it under 90 seconds total":
    // the order after what it is about, set off by dashes.
    let after_dash = [" – ", " — "]
        .iter()
        .filter_map(|dash| clause.rsplit_once(dash).map(|(_, last)| last))
        .min_by_key(|last| last.len());
    if after_dash.is_some_and(|last| clause_orders(lower, last)) {
        return true;
    }
    // "I think anything in Latin should have a translation", "I should also say that
    // the narrative must remain within 2,500 words": the rule, said gently.
    let clause = past_a_lead_in(clause);
    // A clause that continues a sentence and opens with a quantifier or a
    // preposition is a fragment ("I picked three colours, all some shade of green";
    // "… of all places"; "… but no structure"), not an order, unless a strong mark
    // makes it one.
    // So is a few words that open with one ("Nothing perfect, just a sanity check"),
    // unless they forbid a thing ("No peanuts", "keep it clean — no swearing"), not
    // say what is missing ("… a rough premise but no structure").
    let forbids = forbids_here(lower, clause);
    let fragment = opens_a_fragment(clause)
        && !forbids
        && (continues(lower, clause) || clause.split_whitespace().count() < 4);
    // "(2am his time, as always)": as usual, no rule.
    let strong = (says_any(clause, STRONG_RULE_MARKS)
        && (!clause.contains("as always")
            || says_any(&clause.replace("as always", ""), STRONG_RULE_MARKS)))
        || (says_any(clause, LETS_NOT) && !paces(clause))
        || keeps_to(clause);
    let ordered = is_imperative(clause)
        || addresses_the_work(clause)
        || reported_order(clause).is_some_and(is_imperative)
        || bounds_itself(clause);
    let marked = marks_a_rule(clause);
    ((strong || (marked && !fragment)) && ordered)
        || binds(clause)
        || keeps_to(clause)
        || abstains(clause)
        || prohibits(clause)
        || bounds_a_class(clause)
        || sets_a_deadline(clause)
        || asks_everywhere(clause)
        || sets_the_replies(clause)
        || only_this(clause)
        || leaves_out(clause)
        || stays_so(clause)
        || someone_dislikes(clause)
        || sets_the_units(clause)
}

/// Does a clause set the form of the assistant's answers ("please answer me with short
/// sentences", "reply in plain English", "explain things in simple words", "write me short
/// answers")? How every answer is written, not one answer asked for ("answer this with a
/// yes or no").
fn sets_the_replies(clause: &str) -> bool {
    const FORMS: &[&str] = &[
        "short",
        "simple",
        "plain",
        "brief",
        "english",
        "bullet",
        "bullets",
        "sentences",
        "words",
        "paragraphs",
        "prose",
        "lowercase",
        "metric",
    ];
    let words: Vec<&str> = first_words(clause).into_iter().map(word).collect();
    let Some((verb, rest)) = words.split_first() else {
        return false;
    };
    let rest = match rest {
        ["to", "me", rest @ ..] | ["me" | "back" | "things", rest @ ..] => rest,
        rest => rest,
    };
    // "please write me short answers": the form, said of the answers themselves.
    let answers_of_a_form = *verb == "write"
        && matches!(rest, [form, "answers" | "replies" | "messages", ..] if FORMS.contains(form));
    answers_of_a_form
        || (one_of(verb, &["answer", "reply", "respond", "write", "talk", "explain"]) && matches!(rest.first(), Some(&("in" | "with" | "using")))
            && rest.iter().skip(1).take(3).any(|w| FORMS.contains(w))
            // "explain in two sentences": one answer's length.
            && !rest.iter().skip(1).take(3).any(|w| is_number(w)))
}

/// Is a clause a form asked for everywhere ("British spellings everywhere please", "please
/// use metric everywhere")? Not where a thing was found ("sand everywhere", "wrong terms
/// everywhere, I rewrote it").
fn asks_everywhere(clause: &str) -> bool {
    contains_phrase(clause, "everywhere") && contains_phrase(clause, "please")
}

/// Does a sentence hold a mark of a choice ([`DECISION_MARKS`])? Not "instead of" in what
/// the user does not want ("I don't want MLflow to become the source of truth instead of
/// the parquet files": a preference, a rule), nor "instead of" / "rather than" in what
/// holds from now on ("this applies to everything we write from now on: please say 'kids
/// and grown-ups' instead of 'children and parents'": a rule's contrast).
fn marks_a_choice(lower: &str) -> bool {
    const AGAINST: &[&str] = &[
        "i don't want",
        "we don't want",
        "i do not want",
        "we do not want",
    ];
    const HOLDS: &[&str] = &["from now on", "from here on", "going forward", "always"];
    DECISION_MARKS.iter().any(|mark| {
        contains_phrase(lower, mark)
            && (*mark != "instead of" || !says_any(lower, AGAINST))
            && (!one_of(mark, &["instead of", "rather than"]) || !says_any(lower, HOLDS))
            && (!mark.ends_with("rather") || !rather_a_manner(lower))
    })
}

/// Does a sentence say a choice in one of the forms that make it one whoever speaks
/// ("went with", "let's do X instead", "Put Ravi at table 3", "Sana handles the data")?
/// `lower` is `text` in lower case.
fn says_a_choice(text: &str, lower: &str) -> bool {
    let replaces =
        contains_phrase(lower, "replace") && lower.contains(" with ") && !edits_a_passage(lower);
    let now_doing = says_any(lower, NOW_DOING) && is_override(lower);
    says_any(lower, DECISION_IDIOMS)
        || accepts(lower)
        || leans_to(lower)
        || acts_bare(lower)
        || ends_instead(lower)
        || says_any(lower, REPLACING)
        || drops_a_choice(lower)
        || opens_dropping(lower)
        || orders_a_pick(lower)
        || names_a_pick(text)
        || places_a_person(text)
        || gives_a_part_to(text)
        || cast(text).is_some()
        || announces_a_choice(text)
        || named_anew(lower)
        || ends_choosing(lower)
        || settles(lower)
        || takes_the_role_now(lower)
        || does_as_a_plan(lower)
        || someone_chose(lower)
        || replaces
        || now_doing
        || plans_instead(lower)
        || takes_for_a_thing(lower)
        || goes_a_way(text)
        || settles_in_short(lower)
        || scales(lower).is_some()
        || gathers_at(lower, text)
        || decided_in_passive(lower)
        || reflects(lower)
        // "Keep Harborview, but move the gala to Friday, November 14": a change, with what
        // stays.
        || clauses(lower).any(changes_to)
}

/// Does a sentence change the work on reflection ("Upon reflection, the fire and rehire
/// code should take the lead position", "On reflection, stars and planets would suit us
/// better")? What the work is to be, not how the speaker now feels ("Upon reflection, I am
/// persuaded by your earlier remark").
fn reflects(lower: &str) -> bool {
    ["on reflection, ", "upon reflection, "]
        .iter()
        .find_map(|mark| lower.split_once(mark))
        .is_some_and(|(_, rest)| {
            !one_of(rest.split(' ').next().unwrap_or(""), &["i", "i'm", "i've"])
        })
}

/// Does "we're going" name the way it goes ("We're going IKEA boxes with custom fronts",
/// "We're going 3-2-3 this season")? A name or a number after it, not "going to", not
/// "going home".
fn goes_a_way(text: &str) -> bool {
    let words = bare_words(past_opener(text));
    let going = match words.as_slice() {
        [we, "going", next, ..] | [we, "are", "going", next, ..]
            if one_of(crate::case::lowercase(we).as_str(), &["we're", "we"]) =>
        {
            Some(next)
        }
        _ => None,
    };
    going.is_some_and(|next| next.starts_with(|c: char| c.is_uppercase() || c.is_ascii_digit()))
}

/// A requirement said in shorthand, the thing then "required" ("py3.8 compat required",
/// "sign-off from legal mandatory"): not a statement with its verb ("compat is required"
/// reads as a rule already), nor what is not needed ("no changes required").
fn requires_bare(lower: &str) -> bool {
    clauses(lower).any(|clause| {
        let words: Vec<&str> = clause.split_whitespace().map(word).collect();
        let Some((last, thing)) = words.split_last() else {
            return false;
        };
        one_of(last, &["required", "mandatory"])
            && (1..=4).contains(&thing.len())
            && !SUBJECTS.contains(&thing[0])
            && !thing.iter().any(|w| {
                one_of(
                    w,
                    &[
                        "is", "are", "was", "were", "be", "been", "not", "no", "nothing", "what",
                        "anything", "if", "whatever", "whether",
                    ],
                )
            })
    })
}

/// Does a sentence (lower case) wonder about a choice, or set a rule for any choice? "One of
/// my engineers asked whether we should use X": a question reported; "whatever we pick has
/// to be easy to clean": a rule for any choice. Not "an estate sale for whatever's left": a
/// thing, named.
fn wonders(lower: &str) -> bool {
    says_any(
        &lower.replace("whatever's", "what's"),
        &[
            "whether",
            "wondering if",
            "wonder if",
            "asked if",
            "know if",
            "whatever",
            "whichever",
        ],
    )
}

/// Does a sentence ask for a passage of the text to be replaced ("Please replace that line
/// with something that stands on its own", "replace the intro paragraph with a shorter
/// one")? An edit of the draft, not a choice that replaces another.
fn edits_a_passage(lower: &str) -> bool {
    const PASSAGES: &[&str] = &[
        "line",
        "lines",
        "sentence",
        "sentences",
        "paragraph",
        "paragraphs",
        "phrase",
        "word",
        "words",
        "wording",
        "bullet",
        "bullets",
        "heading",
        "bit",
        "part",
        "section",
        "intro",
        "ending",
        "opener",
    ];
    lower.match_indices("replace").any(|(at, _)| {
        lower[at..]
            .split_whitespace()
            .skip(1)
            .take_while(|w| *w != "with")
            .take(4)
            .any(|w| PASSAGES.contains(&word(w)))
    })
}

/// What a sentence (lower case) says after announcing a change in a few words and a
/// comma ("so we change, we use 'homemade' everywhere", "change of plan, we drive").
fn past_a_change(lower: &str) -> Option<&str> {
    let start = ["so ", "ok so ", "ok ", "okay "]
        .iter()
        .find_map(|opener| lower.strip_prefix(opener))
        .unwrap_or(lower);
    [
        "we change, ",
        "we change it, ",
        "change of plan, ",
        "new plan, ",
    ]
    .iter()
    .find_map(|turn| start.strip_prefix(turn))
}

/// The kind of the order of a sentence that names what it is for first ("for the candles
/// make it 8 not 5", "actually, for the venue use the barn"): what follows the topic, when
/// it is an order. `lower` is lower case.
fn after_its_topic(lower: &str) -> Option<Kind> {
    let start = [
        "actually ",
        "actually, ",
        "ok ",
        "ok, ",
        "and ",
        "also ",
        "so ",
    ]
    .iter()
    .find_map(|opener| lower.strip_prefix(opener))
    .unwrap_or(lower);
    let topic = start.strip_prefix("for ")?;
    // "for now …", "for example …": when, or how it is said, not what it is for.
    let first = topic.split_whitespace().next().map(word);
    if first.is_some_and(|w| {
        one_of(
            w,
            &[
                "now", "example", "instance", "once", "what", "sure", "real", "me", "us",
            ],
        )
    }) {
        return None;
    }
    // The order starts within a few words of "for", right after the topic or its comma
    // ("for the Q3 report, use the new template").
    topic
        .match_indices(' ')
        .take(4)
        .map(|(at, _)| &topic[at + 1..])
        .take_while(|rest| {
            let named = topic[..topic.len() - rest.len()].trim_end();
            !named.trim_end_matches(',').contains(',')
        })
        .filter(|rest| is_imperative(rest))
        .find_map(kind_of)
}

/// A rule asked for as a favour ("can you keep your replies under 150 words?", "a small
/// ask: could you give me quantities in grams from now on?"): what is asked, read as an
/// order, when it is a rule. A thing asked once ("can you book the 9:40?") stays a
/// question.
fn requests_a_rule(question: &str) -> Option<Kind> {
    const FROM_NOW: &[&str] = &["from now on", "from here on", "going forward", "in future"];
    let lowered = crate::case::lowercase(question);
    // "Also, from now on could you write dates out like 6 March?": asked to hold from now
    // on, said before the favour.
    let mut held = false;
    // Where the order starts; the lowercase keeps every offset ([`crate::case`]).
    let start = ["can you ", "could you ", "would you "]
        .iter()
        .find_map(|ask| {
            lowered
                .match_indices(ask)
                .find(|&(at, _)| {
                    let before = lowered[..at].trim_end();
                    held = FROM_NOW
                        .iter()
                        .any(|now| before.trim_end_matches(',').ends_with(now));
                    held || before.is_empty()
                        || before.ends_with([',', ':', '-'])
                        || before
                            .rsplit(' ')
                            .next()
                            .is_some_and(|last| ["so", "and", "also", "but"].contains(&last))
                })
                .map(|(at, _)| at + ask.len())
        })?;
    let trim = |s: &str| -> usize { s.len() - s.trim_start_matches("please ").len() };
    let start = start + trim(&lowered[start..]);
    let order = question[start..].trim_end_matches('?');
    let lower = lowered[start..].trim_end_matches('?');
    // It holds from now on, or bounds what is asked: "could you give me eight or ten
    // tagline options that would work across all three segments?" asks once.
    let standing = held
        || says_any(lower, FROM_NOW)
        || says_any(lower, &["always", "never", "every time", "at most", "no more than"])
        || (says_any(lower, &["under", "below", "within"])
            && lower.contains(|c: char| c.is_ascii_digit()))
        || formats_a_class(lower)
        // "can you keep the messages to tenants short and friendly, no legal jargon": how
        // all of a kind is written, with what it must leave out.
        || excludes(lower)
        // "can you give me distances in km, not miles?": the form things are given in.
        || lower
            .split_once(", not ")
            .is_some_and(|(form, _)| says_any(form, &["in"]));
    (standing && kind_of(order) == Some(Kind::Rule)).then_some(Kind::Rule)
}

/// Is a question the user's change of a part of the work, asked politely ("May we change
/// the title to 'Light in Midwinter', please?", "can we move the gala to the 14th?")? The
/// change is the user's to make; asking is the form. Not "should we change …?", which
/// wonders.
fn asks_a_change(question: &str) -> bool {
    let lower = crate::case::lowercase(question);
    let lower = past_opener(&lower);
    // "Slight change, can we move batch cooking to Saturday afternoons instead?"
    let lower = [
        "slight change",
        "small change",
        "quick change",
        "one change",
    ]
    .iter()
    .find_map(|label| lower.strip_prefix(label))
    .map_or(lower, |rest| {
        rest.trim_start_matches([',', ':', ' ', '—', '-'])
    });
    // "Looking at how much noise there is already — can we switch to typer instead?":
    // the ask after what led to it.
    let after_dash = lower.rsplit_once(" — ").map(|(_, ask)| ask);
    std::iter::once(lower).chain(after_dash).any(asks_to_change)
}

/// Does a question (lower case, its opener gone) ask for a change in so many words ("can
/// we move …", "could you swap the fishing story for the bike one?")?
fn asks_to_change(lower: &str) -> bool {
    [
        "may we ",
        "can we ",
        "could we ",
        "can you ",
        "could you ",
        "would you ",
        "would it be possible to ",
        "is it possible to ",
    ]
    .iter()
    .find_map(|ask| lower.strip_prefix(ask))
    .map(|order| order.strip_prefix("please ").unwrap_or(order))
    // "can you change this paragraph to be shorter?": an edit asked once.
    // "Can we swap the fishing story for the bike one?"
    .is_some_and(|order| {
        (changes_to(order) || (order.starts_with("swap ") && order.contains(" for ")))
            && !edits_a_passage(order)
            && !contains_phrase(order, "to be")
    })
}

/// Does an order set the form of a whole class of things ("give all times in 24 hour
/// format", "write every email in British English", "put all prices in euros"): "all",
/// "every" or "each" before a bare noun, then how it is given? Not a set named once ("all
/// the options in a table").
fn formats_a_class(lower: &str) -> bool {
    let words: Vec<&str> = lower.split_whitespace().map(word).collect();
    words.windows(3).any(|w| {
        one_of(w[0], &["all", "every", "each"])
            && !one_of(
                w[1],
                &[
                    "the", "of", "my", "your", "our", "these", "those", "this", "that",
                ],
            )
            && one_of(w[2], &["in", "as"])
    })
}

/// `text` without the sentences that are instructions, line by line: what else the user
/// said. An instruction is carried by the block of standing ones while it stands, and
/// never quoted once a later one replaced it.
pub fn without_instructions(text: &str) -> String {
    let mut fenced = false;
    text.lines()
        .map(|line| {
            let trimmed = line.trim_start();
            if trimmed.starts_with("```") {
                fenced = !fenced;
                return line.to_owned();
            }
            // Code and quoted material are not the user's instructions (`sentences`).
            if fenced || trimmed.starts_with('>') {
                return line.to_owned();
            }
            let kept: Vec<&str> = sentences(line)
                .into_iter()
                .filter(|sentence| kind_of(sentence).is_none())
                .collect();
            kept.join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Does a sentence tell a habit where it would choose ("I always go with lemon")? Not a
/// habit given as the reason after a choice: "Let's make Sunday the batch cooking day, I'm
/// usually round on Sundays anyway."
fn tells_a_habit(lower: &str) -> bool {
    let first = first_clause(lower);
    let chooses_first = marks_a_choice(first) || proposes(first);
    clauses(lower)
        .enumerate()
        .any(|(at, clause)| is_habit(clause) && (at == 0 || !chooses_first))
}

/// Is `message` the user's own words (not a tool's output carried in a user turn, not a
/// summary, not an agent's observation)?
fn is_users_words(message: &Message) -> bool {
    message.role == Role::User
        && !message.is_compaction()
        && !message
            .parts
            .iter()
            .any(|p| matches!(p, Part::ToolResult(_)))
}

/// The instructions of `messages` (oldest first): the user's words, and the blocks of
/// earlier summaries read back; each marked superseded where a later one overrides it.
/// `is_output` tells a user message that carries a tool's output (a text-action agent's
/// observation) from the user's words.
pub fn instructions(messages: &[&Message], is_output: impl Fn(usize) -> bool) -> Vec<Instruction> {
    let mut found: Vec<Instruction> = Vec::new();
    // The words of each instruction of `found`, beside it.
    let mut words: Vec<Words> = Vec::new();
    // Read only once a decision needs them: most of an agent's run offers no choice.
    let offers = std::cell::OnceCell::new();
    let task = task_at(messages, &is_output);
    let mut discussed = Discussed::default();
    for (index, message) in messages.iter().enumerate() {
        if let Some(meta) = &message.compaction {
            for mut instruction in read_block(&meta.summary_text) {
                instruction.message = index;
                // Replaced by a message after that summary: among these, the override
                // says so again.
                instruction.superseded = None;
                words.push(Words::of(&instruction.text));
                found.push(instruction);
            }
            continue;
        }
        if !is_users_words(message) || is_output(index) {
            continue;
        }
        let text = message.text();
        let kinds = kinds_in(
            &text,
            task == Some(index),
            asked_before(messages, index),
            discussed.up_to(messages, index),
        );
        if kinds.is_empty() {
            continue;
        }
        // Whether it overrides is read in its own sentences, not in what else the message
        // says around them.
        let overriding = kinds.iter().any(|(_, sentence)| is_override(sentence));
        // The words of the whole message, for an override whose own words name nothing.
        let around = subject_words(&text);
        let listed = text.trim().contains('\n');
        // `said`: the sentences that make it an instruction, which tell what it is about.
        let mut add = |kind: Kind, text: &str, said: &str, override_said: bool| {
            let kind = kind_as_said(kind, &found, &words, text, index);
            let (about, offer) = about(kind, said, index, || {
                offers.get_or_init(|| offers_in(messages, &is_output))
            });
            let mut read = Words::read(text, about, said, offer);
            read.list = lettered_list_before(messages, index, read.label.as_deref());
            let overrides = !found.is_empty()
                && (override_said
                    || (kind == Kind::Decision
                        && decides_again(&found, &words, (text, said, index), &read)));
            let mut replaced = None;
            if overrides {
                let head = override_head(said);
                let turn = Turn {
                    message: index,
                    kind,
                    read: &read,
                    head: &head,
                    around: &around,
                    values: &values_of(said),
                    text,
                    points_back: refers_back(text),
                };
                replaced = take_back(&mut found, &words, &turn, (text, said), override_said)
                    .map(|at| found[at].text.clone());
            }
            found.push(Instruction {
                kind,
                text: as_written(text, listed).to_owned(),
                overrides,
                replaced,
                superseded: None,
                message: index,
            });
            words.push(read);
        };
        if stands_whole(&text, &kinds, overriding) {
            let decides = kinds.iter().any(|(k, _)| *k == Kind::Decision);
            let kind = if decides { Kind::Decision } else { Kind::Rule };
            let said: Vec<&str> = kinds.iter().map(|(_, sentence)| *sentence).collect();
            add(kind, text.trim(), &said.join(" "), overriding);
        } else {
            for (kind, sentence) in kinds {
                add(kind, sentence, sentence, is_override(sentence));
            }
        }
    }
    found
}

/// The task: the first of the user's own messages, where the plan the work starts from is
/// stated.
fn task_at(messages: &[&Message], is_output: &impl Fn(usize) -> bool) -> Option<usize> {
    messages
        .iter()
        .enumerate()
        .position(|(i, m)| m.compaction.is_none() && is_users_words(m) && !is_output(i))
}

/// Is a message's instruction the whole message, with its reasons, as the user put it? A
/// short one of one kind, or one that overrides. A rule and a choice in one message stand
/// apart, and so do two choices ("let's go with the RAV4. also we're paying cash"): taking
/// one back keeps the other.
fn stands_whole(text: &str, kinds: &[(Kind, &str)], overriding: bool) -> bool {
    let short = text.trim().len() <= MAX_CHARS / 2 && !text.contains('\n');
    let one = kinds.iter().all(|(k, _)| *k == kinds[0].0)
        && (kinds[0].0 == Kind::Rule || kinds.len() == 1);
    short && (one || overriding)
}

/// What a sentence that reads as nothing whole says in one of its parts: the instruction
/// after the topic it answers ("format — use the avro converter …", "what counts as
/// errors: we'll exclude 429s"), before a list, or a rule said aside ("I do big pieces
/// (two clients a day max, my wrist's not what it was)").
fn kind_in_a_part(sentence: &str) -> Option<Kind> {
    after_label(sentence)
        .and_then(kind_of)
        .or_else(|| before_list(sentence).and_then(kind_of))
        .or_else(|| {
            aside(sentence)
                .and_then(kind_of)
                .filter(|k| *k == Kind::Rule)
        })
}

/// The sentences of a user's message that are instructions, each with its kind: a plan
/// the task states is a decision, and so is a short reply that picks one of the options
/// the assistant's message before it (`asked`) offered.
fn kinds_in<'t>(
    text: &'t str,
    is_task: bool,
    asked: Option<&Message>,
    discussed: &[String],
) -> Vec<(Kind, &'t str)> {
    let mut kinds: Vec<(Kind, &'t str)> = Vec::new();
    let required = required_items(text);
    let said = sentences(text);
    let mut pending = Pending::default();
    for (at, &sentence) in said.iter().enumerate() {
        if frames(sentence) {
            continue;
        }
        let kind = kind_in_place(sentence, at + 1 == said.len());
        if pending.carries(&mut kinds, text, sentence, kind) {
            continue;
        }
        if let Some(before) = at.checked_sub(1).map(|b| said[b])
            && let Some(&(last_kind, _)) = kinds.last()
            && continues_the_last(text, &kinds, before, sentence, kind)
        {
            said_with(&mut kinds, text, before, sentence, last_kind);
            continue;
        }
        if let Some(before) = at.checked_sub(1).map(|b| said[b])
            && let Some(joined) = joins_the_one_before(text, before, sentence, kind)
        {
            said_with(&mut kinds, text, before, sentence, joined);
            continue;
        }
        if let Some(before) = at.checked_sub(1).map(|b| said[b])
            && stresses_the_one_before(before, sentence, kind)
        {
            // "snake_case in JSON. always.", "static IP for the pi. not a DHCP
            // reservation", "tabs. not spaces. ever.": the words before, stressed, are
            // a rule, said with the stress.
            said_with(&mut kinds, text, before, sentence, Kind::Rule);
        } else if is_task && states_a_plan(&crate::case::lowercase(sentence)) {
            // "Plan is to keep the existing layout and just replace the cabinets": the
            // plan, though it reads as an order.
            kinds.push((Kind::Decision, sentence));
        } else if revokes(sentence) {
            // "forget what i said about the ten minute thing": a rule taken back, stated
            // so that the summary says so.
            kinds.push((Kind::Rule, sentence));
        } else if takes_back_outright(sentence) {
            // "Update: the migrations are managed with Sqitch from now on": a choice
            // replaced, though it reads as a rule.
            kinds.push((Kind::Decision, sentence));
        } else if kind == Some(Kind::Decision) && picks_only_a_place(sentence) {
            // "b) it is. 3 + 1 + 1, extensions at our discretion": the terms after it.
            pending.picked = Some(sentence);
        } else if unmarked(sentence) {
            // Long speech with no mark in it (dictated, "ok so saturdays at the riverside
            // market … so forget it elm park on sundays instead …"): its parts, each read
            // alone, not the whole read by its strongest word.
            kinds.extend(kinds_of_parts(sentence, asked.filter(|_| at == 0)));
        } else if let Some(kind) = kind {
            kinds.push((kind, sentence));
        } else if let Some(kind) = kind_in_a_part(sentence) {
            kinds.push((kind, sentence));
        } else if sentence.len() > MAX_CHARS {
            // A long run-on sentence that reads as nothing whole: its parts, each read
            // alone ("… so — we're switching to rooflights instead of the dormer, three on
            // the back slope …").
            kinds.extend(kinds_of_parts(sentence, asked.filter(|_| at == 0)));
        } else if turns(sentence) {
            // "Change of heart on the date.": before it reads as what was asked, settled.
            pending.turning = Some(sentence);
        } else if !leaves_open(sentence)
            && (settles_what_was_asked(sentence, discussed, asked.filter(|_| at == 0))
                || asked.is_some_and(|m| {
                    let listed = m.text();
                    ((at == 0 || closes_on_then(sentence)) && picks_an_option(&listed, sentence))
                        || picks_anywhere(&listed, sentence)
                        || (at == 0 && sets_a_listed_value(&listed, sentence))
                }))
        {
            // "pgloader for the bulk copy", "imerovigli. the quiet thing sold me …": what
            // was asked, settled.
            if picks_only_a_place(sentence) {
                pending.picked = Some(sentence);
            } else {
                kinds.push((Kind::Decision, sentence));
            }
        } else if required.iter().any(|line| within(sentence, line)) {
            kinds.push((Kind::Rule, sentence));
        } else if let Some(kind) = said_unmarked(sentence, is_task) {
            // "For a gala, I think live music makes it feel like an occasion, so book The
            // Late Shift.": the reasons first, then what is done about them, kept with
            // them ("… she uses a wheelchair, so every session has to happen somewhere
            // she can reach with ease").
            kinds.push((kind, sentence));
        }
    }
    pending.close(&mut kinds);
    if kinds.is_empty()
        && !leaves_open(text.trim())
        && !reacts(&crate::case::lowercase(text.trim()))
        && !tells_what_happened(&crate::case::lowercase(text.trim()))
        && asked.is_some_and(|m| answers_a_choice(&m.text(), text.trim()))
    {
        kinds.push((Kind::Decision, text.trim()));
    }
    kinds
}

/// Does a sentence only frame what the others say: a heading, which names what the lines
/// under it say ("### Screen count"), or a letter's greeting or sign-off ([`greets`])?
fn frames(sentence: &str) -> bool {
    (sentence.trim_start().starts_with('#') && !sentence.contains(['.', '!', ':']))
        || greets(sentence)
}

/// What a sentence that reads as nothing alone says all the same: a line of the schedule
/// ("Bid close on the 18th.", set; the task's are what is so: "HM PB 1:39:10 (Apr)"), or
/// what is done about the reasons said first ([`consequence`]).
fn said_unmarked(sentence: &str, is_task: bool) -> Option<Kind> {
    (!is_task && schedules(sentence))
        .then_some(Kind::Decision)
        .or_else(|| consequence(sentence))
}

/// What a sentence leaves for the one after it to say ([`kinds_in`]).
#[derive(Default)]
struct Pending<'t> {
    /// "scratch offset.", "Change of plan!": a short override on its own, which the
    /// sentence after it says.
    turning: Option<&'t str>,
    /// The sentence that said what a turn replaced with.
    turned: Option<&'t str>,
    /// "The second one.": a pick by place alone, which the sentence after it names.
    picked: Option<&'t str>,
}

impl<'t> Pending<'t> {
    /// Does `sentence` (of `kind`) say what the sentence before it left pending, read into
    /// `kinds` with it?
    fn carries(
        &mut self,
        kinds: &mut Vec<(Kind, &'t str)>,
        text: &'t str,
        sentence: &'t str,
        kind: Option<Kind>,
    ) -> bool {
        let asks = sentence.trim_end().ends_with('?');
        if let Some(pick) = self.picked.take() {
            match span(text, pick, sentence) {
                Some(both) if kind.is_none() && !asks => {
                    // "The second one. 14 days is plenty.": the pick, with what it is.
                    kinds.push((Kind::Decision, both));
                    return true;
                }
                _ => kinds.push((Kind::Decision, pick)),
            }
        }
        if let Some(turn) = self.turning.take()
            && !asks
            && let Some(both) = span(text, turn, sentence)
        {
            // "scratch offset. cursor-based pagination for everything.": the sentence
            // after the turn is what replaces, whatever its form; an order with no mark of
            // a rule is a choice ("actually no. start with the host intro, the classic
            // way").
            let lower = crate::case::lowercase(sentence);
            let kind = match kind {
                Some(Kind::Rule)
                    if !says_any(&lower, STRONG_RULE_MARKS) && !marks_a_rule(&lower) =>
                {
                    Kind::Decision
                }
                kind => kind.unwrap_or(Kind::Decision),
            };
            kinds.push((kind, both));
            self.turned = Some(sentence);
            return true;
        }
        if let Some(before) = self.turned.take()
            && kind.is_none()
            && says_any(&crate::case::lowercase(sentence), &["instead"])
        {
            // "we've changed it. Anselm lives. He loses his sight instead.": what the
            // replacing choice gives up, said with it.
            said_with(kinds, text, before, sentence, Kind::Decision);
            return true;
        }
        false
    }

    /// What is still pending at the message's end, read into `kinds`: a pick by place, and
    /// an option dropped with nothing after it ("Bad news. The boat trip is off.").
    fn close(self, kinds: &mut Vec<(Kind, &'t str)>) {
        if let Some(pick) = self.picked {
            kinds.push((Kind::Decision, pick));
        }
        if let Some(turn) = self.turning.filter(|turn| drops_alone(turn)) {
            kinds.push((Kind::Decision, turn));
        }
    }
}

/// Does `sentence` stress the one `before` it, making both one rule ("snake_case in JSON.
/// always.")? Not "Not Berlin after all — Amsterdam then", an instruction of its own; but
/// "never numeric.", a rule that says what the one before it was.
fn stresses_the_one_before(before: &str, sentence: &str, kind: Option<Kind>) -> bool {
    let stressed = stresses(sentence)
        && (is_pure_stress(sentence)
            || kind.is_none()
            || (kind == Some(Kind::Rule) && sentence.split_whitespace().count() <= 3));
    (stressed || stresses_it_back(sentence)) && !before.trim_end().ends_with('?')
}

/// Does a sentence open by stressing what was said before it, pointing back, whatever
/// reasons follow ("That one's non-negotiable, the CFO's laptop died two days before
/// quarter close")?
fn stresses_it_back(sentence: &str) -> bool {
    let lower = crate::case::lowercase(sentence.trim());
    let first = lower.split([',', ';', '—']).next().unwrap_or("");
    [
        "that's ",
        "that one's ",
        "that is ",
        "this is ",
        "that one is ",
    ]
    .iter()
    .find_map(|lead| first.strip_prefix(lead))
    .is_some_and(is_pure_stress)
}

/// Does a sentence turn away from a choice, leaving the sentence after it to say what
/// replaces it: a short override on its own ("scratch offset.", "Change of plan!"; not a
/// mere opener, "Hmm.", "Wait."), or a change announced at its end?
fn turns(sentence: &str) -> bool {
    (sentence.split_whitespace().count() <= 4
        && [OVERRIDE_MARKS, REPLACING]
            .iter()
            .any(|marks| says_any(&crate::case::lowercase(sentence), marks)))
        || announces_the_next(sentence)
        || announces_a_change(&crate::case::lowercase(sentence))
        || turns_on_a_topic(sentence)
        || drops_alone(sentence)
        || says_no_again(sentence)
}

/// Is a sentence a "no" said on second thought, and nothing more ("hmm - actually no -
/// start with the host intro", "Wait, no.")? The sentence after it says what replaces.
fn says_no_again(sentence: &str) -> bool {
    let lower = crate::case::lowercase(sentence.trim());
    let words = bare_words(&lower);
    words.iter().any(|w| one_of(w, &["no", "nope", "nah"]))
        && words.iter().any(|w| one_of(w, &["actually", "wait"]))
        && words.iter().all(|w| {
            one_of(
                w,
                &[
                    "no", "nope", "nah", "actually", "wait", "hmm", "hm", "oh", "um", "ok",
                ],
            )
        })
}

/// Is a sentence a change announced on a topic, and nothing more ("Change of heart on the
/// date.", "Change of plan for the venue!")? The sentence after it says what it is.
fn turns_on_a_topic(sentence: &str) -> bool {
    let lower = crate::case::lowercase(sentence.trim());
    let Some(rest) = ["change of plan ", "change of heart ", "new plan "]
        .iter()
        .find_map(|turn| lower.strip_prefix(turn))
    else {
        return false;
    };
    ["on ", "for ", "about ", "re "]
        .iter()
        .any(|on| rest.starts_with(on))
        && rest.ends_with(['.', '!'])
        && !rest.contains([':', ',', ';'])
        && rest.split_whitespace().count() <= 5
}

/// Does a sentence end by announcing a change it does not say ("So, I talked to Dev, and
/// we've changed it.", "Decision made.")? The sentence after it says what was chosen.
fn announces_the_next(sentence: &str) -> bool {
    const ANNOUNCED: &[&str] = &[
        "changed it",
        "changed that",
        "changed our minds",
        "changed my mind",
        "we've decided",
        "i've decided",
        "decision made",
        "change of plan",
        "new plan",
    ];
    let lower = crate::case::lowercase(sentence.trim());
    let bare = lower.trim_end_matches(['.', '!', ':']).trim_end();
    !lower.ends_with('?') && ANNOUNCED.iter().any(|said| bare.ends_with(said))
}

/// Does a clause of a sentence (lower case) bring news that a thing of the work changed,
/// without saying to what ("I write with a change.", "Also a change in the calendar, …",
/// "(Oh, and the title changed, I forgot to mention.)")? What follows says it.
pub(super) fn announces_a_change(lower: &str) -> bool {
    clauses(lower).any(|clause| {
        let words = bare_words(past_opener(clause));
        match words.as_slice() {
            ["i", "write" | "am" | "come", "with", "a", "change"]
            | [
                "a" | "one",
                "change",
                "in" | "to" | "on" | "of",
                "the" | "our",
                ..,
            ] => words.len() <= 6,
            ["the" | "our", thing @ .., "changed"] => {
                let named = thing.iter().filter(|w| !one_of(w, &["has", "have"]));
                (1..=3).contains(&named.count())
            }
            _ => false,
        }
    })
}

/// What a sentence says after a short label that names its topic ("format — …", "for
/// jquery — …", "what counts as errors: …"), if it opens with one.
fn after_label(sentence: &str) -> Option<&str> {
    if let Some(rest) = after_topic(sentence) {
        return Some(rest);
    }
    let (at, mark) = [": ", " — ", " – ", " - "]
        .iter()
        .filter_map(|mark| sentence.find(mark).map(|at| (at, mark.len())))
        .min()?;
    // "Right, the delivery model: …": the label past its opener.
    let label = past_opener(&sentence[..at]);
    let rest = sentence[at + mark..].trim();
    // A topic, not a clause of its own ("wait, I realize — …", "would a simpler option
    // be: …?", "separate q, does Vary: …").
    let topic = (1..=5).contains(&label.split_whitespace().count())
        && !label.contains(',')
        && !label.split_whitespace().any(|w| {
            one_of(
                crate::case::lowercase(word(w)).as_str(),
                &[
                    "i", "we", "you", "he", "she", "they", "it", "would", "should", "does", "do",
                    "is", "are", "can", "could",
                ],
            )
        });
    (topic && !sentence.trim_end().ends_with('?') && rest.split_whitespace().count() >= 3)
        .then_some(rest)
}

/// What a sentence says before the list it introduces ("actually one shared warehouse per
/// workload type instead: BI_WH, ADHOC_WH, TRANSFORM_WH").
fn before_list(sentence: &str) -> Option<&str> {
    let (head, list) = sentence.split_once(": ")?;
    (list.contains(", ") && head.split_whitespace().count() >= 3).then_some(head)
}

/// What a sentence says after the topic it opens with ("For the reception, we are renting
/// Salón Los Arcos", "For Saturday night dinner we're doing Bottega", "Regarding open
/// forum, let us cap it at 20 minutes"): from the comma that closes the topic, or from
/// the words that speak for the work.
fn after_topic(sentence: &str) -> Option<&str> {
    const TOPICS: &[&str] = &["for ", "regarding ", "as for ", "as to ", "re "];
    const SPEAKERS: &[&str] = &["we", "we're", "we'll", "i'm", "i'll", "let's", "let"];
    let lower = crate::case::lowercase(sentence);
    if !TOPICS.iter().any(|t| lower.starts_with(t)) || lower.len() != sentence.len() {
        return None;
    }
    let mut at = 0;
    for (n, w) in lower.split_inclusive(' ').enumerate().take(8) {
        let bare = word(w);
        if n > 1 && SPEAKERS.contains(&bare) {
            return Some(sentence[at..].trim());
        }
        at += w.len();
        if w.trim_end().ends_with(',') && n >= 1 {
            return Some(sentence[at..].trim());
        }
    }
    None
}

/// Does `sentence` carry on, on its line, the instruction that ends with the sentence
/// `before` it (the last of `kinds`)? It says more of it ("Under $1,800 all in. Hard
/// limit.", "back to plain table salt. Non-iodized."), or, a decision that takes something
/// back, says what replaces the choice `before` dropped ("ok scrap the single root cause.
/// list contributing factors instead", "scrap the Cuba hook. start with Yalta 1945").
fn continues_the_last(
    text: &str,
    kinds: &[(Kind, &str)],
    before: &str,
    sentence: &str,
    kind: Option<Kind>,
) -> bool {
    let Some(&(last_kind, last)) = kinds.last() else {
        return false;
    };
    let adds = (last.as_ptr() == before.as_ptr() || within(before, last))
        && kind.is_none_or(|own| own == last_kind)
        && says_more(sentence);
    // "scrap the Cuba hook. start chronologically with Yalta 1945": an order with no
    // mark of its own says what replaces, too.
    let says_what_replaces = (kind == Some(Kind::Decision) && is_override(sentence))
        || (kind.is_none()
            && !sentence.trim_end().ends_with('?')
            && is_imperative(&crate::case::lowercase(sentence)));
    let replaces = last_kind == Kind::Decision
        && last.as_ptr() == before.as_ptr()
        && drops(&crate::case::lowercase(before))
        && says_what_replaces;
    // "Agnes. C, without question — …": a pick by name, then by its label.
    let by_label = last_kind == Kind::Decision
        && last.as_ptr() == before.as_ptr()
        && before.split_whitespace().count() <= 3
        && leads_with_a_letter(&crate::case::lowercase(sentence)).is_some();
    // "ok lets do thursday. the 12th.": the date of the choice just made.
    let dates_it = last_kind == Kind::Decision
        && last.as_ptr() == before.as_ptr()
        && bare_words(sentence).len() <= 3
        && sets_a_date_or_time(sentence);
    (adds || replaces || by_label || dates_it)
        && span(text, before, sentence).is_some_and(|both| !both.contains('\n'))
}

/// The kind of the instruction `sentence` makes with the one `before` it, when it is
/// one with it: it points back at what `before` names ("Now write me the package
/// descriptions. Keep each one under 80 words.", "Edric Vane and the drowned daughter,
/// perfect. I take this."), or seals it ("The title is Salt Year. final.": the words
/// before, settled).
fn joins_the_one_before(
    text: &str,
    before: &str,
    sentence: &str,
    kind: Option<Kind>,
) -> Option<Kind> {
    if let Some(kind) = kind
        && leans_back(sentence)
        && before.len() <= MAX_CHARS / 2
        && span(text, before, sentence).is_some_and(|both| !both.contains('\n'))
    {
        return Some(kind);
    }
    (seals(sentence) && !before.trim_end().ends_with('?')).then_some(Kind::Decision)
}

/// Does an instruction name what it is about only by pointing back ("Keep each one under
/// 80 words.", "I take this.", "Book that one.", "Call them Essential, Classic and
/// Heirloom.")? A few words that end on the pointer, "each one", "all of them", or a name
/// given to what was named before.
fn leans_back(sentence: &str) -> bool {
    let lower = crate::case::lowercase(sentence);
    let words = bare_words(&lower);
    let ends_pointing = match words.as_slice() {
        [.., "this" | "that", "one"] => true,
        [.., last] => one_of(last, &["this", "that", "it", "these", "those", "them"]),
        [] => false,
    };
    says_any(
        &lower,
        &[
            "each one",
            "each of them",
            "all of them",
            "both of them",
            "every one of them",
        ],
    ) || (words.len() <= 6 && ends_pointing)
        // "Call them Essential, Classic and Heirloom", "Name it after the street": what is
        // named, named before.
        || matches!(
            words.as_slice(),
            ["call" | "name" | "title" | "label" | "rename", "it" | "them" | "these" | "those", ..]
        )
}

/// Does a sentence (lower case) drop a choice ("ok scrap the single root cause", "ditch
/// the cron job")?
fn drops(lower: &str) -> bool {
    drops_a_choice(lower)
        || first_words(lower)
            .first()
            .map(|w| word(w))
            .is_some_and(|verb| DROPS.contains(&verb) || verb == "cancel")
}

/// The kind of a sentence where it stands: "Drop it.", "So: kill the Marlow lede." is a
/// turn ([`turns`]) when a sentence follows to say what replaces it ("Drop it.\nAppend-only
/// into a raw table", "… We open on the invoice"), not a decision of its own.
fn kind_in_place(sentence: &str, last: bool) -> Option<Kind> {
    if says_no_again(sentence) {
        return None;
    }
    kind_of(sentence)
        .filter(|_| last || !drops_alone(sentence))
        .or_else(|| drops_and_keeps(sentence).then_some(Kind::Decision))
}

/// Does a sentence drop an option and say what is kept, a whole decision ("so tuesday
/// pickup is off just thurs and sat.", "Publisher's legal just came back: PH is out of
/// the soft launch.")?
fn drops_and_keeps(sentence: &str) -> bool {
    let lower = crate::case::lowercase(sentence.trim());
    clauses(&lower)
        .filter_map(|clause| gone_and_kept(past_opener(clause)))
        .any(|(_, kept)| kept)
}

/// Is a sentence an option dropped, and nothing more: named ("Forget the creek bottom.",
/// "So: kill the Marlow lede.", "Traverse is dead.") or what was just said ("Drop it.",
/// "Scrap that.")? The
/// sentence after it says what replaces it. Not "Forget it.", which waves a matter away;
/// not "drop me a line".
fn drops_alone(sentence: &str) -> bool {
    let lower = crate::case::lowercase(sentence.trim());
    if lower.ends_with('?') {
        return false;
    }
    let said_just_now = matches!(bare_words(&lower).as_slice(), [verb, "it" | "that" | "this" | "them"]
        if DROPS.contains(verb) && *verb != "forget");
    let words = bare_words(past_opener(&lower));
    let named = words.len() <= 5
        && !lower.contains(',')
        && matches!(words.as_slice(), [verb, object, ..]
            if DROPS.contains(verb)
                && !matches!(*object, "it" | "to" | "about" | "that" | "this" | "me" | "us" | "you" | "him" | "her" | "them" | "everything"));
    // "The crepeline is off; it's too fragile …": gone, with its reasons; "Update, and I
    // say this with calm: the rooftop is dead.": gone, after what announces it.
    said_just_now
        || named
        || clauses(&lower)
            .next()
            .map(past_opener)
            .and_then(gone)
            .is_some()
        || lower
            .rsplit_once(": ")
            .and_then(|(_, after)| gone(past_opener(after)))
            .is_some()
}

/// `sentence` said with the one `before` it (a stress, a seal): the instruction read in
/// `before` runs on to its end, or both are one instruction of `kind`.
fn said_with<'t>(
    kinds: &mut Vec<(Kind, &'t str)>,
    text: &'t str,
    before: &str,
    sentence: &str,
    kind: Kind,
) {
    match kinds.last_mut() {
        Some((_, last)) if last.as_ptr() == before.as_ptr() || within(before, last) => {
            *last = span(text, last, sentence).unwrap_or(last);
        }
        _ => {
            if let Some(both) = span(text, before, sentence) {
                kinds.push((kind, both));
            }
        }
    }
}

/// Is a sentence a fragment that can only say more of the one before it: three words at
/// most, no question, no reaction, no subject of its own ("Hard limit.", "Non-iodized.",
/// not "Thanks!" or "I said no.")?
fn says_more(sentence: &str) -> bool {
    let lower = crate::case::lowercase(sentence.trim());
    let words: Vec<&str> = lower.split_whitespace().map(word).collect();
    words.len() <= 3
        && !lower.ends_with('?')
        && !reacts(&lower)
        && gone(&lower).is_none()
        && words.first().is_some_and(|w| {
            !w.is_empty()
                && !SUBJECTS.contains(w)
                && !["it", "it's", "that", "that's", "this"].contains(w)
        })
}

/// What a sentence does after its reasons (", so …"), or after news joined to it by "and"
/// ("Finance has reviewed the figures and we are raising the stipend to $75"), when that is
/// an instruction: its kind.
fn consequence(sentence: &str) -> Option<Kind> {
    let last = last_clause(sentence)?;
    // "The church has the choir in on Tuesdays now, so the Tuesday one is off — we'll just
    // have the Thursday.": an option dropped for the reasons before it.
    kind_of(last).or_else(|| drops_alone(last).then_some(Kind::Decision))
}

/// What a sentence says before its reasons: up to a dash, a semicolon, "because" or
/// "since", or a comma after two words of substance ("update: 4.2 goes out Tuesday, QA
/// found a crash in the checkout", not "Okay, …").
fn head_of(sentence: &str) -> &str {
    let mut head = sentence;
    for mark in ["—", "–", ";", " because ", " since "] {
        if let Some((before, _)) = head.split_once(mark) {
            head = before;
        }
    }
    let mut commas = head.match_indices(", ").map(|(at, _)| at);
    match commas.find(|&at| subject_words(&head[..at]).len() >= 2) {
        Some(at) => &head[..at],
        None => head,
    }
}

/// The instructions of a long run-on sentence read in [`parts`]. Cut where nothing
/// marks a new thought, a part that opens on a quantifier or a preposition goes on from
/// the one before ("… with the fireworks people and all the boats on the lake").
/// The first part may pick an option the message `asked` offered ("I think B most
/// mornings, he's always liked eggs, …": a long reply that opens on its pick).
fn kinds_of_parts<'t>(sentence: &'t str, asked: Option<&Message>) -> Vec<(Kind, &'t str)> {
    let picks = |part: &str| asked.is_some_and(|m| picks_an_option(&m.text(), part));
    let unmarked = unmarked(sentence);
    parts(sentence)
        .into_iter()
        .enumerate()
        // One word is no instruction ("… for refills and everything"), nor a fragment; "no
        // plastic clamshells ever" is a ban, not what "no" counts.
        .filter(|(_, part)| part.contains(' '))
        .filter(|(_, part)| {
            let lower = crate::case::lowercase(part);
            !(unmarked && opens_a_fragment(&lower) && !lower.starts_with("no "))
        })
        .filter_map(|(at, part)| {
            kind_of(part)
                .or_else(|| (at == 0 && picks(part)).then_some(Kind::Decision))
                .map(|kind| (kind, part))
        })
        .collect()
}

/// The parts of a long run-on sentence, cut where a new thought starts (a dash, a
/// semicolon, ", so", ", and", ", but"), or at "and", "but" and "so" where nothing marks
/// it ([`unmarked`], [`so_at`]).
fn parts(sentence: &str) -> Vec<&str> {
    const MARKED: &[&str] = &[";", "—", "–", ", so ", ", and ", ", but "];
    let unmarked = unmarked(sentence);
    let cuts = if unmarked {
        &[" and ", " but "]
    } else {
        MARKED
    };
    let mut out = Vec::new();
    let mut rest = sentence;
    while !rest.is_empty() {
        let cut = cuts
            .iter()
            .filter_map(|mark| rest.find(mark).map(|at| (at, mark.len())))
            .chain(unmarked.then(|| so_at(rest)).flatten().map(|at| (at, 4)))
            .min();
        // A part cut at ", so " or ", and " keeps its word ("so no fish, not even tinned
        // tuna"): the user's words as said.
        let (part, next) = match cut {
            Some((at, _)) if rest[at..].starts_with(", ") => (&rest[..at], &rest[at + 2..]),
            Some((at, len)) => (&rest[..at], &rest[at + len..]),
            None => (rest, ""),
        };
        if part.trim().len() >= 8 {
            out.push(part.trim());
        }
        rest = next;
    }
    out
}

/// Where speech with no marks goes on to what follows from it ("… sitting in my kitchen so
/// cut that in half"): at " so ", not where it says how much ("she's so responsible", "so
/// much").
fn so_at(speech: &str) -> Option<usize> {
    const HOW: &[&str] = &[
        "is", "was", "are", "were", "be", "been", "am", "feel", "feels", "look", "looks", "sound",
        "sounds", "seem", "seems", "not", "and", "or", "she's", "he's", "it's", "shes", "hes",
        "its", "thats", "that's", "i'm", "im", "you're", "they're", "we're",
    ];
    speech.match_indices(" so ").map(|(at, _)| at).find(|&at| {
        let before = speech[..at].rsplit(' ').next().unwrap_or_default();
        let after = speech[at + 4..].split(' ').next().unwrap_or_default();
        !HOW.contains(&crate::case::lowercase(before).as_str())
            && !one_of(after, &["much", "many", "far", "long"])
    })
}

/// Is a sentence long speech with no mark inside it ("we'll do the potluck with a sign up
/// sheet Carol can make … and oh you need to know everything we serve has to be peanut
/// free because …"): no comma, semicolon, colon, dash or ellipsis, over half the length
/// read whole?
fn unmarked(sentence: &str) -> bool {
    sentence.len() > MAX_CHARS / 2
        && !sentence.contains([',', ';', ':', '—', '–', '…'])
        && !sentence.contains("..")
}

/// Does a short sentence name two options and pick neither ("publishing: trusted
/// publishing or api token", "vans or coaches")? Said as an answer, it settles nothing.
fn leaves_open(sentence: &str) -> bool {
    let lower = crate::case::lowercase(sentence);
    let value = lower
        .split_once(": ")
        .map_or(lower.as_str(), |(_, value)| value);
    contains_phrase(value, "or") && value.split_whitespace().count() <= 8
}

/// A clause (lower case) past the words that lead the user's own point in ("i think …",
/// "i should also say that …", "i must add …").
fn past_a_lead_in(clause: &str) -> &str {
    clause
        .strip_prefix("i think ")
        .or_else(|| past_a_saying(clause))
        .unwrap_or(clause)
}

/// What a sentence (lower case) says past saying that it says it ("i must stress that
/// …", "i should also mention that …", "please note that …", "bear in mind that …").
fn past_a_saying(lower: &str) -> Option<&str> {
    let noted = [
        "please note that ",
        "note that ",
        "bear in mind that ",
        "keep in mind that ",
    ]
    .iter()
    .find_map(|lead| lower.strip_prefix(lead));
    if noted.is_some() {
        return noted;
    }
    let rest = [
        "i should ",
        "i must ",
        "i need to ",
        "i'd like to ",
        "i have to ",
    ]
    .iter()
    .find_map(|lead| lower.strip_prefix(lead))?;
    let rest = rest.strip_prefix("also ").unwrap_or(rest);
    ["say ", "mention ", "add ", "stress ", "point out "]
        .iter()
        .find_map(|verb| rest.strip_prefix(verb))
        .map(|said| said.strip_prefix("that ").unwrap_or(said))
}

/// Is `sentence`, without its closing mark, one of `words` alone?
fn is_alone(sentence: &str, words: &[&str]) -> bool {
    let lower = crate::case::lowercase(sentence.trim());
    words.contains(&lower.trim_end_matches(['.', '!']).trim())
}

/// The part of `text` from `first` to the end of `last`, both slices of it.
fn span<'t>(text: &'t str, first: &str, last: &str) -> Option<&'t str> {
    let base = text.as_ptr() as usize;
    let start = (first.as_ptr() as usize).checked_sub(base)?;
    let end = (last.as_ptr() as usize + last.len()).checked_sub(base)?;
    text.get(start..end)
}

/// The items of the lists `text` introduces as what the work must meet ("Some hard
/// requirements for this project:", "Here's what they've asked for:"): each is a rule,
/// however it is worded ("- partition the S3 data by date").
fn required_items(text: &str) -> Vec<&str> {
    const LEADS: &[&str] = &[
        "requirement",
        "constraint",
        "rules",
        "ground rule",
        "must-have",
        "asked for",
        "non-negotiable",
        "hard limit",
        "guidelines",
        "conditions",
        "conventions",
    ];
    let mut items = Vec::new();
    let mut under = false;
    for line in text.lines() {
        let trimmed = line.trim();
        let listed =
            trimmed.starts_with(|c: char| matches!(c, '-' | '*' | '•') || c.is_ascii_digit());
        // "- can you sketch the folder layout?": a question under them asks, it is no rule.
        if under && listed && !trimmed.ends_with('?') {
            items.push(trimmed);
        } else if trimmed.ends_with(':') {
            let lower = crate::case::lowercase(trimmed);
            under = LEADS.iter().any(|lead| lower.contains(lead));
        } else {
            under = false;
        }
    }
    items
}

/// An instruction's words as the block writes them: a list item's without its bullet or
/// number; but the number a one-line reply opens with is its pick ("2. ray noble, bowlly,
/// that sort."), not a list's, and stays.
fn as_written(text: &str, listed: bool) -> &str {
    if listed || !text.starts_with(|c: char| c.is_ascii_digit()) {
        unbulleted(text)
    } else {
        text
    }
}

/// A list item's words without its bullet or number ("- nothing over 60k miles", "2) no
/// red-eyes"): the block writes its own.
fn unbulleted(item: &str) -> &str {
    let digits = item.len() - item.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let rest = if digits > 0 {
        item[digits..].strip_prefix(['.', ')'])
    } else {
        item.strip_prefix(['-', '*', '•'])
    };
    match rest {
        Some(rest) if rest.starts_with(' ') => rest.trim_start(),
        _ => item,
    }
}

/// Does `part` lie within `whole` (both slices of one text)?
fn within(part: &str, whole: &str) -> bool {
    let (start, end) = (
        whole.as_ptr() as usize,
        whole.as_ptr() as usize + whole.len(),
    );
    let at = part.as_ptr() as usize;
    at >= start && at + part.len() <= end
}

#[cfg(test)]
mod tests;
