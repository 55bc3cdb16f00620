//! Counting the discs a move on the last empty square flips, on a full
//! plane board without walls: every square but the empty one holds a disc,
//! so one side's discs determine the other's, and each of the four lines
//! through the square can be read as eight bits and looked up.
//!
//! This is the innermost operation of the exact solver, called at every leaf.

/// `COUNTS[pos][line]`: discs flipped by a disc placed at `pos` (0–7) in a
/// line whose set bits are the mover's discs and whose clear bits (other
/// than `pos`) are the other side's. Bits beyond a short diagonal's end are
/// clear: a run reaching them finds no disc of the mover and flips nothing.
static COUNTS: [[u8; 256]; 8] = build_counts();

const fn build_counts() -> [[u8; 256]; 8] {
    let mut out = [[0u8; 256]; 8];
    let mut pos = 0;
    while pos < 8 {
        let mut line = 0;
        while line < 256 {
            let mut total = 0;
            // Towards higher bits, then towards lower bits.
            let mut run = 0;
            let mut i = pos + 1;
            while i < 8 {
                if line & (1 << i) != 0 {
                    total += run;
                    break;
                }
                run += 1;
                i += 1;
            }
            run = 0;
            let mut i = pos as i32 - 1;
            while i >= 0 {
                if line & (1 << i) != 0 {
                    total += run;
                    break;
                }
                run += 1;
                i -= 1;
            }
            out[pos][line] = total as u8;
            line += 1;
        }
        pos += 1;
    }
    out
}

const FILE_A: u64 = 0x0101_0101_0101_0101;
/// Gathers file A's eight squares into the top byte, row `r` at bit `r`.
const FILE_GATHER: u64 = 0x0102_0408_1020_4080;

/// `DIAGONALS[index]`: the two diagonals through the square, one square
/// per column each.
static DIAGONALS: [[u64; 2]; 64] = build_diagonals();

const fn build_diagonals() -> [[u64; 2]; 64] {
    let mut out = [[0u64; 2]; 64];
    let mut sq = 0;
    while sq < 64 {
        let (col, row) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut c = 0;
        while c < 8 {
            let down = row + (c - col);
            if down >= 0 && down < 8 {
                out[sq][0] |= 1 << (down * 8 + c);
            }
            let up = row - (c - col);
            if up >= 0 && up < 8 {
                out[sq][1] |= 1 << (up * 8 + c);
            }
            c += 1;
        }
        sq += 1;
    }
    out
}

/// Discs flipped when the side owning `mover` plays `index`, the only empty
/// square of a plane board without walls (the other side owns every other
/// square).
#[inline(always)]
pub fn count(mover: u64, index: u8) -> u32 {
    let (col, row) = (u32::from(index % 8), u32::from(index / 8));
    let counts = |pos: u32, line: u64| u32::from(COUNTS[pos as usize][line as usize]);
    let diagonals = &DIAGONALS[usize::from(index)];
    // Each diagonal has one square per column, so the product gathers it
    // in the top byte without carries, column `c` at bit `c`.
    let gather = |mask: u64| (mover & mask).wrapping_mul(FILE_A) >> 56;
    counts(col, (mover >> (8 * row)) & 0xFF)
        + counts(
            row,
            ((mover >> col) & FILE_A).wrapping_mul(FILE_GATHER) >> 56,
        )
        + counts(col, gather(diagonals[0]))
        + counts(col, gather(diagonals[1]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::flip::plane_flips;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn the_count_matches_the_flips_of_a_full_board(mover in any::<u64>(), index in 0u8..64) {
            let bit = 1u64 << index;
            let mover = mover & !bit;
            let other = !mover & !bit;
            prop_assert_eq!(count(mover, index), plane_flips(mover, other, index).count_ones());
        }
    }

    #[test]
    fn a_corner_move_along_a_full_edge_flips_the_run() {
        // The mover owns h1 only; a1 empty; everything else the other side's:
        // playing a1 flips b1–g1 (6 discs), nothing else (no other mover disc).
        let mover = 1u64 << 7;
        assert_eq!(count(mover, 0), 6);
    }
}
