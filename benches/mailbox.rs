//! The mailbox's speed and size: records stored and fetched per second by
//! one `reversi-signaling` process (SQLite, then PostgreSQL), its memory and
//! database size per 10,000 stored games, and the latency of `reversi move`
//! on loopback.
//!
//! Run: `cargo bench --bench mailbox -- [GAMES] [MOVES]` (default 10000
//! games of 10 moves, so 14 records each). PostgreSQL is skipped with a
//! note when Debian's package is not installed.

#[path = "../tests/support/mod.rs"]
mod support;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use reversi::engine::Rules;
use reversi::match_log::builder::{MatchBuilder, MatchTerms, Players};
use reversi::match_log::record::hex;
use reversi::match_log::rules_proposal::RulesProposal;
use reversi::match_log::{Identity, Record};
use support::postgres::Postgres;
use support::{KillOnDrop, TempDir, free_port};

const CLIENTS: usize = 16;

fn bin(name: &str) -> PathBuf {
    Path::new(env!("CARGO_BIN_EXE_reversi")).with_file_name(name)
}

fn request(port: u16, method: &str, path: &str, body: &[u8]) -> u16 {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(body).unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).unwrap();
    std::str::from_utf8(&answer[9..12])
        .unwrap()
        .parse()
        .unwrap()
}

fn games(count: usize, moves: usize) -> Vec<Vec<Record>> {
    (0..count)
        .map(|i| {
            let mut seed = [0u8; 32];
            seed[..8].copy_from_slice(&(i as u64).to_le_bytes());
            let mut other = seed;
            other[31] = 1;
            let mut game = MatchBuilder::new(
                &MatchTerms {
                    proposal: RulesProposal::fixed(Rules::default()),
                    deadline_secs: 86_400,
                    host_name: "Ann".into(),
                    guest_name: "Ben".into(),
                },
                Players {
                    host: Identity::from_secret_bytes(&seed),
                    guest: Identity::from_secret_bytes(&other),
                    host_nonce: [1; 32],
                    guest_nonce: [2; 32],
                },
                1_796_000_000_000,
            )
            .unwrap();
            for m in 0..moves {
                let Some(square) = game.verifier().current_position().and_then(|p| {
                    p.legal_moves()
                        .squares()
                        .nth(i % 3)
                        .or(p.legal_moves().squares().next())
                }) else {
                    break;
                };
                game.play(square, 1_796_000_000_000 + m as u64).unwrap();
            }
            game.records().to_vec()
        })
        .collect()
}

fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|n| n.parse().ok()))
        })
        .unwrap_or(0)
}

fn start_server(db: &str) -> (KillOnDrop, u16) {
    let port = free_port();
    let child = Command::new(bin("reversi-signaling"))
        .args(["--bind", &format!("127.0.0.1:{port}"), "--db", db])
        .args([
            "--mailbox-rate",
            "10000000",
            "--mailbox-max-per-key",
            "100000",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("reversi-signaling (cargo build --release --workspace)");
    let started = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(started.elapsed() < Duration::from_secs(20));
        std::thread::sleep(Duration::from_millis(50));
    }
    (KillOnDrop(child), port)
}

/// Runs `work` on every game, CLIENTS games at a time (a game's records
/// stay in order within one client).
fn in_parallel(games: &[Vec<Record>], work: impl Fn(usize, &Vec<Record>) + Sync) {
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..CLIENTS {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(game) = games.get(i) else { break };
                    work(i, game);
                }
            });
        }
    });
}

/// Stores and fetches every game with CLIENTS clients; prints the figures.
fn measure(name: &str, db: &str, games: &[Vec<Record>], size: impl Fn() -> u64) {
    let (server, port) = start_server(db);
    let baseline = rss_kib(server.id());
    let records: usize = games.iter().map(Vec::len).sum();
    let started = Instant::now();
    in_parallel(games, |i, game| {
        for record in game {
            let status = request(port, "POST", "/mailbox/records", &record.to_bytes());
            assert_eq!(
                status,
                201,
                "{name}: game {i} record {}",
                record.content().seq
            );
        }
    });
    let stored = started.elapsed();
    let started = Instant::now();
    in_parallel(games, |_, game| {
        let path = format!("/mailbox/games/{}", hex(&game[0].hash()));
        assert_eq!(request(port, "GET", &path, &[]), 200);
    });
    let fetched = started.elapsed();
    let per_10k = |v: f64| v * 10_000.0 / games.len() as f64;
    println!(
        "{name:<10} stored {records} records of {} games in {:.1} s: {:.0} records/s; fetched in {:.1} s: {:.0} records/s",
        games.len(),
        stored.as_secs_f64(),
        records as f64 / stored.as_secs_f64(),
        fetched.as_secs_f64(),
        records as f64 / fetched.as_secs_f64(),
    );
    let rss = rss_kib(server.id());
    println!(
        "{name:<10} server memory {:.1} MiB (at start {:.1} MiB, {:.1} MiB more per 10,000 games); database {:.1} MiB per 10,000 games",
        rss as f64 / 1024.0,
        baseline as f64 / 1024.0,
        per_10k(rss.saturating_sub(baseline) as f64) / 1024.0,
        per_10k(size() as f64) / (1024.0 * 1024.0),
    );
    drop(server);
}

/// `reversi move` on loopback, program start to exit: p50 and p99.
fn move_latency() {
    let dir = TempDir::new("bench-move");
    let db = dir.path("move.sqlite3");
    let (_server, port) = start_server(db.to_str().unwrap());
    let url = format!("ws://127.0.0.1:{port}");
    let run = |who: &str, args: &[&str]| -> (bool, String) {
        let out = Command::new(bin("reversi"))
            .arg("--data-dir")
            .arg(dir.path(who))
            .args(args)
            .output()
            .unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let mut samples = Vec::new();
    for round in 0..2 {
        let (host, guest) = (format!("host{round}"), format!("guest{round}"));
        let (_, code) = run(&host, &["host", "--detach", "--server", &url]);
        run(&guest, &["join", code.trim(), "--detach"]);
        for _ in 0..200 {
            let mut moved = false;
            for who in [&host, &guest] {
                let (_, listed) = run(who, &["games", "--json", "--server", &url]);
                let games: serde_json::Value = serde_json::from_str(&listed).unwrap();
                let Some(game) = games.as_array().and_then(|g| g.first()) else {
                    continue;
                };
                if game["my_turn"] != true {
                    continue;
                }
                let square = game["legal"][0].as_str().unwrap().to_string();
                let log = game["log"].as_str().unwrap().to_string();
                let started = Instant::now();
                let (ok, _) = run(who, &["move", &log, &square, "--server", &url]);
                samples.push(started.elapsed());
                assert!(ok);
                moved = true;
            }
            if !moved && run(&host, &["games", "--json", "--server", &url]).1.trim() == "[]" {
                break;
            }
        }
    }
    samples.sort();
    let at = |q: f64| samples[((samples.len() - 1) as f64 * q) as usize];
    println!(
        "reversi move: {} moves, p50 {:.1} ms, p99 {:.1} ms (program start to exit, loopback)",
        samples.len(),
        at(0.5).as_secs_f64() * 1000.0,
        at(0.99).as_secs_f64() * 1000.0
    );
}

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let count = args.first().copied().unwrap_or(10_000);
    let moves = args.get(1).copied().unwrap_or(10);
    let games = games(count, moves);
    let dir = TempDir::new("bench-mailbox");
    let file = dir.path("mailbox.sqlite3");
    measure("sqlite", file.to_str().unwrap(), &games, || {
        ["", "-wal", "-shm"]
            .iter()
            .map(|s| std::fs::metadata(format!("{}{s}", file.display())).map_or(0, |m| m.len()))
            .sum()
    });
    let have_postgres =
        std::fs::read_dir("/usr/lib/postgresql").is_ok_and(|mut d| d.next().is_some());
    if have_postgres {
        let postgres = Postgres::start("bench-postgres");
        let before = postgres.disk_bytes();
        measure("postgres", &postgres.url(), &games, || {
            postgres.disk_bytes().saturating_sub(before)
        });
    } else {
        println!("postgres   skipped: Debian's postgresql is not installed");
    }
    move_latency();
}
