//! Messages between the two peers on the data channel, encoded with
//! postcard and bounded: nothing larger than [`MAX_MESSAGE_BYTES`] is ever
//! produced or accepted (matchbox's native channel refuses packets over
//! 64 KiB).

use serde::{Deserialize, Serialize};

use crate::match_log::record::{Digest, MAX_NAME_BYTES, MAX_RECORD_BYTES, Seat};

/// The peer protocol version, checked in the first message. Version 2
/// added the hello's invitation proof.
pub const PEER_PROTOCOL: u16 = 2;

/// The largest message either side sends or accepts.
pub const MAX_MESSAGE_BYTES: usize = 2 * MAX_RECORD_BYTES;

/// A message on the data channel.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum WireMessage {
    /// The first message each way after connecting (and after every reconnect).
    Hello(Hello),
    /// A record's canonical bytes.
    Record(Vec<u8>),
    /// "I have verified and logged your records up to this count."
    Ack {
        /// Records in the sender's log.
        records: u32,
    },
    /// "I rejected what you sent, and why."
    Reject {
        /// The reason, for the other player to see.
        reason: String,
    },
    /// "I decline the rematch you propose": the proposal's guest says no.
    DeclineRematch,
}

/// Who is speaking, and how far their log goes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hello {
    /// [`PEER_PROTOCOL`].
    pub protocol: u16,
    /// The sender's seat.
    pub seat: Seat,
    /// The sender's display name.
    pub name: String,
    /// The sender's public key.
    pub key: [u8; 32],
    /// Records in the sender's log.
    pub records: u32,
    /// Hash of the sender's last record (zero when empty).
    pub head: Digest,
    /// The invite key's signature over the sender's seat and key (see
    /// [`crate::match_log::invite::hello_proof`]): 64 bytes, from a side
    /// that holds the room code's secret.
    pub invite_proof: Option<Vec<u8>>,
}

impl Hello {
    /// The invitation proof, when the hello carries one of the right size.
    pub fn invite_proof(&self) -> Option<[u8; 64]> {
        self.invite_proof.as_deref()?.try_into().ok()
    }
}

/// Why bytes are not a message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WireError {
    /// Longer than [`MAX_MESSAGE_BYTES`].
    #[error("message of {found} bytes, more than the {max} allowed")]
    TooLarge {
        /// Bytes received.
        found: usize,
        /// The most this decoder accepts.
        max: usize,
    },
    /// Not a message.
    #[error("malformed message: {0}")]
    Malformed(String),
    /// Bytes after the message.
    #[error("{0} bytes after the message")]
    Trailing(usize),
    /// A hello of another protocol version, whose layout may differ.
    #[error("the peer speaks protocol {found}, this program speaks {PEER_PROTOCOL}")]
    Version {
        /// The version the peer's hello names.
        found: u16,
    },
}

/// The protocol a hello of any version names: its layout begins with the
/// message tag (0) and the version, which no version changes.
fn hello_version(bytes: &[u8]) -> Option<u16> {
    match bytes {
        [0, rest @ ..] => postcard::take_from_bytes::<u16>(rest).ok().map(|(v, _)| v),
        _ => None,
    }
}

impl WireMessage {
    /// Encodes the message (always within the limit for records and
    /// names this program produces).
    pub fn encode(&self) -> Vec<u8> {
        postcard::to_allocvec(self).expect("encoding to memory cannot fail")
    }

    /// Decodes a message, bounded.
    pub fn decode(bytes: &[u8]) -> Result<WireMessage, WireError> {
        if bytes.len() > MAX_MESSAGE_BYTES {
            return Err(WireError::TooLarge {
                found: bytes.len(),
                max: MAX_MESSAGE_BYTES,
            });
        }
        if let Some(found) = hello_version(bytes).filter(|&v| v != PEER_PROTOCOL) {
            return Err(WireError::Version { found });
        }
        let (message, rest) = postcard::take_from_bytes::<WireMessage>(bytes)
            .map_err(|e| WireError::Malformed(e.to_string()))?;
        if !rest.is_empty() {
            return Err(WireError::Trailing(rest.len()));
        }
        if let WireMessage::Hello(hello) = &message {
            if hello.name.len() > MAX_NAME_BYTES {
                return Err(WireError::Malformed(format!(
                    "name longer than {MAX_NAME_BYTES} bytes"
                )));
            }
            if hello.invite_proof.as_ref().is_some_and(|p| p.len() != 64) {
                return Err(WireError::Malformed(
                    "an invitation proof is a 64-byte signature".into(),
                ));
            }
        }
        Ok(message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_round_trip_and_garbage_is_refused() {
        let hello = WireMessage::Hello(Hello {
            protocol: PEER_PROTOCOL,
            seat: Seat::Guest,
            name: "Bob".into(),
            key: [3; 32],
            records: 7,
            head: [9; 32],
            invite_proof: Some(vec![5; 64]),
        });
        for message in [
            hello,
            WireMessage::Record(vec![1, 2, 3]),
            WireMessage::Ack { records: 12 },
            WireMessage::Reject {
                reason: "no".into(),
            },
        ] {
            assert_eq!(WireMessage::decode(&message.encode()), Ok(message));
        }
        assert!(matches!(
            WireMessage::decode(&[0xff; 10]),
            Err(WireError::Malformed(_))
        ));
        assert!(matches!(
            WireMessage::decode(&vec![0; MAX_MESSAGE_BYTES + 1]),
            Err(WireError::TooLarge { .. })
        ));
        let mut trailing = WireMessage::Ack { records: 1 }.encode();
        trailing.push(0);
        assert_eq!(WireMessage::decode(&trailing), Err(WireError::Trailing(1)));
    }

    #[test]
    fn a_hello_of_another_version_is_named_as_such_and_a_bad_proof_refused() {
        let hello = |protocol, invite_proof| Hello {
            protocol,
            seat: Seat::Host,
            name: "Ann".into(),
            key: [3; 32],
            records: 0,
            head: [0; 32],
            invite_proof,
        };
        // A version 1 hello had no proof: its bytes end before the field.
        let mut old = WireMessage::Hello(hello(1, None)).encode();
        old.pop();
        assert_eq!(
            WireMessage::decode(&old),
            Err(WireError::Version { found: 1 })
        );
        let short = WireMessage::Hello(hello(PEER_PROTOCOL, Some(vec![1; 63]))).encode();
        assert!(matches!(
            WireMessage::decode(&short),
            Err(WireError::Malformed(_))
        ));
        let good = hello(PEER_PROTOCOL, Some(vec![1; 64]));
        assert_eq!(good.invite_proof(), Some([1; 64]));
        assert_eq!(hello(PEER_PROTOCOL, None).invite_proof(), None);
    }
}
