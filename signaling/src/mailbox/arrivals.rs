//! Who waits for a record of which game, and how they hear of one.
//!
//! A look that waits (`GET …?wait=S`) takes a place here; storing a record
//! wakes the places of its game. A record stored by this instance wakes
//! them directly. With several instances on one PostgreSQL database, a
//! record may be stored by another: every append also sends a
//! `NOTIFY` on [`CHANNEL`] with the game's id, in the same transaction (so
//! it is heard only once the record is there), and each instance `LISTEN`s
//! and wakes its own places. While the listening connection is down
//! nothing is heard, so when it comes back every waiting look looks again.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use sqlx::postgres::{PgListener, PgPoolOptions};
use tokio::sync::Notify;
use tracing::{info, warn};

/// The PostgreSQL channel on which a stored record's game id is announced.
pub const CHANNEL: &str = "reversi_mailbox_records";

/// Requests waiting at once; past it a request answers at once instead.
const MAX_WAITING: usize = 10_000;

/// How long the listener waits before connecting again after a failure.
const RELISTEN_AFTER: Duration = Duration::from_secs(1);

/// How long one attempt to connect the listener may take. Short, so that
/// the retries stay about [`RELISTEN_AFTER`] apart: the pool's own retries
/// within one attempt back off to a fifth of this.
const CONNECT_WITHIN: Duration = Duration::from_secs(2);

/// The waiting looks of one instance.
#[derive(Clone, Default)]
pub(super) struct Arrivals {
    waiters: Arc<Mutex<Waiters>>,
    /// Whether the listening connection is up (always, without PostgreSQL).
    listening: Arc<AtomicBool>,
}

#[derive(Default)]
struct Waiters {
    games: HashMap<String, Arc<Notify>>,
    waiting: usize,
}

impl Arrivals {
    fn waiters(&self) -> std::sync::MutexGuard<'_, Waiters> {
        self.waiters.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A place in the queue of those waiting for a record of `game_id`,
    /// or `None` when too many wait already.
    pub(super) fn wait_for(&self, game_id: &str) -> Option<Waiting> {
        let mut waiters = self.waiters();
        if waiters.waiting >= MAX_WAITING {
            return None;
        }
        waiters.waiting += 1;
        let notify = waiters
            .games
            .entry(game_id.to_string())
            .or_default()
            .clone();
        Some(Waiting {
            waiters: self.waiters.clone(),
            game_id: game_id.to_string(),
            notify,
        })
    }

    /// Wakes whoever waits here for a record of `game_id`.
    pub(super) fn arrived(&self, game_id: &str) {
        if let Some(notify) = self.waiters().games.get(game_id) {
            notify.notify_waiters();
        }
    }

    /// Wakes every waiting look, to look again (after a gap in listening).
    fn everyone(&self) {
        for notify in self.waiters().games.values() {
            notify.notify_waiters();
        }
    }

    /// Whether records stored by other instances are heard now.
    pub(super) fn listening(&self) -> bool {
        self.listening.load(Ordering::Relaxed)
    }

    /// Without a database shared with other instances, every record is
    /// stored here and heard directly.
    pub(super) fn alone(&self) {
        self.listening.store(true, Ordering::Relaxed);
    }

    /// Listens on `url`'s [`CHANNEL`] until `stop` turns true, connecting
    /// again whenever the connection is lost.
    pub(super) fn spawn_listener(
        &self,
        url: String,
        mut stop: Option<tokio::sync::watch::Receiver<bool>>,
    ) -> tokio::task::JoinHandle<()> {
        let arrivals = self.clone();
        tokio::spawn(async move {
            tokio::select! {
                () = arrivals.listen(&url) => {}
                () = super::until_true(&mut stop) => {}
            }
        })
    }

    async fn listen(&self, url: &str) {
        loop {
            let mut listener = match connect(url).await {
                Ok(listener) => listener,
                Err(e) => {
                    if self.listening.swap(false, Ordering::Relaxed) {
                        warn!("mailbox: cannot listen for other instances' records: {e}");
                    }
                    tokio::time::sleep(RELISTEN_AFTER).await;
                    continue;
                }
            };
            if !self.listening.swap(true, Ordering::Relaxed) {
                info!("mailbox: listening for records stored by other instances");
            }
            // Whatever was stored while nobody listened.
            self.everyone();
            let stopped = loop {
                match listener.try_recv().await {
                    Ok(Some(notification)) => self.arrived(notification.payload()),
                    // The connection is lost. It is not re-established
                    // inside `try_recv` (that would keep `listening` true
                    // while nothing is heard): the outer loop connects
                    // again and only then says it listens.
                    Ok(None) => break "the connection was lost".to_string(),
                    Err(e) => break e.to_string(),
                }
            };
            warn!("mailbox: listening for other instances' records stopped: {stopped}");
            self.listening.store(false, Ordering::Relaxed);
            tokio::time::sleep(RELISTEN_AFTER).await;
        }
    }
}

async fn connect(url: &str) -> Result<PgListener, sqlx::Error> {
    // A pool of one connection for the listener alone, as
    // `PgListener::connect` makes, but with a short acquire timeout: its
    // default of 30 s lets the pool's retries back off to 6 s apart, and a
    // database back after an outage would go unheard that long.
    let pool = PgPoolOptions::new()
        .max_connections(1)
        .acquire_timeout(CONNECT_WITHIN)
        .max_lifetime(None)
        .idle_timeout(None)
        .connect_lazy(url)?;
    let mut listener = PgListener::connect_with(&pool).await?;
    listener.eager_reconnect(false);
    listener.listen(CHANNEL).await?;
    Ok(listener)
}

/// A request's place among those waiting for a game's record; leaving
/// drops the game's entry once nobody waits for it.
pub(super) struct Waiting {
    waiters: Arc<Mutex<Waiters>>,
    game_id: String,
    /// Notified when a record of the game is stored.
    pub(super) notify: Arc<Notify>,
}

impl Drop for Waiting {
    fn drop(&mut self) {
        let mut waiters = self.waiters.lock().unwrap_or_else(|p| p.into_inner());
        waiters.waiting = waiters.waiting.saturating_sub(1);
        // The map's reference and ours: nobody else waits for this game.
        if Arc::strong_count(&self.notify) <= 2 {
            waiters.games.remove(&self.game_id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_record_wakes_only_the_looks_of_its_game_and_places_are_given_back() {
        let arrivals = Arrivals::default();
        let a = arrivals.wait_for("a").unwrap();
        let b = arrivals.wait_for("b").unwrap();
        {
            let (woken_a, woken_b) = (a.notify.notified(), b.notify.notified());
            tokio::pin!(woken_a, woken_b);
            woken_a.as_mut().enable();
            woken_b.as_mut().enable();
            arrivals.arrived("a");
            assert!(
                tokio::time::timeout(Duration::from_millis(100), woken_a)
                    .await
                    .is_ok()
            );
            assert!(
                tokio::time::timeout(Duration::from_millis(100), &mut woken_b)
                    .await
                    .is_err(),
                "b's look still waits"
            );
            arrivals.everyone();
            assert!(
                tokio::time::timeout(Duration::from_millis(100), woken_b)
                    .await
                    .is_ok()
            );
        }
        drop((a, b));
        let waiters = arrivals.waiters();
        assert_eq!((waiters.waiting, waiters.games.len()), (0, 0));
    }
}
