//! Capacity of the signaling server on loopback: N rooms of two websocket
//! peers, each pair swapping a few signals, all held at once, then closed.
//!
//! Run: `cargo bench -p reversi-signaling --bench capacity -- [ROOMS]`
//! (default 5000 rooms = 10,000 peers). The server runs as its own process
//! (`reversi-signaling`) so its memory can be read from /proc. The load is
//! bounded in count and time and stays on 127.0.0.1.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use futures::{SinkExt, StreamExt, stream};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream, connect_async};

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

const CONCURRENCY: usize = 64;
const SIGNALS_EACH_WAY: usize = 3;
const DEADLINE: Duration = Duration::from_secs(300);

fn rss_kib(child: &Child) -> u64 {
    let status =
        std::fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// `heap_bytes` from the server's health document, in KiB.
async fn heap_kib(addr: &str) -> u64 {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream
        .write_all(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).await.unwrap();
    let body = response.split("\r\n\r\n").nth(1).unwrap_or("{}");
    let health: serde_json::Value = serde_json::from_str(body).unwrap_or_default();
    health["heap_bytes"].as_u64().unwrap_or(0) / 1024
}

async fn text_event(ws: &mut Ws) -> serde_json::Value {
    loop {
        match ws.next().await {
            Some(Ok(Message::Text(t))) => {
                return serde_json::from_str(t.as_str()).expect("json event");
            }
            Some(Ok(_)) => continue,
            other => panic!("connection lost: {other:?}"),
        }
    }
}

/// Opens one room: returns both sockets and the time from the second
/// peer's connect to the first peer hearing of it.
async fn open_room(addr: &str, room: usize) -> (Ws, Ws, Duration) {
    let url = format!("ws://{addr}/load-room-{room:06}");
    let (mut a, _) = connect_async(&url).await.expect("first peer admitted");
    let a_id = text_event(&mut a).await["IdAssigned"].clone();
    let started = Instant::now();
    let (mut b, _) = connect_async(&url).await.expect("second peer admitted");
    let joined = text_event(&mut a).await;
    let latency = started.elapsed();
    assert!(joined.get("NewPeer").is_some(), "{joined}");
    let b_id = text_event(&mut b).await["IdAssigned"].clone();
    for i in 0..SIGNALS_EACH_WAY {
        let to_b = serde_json::json!({"Signal": {"receiver": b_id, "data": format!("offer {i}")}});
        a.send(Message::Text(to_b.to_string().into()))
            .await
            .unwrap();
        let to_a = serde_json::json!({"Signal": {"receiver": a_id, "data": format!("answer {i}")}});
        b.send(Message::Text(to_a.to_string().into()))
            .await
            .unwrap();
        text_event(&mut b).await;
        text_event(&mut a).await;
    }
    (a, b, latency)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn main() {
    let rooms: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(5000);
    let mut server = Command::new(env!("CARGO_BIN_EXE_reversi-signaling"))
        .args([
            "--bind",
            "127.0.0.1:0",
            "--log-format",
            "json",
            "--db",
            ":memory:",
            "--max-per-ip",
            "100000",
            "--max-connections",
            "100000",
            "--idle-timeout",
            "10m",
        ])
        .env("RUST_LOG", "warn,reversi_signaling=info")
        .stdout(Stdio::piped())
        .spawn()
        .expect("the server binary runs");
    let mut lines = BufReader::new(server.stdout.take().unwrap()).lines();
    let first: serde_json::Value = serde_json::from_str(&lines.next().unwrap().unwrap()).unwrap();
    let addr = first["fields"]["addr"].as_str().unwrap().to_string();
    // Drain the server's log so it never blocks on a full pipe.
    std::thread::spawn(move || for _ in lines {});
    std::thread::sleep(Duration::from_millis(200));
    let baseline = rss_kib(&server);

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let heap_baseline = runtime.block_on(heap_kib(&addr));
    runtime.block_on(async {
        let started = Instant::now();
        let held: Vec<(Ws, Ws, Duration)> = tokio::time::timeout(
            DEADLINE,
            stream::iter(0..rooms)
                .map(|room| open_room(&addr, room))
                .buffer_unordered(CONCURRENCY)
                .collect(),
        )
        .await
        .expect("the load finishes in time");
        let elapsed = started.elapsed();
        tokio::time::sleep(Duration::from_millis(500)).await;
        let peak = rss_kib(&server);
        let heap_peak = heap_kib(&addr).await;
        let mut latencies: Vec<Duration> = held.iter().map(|(_, _, l)| *l).collect();
        latencies.sort();
        println!("rooms held concurrently: {} ({} peers)", held.len(), 2 * held.len());
        println!(
            "connection rate: {:.0} connections/s ({} connections in {:.2} s, {CONCURRENCY} rooms opening at a time)",
            (2 * rooms) as f64 / elapsed.as_secs_f64(),
            2 * rooms,
            elapsed.as_secs_f64()
        );
        println!(
            "connect to PeerJoined: median {:.2} ms, p99 {:.2} ms",
            percentile(&latencies, 0.5).as_secs_f64() * 1e3,
            percentile(&latencies, 0.99).as_secs_f64() * 1e3
        );
        println!(
            "server memory: baseline {baseline} KiB, with all rooms {peak} KiB, {:.1} KiB per connected peer",
            (peak.saturating_sub(baseline)) as f64 / (2 * rooms) as f64
        );
        println!(
            "server heap in use: baseline {heap_baseline} KiB, with all rooms {heap_peak} KiB, {:.1} KiB per connected peer",
            (heap_peak.saturating_sub(heap_baseline)) as f64 / (2 * rooms) as f64
        );
        for (mut a, mut b, _) in held {
            let _ = a.close(None).await;
            let _ = b.close(None).await;
        }
        tokio::time::sleep(Duration::from_secs(2)).await;
        println!(
            "server heap in use after all closed: {} KiB (baseline {heap_baseline} KiB)",
            heap_kib(&addr).await
        );
    });
    let after = rss_kib(&server);
    println!(
        "server resident memory after all closed: {after} KiB (the allocator keeps freed pages for reuse)"
    );
    let _ = server.kill();
    let _ = server.wait();
}
