//! Network play on loopback over real WebRTC: the time from opening the
//! room to a completed handshake (genesis, acceptance, both reveals), and
//! the move latency from signing to the opponent's verified, logged
//! acknowledgement, over at least 1,000 moves. Also the cost of one
//! durable log append (write + fsync), which every move pays twice.
//!
//! Run: `cargo bench --bench network_latency`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use reversi::engine::Rules;
use reversi::match_log::Identity;
use reversi::match_log::log_file::LogWriter;
use reversi::match_log::rules_proposal::RulesProposal;
use reversi::net::driver::{Action, Driver, DriverConfig, Mover};
use reversi::net::session::{Event, HostTerms, Session};
use reversi::net::transport::IceServers;
use reversi::random_player::RandomPlayer;

const MOVES: usize = 1000;

type SignTimes = Arc<Mutex<HashMap<usize, Instant>>>;

/// Random moves, noting when each record is about to be signed.
struct TimedMover {
    player: RandomPlayer,
    signed: SignTimes,
}

impl Mover for TimedMover {
    fn poll(&mut self, session: &Session) -> Option<Action> {
        let square = self.player.choose(session.position()?)?;
        self.signed
            .lock()
            .unwrap()
            .insert(session.records().len(), Instant::now());
        Some(Action::Play(square))
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn ms(d: Duration) -> String {
    format!("{:.3} ms", d.as_secs_f64() * 1e3)
}

type Latencies = Arc<Mutex<Vec<Duration>>>;

async fn one_game(
    dir: &std::path::Path,
    url: &str,
    game: u64,
    latencies: &Latencies,
) -> (Duration, usize) {
    let config = |name: &str| DriverConfig {
        room_url: url.to_string(),
        ice: IceServers::default(),
        ice_from_server: true,
        log_path: dir.join(name),
        move_delay: Duration::ZERO,
        first_peer_timeout: Some(Duration::from_secs(30)),
    };
    let terms = HostTerms {
        proposal: RulesProposal::fixed(Rules::default()),
        deadline_secs: 3600,
    };
    let host_log = dir.join(format!("host-{game}.log"));
    let guest_log = dir.join(format!("guest-{game}.log"));
    let invite = reversi::match_log::invite::InviteSecret::from_bytes(*b"K7QFM2XAPZ");
    let code = reversi::net::room_code::Invitation::typed(
        invite.clone(),
        &Identity::from_seed(1).public_key(),
    );
    let mut host = Driver::new(
        Session::host(Identity::from_seed(1), "Ann".into(), terms, &invite),
        LogWriter::create(&host_log).unwrap(),
        config(&format!("host-{game}.log")),
    );
    let mut guest = Driver::new(
        Session::guest(Identity::from_seed(2), "Ben".into(), code),
        LogWriter::create(&guest_log).unwrap(),
        config(&format!("guest-{game}.log")),
    );
    let host_signed = SignTimes::default();
    let guest_signed = SignTimes::default();
    let mut host_mover = TimedMover {
        player: RandomPlayer::new(game),
        signed: host_signed.clone(),
    };
    let mut guest_mover = TimedMover {
        player: RandomPlayer::new(game + 1000),
        signed: guest_signed.clone(),
    };
    let opened = Instant::now();
    let started = Arc::new(Mutex::new(None::<Instant>));
    let acked = |signed: SignTimes, started: Arc<Mutex<Option<Instant>>>, latencies: Latencies| {
        let mut seen = 0usize;
        move |e: &Event| match e {
            Event::Started { .. } => {
                started.lock().unwrap().get_or_insert_with(Instant::now);
            }
            Event::Acknowledged(n) => {
                let now = Instant::now();
                let signed = signed.lock().unwrap();
                let mut latencies = latencies.lock().unwrap();
                for seq in seen..*n as usize {
                    if let Some(t) = signed.get(&seq) {
                        latencies.push(now - *t);
                    }
                }
                seen = *n as usize;
            }
            _ => {}
        }
    };
    let mut host_events = acked(host_signed, started.clone(), latencies.clone());
    let mut guest_events = acked(guest_signed, started.clone(), latencies.clone());
    let (h, g) = tokio::join!(
        host.run(&mut host_mover, &mut host_events),
        guest.run(&mut guest_mover, &mut guest_events)
    );
    h.unwrap();
    g.unwrap();
    let moves = host.session().verifier().map_or(0, |v| v.moves().len());
    let handshake = started
        .lock()
        .unwrap()
        .map_or(Duration::ZERO, |t| t - opened);
    (handshake, moves)
}

fn main() {
    let dir = std::env::temp_dir().join(format!("reversi-latency-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();

    // The cost of a durable append, on the disk the logs live on.
    let records = {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let _guard = runtime.enter();
        let mut builder = reversi::match_log::builder::MatchBuilder::new(
            &reversi::match_log::builder::MatchTerms {
                proposal: RulesProposal::fixed(Rules::default()),
                deadline_secs: 3600,
                host_name: "A".into(),
                guest_name: "B".into(),
            },
            reversi::match_log::builder::Players {
                host: Identity::from_seed(1),
                guest: Identity::from_seed(2),
                host_nonce: [1; 32],
                guest_nonce: [2; 32],
            },
            1_796_000_000_000,
        )
        .unwrap();
        let mut player = RandomPlayer::new(1);
        let mut t = 1_796_000_000_000;
        while let Some(p) = builder.verifier().current_position().copied() {
            let Some(sq) = player.choose(&p) else { break };
            t += 1;
            builder.play(sq, t).unwrap();
        }
        builder.records().to_vec()
    };
    let mut writer = LogWriter::create(&dir.join("append.log")).unwrap();
    let mut appends: Vec<Duration> = records
        .iter()
        .map(|r| {
            let start = Instant::now();
            writer.append(r).unwrap();
            start.elapsed()
        })
        .collect();
    appends.sort();
    println!(
        "durable log append (write + fsync): median {} over {} records",
        ms(percentile(&appends, 0.5)),
        appends.len()
    );

    // Games on loopback until at least MOVES moves were played.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let server = reversi_signaling::start("127.0.0.1:0".parse().unwrap(), Default::default())
            .await
            .unwrap();
        let mut handshakes = Vec::new();
        let latencies = Latencies::default();
        let mut moves = 0;
        let mut game = 0;
        while moves < MOVES {
            let url = format!("ws://{}/bench-room-{game:04}", server.addr);
            let (handshake, played) = one_game(&dir, &url, game, &latencies).await;
            handshakes.push(handshake);
            moves += played;
            game += 1;
        }
        handshakes.sort();
        let mut latencies = latencies.lock().unwrap().clone();
        latencies.sort();
        println!("games: {game}, moves: {moves}, acknowledged moves measured: {}", latencies.len());
        println!("handshake (room opened to colours drawn): median {}, worst {}", ms(percentile(&handshakes, 0.5)), ms(*handshakes.last().unwrap()));
        println!(
            "move latency (signed to the opponent's verified, logged acknowledgement): median {}, p99 {}",
            ms(percentile(&latencies, 0.5)),
            ms(percentile(&latencies, 0.99))
        );
    });
    let _ = std::fs::remove_dir_all(&dir);
}
