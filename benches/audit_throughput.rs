//! Audit throughput: complete games (about 60 moves, 64 signed records)
//! audited per second on one core, from the file's bytes (parse, decode,
//! check views, verify every signature and move) and from decoded records.
//!
//! Run: `cargo bench --bench audit_throughput`. Prints the median of 9 rounds.

use std::time::Instant;

mod support;

use reversi::match_log::Identity;
use reversi::match_log::audit::audit_log_bytes;
use reversi::match_log::builder::Players;
use reversi::match_log::log_file::record_line;
use reversi::match_log::record::Record;
use reversi::match_log::verify::verify_log;
use reversi::random_player::SplitMix64;

const GAMES: usize = 50;
const ROUNDS: usize = 9;

fn game(seed: u64) -> Vec<Record> {
    let mut g = SplitMix64::new(seed);
    let players = Players {
        host: Identity::from_secret_bytes(&g.bytes32()),
        guest: Identity::from_secret_bytes(&g.bytes32()),
        host_nonce: g.bytes32(),
        guest_nonce: g.bytes32(),
    };
    support::random_game(players, seed)
}

fn median_rate(mut run: impl FnMut()) -> (f64, f64, f64) {
    let mut rates: Vec<f64> = (0..ROUNDS)
        .map(|_| {
            let start = Instant::now();
            run();
            GAMES as f64 / start.elapsed().as_secs_f64()
        })
        .collect();
    rates.sort_by(f64::total_cmp);
    (rates[ROUNDS / 2], rates[0], rates[ROUNDS - 1])
}

fn main() {
    let games: Vec<Vec<Record>> = (0..GAMES as u64).map(game).collect();
    let files: Vec<String> = games
        .iter()
        .map(|g| g.iter().map(record_line).collect())
        .collect();
    let records: usize = games.iter().map(Vec::len).sum();
    println!(
        "{GAMES} games, {:.1} records per game on average",
        records as f64 / GAMES as f64
    );

    let (median, low, high) = median_rate(|| {
        for file in &files {
            audit_log_bytes(file.as_bytes()).expect("valid");
        }
    });
    println!(
        "audit from file bytes: median {median:.0} games/s (range {low:.0}–{high:.0}), {ROUNDS} rounds"
    );

    let (median, low, high) = median_rate(|| {
        for game in &games {
            verify_log(game).expect("valid");
        }
    });
    println!(
        "verify decoded records: median {median:.0} games/s (range {low:.0}–{high:.0}), {ROUNDS} rounds"
    );
}
