//! Trains the pattern evaluation (`src/search/pattern_weights.bin`) from the
//! positions `examples/eval_data.rs` generates, the way Logistello and its
//! successors bootstrap: the late phases from exact endgame scores, then
//! each earlier band of empties from searches whose leaves land in the
//! bands already trained.
//!
//! ```text
//! cargo run --release --example eval_data -- --games 20000 --solve-at 18 --dir DIR
//! cargo run --release --example train_patterns -- --dir DIR --out src/search/pattern_weights.bin
//! ```
//!
//! How:
//! 1. The data: `DIR/plane.bin` (20-byte records, see `eval_data.rs`).
//!    Positions at `--exact` empties or fewer carry their exact score.
//!    Every tenth game is held out for validation and never fitted.
//! 2. Fit: for each phase (two empties), the distinct pattern weights and
//!    the scalar weights minimise the squared error over the positions
//!    within two empties of the phase, plus a ridge penalty (`--lambda`)
//!    that pulls rarely seen configurations towards zero (with `--smooth`,
//!    towards the weights of the phase with two empties fewer, fitted
//!    just before: weights that change smoothly from phase to phase):
//!    conjugate gradients on the normal equations, preconditioned by their
//!    diagonal. Exact labels beyond `--exact` empties (the theoretical
//!    scores of real games, `real_positions.rs`) join their phase's fit,
//!    each counted `--exact-weight` times (1 by default).
//!    After the fit, the WTHOR test set (`--wthor DIR`, by default
//!    `../shared/data/wthor` when it is there) measures the new weights,
//!    the shipped ones and the linear evaluation.
//! 3. Bootstrap: the positions of the next `--step` empties are labelled by
//!    a `--depth`-ply search that evaluates with the weights fitted so far
//!    (a child process, so each band searches with its own weights), then
//!    fitted; and so on up to 60 empties (or `--until`). With
//!    `--selective` those searches prune with Multi-ProbCut, as the levels
//!    do, so a deeper search labels in the same time (on the WTHOR test
//!    set, the shipped weights searched 6 plies so are 5.25 discs rms from
//!    the exact scores, 8 plies 4.58, 10 plies 4.04:
//!    `wthor_accuracy --depth 10`).
//!    `--until E --early-from FILE` stops the bootstrap at `E` empties and
//!    takes the phases beyond it from an existing weights file: deeper
//!    labels where they are affordable, the earlier phases as they were.
//!    A phase with fewer than 5000 positions of its own (the first plies,
//!    rare in the data) takes the weights of the nearest later phase.
//! 4. Report: for each phase, the positions, the error of the fit on the
//!    training and on the held-out positions, and the held-out error of the
//!    program's linear evaluation on the same positions, for comparison.
//!
//! `train_patterns exact-test LO HI PER` solves up to PER held-out
//! positions at each of LO to HI empties exactly (`DIR/exact-test.bin`)
//! and prints the error of the shipped weights and of the linear
//! evaluation against every score in that file (`exact-test 0 0 0` only
//! prints); a training report gives the new fit's error there too.
//! `train_patterns deep-test LO HI PER --depth D` does the same with
//! labels from `D`-ply searches (Multi-ProbCut on, as the levels search)
//! in `DIR/deep-test-dD.bin`, for phases too early to solve.
//!
//! Resumable and incremental: each band's labels go to
//! `DIR/labels-dD-LO-HI.bin` with a `.progress` file of how many data
//! records it has scanned, so a rerun after the data has grown labels only
//! the new positions, and a run cut short redoes at most one band.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use reversi::engine::topology::Plane;
use reversi::search::board::{Board, UNLIMITED};
use reversi::search::midgame::{INFINITY, Midgame};
use reversi::search::patterns::{
    self, INSTANCES, PHASES, PatternWeights, SCALAR_NAMES, SCALARS, compact_index, compact_size,
};
use reversi::search::transposition::Table;
use reversi::search::{Budget, eval, probcut};

#[path = "shared/data_format.rs"]
mod data_format;
use data_format::{EXACT, MAGIC, RECORD, UNLABELLED, record_sides};
#[path = "shared/wthor_test.rs"]
mod wthor_test;

struct Args {
    dir: PathBuf,
    out: Option<PathBuf>,
    exact: u32,
    step: u32,
    depth: u32,
    lambda: f64,
    iterations: usize,
    threads: usize,
    until: u32,
    wthor: Option<PathBuf>,
    smooth: bool,
    /// The bootstrap's searches prune with Multi-ProbCut, as the levels
    /// do: deeper labels for the same time.
    selective: bool,
    /// With `--until` below 60: the phases beyond it, which have no labels,
    /// keep this weights file's.
    early_from: Option<PathBuf>,
    /// How much more an exact label beyond `exact` empties (a theoretical
    /// score) weighs in the fit than a search's label.
    exact_weight: f64,
}

fn parse_args(mut it: impl Iterator<Item = String>) -> Result<Args, String> {
    let mut args = Args {
        dir: PathBuf::from("target/eval-data"),
        out: None,
        exact: 18,
        step: 6,
        depth: 6,
        lambda: 3.0,
        iterations: 60,
        threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        until: 60,
        wthor: Some(PathBuf::from("../shared/data/wthor")).filter(|p| p.is_dir()),
        smooth: false,
        selective: false,
        early_from: None,
        exact_weight: 1.0,
    };
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        let number = |v: String| v.parse::<u64>().map_err(|e| format!("{flag}: {e}"));
        match flag.as_str() {
            "--dir" => args.dir = PathBuf::from(value()?),
            "--out" => args.out = Some(PathBuf::from(value()?)),
            "--exact" => args.exact = number(value()?)?.clamp(4, 30) as u32,
            "--step" => args.step = number(value()?)?.clamp(1, 20) as u32,
            "--depth" => {
                args.depth = match number(value()?)? {
                    d @ 1..=30 => d as u32,
                    d => return Err(format!("--depth: {d} is not a depth from 1 to 30")),
                }
            }
            "--iterations" => args.iterations = number(value()?)?.clamp(1, 1000) as usize,
            "--threads" => args.threads = number(value()?)?.clamp(1, 256) as usize,
            "--until" => args.until = number(value()?)?.clamp(4, 60) as u32,
            "--wthor" => args.wthor = Some(PathBuf::from(value()?)),
            "--early-from" => args.early_from = Some(PathBuf::from(value()?)),
            "--exact-weight" => {
                args.exact_weight = value()?
                    .parse()
                    .map_err(|e| format!("--exact-weight: {e}"))
                    .and_then(|w: f64| {
                        if w > 0.0 && w.is_finite() {
                            Ok(w)
                        } else {
                            Err("--exact-weight: must be more than 0".into())
                        }
                    })?
            }
            "--smooth" => {
                args.smooth = true;
                continue;
            }
            "--selective" => {
                args.selective = true;
                continue;
            }
            "--lambda" => {
                args.lambda = value()?
                    .parse()
                    .map_err(|e| format!("--lambda: {e}"))
                    .and_then(|l: f64| {
                        if l >= 0.0 {
                            Ok(l)
                        } else {
                            Err("--lambda: must be 0 or more".into())
                        }
                    })?
            }
            other => return Err(format!("unknown argument {other}")),
        }
    }
    if args.step > args.depth {
        return Err(format!(
            "--step {} is more than --depth {}: the searches' leaves would land on phases not yet fitted",
            args.step, args.depth
        ));
    }
    if args.until < 60 && args.out.is_some() && args.early_from.is_none() {
        return Err(
            "--until below 60 fits only the late phases: no --out then, unless --early-from names the weights of the others"
                .into(),
        );
    }
    Ok(args)
}

/// Fewer training positions than this in a phase's own two empties and
/// the phase takes its neighbour's weights.
const MIN_OWN_POSITIONS: usize = 5000;

/// Label files: their magic and record size.
const LABEL_MAGIC: &[u8; 8] = b"RVLABEL1";
const LABEL_RECORD: usize = RECORD + 4;

/// The records of a label file, each with its index in the data.
fn read_labels(path: &Path, limit: Option<u64>) -> Result<Vec<(Record, u32)>, String> {
    let bytes = read_bounded(path)?;
    if bytes.len() < LABEL_MAGIC.len() || &bytes[..LABEL_MAGIC.len()] != LABEL_MAGIC {
        return Err(format!("{}: not a label file", path.display()));
    }
    let end = limit.map_or(bytes.len(), |l| {
        (l as usize).clamp(LABEL_MAGIC.len(), bytes.len())
    });
    let mut out = Vec::new();
    for chunk in bytes[LABEL_MAGIC.len()..end].chunks_exact(LABEL_RECORD) {
        let record = decode_record(&chunk[..RECORD])
            .ok_or_else(|| format!("{}: a malformed record", path.display()))?;
        let index = u32::from_le_bytes([chunk[20], chunk[21], chunk[22], chunk[23]]);
        out.push((record, index));
    }
    Ok(out)
}

/// A file read whole, refusing one larger than any data set this tool
/// makes (16 GiB).
fn read_bounded(path: &Path) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut bytes = Vec::new();
    file.take(16 << 30)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(bytes)
}

fn decode_record(r: &[u8]) -> Option<Record> {
    let (player, opponent) = record_sides(r);
    let record = Record {
        player,
        opponent,
        label: i16::from_le_bytes([r[16], r[17]]),
        source: r[18],
    };
    (record.player & record.opponent == 0 && record.label.abs() <= 64).then_some(record)
}

/// One position with its label (discs, side to move's view).
#[derive(Clone, Copy)]
struct Record {
    player: u64,
    opponent: u64,
    label: i16,
    source: u8,
}

impl Record {
    fn empties(&self) -> u32 {
        64 - (self.player | self.opponent).count_ones()
    }
    fn board(&self) -> Board {
        Board {
            player: self.player,
            opponent: self.opponent,
            empty: !(self.player | self.opponent),
            player_supply: UNLIMITED,
            opponent_supply: UNLIMITED,
        }
    }
    fn encode(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.player.to_le_bytes());
        out.extend_from_slice(&self.opponent.to_le_bytes());
        out.extend_from_slice(&self.label.to_le_bytes());
        out.push(self.source);
        out.push(0);
    }
}

/// The records of a data file (up to `limit` bytes, the part its progress
/// file vouches for).
fn read_records(path: &Path, limit: Option<u64>) -> Result<Vec<Record>, String> {
    let bytes = read_bounded(path)?;
    if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
        return Err(format!("{}: not an eval_data file", path.display()));
    }
    let end = limit.map_or(bytes.len(), |l| {
        (l as usize).clamp(MAGIC.len(), bytes.len())
    });
    let mut out = Vec::with_capacity(end / RECORD);
    for r in bytes[MAGIC.len()..end].chunks_exact(RECORD) {
        out.push(
            decode_record(r).ok_or_else(|| format!("{}: a malformed record", path.display()))?,
        );
    }
    Ok(out)
}

fn read_count(path: &Path, name: &str) -> Result<Option<u64>, String> {
    match std::fs::read_to_string(path) {
        Ok(text) => {
            let mut words = text.split_ascii_whitespace();
            while let (Some(n), Some(v)) = (words.next(), words.next()) {
                if n == name {
                    return v
                        .parse()
                        .map(Some)
                        .map_err(|e| format!("{}: {e}", path.display()));
                }
            }
            Err(format!("{}: no `{name}` line", path.display()))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("{}: {e}", path.display())),
    }
}

/// The data: the positions and which game each came from (a game's
/// positions are stored together, empties falling).
fn load_data(dir: &Path) -> Result<(Vec<Record>, Vec<u32>), String> {
    let bytes = read_count(&dir.join("plane.progress"), "bytes")?;
    let records = read_records(&dir.join("plane.bin"), bytes)?;
    let mut games = Vec::with_capacity(records.len());
    let mut game = 0u32;
    let mut last = 61;
    for r in &records {
        if r.empties() > last {
            game += 1;
        }
        last = r.empties();
        games.push(game);
    }
    Ok((records, games))
}

fn held_out(game: u32) -> bool {
    game.is_multiple_of(10)
}

/// The name (without extension) of the label file of the band `lo < empties
/// <= hi`: searches of another depth or selectivity label into their own.
fn label_stem(args: &Args, lo: u32, hi: u32) -> String {
    let selective = if args.selective { "s" } else { "" };
    format!("labels-d{}{selective}-{lo}-{hi}", args.depth)
}

/// The value of `board` (discs, the side to move's view, within ±64)
/// searched 1 to `depth` plies deep with the installed weights, pruning by
/// Multi-ProbCut as the levels do if `selective`.
fn searched_label(board: &Board, depth: u32, selective: bool, table: &Table) -> i16 {
    let budget = Budget::nodes(0);
    let mut search = Midgame::<Plane>::new(table, &budget, 0);
    if selective {
        search = search.selective(probcut::SELECTIVITY);
    }
    let mut value = 0;
    for d in 1..=depth {
        value = search.pvs(board, d, -INFINITY, INFINITY);
    }
    ((f64::from(value) / 100.0).round() as i16).clamp(-64, 64)
}

/// Labels the unlabelled positions with `lo < empties <= hi` by a
/// `depth`-ply search with the installed weights (run in a child process).
fn label_band(
    args: &Args,
    weights: &Path,
    (lo, hi): (u32, u32),
    count: usize,
) -> Result<(), String> {
    let bytes = read_bounded(weights)?;
    let decoded =
        PatternWeights::decode(&bytes).map_err(|e| format!("{}: {e}", weights.display()))?;
    patterns::install(Some(decoded)).map_err(|e| e.to_string())?;
    let (mut records, _) = load_data(&args.dir)?;
    // The parent's snapshot of the data, which may have grown since.
    records.truncate(count);
    let stem = label_stem(args, lo, hi);
    let out_path = args.dir.join(format!("{stem}.bin"));
    let progress_path = args.dir.join(format!("{stem}.progress"));
    let mut scanned = read_count(&progress_path, "scanned")?.unwrap_or(0) as usize;
    let mut kept = read_count(&progress_path, "bytes")?.unwrap_or(0);
    let have = read_labels(&out_path, Some(kept)).map(|l| (l.len() * LABEL_RECORD + 8) as u64);
    if have != Ok(kept) {
        // No file, or not the one the progress file describes: start over.
        (scanned, kept) = (0, 0);
    }
    let todo: Vec<usize> = (scanned..records.len())
        .filter(|&k| {
            let r = &records[k];
            r.source != EXACT && r.empties() > lo && r.empties() <= hi
        })
        .collect();
    eprintln!(
        "  labelling {} positions at {}–{hi} empties by {}-ply searches{}",
        todo.len(),
        lo + 1,
        args.depth,
        if args.selective {
            " with Multi-ProbCut"
        } else {
            ""
        }
    );
    let started = Instant::now();
    let next = AtomicUsize::new(0);
    let mut labelled: Vec<Option<Record>> = vec![None; todo.len()];
    let chunks: Vec<Vec<(usize, Record)>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..args.threads)
            .map(|_| {
                scope.spawn(|| {
                    let table = Table::new(20);
                    let mut done = Vec::new();
                    loop {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&index) = todo.get(k) else { break };
                        let record = records[index];
                        let label =
                            searched_label(&record.board(), args.depth, args.selective, &table);
                        done.push((
                            k,
                            Record {
                                label,
                                source: args.depth as u8,
                                ..record
                            },
                        ));
                    }
                    done
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_default())
            .collect()
    });
    for (k, r) in chunks.into_iter().flatten() {
        labelled[k] = Some(r);
    }
    // A label record: the data record, then its index in the data (u32),
    // which names its game for the held-out split.
    let mut encoded = Vec::new();
    for (r, &index) in labelled.iter().zip(&todo) {
        if let Some(r) = r {
            r.encode(&mut encoded);
            encoded.extend_from_slice(&(index as u32).to_le_bytes());
        }
    }
    let err = |e: std::io::Error| format!("{}: {e}", out_path.display());
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .read(true)
        .write(true)
        .open(&out_path)
        .map_err(err)?;
    // Drop anything written after the last progress update.
    file.set_len(kept).map_err(err)?;
    use std::io::Seek;
    file.seek(std::io::SeekFrom::End(0)).map_err(err)?;
    if kept == 0 {
        file.write_all(LABEL_MAGIC).map_err(err)?;
    }
    file.write_all(&encoded).map_err(err)?;
    file.sync_data().map_err(err)?;
    let total = kept.max(LABEL_MAGIC.len() as u64) + encoded.len() as u64;
    let tmp = progress_path.with_extension("progress.tmp");
    std::fs::write(&tmp, format!("scanned {}\nbytes {total}\n", records.len()))
        .and_then(|()| std::fs::rename(&tmp, &progress_path))
        .map_err(|e| format!("{}: {e}", progress_path.display()))?;
    if !todo.is_empty() {
        eprintln!(
            "  labelled in {:.0} s ({:.1} ms a position)",
            started.elapsed().as_secs_f64(),
            started.elapsed().as_secs_f64() * 1000.0 / todo.len() as f64
        );
    }
    Ok(())
}

/// How a held-out test set is labelled.
#[derive(Clone, Copy)]
enum TestLabels {
    /// Exact scores, by the solver.
    Exact,
    /// A search of this many plies with Multi-ProbCut, iteratively
    /// deepened as the program does (for phases the solver cannot reach).
    Search(u32),
}

impl TestLabels {
    /// The file of the set, in the data directory.
    fn file(self) -> String {
        match self {
            TestLabels::Exact => "exact-test.bin".into(),
            TestLabels::Search(depth) => format!("deep-test-d{depth}.bin"),
        }
    }

    fn describe(self) -> String {
        match self {
            TestLabels::Exact => "held-out positions solved exactly".into(),
            TestLabels::Search(depth) => {
                format!("held-out positions labelled by {depth}-ply searches")
            }
        }
    }

    /// The label of `board` (discs, the side to move's view) and its
    /// source byte; `None` if the search gave no answer.
    /// The solver is made on first use (its tables are large).
    fn label(
        self,
        board: &Board,
        solver: &mut Option<reversi::search::Searcher>,
        table: &Table,
    ) -> Option<(i16, u8)> {
        match self {
            TestLabels::Exact => {
                let searcher =
                    solver.get_or_insert_with(|| reversi::search::Searcher::for_solving(22));
                let solution =
                    searcher.solve(board, reversi::engine::Topology::Plane, &Budget::nodes(0))?;
                Some((solution.score as i16, EXACT))
            }
            TestLabels::Search(depth) => {
                let label = searched_label(board, depth, true, table);
                Some((label, depth.min(254) as u8))
            }
        }
    }
}

/// Labels up to `per` held-out positions at each number of empties from
/// `lo` to `hi` (exactly, or by deep searches), for a test of the fit
/// against labels better than the training's. Appends to the set's file
/// in `DIR` ([`TestLabels::file`]), skipping positions already there, so a
/// run cut short goes on where it stopped.
fn held_out_test(
    args: &Args,
    lo: u32,
    hi: u32,
    per: usize,
    labels: TestLabels,
) -> Result<(), String> {
    let (records, games) = load_data(&args.dir)?;
    let path = args.dir.join(labels.file());
    let done: Vec<Record> = if path.exists() {
        read_records(&path, None)?
    } else {
        std::fs::write(&path, MAGIC).map_err(|e| format!("{}: {e}", path.display()))?;
        Vec::new()
    };
    let mut todo = Vec::new();
    for e in lo..=hi {
        let have = done.iter().filter(|r| r.empties() == e).count();
        todo.extend(
            records
                .iter()
                .zip(&games)
                .filter(|(r, g)| held_out(**g) && r.empties() == e && r.source == UNLABELLED)
                .filter(|(r, _)| {
                    !done
                        .iter()
                        .any(|d| (d.player, d.opponent) == (r.player, r.opponent))
                })
                .map(|(r, _)| *r)
                .take(per.saturating_sub(have)),
        );
    }
    eprintln!(
        "  labelling {} {} at {lo}–{hi} empties",
        todo.len(),
        labels.describe()
    );
    let next = AtomicUsize::new(0);
    let file = std::sync::Mutex::new(
        std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .map_err(|e| format!("{}: {e}", path.display()))?,
    );
    let started = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..args.threads {
            scope.spawn(|| {
                let mut solver = None;
                let table = Table::new(20);
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(record) = todo.get(k) else { break };
                    let Some((label, source)) = labels.label(&record.board(), &mut solver, &table)
                    else {
                        break;
                    };
                    let mut bytes = Vec::new();
                    Record {
                        label,
                        source,
                        ..*record
                    }
                    .encode(&mut bytes);
                    let mut f = file.lock().unwrap_or_else(|e| e.into_inner());
                    let _ = f.write_all(&bytes).and_then(|()| f.flush());
                }
            });
        }
    });
    eprintln!("  labelled in {:.0} s", started.elapsed().as_secs_f64());
    report_held_out_test(args, None, labels)
}

/// A training position: its game, empties, label and features.
struct Sample {
    held_out: bool,
    empties: u32,
    label: f32,
    exact: bool,
    patterns: [u32; INSTANCES],
    scalars: [f32; SCALARS],
    /// The linear evaluation's value, in discs, for comparison.
    linear: f32,
}

fn sample(record: &Record, game: u32) -> Sample {
    let board = record.board();
    let f = patterns::features::<Plane>(&board);
    let mut compact = [0u32; INSTANCES];
    for (c, &i) in compact.iter_mut().zip(&f.indices) {
        *c = compact_index(i);
    }
    let linear = eval::weights().value(&eval::features::<Plane>(&board));
    Sample {
        held_out: held_out(game),
        empties: record.empties(),
        label: f32::from(record.label),
        exact: record.source == EXACT,
        patterns: compact,
        scalars: f.scalars.map(|s| s as f32),
        linear: linear as f32 / 100.0,
    }
}

/// The fitted weights of one phase, in discs.
#[derive(Clone)]
struct Fit {
    patterns: Vec<f32>,
    scalars: [f32; SCALARS],
}

impl Fit {
    fn predict(&self, s: &Sample) -> f32 {
        let mut v: f32 = s.patterns.iter().map(|&i| self.patterns[i as usize]).sum();
        for (w, x) in self.scalars.iter().zip(&s.scalars) {
            v += w * x;
        }
        v
    }
}

/// Ridge regression by preconditioned conjugate gradients. The penalty
/// pulls each weight towards `prior` (a neighbouring phase's fit, so the
/// weights change smoothly from phase to phase and a configuration rare
/// in this phase keeps its neighbour's value), or towards zero without.
fn fit(
    samples: &[&Sample],
    lambda: f64,
    iterations: usize,
    prior: Option<&Fit>,
    weight: impl Fn(&Sample) -> f64 + Sync,
) -> Fit {
    let n = compact_size();
    let dim = n + SCALARS;
    // Column values: how often a board reads a pattern entry, the
    // scalar's value otherwise.
    let apply = |x: &[f64], out: &mut [f64]| {
        out.iter_mut().for_each(|o| *o = 0.0);
        for s in samples {
            let mut t: f64 = s.patterns.iter().map(|&i| x[i as usize]).sum();
            for (k, &v) in s.scalars.iter().enumerate() {
                t += x[n + k] * f64::from(v);
            }
            t *= weight(s);
            for &i in &s.patterns {
                out[i as usize] += t;
            }
            for (k, &v) in s.scalars.iter().enumerate() {
                out[n + k] += t * f64::from(v);
            }
        }
        for k in 0..dim {
            let l = if k < n { lambda } else { 1e-3 };
            out[k] += l * x[k];
        }
    };
    let mut b = vec![0.0f64; dim];
    let mut diagonal = vec![0.0f64; dim];
    for s in samples {
        let w = weight(s);
        let y = f64::from(s.label) * w;
        // A configuration read m times by one board (four empty edges)
        // is a column value of m there: its diagonal entry gains m².
        let mut sorted = s.patterns;
        sorted.sort_unstable();
        let mut k = 0;
        while k < sorted.len() {
            let run = sorted[k..].iter().take_while(|&&i| i == sorted[k]).count();
            let i = sorted[k] as usize;
            b[i] += y * run as f64;
            diagonal[i] += (run * run) as f64 * w;
            k += run;
        }
        for (k, &v) in s.scalars.iter().enumerate() {
            b[n + k] += y * f64::from(v);
            diagonal[n + k] += f64::from(v) * f64::from(v) * w;
        }
    }
    if let Some(prior) = prior {
        for (b, &w) in b.iter_mut().zip(&prior.patterns) {
            *b += lambda * f64::from(w);
        }
    }
    let precondition: Vec<f64> = diagonal
        .iter()
        .enumerate()
        .map(|(k, d)| 1.0 / (d + if k < n { lambda } else { 1e-3 }).max(1e-9))
        .collect();
    let mut x = vec![0.0f64; dim];
    let mut r = b.clone();
    let mut z: Vec<f64> = r.iter().zip(&precondition).map(|(r, m)| r * m).collect();
    let mut p = z.clone();
    let mut rz: f64 = r.iter().zip(&z).map(|(a, b)| a * b).sum();
    let mut q = vec![0.0f64; dim];
    for _ in 0..iterations {
        apply(&p, &mut q);
        let pq: f64 = p.iter().zip(&q).map(|(a, b)| a * b).sum();
        if pq <= 0.0 {
            break;
        }
        let alpha = rz / pq;
        for k in 0..dim {
            x[k] += alpha * p[k];
            r[k] -= alpha * q[k];
        }
        for k in 0..dim {
            z[k] = r[k] * precondition[k];
        }
        let rz_next: f64 = r.iter().zip(&z).map(|(a, b)| a * b).sum();
        if rz_next < 1e-12 {
            break;
        }
        let beta = rz_next / rz;
        rz = rz_next;
        for k in 0..dim {
            p[k] = z[k] + beta * p[k];
        }
    }
    let mut scalars = [0f32; SCALARS];
    for (k, s) in scalars.iter_mut().enumerate() {
        *s = x[n + k] as f32;
    }
    Fit {
        patterns: x[..n].iter().map(|&v| v as f32).collect(),
        scalars,
    }
}

/// The empties a phase's fit draws on: its own two and two either side.
fn window(phase: usize) -> std::ops::RangeInclusive<u32> {
    let lo = (2 * phase as u32).saturating_sub(2);
    let hi = if phase == PHASES - 1 {
        60
    } else {
        2 * phase as u32 + 3
    };
    lo..=hi
}

/// Fits every phase with labelled positions of its own (empties ≤
/// `labelled_to`) that has no fit yet.
fn fit_phases(args: &Args, samples: &[Sample], labelled_to: u32, fits: &mut [Option<Fit>]) {
    let todo: Vec<usize> = (0..PHASES)
        .filter(|&p| fits[p].is_none() && 2 * p as u32 <= labelled_to)
        .collect();
    let train = |phase: usize| -> Vec<&Sample> {
        let range = window(phase);
        samples
            .iter()
            .filter(|s| !s.held_out && range.contains(&s.empties))
            .collect()
    };
    let weight = |s: &Sample| {
        if s.exact && s.empties > args.exact {
            args.exact_weight
        } else {
            1.0
        }
    };
    if args.smooth {
        // In order, each phase pulled towards the one with two empties
        // fewer, fitted just before it.
        for phase in todo {
            let prior = phase.checked_sub(1).and_then(|p| fits[p].clone());
            fits[phase] = Some(fit(
                &train(phase),
                args.lambda,
                args.iterations,
                prior.as_ref(),
                weight,
            ));
        }
        return;
    }
    let next = AtomicUsize::new(0);
    let results: Vec<(usize, Fit)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..args.threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut out = Vec::new();
                    loop {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&phase) = todo.get(k) else { break };
                        out.push((
                            phase,
                            fit(&train(phase), args.lambda, args.iterations, None, weight),
                        ));
                    }
                    out
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    });
    for (phase, f) in results {
        fits[phase] = Some(f);
    }
}

fn to_weights(fits: &[Option<Fit>]) -> PatternWeights {
    let mut compact = Vec::with_capacity(PHASES);
    let mut scalars = [[0i32; SCALARS]; PHASES];
    for (phase, f) in fits.iter().enumerate() {
        match f {
            Some(f) => {
                compact.push(
                    f.patterns
                        .iter()
                        .map(|&w| (w * 100.0).round().clamp(-32000.0, 32000.0) as i16)
                        .collect(),
                );
                for (s, &w) in scalars[phase].iter_mut().zip(&f.scalars) {
                    *s = (w * 100.0).round().clamp(-100_000.0, 100_000.0) as i32;
                }
            }
            None => compact.push(vec![0; compact_size()]),
        }
    }
    PatternWeights::from_compact(&compact, scalars)
}

fn run(args: &Args) -> Result<(), String> {
    let started = Instant::now();
    let (records, games) = load_data(&args.dir)?;
    let exact = records.iter().filter(|r| r.source == EXACT).count();
    eprintln!(
        "train_patterns: {} positions from {} games ({exact} exact) in {}",
        records.len(),
        games.last().map_or(0, |g| g + 1),
        args.dir.display()
    );
    let mut samples: Vec<Sample> = records
        .iter()
        .zip(&games)
        // Exact labels beyond `--exact` (the theoretical scores of real
        // games at 24 empties) are fitted with their phase's band.
        .filter(|(r, _)| r.source == EXACT)
        .map(|(r, &g)| sample(r, g))
        .collect();
    let mut fits: Vec<Option<Fit>> = vec![None; PHASES];
    let mut labelled_to = args.exact;
    loop {
        fit_phases(args, &samples, labelled_to, &mut fits);
        if labelled_to >= args.until {
            break;
        }
        let (lo, hi) = (labelled_to, (labelled_to + args.step).min(60));
        let weights_path = args.dir.join(format!("bootstrap-{lo}.weights"));
        std::fs::write(&weights_path, to_weights(&fits).encode())
            .map_err(|e| format!("{}: {e}", weights_path.display()))?;
        let exe = std::env::current_exe().map_err(|e| e.to_string())?;
        let status = Command::new(exe)
            .arg("label")
            .arg(&weights_path)
            .args([lo.to_string(), hi.to_string(), records.len().to_string()])
            .args(["--dir".into(), args.dir.display().to_string()])
            .args(["--depth".into(), args.depth.to_string()])
            .args(["--step".into(), args.step.to_string()])
            .args(["--threads".into(), args.threads.to_string()])
            .args(args.selective.then_some("--selective"))
            .status()
            .map_err(|e| e.to_string())?;
        if !status.success() {
            return Err(format!("labelling {lo}–{hi} failed"));
        }
        let path = args.dir.join(format!("{}.bin", label_stem(args, lo, hi)));
        let bytes = read_count(&path.with_extension("progress"), "bytes")?;
        for (r, index) in read_labels(&path, bytes)? {
            let game = games.get(index as usize).copied().ok_or_else(|| {
                format!(
                    "{}: a label for record {index}, past the data",
                    path.display()
                )
            })?;
            samples.push(sample(&r, game));
        }
        labelled_to = hi;
        // Phases whose window reaches into the new band are refitted.
        for (phase, f) in fits.iter_mut().enumerate() {
            if *window(phase).end() > lo {
                *f = None;
            }
        }
    }
    // Past `--until`, the phases whose own empties were not all labelled
    // keep the weights of `--early-from`.
    let kept = match &args.early_from {
        Some(path) if args.until < 60 => {
            let bytes = read_bounded(path)?;
            let weights =
                PatternWeights::decode(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
            let compact = weights.to_compact();
            let first = (args.until as usize).div_ceil(2);
            for phase in first..PHASES {
                fits[phase] = Some(Fit {
                    patterns: compact[phase]
                        .iter()
                        .map(|&w| f32::from(w) / 100.0)
                        .collect(),
                    scalars: weights.scalars()[phase].map(|w| w as f32 / 100.0),
                });
            }
            eprintln!(
                "  phases {first}–{} ({}–60 empties) keep the weights of {}",
                PHASES - 1,
                2 * first,
                path.display()
            );
            first
        }
        _ => PHASES,
    };
    // The first plies after the start are rare in the data (its openings
    // are random ones of 4 plies and more): a phase with too few positions
    // of its own takes the weights of the nearest later one with enough.
    let mut own = [0usize; PHASES];
    for s in samples.iter().filter(|s| !s.held_out) {
        own[patterns::phase(s.empties)] += 1;
    }
    for phase in 1..kept {
        if own[phase] < MIN_OWN_POSITIONS {
            eprintln!(
                "  phase {phase} has {} positions of its own: it takes phase {}'s weights",
                own[phase],
                phase - 1
            );
            fits[phase] = fits[phase - 1].clone();
            own[phase] = own[phase - 1];
        }
    }
    let weights = to_weights(&fits);
    report(&samples, &fits, args);
    if let Some(out) = &args.out {
        let bytes = weights.encode();
        std::fs::write(out, &bytes).map_err(|e| format!("{}: {e}", out.display()))?;
        eprintln!(
            "train_patterns: wrote {} ({} bytes) in {:.0} s",
            out.display(),
            bytes.len(),
            started.elapsed().as_secs_f64()
        );
    }
    // The weights are written first: a report that fails loses no fit.
    report_held_out_tests(args, Some(&fits))?;
    if let Err(e) = report_wthor(args, &weights) {
        eprintln!("train_patterns: no WTHOR test report: {e}");
    }
    Ok(())
}

fn rms(errors: impl Iterator<Item = f32>) -> (usize, f64) {
    let (mut n, mut sum) = (0usize, 0f64);
    for e in errors {
        n += 1;
        sum += f64::from(e) * f64::from(e);
    }
    (n, if n == 0 { 0.0 } else { (sum / n as f64).sqrt() })
}

fn report(samples: &[Sample], fits: &[Option<Fit>], args: &Args) {
    println!(
        "# lambda {}, {} iterations, exact to {} empties, then {}-ply labels in bands of {}",
        args.lambda, args.iterations, args.exact, args.depth, args.step
    );
    println!("# scalars: {}", SCALAR_NAMES.join(" "));
    println!(
        "empties  labels  train  rms-train  held-out  rms-held-out  linear-rms-held-out  scalars"
    );
    for (phase, f) in fits.iter().enumerate() {
        let Some(f) = f else { continue };
        let own = |s: &&Sample| patterns::phase(s.empties) == phase;
        let train = rms(samples
            .iter()
            .filter(|s| !s.held_out)
            .filter(own)
            .map(|s| f.predict(s) - s.label));
        let test = rms(samples
            .iter()
            .filter(|s| s.held_out)
            .filter(own)
            .map(|s| f.predict(s) - s.label));
        let linear = rms(samples
            .iter()
            .filter(|s| s.held_out)
            .filter(own)
            .map(|s| s.linear - s.label));
        let kind = if !samples.iter().any(|s| own(&s)) {
            "none"
        } else if samples.iter().filter(own).all(|s| s.exact) {
            "exact"
        } else {
            "search"
        };
        let scalars: Vec<String> = f.scalars.iter().map(|w| format!("{w:.2}")).collect();
        println!(
            "{:>2}–{:<2}   {kind:<6}  {:>6}  {:>9.2}  {:>8}  {:>12.2}  {:>19.2}  {}",
            2 * phase,
            if phase == PHASES - 1 {
                60
            } else {
                2 * phase + 1
            },
            train.0,
            train.1,
            test.0,
            test.1,
            linear.1,
            scalars.join(" ")
        );
    }
}

/// Every held-out test set in the data directory: the exact one and
/// those of each search depth.
fn report_held_out_tests(args: &Args, fits: Option<&[Option<Fit>]>) -> Result<(), String> {
    report_held_out_test(args, fits, TestLabels::Exact)?;
    for depth in 1..=60 {
        report_held_out_test(args, fits, TestLabels::Search(depth))?;
    }
    Ok(())
}

/// The fit (when there is one), the shipped weights and the linear
/// evaluation against a held-out test set, per number of empties.
fn report_held_out_test(
    args: &Args,
    fits: Option<&[Option<Fit>]>,
    labels: TestLabels,
) -> Result<(), String> {
    let path = args.dir.join(labels.file());
    if !path.exists() {
        return Ok(());
    }
    let records = read_records(&path, None)?;
    println!("{} ({}):", labels.file(), labels.describe());
    println!("empties  positions  rms-patterns  rms-shipped  mae-shipped  rms-linear");
    let mut by_empties: std::collections::BTreeMap<u32, Vec<(Sample, Board)>> = Default::default();
    for r in &records {
        by_empties
            .entry(r.empties())
            .or_default()
            .push((sample(r, 0), r.board()));
    }
    let shipped = patterns::weights();
    for (e, samples) in &by_empties {
        let fitted = fits
            .and_then(|fits| fits[patterns::phase(*e)].as_ref())
            .map(|f| rms(samples.iter().map(|(s, _)| f.predict(s) - s.label)).1);
        let errors: Vec<f32> = samples
            .iter()
            .filter_map(|(s, board)| {
                let value = shipped?.evaluate::<Plane>(board);
                Some(value as f32 / 100.0 - s.label)
            })
            .collect();
        let shipped_rms = rms(errors.iter().copied()).1;
        let shipped_mae =
            errors.iter().map(|e| f64::from(e.abs())).sum::<f64>() / errors.len().max(1) as f64;
        let linear = rms(samples.iter().map(|(s, _)| s.linear - s.label));
        let fitted = fitted.map_or("—".to_string(), |r| format!("{r:.2}"));
        println!(
            "{e:>7}  {:>9}  {fitted:>12}  {shipped_rms:>11.2}  {shipped_mae:>11.2}  {:>10.2}",
            linear.0, linear.1
        );
    }
    Ok(())
}

/// The new weights, the shipped ones and the linear evaluation against
/// the WTHOR test set (`--wthor DIR`; by default `../shared/data/wthor` if
/// it is there).
fn report_wthor(args: &Args, weights: &PatternWeights) -> Result<(), String> {
    let Some(dir) = &args.wthor else {
        return Ok(());
    };
    let set = wthor_test::load(dir)?;
    println!(
        "WTHOR test set ({} games of {} files; their positions at 24 empties, theoretical scores):",
        set.games, set.files
    );
    let fitted = set.errors(|board| weights.evaluate::<Plane>(board));
    println!("{}", fitted.line("these weights"));
    if let Some(shipped) = patterns::weights() {
        let shipped = set.errors(|board| shipped.evaluate::<Plane>(board));
        println!("{}", shipped.line("shipped patterns"));
    }
    let linear = set.errors(|board| eval::weights().value(&eval::features::<Plane>(board)));
    println!("{}", linear.line("linear evaluation"));
    Ok(())
}

fn main() {
    let mut argv = std::env::args().skip(1).peekable();
    let command = argv.peek().cloned();
    let result = if let Some(kind @ ("exact-test" | "deep-test")) = command.as_deref() {
        argv.next();
        let numbers: Vec<u32> = argv
            .by_ref()
            .take(3)
            .filter_map(|w| w.parse().ok())
            .collect();
        match (parse_args(argv), numbers.as_slice()) {
            (Ok(args), &[lo, hi, per]) => {
                let labels = if kind == "exact-test" {
                    TestLabels::Exact
                } else {
                    TestLabels::Search(args.depth)
                };
                held_out_test(&args, lo, hi, per as usize, labels)
            }
            (Err(e), _) => Err(e),
            _ => Err(format!("{kind} LO HI PER: three numbers")),
        }
    } else if argv.peek().map(String::as_str) == Some("label") {
        argv.next();
        let (Some(weights), Some(lo), Some(hi), Some(count)) =
            (argv.next(), argv.next(), argv.next(), argv.next())
        else {
            eprintln!(
                "train_patterns label WEIGHTS LO HI RECORDS [--dir D] [--depth N] [--threads N] [--selective]"
            );
            std::process::exit(2);
        };
        let bounds = (|| -> Result<_, std::num::ParseIntError> {
            Ok((
                (lo.parse::<u32>()?, hi.parse::<u32>()?),
                count.parse::<usize>()?,
            ))
        })();
        match (parse_args(argv), bounds) {
            (Ok(args), Ok((band, count))) => label_band(&args, Path::new(&weights), band, count),
            (Err(e), _) => Err(e),
            (_, Err(e)) => Err(format!("LO HI RECORDS: {e}")),
        }
    } else {
        parse_args(argv).and_then(|args| run(&args))
    };
    if let Err(e) = result {
        eprintln!("train_patterns: {e}");
        std::process::exit(1);
    }
}
