//! What the register of signed records costs each record this side signs:
//! a whole game's own records (one after the other, as a game signs them)
//! claimed through the data directory's register (a lock, the game's file
//! read, a new one written, flushed and renamed, the folder flushed),
//! against signing alone.
//!
//! Run: `cargo bench --bench signing_register`. Prints medians of 9 rounds.

use std::time::Instant;

mod support;

use reversi::data_dir::DataDir;
use reversi::match_log::builder::Players;
use reversi::match_log::record::Record;
use reversi::match_log::{Identity, Seat};

const ROUNDS: usize = 9;

/// A whole game in which `guest` plays the guest.
fn game(guest: &Identity, seed: u64) -> Vec<Record> {
    let players = Players {
        host: Identity::from_seed(seed),
        guest: guest.clone(),
        host_nonce: [1; 32],
        guest_nonce: [2; 32],
    };
    support::random_game(players, seed)
}

fn median(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

fn main() {
    let dir = std::env::temp_dir().join(format!("reversi-bench-register-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let data = DataDir::resolve(Some(&dir)).unwrap();
    let me = data.identity().unwrap();
    let register = data.register(&me.public_key());
    let mut per_claim = Vec::new();
    let mut per_sign = Vec::new();
    let mut claimed = 0;
    for round in 0..ROUNDS {
        let records = game(&me, round as u64 + 1);
        let mine: Vec<usize> = (0..records.len())
            .filter(|&i| records[i].content().author == Seat::Guest)
            .collect();
        let handle = register.for_log(&dir.join(format!("game-{round}.log")));
        let start = Instant::now();
        for &i in &mine {
            handle.claim(&records[..i], &records[i]).unwrap();
        }
        per_claim.push(start.elapsed().as_secs_f64() * 1000.0 / mine.len() as f64);
        claimed += mine.len();
        let start = Instant::now();
        for &i in &mine {
            std::hint::black_box(Record::sign(records[i].content().clone(), &me));
        }
        per_sign.push(start.elapsed().as_secs_f64() * 1000.0 / mine.len() as f64);
    }
    let (claim, sign) = (median(per_claim), median(per_sign));
    println!(
        "register claim: {claim:.3} ms per record (median of {ROUNDS} games, {claimed} records); signing alone: {sign:.3} ms; claim/sign {:.0}x",
        claim / sign
    );
    let _ = std::fs::remove_dir_all(&dir);
}
