//! The `.obf` positions reader (the engine's `parse_obf`), and the solver
//! on what it accepts (bounded: positions with few empties only), must
//! never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use reversi::engine::obf::{ObfState, parse_obf};
use reversi::engine::{Bitboard, RuleOptions};
use reversi::search::board::Board;
use reversi::search::{Budget, Searcher};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(items) = parse_obf(text, RuleOptions::default(), Bitboard::EMPTY) else {
        return;
    };
    let mut searcher = Searcher::new(10);
    for item in items.iter().take(4) {
        if let ObfState::Game(position) = &item.state {
            if position.empty().count() <= 10 && position.opening_placements_left() == 0 {
                let topology = position.options().topology;
                if let Some(board) = Board::from_position(position) {
                    let solved = searcher.solve_on_threads(&board, topology, &Budget::nodes(0), 1);
                    assert!(solved.is_none_or(|s| s.score.abs() <= 64));
                }
            }
        }
    }
});
