//! Legal-move generation on bitboards, without allocation.
//!
//! The plane version is the usual parallel-prefix (Kogge–Stone) fill over the
//! eight directions: opponent runs adjacent to the player's discs are grown by
//! 1, 2, then 4 squares, and the empty square just past a run is a move.

use super::topology::torus_shift;

/// Opponent squares that a horizontal or diagonal line may cross: not on
/// file a or h, so a left/right shift can never wrap into the next row.
const INNER_FILES: u64 = 0x7E7E_7E7E_7E7E_7E7E;

/// Shift amounts of the four direction pairs: E/W, S/N, SW/NE, SE/NW.
const SHIFTS: [u64; 4] = [1, 8, 7, 9];

/// Legal moves on the plane board.
///
/// Written lane-wise (one lane per direction pair, left shifts then right
/// shifts) so the compiler can run the four lanes as one vector.
#[inline(always)]
pub fn plane_moves(player: u64, opponent: u64, empty: u64) -> u64 {
    let inner = opponent & INNER_FILES;
    let masks = [inner, opponent, inner, inner];
    let mut moves = [0u64; 4];
    for lane in 0..4 {
        let (mask, shift) = (masks[lane], SHIFTS[lane]);
        // Runs of 1, 2, then up to 6 opponent discs next to a player disc.
        let mut flood = mask & (player << shift);
        flood |= mask & (flood << shift);
        let pair = mask & (mask << shift);
        flood |= pair & (flood << (2 * shift));
        flood |= pair & (flood << (2 * shift));
        moves[lane] = flood << shift;

        let mut flood = mask & (player >> shift);
        flood |= mask & (flood >> shift);
        let pair = mask & (mask >> shift);
        flood |= pair & (flood >> (2 * shift));
        flood |= pair & (flood >> (2 * shift));
        moves[lane] |= flood >> shift;
    }
    (moves[0] | moves[1] | moves[2] | moves[3]) & empty
}

/// Legal moves on the torus: a run of up to six opponent discs, in any
/// direction and across any edge, between a player disc and an empty square.
#[inline(always)]
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
