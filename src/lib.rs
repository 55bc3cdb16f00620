#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

pub mod app;
pub mod background;
pub mod bot;
pub mod bot_match;
pub mod cli;
pub mod data_dir;
pub mod engine;
pub mod match_log;
pub mod net;
pub mod random_player;
pub mod search;

pub use engine::*;
