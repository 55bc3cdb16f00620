//! A game against the computer: the shared game screen, with the level,
//! the computer's thinking and hints in its panel.

use super::{Screen, ViewerScreen};
use crate::app::board_view::{flips_duration, signed_score};
use crate::app::game_screen::{self, GameInput, GameView, Part, PlayerLine};
use crate::app::i18n::{color_word, level_name, t};
use crate::app::local_game::LocalGame;
use crate::app::log_viewer::ViewedLog;
use crate::app::settings::{SavedGame, option_strings};
use crate::app::shared::Shared;
use crate::app::status::AppStatus;
use crate::app::widgets::ERROR;
use crate::engine::{Color, format_transcript};
use crate::search::Score;

/// The game against the computer on screen.
pub(in crate::app) struct LocalScreen {
    /// The game being played: its rules, position and moves.
    pub game: LocalGame,
    view: GameView,
}

impl LocalScreen {
    /// Shows `game`.
    pub fn new(game: LocalGame) -> LocalScreen {
        LocalScreen {
            game,
            view: GameView::default(),
        }
    }

    /// Draws the game; the next screen when the player leaves it.
    pub fn ui(&mut self, ctx: &egui::Context, shared: &mut Shared) -> Option<Screen> {
        let animations = shared.settings.animations;
        let game = &mut self.game;
        game.move_time =
            std::time::Duration::from_secs(shared.settings.move_time_secs.clamp(1, 30).into());
        game.book = shared.settings.book;
        let wake = ctx.clone();
        let flips = match game.flipped {
            Some((flipped, _)) if animations => flips_duration(flipped, game.last_move()),
            _ => std::time::Duration::ZERO,
        };
        let hold = flips + std::time::Duration::from_millis(shared.settings.pace_ms.into());
        if let Some(due) = game.poll_bot(move || wake.request_repaint(), hold) {
            ctx.request_repaint_after(due);
        }
        let outcome = game.outcome();
        let thinking = game.bot_thinking();
        let you = PlayerLine {
            name: shared.settings.name.clone(),
            ..PlayerLine::default()
        };
        let computer = PlayerLine {
            name: t!("local-computer"),
            detail: Some(t!(
                "local-level",
                level = game.level,
                name = level_name(game.level)
            )),
            thinking,
        };
        let players = match game.human {
            Color::Black => [you, computer],
            Color::White => [computer, you],
        };
        let frame = game_screen::GameFrame {
            heading: t!("local-heading"),
            start: Some(game.rules.start_position()),
            position: Some(game.position),
            legal: if game.human_to_move() {
                game.position.legal_moves()
            } else {
                Default::default()
            },
            last: game.last_move(),
            flipped: game
                .flipped
                .filter(|_| animations)
                .map(|(b, t)| (b, t.elapsed())),
            outcome,
            me: Some(game.human),
            players,
            moves: game.moves.clone(),
            notices: game.notices.clone(),
            can_resign: outcome.is_none(),
            animations,
            sound: shared.settings.sound,
            hint: game
                .current_hint()
                .filter(|_| outcome.is_none() && game.human_to_move())
                .map(|t| (t.best, t.score)),
        };
        let seed = shared.seed;
        let mut next = None;
        let input =
            game_screen::game_screen(ctx, &frame, &mut self.view, &mut |ui, part| match part {
                Part::Top => {}
                Part::Turn => {
                    if let Some(failure) = &game.failure {
                        ui.colored_label(ERROR, t!("local-cannot-move", why = failure.as_str()));
                    }
                    if outcome.is_none() && game.human_to_move() {
                        if let Some(hint) = game.current_hint() {
                            let square = hint.best.to_string();
                            let value = signed_score(hint.score);
                            ui.label(match hint.score {
                                Score::Exact(_) => t!("hint-exact", square = square, value = value),
                                Score::Estimate(_) => {
                                    t!("hint-estimate", square = square, value = value)
                                }
                            });
                        } else if game.hint_pending() {
                            ui.label(t!("hint-looking"));
                        } else if ui
                            .add(egui::Button::new(t!("hint")).min_size(egui::vec2(120.0, 36.0)))
                            .clicked()
                        {
                            let wake = ui.ctx().clone();
                            game.request_hint(move || wake.request_repaint());
                        }
                    }
                }
                Part::End => {
                    if ui.button(t!("local-rematch")).clicked() {
                        next = Some(Screen::Local(Box::new(LocalScreen::new(LocalGame::new(
                            game.rules,
                            !game.human,
                            game.level,
                            seed.wrapping_add(1),
                        )))));
                    }
                    if ui.button(t!("analyse-game")).clicked() {
                        let summary = vec![t!(
                            "local-summary",
                            color = color_word(game.human),
                            level = game.level
                        )];
                        let viewed = ViewedLog::from_game(game.rules, &game.moves, summary);
                        next = Some(Screen::Viewer(Box::new(ViewerScreen::analysed(
                            viewed,
                            String::new(),
                            ui.ctx(),
                        ))));
                    }
                }
                Part::NoBoard => {}
            });
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

    /// Whether the game waits for the player's move.
    pub fn my_turn(&self) -> bool {
        self.game.outcome().is_none() && self.game.human_to_move()
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
        status.my_turn = self.my_turn();
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
