//! Setting a rematch up from a finished game's log: the same rules and
//! deadline, the same opponent, a new coin flip, in a room both players
//! derive from the old one ([`super::room_code::rematch_room`]). The one
//! who proposes hosts; the other waits and accepts or declines.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use super::room_code::rematch_room;
use super::room_file::RoomFile;
use super::session::{HostTerms, RematchOf, Session};
use crate::match_log::Identity;
use crate::match_log::log_file::{LogFileError, LogWriter, read_log};

/// Why a rematch cannot be set up.
#[derive(Debug, thiserror::Error)]
pub enum RematchError {
    /// The old log cannot be read, or the new one written.
    #[error(transparent)]
    LogFile(#[from] LogFileError),
    /// The old log does not verify or is not this player's.
    #[error("{0}")]
    Resume(#[from] super::session::ResumeError),
    /// The old game is not over.
    #[error("the game is not over: `reversi resume` it first")]
    NotOver,
    /// No room is recorded beside the old log.
    #[error("no room is recorded beside the log ({0})")]
    NoRoom(PathBuf),
    /// The room file of the new log cannot be written.
    #[error("{}: {source}", path.display())]
    RoomFile {
        /// The file, as named on the command line.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
}

/// A rematch ready to play.
pub struct RematchSetup {
    /// The new game's session (host when proposing, else guest).
    pub session: Session,
    /// The new log, created.
    pub writer: LogWriter,
    /// The path of the new log file.
    pub log: PathBuf,
    /// The room's websocket URL.
    pub room_url: String,
    /// Where this player ran the embedded server for the old game, if it did.
    pub embedded: Option<SocketAddr>,
    /// The opponent's name.
    pub opponent: String,
}

/// Removes a declined rematch's log and its room file: a proposal nobody
/// accepted is no game.
pub fn discard(log: &Path) {
    let _ = std::fs::remove_file(log);
    let _ = std::fs::remove_file(RoomFile::path(log));
}

/// Sets up a rematch of the finished game in `old_log`: proposing it, or
/// waiting for the opponent's proposal. The new log goes to `new_log`, or
/// beside the old one, named after the room.
pub fn set_up(
    old_log: &Path,
    identity: Identity,
    new_log: Option<PathBuf>,
    propose: bool,
) -> Result<RematchSetup, RematchError> {
    let loaded = read_log(old_log)?;
    let old = Session::resume(identity.clone(), loaded.records)?;
    let v = old.verifier().expect("a resumed log has its genesis");
    if v.end().is_none() {
        return Err(RematchError::NotOver);
    }
    let me = old.seat();
    let opponent = v
        .player(me.other())
        .expect("a finished game names both players");
    let rematch = RematchOf {
        previous: v.game_id(),
        opponent: opponent.key,
        proposal: *v.proposal(),
        deadline_secs: v.deadline_secs(),
    };
    let name = v.player(me).map_or_else(String::new, |p| p.name.clone());
    let room_file = RoomFile::read(old_log);
    let (Some(old_room), Some(server)) = (room_file.room(), room_file.server()) else {
        return Err(RematchError::NoRoom(RoomFile::path(old_log)));
    };
    let room = rematch_room(&old_room, &v.game_id());
    let room_url = server.room_url(&room);
    let log = new_log.unwrap_or_else(|| old_log.with_file_name(format!("{room}.log")));
    let session = if propose {
        let terms = HostTerms {
            proposal: *v.proposal(),
            deadline_secs: v.deadline_secs(),
        };
        Session::host_rematch(identity, name, terms, rematch)
    } else {
        Session::rematch_guest(identity, name, rematch)
    };
    let embedded = room_file.embedded();
    RoomFile::new(room_url.clone(), embedded)
        .write(&log)
        .map_err(|source| RematchError::RoomFile {
            path: RoomFile::path(&log),
            source,
        })?;
    let writer = LogWriter::create(&log)?;
    Ok(RematchSetup {
        session,
        writer,
        log,
        room_url,
        embedded,
        opponent: format!("{} (key {})", opponent.name, opponent.key.fingerprint()),
    })
}
