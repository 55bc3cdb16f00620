//! The WebRTC transport: one `matchbox_socket` with one reliable channel,
//! wrapped so the driver sees connected / received / disconnected and never
//! a panic. ICE servers are always given explicitly: on a LAN or loopback
//! none are needed, and matchbox's default public STUN hosts do not answer
//! offline.

use std::time::Duration;

use futures::StreamExt;
use matchbox_socket::{
    MessageLoopFuture, PeerId, PeerState, RtcIceServerConfig, WebRtcChannel, WebRtcSocket,
};

use super::wire::MAX_MESSAGE_BYTES;

/// STUN/TURN servers for ICE (empty: host candidates only).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IceServers {
    /// `stun:` and `turn:` URLs.
    pub urls: Vec<String>,
    /// TURN user name.
    pub username: Option<String>,
    /// TURN password or token.
    pub credential: Option<String>,
}

/// What happened on the transport since the last poll.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TransportEvent {
    /// A peer's data channel is open.
    Connected(PeerId),
    /// A peer is gone.
    Disconnected(PeerId),
    /// Bytes from a peer.
    Received(PeerId, Vec<u8>),
}

/// One socket in one room.
pub struct Transport {
    socket: WebRtcSocket,
    channel: WebRtcChannel,
    /// Peer changes and packets taken while waiting, not yet polled.
    pending_changes: Vec<TransportEvent>,
    pending_packets: Vec<TransportEvent>,
    loop_task: tokio::task::JoinHandle<Result<(), matchbox_socket::Error>>,
}

impl std::fmt::Debug for Transport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Transport").finish_non_exhaustive()
    }
}

impl Transport {
    /// Joins `room_url` (`ws://HOST:PORT/ROOM`); the socket's message loop
    /// runs on the current tokio runtime.
    pub fn open(room_url: &str, ice: &IceServers) -> Transport {
        let (mut socket, message_loop): (WebRtcSocket, MessageLoopFuture) =
            WebRtcSocket::builder(room_url)
                .ice_server(RtcIceServerConfig {
                    urls: ice.urls.clone(),
                    username: ice.username.clone(),
                    credential: ice.credential.clone(),
                })
                .reconnect_attempts(Some(1))
                .add_reliable_channel()
                .build();
        let loop_task = tokio::spawn(message_loop);
        // Owning the channel apart from the socket lets `wait` listen to
        // both at once.
        let channel = socket.take_channel(0).expect("one channel was added");
        Transport {
            socket,
            channel,
            pending_changes: Vec::new(),
            pending_packets: Vec::new(),
            loop_task,
        }
    }

    /// Waits until something arrives or `timeout` passes, so the caller
    /// reacts to a packet at once instead of on its next tick.
    pub async fn wait(&mut self, timeout: Duration) {
        if !self.pending_changes.is_empty()
            || !self.pending_packets.is_empty()
            || self.is_finished()
        {
            return;
        }
        tokio::select! {
            Some((peer, packet)) = self.channel.next() => {
                self.pending_packets.push(TransportEvent::Received(peer, packet.to_vec()));
            }
            Some((peer, state)) = self.socket.next() => {
                self.pending_changes.push(change(peer, state));
            }
            _ = tokio::time::sleep(timeout) => {}
        }
    }

    /// Whether the socket has ended (refused, signaling lost with no peer, …).
    pub fn is_finished(&self) -> bool {
        self.loop_task.is_finished()
    }

    /// Why the socket ended, once it has (taken once).
    pub fn take_failure(&mut self) -> Option<String> {
        if !self.loop_task.is_finished() {
            return None;
        }
        let result = futures::FutureExt::now_or_never(&mut self.loop_task)?;
        Some(match result {
            Ok(Ok(())) => "the connection closed".to_string(),
            Ok(Err(e)) => e.to_string(),
            Err(e) => format!("the connection task failed: {e}"),
        })
    }

    /// Everything that happened since the last poll: peer changes first,
    /// then packets, each in arrival order.
    pub fn poll(&mut self) -> Vec<TransportEvent> {
        let mut events = std::mem::take(&mut self.pending_changes);
        if !self.is_finished() {
            if let Ok(changes) = self.socket.try_update_peers() {
                events.extend(changes.into_iter().map(|(peer, state)| change(peer, state)));
            }
        }
        events.append(&mut self.pending_packets);
        if !self.channel.is_closed() {
            for (peer, packet) in self.channel.receive() {
                events.push(TransportEvent::Received(peer, packet.to_vec()));
            }
        }
        events
    }

    /// Sends bytes to a peer; a closed channel is not an error here (the
    /// disconnect arrives as an event).
    pub fn send(&mut self, peer: PeerId, bytes: Vec<u8>) {
        debug_assert!(bytes.len() <= MAX_MESSAGE_BYTES);
        if !self.channel.is_closed() {
            let _ = self
                .channel
                .try_send(matchbox_socket::Packet::from(bytes), peer);
        }
    }
}

fn change(peer: PeerId, state: PeerState) -> TransportEvent {
    match state {
        PeerState::Connected => TransportEvent::Connected(peer),
        PeerState::Disconnected => TransportEvent::Disconnected(peer),
    }
}

impl Drop for Transport {
    fn drop(&mut self) {
        self.loop_task.abort();
    }
}

/// Asks the signaling server whether a room is full (`GET /room/ROOM`), to
/// explain a refused connection. `None` when the server cannot say.
pub async fn room_is_full(room_url: &str) -> Option<bool> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let rest = room_url.strip_prefix("ws://")?;
    let (host, room) = rest.split_once('/')?;
    let connect = tokio::net::TcpStream::connect(host);
    let mut stream = tokio::time::timeout(std::time::Duration::from_secs(2), connect)
        .await
        .ok()?
        .ok()?;
    let request = format!("GET /room/{room} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.ok()?;
    let mut response = Vec::new();
    let mut limited = (&mut stream).take(4096);
    let read = limited.read_to_end(&mut response);
    tokio::time::timeout(std::time::Duration::from_secs(2), read)
        .await
        .ok()?
        .ok()?;
    let text = String::from_utf8_lossy(&response);
    let body = text.split("\r\n\r\n").nth(1)?;
    let status: serde_json::Value = serde_json::from_str(body.trim()).ok()?;
    status["full"].as_bool()
}
