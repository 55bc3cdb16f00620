//! What the app remembers between runs, and the rules those settings
//! choose.

use serde::{Deserialize, Serialize};

use crate::engine::{Color, Preset, RuleOptions, Rules, Setup};

/// The colour the person asks for against the computer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum ColorChoice {
    /// Black moves first.
    #[default]
    Black,
    /// White.
    White,
    /// Drawn at random.
    Random,
}

/// What the app remembers between runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// The name opponents see.
    pub name: String,
    /// Signaling server URL; empty means the embedded server (LAN play).
    pub server_url: String,
    /// STUN/TURN URLs, separated by spaces.
    pub ice_urls: String,
    /// TURN user name.
    pub turn_user: String,
    /// TURN password.
    pub turn_password: String,
    /// Animate flipping discs.
    pub animations: bool,
    /// Dark theme.
    pub dark: bool,
    /// Computer level, 1–10.
    pub level: u8,
    /// The longest the computer thinks per move, in seconds.
    pub move_time_secs: u32,
    /// Levels 8–10 play their first moves from the opening book.
    pub book: bool,
    /// The least time, in milliseconds, between the end of the person's
    /// move (its flips included) and the computer's reply appearing, so
    /// each move is seen; 0 for tests and analysis.
    pub pace_ms: u32,
    /// Whether the player has been asked for their name (once, on Home).
    pub asked_name: bool,
    /// Sounds for a disc placed, your turn and the end of a game.
    pub sound: bool,
    /// The language chosen in Settings; `None` follows the system's (or
    /// the browser's).
    pub language: Option<super::i18n::Language>,
    /// Colour against the computer.
    pub color: ColorChoice,
    /// The rules preset for new games.
    pub preset: String,
    /// Per-move deadline for hosted games, e.g. `1day`.
    pub deadline: String,
    /// Use the individual options below instead of the preset.
    pub custom: bool,
    /// Custom options, as on the command line: opening, discs, scoring,
    /// draw, topology.
    pub options: [String; 5],
    /// Custom start position (`<64 cells> X|O`); empty for the standard one.
    pub setup: String,
    /// A game against the computer left unfinished, to resume from Home.
    pub saved_game: Option<SavedGame>,
    /// Ask for attention when one of your games becomes your move.
    pub notify_your_move: bool,
    /// Count my finished games on the signaling server's leaderboard (a
    /// signed statement is sent when this changes).
    pub leaderboard: bool,
    /// Host games under the Japanese draw rule: the player the lot names
    /// chooses which colour wins an equal count, the other a colour.
    pub draw_by_lot: bool,
}

/// A game against the computer, as remembered between runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedGame {
    /// Options as on the command line: opening, discs, scoring, draw, topology.
    pub options: [String; 5],
    /// The start position text.
    pub setup: String,
    /// The moves so far, in transcript notation.
    pub moves: String,
    /// Whether the person plays Black.
    pub human_black: bool,
    /// The computer's level.
    pub level: u8,
}

/// Options as strings (the form settings keep them in).
pub(super) fn option_strings(options: RuleOptions) -> [String; 5] {
    [
        options.opening.to_string(),
        options.discs.to_string(),
        options.scoring.to_string(),
        options.draw.to_string(),
        options.topology.to_string(),
    ]
}

/// Rules from option strings and setup text, with the reason if they are not valid.
pub(super) fn rules_from_strings(options: &[String; 5], setup: &str) -> Result<Rules, String> {
    let options = RuleOptions {
        opening: options[0]
            .parse()
            .map_err(|e: crate::engine::ParseOptionError| e.to_string())?,
        discs: options[1]
            .parse()
            .map_err(|e: crate::engine::ParseOptionError| e.to_string())?,
        scoring: options[2]
            .parse()
            .map_err(|e: crate::engine::ParseOptionError| e.to_string())?,
        draw: options[3]
            .parse()
            .map_err(|e: crate::engine::ParseOptionError| e.to_string())?,
        topology: options[4]
            .parse()
            .map_err(|e: crate::engine::ParseOptionError| e.to_string())?,
    };
    let setup = if setup.trim().is_empty() {
        Setup::for_opening(options.opening)
    } else {
        setup.parse::<Setup>().map_err(|e| e.to_string())?
    };
    Rules::new(options, setup).map_err(|e| e.to_string())
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            name: "Player".into(),
            server_url: String::new(),
            ice_urls: String::new(),
            turn_user: String::new(),
            turn_password: String::new(),
            animations: true,
            dark: true,
            level: 3,
            move_time_secs: 1,
            book: true,
            pace_ms: 600,
            asked_name: false,
            sound: true,
            language: None,
            color: ColorChoice::Black,
            preset: "othello".into(),
            deadline: "1day".into(),
            custom: false,
            options: option_strings(RuleOptions::default()),
            setup: String::new(),
            saved_game: None,
            notify_your_move: true,
            draw_by_lot: false,
            leaderboard: false,
        }
    }
}

/// The key under which settings are stored.
pub const SETTINGS_KEY: &str = "reversi-settings";

impl Settings {
    /// The rules chosen on Home: the preset, or the custom options.
    pub(super) fn rules(&self) -> Result<Rules, String> {
        if self.custom {
            return rules_from_strings(&self.options, &self.setup)
                .map_err(|e| format!("custom rules: {e}"));
        }
        let preset = self.preset.parse::<Preset>().unwrap_or(Preset::Othello);
        Ok(Rules::preset(preset))
    }

    /// The rules a new game gets, in a few words.
    pub(super) fn rules_name(&self) -> String {
        if self.custom {
            "custom".to_string()
        } else {
            self.preset.clone()
        }
    }

    /// The colour the person plays against the computer; `seed` decides
    /// a random choice.
    pub(super) fn human_color(&self, seed: u64) -> Color {
        match self.color {
            ColorChoice::Black => Color::Black,
            ColorChoice::White => Color::White,
            ColorChoice::Random if seed.is_multiple_of(2) => Color::Black,
            ColorChoice::Random => Color::White,
        }
    }
}
