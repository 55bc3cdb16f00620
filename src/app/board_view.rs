//! The board widget: scales to the space it gets, marks legal moves (only
//! when the viewer may play), the last move, walls, and flips discs with a
//! short animation. Every square is an accessible button labelled with its
//! name (`f5`), so tests and screen readers can find it.

use egui::{Color32, Pos2, Rect, Sense, Stroke, Vec2, WidgetInfo, WidgetType};

use crate::engine::{Bitboard, Color, Position, Square};

/// What to draw besides the discs.
#[derive(Debug, Clone, Copy, Default)]
pub struct BoardMarks {
    /// Squares the viewer may click.
    pub legal: Bitboard,
    /// The last move.
    pub last: Option<Square>,
    /// A move to point out (the best move, in an analysis).
    pub best: Option<Square>,
    /// Discs turning over, and how far along (0 → 1).
    pub flipping: Option<(Bitboard, f32)>,
}

const GREEN: Color32 = Color32::from_rgb(0x1f, 0x7a, 0x3c);
const WALL: Color32 = Color32::from_rgb(0x55, 0x4a, 0x3a);

/// Draws `position` and returns the square clicked, if a legal one was.
pub fn board(ui: &mut egui::Ui, position: &Position, marks: BoardMarks) -> Option<Square> {
    let side = ui.available_width().min(ui.available_height()).max(160.0);
    let (rect, _) = ui.allocate_exact_size(Vec2::splat(side), Sense::hover());
    let cell = side / 8.0;
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 4.0, GREEN);
    let mut clicked = None;
    for square in Square::all() {
        let min = rect.min
            + Vec2::new(
                f32::from(square.column()) * cell,
                f32::from(square.row()) * cell,
            );
        let cell_rect = Rect::from_min_size(min, Vec2::splat(cell));
        let id = ui.id().with(("square", square.index()));
        let legal = marks.legal.contains(square);
        let response = ui.interact(
            cell_rect,
            id,
            if legal {
                Sense::click()
            } else {
                Sense::hover()
            },
        );
        let name = square.to_string();
        response.widget_info(|| WidgetInfo::labeled(WidgetType::Button, legal, &name));
        painter.rect_stroke(
            cell_rect,
            0.0,
            Stroke::new(1.0, Color32::from_black_alpha(90)),
            egui::StrokeKind::Inside,
        );
        let centre = cell_rect.center();
        if position.walls().contains(square) {
            painter.rect_filled(cell_rect.shrink(2.0), 2.0, WALL);
            continue;
        }
        let disc = [Color::Black, Color::White]
            .into_iter()
            .find(|&c| position.discs(c).contains(square));
        if let Some(color) = disc {
            draw_disc(
                &painter,
                centre,
                cell,
                color,
                marks
                    .flipping
                    .filter(|(b, _)| b.contains(square))
                    .map(|(_, t)| t),
            );
        } else if legal {
            let hover = response.hovered();
            painter.circle_filled(
                centre,
                cell * if hover { 0.2 } else { 0.1 },
                Color32::from_black_alpha(if hover { 120 } else { 70 }),
            );
        }
        if marks.best == Some(square) {
            painter.circle_stroke(centre, cell * 0.3, Stroke::new(3.0, Color32::LIGHT_BLUE));
        }
        if marks.last == Some(square) {
            painter.circle_filled(centre, cell * 0.07, Color32::from_rgb(0xe0, 0x40, 0x40));
        }
        if legal && response.clicked() {
            clicked = Some(square);
        }
    }
    // Column and row names along the edges.
    for i in 0..8u8 {
        let font = egui::FontId::proportional((cell * 0.22).max(9.0));
        let x = rect.min.x + (f32::from(i) + 0.5) * cell;
        painter.text(
            Pos2::new(x, rect.min.y + 2.0),
            egui::Align2::CENTER_TOP,
            (b'a' + i) as char,
            font.clone(),
            Color32::from_white_alpha(120),
        );
        let y = rect.min.y + (f32::from(i) + 0.5) * cell;
        painter.text(
            Pos2::new(rect.min.x + 3.0, y),
            egui::Align2::LEFT_CENTER,
            i + 1,
            font,
            Color32::from_white_alpha(120),
        );
    }
    clicked
}

/// A disc, squeezed horizontally while it turns over (`turning` 0 → 1; the
/// new colour shows in the second half).
fn draw_disc(painter: &egui::Painter, centre: Pos2, cell: f32, color: Color, turning: Option<f32>) {
    let radius = cell * 0.4;
    let (shown, squeeze) = match turning {
        Some(t) if t < 0.5 => (!color, 1.0 - 2.0 * t),
        Some(t) => (color, 2.0 * t - 1.0),
        None => (color, 1.0),
    };
    let fill = match shown {
        Color::Black => Color32::from_gray(20),
        Color::White => Color32::from_gray(240),
    };
    let half = Vec2::new((radius * squeeze).max(1.0), radius);
    let rect = Rect::from_center_size(centre, half * 2.0);
    painter.rect_filled(rect, radius, fill);
}
