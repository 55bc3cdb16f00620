//! Sleeping, time limits and background tasks for async code that runs
//! natively (on the current tokio runtime) and in the browser (on the
//! page's event loop, `wasm_bindgen_futures::spawn_local`).
//!
//! Natively these are tokio's own, so tests with paused time keep working.

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use futures::channel::oneshot;
use futures::future::{AbortHandle, Abortable};

/// A future's time ran out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the time limit passed")]
pub struct Elapsed;

/// Waits for `duration`.
pub async fn sleep(duration: Duration) {
    #[cfg(not(target_arch = "wasm32"))]
    tokio::time::sleep(duration).await;
    #[cfg(target_arch = "wasm32")]
    futures_timer::Delay::new(duration).await;
}

/// Runs `future` for at most `limit`.
pub async fn timeout<F: Future>(limit: Duration, future: F) -> Result<F::Output, Elapsed> {
    #[cfg(not(target_arch = "wasm32"))]
    {
        tokio::time::timeout(limit, future)
            .await
            .map_err(|_| Elapsed)
    }
    #[cfg(target_arch = "wasm32")]
    {
        use futures::FutureExt as _;
        let future = std::pin::pin!(future.fuse());
        let delay = std::pin::pin!(sleep(limit).fuse());
        match futures::future::select(future, delay).await {
            futures::future::Either::Left((output, _)) => Ok(output),
            futures::future::Either::Right(_) => Err(Elapsed),
        }
    }
}

/// A future running in the background. Dropping the handle lets it run
/// on (as tokio's `JoinHandle` does); [`Task::abort`] stops it.
#[derive(Debug)]
pub struct Task<T> {
    result: oneshot::Receiver<T>,
    finished: Arc<AtomicBool>,
    abort: AbortHandle,
}

/// Why a task gave no result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the task was stopped before it finished")]
pub struct Stopped;

impl<T> Task<T> {
    /// Whether it has finished (or was stopped).
    pub fn is_finished(&self) -> bool {
        self.finished.load(Ordering::Acquire)
    }

    /// Its result once finished (taken once); `None` while it runs.
    pub fn try_take(&mut self) -> Option<Result<T, Stopped>> {
        match self.result.try_recv() {
            Ok(Some(value)) => Some(Ok(value)),
            Ok(None) => None,
            Err(oneshot::Canceled) => Some(Err(Stopped)),
        }
    }

    /// Stops it at its next await point.
    pub fn abort(&self) {
        self.abort.abort();
    }

    /// Waits for it to finish.
    pub async fn join(self) -> Result<T, Stopped> {
        self.result.await.map_err(|_| Stopped)
    }
}

/// Marks a task finished when dropped.
struct MarkDone(Arc<AtomicBool>);

impl Drop for MarkDone {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Release);
    }
}

/// Wraps `future` so it reports into a [`Task`].
fn wrap<F: Future>(future: F) -> (impl Future<Output = ()>, Task<F::Output>) {
    let (tx, rx) = oneshot::channel();
    let finished = Arc::new(AtomicBool::new(false));
    let (abort, registration) = AbortHandle::new_pair();
    let done = MarkDone(Arc::clone(&finished));
    let run = async move {
        // Dropped last, after the send, so a finished task's result is
        // there to take; dropped too when the future panics, so a task
        // that died is never taken for one still running.
        let _done = done;
        let output = Abortable::new(future, registration).await;
        if let Ok(output) = output {
            let _ = tx.send(output);
        }
    };
    let task = Task {
        result: rx,
        finished,
        abort,
    };
    (run, task)
}

/// Starts `future` in the background on the current tokio runtime.
#[cfg(not(target_arch = "wasm32"))]
pub fn spawn<F>(future: F) -> Task<F::Output>
where
    F: Future + Send + 'static,
    F::Output: Send + 'static,
{
    let (run, task) = wrap(future);
    tokio::spawn(run);
    task
}

/// Starts `future` in the background on the page's event loop.
#[cfg(target_arch = "wasm32")]
pub fn spawn<F>(future: F) -> Task<F::Output>
where
    F: Future + 'static,
    F::Output: 'static,
{
    let (run, task) = wrap(future);
    wasm_bindgen_futures::spawn_local(run);
    task
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn a_task_reports_its_result_once() {
        let mut task = spawn(async {
            sleep(Duration::from_secs(1)).await;
            7
        });
        assert!(!task.is_finished());
        assert_eq!(task.try_take(), None);
        sleep(Duration::from_secs(2)).await;
        assert!(task.is_finished());
        assert_eq!(task.try_take(), Some(Ok(7)));
    }

    #[tokio::test(start_paused = true)]
    async fn an_aborted_task_says_it_was_stopped() {
        let mut task = spawn(async {
            sleep(Duration::from_secs(10)).await;
            7
        });
        tokio::task::yield_now().await;
        task.abort();
        sleep(Duration::from_millis(1)).await;
        assert!(task.is_finished());
        assert_eq!(task.try_take(), Some(Err(Stopped)));
    }

    #[tokio::test(start_paused = true)]
    async fn a_task_that_panics_is_finished_with_no_result() {
        let mut task = spawn(async {
            sleep(Duration::from_millis(10)).await;
            if crate::platform::now_ms() > 0 {
                panic!("the task dies");
            }
            7
        });
        sleep(Duration::from_secs(1)).await;
        assert!(task.is_finished(), "a dead task is not running");
        assert_eq!(task.try_take(), Some(Err(Stopped)));
    }

    #[tokio::test(start_paused = true)]
    async fn a_time_limit_stops_a_slow_future() {
        assert_eq!(timeout(Duration::from_secs(1), async { 3 }).await, Ok(3));
        let slow = timeout(Duration::from_secs(1), sleep(Duration::from_secs(5)));
        assert_eq!(slow.await, Err(Elapsed));
    }
}
