//! Three `reversi-signaling` instances on one PostgreSQL behind the
//! shipped proxy configurations (`tests/support/cluster_lab.rs`: a
//! network namespace of their own, reached over a veth link):
//!
//! - connection set-up (TCP connect to the room's `IdAssigned`), through
//!   the proxy and straight to one instance, interleaved, p50 and p99;
//! - live peers held at once through the proxy: how they spread over the
//!   instances and the instances' heap per peer;
//! - mailbox records stored per second with the clients spread over one,
//!   two and three instances of the one database.
//!
//! Needs root (namespaces), nginx, HAProxy and PostgreSQL (tests/all.sh
//! installs them) and 2 file descriptors a held peer. Run:
//! `cargo bench --bench cluster -- [ROOMS] [GAMES]` (default 2000 rooms,
//! 4,000 peers; 1,000 mailbox games of 14 records per instance count).
//! The time from an instance's death to the next move of its games is
//! measured by the fault test: `cargo test --release --test cluster --
//! --ignored --nocapture killed`.

#[path = "../tests/support/mod.rs"]
mod support;

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use reversi::match_log::Record;
use support::TempDir;
use support::cluster_lab::{self, Cluster, PORTS, Proxy};
use support::signaling_server::request_to;

/// Mailbox clients posting at once.
const CLIENTS: usize = 16;

/// Connections timed for the set-up figures, each way.
const SETUPS: usize = 300;

/// Limits high enough that the figures measure the servers, not the
/// per-address limits (every connection here comes from one address).
const UNLIMITED: [&str; 8] = [
    "--max-per-ip",
    "1000000",
    "--max-connections",
    "1000000",
    "--mailbox-rate",
    "10000000",
    "--mailbox-max-per-key",
    "1000000",
];

/// Joins `room` with a websocket handshake and waits for the server's
/// `IdAssigned`; the open connection.
fn join(addr: SocketAddr, room: &str) -> std::io::Result<TcpStream> {
    let mut stream = TcpStream::connect_timeout(&addr, Duration::from_secs(5))?;
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    stream.set_nodelay(true)?;
    // One write: a request sent in pieces meets Nagle's algorithm and the
    // proxy's delayed acknowledgement (40 ms a connection through HAProxy).
    let request = format!(
        "GET /{room} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: cmV2ZXJzaS1jbHVzdGVyLQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    );
    stream.write_all(request.as_bytes())?;
    // The answer's head, a byte at a time so no frame is read with it.
    let mut head = Vec::new();
    let mut byte = [0u8];
    while !head.ends_with(b"\r\n\r\n") {
        stream.read_exact(&mut byte)?;
        head.push(byte[0]);
        if head.len() > 4096 {
            return Err(std::io::Error::other("an endless answer"));
        }
    }
    if !head.starts_with(b"HTTP/1.1 101") {
        return Err(std::io::Error::other(format!(
            "refused: {}",
            String::from_utf8_lossy(&head)
        )));
    }
    // Frames until the text one that assigns our id (pings are skipped).
    loop {
        let mut start = [0u8; 2];
        stream.read_exact(&mut start)?;
        let length = match start[1] & 0x7f {
            126 => {
                let mut n = [0u8; 2];
                stream.read_exact(&mut n)?;
                usize::from(u16::from_be_bytes(n))
            }
            127 => return Err(std::io::Error::other("a huge frame")),
            n => usize::from(n),
        };
        let mut payload = vec![0u8; length];
        stream.read_exact(&mut payload)?;
        if start[0] & 0x0f == 1 && payload.windows(10).any(|w| w == b"IdAssigned") {
            return Ok(stream);
        }
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn setup_times(cluster: &Cluster, proxy: Proxy) {
    let mut through = Vec::new();
    let mut direct = Vec::new();
    for n in 0..SETUPS {
        for (addr, times) in [
            (cluster.proxy_address(), &mut through),
            (cluster.instance_address(n % PORTS.len()), &mut direct),
        ] {
            let started = Instant::now();
            let stream = join(addr, &format!("setup-{n}-{}", times.len())).expect("joined");
            times.push(started.elapsed());
            drop(stream);
        }
    }
    through.sort();
    direct.sort();
    let ratio = |p| percentile(&through, p).as_secs_f64() / percentile(&direct, p).as_secs_f64();
    println!(
        "{proxy:?}: connection set-up through the proxy p50 {:.2?}, p99 {:.2?}; straight to an instance p50 {:.2?}, p99 {:.2?} ({:.2}× and {:.2}×, {SETUPS} each)",
        percentile(&through, 0.5),
        percentile(&through, 0.99),
        percentile(&direct, 0.5),
        percentile(&direct, 0.99),
        ratio(0.5),
        ratio(0.99),
    );
}

/// An instance's heap in bytes and its peers, from its `/health`.
fn health(cluster: &Cluster, i: usize) -> (u64, u64) {
    let (_, body) = cluster
        .instance(i, "/health")
        .expect("the instance answers");
    let health: serde_json::Value = serde_json::from_str(&body).expect("json");
    (
        health["heap_bytes"].as_u64().unwrap_or(0),
        health["peers"].as_u64().unwrap_or(0),
    )
}

fn peers_held(cluster: &Cluster, proxy: Proxy, rooms: usize) {
    let before: Vec<(u64, u64)> = (0..PORTS.len()).map(|i| health(cluster, i)).collect();
    let started = Instant::now();
    let mut held = Vec::with_capacity(rooms * 2);
    for n in 0..rooms {
        for _ in 0..2 {
            match join(cluster.proxy_address(), &format!("held-{n}")) {
                Ok(stream) => held.push(stream),
                Err(e) => {
                    println!("{proxy:?}: stopped at {} peers: {e}", held.len());
                    break;
                }
            }
        }
    }
    let took = started.elapsed();
    let after: Vec<(u64, u64)> = (0..PORTS.len()).map(|i| health(cluster, i)).collect();
    let peers: Vec<u64> = after.iter().map(|(_, p)| *p).collect();
    let heap: u64 = after
        .iter()
        .zip(&before)
        .map(|((a, _), (b, _))| a.saturating_sub(*b))
        .sum();
    let total: u64 = peers.iter().sum();
    println!(
        "{proxy:?}: {} peers held through the proxy ({total} counted by the instances: {peers:?}), joined in {took:.1?}; heap {:.1} KiB a peer",
        held.len(),
        heap as f64 / 1024.0 / total.max(1) as f64,
    );
}

/// Stores every game's records, client k posting to instance k % `spread`.
fn stored_per_second(cluster: &Cluster, games: &[Vec<Record>], spread: usize) -> f64 {
    let next = AtomicUsize::new(0);
    let records: usize = games.iter().map(Vec::len).sum();
    let started = Instant::now();
    std::thread::scope(|scope| {
        for client in 0..CLIENTS {
            let next = &next;
            scope.spawn(move || {
                let addr = cluster.instance_address(client % spread);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(game) = games.get(i) else { break };
                    for record in game {
                        let answer =
                            request_to(addr, "POST", "/mailbox/records", &record.to_bytes());
                        assert_eq!(
                            answer.as_ref().map(|(status, _)| *status),
                            Some(201),
                            "game {i} record {}: {answer:?}",
                            record.content().seq
                        );
                    }
                }
            });
        }
    });
    records as f64 / started.elapsed().as_secs_f64()
}

fn main() {
    if let Some(why) = cluster_lab::why_not() {
        println!("skipped: {why}");
        return;
    }
    let numbers: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let rooms = numbers.first().copied().unwrap_or(2000);
    let games = numbers.get(1).copied().unwrap_or(1000);
    let signaling = Path::new(env!("CARGO_BIN_EXE_reversi")).with_file_name("reversi-signaling");
    for (subnet, proxy) in [(61, Proxy::Nginx), (62, Proxy::Haproxy)] {
        let dir = TempDir::new(&format!("bench-cluster-{subnet}"));
        let cluster = Cluster::build_with(subnet, proxy, &dir.0, &signaling, &UNLIMITED);
        setup_times(&cluster, proxy);
        peers_held(&cluster, proxy, rooms);
    }
    let dir = TempDir::new("bench-cluster-mailbox");
    let cluster = Cluster::build_with(63, Proxy::Haproxy, &dir.0, &signaling, &UNLIMITED);
    let mut rates = Vec::new();
    for spread in 1..=PORTS.len() {
        // Fresh games for each run: a game's records are stored once.
        let set: Vec<Vec<Record>> = (0..games)
            .map(|g| {
                let mut game = support::logs::new_game((spread * 1_000_000 + g) as u64);
                support::logs::play_random(&mut game, g as u64, 10);
                game.records().to_vec()
            })
            .collect();
        let rate = stored_per_second(&cluster, &set, spread);
        println!(
            "mailbox: {rate:.0} records stored/s with {CLIENTS} clients over {spread} instance(s) of one PostgreSQL"
        );
        rates.push(rate);
    }
    println!(
        "mailbox: three instances store {:.2}× the records of one",
        rates[2] / rates[0]
    );
}
