//! The deterministic rules engine: no I/O, no clock, no randomness, no
//! floating point. Both peers and every auditor run exactly this code.

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
pub use ggf::{GgfError, GgfGame, parse_ggf};
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
