//! `reversi watch CODE`: follow a game as a spectator. Every record comes
//! from the server's mailbox and is verified before it is shown; the
//! spectator signs nothing and sends nothing.

use std::time::{Duration, Instant};

use clap::Args;
use serde_json::{Value, json};

use super::CliError;
use super::board_command::{grid_text, outcome_json};
use super::correspondence_commands::clock_ms;
use super::network_commands::runtime;
use crate::engine::{Color, format_transcript};
use crate::match_log::record::{Body, Seat, hex};
use crate::match_log::verify::Phase;
use crate::match_log::{MatchVerifier, Record};
use crate::net::watch::{APPEAR_WITHIN, WatchCode, WatchError, Watcher};

/// Arguments of `reversi watch`.
#[derive(Debug, Clone, Args)]
pub struct WatchArgs {
    /// The watch code (GAME_ID@SERVER) a player shared.
    code: String,
    /// Print where the game stands now and exit (instead of following it).
    #[arg(long)]
    once: bool,
    /// With --once: print one JSON object.
    #[arg(long, requires = "once")]
    json: bool,
    /// How often to ask the mailbox for news.
    #[arg(long, default_value = "2s", value_parser = humantime::parse_duration)]
    every: Duration,
}

fn name(v: &MatchVerifier, seat: Seat) -> String {
    v.player(seat)
        .map_or_else(|| seat.name().to_string(), |p| p.name.clone())
}

fn name_of_color(v: &MatchVerifier, color: Color) -> String {
    v.seat_of(color)
        .map_or_else(|| color.to_string(), |s| name(v, s))
}

/// A line for one verified record (`index` in the log), from the state
/// the whole verified log established.
fn describe(v: &MatchVerifier, index: usize, record: &Record) -> String {
    let author = name(v, record.content().author);
    match &record.content().body {
        Body::Genesis(_) | Body::OpenGenesis(_) => format!(
            "{} hosts: {}, {} per move",
            name(v, Seat::Host),
            v.proposal().rules.options(),
            humantime::format_duration(Duration::from_secs(u64::from(v.deadline_secs())))
        ),
        Body::RematchGenesis(r) => format!(
            "{} proposes a rematch of game {}: {}",
            name(v, Seat::Host),
            &hex(&r.previous)[..16],
            v.proposal().rules.options()
        ),
        Body::Accept(_) | Body::OpenAccept(_) => format!("{} accepts", name(v, Seat::Guest)),
        Body::Reveal(_) if record.content().author == Seat::Host => {
            format!("{author} reveals the host's nonce")
        }
        Body::Reveal(_) => match v.coin_flip() {
            Some(flip) => match flip.tie_chooser {
                Some(chooser) => format!(
                    "the coin is flipped: {} chooses which colour wins an equal count",
                    name(v, chooser)
                ),
                None => format!(
                    "the coin is flipped: {} plays black, {} white",
                    name(v, flip.black),
                    name(v, flip.black.other())
                ),
            },
            None => "the coin is flipped".to_string(),
        },
        Body::TieWinner(_) => {
            let color = v
                .choices()
                .tie_winner
                .map_or("?".into(), |c| c.color.to_string());
            format!("{author} chose: an equal count wins for {color}")
        }
        Body::SeatColor(_) => {
            let color = v
                .choices()
                .seat_color
                .map_or("?".into(), |c| c.color.to_string());
            format!("{author} chose to play {color}")
        }
        Body::Move(_) => match v.moves().iter().position(|m| m.record == index) {
            Some(i) => {
                let m = v.moves()[i];
                format!(
                    "{:>2}. {} {} ({})",
                    i + 1,
                    m.color,
                    m.square,
                    name_of_color(v, m.color)
                )
            }
            None => format!("{author} moves"),
        },
        Body::Resign => format!("{author} resigns"),
        Body::TimeoutClaim(_) => format!("{author} claims the win on time"),
    }
}

/// Whose clock runs and how long is left.
fn clock_line(v: &MatchVerifier, now_ms: u64) -> Option<String> {
    if !matches!(
        v.phase(),
        Phase::Playing | Phase::AwaitTieWinner | Phase::AwaitSeatColor
    ) {
        return None;
    }
    let seat = v.seat_to_write()?;
    let at = v
        .last_timestamp()
        .saturating_add(u64::from(v.deadline_secs()) * 1000);
    let left = Duration::from_secs(at.saturating_sub(now_ms) / 1000);
    Some(format!(
        "{}'s clock: {} left",
        name(v, seat),
        humantime::format_duration(left)
    ))
}

fn result_line(v: &MatchVerifier) -> Option<String> {
    v.end().map(|e| {
        let winner = e.outcome.winner.map_or(String::new(), |c| {
            format!(" — {} wins", name_of_color(v, c))
        });
        format!("game over: {}{winner}", e.outcome)
    })
}

fn state_text(v: &MatchVerifier, now_ms: u64) -> String {
    let mut out = format!(
        "game {}: {} (host) vs {} (guest), {} records\n",
        hex(&v.game_id()),
        name(v, Seat::Host),
        name(v, Seat::Guest),
        v.record_count()
    );
    match v.black_seat() {
        Some(black) => out.push_str(&format!(
            "black: {}; white: {}\n",
            name(v, black),
            name(v, black.other())
        )),
        None if v.coin_flip().is_some() => out.push_str("the colours are being chosen\n"),
        None => {}
    }
    let squares: Vec<_> = v.moves().iter().map(|m| m.square).collect();
    if !squares.is_empty() {
        out.push_str(&format!("moves: {}\n", format_transcript(&squares)));
    }
    if let Some(position) = v.current_position() {
        out.push_str(&grid_text(position));
    }
    if let Some(line) = clock_line(v, now_ms) {
        out.push_str(&format!("{line}\n"));
    }
    if let Some(line) = result_line(v) {
        out.push_str(&format!("{line}\n"));
    }
    out
}

fn state_json(v: &MatchVerifier, now_ms: u64) -> Value {
    let squares: Vec<_> = v.moves().iter().map(|m| m.square).collect();
    let player = |seat| {
        v.player(seat).map(|p| {
            json!({
                "name": p.name,
                "fingerprint": p.key.fingerprint().to_string(),
                "color": v.black_seat().map(|b| if b == seat { "black" } else { "white" }),
            })
        })
    };
    json!({
        "game_id": hex(&v.game_id()),
        "records": v.record_count(),
        "host": player(Seat::Host),
        "guest": player(Seat::Guest),
        "moves": squares.len(),
        "transcript": format_transcript(&squares),
        "to_move": v.current_position().and_then(|p| p.to_move()).map(Color::name),
        "counts": v.current_position().map(|p| json!({ "black": p.counts().black, "white": p.counts().white })),
        "clock": clock_line(v, now_ms),
        "result": v.end().map(|e| outcome_json(&e.outcome)),
    })
}

/// Runs `reversi watch`.
pub fn run(args: &WatchArgs) -> Result<String, CliError> {
    let code: WatchCode = args.code.parse()?;
    let runtime = runtime()?;
    let mut watcher = Watcher::new(code);
    if args.once {
        runtime.block_on(watcher.fetch())?;
        let v = watcher.verifier().ok_or(CliError::NothingToWatch)?;
        return Ok(if args.json {
            format!("{}\n", state_json(v, clock_ms()?))
        } else {
            state_text(v, clock_ms()?)
        });
    }
    eprintln!("watching {} (Ctrl-C stops)", watcher.code());
    let mut shown = 0;
    let mut unreachable = false;
    let mut missing_since: Option<Instant> = None;
    loop {
        match runtime.block_on(watcher.fetch()) {
            Ok(_) => unreachable = false,
            // A game just begun may not have reached the mailbox yet: wait
            // for it a while. Once seen, a server that is away for a while
            // is waited for below.
            Err(e @ WatchError::NotFound { .. }) if shown == 0 => {
                let since = *missing_since.get_or_insert_with(|| {
                    eprintln!(
                        "the game is not in the mailbox yet; waiting up to {} s",
                        APPEAR_WITHIN.as_secs()
                    );
                    Instant::now()
                });
                if since.elapsed() >= APPEAR_WITHIN {
                    return Err(e.into());
                }
            }
            Err(WatchError::Mailbox(e)) => {
                if !unreachable {
                    eprintln!("the mailbox is out of reach ({e}); trying again");
                }
                unreachable = true;
            }
            Err(e) => return Err(e.into()),
        }
        if let Some(v) = watcher.verifier() {
            let new = &watcher.records()[shown..];
            let moved = new
                .iter()
                .any(|r| matches!(r.content().body, Body::Move(_)));
            for (i, record) in new.iter().enumerate() {
                println!("{}", describe(v, shown + i, record));
            }
            shown = watcher.records().len();
            if moved {
                if let Some(position) = v.current_position() {
                    print!("{}", grid_text(position));
                }
                if let Some(line) = clock_line(v, clock_ms()?) {
                    println!("{line}");
                }
            }
            if let Some(line) = result_line(v) {
                return Ok(format!("{line}\n"));
            }
        }
        std::thread::sleep(args.every);
    }
}
