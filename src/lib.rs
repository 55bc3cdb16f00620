#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

pub mod app;
pub mod background;
pub mod bot;
pub mod bot_match;
pub mod cli;
pub mod data_dir;
pub mod net;
pub mod random_player;
pub mod search;

pub use reversi_core::{engine, match_log, membership, ratings};

pub use engine::*;
