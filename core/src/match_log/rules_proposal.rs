//! The rules a genesis proposes: checked options and start position, plus
//! how an equal count is scored: fixed, or chosen by the player the lot
//! names (the Japanese tournament rule).

use super::record::WireRules;
use crate::engine::{
    Bitboard, Color, Discs, DrawRule, Opening, RuleOptions, Rules, Scoring, Setup, SetupError,
    Topology,
};

/// How an equal count is scored, as agreed before the coin flip.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DrawAgreement {
    /// Fixed by the rule options (draw, or a win for a named colour).
    Fixed(DrawRule),
    /// The Japanese tournament rule: the player the game seed names signs
    /// which colour an equal count wins for; then the other player signs
    /// which colour they play (see [`super::record::Body::TieWinner`]).
    ByLot,
    /// An equal count wins for the colour the game seed picks, and the seed
    /// gives the colours as usual. Only read from logs written before the
    /// choice records existed; new games propose [`DrawAgreement::ByLot`].
    SeedPicks,
}

/// Checked rules as proposed in a genesis.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RulesProposal {
    /// The rules (with `draw` as `Draw` when it is decided by lot).
    pub rules: Rules,
    /// How an equal count is scored.
    pub draw: DrawAgreement,
}

/// Why wire rules are not a playable rule set.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WireRulesError {
    /// A field holds a value with no meaning.
    #[error("rule field {field} has no value {found}")]
    UnknownValue {
        /// The field's name.
        field: &'static str,
        /// The value found.
        found: u8,
    },
    /// The options and start position do not make a playable game.
    #[error("{0}")]
    Setup(#[from] SetupError),
}

impl RulesProposal {
    /// The proposal for fixed rules.
    pub fn fixed(rules: Rules) -> RulesProposal {
        RulesProposal {
            rules,
            draw: DrawAgreement::Fixed(rules.options().draw),
        }
    }

    /// Rules with the draw decided by lot.
    pub fn draw_by_lot(rules: Rules) -> Result<RulesProposal, SetupError> {
        let options = RuleOptions {
            draw: DrawRule::Draw,
            ..rules.options()
        };
        Ok(RulesProposal {
            rules: Rules::new(options, *rules.start())?,
            draw: DrawAgreement::ByLot,
        })
    }

    /// The rules in force once an equal count is known to win for `winner`.
    pub fn with_tie_winner(&self, winner: Color) -> Rules {
        let draw = match winner {
            Color::Black => DrawRule::Black,
            Color::White => DrawRule::White,
        };
        let options = RuleOptions {
            draw,
            ..self.rules.options()
        };
        Rules::new(options, *self.rules.start()).expect("only the draw option changed")
    }

    /// The rules as a genesis record carries them ([`WireRules`]).
    pub fn to_wire(&self) -> WireRules {
        let o = self.rules.options();
        let start = self.rules.start();
        WireRules {
            opening: match o.opening {
                Opening::Preset => 0,
                Opening::Free => 1,
                Opening::Double => 2,
            },
            discs: match o.discs {
                Discs::Unlimited => 0,
                Discs::PerPlayer(n) => n,
            },
            scoring: match o.scoring {
                Scoring::Count => 0,
                Scoring::Empties => 1,
            },
            draw: match self.draw {
                DrawAgreement::Fixed(DrawRule::Draw) => 0,
                DrawAgreement::Fixed(DrawRule::Black) => 1,
                DrawAgreement::Fixed(DrawRule::White) => 2,
                DrawAgreement::SeedPicks => 3,
                DrawAgreement::ByLot => 4,
            },
            topology: match o.topology {
                Topology::Plane => 0,
                Topology::Torus => 1,
            },
            black: start.black.0,
            white: start.white.0,
            walls: start.walls.0,
            to_move: match start.to_move {
                Color::Black => 0,
                Color::White => 1,
            },
        }
    }

    /// Checks the wire form.
    pub fn from_wire(wire: &WireRules) -> Result<RulesProposal, WireRulesError> {
        let unknown = |field, found| WireRulesError::UnknownValue { field, found };
        let opening = match wire.opening {
            0 => Opening::Preset,
            1 => Opening::Free,
            2 => Opening::Double,
            n => return Err(unknown("opening", n)),
        };
        let discs = match wire.discs {
            0 => Discs::Unlimited,
            n @ 1..=64 => Discs::PerPlayer(n),
            n => return Err(unknown("discs", n)),
        };
        let scoring = match wire.scoring {
            0 => Scoring::Count,
            1 => Scoring::Empties,
            n => return Err(unknown("scoring", n)),
        };
        let draw = match wire.draw {
            0 => DrawAgreement::Fixed(DrawRule::Draw),
            1 => DrawAgreement::Fixed(DrawRule::Black),
            2 => DrawAgreement::Fixed(DrawRule::White),
            3 => DrawAgreement::SeedPicks,
            4 => DrawAgreement::ByLot,
            n => return Err(unknown("draw", n)),
        };
        let topology = match wire.topology {
            0 => Topology::Plane,
            1 => Topology::Torus,
            n => return Err(unknown("topology", n)),
        };
        let to_move = match wire.to_move {
            0 => Color::Black,
            1 => Color::White,
            n => return Err(unknown("to_move", n)),
        };
        let options = RuleOptions {
            opening,
            discs,
            scoring,
            draw: match draw {
                DrawAgreement::Fixed(rule) => rule,
                DrawAgreement::ByLot | DrawAgreement::SeedPicks => DrawRule::Draw,
            },
            topology,
        };
        let setup = Setup {
            black: Bitboard(wire.black),
            white: Bitboard(wire.white),
            walls: Bitboard(wire.walls),
            to_move,
        };
        Ok(RulesProposal {
            rules: Rules::new(options, setup)?,
            draw,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Preset;

    #[test]
    fn every_preset_round_trips_through_the_wire_form() {
        for preset in Preset::ALL {
            let proposal = RulesProposal::fixed(Rules::preset(preset));
            assert_eq!(RulesProposal::from_wire(&proposal.to_wire()), Ok(proposal));
        }
        let lot = RulesProposal::draw_by_lot(Rules::default()).unwrap();
        assert_eq!(RulesProposal::from_wire(&lot.to_wire()), Ok(lot));
        assert_eq!(lot.to_wire().draw, 4);
        assert_eq!(
            lot.with_tie_winner(Color::White).options().draw,
            DrawRule::White
        );
        let mut legacy = lot.to_wire();
        legacy.draw = 3;
        let legacy = RulesProposal::from_wire(&legacy).unwrap();
        assert_eq!(legacy.draw, DrawAgreement::SeedPicks);
        assert_eq!(RulesProposal::from_wire(&legacy.to_wire()), Ok(legacy));
    }

    #[test]
    fn unknown_values_and_bad_setups_are_named() {
        let mut wire = RulesProposal::fixed(Rules::default()).to_wire();
        wire.topology = 7;
        assert_eq!(
            RulesProposal::from_wire(&wire),
            Err(WireRulesError::UnknownValue {
                field: "topology",
                found: 7
            })
        );
        let mut overlap = RulesProposal::fixed(Rules::default()).to_wire();
        overlap.walls = overlap.black;
        assert!(matches!(
            RulesProposal::from_wire(&overlap),
            Err(WireRulesError::Setup(SetupError::WallAndDisc { .. }))
        ));
    }
}
