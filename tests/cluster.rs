//! Three `reversi-signaling` instances sharing one PostgreSQL behind the
//! shipped proxy configurations (nginx, then HAProxy), with twenty live
//! bot games between separate `reversi` programs, through an instance
//! killed mid-game followed by a rolling restart of every instance, and
//! through PostgreSQL stopped for ten seconds. Every game must complete with two identical
//! logs that audit clean. Slow and needs root (network namespaces),
//! nginx, HAProxy and PostgreSQL: tests/all.sh installs them and runs these.

#![cfg(target_os = "linux")]

mod support;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use reversi::net::room_code::RoomCode;
use support::cluster_lab::{self, Cluster, PORTS, Proxy};
use support::{KillOnDrop, TempDir};

/// Games at once.
const GAMES: usize = 20;

/// Labs run one at a time: each keeps both cores busy.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn reversi() -> Command {
    support::reversi()
}

/// One live game: its two programs and their logs.
struct Game {
    room: String,
    host: KillOnDrop,
    guest: KillOnDrop,
    logs: [PathBuf; 2],
    /// The guest's data directory.
    guest_data: PathBuf,
}

/// Records in a log (one a line).
fn records(log: &Path) -> usize {
    std::fs::read_to_string(log).map_or(0, |t| t.lines().count())
}

impl Game {
    /// Records both logs hold.
    fn in_both(&self) -> usize {
        records(&self.logs[0]).min(records(&self.logs[1]))
    }

    fn finished(&mut self) -> bool {
        matches!(
            (self.host.try_wait(), self.guest.try_wait()),
            (Ok(Some(_)), Ok(Some(_)))
        )
    }
}

/// A player's program through the cluster's proxy, the computer playing.
fn program(cluster: &Cluster, data: &Path, args: &[&str], stderr: &Path) -> std::process::Child {
    reversi()
        .arg("--data-dir")
        .arg(data)
        .args(args)
        .args(["--server", &cluster.url(), "--bot", "1"])
        // Long enough a game (about 30 s) for the faults to land in the middle.
        .args(["--move-delay", "500ms"])
        .env(
            "RUST_LOG",
            "info,rtc=warn,rtc_ice=warn,webrtc=warn,matchbox_socket=warn",
        )
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(stderr)
                .unwrap(),
        )
        .spawn()
        .unwrap()
}

/// Starts `GAMES` games through the cluster's proxy: the hosts, each
/// printing its code, then the guests.
fn start_games(cluster: &Cluster, dir: &TempDir) -> Vec<Game> {
    let player = |side: &str, n: usize, args: &[&str]| {
        let data = dir.path(&format!("{side}-{n}"));
        program(
            cluster,
            &data,
            args,
            &dir.path(&format!("{side}-{n}.stderr")),
        )
    };
    let mut hosts = Vec::new();
    for n in 0..GAMES {
        let log = dir.path(&format!("host-{n}.log"));
        let log_arg = log.display().to_string();
        let mut host = player(
            "host",
            n,
            &[
                "host",
                "--deadline",
                "5m",
                "--name",
                &format!("Host{n}"),
                "--log",
                &log_arg,
            ],
        );
        let mut lines = BufReader::new(host.stdout.take().unwrap()).lines();
        let code = lines
            .next()
            .expect("the host prints its code")
            .expect("readable");
        std::thread::spawn(move || for _ in lines {});
        hosts.push((KillOnDrop(host), code, log));
    }
    hosts
        .into_iter()
        .enumerate()
        .map(|(n, (host, code, host_log))| {
            let room = code
                .trim()
                .parse::<RoomCode>()
                .expect("a room code")
                .room()
                .to_string();
            let guest_log = dir.path(&format!("guest-{n}.log"));
            let log_arg = guest_log.display().to_string();
            let mut guest = player(
                "guest",
                n,
                &[
                    "join",
                    code.trim(),
                    "--wait",
                    "10m",
                    "--name",
                    &format!("Guest{n}"),
                    "--log",
                    &log_arg,
                ],
            );
            let stdout = guest.stdout.take().unwrap();
            std::thread::spawn(move || for _ in BufReader::new(stdout).lines() {});
            Game {
                room,
                host,
                guest: KillOnDrop(guest),
                logs: [host_log, guest_log],
                guest_data: dir.path(&format!("guest-{n}")),
            }
        })
        .collect()
}

/// Waits until every game has moves in both logs.
fn until_all_play(games: &[Game]) {
    let started = Instant::now();
    while games.iter().any(|g| g.in_both() < 8) {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "every game started: {:?}",
            games.iter().map(Game::in_both).collect::<Vec<_>>()
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// The instance holding at least `peers` of a room, if any.
fn instance_of(cluster: &Cluster, room: &str, peers: u64) -> Option<usize> {
    (0..PORTS.len()).find(|&i| {
        cluster
            .instance(i, &format!("/room/{room}"))
            .and_then(|(_, body): (u16, String)| {
                serde_json::from_str::<serde_json::Value>(&body).ok()
            })
            .is_some_and(|status| status["peers"].as_u64().unwrap_or(0) >= peers)
    })
}

/// A game's time from the fault to its next record in both logs.
struct Recovery {
    from: Instant,
    held: Vec<usize>,
    moved: Vec<Option<Duration>>,
}

impl Recovery {
    fn start(games: &[Game]) -> Recovery {
        Recovery {
            from: Instant::now(),
            held: games.iter().map(Game::in_both).collect(),
            moved: vec![None; games.len()],
        }
    }

    fn look(&mut self, games: &mut [Game]) {
        for (i, game) in games.iter_mut().enumerate() {
            if self.moved[i].is_none() && (game.in_both() > self.held[i] || game.finished()) {
                self.moved[i] = Some(self.from.elapsed());
            }
        }
    }
}

fn percentiles(times: &mut [Duration]) -> String {
    if times.is_empty() {
        return "no games".into();
    }
    times.sort();
    let at = |p: f64| times[((times.len() - 1) as f64 * p).round() as usize];
    format!(
        "p50 {:.2?}, p99 {:.2?}, max {:.2?} ({} games)",
        at(0.5),
        at(0.99),
        times[times.len() - 1],
        times.len()
    )
}

/// Waits for every game to end, noting recoveries; then checks each
/// game's logs and audit.
fn until_all_end(games: &mut [Game], mut recovery: Option<&mut Recovery>) {
    let started = Instant::now();
    let mut progress = (0, Instant::now());
    loop {
        if let Some(recovery) = recovery.as_deref_mut() {
            recovery.look(games);
        }
        if games.iter_mut().all(Game::finished) {
            break;
        }
        let grown: usize = games.iter().map(Game::in_both).sum();
        if grown != progress.0 {
            progress = (grown, Instant::now());
        }
        assert!(
            progress.1.elapsed() < Duration::from_secs(90)
                && started.elapsed() < Duration::from_secs(600),
            "the games stalled: {:?}",
            games.iter().map(Game::in_both).collect::<Vec<_>>()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    for (n, game) in games.iter_mut().enumerate() {
        for (side, process) in [("host", &mut game.host), ("guest", &mut game.guest)] {
            let status = process.wait().unwrap();
            assert!(
                status.success(),
                "game {n}: the {side} exited with {status}"
            );
        }
        let [host, guest] = &game.logs;
        let (h, g) = (std::fs::read(host).unwrap(), std::fs::read(guest).unwrap());
        assert!(
            !h.is_empty() && h == g,
            "game {n}: the two logs are identical"
        );
        let audit = reversi().arg("audit").arg(host).output().unwrap();
        assert!(
            audit.status.success(),
            "game {n}: {}",
            String::from_utf8_lossy(&audit.stdout)
        );
        let said = String::from_utf8_lossy(&audit.stdout);
        let ended = said
            .lines()
            .any(|l| l.starts_with("result") && (l.contains(" wins ") || l.contains("draw")));
        assert!(ended, "game {n} was played to its end: {said}");
    }
}

/// A pseudo-random moment for a fault (seeded by the clock; printed).
fn moment() -> Duration {
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos();
    let wait = Duration::from_millis(u64::from(seed % 4000));
    eprintln!("the fault comes {wait:?} after every game has begun");
    wait
}

/// A lab, or `None` (said why) where none can be made.
fn lab(subnet: u8, proxy: Proxy, dir: &TempDir) -> Option<Cluster> {
    if let Some(why) = cluster_lab::why_not() {
        eprintln!("skipped: {why}");
        return None;
    }
    let signaling = support::signaling_server::server_binary();
    Some(Cluster::build(subnet, proxy, &dir.0, &signaling))
}

fn an_instance_killed_then_a_rolling_restart(proxy: Proxy, subnet: u8) {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|p| p.into_inner());
    let dir = TempDir::new(&format!("cluster-kill-{subnet}"));
    let Some(mut cluster) = lab(subnet, proxy, &dir) else {
        return;
    };
    let mut games = start_games(&cluster, &dir);
    until_all_play(&games);
    // Both players of each game are in its room on one instance, and the
    // rooms are spread over the instances.
    let placed: Vec<Option<usize>> = games
        .iter()
        .map(|g| instance_of(&cluster, &g.room, 2))
        .collect();
    assert!(placed.iter().all(Option::is_some), "{placed:?}");
    let mut per_instance = [0; PORTS.len()];
    for i in placed.iter().flatten() {
        per_instance[*i] += 1;
    }
    eprintln!("{proxy:?}: rooms per instance {per_instance:?}");
    assert!(
        per_instance.iter().filter(|&&n| n > 0).count() >= 2,
        "consistent hashing spreads rooms: {per_instance:?}"
    );
    std::thread::sleep(moment());
    let victim = (0..PORTS.len()).max_by_key(|&i| per_instance[i]).unwrap();
    cluster.kill(victim);
    let mut recovery = Recovery::start(&games);
    // A live game does not need the signaling server while its data
    // channel stands. Make three of the victim's games need it: their
    // guest's program crashes and is resumed, so both sides must meet
    // again through the proxy, which must send both to one instance.
    let crashed: Vec<usize> = (0..games.len())
        .filter(|&n| placed[n] == Some(victim))
        .take(3)
        .collect();
    for &n in &crashed {
        let game = &mut games[n];
        game.guest.kill().unwrap();
        let _ = game.guest.wait();
        let log = game.logs[1].display().to_string();
        let stderr = dir.path(&format!("guest-{n}.stderr"));
        let mut resumed = program(&cluster, &game.guest_data, &["resume", &log], &stderr);
        let stdout = resumed.stdout.take().unwrap();
        std::thread::spawn(move || for _ in BufReader::new(stdout).lines() {});
        game.guest = KillOnDrop(resumed);
    }
    let mut moved_to: Vec<Option<(usize, Duration)>> = vec![None; games.len()];
    let watching = Instant::now();
    while crashed.iter().any(|&n| moved_to[n].is_none())
        && watching.elapsed() < Duration::from_secs(120)
    {
        for &n in &crashed {
            if moved_to[n].is_none() && !games[n].finished() {
                moved_to[n] =
                    instance_of(&cluster, &games[n].room, 2).map(|i| (i, watching.elapsed()));
            }
        }
        recovery.look(&mut games);
        std::thread::sleep(Duration::from_millis(200));
    }
    for &n in &crashed {
        let (to, after) = moved_to[n].unwrap_or_else(|| {
            let alone = instance_of(&cluster, &games[n].room, 1);
            panic!(
                "game {n}'s two players met on no instance within 120 s (one player on {alone:?}; \
                 records in both logs {}).\nThe end of the host's stderr:\n{}\nThe end of the guest's stderr:\n{}",
                games[n].in_both(),
                support::file_tail(&dir.path(&format!("host-{n}.stderr")), 25),
                support::file_tail(&dir.path(&format!("guest-{n}.stderr")), 25),
            )
        });
        assert_ne!(to, victim, "game {n} moved to a live instance");
        eprintln!(
            "{proxy:?}: game {n} (guest crashed and resumed) met again on instance {to} after {after:.1?}"
        );
    }
    // Then a rolling restart of every instance, the dead one first, while
    // the same games go on.
    let mut restarted = rolling_restart(&mut cluster, &mut games, proxy, victim, &mut recovery);
    until_all_end(&mut games, Some(&mut recovery));
    let mut moved: Vec<Duration> = placed
        .iter()
        .zip(&recovery.moved)
        .filter(|(on, _)| **on == Some(victim))
        .filter_map(|(_, moved)| *moved)
        .collect();
    eprintln!(
        "{proxy:?}: instance {victim} killed with {} games; their next move after {}",
        per_instance[victim],
        percentiles(&mut moved)
    );
    eprintln!(
        "{proxy:?}: rolling restart; next moves after each restart: {}",
        percentiles(&mut restarted)
    );
}

/// Restarts every instance in turn (`first` first), each when the one
/// before is ready and the proxy has seen it back, noting each game's
/// next move; returns the times from each restart to those moves.
fn rolling_restart(
    cluster: &mut Cluster,
    games: &mut [Game],
    proxy: Proxy,
    first: usize,
    also: &mut Recovery,
) -> Vec<Duration> {
    let mut moved = Vec::new();
    for i in (0..PORTS.len()).map(|k| (first + k) % PORTS.len()) {
        cluster.stop(i);
        let mut recovery = Recovery::start(games);
        cluster.start(i);
        let ready = cluster.until_ready(i, Duration::from_secs(30));
        // HAProxy marks it up after two checks a second apart.
        let settle = Instant::now();
        while settle.elapsed() < Duration::from_secs(3) {
            recovery.look(games);
            also.look(games);
            std::thread::sleep(Duration::from_millis(50));
        }
        eprintln!("{proxy:?}: instance {i} restarted, ready after {ready:?}");
        moved.extend(recovery.moved.iter().flatten());
    }
    moved
}

#[test]
#[ignore = "slow: three instances, a proxy and 20 live games in namespaces; tests/all.sh runs it"]
fn behind_nginx_every_game_survives_an_instance_killed_then_a_rolling_restart() {
    an_instance_killed_then_a_rolling_restart(Proxy::Nginx, 41);
}

#[test]
#[ignore = "slow: three instances, a proxy and 20 live games in namespaces; tests/all.sh runs it"]
fn behind_haproxy_every_game_survives_an_instance_killed_then_a_rolling_restart() {
    an_instance_killed_then_a_rolling_restart(Proxy::Haproxy, 42);
}

#[test]
#[ignore = "slow: three instances, a proxy and 20 live games in namespaces; tests/all.sh runs it"]
fn live_games_go_on_while_postgres_is_down_and_the_instances_recover() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|p| p.into_inner());
    let dir = TempDir::new("cluster-postgres");
    let Some(cluster) = lab(45, Proxy::Haproxy, &dir) else {
        return;
    };
    let mut games = start_games(&cluster, &dir);
    until_all_play(&games);
    std::thread::sleep(moment());
    cluster.postgres().stop();
    let down = Instant::now();
    let before: usize = games.iter().map(Game::in_both).sum();
    let mut said = None;
    while down.elapsed() < Duration::from_secs(10) {
        for i in 0..PORTS.len() {
            if let Some((503, body)) = cluster.instance(i, "/ready") {
                said.get_or_insert(body);
            }
        }
        std::thread::sleep(Duration::from_millis(500));
    }
    let during: usize = games.iter().map(Game::in_both).sum();
    let said = said.expect("/ready failed while the database was down");
    eprintln!("while PostgreSQL was down, /ready said {said}");
    assert!(said.contains("\"ready\":false"), "{said}");
    assert!(
        during > before,
        "the live games moved on without the database: {before} → {during} records"
    );
    cluster.postgres().start_again();
    for i in 0..PORTS.len() {
        let took = cluster.until_ready(i, Duration::from_secs(30));
        eprintln!("instance {i} ready {took:?} after PostgreSQL came back");
    }
    until_all_end(&mut games, None);
    // New games start through the recovered instances.
    let again_dir = TempDir::new("cluster-postgres-again");
    let mut again = start_games(&cluster, &again_dir);
    until_all_play(&again);
    drop(again.drain(..));
}
