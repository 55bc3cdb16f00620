//! Which discs a move flips.
//!
//! Plane: for each direction, a precomputed ray from the move square; the
//! nearest square on the ray that is not an opponent disc is found with one
//! bit scan, and if it holds a player disc everything before it flips. Walls
//! and empty squares stop a line because they are not opponent discs.

use super::topology::{DIRECTIONS, torus_shift};

/// `RAYS[dir][sq]`: the squares from `sq` (exclusive) to the board edge in
/// direction `dir` of [`DIRECTIONS`] on the plane.
static RAYS: [[u64; 64]; 8] = build_rays();

const fn build_rays() -> [[u64; 64]; 8] {
    let mut rays = [[0u64; 64]; 8];
    let mut dir = 0;
    while dir < 8 {
        let (dc, dr) = DIRECTIONS[dir];
        let mut sq = 0;
        while sq < 64 {
            let mut col = (sq % 8) as i8 + dc;
            let mut row = (sq / 8) as i8 + dr;
            let mut ray = 0u64;
            while col >= 0 && col < 8 && row >= 0 && row < 8 {
                ray |= 1 << (row * 8 + col);
                col += dc;
                row += dr;
            }
            rays[dir][sq] = ray;
            sq += 1;
        }
        dir += 1;
    }
    rays
}

/// Flips along a ray whose squares have higher indices than the move.
#[inline(always)]
fn flips_up(player: u64, opponent: u64, ray: u64) -> u64 {
    let stops = ray & !opponent;
    let nearest = stops & stops.wrapping_neg();
    if nearest & player != 0 {
        ray & (nearest - 1)
    } else {
        0
    }
}

/// Flips along a ray whose squares have lower indices than the move.
#[inline(always)]
fn flips_down(player: u64, opponent: u64, ray: u64) -> u64 {
    let stops = ray & !opponent;
    if stops == 0 {
        return 0;
    }
    let nearest = 1u64 << (63 - stops.leading_zeros());
    if nearest & player != 0 {
        ray & !(nearest | (nearest - 1))
    } else {
        0
    }
}

/// Discs flipped by `player` playing on `index` on the plane board.
#[inline]
pub fn plane_flips(player: u64, opponent: u64, index: u8) -> u64 {
    let sq = index as usize;
    // Directions 0, 2, 4, 6 (E, S, SE, SW) increase the index; 1, 3, 5, 7 decrease it.
    flips_up(player, opponent, RAYS[0][sq])
        | flips_down(player, opponent, RAYS[1][sq])
        | flips_up(player, opponent, RAYS[2][sq])
        | flips_down(player, opponent, RAYS[3][sq])
        | flips_up(player, opponent, RAYS[4][sq])
        | flips_down(player, opponent, RAYS[5][sq])
        | flips_up(player, opponent, RAYS[6][sq])
        | flips_down(player, opponent, RAYS[7][sq])
}

/// Discs flipped by `player` playing on `index` on the torus.
///
/// A run of at most six opponent discs followed by a player disc: a line is at
/// most seven squares long, so it never wraps back onto the placed disc.
#[inline]
pub fn torus_flips(player: u64, opponent: u64, index: u8) -> u64 {
    let start = 1u64 << index;
    let mut flipped = 0;
    for dir in 0..8 {
        let mut run = torus_shift(start, dir) & opponent;
        for _ in 0..5 {
            run |= torus_shift(run, dir) & opponent;
        }
        if torus_shift(run, dir) & player != 0 {
            flipped |= run;
        }
    }
    flipped
}
