//! The mailbox: the signed records of each game, kept so that a move
//! reaches a player who is offline.
//!
//! Every record is checked with the players' own verifier
//! ([`reversi_core::match_log`]) before it is stored: the server can refuse
//! garbage but cannot forge, reorder or change a record (it holds no key);
//! it can only withhold one, which the two logs expose when the players
//! next meet. It is a delivery cache: each player's own log stays the truth.
//!
//! HTTP, all answers JSON:
//! - `POST /mailbox/records[?room=ROOM]`, body one record's canonical bytes:
//!   `201` stored; `400` the record fails decoding or verification (with
//!   the verifier's reason); `404` a game the mailbox does not hold; `409`
//!   already stored (`"stored": true`), another record already at its place,
//!   or out of order; `403`/`507` a quota; `413` oversize; `429` a flood.
//!   With `?batch=1` the body is up to [`MAX_BATCH`] records, each after a
//!   2-byte big-endian length, taken in order as if posted one by one.
//! - `GET /mailbox/games/{GAME_ID}[?from=N][&wait=S]`: the records from `N`
//!   (base64). With `wait`, a request that finds none waits up to `S`
//!   seconds (at most [`MAX_WAIT`]) for one to arrive and answers the moment
//!   it does, so a player waiting for a move hears of it at once without
//!   asking again and again.
//! - `GET /mailbox/rooms/{ROOM}`: the games filed under a room.
//! - `GET /mailbox/players/{KEY}`: the games a key plays in.

mod arrivals;
pub mod store;

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use axum::Router;
use axum::body::Bytes;
use axum::extract::{ConnectInfo, DefaultBodyLimit, Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::{get, post};
use data_encoding::{BASE64, HEXLOWER};
use reversi_core::match_log::record::{
    BatchError, Body, MAX_LOG_RECORDS, MAX_RECORD_BYTES, decode_batch, hex,
};
use reversi_core::match_log::verify::Phase;
use reversi_core::match_log::{MatchVerifier, Record, Seat, verify_log};
use serde::Deserialize;
use serde_json::json;
use tracing::{info, warn};

use crate::rate_limit::{Rate, RateLimiter};
use crate::room_name::check_room_name;
use arrivals::Arrivals;
use store::{Append, Appended, GameRow, Store, StoreError};

/// The mailbox's limits.
#[derive(Debug, Clone)]
pub struct MailboxConfig {
    /// `:memory:`, a SQLite file path, or a `postgres://` URL.
    pub db: String,
    /// Games kept at once.
    pub max_games: u64,
    /// Unfinished games one host key may keep.
    pub max_games_per_key: u64,
    /// How long a game is kept after it ends, or after its deadline passed
    /// with no record.
    pub keep: Duration,
    /// How often one address may use the mailbox.
    pub rate: Rate,
}

impl Default for MailboxConfig {
    fn default() -> MailboxConfig {
        MailboxConfig {
            db: ":memory:".into(),
            max_games: 1_000_000,
            max_games_per_key: 64,
            keep: Duration::from_secs(30 * 24 * 60 * 60),
            // A visit asks two or three times per game; many players may
            // share one address behind a carrier's NAT. A flood is far more.
            rate: Rate {
                burst: 1000,
                refill: Duration::from_millis(10),
            },
        }
    }
}

/// Verifiers of recently used games, so a move is checked without
/// re-verifying the whole log (checked against the stored head first, as
/// another server instance may have appended since).
const CACHED_GAMES: usize = 4096;

/// How quickly the database must answer for the mailbox to be ready.
const READY_WITHIN: Duration = Duration::from_secs(2);

/// Why the mailbox is not ready to serve.
#[derive(Debug, thiserror::Error)]
pub enum NotReady {
    /// The database answered with an error.
    #[error("{0}")]
    Database(StoreError),
    /// The database did not answer in time.
    #[error("the mailbox database did not answer within {0:?}")]
    Slow(Duration),
    /// Records stored by other instances would not be heard.
    #[error(
        "the mailbox is not listening for records stored by other instances (PostgreSQL LISTEN)"
    )]
    NotListening,
}

/// The longest a `GET …?wait=S` waits for a record (below the usual 30 s
/// idle limits of proxies).
pub const MAX_WAIT: Duration = Duration::from_secs(25);

/// The mailbox, shared by its handlers.
#[derive(Clone)]
pub struct Mailbox {
    store: Store,
    config: Arc<MailboxConfig>,
    limiter: Arc<Mutex<RateLimiter>>,
    cache: Arc<Mutex<HashMap<String, MatchVerifier>>>,
    arrivals: Arrivals,
    /// Database failures since the start (for `/metrics`).
    database_errors: Arc<AtomicU64>,
    /// Turns true when the server shuts down: waiting requests answer then.
    shutting_down: Option<tokio::sync::watch::Receiver<bool>>,
}

impl std::fmt::Debug for Mailbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mailbox")
            .field("config", &self.config)
            .finish()
    }
}

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

fn answer(status: StatusCode, body: serde_json::Value) -> Response {
    crate::fresh_json(status, body)
}

fn refuse(status: StatusCode, reason: impl Into<String>) -> Response {
    let reason = reason.into();
    warn!(status = status.as_u16(), %reason, "mailbox refused");
    answer(status, json!({ "error": reason }))
}

/// Runs a request's handler to its end even when its client goes away.
/// A query cancelled half-way can make sqlx close the pool's connection:
/// for `:memory:` (one connection) that lost the whole database, and every
/// request after it failed with 503 (seen in the soak, once clients began
/// sending a look twice and closing the slower copy). A request that
/// waits for a record then waits out its time (at most 25 s, and within
/// the limit of waiting requests).
pub(crate) async fn to_the_end(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    match tokio::spawn(next.run(request)).await {
        Ok(response) => response,
        Err(e) => {
            warn!("a mailbox request failed: {e}");
            answer(
                StatusCode::INTERNAL_SERVER_ERROR,
                json!({ "error": "the request failed inside the server; try again" }),
            )
        }
    }
}

/// The 503 for a database failure, with what failed.
fn unavailable(e: &StoreError) -> Response {
    answer(
        StatusCode::SERVICE_UNAVAILABLE,
        json!({ "error": format!("the mailbox database is unavailable; try again ({})", e.reason()) }),
    )
}

/// A 64-character lowercase hex digest or key from a path.
pub(crate) fn checked_hex32(text: &str, what: &str) -> Result<String, String> {
    let lower = text.to_ascii_lowercase();
    match HEXLOWER.decode(lower.as_bytes()) {
        Ok(bytes) if bytes.len() == 32 => Ok(lower),
        _ => Err(format!(
            "{what} must be 64 hex digits, found {:?}",
            truncate(text)
        )),
    }
}

fn truncate(text: &str) -> String {
    text.chars().take(80).collect()
}

#[derive(Debug, Deserialize)]
struct PostQuery {
    room: Option<String>,
    /// Present: the body is a batch of records (see [`post_batch`]).
    batch: Option<String>,
}

#[derive(Debug, Deserialize)]
struct FromQuery {
    from: Option<u32>,
    /// Seconds to wait for a record when there is none yet.
    wait: Option<u32>,
}

impl Mailbox {
    /// Opens the database and the mailbox on it.
    pub async fn open(config: MailboxConfig) -> Result<Mailbox, StoreError> {
        let store = Store::open(&config.db).await?;
        let arrivals = Arrivals::default();
        if store.shared_url().is_none() {
            arrivals.alone();
        }
        Ok(Mailbox {
            store,
            limiter: Arc::new(Mutex::new(RateLimiter::new(config.rate))),
            config: Arc::new(config),
            cache: Arc::default(),
            arrivals,
            database_errors: Arc::default(),
            shutting_down: None,
        })
    }

    /// Waiting requests answer when `shutting_down` turns true.
    pub fn shut_down_with(&mut self, shutting_down: tokio::sync::watch::Receiver<bool>) {
        self.shutting_down = Some(shutting_down);
    }

    /// On a database that other instances share (PostgreSQL), listens for
    /// the records they store, so that a look waiting here hears of them
    /// at once; until the server shuts down.
    pub fn spawn_listener(&self) -> Option<tokio::task::JoinHandle<()>> {
        let url = self.store.shared_url()?.to_string();
        Some(
            self.arrivals
                .spawn_listener(url, self.shutting_down.clone()),
        )
    }

    /// Counts and logs a database failure; its 503.
    fn database_failed(&self, e: StoreError) -> Response {
        self.database_errors.fetch_add(1, Ordering::Relaxed);
        warn!("mailbox database failed: {e}");
        unavailable(&e)
    }

    /// Its figures for `/metrics`.
    pub fn gauges(&self) -> crate::metrics::MailboxGauges {
        crate::metrics::MailboxGauges {
            database_errors: self.database_errors.load(Ordering::Relaxed),
            listening: self.arrivals.listening(),
        }
    }

    /// Whether the mailbox can serve: its database answers within a
    /// moment, and (on a shared database) records stored by other
    /// instances are heard. `Err` says what is wrong.
    pub async fn ready(&self) -> Result<(), NotReady> {
        match tokio::time::timeout(READY_WITHIN, self.store.ping()).await {
            Err(_) => return Err(NotReady::Slow(READY_WITHIN)),
            Ok(Err(e)) => {
                self.database_errors.fetch_add(1, Ordering::Relaxed);
                return Err(NotReady::Database(e));
            }
            Ok(Ok(())) => {}
        }
        if !self.arrivals.listening() {
            return Err(NotReady::NotListening);
        }
        Ok(())
    }

    /// The routes, under `/mailbox`.
    pub fn routes<S>(&self) -> Router<S> {
        Router::new()
            .route(
                "/mailbox/records",
                // Larger bodies than a record get the mailbox's own 413 with
                // its reason; axum's plain one only past 64 KiB.
                post(post_record).layer(DefaultBodyLimit::max(64 * 1024)),
            )
            .route("/mailbox/games/{game}", get(get_game))
            .route("/mailbox/rooms/{room}", get(get_room))
            .route("/mailbox/players/{key}", get(get_player))
            .layer(axum::middleware::from_fn(to_the_end))
            .with_state(self.clone())
    }

    /// Drops expired games now and then, until the server stops.
    pub fn spawn_purger(&self) -> tokio::task::JoinHandle<()> {
        let store = self.store.clone();
        tokio::spawn(async move {
            let mut every = tokio::time::interval(Duration::from_secs(60));
            loop {
                every.tick().await;
                match store.purge(now_ms()).await {
                    Ok(0) => {}
                    Ok(n) => info!(games = n, "mailbox: expired games dropped"),
                    Err(e) => warn!("mailbox purge failed: {e}"),
                }
            }
        })
    }

    /// The database, shared with the leaderboard.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Closes the database.
    pub async fn close(&self) {
        self.store.close().await;
    }

    /// The 429 for an address over its rate, if it is.
    fn throttle(&self, ip: IpAddr) -> Option<Response> {
        let allowed = self
            .limiter
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .allow(ip, Instant::now());
        (!allowed).then(|| {
            refuse(
                StatusCode::TOO_MANY_REQUESTS,
                "too many mailbox requests from your address; try again in a few seconds",
            )
        })
    }

    fn expires(&self, now: i64, ended: bool, deadline_secs: u32) -> i64 {
        let keep = self.config.keep.as_millis() as i64;
        let wait = if ended {
            0
        } else {
            i64::from(deadline_secs) * 1000
        };
        now.saturating_add(wait).saturating_add(keep)
    }

    /// Takes one decoded record: a genesis opens a game, any other record
    /// extends one.
    async fn take(&self, record: &Record, room: Option<&str>) -> Result<Posted, Box<Response>> {
        let content = record.content();
        if content.seq as usize >= MAX_LOG_RECORDS {
            return refused(
                StatusCode::BAD_REQUEST,
                format!("a game has at most {MAX_LOG_RECORDS} records"),
            );
        }
        let is_genesis =
            content.seq == 0 && matches!(content.body, Body::Genesis(_) | Body::OpenGenesis(_));
        if is_genesis {
            self.store_genesis(record, room).await
        } else {
            self.store_next(record).await
        }
    }

    /// The verified state of a stored game, from the cache when it is current.
    async fn verifier(&self, row: &GameRow) -> Result<MatchVerifier, Box<Response>> {
        let cached = self
            .cache
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(&row.game_id)
            .filter(|v| v.record_count() == row.records as usize && hex(&v.last_hash()) == row.head)
            .cloned();
        if let Some(v) = cached {
            return Ok(v);
        }
        let bytes = self
            .store
            .records(&row.game_id, 0)
            .await
            .map_err(|e| Box::new(self.database_failed(e)))?;
        let records: Result<Vec<Record>, _> = bytes.iter().map(|b| Record::decode(b)).collect();
        let verified = records.ok().and_then(|r| verify_log(&r).ok());
        verified.ok_or_else(|| {
            warn!(game = %row.game_id, "a stored game no longer verifies");
            Box::new(answer(
                StatusCode::INTERNAL_SERVER_ERROR,
                json!({ "error": "the stored records of this game do not verify" }),
            ))
        })
    }

    fn remember(&self, game_id: &str, verifier: MatchVerifier) {
        let mut cache = self.cache.lock().unwrap_or_else(|p| p.into_inner());
        if cache.len() >= CACHED_GAMES && !cache.contains_key(game_id) {
            // Cheap and bounded; a miss only costs a re-verification.
            cache.clear();
        }
        cache.insert(game_id.to_string(), verifier);
    }

    async fn store_genesis(
        &self,
        record: &Record,
        room: Option<&str>,
    ) -> Result<Posted, Box<Response>> {
        let verifier = match MatchVerifier::start(record) {
            Ok(v) => v,
            Err(e) => return refused(StatusCode::BAD_REQUEST, e.to_string()),
        };
        let game_id = hex(&verifier.game_id());
        let host_key = hex(&verifier.host().key.to_bytes());
        let guest_key = verifier.player(Seat::Guest).map(|g| hex(&g.key.to_bytes()));
        match self.store.game(&game_id).await {
            Ok(Some(_)) => return Ok(Posted::Already),
            Ok(None) => {}
            Err(e) => return Err(Box::new(self.database_failed(e))),
        }
        let (all, of_host) = match self.store.counts(&host_key).await {
            Ok(counts) => counts,
            Err(e) => return Err(Box::new(self.database_failed(e))),
        };
        if all >= self.config.max_games {
            return refused(
                StatusCode::INSUFFICIENT_STORAGE,
                format!("the mailbox is full ({all} games); try another server or later"),
            );
        }
        if of_host >= self.config.max_games_per_key {
            return refused(
                StatusCode::FORBIDDEN,
                format!(
                    "this host key has {of_host} unfinished games in the mailbox, the most it keeps"
                ),
            );
        }
        let now = now_ms();
        let bytes = record.to_bytes();
        let expires = self.expires(now, false, verifier.deadline_secs());
        let created = self
            .store
            .create(
                &game_id,
                &host_key,
                guest_key.as_deref(),
                room,
                &bytes,
                verifier.deadline_secs(),
                now,
                expires,
            )
            .await;
        match created {
            Ok(true) => {
                info!(game = %game_id, "mailbox: game created");
                self.remember(&game_id, verifier);
                self.arrivals.arrived(&game_id);
                Ok(Posted::Stored)
            }
            Ok(false) => Ok(Posted::Already),
            Err(e) => Err(Box::new(self.database_failed(e))),
        }
    }

    async fn store_next(&self, record: &Record) -> Result<Posted, Box<Response>> {
        let content = record.content();
        let game_id = hex(&content.game_id);
        let row = match self.store.game(&game_id).await {
            Ok(Some(row)) => row,
            Ok(None) => {
                return refused(
                    StatusCode::NOT_FOUND,
                    format!("the mailbox holds no game {game_id}; post its genesis first"),
                );
            }
            Err(e) => return Err(Box::new(self.database_failed(e))),
        };
        let seq = content.seq;
        if seq < row.records {
            return match self.store.record(&game_id, seq).await {
                Ok(Some(bytes)) if bytes == record.to_bytes() => Ok(Posted::Already),
                Ok(_) => refused(
                    StatusCode::CONFLICT,
                    format!(
                        "the mailbox already holds a different record {seq} of this game; it keeps the first (compare the two logs)"
                    ),
                ),
                Err(e) => Err(Box::new(self.database_failed(e))),
            };
        }
        if seq > row.records {
            return refused(
                StatusCode::CONFLICT,
                format!(
                    "record {seq} is out of order: the mailbox holds {} records of this game, so the next is record {}",
                    row.records, row.records
                ),
            );
        }
        let mut verifier = match self.verifier(&row).await {
            Ok(v) => v,
            Err(response) => return Err(response),
        };
        if let Err(e) = verifier.append(record) {
            return refused(StatusCode::BAD_REQUEST, e.to_string());
        }
        let guest_key = match &content.body {
            Body::OpenAccept(_) => verifier.player(Seat::Guest).map(|g| hex(&g.key.to_bytes())),
            _ => None,
        };
        let now = now_ms();
        let ended = verifier.phase() == Phase::Ended;
        let bytes = record.to_bytes();
        let head = hex(&record.hash());
        let appended = self
            .store
            .append(Append {
                game_id: &game_id,
                seq,
                bytes: &bytes,
                head: &head,
                guest_key: guest_key.as_deref(),
                ended,
                now_ms: now,
                expires_ms: self.expires(now, ended, row.deadline_secs),
            })
            .await;
        match appended {
            Ok(Appended::Stored) => {
                self.remember(&game_id, verifier);
                self.arrivals.arrived(&game_id);
                Ok(Posted::Stored)
            }
            Ok(Appended::Duplicate) => Ok(Posted::Already),
            Ok(Appended::Fork) => refused(
                StatusCode::CONFLICT,
                format!("the mailbox already holds a different record {seq} of this game"),
            ),
            Ok(Appended::Raced) => refused(
                StatusCode::CONFLICT,
                format!(
                    "record {seq} of this game was stored by another request at the same moment; post again"
                ),
            ),
            Err(e) => Err(Box::new(self.database_failed(e))),
        }
    }
}

/// How a record was taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Posted {
    /// Stored now.
    Stored,
    /// The same record was already there.
    Already,
}

/// Returns once `flag` turns true; never without a flag.
async fn until_true(flag: &mut Option<tokio::sync::watch::Receiver<bool>>) {
    match flag {
        Some(flag) => {
            let _ = flag.wait_for(|set| *set).await;
        }
        None => std::future::pending().await,
    }
}

fn refused(status: StatusCode, reason: impl Into<String>) -> Result<Posted, Box<Response>> {
    Err(Box::new(refuse(status, reason)))
}

fn stored(game_id: &str, seq: u32) -> Response {
    answer(
        StatusCode::CREATED,
        json!({ "game_id": game_id, "seq": seq, "records": seq + 1, "stored": true }),
    )
}

fn already_stored(game_id: &str, seq: u32) -> Response {
    answer(
        StatusCode::CONFLICT,
        json!({
            "error": format!("record {seq} of this game is already stored (a replay)"),
            "game_id": game_id,
            "seq": seq,
            "stored": true,
        }),
    )
}

fn game_json(row: &GameRow) -> serde_json::Value {
    json!({
        "game_id": row.game_id,
        "host_key": row.host_key,
        "guest_key": row.guest_key,
        "records": row.records,
        "head": row.head,
        "ended": row.ended,
    })
}

async fn post_record(
    ConnectInfo(origin): ConnectInfo<SocketAddr>,
    Query(query): Query<PostQuery>,
    State(mailbox): State<Mailbox>,
    body: Bytes,
) -> Response {
    if let Some(refused) = mailbox.throttle(origin.ip()) {
        return refused;
    }
    if query.batch.is_some() {
        return post_batch(&mailbox, &body).await;
    }
    if body.len() > MAX_RECORD_BYTES {
        return refuse(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "a record is at most {MAX_RECORD_BYTES} bytes, this is {}",
                body.len()
            ),
        );
    }
    if let Some(room) = &query.room
        && let Err(e) = check_room_name(Some(room))
    {
        return refuse(StatusCode::BAD_REQUEST, format!("room: {e}"));
    }
    let record = match Record::decode(&body) {
        Ok(record) => record,
        Err(e) => return refuse(StatusCode::BAD_REQUEST, format!("not a record: {e}")),
    };
    let game_id = hex(&record.content().game_id);
    let seq = record.content().seq;
    match mailbox.take(&record, query.room.as_deref()).await {
        Ok(Posted::Stored) => stored(&game_id, seq),
        Ok(Posted::Already) => already_stored(&game_id, seq),
        Err(refusal) => *refusal,
    }
}

/// The most records one batch carries (48 of the largest fit the 64 KiB
/// body limit; a game is a few batches).
pub const MAX_BATCH: usize = 48;

/// `POST /mailbox/records?batch=1`: records in order, each as a 2-byte
/// big-endian length and its canonical bytes. They are taken one by one
/// as if posted alone; the first refusal ends the batch with its answer
/// (those before it stay stored). `201` with `"posted"`, the count taken.
async fn post_batch(mailbox: &Mailbox, body: &[u8]) -> Response {
    let records = match decode_batch(body, MAX_BATCH) {
        Ok(records) => records,
        Err(e @ BatchError::TooMany { .. }) => {
            return refuse(StatusCode::PAYLOAD_TOO_LARGE, e.to_string());
        }
        Err(e) => return refuse(StatusCode::BAD_REQUEST, e.to_string()),
    };
    for record in &records {
        if let Err(refusal) = mailbox.take(record, None).await {
            return *refusal;
        }
    }
    answer(StatusCode::CREATED, json!({ "posted": records.len() }))
}

async fn get_game(
    ConnectInfo(origin): ConnectInfo<SocketAddr>,
    Path(game): Path<String>,
    Query(query): Query<FromQuery>,
    State(mailbox): State<Mailbox>,
) -> Response {
    if let Some(refused) = mailbox.throttle(origin.ip()) {
        return refused;
    }
    let game_id = match checked_hex32(&game, "a game id") {
        Ok(id) => id,
        Err(reason) => return refuse(StatusCode::BAD_REQUEST, reason),
    };
    let from = query.from.unwrap_or(0);
    let wait = Duration::from_secs(query.wait.unwrap_or(0).into()).min(MAX_WAIT);
    let deadline = tokio::time::Instant::now() + wait;
    let waiting = if wait.is_zero() {
        None
    } else {
        mailbox.arrivals.wait_for(&game_id)
    };
    let mut shutting_down = mailbox.shutting_down.clone();
    loop {
        // Registered before the look, so that a record stored between the
        // look and the wait still wakes this request.
        let arrival = waiting.as_ref().map(|w| w.notify.notified());
        tokio::pin!(arrival);
        if let Some(arrival) = arrival.as_mut().as_pin_mut() {
            arrival.enable();
        }
        let row = match mailbox.store.game(&game_id).await {
            Ok(Some(row)) => row,
            Ok(None) => {
                return refuse(
                    StatusCode::NOT_FOUND,
                    format!("the mailbox holds no game {game_id}"),
                );
            }
            Err(e) => return mailbox.database_failed(e),
        };
        let records = match mailbox.store.records(&game_id, from).await {
            Ok(records) => records,
            Err(e) => return mailbox.database_failed(e),
        };
        let closing = shutting_down.as_ref().is_some_and(|s| *s.borrow());
        let answer_now =
            !records.is_empty() || row.ended || closing || tokio::time::Instant::now() >= deadline;
        let Some(arrival) = arrival.as_pin_mut().filter(|_| !answer_now) else {
            let mut body = game_json(&row);
            body["from"] = json!(from);
            body["list"] = json!(records.iter().map(|r| BASE64.encode(r)).collect::<Vec<_>>());
            return answer(StatusCode::OK, body);
        };
        let closed = until_true(&mut shutting_down);
        // Whichever comes first, the loop looks again and answers.
        tokio::select! {
            _ = arrival => {}
            _ = tokio::time::sleep_until(deadline) => {}
            _ = closed => {}
        }
    }
}

async fn get_room(
    ConnectInfo(origin): ConnectInfo<SocketAddr>,
    Path(room): Path<String>,
    State(mailbox): State<Mailbox>,
) -> Response {
    if let Some(refused) = mailbox.throttle(origin.ip()) {
        return refused;
    }
    if let Err(e) = check_room_name(Some(&room)) {
        return refuse(StatusCode::BAD_REQUEST, e.to_string());
    }
    match mailbox.store.in_room(&room, 8).await {
        Ok(rows) => answer(
            StatusCode::OK,
            json!({ "games": rows.iter().map(game_json).collect::<Vec<_>>() }),
        ),
        Err(e) => mailbox.database_failed(e),
    }
}

async fn get_player(
    ConnectInfo(origin): ConnectInfo<SocketAddr>,
    Path(key): Path<String>,
    State(mailbox): State<Mailbox>,
) -> Response {
    if let Some(refused) = mailbox.throttle(origin.ip()) {
        return refused;
    }
    let key = match checked_hex32(&key, "a player key") {
        Ok(key) => key,
        Err(reason) => return refuse(StatusCode::BAD_REQUEST, reason),
    };
    let limit = (mailbox.config.max_games_per_key as u32).saturating_mul(4);
    match mailbox.store.of_player(&key, limit).await {
        Ok(rows) => answer(
            StatusCode::OK,
            json!({ "games": rows.iter().map(game_json).collect::<Vec<_>>() }),
        ),
        Err(e) => mailbox.database_failed(e),
    }
}
