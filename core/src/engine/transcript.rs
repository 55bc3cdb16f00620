//! Transcript notation: squares concatenated (`f5d6c3d3c4`), passes unwritten.

use super::position::{PlayError, Position};
use super::square::Square;

/// Why transcript text is not a list of squares.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("move {number}: expected a square from a1 to h8, found {found:?}")]
pub struct TranscriptError {
    /// The 1-based move number.
    pub number: usize,
    /// The offending text.
    pub found: String,
}

/// A move that could not be played while replaying a transcript.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("move {number} ({square}): {error}")]
pub struct ReplayError {
    /// The 1-based move number.
    pub number: usize,
    /// The square of the move.
    pub square: Square,
    /// Why it is illegal.
    pub error: PlayError,
    /// The position before the move, untouched.
    pub position: Position,
}

/// Reads squares from transcript text. Case-insensitive; whitespace between
/// moves is allowed.
pub fn parse_transcript(text: &str) -> Result<Vec<Square>, TranscriptError> {
    let chars: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    chars
        .chunks(2)
        .enumerate()
        .map(|(i, pair)| {
            let found: String = pair.iter().collect();
            found.parse::<Square>().map_err(|_| TranscriptError {
                number: i + 1,
                found,
            })
        })
        .collect()
}

/// Writes squares in transcript notation, lowercase.
pub fn format_transcript(moves: &[Square]) -> String {
    moves.iter().map(Square::to_string).collect()
}

/// Plays `moves` from `start`; passes are applied automatically.
pub fn replay(start: &Position, moves: &[Square]) -> Result<Position, ReplayError> {
    moves
        .iter()
        .enumerate()
        .try_fold(*start, |position, (i, &square)| {
            position.play(square).map_err(|error| ReplayError {
                number: i + 1,
                square,
                error,
                position,
            })
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::setup::Rules;

    #[test]
    fn parses_mixed_case_and_spaces() {
        let moves = parse_transcript("F5d6 C3").unwrap();
        assert_eq!(format_transcript(&moves), "f5d6c3");
        assert_eq!(parse_transcript("").unwrap(), vec![]);
    }

    #[test]
    fn parse_errors_name_the_text_and_move_number() {
        let err = parse_transcript("f5d6z9").unwrap_err();
        assert_eq!(
            err,
            TranscriptError {
                number: 3,
                found: "z9".into()
            }
        );
        assert_eq!(
            err.to_string(),
            "move 3: expected a square from a1 to h8, found \"z9\""
        );
        let odd = parse_transcript("f5d").unwrap_err();
        assert_eq!(
            odd,
            TranscriptError {
                number: 2,
                found: "d".into()
            }
        );
    }

    #[test]
    fn replay_names_the_illegal_move() {
        let start = Rules::default().start_position();
        let moves = parse_transcript("f5d6a1").unwrap();
        let err = replay(&start, &moves).unwrap_err();
        assert_eq!(err.number, 3);
        assert_eq!(err.to_string(), "move 3 (a1): a1 flips nothing");
    }
}
