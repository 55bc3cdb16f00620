//! The mailbox over real HTTP on an in-process server (SQLite in memory):
//! what it stores, what it refuses and why, and that a refusal changes
//! nothing.

use std::net::SocketAddr;
use std::time::Duration;

use reversi_core::engine::{Rules, Square};
use reversi_core::match_log::builder::{MatchBuilder, MatchTerms, Players};
use reversi_core::match_log::record::{Body, MoveBody, hex};
use reversi_core::match_log::rules_proposal::RulesProposal;
use reversi_core::match_log::{Identity, Record, Seat};
use reversi_signaling::mailbox::MailboxConfig;
use reversi_signaling::rate_limit::Rate;
use reversi_signaling::{Config, RunningServer, start};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const T0: u64 = 1_796_000_000_000;

async fn server(mailbox: MailboxConfig) -> RunningServer {
    let config = Config {
        mailbox: Some(mailbox),
        ..Config::default()
    };
    start("127.0.0.1:0".parse().unwrap(), config).await.unwrap()
}

async fn request(addr: SocketAddr, method: &str, path: &str, body: &[u8]) -> (u16, Value) {
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(body).await.unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut answer))
        .await
        .unwrap()
        .unwrap();
    let answer = String::from_utf8(answer).unwrap();
    let status = answer[9..12].parse().unwrap();
    let body = answer.split_once("\r\n\r\n").unwrap().1;
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

async fn post(addr: SocketAddr, record: &Record) -> (u16, Value) {
    request(addr, "POST", "/mailbox/records", &record.to_bytes()).await
}

async fn held(addr: SocketAddr, game: &Record) -> u64 {
    let (status, body) = request(
        addr,
        "GET",
        &format!("/mailbox/games/{}", hex(&game.hash())),
        &[],
    )
    .await;
    assert_eq!(status, 200, "{body}");
    body["records"].as_u64().unwrap()
}

fn game(host: u8, guest: u8) -> MatchBuilder {
    MatchBuilder::new(
        &MatchTerms {
            proposal: RulesProposal::fixed(Rules::default()),
            deadline_secs: 3600,
            host_name: "Ann".into(),
            guest_name: "Ben".into(),
        },
        Players {
            host: Identity::from_seed(u64::from(host)),
            guest: Identity::from_seed(u64::from(guest)),
            host_nonce: [host.wrapping_add(100); 32],
            guest_nonce: [guest.wrapping_add(100); 32],
        },
        T0,
    )
    .unwrap()
}

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

#[tokio::test]
async fn valid_records_are_stored_in_order_and_handed_back() {
    let server = server(MailboxConfig::default()).await;
    let mut game = game(1, 2);
    game.play(sq("f5"), T0 + 1).unwrap();
    for record in game.records() {
        let (status, body) = post(server.addr, record).await;
        assert_eq!(status, 201, "{body}");
    }
    let genesis = &game.records()[0];
    let (status, body) = request(
        server.addr,
        "GET",
        &format!("/mailbox/games/{}?from=2", hex(&genesis.hash())),
        &[],
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(body["records"], 5);
    let list = body["list"].as_array().unwrap();
    assert_eq!(list.len(), 3, "records 2, 3 and 4");
    let host_key = hex(&Identity::from_seed(1).public_key().to_bytes());
    let (_, listed) = request(
        server.addr,
        "GET",
        &format!("/mailbox/players/{host_key}"),
        &[],
    )
    .await;
    assert_eq!(listed["games"][0]["game_id"], hex(&genesis.hash()));
    assert!(
        listed["games"][0].get("room").is_none(),
        "a listing by key never shows the room, the invitation's secret"
    );
}

#[tokio::test]
async fn a_waiting_request_answers_when_the_next_record_arrives() {
    let server = server(MailboxConfig::default()).await;
    let mut game = game(1, 2);
    for record in game.records() {
        assert_eq!(post(server.addr, record).await.0, 201);
    }
    let held_now = game.records().len();
    let path = format!(
        "/mailbox/games/{}?from={held_now}&wait=20",
        hex(&game.records()[0].hash())
    );
    let addr = server.addr;
    let waiting = tokio::spawn(async move { request(addr, "GET", &path, &[]).await });
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(!waiting.is_finished(), "nothing new yet: the request waits");
    game.play(sq("f5"), T0 + 1).unwrap();
    let next = game.records().last().unwrap();
    assert_eq!(post(server.addr, next).await.0, 201);
    // Well before the 20 s the request may wait: the record woke it.
    let (status, body) = tokio::time::timeout(Duration::from_secs(8), waiting)
        .await
        .expect("answered when the record arrived")
        .unwrap();
    assert_eq!(status, 200, "{body}");
    let list = body["list"].as_array().unwrap();
    assert_eq!(list.len(), 1, "{body}");
    assert_eq!(list[0], data_encoding::BASE64.encode(&next.to_bytes()));

    // With nothing arriving, the answer comes empty after the wait.
    let path = format!(
        "/mailbox/games/{}?from={}&wait=1",
        hex(&game.records()[0].hash()),
        game.records().len()
    );
    let (status, body) = request(server.addr, "GET", &path, &[]).await;
    assert_eq!(status, 200);
    assert_eq!(body["list"].as_array().unwrap().len(), 0);

    // A shutdown answers waiting requests at once.
    let path = format!(
        "/mailbox/games/{}?from={}&wait=25",
        hex(&game.records()[0].hash()),
        game.records().len()
    );
    let waiting = tokio::spawn(async move { request(addr, "GET", &path, &[]).await });
    tokio::time::sleep(Duration::from_millis(300)).await;
    server.shutdown_handle().shutdown();
    let (status, _) = tokio::time::timeout(Duration::from_secs(8), waiting)
        .await
        .expect("answered at shutdown")
        .unwrap();
    assert_eq!(status, 200);
}

fn batch(records: &[Record]) -> Vec<u8> {
    reversi_core::match_log::record::encode_batch(records)
}

#[tokio::test]
async fn a_batch_is_taken_in_order_and_stops_at_its_first_refusal() {
    let server = server(MailboxConfig::default()).await;
    let mut game = game(1, 2);
    game.play(sq("f5"), T0 + 1).unwrap();
    let records = game.records().to_vec();
    let path = "/mailbox/records?batch=1";
    let (status, body) = request(server.addr, "POST", path, &batch(&records[..3])).await;
    assert_eq!(
        (status, &body["posted"]),
        (201, &serde_json::json!(3)),
        "{body}"
    );
    assert_eq!(held(server.addr, &records[0]).await, 3);
    // A repeat of stored records with new ones after them: all taken.
    let (status, body) = request(server.addr, "POST", path, &batch(&records)).await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(held(server.addr, &records[0]).await, records.len() as u64);

    // A forged record in the middle: those before it stay, the rest not.
    let mut other = game_of_others();
    other.play(sq("f5"), T0 + 1).unwrap();
    other.play(sq("d6"), T0 + 2).unwrap();
    let theirs = other.records().to_vec();
    let mut forged = theirs[theirs.len() - 1].to_bytes();
    let last = forged.len() - 1;
    forged[last] ^= 1;
    let forged = Record::decode(&forged).unwrap();
    let mut items = theirs[..theirs.len() - 1].to_vec();
    items.push(forged);
    let (status, body) = request(server.addr, "POST", path, &batch(&items)).await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(held(server.addr, &theirs[0]).await, theirs.len() as u64 - 1);

    // Malformed framing and too many items are refused, storing nothing.
    let (status, body) = request(server.addr, "POST", path, &[0x00]).await;
    assert_eq!(status, 400, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("2-byte length"),
        "{body}"
    );
    let (status, body) = request(server.addr, "POST", path, &[0x03, 0xff, 1, 2]).await;
    assert_eq!(status, 400, "{body}");
    let many: Vec<Record> = std::iter::repeat_n(records[0].clone(), 49).collect();
    let (status, body) = request(server.addr, "POST", path, &batch(&many)).await;
    assert_eq!(status, 413, "{body}");
}

#[tokio::test]
async fn forged_replayed_reordered_and_foreign_records_are_refused_and_change_nothing() {
    let server = server(MailboxConfig::default()).await;
    let mut game = game(1, 2);
    game.play(sq("f5"), T0 + 1).unwrap();
    game.play(sq("d6"), T0 + 2).unwrap();
    let records = game.records().to_vec();
    for record in &records[..5] {
        assert_eq!(post(server.addr, record).await.0, 201);
    }
    let genesis = &records[0];

    // Reordered: record 6 before record 5.
    let mut ahead = game.clone();
    ahead.play(sq("c3"), T0 + 3).unwrap();
    let (status, body) = post(server.addr, &ahead.records()[6]).await;
    assert_eq!(status, 409);
    assert!(
        body["error"].as_str().unwrap().contains("out of order"),
        "{body}"
    );

    // Forged: the guest's move with the signature of a stranger.
    let content = records[5].content().clone();
    let forged = Record::sign(content, &Identity::from_seed(9));
    let (status, body) = post(server.addr, &forged).await;
    assert_eq!(status, 400);
    assert!(
        body["error"].as_str().unwrap().contains("signature"),
        "{body}"
    );

    // Changed after signing: a different square under the same signature.
    let mut content = records[5].content().clone();
    content.body = Body::Move(MoveBody {
        square: sq("c5").index(),
        position_hash: [0; 32],
    });
    let tampered = Record::with_signature(content, *records[5].signature());
    let (status, _) = post(server.addr, &tampered).await;
    assert_eq!(status, 400);

    // An illegal move as record 5, correctly signed by the player to move.
    let mut illegal = self::game(1, 2);
    illegal.play(sq("f5"), T0 + 1).unwrap();
    assert_eq!(illegal.records(), &records[..5]);
    let content = illegal.next_content(
        illegal.verifier().seat_to_write().unwrap(),
        T0 + 3,
        Body::Move(MoveBody {
            square: sq("a1").index(),
            position_hash: [0; 32],
        }),
    );
    let seat = content.author;
    let signed = Record::sign(content, illegal.identity(seat));
    let (status, body) = post(server.addr, &signed).await;
    assert_eq!(status, 400);
    assert!(body["error"].as_str().unwrap().contains("a1"), "{body}");
    assert!(
        illegal
            .push(seat, T0 + 3, signed.content().body.clone())
            .is_err()
    );

    // Replayed: a record already stored.
    let (status, body) = post(server.addr, &records[3]).await;
    assert_eq!(status, 409);
    assert_eq!(body["stored"], true, "{body}");

    // Foreign: a record of a game the mailbox does not hold.
    let other = game_of_others();
    let (status, body) = post(server.addr, &other.records()[1]).await;
    assert_eq!(status, 404, "{body}");

    // A record of another game with this game's id and place: refused.
    let mut stranger = other.clone();
    let mut content = stranger.next_content(Seat::Guest, T0, Body::Resign);
    content.game_id = genesis.hash();
    content.seq = 5;
    content.prev = records[4].hash();
    let foreign = Record::sign(content, stranger.identity(Seat::Guest));
    assert_eq!(post(server.addr, &foreign).await.0, 400);
    let _ = stranger.resign(Seat::Guest, T0);

    // Garbage and oversize.
    let (status, _) = request(server.addr, "POST", "/mailbox/records", b"not a record").await;
    assert_eq!(status, 400);
    let (status, body) = request(server.addr, "POST", "/mailbox/records", &vec![7u8; 5000]).await;
    assert_eq!(status, 413, "{body}");

    // Nothing changed, and the genuine next record still goes in.
    assert_eq!(held(server.addr, genesis).await, 5);
    assert_eq!(post(server.addr, &records[5]).await.0, 201);
    assert_eq!(held(server.addr, genesis).await, 6);
}

fn game_of_others() -> MatchBuilder {
    game(3, 4)
}

#[tokio::test]
async fn a_fork_keeps_the_first_record() {
    let server = server(MailboxConfig::default()).await;
    let game = game(1, 2);
    for record in game.records() {
        post(server.addr, record).await;
    }
    let mut first = game.clone();
    first.play(sq("f5"), T0 + 1).unwrap();
    let mut second = game.clone();
    second.play(sq("e6"), T0 + 1).unwrap();
    assert_eq!(post(server.addr, &first.records()[4]).await.0, 201);
    let (status, body) = post(server.addr, &second.records()[4]).await;
    assert_eq!(status, 409);
    assert!(
        body["error"].as_str().unwrap().contains("different"),
        "{body}"
    );
    assert_eq!(held(server.addr, &game.records()[0]).await, 5);
}

#[tokio::test]
async fn quotas_and_floods_are_refused_with_their_reason() {
    let server = server(MailboxConfig {
        max_games_per_key: 2,
        rate: Rate {
            burst: 20,
            refill: Duration::from_secs(60),
        },
        ..MailboxConfig::default()
    })
    .await;
    // One host, three games: the third is over the quota.
    for guest in [2, 3] {
        assert_eq!(post(server.addr, &game(1, guest).records()[0]).await.0, 201);
    }
    let (status, body) = post(server.addr, &game(1, 4).records()[0]).await;
    assert_eq!(status, 403);
    assert!(
        body["error"].as_str().unwrap().contains("unfinished games"),
        "{body}"
    );
    // A full mailbox.
    let small = crate::server(MailboxConfig {
        max_games: 1,
        ..MailboxConfig::default()
    })
    .await;
    assert_eq!(post(small.addr, &game(5, 6).records()[0]).await.0, 201);
    let (status, body) = post(small.addr, &game(7, 8).records()[0]).await;
    assert_eq!(status, 507);
    assert!(body["error"].as_str().unwrap().contains("full"), "{body}");
    // A flood from one address.
    let mut statuses = Vec::new();
    for _ in 0..30 {
        statuses.push(
            request(server.addr, "GET", "/mailbox/rooms/ABCDEFGHIJK", &[])
                .await
                .0,
        );
    }
    assert!(statuses.contains(&429), "{statuses:?}");
    let (status, body) = request(server.addr, "GET", "/mailbox/rooms/ABCDEFGHIJK", &[]).await;
    assert_eq!(status, 429);
    assert!(body["error"].as_str().unwrap().contains("too many"));
}

#[tokio::test]
async fn malformed_ids_are_refused() {
    let server = server(MailboxConfig::default()).await;
    for path in [
        "/mailbox/games/xyz",
        "/mailbox/players/00",
        "/mailbox/rooms/a",
        "/mailbox/records?room=no%20spaces",
    ] {
        let method = if path.contains("records") {
            "POST"
        } else {
            "GET"
        };
        let (status, body) = request(
            server.addr,
            method,
            path,
            &game(1, 2).records()[0].to_bytes(),
        )
        .await;
        assert_eq!(status, 400, "{path}: {body}");
    }
    let (status, _) = request(
        server.addr,
        "GET",
        &format!("/mailbox/games/{}", "ab".repeat(32)),
        &[],
    )
    .await;
    assert_eq!(status, 404);
}

/// Sends a request and hangs up at once, without reading the answer (as a
/// client does with the slower of two copies of a request).
async fn hang_up(addr: SocketAddr, path: &str) {
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let head = format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    stream.write_all(head.as_bytes()).await.unwrap();
    // An RST, not a FIN: the server notices at once. (Deprecated because
    // a nonzero linger blocks on drop; zero does not.)
    #[allow(deprecated)]
    stream.set_linger(Some(Duration::ZERO)).unwrap();
    drop(stream);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clients_that_hang_up_mid_request_leave_the_database_whole() {
    // The in-memory database lives in its one connection: a query cut off
    // by a vanished client once cost the server that connection and with
    // it every game (503 for all requests after).
    let server = server(MailboxConfig {
        rate: Rate {
            burst: 100_000,
            refill: Duration::from_micros(1),
        },
        ..MailboxConfig::default()
    })
    .await;
    let mut game = game(1, 2);
    game.play(sq("f5"), T0 + 1).unwrap();
    for record in game.records() {
        assert_eq!(post(server.addr, record).await.0, 201);
    }
    let id = hex(&game.records()[0].hash());
    let addr = server.addr;
    let quitters: Vec<_> = (0..400)
        .map(|i| {
            let path = match i % 3 {
                0 => format!("/mailbox/games/{id}?from=0"),
                1 => format!("/mailbox/games/{id}?from=5&wait=1"),
                _ => format!(
                    "/mailbox/players/{}",
                    hex(&Identity::from_seed(1).public_key().to_bytes())
                ),
            };
            tokio::spawn(async move { hang_up(addr, &path).await })
        })
        .collect();
    for quitter in quitters {
        quitter.await.unwrap();
    }
    assert_eq!(held(addr, &game.records()[0]).await, 5);
    let (status, body) = request(addr, "GET", &format!("/mailbox/games/{id}?from=0"), &[]).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["list"].as_array().map(Vec::len), Some(5));
}
