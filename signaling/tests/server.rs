//! The signaling server against real websocket clients on loopback.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures::{SinkExt, StreamExt};
use matchbox_protocol::{JsonPeerEvent, PeerId};
use reversi_signaling::{Config, RunningServer, start};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::{self, Message};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream, connect_async};

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

const WAIT: Duration = Duration::from_secs(5);

async fn server(config: Config) -> RunningServer {
    start("127.0.0.1:0".parse().unwrap(), config)
        .await
        .expect("server starts")
}

async fn connect(addr: SocketAddr, room: &str) -> Result<Ws, tungstenite::Error> {
    connect_async(format!("ws://{addr}/{room}"))
        .await
        .map(|(ws, _)| ws)
}

/// The next signaling event (skipping pings).
async fn event(ws: &mut Ws) -> JsonPeerEvent {
    loop {
        let message = tokio::time::timeout(WAIT, ws.next())
            .await
            .expect("an event in time")
            .expect("the connection is open")
            .expect("no error");
        if let Message::Text(text) = message {
            return text.as_str().parse().expect("a signaling event");
        }
    }
}

/// Connects and returns the socket and its assigned id.
async fn join(addr: SocketAddr, room: &str) -> (Ws, PeerId) {
    let mut ws = connect(addr, room).await.expect("admitted");
    match event(&mut ws).await {
        JsonPeerEvent::IdAssigned(id) => (ws, id),
        other => panic!("expected IdAssigned, got {other:?}"),
    }
}

/// The close frame the server sends, as (code, reason).
async fn close_frame(ws: &mut Ws) -> (u16, String) {
    loop {
        match tokio::time::timeout(WAIT, ws.next())
            .await
            .expect("closed in time")
        {
            Some(Ok(Message::Close(Some(frame)))) => {
                return (frame.code.into(), frame.reason.to_string());
            }
            Some(Ok(Message::Close(None))) | None => return (0, String::new()),
            Some(Ok(_)) => continue,
            Some(Err(e)) => panic!("error instead of a close frame: {e}"),
        }
    }
}

/// An HTTP refusal as (status, body).
fn refusal(error: tungstenite::Error) -> (u16, String) {
    match error {
        tungstenite::Error::Http(response) => {
            let body = response
                .body()
                .as_ref()
                .map(|b| String::from_utf8_lossy(b).into_owned());
            (response.status().as_u16(), body.unwrap_or_default())
        }
        other => panic!("expected an HTTP refusal, got {other}"),
    }
}

async fn signal(ws: &mut Ws, to: PeerId, data: &str) {
    let request = serde_json::json!({ "Signal": { "receiver": to, "data": data } });
    ws.send(Message::Text(request.to_string().into()))
        .await
        .unwrap();
}

/// A raw HTTP/1.1 exchange: returns the status line.
async fn http(addr: SocketAddr, request: &str) -> String {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut buffer = vec![0u8; 4096];
    let n = tokio::time::timeout(WAIT, stream.read(&mut buffer))
        .await
        .unwrap()
        .unwrap();
    String::from_utf8_lossy(&buffer[..n]).into_owned()
}

async fn health(addr: SocketAddr) -> serde_json::Value {
    let response = http(
        addr,
        "GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    )
    .await;
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
    let body = response.split("\r\n\r\n").nth(1).unwrap();
    serde_json::from_str(body).unwrap()
}

/// Waits until health reports `peers` connected peers.
async fn wait_for_peers(addr: SocketAddr, peers: u64) -> serde_json::Value {
    for _ in 0..100 {
        let h = health(addr).await;
        if h["peers"] == peers {
            return h;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("peers never reached {peers}");
}

#[tokio::test]
async fn two_peers_meet_a_third_is_refused_and_a_freed_slot_is_reused() {
    let server = server(Config::default()).await;
    let addr = server.addr;
    let (mut a, a_id) = join(addr, "room-1234").await;
    let (mut b, b_id) = join(addr, "room-1234").await;
    assert_eq!(event(&mut a).await, JsonPeerEvent::NewPeer(b_id));

    signal(&mut a, b_id, "offer").await;
    assert_eq!(
        event(&mut b).await,
        JsonPeerEvent::Signal {
            sender: a_id,
            data: "offer".into()
        }
    );
    signal(&mut b, a_id, "answer").await;
    assert_eq!(
        event(&mut a).await,
        JsonPeerEvent::Signal {
            sender: b_id,
            data: "answer".into()
        }
    );

    let (status, body) = refusal(connect(addr, "room-1234").await.unwrap_err());
    assert_eq!(status, 409);
    assert_eq!(body.trim(), "room is full");

    a.close(None).await.unwrap();
    assert_eq!(event(&mut b).await, JsonPeerEvent::PeerLeft(a_id));
    wait_for_peers(addr, 1).await;
    let (_c, c_id) = join(addr, "room-1234").await;
    assert_eq!(event(&mut b).await, JsonPeerEvent::NewPeer(c_id));
}

#[tokio::test]
async fn invalid_room_names_and_plain_http_are_refused_before_the_upgrade() {
    let server = server(Config::default()).await;
    let addr = server.addr;
    for (room, reason) in [
        ("abc", "expected 4 to 64 characters"),
        ("a_bcd", "only A-Z, a-z, 0-9 and - are allowed"),
        ("", "a room name is required"),
    ] {
        let (status, body) = refusal(connect(addr, room).await.unwrap_err());
        assert_eq!(status, 400, "{room:?}");
        assert!(body.contains(reason), "{room:?}: {body}");
    }
    let long = "a".repeat(65);
    assert_eq!(refusal(connect(addr, &long).await.unwrap_err()).0, 400);

    let plain = http(
        addr,
        "GET /room-1234 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    )
    .await;
    assert!(plain.starts_with("HTTP/1.1 4"), "{plain}");
    let h2c = http(
        addr,
        "GET /room-1234 HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: h2c\r\n\r\n",
    )
    .await;
    assert!(h2c.starts_with("HTTP/1.1 4"), "{h2c}");
}

#[tokio::test]
async fn bad_messages_close_that_connection_with_a_reason() {
    let config = Config {
        max_message_bytes: 1000,
        ..Config::default()
    };
    let server = server(config).await;
    let addr = server.addr;
    let cases: Vec<(Message, u16, &str)> = vec![
        (
            Message::Text("{not json".into()),
            1007,
            "malformed signaling message",
        ),
        (
            Message::Text(r#"{"Shout":"hi"}"#.into()),
            1007,
            "malformed signaling message",
        ),
        (
            Message::Binary(vec![1, 2, 3].into()),
            1003,
            "binary frames are not accepted",
        ),
        (
            Message::Text("x".repeat(1001).into()),
            1009,
            "message too large: 1001 bytes, at most 1000",
        ),
    ];
    for (i, (message, code, reason)) in cases.into_iter().enumerate() {
        let room = format!("bad-room-{i}");
        let (mut ws, _) = join(addr, &room).await;
        ws.send(message).await.unwrap();
        assert_eq!(close_frame(&mut ws).await, (code, reason.to_string()));
    }
    let h = wait_for_peers(addr, 0).await;
    assert_eq!(h["rooms"], 0, "no room outlives its peers");
}

#[tokio::test]
async fn signals_never_cross_rooms() {
    let server = server(Config::default()).await;
    let addr = server.addr;
    let (mut a, _) = join(addr, "room-aaaa").await;
    let (_b, b_id) = join(addr, "room-aaaa").await;
    assert_eq!(event(&mut a).await, JsonPeerEvent::NewPeer(b_id));
    let (mut c, _) = join(addr, "room-cccc").await;
    let (_d, d_id) = join(addr, "room-cccc").await;
    assert_eq!(event(&mut c).await, JsonPeerEvent::NewPeer(d_id));

    // a knows d's id (say, leaked) and signals it: d must not hear it.
    signal(&mut a, d_id, "intrusion").await;
    signal(&mut a, PeerId(Default::default()), "nobody").await;
    let mut d = _d;
    let heard = tokio::time::timeout(Duration::from_millis(300), d.next()).await;
    assert!(heard.is_err(), "d received {heard:?}");
    // a's connection is still fine.
    signal(&mut a, b_id, "still here").await;
    let mut b = _b;
    assert!(matches!(event(&mut b).await, JsonPeerEvent::Signal { .. }));
}

#[tokio::test]
async fn a_silent_client_is_dropped_after_the_idle_timeout_and_keep_alives_keep_it() {
    let config = Config {
        idle_timeout: Duration::from_millis(300),
        ..Config::default()
    };
    let server = server(config).await;
    let (mut silent, _) = join(server.addr, "idle-room").await;
    assert_eq!(
        close_frame(&mut silent).await,
        (1008, "idle timeout".to_string())
    );

    let (mut lively, _) = join(server.addr, "live-room").await;
    for _ in 0..5 {
        tokio::time::sleep(Duration::from_millis(150)).await;
        lively
            .send(Message::Text(r#""KeepAlive""#.into()))
            .await
            .unwrap();
    }
    let h = health(server.addr).await;
    assert_eq!(h["peers"], 1, "the keep-alive client is still connected");
}

#[tokio::test]
async fn the_server_pings_and_a_client_that_answers_is_kept_without_keep_alives() {
    // A background browser tab answers pings (the browser does, with no
    // script running) but sends its own keep-alives only once a minute.
    let config = Config {
        idle_timeout: Duration::from_millis(500),
        ping_every: Duration::from_millis(100),
        ..Config::default()
    };
    let server = server(config).await;
    let (mut ws, _) = join(server.addr, "ping-room").await;
    let mut pings = 0;
    let until = tokio::time::Instant::now() + Duration::from_millis(1500);
    // Reading answers each ping with a pong (tungstenite does that itself).
    while let Ok(Some(message)) = tokio::time::timeout_at(until, ws.next()).await {
        match message.expect("the connection stays open") {
            Message::Ping(_) => pings += 1,
            other => panic!("only pings were expected, got {other:?}"),
        }
    }
    assert!(pings >= 8, "{pings} pings in 1.5 s at one per 100 ms");
    let h = health(server.addr).await;
    assert_eq!(
        h["peers"], 1,
        "a client answering pings outlives the idle timeout"
    );
}

#[tokio::test]
async fn a_silent_member_of_a_full_room_gives_its_place_to_a_newcomer_but_a_live_one_does_not() {
    let config = Config {
        stale_after: Duration::from_millis(1000),
        ..Config::default()
    };
    let server = server(config).await;
    let addr = server.addr;
    let (mut live, live_id) = join(addr, "ghost-room").await;
    let (mut ghost, ghost_id) = join(addr, "ghost-room").await;
    assert_eq!(event(&mut live).await, JsonPeerEvent::NewPeer(ghost_id));
    // Both members keep alive: a third is refused however long it tries.
    for _ in 0..8 {
        tokio::time::sleep(Duration::from_millis(150)).await;
        for ws in [&mut live, &mut ghost] {
            ws.send(Message::Text(r#""KeepAlive""#.into()))
                .await
                .unwrap();
        }
    }
    let (status, _) = refusal(connect(addr, "ghost-room").await.unwrap_err());
    assert_eq!(status, 409, "no live member is displaced");
    // The ghost falls silent (its network is gone); the live member goes on.
    for _ in 0..8 {
        tokio::time::sleep(Duration::from_millis(150)).await;
        live.send(Message::Text(r#""KeepAlive""#.into()))
            .await
            .unwrap();
    }
    let (_back, back_id) = join(addr, "ghost-room").await;
    assert_eq!(
        event(&mut live).await,
        JsonPeerEvent::PeerLeft(ghost_id),
        "the live member learns the ghost left"
    );
    assert_eq!(event(&mut live).await, JsonPeerEvent::NewPeer(back_id));
    assert_eq!(
        close_frame(&mut ghost).await,
        (1008, "replaced by a newer connection".to_string())
    );
    // The ghost's connection ends later, telling nobody again.
    drop(ghost);
    wait_for_peers(addr, 2).await;
    let (status, _) = refusal(connect(addr, "ghost-room").await.unwrap_err());
    assert_eq!(
        status, 409,
        "the room holds the live member and the newcomer"
    );
    live.send(Message::Text(r#""KeepAlive""#.into()))
        .await
        .unwrap();
    let quiet = tokio::time::timeout(Duration::from_millis(300), live.next()).await;
    assert!(quiet.is_err(), "no second notice of the ghost: {quiet:?}");
    let _ = live_id;
}

/// Captures the server's log lines.
#[derive(Clone, Default)]
struct Capture(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Capture {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        std::io::Write::write(&mut *self.0.lock().unwrap(), buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[tokio::test(flavor = "current_thread")]
async fn limits_are_enforced_logged_and_the_server_serves_on() {
    let capture = Capture::default();
    let writer = capture.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::new(
            reversi_signaling::DEFAULT_LOG_FILTER,
        ))
        .with_writer(move || writer.clone())
        .with_ansi(false)
        .finish();
    let _guard = tracing::subscriber::set_default(subscriber);

    let config = Config {
        max_connections: 3,
        max_per_ip: 2,
        ..Config::default()
    };
    let server = server(config).await;
    let addr = server.addr;
    let (_a, _) = join(addr, "limit-one").await;
    let (_b, _) = join(addr, "limit-two").await;
    let (status, body) = refusal(connect(addr, "limit-three").await.unwrap_err());
    assert_eq!(
        (status, body.trim()),
        (429, "too many connections from your address")
    );

    // From another loopback address (127.0.0.2) the per-IP count starts afresh,
    // but the server-wide limit of 3 applies.
    let other = async |room: &str| {
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.bind("127.0.0.2:0".parse().unwrap()).unwrap();
        let stream = socket.connect(addr).await.unwrap();
        tokio_tungstenite::client_async(
            format!("ws://{addr}/{room}"),
            MaybeTlsStream::Plain(stream),
        )
        .await
        .map(|(ws, _)| ws)
    };
    let mut c = other("limit-four").await.expect("admitted");
    let _ = event(&mut c).await;
    wait_for_peers(addr, 3).await;
    let (status, body) = refusal(other("limit-five").await.unwrap_err());
    assert_eq!(
        (status, body.trim()),
        (503, "server is at its connection limit")
    );

    let logs = String::from_utf8(capture.0.lock().unwrap().clone()).unwrap();
    assert!(
        logs.contains("too many connections from your address"),
        "{logs}"
    );
    assert!(logs.contains("server is at its connection limit"), "{logs}");
    assert!(
        !logs.contains("limit-one"),
        "room names never appear in logs"
    );
}

#[tokio::test]
async fn after_abuse_health_answers_and_fresh_peers_still_meet() {
    let config = Config {
        idle_timeout: Duration::from_millis(200),
        max_message_bytes: 500,
        ..Config::default()
    };
    let server = server(config).await;
    let addr = server.addr;
    // Abuse: bad names, plain HTTP, garbage, binary, oversize, silence.
    for room in ["x", "bad_name", "../../etc"] {
        let _ = connect(addr, room).await;
    }
    let _ = http(addr, "GET /room-1234 HTTP/1.1\r\nHost: x\r\n\r\n").await;
    let _ = http(addr, "\x00\x01garbage\r\n\r\n").await;
    for message in [
        Message::Text("]]]".into()),
        Message::Binary(vec![0; 10].into()),
        Message::Text("y".repeat(501).into()),
    ] {
        let (mut ws, _) = join(addr, "abuse-room").await;
        let _ = ws.send(message).await;
        let _ = close_frame(&mut ws).await;
    }
    let (mut silent, _) = join(addr, "silent-room").await;
    let _ = close_frame(&mut silent).await;

    let h = wait_for_peers(addr, 0).await;
    assert_eq!(h["rooms"], 0);
    assert_eq!(h["version"], env!("CARGO_PKG_VERSION"));
    assert!(h["uptime_secs"].is_u64());

    let (mut a, _) = join(addr, "fresh-room").await;
    let (_b, b_id) = join(addr, "fresh-room").await;
    assert_eq!(event(&mut a).await, JsonPeerEvent::NewPeer(b_id));
}

#[tokio::test]
async fn shutdown_closes_connections_with_a_reason_and_stops() {
    let server = server(Config::default()).await;
    let addr = server.addr;
    let (mut a, _) = join(addr, "bye-room").await;
    let handle = server.shutdown_handle();
    handle.shutdown();
    assert_eq!(
        close_frame(&mut a).await,
        (1001, "server shutting down".to_string())
    );
    tokio::time::timeout(Duration::from_secs(10), server.stopped())
        .await
        .expect("the server stops");
    assert!(
        TcpStream::connect(addr).await.is_err(),
        "no longer accepting"
    );
}

#[tokio::test]
async fn behind_a_trusted_proxy_each_forwarded_client_has_its_own_limits() {
    let config = Config {
        max_per_ip: 1,
        trusted_proxies: vec!["127.0.0.1".parse().unwrap()],
        ..Config::default()
    };
    let proxied = server(config).await;
    let addr = proxied.addr;
    let through_proxy = async |room: &str, client: &str| {
        let mut request = tungstenite::client::IntoClientRequest::into_client_request(format!(
            "ws://{addr}/{room}"
        ))
        .unwrap();
        request
            .headers_mut()
            .insert("x-forwarded-for", client.parse().unwrap());
        connect_async(request).await.map(|(ws, _)| ws)
    };
    // Two clients behind the one proxy address: each is let in.
    let mut a = through_proxy("proxied-one", "203.0.113.1")
        .await
        .expect("admitted");
    let _ = event(&mut a).await;
    let mut b = through_proxy("proxied-two", "203.0.113.2")
        .await
        .expect("admitted");
    let _ = event(&mut b).await;
    // A second connection of one of them meets that client's own limit.
    let (status, _) = refusal(
        through_proxy("proxied-three", "1.1.1.1, 203.0.113.1")
            .await
            .unwrap_err(),
    );
    assert_eq!(status, 429, "what the client wrote itself is not believed");

    // An untrusted peer cannot pick its address with the header.
    let untrusted = server(Config {
        max_per_ip: 1,
        ..Config::default()
    })
    .await;
    let other = untrusted.addr;
    let mut c = connect(other, "direct-one").await.expect("admitted");
    let _ = event(&mut c).await;
    let mut request = tungstenite::client::IntoClientRequest::into_client_request(format!(
        "ws://{other}/direct-two"
    ))
    .unwrap();
    request
        .headers_mut()
        .insert("x-forwarded-for", "203.0.113.9".parse().unwrap());
    let (status, _) = refusal(connect_async(request).await.map(|(ws, _)| ws).unwrap_err());
    assert_eq!(status, 429);
}
