//! Rule options, each independent of the others, and the named presets.

use std::fmt;
use std::str::FromStr;

use super::topology::Topology;

/// How the first four discs reach the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Opening {
    /// The four centre discs start crosswise (white d4 e5, black d5 e4).
    #[default]
    Preset,
    /// The board starts empty; the first four moves go on the empty centre
    /// squares in turn and flip nothing (the 1883 opening).
    Free,
    /// The first player places two discs on centre squares; the second
    /// player's two then go on the two that remain (Ravensburger's rule).
    Double,
}

/// How many discs each player has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Discs {
    /// A common pool that never runs out.
    #[default]
    Unlimited,
    /// This many discs per player (1 to 64, normally 32); a player whose
    /// supply is empty cannot move and is skipped.
    PerPlayer(u8),
}

/// How the final score is counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Scoring {
    /// Discs on the board; more wins, equal is a draw.
    #[default]
    Count,
    /// As `Count`, and the empty squares left at the end go to the winner
    /// (a draw splits them half each).
    Empties,
}

/// What an equal count means.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum DrawRule {
    /// An equal count is a draw.
    #[default]
    Draw,
    /// An equal count is a win for Black.
    Black,
    /// An equal count is a win for White.
    White,
}

/// Every rule option except the start position. Each field is independent,
/// and every combination is playable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct RuleOptions {
    /// How the first four discs are placed.
    pub opening: Opening,
    /// Disc supply per player.
    pub discs: Discs,
    /// Score counting.
    pub scoring: Scoring,
    /// Meaning of an equal count.
    pub draw: DrawRule,
    /// Plane or torus.
    pub topology: Topology,
}

/// The named rule sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Preset {
    /// Preset opening, unlimited discs, count, plane: the modern game.
    #[default]
    Othello,
    /// Free opening, unlimited common pool, empties to the winner.
    Reversi,
    /// Free opening, 32 discs each, count: the 1880s rules.
    Classic,
    /// Double opening, unlimited discs, count.
    Ravensburger,
    /// Othello on a torus.
    Torus,
}

impl Preset {
    /// All presets in documentation order.
    pub const ALL: [Preset; 5] = [
        Preset::Othello,
        Preset::Reversi,
        Preset::Classic,
        Preset::Ravensburger,
        Preset::Torus,
    ];

    /// The preset's fixed name.
    pub fn name(self) -> &'static str {
        match self {
            Preset::Othello => "othello",
            Preset::Reversi => "reversi",
            Preset::Classic => "classic",
            Preset::Ravensburger => "ravensburger",
            Preset::Torus => "torus",
        }
    }

    /// One line on what makes the preset different.
    pub fn summary(self) -> &'static str {
        match self {
            Preset::Othello => {
                "the modern game: crossed centre preset, unlimited discs, disc count"
            }
            Preset::Reversi => {
                "the 1883 opening: first four discs placed freely in the centre; empty squares go to the winner"
            }
            Preset::Classic => "the 1880s rules: free opening, 32 discs each, disc count",
            Preset::Ravensburger => {
                "the first player places two centre discs, choosing a crossed or parallel start"
            }
            Preset::Torus => "othello on a board whose edges wrap around",
        }
    }

    /// The options the preset stands for.
    pub fn options(self) -> RuleOptions {
        let othello = RuleOptions::default();
        match self {
            Preset::Othello => othello,
            Preset::Reversi => RuleOptions {
                opening: Opening::Free,
                scoring: Scoring::Empties,
                ..othello
            },
            Preset::Classic => RuleOptions {
                opening: Opening::Free,
                discs: Discs::PerPlayer(32),
                ..othello
            },
            Preset::Ravensburger => RuleOptions {
                opening: Opening::Double,
                ..othello
            },
            Preset::Torus => RuleOptions {
                topology: Topology::Torus,
                ..othello
            },
        }
    }
}

/// An option value that was not understood.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid {option}: expected {expected}, found {found:?}")]
pub struct ParseOptionError {
    /// The option's name, e.g. `opening`.
    pub option: &'static str,
    /// The accepted values.
    pub expected: &'static str,
    /// The text given.
    pub found: String,
}

/// Implements `FromStr` and `Display` for a unit-variant option enum.
macro_rules! option_names {
    ($ty:ty, $option:literal, $expected:literal, $($variant:path => $name:literal),+ $(,)?) => {
        impl FromStr for $ty {
            type Err = ParseOptionError;
            fn from_str(text: &str) -> Result<Self, ParseOptionError> {
                match text.to_ascii_lowercase().as_str() {
                    $($name => Ok($variant),)+
                    _ => Err(ParseOptionError {
                        option: $option,
                        expected: $expected,
                        found: text.to_string(),
                    }),
                }
            }
        }
        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(match self { $($variant => $name,)+ })
            }
        }
    };
}

option_names!(Opening, "opening", "preset|free|double", Opening::Preset => "preset", Opening::Free => "free", Opening::Double => "double");
option_names!(Scoring, "scoring", "count|empties", Scoring::Count => "count", Scoring::Empties => "empties");
option_names!(DrawRule, "draw", "draw|black|white", DrawRule::Draw => "draw", DrawRule::Black => "black", DrawRule::White => "white");
option_names!(Topology, "topology", "plane|torus", Topology::Plane => "plane", Topology::Torus => "torus");
option_names!(
    Preset, "rules", "othello|reversi|classic|ravensburger|torus",
    Preset::Othello => "othello",
    Preset::Reversi => "reversi",
    Preset::Classic => "classic",
    Preset::Ravensburger => "ravensburger",
    Preset::Torus => "torus",
);

impl FromStr for Discs {
    type Err = ParseOptionError;
    /// `unlimited`, or a number of discs per player from 1 to 64.
    fn from_str(text: &str) -> Result<Discs, ParseOptionError> {
        if text.eq_ignore_ascii_case("unlimited") {
            return Ok(Discs::Unlimited);
        }
        match text.parse::<u8>() {
            Ok(n @ 1..=64) => Ok(Discs::PerPlayer(n)),
            _ => Err(ParseOptionError {
                option: "discs",
                expected: "unlimited or a number from 1 to 64",
                found: text.to_string(),
            }),
        }
    }
}

impl fmt::Display for Discs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Discs::Unlimited => f.write_str("unlimited"),
            Discs::PerPlayer(n) => write!(f, "{n}"),
        }
    }
}

impl fmt::Display for RuleOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "opening {}, discs {}, scoring {}, draw {}, topology {}",
            self.opening, self.discs, self.scoring, self.draw, self.topology
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preset_names_round_trip() {
        for preset in Preset::ALL {
            assert_eq!(preset.name().parse::<Preset>(), Ok(preset));
            assert_eq!(preset.to_string(), preset.name());
        }
    }

    #[test]
    fn presets_stand_for_their_documented_options() {
        let classic = Preset::Classic.options();
        assert_eq!(classic.opening, Opening::Free);
        assert_eq!(classic.discs, Discs::PerPlayer(32));
        assert_eq!(classic.scoring, Scoring::Count);
        assert_eq!(Preset::Reversi.options().scoring, Scoring::Empties);
        assert_eq!(Preset::Ravensburger.options().opening, Opening::Double);
        assert_eq!(Preset::Torus.options().topology, Topology::Torus);
        assert_eq!(Preset::Othello.options(), RuleOptions::default());
    }

    #[test]
    fn disc_supply_is_bounded() {
        assert_eq!("32".parse::<Discs>(), Ok(Discs::PerPlayer(32)));
        assert_eq!("UNLIMITED".parse::<Discs>(), Ok(Discs::Unlimited));
        for bad in ["0", "65", "-1", "", "many", "300"] {
            let err = bad.parse::<Discs>().unwrap_err();
            assert_eq!(err.found, bad);
        }
    }

    #[test]
    fn option_errors_name_the_option_and_the_choices() {
        let err = "diagonal".parse::<Opening>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid opening: expected preset|free|double, found \"diagonal\""
        );
    }
}
