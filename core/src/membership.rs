//! A player's signed word that a leaderboard may count their games (or no
//! longer may). The signaling server keeps the latest statement of each
//! key and counts a game only when both players' latest says *join*.
//!
//! The JSON form: `{"key": HEX, "membership": "join"|"leave", "server":
//! HOST[:PORT], "timestamp_ms": N, "signature": HEX}`; the signature is
//! ed25519 over [`MEMBERSHIP_DOMAIN`], the word, a zero byte, the key, the
//! timestamp (8 bytes, little-endian) and the server's name, so a statement
//! made for one server cannot be replayed to another. A later timestamp
//! replaces an earlier one, so an old statement cannot undo a newer one.

use data_encoding::HEXLOWER;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::match_log::identity::{Identity, PublicKey};

/// Prefix of every signed membership message.
pub const MEMBERSHIP_DOMAIN: &[u8] = b"reversi/leaderboard/membership/v1\0";

/// The largest statement accepted, in bytes of JSON.
pub const MAX_STATEMENT_BYTES: usize = 1024;

/// The longest server name a statement may carry.
pub const MAX_SERVER_BYTES: usize = 255;

/// Join or leave.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Membership {
    /// Count my finished games (with players who joined too).
    Join,
    /// Stop counting them.
    Leave,
}

impl Membership {
    /// `join` or `leave`.
    pub fn word(self) -> &'static str {
        match self {
            Membership::Join => "join",
            Membership::Leave => "leave",
        }
    }
}

/// A checked, signed membership statement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Statement {
    key: PublicKey,
    membership: Membership,
    server: String,
    timestamp_ms: u64,
    signature: [u8; 64],
}

/// Why bytes are not a valid statement.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StatementError {
    /// Over [`MAX_STATEMENT_BYTES`].
    #[error("the statement is {found} bytes, more than the {max} allowed")]
    TooLarge {
        /// Bytes given.
        found: usize,
        /// The most this decoder accepts.
        max: usize,
    },
    /// Not the JSON form.
    #[error("malformed statement: {0}")]
    Malformed(String),
    /// A field with a wrong value.
    #[error("statement field {field}: expected {expected}, found {found:?}")]
    Field {
        /// The name of the JSON field with the wrong value, e.g. `key`.
        field: &'static str,
        /// What it must be.
        expected: &'static str,
        /// What it was (shortened).
        found: String,
    },
    /// The signature does not verify under the key.
    #[error("the statement's signature is not valid for key {fingerprint}")]
    BadSignature {
        /// The key's fingerprint.
        fingerprint: String,
    },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WireStatement {
    key: String,
    membership: String,
    server: String,
    timestamp_ms: u64,
    signature: String,
}

fn message(key: &PublicKey, membership: Membership, timestamp_ms: u64, server: &str) -> Vec<u8> {
    let mut out = MEMBERSHIP_DOMAIN.to_vec();
    out.extend_from_slice(membership.word().as_bytes());
    out.push(0);
    out.extend_from_slice(&key.to_bytes());
    out.extend_from_slice(&timestamp_ms.to_le_bytes());
    out.extend_from_slice(server.as_bytes());
    out
}

fn hex_field<const N: usize>(field: &'static str, text: &str) -> Result<[u8; N], StatementError> {
    let wrong = || StatementError::Field {
        field,
        expected: if N == 32 {
            "64 hex digits"
        } else {
            "128 hex digits"
        },
        found: text.chars().take(80).collect(),
    };
    let bytes = HEXLOWER
        .decode(text.to_ascii_lowercase().as_bytes())
        .map_err(|_| wrong())?;
    bytes.try_into().map_err(|_| wrong())
}

impl Statement {
    /// Signs a statement for `identity`, for the server named `server`
    /// (its host and port as an HTTP `Host` header names them).
    pub fn sign(
        identity: &Identity,
        membership: Membership,
        server: &str,
        timestamp_ms: u64,
    ) -> Statement {
        let key = identity.public_key();
        let server = server.to_ascii_lowercase();
        Statement {
            signature: identity.sign(&message(&key, membership, timestamp_ms, &server)),
            key,
            membership,
            server,
            timestamp_ms,
        }
    }

    /// Decodes and checks the JSON form, signature included.
    pub fn from_json(bytes: &[u8]) -> Result<Statement, StatementError> {
        if bytes.len() > MAX_STATEMENT_BYTES {
            return Err(StatementError::TooLarge {
                found: bytes.len(),
                max: MAX_STATEMENT_BYTES,
            });
        }
        let wire: WireStatement =
            serde_json::from_slice(bytes).map_err(|e| StatementError::Malformed(e.to_string()))?;
        let key_bytes = hex_field::<32>("key", &wire.key)?;
        let key = PublicKey::from_bytes(&key_bytes).ok_or(StatementError::Field {
            field: "key",
            expected: "a valid ed25519 public key",
            found: wire.key.chars().take(80).collect(),
        })?;
        let membership = match wire.membership.as_str() {
            "join" => Membership::Join,
            "leave" => Membership::Leave,
            other => {
                return Err(StatementError::Field {
                    field: "membership",
                    expected: "join or leave",
                    found: other.chars().take(80).collect(),
                });
            }
        };
        if wire.server.len() > MAX_SERVER_BYTES || wire.server.chars().any(char::is_control) {
            return Err(StatementError::Field {
                field: "server",
                expected: "a host name and port",
                found: wire.server.chars().take(80).collect(),
            });
        }
        let signature = hex_field::<64>("signature", &wire.signature)?;
        let signed = message(&key, membership, wire.timestamp_ms, &wire.server);
        if !key.verify(&signed, &signature) {
            return Err(StatementError::BadSignature {
                fingerprint: key.fingerprint().to_string(),
            });
        }
        Ok(Statement {
            key,
            membership,
            server: wire.server,
            timestamp_ms: wire.timestamp_ms,
            signature,
        })
    }

    /// The JSON form.
    pub fn to_json(&self) -> Value {
        json!({
            "key": HEXLOWER.encode(&self.key.to_bytes()),
            "membership": self.membership.word(),
            "server": self.server,
            "timestamp_ms": self.timestamp_ms,
            "signature": HEXLOWER.encode(&self.signature),
        })
    }

    /// Whose statement it is.
    pub fn key(&self) -> PublicKey {
        self.key
    }

    /// Join or leave.
    pub fn membership(&self) -> Membership {
        self.membership
    }

    /// The server it is for.
    pub fn server(&self) -> &str {
        &self.server
    }

    /// When the player signed it (their clock).
    pub fn timestamp_ms(&self) -> u64 {
        self.timestamp_ms
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn arbitrary_bytes_never_panic_the_statement_decoder(bytes in proptest::collection::vec(any::<u8>(), 0..1200)) {
            let _ = Statement::from_json(&bytes);
        }

        #[test]
        fn arbitrary_fields_are_refused_with_a_reason(key in "[0-9a-f]{0,70}", word in "[a-z]{0,6}", at in any::<u64>(), signature in "[0-9a-f]{0,130}") {
            let text = json!({ "key": key, "membership": word, "server": "x", "timestamp_ms": at, "signature": signature }).to_string();
            prop_assert!(Statement::from_json(text.as_bytes()).is_err());
        }
    }

    #[test]
    fn a_statement_round_trips_and_any_change_breaks_its_signature() {
        let identity = Identity::from_secret_bytes(&[7; 32]);
        let statement = Statement::sign(
            &identity,
            Membership::Join,
            "Play.Example.org:443",
            1_800_000_000_000,
        );
        assert_eq!(statement.server(), "play.example.org:443");
        let mut elsewhere = statement.to_json();
        elsewhere["server"] = json!("other.example.org");
        assert!(matches!(
            Statement::from_json(elsewhere.to_string().as_bytes()),
            Err(StatementError::BadSignature { .. })
        ));
        let text = statement.to_json().to_string();
        assert_eq!(Statement::from_json(text.as_bytes()), Ok(statement.clone()));
        let mut leave = statement.to_json();
        leave["membership"] = json!("leave");
        assert!(matches!(
            Statement::from_json(leave.to_string().as_bytes()),
            Err(StatementError::BadSignature { .. })
        ));
        let mut later = statement.to_json();
        later["timestamp_ms"] = json!(1_800_000_000_001u64);
        assert!(matches!(
            Statement::from_json(later.to_string().as_bytes()),
            Err(StatementError::BadSignature { .. })
        ));
        let mut other = statement.to_json();
        other["membership"] = json!("maybe");
        assert!(matches!(
            Statement::from_json(other.to_string().as_bytes()),
            Err(StatementError::Field {
                field: "membership",
                ..
            })
        ));
        assert!(matches!(
            Statement::from_json(&[b' '; MAX_STATEMENT_BYTES + 1]),
            Err(StatementError::TooLarge { .. })
        ));
        assert!(matches!(
            Statement::from_json(b"{}"),
            Err(StatementError::Malformed(_))
        ));
    }
}
