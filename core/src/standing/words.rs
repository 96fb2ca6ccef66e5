//! The words instructions are read in: sentences and clauses, phrases matched whole, the
//! spellings a hurried writer uses, and what opens a clause (a subject, an order, a question).

/// Words that open a sentence without being its verb: `Please never…`, `Also, always…`.
pub(super) const OPENERS: &[&str] = &[
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
    "ooh",
    "omg",
    "actually",
    // An acceptance before the order it gives ("Agreed, use the quote from Hannah").
    "agreed",
    "yes",
    "fine",
    "perfect",
    "great",
    "sure",
];

/// Does `clause`, a slice of `lower` ([`clauses`]), continue the sentence before it (after
/// a comma, a "so" or a "but"), rather than open it or follow a colon?
pub(super) fn continues(lower: &str, clause: &str) -> bool {
    before(lower, clause).is_some_and(|before| !before.is_empty() && !before.ends_with([':', ';']))
}

/// Does `clause` (a slice of `lower`) follow a "but" ("… a rough premise but no
/// structure")?
pub(super) fn follows_but(lower: &str, clause: &str) -> bool {
    before(lower, clause)
        .and_then(|before| before.strip_suffix("but"))
        .is_some_and(|rest| rest.is_empty() || rest.ends_with(' '))
}

/// What of `lower` comes before `clause`, a slice of it, trimmed at its end.
pub(super) fn before<'a>(lower: &'a str, clause: &str) -> Option<&'a str> {
    (clause.as_ptr() as usize)
        .checked_sub(lower.as_ptr() as usize)
        .and_then(|at| lower.get(..at))
        .map(str::trim_end)
}

/// Does a clause open with a quantifier or a preposition: no verb of its own? Not one
/// that says what each of a class does ([`each_does`]).
pub(super) fn opens_a_fragment(clause: &str) -> bool {
    // "like i never discount the raw honey": "like" said before the speaker's point.
    let mut words = clause.split_whitespace();
    if each_does(clause)
        || (words.next() == Some("like") && words.next().is_some_and(|w| SUBJECTS.contains(&w)))
    {
        return false;
    }
    const OPENERS: &[&str] = &[
        "all", "every", "each", "some", "any", "no", "none", "nothing", "most", "of", "in", "on",
        "at", "for", "from", "with", "without", "by", "about", "like", "as", "after", "before",
        "more", "many", "several",
    ];
    clause
        .split_whitespace()
        .next()
        .is_some_and(|w| OPENERS.contains(&w))
}

/// Does a clause say what each of a class does ("… but every cup measure keeps its gram
/// weight in brackets", "each lot gets a number")? "Every" or "each" names one thing, so
/// the first word in -s after it is its verb: a statement whole, not a fragment.
pub(super) fn each_does(clause: &str) -> bool {
    let words = bare_words(clause);
    matches!(words.first(), Some(&("every" | "each")))
        && words
            .iter()
            .skip(2)
            .take(3)
            .any(|w| w.len() > 3 && w.ends_with('s') && !w.ends_with("ss") && !w.ends_with("'s"))
}

/// The first clause that says more than an opener ("OK, we do the welcome dinner on
/// Friday" — "we do the welcome dinner on Friday").
pub(super) fn first_clause(lower: &str) -> &str {
    lower
        .split([',', ';', ':', '—'])
        .find(|clause| !first_words(clause).is_empty())
        .unwrap_or("")
}

/// Words that carry no subject of their own, for telling what an instruction is about.
pub(super) const STOP_WORDS: &[&str] = &[
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
    "shall",
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
    // Words of a sentence's frame, not its subject: two instructions that share "afraid",
    // "when" or "much" speak of nothing in common.
    "when",
    "where",
    "while",
    "which",
    "who",
    "whose",
    "was",
    "were",
    "are",
    "been",
    "has",
    "have",
    "had",
    "can",
    "could",
    "may",
    "might",
    "out",
    "some",
    "much",
    "many",
    "less",
    "most",
    "few",
    "several",
    "ones",
    "other",
    "else",
    "too",
    "very",
    "really",
    "still",
    "even",
    "about",
    "into",
    "over",
    "after",
    "before",
    "until",
    "across",
    "because",
    "since",
    "though",
    "afraid",
    "sorry",
    "think",
    "know",
    "feel",
    "its",
    "there",
    "they",
    "them",
    "their",
    "did",
    "does",
    "again",
    "already",
    "anyway",
    "maybe",
    "probably",
    "perhaps",
    "quite",
    "pretty",
    "thing",
    "things",
    "good",
    "great",
    "better",
    "came",
    "come",
    "went",
    "said",
    "says",
    "say",
    "got",
    "get",
];

/// `lower` as the word lists spell it: the apostrophes a hurried writer leaves out put
/// back, curly ones made straight ("i cant go above $20", "flash isnt allowed", "thats
/// settled" read as the words they are; "its" stays, a word of its own, and "lets" and
/// "ill" are spelled out only where a clause opens), and a few marks spelled one way
/// ("non negotiable", "nvm", "never mind").
pub(super) fn respelled(lower: &str) -> String {
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
        ("actualy", "actually"),
        ("definately", "definitely"),
    ];
    // "non negotiable", "nonnegotiable": the mark as the lists spell it; "never mind"
    // one word, which is no "never".
    let straight = ought_past_an_aside(lower)
        .replace('\u{2019}', "'")
        .replace("non negotiable", "non-negotiable")
        .replace("nonnegotiable", "non-negotiable")
        .replace("never mind", "nevermind")
        // "so were just gonna use google calendar": "we're", written without its mark.
        .replace("so were ", "so we're ")
        // "it's got to where I need it written down": how far things went, no "got to".
        .replace("got to where", "come to where")
        .replace("got to the point", "come to the point")
        .replace("let us ", "let's ")
        // "I shan't accept payment terms longer than 30 days".
        .replace("shan't", "won't")
        // "we ought not to rely on red versus green".
        .replace("ought not to ", "should not ")
        .replace("ought to ", "should ")
        // "The term 'at-risk' is not to be used anywhere": forbidden, in a formal hand.
        .replace(" is not to be ", " must not be ")
        .replace(" are not to be ", " must not be ")
        // "Go w/ ISBAR".
        .replace(" w/ ", " with ")
        // "I really don't want any old URL to break": the mark without its stress.
        .replace("really don't", "don't")
        .replace("really do not", "do not");
    // Spelled so only where a clause opens ("lets do that", "ok ill send it"): "it lets
    // you", "an ill fit" are words of their own.
    const OPENING: &[(&str, &str)] = &[("lets", "let's"), ("ill", "i'll")];
    const THEN: &[&str] = &["then", "yeah", "yes", "fine", "alright", "actually", "cool"];
    let mut out = String::with_capacity(straight.len() + 8);
    let mut word_start = None;
    // A clause opens here: the text's start, a mark, or a word that leads one.
    let mut opens = true;
    let spell = |word: &str, opens: bool, out: &mut String| {
        let word = spelled(word, SPELLED);
        out.push_str(if opens { spelled(word, OPENING) } else { word });
        LEADS.contains(&word) || THEN.contains(&word)
    };
    for (at, c) in straight.char_indices() {
        let in_word = c.is_alphanumeric() || c == '\'';
        match (word_start, in_word) {
            (None, true) => word_start = Some(at),
            (Some(start), false) => {
                opens = spell(&straight[start..at], opens, &mut out);
                word_start = None;
            }
            _ => {}
        }
        if !in_word {
            opens |= !c.is_whitespace();
            out.push(c);
        }
    }
    if let Some(start) = word_start {
        spell(&straight[start..], opens, &mut out);
    }
    out
}

/// `lower` with "ought, <an aside>, to" said as "should": "statutory references ought, on
/// first mention, to be given in full" binds as "… should be given in full".
fn ought_past_an_aside(lower: &str) -> String {
    let Some(at) = lower.find("ought, ") else {
        return lower.to_owned();
    };
    let rest = &lower[at + "ought, ".len()..];
    match rest.find(", to ") {
        Some(to) if rest[..to].split_whitespace().count() <= 6 => {
            format!("{}should {}", &lower[..at], &rest[to + ", to ".len()..])
        }
        _ => lower.to_owned(),
    }
}

/// `token` as `table` spells it, else as it is.
pub(super) fn spelled<'a>(token: &'a str, table: &[(&str, &'a str)]) -> &'a str {
    table
        .iter()
        .find(|(bare, _)| *bare == token)
        .map_or(token, |(_, spelled)| spelled)
}

/// Words a sentence may open with before what it says ("so", "ok", "but").
pub(super) const LEADS: &[&str] = &[
    "so", "and", "but", "ok", "okay", "also", "oh", "hey", "well",
];

/// Does it ask ("should i keep it or swap to nginx", "can we skip the tests"), with or
/// without its question mark? A question decides nothing and orders nothing.
pub(crate) fn asks(lower: &str) -> bool {
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
        // "do it stepwise", "do this in two deploys": an order, not "do we…?".
        let orders = first == "do" && matches!(second, Some("it" | "this" | "that"));
        return !orders && second.is_some_and(|second| WHO.contains(&second));
    }
    // "anything we cook at dinner has to be gluten-free": what any of it must be, a rule.
    let binding = first == "anything" && says_any(lower, &["has to", "have to", "must"]);
    asks_what(first, second) && !binding
}

/// Does a sentence opening with these two words ask what, how, which or where ("what's
/// the catch with ECS", "how long should I rest", "which is cheaper", "what if we had a
/// class pet", "anything I should know about …")? Not "what I want is
/// …", "how about the 7:40", "when we land, …".
pub(super) fn asks_what(first: &str, second: Option<&str>) -> bool {
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
        "anything" => second.is_some_and(|s| one_of(s, &["i", "we", "else", "to"])),
        "any" => second.is_some_and(|s| {
            one_of(
                s,
                &[
                    "tips",
                    "ideas",
                    "advice",
                    "thoughts",
                    "suggestions",
                    "recommendations",
                ],
            )
        }),
        _ => false,
    };
    any || ASKED.contains(&first)
        || (WH.contains(&first) && second.is_some_and(|second| THEN.contains(&second)))
}

/// The clause's subject when it opens with one of the words that make a sentence a
/// statement ("it", "the"), or the first word.
pub(super) fn subject_of(clause: &str) -> &str {
    first_words(clause)
        .into_iter()
        .map(word)
        .find(|w| !is_adverb(w))
        .unwrap_or("")
}

/// Does a sentence hedge what it says ("maybe", "probably", "if …", "not sure")?
pub(super) fn hedges(lower: &str) -> bool {
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

/// The clauses of a sentence: what commas, semicolons, colons, dashes and a joining "so"
/// or "but" part.
pub(super) fn clauses(lower: &str) -> impl Iterator<Item = &str> {
    lower
        .split([',', ';', ':', '—'])
        .flat_map(|part| part.split(" - "))
        .flat_map(|part| at_so(part).flat_map(|p| p.split(" but ")))
        .map(str::trim)
        .filter(|clause| !clause.is_empty())
}

/// The last clause of a sentence that goes on from what it says first: past ", so" ("…
/// live music makes it feel like an occasion, so book The Late Shift") or past "and" before
/// the speaker ("Finance has reviewed the figures and we are raising the stipend to $75").
pub(super) fn last_clause(sentence: &str) -> Option<&str> {
    let lower = crate::case::lowercase(sentence);
    // Where the clause starts past each mark: "so book …", "we are …".
    [(", so ", 2), (" and we ", 5), (" and i ", 5)]
        .iter()
        .filter_map(|(mark, skip)| lower.rfind(mark).map(|at| at + skip))
        .max()
        .map(|at| &sentence[at..])
}

/// `part` cut where "so" opens a clause ("it's for print so keep it short"), not where it
/// says how much ("34 lots so far", "so many emails").
fn at_so(part: &str) -> impl Iterator<Item = &str> {
    const DEGREE: &[&str] = &[
        "far", "much", "many", "few", "little", "long", "well", "glad", "sorry", "happy",
        "excited", "tired", "sure", "good", "bad", "nice", "cute", "lovely", "pretty",
    ];
    let mut rest = Some(part);
    std::iter::from_fn(move || {
        let text = rest?;
        let mut from = 0;
        while let Some(at) = text[from..].find(" so ").map(|at| from + at) {
            let after = &text[at + 4..];
            if !after
                .split_whitespace()
                .next()
                .is_some_and(|w| DEGREE.contains(&word(w)))
            {
                rest = Some(after);
                return Some(&text[..at]);
            }
            from = at + 4;
        }
        rest = None;
        Some(text)
    })
}

/// Does any of `phrases` occur in `lower` at word boundaries?
pub(super) fn says_any(lower: &str, phrases: &[&str]) -> bool {
    phrases.iter().any(|phrase| contains_phrase(lower, phrase))
}

/// Does `phrase` occur in `lower` at word boundaries?
pub(super) fn contains_phrase(lower: &str, phrase: &str) -> bool {
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
pub(super) fn is_edge(mut chars: impl Iterator<Item = char>) -> bool {
    match chars.next() {
        None => true,
        Some('-') => chars.next().is_none_or(|c| !c.is_alphanumeric()),
        Some(c) => !c.is_alphanumeric(),
    }
}

/// `w` without the punctuation around it (an apostrophe inside or at its ends stays:
/// "let's", "kids'").
pub(super) fn word(w: &str) -> &str {
    w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'')
}

/// Is a word (lower case) a number: figures, an amount ("$40", "£10"), or a number said in
/// words ("nine", "twelve", "a dozen")?
pub(super) fn is_number(w: &str) -> bool {
    w.starts_with(|c: char| c.is_ascii_digit() || matches!(c, '$' | '£' | '€'))
        || said_number(word(w)).is_some()
}

/// Is a sentence a letter's greeting or sign-off ("Dear colleague,", "Hi all,", "Kind
/// regards,", "Cheers,")? It says nothing to keep, however it reads after a question.
pub(super) fn greets(sentence: &str) -> bool {
    const GREETINGS: &[&str] = &["dear", "hi", "hello", "hey", "greetings", "morning"];
    const SIGN_OFFS: &[&str] = &[
        "regards",
        "kind regards",
        "best regards",
        "warm regards",
        "best",
        "best wishes",
        "cheers",
        "thanks",
        "many thanks",
        "sincerely",
        "yours sincerely",
        "yours faithfully",
        "yours",
    ];
    let lower = crate::case::lowercase(sentence.trim());
    let Some(said) = lower.strip_suffix(',') else {
        return false;
    };
    let words = bare_words(said);
    SIGN_OFFS.contains(&said)
        || (words.len() <= 4 && words.first().is_some_and(|w| GREETINGS.contains(w)))
}

/// An order's words past "let's" or "let us" ("Let's bump the target up to 90").
pub(super) fn past_lets<'a, 'w>(words: &'a [&'w str]) -> &'a [&'w str] {
    match words {
        ["let's" | "lets", rest @ ..] | ["let", "us", rest @ ..] => rest,
        rest => rest,
    }
}

/// The number a word says: in figures ("90", "1,200") or in words ("sixty", "a dozen").
pub(super) fn said_number(w: &str) -> Option<u32> {
    const SAID: &[&str] = &[
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "thirteen",
        "fourteen",
        "fifteen",
        "sixteen",
        "seventeen",
        "eighteen",
        "nineteen",
        "twenty",
        "thirty",
        "forty",
        "fifty",
        "sixty",
        "seventy",
        "eighty",
        "ninety",
        "hundred",
        "dozen",
    ];
    if let Some(at) = SAID.iter().position(|said| *said == w) {
        let at = u32::try_from(at).ok()?;
        return Some(match at {
            0..=19 => at + 1,
            20..=26 => (at - 17) * 10,
            27 => 100,
            _ => 12,
        });
    }
    w.replace(',', "").parse().ok()
}

/// `text` (any case) past the openers that lead it ("Right, the delivery model" → "the
/// delivery model").
pub(super) fn past_opener(text: &str) -> &str {
    let mut rest = text.trim_start();
    loop {
        let (first, after) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        if first.is_empty() || !OPENERS.contains(&crate::case::lowercase(word(first)).as_str()) {
            return rest;
        }
        rest = after.trim_start();
    }
}

/// The words of `text`, each without the marks around it ("b) it is." -> b, it, is).
pub(super) fn bare_words(text: &str) -> Vec<&str> {
    text.split_whitespace()
        .map(word)
        .filter(|w| !w.is_empty())
        .collect()
}

/// The sentence's words after the openers that are not its verb.
pub(super) fn first_words(lower: &str) -> Vec<&str> {
    lower
        .split(|c: char| c.is_whitespace() || c == ',' || c == ':' || c == '—' || c == '-')
        .filter(|w| !w.is_empty())
        .skip_while(|w| OPENERS.contains(&word(w)))
        .collect()
}

/// Is `word` an adverb in -ly ("absolutely", "initially"; not "apply", "reply")?
pub(super) fn is_adverb(word: &str) -> bool {
    word.len() > 5 && word.ends_with("ly") && !["apply", "supply", "reply"].contains(&word)
}

/// A sentence whose subject is a person or a thing states how things are ("I always
/// forget my keys"), not what to do.
pub(super) const SUBJECTS: &[&str] = &[
    "i",
    "i'm",
    "i've",
    "i'd",
    "we've",
    "they've",
    "he's",
    "she's",
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
pub(super) fn is_imperative(lower: &str) -> bool {
    let words = first_words(lower);
    // An adverb opens an order ("Absolutely never…") or a statement ("Initially we
    // figured…"): the word after it tells which.
    let Some(first) = words.iter().copied().map(word).find(|w| !is_adverb(w)) else {
        return false;
    };
    // A number opens a measure or a count ("7.4 questions out of 312"), never an order;
    // a verb in the past opens what happened ("didn't always do lol").
    // A possessive opens its subject ("Dan's uni friends all go at table 7").
    let possessive = first.ends_with("'s") && first != "let's";
    // "Last year we had no reserves at all": a time gone by opens what happened then.
    let gone_by = first == "yesterday"
        || (first == "last"
            && words.get(1).map(|w| word(w)).is_some_and(|w| {
                one_of(
                    w,
                    &[
                        "year", "time", "week", "month", "night", "season", "summer", "winter",
                        "spring", "autumn", "term", "round",
                    ],
                )
            }));
    // "just me and Jordan": an object pronoun opens who, not an order.
    if SUBJECTS.contains(&first)
        || one_of(first, &["me", "us", "him", "them"])
        || gone_by
        || INTERJECTIONS.contains(&first)
        || possessive
        // "Mrs. Hollis kept it all in her head": a title opens a name; "gonna measure
        // height every 2 days": the user's own plan, its subject left out.
        || one_of(first, &["mr", "mrs", "ms", "dr", "miss", "prof", "gonna"])
        // "weather app says rain all weekend": the weather opens a forecast.
        || one_of(first, &["rain", "snow", "sleet", "hail"])
        || first.starts_with(|c: char| c.is_ascii_digit())
        || one_of(first, &["didn't", "didnt", "did", "wasn't", "wasnt", "weren't", "werent", "was", "were", "hadn't", "hadnt"])
    {
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

/// Words that open an exclamation, not an order: "Oh god no.", "hell no", "cheers for all
/// this".
const INTERJECTIONS: &[&str] = &[
    "god", "gosh", "hell", "cheers", "thanks", "wow", "yay", "ugh", "haha", "lol", "omg", "damn",
    "jeez", "whoa", "phew",
];

/// Orders whose object is a clause of its own ("make sure the build is green"), and the
/// words that open a prohibition ("nothing that sounds like a threat").
pub(super) const TAKES_A_CLAUSE: &[&str] = &[
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
pub(super) const SUBJECT_VERBS: &[&str] = &[
    "is", "are", "was", "were", "isn't", "aren't", "wasn't", "weren't", "has", "hasn't", "had",
    "matters", "stays", "seems", "looks", "sounds", "feels", "remains", "depends", "works",
    "happens", "takes",
];

/// Words that make a clause speak to how the work must go, whatever opens it
/// ([`addresses_the_work`](super::decision::addresses_the_work)).
pub(super) const SUBJECT_MODALS: &[&str] = &[
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
    // "i want every parent letter at a 6th grade reading level": what a whole class must be.
    "i want every",
    "i want all",
    "i want each",
    "we want every",
    "we want all",
    // "I would ask you to refrain from using the word 'stakeholder'".
    "i would ask you to",
    "i'd ask you to",
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

/// The sentences of `text`, each with the text it stands in (a short message is read as
/// one instruction with its reason: "Never run migrations in a request. That is a red
/// line."). Code blocks and quoted material are not the user's instructions.
pub(super) fn sentences(text: &str) -> Vec<&str> {
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
        // A quoted passage (a draft's line, a character's speech) is not the user's, nor
        // is a sentence inside one ("Rooms are two silver. The stew is free."); a line
        // with no double quote has none to look for.
        let quotes = trimmed.contains(['"', '“']);
        out.extend(
            line_sentences(trimmed)
                .into_iter()
                .filter(|sentence| !sentence.starts_with(['"', '“', '\'']))
                .filter(|sentence| !quotes || !within_a_quote(trimmed, sentence))
                .flat_map(dashed),
        );
    }
    out
}

/// The sentences of one said in a voice that ends them with dashes ("hmm - actually no -
/// start with the host intro, the classic way - i feel like …"): two dashes or more, each
/// part a sentence. One dash sets off what it is about ("Option B - the cheap one").
fn dashed(sentence: &str) -> Vec<&str> {
    if sentence.matches(" - ").count() < 2 {
        return vec![sentence];
    }
    sentence
        .split(" - ")
        .map(str::trim)
        .filter(|part| !part.is_empty())
        .collect()
}

/// Does `sentence`, a slice of `line`, start inside a quotation that closes after it: an
/// odd number of straight double quotes before it and one after, or more opening curly
/// quotes than closing ones before it? A lone inch mark (`a 12" pipe`) opens none.
fn within_a_quote(line: &str, sentence: &str) -> bool {
    let at = (sentence.as_ptr() as usize).wrapping_sub(line.as_ptr() as usize);
    let (Some(before), Some(after)) = (line.get(..at), line.get(at..)) else {
        return false;
    };
    (before.matches('"').count() % 2 == 1 && after.contains('"'))
        || before.matches('“').count() > before.matches('”').count()
}

/// Words that open a question, however it is cased.
const QUESTION_OPENERS: &[&str] = &[
    "what", "what's", "whats", "how", "can", "could", "should", "where", "when", "which", "who",
    "why", "any",
];

/// The sentences of one line of text: what ends at `.`, `!` or `?` before a space — not
/// the dot of a title or an abbreviation ("a class gift for Ms. Alvarez", "e.g. Redis",
/// "at 8 a.m. on the day") —
/// with the emoji that close it ("by category please!! 🎁"), or at an emoji before a
/// capital ("… on the bid sheets 🤫 Last year we had none"), a question or a change
/// made ("… 😭 moving it to the basement instead"), or after a choice settled ("climate
/// tech it is 🌍🔥 our biggest sponsor …").
pub(crate) fn line_sentences(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    // How many brackets are open before this byte.
    let mut depth = 0usize;
    let bytes = line.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'(' => depth += 1,
            b')' => depth = depth.saturating_sub(1),
            _ => {}
        }
        if i < start {
            continue;
        }
        let ends = matches!(b, b'.' | b'!' | b'?');
        // "… bargains.\" Going with 2": the quote or bracket it closes ends with it; not
        // a quotation inside a sentence that goes on ("she kept asking \"and now what?\"
        // as if …").
        let closing = if ends {
            closing_marks(&line[i + 1..])
        } else {
            0
        };
        let goes_on = closing > 0
            && line[i + 1 + closing..]
                .trim_start()
                .starts_with(char::is_lowercase);
        // "(we have a meteorite! a tiny one, but still)": a mark inside brackets that
        // close later on the line ends no sentence.
        let inside = ends && depth > 0 && closing == 0 && line[i + 1..].contains(')');
        let held = inside || goes_on || (b == b'.' && dot_goes_on(line, start, i));
        let marked = ends
            && !held
            && bytes
                .get(i + 1 + closing)
                .is_none_or(|n| n.is_ascii_whitespace());
        // An emoji run that starts here and ends the sentence ([`ends_before`]).
        let pictured = !marked
            && line.is_char_boundary(i)
            && line[i..].starts_with(is_pictograph)
            && i > 0
            && bytes[i - 1].is_ascii_whitespace()
            && !line[start..i].trim().is_empty()
            && ends_before(&line[i..], &line[start..i]);
        if marked || pictured || i + 1 == bytes.len() {
            let end = if pictured {
                line.len()
                    - line[i..]
                        .trim_start_matches(|c: char| is_pictograph(c))
                        .len()
            } else if marked {
                let rest = line[i + 1 + closing..].trim_start();
                let emoji = rest.trim_start_matches(|c: char| is_pictograph(c));
                if emoji.len() < rest.len() {
                    line.len() - emoji.len()
                } else {
                    i + 1 + closing
                }
            } else {
                i + 1
            };
            let sentence = line[start..end].trim();
            if !sentence.is_empty() {
                out.push(sentence);
            }
            start = end;
        }
    }
    out
}

/// Does an emoji run (`from` it to the line's end) end the sentence `before` it: before a
/// capital, a question, however it is cased ("… it's just not happening 🙃 what's the menu
/// look like??"), a change said as it is made ("… rain all weekend 😭 moving it to the
/// basement instead"), or after a choice settled ("climate tech it is 🌍🔥 our biggest
/// sponsor does grid batteries"), or before a change ordered ("… took ages to settle 😬
/// make it a month between sittings")?
fn ends_before(from: &str, before: &str) -> bool {
    let after = from.trim_start_matches(|c: char| is_pictograph(c));
    let asks = after
        .split_whitespace()
        .next()
        .is_some_and(|w| QUESTION_OPENERS.contains(&crate::case::lowercase(word(w)).as_str()))
        && after.contains('?');
    let changes = || {
        let after = crate::case::lowercase(after.trim_start());
        after
            .split_whitespace()
            .next()
            .is_some_and(|w| w.ends_with("ing"))
            && super::overrides::is_override(&after)
    };
    let settled = || {
        let before = crate::case::lowercase(before.trim_end());
        before.ends_with(" it is") || before.ends_with(" it is then")
    };
    // "… took ages to settle 😬 make it a month between sittings": a change ordered.
    let orders = after.split_whitespace().next().is_some_and(|w| {
        one_of(
            word(w),
            &[
                "make", "let's", "lets", "switch", "change", "move", "push", "bump", "scrap",
                "scratch",
            ],
        )
    });
    after.starts_with(char::is_whitespace)
        && (after.trim_start().starts_with(char::is_uppercase)
            || asks
            || orders
            || changes()
            || settled())
}

/// Does the dot at `i` of `line` (in the sentence from `start`) leave the sentence going
/// on: the dot of a title or an abbreviation ("Ms. Alvarez", "e.g. Redis", "at 8 a.m. on
/// the day", "under 15 slides excl. appendix"), or a trailing-off ("which she... didn't always do")?
fn dot_goes_on(line: &str, start: usize, i: usize) -> bool {
    const ABBREVIATIONS: &[&str] = &[
        "mr", "mrs", "ms", "dr", "prof", "st", "sr", "jr", "vs", "e.g", "i.e", "approx", "mt",
    ];
    let abbreviated = {
        let word = line[start..i]
            .rsplit(|c: char| c.is_whitespace() || c == '(')
            .next()
            .unwrap_or("");
        ABBREVIATIONS.iter().any(|a| word.eq_ignore_ascii_case(a))
            // "before 8 a.m. or after 7 p.m.": an abbreviation that may end a
            // sentence, inside one where the words after it go on in lower case.
            || (["a.m", "p.m", "etc", "excl", "incl", "min", "max", "hrs"]
                .iter()
                .any(|a| word.eq_ignore_ascii_case(a))
                && line[i + 1..]
                    .split_whitespace()
                    .next()
                    .is_some_and(|next| next.starts_with(|c: char| c.is_lowercase())))
    };
    // "which she... didn't always do": a trailing-off the sentence goes on after; not
    // "Feb-Apr 2024... no wait, Feb-Apr 2025", which takes it back.
    let trails_on = i >= 2 && line.as_bytes()[i - 1] == b'.' && {
        let next = line[i + 1..].split_whitespace().next().unwrap_or("");
        next.starts_with(|c: char| c.is_lowercase())
            && !one_of(
                word(next),
                &[
                    "no", "wait", "actually", "or", "oh", "hmm", "scratch", "sorry",
                ],
            )
    };
    abbreviated || trails_on
}

/// The length in bytes of the closing quotes and brackets that open `rest` (at most two):
/// what a sentence's end mark closes with it.
fn closing_marks(rest: &str) -> usize {
    rest.chars()
        .take(2)
        .take_while(|c| matches!(c, '"' | ')' | '”' | '’' | '\''))
        .map(char::len_utf8)
        .sum()
}

/// Is a character part of an emoji: a pictograph or a symbol drawn as one, or a joiner,
/// a variation selector or a skin tone inside one?
pub(super) fn is_pictograph(c: char) -> bool {
    matches!(c,
        '\u{1F000}'..='\u{1FAFF}' | '\u{2600}'..='\u{27BF}' | '\u{2B00}'..='\u{2BFF}'
        | '\u{200D}' | '\u{FE0F}' | '\u{20E3}')
}

/// Does a sentence (lower case) prefer against something ("I'd rather not …", "I'd rather
/// you didn't …")? It chooses nothing and takes nothing back.
pub(super) fn prefers_against(lower: &str) -> bool {
    PREFERS_AGAINST
        .iter()
        .any(|phrase| contains_phrase(lower, phrase))
        || rather_not_done(lower)
}

/// Does a sentence (lower case) wish a thing were not done, a few words after "rather"
/// ("I'd really rather the policy didn't name any vendor", "I'd rather we avoided
/// artificial sweeteners altogether")?
fn rather_not_done(lower: &str) -> bool {
    const NOT: &[&str] = &[
        "didn't", "doesn't", "don't", "wasn't", "weren't", "never", "not", "avoid", "avoided",
        "avoiding",
    ];
    let words: Vec<&str> = lower.split_whitespace().map(word).collect();
    words.iter().enumerate().any(|(at, w)| {
        *w == "rather"
            && at > 0
            && one_of(words[at - 1], &["i'd", "we'd", "really", "much"])
            && words[at + 1..]
                .iter()
                .take(5)
                .take_while(|w| **w != "than")
                .any(|w| NOT.contains(w))
    })
}

/// Does a sentence (lower case) say how the speaker would rather be, not what they choose
/// ("I'd rather be cautious.", "we'd rather be safe than sorry"; not "I'd rather be in the
/// front row")?
pub(super) fn rather_a_manner(lower: &str) -> bool {
    const NOT_MANNERS: &[&str] = &[
        "in", "at", "on", "with", "near", "by", "the", "a", "an", "there", "home", "back",
    ];
    let words: Vec<&str> = lower.split_whitespace().map(word).collect();
    words.windows(4).any(|w| {
        matches!(w[..3], ["i'd" | "we'd", "rather", "be"])
            && !NOT_MANNERS.contains(&w[3])
            && !w[3].starts_with(|c: char| c.is_ascii_digit())
    })
}

/// What prefers against something: "I'd rather not …", "I'd rather you didn't …", "I'd
/// rather we didn't …".
pub(super) const PREFERS_AGAINST: &[&str] = &[
    "rather not",
    "rather you didn't",
    "rather you did not",
    "rather you don't",
    "rather you do not",
    "rather we didn't",
    "rather we did not",
    "rather we don't",
    "rather we do not",
    "rather we not",
];

/// The months, in full and cut short.
pub(super) const MONTHS: &[&str] = &[
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
    "jan",
    "feb",
    "mar",
    "apr",
    "jun",
    "jul",
    "aug",
    "sep",
    "sept",
    "oct",
    "nov",
    "dec",
];

/// Days cut short, as a schedule writes them ("Sat wk 3", "Tues 1900"): read as days only
/// where a schedule names one, since "sat" and "sun" are words too.
pub(super) const SHORT_DAYS: &[&str] = &[
    "mon", "tue", "tues", "wed", "thu", "thur", "thurs", "fri", "sat", "sun",
];

/// Does it name a day: a weekday, "tomorrow", or a month beside a number ("Monday 22
/// September", "June 19")?
pub(super) fn names_a_day(words: &[&str]) -> bool {
    const DAYS: &[&str] = &[
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
        "tomorrow",
        "tonight",
    ];
    let number = |w: Option<&&str>| w.is_some_and(|w| w.starts_with(|c: char| c.is_ascii_digit()));
    words.iter().enumerate().any(|(at, w)| {
        let w = word(w);
        DAYS.contains(&singular(w))
            || (MONTHS.contains(&w)
                && (number(words.get(at + 1))
                    || number(at.checked_sub(1).and_then(|b| words.get(b)))))
    })
}

/// A plural's singular, for telling two words the same thing ("migrations", "migration";
/// "terms", "term"); a word in "ss" or too short to tell stays.
pub(super) fn singular(word: &str) -> &str {
    match word.strip_suffix('s') {
        Some(stem) if stem.len() > 3 && !stem.ends_with('s') => stem,
        _ => word,
    }
}

/// Is `word` one of `words`?
pub(super) fn one_of(word: &str, words: &[&str]) -> bool {
    words.contains(&word)
}

/// The first clause a statement says in brackets, aside ("I do big pieces (two clients a
/// day max, my wrist's not what it was)"): of four words or more, not opening on what ties
/// it to the sentence ("(although she'll still be the first …)", "(i.e. strangers, …)"),
/// not in a question.
pub(super) fn aside(sentence: &str) -> Option<&str> {
    let (_, rest) = sentence.split_once('(')?;
    let (inside, _) = rest.split_once(')')?;
    let first = inside.split(", ").next()?.trim();
    let words = bare_words(first);
    (!sentence.trim_end().ends_with('?')
        && words.len() >= 4
        && !one_of(
            words[0],
            &[
                "although", "though", "which", "who", "whether", "because", "since", "like", "i.e",
                "e.g", "as", "if", "when", "unless",
            ],
        ))
    .then_some(first)
}
