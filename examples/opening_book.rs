//! Builds the opening book (`src/search/opening_book.bin`, read by
//! `reversi::search::book`) from real games: the positions of the first
//! `--plies` plies that at least `--min-games` games of the WTHOR
//! tournament archive or Logistello's book reached, each valued by a
//! `--depth`-ply search of this program, the values backed up through the
//! book by negamax.
//!
//! ```text
//! cargo run --release --example opening_book -- --dir DIR \
//!     [--data ../shared/data] [--plies 16] [--min-games 12] [--depth 14] \
//!     [--threads 1] [--out src/search/opening_book.bin]
//! ```
//!
//! Three steps, each resumable from what it left in `DIR` (outside git):
//! 1. `DIR/book-positions.bin`: the positions, canonical under the board's
//!    eight symmetries, with how many games reached each (written whole,
//!    then renamed; a few seconds). Online (PLAYOK) games are left out:
//!    the book follows strong players.
//! 2. `DIR/book-values.bin`: one deep search per position, appended as it
//!    finishes, so a run cut short loses at most the searches under way.
//! 3. The book: each position's value is its best book child's (negated),
//!    or its own search's when that search's move leaves the book and is
//!    worth more, from the last ply back to the start; written to `--out`
//!    once every position has its search.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use reversi::engine::game_archive::{ArchivedGame, GameError, read_gam, read_wthor};
use reversi::engine::topology::{Geometry, Plane};
use reversi::engine::{Bitboard, Color, Position, RuleOptions, Rules, Setup};
use reversi::search::board::Board;
use reversi::search::book::OpeningBook;
use reversi::search::symmetry::canonical;
use reversi::search::{Limits, Score, Searcher, probcut};

#[path = "shared/logbook.rs"]
mod logbook;
use logbook::read_logbook;

struct Args {
    data: PathBuf,
    dir: PathBuf,
    plies: u32,
    min_games: u32,
    depth: u32,
    threads: usize,
    out: PathBuf,
}

const USAGE: &str = "usage: opening_book --dir DIR [--data ../shared/data] [--plies 16] \
[--min-games 12] [--depth 14] [--threads 1] [--out src/search/opening_book.bin]";

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        data: PathBuf::from("../shared/data"),
        dir: PathBuf::new(),
        plies: 16,
        min_games: 12,
        depth: 14,
        threads: 1,
        out: PathBuf::from("src/search/opening_book.bin"),
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().ok_or(USAGE)?;
        let number = |max: u32| -> Result<u32, String> {
            match value.parse::<u32>() {
                Ok(n) if (1..=max).contains(&n) => Ok(n),
                _ => Err(format!(
                    "{flag}: a whole number from 1 to {max}, not {value:?}"
                )),
            }
        };
        match flag.as_str() {
            "--data" => args.data = PathBuf::from(&value),
            "--dir" => args.dir = PathBuf::from(&value),
            "--plies" => args.plies = number(30)?,
            "--min-games" => args.min_games = number(1_000_000)?,
            "--depth" => args.depth = number(30)?,
            "--threads" => args.threads = number(64)? as usize,
            "--out" => args.out = PathBuf::from(&value),
            _ => return Err(USAGE.into()),
        }
    }
    if args.dir.as_os_str().is_empty() {
        return Err(USAGE.into());
    }
    Ok(args)
}

/// A position (canonical side to move, other side) and how many games
/// reached it.
type Counted = ((u64, u64), u32);

/// The side to move's discs and the other side's, if someone is to move.
fn sides(position: &Position) -> Option<(u64, u64)> {
    let mover = position.to_move()?;
    Some((position.discs(mover).0, position.discs(!mover).0))
}

/// Step 1: how many games reached each position of the first `plies`.
fn collect(args: &Args) -> Result<Vec<Counted>, String> {
    let mut counts: HashMap<(u64, u64), u32> = HashMap::new();
    let mut games = [0usize; 2];
    let mut skipped = 0usize;
    let mut add = |game: Result<ArchivedGame, GameError>, source: usize| {
        let Ok(game) = game else {
            skipped += 1;
            return;
        };
        games[source] += 1;
        // Each move adds a disc, so a game never reaches a position twice.
        for position in game.positions() {
            if position.empty().count() + args.plies < 60 {
                break;
            }
            if let Some((p, o)) = sides(&position) {
                *counts.entry(canonical(p, o)).or_default() += 1;
            }
        }
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(args.data.join("wthor"))
        .map_err(|e| format!("{}: {e}", args.data.join("wthor").display()))?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "wtb"))
        .collect();
    files.sort();
    for path in &files {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let archive = read_wthor(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        // Tournament files carry theoretical scores; the online games do not.
        if archive.header().depth == 0 {
            continue;
        }
        for game in archive.games() {
            add(game, 0);
        }
    }
    let text = read_logbook(&args.data)?;
    for game in read_gam(&text) {
        add(game, 1);
    }
    let mut kept: Vec<Counted> = counts
        .into_iter()
        .filter(|&(_, n)| n >= args.min_games)
        .collect();
    kept.sort_unstable();
    println!(
        "{} WTHOR tournament and {} Logistello games read ({skipped} skipped): \
         {} positions of the first {} plies reached by at least {} games",
        games[0],
        games[1],
        kept.len(),
        args.plies,
        args.min_games
    );
    Ok(kept)
}

fn write_positions(path: &Path, positions: &[Counted]) -> Result<(), String> {
    let mut bytes = Vec::with_capacity(positions.len() * 20);
    for &((p, o), n) in positions {
        bytes.extend_from_slice(&p.to_le_bytes());
        bytes.extend_from_slice(&o.to_le_bytes());
        bytes.extend_from_slice(&n.to_le_bytes());
    }
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, bytes).map_err(|e| format!("{}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("{}: {e}", path.display()))
}

fn read_positions(path: &Path) -> Result<Vec<Counted>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if bytes.len() % 20 != 0 {
        return Err(format!("{}: not a whole number of records", path.display()));
    }
    Ok(bytes
        .chunks_exact(20)
        .map(|r| {
            let word = |at: usize| u64::from_le_bytes(r[at..at + 8].try_into().unwrap_or([0; 8]));
            let n = u32::from_le_bytes(r[16..20].try_into().unwrap_or([0; 4]));
            ((word(0), word(8)), n)
        })
        .collect())
}

/// Bytes of one search's record: the position (two `u64`), its value
/// (`i32`, hundredths of a disc) and the square of its best move (`u8`,
/// then three zero bytes), little-endian.
const SEARCHED: usize = 24;

/// A deep search's result: the value for the side to move, and its move.
#[derive(Clone, Copy)]
struct Searched {
    value: i32,
    best: u8,
}

/// The searches finished so far (a cut-short last record is dropped).
fn read_values(path: &Path) -> Result<HashMap<(u64, u64), Searched>, String> {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    Ok(bytes
        .chunks_exact(SEARCHED)
        .map(|r| {
            let word = |at: usize| u64::from_le_bytes(r[at..at + 8].try_into().unwrap_or([0; 8]));
            let value = i32::from_le_bytes(r[16..20].try_into().unwrap_or([0; 4]));
            ((word(0), word(8)), Searched { value, best: r[20] })
        })
        .collect())
}

/// The position with `player` (as Black) to move.
fn position_of(player: u64, opponent: u64) -> Option<Position> {
    let setup = Setup {
        black: Bitboard(player),
        white: Bitboard(opponent),
        walls: Bitboard::EMPTY,
        to_move: Color::Black,
    };
    Rules::new(RuleOptions::default(), setup)
        .ok()
        .map(|r| r.start_position())
}

/// Step 2: a deep search of every position without a value yet.
fn value_all(args: &Args, positions: &[Counted]) -> Result<(), String> {
    let path = args.dir.join("book-values.bin");
    let done = read_values(&path)?;
    let todo: Vec<(u64, u64)> = positions
        .iter()
        .map(|&(key, _)| key)
        .filter(|key| !done.contains_key(key))
        .collect();
    println!(
        "{} positions searched before, {} to search at depth {}",
        done.len(),
        todo.len(),
        args.depth
    );
    // Records are appended whole; a partial one left by a kill is cut off.
    let whole = std::fs::metadata(&path).map_or(0, |m| m.len() / SEARCHED as u64 * SEARCHED as u64);
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    file.set_len(whole).map_err(|e| e.to_string())?;
    let out = Mutex::new(file);
    let next = AtomicUsize::new(0);
    let finished = AtomicUsize::new(0);
    let started = Instant::now();
    let limits = Limits {
        depth: args.depth,
        exact_empties: 0,
        nodes: 0,
        solve_nodes: 0,
        noise: 0,
        seed: 0,
        selectivity: probcut::SELECTIVITY,
    };
    let failed: Mutex<Option<String>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..args.threads {
            scope.spawn(|| {
                let mut searcher = Searcher::new(22);
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&(p, o)) = todo.get(k) else { break };
                    let Some(position) = position_of(p, o) else {
                        *failed.lock().unwrap_or_else(|e| e.into_inner()) = Some(format!(
                            "a book position does not set up: {p:016x} {o:016x}"
                        ));
                        break;
                    };
                    searcher.clear();
                    let Some(thought) = searcher.think(&position, &limits, None) else {
                        continue;
                    };
                    let value = match thought.score {
                        Score::Estimate(v) => v,
                        Score::Exact(v) => 100 * v,
                    };
                    let mut record = Vec::with_capacity(SEARCHED);
                    record.extend_from_slice(&p.to_le_bytes());
                    record.extend_from_slice(&o.to_le_bytes());
                    record.extend_from_slice(&value.to_le_bytes());
                    record.extend_from_slice(&[thought.best.index(), 0, 0, 0]);
                    let written = out
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .write_all(&record);
                    if let Err(e) = written {
                        *failed.lock().unwrap_or_else(|e| e.into_inner()) = Some(e.to_string());
                        break;
                    }
                    let n = finished.fetch_add(1, Ordering::Relaxed) + 1;
                    if n.is_multiple_of(100) || n == todo.len() {
                        let secs = started.elapsed().as_secs_f64();
                        eprintln!(
                            "{n}/{} searched, {:.2} s each, {:.0} min to go",
                            todo.len(),
                            secs / n as f64,
                            secs / n as f64 * (todo.len() - n) as f64 / 60.0
                        );
                    }
                }
            });
        }
    });
    match failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// Step 3: the values backed up from the last ply to the first. A
/// position's value is the best of its book children's (negated); its own
/// search's value counts too when that search's move leaves the book (a
/// position without book children has only that). Comparing the two only
/// then keeps the odd-even swing of searches one ply apart from taking
/// the book out of its own lines.
fn back_up(positions: &[Counted], searched: &HashMap<(u64, u64), Searched>) -> OpeningBook {
    let mut order: Vec<(u64, u64)> = positions.iter().map(|&(key, _)| key).collect();
    // Each ply adds one disc: the most discs first.
    order.sort_by_key(|&(p, o)| std::cmp::Reverse((p | o).count_ones()));
    let mut backed: HashMap<(u64, u64), i32> = HashMap::new();
    let (mut leaves, mut leaving) = (0usize, 0usize);
    for (p, o) in order {
        let Some(&own) = searched.get(&(p, o)) else {
            continue;
        };
        let board = Board {
            player: p,
            opponent: o,
            empty: !(p | o),
            player_supply: reversi::search::board::UNLIMITED,
            opponent_supply: reversi::search::board::UNLIMITED,
        };
        let mut children: Option<i32> = None;
        let mut search_stays = false;
        let mut rest = board.moves::<Plane>();
        while rest != 0 {
            let square = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            let child = board.play(square, Plane::flips(p, o, square));
            if let Some(&v) = backed.get(&canonical(child.player, child.opponent)) {
                children = Some(children.map_or(-v, |c| c.max(-v)));
                search_stays |= square == own.best;
            }
        }
        let value = match children {
            None => {
                leaves += 1;
                own.value
            }
            Some(c) if search_stays => c,
            Some(c) => {
                if own.value > c {
                    leaving += 1;
                }
                c.max(own.value)
            }
        };
        backed.insert((p, o), value);
    }
    println!(
        "{} positions in the book: {leaves} without book moves, {leaving} whose search's move \
         outside the book is better than every book move",
        backed.len()
    );
    OpeningBook::from_entries(backed)
}

fn run(args: &Args) -> Result<(), String> {
    std::fs::create_dir_all(&args.dir).map_err(|e| format!("{}: {e}", args.dir.display()))?;
    let started = Instant::now();
    let listed = args.dir.join("book-positions.bin");
    let positions = if listed.exists() {
        read_positions(&listed)?
    } else {
        let positions = collect(args)?;
        write_positions(&listed, &positions)?;
        println!("step 1 took {:.1?}", started.elapsed());
        positions
    };
    value_all(args, &positions)?;
    let searched = read_values(&args.dir.join("book-values.bin"))?;
    let missing = positions
        .iter()
        .filter(|(k, _)| !searched.contains_key(k))
        .count();
    if missing > 0 {
        return Err(format!(
            "{missing} positions still lack a search: run again"
        ));
    }
    let book = back_up(&positions, &searched);
    let bytes = book.encode();
    std::fs::write(&args.out, &bytes).map_err(|e| format!("{}: {e}", args.out.display()))?;
    println!(
        "{} ({} bytes) written in {:.1?}",
        args.out.display(),
        bytes.len(),
        started.elapsed()
    );
    let start = Rules::default().start_position();
    if let Some(board) = Board::from_position(&start) {
        match book.choose(&board) {
            Some(m) => println!(
                "at the start the book plays square {} ({:+.2})",
                m.square,
                f64::from(m.value) / 100.0
            ),
            None => println!("the book has no move at the start"),
        }
    }
    Ok(())
}

fn main() {
    let args = match parse_args() {
        Ok(args) => args,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    if let Err(e) = run(&args) {
        eprintln!("opening_book: {e}");
        std::process::exit(1);
    }
}
