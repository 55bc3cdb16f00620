//! Correspondence play: a game's log brought up to date with the mailbox,
//! one visit at a time, with the other player's program closed.
//!
//! A visit fetches the records the mailbox holds beyond this log, takes
//! each through the session exactly as one from the peer (verified before
//! it changes anything), writes the setup step that is ours (the
//! acceptance, a reveal), and posts every record of this log the mailbox
//! lacks. The log stays the truth: a mailbox that lost everything gets it
//! back from the next visit.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::driver::save_evidence;
use super::mailbox::{Mailbox, MailboxError, Posted};
use super::room_file::RoomFile;
use super::server_url::ServerUrl;
use super::session::{ColorQuestion, Event, HaltReason, Output, ResumeError, Session};
use super::signing_register::{RegisterError, SharedRegister, game_of};
use crate::engine::Color;
use crate::match_log::invite::AcceptProof;
use crate::match_log::log_file::{LogFileError, LogWriter, read_log, write_log};
use crate::match_log::record::{Digest, hex};
use crate::match_log::verify::Phase;
use crate::match_log::{Body, Identity, Record, Seat, verify_log};

/// The room of an open game once accepted: the acceptance shows it (the
/// room name itself in version 1; in version 2 the invite key, whose hash
/// the room name is).
pub fn room_of(records: &[Record]) -> Option<String> {
    records.iter().find_map(|r| match &r.content().body {
        Body::OpenAccept(accept) if r.content().version == 1 => {
            String::from_utf8(accept.invite_proof.clone())
                .ok()
                .filter(|room| room.chars().all(|c| c.is_ascii_alphanumeric()))
        }
        Body::OpenAccept(accept) => AcceptProof::from_bytes(&accept.invite_proof)
            .map(|proof| crate::match_log::invite::room_of(&proof.invite_key)),
        _ => None,
    })
}

/// Where this identity's games live, and the register each log signs
/// through (natively the data directory's, see
/// `crate::data_dir::register`).
pub trait GameHomes: Send + Sync {
    /// Every game with a known home, and that home.
    fn homes(&self) -> Vec<(Digest, PathBuf)>;
    /// The home of `game`, when known.
    fn home(&self, game: &Digest) -> Result<Option<PathBuf>, RegisterError>;
    /// Names `log` the home of `game` unless it has one; returns the home.
    fn settle_home(&self, game: &Digest, log: &Path) -> Result<PathBuf, RegisterError>;
    /// Marks `game` as found in several copies: nothing is signed in it
    /// until the player keeps one.
    fn mark_copies(&self, game: &Digest, copies: &[PathBuf]) -> Result<(), RegisterError>;
    /// The register a session on the log at `log` signs through.
    fn for_log(&self, log: &Path) -> SharedRegister;
    /// Puts back into the log at `log` (open in `writer`, holding
    /// `records`) a record of this side the register holds as the next
    /// one but the log lost (the program stopped in between); its place.
    fn put_back_lost(
        &self,
        log: &Path,
        records: &mut Vec<Record>,
        writer: &mut LogWriter,
    ) -> Result<Option<u32>, LogFileError>;
}

/// Why a visit to the mailbox failed.
#[derive(Debug, thiserror::Error)]
pub enum CorrespondenceError {
    /// The mailbox could not be used.
    #[error(transparent)]
    Mailbox(#[from] MailboxError),
    /// The log file could not be read or written.
    #[error(transparent)]
    Log(#[from] LogFileError),
    /// Another program holds the log all the while.
    #[error("{path} is in use by another program (waited {} s); nothing signed", .waited.as_secs())]
    Busy {
        /// The game's log file.
        path: PathBuf,
        /// How long this program waited.
        waited: std::time::Duration,
    },
    /// The log is not a game of this identity, or does not verify.
    #[error("{path}: {error}")]
    Resume {
        /// The game's log file.
        path: PathBuf,
        /// Why.
        error: ResumeError,
    },
}

/// What one visit did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Visit {
    /// Records taken from the mailbox into the log.
    pub fetched: usize,
    /// Records of this side written during the visit (setup steps).
    pub written: usize,
    /// Records posted to the mailbox.
    pub posted: usize,
    /// Records the mailbox sent that were refused, with the reason (the
    /// bytes are saved as evidence beside the log).
    pub refused: Vec<String>,
    /// Why the game halted, if it did during the visit.
    pub halted: Option<HaltReason>,
    /// What the user should know, in order.
    pub events: Vec<Event>,
}

/// How long a program waits for another that holds a log (a `reversi
/// move` in flight) before giving up.
pub const LOCK_WAIT: std::time::Duration = std::time::Duration::from_secs(30);

/// An exclusive hold on a log file, so that two programs visiting one
/// game (two `reversi move` at once, `games` during a `move`) take turns
/// rather than both reading, signing and appending; released when dropped
/// (and by the system when the program ends).
#[derive(Debug)]
pub struct LogLock {
    _file: std::fs::File,
}

impl LogLock {
    /// Waits up to `wait` for the log at `path` to be free, then holds it.
    pub fn acquire(path: &Path, wait: std::time::Duration) -> Result<LogLock, CorrespondenceError> {
        let io = |source| LogFileError::Io {
            path: path.to_path_buf(),
            source,
        };
        let file = std::fs::File::open(path).map_err(io)?;
        let start = std::time::Instant::now();
        loop {
            match file.try_lock() {
                Ok(()) => return Ok(LogLock { _file: file }),
                Err(std::fs::TryLockError::WouldBlock) if start.elapsed() < wait => {
                    std::thread::sleep(std::time::Duration::from_millis(25));
                }
                Err(std::fs::TryLockError::WouldBlock) => {
                    return Err(CorrespondenceError::Busy {
                        path: path.to_path_buf(),
                        waited: wait,
                    });
                }
                Err(std::fs::TryLockError::Error(e)) => return Err(io(e).into()),
            }
        }
    }
}

/// One game's log, open for appending, with its session.
#[derive(Debug)]
pub struct OpenGame {
    /// The path of the log file being appended to.
    pub path: PathBuf,
    /// The game's state.
    pub session: Session,
    /// Appends to the log.
    pub writer: LogWriter,
    /// The room the genesis is filed under, when known (the host files it).
    pub room: Option<String>,
    /// The hold on the log while it is open (none for a log this program
    /// has just made).
    pub lock: Option<LogLock>,
}

impl OpenGame {
    /// Opens a log for appending, signing through `homes`' register; also
    /// returns the server its room file names (whose mailbox may hold the
    /// game). A record of ours the register holds and the log lost is put
    /// back first.
    pub fn open(
        path: &Path,
        identity: Identity,
        homes: &dyn GameHomes,
    ) -> Result<(OpenGame, Option<ServerUrl>), CorrespondenceError> {
        OpenGame::open_waiting(path, identity, homes, LOCK_WAIT)
    }

    /// As [`OpenGame::open`], waiting at most `wait` for another program
    /// that holds the log.
    pub fn open_waiting(
        path: &Path,
        identity: Identity,
        homes: &dyn GameHomes,
        wait: std::time::Duration,
    ) -> Result<(OpenGame, Option<ServerUrl>), CorrespondenceError> {
        let lock = LogLock::acquire(path, wait)?;
        let loaded = read_log(path)?;
        let mut writer = LogWriter::open_append(path, &loaded)?;
        let mut records = loaded.records;
        homes.put_back_lost(path, &mut records, &mut writer)?;
        let mut session =
            Session::resume(identity, records).map_err(|error| CorrespondenceError::Resume {
                path: path.to_path_buf(),
                error,
            })?;
        session.set_register(homes.for_log(path));
        let room_file = RoomFile::read(path);
        let game = OpenGame {
            path: path.to_path_buf(),
            session,
            writer,
            room: room_file.room(),
            lock: Some(lock),
        };
        Ok((game, room_file.server()))
    }

    /// Carries out the session's outputs: persist, evidence, events.
    pub fn apply(&mut self, outputs: Vec<Output>, visit: &mut Visit) -> Result<(), LogFileError> {
        apply_outputs(&self.path, &mut self.writer, outputs, visit)
    }

    /// Brings the log and the mailbox up to date (see the module docs).
    pub async fn visit(
        &mut self,
        mailbox: &Mailbox,
        now_ms: u64,
    ) -> Result<Visit, CorrespondenceError> {
        let mut visit = Visit::default();
        let Some(genesis) = self.session.records().first() else {
            return Ok(visit);
        };
        let game_id = genesis.hash();
        let ours = self.session.records().len() as u32;
        let held = match mailbox.records(&game_id, ours).await? {
            Some((held, records)) => {
                for record in records {
                    let seq = record.content().seq;
                    match self.session.relayed_in_batch(record.clone(), now_ms) {
                        Ok(outputs) => self.apply(outputs, &mut visit)?,
                        Err(reason) => {
                            save_evidence(
                                &self.path,
                                &record.to_bytes(),
                                &format!("from the mailbox: {reason}"),
                            );
                            visit
                                .refused
                                .push(format!("record {seq} from the mailbox: {reason}"));
                            break;
                        }
                    }
                    if visit.halted.is_some() {
                        break;
                    }
                }
                held
            }
            None => 0,
        };
        let outputs = self.session.catch_up(now_ms);
        self.apply(outputs, &mut visit)?;
        visit.posted += self.deliver(mailbox, held).await?;
        Ok(visit)
    }

    /// Posts this log's records from `held` on (what the mailbox lacks).
    pub async fn deliver(&self, mailbox: &Mailbox, held: u32) -> Result<usize, MailboxError> {
        let mut posted = 0;
        for record in self.session.records().iter().skip(held as usize) {
            let room = (record.content().seq == 0)
                .then_some(self.room.as_deref())
                .flatten();
            match mailbox.post(record, room).await? {
                Posted::Stored => posted += 1,
                Posted::AlreadyStored => {}
            }
        }
        Ok(posted)
    }
}

/// Carries out session outputs for a log with no peer: records are
/// appended (and flushed) before anything else, evidence is saved beside
/// the log, events are collected. There is no peer to send to.
pub fn apply_outputs(
    path: &Path,
    writer: &mut LogWriter,
    outputs: Vec<Output>,
    visit: &mut Visit,
) -> Result<(), LogFileError> {
    for output in outputs {
        match output {
            Output::Persist(record) => writer.append(&record)?,
            Output::Evidence { bytes, reason } => save_evidence(path, &bytes, &reason.to_string()),
            Output::Event(Event::Halted(reason)) => {
                visit.halted = Some(reason.clone());
                visit.events.push(Event::Halted(reason));
            }
            Output::Event(event) => {
                match event {
                    Event::Recorded { mine: true, .. } => visit.written += 1,
                    Event::Recorded { mine: false, .. } => visit.fetched += 1,
                    _ => {}
                }
                visit.events.push(event);
            }
            Output::Send(_) | Output::Disconnect(_) => {}
        }
    }
    Ok(())
}

/// A game as `reversi games` and the window list it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GameSummary {
    /// The room, when known.
    pub room: Option<String>,
    /// Hex game id.
    pub game_id: Option<String>,
    /// The path of the game's log file, for display.
    pub log: String,
    /// The opponent's name, once known.
    pub opponent: Option<String>,
    /// The opponent's key fingerprint.
    pub opponent_fingerprint: Option<String>,
    /// The rules in force (the proposal's until the coin is flipped).
    pub rules: Option<String>,
    /// `black` or `white`, once the coin is flipped.
    pub my_color: Option<&'static str>,
    /// Whose move it is.
    pub to_move: Option<&'static str>,
    /// Whether it is this side's move (or colour choice).
    pub my_turn: bool,
    /// The code spectators follow the game with (`reversi watch`), when
    /// it lives on a stand-alone server.
    pub watch: Option<String>,
    /// This side's legal squares, when it is its move.
    pub legal: Vec<String>,
    /// Seconds left on the running clock.
    pub deadline_left_secs: Option<u64>,
    /// Whether the running clock has run out.
    pub deadline_passed: bool,
    /// Where the game stands, in words.
    pub status: String,
    /// Records in the log.
    pub records: usize,
    /// When the game was found in more than one log: each copy. Nothing
    /// is signed in any until the player keeps one (`reversi keep LOG`).
    pub copies: Vec<GameCopy>,
}

/// One of several logs of one game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GameCopy {
    /// The path of this copy's log file, for display.
    pub log: String,
    /// How many records this copy holds.
    pub records: usize,
    /// Whether it verifies as a game of this identity.
    pub valid: bool,
    /// Whether it is the longest valid chain of the copies (the one to
    /// keep, unless the player knows better).
    pub longest: bool,
}

fn color_name(color: Option<Color>) -> Option<&'static str> {
    color.map(Color::name)
}

impl GameSummary {
    /// What a game's log says now.
    pub fn of(game: &OpenGame, now_ms: u64) -> GameSummary {
        GameSummary::of_session(&game.path, &game.session, game.room.as_deref(), now_ms)
    }

    /// What the log at `path`, resumed as `session`, says now.
    fn of_session(path: &Path, session: &Session, room: Option<&str>, now_ms: u64) -> GameSummary {
        let verifier = session.verifier();
        let me = session.seat();
        let opponent = verifier.and_then(|v| v.player(me.other()));
        let phase = verifier.map(|v| v.phase());
        let status = match (phase, session.my_turn()) {
            _ if session.halted().is_some() => "halted".to_string(),
            (Some(Phase::AwaitAccept), _) if session.rematch_offered() => {
                "a rematch offer waits for your answer (`reversi resume` its log)".into()
            }
            (Some(Phase::AwaitAccept), _) => "waiting for the guest to accept".into(),
            (Some(Phase::AwaitHostReveal), _) if me == Seat::Host => "your reveal is due".into(),
            (Some(Phase::AwaitHostReveal), _) => "waiting for the host's reveal".into(),
            (Some(Phase::AwaitGuestReveal), _) if me == Seat::Guest => "your reveal is due".into(),
            (Some(Phase::AwaitGuestReveal), _) => "waiting for the guest's reveal".into(),
            (Some(Phase::AwaitTieWinner | Phase::AwaitSeatColor), _) => {
                match session.my_question() {
                    Some(ColorQuestion::TieWinner) => {
                        "your choice: which colour wins an equal count".into()
                    }
                    Some(ColorQuestion::SeatColor) => "your choice: which colour you play".into(),
                    None => "waiting for the opponent's colour choice".into(),
                }
            }
            (Some(Phase::Playing), true) => "your move".into(),
            (Some(Phase::Playing), false) => "their move".into(),
            _ => "over".into(),
        };
        GameSummary {
            room: room
                .map(str::to_string)
                .or_else(|| RoomFile::read(path).room())
                .or_else(|| room_of(session.records())),
            game_id: session.records().first().map(|r| hex(&r.hash())),
            log: path.display().to_string(),
            opponent: opponent.map(|p| p.name.clone()),
            opponent_fingerprint: opponent.map(|p| p.key.fingerprint().to_string()),
            rules: verifier.map(|v| {
                v.coin_flip()
                    .map_or(v.proposal().rules, |d| d.rules)
                    .options()
                    .to_string()
            }),
            my_color: color_name(session.my_color()),
            to_move: color_name(session.position().and_then(|p| p.to_move())),
            my_turn: session.my_turn() || session.my_question().is_some(),
            watch: {
                let room_file = RoomFile::read(path);
                match (
                    room_file.embedded(),
                    room_file.server(),
                    session.records().first(),
                ) {
                    (None, Some(server), Some(first)) => Some(
                        super::watch::WatchCode {
                            game_id: first.hash(),
                            server,
                        }
                        .to_string(),
                    ),
                    _ => None,
                }
            },
            legal: session
                .position()
                .filter(|_| session.my_turn())
                .map_or_else(Vec::new, |p| {
                    p.legal_moves().squares().map(|s| s.to_string()).collect()
                }),
            deadline_left_secs: session
                .deadline()
                .map(|(_, at)| at.saturating_sub(now_ms) / 1000),
            deadline_passed: session.deadline().is_some_and(|(_, at)| at <= now_ms),
            status,
            records: session.records().len(),
            copies: Vec::new(),
        }
    }
}

/// Every unfinished game of this identity and what happened on the way.
#[derive(Debug, Clone, Default)]
pub struct Listing {
    /// The games, in the order of their log files.
    pub games: Vec<GameSummary>,
    /// What went wrong or was done on the way (a mailbox unreachable, a
    /// log restored), for the user.
    pub notes: Vec<String>,
}

/// The log files in a games folder.
fn logs_in(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut logs: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "log"))
        .collect();
    logs.sort();
    logs
}

/// Every log of this identity's games: those in `games_dir` and every
/// home `homes` names, grouped by game (one path per file).
fn logs_by_game(
    games_dir: &Path,
    homes: &dyn GameHomes,
    listing: &mut Listing,
) -> BTreeMap<Digest, Vec<(PathBuf, Vec<Record>)>> {
    let mut paths = logs_in(games_dir);
    paths.extend(
        homes
            .homes()
            .into_iter()
            .map(|(_, home)| home)
            .filter(|home| home.exists()),
    );
    let mut seen = std::collections::BTreeSet::new();
    let mut games: BTreeMap<Digest, Vec<(PathBuf, Vec<Record>)>> = BTreeMap::new();
    for path in paths {
        let same_file = std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
        if !seen.insert(same_file) {
            continue;
        }
        let Ok(loaded) = read_log(&path) else {
            listing
                .notes
                .push(format!("skipped {}: not a readable log", path.display()));
            continue;
        };
        let Some(first) = loaded.records.first() else {
            continue;
        };
        games
            .entry(game_of(first))
            .or_default()
            .push((path, loaded.records));
    }
    games
}

/// Lists a game found in several logs: every copy, the longest valid
/// chain marked, nothing signed in any (the register is told too).
fn list_copies(
    copies: &[(PathBuf, Vec<Record>)],
    identity: &Identity,
    homes: &dyn GameHomes,
    now_ms: u64,
    listing: &mut Listing,
) {
    let me = identity.public_key();
    let valid: Vec<bool> = copies
        .iter()
        .map(|(_, records)| {
            verify_log(records).is_ok_and(|v| {
                [Seat::Host, Seat::Guest]
                    .iter()
                    .any(|&s| v.player(s).is_some_and(|p| p.key == me))
            })
        })
        .collect();
    let longest = (0..copies.len())
        .filter(|&i| valid[i])
        .max_by_key(|&i| copies[i].1.len());
    let paths: Vec<PathBuf> = copies.iter().map(|(p, _)| p.clone()).collect();
    if let Some(first) = copies[0].1.first()
        && let Err(e) = homes.mark_copies(&game_of(first), &paths)
    {
        listing.notes.push(e.to_string());
    }
    let described: Vec<String> = copies
        .iter()
        .zip(&valid)
        .map(|((path, records), valid)| {
            format!(
                "{} ({} records{})",
                path.display(),
                records.len(),
                if *valid { "" } else { ", does not verify" }
            )
        })
        .collect();
    let advice = match longest {
        Some(i) => format!(
            "the longer valid chain is {}; keep one with `reversi keep LOG`",
            copies[i].0.display()
        ),
        None => "no copy verifies".to_string(),
    };
    listing.notes.push(format!(
        "one game in {} logs: {}; {advice}; nothing is signed in any until you keep one",
        copies.len(),
        described.join(", ")
    ));
    let Some(shown) = longest else {
        return;
    };
    let (path, records) = &copies[shown];
    let Ok(session) = Session::resume(identity.clone(), records.clone()) else {
        return;
    };
    if session.outcome().is_some() {
        // A finished game: nothing more is signed in it, whichever copy.
        return;
    }
    let mut summary = GameSummary::of_session(path, &session, None, now_ms);
    summary.status = format!("{} copies: keep one with `reversi keep LOG`", copies.len());
    summary.my_turn = false;
    summary.legal.clear();
    summary.copies = copies
        .iter()
        .enumerate()
        .map(|(i, (path, records))| GameCopy {
            log: path.display().to_string(),
            records: records.len(),
            valid: valid[i],
            longest: Some(i) == longest,
        })
        .collect();
    listing.games.push(summary);
}

/// Brings every unfinished game of this identity up to date with its
/// mailbox (or `server`'s): those in `games_dir` and wherever else `homes`
/// says a game lives. Restores from the mailboxes any game of this
/// identity that no local log holds, into the home the register names
/// (else `games_dir`), and lists the unfinished games. A game found in
/// several logs is listed with its copies and neither visited nor signed
/// in.
pub async fn refresh_all(
    games_dir: &Path,
    identity: &Identity,
    server: Option<&ServerUrl>,
    now_ms: u64,
    homes: &dyn GameHomes,
) -> Listing {
    let me = identity.public_key();
    let mut listing = Listing::default();
    let mut local: BTreeMap<Digest, PathBuf> = BTreeMap::new();
    let mut unsettled = std::collections::BTreeSet::new();
    let mut servers: Vec<ServerUrl> = server.into_iter().cloned().collect();
    for (game, copies) in logs_by_game(games_dir, homes, &mut listing) {
        if server.is_none() {
            for (path, _) in &copies {
                if let Some(named) = RoomFile::read(path).server()
                    && !servers.contains(&named)
                {
                    servers.push(named);
                }
            }
        }
        if copies.len() > 1 {
            list_copies(&copies, identity, homes, now_ms, &mut listing);
            unsettled.insert(game);
            continue;
        }
        local.insert(game, copies[0].0.clone());
    }
    for server in &servers {
        restore_missing(
            games_dir,
            &me,
            server,
            &mut local,
            &unsettled,
            homes,
            &mut listing,
        )
        .await;
    }
    for path in local.values() {
        // A game a live program is playing is listed as it stands, not
        // visited: that program keeps it up to date.
        let opened =
            OpenGame::open_waiting(path, identity.clone(), homes, std::time::Duration::ZERO);
        let (mut game, named) = match opened {
            Ok(opened) => opened,
            Err(CorrespondenceError::Busy { .. }) => {
                let session = read_log(path)
                    .ok()
                    .and_then(|loaded| Session::resume(identity.clone(), loaded.records).ok());
                if let Some(session) = session.filter(|s| s.outcome().is_none()) {
                    let mut summary = GameSummary::of_session(path, &session, None, now_ms);
                    summary.status = format!("{} (in play in another program)", summary.status);
                    listing.games.push(summary);
                }
                continue;
            }
            Err(e) => {
                listing.notes.push(format!("skipped {e}"));
                continue;
            }
        };
        let over = game.session.outcome().is_some() || game.session.halted().is_some();
        if over {
            continue;
        }
        if let Some(server) = server.cloned().or(named) {
            match game.visit(&Mailbox::new(server), now_ms).await {
                Ok(visit) => listing.notes.extend(
                    visit
                        .refused
                        .iter()
                        .cloned()
                        .chain(visit.halted.as_ref().map(HaltReason::to_string))
                        .map(|r| format!("{}: {r}", path.display())),
                ),
                // A LAN game's embedded server keeps no mailbox.
                Err(CorrespondenceError::Mailbox(MailboxError::NoMailbox { .. })) => {}
                Err(e) => listing.notes.push(format!("{}: {e}", path.display())),
            }
        }
        if game.session.outcome().is_none() && game.session.halted().is_none() {
            listing.games.push(GameSummary::of(&game, now_ms));
        }
    }
    listing
}

/// Writes a log for each unfinished game of `me` that `server`'s mailbox
/// holds and no local log does.
async fn restore_missing(
    games_dir: &Path,
    me: &crate::match_log::PublicKey,
    server: &ServerUrl,
    local: &mut BTreeMap<Digest, PathBuf>,
    unsettled: &std::collections::BTreeSet<Digest>,
    homes: &dyn GameHomes,
    listing: &mut Listing,
) {
    let mailbox = Mailbox::new(server.clone());
    let listed = match mailbox.games_of(me).await {
        Ok(listed) => listed,
        Err(MailboxError::NoMailbox { .. }) => return,
        Err(e) => {
            listing.notes.push(format!("{server}: {e}"));
            return;
        }
    };
    for game in listed {
        if game.ended || local.contains_key(&game.game_id) || unsettled.contains(&game.game_id) {
            continue;
        }
        let Ok(Some((_, records))) = mailbox.records(&game.game_id, 0).await else {
            continue;
        };
        let mine = verify_log(&records).is_ok_and(|v| {
            [Seat::Host, Seat::Guest]
                .iter()
                .any(|&s| v.player(s).is_some_and(|p| p.key == *me))
        });
        if !mine {
            continue;
        }
        // Into the home the register names, if it names one.
        let path = match homes.home(&game.game_id) {
            Ok(Some(home)) => home,
            Ok(None) => games_dir.join(format!("{}.log", &hex(&game.game_id)[..16])),
            Err(e) => {
                listing.notes.push(e.to_string());
                continue;
            }
        };
        if path.exists() {
            continue;
        }
        let room_file = match room_of(&records) {
            Some(room) => RoomFile::new(server.room_url(&room), None),
            None => RoomFile::mailbox_only(server),
        };
        let folder = path.parent().unwrap_or(games_dir);
        let written = std::fs::create_dir_all(folder)
            .map_err(|e| e.to_string())
            .and_then(|()| write_log(&path, &records).map_err(|e| e.to_string()))
            .and_then(|()| room_file.write(&path).map_err(|e| e.to_string()))
            .and_then(|()| {
                homes
                    .settle_home(&game.game_id, &path)
                    .map(|_| ())
                    .map_err(|e| e.to_string())
            });
        match written {
            Ok(()) => {
                listing
                    .notes
                    .push(format!("restored from the mailbox: {}", path.display()));
                local.insert(game.game_id, path);
            }
            Err(e) => listing
                .notes
                .push(format!("cannot restore {}: {e}", path.display())),
        }
    }
}
