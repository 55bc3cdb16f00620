//! The start of a native network game, written once for `reversi host`,
//! `join`, `rematch` and `resume` and for the window: the signaling server
//! (a configured one, or one started inside this program), the session,
//! the log and its room file, and the register the session signs through.
//! The browser starts its games from its own storage
//! (`crate::app::network_game`); both then play through the same driver.
//!
//! Where a game's files live is the data directory's to say
//! ([`GameFiles`], which `crate::data_dir::DataDir` implements), so this
//! module stays below the storage it uses.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use reversi_signaling::RunningServer;

use super::embedded_server::{restart_embedded, start_embedded};
use super::game_setup::{self, SetupError};
use super::rematch::{self, RematchError};
use super::room_code::RoomCode;
use super::room_file::RoomFile;
use super::server_url::ServerUrl;
use super::session::{HostTerms, Session};
use super::signing_register::SharedRegister;
use crate::match_log::log_file::{LogFileError, LogWriter, read_log};
use crate::match_log::{Identity, PublicKey, Record};

/// Where a native game's files live, and the register its session signs
/// through: the player's data directory.
pub trait GameFiles {
    /// The log of a new game in `room` (`DATA_DIR/games/ROOM.log`), its
    /// folder made.
    fn new_game_log(&self, room: &str) -> Result<PathBuf, GameFolderError>;
    /// The register the session of `key` on the log at `log` signs through.
    fn register_for(&self, key: &PublicKey, log: &Path) -> SharedRegister;
    /// Puts back this side's record that was signed and registered but not
    /// yet in the log at `log` (the program stopped in between), appending
    /// it through `writer`; returns its place.
    fn put_back_lost(
        &self,
        key: &PublicKey,
        log: &Path,
        records: &mut Vec<Record>,
        writer: &mut LogWriter,
    ) -> Result<Option<u32>, LogFileError>;
}

/// The games folder cannot be made.
#[derive(Debug, thiserror::Error)]
#[error("{}: {source}", path.display())]
pub struct GameFolderError {
    /// The games folder that could not be made.
    pub path: PathBuf,
    /// What the system said.
    pub source: std::io::Error,
}

/// How a game begins.
#[derive(Debug, Clone)]
pub enum GameStart {
    /// A new game in a fresh room: on `server`, or without one on a
    /// signaling server started inside this program, listening on `listen`
    /// (or on any free port of that address), whose address the code
    /// carries.
    Host {
        /// The host's name, as the guest sees it.
        name: String,
        /// The rules and the per-move deadline.
        terms: HostTerms,
        /// A stand-alone signaling server.
        server: Option<ServerUrl>,
        /// Where the embedded server listens when there is no `server`.
        listen: SocketAddr,
        /// The log's path, instead of `DATA_DIR/games/ROOM.log`.
        log: Option<PathBuf>,
    },
    /// The game a room code names, through `server` if the player chose
    /// one, else the one the code names.
    Join {
        /// The guest's name, as the host sees it.
        name: String,
        /// The host's code.
        code: RoomCode,
        /// The server the player chose (a flag, a setting).
        server: Option<ServerUrl>,
        /// Where the player names a server when neither gives one.
        no_server_hint: &'static str,
        /// The log's path, instead of `DATA_DIR/games/ROOM.log`.
        log: Option<PathBuf>,
    },
    /// A rematch of the finished game in `old_log`, proposed or waited for.
    Rematch {
        /// The finished game's log.
        old_log: PathBuf,
        /// The new game's log, instead of one beside the old.
        new_log: Option<PathBuf>,
        /// Whether this side proposes (and hosts) it.
        propose: bool,
    },
    /// The game in `log`, after a crash or a restart (a finished one too,
    /// to deliver its last records).
    Resume {
        /// The game's log.
        log: PathBuf,
        /// A server to meet in the recorded room instead of the recorded
        /// server.
        server: Option<ServerUrl>,
    },
}

/// A game ready to be played by a [`super::driver::Driver`].
#[derive(Debug)]
pub struct StartedGame {
    /// The session, signing through the data directory's register.
    pub session: Session,
    /// The log, open for appending.
    pub writer: LogWriter,
    /// The log's path.
    pub log: PathBuf,
    /// `ws(s)://SERVER/ROOM`, as this side connects to it.
    pub room_url: String,
    /// The code to send the friend (a hosted game only).
    pub code: Option<RoomCode>,
    /// The signaling server running inside this program, if it runs one:
    /// [`StartedGame::stop_server`] when the game ends.
    pub embedded: Option<RunningServer>,
    /// Where spectators follow the game: its stand-alone server's mailbox.
    pub watch_server: Option<ServerUrl>,
    /// A rematch's opponent (name and key).
    pub opponent: Option<String>,
    /// The place of a record put back into a resumed log.
    pub put_back: Option<u32>,
}

impl StartedGame {
    /// Stops the embedded server, if this program runs one.
    pub fn stop_server(embedded: Option<RunningServer>) {
        if let Some(server) = embedded {
            server.shutdown_handle().shutdown();
        }
    }
}

/// Why a game could not start.
#[derive(Debug, thiserror::Error)]
pub enum GameStartError {
    /// The signaling server inside this program did not start.
    #[error("the signaling server inside this program cannot start: {0}")]
    EmbeddedServer(#[from] reversi_signaling::StartError),
    /// The session cannot be set up (no server, an old code, a bad log).
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// The rematch cannot be set up.
    #[error(transparent)]
    Rematch(#[from] RematchError),
    /// The log cannot be read, created or appended to.
    #[error(transparent)]
    LogFile(#[from] LogFileError),
    /// The games folder cannot be made.
    #[error(transparent)]
    GameFolder(#[from] GameFolderError),
    /// The room file beside the log cannot be written.
    #[error("{}: {source}", path.display())]
    RoomFile {
        /// The room file beside the log.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// A resumed log has no room file, and no server was given.
    #[error("no room is recorded beside the log ({})", .0.display())]
    NoRoom(PathBuf),
}

/// Starts a game: sets up its server, session, log and room file.
/// `identity` signs in it; `files` says where its files live.
pub async fn start(
    start: GameStart,
    identity: Identity,
    files: &dyn GameFiles,
) -> Result<StartedGame, GameStartError> {
    let key = identity.public_key();
    match start {
        GameStart::Host {
            name,
            terms,
            server,
            listen,
            log,
        } => {
            let (server_url, embedded, advertised) = match server {
                // The code names the server, so the guest needs nothing else.
                Some(server) => (server.clone(), None, server),
                None => {
                    let embedded = start_embedded(listen).await?;
                    let advertised = ServerUrl::from_socket_addr(embedded.advertised);
                    (embedded.local, Some(embedded.server), advertised)
                }
            };
            let hosted = game_setup::host(identity, &name, terms, &server_url, Some(advertised))?;
            let log = match log {
                Some(path) => path,
                None => files.new_game_log(hosted.code.room())?,
            };
            let embedded_addr = embedded.as_ref().map(|s| s.addr);
            let game = new_game(
                files,
                &key,
                hosted.session,
                hosted.room_url,
                log,
                embedded_addr,
            )?;
            Ok(StartedGame {
                code: Some(hosted.code),
                watch_server: embedded.is_none().then_some(server_url),
                embedded,
                ..game
            })
        }
        GameStart::Join {
            name,
            code,
            server,
            no_server_hint,
            log,
        } => {
            let server = game_setup::join_server(&code, server, None, no_server_hint)?;
            let (session, room_url) = game_setup::join(identity, &name, &code, &server)?;
            let log = match log {
                Some(path) => path,
                None => files.new_game_log(code.room())?,
            };
            let game = new_game(files, &key, session, room_url, log, None)?;
            Ok(StartedGame {
                watch_server: Some(server),
                ..game
            })
        }
        GameStart::Rematch {
            old_log,
            new_log,
            propose,
        } => {
            let setup = rematch::set_up(&old_log, identity, new_log, propose)?;
            let mut session = setup.session;
            session.set_register(files.register_for(&key, &setup.log));
            // The host's own server comes back where it was.
            let embedded = restart_embedded(setup.embedded).await?;
            let watch_server = watch_server(&setup.room_url, &embedded);
            Ok(StartedGame {
                session,
                writer: setup.writer,
                log: setup.log,
                room_url: setup.room_url,
                code: None,
                embedded,
                watch_server,
                opponent: Some(setup.opponent),
                put_back: None,
            })
        }
        GameStart::Resume { log, server } => {
            let loaded = read_log(&log)?;
            let mut writer = LogWriter::open_append(&log, &loaded)?;
            let mut records = loaded.records;
            let put_back = files.put_back_lost(&key, &log, &mut records, &mut writer)?;
            let mut session = game_setup::resume(identity, records, false)?;
            session.set_register(files.register_for(&key, &log));
            let room = RoomFile::read(&log);
            let room_url = match (server, room.room_url(), room.room()) {
                // A server given now meets in the recorded room.
                (Some(server), _, Some(name)) => server.room_url(&name),
                (None, Some(url), _) => url.to_string(),
                _ => return Err(GameStartError::NoRoom(RoomFile::path(&log))),
            };
            // The host's own server comes back where it was.
            let embedded = restart_embedded(room.embedded()).await?;
            let watch_server = watch_server(&room_url, &embedded);
            Ok(StartedGame {
                session,
                writer,
                log,
                room_url,
                code: None,
                embedded,
                watch_server,
                opponent: None,
                put_back,
            })
        }
    }
}

/// Where spectators follow a game in `room_url`: its server's mailbox,
/// unless the server runs inside this program (and has no mailbox).
fn watch_server(room_url: &str, embedded: &Option<RunningServer>) -> Option<ServerUrl> {
    match embedded {
        None => ServerUrl::parse(room_url).ok(),
        Some(_) => None,
    }
}

/// A new game's room file, log and register.
fn new_game(
    files: &dyn GameFiles,
    key: &PublicKey,
    mut session: Session,
    room_url: String,
    log: PathBuf,
    embedded: Option<SocketAddr>,
) -> Result<StartedGame, GameStartError> {
    session.set_register(files.register_for(key, &log));
    RoomFile::new(room_url.clone(), embedded)
        .write(&log)
        .map_err(|source| GameStartError::RoomFile {
            path: RoomFile::path(&log),
            source,
        })?;
    let writer = LogWriter::create(&log)?;
    Ok(StartedGame {
        session,
        writer,
        log,
        room_url,
        code: None,
        embedded: None,
        watch_server: None,
        opponent: None,
        put_back: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data_dir::DataDir;
    use crate::engine::Rules;
    use crate::match_log::rules_proposal::RulesProposal;

    fn data_dir(name: &str) -> DataDir {
        let path =
            std::env::temp_dir().join(format!("reversi-native-game-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        DataDir::resolve(Some(&path)).expect("a data directory")
    }

    fn terms() -> HostTerms {
        HostTerms {
            proposal: RulesProposal::fixed(Rules::default()),
            deadline_secs: 3600,
        }
    }

    #[test]
    fn a_hosted_game_keeps_its_log_and_room_file_in_the_data_directory() {
        let dir = data_dir("host");
        let server = ServerUrl::parse("wss://play.example.org").expect("a server URL");
        let how = GameStart::Host {
            name: "Ann".into(),
            terms: terms(),
            server: Some(server.clone()),
            listen: "127.0.0.1:0".parse().expect("an address"),
            log: None,
        };
        let game =
            futures::executor::block_on(start(how, Identity::from_seed(1), &dir)).expect("started");
        let code = game.code.as_ref().expect("a hosted game has a code");
        assert_eq!(code.server(), Some(&server), "the code names the server");
        assert_eq!(
            game.log,
            dir.games_dir().join(format!("{}.log", code.room()))
        );
        assert!(game.log.exists(), "the log is created");
        assert_eq!(
            RoomFile::read(&game.log).room_url(),
            Some(game.room_url.as_str())
        );
        assert_eq!(game.room_url, server.room_url(code.room()));
        assert!(game.embedded.is_none(), "no server runs inside");
        assert_eq!(
            game.watch_server,
            Some(server),
            "spectators use its mailbox"
        );
        let _ = std::fs::remove_dir_all(dir.path());
    }

    /// A log of a game begun (genesis, acceptance, reveals) between
    /// `Identity::from_seed(host)` and `Identity::from_seed(guest)`, written to `path`.
    fn begun_game(path: &Path, host: u8, guest: u8) {
        use crate::match_log::builder::{MatchBuilder, MatchTerms, Players};
        let terms = MatchTerms {
            proposal: RulesProposal::fixed(Rules::default()),
            deadline_secs: 3600,
            host_name: "Ann".into(),
            guest_name: "Bob".into(),
        };
        let players = Players {
            host: Identity::from_seed(u64::from(host)),
            guest: Identity::from_seed(u64::from(guest)),
            host_nonce: [7; 32],
            guest_nonce: [8; 32],
        };
        let game = MatchBuilder::new(&terms, players, 1_000).expect("a valid beginning");
        crate::match_log::log_file::write_log(path, game.records()).expect("the log is written");
    }

    #[test]
    fn a_resumed_game_meets_in_its_recorded_room_or_says_none_is_recorded() {
        let dir = data_dir("resume");
        let log = dir.new_game_log("room1").expect("the games folder");
        begun_game(&log, 2, 5);
        let resume = |server: Option<ServerUrl>| {
            futures::executor::block_on(start(
                GameStart::Resume {
                    log: log.clone(),
                    server,
                },
                Identity::from_seed(2),
                &dir,
            ))
        };
        match resume(None) {
            Err(GameStartError::NoRoom(path)) => assert_eq!(path, RoomFile::path(&log)),
            other => panic!("expected no room, got {other:?}"),
        }
        let url = "ws://127.0.0.1:9/room1".to_string();
        RoomFile::new(url.clone(), None)
            .write(&log)
            .expect("the room file is written");
        let game = resume(None).expect("resumed in the recorded room");
        assert_eq!(game.room_url, url);
        assert_eq!(game.session.records().len(), 4, "the log's records");
        drop(game);
        let other = ServerUrl::parse("wss://elsewhere.example.org").expect("a server URL");
        let game = resume(Some(other.clone())).expect("resumed on another server");
        assert_eq!(
            game.room_url,
            other.room_url("room1"),
            "same room, new server"
        );
        let _ = std::fs::remove_dir_all(dir.path());
    }

    #[test]
    fn a_code_that_names_no_server_needs_one_from_the_player() {
        let dir = data_dir("join");
        let code = RoomCode::generate(&Identity::from_seed(3).public_key(), None).expect("a code");
        let how = GameStart::Join {
            name: "Bob".into(),
            code,
            server: None,
            no_server_hint: "pass --server",
            log: None,
        };
        match futures::executor::block_on(start(how, Identity::from_seed(4), &dir)) {
            Err(GameStartError::Setup(SetupError::NoServer { hint })) => {
                assert_eq!(hint, "pass --server")
            }
            other => panic!("expected no server, got {other:?}"),
        }
        assert!(
            !dir.games_dir().exists(),
            "nothing is written for a game that cannot start"
        );
        let _ = std::fs::remove_dir_all(dir.path());
    }
}
