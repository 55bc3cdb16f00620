//! The *Watch* screen's spectator: a background thread asks the server's
//! mailbox for news every two seconds and verifies each record (see
//! [`crate::net::watch`]); the window reads a snapshot and never waits.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::match_log::MatchVerifier;
use crate::net::watch::{APPEAR_WITHIN, WatchCode, WatchError, Watcher};

/// How often the mailbox is asked.
const EVERY: Duration = Duration::from_secs(2);

/// What the window shows of a watched game.
#[derive(Debug, Clone, Default)]
pub struct WatchSnapshot {
    /// The verified game so far.
    pub verifier: Option<MatchVerifier>,
    /// Progress.
    pub status: WatchStatus,
    /// Why watching stopped, if it did.
    pub error: Option<String>,
}

/// A game being watched.
pub struct WatchGame {
    code: WatchCode,
    snapshot: Arc<Mutex<WatchSnapshot>>,
    stop: Arc<AtomicBool>,
}

impl WatchGame {
    /// Starts following the game; `wake` asks the window to repaint.
    pub fn start(code: WatchCode, wake: impl Fn() + Send + 'static) -> WatchGame {
        let snapshot = Arc::new(Mutex::new(WatchSnapshot {
            status: WatchStatus::Asking(code.server.to_string()),
            ..WatchSnapshot::default()
        }));
        let stop = Arc::new(AtomicBool::new(false));
        let (shared, stopped, watched) = (snapshot.clone(), stop.clone(), code.clone());
        let spawned = crate::background::spawn("watch", move || {
            follow(watched, &shared, &stopped, &wake);
        });
        if let Err(e) = spawned {
            snapshot.lock().unwrap_or_else(|p| p.into_inner()).error =
                Some(format!("cannot start watching: {e}"));
        }
        WatchGame {
            code,
            snapshot,
            stop,
        }
    }

    /// The code being watched.
    pub fn code(&self) -> &WatchCode {
        &self.code
    }

    /// What to show now.
    pub fn snapshot(&self) -> WatchSnapshot {
        self.snapshot
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }
}

impl Drop for WatchGame {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

fn follow(code: WatchCode, shared: &Mutex<WatchSnapshot>, stop: &AtomicBool, wake: &dyn Fn()) {
    let set = |f: &dyn Fn(&mut WatchSnapshot)| {
        f(&mut shared.lock().unwrap_or_else(|p| p.into_inner()));
        wake();
    };
    let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    else {
        set(&|s| s.error = Some("cannot start the async runtime".into()));
        return;
    };
    let mut watcher = Watcher::new(code);
    let mut missing_for = Duration::ZERO;
    while !stop.load(Ordering::Relaxed) {
        let result = runtime.block_on(watcher.fetch());
        let verifier = watcher.verifier().cloned();
        let ended = verifier.as_ref().is_some_and(|v| v.end().is_some());
        match result {
            Ok(_) => set(&|s| {
                s.verifier = verifier.clone();
                s.status = if ended {
                    WatchStatus::Over
                } else {
                    WatchStatus::Following
                };
            }),
            Err(WatchError::Mailbox(e)) => {
                set(&|s| s.status = WatchStatus::OutOfReach(e.to_string()))
            }
            // A game just begun may not have reached the mailbox yet.
            Err(WatchError::NotFound { .. })
                if watcher.records().is_empty() && missing_for < APPEAR_WITHIN =>
            {
                missing_for += EVERY;
                set(&|s| s.status = WatchStatus::NotYetThere);
            }
            Err(e) => {
                let text = e.to_string();
                set(&|s| {
                    s.verifier = verifier.clone();
                    s.error = Some(text.clone());
                });
                return;
            }
        }
        if ended {
            return;
        }
        for _ in 0..EVERY.as_millis() / 100 {
            if stop.load(Ordering::Relaxed) {
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

/// How following a game goes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum WatchStatus {
    /// Not started.
    #[default]
    Idle,
    /// Asking this server for the game.
    Asking(String),
    /// The game is followed as it goes.
    Following,
    /// The game is over.
    Over,
    /// The mailbox did not answer (why, in English); trying again.
    OutOfReach(String),
    /// The game has not reached the mailbox yet.
    NotYetThere,
}

impl WatchStatus {
    /// The status in the player's language.
    pub fn words(&self) -> String {
        use super::i18n::t;
        match self {
            WatchStatus::Idle => String::new(),
            WatchStatus::Asking(server) => t!("watch-asking", server = server.as_str()),
            WatchStatus::Following => t!("watch-following"),
            WatchStatus::Over => t!("net-game-over"),
            WatchStatus::OutOfReach(why) => t!("watch-out-of-reach", why = why.as_str()),
            WatchStatus::NotYetThere => t!("watch-not-yet-there"),
        }
    }
}
