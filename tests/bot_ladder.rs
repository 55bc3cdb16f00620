//! The level ladder: each level beats the one below it in a majority of 100
//! games from varied openings. Levels 8–10 take minutes per pair; their
//! table comes from `reversi ladder` (see `docs/src/computer/design.md`).

use reversi::bot_match::play_pair;
use reversi::cli::ladder_command::format_row;
use reversi::engine::Rules;

#[test]
fn each_level_up_to_7_beats_the_one_below_in_100_games() {
    let rules = Rules::default();
    let mut failures = Vec::new();
    for lower in 1..7u8 {
        let result = play_pair(&rules, lower + 1, lower, 100, 2);
        println!("{}", format_row(&result));
        assert_eq!(result.games(), 100);
        if !result.upper_wins_majority() {
            failures.push(format_row(&result));
        }
    }
    assert!(
        failures.is_empty(),
        "not stronger:\n{}",
        failures.join("\n")
    );
}

#[test]
fn the_same_seeds_replay_the_same_games() {
    let rules = Rules::default();
    let opening = reversi::bot_match::random_opening(&rules, 7, 6);
    let play = || {
        let mut a = reversi::bot::Bot::new(3, 11);
        let mut b = reversi::bot::Bot::new(6, 12);
        reversi::bot_match::play_game(&rules, &opening, [&mut a, &mut b]).moves
    };
    assert_eq!(play(), play());
}
