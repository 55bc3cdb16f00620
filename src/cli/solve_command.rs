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
use super::rule_args::{RuleArgs, RuleArgsError};
use crate::engine::{Color, Position, Setup, SetupError, Square};
use crate::search::board::Board;
use crate::search::{Budget, Searcher};

/// Largest positions file read (a few thousand lines is already hours of work).
const MAX_FILE_BYTES: u64 = 4 << 20;
/// Transposition table size per thread: 2^22 entries, 64 MiB.
const TABLE_BITS: u32 = 22;

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
}

/// One position to solve, as read from the file.
#[derive(Debug, Clone)]
pub struct PositionLine {
    /// 1-based line number in the file.
    pub line: usize,
    /// The side to move as written.
    pub side: Color,
    /// The position to solve.
    pub position: LinePosition,
}

/// A position from the file: playable, or already finished.
#[derive(Debug, Clone)]
pub enum LinePosition {
    /// A checked position (any forced pass already applied).
    Game(Position),
    /// Neither side can move: the final score for the side as written.
    Finished(i32),
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

/// Parses the lines of a positions file under the rule flags; blank lines
/// and lines starting with `%` or `#!` comments are skipped. The error
/// names the first bad line.
pub fn parse_positions(text: &str, rules: &RuleArgs) -> Result<Vec<PositionLine>, String> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let content = raw.split(';').next().unwrap_or("").trim();
        if content.is_empty() || content.starts_with('%') {
            continue;
        }
        let setup: Setup = content.parse().map_err(|e| format!("line {line}: {e}"))?;
        let side = setup.to_move;
        let position = match rules.rules_from(setup) {
            Ok(checked) => LinePosition::Game(checked.start_position()),
            Err(RuleArgsError::Invalid(SetupError::NoLegalMove)) => {
                let (black, white) = (setup.black.count() as i32, setup.white.count() as i32);
                let (own, other) = match side {
                    Color::Black => (black, white),
                    Color::White => (white, black),
                };
                let empties = 64 - own - other - setup.walls.count() as i32;
                let raw = own - other;
                LinePosition::Finished(raw + raw.signum() * empties)
            }
            Err(e) => return Err(format!("line {line}: {e}")),
        };
        out.push(PositionLine {
            line,
            side,
            position,
        });
    }
    if out.is_empty() {
        return Err("no positions in the file".to_string());
    }
    Ok(out)
}

/// Solves one position exactly (no budget). The searcher's tables are
/// cleared first, so the node count does not depend on what was solved
/// before (or on which thread).
pub fn solve_line(searcher: &mut Searcher, item: &PositionLine, threads: usize) -> LineResult {
    searcher.clear();
    let started = Instant::now();
    let position = match &item.position {
        LinePosition::Game(position) => position,
        &LinePosition::Finished(score) => {
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
        return Err(CliError::Positions(
            "--setup does not apply to solve: the positions come from the file".to_string(),
        ));
    }
    let name = args.file.display();
    let bytes =
        read_limited(&args.file).map_err(|e| CliError::Positions(format!("{name}: {e}")))?;
    let text = String::from_utf8(bytes)
        .map_err(|_| CliError::Positions(format!("{name}: not UTF-8 text")))?;
    let items = parse_positions(&text, &args.rules)
        .map_err(|e| CliError::Positions(format!("{name}: {e}")))?;
    if items.iter().any(
        |item| matches!(&item.position, LinePosition::Game(p) if p.opening_placements_left() > 0),
    ) {
        return Err(CliError::Positions(
            "the free and double openings place discs without flipping; solve positions after the opening"
                .to_string(),
        ));
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
            scope.spawn(move || {
                let mut searcher = Searcher::new(TABLE_BITS);
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
    file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(std::io::Error::other(format!(
            "larger than {} MiB",
            MAX_FILE_BYTES >> 20
        )));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn any_text_is_parsed_or_refused_without_a_panic(text in "\\PC{0,200}") {
            let _ = parse_positions(&text, &RuleArgs::default());
        }

        #[test]
        fn near_positions_are_parsed_or_refused_with_the_line(
            cells in "[XO#xo.Q-]{60,68}",
            side in "[XOZ ]{0,2}",
            annotation in ";?[ -~]{0,20}",
        ) {
            let text = format!("\n{cells} {side}{annotation}\n");
            match parse_positions(&text, &RuleArgs::default()) {
                Ok(items) => prop_assert_eq!(items[0].line, 2),
                Err(e) => prop_assert!(e.contains("line 2"), "{}", e),
            }
        }
    }
}
