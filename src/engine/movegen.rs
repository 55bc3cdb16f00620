//! Legal-move generation on bitboards, without allocation.
//!
//! The plane version is the usual parallel-prefix (Kogge–Stone) fill over the
//! eight directions: opponent runs adjacent to the player's discs are grown by
//! 1, 2, then 4 squares, and the empty square just past a run is a move.

use super::topology::torus_shift;

/// Opponent squares that a horizontal or diagonal line may cross: not on
/// file a or h, so a left/right shift can never wrap into the next row.
const INNER_FILES: u64 = 0x7E7E_7E7E_7E7E_7E7E;

/// Moves in the direction of a left shift by `shift`, through `mask` squares.
#[inline(always)]
fn fill_left(player: u64, mask: u64, shift: u32) -> u64 {
    let mut flood = mask & (player << shift);
    flood |= mask & (flood << shift);
    let pair = mask & (mask << shift);
    flood |= pair & (flood << (2 * shift));
    flood |= pair & (flood << (2 * shift));
    flood << shift
}

/// Moves in the direction of a right shift by `shift`, through `mask` squares.
#[inline(always)]
fn fill_right(player: u64, mask: u64, shift: u32) -> u64 {
    let mut flood = mask & (player >> shift);
    flood |= mask & (flood >> shift);
    let pair = mask & (mask >> shift);
    flood |= pair & (flood >> (2 * shift));
    flood |= pair & (flood >> (2 * shift));
    flood >> shift
}

/// Legal moves on the plane board.
#[inline]
pub fn plane_moves(player: u64, opponent: u64, empty: u64) -> u64 {
    let inner = opponent & INNER_FILES;
    let moves = fill_left(player, inner, 1)
        | fill_right(player, inner, 1)
        | fill_left(player, opponent, 8)
        | fill_right(player, opponent, 8)
        | fill_left(player, inner, 7)
        | fill_right(player, inner, 7)
        | fill_left(player, inner, 9)
        | fill_right(player, inner, 9);
    moves & empty
}

/// Legal moves on the torus: a run of up to six opponent discs, in any
/// direction and across any edge, between a player disc and an empty square.
#[inline]
pub fn torus_moves(player: u64, opponent: u64, empty: u64) -> u64 {
    let mut moves = 0;
    for dir in 0..8 {
        let mut run = torus_shift(player, dir) & opponent;
        for _ in 0..5 {
            run |= torus_shift(run, dir) & opponent;
        }
        moves |= torus_shift(run, dir);
    }
    moves & empty
}
