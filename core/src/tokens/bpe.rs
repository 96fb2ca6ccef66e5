//! Byte-pair encoding with a tiktoken vocabulary, for counting: the vocabulary read from a
//! `.tiktoken` rank file, and the merge that turns one piece of text into tokens.
//!
//! The merge is tiktoken's: repeatedly join the adjacent pair of parts whose joined bytes
//! have the lowest rank (the leftmost of equals) until no joined pair is a token. Short
//! pieces, nearly all of them, rescan their few parts after each join; longer ones (a run
//! of CJK characters, of spaces or dashes, a long word) keep their pairs in a heap, so no
//! piece costs quadratic time.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet};

use super::RanksError;
use super::cuts::Cuts;
use super::filter::{Filter, hash, pack};

/// A token's rank in its vocabulary.
pub(crate) type Rank = u32;

/// The rank of a pair that is not a token.
const NO_RANK: Rank = Rank::MAX;

/// Pieces at least this long merge with the heap. (A run of CJK text is one piece of
/// three bytes a character: from about eight characters on, rescanning costs more than the
/// heap; this was 128 before CJK was measured.)
const LONG_PIECE: usize = 24;

/// The tokens of a `.tiktoken` file, found by their bytes.
pub(crate) struct Vocabulary {
    /// The rank of every two-byte token, by its bytes as a big-endian `u16`: the merge's
    /// first round looks up each adjacent pair of bytes.
    pairs: Vec<Rank>,
    /// The rank of every token that is a three-byte UTF-8 sequence, by its 16 bits of code
    /// point: in text of most scripts past Latin (CJK, kana, hangul, Devanagari, Thai, …)
    /// a character is such a sequence, and the merge looks one up for nearly every
    /// character. Read here, it does not miss the cache as a slot of `short` does.
    chars: Vec<Rank>,
    /// Tokens of up to eight bytes (three in four, and nearly every pair the merge looks
    /// up), each in one slot: a lookup reads one slot.
    short: Vec<ShortSlot>,
    /// `64 - log2(short.len())`: a hash's top bits pick its slot.
    short_shift: u32,
    /// Longer tokens' bytes, one after another.
    long_bytes: Vec<u8>,
    /// Where long token `i` starts in `long_bytes`; `long_starts[i + 1]` is where it ends.
    long_starts: Vec<usize>,
    /// Long token `i`'s rank.
    long_ranks: Vec<Rank>,
    /// `i + 1` for long token `i` at the slot its hash picks (or the first free one after
    /// it), 0 where free.
    long: Vec<u32>,
    /// `64 - log2(long.len())`.
    long_shift: u32,
    /// The hashes of the tokens in `short` (but pairs and three-byte characters, which
    /// have tables of their own) and in `long`: most byte strings the merge looks up are
    /// not tokens, and one read of the filter says so for nearly all of them without the
    /// read of a slot in the large tables that would miss the cache.
    filter: Filter,
    /// Where a long piece may be cut before it is merged.
    cuts: Cuts,
}

/// A token of up to eight bytes, packed little-endian into `word`; `len` 0 where free.
#[derive(Debug, Clone, Copy, Default)]
struct ShortSlot {
    word: u64,
    len: u32,
    rank: Rank,
}

/// The longest token a [`ShortSlot`] holds.
const SHORT: usize = 8;

impl Vocabulary {
    /// Reads a `.tiktoken` file: one `base64token rank` per line.
    pub(crate) fn parse(file: &[u8]) -> Result<Self, RanksError> {
        let mut bytes = Vec::with_capacity(file.len() / 2);
        let mut starts = vec![0];
        let mut entries = Vec::new();
        for (index, line) in file.split(|&b| b == b'\n').enumerate() {
            let line_number = index + 1;
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            if line.is_empty() {
                continue;
            }
            let line =
                std::str::from_utf8(line).map_err(|_| RanksError::NotUtf8 { line: line_number })?;
            let Some((token, rank)) = line.split_once(' ') else {
                return Err(RanksError::Malformed { line: line_number });
            };
            let rank = rank
                .parse()
                .ok()
                .filter(|&rank| rank != NO_RANK)
                .ok_or(RanksError::BadRank { line: line_number })?;
            decode_base64(token.as_bytes(), &mut bytes)
                .ok_or(RanksError::BadToken { line: line_number })?;
            if bytes.len() == starts[starts.len() - 1] {
                return Err(RanksError::BadToken { line: line_number });
            }
            starts.push(bytes.len());
            entries.push((rank, line_number));
        }
        if entries.is_empty() {
            return Err(RanksError::Empty);
        }
        let token = |i: usize| &bytes[starts[i]..starts[i + 1]];
        let short_count = (0..entries.len())
            .filter(|&i| token(i).len() <= SHORT)
            .count();
        let (short_bits, long_bits) = (
            table_bits(short_count),
            table_bits(entries.len() - short_count),
        );
        let mut vocabulary = Self {
            pairs: vec![NO_RANK; 1 << 16],
            chars: vec![NO_RANK; 1 << 16],
            short: vec![ShortSlot::default(); 1 << short_bits],
            short_shift: 64 - short_bits,
            long_bytes: Vec::new(),
            long_starts: vec![0],
            long_ranks: Vec::new(),
            long: vec![0; 1 << long_bits],
            long_shift: 64 - long_bits,
            // About eight bits a token (256 kB for o200k_base): a few in a hundred absent
            // strings pass.
            filter: Filter::new(entries.len(), 8),
            cuts: Cuts::new((0..entries.len()).map(token)),
        };
        for (i, &(rank, line)) in entries.iter().enumerate() {
            if !vocabulary.insert(token(i), rank) {
                return Err(RanksError::Duplicate { line });
            }
        }
        // Rank files list their ranks in increasing order; only others need the set.
        if !entries.windows(2).all(|pair| pair[0].0 < pair[1].0) {
            let mut seen = HashSet::with_capacity(entries.len());
            if let Some(&(_, line)) = entries.iter().find(|(rank, _)| !seen.insert(*rank)) {
                return Err(RanksError::Duplicate { line });
            }
        }
        // Every piece of text is made of bytes, and the merge starts from single ones.
        if let Some(byte) = (0..=u8::MAX).find(|&b| vocabulary.rank(&[b]).is_none()) {
            return Err(RanksError::MissingByte(byte));
        }
        Ok(vocabulary)
    }

    /// Adds a token; `false` if it is there already.
    fn insert(&mut self, token: &[u8], rank: Rank) -> bool {
        if token.len() <= SHORT {
            let (word, len) = (pack(token), token.len() as u32);
            let mask = self.short.len() - 1;
            let mut slot = (short_hash(word, len) >> self.short_shift) as usize;
            while self.short[slot].len != 0 {
                if (self.short[slot].word, self.short[slot].len) == (word, len) {
                    return false;
                }
                slot = (slot + 1) & mask;
            }
            self.short[slot] = ShortSlot { word, len, rank };
            // Look-ups of these read their own tables, not the filter.
            if let &[first, second] = token {
                self.pairs[usize::from(u16::from_be_bytes([first, second]))] = rank;
            } else if let Some(code) = three_byte_char(word, token.len()) {
                self.chars[code] = rank;
            } else {
                self.filter.insert(short_hash(word, len));
            }
        } else {
            if self.long_rank(token) != NO_RANK {
                return false;
            }
            let mask = self.long.len() - 1;
            let mut slot = (hash(token) >> self.long_shift) as usize;
            while self.long[slot] != 0 {
                slot = (slot + 1) & mask;
            }
            self.long_bytes.extend_from_slice(token);
            self.long_starts.push(self.long_bytes.len());
            self.long_ranks.push(rank);
            self.long[slot] = self.long_ranks.len() as u32;
            self.filter.insert(hash(token));
        }
        true
    }

    /// The rank of the token made of `bytes`, if there is one.
    pub(crate) fn rank(&self, bytes: &[u8]) -> Option<Rank> {
        let rank = match bytes.len() {
            0 => NO_RANK,
            1..=SHORT => self.short_rank(pack(bytes), bytes.len()),
            _ => self.long_rank(bytes),
        };
        (rank != NO_RANK).then_some(rank)
    }

    /// The rank of the two bytes `first`, `second`, or [`NO_RANK`]: the merge's first
    /// round, one read.
    fn pair_rank(&self, first: u8, second: u8) -> Rank {
        self.pairs[usize::from(u16::from_be_bytes([first, second]))]
    }

    /// The rank of `padded[start..end]`, [`NO_RANK`] if it is not a token; `padded` holds
    /// [`SHORT`] more bytes after the piece, so a short token's bytes are one load.
    fn rank_at(&self, padded: &[u8], start: usize, end: usize) -> Rank {
        let len = end - start;
        match padded.get(start..start + SHORT) {
            Some(eight) if len <= SHORT => {
                let mut word = [0; SHORT];
                word.copy_from_slice(eight);
                self.short_rank(u64::from_le_bytes(word) & (u64::MAX >> (64 - 8 * len)), len)
            }
            _ => self.long_rank(&padded[start..end]),
        }
    }

    /// The rank of the token of `len` (1 to 8) bytes packed in `word`, or [`NO_RANK`].
    fn short_rank(&self, word: u64, len: usize) -> Rank {
        if len == 2 {
            let [first, second, ..] = word.to_le_bytes();
            return self.pair_rank(first, second);
        }
        if let Some(code) = three_byte_char(word, len) {
            return self.chars[code];
        }
        let len = len as u32;
        let hash = short_hash(word, len);
        if !self.filter.may_hold(hash) {
            return NO_RANK;
        }
        let mask = self.short.len() - 1;
        let mut slot = (hash >> self.short_shift) as usize;
        loop {
            let found = self.short[slot];
            if (found.word, found.len) == (word, len) {
                return found.rank;
            }
            if found.len == 0 {
                return NO_RANK;
            }
            slot = (slot + 1) & mask;
        }
    }

    fn long_rank(&self, bytes: &[u8]) -> Rank {
        let hash = hash(bytes);
        if !self.filter.may_hold(hash) {
            return NO_RANK;
        }
        let mask = self.long.len() - 1;
        let mut slot = (hash >> self.long_shift) as usize;
        loop {
            let Some(i) = self.long[slot].checked_sub(1) else {
                return NO_RANK;
            };
            let i = i as usize;
            if self.long_bytes[self.long_starts[i]..self.long_starts[i + 1]] == *bytes {
                return self.long_ranks[i];
            }
            slot = (slot + 1) & mask;
        }
    }

    /// How many tokens `piece` (one piece of the split text) merges into.
    pub(crate) fn count_piece(&self, piece: &[u8], scratch: &mut Scratch) -> usize {
        // Cut where a piece is long: a short one merges about as fast as it is cut.
        if piece.len() < LONG_PIECE || piece.is_ascii() {
            return self.count_part(piece, scratch);
        }
        let mut count = 0;
        self.cuts.parts(piece, |start, end| {
            count += self.count_part(&piece[start..end], scratch);
        });
        count
    }

    /// How many tokens `part` (a piece, or a part of one where it may be cut) merges into.
    fn count_part(&self, piece: &[u8], scratch: &mut Scratch) -> usize {
        if piece.len() <= 1 || self.rank(piece).is_some() {
            return piece.len().min(1);
        }
        let padded = &mut scratch.padded;
        padded.clear();
        padded.extend_from_slice(piece);
        padded.extend_from_slice(&[0; SHORT]);
        if piece.len() < LONG_PIECE || piece.len() > u32::MAX as usize {
            // (A heap entry holds a start below 2^32: a longer piece, if there ever were
            // one, takes the slow way.)
            self.merge_short(padded, &mut scratch.parts)
        } else {
            self.merge_long(padded, &mut scratch.long)
        }
    }

    /// The merge for short pieces: `parts[i]` is where part `i` starts and the rank of it
    /// joined with the part after; the lowest rank is found by a scan.
    /// `padded` is the piece and [`SHORT`] bytes more.
    fn merge_short(&self, padded: &[u8], parts: &mut Vec<(usize, Rank)>) -> usize {
        let n = padded.len() - SHORT;
        parts.clear();
        parts.extend((0..n - 1).map(|i| (i, self.pair_rank(padded[i], padded[i + 1]))));
        parts.push((n - 1, NO_RANK));
        parts.push((n, NO_RANK));
        let joined = |parts: &[(usize, Rank)], i: usize| match parts.get(i + 2) {
            Some(&(end, _)) => self.rank_at(padded, parts[i].0, end),
            None => NO_RANK,
        };
        loop {
            let mut lowest = (NO_RANK, 0);
            for (i, &(_, rank)) in parts.iter().enumerate() {
                if rank < lowest.0 {
                    lowest = (rank, i);
                }
            }
            let (rank, i) = lowest;
            if rank == NO_RANK {
                return parts.len() - 1;
            }
            parts.remove(i + 1);
            parts[i].1 = joined(parts, i);
            if i > 0 {
                parts[i - 1].1 = joined(parts, i - 1);
            }
        }
    }

    /// The merge for long pieces: parts are a linked list over their start bytes and the
    /// joinable pairs wait in a heap; an entry whose pair has changed since is skipped.
    /// `padded` is the piece and [`SHORT`] bytes more.
    fn merge_long(&self, padded: &[u8], long: &mut LongScratch) -> usize {
        let n = padded.len() - SHORT;
        let LongScratch {
            next,
            prev,
            pair,
            heap,
        } = long;
        next.clear();
        next.extend(1..=n);
        prev.clear();
        prev.extend((0..n).map(|i| i.wrapping_sub(1)));
        pair.clear();
        let mut entries = std::mem::take(heap).into_vec();
        entries.clear();
        let joined = |next: &[usize], i: usize| match next.get(next[i]) {
            Some(&end) => self.rank_at(padded, i, end),
            None => NO_RANK,
        };
        for i in 0..n {
            // Every part is one byte: `padded[n]` is past the piece, and no pair with it.
            let rank = if i + 1 < n {
                self.pair_rank(padded[i], padded[i + 1])
            } else {
                NO_RANK
            };
            pair.push(rank);
            if rank != NO_RANK {
                entries.push(Reverse(entry(rank, i)));
            }
        }
        // Built at once, in linear time; the allocation is the one kept in `heap`.
        *heap = BinaryHeap::from(entries);
        let mut parts = n;
        while let Some(Reverse(top)) = heap.pop() {
            let (rank, i) = ((top >> 32) as Rank, top as u32 as usize);
            if pair[i] != rank {
                continue;
            }
            let gone = next[i];
            next[i] = next[gone];
            if let Some(after) = prev.get_mut(next[i]) {
                *after = i;
            }
            pair[gone] = NO_RANK;
            parts -= 1;
            let before = prev[i];
            for at in std::iter::once(i).chain((before < n).then_some(before)) {
                pair[at] = joined(next, at);
                if pair[at] != NO_RANK {
                    heap.push(Reverse(entry(pair[at], at)));
                }
            }
        }
        parts
    }
}

/// The 16 bits of code point of the `len` bytes packed in `word` when they are a lead
/// byte `1110xxxx` and two continuation bytes `10xxxxxx` (taken bit for bit, so the odd
/// overlong or surrogate form has a place of its own too).
fn three_byte_char(word: u64, len: usize) -> Option<usize> {
    let [lead, second, third, ..] = word.to_le_bytes();
    (len == 3 && lead & 0xf0 == 0xe0 && second & 0xc0 == 0x80 && third & 0xc0 == 0x80).then(|| {
        usize::from(lead & 0x0f) << 12 | usize::from(second & 0x3f) << 6 | usize::from(third & 0x3f)
    })
}

/// Buffers the merge reuses from piece to piece of one text.
#[derive(Default)]
pub(crate) struct Scratch {
    /// The piece being merged, and [`SHORT`] zero bytes.
    padded: Vec<u8>,
    parts: Vec<(usize, Rank)>,
    long: LongScratch,
}

#[derive(Default)]
struct LongScratch {
    next: Vec<usize>,
    prev: Vec<usize>,
    pair: Vec<Rank>,
    /// [`entry`]s: the lowest rank first, the leftmost of equals.
    heap: BinaryHeap<Reverse<u64>>,
}

/// A heap entry: the rank above the part's start, so one comparison orders both.
fn entry(rank: Rank, start: usize) -> u64 {
    u64::from(rank) << 32 | start as u64
}

/// Appends the bytes `text` encodes in standard, padded base64 to `out`; `None` where it is
/// not such base64 (then `out` holds part of it).
fn decode_base64(text: &[u8], out: &mut Vec<u8>) -> Option<()> {
    let digit = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    if !text.len().is_multiple_of(4) {
        return None;
    }
    let quads = text.len() / 4;
    for (i, quad) in text.chunks_exact(4).enumerate() {
        let padding = if i + 1 == quads {
            quad.iter().rev().take_while(|&&c| c == b'=').count()
        } else {
            0
        };
        if padding > 2 {
            return None;
        }
        let mut bits = 0u32;
        for &c in &quad[..4 - padding] {
            bits = bits << 6 | u32::from(digit(c)?);
        }
        let [_, bytes @ ..] = (bits << (6 * padding)).to_be_bytes();
        let (kept, dropped) = bytes.split_at(3 - padding);
        // A padded quad's left-over bits are zero in canonical base64.
        if dropped.iter().any(|&b| b != 0) {
            return None;
        }
        out.extend_from_slice(kept);
    }
    Some(())
}

/// log2 of a table's slots for `entries`: at most about two thirds full, at least two.
fn table_bits(entries: usize) -> u32 {
    (entries * 3 / 2 + 1)
        .next_power_of_two()
        .trailing_zeros()
        .max(1)
}

/// The hash of a packed short token (multiplying mixes every bit into the top ones).
fn short_hash(word: u64, len: u32) -> u64 {
    (word ^ u64::from(len) << 59).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine as _;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn base64_decodes_as_the_base64_crate_does(
            bytes in prop::collection::vec(any::<u8>(), 0..40),
            noise in "[A-Za-z0-9+/=]{0,12}",
        ) {
            let engine = base64::engine::general_purpose::STANDARD;
            let encoded = engine.encode(&bytes);
            let mut out = Vec::new();
            prop_assert_eq!(decode_base64(encoded.as_bytes(), &mut out), Some(()));
            prop_assert_eq!(&out, &bytes);
            let mut out = Vec::new();
            let ours = decode_base64(noise.as_bytes(), &mut out).map(|()| out);
            prop_assert_eq!(ours, engine.decode(&noise).ok(), "{}", noise);
        }
    }

    /// Every byte, then "aa", "aaaa", "ab" and "ba" in that order.
    fn tiny_vocabulary() -> Vocabulary {
        let engine = base64::engine::general_purpose::STANDARD;
        let tokens = (0..=u8::MAX).map(|b| vec![b]);
        let merged = [&b"aa"[..], b"aaaa", b"ab", b"ba"].map(<[u8]>::to_vec);
        let file: String = tokens
            .chain(merged)
            .enumerate()
            .map(|(rank, token)| format!("{} {rank}\n", engine.encode(token)))
            .collect();
        Vocabulary::parse(file.as_bytes()).expect("valid ranks")
    }

    proptest! {
        #[test]
        fn the_heap_merge_equals_the_scanning_one(piece in "[ab]{2,300}") {
            let vocabulary = tiny_vocabulary();
            let mut scratch = Scratch::default();
            let padded = [piece.as_bytes(), &[0; SHORT]].concat();
            let scanned = vocabulary.merge_short(&padded, &mut scratch.parts);
            let heaped = vocabulary.merge_long(&padded, &mut scratch.long);
            prop_assert_eq!(scanned, heaped, "{}", piece);
        }
    }
}
