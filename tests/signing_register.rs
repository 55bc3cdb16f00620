//! The register of signed records and the index of game homes, through
//! the real programs and a real `reversi-signaling` mailbox: an identity
//! never signs two different records at one place of one game, whatever
//! the files, the commands or the timing.

#![cfg(unix)]

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use reversi::match_log::Record;
use reversi::match_log::log_file::read_log;
use serde_json::Value;
use support::TempDir;
use support::signaling_server::Server;

/// One player: a data directory.
struct Player {
    dir: PathBuf,
}

impl Player {
    fn new(dir: &TempDir, name: &str) -> Player {
        Player {
            dir: dir.path(name),
        }
    }

    fn command(&self, args: &[&str]) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_reversi"));
        command
            .arg("--data-dir")
            .arg(&self.dir)
            .args(args)
            .stdin(Stdio::null());
        command
    }

    fn run(&self, args: &[&str]) -> Output {
        let output = self.command(args).output().unwrap();
        // Shown when a test fails.
        eprint!("{}", String::from_utf8_lossy(&output.stderr));
        output
    }

    fn ok(&self, args: &[&str]) -> String {
        let output = self.run(args);
        assert!(
            output.status.success(),
            "reversi {args:?} failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8(output.stdout).unwrap()
    }

    /// `reversi games --json`: the games listed, and what was said on the way.
    fn games(&self, server: &Server) -> (Vec<Value>, String) {
        let output = self.run(&["games", "--json", "--server", &server.url()]);
        assert!(output.status.success());
        let listed: Value = serde_json::from_slice(&output.stdout).unwrap();
        (
            listed.as_array().unwrap().clone(),
            String::from_utf8_lossy(&output.stderr).into_owned(),
        )
    }

    /// The logs in the data directory's games folder.
    fn default_logs(&self) -> Vec<PathBuf> {
        let Ok(entries) = std::fs::read_dir(self.dir.join("games")) else {
            return Vec::new();
        };
        entries
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "log"))
            .collect()
    }
}

fn text(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

fn records(log: &Path) -> Vec<Record> {
    read_log(log).unwrap().records
}

/// No two records of one author share a place with different bytes,
/// across every log given.
fn assert_no_equivocation(logs: &[&Path]) {
    let mut seen: std::collections::BTreeMap<(u32, u8), Record> = Default::default();
    for log in logs {
        let Ok(loaded) = read_log(log) else {
            continue;
        };
        for record in loaded.records {
            let key = (record.content().seq, record.content().author as u8);
            if let Some(earlier) = seen.get(&key) {
                assert_eq!(
                    earlier,
                    &record,
                    "two different records at place {} ({})",
                    key.0,
                    log.display()
                );
            } else {
                seen.insert(key, record);
            }
        }
    }
}

/// Whoever is to move plays their first legal square from their own log,
/// `count` times at most; returns the moves played.
fn play(server: &Server, sides: [(&Player, &Path); 2], count: usize) -> usize {
    for played in 0..count {
        let views: Vec<Option<Value>> = sides
            .iter()
            .map(|(p, _)| p.games(server).0.first().cloned())
            .collect();
        let mover = views
            .iter()
            .position(|v| v.as_ref().is_some_and(|v| v["my_turn"] == true));
        let Some(mover) = mover else {
            return played;
        };
        let view = views[mover].as_ref().unwrap();
        assert_eq!(
            Path::new(view["log"].as_str().unwrap()),
            std::fs::canonicalize(sides[mover].1).unwrap(),
            "the game is listed at its home"
        );
        let square = view["legal"][0].as_str().unwrap().to_string();
        let (player, log) = sides[mover];
        player.ok(&[
            "move",
            log.to_str().unwrap(),
            &square,
            "--server",
            &server.url(),
        ]);
    }
    count
}

#[test]
fn a_game_joined_with_a_named_log_is_found_there_and_never_signed_in_a_second_copy() {
    let dir = TempDir::new("register-named-logs");
    let server = Server::start(":memory:");
    let (host, guest) = (Player::new(&dir, "h"), Player::new(&dir, "g"));
    let (h_log, g_log) = (dir.path("h.log"), dir.path("g.log"));
    let url = server.url();
    let code = host.ok(&[
        "host",
        "--server",
        &url,
        "--detach",
        "--deadline",
        "1d",
        "--log",
        h_log.to_str().unwrap(),
    ]);
    guest.ok(&[
        "join",
        code.trim(),
        "--server",
        &url,
        "--detach",
        "--log",
        g_log.to_str().unwrap(),
    ]);
    // Before the register, this restored a second copy into g/games and
    // signed the guest's setup step there.
    let (listed, said) = guest.games(&server);
    assert!(!said.contains("restored"), "{said}");
    assert!(
        guest.default_logs().is_empty(),
        "{:?}",
        guest.default_logs()
    );
    assert_eq!(listed.len(), 1);
    assert_eq!(
        Path::new(listed[0]["log"].as_str().unwrap()),
        std::fs::canonicalize(&g_log).unwrap()
    );
    // The move the issue tried: either played, or refused because the
    // setup is not finished, but never an equivocation.
    let tried = guest.run(&["move", g_log.to_str().unwrap(), "d3", "--server", &url]);
    assert!(!text(&tried).contains("equivocation"), "{}", text(&tried));
    host.games(&server);
    guest.games(&server);
    let played = play(&server, [(&host, &h_log), (&guest, &g_log)], 12);
    assert_eq!(played, 12, "the game goes on from the named logs");
    assert!(guest.default_logs().is_empty() && host.default_logs().is_empty());
    assert_no_equivocation(&[&h_log, &g_log]);
    // Each side's log holds the other's records too: one chain.
    host.games(&server);
    guest.games(&server);
    assert_eq!(records(&h_log), records(&g_log));
}

/// A game of two default logs, set up and a few moves in; returns the
/// players and their logs.
fn game_in_progress(dir: &TempDir, server: &Server) -> (Player, Player, PathBuf, PathBuf) {
    let (host, guest) = (Player::new(dir, "host"), Player::new(dir, "guest"));
    let url = server.url();
    let code = host.ok(&["host", "--server", &url, "--detach", "--deadline", "1d"]);
    guest.ok(&["join", code.trim(), "--server", &url, "--detach"]);
    host.games(server);
    guest.games(server);
    let (h_log, g_log) = (
        host.default_logs()[0].clone(),
        guest.default_logs()[0].clone(),
    );
    play(server, [(&host, &h_log), (&guest, &g_log)], 2);
    (host, guest, h_log, g_log)
}

#[test]
fn two_moves_started_at_the_same_moment_sign_once() {
    let dir = TempDir::new("register-concurrent");
    let server = Server::start(":memory:");
    let (host, guest, h_log, g_log) = game_in_progress(&dir, &server);
    let (mover, log) = {
        let (h, _) = host.games(&server);
        if h[0]["my_turn"] == true {
            (&host, h_log.clone())
        } else {
            (&guest, g_log.clone())
        }
    };
    let legal: Vec<String> = mover.games(&server).0[0]["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect();
    let second = legal.last().unwrap().clone();
    let url = server.url();
    let start = |square: &str| {
        mover
            .command(&["move", log.to_str().unwrap(), square, "--server", &url])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let (a, b) = (start(&legal[0]), start(&second));
    let (a, b) = (a.wait_with_output().unwrap(), b.wait_with_output().unwrap());
    let succeeded = [&a, &b].iter().filter(|o| o.status.success()).count();
    assert_eq!(
        succeeded,
        1,
        "one signs, the other is refused:\n{}\n{}",
        text(&a),
        text(&b)
    );
    let refused = if a.status.success() { &b } else { &a };
    assert!(
        text(refused).contains("not your turn") || text(refused).contains("refused to sign"),
        "{}",
        text(refused)
    );
    for output in [&a, &b] {
        assert!(!text(output).contains("equivocation"), "{}", text(output));
    }
    // The log holds each record once, and the game goes on.
    let held = records(&log);
    let places: Vec<u32> = held.iter().map(|r| r.content().seq).collect();
    assert_eq!(places, (0..held.len() as u32).collect::<Vec<_>>());
    assert_eq!(play(&server, [(&host, &h_log), (&guest, &g_log)], 4), 4);
    host.games(&server);
    guest.games(&server);
    assert_eq!(records(&h_log), records(&g_log));
}

#[test]
fn a_log_copied_to_a_second_path_and_both_used_never_equivocates() {
    let dir = TempDir::new("register-copied");
    let server = Server::start(":memory:");
    let (host, guest, h_log, g_log) = game_in_progress(&dir, &server);
    let url = server.url();
    if guest.games(&server).0[0]["my_turn"] != true {
        let square = host.games(&server).0[0]["legal"][0]
            .as_str()
            .unwrap()
            .to_string();
        host.ok(&["move", h_log.to_str().unwrap(), &square, "--server", &url]);
    }
    // The guest copies their log elsewhere (a backup, another folder),
    // then moves in the original.
    let copy = dir.path("backup.log");
    std::fs::copy(&g_log, &copy).unwrap();
    let legal: Vec<String> = guest.games(&server).0[0]["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect();
    guest.ok(&["move", g_log.to_str().unwrap(), &legal[0], "--server", &url]);
    // The copy, a move behind, is asked for another move at that place:
    // refused, and nothing is signed.
    let tried = guest.run(&[
        "move",
        copy.to_str().unwrap(),
        legal.last().unwrap(),
        "--server",
        &url,
    ]);
    assert!(!tried.status.success(), "{}", text(&tried));
    assert!(!text(&tried).contains("equivocation"), "{}", text(&tried));
    // The host answers; the guest plays on from the copy, then from the
    // original again: each catches up before it signs.
    let square = host.games(&server).0[0]["legal"][0]
        .as_str()
        .unwrap()
        .to_string();
    host.ok(&["move", h_log.to_str().unwrap(), &square, "--server", &url]);
    let view = guest.games(&server).0[0].clone();
    if view["my_turn"] == true {
        let square = view["legal"][0].as_str().unwrap();
        guest.ok(&["move", copy.to_str().unwrap(), square, "--server", &url]);
    }
    assert_eq!(play(&server, [(&host, &h_log), (&guest, &g_log)], 2), 2);
    assert_no_equivocation(&[&h_log, &g_log, &copy]);
}

#[test]
fn two_copies_from_before_the_register_are_reported_and_nothing_is_signed_until_one_is_kept() {
    let dir = TempDir::new("register-legacy-copies");
    let server = Server::start(":memory:");
    let (host, guest, h_log, g_log) = game_in_progress(&dir, &server);
    // A data directory as an older version left it: two copies of one
    // game in the games folder, one a move shorter, and no register.
    let short = guest.dir.join("games").join("older-copy.log");
    let mut older = records(&g_log);
    older.pop();
    reversi::match_log::log_file::write_log(&short, &older).unwrap();
    std::fs::remove_dir_all(guest.dir.join("register")).unwrap();
    let (listed, said) = guest.games(&server);
    assert_eq!(listed.len(), 1, "{listed:?}");
    let copies = listed[0]["copies"].as_array().unwrap();
    assert_eq!(copies.len(), 2, "{listed:?}");
    let longest: Vec<&str> = copies
        .iter()
        .filter(|c| c["longest"] == true)
        .map(|c| c["log"].as_str().unwrap())
        .collect();
    assert_eq!(longest, [g_log.to_str().unwrap()]);
    assert_eq!(listed[0]["my_turn"], false);
    for log in [&g_log, &short] {
        assert!(said.contains(log.to_str().unwrap()), "{said}");
    }
    assert!(said.contains("reversi keep"), "{said}");
    // Neither copy signs until the player chooses (a visit may still
    // bring the opponent's records from the mailbox).
    let guests = |log: &Path| -> Vec<Record> {
        records(log)
            .into_iter()
            .filter(|r| r.content().author == reversi::match_log::Seat::Guest)
            .collect()
    };
    let signed_before = guests(&g_log);
    for log in [&g_log, &short] {
        let tried = guest.run(&[
            "move",
            log.to_str().unwrap(),
            "resign",
            "--server",
            &server.url(),
        ]);
        assert!(!tried.status.success());
        assert!(text(&tried).contains("reversi keep"), "{}", text(&tried));
    }
    for log in [&g_log, &short] {
        let signed = guests(log);
        assert!(
            signed.iter().all(|r| signed_before.contains(r)),
            "nothing new signed in {}",
            log.display()
        );
    }
    // Keeping the shorter one is refused only if the longer holds a
    // record of the guest's that the shorter lacks; keep the longer.
    let kept = guest.ok(&["keep", g_log.to_str().unwrap()]);
    assert!(kept.contains("set aside"), "{kept}");
    assert!(!short.exists());
    assert_eq!(guest.default_logs(), std::slice::from_ref(&g_log));
    assert_eq!(play(&server, [(&host, &h_log), (&guest, &g_log)], 2), 2);
    assert_no_equivocation(&[&h_log, &g_log]);
}
