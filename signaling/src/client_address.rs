//! The address a request comes from, for the per-address limits.
//!
//! Behind a proxy every connection comes from the proxy: one address for
//! all players, which would put them all under one address's limits. When
//! the connection comes from a proxy the operator named trusted
//! (`--trusted-proxy`), the client is the address that proxy appended to
//! `X-Forwarded-For`: the rightmost entry that is not itself a trusted
//! proxy. Entries further left were written by the client or by proxies
//! nobody vouches for, so they are never believed. A connection from any
//! other address keeps its own address, whatever headers it sends.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::extract::{ConnectInfo, Request, State};
use axum::http::HeaderMap;
use axum::middleware::Next;
use axum::response::Response;

/// The client's address: `peer`, or the one a trusted proxy forwarded.
pub fn client_address(peer: IpAddr, headers: &HeaderMap, trusted: &[IpAddr]) -> IpAddr {
    let trusts = |ip: &IpAddr| trusted.contains(&ip.to_canonical());
    if !trusts(&peer) {
        return peer;
    }
    // Several headers are one list, in order.
    let entries = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .map(str::trim)
        .collect::<Vec<_>>();
    let mut client = peer;
    for entry in entries.iter().rev() {
        match entry.parse::<IpAddr>() {
            Ok(ip) if trusts(&ip) => client = ip,
            Ok(ip) => return ip,
            // Unreadable: the proxy's own view is all that can be trusted.
            Err(_) => return client,
        }
    }
    client
}

/// Puts the client's address in the request's `ConnectInfo`, which every
/// handler reads (a middleware, run before the routes).
pub(crate) async fn rewrite(
    State(trusted): State<Arc<[IpAddr]>>,
    mut request: Request,
    next: Next,
) -> Response {
    if let Some(ConnectInfo(peer)) = request.extensions().get::<ConnectInfo<SocketAddr>>() {
        let client = client_address(peer.ip(), request.headers(), &trusted);
        if client != peer.ip() {
            request
                .extensions_mut()
                .insert(ConnectInfo(SocketAddr::new(client, 0)));
        }
    }
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    fn forwarded(values: &[&str]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for value in values {
            headers.append("x-forwarded-for", HeaderValue::from_str(value).unwrap());
        }
        headers
    }

    #[test]
    fn only_a_trusted_proxy_names_the_client() {
        let proxy = [ip("127.0.0.1")];
        let headers = forwarded(&["203.0.113.7"]);
        assert_eq!(
            client_address(ip("127.0.0.1"), &headers, &proxy),
            ip("203.0.113.7")
        );
        assert_eq!(
            client_address(ip("198.51.100.1"), &headers, &proxy),
            ip("198.51.100.1"),
            "anyone else's header is ignored"
        );
        assert_eq!(
            client_address(ip("127.0.0.1"), &HeaderMap::new(), &[]),
            ip("127.0.0.1"),
            "nothing trusted by default"
        );
    }

    #[test]
    fn what_the_client_wrote_itself_is_not_believed() {
        let proxies = [ip("127.0.0.1"), ip("10.0.0.2")];
        // The client claimed 1.1.1.1; the outer proxy saw 203.0.113.7 and
        // the inner one saw the outer proxy.
        let headers = forwarded(&["1.1.1.1, 203.0.113.7", "10.0.0.2"]);
        assert_eq!(
            client_address(ip("127.0.0.1"), &headers, &proxies),
            ip("203.0.113.7")
        );
        let garbage = forwarded(&["203.0.113.7, not-an-address"]);
        assert_eq!(
            client_address(ip("127.0.0.1"), &garbage, &proxies),
            ip("127.0.0.1")
        );
        let mapped = [ip("::ffff:127.0.0.1")];
        assert_eq!(
            client_address(
                ip("::ffff:127.0.0.1"),
                &headers,
                &mapped.map(|a| a.to_canonical())
            ),
            ip("10.0.0.2"),
            "an IPv4 proxy seen over IPv6 is the same proxy"
        );
    }
}
