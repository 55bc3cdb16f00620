//! The `.obf` positions parser of `reversi solve`, and the solver on what it
//! accepts (bounded: positions with few empties only), must never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use reversi::cli::rule_args::RuleArgs;
use reversi::cli::solve_command::{LinePosition, parse_positions, solve_line};
use reversi::search::Searcher;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(items) = parse_positions(text, &RuleArgs::default()) else {
        return;
    };
    let mut searcher = Searcher::new(10);
    for item in items.iter().take(4) {
        if let LinePosition::Game(position) = &item.position {
            if position.empty().count() <= 10 && position.opening_placements_left() == 0 {
                let result = solve_line(&mut searcher, item);
                assert!(result.score.abs() <= 64);
            }
        }
    }
});
