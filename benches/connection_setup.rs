//! Connection set-up time: from the guest's start to its "connected to the
//! opponent", median of N runs, for two programs on this machine (direct,
//! no NAT) and for two homes behind endpoint-independent NAT on the
//! simulated internet of `tests/support/nat_lab.rs` (direct through
//! STUN-discovered addresses). Needs root for the second; run with
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

/// One game start: host, then guest, both through `server`; returns the
/// guest's set-up time.
fn one(host: &mut Command, mut guest: Command, server: &str, dir: &Path) -> Option<Duration> {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).unwrap();
    let mut host = Process(
        host.arg("--data-dir")
            .arg(dir.join("a"))
            .args([
                "host",
                "--server",
                server,
                "--bot",
                "1",
                "--move-delay",
                "5s",
                "--log",
            ])
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
    let stderr = dir.join("guest.stderr");
    let started = Instant::now();
    let _guest = Process(
        guest
            .arg("--data-dir")
            .arg(dir.join("b"))
            .args(["join", &code, "--server", server, "--bot", "1", "--log"])
            .arg(dir.join("guest.log"))
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&stderr).unwrap())
            .spawn()
            .unwrap(),
    );
    until_connected(&stderr, started)
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
            .args(["--bind", "127.0.0.1:35361"])
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

    match nat_lab::why_not() {
        Some(why) => println!("through NAT: skipped ({why})"),
        None => {
            let mut lab = Lab::build("b", Nat::EndpointIndependent, &scratch).unwrap();
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
            report("direct through NAT (STUN)", times, runs);
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
}
