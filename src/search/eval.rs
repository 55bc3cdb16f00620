//! The static evaluation: an integer estimate, in hundredths of a disc, of
//! the final disc difference for the side to move.
//!
//! [`evaluate`] uses the pattern evaluation ([`patterns`](super::patterns))
//! on the plane without walls, and the linear model of this module on the
//! torus and with walls, which the patterns do not know.
//!
//! The linear model: a linear function of a few features, with one weight
//! set per game phase (ten empties per phase):
//! - mobility (legal moves, each side) and potential mobility (empty squares
//!   next to the other side's discs);
//! - corners, and X- and C-squares next to an empty corner;
//! - stable discs (see `stability`);
//! - parity (who is due to play the last empty square);
//! - the disc difference and a constant;
//! - on the plane, each edge's eight squares and each corner's 3×3 block as
//!   patterns, weighted by learned tables of their 3⁸ and 3⁹ configurations
//!   (mirror images share an entry).
//!
//! The weights are integers read from `eval_weights.txt`, written by the
//! tuning program (`cargo run --release --example tune_eval`), so every
//! platform computes the same values.

use std::sync::OnceLock;

use super::SearchGeometry;
use super::board::Board;
use super::pattern_readings::Readings;
use super::patterns::PatternWeights;

/// Number of scalar features.
pub const SCALARS: usize = 10;
/// Names of the scalar features, in weight order.
pub const SCALAR_NAMES: [&str; SCALARS] = [
    "mobility",
    "potential_mobility",
    "corners",
    "x_squares",
    "c_squares",
    "stable",
    "parity",
    "discs",
    "constant",
    "corner_moves",
];
/// Game phases (ten empties each; 60 empties joins the last).
pub const PHASES: usize = 6;
/// Configurations of an eight-square edge.
pub const EDGE_CONFIGS: usize = 6561;
/// Configurations of a corner's 3×3 block.
pub const CORNER_CONFIGS: usize = 19683;
/// Evaluations stay strictly inside this, below any exact final score × 100.
pub const EVAL_LIMIT: i32 = 6400;

const CORNERS: u64 = 0x8100_0000_0000_0081;
/// X-squares (diagonally next to a corner), in corner order a1, h1, a8, h8.
const X_SQUARES: [u64; 4] = [1 << 9, 1 << 14, 1 << 49, 1 << 54];
/// C-squares (beside a corner on an edge), in the same order.
const C_SQUARES: [u64; 4] = [
    (1 << 1) | (1 << 8),
    (1 << 6) | (1 << 15),
    (1 << 48) | (1 << 57),
    (1 << 55) | (1 << 62),
];
const CORNER_BITS: [u64; 4] = [1, 1 << 7, 1 << 56, 1 << 63];
const FILE_A: u64 = 0x0101_0101_0101_0101;

/// The features of one board, from the side to move's view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Features {
    /// Which weight set applies.
    pub phase: usize,
    /// Scalar features, in [`SCALAR_NAMES`] order.
    pub scalars: [i32; SCALARS],
    /// Canonical configuration indices of the patterns (plane only).
    pub patterns: Option<Patterns>,
}

/// The pattern configurations of a board on the plane.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Patterns {
    /// Each edge's canonical index into the edge table.
    pub edges: [u16; 4],
    /// Each corner block's canonical index into the corner table.
    pub corners: [u16; 4],
}

/// Learned weights, in hundredths of a disc.
#[derive(Debug, Clone, PartialEq)]
pub struct Weights {
    /// Scalar weights per phase on the plane.
    pub plane: [[i32; SCALARS]; PHASES],
    /// Scalar weights per phase on the torus.
    pub torus: [[i32; SCALARS]; PHASES],
    /// Edge table per phase (plane only).
    pub edge: Vec<[i16; EDGE_CONFIGS]>,
    /// Corner 3×3 table per phase (plane only).
    pub corner: Vec<[i16; CORNER_CONFIGS]>,
}

/// Why a weights file cannot be read.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum WeightsError {
    /// A line is not understood.
    #[error("line {line}: {reason}")]
    Line {
        /// 1-based line number.
        line: usize,
        /// What was wrong.
        reason: String,
    },
    /// A table is missing.
    #[error("missing {0}")]
    Missing(String),
}

impl Weights {
    /// All weights zero.
    pub fn zero() -> Weights {
        Weights {
            plane: [[0; SCALARS]; PHASES],
            torus: [[0; SCALARS]; PHASES],
            edge: vec![[0; EDGE_CONFIGS]; PHASES],
            corner: vec![[0; CORNER_CONFIGS]; PHASES],
        }
    }

    /// Parses the text format written by [`Weights::to_text`]:
    /// `plane PHASE w…`, `torus PHASE w…`, `edge PHASE w…` and
    /// `corner PHASE w…` lines;
    /// `#` starts a comment.
    pub fn parse(text: &str) -> Result<Weights, WeightsError> {
        let mut weights = Weights::zero();
        let mut seen = [[false; PHASES]; 4];
        for (i, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let err = |reason: String| WeightsError::Line {
                line: i + 1,
                reason,
            };
            let mut words = line.split_ascii_whitespace();
            let kind = words.next().unwrap_or("");
            let phase: usize = words
                .next()
                .and_then(|w| w.parse().ok())
                .filter(|&p| p < PHASES)
                .ok_or_else(|| err(format!("expected a phase 0–{}", PHASES - 1)))?;
            let numbers: Vec<i32> = words
                .map(|w| w.parse::<i32>().map_err(|e| err(format!("{w:?}: {e}"))))
                .collect::<Result<_, _>>()?;
            let (slot, expected) = match kind {
                "plane" => (0, SCALARS),
                "torus" => (1, SCALARS),
                "edge" => (2, EDGE_CONFIGS),
                "corner" => (3, CORNER_CONFIGS),
                other => return Err(err(format!("unknown table {other:?}"))),
            };
            if numbers.len() != expected {
                return Err(err(format!(
                    "expected {expected} weights, found {}",
                    numbers.len()
                )));
            }
            match slot {
                0 => weights.plane[phase].copy_from_slice(&numbers),
                1 => weights.torus[phase].copy_from_slice(&numbers),
                _ => {
                    let table: &mut [i16] = if slot == 2 {
                        &mut weights.edge[phase]
                    } else {
                        &mut weights.corner[phase]
                    };
                    for (w, &n) in table.iter_mut().zip(&numbers) {
                        *w = i16::try_from(n)
                            .map_err(|_| err(format!("pattern weight {n} out of range")))?;
                    }
                }
            }
            seen[slot][phase] = true;
        }
        for (slot, name) in ["plane", "torus", "edge", "corner"].iter().enumerate() {
            if let Some(p) = seen[slot].iter().position(|s| !s) {
                return Err(WeightsError::Missing(format!("{name} {p}")));
            }
        }
        Ok(weights)
    }

    /// The text format [`Weights::parse`] reads.
    pub fn to_text(&self, header: &str) -> String {
        use std::fmt::Write;
        let mut out = String::new();
        for line in header.lines() {
            let _ = writeln!(out, "# {line}");
        }
        let _ = writeln!(out, "# scalar order: {}", SCALAR_NAMES.join(" "));
        let join = |ws: &mut dyn Iterator<Item = i32>| {
            ws.map(|w| w.to_string()).collect::<Vec<_>>().join(" ")
        };
        for (p, ws) in self.plane.iter().enumerate() {
            let _ = writeln!(out, "plane {p} {}", join(&mut ws.iter().copied()));
        }
        for (p, ws) in self.torus.iter().enumerate() {
            let _ = writeln!(out, "torus {p} {}", join(&mut ws.iter().copied()));
        }
        for (p, ws) in self.edge.iter().enumerate() {
            let _ = writeln!(
                out,
                "edge {p} {}",
                join(&mut ws.iter().map(|&w| i32::from(w)))
            );
        }
        for (p, ws) in self.corner.iter().enumerate() {
            let _ = writeln!(
                out,
                "corner {p} {}",
                join(&mut ws.iter().map(|&w| i32::from(w)))
            );
        }
        out
    }

    /// The value of `features` under these weights, within ±[`EVAL_LIMIT`].
    #[inline]
    pub fn value(&self, features: &Features) -> i32 {
        let scalars = match features.patterns {
            Some(_) => &self.plane[features.phase],
            None => &self.torus[features.phase],
        };
        let mut value: i32 = scalars
            .iter()
            .zip(&features.scalars)
            .map(|(w, f)| w * f)
            .sum();
        if let Some(patterns) = features.patterns {
            let edge = &self.edge[features.phase];
            let corner = &self.corner[features.phase];
            for index in patterns.edges {
                value += i32::from(edge[usize::from(index)]);
            }
            for index in patterns.corners {
                value += i32::from(corner[usize::from(index)]);
            }
        }
        value.clamp(-EVAL_LIMIT + 1, EVAL_LIMIT - 1)
    }
}

/// The weights shipped with the program.
pub fn weights() -> &'static Weights {
    static WEIGHTS: OnceLock<Weights> = OnceLock::new();
    WEIGHTS.get_or_init(|| {
        // Checked by a unit test; a build with a broken file cannot pass CI.
        Weights::parse(include_str!("eval_weights.txt")).unwrap_or_else(|_| Weights::zero())
    })
}

/// The phase of a board with `empties` empty squares.
#[inline(always)]
pub fn phase(empties: u32) -> usize {
    (empties.min(59) / 10) as usize
}

/// Base-3 value of each 8-bit row, for edge indices.
static TERNARY: [u16; 256] = build_ternary();
/// The canonical index of each edge configuration: the smaller of it and
/// its mirror image, so both share a weight.
static CANONICAL_EDGE: [u16; EDGE_CONFIGS] = build_canonical();

/// `out[bits]` = the bits of `bits` read as base-3 digits (the value of a
/// pattern whose set squares all hold digit 1), for `N` = 2^squares.
const fn build_ternary<const N: usize>() -> [u16; N] {
    let mut out = [0u16; N];
    let mut bits = 0;
    while bits < N {
        let (mut value, mut power, mut rest) = (0u16, 1u16, bits);
        while rest != 0 {
            if rest & 1 != 0 {
                value += power;
            }
            power *= 3;
            rest >>= 1;
        }
        out[bits] = value;
        bits += 1;
    }
    out
}

const fn build_canonical() -> [u16; EDGE_CONFIGS] {
    let mut out = [0u16; EDGE_CONFIGS];
    let mut index = 0;
    while index < EDGE_CONFIGS {
        let (mut rest, mut mirrored, mut i) = (index, 0usize, 0);
        while i < 8 {
            mirrored = mirrored * 3 + rest % 3;
            rest /= 3;
            i += 1;
        }
        out[index] = if mirrored < index {
            mirrored as u16
        } else {
            index as u16
        };
        index += 1;
    }
    out
}

/// The canonical index of each corner block configuration: the smaller of
/// it and its reflection in the corner's diagonal.
static CANONICAL_CORNER: [u16; CORNER_CONFIGS] = build_canonical_corner();
/// Base-3 value of each 9-bit corner block (bits: row-major, corner first).
static TERNARY9: [u16; 512] = build_ternary();

const fn build_canonical_corner() -> [u16; CORNER_CONFIGS] {
    let mut out = [0u16; CORNER_CONFIGS];
    let mut index = 0;
    while index < CORNER_CONFIGS {
        let mut digits = [0usize; 9];
        let (mut rest, mut i) = (index, 0);
        while i < 9 {
            digits[i] = rest % 3;
            rest /= 3;
            i += 1;
        }
        // Cell (r, c) is digit 3r + c; the reflection swaps r and c.
        let (mut reflected, mut power, mut k) = (0usize, 1usize, 0);
        while k < 9 {
            let (r, c) = (k / 3, k % 3);
            reflected += digits[3 * c + r] * power;
            power *= 3;
            k += 1;
        }
        out[index] = if reflected < index {
            reflected as u16
        } else {
            index as u16
        };
        index += 1;
    }
    out
}

/// The a1 corner block of `bits` as nine bits, row-major.
#[inline(always)]
fn corner_bits(bits: u64) -> usize {
    ((bits & 7) | ((bits >> 5) & 0x38) | ((bits >> 10) & 0x1C0)) as usize
}

/// The canonical index of the a1 corner block.
#[inline(always)]
fn corner_index(player: u64, opponent: u64) -> u16 {
    let index = TERNARY9[corner_bits(player)] + 2 * TERNARY9[corner_bits(opponent)];
    CANONICAL_CORNER[usize::from(index)]
}

/// The board mirrored left to right.
#[inline(always)]
fn flip_horizontal(bits: u64) -> u64 {
    bits.swap_bytes().reverse_bits()
}

/// Packs the squares of file `shift` (0 = a, 7 = h) into a byte, a1 side low.
#[inline(always)]
fn file_byte(bits: u64, shift: u32) -> usize {
    (((bits >> shift) & FILE_A).wrapping_mul(0x0102_0408_1020_4080) >> 56) as usize
}

#[inline(always)]
fn edge_index(player_byte: usize, opponent_byte: usize) -> u16 {
    let index = TERNARY[player_byte] + 2 * TERNARY[opponent_byte];
    CANONICAL_EDGE[usize::from(index)]
}

/// The features of `board` (side to move's view).
#[inline]
pub fn features<G: SearchGeometry>(board: &Board) -> Features {
    let (p, o, e) = (board.player, board.opponent, board.empty);
    let my_moves = board.moves::<G>();
    let their_moves = board.opponent_moves::<G>();
    let mobility = my_moves.count_ones() as i32 - their_moves.count_ones() as i32;
    let corner_moves =
        (my_moves & CORNERS).count_ones() as i32 - (their_moves & CORNERS).count_ones() as i32;
    let potential =
        (G::neighbours(o) & e).count_ones() as i32 - (G::neighbours(p) & e).count_ones() as i32;
    let stable = G::stable(p, o, e).count_ones() as i32 - G::stable(o, p, e).count_ones() as i32;
    let empties = e.count_ones();
    let parity = if empties % 2 == 1 { 1 } else { -1 };
    let discs = p.count_ones() as i32 - o.count_ones() as i32;
    let mut scalars = [0i32; SCALARS];
    scalars[0] = mobility;
    scalars[1] = potential;
    scalars[5] = stable;
    scalars[6] = parity;
    scalars[7] = discs;
    scalars[8] = 1;
    let patterns = if G::PLANE {
        scalars[2] = (p & CORNERS).count_ones() as i32 - (o & CORNERS).count_ones() as i32;
        scalars[9] = corner_moves;
        for k in 0..4 {
            if e & CORNER_BITS[k] != 0 {
                let x = X_SQUARES[k];
                let c = C_SQUARES[k];
                scalars[3] += i32::from(p & x != 0) - i32::from(o & x != 0);
                scalars[4] += (p & c).count_ones() as i32 - (o & c).count_ones() as i32;
            }
        }
        let (ph, oh) = (flip_horizontal(p), flip_horizontal(o));
        let (pv, ov) = (p.swap_bytes(), o.swap_bytes());
        let (pvh, ovh) = (ph.swap_bytes(), oh.swap_bytes());
        Some(Patterns {
            edges: [
                edge_index((p & 0xFF) as usize, (o & 0xFF) as usize),
                edge_index((p >> 56) as usize, (o >> 56) as usize),
                edge_index(file_byte(p, 0), file_byte(o, 0)),
                edge_index(file_byte(p, 7), file_byte(o, 7)),
            ],
            corners: [
                corner_index(p, o),
                corner_index(ph, oh),
                corner_index(pv, ov),
                corner_index(pvh, ovh),
            ],
        })
    } else {
        None
    };
    Features {
        phase: phase(empties),
        scalars,
        patterns,
    }
}

/// The evaluation of `board` for the side to move, in hundredths of a disc.
// Always inlined, so the searches' per-instruction-set copies get their
// own (see `midgame::midgame_value`).
#[inline(always)]
pub fn evaluate<G: SearchGeometry>(board: &Board) -> i32 {
    match pattern_weights::<G>(board) {
        Some(patterns) => patterns.evaluate::<G>(board),
        None => weights().value(&features::<G>(board)),
    }
}

/// [`evaluate`] with the pattern readings kept up to date by the search
/// (ignored where the patterns do not apply).
#[inline(always)]
pub(crate) fn evaluate_with<G: SearchGeometry>(board: &Board, readings: &Readings) -> i32 {
    match pattern_weights::<G>(board) {
        Some(patterns) => patterns.evaluate_with::<G>(board, readings),
        None => weights().value(&features::<G>(board)),
    }
}

/// The pattern weights that apply to `board`: on the plane without walls
/// (the patterns know no walls), when weights are loaded.
#[inline(always)]
fn pattern_weights<G: SearchGeometry>(board: &Board) -> Option<&'static PatternWeights> {
    if G::PLANE && board.player | board.opponent | board.empty == u64::MAX {
        super::patterns::weights()
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Rules;
    use crate::engine::topology::Plane;

    #[test]
    fn the_shipped_weights_parse() {
        let text = include_str!("eval_weights.txt");
        let parsed = Weights::parse(text).expect("eval_weights.txt is valid");
        assert_eq!(&parsed, weights());
        assert_eq!(Weights::parse(&parsed.to_text("x")).unwrap(), parsed);
    }

    #[test]
    fn a_malformed_weights_file_names_the_line() {
        let err = Weights::parse("plane 0 1 2\n").unwrap_err();
        assert_eq!(
            err,
            WeightsError::Line {
                line: 1,
                reason: format!("expected {SCALARS} weights, found 2")
            }
        );
        assert!(matches!(
            Weights::parse("# nothing\n"),
            Err(WeightsError::Missing(_))
        ));
    }

    #[test]
    fn mirrored_edges_share_an_index_and_the_start_is_symmetric() {
        // a1 mine alone vs h1 mine alone.
        assert_eq!(edge_index(1, 0), edge_index(0x80, 0));
        assert_ne!(edge_index(1, 0), edge_index(0, 1));
        let start = Board::from_position(&Rules::default().start_position()).unwrap();
        let f = features::<Plane>(&start);
        assert_eq!(f.scalars[0], 0, "both sides have four moves");
        assert_eq!(f.phase, 5);
        assert_eq!(file_byte(1 << 56, 0), 0x80);
        assert_eq!(file_byte(1 << 7, 7), 1);
        // The four corner blocks of the start are empty and share an index.
        let corners = f.patterns.unwrap().corners;
        assert!(corners.iter().all(|&c| c == 0));
    }

    #[test]
    fn corner_blocks_are_read_from_each_corner_and_reflect() {
        // Own disc on b1 (next to a1 on the edge) and one on a2: reflections.
        assert_eq!(corner_index(1 << 1, 0), corner_index(1 << 8, 0));
        assert_ne!(corner_index(1 << 1, 0), corner_index(1 << 9, 0));
        assert_eq!(corner_bits(1 << 18), 1 << 8, "c3 is the last cell");
        // h8 seen from its own corner is a1.
        let h8 = 1u64 << 63;
        assert_eq!(corner_bits(flip_horizontal(h8).swap_bytes()), 1);
    }
}
