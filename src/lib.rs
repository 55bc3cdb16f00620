#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

// Native only until the browser build has its own launcher, storage and
// transport (see `platform`).
#[cfg(not(target_arch = "wasm32"))]
pub mod app;
#[cfg(not(target_arch = "wasm32"))]
pub mod background;
pub mod bot;
#[cfg(not(target_arch = "wasm32"))]
pub mod bot_match;
#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
#[cfg(not(target_arch = "wasm32"))]
pub mod data_dir;
pub mod net;
pub mod platform;
pub mod random_player;
pub mod search;

pub use reversi_core::{engine, match_log, membership, ratings};

pub use engine::*;
