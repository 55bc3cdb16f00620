//! The board's eight symmetries on bitboards (bit 0 is a1, bit 63 h8): the
//! pattern evaluation reads the board in each orientation, and the opening
//! book and the training tools key a position by its smallest one.

/// The board mirrored left to right.
#[inline(always)]
pub(crate) fn mirror(x: u64) -> u64 {
    x.swap_bytes().reverse_bits()
}

/// The board reflected in the a1–h8 diagonal: (row, column) → (column, row).
#[inline(always)]
pub(crate) fn transpose(mut x: u64) -> u64 {
    let t = 0x0F0F_0F0F_0000_0000 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    let t = 0x3333_0000_3333_0000 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    let t = 0x5500_5500_5500_5500 & (x ^ (x << 7));
    x ^= t ^ (t >> 7);
    x
}

/// The smallest of the eight orientations of (side to move, other side):
/// one key for a position and all its rotations and reflections.
pub fn canonical(player: u64, opponent: u64) -> (u64, u64) {
    let mut best = (player, opponent);
    let mut pair = best;
    // Alternating a mirror and a transpose walks through all eight.
    for turn in 0..7 {
        pair = if turn % 2 == 0 {
            (mirror(pair.0), mirror(pair.1))
        } else {
            (transpose(pair.0), transpose(pair.1))
        };
        best = best.min(pair);
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square_bit(r: u32, c: u32) -> u64 {
        1 << (8 * r + c)
    }

    #[test]
    fn transpose_and_mirror_move_squares_as_named() {
        for r in 0..8 {
            for c in 0..8 {
                assert_eq!(transpose(square_bit(r, c)), square_bit(c, r));
                assert_eq!(mirror(square_bit(r, c)), square_bit(r, 7 - c));
            }
        }
    }

    #[test]
    fn canonical_is_the_smallest_of_eight_distinct_orientations() {
        // A position with no symmetry of its own: a1 and b1 against c3.
        let (p, o) = (square_bit(0, 0) | square_bit(0, 1), square_bit(2, 2));
        let mut seen = std::collections::BTreeSet::new();
        let mut pair = (p, o);
        for turn in 0..8 {
            seen.insert(pair);
            assert_eq!(canonical(pair.0, pair.1), canonical(p, o));
            pair = if turn % 2 == 0 {
                (mirror(pair.0), mirror(pair.1))
            } else {
                (transpose(pair.0), transpose(pair.1))
            };
        }
        assert_eq!(seen.len(), 8);
        assert_eq!(canonical(p, o), *seen.first().unwrap());
    }
}
