//! Playing over the network: room codes, the wire messages, the peer
//! session (a pure state machine), and the WebRTC transport that drives it.
//!
//! The pure parts (the session and its messages, room codes, server
//! addresses, the link's timing rules) build for the browser too; the
//! parts that need sockets, files or a tokio runtime are native only, for
//! now.

pub mod link;
pub mod room_code;
pub mod server_url;
pub mod session;
pub mod session_check;
pub mod wire;

#[cfg(not(target_arch = "wasm32"))]
pub mod correspondence;
#[cfg(not(target_arch = "wasm32"))]
pub mod driver;
#[cfg(not(target_arch = "wasm32"))]
pub mod embedded_server;
#[cfg(not(target_arch = "wasm32"))]
pub mod http_client;
#[cfg(not(target_arch = "wasm32"))]
pub mod ice;
#[cfg(not(target_arch = "wasm32"))]
pub mod leaderboard;
#[cfg(not(target_arch = "wasm32"))]
pub mod mailbox;
#[cfg(not(target_arch = "wasm32"))]
pub mod mailbox_sync;
#[cfg(not(target_arch = "wasm32"))]
pub mod rematch;
#[cfg(not(target_arch = "wasm32"))]
pub mod room_file;
#[cfg(not(target_arch = "wasm32"))]
pub mod stun_probe;
#[cfg(not(target_arch = "wasm32"))]
mod tls_client;
#[cfg(not(target_arch = "wasm32"))]
pub mod transport;
#[cfg(not(target_arch = "wasm32"))]
pub mod watch;
