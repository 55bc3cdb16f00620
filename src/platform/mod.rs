//! What differs between the native program and the browser, in one place.
//!
//! The clock: std's `Instant::now` and `SystemTime::now` panic on
//! `wasm32-unknown-unknown`, so everything that may run in a browser takes
//! its time from here (std's own clock natively, the browser's on the web).
//! The wasm build's clippy configuration (`.ci/clippy_wasm/clippy.toml`)
//! refuses std's clock, std's threads and blocking sleeps in that code.
//!
//! Searches: natively on a background thread at a lower priority; in the
//! browser, which has one thread per page, in a Web Worker (`web`, in the browser build).
//!
//! Memory: on Linux with glibc, huge pages for the search tables
//! ([`huge_pages`], which `main` calls first).

use std::sync::mpsc;

pub use web_time::{Instant, SystemTime, UNIX_EPOCH};

use crate::thinking::{ThinkAnswer, ThinkError, ThinkJob};

mod clock;
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub mod huge_pages;
pub(crate) mod sound;
mod tasks;
#[cfg(target_arch = "wasm32")]
pub mod web;

pub use clock::{Clock, SystemClock};
pub use tasks::{Elapsed, Stopped, Task, sleep, spawn, timeout};

/// Where a search's answer arrives.
pub type Thinking = mpsc::Receiver<Result<ThinkAnswer, ThinkError>>;

/// Runs a search away from the window; `wake` is called once its answer
/// is on the receiver. A search that cannot run answers with the reason.
#[cfg(not(target_arch = "wasm32"))]
pub fn think(job: ThinkJob, wake: impl Fn() + Send + 'static) -> Thinking {
    let (tx, rx) = mpsc::channel();
    let failed = tx.clone();
    if let Err(e) = crate::background::spawn("reversi-search", move || {
        let _ = tx.send(job.run());
        wake();
    }) {
        let _ = failed.send(Err(ThinkError::Unavailable {
            reason: e.to_string(),
        }));
    }
    rx
}

/// Runs a search away from the window (in the page's search worker);
/// `wake` is called once its answer is on the receiver.
#[cfg(target_arch = "wasm32")]
pub fn think(job: ThinkJob, wake: impl Fn() + Send + 'static) -> Thinking {
    web::think(job, Box::new(wake))
}

/// Milliseconds since the Unix epoch by the wall clock (0 if the clock is
/// set before 1970).
pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wall_clock_is_after_this_code_was_written() {
        // 2026-01-01T00:00:00Z.
        assert!(now_ms() > 1_767_225_600_000);
    }
}
