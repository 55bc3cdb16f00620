//! The match-log viewer: a log opened (or dropped on the window) and
//! verified, stepped through move by move, and analysed in the background
//! as `reversi analyze` does.

use super::Screen;
use crate::app::analysis_view;
use crate::app::board_view::{BoardMarks, board};
use crate::app::i18n::t;
use crate::app::log_viewer::{self, ViewedLog};
use crate::app::status::AppStatus;
use crate::app::widgets::{ERROR, counts_line};

/// The viewer's state.
#[derive(Default)]
pub(in crate::app) struct ViewerScreen {
    /// The file's path (natively) or name (in the browser).
    path: String,
    /// The log, verified, or why it does not verify.
    log: Option<Result<ViewedLog, String>>,
    /// The number of moves shown played.
    step: usize,
    /// The analysis, once asked for.
    analysis: Option<Box<analysis_view::AnalysisJob>>,
}

impl ViewerScreen {
    /// The viewer showing a dropped log: its bytes in the browser, the file
    /// its path names on the desktop.
    pub fn dropped(file: &egui::DroppedFile) -> ViewerScreen {
        let (path, log) = match (&file.bytes, &file.path) {
            (Some(bytes), _) => (file.name.clone(), log_viewer::view_log(bytes)),
            #[cfg(not(target_arch = "wasm32"))]
            (None, Some(path)) => (path.display().to_string(), log_viewer::open_log(path)),
            _ => (file.name.clone(), Err(t!("viewer-unreadable"))),
        };
        ViewerScreen {
            path,
            log: Some(log),
            step: 0,
            analysis: None,
        }
    }

    /// The viewer on `viewed`, its analysis started.
    pub fn analysed(viewed: ViewedLog, path: String, ctx: &egui::Context) -> ViewerScreen {
        let positions = viewed.positions[..viewed.moves.len()].to_vec();
        let job =
            analysis_view::AnalysisJob::start(viewed.rules, viewed.moves.clone(), positions, ctx);
        ViewerScreen {
            path,
            log: Some(Ok(viewed)),
            step: 0,
            analysis: Some(Box::new(job)),
        }
    }

    /// Draws the viewer; Home when the player goes back.
    pub fn ui(&mut self, ui: &mut egui::Ui) -> Option<Screen> {
        let ViewerScreen {
            path,
            log,
            step,
            analysis,
        } = self;
        if let Some(job) = analysis.as_mut() {
            job.poll(ui.ctx());
        }
        ui.heading(t!("viewer-heading"));
        #[cfg(not(target_arch = "wasm32"))]
        ui.horizontal(|ui| {
            ui.label(t!("viewer-file"));
            ui.add(egui::TextEdit::singleline(path).desired_width(360.0));
            if ui.button(t!("home-open")).clicked() {
                *log = Some(log_viewer::open_log(std::path::Path::new(path.trim())));
                *step = 0;
                *analysis = None;
            }
        });
        #[cfg(target_arch = "wasm32")]
        if !path.is_empty() {
            ui.label(t!("viewer-file-named", path = path.as_str()));
        }
        ui.label(t!("viewer-drop"));
        let mut back = ui.button(t!("back")).clicked();
        match log {
            None => {}
            Some(Err(e)) => {
                ui.colored_label(ERROR, t!("viewer-does-not-verify", why = e.as_str()));
            }
            Some(Ok(viewed)) => {
                for line in &viewed.summary {
                    ui.label(line);
                }
                match analysis.as_deref() {
                    None => {
                        if !viewed.moves.is_empty() && ui.button(t!("analyse-game")).clicked() {
                            let positions = viewed.positions[..viewed.moves.len()].to_vec();
                            *analysis = Some(Box::new(analysis_view::AnalysisJob::start(
                                viewed.rules,
                                viewed.moves.clone(),
                                positions,
                                ui.ctx(),
                            )));
                        }
                    }
                    Some(job) => {
                        if let Some(number) = analysis_view::graph(ui, job, Some(*step + 1)) {
                            *step = number - 1;
                        }
                    }
                }
                ui.horizontal(|ui| {
                    if ui
                        .add_enabled(*step > 0, egui::Button::new(t!("viewer-previous")))
                        .clicked()
                    {
                        *step -= 1;
                    }
                    ui.label(t!("viewer-move-of", move = *step, of = viewed.moves.len()));
                    if ui
                        .add_enabled(
                            *step < viewed.moves.len(),
                            egui::Button::new(t!("viewer-next")),
                        )
                        .clicked()
                    {
                        *step += 1;
                    }
                });
                let position = viewed.positions[*step];
                let last = step.checked_sub(1).map(|i| viewed.moves[i]);
                counts_line(ui, &position);
                // The move played from here, as the analysis saw it.
                let here = analysis
                    .as_deref()
                    .and_then(|job| job.done.get(*step))
                    .copied();
                if let Some(m) = &here {
                    ui.label(analysis_view::describe(m));
                }
                board(
                    ui,
                    &position,
                    BoardMarks {
                        last,
                        best: here.map(|m| m.best),
                        ..BoardMarks::default()
                    },
                );
            }
        }
        if std::mem::take(&mut back) {
            return Some(Screen::home());
        }
        None
    }

    /// The viewer's part of the status.
    pub fn status(&self, status: &mut AppStatus) {
        status.screen = "viewer";
        status.viewed = self.log.as_ref().map(|log| match log {
            Ok(viewed) => viewed.summary.join("\n"),
            Err(e) => format!("Does not verify: {e}"),
        });
    }
}
