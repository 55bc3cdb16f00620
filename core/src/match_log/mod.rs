//! The signed, hash-chained match log: identities, records, the coin flip,
//! verification, comparison of two logs, and the log file.

pub mod audit;
pub mod builder;
pub mod coin_flip;
pub mod compare;
pub mod export;
pub mod identity;
pub mod invite;
pub mod log_file;
pub mod record;
pub mod rules_proposal;
pub mod safety_code;
pub mod verify;

pub use identity::{Fingerprint, Identity, PublicKey};
pub use record::{Body, DecodeError, Record, RecordContent, Seat};
pub use verify::{MatchVerifier, VerifyError, Violation, verify_log};
