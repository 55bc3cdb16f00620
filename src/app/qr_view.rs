//! A QR code drawn with egui's painter, so a phone's camera opens an
//! invite link from the screen: dark modules on white, with the quiet
//! zone of four modules the standard asks for.

/// Draws `text` as a QR code `side` points square; `None` (and nothing
/// drawn) when the text is too long for one.
pub fn qr_code(ui: &mut egui::Ui, text: &str, side: f32) -> Option<egui::Response> {
    let code = qrcode::QrCode::new(text.as_bytes()).ok()?;
    let width = code.width();
    let dark = code.to_colors();
    const QUIET: usize = 4;
    let cells = (width + 2 * QUIET) as f32;
    let (rect, response) = ui.allocate_exact_size(egui::vec2(side, side), egui::Sense::hover());
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 0.0, egui::Color32::WHITE);
    // Whole pixels per module keep the edges sharp for a camera.
    let module = (side / cells).floor().max(1.0);
    let origin = rect.center() - egui::vec2(module * width as f32, module * width as f32) / 2.0;
    for (i, color) in dark.iter().enumerate() {
        if *color == qrcode::Color::Dark {
            let (x, y) = ((i % width) as f32, (i / width) as f32);
            let min = origin + egui::vec2(x * module, y * module);
            painter.rect_filled(
                egui::Rect::from_min_size(min.round(), egui::vec2(module, module)),
                0.0,
                egui::Color32::BLACK,
            );
        }
    }
    Some(response.on_hover_text(text))
}
