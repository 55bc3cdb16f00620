//! The evaluation's error against exact scores it never saw: the WTHOR
//! archive's theoretical scores (Black's discs under perfect play from each
//! tournament game's position at 24 empties, computed by the French
//! federation), on the fixed test tenth of the games that no fit may use.
//!
//! ```text
//! cargo run --release --example wthor_accuracy -- [DIR] [--weights FILE] [--unseen-by DATA]
//! ```
//!
//! `DIR` holds the `WTH_*.wtb` files (default `../shared/data/wthor`; the
//! federation publishes them at <https://www.ffothello.org/informatique/la-base-wthor/>).
//! The test set: every game whose 1-based number in its file is a multiple
//! of ten (`in_wthor_test_set`), reaching 24 empties with a side to move. For
//! each, the static evaluation of that position for the side to move,
//! against the theoretical score turned into the side to move's disc
//! difference; the error in discs, rms and mean absolute, for the shipped
//! pattern weights, for the weights in `FILE` if given (a candidate from
//! `train_patterns`), and for the linear evaluation. Games that do not read
//! (an illegal move, a byte that is no square) are named and skipped.
//! `--unseen-by DATA` leaves out the test positions that the training data
//! file `DATA` (a `plane.bin`) holds in any orientation: another game
//! reached them, so a fit on that file may have seen their score.
//! `--depth D` measures as well the shipped weights searched 1 to `D`
//! plies deep (Multi-ProbCut on, as the levels search), on one test
//! position in `K` (`--sample K`, default 10) and for the static
//! evaluation on the same positions: how good labels from such searches
//! would be, against exact scores.

use std::path::PathBuf;
use std::time::Instant;

use reversi::engine::topology::Plane;
use reversi::search::midgame::{INFINITY, Midgame};
use reversi::search::patterns::{self, PatternWeights};
use reversi::search::transposition::Table;
use reversi::search::{Budget, eval, probcut};

#[path = "shared/data_format.rs"]
#[allow(dead_code)]
mod data_format;
#[path = "shared/wthor_test.rs"]
mod wthor_test;

const USAGE: &str =
    "usage: wthor_accuracy [DIR] [--weights FILE] [--unseen-by DATA] [--depth D [--sample K]]";

fn main() {
    let mut dir = PathBuf::from("../shared/data/wthor");
    let mut candidate = None;
    let mut unseen_by = None;
    let (mut depth, mut sample) = (0u32, 10usize);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--depth" || arg == "--sample" {
            let Some(n) = args.next().and_then(|v| v.parse::<u32>().ok()) else {
                eprintln!("{arg}: a number is needed\n{USAGE}");
                std::process::exit(2);
            };
            if arg == "--depth" {
                if n > 30 {
                    eprintln!("--depth: {n} is not a depth from 1 to 30\n{USAGE}");
                    std::process::exit(2);
                }
                depth = n;
            } else {
                sample = n.max(1) as usize;
            }
        } else if arg == "--unseen-by" {
            let Some(path) = args.next() else {
                eprintln!("{USAGE}");
                std::process::exit(2);
            };
            unseen_by = Some(PathBuf::from(path));
        } else if arg == "--weights" {
            let Some(path) = args.next() else {
                eprintln!("{USAGE}");
                std::process::exit(2);
            };
            let decoded = std::fs::read(&path)
                .map_err(|e| e.to_string())
                .and_then(|bytes| PatternWeights::decode(&bytes).map_err(|e| e.to_string()));
            match decoded {
                Ok(weights) => candidate = Some((path, weights)),
                Err(e) => {
                    eprintln!("{path}: {e}");
                    std::process::exit(2);
                }
            }
        } else {
            dir = PathBuf::from(arg);
        }
    }
    let started = Instant::now();
    let mut set = match wthor_test::load(&dir) {
        Ok(set) => set,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let mut left_out = None;
    if let Some(data) = &unseen_by {
        match set.leave_out_seen_in(data) {
            Ok(n) => left_out = Some((data, n)),
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(2);
            }
        }
    }
    println!(
        "{} files from {}: {} games read, {} skipped, in {:.1?}",
        set.files,
        dir.display(),
        set.games,
        set.skipped,
        started.elapsed()
    );
    println!(
        "test set: every tenth game, its position at 24 empties against the theoretical score"
    );
    if let Some((data, (n, exact))) = left_out {
        println!(
            "  less {n} positions that {} holds ({exact} of them labelled exactly): other games reach them",
            data.display()
        );
    }
    if let Some(shipped) = patterns::weights() {
        let errors = set.errors(|board| shipped.evaluate::<Plane>(board));
        println!("{}", errors.line("shipped patterns"));
    }
    if let Some((path, weights)) = &candidate {
        println!(
            "{}",
            set.errors(|board| weights.evaluate::<Plane>(board))
                .line(path)
        );
    }
    let linear = set.errors(|board| eval::weights().value(&eval::features::<Plane>(board)));
    println!("{}", linear.line("linear evaluation"));
    if depth > 0 {
        searched(&set, depth, sample);
    }
}

/// Prints the errors of the shipped weights searched 1 to `depth` plies
/// deep on one test position in `sample`, with the static evaluation's on
/// the same positions.
fn searched(set: &wthor_test::TestSet, depth: u32, sample: usize) {
    let positions: Vec<_> = set.positions.iter().step_by(sample).collect();
    println!(
        "searched, on {} positions (one in {sample}), Multi-ProbCut on:",
        positions.len()
    );
    let mut errors: Vec<wthor_test::Errors> = (0..=depth).map(|_| Default::default()).collect();
    let mut table = Table::new(20);
    let budget = Budget::nodes(0);
    let started = Instant::now();
    for p in &positions {
        table.clear();
        let mut search = Midgame::<Plane>::new(&table, &budget, 0).selective(probcut::SELECTIVITY);
        errors[0].add(f64::from(eval::evaluate::<Plane>(&p.board)) / 100.0 - p.label);
        for d in 1..=depth {
            let value = search.pvs(&p.board, d, -INFINITY, INFINITY);
            errors[d as usize].add(f64::from(value) / 100.0 - p.label);
        }
    }
    for (d, e) in errors.iter().enumerate() {
        println!("{}", e.line(&format!("depth {d}")));
    }
    println!("  in {:.0?}", started.elapsed());
}
