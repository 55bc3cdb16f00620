//! The opt-in leaderboard: finished games, audited with the players' own
//! verifier when submitted, rated with the same Glicko-2 code as
//! `reversi ratings` ([`reversi_core::ratings`]), so anyone can download the
//! counted logs and recompute the table.
//!
//! A game counts while both players' latest signed statement
//! ([`reversi_core::membership`]) says *join*. A submission is refused, and
//! nothing of it stored, when the log fails the audit, the game is not
//! finished, it is already stored, or a player has not joined.
//!
//! HTTP:
//! - `POST /games`, body a log file: `201` counted; `400` fails the audit;
//!   `422` unfinished; `403` a player has not joined; `409` already stored
//!   (or a different ending of the game is); `413` oversize; `429` a flood.
//! - `GET /games`: the counted games (JSON); `GET /games/{GAME_ID}`: the log.
//! - `POST /leaderboard/members`, body a signed statement (JSON): `200`
//!   with the key's membership; `400` bad statement; `409` older than the
//!   key's latest.
//! - `GET /leaderboard/members/{KEY}`: whether a key has joined.
//! - `GET /leaderboard`: the table as JSON, or as a page (`?format=html`,
//!   or a browser's `Accept: text/html`).

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use axum::Router;
use axum::body::Bytes;
use axum::extract::{ConnectInfo, DefaultBodyLimit, Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use data_encoding::HEXLOWER;
use reversi_core::match_log::PublicKey;
use reversi_core::match_log::audit::audit_log_bytes;
use reversi_core::match_log::log_file::MAX_FILE_BYTES;
use reversi_core::match_log::record::hex;
use reversi_core::membership::{Membership, Statement};
use reversi_core::ratings::{Ledger, RatedGame, Unrated, table_json};
use serde::Deserialize;
use serde_json::{Value, json};
use sqlx::Row;
use tracing::{info, warn};

use crate::mailbox::checked_hex32;
use crate::mailbox::store::{Store, StoreError};
use crate::rate_limit::{Rate, RateLimiter};

/// The leaderboard, shared by its handlers.
#[derive(Clone)]
pub struct Leaderboard {
    store: Store,
    limiter: Arc<Mutex<RateLimiter>>,
}

impl std::fmt::Debug for Leaderboard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Leaderboard").finish_non_exhaustive()
    }
}

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

fn refuse(status: StatusCode, reason: impl Into<String>) -> Response {
    let reason = reason.into();
    warn!(status = status.as_u16(), %reason, "leaderboard refused");
    crate::fresh_json(status, json!({ "error": reason }))
}

fn database_failed(e: impl std::fmt::Display) -> Response {
    warn!("leaderboard database failed: {e}");
    crate::fresh_json(
        StatusCode::SERVICE_UNAVAILABLE,
        json!({ "error": "the leaderboard database is unavailable; try again" }),
    )
}

/// A stored game's columns for rating, read without trusting the database.
fn rated_row(row: &sqlx::any::AnyRow) -> Result<RatedGame, String> {
    let text = |i: usize| row.try_get::<String, _>(i).map_err(|e| e.to_string());
    let digest = |i: usize| -> Result<[u8; 32], String> {
        let t = text(i)?;
        HEXLOWER
            .decode(t.as_bytes())
            .ok()
            .and_then(|b| <[u8; 32]>::try_from(b).ok())
            .ok_or_else(|| format!("column {i} is not a 32-byte hex value"))
    };
    let key = |i: usize| {
        digest(i).and_then(|b| PublicKey::from_bytes(&b).ok_or(format!("column {i}: no key")))
    };
    let int = |i: usize| row.try_get::<i64, _>(i).map_err(|e| e.to_string());
    Ok(RatedGame {
        game_id: digest(0)?,
        last: digest(1)?,
        day: u64::try_from(int(2)?).map_err(|e| e.to_string())?,
        host: (key(3)?, text(4)?),
        guest: (key(5)?, text(6)?),
        host_score: match int(7)? {
            2 => 1.0,
            1 => 0.5,
            _ => 0.0,
        },
    })
}

/// The columns [`rated_row`] reads, of counted games only.
const COUNTED: &str = "SELECT g.game_id, g.last_hash, g.day, g.host_key, g.host_name,
            g.guest_key, g.guest_name, g.host_points
     FROM leaderboard_games g
     JOIN leaderboard_members h ON h.player_key = g.host_key AND h.member = 1
     JOIN leaderboard_members u ON u.player_key = g.guest_key AND u.member = 1
     WHERE g.conflicted = 0";

impl Leaderboard {
    /// The leaderboard on the mailbox's database.
    pub fn new(store: Store, rate: Rate) -> Leaderboard {
        Leaderboard {
            store,
            limiter: Arc::new(Mutex::new(RateLimiter::new(rate))),
        }
    }

    /// Its HTTP routes: games under `/games`, standings and memberships under `/leaderboard`.
    pub fn routes<S>(&self) -> Router<S> {
        Router::new()
            .route(
                "/games",
                // Larger bodies get the leaderboard's own 413 with its reason.
                post(post_game)
                    .get(get_games)
                    .layer(DefaultBodyLimit::max(2 * MAX_FILE_BYTES)),
            )
            .route("/games/{game}", get(get_log))
            .route("/leaderboard", get(get_leaderboard))
            .route("/leaderboard/members", post(post_member))
            .route("/leaderboard/members/{key}", get(get_member))
            // Its queries share the mailbox's database (see there).
            .layer(axum::middleware::from_fn(crate::mailbox::to_the_end))
            .with_state(self.clone())
    }

    fn throttle(&self, origin: SocketAddr) -> Option<Response> {
        let allowed = self
            .limiter
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .allow(origin.ip(), Instant::now());
        (!allowed).then(|| {
            refuse(
                StatusCode::TOO_MANY_REQUESTS,
                "too many leaderboard requests from your address; try again in a few seconds",
            )
        })
    }

    async fn is_member(&self, key: &str) -> Result<bool, StoreError> {
        let row = sqlx::query("SELECT member FROM leaderboard_members WHERE player_key = $1")
            .bind(key)
            .fetch_optional(self.store.pool())
            .await?;
        Ok(match row {
            Some(row) => row.try_get::<i64, _>(0)? == 1,
            None => false,
        })
    }

    /// The counted games, by game id.
    async fn counted(&self) -> Result<Vec<RatedGame>, Response> {
        let rows = sqlx::query(&format!("{COUNTED} ORDER BY g.game_id"))
            .fetch_all(self.store.pool())
            .await
            .map_err(database_failed)?;
        rows.iter()
            .map(rated_row)
            .collect::<Result<_, _>>()
            .map_err(database_failed)
    }
}

async fn post_game(
    ConnectInfo(origin): ConnectInfo<SocketAddr>,
    State(board): State<Leaderboard>,
    body: Bytes,
) -> Response {
    if let Some(refused) = board.throttle(origin) {
        return refused;
    }
    if body.len() > MAX_FILE_BYTES {
        return refuse(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "a log file is at most {MAX_FILE_BYTES} bytes, this is {}",
                body.len()
            ),
        );
    }
    let (records, verifier) = match audit_log_bytes(&body) {
        Ok(audited) => audited,
        Err(e) => {
            return refuse(
                StatusCode::BAD_REQUEST,
                format!("the log fails the audit: {e}"),
            );
        }
    };
    let game = match RatedGame::of(&records, &verifier) {
        Ok(game) => game,
        Err(e) => return refuse(StatusCode::UNPROCESSABLE_ENTITY, e.to_string()),
    };
    let game_id = hex(&game.game_id);
    for (seat, (key, name)) in [("host", &game.host), ("guest", &game.guest)] {
        match board.is_member(&hex(&key.to_bytes())).await {
            Ok(true) => {}
            Ok(false) => {
                return refuse(
                    StatusCode::FORBIDDEN,
                    format!(
                        "the {seat} {name} (key {}) has not joined this leaderboard (`reversi leaderboard --join`); nothing stored",
                        key.fingerprint()
                    ),
                );
            }
            Err(e) => return database_failed(e),
        }
    }
    let stored = sqlx::query("SELECT last_hash FROM leaderboard_games WHERE game_id = $1")
        .bind(&game_id)
        .fetch_optional(board.store.pool())
        .await;
    match stored {
        Ok(Some(row)) => {
            let same = row.try_get::<String, _>(0).ok() == Some(hex(&game.last));
            if same {
                let reason = Unrated::Duplicate {
                    game_id: game_id.clone(),
                };
                return refuse(StatusCode::CONFLICT, reason.to_string());
            }
            // Someone signed two endings: as `reversi ratings` does with
            // both logs, neither counts (the first stays, marked).
            let marked =
                sqlx::query("UPDATE leaderboard_games SET conflicted = 1 WHERE game_id = $1")
                    .bind(&game_id)
                    .execute(board.store.pool())
                    .await;
            if let Err(e) = marked {
                return database_failed(e);
            }
            return refuse(
                StatusCode::CONFLICT,
                Unrated::Conflict { game_id }.to_string(),
            );
        }
        Ok(None) => {}
        Err(e) => return database_failed(e),
    }
    let points: i64 = match game.host_score {
        s if s > 0.75 => 2,
        s if s < 0.25 => 0,
        _ => 1,
    };
    let inserted = sqlx::query(
        "INSERT INTO leaderboard_games (game_id, last_hash, day, host_key, host_name,
             guest_key, guest_name, host_points, log, submitted_ms)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
         ON CONFLICT (game_id) DO NOTHING",
    )
    .bind(&game_id)
    .bind(hex(&game.last))
    .bind(i64::try_from(game.day).unwrap_or(i64::MAX))
    .bind(hex(&game.host.0.to_bytes()))
    .bind(&game.host.1)
    .bind(hex(&game.guest.0.to_bytes()))
    .bind(&game.guest.1)
    .bind(points)
    .bind(body.to_vec())
    .bind(now_ms())
    .execute(board.store.pool())
    .await;
    match inserted {
        Ok(done) if done.rows_affected() == 1 => {
            info!(game = %game_id, "leaderboard: game counted");
            crate::fresh_json(
                StatusCode::CREATED,
                json!({ "counted": true, "game_id": game_id }),
            )
        }
        Ok(_) => refuse(
            StatusCode::CONFLICT,
            Unrated::Duplicate { game_id }.to_string(),
        ),
        Err(e) => database_failed(e),
    }
}

async fn get_games(
    ConnectInfo(origin): ConnectInfo<SocketAddr>,
    State(board): State<Leaderboard>,
) -> Response {
    if let Some(refused) = board.throttle(origin) {
        return refused;
    }
    let games = match board.counted().await {
        Ok(games) => games,
        Err(response) => return response,
    };
    let listed: Vec<Value> = games
        .iter()
        .map(|g| {
            let id = hex(&g.game_id);
            json!({
                "game_id": id,
                "day": g.day,
                "host": { "name": g.host.1, "key": hex(&g.host.0.to_bytes()) },
                "guest": { "name": g.guest.1, "key": hex(&g.guest.0.to_bytes()) },
                "host_score": g.host_score,
                "log": format!("/games/{id}"),
            })
        })
        .collect();
    crate::fresh_json(StatusCode::OK, json!({ "games": listed }))
}

async fn get_log(
    ConnectInfo(origin): ConnectInfo<SocketAddr>,
    State(board): State<Leaderboard>,
    Path(game): Path<String>,
) -> Response {
    if let Some(refused) = board.throttle(origin) {
        return refused;
    }
    let game = match checked_hex32(&game, "a game id") {
        Ok(game) => game,
        Err(e) => return refuse(StatusCode::BAD_REQUEST, e),
    };
    let row = sqlx::query(
        "SELECT g.log FROM leaderboard_games g
         JOIN leaderboard_members h ON h.player_key = g.host_key AND h.member = 1
         JOIN leaderboard_members u ON u.player_key = g.guest_key AND u.member = 1
         WHERE g.game_id = $1 AND g.conflicted = 0",
    )
    .bind(&game)
    .fetch_optional(board.store.pool())
    .await;
    match row {
        Ok(Some(row)) => match row.try_get::<Vec<u8>, _>(0) {
            Ok(log) => {
                let mut response = (StatusCode::OK, log).into_response();
                let headers = response.headers_mut();
                headers.insert(
                    header::CONTENT_TYPE,
                    HeaderValue::from_static("application/x-ndjson"),
                );
                headers.insert(
                    header::ACCESS_CONTROL_ALLOW_ORIGIN,
                    HeaderValue::from_static("*"),
                );
                response
            }
            Err(e) => database_failed(e),
        },
        Ok(None) => refuse(
            StatusCode::NOT_FOUND,
            format!("no counted game {game} on this leaderboard"),
        ),
        Err(e) => database_failed(e),
    }
}

#[derive(Debug, Deserialize)]
struct FormatQuery {
    format: Option<String>,
}

async fn get_leaderboard(
    ConnectInfo(origin): ConnectInfo<SocketAddr>,
    State(board): State<Leaderboard>,
    Query(query): Query<FormatQuery>,
    headers: HeaderMap,
) -> Response {
    if let Some(refused) = board.throttle(origin) {
        return refused;
    }
    let games = match board.counted().await {
        Ok(games) => games,
        Err(response) => return response,
    };
    let mut ledger = Ledger::new();
    for game in games {
        // Stored games are distinct by their key; nothing to refuse here.
        let _ = ledger.add_game(game);
    }
    let table = ledger.ratings();
    let count = ledger.games().count();
    let html = match query.format.as_deref() {
        Some("html") => true,
        Some("json") => false,
        Some(other) => {
            return refuse(
                StatusCode::BAD_REQUEST,
                format!("format must be json or html, found {:?}", truncate(other)),
            );
        }
        None => headers
            .get(header::ACCEPT)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|accept| accept.contains("text/html")),
    };
    let mut value = table_json(&table, count);
    value["skipped"] = json!([]);
    if !html {
        return crate::fresh_json(StatusCode::OK, value);
    }
    let mut response = (StatusCode::OK, page(&value)).into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

fn truncate(text: &str) -> String {
    text.chars().take(40).collect()
}

/// Text for HTML, with the five special characters escaped.
fn escape(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '<' => "&lt;".to_string(),
            '>' => "&gt;".to_string(),
            '&' => "&amp;".to_string(),
            '"' => "&quot;".to_string(),
            '\'' => "&#39;".to_string(),
            c => c.to_string(),
        })
        .collect()
}

/// The plain page of the table (players' names are theirs: escaped).
fn page(table: &Value) -> String {
    let mut rows = String::new();
    for p in table["players"].as_array().into_iter().flatten() {
        let number = |field: &str, places: usize| {
            p[field]
                .as_f64()
                .map_or(String::new(), |v| format!("{v:.places$}"))
        };
        rows.push_str(&format!(
            "<tr><td>{}</td><td>{}</td><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}–{}–{}</td></tr>\n",
            p["rank"],
            escape(p["name"].as_str().unwrap_or("")),
            escape(p["fingerprint"].as_str().unwrap_or("")),
            number("rating", 1),
            number("deviation", 1),
            number("volatility", 5),
            p["games"],
            p["wins"],
            p["draws"],
            p["losses"],
        ));
    }
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Reversi leaderboard</title>\
<style>body{{font-family:sans-serif;margin:2em}}table{{border-collapse:collapse}}td,th{{padding:.3em .8em;border-bottom:1px solid #ccc;text-align:left}}</style></head>\
<body><h1>Reversi leaderboard</h1>\n<p>{} games counted. {}. Every counted log is at <a href=\"/games\">/games</a>: \
<code>reversi ratings</code> on them prints this table. A rating says how a key has done against the keys it met here; \
it cannot tell who holds a key, and one person can make many.</p>\n\
<table><tr><th>#</th><th>Name</th><th>Key</th><th>Rating</th><th>RD</th><th>Volatility</th><th>Games</th><th>Won–drawn–lost</th></tr>\n{rows}</table></body></html>\n",
        table["games"],
        escape(table["system"].as_str().unwrap_or("")),
    )
}

/// How far ahead of the server's clock a statement's timestamp may be.
const CLOCK_ALLOWANCE_MS: u64 = 10 * 60 * 1000;

async fn post_member(
    ConnectInfo(origin): ConnectInfo<SocketAddr>,
    State(board): State<Leaderboard>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    if let Some(refused) = board.throttle(origin) {
        return refused;
    }
    let statement = match Statement::from_json(&body) {
        Ok(statement) => statement,
        Err(e) => return refuse(StatusCode::BAD_REQUEST, e.to_string()),
    };
    // Made for this server (as its clients name it), not replayed from another.
    let host = headers
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_ascii_lowercase();
    if statement.server() != host {
        return refuse(
            StatusCode::BAD_REQUEST,
            format!(
                "the statement is for another server ({:?}), not this one ({:?})",
                truncate(statement.server()),
                truncate(&host)
            ),
        );
    }
    // A clock far ahead would lock the key's membership until then.
    let latest = u64::try_from(now_ms()).unwrap_or(0) + CLOCK_ALLOWANCE_MS;
    if statement.timestamp_ms() > latest {
        return refuse(
            StatusCode::BAD_REQUEST,
            format!(
                "the statement is signed {} s in the future by this server's clock; check your clock",
                (statement.timestamp_ms() - latest + CLOCK_ALLOWANCE_MS) / 1000
            ),
        );
    }
    let key = hex(&statement.key().to_bytes());
    let member = i64::from(statement.membership() == Membership::Join);
    let at = i64::try_from(statement.timestamp_ms()).unwrap_or(i64::MAX);
    // Only a newer statement replaces the key's latest: an old one cannot
    // be replayed to undo it.
    let written = sqlx::query(
        "INSERT INTO leaderboard_members (player_key, member, statement_ms, statement)
         VALUES ($1, $2, $3, $4)
         ON CONFLICT (player_key) DO UPDATE
             SET member = excluded.member, statement_ms = excluded.statement_ms,
                 statement = excluded.statement
             WHERE leaderboard_members.statement_ms < excluded.statement_ms",
    )
    .bind(&key)
    .bind(member)
    .bind(at)
    .bind(statement.to_json().to_string())
    .execute(board.store.pool())
    .await;
    match written {
        Ok(done) if done.rows_affected() == 1 => {
            info!(key = %statement.key().fingerprint(), membership = statement.membership().word(), "leaderboard membership");
            crate::fresh_json(StatusCode::OK, json!({ "key": key, "member": member == 1 }))
        }
        Ok(_) => refuse(
            StatusCode::CONFLICT,
            "this key has a newer statement; sign a new one",
        ),
        Err(e) => database_failed(e),
    }
}

async fn get_member(
    ConnectInfo(origin): ConnectInfo<SocketAddr>,
    State(board): State<Leaderboard>,
    Path(key): Path<String>,
) -> Response {
    if let Some(refused) = board.throttle(origin) {
        return refused;
    }
    let key = match checked_hex32(&key, "a player key") {
        Ok(key) => key,
        Err(e) => return refuse(StatusCode::BAD_REQUEST, e),
    };
    match board.is_member(&key).await {
        Ok(member) => crate::fresh_json(StatusCode::OK, json!({ "key": key, "member": member })),
        Err(e) => database_failed(e),
    }
}
