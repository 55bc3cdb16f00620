//! The search against published answers and against a plain minimax.

mod support;

use proptest::prelude::*;
use reversi::cli::rule_args::RuleArgs;
use reversi::cli::solve_command::{parse_positions, solve_line};
use reversi::engine::obf::ObfState;
use reversi::engine::{Position, Rules, Square};
use reversi::random_player::RandomPlayer;
use reversi::search::board::Board;
use reversi::search::{Budget, Limits, Score, Searcher, hint, probcut};
use support::rules_from_flags;

/// The published scores of every move in an `.obf` annotation
/// (`G8:+18; H1:+12; …`).
fn published(line: &str) -> Vec<(Square, i32)> {
    line.split(';')
        .skip(1)
        .filter_map(|part| {
            let (mv, score) = part.trim().split_once(':')?;
            Some((mv.to_ascii_lowercase().parse().ok()?, score.parse().ok()?))
        })
        .collect()
}

fn check_ffo_file(path: &str, wanted: impl Fn(usize) -> bool) -> usize {
    let text = std::fs::read_to_string(path).unwrap();
    let items = parse_positions(&text, &RuleArgs::default()).unwrap();
    let mut searcher = Searcher::new(20);
    let mut checked = 0;
    for item in items.iter().filter(|i| wanted(i.line)) {
        let answers = published(text.lines().nth(item.line - 1).unwrap());
        let best_score = answers.iter().map(|a| a.1).max().unwrap();
        let result = solve_line(&mut searcher, item, 1);
        assert_eq!(result.score, best_score, "{path} line {}", item.line);
        let mv = result.best.expect("a move");
        let mv_score = answers.iter().find(|a| a.0 == mv).map(|a| a.1);
        assert_eq!(
            mv_score,
            Some(best_score),
            "{path} line {}: {mv} is not a best move",
            item.line
        );
        checked += 1;
    }
    checked
}

#[test]
fn ffo_1_to_19_match_the_published_scores_and_best_moves() {
    assert_eq!(
        check_ffo_file("tests/data/ffo/fforum-1-19.obf", |_| true),
        19
    );
}

#[test]
fn ffo_40_and_41_match_the_published_scores_and_best_moves() {
    // The rest of 40–59 takes too long for every CI run: see `reversi bench`.
    assert_eq!(
        check_ffo_file("tests/data/ffo/fforum-40-59.obf", |line| line <= 2),
        2
    );
}

/// Plain minimax through the engine's own `Position::play`: the exact score
/// for the side to move, empties to the winner.
fn minimax(position: &Position) -> i32 {
    let Some(mover) = position.to_move() else {
        unreachable!("called on a finished game")
    };
    position
        .legal_moves()
        .squares()
        .map(|sq| {
            let child = position.play(sq).unwrap();
            match child.to_move() {
                None => final_score(&child, mover),
                Some(next) if next == mover => minimax(&child),
                Some(_) => -minimax(&child),
            }
        })
        .max()
        .unwrap()
}

fn final_score(position: &Position, me: reversi::engine::Color) -> i32 {
    let counts = position.counts();
    let raw = i32::from(counts[me]) - i32::from(counts[!me]);
    raw + raw.signum() * position.empty().count() as i32
}

/// A position `empties` empty squares from the end of a random game, if the
/// game gets that far.
fn random_position(rules: &Rules, seed: u64, empties: u32) -> Option<Position> {
    let mut random = RandomPlayer::new(seed);
    let mut position = rules.start_position();
    while position.empty().count() > empties {
        let sq = random.choose(&position)?;
        position = position.play(sq).unwrap();
    }
    position.to_move().map(|_| position)
}

/// The solver's exact score of `position` for the side to move.
fn exact_score(position: &Position) -> i32 {
    let board = Board::from_position(position).unwrap();
    Searcher::new(14)
        .solve(&board, position.options().topology, &Budget::nodes(0))
        .unwrap()
        .score
}

fn check_against_minimax(flags: &str, seed: u64, empties: u32) {
    let rules = rules_from_flags(flags);
    let Some(position) = random_position(&rules, seed, empties) else {
        return;
    };
    let expected = minimax(&position);
    let board = Board::from_position(&position).unwrap();
    let mut searcher = Searcher::new(12);
    let solution = searcher
        .solve(&board, position.options().topology, &Budget::nodes(0))
        .unwrap();
    assert_eq!(solution.score, expected, "{flags}, seed {seed}");
    let best = solution.best.unwrap();
    let child = position.play(best).unwrap();
    let mover = position.to_move().unwrap();
    let achieved = match child.to_move() {
        None => final_score(&child, mover),
        Some(next) if next == mover => minimax(&child),
        Some(_) => -minimax(&child),
    };
    assert_eq!(
        achieved, expected,
        "{flags}, seed {seed}: {best} is not best"
    );
    // The game-playing search agrees when it solves the position.
    let thought = Searcher::new(12)
        .think(&position, &Limits::analysis(0), None)
        .unwrap();
    assert_eq!(
        thought.score,
        Score::Exact(expected),
        "{flags}, seed {seed}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn the_solver_agrees_with_minimax_on_the_torus(seed in any::<u64>(), empties in 1u32..=10) {
        check_against_minimax("--rules torus", seed, empties);
    }

    #[test]
    fn the_solver_agrees_with_minimax_with_walls(seed in any::<u64>(), empties in 1u32..=10) {
        check_against_minimax("--walls a1,c6,d2,h5,f8,b8", seed, empties);
    }

    #[test]
    fn the_solver_agrees_with_minimax_on_a_torus_with_walls(seed in any::<u64>(), empties in 1u32..=10) {
        check_against_minimax("--rules torus --walls b2,g7,c6", seed, empties);
    }

    #[test]
    fn the_solver_agrees_with_minimax_with_32_discs(seed in any::<u64>(), empties in 1u32..=10) {
        check_against_minimax("--discs 32", seed, empties);
    }

    #[test]
    fn the_solver_agrees_with_minimax_when_discs_run_out(seed in any::<u64>(), empties in 1u32..=10) {
        // 27 discs each: someone usually runs out before the board is full.
        check_against_minimax("--discs 27", seed, empties);
    }

    #[test]
    fn the_solver_agrees_with_minimax_on_the_standard_board(seed in any::<u64>(), empties in 1u32..=10) {
        check_against_minimax("", seed, empties);
    }
}

#[test]
fn a_tight_supply_really_runs_out_in_the_tested_positions() {
    // Guards the test above: some of its positions must have a binding supply.
    let rules = rules_from_flags("--discs 27");
    let binding = (0..200u64)
        .filter_map(|seed| random_position(&rules, seed, 8))
        .filter(|p| !Board::from_position(p).unwrap().unlimited())
        .count();
    assert!(
        binding > 20,
        "only {binding} positions with a binding supply"
    );
}

#[test]
fn hint_gives_a_legal_move_and_an_exact_score_near_the_end() {
    let text = std::fs::read_to_string("tests/data/ffo/fforum-1-19.obf").unwrap();
    let items = parse_positions(&text, &RuleArgs::default()).unwrap();
    let ObfState::Game(first) = &items[0].state else {
        panic!("FFO #1 is playable")
    };
    let thought = hint(first, 0).unwrap();
    assert!(first.is_legal(thought.best));
    assert_eq!(thought.score, Score::Exact(18));
    assert_eq!(thought.best, "g8".parse().unwrap());
    // Early in the game the score is an estimate.
    let start = Rules::default().start_position();
    let early = hint(&start, 200_000).unwrap();
    assert!(start.is_legal(early.best));
    assert!(matches!(early.score, Score::Estimate(_)));
}

#[test]
fn the_search_plays_every_opening_option() {
    for flags in [
        "--rules reversi",
        "--rules ravensburger",
        "--rules torus --opening free",
    ] {
        let rules = rules_from_flags(flags);
        let mut position = rules.start_position();
        let mut bot = reversi::bot::Bot::new(6, 1);
        while position.to_move().is_some() {
            let mv = bot.choose(&position).unwrap();
            position = position.play(mv).unwrap_or_else(|e| panic!("{flags}: {e}"));
        }
        assert!(position.outcome().is_some());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn the_selective_search_is_exact_once_its_depth_covers_the_empties(
        seed in any::<u64>(),
        empties in 4u32..=11,
    ) {
        let rules = Rules::default();
        let Some(position) = random_position(&rules, seed, empties) else {
            return Ok(());
        };
        // A single legal move is played without a search.
        prop_assume!(position.legal_moves().count() > 1);
        let exact = exact_score(&position);
        let thought = Searcher::new(14)
            .think(&position, &Limits::midgame_only(60, probcut::SELECTIVITY), None)
            .unwrap();
        prop_assert_eq!(thought.score, Score::Exact(exact), "seed {}", seed);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn two_threads_think_to_the_same_exact_value_as_one(
        seed in any::<u64>(),
        empties in 8u32..=16,
    ) {
        let rules = Rules::default();
        let Some(position) = random_position(&rules, seed, empties) else {
            return Ok(());
        };
        prop_assume!(position.legal_moves().count() > 1);
        let exact = exact_score(&position);
        // Once by deepening to the end, once by the exact solve after ten
        // plies (Limits::analysis solves from 24 empties), both on two
        // threads; the move must be one that scores the exact value.
        for limits in [Limits::midgame_only(60, probcut::SELECTIVITY), Limits::analysis(0)] {
            let mut searcher = Searcher::new(14);
            searcher.set_threads(2);
            let thought = searcher.think(&position, &limits, None).unwrap();
            prop_assert_eq!(thought.score, Score::Exact(exact), "seed {}", seed);
            let child = position.play(thought.best).unwrap();
            let mover = position.to_move().unwrap();
            let value = match child.to_move() {
                None => final_score(&child, mover),
                Some(next) if next == mover => exact_score(&child),
                Some(_) => -exact_score(&child),
            };
            prop_assert_eq!(value, exact, "seed {}: {} is not a best move", seed, thought.best);
        }
    }
}

#[test]
fn probcut_saves_most_of_the_nodes_and_stays_close_to_the_full_search() {
    let positions = reversi::search::benchmark::midgame_positions();
    let mut searcher = Searcher::new(18);
    let (mut full_nodes, mut cut_nodes, mut differences) = (0, 0, Vec::new());
    for position in &positions {
        searcher.clear();
        let full = searcher
            .think(position, &Limits::midgame_only(9, 0), None)
            .unwrap();
        searcher.clear();
        let cut = searcher
            .think(
                position,
                &Limits::midgame_only(9, probcut::SELECTIVITY),
                None,
            )
            .unwrap();
        full_nodes += full.nodes;
        cut_nodes += cut.nodes;
        let value = |s: Score| match s {
            Score::Estimate(v) => v,
            Score::Exact(v) => v * 100,
        };
        differences.push((value(full.score) - value(cut.score)).abs());
    }
    eprintln!("full {full_nodes} nodes, selective {cut_nodes}; differences {differences:?}");
    assert!(
        cut_nodes * 2 < full_nodes,
        "selective {cut_nodes} nodes, full {full_nodes}"
    );
    let mean = differences.iter().sum::<i32>() / differences.len() as i32;
    assert!(
        mean <= 300,
        "mean difference {mean} hundredths: {differences:?}"
    );
}
