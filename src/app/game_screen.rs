//! The game screen, one for a game against the computer and for a game
//! over the network: the board in the middle, and beside it (under it on
//! a phone) the panel with the score, whose turn it is, the notices, the
//! moves, resignation and the end. What only one kind of game shows (the
//! computer's level and hints; the room, the opponent, the clocks) it
//! adds at three places of the panel.

use std::time::Duration;

use crate::engine::{Bitboard, Color, Outcome, Position, Square, format_transcript};

use super::board_view::{BoardMarks, board};

/// What the screen shows of a game, this frame.
pub(super) struct GameFrame {
    /// The panel's title.
    pub heading: &'static str,
    /// The position, once there is one (a network game has none until
    /// the coin is flipped).
    pub position: Option<Position>,
    /// The squares a click plays now (none when it is not this player's turn).
    pub legal: Bitboard,
    /// The last move, marked on the board.
    pub last: Option<Square>,
    /// The discs the last move turned, and how long ago.
    pub flipped: Option<(Bitboard, Duration)>,
    /// The result, once over.
    pub outcome: Option<Outcome>,
    /// This player's colour, once known.
    pub me: Option<Color>,
    /// The moves so far.
    pub moves: Vec<Square>,
    /// Messages for the player, newest last (the latest few are shown).
    pub notices: Vec<String>,
    /// Whether the player may resign now.
    pub can_resign: bool,
}

/// Where a kind of game adds what only it shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Part {
    /// Under the title.
    Top,
    /// Under the score and whose turn it is.
    Turn,
    /// Under the result, once the game is over.
    End,
    /// In the middle, while there is no board yet.
    NoBoard,
}

/// What the player did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum GameInput {
    /// Played a square (clicked or typed).
    Play(Square),
    /// Confirmed resignation.
    Resign,
    /// Went back to Home.
    Home,
}

/// Notices shown at once.
const NOTICES_SHOWN: usize = 4;

/// Draws the screen; `extra` adds a kind of game's own parts.
pub(super) fn game_screen(
    ctx: &egui::Context,
    frame: &GameFrame,
    typed: Option<Square>,
    animations: bool,
    confirm_resign: &mut bool,
    extra: &mut dyn FnMut(&mut egui::Ui, Part),
) -> Option<GameInput> {
    let mut input = None;
    super::status_panel(ctx, |ui| {
        ui.heading(frame.heading);
        extra(ui, Part::Top);
        if let Some(position) = &frame.position {
            super::counts_line(ui, position);
            ui.label(super::turn_text(position, frame.me, frame.outcome.as_ref()));
            super::supply_line(ui, position);
        }
        extra(ui, Part::Turn);
        for notice in frame.notices.iter().rev().take(NOTICES_SHOWN) {
            ui.colored_label(egui::Color32::from_rgb(0xe0, 0xb0, 0x40), notice);
        }
        if !frame.moves.is_empty() {
            ui.separator();
            ui.label("Moves:");
            ui.monospace(format_transcript(&frame.moves));
        }
        ui.separator();
        if let Some(outcome) = &frame.outcome {
            super::end_panel(ui, outcome, frame.me, &frame.moves);
            extra(ui, Part::End);
        } else if frame.can_resign && super::resign_buttons(ui, confirm_resign) {
            input = Some(GameInput::Resign);
        }
        if ui.button("Home").clicked() {
            input = Some(GameInput::Home);
        }
    });
    egui::CentralPanel::default().show(ctx, |ui| match &frame.position {
        Some(position) => {
            let marks = BoardMarks {
                legal: frame.legal,
                last: frame.last,
                best: None,
                flipping: super::flip_progress(frame.flipped, animations, ctx),
            };
            let played = board(ui, position, marks).or(typed.filter(|s| frame.legal.contains(*s)));
            if let Some(square) = played {
                input = Some(GameInput::Play(square));
            }
        }
        None => extra(ui, Part::NoBoard),
    });
    input
}
