//! The data directory's register of games: for each game of this
//! identity, where its log lives (its *home*, wherever the player put
//! it) and the latest record this identity signed in it.
//!
//! `DATA_DIR/register/FINGERPRINT/GAME.json`, one small JSON file per
//! game (`GAME` is the 64 hex digits of the game id):
//!
//! ```json
//! {"format":1,"game":"…","home":"/home/ann/g.log",
//!  "signed":{"seq":3,"hash":"…","log":"/home/ann/g.log","record":"…"},
//!  "copies":[]}
//! ```
//!
//! `signed.record` is the whole record (hex), so a record registered but
//! lost from its log (the program stopped between the two writes) is
//! put back rather than signed again differently. `copies` lists the
//! logs of a game found in more than one place, until the player keeps
//! one (`reversi keep`): nothing is signed in any of them meanwhile.
//!
//! Every read-check-write holds an exclusive lock on
//! `DATA_DIR/register/FINGERPRINT/.lock`, so programs sharing the
//! identity (two `reversi move` at once, the window and the command
//! line) take turns; a file is replaced whole (written, flushed,
//! renamed, the folder flushed) before a claim returns, so the record
//! leaves the process only once the register holds it.

use std::fs::{self, File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::DataDir;
use crate::match_log::log_file::{LogFileError, LogWriter, read_log};
use crate::match_log::record::{Digest, hex};
use crate::match_log::{PublicKey, Record, Seat};
use crate::net::signing_register::{
    RegisterError, SharedRegister, Signed, SigningRegister, check, follows, game_of,
};

/// The register's folder inside the data directory.
pub(super) const REGISTER_DIR: &str = "register";

/// The format written in each file.
const FORMAT: u32 = 1;

/// A register file is a few hundred bytes; more is not one.
const MAX_FILE_BYTES: u64 = 64 * 1024;

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
struct SignedFile {
    seq: u32,
    hash: String,
    log: String,
    record: String,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
struct EntryFile {
    format: u32,
    game: String,
    home: Option<String>,
    signed: Option<SignedFile>,
    #[serde(default)]
    copies: Vec<String>,
}

/// One game's entry, checked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Entry {
    /// Where the game's log lives.
    pub home: Option<PathBuf>,
    /// The latest record this identity signed, and the record itself.
    pub signed: Option<(Signed, Record)>,
    /// Copies found and not yet settled.
    pub copies: Vec<PathBuf>,
}

/// What `reversi keep` did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kept {
    /// The game's log from now on.
    pub log: PathBuf,
    /// Each other copy and where it was moved.
    pub set_aside: Vec<(PathBuf, PathBuf)>,
}

/// Why a copy cannot be kept.
#[derive(Debug, thiserror::Error)]
pub enum KeepError {
    /// The log cannot be read.
    #[error(transparent)]
    Log(#[from] crate::match_log::log_file::LogFileError),
    /// The log does not verify, or is not a game of this identity.
    #[error("{log}: not a valid log of a game of yours")]
    NotYours {
        /// The game's log file.
        log: PathBuf,
    },
    /// Another copy holds more of this side's records.
    #[error(
        "{longer} holds everything {kept} does and your record {seq} after it: keep {longer} instead"
    )]
    LongerCopy {
        /// The copy asked for.
        kept: PathBuf,
        /// The copy that holds more.
        longer: PathBuf,
        /// The first record of this side's that only the longer holds.
        seq: u32,
    },
    /// The register of signed records could not be read, locked or written.
    #[error(transparent)]
    Register(#[from] RegisterError),
    /// Another copy could not be moved aside.
    #[error("cannot set {path} aside: {source}")]
    SetAside {
        /// The other copy of the log.
        path: PathBuf,
        /// What failed.
        source: std::io::Error,
    },
}

/// The register of one identity in one data directory.
#[derive(Debug, Clone)]
pub struct GameRegister {
    dir: PathBuf,
    /// Where logs go by default (also searched for copies).
    games_dir: PathBuf,
}

fn storage(place: &Path, reason: impl std::fmt::Display) -> RegisterError {
    RegisterError::Storage {
        place: place.display().to_string(),
        reason: reason.to_string(),
    }
}

/// `path` made absolute (symbolic links in its folder resolved), so that
/// two spellings of one file are one home.
pub fn absolute(path: &Path) -> PathBuf {
    if let Ok(full) = fs::canonicalize(path) {
        return full;
    }
    let full = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    match (full.parent(), full.file_name()) {
        (Some(parent), Some(name)) => fs::canonicalize(parent)
            .map(|p| p.join(name))
            .unwrap_or(full),
        _ => full,
    }
}

fn decode_digest(text: &str) -> Option<Digest> {
    data_encoding::HEXLOWER_PERMISSIVE
        .decode(text.as_bytes())
        .ok()?
        .try_into()
        .ok()
}

impl GameRegister {
    /// The register of `key` in `data_dir` (made on first write).
    pub fn open(data_dir: &DataDir, key: &PublicKey) -> GameRegister {
        GameRegister {
            dir: data_dir.register_dir().join(key.fingerprint().as_compact()),
            games_dir: data_dir.games_dir(),
        }
    }

    /// The handle a session signs through, for the log at `log`.
    pub fn for_log(&self, log: &Path) -> SharedRegister {
        Arc::new(LogRegister {
            register: self.clone(),
            log: absolute(log),
        })
    }

    fn file(&self, game: &Digest) -> PathBuf {
        self.dir.join(format!("{}.json", hex(game)))
    }

    /// Runs `f` holding the register's lock (other programs on this
    /// identity wait).
    fn locked<T>(&self, f: impl FnOnce() -> Result<T, RegisterError>) -> Result<T, RegisterError> {
        fs::create_dir_all(&self.dir).map_err(|e| storage(&self.dir, e))?;
        let path = self.dir.join(".lock");
        let lock = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| storage(&path, e))?;
        lock.lock().map_err(|e| storage(&path, e))?;
        // Released when `lock` is dropped (and by the system if we die).
        f()
    }

    /// The entry of `game` (empty when the game is not registered).
    pub fn entry(&self, game: &Digest) -> Result<Entry, RegisterError> {
        let path = self.file(game);
        let file = match File::open(&path) {
            Ok(file) => file,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Entry::default()),
            Err(e) => return Err(storage(&path, e)),
        };
        let mut text = String::new();
        file.take(MAX_FILE_BYTES + 1)
            .read_to_string(&mut text)
            .map_err(|e| storage(&path, e))?;
        if text.len() as u64 > MAX_FILE_BYTES {
            return Err(storage(&path, format!("more than {MAX_FILE_BYTES} bytes")));
        }
        let raw: EntryFile = serde_json::from_str(&text).map_err(|e| storage(&path, e))?;
        if raw.format != FORMAT {
            return Err(storage(
                &path,
                format!("format {} (this program reads format {FORMAT})", raw.format),
            ));
        }
        if decode_digest(&raw.game) != Some(*game) {
            return Err(storage(&path, "the file names another game"));
        }
        let signed = match raw.signed {
            None => None,
            Some(s) => {
                let bytes = data_encoding::HEXLOWER_PERMISSIVE
                    .decode(s.record.as_bytes())
                    .map_err(|e| storage(&path, format!("signed record: {e}")))?;
                let record = Record::decode(&bytes)
                    .map_err(|e| storage(&path, format!("signed record: {e}")))?;
                if record.content().seq != s.seq
                    || decode_digest(&s.hash) != Some(record.hash())
                    || game_of(&record) != *game
                {
                    return Err(storage(&path, "the signed record does not match its place"));
                }
                Some((
                    Signed {
                        seq: s.seq,
                        hash: record.hash(),
                        log: s.log,
                    },
                    record,
                ))
            }
        };
        Ok(Entry {
            home: raw.home.map(PathBuf::from),
            signed,
            copies: raw.copies.into_iter().map(PathBuf::from).collect(),
        })
    }

    /// Replaces the entry of `game`: written to a temporary file, flushed,
    /// renamed into place, the folder flushed.
    fn write(&self, game: &Digest, entry: &Entry) -> Result<(), RegisterError> {
        let raw = EntryFile {
            format: FORMAT,
            game: hex(game),
            home: entry.home.as_ref().map(|p| p.display().to_string()),
            signed: entry.signed.as_ref().map(|(s, record)| SignedFile {
                seq: s.seq,
                hash: hex(&s.hash),
                log: s.log.clone(),
                record: hex(&record.to_bytes()),
            }),
            copies: entry
                .copies
                .iter()
                .map(|p| p.display().to_string())
                .collect(),
        };
        let path = self.file(game);
        let temporary = path.with_extension(format!("tmp-{}", std::process::id()));
        let text = serde_json::to_string(&raw).map_err(|e| storage(&path, e))?;
        let mut file = File::create(&temporary).map_err(|e| storage(&temporary, e))?;
        file.write_all(text.as_bytes())
            .and_then(|()| file.write_all(b"\n"))
            .and_then(|()| file.sync_all())
            .map_err(|e| storage(&temporary, e))?;
        drop(file);
        fs::rename(&temporary, &path).map_err(|e| storage(&path, e))?;
        File::open(&self.dir)
            .and_then(|dir| dir.sync_all())
            .map_err(|e| storage(&self.dir, e))
    }

    /// Where `game`'s log lives, when known.
    pub fn home(&self, game: &Digest) -> Result<Option<PathBuf>, RegisterError> {
        Ok(self.entry(game)?.home)
    }

    /// Every registered game and its home.
    pub fn homes(&self) -> Vec<(Digest, PathBuf)> {
        let Ok(entries) = fs::read_dir(&self.dir) else {
            return Vec::new();
        };
        let mut homes = Vec::new();
        for entry in entries.filter_map(Result::ok) {
            let name = entry.file_name();
            let Some(game) = name
                .to_str()
                .and_then(|n| n.strip_suffix(".json"))
                .and_then(decode_digest)
            else {
                continue;
            };
            match self.entry(&game) {
                Ok(Entry {
                    home: Some(home), ..
                }) => homes.push((game, home)),
                Ok(_) => {}
                Err(e) => tracing::warn!("{e}"),
            }
        }
        homes.sort_by(|a, b| a.1.cmp(&b.1));
        homes
    }

    /// Names `log` the home of `game` unless it has one; returns the home.
    pub fn settle_home(&self, game: &Digest, log: &Path) -> Result<PathBuf, RegisterError> {
        self.locked(|| {
            let mut entry = self.entry(game)?;
            if let Some(home) = &entry.home {
                return Ok(home.clone());
            }
            let home = absolute(log);
            entry.home = Some(home.clone());
            self.write(game, &entry)?;
            Ok(home)
        })
    }

    /// Marks `game` as found in several `copies`: nothing is signed in it
    /// until one is kept.
    pub fn mark_copies(&self, game: &Digest, copies: &[PathBuf]) -> Result<(), RegisterError> {
        self.locked(|| {
            let mut entry = self.entry(game)?;
            let copies: Vec<PathBuf> = copies.iter().map(|p| absolute(p)).collect();
            if entry.copies != copies {
                entry.copies = copies;
                self.write(game, &entry)?;
            }
            Ok(())
        })
    }

    /// Makes the log at `log` the one home of its game: every other copy
    /// (those marked, the old home, those in the games folder) is set
    /// aside as `NAME.superseded`, and the latest record this side signed
    /// in the kept log becomes the register's latest. Refused when another
    /// copy holds everything the kept one does and a later record of
    /// this side's: keeping the shorter would invite signing that place
    /// again.
    pub fn keep(&self, log: &Path, mine: &PublicKey) -> Result<Kept, KeepError> {
        let records = read_log(log)?.records;
        let seat = seat_of(&records, mine).ok_or_else(|| KeepError::NotYours {
            log: log.to_path_buf(),
        })?;
        let game = game_of(&records[0]);
        let log = absolute(log);
        let entry = self.entry(&game)?;
        let mut others: Vec<PathBuf> = entry.copies.iter().chain(&entry.home).cloned().collect();
        others.extend(
            self.copies_in_games_dir(&game, &log)
                .into_iter()
                .map(|(p, _)| p),
        );
        others.retain(|p| *p != log && p.exists());
        others.sort();
        others.dedup();
        for other in &others {
            let Ok(theirs) = read_log(other).map(|l| l.records) else {
                continue;
            };
            let later_of_mine = theirs
                .iter()
                .skip(records.len())
                .find(|r| r.content().author == seat);
            if let (true, Some(later)) = (agree(&records, &theirs), later_of_mine) {
                return Err(KeepError::LongerCopy {
                    kept: log,
                    longer: other.clone(),
                    seq: later.content().seq,
                });
            }
        }
        self.settle(&game, &log, &records, seat)?;
        let mut set_aside = Vec::new();
        for other in others {
            let mut aside = other.clone().into_os_string();
            aside.push(".superseded");
            let mut aside = PathBuf::from(aside);
            let mut n = 1;
            while aside.exists() {
                n += 1;
                aside = PathBuf::from(format!("{}.superseded-{n}", other.display()));
            }
            fs::rename(&other, &aside).map_err(|source| KeepError::SetAside {
                path: other.clone(),
                source,
            })?;
            set_aside.push((other, aside));
        }
        Ok(Kept { log, set_aside })
    }

    /// The register's side of [`GameRegister::keep`].
    fn settle(
        &self,
        game: &Digest,
        log: &Path,
        records: &[Record],
        seat: Seat,
    ) -> Result<(), RegisterError> {
        let game = *game;
        let log = log.to_path_buf();
        self.locked(|| {
            let mut entry = self.entry(&game)?;
            entry.home = Some(log.clone());
            entry.copies.clear();
            entry.signed = latest_of(records, seat, &log);
            self.write(&game, &entry)
        })
    }

    /// Puts back the record registered as this side's latest in the game
    /// of `records` (the log at `log`, open in `writer`) when it is exactly
    /// the next one, was written for this log, and verifies after it: the
    /// program stopped after registering it and before the log held it.
    /// Returns its place.
    pub fn put_back_lost(
        &self,
        log: &Path,
        records: &mut Vec<Record>,
        writer: &mut LogWriter,
    ) -> Result<Option<u32>, LogFileError> {
        let Some(game) = records.first().map(game_of) else {
            return Ok(None);
        };
        let Some((signed, record)) = self.entry(&game).ok().and_then(|e| e.signed) else {
            return Ok(None);
        };
        if !follows(records, &record) || Path::new(&signed.log) != absolute(log) {
            return Ok(None);
        }
        records.push(record.clone());
        if crate::match_log::verify_log(records).is_err() {
            records.pop();
            return Ok(None);
        }
        writer.append(&record)?;
        tracing::info!(
            "{}: record {} was signed and registered but not yet logged; put back",
            log.display(),
            signed.seq
        );
        Ok(Some(signed.seq))
    }

    /// The logs in the default games folder that hold `game`, other than
    /// `except`, with their records.
    fn copies_in_games_dir(&self, game: &Digest, except: &Path) -> Vec<(PathBuf, Vec<Record>)> {
        let Ok(entries) = fs::read_dir(&self.games_dir) else {
            return Vec::new();
        };
        let mut found = Vec::new();
        for path in entries.filter_map(Result::ok).map(|e| e.path()) {
            if path.extension().is_none_or(|e| e != "log") || absolute(&path) == except {
                continue;
            }
            if let Ok(loaded) = read_log(&path)
                && loaded.records.first().map(game_of) == Some(*game)
            {
                found.push((absolute(&path), loaded.records));
            }
        }
        found
    }
}

/// The seat `key` holds in the game of `records`.
fn seat_of(records: &[Record], key: &PublicKey) -> Option<Seat> {
    let verifier = crate::match_log::verify_log(records).ok()?;
    [Seat::Host, Seat::Guest]
        .into_iter()
        .find(|&s| verifier.player(s).is_some_and(|p| p.key == *key))
}

/// What the register notes of `record`, kept in the log at `log`.
fn kept_in(record: &Record, log: &Path) -> (Signed, Record) {
    let signed = Signed {
        seq: record.content().seq,
        hash: record.hash(),
        log: log.display().to_string(),
    };
    (signed, record.clone())
}

/// The latest record `seat` signed in `records` (the log at `log`), as
/// the register notes it.
fn latest_of(records: &[Record], seat: Seat, log: &Path) -> Option<(Signed, Record)> {
    records
        .iter()
        .rev()
        .find(|r| r.content().author == seat)
        .map(|r| kept_in(r, log))
}

/// Whether one chain is the start of the other.
fn agree(a: &[Record], b: &[Record]) -> bool {
    a.iter().zip(b).all(|(x, y)| x == y)
}

/// The register as one log's session signs through it.
#[derive(Debug)]
struct LogRegister {
    register: GameRegister,
    log: PathBuf,
}

impl LogRegister {
    /// A game never registered: in a data directory from before the
    /// register, other copies of it may hold records this side signed.
    /// Copies that agree with this log tell the latest signed record;
    /// copies that disagree are marked, and nothing is signed.
    fn first_entry(
        &self,
        game: &Digest,
        chain: &[Record],
        record: &Record,
    ) -> Result<Entry, RegisterError> {
        let author = record.content().author;
        let mut entry = Entry {
            home: Some(self.log.clone()),
            ..Entry::default()
        };
        let mut latest = latest_of(chain, author, &self.log);
        let mut disagreeing = Vec::new();
        for (path, records) in self.register.copies_in_games_dir(game, &self.log) {
            if !agree(chain, &records) {
                disagreeing.push(path);
                continue;
            }
            let theirs = latest_of(&records, author, &path);
            if let Some((signed, _)) = &theirs
                && latest.as_ref().is_none_or(|(s, _)| signed.seq > s.seq)
            {
                latest = theirs;
            }
        }
        if !disagreeing.is_empty() {
            entry.copies = std::iter::once(self.log.clone())
                .chain(disagreeing)
                .collect();
        }
        entry.signed = latest;
        Ok(entry)
    }
}

impl SigningRegister for LogRegister {
    fn claim(&self, chain: &[Record], record: &Record) -> Result<(), RegisterError> {
        let game = game_of(record);
        let register = &self.register;
        register.locked(|| {
            let mut entry = register.entry(&game)?;
            let fresh = entry == Entry::default();
            if fresh && !chain.is_empty() {
                entry = self.first_entry(&game, chain, record)?;
                if !entry.copies.is_empty() {
                    register.write(&game, &entry)?;
                }
            }
            if !entry.copies.is_empty() {
                return Err(RegisterError::Unsettled {
                    game,
                    copies: entry
                        .copies
                        .iter()
                        .map(|p| p.display().to_string())
                        .collect(),
                });
            }
            check(entry.signed.as_ref().map(|(s, _)| s), chain, record)?;
            entry.home.get_or_insert_with(|| self.log.clone());
            entry.signed = Some(kept_in(record, &self.log));
            register.write(&game, &entry)
        })
    }
}

impl crate::net::correspondence::GameHomes for GameRegister {
    fn homes(&self) -> Vec<(Digest, PathBuf)> {
        GameRegister::homes(self)
    }

    fn home(&self, game: &Digest) -> Result<Option<PathBuf>, RegisterError> {
        GameRegister::home(self, game)
    }

    fn settle_home(&self, game: &Digest, log: &Path) -> Result<PathBuf, RegisterError> {
        GameRegister::settle_home(self, game, log)
    }

    fn mark_copies(&self, game: &Digest, copies: &[PathBuf]) -> Result<(), RegisterError> {
        GameRegister::mark_copies(self, game, copies)
    }

    fn for_log(&self, log: &Path) -> SharedRegister {
        GameRegister::for_log(self, log)
    }

    fn put_back_lost(
        &self,
        log: &Path,
        records: &mut Vec<Record>,
        writer: &mut LogWriter,
    ) -> Result<Option<u32>, LogFileError> {
        GameRegister::put_back_lost(self, log, records, writer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Preset, Rules};
    use crate::match_log::builder::{MatchBuilder, MatchTerms, Players};
    use crate::match_log::log_file::write_log;
    use crate::match_log::rules_proposal::RulesProposal;
    use crate::match_log::{Identity, Seat};

    fn data_dir(name: &str) -> DataDir {
        let dir =
            std::env::temp_dir().join(format!("reversi-register-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        DataDir::resolve(Some(&dir)).unwrap()
    }

    /// A game set up and four moves in, with `guest` as the guest; the
    /// place of the guest's last record.
    fn game(guest: &Identity) -> (Vec<Record>, usize) {
        let terms = MatchTerms {
            proposal: RulesProposal::fixed(Rules::preset(Preset::Othello)),
            deadline_secs: 3600,
            host_name: "Ann".into(),
            guest_name: "Ben".into(),
        };
        let players = Players {
            host: Identity::from_secret_bytes(&[5; 32]),
            guest: guest.clone(),
            host_nonce: [1; 32],
            guest_nonce: [2; 32],
        };
        let mut game = MatchBuilder::new(&terms, players, 1_000).unwrap();
        for square in ["f5", "d6", "c3", "d3"] {
            game.play(square.parse().unwrap(), 2_000).unwrap();
        }
        let records = game.records().to_vec();
        let last = records
            .iter()
            .rposition(|r| r.content().author == Seat::Guest)
            .unwrap();
        (records, last)
    }

    fn open(log: &Path) -> (Vec<Record>, LogWriter) {
        let loaded = read_log(log).unwrap();
        let writer = LogWriter::open_append(log, &loaded).unwrap();
        (loaded.records, writer)
    }

    #[test]
    fn a_record_registered_but_not_logged_is_put_back_into_its_own_log_only() {
        let data = data_dir("lost");
        let me = data.identity().unwrap();
        let register = data.register(&me.public_key());
        let (records, last) = game(&me);
        let (log, other) = (data.path().join("a.log"), data.path().join("b.log"));
        write_log(&log, &records[..last]).unwrap();
        write_log(&other, &records[..last]).unwrap();
        // Registered for a.log; the program stopped before logging it.
        register
            .for_log(&log)
            .claim(&records[..last], &records[last])
            .unwrap();
        let (mut held, mut writer) = open(&other);
        assert_eq!(
            register
                .put_back_lost(&other, &mut held, &mut writer)
                .unwrap(),
            None
        );
        assert_eq!(read_log(&other).unwrap().records, &records[..last]);
        let (mut held, mut writer) = open(&log);
        assert_eq!(
            register
                .put_back_lost(&log, &mut held, &mut writer)
                .unwrap(),
            Some(last as u32)
        );
        assert_eq!(held, &records[..=last]);
        assert_eq!(read_log(&log).unwrap().records, &records[..=last]);
        let (mut held, mut writer) = open(&log);
        assert_eq!(
            register
                .put_back_lost(&log, &mut held, &mut writer)
                .unwrap(),
            None
        );
        let _ = fs::remove_dir_all(data.path());
    }

    #[test]
    fn a_damaged_register_file_stops_signing_with_its_place_and_reason() {
        let data = data_dir("damaged");
        let me = data.identity().unwrap();
        let register = data.register(&me.public_key());
        let (records, last) = game(&me);
        let log = data.path().join("a.log");
        let handle = register.for_log(&log);
        handle.claim(&records[..1], &records[1]).unwrap();
        let file = register.file(&game_of(&records[0]));
        fs::write(&file, "{\"format\":1,\"game\":\"00\"}").unwrap();
        let err = handle.claim(&records[..last], &records[last]).unwrap_err();
        match err {
            RegisterError::Storage { place, reason } => {
                assert_eq!(place, file.display().to_string());
                assert!(reason.contains("another game"), "{reason}");
            }
            e => panic!("expected a storage error, got {e}"),
        }
        let _ = fs::remove_dir_all(data.path());
    }
}
