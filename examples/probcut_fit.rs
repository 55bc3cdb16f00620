//! Fits Multi-ProbCut's error model (see `src/search/probcut.rs`) on the
//! positions of a data file: the real games' (`real_positions` writes
//! `DIR/plane.bin`) or self-play's (`eval_data`), in the same format.
//!
//! ```text
//! cargo run --release --example probcut_fit -- --dir /work/eval-r4 \
//!     [--per-empties 16] [--max-depth 10] [--threads 2]
//! ```
//!
//! The shipped spreads: `--per-empties 40 --max-depth 10 --threads 1` on
//! the real games' positions, 121 s here.
//!
//! For `--per-empties` positions at each count of empties from 14 to 56 it
//! searches every depth from 1 to `--max-depth` with the full window and no
//! cuts, then, for each depth `d` and its `shallow_depth(d)`, prints the
//! spread of the deep value around the shallow one (hundredths of a disc)
//! per band of empties, and a least-squares fit
//! `sigma = c0 + c1 * empties + c2 * d` to paste into the search.

use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use reversi::engine::topology::Plane;
use reversi::search::Budget;
use reversi::search::board::{Board, UNLIMITED};
use reversi::search::midgame::{INFINITY, Midgame};
use reversi::search::probcut::{MIN_DEPTH, shallow_depth};
use reversi::search::transposition::Table;

#[path = "shared/data_format.rs"]
mod data_format;
use data_format::{MAGIC, RECORD, record_sides};
/// The data file is read whole; more than this is not our file.
const MAX_DATA: u64 = 1 << 30;
const EMPTIES: std::ops::RangeInclusive<u32> = 14..=56;
/// Empties per band of the printed table.
const BAND: u32 = 6;

struct Args {
    dir: PathBuf,
    per_empties: usize,
    max_depth: u32,
    threads: usize,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        dir: PathBuf::from("eval-data"),
        per_empties: 16,
        max_depth: 10,
        threads: 2,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        let number = |v: String| v.parse::<usize>().map_err(|e| format!("{flag}: {e}"));
        match flag.as_str() {
            "--dir" => args.dir = PathBuf::from(value()?),
            "--per-empties" => args.per_empties = number(value()?)?.max(1),
            "--max-depth" => args.max_depth = (number(value()?)? as u32).clamp(MIN_DEPTH, 16),
            "--threads" => args.threads = number(value()?)?.max(1),
            _ => return Err(format!("unknown flag {flag}")),
        }
    }
    Ok(args)
}

/// Up to `per` boards at each count of empties, spread over the file.
fn sample(args: &Args) -> Result<Vec<Board>, String> {
    let path = args.dir.join("plane.bin");
    let length = std::fs::metadata(&path)
        .map_err(|e| format!("{}: {e}", path.display()))?
        .len();
    if length > MAX_DATA {
        return Err(format!(
            "{}: {length} bytes, more than {MAX_DATA}",
            path.display()
        ));
    }
    let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
        return Err(format!(
            "{}: not a positions file (eval_data or real_positions)",
            path.display()
        ));
    }
    let records = &bytes[MAGIC.len()..];
    let count = records.len() / RECORD;
    let mut picked: Vec<Vec<Board>> = vec![Vec::new(); 65];
    // A fixed stride through the file: many games, reproducibly.
    let stride = 7919;
    for k in 0..count {
        let r = &records[(k * stride % count) * RECORD..][..RECORD];
        let (player, opponent) = record_sides(r);
        if player & opponent != 0 {
            continue;
        }
        let empties = 64 - (player | opponent).count_ones();
        let slot = &mut picked[empties as usize];
        if EMPTIES.contains(&empties) && slot.len() < args.per_empties {
            slot.push(Board {
                player,
                opponent,
                empty: !(player | opponent),
                player_supply: UNLIMITED,
                opponent_supply: UNLIMITED,
            });
        }
    }
    Ok(picked.into_iter().flatten().collect())
}

/// Values at depths 1..=max (index 0 unused), full window, no cuts.
fn values(table: &mut Table, board: &Board, max_depth: u32) -> Vec<i32> {
    let budget = Budget::nodes(0);
    table.clear();
    let mut search = Midgame::<Plane>::new(&*table, &budget, 0);
    let deepest = max_depth.min(board.empties() - 1);
    let mut out = vec![0];
    for d in 1..=deepest {
        out.push(search.pvs(board, d, -INFINITY, INFINITY));
    }
    out
}

/// Least squares of `y` on the columns of `x` (normal equations; the
/// systems here are 3×3).
fn least_squares(x: &[[f64; 3]], y: &[f64], w: &[f64]) -> [f64; 3] {
    let mut a = [[0.0; 4]; 3];
    for ((row, &target), &weight) in x.iter().zip(y).zip(w) {
        for i in 0..3 {
            for j in 0..3 {
                a[i][j] += weight * row[i] * row[j];
            }
            a[i][3] += weight * row[i] * target;
        }
    }
    // Gaussian elimination with partial pivoting.
    for col in 0..3 {
        let pivot = (col..3)
            .max_by(|&p, &q| a[p][col].abs().total_cmp(&a[q][col].abs()))
            .unwrap_or(col);
        a.swap(col, pivot);
        if a[col][col].abs() < 1e-12 {
            return [0.0; 3];
        }
        let pivot_row = a[col];
        for (r, row) in a.iter_mut().enumerate() {
            if r != col {
                let f = row[col] / pivot_row[col];
                for (cell, p) in row.iter_mut().zip(pivot_row).skip(col) {
                    *cell -= f * p;
                }
            }
        }
    }
    [a[0][3] / a[0][0], a[1][3] / a[1][1], a[2][3] / a[2][2]]
}

fn main() {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("probcut_fit: {e}");
            std::process::exit(2);
        }
    };
    let boards = match sample(&args) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("probcut_fit: {e}");
            std::process::exit(1);
        }
    };
    eprintln!(
        "{} positions, depths 1–{}, {} threads",
        boards.len(),
        args.max_depth,
        args.threads
    );
    let started = Instant::now();
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<(u32, Vec<i32>)>> = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..args.threads {
            scope.spawn(|| {
                let mut table = Table::new(20);
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(board) = boards.get(k) else { break };
                    let v = values(&mut table, board, args.max_depth);
                    let mut all = results.lock().unwrap_or_else(|e| e.into_inner());
                    all.push((board.empties(), v));
                    if all.len().is_multiple_of(50) {
                        eprintln!(
                            "{} of {} ({:.0?})",
                            all.len(),
                            boards.len(),
                            started.elapsed()
                        );
                    }
                }
            });
        }
    });
    let results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    eprintln!("searched in {:.0?}", started.elapsed());

    let bands: Vec<u32> = (EMPTIES.start() / BAND..=EMPTIES.end() / BAND).collect();
    print!("depth shallow   all  bias");
    for b in &bands {
        print!(" {:>2}-{:<2}", b * BAND, b * BAND + BAND - 1);
    }
    println!();
    let (mut rows, mut targets, mut weights) = (Vec::new(), Vec::new(), Vec::new());
    for d in MIN_DEPTH..=args.max_depth {
        let s = shallow_depth(d) as usize;
        let pairs: Vec<(u32, f64)> = results
            .iter()
            .filter(|(_, v)| v.len() > d as usize)
            .map(|(e, v)| (*e, f64::from(v[d as usize] - v[s])))
            .collect();
        let spread = |p: &[(u32, f64)]| {
            let n = p.len() as f64;
            (p.iter().map(|(_, r)| r * r).sum::<f64>() / n.max(1.0)).sqrt()
        };
        let bias = pairs.iter().map(|(_, r)| r).sum::<f64>() / (pairs.len() as f64).max(1.0);
        print!("{d:>5} {s:>7} {:>5.0} {bias:>+5.0}", spread(&pairs));
        for b in &bands {
            let inside: Vec<(u32, f64)> = pairs
                .iter()
                .copied()
                .filter(|(e, _)| e / BAND == *b)
                .collect();
            if inside.len() < 8 {
                print!("     -");
                continue;
            }
            let sigma = spread(&inside);
            let mean_empties =
                inside.iter().map(|(e, _)| f64::from(*e)).sum::<f64>() / inside.len() as f64;
            rows.push([1.0, mean_empties, f64::from(d)]);
            targets.push(sigma);
            weights.push(inside.len() as f64);
            print!(" {sigma:>5.0}");
        }
        println!();
    }
    let [c0, c1, c2] = least_squares(&rows, &targets, &weights);
    println!("fit: sigma = {c0:.1} + {c1:.2} * empties + {c2:.2} * depth (hundredths of a disc)");
}
