//! The names hosts give formats, triggers and encodings, and config fields: one table each,
//! spelled per host. A name is a list of words (`ai sdk`); a host joins them its way
//! ([`Spelling`]): `aiSdk` in JS, `ai-sdk` in WIT and on the command line.

use super::{Failure, Host};
use crate::engine::Trigger;
use crate::format::Format;
use crate::tokens::Encoding;

/// How a host joins the words of a name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spelling {
    /// `maxSummaryTokens`, `aiSdk`: JavaScript's.
    Camel,
    /// `max-summary-tokens`, `ai-sdk`: WIT's, and the command line's.
    Kebab,
    /// `max_summary_tokens`: Rust's and Python's.
    Snake,
}

impl Spelling {
    /// `words` joined this way.
    pub fn spell<'a>(self, words: impl IntoIterator<Item = &'a str>) -> String {
        let mut out = String::new();
        for (i, word) in words.into_iter().enumerate() {
            match self {
                Spelling::Camel if i > 0 => {
                    let mut chars = word.chars();
                    out.extend(chars.next().map(|c| c.to_ascii_uppercase()));
                    out.push_str(chars.as_str());
                }
                Spelling::Kebab if i > 0 => {
                    out.push('-');
                    out.push_str(word);
                }
                Spelling::Snake if i > 0 => {
                    out.push('_');
                    out.push_str(word);
                }
                _ => out.push_str(word),
            }
        }
        out
    }
}

/// The triggers, by their one-word names.
pub const TRIGGERS: [(Trigger, &str); 3] = [
    (Trigger::Proactive, "proactive"),
    (Trigger::Reactive, "reactive"),
    (Trigger::Manual, "manual"),
];

/// Format `format`'s name in `spelling`: the words of [`Format::as_str`].
pub fn format_name(format: Format, spelling: Spelling) -> String {
    spelling.spell(format.as_str().split('-'))
}

/// Every format's name in `spelling`, as an error lists them: `"openai", … or "gemini"`.
pub fn format_names(spelling: Spelling) -> String {
    listed(Format::ALL.map(|f| format_name(f, spelling)))
}

/// The format host `H` names `name`, given at `path`.
pub fn format_named<H: Host>(name: &str, path: &str) -> Result<Format, Failure<H>> {
    Format::ALL
        .into_iter()
        .find(|&format| format_name(format, H::SPELLING) == name)
        .ok_or_else(|| {
            Failure::invalid(
                path,
                format!(
                    "unknown format {name:?} (expected {})",
                    format_names(H::SPELLING)
                ),
            )
        })
}

/// The trigger named `name`, given at `path`.
pub fn trigger_named<H>(name: &str, path: &str) -> Result<Trigger, Failure<H>> {
    TRIGGERS
        .iter()
        .find(|(_, n)| *n == name)
        .map(|&(trigger, _)| trigger)
        .ok_or_else(|| {
            Failure::invalid(
                path,
                format!(
                    "expected {}, found {name:?}",
                    listed(TRIGGERS.map(|(_, n)| n.to_owned()))
                ),
            )
        })
}

/// The encoding `name` given at `path` (`o200k_base`, `cl100k_base`, `estimate`: the same
/// in every host).
pub fn encoding_named<H>(name: &str, path: &str) -> Result<Encoding, Failure<H>> {
    Encoding::parse(name).ok_or_else(|| {
        Failure::invalid(
            path,
            format!(
                "unknown encoding {name:?} (expected \"o200k_base\", \"cl100k_base\" or \"estimate\")"
            ),
        )
    })
}

/// The npm package's `MessageFormat` type: every format's name in JS.
pub fn typescript() -> String {
    let names: Vec<String> = Format::ALL
        .iter()
        .map(|&f| format!("{:?}", format_name(f, Spelling::Camel)))
        .collect();
    format!(
        "\n/**\n * Message formats: OpenAI Chat Completions, Anthropic Messages (a body with `system`, or\n \
         * an array of messages), Vercel AI SDK `ModelMessage`s (and AI SDK 4 `CoreMessage`s),\n \
         * OpenAI Responses input items (an array, or a body with `input` and `instructions`) and\n \
         * Gemini `contents` (an array, or a body with `contents` and `systemInstruction`).\n \
         */\nexport type MessageFormat = {};\n",
        names.join(" | ")
    )
}

/// `"a", "b" or "c"`.
fn listed<const N: usize>(names: [String; N]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("{n:?}")).collect();
    match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => quoted.concat(),
    }
}
