//! The WTHOR test set every training report is measured on: the position
//! at 24 empties of every tenth tournament game (`in_wthor_test_set`),
//! labelled with the federation's theoretical score as the side to move's
//! disc difference. No fit ever sees these games (`real_positions` leaves
//! them out).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use reversi::engine::game_archive::read_wthor;
use reversi::search::board::Board;

use super::data_format::{EXACT, MAGIC, RECORD, in_wthor_test_set, record_sides};
use reversi::search::symmetry::canonical;

/// A test position and its exact score for the side to move.
pub struct TestPosition {
    pub board: Board,
    pub label: f64,
}

/// What reading the archive found.
pub struct TestSet {
    pub positions: Vec<TestPosition>,
    pub files: usize,
    pub games: usize,
    pub skipped: usize,
}

/// Errors in discs, summed.
#[derive(Default)]
pub struct Errors {
    count: usize,
    squared: f64,
    absolute: f64,
}

impl Errors {
    pub fn add(&mut self, error: f64) {
        self.count += 1;
        self.squared += error * error;
        self.absolute += error.abs();
    }

    pub fn line(&self, name: &str) -> String {
        let n = self.count.max(1) as f64;
        format!(
            "{name:<22} rms {:>5.2} discs, mean absolute {:>5.2} discs ({} positions)",
            (self.squared / n).sqrt(),
            self.absolute / n,
            self.count
        )
    }
}

/// The `WTH_*.wtb` files of `dir`, sorted.
pub fn tournament_files(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| {
        format!(
            "{}: {e}\nThe WTHOR files are published by the French Othello federation: https://www.ffothello.org/informatique/la-base-wthor/",
            dir.display()
        )
    })?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("WTH_") && n.ends_with(".wtb"))
        })
        .collect();
    files.sort();
    Ok(files)
}

/// Reads the test set from the WTHOR files of `dir`. A file or game that
/// does not read is named on stderr (the first 20) and skipped.
pub fn load(dir: &Path) -> Result<TestSet, String> {
    let files = tournament_files(dir)?;
    let mut set = TestSet {
        positions: Vec::new(),
        files: files.len(),
        games: 0,
        skipped: 0,
    };
    for path in &files {
        let name = path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let archive = match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(e) => {
                eprintln!("{name}: {e}");
                continue;
            }
        };
        let archive = match read_wthor(&archive) {
            Ok(archive) => archive,
            Err(e) => {
                eprintln!("{name}: {e}");
                continue;
            }
        };
        for (i, game) in archive.games().enumerate() {
            let game = match game {
                Ok(game) => game,
                Err(e) => {
                    if set.skipped < 20 {
                        eprintln!("{name}: {e}");
                    }
                    set.skipped += 1;
                    continue;
                }
            };
            set.games += 1;
            if !in_wthor_test_set(i + 1) {
                continue;
            }
            let Some((position, label)) = game.theoretical_label() else {
                continue;
            };
            if let Some(board) = Board::from_position(&position) {
                set.positions.push(TestPosition {
                    board,
                    label: f64::from(label),
                });
            }
        }
    }
    Ok(set)
}

impl TestSet {
    /// The errors of an evaluation (in hundredths of a disc, for the side
    /// to move) against the theoretical scores.
    pub fn errors(&self, evaluate: impl Fn(&Board) -> i32) -> Errors {
        let mut errors = Errors::default();
        for p in &self.positions {
            errors.add(f64::from(evaluate(&p.board)) / 100.0 - p.label);
        }
        errors
    }

    /// Leaves out the test positions that a training data file holds (in
    /// any orientation): a fit on that file has seen them, and perhaps
    /// their score. How many were left out, and how many of those the file
    /// holds with an exact label.
    #[allow(dead_code)]
    pub fn leave_out_seen_in(&mut self, data: &Path) -> Result<(usize, usize), String> {
        let bytes = std::fs::read(data).map_err(|e| format!("{}: {e}", data.display()))?;
        if !bytes.starts_with(MAGIC) {
            return Err(format!("{}: not a training data file", data.display()));
        }
        let seen: HashMap<(u64, u64), bool> = bytes[MAGIC.len()..]
            .chunks_exact(RECORD)
            .map(|r| {
                let (player, opponent) = record_sides(r);
                (canonical(player, opponent), r[18] == EXACT)
            })
            .collect();
        let before = self.positions.len();
        let mut exact = 0;
        self.positions.retain(
            |p| match seen.get(&canonical(p.board.player, p.board.opponent)) {
                Some(&is_exact) => {
                    exact += usize::from(is_exact);
                    false
                }
                None => true,
            },
        );
        Ok((before - self.positions.len(), exact))
    }
}
