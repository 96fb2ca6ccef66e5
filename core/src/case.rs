//! Lowercasing for matching words against the engine's word lists.
//!
//! Folds ASCII and the cased letters of the Latin-1, Latin Extended-A, Greek and Cyrillic
//! blocks by their fixed offsets. `str::to_lowercase` would carry the whole Unicode case
//! table into the wasm packages (about 10 kB gzipped, 4% of the lite one) for letters the
//! word lists never hold; a letter outside these blocks is kept as written.
//!
//! Every fold keeps a letter's UTF-8 length, so a byte offset found in the lowercased
//! text is the same offset in the original (which `to_lowercase` does not promise: `İ`
//! becomes three bytes).

/// `text` with the letters described above lowercased, the same length in bytes.
pub(crate) fn lowercase(text: &str) -> String {
    text.chars().map(lower).collect()
}

fn lower(c: char) -> char {
    let code = u32::from(c);
    let folded = match code {
        // A–Z; À–Ö, Ø–Þ; Greek Α–Ρ, Σ–Ϋ; Cyrillic А–Я.
        0x41..=0x5A | 0xC0..=0xD6 | 0xD8..=0xDE | 0x391..=0x3A1 | 0x3A3..=0x3AB | 0x410..=0x42F => {
            code + 0x20
        }
        // Cyrillic Ѐ–Џ.
        0x400..=0x40F => code + 0x50,
        // Latin Extended-A pairs capital-then-small; İ (0x130) has no one-letter lowercase.
        0x100..=0x12F | 0x132..=0x137 | 0x14A..=0x177 if code % 2 == 0 => code + 1,
        0x139..=0x148 | 0x179..=0x17E if code % 2 == 1 => code + 1,
        0x178 => 0xFF,
        _ => code,
    };
    char::from_u32(folded).unwrap_or(c)
}

#[cfg(test)]
mod tests {
    use super::lowercase;

    #[test]
    fn folds_the_letters_of_european_scripts_as_unicode_does_and_keeps_every_length() {
        for code in 0..0x500u32 {
            let Some(c) = char::from_u32(code) else {
                continue;
            };
            let ours = lowercase(c.encode_utf8(&mut [0; 4]));
            assert_eq!(ours.len(), c.len_utf8(), "{c:?} changed its length");
            if !ours.starts_with(c) {
                assert_eq!(ours, c.to_lowercase().to_string(), "{c:?} (U+{code:04X})");
            }
        }
        assert_eq!(
            lowercase("Don't USE Ünicode-Tabellen, ÉVITEZ Ça, ΜΗΝ, НЕ ИСПОЛЬЗУЙ, ŁÓDŹ"),
            "don't use ünicode-tabellen, évitez ça, μην, не используй, łódź"
        );
        // Outside the folded blocks a letter stays as written, never a wrong letter.
        assert_eq!(lowercase("İ Ա Ⅻ"), "İ Ա Ⅻ");
    }
}
