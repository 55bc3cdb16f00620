//! `reversi host`, `join` and `resume` as separate programs over real
//! WebRTC on loopback, through the embedded or a stand-alone signaling
//! server.

#![cfg(unix)]

mod support;

use support::{KillOnDrop, TempDir};

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

/// One networked game at a time: on a 2-core machine parallel games starve
/// each other's WebRTC connection checks.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(|p| p.into_inner())
}

fn reversi() -> Command {
    support::reversi()
}

/// `reversi host` on loopback, with its data and log in `dir`.
fn host_command(dir: &TempDir, extra: &[&str]) -> Command {
    let mut command = reversi();
    command
        .args([
            "--data-dir",
            dir.path("host").to_str().unwrap(),
            "host",
            "--listen",
            "127.0.0.1:0",
        ])
        .args(["--log", dir.path("host.log").to_str().unwrap()])
        .args(extra);
    command
}

/// Starts a host and returns it with its room code (the first stdout line).
fn start_host(dir: &TempDir, extra: &[&str]) -> (KillOnDrop, String) {
    let child = host_command(dir, extra)
        .stdout(Stdio::piped())
        // A file, not a pipe: a pipe nobody reads fills up and blocks the host.
        .stderr(std::fs::File::create(dir.path("host.stderr")).unwrap())
        .spawn()
        .unwrap();
    let mut child = KillOnDrop(child);
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let code = lines.next().expect("the code line").unwrap();
    // Keep reading the rest in the background so the host never blocks.
    std::thread::spawn(move || for _ in lines {});
    (child, code)
}

/// `reversi join CODE` as the guest, with its data and log in `dir`.
fn guest_command(dir: &TempDir, code: &str, extra: &[&str]) -> Command {
    let mut command = reversi();
    command
        .args([
            "--data-dir",
            dir.path("guest").to_str().unwrap(),
            "join",
            code,
        ])
        .args(["--log", dir.path("guest.log").to_str().unwrap()])
        .args(extra);
    command
}

/// Runs `join` to the end, killing it (and failing) if it takes over 90 s.
fn join(dir: &TempDir, code: &str, extra: &[&str]) -> Output {
    finish(guest_command(dir, code, extra), "join")
}

/// Runs a command to the end with its output captured, killing it (and
/// failing) if it takes over 90 s.
fn finish(mut command: Command, what: &str) -> Output {
    let child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let id = child.id();
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let finished = done.clone();
    let watchdog = std::thread::spawn(move || {
        for _ in 0..900 {
            if finished.load(std::sync::atomic::Ordering::SeqCst) {
                return false;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let _ = Command::new("kill")
            .args(["-KILL", &id.to_string()])
            .status();
        true
    });
    let output = child.wait_with_output().unwrap();
    done.store(true, std::sync::atomic::Ordering::SeqCst);
    assert!(!watchdog.join().unwrap(), "{what} hung and was killed");
    output
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn audit(log: &Path) -> Output {
    reversi()
        .args(["audit", log.to_str().unwrap()])
        .output()
        .unwrap()
}

fn wait(child: &mut KillOnDrop) -> i32 {
    for _ in 0..600 {
        if let Some(status) = child.try_wait().unwrap() {
            return status.code().unwrap_or(-1);
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    panic!("the host did not finish within a minute");
}

fn play_full_game(name: &str, rules: &[&str]) {
    let dir = TempDir::new(name);
    let mut host_args = vec!["--bot", "2"];
    host_args.extend_from_slice(rules);
    let (mut host, code) = start_host(&dir, &host_args);
    let guest = join(&dir, &code, &["--bot", "3"]);
    assert_eq!(
        guest.status.code(),
        Some(0),
        "guest: {}",
        text(&guest.stderr)
    );
    assert!(
        text(&guest.stdout).contains("(board finished)"),
        "{}",
        text(&guest.stdout)
    );
    assert_eq!(wait(&mut host), 0);
    let host_log = std::fs::read(dir.path("host.log")).unwrap();
    let guest_log = std::fs::read(dir.path("guest.log")).unwrap();
    assert_eq!(host_log, guest_log, "both logs identical byte for byte");
    // Both programs show the same safety code.
    let code_in = |stderr: &str| {
        stderr
            .lines()
            .find_map(|l| l.strip_prefix("safety code: "))
            .map(|rest| rest[..23].to_string())
    };
    let host_stderr = std::fs::read_to_string(dir.path("host.stderr")).unwrap();
    let guest_code = code_in(&text(&guest.stderr));
    assert!(guest_code.is_some(), "{}", text(&guest.stderr));
    assert_eq!(code_in(&host_stderr), guest_code);
    let words_in = |stderr: &str| {
        stderr
            .lines()
            .find_map(|l| l.strip_prefix("safety words: "))
            .and_then(|rest| rest.split(" — ").next())
            .map(str::to_string)
    };
    let guest_words = words_in(&text(&guest.stderr));
    assert!(
        guest_words
            .as_ref()
            .is_some_and(|w| w.split(' ').count() == 6),
        "{}",
        text(&guest.stderr)
    );
    assert_eq!(words_in(&host_stderr), guest_words, "the same safety words");
    let report = audit(&dir.path("guest.log"));
    assert!(report.status.success(), "{}", text(&report.stderr));
}

#[ignore = "a real WebRTC game (slow): tests/all.sh runs it"]
#[test]
fn complete_games_under_othello_classic_and_torus_with_walls() {
    let _serial = serial();
    play_full_game("othello", &[]);
    play_full_game("classic", &["--rules", "classic"]);
    play_full_game("torus", &["--rules", "torus", "--walls", "a1,h8,c6"]);
}

#[test]
fn a_mistyped_code_is_refused_before_any_connection() {
    let _serial = serial();
    let dir = TempDir::new("typo");
    let output = join(&dir, "K7QF-M2XA-PZ4R-TB6H-C@127.0.0.1:9", &[]);
    assert_eq!(output.status.code(), Some(1));
    let err = text(&output.stderr);
    assert!(err.contains("typo") || err.contains("room code"), "{err}");
    let output = join(&dir, "hello", &[]);
    assert!(text(&output.stderr).contains("21 characters"));
}

#[test]
fn a_code_for_a_room_nobody_hosts_times_out_clearly() {
    let _serial = serial();
    let dir = TempDir::new("nobody");
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let server = runtime.block_on(support::signaling_server::in_process(Default::default()));
    let nobody = reversi::match_log::Identity::from_seed(9).public_key();
    let code = reversi::net::room_code::RoomCode::generate(
        &nobody,
        Some(reversi::net::server_url::ServerUrl::from_socket_addr(
            server.addr,
        )),
    )
    .unwrap();
    let output = join(&dir, &code.to_string(), &["--wait", "2s"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        text(&output.stderr).contains("nobody joined the room within 2 s"),
        "{}",
        text(&output.stderr)
    );
}

#[ignore = "a real WebRTC game (slow): tests/all.sh runs it"]
#[test]
fn a_third_player_is_refused_from_a_full_room() {
    let _serial = serial();
    let dir = TempDir::new("third");
    let (host, code) = start_host(&dir, &["--bot", "1", "--move-delay", "200ms"]);
    let _guest = KillOnDrop(
        guest_command(&dir, &code, &["--bot", "1", "--move-delay", "200ms"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    std::thread::sleep(Duration::from_secs(2));
    let mut third = reversi();
    third
        .args([
            "--data-dir",
            dir.path("third").to_str().unwrap(),
            "join",
            &code,
        ])
        .args([
            "--log",
            dir.path("third.log").to_str().unwrap(),
            "--wait",
            "10s",
        ]);
    let third = finish(third, "the third player");
    assert_eq!(third.status.code(), Some(1));
    assert!(
        text(&third.stderr).contains("the room is full"),
        "{}",
        text(&third.stderr)
    );
    drop(host);
}

#[ignore = "a real WebRTC game (slow): tests/all.sh runs it"]
#[test]
fn a_killed_player_resumes_from_its_log_and_the_game_completes() {
    let _serial = serial();
    let dir = TempDir::new("resume");
    let (mut host, code) = start_host(&dir, &["--bot", "2", "--move-delay", "50ms"]);
    let guest_dir = dir.path("guest");
    let guest_log = dir.path("guest.log");
    let mut guest = KillOnDrop(
        guest_command(&dir, &code, &["--bot", "2", "--move-delay", "50ms"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    // Wait until some moves are logged, then kill the guest outright.
    // (A cold machine may take several seconds to connect: allow a minute.)
    let logged = || {
        std::fs::read_to_string(&guest_log)
            .map(|t| t.lines().count())
            .unwrap_or(0)
    };
    for _ in 0..2400 {
        if logged() >= 14 {
            break;
        }
        std::thread::sleep(Duration::from_millis(25));
    }
    assert!(logged() >= 14, "the game got under way before the kill");
    let killed = Command::new("kill")
        .args(["-KILL", &guest.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let _ = guest.wait();
    let mut resume = reversi();
    resume.args([
        "--data-dir",
        guest_dir.to_str().unwrap(),
        "resume",
        guest_log.to_str().unwrap(),
        "--bot",
        "2",
    ]);
    let resumed = finish(resume, "resume");
    assert_eq!(resumed.status.code(), Some(0), "{}", text(&resumed.stderr));
    assert_eq!(wait(&mut host), 0);
    assert_eq!(
        std::fs::read(dir.path("host.log")).unwrap(),
        std::fs::read(&guest_log).unwrap(),
        "identical logs after the resume"
    );
    assert!(audit(&guest_log).status.success());
}

/// A player of `reversi host --draw-by-lot` or `join` answering from a
/// pipe: the test writes its lines and keeps the pipe open meanwhile.
struct Typist {
    child: KillOnDrop,
    input: std::process::ChildStdin,
}

impl Typist {
    fn say(&mut self, line: &str) {
        use std::io::Write as _;
        writeln!(self.input, "{line}").unwrap();
    }
}

fn typist(mut command: Command, stderr: &Path) -> (Typist, std::process::ChildStdout) {
    let mut child = KillOnDrop(
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(stderr).unwrap())
            .spawn()
            .unwrap(),
    );
    let input = child.stdin.take().unwrap();
    let output = child.stdout.take().unwrap();
    (Typist { child, input }, output)
}

/// The host with its stdin piped, and its room code.
fn typing_host(dir: &TempDir, extra: &[&str]) -> (Typist, String) {
    let (host, stdout) = typist(host_command(dir, extra), &dir.path("host.stderr"));
    let mut lines = BufReader::new(stdout).lines();
    let code = lines.next().expect("the code line").unwrap();
    std::thread::spawn(move || for _ in lines {});
    (host, code)
}

fn records_in(log: &Path) -> usize {
    std::fs::read_to_string(log)
        .map(|t| t.lines().count())
        .unwrap_or(0)
}

/// Waits (up to a minute) until both logs hold `n` records.
fn wait_for_records(dir: &TempDir, n: usize) {
    for _ in 0..2400 {
        if records_in(&dir.path("host.log")) >= n && records_in(&dir.path("guest.log")) >= n {
            return;
        }
        std::thread::sleep(Duration::from_millis(25));
    }
    panic!(
        "expected {n} records in both logs; host {}, guest {}",
        records_in(&dir.path("host.log")),
        records_in(&dir.path("guest.log"))
    );
}

fn audit_json(log: &Path) -> serde_json::Value {
    let output = reversi()
        .args(["audit", log.to_str().unwrap(), "--json"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", text(&output.stderr));
    serde_json::from_slice(&output.stdout).unwrap()
}

#[ignore = "a real WebRTC game (slow): tests/all.sh runs it"]
#[test]
fn the_draw_by_lot_choices_are_asked_of_the_right_player_and_signed_over_webrtc() {
    let _serial = serial();
    let dir = TempDir::new("lot");
    // The host answers whichever question it is asked with "white", then
    // resigns at its first move; the guest is a bot.
    let (mut host, code) = typing_host(&dir, &["--draw-by-lot"]);
    host.say("white");
    host.say("resign");
    let guest = join(&dir, &code, &["--bot", "1"]);
    assert_eq!(
        guest.status.code(),
        Some(0),
        "guest: {}",
        text(&guest.stderr)
    );
    assert_eq!(wait(&mut host.child), 0);
    let host_stderr = std::fs::read_to_string(dir.path("host.stderr")).unwrap();
    let guest_stderr = text(&guest.stderr);
    assert_eq!(
        std::fs::read(dir.path("host.log")).unwrap(),
        std::fs::read(dir.path("guest.log")).unwrap()
    );
    let json = audit_json(&dir.path("guest.log"));
    assert_eq!(json["rules"]["draw"], "chosen by lot");
    let chooser = json["tie_chooser"].as_str().unwrap().to_string();
    let tie = &json["choices"]["tie_winner"];
    let color = &json["choices"]["seat_color"];
    assert_eq!(tie["seat"], chooser.as_str());
    assert_eq!(tie["record"], 4);
    assert_ne!(color["seat"], chooser.as_str());
    assert_eq!(color["record"], 5);
    if chooser == "host" {
        // Asked first, the host made White win an equal count; the bot
        // then took the colour that wins it.
        assert!(
            host_stderr.contains("which colour wins if the discs are equal?"),
            "{host_stderr}"
        );
        assert_eq!(tie["color"], "white");
        assert_eq!(color["color"], "white");
        assert_eq!(json["host"]["color"], "black");
        assert!(
            guest_stderr.contains("the opponent chose: an equal count wins for white"),
            "{guest_stderr}"
        );
    } else {
        // The bot made White win an equal count; the host chose to play White.
        assert!(
            host_stderr.contains("which colour do you play?"),
            "{host_stderr}"
        );
        assert!(
            host_stderr.contains("the opponent chose: an equal count wins for white"),
            "{host_stderr}"
        );
        assert_eq!(tie["color"], "white");
        assert_eq!(color["color"], "white");
        assert_eq!(json["host"]["color"], "white");
    }
    assert_eq!(json["tie_goes_to"], "white");
    assert!(
        json["result"]["ending"]
            .as_str()
            .unwrap()
            .ends_with("resigned")
    );
    assert_eq!(json["result"]["winner_seat"], "guest");
    let report = text(&audit(&dir.path("host.log")).stdout);
    assert!(
        report.contains("tie winner") && report.contains("chose white to win an equal count"),
        "{report}"
    );
}

/// Sets a draw-by-lot game up between two silent typists, lets the
/// chooser answer the first question when `answer_first` says so, stops
/// both, and returns (late seat, claimant seat) as the log names them.
fn stop_before_a_choice(dir: &TempDir, answer_first: bool) -> (String, String) {
    let (mut host, code) = typing_host(dir, &["--draw-by-lot", "--deadline", "5m"]);
    let (mut guest, _) = typist(guest_command(dir, &code, &[]), &dir.path("guest.stderr"));
    wait_for_records(dir, 4);
    let chooser = audit_json(&dir.path("host.log"))["tie_chooser"]
        .as_str()
        .unwrap()
        .to_string();
    let other = if chooser == "host" { "guest" } else { "host" }.to_string();
    if answer_first {
        if chooser == "host" {
            &mut host
        } else {
            &mut guest
        }
        .say("black");
        wait_for_records(dir, 5);
    }
    drop(host);
    drop(guest);
    if answer_first {
        (other, chooser)
    } else {
        (chooser, other)
    }
}

fn resume_command(dir: &TempDir, seat: &str) -> Command {
    let mut command = reversi();
    command.args([
        "--data-dir",
        dir.path(seat).to_str().unwrap(),
        "resume",
        dir.path(&format!("{seat}.log")).to_str().unwrap(),
    ]);
    command
}

#[ignore = "a real WebRTC game (slow): tests/all.sh runs it"]
#[test]
fn a_missed_tie_winner_choice_and_a_missed_colour_choice_are_claimed_over_webrtc() {
    let _serial = serial();
    for (answer_first, missed) in [(false, "tie winner"), (true, "colour")] {
        let dir = TempDir::new(&format!("lot-late-{answer_first}"));
        let (late, claimant) = stop_before_a_choice(&dir, answer_first);
        // Both come back: the late player still silent (first, since the
        // host restarts the embedded server), the other with its clock six
        // minutes on, past the five-minute deadline.
        let (late_first, claimant_first) = (late == "host", claimant == "host");
        let mut late_player = None;
        if late_first {
            late_player = Some(typist(resume_command(&dir, &late), &dir.path("late.stderr")).0);
        }
        let mut claim = resume_command(&dir, &claimant);
        claim.args(["--bot", "1"]).env("REVERSI_CLOCK_OFFSET", "6m");
        let claimer = if claimant_first {
            let child = KillOnDrop(
                claim
                    .stdout(Stdio::piped())
                    .stderr(std::fs::File::create(dir.path("claim.stderr")).unwrap())
                    .spawn()
                    .unwrap(),
            );
            std::thread::sleep(Duration::from_millis(500));
            late_player = Some(typist(resume_command(&dir, &late), &dir.path("late.stderr")).0);
            Some(child)
        } else {
            None
        };
        let claimed = match claimer {
            Some(mut child) => wait(&mut child),
            None => finish(claim, "claim").status.code().unwrap_or(-1),
        };
        let claim_stderr = std::fs::read_to_string(dir.path("claim.stderr")).unwrap_or_default();
        assert_eq!(claimed, 0, "{missed}: {claim_stderr}");
        let mut late_player = late_player.unwrap();
        assert_eq!(
            wait(&mut late_player.child),
            0,
            "{missed}: the late player learns it lost"
        );
        let late_stderr = std::fs::read_to_string(dir.path("late.stderr")).unwrap();
        assert!(
            late_stderr.contains("ran out of time"),
            "{missed}: {late_stderr}"
        );
        assert_eq!(
            std::fs::read(dir.path("host.log")).unwrap(),
            std::fs::read(dir.path("guest.log")).unwrap(),
            "{missed}: identical logs"
        );
        let json = audit_json(&dir.path("host.log"));
        assert!(
            json["result"]["ending"]
                .as_str()
                .unwrap()
                .ends_with("ran out of time"),
            "{missed}: {}",
            json["result"]
        );
        assert_eq!(json["result"]["winner_seat"], claimant.as_str(), "{missed}");
        let tie_chosen = !json["choices"]["tie_winner"].is_null();
        assert_eq!(tie_chosen, answer_first, "{missed}");
        assert!(json["choices"]["seat_color"].is_null(), "{missed}");
    }
}

#[ignore = "a real WebRTC game (slow): tests/all.sh runs it"]
#[test]
fn a_spectator_follows_a_live_webrtc_game_through_the_mailbox() {
    let _serial = serial();
    let dir = TempDir::new("watch-live");
    let server = support::signaling_server::Server::start(":memory:");
    let (mut host, code) = start_host(
        &dir,
        &[
            "--server",
            &server.url(),
            "--bot",
            "1",
            "--move-delay",
            "150ms",
        ],
    );
    let guest = KillOnDrop(
        guest_command(&dir, &code, &["--bot", "1", "--move-delay", "150ms"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    // The host says the watch code once the game exists.
    let mut watch = None;
    for _ in 0..2400 {
        let said = std::fs::read_to_string(dir.path("host.stderr")).unwrap_or_default();
        watch = said
            .lines()
            .find_map(|l| l.strip_prefix("watch code for spectators: "))
            .map(str::to_string);
        if watch.is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(25));
    }
    let watch = watch.expect("the host printed a watch code");
    let mut follow = reversi();
    follow.args(["watch", &watch, "--every", "200ms"]);
    let followed = finish(follow, "watch");
    let out = text(&followed.stdout);
    assert!(followed.status.success(), "{}", text(&followed.stderr));
    assert!(out.contains("game over:"), "{out}");
    assert_eq!(wait(&mut host), 0);
    drop(guest);
    let report = audit_json(&dir.path("host.log"));
    let moves = report["moves"].as_array().unwrap().len();
    let shown = out
        .lines()
        .filter(|l| {
            let t = l.trim_start();
            t.split_once(". ")
                .is_some_and(|(n, _)| n.parse::<usize>().is_ok())
        })
        .count();
    assert_eq!(shown, moves, "the spectator saw every move: {out}");
}

/// Starts a command with its standard error in a file.
fn spawn_logged(mut command: Command, stderr: &Path) -> KillOnDrop {
    KillOnDrop(
        command
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(stderr).unwrap())
            .spawn()
            .unwrap(),
    )
}

#[ignore = "a real WebRTC game (slow): tests/all.sh runs it"]
#[test]
fn a_rematch_is_played_when_accepted_and_stops_when_declined() {
    let _serial = serial();
    let dir = TempDir::new("rematch");
    let (mut host, code) = start_host(&dir, &["--bot", "1"]);
    let guest = join(&dir, &code, &["--bot", "1"]);
    assert_eq!(guest.status.code(), Some(0), "{}", text(&guest.stderr));
    assert_eq!(wait(&mut host), 0);
    let first = audit_json(&dir.path("host.log"));
    let rematch = |seat: &str, old: &str, new: &str, extra: &[&str]| {
        let mut command = reversi();
        command
            .args(["--data-dir", dir.path(seat).to_str().unwrap(), "rematch"])
            .arg(dir.path(old))
            .args(["--new-log", dir.path(new).to_str().unwrap()])
            .args(extra);
        command
    };
    // Accepted: the old host proposes (and runs its embedded server again),
    // the old guest's bot accepts; a whole new game is played.
    let proposer = spawn_logged(
        rematch("host", "host.log", "host2.log", &["--bot", "1"]),
        &dir.path("proposer.stderr"),
    );
    std::thread::sleep(Duration::from_millis(500));
    let answer = finish(
        rematch(
            "guest",
            "guest.log",
            "guest2.log",
            &["--wait", "--accept", "--bot", "1"],
        ),
        "rematch --wait",
    );
    assert_eq!(answer.status.code(), Some(0), "{}", text(&answer.stderr));
    let mut proposer = proposer;
    assert_eq!(
        wait(&mut proposer),
        0,
        "{}",
        std::fs::read_to_string(dir.path("proposer.stderr")).unwrap()
    );
    assert_eq!(
        std::fs::read(dir.path("host2.log")).unwrap(),
        std::fs::read(dir.path("guest2.log")).unwrap()
    );
    let second = audit_json(&dir.path("guest2.log"));
    assert_eq!(
        second["previous_game"], first["game_id"],
        "the genesis names the game before"
    );
    assert_ne!(second["game_id"], first["game_id"]);
    assert_eq!(second["rules"], first["rules"]);
    assert_eq!(second["deadline_secs"], first["deadline_secs"]);
    for seat in ["host", "guest"] {
        assert_eq!(second[seat]["key"], first[seat]["key"], "the same players");
    }
    assert_ne!(second["seed"], first["seed"], "a new coin flip");
    assert!(second["result"]["winner"].is_string() || second["result"]["ending"].is_string());
    // Declined: the old guest proposes a rematch of the second game, the
    // old host declines; nothing is played, both say so.
    let proposer = spawn_logged(
        rematch("guest", "guest2.log", "guest3.log", &["--bot", "1"]),
        &dir.path("proposer3.stderr"),
    );
    std::thread::sleep(Duration::from_millis(500));
    let answer = finish(
        rematch("host", "host2.log", "host3.log", &["--wait", "--decline"]),
        "rematch --wait --decline",
    );
    assert_eq!(answer.status.code(), Some(0), "{}", text(&answer.stderr));
    assert!(text(&answer.stdout).contains("you declined the rematch"));
    let mut proposer = proposer;
    assert_eq!(wait(&mut proposer), 1);
    let said = std::fs::read_to_string(dir.path("proposer3.stderr")).unwrap();
    assert!(said.contains("the opponent declined the rematch"), "{said}");
    assert!(
        !dir.path("host3.log").exists(),
        "a declined proposal leaves no log"
    );
    assert!(!dir.path("guest3.log").exists());
}
