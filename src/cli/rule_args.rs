//! The rule flags shared by every command that takes rules.

use clap::Args;

use crate::engine::{
    Bitboard, Discs, DrawRule, Opening, ParseSetupError, ParseSquareError, Preset, RuleOptions,
    Rules, Scoring, Setup, SetupError, Square, Topology,
};

/// `--rules NAME` and the individual options that override it.
#[derive(Debug, Clone, Default, Args)]
pub struct RuleArgs {
    /// Named rule set: othello, reversi, classic, ravensburger, torus.
    #[arg(long = "rules", value_name = "NAME", default_value = "othello")]
    pub preset: Preset,
    /// How the first four discs are placed: preset, free, double.
    #[arg(long)]
    pub opening: Option<Opening>,
    /// Discs per player: unlimited or a number from 1 to 64.
    #[arg(long)]
    pub discs: Option<Discs>,
    /// Scoring: count, or empties (empty squares go to the winner).
    #[arg(long)]
    pub scoring: Option<Scoring>,
    /// What an equal count means: draw, black, white.
    #[arg(long)]
    pub draw: Option<DrawRule>,
    /// Board topology: plane or torus.
    #[arg(long)]
    pub topology: Option<Topology>,
    /// Wall squares, comma-separated (for example a1,h8).
    #[arg(long, value_name = "SQUARES")]
    pub walls: Option<String>,
    /// Custom start: 64 cells a1…h1, a2…h8 (X black, O white, - empty, # wall) and X|O to move.
    #[arg(long, value_name = "\"<64 cells> X|O\"", allow_hyphen_values = true)]
    pub setup: Option<String>,
}

/// Why the rule flags do not make a playable rule set.
#[derive(Debug, thiserror::Error)]
pub enum RuleArgsError {
    /// A `--walls` entry is not a square.
    #[error("--walls: {0}")]
    Walls(#[from] ParseSquareError),
    /// `--setup` is not well-formed.
    #[error("--setup: {0}")]
    SetupText(#[from] ParseSetupError),
    /// The options and start position do not make a playable game.
    #[error("invalid rules: {0}")]
    Invalid(#[from] SetupError),
}

impl RuleArgs {
    /// The options: the preset with each given flag applied over it.
    pub fn options(&self) -> RuleOptions {
        let base = self.preset.options();
        RuleOptions {
            opening: self.opening.unwrap_or(base.opening),
            discs: self.discs.unwrap_or(base.discs),
            scoring: self.scoring.unwrap_or(base.scoring),
            draw: self.draw.unwrap_or(base.draw),
            topology: self.topology.unwrap_or(base.topology),
        }
    }

    /// Validates the flags into checked rules.
    pub fn rules(&self) -> Result<Rules, RuleArgsError> {
        let setup = match &self.setup {
            Some(text) => text.parse::<Setup>()?,
            None => Setup::for_opening(self.options().opening),
        };
        self.rules_from(setup)
    }

    /// Checked rules for the options of these flags and the start `setup`
    /// (with any `--walls` added; `--setup` is not used).
    pub fn rules_from(&self, mut setup: Setup) -> Result<Rules, RuleArgsError> {
        let walls = self.walls()?;
        setup.walls = Bitboard(setup.walls.0 | walls.0);
        Ok(Rules::new(self.options(), setup)?)
    }

    /// The squares `--walls` names (none without the flag).
    pub fn walls(&self) -> Result<Bitboard, RuleArgsError> {
        match self.walls.as_deref().filter(|l| !l.trim().is_empty()) {
            Some(list) => Ok(list
                .split(',')
                .map(|name| name.trim().parse::<Square>())
                .collect::<Result<Bitboard, _>>()?),
            None => Ok(Bitboard::EMPTY),
        }
    }
}
