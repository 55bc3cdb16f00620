//! The `reversi-signaling` program: starts, logs, serves, and exits 0 on
//! SIGTERM after closing its connections with a reason.

#![cfg(unix)]

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::Duration;

use futures::StreamExt;
use tokio_tungstenite::connect_async;
use tokio_tungstenite::tungstenite::Message;

/// Kills the server by its pid when the test ends before it was reaped,
/// so a failing test leaves no program running.
struct KillOnDrop {
    pid: u32,
    armed: bool,
}

impl KillOnDrop {
    fn new(child: &std::process::Child) -> KillOnDrop {
        KillOnDrop {
            pid: child.id(),
            armed: true,
        }
    }
}

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        if self.armed {
            let _ = Command::new("kill")
                .args(["-KILL", &self.pid.to_string()])
                .status();
        }
    }
}

#[tokio::test]
async fn sigterm_closes_connections_and_exits_0() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_reversi-signaling"))
        .args([
            "--bind",
            "127.0.0.1:0",
            "--log-format",
            "json",
            "--db",
            ":memory:",
        ])
        .env_remove("RUST_LOG")
        .stdout(Stdio::piped())
        .spawn()
        .expect("the server starts");
    let mut guard = KillOnDrop::new(&child);
    let stdout = child.stdout.take().unwrap();
    let mut lines = BufReader::new(stdout).lines();
    // The mailbox opens first; then the server says where it listens.
    let first = lines
        .by_ref()
        .map(|l| l.unwrap())
        .find(|l| l.contains("listening"))
        .expect("the listening line");
    let entry: serde_json::Value = serde_json::from_str(&first).expect("JSON logs");
    let addr = entry["fields"]["addr"]
        .as_str()
        .expect("the bound address is logged")
        .to_string();

    let (mut ws, _) = connect_async(format!("ws://{addr}/term-room"))
        .await
        .expect("connects");
    let _id = ws.next().await;

    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let frame = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            match ws.next().await {
                Some(Ok(Message::Close(frame))) => return frame,
                Some(Ok(_)) => continue,
                other => panic!("expected a close frame, got {other:?}"),
            }
        }
    })
    .await
    .expect("closed in time")
    .expect("with a reason");
    assert_eq!(frame.reason.as_str(), "server shutting down");

    let status = tokio::task::spawn_blocking(move || child.wait())
        .await
        .unwrap()
        .unwrap();
    guard.armed = false;
    assert_eq!(status.code(), Some(0));
    let rest: Vec<String> = lines.map_while(Result::ok).collect();
    assert!(rest.iter().any(|l| l.contains("room opened")), "{rest:?}");
    assert!(rest.iter().any(|l| l.contains("stopped")), "{rest:?}");
    assert!(
        !rest.iter().any(|l| l.contains("term-room")),
        "room names never logged"
    );
}

#[test]
fn sighup_reloads_the_certificate_and_says_so() {
    let dir = std::env::temp_dir().join(format!("reversi-sighup-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let write_pair = || {
        let key = rcgen::KeyPair::generate().unwrap();
        let cert = rcgen::CertificateParams::new(vec!["localhost".to_string()])
            .unwrap()
            .self_signed(&key)
            .unwrap();
        std::fs::write(dir.join("server.crt"), cert.pem()).unwrap();
        std::fs::write(dir.join("server.key"), key.serialize_pem()).unwrap();
    };
    write_pair();
    let mut child = Command::new(env!("CARGO_BIN_EXE_reversi-signaling"))
        .args([
            "--bind",
            "127.0.0.1:0",
            "--log-format",
            "json",
            "--db",
            ":memory:",
            "--tls-cert",
        ])
        .arg(dir.join("server.crt"))
        .arg("--tls-key")
        .arg(dir.join("server.key"))
        .env_remove("RUST_LOG")
        .stdout(Stdio::piped())
        .spawn()
        .expect("the server starts");
    let mut guard = KillOnDrop::new(&child);
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let first = lines
        .by_ref()
        .map(|l| l.unwrap())
        .find(|l| l.contains("listening"))
        .expect("the listening line");
    assert!(first.contains("listening (TLS)"), "{first}");
    write_pair();
    // The handler is installed just after the listening line.
    std::thread::sleep(Duration::from_millis(300));
    let hup = |child: &std::process::Child| {
        let sent = Command::new("kill")
            .args(["-HUP", &child.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
    };
    hup(&child);
    let reloaded = lines.next().expect("a log line").unwrap();
    assert!(reloaded.contains("TLS certificate reloaded"), "{reloaded}");
    std::fs::write(dir.join("server.key"), "garbage").unwrap();
    hup(&child);
    let refused = lines.next().expect("a log line").unwrap();
    assert!(
        refused.contains("still serving the previous certificate"),
        "{refused}"
    );
    let _ = child.kill();
    let _ = child.wait();
    guard.armed = false;
    let _ = std::fs::remove_dir_all(&dir);
}
