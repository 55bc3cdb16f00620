//! ICE servers handed to clients at `GET /ice`: the STUN and TURN URLs the
//! operator configured and, for TURN, short-lived credentials in the
//! scheme coturn checks with `use-auth-secret` (the "TURN REST API"):
//! the user name is `<expiry unix time>:<id>` and the password is
//! `base64(HMAC-SHA1(secret, user name))`, so coturn needs no user
//! database and a leaked password stops working when it expires.

use std::time::Duration;

use hmac::{Hmac, Mac};
use serde::Serialize;
use sha1::Sha1;

/// The longest client id accepted (clients send their key fingerprint).
pub const MAX_ID_CHARS: usize = 64;

/// The operator's ICE settings.
#[derive(Clone, Default)]
pub struct IceConfig {
    /// `stun:` URLs.
    pub stun: Vec<String>,
    /// `turn:` and `turns:` URLs.
    pub turn: Vec<String>,
    /// The secret shared with the TURN server (`static-auth-secret`).
    pub turn_secret: Option<String>,
    /// How long a TURN credential is valid.
    pub turn_ttl: Duration,
}

impl std::fmt::Debug for IceConfig {
    // The secret never reaches a log line.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IceConfig")
            .field("stun", &self.stun)
            .field("turn", &self.turn)
            .field("turn_secret", &self.turn_secret.as_ref().map(|_| "…"))
            .field("turn_ttl", &self.turn_ttl)
            .finish()
    }
}

/// Why ICE settings are unusable.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IceConfigError {
    /// A URL with the wrong scheme for its flag.
    #[error("--{flag} takes {expected} URLs, found {found:?}")]
    Scheme {
        /// `stun` or `turn`.
        flag: &'static str,
        /// The schemes allowed.
        expected: &'static str,
        /// The URL given.
        found: String,
    },
    /// A URL with nothing after the scheme, or with spaces.
    #[error("{found:?} names no host (expected e.g. {example})")]
    NoHost {
        /// The URL given.
        found: String,
        /// A well-formed example.
        example: &'static str,
    },
    /// TURN URLs without a secret to make credentials with.
    #[error("--turn needs --turn-secret (the static-auth-secret of the TURN server)")]
    TurnWithoutSecret,
    /// A secret without TURN URLs.
    #[error("--turn-secret is set but no --turn URL is")]
    SecretWithoutTurn,
    /// An empty secret.
    #[error("--turn-secret is empty")]
    EmptySecret,
    /// A lifetime of zero.
    #[error("--turn-ttl must be at least 1 s, found {0:?}")]
    ZeroTtl(Duration),
}

/// Why a `GET /ice` request is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IceRequestError {
    /// The `id` parameter is too long or has characters outside `[A-Za-z0-9_-]`.
    #[error(
        "the id parameter must be 1 to {MAX_ID_CHARS} letters, digits, '-' or '_', found {found:?}"
    )]
    BadId {
        /// What was sent (cut to a printable length).
        found: String,
    },
    /// A query parameter other than `id`.
    #[error("unknown query parameter {found:?} (only id is accepted)")]
    UnknownParameter {
        /// Its name (cut to a printable length).
        found: String,
    },
}

/// One entry of the answer, in the shape of the browser's `RTCIceServer`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct IceServer {
    /// The server's URLs.
    pub urls: Vec<String>,
    /// TURN user name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub username: Option<String>,
    /// TURN password.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub credential: Option<String>,
}

/// The body of `GET /ice`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct IceAnswer {
    /// The servers to use.
    pub ice_servers: Vec<IceServer>,
    /// How long the credentials stay valid, in seconds.
    pub ttl_secs: u64,
}

fn check_urls(
    urls: &[String],
    flag: &'static str,
    schemes: &[&str],
    expected: &'static str,
    example: &'static str,
) -> Result<(), IceConfigError> {
    for url in urls {
        let rest = schemes
            .iter()
            .find_map(|s| url.strip_prefix(s))
            .ok_or_else(|| IceConfigError::Scheme {
                flag,
                expected,
                found: url.clone(),
            })?;
        if rest.is_empty() || rest.starts_with(':') || rest.contains(char::is_whitespace) {
            return Err(IceConfigError::NoHost {
                found: url.clone(),
                example,
            });
        }
    }
    Ok(())
}

impl IceConfig {
    /// Checks the settings as a whole.
    pub fn validate(&self) -> Result<(), IceConfigError> {
        check_urls(
            &self.stun,
            "stun",
            &["stun:", "stuns:"],
            "stun: or stuns:",
            "stun:stun.example.org:3478",
        )?;
        check_urls(
            &self.turn,
            "turn",
            &["turn:", "turns:"],
            "turn: or turns:",
            "turn:turn.example.org:3478?transport=udp",
        )?;
        match (&self.turn_secret, self.turn.is_empty()) {
            (None, false) => return Err(IceConfigError::TurnWithoutSecret),
            (Some(_), true) => return Err(IceConfigError::SecretWithoutTurn),
            (Some(secret), false) if secret.is_empty() => return Err(IceConfigError::EmptySecret),
            _ => {}
        }
        if !self.turn.is_empty() && self.turn_ttl < Duration::from_secs(1) {
            return Err(IceConfigError::ZeroTtl(self.turn_ttl));
        }
        Ok(())
    }

    /// The answer for a client with this id (or `random_id` when it sent
    /// none), at `now_unix` seconds since the epoch.
    pub fn answer(&self, id: Option<&str>, now_unix: u64, random_id: &str) -> IceAnswer {
        let mut ice_servers = Vec::new();
        if !self.stun.is_empty() {
            ice_servers.push(IceServer {
                urls: self.stun.clone(),
                username: None,
                credential: None,
            });
        }
        let mut ttl_secs = 0;
        if let (false, Some(secret)) = (self.turn.is_empty(), &self.turn_secret) {
            ttl_secs = self.turn_ttl.as_secs();
            let username = format!(
                "{}:{}",
                now_unix.saturating_add(ttl_secs),
                id.unwrap_or(random_id)
            );
            let credential = turn_password(secret, &username);
            ice_servers.push(IceServer {
                urls: self.turn.clone(),
                username: Some(username),
                credential: Some(credential),
            });
        }
        IceAnswer {
            ice_servers,
            ttl_secs,
        }
    }

    /// Whether TURN credentials are handed out.
    pub fn issues_credentials(&self) -> bool {
        !self.turn.is_empty() && self.turn_secret.is_some()
    }
}

/// `base64(HMAC-SHA1(secret, username))`, coturn's `use-auth-secret` password.
pub fn turn_password(secret: &str, username: &str) -> String {
    // HMAC takes a key of any length.
    let mut mac = <Hmac<Sha1> as Mac>::new_from_slice(secret.as_bytes()).expect("any key length");
    mac.update(username.as_bytes());
    data_encoding::BASE64.encode(&mac.finalize().into_bytes())
}

fn printable(text: &str) -> String {
    text.chars().take(MAX_ID_CHARS + 8).collect()
}

/// The `id` of a query string such as `id=AB12-CD34`, checked.
pub fn parse_query(query: Option<&str>) -> Result<Option<String>, IceRequestError> {
    let mut id = None;
    for pair in query.unwrap_or("").split('&').filter(|p| !p.is_empty()) {
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        if name != "id" {
            return Err(IceRequestError::UnknownParameter {
                found: printable(name),
            });
        }
        let valid = !value.is_empty()
            && value.len() <= MAX_ID_CHARS
            && value
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        if !valid {
            return Err(IceRequestError::BadId {
                found: printable(value),
            });
        }
        id = Some(value.to_string());
    }
    Ok(id)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> IceConfig {
        IceConfig {
            stun: vec!["stun:198.51.100.1:3478".into()],
            turn: vec!["turn:198.51.100.1:3478?transport=udp".into()],
            turn_secret: Some("north".into()),
            turn_ttl: Duration::from_secs(86_400),
        }
    }

    #[test]
    fn the_password_is_coturns_hmac_sha1() {
        // RFC 2202 test case 2: HMAC-SHA1("Jefe", "what do ya want for nothing?").
        let expected = data_encoding::HEXLOWER
            .decode(b"effcdf6ae5eb2fa2d27416d5f184df9c259a7c79")
            .unwrap();
        assert_eq!(
            turn_password("Jefe", "what do ya want for nothing?"),
            data_encoding::BASE64.encode(&expected)
        );
    }

    #[test]
    fn an_answer_names_the_expiry_and_the_clients_id() {
        let answer = config().answer(Some("AB12"), 1_000, "random");
        assert_eq!(answer.ttl_secs, 86_400);
        assert_eq!(answer.ice_servers.len(), 2);
        assert_eq!(answer.ice_servers[0].username, None);
        let turn = &answer.ice_servers[1];
        assert_eq!(turn.username.as_deref(), Some("87400:AB12"));
        assert_eq!(
            turn.credential.as_deref(),
            Some(turn_password("north", "87400:AB12").as_str())
        );
        let anonymous = config().answer(None, 1_000, "r4nd0m");
        assert_eq!(
            anonymous.ice_servers[1].username.as_deref(),
            Some("87400:r4nd0m")
        );
        let json = serde_json::to_value(&answer).unwrap();
        assert_eq!(json["ice_servers"][0]["urls"][0], "stun:198.51.100.1:3478");
        assert!(json["ice_servers"][0].get("username").is_none());
    }

    #[test]
    fn no_servers_configured_is_an_empty_list() {
        let answer = IceConfig::default().answer(None, 5, "x");
        assert_eq!(answer.ice_servers, vec![]);
        assert_eq!(answer.ttl_secs, 0);
    }

    #[test]
    fn settings_are_checked() {
        assert_eq!(config().validate(), Ok(()));
        let mut c = config();
        c.turn_secret = None;
        assert_eq!(c.validate(), Err(IceConfigError::TurnWithoutSecret));
        let mut c = config();
        c.turn.clear();
        assert_eq!(c.validate(), Err(IceConfigError::SecretWithoutTurn));
        let mut c = config();
        c.turn_secret = Some(String::new());
        assert_eq!(c.validate(), Err(IceConfigError::EmptySecret));
        let mut c = config();
        c.stun = vec!["turn:x".into()];
        assert!(matches!(
            c.validate(),
            Err(IceConfigError::Scheme { flag: "stun", .. })
        ));
        let mut c = config();
        c.turn = vec!["turn:".into()];
        assert!(matches!(c.validate(), Err(IceConfigError::NoHost { .. })));
        let mut c = config();
        c.turn_ttl = Duration::ZERO;
        assert!(matches!(c.validate(), Err(IceConfigError::ZeroTtl(_))));
    }

    #[test]
    fn queries_are_checked() {
        assert_eq!(parse_query(None), Ok(None));
        assert_eq!(parse_query(Some("")), Ok(None));
        assert_eq!(parse_query(Some("id=AB-12_x")), Ok(Some("AB-12_x".into())));
        assert!(matches!(
            parse_query(Some("id=a:b")),
            Err(IceRequestError::BadId { .. })
        ));
        assert!(matches!(
            parse_query(Some("id=")),
            Err(IceRequestError::BadId { .. })
        ));
        let long = format!("id={}", "a".repeat(MAX_ID_CHARS + 1));
        assert!(matches!(
            parse_query(Some(&long)),
            Err(IceRequestError::BadId { .. })
        ));
        assert!(matches!(
            parse_query(Some("user=x")),
            Err(IceRequestError::UnknownParameter { .. })
        ));
    }
}
