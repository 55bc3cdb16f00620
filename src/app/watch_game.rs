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
    /// Progress in words.
    pub status: String,
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
            status: format!("asking {} for the game…", code.server),
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
                    "game over".into()
                } else {
                    "following the game".into()
                };
            }),
            Err(WatchError::Mailbox(e)) => {
                set(&|s| s.status = format!("the mailbox is out of reach ({e}); trying again"))
            }
            // A game just begun may not have reached the mailbox yet.
            Err(WatchError::NotFound { .. })
                if watcher.records().is_empty() && missing_for < APPEAR_WITHIN =>
            {
                missing_for += EVERY;
                set(&|s| s.status = "waiting for the game to reach the mailbox".into());
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
