//! The fixed work `reversi bench` times and the browser build times the
//! same way: a midgame search to a fixed depth on fixed positions, so the
//! two can be compared node for node (the counts must agree: the search
//! is deterministic on every platform). The clock is the caller's.

use super::{Limits, Searcher};
use crate::engine::{Position, Rules};
use crate::random_player::random_opening;

/// Ten midgame positions: 20 plies from ten seeded random openings.
pub fn midgame_positions() -> Vec<Position> {
    let rules = Rules::default();
    (1..=10u64)
        .filter_map(|seed| {
            let mut position = rules.start_position();
            for sq in random_opening(&rules, seed, 20) {
                position = position.play(sq).ok()?;
            }
            position.to_move().map(|_| position)
        })
        .collect()
}

/// Searches every position to `depth` (a fresh table each) on `threads`
/// threads and returns the nodes searched in all (on one thread the same
/// count every time).
pub fn search_midgame_positions(positions: &[Position], depth: u32, threads: usize) -> u64 {
    // Every node searched, so the counts compare across versions.
    let limits = Limits::midgame_only(depth, 0);
    let mut searcher = Searcher::new(20);
    searcher.set_threads(threads);
    positions
        .iter()
        .map(|position| {
            searcher.clear();
            searcher
                .think(position, &limits, None)
                .map_or(0, |thought| thought.nodes)
        })
        .sum()
}
