//! The board's eight symmetries on (side to move, other side) bitboards:
//! one canonical form for a position and its rotations and reflections,
//! to deduplicate training positions and keep the test set out of them.

/// The board mirrored left to right.
fn mirror(x: u64) -> u64 {
    x.swap_bytes().reverse_bits()
}

/// The board reflected in the a1–h8 diagonal.
fn transpose(x: u64) -> u64 {
    let mut out = 0;
    for i in 0..64 {
        if x >> i & 1 == 1 {
            out |= 1 << ((i % 8) * 8 + i / 8);
        }
    }
    out
}

/// The smallest of the eight orientations of (player, opponent).
pub fn canonical(player: u64, opponent: u64) -> (u64, u64) {
    let mut best = (player, opponent);
    let mut pair = (player, opponent);
    for turn in 0..8 {
        pair = if turn % 2 == 0 {
            (mirror(pair.0), mirror(pair.1))
        } else {
            (transpose(pair.0), transpose(pair.1))
        };
        best = best.min(pair);
    }
    best
}
