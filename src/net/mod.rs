//! Playing over the network: room codes, the wire messages, the peer
//! session (a pure state machine), and the WebRTC transport that drives it.

pub mod correspondence;
pub mod driver;
pub mod embedded_server;
pub mod ice;
pub mod leaderboard;
pub mod link;
pub mod mailbox;
pub mod mailbox_sync;
pub mod rematch;
pub mod room_code;
pub mod room_file;
pub mod server_url;
pub mod session;
pub mod session_check;
pub mod stun_probe;
mod tls_client;
pub mod transport;
pub mod watch;
pub mod wire;
