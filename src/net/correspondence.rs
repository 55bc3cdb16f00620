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
use super::session::{ColorQuestion, Event, Output, ResumeError, Session};
use crate::engine::Color;
use crate::match_log::log_file::{LogFileError, LogWriter, read_log, write_log};
use crate::match_log::record::{Digest, hex};
use crate::match_log::verify::Phase;
use crate::match_log::{Body, Identity, Record, Seat, verify_log};

/// The room of an open game once accepted: the acceptance shows it.
pub fn room_of(records: &[Record]) -> Option<String> {
    records.iter().find_map(|r| match &r.content().body {
        Body::OpenAccept(accept) => String::from_utf8(accept.invite_secret.clone())
            .ok()
            .filter(|room| room.chars().all(|c| c.is_ascii_alphanumeric())),
        _ => None,
    })
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
    /// The log is not a game of this identity, or does not verify.
    #[error("{path}: {error}")]
    Resume {
        /// The log.
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
    pub halted: Option<String>,
    /// What the user should know, in order.
    pub events: Vec<Event>,
}

/// One game's log, open for appending, with its session.
#[derive(Debug)]
pub struct OpenGame {
    /// The log file.
    pub path: PathBuf,
    /// The game's state.
    pub session: Session,
    /// Appends to the log.
    pub writer: LogWriter,
    /// The room the genesis is filed under, when known (the host files it).
    pub room: Option<String>,
}

impl OpenGame {
    /// Opens a log for appending; also returns the server its room file
    /// names (whose mailbox may hold the game).
    pub fn open(
        path: &Path,
        identity: Identity,
    ) -> Result<(OpenGame, Option<ServerUrl>), CorrespondenceError> {
        let loaded = read_log(path)?;
        let session = Session::resume(identity, loaded.records.clone()).map_err(|error| {
            CorrespondenceError::Resume {
                path: path.to_path_buf(),
                error,
            }
        })?;
        let writer = LogWriter::open_append(path, &loaded)?;
        let room_file = RoomFile::read(path);
        let game = OpenGame {
            path: path.to_path_buf(),
            session,
            writer,
            room: room_file.room(),
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
                    match self.session.relayed(record.clone(), now_ms) {
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
            Output::Evidence { bytes, reason } => save_evidence(path, &bytes, &reason),
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
    /// The log file.
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
}

fn color_name(color: Option<Color>) -> Option<&'static str> {
    color.map(Color::name)
}

impl GameSummary {
    /// What a game's log says now.
    pub fn of(game: &OpenGame, now_ms: u64) -> GameSummary {
        let session = &game.session;
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
            room: game
                .room
                .clone()
                .or_else(|| RoomFile::read(&game.path).room())
                .or_else(|| room_of(session.records())),
            game_id: session.records().first().map(|r| hex(&r.hash())),
            log: game.path.display().to_string(),
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
                let room_file = RoomFile::read(&game.path);
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

/// Brings every unfinished game in `games_dir` up to date with its mailbox
/// (or `server`'s), restores from the mailboxes any game of this identity
/// that no local log holds, and lists the unfinished games.
pub async fn refresh_all(
    games_dir: &Path,
    identity: &Identity,
    server: Option<&ServerUrl>,
    now_ms: u64,
) -> Listing {
    let me = identity.public_key();
    let mut listing = Listing::default();
    let mut local: BTreeMap<Digest, PathBuf> = BTreeMap::new();
    let mut servers: Vec<ServerUrl> = server.into_iter().cloned().collect();
    for path in logs_in(games_dir) {
        let Ok(loaded) = read_log(&path) else {
            listing
                .notes
                .push(format!("skipped {}: not a readable log", path.display()));
            continue;
        };
        let Some(first) = loaded.records.first() else {
            continue;
        };
        local.insert(first.hash(), path.clone());
        if server.is_none() {
            if let Some(named) = RoomFile::read(&path).server() {
                if !servers.contains(&named) {
                    servers.push(named);
                }
            }
        }
    }
    for server in &servers {
        restore_missing(games_dir, &me, server, &mut local, &mut listing).await;
    }
    for path in local.values() {
        let (mut game, named) = match OpenGame::open(path, identity.clone()) {
            Ok(opened) => opened,
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
        if game.ended || local.contains_key(&game.game_id) {
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
        let path = games_dir.join(format!("{}.log", &hex(&game.game_id)[..16]));
        if path.exists() {
            continue;
        }
        let room_file = match room_of(&records) {
            Some(room) => RoomFile::new(server.room_url(&room), None),
            None => RoomFile::mailbox_only(server),
        };
        let written = std::fs::create_dir_all(games_dir)
            .map_err(|e| e.to_string())
            .and_then(|()| write_log(&path, &records).map_err(|e| e.to_string()))
            .and_then(|()| room_file.write(&path).map_err(|e| e.to_string()));
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
