//! The soak itself (Linux only); see `main.rs`.

use std::collections::BinaryHeap;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

/// Set when the soak is asked to stop (Ctrl-C, SIGTERM): it then ends the
/// game in play, kills its programs and removes the network it made.
static STOP: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

fn stop_on_signals() {
    std::thread::spawn(|| {
        let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
        else {
            return;
        };
        runtime.block_on(async {
            let Ok(mut term) =
                tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
            else {
                return;
            };
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
            }
        });
        STOP.store(true, std::sync::atomic::Ordering::SeqCst);
    });
}

/// Sleeps, unless the soak is stopped meanwhile.
fn pause(d: Duration) -> Result<(), String> {
    let end = Instant::now() + d;
    while Instant::now() < end {
        if STOP.load(std::sync::atomic::Ordering::SeqCst) {
            return Err("stopped".into());
        }
        std::thread::sleep(
            Duration::from_millis(50).min(end.saturating_duration_since(Instant::now())),
        );
    }
    Ok(())
}

/// A small seeded generator (SplitMix64): the schedule must repeat.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `lo..=hi`.
    fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next() % (hi - lo + 1)
    }

    /// True with probability `p`.
    fn chance(&mut self, p: f64) -> bool {
        (self.next() % 1_000_000) as f64 / 1_000_000.0 < p
    }
}

/// Runs the soak, or the impairer (`soak impair`).
pub fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("impair") => impair::run(&args[1..]),
        _ => soak(&args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("soak: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The command line of the soak.
struct Options {
    games: u32,
    seed: u64,
    max_level: u64,
    /// The longest link outage, in seconds.
    max_down: u64,
    /// Where each game's folder goes (kept for failed games).
    work: PathBuf,
    /// Games played at once, each on a network of its own with its own
    /// signaling server (the two load processes are shared).
    parallel: u32,
}

fn options(args: &[String]) -> Result<Options, String> {
    let mut o = Options {
        games: 20,
        seed: 1,
        max_level: 10,
        max_down: 180,
        work: std::env::temp_dir().join(format!("reversi-soak-{}", std::process::id())),
        parallel: 1,
    };
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut value = || {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{flag} needs a value"))
        };
        match flag.as_str() {
            "--games" => o.games = value()?.parse().map_err(|e| format!("--games: {e}"))?,
            "--seed" => o.seed = value()?.parse().map_err(|e| format!("--seed: {e}"))?,
            "--max-level" => {
                o.max_level = value()?
                    .parse::<u64>()
                    .ok()
                    .filter(|l| (1..=10).contains(l))
                    .ok_or("--max-level is 1 to 10")?
            }
            "--max-down" => {
                o.max_down = value()?.parse().map_err(|e| format!("--max-down: {e}"))?
            }
            "--work" => o.work = PathBuf::from(value()?),
            "--parallel" => {
                o.parallel = value()?
                    .parse::<u32>()
                    .ok()
                    .filter(|n| (1..=8).contains(n))
                    .ok_or("--parallel is 1 to 8")?
            }
            other => {
                return Err(format!(
                    "unknown flag {other} (flags: --games N --seed N --max-level 1-10 --max-down SECS --work DIR --parallel N)"
                ));
            }
        }
    }
    Ok(o)
}

/// Runs a command to completion, failing with its output.
fn run(program: &str, args: &[&str]) -> Result<(), String> {
    let out = Command::new(program)
        .args(args)
        .output()
        .map_err(|e| format!("{program}: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{program} {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

/// The simulated network; torn down when dropped.
struct Net {
    core: String,
    host_ns: String,
    guest_ns: String,
    host_if: String,
    guest_if: String,
}

impl Net {
    const HOST_SERVER: &'static str = "ws://198.18.1.1:3536";
    const GUEST_SERVER: &'static str = "ws://198.18.2.1:3536";

    fn build(tag: u32) -> Result<Net, String> {
        // Made first, so that whatever part of the set-up fails, dropping
        // it removes what was made.
        let net = Net {
            core: format!("rsoak-core-{tag}"),
            host_ns: format!("rsoak-a-{tag}"),
            guest_ns: format!("rsoak-b-{tag}"),
            host_if: format!("sk{tag}a"),
            guest_if: format!("sk{tag}b"),
        };
        for ns in [&net.core, &net.host_ns, &net.guest_ns] {
            run("ip", &["netns", "add", ns])?;
            run("ip", &["-n", ns, "link", "set", "lo", "up"])?;
        }
        for (ns, dev, side, net_no) in [
            (&net.host_ns, &net.host_if, "a", 1),
            (&net.guest_ns, &net.guest_if, "b", 2),
        ] {
            let router_dev = format!("{dev}r");
            run(
                "ip",
                &[
                    "link",
                    "add",
                    dev,
                    "type",
                    "veth",
                    "peer",
                    "name",
                    &router_dev,
                ],
            )?;
            run("ip", &["link", "set", dev, "netns", ns])?;
            run("ip", &["link", "set", &router_dev, "netns", &net.core])?;
            let (mine, router) = (
                format!("198.18.{net_no}.2/24"),
                format!("198.18.{net_no}.1/24"),
            );
            run("ip", &["-n", ns, "addr", "add", &mine, "dev", dev])?;
            run("ip", &["-n", ns, "link", "set", dev, "up"])?;
            run(
                "ip",
                &["-n", &net.core, "addr", "add", &router, "dev", &router_dev],
            )?;
            run("ip", &["-n", &net.core, "link", "set", &router_dev, "up"])?;
            net.default_route(side)?;
        }
        run(
            "ip",
            &[
                "netns",
                "exec",
                &net.core,
                "sysctl",
                "-qw",
                "net.ipv4.ip_forward=1",
            ],
        )?;
        // Every packet through the router, and to and from the server on
        // it, passes queue 0 (and goes through untouched while nothing
        // serves the queue).
        for chain in [["FORWARD", "-i"], ["INPUT", "-i"], ["OUTPUT", "-o"]] {
            for dev in [&net.host_if, &net.guest_if] {
                let router_dev = format!("{dev}r");
                run(
                    "ip",
                    &[
                        "netns",
                        "exec",
                        &net.core,
                        "iptables",
                        "-A",
                        chain[0],
                        chain[1],
                        &router_dev,
                        "-j",
                        "NFQUEUE",
                        "--queue-num",
                        "0",
                        "--queue-bypass",
                    ],
                )?;
            }
        }
        Ok(net)
    }

    fn default_route(&self, side: &str) -> Result<(), String> {
        let (ns, gateway) = if side == "a" {
            (&self.host_ns, "198.18.1.1")
        } else {
            (&self.guest_ns, "198.18.2.1")
        };
        run(
            "ip",
            &["-n", ns, "route", "replace", "default", "via", gateway],
        )
    }

    /// Takes a side's link down or up.
    fn link(&self, side: &str, up: bool) -> Result<(), String> {
        let (ns, dev) = if side == "a" {
            (&self.host_ns, &self.host_if)
        } else {
            (&self.guest_ns, &self.guest_if)
        };
        run(
            "ip",
            &["-n", ns, "link", "set", dev, if up { "up" } else { "down" }],
        )?;
        if up {
            self.default_route(side)?;
        }
        Ok(())
    }

    fn exec(&self, ns: &str, program: &Path) -> Command {
        let mut command = Command::new("ip");
        command.args(["netns", "exec", ns]).arg(program);
        command
    }
}

impl Drop for Net {
    fn drop(&mut self) {
        for ns in [&self.host_ns, &self.guest_ns, &self.core] {
            let _ = run("ip", &["netns", "del", ns]);
        }
    }
}

/// A child killed when dropped.
struct Guard(Child);

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The programs under test.
struct Programs {
    reversi: PathBuf,
    signaling: PathBuf,
    this: PathBuf,
}

fn programs() -> Result<Programs, String> {
    let this = std::env::current_exe().map_err(|e| e.to_string())?;
    // target/release/examples/soak -> target/release/
    let dir = this
        .parent()
        .and_then(Path::parent)
        .ok_or("cannot find the build folder")?
        .to_path_buf();
    let reversi = dir.join("reversi");
    let signaling = dir.join("reversi-signaling");
    for p in [&reversi, &signaling] {
        if !p.exists() {
            return Err(format!(
                "{} is missing: run cargo build --release --workspace --bins --examples",
                p.display()
            ));
        }
    }
    Ok(Programs {
        reversi,
        signaling,
        this,
    })
}

/// What goes wrong in one game.
#[derive(Debug, Clone, Copy)]
enum Fault {
    LinkDown { side: &'static str, secs: u64 },
    Kill { side: &'static str },
    ServerRestart,
}

/// One game's conditions.
#[derive(Debug, Clone, Copy)]
struct Plan {
    host_level: u64,
    guest_level: u64,
    loss: f64,
    delay_ms: u64,
    jitter_ms: u64,
    reorder: f64,
    fault: Fault,
    /// The fault strikes once both logs hold this many records.
    at_records: usize,
}

fn plan(rng: &mut Rng, max_level: u64, max_down: u64) -> Plan {
    let level = |rng: &mut Rng| {
        // Mostly quick levels, so that a soak of 200 games ends in hours.
        if rng.chance(0.3) {
            rng.range(max_level.min(6), max_level)
        } else {
            rng.range(1, max_level.min(5))
        }
    };
    let clean = rng.chance(0.25);
    let side = |rng: &mut Rng| if rng.chance(0.5) { "a" } else { "b" };
    let fault = match rng.range(0, 9) {
        0..=4 => Fault::LinkDown {
            side: side(rng),
            secs: match rng.range(0, 9) {
                0..=5 => 3,
                6..=8 => 30,
                _ => 180,
            }
            .min(max_down),
        },
        5..=7 => Fault::Kill { side: side(rng) },
        _ => Fault::ServerRestart,
    };
    Plan {
        host_level: level(rng),
        guest_level: level(rng),
        loss: if clean {
            0.0
        } else {
            rng.range(5, 20) as f64 / 100.0
        },
        delay_ms: if clean { 0 } else { rng.range(100, 300) },
        jitter_ms: if clean { 0 } else { rng.range(10, 50) },
        reorder: if clean {
            0.0
        } else {
            rng.range(0, 10) as f64 / 100.0
        },
        fault,
        at_records: rng.range(10, 45) as usize,
    }
}

/// Records in a log (one per line).
fn records(log: &Path) -> usize {
    std::fs::read_to_string(log).map_or(0, |t| t.lines().count())
}

/// How one game went.
struct Outcome {
    completed: bool,
    identical: bool,
    audited: bool,
    evidence: usize,
    recovery: Option<Recovery>,
}

/// How long a game took to move again after its fault.
#[derive(Debug, Clone, Copy)]
struct Recovery {
    /// From the fault's end to the next move in both logs.
    total: Duration,
    /// The part of it the side to move spent thinking (its bot is slow on
    /// a machine kept busy), which no network could shorten.
    thinking: Duration,
}

impl Recovery {
    /// The time spent waiting for the network.
    fn network(&self) -> Duration {
        self.total.saturating_sub(self.thinking)
    }
}

/// When each record first appeared in each log (polled every 50 ms).
#[derive(Default)]
struct Appearances([Vec<Instant>; 2]);

impl Appearances {
    fn update(&mut self, counts: [usize; 2], now: Instant) {
        for (seen, count) in self.0.iter_mut().zip(counts) {
            while seen.len() < count {
                seen.push(now);
            }
        }
    }

    /// The time spent thinking, between `from` and `to`, on the records
    /// made then: a record's author is the log it appeared in first; it
    /// thought from the moment it held the record before (or `from`) until
    /// its own appeared.
    fn thinking(&self, from: Instant, to: Instant) -> Duration {
        let n = self.0[0].len().min(self.0[1].len());
        (1..n)
            .map(|k| {
                let author = if self.0[0][k] <= self.0[1][k] { 0 } else { 1 };
                let made = self.0[author][k].min(to);
                let began = self.0[author][k - 1].max(from);
                made.saturating_duration_since(began)
            })
            .sum()
    }

    fn recovery(&self, ended: Instant, now: Instant) -> Recovery {
        Recovery {
            total: now - ended,
            thinking: self.thinking(ended, now),
        }
    }
}

struct Soak<'a> {
    net: &'a Net,
    programs: &'a Programs,
    server: Option<Guard>,
    impair: std::process::ChildStdin,
}

impl Soak<'_> {
    fn start_server(&mut self) -> Result<(), String> {
        let child = self
            .net
            .exec(&self.net.core, &self.programs.signaling)
            .args(["--bind", "0.0.0.0:3536", "--db", ":memory:"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("reversi-signaling: {e}"))?;
        self.server = Some(Guard(child));
        // Until it listens.
        std::thread::sleep(Duration::from_millis(300));
        Ok(())
    }

    fn player(&self, side: &str, dir: &Path, args: &[String], level: u64) -> Result<Guard, String> {
        let ns = if side == "a" {
            &self.net.host_ns
        } else {
            &self.net.guest_ns
        };
        let data = dir.join(side);
        let stderr = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(dir.join(format!("{side}.stderr")))
            .map_err(|e| e.to_string())?;
        let child = self
            .net
            .exec(ns, &self.programs.reversi)
            .arg("--data-dir")
            .arg(&data)
            .args(args)
            .args(["--bot", &level.to_string()])
            // Timestamped connection events in the kept stderr files.
            .env(
                "RUST_LOG",
                "info,rtc=warn,rtc_ice=warn,webrtc=warn,matchbox_socket=warn,reversi::net::mailbox_sync=debug",
            )
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .map_err(|e| format!("reversi: {e}"))?;
        Ok(Guard(child))
    }

    fn play(&mut self, plan: &Plan, dir: &Path) -> Result<Outcome, String> {
        let _ = writeln!(
            self.impair,
            "{} {} {} {}",
            plan.loss, plan.delay_ms, plan.jitter_ms, plan.reorder
        );
        let host_log = dir.join("host.log");
        let guest_log = dir.join("guest.log");
        let mut host = self.player(
            "a",
            dir,
            &[
                "host".into(),
                "--server".into(),
                Net::HOST_SERVER.into(),
                "--deadline".into(),
                "5m".into(),
                "--name".into(),
                "Ann".into(),
                "--log".into(),
                host_log.display().to_string(),
            ],
            plan.host_level,
        )?;
        let code = {
            let stdout = host.0.stdout.take().ok_or("no stdout")?;
            let mut lines = BufReader::new(stdout).lines();
            let code = lines
                .next()
                .ok_or("the host printed no code")?
                .map_err(|e| e.to_string())?;
            std::thread::spawn(move || for _ in lines {});
            code
        };
        let join_args = |log: &Path| -> Vec<String> {
            vec![
                "join".into(),
                code.clone(),
                "--server".into(),
                Net::GUEST_SERVER.into(),
                "--wait".into(),
                "10m".into(),
                "--name".into(),
                "Ben".into(),
                "--log".into(),
                log.display().to_string(),
            ]
        };
        let mut guest = self.player("b", dir, &join_args(&guest_log), plan.guest_level)?;
        let started = Instant::now();
        // Lost: no record in either log for longer than a move may take
        // (the host gives 5 min a move, so by then a timeout claim is
        // due), or an hour in all. A level-10 bot on a machine this busy
        // may think two minutes a move, so a fixed 15 min counted slow
        // thinking as a lost game.
        let stall = Duration::from_secs(8 * 60);
        let limit = Duration::from_secs(60 * 60);
        let mut progress = (0, Instant::now());
        let both = || records(&host_log).min(records(&guest_log));
        let mut seen = Appearances::default();
        let mut fault_done = false;
        let mut recovery = None;
        let mut waiting_for: Option<(Instant, usize)> = None;
        loop {
            // Each log is read once a round; everything below uses these.
            let counts = [records(&host_log), records(&guest_log)];
            let in_both = counts[0].min(counts[1]);
            let grown = counts[0] + counts[1];
            if grown != progress.0 {
                progress = (grown, Instant::now());
            }
            if started.elapsed() > limit || progress.1.elapsed() > stall {
                return Ok(Outcome {
                    completed: false,
                    identical: false,
                    audited: false,
                    evidence: 0,
                    recovery,
                });
            }
            let host_done = host.0.try_wait().map_err(|e| e.to_string())?;
            let guest_done = guest.0.try_wait().map_err(|e| e.to_string())?;
            if let (Some(_), Some(_)) = (host_done, guest_done) {
                break;
            }
            let now = Instant::now();
            seen.update(counts, now);
            if let Some((ended, beyond)) = waiting_for
                && in_both > beyond
            {
                recovery = Some(seen.recovery(ended, now));
                waiting_for = None;
            }
            if !fault_done
                && in_both >= plan.at_records
                && host_done.is_none()
                && guest_done.is_none()
            {
                fault_done = true;
                let ended = self.strike(plan, dir, &mut host, &mut guest, &host_log, &guest_log)?;
                let held = records(&host_log).max(records(&guest_log));
                waiting_for = Some((ended, held));
            }
            pause(Duration::from_millis(50))?;
        }
        if let Some((ended, beyond)) = waiting_for {
            // The game ended with the fault's aftermath: the last record counts.
            if both() > beyond || records(&host_log) == records(&guest_log) {
                let now = Instant::now();
                seen.update([records(&host_log), records(&guest_log)], now);
                recovery = Some(seen.recovery(ended, now));
            }
        }
        let (h, g) = (
            std::fs::read(&host_log).unwrap_or_default(),
            std::fs::read(&guest_log).unwrap_or_default(),
        );
        let audited = [&host_log, &guest_log].iter().all(|log| {
            Command::new(&self.programs.reversi)
                .arg("audit")
                .arg(log)
                .output()
                .is_ok_and(|o| o.status.success())
        });
        let evidence = [&host_log, &guest_log]
            .iter()
            .map(|log| {
                let dir = reversi::net::driver::evidence_dir(log);
                std::fs::read_dir(dir).map_or(0, |d| d.count())
            })
            .sum();
        Ok(Outcome {
            completed: audited && !h.is_empty(),
            identical: !h.is_empty() && h == g,
            audited,
            evidence,
            recovery,
        })
    }

    /// Carries out the plan's fault; returns when it ended.
    fn strike(
        &mut self,
        plan: &Plan,
        dir: &Path,
        host: &mut Guard,
        guest: &mut Guard,
        host_log: &Path,
        guest_log: &Path,
    ) -> Result<Instant, String> {
        match plan.fault {
            Fault::LinkDown { side, secs } => {
                self.net.link(side, false)?;
                let slept = pause(Duration::from_secs(secs));
                self.net.link(side, true)?;
                slept?;
            }
            Fault::Kill { side } => {
                let (victim, log, level) = if side == "a" {
                    (host, host_log, plan.host_level)
                } else {
                    (guest, guest_log, plan.guest_level)
                };
                let _ = victim.0.kill();
                let _ = victim.0.wait();
                std::thread::sleep(Duration::from_millis(500));
                let resumed = self.player(
                    side,
                    dir,
                    &["resume".into(), log.display().to_string()],
                    level,
                )?;
                *victim = resumed;
            }
            Fault::ServerRestart => {
                self.server = None;
                std::thread::sleep(Duration::from_secs(2));
                self.start_server()?;
            }
        }
        Ok(Instant::now())
    }
}

/// The recovery figures: the whole time, and the network's part of it.
fn print_recoveries(when: &str, recoveries: &[Recovery]) {
    let line = |what: &str, mut times: Vec<Duration>| {
        times.sort();
        println!(
            "{when}: {what} ({} faults): p50 {:.1} s, p99 {:.1} s, max {:.1} s",
            times.len(),
            percentile(&times, 0.5).as_secs_f64(),
            percentile(&times, 0.99).as_secs_f64(),
            times.last().copied().unwrap_or_default().as_secs_f64()
        );
    };
    line(
        "time from the end of a fault to the next move in both logs",
        recoveries.iter().map(|r| r.total).collect(),
    );
    line(
        "of it waiting for the network (the side to move's thinking taken out)",
        recoveries.iter().map(Recovery::network).collect(),
    );
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let rank = ((p * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

fn soak(args: &[String]) -> Result<ExitCode, String> {
    let o = options(args)?;
    let programs = programs()?;
    stop_on_signals();
    if !rustix::process::geteuid().is_root() {
        return Err("needs root: it makes network namespaces".into());
    }
    if Command::new("iptables").arg("--version").output().is_err() {
        return Err("needs iptables (apt-get install iptables)".into());
    }
    std::fs::create_dir_all(&o.work).map_err(|e| e.to_string())?;
    // Both cores busy for the whole soak.
    let _load: Vec<Guard> = (0..2)
        .filter_map(|_| {
            Command::new(&programs.reversi)
                .args(["perft", "16"])
                .stdout(Stdio::null())
                .spawn()
                .ok()
                .map(Guard)
        })
        .collect();
    // The whole schedule first, so that it is the same however many games
    // run at once.
    let mut rng = Rng(o.seed);
    let plans: Vec<Plan> = (0..o.games)
        .map(|_| plan(&mut rng, o.max_level, o.max_down))
        .collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let (tx, rx) = std::sync::mpsc::channel::<Report>();
    let (mut completed, mut identical, mut audited, mut evidence) = (0, 0, 0, 0);
    let mut recoveries = Vec::new();
    let mut lost = 0;
    let mut played = 0;
    let mut broken = None;
    let started = Instant::now();
    let tag_base = std::process::id() % 10_000 * 10;
    std::thread::scope(|scope| {
        for lane in 0..o.parallel {
            let (tx, plans, next, programs, o) = (tx.clone(), &plans, &next, &programs, &o);
            scope.spawn(move || {
                if let Err(e) = lane_run(tag_base + lane, plans, next, programs, o, &tx) {
                    // Stops the other lanes too: the soak's own set-up failed.
                    STOP.store(true, std::sync::atomic::Ordering::SeqCst);
                    let _ = tx.send(Report::Broken(e));
                }
            });
        }
        drop(tx);
        for report in rx {
            let (game, outcome, took) = match report {
                Report::Broken(e) => {
                    broken.get_or_insert(e);
                    continue;
                }
                Report::Game {
                    game,
                    outcome,
                    took,
                } => (game, outcome, took),
            };
            let plan = &plans[game];
            played += 1;
            completed += u32::from(outcome.completed);
            identical += u32::from(outcome.identical);
            audited += u32::from(outcome.audited);
            evidence += outcome.evidence;
            if let Some(r) = outcome.recovery {
                recoveries.push(r);
            }
            let ok = outcome.completed && outcome.identical;
            lost += u32::from(!ok);
            println!(
                "game {}: {} in {:.0} s; levels {}/{}, loss {:.0} %, delay {} ms ± {}, reorder {:.0} %, {:?} at record {}; recovered in {}",
                game + 1,
                if ok { "ok" } else { "FAILED" },
                took.as_secs_f64(),
                plan.host_level,
                plan.guest_level,
                plan.loss * 100.0,
                plan.delay_ms,
                plan.jitter_ms,
                plan.reorder * 100.0,
                plan.fault,
                plan.at_records,
                outcome.recovery.map_or("-".to_string(), |r| format!(
                    "{:.1} s ({:.1} s of it thinking)",
                    r.total.as_secs_f64(),
                    r.thinking.as_secs_f64()
                )),
            );
            let slow = outcome
                .recovery
                .is_some_and(|r| r.network() > Duration::from_secs(10));
            let dir = game_dir(&o.work, game);
            if ok && !slow {
                let _ = std::fs::remove_dir_all(&dir);
            } else {
                println!("  kept {} for a look", dir.display());
            }
            if played % 10 == 0 {
                print_recoveries(&format!("after {played} games"), &recoveries);
            }
        }
    });
    if let Some(e) = broken {
        return Err(format!("after {played} games: {e}"));
    }
    // A closing line test runners read.
    println!("soak: {} passed, {lost} failed", played - lost);
    println!(
        "soak: {played} games in {:.0} min (seed {}, {} at once): {completed} completed, {identical} with identical logs, {audited} audited clean, {lost} lost or divergent, {evidence} evidence files",
        started.elapsed().as_secs_f64() / 60.0,
        o.seed,
        o.parallel
    );
    print_recoveries("all games", &recoveries);
    Ok(if lost == 0 {
        // Only an empty folder goes: slow games stay for a look.
        let _ = std::fs::remove_dir(&o.work);
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// What a lane tells the soak.
enum Report {
    /// A game was played.
    Game {
        game: usize,
        outcome: Outcome,
        took: Duration,
    },
    /// The lane's network or programs failed (not a game's fault).
    Broken(String),
}

fn game_dir(work: &Path, game: usize) -> PathBuf {
    work.join(format!("game-{:03}", game + 1))
}

/// One lane: its own network, impairer and signaling server; it plays the
/// next unplayed game of the schedule until none is left.
fn lane_run(
    tag: u32,
    plans: &[Plan],
    next: &std::sync::atomic::AtomicUsize,
    programs: &Programs,
    o: &Options,
    tx: &std::sync::mpsc::Sender<Report>,
) -> Result<(), String> {
    let net = Net::build(tag)?;
    let mut impairer = net
        .exec(&net.core, &programs.this)
        .arg("impair")
        .stdin(Stdio::piped())
        .spawn()
        .map_err(|e| format!("impairer: {e}"))?;
    let impair = impairer.stdin.take().ok_or("no stdin")?;
    let _impairer = Guard(impairer);
    let mut soak = Soak {
        net: &net,
        programs,
        server: None,
        impair,
    };
    soak.start_server()?;
    loop {
        if STOP.load(std::sync::atomic::Ordering::SeqCst) {
            return Err("stopped".into());
        }
        let game = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let Some(plan) = plans.get(game) else {
            return Ok(());
        };
        let dir = game_dir(&o.work, game);
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        let t = Instant::now();
        let outcome = soak.play(plan, &dir)?;
        let _ = tx.send(Report::Game {
            game,
            outcome,
            took: t.elapsed(),
        });
    }
}

/// The impairer: serves netfilter queue 0 inside the router namespace,
/// delaying, dropping and reordering packets. Its conditions come as lines
/// on standard input: `LOSS DELAY_MS JITTER_MS REORDER` (fractions for
/// loss and reorder).
mod impair {
    use super::*;

    /// A packet held until its time.
    struct Held {
        at: Instant,
        seq: u64,
        message: nfq::Message,
    }

    impl PartialEq for Held {
        fn eq(&self, other: &Held) -> bool {
            (self.at, self.seq) == (other.at, other.seq)
        }
    }
    impl Eq for Held {}
    impl PartialOrd for Held {
        fn partial_cmp(&self, other: &Held) -> Option<std::cmp::Ordering> {
            Some(self.cmp(other))
        }
    }
    impl Ord for Held {
        // The earliest first in a max-heap.
        fn cmp(&self, other: &Held) -> std::cmp::Ordering {
            (other.at, other.seq).cmp(&(self.at, self.seq))
        }
    }

    #[derive(Clone, Copy, Default)]
    struct Conditions {
        loss: f64,
        delay_ms: f64,
        jitter_ms: f64,
        reorder: f64,
    }

    pub fn run(_args: &[String]) -> Result<ExitCode, String> {
        let mut queue = nfq::Queue::open().map_err(|e| format!("netfilter queue: {e}"))?;
        queue
            .bind(0)
            .map_err(|e| format!("netfilter queue 0: {e}"))?;
        queue
            .set_queue_max_len(0, 8192)
            .map_err(|e| e.to_string())?;
        queue.set_fail_open(0, true).map_err(|e| e.to_string())?;
        queue.set_nonblocking(true);
        let (tx, rx) = std::sync::mpsc::channel::<Conditions>();
        std::thread::spawn(move || {
            for line in std::io::stdin().lock().lines() {
                let Ok(line) = line else { break };
                let v: Vec<f64> = line
                    .split_whitespace()
                    .filter_map(|x| x.parse().ok())
                    .collect();
                if let [loss, delay_ms, jitter_ms, reorder] = v[..] {
                    let _ = tx.send(Conditions {
                        loss,
                        delay_ms,
                        jitter_ms,
                        reorder,
                    });
                }
            }
            // The soak ended: stop serving.
            std::process::exit(0);
        });
        let mut now_conditions = Conditions::default();
        let mut rng = Rng(0x5eed);
        let mut held = BinaryHeap::new();
        let mut seq = 0u64;
        loop {
            while let Ok(c) = rx.try_recv() {
                now_conditions = c;
            }
            let mut busy = false;
            loop {
                match queue.recv() {
                    Ok(mut message) => {
                        busy = true;
                        let c = now_conditions;
                        if rng.chance(c.loss) {
                            message.set_verdict(nfq::Verdict::Drop);
                            let _ = queue.verdict(message);
                            continue;
                        }
                        let jitter = (rng.next() % 2001) as f64 / 1000.0 - 1.0;
                        let mut delay = (c.delay_ms + jitter * c.jitter_ms).max(0.0);
                        if rng.chance(c.reorder) {
                            delay += c.delay_ms / 2.0 + 20.0;
                        }
                        message.set_verdict(nfq::Verdict::Accept);
                        seq += 1;
                        held.push(Held {
                            at: Instant::now() + Duration::from_secs_f64(delay / 1000.0),
                            seq,
                            message,
                        });
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break,
                    Err(e) => return Err(format!("netfilter queue: {e}")),
                }
            }
            let now = Instant::now();
            while held.peek().is_some_and(|h: &Held| h.at <= now) {
                if let Some(h) = held.pop() {
                    let _ = queue.verdict(h.message);
                }
            }
            if !busy {
                std::thread::sleep(Duration::from_micros(500));
            }
        }
    }
}
