//! Audit throughput: complete games (about 60 moves, 64 signed records)
//! audited per second on one core, from the file's bytes (parse, decode,
//! check views, verify every signature and move) and from decoded records.
//!
//! Run: `cargo bench --bench audit_throughput`. Prints the median of 9 rounds.

use std::time::Instant;

use reversi::Rules;
use reversi::match_log::Identity;
use reversi::match_log::audit::audit_log_bytes;
use reversi::match_log::builder::{MatchBuilder, MatchTerms, Players};
use reversi::match_log::log_file::record_line;
use reversi::match_log::record::Record;
use reversi::match_log::rules_proposal::RulesProposal;
use reversi::match_log::verify::verify_log;
use reversi::random_player::{RandomPlayer, SplitMix64};

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
    let terms = MatchTerms {
        proposal: RulesProposal::fixed(Rules::default()),
        deadline_secs: 3600,
        host_name: "Alice".into(),
        guest_name: "Bob".into(),
    };
    let mut builder = MatchBuilder::new(&terms, players, 1_796_000_000_000).unwrap();
    let mut player = RandomPlayer::new(seed);
    let mut clock = 1_796_000_000_000;
    while let Some(position) = builder.verifier().current_position().copied() {
        let Some(square) = player.choose(&position) else {
            break;
        };
        clock += 1000;
        builder.play(square, clock).unwrap();
    }
    builder.records().to_vec()
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
