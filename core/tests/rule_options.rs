//! Hand-made positions for every rule option.

mod support;

use reversi_core::engine::{
    Color, Discs, DrawRule, Ending, Opening, PlayError, Position, RuleOptions, Rules, Scoring,
    Topology, parse_transcript, replay,
};
use reversi_core::random_player::RandomPlayer;
use support::board_names::{grid, names, sq};

fn torus() -> RuleOptions {
    RuleOptions {
        topology: Topology::Torus,
        ..RuleOptions::default()
    }
}

fn start(options: RuleOptions, setup: reversi_core::engine::Setup) -> Position {
    Rules::new(options, setup).unwrap().start_position()
}

#[test]
fn torus_flips_across_the_left_right_edge() {
    let setup = grid(
        "-------- -------- -------- ------XO -------- -------- -------- --------",
        'X',
    );
    let position = start(torus(), setup);
    let report = position.play_with_report(sq("a4")).unwrap();
    assert_eq!(names(report.flipped), ["h4"]);
    // On the plane the same move flanks nothing.
    let plane = start(RuleOptions::default(), setup);
    assert_eq!(
        plane.play(sq("a4")),
        Err(PlayError::FlipsNothing { square: sq("a4") })
    );
}

#[test]
fn torus_flips_across_the_top_bottom_edge() {
    let setup = grid(
        "-------- -------- -------- -------- -------- -------- ---X---- ---O----",
        'X',
    );
    let report = start(torus(), setup).play_with_report(sq("d1")).unwrap();
    assert_eq!(names(report.flipped), ["d8"]);
}

#[test]
fn torus_flips_along_wrapped_diagonals() {
    // a1 → h8 → g7 (north-west), and a1 → b8 → c7 (north-east, wrapping only rows).
    let setup = grid(
        "-------- -------- -------- -------- -------- -------- --X---X- -O-----O",
        'X',
    );
    let report = start(torus(), setup).play_with_report(sq("a1")).unwrap();
    assert_eq!(names(report.flipped), ["b8", "h8"]);
}

#[test]
fn torus_lines_run_on_across_an_edge_in_the_middle() {
    let setup = grid(
        "-------- -------- -------- OO----XO -------- -------- -------- --------",
        'X',
    );
    let report = start(torus(), setup).play_with_report(sq("c4")).unwrap();
    assert_eq!(names(report.flipped), ["a4", "b4", "h4"]);
}

#[test]
fn a_torus_line_of_seven_opponents_never_reaches_the_placed_disc() {
    // Row 4 is a1..h1 all white but d4: black on d4's row only via itself.
    let setup = grid(
        "-------- ---X---- ---O---- OOO-OOOO -------- -------- -------- --------",
        'X',
    );
    let position = start(torus(), setup);
    // d4 flips d3 only: the seven whites of row 4 lead round to d4 itself.
    let report = position.play_with_report(sq("d4")).unwrap();
    assert_eq!(names(report.flipped), ["d3"]);
}

#[test]
fn walls_stop_lines_like_empty_squares() {
    let open = grid(
        "XXO----- -------- -------- -------- -------- -------- -------- --------",
        'X',
    );
    let walled = grid(
        "X#O----- -------- -------- -------- -------- -------- -------- --------",
        'X',
    );
    let report = start(RuleOptions::default(), open)
        .play_with_report(sq("d1"))
        .unwrap();
    assert_eq!(names(report.flipped), ["c1"]);
    // With the wall, d1 has no line: c1 (white) then b1 (wall) stops it.
    let blocked = Rules::new(RuleOptions::default(), walled);
    assert!(blocked.is_err(), "no side can move at all");
    let walled_with_move = grid(
        "X#O-OX-- -------- -------- -------- -------- -------- -------- --------",
        'X',
    );
    let position = start(RuleOptions::default(), walled_with_move);
    assert_eq!(names(position.legal_moves()), ["d1"]);
    assert_eq!(
        names(position.play_with_report(sq("d1")).unwrap().flipped),
        ["e1"]
    );
    assert_eq!(
        position.play(sq("b1")),
        Err(PlayError::Wall { square: sq("b1") })
    );
}

#[test]
fn walls_are_not_counted_in_any_score() {
    let rules = support::rules_from_flags("--scoring empties --walls a1,a2,a3");
    let start = rules.start_position();
    let moves = parse_transcript("f5d6c5f4e3f6g5e6e7").unwrap();
    let end = replay(&start, &moves).unwrap();
    let outcome = end.outcome().unwrap();
    assert_eq!(end.empty().count(), 48);
    // 13 discs and 48 empty squares: 61 playable squares, the walls count for nobody.
    assert_eq!((outcome.score.black, outcome.score.white), (61, 0));
}

#[test]
fn free_opening_moves_flip_nothing_even_when_they_flank() {
    // Black already on c4: white d4 then black e4 would flank d4 under normal rules.
    let setup = grid(
        "-------- -------- -------- --X----- -------- -------- -------- --------",
        'O',
    );
    let options = RuleOptions {
        opening: Opening::Free,
        ..RuleOptions::default()
    };
    let mut position = start(options, setup);
    for name in ["d4", "e4", "d5", "e5"] {
        let report = position.play_with_report(sq(name)).unwrap();
        assert!(
            report.flipped.is_empty(),
            "{name} flipped {:?}",
            report.flipped
        );
        position = report.position;
    }
    assert_eq!(names(position.discs(Color::White)), ["d4", "d5"]);
    assert_eq!(names(position.discs(Color::Black)), ["c4", "e4", "e5"]);
    assert_eq!(position.opening_placements_left(), 0);
}

#[test]
fn double_opening_is_two_black_placements_then_white_fills_the_rest() {
    let position = Rules::from_options(RuleOptions {
        opening: Opening::Double,
        ..RuleOptions::default()
    })
    .unwrap()
    .start_position();
    let moves = parse_transcript("d5e4").unwrap();
    let after = replay(&position, &moves).unwrap();
    // Black chose the standard cross; white's discs were placed automatically.
    assert_eq!(
        after.discs(Color::White),
        Rules::default().start_position().discs(Color::White)
    );
    assert_eq!(after.to_move(), Some(Color::Black));
    assert_eq!(
        after.play(sq("a1")),
        Err(PlayError::FlipsNothing { square: sq("a1") })
    );
}

#[test]
fn when_one_supply_is_empty_the_other_player_moves_on_alone() {
    let setup = grid(
        "-------- -------- ---O---- ---O--O- --X----X -O------ -------X ---O----",
        'X',
    );
    let options = RuleOptions {
        discs: Discs::PerPlayer(3),
        ..RuleOptions::default()
    };
    let mut position = start(options, setup);
    // White cannot move at first, so black places all three discs in a row;
    // then black's hand is empty and white places its three in a row.
    let expected = [
        ("f3", Color::Black, Some(Color::White)),
        ("a7", Color::Black, Some(Color::White)),
        ("e3", Color::Black, None),
        ("g3", Color::White, Some(Color::Black)),
        ("d5", Color::White, Some(Color::Black)),
        ("g5", Color::White, None),
    ];
    for (name, mover, skipped) in expected {
        assert_eq!(position.to_move(), Some(mover), "before {name}");
        let report = position.play_with_report(sq(name)).unwrap();
        assert_eq!(report.skipped, skipped, "after {name}");
        position = report.position;
    }
    assert_eq!(position.supply(Color::Black), Some(0));
    assert_eq!(position.supply(Color::White), Some(0));
    assert!(position.is_over(), "neither player has discs left");
    assert_eq!(
        position.empty().count(),
        50,
        "the game ends with the board mostly empty"
    );
    let outcome = position.outcome().unwrap();
    assert_eq!(outcome.winner, Some(Color::White));
}

#[test]
fn the_classic_preset_spends_exactly_its_32_discs() {
    let rules = Rules::preset(reversi_core::engine::Preset::Classic);
    let moves = RandomPlayer::new(3).play_game(&rules.start_position());
    let end = replay(&rules.start_position(), &moves).unwrap();
    let spent = 64 - end.supply(Color::Black).unwrap() - end.supply(Color::White).unwrap();
    assert_eq!(
        usize::from(spent),
        moves.len(),
        "every placement takes one disc from a supply"
    );
    let on_board = end.counts().black + end.counts().white;
    assert_eq!(
        usize::from(on_board),
        moves.len(),
        "the free opening starts from an empty board"
    );
}

#[test]
fn empties_scoring_credits_the_winner_with_every_empty_square() {
    let rules = support::rules_from_flags("--scoring empties");
    let end = replay(
        &rules.start_position(),
        &parse_transcript("f5d6c5f4e3f6g5e6e7").unwrap(),
    )
    .unwrap();
    let outcome = end.outcome().unwrap();
    assert_eq!(outcome.winner, Some(Color::Black));
    assert_eq!((outcome.score.black, outcome.score.white), (64, 0));
    assert_eq!(outcome.ending, Ending::BoardFinished);
}

/// The first random game from the standard start that ends 32–32.
fn drawn_game() -> Vec<reversi_core::engine::Square> {
    let start = Rules::default().start_position();
    (0..10_000)
        .map(|seed| RandomPlayer::new(seed).play_game(&start))
        .find(|moves| {
            replay(&start, moves)
                .unwrap()
                .outcome()
                .unwrap()
                .winner
                .is_none()
        })
        .expect("a drawn random game exists")
}

#[test]
fn each_draw_rule_scores_an_equal_count() {
    let moves = drawn_game();
    for (draw, winner) in [
        (DrawRule::Draw, None),
        (DrawRule::Black, Some(Color::Black)),
        (DrawRule::White, Some(Color::White)),
    ] {
        let options = RuleOptions {
            draw,
            ..RuleOptions::default()
        };
        let start = Rules::from_options(options).unwrap().start_position();
        let outcome = replay(&start, &moves).unwrap().outcome().unwrap();
        assert_eq!(outcome.winner, winner, "{draw}");
        assert_eq!(outcome.score.black, outcome.score.white);
    }
}

#[test]
fn a_draw_under_empties_scoring_is_half_each() {
    let moves = drawn_game();
    let options = RuleOptions {
        scoring: Scoring::Empties,
        ..RuleOptions::default()
    };
    let start = Rules::from_options(options).unwrap().start_position();
    let outcome = replay(&start, &moves).unwrap().outcome().unwrap();
    assert_eq!(outcome.winner, None);
    assert_eq!((outcome.score.black, outcome.score.white), (32, 32));
}

#[test]
fn a_custom_setup_whose_side_to_move_cannot_move_starts_with_the_pass() {
    // Black to move has no move; white can take c1.
    let setup = grid(
        "OX------ -------- -------- -------- -------- -------- -------- --------",
        'X',
    );
    let setup_check = Rules::new(RuleOptions::default(), setup).unwrap();
    let position = setup_check.start_position();
    assert_eq!(position.to_move(), Some(Color::White));
    assert_eq!(names(position.legal_moves()), ["c1"]);
    assert_eq!(
        setup_check.start().to_move,
        Color::Black,
        "the setup as given is kept"
    );
}
