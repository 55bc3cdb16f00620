//! A small, hardened signaling server for two-player WebRTC rooms, built on
//! `matchbox_signaling`. Peers meet at `ws://HOST:PORT/<room>`, swap offers,
//! answers and ICE candidates, and then talk directly; the server never
//! sees the game.
//!
//! [`start`] runs the server inside the caller's tokio runtime and returns
//! its address and a [`ShutdownHandle`]: the game embeds it this way for LAN
//! play; `reversi-signaling` runs it stand-alone.

#![forbid(unsafe_code)]

pub mod client_address;
pub mod ice;
pub mod leaderboard;
pub mod mailbox;
pub mod metrics;
pub mod rate_limit;
pub mod registry;
pub mod room_name;
pub mod web_assets;

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use async_trait::async_trait;
use axum::Router;
use axum::extract::ws::{CloseFrame, Message, WebSocketUpgrade, close_code};
use axum::extract::{ConnectInfo, Path, RawQuery, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum_server::tls_rustls::RustlsConfig;
use futures::StreamExt;
use ice::IceConfig;
use matchbox_protocol::{JsonPeerEvent, JsonPeerRequest, PeerId, PeerRequest};
use matchbox_signaling::common_logic::spawn_sender_task;
use matchbox_signaling::{
    NoCallbacks, SignalingServerBuilder, SignalingState, SignalingTopology, WsStateMeta,
};
use metrics::{Gauges, Metrics, RefusalReason};
use rate_limit::{Rate, RateLimiter};
use registry::{Joined, Limits, Refusal, Registry};
use room_name::{check_room_name, room_tag};
use tokio::sync::{oneshot, watch};
use tracing::{info, warn};

/// The log filter the server runs with unless `RUST_LOG` says otherwise.
/// matchbox's own info lines name rooms, and room names are bearer secrets,
/// so only its warnings are let through.
pub const DEFAULT_LOG_FILTER: &str = "info,matchbox_signaling=warn,tower_http=warn";

/// The websocket read buffer per connection: signaling messages are small.
const READ_BUFFER_BYTES: usize = 4096;

/// The server's limits and the ICE servers it hands out.
#[derive(Debug, Clone)]
pub struct Config {
    /// Connections in total.
    pub max_connections: usize,
    /// Connections from one IP address.
    pub max_per_ip: usize,
    /// A connection that sends nothing (not even a keep-alive) for this long is closed.
    pub idle_timeout: Duration,
    /// The largest signaling message accepted, in bytes.
    pub max_message_bytes: usize,
    /// A member of a full room silent this long gives its place to a
    /// newcomer (the game's clients send a keep-alive every 2 s).
    pub stale_after: Duration,
    /// Bytes of heap in use, if the program can tell (shown by `/health`).
    pub heap_bytes: Option<fn() -> usize>,
    /// STUN and TURN servers for `GET /ice`.
    pub ice: IceConfig,
    /// How often one address may ask `GET /ice`.
    pub ice_rate: Rate,
    /// Serve `https://` and `wss://` with these files instead of plain HTTP.
    pub tls: Option<TlsFiles>,
    /// Keep the games' records for players who are offline (see [`mailbox`]).
    pub mailbox: Option<mailbox::MailboxConfig>,
    /// Keep the opt-in leaderboard in the mailbox's database (see
    /// [`leaderboard`]); nothing without a mailbox.
    pub leaderboard: bool,
    /// The browser client, served at `/play/` (see [`web_assets`]).
    pub web: Option<web_assets::WebAssets>,
    /// How often the server pings each connection. A browser answers at
    /// once even from a background tab, whose own timers (and with them
    /// the client's keep-alives) the browser slows to once a minute.
    pub ping_every: Duration,
    /// Proxies whose `X-Forwarded-For` names the client (see
    /// [`client_address`]); none by default.
    pub trusted_proxies: Vec<IpAddr>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            max_connections: 20_000,
            max_per_ip: 64,
            idle_timeout: Duration::from_secs(60),
            max_message_bytes: 16 * 1024,
            stale_after: Duration::from_secs(8),
            heap_bytes: None,
            ice: IceConfig {
                turn_ttl: Duration::from_secs(24 * 60 * 60),
                ..IceConfig::default()
            },
            // A client asks once per connection attempt; many players may
            // share one address behind a carrier's NAT.
            ice_rate: Rate {
                burst: 60,
                refill: Duration::from_secs(1),
            },
            tls: None,
            mailbox: None,
            leaderboard: false,
            web: None,
            ping_every: Duration::from_secs(20),
            trusted_proxies: Vec::new(),
        }
    }
}

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// The address could not be bound.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address asked for.
        addr: SocketAddr,
        /// What failed.
        source: matchbox_signaling::Error,
    },
    /// The mailbox's database could not be opened.
    #[error(transparent)]
    Mailbox(#[from] mailbox::store::StoreError),
    /// The ICE settings are unusable.
    #[error(transparent)]
    Ice(#[from] ice::IceConfigError),
    /// The address could not be bound (TLS listener).
    #[error("cannot listen on {addr}: {source}")]
    Listen {
        /// The address asked for.
        addr: SocketAddr,
        /// What failed.
        source: std::io::Error,
    },
    /// The certificate or key could not be used.
    #[error("cannot use the TLS certificate {} with key {}: {reason}", .files.cert.display(), .files.key.display())]
    Tls {
        /// The certificate chain and private key files.
        files: TlsFiles,
        /// What is wrong.
        reason: String,
    },
}

#[derive(Clone)]
struct Shared {
    registry: Arc<Mutex<Registry>>,
    config: Arc<Config>,
    metrics: Arc<Metrics>,
    ice_limiter: Arc<Mutex<RateLimiter>>,
    started: Instant,
    shutting_down: watch::Receiver<bool>,
    /// How many peers' handlers are running (see [`RunningServer::stopped`]).
    peers: Arc<watch::Sender<usize>>,
    /// The connection's address, in the copy handed to its state machine.
    origin: Option<IpAddr>,
    /// The mailbox, when open (for readiness and metrics).
    mailbox: Option<mailbox::Mailbox>,
}

/// Counts a peer's handler while it runs.
struct PeerCount(Arc<watch::Sender<usize>>);

impl PeerCount {
    fn new(peers: &Arc<watch::Sender<usize>>) -> PeerCount {
        peers.send_modify(|n| *n += 1);
        PeerCount(Arc::clone(peers))
    }
}

impl Drop for PeerCount {
    fn drop(&mut self) {
        self.0.send_modify(|n| *n = n.saturating_sub(1));
    }
}

/// How long a shutdown waits for connected peers to finish their close
/// handshake.
const CLOSE_GRACE: Duration = Duration::from_secs(2);

impl SignalingState for Shared {}

impl Shared {
    fn registry(&self) -> MutexGuard<'_, Registry> {
        // A panic while holding the lock cannot leave the maps half-updated
        // in a way that matters more than stopping the server would.
        self.registry
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn limits(&self) -> Limits {
        Limits {
            max_connections: self.config.max_connections,
            max_per_ip: self.config.max_per_ip,
            stale_after: self.config.stale_after,
        }
    }
}

/// Stops a running server: closes every connection with a reason, stops
/// accepting, and lets [`RunningServer::stopped`] return.
#[derive(Debug, Clone)]
pub struct ShutdownHandle {
    ours: Arc<watch::Sender<bool>>,
    matchbox: Arc<Mutex<Option<oneshot::Sender<()>>>>,
    /// The TLS listener's handle, when serving TLS.
    tls: Option<axum_server::Handle<SocketAddr>>,
}

impl ShutdownHandle {
    /// Begins a graceful shutdown (idempotent).
    pub fn shutdown(&self) {
        let _ = self.ours.send(true);
        let sender = self
            .matchbox
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take();
        if let Some(sender) = sender {
            let _ = sender.send(());
        }
        if let Some(tls) = &self.tls {
            // Our own connections close themselves with a reason first.
            tls.graceful_shutdown(Some(Duration::from_secs(5)));
        }
    }
}

/// The certificate and key files for `https://` and `wss://`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TlsFiles {
    /// PEM certificate chain.
    pub cert: PathBuf,
    /// PEM private key.
    pub key: PathBuf,
}

/// Reloads the certificate of a running TLS server (on SIGHUP, after a
/// renewal). Connections already open keep their session.
#[derive(Clone)]
pub struct TlsReloader {
    config: RustlsConfig,
    files: TlsFiles,
}

impl std::fmt::Debug for TlsReloader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TlsReloader")
            .field("files", &self.files)
            .finish_non_exhaustive()
    }
}

impl TlsReloader {
    /// Reads the files again; on error the old certificate stays in use.
    pub async fn reload(&self) -> Result<(), StartError> {
        self.config
            .reload_from_pem_file(&self.files.cert, &self.files.key)
            .await
            .map_err(|e| StartError::Tls {
                files: self.files.clone(),
                reason: e.to_string(),
            })
    }
}

/// A server running in the background.
#[derive(Debug)]
pub struct RunningServer {
    /// The bound address (useful with port 0).
    pub addr: SocketAddr,
    handle: ShutdownHandle,
    task: tokio::task::JoinHandle<()>,
    tls: Option<TlsReloader>,
    peers: watch::Receiver<usize>,
}

impl RunningServer {
    /// A handle that can stop the server from anywhere.
    pub fn shutdown_handle(&self) -> ShutdownHandle {
        self.handle.clone()
    }

    /// Reloads the TLS certificate, when serving TLS.
    pub fn tls_reloader(&self) -> Option<TlsReloader> {
        self.tls.clone()
    }

    /// Waits until the server has stopped.
    pub async fn stopped(self) {
        let _ = self.task.await;
        // Upgraded connections outlive the HTTP server's own shutdown: wait
        // (bounded) until every peer has had its close frame, so a program
        // that exits next does not cut them off without one.
        let mut peers = self.peers;
        let _ = tokio::time::timeout(CLOSE_GRACE, peers.wait_for(|n| *n == 0)).await;
    }
}

fn refuse(status: StatusCode, reason: &str) -> Response {
    (status, format!("{reason}\n")).into_response()
}

fn close(code: u16, reason: &str) -> Message {
    Message::Close(Some(CloseFrame {
        code,
        reason: reason.into(),
    }))
}

/// Decides before the websocket upgrade: a valid room name, and room and
/// connection limits. A refusal is an HTTP status with the reason as body.
fn admission(shared: &Shared, room: &str, ip: IpAddr) -> Result<(), (StatusCode, String)> {
    if let Err(e) = check_room_name(Some(room)) {
        warn!(peer = %ip, reason = %e, "refused");
        shared.metrics.refused(RefusalReason::BadRoomName);
        return Err((StatusCode::BAD_REQUEST, e.to_string()));
    }
    shared
        .registry()
        .admission(room, ip, shared.limits(), Instant::now())
        .map_err(|refusal| {
            warn!(peer = %ip, room = %room_tag(room), reason = %refusal, "refused");
            shared.metrics.refused(refusal_reason(refusal));
            let status = match refusal {
                Refusal::RoomFull => StatusCode::CONFLICT,
                Refusal::ServerFull => StatusCode::SERVICE_UNAVAILABLE,
                Refusal::TooManyFromAddress => StatusCode::TOO_MANY_REQUESTS,
            };
            (status, refusal.to_string())
        })
}

fn refusal_reason(refusal: Refusal) -> RefusalReason {
    match refusal {
        Refusal::RoomFull => RefusalReason::RoomFull,
        Refusal::ServerFull => RefusalReason::ServerFull,
        Refusal::TooManyFromAddress => RefusalReason::TooManyFromAddress,
    }
}

/// Starts the server on `addr` inside the current tokio runtime.
pub async fn start(addr: SocketAddr, config: Config) -> Result<RunningServer, StartError> {
    config.ice.validate()?;
    let tls_files = config.tls.clone();
    let (ours_tx, ours_rx) = watch::channel(false);
    let mailbox = match &config.mailbox {
        Some(mailbox_config) => {
            let mut mailbox = mailbox::Mailbox::open(mailbox_config.clone()).await?;
            mailbox.shut_down_with(ours_rx.clone());
            mailbox.spawn_purger();
            mailbox.spawn_listener();
            info!("mailbox open");
            Some(mailbox)
        }
        None => None,
    };
    let (matchbox_tx, matchbox_rx) = oneshot::channel();
    let shared = Shared {
        registry: Arc::default(),
        metrics: Arc::default(),
        ice_limiter: Arc::new(Mutex::new(RateLimiter::new(config.ice_rate))),
        config: Arc::new(config),
        started: Instant::now(),
        shutting_down: ours_rx,
        peers: Arc::new(watch::channel(0).0),
        origin: None,
        mailbox: mailbox.clone(),
    };
    let peers = shared.peers.subscribe();
    // matchbox's server binds, serves and shuts down; its topology trait,
    // state meta and sender task carry each connection. The upgrade itself
    // is ours, because matchbox's default handler cannot be configured: it
    // preallocates a 128 KiB read buffer per connection and accepts 64 MiB
    // messages.
    let routes = Router::new()
        .route("/", get(missing_room))
        .route("/health", get(health))
        .route("/ready", get(ready))
        .route("/ice", get(ice_servers))
        .route("/metrics", get(metrics_text))
        .route("/room/{room}", get(room_status))
        .route("/{room}", get(upgrade))
        .with_state(shared.clone());
    let routes = match &mailbox {
        Some(mailbox) => routes.merge(mailbox.routes()),
        None => routes,
    };
    let routes = match &shared.config.web {
        Some(web) => routes.merge(web.routes()),
        None => routes,
    };
    let routes = match (&mailbox, &shared.config.mailbox, shared.config.leaderboard) {
        (Some(mailbox), Some(mailbox_config), true) => {
            info!("leaderboard open");
            routes.merge(
                leaderboard::Leaderboard::new(mailbox.store().clone(), mailbox_config.rate)
                    .routes(),
            )
        }
        _ => routes,
    };
    // A page served by one server may play a game whose code names
    // another (a LAN host's, a public one): its fetches of /ice, /room and
    // the mailbox are cross-origin. They carry no cookies or credentials,
    // and what they read is public (signed records, room counts), so any
    // origin may ask.
    let trusted: Arc<[IpAddr]> = shared
        .config
        .trusted_proxies
        .iter()
        .map(IpAddr::to_canonical)
        .collect();
    let routes = routes.layer(axum::middleware::from_fn_with_state(
        trusted,
        client_address::rewrite,
    ));
    let routes = routes.layer(
        tower_http::cors::CorsLayer::new()
            .allow_origin(tower_http::cors::Any)
            .allow_methods([axum::http::Method::GET, axum::http::Method::POST])
            .allow_headers([axum::http::header::CONTENT_TYPE])
            .max_age(std::time::Duration::from_secs(600)),
    );
    if let Some(files) = tls_files {
        return start_tls(addr, files, routes, ours_tx, peers).await;
    }
    let mut server = SignalingServerBuilder::new(addr, TwoPlayerRooms, shared)
        .with_shutdown(matchbox_rx)
        .build_with(move |matchbox_routes| routes.fallback_service(matchbox_routes));
    let bound = server
        .bind()
        .map_err(|source| StartError::Bind { addr, source })?;
    info!(addr = %bound, "signaling server listening");
    let task = tokio::spawn(async move {
        if let Err(e) = server.serve().await {
            warn!("the server stopped: {e}");
        }
    });
    Ok(RunningServer {
        addr: bound,
        handle: ShutdownHandle {
            ours: Arc::new(ours_tx),
            matchbox: Arc::new(Mutex::new(Some(matchbox_tx))),
            tls: None,
        },
        task,
        tls: None,
        peers,
    })
}

/// Serves the same routes over TLS (rustls), with a certificate that
/// [`TlsReloader`] can replace while the server runs.
async fn start_tls(
    addr: SocketAddr,
    files: TlsFiles,
    routes: Router,
    ours_tx: watch::Sender<bool>,
    peers: watch::Receiver<usize>,
) -> Result<RunningServer, StartError> {
    let rustls = RustlsConfig::from_pem_file(&files.cert, &files.key)
        .await
        .map_err(|e| StartError::Tls {
            files: files.clone(),
            reason: e.to_string(),
        })?;
    let listener =
        std::net::TcpListener::bind(addr).map_err(|source| StartError::Listen { addr, source })?;
    let bound = listener
        .local_addr()
        .map_err(|source| StartError::Listen { addr, source })?;
    let handle = axum_server::Handle::new();
    let server = axum_server::tls_rustls::from_tcp_rustls(listener, rustls.clone())
        .map_err(|source| StartError::Listen { addr, source })?
        .handle(handle.clone());
    info!(addr = %bound, "signaling server listening (TLS)");
    let task = tokio::spawn(async move {
        let service = routes.into_make_service_with_connect_info::<SocketAddr>();
        if let Err(e) = server.serve(service).await {
            warn!("the server stopped: {e}");
        }
    });
    Ok(RunningServer {
        addr: bound,
        handle: ShutdownHandle {
            ours: Arc::new(ours_tx),
            matchbox: Arc::new(Mutex::new(None)),
            tls: Some(handle),
        },
        task,
        tls: Some(TlsReloader {
            config: rustls,
            files,
        }),
        peers,
    })
}

async fn missing_room() -> Response {
    let e = room_name::RoomNameError::Missing;
    warn!(reason = %e, "refused");
    refuse(StatusCode::BAD_REQUEST, &e.to_string())
}

async fn health(State(shared): State<Shared>) -> axum::Json<serde_json::Value> {
    let registry = shared.registry();
    axum::Json(serde_json::json!({
        "status": "ok",
        "rooms": registry.room_count(),
        "peers": registry.peer_count(),
        "uptime_secs": shared.started.elapsed().as_secs(),
        "heap_bytes": shared.config.heap_bytes.map(|f| f()),
        "mailbox": shared.config.mailbox.is_some(),
        "leaderboard": shared.config.mailbox.is_some() && shared.config.leaderboard,
        "version": env!("CARGO_PKG_VERSION"),
    }))
}

/// `GET /ready`: `200` when this instance should be sent new players,
/// `503` with the reason when not: it is shutting down, its mailbox's
/// database does not answer, or it cannot hear the records other
/// instances store (a proxy's health check; `/health` says only that the
/// process is up).
async fn ready(State(shared): State<Shared>) -> Response {
    let reason = if *shared.shutting_down.borrow() {
        Some("the server is shutting down".to_string())
    } else if let Some(mailbox) = &shared.mailbox {
        mailbox.ready().await.err().map(|e| e.to_string())
    } else {
        None
    };
    match reason {
        None => fresh_json(StatusCode::OK, serde_json::json!({ "ready": true })),
        Some(reason) => {
            warn!(%reason, "not ready");
            fresh_json(
                StatusCode::SERVICE_UNAVAILABLE,
                serde_json::json!({ "ready": false, "reason": reason }),
            )
        }
    }
}

/// `GET /ice[?id=ID]`: the ICE servers to use, with fresh TURN
/// credentials. Rate-limited per address; the credentials are never logged.
async fn ice_servers(
    RawQuery(query): RawQuery,
    ConnectInfo(origin): ConnectInfo<SocketAddr>,
    State(shared): State<Shared>,
) -> Response {
    let ip = origin.ip();
    let allowed = shared
        .ice_limiter
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .allow(ip, Instant::now());
    if !allowed {
        warn!(peer = %ip, "ice request refused: too many requests from this address");
        shared.metrics.refused(RefusalReason::IceRateLimited);
        return refuse(
            StatusCode::TOO_MANY_REQUESTS,
            "too many /ice requests from your address; try again in a few seconds",
        );
    }
    let id = match ice::parse_query(query.as_deref()) {
        Ok(id) => id,
        Err(e) => {
            warn!(peer = %ip, reason = %e, "ice request refused");
            shared.metrics.refused(RefusalReason::BadIceRequest);
            return refuse(StatusCode::BAD_REQUEST, &e.to_string());
        }
    };
    let now_unix = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let random_id = uuid::Uuid::new_v4().simple().to_string();
    let answer = shared
        .config
        .ice
        .answer(id.as_deref(), now_unix, &random_id);
    let with_credentials = shared.config.ice.issues_credentials();
    shared.metrics.ice_answered(with_credentials);
    info!(peer = %ip, turn_credentials = with_credentials, "ice servers handed out");
    fresh_json(StatusCode::OK, answer)
}

/// A JSON answer that must not be cached (credentials, mailbox contents)
/// and that a page from another origin may read (the browser client may
/// be served from elsewhere).
fn fresh_json(status: StatusCode, body: impl serde::Serialize) -> Response {
    let mut response = (status, axum::Json(body)).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(
        header::ACCESS_CONTROL_ALLOW_ORIGIN,
        HeaderValue::from_static("*"),
    );
    response
}

/// `GET /metrics`: Prometheus text format.
async fn metrics_text(State(shared): State<Shared>) -> Response {
    let gauges = {
        let registry = shared.registry();
        Gauges {
            connections: registry.peer_count(),
            rooms: registry.room_count(),
            peers: registry.member_count(),
            uptime_secs: shared.started.elapsed().as_secs(),
            mailbox: shared.mailbox.as_ref().map(mailbox::Mailbox::gauges),
        }
    };
    (
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/plain; version=0.0.4; charset=utf-8"),
        )],
        shared.metrics.render(gauges),
    )
        .into_response()
}

/// `GET /room/<room>`: how many players are in a room, so a client that
/// cannot get in can tell "room is full" from "server unreachable". Only
/// someone who knows the room name can ask.
async fn room_status(Path(room): Path<String>, State(shared): State<Shared>) -> Response {
    if let Err(e) = check_room_name(Some(&room)) {
        return refuse(StatusCode::BAD_REQUEST, &e.to_string());
    }
    let peers = shared.registry().room_peers(&room);
    axum::Json(serde_json::json!({ "peers": peers, "full": peers >= registry::ROOM_CAPACITY }))
        .into_response()
}

/// The websocket upgrade for `/<room>`: checks the name and the limits
/// first, so a refusal is an HTTP status with its reason.
async fn upgrade(
    ws: WebSocketUpgrade,
    Path(room): Path<String>,
    ConnectInfo(origin): ConnectInfo<SocketAddr>,
    State(shared): State<Shared>,
) -> Response {
    if let Err((status, reason)) = admission(&shared, &room, origin.ip()) {
        return refuse(status, &reason);
    }
    let max = shared.config.max_message_bytes;
    ws.read_buffer_size(READ_BUFFER_BYTES)
        .write_buffer_size(0)
        // Frames a little over the limit still get a close frame that says
        // why; far larger ones are cut off by the websocket layer itself.
        .max_message_size(2 * max + 1024)
        .max_frame_size(2 * max + 1024)
        .on_upgrade(move |socket| async move {
            shared.metrics.connection();
            let (sink, receiver) = socket.split();
            let sender = spawn_sender_task(sink);
            let peer_id = PeerId(uuid::Uuid::new_v4());
            let assigned = JsonPeerEvent::IdAssigned(peer_id).to_string();
            let _ = sender.send(Ok(Message::Text(assigned.into())));
            let meta = WsStateMeta {
                room,
                peer_id,
                sender,
                receiver,
                callbacks: NoCallbacks {},
                state: Shared {
                    origin: Some(origin.ip()),
                    ..shared
                },
            };
            TwoPlayerRooms::state_machine(meta).await;
        })
}

/// The topology: rooms of two, signals only between the two.
struct TwoPlayerRooms;

/// How a connection ended, for the log.
#[derive(Debug)]
enum Ending {
    Left,
    Idle,
    TooLarge(usize),
    Binary,
    Malformed,
    ShuttingDown,
    Broken,
}

#[async_trait]
impl SignalingTopology<NoCallbacks, Shared> for TwoPlayerRooms {
    async fn state_machine(upgrade: WsStateMeta<NoCallbacks, Shared>) {
        let WsStateMeta {
            room,
            peer_id,
            sender,
            mut receiver,
            state,
            ..
        } = upgrade;
        let _counted = PeerCount::new(&state.peers);
        let tag = room_tag(&room);
        let ip = state.origin.unwrap_or(IpAddr::from([0, 0, 0, 0]));
        let joined = state.registry().join(
            &room,
            ip,
            peer_id,
            sender.clone(),
            state.limits(),
            Instant::now(),
        );
        match joined {
            Ok(Joined {
                other,
                opened,
                displaced,
            }) => {
                if opened {
                    info!(room = %tag, "room opened");
                }
                if let Some((stale, channel)) = displaced {
                    info!(room = %tag, peer = %stale, "silent member displaced by a newcomer");
                    let _ = channel.send(Ok(close(
                        close_code::POLICY,
                        "replaced by a newer connection",
                    )));
                    if let Some(channel) = &other {
                        let event = JsonPeerEvent::PeerLeft(stale).to_string();
                        let _ = channel.send(Ok(Message::Text(event.into())));
                    }
                }
                if let Some(channel) = other {
                    let event = JsonPeerEvent::NewPeer(peer_id).to_string();
                    let _ = channel.send(Ok(Message::Text(event.into())));
                }
            }
            Err(refusal) => {
                warn!(room = %tag, peer = %peer_id, reason = %refusal, "refused after upgrade");
                state.metrics.refused(refusal_reason(refusal));
                let _ = sender.send(Ok(close(close_code::POLICY, &refusal.to_string())));
                return;
            }
        }
        let ending = serve_peer(&state, &room, peer_id, &sender, &mut receiver).await;
        let reason = match &ending {
            Ending::Idle => Some((close_code::POLICY, "idle timeout".to_string())),
            Ending::TooLarge(n) => Some((
                close_code::SIZE,
                format!(
                    "message too large: {n} bytes, at most {}",
                    state.config.max_message_bytes
                ),
            )),
            Ending::Binary => Some((
                close_code::UNSUPPORTED,
                "binary frames are not accepted".to_string(),
            )),
            Ending::Malformed => Some((
                close_code::INVALID,
                "malformed signaling message".to_string(),
            )),
            Ending::ShuttingDown => Some((close_code::AWAY, "server shutting down".to_string())),
            Ending::Left | Ending::Broken => None,
        };
        if let Some((code, text)) = &reason {
            if !matches!(ending, Ending::ShuttingDown) {
                state.metrics.refused(RefusalReason::ProtocolViolation);
            }
            let _ = sender.send(Ok(close(*code, text)));
        }
        if matches!(ending, Ending::ShuttingDown) {
            // The peer's answering close frame says ours went out.
            let answered = async {
                while let Some(Ok(message)) = receiver.next().await {
                    if matches!(message, Message::Close(_)) {
                        break;
                    }
                }
            };
            let _ = tokio::time::timeout(CLOSE_GRACE, answered).await;
        }
        let (other, closed) = state.registry().leave(&room, peer_id, ip);
        // At shutdown the other player is not leaving, the server is: their
        // direct connection may well go on without us.
        let other = other.filter(|_| !matches!(ending, Ending::ShuttingDown));
        if let Some(channel) = other {
            let event = JsonPeerEvent::PeerLeft(peer_id).to_string();
            let _ = channel.send(Ok(Message::Text(event.into())));
        }
        info!(room = %tag, peer = %peer_id, ending = ?ending, "peer left");
        if closed {
            info!(room = %tag, "room closed");
        }
    }
}

/// Relays one peer's messages until it leaves or breaks a rule.
async fn serve_peer(
    state: &Shared,
    room: &str,
    peer_id: matchbox_protocol::PeerId,
    sender: &matchbox_signaling::common_logic::SignalingChannel,
    receiver: &mut futures::stream::SplitStream<axum::extract::ws::WebSocket>,
) -> Ending {
    let mut shutting_down = state.shutting_down.clone();
    let mut pings = tokio::time::interval_at(
        tokio::time::Instant::now() + state.config.ping_every,
        state.config.ping_every,
    );
    pings.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut idle_until = tokio::time::Instant::now() + state.config.idle_timeout;
    loop {
        if *shutting_down.borrow_and_update() {
            return Ending::ShuttingDown;
        }
        let next = tokio::select! {
            next = receiver.next() => Ok(next),
            () = tokio::time::sleep_until(idle_until) => Err(()),
            _ = pings.tick() => {
                let _ = sender.send(Ok(Message::Ping(axum::body::Bytes::new())));
                continue;
            }
            _ = shutting_down.changed() => return Ending::ShuttingDown,
        };
        idle_until = tokio::time::Instant::now() + state.config.idle_timeout;
        let message = match next {
            Err(_) => return Ending::Idle,
            Ok(None) | Ok(Some(Ok(Message::Close(_)))) => return Ending::Left,
            Ok(Some(Err(_))) => return Ending::Broken,
            Ok(Some(Ok(message))) => message,
        };
        state.registry().heard(room, peer_id, Instant::now());
        let text = match message {
            Message::Text(text) => text,
            Message::Binary(_) => return Ending::Binary,
            Message::Ping(_) | Message::Pong(_) => continue,
            Message::Close(_) => return Ending::Left,
        };
        if text.len() > state.config.max_message_bytes {
            return Ending::TooLarge(text.len());
        }
        let Ok(request) = text.as_str().parse::<JsonPeerRequest>() else {
            return Ending::Malformed;
        };
        match request {
            PeerRequest::KeepAlive => {}
            PeerRequest::Signal { receiver: to, data } => {
                // Only to the other peer of this room; never across rooms.
                let channel = state.registry().peer_in_room(room, peer_id, to);
                match channel {
                    Some(channel) => {
                        let event = JsonPeerEvent::Signal {
                            sender: peer_id,
                            data,
                        }
                        .to_string();
                        let _ = channel.send(Ok(Message::Text(event.into())));
                    }
                    None => {
                        warn!(room = %room_tag(room), peer = %peer_id, "signal to a peer not in this room dropped")
                    }
                }
            }
        }
    }
}
