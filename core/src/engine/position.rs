//! The checked game position: legal moves, playing a move, passes, the end.

use super::bitboard::Bitboard;
use super::color::{ByColor, Color};
use super::outcome::{Ending, Outcome};
use super::rules::{Discs, DrawRule, Opening, RuleOptions, Scoring};
use super::setup::Setup;
use super::square::Square;

/// Opening placements in every game: the four centre squares.
pub(crate) const OPENING_PLACEMENTS: u8 = 4;

/// Supply value stored when discs are unlimited.
pub(crate) const UNLIMITED_SUPPLY: u8 = u8::MAX;

/// A position that a game can reach under its rules. Built only from checked
/// [`Rules`](super::setup::Rules) and by playing legal moves.
///
/// Forced passes are applied as soon as they arise: the side to move always
/// has a legal move, or the game is over (`to_move()` is `None`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) black: u64,
    pub(crate) white: u64,
    pub(crate) walls: u64,
    pub(crate) to_move: Option<Color>,
    /// Discs left in hand, or [`UNLIMITED_SUPPLY`].
    pub(crate) supply: ByColor<u8>,
    /// Centre placements made so far, up to [`OPENING_PLACEMENTS`]. Always
    /// complete under the preset opening.
    pub(crate) placements: u8,
    pub(crate) options: RuleOptions,
}

/// Why a move cannot be played in a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The game is over; no side moves.
    #[error("the game is over")]
    GameOver,
    /// The square holds a disc.
    #[error("{square} is occupied")]
    Occupied {
        /// The square the record names.
        square: Square,
    },
    /// The square is a wall.
    #[error("{square} is a wall")]
    Wall {
        /// The square the record names.
        square: Square,
    },
    /// During the free or double opening, only the centre squares may be played.
    #[error("{square} is not a centre square; the first four discs go on d4, e4, d5, e5")]
    OutsideCentre {
        /// The square the record names.
        square: Square,
    },
    /// The move flanks no line of opponent discs.
    #[error("{square} flips nothing")]
    FlipsNothing {
        /// The square the record names.
        square: Square,
    },
}

/// Everything that happened when a move was played, for the UI and logs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveReport {
    /// The position after the move (and any forced pass).
    pub position: Position,
    /// The colour that placed the disc.
    pub mover: Color,
    /// Discs that changed colour.
    pub flipped: Bitboard,
    /// Discs placed automatically by the rules (the second player's two under
    /// the double opening).
    pub auto_placed: Bitboard,
    /// A player skipped because they had no legal move (or no discs left).
    pub skipped: Option<Color>,
}

impl Position {
    /// Builds the start position of checked rules, applying a forced pass if
    /// the side to move cannot move; `None` if neither side can.
    pub(crate) fn from_checked_setup(options: RuleOptions, setup: &Setup) -> Option<Position> {
        let supply = match options.discs {
            Discs::Unlimited => UNLIMITED_SUPPLY,
            Discs::PerPlayer(n) => n,
        };
        let mut position = Position {
            black: setup.black.0,
            white: setup.white.0,
            walls: setup.walls.0,
            to_move: None,
            supply: ByColor {
                black: supply,
                white: supply,
            },
            placements: if options.opening == Opening::Preset {
                OPENING_PLACEMENTS
            } else {
                0
            },
            options,
        };
        position.settle(!setup.to_move);
        position.to_move.map(|_| position)
    }

    /// The rule options this position is played under.
    pub fn options(&self) -> RuleOptions {
        self.options
    }

    /// The discs of one colour.
    pub fn discs(&self, color: Color) -> Bitboard {
        Bitboard(self.bits(color))
    }

    /// The squares holding walls, which no disc is ever played on.
    pub fn walls(&self) -> Bitboard {
        Bitboard(self.walls)
    }

    /// Empty squares that are not walls.
    pub fn empty(&self) -> Bitboard {
        Bitboard(self.empty_bits())
    }

    /// The side to move, or `None` when the game is over.
    pub fn to_move(&self) -> Option<Color> {
        self.to_move
    }

    /// Whether neither side can move.
    pub fn is_over(&self) -> bool {
        self.to_move.is_none()
    }

    /// Discs left in a player's hand, or `None` when discs are unlimited.
    pub fn supply(&self, color: Color) -> Option<u8> {
        match self.options.discs {
            Discs::Unlimited => None,
            Discs::PerPlayer(_) => Some(self.supply[color]),
        }
    }

    /// Centre placements still to come under the free or double opening.
    pub fn opening_placements_left(&self) -> u8 {
        OPENING_PLACEMENTS - self.placements
    }

    /// Disc counts per colour.
    pub fn counts(&self) -> ByColor<u8> {
        ByColor::new_with(|c| self.bits(c).count_ones() as u8)
    }

    /// The legal moves of the side to move (empty when the game is over).
    pub fn legal_moves(&self) -> Bitboard {
        Bitboard(self.to_move.map_or(0, |c| self.moves_for(c)))
    }

    /// Whether `square` is a legal move for the side to move.
    pub fn is_legal(&self, square: Square) -> bool {
        self.legal_moves().contains(square)
    }

    /// Plays `square` for the side to move and applies any forced pass.
    pub fn play(&self, square: Square) -> Result<Position, PlayError> {
        self.play_with_report(square).map(|report| report.position)
    }

    /// Like [`play`](Self::play), also telling what flipped and who was skipped.
    pub fn play_with_report(&self, square: Square) -> Result<MoveReport, PlayError> {
        let mover = self.to_move.ok_or(PlayError::GameOver)?;
        let bit = square.bit();
        if self.walls & bit != 0 {
            return Err(PlayError::Wall { square });
        }
        if (self.black | self.white) & bit != 0 {
            return Err(PlayError::Occupied { square });
        }
        let mut next = *self;
        let mut report = MoveReport {
            position: next,
            mover,
            flipped: Bitboard::EMPTY,
            auto_placed: Bitboard::EMPTY,
            skipped: None,
        };
        if self.placements < OPENING_PLACEMENTS {
            if Bitboard::CENTRE.0 & bit == 0 {
                return Err(PlayError::OutsideCentre { square });
            }
            next.place(mover, bit);
            next.placements += 1;
            if self.options.opening == Opening::Double && next.placements == 1 {
                // The first player places a second disc before anyone else moves.
                report.position = next;
                return Ok(report);
            }
            if self.options.opening == Opening::Double && next.placements == 2 {
                // The second player's two discs go on the two centre squares left.
                let rest = Bitboard::CENTRE.0 & next.empty_bits();
                for sq in Bitboard(rest).squares() {
                    next.place(!mover, sq.bit());
                }
                next.placements = OPENING_PLACEMENTS;
                report.auto_placed = Bitboard(rest);
                report.skipped = next.settle(!mover);
                report.position = next;
                return Ok(report);
            }
        } else {
            let flips =
                self.options
                    .topology
                    .flips(self.bits(mover), self.bits(!mover), square.index());
            if flips == 0 {
                return Err(PlayError::FlipsNothing { square });
            }
            next.place(mover, bit);
            *next.bits_mut(mover) |= flips;
            *next.bits_mut(!mover) &= !flips;
            report.flipped = Bitboard(flips);
        }
        report.skipped = next.settle(mover);
        report.position = next;
        Ok(report)
    }

    /// The result if the board is finished; `None` while someone can move.
    pub fn outcome(&self) -> Option<Outcome> {
        self.is_over()
            .then(|| self.outcome_with(Ending::BoardFinished))
    }

    /// The result of ending the game here by `ending`. For
    /// [`Ending::BoardFinished`] the winner follows from the counts and the
    /// draw rule; otherwise the player who did not resign or time out wins.
    pub fn outcome_with(&self, ending: Ending) -> Outcome {
        let mut score = self.counts();
        let winner = match ending {
            Ending::BoardFinished => match score.black.cmp(&score.white) {
                std::cmp::Ordering::Greater => Some(Color::Black),
                std::cmp::Ordering::Less => Some(Color::White),
                std::cmp::Ordering::Equal => match self.options.draw {
                    DrawRule::Draw => None,
                    DrawRule::Black => Some(Color::Black),
                    DrawRule::White => Some(Color::White),
                },
            },
            Ending::Resignation { resigned: loser } | Ending::Timeout { late: loser } => {
                Some(!loser)
            }
        };
        if self.options.scoring == Scoring::Empties {
            let empties = self.empty_bits().count_ones() as u8;
            match winner {
                Some(color) => score[color] += empties,
                None => {
                    score.black += empties / 2;
                    score.white += empties / 2;
                }
            }
        }
        Outcome {
            winner,
            score,
            ending,
        }
    }

    /// The start of a setup as it stands now (discs, walls, side to move);
    /// `None` when the game is over.
    pub fn to_setup(&self) -> Option<Setup> {
        Some(Setup {
            black: Bitboard(self.black),
            white: Bitboard(self.white),
            walls: Bitboard(self.walls),
            to_move: self.to_move?,
        })
    }

    #[inline]
    pub(crate) fn bits(&self, color: Color) -> u64 {
        match color {
            Color::Black => self.black,
            Color::White => self.white,
        }
    }

    #[inline]
    fn bits_mut(&mut self, color: Color) -> &mut u64 {
        match color {
            Color::Black => &mut self.black,
            Color::White => &mut self.white,
        }
    }

    #[inline]
    pub(crate) fn empty_bits(&self) -> u64 {
        !(self.black | self.white | self.walls)
    }

    /// Puts one of `color`'s discs from its supply on `bit`.
    fn place(&mut self, color: Color, bit: u64) {
        *self.bits_mut(color) |= bit;
        if self.supply[color] != UNLIMITED_SUPPLY {
            self.supply[color] -= 1;
        }
    }

    /// Legal placements for `color`, whether or not it is their turn.
    pub(crate) fn moves_for(&self, color: Color) -> u64 {
        if self.supply[color] == 0 {
            return 0;
        }
        let empty = self.empty_bits();
        if self.placements < OPENING_PLACEMENTS {
            return Bitboard::CENTRE.0 & empty;
        }
        self.options
            .topology
            .moves(self.bits(color), self.bits(!color), empty)
    }

    /// Hands the turn on after `mover` moved: to the opponent if they can
    /// move, back to `mover` if only they can (returning the skipped
    /// opponent), or to nobody when the game is over.
    fn settle(&mut self, mover: Color) -> Option<Color> {
        let next = !mover;
        if self.moves_for(next) != 0 {
            self.to_move = Some(next);
            None
        } else if self.moves_for(mover) != 0 {
            self.to_move = Some(mover);
            Some(next)
        } else {
            self.to_move = None;
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rules::Preset;
    use crate::engine::setup::Rules;

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    fn squares(names: &[&str]) -> Bitboard {
        names.iter().map(|n| sq(n)).collect()
    }

    #[test]
    fn standard_start_has_the_four_documented_moves() {
        let start = Rules::default().start_position();
        assert_eq!(start.to_move(), Some(Color::Black));
        assert_eq!(start.legal_moves(), squares(&["c4", "d3", "e6", "f5"]));
        assert_eq!(start.discs(Color::White), squares(&["d4", "e5"]));
        assert_eq!(start.discs(Color::Black), squares(&["d5", "e4"]));
    }

    #[test]
    fn a_move_flips_the_flanked_disc() {
        let start = Rules::default().start_position();
        let report = start.play_with_report(sq("f5")).unwrap();
        assert_eq!(report.flipped, squares(&["e5"]));
        assert_eq!(report.position.counts(), ByColor { black: 4, white: 1 });
        assert_eq!(report.position.to_move(), Some(Color::White));
    }

    #[test]
    fn illegal_moves_say_why_and_change_nothing() {
        let start = Rules::default().start_position();
        let before = start;
        assert_eq!(
            start.play(sq("a1")),
            Err(PlayError::FlipsNothing { square: sq("a1") })
        );
        assert_eq!(
            start.play(sq("d4")),
            Err(PlayError::Occupied { square: sq("d4") })
        );
        assert_eq!(start, before);
    }

    #[test]
    fn free_opening_places_four_centre_discs_without_flipping() {
        let start = Rules::preset(Preset::Reversi).start_position();
        assert_eq!(start.legal_moves(), Bitboard::CENTRE);
        assert_eq!(
            start.play(sq("c3")),
            Err(PlayError::OutsideCentre { square: sq("c3") })
        );
        // Black d4, White e4, Black e5, White d5: a parallel start, nothing flips.
        let mut pos = start;
        for (i, name) in ["d4", "e4", "e5", "d5"].iter().enumerate() {
            let report = pos.play_with_report(sq(name)).unwrap();
            assert!(report.flipped.is_empty());
            assert_eq!(
                report.mover,
                if i % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                }
            );
            pos = report.position;
        }
        assert_eq!(pos.discs(Color::Black), squares(&["d4", "e5"]));
        assert_eq!(pos.discs(Color::White), squares(&["e4", "d5"]));
        assert_eq!(pos.opening_placements_left(), 0);
        assert_eq!(pos.to_move(), Some(Color::Black));
        // From the fifth move on, normal rules: a move must flip.
        assert!(!pos.is_legal(sq("a1")));
        assert!(pos.legal_moves().count() > 0);
    }

    #[test]
    fn double_opening_lets_black_choose_and_fills_white_automatically() {
        let start = Rules::preset(Preset::Ravensburger).start_position();
        let first = start.play(sq("d4")).unwrap();
        assert_eq!(
            first.to_move(),
            Some(Color::Black),
            "black places a second disc"
        );
        assert_eq!(first.legal_moves(), squares(&["e4", "d5", "e5"]));
        // Parallel: black d4, e4; white gets d5, e5.
        let report = first.play_with_report(sq("e4")).unwrap();
        assert_eq!(report.auto_placed, squares(&["d5", "e5"]));
        let pos = report.position;
        assert_eq!(pos.discs(Color::White), squares(&["d5", "e5"]));
        assert_eq!(pos.to_move(), Some(Color::Black));
        assert_eq!(pos.opening_placements_left(), 0);
        // Parallel start: black's moves are the squares below white's row.
        assert_eq!(pos.legal_moves(), squares(&["c6", "d6", "e6", "f6"]));
        // Crossed: black d4, e5 gives the standard cross with colours swapped.
        let crossed = first.play(sq("e5")).unwrap();
        assert_eq!(crossed.discs(Color::White), squares(&["e4", "d5"]));
    }

    #[test]
    fn outcome_applies_scoring_and_draw_rules() {
        // Black 3 at a1 b1 c1 and white 3 at a8 b8 c8, separated: nobody can move.
        let mut setup: Setup = format!("{} X", "-".repeat(64)).parse().unwrap();
        setup.black = squares(&["a1", "b1", "c1"]);
        setup.white = squares(&["a8", "b8", "c8"]);
        let mut pos = Rules::default().start_position();
        pos.black = setup.black.0;
        pos.white = setup.white.0;
        pos.to_move = None;
        let o = pos.outcome().unwrap();
        assert_eq!(o.winner, None);
        assert_eq!(o.score, ByColor { black: 3, white: 3 });

        pos.options.draw = DrawRule::White;
        assert_eq!(pos.outcome().unwrap().winner, Some(Color::White));

        pos.options.draw = DrawRule::Draw;
        pos.options.scoring = Scoring::Empties;
        assert_eq!(
            pos.outcome().unwrap().score,
            ByColor {
                black: 32,
                white: 32
            }
        );

        pos.black |= sq("d1").bit();
        let decided = pos.outcome().unwrap();
        assert_eq!(decided.winner, Some(Color::Black));
        assert_eq!(
            decided.score,
            ByColor {
                black: 4 + 57,
                white: 3
            }
        );
        assert_eq!(decided.score.black + decided.score.white, 64);

        let resigned = pos.outcome_with(Ending::Resignation {
            resigned: Color::Black,
        });
        assert_eq!(resigned.winner, Some(Color::White));
    }
}
