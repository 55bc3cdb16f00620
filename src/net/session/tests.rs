//! The session state machine without any transport: two sessions wired
//! back to back, and an adversary that speaks the protocol.

use super::*;
use crate::engine::{Ending, Rules, Square};
use crate::match_log::invite::InviteSecret;
use crate::match_log::record::{MoveBody, PROTOCOL_VERSION};
use crate::match_log::verify::Violation;
use crate::match_log::verify_log;
use crate::net::refusal::Refusal;
use crate::random_player::RandomPlayer;

const T0: u64 = 1_796_000_000_000;

fn terms() -> HostTerms {
    HostTerms {
        proposal: RulesProposal::fixed(Rules::default()),
        deadline_secs: 3600,
    }
}

/// The secret of the room code the tests' hosts give out.
fn invite() -> InviteSecret {
    InviteSecret::from_bytes(*b"K7QFM2XAPZ")
}

/// What a guest who typed `host`'s code holds.
fn code_of(host: &Identity) -> Invitation {
    Invitation::typed(invite(), &host.public_key())
}

fn pair() -> (Session, Session) {
    let host_id = Identity::from_seed(1);
    (
        Session::host(host_id.clone(), "Ann".into(), terms(), &invite()),
        Session::guest(Identity::from_seed(2), "Ben".into(), code_of(&host_id)),
    )
}

/// Outputs of one side delivered to the other until both are quiet;
/// returns every event seen, per side.
fn pump(
    a: &mut Session,
    b: &mut Session,
    first: Vec<Output>,
    second: Vec<Output>,
) -> (Vec<Event>, Vec<Event>) {
    let mut to_b: Vec<Vec<u8>> = Vec::new();
    let mut to_a: Vec<Vec<u8>> = Vec::new();
    let mut events = (Vec::new(), Vec::new());
    let sort = |outputs: Vec<Output>, sends: &mut Vec<Vec<u8>>, events: &mut Vec<Event>| {
        for output in outputs {
            match output {
                Output::Send(bytes) => sends.push(bytes),
                Output::Event(e) => events.push(e),
                _ => {}
            }
        }
    };
    sort(first, &mut to_b, &mut events.0);
    sort(second, &mut to_a, &mut events.1);
    let mut now = T0;
    while !to_a.is_empty() || !to_b.is_empty() {
        now += 1;
        for bytes in std::mem::take(&mut to_b) {
            let outputs = b.receive(&bytes, now);
            sort(outputs, &mut to_a, &mut events.1);
        }
        for bytes in std::mem::take(&mut to_a) {
            let outputs = a.receive(&bytes, now);
            sort(outputs, &mut to_b, &mut events.0);
        }
    }
    events
}

fn connect(host: &mut Session, guest: &mut Session) -> (Vec<Event>, Vec<Event>) {
    let h = host.connected();
    let g = guest.connected();
    pump(host, guest, h, g)
}

/// Plays random moves, each side on its turn, to the end.
fn play_out(host: &mut Session, guest: &mut Session, seed: u64, limit: usize) {
    let mut player = RandomPlayer::new(seed);
    for i in 0..limit {
        let now = T0 + 1000 * (i as u64 + 1);
        let (mover, other) = if host.my_turn() {
            (&mut *host, &mut *guest)
        } else if guest.my_turn() {
            (&mut *guest, &mut *host)
        } else {
            return;
        };
        let square = player.choose(mover.position().unwrap()).unwrap();
        let outputs = mover.play(square, now).unwrap();
        pump(mover, other, outputs, vec![]);
    }
}

#[test]
fn two_sessions_set_up_and_play_a_whole_game_with_identical_logs() {
    let (mut host, mut guest) = pair();
    let (host_events, guest_events) = connect(&mut host, &mut guest);
    let codes: Vec<String> = [&host_events, &guest_events]
        .iter()
        .filter_map(|events| {
            events.iter().find_map(|e| match e {
                Event::PeerIdentified { safety_code, .. } => Some(safety_code.clone()),
                _ => None,
            })
        })
        .collect();
    assert_eq!(codes.len(), 2);
    assert_eq!(codes[0], codes[1], "both sides show the same safety code");
    assert!(
        host_events
            .iter()
            .any(|e| matches!(e, Event::PeerIdentified { name, .. } if name == "Ben"))
    );
    let started = |events: &[Event]| {
        events.iter().find_map(|e| match e {
            Event::Started { color } => Some(*color),
            _ => None,
        })
    };
    let (hc, gc) = (
        started(&host_events).unwrap(),
        started(&guest_events).unwrap(),
    );
    assert_ne!(hc, gc, "one plays black, the other white");
    play_out(&mut host, &mut guest, 7, 200);
    assert_eq!(host.records(), guest.records());
    let verified = verify_log(host.records()).unwrap();
    assert_eq!(
        verified.end().unwrap().outcome.ending,
        Ending::BoardFinished
    );
    assert_eq!(host.outcome(), guest.outcome());
    assert_eq!(host.peer_acknowledged() as usize, host.records().len());
}

fn started_pair() -> (Session, Session) {
    let (mut host, mut guest) = pair();
    connect(&mut host, &mut guest);
    play_out(&mut host, &mut guest, 3, 6);
    (host, guest)
}

/// The first legal move of the side to move.
fn first_legal(session: &Session) -> Square {
    session
        .position()
        .unwrap()
        .legal_moves()
        .squares()
        .next()
        .unwrap()
}

/// The session whose turn it is, and the other.
fn by_turn(host: Session, guest: Session) -> (Session, Session) {
    if host.my_turn() {
        (host, guest)
    } else {
        (guest, host)
    }
}

/// Where the first output of a kind stands, if any.
fn first_at(outputs: &[Output], kind: fn(&Output) -> bool) -> Option<usize> {
    outputs.iter().position(kind)
}

#[test]
fn every_record_is_persisted_before_it_is_sent() {
    let (host, guest) = started_pair();
    let (mut mover, mut other) = by_turn(host, guest);
    let square = first_legal(&mover);
    let outputs = mover.play(square, T0 + 60_000).unwrap();
    let persist =
        first_at(&outputs, |o| matches!(o, Output::Persist(_))).expect("a record to persist");
    let send = first_at(&outputs, |o| matches!(o, Output::Send(_))).expect("a record to send");
    assert!(
        persist < send,
        "persist at {persist}, send at {send}: {outputs:?}"
    );
    // The peer, taking the record, persists it before it acknowledges it.
    let Output::Send(bytes) = &outputs[send] else {
        unreachable!()
    };
    let answer = other.receive(bytes, T0 + 60_001);
    let persist =
        first_at(&answer, |o| matches!(o, Output::Persist(_))).expect("the peer persists");
    if let Some(send) = first_at(&answer, |o| matches!(o, Output::Send(_))) {
        assert!(
            persist < send,
            "the peer persists at {persist}, sends at {send}"
        );
    }
}

/// A record in `author`'s name, signed by `signer`, for the next place in `log`.
fn forged(log: &Session, author: Seat, signer: &Identity, body: Body) -> Vec<u8> {
    let v = log.verifier().unwrap();
    let content = RecordContent {
        version: PROTOCOL_VERSION,
        game_id: v.game_id(),
        seq: log.records().len() as u32,
        prev: v.last_hash(),
        author,
        timestamp_ms: v.last_timestamp() + 1,
        body,
    };
    WireMessage::Record(Record::sign(content, signer).to_bytes()).encode()
}

fn rejected(outputs: &[Output]) -> Option<String> {
    outputs.iter().find_map(|o| match o {
        Output::Event(Event::Rejected(r)) => Some(r.to_string()),
        _ => None,
    })
}

#[test]
fn every_kind_of_bad_record_is_rejected_with_its_reason_and_changes_nothing() {
    let (mover, waiter) = by_turn(started_pair().0, started_pair().1);
    // `waiter` receives records from a cheating `mover`.
    let mut honest = waiter;
    let cheat_seat = mover.seat();
    let cheat_key = Identity::from_seed(if cheat_seat == Seat::Host { 1 } else { 2 });
    let honest_key = Identity::from_seed(if cheat_seat == Seat::Host { 2 } else { 1 });
    let position = *honest.position().unwrap();
    let legal = position.legal_moves().squares().next().unwrap();
    let good_hash = position.play(legal).unwrap().hash().0;
    let illegal = crate::engine::Square::new(0).unwrap();
    let before = honest.records().to_vec();

    let cases: Vec<(Vec<u8>, &str)> = vec![
        (
            forged(
                &honest,
                cheat_seat,
                &cheat_key,
                Body::Move(MoveBody {
                    square: illegal.index(),
                    position_hash: [0; 32],
                }),
            ),
            "is illegal",
        ),
        (
            forged(
                &honest,
                cheat_seat,
                &cheat_key,
                Body::Move(MoveBody {
                    square: legal.index(),
                    position_hash: [7; 32],
                }),
            ),
            "position hash",
        ),
        (
            forged(
                &honest,
                cheat_seat,
                &honest_key,
                Body::Move(MoveBody {
                    square: legal.index(),
                    position_hash: good_hash,
                }),
            ),
            "signature is not valid",
        ),
        (vec![0xde, 0xad, 0xbe, 0xef], "malformed message"),
        (vec![1; MAX_MESSAGE_BYTES + 1], "more than"),
    ];
    for (bytes, reason) in cases {
        let outputs = honest.receive(&bytes, T0 + 99);
        let why = rejected(&outputs).unwrap_or_else(|| panic!("not rejected: {reason}"));
        assert!(why.contains(reason), "{why:?} should mention {reason:?}");
        assert!(
            outputs.iter().any(|o| matches!(o, Output::Evidence { .. })),
            "evidence saved"
        );
        assert!(!outputs.iter().any(|o| matches!(o, Output::Persist(_))));
        assert_eq!(honest.records(), &before[..], "state unchanged");
    }
    // Strike by strike, up to the limit: then the peer is disconnected.
    let mut disconnected = false;
    for _ in 5..MAX_STRIKES {
        disconnected = honest
            .receive(&[9, 9, 9], T0 + 100)
            .iter()
            .any(|o| matches!(o, Output::Disconnect(_)));
    }
    assert!(
        disconnected,
        "disconnected after {MAX_STRIKES} invalid messages"
    );
}

#[test]
fn a_move_out_of_turn_and_a_record_from_another_game_are_rejected() {
    let (mover, waiter) = by_turn(started_pair().0, started_pair().1);
    let mut honest = waiter;
    let honest_seat = honest.seat();
    let cheat_seat = mover.seat();
    let cheat_key = Identity::from_seed(if cheat_seat == Seat::Host { 1 } else { 2 });
    // The cheat moves for us... in its own name but when it is not its turn:
    // make the honest side's turn first by letting the mover move.
    let mut mover = mover;
    let square = first_legal(&mover);
    let outputs = mover.play(square, T0 + 10).unwrap();
    pump(&mut mover, &mut honest, outputs, vec![]);
    assert!(honest.my_turn());
    let position = *honest.position().unwrap();
    let sq = position.legal_moves().squares().next().unwrap();
    let bytes = forged(
        &honest,
        cheat_seat,
        &cheat_key,
        Body::Move(MoveBody {
            square: sq.index(),
            position_hash: position.play(sq).unwrap().hash().0,
        }),
    );
    let why = rejected(&honest.receive(&bytes, T0 + 20)).unwrap();
    assert!(
        why.contains(&format!("expected the {honest_seat}")),
        "{why}"
    );

    // Records from another game between the same two players (another host key).
    let other_host_id = Identity::from_seed(7);
    let mut other_host = Session::host(other_host_id.clone(), "Ann".into(), terms(), &invite());
    let mut other_guest = Session::guest(
        Identity::from_seed(2),
        "Ben".into(),
        code_of(&other_host_id),
    );
    connect(&mut other_host, &mut other_guest);
    let before = honest.records().len();
    let replayed = WireMessage::Record(other_guest.records()[3].to_bytes()).encode();
    let why = rejected(&honest.receive(&replayed, T0 + 30)).unwrap();
    assert_eq!(why, "record 3 belongs to another game");
    let mut content = honest.records()[before - 1].content().clone();
    content.seq = before as u32;
    content.prev = honest.records()[before - 1].hash();
    content.game_id = other_guest.records()[1].content().game_id;
    let wrong_game = WireMessage::Record(Record::sign(content, &cheat_key).to_bytes()).encode();
    let why = rejected(&honest.receive(&wrong_game, T0 + 31)).unwrap();
    assert!(why.contains("game id"), "{why}");
    assert_eq!(honest.records().len(), before);
}

#[test]
fn an_equivocating_record_halts_the_game_with_a_proof() {
    let (mut mover, mut waiter) = by_turn(started_pair().0, started_pair().1);
    let position = *mover.position().unwrap();
    let mut squares = position.legal_moves().squares();
    let (first, second) = (squares.next().unwrap(), squares.next().unwrap());
    let mut fork = mover.clone();
    let outputs = mover.play(first, T0 + 50).unwrap();
    pump(&mut mover, &mut waiter, outputs, vec![]);
    // The same player signs a different move for the same place.
    let outputs = fork.play(second, T0 + 50).unwrap();
    let bytes = outputs
        .iter()
        .find_map(|o| match o {
            Output::Send(b) => Some(b.clone()),
            _ => None,
        })
        .unwrap();
    let before = waiter.records().to_vec();
    let outputs = waiter.receive(&bytes, T0 + 60);
    let halted = outputs.iter().find_map(|o| match o {
        Output::Event(Event::Halted(r)) => Some(r.clone()),
        _ => None,
    });
    let halted = halted.unwrap();
    assert!(
        matches!(halted, HaltReason::Equivocation { .. }),
        "{halted:?}"
    );
    assert!(halted.to_string().contains("equivocation"));
    let proof = outputs.iter().find_map(|o| match o {
        Output::Evidence { bytes, .. } if bytes.starts_with(b"{\"record\"") => Some(bytes.clone()),
        _ => None,
    });
    let proof = String::from_utf8(proof.expect("proof saved")).unwrap();
    assert_eq!(
        proof.lines().count(),
        2,
        "both signed records, as log lines"
    );
    assert_eq!(waiter.records(), &before[..]);
    assert!(waiter.halted().is_some());
    assert!(
        waiter.play(second, T0 + 70).is_err(),
        "a halted game takes no moves"
    );
}

#[test]
fn records_written_while_disconnected_are_sent_on_reconnect() {
    let (mut host, mut guest) = started_pair();
    host.disconnected();
    guest.disconnected();
    let (mut mover, mut other) = by_turn(host, guest);
    let square = first_legal(&mover);
    let outputs = mover.play(square, T0 + 100).unwrap();
    assert!(outputs.iter().any(|o| matches!(o, Output::Persist(_))));
    assert!(
        !outputs.iter().any(|o| matches!(o, Output::Send(_))),
        "nothing sent while offline"
    );
    connect(&mut mover, &mut other);
    assert_eq!(mover.records(), other.records());
    play_out(&mut mover, &mut other, 9, 200);
    assert!(mover.outcome().is_some());
    assert_eq!(mover.records(), other.records());
}

/// Delivers one heartbeat each way (and what answers it).
fn beat(host: &mut Session, guest: &mut Session) {
    let h = host.heartbeat().map(Output::Send).into_iter().collect();
    let g = guest.heartbeat().map(Output::Send).into_iter().collect();
    pump(host, guest, h, g);
}

#[test]
fn a_lost_first_hello_is_repeated_by_the_heartbeat_and_the_sides_still_meet() {
    let (mut host, mut guest) = pair();
    // The host's hello is lost (the guest's end of the data channel was not
    // yet open); the guest's arrives, and what the host sends in answer is
    // ignored as coming before its hello (no strike: an honest race).
    let _lost = host.connected();
    let g = guest.connected();
    let (_, guest_events) = pump(&mut host, &mut guest, vec![], g);
    assert!(
        !guest_events.iter().any(|e| matches!(e, Event::Rejected(_))),
        "{guest_events:?}"
    );
    assert!(
        host.records().len() > guest.records().len(),
        "the genesis did not reach the guest"
    );
    assert!(
        guest.position().is_none(),
        "the guest is stuck without the host's hello"
    );
    // Heartbeats repeat the hellos until each side has heard more than a hello.
    for _ in 0..3 {
        beat(&mut host, &mut guest);
    }
    assert!(
        host.position().is_some() && guest.position().is_some(),
        "play began"
    );
    assert_eq!(host.records(), guest.records());
    let ack = WireMessage::Ack {
        records: host.records().len() as u32,
    }
    .encode();
    assert_eq!(
        host.heartbeat(),
        Some(ack),
        "the heartbeat is an acknowledgement now"
    );
    play_out(&mut host, &mut guest, 5, 200);
    assert!(host.outcome().is_some());
    assert_eq!(host.records(), guest.records());
}

#[test]
fn a_side_knows_when_the_peer_has_confirmed_every_record_it_wrote() {
    let (host, guest) = started_pair();
    let (mut mover, mut other) = by_turn(host, guest);
    assert!(mover.mine_acknowledged() && other.mine_acknowledged());
    let square = first_legal(&mover);
    let outputs = mover.play(square, T0 + 50_000).unwrap();
    assert!(!mover.mine_acknowledged(), "the move is not confirmed yet");
    assert!(
        other.mine_acknowledged(),
        "what the other wrote is still confirmed"
    );
    pump(&mut mover, &mut other, outputs, vec![]);
    assert!(mover.mine_acknowledged(), "confirmed once delivered");
}

#[test]
fn a_repeated_hello_is_answered_without_news_or_strikes() {
    let (mut host, mut guest) = started_pair();
    for _ in 0..20 {
        let hello = guest.hello().encode();
        let outputs = host.receive(&hello, T0 + 50_000);
        assert!(
            !outputs.iter().any(|o| matches!(
                o,
                Output::Event(Event::PeerIdentified { .. } | Event::Rejected(_))
                    | Output::Disconnect(_)
            )),
            "{outputs:?}"
        );
    }
    play_out(&mut host, &mut guest, 11, 200);
    assert!(host.outcome().is_some());
}

#[test]
fn a_side_resumes_from_its_log_and_finishes_the_game() {
    let (mut host, guest) = started_pair();
    // The guest's program dies; a new one starts from the guest's log.
    let records = guest.records().to_vec();
    drop(guest);
    let mut guest = Session::resume(Identity::from_seed(2), records).unwrap();
    assert_eq!(guest.seat(), Seat::Guest);
    host.disconnected();
    connect(&mut host, &mut guest);
    play_out(&mut host, &mut guest, 11, 200);
    assert!(host.outcome().is_some());
    assert_eq!(host.records(), guest.records());
    assert!(verify_log(guest.records()).is_ok());
    assert!(matches!(
        Session::resume(Identity::from_seed(3), host.records().to_vec()),
        Err(ResumeError::NotYours(_))
    ));
}

#[test]
fn a_resumed_host_that_lost_its_last_records_gets_them_back() {
    let (host, mut guest) = started_pair();
    let mut records = host.records().to_vec();
    records.truncate(records.len() - 2);
    let mut host = Session::resume(Identity::from_seed(1), records).unwrap();
    guest.disconnected();
    connect(&mut host, &mut guest);
    assert!(
        host.records() == guest.records(),
        "the host's log is whole again"
    );
}

#[test]
fn a_held_side_that_lost_its_last_move_signs_nothing_until_the_peer_gives_it_back() {
    let (host, guest) = started_pair();
    let (mut mover, mut other) = by_turn(host, guest);
    let mover_id = if mover.seat() == Seat::Host {
        Identity::from_seed(1)
    } else {
        Identity::from_seed(2)
    };
    // The mover plays; its storage loses that record, the peer has it.
    let before = mover.records().to_vec();
    let outputs = mover.play(first_legal(&mover), T0 + 50_000).unwrap();
    pump(&mut mover, &mut other, outputs, vec![]);
    let mut reloaded = Session::resume(mover_id, before).unwrap();
    reloaded.hold_until_heads_agree();
    assert!(reloaded.waiting_for_heads());
    assert!(!reloaded.my_turn(), "a held side is not asked to move");
    let square = first_legal(&reloaded);
    assert_eq!(
        reloaded.play(square, T0 + 60_000).unwrap_err(),
        ActionError::WaitingForHeads,
        "signing the same turn again would be an equivocation"
    );
    assert_eq!(
        reloaded.resign(T0 + 60_000).unwrap_err(),
        ActionError::WaitingForHeads
    );
    other.disconnected();
    connect(&mut reloaded, &mut other);
    assert!(!reloaded.waiting_for_heads());
    assert_eq!(
        reloaded.records(),
        other.records(),
        "the lost move came back"
    );
    assert!(reloaded.halted().is_none() && other.halted().is_none());
    play_out(&mut reloaded, &mut other, 5, 200);
    assert!(reloaded.outcome().is_some());
    assert_eq!(reloaded.records(), other.records());
}

#[test]
fn version_mismatch_wrong_host_and_impostors_are_refused() {
    let (mut host, mut guest) = pair();
    let _ = host.connected();
    let mut hello = match WireMessage::decode(&match &guest.connected()[0] {
        Output::Send(b) => b.clone(),
        _ => unreachable!(),
    })
    .unwrap()
    {
        WireMessage::Hello(h) => h,
        _ => unreachable!(),
    };
    hello.protocol = 99;
    let outputs = host.receive(&WireMessage::Hello(hello.clone()).encode(), T0);
    let why = rejected(&outputs).unwrap();
    assert!(
        why.starts_with("version mismatch: the peer speaks protocol 99, this program speaks 2"),
        "{why}"
    );
    assert!(outputs.iter().any(|o| matches!(o, Output::Disconnect(_))));

    // A guest holding a code for another host.
    let other = Invitation::linked(invite(), &Identity::from_seed(9).public_key());
    let mut fooled = Session::guest(Identity::from_seed(2), "Ben".into(), other);
    let _ = fooled.connected();
    let host_hello = match &Session::host(Identity::from_seed(1), "Ann".into(), terms(), &invite())
        .connected()[0]
    {
        Output::Send(b) => b.clone(),
        _ => unreachable!(),
    };
    let why = rejected(&fooled.receive(&host_hello, T0)).unwrap();
    assert!(why.contains("does not match the room code"), "{why}");

    // After the game is set up, a stranger's key is not the opponent.
    let (mut host, _guest) = started_pair();
    host.disconnected();
    let _ = host.connected();
    let stranger = Session::guest(
        Identity::from_seed(5),
        "Eve".into(),
        code_of(&Identity::from_seed(1)),
    )
    .hello();
    let why = rejected(&host.receive(&stranger.encode(), T0)).unwrap();
    assert!(why.contains("is not the guest's key in this game"), "{why}");
}

#[test]
fn a_timeout_claim_ends_the_game_once_the_deadline_passes() {
    let (host, guest) = started_pair();
    let (mut mover, mut waiter) = by_turn(host, guest);
    let (seat, deadline) = waiter.deadline().unwrap();
    assert_eq!(seat, mover.seat());
    assert_eq!(
        waiter.claim_timeout(deadline - 1),
        Err(ActionError::DeadlineNotPassed)
    );
    assert_eq!(mover.claim_timeout(deadline), Err(ActionError::NotYourTurn));
    let outputs = waiter.claim_timeout(deadline).unwrap();
    let (_, mover_events) = pump(&mut waiter, &mut mover, outputs, vec![]);
    assert!(
        mover_events
            .iter()
            .any(|e| matches!(e, Event::Ended(o) if matches!(o.ending, Ending::Timeout { .. })))
    );
    assert_eq!(waiter.records(), mover.records());
    let _ = Violation::EmptyLog;
}

/// An open game: the host signs the genesis before anyone answers; the
/// guest holds a code with `secret` (the host's is [`invite`]).
fn open_pair(secret: [u8; 10]) -> (Session, Vec<Output>, Session) {
    let host_id = Identity::from_seed(1);
    let register = std::sync::Arc::new(crate::net::signing_register::MemoryRegister::named("host"));
    let (host, out) = Session::host_open(
        host_id.clone(),
        "Ann".into(),
        terms(),
        &invite(),
        T0,
        register,
    )
    .unwrap();
    let code = Invitation::typed(InviteSecret::from_bytes(secret), &host_id.public_key());
    let guest = Session::guest(Identity::from_seed(2), "Ben".into(), code);
    (host, out, guest)
}

/// Records persisted by a batch of outputs.
fn persisted(outputs: &[Output]) -> Vec<Record> {
    outputs
        .iter()
        .filter_map(|o| match o {
            Output::Persist(r) => Some((**r).clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn an_open_game_is_set_up_live_once_a_guest_with_the_room_code_connects() {
    let (mut host, out, mut guest) = open_pair(*b"K7QFM2XAPZ");
    assert_eq!(
        persisted(&out).len(),
        1,
        "the open genesis is signed at once"
    );
    assert!(matches!(
        host.records()[0].content().body,
        Body::OpenGenesis(_)
    ));
    connect(&mut host, &mut guest);
    assert!(matches!(
        host.records()[1].content().body,
        Body::OpenAccept(_)
    ));
    assert_eq!(
        host.records().len(),
        4,
        "genesis, acceptance and both reveals"
    );
    assert!(host.my_color().is_some() && guest.my_color().is_some());
    play_out(&mut host, &mut guest, 3, 200);
    assert_eq!(host.records(), guest.records());
    let verified = verify_log(host.records()).unwrap();
    assert_eq!(verified.player(Seat::Guest).unwrap().name, "Ben");
    assert!(verified.end().is_some());
}

#[test]
fn an_open_game_is_set_up_and_played_through_a_relay_with_the_two_never_connected() {
    let (mut host, out, mut guest) = open_pair(*b"K7QFM2XAPZ");
    // Each side hands the other what it persisted, one visit at a time.
    let mut to_guest = persisted(&out);
    let mut now = T0;
    for _ in 0..200 {
        now += 60_000;
        let mut to_host = Vec::new();
        for record in std::mem::take(&mut to_guest) {
            to_host.extend(persisted(&guest.relayed(record, now).unwrap()));
        }
        to_host.extend(persisted(&guest.catch_up(now)));
        if let (true, Some(p)) = (guest.my_turn(), guest.position().copied()) {
            let square = p.legal_moves().squares().next().unwrap();
            to_host.extend(persisted(&guest.play(square, now).unwrap()));
        }
        now += 60_000;
        for record in to_host {
            to_guest.extend(persisted(&host.relayed(record, now).unwrap()));
        }
        if let (true, Some(p)) = (host.my_turn(), host.position().copied()) {
            let square = p.legal_moves().squares().next().unwrap();
            to_guest.extend(persisted(&host.play(square, now).unwrap()));
        }
        if host.outcome().is_some() && to_guest.is_empty() {
            break;
        }
    }
    for record in to_guest {
        guest.relayed(record, now).unwrap();
    }
    assert!(host.outcome().is_some(), "the game ended");
    assert_eq!(host.records(), guest.records());
    verify_log(host.records()).unwrap();
}

#[test]
fn an_open_genesis_cannot_be_accepted_without_the_room_secret() {
    let (_host, out, mut guest) = open_pair(*b"WRONGROOM0");
    let genesis = persisted(&out).remove(0);
    let why = guest.relayed(genesis.clone(), T0 + 1).unwrap_err();
    assert_eq!(why, Refusal::NotMadeWithCode);
    assert!(
        why.to_string().contains("not made with your code's secret"),
        "{why}"
    );
    assert!(guest.records().is_empty(), "nothing taken, nothing signed");
    // Forged acceptances are refused and change nothing: one signed by
    // another invite key, one showing a room name as version 1 did.
    let guest_id = Identity::from_seed(2);
    let accept = |invite_proof: Vec<u8>| {
        Record::sign(
            RecordContent {
                version: PROTOCOL_VERSION,
                game_id: genesis.hash(),
                seq: 1,
                prev: genesis.hash(),
                author: Seat::Guest,
                timestamp_ms: T0 + 2,
                body: Body::OpenAccept(OpenAccept {
                    guest: PlayerInfo {
                        name: "Ben".into(),
                        key: guest_id.public_key().to_bytes(),
                    },
                    guest_commitment: [7; 32],
                    invite_proof,
                }),
            },
            &guest_id,
        )
    };
    let wrong_key = InviteSecret::from_bytes(*b"WRONGROOM0").invite_key();
    let signed_by_another = AcceptProof::sign(&wrong_key, &genesis.hash(), &guest_id.public_key());
    for forged in [
        accept(signed_by_another.to_bytes()),
        accept(invite().room().into_bytes()),
        accept(Vec::new()),
    ] {
        let mut verifier = MatchVerifier::start(&genesis).unwrap();
        let refused = verifier.append(&forged).unwrap_err();
        assert_eq!(refused.violation, Violation::WrongInvite);
        assert_eq!(verifier.record_count(), 1, "nothing changed");
        assert!(verifier.player(Seat::Guest).is_none());
    }
    // The same acceptance with the code's invite key is taken.
    let right = AcceptProof::sign(
        &invite().invite_key(),
        &genesis.hash(),
        &guest_id.public_key(),
    );
    let mut verifier = MatchVerifier::start(&genesis).unwrap();
    verifier.append(&accept(right.to_bytes())).unwrap();
    assert!(verifier.player(Seat::Guest).is_some());
}

#[test]
fn a_relayed_genesis_from_a_host_the_code_does_not_name_is_refused() {
    let (_host, out, _) = open_pair(*b"K7QFM2XAPZ");
    let code = Invitation::Legacy {
        room: "K7QFM2XAPZ4".into(),
        host_prefix: "ZZZZZ".into(),
    };
    let mut guest = Session::guest(Identity::from_seed(2), "Ben".into(), code);
    let refused = guest
        .relayed(persisted(&out).remove(0), T0 + 1)
        .unwrap_err();
    assert!(matches!(refused, Refusal::GenesisNotFromCodesHost { .. }));
    assert!(
        refused
            .to_string()
            .contains("not signed by the host the room code names (a fingerprint starting ZZZZZ)"),
        "{refused}"
    );
    assert!(guest.records().is_empty());
}

/// A connected pair that proposed the draw rule decided by lot.
fn by_lot_pair() -> (Session, Session, (Vec<Event>, Vec<Event>)) {
    let host_id = Identity::from_seed(1);
    let terms = HostTerms {
        proposal: RulesProposal::draw_by_lot(Rules::default()).unwrap(),
        deadline_secs: 3600,
    };
    let mut host = Session::host(host_id.clone(), "Ann".into(), terms, &invite());
    let mut guest = Session::guest(Identity::from_seed(2), "Ben".into(), code_of(&host_id));
    let events = connect(&mut host, &mut guest);
    (host, guest, events)
}

#[test]
fn under_the_draw_by_lot_each_side_is_asked_its_question_in_turn() {
    let (host, guest, (host_events, guest_events)) = by_lot_pair();
    let started = |events: &[Event]| events.iter().any(|e| matches!(e, Event::Started { .. }));
    assert!(!started(&host_events) && !started(&guest_events));
    let (mut chooser, mut other) = if host.my_question().is_some() {
        (host, guest)
    } else {
        (guest, host)
    };
    assert_eq!(chooser.my_question(), Some(ColorQuestion::TieWinner));
    assert_eq!(other.my_question(), None);
    assert_eq!(
        other.question(),
        Some((chooser.seat(), ColorQuestion::TieWinner))
    );
    assert_eq!(chooser.my_color(), None, "no colour before the choices");
    // Out of turn, and moves before the colours, are refused.
    assert_eq!(
        other.choose(Color::Black, T0),
        Err(ActionError::NotYourTurn)
    );
    assert_eq!(
        chooser.play(first_legal(&chooser), T0),
        Err(ActionError::ColorsNotChosen)
    );
    let outputs = chooser.choose(Color::White, T0 + 1).unwrap();
    let (_, other_events) = pump(&mut chooser, &mut other, outputs, vec![]);
    assert!(other_events.contains(&Event::Chose {
        mine: false,
        question: ColorQuestion::TieWinner,
        color: Color::White
    }));
    assert_eq!(other.my_question(), Some(ColorQuestion::SeatColor));
    let outputs = other.choose(Color::White, T0 + 2).unwrap();
    let (other_events, chooser_events) = pump(&mut other, &mut chooser, outputs, vec![]);
    assert!(other_events.contains(&Event::Started {
        color: Color::White
    }));
    assert!(chooser_events.contains(&Event::Started {
        color: Color::Black
    }));
    assert_eq!(other.my_color(), Some(Color::White));
    assert!(chooser.my_turn(), "black moves first");
    play_out(&mut chooser, &mut other, 11, 200);
    assert_eq!(chooser.records(), other.records());
    let v = verify_log(chooser.records()).unwrap();
    assert_eq!(v.phase(), Phase::Ended);
    assert_eq!(
        v.coin_flip().unwrap().rules.options().draw,
        crate::engine::DrawRule::White
    );
}

#[test]
fn a_missed_colour_choice_is_claimed_on_the_deadline() {
    let (host, guest, _) = by_lot_pair();
    let (mut chooser, mut other) = if host.my_question().is_some() {
        (host, guest)
    } else {
        (guest, host)
    };
    let (seat, deadline) = other.deadline().unwrap();
    assert_eq!(seat, chooser.seat(), "the chooser's clock runs");
    assert_eq!(
        other.claim_timeout(deadline - 1),
        Err(ActionError::DeadlineNotPassed)
    );
    let outputs = other.claim_timeout(deadline).unwrap();
    let (_, chooser_events) = pump(&mut other, &mut chooser, outputs, vec![]);
    assert!(
        chooser_events
            .iter()
            .any(|e| matches!(e, Event::Ended(o) if matches!(o.ending, Ending::Timeout { .. })))
    );
    let v = verify_log(chooser.records()).unwrap();
    let winner = v.end().unwrap().outcome.winner.unwrap();
    assert_eq!(v.seat_of(winner), Some(other.seat()));
    assert_eq!(other.my_color(), Some(winner));
}

#[test]
fn a_rematch_waits_for_consent_is_only_for_the_old_opponent_and_can_be_declined() {
    let (host_id, guest_id) = (Identity::from_seed(1), Identity::from_seed(2));
    let previous = [7u8; 32];
    let offer = |host_id: Identity, guest_id: Identity, previous| {
        let host = Session::host_rematch(
            host_id,
            "Ann".into(),
            terms(),
            RematchOf {
                previous,
                opponent: guest_id.public_key(),
                proposal: terms().proposal,
                deadline_secs: terms().deadline_secs,
            },
        );
        let guest = Session::rematch_guest(
            guest_id,
            "Ben".into(),
            RematchOf {
                previous: [7; 32],
                opponent: Identity::from_seed(1).public_key(),
                proposal: terms().proposal,
                deadline_secs: terms().deadline_secs,
            },
        );
        (host, guest)
    };
    // Accepted: the offer waits for the guest's word, then the game starts.
    let (mut host, mut guest) = offer(host_id.clone(), guest_id.clone(), previous);
    let (_, guest_events) = connect(&mut host, &mut guest);
    assert!(guest_events.contains(&Event::RematchOffered));
    assert!(guest.rematch_offered());
    assert_eq!(guest.records().len(), 1, "only the proposal so far");
    assert_eq!(guest.verifier().unwrap().previous_game(), Some(previous));
    // Its log resumed (a restart, Your games' refresh) waits for the word too.
    let mut resumed = Session::resume(guest_id.clone(), guest.records().to_vec()).unwrap();
    let outputs = resumed.catch_up(T0);
    assert!(
        !outputs.iter().any(|o| matches!(o, Output::Persist(_))),
        "nothing signed without consent"
    );
    assert!(outputs.contains(&Output::Event(Event::RematchOffered)));
    assert!(resumed.rematch_offered());
    let outputs = guest.accept_rematch(T0).unwrap();
    pump(&mut guest, &mut host, outputs, vec![]);
    assert!(host.my_turn() || guest.my_turn(), "play begins");
    assert_eq!(host.records(), guest.records());
    // Declined: the proposer is told and stops.
    let (mut host, mut guest) = offer(host_id.clone(), guest_id.clone(), previous);
    connect(&mut host, &mut guest);
    let outputs = guest.decline_rematch().unwrap();
    assert!(guest.parting_message().is_some());
    let (_, host_events) = pump(&mut guest, &mut host, outputs, vec![]);
    assert!(host_events.contains(&Event::Halted(HaltReason::RematchDeclined)));
    assert_eq!(host.halted(), Some(&HaltReason::RematchDeclined));
    // A proposal that names another game is refused; so is a stranger.
    let (mut host, mut guest) = offer(host_id.clone(), guest_id.clone(), [8; 32]);
    let (_, guest_events) = connect(&mut host, &mut guest);
    assert!(!guest.rematch_offered());
    assert!(
        guest_events
            .iter()
            .any(|e| matches!(e, Event::Rejected(r @ Refusal::NotOurRematch) if r.to_string().contains("not a rematch of our game")))
    );
    let (mut host, _) = offer(host_id, guest_id, previous);
    let mut stranger = Session::guest(
        Identity::from_seed(3),
        "Cy".into(),
        code_of(&Identity::from_seed(1)),
    );
    let (host_events, _) = connect(&mut host, &mut stranger);
    assert!(host_events.iter().any(
        |e| matches!(e, Event::Rejected(r @ Refusal::NotTheRematchOpponent { .. }) if r.to_string().contains("not the opponent this rematch is for"))
    ));
    assert!(host.records().is_empty(), "no proposal to a stranger");
}

/// Two sessions of one identity on two copies of one game, sharing one
/// register: what one signs, the other cannot sign differently.
#[test]
fn a_second_copy_of_a_game_cannot_sign_a_place_the_first_signed() {
    use crate::net::signing_register::{MemoryRegister, RegisterError};
    let (mut host, mut guest) = pair();
    let registers = [
        std::sync::Arc::new(MemoryRegister::named("host.log")),
        std::sync::Arc::new(MemoryRegister::named("guest.log")),
    ];
    host.set_register(registers[0].clone());
    guest.set_register(registers[1].clone());
    connect(&mut host, &mut guest);
    play_out(&mut host, &mut guest, 3, 4);
    let (mut mover, seed, register) = if host.my_turn() {
        (host, 1, registers[0].clone())
    } else {
        (guest, 2, registers[1].clone())
    };
    // A copy of the mover's log, resumed by another program of the mover.
    let mut copy = Session::resume(Identity::from_seed(seed), mover.records().to_vec()).unwrap();
    copy.set_register(register);
    let squares: Vec<_> = mover.position().unwrap().legal_moves().squares().collect();
    let first = mover.play(squares[0], T0 + 60_000).unwrap();
    assert_eq!(persisted(&first).len(), 1);
    // The copy wants to play at the same place: refused, whatever the
    // square (a different timestamp makes even the same square a
    // different record), and nothing leaves it.
    let before = copy.records().to_vec();
    let err = copy
        .play(*squares.last().unwrap(), T0 + 61_000)
        .unwrap_err();
    match err {
        ActionError::Register(RegisterError::AlreadySigned { log, .. }) => {
            assert!(log.ends_with(".log"), "{log}")
        }
        e => panic!("expected a refusal naming the first log, got {e:?}"),
    }
    assert_eq!(
        copy.records(),
        &before[..],
        "the refused session changed nothing"
    );
    assert!(
        copy.my_turn(),
        "a refusal is not a halt: the copy may catch up"
    );
}

/// A setup step the register refuses halts the session with the reason
/// instead of signing it.
#[test]
fn a_refused_setup_step_halts_instead_of_signing() {
    use crate::net::signing_register::{RegisterError, SigningRegister};
    #[derive(Debug)]
    struct Refusing;
    impl SigningRegister for Refusing {
        fn claim(&self, _: &[Record], record: &Record) -> Result<(), RegisterError> {
            Err(RegisterError::Storage {
                place: "test".into(),
                reason: format!("refusing record {}", record.content().seq),
            })
        }
    }
    let (mut host, mut guest) = pair();
    guest.set_register(std::sync::Arc::new(Refusing));
    let (_, guest_events) = connect(&mut host, &mut guest);
    assert!(
        guest_events.iter().any(
            |e| matches!(e, Event::Halted(reason @ HaltReason::RefusedToSign(_))
                if reason.to_string().contains("refusing record 1"))
        ),
        "{guest_events:?}"
    );
    assert_eq!(guest.records().len(), 1, "only the host's genesis is held");
    assert!(guest.halted().is_some());
}

/// The bytes of a session's hello.
fn hello_bytes(session: &mut Session) -> Vec<u8> {
    match &session.connected()[0] {
        Output::Send(bytes) => bytes.clone(),
        _ => unreachable!("the first output is the hello"),
    }
}

#[test]
fn a_host_whose_fingerprint_matches_the_code_but_who_cannot_prove_it_is_refused() {
    // What a signaling server could do with a typed code: answer in the
    // room with a key of its own whose fingerprint begins as the code
    // says (here the code is made to match Mallory's key, as 20 bits of
    // key search would), but without the code's secret.
    let mallory = Identity::from_seed(6);
    let mut impostor = Session::host(
        mallory.clone(),
        "Ann".into(),
        terms(),
        &InviteSecret::from_bytes(*b"GUESSEDROO"),
    );
    let code = Invitation::typed(invite(), &mallory.public_key());
    let mut guest = Session::guest(Identity::from_seed(2), "Ben".into(), code.clone());
    let (_, guest_events) = connect(&mut impostor, &mut guest);
    let why = guest_events
        .iter()
        .find_map(|e| match e {
            Event::Rejected(r) => Some(r.to_string()),
            _ => None,
        })
        .expect("the guest refuses the impostor");
    assert!(
        why.contains("cannot prove it holds this room code"),
        "{why}"
    );
    assert!(
        !guest_events
            .iter()
            .any(|e| matches!(e, Event::PeerIdentified { .. }))
    );
    assert!(guest.records().is_empty() && impostor.records().is_empty());

    // Nor can the impostor pass on the real host's proof as its own: the
    // proof is a signature over the host's own key.
    let mut real_host = Session::host(Identity::from_seed(1), "Ann".into(), terms(), &invite());
    let Ok(WireMessage::Hello(mut relayed)) = WireMessage::decode(&hello_bytes(&mut real_host))
    else {
        unreachable!()
    };
    relayed.key = mallory.public_key().to_bytes();
    let mut guest = Session::guest(Identity::from_seed(2), "Ben".into(), code);
    let _ = guest.connected();
    let outputs = guest.receive(&WireMessage::Hello(relayed).encode(), T0);
    let why = rejected(&outputs).unwrap();
    assert!(
        why.contains("cannot prove it holds this room code"),
        "{why}"
    );
    assert!(outputs.iter().any(|o| matches!(o, Output::Disconnect(_))));
}

#[test]
fn a_guest_without_the_code_is_refused_and_the_host_signs_nothing_for_it() {
    // What a signaling server could do: join the room (whose name it
    // sees) before the friend, knowing the host's fingerprint too.
    let host_id = Identity::from_seed(1);
    let mut host = Session::host(host_id.clone(), "Ann".into(), terms(), &invite());
    let guessed = Invitation::typed(
        InviteSecret::from_bytes(*b"GUESSEDROO"),
        &host_id.public_key(),
    );
    let mut intruder = Session::guest(Identity::from_seed(6), "Ben".into(), guessed);
    let (host_events, _) = connect(&mut host, &mut intruder);
    let why = host_events
        .iter()
        .find_map(|e| match e {
            Event::Rejected(r) => Some(r.to_string()),
            _ => None,
        })
        .expect("the host refuses the intruder");
    assert!(why.contains("someone without the room code"), "{why}");
    assert!(host.records().is_empty(), "no genesis for the intruder");
    // A guest's hello without any proof (an older program, or a forger)
    // is refused the same way.
    let Ok(WireMessage::Hello(mut bare)) = WireMessage::decode(&hello_bytes(&mut intruder)) else {
        unreachable!()
    };
    bare.invite_proof = None;
    let _ = host.connected();
    assert!(
        rejected(&host.receive(&WireMessage::Hello(bare).encode(), T0))
            .unwrap()
            .contains("someone without the room code")
    );
    // The friend with the code is then taken as usual.
    host.disconnected();
    let mut friend = Session::guest(Identity::from_seed(2), "Ben".into(), code_of(&host_id));
    connect(&mut host, &mut friend);
    assert!(host.my_color().is_some() && friend.my_color().is_some());
    let guest = host.verifier().unwrap().player(Seat::Guest).unwrap().key;
    assert_eq!(guest, Identity::from_seed(2).public_key());
}

#[test]
fn a_link_guest_takes_only_the_exact_host_key() {
    let host_id = Identity::from_seed(1);
    let mut host = Session::host(host_id.clone(), "Ann".into(), terms(), &invite());
    let mut guest = Session::guest(
        Identity::from_seed(2),
        "Ben".into(),
        Invitation::linked(invite(), &host_id.public_key()),
    );
    connect(&mut host, &mut guest);
    assert!(guest.my_color().is_some(), "the right host is taken");
    let mut other = Session::host(Identity::from_seed(6), "Ann".into(), terms(), &invite());
    let mut guest = Session::guest(
        Identity::from_seed(2),
        "Ben".into(),
        Invitation::linked(invite(), &host_id.public_key()),
    );
    let (_, events) = connect(&mut other, &mut guest);
    assert!(events.iter().any(
        |e| matches!(e, Event::Rejected(r @ Refusal::NotTheCodesHost { .. }) if r.to_string().contains("does not match the room code (expected the key"))
    ));
    assert!(guest.records().is_empty());
}

#[test]
fn logs_of_version_1_still_verify_and_a_game_keeps_its_version() {
    for name in ["v1_live_draw_by_lot.log", "v1_open_game.log"] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/match_log")
            .join(name);
        let loaded = crate::match_log::log_file::read_log(&path).unwrap();
        let verified = verify_log(&loaded.records).unwrap();
        assert_eq!(verified.version(), 1, "{name}");
        assert!(verified.end().is_some(), "{name}");
        assert!(loaded.records.iter().all(|r| r.content().version == 1));
        // A record of version 2 in a game of version 1 is refused.
        let last = loaded.records.len() - 1;
        let mut verifier = verify_log(&loaded.records[..last]).unwrap();
        let original = loaded.records[last].content().clone();
        let signer = Identity::from_secret_bytes(&[0; 32]);
        let bumped = Record::sign(
            RecordContent {
                version: PROTOCOL_VERSION,
                ..original
            },
            &signer,
        );
        assert!(matches!(
            verifier.append(&bumped).unwrap_err().violation,
            Violation::Version {
                expected: 1,
                found: PROTOCOL_VERSION
            }
        ));
    }
    // New games are written in the current version.
    let (host, guest) = started_pair();
    assert!(
        host.records()
            .iter()
            .all(|r| r.content().version == PROTOCOL_VERSION)
    );
    assert_eq!(guest.verifier().unwrap().version(), PROTOCOL_VERSION);
}
