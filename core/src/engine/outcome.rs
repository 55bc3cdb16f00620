//! How a game ended and what it scored.

use super::color::{ByColor, Color};

/// What ended the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ending {
    /// Neither side could move (the board may still have empty squares).
    BoardFinished,
    /// A player resigned.
    Resignation {
        /// The player who resigned.
        resigned: Color,
    },
    /// A player missed the per-move deadline.
    Timeout {
        /// The player who did not move in time.
        late: Color,
    },
}

impl Ending {
    /// A short phrase for people ("board finished", "black resigned", …).
    pub fn describe(self) -> String {
        match self {
            Ending::BoardFinished => "board finished".to_string(),
            Ending::Resignation { resigned } => format!("{resigned} resigned"),
            Ending::Timeout { late } => format!("{late} ran out of time"),
        }
    }
}

/// The result of a game: the winner (none for a draw), the score under the
/// game's scoring option, and how it ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
    /// Points per colour: discs, plus empty squares under `empties` scoring
    /// (all to the winner; a draw splits them, an odd one left unassigned).
    pub score: ByColor<u8>,
    /// What ended the game.
    pub ending: Ending,
}

impl std::fmt::Display for Outcome {
    /// One line for people, e.g. `black wins 40-24 (board finished)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let score = format!("{}-{}", self.score.black, self.score.white);
        match self.winner {
            Some(color) => write!(f, "{color} wins {score} ({})", self.ending.describe()),
            None => write!(f, "draw {score} ({})", self.ending.describe()),
        }
    }
}
