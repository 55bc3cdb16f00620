//! Stable discs: discs that can never be flipped again, whatever is played.
//!
//! A disc cannot be flipped along an axis (horizontal, vertical, either
//! diagonal) when the line through it on that axis is full, or when one of
//! its two neighbours on that axis is the board's edge, a wall, or a stable
//! disc of its own colour. A disc is stable when this holds on all four axes.
//! Starting from no stable discs and adding those the rule proves, until
//! nothing changes, finds a safe subset (the usual construction).
//!
//! Used for cut-offs in the exact solver (the opponent's stable discs bound
//! the best score) and as an evaluation feature.

use crate::engine::topology::torus_shift;

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = 0x8080_8080_8080_8080;
const RANK_1: u64 = 0x0000_0000_0000_00FF;
const RANK_8: u64 = 0xFF00_0000_0000_0000;
const CORNERS: u64 = 0x8100_0000_0000_0081;

/// The lines of each axis: rows, columns, diagonals (a1→h8 direction) and
/// anti-diagonals (h1→a8), on the plane and on the torus (where diagonals
/// wrap round and every line has eight squares).
struct Lines {
    /// Only the tests' reference now (see [`plane_full_lines`]).
    #[cfg_attr(not(test), allow(dead_code))]
    plane: [[u64; 15]; 4],
    torus: [[u64; 8]; 4],
}

static LINES: Lines = build_lines();

const fn build_lines() -> Lines {
    let mut plane = [[0u64; 15]; 4];
    let mut torus = [[0u64; 8]; 4];
    let mut sq = 0;
    while sq < 64 {
        let (col, row) = (sq % 8, sq / 8);
        let bit = 1u64 << sq;
        plane[0][row] |= bit;
        plane[1][col] |= bit;
        plane[2][col + 7 - row] |= bit;
        plane[3][col + row] |= bit;
        torus[0][row] |= bit;
        torus[1][col] |= bit;
        torus[2][(col + 8 - row) % 8] |= bit;
        torus[3][(col + row) % 8] |= bit;
        sq += 1;
    }
    Lines { plane, torus }
}

/// Squares whose line on each axis is full (`occupied` counts walls).
#[inline]
fn full_lines<const N: usize>(lines: &[[u64; N]; 4], occupied: u64) -> [u64; 4] {
    let mut full = [0u64; 4];
    for axis in 0..4 {
        for &line in &lines[axis] {
            if occupied & line == line {
                full[axis] |= line;
            }
        }
    }
    full
}

/// Squares of the plane within `d` steps of the edge the direction
/// (`dx`, `dy`) runs into: those whose square `d` steps on is off the board.
const fn beyond(dx: i32, dy: i32, d: i32) -> u64 {
    let mut out = 0u64;
    let mut sq = 0;
    while sq < 64 {
        let (x, y) = (sq % 8 + dx * d, sq / 8 + dy * d);
        if x < 0 || x > 7 || y < 0 || y > 7 {
            out |= 1 << sq;
        }
        sq += 1;
    }
    out
}

/// For each doubling (1, 2 and 4 steps), the squares from which that many
/// steps in a direction leave the board.
const fn edge_masks(dx: i32, dy: i32) -> [u64; 3] {
    [beyond(dx, dy, 1), beyond(dx, dy, 2), beyond(dx, dy, 4)]
}
const UP_RIGHT: [u64; 3] = edge_masks(1, 1);
const DOWN_LEFT: [u64; 3] = edge_masks(-1, -1);
const UP_LEFT: [u64; 3] = edge_masks(-1, 1);
const DOWN_RIGHT: [u64; 3] = edge_masks(1, -1);

/// Squares of `occupied` from which every square on to the edge in one
/// diagonal direction is occupied too (`UP`: the direction raises the
/// bit index by `SHIFT` a step, else lowers it; `edge` its
/// [`edge_masks`]): three doublings, each square's run joined to the run
/// `d` steps on, or ended where that square is off the board.
#[inline(always)]
fn runs_to_edge<const SHIFT: u32, const UP: bool>(occupied: u64, edge: &[u64; 3]) -> u64 {
    let step = |x: u64, d: u32, k: usize| {
        let on = if UP {
            x >> (SHIFT * d)
        } else {
            x << (SHIFT * d)
        };
        x & (on | edge[k])
    };
    step(step(step(occupied, 1, 0), 2, 1), 4, 2)
}

/// Squares of the plane whose line on each axis is full (`occupied`
/// counts walls): the same as testing each of its 46 lines, without a
/// branch (the solver's stability cut-off asks often).
#[inline(always)]
fn plane_full_lines(occupied: u64) -> [u64; 4] {
    // A row is full when its first square's run of eight is: bit 8r ANDs
    // bits 8r…8r+7 after the three shifts; likewise down the columns.
    let mut rows = occupied;
    rows &= rows >> 4;
    rows &= rows >> 2;
    rows &= rows >> 1;
    let mut columns = occupied;
    columns &= columns >> 32;
    columns &= columns >> 16;
    columns &= columns >> 8;
    // A diagonal is full when both runs from each of its squares reach the
    // edge.
    let diagonal = runs_to_edge::<9, true>(occupied, &UP_RIGHT)
        & runs_to_edge::<9, false>(occupied, &DOWN_LEFT);
    let anti = runs_to_edge::<7, true>(occupied, &UP_LEFT)
        & runs_to_edge::<7, false>(occupied, &DOWN_RIGHT);
    [
        (rows & FILE_A) * 0xFF,
        (columns & RANK_1) * FILE_A,
        diagonal,
        anti,
    ]
}

/// Stable discs of `own` on the plane; `empty` excludes walls, and every
/// square in neither `own`, `other` nor `empty` is a wall.
pub fn plane_stable(own: u64, other: u64, empty: u64) -> u64 {
    let walls = !(own | other | empty);
    // Without a corner or a wall to grow from, only discs whose four lines
    // are all full could be stable; that is rare before the very end, and
    // leaving them out keeps the answer safe (a subset) and cheap.
    if own & CORNERS == 0 && (walls == 0 || own == 0) && empty.count_ones() > 12 {
        return 0;
    }
    let full = plane_full_lines(!empty);
    // Squares whose neighbour on an axis is off the board.
    let h_edge = FILE_A | FILE_H;
    let v_edge = RANK_1 | RANK_8;
    let d_edge = h_edge | v_edge;
    let mut stable = 0u64;
    loop {
        let anchor = stable | walls;
        let h = full[0] | h_edge | ((anchor << 1) & !FILE_A) | ((anchor >> 1) & !FILE_H);
        let v = full[1] | v_edge | (anchor << 8) | (anchor >> 8);
        let d = full[2] | d_edge | ((anchor << 9) & !FILE_A) | ((anchor >> 9) & !FILE_H);
        let a = full[3] | d_edge | ((anchor << 7) & !FILE_H) | ((anchor >> 7) & !FILE_A);
        let next = own & h & v & d & a;
        if next == stable {
            return stable;
        }
        stable = next;
    }
}

/// Stable discs of `own` on the torus (no edges; walls still anchor).
pub fn torus_stable(own: u64, other: u64, empty: u64) -> u64 {
    if own == 0 {
        return 0;
    }
    let walls = !(own | other | empty);
    let full = full_lines(&LINES.torus, !empty);
    let mut stable = 0u64;
    loop {
        let anchor = stable | walls;
        let axis = |a: usize, dir: usize| {
            full[a] | torus_shift(anchor, dir) | torus_shift(anchor, dir ^ 1)
        };
        // DIRECTIONS pairs: 0/1 E/W, 2/3 S/N, 4/5 SE/NW, 6/7 SW/NE.
        let next = own & axis(0, 0) & axis(1, 2) & axis(2, 4) & axis(3, 6);
        if next == stable {
            return stable;
        }
        stable = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use reversi_core::bitboard;

    #[test]
    fn corners_and_their_full_edges_are_stable() {
        let own = bitboard! {
            X X X . . . . .
            X . . . . . . .
            . . . . . . . .
            . . . . X . . .
            . . . . . . . .
            . . . . . . . .
            . . . . . . . .
            . . . . . . . .
        }
        .0;
        let expected = bitboard! {
            X X X . . . . .
            X . . . . . . .
            . . . . . . . .
            . . . . . . . .
            . . . . . . . .
            . . . . . . . .
            . . . . . . . .
            . . . . . . . .
        }
        .0;
        assert_eq!(plane_stable(own, 0, !own), expected);
    }

    #[test]
    fn a_full_board_is_all_stable_and_a_wall_anchors() {
        let own = 0x0F0F_0F0F_0F0F_0F0F;
        assert_eq!(plane_stable(own, !own, 0), own);
        assert_eq!(torus_stable(own, !own, 0), own);
        // On the torus a lone disc is never stable; with walls all round it is.
        let d4 = 1u64 << 27;
        let ring = 0x0000_001C_141C_0000; // the eight neighbours of d4
        assert_eq!(torus_stable(d4, 0, !d4), 0);
        assert_eq!(torus_stable(d4, 0, !(d4 | ring)), d4);
    }

    proptest::proptest! {
        #[test]
        fn the_full_lines_of_the_plane_are_those_whose_squares_are_all_occupied(
            occupied in proptest::num::u64::ANY,
            fill in proptest::num::u64::ANY,
        ) {
            // Mostly full boards too, where many lines are full.
            for occupied in [occupied, occupied | fill, !(occupied & fill & (fill >> 7))] {
                proptest::prop_assert_eq!(
                    plane_full_lines(occupied),
                    full_lines(&LINES.plane, occupied)
                );
            }
        }
    }

    #[test]
    fn a_disc_that_can_be_flipped_is_not_stable() {
        // b1 between a1 (own, stable corner) and empty c1: stable horizontally,
        // but the b-file is open, and diagonally c2–a… is open too.
        let own = (1u64 << 0) | (1 << 1);
        let other = 1u64 << 9; // b2
        let empty = !(own | other);
        assert_eq!(
            plane_stable(own, other, empty),
            own,
            "a1 and b1 on the edge"
        );
        let own_inner = 1u64 << 18; // c3
        assert_eq!(plane_stable(own_inner, other, !(own_inner | other)), 0);
    }
}
