//! `GET /ice` and `GET /metrics` on a real server over loopback.

use std::net::SocketAddr;
use std::time::Duration;

use reversi_signaling::ice::{IceConfig, turn_password};
use reversi_signaling::rate_limit::Rate;
use reversi_signaling::{Config, start};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const SECRET: &str = "correct horse battery staple";

fn config() -> Config {
    Config {
        ice: IceConfig {
            stun: vec!["stun:198.51.100.7:3478".into()],
            turn: vec![
                "turn:198.51.100.7:3478?transport=udp".into(),
                "turn:198.51.100.7:3478?transport=tcp".into(),
            ],
            turn_secret: Some(SECRET.into()),
            turn_ttl: Duration::from_secs(3600),
        },
        ice_rate: Rate {
            burst: 4,
            refill: Duration::from_secs(3600),
        },
        ..Config::default()
    }
}

/// (status, headers, body) of one GET.
async fn get(addr: SocketAddr, path: &str) -> (u16, String, String) {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let request = format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut response))
        .await
        .unwrap()
        .unwrap();
    let text = String::from_utf8(response).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    let status = head[9..12].parse().unwrap();
    (status, head.to_string(), body.to_string())
}

fn now_unix() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

#[tokio::test]
async fn ice_hands_out_coturn_credentials_for_the_clients_id() {
    let server = start("127.0.0.1:0".parse().unwrap(), config())
        .await
        .unwrap();
    let (status, head, body) = get(server.addr, "/ice?id=AB12-CD34").await;
    assert_eq!(status, 200, "{body}");
    assert!(
        head.to_ascii_lowercase()
            .contains("cache-control: no-store"),
        "{head}"
    );
    let answer: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(answer["ttl_secs"], 3600);
    let servers = answer["ice_servers"].as_array().unwrap();
    assert_eq!(servers.len(), 2);
    assert_eq!(
        servers[0]["urls"],
        serde_json::json!(["stun:198.51.100.7:3478"])
    );
    assert!(servers[0].get("username").is_none());
    assert_eq!(servers[1]["urls"].as_array().unwrap().len(), 2);
    let username = servers[1]["username"].as_str().unwrap();
    let (expiry, id) = username.split_once(':').unwrap();
    assert_eq!(id, "AB12-CD34");
    let expiry: u64 = expiry.parse().unwrap();
    let now = now_unix();
    assert!(
        (now + 3590..=now + 3610).contains(&expiry),
        "expiry {expiry} is not an hour after {now}"
    );
    assert_eq!(
        servers[1]["credential"].as_str().unwrap(),
        turn_password(SECRET, username)
    );

    // Without an id, a random one.
    let (_, _, body) = get(server.addr, "/ice").await;
    let answer: serde_json::Value = serde_json::from_str(&body).unwrap();
    let username = answer["ice_servers"][1]["username"].as_str().unwrap();
    assert!(
        username.split_once(':').unwrap().1.len() >= 16,
        "{username}"
    );
    server.shutdown_handle().shutdown();
}

#[tokio::test]
async fn bad_ice_requests_get_400_floods_get_429_and_metrics_count_them() {
    let server = start("127.0.0.1:0".parse().unwrap(), config())
        .await
        .unwrap();
    let (status, _, body) = get(server.addr, "/ice?id=a%3Ab").await;
    assert_eq!(status, 400);
    assert!(body.contains("the id parameter must be"), "{body}");
    let (status, _, body) = get(server.addr, "/ice?user=x").await;
    assert_eq!(status, 400);
    assert!(body.contains("unknown query parameter \"user\""), "{body}");
    // The burst is 4 and both refusals above used tokens.
    for _ in 0..2 {
        assert_eq!(get(server.addr, "/ice?id=x").await.0, 200);
    }
    let (status, _, body) = get(server.addr, "/ice?id=x").await;
    assert_eq!(status, 429);
    assert!(body.contains("too many /ice requests"), "{body}");

    let (status, head, text) = get(server.addr, "/metrics").await;
    assert_eq!(status, 200);
    assert!(head.contains("text/plain; version=0.0.4"), "{head}");
    for line in [
        "reversi_signaling_turn_credentials_issued_total 2",
        "reversi_signaling_ice_requests_total 2",
        "reversi_signaling_refusals_total{reason=\"bad_ice_request\"} 2",
        "reversi_signaling_refusals_total{reason=\"ice_rate_limited\"} 1",
        "reversi_signaling_connections 0",
        "reversi_signaling_rooms 0",
    ] {
        assert!(text.lines().any(|l| l == line), "{line:?} missing:\n{text}");
    }
    assert!(
        !text.contains(SECRET),
        "the secret never shows in the metrics"
    );
    server.shutdown_handle().shutdown();
}

#[tokio::test]
async fn a_server_without_ice_settings_answers_an_empty_list() {
    let server = start("127.0.0.1:0".parse().unwrap(), Config::default())
        .await
        .unwrap();
    let (status, _, body) = get(server.addr, "/ice").await;
    assert_eq!(status, 200);
    let answer: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        answer,
        serde_json::json!({"ice_servers": [], "ttl_secs": 0})
    );
    server.shutdown_handle().shutdown();
}

#[tokio::test]
async fn turn_without_a_secret_is_refused_at_start() {
    let mut config = config();
    config.ice.turn_secret = None;
    let error = start("127.0.0.1:0".parse().unwrap(), config)
        .await
        .unwrap_err();
    assert!(
        error.to_string().contains("--turn needs --turn-secret"),
        "{error}"
    );
}
