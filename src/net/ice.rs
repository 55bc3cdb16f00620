//! Which STUN and TURN servers a client uses: those the signaling server
//! hands out at `GET /ice` (so a player configures nothing), plus any the
//! player gave. The server's answer is untrusted input: it is read with a
//! bounded client and checked before use.

use std::time::Duration;

use super::http_client::{HttpError, http_get};
use super::server_url::ServerUrl;
use super::transport::IceServers;

/// The largest `/ice` answer read.
const MAX_ANSWER_BYTES: usize = 16 * 1024;

/// URLs accepted from one answer.
const MAX_URLS: usize = 16;

/// The longest URL, user name or credential accepted.
const MAX_FIELD_CHARS: usize = 512;

/// How long the request may take in all.
pub const FETCH_TIMEOUT: Duration = Duration::from_secs(3);

/// Why the server's ICE servers could not be used.
#[derive(Debug, thiserror::Error)]
pub enum IceFetchError {
    /// The server could not be reached, or answered badly.
    #[error(transparent)]
    Http(#[from] HttpError),
    /// The server answered with an error status.
    #[error("the server answered /ice with status {status}: {reason}")]
    Status {
        /// The HTTP status.
        status: u16,
        /// The body (cut short).
        reason: String,
    },
    /// The answer is not the expected JSON.
    #[error("the server's /ice answer is malformed: {0}")]
    Malformed(String),
}

#[derive(serde::Deserialize)]
struct Answer {
    ice_servers: Vec<Entry>,
    #[serde(default)]
    ttl_secs: u64,
}

#[derive(serde::Deserialize)]
struct Entry {
    urls: Vec<String>,
    #[serde(default)]
    username: Option<String>,
    #[serde(default)]
    credential: Option<String>,
}

fn checked(text: &str) -> Result<(IceServers, Duration), IceFetchError> {
    let answer: Answer =
        serde_json::from_str(text).map_err(|e| IceFetchError::Malformed(e.to_string()))?;
    let ttl = Duration::from_secs(answer.ttl_secs);
    let mut servers = IceServers::default();
    for entry in answer.ice_servers {
        for url in entry.urls {
            let scheme_ok = ["stun:", "stuns:", "turn:", "turns:"]
                .iter()
                .any(|s| url.starts_with(s));
            if !scheme_ok || url.len() > MAX_FIELD_CHARS {
                return Err(IceFetchError::Malformed(format!(
                    "{:?} is not a stun: or turn: URL",
                    url.chars().take(80).collect::<String>()
                )));
            }
            if servers.urls.len() >= MAX_URLS {
                return Err(IceFetchError::Malformed(format!(
                    "more than {MAX_URLS} URLs"
                )));
            }
            servers.urls.push(url);
        }
        for (field, value) in [
            ("username", &entry.username),
            ("credential", &entry.credential),
        ] {
            if value.as_ref().is_some_and(|v| v.len() > MAX_FIELD_CHARS) {
                return Err(IceFetchError::Malformed(format!(
                    "{field} longer than {MAX_FIELD_CHARS} characters"
                )));
            }
        }
        // The WebRTC stack takes one credential for all servers; STUN
        // ignores it, so the TURN entry's is the one to keep.
        if entry.username.is_some() {
            servers.username = entry.username;
            servers.credential = entry.credential;
        }
    }
    Ok((servers, ttl))
}

/// Asks the signaling server for its ICE servers; `id` is this player's key
/// fingerprint (it names the TURN credential in the relay's logs).
/// Returns the servers and how long their credentials last.
pub async fn fetch(server: &ServerUrl, id: &str) -> Result<(IceServers, Duration), IceFetchError> {
    let path = format!("/ice?id={id}");
    let (status, body) = http_get(server, &path, MAX_ANSWER_BYTES, FETCH_TIMEOUT).await?;
    if status != 200 {
        return Err(IceFetchError::Status {
            status,
            reason: body.trim().chars().take(200).collect(),
        });
    }
    checked(&body)
}

/// The servers to use: the player's own added to the server's. The
/// player's TURN credentials, when given, replace the server's, together
/// with its TURN URLs (one credential serves all of them).
pub fn combine(from_server: IceServers, from_player: &IceServers) -> IceServers {
    let mut urls: Vec<String> = if from_player.username.is_some() {
        from_server
            .urls
            .into_iter()
            .filter(|u| !u.starts_with("turn"))
            .collect()
    } else {
        from_server.urls
    };
    for url in &from_player.urls {
        if !urls.contains(url) {
            urls.push(url.clone());
        }
    }
    let (username, credential) = if from_player.username.is_some() {
        (from_player.username.clone(), from_player.credential.clone())
    } else {
        (from_server.username, from_server.credential)
    };
    IceServers {
        urls,
        username,
        credential,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_becomes_one_set_of_servers() {
        let text = r#"{"ice_servers":[{"urls":["stun:s:3478"]},
            {"urls":["turn:t:3478?transport=udp"],"username":"9:ab","credential":"pw"}],"ttl_secs":60}"#;
        let (servers, ttl) = checked(text).unwrap();
        assert_eq!(ttl, Duration::from_secs(60));
        assert_eq!(servers.urls, ["stun:s:3478", "turn:t:3478?transport=udp"]);
        assert_eq!(servers.username.as_deref(), Some("9:ab"));
        assert_eq!(servers.credential.as_deref(), Some("pw"));
        assert_eq!(
            checked(r#"{"ice_servers":[],"ttl_secs":0}"#).unwrap(),
            (IceServers::default(), Duration::ZERO)
        );
    }

    #[test]
    fn malformed_answers_are_refused_with_a_reason() {
        for (text, says) in [
            ("not json", "malformed"),
            (
                r#"{"ice_servers":[{"urls":["http://x"]}]}"#,
                "not a stun: or turn: URL",
            ),
            (r#"{"ice_servers":{}}"#, "malformed"),
        ] {
            let e = checked(text).unwrap_err().to_string();
            assert!(e.contains(says), "{text}: {e}");
        }
        let many: Vec<String> = (0..17).map(|i| format!("\"stun:h{i}\"")).collect();
        let text = format!(r#"{{"ice_servers":[{{"urls":[{}]}}]}}"#, many.join(","));
        assert!(
            checked(&text)
                .unwrap_err()
                .to_string()
                .contains("more than 16")
        );
        let long = format!(
            r#"{{"ice_servers":[{{"urls":["turn:t"],"username":"{}"}}]}}"#,
            "u".repeat(600)
        );
        assert!(checked(&long).unwrap_err().to_string().contains("username"));
    }

    #[test]
    fn the_players_servers_add_and_their_credentials_override() {
        let server = IceServers {
            urls: vec!["stun:s".into(), "turn:t".into()],
            username: Some("1:x".into()),
            credential: Some("p".into()),
        };
        let added = combine(
            server.clone(),
            &IceServers {
                urls: vec!["stun:mine".into(), "stun:s".into()],
                ..IceServers::default()
            },
        );
        assert_eq!(added.urls, ["stun:s", "turn:t", "stun:mine"]);
        assert_eq!(added.username.as_deref(), Some("1:x"));
        let own_turn = IceServers {
            urls: vec!["turn:own".into()],
            username: Some("me".into()),
            credential: Some("secret".into()),
        };
        let replaced = combine(server, &own_turn);
        assert_eq!(replaced.urls, ["stun:s", "turn:own"]);
        assert_eq!(replaced.username.as_deref(), Some("me"));
    }
}
