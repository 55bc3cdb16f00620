//! Step one of training on real games: every position of the WTHOR games
//! outside the test set, of the PLAYOK games and of Logistello's book,
//! deduplicated under the board's eight symmetries, written in the
//! training data format (`examples/shared/data_format.rs`) unlabelled, for
//! the labelling steps; and how many positions each source gives per
//! phase.
//!
//! ```text
//! cargo run --release --example real_positions -- [--data ../shared/data] --dir DIR [--every N]
//! ```
//!
//! The position at 24 empties of each WTHOR tournament game outside the
//! test set carries the federation's theoretical score: it is written
//! labelled, exact (`EXACT`), so no step spends time on it. `--every N`
//! keeps the other positions of one game in N of each source (a sample
//! for a machine that cannot label them all); the theoretical positions
//! are kept whatever N.
//!
//! `--data` holds `wthor/*.wtb` and `logistello/logbook.gam.gz` (see the
//! book, `docs/src/computer/real-games.md`). The WTHOR test set (every tenth game of each
//! tournament file, `examples/wthor_accuracy.rs`) is left out entirely, and
//! so is its position at 24 empties when another game reaches it (in any
//! orientation), so no fit sees it. A game that does not read is named and skipped. A
//! position seen in an earlier game (in any orientation) is not written
//! again; each game's new positions are written together, empties
//! falling, as `train_patterns` expects. The file is written whole to
//! `DIR/plane.bin.tmp` and renamed with its `DIR/plane.progress` at the
//! end (about a minute here): a run cut short leaves no partial file.

use std::collections::{HashMap, HashSet};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use reversi::engine::game_archive::{ArchivedGame, GameError, read_gam, read_wthor};
use reversi::engine::{Color, Position};
use reversi::search::symmetry::canonical;

#[path = "shared/logbook.rs"]
mod logbook;
use logbook::read_logbook;
#[path = "shared/data_format.rs"]
mod data_format;
use data_format::{EXACT, MAGIC, UNLABELLED, in_wthor_test_set};

/// The sources, in the order they are read (earlier ones keep a shared
/// position).
const SOURCES: [&str; 3] = ["WTHOR tournaments", "PLAYOK 2023", "Logistello"];

/// The side to move's discs and the other side's, if someone is to move.
fn sides(position: &Position) -> Option<(u64, u64)> {
    let to_move = position.to_move()?;
    let other = if to_move == Color::Black {
        Color::White
    } else {
        Color::Black
    };
    Some((position.discs(to_move).0, position.discs(other).0))
}

struct Counts {
    games: [usize; 3],
    skipped: [usize; 3],
    /// Positions kept, by source and empties.
    kept: [[usize; 61]; 3],
}

fn main() {
    const USAGE: &str = "usage: real_positions [--data DIR] --dir OUT [--every N]";
    let mut data = PathBuf::from("../shared/data");
    let mut dir = None;
    let mut every = 1usize;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match (arg.as_str(), args.next()) {
            ("--data", Some(v)) => data = PathBuf::from(v),
            ("--dir", Some(v)) => dir = Some(PathBuf::from(v)),
            ("--every", Some(v)) => match v.parse::<usize>() {
                Ok(n) if n >= 1 => every = n,
                _ => {
                    eprintln!("--every: a whole number of 1 or more, not {v:?}");
                    std::process::exit(2);
                }
            },
            _ => {
                eprintln!("{USAGE}");
                std::process::exit(2);
            }
        }
    }
    let Some(dir) = dir else {
        eprintln!("{USAGE}");
        std::process::exit(2);
    };
    if let Err(e) = run(&data, &dir, every) {
        eprintln!("real_positions: {e}");
        std::process::exit(1);
    }
}

/// The WTHOR files of `data`, sorted, each read whole with its name.
fn wthor_files(data: &Path) -> Result<Vec<(String, Vec<u8>)>, String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(data.join("wthor"))
        .map_err(|e| {
            format!(
                "{}: {e} (see docs/src/computer/real-games.md)",
                data.join("wthor").display()
            )
        })?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "wtb"))
        .collect();
    files.sort();
    files
        .iter()
        .map(|path| {
            let name = path
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
            let bytes = std::fs::read(path).map_err(|e| format!("{name}: {e}"))?;
            Ok((name, bytes))
        })
        .collect()
}

/// Each tournament game's position at its theoretical score's depth,
/// canonical, with that score as the side to move's disc difference, and
/// whether the game is in the test set.
fn theoretical_positions(files: &[(String, Vec<u8>)]) -> Vec<(bool, (u64, u64), i16)> {
    let mut out = Vec::new();
    for (_, bytes) in files {
        let Ok(archive) = read_wthor(bytes) else {
            continue;
        };
        if archive.header().depth == 0 {
            continue;
        }
        for (i, game) in archive.games().enumerate() {
            let Some((position, label)) = game.ok().and_then(|g| g.theoretical_label()) else {
                continue;
            };
            if let Some((player, opponent)) = sides(&position) {
                out.push((
                    in_wthor_test_set(i + 1),
                    canonical(player, opponent),
                    label as i16,
                ));
            }
        }
    }
    out
}

fn run(data: &Path, dir: &Path, every: usize) -> Result<(), String> {
    let started = Instant::now();
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let files = wthor_files(data)?;
    // The test positions are marked as seen from the start, so never
    // written: a training game that reaches one must not carry it (or its
    // score) into the fit. The other theoretical scores label their
    // positions (the first game to reach a position gives its score).
    let mut seen: HashSet<(u64, u64)> = HashSet::new();
    let mut labels: HashMap<(u64, u64), i16> = HashMap::new();
    for (in_test, key, label) in theoretical_positions(&files) {
        if in_test {
            seen.insert(key);
        } else {
            labels.entry(key).or_insert(label);
        }
    }
    let test_count = seen.len();
    let mut labelled = 0usize;
    let tmp = dir.join("plane.bin.tmp");
    let file = std::fs::File::create(&tmp).map_err(|e| format!("{}: {e}", tmp.display()))?;
    let mut out = BufWriter::new(file);
    out.write_all(MAGIC).map_err(|e| e.to_string())?;
    let mut counts = Counts {
        games: [0; 3],
        skipped: [0; 3],
        kept: [[0; 61]; 3],
    };
    let mut record = |source: usize, game: Result<ArchivedGame, GameError>, name: &str| {
        let sampled = counts.games[source].is_multiple_of(every);
        let game = match game {
            Ok(game) => game,
            Err(e) => {
                if counts.skipped[source] < 10 {
                    eprintln!("{name}: {e}");
                }
                counts.skipped[source] += 1;
                return Ok(());
            }
        };
        counts.games[source] += 1;
        for position in game.positions() {
            let Some((player, opponent)) = sides(&position) else {
                continue;
            };
            let key = canonical(player, opponent);
            // A test position is in `seen` from the start, so skipped here.
            let label = labels.get(&key);
            if !(sampled || label.is_some()) || !seen.insert(key) {
                continue;
            }
            counts.kept[source][position.empty().count() as usize] += 1;
            let mut bytes = [0u8; 20];
            bytes[..8].copy_from_slice(&player.to_le_bytes());
            bytes[8..16].copy_from_slice(&opponent.to_le_bytes());
            match label {
                Some(&label) => {
                    bytes[16..18].copy_from_slice(&label.to_le_bytes());
                    bytes[18] = EXACT;
                    labelled += 1;
                }
                None => bytes[18] = UNLABELLED,
            }
            out.write_all(&bytes).map_err(|e| e.to_string())?;
        }
        Ok::<(), String>(())
    };

    for (name, bytes) in &files {
        let archive = match read_wthor(bytes) {
            Ok(archive) => archive,
            Err(e) => {
                eprintln!("{name}: {e}");
                continue;
            }
        };
        let tournament = archive.header().depth > 0;
        let source = if tournament { 0 } else { 1 };
        for (i, game) in archive.games().enumerate() {
            // The test set of `wthor_accuracy`: never a training position.
            if tournament && in_wthor_test_set(i + 1) {
                continue;
            }
            record(source, game, name)?;
        }
    }
    let text = read_logbook(data)?;
    for game in read_gam(&text) {
        record(2, game, "logbook.gam")?;
    }
    out.flush().map_err(|e| e.to_string())?;
    drop(out);
    let bytes = std::fs::metadata(&tmp).map_err(|e| e.to_string())?.len();
    let games: usize = counts.games.iter().sum();
    std::fs::rename(&tmp, dir.join("plane.bin")).map_err(|e| e.to_string())?;
    std::fs::write(
        dir.join("plane.progress"),
        format!("games {games}\nbytes {bytes}\n"),
    )
    .map_err(|e| e.to_string())?;

    println!(
        "{} distinct positions from {games} games in {:.1?} → {} (the {test_count} test positions left out)",
        seen.len() - test_count,
        started.elapsed(),
        dir.join("plane.bin").display()
    );
    println!("{labelled} of them labelled exactly by a theoretical score (24 empties)");
    for (s, name) in SOURCES.iter().enumerate() {
        println!(
            "{name:<18} {:>7} games read, {:>4} skipped, {:>9} new positions",
            counts.games[s],
            counts.skipped[s],
            counts.kept[s].iter().sum::<usize>()
        );
    }
    println!("new positions by empties (and the share of each source):");
    for band in (0..=60usize).rev().step_by(4) {
        let range = band.saturating_sub(3)..=band;
        let per: Vec<usize> = (0..3)
            .map(|s| range.clone().map(|e| counts.kept[s][e]).sum())
            .collect();
        let all: usize = per.iter().sum();
        if all == 0 {
            continue;
        }
        let share = |n: usize| 100.0 * n as f64 / all as f64;
        println!(
            "  {:>2}–{:>2} empties {all:>9}: {:>3.0} % WTHOR, {:>3.0} % PLAYOK, {:>3.0} % Logistello",
            range.start(),
            range.end(),
            share(per[0]),
            share(per[1]),
            share(per[2])
        );
    }
    Ok(())
}
