//! The transposition table: bounds on a board's value found earlier, and the
//! move that was best there, so a position reached twice is searched once and
//! the best move of a shallower iteration is tried first.

/// No move stored.
pub const NO_MOVE: u8 = 64;

/// What the table knows about one board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    /// The board's hash (the whole key is checked on a probe).
    key: u64,
    /// The value is at least this.
    pub lower: i16,
    /// The value is at most this.
    pub upper: i16,
    /// Search depth the bounds hold for (the empties count for exact solves).
    pub depth: u8,
    /// The best move found, or [`NO_MOVE`].
    pub best: u8,
    /// Search generation that last wrote it, so stale entries are replaced first.
    generation: u8,
}

const EMPTY_ENTRY: Entry = Entry {
    key: 0,
    lower: i16::MIN,
    upper: i16::MAX,
    depth: 0,
    best: NO_MOVE,
    generation: 0,
};

/// A fixed-size table of two-entry buckets.
#[derive(Debug, Clone)]
pub struct Table {
    entries: Vec<Entry>,
    mask: usize,
    generation: u8,
}

impl Table {
    /// A table of `2^bits` entries (16 bytes each), `bits` ≥ 1.
    pub fn new(bits: u32) -> Table {
        let bits = bits.clamp(1, 30);
        Table {
            entries: vec![EMPTY_ENTRY; 1 << bits],
            mask: (1 << bits) - 2,
            generation: 0,
        }
    }

    /// Starts a new search: older entries become the first to be replaced.
    pub fn next_generation(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    /// Forgets everything (the generation too, so a search after a clear
    /// does exactly the same work every time).
    pub fn clear(&mut self) {
        self.entries.fill(EMPTY_ENTRY);
        self.generation = 0;
    }

    /// The entry for `board` (hashed as `key`), if stored.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let i = (key as usize) & self.mask;
        let key = key | 1; // key 0 marks an empty slot
        self.entries[i..i + 2]
            .iter()
            .find(|e| e.key == key)
            .copied()
    }

    /// Stores what a search with window (`alpha`, `beta`) returned as
    /// `value` for a board at `depth`, merging with bounds already known at
    /// the same depth.
    #[inline]
    pub fn store(&mut self, key: u64, depth: u8, alpha: i32, beta: i32, value: i32, mut best: u8) {
        let i = (key as usize) & self.mask;
        let key = key | 1;
        let (mut lower, mut upper) = (i16::MIN, i16::MAX);
        let value16 = value as i16;
        if value > alpha {
            lower = value16;
        }
        if value < beta {
            upper = value16;
        }
        let bucket = &mut self.entries[i..i + 2];
        let slot = if let Some(j) = bucket.iter().position(|e| e.key == key) {
            let old = bucket[j];
            // After a fail-low every move was only bounded from above, so
            // "best" is a guess: keep a move an earlier search proved.
            if value <= alpha && old.best != NO_MOVE {
                best = old.best;
            }
            if old.depth == depth {
                lower = lower.max(old.lower);
                upper = upper.min(old.upper);
                if lower > upper {
                    // A later, more precise search wins over a stale bound.
                    (lower, upper) = (
                        if value > alpha { value16 } else { i16::MIN },
                        if value < beta { value16 } else { i16::MAX },
                    );
                }
            } else if old.depth > depth {
                return;
            }
            j
        } else {
            // Replace the shallower entry, or one from an older search.
            let score = |e: &Entry| {
                i32::from(e.depth)
                    + if e.generation == self.generation {
                        256
                    } else {
                        0
                    }
            };
            usize::from(score(&bucket[1]) < score(&bucket[0]))
        };
        bucket[slot] = Entry {
            key,
            lower,
            upper,
            depth,
            best,
            generation: self.generation,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_are_stored_and_merged() {
        let mut table = Table::new(8);
        table.store(42, 10, -5, 5, 7, 3);
        let e = table.probe(42).unwrap();
        assert_eq!((e.lower, e.upper, e.best), (7, i16::MAX, 3));
        table.store(42, 10, 0, 20, 9, 4);
        let e = table.probe(42).unwrap();
        assert_eq!((e.lower, e.upper, e.best), (9, 9, 4));
        assert!(table.probe(42 + 256).is_none(), "same bucket, other key");
    }

    #[test]
    fn a_fail_low_keeps_the_move_an_earlier_search_proved() {
        let mut table = Table::new(8);
        table.store(42, 10, -5, 5, 3, 7);
        table.store(42, 10, 3, 4, 3, 9);
        let e = table.probe(42).unwrap();
        assert_eq!((e.lower, e.upper, e.best), (3, 3, 7));
    }

    #[test]
    fn a_shallower_result_does_not_replace_a_deeper_one() {
        let mut table = Table::new(8);
        table.store(42, 10, -5, 5, 3, 3);
        table.store(42, 4, -5, 5, -2, 9);
        assert_eq!(table.probe(42).unwrap().depth, 10);
    }
}
