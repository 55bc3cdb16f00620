//! Reading a game in the Generic Game Format (GGF), the format of GGS and
//! the NBoard GUI: `(;GM[Othello]…BO[8 <64 cells> *]B[f5]W[f6/-1.2/3];)`.
//!
//! Only what a game needs is read: the start board (`BO`, 8×8, `*` black,
//! `O` white, `-` empty) and the moves (`B[..]`, `W[..]`, `PA` for a pass,
//! an optional `/eval/time` after the square). Other tags are skipped.

use super::color::Color;
use super::position::{PlayError, Position};
use super::rules::RuleOptions;
use super::setup::{ParseSetupError, Rules, Setup, SetupError};
use super::square::Square;

/// The longest GGF text accepted.
pub const MAX_GGF_LEN: usize = 64 * 1024;
/// The most move tags accepted (a game has at most 60 moves and as many
/// passes).
pub const MAX_GGF_MOVES: usize = 130;

/// A game read from GGF: its start and the moves played (passes left out,
/// as everywhere else in the engine).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GgfGame {
    /// The start position under the standard rules.
    pub rules: Rules,
    /// The moves, passes left out.
    pub moves: Vec<Square>,
    /// The position after the moves.
    pub position: Position,
    /// The side the record expects to play next: the side after the last
    /// move tag (or the board's side to move). It differs from the
    /// position's side to move when it must pass.
    pub next: Color,
}

/// Why a GGF text is not a game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GgfError {
    /// Longer than [`MAX_GGF_LEN`].
    #[error("GGF text of {found} bytes, more than the {limit} accepted")]
    TooLong {
        /// The longest text accepted, in bytes ([`MAX_GGF_LEN`]).
        limit: usize,
        /// The text's length in bytes.
        found: usize,
    },
    /// No `(;` … `;)` around the tags.
    #[error("expected a game in `(;` … `;)`, found {found:?}")]
    NotAGame {
        /// The start of the text.
        found: String,
    },
    /// A tag name without its `[value]`.
    #[error("tag {tag:?}: expected `[value]`")]
    Unterminated {
        /// The tag's name.
        tag: String,
    },
    /// No `BO` tag.
    #[error("no board (BO tag)")]
    MissingBoard,
    /// The board is not 8×8.
    #[error("board: expected size 8, found {found:?}")]
    BoardSize {
        /// The `BO` tag's size word (its first 10 characters).
        found: String,
    },
    /// The board's cells or side to move are not understood.
    #[error("board: {0}")]
    Board(#[from] ParseSetupError),
    /// The board cannot start a game.
    #[error("board: {0}")]
    Start(#[from] SetupError),
    /// More move tags than [`MAX_GGF_MOVES`].
    #[error("more than {limit} moves")]
    TooManyMoves {
        /// The most move tags accepted ([`MAX_GGF_MOVES`]).
        limit: usize,
    },
    /// A move tag whose value is not a square or `PA`.
    #[error("move {number}: expected a square or PA, found {found:?}")]
    BadMove {
        /// The 1-based number of the move tag.
        number: usize,
        /// The move tag's value as written.
        found: String,
    },
    /// A move by the side not to move (or a pass by a side that can move).
    #[error("move {number}: {found} played, but {expected} is to move")]
    WrongSide {
        /// The 1-based number of the move tag.
        number: usize,
        /// The side to move.
        expected: Color,
        /// The side that played.
        found: Color,
    },
    /// An illegal move.
    #[error("move {number} ({square}): {error}")]
    Illegal {
        /// The 1-based number of the move tag.
        number: usize,
        /// The square the record names.
        square: Square,
        /// Why it is illegal.
        error: PlayError,
    },
}

/// Reads a GGF game (see the module documentation).
pub fn parse_ggf(text: &str) -> Result<GgfGame, GgfError> {
    if text.len() > MAX_GGF_LEN {
        return Err(GgfError::TooLong {
            limit: MAX_GGF_LEN,
            found: text.len(),
        });
    }
    let trimmed = text.trim();
    let body = trimmed
        .strip_prefix("(;")
        .and_then(|t| t.strip_suffix(";)"))
        .ok_or_else(|| GgfError::NotAGame {
            found: trimmed.chars().take(20).collect(),
        })?;
    let tags = tags(body)?;
    let board = tags
        .iter()
        .find(|(name, _)| name == "BO")
        .map(|(_, v)| v.as_str())
        .ok_or(GgfError::MissingBoard)?;
    let rules = board_rules(board)?;
    let mut position = rules.start_position();
    let mut next = rules.start().to_move;
    let mut moves = Vec::new();
    let move_tags = tags.iter().filter(|(n, _)| n == "B" || n == "W");
    for (i, (name, value)) in move_tags.enumerate() {
        let number = i + 1;
        if number > MAX_GGF_MOVES {
            return Err(GgfError::TooManyMoves {
                limit: MAX_GGF_MOVES,
            });
        }
        let side = if name == "B" {
            Color::Black
        } else {
            Color::White
        };
        let word = value.split('/').next().unwrap_or("").trim();
        let to_move = position.to_move();
        next = !side;
        if word.eq_ignore_ascii_case("PA") || word.eq_ignore_ascii_case("pass") {
            // The engine passes by itself: the pass is right when the other
            // side is (still) to move.
            if to_move == Some(side) {
                return Err(GgfError::WrongSide {
                    number,
                    expected: !side,
                    found: side,
                });
            }
            continue;
        }
        let square: Square = word.parse().map_err(|_| GgfError::BadMove {
            number,
            found: word.chars().take(20).collect(),
        })?;
        if let Some(expected) = to_move.filter(|&c| c != side) {
            return Err(GgfError::WrongSide {
                number,
                expected,
                found: side,
            });
        }
        position = position.play(square).map_err(|error| GgfError::Illegal {
            number,
            square,
            error,
        })?;
        moves.push(square);
    }
    Ok(GgfGame {
        rules,
        moves,
        position,
        next,
    })
}

/// The tags of a game body, in order, `\` escapes resolved.
fn tags(body: &str) -> Result<Vec<(String, String)>, GgfError> {
    let mut out = Vec::new();
    let mut chars = body.chars().peekable();
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        let mut name = String::new();
        while let Some(&c) = chars.peek() {
            if c == '[' {
                break;
            }
            name.push(c);
            chars.next();
        }
        let name = name.trim().to_string();
        if chars.next().is_none() {
            if name.is_empty() {
                return Ok(out);
            }
            return Err(GgfError::Unterminated { tag: name });
        }
        let mut value = String::new();
        let mut closed = false;
        while let Some(c) = chars.next() {
            match c {
                '\\' => value.extend(chars.next()),
                ']' => {
                    closed = true;
                    break;
                }
                c => value.push(c),
            }
        }
        if !closed {
            return Err(GgfError::Unterminated { tag: name });
        }
        out.push((name, value));
    }
}

/// The rules of a `BO` value: `8 <cells, rows optionally apart> *|O`.
fn board_rules(board: &str) -> Result<Rules, GgfError> {
    let mut words = board.split_whitespace();
    let size = words.next().unwrap_or("");
    if size != "8" {
        return Err(GgfError::BoardSize {
            found: size.chars().take(10).collect(),
        });
    }
    let mut rest: Vec<&str> = words.collect();
    let side = rest.pop().unwrap_or("");
    let cells: String = rest.concat().replace('*', "X");
    let side = match side {
        "*" => "X",
        other => other,
    };
    let setup: Setup = format!("{cells} {side}").parse()?;
    Ok(Rules::new(RuleOptions::default(), setup)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "BO[8 ---------------------------O*------*O--------------------------- *]";

    #[test]
    fn a_game_from_nboard_is_read_with_its_evals_and_passes() {
        let text = format!(
            "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]RE[?]TI[15:00]TY[8]{START}B[F5]W[F6/-1.00/0.5]B[D3]W[C5];)"
        );
        let game = parse_ggf(&text).expect("a valid game");
        assert_eq!(crate::engine::format_transcript(&game.moves), "f5f6d3c5");
        assert_eq!(game.position.to_move(), Some(Color::Black));
        assert_eq!(game.next, Color::Black);
        assert!(game.rules.is_standard_start());
    }

    #[test]
    fn the_board_may_have_rows_apart_and_white_to_move() {
        let rows = "-------- -------- -------- ---O*--- ---*O--- -------- -------- --------";
        let game = parse_ggf(&format!("(;BO[8 {rows} O];)")).unwrap();
        assert_eq!(game.position.to_move(), Some(Color::White));
    }

    #[test]
    fn wrong_input_is_named() {
        assert!(matches!(
            parse_ggf("GM[Othello]"),
            Err(GgfError::NotAGame { .. })
        ));
        assert_eq!(parse_ggf("(;GM[Othello];)"), Err(GgfError::MissingBoard));
        assert!(matches!(
            parse_ggf(&format!("(;{START}W[F5];)")),
            Err(GgfError::WrongSide {
                number: 1,
                expected: Color::Black,
                found: Color::White
            })
        ));
        assert!(matches!(
            parse_ggf(&format!("(;{START}B[A1];)")),
            Err(GgfError::Illegal { number: 1, .. })
        ));
        assert!(matches!(
            parse_ggf(&format!("(;{START}B[Z9];)")),
            Err(GgfError::BadMove { number: 1, .. })
        ));
        assert!(matches!(
            parse_ggf(&format!("(;{START}B[PA];)")),
            Err(GgfError::WrongSide { number: 1, .. })
        ));
        assert!(matches!(
            parse_ggf("(;BO[10 x *];)"),
            Err(GgfError::BoardSize { .. })
        ));
        assert!(matches!(
            parse_ggf("(;BO[8 ---"),
            Err(GgfError::NotAGame { .. })
        ));
        assert!(matches!(
            parse_ggf("(;BO[8 -- *;)"),
            Err(GgfError::Unterminated { .. })
        ));
        let long = "x".repeat(MAX_GGF_LEN + 1);
        assert!(matches!(parse_ggf(&long), Err(GgfError::TooLong { .. })));
    }

    proptest::proptest! {
        #[test]
        fn any_text_is_read_or_refused_without_panicking(text in ".{0,300}") {
            let _ = parse_ggf(&text);
            let _ = parse_ggf(&format!("(;{START}{text};)"));
        }
    }
}
