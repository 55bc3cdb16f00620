//! What the browser client keeps in the page's storage, as the native
//! program keeps it in its data directory: the player's key, each game's
//! log (the very bytes of a log file, one line per record), the room it
//! is played in, and the register of what the key signed in each game
//! (see [`crate::net::signing_register`]): under
//! `reversi.signed.FINGERPRINT.GAME`, the line `SEQ HASH ROOM RECORD`
//! (hex), written before a signed record is kept in the log or sent.
//!
//! A log is stored whole under one key and rewritten with each record,
//! so what is stored is always a complete log; a write the browser
//! refuses (a full quota) stops the game before the record is sent.

use crate::match_log::Record;
use crate::match_log::identity::Identity;
use crate::match_log::log_file::{LoadedLog, parse_log, record_line};
use crate::match_log::record::{Digest, hex};
use crate::net::game_store::{GameStore, StoreError};
use crate::net::signing_register::{
    RegisterError, Signed, SigningRegister, check, follows, game_of,
};
use crate::platform::web::{BrowserError, store, stored, stored_keys};

const IDENTITY_KEY: &str = "reversi.identity";
const LOG_PREFIX: &str = "reversi.log.";
const ROOM_PREFIX: &str = "reversi.room.";
const SIGNED_PREFIX: &str = "reversi.signed.";

/// Why the browser's data could not be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BrowserDataError {
    /// The stored key is not one.
    #[error("the key stored in this browser is damaged (expected 64 hex digits)")]
    BadKey,
    /// No key could be made: the browser gave no randomness.
    #[error("this browser could not make your key: {0}")]
    KeyNotMade(getrandom::Error),
    /// The key could not be kept.
    #[error("this browser could not keep your key: {0}")]
    KeyNotKept(BrowserError),
    /// A key imported from elsewhere meets a different key here.
    #[error(
        "this browser already holds another key ({found}); replace it to use {imported} (the old key is kept aside, not deleted)"
    )]
    OtherIdentity {
        /// The key already here.
        found: String,
        /// The key being imported.
        imported: String,
    },
    /// A stored log does not parse.
    #[error("the log of room {room} stored in this browser is damaged: {reason}")]
    BadLog {
        /// The room name on the signaling server.
        room: String,
        /// What is wrong.
        reason: String,
    },
}

/// The player's key, created (and stored) on first use.
pub fn identity() -> Result<Identity, BrowserDataError> {
    if let Some(text) = stored(IDENTITY_KEY) {
        let bytes = data_encoding::HEXLOWER_PERMISSIVE
            .decode(text.trim().as_bytes())
            .map_err(|_| BrowserDataError::BadKey)?;
        let secret: [u8; 32] = bytes.try_into().map_err(|_| BrowserDataError::BadKey)?;
        return Ok(Identity::from_secret_bytes(&secret));
    }
    let identity = Identity::generate().map_err(BrowserDataError::KeyNotMade)?;
    store(
        IDENTITY_KEY,
        &data_encoding::HEXLOWER.encode(&identity.secret_bytes()),
    )
    .map_err(BrowserDataError::KeyNotKept)?;
    Ok(identity)
}

/// Makes `identity` (exported elsewhere) this browser's key, and says what
/// happened: a different key already here is refused, or with `replace`
/// kept aside under `reversi.identity.FINGERPRINT` (never deleted).
pub fn adopt_identity(identity: &Identity, replace: bool) -> Result<String, BrowserDataError> {
    let fingerprint = identity.public_key().fingerprint().to_string();
    let encoded = data_encoding::HEXLOWER.encode(&identity.secret_bytes());
    if let Some(previous) = stored(IDENTITY_KEY) {
        let current = self::identity()?.public_key();
        if current == identity.public_key() {
            return Ok(format!("{fingerprint} is already your key here"));
        }
        let found = current.fingerprint();
        if !replace {
            return Err(BrowserDataError::OtherIdentity {
                found: found.to_string(),
                imported: fingerprint,
            });
        }
        store(&format!("{IDENTITY_KEY}.{}", found.as_compact()), &previous)
            .map_err(BrowserDataError::KeyNotKept)?;
        store(IDENTITY_KEY, &encoded).map_err(BrowserDataError::KeyNotKept)?;
        return Ok(format!(
            "your key is now {fingerprint}; the previous one ({found}) is kept in this browser"
        ));
    }
    store(IDENTITY_KEY, &encoded).map_err(BrowserDataError::KeyNotKept)?;
    Ok(format!("your key is now {fingerprint}"))
}

/// The bytes of a room's stored log, if there is one.
pub fn log_bytes(room: &str) -> Option<Vec<u8>> {
    stored(&format!("{LOG_PREFIX}{room}")).map(String::into_bytes)
}

/// A room's stored log, read and checked line by line (`None`: none).
pub fn read_log(room: &str) -> Result<Option<LoadedLog>, BrowserDataError> {
    let Some(bytes) = log_bytes(room) else {
        return Ok(None);
    };
    parse_log(&bytes)
        .map(Some)
        .map_err(|e| BrowserDataError::BadLog {
            room: room.to_string(),
            reason: e.to_string(),
        })
}

/// The signaling address of the room a stored game is played in.
pub fn room_url(room: &str) -> Option<String> {
    stored(&format!("{ROOM_PREFIX}{room}"))
}

/// Remembers where a game is played.
pub fn remember_room(room: &str, url: &str) -> Result<(), StoreError> {
    store(&format!("{ROOM_PREFIX}{room}"), url).map_err(|e| StoreError::Browser {
        reason: e.to_string(),
    })
}

/// The rooms of every stored game.
pub fn rooms() -> Vec<String> {
    let mut rooms: Vec<String> = stored_keys(LOG_PREFIX)
        .into_iter()
        .filter_map(|k| k.strip_prefix(LOG_PREFIX).map(str::to_string))
        .collect();
    rooms.sort();
    rooms
}

/// A game's log in the page's storage.
#[derive(Debug)]
pub struct BrowserLog {
    key: String,
    /// The stored text (kept, so a record costs one write, not a read too).
    text: String,
}

impl BrowserLog {
    /// A new, empty log for `room` (replacing any stored one).
    pub fn create(room: &str) -> Result<BrowserLog, StoreError> {
        let log = BrowserLog {
            key: format!("{LOG_PREFIX}{room}"),
            text: String::new(),
        };
        store(&log.key, "").map_err(|e| StoreError::Browser {
            reason: e.to_string(),
        })?;
        Ok(log)
    }

    /// The stored log of `room` to go on with, cut to its complete lines.
    pub fn open(room: &str, loaded: &LoadedLog) -> BrowserLog {
        let key = format!("{LOG_PREFIX}{room}");
        let mut text = stored(&key).unwrap_or_default();
        text.truncate(loaded.intact_bytes.min(text.len()));
        BrowserLog { key, text }
    }
}

impl GameStore for BrowserLog {
    fn append(&mut self, record: &Record) -> Result<(), StoreError> {
        let mut text = self.text.clone();
        text.push_str(&record_line(record));
        store(&self.key, &text).map_err(|e| StoreError::Browser {
            reason: e.to_string(),
        })?;
        self.text = text;
        Ok(())
    }

    fn save_evidence(&mut self, bytes: &[u8], reason: &str) {
        // Kept beside the log, bounded: the last few, hex-encoded.
        let key = format!("{}.evidence", self.key);
        let mut kept: Vec<String> = stored(&key)
            .map(|t| t.lines().map(str::to_string).collect())
            .unwrap_or_default();
        kept.push(format!(
            "{} {}",
            data_encoding::HEXLOWER.encode(bytes),
            reason.replace('\n', " ")
        ));
        let start = kept.len().saturating_sub(16);
        if let Err(e) = store(&key, &kept[start..].join("\n")) {
            tracing::warn!("could not keep evidence ({reason}): {e}");
        }
    }
}

/// The register of what this browser's key signed, as a session on the
/// log of one room signs through it. The page's storage is written
/// synchronously, and a page runs one game at a time.
#[derive(Debug)]
pub struct BrowserRegister {
    prefix: String,
    room: String,
}

impl BrowserRegister {
    /// The register of `identity`'s games, for the log of `room`.
    pub fn for_room(identity: &Identity, room: &str) -> BrowserRegister {
        BrowserRegister {
            prefix: format!(
                "{SIGNED_PREFIX}{}.",
                identity.public_key().fingerprint().as_compact()
            ),
            room: room.to_string(),
        }
    }

    fn key(&self, game: &Digest) -> String {
        format!("{}{}", self.prefix, hex(game))
    }

    /// The latest record registered in `game`, and the record.
    fn latest(&self, game: &Digest) -> Result<Option<(Signed, Record)>, RegisterError> {
        let key = self.key(game);
        let Some(text) = stored(&key) else {
            return Ok(None);
        };
        let damaged = |what: &str| RegisterError::Storage {
            place: key.clone(),
            reason: format!("damaged: {what}"),
        };
        let mut fields = text.split(' ');
        let (Some(seq), Some(_hash), Some(room), Some(record), None) = (
            fields.next(),
            fields.next(),
            fields.next(),
            fields.next(),
            fields.next(),
        ) else {
            return Err(damaged("expected four fields"));
        };
        let seq: u32 = seq.parse().map_err(|_| damaged("the place"))?;
        let bytes = data_encoding::HEXLOWER_PERMISSIVE
            .decode(record.trim().as_bytes())
            .map_err(|_| damaged("the record"))?;
        let record = Record::decode(&bytes).map_err(|_| damaged("the record"))?;
        if record.content().seq != seq || game_of(&record) != *game {
            return Err(damaged("the record is not at its place"));
        }
        let signed = Signed {
            seq,
            hash: record.hash(),
            log: format!("this browser's game in room {room}"),
        };
        Ok(Some((signed, record)))
    }

    /// A record of ours registered for this room as the next after
    /// `records` but missing from its log (the page closed in between):
    /// to be put back rather than signed again.
    pub fn lost_record(&self, records: &[Record]) -> Option<Record> {
        let game = game_of(records.first()?);
        let (signed, record) = self.latest(&game).ok()??;
        let here = signed.log.ends_with(&format!(" {}", self.room));
        (follows(records, &record) && here).then_some(record)
    }
}

impl SigningRegister for BrowserRegister {
    fn claim(&self, chain: &[Record], record: &Record) -> Result<(), RegisterError> {
        let game = game_of(record);
        check(self.latest(&game)?.as_ref().map(|(s, _)| s), chain, record)?;
        let line = format!(
            "{} {} {} {}",
            record.content().seq,
            hex(&record.hash()),
            self.room,
            hex(&record.to_bytes())
        );
        let key = self.key(&game);
        store(&key, &line).map_err(|e| RegisterError::Storage {
            place: key,
            reason: e.to_string(),
        })
    }
}
