//! What a session tells its driver: the outputs, the events, and why an
//! action, a resume or the game itself stops.

use super::MAX_STRIKES;
use crate::engine::{Color, Outcome};
use crate::match_log::record::{Digest, Record, Seat, hex};
use crate::match_log::verify::VerifyError;
use crate::net::refusal::Refusal;
use crate::net::signing_register::RegisterError;

/// What the driver must do, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Output {
    /// Append this record to the log and flush it to disk before doing
    /// anything that follows.
    Persist(Box<Record>),
    /// Send these bytes to the peer.
    Send(Vec<u8>),
    /// Save bytes the peer sent that were rejected, with the reason.
    Evidence {
        /// What arrived.
        bytes: Vec<u8>,
        /// Why it was rejected.
        reason: EvidenceReason,
    },
    /// Tell the user.
    Event(Event),
    /// Close the connection to this peer.
    Disconnect(DisconnectReason),
}

/// Why bytes from the peer are kept as evidence.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EvidenceReason {
    /// They were refused.
    #[error(transparent)]
    Refused(Refusal),
    /// They halted the game.
    #[error(transparent)]
    Halted(HaltReason),
}

/// Why the session closes the connection.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DisconnectReason {
    /// What the peer sent was refused in a way no retry mends: another
    /// protocol version, our own seat, an invalid key, or a peer the code
    /// or the log does not name.
    #[error(transparent)]
    Refused(Refusal),
    /// The game halted.
    #[error(transparent)]
    Halted(HaltReason),
    /// The peer sent [`MAX_STRIKES`] invalid messages.
    #[error("{MAX_STRIKES} invalid messages from the peer; disconnected")]
    TooManyInvalid,
}

/// Where two copies of one game's log part.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Divergence {
    /// The peer sent a record for a place where ours is another one (and
    /// no one signed both: not an equivocation).
    #[error("at record {seq} the peer's copy differs from ours")]
    Record {
        /// The sequence number at which the two logs hold different records.
        seq: u32,
    },
    /// The peer's hello names, as the last of its `records`, a record that
    /// is not ours at that place.
    #[error("the peer's record {} is not ours (their head {}, ours {})", .records.saturating_sub(1), hex(.theirs), hex(.ours))]
    Head {
        /// How many records the peer holds.
        records: u32,
        /// The hash of its last one.
        theirs: Digest,
        /// The hash of ours at that place.
        ours: Digest,
    },
}

/// What the user should know.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// The peer said who they are.
    PeerIdentified {
        /// Their display name.
        name: String,
        /// Their key fingerprint.
        fingerprint: String,
        /// The safety code of their key and ours: the same on their
        /// screen unless someone stands between the two (see
        /// [`crate::match_log::safety_code`]).
        safety_code: String,
        /// The same code as six words, to read out.
        safety_words: String,
    },
    /// The colours are settled (by the coin, or by the choices after it):
    /// play begins.
    Started {
        /// This side's colour.
        color: Color,
    },
    /// Under the draw rule decided by lot, a player chose a colour.
    Chose {
        /// Whether this side chose.
        mine: bool,
        /// What the choice was about.
        question: ColorQuestion,
        /// The colour chosen.
        color: Color,
    },
    /// A record was added to the log (by either side).
    Recorded {
        /// Its sequence number.
        seq: u32,
        /// Whether this side wrote it.
        mine: bool,
    },
    /// Something the peer sent was rejected.
    Rejected(Refusal),
    /// The peer rejected something this side sent.
    PeerRejected(String),
    /// The game ended.
    Ended(Outcome),
    /// The game cannot go on: the logs disagree, a rematch was declined,
    /// or this side may not sign. Evidence has been saved.
    Halted(HaltReason),
    /// The peer has verified and logged this many records.
    Acknowledged(u32),
    /// A move this side asked for could not be played (illegal, not its turn).
    MoveRefused(ActionError),
    /// The opponent of the previous game proposes this rematch: accept it
    /// ([`Session::accept_rematch`](super::Session::accept_rematch)) or
    /// decline it ([`Session::decline_rematch`](super::Session::decline_rematch)).
    RematchOffered,
}

/// The two questions of the draw rule decided by lot, in the order asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColorQuestion {
    /// Which colour wins an equal count (asked of the seat the lot names).
    TieWinner,
    /// Which colour the other seat plays.
    SeatColor,
}

impl ColorQuestion {
    /// The question as put to the player who must answer it.
    pub fn prompt(self) -> &'static str {
        match self {
            ColorQuestion::TieWinner => {
                "the lot lets you choose: which colour wins if the discs are equal?"
            }
            ColorQuestion::SeatColor => "which colour do you play?",
        }
    }
}

/// Why a local action cannot be taken.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ActionError {
    /// The game is not being played (not started, over, or halted).
    #[error("no game in play")]
    NotPlaying,
    /// It is the opponent's turn.
    #[error("it is not your turn")]
    NotYourTurn,
    /// A move before the colours are chosen (draw rule decided by lot).
    #[error("the colours are not chosen yet")]
    ColorsNotChosen,
    /// The rules or protocol refuse it.
    #[error("{0}")]
    Refused(VerifyError),
    /// The opponent's deadline has not passed.
    #[error("the opponent still has time")]
    DeadlineNotPassed,
    /// A resumed game signs nothing until the opponent has confirmed
    /// where the game stands.
    #[error("waiting for the opponent to confirm where the game stands")]
    WaitingForHeads,
    /// The register of what this identity signed refuses it: it would
    /// contradict a record signed before (from another log, or another
    /// program), or the register cannot be kept.
    #[error(transparent)]
    Register(RegisterError),
}

/// Why a log cannot be resumed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ResumeError {
    /// The log does not verify.
    #[error("{0}")]
    Invalid(VerifyError),
    /// Your key is neither player's key in this game.
    #[error("this log is not yours: your key {0} is neither player's")]
    NotYours(String),
}

/// Why a game cannot go on. Shown to the player as text; the front-ends
/// match the variant (a declined rematch is no game: its log is dropped).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HaltReason {
    /// The rematch this game was to be was declined, by either side.
    #[error("the rematch was declined")]
    RematchDeclined,
    /// One player signed two different records for one place in the log;
    /// the proof is saved with the evidence.
    #[error(
        "the logs diverge at record {seq}: the {seat} signed two different records for it (equivocation; proof saved)"
    )]
    Equivocation {
        /// The record's sequence number.
        seq: u32,
        /// Who signed both.
        seat: Seat,
    },
    /// The peer's log and ours disagree (evidence saved): what differs.
    #[error("the logs diverge: {0}")]
    Diverged(Divergence),
    /// This side's register refused to sign what the setup needed, so the
    /// game cannot go on from this log.
    #[error(transparent)]
    RefusedToSign(RegisterError),
    /// A step of the setup (the coin, the colour choices) could not be
    /// written.
    #[error("cannot continue the setup: {0}")]
    Setup(Box<ActionError>),
}
