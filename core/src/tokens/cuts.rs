//! Where a long piece of multi-byte text may be cut before it is merged, the counts of the
//! parts adding up to the piece's.
//!
//! The merge only ever joins two parts into a token. So if no token of the vocabulary can
//! lie across a position of the piece, no part ever will, and the two sides merge exactly
//! as they would alone: the piece may be cut there. A run of CJK text (or kana, hangul,
//! Devanagari, …) is one piece of the split, and merged whole it costs a heap operation
//! and several look-ups a byte; cut between characters, most parts are one character,
//! found in one look-up.
//!
//! Between two characters `c` and `d` of more than one byte each, a token that lies across
//! the boundary either
//! - holds both whole: its text has `c` then `d` (a *pair*),
//! - starts inside `c`: it opens with continuation bytes, the end of `c`, then the first
//!   byte of `d` (a *tail*), or
//! - holds `c` whole (or more) and ends inside `d`: the last byte of `c`, then the start of
//!   `d` (a *head*).
//!
//! Every token adds its pairs, tail and head, as byte strings, to a Bloom filter; a
//! boundary is cut when none of its own is in the filter. The filter never says no to a
//! string that was added, so a cut is always exact; a false yes only leaves a boundary
//! uncut.

use super::filter::{Filter, hash};

/// What a key is, mixed into its hash so the kinds do not share keys.
#[derive(Clone, Copy)]
enum Kind {
    Pair = 1,
    Tail = 2,
    Head = 3,
}

/// The Bloom filter of every token's pairs, tail and head.
pub(crate) struct Cuts {
    filter: Filter,
}

impl Cuts {
    /// The keys of every token in `tokens`.
    pub(crate) fn new<'a>(tokens: impl Iterator<Item = &'a [u8]> + Clone) -> Self {
        // (Most tokens are ASCII, without keys.)
        let tokens = tokens.filter(|token| !token.is_ascii());
        let count = tokens
            .clone()
            .map(|token| keys(token, |_, _| {}))
            .sum::<usize>();
        // About sixteen bits a key: under one in a thousand absent keys passes.
        let mut filter = Filter::new(count, 16);
        for token in tokens {
            keys(token, |kind, key| filter.insert(key_hash(kind, key)));
        }
        Self { filter }
    }

    /// Calls `part` with the start and end of each part of `piece` (UTF-8 text), in order:
    /// the piece cut at every boundary between two multi-byte characters where no token
    /// can lie.
    pub(crate) fn parts(&self, piece: &[u8], mut part: impl FnMut(usize, usize)) {
        let (mut start, mut previous) = (0, 0..0);
        let mut at = 0;
        while at < piece.len() {
            let next = at..(at + utf8_len(piece[at])).min(piece.len());
            if previous.len() > 1 && next.len() > 1 && self.may_cut(piece, &previous, &next) {
                part(start, at);
                start = at;
            }
            at = next.end;
            previous = next;
        }
        part(start, piece.len());
    }

    /// Whether no token can lie across the boundary between the characters `c` and `d`.
    fn may_cut(
        &self,
        piece: &[u8],
        c: &std::ops::Range<usize>,
        d: &std::ops::Range<usize>,
    ) -> bool {
        let boundary = d.start;
        let absent = |kind, key: &[u8]| !self.filter.may_hold(key_hash(kind, key));
        absent(Kind::Pair, &piece[c.start..d.end])
            && (c.start + 1..boundary).all(|tail| absent(Kind::Tail, &piece[tail..=boundary]))
            && (boundary + 1..d.end).all(|head| absent(Kind::Head, &piece[boundary - 1..head]))
    }
}

/// The hash of a key of `kind`: the bytes' hash, the kind mixed in.
fn key_hash(kind: Kind, key: &[u8]) -> u64 {
    (hash(key) ^ kind as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// Calls `add` with each key of `token` that a boundary between two multi-byte characters
/// can have (see the module's documentation); returns how many.
fn keys(token: &[u8], mut add: impl FnMut(Kind, &[u8])) -> usize {
    let mut count = 0;
    let mut add = |kind, key: &[u8]| {
        add(kind, key);
        count += 1;
    };
    // The token's characters: each from a byte that is not a continuation byte, whole or
    // (the last only, in text that is UTF-8) cut short.
    let mut chars = Vec::new();
    let mut at = token
        .iter()
        .position(|&b| !is_continuation(b))
        .unwrap_or(token.len());
    if at > 0 && token.get(at).is_some_and(|&lead| utf8_len(lead) > 1) {
        add(Kind::Tail, &token[..=at]);
    }
    while at < token.len() {
        let end = (at + 1..token.len())
            .find(|&i| !is_continuation(token[i]))
            .unwrap_or(token.len());
        chars.push((at, end, std::str::from_utf8(&token[at..end]).is_ok()));
        at = end;
    }
    for pair in chars.windows(2) {
        if let [(start, middle, true), (_, end, true)] = *pair
            && middle - start > 1
            && end - middle > 1
        {
            add(Kind::Pair, &token[start..end]);
        }
    }
    if let Some(&(start, end, false)) = chars.last()
        && start > 0
        && is_continuation(token[start - 1])
    {
        add(Kind::Head, &token[start - 1..end]);
    }
    count
}

fn is_continuation(byte: u8) -> bool {
    byte & 0xc0 == 0x80
}

/// The length of the character whose first byte is `lead` (1 for a stray continuation
/// byte, which valid text never starts a character with).
fn utf8_len(lead: u8) -> usize {
    match lead {
        0xf0.. => 4,
        0xe0.. => 3,
        0xc0.. => 2,
        _ => 1,
    }
}
