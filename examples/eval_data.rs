//! Generates training positions for the evaluation: self-play games from
//! varied openings, every endgame position solved exactly.
//!
//! ```text
//! cargo run --release --example eval_data -- --games 20000 --threads 2
//! ```
//!
//! Resumable and incremental: the positions go to `DIR/VARIANT.bin`
//! (default `target/eval-data/`, outside git) and `DIR/VARIANT.progress`
//! holds how many games are complete and how many bytes they wrote. A run
//! continues from there (a file cut short by a crash is truncated back to
//! the last complete batch), so the data can grow over several sittings;
//! `--games` is the total wanted, not the number to add.
//!
//! How a game goes (its seed is its number, so a game is the same in every
//! run):
//! 1. a random opening of 4–23 plies, then the level-4 bot (with its noise)
//!    until `--solve-at` empties or fewer remain;
//! 2. from there every position is solved exactly and recorded with its
//!    score; the move played is the best one half of the time and a random
//!    legal one otherwise, so the recorded endgames are not all perfect
//!    play;
//! 3. the midgame positions before that are recorded unlabelled, for a
//!    later labelling pass by search (the bootstrap of the earlier phases).
//!
//! A record is 20 bytes, little-endian: the side to move's discs (u64), the
//! other side's (u64), the label in discs for the side to move (i16), the
//! label's source (u8: 0 exact, 255 none, d a d-ply search) and a zero
//! byte. The file starts with the 8-byte magic `RVEDATA1`.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use reversi::bot::Bot;
use reversi::bot_match::random_opening;
use reversi::engine::{Position, Rules};
use reversi::random_player::SplitMix64;
use reversi::search::board::Board;
use reversi::search::{Budget, Searcher};

#[path = "shared/data_format.rs"]
mod data_format;
use data_format::{EXACT, MAGIC, RECORD, UNLABELLED};

struct Args {
    games: u64,
    solve_at: u32,
    threads: usize,
    variant: String,
    dir: PathBuf,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        games: 1000,
        solve_at: 20,
        threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        variant: "plane".into(),
        dir: PathBuf::from("target/eval-data"),
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        let number = |v: String| v.parse::<u64>().map_err(|e| format!("{flag}: {e}"));
        match flag.as_str() {
            "--games" => args.games = number(value()?)?,
            "--solve-at" => args.solve_at = number(value()?)?.clamp(1, 30) as u32,
            "--threads" => args.threads = number(value()?)?.clamp(1, 256) as usize,
            "--variant" => args.variant = value()?,
            "--dir" => args.dir = PathBuf::from(value()?),
            other => return Err(format!("unknown argument {other}")),
        }
    }
    if !matches!(args.variant.as_str(), "plane" | "torus") {
        return Err(format!(
            "--variant: expected plane or torus, found {}",
            args.variant
        ));
    }
    Ok(args)
}

/// One recorded position.
struct Sample {
    board: Board,
    label: i16,
    source: u8,
}

impl Sample {
    fn encode(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.board.player.to_le_bytes());
        out.extend_from_slice(&self.board.opponent.to_le_bytes());
        out.extend_from_slice(&self.label.to_le_bytes());
        out.push(self.source);
        out.push(0);
    }
}

/// The positions of game number `game`.
fn play(rules: &Rules, game: u64, solve_at: u32, searcher: &mut Searcher) -> Vec<Sample> {
    let topology = rules.options().topology;
    let mut random = SplitMix64::new(game ^ 0x005E_ED0F_DA7A);
    let plies = 4 + (random.next_u64() % 20) as usize;
    let mut position: Position = rules.start_position();
    for square in random_opening(rules, game, plies) {
        match position.play(square) {
            Ok(next) => position = next,
            Err(_) => break,
        }
    }
    let mut bot = Bot::new(4, game);
    let mut samples = Vec::new();
    searcher.clear();
    while position.to_move().is_some() {
        let Some(board) = Board::from_position(&position) else {
            break;
        };
        let square = if board.empties() > solve_at {
            samples.push(Sample {
                board,
                label: 0,
                source: UNLABELLED,
            });
            bot.choose(&position)
        } else {
            let Some(solution) = searcher.solve(&board, topology, &Budget::nodes(0)) else {
                break;
            };
            samples.push(Sample {
                board,
                label: solution.score as i16,
                source: EXACT,
            });
            let legal: Vec<_> = position.legal_moves().squares().collect();
            if random.next_u64().is_multiple_of(2) || legal.is_empty() {
                solution.best
            } else {
                Some(legal[(random.next_u64() % legal.len() as u64) as usize])
            }
        };
        let Some(square) = square else { break };
        match position.play(square) {
            Ok(next) => position = next,
            Err(_) => break,
        }
    }
    samples
}

/// Where a run stands: complete games and the bytes they wrote.
fn read_progress(path: &Path) -> Result<(u64, u64), String> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((0, MAGIC.len() as u64)),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let mut words = text.split_ascii_whitespace();
    let mut field = |name: &str| -> Result<u64, String> {
        match (words.next(), words.next()) {
            (Some(n), Some(v)) if n == name => v
                .parse()
                .map_err(|e| format!("{}: {name}: {e}", path.display())),
            _ => Err(format!("{}: expected `{name} N`", path.display())),
        }
    };
    let games = field("games")?;
    let bytes = field("bytes")?;
    Ok((games, bytes))
}

fn open_data(path: &Path, bytes: u64) -> Result<File, String> {
    let err = |e: std::io::Error| format!("{}: {e}", path.display());
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(err)?;
    let length = file.metadata().map_err(err)?.len();
    if length == 0 {
        file.write_all(MAGIC).map_err(err)?;
    } else {
        let mut magic = [0u8; 8];
        file.read_exact(&mut magic).map_err(err)?;
        if &magic != MAGIC {
            return Err(format!("{}: not an eval_data file", path.display()));
        }
    }
    let length = file.metadata().map_err(err)?.len();
    if length < bytes || !(bytes - MAGIC.len() as u64).is_multiple_of(RECORD as u64) {
        return Err(format!(
            "{}: {length} bytes, but the progress file counts {bytes}",
            path.display()
        ));
    }
    // A batch written after the last progress update is dropped.
    file.set_len(bytes).map_err(err)?;
    file.seek(SeekFrom::End(0)).map_err(err)?;
    Ok(file)
}

fn run(args: &Args) -> Result<(), String> {
    std::fs::create_dir_all(&args.dir).map_err(|e| format!("{}: {e}", args.dir.display()))?;
    let data_path = args.dir.join(format!("{}.bin", args.variant));
    let progress_path = args.dir.join(format!("{}.progress", args.variant));
    let (done, bytes) = read_progress(&progress_path)?;
    let file = open_data(&data_path, bytes)?;
    let rules = match args.variant.as_str() {
        "torus" => Rules::preset(reversi::engine::Preset::Torus),
        _ => Rules::default(),
    };
    if done >= args.games {
        eprintln!("eval_data: {done} games already, nothing to do");
        return Ok(());
    }
    eprintln!(
        "eval_data: {} from game {done} to {}, solving from {} empties",
        data_path.display(),
        args.games,
        args.solve_at
    );
    // Games finish out of order; they are written in order so the progress
    // file's count is always a prefix of game numbers.
    struct Writer {
        file: File,
        bytes: u64,
        next: u64,
        waiting: std::collections::BTreeMap<u64, Vec<u8>>,
        positions: u64,
        exact: u64,
    }
    let writer = Mutex::new(Writer {
        file,
        bytes,
        next: done,
        waiting: Default::default(),
        positions: 0,
        exact: 0,
    });
    let counter = AtomicU64::new(done);
    let started = Instant::now();
    let failure: Mutex<Option<String>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..args.threads {
            scope.spawn(|| {
                let mut searcher = Searcher::new(22);
                loop {
                    let game = counter.fetch_add(1, Ordering::Relaxed);
                    if game >= args.games || failure.lock().map_or(true, |f| f.is_some()) {
                        break;
                    }
                    let samples = play(&rules, game, args.solve_at, &mut searcher);
                    let mut encoded = Vec::with_capacity(samples.len() * RECORD);
                    for s in &samples {
                        s.encode(&mut encoded);
                    }
                    let mut w = writer.lock().unwrap_or_else(|e| e.into_inner());
                    w.positions += samples.len() as u64;
                    w.exact += samples.iter().filter(|s| s.source == EXACT).count() as u64;
                    w.waiting.insert(game, encoded);
                    let mut wrote = false;
                    while let Some(bytes) = {
                        let next = w.next;
                        w.waiting.remove(&next)
                    } {
                        if let Err(e) = w.file.write_all(&bytes) {
                            *failure.lock().unwrap_or_else(|e| e.into_inner()) =
                                Some(format!("{}: {e}", data_path.display()));
                            return;
                        }
                        w.bytes += bytes.len() as u64;
                        w.next += 1;
                        wrote = true;
                    }
                    if wrote && (w.next.is_multiple_of(20) || w.next == args.games) {
                        let _ = w.file.flush();
                        let _ = w.file.sync_data();
                        let text = format!("games {}\nbytes {}\n", w.next, w.bytes);
                        let tmp = progress_path.with_extension("progress.tmp");
                        let result = std::fs::write(&tmp, text)
                            .and_then(|()| std::fs::rename(&tmp, &progress_path));
                        if let Err(e) = result {
                            *failure.lock().unwrap_or_else(|e| e.into_inner()) =
                                Some(format!("{}: {e}", progress_path.display()));
                            return;
                        }
                        if w.next.is_multiple_of(200) {
                            let secs = started.elapsed().as_secs_f64();
                            eprintln!(
                                "  {} games, {} positions this run ({} exact), {:.1} games/s",
                                w.next,
                                w.positions,
                                w.exact,
                                (w.next - done) as f64 / secs
                            );
                        }
                    }
                }
            });
        }
    });
    if let Some(e) = failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    let w = writer.into_inner().unwrap_or_else(|e| e.into_inner());
    eprintln!(
        "eval_data: {} games, {} records in {} ({} positions, {} exact this run, {:.0} s)",
        w.next,
        (w.bytes - MAGIC.len() as u64) / RECORD as u64,
        data_path.display(),
        w.positions,
        w.exact,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

fn main() {
    let result = parse_args().and_then(|args| run(&args));
    if let Err(e) = result {
        eprintln!("eval_data: {e}");
        std::process::exit(1);
    }
}
