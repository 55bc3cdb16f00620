//! Work that must not slow the game's network side. The computer player's
//! search keeps a core fully busy for as long as it thinks; on its own
//! thread at a lower scheduling priority it takes only what the driver and
//! the WebRTC stack leave, so a level-10 bot in the same process never
//! delays a heartbeat or a handshake on a busy machine.

use std::thread::JoinHandle;

/// The nice value of background threads (0 is normal, 19 the lowest).
#[cfg(target_os = "linux")]
const BACKGROUND_NICE: i32 = 10;

/// Runs `work` on a new thread named `name`, at a lower priority where the
/// system allows it (Linux: nice 10 for that thread alone).
pub fn spawn<F>(name: &str, work: F) -> std::io::Result<JoinHandle<()>>
where
    F: FnOnce() + Send + 'static,
{
    std::thread::Builder::new()
        .name(name.to_string())
        .spawn(move || {
            lower_this_threads_priority();
            work();
        })
}

/// Lowers the calling thread's priority (Linux keeps a nice value per
/// thread). Failing to lower it only costs responsiveness, so a failure
/// is logged, not returned.
fn lower_this_threads_priority() {
    #[cfg(target_os = "linux")]
    {
        let tid = rustix::thread::gettid();
        if let Err(e) = rustix::process::setpriority_process(Some(tid), BACKGROUND_NICE) {
            tracing::debug!("could not lower a background thread's priority: {e}");
        }
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_os = "linux")]
    #[test]
    fn a_background_thread_runs_at_a_lower_priority_than_its_parent() {
        let parent = rustix::process::getpriority_process(None).unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        super::spawn("test-background", move || {
            let tid = rustix::thread::gettid();
            tx.send(rustix::process::getpriority_process(Some(tid)).unwrap())
                .unwrap();
        })
        .unwrap()
        .join()
        .unwrap();
        let child = rx.recv().unwrap();
        assert_eq!(child, (parent + super::BACKGROUND_NICE).min(19));
        // The caller's own priority is untouched.
        assert_eq!(rustix::process::getpriority_process(None).unwrap(), parent);
    }
}
