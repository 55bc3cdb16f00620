//! A signaling server that does what its operator could: in front of a
//! real `reversi-signaling`, it passes every plain HTTP request on (the
//! mailbox, `/ice`, the page) and hands each answer to the test, which
//! may change it before it goes back — add a record of the operator's
//! own, replay old ones, reorder or withhold them. Players talk to it as
//! to any server (`--server ws://127.0.0.1:PORT`).

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// An answer: its status and body.
pub type Answer = (u16, String);

/// What the operator does to an answer: given the request's method and
/// path and the real server's answer, the answer to send.
pub type Tamper = Box<dyn Fn(&str, &str, Answer) -> Answer + Send>;

/// The hostile server, listening on a loopback port until dropped.
pub struct HostileServer {
    /// Its port on 127.0.0.1.
    pub port: u16,
    tamper: Arc<Mutex<Option<Tamper>>>,
}

impl HostileServer {
    /// In front of the real server on `upstream` (a loopback port);
    /// honest until [`HostileServer::tamper`] says otherwise.
    pub fn start(upstream: u16) -> HostileServer {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let tamper: Arc<Mutex<Option<Tamper>>> = Arc::default();
        let shared = Arc::clone(&tamper);
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let tamper = Arc::clone(&shared);
                std::thread::spawn(move || {
                    let _ = serve(stream, upstream, &tamper);
                });
            }
        });
        HostileServer { port, tamper }
    }

    /// `ws://127.0.0.1:PORT`, as players name a server.
    pub fn url(&self) -> String {
        format!("ws://127.0.0.1:{}", self.port)
    }

    /// From now on, every answer goes through `tamper`.
    pub fn tamper(&self, tamper: impl Fn(&str, &str, Answer) -> Answer + Send + 'static) {
        *self.tamper.lock().unwrap() = Some(Box::new(tamper));
    }

    /// Honest again.
    pub fn honest(&self) {
        *self.tamper.lock().unwrap() = None;
    }
}

/// Reads one HTTP/1.1 message's head and body (by Content-Length).
fn read_message(stream: &mut TcpStream) -> std::io::Result<(String, Vec<u8>)> {
    let mut bytes = Vec::new();
    let mut buf = [0u8; 8192];
    let head_end = loop {
        if let Some(at) = bytes.windows(4).position(|w| w == b"\r\n\r\n") {
            break at;
        }
        let n = stream.read(&mut buf)?;
        if n == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        bytes.extend_from_slice(&buf[..n]);
    };
    let head = String::from_utf8_lossy(&bytes[..head_end]).into_owned();
    let length = head
        .lines()
        .find_map(|l| {
            let (name, value) = l.split_once(':')?;
            name.eq_ignore_ascii_case("content-length")
                .then(|| value.trim().parse::<usize>().ok())?
        })
        .unwrap_or(0);
    let mut body = bytes[head_end + 4..].to_vec();
    while body.len() < length {
        let n = stream.read(&mut buf)?;
        if n == 0 {
            break;
        }
        body.extend_from_slice(&buf[..n]);
    }
    Ok((head, body))
}

fn serve(
    mut client: TcpStream,
    upstream: u16,
    tamper: &Mutex<Option<Tamper>>,
) -> std::io::Result<()> {
    client.set_read_timeout(Some(Duration::from_secs(30)))?;
    let (head, body) = read_message(&mut client)?;
    let request_line = head.lines().next().unwrap_or_default().to_string();
    let mut parts = request_line.split(' ');
    let (method, path) = (
        parts.next().unwrap_or_default().to_string(),
        parts.next().unwrap_or_default().to_string(),
    );
    // Passed on as it came, one request per connection.
    let mut server = TcpStream::connect(("127.0.0.1", upstream))?;
    let mut forwarded =
        format!("{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{upstream}\r\nConnection: close\r\n");
    if !body.is_empty() {
        forwarded.push_str(&format!(
            "Content-Type: application/octet-stream\r\nContent-Length: {}\r\n",
            body.len()
        ));
    }
    forwarded.push_str("\r\n");
    server.write_all(forwarded.as_bytes())?;
    server.write_all(&body)?;
    let mut answer = Vec::new();
    server.read_to_end(&mut answer)?;
    let split = answer
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or(answer.len());
    let status = String::from_utf8_lossy(&answer[..split])
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse::<u16>().ok())
        .unwrap_or(502);
    let text = String::from_utf8_lossy(answer.get(split + 4..).unwrap_or_default()).into_owned();
    let (status, text) = match tamper.lock().unwrap().as_ref() {
        Some(tamper) => tamper(&method, &path, (status, text)),
        None => (status, text),
    };
    let reply = format!(
        "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{text}",
        text.len()
    );
    client.write_all(reply.as_bytes())?;
    client.flush()
}
