//! The transposition table: bounds on a board's value found earlier, and the
//! move that was best there, so a position reached twice is searched once and
//! the best move of a shallower iteration is tried first.
//!
//! One table may be shared by several threads searching the same position
//! (see [`Table::store`]): each slot is two atomic words, the key XOR the
//! data and the data, so a slot torn by two writers fails the key check and
//! reads as absent (the "lockless hashing" of Hyatt and Mann) — without
//! locks or `unsafe`, and as fast as plain words on one thread.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

/// No move stored.
pub const NO_MOVE: u8 = 64;

/// What the table knows about one board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    /// The value is at least this.
    pub lower: i16,
    /// The value is at most this.
    pub upper: i16,
    /// Search depth the bounds hold for (in the solver, the board's empties,
    /// for its selective passes too).
    pub depth: u8,
    /// The best move found, or [`NO_MOVE`].
    pub best: u8,
    /// Search generation that last wrote it, so stale entries are replaced first.
    generation: u8,
    /// The solver's selective pass that stored it (1, 2, …), whose bounds
    /// hold only within that pass; 0 for an exact (or midgame) search.
    pub pass: u8,
}

impl Entry {
    /// What the entry's bounds say about a search within (`alpha`,
    /// `beta`): `Break` with the value when they settle it (a bound at or
    /// beyond the window, or both bounds equal), else `Continue` with the
    /// window narrowed to them.
    #[inline(always)]
    pub fn narrow(&self, alpha: i32, beta: i32) -> ControlFlow<i32, (i32, i32)> {
        narrow(self.lower.into(), self.upper.into(), alpha, beta)
    }

    fn pack(self) -> u64 {
        u64::from(self.lower as u16)
            | u64::from(self.upper as u16) << 16
            | u64::from(self.depth) << 32
            | u64::from(self.best) << 40
            | u64::from(self.generation) << 48
            | u64::from(self.pass) << 56
    }

    fn unpack(data: u64) -> Entry {
        Entry {
            lower: data as u16 as i16,
            upper: (data >> 16) as u16 as i16,
            depth: (data >> 32) as u8,
            best: (data >> 40) as u8,
            generation: (data >> 48) as u8,
            pass: (data >> 56) as u8,
        }
    }
}

/// What bounds `lower` and `upper` on a value say about a search within
/// (`alpha`, `beta`): `Break` with the value when they settle it (a bound
/// at or beyond the window, or both bounds equal), else `Continue` with
/// the window narrowed to them.
#[inline(always)]
pub(crate) fn narrow(
    lower: i32,
    upper: i32,
    alpha: i32,
    beta: i32,
) -> ControlFlow<i32, (i32, i32)> {
    if lower >= beta {
        return ControlFlow::Break(lower);
    }
    if upper <= alpha || lower == upper {
        return ControlFlow::Break(upper);
    }
    ControlFlow::Continue((alpha.max(lower), beta.min(upper)))
}

/// One slot: the key XOR the packed entry, and the packed entry. An empty
/// slot is two zeros, which no stored key matches (stored keys are odd).
#[derive(Debug, Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

impl Slot {
    /// The entry if this slot holds `key` (odd) and was not torn.
    #[inline(always)]
    fn read(&self, key: u64) -> Option<Entry> {
        let data = self.data.load(Ordering::Relaxed);
        (self.check.load(Ordering::Relaxed) ^ data == key).then(|| Entry::unpack(data))
    }

    /// Whichever entry the slot holds, for choosing what to replace.
    #[inline(always)]
    fn any(&self) -> Entry {
        Entry::unpack(self.data.load(Ordering::Relaxed))
    }

    #[inline(always)]
    fn write(&self, key: u64, entry: Entry) {
        let data = entry.pack();
        self.check.store(key ^ data, Ordering::Relaxed);
        self.data.store(data, Ordering::Relaxed);
    }
}

/// Entries per bucket: four slots of 16 bytes, one cache line.
const WAYS: usize = 4;

/// The slots a key may occupy, aligned to a cache line so that a probe
/// touches one line (a `Vec` of plain slots starts 16 bytes into a page,
/// and half its two-slot buckets straddled two lines).
#[derive(Debug, Default)]
#[repr(align(64))]
struct Bucket([Slot; WAYS]);

/// A fixed-size table of four-entry buckets.
#[derive(Debug)]
pub struct Table {
    buckets: Vec<Bucket>,
    mask: usize,
    generation: AtomicU8,
}

impl Table {
    /// A table of `2^bits` entries (16 bytes each), `bits` ≥ 2.
    pub fn new(bits: u32) -> Table {
        let buckets = 1usize << (bits.clamp(2, 30) - 2);
        Table {
            buckets: (0..buckets).map(|_| Bucket::default()).collect(),
            mask: buckets - 1,
            generation: AtomicU8::new(0),
        }
    }

    /// Starts a new search: older entries become the first to be replaced.
    pub fn next_generation(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    /// Forgets everything (the generation too, so a search after a clear
    /// does exactly the same work every time).
    pub fn clear(&mut self) {
        for bucket in &mut self.buckets {
            *bucket = Bucket::default();
        }
        *self.generation.get_mut() = 0;
    }

    /// The entry for `board` (hashed as `key`), if stored.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let bucket = &self.buckets[(key as usize) & self.mask];
        let key = key | 1; // an empty slot never matches
        bucket.0.iter().find_map(|s| s.read(key))
    }

    /// Starts reading `key`'s bucket into the cache, so that a probe soon
    /// after finds it there; the search goes on meanwhile (a load would
    /// wait for it). The instruction needs SSE named as enabled, so only
    /// code compiled for a named instruction set that has it (the
    /// searches' AVX2 copies) may call this without `unsafe`.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "sse")]
    #[inline]
    pub(crate) fn prefetch(&self, key: u64) {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        let bucket = &self.buckets[(key as usize) & self.mask];
        _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(bucket).cast());
    }

    /// Stores what a search with window (`alpha`, `beta`) returned as
    /// `value` for a board at `depth`, merging with bounds already known at
    /// the same depth. Threads sharing the table may race here: then one
    /// write wins, or the slot reads as absent; either way no thread ever
    /// reads bounds another did not store.
    #[inline]
    pub fn store(&self, key: u64, depth: u8, alpha: i32, beta: i32, value: i32, best: u8) {
        self.store_in_pass(key, depth, 0, alpha, beta, value, best);
    }

    /// [`Table::store`] for the solver's selective pass `pass` (0: the
    /// exact pass). The entry keeps its real depth, so a pass's entries
    /// near the root outlive the exact pass's many entries near the
    /// leaves until the exact pass reaches them and takes their moves;
    /// at one depth an exact entry is never replaced by a selective one,
    /// nor a later pass's by an earlier's.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn store_in_pass(
        &self,
        key: u64,
        depth: u8,
        pass: u8,
        alpha: i32,
        beta: i32,
        value: i32,
        mut best: u8,
    ) {
        let bucket = &self.buckets[(key as usize) & self.mask].0;
        let key = key | 1;
        let generation = self.generation.load(Ordering::Relaxed);
        let (mut lower, mut upper) = (i16::MIN, i16::MAX);
        let value16 = value as i16;
        if value > alpha {
            lower = value16;
        }
        if value < beta {
            upper = value16;
        }
        let found = bucket
            .iter()
            .enumerate()
            .find_map(|(j, s)| s.read(key).map(|e| (j, e)));
        let slot = if let Some((j, old)) = found {
            // After a fail-low every move was only bounded from above, so
            // "best" is a guess: keep a move an earlier search proved.
            if value <= alpha && old.best != NO_MOVE {
                best = old.best;
            }
            if old.depth == depth && old.pass == pass {
                lower = lower.max(old.lower);
                upper = upper.min(old.upper);
                if lower > upper {
                    // A later, more precise search wins over a stale bound.
                    (lower, upper) = (
                        if value > alpha { value16 } else { i16::MIN },
                        if value < beta { value16 } else { i16::MAX },
                    );
                }
            } else if (old.depth, trust(old.pass)) > (depth, trust(pass)) {
                return;
            }
            j
        } else {
            // Replace the shallowest entry, one from an older search first,
            // and of equally deep ones the first two passes' before the
            // later passes' and exact ones (which rank alike here).
            let score = |e: Entry| {
                i32::from(e.depth) * 4
                    + i32::from(trust(e.pass).min(3))
                    + if e.generation == generation { 1024 } else { 0 }
            };
            (1..WAYS).fold(0, |low, j| {
                if score(bucket[j].any()) < score(bucket[low].any()) {
                    j
                } else {
                    low
                }
            })
        };
        bucket[slot].write(
            key,
            Entry {
                lower,
                upper,
                depth,
                best,
                generation,
                pass,
            },
        );
    }
}

/// How far an entry of `pass` is trusted against another of the same
/// depth: an exact one most, then the later selective passes.
#[inline(always)]
fn trust(pass: u8) -> u8 {
    if pass == 0 { u8::MAX } else { pass }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_settles_a_window_or_narrows_it() {
        use std::ops::ControlFlow::{Break, Continue};
        let table = Table::new(8);
        // A lower bound of 7 (a fail-high at beta 5).
        table.store(42, 10, -5, 5, 7, 3);
        let lower = table.probe(42).unwrap();
        assert_eq!(lower.narrow(0, 6), Break(7));
        assert_eq!(lower.narrow(0, 20), Continue((7, 20)));
        // An upper bound of -7 (a fail-low at alpha -5).
        table.store(43, 10, -5, 5, -7, 3);
        let upper = table.probe(43).unwrap();
        assert_eq!(upper.narrow(-6, 6), Break(-7));
        assert_eq!(upper.narrow(-20, 6), Continue((-20, -7)));
        // An exact value settles any window.
        table.store(44, 10, -5, 5, 2, 3);
        assert_eq!(table.probe(44).unwrap().narrow(-20, 20), Break(2));
    }

    #[test]
    fn bounds_are_stored_and_merged() {
        let table = Table::new(8);
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
        let table = Table::new(8);
        table.store(42, 10, -5, 5, 3, 7);
        table.store(42, 10, 3, 4, 3, 9);
        let e = table.probe(42).unwrap();
        assert_eq!((e.lower, e.upper, e.best), (3, 3, 7));
    }

    #[test]
    fn a_shallower_result_does_not_replace_a_deeper_one() {
        let table = Table::new(8);
        table.store(42, 10, -5, 5, 3, 3);
        table.store(42, 4, -5, 5, -2, 9);
        assert_eq!(table.probe(42).unwrap().depth, 10);
    }

    #[test]
    fn a_bucket_keeps_four_keys_and_then_replaces_the_shallowest() {
        // 2^8 entries: 64 buckets, so keys 64 apart share one.
        let table = Table::new(8);
        let keys = [3u64, 3 + 64, 3 + 128, 3 + 192];
        for (depth, &key) in [12u8, 9, 15, 11].iter().zip(&keys) {
            table.store(key, *depth, -64, 64, 0, 1);
        }
        for &key in &keys {
            assert!(table.probe(key).is_some(), "key {key} kept");
        }
        table.store(3 + 256, 10, -64, 64, 0, 1);
        assert!(table.probe(3 + 256).is_some());
        assert!(table.probe(3 + 64).is_none(), "the depth-9 entry gave way");
        // From a new search on, its entries give way before deeper old ones.
        table.next_generation();
        for key in [3 + 320, 3 + 384, 3 + 448] {
            table.store(key, 9, -64, 64, 0, 1);
            assert!(table.probe(key).is_some());
        }
        // Three of the four old entries (depths 10, 11, 12) gave way; the
        // deepest (15) is left.
        assert!(table.probe(3 + 256).is_none());
        let left: Vec<u64> = keys
            .iter()
            .copied()
            .filter(|&k| table.probe(k).is_some())
            .collect();
        assert_eq!(left, [3 + 128]);
    }

    #[test]
    fn at_one_depth_an_exact_entry_outranks_a_selective_one_and_a_later_pass_an_earlier() {
        let table = Table::new(8);
        table.store_in_pass(42, 20, 1, -64, 64, 6, 3);
        table.store_in_pass(42, 20, 2, -64, 64, 4, 5);
        let e = table.probe(42).unwrap();
        assert_eq!(
            (e.pass, e.lower, e.best),
            (2, 4, 5),
            "pass 2 replaces pass 1"
        );
        table.store_in_pass(42, 20, 1, -64, 64, 8, 7);
        assert_eq!(
            table.probe(42).unwrap().pass,
            2,
            "pass 1 does not replace pass 2"
        );
        // Bounds of different passes are never merged.
        table.store(42, 20, 0, 1, 0, 9);
        let e = table.probe(42).unwrap();
        assert_eq!(
            (e.pass, e.lower, e.upper),
            (0, i16::MIN, 0),
            "the exact bound alone"
        );
        assert_eq!(e.best, 5, "a fail-low keeps the move found before");
        table.store_in_pass(42, 20, 3, -64, 64, 2, 1);
        assert_eq!(
            table.probe(42).unwrap().pass,
            0,
            "no pass replaces an exact entry"
        );
    }

    #[test]
    fn a_deep_selective_entry_outlives_shallow_exact_ones() {
        // 2^8 entries: 64 buckets, so keys 64 apart share one.
        let table = Table::new(8);
        table.store_in_pass(3, 24, 3, -64, 64, 0, 1);
        for k in 1..8u64 {
            table.store(3 + 64 * k, 10, -64, 64, 0, 1);
        }
        assert_eq!(table.probe(3).map(|e| (e.depth, e.pass)), Some((24, 3)));
        // Of two equally deep entries, the selective one gives way.
        let table = Table::new(8);
        table.store(3, 12, -64, 64, 0, 1);
        table.store_in_pass(3 + 64, 12, 1, -64, 64, 0, 1);
        table.store(3 + 128, 13, -64, 64, 0, 1);
        table.store(3 + 192, 13, -64, 64, 0, 1);
        table.store(3 + 256, 12, -64, 64, 0, 1);
        assert!(table.probe(3).is_some());
        assert!(table.probe(3 + 64).is_none());
    }

    #[test]
    fn a_slot_written_by_racing_threads_never_mixes_their_entries() {
        // Four keys in one bucket (same low bits), each thread storing its
        // own exact value again and again; every successful probe must give
        // back exactly what the owner of that key stored.
        let table = Table::new(2);
        let keys: Vec<u64> = (0..4u64).map(|k| (k << 32) | 1).collect();
        std::thread::scope(|scope| {
            for (t, &key) in keys.iter().enumerate() {
                let table = &table;
                let keys = &keys;
                scope.spawn(move || {
                    let own = t as i32 * 10 + 3;
                    for round in 0..20_000 {
                        table.store(key, 5, -64, 64, own, t as u8);
                        let other = keys[(t + round) % keys.len()];
                        if let Some(e) = table.probe(other) {
                            let j = keys.iter().position(|&k| k == other).unwrap();
                            let expected = j as i16 * 10 + 3;
                            assert_eq!((e.lower, e.upper, e.best), (expected, expected, j as u8));
                        }
                    }
                });
            }
        });
    }
}
