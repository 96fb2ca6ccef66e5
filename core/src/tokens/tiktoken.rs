//! Exact counting with a tiktoken vocabulary: the counter and the errors of a rank file.

use std::fmt;
use std::sync::Arc;

use super::bpe::{self, Vocabulary};
use super::split::Split;
use super::{Encoding, TokenCounter};

/// Exact counting with a tiktoken vocabulary: an embedded one (read once per process and
/// shared) or one read from a rank file at run time ([`Tiktoken::from_ranks`]). Counts
/// equal tiktoken's `encode_ordinary` lengths: text is cut into pieces by the encoding's
/// split pattern (written out by hand, without a regex engine) and each piece's bytes are
/// merged by rank.
#[derive(Clone)]
pub struct Tiktoken {
    vocabulary: Arc<Vocabulary>,
    split: Split,
    encoding: Encoding,
}

/// Why a rank file was refused by [`Tiktoken::from_ranks`]. Nothing was built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RanksError {
    /// The encoding has no vocabulary (`estimate`): count with [`Estimator`](super::Estimator) instead.
    #[error("{0} is not a tiktoken encoding")]
    NotBpe(Encoding),
    /// The file holds no ranks: pass the contents of the encoding's `.tiktoken` file.
    #[error("the rank file is empty")]
    Empty,
    /// A line is not UTF-8 text: the bytes are not a `.tiktoken` file.
    #[error("line {line}: not UTF-8 text")]
    NotUtf8 {
        /// The line, counted from 1.
        line: usize,
    },
    /// A line is not `base64token rank`.
    #[error("line {line}: expected `base64token rank`")]
    Malformed {
        /// The line, counted from 1.
        line: usize,
    },
    /// A line's token is not standard base64 of at least one byte.
    #[error("line {line}: the token is not base64")]
    BadToken {
        /// The line, counted from 1.
        line: usize,
    },
    /// A line's rank is not an integer below 2^32 − 1.
    #[error("line {line}: the rank is not an integer below 4294967295")]
    BadRank {
        /// The line, counted from 1.
        line: usize,
    },
    /// A single byte has no rank, and text containing it could not be counted: the file is
    /// truncated or not a byte-level vocabulary.
    #[error("byte {0:#04x} has no rank: the file is incomplete")]
    MissingByte(u8),
    /// A line repeats a token or a rank of an earlier line: the file is damaged.
    #[error("line {line}: repeats a token or a rank of an earlier line")]
    Duplicate {
        /// The line, counted from 1.
        line: usize,
    },
}

impl Tiktoken {
    #[cfg(feature = "o200k")]
    /// `o200k_base` (GPT-4o, GPT-4.1, GPT-5, o-series). The first call reads the embedded
    /// vocabulary (about 3.6 MB of rank file); later calls share it.
    pub fn o200k_base() -> Self {
        static VOCABULARY: std::sync::OnceLock<Arc<Vocabulary>> = std::sync::OnceLock::new();
        let file = include_bytes!("../../vocab/o200k_base.tiktoken");
        Self::embedded(&VOCABULARY, Encoding::O200kBase, Split::O200k, file)
    }

    #[cfg(feature = "cl100k")]
    /// `cl100k_base` (GPT-4, GPT-3.5).
    pub fn cl100k_base() -> Self {
        static VOCABULARY: std::sync::OnceLock<Arc<Vocabulary>> = std::sync::OnceLock::new();
        let file = include_bytes!("../../vocab/cl100k_base.tiktoken");
        Self::embedded(&VOCABULARY, Encoding::Cl100kBase, Split::Cl100k, file)
    }

    #[cfg(any(feature = "o200k", feature = "cl100k"))]
    fn embedded(
        vocabulary: &std::sync::OnceLock<Arc<Vocabulary>>,
        encoding: Encoding,
        split: Split,
        file: &[u8],
    ) -> Self {
        let vocabulary = vocabulary.get_or_init(|| {
            // The files are OpenAI's, checked by the tests; they parse.
            Arc::new(Vocabulary::parse(file).expect("the embedded rank file is valid"))
        });
        Self {
            vocabulary: Arc::clone(vocabulary),
            split,
            encoding,
        }
    }

    /// `encoding` counted with the ranks of `ranks`, the contents of its `.tiktoken` file
    /// (one `base64token rank` per line, as OpenAI publishes `o200k_base.tiktoken` and
    /// `cl100k_base.tiktoken`). For builds that do not embed the vocabulary; counts equal the
    /// embedded one's when the file is the same.
    pub fn from_ranks(encoding: Encoding, ranks: &[u8]) -> Result<Self, RanksError> {
        let split = Self::split(encoding).ok_or(RanksError::NotBpe(encoding))?;
        Ok(Self {
            vocabulary: Arc::new(Vocabulary::parse(ranks)?),
            split,
            encoding,
        })
    }

    /// The split pattern `encoding` was trained with.
    fn split(encoding: Encoding) -> Option<Split> {
        match encoding {
            Encoding::O200kBase => Some(Split::O200k),
            Encoding::Cl100kBase => Some(Split::Cl100k),
            Encoding::Estimate => None,
        }
    }

    /// The encoding this counter counts.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }
}

impl TokenCounter for Tiktoken {
    fn count(&self, text: &str) -> u64 {
        // Special-token strings inside a conversation are text, not control tokens.
        let mut scratch = bpe::Scratch::default();
        self.split
            .pieces(text)
            .map(|piece| self.vocabulary.count_piece(piece.as_bytes(), &mut scratch) as u64)
            .sum()
    }

    fn name(&self) -> &str {
        self.encoding.as_str()
    }
}

impl fmt::Debug for Tiktoken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Tiktoken").field(&self.encoding).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokens::split;

    #[cfg(feature = "tiktoken")]
    #[test]
    fn encodings_count_exactly() {
        assert_eq!(Encoding::O200kBase.counter().count("hello world"), 2);
        assert_eq!(Encoding::Cl100kBase.counter().count("hello world"), 2);
        assert_eq!(Encoding::parse("o200k_base"), Some(Encoding::O200kBase));
        assert_eq!(Encoding::parse("gpt2"), None);
    }

    /// Ours and tiktoken-rs's tokenizer for each embedded encoding.
    #[cfg(feature = "tiktoken")]
    fn with_references() -> [(Tiktoken, &'static tiktoken_rs::CoreBPE); 2] {
        [
            (Tiktoken::o200k_base(), tiktoken_rs::o200k_base_singleton()),
            (
                Tiktoken::cl100k_base(),
                tiktoken_rs::cl100k_base_singleton(),
            ),
        ]
    }

    #[cfg(feature = "tiktoken")]
    #[test]
    fn counts_equal_tiktoken_rs() {
        let long_hex: String = (0..600u32)
            .map(|i| format!("{:x}", i.wrapping_mul(2_654_435_761) % 16))
            .collect();
        let samples = [
            String::new(),
            "hello world".into(),
            "fn main() {\n    println!(\"{}\", 0xDEADBEEF);\n}\n".into(),
            "上下文窗口是模型一次能够读取的最大令牌数量。".into(),
            "Когда разговор превышает окно контекста <|endoftext|> 🙂🙂  \r\n\n   trailing   "
                .into(),
            "I'm sure they'll say WE'RE 12345678 aGVsbG8gd29ybGQ=".into(),
            // Long pieces, merged with the heap.
            " ".repeat(5_000),
            "ab".repeat(700),
            format!("{}\n", "=".repeat(300)),
            "ſ中ǅ\u{301}".repeat(90),
            long_hex,
        ];
        for (ours, reference) in with_references() {
            for text in &samples {
                let expected = reference.encode_ordinary(text).len() as u64;
                assert_eq!(ours.count(text), expected, "{}: {text:?}", ours.name());
            }
        }
    }

    #[cfg(feature = "tiktoken")]
    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(1_000))]

        #[test]
        fn counts_equal_tiktoken_rs_on_random_text(
            short in split::arbitrary_text(0..60),
            long in split::arbitrary_text(100..400),
        ) {
            for (ours, reference) in with_references() {
                for text in [&short, &long] {
                    let expected = reference.encode_ordinary(text).len() as u64;
                    proptest::prop_assert_eq!(ours.count(text), expected, "{}: {:?}", ours.name(), text);
                }
            }
        }
    }

    /// Characters of the scripts whose text is mostly multi-byte (CJK, kana, hangul,
    /// Devanagari, Thai, emoji), and any character at all.
    #[cfg(feature = "tiktoken")]
    fn multi_byte_text() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let ranges = [
            0x4e00u32..=0x9fff,
            0x3040..=0x30ff,
            0xac00..=0xd7a3,
            0x0900..=0x097f,
            0x0e00..=0x0e7f,
            0x1f300..=0x1faff,
        ];
        let scripts = ranges.map(|range| {
            range
                .prop_filter_map("a scalar value", char::from_u32)
                .boxed()
        });
        let [cjk, kana, hangul, devanagari, thai, emoji] = scripts;
        let char = prop_oneof![cjk, kana, hangul, devanagari, thai, emoji, any::<char>()];
        prop::collection::vec(char, 0..120).prop_map(String::from_iter)
    }

    #[cfg(feature = "tiktoken")]
    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(500))]

        #[test]
        fn counts_equal_tiktoken_rs_on_multi_byte_text(text in multi_byte_text()) {
            for (ours, reference) in with_references() {
                let expected = reference.encode_ordinary(&text).len() as u64;
                proptest::prop_assert_eq!(ours.count(&text), expected, "{}: {:?}", ours.name(), text);
            }
        }
    }

    /// Every token of `o200k_base` that is text of more than one character, none ASCII
    /// (words of CJK, kana, hangul, Cyrillic, …): text made of them puts tokens across
    /// the boundaries between characters, where a long piece is cut only when none can lie.
    #[cfg(feature = "tiktoken")]
    fn multi_byte_words() -> Vec<String> {
        use base64::Engine as _;
        let file = include_str!("../../vocab/o200k_base.tiktoken");
        file.lines()
            .filter_map(|line| line.split_once(' '))
            .filter_map(|(token, _)| base64::engine::general_purpose::STANDARD.decode(token).ok())
            .filter_map(|bytes| String::from_utf8(bytes).ok())
            .filter(|word| word.chars().count() > 1 && !word.chars().any(|c| c.is_ascii()))
            .collect()
    }

    #[cfg(feature = "tiktoken")]
    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

        #[test]
        fn counts_equal_tiktoken_rs_on_runs_of_multi_byte_words(
            picks in proptest::collection::vec((proptest::prelude::any::<proptest::sample::Index>(), 0..4u8), 1..60),
            noise in multi_byte_text(),
        ) {
            static WORDS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
            let words = WORDS.get_or_init(multi_byte_words);
            let mut noise = noise.chars().cycle();
            let mut text = String::new();
            for (pick, how) in picks {
                let word = pick.get(words);
                match how {
                    // A word whole, its first or last character alone, or one from the noise.
                    0 | 1 => text.push_str(word),
                    2 => text.extend(word.chars().next()),
                    _ => text.extend(noise.next().or(word.chars().last())),
                }
            }
            for (ours, reference) in with_references() {
                let expected = reference.encode_ordinary(&text).len() as u64;
                proptest::prop_assert_eq!(ours.count(&text), expected, "{}: {:?}", ours.name(), text);
            }
        }
    }

    #[cfg(feature = "tiktoken")]
    #[test]
    fn loaded_ranks_count_like_the_embedded_vocabularies() {
        let text = "Когда разговор превышает окно, I'm sure they'll say 12345678 🙂";
        let files: [(Encoding, &[u8]); 2] = [
            (
                Encoding::O200kBase,
                include_bytes!("../../vocab/o200k_base.tiktoken"),
            ),
            (
                Encoding::Cl100kBase,
                include_bytes!("../../vocab/cl100k_base.tiktoken"),
            ),
        ];
        for ((encoding, file), (embedded, _)) in files.into_iter().zip(with_references()) {
            let loaded = Tiktoken::from_ranks(encoding, file).expect("valid ranks");
            assert_eq!(loaded.name(), encoding.as_str());
            assert_eq!(loaded.encoding(), embedded.encoding());
            assert_eq!(loaded.count(text), embedded.count(text), "{encoding}");
        }
    }

    #[cfg(feature = "bpe-runtime")]
    #[test]
    fn a_small_rank_file_merges_by_rank() {
        // Every byte, then "ab" and " ab": "ab ab" is "ab" then " ab".
        let tiktoken = Tiktoken::from_ranks(
            Encoding::O200kBase,
            bytes_then(&["YWI=", "IGFi"]).as_bytes(),
        )
        .expect("valid ranks");
        assert_eq!(tiktoken.count("ab ab"), 2);
        assert_eq!(tiktoken.count("ba"), 2);
        assert_eq!(tiktoken.count("\u{1F600}"), 4);
        assert_eq!(tiktoken.count(""), 0);
    }

    /// A rank file with every single byte (ranks 0 to 255), then `merged` (base64).
    #[cfg(feature = "bpe-runtime")]
    fn bytes_then(merged: &[&str]) -> String {
        use base64::Engine as _;
        let bytes = (0..=u8::MAX).map(|b| base64::engine::general_purpose::STANDARD.encode([b]));
        bytes
            .chain(merged.iter().map(|m| (*m).to_owned()))
            .enumerate()
            .map(|(rank, token)| format!("{token} {rank}\r\n"))
            .collect()
    }

    #[cfg(feature = "bpe-runtime")]
    #[test]
    fn bad_rank_files_name_the_line() {
        let cases: [(&[u8], RanksError); 11] = [
            (b"", RanksError::Empty),
            (b"\n\n", RanksError::Empty),
            (b"YQ== 0\n\xff\xfe 1\n", RanksError::NotUtf8 { line: 2 }),
            (b"YQ==\n", RanksError::Malformed { line: 1 }),
            (b"YQ== 0\n!!! 1\n", RanksError::BadToken { line: 2 }),
            (b"YQ== -1\n", RanksError::BadRank { line: 1 }),
            (b"YQ== 4294967295\n", RanksError::BadRank { line: 1 }),
            (b" 0\n", RanksError::BadToken { line: 1 }),
            (b"YQ== 0\nYg== 0\n", RanksError::Duplicate { line: 2 }),
            (b"YQ== 0\nYQ== 1\n", RanksError::Duplicate { line: 2 }),
            (b"YQ== 0\nYg== 1\n", RanksError::MissingByte(0)),
        ];
        for (ranks, expected) in cases {
            let error = Tiktoken::from_ranks(Encoding::O200kBase, ranks).expect_err("refused");
            assert_eq!(error, expected);
        }
        assert_eq!(
            Tiktoken::from_ranks(Encoding::Estimate, b"YQ== 0").expect_err("refused"),
            RanksError::NotBpe(Encoding::Estimate)
        );
        assert_eq!(
            RanksError::BadToken { line: 7 }.to_string(),
            "line 7: the token is not base64"
        );
    }
}
