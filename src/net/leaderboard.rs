//! A signaling server's opt-in leaderboard, from the player's side: join
//! or leave with a signed statement, submit a finished log, read the
//! table, download the counted logs. Answers are bounded; the logs that
//! come back are checked by whoever rates them (`reversi ratings`).

use std::time::Duration;

use data_encoding::HEXLOWER;
use serde_json::Value;

use super::http_client::{HttpError, http_get, http_post};
use super::server_url::ServerUrl;
use crate::match_log::log_file::MAX_FILE_BYTES;
use crate::match_log::record::Digest;
use crate::match_log::{Identity, PublicKey};
use crate::membership::{Membership, Statement};

/// How long one request may take.
const TIMEOUT: Duration = Duration::from_secs(20);

/// The largest table or listing read.
const MAX_LISTING_BYTES: usize = 32 * 1024 * 1024;

/// The most games a listing may name.
const MAX_LISTED_GAMES: usize = 1_000_000;

/// Why a leaderboard request failed.
#[derive(Debug, thiserror::Error)]
pub enum LeaderboardError {
    /// The server could not be reached, or answered badly.
    #[error(transparent)]
    Http(#[from] HttpError),
    /// The server keeps no leaderboard.
    #[error("{server} keeps no leaderboard (it answered {status})")]
    NoLeaderboard {
        /// The server asked, as the player named it.
        server: String,
        /// The HTTP status of its answer.
        status: u16,
    },
    /// The leaderboard refused, with its reason.
    #[error("the leaderboard refused ({status}): {reason}")]
    Refused {
        /// HTTP status.
        status: u16,
        /// The server's words.
        reason: String,
    },
    /// The answer is not what a leaderboard sends.
    #[error("the leaderboard sent a malformed answer: {0}")]
    Malformed(String),
}

/// A server's leaderboard.
#[derive(Debug, Clone)]
pub struct Leaderboard {
    server: ServerUrl,
}

impl Leaderboard {
    /// The leaderboard of this signaling server.
    pub fn new(server: ServerUrl) -> Leaderboard {
        Leaderboard { server }
    }

    fn refused(&self, status: u16, body: &str) -> LeaderboardError {
        match serde_json::from_str::<Value>(body) {
            Ok(v) => LeaderboardError::Refused {
                status,
                reason: v["error"]
                    .as_str()
                    .map_or_else(|| body.chars().take(200).collect(), str::to_string),
            },
            // A server without one answers from its websocket fallback.
            Err(_) => LeaderboardError::NoLeaderboard {
                server: self.server.to_string(),
                status,
            },
        }
    }

    fn json(body: &str) -> Result<Value, LeaderboardError> {
        serde_json::from_str(body).map_err(|e| LeaderboardError::Malformed(e.to_string()))
    }

    /// Signs and sends a join or leave statement; returns whether the key
    /// is now a member.
    pub async fn set_membership(
        &self,
        identity: &Identity,
        membership: Membership,
        now_ms: u64,
    ) -> Result<bool, LeaderboardError> {
        let statement = Statement::sign(identity, membership, &self.server.authority(), now_ms);
        let body = statement.to_json().to_string();
        let (status, answer) = http_post(
            &self.server,
            "/leaderboard/members",
            body.as_bytes(),
            64 * 1024,
            TIMEOUT,
        )
        .await?;
        if status != 200 {
            return Err(self.refused(status, &answer));
        }
        Self::json(&answer)?["member"]
            .as_bool()
            .ok_or_else(|| LeaderboardError::Malformed("no membership in the answer".into()))
    }

    /// Whether a key has joined.
    pub async fn is_member(&self, key: &PublicKey) -> Result<bool, LeaderboardError> {
        let path = format!("/leaderboard/members/{}", HEXLOWER.encode(&key.to_bytes()));
        let (status, answer) = http_get(&self.server, &path, 64 * 1024, TIMEOUT).await?;
        if status != 200 {
            return Err(self.refused(status, &answer));
        }
        Self::json(&answer)?["member"]
            .as_bool()
            .ok_or_else(|| LeaderboardError::Malformed("no membership in the answer".into()))
    }

    /// Submits a finished log (the file's bytes); returns its game id as
    /// the server counted it.
    pub async fn submit(&self, log: &[u8]) -> Result<String, LeaderboardError> {
        let (status, answer) = http_post(&self.server, "/games", log, 64 * 1024, TIMEOUT).await?;
        if status != 201 {
            return Err(self.refused(status, &answer));
        }
        Self::json(&answer)?["game_id"]
            .as_str()
            .map(str::to_string)
            .ok_or_else(|| LeaderboardError::Malformed("no game id in the answer".into()))
    }

    /// The table, as the server computed it (`reversi ratings --json` form).
    pub async fn table(&self) -> Result<Value, LeaderboardError> {
        let (status, answer) = http_get(
            &self.server,
            "/leaderboard?format=json",
            MAX_LISTING_BYTES,
            TIMEOUT,
        )
        .await?;
        if status != 200 {
            return Err(self.refused(status, &answer));
        }
        let table = Self::json(&answer)?;
        if !table["players"].is_array() {
            return Err(LeaderboardError::Malformed(
                "no players in the table".into(),
            ));
        }
        Ok(table)
    }

    /// The ids of the counted games.
    pub async fn games(&self) -> Result<Vec<Digest>, LeaderboardError> {
        let (status, answer) = http_get(&self.server, "/games", MAX_LISTING_BYTES, TIMEOUT).await?;
        if status != 200 {
            return Err(self.refused(status, &answer));
        }
        let listing = Self::json(&answer)?;
        let games = listing["games"]
            .as_array()
            .ok_or_else(|| LeaderboardError::Malformed("no list of games".into()))?;
        games
            .iter()
            .take(MAX_LISTED_GAMES)
            .map(|g| {
                g["game_id"]
                    .as_str()
                    .and_then(|t| HEXLOWER.decode(t.as_bytes()).ok())
                    .and_then(|b| Digest::try_from(b).ok())
                    .ok_or_else(|| {
                        LeaderboardError::Malformed("a game id is not 64 hex digits".into())
                    })
            })
            .collect()
    }

    /// One counted game's log file.
    pub async fn log(&self, game_id: &Digest) -> Result<String, LeaderboardError> {
        let path = format!("/games/{}", HEXLOWER.encode(game_id));
        let (status, answer) = http_get(&self.server, &path, MAX_FILE_BYTES, TIMEOUT).await?;
        if status != 200 {
            return Err(self.refused(status, &answer));
        }
        Ok(answer)
    }
}
