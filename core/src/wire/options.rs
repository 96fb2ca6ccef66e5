//! The config options, once: every field of [`CompactionConfig`] a host may set, with its
//! doc, its range and whether a value turns it off. Each host reads its config through
//! [`read_config`] (asking for each option by its own spelling of the name); the npm
//! package's TypeScript declaration and the WIT record are written from this table
//! ([`typescript`], [`wit_record`]) and a test holds the files equal to what it writes,
//! and Python's keyword arguments are tested against the WIT record. Adding an option is
//! one row here, and its meaning in the engine.
//!
//! A doc names another option as `{name}`, spelled per host when written.

use super::names::Spelling;
use super::{Failure, Host};
use crate::engine::CompactionConfig;
use crate::tokens::Encoding;

/// What kind of value an option takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A string.
    Text,
    /// A non-negative integer, at most `max`.
    Integer {
        /// The largest value the field holds.
        max: u64,
    },
    /// A finite number.
    Number,
    /// A boolean.
    Bool,
    /// An encoding's name: a string.
    Encoding,
}

/// A value a host read for an option.
#[derive(Debug, Clone, PartialEq)]
pub enum Given {
    /// A string.
    Text(String),
    /// A non-negative integer.
    Integer(u64),
    /// A number.
    Number(f64),
    /// A boolean.
    Bool(bool),
    /// The value that turns the option off (`null` in JS; 0 in every host, see
    /// [`Opt::set`]): only for an option whose [`Opt::off`] is set.
    Off,
}

/// One option.
#[derive(Debug, Clone, Copy)]
pub struct Opt {
    /// Its name as the core spells it (`max_summary_tokens`).
    pub name: &'static str,
    /// The value it takes.
    pub kind: Kind,
    /// A value turns it off (see [`Given::Off`]).
    pub off: bool,
    read: fn(&CompactionConfig) -> Option<Given>,
    write: fn(&mut CompactionConfig, Given) -> Result<(), String>,
}

impl Opt {
    /// Its value in `config` (`None`: unset, left to the catalog or a rule).
    pub fn value(&self, config: &CompactionConfig) -> Option<Given> {
        (self.read)(config)
    }

    /// Sets it in `config`; an error says what was expected. For an option that can be
    /// turned off, 0 turns it off in every host (as `null` does in JS), so one number
    /// means one thing whichever host a program moves to.
    pub fn set(&self, config: &mut CompactionConfig, given: Given) -> Result<(), String> {
        let given = match given {
            Given::Integer(0) if self.off => Given::Off,
            given => given,
        };
        (self.write)(config, given)
    }
}

/// A config field's type as an option sees it.
trait Field: Sized {
    const KIND: Kind;
    fn given(&self) -> Option<Given>;
    fn take(given: Given) -> Result<Self, String>;
}

fn expected(kind: Kind) -> String {
    match kind {
        Kind::Text => "expected a string".to_owned(),
        Kind::Encoding => {
            "expected an encoding name (\"o200k_base\", \"cl100k_base\" or \"estimate\")".to_owned()
        }
        Kind::Integer { max } => format!("expected an integer from 0 to {max}"),
        Kind::Number => "expected a finite number".to_owned(),
        Kind::Bool => "expected a boolean".to_owned(),
    }
}

/// The integer types of the config, each with the largest value it holds on every
/// platform (`usize` as on wasm32: a count).
macro_rules! integer_field {
    ($($t:ty: $max:expr),*) => {$(
        impl Field for $t {
            const KIND: Kind = Kind::Integer { max: $max };
            fn given(&self) -> Option<Given> {
                Some(Given::Integer(*self as u64))
            }
            fn take(given: Given) -> Result<Self, String> {
                match given {
                    Given::Integer(n) if n <= $max => {
                        <$t>::try_from(n).map_err(|_| expected(Self::KIND))
                    }
                    _ => Err(expected(Self::KIND)),
                }
            }
        }
    )*};
}
integer_field!(u64: u64::MAX, u32: u32::MAX as u64, usize: u32::MAX as u64);

/// The plain types of the config, each with the `Given` it is read from and what a value
/// must also be.
macro_rules! plain_field {
    ($($t:ty: $kind:ident($given:ident) if $ok:expr;)*) => {$(
        impl Field for $t {
            const KIND: Kind = Kind::$kind;
            fn given(&self) -> Option<Given> {
                Some(Given::$given(self.clone()))
            }
            fn take(given: Given) -> Result<Self, String> {
                match given {
                    Given::$given(value) if $ok(&value) => Ok(value),
                    _ => Err(expected(Self::KIND)),
                }
            }
        }
    )*};
}
plain_field! {
    f64: Number(Number) if |n: &f64| n.is_finite();
    bool: Bool(Bool) if |_: &bool| true;
    String: Text(Text) if |_: &String| true;
}

impl Field for Encoding {
    const KIND: Kind = Kind::Encoding;
    fn given(&self) -> Option<Given> {
        Some(Given::Text(self.as_str().to_owned()))
    }
    fn take(given: Given) -> Result<Self, String> {
        match given {
            Given::Text(name) => Encoding::parse(&name).ok_or_else(|| {
                format!(
                    "unknown encoding {name:?} (expected \"o200k_base\", \"cl100k_base\" or \"estimate\")"
                )
            }),
            _ => Err(expected(Self::KIND)),
        }
    }
}

/// An optional field: unset is `None`; for an option that can be turned off, off is
/// `None` too (the engine reads `None` as off there).
impl<T: Field> Field for Option<T> {
    const KIND: Kind = T::KIND;
    fn given(&self) -> Option<Given> {
        self.as_ref().and_then(T::given)
    }
    fn take(given: Given) -> Result<Self, String> {
        match given {
            Given::Off => Ok(None),
            given => T::take(given).map(Some),
        }
    }
}

const fn kind_of<T: Field>(_: fn(&CompactionConfig) -> &T) -> Kind {
    T::KIND
}

/// The rows: `name: path.in.config, [off,] "range", "doc";` make [`OPTIONS`] and [`DOCS`]
/// (apart, so that a build which only reads options carries no docs).
macro_rules! options {
    ($($name:ident: $($field:ident).+ $(, $off:ident)?, $range:literal, $doc:literal;)*) => {
        /// Every option, in the order hosts declare them.
        pub const OPTIONS: &[Opt] = &[$(Opt {
            name: stringify!($name),
            kind: kind_of(|c: &CompactionConfig| &c.$($field).+),
            off: matches!(stringify!($($off)?).as_bytes(), b"off"),
            read: |c| Field::given(&c.$($field).+),
            write: |c, given| {
                c.$($field).+ = Field::take(given)?;
                Ok(())
            },
        }),*];

        /// Each option's name, range and doc, in [`OPTIONS`] order. The doc names other
        /// options as `{name}`; a default is written after it from
        /// [`CompactionConfig::default`].
        pub const DOCS: &[(&str, &str, &str)] = &[$((stringify!($name), $range, $doc)),*];
    };
}

options! {
    model: budget.model, "",
        "A catalog model (`gpt-4o`, `claude-sonnet-4-5`, …); unknown models need `{max_context_tokens}`.";
    max_context_tokens: budget.max_context_tokens, "",
        "The model's hard window, more than `{output_reserve}` (default: the catalog's).";
    output_reserve: budget.output_reserve, "",
        "Tokens kept free for the answer (default: the model's max output, else 4096).";
    comfort_tokens: budget.comfort_tokens, "",
        "Size past which answers degrade (default 128,000).";
    trigger_ratio: budget.trigger_ratio, "",
        "Compaction starts above this share of the limit, above `{target_ratio}` and at most 1 (default 0.92). Left unset, a session under its cost-aware policy makes the cuts after its first where they cost least, when that comes earlier.";
    target_ratio: budget.target_ratio, "",
        "A run stops at or below this share of the limit, above 0 and below `{trigger_ratio}` (default 0.75). Left unset, a session cuts as deep as its cost-aware policy finds cheapest.";
    max_messages: budget.max_messages, off, "at least 2",
        "The message-count signal.";
    keep_recent_turns: keep_recent_turns, "1 to 1000000",
        "LIGHT and MODERATE keep at least this many recent turns raw, and more while they fit in `{tail_tokens}`.";
    tail_tokens: tail_tokens, "",
        "The raw tail's size: the newest turns up to this many tokens (default: half the run's target).";
    keep_tool_results: keep_tool_results, "0 to 1000000",
        "LIGHT never clears the newest this many tool results.";
    encoding: budget.encoding, "",
        "Overrides the model's tokenizer: `o200k_base`, `cl100k_base` or `estimate`.";
    min_tail_turns: min_tail_turns, "1 to 1000000",
        "The fewest turns AGGRESSIVE keeps raw; it keeps more while the target leaves room.";
    max_summary_tokens: max_summary_tokens, "at least 64",
        "The largest summary asked for, in tokens: a ceiling, since each request asks for the room its plan leaves it.";
    summary_model: summary_model, "",
        "Handed to the summarizer in every request as `model` (default: `{model}`).";
    summary_provider: summary_provider, "",
        "Handed to the summarizer in every request as `provider`.";
    enable_incremental: enable_incremental, "",
        "Keep earlier summaries and summarize only what came since.";
    max_failures: max_failures, "at least 1",
        "Failed runs before a session's circuit opens.";
    breaker_cooldown_ms: breaker_cooldown_ms, "",
        "An open circuit closes by itself after this long; unset, only resetting the circuit closes it.";
    min_messages: min_messages, "0 to 1000000",
        "Below this many messages a run is skipped.";
    clear_at_least: clear_at_least, "",
        "LIGHT clears at least this many tokens or nothing.";
    max_preserved_user_tokens: max_preserved_user_tokens, "",
        "MODERATE keeps old user messages verbatim up to this many tokens.";
    summarizer_input_tokens: summarizer_input_tokens, "at least 256",
        "The summarizer's input window: larger inputs are map-reduced.";
    request_timeout_ms: request_timeout_ms, "at least 1",
        "A request unanswered this long, in milliseconds, counts as failed.";
    max_attempts: max_attempts, "1 to 16",
        "Attempts per request when the summarizer answers that the input is too long.";
    min_reduction: min_reduction, "0 to 1",
        "A run that cannot cut this share of the tokens reports `noProgress`.";
    max_concurrency: max_concurrency, "1 to 1000000",
        "Summary requests in flight at once: the summarizer is never asked for more at once.";
    cache_capacity: cache_capacity, "0 to 1000000",
        "Summaries the cache keeps (shared by cloned handles); the least recently used go first.";
    session_capacity: session_capacity, "1 to 1000000",
        "Sessions whose breaker and latest result the handle remembers; the least recently used go first.";
    extractive_fallback: extractive_fallback, "",
        "When a session's circuit is open, or a MAXIMUM summary fails, compact with the built-in offline extractive summarizer instead of failing; the report's `extractiveFallback` and an `extractiveFallback` event say so.";
    summarize_outputs: summarize_outputs, "",
        "Hand tool outputs to the running summary's summarizer whole; by default it reads each as its fact-keeping placeholder, and the summary's artifact trail keeps the output's facts. Set it when the outputs are the information (web pages, documents).";
    instructions: instructions, "1 to 2000 characters, not blank",
        "What every summary should focus on, added to each summary prompt apart from the transcript; part of the summary cache key.";
    cached_price: prices.cached, "at least 0",
        "A cached prompt token's price, relative to uncached input: the session's default policy weighs it.";
    cache_write_price: prices.cache_write, "at least 0",
        "A prompt token written past the cached prefix, in place of the uncached price.";
    output_price: prices.output, "at least 0",
        "A summary token's price, relative to uncached input.";
}

/// The config host `H` gives: `value` answers each option by the host's spelling of its
/// name (`None`: not given); every option not given keeps [`CompactionConfig::default`]'s
/// value. A value of the wrong kind is `INVALID_INPUT` at `config.<name>`. The numbers are
/// checked when the compactor is made ([`CompactionConfig::validate`]).
pub fn read_config<H: Host>(
    mut value: impl FnMut(&Opt, &str) -> Result<Option<Given>, Failure<H>>,
) -> Result<CompactionConfig, Failure<H>> {
    let mut config = CompactionConfig::default();
    for opt in OPTIONS {
        let name = H::config_field(opt.name);
        if let Some(given) = value(opt, &name)? {
            opt.set(&mut config, given)
                .map_err(|what| Failure::invalid(format!("config.{name}"), what))?;
        }
    }
    Ok(config)
}

/// Option `name`'s doc in `spelling`, with its default and range (and, for `off`, how a
/// host turns it off: `off_value`) after it.
fn doc(name: &str, spelling: Spelling, off_value: &str) -> String {
    let Some((index, &(_, range, text))) = DOCS.iter().enumerate().find(|(_, d)| d.0 == name)
    else {
        return String::new();
    };
    let opt = &OPTIONS[index];
    let mut out = String::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let close = after.find('}').unwrap_or(after.len());
        out.push_str(&spelling.spell(after[..close].split('_')));
        rest = after.get(close + 1..).unwrap_or_default();
    }
    out.push_str(rest);
    let default = opt
        .value(&CompactionConfig::default())
        .map(|default| match default {
            Given::Text(text) => format!("default `{text}`"),
            Given::Integer(n) => format!("default {n}"),
            Given::Number(n) => format!("default {n}"),
            Given::Bool(b) => format!("default {b}"),
            Given::Off => "default off".to_owned(),
        });
    let notes: Vec<String> = default
        .into_iter()
        .chain((!range.is_empty()).then(|| range.to_owned()))
        .collect();
    if !notes.is_empty() {
        let stop = out.pop().unwrap_or('.');
        out.push_str(&format!(" ({}){stop}", notes.join("; ")));
    }
    if opt.off {
        out.push_str(&format!(" {off_value} turns it off."));
    }
    out
}

/// The npm package's `CompactorConfig` interface.
pub fn typescript() -> String {
    let mut out = String::from(
        "\n/** `new Compactor(config)`. Every number left out comes from the model catalog, else a default. */\nexport interface CompactorConfig {\n",
    );
    for opt in OPTIONS {
        let ts = match opt.kind {
            Kind::Text => "string",
            Kind::Encoding => "EncodingName",
            Kind::Integer { .. } | Kind::Number => "number",
            Kind::Bool => "boolean",
        };
        let or_null = if opt.off { " | null" } else { "" };
        out.push_str(&format!(
            "  /** {} */\n  {}?: {ts}{or_null};\n",
            doc(opt.name, Spelling::Camel, "0 or `null`"),
            Spelling::Camel.spell(opt.name.split('_'))
        ));
    }
    out.push_str("}\n");
    out
}

/// The WIT `config` record, indented as in the world's `types` interface.
pub fn wit_record() -> String {
    let mut out = String::from(
        "    /// The numbers and the behaviour of a compactor; every field left out comes from the\n    /// model catalog, else a default.\n    record config {\n",
    );
    for opt in OPTIONS {
        let wit = match opt.kind {
            Kind::Text | Kind::Encoding => "string",
            Kind::Integer { max } if max <= u64::from(u32::MAX) => "u32",
            Kind::Integer { .. } => "u64",
            Kind::Number => "f64",
            Kind::Bool => "bool",
        };
        for line in wrapped(&doc(opt.name, Spelling::Kebab, "0"), 80) {
            out.push_str(&format!("        /// {line}\n"));
        }
        out.push_str(&format!(
            "        {}: option<{wit}>,\n",
            Spelling::Kebab.spell(opt.name.split('_'))
        ));
    }
    out.push_str("    }\n");
    out
}

/// `text` in lines of at most `width` characters, broken between words.
fn wrapped(text: &str, width: usize) -> Vec<String> {
    let mut lines = vec![String::new()];
    for word in text.split(' ') {
        let line = lines
            .last_mut()
            .filter(|l| l.len() + 1 + word.len() <= width || l.is_empty());
        match line {
            Some(line) if line.is_empty() => line.push_str(word),
            Some(line) => {
                line.push(' ');
                line.push_str(word);
            }
            None => lines.push(word.to_owned()),
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_option_reads_back_what_it_sets() {
        let names: Vec<&str> = OPTIONS.iter().map(|o| o.name).collect();
        let documented: Vec<&str> = DOCS.iter().map(|d| d.0).collect();
        assert_eq!(names, documented);
        let mut config = CompactionConfig::default();
        for opt in OPTIONS {
            let given = match opt.kind {
                Kind::Text => Given::Text("x".into()),
                Kind::Encoding => Given::Text("estimate".into()),
                Kind::Integer { .. } => Given::Integer(7),
                Kind::Number => Given::Number(0.5),
                Kind::Bool => Given::Bool(true),
            };
            opt.set(&mut config, given.clone()).expect(opt.name);
            assert_eq!(opt.value(&config), Some(given), "{}", opt.name);
        }
        // Off, where an option has it, is unset.
        let off = OPTIONS.iter().find(|o| o.off).expect("max_messages");
        off.set(&mut config, Given::Off).expect("off");
        assert_eq!(off.value(&config), None);
        // 0 turns it off too, in every host.
        off.set(&mut config, Given::Integer(7)).expect("on");
        off.set(&mut config, Given::Integer(0)).expect("off by 0");
        assert_eq!(off.value(&config), None);
        assert!(OPTIONS[0].set(&mut config, Given::Bool(true)).is_err());
    }

    /// The bounds a range states: `1 to 16`, `at least 64`; none for words.
    fn bounds(range: &str) -> Option<(f64, Option<f64>)> {
        if let Some(min) = range.strip_prefix("at least ") {
            return Some((min.parse().ok()?, None));
        }
        let (min, max) = range.split_once(" to ")?;
        Some((min.parse().ok()?, Some(max.parse().ok()?)))
    }

    #[test]
    fn the_ranges_the_docs_state_are_the_engines() {
        let mut checked = 0;
        for (opt, &(name, range, _)) in OPTIONS.iter().zip(DOCS) {
            // The budget's numbers are checked against each other (a ratio below another,
            // a reserve below the window): their ranges are words.
            let Some((min, max)) = bounds(range) else {
                continue;
            };
            let valid = |value: f64| {
                let mut config = CompactionConfig::default();
                config.budget.model = Some("gpt-4o".into());
                let given = match opt.kind {
                    Kind::Number => Given::Number(value),
                    _ => Given::Integer(value as u64),
                };
                opt.set(&mut config, given).is_ok() && config.validate().is_ok()
            };
            let step = if opt.kind == Kind::Number { 0.001 } else { 1.0 };
            assert!(valid(min), "{name}: {min} is in {range}");
            assert!(min == 0.0 || !valid(min - step), "{name}: below {range}");
            if let Some(max) = max {
                assert!(valid(max), "{name}: {max} is in {range}");
                assert!(!valid(max + step), "{name}: above {range}");
            }
            checked += 1;
        }
        assert!(checked >= 15, "{checked}");
    }

    #[test]
    fn docs_spell_other_options_and_give_defaults() {
        assert_eq!(
            doc("keep_recent_turns", Spelling::Camel, "0 or `null`"),
            "LIGHT and MODERATE keep at least this many recent turns raw, and more while they fit in `tailTokens` (default 4; 1 to 1000000)."
        );
        assert_eq!(
            doc("max_messages", Spelling::Kebab, "0"),
            "The message-count signal (default 50; at least 2). 0 turns it off."
        );
        assert!(
            doc("request_timeout_ms", Spelling::Snake, "").contains("(default 360000; at least 1)")
        );
    }
}
