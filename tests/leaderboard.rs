//! The opt-in leaderboard of a real `reversi-signaling` (SQLite, and
//! PostgreSQL in the slow group): `reversi leaderboard --join`, `reversi
//! submit`, the refusals, and `reversi ratings` on the downloaded logs
//! printing exactly the server's table.

#![cfg(unix)]

mod support;

use std::path::PathBuf;
use std::process::{Output, Stdio};

use reversi::data_dir::DataDir;
use reversi::match_log::Identity;
use reversi::match_log::log_file::write_log;
use reversi::membership::{Membership, Statement};
use serde_json::Value;
use support::TempDir;
use support::logs::{DAY_MS, Decided, T0, decided_game, new_game, play_random};
use support::postgres::Postgres;
use support::signaling_server::Server;

fn reversi(data_dir: &PathBuf, args: &[&str]) -> Output {
    support::reversi()
        .arg("--data-dir")
        .arg(data_dir)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A player: a data directory and its key.
struct Player {
    dir: PathBuf,
    name: &'static str,
    identity: Identity,
}

impl Player {
    fn new(dir: &TempDir, name: &'static str) -> Player {
        let dir = dir.path(name);
        let identity = DataDir::resolve(Some(&dir)).unwrap().identity().unwrap();
        Player {
            dir,
            name,
            identity,
        }
    }

    fn ok(&self, args: &[&str]) -> String {
        let output = reversi(&self.dir, args);
        assert!(
            output.status.success(),
            "reversi {args:?}: {}",
            text(&output.stderr)
        );
        text(&output.stdout)
    }

    fn refused(&self, args: &[&str]) -> String {
        let output = reversi(&self.dir, args);
        assert!(!output.status.success(), "reversi {args:?} should fail");
        text(&output.stderr)
    }

    fn join(&self, server: &Server) {
        let said = self.ok(&["leaderboard", "--server", &server.url(), "--join"]);
        assert!(said.contains("joined"), "{said}");
    }
}

/// A finished game between two players, written to `dir/name`.
fn game_file(
    dir: &TempDir,
    name: &str,
    host: &Player,
    guest: &Player,
    day: u64,
    result: Decided,
) -> PathBuf {
    let game = decided_game(
        (&host.identity, host.name),
        (&guest.identity, guest.name),
        T0 + day * DAY_MS,
        result,
    );
    let path = dir.path(name);
    write_log(&path, game.records()).unwrap();
    path
}

fn json(body: &str) -> Value {
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"))
}

fn counted(server: &Server) -> usize {
    let (status, body) = server.get("/games").unwrap();
    assert_eq!(status, 200, "{body}");
    json(&body)["games"].as_array().unwrap().len()
}

/// The downloaded logs, rated by `reversi ratings`, against the server's table.
fn assert_anyone_recomputes_the_table(server: &Server, player: &Player, dir: &TempDir, name: &str) {
    let download = dir.path(name);
    let said = player.ok(&[
        "leaderboard",
        "--server",
        &server.url(),
        "--download",
        download.to_str().unwrap(),
    ]);
    assert!(said.starts_with("downloaded"), "{said}");
    let mut logs: Vec<String> = std::fs::read_dir(&download)
        .unwrap()
        .map(|e| e.unwrap().path().display().to_string())
        .collect();
    logs.sort();
    let mut args = vec!["ratings", "--json"];
    args.extend(logs.iter().map(String::as_str));
    let ours = json(&player.ok(&args));
    let (status, body) = server.get("/leaderboard").unwrap();
    assert_eq!(status, 200);
    let theirs = json(&body);
    assert_eq!(
        ours, theirs,
        "reversi ratings on the downloaded logs is the server's table"
    );
    let printed = player.ok(&["leaderboard", "--server", &server.url(), "--json"]);
    assert_eq!(json(&printed), theirs);
}

fn leaderboard_flow(server: &Server, dir: &TempDir) {
    let (ann, ben, cy) = (
        Player::new(dir, "Ann"),
        Player::new(dir, "Ben"),
        Player::new(dir, "Cy <b>"),
    );
    ann.join(server);
    ben.join(server);
    let first = game_file(dir, "ann-ben.log", &ann, &ben, 0, Decided::HostWins);
    let said = ann.ok(&["submit", first.to_str().unwrap(), "--server", &server.url()]);
    assert!(said.starts_with("counted"), "{said}");
    // Once only.
    let again = ben.refused(&["submit", first.to_str().unwrap(), "--server", &server.url()]);
    assert!(
        again.contains("(409)") && again.contains("counted once"),
        "{again}"
    );
    // Cy has not joined: refused, nothing stored.
    let with_cy = game_file(dir, "ben-cy.log", &ben, &cy, 1, Decided::Draw);
    let refused = ben.refused(&[
        "submit",
        with_cy.to_str().unwrap(),
        "--server",
        &server.url(),
    ]);
    assert!(
        refused.contains("(403)") && refused.contains("has not joined"),
        "{refused}"
    );
    assert_eq!(counted(server), 1);
    // An unfinished game, and a log that fails the audit (sent as it is).
    let mut open = new_game(5);
    play_random(&mut open, 5, 3);
    let unfinished = dir.path("open.log");
    write_log(&unfinished, open.records()).unwrap();
    let refused = ann.refused(&[
        "submit",
        unfinished.to_str().unwrap(),
        "--server",
        &server.url(),
    ]);
    assert!(
        refused.contains("(422)") && refused.contains("unfinished"),
        "{refused}"
    );
    let tampered =
        std::fs::read_to_string(&with_cy)
            .unwrap()
            .replacen("\"record\":\"", "\"record\":\"A", 1);
    let (status, body) = server
        .request("POST", "/games", tampered.as_bytes())
        .unwrap();
    assert_eq!(status, 400, "{body}");
    assert!(
        json(&body)["error"]
            .as_str()
            .unwrap()
            .contains("fails the audit"),
        "{body}"
    );
    assert_eq!(counted(server), 1);
    // Cy joins: now it counts, and the table is anyone's to recompute.
    cy.join(server);
    ben.ok(&[
        "submit",
        with_cy.to_str().unwrap(),
        "--server",
        &server.url(),
    ]);
    let third = game_file(dir, "cy-ann.log", &cy, &ann, 2, Decided::GuestWins);
    cy.ok(&["submit", third.to_str().unwrap(), "--server", &server.url()]);
    assert_eq!(counted(server), 3);
    assert_anyone_recomputes_the_table(server, &ann, dir, "download");
    let table = json(&server.get("/leaderboard").unwrap().1);
    assert_eq!(table["players"][0]["name"], "Ann", "two wins: first");
    // The page, with the player's name escaped.
    let (status, page) = server.get("/leaderboard?format=html").unwrap();
    assert_eq!(status, 200);
    assert!(
        page.contains("<table>") && page.contains("Cy &lt;b&gt;") && !page.contains("Cy <b>"),
        "{page}"
    );
    // Ben leaves: his two games stop counting; an old join cannot undo it.
    let left = ben.ok(&["leaderboard", "--server", &server.url(), "--leave"]);
    assert!(left.contains("left"), "{left}");
    assert_eq!(counted(server), 1);
    // (The raw requests here say `Host: x`; the program's own say the
    // server's address, which its statements name.)
    let post = |statement: &Value| {
        server
            .request(
                "POST",
                "/leaderboard/members",
                statement.to_string().as_bytes(),
            )
            .unwrap()
    };
    let old = Statement::sign(&ben.identity, Membership::Join, "x", T0).to_json();
    let (status, body) = post(&old);
    assert_eq!(status, 409, "{body}");
    let now = reversi::platform::now_ms();
    let elsewhere = Statement::sign(
        &ben.identity,
        Membership::Join,
        "elsewhere.example.org",
        now,
    );
    let (status, body) = post(&elsewhere.to_json());
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("another server"), "{body}");
    let future = Statement::sign(&ben.identity, Membership::Join, "x", now + 3_600_000);
    let (status, body) = post(&future.to_json());
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("future"), "{body}");
    let mut forged = Statement::sign(&ben.identity, Membership::Join, "x", now).to_json();
    forged["key"] = Value::String(reversi::match_log::record::hex(
        &ann.identity.public_key().to_bytes(),
    ));
    let (status, body) = post(&forged);
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("signature"), "{body}");
    assert_eq!(counted(server), 1);
    assert_anyone_recomputes_the_table(server, &ann, dir, "download-after");
    // A different ending of the one game still counted (signed by both
    // keys, as only the players can): neither ending counts any more.
    let fork = game_file(dir, "cy-ann-fork.log", &cy, &ann, 2, Decided::HostWins);
    let refused = cy.refused(&["submit", fork.to_str().unwrap(), "--server", &server.url()]);
    assert!(
        refused.contains("(409)") && refused.contains("two different finished logs"),
        "{refused}"
    );
    assert_eq!(counted(server), 0);
    assert_eq!(
        json(&server.get("/leaderboard").unwrap().1)["players"],
        Value::Array(vec![])
    );
}

#[test]
fn members_games_are_counted_once_refusals_store_nothing_and_anyone_recomputes_the_table() {
    let dir = TempDir::new("leaderboard");
    let server = Server::start(":memory:");
    leaderboard_flow(&server, &dir);
}

#[test]
#[ignore = "slow: starts a PostgreSQL server; tests/all.sh runs it"]
fn the_leaderboard_works_the_same_on_postgres_and_survives_a_restart() {
    let dir = TempDir::new("leaderboard-pg");
    let postgres = Postgres::start("leaderboard-db");
    let server = Server::start(&postgres.url());
    leaderboard_flow(&server, &dir);
    let before = server.get("/leaderboard").unwrap().1;
    let port = server.port;
    server.stop();
    let server = Server::start_on(port, &postgres.url());
    assert_eq!(
        server.get("/leaderboard").unwrap().1,
        before,
        "kept across a restart"
    );
}
