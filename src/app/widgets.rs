//! Layout helpers every screen uses: the phone layout's threshold, Home's
//! cards, the big button, the score line, and the colours of messages.

use crate::engine::Position;

/// Below this width (in points) the app lays itself out for a phone held
/// upright: the board across the whole width, the game's panel under it,
/// and controls a finger can hit.
const NARROW: f32 = 600.0;

/// The colour of what went wrong.
pub(super) const ERROR: egui::Color32 = egui::Color32::from_rgb(0xe0, 0x60, 0x60);

/// The colour of what needs the player's action.
pub(super) const ATTENTION: egui::Color32 = egui::Color32::from_rgb(0xe0, 0xb0, 0x40);

/// Whether the window (or the phone's screen) is narrow.
pub(super) fn narrow(ctx: &egui::Context) -> bool {
    ctx.screen_rect().width() < NARROW
}

/// Controls at least 44 points high on a narrow (touch) screen, and at
/// least 28 with a mouse.
pub(super) fn fit_controls_to_screen(ctx: &egui::Context) {
    let (height, padding) = if narrow(ctx) {
        (44.0, egui::vec2(14.0, 12.0))
    } else {
        let default = egui::style::Spacing::default();
        (default.interact_size.y, default.button_padding)
    };
    if ctx.style().spacing.interact_size.y != height {
        ctx.style_mut(|style| {
            style.spacing.interact_size.y = height;
            style.spacing.button_padding = padding;
        });
    }
}

/// How wide one of Home's two cards is.
pub(super) const CARD_WIDTH: f32 = 300.0;

/// One of Home's cards: a framed group of a fixed width.
pub(super) fn card(ui: &mut egui::Ui, contents: impl FnOnce(&mut egui::Ui)) {
    egui::Frame::group(ui.style())
        .inner_margin(egui::Margin::same(16))
        .corner_radius(8.0)
        .show(ui, |ui| {
            ui.set_width(CARD_WIDTH);
            ui.vertical_centered(contents);
        });
    ui.add_space(8.0);
}

/// A button people cannot miss.
pub(super) fn big_button(ui: &mut egui::Ui, text: &str) -> egui::Response {
    ui.add(
        egui::Button::new(egui::RichText::new(text).size(24.0).strong())
            .min_size(egui::vec2(CARD_WIDTH, 72.0)),
    )
}

/// The disc counts in one line.
pub(super) fn counts_line(ui: &mut egui::Ui, position: &Position) {
    let counts = position.counts();
    ui.label(super::i18n::t!(
        "counts",
        black = counts.black,
        white = counts.white
    ));
}
