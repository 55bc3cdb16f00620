//! Which discs a move flips.
//!
//! Plane: for each direction, a precomputed ray from the move square; the
//! nearest square on the ray that is not an opponent disc is found with bit
//! tricks, and if it holds a player disc everything before it flips. Walls
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

/// `UP_RAYS[sq]`: the rays of the four directions that increase the index
/// (E, S, SE, SW); `DOWN_RAYS[sq]`: the four that decrease it (W, N, NW, NE).
/// Four lanes side by side so the compiler can process them as one vector.
static UP_RAYS: [[u64; 4]; 64] = split_rays(true);
static DOWN_RAYS: [[u64; 4]; 64] = split_rays(false);

const fn split_rays(up: bool) -> [[u64; 4]; 64] {
    let mut out = [[0u64; 4]; 64];
    let first = if up { 0 } else { 1 };
    let mut sq = 0;
    while sq < 64 {
        let mut lane = 0;
        while lane < 4 {
            out[sq][lane] = RAYS[first + 2 * lane][sq];
            lane += 1;
        }
        sq += 1;
    }
    out
}

/// Discs flipped by `player` playing on `index` on the plane board.
///
/// Written lane-wise and branch-free: on a ray going up, the nearest stop is
/// the lowest set bit; going down, the highest, found by smearing bits
/// downwards (no per-lane leading-zero count is needed, so it vectorises).
#[inline(always)]
pub fn plane_flips(player: u64, opponent: u64, index: u8) -> u64 {
    let up = &UP_RAYS[index as usize];
    let down = &DOWN_RAYS[index as usize];
    let mut flipped = [0u64; 4];
    for lane in 0..4 {
        let ray = up[lane];
        let stops = ray & !opponent;
        let nearest = stops & stops.wrapping_neg();
        let hit = 0u64.wrapping_sub(u64::from(nearest & player != 0));
        flipped[lane] = ray & nearest.wrapping_sub(1) & hit;
    }
    for lane in 0..4 {
        let ray = down[lane];
        let stops = ray & !opponent;
        // Every bit at or below the highest stop.
        let mut below = stops;
        below |= below >> 1;
        below |= below >> 2;
        below |= below >> 4;
        below |= below >> 8;
        below |= below >> 16;
        below |= below >> 32;
        let nearest = below & !(below >> 1);
        let hit = 0u64.wrapping_sub(u64::from(nearest & player != 0));
        flipped[lane] |= ray & !below & hit;
    }
    flipped[0] | flipped[1] | flipped[2] | flipped[3]
}

/// Discs flipped by `player` playing on `index` on the torus.
///
/// A run of at most six opponent discs followed by a player disc: a line is at
/// most seven squares long, so it never wraps back onto the placed disc.
#[inline(always)]
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
