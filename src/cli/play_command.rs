//! `reversi play`: a game in the terminal against the bot (without a
//! command, the desktop client opens instead).

use std::io::{BufRead, Write};
use std::time::{SystemTime, UNIX_EPOCH};

use clap::{Args, ValueEnum};

use super::CliError;
use super::board_command::grid_text;
use super::rule_args::RuleArgs;
use crate::bot::Bot;
use crate::engine::{Color, Position, Square, format_transcript};

/// Nodes a hint may search (a fraction of a second).
const HINT_NODES: u64 = 4_000_000;

/// Which colour the person at the terminal plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum ColorChoice {
    /// Black, who moves first.
    #[default]
    Black,
    /// White.
    White,
    /// Chosen by the seed.
    Random,
}

/// Arguments of `reversi play`.
#[derive(Debug, Clone, Default, Args)]
pub struct PlayArgs {
    #[command(flatten)]
    rules: RuleArgs,
    /// Your colour.
    #[arg(long, value_enum, default_value_t = ColorChoice::Black)]
    color: ColorChoice,
    /// Seed of the computer's choices (default: from the clock).
    #[arg(long)]
    seed: Option<u64>,
    /// The computer's level, 1 (Novice) to 10 (Champion).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u8).range(1..=10))]
    level: u8,
    /// The computer searches every move, even where levels 8–10 would play
    /// from the opening book.
    #[arg(long)]
    no_book: bool,
}

/// Runs `reversi play` on the process's terminal.
pub fn run(args: &PlayArgs) -> Result<String, CliError> {
    let seed = args.seed.unwrap_or_else(|| {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    });
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout();
    play_game(args, seed, stdin.lock(), &mut stdout)?;
    Ok(String::new())
}

/// Plays one game, reading the person's moves from `input`; ends early
/// when `input` closes or says `quit`. Returns the moves played.
pub fn play_game(
    args: &PlayArgs,
    seed: u64,
    mut input: impl BufRead,
    output: &mut impl Write,
) -> Result<Vec<Square>, CliError> {
    let rules = args.rules.rules()?;
    let mut computer = Bot::for_play(args.level, seed);
    computer.set_book(!args.no_book);
    let human = match args.color {
        ColorChoice::Black => Color::Black,
        ColorChoice::White => Color::White,
        ColorChoice::Random if seed.is_multiple_of(2) => Color::Black,
        ColorChoice::Random => Color::White,
    };
    let mut position = rules.start_position();
    let mut moves = Vec::new();
    let mut say = |text: &str| writeln!(output, "{text}").map_err(CliError::Terminal);
    say(&format!(
        "You play {human} ({}) against level {} ({}). Rules: {}. Type a square such as f5, hint, or quit.",
        human.symbol(),
        computer.spec().level,
        computer.spec().name,
        rules.options()
    ))?;
    while let Some(mover) = position.to_move() {
        let square = if mover == human {
            say(&format!("\n{}", status(&position)))?;
            match read_move(&mut input, &position, &mut say)? {
                Some(square) => square,
                None => {
                    say(&format!(
                        "Game left unfinished: {}",
                        format_transcript(&moves)
                    ))?;
                    return Ok(moves);
                }
            }
        } else {
            let square = computer
                .choose(&position)
                .expect("the side to move has a move");
            say(&format!("Computer ({mover}) plays {square}."))?;
            square
        };
        let report = position.play_with_report(square).expect("checked legal");
        if let Some(skipped) = report.skipped {
            let why = if report.position.supply(skipped) == Some(0) {
                "has no discs left"
            } else {
                "has no legal move"
            };
            say(&format!("{skipped} {why} and is skipped."))?;
        }
        position = report.position;
        moves.push(square);
    }
    let outcome = position
        .outcome()
        .expect("the loop ends when the game is over");
    say(&format!("\n{}", grid_text(&position)))?;
    say(&format!("Game over: {}", outcome))?;
    say(&format!("Transcript: {}", format_transcript(&moves)))?;
    Ok(moves)
}

fn status(position: &Position) -> String {
    let counts = position.counts();
    format!(
        "{}black {} white {}; legal moves are marked *",
        grid_text(position),
        counts.black,
        counts.white
    )
}

/// Reads lines until one is a legal move; `None` on end of input or `quit`.
fn read_move(
    input: &mut impl BufRead,
    position: &Position,
    say: &mut impl FnMut(&str) -> Result<(), CliError>,
) -> Result<Option<Square>, CliError> {
    loop {
        say("Your move:")?;
        let mut line = String::new();
        if input.read_line(&mut line).map_err(CliError::Terminal)? == 0 {
            return Ok(None);
        }
        let text = line.trim();
        if text.eq_ignore_ascii_case("quit") {
            return Ok(None);
        }
        if text.eq_ignore_ascii_case("hint") || text == "?" {
            match crate::search::hint(position, HINT_NODES) {
                Some(hint) => say(&format!("Hint: {} {}", hint.best, hint.score))?,
                None => say("No move to hint.")?,
            }
            continue;
        }
        match text.parse::<Square>() {
            Ok(square) => match position.play(square) {
                Ok(_) => return Ok(Some(square)),
                Err(error) => say(&format!("Not legal: {error}."))?,
            },
            Err(error) => say(&format!("{error}."))?,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripted_input_plays_reports_errors_and_quits() {
        let args = PlayArgs::default();
        let input = b"zz\na1\nhint\nf5\nquit\n";
        let mut output = Vec::new();
        let moves = play_game(&args, 1, &input[..], &mut output).unwrap();
        let text = String::from_utf8(output).unwrap();
        assert!(text.contains("expected a square from a1 to h8, found \"zz\""));
        assert!(text.contains("Not legal: a1 flips nothing."));
        assert!(text.contains("Computer (white) plays"));
        assert!(text.contains("Hint: "), "{text}");
        assert_eq!(moves.len(), 2, "f5 and the computer's reply");
        assert!(text.contains("Game left unfinished: f5"));
    }

    #[test]
    fn a_whole_game_reaches_the_result() {
        let args = PlayArgs {
            color: ColorChoice::White,
            ..PlayArgs::default()
        };
        // Answer every prompt with every square; illegal ones are refused.
        let all: String = Square::all()
            .map(|s| format!("{s}\n"))
            .collect::<String>()
            .repeat(64);
        let mut output = Vec::new();
        let moves = play_game(&args, 5, all.as_bytes(), &mut output).unwrap();
        let text = String::from_utf8(output).unwrap();
        assert!(text.contains("Game over:"), "{text}");
        assert!(moves.len() > 20);
    }
}
