//! `reversi bench`: the speed figures of this machine, as medians of a few
//! runs — perft (move generation), midgame search nodes per second at a
//! fixed depth on fixed positions, and the exact solve of FFO 40–49.

use std::time::Instant;

use clap::Args;

use super::CliError;
use super::rule_args::RuleArgs;
use super::solve_command::{parse_positions, solve_line};
use crate::engine::{Rules, perft};
use crate::search::Searcher;
use crate::search::benchmark::{midgame_positions, search_midgame_positions};

/// FFO endgame test positions 40–59 (the first ten are benchmarked).
const FFO_40_59: &str = include_str!("../../tests/data/ffo/fforum-40-59.obf");

/// Arguments of `reversi bench`.
#[derive(Debug, Clone, Args)]
pub struct BenchArgs {
    /// Runs of each part; medians are reported.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=100))]
    runs: u32,
    /// Perft depth from the standard start.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=14))]
    perft_depth: u32,
    /// Midgame search depth.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=20))]
    depth: u32,
    /// How many FFO positions from 40 on to solve (10 = 40–49).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(0..=20))]
    ffo: u32,
    /// Threads for the midgame search and the solves (1: deterministic
    /// node counts).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    threads: u32,
}

fn threads_label(threads: u32) -> String {
    if threads == 1 {
        "one thread".to_string()
    } else {
        format!("{threads} threads")
    }
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// Runs `reversi bench`, printing each part as it finishes.
pub fn run(args: &BenchArgs) -> Result<String, CliError> {
    let runs = args.runs;
    // Perft.
    let start = Rules::default().start_position();
    let mut rates = Vec::new();
    let mut leaves = 0;
    for _ in 0..runs {
        let t = Instant::now();
        leaves = perft(&start, args.perft_depth);
        rates.push(leaves as f64 / t.elapsed().as_secs_f64().max(1e-9));
    }
    println!(
        "perft {} (standard start): {leaves} leaves, median {:.1} M leaves/s",
        args.perft_depth,
        median(rates) / 1e6
    );

    // Midgame search at a fixed depth.
    let positions = midgame_positions();
    let mut rates = Vec::new();
    let mut nodes = 0;
    let mut secs = Vec::new();
    for _ in 0..runs {
        let t = Instant::now();
        nodes = search_midgame_positions(&positions, args.depth, args.threads as usize);
        let elapsed = t.elapsed().as_secs_f64().max(1e-9);
        secs.push(elapsed);
        rates.push(nodes as f64 / elapsed);
    }
    println!(
        "midgame search, depth {} on {} positions, {}: {nodes} nodes, median {:.3} s, {:.1} M nodes/s",
        args.depth,
        positions.len(),
        threads_label(args.threads),
        median(secs),
        median(rates) / 1e6
    );

    // FFO 40–49.
    if args.ffo > 0 {
        let all = parse_positions(FFO_40_59, &RuleArgs::default())?;
        let items = &all[..(args.ffo as usize).min(all.len())];
        let mut per_position: Vec<Vec<f64>> = vec![Vec::new(); items.len()];
        let mut totals = Vec::new();
        let mut total_nodes = 0;
        let mut lines = Vec::new();
        for _ in 0..runs {
            let mut searcher = Searcher::new(22);
            let t = Instant::now();
            total_nodes = 0;
            lines.clear();
            for (k, item) in items.iter().enumerate() {
                let result = solve_line(&mut searcher, item, args.threads as usize);
                total_nodes += result.nodes;
                per_position[k].push(result.time.as_secs_f64());
                lines.push((result, item.line));
            }
            totals.push(t.elapsed().as_secs_f64());
        }
        for (k, (result, line)) in lines.iter().enumerate() {
            let ffo = 39 + line;
            let best = result.best.map_or("pass".to_string(), |s| s.to_string());
            println!(
                "  FFO #{ffo}: {best} {:+}  nodes {}  median {:.3} s",
                result.score,
                result.nodes,
                median(per_position[k].clone())
            );
        }
        let total = median(totals);
        println!(
            "FFO #40–#{}: median {total:.2} s, {total_nodes} nodes, {:.1} M nodes/s ({})",
            39 + items.len(),
            total_nodes as f64 / total / 1e6,
            threads_label(args.threads)
        );
    }
    Ok(format!(
        "medians of {runs} run{}\n",
        if runs == 1 { "" } else { "s" }
    ))
}
