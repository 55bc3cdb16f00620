//! What differs between the native program and the browser, in one place.
//!
//! The clock: std's `Instant::now` and `SystemTime::now` panic on
//! `wasm32-unknown-unknown`, so everything that may run in a browser takes
//! its time from here (std's own clock natively, the browser's on the web).
//! The wasm build's clippy configuration (`.ci/clippy_wasm/clippy.toml`)
//! refuses std's clock, std's threads and blocking sleeps in that code.

pub use web_time::{Instant, SystemTime, UNIX_EPOCH};

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
