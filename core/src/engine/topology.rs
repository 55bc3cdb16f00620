//! Board topologies: the plane (edges stop lines) and the torus (edges join).
//!
//! Move generation and flipping are written once per topology as a [`Geometry`]
//! implementation, so hot loops (perft, search) are monomorphised and never
//! branch on the topology per square.

use super::{flip, movegen};

/// How the board's edges behave.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Topology {
    /// The ordinary board: a line stops at the edge.
    #[default]
    Plane,
    /// Top and bottom edges join, and so do left and right; lines continue
    /// across edges and along wrapped diagonals (at most 7 squares long).
    Torus,
}

/// Move generation and flipping for one topology.
///
/// `player` and `opponent` are disjoint; `empty` excludes both and any walls.
/// Walls need no special case: a wall is neither player nor opponent, so a
/// line stops at it exactly as at an empty square.
pub trait Geometry {
    /// Squares in `empty` where `player` may play.
    fn moves(player: u64, opponent: u64, empty: u64) -> u64;
    /// The opponent discs flipped by `player` playing on square `index`
    /// (assumed empty); zero when the move flips nothing.
    fn flips(player: u64, opponent: u64, index: u8) -> u64;
}

/// The [`Geometry`] of the ordinary board, where a line stops at the edge.
#[derive(Debug, Clone, Copy)]
pub struct Plane;

/// The [`Geometry`] of the board whose opposite edges join.
#[derive(Debug, Clone, Copy)]
pub struct Torus;

impl Geometry for Plane {
    #[inline(always)]
    fn moves(player: u64, opponent: u64, empty: u64) -> u64 {
        movegen::plane_moves(player, opponent, empty)
    }
    #[inline(always)]
    fn flips(player: u64, opponent: u64, index: u8) -> u64 {
        flip::plane_flips(player, opponent, index)
    }
}

impl Geometry for Torus {
    #[inline(always)]
    fn moves(player: u64, opponent: u64, empty: u64) -> u64 {
        movegen::torus_moves(player, opponent, empty)
    }
    #[inline(always)]
    fn flips(player: u64, opponent: u64, index: u8) -> u64 {
        flip::torus_flips(player, opponent, index)
    }
}

impl Topology {
    /// Legal placements for `player` (see [`Geometry::moves`]).
    #[inline]
    pub fn moves(self, player: u64, opponent: u64, empty: u64) -> u64 {
        match self {
            Topology::Plane => Plane::moves(player, opponent, empty),
            Topology::Torus => Torus::moves(player, opponent, empty),
        }
    }

    /// Discs flipped by `player` on `index` (see [`Geometry::flips`]).
    #[inline]
    pub fn flips(self, player: u64, opponent: u64, index: u8) -> u64 {
        match self {
            Topology::Plane => Plane::flips(player, opponent, index),
            Topology::Torus => Torus::flips(player, opponent, index),
        }
    }
}

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = 0x8080_8080_8080_8080;

/// The eight directions as (column step, row step); see [`torus_shift`].
pub(crate) const DIRECTIONS: [(i8, i8); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (-1, -1),
    (-1, 1),
    (1, -1),
];

/// Moves every square of `bits` one step in `dir` (an index into
/// `DIRECTIONS`) on the torus: columns and rows wrap around.
#[inline(always)]
pub fn torus_shift(bits: u64, dir: usize) -> u64 {
    let (dc, dr) = DIRECTIONS[dir];
    let horizontal = match dc {
        1 => ((bits << 1) & !FILE_A) | ((bits >> 7) & FILE_A),
        -1 => ((bits >> 1) & !FILE_H) | ((bits << 7) & FILE_H),
        _ => bits,
    };
    match dr {
        1 => horizontal.rotate_left(8),
        -1 => horizontal.rotate_right(8),
        _ => horizontal,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn torus_shift_wraps_every_edge() {
        let h1 = 1u64 << 7;
        assert_eq!(torus_shift(h1, 0), 1, "h1 east is a1");
        assert_eq!(torus_shift(1, 1), h1, "a1 west is h1");
        assert_eq!(torus_shift(1, 3), 1 << 56, "a1 north is a8");
        assert_eq!(torus_shift(1 << 56, 2), 1, "a8 south is a1");
        assert_eq!(torus_shift(1 << 63, 4), 1, "h8 south-east is a1");
        assert_eq!(torus_shift(1, 5), 1 << 63, "a1 north-west is h8");
    }

    #[test]
    fn eight_torus_steps_return_home() {
        for dir in 0..8 {
            for index in 0..64 {
                let mut bits = 1u64 << index;
                for _ in 0..8 {
                    bits = torus_shift(bits, dir);
                }
                assert_eq!(bits, 1 << index);
            }
        }
    }
}
