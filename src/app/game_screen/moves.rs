//! The game's moves: replayed into positions, listed numbered in
//! Black/White pairs with passes, and stepped through (a click, the arrow
//! keys) while the game goes on.

use super::super::i18n::t;
use super::super::widgets::narrow;
use super::{BUTTON, GameView};
use crate::engine::{Color, Position, Square, format_transcript};

/// The game's positions and its moves as the list shows them.
#[derive(Default)]
pub(super) struct History {
    /// The position before the first move, then after each move.
    pub positions: Vec<Position>,
    /// Each move with its colour, and each pass (`None`) where the rules
    /// skipped a player.
    pub entries: Vec<(Color, Option<Square>, usize)>,
}

impl History {
    pub fn replay(start: Position, moves: &[Square]) -> History {
        let mut positions = vec![start];
        let mut entries = Vec::new();
        let mut position = start;
        for (i, &square) in moves.iter().enumerate() {
            let Ok(report) = position.play_with_report(square) else {
                break;
            };
            entries.push((report.mover, Some(square), i + 1));
            if let Some(skipped) = report.skipped {
                entries.push((skipped, None, i + 1));
            }
            position = report.position;
            positions.push(position);
        }
        History { positions, entries }
    }
}

/// Left and right step through the moves, Home and End go to the start
/// and back to the game, Escape returns to it. (The game screens have no
/// text field for the keys to go to.)
pub(super) fn step_with_keys(ctx: &egui::Context, view: &mut GameView, live: usize) {
    if live == 0 {
        return;
    }
    let (left, right, home, back) = ctx.input(|i| {
        (
            i.key_pressed(egui::Key::ArrowLeft),
            i.key_pressed(egui::Key::ArrowRight),
            i.key_pressed(egui::Key::Home),
            i.key_pressed(egui::Key::End) || i.key_pressed(egui::Key::Escape),
        )
    });
    let at = view.viewing.unwrap_or(live);
    let to = if back {
        live
    } else if home {
        0
    } else if left {
        at.saturating_sub(1)
    } else if right {
        (at + 1).min(live)
    } else {
        return;
    };
    view.viewing = (to < live).then_some(to);
}

/// Above the board while looking back: where, and the way back.
pub(super) fn looking_back_bar(ui: &mut egui::Ui, view: &mut GameView, k: usize, live: usize) {
    ui.horizontal(|ui| {
        if ui
            .add_enabled(
                k > 0,
                egui::Button::new("◀").min_size(egui::vec2(44.0, 36.0)),
            )
            .clicked()
        {
            view.viewing = Some(k - 1);
        }
        if ui
            .add(egui::Button::new("▶").min_size(egui::vec2(44.0, 36.0)))
            .clicked()
        {
            view.viewing = (k + 1 < live).then_some(k + 1);
        }
        ui.strong(t!("game-looking-back", move = k, of = live));
        if ui
            .add(egui::Button::new(t!("game-back-to-game")).min_size(BUTTON))
            .clicked()
        {
            view.viewing = None;
        }
    });
}

/// The moves, numbered, Black and White side by side, passes shown; a
/// click on one shows the position after it.
pub(super) fn move_list(ui: &mut egui::Ui, history: &History, view: &mut GameView) {
    ui.horizontal(|ui| {
        ui.strong(t!("game-moves"));
        if ui.small_button(t!("game-copy")).clicked() {
            let moves: Vec<Square> = history.entries.iter().filter_map(|e| e.1).collect();
            ui.ctx().copy_text(format_transcript(&moves));
        }
    });
    // A move (or a pass) and the number of moves after it, per colour.
    type Cell = Option<(Option<Square>, usize)>;
    let mut rows: Vec<[Cell; 2]> = Vec::new();
    for &(color, square, after) in &history.entries {
        let column = usize::from(color == Color::White);
        match rows.last_mut() {
            Some(row) if column == 1 && row[1].is_none() => row[1] = Some((square, after)),
            _ => {
                let mut row = [None, None];
                row[column] = Some((square, after));
                rows.push(row);
            }
        }
    }
    egui::ScrollArea::vertical()
        .max_height(if narrow(ui.ctx()) { 120.0 } else { 220.0 })
        .stick_to_bottom(true)
        .show(ui, |ui| {
            egui::Grid::new("moves")
                .num_columns(3)
                .striped(true)
                .show(ui, |ui| {
                    for (n, row) in rows.iter().enumerate() {
                        ui.label(format!("{}.", n + 1));
                        for cell in row {
                            match cell {
                                Some((Some(square), after)) => {
                                    let selected = view.viewing == Some(*after);
                                    if ui.selectable_label(selected, square.to_string()).clicked() {
                                        view.viewing = Some(*after);
                                    }
                                }
                                Some((None, _)) => {
                                    ui.weak(t!("game-pass"));
                                }
                                None => {
                                    ui.label("");
                                }
                            }
                        }
                        ui.end_row();
                    }
                });
        });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{RuleOptions, Rules, Setup, parse_transcript};

    #[test]
    fn the_history_pairs_moves_by_colour_and_shows_a_pass() {
        // White's lone disc on each edge row cannot be flanked back:
        // after c1 White has no move and is skipped.
        let cells = format!("XO{}XO{}", ".".repeat(54), ".".repeat(6));
        let setup: Setup = format!("{cells} X").parse().unwrap();
        let rules = Rules::new(RuleOptions::default(), setup).unwrap();
        let moves = parse_transcript("c1c8").unwrap();
        let history = History::replay(rules.start_position(), &moves);
        let sq = |s: &str| s.parse::<Square>().ok();
        assert_eq!(
            history.entries,
            vec![
                (Color::Black, sq("c1"), 1),
                (Color::White, None, 1),
                (Color::Black, sq("c8"), 2),
            ]
        );
        assert_eq!(history.positions.len(), 3);
        let opening = parse_transcript("f5d6c3").unwrap();
        let history = History::replay(
            Rules::preset(crate::engine::Preset::Othello).start_position(),
            &opening,
        );
        let colors: Vec<Color> = history.entries.iter().map(|e| e.0).collect();
        assert_eq!(colors, [Color::Black, Color::White, Color::Black]);
    }
}
