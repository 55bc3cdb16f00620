//! Playing over the network: room codes, the wire messages, the peer
//! session (a pure state machine), and the WebRTC transport that drives it.
//!
//! The session, the driver, the WebRTC transport and the mailbox build
//! for the browser too (their sleeps, tasks and HTTP requests come from
//! [`crate::platform`]); what needs files, UDP sockets of its own or the
//! embedded server is native only.

pub(crate) mod game_setup;
pub(crate) mod game_store;
pub(crate) mod link;
pub mod refusal;
pub mod room_code;
pub mod server_url;
pub mod session;
#[cfg(any(test, feature = "test-utils"))]
pub mod session_check;
pub mod signing_register;
pub mod wire;

#[cfg(not(target_arch = "wasm32"))]
pub mod correspondence;
pub mod driver;
#[cfg(not(target_arch = "wasm32"))]
pub(crate) mod embedded_server;
pub(crate) mod http_client;
pub(crate) mod ice;
#[cfg(not(target_arch = "wasm32"))]
pub mod leaderboard;
pub(crate) mod mailbox;
pub mod mailbox_sync;
#[cfg(not(target_arch = "wasm32"))]
pub(crate) mod native_game;
#[cfg(not(target_arch = "wasm32"))]
pub(crate) mod rematch;
#[cfg(not(target_arch = "wasm32"))]
pub(crate) mod room_file;
#[cfg(not(target_arch = "wasm32"))]
pub(crate) mod stun_probe;
#[cfg(not(target_arch = "wasm32"))]
mod tls_client;
pub mod transport;
#[cfg(not(target_arch = "wasm32"))]
pub mod watch;
