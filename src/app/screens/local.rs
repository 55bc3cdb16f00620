//! A game against the computer: the shared game screen, with the level,
//! the computer's thinking and hints in its panel.

use super::{Screen, ViewerScreen};
use crate::app::game_screen::{self, GameInput, Part, TypedSquare};
use crate::app::local_game::LocalGame;
use crate::app::log_viewer::ViewedLog;
use crate::app::settings::{SavedGame, option_strings};
use crate::app::shared::Shared;
use crate::app::status::AppStatus;
use crate::app::widgets::ERROR;
use crate::engine::{Color, format_transcript};

/// The game against the computer on screen.
pub(in crate::app) struct LocalScreen {
    /// The game.
    pub game: LocalGame,
    typed: TypedSquare,
    confirm_resign: bool,
}

impl LocalScreen {
    /// Shows `game`.
    pub fn new(game: LocalGame) -> LocalScreen {
        LocalScreen {
            game,
            typed: TypedSquare::default(),
            confirm_resign: false,
        }
    }

    /// Draws the game; the next screen when the player leaves it.
    pub fn ui(&mut self, ctx: &egui::Context, shared: &mut Shared) -> Option<Screen> {
        let typed = self.typed.take(ctx);
        let animations = shared.settings.animations;
        let game = &mut self.game;
        game.move_time =
            std::time::Duration::from_secs(shared.settings.move_time_secs.clamp(1, 30).into());
        let wake = ctx.clone();
        game.poll_bot(move || wake.request_repaint());
        let outcome = game.outcome();
        let frame = game_screen::GameFrame {
            heading: "You vs the computer",
            position: Some(game.position),
            legal: if game.human_to_move() {
                game.position.legal_moves()
            } else {
                Default::default()
            },
            last: game.last_move(),
            flipped: game.flipped.map(|(b, t)| (b, t.elapsed())),
            outcome,
            me: Some(game.human),
            moves: game.moves.clone(),
            notices: game.notices.clone(),
            can_resign: outcome.is_none(),
        };
        let seed = shared.seed;
        let mut next = None;
        let input = game_screen::game_screen(
            ctx,
            &frame,
            typed,
            animations,
            &mut self.confirm_resign,
            &mut |ui, part| match part {
                Part::Top => {
                    ui.label(format!(
                        "You play {} · level {} ({})",
                        game.human,
                        game.level,
                        crate::bot::level_spec(game.level).name
                    ));
                }
                Part::Turn => {
                    if game.bot_thinking() {
                        ui.label("The computer is thinking…");
                    }
                    if let Some(failure) = &game.failure {
                        ui.colored_label(ERROR, format!("The computer cannot move: {failure}"));
                    }
                    if outcome.is_none() && game.human_to_move() {
                        if let Some(hint) = game.current_hint() {
                            ui.label(format!("Hint: {} {}", hint.best, hint.score));
                        } else if game.hint_pending() {
                            ui.label("Looking for a hint…");
                        } else if ui.button("Hint").clicked() {
                            let wake = ui.ctx().clone();
                            game.request_hint(move || wake.request_repaint());
                        }
                    }
                }
                Part::End => {
                    if ui.button("Analyse the game").clicked() {
                        let summary = vec![format!(
                            "You ({}) against the computer at level {}",
                            game.human, game.level
                        )];
                        let viewed = ViewedLog::from_game(game.rules, &game.moves, summary);
                        next = Some(Screen::Viewer(Box::new(ViewerScreen::analysed(
                            viewed,
                            String::new(),
                            ui.ctx(),
                        ))));
                    }
                    if ui.button("Rematch (colours swap)").clicked() {
                        next = Some(Screen::Local(Box::new(LocalScreen::new(LocalGame::new(
                            game.rules,
                            !game.human,
                            game.level,
                            seed.wrapping_add(1),
                        )))));
                    }
                }
                Part::NoBoard => {}
            },
        );
        match input {
            Some(GameInput::Play(square)) => {
                let _ = game.play(square);
            }
            Some(GameInput::Resign) => game.resign(),
            Some(GameInput::Home) => next = Some(Screen::home()),
            None => {}
        }
        next
    }

    /// The game as remembered between runs, while it is unfinished.
    pub fn saved(&self) -> Option<SavedGame> {
        let game = &self.game;
        game.outcome().is_none().then(|| SavedGame {
            options: option_strings(game.rules.options()),
            setup: game.rules.start().to_string(),
            moves: format_transcript(&game.moves),
            human_black: game.human == Color::Black,
            level: game.level,
        })
    }

    /// The game's part of the status.
    pub fn status(&self, status: &mut AppStatus) {
        let game = &self.game;
        let outcome = game.outcome();
        status.screen = "game";
        status.my_color = Some(game.human.name());
        status.to_move = game.position.to_move().map(Color::name);
        status.over = outcome.is_some();
        status.result = outcome.as_ref().map(crate::match_log::export::outcome_json);
        status.my_turn = outcome.is_none() && game.human_to_move();
        if status.my_turn {
            status.legal = game
                .position
                .legal_moves()
                .squares()
                .map(|s| s.to_string())
                .collect();
        }
        status.moves = format_transcript(&game.moves);
        status.thinking = game.bot_thinking();
        status.outcome = outcome.map(|o| o.to_string());
        if let Some(failure) = &game.failure {
            status.error = Some(failure.clone());
        }
    }
}
