//! How a tiktoken vocabulary cuts text into pieces before it merges bytes: the regular
//! expression each encoding was trained with, written out by hand.
//!
//! tiktoken matches these patterns with a backtracking regex engine (leftmost-first
//! alternation, greedy quantifiers that give back). Each function below is one pattern,
//! alternative by alternative, with the backtracking worked out: a word's letters are
//! scanned once instead of retried. The patterns match at every position, so the pieces
//! cover the text without gaps. Tests compare the pieces with the patterns run by
//! fancy-regex (tiktoken-rs's engine) on random text and on the corpus.

use super::classes::{Class, class_of};

/// An encoding's split pattern.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Split {
    /// `o200k_base`:
    /// `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?`
    /// `|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?`
    /// `|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`
    O200k,
    /// `cl100k_base`:
    /// `'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+`
    /// `|\s++$|\s*[\r\n]|\s+(?!\S)|\s`
    Cl100k,
}

impl Split {
    /// The pieces of `text`, in order; joined, they are `text`.
    pub(crate) fn pieces(self, text: &str) -> Pieces<'_> {
        Pieces {
            text: Text(text),
            at: 0,
            split: self,
        }
    }
}

/// The pieces of a text; see [`Split::pieces`].
pub(crate) struct Pieces<'a> {
    text: Text<'a>,
    at: usize,
    split: Split,
}

impl<'a> Iterator for Pieces<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let start = self.at;
        let first = self.text.at(start)?;
        let end = match self.split {
            Split::O200k => self.text.o200k_piece(start, first),
            Split::Cl100k => self.text.cl100k_piece(start, first),
        };
        self.at = end;
        self.text.0.get(start..end)
    }
}

/// A character, where it ends, and its class.
#[derive(Debug, Clone, Copy)]
struct Char {
    c: char,
    end: usize,
    class: Class,
}

impl Char {
    /// `[^\r\n\p{L}\p{N}]`: what may stand before a word.
    fn may_lead_word(self) -> bool {
        !matches!(self.c, '\r' | '\n') && !self.class.is_letter() && self.class != Class::Number
    }

    fn is_newline(self) -> bool {
        matches!(self.c, '\r' | '\n')
    }
}

#[derive(Debug, Clone, Copy)]
struct Text<'a>(&'a str);

impl Text<'_> {
    /// The character that starts at byte `at`, if any.
    fn at(self, at: usize) -> Option<Char> {
        let &byte = self.0.as_bytes().get(at)?;
        let c = if byte < 0x80 {
            char::from(byte)
        } else {
            self.0.get(at..)?.chars().next()?
        };
        Some(Char {
            c,
            end: at + c.len_utf8(),
            class: class_of(c),
        })
    }

    /// Where the run of characters satisfying `keep` that starts at `at` ends.
    fn run_end(self, mut at: usize, keep: impl Fn(Char) -> bool) -> usize {
        while let Some(c) = self.at(at).filter(|&c| keep(c)) {
            at = c.end;
        }
        at
    }

    /// `\p{N}{1,3}` at a number.
    fn number_end(self, first: Char) -> usize {
        let mut end = first.end;
        for _ in 1..3 {
            match self.at(end) {
                Some(c) if c.class == Class::Number => end = c.end,
                _ => break,
            }
        }
        end
    }

    /// ` ?[^\s\p{L}\p{N}]+` followed by a run of `tail` characters, at `first`.
    fn punctuation_end(self, first: Char, tail: impl Fn(char) -> bool) -> Option<usize> {
        let start = if first.class.is_punctuation() {
            first.end
        } else {
            let second = self.at(first.end).filter(|c| c.class.is_punctuation());
            second.filter(|_| first.c == ' ')?.end
        };
        let end = self.run_end(start, |c| c.class.is_punctuation());
        Some(self.run_end(end, |c| tail(c.c)))
    }

    /// The white space run at `first`: where it ends, where its last character starts,
    /// and where its last `\r` or `\n` ends.
    fn space_run(self, first: Char) -> (usize, usize, Option<usize>) {
        let (mut last_start, mut end) = (first.end - first.c.len_utf8(), first.end);
        let mut newline_end = first.is_newline().then_some(first.end);
        while let Some(c) = self.at(end).filter(|c| c.class == Class::Space) {
            if c.is_newline() {
                newline_end = Some(c.end);
            }
            (last_start, end) = (end, c.end);
        }
        (end, last_start, newline_end)
    }

    /// One `o200k_base` piece starting at `start` (whose character is `first`).
    fn o200k_piece(self, start: usize, first: Char) -> usize {
        if let Some(end) = self.o200k_ascii_word(start) {
            return end;
        }
        if first.class == Class::Number {
            return self.number_end(first);
        }
        // No word starts at an ASCII character other than a letter when another follows.
        let bytes = self.0.as_bytes();
        let ascii_non_letter =
            |b: Option<&u8>| b.is_none_or(|b| b.is_ascii() && !b.is_ascii_alphabetic());
        if !(ascii_non_letter(bytes.get(start)) && ascii_non_letter(bytes.get(first.end))) {
            let after_lead = first.may_lead_word().then_some(first.end);
            // The two word alternatives, each with its optional leading character first.
            let word = after_lead
                .and_then(|at| self.o200k_lower_word(at))
                .or_else(|| self.o200k_lower_word(start))
                .or_else(|| after_lead.and_then(|at| self.o200k_upper_word(at)))
                .or_else(|| self.o200k_upper_word(start));
            if let Some(end) = word {
                return end;
            }
        }
        if let Some(end) = self.punctuation_end(first, |c| matches!(c, '\r' | '\n' | '/')) {
            return end;
        }
        // `\s*[\r\n]+`, then `\s+(?!\S)`, then `\s+`.
        let (end, last_start, newline_end) = self.space_run(first);
        match newline_end {
            Some(newline_end) => newline_end,
            None if end == self.0.len() || last_start == start => end,
            None => last_start,
        }
    }

    /// The common case of the word alternatives, on bytes: an ASCII word (`[A-Z]*[a-z]*`,
    /// at least one letter) after at most one ASCII character that may lead a word, and
    /// followed by an ASCII character other than `'`. Both alternatives then match exactly
    /// that; anything else (a number first, a character beyond ASCII, a contraction) is
    /// left to the full rules.
    fn o200k_ascii_word(self, start: usize) -> Option<usize> {
        let letters = |word: &[u8]| {
            let upper = word.iter().take_while(|b| b.is_ascii_uppercase()).count();
            upper
                + word[upper..]
                    .iter()
                    .take_while(|b| b.is_ascii_lowercase())
                    .count()
        };
        self.ascii_word(start, letters, |b| b.is_ascii() && b != b'\'')
    }

    /// An ASCII word of `letters` (which say how many bytes of its text it takes) after at
    /// most one ASCII character that may lead a word, when the byte after it (if any)
    /// satisfies `ends_word`: where it ends.
    fn ascii_word(
        self,
        start: usize,
        letters: impl Fn(&[u8]) -> usize,
        ends_word: impl Fn(u8) -> bool,
    ) -> Option<usize> {
        let bytes = self.0.as_bytes();
        let leads =
            |b: u8| b.is_ascii() && !b.is_ascii_alphanumeric() && !matches!(b, b'\r' | b'\n');
        let word = match *bytes.get(start)? {
            b if b.is_ascii_alphabetic() => start,
            b if leads(b) && bytes.get(start + 1)?.is_ascii_alphabetic() => start + 1,
            _ => return None,
        };
        let end = word + letters(&bytes[word..]);
        match bytes.get(end) {
            Some(&b) if !ends_word(b) => None,
            _ => Some(end),
        }
    }

    /// `[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+` and a contraction, at
    /// `at`. The first run is greedy and gives back until the second can match: the word
    /// ends after the lowercase run that follows the uppercase-like run, or else after the
    /// last lowercase-like character inside it.
    fn o200k_lower_word(self, at: usize) -> Option<usize> {
        let mut end = at;
        let mut last_lower_like_end = None;
        while let Some(c) = self.at(end).filter(|c| c.class.is_upper_like()) {
            if c.class.is_lower_like() {
                last_lower_like_end = Some(c.end);
            }
            end = c.end;
        }
        let end = match self.at(end) {
            Some(c) if c.class.is_lower_like() => self.run_end(end, |c| c.class.is_lower_like()),
            _ => last_lower_like_end?,
        };
        Some(self.contraction_end(end).unwrap_or(end))
    }

    /// `[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*` and a contraction.
    fn o200k_upper_word(self, at: usize) -> Option<usize> {
        let upper_end = self.run_end(at, |c| c.class.is_upper_like());
        if upper_end == at {
            return None;
        }
        let end = self.run_end(upper_end, |c| c.class.is_lower_like());
        Some(self.contraction_end(end).unwrap_or(end))
    }

    /// `(?i:'s|'t|'re|'ve|'m|'ll|'d)` at `at`; `cl100k_base` says `'(?i:[sdmt]|ll|ve|re)`,
    /// the same set. Case-insensitive as the regex crate folds case: `'ſ` (long s) counts.
    fn contraction_end(self, at: usize) -> Option<usize> {
        let quote = self.at(at).filter(|c| c.c == '\'')?;
        let first = self.at(quote.end)?;
        let second = |expected: char| {
            self.at(first.end)
                .filter(|c| c.c.eq_ignore_ascii_case(&expected))
                .map(|c| c.end)
        };
        match first.c {
            's' | 'S' | 'ſ' | 't' | 'T' | 'm' | 'M' | 'd' | 'D' => Some(first.end),
            'r' | 'R' | 'v' | 'V' => second('e'),
            'l' | 'L' => second('l'),
            _ => None,
        }
    }

    /// One `cl100k_base` piece starting at `start` (whose character is `first`).
    fn cl100k_piece(self, start: usize, first: Char) -> usize {
        if let Some(end) = self.contraction_end(start) {
            return end;
        }
        // `[^\r\n\p{L}\p{N}]?+\p{L}++`, on bytes while it is ASCII.
        let ascii_letters =
            |word: &[u8]| word.iter().take_while(|b| b.is_ascii_alphabetic()).count();
        if let Some(end) = self.ascii_word(start, ascii_letters, |b| b.is_ascii()) {
            return end;
        }
        let letters = if first.class.is_letter() {
            Some(start)
        } else {
            let second = self.at(first.end).filter(|c| c.class.is_letter());
            second.filter(|_| first.may_lead_word()).map(|_| first.end)
        };
        if let Some(at) = letters {
            return self.run_end(at, |c| c.class.is_letter());
        }
        if first.class == Class::Number {
            return self.number_end(first);
        }
        if let Some(end) = self.punctuation_end(first, |c| matches!(c, '\r' | '\n')) {
            return end;
        }
        // `\s++$`, then `\s*[\r\n]`, then `\s+(?!\S)`, then `\s`.
        let (end, last_start, newline_end) = self.space_run(first);
        if end == self.0.len() {
            end
        } else if let Some(newline_end) = newline_end {
            newline_end
        } else if last_start == start {
            end
        } else {
            last_start
        }
    }
}

/// Characters from every class and every edge of the patterns: cased, caseless and
/// titlecase letters, marks, numbers of all kinds, white space of all kinds, the
/// contraction letters with the long s, slashes, quotes and emoji.
#[cfg(test)]
const ALPHABET: &[char] = &[
    'a', 'b', 's', 't', 'r', 'e', 'v', 'm', 'l', 'd', 'A', 'S', 'T', 'R', 'E', 'V', 'M', 'L', 'D',
    'ſ', 'ǅ', 'ʰ', '中', 'ก', 'é', '\u{301}', '\u{93F}', '0', '7', '²', 'Ⅻ', '٣', ' ', ' ', ' ',
    '\t', '\n', '\r', '\u{a0}', '\u{2028}', '\u{3000}', '\u{85}', '\u{b}', '\'', '’', '/', '.',
    ',', '!', '-', '_', '(', '$', '\u{200b}', '\u{1}', '😀', 'Я', 'я', 'ß',
];

/// Random text of `chars` characters from [`ALPHABET`], for tests.
#[cfg(test)]
pub(super) fn arbitrary_text(
    chars: std::ops::Range<usize>,
) -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    prop::collection::vec(prop::sample::select(ALPHABET), chars)
        .prop_map(|chars| chars.into_iter().collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// tiktoken-rs's `cl100k_base` pattern (it exports only `o200k_base`'s).
    const CL100K_BASE_PAT_STR: &str = "'(?i:[sdmt]|ll|ve|re)|[^\\r\\n\\p{L}\\p{N}]?+\\p{L}++|\\p{N}{1,3}+| ?[^\\s\\p{L}\\p{N}]++[\\r\\n]*+|\\s++$|\\s*[\\r\\n]|\\s+(?!\\S)|\\s";

    /// The split pattern as tiktoken-rs compiles it.
    fn pattern(split: Split) -> fancy_regex::Regex {
        let source = match split {
            Split::O200k => tiktoken_rs::O200K_BASE_PAT_STR,
            Split::Cl100k => CL100K_BASE_PAT_STR,
        };
        fancy_regex::Regex::new(source).expect("tiktoken's pattern compiles")
    }

    fn regex_pieces(regex: &fancy_regex::Regex, text: &str) -> Vec<String> {
        regex
            .find_iter(text)
            .map(|m| m.expect("no backtracking limit").as_str().to_owned())
            .collect()
    }

    fn pieces(split: Split, text: &str) -> Vec<String> {
        split.pieces(text).map(str::to_owned).collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        #[test]
        fn pieces_are_the_patterns_matches(text in arbitrary_text(0..40)) {
            for split in [Split::O200k, Split::Cl100k] {
                let regex = pattern(split);
                prop_assert_eq!(pieces(split, &text), regex_pieces(&regex, &text), "{:?}", split);
            }
        }
    }

    #[test]
    fn examples_split_as_tiktoken_does() {
        let cases: &[(&str, &[&str])] = &[
            ("HTTPServer don't", &["HTTPServer", " don't"]),
            ("  \n  foo", &["  \n", " ", " foo"]),
            ("12345", &["123", "45"]),
            ("a+=b;\n//x", &["a", "+=", "b", ";\n//", "x"]),
            ("end   ", &["end", "   "]),
        ];
        for (text, expected) in cases {
            assert_eq!(pieces(Split::O200k, text), *expected, "{text:?}");
        }
        assert_eq!(
            pieces(Split::Cl100k, "don't  \n x\n  "),
            ["don", "'t", "  \n", " x", "\n  "]
        );
    }
}
