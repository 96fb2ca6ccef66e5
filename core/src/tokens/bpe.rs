//! Byte-pair encoding with a tiktoken vocabulary, for counting: the vocabulary read from a
//! `.tiktoken` rank file, and the merge that turns one piece of text into tokens.
//!
//! The merge is tiktoken's: repeatedly join the adjacent pair of parts whose joined bytes
//! have the lowest rank (the leftmost of equals) until no joined pair is a token. Short
//! pieces, nearly all of them, rescan their few parts after each join; long ones (a run of
//! spaces or dashes, a long word) keep their pairs in a heap, so no piece costs quadratic
//! time.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet};

use super::RanksError;

/// A token's rank in its vocabulary.
pub(crate) type Rank = u32;

/// The rank of a pair that is not a token.
const NO_RANK: Rank = Rank::MAX;

/// Pieces at least this long merge with the heap.
const LONG_PIECE: usize = 128;

/// The tokens of a `.tiktoken` file, found by their bytes.
pub(crate) struct Vocabulary {
    /// Every token's bytes, one after another in the order of the file.
    bytes: Vec<u8>,
    /// Where token `i` starts in `bytes`; `starts[i + 1]` is where it ends.
    starts: Vec<usize>,
    /// Token `i`'s rank.
    ranks: Vec<Rank>,
    /// An open-addressing table: `i + 1` for token `i` at the slot its hash picks (or the
    /// first free one after it), 0 where free. At most half full.
    slots: Vec<u32>,
    /// `64 - log2(slots.len())`: a hash's top bits pick its slot.
    shift: u32,
}

impl Vocabulary {
    /// Reads a `.tiktoken` file: one `base64token rank` per line.
    pub(crate) fn parse(file: &[u8]) -> Result<Self, RanksError> {
        use base64::Engine as _;
        let mut bytes = Vec::with_capacity(file.len() / 2);
        let mut starts = vec![0];
        let mut ranks = Vec::new();
        let mut lines = Vec::new();
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
            base64::engine::general_purpose::STANDARD
                .decode_vec(token, &mut bytes)
                .map_err(|_| RanksError::BadToken { line: line_number })?;
            let end = bytes.len();
            if end == starts[starts.len() - 1] {
                return Err(RanksError::BadToken { line: line_number });
            }
            starts.push(end);
            ranks.push(rank);
            lines.push(line_number);
        }
        if ranks.is_empty() {
            return Err(RanksError::Empty);
        }
        let mut vocabulary = Self::index(bytes, starts, ranks, &lines)?;
        vocabulary.bytes.shrink_to_fit();
        // Every piece of text is made of bytes, and the merge starts from single ones.
        if let Some(byte) = (0..=u8::MAX).find(|&b| vocabulary.rank(&[b]).is_none()) {
            return Err(RanksError::MissingByte(byte));
        }
        Ok(vocabulary)
    }

    /// Builds the table over the tokens; refuses a token or a rank seen before.
    fn index(
        bytes: Vec<u8>,
        starts: Vec<usize>,
        ranks: Vec<Rank>,
        lines: &[usize],
    ) -> Result<Self, RanksError> {
        let bits = (ranks.len() * 2)
            .next_power_of_two()
            .trailing_zeros()
            .max(1);
        let mut vocabulary = Self {
            bytes,
            starts,
            ranks,
            slots: vec![0; 1 << bits],
            shift: 64 - bits,
        };
        let mask = vocabulary.slots.len() - 1;
        for (i, &line) in lines.iter().enumerate() {
            let token = vocabulary.token(i);
            let mut slot = vocabulary.slot(token);
            while let Some(other) = vocabulary.slots[slot].checked_sub(1) {
                if vocabulary.token(other as usize) == token {
                    return Err(RanksError::Duplicate { line });
                }
                slot = (slot + 1) & mask;
            }
            vocabulary.slots[slot] = i as u32 + 1;
        }
        // Rank files list their ranks in increasing order; only others need the set.
        if !vocabulary.ranks.windows(2).all(|pair| pair[0] < pair[1]) {
            let mut seen = HashSet::with_capacity(vocabulary.ranks.len());
            if let Some(i) = vocabulary.ranks.iter().position(|&rank| !seen.insert(rank)) {
                return Err(RanksError::Duplicate { line: lines[i] });
            }
        }
        Ok(vocabulary)
    }

    fn token(&self, i: usize) -> &[u8] {
        &self.bytes[self.starts[i]..self.starts[i + 1]]
    }

    fn slot(&self, token: &[u8]) -> usize {
        (hash(token) >> self.shift) as usize
    }

    /// The rank of the token made of `bytes`, if there is one.
    pub(crate) fn rank(&self, bytes: &[u8]) -> Option<Rank> {
        let mask = self.slots.len() - 1;
        let mut slot = self.slot(bytes);
        loop {
            let i = self.slots[slot].checked_sub(1)? as usize;
            if self.token(i) == bytes {
                return Some(self.ranks[i]);
            }
            slot = (slot + 1) & mask;
        }
    }

    fn pair_rank(&self, bytes: &[u8]) -> Rank {
        self.rank(bytes).unwrap_or(NO_RANK)
    }

    /// How many tokens `piece` (one piece of the split text) merges into.
    pub(crate) fn count_piece(&self, piece: &[u8], scratch: &mut Scratch) -> usize {
        if piece.len() <= 1 || self.rank(piece).is_some() {
            piece.len().min(1)
        } else if piece.len() < LONG_PIECE {
            self.merge_short(piece, &mut scratch.parts)
        } else {
            self.merge_long(piece, &mut scratch.long)
        }
    }

    /// The merge for short pieces: `parts[i]` is where part `i` starts and the rank of it
    /// joined with the part after; the lowest rank is found by a scan.
    fn merge_short(&self, piece: &[u8], parts: &mut Vec<(usize, Rank)>) -> usize {
        parts.clear();
        parts.extend((0..piece.len() - 1).map(|i| (i, self.pair_rank(&piece[i..i + 2]))));
        parts.push((piece.len() - 1, NO_RANK));
        parts.push((piece.len(), NO_RANK));
        let joined = |parts: &[(usize, Rank)], i: usize| match parts.get(i + 2) {
            Some(&(end, _)) => self.pair_rank(&piece[parts[i].0..end]),
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
    fn merge_long(&self, piece: &[u8], long: &mut LongScratch) -> usize {
        let n = piece.len();
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
        heap.clear();
        let joined = |next: &[usize], i: usize| match next.get(next[i]) {
            Some(&end) => self.pair_rank(&piece[i..end]),
            None => NO_RANK,
        };
        for i in 0..n {
            let rank = joined(next, i);
            pair.push(rank);
            if rank != NO_RANK {
                heap.push(Reverse((rank, i)));
            }
        }
        let mut parts = n;
        while let Some(Reverse((rank, i))) = heap.pop() {
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
                    heap.push(Reverse((pair[at], at)));
                }
            }
        }
        parts
    }
}

/// Buffers the merge reuses from piece to piece of one text.
#[derive(Default)]
pub(crate) struct Scratch {
    parts: Vec<(usize, Rank)>,
    long: LongScratch,
}

#[derive(Default)]
struct LongScratch {
    next: Vec<usize>,
    prev: Vec<usize>,
    pair: Vec<Rank>,
    heap: BinaryHeap<Reverse<(Rank, usize)>>,
}

/// A fast hash of a token's bytes (eight at a time; multiplying mixes the top bits, which
/// pick the slot).
fn hash(bytes: &[u8]) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let mix = |h: u64, word: u64| (h.rotate_left(26) ^ word).wrapping_mul(K);
    let mut h = (bytes.len() as u64).wrapping_mul(K);
    let mut words = bytes.chunks_exact(8);
    for word in &mut words {
        let mut buf = [0; 8];
        buf.copy_from_slice(word);
        h = mix(h, u64::from_le_bytes(buf));
    }
    let rest = words.remainder();
    if !rest.is_empty() {
        let mut buf = [0; 8];
        buf[..rest.len()].copy_from_slice(rest);
        h = mix(h, u64::from_le_bytes(buf));
    }
    h
}
