//! Step two of training on real games: the exact score of every
//! unlabelled position with at most `--empties` empty squares in a data
//! file (`examples/real_positions.rs` writes one), by this project's own
//! solver, written into the file in place (label and source `EXACT`).
//!
//! ```text
//! cargo run --release --example label_exact -- --dir DIR [--empties 18] [--threads 2]
//! ```
//!
//! Resumable: `DIR/exact.progress` holds how many records have been
//! scanned for which `--empties` and every label before that point is on
//! disk, so a run
//! stopped at any moment (even killed) goes on from there and redoes at
//! most one batch. Progress (positions solved, their rate, the estimated
//! time left) is printed after each batch. Fewest empties first would
//! finish the cheap positions early, but the file's order (by game) is
//! kept so that the progress is one number. A run with another
//! `--empties` than the progress names scans from the start again (the
//! positions already exact are passed over at no cost).

use std::fs::OpenOptions;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use reversi::engine::Topology;
use reversi::search::board::{Board, UNLIMITED};
use reversi::search::{Budget, Searcher};

#[path = "shared/data_format.rs"]
mod data_format;
use data_format::{EXACT, MAGIC, RECORD, UNLABELLED, record_sides};

/// Records scanned between two progress updates.
const BATCH: usize = 20_000;

struct Args {
    dir: PathBuf,
    empties: u32,
    threads: usize,
}

fn args() -> Result<Args, String> {
    let mut args = Args {
        dir: PathBuf::new(),
        empties: 18,
        threads: 2,
    };
    let mut given = std::env::args().skip(1);
    while let Some(flag) = given.next() {
        let value = given.next().ok_or(format!("{flag} needs a value"))?;
        let number = || value.parse::<usize>().map_err(|e| format!("{flag}: {e}"));
        match flag.as_str() {
            "--dir" => args.dir = PathBuf::from(&value),
            "--empties" => args.empties = number()?.clamp(1, 24) as u32,
            "--threads" => args.threads = number()?.clamp(1, 64),
            _ => return Err(format!("unknown flag {flag}")),
        }
    }
    if args.dir.as_os_str().is_empty() {
        return Err("usage: label_exact --dir DIR [--empties 18] [--threads 2]".into());
    }
    Ok(args)
}

/// How many records a run labelling up to `empties` has scanned: what the
/// progress file says if it names the same limit, else 0 (a progress for
/// fewer empties says nothing of the positions between them).
fn read_progress(path: &Path, empties: u32) -> Result<usize, String> {
    match std::fs::read_to_string(path) {
        Ok(text) => {
            let words: Vec<&str> = text.split_ascii_whitespace().collect();
            match words.as_slice() {
                ["scanned", n, "empties", e] => {
                    let n: usize = n
                        .parse()
                        .map_err(|_| format!("{}: `{n}` is not a count", path.display()))?;
                    Ok(if e.parse() == Ok(empties) { n } else { 0 })
                }
                // Written before the limit was recorded: for which limit
                // is unknown.
                ["scanned", _] => Ok(0),
                _ => Err(format!(
                    "{}: expected `scanned N empties E`",
                    path.display()
                )),
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(0),
        Err(e) => Err(format!("{}: {e}", path.display())),
    }
}

fn main() {
    if let Err(e) = args().and_then(|args| run(&args)) {
        eprintln!("label_exact: {e}");
        std::process::exit(1);
    }
}

fn run(args: &Args) -> Result<(), String> {
    let path = args.dir.join("plane.bin");
    let progress_path = args.dir.join("exact.progress");
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .open(&path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
        return Err(format!("{}: not a training data file", path.display()));
    }
    let records: Vec<&[u8]> = bytes[MAGIC.len()..].chunks_exact(RECORD).collect();
    let mut scanned = read_progress(&progress_path, args.empties)?.min(records.len());
    let wanted = |r: &[u8]| {
        let (player, opponent) = record_sides(r);
        let empties = 64 - (player | opponent).count_ones();
        (r[18] == UNLABELLED && empties <= args.empties).then_some((player, opponent))
    };
    let total = records.iter().filter(|r| wanted(r).is_some()).count();
    let mut left = records[scanned..]
        .iter()
        .filter(|r| wanted(r).is_some())
        .count();
    println!(
        "{}: {} records, {total} unlabelled with at most {} empties, {left} still to solve (from record {scanned})",
        path.display(),
        records.len(),
        args.empties
    );
    let started = Instant::now();
    let mut solved_here = 0usize;
    let mut searchers: Vec<Searcher> = (0..args.threads)
        .map(|_| Searcher::for_solving(22))
        .collect();
    while scanned < records.len() {
        let end = (scanned + BATCH).min(records.len());
        let jobs: Vec<(usize, Board)> = (scanned..end)
            .filter_map(|i| {
                wanted(records[i]).map(|(player, opponent)| {
                    (
                        i,
                        Board {
                            player,
                            opponent,
                            empty: !(player | opponent),
                            player_supply: UNLIMITED,
                            opponent_supply: UNLIMITED,
                        },
                    )
                })
            })
            .collect();
        let next = AtomicUsize::new(0);
        let labels: Vec<Vec<(usize, i16)>> = std::thread::scope(|scope| {
            let handles: Vec<_> = searchers
                .iter_mut()
                .map(|searcher| {
                    let (jobs, next) = (&jobs, &next);
                    scope.spawn(move || {
                        let mut out = Vec::new();
                        loop {
                            let k = next.fetch_add(1, Ordering::Relaxed);
                            let Some((i, board)) = jobs.get(k) else { break };
                            if let Some(solution) =
                                searcher.solve(board, Topology::Plane, &Budget::nodes(0))
                            {
                                out.push((*i, solution.score as i16));
                            }
                        }
                        out
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_default())
                .collect()
        });
        for (i, label) in labels.into_iter().flatten() {
            let mut patch = [0u8; 3];
            patch[..2].copy_from_slice(&label.to_le_bytes());
            patch[2] = EXACT;
            file.write_all_at(&patch, (MAGIC.len() + i * RECORD + 16) as u64)
                .map_err(|e| format!("{}: {e}", path.display()))?;
        }
        file.sync_data()
            .map_err(|e| format!("{}: {e}", path.display()))?;
        scanned = end;
        let tmp = progress_path.with_extension("progress.tmp");
        std::fs::write(
            &tmp,
            format!("scanned {scanned} empties {}\n", args.empties),
        )
        .and_then(|()| std::fs::rename(&tmp, &progress_path))
        .map_err(|e| format!("{}: {e}", progress_path.display()))?;
        solved_here += jobs.len();
        left -= jobs.len();
        let rate = solved_here as f64 / started.elapsed().as_secs_f64().max(1e-9);
        println!(
            "scanned {scanned}/{}: {solved_here} solved in {:.0?} ({rate:.0}/s), {left} left, about {:.1} h",
            records.len(),
            started.elapsed(),
            left as f64 / rate.max(1e-9) / 3600.0
        );
    }
    println!(
        "done: every position with at most {} empties is exact",
        args.empties
    );
    Ok(())
}
