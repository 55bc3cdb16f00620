//! The peer session: a state machine that knows nothing of the transport.
//!
//! It takes what happens — connected, bytes received, a local action, the
//! time — and returns what to do, in order: persist a record (append and
//! flush the log *before* anything after it), send bytes, save evidence,
//! tell the user, or disconnect. Every inbound record is decoded with bounds
//! and fully verified before it changes anything.

use super::refusal::Refusal;
use super::signing_register::{RegisterError, SharedRegister};
use super::wire::{MAX_MESSAGE_BYTES, WireError, WireMessage};
use crate::engine::{Color, Outcome, Position};
use crate::match_log::coin_flip::commitment;
use crate::match_log::compare::EquivocationProof;
use crate::match_log::invite::{AcceptProof, InviteSecret, host_binding};
use crate::match_log::record::{
    Accept, Body, Digest, OpenAccept, OpenGenesis, PlayerInfo, Record, RecordContent,
    RematchGenesis, Reveal, Seat,
};
use crate::match_log::rules_proposal::RulesProposal;
use crate::match_log::verify::{MatchVerifier, Phase};
use crate::match_log::{Identity, PublicKey};
use crate::net::room_code::{ExpectedHost, Invitation};

mod actions;
mod genesis;
mod hello;
mod outputs;

use actions::in_game;
pub use genesis::genesis_fits_code;
use genesis::{guest_nonce, host_nonce, open_host_nonce};
pub use outputs::{
    ActionError, ColorQuestion, DisconnectReason, Divergence, Event, EvidenceReason, HaltReason,
    Output, ResumeError,
};

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

fn message(m: &WireMessage) -> Output {
    Output::Send(m.encode())
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
                out.push(Output::Disconnect(DisconnectReason::Refused(refusal)));
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
                        Output::Disconnect(DisconnectReason::Halted(HaltReason::RematchDeclined)),
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
        let mut out = vec![
            Output::Evidence {
                bytes: bytes[..bytes.len().min(MAX_MESSAGE_BYTES)].to_vec(),
                reason: EvidenceReason::Refused(refusal.clone()),
            },
            Output::Event(Event::Rejected(refusal.clone())),
            message(&WireMessage::Reject {
                reason: refusal.to_string(),
            }),
        ];
        if self.strikes >= MAX_STRIKES {
            out.push(Output::Disconnect(DisconnectReason::TooManyInvalid));
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
            // The acknowledgement follows the record's `Persist`: a peer
            // is never told of a record this side has not yet stored.
            Ok(mut out) => {
                out.push(message(&WireMessage::Ack {
                    records: self.records.len() as u32,
                }));
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
                HaltReason::Diverged(Divergence::Record { seq: seq as u32 }),
                format!("{}{}", line(ours), line(&record)),
            ),
        };
        let evidence = vec![
            Output::Evidence {
                bytes: evidence.into_bytes(),
                reason: EvidenceReason::Halted(reason.clone()),
            },
            Output::Evidence {
                bytes: bytes.to_vec(),
                reason: EvidenceReason::Halted(reason.clone()),
            },
        ];
        self.halt(reason, evidence)
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
}

#[cfg(test)]
mod tests;
