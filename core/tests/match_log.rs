//! The signed match log: valid logs verify; every kind of tampering fails
//! with the right reason; two logs are compared; torn files are detected.

mod support;

use proptest::prelude::*;
use reversi_core::engine::{Color, Ending, PlayError, Preset, Rules};
use reversi_core::match_log::audit::{AuditError, audit_log_bytes};
use reversi_core::match_log::builder::MatchBuilder;
use reversi_core::match_log::compare::{Comparison, compare_logs};
use reversi_core::match_log::log_file::{LogWriter, parse_log, read_log, write_log};
use reversi_core::match_log::record::{
    Accept, Body, Digest, MoveBody, Record, RecordContent, Reveal, Seat, TimeoutClaim,
};
use reversi_core::match_log::rules_proposal::RulesProposal;
use reversi_core::match_log::verify::{Phase, Violation, verify_log};
use support::logs::{
    HOUR_MS, T0, equivocating_fork, file_text, finished_game, new_game, play_random, players,
    resign_content, resigned_game, terms, timed_out_game,
};

fn violation(records: &[Record]) -> (usize, Violation) {
    let err = verify_log(records).expect_err("the log must not verify");
    (err.record, err.violation)
}

/// Re-signs every record from `from` on so the chain is consistent again
/// after an edit; returns the new log.
fn rechain(game: &MatchBuilder, mut records: Vec<Record>, from: usize) -> Vec<Record> {
    for i in from..records.len() {
        let mut content = records[i].content().clone();
        content.seq = i as u32;
        content.prev = records[i - 1].hash();
        content.game_id = if i == 0 { [0; 32] } else { records[0].hash() };
        records[i] = Record::sign(content.clone(), game.identity(content.author));
    }
    records
}

#[test]
fn a_complete_game_verifies_and_its_end_is_derived() {
    let game = finished_game(1);
    let verifier = verify_log(game.records()).unwrap();
    assert_eq!(verifier.phase(), Phase::Ended);
    let end = verifier.end().unwrap();
    assert_eq!(end.outcome.ending, Ending::BoardFinished);
    assert_eq!(end.record, game.records().len() - 1);
    assert!(verifier.moves().len() >= 50);
    let black = verifier.coin_flip().unwrap().black;
    assert_eq!(verifier.seat_of(Color::Black), Some(black));
}

#[test]
fn resignation_and_timeout_end_the_game() {
    let resigned = verify_log(resigned_game(2).records()).unwrap();
    assert!(matches!(
        resigned.end().unwrap().outcome.ending,
        Ending::Resignation { .. }
    ));
    let timed_out = verify_log(timed_out_game(3).records()).unwrap();
    assert!(matches!(
        timed_out.end().unwrap().outcome.ending,
        Ending::Timeout { .. }
    ));
}

#[test]
fn a_record_removed_breaks_the_sequence() {
    let game = finished_game(4);
    let mut records = game.records().to_vec();
    records.remove(10);
    assert_eq!(
        violation(&records),
        (
            10,
            Violation::Sequence {
                expected: 10,
                found: 11
            }
        )
    );
}

#[test]
fn a_record_duplicated_breaks_the_sequence() {
    let game = finished_game(5);
    let mut records = game.records().to_vec();
    records.insert(10, records[9].clone());
    assert_eq!(
        violation(&records),
        (
            10,
            Violation::Sequence {
                expected: 10,
                found: 9
            }
        )
    );
}

#[test]
fn records_moved_break_the_sequence() {
    let game = finished_game(6);
    let mut records = game.records().to_vec();
    records.swap(10, 11);
    assert_eq!(
        violation(&records),
        (
            10,
            Violation::Sequence {
                expected: 10,
                found: 11
            }
        )
    );
}

#[test]
fn a_record_from_another_game_is_refused() {
    let ours = finished_game(7);
    // The same players, rules and nonces, started a millisecond later: a different game.
    let mut theirs = MatchBuilder::new(&terms(Preset::Othello), players(7), T0 + 1).unwrap();
    play_random(&mut theirs, 7, 100);
    let mut records = ours.records().to_vec();
    records[12] = theirs.records()[12].clone();
    let (at, v) = violation(&records);
    assert_eq!(at, 12);
    assert!(matches!(v, Violation::WrongGame { .. }), "{v:?}");
    // Even re-chained onto our log, the game id gives it away.
    let mut content = theirs.records()[12].content().clone();
    content.prev = records[11].hash();
    records[12] = resign_content(
        content,
        ours.identity(theirs.records()[12].content().author),
    );
    assert!(matches!(
        violation(&records),
        (12, Violation::WrongGame { .. })
    ));
}

#[test]
fn a_record_re_signed_with_the_other_players_key_is_refused() {
    let game = finished_game(8);
    let mut records = game.records().to_vec();
    let content = records[10].content().clone();
    let impostor = game.identity(content.author.other());
    records[10] = Record::sign(content.clone(), impostor);
    let (at, v) = violation(&records);
    assert_eq!(at, 10);
    assert!(matches!(v, Violation::BadSignature { author, .. } if author == content.author));
    // Claiming to be the other author does not help: it is not their turn.
    let mut claimed = content;
    claimed.author = claimed.author.other();
    records[10] = Record::sign(claimed, impostor);
    assert!(matches!(
        violation(&records),
        (10, Violation::WrongAuthor { .. })
    ));
}

#[test]
fn a_legal_move_with_a_wrong_position_hash_is_refused() {
    let game = finished_game(9);
    let mut records = game.records().to_vec();
    let mut content = records[8].content().clone();
    let Body::Move(MoveBody { square, .. }) = content.body else {
        panic!("a move")
    };
    content.body = Body::Move(MoveBody {
        square,
        position_hash: [7; 32],
    });
    records[8] = Record::sign(content.clone(), game.identity(content.author));
    let (at, v) = violation(&records);
    assert_eq!(at, 8);
    assert!(
        matches!(v, Violation::PositionHash { number: 5, .. }),
        "{v:?}"
    );
}

#[test]
fn an_illegal_move_is_refused_with_the_engine_reason() {
    let game = new_game(10);
    let mut records = game.records().to_vec();
    let content = game.next_content(
        game.verifier().seat_to_write().unwrap(),
        T0 + 5,
        Body::Move(MoveBody {
            square: 0,
            position_hash: [0; 32],
        }),
    );
    records.push(Record::sign(content.clone(), game.identity(content.author)));
    let (at, v) = violation(&records);
    assert_eq!(at, 4);
    assert!(matches!(
        v,
        Violation::IllegalMove {
            number: 1,
            reason: PlayError::FlipsNothing { .. },
            ..
        }
    ));
}

#[test]
fn a_reveal_that_does_not_match_its_commitment_is_refused() {
    let game = new_game(11);
    let mut records = game.records()[..3].to_vec();
    let mut content = records[2].content().clone();
    content.body = Body::Reveal(Reveal { nonce: [1; 32] });
    records[2] = Record::sign(content, game.identity(Seat::Host));
    let (at, v) = violation(&records);
    assert_eq!(at, 2);
    assert!(matches!(
        v,
        Violation::CommitmentMismatch {
            seat: Seat::Host,
            ..
        }
    ));
}

#[test]
fn a_record_after_the_end_is_refused() {
    let game = resigned_game(12);
    let mut records = game.records().to_vec();
    let content = game.next_content(Seat::Host, T0 + 20_000, Body::Resign);
    records.push(Record::sign(content, game.identity(Seat::Host)));
    let end = records.len() - 2;
    assert_eq!(
        violation(&records),
        (end + 1, Violation::AfterEnd { ended_at: end })
    );
}

#[test]
fn timeout_claims_are_checked_against_the_deadline_and_the_turn() {
    let mut game = new_game(13);
    play_random(&mut game, 13, 3);
    let to_move = game.verifier().seat_to_write().unwrap();
    let last = game.verifier().last_timestamp();
    let early = game
        .clone()
        .claim_timeout(to_move.other(), last + HOUR_MS - 1)
        .unwrap_err();
    assert!(matches!(early.violation, Violation::TimeoutTooEarly { .. }));
    let own_turn = game
        .clone()
        .claim_timeout(to_move, last + HOUR_MS)
        .unwrap_err();
    assert!(matches!(own_turn.violation, Violation::WrongAuthor { .. }));
    let wrong_move = game
        .clone()
        .push(
            to_move.other(),
            last + HOUR_MS,
            Body::TimeoutClaim(TimeoutClaim { move_number: 9 }),
        )
        .unwrap_err();
    assert_eq!(
        wrong_move.violation,
        Violation::TimeoutWrongMove {
            expected: 4,
            found: 9
        }
    );
    game.claim_timeout(to_move.other(), last + HOUR_MS).unwrap();
}

#[test]
fn time_may_not_run_backwards() {
    let mut game = new_game(14);
    play_random(&mut game, 14, 2);
    let last = game.verifier().last_timestamp();
    let square = support::board_names::first_legal(game.verifier().current_position().unwrap());
    let err = game.play(square, last - 1).unwrap_err();
    assert_eq!(
        err.violation,
        Violation::TimeBackwards {
            previous: last,
            found: last - 1
        }
    );
}

#[test]
fn an_invalid_record_never_changes_the_verifier() {
    let mut game = new_game(15);
    play_random(&mut game, 15, 4);
    let before = format!("{:?}", game.verifier());
    let bad = game.next_content(
        game.verifier().seat_to_write().unwrap(),
        T0 + 99_000,
        Body::Move(MoveBody {
            square: 63,
            position_hash: [0; 32],
        }),
    );
    let mut verifier = game.verifier().clone();
    assert!(
        verifier
            .append(&Record::sign(bad.clone(), game.identity(bad.author)))
            .is_err()
    );
    assert_eq!(format!("{verifier:?}"), before);
}

#[test]
fn the_genesis_must_be_first_signed_and_sound() {
    let game = new_game(16);
    let records = game.records();
    // Removing the genesis: the acceptance cannot start a log.
    assert!(matches!(
        violation(&records[1..]),
        (
            0,
            Violation::Sequence {
                expected: 0,
                found: 1
            }
        )
    ));
    // A genesis signed by the guest is not the host's proposal.
    let forged = Record::sign(records[0].content().clone(), game.identity(Seat::Guest));
    assert!(matches!(
        violation(&[forged]),
        (0, Violation::BadSignature { .. })
    ));
    assert_eq!(violation(&[]), (0, Violation::EmptyLog));
}

#[test]
fn a_bad_deadline_or_rules_in_the_genesis_are_refused() {
    let mut t = terms(Preset::Othello);
    t.deadline_secs = 60;
    let err = MatchBuilder::new(&t, players(17), T0).unwrap_err();
    assert!(matches!(
        err.violation,
        Violation::Deadline { found: 60, .. }
    ));
    let mut t = terms(Preset::Othello);
    t.host_name = String::new();
    assert!(matches!(
        MatchBuilder::new(&t, players(17), T0)
            .unwrap_err()
            .violation,
        Violation::BadName { .. }
    ));
}

fn by_lot_terms() -> reversi_core::match_log::builder::MatchTerms {
    let mut t = terms(Preset::Othello);
    t.proposal = RulesProposal::draw_by_lot(Rules::default()).unwrap();
    t
}

#[test]
fn under_the_draw_by_lot_the_named_seat_chooses_the_tie_winner_then_the_other_a_colour() {
    let mut choosers = Vec::new();
    for seed in 0..12 {
        let mut game = MatchBuilder::new(&by_lot_terms(), players(seed), T0).unwrap();
        let v = game.verifier();
        assert_eq!(v.phase(), Phase::AwaitTieWinner);
        let flip = *v.coin_flip().unwrap();
        let chooser = flip.tie_chooser.expect("the lot names a chooser");
        assert_eq!(v.seat_to_write(), Some(chooser));
        assert_eq!(flip.tie_goes_to, None);
        assert_eq!(
            flip.rules.options().draw,
            reversi_core::engine::DrawRule::Draw
        );
        choosers.push(chooser);
        // Seed 0..6 choose White to win ties, the rest Black; the other
        // seat then plays the colour the tie goes to on even seeds.
        let tie = if seed < 6 { Color::White } else { Color::Black };
        game.choose(tie, T0).unwrap();
        let v = game.verifier();
        assert_eq!(v.phase(), Phase::AwaitSeatColor);
        assert_eq!(v.seat_to_write(), Some(chooser.other()));
        assert_eq!(v.coin_flip().unwrap().tie_goes_to, Some(tie));
        let wanted = if seed % 2 == 0 { tie } else { !tie };
        game.choose(wanted, T0).unwrap();
        let v = verify_log(game.records()).unwrap();
        assert_eq!(v.phase(), Phase::Playing);
        assert_eq!(v.seat_of(wanted), Some(chooser.other()));
        assert_eq!(v.seat_of(!wanted), Some(chooser));
        let flip = v.coin_flip().unwrap();
        assert_eq!(
            flip.rules.options().draw,
            match tie {
                Color::Black => reversi_core::engine::DrawRule::Black,
                Color::White => reversi_core::engine::DrawRule::White,
            }
        );
        assert_eq!(
            v.current_position().unwrap().options().draw,
            flip.rules.options().draw
        );
        let choices = v.choices();
        assert_eq!(
            choices.tie_winner.map(|c| (c.seat, c.color, c.record)),
            Some((chooser, tie, 4))
        );
        assert_eq!(
            choices.seat_color.map(|c| (c.seat, c.color, c.record)),
            Some((chooser.other(), wanted, 5))
        );
        // The game is then played to its end as any other.
        play_random(&mut game, seed, 100);
        let v = verify_log(game.records()).unwrap();
        assert_eq!(v.phase(), Phase::Ended);
    }
    assert!(choosers.contains(&Seat::Host) && choosers.contains(&Seat::Guest));
}

#[test]
fn a_choice_out_of_turn_forged_or_out_of_order_is_refused() {
    let seed = 3;
    let game = MatchBuilder::new(&by_lot_terms(), players(seed), T0).unwrap();
    let chooser = game.verifier().coin_flip().unwrap().tie_chooser.unwrap();
    let choice = reversi_core::match_log::record::ColorChoice { color: 1 };
    // The other seat may not choose the tie winner.
    let mut wrong = game.clone();
    let err = wrong
        .push(chooser.other(), T0, Body::TieWinner(choice))
        .unwrap_err();
    assert_eq!(
        err.violation,
        Violation::WrongAuthor {
            expected: chooser,
            found: chooser.other()
        }
    );
    // A colour choice before the tie winner, a move before either.
    let err = wrong
        .push(chooser.other(), T0, Body::SeatColor(choice))
        .unwrap_err();
    assert!(matches!(
        err.violation,
        Violation::UnexpectedBody {
            found: "colour choice",
            ..
        }
    ));
    let err = wrong.play("d3".parse().unwrap(), T0).unwrap_err();
    assert!(matches!(
        err.violation,
        Violation::UnexpectedBody { found: "move", .. }
    ));
    // A colour that is no colour.
    let err = wrong
        .push(
            chooser,
            T0,
            Body::TieWinner(reversi_core::match_log::record::ColorChoice { color: 2 }),
        )
        .unwrap_err();
    assert_eq!(err.violation, Violation::BadColor { found: 2 });
    // A choice signed by the right seat's name but the other's key.
    let mut records = game.records().to_vec();
    let content = game.next_content(chooser, T0, Body::TieWinner(choice));
    records.push(Record::sign(content, game.identity(chooser.other())));
    assert!(matches!(
        violation(&records),
        (4, Violation::BadSignature { .. })
    ));
    // The chooser may not choose twice.
    let mut twice = game.clone();
    twice.choose(Color::White, T0).unwrap();
    let err = twice
        .push(chooser, T0, Body::SeatColor(choice))
        .unwrap_err();
    assert_eq!(
        err.violation,
        Violation::WrongAuthor {
            expected: chooser.other(),
            found: chooser
        }
    );
    // None of it changed the verifier.
    assert_eq!(wrong.verifier().phase(), Phase::AwaitTieWinner);
    assert_eq!(twice.verifier().phase(), Phase::AwaitSeatColor);
}

#[test]
fn a_missed_choice_is_claimed_like_a_missed_move() {
    let game = MatchBuilder::new(&by_lot_terms(), players(5), T0).unwrap();
    let chooser = game.verifier().coin_flip().unwrap().tie_chooser.unwrap();
    let deadline = T0 + HOUR_MS;
    // The tie winner's choice missed: the other seat claims, not before.
    let mut early = game.clone();
    let err = early
        .claim_timeout(chooser.other(), deadline - 1)
        .unwrap_err();
    assert!(matches!(err.violation, Violation::TimeoutTooEarly { .. }));
    let err = early.claim_timeout(chooser, deadline).unwrap_err();
    assert!(matches!(err.violation, Violation::WrongAuthor { .. }));
    let err = early
        .push(
            chooser.other(),
            deadline,
            Body::TimeoutClaim(TimeoutClaim { move_number: 1 }),
        )
        .unwrap_err();
    assert_eq!(
        err.violation,
        Violation::TimeoutWrongMove {
            expected: 0,
            found: 1
        }
    );
    let mut claimed = game.clone();
    claimed.claim_timeout(chooser.other(), deadline).unwrap();
    let v = verify_log(claimed.records()).unwrap();
    let end = v.end().unwrap();
    let late = v.coin_flip().map(|f| {
        if f.black == chooser {
            Color::Black
        } else {
            Color::White
        }
    });
    assert_eq!(
        end.outcome.ending,
        Ending::Timeout {
            late: late.unwrap()
        }
    );
    assert_eq!(
        end.outcome.winner.and_then(|c| v.seat_of(c)),
        Some(chooser.other())
    );
    // The colour choice missed: the chooser claims it a deadline after the tie choice.
    let mut second = game.clone();
    second.choose(Color::Black, T0 + 1000).unwrap();
    let err = second
        .claim_timeout(chooser, T0 + 1000 + HOUR_MS - 1)
        .unwrap_err();
    assert!(matches!(err.violation, Violation::TimeoutTooEarly { .. }));
    second.claim_timeout(chooser, T0 + 1000 + HOUR_MS).unwrap();
    let v = verify_log(second.records()).unwrap();
    assert_eq!(
        v.end().unwrap().outcome.winner.and_then(|c| v.seat_of(c)),
        Some(chooser)
    );
    // Either may resign while the colours are chosen.
    let mut resigned = game.clone();
    resigned.resign(chooser, T0 + 10).unwrap();
    let v = verify_log(resigned.records()).unwrap();
    assert_eq!(
        v.end().unwrap().outcome.winner.and_then(|c| v.seat_of(c)),
        Some(chooser.other())
    );
}

#[test]
fn logs_from_before_the_choices_still_verify_with_the_seed_picking_the_tie_winner() {
    let mut wire = by_lot_terms().proposal.to_wire();
    wire.draw = 3;
    let mut t = terms(Preset::Othello);
    t.proposal = RulesProposal::from_wire(&wire).unwrap();
    let mut seen = Vec::new();
    for seed in 0..12 {
        let game = MatchBuilder::new(&t, players(seed), T0).unwrap();
        let v = game.verifier();
        assert_eq!(v.phase(), Phase::Playing, "no choices in such a log");
        let flip = *v.coin_flip().unwrap();
        let lot = flip.tie_goes_to.expect("the seed decides");
        assert_eq!(flip.tie_chooser, None);
        assert_eq!(
            flip.rules.options().draw,
            match lot {
                Color::Black => reversi_core::engine::DrawRule::Black,
                Color::White => reversi_core::engine::DrawRule::White,
            }
        );
        seen.push(lot);
    }
    assert!(seen.contains(&Color::Black) && seen.contains(&Color::White));
}

#[test]
fn every_single_byte_changed_fails_the_audit_without_a_panic() {
    for game in [resigned_game(20), timed_out_game(21)] {
        let text = file_text(game.records());
        assert!(audit_log_bytes(text.as_bytes()).is_ok());
        let mut bytes = text.into_bytes();
        for i in 0..bytes.len() {
            let original = bytes[i];
            bytes[i] ^= 0x01;
            let result = audit_log_bytes(&bytes);
            assert!(
                result.is_err(),
                "changing byte {i} ({:?}) went unnoticed",
                original as char
            );
            bytes[i] = original;
        }
    }
}

#[test]
fn view_edits_are_caught_even_when_the_bytes_are_intact() {
    let game = resigned_game(22);
    let text = file_text(game.records());
    let edited = text.replacen("\"name\":\"Alice\"", "\"name\":\"Mallory\"", 1);
    assert_ne!(text, edited);
    let err = audit_log_bytes(edited.as_bytes()).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("record 0: the readable view does not match"),
        "{err}"
    );
}

#[test]
fn a_torn_last_line_is_detected_and_the_records_before_it_survive() {
    let game = resigned_game(23);
    let text = file_text(game.records());
    let cut = text.len() - 40;
    let loaded = parse_log(&text.as_bytes()[..cut]).unwrap();
    let torn = loaded.torn_tail.expect("torn tail");
    assert_eq!(torn.record, game.records().len() - 1);
    assert_eq!(loaded.records, game.records()[..game.records().len() - 1]);
    let err = audit_log_bytes(&text.as_bytes()[..cut]).unwrap_err();
    assert!(matches!(err, AuditError::Torn(_)));
    assert!(err.to_string().contains("incomplete"));

    // Reopening for append cuts the torn tail and carries on.
    let dir = std::env::temp_dir().join(format!("reversi-torn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("torn.log");
    std::fs::write(&path, &text.as_bytes()[..cut]).unwrap();
    let loaded = read_log(&path).unwrap();
    let mut writer = LogWriter::open_append(&path, &loaded).unwrap();
    writer.append(game.records().last().unwrap()).unwrap();
    let repaired = read_log(&path).unwrap();
    assert_eq!(repaired.records, game.records());
    assert!(repaired.torn_tail.is_none());
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn comparing_logs_finds_prefixes_divergence_and_equivocation() {
    let game = finished_game(24);
    let full = game.records();
    assert_eq!(
        compare_logs(full, full),
        Comparison::Identical {
            records: full.len()
        }
    );
    assert!(matches!(
        compare_logs(&full[..20], full),
        Comparison::Prefix {
            shorter: 20,
            first_is_shorter: true,
            ..
        }
    ));

    // The player to move at record 10 signs a second, different move there.
    let honest = &full[..11];
    let forked = equivocating_fork(&game, 10);
    let author = full[10].content().author;
    assert!(
        verify_log(&forked).is_ok(),
        "each branch is valid on its own"
    );
    match compare_logs(honest, &forked) {
        Comparison::Diverge {
            record: 10,
            proof: Some(proof),
        } => {
            assert_eq!(proof.seat, author);
            assert_ne!(proof.first, proof.second);
        }
        other => panic!("expected an equivocation proof, got {other:?}"),
    }

    // A divergent record that is not validly signed proves nothing.
    let mut junk = forked.clone();
    junk[10] = Record::with_signature(junk[10].content().clone(), [0; 64]);
    assert!(matches!(
        compare_logs(honest, &junk),
        Comparison::Diverge {
            record: 10,
            proof: None
        }
    ));
    assert_eq!(
        compare_logs(full, finished_game(25).records()),
        Comparison::DifferentGames
    );
}

#[test]
fn rechained_edits_are_still_caught_by_the_rules() {
    // A cheater who re-signs everything after an edit still cannot make an illegal history.
    let game = finished_game(26);
    let mut records = game.records().to_vec();
    let mut content = records[20].content().clone();
    content.body = Body::Move(MoveBody {
        square: 0,
        position_hash: [0; 32],
    });
    records[20] = Record::sign(content, game.identity(records[20].content().author));
    let records = rechain(&game, records, 21);
    assert!(matches!(
        violation(&records),
        (
            20,
            Violation::IllegalMove { .. } | Violation::PositionHash { .. }
        )
    ));
}

#[test]
fn a_log_file_round_trips_through_disk() {
    let game = finished_game(27);
    let dir = std::env::temp_dir().join(format!("reversi-roundtrip-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("game.log");
    write_log(&path, game.records()).unwrap();
    let loaded = read_log(&path).unwrap();
    assert_eq!(loaded.records, game.records());
    assert!(
        write_log(&path, game.records()).is_err(),
        "an existing log is never overwritten"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

fn digest() -> impl Strategy<Value = Digest> {
    any::<[u8; 32]>()
}

fn body() -> impl Strategy<Value = Body> {
    prop_oneof![
        digest().prop_map(|c| Body::Accept(Accept {
            guest_commitment: c
        })),
        digest().prop_map(|n| Body::Reveal(Reveal { nonce: n })),
        (any::<u8>(), digest()).prop_map(|(square, position_hash)| Body::Move(MoveBody {
            square,
            position_hash
        })),
        Just(Body::Resign),
        any::<u8>().prop_map(|color| Body::TieWinner(
            reversi_core::match_log::record::ColorChoice { color }
        )),
        any::<u8>().prop_map(|color| Body::SeatColor(
            reversi_core::match_log::record::ColorChoice { color }
        )),
        any::<u32>().prop_map(|move_number| Body::TimeoutClaim(TimeoutClaim { move_number })),
    ]
}

proptest! {
    #[test]
    fn records_round_trip_through_their_canonical_bytes(
        version in any::<u16>(), game_id in digest(), seq in any::<u32>(), prev in digest(),
        guest in any::<bool>(), timestamp_ms in any::<u64>(), body in body(), key in any::<[u8; 32]>(),
    ) {
        let content = RecordContent {
            version, game_id, seq, prev,
            author: if guest { Seat::Guest } else { Seat::Host },
            timestamp_ms, body,
        };
        let record = Record::sign(content, &reversi_core::match_log::Identity::from_secret_bytes(&key));
        let decoded = Record::decode(&record.to_bytes()).unwrap();
        prop_assert_eq!(&decoded, &record);
        let line = reversi_core::match_log::log_file::record_line(&record);
        let loaded = parse_log(line.as_bytes()).unwrap();
        prop_assert_eq!(&loaded.records[0], &record);
    }

    #[test]
    fn arbitrary_bytes_never_panic_the_decoder_or_the_auditor(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
        let _ = Record::decode(&bytes);
        let _ = audit_log_bytes(&bytes);
    }
}

#[test]
fn exported_ggf_writes_every_pass_and_reads_back_as_the_same_game() {
    let mut passes = 0;
    for seed in 0..40 {
        let game = finished_game(seed);
        let verifier = game.verifier();
        let text = reversi_core::match_log::export::ggf(verifier);
        let read = reversi_core::engine::parse_ggf(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
        let moves: Vec<_> = verifier.moves().iter().map(|m| m.square).collect();
        assert_eq!(read.moves, moves, "{text}");
        assert!(read.position.is_over());
        // A pass is written exactly where one side moves twice running.
        let repeats = verifier
            .moves()
            .windows(2)
            .filter(|w| w[0].color == w[1].color)
            .count();
        assert_eq!(text.matches("[PA]").count(), repeats, "{text}");
        passes += repeats;
    }
    assert!(passes > 0, "some of the games have a pass");
}
