//! What this identity has signed, game by game: the guard that keeps an
//! honest player from equivocating.
//!
//! A record is signed only once it has been checked against the latest
//! record this identity signed in the same game, and written down (and,
//! natively, flushed to disk) as the new latest before it can leave the
//! process. Whatever the front-end, the file or the timing — a copied
//! log, a backup, the window and the command line on different files,
//! two programs at once — one identity never signs two different records
//! at one place of one game.
//!
//! The rule ([`check`]) is pure; where the register lives is the front
//! end's: the data directory natively (`crate::data_dir::register`), the
//! page's storage in a browser (`crate::browser_data`).

use std::fmt;
use std::sync::Arc;

use crate::match_log::Record;
use crate::match_log::record::{Digest, hex};

/// The latest record an identity signed in one game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signed {
    /// Its place in the game (its `seq`).
    pub seq: u32,
    /// The record's hash (SHA-256 of its bytes), telling it from another at its place.
    pub hash: Digest,
    /// Where it was written: a log file's path, or a browser room.
    pub log: String,
}

/// Why a record must not be signed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RegisterError {
    /// A different record was signed at this very place.
    #[error(
        "refused to sign record {seq} of game {game}: you already signed a different record {seq} of this game, kept in {log}; go on from that log (signing both would be an equivocation)",
        game = short(.game)
    )]
    AlreadySigned {
        /// The game's id (the hash of its genesis).
        game: Digest,
        /// The record's place in the log.
        seq: u32,
        /// The log that holds the signed record.
        log: String,
    },
    /// This log is behind what the identity signed: it lacks a record
    /// signed from another log, or holds a different one at its place.
    #[error(
        "refused to sign record {seq} of game {game}: you already signed record {signed} of this game in {log}, which this log {lacks}; go on from that log",
        game = short(.game),
        lacks = if *.missing { "lacks" } else { "holds differently" }
    )]
    Diverged {
        /// The game's id (the hash of its genesis).
        game: Digest,
        /// The place asked for.
        seq: u32,
        /// The latest place signed.
        signed: u32,
        /// Whether this log simply lacks it (rather than holding another).
        missing: bool,
        /// The log that holds the signed record.
        log: String,
    },
    /// Several copies of the game exist and the player has not chosen one.
    #[error(
        "refused to sign in game {game}: it has {} copies ({}); nothing is signed in any until you keep one (`reversi keep LOG`)",
        .copies.len(),
        .copies.join(", "),
        game = short(.game)
    )]
    Unsettled {
        /// The game's id (the hash of its genesis).
        game: Digest,
        /// The paths of the logs that each hold a copy of the game.
        copies: Vec<String>,
    },
    /// The register could not be read or written: nothing is signed
    /// without it.
    #[error("refused to sign: the register of signed records ({place}) cannot be used: {reason}")]
    Storage {
        /// The file or storage key.
        place: String,
        /// What failed.
        reason: String,
    },
}

/// The first 16 hex digits of a game id, as the program shows it.
fn short(game: &Digest) -> String {
    hex(&game[..8])
}

/// The game a record belongs to: its own hash for a genesis.
pub fn game_of(record: &Record) -> Digest {
    let content = record.content();
    if content.seq == 0 {
        record.hash()
    } else {
        content.game_id
    }
}

/// Whether this identity may sign `record`, given the latest record it
/// signed in that game (`latest`) and the records the new one follows
/// (`chain`, from the genesis; `chain.len()` is the new record's place).
///
/// Signing again exactly what was signed is allowed (the bytes are the
/// same, so nothing is said twice); anything else at a place already
/// signed, or on a chain that does not hold the latest signed record, is
/// refused.
pub fn check(
    latest: Option<&Signed>,
    chain: &[Record],
    record: &Record,
) -> Result<(), RegisterError> {
    let Some(latest) = latest else {
        return Ok(());
    };
    let game = game_of(record);
    let seq = record.content().seq;
    if seq == latest.seq {
        return if record.hash() == latest.hash {
            Ok(())
        } else {
            Err(RegisterError::AlreadySigned {
                game,
                seq,
                log: latest.log.clone(),
            })
        };
    }
    let held = chain.get(latest.seq as usize).map(Record::hash);
    if seq > latest.seq && held == Some(latest.hash) {
        return Ok(());
    }
    Err(RegisterError::Diverged {
        game,
        seq,
        signed: latest.seq,
        missing: held.is_none(),
        log: latest.log.clone(),
    })
}

/// Whether `record` is exactly the next record after `records`.
pub fn follows(records: &[Record], record: &Record) -> bool {
    record.content().seq as usize == records.len()
        && records.last().map(Record::hash) == Some(record.content().prev)
}

/// Keeps what an identity signed. Implementations write the new latest
/// record durably before `claim` returns `Ok`, and serialise concurrent
/// claims on one identity.
pub trait SigningRegister: Send + Sync + fmt::Debug {
    /// Registers `record`, about to be signed by this identity after
    /// `chain`, as the game's latest; refused with the reason when it
    /// would contradict what was signed before (see [`check`]).
    fn claim(&self, chain: &[Record], record: &Record) -> Result<(), RegisterError>;
}

/// A shared handle on a register, as a session holds it.
pub type SharedRegister = Arc<dyn SigningRegister>;

/// A register in memory, for the session's tests (the program keeps its
/// register in files natively and in `localStorage` in the browser).
#[cfg(test)]
#[derive(Debug, Default)]
pub struct MemoryRegister {
    latest: std::sync::Mutex<std::collections::BTreeMap<Digest, Signed>>,
    /// The name it reports as the log holding a record.
    name: String,
}

#[cfg(test)]
impl MemoryRegister {
    /// An empty register that names its records' log `name`.
    pub fn named(name: &str) -> MemoryRegister {
        MemoryRegister {
            latest: Default::default(),
            name: name.to_string(),
        }
    }

    /// The latest record registered in `game`.
    pub fn latest(&self, game: &Digest) -> Option<Signed> {
        self.latest
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(game)
            .cloned()
    }
}

#[cfg(test)]
impl SigningRegister for MemoryRegister {
    fn claim(&self, chain: &[Record], record: &Record) -> Result<(), RegisterError> {
        let mut latest = self
            .latest
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let game = game_of(record);
        check(latest.get(&game), chain, record)?;
        latest.insert(
            game,
            Signed {
                seq: record.content().seq,
                hash: record.hash(),
                log: self.name.clone(),
            },
        );
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Preset, Rules};
    use crate::match_log::Identity;
    use crate::match_log::builder::{MatchBuilder, MatchTerms, Players};
    use crate::match_log::rules_proposal::RulesProposal;

    /// A game set up and four moves into play (eight records).
    fn game() -> Vec<Record> {
        let terms = MatchTerms {
            proposal: RulesProposal::fixed(Rules::preset(Preset::Othello)),
            deadline_secs: 3600,
            host_name: "Alice".into(),
            guest_name: "Bob".into(),
        };
        let players = Players {
            host: Identity::from_secret_bytes(&[1; 32]),
            guest: Identity::from_secret_bytes(&[2; 32]),
            host_nonce: [3; 32],
            guest_nonce: [4; 32],
        };
        let mut game = MatchBuilder::new(&terms, players, 1_000).unwrap();
        for square in ["f5", "d6", "c3", "d3"] {
            game.play(square.parse().unwrap(), 2_000).unwrap();
        }
        game.records().to_vec()
    }

    fn signed(records: &[Record], seq: u32) -> Signed {
        Signed {
            seq,
            hash: records[seq as usize].hash(),
            log: "a.log".into(),
        }
    }

    #[test]
    fn the_same_bytes_may_be_signed_again_but_nothing_else_at_that_place() {
        let records = game();
        let latest = signed(&records, 5);
        assert_eq!(check(Some(&latest), &records[..5], &records[5]), Ok(()));
        let other = signed(&records, 6);
        let err = check(Some(&other), &records[..6], &records[5]).unwrap_err();
        assert!(
            matches!(
                err,
                RegisterError::Diverged {
                    signed: 6,
                    seq: 5,
                    ..
                }
            ),
            "{err}"
        );
        let moved = Signed {
            hash: [9; 32],
            ..latest
        };
        let err = check(Some(&moved), &records[..5], &records[5]).unwrap_err();
        assert!(
            matches!(err, RegisterError::AlreadySigned { seq: 5, .. }),
            "{err}"
        );
        assert!(err.to_string().contains("a.log"), "{err}");
    }

    #[test]
    fn a_later_record_must_follow_the_latest_signed_one() {
        let records = game();
        let latest = signed(&records, 3);
        assert_eq!(check(Some(&latest), &records[..6], &records[6]), Ok(()));
        let err = check(Some(&latest), &records[..2], &records[6]).unwrap_err();
        assert!(
            matches!(err, RegisterError::Diverged { missing: true, .. }),
            "{err}"
        );
        let forked = Signed {
            hash: [7; 32],
            ..latest
        };
        let err = check(Some(&forked), &records[..6], &records[6]).unwrap_err();
        assert!(
            matches!(err, RegisterError::Diverged { missing: false, .. }),
            "{err}"
        );
    }

    #[test]
    fn a_memory_register_refuses_a_second_record_at_one_place() {
        let records = game();
        let register = MemoryRegister::named("memory");
        for i in 0..records.len() {
            register.claim(&records[..i], &records[i]).unwrap();
        }
        let game_id = game_of(&records[0]);
        assert_eq!(
            register.latest(&game_id).map(|s| s.seq),
            Some(records.len() as u32 - 1)
        );
        let err = register.claim(&records[..1], &records[1]).unwrap_err();
        assert!(matches!(err, RegisterError::Diverged { .. }));
    }
}
