//! Where a live game keeps what it signs and accepts: natively the log
//! file (evidence in a folder beside it), in the browser the page's
//! storage. Either way a record is durable before it is sent, and the
//! bytes are those of a log file (one line per record), so a log saved
//! from the browser audits like a native one.

use std::path::PathBuf;

use crate::match_log::Record;
use crate::match_log::log_file::{LogFileError, LogWriter};

/// Why a record could not be kept.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The log file could not be written.
    #[error(transparent)]
    File(#[from] LogFileError),
    /// The browser's storage refused it (full, or forbidden).
    #[error(
        "the browser's storage refused the game's log ({reason}): free some space or allow this site to store data, then reload the page to go on; nothing signed is lost"
    )]
    Browser {
        /// What the browser said.
        reason: String,
    },
}

/// Keeps a game's records as they are written.
pub trait GameStore: Send {
    /// Makes `record` durable; it goes to the peer only afterwards.
    fn append(&mut self, record: &Record) -> Result<(), StoreError>;
    /// Keeps bytes the peer sent that were refused, with the reason; a
    /// failure must not stop the game, so it is only logged.
    fn save_evidence(&mut self, bytes: &[u8], reason: &str);
}

/// A log file and the evidence folder beside it.
#[derive(Debug)]
pub struct LogFileStore {
    writer: LogWriter,
    path: PathBuf,
    /// Held while the game is played, so that a visit from another
    /// program (`reversi games`, the window's list) leaves it alone.
    #[cfg(not(target_arch = "wasm32"))]
    _lock: Option<super::correspondence::LogLock>,
}

impl LogFileStore {
    /// Records go through `writer`, evidence beside `path`.
    pub fn new(writer: LogWriter, path: PathBuf) -> LogFileStore {
        #[cfg(not(target_arch = "wasm32"))]
        let lock = match super::correspondence::LogLock::acquire(&path, std::time::Duration::ZERO) {
            Ok(lock) => Some(lock),
            Err(e) => {
                tracing::warn!("{e}");
                None
            }
        };
        LogFileStore {
            writer,
            path,
            #[cfg(not(target_arch = "wasm32"))]
            _lock: lock,
        }
    }
}

impl GameStore for LogFileStore {
    fn append(&mut self, record: &Record) -> Result<(), StoreError> {
        Ok(self.writer.append(record)?)
    }

    fn save_evidence(&mut self, bytes: &[u8], reason: &str) {
        #[cfg(not(target_arch = "wasm32"))]
        super::driver::save_evidence(&self.path, bytes, reason);
        #[cfg(target_arch = "wasm32")]
        tracing::warn!(
            "refused from the peer ({} bytes, {}): {reason}",
            bytes.len(),
            self.path.display()
        );
    }
}
