//! The peer session: a state machine that knows nothing of the transport.
//!
//! It takes what happens — connected, bytes received, a local action, the
//! time — and returns what to do, in order: persist a record (append and
//! flush the log *before* anything after it), send bytes, save evidence,
//! tell the user, or disconnect. Every inbound record is decoded with bounds
//! and fully verified before it changes anything.

use sha2::{Digest as _, Sha256};

use super::refusal::Refusal;
use super::signing_register::{RegisterError, SharedRegister};
use super::wire::{Hello, MAX_MESSAGE_BYTES, PEER_PROTOCOL, WireError, WireMessage};
use crate::engine::{Color, Outcome, Position, Square};
use crate::match_log::coin_flip::commitment;
use crate::match_log::compare::EquivocationProof;
use crate::match_log::invite::{
    AcceptProof, InviteSecret, check_hello_proof, hello_proof, host_binding,
};
use crate::match_log::record::{
    Accept, Body, ColorChoice, Digest, Genesis, MoveBody, OpenAccept, OpenGenesis, PlayerInfo,
    Record, RecordContent, RematchGenesis, Reveal, Seat, TimeoutClaim,
};
use crate::match_log::rules_proposal::RulesProposal;
use crate::match_log::verify::{MatchVerifier, Phase, VerifyError};
use crate::match_log::{Identity, PublicKey};
use crate::net::room_code::{ExpectedHost, Invitation};

/// Invalid messages tolerated from one connection before it is closed.
pub const MAX_STRIKES: u32 = 8;

/// What the host proposes.
#[derive(Debug, Clone)]
pub struct HostTerms {
    /// Rules and start position.
    pub proposal: RulesProposal,
    /// Per-move deadline in seconds.
    pub deadline_secs: u32,
}

/// How this side entered the game.
#[derive(Debug, Clone)]
enum Start {
    Host(HostTerms),
    /// From a room code, or a rematch: the host expected, and the code's
    /// invitation (none for a rematch, whose host is known by key).
    Guest {
        host: ExpectedHost,
        invitation: Option<Box<Invitation>>,
    },
    /// Resumed from a log: the game is already set up (at least its genesis).
    Resumed,
}

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
        reason: String,
    },
    /// Tell the user.
    Event(Event),
    /// Close the connection to this peer.
    Disconnect(String),
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
    MoveRefused(String),
    /// The opponent of the previous game proposes this rematch: accept it
    /// ([`Session::accept_rematch`]) or decline it ([`Session::decline_rematch`]).
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

/// A rematch: the finished game it follows, the opponent it is with, and
/// the terms it keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RematchOf {
    /// The previous game's id.
    pub previous: Digest,
    /// The opponent's key in it.
    pub opponent: PublicKey,
    /// Its rules.
    pub proposal: RulesProposal,
    /// Its per-move deadline.
    pub deadline_secs: u32,
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
    Diverged(String),
    /// This side's register refused to sign what the setup needed, so the
    /// game cannot go on from this log.
    #[error(transparent)]
    RefusedToSign(RegisterError),
    /// A step of the setup (the coin, the colour choices) could not be
    /// written.
    #[error("cannot continue the setup: {0}")]
    Setup(Box<ActionError>),
}

/// The peer on the current connection.
#[derive(Debug, Clone)]
struct Peer {
    key: PublicKey,
    name: String,
}

/// The state of one side of a networked game.
#[derive(Debug, Clone)]
pub struct Session {
    me: Seat,
    identity: Identity,
    name: String,
    start: Start,
    records: Vec<Record>,
    verifier: Option<MatchVerifier>,
    peer: Option<Peer>,
    connected: bool,
    /// Whether the peer has sent anything but a hello on this connection,
    /// which it does only once it has our hello.
    peer_has_our_hello: bool,
    strikes: u32,
    halted: Option<HaltReason>,
    peer_acked: u32,
    /// A rematch being proposed (host) or offered (guest).
    rematch: Option<RematchOf>,
    /// Whether this guest accepted the rematch offered.
    consented: bool,
    /// Whether the offer was told (once).
    offer_told: bool,
    /// Whether signing waits until the peer's hello has shown that the
    /// two logs agree (see [`Session::hold_until_heads_agree`]).
    held_for_heads: bool,
    /// What this identity signed, consulted before each signature.
    register: Option<SharedRegister>,
    /// The invite key of the room code (a host's, or a guest's of a code
    /// of version 2): it signs this side's hello.
    invite_key: Option<Identity>,
}

/// Whether `record` is a genesis the holder of `invitation` may take from
/// the mailbox: signed by the host the code names and, for an open game,
/// made with the code (see `check_relayed_genesis`); the reason if not.
pub fn genesis_fits_code(record: &Record, invitation: &Invitation) -> Result<(), Refusal> {
    let verifier = MatchVerifier::start(record).map_err(Refusal::Invalid)?;
    let host = verifier.player(Seat::Host).map(|p| p.key);
    check_genesis_host(record, host, &invitation.host(), Some(invitation))
}

/// Checks that `host`, the key that signed the genesis `record`, is the one
/// the code names, then the genesis itself (see [`check_relayed_genesis`]).
fn check_genesis_host(
    record: &Record,
    host: Option<PublicKey>,
    expected: &ExpectedHost,
    invitation: Option<&Invitation>,
) -> Result<(), Refusal> {
    let Some(key) = host.filter(|k| expected.admits(k)) else {
        return Err(Refusal::GenesisNotFromCodesHost {
            expected: Box::new(expected.clone()),
        });
    };
    check_relayed_genesis(record, &key, expected, invitation)
}

/// Checks a genesis that came without its host in the room (from the
/// mailbox) against the code: an open game of version 2 must bind the
/// code's invite key to its host, since a typed code names only the start
/// of the host's fingerprint; any other genesis is taken so only from the
/// host a link names exactly.
fn check_relayed_genesis(
    record: &Record,
    host: &PublicKey,
    expected: &ExpectedHost,
    invitation: Option<&Invitation>,
) -> Result<(), Refusal> {
    let version = record.content().version;
    match (invitation, &record.content().body) {
        (Some(Invitation::Secret { secret, .. }), Body::OpenGenesis(g)) if version >= 2 => {
            if g.invite == host_binding(&secret.invite_key().public_key(), host) {
                Ok(())
            } else {
                Err(Refusal::NotMadeWithCode)
            }
        }
        (Some(Invitation::Secret { .. }), Body::OpenGenesis(_)) => Err(Refusal::OldGameNewCode),
        (Some(Invitation::Legacy { .. }), Body::OpenGenesis(_)) if version >= 2 => {
            Err(Refusal::NewGameOldCode)
        }
        (Some(Invitation::Legacy { .. }), _) => Ok(()),
        _ if expected.is_exact() => Ok(()),
        _ => Err(Refusal::HostNotProved),
    }
}

fn message(m: &WireMessage) -> Output {
    Output::Send(m.encode())
}

fn derive_nonce(domain: &[u8], identity: &Identity, context: &[u8]) -> [u8; 32] {
    // Secret (it needs our key) yet recomputable from the log on resume,
    // so no nonce file is needed; fixed by data chosen before our
    // commitment, so it cannot be steered after seeing the other's.
    let mut hasher = Sha256::new();
    hasher.update(domain);
    hasher.update(identity.secret_bytes());
    hasher.update(context);
    hasher.finalize().into()
}

fn host_nonce(identity: &Identity, genesis: &Genesis, timestamp_ms: u64) -> [u8; 32] {
    let mut context = Vec::new();
    context.extend_from_slice(&genesis.guest.key);
    context.extend_from_slice(&timestamp_ms.to_le_bytes());
    context.extend_from_slice(&postcard::to_allocvec(&genesis.rules).expect("in memory"));
    context.extend_from_slice(&genesis.deadline_secs.to_le_bytes());
    derive_nonce(b"reversi/nonce/host\0", identity, &context)
}

fn open_host_nonce(identity: &Identity, genesis: &OpenGenesis, timestamp_ms: u64) -> [u8; 32] {
    let mut context = Vec::new();
    context.extend_from_slice(&genesis.invite);
    context.extend_from_slice(&timestamp_ms.to_le_bytes());
    context.extend_from_slice(&postcard::to_allocvec(&genesis.rules).expect("in memory"));
    context.extend_from_slice(&genesis.deadline_secs.to_le_bytes());
    derive_nonce(b"reversi/nonce/open-host\0", identity, &context)
}

fn guest_nonce(identity: &Identity, genesis_hash: &Digest) -> [u8; 32] {
    derive_nonce(b"reversi/nonce/guest\0", identity, genesis_hash)
}

impl Session {
    fn new(me: Seat, identity: Identity, name: String, start: Start) -> Session {
        Session {
            me,
            identity,
            name,
            start,
            records: Vec::new(),
            verifier: None,
            peer: None,
            connected: false,
            peer_has_our_hello: false,
            strikes: 0,
            halted: None,
            peer_acked: 0,
            rematch: None,
            consented: false,
            offer_told: false,
            held_for_heads: false,
            register: None,
            invite_key: None,
        }
    }

    /// Signs nothing that `register` refuses, and registers every record
    /// this side signs before it leaves the session (see
    /// [`super::signing_register`]). Every front-end sets one; a session
    /// without one trusts that no other log of its games exists.
    pub fn set_register(&mut self, register: SharedRegister) {
        self.register = Some(register);
    }

    /// Registers `record`, just signed by this side to follow the
    /// records so far; until this returns `Ok` it must not leave the
    /// session.
    fn claim(&self, record: &Record) -> Result<(), RegisterError> {
        match &self.register {
            Some(register) => register.claim(&self.records, record),
            None => Ok(()),
        }
    }

    /// Signs `content` as this side, once the register allows it.
    fn sign(&self, content: RecordContent) -> Result<Record, RegisterError> {
        let record = Record::sign(content, &self.identity);
        self.claim(&record)?;
        Ok(record)
    }

    /// A host proposing a rematch of a finished game to its opponent:
    /// only that key may take the seat, and the genesis names the game.
    pub fn host_rematch(
        identity: Identity,
        name: String,
        terms: HostTerms,
        rematch: RematchOf,
    ) -> Session {
        let mut session = Session::new(Seat::Host, identity, name, Start::Host(terms));
        session.rematch = Some(rematch);
        session
    }

    /// A guest waiting for a rematch of a finished game from its opponent:
    /// the offer is taken only with the player's consent.
    pub fn rematch_guest(identity: Identity, name: String, rematch: RematchOf) -> Session {
        let start = Start::Guest {
            host: ExpectedHost::Key(rematch.opponent),
            invitation: None,
        };
        let mut session = Session::new(Seat::Guest, identity, name, start);
        session.rematch = Some(rematch);
        session
    }

    /// Whether a rematch is offered and waits for this side's answer. A
    /// rematch is never accepted without it, also when its log is resumed.
    pub fn rematch_offered(&self) -> bool {
        !self.consented
            && self.halted.is_none()
            && self.me == Seat::Guest
            && self
                .verifier
                .as_ref()
                .is_some_and(|v| v.phase() == Phase::AwaitAccept && v.previous_game().is_some())
    }

    /// Accepts the rematch offered: signs the acceptance.
    pub fn accept_rematch(&mut self, now_ms: u64) -> Result<Vec<Output>, ActionError> {
        if !self.rematch_offered() {
            return Err(ActionError::NotPlaying);
        }
        self.consented = true;
        Ok(self.advance(now_ms))
    }

    /// Declines the rematch offered: tells the proposer, and stops.
    pub fn decline_rematch(&mut self) -> Result<Vec<Output>, ActionError> {
        if !self.rematch_offered() {
            return Err(ActionError::NotPlaying);
        }
        self.halted = Some(HaltReason::RematchDeclined);
        Ok(vec![
            message(&WireMessage::DeclineRematch),
            Output::Event(Event::Halted(HaltReason::RematchDeclined)),
        ])
    }

    /// What to repeat to the peer for a moment after halting, so that it
    /// arrives: the refusal of a rematch this side declined.
    pub fn parting_message(&self) -> Option<Vec<u8>> {
        (self.me == Seat::Guest && self.halted == Some(HaltReason::RematchDeclined))
            .then(|| WireMessage::DeclineRematch.encode())
    }

    /// A host proposing `terms` to the holder of the room code whose
    /// secret is `invite`: a guest is identified only with the proof that
    /// it holds it, and this side's hello carries the same proof.
    pub fn host(
        identity: Identity,
        name: String,
        terms: HostTerms,
        invite: &InviteSecret,
    ) -> Session {
        let mut session = Session::new(Seat::Host, identity, name, Start::Host(terms));
        session.invite_key = Some(invite.invite_key());
        session
    }

    /// A host proposing `terms` to whoever holds the room code, before
    /// anyone has answered: the open genesis is signed at once (the first
    /// output persists it), so the game can wait in a mailbox.
    pub fn host_open(
        identity: Identity,
        name: String,
        terms: HostTerms,
        invite: &InviteSecret,
        now_ms: u64,
        register: SharedRegister,
    ) -> Result<(Session, Vec<Output>), RegisterError> {
        let invite_key = invite.invite_key();
        let mut genesis = OpenGenesis {
            rules: terms.proposal.to_wire(),
            deadline_secs: terms.deadline_secs,
            host: PlayerInfo {
                name: name.clone(),
                key: identity.public_key().to_bytes(),
            },
            host_commitment: [0; 32],
            invite: host_binding(&invite_key.public_key(), &identity.public_key()),
        };
        genesis.host_commitment = commitment(&open_host_nonce(&identity, &genesis, now_ms));
        let mut session = Session::new(Seat::Host, identity, name, Start::Host(terms));
        session.invite_key = Some(invite_key);
        session.set_register(register);
        let record = session.sign(RecordContent::open_genesis(genesis, now_ms))?;
        let verifier = MatchVerifier::start(&record).expect("our own genesis is valid");
        session.verifier = Some(verifier);
        let out = session.logged(record);
        Ok((session, out))
    }

    /// A guest joining with a room code: the host must be the one the
    /// code names and, for a code of version 2, prove that it holds the
    /// code's secret; this side's hello (and an acceptance of an open
    /// game) proves the same.
    pub fn guest(identity: Identity, name: String, invitation: Invitation) -> Session {
        let invite_key = match &invitation {
            Invitation::Secret { secret, .. } => Some(secret.invite_key()),
            Invitation::Legacy { .. } => None,
        };
        let start = Start::Guest {
            host: invitation.host(),
            invitation: Some(Box::new(invitation)),
        };
        let mut session = Session::new(Seat::Guest, identity, name, start);
        session.invite_key = invite_key;
        session
    }

    /// Resumes from the records of a log file.
    pub fn resume(identity: Identity, records: Vec<Record>) -> Result<Session, ResumeError> {
        let verifier = crate::match_log::verify_log(&records).map_err(ResumeError::Invalid)?;
        let mine = identity.public_key();
        let me = [Seat::Host, Seat::Guest]
            .into_iter()
            .find(|&s| verifier.player(s).is_some_and(|p| p.key == mine))
            .ok_or_else(|| ResumeError::NotYours(mine.fingerprint().to_string()))?;
        let name = verifier
            .player(me)
            .map_or_else(String::new, |p| p.name.clone());
        let mut session = Session::new(me, identity, name, Start::Resumed);
        session.records = records;
        session.verifier = Some(verifier);
        Ok(session)
    }

    /// Signs nothing (no move, no answer, no step of the coin flip) until
    /// the peer's hello has shown that the two logs agree: for a log kept
    /// where a write may not have lasted (a browser's storage), so that a
    /// record this side signed and lost is learnt back from the peer
    /// rather than signed again differently, which would be an
    /// equivocation.
    pub fn hold_until_heads_agree(&mut self) {
        self.held_for_heads = true;
    }

    /// Whether signing still waits for the peer's hello (see
    /// [`Session::hold_until_heads_agree`]).
    pub fn waiting_for_heads(&self) -> bool {
        self.held_for_heads
    }

    /// This side's key fingerprint.
    pub fn my_fingerprint(&self) -> crate::match_log::identity::Fingerprint {
        self.identity.public_key().fingerprint()
    }

    /// This side's seat.
    pub fn seat(&self) -> Seat {
        self.me
    }

    /// The records so far.
    pub fn records(&self) -> &[Record] {
        &self.records
    }

    /// The verified state, once the genesis exists.
    pub fn verifier(&self) -> Option<&MatchVerifier> {
        self.verifier.as_ref()
    }

    /// The current position, once play has begun.
    pub fn position(&self) -> Option<&Position> {
        self.verifier.as_ref()?.current_position()
    }

    /// This side's colour, once the colours are settled (by the coin, or
    /// by the choices after it).
    pub fn my_color(&self) -> Option<Color> {
        if self.question().is_some() {
            return None;
        }
        let v = self.verifier.as_ref()?;
        Color::ALL
            .into_iter()
            .find(|&c| v.seat_of(c) == Some(self.me))
    }

    /// The colour question this side must answer now, if any.
    pub fn my_question(&self) -> Option<ColorQuestion> {
        match self.question()? {
            (seat, question)
                if seat == self.me && self.halted.is_none() && !self.held_for_heads =>
            {
                Some(question)
            }
            _ => None,
        }
    }

    /// The colour question being asked of either side, if any.
    pub fn question(&self) -> Option<(Seat, ColorQuestion)> {
        let v = self.verifier.as_ref()?;
        let question = match v.phase() {
            Phase::AwaitTieWinner => ColorQuestion::TieWinner,
            Phase::AwaitSeatColor => ColorQuestion::SeatColor,
            _ => return None,
        };
        Some((v.seat_to_write()?, question))
    }

    /// Whether it is this side's move.
    pub fn my_turn(&self) -> bool {
        self.halted.is_none()
            && !self.held_for_heads
            && self
                .verifier
                .as_ref()
                .is_some_and(|v| v.phase() == Phase::Playing && v.seat_to_write() == Some(self.me))
    }

    /// How the game ended, if it has.
    pub fn outcome(&self) -> Option<Outcome> {
        self.verifier.as_ref()?.end().map(|e| e.outcome)
    }

    /// Why the game halted, if it did.
    pub fn halted(&self) -> Option<&HaltReason> {
        self.halted.as_ref()
    }

    /// Records the peer has acknowledged.
    pub fn peer_acknowledged(&self) -> u32 {
        self.peer_acked
    }

    /// Whether the peer has acknowledged every record this side wrote (what
    /// the peer wrote, it has).
    pub fn mine_acknowledged(&self) -> bool {
        self.records
            .iter()
            .rposition(|r| r.content().author == self.me)
            .is_none_or(|last| self.peer_acked as usize > last)
    }

    /// The running deadline — of a move, or of a colour choice: whose it
    /// is and when it passes (ms).
    pub fn deadline(&self) -> Option<(Seat, u64)> {
        let v = self.verifier.as_ref()?;
        if !in_game(v.phase()) {
            return None;
        }
        let seat = v.seat_to_write()?;
        Some((
            seat,
            v.last_timestamp()
                .saturating_add(u64::from(v.deadline_secs()) * 1000),
        ))
    }

    fn hello(&self) -> WireMessage {
        WireMessage::Hello(Hello {
            protocol: PEER_PROTOCOL,
            seat: self.me,
            name: self.name.clone(),
            key: self.identity.public_key().to_bytes(),
            records: self.records.len() as u32,
            head: self.records.last().map_or([0; 32], Record::hash),
            invite_proof: self
                .invite_key
                .as_ref()
                .map(|k| hello_proof(k, self.me, &self.identity.public_key()).to_vec()),
        })
    }

    /// The transport connected to the peer: introduce ourselves.
    pub fn connected(&mut self) -> Vec<Output> {
        self.connected = true;
        self.strikes = 0;
        self.peer = None;
        self.peer_has_our_hello = false;
        vec![message(&self.hello())]
    }

    /// A heartbeat for the current connection, to be sent about once a
    /// second. Until the peer shows it has our hello, it is the hello again:
    /// the first messages on a fresh WebRTC data channel can be lost (the
    /// far side may not have registered the channel yet), and a lost hello
    /// would leave both sides waiting for each other. After that it is an
    /// acknowledgement of the records this side holds, which the peer takes
    /// as news only when it tells something new, and otherwise ignores.
    /// `None` when there is nothing to send.
    pub fn heartbeat(&self) -> Option<Vec<u8>> {
        if !self.connected || self.halted.is_some() {
            return None;
        }
        if !self.peer_has_our_hello {
            return Some(self.hello().encode());
        }
        Some(
            WireMessage::Ack {
                records: self.records.len() as u32,
            }
            .encode(),
        )
    }

    /// The transport lost the peer.
    pub fn disconnected(&mut self) {
        self.connected = false;
        self.peer = None;
    }

    /// Handles bytes from the peer.
    pub fn receive(&mut self, bytes: &[u8], now_ms: u64) -> Vec<Output> {
        if self.halted.is_some() {
            return vec![];
        }
        let decoded = WireMessage::decode(bytes);
        match decoded {
            Err(WireError::Version { found }) => {
                let refusal = Refusal::Version { found };
                let mut out = self.reject(bytes, refusal.clone());
                out.push(Output::Disconnect(refusal.to_string()));
                out
            }
            Err(e) => self.reject(bytes, Refusal::Wire(e)),
            Ok(WireMessage::Hello(hello)) => self.on_hello(bytes, hello, now_ms),
            // A message that overtook a lost hello (see `heartbeat`): the
            // hello follows, and with it whatever we lack; nothing to hold
            // against the peer, and nothing is taken from it before.
            Ok(_) if self.peer.is_none() => vec![],
            // A record or an acknowledgement comes only from a peer that
            // has identified us, so it has our hello (a rejection may not).
            Ok(WireMessage::Record(record_bytes)) => {
                self.peer_has_our_hello = true;
                self.on_record(bytes, &record_bytes, now_ms)
            }
            Ok(WireMessage::Ack { records }) => {
                self.peer_has_our_hello = true;
                if records > self.peer_acked && records as usize <= self.records.len() {
                    self.peer_acked = records;
                    vec![Output::Event(Event::Acknowledged(records))]
                } else {
                    vec![]
                }
            }
            Ok(WireMessage::Reject { reason }) => {
                let reason: String = reason.chars().take(300).collect();
                vec![Output::Event(Event::PeerRejected(reason))]
            }
            // Only the guest of a rematch not yet accepted may decline it.
            Ok(WireMessage::DeclineRematch) => {
                let proposing = self.me == Seat::Host
                    && self.verifier.as_ref().is_some_and(|v| {
                        v.phase() == Phase::AwaitAccept && v.previous_game().is_some()
                    });
                if proposing {
                    self.halted = Some(HaltReason::RematchDeclined);
                    vec![
                        Output::Event(Event::Halted(HaltReason::RematchDeclined)),
                        Output::Disconnect(HaltReason::RematchDeclined.to_string()),
                    ]
                } else {
                    self.reject(bytes, Refusal::UnexpectedDecline)
                }
            }
        }
    }

    /// Rejects what arrived: evidence, an event, a notice to the peer, and
    /// a disconnect after too many.
    fn reject(&mut self, bytes: &[u8], refusal: Refusal) -> Vec<Output> {
        self.strikes += 1;
        let reason = refusal.to_string();
        let mut out = vec![
            Output::Evidence {
                bytes: bytes[..bytes.len().min(MAX_MESSAGE_BYTES)].to_vec(),
                reason: reason.clone(),
            },
            Output::Event(Event::Rejected(refusal)),
            message(&WireMessage::Reject { reason }),
        ];
        if self.strikes >= MAX_STRIKES {
            out.push(Output::Disconnect(format!(
                "{MAX_STRIKES} invalid messages from the peer; disconnected"
            )));
        }
        out
    }

    fn halt(&mut self, reason: HaltReason, evidence: Vec<Output>) -> Vec<Output> {
        self.halted = Some(reason.clone());
        let mut out = evidence;
        out.push(Output::Event(Event::Halted(reason.clone())));
        out.push(message(&WireMessage::Reject {
            reason: reason.to_string(),
        }));
        out
    }

    fn on_hello(&mut self, bytes: &[u8], hello: Hello, now_ms: u64) -> Vec<Output> {
        if hello.protocol != PEER_PROTOCOL {
            let refusal = Refusal::Version {
                found: hello.protocol,
            };
            let mut out = self.reject(bytes, refusal.clone());
            out.push(Output::Disconnect(refusal.to_string()));
            return out;
        }
        if hello.seat == self.me {
            let mut out = self.reject(bytes, Refusal::SameSeat(self.me));
            out.push(Output::Disconnect("two players in one seat".into()));
            return out;
        }
        let Some(key) = PublicKey::from_bytes(&hello.key) else {
            let mut out = self.reject(bytes, Refusal::InvalidKey);
            out.push(Output::Disconnect("invalid key".into()));
            return out;
        };
        let fingerprint = key.fingerprint();
        // The peer must be the one the code or the log names.
        let expected = match (&self.verifier, &self.start) {
            // An open game not yet accepted: any guest with the room code
            // may accept (the acceptance must show the room secret).
            (Some(v), _) if v.player(hello.seat).is_none() => {
                (v.player(Seat::Host).is_some_and(|h| h.key != key))
                    .then_some(())
                    .ok_or(Refusal::GuestIsHost)
            }
            (Some(v), _) => (v.player(hello.seat).is_some_and(|p| p.key == key))
                .then_some(())
                .ok_or_else(|| Refusal::NotThePlayer {
                    fingerprint: fingerprint.to_string(),
                    seat: hello.seat,
                }),
            (None, Start::Guest { host, .. }) if !host.admits(&key) => {
                Err(Refusal::NotTheCodesHost {
                    fingerprint: fingerprint.to_string(),
                    expected: Box::new(host.clone()),
                })
            }
            // A typed code names only the start of the host's fingerprint,
            // which a server can match with a key of its own: the host
            // must also show that it holds the code's secret.
            (
                None,
                Start::Guest {
                    host,
                    invitation: Some(invitation),
                },
            ) if matches!(**invitation, Invitation::Secret { .. })
                && !host.is_exact()
                && !self.proves_invitation(&hello, &key) =>
            {
                Err(Refusal::HostWithoutCode {
                    fingerprint: fingerprint.to_string(),
                })
            }
            (None, Start::Guest { .. }) => Ok(()),
            (None, Start::Host(_)) => match &self.rematch {
                Some(r) if r.opponent != key => Err(Refusal::NotTheRematchOpponent {
                    fingerprint: fingerprint.to_string(),
                }),
                Some(_) => Ok(()),
                None if !self.proves_invitation(&hello, &key) => Err(Refusal::GuestWithoutCode {
                    fingerprint: fingerprint.to_string(),
                }),
                None => Ok(()),
            },
            (None, _) => Ok(()),
        };
        if let Err(refusal) = expected {
            let reason = refusal.to_string();
            let mut out = self.reject(bytes, refusal);
            out.push(Output::Disconnect(reason));
            return out;
        }
        // A repeated hello (see `heartbeat`) is not news.
        let known = self
            .peer
            .as_ref()
            .is_some_and(|p| p.key == key && p.name == hello.name);
        self.peer = Some(Peer {
            key,
            name: hello.name.clone(),
        });
        let mut out = Vec::new();
        if !known {
            let safety =
                crate::match_log::safety_code::SafetyCode::of(&self.identity.public_key(), &key);
            out.push(Output::Event(Event::PeerIdentified {
                name: hello.name.clone(),
                fingerprint: fingerprint.to_string(),
                safety_code: safety.to_string(),
                safety_words: safety.words(),
            }));
        }
        // Bring the peer up to date, or notice that the logs disagree.
        let theirs = hello.records as usize;
        let ours = self.records.len();
        if theirs <= ours {
            let agrees = theirs == 0 || self.records[theirs - 1].hash() == hello.head;
            if !agrees {
                let reason = HaltReason::Diverged(format!(
                    "the peer's record {} is not ours (their head {}, ours {})",
                    theirs - 1,
                    crate::match_log::record::hex(&hello.head),
                    crate::match_log::record::hex(&self.records[theirs - 1].hash())
                ));
                let evidence = vec![Output::Evidence {
                    bytes: bytes.to_vec(),
                    reason: reason.to_string(),
                }];
                return self.halt(reason, evidence);
            }
            for record in &self.records[theirs..] {
                out.push(message(&WireMessage::Record(record.to_bytes())));
            }
        }
        // The peer's head is ours (or it is ahead and sends what we
        // lack): signing may go on.
        self.held_for_heads = false;
        out.extend(self.advance(now_ms));
        out
    }

    /// Whether `hello` carries the invite key's signature over the peer's
    /// seat and key (never, when this side holds no code).
    fn proves_invitation(&self, hello: &Hello, key: &PublicKey) -> bool {
        match (&self.invite_key, hello.invite_proof()) {
            (Some(invite), Some(proof)) => {
                check_hello_proof(&invite.public_key(), hello.seat, key, &proof)
            }
            _ => false,
        }
    }

    fn on_record(&mut self, bytes: &[u8], record_bytes: &[u8], now_ms: u64) -> Vec<Output> {
        let record = match Record::decode(record_bytes) {
            Ok(record) => record,
            Err(e) => return self.reject(bytes, Refusal::Undecodable(e)),
        };
        let seq = record.content().seq as usize;
        if seq < self.records.len() {
            return self.on_known_place(bytes, record, seq);
        }
        if seq > self.records.len() {
            let expected = self.records.len();
            return self.reject(bytes, Refusal::OutOfOrder { seq, expected });
        }
        match self.take_next(record, now_ms, true) {
            Ok(taken) => {
                let mut out = vec![message(&WireMessage::Ack {
                    records: self.records.len() as u32,
                })];
                out.extend(taken);
                out
            }
            Err(reason) => self.reject(bytes, reason),
        }
    }

    /// Verifies and logs the next record (`seq` is the log's length), then
    /// (if `advance`) writes what the setup needs from us next.
    fn take_next(
        &mut self,
        record: Record,
        now_ms: u64,
        advance: bool,
    ) -> Result<Vec<Output>, Refusal> {
        // A record in our own name is accepted only with our signature: the
        // peer may be returning one our log lost.
        match &mut self.verifier {
            None => self.verifier = Some(self.check_genesis(&record)?),
            Some(v) => v.append(&record).map_err(Refusal::Invalid)?,
        }
        let seq = record.content().seq;
        self.records.push(record.clone());
        let mut out = vec![
            Output::Persist(Box::new(record)),
            Output::Event(Event::Recorded { seq, mine: false }),
        ];
        out.extend(self.after_record());
        if advance {
            out.extend(self.advance(now_ms));
        }
        Ok(out)
    }

    /// Takes a record that came another way than from the peer (the
    /// mailbox, which relays records but cannot sign them): verified exactly
    /// as one from the peer. A repeat of a record we hold is ignored; a
    /// different record signed for a place we hold halts the game with the
    /// proof, as from the peer. Returns what to do, or why it was refused
    /// (nothing changed then).
    pub fn relayed(&mut self, record: Record, now_ms: u64) -> Result<Vec<Output>, Refusal> {
        self.take_relayed(record, now_ms, true)
    }

    /// As [`Session::relayed`], but writes nothing of ours: for one of a
    /// batch of records (a visit to the mailbox), after which the caller
    /// calls [`Session::catch_up`] once, so that nothing is signed on a
    /// view of the game that the rest of the batch changes (a setup step
    /// this identity signed elsewhere may be in it).
    pub fn relayed_in_batch(
        &mut self,
        record: Record,
        now_ms: u64,
    ) -> Result<Vec<Output>, Refusal> {
        self.take_relayed(record, now_ms, false)
    }

    fn take_relayed(
        &mut self,
        record: Record,
        now_ms: u64,
        advance: bool,
    ) -> Result<Vec<Output>, Refusal> {
        if let Some(reason) = &self.halted {
            return Err(Refusal::Halted(reason.clone()));
        }
        let seq = record.content().seq as usize;
        if seq < self.records.len() {
            if self.records[seq] == record {
                return Ok(vec![]);
            }
            let bytes = record.to_bytes();
            return Ok(self.on_known_place(&bytes, record, seq));
        }
        if seq > self.records.len() {
            return Err(Refusal::OutOfOrder {
                seq,
                expected: self.records.len(),
            });
        }
        self.take_next(record, now_ms, advance)
    }

    /// Writes whatever the setup needs from us now (after a resume, with
    /// no peer: the acceptance or a reveal); nothing when it is not our step.
    pub fn catch_up(&mut self, now_ms: u64) -> Vec<Output> {
        if self.halted.is_some() {
            return vec![];
        }
        self.advance(now_ms)
    }

    /// A record for a place our log already fills: a harmless repeat, or a fork.
    fn on_known_place(&mut self, bytes: &[u8], record: Record, seq: usize) -> Vec<Output> {
        let ours = &self.records[seq];
        if *ours == record {
            return vec![];
        }
        if record.content().game_id != ours.content().game_id {
            return self.reject(bytes, Refusal::OtherGame { seq });
        }
        let author = record.content().author;
        let signed = self.verifier.as_ref().is_some_and(|v| {
            v.player(author)
                .is_some_and(|p| p.key.verify(&record.signed_message(), record.signature()))
        });
        if !signed {
            return self.reject(bytes, Refusal::BadSignature { seq, author });
        }
        let proof = self.verifier.as_ref().and_then(|v| {
            let key = v.player(author)?.key;
            let same_place =
                ours.content().author == author && ours.content().prev == record.content().prev;
            let both_signed = key.verify(&ours.signed_message(), ours.signature())
                && key.verify(&record.signed_message(), record.signature());
            (same_place && both_signed).then(|| EquivocationProof {
                seat: author,
                key,
                first: ours.clone(),
                second: record.clone(),
            })
        });
        let line = |r: &Record| crate::match_log::log_file::record_line(r);
        let (reason, evidence) = match proof {
            Some(proof) => (
                HaltReason::Equivocation {
                    seq: seq as u32,
                    seat: proof.seat,
                },
                format!("{}{}", line(&proof.first), line(&proof.second)),
            ),
            None => (
                HaltReason::Diverged(format!("at record {seq} the peer's copy differs from ours")),
                format!("{}{}", line(ours), line(&record)),
            ),
        };
        let evidence = vec![
            Output::Evidence {
                bytes: evidence.into_bytes(),
                reason: reason.to_string(),
            },
            Output::Evidence {
                bytes: bytes.to_vec(),
                reason: reason.to_string(),
            },
        ];
        self.halt(reason, evidence)
    }

    /// Checks a genesis from the host: valid, from the host we are talking
    /// to (or, relayed, the host the room code names), and naming us (or
    /// open to us).
    fn check_genesis(&self, record: &Record) -> Result<MatchVerifier, Refusal> {
        let verifier = MatchVerifier::start(record).map_err(Refusal::Invalid)?;
        let host = verifier.player(Seat::Host).map(|p| p.key);
        match (&self.peer, &self.start) {
            (Some(peer), _) if host != Some(peer.key) => {
                return Err(Refusal::GenesisNotFromPeer);
            }
            (Some(_), _) => {}
            (
                None,
                Start::Guest {
                    host: expected,
                    invitation,
                },
            ) => check_genesis_host(record, host, expected, invitation.as_deref())?,
            (None, _) => return Err(Refusal::GenesisNotAsked),
        }
        if let Some(guest) = verifier.player(Seat::Guest)
            && guest.key != self.identity.public_key()
        {
            return Err(Refusal::GenesisForAnotherGuest);
        }
        if let Some(rematch) = &self.rematch {
            if verifier.previous_game() != Some(rematch.previous) || host != Some(rematch.opponent)
            {
                return Err(Refusal::NotOurRematch);
            }
            if *verifier.proposal() != rematch.proposal
                || verifier.deadline_secs() != rematch.deadline_secs
            {
                return Err(Refusal::RematchChangesTerms);
            }
        }
        Ok(verifier)
    }

    /// Events that follow from the log's new state.
    fn after_record(&self) -> Vec<Output> {
        let Some(v) = &self.verifier else {
            return vec![];
        };
        let mut out = Vec::new();
        let last = self.records.last().map(|r| &r.content().body);
        if let Some(Body::TieWinner(_) | Body::SeatColor(_)) = last {
            let choices = v.choices();
            let (question, choice) = match last {
                Some(Body::TieWinner(_)) => (ColorQuestion::TieWinner, choices.tie_winner),
                _ => (ColorQuestion::SeatColor, choices.seat_color),
            };
            if let Some(choice) = choice {
                out.push(Output::Event(Event::Chose {
                    mine: choice.seat == self.me,
                    question,
                    color: choice.color,
                }));
            }
        }
        let settled = matches!(last, Some(Body::Reveal(_) | Body::SeatColor(_)));
        if v.phase() == Phase::Playing
            && v.moves().is_empty()
            && settled
            && let Some(color) = self.my_color()
        {
            out.push(Output::Event(Event::Started { color }));
        }
        if let Some(end) = v.end()
            && end.record + 1 == v.record_count()
        {
            out.push(Output::Event(Event::Ended(end.outcome)));
        }
        out
    }

    /// Signs and logs a record of ours, then sends it if connected: only
    /// a record the rules allow and the register accepts.
    fn write(&mut self, body: Body, now_ms: u64) -> Result<Vec<Output>, ActionError> {
        let verifier = self.verifier.as_ref().expect("a genesis exists");
        let content = RecordContent {
            // A game keeps its genesis's version (an old log played on).
            version: verifier.version(),
            game_id: verifier.game_id(),
            seq: self.records.len() as u32,
            prev: verifier.last_hash(),
            author: self.me,
            timestamp_ms: now_ms.max(verifier.last_timestamp()),
            body,
        };
        // Checked against the rules first, so that the register never
        // holds a record the log cannot take.
        let record = Record::sign(content, &self.identity);
        let mut next = verifier.clone();
        next.append(&record).map_err(ActionError::Refused)?;
        self.claim(&record).map_err(ActionError::Register)?;
        self.verifier = Some(next);
        Ok(self.logged(record))
    }

    fn logged(&mut self, record: Record) -> Vec<Output> {
        let seq = record.content().seq;
        self.records.push(record.clone());
        let mut out = vec![Output::Persist(Box::new(record.clone()))];
        if self.connected && self.peer.is_some() {
            out.push(message(&WireMessage::Record(record.to_bytes())));
        }
        out.push(Output::Event(Event::Recorded { seq, mine: true }));
        out.extend(self.after_record());
        out
    }

    /// Writes whatever the setup needs from us next: the genesis (host, once
    /// the guest has said hello), the acceptance, our reveal.
    fn advance(&mut self, now_ms: u64) -> Vec<Output> {
        let mut out = Vec::new();
        if self.held_for_heads {
            return out;
        }
        loop {
            let step = match (&self.verifier, &self.start, &self.peer) {
                (None, Start::Host(terms), Some(peer)) => {
                    let record = match self.genesis(terms.clone(), peer.clone(), now_ms) {
                        Ok(record) => record,
                        Err(e) => {
                            out.extend(self.refused_to_sign(e));
                            break;
                        }
                    };
                    let verifier = MatchVerifier::start(&record).expect("our own genesis is valid");
                    self.verifier = Some(verifier);
                    out.extend(self.logged(record));
                    continue;
                }
                (Some(v), _, _) => match (v.phase(), self.me) {
                    // A rematch is taken only once the player says so.
                    (Phase::AwaitAccept, Seat::Guest)
                        if v.previous_game().is_some() && !self.consented =>
                    {
                        if !self.offer_told {
                            self.offer_told = true;
                            out.push(Output::Event(Event::RematchOffered));
                        }
                        break;
                    }
                    (Phase::AwaitAccept, Seat::Guest) => {
                        let nonce = guest_nonce(&self.identity, &self.records[0].hash());
                        let guest_commitment = commitment(&nonce);
                        let mine = self.identity.public_key();
                        let legacy_room = match &self.start {
                            Start::Guest {
                                invitation: Some(invitation),
                                ..
                            } => match &**invitation {
                                Invitation::Legacy { room, .. } => Some(room.clone()),
                                Invitation::Secret { .. } => None,
                            },
                            _ => None,
                        };
                        let invite_proof = match (&self.start, &self.invite_key, legacy_room) {
                            (_, _, Some(room)) if v.version() == 1 => room.into_bytes(),
                            (Start::Guest { .. }, Some(invite), _) if v.version() >= 2 => {
                                AcceptProof::sign(invite, &v.game_id(), &mine).to_bytes()
                            }
                            _ => Vec::new(),
                        };
                        match (v.is_open(), invite_proof.is_empty()) {
                            (false, _) => Body::Accept(Accept { guest_commitment }),
                            (true, false) => Body::OpenAccept(OpenAccept {
                                guest: PlayerInfo {
                                    name: self.name.clone(),
                                    key: mine.to_bytes(),
                                },
                                guest_commitment,
                                invite_proof,
                            }),
                            // Resumed from a log without the room code.
                            (true, true) => break,
                        }
                    }
                    (Phase::AwaitHostReveal, Seat::Host) => {
                        let genesis = &self.records[0];
                        let at = genesis.content().timestamp_ms;
                        let nonce = match &genesis.content().body {
                            Body::Genesis(g)
                            | Body::RematchGenesis(RematchGenesis { genesis: g, .. }) => {
                                host_nonce(&self.identity, g, at)
                            }
                            Body::OpenGenesis(g) => open_host_nonce(&self.identity, g, at),
                            _ => unreachable!("record 0 is a genesis"),
                        };
                        Body::Reveal(Reveal { nonce })
                    }
                    (Phase::AwaitGuestReveal, Seat::Guest) => Body::Reveal(Reveal {
                        nonce: guest_nonce(&self.identity, &self.records[0].hash()),
                    }),
                    _ => break,
                },
                _ => break,
            };
            match self.write(step, now_ms) {
                Ok(more) => out.extend(more),
                Err(ActionError::Register(e)) => {
                    out.extend(self.refused_to_sign(e));
                    break;
                }
                Err(e) => {
                    out.push(Output::Event(Event::Halted(HaltReason::Setup(Box::new(e)))));
                    break;
                }
            }
        }
        out
    }

    /// Halts: the register refused what the setup needed signed, so the
    /// game cannot go on from this log.
    fn refused_to_sign(&mut self, error: RegisterError) -> Vec<Output> {
        let reason = HaltReason::RefusedToSign(error);
        self.halted = Some(reason.clone());
        vec![Output::Event(Event::Halted(reason))]
    }

    fn genesis(&self, terms: HostTerms, peer: Peer, now_ms: u64) -> Result<Record, RegisterError> {
        let mut genesis = Genesis {
            rules: terms.proposal.to_wire(),
            deadline_secs: terms.deadline_secs,
            host: PlayerInfo {
                name: self.name.clone(),
                key: self.identity.public_key().to_bytes(),
            },
            guest: PlayerInfo {
                name: peer.name.clone(),
                key: peer.key.to_bytes(),
            },
            host_commitment: [0; 32],
        };
        genesis.host_commitment = commitment(&host_nonce(&self.identity, &genesis, now_ms));
        let content = match &self.rematch {
            Some(r) => RecordContent::rematch_genesis(
                RematchGenesis {
                    genesis,
                    previous: r.previous,
                },
                now_ms,
            ),
            None => RecordContent::genesis(genesis, now_ms),
        };
        self.sign(content)
    }

    /// Whether the game is under way: colours being chosen, or moves played.
    fn check_in_game(&self) -> Result<(), ActionError> {
        if self.held_for_heads {
            return Err(ActionError::WaitingForHeads);
        }
        let playing =
            self.halted.is_none() && self.verifier.as_ref().is_some_and(|v| in_game(v.phase()));
        if playing {
            Ok(())
        } else {
            Err(ActionError::NotPlaying)
        }
    }

    /// Plays a move for this side.
    pub fn play(&mut self, square: Square, now_ms: u64) -> Result<Vec<Output>, ActionError> {
        self.check_in_game()?;
        if self.question().is_some() {
            return Err(ActionError::ColorsNotChosen);
        }
        if !self.my_turn() {
            return Err(ActionError::NotYourTurn);
        }
        let position = *self.position().expect("playing");
        let next = position.play(square).map_err(|reason| {
            ActionError::Refused(VerifyError {
                record: self.records.len(),
                violation: crate::match_log::Violation::IllegalMove {
                    number: self.verifier.as_ref().map_or(0, |v| v.moves().len()) + 1,
                    square,
                    reason,
                },
            })
        })?;
        let body = Body::Move(MoveBody {
            square: square.index(),
            position_hash: next.hash().0,
        });
        self.write(body, now_ms)
    }

    /// Answers the colour question this side is asked (see [`Session::my_question`]).
    pub fn choose(&mut self, color: Color, now_ms: u64) -> Result<Vec<Output>, ActionError> {
        self.check_in_game()?;
        let question = self.my_question().ok_or(ActionError::NotYourTurn)?;
        let choice = ColorChoice {
            color: match color {
                Color::Black => 0,
                Color::White => 1,
            },
        };
        let body = match question {
            ColorQuestion::TieWinner => Body::TieWinner(choice),
            ColorQuestion::SeatColor => Body::SeatColor(choice),
        };
        self.write(body, now_ms)
    }

    /// Resigns (also while the colours are being chosen).
    pub fn resign(&mut self, now_ms: u64) -> Result<Vec<Output>, ActionError> {
        self.check_in_game()?;
        self.write(Body::Resign, now_ms)
    }

    /// Claims the win because the opponent's deadline passed (for a move,
    /// or for a colour choice).
    pub fn claim_timeout(&mut self, now_ms: u64) -> Result<Vec<Output>, ActionError> {
        self.check_in_game()?;
        let (seat, deadline) = self.deadline().ok_or(ActionError::NotPlaying)?;
        if seat == self.me {
            return Err(ActionError::NotYourTurn);
        }
        if now_ms < deadline {
            return Err(ActionError::DeadlineNotPassed);
        }
        // Move 0 is a colour choice not made (see `TimeoutClaim`).
        let move_number = match self.question() {
            Some(_) => 0,
            None => self.verifier.as_ref().map_or(0, |v| v.moves().len()) as u32 + 1,
        };
        self.write(Body::TimeoutClaim(TimeoutClaim { move_number }), now_ms)
    }
}

/// Whether a phase is part of the game proper, where a deadline runs and a
/// player may resign or claim a timeout.
fn in_game(phase: Phase) -> bool {
    matches!(
        phase,
        Phase::AwaitTieWinner | Phase::AwaitSeatColor | Phase::Playing
    )
}

#[cfg(test)]
#[path = "session_tests.rs"]
mod tests;
