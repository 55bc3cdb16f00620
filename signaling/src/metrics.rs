//! Counters for `GET /metrics`, in Prometheus' text format.

use std::fmt::Write;
use std::sync::atomic::{AtomicU64, Ordering};

/// Why a request or connection was turned away, as a metric label.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefusalReason {
    /// The room already had two players.
    RoomFull,
    /// The server was at its connection limit.
    ServerFull,
    /// Too many connections from one address.
    TooManyFromAddress,
    /// An invalid room name.
    BadRoomName,
    /// `/ice` asked too often from one address.
    IceRateLimited,
    /// A malformed `/ice` request.
    BadIceRequest,
    /// A connection closed for breaking a rule (too large, binary, malformed, idle).
    ProtocolViolation,
}

impl RefusalReason {
    const ALL: [RefusalReason; 7] = [
        RefusalReason::RoomFull,
        RefusalReason::ServerFull,
        RefusalReason::TooManyFromAddress,
        RefusalReason::BadRoomName,
        RefusalReason::IceRateLimited,
        RefusalReason::BadIceRequest,
        RefusalReason::ProtocolViolation,
    ];

    fn label(self) -> &'static str {
        match self {
            RefusalReason::RoomFull => "room_full",
            RefusalReason::ServerFull => "server_full",
            RefusalReason::TooManyFromAddress => "too_many_from_address",
            RefusalReason::BadRoomName => "bad_room_name",
            RefusalReason::IceRateLimited => "ice_rate_limited",
            RefusalReason::BadIceRequest => "bad_ice_request",
            RefusalReason::ProtocolViolation => "protocol_violation",
        }
    }
}

/// The server's counters (monotonic; gauges are read from the registry).
#[derive(Debug, Default)]
pub struct Metrics {
    connections: AtomicU64,
    refusals: [AtomicU64; RefusalReason::ALL.len()],
    turn_credentials: AtomicU64,
    ice_requests: AtomicU64,
}

/// Values read at the moment of the request.
#[derive(Debug, Clone, Copy)]
pub struct Gauges {
    /// Open websocket connections.
    pub connections: usize,
    /// Rooms with at least one peer.
    pub rooms: usize,
    /// Peers in rooms.
    pub peers: usize,
    /// Seconds since the server started.
    pub uptime_secs: u64,
    /// The mailbox's, when it is open.
    pub mailbox: Option<MailboxGauges>,
}

/// The mailbox's figures at the moment of the request.
#[derive(Debug, Clone, Copy)]
pub struct MailboxGauges {
    /// Database failures since the start.
    pub database_errors: u64,
    /// Whether records stored by other instances are heard.
    pub listening: bool,
}

impl Metrics {
    /// A websocket connection was accepted.
    pub fn connection(&self) {
        self.connections.fetch_add(1, Ordering::Relaxed);
    }

    /// Something was refused.
    pub fn refused(&self, reason: RefusalReason) {
        let i = RefusalReason::ALL
            .iter()
            .position(|r| *r == reason)
            .unwrap_or(0);
        self.refusals[i].fetch_add(1, Ordering::Relaxed);
    }

    /// `/ice` was answered, with TURN credentials or without.
    pub fn ice_answered(&self, with_credentials: bool) {
        self.ice_requests.fetch_add(1, Ordering::Relaxed);
        if with_credentials {
            self.turn_credentials.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// The Prometheus text exposition.
    pub fn render(&self, gauges: Gauges) -> String {
        let mut out = String::new();
        let mut metric = |name: &str, kind: &str, help: &str, samples: &[(&str, u64)]| {
            let _ = writeln!(out, "# HELP reversi_signaling_{name} {help}");
            let _ = writeln!(out, "# TYPE reversi_signaling_{name} {kind}");
            for (labels, value) in samples {
                let _ = writeln!(out, "reversi_signaling_{name}{labels} {value}");
            }
        };
        let load = |a: &AtomicU64| a.load(Ordering::Relaxed);
        metric(
            "connections",
            "gauge",
            "Open websocket connections.",
            &[("", gauges.connections as u64)],
        );
        metric(
            "connections_total",
            "counter",
            "Websocket connections accepted since the start.",
            &[("", load(&self.connections))],
        );
        metric(
            "rooms",
            "gauge",
            "Rooms with at least one peer.",
            &[("", gauges.rooms as u64)],
        );
        metric(
            "peers",
            "gauge",
            "Peers in rooms.",
            &[("", gauges.peers as u64)],
        );
        let labels: Vec<String> = RefusalReason::ALL
            .iter()
            .map(|r| format!("{{reason=\"{}\"}}", r.label()))
            .collect();
        let refusals: Vec<(&str, u64)> = labels
            .iter()
            .zip(&self.refusals)
            .map(|(l, v)| (l.as_str(), load(v)))
            .collect();
        metric(
            "refusals_total",
            "counter",
            "Connections and requests refused or closed, by reason.",
            &refusals,
        );
        metric(
            "ice_requests_total",
            "counter",
            "GET /ice requests answered.",
            &[("", load(&self.ice_requests))],
        );
        metric(
            "turn_credentials_issued_total",
            "counter",
            "TURN credentials handed out.",
            &[("", load(&self.turn_credentials))],
        );
        metric(
            "uptime_seconds",
            "gauge",
            "Seconds since the server started.",
            &[("", gauges.uptime_secs)],
        );
        if let Some(mailbox) = gauges.mailbox {
            metric(
                "mailbox_database_errors_total",
                "counter",
                "Mailbox requests and readiness checks that the database failed.",
                &[("", mailbox.database_errors)],
            );
            metric(
                "mailbox_listening",
                "gauge",
                "1 when records stored by other instances are heard (always without PostgreSQL).",
                &[("", u64::from(mailbox.listening))],
            );
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_show_in_the_exposition() {
        let metrics = Metrics::default();
        metrics.connection();
        metrics.connection();
        metrics.refused(RefusalReason::RoomFull);
        metrics.refused(RefusalReason::IceRateLimited);
        metrics.refused(RefusalReason::IceRateLimited);
        metrics.ice_answered(true);
        metrics.ice_answered(false);
        let text = metrics.render(Gauges {
            connections: 3,
            rooms: 1,
            peers: 2,
            uptime_secs: 9,
            mailbox: Some(MailboxGauges {
                database_errors: 4,
                listening: true,
            }),
        });
        for line in [
            "reversi_signaling_connections 3",
            "reversi_signaling_connections_total 2",
            "reversi_signaling_rooms 1",
            "reversi_signaling_peers 2",
            "reversi_signaling_refusals_total{reason=\"room_full\"} 1",
            "reversi_signaling_refusals_total{reason=\"ice_rate_limited\"} 2",
            "reversi_signaling_refusals_total{reason=\"server_full\"} 0",
            "reversi_signaling_ice_requests_total 2",
            "reversi_signaling_turn_credentials_issued_total 1",
            "reversi_signaling_uptime_seconds 9",
            "reversi_signaling_mailbox_database_errors_total 4",
            "reversi_signaling_mailbox_listening 1",
            "# TYPE reversi_signaling_refusals_total counter",
        ] {
            assert!(
                text.lines().any(|l| l == line),
                "{line:?} missing from\n{text}"
            );
        }
    }
}
