//! Games between two homes behind NAT routers, on a simulated internet in
//! network namespaces (see `support/nat_lab.rs`), with the real signaling
//! server handing out STUN and short-lived TURN credentials for a real
//! coturn. Needs root; skipped, saying why, where namespaces cannot be
//! made. Slow: `tests/all.sh` runs them (`--include-ignored`).

#![cfg(target_os = "linux")]

mod support;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use support::nat_lab::{self, Home, Lab, Nat, Process};

/// One lab at a time: they share addresses, and on 2 cores parallel games
/// starve each other's connection checks.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn reversi() -> PathBuf {
    support::reversi_binary().to_path_buf()
}

fn signaling() -> PathBuf {
    support::signaling_server::server_binary()
}

/// A fresh folder for one test's logs, kept when the test fails.
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("reversi-nat-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The lab, or `None` (with the reason printed) where none can be made.
fn lab(tag: &str, nat: Nat, dir: &Path) -> Option<Lab> {
    if let Some(why) = nat_lab::why_not() {
        eprintln!("skipped: {why}");
        return None;
    }
    let mut lab = Lab::build(tag, nat, dir).unwrap();
    lab.start_servers(&signaling()).unwrap();
    Some(lab)
}

/// The players' log filter: `REVERSI_NAT_LOG` overrides it when debugging.
fn log_filter() -> String {
    std::env::var("REVERSI_NAT_LOG")
        .unwrap_or_else(|_| "info,rtc=warn,rtc_ice=warn,webrtc=warn,matchbox_socket=warn".into())
}

fn stderr_file(dir: &Path, name: &str) -> std::fs::File {
    std::fs::File::create(dir.join(name)).unwrap()
}

/// Starts the host in home A; returns it and its room code.
fn host(lab: &Lab, dir: &Path, extra: &[&str]) -> (Process, String) {
    let mut child = lab
        .in_home(Home::A, &reversi())
        .arg("--data-dir")
        .arg(dir.join("a"))
        .args(["host", "--server", nat_lab::SERVER, "--deadline", "5m"])
        .args(["--name", "Ann", "--log"])
        .arg(dir.join("host.log"))
        .args(extra)
        .env("RUST_LOG", log_filter())
        .stdout(Stdio::piped())
        .stderr(stderr_file(dir, "host.stderr"))
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let code = lines.next().expect("the code line").unwrap();
    std::thread::spawn(move || for _ in lines {});
    (Process(child), code)
}

/// Starts the guest in home B.
fn guest(lab: &Lab, dir: &Path, code: &str, extra: &[&str]) -> Process {
    let child = lab
        .in_home(Home::B, &reversi())
        .arg("--data-dir")
        .arg(dir.join("b"))
        .args(["join", code, "--server", nat_lab::SERVER])
        .args(["--name", "Ben", "--log"])
        .arg(dir.join("guest.log"))
        .args(extra)
        .env("RUST_LOG", log_filter())
        .stdout(Stdio::null())
        .stderr(stderr_file(dir, "guest.stderr"))
        .spawn()
        .unwrap();
    Process(child)
}

/// Waits for a process to end; `None` if it is still running at `limit`.
fn wait(process: &mut Process, limit: Duration) -> Option<i32> {
    let started = Instant::now();
    while started.elapsed() < limit {
        if let Some(status) = process.0.try_wait().unwrap() {
            return Some(status.code().unwrap_or(-1));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    None
}

fn text(path: PathBuf) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

fn records(log: &Path) -> usize {
    text(log.to_path_buf())
        .lines()
        .filter(|l| !l.trim().is_empty())
        .count()
}

fn audit_clean(log: &Path) -> bool {
    Command::new(reversi())
        .arg("audit")
        .arg(log)
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Both logs identical, non-empty and clean.
fn assert_same_clean_logs(dir: &Path) {
    let (host_log, guest_log) = (dir.join("host.log"), dir.join("guest.log"));
    let host = std::fs::read(&host_log).unwrap();
    assert!(!host.is_empty());
    assert_eq!(host, std::fs::read(&guest_log).unwrap(), "logs differ");
    assert!(
        audit_clean(&host_log),
        "the host's log does not audit clean"
    );
    assert!(
        audit_clean(&guest_log),
        "the guest's log does not audit clean"
    );
}

/// Runs `body` in a fresh lab of its own (one at a time), with a folder
/// for the logs that is removed when the test passes and kept when it
/// fails; returns at once, saying why, where no lab can be made.
fn in_lab(tag: &str, name: &str, nat: Nat, body: impl FnOnce(&Lab, &Path)) {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|p| p.into_inner());
    let dir = folder(name);
    let Some(lab) = lab(tag, nat, &dir) else {
        return;
    };
    body(&lab, &dir);
    drop(lab);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Waits for the guest (up to `limit`) and then the host to end, asserts
/// that both ended the game normally, and returns their standard errors.
fn both_finish(
    host: &mut Process,
    guest: &mut Process,
    dir: &Path,
    limit: Duration,
) -> (String, String) {
    let guest_status = wait(guest, limit);
    let host_status = wait(host, Duration::from_secs(30));
    let (host_err, guest_err) = (
        text(dir.join("host.stderr")),
        text(dir.join("guest.stderr")),
    );
    assert_eq!(
        (host_status, guest_status),
        (Some(0), Some(0)),
        "the game did not complete (logs in {})\nhost:\n{host_err}\nguest:\n{guest_err}",
        dir.display()
    );
    (host_err, guest_err)
}

/// Plays a whole game and checks that both sides reported `route`.
fn complete_game(lab: &Lab, dir: &Path, route: &str) {
    let (mut host, code) = host(lab, dir, &["--bot", "3"]);
    // REVERSI_NAT_WAIT shortens the join timeout when debugging.
    let wait_for = std::env::var("REVERSI_NAT_WAIT").unwrap_or_else(|_| "60s".into());
    let mut guest = guest(lab, dir, &code, &["--bot", "3", "--wait", &wait_for]);
    let (host_err, guest_err) = both_finish(&mut host, &mut guest, dir, Duration::from_secs(180));
    let line = format!("connection: {route}");
    assert!(
        host_err.lines().any(|l| l == line),
        "host never said {line:?}:\n{host_err}"
    );
    assert!(
        guest_err.lines().any(|l| l == line),
        "guest never said {line:?}:\n{guest_err}"
    );
    assert_same_clean_logs(dir);
}

#[test]
#[ignore = "a game on simulated networks (slow, needs root): tests/all.sh runs it"]
fn behind_endpoint_independent_nat_a_game_connects_directly() {
    in_lab("d", "direct", Nat::EndpointIndependent, |lab, dir| {
        complete_game(lab, dir, "direct");
    });
}

#[test]
#[ignore = "a game on simulated networks (slow, needs root): tests/all.sh runs it"]
fn behind_symmetric_nat_a_game_goes_through_the_turn_relay() {
    in_lab("r", "relayed", Nat::Symmetric, |lab, dir| {
        complete_game(lab, dir, "relayed");
        let turn_log = text(dir.join("turnserver.log"));
        assert!(
            !turn_log.contains(nat_lab::SECRET),
            "the relay's log shows no secret"
        );
    });
}

#[test]
#[ignore = "a game on simulated networks (slow, needs root): tests/all.sh runs it"]
fn behind_symmetric_nat_without_a_reachable_relay_the_guest_says_why() {
    in_lab("n", "no-relay", Nat::Symmetric, |lab, dir| {
        lab.block_turn().unwrap();
        let (mut host, code) = host(lab, dir, &["--bot", "3"]);
        let started = Instant::now();
        let mut guest = guest(lab, dir, &code, &["--bot", "3", "--wait", "20s"]);
        let status = wait(&mut guest, Duration::from_secs(60));
        let took = started.elapsed();
        let guest_err = text(dir.join("guest.stderr"));
        assert_eq!(
            status,
            Some(1),
            "the guest failed with exit 1:\n{guest_err}"
        );
        // The join timeout, the room check and the relay probe (1.5 s).
        assert!(
            took < Duration::from_secs(30),
            "gave up only after {took:?}"
        );
        for needle in [
            "the opponent is in the room, but no direct or relayed connection",
            "the TURN relay turn:198.19.1.1:3478?transport=udp does not answer",
        ] {
            assert!(
                guest_err.contains(needle),
                "{needle:?} missing from:\n{guest_err}"
            );
        }
        assert!(!guest_err.contains("nobody joined"), "{guest_err}");
        // The host is still waiting; whatever it wrote, the guest has too.
        assert_eq!(wait(&mut host, Duration::from_millis(100)), None);
        drop(host);
        let (host_log, guest_log) = (
            std::fs::read(dir.join("host.log")).unwrap_or_default(),
            std::fs::read(dir.join("guest.log")).unwrap_or_default(),
        );
        assert!(
            guest_log.starts_with(&host_log),
            "the host's log holds records the guest does not have"
        );
    });
}

#[test]
#[ignore = "a game on simulated networks (slow, needs root): tests/all.sh runs it"]
fn when_a_router_restarts_mid_game_the_game_reconnects_and_completes() {
    in_lab("m", "restart", Nat::EndpointIndependent, |lab, dir| {
        let slow = ["--bot", "3", "--move-delay", "400ms"];
        let (mut host, code) = host(lab, dir, &slow);
        let mut guest = guest(lab, dir, &code, &[&slow[..], &["--wait", "60s"]].concat());
        let (host_log, guest_log) = (dir.join("host.log"), dir.join("guest.log"));
        let started = Instant::now();
        while records(&host_log).min(records(&guest_log)) < 12 {
            assert!(
                started.elapsed() < Duration::from_secs(90),
                "the game never got going"
            );
            assert_eq!(
                wait(&mut guest, Duration::from_millis(50)),
                None,
                "the guest ended early"
            );
        }
        lab.restart_router_a(0).unwrap();
        let (host_err, guest_err) =
            both_finish(&mut host, &mut guest, dir, Duration::from_secs(240));
        assert!(
            host_err.contains("reconnecting") || guest_err.contains("reconnecting"),
            "no side noticed the break:\nhost:\n{host_err}\nguest:\n{guest_err}"
        );
        assert_same_clean_logs(dir);
    });
}
