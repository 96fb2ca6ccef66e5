//! Which earlier instruction a later one replaces: the words of substance two instructions
//! share, the options a choice was made among, and what an override says it takes back.

use super::*;

/// Words that make an instruction override an earlier one, wherever they stand.
pub(super) const OVERRIDE_MARKS: &[&str] = &[
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
    "change of heart",
    "changed my mind",
    "change my mind",
    "on second thought",
    "on reflection",
    "upon reflection",
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
    "so we change",
    "plot twist",
    "change it to",
    "changing it to",
    "changed it to",
    "we're switching",
    "we are switching",
    "let's switch",
    "changes everything",
    "reverse that",
    // "so: flip it. east to west, start at Torres".
    "flip it",
    "flip that",
    "reverse it",
    "the other way round",
    "the other way around",
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
    "revising",
    "off the table",
    "let's move",
    "lets move",
    "move it to",
    "moving it to",
    "we're back",
    "back to",
];

/// Words that make an instruction override an earlier one when it opens with them
/// ("Actually, let's…", "Forget Unity; …"; "until it's actually paid" and "before I
/// forget" override nothing).
pub(super) const OVERRIDE_OPENERS: &[&str] = &[
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
    "kill",
    // "Drop tsup; the packages get built with plain tsc".
    "drop",
    // "nvm on the risk acceptance, we upgrade jquery too".
    "nevermind",
];

/// Words that state what the work now is, said with an override ("Forget Postgres;
/// we're doing BigQuery"); alone they report ("I'm glad we're doing this").
pub(super) const NOW_DOING: &[&str] = &[
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

/// What an instruction says it replaces ("… instead of a unit test", "… rather than
/// transferring copyright", "So scratch Bark, we'll just use …", "actually scrap the
/// 50/30/20 thing", "my husband vetoed the trampoline park"): the words of substance
/// after it, up to the clause's end. None when they name nothing ("scratch that").
pub(super) fn replaced(said: &str) -> Option<Vec<String>> {
    const TAKING_BACK: &[&str] = &[
        "instead of ",
        "rather than ",
        "scratch ",
        "scrap ",
        "ditch ",
        "kill ",
        "forget about ",
        "forget ",
        "vetoed ",
        "cancelled ",
        "canceled ",
        "dropped ",
        // "Drop Lookback.", "Drop the flat 3%.".
        "drop ",
        "swap ",
    ];
    let lower = crate::case::lowercase(said);
    if let Some(thing) = said_gone(&lower) {
        let words = subject_words(thing);
        return (!words.is_empty()).then_some(words);
    }
    let rest = TAKING_BACK.iter().find_map(|mark| {
        lower
            .match_indices(mark)
            .find(|&(at, _)| is_edge(lower[..at].chars().rev()))
            .map(|(at, _)| &lower[at + mark.len()..])
            // "swap the fishing story for the bike one": what goes, before "for".
            .map(|rest| match (*mark, rest.split_once(" for ")) {
                ("swap ", Some((gone, _))) => gone,
                _ => rest,
            })
    })?;
    // To the end of its clause: a full stop ends it, a decimal point does not ("instead of
    // 2.5%, the CFO wants …").
    let end = rest
        .char_indices()
        .find(|&(at, c)| {
            matches!(c, ',' | ';' | ':' | '!' | '?' | '—')
                || (c == '.' && !rest[at + 1..].starts_with(|d: char| d.is_ascii_digit()))
        })
        .map_or(rest.len(), |(at, _)| at);
    let words = subject_words(&rest[..end]);
    (!words.is_empty()).then_some(words)
}

/// The option a short sentence (lower case) says is gone ("Traverse is dead.", "Route53
/// weighting is out.", "Left drawer's out.", "THURSDAY IS OFF."): the words before the
/// verb, at most three ([`gone_and_kept`]). Not a person or what was just said ("She's off
/// today.", "It's out.").
pub(super) fn gone(lower: &str) -> Option<&str> {
    gone_and_kept(lower).map(|(thing, _)| thing)
}

/// The option a short sentence (lower case) says is gone ([`gone`]), and whether it also
/// says what is kept: the rest, after "just" or "only" ("tuesday pickup is off just thurs
/// and sat"), or the choice an option is out of, which it names ("PH is out of the soft
/// launch.").
pub(super) fn gone_and_kept(lower: &str) -> Option<(&str, bool)> {
    const STATES: &[&str] = &["off", "out", "dead", "cancelled", "canceled", "scrapped"];
    const NOT_OPTIONS: &[&str] = &[
        "it",
        "that",
        "this",
        "he",
        "she",
        "they",
        "there",
        "i",
        "we",
        "you",
        "everyone",
        "everything",
        "power",
    ];
    // What may follow the state: for how long ("now", "for good").
    const GOES_ON: &[&str] = &["now", "for", "too", "anyway"];
    let lower = lower.trim();
    if lower.ends_with('?') {
        return None;
    }
    // The first "is" or "'s" a state follows, as a word.
    let (thing, state, after) = [" is ", "'s "].iter().find_map(|verb| {
        lower.match_indices(verb).find_map(|(at, _)| {
            let rest = &lower[at + verb.len()..];
            STATES.iter().find_map(|state| {
                let after = rest.strip_prefix(state)?;
                (!after.starts_with(char::is_alphanumeric)).then_some((&lower[..at], *state, after))
            })
        })
    })?;
    let named = bare_words(thing);
    let first = named.first()?;
    if named.len() > 3 || NOT_OPTIONS.contains(first) {
        return None;
    }
    let after = after.trim_start_matches(|c: char| c.is_whitespace() || c == ',');
    match bare_words(after).as_slice() {
        [] => Some((thing, false)),
        [w, ..] if GOES_ON.contains(w) => Some((thing, false)),
        ["just" | "only", _, ..] => Some((thing, true)),
        ["of", rest @ ..] if state == "out" && (1..=4).contains(&rest.len()) => Some((
            after["of".len()..].trim_matches(|c: char| !c.is_alphanumeric()),
            true,
        )),
        _ => None,
    }
}

/// The option one of the sentences or clauses of `lower` says is gone ([`gone`]).
fn said_gone(lower: &str) -> Option<&str> {
    sentences(lower)
        .into_iter()
        .flat_map(clauses)
        .find_map(|clause| gone(past_opener(clause)))
}

/// The verbs that drop a choice named after them ("scrap B", "scratch the 6", "Kill the
/// mousse.").
pub(super) const DROPS: &[&str] = &["scrap", "scratch", "ditch", "drop", "forget", "kill"];

/// The label of an option an override drops ("Let's scrap B and open with …", "forget
/// option 2"), as [`picked_label`] gives it.
fn dropped_label(said: &str) -> Option<String> {
    let words: Vec<&str> = said
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
        .collect();
    words.windows(3).find_map(|w| {
        let verb = crate::case::lowercase(w[0]);
        if !DROPS.contains(&verb.as_str()) && verb != "skip" {
            return None;
        }
        // "scrap B", "scrap b, go with (a)": not "scrap a …", "drop I …".
        let letter = w[1].len() == 1
            && w[1].chars().all(|c| c.is_ascii_alphabetic())
            && !one_of(w[1], &["I", "A", "i", "a"]);
        if letter {
            return Some(w[1].to_ascii_uppercase());
        }
        (crate::case::lowercase(w[1]) == "option"
            && w[2].len() <= 2
            && w[2].chars().all(|c| c.is_ascii_alphanumeric()))
        .then(|| w[2].to_ascii_uppercase())
    })
}

/// The number an override drops, named alone ("ok scratch the 6, let's do 4 mains" after
/// "Let's do 6 items!", "she really hates the 30 minute cut, … so we're landing on 40").
fn dropped_number(said: &str) -> Option<&str> {
    const DISLIKES: &[&str] = &["hate", "hates", "hated", "dislikes", "disliked"];
    let words: Vec<&str> = said
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
        .collect();
    words.windows(3).find_map(|w| {
        let number = if w[1].eq_ignore_ascii_case("the") {
            w[2]
        } else {
            w[1]
        };
        (DROPS
            .iter()
            .chain(DISLIKES)
            .any(|d| w[0].eq_ignore_ascii_case(d))
            && number.chars().all(|c| c.is_ascii_digit())
            && !number.is_empty())
        .then_some(number)
    })
}

/// The newest standing decision that set the number an override drops ([`dropped_number`]).
fn set_the_dropped_number(found: &[Instruction], said: &str, message: usize) -> Option<usize> {
    let number = dropped_number(said)?;
    found.iter().rposition(|i| {
        i.kind == Kind::Decision
            && i.superseded.is_none()
            && i.message != message
            && numbers(&i.text).iter().any(|n| n == number)
    })
}

/// What an override that names what it replaces as an alternative ("… instead of X", "…
/// rather than X"), not outright ("scratch X"), chooses over it: the last two words of
/// substance before the mark. `None` when it names no alternative.
fn chosen_instead(said: &str) -> Option<Vec<String>> {
    let lower = crate::case::lowercase(said);
    let before = ["instead of ", "rather than "]
        .iter()
        .find_map(|m| lower.split_once(m).map(|(before, _)| before))?;
    let clause = before.rsplit([',', ';', ':', '.']).next().unwrap_or(before);
    // "change the refresh to every 15 minutes instead of hourly": what it changes to, not
    // the thing changed.
    let to = clause
        .rsplit_once(" to ")
        .map(|(_, to)| subject_words(to))
        .filter(|to| !to.is_empty() && says_any(clause, CHANGE_VERBS));
    let mut words = to.unwrap_or_else(|| subject_words(clause));
    words.drain(..words.len().saturating_sub(2));
    Some(words)
}

/// Does a later clause drop an option ("oats for breakfast, forget the smoothie idea",
/// "Update on the booking software: forget Vetstoria, we're going with PetDesk")? To
/// forget to do something drops nothing.
pub(super) fn drops_a_choice(lower: &str) -> bool {
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
pub(super) fn opens_dropping(lower: &str) -> bool {
    let mut words = lower
        .split_whitespace()
        .skip_while(|w| LEADS.contains(&word(w)));
    let (Some(verb), Some(object)) = (words.next(), words.next()) else {
        return false;
    };
    // "nevermind on the risk acceptance, we upgrade jquery too"; not "nevermind, I
    // found it".
    (DROPS.contains(&word(verb)) || word(verb) == "nevermind")
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

/// Does a sentence take back what the user said before about a matter ("forget what i
/// said about the ten minute thing", "Ignore what I said about tabs.", "never mind the bit
/// about the deposit")?
pub(super) fn revokes(sentence: &str) -> bool {
    let lower = respelled(&crate::case::lowercase(sentence));
    ["what i said about", "the bit about", "the part about"]
        .iter()
        .flat_map(|what| lower.match_indices(what))
        .any(|(at, _)| {
            lower[..at]
                .split_whitespace()
                .next_back()
                .is_some_and(|verb| {
                    one_of(
                        verb,
                        &["forget", "ignore", "disregard", "scratch", "nevermind"],
                    )
                })
        })
}

/// Does a sentence take an earlier choice back outright, naming what replaces it
/// ("scratch Lightroom, moving to Capture One", "update: 4.2 goes out Tuesday", "the
/// caterer fell through, so Luigi's")?
pub(super) fn takes_back_outright(sentence: &str) -> bool {
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
    // "update: 2.1 goes out Wednesday", "Update: migrations are managed with Liquibase from
    // now on": news that sets something; not "Update: he's home!!".
    let labelled = ["update:", "new info:", "correction:"].iter().any(|label| {
        lower.strip_prefix(label).is_some_and(|rest| {
            kind_of(rest).is_some()
                || is_override(rest)
                || names_a_day(&rest.split_whitespace().collect::<Vec<_>>())
        })
    });
    !lower.ends_with('?')
        && !lower.contains("scratch that")
        && (labelled
            || OUTRIGHT
                .iter()
                .any(|m| contains_phrase(&lower, m) && (*m != "scratch" || scratches(&lower))))
        && lower.split_whitespace().count() >= 3
}

/// Words that are no thing of the work: pronouns, question words.
pub(super) const NOT_THINGS: &[&str] = &[
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
    // "the rest I'll go through tonight", "here's the first lot": the speaker and what
    // they do, never the thing a reply settles.
    "i'll",
    "we'll",
    "i'm",
    "we're",
    "i'd",
    "we'd",
    "i've",
    "we've",
    "here's",
];

pub(super) fn is_override(text: &str) -> bool {
    let lower = respelled(&crate::case::lowercase(text));
    let bare = |w: &&str| word(w).to_owned();
    // The first word, or the first after the openers ("Okay, forget Unity").
    let first = lower.split_whitespace().next().map(|w| bare(&w));
    let verb = first_words(&lower).first().map(bare);
    let opens = [first, verb]
        .into_iter()
        .flatten()
        .any(|w| OVERRIDE_OPENERS.contains(&w.as_str()));
    // "I'd rather not …" prefers against something, "I'd rather be cautious" says how the
    // speaker would be; neither takes anything back.
    let refuses = prefers_against(&lower) || rather_a_manner(&lower);
    opens
        || drops_a_choice(&lower)
        // "The crepeline is off; … Stabiltex it is.": an option said gone, then the new one.
        || said_gone(&lower).is_some()
        // "(Oh, and the title changed.) … 'Sunset Teahouse' it is.": news of a change.
        || announces_a_change(&lower)
        || changes_to(&lower)
        || named_anew(&lower)
        || scales(&lower).is_some()
        || takes_back_outright(text)
        // "Okay, about the start, final now: Regensburg.": a choice settled over the
        // ones before it.
        || labelled_final(&lower)
        // "they moved her to the 16th, so that's the date now", "she's now on the 23rd,
        // which I've accepted": a change that came, taken.
        || settled_as_the_one(&lower)
        || (accepted_after(&lower) && contains_phrase(&lower, "now"))
        || OVERRIDE_MARKS.iter().chain(REPLACING).any(|m| {
            contains_phrase(&lower, m)
                    && !(refuses && m.ends_with("rather"))
                    // "cook from scratch": no choice scratched.
                    && (*m != "scratch" || scratches(&lower))
        })
}

/// Does "scratch" take something back somewhere in `lower`, not start from nothing ("cook
/// from scratch")?
fn scratches(lower: &str) -> bool {
    lower
        .match_indices("scratch")
        .any(|(at, _)| !lower[..at].trim_end().ends_with("from"))
}

/// Does a sentence give a thing its new name, quoted, "now" ("The board voted on the name
/// and it's "Connected at Any Age" now", "it is now called "Harbor Lights"")? Not a
/// quote of what was said ("she said "it's fine" now and then").
pub(super) fn named_anew(lower: &str) -> bool {
    let quoted = |rest: &str| {
        let rest = rest.trim_start();
        let open = rest.chars().next().filter(|c| matches!(c, '"' | '“'))?;
        let inner = &rest[open.len_utf8()..];
        let close = inner.find(['"', '”'])?;
        let name = &inner[..close];
        (!name.trim().is_empty() && name.split_whitespace().count() <= 8)
            .then(|| inner[close..].chars().skip(1).collect::<String>())
    };
    ["it's ", "it is "].iter().any(|mark| {
        lower.match_indices(mark).any(|(at, m)| {
            quoted(&lower[at + m.len()..])
                .is_some_and(|after| after.trim_start().starts_with("now"))
        })
    }) || [
        "is now called ",
        "it's now called ",
        "now called ",
        "now calling it ",
    ]
    .iter()
    .any(|mark| {
        lower
            .match_indices(mark)
            .any(|(at, m)| quoted(&lower[at + m.len()..]).is_some())
    })
}

/// Does an opening message's sentence state the plan the work starts from ("I'm planning
/// to build the backend with Flask")? A plan to ask or tell something is not one.
pub(super) fn states_a_plan(lower: &str) -> bool {
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
pub(super) fn is_marking_word(word: &str) -> bool {
    STOP_WORDS.contains(&word)
        || [
            DECISION_IDIOMS,
            DECISION_MARKS,
            OVERRIDE_MARKS,
            REPLACING,
            OVERRIDE_OPENERS,
            RULE_MARKS,
            BINDING,
            PREFERS_AGAINST,
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
pub(super) struct Words {
    pub(super) about: Vec<String>,
    pub(super) said: Vec<String>,
    pub(super) own: Vec<String>,
    /// The values it sets, by kind ([`values_of`]).
    pub(super) values: Vec<Value>,
    /// The offer of choices it picked from, if one ([`about`]).
    pub(super) offer: Option<usize>,
    /// The label of the option it picked by label, if one ([`picked_label`]).
    pub(super) label: Option<String>,
    /// The message whose lettered list that label picks from ([`lettered_list_before`]).
    pub(super) list: Option<usize>,
}

impl Words {
    /// The words of an instruction read in the conversation: `text` as it stands, what it
    /// is about (with the `offer` it picked from) and its sentences' words (of `said`); the
    /// lettered list it picks from is the caller's to find, from its label.
    pub(super) fn read(text: &str, about: Vec<String>, said: &str, offer: Option<usize>) -> Self {
        Words {
            about,
            said: naming(said, subject_words(said)),
            own: naming(text, subject_words(text)),
            values: values_of(text),
            offer,
            label: picked_label(text),
            list: None,
        }
    }

    /// The words of an instruction read back from a summary's block: all its text.
    pub(super) fn of(text: &str) -> Self {
        let own = naming(text, subject_words(text));
        Words {
            about: own.clone(),
            said: own.clone(),
            own,
            values: values_of(text),
            offer: None,
            label: picked_label(text),
            list: None,
        }
    }
}

/// The label of an option a decision picks by it ("We'll go with option B", "Let's go with
/// C instead", "option 2 it is"): a lone capital letter after a word that picks, or the
/// letter or number after "option". Two picks by label from one lettered list are the
/// same choice, whatever else their words say.
pub(super) fn picked_label(text: &str) -> Option<String> {
    const PICKS: &[&str] = &[
        "with", "take", "pick", "choose", "for", "do", "try", "to", "think",
    ];
    // "B — it'll get people in the room", "(b), the 18-wk version": the letter it opens
    // with, set apart.
    if let Some(letter) = leads_with_a_letter(text) {
        return Some(letter.to_ascii_uppercase().to_string());
    }
    let raw: Vec<&str> = text.split_whitespace().collect();
    let words: Vec<&str> = raw
        .iter()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
        .collect();
    words.windows(2).enumerate().find_map(|(at, pair)| {
        let (before, label) = (crate::case::lowercase(pair[0]), pair[1]);
        // "we'll do A, two sessions a day": "A" set apart is a label, not an article.
        let apart = raw[at + 1] != label || at + 2 == raw.len();
        let letter = label.len() == 1
            && label.chars().all(|c| c.is_ascii_uppercase())
            && (!one_of(label, &["I", "A"]) || (label == "A" && apart));
        let after_option = one_of(before.as_str(), &["option", "options"])
            && label.len() <= 2
            && label.chars().all(|c| c.is_ascii_alphanumeric());
        (after_option || (letter && PICKS.contains(&before.as_str())))
            .then(|| label.to_ascii_uppercase())
    })
}

/// `words` (of `text`), with "name" and "title" where `text` names something ("we'll call
/// it 'Songs for a Winter Evening'", "Switching the name to Kindling", "change the title
/// to …"): the choice of a name is one choice, however it is said.
pub(super) fn naming(text: &str, mut words: Vec<String>) -> Vec<String> {
    const NAMING: &[&str] = &[
        "call it",
        "calling it",
        "called",
        "name",
        "named",
        "rename",
        "title",
        "titled",
        "retitle",
    ];
    if says_any(&crate::case::lowercase(text), NAMING) {
        for word in ["name", "title"] {
            if !words.iter().any(|w| w == word) {
                words.push(word.to_owned());
            }
        }
    }
    words
}

/// The words of substance of `text`: what it is about.
pub(crate) fn subject_words(text: &str) -> Vec<String> {
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

/// A sentence that offers a choice ("Sintra, Cascais or Évora?", "should we use Postgres
/// or SQLite?", "torn between ribs and a risotto"): the message it is in, and its words of
/// substance.
pub(super) struct Offer {
    pub(super) message: usize,
    pub(super) words: Vec<String>,
}

/// The choices offered in `messages`, by the user or the assistant, oldest first.
pub(super) fn offers_in(messages: &[&Message], is_output: &impl Fn(usize) -> bool) -> Vec<Offer> {
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
pub(super) fn about<'a>(
    kind: Kind,
    text: &str,
    at: usize,
    offers: impl Fn() -> &'a [Offer],
) -> (Vec<String>, Option<usize>) {
    let mut words = subject_words(text);
    let mut picked = None;
    if kind == Kind::Decision {
        let choice = offers()
            .iter()
            .enumerate()
            .filter(|(_, offer)| offer.message <= at)
            .map(|(index, offer)| (shared(&words, &offer.words), index, offer))
            .filter(|(n, _, _)| *n > 0)
            .max_by_key(|(n, _, offer)| (*n, offer.message));
        // Else the offer said in its own message ("I've thought about the writing tool
        // options. We're going with Word."): the choice it names is this one's.
        let choice = choice.map(|(_, index, offer)| (index, offer)).or_else(|| {
            offers()
                .iter()
                .enumerate()
                .rfind(|(_, offer)| offer.message == at)
        });
        if let Some((index, offer)) = choice {
            words.extend(offer.words.iter().cloned());
            picked = Some(index);
        }
    }
    crate::sort::sort_dedup(&mut words);
    (words, picked)
}

/// How many distinct words `a` and `b` both hold.
fn distinct_shared(a: &[String], b: &[String]) -> usize {
    let mut common: Vec<&String> = a.iter().filter(|w| b.contains(w)).collect();
    crate::sort::sort_dedup(&mut common);
    common.len()
}

/// How many of `a`'s words `b` holds.
pub(super) fn shared(a: &[String], b: &[String]) -> usize {
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
pub(super) fn restates(found: &[Instruction], words: &[Words], subject: &[String]) -> bool {
    found
        .iter()
        .zip(words)
        .filter(|(i, _)| i.kind == Kind::Decision && i.superseded.is_none())
        .any(|(_, w)| {
            let mut mine: Vec<&String> = subject.iter().collect();
            let mut theirs: Vec<&String> = w.said.iter().collect();
            for words in [&mut mine, &mut theirs] {
                crate::sort::sort_dedup(words);
            }
            // A slot of a schedule is not the choice: "Extrication at the salvage yard, Sat
            // wk 8, 0800-1200" restates nothing of "SCBA confidence course, Sat wk 3,
            // 0800-1200".
            let when = |w: &str| {
                SHORT_DAYS.contains(&w)
                    || (w.starts_with(|c: char| c.is_ascii_digit()) && w.contains(['-', ':']))
            };
            let common = mine
                .iter()
                .filter(|m| theirs.contains(m) && !when(m))
                .count();
            common >= 2 && common * 2 >= mine.len().min(theirs.len())
        })
}

/// The most words of substance an override says of its own and still points back at the
/// instruction before it.
pub(super) const POINTING_BACK_WORDS: usize = 3;

/// Does an override say it takes back what was said before ("scratch that", "ignore the
/// earlier instruction", "Forget A and B — go with C")?
pub(super) fn refers_back(said: &str) -> bool {
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
pub(super) fn starts_over(said: &str) -> bool {
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
pub(super) fn take_back_every_decision(found: &mut [Instruction], message: usize) {
    for earlier in found
        .iter_mut()
        .filter(|i| i.kind == Kind::Decision && i.superseded.is_none())
    {
        earlier.superseded = Some(message);
    }
}

/// Marks superseded the instruction an override said in message `message` names as what
/// it replaces ("a project-based assessment instead of a unit test"): of the earlier ones
/// of its kind still standing, said before its message, the one whose own sentences
/// share the most of the `named` words (for a thing set anew, `set_to` its new values: all
/// of them when few, and a date or time only for one that set a date or time); else one
/// of the other kind they name twice or
/// more ("Scratch the first person idea" takes back "The narrator is Mira, in first
/// person", read as a rule) — none, when it only turned down an option no one chose.
pub(super) fn take_back_named(
    found: &mut [Instruction],
    words: &[Words],
    (named, said): (&[String], &str),
    kind: Kind,
    message: usize,
    set_to: Option<&[Value]>,
) -> Option<usize> {
    // "Release moves to Thursday the 23rd" sets a date: it does not take back "we'll
    // paste the notes into the GitHub release", which set none.
    let sets_a_like_value = |w: &Words| {
        set_to.is_none_or(|new| {
            let when = |v: &Value| one_of(v.kind.as_str(), &["date", "time"]);
            !new.iter().any(when)
                || w.values
                    .iter()
                    .any(|old| when(old) && new.iter().any(|n| n.kind == old.kind))
        })
    };
    // What it chooses, said just before "instead of": one that chose it already is not
    // what it replaces ("all three recipes with the orzo instead of the bowls" restates
    // "scratch the burrito bowls, let's do the orzo instead").
    let instead = chosen_instead(said);
    let chosen = instead.as_deref().unwrap_or_default();
    let best = |same_kind: bool, least: usize| {
        found
            .iter()
            .zip(words)
            .enumerate()
            .filter(|(_, (i, w))| {
                (i.kind == kind) == same_kind
                    && i.superseded.is_none()
                    && i.message != message
                    && shared(chosen, &w.own) == 0
                    && sets_a_like_value(w)
            })
            // Tied on its sentences' words, the one whose whole text names more of it
            // ("Config: … Config file in TOML, …" over "… exclude metadata file").
            .map(|(at, (_, w))| ((shared(named, &w.said), shared(named, &w.own)), at))
            // A thing set anew is named by all its words in the text, when few: "move the
            // run window to 01:00" does not take back "two weeks of dual-run".
            // One of the other kind, by its whole text: "kill the Marlow lede" takes back
            // "Lede is the Marlow scene. … Draft me a nut graf …, 80 words max", a rule by
            // its last sentence.
            .filter(|&((n, whole_text), _)| {
                (if same_kind { n } else { whole_text }) >= least
                    && (set_to.is_none() || named.len() > 3 || whole_text >= named.len())
            })
            .max()
    };
    // Half the words it names, at the least: "rather than a long list of rules" does not
    // take back "we've had a long discussion … offsite storage". One of the other kind
    // only when the override takes it back outright ("Scratch the first person idea"): an
    // alternative it names ("… instead of the slide deck") is a choice, not a rule that
    // speaks of slides.
    let least = named.len().div_ceil(2).max(1);
    let outright = instead.is_none();
    let (_, at) = best(true, least).or_else(|| outright.then(|| best(false, 2)).flatten())?;
    found[at].superseded = Some(message);
    Some(at)
}

/// Marks superseded what an override (`turn`, its instruction's text and the sentences
/// that make it one in `said`) takes back: every decision when it starts over, what it
/// names as replaced ("instead of X") or set anew ("change the deadline to …"), else what
/// [`supersede`] finds. Returns the one it
/// took back, when it took back one.
pub(super) fn take_back(
    found: &mut [Instruction],
    words: &[Words],
    turn: &Turn,
    (text, said): (&str, &str),
    override_said: bool,
) -> Option<usize> {
    if turn.kind == Kind::Decision && override_said && starts_over(text) {
        take_back_every_decision(found, turn.message);
        None
    } else if let Some(at) = (turn.kind == Kind::Decision)
        .then(|| {
            scaled(found, words, turn, &crate::case::lowercase(text))
                .or_else(|| recast(found, text, turn.message).map(Some))
        })
        .flatten()
    {
        // "Halve it, mate.": the amount it names, or none; "Devon gets Puck.": who had it.
        let at = at?;
        found[at].superseded = Some(turn.message);
        Some(at)
    } else if let Some(at) = dropped_label(said).and_then(|label| {
        found.iter().zip(words).rposition(|(i, w)| {
            i.kind == turn.kind
                && i.superseded.is_none()
                && i.message != turn.message
                && w.label.as_deref() == Some(label.as_str())
        })
    }) {
        // "Let's scrap B and open with the walk-in story instead" takes back "Let's do B."
        found[at].superseded = Some(turn.message);
        Some(at)
    } else if let Some(at) = (turn.kind == Kind::Decision)
        .then(|| set_the_dropped_number(found, said, turn.message))
        .flatten()
    {
        found[at].superseded = Some(turn.message);
        Some(at)
    } else if replaced(said).is_some() {
        // Each sentence's own: news before the override ("… she wants us aligned now rather
        // than retraining in 3 months. Scrap ISBAR, switch to I-PASS.") may name what
        // nobody chose.
        sentences(said)
            .into_iter()
            .rev()
            .filter_map(|sentence| replaced(sentence).map(|named| (named, sentence)))
            .find_map(|(named, sentence)| {
                take_back_named(
                    found,
                    words,
                    (&named, sentence),
                    turn.kind,
                    turn.message,
                    None,
                )
            })
            // "So make it five beds instead of four": what it replaces is a count, named
            // by its number alone.
            .or_else(|| {
                let at = (turn.kind == Kind::Decision)
                    .then(|| value_set_anew(found, words, (text, text), &turn.read.said))
                    .flatten()?;
                found[at].superseded = Some(turn.message);
                Some(at)
            })
    } else if let Some(at) = (turn.kind == Kind::Decision)
        .then(|| {
            is_not(found, words, text, turn.message)
                .or_else(|| value_set_anew(found, words, (text, text), &turn.read.said))
                // "Actually, switch the report to option B" after "Option C.": one list.
                .or_else(|| picked_by_label(found, words, (text, turn.read.list), turn.message))
        })
        .flatten()
    {
        found[at].superseded = Some(turn.message);
        Some(at)
    } else if let Some(named) = changed_thing(said) {
        // A thing set anew that no earlier instruction named ("Change the deadline to 7
        // days to start the work" after "Let's give him 14 days to start the work"): the
        // one whose value it sets again, if one.
        take_back_named(
            found,
            words,
            (&named, said),
            turn.kind,
            turn.message,
            Some(turn.values),
        )
        .or_else(|| set_again(found, words, turn))
    } else {
        supersede(found, words, turn)
    }
}

/// Marks superseded the standing instruction of the same kind whose value an override sets
/// anew, by other words ("Change the deadline to 7 days to start the work" after "Let's
/// give him 14 days to start the work"): two words of substance in common and a value of
/// the same kind, or a number, changed; the newest of those that share the most. None where no value
/// changed: "Move the run window to 01:00 UTC" sets a thing no one chose yet.
fn set_again(found: &mut [Instruction], words: &[Words], turn: &Turn) -> Option<usize> {
    let new = numbers(turn.text);
    let at = found
        .iter()
        .zip(words)
        .enumerate()
        .filter(|(_, (i, w))| {
            let old = numbers(&i.text);
            i.kind == turn.kind
                && i.superseded.is_none()
                && i.message != turn.message
                && (changed(turn.values, &w.values) > 0
                    || (!old.is_empty() && new.iter().any(|n| !old.contains(n))))
        })
        .map(|(at, (_, w))| (shared(&turn.read.said, &w.own), at))
        .filter(|&(n, _)| n >= 2)
        .max()
        .map(|(_, at)| at)?;
    found[at].superseded = Some(turn.message);
    Some(at)
}

/// The numbers `text` writes in digits, as written ("3,200", "4:15", "2-3-1").
fn numbers(text: &str) -> Vec<String> {
    text.split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_ascii_alphanumeric()))
        .filter(|w| w.starts_with(|c: char| c.is_ascii_digit()))
        .map(str::to_owned)
        .collect()
}

/// What a decision says it is not, after its choice ("actually make it 21 days not 30",
/// "so space theme, not dinos", "Region is eu-central-1, not eu-west-1"): its words of
/// substance and its numbers. After a comma, or after a number; a few words to the end of
/// the clause, not "not sure", "not yet".
fn said_not(said: &str) -> Option<(Vec<String>, Vec<String>)> {
    let lower = crate::case::lowercase(said);
    lower.match_indices(" not ").find_map(|(at, mark)| {
        let before = lower[..at].trim_end();
        // "21 days not 30": a value in its last two words.
        let after_value = before
            .rsplit(' ')
            .take(2)
            .any(|w| w.starts_with(|c: char| c.is_ascii_digit()));
        if !(before.ends_with(',') || after_value) {
            return None;
        }
        let rest = &lower[at + mark.len()..];
        let end = rest
            .find([',', ';', '!', '?', '—', '(', '.'])
            .unwrap_or(rest.len());
        let named = &rest[..end];
        let first = bare_words(named).first().copied().unwrap_or("");
        let count = bare_words(named).len();
        if !(1..=4).contains(&count) || is_marking_word(first) || NOT_A_NAME.contains(&first) {
            return None;
        }
        Some((subject_words(named), numbers(named)))
    })
}

/// Words after "not" that say how, not what ("not sure", "not yet", "not too long").
const NOT_A_NAME: &[&str] = &[
    "sure",
    "yet",
    "too",
    "that",
    "just",
    "really",
    "quite",
    "only",
    "even",
    "at",
    "so",
    "as",
    "very",
    "now",
    "anymore",
    "necessarily",
    "exactly",
    "bad",
    "great",
    "ideal",
];

/// The standing decision a decision says it is not ([`said_not`]), by its words or
/// numbers: "actually make it 21 days not 30" is not "lets do 30 days from delivery".
/// The newest of those that name the most of it.
pub(super) fn is_not(
    found: &[Instruction],
    words: &[Words],
    said: &str,
    message: usize,
) -> Option<usize> {
    let (named, numbered) = said_not(said)?;
    found
        .iter()
        .zip(words)
        .enumerate()
        .filter(|(_, (i, _))| {
            i.kind == Kind::Decision && i.superseded.is_none() && i.message != message
        })
        .map(|(at, (i, w))| {
            let old = numbers(&i.text);
            (
                shared(&named, &w.own) + numbered.iter().filter(|n| old.contains(n)).count(),
                at,
            )
        })
        .filter(|&(n, _)| n > 0)
        .max()
        .map(|(_, at)| at)
}

/// The kind of an instruction said in `message` as `kind`, read beside those standing: a
/// rule's form whose "not" names a choice still standing is a decision that replaces it
/// ("so space theme, not dinos" after "she picked the dino dig").
pub(super) fn kind_as_said(
    kind: Kind,
    found: &[Instruction],
    words: &[Words],
    text: &str,
    message: usize,
) -> Kind {
    if kind == Kind::Rule && is_not(found, words, text, message).is_some() {
        Kind::Decision
    } else {
        kind
    }
}

/// An override as [`supersede`] reads it.
pub(super) struct Turn<'a> {
    /// The message it is said in.
    pub(super) message: usize,
    pub(super) kind: Kind,
    /// Its words: what it is about with the choice it makes, the words of substance of its
    /// own sentences, the offer of choices and the lettered list it picked from, if any.
    pub(super) read: &'a Words,
    /// Those of what it says before its reasons ("Update: the migrations are managed with
    /// Sqitch from now on — our platform team standardised on it company-wide").
    pub(super) head: &'a [String],
    /// Those of its whole message.
    pub(super) around: &'a [String],
    /// The values it sets ([`values_of`]).
    pub(super) values: &'a [Value],
    /// Its text.
    pub(super) text: &'a str,
    /// Does it say it takes back what was said before ("scratch that")?
    pub(super) points_back: bool,
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
pub(super) fn supersede(found: &mut [Instruction], words: &[Words], turn: &Turn) -> Option<usize> {
    let Turn {
        message,
        kind,
        read,
        head,
        around,
        values,
        text,
        points_back,
    } = *turn;
    let (about, said, offer, list) = (&read.about[..], &read.said[..], read.offer, read.list);
    // What the same message said stands beside it: "We'll do the cabinets in sage green.
    // On second thought, butcher block on the island" takes back an earlier word on the
    // countertops, not the cabinets it has just decided. And a message that took one back
    // already ("Change of plan on the hours, sorry! We'll open Tuesday to Sunday") takes
    // back another only by its own words.
    let again = found.iter().any(|i| i.message == message && i.overrides);
    let best = found
        .iter()
        .enumerate()
        .filter(|(_, i)| i.kind == kind && i.superseded.is_none() && i.message != message)
        // Its own words first ("close third person" replaces "first person from Mira's
        // point of view", not a choice whose options spoke of chapters), then the choice.
        // What it says before its reasons counts first: a word its reason shares with an
        // unrelated choice ("company-wide") weighs less than one of its subject.
        // A rule stands until one of its own subject is said anew: two distinct words of
        // substance in common ("never promise a date for a refund in any macro" leaves
        // "keep every macro under 120 words" standing).
        .filter(|(at, _)| kind == Kind::Decision || distinct_shared(said, &words[*at].own) >= 2)
        .map(|(at, _)| {
            let own = shared(said, &words[at].own);
            (
                own + shared(head, &words[at].own),
                // Between those its words name alike, the one whose value of the same
                // kind it sets anew ("a 40 gallon unit instead" replaces "a 50 gallon gas
                // tank", not the plumber hired since).
                changed(values, &words[at].values),
                // The choice: words the two share by the offer each picked from, only when
                // it is the same offer.
                if offer.is_some() && offer == words[at].offer {
                    shared(about, &words[at].about)
                } else {
                    0
                },
                at,
            )
        })
        .filter(|&(own, _, choice, _)| own >= 2 || (choice >= 2 && !again))
        .max();
    // The one just before, for an override that points back and names little of its own
    // ("scratch that, let's wrap them instead", "Actually, make it MySQL"); one that names
    // its subject ("revisit the point of view: go with close third person") and matches
    // nothing replaces nothing.
    // Not one that goes back to what it names ("Back to the lab."): that is not the one
    // before.
    let lower = crate::case::lowercase(text);
    let points_back = (points_back
        || (kind == Kind::Decision && said.len() <= POINTING_BACK_WORDS))
        && !sentences(&lower).into_iter().any(goes_back_to);
    let named_around = || {
        found
            .iter()
            .enumerate()
            // A decision alone: a rule stands until its own words are taken back.
            .filter(|(_, i)| {
                kind == Kind::Decision
                    && i.kind == kind
                    && i.superseded.is_none()
                    && i.message != message
            })
            // Words of the message's other sentences: one the override's own reasons share
            // ("… I like the pale birch look") names nothing.
            .map(|(at, _)| {
                let n = words[at]
                    .own
                    .iter()
                    .filter(|w| around.contains(w) && !said.contains(w))
                    .count();
                (n, at)
            })
            .filter(|&(n, at)| n > 0 && !again && sets_alike(values, &words[at].values))
            .max()
            .map(|(_, at)| at)
    };
    let at = holds_the_value_dropped(found, words, turn)
        .or_else(|| value_moved(found, words, turn))
        .or_else(|| moved_by_a_span(found, turn, &lower))
        .or(best.map(|(_, _, _, at)| at))
        .or_else(|| {
            (kind == Kind::Decision && !again)
                .then(|| picked_by_label(found, words, (text, list), message))
                .flatten()
        })
        .or_else(named_around)
        .or_else(|| named_twice(found, words, turn))
        .or_else(|| {
            let last = found.len().checked_sub(1)?;
            (points_back
                && found[last].kind == kind
                && found[last].superseded.is_none()
                && sets_alike(values, &words[last].values))
            .then_some(last)
        });
    let at = at?;
    found[at].superseded = Some(message);
    Some(at)
}

/// The newest standing decision that cast another in the part a decision casts ("Devon
/// gets Puck." after "Maya is our Puck!").
fn recast(found: &[Instruction], text: &str, message: usize) -> Option<usize> {
    let cast_in = |text: &str| sentences(text).into_iter().find_map(cast);
    let (who, part) = cast_in(text)?;
    found.iter().rposition(|i| {
        i.kind == Kind::Decision
            && i.superseded.is_none()
            && i.message != message
            && cast_in(&i.text).is_some_and(|(other, same)| same == part && other != who)
    })
}

/// What a decision that scales an amount ([`scales`]) takes back ("Halve it, mate." after
/// "Let's do 80k …"; "CEO wants a tighter loop on the status calls. Halve that." after
/// "Status calls every 2h"): of the standing instructions of either kind, the one that
/// holds the numbers its message names ("20's too slow … Halve that." after "Lookback 20
/// days."), else the one its words name most (the thing it names, or those around a
/// "that" it points with), a decision before a rule, the newest of those tied; with
/// nothing named, the newest decision that holds a number. `None` when it does not scale; `Some(None)` when it
/// scales nothing said.
fn scaled(
    found: &[Instruction],
    words: &[Words],
    turn: &Turn,
    lower: &str,
) -> Option<Option<usize>> {
    let (sentence, thing) = sentences(lower)
        .into_iter()
        .find_map(|s| scales(s).map(|thing| (s, thing.join(" "))))?;
    // Digits of a number, with what follows them ("20's", "5-day") left out.
    let digits = |text: &str| -> Vec<String> {
        numbers(text)
            .iter()
            .map(|n| n.chars().take_while(char::is_ascii_digit).collect())
            .collect()
    };
    let counts = digits(turn.text);
    let its_own = if thing.is_empty() {
        subject_words(sentence)
    } else {
        Vec::new()
    };
    let at = found
        .iter()
        .enumerate()
        .filter(|(_, i)| i.superseded.is_none() && i.message != turn.message)
        .map(|(at, i)| {
            let numbers: usize = digits(&i.text)
                .iter()
                .filter(|n| counts.contains(n))
                .map(String::len)
                .sum();
            // The thing named as said ("the hiring plan": "Also hiring plan: …") counts
            // as two words.
            let said_so =
                !thing.is_empty() && contains_phrase(&crate::case::lowercase(&i.text), &thing);
            let named = turn
                .around
                .iter()
                .filter(|w| !its_own.contains(w) && words[at].own.contains(w))
                .count()
                + 2 * usize::from(said_so);
            // One of the other kind by its numbers or two words: "… half of them wandered
            // back late. Let's halve that" does not scale "we always close the first half
            // with something a cappella".
            let same = i.kind == turn.kind;
            let named_enough = numbers > 0 || named >= if same { 1 } else { 2 };
            let counts = same && i.text.contains(|c: char| c.is_ascii_digit());
            ((numbers, named, same), named_enough || counts, at)
        })
        .filter(|&(_, named_or_counts, _)| named_or_counts)
        .max()
        .map(|(_, _, at)| at);
    Some(at)
}

/// The newest standing decision that set a date or a time, for a decision that moves one
/// by a span ("Slide it a week later." after "Going Oct 10–20."), or says a date or a time
/// instead in a few words ("so. friday the 13th instead lol." after "ok lets do
/// thursday."), whatever else its message says.
fn moved_by_a_span(found: &[Instruction], turn: &Turn, lower: &str) -> Option<usize> {
    let moves = turn.kind == Kind::Decision
        && sentences(lower).into_iter().any(|sentence| {
            let words = bare_words(past_opener(sentence));
            shifts_by_a_span(&words)
                || (words.contains(&"instead") && words.len() <= 6 && sets_a_date_or_time(sentence))
        });
    if !moves {
        return None;
    }
    (0..found.len()).rev().find(|&at| {
        found[at].kind == Kind::Decision
            && found[at].superseded.is_none()
            && found[at].message != turn.message
            && sets_a_date_or_time(&found[at].text)
    })
}

/// The newest standing instruction, of either kind, that set the value an override names
/// as the one it drops ("has asked us to request $45,000 rather than $48,000" replaces "the
/// request should be $48,000"): the value names it whole.
fn holds_the_value_dropped(found: &[Instruction], words: &[Words], turn: &Turn) -> Option<usize> {
    let lower = crate::case::lowercase(turn.text);
    let dropped: Vec<Value> = [" rather than ", " instead of "]
        .iter()
        .filter_map(|mark| lower.split_once(mark))
        .flat_map(|(_, rest)| {
            let end = rest.find([';', '—', '(']).unwrap_or(rest.len());
            let near: Vec<&str> = rest[..end].split_whitespace().take(4).collect();
            values_of(&near.join(" "))
        })
        .collect();
    if dropped.is_empty() {
        return None;
    }
    found.iter().enumerate().rev().find_map(|(at, i)| {
        (i.superseded.is_none()
            && i.message != turn.message
            && words[at].values.iter().any(|v| dropped.contains(v)))
        .then_some(at)
    })
}

/// The newest standing decision whose value the override's message names beside a new
/// value of the same kind: "the 28th is the school's harvest fete … Change of plan: we're
/// moving it to Saturday 5 October." replaces "Let's go with C, the 28th.", not "Our
/// window is September to mid-October", though the window shares the month.
fn value_moved(found: &[Instruction], words: &[Words], turn: &Turn) -> Option<usize> {
    if turn.kind != Kind::Decision {
        return None;
    }
    // Named beside it, not in the sentence that overrides ("… a start date of 1 January
    // 2027 instead" names no other decision's "2027").
    let own = values_of(overriding_sentence(turn.text));
    // "Said 650 leaves money on the table … Bump it to 700." after "$650": a number set
    // alone, beside the old one named without its sign.
    let alone = number_set_alone(&crate::case::lowercase(turn.text));
    // "$650" named "650", "4:58/km" named "4:58".
    fn bare(w: &str) -> &str {
        let w = w.trim_start_matches(['$', '€', '£']);
        match w.split_once('/') {
            Some((figure, unit)) if unit.chars().all(char::is_alphabetic) => figure,
            _ => w,
        }
    }
    found.iter().enumerate().rev().find_map(|(at, i)| {
        (i.kind == Kind::Decision
            && i.superseded.is_none()
            && i.message != turn.message
            && words[at].values.iter().any(|old| {
                let written = bare(&old.written);
                turn.around.iter().any(|w| bare(w) == written)
                    && !own.iter().any(|v| v.written == old.written)
                    && (turn
                        .values
                        .iter()
                        .any(|new| new.kind == old.kind && new != old)
                        || alone.is_some_and(|n| said_number(written) != Some(n)))
            }))
        .then_some(at)
    })
}

/// Did an instruction that an override names by its place or by words around it set
/// what the override sets (`old` beside `new`)? "push it to the 16th" moves a date, not
/// the question before it.
fn sets_alike(new: &[Value], old: &[Value]) -> bool {
    new.iter()
        .all(|v| !MEASURES.contains(&v.kind.as_str()) || old.iter().any(|o| o.kind == v.kind))
}

/// One of the other kind than `turn` that its own words name twice or more: "scratch the
/// first person thing, it's close third on Ada" replaces "the narrator is Ada, in first
/// person", read as a rule. Not when all that made it an override is a preference said
/// with a pick ("Page at `> 1800` … I'd rather be early"): a rule of the same words ("…
/// routes to tickets, never pages") stands.
fn named_twice(found: &[Instruction], words: &[Words], turn: &Turn) -> Option<usize> {
    let lower = crate::case::lowercase(turn.text);
    if says_any(&lower, &["i'd rather", "we'd rather"])
        && !is_override(&lower.replace("i'd rather", "").replace("we'd rather", ""))
    {
        return None;
    }
    found
        .iter()
        .enumerate()
        .filter(|(at, i)| {
            i.kind != turn.kind
                && i.superseded.is_none()
                && i.message != turn.message
                && sets_alike(turn.values, &words[*at].values)
        })
        .map(|(at, _)| (shared(&turn.read.said, &words[at].own), at))
        .filter(|&(n, _)| n >= 2)
        .max()
        .map(|(_, at)| at)
}

/// The newest standing decision picked by another label, for a decision said in `message`
/// that picks by label (`text`: "Let's go with C instead" replaces "We'll go with option
/// B"): options labelled alike are one list. One that picked from the same lettered
/// `list` first.
fn picked_by_label(
    found: &[Instruction],
    words: &[Words],
    (text, list): (&str, Option<usize>),
    message: usize,
) -> Option<usize> {
    let label = picked_label(text)?;
    let newest = |same_list: bool| {
        found.iter().enumerate().rev().find_map(|(at, i)| {
            let other = words[at].label.as_deref()?;
            (i.kind == Kind::Decision
                && i.superseded.is_none()
                && i.message != message
                && other != label
                && (!same_list || (list.is_some() && words[at].list == list)))
                .then_some(at)
        })
    };
    newest(true).or_else(|| newest(false))
}

/// Does a decision (`read`) pick by another label from the lettered list a standing
/// decision picked from ("So actually we'll do A, two sessions a day" after "I think B
/// suits me best")? The same choice made anew, though no word marks it as a change.
fn picks_again_from_its_list(found: &[Instruction], words: &[Words], read: &Words) -> bool {
    let Some(label) = read.label.as_deref() else {
        return false;
    };
    read.list.is_some()
        && found.iter().zip(words).any(|(i, w)| {
            i.kind == Kind::Decision
                && i.superseded.is_none()
                && w.list == read.list
                && w.label.as_deref().is_some_and(|other| other != label)
        })
}

/// A value an instruction sets: its kind (money, a share, a date, a time, a split, or the
/// unit it counts) and how it is written.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Value {
    kind: String,
    written: String,
}

/// The values `text` sets ("$28", "40%", "May 4", "7:30", "60/40", "40 gallon", "48in",
/// "3,200 kcal", "eight weeks", "**3 screens**"), each with its kind (money, a share, a
/// time, a split, a date, or the thing it counts, singular), for telling an instruction
/// that sets the same thing to another value.
pub(super) fn values_of(text: &str) -> Vec<Value> {
    let lower = crate::case::lowercase(text);
    let tokens: Vec<&str> = lower
        .split_whitespace()
        // "**$28", "40%,", "screens**.": a currency sign leads, a percent sign ends.
        .map(|t| {
            t.trim_start_matches(|c: char| !c.is_alphanumeric() && !"$€£".contains(c))
                .trim_end_matches(|c: char| !c.is_alphanumeric() && c != '%')
        })
        .filter(|t| !t.is_empty())
        .collect();
    let mut out = Vec::new();
    let value = |kind: &str, written: &str| Value {
        kind: kind.to_owned(),
        written: written.to_owned(),
    };
    for (at, token) in tokens.iter().enumerate() {
        let digits = token.trim_start_matches(['$', '€', '£']);
        let next = tokens.get(at + 1).copied();
        // What it counts: a word of substance, or a span of time ("30 days").
        let unit = next.filter(|n| {
            n.len() > 1
                && n.chars().all(char::is_alphabetic)
                && (!is_marking_word(n) || span_of_time(n).is_some())
        });
        if let Some(words) = time_in_words(&tokens[at..]) {
            out.push(value("time", &tokens[at..at + words].join(" ")));
            continue;
        }
        if !digits.starts_with(|c: char| c.is_ascii_digit()) {
            // "eight weeks", not "one of" nor "a week".
            if let Some(unit) = unit.filter(|_| is_number(token) && !one_of(token, &["one", "a"])) {
                out.push(value(unit_of(unit), token));
            }
            continue;
        }
        let number_end = digits
            .find(|c: char| !(c.is_ascii_digit() || c == ',' || c == '.'))
            .unwrap_or(digits.len());
        let (number, suffix) = digits.split_at(number_end);
        let before = at.checked_sub(1).map(|b| tokens[b]);
        let found = if digits.len() != token.len() {
            value("money", token)
        } else if suffix == "%" {
            value("share", token)
        } else if suffix.starts_with(['/', ':']) {
            value(
                if suffix.starts_with(':') {
                    "time"
                } else {
                    "split"
                },
                token,
            )
        } else if one_of(suffix, &["am", "pm"]) || next.is_some_and(|n| one_of(n, &["am", "pm"])) {
            value("time", token)
        } else if before.is_some_and(|b| MONTHS.contains(&b))
            || next.is_some_and(|n| MONTHS.contains(&n))
            || one_of(suffix, &["st", "nd", "rd", "th"])
        {
            value("date", token)
        } else if let Some(unit) = suffix
            .strip_prefix('-')
            .or((!suffix.is_empty()).then_some(suffix))
            .or(unit)
        {
            value(unit_of(unit), number)
        } else {
            continue;
        };
        out.push(found);
    }
    out
}

/// How many of the first `tokens` (lower case) say a time of day in words ("quarter to
/// five", "half past 6", "nine o'clock", "six-forty", "noon"), if they do.
pub(super) fn time_in_words(tokens: &[&str]) -> Option<usize> {
    let hour = |w: &str| {
        said_number(w)
            .or_else(|| w.parse().ok())
            .is_some_and(|n| (1..=12).contains(&n))
    };
    match tokens {
        ["quarter" | "half", "to" | "past", h, ..] if hour(h) => Some(3),
        [h, "o'clock" | "oclock", ..] if hour(h) => Some(2),
        ["noon" | "midday" | "midnight", ..] => Some(1),
        [w, ..] => w
            .split_once('-')
            .filter(|(h, m)| {
                hour(h) && one_of(m, &["ten", "fifteen", "twenty", "thirty", "forty", "fifty"])
            })
            .map(|_| 1),
        [] => None,
    }
}

/// Does `text` hold a date or a time of day ("the 18th", "2pm", "01:30")?
pub(super) fn sets_a_date_or_time(text: &str) -> bool {
    values_of(text)
        .iter()
        .any(|v| one_of(v.kind.as_str(), &["date", "time"]))
}

/// Is `text` a time of day and at most a word more ("01:30 UTC", "9am", "7 pm.")?
pub(super) fn is_a_time(text: &str) -> bool {
    text.split_whitespace().count() <= 2
        && text.trim_start().starts_with(|c: char| c.is_ascii_digit())
        && values_of(text).first().is_some_and(|v| v.kind == "time")
}

/// The span of time a word counts in ("days" -> "day"), if it is one.
pub(super) fn span_of_time(word: &str) -> Option<&str> {
    let one = word.strip_suffix('s').unwrap_or(word);
    one_of(one, &["day", "week", "month", "year"]).then_some(one)
}

/// What a number counts, one of it: "3 days" and "1 day" count the same thing.
fn unit_of(word: &str) -> &str {
    span_of_time(word).unwrap_or_else(|| singular(word))
}

/// The kinds of value that are not a count of a thing.
const MEASURES: &[&str] = &["split", "share", "date", "time", "money"];

/// Does `new` count a thing `old` counted by another number ("5 screens" after "3
/// screens", "eight weeks" after "six weeks")?
fn recounts(new: &[Value], old: &[Value]) -> bool {
    new.iter().any(|n| {
        !MEASURES.contains(&n.kind.as_str())
            && old
                .iter()
                .any(|o| o.kind == n.kind && o.written != n.written)
    })
}

/// How many kinds of value `new` sets to another value than `old` did.
fn changed(new: &[Value], old: &[Value]) -> usize {
    let mut kinds: Vec<&str> = new
        .iter()
        .filter(|n| old.iter().any(|o| o.kind == n.kind) && !old.iter().any(|o| o == *n))
        .map(|n| n.kind.as_str())
        .collect();
    crate::sort::sort_dedup(&mut kinds);
    kinds.len()
}

/// Does a decision (`said` in `message`, its words of substance `subject`) decide again what
/// one of an earlier message still standing decided, said without a mark of an override: it
/// restates its choice ([`restates`]), picks another label from its lettered `list`, or sets
/// anew a thing that one named ("moving the race to May 4" after "The race is going to be
/// April 27")? A deal done carries a choice out.
pub(super) fn decides_again(
    found: &[Instruction],
    words: &[Words],
    (text, said, message): (&str, &str, usize),
    read: &Words,
) -> bool {
    let subject = &read.said;
    // What the same message decided stands beside it ("Car was white …, I can see yellow
    // in the door shuts. I'm going with Jasmine Yellow"): not decided again. The
    // instructions found so far end with those of the message being read.
    let before = found
        .iter()
        .rposition(|i| i.message != message)
        .map_or(0, |at| at + 1);
    let (found, words) = (&found[..before], &words[..before]);
    !reports_a_deal(said)
        && (restates(found, words, subject)
            || picks_again_from_its_list(found, words, read)
            || changed_thing(said).is_some_and(|thing| names_a_decision(found, words, &thing))
            || sets_again(found, words, said)
            || recast(found, text, message).is_some()
            || is_not(found, words, said, usize::MAX).is_some()
            || value_set_anew(found, words, (said, text), subject).is_some())
}

/// Does a decision point at a value it sets anew ("Make it every eight weeks", "Bump it
/// to 3,500 kcal a day", "Final count: **3 screens**.", "Duck at 28 now.", "So it will be
/// Sunday the 20th")?
fn points_at_a_value(lower: &str) -> bool {
    const VERBS: &[&str] = &[
        "make", "bump", "raise", "lower", "drop", "push", "cut", "change", "up", "increase",
        "reduce", "bring", "move", "set", "shift", "slide", "reset", "take", "pare", "trim",
        "stretch",
    ];
    let words = bare_words(past_opener(lower));
    let order = past_lets(&words);
    // "Make it every eight weeks", "Let's bring it down to 250 words", "Change the ratio
    // to 60/40 then", "make the contingency 15%".
    let sets_it = match order {
        [verb, "it", ..] => VERBS.contains(verb),
        [verb, "the" | "our" | "ours" | "my", ..] => {
            VERBS.contains(verb) && (*verb == "make" || order.iter().take(6).any(|w| *w == "to"))
        }
        _ => false,
    };
    // "so it's 17-19 Oct now", "the strings deadline is now 21 March".
    let now = words.last() == Some(&"now")
        || words
            .windows(2)
            .any(|w| matches!(w, ["is" | "it's" | "are", "now"]));
    sets_it || labelled_final(lower) || now || will_be_a_day(lower)
}

/// The standing decision whose value a decision sets anew, pointing at it
/// ([`points_at_a_value`]): the newest that counts the same thing by another number
/// ("Make it every eight weeks" after "a minor release every six weeks"), or, said with
/// "now", one of the same subject by another number ("Duck at 28 now" after "Duck goes at
/// 26"), or one whose value the message (`text`) names beside the new ([`named_beside`]).
pub(super) fn value_set_anew(
    found: &[Instruction],
    words: &[Words],
    (said, text): (&str, &str),
    subject: &[String],
) -> Option<usize> {
    let lower = crate::case::lowercase(said);
    // The clause that sets it, after news ("My neighbour gave me sleepers. So make it
    // five beds instead of four.", "Sam wants more padding, so make the contingency 15%").
    if !sentences(&lower)
        .into_iter()
        .any(|sentence| points_at_a_value(sentence) || clauses(sentence).any(points_at_a_value))
    {
        return None;
    }
    let new = values_of(said);
    let new_numbers = numbers(said);
    let now = sentences(&lower)
        .into_iter()
        .any(|sentence| bare_words(sentence).last() == Some(&"now"));
    found
        .iter()
        .zip(words)
        .enumerate()
        .rev()
        .filter(|(_, (i, _))| i.kind == Kind::Decision && i.superseded.is_none())
        .find(|(_, (i, w))| {
            let recounted = recounts(&new, &w.values);
            let old_numbers = numbers(&i.text);
            let renumbered = now
                && shared(subject, &w.own) >= 1
                && !old_numbers.is_empty()
                && new_numbers.iter().any(|n| !old_numbers.contains(n));
            recounted || renumbered
        })
        .map(|(at, _)| at)
        .or_else(|| sole_of_its_kind(found, words, &new))
        .or_else(|| sole_count(found, words, number_set_alone(&lower)?))
        .or_else(|| named_beside(found, words, &values_of(text)))
}

/// The newest standing decision whose value a decision names beside a new value of the
/// same kind ("7:05 squeezes R-07A too tight … Make it 7:00 flat." after "Move it to
/// 7:05."): a measure, named whole.
fn named_beside(found: &[Instruction], words: &[Words], new: &[Value]) -> Option<usize> {
    found.iter().enumerate().rev().find_map(|(at, i)| {
        (i.kind == Kind::Decision
            && i.superseded.is_none()
            && words[at].values.iter().any(|old| {
                MEASURES.contains(&old.kind.as_str())
                    && new.contains(old)
                    && new.iter().any(|v| v.kind == old.kind && v != old)
            }))
        .then_some(at)
    })
}

/// The one standing decision that counts a thing, for an order that sets a number alone
/// ("Let's bump the target up to 90" after "we'll aim for 70 volunteers total", "Let us
/// pare the list to sixty" after "eighty labels"): the count, by another number of its
/// order (a quarter to four times it). None where two decisions count, or none does.
fn sole_count(found: &[Instruction], words: &[Words], new: u32) -> Option<usize> {
    let counts = |w: &Words| -> Vec<u32> {
        w.values
            .iter()
            .filter(|v| !MEASURES.contains(&v.kind.as_str()))
            .filter_map(|v| said_number(&v.written))
            .collect()
    };
    let mut counting = found
        .iter()
        .zip(words)
        .enumerate()
        .filter(|(_, (i, _))| i.kind == Kind::Decision && i.superseded.is_none())
        .map(|(at, (_, w))| (at, counts(w)))
        .filter(|(_, counted)| !counted.is_empty());
    match (counting.next(), counting.next()) {
        (Some((at, counted)), None) => counted
            .into_iter()
            .any(|old| old != new && new / 4 <= old && old / 4 <= new)
            .then_some(at),
        _ => None,
    }
}

/// The one standing decision that sets a value of a kind a decision sets anew, to another
/// value ("Change the ratio to 60/40 then" after "Let's do 70/30", "make the contingency
/// 15%" after "Let's hold back 10%"): a split, a share, a date, a time, a sum; None where
/// two decisions set one of that kind, or none does.
fn sole_of_its_kind(found: &[Instruction], words: &[Words], new: &[Value]) -> Option<usize> {
    new.iter()
        .filter(|v| MEASURES.contains(&v.kind.as_str()))
        .find_map(|v| {
            let mut setting = found.iter().zip(words).enumerate().filter(|(_, (i, w))| {
                i.kind == Kind::Decision
                    && i.superseded.is_none()
                    && w.values.iter().any(|o| o.kind == v.kind)
            });
            match (setting.next(), setting.next()) {
                (Some((at, (_, w))), None) if !w.values.contains(v) => Some(at),
                _ => None,
            }
        })
}

/// Does a decision say again what one still standing said, in its first words, with other
/// values of the same kinds ("So we train Tuesday and Friday, 17:45 to 19:15" after "We
/// train Tuesday and Thursday, 18:00 to 19:30")?
fn sets_again(found: &[Instruction], words: &[Words], said: &str) -> bool {
    let opening = |text: &str| -> Vec<String> {
        let lower = crate::case::lowercase(text);
        let clause = first_clause(&lower);
        first_words(clause)
            .into_iter()
            .map(|w| word(w).to_owned())
            .take(2)
            .collect()
    };
    let mine = opening(said);
    let frame = mine.len() == 2
        && !one_of(
            mine[1].as_str(),
            &[
                "is", "are", "was", "were", "will", "have", "has", "can", "should",
            ],
        );
    let values = values_of(said);
    frame
        && found.iter().zip(words).any(|(i, w)| {
            i.kind == Kind::Decision
                && i.superseded.is_none()
                && opening(&i.text) == mine
                && changed(&values, &w.values) > 0
        })
}

/// Does a decision still standing name `thing`?
fn names_a_decision(found: &[Instruction], words: &[Words], thing: &[String]) -> bool {
    found.iter().zip(words).any(|(i, w)| {
        i.kind == Kind::Decision && i.superseded.is_none() && shared(thing, &w.said) > 0
    })
}

/// The words of what an override says before its reasons, in the sentence that overrides:
/// "Ortiz called, the 50 gal wont fit … we're doing a 40 gallon unit instead" is about the
/// tank, not the plumber its news names.
pub(super) fn override_head(said: &str) -> Vec<String> {
    let sentence = overriding_sentence(said);
    // "Our compliance advisor … raised concerns about … two of our insurance contracts, so
    // I'm afraid the fluoride offer will not go ahead after all": the override after its
    // reasons.
    let last = last_clause(sentence).filter(|last| is_override(last));
    subject_words(head_of(last.unwrap_or(sentence)))
}

/// The sentence of `said` that overrides, else all of it.
fn overriding_sentence(said: &str) -> &str {
    sentences(said)
        .into_iter()
        .find(|s| is_override(s))
        .unwrap_or(said)
}
