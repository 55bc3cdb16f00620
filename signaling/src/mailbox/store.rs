//! The mailbox's database: SQLite (a file, or `:memory:`) or PostgreSQL,
//! through one sqlx `Any` pool. Every query is written once, in SQL both
//! speak; the schema has one migration directory per database.

use sqlx::any::{AnyPoolOptions, install_default_drivers};
use sqlx::{AnyPool, Row};

/// Why the database failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database could not be opened or migrated.
    #[error("cannot open the mailbox database {url}: {reason}")]
    Open {
        /// What was asked for (passwords removed).
        url: String,
        /// What failed.
        reason: String,
    },
    /// A query failed.
    #[error("mailbox database: {0}")]
    Query(#[from] sqlx::Error),
}

impl StoreError {
    /// What failed, in words fit for a client (no addresses, no SQL).
    pub fn reason(&self) -> &'static str {
        match self {
            StoreError::Open { .. } => "the database cannot be opened",
            StoreError::Query(sqlx::Error::PoolTimedOut) => {
                "no database connection came free in time"
            }
            StoreError::Query(sqlx::Error::Io(_) | sqlx::Error::Tls(_)) => {
                "the database cannot be reached"
            }
            StoreError::Query(sqlx::Error::Database(_)) => "the database refused a query",
            StoreError::Query(sqlx::Error::PoolClosed) => "the server is shutting down",
            StoreError::Query(_) => "the database failed",
        }
    }
}

/// How long a request waits for a database connection before it is told
/// the database is unavailable (sqlx's default is 30 s).
const ACQUIRE_WITHIN: std::time::Duration = std::time::Duration::from_secs(3);

/// A game as the mailbox keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRow {
    /// Hex game id.
    pub game_id: String,
    /// Hex host key.
    pub host_key: String,
    /// Hex guest key, once known.
    pub guest_key: Option<String>,
    /// Records stored.
    pub records: u32,
    /// Hex hash of the last stored record.
    pub head: String,
    /// Whether the game has ended.
    pub ended: bool,
    /// The per-move deadline.
    pub deadline_secs: u32,
}

/// A `games` row (the columns of the listing queries, in order), decoded
/// without trusting the database: a wrong type is an error, not a panic.
fn game_row(row: &sqlx::any::AnyRow) -> Result<GameRow, sqlx::Error> {
    let count = |i: usize| -> Result<u32, sqlx::Error> {
        let n: i64 = row.try_get(i)?;
        u32::try_from(n).map_err(|e| sqlx::Error::ColumnDecode {
            index: i.to_string(),
            source: Box::new(e),
        })
    };
    Ok(GameRow {
        game_id: row.try_get(0)?,
        host_key: row.try_get(1)?,
        guest_key: row.try_get(2)?,
        records: count(3)?,
        head: row.try_get(4)?,
        ended: row.try_get::<i64, _>(5)? != 0,
        deadline_secs: count(6)?,
    })
}

/// What an append did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Appended {
    /// Stored as the next record.
    Stored,
    /// This exact record was already stored there.
    Duplicate,
    /// Another record is stored at this place: the mailbox keeps the first.
    Fork,
    /// Someone else appended first (another server instance): try again.
    Raced,
}

/// The changes one new record makes to its game's row.
#[derive(Debug, Clone)]
pub struct Append<'a> {
    /// Hex game id.
    pub game_id: &'a str,
    /// The record's place.
    pub seq: u32,
    /// The whole record as sent: content then signature.
    pub bytes: &'a [u8],
    /// The record's hash in hex: the game's new head.
    pub head: &'a str,
    /// The guest key, when this record names it.
    pub guest_key: Option<&'a str>,
    /// Whether it ended the game.
    pub ended: bool,
    /// Server time now.
    pub now_ms: i64,
    /// When the game may be dropped.
    pub expires_ms: i64,
}

/// The mailbox's database, SQLite or PostgreSQL; the leaderboard uses it too.
#[derive(Debug, Clone)]
pub struct Store {
    pool: AnyPool,
    /// The PostgreSQL URL, when other instances may share the database.
    shared_url: Option<String>,
}

fn redact(url: &str) -> String {
    // postgres://user:password@host/db → postgres://user:…@host/db
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let credentials = &url[scheme + 3..at];
            match credentials.find(':') {
                Some(colon) => format!("{}:…{}", &url[..scheme + 3 + colon], &url[at..]),
                None => url.to_string(),
            }
        }
        _ => url.to_string(),
    }
}

impl Store {
    /// Opens (and migrates) the database: `:memory:`, a file path, a
    /// `sqlite:` URL or a `postgres://` URL.
    pub async fn open(spec: &str) -> Result<Store, StoreError> {
        install_default_drivers();
        let postgres = spec.starts_with("postgres://") || spec.starts_with("postgresql://");
        // SQLite has one writer at a time: one connection serves every
        // request in turn instead of many waiting on its lock (and each
        // connection to :memory: would be a database of its own).
        let (url, connections) = if postgres {
            (spec.to_string(), 8)
        } else if spec == ":memory:" {
            ("sqlite::memory:".to_string(), 1)
        } else if spec.starts_with("sqlite:") {
            (spec.to_string(), 1)
        } else {
            (format!("sqlite://{spec}?mode=rwc"), 1)
        };
        let failed = |reason: String| StoreError::Open {
            url: redact(spec),
            reason,
        };
        let pool = AnyPoolOptions::new()
            .after_connect(move |connection, _| {
                Box::pin(async move {
                    if !postgres {
                        // WAL: readers do not wait for the writer, and a
                        // commit is one append. NORMAL: a commit survives
                        // the server's crash; only a power cut can lose the
                        // last ones (the players' logs still hold them).
                        for pragma in [
                            "PRAGMA journal_mode = WAL",
                            "PRAGMA synchronous = NORMAL",
                            "PRAGMA busy_timeout = 5000",
                        ] {
                            sqlx::query(pragma).execute(&mut *connection).await?;
                        }
                    }
                    Ok(())
                })
            })
            .max_connections(connections)
            .acquire_timeout(ACQUIRE_WITHIN)
            .min_connections(if spec == ":memory:" { 1 } else { 0 })
            // An in-memory database lives only while its connection does.
            .idle_timeout(None)
            .max_lifetime(None)
            .connect(&url)
            .await
            .map_err(|e| failed(e.to_string()))?;
        let migrated = if postgres {
            sqlx::migrate!("./migrations/postgres").run(&pool).await
        } else {
            sqlx::migrate!("./migrations/sqlite").run(&pool).await
        };
        migrated.map_err(|e| failed(e.to_string()))?;
        Ok(Store {
            pool,
            shared_url: postgres.then(|| spec.to_string()),
        })
    }

    /// The PostgreSQL URL, when other instances may share this database.
    pub fn shared_url(&self) -> Option<&str> {
        self.shared_url.as_deref()
    }

    /// A query that touches nothing: whether the database answers.
    pub async fn ping(&self) -> Result<(), StoreError> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }

    /// Tells the instances listening on a shared database that `game_id`
    /// has a new record; sent when `tx` commits.
    async fn announce(
        &self,
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        game_id: &str,
    ) -> Result<(), StoreError> {
        if self.shared_url.is_some() {
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind(super::arrivals::CHANNEL)
                .bind(game_id)
                .execute(&mut **tx)
                .await?;
        }
        Ok(())
    }

    /// The game's row, if stored.
    pub async fn game(&self, game_id: &str) -> Result<Option<GameRow>, StoreError> {
        let row = sqlx::query(
            "SELECT game_id, host_key, guest_key, records, head, ended, deadline_secs
             FROM games WHERE game_id = $1",
        )
        .bind(game_id)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.as_ref().map(game_row).transpose()?)
    }

    /// The stored records of a game from `from` on, in order.
    pub async fn records(&self, game_id: &str, from: u32) -> Result<Vec<Vec<u8>>, StoreError> {
        let rows =
            sqlx::query("SELECT bytes FROM records WHERE game_id = $1 AND seq >= $2 ORDER BY seq")
                .bind(game_id)
                .bind(i64::from(from))
                .fetch_all(&self.pool)
                .await?;
        Ok(rows
            .iter()
            .map(|row| row.try_get(0))
            .collect::<Result<_, _>>()?)
    }

    /// The stored record at one place.
    pub async fn record(&self, game_id: &str, seq: u32) -> Result<Option<Vec<u8>>, StoreError> {
        let row = sqlx::query("SELECT bytes FROM records WHERE game_id = $1 AND seq = $2")
            .bind(game_id)
            .bind(i64::from(seq))
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|row| row.try_get(0)).transpose()?)
    }

    /// How many games are stored, and how many unfinished ones this host has.
    pub async fn counts(&self, host_key: &str) -> Result<(u64, u64), StoreError> {
        let all: i64 = sqlx::query("SELECT COUNT(*) FROM games")
            .fetch_one(&self.pool)
            .await?
            .try_get(0)?;
        let host: i64 = sqlx::query("SELECT COUNT(*) FROM games WHERE host_key = $1 AND ended = 0")
            .bind(host_key)
            .fetch_one(&self.pool)
            .await?
            .try_get(0)?;
        Ok((all as u64, host as u64))
    }

    /// Stores a new game with its genesis; `false` if the game was there.
    #[allow(clippy::too_many_arguments)]
    pub async fn create(
        &self,
        game_id: &str,
        host_key: &str,
        guest_key: Option<&str>,
        room: Option<&str>,
        bytes: &[u8],
        deadline_secs: u32,
        now_ms: i64,
        expires_ms: i64,
    ) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        let inserted = sqlx::query(
            "INSERT INTO games (game_id, host_key, guest_key, room, records, head, ended,
                                deadline_secs, touched_ms, expires_ms)
             VALUES ($1, $2, $3, $4, 1, $5, 0, $6, $7, $8)
             ON CONFLICT (game_id) DO NOTHING",
        )
        .bind(game_id)
        .bind(host_key)
        .bind(guest_key)
        .bind(room)
        .bind(game_id)
        .bind(i64::from(deadline_secs))
        .bind(now_ms)
        .bind(expires_ms)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if inserted == 0 {
            return Ok(false);
        }
        sqlx::query("INSERT INTO records (game_id, seq, bytes) VALUES ($1, 0, $2)")
            .bind(game_id)
            .bind(bytes)
            .execute(&mut *tx)
            .await?;
        self.announce(&mut tx, game_id).await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Stores the next record of a game whose row said `seq` records.
    pub async fn append(&self, append: Append<'_>) -> Result<Appended, StoreError> {
        let mut tx = self.pool.begin().await?;
        let inserted = sqlx::query(
            "INSERT INTO records (game_id, seq, bytes) VALUES ($1, $2, $3)
             ON CONFLICT (game_id, seq) DO NOTHING",
        )
        .bind(append.game_id)
        .bind(i64::from(append.seq))
        .bind(append.bytes)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if inserted == 0 {
            drop(tx);
            let stored = self.record(append.game_id, append.seq).await?;
            return Ok(if stored.as_deref() == Some(append.bytes) {
                Appended::Duplicate
            } else {
                Appended::Fork
            });
        }
        let updated = sqlx::query(
            "UPDATE games SET records = $1, head = $2, guest_key = COALESCE(guest_key, $3),
                              ended = $4, touched_ms = $5, expires_ms = $6
             WHERE game_id = $7 AND records = $8",
        )
        .bind(i64::from(append.seq) + 1)
        .bind(append.head)
        .bind(append.guest_key)
        .bind(i64::from(append.ended))
        .bind(append.now_ms)
        .bind(append.expires_ms)
        .bind(append.game_id)
        .bind(i64::from(append.seq))
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if updated == 0 {
            return Ok(Appended::Raced);
        }
        self.announce(&mut tx, append.game_id).await?;
        tx.commit().await?;
        Ok(Appended::Stored)
    }

    /// The games filed under a room (at most `limit`).
    pub async fn in_room(&self, room: &str, limit: u32) -> Result<Vec<GameRow>, StoreError> {
        self.listing("room = $1", room, limit).await
    }

    /// The games a key plays in (at most `limit`), newest first.
    pub async fn of_player(&self, key: &str, limit: u32) -> Result<Vec<GameRow>, StoreError> {
        self.listing("(host_key = $1 OR guest_key = $1)", key, limit)
            .await
    }

    async fn listing(
        &self,
        condition: &str,
        value: &str,
        limit: u32,
    ) -> Result<Vec<GameRow>, StoreError> {
        let sql = format!(
            "SELECT game_id, host_key, guest_key, records, head, ended, deadline_secs
             FROM games WHERE {condition} ORDER BY touched_ms DESC LIMIT $2"
        );
        let rows = sqlx::query(&sql)
            .bind(value)
            .bind(i64::from(limit))
            .fetch_all(&self.pool)
            .await?;
        Ok(rows.iter().map(game_row).collect::<Result<_, _>>()?)
    }

    /// Drops the games whose time is up; returns how many.
    pub async fn purge(&self, now_ms: i64) -> Result<u64, StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "DELETE FROM records WHERE game_id IN
                 (SELECT game_id FROM games WHERE expires_ms < $1)",
        )
        .bind(now_ms)
        .execute(&mut *tx)
        .await?;
        let dropped = sqlx::query("DELETE FROM games WHERE expires_ms < $1")
            .bind(now_ms)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        tx.commit().await?;
        Ok(dropped)
    }

    /// Closes the pool (waits for queries in flight).
    pub async fn close(&self) {
        self.pool.close().await;
    }

    /// The pool, for the other tables of this database (the leaderboard's).
    pub(crate) fn pool(&self) -> &AnyPool {
        &self.pool
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn games_past_their_time_are_dropped_with_their_records() {
        let store = Store::open(":memory:").await.unwrap();
        for (id, expires) in [("a", 1_000), ("b", 5_000)] {
            assert!(
                store
                    .create(id, "host", None, Some("ROOM"), b"genesis", 300, 0, expires)
                    .await
                    .unwrap()
            );
        }
        let append = Append {
            game_id: "b",
            seq: 1,
            bytes: b"accept",
            head: "h",
            guest_key: Some("guest"),
            ended: true,
            now_ms: 10,
            expires_ms: 9_000,
        };
        assert_eq!(
            store.append(append.clone()).await.unwrap(),
            Appended::Stored
        );
        assert_eq!(store.append(append).await.unwrap(), Appended::Duplicate);
        assert_eq!(store.purge(2_000).await.unwrap(), 1, "a expired");
        assert!(store.game("a").await.unwrap().is_none());
        assert!(store.records("a", 0).await.unwrap().is_empty());
        let b = store.game("b").await.unwrap().unwrap();
        assert!(b.ended && b.records == 2 && b.guest_key.as_deref() == Some("guest"));
        assert_eq!(store.of_player("guest", 10).await.unwrap().len(), 1);
        assert_eq!(
            store.purge(8_999).await.unwrap(),
            0,
            "b's time was moved on"
        );
        assert_eq!(store.purge(9_001).await.unwrap(), 1);
        assert!(store.records("b", 0).await.unwrap().is_empty());
    }

    #[test]
    fn passwords_are_not_shown() {
        assert_eq!(
            redact("postgres://me:secret@db.example/reversi"),
            "postgres://me:…@db.example/reversi"
        );
        assert_eq!(redact("/var/lib/mailbox.db"), "/var/lib/mailbox.db");
    }
}
