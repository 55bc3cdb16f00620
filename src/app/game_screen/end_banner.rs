//! The end of a game: a banner over the board with who won, the score and
//! how it ended, and what to do next, within reach on any screen.

use super::super::i18n::{color_name, ending, t};
use super::{GameFrame, GameInput, GameView, Part};
use crate::engine::{Outcome, format_transcript};

/// Where the button that shows the put-aside banner goes.
pub(super) fn banner_tab(board: egui::Rect) -> egui::Rect {
    egui::Rect::from_center_size(
        egui::pos2(board.center().x, board.max.y - 30.0),
        egui::vec2(160.0, 36.0),
    )
}

/// The result over the board: who won, the score, how it ended, and what
/// to do next. Returns Home when that is chosen.
pub(super) fn end_banner(
    ui: &mut egui::Ui,
    board: egui::Rect,
    outcome: &Outcome,
    frame: &GameFrame,
    view: &mut GameView,
    extra: &mut dyn FnMut(&mut egui::Ui, Part),
) -> Option<GameInput> {
    let verdict = match (outcome.winner, frame.me) {
        (None, _) => t!("end-draw"),
        (Some(w), Some(m)) if w == m => t!("end-you-win"),
        (Some(_), Some(_)) => t!("end-you-lose"),
        (Some(w), None) => t!("end-wins", color = color_name(w)),
    };
    let width = (board.width() * 0.86).min(420.0);
    let area = egui::Rect::from_center_size(board.center(), egui::vec2(width, board.height()));
    let mut input = None;
    let mut child = ui.new_child(
        egui::UiBuilder::new()
            .max_rect(area)
            .layout(egui::Layout::top_down(egui::Align::Center)),
    );
    child.add_space((board.height() * 0.22).max(8.0));
    egui::Frame::popup(child.style())
        .inner_margin(egui::Margin::same(16))
        .corner_radius(10.0)
        .show(&mut child, |ui| {
            ui.set_width(width - 32.0);
            ui.vertical_centered(|ui| {
                ui.label(egui::RichText::new(&verdict).size(34.0).strong());
                ui.label(
                    egui::RichText::new(t!(
                        "end-score",
                        black = outcome.score.black,
                        white = outcome.score.white
                    ))
                    .size(22.0),
                );
                ui.label(ending(outcome.ending));
                ui.add_space(8.0);
                ui.horizontal_wrapped(|ui| {
                    extra(ui, Part::End);
                    if ui.button(t!("end-copy-transcript")).clicked() {
                        ui.ctx().copy_text(format_transcript(&frame.moves));
                    }
                    if ui.button(t!("end-see-board")).clicked() {
                        view.banner_hidden = true;
                    }
                    if ui.button(t!("game-home")).clicked() {
                        input = Some(GameInput::Home);
                    }
                });
            });
        });
    input
}
