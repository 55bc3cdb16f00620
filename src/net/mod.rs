//! Playing over the network: room codes, the wire messages, the peer
//! session (a pure state machine), and the WebRTC transport that drives it.

pub mod driver;
pub mod embedded_server;
pub mod link;
pub mod room_code;
pub mod session;
pub mod session_check;
pub mod transport;
pub mod wire;
