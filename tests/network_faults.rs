//! Two drivers in one process over real WebRTC on loopback: the connection
//! cut mid-game, the signaling server stopped mid-game, and an adversarial
//! peer that speaks the protocol.

mod support;

use support::TempDir;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use reversi::bot::Bot;
use reversi::engine::Rules;
use reversi::match_log::Identity;
use reversi::match_log::invite::InviteSecret;
use reversi::match_log::log_file::{LogWriter, read_log};
use reversi::match_log::record::{Body, MoveBody, PROTOCOL_VERSION, Record, RecordContent};
use reversi::match_log::rules_proposal::RulesProposal;
use reversi::net::driver::{Action, Driver, DriverConfig, DriverError, Mover, evidence_dir};
use reversi::net::room_code::Invitation;
use reversi::net::session::{Event, HaltReason, HostTerms, Output, Session};
use reversi::net::transport::{IceServers, Transport, TransportEvent};
use reversi::net::wire::WireMessage;

/// One WebRTC game at a time: on a 2-core machine parallel games starve
/// each other's connection checks.
static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// Logs to standard error as `RUST_LOG` says (nothing when it is unset),
/// for a failing run to be read.
fn trace() {
    let _ = tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
        .with_thread_names(true)
        .with_test_writer()
        .try_init();
}

/// How a meeting of two sides ended: the first to end (`true` for `a`),
/// its result, and the other's if it ended within a few seconds more.
/// When each side refuses the other, whichever reads the other's hello
/// first leaves; the other may never read one, and rightly stays in the
/// room waiting for the opponent it expects, so it is stopped here.
async fn first_to_end<T>(
    a: impl std::future::Future<Output = T>,
    b: impl std::future::Future<Output = T>,
) -> (bool, T, Option<T>) {
    tokio::pin!(a, b);
    let (a_first, first) = tokio::select! {
        ended = &mut a => (true, ended),
        ended = &mut b => (false, ended),
    };
    let grace = Duration::from_secs(3);
    let other = if a_first {
        tokio::time::timeout(grace, b).await.ok()
    } else {
        tokio::time::timeout(grace, a).await.ok()
    };
    (a_first, first, other)
}

/// Asserts that a meeting ended in a refusal with its reason, and that
/// neither side got a game.
fn refused(
    (a_first, first, other): (
        bool,
        Result<reversi::engine::Outcome, DriverError>,
        Option<Result<reversi::engine::Outcome, DriverError>>,
    ),
    a_says: &str,
    b_says: &str,
) {
    let expected = if a_first { a_says } else { b_says };
    match first {
        Err(DriverError::Disconnected(why)) => {
            assert!(why.to_string().contains(expected), "{why}")
        }
        other => panic!("expected a refusal ({expected}), found {other:?}"),
    }
    assert!(
        !matches!(other, Some(Ok(_))),
        "the other side got no game either: {other:?}"
    );
}

/// Fails the test instead of hanging CI.
async fn within_a_minute<T>(future: impl std::future::Future<Output = T>) -> T {
    tokio::time::timeout(Duration::from_secs(60), future)
        .await
        .expect("the game finished within a minute")
}

struct BotMover(Bot);

impl Mover for BotMover {
    fn poll(&mut self, session: &Session) -> Option<Action> {
        session
            .position()
            .and_then(|p| self.0.choose(p))
            .map(Action::Play)
    }
}

/// Plays the first move of the game if it falls to this side, then never again.
struct FirstMoveOnly;

impl Mover for FirstMoveOnly {
    fn poll(&mut self, session: &Session) -> Option<Action> {
        let verifier = session.verifier()?;
        if !verifier.moves().is_empty() {
            return None;
        }
        session
            .position()?
            .legal_moves()
            .squares()
            .next()
            .map(Action::Play)
    }
}

fn config(url: &str, log: PathBuf, delay: Duration) -> DriverConfig {
    DriverConfig {
        ice_from_server: true,
        room_url: url.to_string(),
        ice: IceServers::default(),
        log_path: log,
        move_delay: delay,
        first_peer_timeout: Some(Duration::from_secs(30)),
    }
}

/// The secret of the code the host gives out.
fn invite() -> InviteSecret {
    InviteSecret::from_bytes(*b"K7QFM2XAPZ")
}

/// What the guest typed: the host's code.
fn code() -> Invitation {
    Invitation::typed(invite(), &Identity::from_seed(1).public_key())
}

fn host_driver(dir: &TempDir, url: &str, delay: Duration) -> Driver {
    host_driver_in(&dir.0, url, delay)
}

fn host_driver_in(dir: &std::path::Path, url: &str, delay: Duration) -> Driver {
    let terms = HostTerms {
        proposal: RulesProposal::fixed(Rules::default()),
        deadline_secs: 3600,
    };
    let log = dir.join("host.log");
    let session = Session::host(Identity::from_seed(1), "Ann".into(), terms, &invite());
    Driver::new(
        session,
        LogWriter::create(&log).unwrap(),
        config(url, log, delay),
    )
}

fn guest_driver(dir: &TempDir, url: &str, delay: Duration) -> Driver {
    let log = dir.0.join("guest.log");
    let session = Session::guest(Identity::from_seed(2), "Ben".into(), code());
    Driver::new(
        session,
        LogWriter::create(&log).unwrap(),
        config(url, log, delay),
    )
}

async fn server() -> reversi_signaling::RunningServer {
    support::signaling_server::in_process(Default::default()).await
}

fn same_logs(dir: &TempDir) {
    let host = std::fs::read(dir.0.join("host.log")).unwrap();
    let guest = std::fs::read(dir.0.join("guest.log")).unwrap();
    assert_eq!(host, guest, "identical logs");
    let loaded = read_log(&dir.0.join("host.log")).unwrap();
    let verified = reversi::match_log::verify_log(&loaded.records).unwrap();
    assert!(verified.end().is_some(), "the game completed");
}

/// Plays a game in which one side's connection is cut mid-game.
async fn game_with_a_cut(name: &str, cut_host: bool) {
    let _serial = ONE_AT_A_TIME.lock().await;
    trace();
    let dir = TempDir::new(name);
    let server = server().await;
    let url = format!("ws://{}/{name}-room", server.addr);
    let mut host = host_driver(&dir, &url, Duration::from_millis(30));
    let mut guest = guest_driver(&dir, &url, Duration::from_millis(30));
    let cutter = if cut_host {
        host.cutter()
    } else {
        guest.cutter()
    };
    let mut host_mover = BotMover(Bot::new(2, 1));
    let mut guest_mover = BotMover(Bot::new(2, 2));
    let mut guest_hellos = 0;
    let mut guest_records = 0;
    let mut quiet = |_: &Event| {};
    // Cut once the game is well under way (whatever the machine's speed).
    let mut count_and_cut = |e: &Event| match e {
        Event::PeerIdentified { .. } => guest_hellos += 1,
        Event::Recorded { .. } => {
            guest_records += 1;
            if guest_records == 12 {
                cutter.cut();
            }
        }
        _ => {}
    };
    let (h, g) = within_a_minute(async {
        tokio::join!(
            host.run(&mut host_mover, &mut quiet),
            guest.run(&mut guest_mover, &mut count_and_cut)
        )
    })
    .await;
    h.unwrap();
    g.unwrap();
    assert!(
        guest_hellos >= 2,
        "the guest met the host again after the cut"
    );
    same_logs(&dir);
}

#[ignore = "a real WebRTC game (slow): tests/all.sh runs it"]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_guests_connection_cut_mid_game_is_restored_and_the_game_completes() {
    game_with_a_cut("cut-guest", false).await;
}

#[ignore = "a real WebRTC game (slow): tests/all.sh runs it"]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_hosts_connection_cut_mid_game_is_restored_and_the_game_completes() {
    game_with_a_cut("cut-host", true).await;
}

#[ignore = "a real WebRTC game (slow): tests/all.sh runs it"]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_game_goes_on_when_the_signaling_server_stops() {
    let _serial = ONE_AT_A_TIME.lock().await;
    trace();
    let dir = TempDir::new("nosignal");
    let server = server().await;
    let url = format!("ws://{}/gone-room-12", server.addr);
    let handle = server.shutdown_handle();
    let mut host = host_driver(&dir, &url, Duration::from_millis(30));
    let mut guest = guest_driver(&dir, &url, Duration::from_millis(30));
    let mut host_mover = BotMover(Bot::new(2, 3));
    let mut guest_mover = BotMover(Bot::new(2, 4));
    // Stop the server once both players are connected and playing (a
    // server gone during the handshake is a different failure).
    let started = std::sync::Arc::new(tokio::sync::Notify::new());
    let both_started = started.clone();
    let stopper = tokio::spawn(async move {
        both_started.notified().await;
        handle.shutdown();
        server.stopped().await;
    });
    let mut records = 0;
    let mut quiet_host = |_: &Event| {};
    let mut stop_when_playing = |e: &Event| {
        if let Event::Recorded { .. } = e {
            records += 1;
            if records == 8 {
                started.notify_one();
            }
        }
    };
    let (h, g) = within_a_minute(async {
        tokio::join!(
            host.run(&mut host_mover, &mut quiet_host),
            guest.run(&mut guest_mover, &mut stop_when_playing)
        )
    })
    .await;
    h.unwrap();
    g.unwrap();
    stopper.await.unwrap();
    same_logs(&dir);
}

/// The adversary: a real transport and a real guest session, plus forged messages.
struct Adversary {
    transport: Transport,
    session: Session,
    peer: Option<reversi::net::transport::TransportEvent>,
    identity: Identity,
}

impl Adversary {
    fn send(&mut self, bytes: Vec<u8>) {
        if let Some(TransportEvent::Connected(peer)) = &self.peer {
            self.transport.send(*peer, bytes);
        }
    }

    fn run_outputs(&mut self, outputs: Vec<Output>) {
        for output in outputs {
            if let Output::Send(bytes) = output {
                self.send(bytes);
            }
        }
    }

    /// Polls until `done` holds, with a heartbeat every second as the
    /// protocol asks (it repeats a hello that the fresh channel lost).
    async fn until(&mut self, mut done: impl FnMut(&Session) -> bool) {
        let deadline = Instant::now() + Duration::from_secs(20);
        let mut beat = Instant::now();
        while !done(&self.session) {
            assert!(Instant::now() < deadline, "the adversary got stuck");
            if self.peer.is_some() && beat.elapsed() >= Duration::from_secs(1) {
                beat = Instant::now();
                if let Some(bytes) = self.session.heartbeat() {
                    self.send(bytes);
                }
            }
            for event in self.transport.poll() {
                match event {
                    TransportEvent::Connected(_) if self.peer.is_none() => {
                        self.peer = Some(event.clone());
                        let outputs = self.session.connected();
                        self.run_outputs(outputs);
                    }
                    // The transport reports a peer connected before any
                    // of its packets.
                    TransportEvent::Received(_, bytes) => {
                        let outputs = self.session.receive(&bytes, reversi::platform::now_ms());
                        self.run_outputs(outputs);
                    }
                    _ => {}
                }
            }
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
    }

    /// Keeps the connection serviced for a while.
    async fn pump_for(&mut self, duration: Duration) {
        let end = Instant::now() + duration;
        self.until(|_| Instant::now() >= end).await;
    }

    /// A record for the next place in the log, with any author and body.
    fn forge(
        &self,
        author: reversi::match_log::Seat,
        signer: &Identity,
        body: Body,
        game_id: Option<[u8; 32]>,
    ) -> Vec<u8> {
        let v = self.session.verifier().unwrap();
        let content = RecordContent {
            version: PROTOCOL_VERSION,
            game_id: game_id.unwrap_or(v.game_id()),
            seq: self.session.records().len() as u32,
            prev: v.last_hash(),
            author,
            timestamp_ms: reversi::platform::now_ms().max(v.last_timestamp()),
            body,
        };
        WireMessage::Record(Record::sign(content, signer).to_bytes()).encode()
    }
}

#[ignore = "a real WebRTC game (slow): tests/all.sh runs it"]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_adversarial_peer_is_rejected_reason_by_reason_and_the_honest_side_holds() {
    let _serial = ONE_AT_A_TIME.lock().await;
    trace();
    let dir = TempDir::new("adversary");
    let server = server().await;
    let url = format!("ws://{}/evil-room-12", server.addr);
    let (events_tx, mut events_rx) = tokio::sync::mpsc::unbounded_channel();
    // The driver is not `Send` (a browser's sockets are not): it plays on
    // a thread of its own, as the window's does.
    let (done_tx, honest_task) = tokio::sync::oneshot::channel();
    let honest_dir = dir.0.clone();
    let honest_url = url.clone();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async move {
            let mut honest = host_driver_in(&honest_dir, &honest_url, Duration::ZERO);
            let result = honest
                .run(&mut FirstMoveOnly, &mut |e| {
                    let _ = events_tx.send(e.clone());
                })
                .await;
            let _ = done_tx.send((result, honest.session().records().len()));
        });
    });

    let mut adversary = Adversary {
        transport: Transport::open(&url, &IceServers::default()),
        session: Session::guest(Identity::from_seed(2), "Mallory".into(), code()),
        peer: None,
        identity: Identity::from_seed(2),
    };
    // Set up honestly and wait for our turn (the host plays at most the
    // first move of the game, then never again).
    adversary.until(|s| s.my_turn()).await;
    let me = adversary.session.seat();

    // A flood of 10,000 harmless repeats: ignored, no strike, no hang.
    let genesis = WireMessage::Record(adversary.session.records()[0].to_bytes()).encode();
    for _ in 0..5_000 {
        adversary.send(genesis.clone());
        adversary.send(WireMessage::Ack { records: 1 }.encode());
    }

    let position = *adversary.session.position().unwrap();
    let mut legal = position.legal_moves().squares();
    let (a, b) = (legal.next().unwrap(), legal.next().unwrap());
    let stranger = Identity::from_seed(99);
    let mine = adversary.identity.clone();
    let attacks: Vec<(Vec<u8>, &str)> = vec![
        (
            adversary.forge(
                me,
                &mine,
                Body::Move(MoveBody {
                    square: 0,
                    position_hash: [0; 32],
                }),
                None,
            ),
            "is illegal",
        ),
        (
            adversary.forge(
                me,
                &mine,
                Body::Move(MoveBody {
                    square: a.index(),
                    position_hash: [5; 32],
                }),
                None,
            ),
            "position hash",
        ),
        (
            adversary.forge(
                me,
                &stranger,
                Body::Move(MoveBody {
                    square: a.index(),
                    position_hash: position.play(a).unwrap().hash().0,
                }),
                None,
            ),
            "signature is not valid",
        ),
        (
            adversary.forge(me, &mine, Body::Resign, Some([3; 32])),
            "game id",
        ),
        (vec![0u8; 20_000], "more than"),
        (vec![0xff, 0x13, 0x37], "malformed"),
    ];
    for (bytes, _) in &attacks {
        adversary.send(bytes.clone());
    }
    // A real move, then one out of turn, then a second signed move for the same place.
    let mut fork = adversary.session.clone();
    let outputs = adversary
        .session
        .play(a, reversi::platform::now_ms())
        .unwrap();
    adversary.run_outputs(outputs);
    let next = *adversary.session.position().unwrap();
    let reply = next.legal_moves().squares().next().unwrap();
    let out_of_turn = adversary.forge(
        me,
        &mine,
        Body::Move(MoveBody {
            square: reply.index(),
            position_hash: next.play(reply).unwrap().hash().0,
        }),
        None,
    );
    adversary.send(out_of_turn);
    let logged_before_fork = adversary.session.records().len();
    let equivocation = fork.play(b, reversi::platform::now_ms()).unwrap();
    let fork_bytes = equivocation.into_iter().find_map(|o| match o {
        Output::Send(bytes) => Some(bytes),
        _ => None,
    });
    adversary.send(fork_bytes.unwrap());
    adversary.pump_for(Duration::from_secs(2)).await;

    let (result, records) = tokio::time::timeout(Duration::from_secs(20), honest_task)
        .await
        .expect("the honest side does not hang")
        .unwrap();
    let mut events = Vec::new();
    while let Ok(e) = events_rx.try_recv() {
        events.push(e);
    }
    let rejected: Vec<String> = events
        .iter()
        .filter_map(|e| match e {
            Event::Rejected(r) => Some(r.to_string()),
            _ => None,
        })
        .collect();
    for (_, reason) in &attacks {
        assert!(
            rejected.iter().any(|r| r.contains(reason)),
            "no rejection mentioning {reason:?} in {rejected:?}"
        );
    }
    assert!(
        rejected
            .iter()
            .any(|r| r.contains("written by the guest, expected the host")),
        "{rejected:?}"
    );
    match result {
        Err(DriverError::Halted(reason)) => {
            assert!(
                matches!(reason, HaltReason::Equivocation { .. }),
                "{reason:?}"
            );
            assert!(reason.to_string().contains("equivocation"), "{reason}");
        }
        other => panic!("expected a halt on equivocation, got {other:?}"),
    }
    assert_eq!(
        records, logged_before_fork,
        "only the setup and the valid moves were logged"
    );
    let evidence = std::fs::read_dir(evidence_dir(&dir.0.join("host.log")))
        .unwrap()
        .count();
    assert!(
        evidence >= 2 * 8,
        "evidence saved for every rejection ({evidence} files)"
    );
}

/// What a signaling server's operator could do in a room whose name it
/// sees, over real WebRTC: answer a guest as the host with a key that
/// matches the typed code's fingerprint characters (the code here is made
/// to match it, as 20 bits of key search would), and join a host's room
/// as the guest. Both are refused for want of the code's secret, with
/// the reason, and nothing is signed.
#[ignore = "real WebRTC connections (slow): tests/all.sh runs it"]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_answers_as_the_host_is_refused_over_real_webrtc() {
    let _serial = ONE_AT_A_TIME.lock().await;
    trace();
    let dir = TempDir::new("impostor");
    let server = server().await;
    let url = format!("ws://{}/{}", server.addr, invite().room());
    let mallory = Identity::from_seed(6);
    let terms = HostTerms {
        proposal: RulesProposal::fixed(Rules::default()),
        deadline_secs: 3600,
    };
    let guessed = InviteSecret::from_bytes(*b"GUESSEDROO");
    let log = |name: &str| dir.0.join(name);
    let mut impostor = Driver::new(
        Session::host(mallory.clone(), "Ann".into(), terms.clone(), &guessed),
        LogWriter::create(&log("impostor.log")).unwrap(),
        config(&url, log("impostor.log"), Duration::ZERO),
    );
    let fooled_code = Invitation::typed(invite(), &mallory.public_key());
    let mut guest = Driver::new(
        Session::guest(Identity::from_seed(2), "Ben".into(), fooled_code),
        LogWriter::create(&log("guest.log")).unwrap(),
        config(&url, log("guest.log"), Duration::ZERO),
    );
    let (mut quiet, mut quiet_too) = (|_: &Event| {}, |_: &Event| {});
    let (mut first, mut first_too) = (FirstMoveOnly, FirstMoveOnly);
    // The guest refuses the impostor (it cannot prove the code), or the
    // impostor refuses the guest (the impostor's guessed code does not
    // verify the guest's proof) if it reads the guest's hello first.
    refused(
        within_a_minute(first_to_end(
            guest.run(&mut first_too, &mut quiet_too),
            impostor.run(&mut first, &mut quiet),
        ))
        .await,
        "cannot prove it holds this room code",
        "someone without the room code",
    );
    assert!(read_log(&log("guest.log")).unwrap().records.is_empty());
    assert!(read_log(&log("impostor.log")).unwrap().records.is_empty());

    // The operator joins the real host's room first, as the guest.
    let url = format!("ws://{}/{}-2", server.addr, invite().room());
    let mut host = Driver::new(
        Session::host(Identity::from_seed(1), "Ann".into(), terms, &invite()),
        LogWriter::create(&log("host.log")).unwrap(),
        config(&url, log("host.log"), Duration::ZERO),
    );
    let without_secret = Invitation::typed(guessed, &Identity::from_seed(1).public_key());
    let mut intruder = Driver::new(
        Session::guest(mallory, "Ben".into(), without_secret),
        LogWriter::create(&log("intruder.log")).unwrap(),
        config(&url, log("intruder.log"), Duration::ZERO),
    );
    // The host refuses the intruder, or the intruder (whose guessed code
    // does not verify the real host's proof) leaves first.
    refused(
        within_a_minute(first_to_end(
            host.run(&mut first, &mut quiet),
            intruder.run(&mut first_too, &mut quiet_too),
        ))
        .await,
        "someone without the room code",
        "cannot prove it holds this room code",
    );
    assert!(read_log(&log("host.log")).unwrap().records.is_empty());
    assert!(read_log(&log("intruder.log")).unwrap().records.is_empty());
}
