//! Start positions: an unchecked [`Setup`] and the checked [`Rules`] built from it.

use std::fmt;
use std::str::FromStr;

use super::bitboard::Bitboard;
use super::color::Color;
use super::position::Position;
use super::rules::{Discs, Opening, Preset, RuleOptions};
use super::square::Square;

/// A start position as given: discs, walls and side to move. Not necessarily
/// playable; only [`Rules::new`] turns it into something a game can start from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Setup {
    /// Black's discs.
    pub black: Bitboard,
    /// White's discs.
    pub white: Bitboard,
    /// Squares that can never be occupied.
    pub walls: Bitboard,
    /// The side to move first.
    pub to_move: Color,
}

impl Setup {
    /// The standard start for an opening: the crossed centre for
    /// [`Opening::Preset`], an empty board otherwise; Black to move.
    pub fn for_opening(opening: Opening) -> Setup {
        let (black, white) = match opening {
            // Black on d5 and e4, white on d4 and e5.
            Opening::Preset => (
                Bitboard((1 << 35) | (1 << 28)),
                Bitboard((1 << 27) | (1 << 36)),
            ),
            Opening::Free | Opening::Double => (Bitboard::EMPTY, Bitboard::EMPTY),
        };
        Setup {
            black,
            white,
            walls: Bitboard::EMPTY,
            to_move: Color::Black,
        }
    }

    /// The 64 cells a1…h1, a2…h8 (`X` black, `O` white, `-` empty, `#` wall).
    /// Where a square is marked twice (unchecked input), `#` wins, then `X`.
    pub fn board_text(&self) -> String {
        Square::all()
            .map(|sq| {
                if self.walls.contains(sq) {
                    '#'
                } else if self.black.contains(sq) {
                    'X'
                } else if self.white.contains(sq) {
                    'O'
                } else {
                    '-'
                }
            })
            .collect()
    }
}

impl fmt::Display for Setup {
    /// `<64 cells> X|O`, the form `--setup` and `.obf` files use.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.board_text(), self.to_move.symbol())
    }
}

/// Why setup text was not understood.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseSetupError {
    /// The board part is not 64 cells long.
    #[error("expected 64 cells (a1…h1, a2…h8), found {found}")]
    WrongLength {
        /// The number of cells found.
        found: usize,
    },
    /// A cell is not one of `X`, `O`, `-`, `#`.
    #[error("cell {square}: expected X, O, - or #, found {found:?}")]
    BadCell {
        /// The square of the cell.
        square: Square,
        /// The character found.
        found: char,
    },
    /// The side to move is missing or not `X`/`O`.
    #[error("expected the side to move (X or O) after the 64 cells, found {found:?}")]
    BadSideToMove {
        /// The text found where the side to move belongs.
        found: String,
    },
}

impl FromStr for Setup {
    type Err = ParseSetupError;

    /// Parses `<64 cells> X|O`. Cells: `X`/`x` black, `O`/`o` white,
    /// `-`/`.` empty, `#` wall.
    fn from_str(text: &str) -> Result<Setup, ParseSetupError> {
        let mut parts = text.split_whitespace();
        let cells = parts.next().unwrap_or("");
        let count = cells.chars().count();
        if count != 64 {
            return Err(ParseSetupError::WrongLength { found: count });
        }
        let mut setup = Setup {
            black: Bitboard::EMPTY,
            white: Bitboard::EMPTY,
            walls: Bitboard::EMPTY,
            to_move: Color::Black,
        };
        for (sq, cell) in Square::all().zip(cells.chars()) {
            match cell {
                'X' | 'x' => setup.black = setup.black.with(sq),
                'O' | 'o' => setup.white = setup.white.with(sq),
                '#' => setup.walls = setup.walls.with(sq),
                '-' | '.' => {}
                found => return Err(ParseSetupError::BadCell { square: sq, found }),
            }
        }
        let side: Vec<&str> = parts.collect();
        setup.to_move = match side.as_slice() {
            [one] if one.len() == 1 => Color::from_symbol(one),
            _ => None,
        }
        .ok_or_else(|| ParseSetupError::BadSideToMove {
            found: side.join(" "),
        })?;
        Ok(setup)
    }
}

/// Why a setup cannot start a game under the given options.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// A square holds both a black and a white disc.
    #[error("square {square} holds both a black and a white disc")]
    BothColours {
        /// The square the record names.
        square: Square,
    },
    /// A square holds a wall and a disc.
    #[error("square {square} holds a wall and a disc")]
    WallAndDisc {
        /// The square the record names.
        square: Square,
    },
    /// A free or double opening needs the four centre squares empty.
    #[error("the {opening} opening needs the centre squares empty, but {square} is occupied")]
    CentreOccupied {
        /// The opening option (free or double).
        opening: Opening,
        /// The first occupied centre square.
        square: Square,
    },
    /// A free or double opening needs at least two discs per player.
    #[error("the {opening} opening needs at least 2 discs per player, found {found}")]
    SupplyTooSmall {
        /// The opening option (free or double).
        opening: Opening,
        /// The disc supply per player in the options.
        found: u8,
    },
    /// A disc supply outside 1..=64.
    #[error("disc supply must be from 1 to 64 per player, found {found}")]
    SupplyOutOfRange {
        /// The disc supply per player in the options: 0, or over 64.
        found: u8,
    },
    /// Neither side has a legal move in the start position.
    #[error("neither side has a legal move in the start position")]
    NoLegalMove,
}

/// A checked rule set: the options and a start position that a game can
/// start from. The only way to build one is [`Rules::new`] (or a preset).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rules {
    options: RuleOptions,
    start: Setup,
    start_position: Position,
}

impl Rules {
    /// Validates `start` under `options`, reporting the first problem found.
    pub fn new(options: RuleOptions, start: Setup) -> Result<Rules, SetupError> {
        if let Some(sq) = (start.black.0 & start.white.0).first_square() {
            return Err(SetupError::BothColours { square: sq });
        }
        if let Some(sq) = ((start.black.0 | start.white.0) & start.walls.0).first_square() {
            return Err(SetupError::WallAndDisc { square: sq });
        }
        if let Discs::PerPlayer(n) = options.discs {
            if !(1..=64).contains(&n) {
                return Err(SetupError::SupplyOutOfRange { found: n });
            }
            if options.opening != Opening::Preset && n < 2 {
                return Err(SetupError::SupplyTooSmall {
                    opening: options.opening,
                    found: n,
                });
            }
        }
        if options.opening != Opening::Preset {
            let taken = Bitboard::CENTRE.0 & (start.black.0 | start.white.0 | start.walls.0);
            if let Some(sq) = taken.first_square() {
                return Err(SetupError::CentreOccupied {
                    opening: options.opening,
                    square: sq,
                });
            }
        }
        let start_position =
            Position::from_checked_setup(options, &start).ok_or(SetupError::NoLegalMove)?;
        Ok(Rules {
            options,
            start,
            start_position,
        })
    }

    /// A preset with its standard start position.
    pub fn preset(preset: Preset) -> Rules {
        Rules::from_options(preset.options()).expect("every option set has a valid standard start")
    }

    /// The options with the standard start for their opening.
    pub fn from_options(options: RuleOptions) -> Result<Rules, SetupError> {
        Rules::new(options, Setup::for_opening(options.opening))
    }

    /// The rule options: opening, disc supply, scoring, draw rule and topology.
    pub fn options(&self) -> RuleOptions {
        self.options
    }

    /// The start position as given (before any forced pass).
    pub fn start(&self) -> &Setup {
        &self.start
    }

    /// Whether the start is the standard one for the opening.
    pub fn is_standard_start(&self) -> bool {
        self.start == Setup::for_opening(self.options.opening)
    }

    /// The position the game starts from.
    pub fn start_position(&self) -> Position {
        self.start_position
    }
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::preset(Preset::Othello)
    }
}

/// The lowest square of a bit set, if any.
trait FirstSquare {
    fn first_square(self) -> Option<Square>;
}

impl FirstSquare for u64 {
    fn first_square(self) -> Option<Square> {
        Bitboard(self).squares().next()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rules::Discs;

    const STANDARD: &str = "---------------------------OX------XO--------------------------- X";

    #[test]
    fn standard_setup_text_round_trips() {
        let setup: Setup = STANDARD.parse().unwrap();
        assert_eq!(setup, Setup::for_opening(Opening::Preset));
        assert_eq!(setup.to_string(), STANDARD);
    }

    #[test]
    fn parse_errors_are_precise() {
        assert_eq!(
            "XO X".parse::<Setup>(),
            Err(ParseSetupError::WrongLength { found: 2 })
        );
        let bad_cell = STANDARD.replacen('-', "?", 1);
        assert_eq!(
            bad_cell.parse::<Setup>(),
            Err(ParseSetupError::BadCell {
                square: "a1".parse().unwrap(),
                found: '?'
            })
        );
        let no_side = &STANDARD[..64];
        assert!(matches!(
            no_side.parse::<Setup>(),
            Err(ParseSetupError::BadSideToMove { .. })
        ));
        let two_sides = format!("{} X O", &STANDARD[..64]);
        assert!(matches!(
            two_sides.parse::<Setup>(),
            Err(ParseSetupError::BadSideToMove { .. })
        ));
    }

    #[test]
    fn invalid_setups_are_refused_with_the_reason() {
        let mut setup = Setup::for_opening(Opening::Preset);
        setup.walls = setup.walls.with("d4".parse().unwrap());
        assert_eq!(
            Rules::new(RuleOptions::default(), setup),
            Err(SetupError::WallAndDisc {
                square: "d4".parse().unwrap()
            })
        );

        let mut both = Setup::for_opening(Opening::Preset);
        both.black = both.black.with("d4".parse().unwrap());
        assert!(matches!(
            Rules::new(RuleOptions::default(), both),
            Err(SetupError::BothColours { .. })
        ));

        let free = RuleOptions {
            opening: Opening::Free,
            ..RuleOptions::default()
        };
        assert_eq!(
            Rules::new(free, Setup::for_opening(Opening::Preset)),
            Err(SetupError::CentreOccupied {
                opening: Opening::Free,
                square: "d4".parse().unwrap()
            })
        );

        let tiny = RuleOptions {
            discs: Discs::PerPlayer(1),
            ..free
        };
        assert!(matches!(
            Rules::from_options(tiny),
            Err(SetupError::SupplyTooSmall { .. })
        ));

        let empty_board: Setup = format!("{} X", "-".repeat(64)).parse().unwrap();
        assert_eq!(
            Rules::new(RuleOptions::default(), empty_board),
            Err(SetupError::NoLegalMove)
        );
    }
}
