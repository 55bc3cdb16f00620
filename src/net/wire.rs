//! Messages between the two peers on the data channel, encoded with
//! postcard and bounded: nothing larger than [`MAX_MESSAGE_BYTES`] is ever
//! produced or accepted (matchbox's native channel refuses packets over
//! 64 KiB).

use serde::{Deserialize, Serialize};

use crate::match_log::record::{Digest, MAX_NAME_BYTES, MAX_RECORD_BYTES, Seat};

/// The peer protocol version, checked in the first message.
pub const PEER_PROTOCOL: u16 = 1;

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
}

/// Why bytes are not a message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WireError {
    /// Longer than [`MAX_MESSAGE_BYTES`].
    #[error("message of {found} bytes, more than the {max} allowed")]
    TooLarge {
        /// Bytes received.
        found: usize,
        /// The limit.
        max: usize,
    },
    /// Not a message.
    #[error("malformed message: {0}")]
    Malformed(String),
    /// Bytes after the message.
    #[error("{0} bytes after the message")]
    Trailing(usize),
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
        let (message, rest) = postcard::take_from_bytes::<WireMessage>(bytes)
            .map_err(|e| WireError::Malformed(e.to_string()))?;
        if !rest.is_empty() {
            return Err(WireError::Trailing(rest.len()));
        }
        if let WireMessage::Hello(hello) = &message
            && hello.name.len() > MAX_NAME_BYTES
        {
            return Err(WireError::Malformed(format!(
                "name longer than {MAX_NAME_BYTES} bytes"
            )));
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
}
