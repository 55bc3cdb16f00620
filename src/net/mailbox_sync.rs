//! A live game's copy in the mailbox: while the driver plays over WebRTC,
//! its records go to the signaling server's mailbox too, and whatever the
//! opponent delivered there (with `reversi move`, or while the two could
//! not reach each other) comes back. The requests run in the background so
//! the game loop never waits for the server.

use std::time::{Duration, Instant};

use futures::FutureExt as _;
use tokio::task::JoinHandle;

use super::mailbox::{Mailbox, MailboxError};
use super::server_url::ServerUrl;
use crate::match_log::Record;

/// How often to look in the first minutes after the opponent was lost (or
/// the game started without them): they are likely coming back, and their
/// next move may arrive here before a new direct connection is made.
const APART_SOON: Duration = Duration::from_secs(2);
/// How long after losing the opponent the quick looks go on.
const SOON_FOR: Duration = Duration::from_secs(10 * 60);
/// How often to look later (an opponent away for an evening or a week).
const APART: Duration = Duration::from_secs(5);
/// How often to copy while connected (each own record is copied at once).
const TOGETHER: Duration = Duration::from_secs(30);
/// The longest wait after failures while apart: a failure then is mostly
/// our own network being down, and the first look after it returns should
/// come within seconds.
const APART_MAX_BACKOFF: Duration = Duration::from_secs(4);
/// The longest wait after failures while connected (the mailbox is only a
/// copy then, and a server in trouble is not pressed).
const MAX_BACKOFF: Duration = Duration::from_secs(60);

/// The wait before the next visit after one succeeded.
fn next_visit(connected: bool, apart_for: Duration) -> Duration {
    if connected {
        TOGETHER
    } else if apart_for < SOON_FOR {
        APART_SOON
    } else {
        APART
    }
}

/// The wait before the next visit after `failures` failed in a row.
fn after_failures(failures: u32, connected: bool) -> Duration {
    let doubled = APART_SOON * 2u32.saturating_pow(failures.saturating_sub(1).min(8));
    doubled.min(if connected {
        MAX_BACKOFF
    } else {
        APART_MAX_BACKOFF
    })
}

type Visit = JoinHandle<Result<Vec<Record>, MailboxError>>;

/// When to visit the mailbox: pure, fed the time, so its rules are tested
/// without a server.
#[derive(Debug, Clone)]
struct Schedule {
    next: Instant,
    failures: u32,
    /// Since when the opponent has not been connected (`None` while they are).
    apart_since: Option<Instant>,
    /// Poked since the current visit started: that visit may have missed
    /// what the poke was for, so the next one starts as soon as it ends.
    poked: bool,
}

impl Schedule {
    fn new(now: Instant) -> Schedule {
        Schedule {
            next: now,
            failures: 0,
            apart_since: Some(now),
            poked: false,
        }
    }

    fn poke(&mut self, now: Instant) {
        self.poked = true;
        self.next = self.next.min(now);
    }

    /// Whether the opponent is connected now; losing them calls for a look.
    fn connected(&mut self, now: Instant, connected: bool) {
        if connected {
            self.apart_since = None;
        } else if self.apart_since.is_none() {
            self.apart_since = Some(now);
            self.poke(now);
        }
    }

    fn due(&self, now: Instant) -> bool {
        now >= self.next
    }

    fn started(&mut self) {
        self.poked = false;
    }

    fn succeeded(&mut self, now: Instant) {
        self.failures = 0;
        let apart_for = self.apart_since.map(|t| now.duration_since(t));
        self.next = if self.poked {
            now
        } else {
            now + next_visit(apart_for.is_none(), apart_for.unwrap_or_default())
        };
    }

    /// A visit failed; returns the wait before the next.
    fn failed(&mut self, now: Instant) -> Duration {
        self.failures += 1;
        let wait = after_failures(self.failures, self.apart_since.is_none());
        self.next = now + wait;
        wait
    }
}

/// The mailbox side of a live game.
#[derive(Debug)]
pub struct MailboxSync {
    mailbox: Mailbox,
    visit: Option<Visit>,
    schedule: Schedule,
    off: bool,
}

impl MailboxSync {
    /// The mailbox of the server a room URL names.
    pub fn for_room(room_url: &str) -> Option<MailboxSync> {
        let server = ServerUrl::parse(room_url).ok()?;
        Some(MailboxSync {
            mailbox: Mailbox::new(server),
            visit: None,
            schedule: Schedule::new(Instant::now()),
            off: false,
        })
    }

    /// Copy soon: the log grew (or the network is back).
    pub fn poke(&mut self) {
        self.schedule.poke(Instant::now());
    }

    /// Starts a visit when one is due, and returns the records the mailbox
    /// had beyond `records` when a visit has finished. `connected`: the
    /// opponent is connected directly, so the mailbox is only a copy.
    pub fn poll(&mut self, records: &[Record], connected: bool) -> Option<Vec<Record>> {
        if self.off {
            return None;
        }
        let now = Instant::now();
        self.schedule.connected(now, connected);
        if let Some(visit) = &mut self.visit {
            if !visit.is_finished() {
                return None;
            }
            let finished = visit.now_or_never();
            self.visit = None;
            return match finished {
                Some(Ok(Ok(fetched))) => {
                    self.schedule.succeeded(now);
                    Some(fetched)
                }
                Some(Ok(Err(MailboxError::NoMailbox { server, .. }))) => {
                    tracing::info!("{server} keeps no mailbox: the game goes only directly");
                    self.off = true;
                    None
                }
                other => {
                    let wait = self.schedule.failed(now);
                    tracing::info!(?other, "mailbox visit failed; next in {} s", wait.as_secs());
                    None
                }
            };
        }
        if !self.schedule.due(now) || records.is_empty() {
            return None;
        }
        self.schedule.started();
        let mailbox = self.mailbox.clone();
        let ours = records.to_vec();
        self.visit = Some(tokio::spawn(async move { exchange(&mailbox, &ours).await }));
        None
    }
}

/// Fetches what the mailbox has beyond `ours`, then posts what it lacks.
async fn exchange(mailbox: &Mailbox, ours: &[Record]) -> Result<Vec<Record>, MailboxError> {
    let game_id = ours[0].hash();
    let (held, beyond) = mailbox
        .records(&game_id, ours.len() as u32)
        .await?
        .unwrap_or((0, Vec::new()));
    for record in ours.iter().skip(held as usize) {
        mailbox.post(record, None).await?;
    }
    Ok(beyond)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn looks_often_soon_after_the_opponent_left_then_less() {
        assert_eq!(next_visit(true, Duration::ZERO), TOGETHER);
        assert_eq!(next_visit(false, Duration::from_secs(30)), APART_SOON);
        assert_eq!(next_visit(false, SOON_FOR), APART);
        assert!(APART_SOON < APART && APART < TOGETHER);
    }

    fn secs(s: u64) -> Duration {
        Duration::from_secs(s)
    }

    #[test]
    fn a_poke_during_a_visit_is_not_lost() {
        let t0 = Instant::now();
        let mut schedule = Schedule::new(t0);
        schedule.connected(t0, true);
        assert!(schedule.due(t0), "the first visit at once");
        schedule.started();
        // A record is made while the visit is under way …
        schedule.poke(t0 + secs(1));
        schedule.succeeded(t0 + secs(2));
        // … so the next visit is due as soon as this one ends.
        assert!(schedule.due(t0 + secs(2)));
        schedule.started();
        schedule.succeeded(t0 + secs(3));
        assert!(!schedule.due(t0 + secs(4)), "no poke: the connected pace");
        assert!(schedule.due(t0 + secs(3) + TOGETHER));
    }

    #[test]
    fn losing_the_opponent_calls_for_a_look_and_quick_ones_after() {
        let t0 = Instant::now();
        let mut schedule = Schedule::new(t0);
        schedule.connected(t0, true);
        schedule.started();
        schedule.succeeded(t0);
        assert!(!schedule.due(t0 + secs(10)));
        schedule.connected(t0 + secs(10), false);
        assert!(
            schedule.due(t0 + secs(10)),
            "a look as soon as they are lost"
        );
        schedule.started();
        schedule.succeeded(t0 + secs(11));
        assert!(schedule.due(t0 + secs(11) + APART_SOON));
        // Much later, the slower pace.
        let later = t0 + secs(10) + SOON_FOR + secs(1);
        schedule.started();
        schedule.succeeded(later);
        assert!(!schedule.due(later + APART_SOON));
        assert!(schedule.due(later + APART));
    }

    #[test]
    fn failures_while_apart_wait_seconds_not_minutes() {
        let t0 = Instant::now();
        let mut schedule = Schedule::new(t0);
        let mut now = t0;
        for _ in 0..10 {
            schedule.started();
            let wait = schedule.failed(now);
            assert!(wait <= APART_MAX_BACKOFF, "{wait:?}");
            now += wait;
            assert!(schedule.due(now));
        }
        schedule.started();
        schedule.succeeded(now);
        schedule.connected(now, true);
        schedule.started();
        let waits: Vec<Duration> = (0..7).map(|_| schedule.failed(now)).collect();
        assert_eq!(waits.last(), Some(&MAX_BACKOFF), "{waits:?}");
    }

    #[test]
    fn failures_back_off_less_while_apart() {
        let apart: Vec<u64> = (1..=6)
            .map(|f| after_failures(f, false).as_secs())
            .collect();
        assert_eq!(apart, [2, 4, 4, 4, 4, 4]);
        let together: Vec<u64> = (1..=7).map(|f| after_failures(f, true).as_secs()).collect();
        assert_eq!(together, [2, 4, 8, 16, 32, 60, 60]);
        assert_eq!(after_failures(u32::MAX, true), MAX_BACKOFF);
    }
}
