//! Log builders shared by the match-log tests, the core's and the
//! program's (`tests/support/mod.rs` includes this file).

use reversi_core::engine::{Preset, Rules};
use reversi_core::match_log::Identity;
use reversi_core::match_log::builder::{MatchBuilder, MatchTerms, Players};
use reversi_core::match_log::log_file::record_line;
use reversi_core::match_log::record::{Body, MoveBody, Record, RecordContent, Seat};
use reversi_core::match_log::rules_proposal::RulesProposal;
use reversi_core::match_log::verify::verify_log;
use reversi_core::random_player::{RandomPlayer, SplitMix64};

/// A fixed start time: 2026-11-30T00:00:00Z.
pub const T0: u64 = 1_796_000_000_000;

/// One hour, the deadline of test games.
pub const HOUR_MS: u64 = 3_600_000;

/// Deterministic players from a seed.
pub fn players(seed: u64) -> Players {
    let mut g = SplitMix64::new(seed);
    Players {
        host: Identity::from_secret_bytes(&g.bytes32()),
        guest: Identity::from_secret_bytes(&g.bytes32()),
        host_nonce: g.bytes32(),
        guest_nonce: g.bytes32(),
    }
}

/// Terms for a preset with a one-hour deadline.
pub fn terms(preset: Preset) -> MatchTerms {
    MatchTerms {
        proposal: RulesProposal::fixed(Rules::preset(preset)),
        deadline_secs: 3600,
        host_name: "Alice".into(),
        guest_name: "Bob".into(),
    }
}

/// A game set up (genesis, accept, reveals) with nothing played yet.
pub fn new_game(seed: u64) -> MatchBuilder {
    MatchBuilder::new(&terms(Preset::Othello), players(seed), T0).expect("valid setup")
}

/// Plays `count` random moves (or to the end), one second apart.
pub fn play_random(game: &mut MatchBuilder, seed: u64, count: usize) {
    let mut player = RandomPlayer::new(seed);
    for i in 0..count {
        let Some(position) = game.verifier().current_position().copied() else {
            return;
        };
        let Some(square) = player.choose(&position) else {
            return;
        };
        game.play(square, T0 + 1000 * (i as u64 + 1))
            .expect("legal move");
    }
}

/// A complete game played to the end of the board.
pub fn finished_game(seed: u64) -> MatchBuilder {
    let mut game = new_game(seed);
    play_random(&mut game, seed, 100);
    assert!(game.verifier().end().is_some());
    game
}

/// A short game that ends by resignation.
pub fn resigned_game(seed: u64) -> MatchBuilder {
    let mut game = new_game(seed);
    play_random(&mut game, seed, 6);
    game.resign(Seat::Guest, T0 + 10_000).expect("resign");
    game
}

/// A short game that ends by a timeout claim.
pub fn timed_out_game(seed: u64) -> MatchBuilder {
    let mut game = new_game(seed);
    play_random(&mut game, seed, 5);
    let waiting = game.verifier().seat_to_write().expect("in play").other();
    let last = game.verifier().last_timestamp();
    game.claim_timeout(waiting, last + HOUR_MS)
        .expect("valid claim");
    game
}

/// A log file's text.
pub fn file_text(records: &[Record]) -> String {
    records.iter().map(record_line).collect()
}

/// `content` re-signed by `identity`.
pub fn resign_content(content: RecordContent, identity: &Identity) -> Record {
    Record::sign(content, identity)
}

/// The log up to record `at`, then a different legal move at `at`, validly
/// signed by the same player who wrote the original: an equivocation.
pub fn equivocating_fork(game: &MatchBuilder, at: usize) -> Vec<Record> {
    let full = game.records();
    let mut forked = full[..at].to_vec();
    let position = verify_log(&forked)
        .unwrap()
        .current_position()
        .copied()
        .unwrap();
    let content = full[at].content().clone();
    let Body::Move(MoveBody { square, .. }) = content.body else {
        panic!("record {at} is a move")
    };
    let other = position
        .legal_moves()
        .squares()
        .find(|s| s.index() != square)
        .expect("a second legal move");
    let mut fork = content.clone();
    fork.body = Body::Move(MoveBody {
        square: other.index(),
        position_hash: position.play(other).unwrap().hash().0,
    });
    forked.push(Record::sign(fork, game.identity(content.author)));
    forked
}

/// One day in milliseconds.
pub const DAY_MS: u64 = 24 * HOUR_MS;

/// A player's key from a seed (`Identity::from_seed`'s key, which needs
/// the `test-utils` feature, so that `cargo test -p reversi-core` runs
/// without it).
pub fn person(seed: u64) -> Identity {
    Identity::from_secret_bytes(&SplitMix64::new(seed ^ 0xFACE).bytes32())
}

/// How a decided game ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decided {
    /// The guest resigns.
    HostWins,
    /// The host resigns.
    GuestWins,
    /// One move that leaves the board finished at three discs each.
    Draw,
}

/// A finished game between two given players, every record at `at_ms`.
pub fn decided_game(
    host: (&Identity, &str),
    guest: (&Identity, &str),
    at_ms: u64,
    result: Decided,
) -> MatchBuilder {
    let rules = match result {
        // Black's only move, c1, takes b1; nobody can move after, 3–3.
        Decided::Draw => {
            let setup = super::board_names::grid(
                "X O - - - - - -
                 - - - - - - - -
                 - - - - - - - -
                 - - - - - - - -
                 - - - - - - - -
                 - - - - - - - O
                 - - - - - - - O
                 - - - - - - - O",
                'X',
            );
            Rules::new(Default::default(), setup).expect("a playable start")
        }
        _ => Rules::default(),
    };
    let terms = MatchTerms {
        proposal: RulesProposal::fixed(rules),
        deadline_secs: 3600,
        host_name: host.1.into(),
        guest_name: guest.1.into(),
    };
    let mut g = SplitMix64::new(
        at_ms ^ u64::from_le_bytes(host.0.public_key().to_bytes()[..8].try_into().unwrap()),
    );
    let players = Players {
        host: host.0.clone(),
        guest: guest.0.clone(),
        host_nonce: g.bytes32(),
        guest_nonce: g.bytes32(),
    };
    let mut game = MatchBuilder::new(&terms, players, at_ms).expect("valid setup");
    match result {
        Decided::HostWins => game.resign(Seat::Guest, at_ms).map(|_| ()),
        Decided::GuestWins => game.resign(Seat::Host, at_ms).map(|_| ()),
        Decided::Draw => game.play("c1".parse().unwrap(), at_ms).map(|_| ()),
    }
    .expect("a legal ending");
    assert!(game.verifier().end().is_some());
    game
}
