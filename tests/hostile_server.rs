//! What the operator of a signaling server could try against players,
//! through a server built for it (`support::hostile_server`) in front of a
//! real `reversi-signaling`: accept an open game before the friend it was
//! meant for, and replay, reorder or withhold a game's records. Each
//! attack fails with a clear message, and the players' logs stay intact.
//! (Answering in a room as the host, or joining as the guest, is in
//! `network_faults.rs`; serving a changed page in `verify_page.rs` and
//! the browser tests.)

#![cfg(unix)]

mod support;

use data_encoding::BASE64;
use reversi::match_log::Identity;
use reversi::match_log::invite::{AcceptProof, InviteSecret};
use reversi::match_log::record::{
    Body, OpenAccept, PROTOCOL_VERSION, PlayerInfo, Record, RecordContent, Seat,
};
use reversi::net::room_code::RoomCode;
use serde_json::{Value, json};
use support::TempDir;
use support::hostile_server::HostileServer;
use support::player::Player;
use support::signaling_server::Server;

/// The records the real mailbox holds of the one game in `room`.
fn game_in_room(server: &Server, room: &str) -> (String, Vec<Record>) {
    let (_, listing) = server.get(&format!("/mailbox/rooms/{room}")).unwrap();
    let listing: Value = serde_json::from_str(&listing).unwrap();
    let game_id = listing["games"][0]["game_id"].as_str().unwrap().to_string();
    let (_, body) = server
        .get(&format!("/mailbox/games/{game_id}?from=0"))
        .unwrap();
    let body: Value = serde_json::from_str(&body).unwrap();
    let records = body["list"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| Record::decode(&BASE64.decode(r.as_str().unwrap().as_bytes()).unwrap()).unwrap())
        .collect();
    (game_id, records)
}

/// An acceptance of `genesis` by the operator's own key, with the best
/// proof it can make: one by an invite key of a secret it guessed.
fn forged_acceptance(genesis: &Record) -> Record {
    let mallory = Identity::from_seed(66);
    let guessed = InviteSecret::from_bytes(*b"GUESSEDROO").invite_key();
    let proof = AcceptProof::sign(&guessed, &genesis.hash(), &mallory.public_key());
    Record::sign(
        RecordContent {
            version: PROTOCOL_VERSION,
            game_id: genesis.hash(),
            seq: 1,
            prev: genesis.hash(),
            author: Seat::Guest,
            timestamp_ms: genesis.content().timestamp_ms + 1000,
            body: Body::OpenAccept(OpenAccept {
                guest: PlayerInfo {
                    name: "Ben".into(),
                    key: mallory.public_key().to_bytes(),
                },
                guest_commitment: [7; 32],
                invite_proof: proof.to_bytes(),
            }),
        },
        &mallory,
    )
}

fn list_answer(records: &[Record], from: usize) -> String {
    let list: Vec<String> = records
        .iter()
        .skip(from)
        .map(|r| BASE64.encode(&r.to_bytes()))
        .collect();
    json!({ "records": records.len(), "list": list }).to_string()
}

/// `from=N` of a mailbox path.
fn from_of(path: &str) -> usize {
    path.split(['?', '&'])
        .find_map(|p| p.strip_prefix("from="))
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

fn records_in(log: &std::path::Path) -> usize {
    reversi::match_log::log_file::read_log(log)
        .unwrap()
        .records
        .len()
}

#[test]
fn an_open_game_accepted_first_by_the_server_is_refused_and_the_friend_still_plays() {
    let dir = TempDir::new("hostile-accept");
    let server = Server::start(dir.path("mailbox.sqlite3").to_str().unwrap());
    let hostile = HostileServer::start(server.port);
    let (host, guest) = (Player::new(&dir, "host"), Player::new(&dir, "guest"));
    let code = host.ok(&[
        "host",
        "--detach",
        "--server",
        &hostile.url(),
        "--name",
        "Ann",
        "--deadline",
        "1d",
    ]);
    let code = code.trim().to_string();
    let room = code.parse::<RoomCode>().unwrap().room().to_string();
    let (game_id, records) = game_in_room(&server, &room);
    let genesis = records[0].clone();
    let forged = forged_acceptance(&genesis);

    // An honest mailbox refuses the forgery outright.
    let (status, said) = server
        .request("POST", "/mailbox/records", &forged.to_bytes())
        .unwrap();
    assert_eq!(status, 400, "{said}");
    assert!(
        said.contains("does not prove it holds the room code"),
        "{said}"
    );

    // The operator's own server shows it as accepted.
    let served = vec![genesis.clone(), forged.clone()];
    let id = game_id.clone();
    hostile.tamper(move |method, path, answer| {
        if method != "GET" {
            return answer;
        }
        if path.starts_with(&format!("/mailbox/games/{id}")) {
            return (200, list_answer(&served, from_of(path)));
        }
        if path.starts_with("/mailbox/rooms/") || path.starts_with("/mailbox/players/") {
            let games = json!({ "games": [{ "game_id": id, "records": 2, "ended": false }] });
            return (200, games.to_string());
        }
        answer
    });
    let refused = guest.run(&["join", &code, "--detach", "--name", "Ben"]);
    assert_eq!(refused.status.code(), Some(1));
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(
        said.contains("does not prove it holds the room code"),
        "the friend is told why: {said}"
    );
    assert!(guest.logs().is_empty(), "nothing signed for the friend");
    // The host takes nothing of it: its log still holds only its genesis.
    let view = host.game(&hostile.url()).expect("the host lists the game");
    assert_eq!(view["status"], "waiting for the guest to accept", "{view}");
    assert_eq!(records_in(&host.log()), 1);
    let evidence = host.log().with_extension("log.evidence");
    assert!(
        std::fs::read_dir(&evidence).is_ok_and(|mut d| d.next().is_some()),
        "the forged record is kept as evidence in {}",
        evidence.display()
    );

    // Once the server is honest again, the friend accepts and both play.
    hostile.honest();
    guest.ok(&["join", &code, "--detach", "--name", "Ben"]);
    let host_view = host.game(&hostile.url()).unwrap();
    assert_eq!(host_view["opponent"], "Ben", "{host_view}");
    let guest_view = guest.game(&hostile.url()).unwrap();
    assert!(guest_view["my_color"].is_string(), "{guest_view}");
}

#[test]
fn replayed_reordered_and_withheld_records_change_nothing_and_the_game_goes_on() {
    let dir = TempDir::new("hostile-records");
    let server = Server::start(dir.path("mailbox.sqlite3").to_str().unwrap());
    let upstream = server.port;
    let hostile = HostileServer::start(upstream);
    let url = hostile.url();
    let (host, guest) = (Player::new(&dir, "host"), Player::new(&dir, "guest"));
    let code = host.ok(&[
        "host",
        "--detach",
        "--server",
        &url,
        "--name",
        "Ann",
        "--deadline",
        "1d",
    ]);
    guest.ok(&["join", code.trim(), "--detach", "--name", "Ben"]);
    host.game(&url).unwrap();
    guest.game(&url).unwrap();

    // What the operator does to the records on their way to a player:
    // the whole game again, twice (a replay); the whole game, newest
    // first (a reordering); everything but the newest (withheld).
    #[derive(Clone, Copy, Debug, PartialEq)]
    enum Attack {
        Replayed,
        Reordered,
        Withheld,
    }
    let attacks = [Attack::Replayed, Attack::Reordered, Attack::Withheld];
    let mut moves = 0;
    while let (Some(h), Some(g)) = (host.game(&url), guest.game(&url)) {
        let (mover, other, view) = if h["my_turn"] == true {
            (&host, &guest, h)
        } else {
            (&guest, &host, g)
        };
        let square = view["legal"][0].as_str().unwrap().to_string();
        let output = mover.mv(&url, &square);
        assert!(
            output.status.success(),
            "move {square}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        moves += 1;
        assert!(moves <= 64, "the game ends");
        if moves > 9 {
            continue;
        }
        // The opponent's next visit meets the attack.
        let attack = attacks[moves % 3];
        let before = records_in(&other.log());
        hostile.tamper(move |method, path, (status, body)| {
            if method != "GET" || !path.starts_with("/mailbox/games/") || status != 200 {
                return (status, body);
            }
            let whole_path = format!("{}?from=0", path.split('?').next().unwrap());
            let (_, whole) =
                support::signaling_server::request(upstream, "GET", &whole_path, &[]).unwrap();
            let whole: Value = serde_json::from_str(&whole).unwrap();
            let mut list: Vec<Value> = whole["list"].as_array().unwrap().clone();
            match attack {
                Attack::Replayed => list = [list.clone(), list].concat(),
                Attack::Reordered => list.reverse(),
                Attack::Withheld => {
                    list.pop();
                    list.drain(..from_of(path).min(list.len()));
                }
            }
            let held = whole["records"].as_u64().unwrap() - u64::from(attack == Attack::Withheld);
            (200, json!({ "records": held, "list": list }).to_string())
        });
        let visit = other.run(&["games", "--json", "--server", &url]);
        assert!(
            visit.status.success(),
            "{attack:?}: {}",
            String::from_utf8_lossy(&visit.stderr)
        );
        let after = records_in(&other.log());
        match attack {
            // Nothing taken twice, nothing out of its place: just the move.
            Attack::Replayed | Attack::Reordered => assert_eq!(after, before + 1, "{attack:?}"),
            // Not seen, so not the player's turn yet: a move is refused.
            Attack::Withheld => {
                assert_eq!(after, before, "{attack:?}");
                let refused = other.mv(&url, "a1");
                assert_eq!(refused.status.code(), Some(1));
                assert!(
                    String::from_utf8_lossy(&refused.stderr).contains("not your turn"),
                    "{}",
                    String::from_utf8_lossy(&refused.stderr)
                );
                assert_eq!(records_in(&other.log()), before, "nothing signed");
            }
        }
        let audit = player_audit(&other.log());
        assert!(audit.0, "{attack:?}: {}", audit.1);
        hostile.honest();
    }
    assert!(moves > 9);
    let (a, b) = (host.log(), guest.log());
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    let audit = player_audit(&a);
    assert!(audit.0, "{}", audit.1);
}

/// `reversi audit LOG`: whether it passed, and what it said.
fn player_audit(log: &std::path::Path) -> (bool, String) {
    let output = support::reversi().arg("audit").arg(log).output().unwrap();
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
    )
}
