//! The vocabulary-free counter that errs high; its measured error is in the module docs
//! of [`tokens`](super).

use super::TokenCounter;

/// A vocabulary-free counter that errs high; see the module docs for its measured error.
#[derive(Debug, Clone, Copy, Default)]
pub struct Estimator;

/// Weights in thousandths of a token per character, by class.
mod weight {
    /// ASCII lowercase letters: `o200k_base` averages about 4.2 per token on English and
    /// code.
    pub const LOWER: u64 = 290;
    /// ASCII uppercase letters: capitalized words cost little more, but upper-case runs
    /// (constants, ciphertext, hex) split into pieces of about two.
    pub const UPPER: u64 = 520;
    /// ASCII digits: the tokenizers group at most three.
    pub const DIGIT: u64 = 340;
    /// Within a run of letters and digits, each change between lowercase, uppercase and
    /// digits, and the start of every number: identifiers split at case changes, hex and
    /// base64 split nearly everywhere (about 1.7 characters per token), and version
    /// numbers and offsets are a token per digit group.
    pub const CLASS_CHANGE: u64 = 330;
    /// Spaces and tabs usually merge into the next word.
    pub const SPACE: u64 = 90;
    /// Line breaks often end a token.
    pub const NEWLINE: u64 = 450;
    /// ASCII punctuation and symbols: often a token each, sometimes merged in runs.
    pub const PUNCT: u64 = 560;
    /// Two-byte characters (accented Latin, Greek, Cyrillic, Hebrew, Arabic).
    pub const TWO_BYTE: u64 = 650;
    /// CJK ideographs, kana, Hangul and their punctuation: about one token each.
    pub const CJK: u64 = 1_250;
    /// General punctuation (dashes, quotes, ellipses).
    pub const GENERAL_PUNCT: u64 = 1_000;
    /// Other characters of the basic plane (rare scripts, symbols): often split into
    /// their UTF-8 bytes, up to three tokens.
    pub const OTHER_BMP: u64 = 2_700;
    /// Characters beyond the basic plane (emoji, rare ideographs).
    pub const ASTRAL: u64 = 3_000;
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum CharClass {
    Lower,
    Upper,
    Digit,
    Other,
}

fn char_weight(c: char) -> (u64, CharClass) {
    match c {
        'a'..='z' => (weight::LOWER, CharClass::Lower),
        'A'..='Z' => (weight::UPPER, CharClass::Upper),
        '0'..='9' => (weight::DIGIT, CharClass::Digit),
        ' ' | '\t' => (weight::SPACE, CharClass::Other),
        '\n' | '\r' => (weight::NEWLINE, CharClass::Other),
        '\0'..='\x7f' => (weight::PUNCT, CharClass::Other),
        '\u{80}'..='\u{7ff}' => (weight::TWO_BYTE, CharClass::Other),
        '\u{2000}'..='\u{206f}' => (weight::GENERAL_PUNCT, CharClass::Other),
        '\u{3000}'..='\u{30ff}'
        | '\u{4e00}'..='\u{9fff}'
        | '\u{ac00}'..='\u{d7af}'
        | '\u{ff00}'..='\u{ffef}' => (weight::CJK, CharClass::Other),
        '\u{800}'..='\u{ffff}' => (weight::OTHER_BMP, CharClass::Other),
        _ => (weight::ASTRAL, CharClass::Other),
    }
}

impl TokenCounter for Estimator {
    fn count(&self, text: &str) -> u64 {
        if text.is_empty() {
            return 0;
        }
        let mut milli = 0u64;
        let mut previous = CharClass::Other;
        for c in text.chars() {
            let (weight, class) = char_weight(c);
            milli += weight;
            let changes = class != previous && class != CharClass::Other;
            if changes && (previous != CharClass::Other || class == CharClass::Digit) {
                milli += weight::CLASS_CHANGE;
            }
            previous = class;
        }
        milli.div_ceil(1000).max(1)
    }

    fn name(&self) -> &str {
        "estimate"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(feature = "tiktoken")]
    use crate::tokens::Tiktoken;

    #[test]
    fn estimator_is_zero_only_for_empty_text() {
        assert_eq!(Estimator.count(""), 0);
        assert_eq!(Estimator.count("a"), 1);
        assert_eq!(Estimator.count("\u{1F600}"), 3);
    }

    #[cfg(feature = "tiktoken")]
    #[test]
    fn estimator_errs_high_on_cjk_and_cyrillic() {
        let o200k = Tiktoken::o200k_base();
        let samples = [
            "上下文窗口是模型一次能够读取的最大令牌数量。当对话超过这个限制时，代理必须压缩历史记录，否则提供商会拒绝请求。",
            "コンテキストウィンドウを超えると、エージェントは履歴を要約しなければなりません。ファイルパスとエラーメッセージは残すこと。",
            "컨텍스트 창을 넘으면 에이전트는 대화 기록을 요약해야 합니다. 파일 경로와 정확한 오류 메시지는 반드시 남겨야 합니다.",
            "Когда разговор превышает окно контекста, агент должен сжать историю, сохранив пути к файлам и точные сообщения об ошибках.",
        ];
        for text in samples {
            let exact = o200k.count(text);
            let estimate = Estimator.count(text);
            assert!(estimate >= exact, "{estimate} < {exact} for {text}");
            assert!(
                estimate <= exact * 3,
                "{estimate} far above {exact} for {text}"
            );
        }
    }
}
