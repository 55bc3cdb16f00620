//! A game over the network from the window: natively the session and its
//! WebRTC driver run on their own thread with their own async runtime, in
//! the browser on the page's event loop; either way the window sends
//! moves over a channel and reads a snapshot that the driver's observer
//! keeps current.
//!
//! Setting a game up differs (natively a data directory, log files and
//! the embedded server; in the browser the page's storage and the server
//! the page came from); playing it is the same code (`play`).

#[cfg(not(target_arch = "wasm32"))]
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

use futures::FutureExt as _;

use super::game_screen::Notice;
#[cfg(not(target_arch = "wasm32"))]
use crate::data_dir::DataDir;
use crate::engine::{Color, Outcome, Position, Square};
use crate::match_log::rules_proposal::RulesProposal;
use crate::net::driver::{Action, Driver, DriverConfig, DriverError, Mover};
use crate::net::game_setup;
use crate::net::game_store::GameStore;
use crate::net::link::LinkStatus;
use crate::net::room_code::RoomCode;
use crate::net::server_url::ServerUrl;
use crate::net::session::{ColorQuestion, Event, HostTerms, Session};
use crate::net::transport::IceServers;
use crate::net::transport::Route;

/// What the window shows of a network game.
#[derive(Debug, Clone, Default)]
pub struct NetSnapshot {
    /// The room code (host), once known.
    pub code: Option<String>,
    /// Progress.
    pub status: NetStatus,
    /// The opponent's name and key fingerprint.
    pub opponent: Option<(String, String)>,
    /// The connection's state, once the driver runs.
    pub link: Option<LinkStatus>,
    /// How the opponent is reached (direct or through a relay), once known.
    pub route: Option<Route>,
    /// The position, once play has begun.
    pub position: Option<Position>,
    /// The position the game started from, once the rules are known.
    pub start: Option<Position>,
    /// This side's colour, once drawn.
    pub my_color: Option<Color>,
    /// Moves so far.
    pub moves: Vec<Square>,
    /// The running deadline: whose seat and when (ms since the epoch).
    pub deadline: Option<(bool, u64)>,
    /// The result, once over.
    pub outcome: Option<Outcome>,
    /// Why the game stopped, if not normally.
    pub error: Option<String>,
    /// Messages for the player, newest last.
    pub notices: Vec<Notice>,
    /// The log file (in the browser: the room whose stored log it is).
    pub log: Option<PathBuf>,
    /// Whether it is this side's move.
    pub my_turn: bool,
    /// The colour question this side must answer now (draw rule decided by lot).
    pub question: Option<ColorQuestion>,
    /// Whether the opponent is answering a colour question now.
    pub opponent_choosing: bool,
    /// The code spectators follow the game with, on a stand-alone server.
    pub watch_code: Option<String>,
    /// Whether the opponent proposes a rematch that waits for this side's answer.
    pub rematch_offered: bool,
    /// The hex SHA-256 of the log's bytes, and the records it was taken at.
    pub log_sha256: Option<(usize, String)>,
    /// The safety code of the opponent's key and ours, once they said hello.
    pub safety_code: Option<String>,
    /// The same code as six words.
    pub safety_words: Option<String>,
}

impl NetSnapshot {
    /// Whether the opponent is connected now.
    pub fn connected(&self) -> bool {
        self.link == Some(LinkStatus::Connected)
    }
}

/// How to start.
#[derive(Debug, Clone)]
pub enum NetStart {
    /// Host with these rules and deadline (seconds).
    Host(RulesProposal, u32),
    /// Join with a checked code.
    Join(RoomCode),
    /// Resume a log (in the browser: the room of a stored log).
    Resume(PathBuf),
    /// A rematch of the finished game in this log: propose it, or wait
    /// for the opponent's proposal.
    #[cfg(not(target_arch = "wasm32"))]
    Rematch {
        /// The finished game's log.
        log: PathBuf,
        /// Propose (host) rather than wait (guest).
        propose: bool,
    },
}

/// Settings the network needs.
#[derive(Debug, Clone)]
pub struct NetSettings {
    /// Player name.
    pub name: String,
    /// Signaling server URL; empty means the embedded server.
    pub server_url: String,
    /// ICE servers.
    pub ice: IceServers,
    /// Where the embedded server listens (tests use loopback).
    #[cfg(not(target_arch = "wasm32"))]
    pub listen: SocketAddr,
    /// The data directory (key and logs).
    #[cfg(not(target_arch = "wasm32"))]
    pub data_dir: DataDir,
}

/// A running network game. Dropping it (the window closes, or leaves the
/// game's screen) stops the game's connection and its embedded server;
/// everything signed is in the log already, and the game can be opened
/// again from *Your games*. So one log never has two writers.
pub struct NetworkGame {
    snapshot: Arc<Mutex<NetSnapshot>>,
    actions: mpsc::Sender<Action>,
    stop: Option<futures::channel::oneshot::Sender<()>>,
}

impl Drop for NetworkGame {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

/// The window's moves, delivered to the driver.
struct ChannelMover(mpsc::Receiver<Action>);

impl Mover for ChannelMover {
    fn poll(&mut self, _: &Session) -> Option<Action> {
        self.0.try_recv().ok()
    }
}

impl NetworkGame {
    /// Starts the game's thread; `wake` asks the window to repaint.
    pub fn start(
        start: NetStart,
        settings: NetSettings,
        wake: impl Fn() + Send + Sync + 'static,
    ) -> NetworkGame {
        let snapshot = Arc::new(Mutex::new(NetSnapshot {
            status: NetStatus::Starting,
            ..NetSnapshot::default()
        }));
        let (tx, rx) = mpsc::channel();
        let (stop, stopped) = futures::channel::oneshot::channel();
        let shared = snapshot.clone();
        let wake: Arc<dyn Fn() + Send + Sync> = Arc::new(wake);
        #[cfg(not(target_arch = "wasm32"))]
        std::thread::spawn(move || {
            let result = run(start, settings, rx, stopped, shared.clone(), wake.clone());
            finish(&shared, &*wake, result.map_err(|e| e.to_string()));
        });
        #[cfg(target_arch = "wasm32")]
        wasm_bindgen_futures::spawn_local(async move {
            let result = run_web(start, settings, rx, stopped, shared.clone(), wake.clone()).await;
            finish(&shared, &*wake, result);
        });
        NetworkGame {
            snapshot,
            actions: tx,
            stop: Some(stop),
        }
    }

    /// Whether a move of this side's is awaited (without copying the
    /// whole snapshot, for a check made every frame).
    pub fn my_turn(&self) -> bool {
        self.snapshot
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .my_turn
    }

    /// What to show now.
    pub fn snapshot(&self) -> NetSnapshot {
        self.snapshot
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// Plays a move (checked by the session).
    pub fn play(&self, square: Square) {
        let _ = self.actions.send(Action::Play(square));
    }

    /// Resigns.
    pub fn resign(&self) {
        let _ = self.actions.send(Action::Resign);
    }

    /// Answers the rematch the opponent proposes.
    pub fn answer_rematch(&self, accept: bool) {
        let _ = self.actions.send(if accept {
            Action::AcceptRematch
        } else {
            Action::DeclineRematch
        });
    }

    /// Answers the colour question this side is asked.
    pub fn choose(&self, color: Color) {
        let _ = self.actions.send(Action::Choose(color));
    }
}

/// Shows how the game ended.
fn finish(shared: &Mutex<NetSnapshot>, wake: &dyn Fn(), result: Result<Outcome, String>) {
    let mut s = shared.lock().unwrap_or_else(|p| p.into_inner());
    match result {
        Ok(outcome) => {
            s.outcome = Some(outcome);
            s.status = NetStatus::GameOver;
        }
        Err(e) => {
            s.status = NetStatus::Stopped;
            s.error = Some(e);
        }
    }
    s.my_turn = false;
    s.question = None;
    drop(s);
    wake();
}

fn set(shared: &Mutex<NetSnapshot>, wake: &(impl Fn() + ?Sized), f: impl FnOnce(&mut NetSnapshot)) {
    f(&mut shared.lock().unwrap_or_else(|p| p.into_inner()));
    wake();
}

#[cfg(not(target_arch = "wasm32"))]
fn run(
    start: NetStart,
    settings: NetSettings,
    actions: mpsc::Receiver<Action>,
    stopped: futures::channel::oneshot::Receiver<()>,
    shared: Arc<Mutex<NetSnapshot>>,
    wake: Arc<dyn Fn() + Send + Sync>,
) -> Result<Outcome, PlayStop> {
    use crate::net::native_game::{self, GameStart, StartedGame};
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .map_err(PlayStop::Runtime)?;
    runtime.block_on(async move {
        let identity = settings.data_dir.identity()?;
        let (how, first_peer_timeout) = match start {
            NetStart::Host(proposal, deadline_secs) => {
                let how = GameStart::Host {
                    name: settings.name.clone(),
                    terms: HostTerms {
                        proposal,
                        deadline_secs,
                    },
                    server: configured_server(&settings)?,
                    listen: settings.listen,
                    log: None,
                };
                (how, None)
            }
            NetStart::Join(code) => {
                set(&shared, &*wake, |s| s.status = NetStatus::Connecting);
                let how = GameStart::Join {
                    name: settings.name.clone(),
                    code,
                    server: configured_server(&settings)?,
                    no_server_hint: NO_SERVER,
                    log: None,
                };
                (how, Some(game_setup::JOIN_WAIT))
            }
            NetStart::Rematch { log, propose } => {
                let how = GameStart::Rematch {
                    old_log: log,
                    new_log: None,
                    propose,
                };
                (how, None)
            }
            NetStart::Resume(log) => (GameStart::Resume { log, server: None }, None),
        };
        let resuming = matches!(how, GameStart::Resume { .. });
        let proposing = matches!(how, GameStart::Rematch { propose: true, .. });
        let game = native_game::start(how, identity, &settings.data_dir).await?;
        set(&shared, &*wake, |s| {
            if let Some(code) = &game.code {
                s.code = Some(code.full());
                s.status = NetStatus::WaitingForOpponent;
            } else if let Some(opponent) = &game.opponent {
                s.status = if proposing {
                    NetStatus::ProposingRematch(opponent.to_string())
                } else {
                    NetStatus::AwaitingRematch(opponent.to_string())
                };
            } else if resuming {
                s.status = NetStatus::Reconnecting;
            }
        });
        let log = game.log.clone();
        let prepared = Prepared {
            session: game.session,
            store: Box::new(crate::net::game_store::LogFileStore::new(
                game.writer,
                game.log.clone(),
            )),
            url: game.room_url,
            log: game.log,
            first_peer_timeout,
            watch_server: game.watch_server,
            ice: settings.ice.clone(),
        };
        let result = play(prepared, actions, stopped, shared, wake).await;
        StartedGame::stop_server(game.embedded);
        // A proposal nobody accepted is no game.
        if matches!(
            &result,
            Err(PlayStop::Driver(DriverError::Halted(
                crate::net::session::HaltReason::RematchDeclined
            )))
        ) {
            crate::net::rematch::discard(&log);
        }
        result
    })
}

/// Where a player names a signaling server the code does not.
const NO_SERVER: &str = "set the signaling server in Settings";

/// The signaling server set in Settings, checked; `None` when none is set.
fn configured_server(settings: &NetSettings) -> Result<Option<ServerUrl>, PlayStop> {
    let text = settings.server_url.trim();
    if text.is_empty() {
        return Ok(None);
    }
    ServerUrl::parse(text).map(Some).map_err(PlayStop::Settings)
}

/// A game set up to be played: its session, where its records go, and
/// where it is played.
struct Prepared {
    session: Session,
    store: Box<dyn GameStore>,
    url: String,
    log: PathBuf,
    first_peer_timeout: Option<std::time::Duration>,
    /// Where spectators follow it (a stand-alone server's mailbox).
    watch_server: Option<ServerUrl>,
    ice: IceServers,
}

/// Plays a game set up natively or in the browser, keeping the snapshot
/// current, until it ends or the window leaves it.
async fn play(
    game: Prepared,
    actions: mpsc::Receiver<Action>,
    stopped: futures::channel::oneshot::Receiver<()>,
    shared: Arc<Mutex<NetSnapshot>>,
    wake: Arc<dyn Fn() + Send + Sync>,
) -> Result<Outcome, PlayStop> {
    let Prepared {
        session,
        store,
        url,
        log,
        first_peer_timeout,
        watch_server,
        ice,
    } = game;
    set(&shared, &*wake, |s| s.log = Some(log.clone()));
    let config = DriverConfig {
        room_url: url,
        ice,
        ice_from_server: true,
        log_path: log,
        move_delay: std::time::Duration::ZERO,
        first_peer_timeout,
    };
    let mut driver = Driver::with_store(session, store, config);
    let observed = shared.clone();
    let observer_wake = wake.clone();
    driver.set_observer(move |session, link, route| {
        let connected = *link == LinkStatus::Connected;
        set(&observed, &*observer_wake, |s| {
            s.link = Some(*link);
            s.route = route.filter(|_| connected);
            s.position = session.position().copied();
            s.start = session
                .verifier()
                .map(|v| v.proposal().rules.start_position());
            s.my_color = session.my_color();
            s.moves = session
                .verifier()
                .map(|v| v.moves().iter().map(|m| m.square).collect())
                .unwrap_or_default();
            s.deadline = session
                .deadline()
                .map(|(seat, at)| (seat == session.seat(), at));
            s.my_turn = session.my_turn();
            s.question = session.my_question();
            s.rematch_offered = session.rematch_offered();
            s.watch_code = watch_code(watch_server.as_ref(), session);
            // Hashed here, when the log has grown, not on every frame.
            let records = session.records().len();
            if s.log_sha256.as_ref().is_none_or(|(n, _)| *n != records) {
                let hash = s
                    .log
                    .as_deref()
                    .and_then(log_bytes)
                    .filter(|bytes| !bytes.is_empty())
                    .map(|bytes| {
                        use sha2::Digest as _;
                        data_encoding::HEXLOWER.encode(&sha2::Sha256::digest(&bytes))
                    });
                s.log_sha256 = hash.map(|hash| (records, hash));
            }
            s.opponent_choosing = session
                .question()
                .is_some_and(|(seat, _)| seat != session.seat());
            // The engine skips a player without a move; say so when the
            // same colour moves twice running.
            if let (Some(last), Some(position)) = (
                session.verifier().and_then(|v| v.moves().last().copied()),
                session.position(),
            ) {
                let notice = Notice::Skipped {
                    who: None,
                    color: !last.color,
                    no_discs: false,
                };
                if position.to_move() == Some(last.color) && s.notices.last() != Some(&notice) {
                    s.notices.push(notice);
                }
            }
            s.status = match (connected, session.position().is_some()) {
                (false, _) if s.opponent.is_some() => NetStatus::OpponentOffline,
                (false, _) => s.status.clone(),
                (true, false) => NetStatus::CheckingKeys,
                (true, true) => NetStatus::Playing,
            };
        });
    });
    let events = shared.clone();
    let event_wake = wake.clone();
    let mut on_event = move |event: &Event| {
        set(&events, &*event_wake, |s| match event {
            Event::PeerIdentified {
                name,
                fingerprint,
                safety_code,
                safety_words,
            } => {
                s.opponent = Some((name.clone(), fingerprint.clone()));
                s.safety_code = Some(safety_code.clone());
                s.safety_words = Some(safety_words.clone());
            }
            Event::Started { color } => s.notices.push(Notice::ColoursSettled(*color)),
            Event::Chose {
                mine,
                question,
                color,
            } => {
                s.notices.push(Notice::Chose {
                    mine: *mine,
                    tie_winner: *question == ColorQuestion::TieWinner,
                    color: *color,
                });
            }
            Event::Rejected(r) => s.notices.push(Notice::Rejected(r.clone())),
            Event::PeerRejected(r) => s.notices.push(Notice::PeerRejected(r.to_string())),
            Event::MoveRefused(r) => s.notices.push(Notice::MoveRefused(r.clone())),
            Event::Halted(r) => s.notices.push(Notice::Halted(r.clone())),
            Event::RematchOffered => s.notices.push(Notice::RematchOffered),
            Event::Ended(_) | Event::Recorded { .. } | Event::Acknowledged(_) => {}
        });
    };
    let mut mover = ChannelMover(actions);
    // Records are written before they are sent, so stopping between
    // two steps of the driver loses nothing.
    let run = driver.run(&mut mover, &mut on_event).fuse();
    let mut run = std::pin::pin!(run);
    let mut stopped = stopped.fuse();
    futures::select! {
    result = run => result.map_err(PlayStop::Driver),
    _ = stopped => Err(PlayStop::WindowLeft),
    }
}

/// Why a game in the window did not start, or stopped without an outcome.
#[derive(Debug, thiserror::Error)]
enum PlayStop {
    /// The signaling server in Settings is not a server URL.
    #[error("signaling server in Settings: {0}")]
    Settings(crate::net::server_url::ServerUrlError),
    /// The game's thread could not start its async runtime.
    #[cfg(not(target_arch = "wasm32"))]
    #[error("cannot start the async runtime: {0}")]
    Runtime(std::io::Error),
    /// The key file cannot be read or made.
    #[cfg(not(target_arch = "wasm32"))]
    #[error(transparent)]
    DataDir(#[from] crate::data_dir::DataDirError),
    /// The game could not start (its server, session, log or room file).
    #[cfg(not(target_arch = "wasm32"))]
    #[error(transparent)]
    Start(#[from] crate::net::native_game::GameStartError),
    /// The driver stopped (a halt, a lost connection, a log not written).
    #[error(transparent)]
    Driver(DriverError),
    /// The window closed the game (the player went home, or quit).
    #[error("the window left the game")]
    WindowLeft,
}

/// Sets a game up in the browser (the page's storage, and the signaling
/// server named by the settings, the code, or the page's own origin),
/// then plays it.
#[cfg(target_arch = "wasm32")]
async fn run_web(
    start: NetStart,
    settings: NetSettings,
    actions: mpsc::Receiver<Action>,
    stopped: futures::channel::oneshot::Receiver<()>,
    shared: Arc<Mutex<NetSnapshot>>,
    wake: Arc<dyn Fn() + Send + Sync>,
) -> Result<Outcome, String> {
    use crate::browser_data::{self, BrowserLog, BrowserRegister};
    let identity = browser_data::identity().map_err(|e| e.to_string())?;
    let configured = || configured_server(&settings).map_err(|e| e.to_string());
    let page = || {
        crate::platform::web::page_server()
            .and_then(|s| ServerUrl::parse(&s).ok())
            .ok_or_else(|| "this page has no address to play through".to_string())
    };
    // A room with a stored log goes on from it (a reload, or the link
    // opened again): never a second, different log for one room.
    let resume = |room: &str| -> Result<Option<(Session, BrowserLog, String)>, String> {
        let Some(loaded) = browser_data::read_log(room).map_err(|e| e.to_string())? else {
            return Ok(None);
        };
        if loaded.records.is_empty() {
            return Ok(None);
        }
        let mut store = BrowserLog::open(room, &loaded);
        let mut records = loaded.records.clone();
        // A record this page registered and signed but did not keep in
        // the log (the page closed in between) is put back.
        let register = BrowserRegister::for_room(&identity, room);
        if let Some(lost) = register.lost_record(&records) {
            use crate::net::game_store::GameStore as _;
            store.append(&lost).map_err(|e| e.to_string())?;
            records.push(lost);
        }
        // And whatever else: sign nothing until the opponent has said
        // where the game stands.
        let session =
            game_setup::resume(identity.clone(), records, true).map_err(|e| e.to_string())?;
        let url = browser_data::room_url(room)
            .ok_or_else(|| format!("no room is recorded for the stored game {room}"))?;
        Ok(Some((session, store, url)))
    };
    let browser_error = |e: crate::net::game_store::StoreError| e.to_string();
    let (session, store, url, room, first_peer_timeout) = match start {
        NetStart::Host(proposal, deadline_secs) => {
            let server = match configured()? {
                Some(server) => server,
                None => page()?,
            };
            let terms = HostTerms {
                proposal,
                deadline_secs,
            };
            let hosted = game_setup::host(
                identity.clone(),
                &settings.name,
                terms,
                &server,
                Some(server.clone()),
            )
            .map_err(|e| e.to_string())?;
            let room = hosted.code.room().to_string();
            set(&shared, &*wake, |s| {
                s.code = Some(hosted.code.full());
                s.status = NetStatus::WaitingForOpponent;
            });
            let store = BrowserLog::create(&room).map_err(browser_error)?;
            (hosted.session, store, hosted.room_url, room, None)
        }
        NetStart::Join(code) => {
            let room = code.room().to_string();
            match resume(&room)? {
                Some((session, store, url)) => {
                    set(&shared, &*wake, |s| s.status = NetStatus::Reconnecting);
                    (session, store, url, room, None)
                }
                None => {
                    let server =
                        game_setup::join_server(&code, configured()?, page().ok(), NO_SERVER)
                            .map_err(|e| e.to_string())?;
                    set(&shared, &*wake, |s| s.status = NetStatus::Connecting);
                    let (session, url) =
                        game_setup::join(identity.clone(), &settings.name, &code, &server)
                            .map_err(|e| e.to_string())?;
                    let store = BrowserLog::create(&room).map_err(browser_error)?;
                    (session, store, url, room, Some(game_setup::JOIN_WAIT))
                }
            }
        }
        NetStart::Resume(room) => {
            let room = room.to_string_lossy().into_owned();
            let (session, store, url) =
                resume(&room)?.ok_or_else(|| format!("no game of room {room} is stored here"))?;
            set(&shared, &*wake, |s| s.status = NetStatus::Reconnecting);
            (session, store, url, room, None)
        }
    };
    browser_data::remember_room(&room, &url).map_err(browser_error)?;
    let mut session = session;
    session.set_register(Arc::new(BrowserRegister::for_room(&identity, &room)));
    let game = Prepared {
        session,
        store: Box::new(store),
        watch_server: ServerUrl::parse(&url).ok(),
        url,
        log: PathBuf::from(room),
        first_peer_timeout,
        ice: settings.ice.clone(),
    };
    play(game, actions, stopped, shared, wake)
        .await
        .map_err(|e| e.to_string())
}

/// The code spectators follow a game with (natively; the browser has no
/// spectator screen yet).
fn watch_code(server: Option<&ServerUrl>, session: &Session) -> Option<String> {
    #[cfg(not(target_arch = "wasm32"))]
    return server
        .zip(session.records().first())
        .map(|(server, first)| {
            crate::net::watch::WatchCode {
                game_id: first.hash(),
                server: server.clone(),
            }
            .to_string()
        });
    #[cfg(target_arch = "wasm32")]
    {
        let _ = (server, session);
        None
    }
}

/// The bytes of a network game's log: natively the file, in the browser
/// the room's stored log.
pub(super) fn log_bytes(log: &std::path::Path) -> Option<Vec<u8>> {
    #[cfg(not(target_arch = "wasm32"))]
    return crate::match_log::log_file::read_bounded(log).ok();
    #[cfg(target_arch = "wasm32")]
    return crate::browser_data::log_bytes(&log.to_string_lossy());
}

/// How far a network game has come, for the player (in their language)
/// and for [`AppStatus`](super::AppStatus) (in English, as data).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum NetStatus {
    /// Setting up.
    #[default]
    Starting,
    /// Reaching the signaling server.
    Connecting,
    /// Hosting: no opponent yet.
    WaitingForOpponent,
    /// Proposing a rematch to this opponent.
    ProposingRematch(String),
    /// Waiting for this opponent to propose a rematch.
    AwaitingRematch(String),
    /// The connection is being made again.
    Reconnecting,
    /// The opponent left; the connection is being made again.
    OpponentOffline,
    /// Connected: the keys are checked and the coin flipped.
    CheckingKeys,
    /// The game is on.
    Playing,
    /// The game is over.
    GameOver,
    /// The game thread stopped.
    Stopped,
}

impl std::fmt::Display for NetStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NetStatus::Starting => f.write_str("starting…"),
            NetStatus::Connecting => f.write_str("connecting"),
            NetStatus::WaitingForOpponent => f.write_str("waiting for the opponent"),
            NetStatus::ProposingRematch(who) => write!(f, "proposing a rematch to {who}"),
            NetStatus::AwaitingRematch(who) => {
                write!(f, "waiting for {who} to propose a rematch")
            }
            NetStatus::Reconnecting => f.write_str("reconnecting"),
            NetStatus::OpponentOffline => f.write_str("opponent offline — reconnecting"),
            NetStatus::CheckingKeys => f.write_str("checking keys and flipping the coin"),
            NetStatus::Playing => f.write_str("playing"),
            NetStatus::GameOver => f.write_str("game over"),
            NetStatus::Stopped => f.write_str("stopped"),
        }
    }
}

impl NetStatus {
    /// The status in the player's language.
    pub fn words(&self) -> String {
        use super::i18n::t;
        match self {
            NetStatus::Starting => t!("net-starting"),
            NetStatus::Connecting => t!("net-connecting"),
            NetStatus::WaitingForOpponent => t!("net-waiting"),
            NetStatus::ProposingRematch(who) => t!("net-proposing-rematch", name = who.as_str()),
            NetStatus::AwaitingRematch(who) => t!("net-awaiting-rematch", name = who.as_str()),
            NetStatus::Reconnecting => t!("net-reconnecting"),
            NetStatus::OpponentOffline => t!("net-opponent-offline"),
            NetStatus::CheckingKeys => t!("net-checking-keys"),
            NetStatus::Playing => t!("net-playing"),
            NetStatus::GameOver => t!("net-game-over"),
            NetStatus::Stopped => t!("net-stopped"),
        }
    }
}
