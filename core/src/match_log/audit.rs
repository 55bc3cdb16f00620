//! Auditing a log file's contents: parse every line, refuse a torn tail,
//! verify every record. What `reversi audit` and the log viewer run.

use super::log_file::{LogFileError, TornTail, parse_log};
use super::record::Record;
use super::verify::{MatchVerifier, VerifyError, verify_log};

/// Why a log file does not pass the audit; always names the record.
#[derive(Debug, thiserror::Error)]
pub enum AuditError {
    /// A line cannot be read.
    #[error(transparent)]
    File(#[from] LogFileError),
    /// The last line was cut off mid-write.
    #[error(
        "record {}: the last line is incomplete ({} bytes, no newline): a write was cut off; the {} records before it are intact",
        .0.record, .0.bytes, .0.record
    )]
    Torn(TornTail),
    /// A record does not verify.
    #[error(transparent)]
    Verify(#[from] VerifyError),
}

/// Parses and verifies the bytes of a log file.
pub fn audit_log_bytes(bytes: &[u8]) -> Result<(Vec<Record>, MatchVerifier), AuditError> {
    let loaded = parse_log(bytes)?;
    if let Some(torn) = loaded.torn_tail {
        return Err(AuditError::Torn(torn));
    }
    let verifier = verify_log(&loaded.records)?;
    Ok((loaded.records, verifier))
}
