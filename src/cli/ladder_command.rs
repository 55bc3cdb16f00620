//! `reversi ladder`: each level plays the one below it from varied openings;
//! prints the table (the check that every level is stronger than the last).

use clap::Args;

use super::CliError;
use super::rule_args::RuleArgs;
use crate::bot::level_spec;
use crate::bot_match::{PairResult, play_pair};

/// Arguments of `reversi ladder`.
#[derive(Debug, Clone, Args)]
pub struct LadderArgs {
    /// Games per pair of neighbouring levels (each opening twice, colours swapped).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(2..=10_000))]
    games: u32,
    /// Lowest level.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=9))]
    from: u8,
    /// Highest level.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u8).range(2..=10))]
    to: u8,
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: u32,
    #[command(flatten)]
    rules: RuleArgs,
}

/// One table row.
pub fn format_row(r: &PairResult) -> String {
    let ms = |(t, n): (std::time::Duration, u32)| {
        if n == 0 {
            0.0
        } else {
            t.as_secs_f64() * 1000.0 / f64::from(n)
        }
    };
    format!(
        "{:>2} {:<13} vs {:>2} {:<13} {:>5} {:>6} {:>5}  {:>+7.1}  {:>9.1} {:>9.1}  {}",
        r.upper,
        level_spec(r.upper).name,
        r.lower,
        level_spec(r.lower).name,
        r.wins,
        r.losses,
        r.draws,
        r.margin_sum as f64 / f64::from(r.games().max(1)),
        ms(r.upper_time),
        ms(r.lower_time),
        if r.upper_wins_majority() {
            "ok"
        } else {
            "NOT STRONGER"
        }
    )
}

/// Runs `reversi ladder`.
pub fn run(args: &LadderArgs) -> Result<String, CliError> {
    if args.from >= args.to {
        return Err(CliError::LadderRange);
    }
    let rules = args.rules.rules()?;
    println!(
        "higher level        lower level        wins losses draws  margin  ms/move hi ms/move lo"
    );
    let mut all_ok = true;
    for lower in args.from..args.to {
        let r = play_pair(&rules, lower + 1, lower, args.games, args.threads as usize);
        all_ok &= r.upper_wins_majority();
        println!("{}", format_row(&r));
    }
    Ok(if all_ok {
        "every level won a majority against the level below\n".to_string()
    } else {
        "some level did not win a majority against the level below\n".to_string()
    })
}
