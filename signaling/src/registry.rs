//! Who is connected where: rooms of at most two peers, and connection
//! counts in total and per IP address. Nothing about a room survives its
//! last peer.
//!
//! A member of a full room that has sent nothing (not even a keep-alive)
//! for [`Limits::stale_after`] gives its place to a newcomer: a player
//! whose network failed comes back on a new connection long before the
//! server learns that the old one is dead, and would otherwise find their
//! own ghost holding the room. A live member, whose client sends a
//! keep-alive every few seconds, is never displaced.

use std::collections::HashMap;
use std::net::IpAddr;
use std::time::{Duration, Instant};

use axum::extract::ws::Message;
use matchbox_protocol::PeerId;
use matchbox_signaling::common_logic::SignalingChannel;

/// Players per room.
pub const ROOM_CAPACITY: usize = 2;

/// Why a connection is refused or closed by a limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// The room already has two players.
    #[error("room is full")]
    RoomFull,
    /// The server holds its maximum number of connections.
    #[error("server is at its connection limit")]
    ServerFull,
    /// Too many connections from one address.
    #[error("too many connections from your address")]
    TooManyFromAddress,
}

struct Peer {
    id: PeerId,
    channel: SignalingChannel,
    /// When the peer last sent anything.
    heard: Instant,
}

/// The server's live state.
#[derive(Default)]
pub struct Registry {
    rooms: HashMap<String, Vec<Peer>>,
    per_ip: HashMap<IpAddr, usize>,
    connections: usize,
}

/// A peer admitted to its room.
pub struct Joined {
    /// The peer already in the room, to be told of the newcomer.
    pub other: Option<SignalingChannel>,
    /// Whether the room was opened by this peer.
    pub opened: bool,
    /// A silent member that gave its place to the newcomer: its id (for
    /// the others to be told it left) and its channel (to be closed).
    pub displaced: Option<(PeerId, SignalingChannel)>,
}

/// Limits the registry enforces.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Connections in total.
    pub max_connections: usize,
    /// Connections per IP address.
    pub max_per_ip: usize,
    /// How long a member of a full room may be silent before a newcomer
    /// takes its place.
    pub stale_after: Duration,
}

impl Registry {
    /// Whether a new connection from `ip` to `room` would be admitted now
    /// (checked before the websocket upgrade; [`join`](Self::join) decides).
    pub fn admission(
        &self,
        room: &str,
        ip: IpAddr,
        limits: Limits,
        now: Instant,
    ) -> Result<(), Refusal> {
        if self.connections >= limits.max_connections {
            return Err(Refusal::ServerFull);
        }
        if self.per_ip.get(&ip).copied().unwrap_or(0) >= limits.max_per_ip {
            return Err(Refusal::TooManyFromAddress);
        }
        if self.rooms.get(room).is_some_and(|r| {
            r.len() >= ROOM_CAPACITY && Self::stale_member(r, limits, now).is_none()
        }) {
            return Err(Refusal::RoomFull);
        }
        Ok(())
    }

    /// The member of a room silent longest, if longer than allowed.
    fn stale_member(peers: &[Peer], limits: Limits, now: Instant) -> Option<usize> {
        peers
            .iter()
            .enumerate()
            .filter(|(_, p)| now.saturating_duration_since(p.heard) > limits.stale_after)
            .min_by_key(|(_, p)| p.heard)
            .map(|(i, _)| i)
    }

    /// `peer` in `room` sent something.
    pub fn heard(&mut self, room: &str, peer: PeerId, now: Instant) {
        if let Some(p) = self
            .rooms
            .get_mut(room)
            .and_then(|r| r.iter_mut().find(|p| p.id == peer))
        {
            p.heard = now;
        }
    }

    /// Adds an upgraded peer to its room.
    pub fn join(
        &mut self,
        room: &str,
        ip: IpAddr,
        peer: PeerId,
        channel: SignalingChannel,
        limits: Limits,
        now: Instant,
    ) -> Result<Joined, Refusal> {
        self.admission(room, ip, limits, now)?;
        self.connections += 1;
        *self.per_ip.entry(ip).or_default() += 1;
        let peers = self.rooms.entry(room.to_string()).or_default();
        // Its connection still counts until it closes; only the place goes.
        let displaced = if peers.len() >= ROOM_CAPACITY {
            Self::stale_member(peers, limits, now)
                .map(|i| peers.remove(i))
                .map(|p| (p.id, p.channel))
        } else {
            None
        };
        let opened = peers.is_empty() && displaced.is_none();
        let other = peers.first().map(|p| p.channel.clone());
        peers.push(Peer {
            id: peer,
            channel,
            heard: now,
        });
        Ok(Joined {
            other,
            opened,
            displaced,
        })
    }

    /// Removes a peer, returning the peer left in the room (to tell) and
    /// whether the room closed.
    pub fn leave(
        &mut self,
        room: &str,
        peer: PeerId,
        ip: IpAddr,
    ) -> (Option<SignalingChannel>, bool) {
        self.connections = self.connections.saturating_sub(1);
        if let Some(count) = self.per_ip.get_mut(&ip) {
            *count -= 1;
            if *count == 0 {
                self.per_ip.remove(&ip);
            }
        }
        let Some(peers) = self.rooms.get_mut(room) else {
            return (None, false);
        };
        if !peers.iter().any(|p| p.id == peer) {
            // Displaced earlier: the room was already told.
            return (None, false);
        }
        peers.retain(|p| p.id != peer);
        let other = peers.first().map(|p| p.channel.clone());
        let closed = peers.is_empty();
        if closed {
            self.rooms.remove(room);
        }
        // Hash tables keep their capacity; give it back once most of it is
        // unused, so memory follows the rooms down after a peak.
        if self.rooms.capacity() > 64 && self.rooms.len() * 4 < self.rooms.capacity() {
            self.rooms.shrink_to_fit();
        }
        if self.per_ip.capacity() > 64 && self.per_ip.len() * 4 < self.per_ip.capacity() {
            self.per_ip.shrink_to_fit();
        }
        (other, closed)
    }

    /// The channel of `receiver` if it is in `room` (and is not `sender`).
    pub fn peer_in_room(
        &self,
        room: &str,
        sender: PeerId,
        receiver: PeerId,
    ) -> Option<SignalingChannel> {
        self.rooms
            .get(room)?
            .iter()
            .find(|p| p.id == receiver && p.id != sender)
            .map(|p| p.channel.clone())
    }

    /// Players in a room now.
    pub fn room_peers(&self, room: &str) -> usize {
        self.rooms.get(room).map_or(0, Vec::len)
    }

    /// Rooms open now.
    pub fn room_count(&self) -> usize {
        self.rooms.len()
    }

    /// Peers connected now.
    pub fn peer_count(&self) -> usize {
        self.connections
    }

    /// Peers in rooms now (a displaced member still connected is not one).
    pub fn member_count(&self) -> usize {
        self.rooms.values().map(Vec::len).sum()
    }

    /// Sends a message to every connected peer (used at shutdown).
    pub fn broadcast(&self, message: &Message) {
        for peer in self.rooms.values().flatten() {
            let _ = peer.channel.send(Ok(message.clone()));
        }
    }
}
