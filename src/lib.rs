//! Reversi played peer to peer: two players' programs meet through a
//! signaling server, play over a direct WebRTC channel, and sign every move
//! into a hash-chained log that anyone can audit.
//!
//! A map of this crate, bottom up (`ARCHITECTURE.md` at the repository's
//! root says more: the invariants each layer keeps and where to start for
//! common changes; the book in `docs/` is the player's and the operator's guide):
//!
//! - [`engine`] and [`match_log`] (from `reversi-core`): the pure rules
//!   engine, and the signed records, their verification and audit.
//! - [`search`]: the computer player's search and evaluation, pure too;
//!   [`bot`] builds on it, and so do the crate's own `analysis`,
//!   `thinking` (where a search runs) and `nboard` (the NBoard protocol).
//! - [`platform`]: what differs between the desktop and the browser (the
//!   clock, tasks, where a search runs).
//! - [`net`]: a game over the network: the session (a state machine that
//!   checks records and knows no transport), the driver that runs it over
//!   WebRTC, the mailbox and the signaling server's other services.
//! - [`app`] (the egui window, native and in the browser) and `cli` (the
//!   `reversi` commands): the front-ends, which never import each other.
#![forbid(unsafe_code)]

mod analysis;
pub mod app;
// Native only: threads, files, a command line (see `platform` for what the
// browser uses instead).
#[cfg(not(target_arch = "wasm32"))]
mod background;
pub mod bot;
#[cfg(not(target_arch = "wasm32"))]
pub mod bot_match;
#[cfg(target_arch = "wasm32")]
mod browser_data;
#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
#[cfg(not(target_arch = "wasm32"))]
pub mod data_dir;
pub mod identity_export;
#[cfg(not(target_arch = "wasm32"))]
mod nboard;
pub mod net;
pub mod platform;
pub mod search;
mod thinking;

pub use reversi_core::{engine, match_log, membership, random_player, ratings};
