//! A blocked Bloom filter of 64-bit hashes: two bits of one word a hash, so a look-up is
//! one read of a table small enough to stay in cache. It never says no to a hash it
//! holds; to one it does not, it says yes now and then. The hashes must mix their high
//! bits well (a multiplying hash does; its low bits hardly mix).

pub(crate) struct Filter {
    words: Vec<u64>,
    /// `64 - log2(words.len())`: a hash's top bits pick its word.
    shift: u32,
}

impl Filter {
    /// An empty filter for about `keys` hashes at `bits_per_key` bits each.
    pub(crate) fn new(keys: usize, bits_per_key: usize) -> Self {
        let bits = (keys.saturating_mul(bits_per_key) / 64)
            .next_power_of_two()
            .trailing_zeros()
            .max(1);
        Self {
            words: vec![0; 1 << bits],
            shift: 64 - bits,
        }
    }

    /// The word for `hash` and the two bits of it that `hash` sets: the word from the
    /// hash's top bits, the bits from the two six-bit groups below them.
    fn bits(&self, hash: u64) -> (usize, u64) {
        let word = (hash >> self.shift) as usize;
        let below = hash << (64 - self.shift);
        (word, 1 << (below >> 58) | 1 << (below >> 52 & 63))
    }

    pub(crate) fn insert(&mut self, hash: u64) {
        let (word, bits) = self.bits(hash);
        self.words[word] |= bits;
    }

    /// `false` when `hash` was never inserted; `true` when it may have been.
    pub(crate) fn may_hold(&self, hash: u64) -> bool {
        let (word, bits) = self.bits(hash);
        self.words[word] & bits == bits
    }
}

/// Up to eight bytes as a little-endian word, zero-padded. (Shifts, not a copy into a
/// buffer: in wasm a copy of a few bytes is a call to `memcpy`.)
pub(super) fn pack(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .rev()
        .fold(0, |word, &byte| word << 8 | u64::from(byte))
}

/// A fast hash of a token's bytes (eight at a time; multiplying mixes the top bits, which
/// pick the slot).
pub(super) fn hash(bytes: &[u8]) -> u64 {
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
        h = mix(h, pack(rest));
    }
    h
}
