//! Squares and their names (`a1` top-left … `h8` bottom-right).

use std::fmt;
use std::str::FromStr;

/// One of the 64 squares. Index `row * 8 + column`: a1 = 0, h1 = 7, a2 = 8, h8 = 63.
///
/// Columns a–h run left to right, rows 1–8 top to bottom.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// Builds a square from its index, if it is below 64.
    pub const fn new(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// Builds a square from a column (0 = a) and a row (0 = row 1), both below 8.
    pub const fn from_coords(column: u8, row: u8) -> Option<Square> {
        if column < 8 && row < 8 {
            Some(Square(row * 8 + column))
        } else {
            None
        }
    }

    /// The index `row * 8 + column`.
    pub const fn index(self) -> u8 {
        self.0
    }

    /// Column, 0 (a) to 7 (h).
    pub const fn column(self) -> u8 {
        self.0 % 8
    }

    /// Row, 0 (row 1) to 7 (row 8).
    pub const fn row(self) -> u8 {
        self.0 / 8
    }

    /// The square's bit in a bitboard.
    pub const fn bit(self) -> u64 {
        1 << self.0
    }

    /// All squares in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }
}

/// Why a square name was not understood.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("expected a square from a1 to h8, found {found:?}")]
pub struct ParseSquareError {
    /// The text that was given.
    pub found: String,
}

impl FromStr for Square {
    type Err = ParseSquareError;

    /// Parses `a1`…`h8`, case-insensitive.
    fn from_str(text: &str) -> Result<Square, ParseSquareError> {
        let err = || ParseSquareError {
            found: text.to_string(),
        };
        match text.as_bytes() {
            [c, r] => {
                let column = c.to_ascii_lowercase().wrapping_sub(b'a');
                let row = r.wrapping_sub(b'1');
                Square::from_coords(column, row).ok_or_else(err)
            }
            _ => Err(err()),
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.column()) as char, self.row() + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_for_every_square() {
        for sq in Square::all() {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
        }
        assert_eq!("A1".parse::<Square>().map(|s| s.index()), Ok(0));
        assert_eq!("h8".parse::<Square>().map(|s| s.index()), Ok(63));
        assert_eq!("b1".parse::<Square>().map(|s| s.index()), Ok(1));
        assert_eq!("a2".parse::<Square>().map(|s| s.index()), Ok(8));
    }

    #[test]
    fn bad_names_are_rejected() {
        for bad in ["", "a", "a0", "a9", "i1", "1a", "a10", "é1", "aa"] {
            assert!(bad.parse::<Square>().is_err(), "{bad:?} parsed");
        }
    }
}
