//! The canonical byte encoding of a position and its SHA-256 position hash.
//!
//! The signed match log puts the position hash into every move record, so
//! this layout is frozen: changing it is a protocol change (bump the version
//! byte). Layout, 38 bytes:
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 4 | magic `RVP` and version `1` (`52 56 50 01`) |
//! | 4 | 8 | black discs, `u64` little-endian, bit `row*8+column` (a1 = bit 0) |
//! | 12 | 8 | white discs, same layout |
//! | 20 | 8 | walls, same layout |
//! | 28 | 1 | side to move: 0 black, 1 white, 2 nobody (game over) |
//! | 29 | 1 | black discs left in hand, 255 when unlimited |
//! | 30 | 1 | white discs left in hand, 255 when unlimited |
//! | 31 | 1 | opening placements made, 0–4 (4 under the preset opening) |
//! | 32 | 1 | opening: 0 preset, 1 free, 2 double |
//! | 33 | 1 | discs per player at the start: 0 unlimited, else 1–64 |
//! | 34 | 1 | scoring: 0 count, 1 empties |
//! | 35 | 1 | draw rule: 0 draw, 1 black, 2 white |
//! | 36 | 1 | topology: 0 plane, 1 torus |
//! | 37 | 1 | reserved, 0 |
//!
//! The position hash is SHA-256 of these 38 bytes.

use std::fmt;

use sha2::{Digest, Sha256};

use super::color::Color;
use super::position::Position;
use super::rules::{Discs, DrawRule, Opening, Scoring};
use super::topology::Topology;

/// Length of [`Position::canonical_bytes`].
pub const CANONICAL_LEN: usize = 38;

/// The first four bytes of every encoding: magic and version.
pub const CANONICAL_MAGIC: [u8; 4] = *b"RVP\x01";

/// SHA-256 of a position's canonical bytes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PositionHash(pub [u8; 32]);

impl PositionHash {
    /// Lowercase hex, 64 characters.
    pub fn to_hex(&self) -> String {
        self.0.iter().map(|b| format!("{b:02x}")).collect()
    }
}

impl fmt::Display for PositionHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

impl fmt::Debug for PositionHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PositionHash({})", self.to_hex())
    }
}

impl Position {
    /// The canonical, platform-independent encoding (see the module docs).
    pub fn canonical_bytes(&self) -> [u8; CANONICAL_LEN] {
        let o = self.options;
        let mut out = [0u8; CANONICAL_LEN];
        out[0..4].copy_from_slice(&CANONICAL_MAGIC);
        out[4..12].copy_from_slice(&self.black.to_le_bytes());
        out[12..20].copy_from_slice(&self.white.to_le_bytes());
        out[20..28].copy_from_slice(&self.walls.to_le_bytes());
        out[28] = match self.to_move {
            Some(Color::Black) => 0,
            Some(Color::White) => 1,
            None => 2,
        };
        out[29] = self.supply.black;
        out[30] = self.supply.white;
        out[31] = self.placements;
        out[32] = match o.opening {
            Opening::Preset => 0,
            Opening::Free => 1,
            Opening::Double => 2,
        };
        out[33] = match o.discs {
            Discs::Unlimited => 0,
            Discs::PerPlayer(n) => n,
        };
        out[34] = match o.scoring {
            Scoring::Count => 0,
            Scoring::Empties => 1,
        };
        out[35] = match o.draw {
            DrawRule::Draw => 0,
            DrawRule::Black => 1,
            DrawRule::White => 2,
        };
        out[36] = match o.topology {
            Topology::Plane => 0,
            Topology::Torus => 1,
        };
        out
    }

    /// SHA-256 of [`canonical_bytes`](Self::canonical_bytes).
    pub fn hash(&self) -> PositionHash {
        PositionHash(Sha256::digest(self.canonical_bytes()).into())
    }
}
