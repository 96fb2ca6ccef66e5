//! What makes a sentence a rule: a constraint, a requirement, a limit or a prohibition that
//! holds for the rest of the work, whoever states it.

use super::*;

/// Words that make a clause a rule and speak to how the work must go, whatever opens
/// it: both a [`RULE_MARKS`] and a [`SUBJECT_MODALS`] mark ("has to be", "I'd prefer",
/// "important that", "no matter what").
pub(super) const BINDING: &[&str] = &[
    "red line",
    "non-negotiable",
    "no matter what",
    "has to be",
    "have to be",
    // "citations throughout are to follow APA 7th edition": what the things must do.
    "are to",
    "needs to be",
    "is required",
    "are required",
    "hard rule",
    "i prefer",
    "i'd prefer",
    "i would prefer",
    "we'd prefer",
    "we would prefer",
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
    "we've got to",
    "we have got to",
    "you've got to",
    // "whatever we end up with, it's got to fit on one page".
    "it's got to",
    "it has got to",
    "has got to",
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
pub(super) const RULE_MARKS: &[&str] = &[
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
pub(super) const STRONG_RULE_MARKS: &[&str] = &[
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
    // "whatever we do, Agnes survives the book".
    "whatever we do",
    "whatever happens",
    "as a matter of course",
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
pub(super) const LETS_NOT: &[&str] = &["let's not", "lets not", "let us not"];

/// Does a statement set its own bound ("MVP is email + in-app only", "Active means at
/// least one session_start event in that week")? A bound it holds makes it a rule,
/// though it speaks of a thing and not to anyone.
pub(super) fn bounds_itself(clause: &str) -> bool {
    let words: Vec<&str> = first_words(clause).into_iter().map(word).collect();
    let thing = words
        .first()
        .is_some_and(|w| !NOT_THINGS.contains(w) && !w.starts_with(|c: char| c.is_ascii_digit()));
    let is = words
        .iter()
        .skip(1)
        .take(3)
        .any(|w| one_of(w, &["is", "are", "means", "stays", "stay"]));
    const BOUNDS: &[&str] = &[
        "only",
        "at least",
        "at most",
        "no more than",
        "not more than",
        "no less than",
    ];
    thing && is && !is_personal(clause) && says_any(clause, BOUNDS)
}

/// Does a clause hold a mark of a rule ([`RULE_MARKS`], [`BINDING`], a preference
/// against)? "Between" counts
/// where it bounds a quantity.
pub(super) fn marks_a_rule(clause: &str) -> bool {
    RULE_MARKS.iter().any(|m| {
        contains_phrase(clause, m)
            && (*m != "between" || bounds_between(clause))
            && (*m != "all" || !all_is_a_span(clause))
    }) || says_any(clause, BINDING)
        || prefers_against(clause)
}

/// Is every "all" of a clause a span of time ("we'll be there all day", "she will see it
/// from the kitchen all winter"), no quantity of things?
fn all_is_a_span(clause: &str) -> bool {
    let words = bare_words(clause);
    words
        .windows(2)
        .filter(|pair| pair[0] == "all")
        .all(|pair| {
            span_of_time(pair[1]).is_some()
                || one_of(
                    pair[1],
                    &[
                        "night",
                        "morning",
                        "afternoon",
                        "evening",
                        "weekend",
                        "winter",
                        "summer",
                        "spring",
                        "autumn",
                        "season",
                        "along",
                    ],
                )
        })
        && words.last() != Some(&"all")
}

/// Does "between" bound a quantity ("keep it between 3 and 5", "between $200 and $300"),
/// not relate two things ("correlation between F1 and the PM's rating")?
pub(super) fn bounds_between(clause: &str) -> bool {
    clause.split("between ").skip(1).any(|after| {
        after
            .trim_start_matches(['$', '£', '€'])
            .starts_with(|c: char| c.is_ascii_digit())
    })
}

/// Does a sentence (lower case) open by naming what follows a rule ("One principle for
/// this: raw data lands untouched", "Constraint: the API stays backwards compatible",
/// "our convention: …", "important: we collect nothing beyond name and phone")? A label of
/// a few words, then a statement of three or more.
pub(super) fn labels_a_rule(lower: &str) -> bool {
    const LABELS: &[&str] = &[
        "rule",
        "rules",
        "principle",
        "constraint",
        "convention",
        "requirement",
        "policy",
        // "Important: the insurance values you mention always in euros".
        "important",
    ];
    // "Hard ceiling: £9,500 installed", "time limit: 40 minutes": a limit named, then its
    // figure; not "budget breakdown: …".
    const LIMITS: &[&str] = &[
        "ceiling", "cap", "limit", "budget", "max", "maximum", "minimum",
    ];
    let Some((label, rest)) = lower.split_once(':') else {
        return false;
    };
    let label: Vec<&str> = label.split_whitespace().map(word).collect();
    if label.len() <= 3
        && label.last().is_some_and(|w| LIMITS.contains(w))
        && rest
            .trim_start()
            .starts_with(|c: char| c.is_ascii_digit() || "$£€".contains(c))
    {
        return true;
    }
    // "rule" within the label's first words, not "the rule they broke last year was: …".
    // "Important thing I forgot: the neighbours complained" is news: "important" labels
    // a rule in a few words ("Important:", "one important thing:").
    let few = label.len() <= 3 || !label.contains(&"important");
    label.len() <= 5
        && few
        && label.iter().take(3).any(|w| LABELS.contains(w))
        && !label
            .iter()
            .any(|w| one_of(w, &["was", "were", "is", "broke", "had"]))
        && rest.split_whitespace().count() >= 3
}

/// Does a sentence (lower case) order what to do each time something comes up ("when you
/// give me numbers, quote prices before tax", "whenever you touch the schema, add a
/// migration")? An order for every time, a rule.
pub(super) fn orders_each_time(lower: &str) -> bool {
    let lower = lower.strip_prefix("and ").unwrap_or(lower);
    [
        "when you ",
        "whenever you ",
        "every time you ",
        "each time you ",
    ]
    .iter()
    .any(|lead| lower.starts_with(lead))
        && lower.split_once(", ").is_some_and(|(when, order)| {
            // "when you get a chance, send me the draft": once, when it suits.
            let once = says_any(
                when,
                &[
                    "chance", "moment", "minute", "sec", "second", "time", "ready", "done",
                    "finished", "free", "can", "back",
                ],
            );
            !once && is_imperative(order) && !asks(order)
        })
}

/// A statement stressed as settled by a clause of its own after it ("customer emails stay
/// out of the feature tables, full stop", "we ship on Tuesdays, no exceptions"): not
/// "always" or "ever" alone ("yes, always" answers).
pub(super) fn stressed_at_its_end(lower: &str) -> bool {
    const SETTLED: &[&str] = &[
        "full stop",
        "period",
        "no exceptions",
        "no exception",
        "without exception",
        "non-negotiable",
        "not negotiable",
    ];
    let parts: Vec<&str> = clauses(lower).collect();
    parts.windows(2).any(|pair| {
        let said = word(pair[1].trim_end_matches(['.', '!']));
        SETTLED.contains(&said)
            && pair[0].split_whitespace().count() >= 3
            && !asks(pair[0])
            && !SUBJECTS.contains(&first_words(pair[0]).first().map_or("", |w| word(w)))
    })
}

/// A refusal stressed at its end: "she won't touch anything with fish in it, ever".
pub(super) fn refuses_ever(lower: &str) -> bool {
    lower
        .trim_end_matches(|c: char| !c.is_alphanumeric())
        .ends_with(", ever")
        && says_any(
            lower,
            &["won't", "don't", "can't", "doesn't", "never", "no"],
        )
}

/// Does it tell what someone does as a habit ("I always pick one at random"), not what
/// they chose?
pub(super) fn is_habit(lower: &str) -> bool {
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
pub(super) const OWN_LIMITS: &[&str] = &[
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
pub(super) const REFUSALS: &[&str] = &[
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
    // "… is the one thing I'm not budging on".
    "not budging on",
    "won't budge on",
    // "we are not spending a penny over that": an amount no one may pass.
    "a penny over",
    "a cent over",
    "a dollar over",
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
    // "they insist the midroll lands between 18:00 and 22:00 in every episode".
    "they insist",
    "i insist",
    "we insist",
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
pub(super) fn relays_a_requirement(clause: &str) -> bool {
    let first = clause.split_whitespace().next().map(word);
    // "governors have asked that the policy not exceed eight pages".
    says_any(
        clause,
        &[
            "requires",
            "require that",
            "asked that",
            "ask that",
            "requested that",
            "insist that",
        ],
    ) && !matches!(
        first,
        Some("it" | "this" | "that" | "which" | "what" | "does" | "do")
    )
}

/// "the Hendersons can't drive mornings at all": what someone can never do, a rule for
/// any plan.
pub(super) fn never_can(clause: &str) -> bool {
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
                .any(|w| one_of(w[0], &["can't", "cannot"]) && one_of(w[2], &["any", "anything"])));
    any || (says_any(clause, &["can't", "cannot"])
        && clause.trim_end_matches(['.', '!']).ends_with(" at all"))
}

/// Words that set a limit on a thing ("opening budget can't exceed 120k", "flash isn't
/// allowed at her games").
pub(super) const LIMITS: &[&str] = &[
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
pub(super) const THING_MAY_NOT: &[&str] = &[
    "be", "go", "have", "include", "contain", "exceed", "use", "cost", "mention", "require",
    "show", "change", "touch", "depend", "rely", "store", "send", "share", "expose", "break",
    "block", "drop", "delete", "remove", "lose", "leak", "modify", "alter", "slow", "pass", "top",
];

/// What "we can't" do to the work, said as a limit ("we can't change the public schema",
/// "we can't spend on a lawyer until the seed round closes"), not a fault ("we can't get
/// it to work", "we can't reproduce it").
pub(super) const WE_MAY_NOT: &[&str] = &[
    "change", "add", "touch", "spend", "show", "use", "require", "bump", "break", "remove",
    "modify", "alter", "drop", "deploy", "ship", "upgrade", "store", "send", "share", "expose",
    "exceed", "afford", "rename", "delete", "hire", "promise", "go", "pay", "move", "rely",
    "depend", "collect",
];

/// Does a clause pin the work to a version or a setting ("we're stuck on 1.54 for now",
/// "we're staying on terraform 1.5.x", "we need to use American English", "a secondary is
/// mandatory")? Not "I'm stuck on this bug": a number names what it is pinned to.
pub(super) fn pins(clause: &str) -> bool {
    let words: Vec<&str> = clause.split_whitespace().map(word).collect();
    let pinned = words.windows(2).enumerate().any(|(at, pair)| {
        one_of(pair[0], &["stuck", "staying", "stay", "pinned", "locked"])
            && one_of(pair[1], &["on", "to", "at"])
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
pub(super) fn binds(clause: &str) -> bool {
    const PEOPLE: &[&str] = &["i", "i'm", "he", "she", "they", "you"];
    const THINGS: &[&str] = &["it", "it's", "that", "this", "there", "which", "what"];
    if says_any(clause, OWN_LIMITS)
        || says_any(clause, REFUSALS)
        || limits_by_number(clause)
        || pins(clause)
        || never_can(clause)
        || relays_a_requirement(clause)
        || entitles(clause)
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
                let deduced = one_of(next, &["say", "admit", "confess", ""])
                    || (next == "have" && after == "been")
                    || (thing && one_of(next, &["be", "have"]));
                !deduced
            }
            "mustn't" => true,
            "should" => {
                !thing && one_of(next, &["not", "never", "always", "still", "only", "be"])
            }
            // "the kids' devices need to be on a separate network".
            // Or "every hotel needs a pool", "any change to the config needs a sign-off".
            "need" | "needs" | "has" | "have" => {
                (!thing && next == "to" && after == "be")
                    || (word.starts_with("need")
                        && words[at.saturating_sub(4)..at]
                            .iter()
                            .chain(words.iter().take(2))
                            .any(|w| {
                                one_of(w, &["every", "each", "all", "any", "anyone", "everyone", "anybody", "everybody", "whoever"])
                            }))
                    // "the office on the 3rd floor needs wired ethernet": a part of the
                    // work, what it must have.
                    || (*word == "needs"
                        && at <= 6
                        && matches!(words.first(), Some(&("the" | "our")))
                        && !one_of(next, &["to", "a", "some", "more", "help", "work"])
                        && !is_personal(clause))
            }
            "shouldn't" => !thing,
            // "the closure period shall be twenty-five years": a formal requirement; not
            // "we shall see", "I shall raise it".
            "shall" | "shan't" => {
                !thing
                    && !one_of(subject, &["we", "i"])
                    && one_of(next, &["be", "not", "never", "only", "always", "remain"])
            }
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
            // "the model can never be retrained automatically".
            "can" => !thing && (next == "never" || (next == "not" && after == "be")),
            _ => false,
        }
    })
}

/// Does a clause say what someone may not have or do ("he can't have chicken, it makes him
/// itch", "She can't have social media until she's 14", "I can't do squats or lunges",
/// "she can't do stairs"; not the moment's "I can't do math anymore today")? A rule for
/// whatever is chosen for them.
pub(super) fn denies(clause: &str) -> bool {
    const NOT_A_THING: &[&str] = &[
        "it",
        "that",
        "this",
        "these",
        "those",
        "them",
        "what",
        "that's",
        "much",
        "more",
        "enough",
        "anything",
        "everything",
        "all",
        "any",
        "both",
        "either",
        "another",
        "one",
        "two",
        "the",
        "a",
        "so",
        "better",
        "well",
        "without",
        "justice",
    ];
    let words: Vec<&str> = clause.split_whitespace().map(word).collect();
    let cannot_do = words.windows(3).any(|w| {
        one_of(w[0], &["can't", "cannot"])
            && w[1] == "do"
            && !NOT_A_THING.contains(&w[2])
            && !w[2].is_empty()
    }) && !says_any(
        clause,
        &[
            "anymore",
            "any more",
            "today",
            "tonight",
            "right now",
            "at the moment",
        ],
    );
    cannot_do
        || says_any(
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
pub(super) fn limits_by_number(clause: &str) -> bool {
    let words: Vec<&str> = clause.split_whitespace().map(word).collect();
    let number = |w: &str| w.chars().any(|c| c.is_ascii_digit());
    let has_number = words.iter().any(|w| number(w));
    // A number, then its unit, then "max": "3 hours max", "$400 max".
    let max_after = words.iter().enumerate().any(|(at, w)| {
        one_of(w, &["max", "maximum", "tops"])
            && words[at.saturating_sub(3)..at].iter().any(|w| number(w))
    });
    // "our budget is €4,000", "my whole budget for supplies is $60".
    let budget = contains_phrase(clause, "budget of")
        || words.iter().enumerate().any(|(at, w)| {
            one_of(w, &["budget", "budget's"])
                && words[at + 1..]
                    .iter()
                    .take(4)
                    .any(|w| one_of(w, &["is", "'s"]))
                || *w == "budget's"
        });
    let only = matches!(words.as_slice(), ["i" | "we", "only", "get" | "have", ..]);
    // "i only want to work on this on weekends", "we only eat chicken and fish": a limit
    // without a number; not "I only want to know …".
    if let ["i" | "we", "only", verb, next, ..] = words.as_slice()
        && one_of(verb, &["want", "eat", "use", "buy", "drink", "fly", "shop"])
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
            let amount = if one_of(w[2], &["about", "around", "roughly"]) {
                w[3]
            } else {
                w[2]
            };
            w[0] == "more"
                && w[1] == "than"
                && (number(amount) || one_of(amount, &["one", "two", "three", "four", "five"]))
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
    let at_most_said = ((says_any(clause, &["at most", "no more than", "not more than"]) && set)
        || capped)
        && has_number;
    // "not more than 12,000 steps per day for her", "nobody on the team does more than
    // three interviews a week": a count no one may pass.
    let counted = |at: usize| {
        words.get(at).is_some_and(|w| {
            number(w) || one_of(w, &["one", "two", "three", "four", "five", "six"])
        })
    };
    let first = words.iter().position(|w| !LEADS.contains(w)).unwrap_or(0);
    let past_it = words
        .windows(2)
        .position(|w| w == ["more", "than"])
        .is_some_and(|at| {
            counted(at + 2)
                && (words[first] == "nobody"
                    || (at == first + 1 && one_of(words[first], &["not", "no"])))
        });
    max_after
        || at_most
        || at_most_said
        || past_it
        || (refused && beyond_a_number(&words))
        || sets_a_bound(&words)
        || can_only(&words)
        || (has_number && (budget || only || at_least || spend))
}

/// Does a clause count what one can do, at most ("I can go to gym only three days in the
/// week", "I can only train 3 days a week")?
fn can_only(words: &[&str]) -> bool {
    words.windows(2).enumerate().any(|(at, w)| {
        w[0] == "only"
            && (w[1].starts_with(|c: char| c.is_ascii_digit())
                || (is_number(w[1]) && w[1] != "one"))
            && words.get(at + 2).is_some_and(|unit| {
                one_of(
                    unit,
                    &[
                        "days", "nights", "evenings", "mornings", "weekends", "hours", "minutes",
                        "times", "sessions", "shifts",
                    ],
                )
            })
            && words[..at].iter().any(|w| one_of(w, &["can", "could"]))
    })
}

/// Do `words` go beyond a time or an amount ("practices can't run past 6:30 on
/// weeknights", "the kids can't stay up past 9", "sessions can't run past three hours"):
/// said of a deed refused, a limit.
fn beyond_a_number(words: &[&str]) -> bool {
    words.windows(2).any(|w| {
        one_of(
            w[0],
            &["past", "beyond", "after", "over", "longer", "later"],
        ) && (w[1].starts_with(|c: char| c.is_ascii_digit()) || (is_number(w[1]) && w[1] != "one"))
    })
}

/// Does a clause say what can't or won't be done ("we can't lose any open PR's work"), not
/// what someone can't believe, find or wait for ("I can't believe it took 3 days")?
pub(super) fn refuses_a_deed(words: &[&str]) -> bool {
    words.windows(2).any(|w| {
        one_of(w[0], &["can't", "cannot", "won't"])
            && !one_of(
                w[1],
                &[
                    "believe",
                    "remember",
                    "tell",
                    "say",
                    "imagine",
                    "understand",
                    "figure",
                    "see",
                    "find",
                    "get",
                    "wait",
                    "stand",
                    "decide",
                    "choose",
                    "think",
                    "afford",
                    "handle",
                    "compile",
                    "parse",
                    "load",
                    "keep",
                ],
            )
    })
}

/// Does a clause set a bound of the work as its value ("min sdk is 24", "max upload size
/// is 10mb", "the memory limit is 512Mi", "the RTO for orders is 1 hour")? Not one measured now ("max latency was 900ms",
/// "the max is 800ms right now"): that is how things stand, not what the work must keep.
pub(super) fn sets_a_bound(words: &[&str]) -> bool {
    const BOUNDS: &[&str] = &[
        "min", "max", "minimum", "maximum", "limit", "cap", "ceiling", "floor", "rto", "rpo",
        "sla", "slo",
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
        .position(|w| one_of(w, &["is", "are", "stays", "remains"]))
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
pub(super) fn deduces(clause: &str) -> bool {
    const GUESSED: &[&str] = &[
        "it", "it's", "that", "this", "there", "he", "she", "which", "what",
    ];
    GUESSED.contains(&subject_of(clause))
        && (contains_phrase(clause, "must be") || contains_phrase(clause, "must have been"))
}

/// Does a sentence (lower case) order the work gently, as what would be best ("it might
/// be best if every retention period is measured from the date the file is closed", "it
/// would be better if the intro stayed short")? Not asked, and about something: four
/// words or more after the mark.
pub(super) fn orders_gently(lower: &str) -> bool {
    const GENTLY: &[&str] = &[
        "it might be best if ",
        "it would be best if ",
        "it'd be best if ",
        "it's best if ",
        "it is best if ",
        "it might be better if ",
        "it would be better if ",
        "it'd be better if ",
    ];
    !lower.trim_end().ends_with('?')
        && GENTLY.iter().any(|mark| {
            lower
                .split_once(mark)
                .is_some_and(|(_, rest)| rest.split_whitespace().count() >= 4)
        })
}

/// Does a clause tell what always happened ("we always had it the fourth of July
/// weekend", "Mum always wanted the big table")? A habit of the past binds nothing now.
/// ("Pretend it never existed" orders: "never" and a past form are not a habit.) Nor does
/// what one has never done, said without its subject ("Never done a festival this big").
pub(super) fn recalls_a_habit(clause: &str) -> bool {
    const PAST: &[&str] = &[
        "had", "did", "was", "were", "went", "got", "came", "made", "took", "gave", "said", "kept",
        "ran", "sat", "ate",
    ];
    let words: Vec<&str> = clause.split_whitespace().map(word).collect();
    let never_done = matches!(
        words.as_slice(),
        [
            "never",
            "done" | "been" | "seen" | "tried" | "had" | "used" | "run" | "worked" | "made",
            ..
        ]
    );
    // "I never would have thought about the chocolate chips": what might have been.
    let might_have_been = words
        .windows(3)
        .any(|w| w[0] == "never" && one_of(w[1], &["would", "could", "might"]) && w[2] == "have");
    let past =
        |w: &str| PAST.contains(&w) || (w.len() > 4 && w.ends_with("ed") && !w.ends_with("eed"));
    // "…, never caught a thing": what one did not do, its subject said before.
    let never_did_alone = matches!(words.as_slice(), ["never", did, ..]
        if *did != "let" && (past(did) || NEVER_DID.contains(did)));
    // "she never wrote anything down": what someone did not do; not "secrets are never
    // logged", which binds, nor "pretend it never existed", an order.
    let pretend = matches!(words.first(), Some(&("pretend" | "imagine" | "act")));
    let never_did = !pretend
        && words.windows(3).any(|w| {
            !one_of(
                w[0],
                &["is", "are", "be", "been", "get", "gets", "was", "were"],
            ) && w[1] == "never"
                && (past(w[2]) || NEVER_DID.contains(&w[2]))
        });
    never_done
        || never_did_alone
        || might_have_been
        || never_did
        || words
            .windows(2)
            .any(|pair| pair[0] == "always" && past(pair[1]))
}

/// Does a clause give people of the work what they are always to have ("guests get to hear
/// their episode before it goes out", "every author gets to see the proofs")? Not the
/// user's or another one person's turn ("I get to choose", "she gets to pick tonight").
fn entitles(clause: &str) -> bool {
    let words: Vec<&str> = clause.split_whitespace().map(word).collect();
    let Some(at) = words.windows(3).take(4).position(|w| {
        one_of(w[0], &["get", "gets"])
                && w[1] == "to"
                && w[2].len() > 2
                // A place reached, not a thing done: "people get to the venue by car".
                && !one_of(w[2], &["the", "our", "your", "their", "his", "her", "bed", "work", "school", "sleep", "class", "church"])
    }) else {
        return false;
    };
    const PEOPLE: &[&str] = &[
        "i", "we", "you", "he", "she", "they", "it", "that", "this", "who",
    ];
    at > 0
        && !words[..at].iter().any(|w| PEOPLE.contains(w))
        && (words[at] == "get" || one_of(words[0], &["every", "each", "any"]))
        && !is_habit(clause)
}

/// Does a clause say what the user must do or find out themselves, not the work ("There is
/// one thing I must mention", "This I must discuss with Birgit tonight", "We must see when
/// Birgit gets leave")? Not "we must tell every client first", which binds the work.
pub(super) fn owns_an_errand(clause: &str) -> bool {
    let words: Vec<&str> = clause.split_whitespace().map(word).collect();
    words.windows(4).any(|w| {
        let speaks = w[0] == "i"
            && one_of(
                w[2],
                &[
                    "mention",
                    "tell",
                    "ask",
                    "add",
                    "warn",
                    "discuss",
                    "apologise",
                    "apologize",
                    "thank",
                ],
            );
        let finds_out = one_of(w[0], &["i", "we"])
            && w[2] == "see"
            && one_of(w[3], &["when", "if", "whether", "how", "what"]);
        w[1] == "must" && (speaks || finds_out)
    })
}

/// Verbs in the past that say what someone never did ("she never wrote anything down").
const NEVER_DID: &[&str] = &[
    "wrote", "told", "thought", "knew", "saw", "let", "bought", "sent", "found", "paid", "brought",
    "left", "spoke", "caught", "taught",
];

/// Does a clause give the units or the form a kind of thing is always written in, with no
/// verb ("Distances in nautical miles and times in UTC", "oven temperatures in
/// Fahrenheit, rounded to 5")? One or two words naming things, "in", then a unit.
pub(super) fn sets_the_units(clause: &str) -> bool {
    const UNITS: &[&str] = &[
        "utc",
        "gmt",
        "metric",
        "imperial",
        "celsius",
        "fahrenheit",
        "nautical",
        "miles",
        "km",
        "kilometres",
        "kilometers",
        "grams",
        "kg",
        "ounces",
        "euros",
        "eur",
        "dollars",
        "usd",
        "gbp",
        "sterling",
        "24-hour",
        "24h",
        "iso",
    ];
    // Each part: one or two words naming things, "in", the unit, nothing else of note.
    clause.split(" and ").all(|part| {
        let words = bare_words(part);
        match words.as_slice() {
            [things, "in", unit, rest @ ..] | [_, things, "in", unit, rest @ ..] => {
                things.len() > 3
                    && things.ends_with('s')
                    && UNITS.contains(unit)
                    && rest.iter().all(|w| {
                        UNITS.contains(w) || one_of(w, &["please", "throughout", "everywhere"])
                    })
            }
            _ => false,
        }
    })
}

/// Does a clause forbid ("no personal data may leave the EU", "nothing can be deleted
/// by hand")?
pub(super) fn prohibits(clause: &str) -> bool {
    // "… would need to say, pretty clearly, that nothing subject to a hold can ever be
    // destroyed": the prohibition a document is to state.
    let words: Vec<&str> = match first_words(clause).as_slice() {
        ["that", rest @ ..] => rest.to_vec(),
        words => words.to_vec(),
    };
    let modal = matches!(words.first(), Some(&("no" | "nothing" | "nobody" | "none")))
        && words.iter().skip(1).any(|w| {
            one_of(
                word(w),
                &["may", "can", "should", "must", "shall", "gets", "allowed"],
            )
        });
    // "nobody administers a vaccine without a second person checking", "Nobody leaves
    // before the count is done": what no one does but on a condition. Not "Nobody likes
    // the new logo.", which tells.
    let verb = match words.as_slice() {
        ["nobody" | "nothing", verb, ..] | ["no", "one", verb, ..] => Some(word(verb)),
        _ => None,
    };
    // Not what no one knows or what happens ("Nobody knows until Friday.", "Nothing
    // happens without coffee", "Nothing works without coffee"); "Nobody works on the deck
    // edge without a tie-off" is a person's work.
    let a_thing = words.first() == Some(&"nothing");
    let conditioned = verb.is_some_and(|verb| {
        let stem = &verb[..verb.len() - 1];
        let how_a_thing_is = a_thing && ["seem", "work", "look", "sound"].contains(&stem);
        verb.len() > 3
            && verb.ends_with('s')
            && !verb.ends_with("ss")
            && !NOT_A_RULE.contains(&stem)
            && !["happen", "matter"].contains(&stem)
            && !how_a_thing_is
    }) && ["without", "until", "unless", "before", "except"]
        .iter()
        .any(|mark| contains_phrase(clause, mark));
    modal || conditioned
}

/// Verbs that say what one does not know, think or have, or did: not a refusal.
pub(super) const NOT_A_RULE: &[&str] = &[
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
pub(super) const NOT_DOING: &[&str] = &[
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
    "deciding",
];

/// Does the user say what they and theirs never do ("We don't do hikes over 3 miles",
/// "we don't touch the emergency fund for anything non-emergency", "I never eat after
/// 8")? A house rule, said as a habit — not what they do not know, think, have or did.
/// Or what they will not have happen ("I'll not have BST muddling the tide tables").
pub(super) fn abstains(clause: &str) -> bool {
    let words: Vec<&str> = first_words(clause).into_iter().map(word).collect();
    // At the clause's start, or after an "and" ("we have $9k in an emergency fund and we
    // don't touch it for anything non-emergency").
    (0..words.len())
        .filter(|&at| at == 0 || words[at - 1] == "and")
        .any(|at| {
            if let ["i'll" | "we'll", "not", "have", _, doing, ..]
            | ["i" | "we", "won't", "have", _, doing, ..]
            | ["i" | "we", "will" | "shall", "not", "have", _, doing, ..] = &words[at..]
            {
                return doing.ends_with("ing");
            }
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
pub(super) fn keeps_to(clause: &str) -> bool {
    const PACE: &[&str] = &[
        "going", "up", "at", "trying", "me", "us", "in", "on", "reading", "working", "it",
    ];
    let mut words: Vec<&str> = first_words(clause).into_iter().map(word).collect();
    // "I want to keep it in first person present tense", "I would like us to restrict
    // the core corpus to …".
    if let Some(at) = words.iter().position(|w| *w == "to") {
        let wish = match &words[..at] {
            [wish @ .., "us"] => wish,
            wish => wish,
        };
        if matches!(
            wish,
            ["i" | "we", "want" | "need"]
                | ["i'd" | "we'd", "like"]
                | ["i" | "we", "would", "like"]
        ) {
            words.drain(..=at);
        }
    }
    // "but I reckon we keep the whole job under $38k": a bound the user sets the work.
    let opens = words.iter().position(|w| *w == "keep").filter(|&at| {
        at > 0
            && at <= 5
            && one_of(words[at - 1], &["we", "we'll", "let's"])
            && words[..at - 1]
                .iter()
                .all(|w| one_of(w, &["but", "so", "and", "i", "reckon", "think"]))
    });
    if let Some(at) = opens
        && words[at..]
            .iter()
            .any(|w| one_of(w, &["under", "below", "within"]))
        && clause.contains(|c: char| c.is_ascii_digit())
    {
        return true;
    }
    match words.as_slice() {
        // "keep it in first person", not "keep it up", "keep it going".
        ["keep", "it", next, ..] => !one_of(next, &["up", "going", "coming", "together"]),
        ["keep", next, ..] => !PACE.contains(next),
        // "cap my study at 90 minutes a day", "limit each talk to 20 minutes", "restrict
        // the corpus to peer-reviewed work"; not "limit the damage".
        ["cap" | "limit" | "restrict", rest @ ..] => {
            clause.contains(|c: char| c.is_ascii_digit()) || rest.contains(&"to")
        }
        // "leave out test accounts", "exclude refunds".
        ["leave", "out", _, ..] | ["exclude" | "omit", _, ..] => true,
        _ => false,
    }
}

/// Does a sentence report what someone else says or thinks as their saying, not an order
/// for this work: a habit of speech ("my boss always said never send a reminder on a
/// Monday"), or a view the user doubts in the same breath ("Lea says cron is always the
/// answer, but I'm not sure she's right")? A relayed order stands ([`reported_order`]).
pub(super) fn reports_a_saying(lower: &str) -> bool {
    const REPORTING: &[&str] = &[
        "says", "said", "say", "saying", "thinks", "swears", "claims", "believes", "reckons",
    ];
    const HABIT: &[&str] = &["always", "used", "likes", "keeps", "would"];
    const DOUBTS: &[&str] = &[
        "not sure",
        "don't care",
        "do not care",
        "don't agree",
        "disagree",
        "not convinced",
        "don't buy",
        "don't think so",
        "doubt",
    ];
    let words: Vec<&str> = first_words(lower).into_iter().map(word).take(9).collect();
    let Some(at) = words.iter().position(|w| REPORTING.contains(w)) else {
        return false;
    };
    // Said by someone else: not "I said", "we think", "as you said", "that said".
    let speaker = &words[..at];
    let other = !speaker.is_empty()
        && !speaker.iter().any(|w| {
            one_of(
                w,
                &[
                    "i", "we", "you", "i'd", "we'd", "i've", "we've", "as", "that", "it",
                ],
            )
        });
    let habit =
        speaker.last().is_some_and(|w| HABIT.contains(w)) || speaker.ends_with(&["used", "to"]);
    let doubted = lower
        .split_once(" but ")
        .is_some_and(|(_, rest)| says_any(rest, DOUBTS));
    // "The chap at the chandlery says every three years, Harold says annually": two
    // sayings weighed, neither taken.
    let weighed = lower.matches(" says ").count() >= 2;
    other && (habit || doubted || weighed)
}

/// What someone else ordered, as reported ("my supervisor said keep the survey under 15
/// minutes", "we agreed keep episodes to 25 minutes"): the order.
pub(super) fn reported_order(clause: &str) -> Option<&str> {
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
/// 15", "it has to be done before Friday", "ready by the end of the month", "music off by
/// 9pm sharp": a time held to, whatever the verb)?
pub(super) fn sets_a_deadline(clause: &str) -> bool {
    const NEEDS: &[&str] = &[
        "need", "needs", "must", "has to", "have to", "due", "ready", "done", "finished",
        "deadline", "sharp",
    ];
    // A month, a weekday, "tomorrow", "tonight", "noon", "midnight", "next", "end", by the
    // first three letters.
    const WHEN: &str = "jan feb mar apr may jun jul aug sep oct nov dec mon tue wed thu fri sat sun tom ton noo mid eod nex end";
    let mut words = clause.split_whitespace().peekable();
    let mut by = false;
    while let Some(word) = words.next() {
        if !one_of(word, &["by", "before", "than"]) {
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
pub(super) fn excludes(lower: &str) -> bool {
    excluded_at(lower).next().is_some()
}

/// Where a sentence names what is left out after a comma: ", no legalese", ", never
/// imported" (not ", no rush", ", never mind"), the byte offset of the comma.
fn excluded_at(lower: &str) -> impl Iterator<Item = usize> + '_ {
    [", no ", ", never "].into_iter().flat_map(move |mark| {
        lower
            .match_indices(mark)
            .filter(move |(at, _)| names_a_thing(&lower[at + mark.len()..]))
            .map(|(at, _)| at)
    })
}

/// Does the word `rest` opens with name a thing, not the pace ("no rush", "no worries")?
pub(super) fn names_a_thing(rest: &str) -> bool {
    const PACE: &[&str] = &[
        "rush", "worries", "worry", "problem", "problems", "pressure", "hurry", "need", "idea",
        "thanks", "way", "mind",
    ];
    // "permanent grass for the ewes, never been ploughed in my time": how a thing has
    // been, not what is left out.
    const BEEN: &[&str] = &[
        "been", "had", "have", "was", "were", "did", "do", "does", "is", "are", "once", "again",
        "ever", "used",
    ];
    rest.split_whitespace()
        .next()
        .is_some_and(|w| !PACE.contains(&word(w)) && !BEEN.contains(&word(w)))
}

/// Does a clause forbid a thing by naming it ("no peanuts", "no swearing stronger than
/// 'damn'")?
pub(super) fn forbids_a_thing(clause: &str) -> bool {
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
        || bounds_a_class(clause)
}

/// Does a clause of `lower` forbid a thing ([`forbids_a_thing`])? After "but" it says what
/// is missing ("a rough premise but no structure", "we have the budget but no time in the
/// schedule"), unless it names where the thing must not be after a verdict with no subject
/// ("Good content, but no first person in the Methods section").
pub(super) fn forbids_here(lower: &str, clause: &str) -> bool {
    forbids_a_thing(clause)
        && (!follows_but(lower, clause)
            || (says_any(clause, &["in the", "in any"])
                && before(lower, clause).is_some_and(|verdict| {
                    !verdict
                        .split_whitespace()
                        .any(|w| SUBJECTS.contains(&word(w)) || word(w) == "we")
                })))
}

/// Does a clause set a bound on a whole class by a number ("nothing over 80,000 miles",
/// "nobody on less than 13.50 an hour", "I'd say no one under 18")?
pub(super) fn bounds_a_class(clause: &str) -> bool {
    const BOUNDS: &[&str] = &[
        "over", "above", "under", "below", "past", "beyond", "less", "more", "older", "younger",
        "longer", "shorter", "cheaper", "pricier", "smaller", "larger", "bigger", "fewer", "lower",
        "higher", "later", "earlier",
    ];
    let words: Vec<&str> = first_words(clause).into_iter().map(word).collect();
    let words = match words.as_slice() {
        ["i'd", "say", rest @ ..] => rest,
        all => all,
    };
    // "Use nothing smaller than 14-point type", "… the programme used nothing smaller
    // than …": the class bound where it stands.
    // Not what there is ("there is nothing over 80,000 in the account yet").
    let Some(who) = words
        .iter()
        .take(10)
        .take_while(|w| {
            !one_of(
                w,
                &[
                    "is", "are", "was", "were", "has", "have", "had", "there's", "it's", "that's",
                ],
            )
        })
        .enumerate()
        .find_map(|(at, w)| match *w {
            "nothing" | "nobody" | "none" => Some(at + 1),
            "no" if words.get(at + 1) == Some(&"one") => Some(at + 2),
            _ => None,
        })
    else {
        return false;
    };
    // The bound, then its number: "over 80,000", "less than 13.50".
    let rest = &words[who..];
    rest.iter().take(3).enumerate().any(|(at, w)| {
        BOUNDS.contains(w)
            && rest[at + 1..]
                .iter()
                .take(2)
                .any(|n| n.starts_with(|c: char| c.is_ascii_digit() || c == '$'))
    })
}

/// Does a clause order a thing left out of the work ("leave car shipping off the list
/// entirely", "leave the sponsors out of it")? Not "leave it out on the table", "leave
/// off at chapter 3": a thing named, then "off" or "out of" and where.
pub(super) fn leaves_out(clause: &str) -> bool {
    let words = bare_words(past_opener(clause));
    // "rebuilt and salvage titles are off my list".
    if words
        .windows(4)
        .any(|w| matches!(w, ["is" | "are", "off", "my" | "our" | "the", "list"]))
    {
        return true;
    }
    let Some(("leave", rest)) = words.split_first().map(|(v, r)| (*v, r)) else {
        return false;
    };
    rest.iter().take(5).enumerate().any(|(at, w)| {
        at >= 1
            && match *w {
                "off" => matches!(rest.get(at + 1), Some(&("the" | "our" | "my" | "any"))),
                "out" => rest.get(at + 1) == Some(&"of"),
                _ => false,
            }
    })
}

/// Does a clause keep a thing as it is for good ("The brassicas stay netted from planting to
/// harvest", "the signature dish names stay in English", "the lower one stays as lawn")?
/// A thing leads; not "we stay at the Hilton", "I'm going to stay in Word" (a choice), "the
/// kids stayed up", "it stays with me".
/// Or said as an order: "Leave the headnotes alone apart from spelling", "leave the intro
/// as is".
pub(super) fn stays_so(clause: &str) -> bool {
    let words = bare_words(past_opener(clause));
    let for_now = || says_any(clause, &["for now", "for the moment", "until"]);
    if words.first() == Some(&"leave") && !matches!(words.get(1), Some(&("me" | "us"))) {
        let kept = words
            .iter()
            .skip(2)
            .take(6)
            .any(|w| one_of(w, &["alone", "untouched", "unchanged"]))
            || words.windows(2).skip(2).take(6).any(|w| w == ["as", "is"]);
        return kept && !for_now();
    }
    let Some(at) = words
        .iter()
        .take(5)
        .position(|w| one_of(w, &["stay", "stays", "remain", "remains"]))
    else {
        return false;
    };
    let thing = &words[..at];
    let how = words.get(at + 1).copied().unwrap_or("");
    // "EM/F1 stays as a smoke check for now": for a while, not for good.
    !thing.is_empty()
        && !thing.iter().any(|w| {
            one_of(
                w,
                &[
                    "i", "we", "i'm", "we're", "you", "they", "he", "she", "it", "this", "that",
                    "there", "what", "who", "everyone",
                ],
            )
        })
        && (one_of(
            how,
            &["in", "as", "on", "off", "out", "under", "below", "within"],
        ) || (how.len() > 4 && how.ends_with("ed")))
        && !for_now()
        && !clause.trim_end().ends_with('?')
}

/// Does a clause say what someone the work is for cannot bear ("she hates \"love\"", "he
/// hates being called Bob", "Dad can't stand cilantro", "he's allergic to nuts")? What the
/// work must spare them; not "she hates the rain".
pub(super) fn someone_dislikes(clause: &str) -> bool {
    let lower = past_opener(clause);
    // A word quoted is a word not to use.
    let quoted = lower
        .split_once("hates ")
        .is_some_and(|(_, rest)| rest.starts_with(['"', '“', '\'']));
    if quoted && matches!(bare_words(lower).first(), Some(&("she" | "he"))) {
        return true;
    }
    let words = bare_words(lower);
    match words.as_slice() {
        [
            "she" | "he" | "mum" | "mom" | "dad" | "grandma" | "grandpa",
            rest @ ..,
        ] => matches!(
            rest,
            ["hates", "being" | "it" | "when", ..]
                | ["can't", "stand", _, ..]
                | ["is" | "'s", "allergic", "to", _, ..]
        ),
        ["she's" | "he's", "allergic", "to", _, ..] => true,
        _ => false,
    }
}

/// Is a clause a thing, then "only", and at most where ("24h clock only on the sheet",
/// "Celsius only")? Shorthand for the one form allowed. Not "it only took a minute",
/// "that's only fair": a thing must lead.
pub(super) fn only_this(clause: &str) -> bool {
    // "and the planting's natives only": what it is, after the thing it is said of.
    let words: Vec<&str> = bare_words(clause)
        .into_iter()
        .skip_while(|w| one_of(w, &["and", "but", "so", "also"]))
        .collect();
    let Some(at) = words.iter().position(|w| *w == "only") else {
        return false;
    };
    let thing: Vec<&str> = match &words[..at] {
        ["the", said, what @ ..] if said.ends_with("'s") && !what.is_empty() => what.to_vec(),
        thing => thing.to_vec(),
    };
    let rest = &words[at + 1..];
    (1..=3).contains(&thing.len())
        && !thing
            .iter()
            .any(|w| SUBJECTS.contains(w) || NOT_THINGS.contains(w) || is_marking_word(w))
        && match rest {
            [] | ["please"] => true,
            [place, ..] => one_of(place, &["on", "in", "for"]) && rest.len() <= 8,
        }
}

/// Does a "let's not" speak of the pace ("Fine, let's not overthink it", "let's not
/// rush"), not of what the work must not do?
pub(super) fn paces(clause: &str) -> bool {
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

/// Is a sentence only a stress on the one before ("always.", "No exceptions!", "ever.",
/// "non-negotiable.") or the thing it is not ("not a DHCP reservation.", "not spaces.")?
pub(super) fn stresses(sentence: &str) -> bool {
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
    match words.as_slice() {
        ["not", next, ..] => words.len() <= 6 && !NOT_A_THING.contains(next),
        // "never numeric.": what the words before may never be.
        ["never", next, ..] => words.len() <= 3 && !NOT_A_THING.contains(next),
        _ => false,
    }
}

/// Is a sentence alone a seal on the choice before it ("final.", "that's settled.",
/// "locked in!")?
pub(super) fn seals(sentence: &str) -> bool {
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
        // "Saltmarsh. That's what it's called now.": a name given.
        "that's what it's called now",
        "that's what we're calling it",
        "that's the name now",
    ];
    is_alone(sentence, SEALS)
}

/// Is a sentence a stress alone ("always.", "No exceptions!", "ever.")?
pub(super) fn is_pure_stress(sentence: &str) -> bool {
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

/// An order with the thing not to do beside it: "Give me grams, not cups.", "write it in
/// plain English, no legalese"; the order may follow what it is for ("for the email, write
/// dates like 8 April, not April 8"), or bind the work ("the runbook should use role
/// names, not people's names").
pub(super) fn orders_with_contrast(lower: &str) -> bool {
    // "We want European Portuguese, not Brazilian": what the work is to be, wanted.
    let wants = |clause: &str| {
        [
            "i want ",
            "we want ",
            "i'd like ",
            "we'd like ",
            "i need ",
            "we need ",
        ]
        .iter()
        .any(|lead| past_opener(clause).starts_with(lead))
    };
    let ordered = |clause: &str| is_imperative(clause) || binds_the_work(clause) || wants(clause);
    // "though actually, no, I want local or reclaimed stone only, never imported": the
    // order is the clause just before what it leaves out.
    let mut contrasts = lower
        .match_indices(", not ")
        .map(|(at, _)| at)
        .chain(excluded_at(lower))
        .peekable();
    contrasts.peek().is_some()
        && (clauses(lower).next().is_some_and(ordered)
            || contrasts.any(|at| clauses(&lower[..at]).last().is_some_and(ordered)))
}

/// Does a clause say what the work should do ("the runbook should use role names"), not
/// what someone should ("you should try it") or what a thing will be ("it should be
/// sorted by then")?
fn binds_the_work(clause: &str) -> bool {
    let words: Vec<&str> = clause.split_whitespace().map(word).collect();
    words.windows(2).enumerate().any(|(at, pair)| {
        pair[0] == "should"
            && at > 0
            && !one_of(pair[1], &["be", "have", "get"])
            && !words[..at].iter().any(|w| {
                one_of(
                    w,
                    &["i", "you", "we", "he", "she", "they", "it", "that", "this"],
                )
            })
    })
}
