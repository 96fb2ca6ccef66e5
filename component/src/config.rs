//! The `config` record and the other plain inputs: format and encoding names, messages.

use compactor::engine::CompactionConfig;
use compactor::format::{self, Conversation, ParseOptions};
use compactor::wire::{self, Given, OPTIONS};

use crate::error::{Code, Failure, Wit};

/// The WIT `config` record as the host layer reads it: the options given, by their core
/// names (`max_context_tokens`), each left out taking the catalog's value, else the
/// engine's default. The bindings fill it from the record field by field.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Config {
    given: Vec<(String, Given)>,
}

/// A WIT field's value as the options table reads it; `None` is a field left out.
pub trait Field {
    /// The value, `None` when the field was left out.
    fn given(self) -> Option<Given>;
}

/// The WIT record's field types, each with the value it gives.
macro_rules! field {
    ($($t:ty => $given:expr;)*) => {$(
        impl Field for Option<$t> {
            fn given(self) -> Option<Given> {
                self.map($given)
            }
        }
    )*};
}
field! {
    String => Given::Text;
    u64 => Given::Integer;
    u32 => |n| Given::Integer(n.into());
    f64 => Given::Number;
    bool => Given::Bool;
}

impl Config {
    /// This config with option `name` (the core's spelling) set to `value`; `None` leaves
    /// it out.
    #[must_use]
    pub fn with(mut self, name: &str, value: impl Field) -> Self {
        if let Some(given) = value.given() {
            self.given.retain(|(n, _)| n != name);
            self.given.push((name.to_owned(), given));
        }
        self
    }

    /// The core's configuration. Numbers are checked by the core when the compactor is
    /// built; here only names and kinds are read. 0 turns off an option that a value
    /// turns off (the message-count signal).
    pub fn to_core(&self) -> Result<CompactionConfig, Failure> {
        if let Some((name, _)) = self
            .given
            .iter()
            .find(|(name, _)| !OPTIONS.iter().any(|o| o.name == name))
        {
            return Err(Failure::new(
                Code::Internal,
                format!("config.{name}: no such option in the engine's table"),
            ));
        }
        wire::read_config::<Wit>(|opt, _| {
            let given = self.given.iter().find(|(n, _)| n == opt.name);
            // 0 turns an option off ([`compactor::wire::options::Opt::set`]).
            Ok(given.map(|(_, given)| given.clone()))
        })
    }
}

/// How to read a conversation (the WIT `read-options`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReadOptions {
    /// A format's name (`openai`, `ai-sdk`: as `detect-format` names them); `None` detects
    /// it.
    pub format: Option<String>,
    /// Keep unknown roles and parts as pinned, opaque messages instead of failing.
    pub lenient: bool,
}

/// Reads `text` as a conversation in the format the options name, or in the one detected
/// from it. Messages keep their text: untouched ones are written back byte for byte.
pub fn read_conversation(text: &str, read: &ReadOptions) -> Result<Conversation, Failure> {
    let options = ParseOptions {
        lenient: read.lenient,
    };
    let conversation = match read.format.as_deref() {
        Some(name) => format::parse_str(text, wire::format_named(name, "format")?, options),
        None => format::parse_str_auto(text, options),
    }?;
    Ok(conversation)
}
