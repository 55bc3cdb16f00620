//! The pure core of the game: the rules engine ([`engine`]) and the signed,
//! hash-chained match log ([`match_log`]). The game crate (`reversi`) and the
//! signaling server's mailbox both verify records with this code, so the
//! server can refuse what the players' programs would refuse.
#![forbid(unsafe_code)]

pub mod engine;
pub mod match_log;
pub mod membership;
pub mod random_player;
pub mod ratings;
