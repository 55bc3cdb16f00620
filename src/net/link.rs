//! When a connection is given up and when the next one is tried: a pure
//! policy, fed the time by the driver, so the reconnection logic is tested
//! without a network.
//!
//! Three things end a connection besides the transport saying so:
//! - the signaling server did not let us in within [`SIGNALING_TIMEOUT`]
//!   (a connect to an unreachable server can otherwise hang for minutes in
//!   TCP's own retries);
//! - the opponent, once connected, sent nothing for [`SILENCE_LIMIT`]
//!   although both sides send a heartbeat every [`HEARTBEAT_EVERY`] (ICE
//!   itself takes about 30 s to notice a dead path);
//! - a guest found no opponent on a socket for a while (a handshake that
//!   stalled). That wait doubles with each try, so a slow machine, whose
//!   handshakes take long, is not caught in a loop of fresh sockets that
//!   each give up just before they would have worked.
//!
//! After a failure the next attempt waits a backoff that doubles from
//! [`BACKOFF_FIRST`] to [`BACKOFF_MAX`], with jitter so that two players
//! who lost the same network do not retry in lockstep.

use std::time::Duration;

use crate::platform::Instant;

/// How often a connected side tells the other it is alive.
pub const HEARTBEAT_EVERY: Duration = Duration::from_secs(1);

/// How long a connected opponent may be silent before the connection is
/// taken for dead. Well above a lossy link's retransmission delays.
pub const SILENCE_LIMIT: Duration = Duration::from_secs(10);

/// How long a connected opponent may be silent before a second connection
/// from the room is taken instead: in a room of two, a newcomer while the
/// old link is quiet is the opponent coming back (its hello proves it).
pub const NEWCOMER_AFTER: Duration = Duration::from_secs(3);

/// How long the signaling server may take to let us into the room.
pub const SIGNALING_TIMEOUT: Duration = Duration::from_secs(6);

/// The first wait of a guest for the host's handshake on one socket.
pub const PEER_WAIT_FIRST: Duration = Duration::from_secs(10);

/// The longest a guest waits for a handshake on one socket.
pub const PEER_WAIT_MAX: Duration = Duration::from_secs(60);

/// The first delay before reconnecting.
pub const BACKOFF_FIRST: Duration = Duration::from_millis(250);

/// The longest delay before reconnecting: short, so that a game moves again
/// within seconds of its network returning. While the network is down an
/// attempt fails at once and costs the server nothing; while the server is
/// up and the opponent away, the socket stays open in the room instead of
/// retrying, so this pace never turns into load.
pub const BACKOFF_MAX: Duration = Duration::from_secs(2);

/// What the player is shown about the connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkStatus {
    /// Connecting for the first time, or waiting in the room for the opponent.
    Connecting,
    /// Connected to the opponent.
    Connected,
    /// The connection was lost; the next try is attempt `attempt`, due at `at`.
    Reconnecting {
        /// Which attempt comes next (1 for the first after a loss).
        attempt: u32,
        /// When it starts.
        at: Instant,
    },
}

impl LinkStatus {
    /// `reconnecting, attempt N, next in S s` (or `connecting`, `connected`).
    pub fn describe(&self, now: Instant) -> String {
        match self {
            LinkStatus::Connecting => "connecting".to_string(),
            LinkStatus::Connected => "connected".to_string(),
            LinkStatus::Reconnecting { attempt, at } => {
                let secs = at.saturating_duration_since(now).as_secs_f64();
                format!("reconnecting, attempt {attempt}, next in {secs:.0} s")
            }
        }
    }
}

/// Why a connection is given up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GiveUp {
    /// The signaling server did not let us in.
    SignalingTimeout,
    /// The opponent went silent.
    Silent,
    /// No opponent arrived on this socket (guests only).
    NoHandshake,
}

impl std::fmt::Display for GiveUp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            GiveUp::SignalingTimeout => "the signaling server did not answer",
            GiveUp::Silent => "the opponent went silent",
            GiveUp::NoHandshake => "no connection to the opponent on this socket",
        })
    }
}

/// The state of one side's connection attempts.
#[derive(Debug, Clone)]
pub struct LinkPolicy {
    /// Failures since the last connection to the opponent.
    failures: u32,
    /// Sockets opened without meeting the opponent (sets the peer wait).
    empty_sockets: u32,
    /// When the current socket was opened, if there is one.
    opened_at: Option<Instant>,
    /// Whether the signaling server has let the current socket in.
    admitted: bool,
    /// When the opponent connected on the current socket (cleared when
    /// they leave it).
    connected_at: Option<Instant>,
    /// Whether the opponent was ever met on the current socket.
    met: bool,
    /// When the opponent was last heard from.
    heard_at: Option<Instant>,
    /// When we last sent a heartbeat.
    beat_at: Option<Instant>,
    /// When to open the next socket.
    retry_at: Instant,
    /// A small generator for the jitter.
    jitter_state: u64,
}

impl LinkPolicy {
    /// A policy whose first socket may open at once; `seed` varies the jitter.
    pub fn new(now: Instant, seed: u64) -> LinkPolicy {
        LinkPolicy {
            failures: 0,
            empty_sockets: 0,
            opened_at: None,
            admitted: false,
            connected_at: None,
            met: false,
            heard_at: None,
            beat_at: None,
            retry_at: now,
            jitter_state: seed | 1,
        }
    }

    /// Whether a new socket should be opened now.
    pub fn should_open(&self, now: Instant) -> bool {
        self.opened_at.is_none() && now >= self.retry_at
    }

    /// A socket was opened.
    pub fn opened(&mut self, now: Instant) {
        self.opened_at = Some(now);
        self.admitted = false;
        self.connected_at = None;
        self.met = false;
        self.heard_at = None;
        self.beat_at = None;
    }

    /// The signaling server let the socket into the room; `true` the first
    /// time for this socket (the network works again: a sign to look in the
    /// mailbox at once).
    pub fn admitted(&mut self) -> bool {
        !std::mem::replace(&mut self.admitted, true)
    }

    /// The opponent connected on the current socket.
    pub fn connected(&mut self, now: Instant) {
        self.failures = 0;
        self.empty_sockets = 0;
        self.connected_at = Some(now);
        self.met = true;
        self.heard_at = Some(now);
    }

    /// Something arrived from the opponent.
    pub fn heard(&mut self, now: Instant) {
        self.heard_at = Some(now);
    }

    /// The opponent left but the socket stays (a host waiting in its room).
    pub fn peer_left(&mut self, now: Instant) {
        self.connected_at = None;
        self.heard_at = None;
        // The wait for a handshake on this socket starts again.
        if self.opened_at.is_some() {
            self.opened_at = Some(now);
        }
    }

    /// Whether a heartbeat is due; if so, it counts as sent.
    pub fn heartbeat_due(&mut self, now: Instant) -> bool {
        if self.connected_at.is_none() {
            return false;
        }
        let due = self
            .beat_at
            .is_none_or(|at| now.duration_since(at) >= HEARTBEAT_EVERY);
        if due {
            self.beat_at = Some(now);
        }
        due
    }

    /// Whether the connected opponent has been quiet for a while (several
    /// heartbeats missed): a newcomer in the room should then replace
    /// their connection, and their next record may come by the mailbox.
    pub fn quiet(&self, now: Instant) -> bool {
        self.heard_at
            .is_some_and(|heard| now.duration_since(heard) > NEWCOMER_AFTER)
    }

    /// How long a guest's socket may go without the opponent.
    pub fn peer_wait(&self) -> Duration {
        let doublings = self.empty_sockets.min(8);
        (PEER_WAIT_FIRST * 2u32.pow(doublings)).min(PEER_WAIT_MAX)
    }

    /// Whether the current socket should be given up, and why. `guest`:
    /// whether this side gives up a socket without a handshake (the host
    /// stays in its room, so the two never chase each other's sockets).
    pub fn check(&self, now: Instant, guest: bool) -> Option<GiveUp> {
        let opened = self.opened_at?;
        if !self.admitted {
            return (now.duration_since(opened) > SIGNALING_TIMEOUT)
                .then_some(GiveUp::SignalingTimeout);
        }
        match self.heard_at {
            Some(heard) => (now.duration_since(heard) > SILENCE_LIMIT).then_some(GiveUp::Silent),
            None => (guest && now.duration_since(opened) > self.peer_wait())
                .then_some(GiveUp::NoHandshake),
        }
    }

    /// The socket is gone (failed, given up, or the opponent left a guest):
    /// schedules the next one after the backoff.
    pub fn closed(&mut self, now: Instant) {
        if self.opened_at.take().is_some() && !self.met && self.admitted {
            self.empty_sockets += 1;
        }
        self.connected_at = None;
        self.heard_at = None;
        self.admitted = false;
        self.failures += 1;
        self.retry_at = now + self.backoff();
    }

    /// The delay before the next attempt: doubling with each failure, with
    /// up to a quarter of it added at random.
    fn backoff(&mut self) -> Duration {
        let doublings = self.failures.saturating_sub(1).min(16);
        let base = (BACKOFF_FIRST * 2u32.pow(doublings)).min(BACKOFF_MAX);
        // xorshift: jitter needs no quality, only variety.
        let mut x = self.jitter_state;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.jitter_state = x;
        base + base.mul_f64((x % 1000) as f64 / 4000.0)
    }

    /// What to show the player.
    pub fn status(&self) -> LinkStatus {
        if self.connected_at.is_some() {
            LinkStatus::Connected
        } else if self.opened_at.is_none() && self.failures > 0 {
            LinkStatus::Reconnecting {
                attempt: self.failures,
                at: self.retry_at,
            }
        } else {
            LinkStatus::Connecting
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(s: f64) -> Duration {
        Duration::from_secs_f64(s)
    }

    #[test]
    fn the_first_socket_opens_at_once_and_failures_back_off_to_the_cap() {
        let t0 = Instant::now();
        let mut link = LinkPolicy::new(t0, 7);
        assert!(link.should_open(t0));
        let mut now = t0;
        let mut delays = Vec::new();
        for _ in 0..10 {
            link.opened(now);
            assert!(!link.should_open(now));
            link.closed(now);
            let LinkStatus::Reconnecting { at, .. } = link.status() else {
                panic!("reconnecting after a failure");
            };
            delays.push(at - now);
            assert!(!link.should_open(now));
            assert!(link.should_open(at));
            now = at;
        }
        assert!(delays[0] >= BACKOFF_FIRST && delays[0] <= BACKOFF_FIRST.mul_f64(1.25));
        assert!(delays.windows(2).take(3).all(|w| w[1] > w[0]), "{delays:?}");
        for d in &delays[5..] {
            assert!(
                *d >= BACKOFF_MAX && *d <= BACKOFF_MAX.mul_f64(1.25),
                "{d:?}"
            );
        }
    }

    #[test]
    fn admission_is_news_once_per_socket() {
        let t0 = Instant::now();
        let mut link = LinkPolicy::new(t0, 3);
        link.opened(t0);
        assert!(link.admitted(), "the first admission of a socket");
        assert!(!link.admitted(), "the same socket again");
        link.closed(t0);
        link.opened(t0 + secs(3.0));
        assert!(link.admitted(), "a new socket's admission");
    }

    #[test]
    fn the_status_counts_attempts_and_says_when_the_next_starts() {
        let t0 = Instant::now();
        let mut link = LinkPolicy::new(t0, 1);
        assert_eq!(link.status(), LinkStatus::Connecting);
        link.opened(t0);
        link.admitted();
        link.connected(t0);
        assert_eq!(link.status(), LinkStatus::Connected);
        link.closed(t0);
        let status = link.status();
        assert!(matches!(
            status,
            LinkStatus::Reconnecting { attempt: 1, .. }
        ));
        assert_eq!(
            status.describe(t0 + secs(0.1)),
            "reconnecting, attempt 1, next in 0 s"
        );
        link.opened(t0 + secs(1.0));
        link.closed(t0 + secs(1.0));
        link.opened(t0 + secs(2.0));
        link.closed(t0 + secs(2.0));
        let status = link.status();
        assert!(matches!(
            status,
            LinkStatus::Reconnecting { attempt: 3, .. }
        ));
        assert!(
            status
                .describe(t0 + secs(2.0))
                .starts_with("reconnecting, attempt 3, next in 1 s")
        );
        // Meeting the opponent again resets the count.
        link.opened(t0 + secs(5.0));
        link.admitted();
        link.connected(t0 + secs(5.0));
        link.closed(t0 + secs(6.0));
        assert!(matches!(
            link.status(),
            LinkStatus::Reconnecting { attempt: 1, .. }
        ));
    }

    #[test]
    fn a_silent_opponent_is_given_up_after_the_limit_and_heartbeats_keep_time() {
        let t0 = Instant::now();
        let mut link = LinkPolicy::new(t0, 1);
        link.opened(t0);
        link.admitted();
        assert!(!link.heartbeat_due(t0), "no heartbeat without an opponent");
        link.connected(t0);
        assert!(link.heartbeat_due(t0));
        assert!(!link.heartbeat_due(t0 + secs(0.5)));
        assert!(link.heartbeat_due(t0 + secs(1.0)));
        link.heard(t0 + secs(3.0));
        assert_eq!(link.check(t0 + secs(12.9), false), None);
        assert_eq!(link.check(t0 + secs(13.1), false), Some(GiveUp::Silent));
        assert_eq!(link.check(t0 + secs(13.1), true), Some(GiveUp::Silent));
    }

    #[test]
    fn a_newcomer_replaces_a_connection_only_once_it_has_gone_quiet() {
        let t0 = Instant::now();
        let mut link = LinkPolicy::new(t0, 1);
        link.opened(t0);
        link.admitted();
        assert!(!link.quiet(t0 + secs(60.0)), "no opponent yet");
        link.connected(t0);
        link.heard(t0 + secs(1.0));
        assert!(!link.quiet(t0 + secs(3.9)));
        assert!(link.quiet(t0 + secs(4.1)));
    }

    #[test]
    fn a_server_that_does_not_admit_us_is_given_up() {
        let t0 = Instant::now();
        let mut link = LinkPolicy::new(t0, 1);
        link.opened(t0);
        assert_eq!(link.check(t0 + secs(5.0), false), None);
        assert_eq!(
            link.check(t0 + secs(6.5), false),
            Some(GiveUp::SignalingTimeout)
        );
        link.admitted();
        assert_eq!(link.check(t0 + secs(6.5), false), None);
    }

    #[test]
    fn only_a_guest_gives_up_an_empty_room_and_its_wait_doubles_each_time() {
        let t0 = Instant::now();
        let mut link = LinkPolicy::new(t0, 1);
        let mut now = t0;
        let mut waits = Vec::new();
        for _ in 0..5 {
            link.opened(now);
            link.admitted();
            let wait = link.peer_wait();
            waits.push(wait);
            assert_eq!(link.check(now + wait - secs(0.1), true), None);
            assert_eq!(
                link.check(now + wait + secs(0.1), false),
                None,
                "the host stays"
            );
            assert_eq!(
                link.check(now + wait + secs(0.1), true),
                Some(GiveUp::NoHandshake)
            );
            now += wait + secs(0.1);
            link.closed(now);
        }
        assert_eq!(
            waits,
            vec![secs(10.0), secs(20.0), secs(40.0), secs(60.0), secs(60.0)]
        );
        // A connection resets the wait.
        link.opened(now);
        link.admitted();
        link.connected(now);
        assert_eq!(link.peer_wait(), PEER_WAIT_FIRST);
    }

    #[test]
    fn a_host_whose_opponent_left_waits_on_the_same_socket() {
        let t0 = Instant::now();
        let mut link = LinkPolicy::new(t0, 1);
        link.opened(t0);
        link.admitted();
        link.connected(t0);
        link.peer_left(t0 + secs(30.0));
        assert_eq!(link.status(), LinkStatus::Connecting);
        assert_eq!(link.check(t0 + secs(300.0), false), None);
        assert!(!link.heartbeat_due(t0 + secs(31.0)));
    }
}
