//! `reversi board`: play a transcript and show the position.

use std::fmt::Write as _;

use clap::Args;
use serde_json::{Value, json};

use super::CliError;
use super::rule_args::RuleArgs;
use crate::engine::{Color, Position, Rules, Square, format_transcript, parse_transcript, replay};

/// Arguments of `reversi board`.
#[derive(Debug, Clone, Args)]
pub struct BoardArgs {
    #[command(flatten)]
    rules: RuleArgs,
    /// Moves to play from the start, e.g. f5d6c3 (passes are automatic).
    #[arg(long, value_name = "TRANSCRIPT", default_value = "")]
    moves: String,
    /// Print one JSON object instead of the board.
    #[arg(long)]
    json: bool,
}

/// Runs `reversi board`, returning what to print.
pub fn run(args: &BoardArgs) -> Result<String, CliError> {
    let rules = args.rules.rules()?;
    let moves = parse_transcript(&args.moves)?;
    let position = replay(&rules.start_position(), &moves)?;
    Ok(if args.json {
        let mut text = board_json(&rules, &position, &moves).to_string();
        text.push('\n');
        text
    } else {
        board_text(&rules, &position, &moves)
    })
}

fn squares_json(squares: impl Iterator<Item = Square>) -> Value {
    squares.map(|sq| Value::String(sq.to_string())).collect()
}

pub use crate::match_log::export::outcome_json;

fn board_json(rules: &Rules, position: &Position, moves: &[Square]) -> Value {
    let counts = position.counts();
    let options = rules.options();
    json!({
        "black": counts.black,
        "white": counts.white,
        "empty": position.empty().count(),
        "walls": squares_json(position.walls().squares()),
        "to_move": position.to_move().map(Color::name),
        "legal": squares_json(position.legal_moves().squares()),
        "over": position.is_over(),
        "result": position.outcome().as_ref().map(outcome_json),
        "supply": {
            "black": position.supply(Color::Black),
            "white": position.supply(Color::White),
        },
        "opening_placements_left": position.opening_placements_left(),
        "moves": format_transcript(moves),
        "position_hash": position.hash().to_hex(),
        "position_bytes": position.canonical_bytes().iter().map(|b| format!("{b:02x}")).collect::<String>(),
        "rules": {
            "opening": options.opening.to_string(),
            "discs": options.discs.to_string(),
            "scoring": options.scoring.to_string(),
            "draw": options.draw.to_string(),
            "topology": options.topology.to_string(),
            "start": rules.start().to_string(),
        },
    })
}

/// The board as a grid: `X` black, `O` white, `#` wall, `*` a legal move.
pub fn grid_text(position: &Position) -> String {
    let legal = position.legal_moves();
    let mut out = String::from("   a b c d e f g h\n");
    for row in 0..8 {
        let _ = write!(out, "{} ", row + 1);
        for column in 0..8 {
            let sq = Square::from_coords(column, row).expect("in range");
            let cell = if position.walls().contains(sq) {
                '#'
            } else if position.discs(Color::Black).contains(sq) {
                'X'
            } else if position.discs(Color::White).contains(sq) {
                'O'
            } else if legal.contains(sq) {
                '*'
            } else {
                '-'
            };
            let _ = write!(out, " {cell}");
        }
        out.push('\n');
    }
    out
}

fn board_text(rules: &Rules, position: &Position, moves: &[Square]) -> String {
    let counts = position.counts();
    let mut out = grid_text(position);
    let _ = writeln!(out, "rules: {}", rules.options());
    if !moves.is_empty() {
        let _ = writeln!(out, "moves: {}", format_transcript(moves));
    }
    let _ = writeln!(
        out,
        "discs: black {}, white {}, empty {}",
        counts.black,
        counts.white,
        position.empty().count()
    );
    if let (Some(b), Some(w)) = (position.supply(Color::Black), position.supply(Color::White)) {
        let _ = writeln!(out, "in hand: black {b}, white {w}");
    }
    if position.opening_placements_left() > 0 {
        let _ = writeln!(
            out,
            "opening placements left: {}",
            position.opening_placements_left()
        );
    }
    match (position.to_move(), position.outcome()) {
        (Some(color), _) => {
            let legal: Vec<String> = position
                .legal_moves()
                .squares()
                .map(|s| s.to_string())
                .collect();
            let _ = writeln!(out, "to move: {color}");
            let _ = writeln!(out, "legal: {}", legal.join(" "));
        }
        (None, Some(outcome)) => {
            let _ = writeln!(out, "game over: {}", outcome);
        }
        (None, None) => {}
    }
    let _ = writeln!(out, "position hash: {}", position.hash());
    out
}
