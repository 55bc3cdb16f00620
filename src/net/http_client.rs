//! A small bounded HTTP/1.1 client for the signaling server's plain
//! endpoints (`/ice`, `/room/…`, the mailbox, the leaderboard): one
//! request per connection, every answer bounded, `https://` certificates
//! checked against the system's roots.

//!
//! In the browser the page's own `fetch` makes the request (same bounds,
//! same answers); the server's CORS headers let a page from another
//! origin ask.

use std::time::Duration;

use futures::FutureExt as _;
#[cfg(not(target_arch = "wasm32"))]
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

use super::server_url::ServerUrl;

/// Why an HTTP request to the server failed.
#[derive(Debug, thiserror::Error)]
pub enum HttpError {
    /// No connection.
    #[error("cannot reach {server}: {reason}")]
    Connect {
        /// The server asked, as the player named it.
        server: String,
        /// What failed.
        reason: String,
    },
    /// The TLS handshake failed (certificate not trusted, wrong name, …).
    #[cfg(not(target_arch = "wasm32"))]
    #[error("TLS with {server} failed: {reason}")]
    Tls {
        /// The server asked, as the player named it.
        server: String,
        /// What failed.
        reason: String,
    },
    /// No complete answer in time.
    #[error("{server} did not answer within {} s", .timeout.as_secs())]
    Timeout {
        /// The server asked, as the player named it.
        server: String,
        /// How long the request was given.
        timeout: Duration,
    },
    /// An answer that is not HTTP, or too large.
    #[error("{server} sent a malformed answer: {reason}")]
    Malformed {
        /// The server asked, as the player named it.
        server: String,
        /// What is wrong.
        reason: String,
    },
}

/// `GET path` on the server: the status and the body, at most `max_bytes`
/// read, all within `timeout`.
pub async fn http_get(
    server: &ServerUrl,
    path: &str,
    max_bytes: usize,
    timeout: Duration,
) -> Result<(u16, String), HttpError> {
    http_request(server, "GET", path, None, max_bytes, timeout).await
}

/// `GET path` for bytes that need not be text (a page's script, its
/// wasm): the status and the body, bounded like [`http_get`].
#[cfg(not(target_arch = "wasm32"))]
pub async fn http_get_bytes(
    server: &ServerUrl,
    path: &str,
    max_bytes: usize,
    timeout: Duration,
) -> Result<(u16, Vec<u8>), HttpError> {
    let name = server.to_string();
    let exchanged = exchange_bytes(server, "GET", path, None, max_bytes);
    match crate::platform::timeout(timeout, exchanged).await {
        Ok(result) => result,
        Err(_) => Err(HttpError::Timeout {
            server: name,
            timeout,
        }),
    }
}

/// `POST path` with a binary body (`application/octet-stream`): the
/// status and the body of the answer, bounded like [`http_get`].
pub async fn http_post(
    server: &ServerUrl,
    path: &str,
    body: &[u8],
    max_bytes: usize,
    timeout: Duration,
) -> Result<(u16, String), HttpError> {
    http_request(server, "POST", path, Some(body), max_bytes, timeout).await
}

/// Runs `attempt`, and when it has not answered within `after`, a second
/// copy beside it; the first success wins, and an error counts only once
/// both have failed. For idempotent requests on a lossy link: a request
/// whose packets were lost waits for TCP's doubling retransmission timer
/// (a lost SYN costs a second, three losses in a row seven), while a fresh
/// connection usually gets through at once.
pub(crate) async fn hedged<T, E, F>(after: Duration, attempt: impl Fn() -> F) -> Result<T, E>
where
    F: std::future::Future<Output = Result<T, E>>,
{
    let mut first = std::pin::pin!(attempt().fuse());
    let mut delay = std::pin::pin!(crate::platform::sleep(after).fuse());
    futures::select! {
        answer = first => return answer,
        () = delay => {}
    }
    let mut second = std::pin::pin!(attempt().fuse());
    futures::select! {
        answer = first => match answer {
            Ok(value) => Ok(value),
            Err(_) => second.await,
        },
        answer = second => match answer {
            Ok(value) => Ok(value),
            Err(_) => first.await,
        },
    }
}

async fn http_request(
    server: &ServerUrl,
    method: &str,
    path: &str,
    body: Option<&[u8]>,
    max_bytes: usize,
    timeout: Duration,
) -> Result<(u16, String), HttpError> {
    let name = server.to_string();
    let exchanged = exchange(server, method, path, body, max_bytes);
    match crate::platform::timeout(timeout, exchanged).await {
        Ok(result) => result,
        Err(_) => Err(HttpError::Timeout {
            server: name,
            timeout,
        }),
    }
}

#[cfg(target_arch = "wasm32")]
async fn exchange(
    server: &ServerUrl,
    method: &str,
    path: &str,
    body: Option<&[u8]>,
    max_bytes: usize,
) -> Result<(u16, String), HttpError> {
    let scheme = if server.is_tls() { "https" } else { "http" };
    let url = format!("{scheme}://{}{path}", server.authority());
    crate::platform::web::fetch(method, &url, body, max_bytes)
        .await
        .map_err(|e| match e {
            crate::platform::web::FetchError::Unreachable(reason) => HttpError::Connect {
                server: server.to_string(),
                reason,
            },
            crate::platform::web::FetchError::Malformed(reason) => HttpError::Malformed {
                server: server.to_string(),
                reason,
            },
        })
}

#[cfg(not(target_arch = "wasm32"))]
async fn exchange(
    server: &ServerUrl,
    method: &str,
    path: &str,
    body: Option<&[u8]>,
    max_bytes: usize,
) -> Result<(u16, String), HttpError> {
    let (status, body) = exchange_bytes(server, method, path, body, max_bytes).await?;
    let body = String::from_utf8(body).map_err(|_| HttpError::Malformed {
        server: server.to_string(),
        reason: "body is not UTF-8".into(),
    })?;
    Ok((status, body))
}

#[cfg(not(target_arch = "wasm32"))]
async fn exchange_bytes(
    server: &ServerUrl,
    method: &str,
    path: &str,
    body: Option<&[u8]>,
    max_bytes: usize,
) -> Result<(u16, Vec<u8>), HttpError> {
    let name = server.to_string();
    let host = server.host();
    let tcp = tokio::net::TcpStream::connect((host, server.port()))
        .await
        .map_err(|e| HttpError::Connect {
            server: name.clone(),
            reason: e.to_string(),
        })?;
    let content = body.map_or(String::new(), |b| {
        format!(
            "Content-Type: application/octet-stream\r\nContent-Length: {}\r\n",
            b.len()
        )
    });
    let mut request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nUser-Agent: reversi/{}\r\n{content}\r\n",
        server.authority(),
        env!("CARGO_PKG_VERSION")
    )
    .into_bytes();
    request.extend_from_slice(body.unwrap_or_default());
    let response = if server.is_tls() {
        let stream = super::tls_client::connect(host, tcp)
            .await
            .map_err(|reason| HttpError::Tls {
                server: name.clone(),
                reason,
            })?;
        send(stream, &request, max_bytes).await
    } else {
        send(tcp, &request, max_bytes).await
    }
    .map_err(|e| HttpError::Connect {
        server: name.clone(),
        reason: e.to_string(),
    })?;
    parse_response_bytes(&response, max_bytes).map_err(|reason| HttpError::Malformed {
        server: name,
        reason,
    })
}

#[cfg(not(target_arch = "wasm32"))]
async fn send(
    mut stream: impl AsyncRead + AsyncWrite + Unpin,
    request: &[u8],
    max_bytes: usize,
) -> std::io::Result<Vec<u8>> {
    stream.write_all(request).await?;
    let mut response = Vec::new();
    // One byte more than allowed, to tell "too large" from "just fits".
    let limit = (max_bytes + 4096 + 1) as u64;
    let result = (&mut stream).take(limit).read_to_end(&mut response).await;
    match result {
        Ok(_) => Ok(response),
        // A TLS server that closes without close_notify: what arrived counts.
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof && !response.is_empty() => {
            Ok(response)
        }
        Err(e) => Err(e),
    }
}

/// Status and body of an HTTP/1.1 response (headers at most 4 KiB), for a
/// body that must be text.
#[cfg(all(test, not(target_arch = "wasm32")))]
fn parse_response(bytes: &[u8], max_body: usize) -> Result<(u16, String), String> {
    let (status, body) = parse_response_bytes(bytes, max_body)?;
    let body = String::from_utf8(body).map_err(|_| "body is not UTF-8")?;
    Ok((status, body))
}

/// Status and body of an HTTP/1.1 response (headers at most 4 KiB).
#[cfg(not(target_arch = "wasm32"))]
fn parse_response_bytes(bytes: &[u8], max_body: usize) -> Result<(u16, Vec<u8>), String> {
    let split = bytes
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or("no end of headers")?;
    if split > 4096 {
        return Err("headers longer than 4 KiB".into());
    }
    let head = std::str::from_utf8(&bytes[..split]).map_err(|_| "headers are not UTF-8")?;
    let status = head
        .strip_prefix("HTTP/1.1 ")
        .or_else(|| head.strip_prefix("HTTP/1.0 "))
        .and_then(|rest| rest.get(..3))
        .and_then(|code| code.parse::<u16>().ok())
        .ok_or("no HTTP status line")?;
    let chunked = head.lines().any(|l| {
        let l = l.to_ascii_lowercase();
        l.starts_with("transfer-encoding:") && l.contains("chunked")
    });
    let raw = &bytes[split + 4..];
    let body = if chunked { dechunk(raw)? } else { raw.to_vec() };
    if body.len() > max_body {
        return Err(format!("body longer than {max_body} bytes"));
    }
    Ok((status, body))
}

#[cfg(not(target_arch = "wasm32"))]
fn dechunk(mut raw: &[u8]) -> Result<Vec<u8>, String> {
    let mut body = Vec::new();
    loop {
        let line_end = raw
            .windows(2)
            .position(|w| w == b"\r\n")
            .ok_or("truncated chunk")?;
        let size_text = std::str::from_utf8(&raw[..line_end]).map_err(|_| "bad chunk size")?;
        let size_text = size_text.split(';').next().unwrap_or("").trim();
        let size = usize::from_str_radix(size_text, 16).map_err(|_| "bad chunk size")?;
        raw = &raw[line_end + 2..];
        if size == 0 {
            return Ok(body);
        }
        let chunk = raw.get(..size).ok_or("truncated chunk")?;
        body.extend_from_slice(chunk);
        raw = raw.get(size + 2..).ok_or("truncated chunk")?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn responses_are_read_strictly() {
        let ok = b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}";
        assert_eq!(parse_response(ok, 100), Ok((200, "{}".into())));
        let chunked = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n";
        assert_eq!(parse_response(chunked, 100), Ok((200, "{}".into())));
        assert!(parse_response(b"garbage", 100).is_err());
        assert!(parse_response(b"HTTP/1.1 200 OK\r\n\r\n0123456789", 5).is_err());
        let bad_chunk = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nff\r\nab";
        assert!(parse_response(bad_chunk, 100).is_err());
    }

    type Attempt = std::pin::Pin<Box<dyn std::future::Future<Output = Result<usize, usize>>>>;

    /// Attempts that answer after the given delays (`None`: never), with
    /// `Ok(n)` or `Err(n)` for the n-th attempt.
    fn attempts(
        plan: &'static [(Option<u64>, bool)],
    ) -> (
        std::sync::Arc<std::sync::atomic::AtomicUsize>,
        impl Fn() -> Attempt,
    ) {
        let started = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let counter = started.clone();
        let attempt = move || {
            let n = counter.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            let (delay, ok) = plan[n];
            Box::pin(async move {
                match delay {
                    Some(ms) => tokio::time::sleep(Duration::from_millis(ms)).await,
                    None => std::future::pending::<()>().await,
                }
                if ok { Ok(n) } else { Err(n) }
            }) as Attempt
        };
        (started, attempt)
    }

    #[tokio::test(start_paused = true)]
    async fn a_hung_request_is_overtaken_by_its_second_copy() {
        let (started, attempt) = attempts(&[(None, true), (Some(300), true)]);
        let begin = tokio::time::Instant::now();
        assert_eq!(hedged(Duration::from_secs(2), attempt).await, Ok(1));
        assert_eq!(begin.elapsed(), Duration::from_millis(2300));
        assert_eq!(started.load(std::sync::atomic::Ordering::SeqCst), 2);
    }

    #[tokio::test(start_paused = true)]
    async fn a_prompt_answer_or_failure_sends_no_second_copy() {
        let (started, attempt) = attempts(&[(Some(1500), true)]);
        assert_eq!(hedged(Duration::from_secs(2), attempt).await, Ok(0));
        assert_eq!(started.load(std::sync::atomic::Ordering::SeqCst), 1);
        let (started, attempt) = attempts(&[(Some(100), false)]);
        assert_eq!(hedged(Duration::from_secs(2), attempt).await, Err(0));
        assert_eq!(started.load(std::sync::atomic::Ordering::SeqCst), 1);
    }

    #[tokio::test(start_paused = true)]
    async fn a_late_failure_waits_for_the_other_copy() {
        // The first fails after the second started: the second's success counts.
        let (_, attempt) = attempts(&[(Some(2500), false), (Some(1000), true)]);
        assert_eq!(hedged(Duration::from_secs(2), attempt).await, Ok(1));
        // The second fails first: the first's late success counts.
        let (_, attempt) = attempts(&[(Some(4000), true), (Some(100), false)]);
        assert_eq!(hedged(Duration::from_secs(2), attempt).await, Ok(0));
        // Both fail: the error is the last one's.
        let (_, attempt) = attempts(&[(Some(2500), false), (Some(1000), false)]);
        assert_eq!(hedged(Duration::from_secs(2), attempt).await, Err(1));
    }

    proptest::proptest! {
        #[test]
        fn no_response_makes_the_parser_panic(bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..300)) {
            let _ = parse_response(&bytes, 64);
        }
    }
}
