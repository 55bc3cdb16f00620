//! The game screen, one for a game against the computer and for a game
//! over the network: the board in the middle, and beside it (under it on
//! a phone) the panel with the score, whose turn it is, the notices, the
//! moves, resignation and the end. What only one kind of game shows (the
//! computer's level and hints; the room, the opponent, the clocks) it
//! adds at three places of the panel.

use std::time::Duration;

use crate::engine::{Bitboard, Color, Outcome, Position, Square, format_transcript};

/// How long a flip animation takes.
const FLIP_TIME: Duration = Duration::from_millis(300);

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
    status_panel(ctx, |ui| {
        ui.heading(frame.heading);
        extra(ui, Part::Top);
        if let Some(position) = &frame.position {
            super::widgets::counts_line(ui, position);
            ui.label(turn_text(position, frame.me, frame.outcome.as_ref()));
            supply_line(ui, position);
        }
        extra(ui, Part::Turn);
        for notice in frame.notices.iter().rev().take(NOTICES_SHOWN) {
            ui.colored_label(super::widgets::ATTENTION, notice);
        }
        if !frame.moves.is_empty() {
            ui.separator();
            ui.label("Moves:");
            ui.monospace(format_transcript(&frame.moves));
        }
        ui.separator();
        if let Some(outcome) = &frame.outcome {
            end_panel(ui, outcome, frame.me, &frame.moves);
            extra(ui, Part::End);
        } else if frame.can_resign && resign_buttons(ui, confirm_resign) {
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
                flipping: flip_progress(frame.flipped, animations, ctx),
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

/// Squares typed on the keyboard (`f5`), the last two characters kept.
#[derive(Default)]
pub(super) struct TypedSquare(String);

impl TypedSquare {
    /// Squares typed on the keyboard (`f5`): a square once two characters
    /// name one.
    pub fn take(&mut self, ctx: &egui::Context) -> Option<Square> {
        let typed: String = ctx.input(|i| {
            i.events
                .iter()
                .filter_map(|e| match e {
                    egui::Event::Text(t) => Some(t.clone()),
                    _ => None,
                })
                .collect()
        });
        for c in typed.chars().filter(|c| c.is_ascii_alphanumeric()) {
            self.0.push(c);
            if self.0.len() > 2 {
                self.0.remove(0);
            }
        }
        let square = self.0.parse::<Square>().ok();
        if square.is_some() {
            self.0.clear();
        }
        square
    }
}

/// A game's panel of status and actions: beside the board, or under it on
/// a narrow screen (scrolling, in the height the board leaves).
fn status_panel(ctx: &egui::Context, contents: impl FnOnce(&mut egui::Ui)) {
    if super::widgets::narrow(ctx) {
        // What the board (as wide as the screen) leaves, but never less
        // than a third of the screen.
        let screen = ctx.screen_rect();
        let height = (screen.height() - screen.width() - 24.0).max(screen.height() / 3.0);
        egui::TopBottomPanel::bottom("status")
            .exact_height(height)
            .show(ctx, |ui| {
                egui::ScrollArea::vertical()
                    .auto_shrink(false)
                    .show(ui, contents);
            });
    } else {
        egui::SidePanel::right("status")
            .min_width(220.0)
            .show(ctx, contents);
    }
}

fn supply_line(ui: &mut egui::Ui, position: &Position) {
    if let (Some(b), Some(w)) = (position.supply(Color::Black), position.supply(Color::White)) {
        ui.label(format!("Discs in hand: black {b}, white {w}"));
    }
}

fn turn_text(position: &Position, me: Option<Color>, outcome: Option<&Outcome>) -> String {
    match (position.to_move(), outcome) {
        (_, Some(_)) | (None, None) => "Game over".to_string(),
        (Some(c), None) if Some(c) == me => format!("Your move ({c})"),
        (Some(c), None) => format!("{c} to move"),
    }
}

/// Resign with a confirmation; true when confirmed.
fn resign_buttons(ui: &mut egui::Ui, confirming: &mut bool) -> bool {
    if !*confirming {
        if ui.button("Resign").clicked() {
            *confirming = true;
        }
        return false;
    }
    ui.label("Really resign?");
    let mut resigned = false;
    ui.horizontal(|ui| {
        if ui.button("Yes, resign").clicked() {
            resigned = true;
            *confirming = false;
        }
        if ui.button("Cancel").clicked() {
            *confirming = false;
        }
    });
    resigned
}

fn end_panel(ui: &mut egui::Ui, outcome: &Outcome, me: Option<Color>, moves: &[Square]) {
    let verdict = match (outcome.winner, me) {
        (None, _) => "Draw".to_string(),
        (Some(w), Some(m)) if w == m => "You win".to_string(),
        (Some(_), Some(_)) => "You lose".to_string(),
        (Some(w), None) => format!("{w} wins"),
    };
    ui.heading(verdict);
    ui.label(outcome.to_string());
    if ui.button("Copy transcript").clicked() {
        ui.ctx().copy_text(format_transcript(moves));
    }
}

/// The flip animation's progress, asking for frames while it runs.
fn flip_progress(
    flipped: Option<(crate::engine::Bitboard, Duration)>,
    animations: bool,
    ctx: &egui::Context,
) -> Option<(crate::engine::Bitboard, f32)> {
    let (discs, elapsed) = flipped?;
    if !animations || elapsed >= FLIP_TIME {
        return None;
    }
    ctx.request_repaint();
    Some((discs, elapsed.as_secs_f32() / FLIP_TIME.as_secs_f32()))
}
