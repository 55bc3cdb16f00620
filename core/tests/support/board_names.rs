//! Squares, grids and bitboards written as a test reads them, shared by the
//! core's tests and the program's (`tests/support/mod.rs` includes this
//! file).

use reversi_core::engine::{Bitboard, Position, Setup, Square};

/// Parses a square name, panicking on a typo in the test itself.
pub fn sq(name: &str) -> Square {
    name.parse().unwrap_or_else(|e| panic!("{e}"))
}

/// A setup from an 8-row grid (`X`, `O`, `-`, `#`; spaces ignored) and the side to move.
pub fn grid(rows: &str, to_move: char) -> Setup {
    let cells: String = rows.chars().filter(|c| !c.is_whitespace()).collect();
    format!("{cells} {to_move}")
        .parse()
        .unwrap_or_else(|e| panic!("test grid: {e}"))
}

/// The first legal move of `position` in square order (it must have one).
pub fn first_legal(position: &Position) -> Square {
    position
        .legal_moves()
        .squares()
        .next()
        .expect("a position with a legal move")
}

/// Names of the squares in a bitboard, in index order.
pub fn names(bb: Bitboard) -> Vec<String> {
    bb.squares().map(|s| s.to_string()).collect()
}
