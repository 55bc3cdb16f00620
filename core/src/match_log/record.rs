//! Records of the match log: the wire types, their canonical encoding
//! (postcard), signing and hashing.
//!
//! A record's bytes are `content || signature`: `content` is the postcard
//! encoding of [`RecordContent`] (everything but the signature), and the
//! signature is ed25519 over [`SIGNATURE_DOMAIN`] followed by `content`.
//! The record hash, which the next record carries as `prev`, is SHA-256 of
//! the record's bytes (content and signature).

use serde::{Deserialize, Serialize};
use sha2::{Digest as _, Sha256};

use super::identity::Identity;

/// The protocol version written into every new record. Version 2 changed
/// only open games: their genesis binds an invite key to the host (see
/// [`super::invite`]) instead of committing to the room name, and their
/// acceptance carries that key's signature instead of the room name.
pub const PROTOCOL_VERSION: u16 = 2;

/// The oldest version whose logs still verify.
pub const OLDEST_PROTOCOL_VERSION: u16 = 1;

/// The largest encoded record accepted (a genesis with two maximal names is
/// well under half of this).
pub const MAX_RECORD_BYTES: usize = 1024;

/// The most records a log may hold: 4 to set a game up, at most 64 moves,
/// one ending, and room to spare.
pub const MAX_LOG_RECORDS: usize = 128;

/// The longest player name, in bytes of UTF-8.
pub const MAX_NAME_BYTES: usize = 48;

/// Prefix of every signed message, so a record signature can never be
/// mistaken for a signature of anything else.
pub const SIGNATURE_DOMAIN: &[u8] = b"reversi/match-log/v1/record\0";

/// A SHA-256 digest.
pub type Digest = [u8; 32];

/// Lowercase hex of a byte string.
pub fn hex(bytes: &[u8]) -> String {
    data_encoding::HEXLOWER.encode(bytes)
}

/// Which of the two players: the one who proposed the game, or the one who
/// accepted it. Colours are drawn later from the seed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Seat {
    /// The player who created the game (signs the genesis).
    Host,
    /// The player who accepted it.
    Guest,
}

impl Seat {
    /// The opponent's seat: the guest for the host, the host for the guest.
    pub fn other(self) -> Seat {
        match self {
            Seat::Host => Seat::Guest,
            Seat::Guest => Seat::Host,
        }
    }

    /// `host` or `guest`.
    pub fn name(self) -> &'static str {
        match self {
            Seat::Host => "host",
            Seat::Guest => "guest",
        }
    }
}

impl std::fmt::Display for Seat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Everything a record says, except the signature.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordContent {
    /// [`PROTOCOL_VERSION`].
    pub version: u16,
    /// The game id (hash of the genesis record); all zero in the genesis itself.
    pub game_id: Digest,
    /// Position in the log, from 0.
    pub seq: u32,
    /// Hash of the previous record; all zero in the genesis.
    pub prev: Digest,
    /// Who wrote and signed it.
    pub author: Seat,
    /// The author's wall clock, milliseconds since the Unix epoch.
    pub timestamp_ms: u64,
    /// What the record says.
    pub body: Body,
}

impl RecordContent {
    /// The first record of a game: the host's proposal, with no game id and
    /// no previous record yet.
    pub fn genesis(genesis: Genesis, timestamp_ms: u64) -> RecordContent {
        RecordContent::first(Body::Genesis(genesis), timestamp_ms)
    }

    /// The first record of a rematch (see [`Body::RematchGenesis`]).
    pub fn rematch_genesis(genesis: RematchGenesis, timestamp_ms: u64) -> RecordContent {
        RecordContent::first(Body::RematchGenesis(genesis), timestamp_ms)
    }

    /// The first record of an open game (see [`Body::OpenGenesis`]).
    pub fn open_genesis(genesis: OpenGenesis, timestamp_ms: u64) -> RecordContent {
        RecordContent::first(Body::OpenGenesis(genesis), timestamp_ms)
    }

    fn first(body: Body, timestamp_ms: u64) -> RecordContent {
        RecordContent {
            version: PROTOCOL_VERSION,
            game_id: [0; 32],
            seq: 0,
            prev: [0; 32],
            author: Seat::Host,
            timestamp_ms,
            body,
        }
    }
}

/// The kinds of record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Body {
    /// The host's proposal: rules, deadline, players, host commitment.
    Genesis(Genesis),
    /// The guest's acceptance, with the guest's commitment.
    Accept(Accept),
    /// A player's revealed nonce.
    Reveal(Reveal),
    /// A move and the position hash after it.
    Move(MoveBody),
    /// The author resigns.
    Resign,
    /// The author claims the win because the opponent missed the deadline.
    TimeoutClaim(TimeoutClaim),
    /// The host's proposal to whoever holds the room code: the guest is
    /// named by the acceptance ([`Body::OpenAccept`]). Lets a host create a
    /// game and go offline before the guest is known.
    OpenGenesis(OpenGenesis),
    /// The acceptance of an open genesis: names the guest and shows the
    /// room secret the genesis committed to.
    OpenAccept(OpenAccept),
    /// Under the draw rule decided by lot, the player the game seed names
    /// chooses the colour an equal count wins for.
    TieWinner(ColorChoice),
    /// Then the other player chooses the colour they play.
    SeatColor(ColorChoice),
    /// A host's proposal of a new game to the opponent of a finished one:
    /// a genesis that names the previous game.
    RematchGenesis(RematchGenesis),
}

impl Body {
    /// The kind's name, for messages.
    pub fn kind(&self) -> &'static str {
        match self {
            Body::Genesis(_) => "genesis",
            Body::Accept(_) => "accept",
            Body::Reveal(_) => "reveal",
            Body::Move(_) => "move",
            Body::Resign => "resign",
            Body::TimeoutClaim(_) => "timeout claim",
            Body::OpenGenesis(_) => "open genesis",
            Body::OpenAccept(_) => "open accept",
            Body::TieWinner(_) => "tie winner choice",
            Body::SeatColor(_) => "colour choice",
            Body::RematchGenesis(_) => "rematch genesis",
        }
    }
}

/// Rule options and start position as sent (checked on verification).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireRules {
    /// 0 preset, 1 free, 2 double.
    pub opening: u8,
    /// 0 unlimited, else discs per player (1–64).
    pub discs: u8,
    /// 0 count, 1 empties.
    pub scoring: u8,
    /// 0 draw, 1 black, 2 white, 3 a colour picked by the game seed (logs
    /// before the choice records), 4 chosen by the player the lot names.
    pub draw: u8,
    /// 0 plane, 1 torus.
    pub topology: u8,
    /// Start position: black discs (bit `row*8+column`).
    pub black: u64,
    /// Start position: white discs.
    pub white: u64,
    /// Walls.
    pub walls: u64,
    /// Side to move at the start: 0 black, 1 white.
    pub to_move: u8,
}

/// A player as named in the genesis.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerInfo {
    /// Display name (UTF-8, at most [`MAX_NAME_BYTES`]).
    pub name: String,
    /// ed25519 public key.
    pub key: [u8; 32],
}

/// The host's proposal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Genesis {
    /// Rules and start position.
    pub rules: WireRules,
    /// Time allowed per move, in seconds (300 to 604800).
    pub deadline_secs: u32,
    /// The host's name and key.
    pub host: PlayerInfo,
    /// The guest's name and key.
    pub guest: PlayerInfo,
    /// SHA-256 of the host's secret nonce.
    pub host_commitment: Digest,
}

/// A rematch: a genesis as any other, and the game it follows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RematchGenesis {
    /// The proposal; its players are the previous game's.
    pub genesis: Genesis,
    /// The previous game's id.
    pub previous: Digest,
}

/// The most bytes of a version 1 invitation secret (a room name is 11).
pub const MAX_INVITE_SECRET_BYTES: usize = 32;

/// A host's proposal that names no guest yet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpenGenesis {
    /// Rules and start position.
    pub rules: WireRules,
    /// Time allowed per move, in seconds (300 to 604800).
    pub deadline_secs: u32,
    /// The host's name and key.
    pub host: PlayerInfo,
    /// SHA-256 of the host's secret nonce.
    pub host_commitment: Digest,
    /// Version 1: [`invite_commitment`] of the room name. Version 2:
    /// [`super::invite::host_binding`] of the invite key and the host's
    /// key. Either way, only one who holds the room code can accept.
    pub invite: Digest,
}

/// SHA-256 of a domain prefix and the invitation secret (the room name).
pub fn invite_commitment(secret: &[u8]) -> Digest {
    let mut hasher = Sha256::new();
    hasher.update(b"reversi/invite/v1\0");
    hasher.update(secret);
    hasher.finalize().into()
}

/// The guest's acceptance of an open genesis.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpenAccept {
    /// The guest, who signs this record.
    pub guest: PlayerInfo,
    /// SHA-256 of the guest's secret nonce.
    pub guest_commitment: Digest,
    /// Version 1: the room name whose commitment the genesis carries.
    /// Version 2: an [`super::invite::AcceptProof`] (96 bytes).
    pub invite_proof: Vec<u8>,
}

/// The guest's acceptance of the genesis (which `prev` names).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Accept {
    /// SHA-256 of the guest's secret nonce.
    pub guest_commitment: Digest,
}

/// A revealed nonce.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reveal {
    /// The 32-byte secret committed to earlier.
    pub nonce: [u8; 32],
}

/// A move.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveBody {
    /// Square index 0–63 (a1 = 0, h8 = 63).
    pub square: u8,
    /// The engine's position hash after the move (and any forced pass).
    pub position_hash: Digest,
}

/// A colour chosen under the draw rule decided by lot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ColorChoice {
    /// 0 black, 1 white.
    pub color: u8,
}

/// A claim that the opponent missed the deadline.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimeoutClaim {
    /// The number (from 1) of the move that was not made in time; 0 for a
    /// colour choice not made in time.
    pub move_number: u32,
}

/// Why bytes are not a well-formed record.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// Longer than [`MAX_RECORD_BYTES`].
    #[error("record is {found} bytes, more than the {max} allowed")]
    TooLarge {
        /// Bytes given.
        found: usize,
        /// The most this decoder accepts.
        max: usize,
    },
    /// The content does not decode.
    #[error("malformed record content: {0}")]
    Malformed(String),
    /// After the content, not exactly 64 signature bytes remain.
    #[error("expected a 64-byte signature after the content, found {found} bytes")]
    SignatureLength {
        /// Bytes left after the content.
        found: usize,
    },
    /// The content decodes, but not from its canonical encoding.
    #[error("record content is not canonically encoded")]
    NonCanonical,
}

/// A well-formed record: decoded from canonical bytes or freshly signed.
/// Not yet verified against a log; see [`super::verify`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    content: RecordContent,
    content_bytes: Vec<u8>,
    signature: [u8; 64],
    hash: Digest,
}

impl Record {
    /// Encodes `content` and signs it.
    pub fn sign(content: RecordContent, author: &Identity) -> Record {
        let content_bytes =
            postcard::to_allocvec(&content).expect("encoding to memory cannot fail");
        let signature = author.sign(&signed_message(&content_bytes));
        Record::assemble(content, content_bytes, signature)
    }

    /// Builds a record from content and a signature that may not match it
    /// (for tests of the verifier, and for decoding).
    pub fn with_signature(content: RecordContent, signature: [u8; 64]) -> Record {
        let content_bytes =
            postcard::to_allocvec(&content).expect("encoding to memory cannot fail");
        Record::assemble(content, content_bytes, signature)
    }

    fn assemble(content: RecordContent, content_bytes: Vec<u8>, signature: [u8; 64]) -> Record {
        let mut hasher = Sha256::new();
        hasher.update(&content_bytes);
        hasher.update(signature);
        Record {
            content,
            content_bytes,
            signature,
            hash: hasher.finalize().into(),
        }
    }

    /// Decodes canonical record bytes, bounded by [`MAX_RECORD_BYTES`].
    pub fn decode(bytes: &[u8]) -> Result<Record, DecodeError> {
        if bytes.len() > MAX_RECORD_BYTES {
            return Err(DecodeError::TooLarge {
                found: bytes.len(),
                max: MAX_RECORD_BYTES,
            });
        }
        let (content, rest) = postcard::take_from_bytes::<RecordContent>(bytes)
            .map_err(|e| DecodeError::Malformed(e.to_string()))?;
        let signature: [u8; 64] = rest
            .try_into()
            .map_err(|_| DecodeError::SignatureLength { found: rest.len() })?;
        let record = Record::with_signature(content, signature);
        if record.content_bytes != bytes[..bytes.len() - 64] {
            return Err(DecodeError::NonCanonical);
        }
        Ok(record)
    }

    /// The record's bytes: content then signature.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = self.content_bytes.clone();
        out.extend_from_slice(&self.signature);
        out
    }

    /// What the record says.
    pub fn content(&self) -> &RecordContent {
        &self.content
    }

    /// The author's ed25519 signature over [`Record::signed_message`].
    pub fn signature(&self) -> &[u8; 64] {
        &self.signature
    }

    /// The exact message the author signed: domain prefix and content bytes.
    pub fn signed_message(&self) -> Vec<u8> {
        signed_message(&self.content_bytes)
    }

    /// SHA-256 of the record's bytes: what the next record's `prev` carries.
    pub fn hash(&self) -> Digest {
        self.hash
    }
}

/// Why bytes are not a well-formed batch of records.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BatchError {
    /// More records than the reader takes at once.
    #[error("a batch holds at most {max} records")]
    TooMany {
        /// The most this decoder accepts.
        max: usize,
    },
    /// The bytes end inside an item's length.
    #[error("batch item {item}: expected a 2-byte length, found {found} byte")]
    ShortLength {
        /// The item's place.
        item: usize,
        /// Bytes left.
        found: usize,
    },
    /// An item's length is larger than a record or than what is left.
    #[error(
        "batch item {item}: {announced} bytes announced, at most {MAX_RECORD_BYTES} and {left} left"
    )]
    BadLength {
        /// The item's place.
        item: usize,
        /// The length it announced.
        announced: usize,
        /// Bytes left after the length.
        left: usize,
    },
    /// An item is not a record.
    #[error("batch item {item}: {error}")]
    Record {
        /// The item's place.
        item: usize,
        /// Why it does not decode.
        error: DecodeError,
    },
}

/// Records framed together (one request to the mailbox): each record's
/// canonical bytes after their length as 2 bytes big-endian.
pub fn encode_batch(records: &[Record]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(records.len() * 320);
    for record in records {
        let encoded = record.to_bytes();
        // At most MAX_RECORD_BYTES: the length fits 2 bytes.
        bytes.extend_from_slice(&(encoded.len() as u16).to_be_bytes());
        bytes.extend_from_slice(&encoded);
    }
    bytes
}

/// The records of a batch made by [`encode_batch`], at most `max_records`
/// of them; every length is checked before it is used.
pub fn decode_batch(bytes: &[u8], max_records: usize) -> Result<Vec<Record>, BatchError> {
    let mut records = Vec::new();
    let mut rest = bytes;
    while !rest.is_empty() {
        let item = records.len();
        if item == max_records {
            return Err(BatchError::TooMany { max: max_records });
        }
        let Some((length, tail)) = rest.split_first_chunk::<2>() else {
            return Err(BatchError::ShortLength {
                item,
                found: rest.len(),
            });
        };
        let announced = usize::from(u16::from_be_bytes(*length));
        if announced > MAX_RECORD_BYTES || announced > tail.len() {
            return Err(BatchError::BadLength {
                item,
                announced,
                left: tail.len(),
            });
        }
        let (encoded, tail) = tail.split_at(announced);
        let record = Record::decode(encoded).map_err(|error| BatchError::Record { item, error })?;
        records.push(record);
        rest = tail;
    }
    Ok(records)
}

fn signed_message(content_bytes: &[u8]) -> Vec<u8> {
    let mut message = Vec::with_capacity(SIGNATURE_DOMAIN.len() + content_bytes.len());
    message.extend_from_slice(SIGNATURE_DOMAIN);
    message.extend_from_slice(content_bytes);
    message
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> RecordContent {
        RecordContent {
            version: PROTOCOL_VERSION,
            game_id: [9; 32],
            seq: 7,
            prev: [8; 32],
            author: Seat::Guest,
            timestamp_ms: 1_790_000_000_000,
            body: Body::Move(MoveBody {
                square: 37,
                position_hash: [1; 32],
            }),
        }
    }

    #[test]
    fn encode_decode_round_trip() {
        let record = Record::sign(sample(), &Identity::from_secret_bytes(&[1; 32]));
        let decoded = Record::decode(&record.to_bytes()).unwrap();
        assert_eq!(decoded, record);
        assert_eq!(decoded.hash(), record.hash());
    }

    #[test]
    fn trailing_bytes_and_short_signatures_are_refused() {
        let bytes = Record::sign(sample(), &Identity::from_secret_bytes(&[1; 32])).to_bytes();
        let mut long = bytes.clone();
        long.push(0);
        assert_eq!(
            Record::decode(&long),
            Err(DecodeError::SignatureLength { found: 65 })
        );
        assert_eq!(
            Record::decode(&bytes[..bytes.len() - 1]),
            Err(DecodeError::SignatureLength { found: 63 })
        );
        assert!(matches!(
            Record::decode(&[]),
            Err(DecodeError::Malformed(_))
        ));
        let huge = vec![0u8; MAX_RECORD_BYTES + 1];
        assert!(matches!(
            Record::decode(&huge),
            Err(DecodeError::TooLarge { .. })
        ));
    }

    #[test]
    fn an_overlong_varint_is_not_canonical() {
        let bytes = Record::sign(sample(), &Identity::from_secret_bytes(&[1; 32])).to_bytes();
        // The version (a u16 varint below 128) is the first byte;
        // re-encode it overlong as two bytes.
        assert_eq!(u16::from(bytes[0]), PROTOCOL_VERSION);
        let mut overlong = vec![0x80 | bytes[0], 0x00];
        overlong.extend_from_slice(&bytes[1..]);
        assert_eq!(Record::decode(&overlong), Err(DecodeError::NonCanonical));
    }

    #[test]
    fn a_batch_round_trips_and_every_length_is_checked() {
        let a = Record::sign(sample(), &Identity::from_secret_bytes(&[1; 32]));
        let b = Record::sign(sample(), &Identity::from_secret_bytes(&[2; 32]));
        let bytes = encode_batch(&[a.clone(), b.clone()]);
        assert_eq!(decode_batch(&bytes, 2), Ok(vec![a.clone(), b]));
        assert_eq!(decode_batch(&[], 2), Ok(vec![]));
        assert_eq!(decode_batch(&bytes, 1), Err(BatchError::TooMany { max: 1 }));
        assert_eq!(
            decode_batch(&bytes[..bytes.len() - 1], 2).map(|r| r.len()),
            Err(BatchError::BadLength {
                item: 1,
                announced: a.to_bytes().len(),
                left: a.to_bytes().len() - 1
            })
        );
        assert_eq!(
            decode_batch(&[7], 2),
            Err(BatchError::ShortLength { item: 0, found: 1 })
        );
        assert!(matches!(
            decode_batch(&[0xff, 0xff, 0], 2),
            Err(BatchError::BadLength {
                announced: 65535,
                ..
            })
        ));
        assert!(matches!(
            decode_batch(&[0, 1, 0], 2),
            Err(BatchError::Record { item: 0, .. })
        ));
    }

    #[test]
    fn the_hash_covers_the_signature() {
        let content = sample();
        let a = Record::sign(content.clone(), &Identity::from_secret_bytes(&[1; 32]));
        let b = Record::sign(content, &Identity::from_secret_bytes(&[2; 32]));
        assert_ne!(a.hash(), b.hash());
    }
}
