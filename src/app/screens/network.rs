//! A game over the network: the shared game screen, with the room code
//! or the invite before the board, the opponent, the connection, the
//! clocks, the rematch and the draw rule decided by lot in its panel.

use std::time::Duration;

use super::{Screen, ViewerScreen};
use crate::app::game_screen::{GameFrame, GameInput, GameView, Part, PlayerLine, game_screen};
use crate::app::i18n::{color_name, duration, t};
#[cfg(not(target_arch = "wasm32"))]
use crate::app::leaderboard_job;
#[cfg(not(target_arch = "wasm32"))]
use crate::app::network_game::NetStart;
use crate::app::network_game::{NetSnapshot, NetworkGame, log_bytes};
use crate::app::shared::Shared;
use crate::app::widgets::{ATTENTION, ERROR};
use crate::engine::{Bitboard, Color, Position};
use crate::net::room_code::RoomCode;
use crate::net::session::ColorQuestion;
use crate::net::transport::Route;

/// The network game on screen.
pub(in crate::app) struct NetworkScreen {
    game: NetworkGame,
    view: GameView,
    /// The last position seen, and the discs its move turned (for the
    /// flip animation).
    seen: Option<(Position, Bitboard, crate::platform::Instant)>,
}

impl NetworkScreen {
    /// Shows `game`.
    pub fn new(game: NetworkGame) -> NetworkScreen {
        NetworkScreen {
            game,
            view: GameView::default(),
            seen: None,
        }
    }

    /// The game's state now.
    pub fn snapshot(&self) -> NetSnapshot {
        self.game.snapshot()
    }

    /// Whether the game waits for the player's move.
    pub fn my_turn(&self) -> bool {
        self.game.my_turn()
    }

    /// Draws the game; the next screen when the player leaves it.
    pub fn ui(&mut self, ctx: &egui::Context, shared: &mut Shared) -> Option<Screen> {
        let host_name = shared.settings.name.clone();
        // A name never chosen stays out of the invite link.
        let link_name = if shared.settings.asked_name {
            host_name.clone()
        } else {
            String::new()
        };
        let game = &self.game;
        let snap = game.snapshot();
        // Discs that changed colour since the last position seen turn over.
        if let Some(position) = &snap.position
            && self.seen.as_ref().is_none_or(|(p, _, _)| p != position)
        {
            let flipped = self.seen.as_ref().map_or(0, |(before, _, _)| {
                (before.discs(Color::Black).0 & position.discs(Color::White).0)
                    | (before.discs(Color::White).0 & position.discs(Color::Black).0)
            });
            self.seen = Some((
                *position,
                crate::engine::Bitboard(flipped),
                crate::platform::Instant::now(),
            ));
        }
        let me = PlayerLine {
            name: host_name.clone(),
            ..PlayerLine::default()
        };
        let opponent = PlayerLine {
            name: snap
                .opponent
                .as_ref()
                .map_or_else(|| t!("net-opponent"), |(name, _)| name.clone()),
            ..PlayerLine::default()
        };
        let players = match snap.my_color {
            Some(Color::White) => [opponent, me],
            _ => [me, opponent],
        };
        let animations = shared.settings.animations;
        let frame = GameFrame {
            heading: t!("net-heading"),
            start: snap.start,
            position: snap.position,
            legal: match &snap.position {
                Some(position) if snap.my_turn => position.legal_moves(),
                _ => Default::default(),
            },
            last: snap.moves.last().copied(),
            flipped: self
                .seen
                .as_ref()
                .filter(|_| animations)
                .map(|(_, flipped, at)| (*flipped, at.elapsed())),
            outcome: snap.outcome,
            me: snap.my_color,
            players,
            moves: snap.moves.clone(),
            notices: snap.notices.clone(),
            can_resign: snap.position.is_some() && snap.error.is_none(),
            animations,
            sound: shared.settings.sound,
            hint: None,
        };
        let mut submit: Option<std::path::PathBuf> = None;
        let mut rematch: Option<(std::path::PathBuf, bool)> = None;
        let mut analyse: Option<crate::app::log_viewer::ViewedLog> = None;
        let message = &mut shared.message;
        #[cfg(not(target_arch = "wasm32"))]
        let (leaderboard, leaderboard_idle, leaderboard_said) = (
            shared.settings.leaderboard,
            shared.leaderboard.idle(),
            shared.leaderboard.said.as_deref(),
        );
        let input = game_screen(ctx, &frame, &mut self.view, &mut |ui, part| match part {
            Part::Top => {
                // Before the board, the code has the middle of the window.
                if let Some(code) = snap.code.as_ref().filter(|_| snap.position.is_some()) {
                    let code = typed_code(code);
                    ui.label(t!("net-room-code"));
                    ui.add(
                        egui::Label::new(egui::RichText::new(code).monospace()).selectable(true),
                    );
                }
                if snap.outcome.is_some() {
                    // An ended game is not reconnected: say it ended.
                    ui.label(t!("net-ended"));
                    if let Some((name, _)) = &snap.opponent {
                        ui.label(t!("net-opponent-is", name = name.as_str()));
                    }
                    return;
                }
                ui.label(t!("net-status", status = snap.status.words()));
                if let Some(watch) = &snap.watch_code
                    && ui
                        .button(t!("net-copy-watch-code"))
                        .on_hover_text(watch.as_str())
                        .clicked()
                {
                    ui.ctx().copy_text(watch.clone());
                }
                if let Some((name, fingerprint)) = &snap.opponent {
                    ui.label(t!(
                        "net-opponent-key",
                        name = name.as_str(),
                        key = fingerprint.as_str()
                    ));
                    if let (Some(code), Some(words)) = (&snap.safety_code, &snap.safety_words) {
                        ui.label(t!("net-safety-words", words = words.as_str()))
                            .on_hover_text(t!("net-safety-why", code = code.as_str()));
                    }
                    ui.label(match (snap.connected(), snap.route) {
                        (true, Some(Route::Direct)) => t!("net-connected-direct"),
                        (true, Some(Route::Relayed)) => t!("net-connected-relayed"),
                        (true, None) => t!("net-connected"),
                        (false, _) => t!("net-offline"),
                    });
                }
                if let Some(link @ crate::net::link::LinkStatus::Reconnecting { .. }) = snap.link {
                    if let crate::net::link::LinkStatus::Reconnecting { attempt, at } = link {
                        let secs = at
                            .saturating_duration_since(crate::platform::Instant::now())
                            .as_secs();
                        ui.label(t!("net-reconnect-attempt", attempt = attempt, secs = secs));
                    }
                    ui.ctx().request_repaint_after(Duration::from_millis(500));
                }
            }
            Part::Turn => {
                if snap.rematch_offered {
                    ui.colored_label(ATTENTION, t!("net-rematch-offered"));
                    ui.horizontal(|ui| {
                        if ui.button(t!("net-accept")).clicked() {
                            game.answer_rematch(true);
                        }
                        if ui.button(t!("net-decline")).clicked() {
                            game.answer_rematch(false);
                        }
                    });
                }
                if let Some(question) = snap.question {
                    ui.colored_label(
                        ATTENTION,
                        match question {
                            ColorQuestion::TieWinner => t!("net-choose-tie-winner"),
                            ColorQuestion::SeatColor => t!("net-choose-color"),
                        },
                    );
                    ui.horizontal(|ui| {
                        for color in Color::ALL {
                            if ui.button(color_name(color)).clicked() {
                                game.choose(color);
                            }
                        }
                    });
                } else if snap.opponent_choosing {
                    ui.label(t!("net-opponent-choosing"));
                }
                if let Some((mine, at)) = snap.deadline.filter(|_| snap.outcome.is_none()) {
                    let left = at.saturating_sub(crate::platform::now_ms()) / 1000;
                    let left = duration(left);
                    ui.label(if mine {
                        t!("net-your-clock", left = left)
                    } else {
                        t!("net-their-clock", left = left)
                    });
                    ui.ctx().request_repaint_after(Duration::from_secs(1));
                }
                if let Some(error) = &snap.error {
                    ui.colored_label(ERROR, error);
                }
            }
            Part::End => {
                let Some(log) = &snap.log else {
                    return;
                };
                #[cfg(not(target_arch = "wasm32"))]
                {
                    ui.label(t!("net-log-saved", path = log.display().to_string()));
                    if leaderboard && leaderboard_idle && ui.button(t!("net-submit")).clicked() {
                        submit = Some(log.clone());
                    }
                    if let Some(said) = leaderboard_said {
                        ui.label(said);
                    }
                    ui.horizontal(|ui| {
                        if ui.button(t!("net-rematch")).clicked() {
                            rematch = Some((log.clone(), true));
                        }
                        if ui.button(t!("net-wait-rematch")).clicked() {
                            rematch = Some((log.clone(), false));
                        }
                    });
                }
                // Read on a click only: the log is a file (or the
                // page's storage), not something to copy every frame.
                if ui.button(t!("analyse-game")).clicked() {
                    match log_bytes(log)
                        .as_deref()
                        .map(crate::app::log_viewer::view_log)
                    {
                        Some(Ok(viewed)) => analyse = Some(viewed),
                        Some(Err(e)) => *message = Some(e),
                        None => *message = Some(t!("net-no-log")),
                    }
                }
                if ui.button(t!("net-copy-ggf")).clicked() {
                    match log_bytes(log).as_deref().map(ggf_of_log) {
                        Some(Ok(ggf)) => ui.ctx().copy_text(ggf),
                        Some(Err(e)) => *message = Some(e),
                        None => *message = Some(t!("net-no-log")),
                    }
                }
                #[cfg(target_arch = "wasm32")]
                if ui.button(t!("net-download-log")).clicked() {
                    let name = format!("{}.log", log.display());
                    if let Some(Err(e)) =
                        log_bytes(log).map(|b| crate::platform::web::download(&name, &b))
                    {
                        *message = Some(e.to_string());
                    }
                }
            }
            Part::NoBoard => invite(ui, snap.code.as_deref(), &link_name),
        });
        let mut next = None;
        if let Some(viewed) = analyse {
            let path = snap
                .log
                .as_ref()
                .map_or(String::new(), |l| l.display().to_string());
            next = Some(Screen::Viewer(Box::new(ViewerScreen::analysed(
                viewed, path, ctx,
            ))));
        }
        match input {
            Some(GameInput::Play(square)) => game.play(square),
            Some(GameInput::Resign) => game.resign(),
            Some(GameInput::Home) => next = Some(Screen::home()),
            None => {}
        }
        #[cfg(not(target_arch = "wasm32"))]
        if let Some(log) = submit {
            shared.leaderboard_request(ctx, leaderboard_job::Request::Submit(log));
        }
        #[cfg(not(target_arch = "wasm32"))]
        if let Some((log, propose)) = rematch {
            next = shared.start_network(ctx, NetStart::Rematch { log, propose });
        }
        #[cfg(target_arch = "wasm32")]
        let _ = (submit.take(), rematch.take());
        next
    }
}

/// Before the board: the invite where the eye goes, the link (with a
/// QR code of it) and the code, large in the middle.
fn invite(ui: &mut egui::Ui, code: Option<&str>, host_name: &str) {
    ui.vertical_centered(|ui| {
        ui.add_space(ui.available_height() / 5.0);
        let Some(code) = code else {
            ui.label(t!("invite-board-appears"));
            return;
        };
        let link = code
            .parse::<RoomCode>()
            .ok()
            .and_then(|c| c.invite_link())
            .map(|link| crate::app::link::invite_from(link, host_name));
        let code = typed_code(code);
        let code = code.as_str();
        if let Some(link) = &link {
            ui.label(egui::RichText::new(t!("invite-send-link")).size(18.0));
            ui.add_space(8.0);
            ui.add(
                egui::Label::new(egui::RichText::new(link).size(20.0).monospace().strong())
                    .selectable(true)
                    .wrap(),
            );
            ui.add_space(8.0);
            crate::app::qr_view::qr_code(ui, link, 200.0);
            ui.small(t!("invite-phone"));
            ui.add_space(8.0);
            ui.label(t!("invite-or-code"));
        } else {
            ui.label(egui::RichText::new(t!("invite-read-code")).size(18.0));
        }
        ui.add_space(8.0);
        ui.add(
            egui::Label::new(egui::RichText::new(code).size(28.0).monospace().strong())
                .selectable(true),
        );
        ui.add_space(8.0);
        ui.horizontal(|ui| {
            // Centred: the two buttons' width is known.
            ui.add_space((ui.available_width() - 220.0).max(0.0) / 2.0);
            let button = |text| egui::Button::new(text).min_size(egui::vec2(100.0, 44.0));
            if ui.add(button(t!("invite-copy-code"))).clicked() {
                ui.ctx().copy_text(code.to_string());
            }
            if ui.add(button(t!("invite-copy-invite"))).clicked() {
                ui.ctx().copy_text(
                    link.clone()
                        .unwrap_or_else(|| t!("invite-text", code = code)),
                );
            }
        });
        ui.add_space(16.0);
        ui.label(if link.is_some() {
            t!("invite-link-how")
        } else {
            t!("invite-code-how")
        });
        ui.add_space(8.0);
        ui.small(t!("invite-what-the-code-protects"));
    });
}

/// The form of a kept code (see [`RoomCode::full`]) a person reads out.
fn typed_code(code: &str) -> String {
    code.parse::<RoomCode>()
        .map_or_else(|_| code.to_string(), |c| c.to_string())
}

/// The GGF text of a log, which must audit clean.
fn ggf_of_log(bytes: &[u8]) -> Result<String, String> {
    let (_, verifier) =
        crate::match_log::audit::audit_log_bytes(bytes).map_err(|e| e.to_string())?;
    Ok(crate::match_log::export::ggf(&verifier))
}
