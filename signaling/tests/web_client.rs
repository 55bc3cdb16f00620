//! The browser client's files served at `/play/` (`--web-dir`), over real
//! HTTP on loopback, beside the signaling routes.

use std::net::SocketAddr;
use std::time::Duration;

use reversi_signaling::web_assets::WebAssets;
use reversi_signaling::{Config, start};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const WASM: &[u8] = b"\0asm\x01\0\0\0 not really, but bytes";

/// A GET with extra header lines; the whole answer (status line, headers,
/// body) as text.
async fn get(addr: SocketAddr, path: &str, headers: &str) -> String {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let request =
        format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{headers}\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut answer))
        .await
        .expect("an answer within 5 s")
        .unwrap();
    String::from_utf8_lossy(&answer).into_owned()
}

fn header<'a>(answer: &'a str, name: &str) -> Option<&'a str> {
    let head = answer.split("\r\n\r\n").next()?;
    head.lines().find_map(|line| {
        let (key, value) = line.split_once(':')?;
        key.eq_ignore_ascii_case(name).then(|| value.trim())
    })
}

#[tokio::test]
async fn the_page_its_script_and_its_wasm_are_served_with_types_and_validators() {
    let dir = std::env::temp_dir().join(format!("reversi-web-client-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("index.html"),
        "<!doctype html><title>Reversi</title>",
    )
    .unwrap();
    std::fs::write(dir.join("reversi.js"), "export default function init() {}").unwrap();
    std::fs::write(dir.join("reversi_bg.wasm"), WASM).unwrap();
    let web = WebAssets::load(&dir).expect("a bundle");
    std::fs::remove_dir_all(&dir).unwrap();
    let config = Config {
        web: Some(web),
        ..Config::default()
    };
    let server = start("127.0.0.1:0".parse().unwrap(), config)
        .await
        .expect("server starts");
    let addr = server.addr;

    // Without the slash the page's relative addresses would miss: redirect.
    let bare = get(addr, "/play", "").await;
    assert!(bare.starts_with("HTTP/1.1 308"), "{bare}");
    assert_eq!(header(&bare, "location"), Some("/play/"));

    let page = get(addr, "/play/", "").await;
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    assert_eq!(
        header(&page, "content-type"),
        Some("text/html; charset=utf-8")
    );
    assert_eq!(header(&page, "cache-control"), Some("no-cache"));
    assert!(page.ends_with("<title>Reversi</title>"), "{page}");
    let etag = header(&page, "etag").expect("an entity tag").to_string();
    assert_eq!(etag.len(), 66, "a quoted SHA-256: {etag}");

    let wasm = get(addr, "/play/reversi_bg.wasm", "").await;
    assert!(wasm.starts_with("HTTP/1.1 200"), "{wasm}");
    assert_eq!(header(&wasm, "content-type"), Some("application/wasm"));
    assert!(wasm.as_bytes().ends_with(WASM));
    let script = get(addr, "/play/reversi.js", "").await;
    assert_eq!(
        header(&script, "content-type"),
        Some("text/javascript; charset=utf-8")
    );

    // A current copy is confirmed, not sent again; a stale one is sent.
    let again = get(addr, "/play/", &format!("If-None-Match: {etag}\r\n")).await;
    assert!(again.starts_with("HTTP/1.1 304"), "{again}");
    assert!(again.ends_with("\r\n\r\n"), "no body: {again}");
    let stale = get(addr, "/play/", "If-None-Match: \"0000\"\r\n").await;
    assert!(stale.starts_with("HTTP/1.1 200"), "{stale}");

    // Only the bundle's own files, nothing beside or above it.
    for path in [
        "/play/missing.js",
        "/play/..%2FCargo.toml",
        "/play/%2E%2E/Cargo.toml",
    ] {
        let answer = get(addr, path, "").await;
        assert!(answer.starts_with("HTTP/1.1 404"), "{path}: {answer}");
    }

    // The signaling routes are as before.
    let health = get(addr, "/health", "").await;
    assert!(health.starts_with("HTTP/1.1 200"), "{health}");
    let room = get(addr, "/room/ABCDEFGHIJK", "").await;
    assert!(room.starts_with("HTTP/1.1 200"), "{room}");
}

#[tokio::test]
async fn without_a_bundle_there_is_no_play_page() {
    let server = start("127.0.0.1:0".parse().unwrap(), Config::default())
        .await
        .expect("server starts");
    let page = get(server.addr, "/play/", "").await;
    assert!(!page.starts_with("HTTP/1.1 200"), "{page}");
}

#[tokio::test]
async fn a_page_from_another_origin_may_ask_the_plain_endpoints() {
    let config = Config {
        mailbox: Some(reversi_signaling::mailbox::MailboxConfig::default()),
        ..Config::default()
    };
    let server = start("127.0.0.1:0".parse().unwrap(), config)
        .await
        .expect("server starts");
    let addr = server.addr;
    let origin = "Origin: http://192.168.1.20:3536\r\n";
    let room = get(addr, "/room/ABCDEFGHIJK", origin).await;
    assert!(room.starts_with("HTTP/1.1 200"), "{room}");
    assert_eq!(header(&room, "access-control-allow-origin"), Some("*"));
    // The mailbox's POST (a binary body) is asked about first.
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let preflight = format!(
        "OPTIONS /mailbox/records HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{origin}\
         Access-Control-Request-Method: POST\r\nAccess-Control-Request-Headers: content-type\r\n\r\n"
    );
    stream.write_all(preflight.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.unwrap();
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    let methods = header(&answer, "access-control-allow-methods").unwrap_or_default();
    assert!(methods.contains("POST"), "{answer}");
    let allowed = header(&answer, "access-control-allow-headers").unwrap_or_default();
    assert!(
        allowed.to_ascii_lowercase().contains("content-type"),
        "{answer}"
    );
    // Without an Origin (a native client) nothing changes.
    let plain = get(addr, "/room/ABCDEFGHIJK", "").await;
    assert!(plain.starts_with("HTTP/1.1 200"), "{plain}");
    server.shutdown_handle().shutdown();
}
