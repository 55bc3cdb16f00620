//! The evaluation's error against exact scores it never saw: the WTHOR
//! archive's theoretical scores (Black's discs under perfect play from each
//! tournament game's position at 24 empties, computed by the French
//! federation), on the fixed test tenth of the games that no fit may use.
//!
//! ```text
//! cargo run --release --example wthor_accuracy -- [DIR]
//! ```
//!
//! `DIR` holds the `WTH_*.wtb` files (default `../shared/data/wthor`; the
//! federation publishes them at <https://www.ffothello.org/informatique/la-base-wthor/>).
//! The test set: every game whose 1-based number in its file is a multiple
//! of ten (`in_wthor_test_set`), reaching 24 empties with a side to move. For
//! each, the static evaluation of that position for the side to move,
//! against the theoretical score turned into the side to move's disc
//! difference; the error in discs, rms and mean absolute, for the shipped
//! pattern weights and for the linear evaluation. Games that do not read
//! (an illegal move, a byte that is no square) are named and skipped.

use std::path::{Path, PathBuf};
use std::time::Instant;

use reversi::engine::Color;
use reversi::engine::game_archive::{ArchivedGame, read_wthor};
use reversi::engine::topology::Plane;
use reversi::search::board::Board;
use reversi::search::{eval, patterns};

#[path = "shared/data_format.rs"]
mod data_format;
use data_format::in_wthor_test_set;

/// Errors in discs, summed.
#[derive(Default)]
struct Errors {
    count: usize,
    squared: f64,
    absolute: f64,
}

impl Errors {
    fn add(&mut self, error: f64) {
        self.count += 1;
        self.squared += error * error;
        self.absolute += error.abs();
    }

    fn line(&self, name: &str) -> String {
        let n = self.count.max(1) as f64;
        format!(
            "{name:<22} rms {:>5.2} discs, mean absolute {:>5.2} discs ({} positions)",
            (self.squared / n).sqrt(),
            self.absolute / n,
            self.count
        )
    }
}

/// The theoretical score as the side to move's disc difference, and the
/// position, if the game reached its depth with a side to move.
fn labelled(game: &ArchivedGame) -> Option<(Board, f64)> {
    let theoretical = game.theoretical?;
    let position = game.at_empties(u32::from(theoretical.empties))?;
    let to_move = position.to_move()?;
    let black = 2.0 * f64::from(theoretical.black_discs) - 64.0;
    let label = if to_move == Color::Black {
        black
    } else {
        -black
    };
    Some((Board::from_position(&position)?, label))
}

fn main() {
    let dir = std::env::args()
        .nth(1)
        .map_or_else(|| PathBuf::from("../shared/data/wthor"), PathBuf::from);
    let mut files: Vec<PathBuf> = match std::fs::read_dir(&dir) {
        Ok(entries) => entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with("WTH_") && n.ends_with(".wtb"))
            })
            .collect(),
        Err(e) => {
            eprintln!(
                "{}: {e}\nThe WTHOR files are published by the French Othello federation: https://www.ffothello.org/informatique/la-base-wthor/",
                dir.display()
            );
            std::process::exit(2);
        }
    };
    files.sort();
    let started = Instant::now();
    let (mut games, mut skipped, mut shown) = (0usize, 0usize, 0usize);
    let mut shipped = Errors::default();
    let mut linear = Errors::default();
    let patterns = patterns::weights();
    for path in &files {
        let name = path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let bytes = match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(e) => {
                eprintln!("{name}: {e}");
                continue;
            }
        };
        let archive = match read_wthor(&bytes) {
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
                    skipped += 1;
                    if shown < 20 {
                        eprintln!("{name}: {e}");
                        shown += 1;
                    }
                    continue;
                }
            };
            games += 1;
            if !in_wthor_test_set(i + 1) {
                continue;
            }
            let Some((board, label)) = labelled(&game) else {
                continue;
            };
            if let Some(weights) = patterns {
                shipped.add(f64::from(weights.evaluate::<Plane>(&board)) / 100.0 - label);
            }
            let value = eval::weights().value(&eval::features::<Plane>(&board));
            linear.add(f64::from(value) / 100.0 - label);
        }
    }
    println!(
        "{} files from {}: {games} games read, {skipped} skipped, in {:.1?}",
        files.len(),
        Path::new(&dir).display(),
        started.elapsed()
    );
    println!(
        "test set: every tenth game, its position at 24 empties against the theoretical score"
    );
    if patterns.is_some() {
        println!("{}", shipped.line("shipped patterns"));
    }
    println!("{}", linear.line("linear evaluation"));
}
