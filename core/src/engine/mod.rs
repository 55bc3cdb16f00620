//! The deterministic rules engine: no I/O, no clock, no randomness, no
//! floating point. Both peers and every auditor run exactly this code.
//!
//! A [`Rules`] is checked options and a start; its [`Position`]s are
//! values, and a move makes a new one or says why it is illegal:
//!
//! ```
//! use reversi_core::engine::{PlayError, Rules, Square, parse_transcript, replay};
//!
//! let start = Rules::default().start_position();
//! assert_eq!(start.legal_moves().count(), 4);
//!
//! let f5: Square = "f5".parse()?;
//! let after = start.play(f5)?;
//! assert_eq!((after.counts().black, after.counts().white), (4, 1));
//!
//! // A1 flips nothing: the position stays as it was, and the error says so.
//! assert!(matches!(after.play("a1".parse()?), Err(PlayError::FlipsNothing { .. })));
//!
//! // A game in transcript notation, replayed and checked move by move.
//! let game = replay(&start, &parse_transcript("f5d6c3d3c4")?)?;
//! assert_eq!(game.counts().black + game.counts().white, 9);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod bitboard;
mod color;
pub mod flip;
pub mod game_archive;
mod ggf;
mod movegen;
pub mod obf;
mod outcome;
mod perft;
mod position;
mod position_encoding;
mod rules;
mod setup;
mod square;
pub mod topology;
mod transcript;

pub use bitboard::Bitboard;
#[doc(hidden)]
pub use bitboard::grid_to_bits;
pub use color::{ByColor, Color};
pub use ggf::{GgfError, GgfGame, MAX_GGF_LEN, MAX_GGF_MOVES, parse_ggf};
pub use obf::{ObfError, ObfPosition, ObfState, parse_obf};
pub use outcome::{Ending, Outcome};
pub use perft::perft;
pub use position::{MoveReport, PlayError, Position};
pub use position_encoding::{CANONICAL_LEN, PositionHash};
pub use rules::{Discs, DrawRule, Opening, ParseOptionError, Preset, RuleOptions, Scoring};
pub use setup::{ParseSetupError, Rules, Setup, SetupError};
pub use square::{ParseSquareError, Square};
pub use topology::Topology;
pub use transcript::{ReplayError, TranscriptError, format_transcript, parse_transcript, replay};
