//! Property tests: the bitboard engine against the naive reference rules.

mod support;

use proptest::prelude::*;
use reversi_core::engine::{
    Bitboard, Color, Opening, Position, RuleOptions, Rules, Setup, Square, Topology,
    format_transcript, parse_transcript, replay,
};
use reversi_core::random_player::RandomPlayer;
use support::naive_rules::NaiveGame;

/// Arbitrary disjoint black/white/wall boards on either topology.
fn arbitrary_position() -> impl Strategy<Value = Position> {
    (
        any::<u64>(),
        any::<u64>(),
        any::<u64>(),
        any::<bool>(),
        any::<bool>(),
        0u32..4,
    )
        .prop_filter_map(
            "neither side can move",
            |(a, b, w, torus, white_first, wall_density)| {
                // Sparse walls: keep only some bits (more bits when density is higher).
                let walls = match wall_density {
                    0 => 0,
                    1 => w & w.rotate_left(17) & w.rotate_left(31),
                    _ => w & w.rotate_left(23),
                };
                let black = a & !walls;
                let white = b & !a & !walls;
                let options = RuleOptions {
                    topology: if torus {
                        Topology::Torus
                    } else {
                        Topology::Plane
                    },
                    ..RuleOptions::default()
                };
                let setup = Setup {
                    black: Bitboard(black),
                    white: Bitboard(white),
                    walls: Bitboard(walls),
                    to_move: if white_first {
                        Color::White
                    } else {
                        Color::Black
                    },
                };
                Rules::new(options, setup).ok().map(|r| r.start_position())
            },
        )
}

/// A position reached by random play from a preset's start.
fn played_position() -> impl Strategy<Value = Position> {
    (0usize..5, any::<u64>(), 0usize..70).prop_map(|(preset, seed, plies)| {
        let mut position =
            Rules::preset(reversi_core::engine::Preset::ALL[preset]).start_position();
        let mut player = RandomPlayer::new(seed);
        for _ in 0..plies {
            match player.choose(&position) {
                Some(sq) => position = position.play(sq).unwrap(),
                None => break,
            }
        }
        position
    })
}

fn indices(bb: Bitboard) -> Vec<usize> {
    bb.squares().map(|s| s.index() as usize).collect()
}

fn check_against_naive(position: &Position) -> Result<(), TestCaseError> {
    let naive = NaiveGame::from_position(position);
    prop_assert_eq!(indices(position.legal_moves()), naive.moves());
    let Some(mover) = position.to_move() else {
        return Ok(());
    };
    for square in position.legal_moves().squares() {
        let report = position.play_with_report(square).unwrap();
        let expected_flips = if position.opening_placements_left() > 0 {
            vec![]
        } else {
            naive.flips(mover, square.index() as usize)
        };
        prop_assert_eq!(indices(report.flipped), expected_flips);
        let flipped = report.flipped.count() as i32;
        let before = position.counts();
        let after = report.position.counts();
        let auto = report.auto_placed.count() as i32;
        prop_assert_eq!(
            i32::from(after[mover]) - i32::from(before[mover]),
            1 + flipped
        );
        prop_assert_eq!(
            i32::from(after[!mover]) - i32::from(before[!mover]),
            auto - flipped
        );

        let mut naive_child = naive.clone();
        let skipped = naive_child.play(square.index() as usize);
        prop_assert_eq!(skipped, report.skipped.is_some());
        prop_assert_eq!(naive_child.to_move, report.position.to_move());
    }
    for square in Square::all().filter(|s| !position.legal_moves().contains(*s)) {
        prop_assert!(position.play(square).is_err());
    }
    Ok(())
}

/// The eight symmetries of the square board, as maps of (column, row).
fn symmetric(square: Square, symmetry: u8) -> Square {
    let (c, r) = (square.column(), square.row());
    let (c, r) = if symmetry & 4 != 0 { (r, c) } else { (c, r) };
    let c = if symmetry & 1 != 0 { 7 - c } else { c };
    let r = if symmetry & 2 != 0 { 7 - r } else { r };
    Square::from_coords(c, r).unwrap()
}

fn map_board(bb: Bitboard, symmetry: u8) -> Bitboard {
    bb.squares().map(|s| symmetric(s, symmetry)).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn legal_moves_and_flips_match_the_naive_rules_on_arbitrary_boards(position in arbitrary_position()) {
        check_against_naive(&position)?;
    }

    #[test]
    fn legal_moves_and_flips_match_the_naive_rules_in_played_games(position in played_position()) {
        check_against_naive(&position)?;
    }

    #[test]
    fn the_eight_symmetries_give_symmetric_move_sets(position in arbitrary_position(), symmetry in 0u8..8) {
        prop_assume!(position.options().topology == Topology::Plane);
        let to_move = position.to_move().unwrap();
        let setup = Setup {
            black: map_board(position.discs(Color::Black), symmetry),
            white: map_board(position.discs(Color::White), symmetry),
            walls: map_board(position.walls(), symmetry),
            to_move,
        };
        let mirrored = Rules::new(position.options(), setup).unwrap().start_position();
        prop_assert_eq!(mirrored.legal_moves(), map_board(position.legal_moves(), symmetry));
    }

    #[test]
    fn replaying_a_printed_transcript_reproduces_the_position_hash(preset in 0usize..5, seed in any::<u64>()) {
        let rules = Rules::preset(reversi_core::engine::Preset::ALL[preset]);
        let start = rules.start_position();
        let moves = RandomPlayer::new(seed).play_game(&start);
        let end = replay(&start, &moves).unwrap();
        let text = format_transcript(&moves);
        let replayed = replay(&start, &parse_transcript(&text).unwrap()).unwrap();
        prop_assert_eq!(replayed.hash(), end.hash());
        prop_assert!(end.is_over());
        // Upper-case input is read the same way.
        let upper = replay(&start, &parse_transcript(&text.to_uppercase()).unwrap()).unwrap();
        prop_assert_eq!(upper.hash(), end.hash());
    }

    #[test]
    fn transcript_and_setup_parsers_never_panic(text in ".{0,200}") {
        let _ = parse_transcript(&text);
        let _ = text.parse::<Setup>();
    }
}

#[test]
fn random_games_under_every_opening_agree_with_the_naive_rules_to_the_end() {
    for opening in [Opening::Preset, Opening::Free, Opening::Double] {
        for discs in [
            reversi_core::engine::Discs::Unlimited,
            reversi_core::engine::Discs::PerPlayer(32),
            reversi_core::engine::Discs::PerPlayer(20),
        ] {
            for topology in [Topology::Plane, Topology::Torus] {
                let options = RuleOptions {
                    opening,
                    discs,
                    topology,
                    ..RuleOptions::default()
                };
                let start = Rules::from_options(options).unwrap().start_position();
                for seed in 0..8 {
                    let mut naive = NaiveGame::from_position(&start);
                    let mut position = start;
                    let mut player = RandomPlayer::new(seed);
                    while let Some(square) = player.choose(&position) {
                        assert_eq!(indices(position.legal_moves()), naive.moves());
                        naive.play(square.index() as usize);
                        position = position.play(square).unwrap();
                        assert_eq!(naive.to_move, position.to_move());
                    }
                    assert!(naive.moves().is_empty());
                }
            }
        }
    }
}
