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
