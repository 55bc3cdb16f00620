//! Watching a game: a spectator follows a game's records in the signaling
//! server's mailbox (where both players' programs copy every record) and
//! verifies each one exactly as a player does. A spectator holds no key of
//! the game, so it can send nothing a player would take: the mailbox and
//! the players verify every record against the players' keys.
//!
//! A watch code names the game and the server: `GAME_ID@SERVER`, e.g.
//! `3f…e1@wss://reversi.example.org`. It does not contain the room name,
//! which an open game takes as its invitation: a spectator cannot join.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use data_encoding::HEXLOWER;

use super::mailbox::{Mailbox, MailboxError};
use super::server_url::{ServerUrl, ServerUrlError};
use crate::match_log::record::{Digest, hex};
use crate::match_log::{MatchVerifier, Record, VerifyError};

/// How long a spectator waits for a game that its mailbox does not hold
/// yet: a player shares the watch code as soon as the game has its genesis,
/// and copying that record to the mailbox can take a few seconds on a slow
/// link.
pub const APPEAR_WITHIN: Duration = Duration::from_secs(30);

/// A checked watch code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WatchCode {
    /// The game id: hash of the genesis record.
    pub game_id: Digest,
    /// The server whose mailbox holds the game.
    pub server: ServerUrl,
}

/// Why text is not a watch code.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WatchCodeError {
    /// No `@` between the game id and the server.
    #[error("a watch code is GAME_ID@SERVER, found {found:?}")]
    Shape {
        /// The text (shortened).
        found: String,
    },
    /// The game id is not 64 hex digits.
    #[error("the game id of a watch code is 64 hex digits, found {found:?}")]
    GameId {
        /// What was there (shortened).
        found: String,
    },
    /// The server part is not a server URL.
    #[error("the server of a watch code: {0}")]
    Server(#[from] ServerUrlError),
}

impl FromStr for WatchCode {
    type Err = WatchCodeError;

    fn from_str(text: &str) -> Result<WatchCode, WatchCodeError> {
        let text = text.trim();
        let short = |t: &str| t.chars().take(80).collect::<String>();
        let (id, server) = text
            .split_once('@')
            .ok_or_else(|| WatchCodeError::Shape { found: short(text) })?;
        let game_id = HEXLOWER
            .decode(id.to_ascii_lowercase().as_bytes())
            .ok()
            .and_then(|b| Digest::try_from(b).ok())
            .ok_or_else(|| WatchCodeError::GameId { found: short(id) })?;
        Ok(WatchCode {
            game_id,
            server: ServerUrl::parse(server)?,
        })
    }
}

impl fmt::Display for WatchCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}@{}", hex(&self.game_id), self.server)
    }
}

/// Why watching stopped.
#[derive(Debug, thiserror::Error)]
pub enum WatchError {
    /// The mailbox could not be asked.
    #[error(transparent)]
    Mailbox(#[from] MailboxError),
    /// The mailbox does not hold the game.
    #[error("the mailbox of {server} holds no game {game_id}")]
    NotFound {
        /// The server asked, as the player named it.
        server: String,
        /// The game (hex).
        game_id: String,
    },
    /// The mailbox's first record is not the genesis the code names.
    #[error("the mailbox's record 0 is not the genesis of game {game_id}")]
    WrongGenesis {
        /// The game the code names (hex).
        game_id: String,
    },
    /// A record does not verify: the spectator stops there.
    #[error("a record of the game does not verify: {0}")]
    Invalid(VerifyError),
}

/// What a spectator has verified of a game so far.
#[derive(Debug, Clone)]
pub struct Watcher {
    code: WatchCode,
    mailbox: Mailbox,
    records: Vec<Record>,
    verifier: Option<MatchVerifier>,
}

impl Watcher {
    /// A spectator of the game the code names, with nothing seen yet.
    pub fn new(code: WatchCode) -> Watcher {
        Watcher {
            mailbox: Mailbox::new(code.server.clone()),
            code,
            records: Vec::new(),
            verifier: None,
        }
    }

    /// The code being watched.
    pub fn code(&self) -> &WatchCode {
        &self.code
    }

    /// The records verified so far.
    pub fn records(&self) -> &[Record] {
        &self.records
    }

    /// The verified state, once the genesis is in.
    pub fn verifier(&self) -> Option<&MatchVerifier> {
        self.verifier.as_ref()
    }

    /// Verifies and keeps records that follow those seen; the first that
    /// fails stops it (those before it are kept). Returns how many are new.
    pub fn take(&mut self, records: Vec<Record>) -> Result<usize, WatchError> {
        let mut taken = 0;
        for record in records {
            let seq = record.content().seq as usize;
            if seq < self.records.len() {
                continue;
            }
            match &mut self.verifier {
                None => {
                    if record.hash() != self.code.game_id {
                        return Err(WatchError::WrongGenesis {
                            game_id: hex(&self.code.game_id),
                        });
                    }
                    self.verifier =
                        Some(MatchVerifier::start(&record).map_err(WatchError::Invalid)?);
                }
                Some(v) => v.append(&record).map_err(WatchError::Invalid)?,
            }
            self.records.push(record);
            taken += 1;
        }
        Ok(taken)
    }

    /// Asks the mailbox for what follows and verifies it; returns how many
    /// records are new.
    pub async fn fetch(&mut self) -> Result<usize, WatchError> {
        let from = self.records.len() as u32;
        let found = self.mailbox.records(&self.code.game_id, from).await?;
        let (_, records) = found.ok_or_else(|| WatchError::NotFound {
            server: self.code.server.to_string(),
            game_id: hex(&self.code.game_id),
        })?;
        self.take(records)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_watch_code_round_trips_and_bad_ones_are_named() {
        let code: WatchCode = format!("{}@ws://127.0.0.1:3536", "ab".repeat(32))
            .parse()
            .unwrap();
        assert_eq!(code.game_id, [0xab; 32]);
        assert_eq!(code.to_string().parse::<WatchCode>(), Ok(code));
        assert!(matches!(
            "no-at-sign".parse::<WatchCode>(),
            Err(WatchCodeError::Shape { .. })
        ));
        assert!(matches!(
            "abc@ws://127.0.0.1:1".parse::<WatchCode>(),
            Err(WatchCodeError::GameId { .. })
        ));
        assert!(matches!(
            format!("{}@ftp://x", "00".repeat(32)).parse::<WatchCode>(),
            Err(WatchCodeError::Server(_))
        ));
    }

    fn game() -> crate::match_log::builder::MatchBuilder {
        use crate::match_log::builder::{MatchBuilder, MatchTerms, Players};
        use crate::match_log::rules_proposal::RulesProposal;
        let terms = MatchTerms {
            proposal: RulesProposal::fixed(crate::engine::Rules::default()),
            deadline_secs: 3600,
            host_name: "Ann".into(),
            guest_name: "Ben".into(),
        };
        let players = Players {
            host: crate::match_log::Identity::from_secret_bytes(&[1; 32]),
            guest: crate::match_log::Identity::from_secret_bytes(&[2; 32]),
            host_nonce: [3; 32],
            guest_nonce: [4; 32],
        };
        let mut game = MatchBuilder::new(&terms, players, 1_800_000_000_000).unwrap();
        for square in ["f5", "d6", "c3"] {
            game.play(square.parse().unwrap(), 1_800_000_000_000)
                .unwrap();
        }
        game
    }

    fn watcher_of(game: &crate::match_log::builder::MatchBuilder) -> Watcher {
        Watcher::new(WatchCode {
            game_id: game.records()[0].hash(),
            server: ServerUrl::parse("ws://127.0.0.1:1").unwrap(),
        })
    }

    #[test]
    fn a_spectator_verifies_what_it_takes_and_stops_at_a_bad_record() {
        let game = game();
        let records = game.records().to_vec();
        let mut watcher = watcher_of(&game);
        assert_eq!(watcher.take(records[..5].to_vec()).unwrap(), 5);
        // Repeats are skipped; the rest follows.
        assert_eq!(watcher.take(records.clone()).unwrap(), records.len() - 5);
        assert_eq!(watcher.verifier().unwrap().moves().len(), 3);
        // A record signed with a key not in the game (a spectator's own).
        let mut other = watcher_of(&game);
        let mut forged = records.clone();
        let content = forged[6].content().clone();
        forged[6] = Record::sign(
            content,
            &crate::match_log::Identity::from_secret_bytes(&[9; 32]),
        );
        assert!(matches!(other.take(forged), Err(WatchError::Invalid(_))));
        assert_eq!(other.records().len(), 6, "the records before it are kept");
        // Another game's genesis under this code.
        let mut wrong = Watcher::new(WatchCode {
            game_id: [0; 32],
            server: ServerUrl::parse("ws://127.0.0.1:1").unwrap(),
        });
        assert!(matches!(
            wrong.take(records),
            Err(WatchError::WrongGenesis { .. })
        ));
    }
}
