//! `reversi nboard`: the engine on standard input and output, speaking the
//! NBoard protocol (see [`crate::nboard`]).
//!
//! A thread reads lines; searches run on another, so a `ping` (or `quit`, or
//! the end of input) arriving mid-search cancels it, as the protocol
//! requires (the GUI pings before it changes the position), and the answer
//! of a cancelled search is not printed: the GUI has moved on. Other lines
//! wait for the search. Every line is flushed as it is written.

use std::collections::VecDeque;
use std::io::{BufRead, Read, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use clap::Args;

use super::{CliError, WeightsRefused};
use crate::nboard::{NboardEngine, Request, SearchAnswer};
use crate::search::patterns::{self, PatternWeights};
use crate::search::{Searcher, Stops};

/// The longest line read; a longer one is skipped with a status line.
const MAX_LINE: usize = 256 * 1024;
/// Transposition tables: 2 × 2^21 entries of 16 bytes, 64 MiB.
const TABLE_BITS: u32 = 21;

/// Arguments of `reversi nboard`.
#[derive(Debug, Clone, Args)]
pub struct NboardArgs {
    /// The evaluation: `patterns` (the shipped pattern weights, the
    /// default; the linear model where they do not apply, on the torus and
    /// with walls), `linear` (the small linear model alone), or the path of a
    /// pattern weights file written by `examples/train_patterns.rs`, to try
    /// newly trained weights in a GUI or an engine match.
    #[arg(long, default_value = "patterns")]
    pub eval: String,
    /// Search as the computer player's level N (1–10) does, ignoring the
    /// GUI's `set depth`.
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=10))]
    pub level: Option<u8>,
    /// Multi-ProbCut's threshold in hundredths of a standard error: larger
    /// cuts fewer moves, 0 searches every move fully.
    #[arg(long, default_value_t = crate::search::probcut::SELECTIVITY)]
    pub selectivity: u32,
    /// Stop every search after this many seconds and answer with the
    /// deepest result finished (for engine matches at a fixed time).
    #[arg(long, value_parser = parse_move_time)]
    pub move_time: Option<Duration>,
    /// With `--move-time`: `go` spends the move time instead of stopping
    /// at the level's node budgets. No iteration of the search starts
    /// after half the time; the exact solve may use all of it. Deeper
    /// where the machine is faster, so the moves depend on its speed.
    #[arg(long, requires = "move_time")]
    pub use_time: bool,
    /// Threads each search runs on (1, the default, plays the same move
    /// every time; more search deeper in the same time).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub threads: u32,
    /// Search every move, even where levels 8–10 would play from the
    /// opening book (engine matches that measure the search alone).
    #[arg(long)]
    pub no_book: bool,
}

/// A time per move: positive seconds, at most a day.
fn parse_move_time(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text
        .parse()
        .map_err(|_| format!("expected seconds, found {text:?}"))?;
    if !(0.001..=86_400.0).contains(&seconds) {
        return Err(format!("expected 0.001–86400 seconds, found {seconds}"));
    }
    Ok(Duration::from_secs_f64(seconds))
}

/// Makes `eval` this process's evaluation, before any search.
fn choose_evaluation(eval: &str) -> Result<(), CliError> {
    let refuse = |source: WeightsRefused| CliError::Weights {
        path: eval.to_string(),
        source,
    };
    let chosen = match eval {
        "patterns" => return Ok(()),
        "linear" => None,
        path => {
            let mut bytes = Vec::new();
            std::fs::File::open(path)
                .and_then(|f| {
                    f.take(patterns::MAX_FILE as u64 + 1)
                        .read_to_end(&mut bytes)
                })
                .map_err(|e| refuse(WeightsRefused::Read(e)))?;
            let weights =
                PatternWeights::decode(&bytes).map_err(|e| refuse(WeightsRefused::Decode(e)))?;
            Some(weights)
        }
    };
    patterns::install(chosen).map_err(|e| refuse(WeightsRefused::InUse(e)))
}

enum Event {
    Line(String),
    TooLong,
    End,
    Done(Box<(Searcher, SearchAnswer)>),
}

/// Reads lines of at most [`MAX_LINE`] bytes into `events` until the input ends.
fn read_lines(events: mpsc::Sender<Event>) {
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    loop {
        let mut line = Vec::new();
        let read = (&mut input)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut line);
        match read {
            Ok(0) | Err(_) => break,
            Ok(_) if line.len() > MAX_LINE && !line.ends_with(b"\n") => {
                // Skip the rest of the overlong line.
                let mut rest = Vec::new();
                while !rest.ends_with(b"\n") {
                    rest.clear();
                    match (&mut input)
                        .take(MAX_LINE as u64)
                        .read_until(b'\n', &mut rest)
                    {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {}
                    }
                }
                if events.send(Event::TooLong).is_err() {
                    return;
                }
            }
            Ok(_) => {
                let text = String::from_utf8_lossy(&line).into_owned();
                if events.send(Event::Line(text)).is_err() {
                    return;
                }
            }
        }
    }
    let _ = events.send(Event::End);
}

fn print(lines: &[String]) -> Result<(), CliError> {
    let mut out = std::io::stdout().lock();
    for line in lines {
        writeln!(out, "{line}").map_err(CliError::Terminal)?;
    }
    out.flush().map_err(CliError::Terminal)
}

/// Whether `line` must stop a running search.
fn interrupts(line: &str) -> bool {
    matches!(line.split_whitespace().next(), Some("ping" | "quit"))
}

/// Runs the protocol until `quit` or the end of input.
pub fn run(args: &NboardArgs) -> Result<String, CliError> {
    choose_evaluation(&args.eval)?;
    let (events_in, events) = mpsc::channel();
    let reader_events = events_in.clone();
    std::thread::spawn(move || read_lines(reader_events));
    let mut engine = NboardEngine::new();
    if let Some(level) = args.level {
        engine.play_as_level(level);
    }
    engine.set_selectivity(args.selectivity);
    engine.use_book(!args.no_book);
    engine.bind_to_clock(args.use_time);
    let new_searcher = || {
        let mut searcher = Searcher::new(TABLE_BITS);
        searcher.set_threads(args.threads as usize);
        searcher
    };
    let mut searcher = Some(new_searcher());
    let mut pending: VecDeque<Event> = VecDeque::new();
    loop {
        let event = match pending.pop_front() {
            Some(e) => e,
            None => events.recv().unwrap_or(Event::End),
        };
        let line = match event {
            Event::Line(line) => line,
            Event::TooLong => {
                print(&[format!("status line longer than {MAX_LINE} bytes skipped")])?;
                continue;
            }
            Event::End => break,
            Event::Done(_) => continue,
        };
        let job = match engine.handle(&line) {
            Request::Reply(lines) => {
                print(&lines)?;
                continue;
            }
            Request::Quit => break,
            Request::Search(job) => job,
        };
        print(&[job.status()])?;
        let cancel = Arc::new(AtomicBool::new(false));
        let wind_down = Arc::new(AtomicBool::new(false));
        let started = Instant::now();
        let mut worker_searcher = searcher.take().unwrap_or_else(new_searcher);
        let done = events_in.clone();
        let stops = Stops {
            now: Some(cancel.clone()),
            wind_down: Some(wind_down.clone()),
        };
        std::thread::spawn(move || {
            let answer = job.run(&mut worker_searcher, &stops);
            let _ = done.send(Event::Done(Box::new((worker_searcher, answer))));
        });
        // Wait for the answer; lines that come meanwhile wait their turn.
        // Running out of time stops the search but its answer is printed;
        // an interruption's is not. Spending the time, the search winds
        // down at half of it first.
        let timers = args.move_time.map(|t| {
            let half = if args.use_time {
                crate::bot::wind_down_after(t)
            } else {
                t
            };
            (started + half, started + t)
        });
        let mut interrupted = false;
        loop {
            let wake = match timers {
                Some((half, _)) if !wind_down.load(Ordering::Relaxed) => Some((half, &wind_down)),
                Some((_, end)) if !cancel.load(Ordering::Relaxed) => Some((end, &cancel)),
                _ => None,
            };
            let event = match wake {
                Some((at, flag)) => {
                    match events.recv_timeout(at.saturating_duration_since(Instant::now())) {
                        Err(mpsc::RecvTimeoutError::Timeout) => {
                            flag.store(true, Ordering::Relaxed);
                            continue;
                        }
                        other => other.ok(),
                    }
                }
                None => events.recv().ok(),
            };
            match event {
                Some(Event::Done(result)) => {
                    let (back, answer) = *result;
                    searcher = Some(back);
                    if !interrupted {
                        print(&answer.lines(started.elapsed()))?;
                    }
                    break;
                }
                Some(Event::Line(line)) => {
                    if interrupts(&line) {
                        interrupted = true;
                        cancel.store(true, Ordering::Relaxed);
                    }
                    pending.push_back(Event::Line(line));
                }
                Some(Event::End) => {
                    interrupted = true;
                    cancel.store(true, Ordering::Relaxed);
                    pending.push_back(Event::End);
                }
                Some(other) => pending.push_back(other),
                None => break,
            }
        }
    }
    Ok(String::new())
}
