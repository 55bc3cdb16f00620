//! The WebRTC transport: one `matchbox_socket` with one reliable channel,
//! wrapped so the driver sees connected / received / disconnected and never
//! a panic. ICE servers are always given explicitly: on a LAN or loopback
//! none are needed, and matchbox's default public STUN hosts do not answer
//! offline.

use std::time::Duration;

use futures::StreamExt;
use futures::future::LocalBoxFuture;
use matchbox_socket::{
    MessageLoopFuture, PeerId, PeerState, RtcIceServerConfig, WebRtcChannel, WebRtcSocket,
};

use super::wire::MAX_MESSAGE_BYTES;

/// How often the socket tells the signaling server it is still there.
pub const SIGNALING_KEEP_ALIVE: Duration = Duration::from_secs(2);

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

/// How the data reaches the peer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    /// Straight between the two machines (host or STUN-discovered addresses).
    Direct,
    /// Through a TURN relay.
    Relayed,
}

impl std::fmt::Display for Route {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Route::Direct => "direct",
            Route::Relayed => "relayed",
        })
    }
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

/// Opens connections into a room: WebRTC through a signaling server in
/// a game ([`WebRtc`]), memory in the driver's tests.
pub trait Network {
    /// Opens a socket into the room at `room_url`.
    fn open(&mut self, room_url: &str, ice: &IceServers) -> Box<dyn Connection>;

    /// Who is in the room, as the signaling server says (`None` when it
    /// cannot say).
    fn room_status(&self, room_url: &str) -> LocalBoxFuture<'static, Option<RoomStatus>>;
}

/// One socket in one room, as the driver uses it.
pub trait Connection {
    /// Waits until something arrives or `timeout` passes.
    fn wait(&mut self, timeout: Duration) -> LocalBoxFuture<'_, ()>;

    /// How a connected peer is reached, once known.
    fn route(&self, peer: PeerId) -> Option<Route>;

    /// Whether the signaling server has let this socket into the room.
    fn admitted(&mut self) -> bool;

    /// Why the socket ended, once it has (taken once).
    fn take_failure(&mut self) -> Option<String>;

    /// Everything that happened since the last poll, in arrival order,
    /// with every peer reported connected before any of its packets.
    fn poll(&mut self) -> Vec<TransportEvent>;

    /// Sends bytes to a peer; a closed channel is not an error here (the
    /// disconnect arrives as an event).
    fn send(&mut self, peer: PeerId, bytes: Vec<u8>);
}

/// WebRTC data channels, with a `matchbox_signaling` server introducing
/// the peers.
#[derive(Debug, Clone, Copy, Default)]
pub struct WebRtc;

impl Network for WebRtc {
    fn open(&mut self, room_url: &str, ice: &IceServers) -> Box<dyn Connection> {
        Box::new(Transport::open(room_url, ice))
    }

    fn room_status(&self, room_url: &str) -> LocalBoxFuture<'static, Option<RoomStatus>> {
        let room_url = room_url.to_string();
        Box::pin(async move { room_peers(&room_url).await })
    }
}

impl Connection for Transport {
    fn wait(&mut self, timeout: Duration) -> LocalBoxFuture<'_, ()> {
        Box::pin(Transport::wait(self, timeout))
    }

    fn route(&self, peer: PeerId) -> Option<Route> {
        Transport::route(self, peer)
    }

    fn admitted(&mut self) -> bool {
        Transport::admitted(self)
    }

    fn take_failure(&mut self) -> Option<String> {
        Transport::take_failure(self)
    }

    fn poll(&mut self) -> Vec<TransportEvent> {
        Transport::poll(self)
    }

    fn send(&mut self, peer: PeerId, bytes: Vec<u8>) {
        Transport::send(self, peer, bytes)
    }
}

/// One WebRTC socket in one room.
pub struct Transport {
    socket: WebRtcSocket,
    channel: WebRtcChannel,
    /// Packets taken while waiting, not yet polled.
    pending_packets: Vec<TransportEvent>,
    order: PeerOrder,
    loop_task: crate::platform::Task<Result<(), matchbox_socket::Error>>,
}

impl std::fmt::Debug for Transport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Transport").finish_non_exhaustive()
    }
}

impl Transport {
    /// Joins `room_url` (`ws://HOST:PORT/ROOM`); the socket's message loop
    /// runs in the background (natively on the current tokio runtime).
    pub fn open(room_url: &str, ice: &IceServers) -> Transport {
        let (mut socket, message_loop): (WebRtcSocket, MessageLoopFuture) =
            WebRtcSocket::builder(room_url)
                .ice_server(RtcIceServerConfig {
                    urls: ice.urls.clone(),
                    username: ice.username.clone(),
                    credential: ice.credential.clone(),
                })
                .reconnect_attempts(Some(1))
                // Frequent enough that the server can tell a live member of a
                // full room from a stale one (see the signaling crate).
                .signaling_keep_alive_interval(Some(SIGNALING_KEEP_ALIVE))
                .add_reliable_channel()
                .build();
        let loop_task = crate::platform::spawn(message_loop);
        // Owning the channel apart from the socket lets `wait` listen to
        // both at once.
        let channel = socket.take_channel(0).expect("one channel was added");
        Transport {
            socket,
            channel,
            pending_packets: Vec::new(),
            order: PeerOrder::default(),
            loop_task,
        }
    }

    /// Waits until something arrives or `timeout` passes, so the caller
    /// reacts to a packet at once instead of on its next tick.
    pub async fn wait(&mut self, timeout: Duration) {
        if !self.pending_packets.is_empty() || self.is_finished() {
            return;
        }
        // Peer changes are not awaited here: taking them from the socket's
        // stream bypasses its own peer table, and a peer missing from that
        // table never gets its candidate pair (so its route) recorded.
        // `poll` reads them, at the latest after `timeout`.
        let delay = std::pin::pin!(crate::platform::sleep(timeout));
        if let futures::future::Either::Left((Some((peer, packet)), _)) =
            futures::future::select(self.channel.next(), delay).await
        {
            self.pending_packets
                .push(TransportEvent::Received(peer, packet.to_vec()));
        }
    }

    /// How a connected peer is reached, once the WebRTC stack has said
    /// (it checks about once a second).
    pub fn route(&self, peer: PeerId) -> Option<Route> {
        self.socket.is_relayed(peer).map(|relayed| {
            if relayed {
                Route::Relayed
            } else {
                Route::Direct
            }
        })
    }

    /// Whether the signaling server has let this socket into the room.
    pub fn admitted(&mut self) -> bool {
        self.socket.id().is_some()
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
        Some(match self.loop_task.try_take()? {
            Ok(Ok(())) => "the connection closed".to_string(),
            Ok(Err(e)) => e.to_string(),
            Err(e) => format!("the connection task failed: {e}"),
        })
    }

    /// Everything that happened since the last poll, in arrival order,
    /// with every peer reported connected before any of its packets.
    pub fn poll(&mut self) -> Vec<TransportEvent> {
        let raw = self.poll_raw();
        self.order.order(raw)
    }

    /// Peer changes first, then packets, as matchbox reports them.
    fn poll_raw(&mut self) -> Vec<TransportEvent> {
        let mut events = Vec::new();
        if !self.is_finished()
            && let Ok(changes) = self.socket.try_update_peers()
        {
            events.extend(changes.into_iter().map(|(peer, state)| change(peer, state)));
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

/// Packets kept from one peer before it is reported connected.
const MAX_EARLY_PACKETS: usize = 64;

/// Peers with early packets kept at once.
const MAX_EARLY_PEERS: usize = 8;

/// Holds a peer's packets back until the socket has reported it connected.
///
/// matchbox hands over a peer's packets as soon as its data channel opens,
/// but sends to that peer only once its own message loop has registered
/// the connection, which it reports as `Connected` a moment later; what is
/// sent before is dropped ("dropping packet for unknown peer"). A side that
/// answered the first packet at once (a hello, with its own hello) lost its
/// answer, and both then waited for each other for good: on a busy
/// machine, whose message loop runs late, most games stalled that way.
#[derive(Debug, Default)]
struct PeerOrder {
    connected: std::collections::HashSet<PeerId>,
    early: std::collections::HashMap<PeerId, Vec<Vec<u8>>>,
}

impl PeerOrder {
    fn order(&mut self, raw: Vec<TransportEvent>) -> Vec<TransportEvent> {
        let mut out = Vec::with_capacity(raw.len());
        for event in raw {
            match event {
                TransportEvent::Connected(peer) => {
                    self.connected.insert(peer);
                    out.push(event);
                    for bytes in self.early.remove(&peer).unwrap_or_default() {
                        out.push(TransportEvent::Received(peer, bytes));
                    }
                }
                TransportEvent::Disconnected(peer) => {
                    self.early.remove(&peer);
                    if self.connected.remove(&peer) {
                        out.push(event);
                    }
                }
                TransportEvent::Received(peer, bytes) => {
                    if self.connected.contains(&peer) {
                        out.push(TransportEvent::Received(peer, bytes));
                    } else if self.early.len() < MAX_EARLY_PEERS || self.early.contains_key(&peer) {
                        let queue = self.early.entry(peer).or_default();
                        if queue.len() < MAX_EARLY_PACKETS {
                            queue.push(bytes);
                        }
                    }
                }
            }
        }
        out
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

/// Who is in a room, as the signaling server reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RoomStatus {
    /// Sockets in the room.
    pub peers: u64,
    /// Whether it takes no one else.
    pub full: bool,
}

/// Asks the signaling server who is in a room (`GET /room/ROOM`), to
/// explain a refused or fruitless connection. `None` when the server
/// cannot say.
pub async fn room_peers(room_url: &str) -> Option<RoomStatus> {
    let server = super::server_url::ServerUrl::parse(room_url).ok()?;
    let room = room_url.rsplit('/').next()?;
    let path = format!("/room/{room}");
    let (status, body) = super::http_client::http_get(&server, &path, 4096, Duration::from_secs(2))
        .await
        .ok()?;
    if status != 200 {
        return None;
    }
    let status: serde_json::Value = serde_json::from_str(body.trim()).ok()?;
    Some(RoomStatus {
        peers: status["peers"].as_u64()?,
        full: status["full"].as_bool()?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn peer(n: u128) -> PeerId {
        PeerId(uuid::Uuid::from_u128(n))
    }

    #[test]
    fn a_peers_packets_wait_until_it_is_reported_connected() {
        let mut order = PeerOrder::default();
        let (a, b) = (peer(1), peer(2));
        let first = order.order(vec![
            TransportEvent::Received(a, vec![1]),
            TransportEvent::Received(a, vec![2]),
        ]);
        assert_eq!(first, vec![], "nothing before the connected notice");
        let next = order.order(vec![
            TransportEvent::Connected(a),
            TransportEvent::Received(b, vec![9]),
            TransportEvent::Received(a, vec![3]),
        ]);
        assert_eq!(
            next,
            vec![
                TransportEvent::Connected(a),
                TransportEvent::Received(a, vec![1]),
                TransportEvent::Received(a, vec![2]),
                TransportEvent::Received(a, vec![3]),
            ]
        );
        // A peer that leaves before it connected is never reported at all.
        assert_eq!(order.order(vec![TransportEvent::Disconnected(b)]), vec![]);
        assert_eq!(
            order.order(vec![TransportEvent::Disconnected(a)]),
            vec![TransportEvent::Disconnected(a)]
        );
    }

    #[test]
    fn early_packets_are_bounded() {
        let mut order = PeerOrder::default();
        let flood: Vec<TransportEvent> = (0..1000u128)
            .flat_map(|p| (0..100u8).map(move |i| TransportEvent::Received(peer(p), vec![i])))
            .collect();
        assert!(order.order(flood).is_empty());
        assert_eq!(order.early.len(), MAX_EARLY_PEERS);
        assert!(order.early.values().all(|q| q.len() == MAX_EARLY_PACKETS));
        let released = order.order(vec![TransportEvent::Connected(peer(0))]);
        assert_eq!(released.len(), 1 + MAX_EARLY_PACKETS);
    }
}
