//! A set of squares as one `u64`, bit `row * 8 + column`.

use std::fmt;

use super::square::Square;

/// A set of squares. Bit `i` is the square with index `i` (a1 = bit 0, h8 = bit 63).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No squares.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// The four centre squares d4, e4, d5, e5.
    pub const CENTRE: Bitboard = Bitboard((1 << 27) | (1 << 28) | (1 << 35) | (1 << 36));

    /// Whether the set holds `sq`.
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & sq.bit() != 0
    }

    /// The set with `sq` added.
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | sq.bit())
    }

    /// The number of squares in the set.
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The squares in index order (a1, b1, … h8).
    pub fn squares(self) -> impl Iterator<Item = Square> {
        Squares(self.0)
    }
}

/// Iterator over the squares of a bitboard, lowest index first.
struct Squares(u64);

impl Iterator for Squares {
    type Item = Square;
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Square::new(index)
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        iter.into_iter().fold(Bitboard::EMPTY, Bitboard::with)
    }
}

impl fmt::Debug for Bitboard {
    /// `{:?}` prints the hex value; `{:#?}` prints an 8×8 grid of `X` and `.`, row 1 first.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !f.alternate() {
            return write!(f, "Bitboard({:#018x})", self.0);
        }
        for row in 0..8 {
            let line: String = (0..8)
                .map(|col| {
                    if self.0 >> (row * 8 + col) & 1 == 1 {
                        'X'
                    } else {
                        '.'
                    }
                })
                .collect();
            writeln!(f, "{line}")?;
        }
        Ok(())
    }
}

/// Builds a [`Bitboard`] from an 8×8 grid of `X` (in the set) and `.` (not),
/// row 1 first, column a leftmost. Checks the grid's size at compile time.
///
/// ```
/// use reversi_core::{bitboard, engine::Bitboard};
/// let corners = bitboard! {
///     X . . . . . . X
///     . . . . . . . .
///     . . . . . . . .
///     . . . . . . . .
///     . . . . . . . .
///     . . . . . . . .
///     . . . . . . . .
///     X . . . . . . X
/// };
/// assert_eq!(corners.count(), 4);
/// ```
#[macro_export]
macro_rules! bitboard {
    ($($cell:tt)*) => {{
        const CELLS: &[u8] = stringify!($($cell)*).as_bytes();
        const BITS: u64 = $crate::engine::grid_to_bits(CELLS);
        $crate::engine::Bitboard(BITS)
    }};
}

/// Compile-time helper of [`bitboard!`]: reads `X` and `.` cells, skipping spaces.
#[doc(hidden)]
pub const fn grid_to_bits(cells: &[u8]) -> u64 {
    let mut bits = 0u64;
    let mut index = 0;
    let mut i = 0;
    while i < cells.len() {
        match cells[i] {
            b'X' => {
                assert!(index < 64, "bitboard! grid has more than 64 cells");
                bits |= 1 << index;
                index += 1;
            }
            b'.' => {
                assert!(index < 64, "bitboard! grid has more than 64 cells");
                index += 1;
            }
            b' ' | b'\n' | b'\t' | b'\r' => {}
            _ => panic!("bitboard! cells must be X or ."),
        }
        i += 1;
    }
    assert!(index == 64, "bitboard! grid must have exactly 64 cells");
    bits
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_literal_matches_square_bits() {
        let bb = bitboard! {
            X . . . . . . .
            . . . . . . . .
            . . . . . . . .
            . . . X . . . .
            . . . . . . . .
            . . . . . . . .
            . . . . . . . .
            . . . . . . . X
        };
        let expected: Bitboard = ["a1", "d4", "h8"]
            .iter()
            .map(|s| s.parse::<Square>().unwrap())
            .collect();
        assert_eq!(bb, expected);
        assert_eq!(format!("{bb:#?}").lines().nth(3), Some("...X...."));
    }

    #[test]
    fn squares_iterates_in_index_order() {
        let bb = Bitboard(0b1010_0001);
        let got: Vec<u8> = bb.squares().map(Square::index).collect();
        assert_eq!(got, vec![0, 5, 7]);
    }
}
