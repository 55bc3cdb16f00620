//! Connection set-up time (from the guest's start to its "connected to the
//! opponent", median of N runs) and move latency (the gap between one
//! player's record and the other's answer in games between two instant
//! random players, from the records' own timestamps: one delivery plus
//! the answer's making, p50 and p99) for two programs on this machine
//! (direct, no NAT) and, on the simulated internet of
//! `tests/support/nat_lab.rs`, for two homes behind endpoint-independent
//! NAT (direct through STUN-discovered addresses) and behind symmetric NAT
//! (relayed through coturn). The NAT cases need root. Run with
//! `cargo bench --bench connection_setup` (`RUNS=5` for fewer).

#[path = "../tests/support/nat_lab.rs"]
mod nat_lab;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use nat_lab::{Home, Lab, Nat, Process};

fn programs() -> (PathBuf, PathBuf) {
    let exe = std::env::current_exe().unwrap();
    // target/release/deps/connection_setup-HASH -> target/release/
    let dir = exe.parent().and_then(Path::parent).unwrap().to_path_buf();
    let (reversi, signaling) = (dir.join("reversi"), dir.join("reversi-signaling"));
    for p in [&reversi, &signaling] {
        assert!(
            p.exists(),
            "{} is missing: cargo build --release --workspace --bins",
            p.display()
        );
    }
    (reversi, signaling)
}

/// Time until `stderr` (a file) holds the connected line; `None` after 30 s.
fn until_connected(stderr: &Path, started: Instant) -> Option<Duration> {
    while started.elapsed() < Duration::from_secs(30) {
        let text = std::fs::read_to_string(stderr).unwrap_or_default();
        if text.lines().any(|l| l == "connected to the opponent") {
            return Some(started.elapsed());
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    None
}

/// Starts a game through `server` in a fresh `dir`: the host (with
/// `host_flags`), then, once it has printed the code, the guest with its
/// standard error in `dir/guest.stderr`. Returns both and the guest's
/// start, or `None` if the host printed no code.
fn start_game(
    host: &mut Command,
    mut guest: Command,
    server: &str,
    host_flags: &[&str],
    dir: &Path,
) -> Option<(Process, Process, Instant)> {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).unwrap();
    let mut host = Process(
        host.arg("--data-dir")
            .arg(dir.join("a"))
            .args(["host", "--server", server, "--bot", "1"])
            .args(host_flags)
            .arg("--log")
            .arg(dir.join("host.log"))
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let code = BufReader::new(host.0.stdout.take().unwrap())
        .lines()
        .next()?
        .ok()?;
    let started = Instant::now();
    let guest = Process(
        guest
            .arg("--data-dir")
            .arg(dir.join("b"))
            .args(["join", &code, "--server", server, "--bot", "1", "--log"])
            .arg(dir.join("guest.log"))
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(dir.join("guest.stderr")).unwrap())
            .spawn()
            .unwrap(),
    );
    Some((host, guest, started))
}

/// One game start; returns the guest's set-up time. The host waits 5 s
/// before each move, so the game is still on when the time is taken.
fn one(host: &mut Command, guest: Command, server: &str, dir: &Path) -> Option<Duration> {
    let (_host, _guest, started) = start_game(host, guest, server, &["--move-delay", "5s"], dir)?;
    until_connected(&dir.join("guest.stderr"), started)
}

/// A whole game between instant players; the gaps between consecutive
/// records of alternating authors once the moves have begun.
fn latencies(host: &mut Command, guest: Command, server: &str, dir: &Path) -> Vec<u64> {
    let Some((_host, mut guest, _)) = start_game(host, guest, server, &[], dir) else {
        return Vec::new();
    };
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(90) {
        if guest.0.try_wait().ok().flatten().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let text = std::fs::read_to_string(dir.join("guest.log")).unwrap_or_default();
    let records: Vec<(String, u64)> = text
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter_map(|v| {
            let view = &v["view"];
            Some((
                view["author"].as_str()?.to_string(),
                view["timestamp_ms"].as_u64()?,
            ))
        })
        .collect();
    // The first records are the genesis, the acceptance and the coin flip.
    records
        .windows(2)
        .skip(4)
        .filter(|w| w[0].0 != w[1].0)
        .map(|w| w[1].1.saturating_sub(w[0].1))
        .collect()
}

fn percentile(sorted: &[u64], p: f64) -> u64 {
    if sorted.is_empty() {
        return 0;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i]
}

fn report_latency(what: &str, mut gaps: Vec<u64>) {
    gaps.sort_unstable();
    println!(
        "{what}: move latency p50 {} ms, p99 {} ms over {} moves",
        percentile(&gaps, 0.5),
        percentile(&gaps, 0.99),
        gaps.len()
    );
}

fn median(mut times: Vec<Duration>) -> Option<Duration> {
    times.sort();
    times.get(times.len() / 2).copied()
}

fn report(what: &str, times: Vec<Duration>, runs: usize) {
    let ok = times.len();
    let ms: Vec<u128> = {
        let mut t = times.clone();
        t.sort();
        t.iter().map(Duration::as_millis).collect()
    };
    match median(times) {
        Some(m) => println!(
            "{what}: median {} ms over {ok} of {runs} runs connected (min {} ms, max {} ms)",
            m.as_millis(),
            ms.first().unwrap_or(&0),
            ms.last().unwrap_or(&0)
        ),
        None => println!("{what}: 0 of {runs} runs connected"),
    }
}

fn main() {
    let runs: usize = std::env::var("RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(20);
    let (reversi, signaling) = programs();
    let scratch = std::env::temp_dir().join(format!("reversi-setup-bench-{}", std::process::id()));

    // On this machine, through a stand-alone server on loopback.
    let _server = Process(
        Command::new(&signaling)
            .args(["--bind", "127.0.0.1:35361", "--db", ":memory:"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    std::thread::sleep(Duration::from_millis(300));
    let mut times = Vec::new();
    for i in 0..runs {
        let time = one(
            &mut Command::new(&reversi),
            Command::new(&reversi),
            "ws://127.0.0.1:35361",
            &scratch.join(format!("local-{i}")),
        );
        times.extend(time);
    }
    report("direct, no NAT", times, runs);
    let mut gaps = Vec::new();
    for i in 0..3 {
        gaps.extend(latencies(
            &mut Command::new(&reversi),
            Command::new(&reversi),
            "ws://127.0.0.1:35361",
            &scratch.join(format!("local-game-{i}")),
        ));
    }
    report_latency("direct, no NAT", gaps);

    match nat_lab::why_not() {
        Some(why) => println!("through NAT: skipped ({why})"),
        None => {
            for (nat, what) in [
                (Nat::EndpointIndependent, "direct through NAT (STUN)"),
                (Nat::Symmetric, "relayed through TURN (symmetric NAT)"),
            ] {
                let mut lab = Lab::build("b", nat, &scratch).unwrap();
                lab.start_servers(&signaling).unwrap();
                let mut times = Vec::new();
                for i in 0..runs {
                    let time = one(
                        &mut lab.in_home(Home::A, &reversi),
                        lab.in_home(Home::B, &reversi),
                        nat_lab::SERVER,
                        &scratch.join(format!("nat-{i}")),
                    );
                    times.extend(time);
                }
                report(what, times, runs);
                let mut gaps = Vec::new();
                for i in 0..3 {
                    gaps.extend(latencies(
                        &mut lab.in_home(Home::A, &reversi),
                        lab.in_home(Home::B, &reversi),
                        nat_lab::SERVER,
                        &scratch.join(format!("nat-game-{i}")),
                    ));
                }
                report_latency(what, gaps);
            }
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
}
