//! Correspondence games through a real `reversi-signaling` mailbox
//! (SQLite, and PostgreSQL in the slow group): `reversi host --detach`,
//! `join --detach`, `games` and `move` as separate programs, never two of
//! them running at once.

#![cfg(unix)]

mod support;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use support::postgres::Postgres;
use support::{KillOnDrop, TempDir};

fn reversi() -> Command {
    support::reversi()
}

use support::player::Player;
use support::signaling_server::Server;

/// Host and guest set a game up through the mailbox, one program at a
/// time; returns the game id.
fn set_up(server: &Server, host: &Player, guest: &Player, deadline: &str) -> String {
    let code = host.ok(&[
        "host",
        "--detach",
        "--server",
        &server.url(),
        "--name",
        "Ann",
        "--deadline",
        deadline,
    ]);
    let code = code.trim();
    let game = host.game(server).expect("the host lists the game");
    let game_id = game["game_id"].as_str().unwrap().to_string();
    assert_eq!(game["status"], "waiting for the guest to accept");
    assert_eq!(server.held(&game_id), 1, "the genesis is in the mailbox");
    guest.ok(&["join", code, "--detach", "--name", "Ben"]);
    assert_eq!(server.held(&game_id), 2, "the acceptance is in the mailbox");
    // The host's next visit reveals; the guest's reveals too and flips the coin.
    let host_view = host.game(server).unwrap();
    assert_eq!(host_view["opponent"], "Ben");
    assert_eq!(server.held(&game_id), 3);
    let guest_view = guest.game(server).unwrap();
    assert_eq!(server.held(&game_id), 4);
    assert!(guest_view["my_color"].is_string());
    assert_eq!(guest_view["opponent"], "Ann");
    game_id
}

/// Plays the first legal move of whoever is to move, `limit` times at
/// most or to the end; returns how many moves were played.
fn play(server: &Server, host: &Player, guest: &Player, limit: usize) -> usize {
    for played in 0..limit {
        let (Some(h), Some(g)) = (host.game(server), guest.game(server)) else {
            return played;
        };
        let (mover, view) = if h["my_turn"] == true {
            (host, h)
        } else {
            assert_eq!(g["my_turn"], true, "someone is to move: {h} {g}");
            (guest, g)
        };
        for field in ["room", "rules", "to_move", "deadline_left_secs"] {
            assert!(!view[field].is_null(), "{field} in {view}");
        }
        let square = view["legal"][0].as_str().unwrap().to_string();
        let output = mover.mv(server, &square);
        assert!(
            output.status.success(),
            "move {square}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    limit
}

fn assert_identical_and_clean(host: &Player, guest: &Player) {
    let (a, b) = (host.log(), guest.log());
    assert_eq!(
        std::fs::read(&a).unwrap(),
        std::fs::read(&b).unwrap(),
        "the two logs are identical byte for byte"
    );
    let audit = reversi().arg("audit").arg(&a).output().unwrap();
    assert!(
        audit.status.success(),
        "{}",
        String::from_utf8_lossy(&audit.stdout)
    );
}

#[test]
fn a_whole_game_is_played_as_a_series_of_moves_with_one_program_at_a_time() {
    let dir = TempDir::new("correspondence-whole");
    let db = dir.path("mailbox.sqlite3");
    let server = Server::start(db.to_str().unwrap());
    let (host, guest) = (Player::new(&dir, "host"), Player::new(&dir, "guest"));
    let game_id = set_up(&server, &host, &guest, "1d");

    // Out of turn, and an illegal square: refused, nothing signed.
    let h = host.game(&server).unwrap();
    let (waiting, mover) = if h["my_turn"] == true {
        (&guest, &host)
    } else {
        (&host, &guest)
    };
    let before = std::fs::read(waiting.log()).unwrap();
    let out_of_turn = waiting.mv(&server, "f5");
    assert!(!out_of_turn.status.success());
    assert!(String::from_utf8_lossy(&out_of_turn.stderr).contains("not your turn"));
    assert_eq!(std::fs::read(waiting.log()).unwrap(), before);
    let before = std::fs::read(mover.log()).unwrap();
    let illegal = mover.mv(&server, "a1");
    assert!(!illegal.status.success());
    let said = String::from_utf8_lossy(&illegal.stderr);
    assert!(
        said.contains("a1") && said.contains("nothing signed"),
        "{said}"
    );
    assert_eq!(std::fs::read(mover.log()).unwrap(), before);

    let played = play(&server, &host, &guest, 80);
    assert!(played >= 9, "a whole game: {played} moves");
    assert!(host.game(&server).is_none() && guest.game(&server).is_none());
    assert_identical_and_clean(&host, &guest);
    let records = std::fs::read_to_string(host.log()).unwrap().lines().count() as u64;
    assert_eq!(
        server.held(&game_id),
        records,
        "the mailbox holds every record"
    );
}

#[test]
fn a_timeout_claim_wins_against_a_player_who_never_came_back() {
    let dir = TempDir::new("correspondence-timeout");
    let server = Server::start(":memory:");
    let (host, guest) = (Player::new(&dir, "host"), Player::new(&dir, "guest"));
    set_up(&server, &host, &guest, "5m");
    let h = host.game(&server).unwrap();
    // The player not to move claims: too early first.
    let claimant = if h["my_turn"] == true { &guest } else { &host };
    let log = claimant.log();
    let before = std::fs::read(&log).unwrap();
    let early = claimant.mv(&server, "claim");
    assert!(!early.status.success());
    assert!(String::from_utf8_lossy(&early.stderr).contains("has not passed"));
    assert_eq!(std::fs::read(&log).unwrap(), before, "nothing signed");
    // Six minutes later (the clock moved for the test): the claim wins.
    let late = claimant
        .command(&[
            "move",
            log.to_str().unwrap(),
            "claim",
            "--server",
            &server.url(),
        ])
        .env("REVERSI_CLOCK_OFFSET", "6m")
        .output()
        .unwrap();
    assert!(
        late.status.success(),
        "{}",
        String::from_utf8_lossy(&late.stderr)
    );
    let audit = reversi().arg("audit").arg(&log).output().unwrap();
    let report = String::from_utf8_lossy(&audit.stdout);
    assert!(
        audit.status.success() && report.contains("timeout"),
        "{report}"
    );
    // The late player's next visit takes the claim: the game is over for both.
    assert!(host.game(&server).is_none() && guest.game(&server).is_none());
    assert_identical_and_clean(&host, &guest);
}

#[test]
fn a_restarted_server_keeps_every_game_and_a_lost_mailbox_is_refilled_by_the_players() {
    let dir = TempDir::new("correspondence-restart");
    let db = dir.path("mailbox.sqlite3");
    let db = db.to_str().unwrap();
    let server = Server::start(db);
    let port = server.port;
    let (host, guest) = (Player::new(&dir, "host"), Player::new(&dir, "guest"));
    let game_id = set_up(&server, &host, &guest, "1d");
    assert_eq!(play(&server, &host, &guest, 6), 6);
    let held = server.held(&game_id);
    // SIGTERM and start again on the same file: everything is there.
    server.stop();
    let server = Server::start_on(port, db);
    assert_eq!(server.held(&game_id), held);
    assert_eq!(play(&server, &host, &guest, 4), 4);
    // The mailbox is lost entirely: the players' logs refill it.
    let held = server.held(&game_id);
    server.kill();
    let server = Server::start_on(port, ":memory:");
    assert_eq!(server.db, ":memory:");
    assert_eq!(
        server.get(&format!("/mailbox/games/{game_id}")).unwrap().0,
        404
    );
    // Each visit puts back what that player's log holds.
    host.game(&server);
    let host_records = std::fs::read_to_string(host.log()).unwrap().lines().count() as u64;
    assert_eq!(server.held(&game_id), host_records);
    guest.game(&server);
    assert_eq!(
        server.held(&game_id),
        held,
        "the two visits put every record back"
    );
    play(&server, &host, &guest, 80);
    assert_identical_and_clean(&host, &guest);
}

#[test]
fn a_guest_whose_log_was_lost_gets_the_game_back_from_the_mailbox() {
    let dir = TempDir::new("correspondence-restore");
    let server = Server::start(":memory:");
    let (host, guest) = (Player::new(&dir, "host"), Player::new(&dir, "guest"));
    set_up(&server, &host, &guest, "1d");
    play(&server, &host, &guest, 3);
    let log = guest.log();
    let kept = std::fs::read(&log).unwrap();
    std::fs::remove_file(&log).unwrap();
    let view = guest.game(&server).expect("restored");
    assert_eq!(view["opponent"], "Ann");
    // What the guest had, and the host's move since if there was one.
    let restored = std::fs::read(guest.log()).unwrap();
    assert!(
        restored.starts_with(&kept),
        "the restored log extends the lost one"
    );
    play(&server, &host, &guest, 80);
    assert_identical_and_clean(&host, &guest);
}

#[test]
#[ignore = "slow: starts a PostgreSQL server; tests/all.sh runs it"]
fn two_servers_share_one_postgres_mailbox_and_the_game_survives_one_of_them_killed() {
    let postgres = Postgres::start("correspondence-postgres");
    let dir = TempDir::new("correspondence-postgres-players");
    let first = Server::start(&postgres.url());
    let second = Server::start(&postgres.url());
    let (host, guest) = (Player::new(&dir, "host"), Player::new(&dir, "guest"));
    let game_id = set_up(&first, &host, &guest, "1d");
    assert_eq!(
        second.held(&game_id),
        4,
        "the other instance sees the same store"
    );
    assert_eq!(play(&first, &host, &guest, 8), 8);
    let held = first.held(&game_id);
    first.kill();
    // The players go on through the other instance.
    assert_eq!(second.held(&game_id), held, "every record is still there");
    play(&second, &host, &guest, 80);
    assert_identical_and_clean(&host, &guest);
    let records = std::fs::read_to_string(host.log()).unwrap().lines().count() as u64;
    assert_eq!(second.held(&game_id), records);
    // A restart of that one keeps it all too.
    let port = second.port;
    second.stop();
    let again = Server::start_on(port, &postgres.url());
    assert_eq!(again.held(&game_id), records);
}

/// The answer to a look that waits (`?wait=8`, below the support's read
/// timeout) for a record past the `from` first, and when it came, on
/// another thread.
fn waiting_look(
    server: &Server,
    game_id: &str,
    from: u64,
) -> std::thread::JoinHandle<(u16, String, Instant)> {
    let port = server.port;
    let path = format!("/mailbox/games/{game_id}?from={from}&wait=8");
    std::thread::spawn(move || {
        let (status, body) =
            support::signaling_server::request(port, "GET", &path, &[]).expect("answered");
        (status, body, Instant::now())
    })
}

#[test]
#[ignore = "slow: starts a PostgreSQL server; tests/all.sh runs it"]
fn a_look_waiting_on_one_instance_hears_at_once_of_a_move_stored_through_another() {
    let postgres = Postgres::start("correspondence-notify");
    let dir = TempDir::new("correspondence-notify-players");
    let (first, second) = (
        Server::start(&postgres.url()),
        Server::start(&postgres.url()),
    );
    let (host, guest) = (Player::new(&dir, "host"), Player::new(&dir, "guest"));
    let game_id = set_up(&first, &host, &guest, "1d");
    // Each move goes through one instance while the opponent's look waits
    // on the other, both ways.
    let mut heard = Vec::new();
    for turn in 0..6 {
        let (through, watched) = if turn % 2 == 0 {
            (&first, &second)
        } else {
            (&second, &first)
        };
        let held = through.held(&game_id);
        let look = waiting_look(watched, &game_id, held);
        // The look is registered before the move is stored.
        std::thread::sleep(Duration::from_millis(500));
        let (h, g) = (host.game(through).unwrap(), guest.game(through).unwrap());
        let (mover, view) = if h["my_turn"] == true {
            (&host, h)
        } else {
            (&guest, g)
        };
        let square = view["legal"][0].as_str().unwrap().to_string();
        let output = mover.mv(through, &square);
        let stored = Instant::now();
        assert!(output.status.success(), "{output:?}");
        let (status, body, answered) = look.join().unwrap();
        assert_eq!(status, 200, "{body}");
        let answer: Value = serde_json::from_str(&body).unwrap();
        assert!(
            !answer["list"].as_array().unwrap().is_empty(),
            "the look answered with the new record, not at the end of its wait: {answer}"
        );
        heard.push(answered.saturating_duration_since(stored));
    }
    heard.sort();
    eprintln!("a move stored on one instance, heard on the other after: {heard:?}");
    // Within a second as a rule; the bound leaves room for a busy machine
    // while staying far below the 8 s the look would otherwise sleep.
    assert!(
        heard[heard.len() / 2] < Duration::from_secs(1)
            && heard[heard.len() - 1] < Duration::from_secs(5),
        "{heard:?}"
    );
}

/// Waits until `GET /ready` answers 200.
fn until_ready(server: &Server, within: Duration) -> Duration {
    let started = Instant::now();
    loop {
        let (status, body) = server.get("/ready").expect("the instance is up");
        if status == 200 {
            return started.elapsed();
        }
        assert!(started.elapsed() < within, "not ready again: {body}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
#[ignore = "slow: starts a PostgreSQL server; tests/all.sh runs it"]
fn while_postgres_is_down_the_mailbox_says_why_and_it_recovers_without_a_restart() {
    let postgres = Postgres::start("correspondence-outage");
    let dir = TempDir::new("correspondence-outage-players");
    let (first, second) = (
        Server::start(&postgres.url()),
        Server::start(&postgres.url()),
    );
    let (host, guest) = (Player::new(&dir, "host"), Player::new(&dir, "guest"));
    let game_id = set_up(&first, &host, &guest, "1d");
    assert_eq!(play(&first, &host, &guest, 4), 4);
    for server in [&first, &second] {
        assert_eq!(server.get("/ready").unwrap().0, 200);
    }

    postgres.stop();
    let down = Instant::now();
    for server in [&first, &second] {
        let (status, body) = server.get(&format!("/mailbox/games/{game_id}")).unwrap();
        assert_eq!(status, 503, "{body}");
        let reason: Value = serde_json::from_str(&body).unwrap();
        assert!(
            reason["error"]
                .as_str()
                .unwrap()
                .starts_with("the mailbox database is unavailable; try again ("),
            "{body}"
        );
        let (status, body) = server.get("/ready").unwrap();
        assert_eq!(status, 503, "a proxy stops sending new players: {body}");
        let ready: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(ready["ready"], false);
        assert!(!ready["reason"].as_str().unwrap().is_empty(), "{body}");
        let (status, _) = server.get("/health").unwrap();
        assert_eq!(status, 200, "the process itself is up");
    }
    let metrics = first.get("/metrics").unwrap().1;
    let errors = metrics
        .lines()
        .find_map(|l| l.strip_prefix("reversi_signaling_mailbox_database_errors_total "))
        .expect("the counter is shown");
    assert!(errors.parse::<u64>().unwrap() > 0, "{metrics}");

    // Ten seconds down, then back on the same port and data.
    std::thread::sleep(Duration::from_secs(10).saturating_sub(down.elapsed()));
    postgres.start_again();
    for server in [&first, &second] {
        let took = until_ready(server, Duration::from_secs(20));
        eprintln!("ready again {took:?} after PostgreSQL came back");
    }
    // Both instances hear each other's records again: the listener is back.
    let held = first.held(&game_id);
    let look = waiting_look(&second, &game_id, held);
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(play(&first, &host, &guest, 1), 1);
    let stored = Instant::now();
    let (status, body, answered) = look.join().unwrap();
    assert_eq!(status, 200, "{body}");
    assert!(
        answered.saturating_duration_since(stored) < Duration::from_secs(5),
        "heard through LISTEN, not at the end of the look's wait"
    );
    let answer: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(answer["list"].as_array().unwrap().len(), 1, "{answer}");
    play(&second, &host, &guest, 80);
    assert_identical_and_clean(&host, &guest);
}

#[test]
#[ignore = "slow: a live player over WebRTC; tests/all.sh runs it"]
fn a_live_program_plays_a_correspondence_opponent_through_the_mailbox() {
    let dir = TempDir::new("correspondence-live");
    let server = Server::start(":memory:");
    let (host, guest) = (Player::new(&dir, "host"), Player::new(&dir, "guest"));
    set_up(&server, &host, &guest, "1d");
    // The guest leaves its program running (the computer plays for it);
    // the host comes by now and then with `reversi move`.
    let guest_log = guest.log();
    let live = KillOnDrop(
        reversi()
            .arg("--data-dir")
            .arg(&guest.dir)
            .args(["resume", guest_log.to_str().unwrap(), "--bot", "1"])
            .args(["--server", &server.url()])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(dir.path("live.stderr")).unwrap())
            .spawn()
            .unwrap(),
    );
    let mut host_moves = 0;
    let started = Instant::now();
    while host_moves < 3 {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "the live guest answered: {}",
            std::fs::read_to_string(dir.path("live.stderr")).unwrap_or_default()
        );
        let view = host.game(&server).expect("the game goes on");
        if view["my_turn"] == true {
            let square = view["legal"][0].as_str().unwrap().to_string();
            assert!(host.mv(&server, &square).status.success());
            host_moves += 1;
        } else {
            std::thread::sleep(Duration::from_millis(500));
        }
    }
    // The live guest has the host's moves in its log.
    let wait = Instant::now();
    loop {
        let host_log = std::fs::read(host.log()).unwrap();
        let guest_now = std::fs::read(&guest_log).unwrap();
        if guest_now.starts_with(&host_log) {
            break;
        }
        assert!(
            wait.elapsed() < Duration::from_secs(30),
            "the guest's log has the host's moves"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    drop(live);
}

/// What a `reversi watch` printed, once it has exited successfully at
/// the game's end.
fn followed_to_the_end(follower: &mut KillOnDrop) -> String {
    use std::io::Read as _;
    let mut out = String::new();
    follower
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    assert!(follower.wait().unwrap().success(), "{out}");
    assert!(out.contains("game over:"), "{out}");
    out
}

#[test]
fn a_spectator_follows_a_game_to_its_end_and_cannot_write_into_it() {
    use reversi::match_log::record::{Body, MoveBody, PROTOCOL_VERSION, RecordContent, Seat};
    use reversi::match_log::{Identity, Record};
    let dir = TempDir::new("correspondence-watch");
    let server = Server::start(":memory:");
    let (host, guest) = (Player::new(&dir, "host"), Player::new(&dir, "guest"));
    let spectator = Player::new(&dir, "spectator");
    let game_id = set_up(&server, &host, &guest, "1h");
    let code = host.game(&server).unwrap()["watch"]
        .as_str()
        .expect("a watch code for a game on a stand-alone server")
        .to_string();
    assert!(code.starts_with(&game_id), "{code}");
    // Where it stands now.
    let now: Value =
        serde_json::from_str(&spectator.ok(&["watch", &code, "--once", "--json"])).unwrap();
    assert_eq!(now["records"], 4);
    assert_eq!(now["host"]["name"], "Ann");
    assert_eq!(now["guest"]["name"], "Ben");
    assert_eq!(now["to_move"], "black");
    // A record the spectator signs cannot enter the game: the mailbox
    // checks it against the players' keys.
    let first = server.get(&format!("/mailbox/games/{game_id}")).unwrap().1;
    let stored: Vec<Record> = serde_json::from_str::<Value>(&first).unwrap()["list"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            use data_encoding::BASE64;
            Record::decode(&BASE64.decode(r.as_str().unwrap().as_bytes()).unwrap()).unwrap()
        })
        .collect();
    let verifier = reversi::match_log::verify_log(&stored).unwrap();
    let author = verifier.seat_to_write().unwrap();
    let square = support::board_names::first_legal(verifier.current_position().unwrap());
    let next = verifier.current_position().unwrap().play(square).unwrap();
    let content = RecordContent {
        version: PROTOCOL_VERSION,
        game_id: verifier.game_id(),
        seq: 4,
        prev: verifier.last_hash(),
        author,
        timestamp_ms: verifier.last_timestamp() + 1,
        body: Body::Move(MoveBody {
            square: square.index(),
            position_hash: next.hash().0,
        }),
    };
    let forged = Record::sign(content, &Identity::from_seed(42));
    let (status, body) = server
        .request("POST", "/mailbox/records", &forged.to_bytes())
        .unwrap();
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("signature"), "{body}");
    assert_eq!(server.held(&game_id), 4, "nothing stored");
    let _ = Seat::Host;
    // Following it live while the players move, to the end.
    let mut follower = KillOnDrop(
        reversi()
            .args(["--data-dir", dir.path("spectator").to_str().unwrap()])
            .args(["watch", &code, "--every", "100ms"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let played = play(&server, &host, &guest, 80);
    assert!(played > 20, "{played} moves");
    let out = followed_to_the_end(&mut follower);
    let move_lines = out
        .lines()
        .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()) && l.contains(". "))
        .count();
    assert_eq!(move_lines, played, "every move shown once: {out}");
    assert!(
        out.contains("Ann hosts") && out.contains("the coin is flipped"),
        "{out}"
    );
}

#[test]
fn a_spectator_who_comes_before_the_game_reaches_the_mailbox_waits_for_it() {
    let dir = TempDir::new("correspondence-watch-early");
    let server = Server::start(":memory:");
    let port = server.port;
    let (host, guest) = (Player::new(&dir, "host"), Player::new(&dir, "guest"));
    let game_id = set_up(&server, &host, &guest, "1h");
    let code = host.game(&server).unwrap()["watch"]
        .as_str()
        .unwrap()
        .to_string();
    // A fresh server: the watch code names a game its mailbox does not
    // hold yet, as when a code is shared before the genesis is copied.
    server.kill();
    let server = Server::start_on(port, ":memory:");
    let stderr = dir.path("watch.err");
    let mut follower = KillOnDrop(
        reversi()
            .args(["--data-dir", dir.path("spectator").to_str().unwrap()])
            .args(["watch", &code, "--every", "100ms"])
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&stderr).unwrap())
            .spawn()
            .unwrap(),
    );
    std::thread::sleep(Duration::from_secs(2));
    assert!(
        follower.try_wait().unwrap().is_none(),
        "the spectator gave up at once: {}",
        std::fs::read_to_string(&stderr).unwrap()
    );
    assert!(
        std::fs::read_to_string(&stderr)
            .unwrap()
            .contains("not in the mailbox yet"),
        "the spectator says what it waits for"
    );
    // The players' visits put the game in; the spectator follows it.
    let played = play(&server, &host, &guest, 80);
    assert!(played > 20, "{played} moves");
    assert!(server.held(&game_id) > 20);
    followed_to_the_end(&mut follower);
}
