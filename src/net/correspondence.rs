//! Correspondence play: a game's log brought up to date with the mailbox,
//! one visit at a time, with the other player's program closed.
//!
//! A visit fetches the records the mailbox holds beyond this log, takes
//! each through the session exactly as one from the peer (verified before
//! it changes anything), writes the setup step that is ours (the
//! acceptance, a reveal), and posts every record of this log the mailbox
//! lacks. The log stays the truth: a mailbox that lost everything gets it
//! back from the next visit.

use std::path::{Path, PathBuf};

use super::driver::save_evidence;
use super::mailbox::{Mailbox, MailboxError, Posted};
use super::session::{Event, Output, Session};
use crate::match_log::log_file::{LogFileError, LogWriter};
use crate::match_log::{Body, Record};

/// The room of an open game once accepted: the acceptance shows it.
pub fn room_of(records: &[Record]) -> Option<String> {
    records.iter().find_map(|r| match &r.content().body {
        Body::OpenAccept(accept) => String::from_utf8(accept.invite_secret.clone())
            .ok()
            .filter(|room| room.chars().all(|c| c.is_ascii_alphanumeric())),
        _ => None,
    })
}

/// Why a visit to the mailbox failed.
#[derive(Debug, thiserror::Error)]
pub enum CorrespondenceError {
    /// The mailbox could not be used.
    #[error(transparent)]
    Mailbox(#[from] MailboxError),
    /// The log file could not be written.
    #[error(transparent)]
    Log(#[from] LogFileError),
}

/// What one visit did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Visit {
    /// Records taken from the mailbox into the log.
    pub fetched: usize,
    /// Records of this side written during the visit (setup steps).
    pub written: usize,
    /// Records posted to the mailbox.
    pub posted: usize,
    /// Records the mailbox sent that were refused, with the reason (the
    /// bytes are saved as evidence beside the log).
    pub refused: Vec<String>,
    /// Why the game halted, if it did during the visit.
    pub halted: Option<String>,
    /// What the user should know, in order.
    pub events: Vec<Event>,
}

/// One game's log, open for appending, with its session.
#[derive(Debug)]
pub struct OpenGame {
    /// The log file.
    pub path: PathBuf,
    /// The game's state.
    pub session: Session,
    /// Appends to the log.
    pub writer: LogWriter,
    /// The room the genesis is filed under, when known (the host files it).
    pub room: Option<String>,
}

impl OpenGame {
    /// Carries out the session's outputs: persist, evidence, events.
    pub fn apply(&mut self, outputs: Vec<Output>, visit: &mut Visit) -> Result<(), LogFileError> {
        apply_outputs(&self.path, &mut self.writer, outputs, visit)
    }

    /// Brings the log and the mailbox up to date (see the module docs).
    pub async fn visit(
        &mut self,
        mailbox: &Mailbox,
        now_ms: u64,
    ) -> Result<Visit, CorrespondenceError> {
        let mut visit = Visit::default();
        let Some(genesis) = self.session.records().first() else {
            return Ok(visit);
        };
        let game_id = genesis.hash();
        let ours = self.session.records().len() as u32;
        let held = match mailbox.records(&game_id, ours).await? {
            Some((held, records)) => {
                for record in records {
                    let seq = record.content().seq;
                    match self.session.relayed(record.clone(), now_ms) {
                        Ok(outputs) => self.apply(outputs, &mut visit)?,
                        Err(reason) => {
                            save_evidence(
                                &self.path,
                                &record.to_bytes(),
                                &format!("from the mailbox: {reason}"),
                            );
                            visit
                                .refused
                                .push(format!("record {seq} from the mailbox: {reason}"));
                            break;
                        }
                    }
                    if visit.halted.is_some() {
                        break;
                    }
                }
                held
            }
            None => 0,
        };
        let outputs = self.session.catch_up(now_ms);
        self.apply(outputs, &mut visit)?;
        visit.posted += self.deliver(mailbox, held).await?;
        Ok(visit)
    }

    /// Posts this log's records from `held` on (what the mailbox lacks).
    pub async fn deliver(&self, mailbox: &Mailbox, held: u32) -> Result<usize, MailboxError> {
        let mut posted = 0;
        for record in self.session.records().iter().skip(held as usize) {
            let room = (record.content().seq == 0)
                .then_some(self.room.as_deref())
                .flatten();
            match mailbox.post(record, room).await? {
                Posted::Stored => posted += 1,
                Posted::AlreadyStored => {}
            }
        }
        Ok(posted)
    }
}

/// Carries out session outputs for a log with no peer: records are
/// appended (and flushed) before anything else, evidence is saved beside
/// the log, events are collected. There is no peer to send to.
pub fn apply_outputs(
    path: &Path,
    writer: &mut LogWriter,
    outputs: Vec<Output>,
    visit: &mut Visit,
) -> Result<(), LogFileError> {
    for output in outputs {
        match output {
            Output::Persist(record) => writer.append(&record)?,
            Output::Evidence { bytes, reason } => save_evidence(path, &bytes, &reason),
            Output::Event(Event::Halted(reason)) => {
                visit.halted = Some(reason.clone());
                visit.events.push(Event::Halted(reason));
            }
            Output::Event(event) => {
                match event {
                    Event::Recorded { mine: true, .. } => visit.written += 1,
                    Event::Recorded { mine: false, .. } => visit.fetched += 1,
                    _ => {}
                }
                visit.events.push(event);
            }
            Output::Send(_) | Output::Disconnect(_) => {}
        }
    }
    Ok(())
}
