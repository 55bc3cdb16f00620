//! Runs a [`Session`] over the WebRTC [`Transport`](super::transport::Transport): persists every record
//! before sending it, saves evidence, keeps the connection alive with
//! heartbeats and reconnects with backoff when it drops (the policy is
//! `LinkPolicy`), claims the win when the opponent's deadline passes,
//! and asks a [`Mover`] for this side's moves.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use matchbox_socket::PeerId;

use super::game_store::{GameStore, LogFileStore, StoreError};
use super::link::{GiveUp, LinkPolicy, LinkStatus};
use super::session::{DisconnectReason, Event, HaltReason, Output, Session};
use super::transport::{Connection, IceServers, Network, Route, TransportEvent, WebRtc};
use crate::engine::{Color, Outcome, Square};
use crate::match_log::Seat;
use crate::match_log::log_file::LogWriter;
use crate::platform::{Clock, Instant, SystemClock, Task};

/// How long an ended game waits for the mailbox to take its last records.
const FLUSH_WAIT: Duration = Duration::from_secs(5);

/// How long after the end of the game to wait for the peer to acknowledge
/// this side's last records before leaving: long enough for a lossy link
/// and a reconnection, since a side that leaves with its last move
/// undelivered leaves the opponent waiting until the deadline.
const FINAL_ACK_WAIT: Duration = Duration::from_secs(60);

/// How long the side that did not write the last record stays after the
/// end, repeating its confirmation.
const FINAL_LINGER: Duration = Duration::from_secs(3);

/// How often it repeats it.
const FINAL_ACK_EVERY: Duration = Duration::from_millis(250);

/// Packets kept from a peer that is not (yet) the current one.
const MAX_WAITING_PACKETS: usize = 64;

/// The longest the loop sleeps when nothing arrives (moves typed, clocks).
const TICK: Duration = Duration::from_millis(5);

/// What this side does on its turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Place a disc.
    Play(Square),
    /// Give up.
    Resign,
    /// Answer the colour question this side is asked (see
    /// [`Session::my_question`]).
    Choose(Color),
    /// Accept the rematch offered (see [`Session::rematch_offered`]).
    AcceptRematch,
    /// Decline it.
    DeclineRematch,
}

/// Chooses this side's moves (a person at a terminal, a bot, a test).
pub trait Mover {
    /// Called while it is this side's turn to move or to answer a colour
    /// question; returns an action when one is ready (never blocks).
    fn poll(&mut self, session: &Session) -> Option<Action>;
}

/// Where and how to connect.
#[derive(Debug, Clone)]
pub struct DriverConfig {
    /// `ws://HOST:PORT/ROOM`.
    pub room_url: String,
    /// ICE servers of the player's own (added to the server's).
    pub ice: IceServers,
    /// Whether to ask the signaling server for its ICE servers (`GET /ice`).
    pub ice_from_server: bool,
    /// The log file (evidence goes beside it).
    pub log_path: PathBuf,
    /// Wait this long before each of this side's moves.
    pub move_delay: Duration,
    /// Give up if no peer has appeared after this long (first connection only).
    pub first_peer_timeout: Option<Duration>,
}

/// Why the game did not end normally.
#[derive(Debug, thiserror::Error)]
pub enum DriverError {
    /// The log could not be written.
    #[error(transparent)]
    Log(#[from] StoreError),
    /// The game halted (the logs disagree, or the peer is not the opponent).
    #[error("game halted: {0}")]
    Halted(HaltReason),
    /// The peer never appeared.
    #[error("nobody joined the room within {} s: is the code right and is the host still waiting? (A game the host left in the mailbox with --detach is accepted with `reversi join CODE --detach`.)", .0.as_secs())]
    NoPeer(Duration),
    /// The opponent was in the room, but no connection to them could be made.
    #[error("the opponent is in the room, but no direct or relayed connection to them was found within {} s: {cause}", .waited.as_secs())]
    NoPath {
        /// How long it was tried.
        waited: Duration,
        /// What the driver found out about why.
        cause: NoPathCause,
    },
    /// A third player found the room taken by two.
    #[error("the room is full: two players are already in it")]
    RoomFull,
    /// The session closed the connection for good.
    #[error(transparent)]
    Disconnected(DisconnectReason),
}

/// Why no path to an opponent in the room was found.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NoPathCause {
    /// No TURN relay was configured, and a NAT or firewall blocks a direct path.
    #[error(
        "a NAT or firewall between you blocks a direct connection, and no TURN relay is configured (the signaling server hands out none: ask its operator to set --turn, or pass --ice turn:HOST:PORT with --turn-user and --turn-password)"
    )]
    NoRelay,
    /// The configured TURN relay did not answer.
    #[error(
        "a NAT or firewall between you blocks a direct connection, and the TURN relay {0} does not answer (it is down, or UDP to it is blocked on this network)"
    )]
    RelaySilent(String),
    /// No path through the relay was found; whether it answers is not
    /// known (a browser cannot probe it).
    #[error(
        "a NAT or firewall between you blocks a direct connection, and no path through the TURN relay {0} was found either (it may be down, or UDP to it blocked on this network)"
    )]
    RelayUnanswered(String),
    /// The relay answered but the connection through it still failed.
    #[error(
        "a NAT or firewall between you blocks a direct connection, and the path through the TURN relay {0} failed too (it answers, but refused or dropped the relayed traffic)"
    )]
    RelayFailed(String),
}

/// Cuts the current connection (for fault-injection tests): the driver
/// drops its socket and reconnects as it would after a network failure.
#[derive(Debug, Clone, Default)]
pub struct ConnectionCutter(Arc<AtomicBool>);

impl ConnectionCutter {
    /// Requests a cut.
    pub fn cut(&self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

/// A background request for the signaling server's ICE servers and how
/// long their credentials last.
type IceFetch = Task<Result<(IceServers, Duration), String>>;

/// Called with the session and the connection's state.
type Observer = Box<dyn FnMut(&Session, &LinkStatus, Option<Route>) + Send>;

/// The driver of one side.
pub struct Driver {
    session: Session,
    store: Box<dyn GameStore>,
    config: DriverConfig,
    transport: Option<Box<dyn Connection>>,
    /// Opens the connections (WebRTC in a game).
    network: Box<dyn Network>,
    /// The time (the system's in a game).
    clock: Box<dyn Clock>,
    peer: Option<PeerId>,
    link: LinkPolicy,
    ever_connected: bool,
    started: Instant,
    turn_since: Option<Instant>,
    ended_at: Option<Instant>,
    /// When the acknowledgement was last repeated after the end.
    end_ack_at: Option<Instant>,
    evidence: u32,
    cutter: ConnectionCutter,
    observer: Option<Observer>,
    observed: Option<(usize, LinkStatus, bool, Option<Route>, bool)>,
    /// Peers connected besides the current one, with what they sent.
    waiting: std::collections::HashMap<PeerId, Vec<Vec<u8>>>,
    /// The signaling server's ICE servers, when fetched, and until when to use them.
    server_ice: Option<(IceServers, Instant)>,
    /// The request for them under way, in the background.
    ice_fetch: Option<IceFetch>,
    /// Sockets opened to the signaling server so far.
    sockets_opened: u32,
    /// Whether the last socket that failed found the room full.
    refused_full: bool,
    /// Added to the wall clock for timestamps and deadlines (see
    /// [`Driver::set_clock_offset`]).
    clock_offset_ms: i64,
    /// The ICE servers of the current connection.
    ice_in_use: IceServers,
    /// How the current peer is reached, once known.
    route: Option<Route>,
    /// The game's copy in the signaling server's mailbox.
    mailbox: Option<super::mailbox_sync::MailboxSync>,
}

impl std::fmt::Debug for Driver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Driver")
            .field("room", &self.config.room_url)
            .finish_non_exhaustive()
    }
}

impl Driver {
    /// Moves this game's clock by `offset_ms` (negative: back), for
    /// timestamps and deadlines: so a deadline of days can be tried out
    /// (`REVERSI_CLOCK_OFFSET`) without waiting for it.
    pub fn set_clock_offset(&mut self, offset_ms: i64) {
        self.clock_offset_ms = offset_ms;
    }

    /// The game's clock: the wall clock moved by the offset.
    fn now_ms(&self) -> u64 {
        self.clock
            .wall_ms()
            .saturating_add_signed(self.clock_offset_ms)
    }

    /// A driver for `session`, appending to `writer` (the log file at
    /// `config.log_path`, evidence beside it).
    pub fn new(session: Session, writer: LogWriter, config: DriverConfig) -> Driver {
        let store = LogFileStore::new(writer, config.log_path.clone());
        Driver::with_store(session, Box::new(store), config)
    }

    /// A driver for `session`, keeping its records in `store`.
    pub fn with_store(session: Session, store: Box<dyn GameStore>, config: DriverConfig) -> Driver {
        Driver::with_network(
            session,
            store,
            config,
            Box::new(WebRtc),
            Box::new(SystemClock),
        )
    }

    /// A driver for `session` that keeps its records in `store`, connects
    /// through `network` and keeps time by `clock` (how the tests run it
    /// in memory on a clock of their own).
    pub fn with_network(
        session: Session,
        store: Box<dyn GameStore>,
        config: DriverConfig,
        network: Box<dyn Network>,
        clock: Box<dyn Clock>,
    ) -> Driver {
        let now = clock.now();
        Driver {
            session,
            store,
            transport: None,
            network,
            peer: None,
            link: LinkPolicy::new(now, clock.wall_ms()),
            clock_offset_ms: 0,
            ever_connected: false,
            started: now,
            turn_since: None,
            ended_at: None,
            end_ack_at: None,
            evidence: 0,
            cutter: ConnectionCutter::default(),
            observer: None,
            observed: None,
            waiting: Default::default(),
            server_ice: None,
            ice_fetch: None,
            sockets_opened: 0,
            refused_full: false,
            ice_in_use: IceServers::default(),
            route: None,
            mailbox: super::mailbox_sync::MailboxSync::for_room(&config.room_url),
            config,
            clock,
        }
    }

    /// Calls `observer` with the session, the connection's state and its
    /// route whenever the log grows, the connection changes (each
    /// reconnection attempt too, and when the route becomes known) or the
    /// game halts: how a window or a terminal keeps its picture of the game
    /// current.
    pub fn set_observer(
        &mut self,
        observer: impl FnMut(&Session, &LinkStatus, Option<Route>) + Send + 'static,
    ) {
        self.observer = Some(Box::new(observer));
    }

    fn notify_observer(&mut self) {
        let now = (
            self.session.records().len(),
            self.link.status(),
            self.session.halted().is_some(),
            self.route,
            // A resumed side may sign again once the peer's hello came.
            self.session.waiting_for_heads(),
        );
        if Some(now) != self.observed {
            self.observed = Some(now);
            if let Some(observer) = &mut self.observer {
                observer(&self.session, &now.1, now.3);
            }
        }
    }

    /// Whether the opponent has confirmed every record this side wrote.
    pub fn delivered(&self) -> bool {
        self.session.mine_acknowledged()
    }

    /// The connection's state now.
    pub fn link_status(&self) -> LinkStatus {
        self.link.status()
    }

    /// A handle that cuts the connection on request.
    pub fn cutter(&self) -> ConnectionCutter {
        self.cutter.clone()
    }

    /// The session (for display).
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// Plays until the game ends (or cannot go on), calling `on_event` for
    /// everything the user should know.
    pub async fn run(
        &mut self,
        mover: &mut dyn Mover,
        on_event: &mut (dyn FnMut(&Event) + Send),
    ) -> Result<Outcome, DriverError> {
        loop {
            self.notify_observer();
            if let Some(reason) = self.session.halted() {
                let reason = reason.clone();
                self.say_parting_words().await;
                return Err(DriverError::Halted(reason));
            }
            if let Some(outcome) = self.session.outcome() {
                let now = self.clock.now();
                let ended = *self.ended_at.get_or_insert(now);
                let waited = now.saturating_duration_since(ended);
                let wrote_last = self
                    .session
                    .records()
                    .last()
                    .is_some_and(|r| r.content().author == self.session.seat());
                let done = if wrote_last {
                    self.session.mine_acknowledged() || waited > FINAL_ACK_WAIT
                } else {
                    // The other side waits for our confirmation of its last
                    // record: repeat it for a moment (a lossy link may lose
                    // one), or until that side has gone.
                    waited > FINAL_LINGER || (self.peer.is_none() && waited > FINAL_ACK_EVERY)
                };
                if done {
                    // The last records go to the mailbox before the program
                    // ends: a spectator (or the opponent's next look) reads
                    // the end there.
                    if let Some(sync) = &mut self.mailbox {
                        sync.flush(self.session.records(), FLUSH_WAIT).await;
                    }
                    return Ok(outcome);
                }
                self.confirm_the_end();
            }
            self.connect_if_due(on_event).await?;
            self.poll_transport(on_event)?;
            self.take_from_mailbox(on_event)?;
            self.learn_route();
            self.send_heartbeat();
            self.take_turn(mover, on_event)?;
            self.claim_if_late(on_event)?;
            self.notify_observer();
            match &mut self.transport {
                Some(transport) => transport.wait(TICK).await,
                None => self.clock.sleep(TICK).await,
            }
        }
    }

    async fn connect_if_due(
        &mut self,
        on_event: &mut (dyn FnMut(&Event) + Send),
    ) -> Result<(), DriverError> {
        if self.cutter.0.swap(false, Ordering::SeqCst) && self.transport.is_some() {
            self.lose_connection();
        }
        if let Some(failure) = self.transport.as_mut().and_then(|t| t.take_failure()) {
            tracing::info!("connection ended: {failure}");
            // A full room will not empty itself for a third player. Only a
            // guest that holds no record yet can be that third player, and
            // only its first socket's refusal is final: later, one of the
            // two may be our own earlier socket (or, for a game under way,
            // the one from before a crash), which the server gives up for
            // the newcomer once it has been silent for a few seconds. The
            // join's time limit ends the wait otherwise, with this answer.
            if !self.ever_connected && self.session.records().is_empty() {
                let full = self
                    .network
                    .room_status(&self.config.room_url)
                    .await
                    .is_some_and(|status| status.full);
                if full && self.sockets_opened <= 1 {
                    return Err(DriverError::RoomFull);
                }
                self.refused_full = full;
            }
            self.lose_connection();
        }
        if !self.ever_connected
            && let Some(limit) = self.config.first_peer_timeout
            && self.clock.now().saturating_duration_since(self.started) > limit
        {
            // Our own socket is one of the room's peers: a second
            // one is the opponent, waiting for a path that never came.
            if self.refused_full && self.session.records().is_empty() {
                return Err(DriverError::RoomFull);
            }
            let opponent_there = self.transport.is_some()
                && self
                    .network
                    .room_status(&self.config.room_url)
                    .await
                    .is_some_and(|status| status.peers >= 2);
            if !opponent_there {
                return Err(DriverError::NoPeer(limit));
            }
            let cause = diagnose_no_path(self.ice_in_use.urls.clone()).await;
            return Err(DriverError::NoPath {
                waited: limit,
                cause,
            });
        }
        let now = self.clock.now();
        if let Some(transport) = &mut self.transport
            && transport.admitted()
            && self.link.admitted()
            && let Some(sync) = &mut self.mailbox
        {
            sync.network_back();
        }
        // The opponent is back on a new connection while the old one is
        // quiet: take the new one now rather than wait for the old to die.
        if self.peer.is_some() && self.link.quiet(now) && self.switch_to_newcomer(on_event)? {
            tracing::info!("the opponent is back on a new connection");
        }
        if let Some(reason) = self.link.check(now, self.session.seat() == Seat::Guest) {
            tracing::info!("giving up this connection: {reason}");
            self.give_up(reason, on_event)?;
        }
        if self.link.should_open(now)
            && let Some(ice) = self.ice_servers()
        {
            self.ice_in_use = ice;
            tracing::info!(room = %self.config.room_url, ice = self.ice_in_use.urls.len(), "connecting");
            self.transport = Some(self.network.open(&self.config.room_url, &self.ice_in_use));
            self.sockets_opened += 1;
            self.link.opened(self.clock.now());
        }
        Ok(())
    }

    /// The ICE servers for a new connection, once known: the signaling
    /// server's (asked again once their credentials are half-way to expiry)
    /// and the player's own. The server is asked in the background, so
    /// that on a slow link the game loop (heartbeats, the mailbox) goes on
    /// meanwhile; `None` until the first answer (or failure).
    fn ice_servers(&mut self) -> Option<IceServers> {
        if !self.config.ice_from_server {
            return Some(self.config.ice.clone());
        }
        self.finish_ice_fetch();
        let fresh = self
            .server_ice
            .as_ref()
            .is_some_and(|(_, until)| self.clock.now() < *until);
        if !fresh && self.ice_fetch.is_none() {
            let server = super::server_url::ServerUrl::parse(&self.config.room_url);
            let id = self.session.my_fingerprint().as_compact().to_string();
            self.ice_fetch = Some(crate::platform::spawn(async move {
                match server {
                    Ok(server) => super::ice::fetch(&server, &id)
                        .await
                        .map_err(|e| e.to_string()),
                    Err(e) => Err(e.to_string()),
                }
            }));
        }
        // Known but due for renewal: still valid for half their life.
        let from_server = self.server_ice.as_ref()?.0.clone();
        Some(super::ice::combine(from_server, &self.config.ice))
    }

    fn finish_ice_fetch(&mut self) {
        let Some(mut fetch) = self.ice_fetch.take_if(|f| f.is_finished()) else {
            return;
        };
        let fetched = match fetch.try_take() {
            Some(Ok(result)) => result,
            Some(Err(e)) => Err(e.to_string()),
            None => return,
        };
        self.server_ice = Some(match fetched {
            Ok((servers, ttl)) => {
                tracing::info!(
                    servers = servers.urls.len(),
                    relay = servers.urls.iter().any(|u| u.starts_with("turn")),
                    "ICE servers from the signaling server"
                );
                // Without credentials there is nothing to expire: ask
                // again now and then in case the operator added some.
                let keep = if ttl.is_zero() {
                    Duration::from_secs(600)
                } else {
                    ttl / 2
                };
                (servers, self.clock.now() + keep)
            }
            Err(e) => {
                tracing::warn!(
                    "could not get ICE servers from the signaling server ({e}); using only your own"
                );
                (
                    IceServers::default(),
                    self.clock.now() + Duration::from_secs(30),
                )
            }
        });
    }

    /// Ends the current connection for `reason`. A side whose silent
    /// opponent already came back on a new connection switches to it;
    /// otherwise the socket is replaced, since a silent link may mean our
    /// own network (and with it our place in the room) is gone.
    fn give_up(
        &mut self,
        reason: GiveUp,
        on_event: &mut (dyn FnMut(&Event) + Send),
    ) -> Result<(), DriverError> {
        if reason == GiveUp::Silent && self.switch_to_newcomer(on_event)? {
            return Ok(());
        }
        self.lose_connection();
        Ok(())
    }

    /// Leaves the current peer for one that connected meanwhile, if any;
    /// returns whether it did.
    fn switch_to_newcomer(
        &mut self,
        on_event: &mut (dyn FnMut(&Event) + Send),
    ) -> Result<bool, DriverError> {
        let Some(&next) = self.waiting.keys().next() else {
            return Ok(false);
        };
        self.peer = None;
        self.route = None;
        self.session.disconnected();
        self.adopt(next, on_event)?;
        Ok(true)
    }

    /// Drops the socket and schedules a new one after the backoff delay.
    fn lose_connection(&mut self) {
        self.transport = None;
        self.route = None;
        self.waiting.clear();
        if self.peer.take().is_some() {
            self.session.disconnected();
        }
        self.link.closed(self.clock.now());
    }

    fn poll_transport(
        &mut self,
        on_event: &mut (dyn FnMut(&Event) + Send),
    ) -> Result<(), DriverError> {
        let events = match &mut self.transport {
            Some(transport) => transport.poll(),
            None => return Ok(()),
        };
        for event in events {
            match event {
                TransportEvent::Connected(peer) if self.peer.is_none() => {
                    self.adopt(peer, on_event)?
                }
                // A newcomer while the old connection is not yet known to be
                // dead: keep it (and what it sends) until the old one goes.
                TransportEvent::Connected(peer) if self.peer != Some(peer) => {
                    self.waiting.entry(peer).or_default();
                }
                TransportEvent::Connected(_) => {}
                TransportEvent::Disconnected(peer) if self.peer == Some(peer) => {
                    self.peer = None;
                    self.route = None;
                    self.session.disconnected();
                    self.link.peer_left(self.clock.now());
                    if let Some(&next) = self.waiting.keys().next() {
                        self.adopt(next, on_event)?;
                    } else if self.session.seat() == Seat::Guest {
                        // The guest comes back with a fresh socket; the host
                        // stays in the room and waits for it, so the two
                        // never chase each other's stale sockets.
                        tracing::info!("peer disconnected; reconnecting");
                        self.lose_connection();
                        return Ok(());
                    }
                }
                TransportEvent::Disconnected(peer) => {
                    self.waiting.remove(&peer);
                }
                TransportEvent::Received(peer, bytes) if self.peer == Some(peer) => {
                    self.link.heard(self.clock.now());
                    let outputs = self.session.receive(&bytes, self.now_ms());
                    self.execute(outputs, on_event)?;
                }
                TransportEvent::Received(peer, bytes) => {
                    let queue = self.waiting.entry(peer).or_default();
                    if queue.len() < MAX_WAITING_PACKETS {
                        queue.push(bytes);
                    }
                }
            }
        }
        Ok(())
    }

    /// Notes how the current peer is reached once the WebRTC stack says.
    fn learn_route(&mut self) {
        if let (Some(transport), Some(peer)) = (&self.transport, self.peer)
            && let Some(route) = transport.route(peer)
        {
            if self.route != Some(route) {
                tracing::info!(%route, "connection route");
            }
            self.route = Some(route);
        }
    }

    /// How the current peer is reached, once known.
    pub fn route(&self) -> Option<Route> {
        self.route
    }

    /// Makes `peer` the current peer: introduce ourselves, then handle what
    /// it already sent.
    fn adopt(
        &mut self,
        peer: PeerId,
        on_event: &mut (dyn FnMut(&Event) + Send),
    ) -> Result<(), DriverError> {
        self.peer = Some(peer);
        self.ever_connected = true;
        self.link.connected(self.clock.now());
        let outputs = self.session.connected();
        self.execute(outputs, on_event)?;
        for bytes in self.waiting.remove(&peer).unwrap_or_default() {
            let outputs = self.session.receive(&bytes, self.now_ms());
            self.execute(outputs, on_event)?;
        }
        Ok(())
    }

    /// After the end, repeats this side's acknowledgement every
    /// [`FINAL_ACK_EVERY`].
    fn confirm_the_end(&mut self) {
        let now = self.clock.now();
        let due = self
            .end_ack_at
            .is_none_or(|at| now.saturating_duration_since(at) >= FINAL_ACK_EVERY);
        if let (true, Some(transport), Some(peer)) = (due, &mut self.transport, self.peer)
            && let Some(bytes) = self.session.heartbeat()
        {
            transport.send(peer, bytes);
            self.end_ack_at = Some(now);
        }
    }

    /// Repeats the session's parting message a few times (a lossy link may
    /// lose one) before the connection is dropped.
    async fn say_parting_words(&mut self) {
        let Some(bytes) = self.session.parting_message() else {
            return;
        };
        let until = self.clock.now() + FINAL_LINGER;
        while self.clock.now() < until {
            if let (Some(transport), Some(peer)) = (&mut self.transport, self.peer) {
                transport.send(peer, bytes.clone());
            }
            self.clock.sleep(FINAL_ACK_EVERY).await;
        }
    }

    /// Tells a connected opponent we are alive, once a second.
    fn send_heartbeat(&mut self) {
        if let (Some(transport), Some(peer)) = (&mut self.transport, self.peer)
            && self.link.heartbeat_due(self.clock.now())
            && let Some(bytes) = self.session.heartbeat()
        {
            transport.send(peer, bytes);
        }
    }

    fn take_turn(
        &mut self,
        mover: &mut dyn Mover,
        on_event: &mut (dyn FnMut(&Event) + Send),
    ) -> Result<(), DriverError> {
        if !self.session.my_turn()
            && self.session.my_question().is_none()
            && !self.session.rematch_offered()
        {
            self.turn_since = None;
            return Ok(());
        }
        let now = self.clock.now();
        let since = *self.turn_since.get_or_insert(now);
        if now.saturating_duration_since(since) < self.config.move_delay {
            return Ok(());
        }
        let Some(action) = mover.poll(&self.session) else {
            return Ok(());
        };
        let result = match action {
            Action::Play(square) => self.session.play(square, self.now_ms()),
            Action::Resign => self.session.resign(self.now_ms()),
            Action::Choose(color) => self.session.choose(color, self.now_ms()),
            Action::AcceptRematch => self.session.accept_rematch(self.now_ms()),
            Action::DeclineRematch => self.session.decline_rematch(),
        };
        match result {
            Ok(outputs) => {
                self.turn_since = None;
                self.execute(outputs, on_event)
            }
            Err(e) => {
                on_event(&Event::MoveRefused(e));
                Ok(())
            }
        }
    }

    /// Records the opponent left in the mailbox, verified like theirs.
    fn take_from_mailbox(
        &mut self,
        on_event: &mut (dyn FnMut(&Event) + Send),
    ) -> Result<(), DriverError> {
        // A quiet link counts as apart: after a short outage the mailbox
        // often delivers before the link's own retransmissions do.
        let connected = self.peer.is_some() && !self.link.quiet(self.clock.now());
        let Some(sync) = &mut self.mailbox else {
            return Ok(());
        };
        let Some(records) = sync.poll(self.session.records(), connected) else {
            return Ok(());
        };
        // The whole batch first, then our step: nothing is signed on a view
        // the rest of the batch changes.
        for record in records {
            match self.session.relayed_in_batch(record, self.now_ms()) {
                Ok(outputs) => self.execute(outputs, on_event)?,
                Err(reason) => {
                    tracing::warn!("a record from the mailbox was refused: {reason}");
                    break;
                }
            }
        }
        let outputs = self.session.catch_up(self.now_ms());
        self.execute(outputs, on_event)
    }

    fn claim_if_late(
        &mut self,
        on_event: &mut (dyn FnMut(&Event) + Send),
    ) -> Result<(), DriverError> {
        let now = self.now_ms();
        match self.session.deadline() {
            Some((seat, at)) if seat != self.session.seat() && now >= at => {
                match self.session.claim_timeout(now) {
                    Ok(outputs) => self.execute(outputs, on_event),
                    Err(_) => Ok(()),
                }
            }
            _ => Ok(()),
        }
    }

    fn execute(
        &mut self,
        outputs: Vec<Output>,
        on_event: &mut (dyn FnMut(&Event) + Send),
    ) -> Result<(), DriverError> {
        for output in outputs {
            match output {
                Output::Persist(record) => {
                    self.store.append(&record)?;
                    if let Some(sync) = &mut self.mailbox {
                        sync.poke();
                    }
                }
                Output::Send(bytes) => {
                    if let (Some(transport), Some(peer)) = (&mut self.transport, self.peer) {
                        transport.send(peer, bytes);
                    }
                }
                Output::Evidence { bytes, reason } => {
                    self.save_evidence(&bytes, &reason.to_string())
                }
                Output::Event(event) => on_event(&event),
                Output::Disconnect(reason) => {
                    self.lose_connection();
                    // A halt closes the connection too: the halt says why.
                    if let Some(halt) = self.session.halted() {
                        return Err(DriverError::Halted(halt.clone()));
                    }
                    return Err(DriverError::Disconnected(reason));
                }
            }
        }
        Ok(())
    }

    /// Keeps rejected bytes and the reason; failure to save evidence must
    /// not stop the game, so it is only logged.
    fn save_evidence(&mut self, bytes: &[u8], reason: &str) {
        self.evidence += 1;
        self.store.save_evidence(bytes, reason);
    }
}

/// Writes rejected bytes and the reason into the evidence folder beside a
/// log (see [`evidence_dir`]); a failure is only logged, since it must not
/// stop the game.
#[cfg(not(target_arch = "wasm32"))]
pub fn save_evidence(log_path: &Path, bytes: &[u8], reason: &str) {
    static COUNTER: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let dir = evidence_dir(log_path);
    let stem = format!(
        "{}-{:03}-{}",
        crate::platform::now_ms(),
        n,
        std::process::id()
    );
    let saved = std::fs::create_dir_all(&dir)
        .and_then(|()| std::fs::write(dir.join(format!("{stem}.bin")), bytes))
        .and_then(|()| std::fs::write(dir.join(format!("{stem}.txt")), format!("{reason}\n")));
    if let Err(e) = saved {
        tracing::warn!("could not save evidence in {}: {e}", dir.display());
    }
}

/// Why no path was found, as far as this side can tell from the ICE
/// servers it used.
async fn diagnose_no_path(urls: Vec<String>) -> NoPathCause {
    let relays: Vec<String> = urls.into_iter().filter(|u| u.starts_with("turn")).collect();
    let Some(first) = relays.first().cloned() else {
        return NoPathCause::NoRelay;
    };
    // A page cannot send a STUN probe of its own: the relay was tried, and
    // that is all it knows.
    if cfg!(target_arch = "wasm32") {
        return NoPathCause::RelayUnanswered(first);
    }
    #[cfg(not(target_arch = "wasm32"))]
    for relay in relays {
        if super::stun_probe::answers_binding(&relay, Duration::from_millis(1500)).await
            == Some(true)
        {
            return NoPathCause::RelayFailed(relay);
        }
    }
    NoPathCause::RelaySilent(first)
}

/// The folder beside a log where rejected messages are kept.
pub fn evidence_dir(log_path: &Path) -> PathBuf {
    let mut name = log_path.file_name().unwrap_or_default().to_os_string();
    name.push(".evidence");
    log_path.with_file_name(name)
}

#[cfg(test)]
#[path = "driver_tests.rs"]
mod tests;
