//! `.obf` positions files, as the FFO endgame suite is published: one
//! position a line, 64 cells a1…h1, a2…h8 (`X`, `O`, `-`, and `#` for a
//! wall), a space, the side to move `X` or `O`, then optionally `;` and
//! annotations (ignored). Blank lines and lines starting with `%` are
//! skipped. Every line is checked under the given rule options before any
//! is returned, so a bad file is refused at once with the line that is
//! wrong; a line where neither side can move is its final score.

use super::bitboard::Bitboard;
use super::color::Color;
use super::position::Position;
use super::rules::RuleOptions;
use super::setup::{ParseSetupError, Rules, Setup, SetupError};

/// The longest text read (a few thousand lines is already hours of work
/// for the solver).
pub const MAX_OBF_BYTES: usize = 4 << 20;

/// One position of a file.
#[derive(Debug, Clone)]
pub struct ObfPosition {
    /// Its line in the file, from 1.
    pub line: usize,
    /// The side to move as written (a forced pass may have given the move
    /// to the other side in `state`).
    pub side: Color,
    /// The position, or its final score.
    pub state: ObfState,
}

/// A position from a file: playable, or already finished.
#[derive(Debug, Clone)]
pub enum ObfState {
    /// A checked position (any forced pass already applied).
    Game(Position),
    /// Neither side can move: the final score (disc difference, empties to
    /// the winner) for the side to move as written.
    Finished(i32),
}

/// Why a positions file was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ObfError {
    /// The text is longer than [`MAX_OBF_BYTES`].
    #[error("{found} bytes; at most {max} are read")]
    TooLong {
        /// The text's length in bytes.
        found: usize,
        /// The most this decoder accepts.
        max: usize,
    },
    /// A line is not a position.
    #[error("line {line}: {source}")]
    Malformed {
        /// The line, from 1.
        line: usize,
        /// What is wrong with it.
        source: ParseSetupError,
    },
    /// A line is a position these rules refuse.
    #[error("line {line}: {source}")]
    Refused {
        /// The line, from 1.
        line: usize,
        /// Why the rules refuse it.
        source: SetupError,
    },
    /// No line holds a position.
    #[error("no positions in the file")]
    Empty,
}

/// Reads the positions of `text` under `options`, with `walls` added to
/// every position's own.
pub fn parse_obf(
    text: &str,
    options: RuleOptions,
    walls: Bitboard,
) -> Result<Vec<ObfPosition>, ObfError> {
    if text.len() > MAX_OBF_BYTES {
        return Err(ObfError::TooLong {
            found: text.len(),
            max: MAX_OBF_BYTES,
        });
    }
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let content = raw.split(';').next().unwrap_or("").trim();
        if content.is_empty() || content.starts_with('%') {
            continue;
        }
        let mut setup: Setup = content
            .parse()
            .map_err(|source| ObfError::Malformed { line, source })?;
        setup.walls = Bitboard(setup.walls.0 | walls.0);
        let side = setup.to_move;
        let state = match Rules::new(options, setup) {
            Ok(rules) => ObfState::Game(rules.start_position()),
            Err(SetupError::NoLegalMove) => ObfState::Finished(final_score(&setup, side)),
            Err(source) => return Err(ObfError::Refused { line, source }),
        };
        out.push(ObfPosition { line, side, state });
    }
    if out.is_empty() {
        return Err(ObfError::Empty);
    }
    Ok(out)
}

/// The disc difference for `side`, the empty squares going to the winner.
fn final_score(setup: &Setup, side: Color) -> i32 {
    let (black, white) = (setup.black.count() as i32, setup.white.count() as i32);
    let (own, other) = match side {
        Color::Black => (black, white),
        Color::White => (white, black),
    };
    let empties = 64 - own - other - setup.walls.count() as i32;
    let raw = own - other;
    raw + raw.signum() * empties
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const START: &str = "---------------------------OX------XO--------------------------- X";

    #[test]
    fn a_position_and_its_side_are_read_with_the_line_number() {
        let text = format!("% a comment\n\n{START} ; the standard start\n");
        let items = parse_obf(&text, RuleOptions::default(), Bitboard::EMPTY).expect("parsed");
        assert_eq!(items.len(), 1);
        assert_eq!(items[0].line, 3);
        assert_eq!(items[0].side, Color::Black);
        let ObfState::Game(position) = &items[0].state else {
            panic!("the start is playable");
        };
        assert_eq!(position.legal_moves().count(), 4);
    }

    #[test]
    fn a_full_board_is_its_final_score() {
        let full = format!("{}{} O", "X".repeat(40), "O".repeat(24));
        let items = parse_obf(&full, RuleOptions::default(), Bitboard::EMPTY).expect("parsed");
        assert!(matches!(items[0].state, ObfState::Finished(-16)));
    }

    #[test]
    fn bad_files_are_refused_with_what_is_wrong() {
        let options = RuleOptions::default();
        assert_eq!(
            parse_obf("% nothing\n", options, Bitboard::EMPTY).unwrap_err(),
            ObfError::Empty
        );
        let short = format!("{START}\nXO X\n");
        assert!(matches!(
            parse_obf(&short, options, Bitboard::EMPTY),
            Err(ObfError::Malformed { line: 2, .. })
        ));
        let long = "%".repeat(MAX_OBF_BYTES + 1);
        assert!(matches!(
            parse_obf(&long, options, Bitboard::EMPTY),
            Err(ObfError::TooLong { .. })
        ));
        let walled = Bitboard::EMPTY.with("d4".parse().expect("a square"));
        assert!(matches!(
            parse_obf(START, options, walled),
            Err(ObfError::Refused { line: 1, .. })
        ));
    }

    proptest! {
        #[test]
        fn any_text_is_read_or_refused_without_a_panic(text in "\\PC{0,200}") {
            let _ = parse_obf(&text, RuleOptions::default(), Bitboard::EMPTY);
        }

        #[test]
        fn near_positions_are_read_or_refused_with_their_line(
            cells in "[XO#xo.Q-]{60,68}",
            side in "[XOZ ]{0,2}",
            annotation in ";?[ -~]{0,20}",
        ) {
            let text = format!("\n{cells} {side}{annotation}\n");
            match parse_obf(&text, RuleOptions::default(), Bitboard::EMPTY) {
                Ok(items) => prop_assert_eq!(items[0].line, 2),
                Err(e) => prop_assert!(e.to_string().starts_with("line 2: "), "{}", e),
            }
        }
    }
}
