//! *Watch a game*: a watch code, then the game as a spectator sees it
//! (the board, the players, the clock; clicks do nothing).

use std::time::Duration;

use super::Screen;
use crate::app::board_view::{BoardMarks, board};
use crate::app::i18n::{duration, ending, t};
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
        ui.heading(t!("home-watch"));
        if ui.button(t!("back")).clicked() {
            return Some(Screen::home());
        }
        let Some(watched) = game else {
            ui.label(t!("watch-paste"));
            let edit = ui.add(egui::TextEdit::singleline(code).desired_width(640.0));
            let submit = ui.button(t!("watch-watch")).clicked()
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
        ui.label(t!("watch-watching", code = watched.code().to_string()));
        let snap = watched.snapshot();
        ui.label(t!("net-status", status = snap.status.words()));
        if let Some(e) = &snap.error {
            ui.colored_label(ERROR, e);
        }
        let Some(v) = &snap.verifier else {
            return None;
        };
        let name = |seat| {
            v.player(seat)
                .map_or_else(|| t!("watch-unknown"), |p| p.name.clone())
        };
        match v.black_seat() {
            Some(black) => {
                ui.label(t!("watch-black", name = name(black)));
                ui.label(t!("watch-white", name = name(black.other())));
            }
            None if v.coin_flip().is_some() => {
                ui.label(t!("watch-choosing"));
            }
            None => {
                ui.label(t!(
                    "watch-hosts",
                    host = name(crate::match_log::Seat::Host),
                    guest = name(crate::match_log::Seat::Guest)
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
                ui.label(t!("watch-clock", name = name(seat), left = duration(left)));
                ui.ctx().request_repaint_after(Duration::from_secs(1));
            }
        }
        if let Some(end) = v.end() {
            let winner = end.outcome.winner.and_then(|c| v.seat_of(c)).map(name);
            ui.strong(match winner {
                Some(w) => t!("watch-over-win", name = w, how = ending(end.outcome.ending)),
                None => t!("watch-over-draw", how = ending(end.outcome.ending)),
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
