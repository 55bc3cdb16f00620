//! Signaling server addresses (`ws://`, `wss://`, or their `http(s)://`
//! spellings), checked.

use std::fmt;

/// A signaling server's address, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerUrl {
    tls: bool,
    /// Host name or address (IPv6 in brackets).
    host: String,
    port: u16,
}

/// Why text is not a server address.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ServerUrlError {
    /// An unknown scheme.
    #[error("a server address starts with ws://, wss://, http:// or https://, found {found:?}")]
    Scheme {
        /// The text given, cut to 80 characters.
        found: String,
    },
    /// No host, or characters a host cannot have.
    #[error("no valid host in {found:?} (expected e.g. wss://play.example.org)")]
    Host {
        /// The text given, cut to 80 characters.
        found: String,
    },
    /// A port that is not a number from 1 to 65535.
    #[error("the port in {found:?} is not a number from 1 to 65535")]
    Port {
        /// The text given, cut to 80 characters.
        found: String,
    },
}

impl ServerUrl {
    /// Parses `ws://HOST[:PORT][/…]`, `wss://…`, `http://…` or `https://…`
    /// (any path is ignored: it may be a room URL).
    pub fn parse(text: &str) -> Result<ServerUrl, ServerUrlError> {
        let text = text.trim();
        let (tls, rest) = [
            ("ws://", false),
            ("http://", false),
            ("wss://", true),
            ("https://", true),
        ]
        .iter()
        .find_map(|(p, tls)| {
            text.get(..p.len())
                .filter(|s| s.eq_ignore_ascii_case(p))
                .map(|_| (*tls, &text[p.len()..]))
        })
        .ok_or_else(|| ServerUrlError::Scheme {
            found: text.chars().take(80).collect(),
        })?;
        let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
        let host_error = || ServerUrlError::Host {
            found: text.chars().take(80).collect(),
        };
        let (host, port) = if let Some(v6) = authority.strip_prefix('[') {
            let (inside, after) = v6.split_once(']').ok_or_else(host_error)?;
            inside
                .parse::<std::net::Ipv6Addr>()
                .map_err(|_| host_error())?;
            (format!("[{inside}]"), after.strip_prefix(':'))
        } else {
            match authority.rsplit_once(':') {
                Some((h, p)) => (h.to_string(), Some(p)),
                None => (authority.to_string(), None),
            }
        };
        let valid_host = !host.is_empty()
            && (host.starts_with('[')
                || host
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-'));
        if !valid_host {
            return Err(host_error());
        }
        let port =
            match port {
                None => {
                    if tls {
                        443
                    } else {
                        80
                    }
                }
                Some(p) => p.parse::<u16>().ok().filter(|p| *p != 0).ok_or_else(|| {
                    ServerUrlError::Port {
                        found: text.chars().take(80).collect(),
                    }
                })?,
            };
        Ok(ServerUrl { tls, host, port })
    }

    /// A plain `ws://` server at an address (the embedded server).
    pub fn from_socket_addr(addr: std::net::SocketAddr) -> ServerUrl {
        let host = match addr.ip() {
            std::net::IpAddr::V4(ip) => ip.to_string(),
            std::net::IpAddr::V6(ip) => format!("[{ip}]"),
        };
        ServerUrl {
            tls: false,
            host,
            port: addr.port(),
        }
    }

    /// The address, when this is a plain `ws://` server named by IP.
    pub fn socket_addr(&self) -> Option<std::net::SocketAddr> {
        if self.tls {
            return None;
        }
        let host = self.host.trim_start_matches('[').trim_end_matches(']');
        let ip: std::net::IpAddr = host.parse().ok()?;
        Some(std::net::SocketAddr::new(ip, self.port))
    }

    /// The host name or address (IPv6 without brackets).
    pub fn host(&self) -> &str {
        self.host.trim_start_matches('[').trim_end_matches(']')
    }

    /// The TCP port: as the URL gives it, else 443 with TLS and 80 without.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Whether the server is reached over TLS.
    pub fn is_tls(&self) -> bool {
        self.tls
    }

    /// The websocket URL of a room on this server.
    pub fn room_url(&self, room: &str) -> String {
        format!("{self}/{room}")
    }

    /// The host and port as an HTTP `Host` header names them (the port
    /// left out when it is the scheme's default).
    pub fn authority(&self) -> String {
        let default = if self.tls { 443 } else { 80 };
        if self.port == default {
            self.host.clone()
        } else {
            format!("{}:{}", self.host, self.port)
        }
    }
}

impl fmt::Display for ServerUrl {
    /// `ws://host:port` or `wss://host[:port]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let scheme = if self.tls { "wss" } else { "ws" };
        write!(f, "{scheme}://{}", self.authority())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_addresses_parse_in_every_spelling() {
        let s = ServerUrl::parse("ws://192.0.2.1:3536").unwrap();
        assert_eq!(s.to_string(), "ws://192.0.2.1:3536");
        assert_eq!(s.room_url("ROOM"), "ws://192.0.2.1:3536/ROOM");
        let s = ServerUrl::parse("https://play.example.org/").unwrap();
        assert!(s.is_tls());
        assert_eq!(s.to_string(), "wss://play.example.org");
        assert_eq!(s.port, 443);
        let s = ServerUrl::parse("WSS://play.example.org:8443/K7QFM2XAPZ4").unwrap();
        assert_eq!(s.to_string(), "wss://play.example.org:8443");
        let s = ServerUrl::parse("ws://[::1]:9/x").unwrap();
        assert_eq!(s.to_string(), "ws://[::1]:9");
        for bad in [
            "ftp://x",
            "x:1",
            "",
            "ws://",
            "ws://a b",
            "ws://h:0",
            "ws://h:99999",
            "ws://[zz]:1",
        ] {
            assert!(ServerUrl::parse(bad).is_err(), "{bad:?}");
        }
    }

    proptest::proptest! {
        #[test]
        fn no_text_makes_the_url_parser_panic(text in "\\PC{0,40}") {
            let _ = ServerUrl::parse(&text);
        }
    }
}
