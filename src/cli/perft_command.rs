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
    /// Run this many times and report the median time (a benchmark).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1000))]
    runs: u32,
}

/// Runs `reversi perft`: the count alone on the first line, then the speed.
pub fn run(args: &PerftArgs) -> Result<String, CliError> {
    let rules = args.rules.rules()?;
    let moves = parse_transcript(&args.moves)?;
    let position = replay(&rules.start_position(), &moves)?;
    let mut times = Vec::new();
    let mut leaves = 0;
    for _ in 0..args.runs {
        let started = Instant::now();
        leaves = perft(&position, args.depth);
        times.push(started.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    let median = times[times.len() / 2];
    let rate = if median > 0.0 {
        leaves as f64 / median
    } else {
        0.0
    };
    let runs = match times.len() {
        1 => String::new(),
        n => format!(
            " (median of {n} runs; fastest {:.3} s, slowest {:.3} s)",
            times[0],
            times[n - 1]
        ),
    };
    Ok(format!(
        "{leaves}\ntime {median:.3} s, {:.1} million leaves per second{runs}\n",
        rate / 1e6
    ))
}
