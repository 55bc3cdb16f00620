//! What the benchmarks share: whole games played by the seeded random
//! player, signed by the players given.

use reversi::engine::Rules;
use reversi::match_log::builder::{MatchBuilder, MatchTerms, Players};
use reversi::match_log::record::Record;
use reversi::match_log::rules_proposal::RulesProposal;
use reversi::random_player::RandomPlayer;

/// A whole game (about 60 moves) between `players`, the moves chosen by
/// the random player seeded with `seed`, one second apart.
pub fn random_game(players: Players, seed: u64) -> Vec<Record> {
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
