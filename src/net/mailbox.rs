//! The signaling server's mailbox, from the player's side: post a record,
//! fetch a game's records, list the games of a room or a key. Everything
//! that comes back is bounded and decoded with the record decoder; the
//! caller verifies records with its session before they change anything.

// In the browser only part of this module is used: the listing and its parsing are the command line's.
#![cfg_attr(target_arch = "wasm32", allow(dead_code))]

use std::time::Duration;

use data_encoding::{BASE64, HEXLOWER};
use serde_json::Value;

use super::http_client::{HttpError, hedged, http_get, http_post};
use super::server_url::ServerUrl;
use crate::match_log::record::{Digest, MAX_LOG_RECORDS, MAX_RECORD_BYTES, hex};
use crate::match_log::{DecodeError, PublicKey, Record};

/// The most records in one posted batch (the server's limit).
const MAX_BATCH: usize = 48;

/// How long one mailbox request may take.
const TIMEOUT: Duration = Duration::from_secs(10);

/// When a request has not been answered after this long, a second copy
/// goes beside it: every mailbox request may be repeated, and on a link
/// that loses packets a fresh connection beats TCP's backed-off
/// retransmission (a post once took 10 s that way, holding a live game up).
/// A healthy request takes two round trips, under a second on most links.
const HEDGE_AFTER: Duration = Duration::from_millis(1500);

/// The largest answer read: every record of a game in base64, and a listing.
const MAX_ANSWER_BYTES: usize = MAX_LOG_RECORDS * (MAX_RECORD_BYTES * 4 / 3 + 8) + 64 * 1024;

/// Why a mailbox request failed.
#[derive(Debug, thiserror::Error)]
pub enum MailboxError {
    /// The server could not be reached, or answered badly.
    #[error(transparent)]
    Http(#[from] HttpError),
    /// The server has no mailbox.
    #[error("{server} keeps no mailbox (it answered {status} at /mailbox)")]
    NoMailbox {
        /// The server asked, as the player named it.
        server: String,
        /// The HTTP status it answered with at `/mailbox`.
        status: u16,
    },
    /// The mailbox refused, with its reason.
    #[error("the mailbox refused ({status}): {reason}")]
    Refused {
        /// HTTP status.
        status: u16,
        /// The server's words.
        reason: String,
    },
    /// The answer is not what the mailbox sends.
    #[error("the mailbox sent a malformed answer: {0}")]
    Malformed(String),
    /// A record in the answer does not decode.
    #[error("the mailbox sent a malformed record {seq}: {error}")]
    BadRecord {
        /// The record's place in the game (its `seq`).
        seq: u32,
        /// What is wrong.
        error: DecodeError,
    },
}

/// What the mailbox said to a posted record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Posted {
    /// Stored now.
    Stored,
    /// It already had this exact record.
    AlreadyStored,
}

/// A game as the mailbox lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listed {
    /// The game's id (the hash of its genesis record), as the listing gives it.
    pub game_id: Digest,
    /// Records stored.
    pub records: u32,
    /// Whether the game has ended.
    pub ended: bool,
}

/// A server's mailbox.
#[derive(Debug, Clone)]
pub struct Mailbox {
    server: ServerUrl,
    /// When a quick request gets its second copy.
    hedge_after: Duration,
}

fn parse_json(body: &str) -> Result<Value, MailboxError> {
    serde_json::from_str(body).map_err(|e| MailboxError::Malformed(e.to_string()))
}

fn reason(body: &str) -> String {
    serde_json::from_str::<Value>(body)
        .ok()
        .and_then(|v| v["error"].as_str().map(str::to_string))
        .unwrap_or_else(|| body.chars().take(200).collect())
}

fn digest(text: Option<&str>) -> Result<Digest, MailboxError> {
    text.and_then(|t| HEXLOWER.decode(t.as_bytes()).ok())
        .and_then(|b| b.try_into().ok())
        .ok_or_else(|| MailboxError::Malformed("a game id is not 64 hex digits".into()))
}

impl Mailbox {
    /// The mailbox of this signaling server.
    pub fn new(server: ServerUrl) -> Mailbox {
        Mailbox {
            server,
            hedge_after: HEDGE_AFTER,
        }
    }

    /// This mailbox with every request sent twice from the start: for a
    /// live game whose players cannot reach each other, where each request
    /// carries or fetches the move the other is waiting for.
    pub fn redundant(self) -> Mailbox {
        Mailbox {
            hedge_after: Duration::ZERO,
            ..self
        }
    }

    /// The signaling server this mailbox is on.
    pub fn server(&self) -> &ServerUrl {
        &self.server
    }

    fn not_ours(&self, status: u16, body: &str) -> MailboxError {
        // A server without a mailbox answers from its websocket fallback,
        // not with the mailbox's JSON.
        if serde_json::from_str::<Value>(body).is_err() {
            MailboxError::NoMailbox {
                server: self.server.to_string(),
                status,
            }
        } else {
            MailboxError::Refused {
                status,
                reason: reason(body),
            }
        }
    }

    /// Posts one record (`room` files a genesis under its room).
    pub async fn post(&self, record: &Record, room: Option<&str>) -> Result<Posted, MailboxError> {
        let path = match room {
            Some(room) => format!("/mailbox/records?room={room}"),
            None => "/mailbox/records".to_string(),
        };
        let bytes = record.to_bytes();
        let (status, body) = hedged(self.hedge_after, || {
            http_post(&self.server, &path, &bytes, 64 * 1024, TIMEOUT)
        })
        .await?;
        match status {
            201 => Ok(Posted::Stored),
            409 if parse_json(&body)?["stored"] == Value::Bool(true) => Ok(Posted::AlreadyStored),
            _ => Err(self.not_ours(status, &body)),
        }
    }

    /// Posts records of one game in order, in as few requests as the server
    /// allows (batches of up to 48; one by one on a server without them).
    pub async fn post_all(&self, records: &[Record]) -> Result<(), MailboxError> {
        for chunk in records.chunks(MAX_BATCH) {
            let body = crate::match_log::record::encode_batch(chunk);
            let (status, answer) = hedged(self.hedge_after, || {
                http_post(
                    &self.server,
                    "/mailbox/records?batch=1",
                    &body,
                    64 * 1024,
                    TIMEOUT,
                )
            })
            .await?;
            match status {
                201 => continue,
                // An older server reads the batch as one record and refuses
                // it; a record refused in a batch gets its precise answer
                // alone.
                400 | 413 if serde_json::from_str::<Value>(&answer).is_ok() => {
                    for record in chunk {
                        self.post(record, None).await?;
                    }
                }
                _ => return Err(self.not_ours(status, &answer)),
            }
        }
        Ok(())
    }

    /// How many records the mailbox holds of a game, and those from `from`
    /// on; `None` if the mailbox does not hold the game.
    pub async fn records(
        &self,
        game_id: &Digest,
        from: u32,
    ) -> Result<Option<(u32, Vec<Record>)>, MailboxError> {
        self.records_waiting(game_id, from, Duration::ZERO).await
    }

    /// As [`Mailbox::records`], but when there is nothing from `from` yet,
    /// the server waits up to `wait` for a record and answers the moment
    /// one arrives (a server that cannot wait answers at once).
    pub async fn records_waiting(
        &self,
        game_id: &Digest,
        from: u32,
        wait: Duration,
    ) -> Result<Option<(u32, Vec<Record>)>, MailboxError> {
        let path = if wait.is_zero() {
            format!("/mailbox/games/{}?from={from}", hex(game_id))
        } else {
            format!(
                "/mailbox/games/{}?from={from}&wait={}",
                hex(game_id),
                wait.as_secs()
            )
        };
        // A waiting look goes out twice from the start, on two connections:
        // the answer that a record has arrived is the one a live game waits
        // for, and on a lossy link one copy of it is often held up by a
        // lost packet (seen: 4 s at 18 % loss).
        let hedge = if wait.is_zero() {
            self.hedge_after
        } else {
            Duration::ZERO
        };
        let (status, body) = hedged(hedge, || {
            http_get(&self.server, &path, MAX_ANSWER_BYTES, TIMEOUT + wait)
        })
        .await?;
        match status {
            200 => {}
            404 if serde_json::from_str::<Value>(&body).is_ok() => return Ok(None),
            _ => return Err(self.not_ours(status, &body)),
        }
        let answer = parse_json(&body)?;
        let held = answer["records"]
            .as_u64()
            .filter(|&n| n as usize <= MAX_LOG_RECORDS)
            .ok_or_else(|| MailboxError::Malformed("no record count".into()))?
            as u32;
        let list = answer["list"]
            .as_array()
            .ok_or_else(|| MailboxError::Malformed("no list of records".into()))?;
        if list.len() > MAX_LOG_RECORDS {
            return Err(MailboxError::Malformed(format!(
                "{} records, more than a game has",
                list.len()
            )));
        }
        list.iter()
            .enumerate()
            .map(|(i, item)| {
                let seq = from + i as u32;
                let bytes = item
                    .as_str()
                    .and_then(|t| BASE64.decode(t.as_bytes()).ok())
                    .ok_or_else(|| {
                        MailboxError::Malformed(format!("record {seq} is not base64"))
                    })?;
                Record::decode(&bytes).map_err(|error| MailboxError::BadRecord { seq, error })
            })
            .collect::<Result<Vec<_>, _>>()
            .map(|records| Some((held, records)))
    }

    /// The games filed under a room.
    pub async fn room(&self, room: &str) -> Result<Vec<Listed>, MailboxError> {
        self.listing(&format!("/mailbox/rooms/{room}")).await
    }

    /// The games a key plays in.
    pub async fn games_of(&self, key: &PublicKey) -> Result<Vec<Listed>, MailboxError> {
        self.listing(&format!("/mailbox/players/{}", hex(&key.to_bytes())))
            .await
    }

    async fn listing(&self, path: &str) -> Result<Vec<Listed>, MailboxError> {
        let (status, body) = hedged(self.hedge_after, || {
            http_get(&self.server, path, MAX_ANSWER_BYTES, TIMEOUT)
        })
        .await?;
        if status != 200 {
            return Err(self.not_ours(status, &body));
        }
        let answer = parse_json(&body)?;
        let games = answer["games"]
            .as_array()
            .ok_or_else(|| MailboxError::Malformed("no list of games".into()))?;
        games
            .iter()
            .take(1024)
            .map(|g| {
                Ok(Listed {
                    game_id: digest(g["game_id"].as_str())?,
                    records: g["records"]
                        .as_u64()
                        .filter(|&n| n as usize <= MAX_LOG_RECORDS)
                        .ok_or_else(|| {
                            MailboxError::Malformed("a record count is missing".into())
                        })? as u32,
                    ended: g["ended"].as_bool().unwrap_or(false),
                })
            })
            .collect()
    }
}
