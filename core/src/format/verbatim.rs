//! The input's own JSON text, kept beside what was read from it, and written back.
//!
//! A `serde_json::Value` does not hold JSON as it was written: `1.10` reads as `1.1`,
//! `1E5` as `100000.0`, `123456789012345678901234567890` as a float, `1e400` not at all,
//! and `"\u00e9"` as `"é"`. Written back from values, a message the run never touched
//! would change bytes, which a provider's prompt cache notices and the lossless promise
//! forbids. So text parsed with [`super::parse_str`] keeps each message's text (and each
//! field of a request body) as a [`RawValue`], and writing puts that text back:
//!
//! - an untouched message is its original text, byte for byte;
//! - a rewritten message is rendered as a `Value` on top of its original, then written
//!   with every part equal to the original's (a field, a content block, a number in an
//!   `extra`) taken from the original text, so only what the run changed is new text;
//! - a message the engine wrote (a summary) is rendered fresh.
//!
//! Values read from text that a `Value` cannot hold (`1e400`, past `f64`) read as the
//! nearest `f64` (`±f64::MAX`): the adapters never interpret such numbers, and the text
//! keeps them exactly. Writing is through serde: [`Piece`] is `Serialize` with
//! serde_json's serializers (compact or pretty), which write a [`RawValue`] verbatim.

use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::Value;
#[cfg(feature = "verbatim")]
use serde_json::value::RawValue;
#[cfg(feature = "verbatim")]
use serde_json::{Map, Number};

/// The input's text of a value: serde_json's `RawValue`, which its serializers write
/// verbatim. Without the `verbatim` feature nothing keeps text: serde_json's `raw_value`
/// makes every `Value` read carry type-error formatting (6 kB gzipped in wasm).
#[cfg(feature = "verbatim")]
pub(crate) type Text = Box<RawValue>;
/// Never made without the `verbatim` feature.
#[cfg(not(feature = "verbatim"))]
#[derive(Debug, Clone)]
pub(crate) enum Text {}

#[cfg(feature = "verbatim")]
fn text_of(text: &Text) -> &str {
    text.get()
}
#[cfg(not(feature = "verbatim"))]
fn text_of(text: &Text) -> &str {
    match *text {}
}

/// A JSON value of the input: what it reads as, and the text it was read from when the
/// input was text.
#[derive(Debug, Clone)]
pub(crate) struct Original {
    /// What the adapters read.
    pub(crate) value: Value,
    /// The input's text of it; `None` when the input was a `Value`.
    text: Option<Text>,
}

impl PartialEq for Original {
    fn eq(&self, other: &Self) -> bool {
        self.value == other.value
            && self.text.as_ref().map(text_of) == other.text.as_ref().map(text_of)
    }
}

impl Original {
    /// A value with its text, if any.
    pub(crate) fn new(value: Value, text: Option<Text>) -> Self {
        Self { value, text }
    }
}

/// Reads JSON text as a `Value`. Numbers past `f64` (`1e400`), which serde_json refuses,
/// read as `±f64::MAX`; everything else that is not JSON is an error.
pub(crate) fn read(text: &str) -> Result<Value, serde_json::Error> {
    #[cfg(feature = "verbatim")]
    return read_at(text, 0);
    #[cfg(not(feature = "verbatim"))]
    serde_json::from_str(text)
}

#[cfg(feature = "verbatim")]
/// How deep [`read_at`] goes looking for an out-of-range number: serde_json's own
/// nesting limit, so no input reaches deeper than a plain parse would.
const MAX_DEPTH: usize = 128;

#[cfg(feature = "verbatim")]
fn read_at(text: &str, depth: usize) -> Result<Value, serde_json::Error> {
    let error = match serde_json::from_str(text) {
        Ok(value) => return Ok(value),
        Err(error) => error,
    };
    // serde_json has no option to read such numbers, and its error carries no code:
    // the message is the only sign. Anything else stays the error it is.
    if !error.to_string().starts_with("number out of range") || depth >= MAX_DEPTH {
        return Err(error);
    }
    // Split this level and read its parts one by one: only the part holding the number
    // fails again, down to the number itself.
    match text.trim_start().as_bytes().first() {
        Some(b'[') => items(text)?
            .into_iter()
            .map(|item| read_at(item.get(), depth + 1))
            .collect::<Result<Vec<_>, _>>()
            .map(Value::Array),
        Some(b'{') => {
            let mut object = Map::new();
            for (key, value) in fields(text)? {
                object.insert(key, read_at(value.get(), depth + 1)?);
            }
            Ok(Value::Object(object))
        }
        Some(b'-') => Ok(Value::Number(
            Number::from_f64(f64::MIN).unwrap_or(0.into()),
        )),
        Some(b'0'..=b'9') => Ok(Value::Number(
            Number::from_f64(f64::MAX).unwrap_or(0.into()),
        )),
        _ => Err(error),
    }
}

#[cfg(feature = "verbatim")]
/// The texts of the items of an array's text.
pub(crate) fn items(text: &str) -> Result<Vec<&RawValue>, serde_json::Error> {
    match split(text)? {
        Split::Items(items) => Ok(items),
        Split::Fields(_) => Err(serde::de::Error::custom("expected an array")),
    }
}

#[cfg(feature = "verbatim")]
/// The keys and value texts of an object's text, in order; a repeated key is there each
/// time (a `Value` keeps the last).
pub(crate) fn fields(text: &str) -> Result<Vec<(String, &RawValue)>, serde_json::Error> {
    match split(text)? {
        Split::Fields(fields) => Ok(fields),
        Split::Items(_) => Err(serde::de::Error::custom("expected an object")),
    }
}

#[cfg(feature = "verbatim")]
/// An array's or an object's text, split one level down.
enum Split<'a> {
    Items(Vec<&'a RawValue>),
    Fields(Vec<(String, &'a RawValue)>),
}

#[cfg(feature = "verbatim")]
/// Splits `text` with one visitor that takes arrays and objects and refuses the rest with
/// a plain message. Deserializing a `Vec` or a map instead would refuse a number with
/// serde's `invalid type: floating point 1.5` error, whose float formatting adds 6 kB
/// gzipped to the lite npm package.
fn split(text: &str) -> Result<Split<'_>, serde_json::Error> {
    struct Splitter;
    impl<'de> serde::de::Visitor<'de> for Splitter {
        type Value = Split<'de>;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("an array or an object")
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(
            self,
            mut seq: A,
        ) -> Result<Self::Value, A::Error> {
            let mut items = Vec::new();
            while let Some(item) = seq.next_element()? {
                items.push(item);
            }
            Ok(Split::Items(items))
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(
            self,
            mut map: A,
        ) -> Result<Self::Value, A::Error> {
            let mut fields = Vec::new();
            while let Some(field) = map.next_entry()? {
                fields.push(field);
            }
            Ok(Split::Fields(fields))
        }
        fn visit_bool<E: serde::de::Error>(self, _: bool) -> Result<Self::Value, E> {
            Err(E::custom("expected an array or an object"))
        }
        fn visit_i64<E: serde::de::Error>(self, _: i64) -> Result<Self::Value, E> {
            Err(E::custom("expected an array or an object"))
        }
        fn visit_u64<E: serde::de::Error>(self, _: u64) -> Result<Self::Value, E> {
            Err(E::custom("expected an array or an object"))
        }
        fn visit_f64<E: serde::de::Error>(self, _: f64) -> Result<Self::Value, E> {
            Err(E::custom("expected an array or an object"))
        }
        fn visit_str<E: serde::de::Error>(self, _: &str) -> Result<Self::Value, E> {
            Err(E::custom("expected an array or an object"))
        }
        fn visit_unit<E: serde::de::Error>(self) -> Result<Self::Value, E> {
            Err(E::custom("expected an array or an object"))
        }
    }
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let split = serde::Deserializer::deserialize_any(&mut deserializer, Splitter)?;
    deserializer.end()?;
    Ok(split)
}

#[cfg(feature = "verbatim")]
/// The text of the field `key` in `fields`: the last, as a `Value` keeps it.
pub(crate) fn field<'a>(fields: &[(String, &'a RawValue)], key: &str) -> Option<&'a RawValue> {
    fields.iter().rev().find(|(k, _)| k == key).map(|(_, v)| *v)
}

/// How JSON text is laid out, so that a written conversation reads like its input.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
// Without `verbatim` no text is read, so every layout is compact.
#[cfg_attr(not(feature = "verbatim"), allow(dead_code))]
pub(crate) enum Layout {
    /// On one line, no spaces: `[{"role":"user"}]` (serde_json, `JSON.stringify`).
    #[default]
    Compact,
    /// On one line, a space after each `,` and `:`: `[{"role": "user"}]` (Python's
    /// `json.dumps`).
    Spaced,
    /// One value per line, indented by this unit per level (`json.dumps(indent=1)`,
    /// `JSON.stringify(v, null, 2)`).
    Indented(String),
}

impl Layout {
    /// The layout of JSON text: indented when its first nested value starts a line, else
    /// spaced when the first object in it has a space after its first `:`.
    #[cfg(feature = "verbatim")]
    pub(crate) fn of(text: &str) -> Layout {
        let Some(inside) = text.trim_start().get(1..) else {
            return Layout::Compact;
        };
        let gap = &inside[..inside.len() - inside.trim_start().len()];
        if let Some((_, line)) = gap.rsplit_once('\n') {
            return Layout::Indented(line.trim_start_matches('\r').to_owned());
        }
        let object = match text.trim_start().as_bytes().first() {
            Some(b'[') => items(text)
                .ok()
                .and_then(|items| items.first().map(|i| i.get())),
            _ => Some(text),
        };
        let spaced = object
            .and_then(|object| {
                let (_, value) = fields(object).ok()?.into_iter().next()?;
                // The value's text lies inside the object's: what precedes it is the key
                // and the separator.
                let at = (value.get().as_ptr() as usize).checked_sub(object.as_ptr() as usize)?;
                Some(object.get(..at)?.ends_with(": "))
            })
            .unwrap_or(false);
        if spaced {
            Layout::Spaced
        } else {
            Layout::Compact
        }
    }

    /// `value` as JSON text in this layout.
    pub(crate) fn write(&self, value: &impl Serialize) -> Result<String, serde_json::Error> {
        let mut out = Vec::new();
        match self {
            Layout::Compact => value.serialize(&mut serde_json::Serializer::new(&mut out))?,
            Layout::Spaced => {
                value.serialize(&mut serde_json::Serializer::with_formatter(
                    &mut out, Spaced,
                ))?;
            }
            Layout::Indented(unit) => {
                let formatter = serde_json::ser::PrettyFormatter::with_indent(unit.as_bytes());
                value.serialize(&mut serde_json::Serializer::with_formatter(
                    &mut out, formatter,
                ))?;
            }
        }
        // serde_json writes UTF-8 (and raw values were `&str`).
        Ok(String::from_utf8_lossy(&out).into_owned())
    }
}

/// Python's `json.dumps` separators: `, ` and `: `.
struct Spaced;

/// `, ` before every item of an array or object but the first.
fn separator<W: ?Sized + std::io::Write>(writer: &mut W, first: bool) -> std::io::Result<()> {
    if first {
        Ok(())
    } else {
        writer.write_all(b", ")
    }
}

impl serde_json::ser::Formatter for Spaced {
    fn begin_array_value<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        separator(writer, first)
    }

    fn begin_object_key<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        separator(writer, first)
    }

    fn begin_object_value<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
    ) -> std::io::Result<()> {
        writer.write_all(b": ")
    }
}

/// One piece of a written conversation.
#[derive(Debug)]
// Without `verbatim` an original has no text to write over.
#[cfg_attr(not(feature = "verbatim"), allow(dead_code))]
pub(crate) enum Piece<'a> {
    /// An original, untouched: its text.
    Verbatim(&'a Original),
    /// Rendered on top of an original: its unchanged parts are the original's text.
    Over(Value, &'a Original),
    /// Rendered from nothing.
    Fresh(Value),
    /// An array of pieces (the messages).
    Array(Vec<Piece<'a>>),
    /// An object of pieces, in order (a request body).
    Object(Vec<(String, Piece<'a>)>),
}

impl Piece<'_> {
    /// The piece as a `Value`: numbers as a `Value` holds them.
    pub(crate) fn to_value(&self) -> Value {
        match self {
            Piece::Verbatim(original) => original.value.clone(),
            Piece::Over(value, _) | Piece::Fresh(value) => value.clone(),
            Piece::Array(items) => Value::Array(items.iter().map(Piece::to_value).collect()),
            Piece::Object(fields) => Value::Object(
                fields
                    .iter()
                    .map(|(key, piece)| (key.clone(), piece.to_value()))
                    .collect(),
            ),
        }
    }
}

impl Serialize for Piece<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            #[cfg(feature = "verbatim")]
            Piece::Verbatim(Original {
                text: Some(text), ..
            }) => text.serialize(serializer),
            Piece::Verbatim(original) => original.value.serialize(serializer),
            #[cfg(feature = "verbatim")]
            Piece::Over(value, original) => Over {
                value,
                original: &original.value,
                text: original.text.as_deref(),
            }
            .serialize(serializer),
            #[cfg(not(feature = "verbatim"))]
            Piece::Over(value, _) => value.serialize(serializer),
            Piece::Fresh(value) => value.serialize(serializer),
            Piece::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Piece::Object(fields) => {
                let mut map = serializer.serialize_map(Some(fields.len()))?;
                for (key, piece) in fields {
                    map.serialize_entry(key, piece)?;
                }
                map.end()
            }
        }
    }
}

#[cfg(feature = "verbatim")]
/// `value`, written with every part equal to the same part of `original` taken from
/// `text`, the original's text. Object fields match by key; array items by place when
/// the array kept its length, else each item takes the first unused original equal to
/// it (the rule the adapters follow when they keep content blocks verbatim).
struct Over<'a> {
    value: &'a Value,
    original: &'a Value,
    text: Option<&'a RawValue>,
}

#[cfg(feature = "verbatim")]
impl Serialize for Over<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let Some(text) = self.text else {
            return self.value.serialize(serializer);
        };
        if self.value == self.original {
            return text.serialize(serializer);
        }
        match (self.value, self.original) {
            (Value::Object(new), Value::Object(old)) => {
                let Ok(texts) = fields(text.get()) else {
                    return self.value.serialize(serializer);
                };
                let mut map = serializer.serialize_map(Some(new.len()))?;
                for (key, value) in new {
                    let over = Over {
                        value,
                        original: old.get(key).unwrap_or(&Value::Null),
                        text: old.get(key).and(field(&texts, key)),
                    };
                    map.serialize_entry(key, &over)?;
                }
                map.end()
            }
            (Value::Array(new), Value::Array(old)) => {
                let Ok(texts) = items(text.get()) else {
                    return self.value.serialize(serializer);
                };
                let mut seq = serializer.serialize_seq(Some(new.len()))?;
                if new.len() == old.len() && texts.len() == old.len() {
                    for ((value, original), text) in new.iter().zip(old).zip(texts) {
                        seq.serialize_element(&Over {
                            value,
                            original,
                            text: Some(text),
                        })?;
                    }
                } else {
                    let mut used = vec![false; old.len()];
                    for value in new {
                        let same =
                            (0..old.len().min(texts.len())).find(|&j| !used[j] && old[j] == *value);
                        match same {
                            Some(j) => {
                                used[j] = true;
                                seq.serialize_element(texts[j])?;
                            }
                            None => seq.serialize_element(value)?,
                        }
                    }
                }
                seq.end()
            }
            _ => self.value.serialize(serializer),
        }
    }
}

#[cfg(all(test, feature = "verbatim"))]
mod tests {
    use super::*;

    fn original(text: &str) -> Original {
        let value = read(text).expect("json");
        Original::new(
            value,
            Some(RawValue::from_string(text.to_owned()).expect("raw")),
        )
    }

    fn written(piece: &Piece<'_>) -> String {
        serde_json::to_string(piece).expect("serializes")
    }

    #[test]
    fn numbers_a_value_cannot_hold_read_as_the_nearest_and_keep_their_text() {
        let text = r#"{"a":[1,{"b":1e400}],"c":-1e400,"d":1.10}"#;
        let value = read(text).expect("reads");
        assert_eq!(value["a"][1]["b"], Value::from(f64::MAX));
        assert_eq!(value["c"], Value::from(f64::MIN));
        let kept = original(text);
        assert_eq!(written(&Piece::Verbatim(&kept)), text);
        // Not JSON stays an error, and so does nesting past serde_json's limit.
        assert!(read("[1e400,").is_err());
        let deep = format!("{}1e400{}", "[".repeat(200), "]".repeat(200));
        assert!(read(&deep).is_err());
    }

    #[test]
    fn a_rewritten_value_keeps_the_text_of_what_did_not_change() {
        let text = r#"{"role":"tool","content":"long","extra":{"t":1776068401.3278353,"n":1E5},"list":[1.10, -0.0]}"#;
        let kept = original(text);
        let mut value = kept.value.clone();
        value["content"] = "short".into();
        assert_eq!(
            written(&Piece::Over(value, &kept)),
            r#"{"role":"tool","content":"short","extra":{"t":1776068401.3278353,"n":1E5},"list":[1.10, -0.0]}"#
        );
    }

    #[test]
    fn arrays_match_by_place_or_else_by_equality() {
        let text = r#"[{"x":1.50},{"y":2.50},{"z":3.50}]"#;
        let kept = original(text);
        let mut same_length = kept.value.clone();
        same_length[1]["w"] = 1.into();
        assert_eq!(
            written(&Piece::Over(same_length, &kept)),
            r#"[{"x":1.50},{"y":2.50,"w":1},{"z":3.50}]"#
        );
        let shorter = Value::Array(vec![kept.value[2].clone(), "new".into()]);
        assert_eq!(
            written(&Piece::Over(shorter, &kept)),
            r#"[{"z":3.50},"new"]"#
        );
    }

    #[test]
    fn fields_keep_repeated_keys_and_the_last_one_counts() {
        let text = r#"{"a":1,"a":2.0}"#;
        let fields = fields(text).expect("object");
        assert_eq!(fields.len(), 2);
        assert_eq!(field(&fields, "a").map(RawValue::get), Some("2.0"));
        assert_eq!(read(text).expect("reads")["a"], Value::from(2.0));
    }
}
