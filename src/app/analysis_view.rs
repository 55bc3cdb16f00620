//! Game analysis in the window: one search job per move, run away from
//! the window (a background thread, or the page's search worker) one after
//! the other, and a graph of the evaluation move by move with the mistakes
//! marked. A click on the graph or on a listed mistake picks that move.

use egui::{Color32, Pos2, Sense, Stroke, Vec2};

use super::board_view::signed_score;
use super::i18n::{color_word, t};
use crate::analysis::{Mark, MoveAnalysis};
use crate::engine::{Position, Rules, Square};
use crate::platform::{Thinking, think};
use crate::search::Score;
use crate::thinking::{Task, ThinkJob};

/// Midgame depth of the window's analysis (quick on a phone too).
pub const DEPTH: u8 = 6;
/// Exact from this many empties.
pub const EXACT_EMPTIES: u8 = 16;

/// An analysis in progress or done.
pub struct AnalysisJob {
    rules: Rules,
    moves: Vec<Square>,
    positions: Vec<Position>,
    /// The moves analysed so far, in order.
    pub done: Vec<MoveAnalysis>,
    waiting: Option<Thinking>,
    /// Why it stopped early, if it did.
    pub error: Option<String>,
}

fn score_of(exact: bool, value: i32) -> Score {
    if exact {
        Score::Exact(value)
    } else {
        Score::Estimate(value)
    }
}

impl AnalysisJob {
    /// Starts analysing `moves` (with `positions[i]` the position before
    /// move `i`).
    pub fn start(
        rules: Rules,
        moves: Vec<Square>,
        positions: Vec<Position>,
        ctx: &egui::Context,
    ) -> AnalysisJob {
        let mut job = AnalysisJob {
            rules,
            moves,
            positions,
            done: Vec::new(),
            waiting: None,
            error: None,
        };
        job.next(ctx);
        job
    }

    /// Whether every move is analysed (or it stopped with an error).
    pub fn finished(&self) -> bool {
        self.waiting.is_none()
    }

    fn next(&mut self, ctx: &egui::Context) {
        let i = self.done.len();
        if i >= self.moves.len() || self.error.is_some() {
            self.waiting = None;
            return;
        }
        let task = Task::Values {
            depth: DEPTH,
            exact_empties: EXACT_EMPTIES,
            played: self.moves[i].index(),
        };
        let job = ThinkJob::new(&self.rules, &self.moves[..i], task);
        let ctx = ctx.clone();
        self.waiting = Some(think(job, move || ctx.request_repaint()));
    }

    /// Takes an answer if one came, and asks for the next move's.
    pub fn poll(&mut self, ctx: &egui::Context) {
        let Some(rx) = &self.waiting else { return };
        let answer = match rx.try_recv() {
            Ok(answer) => answer,
            Err(std::sync::mpsc::TryRecvError::Empty) => return,
            Err(std::sync::mpsc::TryRecvError::Disconnected) => {
                self.error = Some("the analysis stopped".into());
                self.waiting = None;
                return;
            }
        };
        let i = self.done.len();
        let position = self.positions[i];
        let parsed = answer.map_err(|e| e.to_string()).and_then(|a| {
            let best = a.best.and_then(Square::new).ok_or("no best move")?;
            let (exact, value) = a.played.ok_or("no value for the move played")?;
            MoveAnalysis::new(
                i + 1,
                &position,
                self.moves[i],
                score_of(exact, value),
                best,
                score_of(a.exact, a.score),
            )
            .ok_or_else(|| "the game was over".to_string())
        });
        match parsed {
            Ok(m) => self.done.push(m),
            Err(e) => self.error = Some(format!("move {}: {e}", i + 1)),
        }
        self.next(ctx);
    }

    /// The number of moves to analyse.
    pub fn total(&self) -> usize {
        self.moves.len()
    }
}

fn discs(score: Score) -> f32 {
    score.centidiscs() as f32 / 100.0
}

fn mark_colour(mark: Option<Mark>) -> Option<Color32> {
    match mark? {
        Mark::Inaccuracy => Some(Color32::from_rgb(0xe0, 0xb0, 0x40)),
        Mark::Mistake => Some(Color32::from_rgb(0xe0, 0x70, 0x30)),
        Mark::Blunder => Some(Color32::from_rgb(0xd0, 0x30, 0x30)),
    }
}

/// Draws the graph (Black's view: up is good for Black) and the list of
/// marked moves; returns the move number clicked.
pub fn graph(ui: &mut egui::Ui, job: &AnalysisJob, selected: Option<usize>) -> Option<usize> {
    let mut picked = None;
    let width = ui.available_width().clamp(200.0, 720.0);
    let (rect, response) = ui.allocate_exact_size(Vec2::new(width, 140.0), Sense::click());
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 4.0, ui.visuals().extreme_bg_color);
    let total = job.total().max(1) as f32;
    let scale = job
        .done
        .iter()
        .map(|m| discs(m.black_view()).abs())
        .fold(8.0f32, f32::max)
        .min(64.0);
    let point = |i: usize, m: &MoveAnalysis| {
        let x = rect.left() + 6.0 + (rect.width() - 12.0) * (i as f32 + 0.5) / total;
        let y = rect.center().y - (rect.height() / 2.0 - 8.0) * discs(m.black_view()) / scale;
        Pos2::new(x, y)
    };
    painter.line_segment(
        [
            Pos2::new(rect.left(), rect.center().y),
            Pos2::new(rect.right(), rect.center().y),
        ],
        Stroke::new(1.0, Color32::GRAY),
    );
    let points: Vec<Pos2> = job
        .done
        .iter()
        .enumerate()
        .map(|(i, m)| point(i, m))
        .collect();
    painter.add(egui::Shape::line(
        points.clone(),
        Stroke::new(2.0, ui.visuals().text_color()),
    ));
    for (m, p) in job.done.iter().zip(&points) {
        if let Some(colour) = mark_colour(m.mark) {
            painter.circle_filled(*p, 4.5, colour);
        }
        if selected == Some(m.number) {
            painter.circle_stroke(*p, 7.0, Stroke::new(2.0, Color32::LIGHT_BLUE));
        }
    }
    if response.clicked()
        && let Some(at) = response.interact_pointer_pos()
    {
        picked = points
            .iter()
            .enumerate()
            .min_by(|a, b| (a.1.x - at.x).abs().total_cmp(&(b.1.x - at.x).abs()))
            .map(|(i, _)| i + 1);
    }
    ui.label(t!("analysis-graph", scale = format!("{scale:.0}")));
    if !job.finished() {
        ui.label(t!("analysis-working", move = job.done.len() + 1, of = job.total()));
    } else if let Some(e) = &job.error {
        ui.colored_label(Color32::from_rgb(0xe0, 0x60, 0x60), e);
    } else {
        ui.label(t!("analysis-done", depth = DEPTH, empties = EXACT_EMPTIES));
    }
    ui.horizontal_wrapped(|ui| {
        for m in job.done.iter().filter(|m| m.mark.is_some()) {
            let kind = m.mark.map_or_else(String::new, mark_name);
            let text = format!(
                "{} {} {kind} −{:.1}",
                m.number,
                m.square,
                f64::from(m.loss) / 100.0
            );
            if ui.button(text).clicked() {
                picked = Some(m.number);
            }
        }
    });
    picked
}

/// The words for one analysed move.
pub fn describe(m: &MoveAnalysis) -> String {
    let text = |s: Score| match s {
        Score::Exact(_) => t!("analysis-exact", value = signed_score(s)),
        Score::Estimate(_) => signed_score(s),
    };
    let mark = m
        .mark
        .map_or(String::new(), |k| format!(" — {}", mark_name(k)));
    let line = t!(
        "analysis-move",
        number = m.number,
        color = color_word(m.color),
        square = m.square.to_string(),
        value = text(m.score),
        best = m.best.to_string(),
        best_value = text(m.best_score),
        lost = format!("{:.1}", f64::from(m.loss) / 100.0)
    );
    format!("{line}{mark}")
}

/// A mark's name in the player's language.
fn mark_name(mark: Mark) -> String {
    match mark {
        Mark::Inaccuracy => t!("analysis-inaccuracy"),
        Mark::Mistake => t!("analysis-mistake"),
        Mark::Blunder => t!("analysis-blunder"),
    }
}
