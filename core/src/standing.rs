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
//! it. A superseded instruction is never written again — not as current, not quoted as
//! what was replaced (a reader skimming for the old plan must not find it) — and the one
//! that replaced it says so. When the superseded one is in a message that stays verbatim
//! (the task), the block still says the newer one replaces an earlier instruction.
//!
//! The block is read back when a summary is folded again ([`read_block`]), so an
//! instruction outlives any number of compactions. What stays raw is not repeated.

use crate::message::{Message, Part, Role};

/// The first line of the block of standing instructions.
pub const STANDING_HEADER: &str = "The user's standing instructions (verbatim, still in force):";

/// The mark of a decision, at the start of its line.
const DECIDED: &str = "Decided: ";
/// The mark of a decision that replaces an earlier one.
const DECIDED_AGAIN: &str = "Decided (replacing an earlier decision): ";
/// The mark of a rule that replaces an earlier instruction.
const RULE_AGAIN: &str = "(replacing an earlier instruction) ";

/// The first line of a block in its fewest words ([`terse`]), for a window too small for
/// the whole one (3 tokens; read only on a line of its own).
const TERSE_HEADER: &str = "In force:";
/// The terse marks of a decision and of a rule that replace an earlier one.
const DECIDED_INSTEAD: &str = "Instead: ";
const INSTEAD: &str = "(instead) ";

/// Every mark a block's line may open with: what it says of the instruction.
const MARKS: [(Kind, bool, &str); 5] = [
    (Kind::Decision, true, DECIDED_AGAIN),
    (Kind::Decision, true, DECIDED_INSTEAD),
    (Kind::Decision, false, DECIDED),
    (Kind::Rule, true, RULE_AGAIN),
    (Kind::Rule, true, INSTEAD),
];

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
    /// A later instruction overrides it.
    pub superseded: bool,
    /// The index of the message it was said in (among those read).
    pub message: usize,
}

/// Words that open a sentence without being its verb: `Please never…`, `Also, always…`.
const OPENERS: &[&str] = &[
    "please",
    "also",
    "and",
    "oh",
    "btw",
    "ok",
    "okay",
    "so",
    "now",
    "important",
    "note",
    "rule",
    "reminder",
    "one",
    "more",
    "thing",
    "just",
    "but",
    "hey",
    "alright",
    "right",
    "nope",
    "nah",
    "yeah",
    "yep",
    "yup",
    "hmm",
    "actually",
];

/// Words that make a clause a rule and speak to how the work must go, whatever opens
/// it: both a [`RULE_MARKS`] and a [`SUBJECT_MODALS`] mark ("has to be", "I'd prefer",
/// "important that", "no matter what").
const BINDING: &[&str] = &[
    "red line",
    "non-negotiable",
    "no matter what",
    "has to be",
    "have to be",
    "needs to be",
    "is required",
    "are required",
    "hard rule",
    "i prefer",
    "i'd prefer",
    "i would prefer",
    "i'd rather not",
    "we'd rather not",
    "i would rather not",
    "we would rather not",
    "i want you to",
    "i don't want",
    "i do not want",
    "we don't want",
    "we do not want",
    "is a must",
    "has to",
    "have to",
    "important that",
    "essential that",
    "crucial that",
    "ask that",
    "requirement that",
    "obligatory that",
    "mandatory that",
];

/// Words that make a sentence a rule, beside [`STRONG_RULE_MARKS`]; among them quantities
/// and limits ("every", "only", "under"), which make none in a fragment of a sentence.
const RULE_MARKS: &[&str] = &[
    "stick to",
    "stick with",
    "only ever",
    "mandatory",
    "forbidden",
    "prohibited",
    "not allowed",
    "strictly",
    "without exception",
    "every time",
    "each time",
    "whenever",
    "refrain",
    "should never",
    "should always",
    "need to be",
    "rule of thumb",
    "throughout",
    "unless i say otherwise",
    "unless told otherwise",
    "assume",
    "keep it",
    "keep the",
    "remember to",
    "remember that",
    "every",
    "everything",
    "each",
    "all",
    "anything",
    "nothing",
    "only",
    "no",
    "under",
    "below",
    "above",
    "at least",
    "at most",
    "no more than",
    "minimum",
    "maximum",
    "max",
    "tops",
    "ideally",
    "hate",
    "can't stand",
    "dislike",
    "in total",
    "within",
    "between",
];

/// Words that make a sentence a rule that holds from now on, wherever they stand in it.
const STRONG_RULE_MARKS: &[&str] = &[
    "as a rule",
    "golden rule",
    "house rule",
    "ground rule",
    "never",
    "always",
    "must",
    "mustn't",
    "don't",
    "dont",
    "do not",
    "no exceptions",
    "from now on",
    "from here on",
    "going forward",
    "at all times",
    "under no circumstances",
    "we will not",
    "we won't",
    "we will never",
    "we'll never",
    "we're not going to",
    "we are not going to",
    "make sure",
    "be sure to",
    "ensure",
    "avoid",
];

/// A proposal not to, which is a rule when it is about the work ("let's not do that
/// again"), not about the pace ("let's not overthink it": [`paces`]).
const LETS_NOT: &[&str] = &["let's not", "lets not", "let us not"];

/// Does `clause`, a slice of `lower` ([`clauses`]), continue the sentence before it (after
/// a comma, a "so" or a "but"), rather than open it or follow a colon?
fn continues(lower: &str, clause: &str) -> bool {
    before(lower, clause).is_some_and(|before| !before.is_empty() && !before.ends_with([':', ';']))
}

/// Does `clause` (a slice of `lower`) follow a "but" ("… a rough premise but no
/// structure")?
fn follows_but(lower: &str, clause: &str) -> bool {
    before(lower, clause)
        .and_then(|before| before.strip_suffix("but"))
        .is_some_and(|rest| rest.is_empty() || rest.ends_with(' '))
}

/// What of `lower` comes before `clause`, a slice of it, trimmed at its end.
fn before<'a>(lower: &'a str, clause: &str) -> Option<&'a str> {
    (clause.as_ptr() as usize)
        .checked_sub(lower.as_ptr() as usize)
        .and_then(|at| lower.get(..at))
        .map(str::trim_end)
}

/// Does a clause open with a quantifier or a preposition: no verb of its own?
fn opens_a_fragment(clause: &str) -> bool {
    const OPENERS: &[&str] = &[
        "all", "every", "each", "some", "any", "no", "none", "nothing", "most", "of", "in", "on",
        "at", "for", "from", "with", "without", "by", "about", "like", "as", "after", "before",
    ];
    clause
        .split_whitespace()
        .next()
        .is_some_and(|w| OPENERS.contains(&w))
}

/// Words that make a sentence a decision that replaces an earlier one: both a
/// [`DECISION_IDIOMS`] and an [`OVERRIDE_MARKS`] mark ("we're renaming it", "went back to
/// the Lakeside Inn", "Final: Friday to Sunday").
const REPLACING: &[&str] = &[
    "went back to",
    "going back to",
    // "compromise: tub-shower combo with a new soaking tub".
    "compromise:",
    // "ok change: three 3x6 beds in an L along the sunny side".
    "change:",
    "renaming",
    "rename",
    "final:",
    "final answer",
    "final call",
];

/// Words that make a sentence a decision among options, whoever its subject ("The
/// Lumiares Hotel it is", "My pick is PostgreSQL").
const DECISION_IDIOMS: &[&str] = &[
    // Done deals: "we picked the 2-inch hex", "went with two access points instead".
    "we picked the",
    "i picked the",
    "we landed on",
    "i landed on",
    "went with",
    "we bought",
    "i bought",
    "we signed with",
    "i signed with",
    "i booked",
    "we booked",
    "we chose",
    "i chose",
    "i've booked",
    "we've booked",
    "i've reserved",
    "we've reserved",
    "i've ordered",
    "we've ordered",
    "we've hired",
    "i'm taking",
    "we're taking",
    "is the plan",
    "let's go with",
    "lets go with",
    "we'll go with",
    "we will go with",
    "i'll go with",
    "i will go with",
    "we're going with",
    "we are going with",
    "i'm going with",
    "go with",
    "going with",
    "go for",
    "lock in",
    "locking in",
    "locked in",
    "settle on",
    "settled on",
    "opt for",
    "settling on",
    "commit to",
    "committing to",
    "changing course",
    "change course",
    "second thoughts",
    "decided:",
    "decision:",
    "decision on",
    "off the table",
    "i've decided",
    "i have decided",
    "we've decided",
    "we have decided",
    "decided to",
    "decided on",
    "decision made",
    // "she stays at her school through the end of this year, that's decided".
    "that's decided",
    "that's settled",
    "it's decided",
    "it's settled",
    "that's final",
    "decision is",
    "my decision",
    "my pick",
    "our pick",
    "my choice",
    "our choice",
    "final choice",
    "final decision",
    "we decide",
    "i decide",
    "we're getting",
    "we are getting",
    "we're moving",
    "we are moving",
    "final pick",
    "switching to",
    "we're hiring",
    "we are hiring",
    "we're cutting",
    "we are cutting",
    "we're dropping",
    "we are dropping",
    "change of plan",
    "scratch that",
    "on second thought",
    "changed my mind",
    "new decision",
    "new plan",
    "the plan is",
    // "new goal is just to finish feeling strong", "the target is 90 seconds".
    // "ok final, she's Tamsin": a choice made for good, which names what it replaces.
    "final,",
    "goal is",
    "objective is",
    "my aim is",
    "the aim is",
    "new goal",
    "target is",
    "new target",
    "we'll do",
    "we will do",
    "i'll do",
    "let's do",
    "let's use",
    "lets use",
    "we'll use",
    "we will use",
    "i'll use",
    "i will use",
    "let's pick",
    "let's choose",
    "let's stick with",
    "let's switch",
    "let's lock",
    "let's settle",
    "let's make it",
    "let's take",
    "let's keep",
    "let's drop",
    "switch to",
    "switch the",
    "switch our",
    "switch my",
    "go back to",
    "swap",
    "i think we should",
    "current plan",
    "the approach is",
    "approach:",
    "plan:",
    "the right call",
    // Not "pivot tables".
    "pivot to",
    "pivoting to",
    "we pivot",
    "let's pivot",
    "we're going to",
    "we are going to",
];

/// Words that move the conversation along, not choose within it ("Let's keep going",
/// "Let's wrap up for today").
const GOING_ON: &[&str] = &[
    "keep going",
    "wrap up",
    "wrap things up",
    "move on",
    "get started",
    "get going",
    "carry on",
    "get back to",
    "get back",
    "get to it",
    "call it a day",
    "take a break",
    "pick this up",
    "pick up where",
];

/// Does it settle what a part of the work will be ("The auction format will be a silent
/// auction.", "Our venue will be the boathouse.")? The part named first, a plain
/// statement, short.
fn settles(lower: &str) -> bool {
    // The first clause: "the house will be a small stone cottage by the river, just two
    // rooms: …" settles the house.
    let words = first_words(first_clause(lower));
    let Some(be) = words.windows(2).position(|w| w == ["will", "be"]) else {
        return false;
    };
    // The part named with "the" or "our", or bare, in a few words ("long runs will be
    // Sunday mornings", "title will be …"): not "it", "there", "you", "that".
    const NOT_A_PART: &[&str] = &[
        "it",
        "there",
        "that",
        "this",
        "you",
        "i",
        "we",
        "he",
        "she",
        "they",
        "which",
        "what",
        "who",
        "when",
        "where",
        "how",
        "so",
        "and",
        "but",
        "if",
        "my",
        "his",
        "her",
        "their",
        "your",
        "a",
        "an",
        "everything",
        "everyone",
        "nothing",
        "something",
        "things",
        "both",
    ];
    let first = words.first().map(|w| word(w)).unwrap_or("");
    // Bare, what it will be follows, not what someone will be doing ("Patients will be
    // sitting right next to it").
    // A quoted name is what it will be ("title will be \"Boring Postgres Tricks\"").
    let doing = words.get(be + 2).is_some_and(|raw| {
        let w = word(raw);
        !raw.starts_with(['"', '“', '\''])
            && w.len() > 5
            && w.ends_with("ing")
            && !["morning", "evening"].contains(&w)
    });
    let named = matches!(first, "the" | "our")
        || ((1..=3).contains(&be)
            && !doing
            && !words[..be].iter().any(|w| NOT_A_PART.contains(&word(w))));
    named && words.len() <= 16 && !is_personal(lower)
}

/// The first clause that says more than an opener ("OK, we do the welcome dinner on
/// Friday" — "we do the welcome dinner on Friday").
fn first_clause(lower: &str) -> &str {
    lower
        .split([',', ';', ':', '—'])
        .find(|clause| !first_words(clause).is_empty())
        .unwrap_or("")
}

/// Does it say in the present what the user and theirs do, as a plan ("We take adult dog,
/// 3 or 4 years old", "We ship only 10 boxes", "OK, we do the welcome dinner on Friday
/// evening")? A verb of doing, its object after it — not "we keep getting errors", not
/// "we take turns to cook" said of a habit, not someone's day.
fn does_as_a_plan(lower: &str) -> bool {
    // "ok rip out the tub, we're doing a walk-in shower", "venue says long tables fit
    // better so we're doing three long tables": said after what led to it.
    does_as_a_plan_first(first_clause(lower))
        // "Soda didn't pan out, we're just doing plain PySpark checks".
        || clauses(lower).skip(1).any(|clause| {
            let clause = ["we're just ", "we are just ", "we're now ", "we are now "]
                .iter()
                .find_map(|lead| clause.strip_prefix(lead))
                .map_or(clause.to_owned(), |rest| format!("we're {rest}"));
            (clause.starts_with("we're doing ") || clause.starts_with("we are doing "))
                && does_as_a_plan_first(&clause)
        })
}

/// "we're fixing the modal focus trap first", "We are pursuing the claim separately": what
/// is under way; not these, which tell of a state ([`does_as_a_plan_first`]).
const STATES: &[&str] = &[
    "going",
    "thinking",
    "trying",
    "hoping",
    "looking",
    "having",
    "getting",
    "being",
    "wondering",
    "considering",
    "struggling",
    "waiting",
    "planning",
];

fn does_as_a_plan_first(lower: &str) -> bool {
    const DOING: &[&str] = &[
        "take", "ship", "do", "book", "pick", "choose", "keep", "buy", "hire", "launch", "rent",
        "sell", "order", "host", "hold", "serve", "invite", "adopt", "drop", "skip", "cut",
        "stick", "release", "deploy", "target", "publish", "submit", "switch", "move",
        // What is done to the work ("We merge WP2 and WP3 into one", "we omit price from
        // JSON-LD for now", "we vendor fmt under third_party/").
        "merge", "omit", "vendor", "pay", "upgrade", "offer", "split", "organize", "exclude",
        "include", "add", "remove", "store", "cache", "migrate", "rename", "pin", "rewrite",
        "bump", "charge", "send", "report", "require", "allow",
    ];
    let mut words: Vec<&str> = first_words(lower).into_iter().map(word).collect();
    if words.starts_with(&["we", "are"]) {
        words.splice(..2, ["we're"]);
    }
    // "we are now insisting on 45-day terms": the verb after the adverb.
    if words.len() > 2
        && (matches!(words[1], "now" | "still" | "also" | "just") || is_adverb(words[1]))
    {
        words.remove(1);
    }
    let [who, verb, next, ..] = words.as_slice() else {
        return false;
    };
    // "we're fixing the modal focus trap first", "We are pursuing the claim separately".
    let doing_now = *who == "we're" && verb.ends_with("ing") && !STATES.contains(verb);
    // "we're doing a walk-in shower": a thing done is chosen; not "we're doing a lot of …",
    // "we're doing great".
    let done_a_thing = *verb == "doing"
        && *next == "a"
        && !words
            .get(3)
            .is_some_and(|w| matches!(*w, "lot" | "bit" | "little" | "few"));
    let how = matches!(
        *next,
        "great"
            | "well"
            | "fine"
            | "ok"
            | "okay"
            | "good"
            | "better"
            | "worse"
            | "alright"
            | "it"
            | "this"
            | "that"
            | "so"
            | "pretty"
            | "really"
            | "what"
    );
    // "We're renting a 4x4 from Adobe", "We're starting on Sunday, September 14": a thing
    // got, a day set; not "we're building a marketplace" (the work itself).
    let gets = matches!(
        *verb,
        "renting" | "buying" | "booking" | "hiring" | "ordering" | "leasing" | "adopting"
    ) && *next == "a";
    let sets_a_day = matches!(
        *verb,
        "starting" | "leaving" | "flying" | "launching" | "departing" | "arriving"
    ) && *next == "on";
    if doing_now
        && !how
        && (done_a_thing
            || gets
            || sets_a_day
            || !matches!(*next, "to" | "a" | "for" | "about" | "on"))
    {
        return !is_habit(lower);
    }
    matches!(*who, "we" | "i")
        && (DOING.contains(verb) || (*who == "we" && *verb == "use"))
        && !next.ends_with("ing")
        && !matches!(
            *next,
            "to" | "it" | "that" | "this" | "them" | "care" | "turns" | "a"
        )
        && !is_habit(lower)
}

/// Words that make a sentence a decision when the user speaks for the work (not "my
/// partner keeps watching videos instead of packing", not "I'll take the dog out").
const DECISION_MARKS: &[&str] = &[
    "i'll take",
    "i will take",
    "we'll take",
    "we're using",
    "we are using",
    "i'm using",
    "choose",
    "chose",
    "i've chosen",
    "we've chosen",
    "have chosen",
    "pick ",
    // "we picked a lilac ball gown"; not "picked up the kids".
    "picked a ",
    "picked an ",
    "picked the ",
    "picked our ",
    "instead of",
    "rather than",
    "i want to use",
    "we want to use",
    "i want us to",
    "i'd rather",
    "we'd rather",
    "will handle",
    "will take care of",
];

/// A choice still to make ("need to pick a queue for order events"): the marks of a
/// choice made name it, but no option is taken.
const UNDECIDED: &[&str] = &[
    "need to pick",
    "need to choose",
    "needs to pick",
    "have to pick",
    "have to choose",
    "trying to pick",
    "trying to choose",
    "help me pick",
    "help me choose",
    "how to pick",
    "how to choose",
    "which to pick",
    "hard to pick",
    "hard to choose",
    "can't pick",
    "can't choose",
    "can't decide",
    "deciding between",
];

/// Words that make an instruction override an earlier one, wherever they stand.
const OVERRIDE_MARKS: &[&str] = &[
    "instead",
    "changing course",
    "change course",
    "second thoughts",
    "after all",
    "is now",
    "are now",
    "switch the",
    "switch our",
    "switch my",
    "change of plan",
    "changed my mind",
    "change my mind",
    "on second thought",
    "scratch that",
    "forget that",
    "forget what",
    "ignore the earlier",
    "ignore what",
    "rather than",
    "no longer",
    "not anymore",
    "replace",
    "switch to",
    "switching to",
    "we're switching",
    "we are switching",
    "let's switch",
    "changes everything",
    "reverse that",
    "undo that",
    "not what i said",
    "new decision",
    "new plan",
    "swap",
    "swapping",
    "swapped",
    "drop the",
    "let's drop",
    "go back to",
    "scratch",
    "not the",
    "i'd rather",
    "we'd rather",
    "forget about",
    "pivot to",
    "pivoting to",
    "we pivot",
    "let's pivot",
    "you know what",
    "revise",
    "off the table",
    "let's move",
    "lets move",
    "move it to",
    "moving it to",
];

/// Words that make an instruction override an earlier one when it opens with them
/// ("Actually, let's…", "Forget Unity; …"; "until it's actually paid" and "before I
/// forget" override nothing).
const OVERRIDE_OPENERS: &[&str] = &[
    "actually",
    // "nope, doing the April half-marathon at Crane Reservoir".
    "nope",
    "nah",
    "wait",
    "correction",
    "hmm",
    "forget",
    "scrap",
    "ditch",
    // "Drop tsup; the packages get built with plain tsc".
    "drop",
    // "nvm on the risk acceptance, we upgrade jquery too".
    "nevermind",
];

/// Words that state what the work now is, said with an override ("Forget Postgres;
/// we're doing BigQuery"); alone they report ("I'm glad we're doing this").
const NOW_DOING: &[&str] = &[
    "we're switching",
    "we are switching",
    "we're doing",
    "we are doing",
    "we're building",
    "we're moving to",
    "we are moving to",
    "we're switching to",
    "we are switching to",
    "it's going to be",
    "it will be",
];

/// How an opening message states the plan a later turn may change ("I'm planning to build
/// it with Flask", "My idea was to release weekly"): a decision, in the task alone —
/// elsewhere such words tell of the user's day.
const PLAN_STATEMENTS: &[&str] = &[
    "plan is to",
    "the plan is",
    "my plan was",
    "my plan is",
    "our plan was",
    "our plan is",
    "the plan was",
    "the original plan",
    "my idea was",
    "my thought was",
    "i was going to",
    "we were going to",
    "i was planning",
    "we were planning",
    "i'm planning to",
    "i'm planning on",
    "i am planning to",
    "i am planning on",
    "we're planning to",
    "we're planning on",
    "we are planning to",
    "we are planning on",
    "i'd planned",
    "we'd planned",
    "i had planned",
    "we had planned",
    "i figured",
    "we figured",
    "i'm thinking we",
    "i was leaning",
    "we were leaning",
    "i'm leaning",
    "we're leaning",
    "i've been",
    "i'd been",
    "we've been",
    "we'd been",
    "my first idea",
    "our first idea",
    "the first idea",
    "we'd tentatively",
    "we've tentatively",
    "i started",
    "we started",
];

/// Words that carry no subject of their own, for telling what an instruction is about.
const STOP_WORDS: &[&str] = &[
    "the",
    "a",
    "an",
    "and",
    "or",
    "but",
    "to",
    "of",
    "in",
    "on",
    "for",
    "with",
    "at",
    "by",
    "it",
    "is",
    "be",
    "we",
    "i",
    "you",
    "let's",
    "lets",
    "let",
    "us",
    "go",
    "use",
    "will",
    "we'll",
    "i'll",
    "that",
    "this",
    "instead",
    "actually",
    "of",
    "from",
    "now",
    "on",
    "please",
    "just",
    "not",
    "no",
    "do",
    "don't",
    "never",
    "always",
    "must",
    "should",
    "all",
    "any",
    "our",
    "my",
    "your",
    "as",
    "so",
    "then",
    "than",
    "rather",
    "plan",
    "change",
    "scratch",
    "wait",
    "ok",
    "okay",
    "also",
    "what",
    "earlier",
    "decided",
    "decision",
    "going",
    "take",
    "pick",
    "choose",
    "lock",
    "switch",
    "keep",
    "make",
    "sure",
    "want",
    "would",
    "prefer",
    "like",
    "more",
    "one",
    "only",
    "every",
    "each",
    "time",
    "here",
    "year",
    "years",
    "month",
    "months",
    "week",
    "weeks",
    "day",
    "days",
    "today",
    "tomorrow",
    "yesterday",
    "tonight",
    "morning",
    "last",
    "ago",
];

/// Is `sentence` (any case) a rule, a decision, or neither?
pub fn kind_of(sentence: &str) -> Option<Kind> {
    let text = sentence.trim();
    if text.ends_with('?') {
        return confirmed(text).and_then(kind_of);
    }
    if text.len() < 8 || text.len() > MAX_CHARS {
        return None;
    }
    let lower = respelled(&crate::case::lowercase(text));
    if asks(&lower) || reports_advice(&lower) || reports_scores(&lower) {
        return None;
    }
    let replaces = contains_phrase(&lower, "replace") && lower.contains(" with ");
    let now_doing = says_any(&lower, NOW_DOING) && is_override(&lower);
    let idiom = says_any(&lower, DECISION_IDIOMS)
        || accepts(&lower)
        || leans_to(&lower)
        || acts_bare(&lower)
        || ends_instead(&lower)
        || says_any(&lower, REPLACING)
        || drops_a_choice(&lower)
        || opens_dropping(&lower)
        || orders_a_pick(&lower)
        || ends_choosing(&lower)
        || settles(&lower)
        || does_as_a_plan(&lower)
        || someone_chose(&lower)
        || replaces
        || now_doing
        || plans_instead(&lower);
    // "One of my engineers asked whether we should use X": a question reported;
    // "whatever we pick has to be easy to clean": a rule for any choice.
    // Not "an estate sale for whatever's left": a thing, named.
    let wonders = says_any(
        &lower.replace("whatever's", "what's"),
        &[
            "whether",
            "wondering if",
            "wonder if",
            "asked if",
            "whatever",
            "whichever",
        ],
    );
    // "I'd rather not have a free tier at all": a preference against, a rule.
    let refuses = contains_phrase(&lower, "rather not");
    let decides = !wonders
        && !refuses
        && !reports_a_proposal(&lower)
        && ((idiom && !is_personal(&lower))
            || (((says_any(&lower, DECISION_MARKS) && !says_any(&lower, UNDECIDED))
                || proposes(&lower)
                || commits(&lower))
                && speaks_for_the_work(&lower)
                && !is_habit(&lower)));
    if decides && !says_any(&lower, GOING_ON) && !reports_the_past(&lower) {
        return Some(Kind::Decision);
    }
    // A rule may be one clause of the sentence: "I don't own a mixer, so don't suggest
    // anything that needs one."
    let rule = clauses(&lower).any(|clause| {
        if deduces(clause) {
            return false;
        }
        // A clause that continues a sentence and opens with a quantifier or a
        // preposition is a fragment ("I picked three colours, all some shade of green";
        // "… of all places"; "… but no structure"), not an order, unless a strong mark
        // makes it one.
        // So is a few words that open with one ("Nothing perfect, just a sanity check"),
        // unless they forbid a thing ("No peanuts", "keep it clean — no swearing"), not
        // say what is missing ("… a rough premise but no structure").
        let forbids = forbids_a_thing(clause) && !follows_but(&lower, clause);
        let fragment = opens_a_fragment(clause)
            && !forbids
            && (continues(&lower, clause) || clause.split_whitespace().count() < 4);
        let strong = says_any(clause, STRONG_RULE_MARKS)
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
            || sets_a_deadline(clause)
    });
    // An order with the thing not to do beside it: "Give me grams, not cups.", "write it
    // in plain English, no legalese".
    let contrast = (lower.contains(", not ") || excludes(&lower))
        && clauses(&lower).next().is_some_and(is_imperative);
    (rule || contrast || refuses_ever(&lower)).then_some(Kind::Rule)
}

/// Does it tell what someone the work is for chose ("he picked the paper towel one",
/// "Valeria has chosen her cousin Mateo to be her chambelán", "my sister went with the
/// navy one")? Not "my wife picked up the kids", "he chose to ignore it".
fn someone_chose(lower: &str) -> bool {
    let words: Vec<&str> = first_words(first_clause(lower))
        .into_iter()
        .map(word)
        .collect();
    let chose = |at: usize| match words.get(at..at + 2) {
        Some(["picked" | "chose" | "chosen", _]) => Some(at + 1),
        Some(["decided" | "settled", "on"] | ["went", "with"] | ["opted", "for"]) => Some(at + 2),
        _ => None,
    };
    (1..4.min(words.len())).any(|at| {
        let subject = &words[..at];
        let said_by = !matches!(
            subject[0],
            "i" | "we"
                | "you"
                | "if"
                | "when"
                | "whether"
                | "what"
                | "which"
                | "who"
                | "should"
                | "did"
                | "has"
                | "have"
        ) && (words[at] != "chosen"
            || matches!(subject.last(), Some(&("has" | "have"))));
        said_by
            && chose(at).is_some_and(|object| {
                words
                    .get(object)
                    .is_some_and(|w| !matches!(*w, "up" | "to" | "out" | "it" | "me" | "us" | "on"))
            })
    })
}

/// Does it report what someone else proposed ("a colleague suggested writing our own
/// binlog reader in go instead of running connect", "the CFO wants us to use Ramp")? The
/// user has chosen nothing yet; their answer follows.
fn reports_a_proposal(lower: &str) -> bool {
    const PROPOSED: &[&str] = &[
        "suggested",
        "suggests",
        "proposed",
        "proposes",
        "recommended",
        "pitched",
        "wants us to",
        "wanted us to",
        "pushing for",
        "pushed for",
    ];
    // Said by its subject, in the sentence's first words: not "rest as proposed",
    // "the free program my PT recommended" (a thing, named), nor "what you suggested"
    // (the assistant's proposal, taken).
    let words: Vec<&str> = first_words(lower).into_iter().map(word).take(7).collect();
    let own = words
        .first()
        .is_some_and(|w| matches!(*w, "i" | "we" | "i'd" | "we'd" | "i've" | "we've"));
    // Nor "the start date they proposed is March 3": the proposal named, then settled.
    !own && (1..words.len()).any(|at| {
        !matches!(
            words[at - 1],
            "as" | "was" | "were" | "been" | "be" | "is" | "you" | "the"
        ) && !words
            .get(at + 1)
            .is_some_and(|w| SUBJECT_VERBS.contains(w) || *w == "is")
            && PROPOSED
                .iter()
                .any(|p| says_any(&words[at..].join(" "), &[p]) && p.starts_with(words[at]))
    })
}

/// An order or a plan that ends on what it replaces: "Use md5 to hash passwords
/// instead.", "so both kids are going to Munich International School instead".
fn plans_instead(lower: &str) -> bool {
    lower
        .trim_end_matches(|c: char| !c.is_alphanumeric())
        .ends_with(" instead")
        && (is_imperative(lower) || says_any(lower, &["going to", "will", "we'll", "gonna"]))
}

/// Does a statement set its own bound ("MVP is email + in-app only", "Active means at
/// least one session_start event in that week")? A bound it holds makes it a rule,
/// though it speaks of a thing and not to anyone.
fn bounds_itself(clause: &str) -> bool {
    let words: Vec<&str> = first_words(clause).into_iter().map(word).collect();
    let thing = words
        .first()
        .is_some_and(|w| !NOT_THINGS.contains(w) && !w.starts_with(|c: char| c.is_ascii_digit()));
    let is = words
        .iter()
        .skip(1)
        .take(3)
        .any(|w| matches!(*w, "is" | "are" | "means" | "stays" | "stay"));
    const BOUNDS: &[&str] = &[
        "only",
        "at least",
        "at most",
        "no more than",
        "no less than",
    ];
    thing && is && !is_personal(clause) && says_any(clause, BOUNDS)
}

/// Does a clause hold a mark of a rule ([`RULE_MARKS`], [`BINDING`])? "Between" counts
/// where it bounds a quantity.
fn marks_a_rule(clause: &str) -> bool {
    RULE_MARKS
        .iter()
        .any(|m| contains_phrase(clause, m) && (*m != "between" || bounds_between(clause)))
        || says_any(clause, BINDING)
}

/// Does "between" bound a quantity ("keep it between 3 and 5", "between $200 and $300"),
/// not relate two things ("correlation between F1 and the PM's rating")?
fn bounds_between(clause: &str) -> bool {
    clause.split("between ").skip(1).any(|after| {
        after
            .trim_start_matches(['$', '£', '€'])
            .starts_with(|c: char| c.is_ascii_digit())
    })
}

/// `lower` as the word lists spell it: the apostrophes a hurried writer leaves out put
/// back, curly ones made straight ("i cant go above $20", "flash isnt allowed", "thats
/// settled" read as the words they are; "its" and "ill" stay: they are words of their
/// own), and a few marks spelled one way ("non negotiable", "nvm", "never mind").
fn respelled(lower: &str) -> String {
    const SPELLED: &[(&str, &str)] = &[
        ("cant", "can't"),
        ("dont", "don't"),
        ("doesnt", "doesn't"),
        ("didnt", "didn't"),
        ("isnt", "isn't"),
        ("arent", "aren't"),
        ("wasnt", "wasn't"),
        ("werent", "weren't"),
        ("wont", "won't"),
        ("couldnt", "couldn't"),
        ("shouldnt", "shouldn't"),
        ("wouldnt", "wouldn't"),
        ("havent", "haven't"),
        ("hasnt", "hasn't"),
        ("ive", "i've"),
        ("youre", "you're"),
        ("theyre", "they're"),
        ("thats", "that's"),
        ("whats", "what's"),
        ("im", "i'm"),
        ("nvm", "nevermind"),
    ];
    // "non negotiable", "nonnegotiable": the mark as the lists spell it; "never mind"
    // one word, which is no "never".
    let straight = lower
        .replace('\u{2019}', "'")
        .replace("non negotiable", "non-negotiable")
        .replace("nonnegotiable", "non-negotiable")
        .replace("never mind", "nevermind")
        .replace("let us ", "let's ");
    let mut out = String::with_capacity(straight.len() + 8);
    let mut word_start = None;
    for (at, c) in straight.char_indices() {
        let in_word = c.is_alphanumeric() || c == '\'';
        match (word_start, in_word) {
            (None, true) => word_start = Some(at),
            (Some(start), false) => {
                out.push_str(spelled(&straight[start..at], SPELLED));
                word_start = None;
            }
            _ => {}
        }
        if !in_word {
            out.push(c);
        }
    }
    if let Some(start) = word_start {
        out.push_str(spelled(&straight[start..], SPELLED));
    }
    out
}

/// `token` as `table` spells it, else as it is.
fn spelled<'a>(token: &'a str, table: &[(&str, &'a str)]) -> &'a str {
    table
        .iter()
        .find(|(bare, _)| *bare == token)
        .map_or(token, |(_, spelled)| spelled)
}

/// Does it tell what someone else advises ("my neighbor says we should get ducks
/// instead", "my mom thinks I should get a roommate", "her counselor told her she should
/// write about …", "my dad keeps saying I should just get a new car")? Advice reported is
/// neither the user's choice nor a rule, unless the user takes it up in the same breath
/// ("my lead thinks we should use Kafka and I agree").
fn reports_advice(lower: &str) -> bool {
    const REPORTING: &[&str] = &[
        "says",
        "said",
        "say",
        "thinks",
        "think",
        "told",
        "tells",
        "suggested",
        "suggests",
        "recommended",
        "recommends",
        "insists",
        "insisted",
        "swears",
        "saying",
        "reckons",
    ];
    let words: Vec<&str> = lower.split_whitespace().map(word).collect();
    let advised = words.iter().enumerate().any(|(at, w)| {
        REPORTING.contains(w)
            && at > 0
            && !matches!(words[at - 1], "i" | "we" | "you" | "i'd" | "we'd" | "don't")
            && words[at + 1..].windows(2).take(9).any(|pair| {
                matches!(pair[0], "i" | "we" | "you" | "she" | "he" | "they")
                    && matches!(pair[1], "should" | "shouldn't" | "ought")
            })
    });
    advised
        && !says_any(
            lower,
            &["i agree", "let's", "so we'll", "so i'll", "we agree"],
        )
}

/// A refusal stressed at its end: "she won't touch anything with fish in it, ever".
fn refuses_ever(lower: &str) -> bool {
    lower
        .trim_end_matches(|c: char| !c.is_alphanumeric())
        .ends_with(", ever")
        && says_any(
            lower,
            &["won't", "don't", "can't", "doesn't", "never", "no"],
        )
}

/// What a statement with a question tagged on says ("I'm aiming for 4:15, seems doable?",
/// "we'll go with Postgres — sound good?"): the words before the tag, a few words after a
/// comma or a dash. Not a question that offers alternatives ("Postgres, or MySQL?").
fn confirmed(question: &str) -> Option<&str> {
    let (head, tag) = [", ", " — ", " – ", " - "]
        .iter()
        .filter_map(|mark| question.rsplit_once(mark))
        .max_by_key(|(head, _)| head.len())?;
    let lower = crate::case::lowercase(tag);
    let tag: Vec<&str> = lower.split_whitespace().collect();
    // "…, or MySQL?", "…, but is it fast enough?": alternatives, or a doubt. A question
    // joined by "and" asks beside the statement ("switch prep day to Wednesday evening,
    // and I guess I'll freeze the Monday portions?").
    let joined = tag.first() == Some(&"and");
    let offers = tag.iter().any(|w| matches!(*w, "or" | "vs" | "versus"))
        || tag
            .first()
            .is_some_and(|w| matches!(*w, "but" | "if" | "unless" | "though"));
    // "If we went with leasing instead, how would that look?": a thought, not a choice.
    let supposes = crate::case::lowercase(head)
        .split_whitespace()
        .map(word)
        .find(|w| !LEADS.contains(w))
        .is_some_and(|w| matches!(w, "if" | "what" | "whether" | "suppose" | "say"));
    let short = tag.len() <= 6 || (joined && tag.len() <= 14);
    (short && !offers && !supposes && head.split_whitespace().count() >= 3).then_some(head)
}

/// A value stated, then accepted ("the start date they proposed is March 3, fine by me",
/// "Thursday at 7 works for me").
fn accepts(lower: &str) -> bool {
    const ACCEPTING: &[&str] = &[
        "fine by me",
        "fine with me",
        "works for me",
        "that works",
        "good with me",
        "ok with me",
        "okay with me",
        "i'm good with that",
        "i'm fine with that",
    ];
    let bare = lower.trim_end_matches(|c: char| !c.is_alphanumeric());
    ACCEPTING.iter().any(|tag| {
        bare.strip_suffix(tag).is_some_and(|head| {
            let head = head
                .trim_end()
                .trim_end_matches([',', '-', '—', '–'])
                .trim_end();
            head.split_whitespace().count() >= 3
        })
    })
}

/// A choice said as the user's leaning ("I'm thinking switch her to wet food only",
/// "thinking two 4x8 beds", "I'm thinking we go with the blue"): what follows is an
/// order, a first-person plan or a counted thing, not what the user thinks about ("I'm
/// thinking about Lisbon", "thinking of it, …", "I'm thinking the cache is the
/// problem").
fn leans_to(lower: &str) -> bool {
    let words: Vec<&str> = lower
        .split_whitespace()
        .map(word)
        .skip_while(|w| LEADS.contains(w))
        .collect();
    let rest = match words.as_slice() {
        ["i'm" | "im", "thinking", rest @ ..] | ["i", "am", "thinking", rest @ ..] => rest,
        ["thinking", rest @ ..] => rest,
        _ => return false,
    };
    let Some(&next) = rest.first() else {
        return false;
    };
    let counted = next.starts_with(|c: char| c.is_ascii_digit())
        || matches!(next, "two" | "three" | "four" | "five" | "six");
    let plans = matches!(next, "we" | "we'll" | "i'll" | "let's" | "lets");
    let orders = rest.len() >= 3
        && !matches!(
            next,
            "about" | "of" | "that" | "it" | "maybe" | "if" | "whether" | "the" | "this" | "so"
        )
        && is_imperative(&rest.join(" "));
    counted || plans || orders
}

/// Verbs of a choice said bare, without a subject ([`acts_bare`]).
const ACTS: &[&str] = &[
    "switching",
    "swapping",
    "changing",
    "moving",
    "scrapping",
    "ditching",
    "dropping",
    "bumping",
    "raising",
    "lowering",
    "upgrading",
    "downgrading",
    "replacing",
    "trading",
    "postponing",
    "pushing",
    "cancelling",
    "canceling",
    "returning",
    "selling",
    "keeping",
    "sticking",
    "skipping",
    "picking",
    "choosing",
    "signing",
    "booking",
    "hiring",
    "renting",
    "ordering",
    "buying",
    "getting",
    "doing",
    // "I'm pricing the 8 oz jars at $9", "I'm trimming it to four flavors".
    "pricing",
    "trimming",
    "capping",
    "charging",
    "naming",
];

/// A change or a choice said without its subject, as chat does ("switching the coast base
/// to Rovinj", "scrapping the module, I'm writing my own", "signing up for the Harvest
/// Hills 10K", "nope, doing the April half-marathon", "ordered a nuc for late April"): a
/// verb that changes, gets or drops something opens it, then what it acts on. Not what
/// the work is ("redoing our only bathroom ourselves", "writing a small rust cli"), not
/// "cutting it close".
fn acts_bare(lower: &str) -> bool {
    // "starting with the voicemail he left me", "ending on the toast to both their moms":
    // an order set.
    const ORDER: &[&str] = &["starting", "opening", "ending", "closing", "finishing"];
    const ON: &[&str] = &[
        "the", "a", "an", "my", "our", "her", "his", "their", "up", "for", "to", "off", "out",
        "back", "both", "all",
    ];
    let words: Vec<&str> = first_words(first_clause(lower))
        .into_iter()
        .map(word)
        .collect();
    let Some([verb, next, ..]) = without_subject(&words) else {
        return false;
    };
    // "ordering matters per order id": the -ing word is the subject.
    if SUBJECT_VERBS.contains(next) {
        return false;
    }
    // "switching food to Hartley's barbecue", "hiring Bluebird Movers to do the whole
    // thing": what it changes to, or whom it engages, whatever comes between.
    let changes = matches!(
        *verb,
        "switching" | "swapping" | "moving" | "changing" | "bumping" | "switched" | "swapped"
    ) && words.contains(&"to");
    // "using mann-whitney for the between-ward comparisons": the means, set for a part.
    let means = *verb == "using" && !matches!(*next, "it" | "my" | "the") && words.contains(&"for");
    // "booked him for next thursday at 10": engaged, for someone.
    let engages = (matches!(*verb, "hiring" | "booking" | "renting" | "ordering")
        && !matches!(*next, "to" | "it" | "is" | "was" | "costs"))
        || (DONE.contains(verb) && matches!(*next, "him" | "her" | "them" | "us" | "me"));
    // "switching to …", "bumping it to …"; not "returning to the agreement", "getting to
    // it".
    let to = *next != "to"
        || matches!(
            *verb,
            "switching" | "changing" | "bumping" | "upgrading" | "downgrading" | "sticking"
        );
    // "dropping vegas, its just phoenix and tucson": what is dropped, named bare.
    // "cancelled peloton, just using the free youtube program": dropped, said as news.
    let drops = (matches!(*verb, "dropping" | "scrapping" | "ditching" | "cutting")
        || CHANGED.contains(verb) && !matches!(*verb, "switched" | "swapped"))
        && !matches!(*next, "to" | "by" | "in" | "into" | "it" | "off");
    // "ordered brass pulls from amazon": a deal names what it got.
    let deal = DONE.contains(verb)
        && next.chars().all(char::is_alphabetic)
        && !matches!(
            *next,
            "it" | "that" | "this" | "them" | "to" | "in" | "out" | "on"
        );
    let on = (ON.contains(next) || next.starts_with(|c: char| c.is_ascii_digit()) || drops || deal)
        && to;
    let acts = (ACTS.contains(verb) || DONE.contains(verb) || CHANGED.contains(verb)) && on
        || changes
        || engages
        || means;
    let orders = ORDER.contains(verb) && matches!(*next, "with" | "on");
    // Not "signed up to coach my son's team": the work itself.
    let takes_on = words.windows(3).any(|w| w == ["signed", "up", "to"]);
    (acts || orders) && !takes_on && !lower.trim_end().ends_with('?')
}

/// A clause's words from its verb on, its subject dropped where it says the same as the
/// bare verb: "I'm doing the balance transfer to the 0% card" (not "I'm doing my
/// master's thesis on …", the work itself: `None`), "So I've switched to Thursday
/// afternoons", "we cancelled the caterer".
fn without_subject<'w, 'a>(words: &'w [&'a str]) -> Option<&'w [&'a str]> {
    match words {
        ["i'm" | "im", _, "my", ..] => None,
        ["i'm" | "im", rest @ ..] => Some(rest),
        ["i've" | "we've" | "i" | "we", rest @ ..]
            if rest
                .first()
                .is_some_and(|verb| CHANGED.contains(verb) || DONE.contains(verb)) =>
        {
            Some(rest)
        }
        // "We have booked the hall", "I just signed up for the sprint".
        [
            "i" | "we",
            "have" | "just" | "already" | "finally",
            rest @ ..,
        ]
        | ["i've" | "we've", "just" | "already" | "finally", rest @ ..]
            if rest
                .first()
                .is_some_and(|verb| CHANGED.contains(verb) || DONE.contains(verb)) =>
        {
            Some(rest)
        }
        all => Some(all),
    }
}

/// Verbs that report a choice changed, said as news ("dropped pimsleur, doing language
/// transfer instead", "switched to Thursday afternoons").
const CHANGED: &[&str] = &[
    "dropped",
    "scrapped",
    "ditched",
    "cancelled",
    "canceled",
    "switched",
    "swapped",
];

/// Verbs that report a deal done, said bare ("ordered a nuc …", "bought the neighbor's
/// Odyssey, 2017, done", "booked the February 10 slot").
const DONE: &[&str] = &[
    "ordered",
    "bought",
    "booked",
    "reserved",
    "hired",
    "rented",
    "registered",
    "enrolled",
    "signed",
];

/// Does it report a deal done, bare? It carries out a choice more often than it replaces
/// one: "booked the February 10 slot at the post office" after "doing mine in person at
/// the post office".
fn reports_a_deal(said: &str) -> bool {
    let lower = crate::case::lowercase(said);
    first_words(&lower)
        .first()
        .is_some_and(|w| DONE.contains(&word(w)))
}

/// A choice that ends on what it replaces, said as a name ("snowball instead, I need the
/// quick wins", "the RAV4 hybrid from the private seller instead"): a few words, not a
/// thing described ("it's cheaper instead"), not what someone did ("I took the train
/// instead").
fn ends_instead(lower: &str) -> bool {
    const NOT_NAMES: &[&str] = &[
        "it", "it's", "that", "that's", "there", "this", "which", "what", "how", "why", "if",
        "when", "or", "maybe", "you", "they", "he", "she", "i", "we",
    ];
    let first = lower.split([',', ';', '—']).next().unwrap_or("");
    let first = first.trim().trim_end_matches(['.', '!']).trim_end();
    let Some(named) = first.strip_suffix(" instead") else {
        return false;
    };
    let words: Vec<&str> = first_words(named).into_iter().map(word).collect();
    (1..=10).contains(&words.len()) && !words.first().is_some_and(|w| NOT_NAMES.contains(w))
}

/// Words a sentence may open with before what it says ("so", "ok", "but").
const LEADS: &[&str] = &[
    "so", "and", "but", "ok", "okay", "also", "oh", "hey", "well",
];

/// Does it ask ("should i keep it or swap to nginx", "can we skip the tests"), with or
/// without its question mark? A question decides nothing and orders nothing.
fn asks(lower: &str) -> bool {
    const ASKING: &[&str] = &[
        "should", "can", "could", "would", "will", "do", "does", "did", "is", "are", "am",
    ];
    const WHO: &[&str] = &[
        "i", "we", "you", "it", "they", "there", "he", "she", "this", "that", "the", "a", "an",
        "my", "our", "your", "one", "is", "are", "do", "does", "should", "would", "can",
    ];
    // "Prague: what's a realistic 3 days": a label before the question.
    let lower = match lower.split_once(": ") {
        Some((label, rest)) if label.split_whitespace().count() <= 2 => rest,
        _ => lower,
    };
    let mut words = lower
        .split_whitespace()
        .map(word)
        .skip_while(|w| LEADS.contains(w));
    let Some(first) = words.next() else {
        return false;
    };
    let second = words.next();
    if ASKING.contains(&first) {
        return second.is_some_and(|second| WHO.contains(&second));
    }
    // "anything we cook at dinner has to be gluten-free": what any of it must be, a rule.
    let binding = first == "anything" && says_any(lower, &["has to", "have to", "must"]);
    asks_what(first, second) && !binding
}

/// Does a sentence opening with these two words ask what, how, which or where ("what's
/// the catch with ECS", "how long should I rest", "which is cheaper", "what if we had a
/// class pet", "anything I should know about …")? Not "what I want is
/// …", "how about the 7:40", "when we land, …".
fn asks_what(first: &str, second: Option<&str>) -> bool {
    const ASKED: &[&str] = &[
        "what's", "whats", "how's", "hows", "where's", "wheres", "who's", "which's",
    ];
    const WH: &[&str] = &["what", "how", "which", "where", "when", "why", "who"];
    const THEN: &[&str] = &[
        "is", "are", "was", "were", "do", "does", "did", "should", "would", "could", "can", "will",
        "much", "many", "long", "often", "far", "soon", "big", "old", "if",
    ];
    // "anything I should know about renting there", "any tips for the drive".
    let any = match first {
        "anything" => second.is_some_and(|s| matches!(s, "i" | "we" | "else" | "to")),
        "any" => second.is_some_and(|s| {
            matches!(
                s,
                "tips" | "ideas" | "advice" | "thoughts" | "suggestions" | "recommendations"
            )
        }),
        _ => false,
    };
    any || ASKED.contains(&first)
        || (WH.contains(&first) && second.is_some_and(|second| THEN.contains(&second)))
}

/// The clause's subject when it opens with one of the words that make a sentence a
/// statement ("it", "the"), or the first word.
fn subject_of(clause: &str) -> &str {
    first_words(clause)
        .into_iter()
        .map(word)
        .find(|w| !is_adverb(w))
        .unwrap_or("")
}

/// What an instruction says it replaces ("… instead of a unit test", "… rather than
/// transferring copyright", "So scratch Bark, we'll just use …", "actually scrap the
/// 50/30/20 thing", "my husband vetoed the trampoline park"): the words of substance
/// after it, up to the clause's end. None when they name nothing ("scratch that").
fn replaced(said: &str) -> Option<Vec<String>> {
    const TAKING_BACK: &[&str] = &[
        "instead of ",
        "rather than ",
        "scratch ",
        "scrap ",
        "ditch ",
        "forget about ",
        "forget ",
        "vetoed ",
        "cancelled ",
        "canceled ",
        "dropped ",
    ];
    let lower = crate::case::lowercase(said);
    let rest = TAKING_BACK.iter().find_map(|mark| {
        lower
            .match_indices(mark)
            .find(|&(at, _)| is_edge(lower[..at].chars().rev()))
            .map(|(at, _)| &lower[at + mark.len()..])
    })?;
    let named = rest.split([',', '.', ';', ':', '!', '?', '—']).next()?;
    let words = subject_words(named);
    (!words.is_empty()).then_some(words)
}

/// Does the user commit to get, book or submit something ("I'll get the X-T30 II", "we'll
/// submit the first paper to …")?
fn commits(lower: &str) -> bool {
    // Each verb with the form that says it is under way ("I'm signing up for the N5"), if
    // that says a choice: not "I'm building an app", which tells the task.
    const VERBS: &[(&str, &str)] = &[
        ("get", "getting"),
        ("buy", "buying"),
        ("book", "booking"),
        ("hire", "hiring"),
        ("open", ""),
        ("order", "ordering"),
        ("submit", "submitting"),
        ("move", ""),
        ("sign", "signing"),
        ("rent", "renting"),
        ("apply", "applying"),
        ("install", "installing"),
        ("start", "starting"),
        ("end", ""),
        ("claim", "claiming"),
        ("counter", "countering"),
        ("cut", "cutting"),
        ("join", "joining"),
        ("consolidate", "consolidating"),
        ("aim", "aiming"),
        ("use", ""),
    ];
    let words: Vec<&str> = first_words(lower).into_iter().map(word).collect();
    // The verb after "I'll", "we'll", "I will", "we will", "I'm going to", and the word
    // after it.
    for at in 0..words.len() {
        let going_to = words.get(at + 1) == Some(&"going") && words.get(at + 2) == Some(&"to");
        let verb = match words[at] {
            "i'll" | "we'll" => at + 1,
            "i" | "we" if words.get(at + 1) == Some(&"will") => at + 2,
            "i'm" | "im" | "we're" if going_to => at + 3,
            // "im gonna make my own starter", "gonna use pimsleur".
            "gonna" if at <= 2 => at + 1,
            "i'm" | "im"
                if words
                    .get(at + 1)
                    .is_some_and(|w| VERBS.iter().any(|(_, ing)| ing == w)) =>
            {
                return true;
            }
            _ => continue,
        };
        // "I'll just use a spreadsheet", "we'll definitely book the barn".
        let verb = verb
            + usize::from(words.get(verb).is_some_and(|w| {
                matches!(
                    *w,
                    "just" | "also" | "definitely" | "then" | "now" | "actually"
                )
            }));
        let next = words.get(verb + 1).copied().unwrap_or("");
        if words.get(verb).is_some_and(|w| does_a_thing(w, next)) && !hedges(lower) {
            return true;
        }
        match words.get(verb).copied() {
            Some(verb) if VERBS.iter().any(|(v, _)| *v == verb) => return true,
            // "I will try the oatmeal with walnuts": a thing to try, not "try to …", not
            // "try it and see".
            Some("try") if ["the", "a", "an", "out"].contains(&next) => return true,
            // "I'm going to ask them to strike the renewal clause", "I'll ask for the
            // extra remote day in writing"; not "I'll ask my wife".
            Some("ask") if ["for", "them"].contains(&next) => return true,
            // "I'll host it on Buzzsprout", "I'll set up an Etsy shop".
            Some("host") => return true,
            Some("set") if next == "up" => return true,
            // "I'll make an offer on the 2018 CX-5".
            Some("make")
                if ["an", "a"].contains(&next) && words.get(verb + 2) == Some(&"offer") =>
            {
                return true;
            }
            _ => {}
        }
    }
    false
}

/// Verbs that do nothing to the work in "I'll …": a word to someone, a look, a thought.
const NOT_DOING_A_THING: &[&str] = &[
    "think",
    "check",
    "see",
    "let",
    "tell",
    "talk",
    "look",
    "wait",
    "need",
    "have",
    "be",
    "figure",
    "consider",
    "read",
    "send",
    "note",
    "mention",
    "run",
    "remember",
    "update",
    "report",
    "follow",
    "sleep",
    "bring",
    "vote",
    "discuss",
    "decide",
    "research",
    "google",
    "call",
    "text",
    "email",
    "message",
    "show",
    "share",
    "post",
    "come",
    "play",
    "practice",
    "work",
    "stay",
    "give",
    "miss",
    "love",
    "like",
    "want",
    "hate",
    "agree",
    "guess",
    "bet",
    "pass",
    "forward",
    "ping",
    "sort",
    "deal",
    "handle",
    "leave",
    "probably",
    "maybe",
    "ask",
    "try",
    "get",
    "go",
    "do",
    "write",
    "take",
    "double-check",
    "find",
    "know",
    "let's",
    "start",
];

/// Is `verb`, with `next` after it, a thing done to the work ("redo my portfolio", "launch
/// it on …", "use a spreadsheet", "focus on the CX-5", "roll it into …"), not a word
/// to someone, a look, a thought or a wait ("tell her", "check the numbers", "think
/// about it", "vote on it", "figure it out")?
fn does_a_thing(verb: &str, next: &str) -> bool {
    const OBJECT: &[&str] = &[
        "the", "a", "an", "my", "our", "it", "them", "his", "her", "their", "on", "with", "into",
        "at", "around", "every",
    ];
    verb.len() > 2
        && verb.chars().all(|c| c.is_ascii_alphabetic())
        && !verb.ends_with("ing")
        && !verb.ends_with("ed")
        && !NOT_DOING_A_THING.contains(&verb)
        && (OBJECT.contains(&next) || next.starts_with(|c: char| c.is_ascii_digit()))
}

/// Does a sentence hedge what it says ("maybe", "probably", "if …", "not sure")?
fn hedges(lower: &str) -> bool {
    says_any(
        lower,
        &[
            "maybe",
            "probably",
            "might",
            "perhaps",
            "not sure",
            "if",
            "unless",
            "i guess",
            "hopefully",
            "i think",
            "later",
        ],
    )
}

/// Does a later clause drop an option ("oats for breakfast, forget the smoothie idea",
/// "Update on the booking software: forget Vetstoria, we're going with PetDesk")? To
/// forget to do something drops nothing.
fn drops_a_choice(lower: &str) -> bool {
    clauses(lower).skip(1).any(|clause| {
        let mut words = clause.split_whitespace();
        let (Some(verb), Some(object)) = (words.next(), words.next()) else {
            return false;
        };
        match verb {
            "forget" | "scrap" | "ditch" => !["to", "about", "it"].contains(&object),
            "drop" => object == "the",
            _ => false,
        }
    })
}

/// Does it open by dropping an option and go on to what replaces it ("Scrap Milos, we're
/// ending on Paros instead")? Not "forget it, …", not "forget to …".
fn opens_dropping(lower: &str) -> bool {
    let mut words = lower
        .split_whitespace()
        .skip_while(|w| LEADS.contains(&word(w)));
    let (Some(verb), Some(object)) = (words.next(), words.next()) else {
        return false;
    };
    // "nevermind on the risk acceptance, we upgrade jquery too"; not "nevermind, I
    // found it".
    ["scrap", "ditch", "forget", "scratch", "nevermind"].contains(&word(verb))
        && !verb.ends_with(',')
        && ![
            "it", "to", "about", "that", "this", "i", "we", "you", "he", "she", "they", "me",
            "then", "lol",
        ]
        .contains(&word(object))
        && clauses(lower)
            .nth(1)
            .is_some_and(|then| !asks(then) && !says_any(then, &["show me", "give me", "tell me"]))
}

/// Is it an order that changes a part of the work to another choice ("switch prep day to
/// Wednesday evening", "change the font to Georgia", "move the party to Saturday", "ok
/// back to a pass")?
fn changes_to(lower: &str) -> bool {
    let words = first_words(lower);
    // "ok back to a pass, the 5 days within 1 month one".
    // Not back to a subject of the talk ("back to the question about the tiles").
    let back = matches!(words.as_slice(), ["back", "to", "a" | "an" | "the" | "our", next, ..]
        if !["question", "topic", "point", "subject", "issue"].contains(&word(next)));
    // "We have changed to the emerald green gown instead", "we moved the crate out to the
    // living room at night": the change, said done; not "we moved to Denver in 2019".
    let done = match words.as_slice() {
        ["we" | "i", "have" | "just", rest @ ..] | ["we've" | "i've" | "we" | "i", rest @ ..] => {
            matches!(rest, ["changed" | "switched", "to", ..])
                || matches!(rest, ["moved", "the" | "our" | "my" | "it" | "them", ..])
                    && rest.iter().take(6).any(|w| *w == "to")
        }
        _ => false,
    };
    back || done
        || (matches!(words.first(), Some(&("switch" | "change" | "move")))
            && words.iter().skip(1).take(5).any(|w| *w == "to"))
}

/// Is it an order that picks ("Drop Python 3.8 support in the next release", "use the
/// title 'The Quiet Founder'")?
fn orders_a_pick(lower: &str) -> bool {
    let words = first_words(lower);
    changes_to(lower)
        || matches!(
            words.as_slice(),
            ["drop" | "pick" | "choose", ..]
            // "ship 4.2 on Thursday": a release, set.
            | ["ship" | "launch" | "release", _, "on" | "in" | "by", ..]
            // "ok put the router in the basement next to the modem": a thing, placed.
            | ["put" | "place" | "mount" | "hang", "the" | "our" | "my" | "it" | "them" | "a" | "an", _, ..]
            // "Start from whisper-large-v3-turbo and fine-tune the full model".
            | ["start", "from", _, ..]
            // "skip the pass and book point-to-point tickets", "ok counter at $97k then".
            | ["skip", "the", _, ..]
            | ["counter", "at" | "with", _, ..]
            // "price the 8oz tins at $18".
            | ["price", "the" | "our" | "my" | "each" | "them" | "it", ..]
            // "cut the recipe importer", "book the lakeside lodge", "scrap the butcher
            // block": a part of the work, engaged or dropped.
            | ["cut" | "book" | "scrap" | "ditch" | "hire" | "cancel",
               "the" | "our" | "my" | "both" | "all" | "that" | "this", _, ..]
            // "treat the likert items as ordinal", "base the average on the last 90 days":
            // how a thing is read, set.
            | ["treat" | "base" | "count" | "sort" | "group",
               "the" | "our" | "my" | "each" | "all" | "them" | "it", ..]
            // "put him on a 60-day PIP".
            | ["put", "him" | "her", "on" | "in", ..]
        )
        // "Store every timestamp in UTC" is a rule of the work.
        || (orders_the_work(&words)
            && !matches!(words.get(1).map(|w| word(w)), Some("every" | "each"))
            && !says_any(lower, &["always", "never", "no exceptions"]))
        || match words.as_slice() {
            // "ok use email plus postcode": the means, set; not "use it wisely", "use your
            // judgement", "used to".
            ["use", next, _, ..] => !matches!(word(next), "it" | "to" | "your" | "this" | "that"),
            // "Ok, make it 2 Orpingtons and 2 Easter Eggers", "so make it the Friday
            // slot": a number or a thing, set; not "make it shorter", "make it work".
            ["make", "it", next, ..] => {
                next.starts_with(|c: char| c.is_ascii_digit() || c == '$')
                    || matches!(
                        word(next),
                        "the"
                            | "a"
                            | "an"
                            | "two"
                            | "three"
                            | "four"
                            | "five"
                            | "six"
                            | "monday"
                            | "tuesday"
                            | "wednesday"
                            | "thursday"
                            | "friday"
                            | "saturday"
                            | "sunday"
                    )
            }
            // "return 429 with a Retry-After header": what an interface answers.
            ["return", next, "with" | "and" | "for" | "on", ..] => {
                next.starts_with(|c: char| c.is_ascii_digit())
            }
            _ => false,
        }
}

/// What is done to a system, never what an assistant writes ([`orders_the_work`]).
const WORK_VERBS: &[&str] = &[
    "accept",
    "ship",
    "compress",
    "move",
    "split",
    "exclude",
    "archive",
    "shard",
    "partition",
    "encrypt",
    "hash",
    "batch",
    "cache",
    "store",
    "vendor",
    "pin",
    "migrate",
    "merge",
    "deprecate",
    "retire",
    "sunset",
    "gate",
    "throttle",
    "retain",
    "purge",
    "dedupe",
    "route",
    "proxy",
    "queue",
    "host",
    "self-host",
    "stream",
    "oversample",
    "downsample",
    "freeze",
    "quantize",
    "generate",
    "enforce",
    "deploy",
    "bundle",
    "precompute",
    "denormalize",
    "key",
    "bucket",
    "debounce",
    "sanitize",
    "escape",
    "rotate",
    "expire",
    "evict",
    "mirror",
    "replicate",
];

/// What follows a verb, not a noun ("batch size is 512", "cache has ~200k entries",
/// "shard 1 took 4m10s", "store cache + install: ~45s"): a thing of the work, a
/// preposition, or things counted ("SBOMs", "429s", "1600px").
const WORK_OBJECTS: &[&str] = &[
    "the",
    "a",
    "an",
    "our",
    "their",
    "all",
    "every",
    "each",
    "any",
    "raw",
    "old",
    "older",
    "new",
    "it",
    "them",
    "everything",
    "by",
    "to",
    "on",
    "per",
    "into",
    "in",
    "at",
    "with",
];

/// Is it a bare order that does a thing to the work ("accept the risk on the outdated
/// jquery", "move raw data older than 90 days to Atlas Online Archive", "split by
/// dashboard topic", "compress to 1600px long edge", "generate SBOMs with syft in CI"),
/// not one that asks for an answer ("split this into two functions", "generate a script
/// that …")? The verbs are what is done to a system, never what an assistant writes.
fn orders_the_work(words: &[&str]) -> bool {
    let [verb, next, _, ..] = words else {
        return false;
    };
    let (verb, next) = (word(verb), word(next));
    let things = next.len() > 3
        && next.ends_with('s')
        && !next.ends_with("ss")
        && !SUBJECT_VERBS.contains(&next)
        && !matches!(
            next,
            "takes"
                | "looks"
                | "does"
                | "goes"
                | "needs"
                | "runs"
                | "gets"
                | "this"
                | "his"
                | "hers"
                | "ours"
                | "yours"
                | "theirs"
                | "thus"
                | "plus"
                | "always"
        );
    let measured = next.starts_with(|c: char| c.is_ascii_digit())
        && next.contains(|c: char| c.is_alphabetic());
    WORK_VERBS.contains(&verb)
        && (WORK_OBJECTS.contains(&next) || things || measured)
        && !(verb == "generate" && matches!(next, "a" | "an" | "the"))
}

/// Does it tell what someone does as a habit ("I always pick one at random"), not what
/// they chose?
fn is_habit(lower: &str) -> bool {
    says_any(
        lower,
        &[
            "always",
            "usually",
            "often",
            "sometimes",
            "never",
            "normally",
            "tend to",
        ],
    )
}

/// A floor or a ceiling the user sets themselves: "I will not go below $92,000 base".
const OWN_LIMITS: &[&str] = &[
    "will not go below",
    "won't go below",
    "will not go above",
    "won't go above",
    "will not go over",
    "won't go over",
    "will not go under",
    "won't go under",
    // "i can't go above $20 at the market".
    "can't go above",
    "can't go over",
    "can't go below",
    "can't go under",
    "cannot go above",
    "cannot go over",
    "cannot go below",
    "cannot go under",
    // "I refuse to finance through the dealer".
    "i refuse",
    "we refuse",
];

/// What someone the work is for, or the place it happens in, will not have or do, as
/// the user relays it ("our lease doesn't allow any alcohol", "my husband refuses to pay
/// for lightning lane", "he asked me not to use any kids' books", "my daughter does NOT
/// want a DJ", "we are not doing full cry it out", "his tools are NOT for sale", "anything
/// with a lot of walking is out for him", "that's a hard line for me").
const REFUSALS: &[&str] = &[
    "doesn't allow",
    "does not allow",
    "don't allow",
    "won't allow",
    "doesn't want",
    "does not want",
    "refuses to",
    "asked me not to",
    "asked us not to",
    "told me not to",
    "told us not to",
    "not for sale",
    "is out for",
    "are out for",
    "hard line",
    "would hate",
    "we're not doing",
    "we are not doing",
    "i'm not doing",
    "i am not doing",
    "we're not paying",
    "i'm not paying",
    "i'm not putting",
    "we're not putting",
    // "my ex won't agree to any exchanges at his mother's house", "my wife won't have any
    // cactus", "my husband will not give up his good coffee beans".
    "won't agree to",
    "will not agree to",
    "won't have any",
    "will not have any",
    "won't give up",
    "will not give up",
    // "my mother-in-law insists that the Mass be at St. Anthony's", "she made me promise
    // no inflatables", "I promised them the hive entrances won't face their yard".
    "insists",
    "insisted",
    "made me promise",
    "i promised",
    "we promised",
    // "her budget tops out at $3,000".
    "tops out at",
    "top out at",
];

/// What a person or a place of the work requires ("the school requires that all snacks be
/// store-bought", "daycare requires pull-ups until he's gone a full week"), not what a
/// thing takes ("it requires a restart").
fn relays_a_requirement(clause: &str) -> bool {
    let first = clause.split_whitespace().next().map(word);
    says_any(clause, &["requires", "require that"])
        && !matches!(
            first,
            Some("it" | "this" | "that" | "which" | "what" | "does" | "do")
        )
}

/// "the Hendersons can't drive mornings at all": what someone can never do, a rule for
/// any plan.
fn never_can(clause: &str) -> bool {
    let words: Vec<&str> = clause.split_whitespace().map(word).collect();
    // "we can't lose any open PR's work", "the payments namespace cannot experience any
    // downtime", "email can't bounce or be delayed at any point": not ever, not any of it.
    // Said of the work, not to the reader ("Note that you cannot use any interactive
    // session commands in this environment" tells an agent how its tools work).
    let any = refuses_a_deed(&words)
        && !words.contains(&"you")
        && (says_any(clause, &["at any point", "at any time", "ever"])
            || words
                .windows(3)
                .any(|w| matches!(w[0], "can't" | "cannot") && matches!(w[2], "any" | "anything")));
    any || (says_any(clause, &["can't", "cannot"])
        && clause.trim_end_matches(['.', '!']).ends_with(" at all"))
}

/// Words that set a limit on a thing ("opening budget can't exceed 120k", "flash isn't
/// allowed at her games").
const LIMITS: &[&str] = &[
    "can't exceed",
    "cannot exceed",
    "can not exceed",
    "must not exceed",
    "may not exceed",
    "not to exceed",
    "capped at",
    "is capped",
    "are capped",
    "hard limit",
    "hard cap",
    "longer than",
    "is banned",
    "are banned",
    "off-limits",
    "off limits",
    "not allowed",
    "isn't allowed",
    "aren't allowed",
    "not permitted",
    "isn't permitted",
    "aren't permitted",
];

/// What a thing of the work can't do, said as a limit ("the beds can't go in the front
/// yard", "opening budget can't exceed 120k", "the external version can't mention the
/// vendor").
const THING_MAY_NOT: &[&str] = &[
    "be", "go", "have", "include", "contain", "exceed", "use", "cost", "mention", "require",
    "show", "change", "touch", "depend", "rely", "store", "send", "share", "expose",
];

/// What "we can't" do to the work, said as a limit ("we can't change the public schema",
/// "we can't spend on a lawyer until the seed round closes"), not a fault ("we can't get
/// it to work", "we can't reproduce it").
const WE_MAY_NOT: &[&str] = &[
    "change", "add", "touch", "spend", "show", "use", "require", "bump", "break", "remove",
    "modify", "alter", "drop", "deploy", "ship", "upgrade", "store", "send", "share", "expose",
    "exceed", "afford", "rename", "delete", "hire", "promise", "go", "pay", "move", "rely",
    "depend", "collect",
];

/// Does a clause pin the work to a version or a setting ("we're stuck on 1.54 for now",
/// "we're staying on terraform 1.5.x", "we need to use American English", "a secondary is
/// mandatory")? Not "I'm stuck on this bug": a number names what it is pinned to.
fn pins(clause: &str) -> bool {
    let words: Vec<&str> = clause.split_whitespace().map(word).collect();
    let pinned = words.windows(2).enumerate().any(|(at, pair)| {
        matches!(pair[0], "stuck" | "staying" | "stay" | "pinned" | "locked")
            && matches!(pair[1], "on" | "to" | "at")
            && words[at + 2..]
                .iter()
                .take(3)
                .any(|w| w.chars().any(|c| c.is_ascii_digit()))
    });
    pinned
        || says_any(
            clause,
            &[
                "is mandatory",
                "are mandatory",
                "we need to use",
                "we have to use",
                "we need to support",
                "we have to support",
                "we need to stay",
                "we have to stay",
            ],
        )
}

/// Does a modal bind the work whatever its subject ("The narrative must stay within 2,500
/// words", "builds should not take longer than 10 minutes", "opening budget can't exceed
/// 120k")? Not a deduction ("that must be hard", "it shouldn't matter", "I must say").
fn binds(clause: &str) -> bool {
    const PEOPLE: &[&str] = &["i", "i'm", "he", "she", "they", "you"];
    const THINGS: &[&str] = &["it", "it's", "that", "this", "there", "which", "what"];
    if says_any(clause, OWN_LIMITS)
        || says_any(clause, REFUSALS)
        || limits_by_number(clause)
        || pins(clause)
        || never_can(clause)
        || relays_a_requirement(clause)
    {
        return true;
    }
    let subject = subject_of(clause);
    if denies(clause) {
        return true;
    }
    if PEOPLE.contains(&subject) {
        return false;
    }
    if says_any(clause, LIMITS) {
        return true;
    }
    let words: Vec<&str> = clause.split_whitespace().map(word).collect();
    let thing = THINGS.contains(&subject);
    words.iter().enumerate().any(|(at, word)| {
        let next = words.get(at + 1).copied().unwrap_or("");
        let after = words.get(at + 2).copied().unwrap_or("");
        match *word {
            // "must be" of a thing deduces ("it must be the cache"); of the work it binds.
            "must" => {
                let deduced = matches!(next, "say" | "admit" | "confess" | "")
                    || (next == "have" && after == "been")
                    || (thing && matches!(next, "be" | "have"));
                !deduced
            }
            "mustn't" => true,
            "should" => {
                !thing && matches!(next, "not" | "never" | "always" | "still" | "only" | "be")
            }
            // "the kids' devices need to be on a separate network".
            // Or "every hotel needs a pool".
            "need" | "needs" | "has" | "have" => {
                (!thing && next == "to" && after == "be")
                    || (word.starts_with("need")
                        && words[at.saturating_sub(3)..at]
                            .iter()
                            .any(|w| matches!(*w, "every" | "each" | "all")))
                    // "the office on the 3rd floor needs wired ethernet": a part of the
                    // work, what it must have.
                    || (*word == "needs"
                        && at <= 6
                        && matches!(words.first(), Some(&("the" | "our")))
                        && !matches!(next, "to" | "a" | "some" | "more" | "help" | "work")
                        && !is_personal(clause))
            }
            "shouldn't" => !thing,
            // "Uncle Rob and Aunt Denise can NOT be at the same table".
            // "the beds can't go in the front yard, HOA rules"; not "the app can't
            // connect", a fault.
            // Said of a thing, not of a person however the clause opens ("note however
            // that you cannot use interactive commands" tells the agent its setting).
            // "we can't change the public schema, mobile clients depend on it", "the
            // external version can't mention the vendor": what may not be done to the
            // work; not "we can't get it to work", a fault.
            "can't" | "cannot" => {
                let before = at.checked_sub(1).map(|b| words[b]);
                !thing
                    && !before.is_some_and(|b| PEOPLE.contains(&b))
                    && if before == Some("we") {
                        WE_MAY_NOT.contains(&next)
                    } else {
                        THING_MAY_NOT.contains(&next)
                    }
            }
            "can" => !thing && next == "not" && after == "be",
            _ => false,
        }
    })
}

/// Does a clause say what someone may not have ("he can't have chicken, it makes him
/// itch", "She can't have social media until she's 14")? A rule for whatever is chosen
/// for them.
fn denies(clause: &str) -> bool {
    says_any(
        clause,
        &[
            "can't have",
            "cannot have",
            "can't eat",
            "cannot eat",
            "can't drink",
            "cannot drink",
        ],
    ) && !contains_phrase(clause, "have been")
}

/// Does a clause set a limit by a number ("our sessions are 3 hours max", "our budget is
/// €4,000 for both of us", "I only get 20 minutes on weekdays", "I need … at least 2 days
/// a week")?
fn limits_by_number(clause: &str) -> bool {
    let words: Vec<&str> = clause.split_whitespace().map(word).collect();
    let number = |w: &str| w.chars().any(|c| c.is_ascii_digit());
    let has_number = words.iter().any(|w| number(w));
    // A number, then its unit, then "max": "3 hours max", "$400 max".
    let max_after = words.iter().enumerate().any(|(at, w)| {
        matches!(*w, "max" | "maximum" | "tops")
            && words[at.saturating_sub(3)..at].iter().any(|w| number(w))
    });
    // "our budget is €4,000", "my whole budget for supplies is $60".
    let budget = contains_phrase(clause, "budget of")
        || words.iter().enumerate().any(|(at, w)| {
            matches!(*w, "budget" | "budget's")
                && words[at + 1..]
                    .iter()
                    .take(4)
                    .any(|w| matches!(*w, "is" | "'s"))
                || *w == "budget's"
        });
    let only = matches!(words.as_slice(), ["i" | "we", "only", "get" | "have", ..]);
    // "i only want to work on this on weekends", "we only eat chicken and fish": a limit
    // without a number; not "I only want to know …".
    if let ["i" | "we", "only", verb, next, ..] = words.as_slice()
        && matches!(
            *verb,
            "want" | "eat" | "use" | "buy" | "drink" | "fly" | "shop"
        )
        && !matches!(*next, "to" if words.get(4).is_some_and(|w| matches!(*w, "know" | "ask" | "see" | "check" | "make" | "say")))
    {
        return true;
    }
    let at_least = contains_phrase(clause, "need") && contains_phrase(clause, "at least");
    // "we can spend about $80 a month on her food", "I can't take more than two days off".
    let spend = says_any(clause, &["can spend", "can afford", "can only spend"]);
    let refused = refuses_a_deed(&words);
    // "we can't drive more than about 3 hours on any single day".
    let at_most = refused
        && words.windows(4).any(|w| {
            let amount = if matches!(w[2], "about" | "around" | "roughly") {
                w[3]
            } else {
                w[2]
            };
            w[0] == "more"
                && w[1] == "than"
                && (number(amount) || matches!(amount, "one" | "two" | "three" | "four" | "five"))
        });
    // "the feature lookup can take at most 10ms p99", "we would prefer to spend no more than
    // $45 per month", "the board has capped the costume budget at $1,500 total".
    let capped = words
        .iter()
        .position(|w| *w == "capped")
        .is_some_and(|at| words[at..].iter().take(6).any(|w| *w == "at"));
    // Set by someone, not measured ("this takes no more than 5 minutes").
    let set = says_any(
        clause,
        &[
            "can", "could", "should", "must", "prefer", "want", "spend", "budget", "keep",
        ],
    );
    let at_most_said =
        ((says_any(clause, &["at most", "no more than"]) && set) || capped) && has_number;
    max_after
        || at_most
        || at_most_said
        || sets_a_bound(&words)
        || (has_number && (budget || only || at_least || spend))
}

/// Does a clause say what can't or won't be done ("we can't lose any open PR's work"), not
/// what someone can't believe, find or wait for ("I can't believe it took 3 days")?
fn refuses_a_deed(words: &[&str]) -> bool {
    words.windows(2).any(|w| {
        matches!(w[0], "can't" | "cannot" | "won't")
            && !matches!(
                w[1],
                "believe"
                    | "remember"
                    | "tell"
                    | "say"
                    | "imagine"
                    | "understand"
                    | "figure"
                    | "see"
                    | "find"
                    | "get"
                    | "wait"
                    | "stand"
                    | "decide"
                    | "choose"
                    | "think"
                    | "afford"
                    | "handle"
                    | "compile"
                    | "parse"
                    | "load"
                    | "keep"
            )
    })
}

/// Does a clause set a bound of the work as its value ("min sdk is 24", "max upload size
/// is 10mb", "the memory limit is 512Mi")? Not one measured now ("max latency was 900ms",
/// "the max is 800ms right now"): that is how things stand, not what the work must keep.
fn sets_a_bound(words: &[&str]) -> bool {
    const BOUNDS: &[&str] = &[
        "min", "max", "minimum", "maximum", "limit", "cap", "ceiling", "floor",
    ];
    const NOW: &[&str] = &[
        "currently",
        "now",
        "today",
        "usually",
        "typically",
        "average",
    ];
    let Some(verb) = words
        .iter()
        .take(6)
        .position(|w| matches!(*w, "is" | "are" | "stays" | "remains"))
    else {
        return false;
    };
    let value = &words[verb + 1..];
    words[..verb].iter().any(|w| BOUNDS.contains(w))
        && value
            .iter()
            .take(2)
            .any(|w| w.starts_with(|c: char| c.is_ascii_digit() || c == '$'))
        && !words.iter().any(|w| NOW.contains(w))
}

/// Does a clause guess at how things are ("that must be frustrating", "it must have been
/// the cache")? It orders nothing. ("You must be concise" does.)
fn deduces(clause: &str) -> bool {
    const GUESSED: &[&str] = &[
        "it", "it's", "that", "this", "there", "he", "she", "which", "what",
    ];
    GUESSED.contains(&subject_of(clause))
        && (contains_phrase(clause, "must be") || contains_phrase(clause, "must have been"))
}

/// Does a clause forbid ("no personal data may leave the EU", "nothing can be deleted
/// by hand")?
fn prohibits(clause: &str) -> bool {
    let words: Vec<&str> = first_words(clause);
    matches!(words.first(), Some(&("no" | "nothing" | "nobody" | "none")))
        && words.iter().skip(1).any(|w| {
            matches!(
                word(w),
                "may" | "can" | "should" | "must" | "shall" | "gets" | "allowed"
            )
        })
}

/// Verbs that say what one does not know, think or have, or did: not a refusal.
const NOT_A_RULE: &[&str] = &[
    "make",
    "know",
    "think",
    "understand",
    "mind",
    "care",
    "remember",
    "recall",
    "get",
    "see",
    "feel",
    "believe",
    "expect",
    "mean",
    "agree",
    "hear",
    "have",
    "really",
    "actually",
    "usually",
    "even",
    "quite",
    "always",
    "necessarily",
    "be",
    "say",
    "blame",
    "wanna",
    "got",
    "had",
    "did",
    "went",
    "saw",
    "said",
    "thought",
    "knew",
    "made",
    "heard",
    "told",
    "found",
    "took",
    "came",
];

/// What one is not doing at the moment, not a refusal: "I'm not seeing any logs".
const NOT_DOING: &[&str] = &[
    "seeing",
    "getting",
    "finding",
    "understanding",
    "following",
    "feeling",
    "expecting",
    "saying",
    "trying",
    "asking",
    "sure",
    "kidding",
    "joking",
    "having",
    "going",
    "looking",
    "hearing",
    "thinking",
    "planning",
];

/// Does the user say what they and theirs never do ("We don't do hikes over 3 miles",
/// "we don't touch the emergency fund for anything non-emergency", "I never eat after
/// 8")? A house rule, said as a habit — not what they do not know, think, have or did.
fn abstains(clause: &str) -> bool {
    let words: Vec<&str> = first_words(clause).into_iter().map(word).collect();
    // At the clause's start, or after an "and" ("we have $9k in an emergency fund and we
    // don't touch it for anything non-emergency").
    (0..words.len())
        .filter(|&at| at == 0 || words[at - 1] == "and")
        .any(|at| {
            let verb = match &words[at..] {
                [
                    "we" | "i",
                    "don't" | "dont" | "never" | "won't",
                    verb,
                    _,
                    ..,
                ] => verb,
                ["we" | "i", "do" | "will", "not", verb, _, ..] => verb,
                // "im not doing goody bags", "we're not doing cry it out", "I'm not going
                // to feed it more than once a day".
                ["i'm" | "im" | "we're", "not", "doing", _, ..] => &"doing",
                // "I'm not paying for expedited unless …", "we're not buying new".
                ["i'm" | "im" | "we're", "not", verb, _, ..]
                    if verb.ends_with("ing") && !NOT_DOING.contains(verb) =>
                {
                    verb
                }
                ["i'm" | "im" | "we're", "not", "going", "to", verb, _, ..] => verb,
                _ => return false,
            };
            // "I never asked for it" tells the past; "I won't feed it" does not.
            let past = verb.ends_with("ed") && !verb.ends_with("eed");
            !NOT_A_RULE.contains(verb) && !past
        })
}

/// Does a clause open with "keep" what the work must stay within ("keep chapter lengths
/// between 3,000 and 4,000 words", "keep the tone casual"), not the pace ("keep going",
/// "keep me posted")?
fn keeps_to(clause: &str) -> bool {
    const PACE: &[&str] = &[
        "going", "up", "at", "trying", "me", "us", "in", "on", "reading", "working", "it",
    ];
    let mut words: Vec<&str> = first_words(clause).into_iter().map(word).collect();
    // "I want to keep it in first person present tense".
    if let Some(at) = words.iter().position(|w| *w == "to")
        && matches!(
            words[..at],
            ["i" | "we", "want" | "need"] | ["i'd" | "we'd", "like"]
        )
    {
        words.drain(..=at);
    }
    match words.as_slice() {
        // "keep it in first person", not "keep it up", "keep it going".
        ["keep", "it", next, ..] => !matches!(*next, "up" | "going" | "coming" | "together"),
        ["keep", next, ..] => !PACE.contains(next),
        // "cap my study at 90 minutes a day", "limit each talk to 20 minutes".
        ["cap" | "limit", ..] => clause.contains(|c: char| c.is_ascii_digit()),
        // "leave out test accounts", "exclude refunds".
        ["leave", "out", _, ..] | ["exclude" | "omit", _, ..] => true,
        _ => false,
    }
}

/// What someone else ordered, as reported ("my supervisor said keep the survey under 15
/// minutes", "we agreed keep episodes to 25 minutes"): the order.
fn reported_order(clause: &str) -> Option<&str> {
    const SAID: &[&str] = &[
        " said to ",
        " said that ",
        " said ",
        " says ",
        " agreed to ",
        " agreed that ",
        " agreed ",
        " insists ",
        " told us to ",
        " told me to ",
        " asked us to ",
        " asked me to ",
        " wants us to ",
    ];
    SAID.iter()
        .find_map(|s| clause.split_once(s).map(|(_, rest)| rest.trim()))
        .filter(|rest| !rest.is_empty())
        // "the network team says nothing changed on their side": what happened, told.
        .filter(|rest| {
            !rest
                .split_whitespace()
                .nth(1)
                .is_some_and(|verb| word(verb).ends_with("ed"))
        })
}

/// Does a clause set a date the work must meet ("i need the shower usable again by march
/// 15", "it has to be done before Friday", "ready by the end of the month")?
fn sets_a_deadline(clause: &str) -> bool {
    const NEEDS: &[&str] = &[
        "need", "needs", "must", "has to", "have to", "due", "ready", "done", "finished",
        "deadline",
    ];
    // A month, a weekday, "tomorrow", "tonight", "noon", "midnight", "next", "end", by the
    // first three letters.
    const WHEN: &str = "jan feb mar apr may jun jul aug sep oct nov dec mon tue wed thu fri sat sun tom ton noo mid eod nex end";
    let mut words = clause.split_whitespace().peekable();
    let mut by = false;
    while let Some(word) = words.next() {
        if !matches!(word, "by" | "before" | "than") {
            continue;
        }
        let mut next = words.peek().copied().unwrap_or("");
        if next == "the" {
            words.next();
            next = words.peek().copied().unwrap_or("");
        }
        let stem = next.get(..3).unwrap_or("");
        by |= next.starts_with(|c: char| c.is_ascii_digit())
            || (!stem.is_empty() && WHEN.split(' ').any(|w| w == stem));
    }
    by && says_any(clause, NEEDS)
}

/// Does an order end by excluding what it must not hold ("write the contract in plain
/// English, no legalese")? Not a word on the pace ("no rush").
fn excludes(lower: &str) -> bool {
    lower.split(", no ").skip(1).any(names_a_thing)
}

/// Does the word `rest` opens with name a thing, not the pace ("no rush", "no worries")?
fn names_a_thing(rest: &str) -> bool {
    const PACE: &[&str] = &[
        "rush", "worries", "worry", "problem", "problems", "pressure", "hurry", "need", "idea",
        "thanks", "way",
    ];
    rest.split_whitespace()
        .next()
        .is_some_and(|w| !PACE.contains(&word(w)))
}

/// Does a clause forbid a thing by naming it ("no peanuts", "no swearing stronger than
/// 'damn'")?
fn forbids_a_thing(clause: &str) -> bool {
    // "so nothing involving boats", "so none of that in anything".
    const NOTHING: &[&str] = &[
        "nothing with ",
        "nothing involving ",
        "nothing that ",
        "none of ",
    ];
    // "no owner may speak for more than two minutes": who may not.
    let no_one_may = matches!(
        clause.split_whitespace().collect::<Vec<_>>().as_slice(),
        ["no", _, "may" | "can" | "shall" | "gets", ..]
    );
    clause.strip_prefix("no ").is_some_and(names_a_thing)
        || NOTHING.iter().any(|n| clause.starts_with(n))
        || no_one_may
}

/// Does a "let's not" speak of the pace ("Fine, let's not overthink it", "let's not
/// rush"), not of what the work must not do?
fn paces(clause: &str) -> bool {
    const PACE: &[&str] = &[
        "overthink",
        "worry",
        "rush",
        "stress",
        "panic",
        "dwell",
        "bother",
        "get ahead",
        "go overboard",
        "get carried away",
        "waste time",
    ];
    LETS_NOT
        .iter()
        .filter_map(|m| clause.split_once(&format!("{m} ")).map(|(_, rest)| rest))
        .any(|rest| PACE.iter().any(|p| rest.starts_with(p)))
}

/// Does it tell what was chosen before, or by someone else ("Last time we tried something
/// similar, someone decided to trust the header blindly.")? A story, not the user's
/// choice — unless it also says what now ("Last time we used Redis; this time let's go
/// with Memcached").
fn reports_the_past(lower: &str) -> bool {
    const PAST: &[&str] = &[
        "last time",
        "previous time",
        "in the past",
        "back then",
        "years ago",
        "at my last",
        "at my old",
        "someone decided",
        "somebody decided",
        "someone chose",
        "somebody chose",
        "they decided",
        "he decided",
        "she decided",
        "they chose",
        "used to",
    ];
    const NOW: &[&str] = &[
        "let's",
        "lets",
        "this time",
        "instead",
        "now",
        "we'll",
        "i'll",
        "from now on",
    ];
    says_any(lower, PAST) && !says_any(lower, NOW)
}

/// The clauses of a sentence: what commas, semicolons, colons, dashes and a joining "so"
/// or "but" part.
fn clauses(lower: &str) -> impl Iterator<Item = &str> {
    lower
        .split([',', ';', ':', '—'])
        .flat_map(|part| part.split(" so ").flat_map(|p| p.split(" but ")))
        .map(str::trim)
        .filter(|clause| !clause.is_empty())
}

/// Does it propose what the work will do (`let's return errors as JSON`, `we'll hardcode
/// the keys`, `we should cache it`), not a look around (`let's see`, `we'll need to check`) nor
/// a word on the pace (`let's not overthink it`)?
fn proposes(lower: &str) -> bool {
    const LOOKS: &[&str] = &[
        "see", "check", "look", "talk", "chat", "think", "discuss", "try", "wait", "review",
        "recap", "start", "begin", "plan", "get", "figure", "need", "have", "be", "dig",
        "probably", "also", "continue", "go", "keep", "not",
    ];
    let words = first_words(lower);
    let bare = |w: &str| -> String { word(w).to_owned() };
    let verb_after = |at: usize| words.get(at).map(|w| bare(w));
    let at = words
        .iter()
        .position(|w| matches!(bare(w).as_str(), "let's" | "lets" | "we'll"))
        .map(|at| at + 1)
        .or_else(|| {
            words
                .windows(2)
                .position(|w| {
                    bare(w[0]) == "we" && matches!(bare(w[1]).as_str(), "will" | "should" | "shall")
                })
                .map(|at| at + 2)
        });
    match at.and_then(verb_after) {
        Some(verb) => !LOOKS.contains(&verb.as_str()) && !verb.is_empty(),
        None => false,
    }
}

/// Does any of `phrases` occur in `lower` at word boundaries?
fn says_any(lower: &str, phrases: &[&str]) -> bool {
    phrases.iter().any(|phrase| contains_phrase(lower, phrase))
}

/// Does `phrase` occur in `lower` at word boundaries?
fn contains_phrase(lower: &str, phrase: &str) -> bool {
    let mut from = 0;
    while let Some(at) = lower[from..].find(phrase) {
        let start = from + at;
        let end = start + phrase.len();
        if is_edge(lower[..start].chars().rev())
            && (phrase.ends_with(' ') || is_edge(lower[end..].chars()))
        {
            return true;
        }
        from = end;
    }
    false
}

/// Do `chars` (read away from a phrase) open with the edge of a word? A word joined by a
/// hyphen is part of another: "a walk-in shower" says no "a walk", "well-known" no "well".
fn is_edge(mut chars: impl Iterator<Item = char>) -> bool {
    match chars.next() {
        None => true,
        Some('-') => chars.next().is_none_or(|c| !c.is_alphanumeric()),
        Some(c) => !c.is_alphanumeric(),
    }
}

/// `w` without the punctuation around it (an apostrophe inside or at its ends stays:
/// "let's", "kids'").
fn word(w: &str) -> &str {
    w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'')
}

/// The sentence's words after the openers that are not its verb.
fn first_words(lower: &str) -> Vec<&str> {
    lower
        .split(|c: char| c.is_whitespace() || c == ',' || c == ':' || c == '—' || c == '-')
        .filter(|w| !w.is_empty())
        .skip_while(|w| OPENERS.contains(&word(w)))
        .collect()
}

/// Is `word` an adverb in -ly ("absolutely", "initially"; not "apply", "reply")?
fn is_adverb(word: &str) -> bool {
    word.len() > 5 && word.ends_with("ly") && !["apply", "supply", "reply"].contains(&word)
}

/// A sentence whose subject is a person or a thing states how things are ("I always
/// forget my keys"), not what to do.
const SUBJECTS: &[&str] = &[
    "i",
    "i'm",
    "i've",
    "i'd",
    "my",
    "he",
    "she",
    "they",
    "it",
    "it's",
    "there",
    "that",
    "this",
    "the",
    "a",
    "an",
    "what",
    "who",
    "when",
    "where",
    "why",
    "how",
    "if",
    "yes",
    "thanks",
    "thank",
    "sounds",
    "great",
    "cool",
    "nice",
    "sure",
    "hmm",
    "well",
    "we",
    "our",
    "you",
    "your",
    "is",
    "are",
    "was",
    "were",
    "am",
    "been",
    "being",
    "had",
    "did",
    "does",
    "can",
    "could",
    "would",
    "will",
    "mine",
    "yours",
    "ours",
    "theirs",
    "his",
    "her",
    "its",
    "someone",
    "somebody",
    "everyone",
    "everybody",
    "people",
    "what's",
    "whats",
    "how's",
    "here's",
    "here",
    "which",
    "that's",
    "thats",
    "there's",
    "theres",
];

/// Does it speak as an order: it starts with a verb or a rule word, not a subject?
fn is_imperative(lower: &str) -> bool {
    let words = first_words(lower);
    // An adverb opens an order ("Absolutely never…") or a statement ("Initially we
    // figured…"): the word after it tells which.
    let Some(first) = words.iter().copied().map(word).find(|w| !is_adverb(w)) else {
        return false;
    };
    // A number opens a measure or a count ("7.4 questions out of 312"), never an order.
    if SUBJECTS.contains(&first) || first.starts_with(|c: char| c.is_ascii_digit()) {
        return false;
    }
    // A verb of a subject after the first words ("ordering matters per order id", "ops
    // team is 2 people", "EM/F1 stays as a smoke check"): the first word is that subject.
    // Not after a verb that takes what follows as its object ("ensure logs are rotated",
    // "assume prices are in EUR"), nor after a word that forbids ("nothing that sounds
    // like a threat").
    let words: Vec<&str> = words.iter().copied().map(word).collect();
    let at = words.iter().position(|w| *w == first).unwrap_or(0);
    let states = |i: usize| words.get(i).is_some_and(|w| SUBJECT_VERBS.contains(w));
    !(states(at + 1) || (states(at + 2) && !TAKES_A_CLAUSE.contains(&first)))
}

/// Orders whose object is a clause of its own ("make sure the build is green"), and the
/// words that open a prohibition ("nothing that sounds like a threat").
const TAKES_A_CLAUSE: &[&str] = &[
    "nothing",
    "no",
    "none",
    "nobody",
    "only",
    "assume",
    "remember",
    "note",
    "ensure",
    "make",
    "check",
    "verify",
    "confirm",
    "say",
    "tell",
    "know",
    "mention",
    "state",
    "show",
    "flag",
    "treat",
    "consider",
    "pretend",
    "imagine",
    "expect",
    "keep",
    "test",
    "prove",
    "double-check",
    "don't",
    "dont",
    "never",
    "always",
    "please",
    "just",
];

/// Verbs that follow a subject and say how it is: after the first words of a sentence,
/// they make it a statement, not an order.
const SUBJECT_VERBS: &[&str] = &[
    "is", "are", "was", "were", "isn't", "aren't", "wasn't", "weren't", "has", "hasn't", "had",
    "matters", "stays", "seems", "looks", "sounds", "feels", "remains", "depends", "works",
    "happens", "takes",
];

/// Words that make a clause speak to how the work must go, whatever opens it
/// ([`addresses_the_work`]).
const SUBJECT_MODALS: &[&str] = &[
    "you must",
    "you should",
    "you need to",
    "you have to",
    "you can't",
    "you cannot",
    "we must",
    "we should",
    "we need to",
    "we have to",
    "we can't",
    "we cannot",
    "we never",
    "we always",
    "i need you to",
    "i'd like you to",
    "i would like you to",
    "i'd like all",
    "i'd like every",
    "i'd like only",
    "i would like all",
    "must be",
    "must not",
    "must never",
    "must always",
    "no exceptions",
    "from now on",
    "from here on",
    "going forward",
    "under no circumstances",
    "is always",
    "are always",
    "is never",
    "are never",
    "is to be",
    "are to be",
    // What the user can and cannot give the work: "I can only run four days a week",
    // "we only have hot plates".
    "i can only",
    "we can only",
    "i only have",
    "we only have",
    "i've only got",
    "we've only got",
    "i have only",
    "we have only",
    // What the user committed the work to: "we will not touch the emergency fund".
    "we will not",
    "we won't",
    "we will never",
    "we'll never",
    "we're not going to",
    "we are not going to",
    // What the user cannot stand, and rules named as such.
    "as a rule",
    "golden rule",
    "house rule",
    "ground rule",
    "i hate",
    "i can't stand",
    "i cannot stand",
    "i dislike",
    "you don't",
    "you do not",
];

/// Does it tell the assistant or the team how the work must go (`you must`, `we should
/// never`, `I want you to`, `X must be`)?
fn addresses_the_work(lower: &str) -> bool {
    says_any(lower, SUBJECT_MODALS) || says_any(lower, BINDING)
}

/// Does a sentence end by choosing: "The Lumiares Hotel it is.", "Fine, the train then."?
fn ends_choosing(lower: &str) -> bool {
    let trimmed = lower.trim_end_matches(['.', '!']).trim_end();
    let end = trimmed.strip_suffix(" after all").unwrap_or(trimmed);
    // "Ardour it is for the recording software", "Ardour it is, then": the choice first.
    // "URL path it is: /v2/... for changed endpoints", "whole class it is i guess": the
    // pick ends its first clause, what follows tells more.
    let first = lower
        .split([':', ',', ';', '—'])
        .next()
        .unwrap_or("")
        .trim_end_matches(['.', '!'])
        .trim_end();
    end.ends_with(" it is")
        || (first.ends_with(" it is")
            && first.split_whitespace().count() <= 6
            && !first.split_whitespace().any(|w| {
                matches!(w, "what" | "how" | "where" | "when" | "who" | "which" | "whether" | "if")
            }))
        || lower.contains(" it is for ")
        || lower.contains(" it is, then")
        || picks_it(lower)
        || (end.ends_with(" then")
            && end.split_whitespace().count() <= 10
            && ["fine", "ok", "okay", "alright", "sure", "right", "so"]
                .iter()
                .any(|w| end.starts_with(w)))
        // "the welcome dinner is Thursday after all", "… after all, not Friday".
        || clauses(lower).any(|clause| {
            clause
                .trim_end_matches(['.', '!'])
                .strip_suffix(" after all")
                .is_some_and(|before| !before.trim().is_empty())
        })
        || names_then(lower)
}

/// Does a sentence open by naming its pick and "then" ("fastapi then, pydantic is
/// already in our stack")? Not "see you then", "and then".
fn names_then(lower: &str) -> bool {
    // "fine, Formik then since the team already knows it": past the word that gives in,
    // before the reason.
    let first = lower
        .split([',', ';', '—'])
        .map(str::trim)
        .find(|part| {
            !matches!(
                *part,
                "fine" | "ok" | "okay" | "alright" | "sure" | "right" | "nope" | "nah" | "yeah"
            )
        })
        .unwrap_or("");
    let first = [" since ", " because ", " as "]
        .iter()
        .fold(first, |part, mark| part.split(mark).next().unwrap_or(part))
        .trim();
    let words: Vec<&str> = first.split_whitespace().collect();
    matches!(words.as_slice(), [.., before, "then"]
        if words.len() <= 4
            && !["see", "and", "since", "by", "until", "back", "only", "even", "just", "you"]
                .contains(before))
}

/// Does a clause name its choice and say "it is" after it ("traefik it is, since k3s
/// ships it", "okay, Wonderwall it is as my first song")? Not "whatever it is", "as it
/// is", "here it is".
fn picks_it(lower: &str) -> bool {
    const NOT_A_CHOICE: &[&str] = &[
        "whatever", "what", "as", "how", "way", "here", "there", "where", "so", "think", "know",
        "is", "that", "because", "since", "if", "whether", "and", "but", "when", "who",
    ];
    lower.match_indices(" it is").any(|(at, m)| {
        let after = &lower[at + m.len()..];
        let ends = after.is_empty()
            || after.starts_with([',', '.', '!', ';', ' '])
                && (after.starts_with([',', '.', '!', ';'])
                    || [" as ", " for ", " then", " after all"]
                        .iter()
                        .any(|w| after.starts_with(w)));
        let named = lower[..at]
            .split_whitespace()
            .next_back()
            .map(word)
            .is_some_and(|w| !w.is_empty() && !NOT_A_CHOICE.contains(&w));
        // The choice opens its clause: a few words after a comma or the start.
        let clause = lower[..at]
            .rsplit([',', '.', ';', ':'])
            .next()
            .unwrap_or("");
        ends && named && clause.split_whitespace().count() <= 5
    })
}

/// Is it about someone's day rather than the work ("I'll take the dog out")?
fn is_personal(lower: &str) -> bool {
    // What it says before its reason: "we decide for a puppy, because the kids want a
    // small one", "long runs will be Sunday mornings, my partner has the kids then"
    // decide for the work.
    // A run-on sentence says its choice first: "actually the tomatoes go in the raised
    // bed by the shed the dog thing worries me more …".
    let said = first_clause(lower.split(" because ").next().unwrap_or(lower));
    let said = match said.match_indices(' ').nth(11) {
        Some((at, _)) => &said[..at],
        None => said,
    };
    says_any(
        said,
        &[
            "the dog",
            "my dog",
            "the kids",
            "my kids",
            "lunch break",
            "a shower",
            "a nap",
            "a walk",
            "for a walk",
            "a coffee",
            "coffee break",
            "some coffee",
        ],
    )
}

/// Does a decision speak for the work (`let's`, `we'll`, `I'll go with`, an order), not
/// of someone's day ("I'll take the dog out", "my partner keeps watching videos instead
/// of packing")?
fn speaks_for_the_work(lower: &str) -> bool {
    let words = first_words(lower);
    let Some(first) = words.first() else {
        return false;
    };
    if is_personal(lower) {
        return false;
    }
    let first = word(first);
    // Someone else, or a thing, as the subject: a report, not a choice.
    const OTHERS: &[&str] = &[
        "what",
        "who",
        "when",
        "where",
        "why",
        "how",
        "if",
        "should",
        "can",
        "could",
        "would",
        "my",
        "his",
        "her",
        "their",
        "he",
        "she",
        "they",
        "it",
        "it's",
        "there",
        "this",
        "that",
        "the",
        "a",
        "an",
        "is",
        "are",
        "was",
        "were",
        "yesterday",
        "today",
    ];
    !OTHERS.contains(&first)
}

/// The sentences of `text`, each with the text it stands in (a short message is read as
/// one instruction with its reason: "Never run migrations in a request. That is a red
/// line."). Code blocks and quoted material are not the user's instructions.
fn sentences(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut in_fence = false;
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence || trimmed.starts_with('>') {
            continue;
        }
        // A quoted passage (a draft's line, a character's speech) is not the user's.
        out.extend(
            line_sentences(trimmed)
                .into_iter()
                .filter(|sentence| !sentence.starts_with(['"', '“', '\''])),
        );
    }
    out
}

/// The sentences of one line of text: what ends at `.`, `!` or `?` before a space.
pub(crate) fn line_sentences(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let bytes = line.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        let ends = matches!(b, b'.' | b'!' | b'?')
            && bytes.get(i + 1).is_none_or(|n| n.is_ascii_whitespace());
        if ends || i + 1 == bytes.len() {
            let sentence = line[start..=i].trim();
            if !sentence.is_empty() {
                out.push(sentence);
            }
            start = i + 1;
        }
    }
    out
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
    // The task: the first of the user's own messages, where the plan the work starts
    // from is stated.
    let task = messages
        .iter()
        .enumerate()
        .position(|(i, m)| m.compaction.is_none() && is_users_words(m) && !is_output(i));
    let mut discussed = Discussed::default();
    for (index, message) in messages.iter().enumerate() {
        if let Some(meta) = &message.compaction {
            for mut instruction in read_block(&meta.summary_text) {
                instruction.message = index;
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
        // `said`: the sentences that make it an instruction, which tell what it is about.
        let mut add = |kind: Kind, text: &str, said: &str, override_said: bool| {
            let about = about(kind, said, index, || {
                offers.get_or_init(|| offers_in(messages, &is_output))
            });
            let subject = subject_words(said);
            let overrides = !found.is_empty()
                && (override_said
                    || (kind == Kind::Decision
                        && !reports_a_deal(said)
                        && restates(&found, &words, &subject)));
            if overrides {
                let head = subject_words(head_of(said));
                let turn = Turn {
                    message: index,
                    kind,
                    about: &about,
                    said: &subject,
                    head: &head,
                    around: &around,
                    points_back: refers_back(text),
                };
                take_back(&mut found, &words, &turn, (text, said), override_said);
            }
            found.push(Instruction {
                kind,
                text: unbulleted(text).to_owned(),
                overrides,
                superseded: false,
                message: index,
            });
            words.push(Words {
                about,
                said: subject,
                own: subject_words(text),
            });
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

/// The words of substance the assistant's messages (and summaries) spoke of, sorted: what
/// a user's short statement may settle. Read forward only as far as a user's message asks.
#[derive(Default)]
struct Discussed {
    words: Vec<String>,
    read_up_to: usize,
}

impl Discussed {
    /// The words spoken of before message `index`.
    fn up_to(&mut self, messages: &[&Message], index: usize) -> &[String] {
        if self.read_up_to < index {
            for earlier in messages.get(self.read_up_to..index).unwrap_or_default() {
                if earlier.role == Role::Assistant || earlier.is_compaction() {
                    self.words.extend(subject_words(&earlier.text()));
                }
            }
            self.words.sort_unstable();
            self.words.dedup();
            self.read_up_to = index;
        }
        &self.words
    }
}

/// The assistant's message just before message `index`, which a short reply may answer.
fn asked_before<'m>(messages: &[&'m Message], index: usize) -> Option<&'m Message> {
    let before = messages.get(index.checked_sub(1)?)?;
    (before.role == Role::Assistant).then_some(*before)
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
    // "scratch offset.", "Change of plan!": a short override on its own, which the
    // sentence after it says.
    let mut turning: Option<&str> = None;
    for (at, &sentence) in said.iter().enumerate() {
        let kind = kind_of(sentence);
        if let Some(turn) = turning.take()
            && !sentence.trim_end().ends_with('?')
            && let Some(both) = span(text, turn, sentence)
        {
            // "scratch offset. cursor-based pagination for everything.": the sentence
            // after the turn is what replaces, whatever its form.
            kinds.push((kind.unwrap_or(Kind::Decision), both));
            continue;
        }
        if let Some(before) = at.checked_sub(1).map(|b| said[b])
            && seals(sentence)
            && !before.trim_end().ends_with('?')
        {
            // "The title is Salt Year. final.": the words before, settled.
            said_with(&mut kinds, text, before, sentence, Kind::Decision);
            continue;
        }
        if let Some(before) = at.checked_sub(1).map(|b| said[b])
            && stresses(sentence)
            // "Not Berlin after all — Amsterdam then": an instruction of its own.
            && (is_pure_stress(sentence) || kind.is_none())
            && !before.trim_end().ends_with('?')
        {
            // "snake_case in JSON. always.", "static IP for the pi. not a DHCP
            // reservation", "tabs. not spaces. ever.": the words before, stressed, are
            // a rule, said with the stress.
            said_with(&mut kinds, text, before, sentence, Kind::Rule);
        } else if is_task && states_a_plan(&crate::case::lowercase(sentence)) {
            // "Plan is to keep the existing layout and just replace the cabinets": the
            // plan, though it reads as an order.
            kinds.push((Kind::Decision, sentence));
        } else if takes_back_outright(sentence) {
            // "Update: the migrations are managed with Sqitch from now on": a choice
            // replaced, though it reads as a rule.
            kinds.push((Kind::Decision, sentence));
        } else if let Some(kind) = kind {
            kinds.push((kind, sentence));
        } else if let Some(kind) = after_label(sentence)
            .and_then(kind_of)
            .or_else(|| before_list(sentence).and_then(kind_of))
        {
            // "format — use the avro converter …", "what counts as errors: we'll exclude
            // 429s": the instruction after the topic it answers.
            kinds.push((kind, sentence));
        } else if sentence.len() > MAX_CHARS {
            // A long run-on sentence: its parts, each read alone ("… so — we're
            // switching to rooflights instead of the dormer, three on the back slope …").
            for part in parts(sentence) {
                if let Some(kind) = kind_of(part) {
                    kinds.push((kind, part));
                }
            }
        } else if settles_what_was_asked(sentence, discussed, at == 0) {
            kinds.push((Kind::Decision, sentence));
        } else if sentence.split_whitespace().count() <= 4
            && [OVERRIDE_MARKS, REPLACING]
                .iter()
                .any(|marks| says_any(&crate::case::lowercase(sentence), marks))
        {
            // Not a mere opener ("Hmm.", "Wait."): what takes something back.
            turning = Some(sentence);
        } else if required.iter().any(|line| within(sentence, line)) {
            kinds.push((Kind::Rule, sentence));
        }
    }
    if kinds.is_empty()
        && !reacts(&crate::case::lowercase(text.trim()))
        && !tells_what_happened(&crate::case::lowercase(text.trim()))
        && asked.is_some_and(|m| answers_a_choice(&m.text(), text.trim()))
    {
        kinds.push((Kind::Decision, text.trim()));
    }
    kinds
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
    let label = &sentence[..at];
    let rest = sentence[at + mark..].trim();
    // A topic, not a clause of its own ("wait, I realize — …", "would a simpler option
    // be: …?", "separate q, does Vary: …").
    let topic = (1..=5).contains(&label.split_whitespace().count())
        && !label.contains(',')
        && !label.split_whitespace().any(|w| {
            matches!(
                crate::case::lowercase(word(w)).as_str(),
                "i" | "we"
                    | "you"
                    | "he"
                    | "she"
                    | "they"
                    | "it"
                    | "would"
                    | "should"
                    | "does"
                    | "do"
                    | "is"
                    | "are"
                    | "can"
                    | "could"
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

/// The parts of a long run-on sentence, cut where a new thought starts (a dash, a
/// semicolon, ", so", ", and", ", but").
fn parts(sentence: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = sentence;
    while !rest.is_empty() {
        let cut = [";", "—", "–", ", so ", ", and ", ", but "]
            .iter()
            .filter_map(|mark| rest.find(mark).map(|at| (at, mark.len())))
            .min();
        let (part, next) = match cut {
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

/// Does a sentence take an earlier choice back outright, naming what replaces it
/// ("scratch Lightroom, moving to Capture One", "update: 4.2 goes out Tuesday", "the
/// caterer fell through, so Luigi's")?
fn takes_back_outright(sentence: &str) -> bool {
    const OUTRIGHT: &[&str] = &[
        "scratch",
        "change of plan",
        "changed our minds",
        "changed my mind",
        "fell through",
        "not anymore",
        "make that",
    ];
    let lower = crate::case::lowercase(sentence.trim());
    let labelled = ["update:", "new info:", "correction:"]
        .iter()
        .any(|label| lower.starts_with(label));
    !lower.ends_with('?')
        && !lower.contains("scratch that")
        && (labelled || says_any(&lower, OUTRIGHT))
        && lower.split_whitespace().count() >= 3
}

/// The verbs that say what a thing the conversation spoke of is to be ("the theme is …",
/// "the carousel gets removed", "the tomatoes go in the raised bed", "X wins").
const SETTLING_VERBS: &[&str] = &[
    "is", "are", "gets", "goes", "go", "wins", "starts", "opens", "runs", "stays", "will",
];

/// Words that are no thing of the work: pronouns, question words.
const NOT_THINGS: &[&str] = &[
    "it",
    "this",
    "that",
    "he",
    "she",
    "they",
    "i",
    "we",
    "you",
    "there",
    "what",
    "which",
    "who",
    "my",
    "your",
    "his",
    "her",
    "their",
    "one",
    "everything",
    "nothing",
    "something",
];

/// Words that make a few words a sentence with a subject and a verb, not an option named
/// alone ("The neighbours might join us").
const SENTENCE_WORDS: &[&str] = &[
    "was", "were", "am", "do", "did", "has", "have", "had", "might", "may", "could", "would",
    "should", "can", "must", "us", "me", "him", "them", "not", "if",
];

/// Does a sentence settle something the conversation spoke of (`discussed`, the sorted
/// words of substance of the assistant's messages so far): the thing, then what it is
/// ("the theme is deep-sea salvage", "The venue is the Old Mill", "Hand limit: 7 wins",
/// "Accelerometer: going LIS2DW12"); or, opening a reply, the option alone ("pgloader for
/// the bulk copy", "Mixing in Reaper.")? Not a word on the weather: the thing must be one
/// the conversation named.
fn settles_what_was_asked(sentence: &str, discussed: &[String], opens_reply: bool) -> bool {
    let lower = crate::case::lowercase(sentence.trim());
    if lower.ends_with('?')
        || asks(&lower)
        || reports_scores(&lower)
        || is_personal(&lower)
        || is_habit(&lower)
        || reports_the_past(&lower)
        || says_any(
            &lower,
            &["thanks", "thank you", "sorry", "great", "perfect", "looks"],
        )
        || reacts(&lower)
    {
        return false;
    }
    let spoke_of = |words: &[&str]| {
        words.iter().any(|w| {
            w.len() > 2
                && !is_marking_word(w)
                && discussed
                    .binary_search_by(|d| d.as_str().cmp(singular(w)))
                    .is_ok()
        })
    };
    labels_a_value(&lower, &spoke_of)
        || clauses(&lower)
            .take(3)
            .any(|clause| names_then_settles(clause, &spoke_of))
        || (opens_reply && names_an_option(&lower, &spoke_of))
}

/// Does a reply open with how the user took what was said ("good to know.", "ooh good
/// questions.", "love the dino names lol.", "ugh right the fees.", "that's helpful.")? A
/// reaction names no option.
fn reacts(lower: &str) -> bool {
    const REACTIONS: &[&str] = &[
        "good",
        "nice",
        "cool",
        "love",
        "ooh",
        "oh",
        "wow",
        "ha",
        "haha",
        "lol",
        "ugh",
        "hm",
        "hmm",
        "yeah",
        "yep",
        "interesting",
        "fair",
        "true",
        "noted",
        "awesome",
        "amazing",
        "oof",
        "omg",
        "super",
        "very",
        "helpful",
        "makes",
        "totally",
        "that's",
        "thats",
        "wait",
        "whoa",
        "huh",
        "aw",
        "aww",
        "excellent",
        "perfect",
        "great",
        "thanks",
    ];
    lower
        .split_whitespace()
        .map(word)
        .next()
        .is_some_and(|first| REACTIONS.contains(&first))
}

/// "Hand limit: 7 wins", "cutover: sunday night, 23:00 start": a label the conversation
/// spoke of, then its value.
fn labels_a_value(lower: &str, spoke_of: &impl Fn(&[&str]) -> bool) -> bool {
    let Some((label, value)) = lower.split_once(": ") else {
        return false;
    };
    let label: Vec<&str> = label.split_whitespace().map(word).collect();
    (1..=3).contains(&label.len())
        && !matches!(
            label[0],
            "next" | "update" | "question" | "q" | "edit" | "context"
        )
        && spoke_of(&label)
        && (1..=12).contains(&value.split_whitespace().count())
        && !measures(value)
        && !says_any(value, UNSURE)
}

/// Words that leave a question open ("labeled data: sort of", "on failure: depends").
const UNSURE: &[&str] = &[
    "sort of", "kind of", "depends", "not sure", "maybe", "no idea", "unclear", "dunno", "idk",
    "probably",
];

/// Does a sentence report scores ("test set results: macro-F1 0.738, security recall
/// 0.93", "distilroberta: 0.731 ± 0.012")? Two fractions or a spread are measured, not
/// chosen; a single one may be a threshold set ("flag anything over 0.8").
fn reports_scores(lower: &str) -> bool {
    let fractions = lower
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_ascii_digit() && c != '.'))
        .filter(|w| w.starts_with("0.") && w.len() > 2)
        .count();
    fractions >= 2 || lower.contains('±')
}

/// Does a value report a measure, not set one: a change ("$8.3k -> $11.2k", "31 min (was
/// 3h10m)"), a statistic ("+0.064pp, 95% CI [-0.035pp, +0.163pp], p=0.20"), several
/// figures?
fn measures(value: &str) -> bool {
    let figures = value
        .split_whitespace()
        .filter(|w| {
            w.trim_start_matches(['+', '-', '~', '$', '(', '['])
                .starts_with(|c: char| c.is_ascii_digit())
        })
        .count();
    figures >= 3
        || ["->", "→", "(was", " vs", "="]
            .iter()
            .any(|m| value.contains(m))
}

/// A clause that names the thing, then the verb that says what it is ("On tooling — the
/// migration tool is Flyway, since …", "The Mazda CX-5 wins").
fn names_then_settles(clause: &str, spoke_of: &impl Fn(&[&str]) -> bool) -> bool {
    let words: Vec<&str> = first_words(clause).into_iter().map(word).collect();
    let start = usize::from(matches!(words.first(), Some(&("the" | "our"))));
    let Some(at) = words
        .iter()
        .enumerate()
        .skip(start + 1)
        .take(4)
        .find(|(_, w)| SETTLING_VERBS.contains(w))
        .map(|(at, _)| at)
    else {
        return false;
    };
    // Said with "is" or "are", the thing is a part of the work ("the theme", "our
    // venue"), not people or things described ("Adjusters are busy", "sessions are about
    // 40 minutes"); other verbs place or pick ("tomatoes go in the south bed",
    // "Caro-Kann against 1.e4 wins", "Testing will be conducted with NVDA").
    // Unless what it is is a day, a time or a number ("Delivery days are Tuesday and
    // Friday", "practices are Tuesday and Wednesday now").
    // "session zero is next Wednesday at 6".
    let day_at = at + 1 + usize::from(matches!(words.get(at + 1), Some(&("next" | "this"))));
    let counts = counts_things(&words[day_at.min(words.len())..]);
    let dated = words.get(day_at).is_some_and(|w| {
        (w.starts_with(|c: char| c.is_ascii_digit()) && !counts)
            || ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
                .iter()
                .any(|day| w.starts_with(day) && w.ends_with(['y', 's']))
    });
    if start == 0 && matches!(words[at], "is" | "are") && !dated {
        return false;
    }
    let thing = &words[start..at];
    let future_be = words[at] != "will" || words.get(at + 1) == Some(&"be");
    // "The Mazda CX-5 wins" ends on it; "… wins the race" is no pick.
    let closes = words[at] != "wins" || words.len() == at + 1;
    // A value, not a measure or a judgement ("head height is about 2.4", "the room is
    // really small").
    let has_value = words.len() > at + 1
        && !matches!(
            words[at + 1],
            "about"
                | "around"
                | "roughly"
                | "very"
                | "really"
                | "too"
                | "so"
                | "pretty"
                | "quite"
                | "not"
                | "a"
                | "an"
                | "kind"
                | "getting"
                | "still"
                | "already"
        )
        || words[at] == "wins";
    !thing.iter().any(|w| NOT_THINGS.contains(w))
        && future_be
        && closes
        && has_value
        && spoke_of(thing)
}

/// Do `words` open with a count of things, not a time ("2 people", not "6 pm", "10 to
/// noon", "99.9% over 30 days")?
fn counts_things(words: &[&str]) -> bool {
    const NOT_COUNTED: &[&str] = &[
        "am", "pm", "sharp", "on", "at", "and", "or", "to", "until", "till", "start", "over",
        "for", "per", "in", "by", "of", "from", "with", "a", "an", "the", "each", "every",
    ];
    matches!(words, [n, next, ..] if n.chars().all(|c| c.is_ascii_digit())
        && next.chars().all(char::is_alphabetic)
        && !NOT_COUNTED.contains(next))
}

/// The option alone, a few words with no subject and no verb ("pgloader for the bulk
/// copy", "Financing through the credit union").
fn names_an_option(lower: &str, spoke_of: &impl Fn(&[&str]) -> bool) -> bool {
    let words: Vec<&str> = first_words(first_clause(lower))
        .into_iter()
        .map(word)
        .collect();
    let verbless = !words.iter().any(|w| {
        NOT_THINGS.contains(w) || SETTLING_VERBS.contains(w) || SENTENCE_WORDS.contains(w)
    });
    verbless && !tells_what_happened(lower) && (2..=8).contains(&words.len()) && spoke_of(&words)
}

/// Does it name a thing, then what happened to it ("quotes came back.", "the build went
/// green")? News, not a choice.
fn tells_what_happened(lower: &str) -> bool {
    lower.split_whitespace().map(word).nth(1).is_some_and(|w| {
        matches!(
            w,
            "came" | "went" | "got" | "said" | "ran" | "took" | "made" | "sent" | "fell"
        )
    })
}

/// Is a sentence only a stress on the one before ("always.", "No exceptions!", "ever.",
/// "non-negotiable.") or the thing it is not ("not a DHCP reservation.", "not spaces.")?
fn stresses(sentence: &str) -> bool {
    const NOT_A_THING: &[&str] = &[
        "sure",
        "really",
        "yet",
        "now",
        "bad",
        "much",
        "that",
        "so",
        "quite",
        "exactly",
        "necessarily",
        "today",
        "always",
        "me",
        "you",
        "at",
        "for",
        "to",
        "too",
        "very",
        "only",
        "just",
        "even",
    ];
    if is_pure_stress(sentence) {
        return true;
    }
    let lower = crate::case::lowercase(sentence.trim());
    let bare = lower.trim_end_matches(['.', '!']).trim();
    // "not a DHCP reservation, I don't trust the router to keep it": its first clause.
    let first = bare.split([',', ';', ':', '—']).next().unwrap_or("");
    let words: Vec<&str> = first.split_whitespace().collect();
    matches!(words.as_slice(), ["not", next, ..]
            if words.len() <= 6 && !NOT_A_THING.contains(next))
}

/// Is a sentence alone a seal on the choice before it ("final.", "that's settled.",
/// "locked in!")?
fn seals(sentence: &str) -> bool {
    const SEALS: &[&str] = &[
        "final",
        "that's final",
        "it's final",
        "decided",
        "that's decided",
        "it's decided",
        "settled",
        "that's settled",
        "it's settled",
        "locked in",
        "locking it in",
        "done deal",
    ];
    is_alone(sentence, SEALS)
}

/// Is a sentence a stress alone ("always.", "No exceptions!", "ever.")?
fn is_pure_stress(sentence: &str) -> bool {
    const STRESS: &[&str] = &[
        "always",
        "never",
        "ever",
        "no exceptions",
        "no exception",
        "non-negotiable",
        "not negotiable",
        "period",
        "mandatory",
        "every time",
        "every single time",
        "without exception",
    ];
    is_alone(sentence, STRESS)
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
    ];
    let mut items = Vec::new();
    let mut under = false;
    for line in text.lines() {
        let trimmed = line.trim();
        let listed =
            trimmed.starts_with(|c: char| matches!(c, '-' | '*' | '•') || c.is_ascii_digit());
        if under && listed {
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

/// Is `reply` a short answer that picks one of the options `question` offered ("Which
/// main course: roast chicken, a mushroom risotto or braised lamb?" — "Fine, a wild
/// mushroom risotto then.")?
fn answers_a_choice(question: &str, reply: &str) -> bool {
    const OFFERS: &[&str] = &[
        "which",
        "would you like",
        "do you prefer",
        "would you prefer",
        "options",
        " or ",
    ];
    let asked = crate::case::lowercase(question);
    // The options: the questions that offer them, and the lines that list them.
    let mut offered = String::new();
    for line in asked.lines() {
        if line
            .trim_start()
            .starts_with(|c: char| c == '-' || c == '*' || c.is_ascii_digit())
        {
            offered.push_str(line);
            offered.push(' ');
        }
        for sentence in sentences(line) {
            if sentence.ends_with('?') && OFFERS.iter().any(|w| sentence.contains(w)) {
                offered.push_str(sentence);
                offered.push(' ');
            }
        }
    }
    let offers = asked.contains('?') && OFFERS.iter().any(|w| asked.contains(w));
    if !offers || reply.contains('?') || reply.split_whitespace().count() > 15 {
        return false;
    }
    let lower = crate::case::lowercase(reply);
    // "I'm back, sorry — got pulled into something", "thanks, that's helpful", "lol it
    // has been raining nonstop for 5 days": no pick.
    if says_any(
        &lower,
        &[
            "sorry",
            "i'm back",
            "be right back",
            "thanks",
            "thank you",
            "lol",
            "has been",
            "have been",
            "had been",
        ],
    ) {
        return false;
    }
    if !speaks_for_the_work(&lower) {
        return false;
    }
    let options = subject_words(&offered);
    subject_words(reply).iter().any(|w| options.contains(w))
}

fn is_override(text: &str) -> bool {
    let lower = respelled(&crate::case::lowercase(text));
    let bare = |w: &&str| word(w).to_owned();
    // The first word, or the first after the openers ("Okay, forget Unity").
    let first = lower.split_whitespace().next().map(|w| bare(&w));
    let verb = first_words(&lower).first().map(bare);
    let opens = [first, verb]
        .into_iter()
        .flatten()
        .any(|w| OVERRIDE_OPENERS.contains(&w.as_str()));
    // "I'd rather not …" prefers against something; it takes nothing back.
    let refuses = contains_phrase(&lower, "rather not");
    opens
        || drops_a_choice(&lower)
        || changes_to(&lower)
        || takes_back_outright(text)
        || OVERRIDE_MARKS
            .iter()
            .chain(REPLACING)
            .any(|m| contains_phrase(&lower, m) && !(refuses && m.ends_with("rather")))
}

/// Does an opening message's sentence state the plan the work starts from ("I'm planning
/// to build the backend with Flask")? A plan to ask or tell something is not one.
fn states_a_plan(lower: &str) -> bool {
    let words = first_words(lower).join(" ");
    let words = words
        .split_once(' ')
        .filter(|(first, _)| is_adverb(first))
        .map_or(words.as_str(), |(_, rest)| rest);
    PLAN_STATEMENTS.iter().any(|p| words.starts_with(p))
        && !says_any(lower, &["ask", "tell", "say", "mention", "check with"])
        && !is_personal(lower)
}

/// The words of a sentence that say nothing of its subject: the stop words, and every word
/// of the marks that make it an instruction ("on second thought", "let's go with").
fn is_marking_word(word: &str) -> bool {
    STOP_WORDS.contains(&word)
        || [
            DECISION_IDIOMS,
            DECISION_MARKS,
            OVERRIDE_MARKS,
            REPLACING,
            OVERRIDE_OPENERS,
            RULE_MARKS,
            BINDING,
            STRONG_RULE_MARKS,
        ]
        .iter()
        .any(|marks| {
            marks.iter().any(|m| {
                m.split(|c: char| !c.is_alphanumeric() && c != '\'')
                    .any(|w| w == word)
            })
        })
}

/// The words of substance of one instruction: what it is about (for a decision, with
/// those of the choice it made), of the sentences that make it one, and of its whole text.
struct Words {
    about: Vec<String>,
    said: Vec<String>,
    own: Vec<String>,
}

impl Words {
    /// The words of an instruction read back from a summary's block: all its text.
    fn of(text: &str) -> Self {
        let own = subject_words(text);
        Words {
            about: own.clone(),
            said: own.clone(),
            own,
        }
    }
}

/// The words of substance of `text`: what it is about.
fn subject_words(text: &str) -> Vec<String> {
    let lower = crate::case::lowercase(text);
    let mut out = Vec::new();
    for token in lower.split(|c: char| !c.is_alphanumeric() && !matches!(c, '\'' | '.' | ':' | '/'))
    {
        let token = token.trim_matches(['.', ':', '/']);
        // A version, a time or a split stays whole ("4.2 goes out Tuesday" is about "ship
        // 4.2", "forget 4:15" about "aiming for 4:15", "scrap the 50/30/20 thing" about
        // "the 50/30/20 split"); other dots and slashes part words ("main.py", "and/or").
        let version = token.contains(['.', ':', '/'])
            && token
                .chars()
                .all(|c| c.is_ascii_digit() || matches!(c, '.' | ':' | '/'));
        let words = if version {
            vec![token]
        } else {
            token.split(['.', ':', '/']).collect()
        };
        for w in words {
            if is_marking_word(w) {
                continue;
            }
            // "Poetry's monorepo story" speaks of Poetry.
            let w = w.strip_suffix("'s").unwrap_or(w).trim_matches('\'');
            if (w.len() > 2 || version) && !is_marking_word(w) && !NOT_THINGS.contains(&w) {
                out.push(singular(w).to_owned());
            }
        }
    }
    out
}

/// A plural's singular, for telling two words the same thing ("migrations", "migration";
/// "terms", "term"); a word in "ss" or too short to tell stays.
fn singular(word: &str) -> &str {
    match word.strip_suffix('s') {
        Some(stem) if stem.len() > 3 && !stem.ends_with('s') => stem,
        _ => word,
    }
}

/// A sentence that offers a choice ("Sintra, Cascais or Évora?", "should we use Postgres
/// or SQLite?", "torn between ribs and a risotto"): the message it is in, and its words of
/// substance.
struct Offer {
    message: usize,
    words: Vec<String>,
}

/// The choices offered in `messages`, by the user or the assistant, oldest first.
fn offers_in(messages: &[&Message], is_output: &impl Fn(usize) -> bool) -> Vec<Offer> {
    let mut out = Vec::new();
    for (index, message) in messages.iter().enumerate() {
        let spoken = match message.role {
            Role::User => is_users_words(message) && !is_output(index),
            Role::Assistant => !message.is_compaction(),
            _ => false,
        };
        if !spoken {
            continue;
        }
        let text = message.text();
        for sentence in sentences(&text) {
            let lower = crate::case::lowercase(sentence);
            if sentence.len() <= MAX_CHARS
                && says_any(&lower, &["or", "between", "either", "options"])
            {
                out.push(Offer {
                    message: index,
                    words: subject_words(sentence),
                });
            }
        }
    }
    out
}

/// What an instruction said in message `at` is about: its words of substance, and for a
/// decision those of the choice it picks from — the offer before it (or in its message)
/// that shares the most words with it. So "switch us to Cascais" is about the day trip
/// that "Sintra, Cascais or Évora?" offered, and replaces "We're going with Évora."
fn about<'a>(kind: Kind, text: &str, at: usize, offers: impl Fn() -> &'a [Offer]) -> Vec<String> {
    let mut words = subject_words(text);
    if kind == Kind::Decision {
        let choice = offers()
            .iter()
            .filter(|offer| offer.message <= at)
            .map(|offer| (shared(&words, &offer.words), offer))
            .filter(|(n, _)| *n > 0)
            .max_by_key(|(n, offer)| (*n, offer.message));
        // Else the offer said in its own message ("I've thought about the writing tool
        // options. We're going with Word."): the choice it names is this one's.
        let choice = choice
            .map(|(_, offer)| offer)
            .or_else(|| offers().iter().rfind(|offer| offer.message == at));
        if let Some(offer) = choice {
            words.extend(offer.words.iter().cloned());
        }
    }
    words.sort_unstable();
    words.dedup();
    words
}

/// How many of `a`'s words `b` holds.
fn shared(a: &[String], b: &[String]) -> usize {
    a.iter().filter(|w| b.contains(w)).count()
}

/// Does a decision (its words of substance `subject`) decide again what an earlier one
/// still standing decided (`subjects`, theirs): two
/// words of substance of what it is about in common ("The recording software will be
/// Reaper." — "So Ardour it is for the recording software.")? A choice is made once;
/// the newer one replaces it, said with "instead" or not. One word is not enough: "Postgres
/// for the main database" and "Redis for the cache database" both stand; nor two of many
/// (a third of the shorter's, at the least): "a meadow instead of the front lawn, with a
/// mown path up to the front door" and "the path to the back door will be gravel" both
/// stand.
fn restates(found: &[Instruction], words: &[Words], subject: &[String]) -> bool {
    found
        .iter()
        .zip(words)
        .filter(|(i, _)| i.kind == Kind::Decision && !i.superseded)
        .any(|(_, w)| {
            let mut mine: Vec<&String> = subject.iter().collect();
            let mut theirs: Vec<&String> = w.said.iter().collect();
            for words in [&mut mine, &mut theirs] {
                words.sort_unstable();
                words.dedup();
            }
            let common = mine.iter().filter(|m| theirs.contains(m)).count();
            common >= 2 && common * 2 >= mine.len().min(theirs.len())
        })
}

/// The most words of substance an override says of its own and still points back at the
/// instruction before it.
const POINTING_BACK_WORDS: usize = 3;

/// Does an override say it takes back what was said before ("scratch that", "ignore the
/// earlier instruction", "Forget A and B — go with C")?
fn refers_back(said: &str) -> bool {
    if starts_over(said) {
        return true;
    }
    const BACK: &[&str] = &[
        "scratch that",
        "forget that",
        "forget what",
        "forget about",
        "ignore that",
        "ignore the earlier",
        "ignore what",
        "undo that",
        "reverse that",
        "not what i said",
        "take that back",
        "taking that back",
        "let me revise",
        "off the table",
    ];
    let lower = crate::case::lowercase(said);
    says_any(&lower, BACK)
        || sentences(&lower).iter().any(|sentence| {
            first_words(sentence)
                .first()
                .is_some_and(|w| ["forget", "scrap", "ditch"].contains(&word(w)))
        })
}

/// Does an override take back everything decided before it ("scratch all of this",
/// "full pivot", "start over"), not one choice?
fn starts_over(said: &str) -> bool {
    const ALL: &[&str] = &[
        "scratch all",
        "scrap all",
        "forget all",
        "ignore all",
        "ignore everything",
        "scrap everything",
        "forget everything",
        "scratch everything",
        "drop everything",
        "start over",
        "starting over",
        "total reset",
        "full pivot",
        "complete pivot",
        "from scratch",
    ];
    let lower = crate::case::lowercase(said);
    says_any(&lower, ALL)
}

/// "Scratch all of this … Full pivot": every plan before it goes, no rule.
fn take_back_every_decision(found: &mut [Instruction]) {
    for earlier in found.iter_mut().filter(|i| i.kind == Kind::Decision) {
        earlier.superseded = true;
    }
}

/// Marks superseded the instruction an override said in message `message` names as what
/// it replaces ("a project-based assessment instead of a unit test"): of the earlier ones
/// of its kind still standing, said before its message, the one whose own sentences
/// share the most of the `named` words; else one of the other kind they name twice or
/// more ("Scratch the first person idea" takes back "The narrator is Mira, in first
/// person", read as a rule) — none, when it only turned down an option no one chose.
fn take_back_named(
    found: &mut [Instruction],
    words: &[Words],
    named: &[String],
    kind: Kind,
    message: usize,
) {
    let best = |same_kind: bool, least: usize| {
        found
            .iter()
            .zip(words)
            .enumerate()
            .filter(|(_, (i, _))| {
                (i.kind == kind) == same_kind && !i.superseded && i.message != message
            })
            .map(|(at, (_, w))| (shared(named, &w.said), at))
            .filter(|&(n, _)| n >= least)
            .max()
    };
    if let Some((_, at)) = best(true, 1).or_else(|| best(false, 2)) {
        found[at].superseded = true;
    }
}

/// Marks superseded what an override (`turn`, its instruction's text and the sentences
/// that make it one in `said`) takes back: every decision when it starts over, what it
/// names as replaced ("instead of X"), else what [`supersede`] finds.
fn take_back(
    found: &mut [Instruction],
    words: &[Words],
    turn: &Turn,
    (text, said): (&str, &str),
    override_said: bool,
) {
    if turn.kind == Kind::Decision && override_said && starts_over(text) {
        take_back_every_decision(found);
    } else if let Some(named) = replaced(said) {
        take_back_named(found, words, &named, turn.kind, turn.message);
    } else {
        supersede(found, words, turn);
    }
}

/// An override as [`supersede`] reads it.
struct Turn<'a> {
    /// The message it is said in.
    message: usize,
    kind: Kind,
    /// What it is about, with the choice it makes.
    about: &'a [String],
    /// The words of substance of its own sentences.
    said: &'a [String],
    /// Those of what it says before its reasons ("Update: the migrations are managed with
    /// Sqitch from now on — our platform team standardised on it company-wide").
    head: &'a [String],
    /// Those of its whole message.
    around: &'a [String],
    /// Does it say it takes back what was said before ("scratch that")?
    points_back: bool,
}

/// Marks superseded the instruction an overriding one (of `kind`, about `about`) replaces:
/// of the earlier ones of its kind still standing (a decision replaces a decision, a rule
/// a rule), the one it shares the most words of substance with — the same choice ("a lemon
/// tart instead of the galette" replaces the galette, not the chicken with lemon) — the
/// newest of those tied; else the one the words of its message name ("Bad news on
/// citations. … So we're switching everything to Harvard style" replaces "For citations
/// I'll use APA"); else the instruction just before it, when that is of its kind and
/// the override says it takes that back (`points_back`) or, by its own words of substance
/// (`said`), names little
/// ("let's return raw errors" — "scratch that, let's wrap them instead"). Never one
/// further back that shares nothing with it: the one it meant may be gone already,
/// replaced in an earlier compaction, and a wrong guess would drop an instruction that
/// still holds.
fn supersede(found: &mut [Instruction], words: &[Words], turn: &Turn) {
    let Turn {
        message,
        kind,
        about,
        said,
        head,
        around,
        points_back,
    } = *turn;
    // What the same message said stands beside it: "We'll do the cabinets in sage green.
    // On second thought, butcher block on the island" takes back an earlier word on the
    // countertops, not the cabinets it has just decided. And a message that took one back
    // already ("Change of plan on the hours, sorry! We'll open Tuesday to Sunday") takes
    // back another only by its own words.
    let again = found.iter().any(|i| i.message == message && i.overrides);
    let best = found
        .iter()
        .enumerate()
        .filter(|(_, i)| i.kind == kind && !i.superseded && i.message != message)
        // Its own words first ("close third person" replaces "first person from Mira's
        // point of view", not a choice whose options spoke of chapters), then the choice.
        // What it says before its reasons counts first: a word its reason shares with an
        // unrelated choice ("company-wide") weighs less than one of its subject.
        .map(|(at, _)| {
            let own = shared(said, &words[at].own);
            (
                own + shared(head, &words[at].own),
                shared(about, &words[at].about),
                at,
            )
        })
        .filter(|&(own, choice, _)| own > 0 || (choice > 0 && !again))
        .max();
    // The one just before, for an override that points back and names little of its own
    // ("scratch that, let's wrap them instead", "Actually, make it MySQL"); one that names
    // its subject ("revisit the point of view: go with close third person") and matches
    // nothing replaces nothing.
    let points_back = points_back || said.len() <= POINTING_BACK_WORDS;
    let named_around = || {
        found
            .iter()
            .enumerate()
            // A decision alone: a rule stands until its own words are taken back.
            .filter(|(_, i)| {
                kind == Kind::Decision && i.kind == kind && !i.superseded && i.message != message
            })
            .map(|(at, _)| (shared(around, &words[at].own), at))
            .filter(|&(n, _)| n > 0 && !again)
            .max()
            .map(|(_, at)| at)
    };
    // One of the other kind that its own words name twice or more: "scratch the first
    // person thing, it's close third on Ada" replaces "the narrator is Ada, in first
    // person", read as a rule.
    let named_twice = || {
        found
            .iter()
            .enumerate()
            .filter(|(_, i)| i.kind != kind && !i.superseded && i.message != message)
            .map(|(at, _)| (shared(said, &words[at].own), at))
            .filter(|&(n, _)| n >= 2)
            .max()
            .map(|(_, at)| at)
    };
    let at = best
        .map(|(_, _, at)| at)
        .or_else(named_around)
        .or_else(named_twice)
        .or_else(|| {
            let last = found.len().checked_sub(1)?;
            (points_back && found[last].kind == kind && !found[last].superseded).then_some(last)
        });
    if let Some(at) = at {
        found[at].superseded = true;
    }
}

/// The block for the instructions said in the messages `folded` marks, those still
/// standing, oldest first; `None` when there is none. Written whatever the summarizer's
/// answer says: its prose is rewritten at every fold, the block is read back whole.
pub fn block(instructions: &[Instruction], folded: impl Fn(usize) -> bool) -> Option<String> {
    let kept: Vec<&Instruction> = instructions
        .iter()
        .filter(|i| !i.superseded && folded(i.message))
        .collect();
    write_block(&kept, false)
}

/// The block of `instructions`, whole or [`terse`].
fn write_block(instructions: &[&Instruction], terse: bool) -> Option<String> {
    if instructions.is_empty() {
        return None;
    }
    let lines: Vec<String> = instructions.iter().map(|i| line(i, terse)).collect();
    let header = if terse { TERSE_HEADER } else { STANDING_HEADER };
    Some(format!("{header}\n{}", lines.join("\n")))
}

/// The block's line for one instruction: its mark and its words.
fn line(i: &Instruction, terse: bool) -> String {
    let mark = match (i.kind, i.overrides, terse) {
        (Kind::Decision, false, _) => DECIDED,
        (Kind::Decision, true, false) => DECIDED_AGAIN,
        (Kind::Decision, true, true) => DECIDED_INSTEAD,
        (Kind::Rule, true, false) => RULE_AGAIN,
        (Kind::Rule, true, true) => INSTEAD,
        (Kind::Rule, false, _) => "",
    };
    format!("- {mark}{}", i.text)
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
    for i in instructions.iter().filter(|i| !i.superseded) {
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
fn split_at_header(summary: &str) -> Option<(&str, &str)> {
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
            let (kind, overrides, text) = MARKS
                .into_iter()
                .find_map(|(kind, overrides, mark)| {
                    line.strip_prefix(mark).map(|text| (kind, overrides, text))
                })
                .unwrap_or((Kind::Rule, false, line));
            Instruction {
                kind,
                text: text.to_owned(),
                overrides,
                superseded: false,
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
fn own_sentences(block: &str, terse: bool) -> Vec<Instruction> {
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
fn takes_back(sentence: &str) -> bool {
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
fn with_antecedent<'a, 't>(all: &'a [&'t str], said: &[&str]) -> Option<&'a [&'t str]> {
    let first = all.iter().position(|s| said.first() == Some(s))?;
    let last = all.iter().rposition(|s| said.last() == Some(s))?;
    let points_back = |sentence: &str| {
        crate::case::lowercase(sentence)
            .split(|c: char| !c.is_alphanumeric() && c != '\'')
            .any(|w| {
                matches!(
                    w,
                    "that" | "this" | "it" | "those" | "them" | "these" | "that's" | "it's"
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

#[cfg(test)]
mod tests;
