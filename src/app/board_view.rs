//! The board widget: the squares with their names in a margin around
//! them, discs with an edge and a shine, the legal moves (only when the
//! viewer may play), the last move, a hint ringed with its value, walls,
//! and on hover the disc a move would place with the discs it would turn.
//! A move's discs turn over in order, from the placed disc outwards. Every
//! square is an accessible button labelled with its name (`f5`), so tests
//! and screen readers can find it.

use std::time::Duration;

use egui::{Color32, Pos2, Rect, Sense, Stroke, Vec2, WidgetInfo, WidgetType};

use crate::engine::{Bitboard, Color, Position, Square};
use crate::search::Score;

/// What to draw besides the discs.
#[derive(Debug, Clone, Copy, Default)]
pub struct BoardMarks {
    /// Squares the viewer may click.
    pub legal: Bitboard,
    /// The square of the last move played, if there is one to mark.
    pub last: Option<Square>,
    /// A move to point out (the best move, in an analysis).
    pub best: Option<Square>,
    /// A hint: the move ringed, its value written beside it.
    pub hint: Option<(Square, Score)>,
    /// The discs the last move turned, and how long ago it was played:
    /// each turns over in its turn, the nearest to [`last`](Self::last) first.
    pub flipping: Option<(Bitboard, Duration)>,
    /// Whether clicks on other squares than the legal ones are reported
    /// (as [`BoardClick::Refused`]), so the player can be told why.
    pub explain_refusals: bool,
}

/// A click on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoardClick {
    /// A legal move.
    Play(Square),
    /// A square that is not a legal move now.
    Refused(Square),
}

const GREEN: Color32 = Color32::from_rgb(0x1f, 0x7a, 0x3c);
const WALL: Color32 = Color32::from_rgb(0x55, 0x4a, 0x3a);
/// A legal move's dot: light enough on the green for a contrast of at
/// least 3:1 (see the test).
const LEGAL_DOT: Color32 = Color32::from_rgb(0xc4, 0xe6, 0xcc);
/// The hint's ring and value.
const HINT: Color32 = Color32::from_rgb(0x7f, 0xd4, 0xff);

/// How long one disc takes to turn over.
const TURN_TIME: Duration = Duration::from_millis(260);
/// How much later each step further from the placed disc starts turning.
const TURN_STAGGER: Duration = Duration::from_millis(70);

/// The margin around the squares, where their names go, for a board
/// `side` points wide.
fn margin(side: f32) -> f32 {
    (side * 0.03).clamp(10.0, 22.0)
}

/// How long the flips of a move take to finish, from the moment it was
/// played, when they turn over one ring after another from `from`.
pub fn flips_duration(flipped: Bitboard, from: Option<Square>) -> Duration {
    let farthest = flipped
        .squares()
        .map(|s| distance(from, s))
        .max()
        .unwrap_or(0);
    TURN_TIME + TURN_STAGGER * farthest.saturating_sub(1)
}

/// Steps from `from` to `square` (a king's moves), 1 without a `from`.
fn distance(from: Option<Square>, square: Square) -> u32 {
    from.map_or(1, |f| {
        let dx = (i32::from(f.column()) - i32::from(square.column())).unsigned_abs();
        let dy = (i32::from(f.row()) - i32::from(square.row())).unsigned_abs();
        dx.max(dy)
    })
}

/// How far the disc on `square` has turned (0 → 1), if it is turning.
fn turned(marks: &BoardMarks, square: Square) -> Option<f32> {
    let (discs, elapsed) = marks.flipping?;
    if !discs.contains(square) {
        return None;
    }
    let start = TURN_STAGGER * distance(marks.last, square).saturating_sub(1);
    let t = elapsed.saturating_sub(start).as_secs_f32() / TURN_TIME.as_secs_f32();
    (t < 1.0).then_some(t)
}

/// Draws `position`, centred in the width there is, and returns a click
/// on it, if there was one the marks ask for.
pub fn board(ui: &mut egui::Ui, position: &Position, marks: BoardMarks) -> Option<BoardClick> {
    board_at(ui, position, marks).0
}

/// As [`board`], also returning where the board was drawn.
pub fn board_at(
    ui: &mut egui::Ui,
    position: &Position,
    marks: BoardMarks,
) -> (Option<BoardClick>, Rect) {
    let space = ui.available_rect_before_wrap();
    let side = space.width().min(space.height()).max(160.0);
    let left = space.min.x + ((space.width() - side) / 2.0).max(0.0);
    let outer = Rect::from_min_size(Pos2::new(left, space.min.y), Vec2::splat(side));
    ui.allocate_rect(outer, Sense::hover());
    let band = margin(side);
    let cell = (side - 2.0 * band) / 8.0;
    let rect = Rect::from_min_size(outer.min + Vec2::splat(band), Vec2::splat(cell * 8.0));
    let painter = ui.painter_at(outer);
    painter.rect_filled(outer, 6.0, Color32::from_rgb(0x2b, 0x3a, 0x2e));
    painter.rect_filled(rect, 2.0, GREEN);
    if let Some((_, elapsed)) = marks.flipping
        && elapsed < flips_duration(marks.flipping.map_or(Bitboard(0), |f| f.0), marks.last)
    {
        ui.ctx().request_repaint();
    }
    let mover = position.to_move();
    let mut clicked = None;
    let mut preview = None;
    for square in Square::all() {
        let min = rect.min
            + Vec2::new(
                f32::from(square.column()) * cell,
                f32::from(square.row()) * cell,
            );
        let cell_rect = Rect::from_min_size(min, Vec2::splat(cell));
        let id = ui.id().with(("square", square.index()));
        let legal = marks.legal.contains(square);
        let sense = if legal || marks.explain_refusals {
            Sense::click()
        } else {
            Sense::hover()
        };
        let response = ui.interact(cell_rect, id, sense);
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
            draw_disc(&painter, centre, cell, color, turned(&marks, square), 255);
        } else if legal {
            if response.hovered() {
                preview = Some(square);
            } else {
                painter.circle_filled(centre, cell * 0.11, LEGAL_DOT);
            }
        }
        if marks.best == Some(square) {
            painter.circle_stroke(centre, cell * 0.3, Stroke::new(3.0, Color32::LIGHT_BLUE));
        }
        if marks.last == Some(square) {
            painter.circle_filled(centre, cell * 0.07, Color32::from_rgb(0xe0, 0x40, 0x40));
        }
        if response.clicked() {
            clicked = Some(if legal {
                BoardClick::Play(square)
            } else {
                BoardClick::Refused(square)
            });
        }
    }
    // The move under the pointer: its disc, translucent, and a ring on
    // each disc it would turn.
    if let (Some(square), Some(color)) = (preview, mover)
        && let Ok(report) = position.play_with_report(square)
    {
        draw_disc(
            &painter,
            centre_of(rect, cell, square),
            cell,
            color,
            None,
            110,
        );
        for flipped in report.flipped.squares() {
            painter.circle_stroke(
                centre_of(rect, cell, flipped),
                cell * 0.2,
                Stroke::new(2.0, disc_fill(color).gamma_multiply(0.8)),
            );
        }
    }
    if let Some((square, score)) = marks.hint {
        let centre = centre_of(rect, cell, square);
        painter.circle_stroke(centre, cell * 0.44, Stroke::new(3.0, HINT));
        painter.text(
            centre + Vec2::new(0.0, cell * 0.3),
            egui::Align2::CENTER_CENTER,
            signed_score(score),
            egui::FontId::proportional((cell * 0.24).max(10.0)),
            HINT,
        );
    }
    // Column and row names in the margin.
    let font = egui::FontId::proportional((band * 0.85).clamp(9.0, 16.0));
    let ink = Color32::from_gray(200);
    for i in 0..8u8 {
        let along = (f32::from(i) + 0.5) * cell;
        let letter = ((b'a' + i) as char).to_string();
        for y in [rect.min.y - band / 2.0, rect.max.y + band / 2.0] {
            let at = Pos2::new(rect.min.x + along, y);
            painter.text(at, egui::Align2::CENTER_CENTER, &letter, font.clone(), ink);
        }
        for x in [rect.min.x - band / 2.0, rect.max.x + band / 2.0] {
            let at = Pos2::new(x, rect.min.y + along);
            painter.text(at, egui::Align2::CENTER_CENTER, i + 1, font.clone(), ink);
        }
    }
    (clicked, outer)
}

/// The centre of `square`'s cell.
fn centre_of(rect: Rect, cell: f32, square: Square) -> Pos2 {
    rect.min
        + Vec2::new(
            (f32::from(square.column()) + 0.5) * cell,
            (f32::from(square.row()) + 0.5) * cell,
        )
}

/// A score in a few characters, in discs: `+4` (exact), `-12.5` (an
/// estimate, to a tenth).
pub(super) fn signed_score(score: Score) -> String {
    match score {
        Score::Exact(v) => format!("{v:+}"),
        Score::Estimate(v) => format!("{:+.1}", f64::from(v) / 100.0),
    }
}

fn disc_fill(color: Color) -> Color32 {
    match color {
        Color::Black => Color32::from_gray(24),
        Color::White => Color32::from_gray(238),
    }
}

/// A disc with a shadow, an edge and a shine, squeezed horizontally while
/// it turns over (`turning` 0 → 1; the new colour shows in the second
/// half); `alpha` below 255 for a preview.
fn draw_disc(
    painter: &egui::Painter,
    centre: Pos2,
    cell: f32,
    color: Color,
    turning: Option<f32>,
    alpha: u8,
) {
    let radius = cell * 0.4;
    let (shown, squeeze) = match turning {
        Some(t) if t < 0.5 => (!color, 1.0 - 2.0 * t),
        Some(t) => (color, 2.0 * t - 1.0),
        None => (color, 1.0),
    };
    let fade = |c: Color32| c.gamma_multiply(f32::from(alpha) / 255.0);
    let half = Vec2::new((radius * squeeze).max(1.0), radius);
    let shadow = Rect::from_center_size(centre + Vec2::splat(cell * 0.04), half * 2.0);
    painter.rect_filled(shadow, radius, fade(Color32::from_black_alpha(90)));
    let rect = Rect::from_center_size(centre, half * 2.0);
    let edge = match shown {
        Color::Black => Color32::from_gray(70),
        Color::White => Color32::from_gray(150),
    };
    painter.rect_filled(rect, radius, fade(disc_fill(shown)));
    painter.rect_stroke(
        rect,
        radius,
        Stroke::new((cell * 0.03).max(1.0), fade(edge)),
        egui::StrokeKind::Inside,
    );
    let shine = Rect::from_center_size(
        centre - Vec2::new(half.x * 0.3, radius * 0.35),
        Vec2::new(half.x * 0.7, radius * 0.45),
    );
    let light = match shown {
        Color::Black => Color32::from_white_alpha(28),
        Color::White => Color32::from_white_alpha(120),
    };
    painter.rect_filled(shine, radius * 0.3, fade(light));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The relative luminance of an sRGB colour (WCAG 2).
    fn luminance(c: Color32) -> f64 {
        let channel = |v: u8| {
            let v = f64::from(v) / 255.0;
            if v <= 0.04045 {
                v / 12.92
            } else {
                ((v + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * channel(c.r()) + 0.7152 * channel(c.g()) + 0.0722 * channel(c.b())
    }

    fn contrast(a: Color32, b: Color32) -> f64 {
        let (a, b) = (luminance(a), luminance(b));
        (a.max(b) + 0.05) / (a.min(b) + 0.05)
    }

    #[test]
    fn legal_moves_and_the_hint_stand_out_from_the_board_by_three_to_one() {
        assert!(
            contrast(LEGAL_DOT, GREEN) >= 3.0,
            "{}",
            contrast(LEGAL_DOT, GREEN)
        );
        assert!(contrast(HINT, GREEN) >= 3.0, "{}", contrast(HINT, GREEN));
        // The old dot, black at 70/255 over the green, did not.
        let dim = |v: u8| (u16::from(v) * 185 / 255) as u8;
        let old = Color32::from_rgb(dim(0x1f), dim(0x7a), dim(0x3c));
        assert!(contrast(old, GREEN) < 3.0);
    }

    #[test]
    fn discs_turn_from_the_placed_disc_outwards() {
        let sq = |s: &str| s.parse::<Square>().unwrap();
        let flipped = Bitboard(sq("e4").bit() | sq("e5").bit() | sq("e6").bit());
        let marks = BoardMarks {
            last: Some(sq("e3")),
            flipping: Some((flipped, Duration::from_millis(100))),
            ..BoardMarks::default()
        };
        let near = turned(&marks, sq("e4")).unwrap();
        let middle = turned(&marks, sq("e5")).unwrap();
        let far = turned(&marks, sq("e6")).unwrap();
        assert!(near > middle && middle > far, "{near} {middle} {far}");
        assert_eq!(turned(&marks, sq("a1")), None);
        let total = flips_duration(flipped, Some(sq("e3")));
        assert_eq!(total, TURN_TIME + TURN_STAGGER * 2);
        let done = BoardMarks {
            flipping: Some((flipped, total)),
            ..marks
        };
        assert_eq!(turned(&done, sq("e6")), None, "all turned by the end");
    }

    #[test]
    fn a_hint_reads_as_a_short_signed_number() {
        assert_eq!(signed_score(Score::Exact(4)), "+4");
        assert_eq!(signed_score(Score::Estimate(-1250)), "-12.5");
    }
}
