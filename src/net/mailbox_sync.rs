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

/// How often to look while the opponent is not connected.
const APART: Duration = Duration::from_secs(5);
/// How often to copy while connected (each own record is copied at once).
const TOGETHER: Duration = Duration::from_secs(30);
/// The longest wait after failures.
const MAX_BACKOFF: Duration = Duration::from_secs(60);

type Visit = JoinHandle<Result<Vec<Record>, MailboxError>>;

/// The mailbox side of a live game.
#[derive(Debug)]
pub struct MailboxSync {
    mailbox: Mailbox,
    visit: Option<Visit>,
    next: Instant,
    failures: u32,
    off: bool,
}

impl MailboxSync {
    /// The mailbox of the server a room URL names.
    pub fn for_room(room_url: &str) -> Option<MailboxSync> {
        let server = ServerUrl::parse(room_url).ok()?;
        Some(MailboxSync {
            mailbox: Mailbox::new(server),
            visit: None,
            next: Instant::now(),
            failures: 0,
            off: false,
        })
    }

    /// Copy soon: the log grew.
    pub fn poke(&mut self) {
        self.next = self.next.min(Instant::now());
    }

    /// Starts a visit when one is due, and returns the records the mailbox
    /// had beyond `records` when a visit has finished. `connected`: the
    /// opponent is connected directly, so the mailbox is only a copy.
    pub fn poll(&mut self, records: &[Record], connected: bool) -> Option<Vec<Record>> {
        if self.off {
            return None;
        }
        let now = Instant::now();
        if let Some(visit) = &mut self.visit {
            if !visit.is_finished() {
                return None;
            }
            let finished = visit.now_or_never();
            self.visit = None;
            return match finished {
                Some(Ok(Ok(fetched))) => {
                    self.failures = 0;
                    self.next = now + if connected { TOGETHER } else { APART };
                    Some(fetched)
                }
                Some(Ok(Err(MailboxError::NoMailbox { server, .. }))) => {
                    tracing::info!("{server} keeps no mailbox: the game goes only directly");
                    self.off = true;
                    None
                }
                other => {
                    self.failures += 1;
                    let wait = (APART * 2u32.saturating_pow(self.failures.min(8))).min(MAX_BACKOFF);
                    tracing::info!(?other, "mailbox visit failed; next in {} s", wait.as_secs());
                    self.next = now + wait;
                    None
                }
            };
        }
        if now < self.next || records.is_empty() {
            return None;
        }
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
