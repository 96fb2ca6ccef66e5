//! The Unicode character classes the tiktoken split patterns are written in (`\p{Lu}`,
//! `\p{L}`, `\p{N}`, `\s`, …), as one table of runs.
//!
//! The table is generated from the `regex` crate's own Unicode tables (regex-syntax,
//! Unicode 16.0), the ones tiktoken's patterns are matched with, by the test
//! `the_table_is_the_regex_crates_classes`: it fails when the two differ and rewrites the
//! table when run with `COMPACTOR_WRITE_TABLES=1`.

#[rustfmt::skip]
mod table;

/// What a split pattern asks of a character.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Class {
    /// Anything below (punctuation, symbols, controls that are not white space, …).
    Other = 0,
    /// `\p{Lu}` and `\p{Lt}`.
    Upper = 1,
    /// `\p{Ll}`.
    Lower = 2,
    /// `\p{Lm}` and `\p{Lo}`: letters without case.
    Caseless = 3,
    /// `\p{M}`.
    Mark = 4,
    /// `\p{N}`.
    Number = 5,
    /// `\s`: the White_Space property.
    Space = 6,
}

impl Class {
    /// By the number packed in the table; the eighth number is unused.
    const ALL: [Class; 8] = [
        Class::Other,
        Class::Upper,
        Class::Lower,
        Class::Caseless,
        Class::Mark,
        Class::Number,
        Class::Space,
        Class::Other,
    ];

    /// `\p{L}`.
    pub(super) fn is_letter(self) -> bool {
        matches!(self, Class::Upper | Class::Lower | Class::Caseless)
    }

    /// `[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]`: what may open a word in `o200k_base`.
    pub(super) fn is_upper_like(self) -> bool {
        matches!(self, Class::Upper | Class::Caseless | Class::Mark)
    }

    /// `[\p{Ll}\p{Lm}\p{Lo}\p{M}]`: what may continue a word in `o200k_base`.
    pub(super) fn is_lower_like(self) -> bool {
        matches!(self, Class::Lower | Class::Caseless | Class::Mark)
    }

    /// `[^\s\p{L}\p{N}]`: punctuation, symbols and marks.
    pub(super) fn is_punctuation(self) -> bool {
        matches!(self, Class::Other | Class::Mark)
    }
}

/// The class of `c`.
#[inline]
pub(super) fn class_of(c: char) -> Class {
    match u8::try_from(c) {
        Ok(byte) if byte.is_ascii() => ascii_class(byte),
        _ => class_beyond_ascii(c),
    }
}

fn class_beyond_ascii(c: char) -> Class {
    let code = u32::from(c);
    let classes = classes();
    let packed = match classes.near.get((code / 2) as usize) {
        Some(&pair) => pair >> (code % 2 * 4) & 7,
        None => {
            // The run that starts at or before `c`: the first run starts at U+0000.
            let run = classes.runs.partition_point(|&run| run >> 3 <= code);
            (classes.runs[run.saturating_sub(1)] & 7) as u8
        }
    };
    Class::ALL[usize::from(packed)]
}

/// Code points below this (the Basic and the Supplementary Multilingual Plane: every
/// script in use, and the emoji) are looked up directly.
const NEAR: u32 = 0x2_0000;

/// The table, read on first use.
struct Classes {
    /// The runs of code points of one class, in order, as `first_code_point << 3 | class`
    /// (the table stores them as the distance from the run before, varint, in about a
    /// third of the bytes).
    runs: Vec<u32>,
    /// The class of every code point below [`NEAR`], two a byte (the lower half first):
    /// one read instead of a search of the runs.
    near: Vec<u8>,
}

fn classes() -> &'static Classes {
    static CLASSES: std::sync::OnceLock<Classes> = std::sync::OnceLock::new();
    CLASSES.get_or_init(|| {
        let mut runs = Vec::with_capacity(table::RUNS.len());
        let (mut start, mut value, mut shift) = (0u32, 0u32, 0);
        for &byte in table::RUNS.iter() {
            value |= u32::from(byte & 0x7f) << shift;
            shift += 7;
            if byte < 0x80 {
                start += value >> 3;
                runs.push(start << 3 | value & 7);
                (value, shift) = (0, 0);
            }
        }
        let mut near = vec![0u8; (NEAR / 2) as usize];
        for (i, &run) in runs.iter().enumerate() {
            let end = runs.get(i + 1).map_or(NEAR, |&next| (next >> 3).min(NEAR));
            for code in (run >> 3)..end {
                near[(code / 2) as usize] |= ((run & 7) as u8) << (code % 2 * 4);
            }
        }
        Classes { runs, near }
    })
}

/// The class of an ASCII byte: one read.
#[inline]
fn ascii_class(byte: u8) -> Class {
    const TABLE: [Class; 128] = {
        let mut table = [Class::Other; 128];
        let mut byte = 0;
        while byte < 128 {
            table[byte as usize] = match byte {
                b'A'..=b'Z' => Class::Upper,
                b'a'..=b'z' => Class::Lower,
                b'0'..=b'9' => Class::Number,
                b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r' => Class::Space,
                _ => Class::Other,
            };
            byte += 1;
        }
        table
    };
    TABLE[usize::from(byte & 0x7f)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use regex_syntax::hir::{Class as HirClass, HirKind};

    /// The code point ranges of a regex character class, as regex-syntax defines it.
    fn ranges(pattern: &str) -> Vec<(u32, u32)> {
        let hir = regex_syntax::Parser::new()
            .parse(pattern)
            .expect("a valid class");
        let HirKind::Class(HirClass::Unicode(class)) = hir.kind() else {
            panic!("{pattern} is not a Unicode class");
        };
        class
            .ranges()
            .iter()
            .map(|r| (u32::from(r.start()), u32::from(r.end())))
            .collect()
    }

    /// Every code point's class according to regex-syntax.
    fn regex_classes() -> Vec<Class> {
        let mut classes = vec![Class::Other; 0x11_0000];
        let sets = [
            (r"[\p{Lu}\p{Lt}]", Class::Upper),
            (r"\p{Ll}", Class::Lower),
            (r"[\p{Lm}\p{Lo}]", Class::Caseless),
            (r"\p{M}", Class::Mark),
            (r"\p{N}", Class::Number),
            (r"\s", Class::Space),
        ];
        for (pattern, class) in sets {
            for (start, end) in ranges(pattern) {
                for code in start..=end {
                    let slot = &mut classes[code as usize];
                    assert_eq!(*slot, Class::Other, "U+{code:04X} is in two classes");
                    *slot = class;
                }
            }
        }
        classes
    }

    /// The source of `table.rs` for these classes.
    fn table_source(classes: &[Class]) -> String {
        let mut bytes = Vec::new();
        let mut previous = 0;
        for (code, &class) in classes.iter().enumerate() {
            if code == 0 || class != classes[code - 1] {
                let mut value = ((code - previous) << 3) as u32 | class as u32;
                previous = code;
                while value >= 0x80 {
                    bytes.push(0x80 | (value & 0x7f) as u8);
                    value >>= 7;
                }
                bytes.push(value as u8);
            }
        }
        let mut source = String::from(
            "//! Generated by `the_table_is_the_regex_crates_classes` in `classes.rs`: do not edit.\n\n\
             /// Runs of code points of one class, in order: for each, `distance << 3 | class` as\n\
             /// a varint (seven bits a byte, low bits first; a set top bit means more follow),\n\
             /// where `distance` is the run's first code point minus the previous run's.\n",
        );
        source.push_str(&format!(
            "pub(super) static RUNS: [u8; {}] = [\n",
            bytes.len()
        ));
        for line in bytes.chunks(16) {
            let line: Vec<String> = line.iter().map(|byte| format!("{byte:#04x}")).collect();
            source.push_str(&format!("    {},\n", line.join(", ")));
        }
        source.push_str("];\n");
        source
    }

    #[test]
    fn the_table_is_the_regex_crates_classes() {
        let classes = regex_classes();
        let expected = table_source(&classes);
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/tokens/classes/table.rs");
        if std::env::var_os("COMPACTOR_WRITE_TABLES").is_some() {
            std::fs::write(path, &expected).expect("table.rs is writable");
        }
        let committed = std::fs::read_to_string(path).expect("table.rs is readable");
        assert!(
            committed == expected,
            "table.rs differs from regex-syntax's classes: rerun with COMPACTOR_WRITE_TABLES=1"
        );
        for (code, &class) in classes.iter().enumerate() {
            if let Some(c) = char::from_u32(code as u32) {
                assert_eq!(class_of(c), class, "U+{code:04X}");
            }
        }
    }

    #[test]
    fn ascii_classes_are_the_usual_ones() {
        assert_eq!(class_of('Q'), Class::Upper);
        assert_eq!(class_of('q'), Class::Lower);
        assert_eq!(class_of('7'), Class::Number);
        assert_eq!(class_of('\r'), Class::Space);
        assert_eq!(class_of('\''), Class::Other);
        assert_eq!(class_of('\u{301}'), Class::Mark);
        assert_eq!(class_of('中'), Class::Caseless);
        assert_eq!(class_of('\u{3000}'), Class::Space);
        assert_eq!(class_of('\u{200B}'), Class::Other);
    }
}
