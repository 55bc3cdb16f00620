//! *Watch a game*: a watch code, then the game as a spectator sees it
//! (the board, the players, the clock; clicks do nothing).

use std::time::Duration;

use super::Screen;
use crate::app::board_view::{BoardMarks, board};
use crate::app::watch_game;
use crate::app::widgets::{ERROR, counts_line};

/// The watch screen's state.
#[derive(Default)]
pub(in crate::app) struct WatchScreen {
    /// The watch code as typed.
    code: String,
    /// Why the code was refused.
    error: Option<String>,
    /// The game followed, once the code is accepted.
    game: Option<Box<watch_game::WatchGame>>,
}

impl WatchScreen {
    /// The *Watch* screen: a code, then the game as a spectator sees it.
    pub fn ui(&mut self, ui: &mut egui::Ui) -> Option<Screen> {
        let WatchScreen { code, error, game } = self;
        ui.heading("Watch a game");
        if ui.button("Back").clicked() {
            return Some(Screen::home());
        }
        let Some(watched) = game else {
            ui.label("Paste the watch code a player shared (GAME_ID@SERVER):");
            let edit = ui.add(egui::TextEdit::singleline(code).desired_width(640.0));
            let submit = ui.button("Watch").clicked()
                || (edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)));
            if let Some(e) = error {
                ui.colored_label(ERROR, e.as_str());
            }
            if submit {
                match code.parse::<crate::net::watch::WatchCode>() {
                    Ok(parsed) => {
                        let ctx = ui.ctx().clone();
                        *game = Some(Box::new(watch_game::WatchGame::start(parsed, move || {
                            ctx.request_repaint()
                        })));
                    }
                    Err(e) => *error = Some(e.to_string()),
                }
            }
            return None;
        };
        ui.label(format!("Watching {}", watched.code()));
        let snap = watched.snapshot();
        ui.label(format!("Status: {}", snap.status));
        if let Some(e) = &snap.error {
            ui.colored_label(ERROR, e);
        }
        let Some(v) = &snap.verifier else {
            return None;
        };
        let name = |seat| {
            v.player(seat)
                .map_or("(not yet known)".to_string(), |p| p.name.clone())
        };
        match v.black_seat() {
            Some(black) => {
                ui.label(format!("Black: {}", name(black)));
                ui.label(format!("White: {}", name(black.other())));
            }
            None if v.coin_flip().is_some() => {
                ui.label("The colours are being chosen (draw rule decided by lot).");
            }
            None => {
                ui.label(format!(
                    "{} hosts; {} joins; the coin is not flipped yet",
                    name(crate::match_log::Seat::Host),
                    name(crate::match_log::Seat::Guest)
                ));
            }
        }
        if let Some(position) = v.current_position() {
            counts_line(ui, position);
            if let Some(seat) = v.seat_to_write().filter(|_| v.end().is_none()) {
                let at = v
                    .last_timestamp()
                    .saturating_add(u64::from(v.deadline_secs()) * 1000);
                let left = at.saturating_sub(crate::platform::now_ms()) / 1000;
                ui.label(format!(
                    "{}'s clock: {} left",
                    name(seat),
                    humantime::format_duration(Duration::from_secs(left))
                ));
                ui.ctx().request_repaint_after(Duration::from_secs(1));
            }
        }
        if let Some(end) = v.end() {
            let winner = end.outcome.winner.and_then(|c| v.seat_of(c)).map(name);
            ui.strong(match winner {
                Some(w) => format!("Game over: {w} wins ({})", end.outcome.ending.describe()),
                None => format!("Game over: a draw ({})", end.outcome.ending.describe()),
            });
        }
        let moves: Vec<crate::engine::Square> = v.moves().iter().map(|m| m.square).collect();
        if !moves.is_empty() {
            ui.monospace(crate::engine::format_transcript(&moves));
        }
        if let Some(position) = v.current_position() {
            let marks = BoardMarks {
                last: moves.last().copied(),
                best: None,
                ..BoardMarks::default()
            };
            // A spectator's clicks do nothing.
            let _ = board(ui, position, marks);
        }
        None
    }
}
