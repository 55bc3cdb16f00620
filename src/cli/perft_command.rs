//! `reversi perft`: count leaf nodes and report the speed.

use std::time::Instant;

use clap::Args;

use super::CliError;
use super::rule_args::RuleArgs;
use crate::engine::{parse_transcript, perft, replay};

/// Arguments of `reversi perft`.
#[derive(Debug, Clone, Args)]
pub struct PerftArgs {
    /// Plies to search (a forced pass is one ply).
    #[arg(value_parser = clap::value_parser!(u32).range(0..=20))]
    depth: u32,
    #[command(flatten)]
    rules: RuleArgs,
    /// Moves to play first, e.g. f5d6.
    #[arg(long, value_name = "TRANSCRIPT", default_value = "")]
    moves: String,
}

/// Runs `reversi perft`: the count alone on the first line, then the speed.
pub fn run(args: &PerftArgs) -> Result<String, CliError> {
    let rules = args.rules.rules()?;
    let moves = parse_transcript(&args.moves)?;
    let position = replay(&rules.start_position(), &moves)?;
    let started = Instant::now();
    let leaves = perft(&position, args.depth);
    let seconds = started.elapsed().as_secs_f64();
    let rate = if seconds > 0.0 {
        leaves as f64 / seconds
    } else {
        0.0
    };
    Ok(format!(
        "{leaves}\ntime {seconds:.3} s, {:.1} million leaves per second\n",
        rate / 1e6
    ))
}
