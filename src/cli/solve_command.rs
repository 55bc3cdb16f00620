//! `reversi solve FILE`: exact endgame scores of positions in `.obf` format.
//!
//! Every line is parsed and checked before any is solved, so a malformed
//! file is reported at once, naming the line. Results print in file order
//! as they finish. `--threads N` solves each position on N threads;
//! `--jobs J` solves J positions at once.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use clap::Args;

use super::CliError;
use super::rule_args::RuleArgs;
use crate::engine::Square;
use crate::engine::obf::{MAX_OBF_BYTES, ObfPosition, ObfState, parse_obf};
use crate::search::board::Board;
use crate::search::{Budget, Searcher};

/// The solver's table by default: 2^24 entries, 256 MiB per job. A
/// larger table loses fewer entries in long solves: FFO #53 took 2.12 G
/// nodes with it, 2.30 G with 2^22 (design chapter).
const TABLE_BITS: u32 = 24;

/// Arguments of `reversi solve`.
#[derive(Debug, Clone, Args)]
pub struct SolveArgs {
    /// Positions, one per line: 64 cells a1…h1, a2…h8 (`X`, `O`, `-`, `#`
    /// for a wall), a space, the side to move `X` or `O`, optionally `;` and
    /// annotations (ignored).
    file: PathBuf,
    #[command(flatten)]
    rules: RuleArgs,
    /// Threads solving each position together (the root's moves shared
    /// out once the first is solved).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: u32,
    /// Positions solved at once, each on `--threads` threads.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    jobs: u32,
    /// Each job's transposition table holds 2^N entries of 16 bytes (24:
    /// 256 MiB; 27: 2 GiB); long solves search fewer nodes with a larger one.
    #[arg(long, default_value_t = TABLE_BITS, value_parser = clap::value_parser!(u32).range(16..=27))]
    table_bits: u32,
}

/// The answer for one line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineResult {
    /// The move to play: a square, or `None` for a pass or a finished game.
    pub best: Option<Square>,
    /// Whether the game is over in this position.
    pub over: bool,
    /// The exact score for the side to move as written.
    pub score: i32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken.
    pub time: Duration,
}

impl LineResult {
    /// `<line> <move> <score>  nodes N  time T s` (the move is `pass` when
    /// the side to move must pass, `none` when the game is over).
    pub fn format(&self, line: usize) -> String {
        let mv = match (self.best, self.over) {
            (Some(sq), _) => sq.to_string(),
            (None, true) => "none".to_string(),
            (None, false) => "pass".to_string(),
        };
        let secs = self.time.as_secs_f64();
        let rate = if secs > 0.0 {
            format!("{:.1} M nodes/s", self.nodes as f64 / secs / 1e6)
        } else {
            "-".to_string()
        };
        format!(
            "{line} {mv} {:+}  nodes {}  time {secs:.3} s  ({rate})",
            self.score, self.nodes
        )
    }
}

/// Reads the positions of an `.obf` text under the rule flags (see
/// [`parse_obf`]).
pub fn parse_positions(text: &str, rules: &RuleArgs) -> Result<Vec<ObfPosition>, CliError> {
    let options = rules.options();
    Ok(parse_obf(text, options, rules.walls()?)?)
}

/// Solves one position exactly (no budget). The searcher's tables are
/// cleared first, so the node count does not depend on what was solved
/// before (or on which thread).
pub fn solve_line(searcher: &mut Searcher, item: &ObfPosition, threads: usize) -> LineResult {
    searcher.clear();
    let started = Instant::now();
    let position = match &item.state {
        ObfState::Game(position) => position,
        &ObfState::Finished(score) => {
            return LineResult {
                best: None,
                over: true,
                score,
                nodes: 0,
                time: started.elapsed(),
            };
        }
    };
    // Passes were applied when the position was built.
    let mover = position.to_move().unwrap_or(item.side);
    let topology = position.options().topology;
    let solution = match Board::from_position(position) {
        Some(board) => searcher.solve_on_threads(&board, topology, &Budget::nodes(0), threads),
        None => None,
    };
    let (score, best, nodes) = match solution {
        Some(s) => (s.score, s.best, s.nodes),
        None => (0, None, 0),
    };
    // A forced pass was applied: the other side is to move in `position`.
    let (score, best) = if mover == item.side {
        (score, best)
    } else {
        (-score, None)
    };
    LineResult {
        best,
        over: false,
        score,
        nodes,
        time: started.elapsed(),
    }
}

/// Runs `reversi solve`.
pub fn run(args: &SolveArgs) -> Result<String, CliError> {
    if args.rules.setup.is_some() {
        return Err(CliError::SetupInSolve);
    }
    let file = || args.file.clone();
    let bytes = read_limited(&args.file).map_err(|source| CliError::File {
        path: file(),
        source,
    })?;
    let text = String::from_utf8(bytes).map_err(|_| CliError::NotText { path: file() })?;
    let items = match parse_positions(&text, &args.rules) {
        Err(CliError::Obf(source)) => {
            return Err(CliError::Positions {
                path: file(),
                source,
            });
        }
        other => other?,
    };
    if items
        .iter()
        .any(|item| matches!(&item.state, ObfState::Game(p) if p.opening_placements_left() > 0))
    {
        return Err(CliError::SolveInOpening);
    }

    let started = Instant::now();
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<(usize, LineResult)>();
    let jobs = (args.jobs as usize).min(items.len());
    let threads = args.threads as usize;
    let mut total_nodes = 0u64;
    let mut stdout = std::io::stdout().lock();
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            let tx = tx.clone();
            let (items, next) = (&items, &next);
            let table_bits = args.table_bits;
            scope.spawn(move || {
                let mut searcher = Searcher::for_solving(table_bits);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = items.get(i) else { break };
                    if tx
                        .send((i, solve_line(&mut searcher, item, threads)))
                        .is_err()
                    {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut pending = BTreeMap::new();
        let mut printed = 0;
        for (i, result) in rx {
            pending.insert(i, result);
            while let Some(result) = pending.remove(&printed) {
                total_nodes += result.nodes;
                // A closed stdout (a pipe to `head`) must not stop the work.
                let _ = writeln!(stdout, "{}", result.format(items[printed].line));
                let _ = stdout.flush();
                printed += 1;
            }
        }
    });
    let secs = started.elapsed().as_secs_f64();
    let rate = if secs > 0.0 {
        total_nodes as f64 / secs / 1e6
    } else {
        0.0
    };
    Ok(format!(
        "solved {} positions: {total_nodes} nodes in {secs:.3} s ({rate:.1} M nodes/s, {} thread{})\n",
        items.len(),
        jobs * threads,
        if jobs * threads == 1 { "" } else { "s" }
    ))
}

fn read_limited(path: &std::path::Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let file = std::fs::File::open(path)?;
    let mut bytes = Vec::new();
    file.take(MAX_OBF_BYTES as u64 + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() > MAX_OBF_BYTES {
        return Err(std::io::Error::other(format!(
            "larger than {} MiB",
            MAX_OBF_BYTES >> 20
        )));
    }
    Ok(bytes)
}
