#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

pub mod cli;
pub mod engine;
pub mod random_player;

pub use engine::*;
