//! A reply read against what was asked before it: a short answer that settles a choice the
//! assistant offered ("the second one", "Reaper for recording"), not one that reacts to it.

use super::*;

/// The words of substance the assistant's messages (and summaries) spoke of, sorted: what
/// a user's short statement may settle. Read forward only as far as a user's message asks.
#[derive(Default)]
pub(super) struct Discussed {
    pub(super) words: Vec<String>,
    pub(super) read_up_to: usize,
}

impl Discussed {
    /// The words spoken of before message `index`.
    pub(super) fn up_to(&mut self, messages: &[&Message], index: usize) -> &[String] {
        if self.read_up_to < index {
            for earlier in messages.get(self.read_up_to..index).unwrap_or_default() {
                if earlier.role == Role::Assistant || earlier.is_compaction() {
                    self.words.extend(subject_words(&earlier.text()));
                }
            }
            crate::sort::sort_dedup(&mut self.words);
            self.read_up_to = index;
        }
        &self.words
    }
}

/// The assistant's message just before message `index`, which a short reply may answer.
pub(super) fn asked_before<'m>(messages: &[&'m Message], index: usize) -> Option<&'m Message> {
    let before = messages.get(index.checked_sub(1)?)?;
    (before.role == Role::Assistant).then_some(*before)
}

/// The verbs that say what a thing the conversation spoke of is to be ("the theme is …",
/// "the carousel gets removed", "the tomatoes go in the raised bed", "X wins").
pub(super) const SETTLING_VERBS: &[&str] = &[
    "is", "are", "gets", "goes", "go", "wins", "starts", "opens", "runs", "stays", "will",
];

/// Words that make a few words a sentence with a subject and a verb, not an option named
/// alone ("The neighbours might join us").
pub(super) const SENTENCE_WORDS: &[&str] = &[
    "was", "were", "am", "do", "did", "has", "have", "had", "might", "may", "could", "would",
    "should", "can", "must", "us", "me", "him", "them", "not", "if",
];

/// Does a sentence settle something the conversation spoke of (`discussed`, the sorted
/// words of substance of the assistant's messages so far): the thing, then what it is
/// ("the theme is deep-sea salvage", "The venue is the Old Mill", "Hand limit: 7 wins",
/// "Accelerometer: going LIS2DW12"); or, opening a reply to the assistant's message
/// `just_asked`, an option it named, alone ("pgloader for the bulk copy", "Mixing in
/// Reaper.")? Not a word on the weather: the thing must be one
/// the conversation named.
pub(super) fn settles_what_was_asked(
    sentence: &str,
    discussed: &[String],
    just_asked: Option<&Message>,
) -> bool {
    let lower = crate::case::lowercase(sentence.trim());
    if lower.ends_with('?')
        || asks(&lower)
        || reports_scores(&lower)
        || muses(&lower)
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
    let named = |words: &[&str], spoken: &dyn Fn(&str) -> bool| {
        words
            .iter()
            .any(|w| w.len() > 2 && !is_marking_word(w) && spoken(singular(w)))
    };
    let spoke_of = |words: &[&str]| {
        named(words, &|w| {
            discussed.binary_search_by(|d| d.as_str().cmp(w)).is_ok()
        })
    };
    // An option named alone answers the message just before it ("Mixing in Reaper."), not
    // a part of the work spoken of long ago ("Okay, running order!!" turns to it).
    let just_named = |words: &[&str]| {
        just_asked.is_some_and(|m| {
            let near = subject_words(&m.text());
            named(words, &|w| near.iter().any(|n| n == w))
        })
    };
    labels_a_value(&lower, &spoke_of)
        || clauses(&lower)
            .take(3)
            .any(|clause| names_then_settles(clause, &spoke_of))
        || names_an_option(&lower, &just_named)
}

/// Does a reply open with how the user took what was said ("good to know.", "ooh good
/// questions.", "love the dino names lol.", "ugh right the fees.", "that's helpful.")? A
/// reaction names no option.
pub(crate) fn reacts(lower: &str) -> bool {
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
/// spoke of, then its value. Not what someone else wants of it ("preshow: director wants
/// 'period'"), a wish told.
pub(super) fn labels_a_value(lower: &str, spoke_of: &impl Fn(&[&str]) -> bool) -> bool {
    let Some((label, value)) = lower.split_once(": ") else {
        return false;
    };
    let label: Vec<&str> = label.split_whitespace().map(word).collect();
    (1..=3).contains(&label.len())
        && !one_of(
            label[0],
            &["next", "update", "question", "q", "edit", "context"],
        )
        && spoke_of(&label)
        && (1..=12).contains(&value.split_whitespace().count())
        && !measures(value)
        && !says_any(value, UNSURE)
        && !matches!(
            value.split_whitespace().map(word).nth(1),
            Some("wants" | "wanted" | "asked" | "says" | "said" | "thinks")
        )
}

/// Words that leave a question open ("labeled data: sort of", "on failure: depends",
/// "rightsizing: thinking VPA").
pub(super) const UNSURE: &[&str] = &[
    "sort of", "kind of", "depends", "not sure", "maybe", "no idea", "unclear", "dunno", "idk",
    "probably", "thinking",
];

/// Does a sentence report scores or a quote ("test set results: macro-F1 0.738, security
/// recall 0.93", "distilroberta: 0.731 ± 0.012", "61% were reduced, compared with 24%",
/// "Renting a 20-foot truck: about $2,400 plus gas")? Two fractions, a spread or two shares
/// compared are measured, not chosen; a single one may be a threshold set ("flag anything
/// over 0.8"). A price given to an option names what it
/// costs, not that it is taken; a limit labelled ("Budget: $4,000"), or a price announced
/// ("so we've changed it: £10 full price"), is set.
pub(super) fn reports_scores(lower: &str) -> bool {
    let fractions = lower
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_ascii_digit() && c != '.'))
        .filter(|w| w.starts_with("0.") && w.len() > 2)
        .count();
    let quote = lower.split_once(": ").is_some_and(|(label, price)| {
        let price = ["about ", "around ", "roughly ", "~"]
            .iter()
            .find_map(|m| price.strip_prefix(m))
            .unwrap_or(price);
        price.starts_with(['$', '€', '£'])
            && !says_any(
                label,
                &[
                    "budget", "max", "limit", "cap", "ceiling", "total", "min", "price",
                    // "we've agreed: £18,000 all in, and not a penny over": a sum settled.
                    "agreed", "decided", "settled",
                ],
            )
            // "we've changed it: £10 full price": the price set.
            && !announces_a_choice(lower)
    });
    // "Of their penalties, 61% were reduced on dispute, compared with 24% for all other
    // operators": shares compared.
    let percents = lower.matches('%').count();
    let compared = says_any(lower, &["compared", "versus", "vs", "up from", "down from"]);
    fractions >= 2 || lower.contains('±') || quote || (percents >= 2 && compared)
}

/// Does a value report a measure, not set one: a change ("$8.3k -> $11.2k", "31 min (was
/// 3h10m)"), a statistic ("+0.064pp, 95% CI [-0.035pp, +0.163pp], p=0.20"), several
/// figures?
pub(super) fn measures(value: &str) -> bool {
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
pub(super) fn names_then_settles(clause: &str, spoke_of: &impl Fn(&[&str]) -> bool) -> bool {
    let words: Vec<&str> = first_words(clause).into_iter().map(word).collect();
    let start = usize::from(matches!(words.first(), Some(&("the" | "our"))));
    let Some(at) = words
        .iter()
        .enumerate()
        .skip(start + 1)
        .take(4)
        .find(|&(at, w)| SETTLING_VERBS.contains(w) || gives_anew(&words[at..]))
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
    if start == 0 && one_of(words[at], &["is", "are"]) && !dated {
        return false;
    }
    let thing = &words[start..at];
    // "Testing will be conducted …", "The timetable will operate on a two-week cycle".
    let future_be = words[at] != "will"
        || words.get(at + 1).is_some_and(|next| {
            one_of(
                next,
                &[
                    "be", "operate", "run", "use", "remain", "stay", "follow", "start",
                ],
            )
        });
    // "The Mazda CX-5 wins" ends on it; "… wins the race" is no pick.
    let closes = words[at] != "wins" || words.len() == at + 1;
    // A value, not a measure or a judgement ("head height is about 2.4", "the room is
    // really small", "our race director is the worst at it") nor a condition.
    let no_value = |next: &str| {
        one_of(
            next,
            &[
                "about", "around", "roughly", "very", "really", "too", "so", "pretty", "quite",
                "not", "a", "an", "kind", "getting", "still", "already",
            ],
        ) || (one_of(words[at], &["is", "are"]) && CONDITIONS.contains(&next))
            || (next == "the" && matches!(words.get(at + 2), Some(&("worst" | "best"))))
    };
    let has_value = words.get(at + 1).is_some_and(|&next| !no_value(next)) || words[at] == "wins";
    !thing.iter().any(|w| NOT_THINGS.contains(w))
        && future_be
        && closes
        && has_value
        && spoke_of(thing)
}

/// Do `words` give the thing before them a value anew, in numbers ("weights now essays 45,
/// exam 35, participation 20", "Starter back down to 12")? Not "the worker is back up",
/// a condition, nor "we now live in Denver".
fn gives_anew(words: &[&str]) -> bool {
    match words {
        ["now", rest @ ..] => rest
            .iter()
            .take(12)
            .any(|w| w.starts_with(|c: char| c.is_ascii_digit())),
        // Not "emergency fund back to 1,000", a balance reported.
        ["back", "down" | "up", "to", ..] => true,
        _ => false,
    }
}

/// What a thing of the work is in, not what it is to be: "the challenge is stuck
/// pending", "the build is red", "the worker is down", "the hall is needed for a
/// reception" report news, they settle nothing.
const CONDITIONS: &[&str] = &[
    "stuck",
    "pending",
    "broken",
    "failing",
    "failed",
    "down",
    "missing",
    "empty",
    "gone",
    "hanging",
    "flaky",
    "dead",
    "red",
    "green",
    "erroring",
    "crashing",
    "timing",
    "blocked",
    "done",
    "finished",
    "fixed",
    "working",
    "back",
    "up",
    "live",
    "slow",
    "late",
    "needed",
    "required",
    "busy",
    "unavailable",
    "closed",
    "full",
    "taken",
];

/// Do `words` open with a count of things, not a time ("2 people", not "6 pm", "10 to
/// noon", "99.9% over 30 days")?
pub(super) fn counts_things(words: &[&str]) -> bool {
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
pub(super) fn names_an_option(lower: &str, spoke_of: &impl Fn(&[&str]) -> bool) -> bool {
    let words: Vec<&str> = first_words(first_clause(lower))
        .into_iter()
        .map(word)
        .collect();
    let verbless = !words.iter().any(|w| {
        NOT_THINGS.contains(w) || SETTLING_VERBS.contains(w) || SENTENCE_WORDS.contains(w)
    });
    verbless
        && !labels_a_topic(&bare_words(first_clause(lower)))
        && !tells_what_happened(lower)
        && (2..=8).contains(&words.len())
        && spoke_of(&words)
}

/// Do a sentence's first words (lower case, bare) label the topic that follows ("dues
/// question.", "other thing, …", "ok roster first.", "ok now the timeline.")? No option.
fn labels_a_topic(words: &[&str]) -> bool {
    // "roster first", not "the first": a place picked.
    let first = matches!(words, [.., before, "first"] if !matches!(*before, "the" | "a" | "my"));
    words.last().is_some_and(|w| TOPIC_WORDS.contains(w))
        || first
        || words.iter().take(2).any(|w| *w == "now")
}

/// Words that close a label for what a turn turns to ("dues question.", "other thing,",
/// "quick update:", "ASM news.", "Two points.", "A separate matter.").
const TOPIC_WORDS: &[&str] = &[
    "question",
    "questions",
    "thing",
    "things",
    "update",
    "news",
    "issue",
    "points",
    "matter",
    "topic",
    "note",
];

/// Does it name a thing, then what happened to it ("quotes came back.", "the build went
/// green", "bluetooth died mid dress")? News, not a choice.
pub(super) fn tells_what_happened(lower: &str) -> bool {
    lower.split_whitespace().map(word).nth(1).is_some_and(|w| {
        one_of(
            w,
            &[
                "came", "went", "got", "said", "ran", "took", "made", "sent", "fell", "died",
                "broke", "crashed", "failed", "stopped", "froze", "quit", "happened",
            ],
        )
    })
}

/// Is `reply` a short answer that picks one of the options `question` offered ("Which
/// main course: roast chicken, a mushroom risotto or braised lamb?" — "Fine, a wild
/// mushroom risotto then.")?
pub(super) fn answers_a_choice(question: &str, reply: &str) -> bool {
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
    // The lines of a numbered list, which a reply may pick from by place.
    let mut numbered = 0;
    for line in asked.lines() {
        let lead = line.trim_start();
        numbered += usize::from(lead.starts_with(|c: char| c.is_ascii_digit()));
        if lead.starts_with(|c: char| c == '-' || c == '*' || c.is_ascii_digit()) {
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
    // "The third one.", "option 2": a pick by the place a numbered list gave it.
    if numbered >= 2 && sentences(&lower).first().is_some_and(|s| picks_by_place(s)) {
        return true;
    }
    if !speaks_for_the_work(&lower) {
        return false;
    }
    let options = subject_words(&offered);
    subject_words(reply).iter().any(|w| options.contains(w))
}

/// Does the first sentence of a reply pick one of the options the message before it
/// offered, by its name or by its place?
pub(super) fn picks_an_option(listed: &str, sentence: &str) -> bool {
    picks_a_named_option(listed, sentence)
        || picks_by_its_place(listed, sentence)
        || picks_by_place_and_name(listed, sentence)
}

/// Does a sentence pick an option wherever it stands in the reply: by its place with the
/// option's name ([`picks_by_place_and_name`]), or by its place after words that want it
/// ("… honestly the Mazda is the one I like. I think I want number 2, the Mazda.")?
pub(super) fn picks_anywhere(listed: &str, sentence: &str) -> bool {
    let lower = crate::case::lowercase(sentence);
    let wanted = past_a_wish(&lower);
    // "Okay, number 1, anyone can do it": the place said outright.
    let outright = matches!(
        bare_words(first_clause(wanted)).as_slice(),
        ["number" | "option", _]
    );
    picks_by_place_and_name(listed, sentence)
        || ((wanted.len() < past_opener(&lower).len() || outright)
            && picks_by_its_place(listed, sentence))
        || picks_by_description(listed, wanted)
}

/// Does a sentence (lower case, past the words that want it) pick an option the message
/// before it laid out by what it says of it ("I like the one that starts in the shed", "do
/// the one where the buns go in with the baguettes", "The directories-per-env one.")?
/// Every word of substance it says is in the message, which labels two options or more.
fn picks_by_description(listed: &str, wanted: &str) -> bool {
    let wanted = ["i like ", "do ", "let's do ", "we'll do ", "i'll do "]
        .iter()
        .find_map(|lead| wanted.strip_prefix(lead))
        .unwrap_or(wanted);
    let clause = first_clause(wanted).trim_end_matches(['.', '!']);
    let words = bare_words(clause);
    let described = match words.as_slice() {
        ["the", "one", "that" | "where" | "with" | "which", rest @ ..] => rest.len() >= 2,
        ["the", between @ .., "one"] => (1..=3).contains(&between.len()),
        _ => false,
    };
    let labelled = listed
        .lines()
        .filter(|line| {
            line.trim_start_matches(|c: char| c.is_whitespace() || "|*#_(-".contains(c))
                .starts_with(|c: char| c.is_ascii_alphanumeric())
                && line.trim_start().starts_with(['*', '#', '(', '|'])
                || line.trim_start().starts_with(|c: char| c.is_ascii_digit())
        })
        .count()
        >= 2
        || lettered_labels(listed).len() >= 2;
    let said = subject_words(clause);
    let options = subject_words(listed);
    described
        && labelled
        && !wanted.trim_end().ends_with('?')
        && !said.is_empty()
        && said.iter().all(|w| w == "one" || options.contains(w))
}

/// Does a sentence pick an option by its place and say which by the words the message
/// before it gave that option ("Number 2, the cabins, with the change that …", "2, the
/// mid-range one around $350" after options laid out in prose)? The option named makes a
/// pick of the place; where the options were numbered line by line, [`picks_by_its_place`]
/// reads the place alone.
fn picks_by_place_and_name(listed: &str, sentence: &str) -> bool {
    let lower = crate::case::lowercase(sentence);
    let lower = past_a_wish(&lower);
    let by_place = picks_by_place(lower) && !picks_alone(lower);
    let by_number = leads_with_a_number(lower).is_some_and(|n| (1..=4).contains(&n));
    if sentence.trim_end().ends_with('?') || !(by_place || by_number) {
        return false;
    }
    let Some(named) = lower
        .split_once(',')
        .and_then(|(_, rest)| first_clause(rest).trim_start().strip_prefix("the "))
    else {
        return false;
    };
    let options = subject_words(listed);
    subject_words(named).iter().any(|w| options.contains(w))
}

/// Does the first sentence of a reply pick one of the numbered options the message before
/// it listed by its place ("The second one. Copies of the model are a nightmare …", "3,
/// Kowalski, their references were glowing"), with or without a question offering them?
/// Options are numbered in a list or in a table's first column.
fn picks_by_its_place(listed: &str, sentence: &str) -> bool {
    let numbered = listed
        .lines()
        .filter(|line| {
            // "1. …", "| 1 | …", "**1. A boxed program**", "### 2. Unit studies".
            line.trim_start_matches(|c: char| c.is_whitespace() || "|*#_".contains(c))
                .starts_with(|c: char| c.is_ascii_digit())
        })
        .count();
    let lettered = lettered_labels(listed);
    let lower = crate::case::lowercase(sentence);
    let sentence = past_a_wish(&lower);
    // "stay with the first: at the foot": the place alone, after what wants it.
    let wished = sentence.len() < past_opener(&lower).len();
    !sentence.trim_end().ends_with('?')
        && ((numbered >= 2
            && (picks_by_place(sentence)
                || (wished && picks_alone(first_clause(sentence)))
                || leads_with_a_number(sentence).is_some_and(|n| (1..=numbered).contains(&n))))
            || (lettered.len() >= 2
                && leads_with_a_letter(sentence)
                    .or_else(|| leads_with_a_letter(past_its_topic(sentence)))
                    .or_else(|| wished.then(|| wanted_letter(sentence)).flatten())
                    .is_some_and(|l| lettered.contains(&l))))
}

/// The letter a wish names, whatever words follow it ("i think b most mornings" -> b); not
/// "a" or "i", words of their own.
fn wanted_letter(wanted: &str) -> Option<char> {
    let mut chars = wanted.chars();
    let letter = chars.next().filter(char::is_ascii_alphabetic)?;
    (chars.next() == Some(' ') && !matches!(letter, 'a' | 'i')).then_some(letter)
}

/// A reply (lower case) past the topic it names before its pick ("masthead's b." -> "b.",
/// "the logo is c" -> "c"): one or two words, then "'s" or "is".
fn past_its_topic(lower: &str) -> &str {
    let rest = past_opener(lower);
    let words: Vec<&str> = rest.split_whitespace().take(4).collect();
    if words.first().is_some_and(|w| SUBJECTS.contains(&word(w))) {
        return lower;
    }
    match words.as_slice() {
        [first, ..] if first.ends_with("'s") => after_words(rest, 1),
        [_, "is", ..] => after_words(rest, 2),
        [_, second, ..] if second.ends_with("'s") => after_words(rest, 2),
        [_, _, "is", ..] => after_words(rest, 3),
        _ => lower,
    }
}

/// `text` past its first `n` words.
fn after_words(text: &str, n: usize) -> &str {
    let mut rest = text.trim_start();
    for _ in 0..n {
        rest = rest
            .split_once(char::is_whitespace)
            .map_or("", |(_, after)| after.trim_start());
    }
    rest
}

/// `lower` past the words that say it is wanted ("I think I want number 2, the Mazda" ->
/// "number 2, the Mazda").
fn past_a_wish(lower: &str) -> &str {
    const WISHES: &[&str] = &[
        "i think ",
        "i want ",
        "we want ",
        "i'd like ",
        "we'd like ",
        "i'll take ",
        "we'll take ",
        "i'll go with ",
        "we'll go with ",
        "let's go with ",
        "go with ",
        "let's do ",
        // "stay with the first: at the foot, after the text".
        "stay with ",
        "stick with ",
    ];
    let mut rest = past_opener(lower);
    while let Some(next) = WISHES.iter().find_map(|w| rest.strip_prefix(w)) {
        rest = next;
    }
    rest
}

/// The letters a message's options are labelled by, line by line ("**A. Cost-plus.**",
/// "**(b) 18 wks**", "C) Value"), lower case.
/// The newest message at or before `at` that lists options by letters among them `label`,
/// the one a pick names, if it names one ("B. One longer session a day" for "I think B
/// suits me best"): the list it picks from.
pub(super) fn lettered_list_before(
    messages: &[&Message],
    at: usize,
    label: Option<&str>,
) -> Option<usize> {
    let letter = label?.chars().next()?.to_ascii_lowercase();
    (0..=at.min(messages.len().checked_sub(1)?))
        .rev()
        .find(|&i| {
            messages[i].role == Role::Assistant
                && lettered_labels(&messages[i].text()).contains(&letter)
        })
}

fn lettered_labels(listed: &str) -> Vec<char> {
    let mut out = listed_letters(listed);
    // "With B, you'd need a reserve of ~80% … With C, …": options spoken of by the labels
    // an earlier list gave them, two or more.
    let mut spoken: Vec<char> = listed
        .split(|c: char| !c.is_alphanumeric())
        .filter_map(|w| {
            let mut chars = w.chars();
            let letter = chars.next().filter(char::is_ascii_uppercase)?;
            (chars.next().is_none() && !matches!(letter, 'I' | 'A'))
                .then(|| letter.to_ascii_lowercase())
        })
        .collect();
    crate::sort::sort_dedup(&mut spoken);
    if spoken.len() >= 2 {
        out.extend(spoken);
    }
    out
}

/// The letters that open the lines of a lettered list ("**A.**", "C) Value").
fn listed_letters(listed: &str) -> Vec<char> {
    listed
        .lines()
        .filter_map(|line| {
            let lead = line.trim_start_matches(|c: char| c.is_whitespace() || "|*#_(".contains(c));
            let mut chars = lead.chars();
            let letter = chars.next().filter(char::is_ascii_alphabetic)?;
            // "**A.**", "C) Value", "**B — Buns share the slot**".
            let after = chars.as_str();
            (after.starts_with([')', '.', ':'])
                || after.trim_start().starts_with(['—', '–'])
                || after.starts_with(" - "))
            .then(|| letter.to_ascii_lowercase())
        })
        .collect()
}

/// The letter a reply opens with as its pick, then what it says of it ("B, but
/// sanity-checked against my 65% floor", "(b), the 18-wk version"), lower case.
pub(super) fn leads_with_a_letter(sentence: &str) -> Option<char> {
    let rest = past_then(past_opener(sentence));
    let rest = rest.strip_prefix('(').unwrap_or(rest);
    let mut chars = rest.chars();
    let letter = chars.next().filter(char::is_ascii_alphabetic)?;
    let after = chars.as_str();
    let after = after.strip_prefix(')').unwrap_or(after);
    (after.starts_with([',', '.', ':'])
        || after.trim_start().starts_with(['—', '–'])
        || after.is_empty()
        || (after.starts_with(' ') && settles_the_pick(after)))
    .then(|| letter.to_ascii_lowercase())
    .filter(|l| !matches!(l, 'i') || after.starts_with(')'))
}

/// `text` past a "then" it opens with ("Then C: 13.5 kWh nominal."): what the reasons
/// before it lead to.
fn past_then(text: &str) -> &str {
    match text.split_once(' ') {
        Some((then, rest)) if then.eq_ignore_ascii_case("then") => rest.trim_start(),
        _ => text,
    }
}

/// The number a reply opens with as its pick, then what it says of it ("3, Kowalski",
/// "1) the kids' table", "ok 2 for sure, subway is so much cooler", "2. ray noble, that
/// sort."): one digit, then a comma, a parenthesis, a dot that ends it, or the words that
/// settle it.
fn leads_with_a_number(sentence: &str) -> Option<usize> {
    let rest = past_then(past_opener(sentence));
    let mut chars = rest.chars();
    let digit = chars.next()?.to_digit(10)?;
    let after = chars.as_str();
    (after.starts_with([',', ')'])
        || after.trim_end() == "."
        || (after.starts_with(' ') && settles_the_pick(after)))
    .then_some(digit as usize)
}

/// Do the words after a pick's letter or number settle it ("C for now — explicit list",
/// "2 for sure", "B it is", "A then.", "3 definitely")?
fn settles_the_pick(after: &str) -> bool {
    let lower = crate::case::lowercase(after);
    matches!(
        bare_words(&lower).as_slice(),
        ["for", "now" | "sure", ..]
            | ["it", "is", ..]
            | ["then", ..]
            | ["definitely" | "please", ..]
    )
}

/// Does a sentence close on "then" after its first words ("Laminate, then — a good
/// stone-effect one.", "The blue one then.")? What a message weighed, settled where it
/// ends.
pub(super) fn closes_on_then(sentence: &str) -> bool {
    let lower = crate::case::lowercase(sentence);
    let clause = first_clause(&lower);
    let after = lower
        .find(clause)
        .map_or("", |at| &lower[at + clause.len()..]);
    let words = bare_words(clause);
    ((2..=5).contains(&words.len()) && words.last() == Some(&"then"))
        || (!words.is_empty()
            && words.len() <= 4
            && bare_words(after).first() == Some(&"then")
            && after.trim_start().starts_with(','))
}

/// Does a reply set anew a value the message before it listed ("Savings: £200 a month."
/// after "- Savings: £150")? The label as listed, then another value.
pub(super) fn sets_a_listed_value(listed: &str, sentence: &str) -> bool {
    let Some((label, value)) = sentence.split_once(':') else {
        return false;
    };
    let label = crate::case::lowercase(label.trim());
    let value = value.trim();
    if label.is_empty()
        || bare_words(&label).len() > 3
        || !value.contains(|c: char| c.is_ascii_digit())
        || value.ends_with('?')
    {
        return false;
    }
    listed.lines().any(|line| {
        let item = crate::case::lowercase(unbulleted(line.trim()));
        item.split_once(':').is_some_and(|(was, old)| {
            was.trim().trim_matches('*') == label && !value.starts_with(old.trim())
        })
    })
}

/// Is a sentence (lower case) a pick of a listed option by its place, and nothing more:
/// "The third one.", "second one", "the last option", "Option 2.", "number 3"? Or its
/// first clause one, with what the option is ("The second one, unit studies, both kids
/// together", "The first, I think: begin at 8:00"); not "Second, we'll start at 9:30",
/// which counts the user's own points.
pub(super) fn picks_by_place(sentence: &str) -> bool {
    let first = first_clause(sentence);
    picks_alone(sentence)
        || (first.len() < sentence.len()
            && picks_alone(first)
            && (says_any(first, &["one", "option", "number"])
                || first.trim_start().starts_with("the ")))
}

/// Is a sentence a pick that names nothing but a place or a label ("The second one.",
/// "Option 2", "b) it is.", "C then.", "2.")? What it picked is said only by the sentence
/// after it, if any.
pub(super) fn picks_only_a_place(sentence: &str) -> bool {
    let lower = crate::case::lowercase(sentence);
    // "ooh number 1!!!": past what it opens with.
    let lower = past_opener(&lower);
    let words = bare_words(lower);
    let by_label = match words.as_slice() {
        // "B." or "2." alone: the label, its dot, nothing else.
        [label] if lower.trim_end().ends_with('.') => {
            label.len() == 1 && label.chars().all(|c| c.is_ascii_alphanumeric())
        }
        [label, rest @ ..] => {
            label.len() == 1
                && !one_of(label, &["i", "a"])
                && label.chars().all(|c| c.is_ascii_alphanumeric())
                && matches!(rest, ["it", "is"] | ["then"] | ["please"] | ["it's"])
        }
        [] => false,
    };
    by_label || picks_alone(lower)
}

/// Is a sentence (lower case) a pick by place and nothing more ([`picks_by_place`])?
fn picks_alone(sentence: &str) -> bool {
    const PLACES: &[&str] = &[
        "first", "second", "third", "fourth", "fifth", "sixth", "last", "1st", "2nd", "3rd", "4th",
        "5th", "6th",
    ];
    let words = bare_words(sentence);
    match words.as_slice() {
        ["the", place] | [place] => PLACES.contains(place),
        ["the", place, "one" | "option"] | [place, "one" | "option"] => PLACES.contains(place),
        ["option" | "number", n] => n.len() == 1 && n.chars().all(|c| c.is_ascii_alphanumeric()),
        _ => false,
    }
}

/// The names an assistant's message gives its options: the first cell of a table's rows,
/// what it sets in bold, its headings, and the lead of each listed item (up to a colon or
/// a dash) — where a choice laid out for the user names each option once.
fn option_names(message: &str) -> Vec<String> {
    let mut names = String::new();
    for line in message.lines() {
        let line = line.trim();
        // "- **Your utility?** SMUD or PG&E": a question for the user, not an option.
        if line.contains('?') {
            continue;
        }
        if let Some(row) = line.strip_prefix('|') {
            names.push_str(row.split('|').next().unwrap_or(""));
        } else if line.starts_with('#') {
            names.push_str(line);
        } else if let Some(item) = line.strip_prefix(['-', '*']).or_else(|| {
            line.split_once(". ")
                .and_then(|(n, rest)| n.chars().all(|c| c.is_ascii_digit()).then_some(rest))
        }) {
            let lead = item.split([':', '—', '–']).next().unwrap_or(item);
            names.extend(lead.split_whitespace().take(6).flat_map(|w| [w, " "]));
        } else if let Some((lead, text)) = line.split_once(": ") {
            // "One currency: everything priced in one thing, …": a paragraph an option's
            // name opens.
            if (1..=4).contains(&lead.split_whitespace().count()) && !text.trim().is_empty() {
                names.push_str(lead);
            }
        }
        names.push(' ');
        for (at, bold) in line.split("**").enumerate() {
            if at % 2 == 1 {
                names.push_str(bold);
                names.push(' ');
            }
        }
        names.push('\n');
    }
    subject_words(&names)
}

/// The counts a message offers as options in its prose ("Common block lengths are 8, 10
/// or 12 weeks."): the numbers of a sentence that names two joined by "or".
fn offered_counts(message: &str) -> Vec<u32> {
    message
        .split(['.', '\n', '?'])
        .map(bare_words)
        .filter(|words| {
            words
                .windows(3)
                .any(|w| is_number(w[0]) && w[1] == "or" && is_number(w[2]))
        })
        .flat_map(|words| words.into_iter().filter_map(said_number))
        .collect()
}

/// Does a reply open by naming one of the options the assistant's message before it laid
/// out ("imerovigli. the quiet thing sold me …" after a table of villages, "the rotating
/// one." after "**Option 2: Rotating templates**", "AGM then")? A few words, every word of
/// substance among the options' names: a reply that only shares a word with them ("good
/// list.", "We've got a Little Giant.") picks nothing.
fn picks_a_named_option(asked: &str, reply: &str) -> bool {
    let lower = crate::case::lowercase(unbulleted(reply.trim()));
    // "go west to east, want to end at the towers": the option, gone with.
    let clause = first_clause(&lower);
    let clause = ["go ", "do ", "going ", "doing "]
        .iter()
        .find_map(|verb| clause.strip_prefix(verb))
        .unwrap_or(clause);
    // "Studs — I found them at 16 inch centers": a label for what follows, no pick.
    let labels = !clause.is_empty()
        && lower.find(clause).is_some_and(|at| {
            lower[at + clause.len()..]
                .trim_start()
                .starts_with([':', '—', '–'])
        });
    if labels
        || labels_a_topic(&bare_words(clause))
        || lower.ends_with('?')
        || asks(&lower)
        // "yeah, materialize on write": agreement opens the pick; "love the dino names
        // lol." is all reaction.
        || reacts(clause.trim_start())
        || hedges(clause)
        || clause.split_whitespace().count() > 4
    {
        return false;
    }
    // The option's name alone: "we have 4 courts", "rings are white", "ok that makes
    // sense" state or react, they name no pick.
    let states = first_words(clause).iter().map(|w| word(w)).any(|w| {
        (NOT_THINGS.contains(&w) && w != "one")
            || SETTLING_VERBS.contains(&w)
            || SENTENCE_WORDS.contains(&w)
            || w == "makes"
    });
    if states {
        return false;
    }
    let said: Vec<String> = subject_words(clause)
        .into_iter()
        .filter(|w| !["then", "first", "please"].contains(&w.as_str()))
        .collect();
    if said.is_empty() {
        return false;
    }
    let names = option_names(asked);
    // "Eight weeks." after "Common block lengths are 8, 10 or 12 weeks": a count offered.
    let counts = offered_counts(asked);
    said.iter()
        .all(|w| names.contains(w) || said_number(w).is_some_and(|n| counts.contains(&n)))
}
