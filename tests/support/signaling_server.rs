//! A stand-alone `reversi-signaling` for the integration tests: started
//! on a free loopback port, stopped (or killed) when the test says.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use super::{KillOnDrop, free_port};

/// A signaling server inside the test process, on a free loopback port.
pub async fn in_process(config: reversi_signaling::Config) -> reversi_signaling::RunningServer {
    reversi_signaling::start("127.0.0.1:0".parse().expect("a loopback address"), config)
        .await
        .expect("the signaling server starts")
}

/// The stand-alone server, built beside `reversi` (`cargo test --workspace`
/// builds it for its own tests).
pub fn server_binary() -> PathBuf {
    let path = super::reversi_binary().with_file_name("reversi-signaling");
    assert!(
        path.exists(),
        "{} is missing: run `cargo test --workspace` (or tests/all.sh), which builds it",
        path.display()
    );
    path
}

/// A running `reversi-signaling` with its mailbox.
pub struct Server {
    process: KillOnDrop,
    /// Its port on 127.0.0.1.
    pub port: u16,
    /// Its `--db`.
    pub db: String,
}

impl Server {
    /// The server on a free port, with its mailbox in `db`.
    pub fn start(db: &str) -> Server {
        Server::start_on(free_port(), db)
    }

    /// The server on `port`, with its mailbox in `db`.
    pub fn start_on(port: u16, db: &str) -> Server {
        Server::start_with(port, db, &[], Stdio::null())
    }

    /// The server on `port`, with its mailbox in `db`, more arguments, and
    /// its standard error sent to `stderr`.
    pub fn start_with(port: u16, db: &str, more: &[&str], stderr: Stdio) -> Server {
        let process = Command::new(server_binary())
            .args(["--bind", &format!("127.0.0.1:{port}"), "--db", db])
            .args(more)
            .stdout(Stdio::null())
            .stderr(stderr)
            .spawn()
            .unwrap();
        let server = Server {
            process: KillOnDrop(process),
            port,
            db: db.to_string(),
        };
        let started = Instant::now();
        while server.get("/health").is_none() {
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "the server did not start"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        server
    }

    /// `ws://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("ws://127.0.0.1:{}", self.port)
    }

    /// SIGTERM, and wait for a clean exit.
    pub fn stop(mut self) {
        let pid = self.process.id().to_string();
        Command::new("kill").args(["-TERM", &pid]).status().unwrap();
        let status = self.process.wait().unwrap();
        assert!(status.success(), "the server stopped with {status}");
    }

    /// SIGKILL: a crash.
    pub fn kill(mut self) {
        self.process.kill().unwrap();
        let _ = self.process.wait();
    }

    /// Status and body of `GET path`, or `None` if the server is not up.
    pub fn get(&self, path: &str) -> Option<(u16, String)> {
        self.request("GET", path, &[])
    }

    /// Status and body of a request, or `None` if the server is not up.
    pub fn request(&self, method: &str, path: &str, body: &[u8]) -> Option<(u16, String)> {
        request(self.port, method, path, body)
    }

    /// How many records the mailbox holds of a game.
    pub fn held(&self, game_id: &str) -> u64 {
        let (status, body) = self.get(&format!("/mailbox/games/{game_id}")).unwrap();
        assert_eq!(status, 200, "{body}");
        serde_json::from_str::<Value>(&body).unwrap()["records"]
            .as_u64()
            .unwrap()
    }
}

/// Status and body of a request to the server on loopback `port`, or
/// `None` if it is not up.
pub fn request(port: u16, method: &str, path: &str, body: &[u8]) -> Option<(u16, String)> {
    request_to(([127, 0, 0, 1], port).into(), method, path, body)
}

/// Status and body of a request to the server at `addr`, or `None` if it
/// does not answer.
pub fn request_to(
    addr: std::net::SocketAddr,
    method: &str,
    path: &str,
    body: &[u8],
) -> Option<(u16, String)> {
    let mut stream = TcpStream::connect_timeout(&addr, Duration::from_secs(5)).ok()?;
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).ok()?;
    stream.write_all(body).ok()?;
    let mut answer = String::new();
    stream.read_to_string(&mut answer).ok()?;
    parse_answer(&answer)
}

/// The status and body of an HTTP/1.x answer.
fn parse_answer(answer: &str) -> Option<(u16, String)> {
    let status = answer.get(9..12)?.parse().ok()?;
    let body = answer.split_once("\r\n\r\n")?.1.to_string();
    Some((status, body))
}
