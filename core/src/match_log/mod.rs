//! The signed, hash-chained match log: identities, records, the coin flip,
//! verification, comparison of two logs, and the log file.
//!
//! [`verify_log`] replays a whole log through the rules engine and checks
//! every signature and hash link; a log that has been tampered with is
//! refused with the record and the reason:
//!
//! ```
//! use reversi_core::engine::Rules;
//! use reversi_core::match_log::builder::{MatchBuilder, MatchTerms, Players};
//! use reversi_core::match_log::rules_proposal::RulesProposal;
//! use reversi_core::match_log::{Identity, verify_log};
//!
//! let terms = MatchTerms {
//!     proposal: RulesProposal::fixed(Rules::default()),
//!     deadline_secs: 3600,
//!     host_name: "Ann".into(),
//!     guest_name: "Bob".into(),
//! };
//! let players = Players {
//!     host: Identity::from_secret_bytes(&[1; 32]),
//!     guest: Identity::from_secret_bytes(&[2; 32]),
//!     host_nonce: [3; 32],
//!     guest_nonce: [4; 32],
//! };
//! // Genesis, acceptance, both reveals (the coin flip), then two moves.
//! let mut game = MatchBuilder::new(&terms, players, 1_000)?;
//! game.play("f5".parse()?, 2_000)?;
//! game.play("d6".parse()?, 3_000)?;
//!
//! let verified = verify_log(game.records())?;
//! assert_eq!(verified.record_count(), 6);
//! assert_eq!(verified.moves().len(), 2);
//!
//! // Drop the first move: the second no longer links to the record before it.
//! let mut forged = game.records().to_vec();
//! forged.remove(4);
//! let refused = verify_log(&forged).unwrap_err();
//! assert_eq!(refused.record, 4);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

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
