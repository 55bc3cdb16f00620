//! The pattern evaluation: the kind of evaluation the strongest Othello
//! programs use. A board is read through 74 overlapping patterns in
//! eighteen families (each edge with its two X-squares, the 3×3 and 2×5
//! corner blocks, the second to fourth lines, the diagonals of length 4 to
//! 8, and Egaroucid's ten-square shapes: the corner triangle, narrow
//! triangle, cross and fish, the edge with a block, with its Y-squares and
//! the anvil);
//! each pattern's configuration of its squares (empty, mine, theirs) picks
//! a learned weight. Three pairs of counts pick a weight each as well, so
//! their effect need not be linear: the moves each side has, the empty
//! squares next to each side's discs (potential mobility), and each side's
//! discs. A few scalar terms (mobility, potential mobility, parity, a
//! constant) are added. There is one weight set for every two
//! empties (30 phases). All weights are integers in hundredths of a disc,
//! so every platform computes the same value.
//!
//! Rotations and reflections of the board share weights: each family is
//! read from every orientation of the board it has, and a family whose
//! squares map onto themselves under a symmetry (an edge read backwards,
//! a corner block reflected in its diagonal) stores one weight for each
//! pair of mirror configurations. The weights file holds only those
//! distinct weights, compressed, with a SHA-256 digest checked at load.
//!
//! The weights are trained by `examples/train_patterns.rs`; this module
//! only reads them. It applies on the plane without walls; the torus and
//! boards with walls use the linear evaluation in [`eval`](super::eval).

use std::sync::OnceLock;

use sha2::{Digest, Sha256};

use super::SearchGeometry;
use super::board::Board;
use super::pattern_readings::Readings;
use super::symmetry::{mirror, transpose};

/// Weight sets: one for every two empties (0–1, 2–3, …, 58–60).
pub const PHASES: usize = 30;
/// Pattern readings per board.
pub const READINGS: usize = 46 + 4 * (FAMILY_COUNT - FAST_FAMILIES);
/// Table entries a board reads: its pattern readings, then one entry for
/// each of three pairs of counts (legal moves, potential mobility, discs).
pub const INSTANCES: usize = READINGS + COUNT_PAIRS.len();
/// Scalar terms, in [`SCALAR_NAMES`] order.
pub const SCALARS: usize = 4;
/// Names of the scalar terms.
pub const SCALAR_NAMES: [&str; SCALARS] = ["mobility", "potential_mobility", "parity", "constant"];
/// Values stay strictly inside ±64 discs, so an estimate never claims more
/// than the largest exact score.
const LIMIT: i32 = 6400;
/// Largest scalar weight a file may hold: with features below 64 and 49
/// table weights of an `i16` each, no sum can overflow.
const MAX_SCALAR: u64 = 1 << 20;

/// The weight set for a board with `empties` empty squares.
#[inline(always)]
pub fn phase(empties: u32) -> usize {
    (empties.min(59) / 2) as usize
}

/// A family of patterns: its squares (in reading order, on the board in
/// its canonical orientation) and the symmetry that maps the squares onto
/// themselves, as a permutation of reading positions (`None`: no such
/// symmetry).
struct Family {
    name: &'static str,
    squares: &'static [u8],
    mirror: Option<&'static [u8]>,
}

const REVERSE_8: &[u8] = &[7, 6, 5, 4, 3, 2, 1, 0];

/// The families, in table order.
const FAMILIES: [Family; FAMILY_COUNT] = [
    Family {
        name: "edge+2x",
        squares: &[0, 1, 2, 3, 4, 5, 6, 7, 9, 14],
        mirror: Some(&[7, 6, 5, 4, 3, 2, 1, 0, 9, 8]),
    },
    Family {
        name: "corner3x3",
        squares: &[0, 1, 2, 8, 9, 10, 16, 17, 18],
        mirror: Some(&[0, 3, 6, 1, 4, 7, 2, 5, 8]),
    },
    Family {
        name: "corner2x5",
        squares: &[0, 1, 2, 3, 4, 8, 9, 10, 11, 12],
        mirror: None,
    },
    Family {
        name: "line2",
        squares: &[8, 9, 10, 11, 12, 13, 14, 15],
        mirror: Some(REVERSE_8),
    },
    Family {
        name: "line3",
        squares: &[16, 17, 18, 19, 20, 21, 22, 23],
        mirror: Some(REVERSE_8),
    },
    Family {
        name: "line4",
        squares: &[24, 25, 26, 27, 28, 29, 30, 31],
        mirror: Some(REVERSE_8),
    },
    Family {
        name: "diagonal8",
        squares: &[0, 9, 18, 27, 36, 45, 54, 63],
        mirror: Some(REVERSE_8),
    },
    Family {
        name: "diagonal7",
        squares: &[1, 10, 19, 28, 37, 46, 55],
        mirror: Some(&[6, 5, 4, 3, 2, 1, 0]),
    },
    Family {
        name: "diagonal6",
        squares: &[2, 11, 20, 29, 38, 47],
        mirror: Some(&[5, 4, 3, 2, 1, 0]),
    },
    Family {
        name: "diagonal5",
        squares: &[3, 12, 21, 30, 39],
        mirror: Some(&[4, 3, 2, 1, 0]),
    },
    Family {
        name: "diagonal4",
        squares: &[4, 13, 22, 31],
        mirror: Some(&[3, 2, 1, 0]),
    },
    Family {
        name: "triangle",
        squares: &[0, 1, 2, 3, 8, 9, 10, 16, 17, 24],
        mirror: Some(&[0, 4, 7, 9, 1, 5, 8, 2, 6, 3]),
    },
    Family {
        name: "corner+block",
        squares: &[0, 2, 3, 4, 5, 7, 10, 11, 12, 13],
        mirror: Some(&[5, 4, 3, 2, 1, 0, 9, 8, 7, 6]),
    },
    Family {
        name: "cross",
        squares: &[0, 1, 8, 9, 10, 17, 18, 19, 26, 27],
        mirror: Some(&[0, 2, 1, 3, 5, 4, 6, 8, 7, 9]),
    },
    Family {
        name: "edge+y",
        squares: &[0, 1, 2, 3, 4, 5, 6, 7, 10, 13],
        mirror: Some(&[7, 6, 5, 4, 3, 2, 1, 0, 9, 8]),
    },
    Family {
        name: "narrow-triangle",
        squares: &[0, 1, 2, 3, 4, 8, 9, 16, 24, 32],
        mirror: Some(&[0, 5, 7, 8, 9, 1, 6, 2, 3, 4]),
    },
    Family {
        name: "fish",
        squares: &[0, 1, 8, 9, 10, 11, 17, 18, 25, 27],
        mirror: Some(&[0, 2, 1, 3, 6, 8, 4, 7, 5, 9]),
    },
    Family {
        name: "anvil",
        squares: &[2, 3, 4, 5, 11, 12, 18, 19, 20, 21],
        mirror: Some(&[3, 2, 1, 0, 5, 4, 9, 8, 7, 6]),
    },
];

/// The families read by [`indices`]' own code for each; the ones after
/// them (Egaroucid's ten-square shapes) are read by [`gather`], their
/// squares listed in increasing order.
const FAST_FAMILIES: usize = 11;
/// Pattern families in all.
const FAMILY_COUNT: usize = 18;
/// For each family after [`FAST_FAMILIES`]: read at the four corners
/// (orientations 0–3) when `true`, else along the four edges
/// (orientations 0, 2, 4, 6).
const AT_CORNERS: [bool; FAMILY_COUNT - FAST_FAMILIES] =
    [true, false, true, false, true, true, false];

/// Up to this many runs of consecutive squares in a gathered family.
const MAX_RUNS: usize = 5;

/// For each gathered family, its squares as runs of consecutive bits:
/// (shift, mask) such that `(x >> shift) & mask` puts the run's squares at
/// their reading positions (zero masks pad the list).
const RUNS: [[(u32, u64); MAX_RUNS]; FAMILY_COUNT - FAST_FAMILIES] = {
    let mut out = [[(0u32, 0u64); MAX_RUNS]; FAMILY_COUNT - FAST_FAMILIES];
    let mut f = 0;
    while f < FAMILY_COUNT - FAST_FAMILIES {
        let squares = FAMILIES[FAST_FAMILIES + f].squares;
        let (mut k, mut run) = (0, 0);
        while k < squares.len() {
            assert!(
                k == 0 || squares[k] > squares[k - 1],
                "squares in increasing order"
            );
            let start = k;
            while k + 1 < squares.len() && squares[k + 1] == squares[k] + 1 {
                k += 1;
            }
            k += 1;
            assert!(run < MAX_RUNS, "at most MAX_RUNS runs");
            let length = k - start;
            out[f][run] = (
                (squares[start] as usize - start) as u32,
                ((1u64 << length) - 1) << start,
            );
            run += 1;
        }
        f += 1;
    }
    out
};

/// The bits of gathered family `k`'s squares in `x`, in reading order.
#[inline(always)]
fn gather(x: u64, k: usize) -> usize {
    let mut bits = 0;
    for &(shift, mask) in &RUNS[k] {
        bits |= (x >> shift) & mask;
    }
    bits as usize
}

/// A pair of counts (the side to move's, the other side's) read as one
/// table entry: each count is capped at `cap`.
struct CountPair {
    name: &'static str,
    cap: u32,
}

/// The count pairs, in table order after the pattern families: legal moves
/// (at most 33 in any position), empty squares next to the other side's
/// discs (potential mobility), discs.
const COUNT_PAIRS: [CountPair; 3] = [
    CountPair {
        name: "moves",
        cap: 31,
    },
    CountPair {
        name: "potential_moves",
        cap: 39,
    },
    CountPair {
        name: "discs",
        cap: 64,
    },
];

/// Which family each of the 74 readings belongs to, in reading order
/// (the order [`Features::indices`] uses).
const INSTANCE_FAMILY: [u8; READINGS] = [
    0, 0, 0, 0, // edges
    1, 1, 1, 1, // 3×3 corners
    2, 2, 2, 2, 2, 2, 2, 2, // 2×5 corners
    3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, // lines 2–4
    6, 6, // long diagonals
    7, 7, 7, 7, 8, 8, 8, 8, 9, 9, 9, 9, 10, 10, 10, 10, // shorter diagonals
    11, 11, 11, 11, 12, 12, 12, 12, 13, 13, 13, 13, 14, 14, 14, 14, 15, 15, 15, 15, 16, 16, 16, 16,
    17, 17, 17, 17,
];

const fn pow3(n: usize) -> usize {
    let mut v = 1;
    let mut i = 0;
    while i < n {
        v *= 3;
        i += 1;
    }
    v
}

/// Configurations of each family (3^squares).
const FAMILY_SIZE: [usize; FAMILY_COUNT] = {
    let mut out = [0; FAMILY_COUNT];
    let mut f = 0;
    while f < FAMILY_COUNT {
        out[f] = pow3(FAMILIES[f].squares.len());
        f += 1;
    }
    out
};

/// Where each family's table starts in a phase's full table.
const FAMILY_OFFSET: [usize; FAMILY_COUNT] = {
    let mut out = [0; FAMILY_COUNT];
    let mut f = 1;
    while f < FAMILY_COUNT {
        out[f] = out[f - 1] + FAMILY_SIZE[f - 1];
        f += 1;
    }
    out
};

/// Where each reading's family starts in a phase's full table.
pub(crate) const READING_OFFSET: [u32; READINGS] = {
    let mut out = [0; READINGS];
    let mut k = 0;
    while k < READINGS {
        out[k] = FAMILY_OFFSET[INSTANCE_FAMILY[k] as usize] as u32;
        k += 1;
    }
    out
};

/// Entries of the pattern families in one phase's full table.
const PATTERN_SIZE: usize = FAMILY_OFFSET[FAMILY_COUNT - 1] + FAMILY_SIZE[FAMILY_COUNT - 1];

/// Where each count pair's table starts in a phase's full table.
const COUNT_OFFSET: [usize; COUNT_PAIRS.len()] = {
    let mut out = [0; COUNT_PAIRS.len()];
    let mut at = PATTERN_SIZE;
    let mut k = 0;
    while k < COUNT_PAIRS.len() {
        out[k] = at;
        let side = COUNT_PAIRS[k].cap as usize + 1;
        at += side * side;
        k += 1;
    }
    out
};

/// Entries of one phase's full table (every configuration of every
/// family, every pair of every count).
pub const FULL_SIZE: usize = {
    let last = COUNT_PAIRS.len() - 1;
    let side = COUNT_PAIRS[last].cap as usize + 1;
    COUNT_OFFSET[last] + side * side
};

/// The full-table entry of count pair `k` for the counts `mine`, `theirs`.
#[inline(always)]
fn count_entry(k: usize, mine: u32, theirs: u32) -> u32 {
    let cap = COUNT_PAIRS[k].cap;
    (COUNT_OFFSET[k] as u32) + mine.min(cap) * (cap + 1) + theirs.min(cap)
}

/// The mapping from full-table entries to the distinct weights the file
/// stores (mirror configurations share one).
struct Compaction {
    full_to_compact: Vec<u32>,
    compact_size: usize,
}

fn compaction() -> &'static Compaction {
    static COMPACTION: OnceLock<Compaction> = OnceLock::new();
    COMPACTION.get_or_init(|| {
        let mut full_to_compact = vec![0u32; FULL_SIZE];
        let mut next = 0u32;
        for (f, family) in FAMILIES.iter().enumerate() {
            let n = family.squares.len();
            let mut digits = vec![0usize; n];
            for index in 0..FAMILY_SIZE[f] {
                let mut rest = index;
                for d in digits.iter_mut() {
                    *d = rest % 3;
                    rest /= 3;
                }
                let mirrored = match family.mirror {
                    // Reading position i of the mirror image holds the
                    // digit at position mirror[i] of the original.
                    Some(perm) => (0..n)
                        .rev()
                        .fold(0, |acc, i| acc * 3 + digits[usize::from(perm[i])]),
                    None => index,
                };
                let slot = FAMILY_OFFSET[f] + index;
                if mirrored < index {
                    full_to_compact[slot] = full_to_compact[FAMILY_OFFSET[f] + mirrored];
                } else {
                    full_to_compact[slot] = next;
                    next += 1;
                }
            }
        }
        // Counts have no symmetry of their own: one weight per pair.
        for slot in &mut full_to_compact[PATTERN_SIZE..] {
            *slot = next;
            next += 1;
        }
        Compaction {
            full_to_compact,
            compact_size: next as usize,
        }
    })
}

/// Distinct weights in one phase (what the file stores and the trainer
/// fits).
pub fn compact_size() -> usize {
    compaction().compact_size
}

/// The distinct weight a full-table entry shares.
pub fn compact_index(full: u32) -> u32 {
    compaction().full_to_compact[full as usize]
}

/// Names of the families, for reports.
pub fn family_names() -> impl Iterator<Item = &'static str> {
    FAMILIES
        .iter()
        .map(|f| f.name)
        .chain(COUNT_PAIRS.iter().map(|c| c.name))
}

/// `TERNARY[bits]`: the bits of a 10-bit pattern read as base-3 digits.
static TERNARY: [u16; 1024] = {
    let mut out = [0u16; 1024];
    let mut bits = 0;
    while bits < 1024 {
        let (mut value, mut power, mut rest) = (0u16, 1u16, bits);
        while rest != 0 {
            if rest & 1 != 0 {
                value += power;
            }
            power = power.wrapping_mul(3);
            rest >>= 1;
        }
        out[bits] = value;
        bits += 1;
    }
    out
};

const FILE_A: u64 = 0x0101_0101_0101_0101;
const DIAGONAL: u64 = 0x8040_2010_0804_0201;

/// The squares of the diagonal starting at column `k` of the first row, as
/// bits in reading order.
#[inline(always)]
fn diagonal(x: u64, k: u32) -> usize {
    // Each square of the diagonal is on its own column, so the product
    // gathers them in the top byte without carries.
    let mask = (DIAGONAL << k) & !(FILE_A.wrapping_mul((1 << k) - 1));
    (((x & mask).wrapping_mul(FILE_A) >> 56) >> k) as usize
}

/// The bits of the families' canonical squares, read from one orientation.
#[inline(always)]
fn edge_x(x: u64) -> usize {
    ((x & 0xFF) | (((x >> 9) & 1) << 8) | (((x >> 14) & 1) << 9)) as usize
}
#[inline(always)]
fn corner3(x: u64) -> usize {
    ((x & 7) | ((x >> 5) & 0x38) | ((x >> 10) & 0x1C0)) as usize
}
#[inline(always)]
fn corner5(x: u64) -> usize {
    ((x & 0x1F) | ((x >> 3) & 0x3E0)) as usize
}
#[inline(always)]
fn row(x: u64, r: u32) -> usize {
    ((x >> (8 * r)) & 0xFF) as usize
}

/// What the pattern evaluation reads from a board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Features {
    /// Which weight set applies.
    pub phase: usize,
    /// Each pattern reading's entry in the phase's full table, then each
    /// count pair's.
    pub indices: [u32; INSTANCES],
    /// The scalar terms, in [`SCALAR_NAMES`] order.
    pub scalars: [i32; SCALARS],
}

/// The full-table entries of the 74 pattern readings of a board (`player`
/// to move).
#[inline(always)]
pub fn indices(player: u64, opponent: u64) -> [u32; READINGS] {
    // The eight orientations: s[k] = the board seen with a symmetry applied.
    let orient = |x: u64| {
        let t = transpose(x);
        let (h, v) = (mirror(x), x.swap_bytes());
        let (th, tv) = (mirror(t), t.swap_bytes());
        [x, h, v, h.swap_bytes(), t, th, tv, th.swap_bytes()]
    };
    let (p, o) = (orient(player), orient(opponent));
    let mut out = [0u32; READINGS];
    let mut n = 0;
    let mut put = |family: usize, pb: usize, ob: usize| {
        let index = usize::from(TERNARY[pb]) + 2 * usize::from(TERNARY[ob]);
        out[n] = (FAMILY_OFFSET[family] + index) as u32;
        n += 1;
    };
    // Edges and lines: rank 1 / 8 and files a / h (orientations 0, 2, 4, 6).
    for s in [0, 2, 4, 6] {
        put(0, edge_x(p[s]), edge_x(o[s]));
    }
    for s in [0, 1, 2, 3] {
        put(1, corner3(p[s]), corner3(o[s]));
    }
    for s in 0..8 {
        put(2, corner5(p[s]), corner5(o[s]));
    }
    for r in 1..4 {
        for s in [0, 2, 4, 6] {
            put(2 + r as usize, row(p[s], r), row(o[s], r));
        }
    }
    for s in [0, 1] {
        put(6, diagonal(p[s], 0), diagonal(o[s], 0));
    }
    for k in 1..5 {
        // Above and below the long diagonal, and both sides of the other.
        for s in [0, 4, 1, 2] {
            put(6 + k as usize, diagonal(p[s], k), diagonal(o[s], k));
        }
    }
    for (k, &corner) in AT_CORNERS.iter().enumerate() {
        let orientations = if corner { [0, 1, 2, 3] } else { [0, 2, 4, 6] };
        for s in orientations {
            put(FAST_FAMILIES + k, gather(p[s], k), gather(o[s], k));
        }
    }
    out
}

/// The features of `board` (side to move's view) on the plane.
#[inline(always)]
pub fn features<G: SearchGeometry>(board: &Board) -> Features {
    features_with::<G>(board, indices(board.player, board.opponent))
}

/// The features of `board` whose pattern readings' entries are `readings`
/// (as [`indices`] gives them, or [`Readings::indices`] keeps them).
///
/// [`Readings::indices`]: super::pattern_readings::Readings::indices
#[inline(always)]
pub(crate) fn features_with<G: SearchGeometry>(
    board: &Board,
    readings: [u32; READINGS],
) -> Features {
    let (p, o, e) = (board.player, board.opponent, board.empty);
    let (moves, replies) = (
        board.moves::<G>().count_ones(),
        board.opponent_moves::<G>().count_ones(),
    );
    let (potential, potential_replies) = (
        (G::neighbours(o) & e).count_ones(),
        (G::neighbours(p) & e).count_ones(),
    );
    let empties = e.count_ones();
    let parity = if empties % 2 == 1 { 1 } else { -1 };
    let mut all = [0u32; INSTANCES];
    all[..READINGS].copy_from_slice(&readings);
    all[READINGS] = count_entry(0, moves, replies);
    all[READINGS + 1] = count_entry(1, potential, potential_replies);
    all[READINGS + 2] = count_entry(2, p.count_ones(), o.count_ones());
    Features {
        phase: phase(empties),
        indices: all,
        scalars: [
            moves as i32 - replies as i32,
            potential as i32 - potential_replies as i32,
            parity,
            1,
        ],
    }
}

/// Why a weights file cannot be used.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PatternWeightsError {
    /// The file does not start with the format's magic.
    #[error("not a pattern weights file (expected magic {expected:?})")]
    Magic {
        /// The 8 bytes a weights file starts with (`RVPATT01`).
        expected: &'static str,
    },
    /// The file's shape does not match this program's patterns.
    #[error("the file has {found} {what}, this program expects {expected}")]
    Shape {
        /// Which dimension.
        what: &'static str,
        /// This program's figure.
        expected: u64,
        /// The file's.
        found: u64,
    },
    /// The file is larger than any weights file.
    #[error("{found} bytes, more than the {limit} a weights file may have")]
    TooLarge {
        /// The largest size accepted.
        limit: usize,
        /// The file's size.
        found: usize,
    },
    /// The digest at the end does not match the contents.
    #[error("the SHA-256 digest does not match: the file is damaged")]
    Digest,
    /// The weights stream is cut short or runs past its tables.
    #[error("the weights stream is malformed at byte {offset}: {reason}")]
    Stream {
        /// Byte offset in the file.
        offset: usize,
        /// What was wrong.
        reason: &'static str,
    },
}

const MAGIC: &[u8; 8] = b"RVPATT01";
/// Largest file accepted (the shipped one is far smaller).
pub const MAX_FILE: usize = 32 << 20;

/// Learned pattern weights, expanded to full tables for fast lookup.
#[derive(Clone, PartialEq, Eq)]
pub struct PatternWeights {
    /// `PHASES × FULL_SIZE` entries.
    tables: Vec<i16>,
    scalars: [[i32; SCALARS]; PHASES],
}

impl std::fmt::Debug for PatternWeights {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PatternWeights")
            .field("scalars", &self.scalars)
            .finish_non_exhaustive()
    }
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

fn unzigzag(v: u64) -> i64 {
    ((v >> 1) as i64) ^ -((v & 1) as i64)
}

/// A bounded reader of the varint stream.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn varint(&mut self) -> Result<u64, PatternWeightsError> {
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let Some(&b) = self.bytes.get(self.at) else {
                return Err(PatternWeightsError::Stream {
                    offset: self.at,
                    reason: "cut short",
                });
            };
            self.at += 1;
            if shift == 63 && b > 1 {
                break;
            }
            value |= u64::from(b & 0x7F) << shift;
            if b & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(PatternWeightsError::Stream {
            offset: self.at,
            reason: "a number longer than 64 bits",
        })
    }
}

impl PatternWeights {
    /// Weights from the distinct (compact) weights of each phase, laid out
    /// as [`compact_index`] numbers them, and the scalar weights; entries
    /// (or phases) missing from `compact` are zero.
    pub fn from_compact(compact: &[Vec<i16>], scalars: [[i32; SCALARS]; PHASES]) -> Self {
        let map = &compaction().full_to_compact;
        let mut tables = vec![0i16; PHASES * FULL_SIZE];
        for (phase, weights) in compact.iter().enumerate().take(PHASES) {
            let table = &mut tables[phase * FULL_SIZE..(phase + 1) * FULL_SIZE];
            for (entry, &c) in table.iter_mut().zip(map) {
                *entry = weights.get(c as usize).copied().unwrap_or(0);
            }
        }
        PatternWeights { tables, scalars }
    }

    /// The distinct weights of each phase, the inverse of
    /// [`PatternWeights::from_compact`].
    pub fn to_compact(&self) -> Vec<Vec<i16>> {
        let map = &compaction().full_to_compact;
        (0..PHASES)
            .map(|phase| {
                let mut out = vec![0i16; compact_size()];
                let table = &self.tables[phase * FULL_SIZE..(phase + 1) * FULL_SIZE];
                for (&w, &c) in table.iter().zip(map) {
                    out[c as usize] = w;
                }
                out
            })
            .collect()
    }

    /// The scalar weights of each phase.
    pub fn scalars(&self) -> &[[i32; SCALARS]; PHASES] {
        &self.scalars
    }

    /// The file format [`PatternWeights::decode`] reads: the magic, the
    /// shape (phases, distinct weights per phase, scalars), then per phase
    /// its scalars and its distinct weights as zigzag varints, where a zero
    /// is followed by how many more zeros follow it; then the SHA-256 of
    /// everything before.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        put_varint(&mut out, PHASES as u64);
        put_varint(&mut out, compact_size() as u64);
        put_varint(&mut out, SCALARS as u64);
        for (phase, weights) in self.to_compact().iter().enumerate() {
            for &s in &self.scalars[phase] {
                put_varint(&mut out, zigzag(i64::from(s)));
            }
            let mut k = 0;
            while k < weights.len() {
                let w = weights[k];
                put_varint(&mut out, zigzag(i64::from(w)));
                k += 1;
                if w == 0 {
                    let run = weights[k..].iter().take_while(|&&x| x == 0).count();
                    put_varint(&mut out, run as u64);
                    k += run;
                }
            }
        }
        let digest = Sha256::digest(&out);
        out.extend_from_slice(&digest);
        out
    }

    /// Reads and checks a weights file written by [`PatternWeights::encode`].
    pub fn decode(bytes: &[u8]) -> Result<Self, PatternWeightsError> {
        if bytes.len() > MAX_FILE {
            return Err(PatternWeightsError::TooLarge {
                limit: MAX_FILE,
                found: bytes.len(),
            });
        }
        if bytes.len() < MAGIC.len() + 32 || &bytes[..MAGIC.len()] != MAGIC {
            return Err(PatternWeightsError::Magic {
                expected: "RVPATT01",
            });
        }
        let (body, digest) = bytes.split_at(bytes.len() - 32);
        if Sha256::digest(body).as_slice() != digest {
            return Err(PatternWeightsError::Digest);
        }
        let mut r = Reader {
            bytes: body,
            at: MAGIC.len(),
        };
        let size = compact_size();
        for (what, expected) in [
            ("phases", PHASES),
            ("weights per phase", size),
            ("scalars", SCALARS),
        ] {
            let found = r.varint()?;
            if found != expected as u64 {
                return Err(PatternWeightsError::Shape {
                    what,
                    expected: expected as u64,
                    found,
                });
            }
        }
        let mut compact = Vec::with_capacity(PHASES);
        let mut scalars = [[0i32; SCALARS]; PHASES];
        for phase_scalars in scalars.iter_mut() {
            for s in phase_scalars.iter_mut() {
                let at = r.at;
                let v = unzigzag(r.varint()?);
                if v.unsigned_abs() > MAX_SCALAR {
                    return Err(PatternWeightsError::Stream {
                        offset: at,
                        reason: "a scalar weight out of range",
                    });
                }
                *s = v as i32;
            }
            let mut weights = vec![0i16; size];
            let mut k = 0;
            while k < size {
                let at = r.at;
                let w = i16::try_from(unzigzag(r.varint()?)).map_err(|_| {
                    PatternWeightsError::Stream {
                        offset: at,
                        reason: "a pattern weight out of range",
                    }
                })?;
                weights[k] = w;
                k += 1;
                if w == 0 {
                    let at = r.at;
                    let run = r.varint()?;
                    if run > (size - k) as u64 {
                        return Err(PatternWeightsError::Stream {
                            offset: at,
                            reason: "a run of zeros past the end of its table",
                        });
                    }
                    k += run as usize;
                }
            }
            compact.push(weights);
        }
        if r.at != body.len() {
            return Err(PatternWeightsError::Stream {
                offset: r.at,
                reason: "bytes after the last table",
            });
        }
        Ok(PatternWeights::from_compact(&compact, scalars))
    }

    /// The value of `features`, in hundredths of a disc, strictly inside
    /// ±6400.
    #[inline(always)]
    pub fn value(&self, features: &Features) -> i32 {
        let table = &self.tables[features.phase * FULL_SIZE..(features.phase + 1) * FULL_SIZE];
        let mut value: i32 = self.scalars[features.phase]
            .iter()
            .zip(&features.scalars)
            .map(|(w, f)| w * f)
            .sum();
        for &i in &features.indices {
            value += i32::from(table[i as usize]);
        }
        value.clamp(-LIMIT + 1, LIMIT - 1)
    }

    /// The evaluation of `board` for the side to move.
    #[inline(always)]
    pub fn evaluate<G: SearchGeometry>(&self, board: &Board) -> i32 {
        self.value(&features::<G>(board))
    }

    /// The evaluation of `board` for the side to move, its pattern
    /// readings kept up to date by the search.
    #[inline(always)]
    pub(crate) fn evaluate_with<G: SearchGeometry>(
        &self,
        board: &Board,
        readings: &Readings,
    ) -> i32 {
        self.value(&features_with::<G>(board, readings.indices()))
    }
}

static WEIGHTS: OnceLock<Option<PatternWeights>> = OnceLock::new();

/// The shipped weights file; empty when none has been trained yet, and the
/// linear evaluation is used everywhere.
#[cfg(not(target_arch = "wasm32"))]
const SHIPPED: &[u8] = include_bytes!("pattern_weights.bin");
/// The browser build leaves the weights out of its module (they would
/// double its size, and the page itself never searches): its search
/// worker fetches the same file beside the page and [`install`]s it
/// (`web/worker.js`, `crate::platform::web::serve_searches`).
#[cfg(target_arch = "wasm32")]
const SHIPPED: &[u8] = &[];

/// The pattern weights in use: the ones a program [`install`]ed before its
/// first evaluation, else the shipped file (if any).
#[inline]
pub fn weights() -> Option<&'static PatternWeights> {
    WEIGHTS
        .get_or_init(|| {
            // Checked by a unit test; a build with a damaged file cannot
            // pass CI, and a release falls back to the linear evaluation.
            PatternWeights::decode(SHIPPED).ok()
        })
        .as_ref()
}

/// Makes `weights` (or, with `None`, the linear evaluation alone) the
/// evaluation of this process. For the training tools, which label
/// positions with weights they have just fitted; it must come before the
/// first evaluation.
pub fn install(weights: Option<PatternWeights>) -> Result<(), EvaluationInUse> {
    WEIGHTS.set(weights).map_err(|_| EvaluationInUse)
}

/// [`install`] came after the process had begun to evaluate.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("the process is already evaluating with other weights")]
pub struct EvaluationInUse;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Rules;
    use crate::engine::topology::Plane;

    #[test]
    fn every_reading_gathers_its_family_squares_in_order() {
        // One disc on each square of the canonical orientation reads as
        // the digit 1 at that square's reading position.
        for (f, family) in FAMILIES.iter().enumerate() {
            for (pos, &sq) in family.squares.iter().enumerate() {
                let ix = indices(1 << sq, 0);
                let first = INSTANCE_FAMILY
                    .iter()
                    .position(|&x| x as usize == f)
                    .unwrap();
                assert_eq!(
                    ix[first] as usize,
                    FAMILY_OFFSET[f] + pow3(pos),
                    "{} square {sq}",
                    family.name
                );
            }
        }
    }

    #[test]
    fn readings_follow_the_family_table_and_stay_in_range() {
        let ix = indices(0x0000_0010_0800_0000, 0x0000_0008_1000_0000);
        for (k, &i) in ix.iter().enumerate() {
            let f = usize::from(INSTANCE_FAMILY[k]);
            assert!((FAMILY_OFFSET[f]..FAMILY_OFFSET[f] + FAMILY_SIZE[f]).contains(&(i as usize)));
        }
    }

    #[test]
    fn count_pairs_read_each_sides_counts_in_their_own_tables() {
        let start = Board::from_position(&Rules::default().start_position()).unwrap();
        let f = features::<Plane>(&start);
        // Four moves each side, two discs each side.
        assert_eq!(f.indices[READINGS], count_entry(0, 4, 4));
        assert_eq!(f.indices[READINGS + 2], count_entry(2, 2, 2));
        // Each pair's entries lie in its own table, past the patterns', and
        // a count past the cap reads as the cap.
        let mut seen = std::collections::HashSet::new();
        for (k, pair) in COUNT_PAIRS.iter().enumerate() {
            let side = pair.cap as usize + 1;
            for mine in 0..=64 {
                for theirs in 0..=64 {
                    let e = count_entry(k, mine, theirs) as usize;
                    assert!((COUNT_OFFSET[k]..COUNT_OFFSET[k] + side * side).contains(&e));
                    assert!((PATTERN_SIZE..FULL_SIZE).contains(&e));
                    seen.insert(e);
                }
            }
            assert_eq!(
                count_entry(k, 64, 0),
                count_entry(k, pair.cap, 0),
                "{} caps",
                pair.name
            );
        }
        assert_eq!(seen.len(), FULL_SIZE - PATTERN_SIZE);
        // Each pair has weights of its own.
        let a = compact_index(count_entry(0, 5, 3));
        let b = compact_index(count_entry(0, 3, 5));
        assert_ne!(a, b);
    }

    #[test]
    fn symmetric_boards_read_the_same_distinct_weights() {
        // A lopsided position and its eight images: the multiset of
        // distinct weights read is the same.
        let (p, o) = (0x0000_1038_0C04_0201u64, 0x0000_0804_3038_0000u64);
        let read = |p: u64, o: u64| {
            let mut v: Vec<u32> = indices(p, o).iter().map(|&i| compact_index(i)).collect();
            v.sort_unstable();
            v
        };
        let base = read(p, o);
        let images: [fn(u64) -> u64; 4] = [mirror, u64::swap_bytes, transpose, |x| {
            mirror(transpose(x)).swap_bytes()
        }];
        for image in images {
            assert_eq!(read(image(p), image(o)), base);
        }
    }

    #[test]
    fn mirror_configurations_share_a_weight() {
        // a1 alone and h1 alone on the edge read are mirror images.
        let a1 = indices(1, 0)[0];
        let h1 = indices(1 << 7, 0)[0];
        assert_ne!(a1, h1);
        assert_eq!(compact_index(a1), compact_index(h1));
        assert!(compact_size() < FULL_SIZE);
    }

    fn sample_weights() -> PatternWeights {
        let size = compact_size();
        let compact: Vec<Vec<i16>> = (0..PHASES)
            .map(|p| {
                (0..size)
                    .map(|k| {
                        if k % 7 == 0 {
                            (k % 301) as i16 - 150 + p as i16
                        } else {
                            0
                        }
                    })
                    .collect()
            })
            .collect();
        let mut scalars = [[0; SCALARS]; PHASES];
        for (p, s) in scalars.iter_mut().enumerate() {
            *s = [120, 40, -(p as i32), 7];
        }
        PatternWeights::from_compact(&compact, scalars)
    }

    #[test]
    fn weights_round_trip_through_the_file_format() {
        let w = sample_weights();
        let bytes = w.encode();
        assert_eq!(PatternWeights::decode(&bytes).unwrap(), w);
        assert_eq!(
            w.to_compact(),
            PatternWeights::decode(&bytes).unwrap().to_compact()
        );
    }

    #[test]
    fn a_damaged_or_foreign_file_is_refused_with_the_reason() {
        let bytes = sample_weights().encode();
        let mut flipped = bytes.clone();
        flipped[40] ^= 1;
        assert_eq!(
            PatternWeights::decode(&flipped),
            Err(PatternWeightsError::Digest)
        );
        assert!(matches!(
            PatternWeights::decode(b"RVEDATA1 and more bytes than a digest holds......"),
            Err(PatternWeightsError::Magic { .. })
        ));
        assert!(matches!(
            PatternWeights::decode(&bytes[..20]),
            Err(PatternWeightsError::Magic { .. })
        ));
        // A well-formed file of another shape: digest fine, shape refused.
        let mut other = MAGIC.to_vec();
        put_varint(&mut other, 12);
        let digest = Sha256::digest(&other);
        other.extend_from_slice(&digest);
        assert_eq!(
            PatternWeights::decode(&other),
            Err(PatternWeightsError::Shape {
                what: "phases",
                expected: PHASES as u64,
                found: 12
            })
        );
        // A stream cut short (with a valid digest of what is there).
        let mut cut = bytes[..bytes.len() - 32 - 100].to_vec();
        let digest = Sha256::digest(&cut);
        cut.extend_from_slice(&digest);
        assert!(matches!(
            PatternWeights::decode(&cut),
            Err(PatternWeightsError::Stream { .. })
        ));
    }

    #[test]
    fn the_shipped_weights_load_and_value_the_start_evenly() {
        if SHIPPED.is_empty() {
            assert!(weights().is_none(), "no file, no pattern evaluation");
            return;
        }
        let w = PatternWeights::decode(SHIPPED).expect("the shipped pattern weights load");
        assert_eq!(Some(&w), weights());
        let start = Board::from_position(&Rules::default().start_position()).unwrap();
        let value = w.evaluate::<Plane>(&start);
        // The start is symmetric: a small value either way.
        assert!(value.abs() < 300, "start valued {value}");
    }

    proptest::proptest! {
        #[test]
        fn decoding_arbitrary_bytes_never_panics(bytes in proptest::collection::vec(0u8..=255, 0..200)) {
            let _ = PatternWeights::decode(&bytes);
        }
    }
}
