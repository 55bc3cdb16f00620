//! A live game's copy in the mailbox: while the driver plays over WebRTC,
//! its records go to the signaling server's mailbox too, and whatever the
//! opponent delivered there (with `reversi move`, or while the two could
//! not reach each other) comes back. The requests run in the background so
//! the game loop never waits for the server.
//!
//! Posting and fetching are separate requests: while the opponent is away
//! a fetch waits at the server for their next record (answered the moment
//! it arrives), and our own records go out meanwhile.

use std::time::Duration;

use crate::platform::{Instant, Task};

use super::mailbox::{Mailbox, MailboxError};
use super::server_url::ServerUrl;
use crate::match_log::Record;

/// How soon a look follows the previous one in the first minutes after the
/// opponent was lost (or the game started without them): they are likely
/// coming back, and their next move may arrive here before a new direct
/// connection is made. Each look waits at the server for a record (up to
/// [`WAIT`]), so this is the pace only against a server that cannot wait.
const APART_SOON: Duration = Duration::from_secs(2);
/// How long after losing the opponent the quick looks go on.
const SOON_FOR: Duration = Duration::from_secs(10 * 60);
/// How often to look later (an opponent away for an evening or a week).
const APART: Duration = Duration::from_secs(5);
/// How long a look while apart waits at the server for a record.
const WAIT: Duration = Duration::from_secs(20);
/// How often to look while connected (the mailbox is only a copy then).
const TOGETHER: Duration = Duration::from_secs(30);
/// The longest wait after failures while apart: a failure then is mostly
/// our own network being down, and the first request after it returns
/// should come within seconds.
const APART_MAX_BACKOFF: Duration = Duration::from_secs(4);
/// The longest wait after failures while connected (a server in trouble is
/// not pressed).
const MAX_BACKOFF: Duration = Duration::from_secs(60);

/// The pause between the start of one look and the start of the next.
fn next_visit(connected: bool, apart_for: Duration) -> Duration {
    if connected {
        TOGETHER
    } else if apart_for < SOON_FOR {
        APART_SOON
    } else {
        APART
    }
}

/// The wait before the next request after `failures` failed in a row.
fn after_failures(failures: u32, connected: bool) -> Duration {
    let doubled = APART_SOON * 2u32.saturating_pow(failures.saturating_sub(1).min(8));
    doubled.min(if connected {
        MAX_BACKOFF
    } else {
        APART_MAX_BACKOFF
    })
}

/// When to look in the mailbox and when to post to it: pure, fed the
/// time, so its rules are tested without a server.
#[derive(Debug, Clone)]
struct Schedule {
    /// When the next look may start.
    next_fetch: Instant,
    fetch_failures: u32,
    /// When the next post may start.
    next_post: Instant,
    post_failures: u32,
    /// Since when the opponent has not been connected (`None` while they are).
    apart_since: Option<Instant>,
}

impl Schedule {
    fn new(now: Instant) -> Schedule {
        Schedule {
            next_fetch: now,
            fetch_failures: 0,
            next_post: now,
            post_failures: 0,
            apart_since: Some(now),
        }
    }

    /// Our log grew: post now.
    fn poke(&mut self, now: Instant) {
        self.next_post = self.next_post.min(now);
    }

    /// The network works again: post and look now.
    fn network_back(&mut self, now: Instant) {
        self.poke(now);
        self.next_fetch = self.next_fetch.min(now);
        self.post_failures = 0;
        self.fetch_failures = 0;
    }

    /// Whether the opponent is connected now; losing them calls for a look.
    fn connected(&mut self, now: Instant, connected: bool) {
        if connected {
            self.apart_since = None;
        } else if self.apart_since.is_none() {
            self.apart_since = Some(now);
            self.next_fetch = self.next_fetch.min(now);
        }
    }

    fn apart(&self) -> bool {
        self.apart_since.is_some()
    }

    /// How long a look started now waits at the server: never while
    /// connected, nor before we know what the mailbox holds (our own
    /// records must not wait for the opponent's).
    fn wait(&self, held_known: bool) -> Duration {
        if self.apart() && held_known {
            WAIT
        } else {
            Duration::ZERO
        }
    }

    fn fetch_due(&self, now: Instant) -> bool {
        now >= self.next_fetch
    }

    fn post_due(&self, now: Instant) -> bool {
        now >= self.next_post
    }

    /// A look started at `started` has answered; `waited`: it was one that
    /// may wait at the server.
    fn fetched(&mut self, now: Instant, started: Instant, waited: bool) {
        self.fetch_failures = 0;
        if self.apart() && !waited {
            // A quick look (to learn what the mailbox holds); the waiting
            // one follows at once.
            self.next_fetch = now;
            return;
        }
        let apart_for = self.apart_since.map(|t| now.duration_since(t));
        let pause = next_visit(apart_for.is_none(), apart_for.unwrap_or_default());
        // Paced from its start: a look that waited at the server is
        // followed at once, one answered at once keeps the pace.
        self.next_fetch = started + pause;
    }

    /// A look failed; returns the wait before the next.
    fn fetch_failed(&mut self, now: Instant) -> Duration {
        self.fetch_failures += 1;
        let wait = after_failures(self.fetch_failures, !self.apart());
        self.next_fetch = now + wait;
        wait
    }

    /// Everything to post was posted.
    fn posted(&mut self) {
        self.post_failures = 0;
    }

    /// A post failed; returns the wait before the next.
    fn post_failed(&mut self, now: Instant) -> Duration {
        self.post_failures += 1;
        let wait = after_failures(self.post_failures, !self.apart());
        self.next_post = now + wait;
        wait
    }

    /// Look again now (what the mailbox holds must be learnt again).
    fn fetch_now(&mut self, now: Instant) {
        self.next_fetch = self.next_fetch.min(now);
    }
}

type Fetch = Task<Result<Option<(u32, Vec<Record>)>, MailboxError>>;
type Post = Task<Result<u32, MailboxError>>;

/// The mailbox side of a live game.
#[derive(Debug)]
pub struct MailboxSync {
    mailbox: Mailbox,
    /// The look under way, when it started, and whether it may wait.
    fetch: Option<(Instant, bool, Fetch)>,
    post: Option<Post>,
    schedule: Schedule,
    /// How many records of the game the mailbox is known to hold (learnt by
    /// a look, raised by posts); `None` until a look has said.
    held: Option<u32>,
    off: bool,
}

impl Drop for MailboxSync {
    fn drop(&mut self) {
        if let Some((_, _, fetch)) = &self.fetch {
            fetch.abort();
        }
    }
}

impl MailboxSync {
    /// The mailbox of the server a room URL names.
    pub fn for_room(room_url: &str) -> Option<MailboxSync> {
        let server = ServerUrl::parse(room_url).ok()?;
        Some(MailboxSync {
            mailbox: Mailbox::new(server),
            fetch: None,
            post: None,
            schedule: Schedule::new(Instant::now()),
            held: None,
            off: false,
        })
    }

    /// Copy soon: the log grew.
    pub fn poke(&mut self) {
        self.schedule.poke(Instant::now());
    }

    /// The network works again (a socket reached the signaling server): a
    /// look that may hang on a connection that died with the network is
    /// dropped, and both posting and looking start again at once.
    pub fn network_back(&mut self) {
        if let Some((_, _, fetch)) = self.fetch.take() {
            fetch.abort();
        }
        self.schedule.network_back(Instant::now());
    }

    /// The mailbox for a request started now: while apart, each request
    /// is the game's only way on, and goes out twice.
    fn mailbox_now(&self) -> Mailbox {
        if self.schedule.apart() {
            self.mailbox.clone().redundant()
        } else {
            self.mailbox.clone()
        }
    }

    /// Starts requests when they are due, and returns the records the
    /// mailbox had beyond `records` when a look has answered. `connected`:
    /// the opponent is connected directly, so the mailbox is only a copy.
    pub fn poll(&mut self, records: &[Record], connected: bool) -> Option<Vec<Record>> {
        if self.off || records.is_empty() {
            return None;
        }
        let now = Instant::now();
        self.schedule.connected(now, connected);
        self.finish_post(now);
        let fetched = self.finish_fetch(now);
        if self.off {
            return None;
        }
        self.start_post(now, records);
        // Records just fetched are not in `records` until the caller has
        // applied them: a look from here now would fetch them again.
        let brought = fetched.as_ref().is_some_and(|f| !f.is_empty());
        if self.fetch.is_none() && !brought && self.schedule.fetch_due(now) {
            let mailbox = self.mailbox_now();
            let game_id = records[0].hash();
            let from = records.len() as u32;
            let wait = self.schedule.wait(self.held.is_some());
            self.fetch = Some((
                now,
                !wait.is_zero(),
                crate::platform::spawn(async move {
                    mailbox.records_waiting(&game_id, from, wait).await
                }),
            ));
        }
        fetched
    }

    /// Posts whatever of `records` the mailbox may lack, waiting at most
    /// `limit` (the game has ended and the program is about to exit).
    pub async fn flush(&mut self, records: &[Record], limit: Duration) {
        if self.off || records.is_empty() {
            return;
        }
        if let Some((_, _, fetch)) = self.fetch.take() {
            fetch.abort();
        }
        let in_flight = self.post.take();
        let mailbox = self.mailbox.clone();
        let ours = records.to_vec();
        let flushed = crate::platform::timeout(limit, async move {
            if let Some(post) = in_flight {
                let _ = post.join().await;
            }
            // What it holds now, after the post that was under way.
            let game_id = ours[0].hash();
            let held = match mailbox.records(&game_id, ours.len() as u32).await? {
                Some((held, _)) => held,
                None => 0,
            };
            match ours.get(held as usize..) {
                Some(missing) if !missing.is_empty() => mailbox.post_all(missing).await,
                _ => Ok(()),
            }
        })
        .await;
        match flushed {
            Ok(Ok(())) => tracing::debug!("mailbox: flushed"),
            Ok(Err(e)) => tracing::info!("the mailbox did not take the last records: {e}"),
            Err(_) => tracing::info!("the mailbox did not take the last records within {limit:?}"),
        }
    }

    fn finish_post(&mut self, now: Instant) {
        let Some(mut post) = self.post.take_if(|p| p.is_finished()) else {
            return;
        };
        match post.try_take() {
            Some(Ok(Ok(held))) => {
                tracing::debug!(held, "mailbox: posted");
                self.held = Some(held);
                self.schedule.posted();
            }
            Some(Ok(Err(MailboxError::Refused { status, reason }))) => {
                // Out of order, or the game is gone (a server that lost
                // its data): learn again what it holds.
                tracing::info!(status, %reason, "the mailbox refused a record; looking again");
                self.held = None;
                self.schedule.post_failed(now);
                self.schedule.fetch_now(now);
                if let Some((_, _, fetch)) = self.fetch.take() {
                    fetch.abort();
                }
            }
            other => {
                let wait = self.schedule.post_failed(now);
                tracing::info!(?other, "mailbox post failed; next in {} s", wait.as_secs());
            }
        }
    }

    fn finish_fetch(&mut self, now: Instant) -> Option<Vec<Record>> {
        let (started, waited, mut fetch) = self.fetch.take_if(|(_, _, f)| f.is_finished())?;
        match fetch.try_take() {
            Some(Ok(Ok(found))) => {
                self.schedule.fetched(now, started, waited);
                match found {
                    Some((held, beyond)) => {
                        tracing::debug!(
                            held,
                            new = beyond.len(),
                            waited = ?now.duration_since(started),
                            "mailbox: looked"
                        );
                        // A post that finished meanwhile may know more.
                        self.held = Some(self.held.map_or(held, |h| h.max(held)));
                        Some(beyond)
                    }
                    // The server lost the game (or never had it): all of
                    // it goes again, from the genesis.
                    None => {
                        self.held = Some(0);
                        None
                    }
                }
            }
            Some(Ok(Err(MailboxError::NoMailbox { server, .. }))) => {
                tracing::info!("{server} keeps no mailbox: the game goes only directly");
                self.off = true;
                None
            }
            other => {
                let wait = self.schedule.fetch_failed(now);
                tracing::info!(?other, "mailbox visit failed; next in {} s", wait.as_secs());
                None
            }
        }
    }

    /// Posts our records the mailbox lacks, once a look has said how many
    /// it holds.
    fn start_post(&mut self, now: Instant, records: &[Record]) {
        let Some(held) = self.held else { return };
        if self.post.is_some() || held as usize >= records.len() || !self.schedule.post_due(now) {
            return;
        }
        let mailbox = self.mailbox_now();
        let missing = records[held as usize..].to_vec();
        self.post = Some(crate::platform::spawn(async move {
            mailbox.post_all(&missing).await?;
            Ok(held + missing.len() as u32)
        }));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(s: u64) -> Duration {
        Duration::from_secs(s)
    }

    #[test]
    fn looks_often_soon_after_the_opponent_left_then_less() {
        assert_eq!(next_visit(true, Duration::ZERO), TOGETHER);
        assert_eq!(next_visit(false, secs(30)), APART_SOON);
        assert_eq!(next_visit(false, SOON_FOR), APART);
        assert!(APART_SOON < APART && APART < TOGETHER);
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

    #[test]
    fn apart_a_look_waits_at_the_server_and_the_next_follows_at_once() {
        let t0 = Instant::now();
        let mut schedule = Schedule::new(t0);
        assert!(schedule.fetch_due(t0), "the first look at once");
        assert_eq!(
            schedule.wait(false),
            Duration::ZERO,
            "the first look only learns what the mailbox holds"
        );
        schedule.fetched(t0, t0, false);
        assert!(schedule.fetch_due(t0), "the waiting look follows at once");
        assert_eq!(
            schedule.wait(true),
            WAIT,
            "apart: the look waits for a record"
        );
        // The server waited 20 s and answered: the next look at once.
        schedule.fetched(t0 + WAIT, t0, true);
        assert!(schedule.fetch_due(t0 + WAIT));
        // A server that answered at once: the quick pace, not a busy loop.
        let t1 = t0 + WAIT;
        schedule.fetched(t1, t1, true);
        assert!(!schedule.fetch_due(t1 + secs(1)));
        assert!(schedule.fetch_due(t1 + APART_SOON));
    }

    #[test]
    fn connected_the_mailbox_is_a_copy_looked_at_now_and_then() {
        let t0 = Instant::now();
        let mut schedule = Schedule::new(t0);
        schedule.connected(t0, true);
        assert_eq!(schedule.wait(true), Duration::ZERO);
        schedule.fetched(t0, t0, false);
        assert!(!schedule.fetch_due(t0 + secs(10)));
        assert!(schedule.fetch_due(t0 + TOGETHER));
        // Losing the opponent calls for a look at once.
        schedule.connected(t0 + secs(10), false);
        assert!(schedule.fetch_due(t0 + secs(10)));
        assert_eq!(schedule.wait(true), WAIT);
        // Long apart, the slower pace.
        let later = t0 + secs(10) + SOON_FOR + secs(1);
        schedule.fetched(later, later, true);
        assert!(!schedule.fetch_due(later + APART_SOON));
        assert!(schedule.fetch_due(later + APART));
    }

    #[test]
    fn failures_while_apart_wait_seconds_and_the_network_back_ends_the_wait() {
        let t0 = Instant::now();
        let mut schedule = Schedule::new(t0);
        let mut now = t0;
        for _ in 0..10 {
            let wait = schedule.fetch_failed(now);
            assert!(wait <= APART_MAX_BACKOFF, "{wait:?}");
            let post_wait = schedule.post_failed(now);
            assert!(post_wait <= APART_MAX_BACKOFF, "{post_wait:?}");
            now += secs(1);
        }
        assert!(!schedule.fetch_due(now) && !schedule.post_due(now));
        schedule.network_back(now);
        assert!(schedule.fetch_due(now) && schedule.post_due(now));
        // Connected, failures back off to a minute.
        schedule.connected(now, true);
        let waits: Vec<Duration> = (0..7).map(|_| schedule.fetch_failed(now)).collect();
        assert_eq!(waits.last(), Some(&MAX_BACKOFF), "{waits:?}");
    }

    #[test]
    fn a_new_record_is_posted_at_once_even_while_a_look_waits() {
        let t0 = Instant::now();
        let mut schedule = Schedule::new(t0);
        schedule.post_failed(t0);
        assert!(!schedule.post_due(t0 + secs(1)));
        // Our log grew: no waiting for the backoff or for the look.
        schedule.poke(t0 + secs(1));
        assert!(schedule.post_due(t0 + secs(1)));
        assert!(
            schedule.fetch_due(t0),
            "the look is scheduled apart from posts"
        );
    }
}
