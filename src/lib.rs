#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

pub mod analysis;
pub mod app;
// Native only: threads, files, a command line (see `platform` for what the
// browser uses instead).
#[cfg(not(target_arch = "wasm32"))]
pub mod background;
pub mod bot;
#[cfg(not(target_arch = "wasm32"))]
pub mod bot_match;
#[cfg(target_arch = "wasm32")]
pub mod browser_data;
#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
#[cfg(not(target_arch = "wasm32"))]
pub mod data_dir;
pub mod identity_export;
pub mod nboard;
pub mod net;
pub mod platform;
pub mod random_player;
pub mod search;
pub mod thinking;

pub use reversi_core::{engine, match_log, membership, ratings};

pub use engine::*;
