//! What makes a sentence a decision: a choice made among options, an order that picks, a
//! plan stated for the work, or someone the work is for choosing.

use super::*;

/// Words that make a sentence a decision that replaces an earlier one: both a
/// [`DECISION_IDIOMS`] and an [`OVERRIDE_MARKS`] mark ("we're renaming it", "went back to
/// the Lakeside Inn", "Final: Friday to Sunday").
pub(super) const REPLACING: &[&str] = &[
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
pub(super) const DECISION_IDIOMS: &[&str] = &[
    // Done deals: "we picked the 2-inch hex", "went with two access points instead".
    "we picked the",
    "i picked the",
    "we landed on",
    "i landed on",
    "went with",
    // "We lead with the Riverside Court story": what opens the piece, set.
    "we lead with",
    "we open with",
    "we close with",
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
    // "I have settled upon the latter half of May".
    "settled upon",
    "decided upon",
    // "we fix the dates: 22 and 23 October".
    "fix the date",
    "fix the dates",
    // "We're targeting a release on Tuesday the 14th".
    "we're targeting",
    "we are targeting",
    // "ok we're doing it in the garden": where it happens, set.
    "we're doing it in",
    "we're doing it at",
    "we're having it in",
    "we're having it at",
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
    // Minutes: "It is agreed that the season fee shall be $40 per plot".
    "it is agreed that",
    "it was agreed that",
    "decided to",
    "decided on",
    // "ten tracks. that's the shape, we decided over soup."
    "we decided",
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
    // "Therefore we change it to 'rent excluding service charges' everywhere".
    "we change it to",
    "we'll change it to",
    "we're changing it to",
    "we changed it to",
];

/// Words that move the conversation along, not choose within it ("Let's keep going",
/// "Let's wrap up for today").
pub(super) const GOING_ON: &[&str] = &[
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

/// Does a sentence give a thing a role anew ("ok RC3 is now the candidate, RC2 is dead
/// too", "Maria is now our lead")? A thing named in a few words, "is now the" or "is now
/// our", then the role it takes; not "it is now 5pm", "the build is now green": a pronoun,
/// or no role. ("Bob is our neighbour" says no more than who Bob is.)
pub(super) fn takes_the_role_now(lower: &str) -> bool {
    let words: Vec<&str> = first_words(first_clause(lower))
        .into_iter()
        .map(word)
        .collect();
    let Some(at) = words.windows(3).position(|w| {
        one_of(w[0], &["is", "are"]) && w[1] == "now" && one_of(w[2], &["the", "our"])
    }) else {
        return false;
    };
    let (thing, role) = (&words[..at], &words[at + 3..]);
    (1..=3).contains(&thing.len())
        && (1..=3).contains(&role.len())
        && !thing.iter().any(|w| {
            one_of(
                w,
                &[
                    "it", "this", "that", "there", "he", "she", "they", "what", "which", "who",
                ],
            )
        })
}

/// Does it settle what a part of the work will be ("The auction format will be a silent
/// auction.", "Our venue will be the boathouse.")? The part named first, a plain
/// statement, short.
pub(super) fn settles(lower: &str) -> bool {
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
    let named = one_of(first, &["the", "our"])
        || ((1..=3).contains(&be)
            && !doing
            && !words[..be].iter().any(|w| NOT_A_PART.contains(&word(w))));
    // "Kate will be so smug", "he'll be thrilled": how someone will feel settles nothing.
    let feels = words.get(be + 2).is_some_and(|w| {
        one_of(
            word(w),
            &[
                "so",
                "very",
                "really",
                "super",
                "thrilled",
                "happy",
                "glad",
                "upset",
                "disappointed",
                "smug",
                "mad",
                "excited",
                "relieved",
                "furious",
                "devastated",
                "delighted",
            ],
        )
    });
    named && !feels && words.len() <= 16 && !is_personal(lower)
}

/// Does it say in the present what the user and theirs do, as a plan ("We take adult dog,
/// 3 or 4 years old", "We ship only 10 boxes", "OK, we do the welcome dinner on Friday
/// evening")? A verb of doing, its object after it — not "we keep getting errors", not
/// "we take turns to cook" said of a habit, not someone's day.
pub(super) fn does_as_a_plan(lower: &str) -> bool {
    // "ok rip out the tub, we're doing a walk-in shower", "venue says long tables fit
    // better so we're doing three long tables": said after what led to it.
    does_as_a_plan_first(first_clause(lower))
        || fronts_its_object(first_clause(lower))
        || funds_from(lower)
        || moves_a_day(lower)
        || returns(lower)
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

/// Does a clause name what it takes before who takes it ("The Volkshochschule course I will
/// take", "this one we book")? The thing first, then "I will" or "we" and a verb of getting
/// that ends the clause.
fn fronts_its_object(clause: &str) -> bool {
    let words = bare_words(clause);
    let Some(at) = words
        .iter()
        .position(|w| one_of(w, &["i", "we", "i'll", "we'll"]))
    else {
        return false;
    };
    let verb = match words.get(at + 1) {
        Some(&("will" | "shall")) => at + 2,
        _ => at + 1,
    };
    (2..=6).contains(&at)
        && one_of(words[0], &["the", "this", "that"])
        && verb + 1 == words.len()
        && words.get(verb).is_some_and(|v| {
            one_of(
                v,
                &["take", "book", "choose", "buy", "use", "do", "pick", "keep"],
            )
        })
}

/// "we're fixing the modal focus trap first", "We are pursuing the claim separately": what
/// is under way; not these, which tell of a state ([`does_as_a_plan_first`]).
pub(super) const STATES: &[&str] = &[
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

/// Verbs of doing that make "we <verb> <object>" a plan ([`does_as_a_plan_first`]); among
/// them what is done to the work ("We merge WP2 and WP3 into one", "we omit price from
/// JSON-LD for now", "we vendor fmt under third_party/", "we convert the five biggest
/// models to incremental").
const DOING: &[&str] = &[
    "take",
    "ship",
    "do",
    "book",
    "pick",
    "choose",
    "keep",
    "buy",
    "hire",
    "launch",
    "rent",
    "sell",
    "order",
    "host",
    "hold",
    "serve",
    "invite",
    "adopt",
    "drop",
    "skip",
    "cut",
    "stick",
    "release",
    "deploy",
    "target",
    "publish",
    "submit",
    "switch",
    "move",
    "merge",
    "omit",
    "vendor",
    "pay",
    "upgrade",
    "offer",
    "split",
    "organize",
    "exclude",
    "include",
    "add",
    "remove",
    "store",
    "cache",
    "migrate",
    "rename",
    "pin",
    "rewrite",
    "bump",
    "charge",
    "send",
    "report",
    "require",
    "allow",
    "convert",
    "archive",
    "retire",
    "deprecate",
    "partition",
    "backfill",
    "rebuild",
];

/// Verbs that "do" stresses ("I do hope", "we do appreciate"), no plan.
const STRESSED: &[&str] = &[
    "hope",
    "think",
    "like",
    "love",
    "want",
    "need",
    "believe",
    "wish",
    "appreciate",
    "agree",
    "mean",
    "know",
    "feel",
    "worry",
    "remember",
    "understand",
    "apologise",
    "apologize",
];

pub(super) fn does_as_a_plan_first(lower: &str) -> bool {
    let mut words: Vec<&str> = first_words(lower).into_iter().map(word).collect();
    // "Then we take the other one, the online teacher": what follows from news.
    if words.first() == Some(&"then") {
        words.remove(0);
    }
    if words.starts_with(&["we", "are"]) {
        words.splice(..2, ["we're"]);
    }
    // "we are now insisting on 45-day terms": the verb after the adverb.
    if words.len() > 2
        && (one_of(words[1], &["now", "still", "also", "just"]) || is_adverb(words[1]))
    {
        words.remove(1);
    }
    let [who, verb, next, ..] = words.as_slice() else {
        return false;
    };
    // "I do hope I'm doing this correctly": "do" that stresses the verb after it.
    if *verb == "do" && STRESSED.contains(next) {
        return false;
    }
    // "we're fixing the modal focus trap first", "We are pursuing the claim separately".
    let doing_now = *who == "we're" && verb.ends_with("ing") && !STATES.contains(verb);
    // "we're doing a walk-in shower": a thing done is chosen; not "we're doing a lot of …",
    // "we're doing great".
    let done_a_thing = *verb == "doing"
        && *next == "a"
        && !words
            .get(3)
            .is_some_and(|w| one_of(w, &["lot", "bit", "little", "few"]));
    let how = one_of(
        next,
        &[
            "great", "well", "fine", "ok", "okay", "good", "better", "worse", "alright", "it",
            "this", "that", "so", "pretty", "really", "what",
        ],
    ) && !(*next == "it"
        && words.len() > 3
        && (contains_phrase(lower, "instead") || names_a_day(&words[3..])));
    // ("So we're painting it white instead": what is done to it, in place of another;
    // "We're doing it Saturday 14 June": the day it is done.)
    // "We're renting a 4x4 from Adobe", "We're starting on Sunday, September 14": a thing
    // got, a day set; not "we're building a marketplace" (the work itself).
    let gets = one_of(
        verb,
        &[
            "renting", "buying", "booking", "hiring", "ordering", "leasing", "adopting",
        ],
    ) && *next == "a";
    let sets_a_day = sets_a_day(who, verb, next, &words);
    if sets_a_day && !verb.ends_with("ing") {
        return !is_habit(lower);
    }
    if doing_now
        && !how
        && (done_a_thing || gets || sets_a_day || !one_of(next, &["to", "a", "for", "about", "on"]))
    {
        return !is_habit(lower);
    }
    one_of(who, &["we", "i"])
        && (DOING.contains(verb) || (*who == "we" && *verb == "use"))
        // Not "we keep getting errors"; "we keep everything in one sheet" is a plan.
        && (!next.ends_with("ing") || next.ends_with("thing"))
        && !one_of(next, &["to", "it", "that", "this", "them", "care", "turns", "a"])
        // "We do maybe 2M movements a day": a volume guessed, not a plan.
        && !one_of(next, &["maybe", "about", "around", "roughly", "approximately", "probably", "like", "nearly", "almost"])
        && !is_habit(lower)
}

/// Does "we …" set a day or a place: "We're starting on Sunday, September 14", "We're
/// sending on Sunday mornings", "We train Tuesday and Thursday, 18:00 to 19:30", "we start
/// on Monday 22 September", "We start in Ulm"? What recurs or begins, on a day or where.
fn sets_a_day(who: &str, verb: &str, next: &str, words: &[&str]) -> bool {
    let going = one_of(
        verb,
        &[
            "starting",
            "leaving",
            "flying",
            "launching",
            "departing",
            "arriving",
            "sending",
            "publishing",
            "meeting",
            "training",
            "opening",
        ],
    ) && next == "on";
    // "We open the 15 of April", "we go in the first two weeks of September", "we run
    // Sunday": a day or a month named.
    let set = one_of(who, &["we", "i"])
        && one_of(
            verb,
            &[
                "train", "start", "meet", "open", "fly", "leave", "send", "go", "run", "launch",
            ],
        )
        && (names_a_day(words)
            || (words
                .iter()
                .any(|w| MONTHS[..12].contains(w) && *w != "may")
                && !words
                    .iter()
                    .any(|w| one_of(w, &["every", "each", "usually", "always"]))));
    // "We start in Ulm instead", "We begin in Donaueschingen, at the source": where it
    // begins or ends.
    let from = who == "we"
        && one_of(verb, &["start", "begin", "finish", "end"])
        && one_of(next, &["in", "at", "from"]);
    going || set || from
}

/// Does it return to an earlier choice or state where the work now stands ("Okay, back to
/// three days, but Tuesday Thursday Saturday this time", "so we're back at St. Paul's",
/// "So we're in a 10x30 inline now", "back to the original plan")? Not "back to work",
/// "back to the question".
pub(super) fn returns(lower: &str) -> bool {
    clauses(lower).any(returns_in)
}

fn returns_in(clause: &str) -> bool {
    let words: Vec<&str> = first_words(clause).into_iter().map(word).collect();
    let back = match words.as_slice() {
        ["back", "to" | "at" | "on" | "with", next, ..]
        | [
            "we're" | "we",
            "back",
            "to" | "at" | "on" | "with",
            next,
            ..,
        ] => {
            !one_of(
                next,
                &["work", "you", "it", "this", "that", "normal", "square"],
            ) && !words
                .iter()
                .any(|w| one_of(w, &["question", "topic", "point"]))
        }
        _ => false,
    };
    let stands =
        matches!(words.as_slice(), ["we're", "in", "a" | "an", ..]) && words.last() == Some(&"now");
    back || stands
}

/// Does the user muse, announce the next topic or note an errand of their own, deciding
/// nothing of the work ("I'm
/// just curious how it would compare", "I am thinking four or five, but I would welcome
/// your view", "so I will raise it with finance", "I'll take that to our PR contractor",
/// "I need to remember to email our agency contact")?
pub(super) fn muses(lower: &str) -> bool {
    const MUSING: &[&str] = &[
        "curious",
        "i wonder",
        "just wondering",
        "not proposing",
        "welcome your view",
        "welcome your thoughts",
    ];
    const ERRANDS: &[&str] = &[
        "ask the",
        "ask my",
        "ask our",
        "ask him",
        "ask her",
        "ask them",
        "raise it",
        "email",
        "call",
        "text",
        "mention it",
        "remind",
        "ping",
        "take that to",
        "take it to",
        "run it by",
        "check with",
        "talk to",
        "follow up",
    ];
    // "Now the 2FA setup for staff.", "On to the budget.": the next topic, announced.
    let announces = [
        "now the ",
        "next, the ",
        "next the ",
        "on to ",
        "onto ",
        "moving on to ",
    ]
    .iter()
    .any(|topic| lower.starts_with(topic))
        && lower.split_whitespace().count() <= 8
        && !lower.contains(',');
    // "last q: anything about the border crossing we should know": a question, labelled.
    let asks_labelled = lower.split_once(':').is_some_and(|(label, _)| {
        label.split_whitespace().count() <= 2
            && matches!(label.split_whitespace().last(), Some("q" | "question"))
    });
    says_any(lower, MUSING)
        || announces
        || asks_labelled
        || clauses(lower).any(|clause| {
            [
                "i'll ",
                "i will ",
                "i need to remember to ",
                "i have to remember to ",
            ]
            .iter()
            .filter_map(|lead| clause.strip_prefix(lead))
            .any(|rest| ERRANDS.iter().any(|errand| rest.starts_with(errand)))
        })
}

/// Does it move a part of the work to a day ("the launch moves to Tuesday 6 May", "soft
/// open is now Thursday June 19", "the pilot moves to April")?
pub(super) fn moves_a_day(lower: &str) -> bool {
    let clause = first_clause(lower);
    ["is now ", "pushed to ", "now on "]
        .iter()
        .find_map(|mark| clause.split_once(mark))
        .is_some_and(|(_, to)| {
            let words = first_words(to);
            // "The pilot moves to April": a month alone, said first.
            names_a_day(&words) || words.first().is_some_and(|w| MONTHS.contains(&word(w)))
        })
        || set_for_a_day(clause)
}

/// Is a part of the work set for a day where it happens ("Launch is at the spring gala on
/// May 16"): "is at", a place of a few words, then "on" and the day? Not "is on leave
/// until Tuesday", "is on fire since Monday".
fn set_for_a_day(clause: &str) -> bool {
    clause.split_once(" is at ").is_some_and(|(_, rest)| {
        rest.split_once(" on ").is_some_and(|(place, day)| {
            place.split_whitespace().count() <= 4
                && names_a_day(&first_words(day).into_iter().take(2).collect::<Vec<_>>())
        })
    })
}

/// Words that make a sentence a decision when the user speaks for the work (not "my
/// partner keeps watching videos instead of packing", not "I'll take the dog out").
pub(super) const DECISION_MARKS: &[&str] = &[
    "i'll take",
    // "I take this." (not "I take it you're busy": what one assumes).
    "i take this",
    "i take that",
    "we take this",
    "we take that",
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
pub(super) const UNDECIDED: &[&str] = &[
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

/// Words that put a choice off ("I'd better ask Sue before I decide anything", "haven't
/// decided yet"): whatever else the sentence says, nothing is settled.
pub(super) const DEFERRED: &[&str] = &[
    "before i decide",
    "before we decide",
    "before deciding",
    "until i decide",
    "until we decide",
    "haven't decided",
    "have not decided",
    "not decided yet",
    "still deciding",
    "decide later",
];

/// How an opening message states the plan a later turn may change ("I'm planning to build
/// it with Flask", "My idea was to release weekly"): a decision, in the task alone —
/// elsewhere such words tell of the user's day.
pub(super) const PLAN_STATEMENTS: &[&str] = &[
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

/// Does it tell what someone the work is for chose ("he picked the paper towel one",
/// "Valeria has chosen her cousin Mateo to be her chambelán", "my sister went with the
/// navy one")? Not "my wife picked up the kids", "he chose to ignore it".
pub(super) fn someone_chose(lower: &str) -> bool {
    let words: Vec<&str> = first_words(first_clause(lower))
        .into_iter()
        .map(word)
        .collect();
    let chose = |at: usize| match words.get(at..at + 2) {
        Some(["picked" | "chose" | "chosen", _]) => Some(at + 1),
        Some(
            ["decided" | "settled", "on"]
            | ["went", "with"]
            | ["opted", "for"]
            | ["switched", "to"],
        ) => Some(at + 2),
        _ => None,
    };
    (1..4.min(words.len())).any(|at| {
        let subject = &words[..at];
        let said_by = !one_of(
            subject[0],
            &[
                "i", "we", "you", "if", "when", "whether", "what", "which", "who", "should", "did",
                "has", "have",
            ],
        ) && (words[at] != "chosen"
            || matches!(subject.last(), Some(&("has" | "have"))));
        said_by
            && chose(at).is_some_and(|object| {
                words
                    .get(object)
                    .is_some_and(|w| !one_of(w, &["up", "to", "out", "it", "me", "us", "on"]))
            })
    })
}

/// Does it report what someone else proposed ("a colleague suggested writing our own
/// binlog reader in go instead of running connect", "the CFO wants us to use Ramp")? The
/// user has chosen nothing yet; their answer follows.
pub(super) fn reports_a_proposal(lower: &str) -> bool {
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
        .is_some_and(|w| one_of(w, &["i", "we", "i'd", "we'd", "i've", "we've"]));
    // Nor "the start date they proposed is March 3": the proposal named, then settled.
    !own && (1..words.len()).any(|at| {
        !one_of(
            words[at - 1],
            &["as", "was", "were", "been", "be", "is", "you", "the"],
        ) && !words
            .get(at + 1)
            .is_some_and(|w| SUBJECT_VERBS.contains(w) || *w == "is")
            && PROPOSED
                .iter()
                .any(|p| says_any(&words[at..].join(" "), &[p]) && p.starts_with(words[at]))
    })
}

/// An order or a plan that ends on what it replaces: "Use md5 to hash passwords
/// instead.", "so both kids are going to Munich International School instead", "the
/// vignettes will open each thematic section instead, at roughly 150 words apiece" (its
/// first part, then how).
pub(super) fn plans_instead(lower: &str) -> bool {
    let ends = lower
        .trim_end_matches(|c: char| !c.is_alphanumeric())
        .ends_with(" instead")
        || says_any(lower, &["instead,", "instead;", "instead —"]);
    // "… so perhaps not that weekend, as everyone will be there instead": the reason ends
    // on it, no plan.
    let last = lower
        .rsplit([',', ';'])
        .next()
        .unwrap_or(lower)
        .trim_start();
    let reason_ends = ["as ", "because ", "since ", "cause "]
        .iter()
        .any(|w| last.starts_with(w))
        && last
            .trim_end_matches(|c: char| !c.is_alphanumeric())
            .ends_with(" instead");
    if reason_ends {
        return false;
    }
    // "I'd like morning practice to begin at 7:15 instead, with tea from 6:45".
    ends && (is_imperative(lower)
        || says_any(
            lower,
            &[
                "going to",
                "will",
                "we'll",
                "gonna",
                "i'd like",
                "we'd like",
                "i would like",
            ],
        ))
}

/// Does it say what a thing now is, as news of a change: a day ("so it's 17-19 Oct now",
/// "So it will be Sunday the 20th"), a name ("The kids voted and it's the Wildcat
/// Stampede now!!"), a value in a few words ("Duck at 28 now.")? Not how things are
/// ("it's raining now", "it's 5pm now").
pub(super) fn set_anew_now(text: &str) -> bool {
    let lower = crate::case::lowercase(text);
    clauses(&lower).zip(clauses(text)).any(|(clause, said)| {
        let clause = clause.trim_end_matches(['.', '!']);
        let Some(rest) = ["it's ", "it is "]
            .iter()
            .find_map(|lead| clause.split_once(lead).map(|(_, rest)| rest))
        else {
            return false;
        };
        let Some(value) = rest.strip_suffix(" now") else {
            return false;
        };
        let words: Vec<&str> = value.split_whitespace().collect();
        // The name as written: "the Wildcat Stampede".
        let named = value.starts_with("the ")
            && said
                .split_whitespace()
                .skip_while(|w| !w.eq_ignore_ascii_case("the"))
                .nth(1)
                .is_some_and(|w| w.starts_with(|c: char| c.is_uppercase()));
        (1..=5).contains(&words.len()) && (names_a_day(&words) || named)
    }) || sentences(&lower).into_iter().any(value_now)
        || will_be_a_day(&lower)
}

/// Does a sentence say the day a thing will be, as what follows from news ("So it will be
/// Sunday the 20th, from eleven until two.")? Its first clause, in a few words.
pub(super) fn will_be_a_day(lower: &str) -> bool {
    let first = first_clause(lower).trim_end_matches(['.', '!']);
    let first = first.strip_prefix("so ").unwrap_or(first);
    [
        "it will be ",
        "it'll be ",
        "it's going to be ",
        "it is going to be ",
        "it's gonna be ",
        "its gonna be ",
    ]
    .iter()
    .find_map(|lead| first.strip_prefix(lead))
    .is_some_and(|rest| {
        let words: Vec<&str> = rest.split_whitespace().collect();
        (1..=5).contains(&words.len()) && names_a_day(&words)
    })
}

/// Does a sentence give a thing its value now, in a few words ("Duck at 28 now.")? Not
/// where things stand ("we're at 28 now", "it's 5pm now").
fn value_now(sentence: &str) -> bool {
    let words = bare_words(sentence);
    matches!(words.as_slice(), [thing, .., "now"]
        if (3..=5).contains(&words.len())
            && !matches!(*thing, "it" | "it's" | "we" | "we're" | "i" | "i'm" | "that" | "there"
                | "he" | "she" | "they")
            && words.iter().any(|w| w.starts_with(|c: char| c.is_ascii_digit())))
}

/// Does it judge a named option the best ("I think Lessons and Carols on the third Sunday,
/// at four o'clock, would be best", "the shared mailbox sounds right")? Not what is best to
/// do ("it would be best to ask"), nor asked.
pub(super) fn judges_best(lower: &str) -> bool {
    const NOT_NAMES: &[&str] = &[
        "it",
        "that",
        "this",
        "what",
        "which",
        "whichever",
        "whatever",
        "who",
        "maybe",
        "whether",
        "if",
        "nothing",
        "anything",
        "something",
    ];
    let Some((named, _)) = [
        "would be best",
        "would be ideal",
        "would work best",
        "makes the most sense",
        "makes most sense",
        // "I think the shared mailbox sounds right for both of them".
        "sounds right",
        "seems right",
        // "Founder Fuel is the one, it's punchy", "I think the second one is best, with the
        // cash table by the door": where the clause ends, not "… is the one who decides",
        // "… is best left alone".
        "is the one",
        "is best",
    ]
    .iter()
    .find_map(|judged| {
        let (named, rest) = lower.split_once(judged)?;
        let ends = rest.is_empty() || rest.starts_with([',', '.', '!', ';']);
        (!judged.starts_with("is ") || ends).then_some((named, rest))
    })
    .or_else(|| liked_best(lower))
    .or_else(|| ranked_first(lower)) else {
        return false;
    };
    let named = named.trim();
    let named = ["i think ", "i feel "]
        .iter()
        .find_map(|lead| named.strip_prefix(lead))
        .unwrap_or(named);
    let words: Vec<&str> = first_words(named).into_iter().map(word).collect();
    // "(b)", "option 2": a label names it alone.
    let labelled = matches!(words.as_slice(), [label] if label.len() == 1)
        || matches!(words.as_slice(), ["option", _]);
    (words.len() >= 2 || labelled)
        && !words.first().is_some_and(|w| NOT_NAMES.contains(w))
        && !lower.trim_end().ends_with('?')
}

/// What a judgement ranks first among ways to go, and what follows ("I think (b) is the
/// most defensible course, and she is content with it", "the barn is the safest bet").
fn ranked_first(lower: &str) -> Option<(&str, &str)> {
    let (named, rest) = lower.split_once(" is the ")?;
    let words = bare_words(first_clause(rest));
    let ranked = match words.as_slice() {
        [
            "best" | "safest" | "simplest" | "wisest" | "strongest" | "cleanest",
            rest @ ..,
        ]
        | ["most", _, rest @ ..] => rest,
        _ => return None,
    };
    matches!(
        ranked.first(),
        Some(
            &("course"
                | "option"
                | "choice"
                | "route"
                | "approach"
                | "way"
                | "one"
                | "bet"
                | "path")
        )
    )
    .then_some((named, rest))
}

/// What a liking ranks first, and what follows ("I think I like the last one best... it
/// has such a warm sound"): the option it names.
fn liked_best(lower: &str) -> Option<(&str, &str)> {
    let lower = past_opener(lower);
    let lower = ["i think ", "i feel ", "honestly "]
        .iter()
        .find_map(|lead| lower.strip_prefix(lead))
        .unwrap_or(lower);
    let liked = ["i like ", "we like ", "i love ", "we love ", "we all like "]
        .iter()
        .find_map(|lead| lower.strip_prefix(lead))?;
    let first = first_clause(liked);
    let end = ["…", "..", "!", ";"]
        .iter()
        .filter_map(|mark| first.find(mark))
        .min()
        .unwrap_or(first.len());
    let first = first[..end].trim_end_matches(|c: char| !c.is_alphanumeric());
    let named = [" best", " the most", " most"]
        .iter()
        .find_map(|end| first.strip_suffix(end))?;
    Some((named, &liked[first.len()..]))
}

/// Does a clause accept a way of doing as fine ("… and keeping it in the shared toolkit
/// section is fine as long as …")? A doing named by its verb, judged fine; not "everything
/// is fine", "the building is fine".
pub(super) fn accepts_a_way(lower: &str) -> bool {
    let Some((named, _)) = lower.split_once(" is fine") else {
        return false;
    };
    let last = named.rsplit([',', ';']).next().unwrap_or(named);
    let words = bare_words(past_opener(last));
    words.len() >= 3
        && words[0].len() > 4
        && words[0].ends_with("ing")
        && !one_of(
            words[0],
            &[
                "thing",
                "nothing",
                "something",
                "everything",
                "anything",
                "morning",
                "evening",
            ],
        )
        && !lower.trim_end().ends_with('?')
}

/// What a document is to read, set ("the flyer should now say 45 to 80").
const DOCUMENT_READS: &[&str] = &[
    " should read ",
    " should now read ",
    " should say ",
    " should now say ",
];

/// Does a sentence settle a count as what will do ("Two guys is plenty for that one")? Not
/// a judgement of time ("Two weeks is plenty of time").
fn counted_enough(lower: &str) -> bool {
    [" is plenty", " is enough", " are plenty", " will do"]
        .iter()
        .find_map(|mark| lower.split_once(mark))
        .is_some_and(|(counted, rest)| {
            let counted = bare_words(past_opener(counted));
            counted.len() <= 4
                && counted.first().is_some_and(|w| is_number(w))
                && bare_words(rest)
                    .first()
                    .is_none_or(|w| one_of(w, &["for", "now", "then", "here"]))
        })
}

/// What settles the thing named before it ([`settles_in_short`]): "'Lifting the Floor'
/// is the one", "A2 is the goal", "the Acer griseum gets the spot now".
const THE_ONE: &[&str] = &[
    " is the one",
    " is the number",
    " is the price",
    " is the winner",
    " is the right one",
    " is the goal",
    " is our goal",
    " is my goal",
    " is the target",
    " is our target",
    " is my target",
    " is the aim",
    // "so I think the Acer griseum gets the spot now, since …".
    " gets the spot",
    " gets the slot",
    " gets the nod",
];

/// Does it settle a choice in one of the short forms users close a choice with: the thing,
/// then "decided" ("Rounds of eight, decided, done, moving on"); "lock X in" ("Lock the
/// buns in at £3.20"); "X is the one" ("I rather think 'Lifting the Floor' is the one, as
/// it says what we found", "nah 165 is the number, feels friendlier") or the aim ("A2 is
/// the goal"); a final count or answer ("Final
/// count: **3 screens**."); what the assistant put forward, taken ("Use that scheme: …");
/// what a document should read ("The age range on the flyer should read 45 to 75"); a thing
/// made the main one ("Make linneahart.com the main domain")? Not asked, nor "the one who
/// …", nor "decided" of something else ("we haven't decided").
pub(super) fn settles_in_short(lower: &str) -> bool {
    if lower.trim_end().ends_with('?') {
        return false;
    }
    let words = bare_words(lower);
    // "Rounds of eight, decided, done": a clause of its own after the thing it settles.
    // "Kickoff watch party in the school library, done.": a place or a thing set, sealed;
    // not "ok that's the intro, done", what was finished.
    let decided = lower.split([',', ';', '—']).skip(1).any(|clause| {
        matches!(
            bare_words(clause).as_slice(),
            ["decided"] | ["settled"] | ["done", "deal"] | ["final"] | ["that's", "decided"]
        )
    }) || lower
        .trim_end_matches(['.', '!'])
        .strip_suffix(", done")
        .is_some_and(|set| {
            let words = bare_words(past_opener(set));
            (3..=10).contains(&words.len())
                && words.windows(2).any(|w| one_of(w[0], &["in", "at", "on"]))
                && !words
                    .iter()
                    .any(|w| NOT_THINGS.contains(w) || w.ends_with("ed"))
        });
    // "Lock the buns in at £3.20": lock, what, then "in" closing it or before its value.
    let locked = matches!(words.first(), Some(&"lock"))
        && words
            .iter()
            .skip(2)
            .take(4)
            .position(|w| *w == "in")
            .is_some_and(|at| {
                matches!(
                    words.get(at + 3),
                    None | Some(&("at" | "for" | "as" | "now" | "then"))
                )
            });
    // "'Lifting the Floor' is the one, as …": named, then the one, with its reasons;
    // "then A2 is the goal, and if B1 comes, it is a gift": named, then the aim.
    let the_one = THE_ONE
        .iter()
        .flat_map(|mark| lower.match_indices(mark))
        .any(|(at, mark)| {
            // "…; a colleague showed me one, so I think the Acer griseum gets the spot now":
            // what the clause before the mark names.
            let named = past_opener(lower[..at].rsplit([',', ';', ':']).next().unwrap_or(""));
            let named = ["i rather think ", "i think ", "i reckon ", "honestly "]
                .iter()
                .find_map(|lead| named.strip_prefix(lead))
                .unwrap_or(named);
            let rest = &lower[at + mark.len()..];
            let after = bare_words(rest);
            let first = bare_words(named).first().copied().unwrap_or("");
            !named.trim().is_empty()
                && !one_of(
                    first,
                    &["which", "what", "who", "nobody", "no", "none", "neither"],
                )
                && (mark.ends_with("one") || !one_of(first, &["that", "this", "it"]))
                && (rest.starts_with([',', ';'])
                    || matches!(
                        after.first(),
                        None | Some(&("as" | "because" | "for" | "then" | "now" | "and" | "not"))
                    ))
        });
    let final_label = labelled_final(lower);
    // "The age range on the flyer should read 45 to 75", "the sign should now say
    // 'Closed Mondays'": the words a document carries, set.
    let reads = DOCUMENT_READS.iter().any(|mark| {
        lower.split_once(mark).is_some_and(|(_, value)| {
            value.starts_with(|c: char| c.is_ascii_digit() || "'\"“£$€".contains(c))
        })
    });
    // "Make linneahart.com the main domain and just redirect …".
    let made_main =
        matches!(words.first(), Some(&"make"))
            && words.windows(2).skip(1).take(4).any(|w| {
                w[0] == "the" && one_of(w[1], &["main", "default", "primary", "official"])
            });
    decided
        || locked
        || the_one
        || counted_enough(lower)
        || final_label
        || reads
        || made_main
        || takes_what_was_put_forward(&words, lower)
        || sets_in_short(lower)
}

/// Does a sentence label what follows as final ("Final count: **3 screens**.", "final
/// answer: the blue one", "Okay, about the start, final now: Regensburg.") or close a
/// short choice so ("Sat the 21st, final final.", "Butter yellow, final answer.")?
pub(super) fn labelled_final(lower: &str) -> bool {
    let labelled = lower.find(':').is_some_and(|at| {
        let label = bare_words(&lower[..at]);
        (label.first() == Some(&"final") && label.len() <= 3)
            || (label.len() <= 8
                && matches!(label.as_slice(), [.., "final"] | [.., "final", "now"]))
    });
    let closed = lower.rsplit_once(',').is_some_and(|(choice, last)| {
        let choice = bare_words(choice);
        let last = bare_words(last);
        (1..=6).contains(&choice.len())
            && match last.as_slice() {
                ["final", rest @ ..] => {
                    rest.len() <= 2
                        && rest
                            .iter()
                            .all(|w| one_of(w, &["final", "answer", "decision", "now"]))
                }
                ["that's" | "thats", "final"] => true,
                _ => false,
            }
    });
    labelled || closed
}

/// Does a sentence take what the assistant put forward, pointing at it ("Use that scheme:
/// 0 clean, 1 findings, …", "Adopt this layout")? Not "use that in the intro", nor a rule
/// for every time ("use that scheme everywhere").
fn takes_what_was_put_forward(words: &[&str], lower: &str) -> bool {
    matches!(
        words,
        ["use" | "take" | "adopt", "that" | "this", thing, ..]
            if !matches!(*thing, "in" | "on" | "as" | "for" | "to" | "into" | "with" | "one")
    ) && !says_any(
        lower,
        &["always", "everywhere", "from now on", "every time"],
    )
}

/// The rest of [`settles_in_short`]: a name given ("We're calling it the Tithe"), a plan on
/// a number ("Let's plan on six chapters"), a form picked by its figures ("Let's go
/// 2-3-1!"), a thing at a value, settled ("baguette mix at 4:30 then."), a value set ("Set
/// quorum at twenty-five Members present in person"), a thing begun at a time ("Let's
/// begin morning practice at 7:00").
fn sets_in_short(lower: &str) -> bool {
    let words = bare_words(past_opener(lower));
    let named = matches!(
        words.as_slice(),
        ["we're" | "i'm", "calling", "it", _, ..] | ["we'll" | "i'll", "call", "it", _, ..]
    );
    // "Let's plan on six chapters", "Plan is free lumpia for the first 50 people".
    let planned = matches!(
        words.as_slice(),
        ["let's" | "we'll", "plan", "on" | "for", _, ..] | ["plan", "is", _, ..]
    ) || matches!(words.as_slice(), ["the", "plan", "is", _, ..]);
    // "Start date is 24 August", "budget is $1,500": a value of the work, set.
    let valued = words.len() <= 7
        && words.windows(3).any(|w| {
            one_of(w[0], &["date", "budget", "deadline", "price"])
                && w[1] == "is"
                && w[2].starts_with(|c: char| c.is_ascii_digit() || "$£€".contains(c))
        });
    let figures = matches!(
        words.as_slice(),
        ["let's", "go", next, ..] if next.starts_with(|c: char| c.is_ascii_digit())
    );
    // Not a goodbye ("see you at 5 then").
    let then = words.last() == Some(&"then")
        && words.len() <= 8
        && !matches!(
            words.first(),
            Some(&("see" | "talk" | "speak" | "catch" | "bye"))
        )
        && words
            .iter()
            .any(|w| w.starts_with(|c: char| c.is_ascii_digit()))
        && !lower.trim_end().ends_with('?');
    let set = matches!(words.first(), Some(&"set"))
        && words
            .iter()
            .skip(1)
            .take(5)
            .position(|w| one_of(w, &["at", "to"]))
            .is_some_and(|at| {
                words
                    .get(at + 2)
                    .is_some_and(|v| is_number(v.split('-').next().unwrap_or(v)))
            });
    let begun = matches!(words.as_slice(), ["let's", "begin" | "start", ..])
        && words.windows(2).any(|w| w[0] == "at" && w[1].contains(':'));
    // "Top terrace becomes the gravel seating area for evenings".
    let becomes = words
        .iter()
        .take(4)
        .position(|w| *w == "becomes")
        .is_some_and(|at| {
            at >= 1
                && !SUBJECTS.contains(&words[0])
                && matches!(
                    words.get(at + 1),
                    Some(&("the" | "a" | "an" | "our" | "my"))
                )
        });
    named || planned || valued || figures || then || set || begun || becomes
}

/// Does it tell of a pick by place agreed ("We agreed on the third one, the L-shape with
/// the island")? Not "we agreed on the call: …", where it was agreed.
pub(super) fn agrees_on_a_pick(lower: &str) -> bool {
    lower
        .split_once("agreed on ")
        .is_some_and(|(_, picked)| picks_by_place(picked.trim_end_matches(['.', '!'])))
}

/// Does it tell what someone else advises ("my neighbor says we should get ducks
/// instead", "my mom thinks I should get a roommate", "her counselor told her she should
/// write about …", "my dad keeps saying I should just get a new car")? Advice reported is
/// neither the user's choice nor a rule, unless the user takes it up in the same breath
/// ("my lead thinks we should use Kafka and I agree").
pub(super) fn reports_advice(lower: &str) -> bool {
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
        // "I now think we should …": the speaker's own view, past the words between.
        let speaker = words[..at].iter().rev().find(|w| {
            !one_of(w, &["now", "still", "also", "really", "actually", "do"]) && !is_adverb(w)
        });
        REPORTING.contains(w)
            && at > 0
            && !speaker.is_some_and(|s| one_of(s, &["i", "we", "you", "i'd", "we'd", "don't"]))
            && words[at + 1..].windows(2).take(9).any(|pair| {
                one_of(pair[0], &["i", "we", "you", "she", "he", "they"])
                    && one_of(pair[1], &["should", "shouldn't", "ought"])
            })
    });
    advised
        && !says_any(
            lower,
            &["i agree", "let's", "so we'll", "so i'll", "we agree"],
        )
}

/// What a statement with a question tagged on says ("I'm aiming for 4:15, seems doable?",
/// "we'll go with Postgres — sound good?"): the words before the tag, a few words after a
/// comma or a dash. Not a question that offers alternatives ("Postgres, or MySQL?").
pub(super) fn confirmed(question: &str) -> Option<&str> {
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
    let offers = tag.iter().any(|w| one_of(w, &["or", "vs", "versus"]))
        || tag
            .first()
            .is_some_and(|w| one_of(w, &["but", "if", "unless", "though"]));
    // "If we went with leasing instead, how would that look?": a thought, not a choice.
    let supposes = crate::case::lowercase(head)
        .split_whitespace()
        .map(word)
        .find(|w| !LEADS.contains(w))
        .is_some_and(|w| one_of(w, &["if", "what", "whether", "suppose", "say"]));
    // "bump bulgogi to $13, it's still under 15 so we're good right?": a longer tag that
    // ends asking for a yes.
    let asks_a_yes = tag
        .last()
        .is_some_and(|w| one_of(word(w), &["right", "yeah", "ok", "okay", "correct"]));
    let short = tag.len() <= 6 || ((joined || asks_a_yes) && tag.len() <= 14);
    // "signed shirt, worth about £150?": a figure guessed, asked after, not confirmed.
    let guesses = tag.windows(2).any(|pair| {
        one_of(
            pair[0],
            &["about", "around", "roughly", "maybe", "approximately"],
        ) && pair[1]
            .trim_start_matches(['$', '£', '€', '~'])
            .starts_with(|c: char| c.is_ascii_digit())
    });
    (short && !offers && !supposes && !guesses && head.split_whitespace().count() >= 3)
        .then_some(head)
}

/// A value stated, then accepted ("the start date they proposed is March 3, fine by me",
/// "Thursday at 7 works for me", "$12 for the bulgogi tacos, keep that").
pub(super) fn accepts(lower: &str) -> bool {
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
        // "$12 for the bulgogi tacos, keep that": a value kept as it was put.
        "keep that",
        "keep it",
        "keep those",
        // "Perfecto, the five pages you say, we do that.": what was put, taken up, set
        // off ("Every year in May we do that" tells a habit).
        ", we do that",
        ", we do it",
        ", we'll do that",
    ];
    let bare = lower.trim_end_matches(|c: char| !c.is_alphanumeric());
    let tagged = ACCEPTING.iter().any(|tag| {
        bare.strip_suffix(tag).is_some_and(|head| {
            let head = head
                .trim_end()
                .trim_end_matches([',', '-', '—', '–'])
                .trim_end();
            head.split_whitespace().count() >= 3
        })
    });
    tagged || accepted_after(lower) || settled_as_the_one(lower)
}

/// Which budget pays for a part of the work ("install and freight come from the
/// construction budget", "the flights come out of my bonus"): a source of money, set.
fn funds_from(lower: &str) -> bool {
    const FROM: &[&str] = &[
        " come from ",
        " comes from ",
        " come out of ",
        " comes out of ",
    ];
    const SOURCES: &[&str] = &[
        "budget",
        "account",
        "fund",
        "funds",
        "savings",
        "pot",
        "allowance",
        "bonus",
    ];
    FROM.iter().any(|from| {
        lower.find(from).is_some_and(|at| {
            lower[..at].split_whitespace().count() >= 2
                && lower[at + from.len()..]
                    .split_whitespace()
                    .take(4)
                    .any(|w| SOURCES.contains(&word(w)))
        })
    })
}

/// A change said, then taken ("she's now on the 23rd at 11:15, which I've accepted
/// because …").
pub(super) fn accepted_after(lower: &str) -> bool {
    [
        ", which i've accepted",
        ", which we've accepted",
        ", which i accepted",
    ]
    .iter()
    .any(|tag| {
        lower
            .find(tag)
            .is_some_and(|at| lower[..at].split_whitespace().count() >= 3)
    })
}

/// A statement closed by naming it the one that stands ("they moved her to the 16th at
/// 10:40, so that's the date now", "the hall it is, that's the venue then").
pub(super) fn settled_as_the_one(lower: &str) -> bool {
    ["that's the ", "thats the ", "that is the ", "that's our "]
        .iter()
        .any(|tag| {
            lower.match_indices(tag).any(|(at, _)| {
                let head = lower[..at].trim_end();
                let head = head.strip_suffix(" so").unwrap_or(head).trim_end();
                let next: Vec<&str> = lower[at + tag.len()..].split_whitespace().take(2).collect();
                head.ends_with(',')
                    && head.split_whitespace().count() >= 3
                    && matches!(next.as_slice(), [_, when] if matches!(word(when), "now" | "then"))
            })
        })
}

/// A choice said as the user's leaning ("I'm thinking switch her to wet food only",
/// "thinking two 4x8 beds", "I'm thinking we go with the blue"): what follows is an
/// order, a first-person plan or a counted thing, not what the user thinks about ("I'm
/// thinking about Lisbon", "thinking of it, …", "I'm thinking the cache is the
/// problem").
pub(super) fn leans_to(lower: &str) -> bool {
    let said = lower
        .split_whitespace()
        .map(word)
        .skip_while(|w| LEADS.contains(w))
        .collect::<Vec<_>>()
        .join(" ");
    // "I find myself drawn to (c)": the leaning, found.
    let found = said.strip_prefix("i find myself ");
    let said = found.unwrap_or(&said);
    let subject = found.or_else(|| {
        ["i'm ", "im ", "we're ", "i am ", "we are "]
            .iter()
            .find_map(|who| said.strip_prefix(who))
    });
    // "I am inclined towards the second model", "I'm leaning toward Lisbon": a choice
    // said gently; not "inclined to agree".
    let gently = subject.and_then(|after| {
        ["leaning ", "inclined ", "drawn "]
            .iter()
            .find_map(|how| after.strip_prefix(how))
            .and_then(|after| {
                ["towards ", "toward ", "to "]
                    .iter()
                    .find_map(|to| after.strip_prefix(to))
            })
    });
    if let Some(rest) = gently {
        return !matches!(rest.split(' ').next(), Some("agree" | "think" | "say"));
    }
    // "I'm thinking two 4x8 beds"; not "we're thinking summer", which muses.
    let mine = found.or_else(|| {
        ["i'm ", "im ", "i am "]
            .iter()
            .find_map(|who| said.strip_prefix(who))
    });
    let Some(rest) = mine.unwrap_or(said).strip_prefix("thinking ") else {
        return false;
    };
    let rest: Vec<&str> = rest.split(' ').collect();
    let next = rest[0];
    let counted = next.starts_with(|c: char| c.is_ascii_digit())
        || one_of(next, &["two", "three", "four", "five", "six"]);
    let plans = one_of(next, &["we", "we'll", "i'll", "let's", "lets"]);
    let orders = rest.len() >= 3
        && !one_of(
            next,
            &[
                "about", "of", "that", "it", "maybe", "if", "whether", "the", "this", "so",
            ],
        )
        && is_imperative(&rest.join(" "));
    counted || plans || orders
}

/// Verbs of a choice said bare, without a subject ([`acts_bare`]).
pub(super) const ACTS: &[&str] = &[
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
    // "I'm accepting 5%": an offer taken.
    "accepting",
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
pub(super) fn acts_bare(lower: &str) -> bool {
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
    // "switching food to Hartley's barbecue", "revising goal to sub-3:05", "hiring
    // Bluebird Movers to do the whole thing": what it changes to, or whom it engages,
    // whatever comes between; not "raising kids to be kind".
    let changes = one_of(
        verb,
        &[
            "switching",
            "swapping",
            "moving",
            "changing",
            "bumping",
            "raising",
            "lowering",
            "revising",
            "extending",
            "switched",
            "swapped",
        ],
    ) && words.windows(2).any(|w| w[0] == "to" && w[1] != "be");
    // "using mann-whitney for the between-ward comparisons": the means, set for a part.
    let means = *verb == "using" && !one_of(next, &["it", "my", "the"]) && words.contains(&"for");
    // "booked him for next thursday at 10": engaged, for someone.
    let engages = (one_of(verb, &["hiring", "booking", "renting", "ordering"])
        && !one_of(next, &["to", "it", "is", "was", "costs"]))
        || (DONE.contains(verb) && one_of(next, &["him", "her", "them", "us", "me"]));
    // "switching to …", "bumping it to …"; not "returning to the agreement", "getting to
    // it".
    let to = *next != "to"
        || one_of(
            verb,
            &[
                "switching",
                "changing",
                "bumping",
                "upgrading",
                "downgrading",
                "sticking",
            ],
        );
    // "dropping vegas, its just phoenix and tucson": what is dropped, named bare.
    // "cancelled peloton, just using the free youtube program": dropped, said as news.
    let drops = (one_of(verb, &["dropping", "scrapping", "ditching", "cutting"])
        || CHANGED.contains(verb) && !one_of(verb, &["switched", "swapped"]))
        && !one_of(next, &["to", "by", "in", "into", "it", "off"]);
    // "ordered brass pulls from amazon": a deal names what it got.
    let deal = DONE.contains(verb)
        && next.chars().all(char::is_alphabetic)
        && !one_of(
            next,
            &["it", "that", "this", "them", "to", "in", "out", "on"],
        );
    let on = (ON.contains(next) || next.starts_with(|c: char| c.is_ascii_digit()) || drops || deal)
        && to;
    let acts = (ACTS.contains(verb) || DONE.contains(verb) || CHANGED.contains(verb)) && on
        || changes
        || engages
        || means;
    let orders = ORDER.contains(verb) && one_of(next, &["with", "on"]);
    // Not "signed up to coach my son's team": the work itself.
    let takes_on = words.windows(3).any(|w| w == ["signed", "up", "to"]);
    (acts || orders) && !takes_on && !lower.trim_end().ends_with('?')
}

/// A clause's words from its verb on, its subject dropped where it says the same as the
/// bare verb: "I'm doing the balance transfer to the 0% card" (not "I'm doing my
/// master's thesis on …", the work itself: `None`), "So I've switched to Thursday
/// afternoons", "we cancelled the caterer".
pub(super) fn without_subject<'w, 'a>(words: &'w [&'a str]) -> Option<&'w [&'a str]> {
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
pub(super) const CHANGED: &[&str] = &[
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
pub(super) const DONE: &[&str] = &[
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
pub(super) fn reports_a_deal(said: &str) -> bool {
    let lower = crate::case::lowercase(said);
    first_words(&lower)
        .first()
        .is_some_and(|w| DONE.contains(&word(w)))
}

/// The words of `text` as written, from the first that is not an opener ("So apply for C"
/// -> "apply for C").
fn past_openers(text: &str) -> Vec<&str> {
    past_opener(text).split_whitespace().collect()
}

/// A pick said by its label at the head of the sentence ("Option B for the GCSE option
/// blocks", "So apply for C, the garden-level one"): the label, then at most what it is
/// for. Not "Option B is cheaper": what is said of an option. (A pick by place, "the
/// second one", picks only after a message that listed options.)
pub(super) fn names_a_pick(text: &str) -> bool {
    const PICKS: &[&str] = &[
        "go", "apply", "take", "pick", "choose", "book", "try", "use",
    ];
    const THEN: &[&str] = &["for", "then", "please", "instead", "it", "-", "—"];
    let tokens = past_openers(text);
    let lower: Vec<String> = tokens
        .iter()
        .map(|t| crate::case::lowercase(word(t)))
        .collect();
    let at = |i: usize| lower.get(i).map_or("", String::as_str);
    let label = |i: usize| {
        tokens.get(i).is_some_and(|t| {
            let t = word(t);
            (t.len() == 1 && t.chars().all(|c| c.is_ascii_uppercase()) && t != "I" && t != "A")
                || (t.len() <= 2 && t.chars().all(|c| c.is_ascii_digit()))
        })
    };
    // Where the pick ends: the index of its last word.
    let end = if at(0) == "option" && label(1) {
        Some(1)
    } else if PICKS.contains(&at(0)) {
        let from = usize::from(one_of(at(1), &["for", "with"]));
        if at(1 + from) == "option" && label(2 + from) {
            Some(2 + from)
        } else if tokens.get(1 + from).is_some_and(|t| word(t).len() == 1) && label(1 + from) {
            Some(1 + from)
        } else {
            None
        }
    } else {
        None
    };
    end.is_some_and(|end| {
        let last = tokens[end];
        let closed = last.ends_with([',', '.', '!', ';', ':']);
        closed
            || tokens
                .get(end + 1)
                .is_none_or(|next| THEN.contains(&crate::case::lowercase(next).as_str()))
    })
}

/// Does an order place a person, named ("put Ravi at table 3", "seat Aunt May next to
/// the door", "pair Tom with Aisha")? The verb, then a capitalised name, then where or
/// with whom.
pub(super) fn places_a_person(text: &str) -> bool {
    const PLACES: &[&str] = &["put", "seat", "move", "pair", "assign", "swap", "give"];
    const WHERE: &[&str] = &[
        "at", "on", "in", "to", "with", "next", "beside", "between", "for", "onto",
    ];
    let tokens = past_openers(text);
    let [verb, rest @ ..] = tokens.as_slice() else {
        return false;
    };
    if !PLACES.contains(&crate::case::lowercase(word(verb)).as_str()) {
        return false;
    }
    // The name: one or two capitalised words, then where.
    let named = rest
        .iter()
        .take_while(|t| word(t).starts_with(|c: char| c.is_uppercase()) && word(t) != "I")
        .count();
    (1..=2).contains(&named)
        && rest
            .get(named)
            .is_some_and(|t| WHERE.contains(&crate::case::lowercase(word(t)).as_str()))
}

/// Words a sentence opens with that name no one.
const NOT_NAMES: &[&str] = &[
    "the",
    "this",
    "that",
    "it",
    "he",
    "she",
    "they",
    "we",
    "you",
    "who",
    "which",
    "what",
    "everyone",
    "everybody",
    "someone",
    "somebody",
    "nobody",
    "anyone",
    "each",
    "every",
    "our",
    "my",
    "your",
    "their",
    "his",
    "her",
    "one",
];

/// The one a sentence casts in a part and the part, lower case ("Maya is our Puck!", "So
/// Rosie's in Pomona is our diner.", "Devon gets Puck.", "Ana gets the lead."): a name of
/// a few words, then "is our" or "gets" and the part, named, to the end. Not "It is our
/// turn", "Bob is our neighbour.", "Lisa is our manager at the bank", "Maya gets tired".
pub(super) fn cast(sentence: &str) -> Option<(String, String)> {
    let tokens = past_openers(sentence.trim());
    let named = |t: &str| {
        let t = word(t);
        t.starts_with(|c: char| c.is_uppercase())
            && t != "I"
            && !NOT_NAMES.contains(&crate::case::lowercase(t).as_str())
    };
    // "is our" chooses where the part has a name, or where it is said as settled ("So …",
    // "… is our Puck!"); "Bob is our neighbour." says who he is.
    let settled = sentence.trim_end().ends_with('!')
        || sentence.split_whitespace().next().is_some_and(|first| {
            one_of(
                crate::case::lowercase(word(first)).as_str(),
                &["so", "ok", "okay", "right", "fine"],
            )
        });
    let (who, part) = if let Some(at) = tokens.windows(2).position(|w| w == ["is", "our"])
        && (settled || tokens.get(at + 2).is_some_and(|t| named(t)))
    {
        (&tokens[..at], &tokens[at + 2..])
    } else if tokens.get(1) == Some(&"gets")
        && tokens.get(2).is_some_and(|t| named(t) || *t == "the")
    {
        (&tokens[..1], &tokens[2..])
    } else {
        return None;
    };
    let said = |words: &[&str]| {
        let words: Vec<&str> = words.iter().map(|w| word(w)).collect();
        crate::case::lowercase(&words.join(" "))
    };
    (who.first().is_some_and(|w| named(w))
        && (1..=4).contains(&who.len())
        && (1..=3).contains(&part.len())
        && part.last().is_some_and(|w| w.ends_with(['.', '!'])))
    .then(|| (said(who), said(part)))
}

/// Does a sentence give a part of the work to a person, named ("Sana handles the
/// inspection data", "Dev owns the release notes", "Priya will take care of the venue")?
/// One or two capitalised words that are not a word any sentence opens with, then the
/// verb that hands the part over, then the part. Not what a tool does well ("Postgres
/// handles the load fine").
pub(super) fn gives_a_part_to(text: &str) -> bool {
    const TAKES: &[&[&str]] = &[
        &["handles"],
        &["owns"],
        &["leads"],
        &["will", "handle"],
        &["will", "own"],
        &["will", "lead"],
        &["takes", "care", "of"],
        &["will", "take", "care", "of"],
        &["is", "in", "charge", "of"],
        &["is", "responsible", "for"],
    ];
    const HOW_WELL: &[&str] = &[
        "fine",
        "well",
        "automatically",
        "easily",
        "better",
        "badly",
        "poorly",
        "already",
    ];
    let first_clause = text.split([',', ';']).next().unwrap_or(text);
    let tokens = past_openers(first_clause);
    let named = tokens
        .iter()
        .take_while(|t| word(t).starts_with(|c: char| c.is_uppercase()) && word(t) != "I")
        .count();
    let Some(first) = tokens.first() else {
        return false;
    };
    if !(1..=2).contains(&named)
        || NOT_NAMES.contains(&crate::case::lowercase(word(first)).as_str())
    {
        return false;
    }
    let rest: Vec<String> = tokens[named..]
        .iter()
        .map(|t| crate::case::lowercase(word(t)))
        .collect();
    // Not what someone has ("Crestline owns 22 homes in the state").
    TAKES.iter().any(|verb| {
        rest.len() > verb.len()
            && rest.iter().zip(verb.iter()).all(|(w, v)| w == v)
            && !is_number(&rest[verb.len()])
            && !rest.iter().any(|w| HOW_WELL.contains(&w.as_str()))
    })
}

/// Does a sentence say what is taken for a thing it names first ("And for Kaltmiete we
/// take simply 'basic rent'", "for the logo I take the blue one")? Not a habit ("for
/// lunch we take turns", "for the pain I take ibuprofen"): what is taken is named.
pub(super) fn takes_for_a_thing(lower: &str) -> bool {
    let Some((before, taken)) = [" we take ", " i take "]
        .iter()
        .find_map(|verb| lower.split_once(verb))
    else {
        return false;
    };
    let taken = bare_words(taken.split([',', ';']).next().unwrap_or(taken));
    let thing = before
        .rsplit_once("for ")
        .map(|(_, thing)| bare_words(thing));
    thing.is_some_and(|thing| (1..=4).contains(&thing.len()))
        && !taken.is_empty()
        && !one_of(taken[0], &["turns", "care", "it", "a", "some", "ibuprofen"])
        && taken.len() <= 8
}

/// Does a sentence announce the choice it states after a colon ("So we've changed it: £10
/// full price and under 16s free", "so change it: disable after 5 days", "you can take it
/// as fixed: two supervised sessions a week", "So: a three-year project starting 1 October
/// 2025")? What follows is settled, whatever its form: a plan said by its parts, not an
/// order.
pub(super) fn announces_a_choice(sentence: &str) -> bool {
    const SETTLED: &[&str] = &[
        "changed it",
        "changed that",
        "changed this",
        "change it",
        "change that",
        "change this",
        "as fixed",
        "as final",
        "as settled",
        "as given",
        "we've settled",
        "we settled",
        "we've agreed",
        "we agreed",
        "we've decided",
        "we decided",
        "i've decided",
        "final answer",
        "the verdict",
    ];
    let Some((label, rest)) = sentence.split_once(": ") else {
        return false;
    };
    let label = crate::case::lowercase(label);
    let rest = crate::case::lowercase(rest);
    let said: Vec<&str> = rest.split_whitespace().map(word).collect();
    if rest.trim_end().ends_with('?') || said.len() < 3 {
        return false;
    }
    // "So: a three-year project …": a conclusion, named; not "So: we need to talk".
    let concludes = one_of(label.trim(), &["so", "ok so", "okay so", "right so"])
        && (one_of(said[0], &["a", "an", "the"]) || is_number(said[0]));
    // "Fine: 40 percent pre-bookable …", "Decision: the east hall": what follows, accepted.
    let accepted = one_of(
        label.trim(),
        &[
            "fine",
            "ok fine",
            "okay fine",
            "agreed",
            "decided",
            "decision",
            "settled",
        ],
    );
    // "we agreed on the call: no alcohol at any official event": a rule, agreed.
    (concludes || accepted || says_any(&label, SETTLED)) && kind_of(&rest) != Some(Kind::Rule)
}

/// A choice that ends on what it replaces, said as a name ("snowball instead, I need the
/// quick wins", "the RAV4 hybrid from the private seller instead", "OK, the Crane at 5
/// coins instead"): a few words, not a thing described ("it's cheaper instead"), not what
/// someone did ("I took the train instead").
pub(super) fn ends_instead(lower: &str) -> bool {
    const NOT_NAMES: &[&str] = &[
        "it", "it's", "that", "that's", "there", "this", "which", "what", "how", "why", "if",
        "when", "or", "maybe", "you", "they", "he", "she", "i", "we",
    ];
    // "OK, the Crane at 5 coins instead": the first clause past an opener.
    let first = first_clause(lower);
    let first = first.trim().trim_end_matches(['.', '!']).trim_end();
    let Some(named) = first.strip_suffix(" instead") else {
        return false;
    };
    let words: Vec<&str> = first_words(named).into_iter().map(word).collect();
    (1..=10).contains(&words.len()) && !words.first().is_some_and(|w| NOT_NAMES.contains(w))
}

/// Does it say the user is doing a thing, for sure ("Ok I'm definitely taking first
/// speaker")? `words`: the sentence's first words, bare.
fn does_for_sure(words: &[&str]) -> bool {
    words.windows(3).any(|w| {
        one_of(w[0], &["i'm", "im", "we're"])
            && w[1] == "definitely"
            && w[2].len() > 5
            && w[2].ends_with("ing")
    })
}

/// A verb a user says they will do, with the word after it, that makes a choice ("i'm
/// gonna do the homestay", "we'll set up an Etsy shop", "I'm going to stay in Word", "we'll
/// stick with the old vendor").
const DONE_WITH: &[(&str, &str)] = &[
    ("do", "the"),
    ("set", "up"),
    ("stay", "with"),
    ("stay", "in"),
    ("stay", "on"),
    ("stick", "with"),
];

/// Does the "gonna" at `at` say what the speaker will do: early in the sentence ("im gonna
/// make my own starter", "gonna use pimsleur") or after "we're" or "i'm" ("… so we're just
/// gonna use google calendar", "were" written without its mark opening a part)?
fn says_gonna(words: &[&str], at: usize) -> bool {
    at <= 2
        || words[..at]
            .iter()
            .rev()
            .take(2)
            .any(|w| one_of(w, &["we're", "i'm", "im"]) || (*w == "were" && words[0] == "were"))
}

/// Does the user commit to get, book or submit something ("I'll get the X-T30 II", "we'll
/// submit the first paper to …")?
pub(super) fn commits(lower: &str) -> bool {
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
        // "I shall dispense with protein powder altogether".
        ("dispense", ""),
    ];
    let words: Vec<&str> = first_words(lower).into_iter().map(word).collect();
    // "I would like to aim for roughly 12,000 words", "we want to start in March": a
    // choice wished for, with a verb that makes one.
    let wished = words.windows(5).any(|w| match w {
        ["i" | "we", "want", "to", verb, _]
        | ["i'd" | "we'd", "like", "to", verb, _]
        | ["i" | "we", "would", "like", "to", verb] => VERBS.iter().any(|(v, _)| v == verb),
        _ => false,
    });
    if (wished && !hedges(lower)) || does_for_sure(&words) {
        return true;
    }
    // The verb after "I'll", "we'll", "I will", "we shall", "I'm going to", and the word
    // after it.
    for at in 0..words.len() {
        let going_to = words.get(at + 1) == Some(&"going") && words.get(at + 2) == Some(&"to");
        let verb = match words[at] {
            "i'll" | "we'll" => at + 1,
            "i" | "we" if matches!(words.get(at + 1), Some(&("will" | "shall"))) => at + 2,
            "i'm" | "im" | "we're" if going_to => at + 3,
            "gonna" if says_gonna(&words, at) => at + 1,
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
                one_of(
                    w,
                    &["just", "also", "definitely", "then", "now", "actually"],
                )
            }));
        let next = words.get(verb + 1).copied().unwrap_or("");
        if words.get(verb).is_some_and(|w| does_a_thing(w, next)) && !hedges(lower) {
            return true;
        }
        if done_on_a_schedule(&words, verb) {
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
            Some(verb) if DONE_WITH.contains(&(verb, next)) => return true,
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

/// Does the verb at `verb` say a thing done on a schedule ("gonna measure height every 2
/// days")? A verb of doing, then how often.
fn done_on_a_schedule(words: &[&str], verb: usize) -> bool {
    let scheduled = words.iter().skip(verb + 1).any(|w| {
        one_of(
            w,
            &["every", "daily", "weekly", "nightly", "hourly", "monthly"],
        )
    });
    scheduled
        && words
            .get(verb)
            .is_some_and(|w| w.len() > 2 && !NOT_DOING_A_THING.contains(w))
}

/// Verbs that do nothing to the work in "I'll …": a word to someone, a look, a thought.
pub(super) const NOT_DOING_A_THING: &[&str] = &[
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
pub(super) fn does_a_thing(verb: &str, next: &str) -> bool {
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

/// Is it an order that changes a part of the work to another choice ("switch prep day to
/// Wednesday evening", "change the font to Georgia", "move the party to Saturday", "ok
/// back to a pass")?
pub(super) fn changes_to(lower: &str) -> bool {
    let words = first_words(lower);
    let back = goes_back_to(lower);
    // "We have changed to the emerald green gown instead", "we moved the crate out to the
    // living room at night": the change, said done; not "we moved to Denver in 2019".
    // "So it's moving to Friday 16 May": the change, as it came.
    let moving = matches!(
        words.as_slice(),
        ["it's" | "it", "moving" | "moved", "to", ..] | ["it", "is", "moving", "to", ..]
    );
    let done = match words.as_slice() {
        ["we" | "i", "have" | "just", rest @ ..] | ["we've" | "i've" | "we" | "i", rest @ ..] => {
            matches!(rest, ["changed" | "switched", "to", ..])
                || matches!(rest, ["moved", "the" | "our" | "my" | "it" | "them", ..])
                    && rest.iter().take(6).any(|w| *w == "to")
        }
        _ => false,
    };
    back || done
        || moving
        || moves_to_a_value(lower).is_some()
        || ordered_change(&words)
        || shifts_by_a_span(&words)
}

/// Does an order start by changing a thing to another value ("bump the target up to 90",
/// "Let's pare the list to sixty", "dropping the starting hand to 4")? Said with "-ing",
/// only with the thing named ("moving on to the budget" changes nothing).
fn ordered_change(words: &[&str]) -> bool {
    let Some((verb, rest)) = past_lets(words).split_first() else {
        return false;
    };
    let to = rest.iter().take(5).position(|w| *w == "to");
    changes(verb) && to.is_some_and(|to| !verb.ends_with("ing") || (to > 0 && rest[0] != "on"))
}

/// Does a sentence (lower case) set when and where the work gathers or starts ("Meet at
/// Pittville Park gates at half eight.", "Let's start on Monday.", "let's start in
/// Seattle")? The verb first, said as an order; then a date, a time, a day or a place by
/// its name. Not a habit ("we meet on Tuesdays usually"), not a question.
pub(super) fn gathers_at(lower: &str, text: &str) -> bool {
    let words = bare_words(first_clause(past_opener(lower)));
    let order = past_lets(&words);
    let named_place = || {
        past_openers(text)
            .windows(2)
            .any(|w| one_of(w[0], &["in", "at"]) && w[1].starts_with(|c: char| c.is_uppercase()))
    };
    matches!(
        order.first(),
        Some(&("meet" | "start" | "gather" | "leave" | "depart" | "kick"))
    ) && order.len() <= 9
        && !lower.trim_end().ends_with('?')
        && (sets_a_date_or_time(lower) || names_a_day(order) || named_place())
}

/// Does a sentence (lower case) say in the passive what was decided ("The meeting start time
/// has been set at 6:30 p.m.", "it has been concluded that the item is to be moved to New
/// Business", "the budget amendment has been determined to be placed on the consent
/// agenda")? "has been" or "have been", then a verb of deciding or setting; not a
/// question, not "has been cancelled", not "I have been set back".
pub(super) fn decided_in_passive(lower: &str) -> bool {
    const DECIDED: &[&str] = &[
        "set",
        "scheduled",
        "decided",
        "determined",
        "concluded",
        "agreed",
        "approved",
        "resolved",
        "fixed",
        "booked",
        "confirmed",
        "chosen",
        "selected",
        "finalised",
        "finalized",
        "locked",
    ];
    !lower.trim_end().ends_with('?')
        && clauses(lower).any(|clause| {
            bare_words(clause).windows(4).any(|w| {
                one_of(w[0], &["has", "have"])
                    && w[1] == "been"
                    && DECIDED.contains(&w[2])
                    // "has been set at 6:30", not "I have been set back".
                    && (w[2] != "set" || one_of(w[3], &["at", "for", "to", "on", "as"]))
            })
        })
}

/// Does a sentence (lower case) scale what was set ("Halve it, mate.", "ngl double it",
/// "Halve the hiring plan.", "so cut that in half", "bump that up three bucks")? The verb
/// on a thing named or pointed at; not "double-check the totals", "double down", "cut
/// corners". The words that name the thing (none where it points: "that", "it").
pub(super) fn scales(lower: &str) -> Option<Vec<&str>> {
    const POINTING: &[&str] = &["it", "that", "this", "them", "those"];
    let words = bare_words(lower);
    let on_a_thing = |w: &str| POINTING.contains(&w) || one_of(w, &["the", "our", "my"]);
    let at = words
        .windows(2)
        .position(|pair| one_of(pair[0], &["halve", "double", "triple"]) && on_a_thing(pair[1]))
        .or_else(|| {
            words.windows(4).position(|w| {
                w[0] == "cut" && on_a_thing(w[1]) && one_of(w[2], &["in", "by"]) && w[3] == "half"
            })
        })
        // "so bump that up three bucks", "raise the fee up a tenner"; not "bump it up to
        // 12", which sets the value.
        .or_else(|| {
            words.iter().enumerate().position(|(at, w)| {
                let by = |up: usize| {
                    words.get(up).is_some_and(|w| one_of(w, &["up", "down"]))
                        && words.get(up + 1).is_some_and(|next| *next != "to")
                };
                one_of(w, &["bump", "raise", "knock"])
                    && words.get(at + 1).is_some_and(|thing| {
                        on_a_thing(thing)
                            && (by(at + 2) || (!POINTING.contains(thing) && by(at + 3)))
                    })
            })
        })?;
    let named = if POINTING.contains(&words[at + 1]) {
        &[][..]
    } else {
        &words[at + 2..(at + 4).min(words.len())]
    };
    Some(named.to_vec())
}

/// Does an order move a thing by a span of time ("Slide it a week later.", "Bring the
/// pressing forward a week.", "push it back two days")?
pub(super) fn shifts_by_a_span(words: &[&str]) -> bool {
    let Some((verb, rest)) = past_lets(words).split_first() else {
        return false;
    };
    let rest = &rest[..rest.len().min(6)];
    (changes(word(verb)) || *verb == "bring")
        && rest
            .iter()
            .any(|w| one_of(word(w), &["back", "forward", "later", "earlier"]))
        && rest.windows(2).any(|pair| {
            (pair[0] == "a" || is_number(pair[0])) && span_of_time(word(pair[1])).is_some()
        })
}

/// Does a short sentence without a verb set when a thing happens ("ok first sesh on the
/// 9th", "Bid close on the 18th.", "judging sunday 2pm", "Going Oct 10–20.")? A line of a
/// schedule, said as a plan; not news of a person ("back on Monday"), what happened, or a
/// question.
pub(super) fn schedules(sentence: &str) -> bool {
    const NOT_PLANS: &[&str] = &[
        "i", "i'm", "we", "we're", "you", "he", "she", "they", "it", "it's", "that", "this",
        "there", "if", "happy", "thanks", "thank", "hope", "off", "says", "sorry", "back", "see",
        "since", "until", "last", "my", "her", "his", "their",
    ];
    // What was or is, not what is planned: "Wedding went great on Saturday."
    const STATES: &[&str] = &[
        "was", "were", "is", "are", "had", "did", "has", "have", "went", "got", "came", "said",
        "told", "made", "took", "saw", "left", "felt", "found", "gave", "kept", "ran", "sent",
        "heard", "thought", "spoke", "wrote", "bought", "won", "lost", "met", "paid", "sold",
    ];
    // A label that says only that a date follows ("Date — Sat 15th March, already cleared
    // it with the owners", "Date: Saturday 15 March").
    const WHEN: &[&str] = &["date", "day", "when", "deadline"];
    let lower = crate::case::lowercase(sentence.trim());
    let when = lower
        .split_once([':', '—'])
        .filter(|(label, _)| one_of(label.trim(), WHEN));
    let lower = when.map_or(lower.clone(), |(label, rest)| format!("{label}: {rest}"));
    // The first clause ("Zero effort in the morning, which she NEEDS before a 7am shift"
    // sets no time), whole past a label ("Target close: Jan 17.", "Handover at 07:30").
    let head = lower.split([',', ';', '—']).next().unwrap_or(&lower);
    let head = head.split(" - ").next().unwrap_or(head);
    let said = bare_words(head);
    let label = head.split(": ").next().unwrap_or(head);
    let words = bare_words(past_opener(label));
    // "SCBA confidence course, Sat wk 3, 0800-1200": the thing, then its day, named or
    // cut short.
    let day_after = || {
        // Not a list of options ("options rn: thurs night market, sat farmers mkt").
        let then = lower.split(',').nth(1).map(bare_words).unwrap_or_default();
        !head.contains(':')
            && then
                .first()
                .is_some_and(|day| names_a_day(&[day]) || SHORT_DAYS.contains(day))
    };
    let dated = sets_a_date_or_time(head)
        || (names_a_day(&said) && !said.iter().any(|w| one_of(w, &["tomorrow", "tonight"])))
        || day_after();
    // "if it goes sideways at 04:30 what's the fastest path back": asked, unmarked.
    let asks = bare_words(&lower).iter().any(|w| {
        one_of(
            w,
            &[
                "what", "what's", "whats", "how", "why", "which", "who", "where",
            ],
        )
    });
    // "Loading is half past six Tuesday morning.", "Handover is at 7:30", "Performances
    // are the first weekend of May": a thing set for a time, said with "is" or "are" after
    // a subject of a few words; not what a day is ("Today is
    // Monday.") nor how a thing is then ("The weather is awful on Tuesday").
    let copula =
        (head.split_once(" is ").or_else(|| head.split_once(" are "))).and_then(|(thing, set)| {
            let thing = bare_words(past_opener(thing));
            let set = bare_words(set);
            let when = set.first().is_some_and(|w| {
                one_of(
                    w,
                    &[
                        "at", "on", "from", "due", "the", "this", "next", "half", "quarter",
                    ],
                ) || is_number(w)
                    || MONTHS.contains(w)
                    || names_a_day(&set[..1])
            });
            ((1..=3).contains(&thing.len())
                && when
                && !names_a_day(&thing)
                && !thing
                    .iter()
                    .any(|w| one_of(w, &["today", "tomorrow", "tonight"])))
            .then_some(thing.len())
        });
    // "… are the first weekend of May": a month said after "of" or "in" dates a thing set.
    let in_a_month = copula.is_some()
        && said
            .windows(2)
            .any(|pair| one_of(pair[0], &["of", "in"]) && MONTHS.contains(&pair[1]));
    (dated || in_a_month)
        && !asks
        && !lower.ends_with('?')
        && ((2..=7).contains(&words.len()) || when.is_some())
        && words
            .first()
            .is_some_and(|w| !NOT_PLANS.contains(w) && !is_number(w))
        && !said.iter().enumerate().any(|(at, w)| {
            (w.ends_with("ed") || STATES.contains(w))
                && (Some(at) != copula || !one_of(w, &["is", "are"]))
        })
}

/// Does an order go back to an earlier option ("ok back to a pass, the 5 days within 1 month
/// one")? Not to a subject of the talk ("back to the question about the tiles").
pub(super) fn goes_back_to(lower: &str) -> bool {
    matches!(first_words(lower).as_slice(), ["back", "to", "a" | "an" | "the" | "our", next, ..]
        if !["question", "topic", "point", "subject", "issue"].contains(&word(next)))
}

/// The thing a sentence says moves to a date, a time or a number ("the briefing moves to
/// 7:45 at the start line", "Release moves to Thursday the 23rd", "First reminder moves
/// to 6 wks pre-due", "So we move to the 5 and 6 November"): the words before the verb.
/// Not a move to a place ("my sister moves to Leeds").
fn moves_to_a_value(lower: &str) -> Option<&str> {
    const MOVES: &[&str] = &[
        " moves to ",
        " move to ",
        " moved to ",
        " is moving to ",
        " shifts to ",
        " slides to ",
        " gets pushed to ",
        " is pushed to ",
    ];
    let clause = first_clause(past_opener(lower));
    MOVES.iter().find_map(|verb| {
        let (thing, rest) = clause.split_once(verb)?;
        let after = bare_words(rest);
        // "The pilot moves to April": a month alone, said first; "Loading moves to a
        // quarter to five": a time in words.
        let value = match after.as_slice() {
            ["the", first, ..] | [first, ..] => {
                first.starts_with(|c: char| c.is_ascii_digit())
                    || MONTHS.contains(first)
                    || names_a_day(&after[..after.len().min(3)])
            }
            [] => false,
        } || time_in_words(after.strip_prefix(&["a"]).unwrap_or(&after)).is_some();
        (value && thing.split_whitespace().count() <= 4).then_some(thing)
    })
}

/// What a statement sets to a new value, when it says so ("moving the race to May 4",
/// "I'm raising beanies to $28", "we're bumping the 8 oz jars to $10", "push the first
/// drill to the 19th"): the words of substance of the thing, between the verb and "to";
/// or before "is" in a part settled anew ("config file is INI via configparser then").
/// None when it names nothing ("bump him to $7") or moves itself ("we're moving to
/// Denver").
pub(super) fn changed_thing(said: &str) -> Option<Vec<String>> {
    let lower = crate::case::lowercase(said);
    sentences(&lower).into_iter().find_map(|sentence| {
        thing_set_anew(sentence).or_else(|| thing_set_anew(last_clause(sentence)?))
    })
}

/// What one sentence sets to a new value ([`changed_thing`]).
fn thing_set_anew(sentence: &str) -> Option<Vec<String>> {
    let said: Vec<&str> = picked_then(sentence).split_whitespace().collect();
    if let Some(part) = part_then(&said) {
        return Some(subject_words(&part.join(" ")));
    }
    // "The flyer should now say 45 to 80": the document whose words are set anew.
    if let Some((thing, _)) = DOCUMENT_READS
        .iter()
        .filter(|mark| mark.contains(" now "))
        .find_map(|mark| sentence.split_once(mark))
    {
        let thing = subject_words(thing);
        return (!thing.is_empty()).then_some(thing);
    }
    // "the briefing moves to 7:45": the thing that moves.
    if let Some(thing) = moves_to_a_value(sentence) {
        let thing = subject_words(thing);
        return (!thing.is_empty()).then_some(thing);
    }
    let words = first_words(sentence);
    let rest = match words.as_slice() {
        // "we are raising the stipend to $75 per month".
        ["i", "am", rest @ ..] | ["we", "are", rest @ ..] => rest,
        ["i'm" | "we're" | "i'll" | "we'll" | "i" | "we", rest @ ..] => rest,
        rest => past_lets(rest),
    };
    let (verb, rest) = rest.split_first()?;
    let to = rest.iter().take(6).position(|w| *w == "to")?;
    let thing = subject_words(&rest[..to].join(" "));
    (changes(word(verb)) && !thing.is_empty()).then_some(thing)
}

/// Is `verb` one of the [`CHANGE_VERBS`], or its "-ing" ("raising", "dropping")?
pub(super) fn changes(verb: &str) -> bool {
    let gerund = verb.strip_suffix("ing");
    CHANGE_VERBS.iter().any(|v| {
        *v == verb
            || gerund.is_some_and(|g| {
                g == *v
                    || Some(g) == v.strip_suffix('e')
                    || g.strip_suffix(&v[v.len() - 1..]) == Some(v)
            })
    })
}

/// The order that sets a thing to a number alone, nothing counted after it ("Let's bump
/// the target up to 90", "Let us pare the list to sixty", "dropping the starting hand to 4
/// – five was …"): the number.
pub(super) fn number_set_alone(lower: &str) -> Option<u32> {
    sentences(lower).into_iter().find_map(|sentence| {
        let words: Vec<&str> = past_opener(sentence).split_whitespace().collect();
        let (verb, rest) = past_lets(&words).split_first()?;
        let to = rest.iter().take(6).position(|w| *w == "to")?;
        let value = rest.get(to + 1..to + 3).unwrap_or(&rest[to + 1..]);
        (changes(word(verb)) && values_of(&value.join(" ")).is_empty())
            .then(|| said_number(word(value.first()?)))
            .flatten()
    })
}

/// Verbs that set a part of the work to another value ([`changed_thing`]).
pub(super) const CHANGE_VERBS: &[&str] = &[
    "switch",
    "change",
    "move",
    "raise",
    "lower",
    "bump",
    "push",
    "shift",
    "reduce",
    "increase",
    "cut",
    "reschedule",
    "flip",
    "amend",
    "revise",
    "adjust",
    "drop",
    "extend",
    "stretch",
    "shorten",
    "reset",
    "slide",
    "pare",
    "trim",
    "narrow",
    "expand",
];

/// Does an order (its first words) give a part of the work to someone or a role ("fine,
/// give it to priya then", not "give it to me straight"; "hold out Jan to Jun 2024 as the
/// test period")?
fn assigns(words: &[&str]) -> bool {
    let hands_over = matches!(
        words,
        ["give" | "hand" | "offer" | "award", "it" | "them", "to", who, ..]
            if !matches!(word(who), "me" | "us" | "you" | "him" | "her" | "them")
    );
    let given_a_role = matches!(words.first(), Some(&("hold" | "designate" | "treat")))
        && words
            .windows(2)
            .any(|w| w[0] == "as" && one_of(w[1], &["the", "our"]));
    hands_over || given_a_role
}

/// Is it an order that picks ("Drop Python 3.8 support in the next release", "use the
/// title 'The Quiet Founder'", "raising beanies to $28")?
pub(super) fn orders_a_pick(lower: &str) -> bool {
    let words = first_words(lower);
    assigns(&words)
        || changes_to(lower)
        || thing_set_anew(lower).is_some()
        || matches!(
            words.as_slice(),
            ["drop" | "pick" | "choose", ..]
            // "outsource the newspapers to a vendor": who does a part, set.
            | ["outsource" | "insource", _, ..]
            // "ship 4.2 on Thursday": a release, set.
            | ["ship" | "launch" | "release", _, "on" | "in" | "by", ..]
            // "ok put the router in the basement next to the modem": a thing, placed.
            | ["put" | "place" | "mount" | "hang", "the" | "our" | "my" | "it" | "them" | "a" | "an", _, ..]
            // "Start from whisper-large-v3-turbo and fine-tune the full model".
            | ["start", "from", _, ..]
            // "skip the pass and book point-to-point tickets", "ok counter at $97k then".
            | ["skip", "the", _, ..]
            // "ok so skip zucchini entirely": a thing left out for good.
            | ["skip" | "cut", _, "entirely" | "altogether" | "completely", ..]
            | ["counter", "at" | "with", _, ..]
            // "price the 8oz tins at $18".
            | ["price", "the" | "our" | "my" | "each" | "them" | "it", ..]
            // "cut the recipe importer", "book the lakeside lodge", "scrap the butcher
            // block", "file the records request this week": a part of the work, engaged,
            // dropped or set going.
            | ["cut" | "book" | "scrap" | "ditch" | "hire" | "cancel" | "file" | "submit"
               | "sign",
               "the" | "our" | "my" | "both" | "all" | "that" | "this", _, ..]
            // "treat the likert items as ordinal", "base the average on the last 90 days":
            // how a thing is read, set.
            | ["treat" | "base" | "count" | "sort" | "group",
               "the" | "our" | "my" | "each" | "all" | "them" | "it", ..]
            // "put him on a 60-day PIP".
            | ["put", "him" | "her", "on" | "in", ..]
            // "Sign us up for the Riverside Cup."
            | ["sign", "us" | "me" | "them", "up", "for", ..]
            // "Address it to Ms. Okafor", "set it in the kitchen": an addressee, a setting.
            | ["address", "it" | "them", "to", ..]
            | ["set", "it" | "them", "in" | "at" | "on", ..]
            // "Leave salary out entirely.", "include one line for Sam's dad": a part of the
            // work kept out, put in.
            | ["leave", _, "out", ..]
            | ["include", "one" | "a" | "an" | "two" | "both", _, ..]
            // "open with Small Things Like These instead": what goes first or last, set.
            | ["open" | "close" | "end", "with", _, ..]
            // "do it stepwise: 4.0, then 4.1", "do it in two deploys": how, set.
            | ["do", "it" | "this" | "that", "in" | "with" | "by" | "via" | "through"
               | "stepwise" | "incrementally" | "manually" | "gradually", ..]
        )
        // "bump it to SEV1", "push it to the 19th", "Take it to 14 days.": what the talk
        // is on, set anew.
        || matches!(words.as_slice(), [verb, "it" | "that" | "this" | "them", "to", next, ..]
            if changes(verb) || (*verb == "take" && is_number(next)))
        || shifts_by_a_span(&words)
        // "Run at 01:30 UTC.", "start at 9am": when it happens, set.
        || (matches!(words.as_slice(), [_, "at", ..])
            && lower.split_once(" at ").is_some_and(|(_, time)| is_a_time(time)))
        // "Store every timestamp in UTC" is a rule of the work.
        || (orders_the_work(&words)
            && !matches!(words.get(1).map(|w| word(w)), Some("every" | "each"))
            && !says_any(lower, &["always", "never", "no exceptions"]))
        || match words.as_slice() {
            // "ok use email plus postcode": the means, set; not "use it wisely", "use your
            // judgement", "used to".
            ["use", next, ..] => !one_of(word(next), &["it", "to", "your", "this", "that"]),
            // "Call them Nell and Ruth.", "Title it Thirty-Five Miles an Hour.": a name
            // given; not "call him tomorrow".
            ["call" | "title" | "name", "it" | "them" | "him" | "her", next, ..] => !one_of(word(next), &["tomorrow", "today", "tonight", "back", "later", "now", "and", "to", "about", "first", "again", "up", "out", "when", "if", "at", "on"]),
            // "Take the villa near Trogir"; not "take the time to …".
            ["take", "the", next, ..] => !one_of(word(next), &["time", "chance", "opportunity", "lead", "hint", "risk", "rest", "day"]),
            // "make the hake 170 g", "make the session timeout 15 minutes": a value, set.
            ["make", "the" | "our" | "my", rest @ ..] => rest.iter().any(|w| is_number(w)),
            // "Ok, make it 2 Orpingtons and 2 Easter Eggers", "Make it nine episodes", "so
            // make it the Friday slot": a number or a thing, set; not "make it shorter",
            // "make it work".
            // "Make it Silver 300, Gold 550, Platinum 750": values set for named options.
            ["make", "it", next, after, ..] if is_number(after) && !is_number(next) => true,
            ["make", "it", next, ..] => {
                is_number(next)
                    || one_of(word(next), &["the", "a", "an", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"])
            }
            // "Plan it across 12 spreads", "spread it over 3 days": a count the work is
            // laid over.
            [_, "it" | "them", "across" | "over" | "into", count, unit, ..] => {
                is_number(count) && word(unit).len() > 2 && word(unit).ends_with('s')
            }
            // "return 429 with a Retry-After header": what an interface answers.
            ["return", next, "with" | "and" | "for" | "on", ..] => {
                next.starts_with(|c: char| c.is_ascii_digit())
            }
            _ => false,
        }
}

/// What is done to a system, never what an assistant writes ([`orders_the_work`]).
pub(super) const WORK_VERBS: &[&str] = &[
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
pub(super) const WORK_OBJECTS: &[&str] = &[
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
pub(super) fn orders_the_work(words: &[&str]) -> bool {
    let [verb, next, _, ..] = words else {
        return false;
    };
    let (verb, next) = (word(verb), word(next));
    let things = next.len() > 3
        && next.ends_with('s')
        && !next.ends_with("ss")
        && !SUBJECT_VERBS.contains(&next)
        && !one_of(
            next,
            &[
                "takes", "looks", "does", "goes", "needs", "runs", "gets", "this", "his", "hers",
                "ours", "yours", "theirs", "thus", "plus", "always",
            ],
        );
    let measured = next.starts_with(|c: char| c.is_ascii_digit())
        && next.contains(|c: char| c.is_alphabetic());
    WORK_VERBS.contains(&verb)
        && (WORK_OBJECTS.contains(&next) || things || measured)
        && !(verb == "generate" && one_of(next, &["a", "an", "the"]))
}

/// Does it tell what was chosen before, or by someone else ("Last time we tried something
/// similar, someone decided to trust the header blindly.")? A story, not the user's
/// choice — unless it also says what now ("Last time we used Redis; this time let's go
/// with Memcached").
pub(super) fn reports_the_past(lower: &str) -> bool {
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

/// Does it propose what the work will do (`let's return errors as JSON`, `we'll hardcode
/// the keys`, `we should cache it`), not a look around (`let's see`, `we'll need to check`) nor
/// a word on the pace (`let's not overthink it`)?
pub(super) fn proposes(lower: &str) -> bool {
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
        .position(|w| one_of(bare(w).as_str(), &["let's", "lets", "we'll"]))
        .map(|at| at + 1)
        .or_else(|| {
            words
                .windows(2)
                .position(|w| {
                    bare(w[0]) == "we" && one_of(bare(w[1]).as_str(), &["will", "should", "shall"])
                })
                .map(|at| at + 2)
        });
    // "let's have Dev take the Tuesday runs": the work given to someone; "let's have a
    // look" is a look; "we'll have it at the Lakeside pavilion": where it is held.
    let causes = |at: usize| {
        verb_after(at).as_deref() == Some("have")
            && verb_after(at + 1).is_some_and(|next| {
                !next.is_empty()
                    && (!one_of(
                        next.as_str(),
                        &[
                            "a", "an", "some", "another", "more", "one", "it", "that", "this",
                        ],
                    ) || (next == "it"
                        && matches!(verb_after(at + 2).as_deref(), Some("at" | "in" | "on"))))
            })
    };
    match at {
        Some(at) if causes(at) => true,
        _ => match at.and_then(verb_after) {
            Some(verb) => !LOOKS.contains(&verb.as_str()) && !verb.is_empty(),
            None => false,
        },
    }
}

/// Does it tell the assistant or the team how the work must go (`you must`, `we should
/// never`, `I want you to`, `X must be`)?
pub(super) fn addresses_the_work(lower: &str) -> bool {
    says_any(lower, SUBJECT_MODALS) || says_any(lower, BINDING) || prefers_against(lower)
}

/// Words before "it is" that name no choice: a hedge or an answer ("Maybe it is.", "yes it
/// is").
const NOT_NAMED: &[&str] = &[
    "maybe", "perhaps", "probably", "possibly", "yes", "yeah", "yep", "no", "nope", "well", "sure",
];

/// Does a sentence end by choosing: "The Lumiares Hotel it is.", "Fine, the train then."?
pub(super) fn ends_choosing(lower: &str) -> bool {
    // "Korean tacos it is 🌮": the pictures after it say nothing more.
    let trimmed = lower
        .trim_end_matches(|c: char| is_pictograph(c) || c.is_whitespace())
        .trim_end_matches(['.', '!'])
        .trim_end();
    let end = trimmed
        .strip_suffix(" after all")
        .or_else(|| trimmed.strip_suffix(" now"))
        .unwrap_or(trimmed);
    // "Ardour it is for the recording software", "Ardour it is, then": the choice first.
    // "URL path it is: /v2/... for changed endpoints", "whole class it is i guess": the
    // pick ends its first clause, what follows tells more.
    let first = lower
        .split([':', ',', ';', '—'])
        .next()
        .unwrap_or("")
        .trim_end_matches(['.', '!'])
        .trim_end();
    // Not "Maybe it is.", "yes it is": a hedge or an answer, not a thing named.
    let picks = |phrase: &str| {
        phrase.ends_with(" it is")
            && !phrase
                .split_whitespace()
                .rev()
                .nth(2)
                .is_some_and(|w| NOT_NAMED.contains(&word(w)))
    };
    picks(end)
        || (picks(first)
            && first.split_whitespace().count() <= 6
            && !first.split_whitespace().any(|w| {
                one_of(w, &["what", "how", "where", "when", "who", "which", "whether", "if"])
            }))
        || lower.contains(" it is for ")
        || lower.contains(" it is, then")
        || picks_it(lower)
        // Not "Right then.", "OK then": an opener, nothing named before "then".
        || (end.ends_with(" then")
            && (3..=10).contains(&end.split_whitespace().count())
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
/// already in our stack", "Ok, config file is INI via configparser then")? Not "see you
/// then", "and then", "it is what it is then", nor "Right then.", an opener alone.
pub(super) fn names_then(lower: &str) -> bool {
    let words: Vec<&str> = picked_then(lower).split_whitespace().collect();
    let opener = |w: &str| one_of(w, &["right", "ok", "okay", "fine", "alright", "well", "so"]);
    matches!(words.as_slice(), [.., before, "then"]
        if (words.len() <= 4 || part_then(&words).is_some())
            && !(words.len() == 2 && opener(word(before)))
            && !matches!(words.as_slice(), ["that" | "this" | "it", "is" | "was", ..])
            && !["see", "and", "since", "by", "until", "back", "only", "even", "just", "you"]
                .contains(before))
}

/// The first clause of a sentence past the word that gives in and before the reason
/// ("fine, Formik then since the team already knows it": "Formik then").
fn picked_then(lower: &str) -> &str {
    let first = lower
        .split([',', ';', '—'])
        .map(str::trim)
        .find(|part| {
            !one_of(
                part,
                &[
                    "fine", "ok", "okay", "alright", "sure", "right", "nope", "nah", "yeah",
                ],
            )
        })
        .unwrap_or("");
    [" since ", " because ", " as "]
        .iter()
        .fold(first, |part, mark| part.split(mark).next().unwrap_or(part))
        .trim()
        .trim_end_matches(['.', '!'])
}

/// The part a clause ending in "then" sets ("config file is INI via configparser then":
/// "config file"): a few words of a thing, "is" or "are", its value.
fn part_then<'a, 'w>(words: &'a [&'w str]) -> Option<&'a [&'w str]> {
    let is = words
        .iter()
        .take(4)
        .position(|w| one_of(w, &["is", "are"]))
        .filter(|&at| at > 0)?;
    let thing = word(words[0]);
    let plain = words.len() <= 8
        && words.last() == Some(&"then")
        && !SUBJECTS.contains(&thing)
        && !one_of(thing, &["that", "this", "which"])
        && !words
            .iter()
            .any(|w| one_of(w, &["if", "what", "when", "how", "there"]));
    plain.then(|| &words[..is])
}

/// Does a clause name its choice and say "it is" after it ("traefik it is, since k3s
/// ships it", "okay, Wonderwall it is as my first song")? Not "whatever it is", "as it
/// is", "here it is".
pub(super) fn picks_it(lower: &str) -> bool {
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
            .is_some_and(|w| {
                !w.is_empty() && !NOT_A_CHOICE.contains(&w) && !NOT_NAMED.contains(&w)
            });
        // The choice opens its clause: a few words after a comma or the start.
        let clause = lower[..at]
            .rsplit([',', '.', ';', ':'])
            .next()
            .unwrap_or("");
        ends && named && clause.split_whitespace().count() <= 5
    })
}

/// Is it about someone's day rather than the work ("I'll take the dog out")?
pub(super) fn is_personal(lower: &str) -> bool {
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
    // Not who the work is for: "lets book that pontoon boat ride for the kids".
    let of_someone = ["the dog", "my dog", "the kids", "my kids"]
        .iter()
        .any(|who| {
            said.match_indices(who)
                .any(|(at, _)| contains_phrase(&said[at..], who) && !said[..at].ends_with("for "))
        });
    of_someone
        || says_any(
            said,
            &[
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
pub(super) fn speaks_for_the_work(lower: &str) -> bool {
    let words = first_words(lower);
    let Some(first) = words.first() else {
        return false;
    };
    if is_personal(lower) {
        return false;
    }
    let first = word(first);
    // "I feel like a proper landlord now rather than …": how the user feels.
    if first == "i"
        && words
            .get(1)
            .is_some_and(|w| one_of(word(w), &["feel", "felt", "look", "sound", "seem"]))
    {
        return false;
    }
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
