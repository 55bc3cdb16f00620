//! The time as a game's driver sees it, behind a trait so that its
//! reconnection and deadline logic can be run in tests on a clock that
//! moves only when the code under test waits.

use std::time::Duration;

use futures::future::LocalBoxFuture;

use super::Instant;

/// A monotonic clock, the wall clock, and a way to wait.
pub trait Clock {
    /// Now, by the monotonic clock.
    fn now(&self) -> Instant;

    /// Milliseconds since the Unix epoch by the wall clock.
    fn wall_ms(&self) -> u64;

    /// Waits `duration`.
    fn sleep(&self, duration: Duration) -> LocalBoxFuture<'static, ()>;
}

/// The machine's (or the browser's) own clock.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Instant {
        Instant::now()
    }

    fn wall_ms(&self) -> u64 {
        super::now_ms()
    }

    fn sleep(&self, duration: Duration) -> LocalBoxFuture<'static, ()> {
        Box::pin(super::sleep(duration))
    }
}
