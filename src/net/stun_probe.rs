//! Asks a STUN or TURN server over UDP whether it answers at all (a STUN
//! binding request, RFC 8489), to tell a player *why* no connection was
//! found: "the relay did not answer" is something they can act on.

use std::time::Duration;

const MAGIC_COOKIE: [u8; 4] = [0x21, 0x12, 0xa4, 0x42];
const BINDING_REQUEST: [u8; 2] = [0x00, 0x01];
const BINDING_SUCCESS: [u8; 2] = [0x01, 0x01];
const BINDING_ERROR: [u8; 2] = [0x01, 0x11];

/// Where a `stun:`/`turn:` URL points, if it is reached over UDP.
pub fn udp_target(url: &str) -> Option<(String, u16)> {
    let rest = url
        .strip_prefix("stun:")
        .or_else(|| url.strip_prefix("turn:"))?;
    let (authority, query) = rest.split_once('?').unwrap_or((rest, ""));
    if query.contains("transport=tcp") {
        return None;
    }
    let (host, port) = if let Some(v6) = authority.strip_prefix('[') {
        let (host, after) = v6.split_once(']')?;
        (host, after.strip_prefix(':'))
    } else {
        match authority.rsplit_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (authority, None),
        }
    };
    let port = match port {
        Some(p) => p.parse().ok()?,
        None => 3478,
    };
    (!host.is_empty()).then(|| (host.to_string(), port))
}

/// Whether `response` answers the binding request with this transaction id.
fn answers(response: &[u8], transaction: &[u8; 12]) -> bool {
    response.len() >= 20
        && (response[..2] == BINDING_SUCCESS || response[..2] == BINDING_ERROR)
        && response[4..8] == MAGIC_COOKIE
        && response[8..20] == transaction[..]
}

/// Whether the server behind `url` answers a binding request within
/// `timeout` (three tries). `None` when the URL is not reached over UDP.
pub async fn answers_binding(url: &str, timeout: Duration) -> Option<bool> {
    let (host, port) = udp_target(url)?;
    let probe = async {
        let address = tokio::net::lookup_host((host.as_str(), port))
            .await
            .ok()?
            .next()?;
        let bind = if address.is_ipv4() {
            "0.0.0.0:0"
        } else {
            "[::]:0"
        };
        let socket = tokio::net::UdpSocket::bind(bind).await.ok()?;
        let mut transaction = [0u8; 12];
        getrandom::fill(&mut transaction).ok()?;
        let mut request = Vec::with_capacity(20);
        request.extend_from_slice(&BINDING_REQUEST);
        request.extend_from_slice(&[0, 0]);
        request.extend_from_slice(&MAGIC_COOKIE);
        request.extend_from_slice(&transaction);
        let mut buffer = [0u8; 576];
        for _ in 0..3 {
            socket.send_to(&request, address).await.ok()?;
            let wait = tokio::time::timeout(timeout / 3, async {
                loop {
                    match socket.recv_from(&mut buffer).await {
                        Ok((n, from)) if from == address && answers(&buffer[..n], &transaction) => {
                            return true;
                        }
                        Ok(_) => continue,
                        Err(_) => return false,
                    }
                }
            });
            if let Ok(true) = wait.await {
                return Some(true);
            }
        }
        Some(false)
    };
    Some(probe.await.unwrap_or(false))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_name_their_udp_target() {
        assert_eq!(
            udp_target("turn:198.51.100.1:3478?transport=udp"),
            Some(("198.51.100.1".into(), 3478))
        );
        assert_eq!(
            udp_target("stun:stun.example.org"),
            Some(("stun.example.org".into(), 3478))
        );
        assert_eq!(
            udp_target("turn:[2001:db8::1]:5349"),
            Some(("2001:db8::1".into(), 5349))
        );
        assert_eq!(udp_target("turn:h:3478?transport=tcp"), None);
        assert_eq!(udp_target("turns:h:5349"), None);
        assert_eq!(udp_target("turn:h:x"), None);
    }

    #[test]
    fn only_a_matching_answer_counts() {
        let transaction = [7u8; 12];
        let mut good = vec![0x01, 0x01, 0, 0];
        good.extend_from_slice(&MAGIC_COOKIE);
        good.extend_from_slice(&transaction);
        assert!(answers(&good, &transaction));
        assert!(!answers(&good, &[8u8; 12]));
        assert!(!answers(&good[..19], &transaction));
        let mut request = good.clone();
        request[..2].copy_from_slice(&BINDING_REQUEST);
        assert!(!answers(&request, &transaction));
    }

    #[tokio::test]
    async fn a_silent_address_does_not_answer() {
        // A bound socket that never replies.
        let silent = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
        let url = format!("turn:{}", silent.local_addr().unwrap());
        assert_eq!(
            answers_binding(&url, Duration::from_millis(300)).await,
            Some(false)
        );
    }
}
