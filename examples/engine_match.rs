//! A match between two engines that speak the NBoard protocol (for example
//! `reversi nboard` with two evaluations), from varied openings with the
//! colours swapped, as engine-versus-engine tools play it.
//!
//! ```text
//! cargo run --release --example engine_match -- --games 100 --depth 6 \
//!     --a "target/release/reversi nboard --eval linear" \
//!     --b "target/release/reversi nboard"
//! ```
//!
//! Each pair of games starts from the same random opening of 4–11 plies
//! (`--plies LO-HI` to choose: `--plies 1-4` stays where an opening book
//! has something to say) (seeded by the pair's number, so a match is the
//! same in every run); `A`
//! plays Black in the first and White in the second. The score counts a
//! win 1 and a draw ½; an engine that answers an illegal move or closes
//! its output loses that game (there is no clock: one that hangs stops the
//! match). Prints each game and the total with the mean disc
//! difference. `--first-pair N` starts at pair N, so a long match can be
//! split over several processes (`--games 50 --first-pair 25` plays the
//! second half of a 100-game match).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Instant;

use reversi::engine::{Color, Position, Rules, Square};
use reversi::random_player::{SplitMix64, random_opening};

struct Engine {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    seconds: f64,
}

impl Engine {
    fn start(command: &str, depth: u32) -> Result<Engine, String> {
        let mut words = command.split_whitespace();
        let program = words.next().ok_or("an empty engine command")?;
        let mut child = Command::new(program)
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("{command}: {e}"))?;
        let input = child.stdin.take().ok_or("no stdin")?;
        let output = BufReader::new(child.stdout.take().ok_or("no stdout")?);
        let mut engine = Engine {
            child,
            input,
            output,
            seconds: 0.0,
        };
        engine.send(&format!("nboard 2\nset depth {depth}"))?;
        Ok(engine)
    }

    fn send(&mut self, text: &str) -> Result<(), String> {
        writeln!(self.input, "{text}")
            .and_then(|()| self.input.flush())
            .map_err(|e| format!("engine input: {e}"))
    }

    /// Asks for a move: `Some(square)`, `None` for a pass.
    fn go(&mut self) -> Result<Option<Square>, String> {
        let started = Instant::now();
        self.send("go")?;
        loop {
            let mut line = String::new();
            let n = self
                .output
                .read_line(&mut line)
                .map_err(|e| format!("engine output: {e}"))?;
            if n == 0 {
                return Err("the engine closed its output".into());
            }
            if let Some(answer) = line.strip_prefix("=== ") {
                self.seconds += started.elapsed().as_secs_f64();
                let word = answer.split('/').next().unwrap_or("").trim();
                if word.eq_ignore_ascii_case("PA") {
                    return Ok(None);
                }
                return word
                    .parse()
                    .map(Some)
                    .map_err(|e| format!("the engine answered {word:?}: {e}"));
            }
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let _ = self.child.wait();
    }
}

/// The GGF of the start with `moves` played.
fn ggf(moves: &[Square]) -> String {
    let board = "---------------------------O*------*O---------------------------";
    let mut out = format!("(;GM[Othello]PC[engine_match]TY[8]BO[8 {board} *]");
    let mut color = 'B';
    let mut position = Rules::default().start_position();
    for &square in moves {
        if position.to_move() == Some(Color::White) && color == 'B'
            || position.to_move() == Some(Color::Black) && color == 'W'
        {
            out.push_str(&format!("{color}[PA]"));
            color = if color == 'B' { 'W' } else { 'B' };
        }
        out.push_str(&format!("{color}[{square}]"));
        color = if color == 'B' { 'W' } else { 'B' };
        match position.play(square) {
            Ok(next) => position = next,
            Err(_) => break,
        }
    }
    out.push_str(";)");
    out
}

/// Plays one game; returns Black's disc difference (±64 for a forfeit).
fn play(engines: [&mut Engine; 2], opening: &[Square]) -> Result<i32, String> {
    let [black, white] = engines;
    let mut position: Position = Rules::default().start_position();
    for &square in opening {
        position = position.play(square).map_err(|e| e.to_string())?;
    }
    let set = format!("set game {}", ggf(opening));
    black.send(&set)?;
    white.send(&set)?;
    let mut next = position.to_move().unwrap_or(Color::Black);
    while !position.is_over() {
        if position.to_move() != Some(next) {
            black.send("move PA")?;
            white.send("move PA")?;
            next = !next;
            continue;
        }
        let engine = if next == Color::Black {
            &mut *black
        } else {
            &mut *white
        };
        let forfeit = if next == Color::Black { -64 } else { 64 };
        let square = match engine.go() {
            Ok(Some(square)) => square,
            other => {
                eprintln!("engine_match: {next} forfeits: answered {other:?} with a move to play");
                return Ok(forfeit);
            }
        };
        match position.play(square) {
            Ok(after) => position = after,
            Err(e) => {
                eprintln!("engine_match: {next} forfeits: {square}: {e}");
                return Ok(forfeit);
            }
        }
        let text = format!("move {square}");
        black.send(&text)?;
        white.send(&text)?;
        next = !next;
    }
    let counts = position.counts();
    let (b, w) = (
        i32::from(counts[Color::Black]),
        i32::from(counts[Color::White]),
    );
    // Empty squares go to the winner.
    let empty = 64 - b - w;
    Ok(match b.cmp(&w) {
        std::cmp::Ordering::Greater => b - w + empty,
        std::cmp::Ordering::Less => b - w - empty,
        std::cmp::Ordering::Equal => 0,
    })
}

fn run() -> Result<(), String> {
    let (mut a, mut b) = (None, None);
    let (mut games, mut depth, mut first_pair) = (20u32, 6u32, 0u64);
    let mut plies = 4u64..=11;
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--a" => a = Some(value()?),
            "--b" => b = Some(value()?),
            "--games" => games = value()?.parse().map_err(|e| format!("--games: {e}"))?,
            "--depth" => depth = value()?.parse().map_err(|e| format!("--depth: {e}"))?,
            "--plies" => {
                let text = value()?;
                let (lo, hi) = text
                    .split_once('-')
                    .and_then(|(lo, hi)| Some((lo.parse::<u64>().ok()?, hi.parse::<u64>().ok()?)))
                    .filter(|(lo, hi)| lo <= hi && *hi <= 40)
                    .ok_or(format!("--plies: LO-HI with LO ≤ HI ≤ 40, not {text:?}"))?;
                plies = lo..=hi;
            }
            "--first-pair" => {
                first_pair = value()?.parse().map_err(|e| format!("--first-pair: {e}"))?
            }
            other => return Err(format!("unknown argument {other}")),
        }
    }
    let (a, b) = (a.ok_or("--a ENGINE needed")?, b.ok_or("--b ENGINE needed")?);
    let mut engine_a = Engine::start(&a, depth)?;
    let mut engine_b = Engine::start(&b, depth)?;
    let rules = Rules::default();
    let (mut score_a, mut discs_a) = (0.0f64, 0i64);
    for game in 0..games {
        let pair = first_pair + u64::from(game / 2);
        let span = plies.end() - plies.start() + 1;
        let count = plies.start() + SplitMix64::new(pair).next_u64() % span;
        let opening = random_opening(&rules, pair, count as usize);
        let a_black = game % 2 == 0;
        let black_diff = if a_black {
            play([&mut engine_a, &mut engine_b], &opening)?
        } else {
            play([&mut engine_b, &mut engine_a], &opening)?
        };
        let a_diff = if a_black { black_diff } else { -black_diff };
        score_a += match a_diff.signum() {
            1 => 1.0,
            0 => 0.5,
            _ => 0.0,
        };
        discs_a += i64::from(a_diff);
        println!(
            "game {:>3}: A as {}, A {:+}",
            game + 1,
            if a_black { "Black" } else { "White" },
            a_diff
        );
    }
    let n = f64::from(games.max(1));
    println!(
        "A {score_a} – B {} of {games} ({:.1} % for B); mean disc difference for B {:+.2}; \
         thinking time A {:.1} s, B {:.1} s",
        f64::from(games) - score_a,
        100.0 * (f64::from(games) - score_a) / n,
        -(discs_a as f64) / n,
        engine_a.seconds,
        engine_b.seconds
    );
    Ok(())
}

fn main() {
    if let Err(e) = run() {
        eprintln!("engine_match: {e}");
        std::process::exit(1);
    }
}
