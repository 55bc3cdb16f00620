//! Verification of a match log, record by record.
//!
//! [`MatchVerifier`] holds the state a log has established so far. Each new
//! record is checked completely — version, sequence, chain, game id, author,
//! signature, timestamps, and what the body means for the game — before
//! anything changes, so an invalid record never alters the state. The same
//! code serves the network session (one record at a time) and the auditor
//! (a whole file).

use super::coin_flip::{black_seat, commitment, game_seed, seed_tie_winner, tie_chooser};
use super::identity::{PublicKey, verify_batch_strict};
use super::invite::{ACCEPT_PROOF_BYTES, AcceptProof};
use super::record::{
    Body, ColorChoice, Digest, Genesis, MAX_INVITE_SECRET_BYTES, MAX_LOG_RECORDS, MAX_NAME_BYTES,
    OLDEST_PROTOCOL_VERSION, OpenAccept, OpenGenesis, PROTOCOL_VERSION, PlayerInfo, Record,
    RematchGenesis, Seat, WireRules, hex, invite_commitment,
};
use super::rules_proposal::{DrawAgreement, RulesProposal, WireRulesError};
use crate::engine::{Color, Ending, Outcome, PlayError, Position, Rules, Square};

/// Shortest per-move deadline: five minutes.
pub const MIN_DEADLINE_SECS: u32 = 5 * 60;
/// Longest per-move deadline: seven days.
pub const MAX_DEADLINE_SECS: u32 = 7 * 24 * 60 * 60;

/// Why a per-move deadline given as text is not accepted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DeadlineError {
    /// Not a duration.
    #[error("{text:?} is not a duration: {reason} (try 5m, 2h or 7days)")]
    Unreadable {
        /// The text given.
        text: String,
        /// What the duration parser said.
        reason: String,
    },
    /// A duration outside the allowed range.
    #[error("the per-move deadline must be from 5 minutes to 7 days, found {found}")]
    OutOfRange {
        /// The duration given, as written back.
        found: String,
    },
}

/// Parses a per-move deadline such as `5m`, `1h` or `7days` into seconds,
/// within five minutes to seven days.
pub fn parse_deadline(text: &str) -> Result<u32, DeadlineError> {
    let duration = humantime::parse_duration(text).map_err(|e| DeadlineError::Unreadable {
        text: text.to_string(),
        reason: e.to_string(),
    })?;
    u32::try_from(duration.as_secs())
        .ok()
        .filter(|s| (MIN_DEADLINE_SECS..=MAX_DEADLINE_SECS).contains(s))
        .ok_or_else(|| DeadlineError::OutOfRange {
            found: humantime::format_duration(duration).to_string(),
        })
}

/// The first problem in a log: the record's number and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("record {record}: {violation}")]
pub struct VerifyError {
    /// The record's position in the log, from 0.
    pub record: usize,
    /// What is wrong with it.
    pub violation: Violation,
}

/// Everything that can be wrong with a record, each saying what was
/// expected and what was found.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Violation {
    /// The log has no records.
    #[error("the log is empty; expected a genesis record")]
    EmptyLog,
    /// More records than any game needs.
    #[error("more than {max} records")]
    TooManyRecords {
        /// The most this decoder accepts.
        max: usize,
    },
    /// A protocol version this program does not speak, or another than
    /// the genesis's.
    #[error("protocol version {found}, expected {expected}")]
    Version {
        /// The version expected: the newest this program speaks for a
        /// genesis, the genesis's for every later record.
        expected: u16,
        /// Version found.
        found: u16,
    },
    /// A sequence number out of order.
    #[error("sequence number {found}, expected {expected}")]
    Sequence {
        /// The record's position.
        expected: u32,
        /// The number it carries.
        found: u32,
    },
    /// The previous-hash field does not name the previous record.
    #[error("previous-record hash {found}, expected {expected}")]
    BrokenChain {
        /// Hash of the previous record (hex).
        expected: String,
        /// The hash carried (hex).
        found: String,
    },
    /// The game id is not this game's.
    #[error("game id {found}, expected {expected}")]
    WrongGame {
        /// This game's id (hex).
        expected: String,
        /// The id carried (hex).
        found: String,
    },
    /// A body that cannot come here.
    #[error("a {found} record, expected {expected}")]
    UnexpectedBody {
        /// What may come here.
        expected: &'static str,
        /// What came.
        found: &'static str,
    },
    /// Written by the wrong player.
    #[error("written by the {found}, expected the {expected}")]
    WrongAuthor {
        /// Who should have written it.
        expected: Seat,
        /// Who claims to have.
        found: Seat,
    },
    /// The signature does not verify under the author's key.
    #[error("the signature is not valid for the {author}'s key {fingerprint}")]
    BadSignature {
        /// The claimed author.
        author: Seat,
        /// The author's key fingerprint.
        fingerprint: String,
    },
    /// A key that is not a usable ed25519 public key.
    #[error("the {seat}'s public key is not a valid ed25519 key")]
    InvalidKey {
        /// Whose key.
        seat: Seat,
    },
    /// An open genesis accepted without proof of the room code it was
    /// made for.
    #[error("the acceptance does not prove it holds the room code the open genesis was made for")]
    WrongInvite,
    /// Both players have the same key.
    #[error("host and guest have the same public key")]
    SameKey,
    /// A player name out of bounds.
    #[error(
        "the {seat}'s name must be 1 to {max} bytes without control characters, found {found:?}"
    )]
    BadName {
        /// Whose name.
        seat: Seat,
        /// The limit in bytes.
        max: usize,
        /// The name found in the record.
        found: String,
    },
    /// A deadline outside five minutes to seven days.
    #[error("per-move deadline {found} s, expected {min} to {max} s")]
    Deadline {
        /// Shortest allowed.
        min: u32,
        /// Longest allowed.
        max: u32,
        /// Given.
        found: u32,
    },
    /// The proposed rules are not playable.
    #[error("invalid rules: {0}")]
    Rules(WireRulesError),
    /// A revealed nonce does not hash to the commitment.
    #[error("the {seat}'s nonce does not match the commitment {expected}; it hashes to {found}")]
    CommitmentMismatch {
        /// Whose reveal.
        seat: Seat,
        /// The commitment (hex).
        expected: String,
        /// SHA-256 of the revealed nonce (hex).
        found: String,
    },
    /// A colour number other than 0 (black) or 1 (white).
    #[error("colour number {found}, expected 0 (black) or 1 (white)")]
    BadColor {
        /// The number found in the record.
        found: u8,
    },
    /// A square number over 63.
    #[error("square number {found}, expected 0 to 63")]
    SquareOutOfRange {
        /// The number found in the record.
        found: u8,
    },
    /// A move the rules do not allow.
    #[error("move {number} ({square}) is illegal: {reason}")]
    IllegalMove {
        /// The move's number, from 1.
        number: usize,
        /// The square the record names.
        square: Square,
        /// Why.
        reason: PlayError,
    },
    /// The position hash after a move is not the engine's.
    #[error("move {number} ({square}): position hash {found}, expected {expected}")]
    PositionHash {
        /// The move's number, from 1.
        number: usize,
        /// The square the record names.
        square: Square,
        /// The engine's hash (hex).
        expected: String,
        /// The hash carried (hex).
        found: String,
    },
    /// A record after the end of the game.
    #[error("the game already ended at record {ended_at}")]
    AfterEnd {
        /// The record that ended it.
        ended_at: usize,
    },
    /// A timestamp earlier than the previous record's.
    #[error("timestamp {found} ms is earlier than the previous record's {previous} ms")]
    TimeBackwards {
        /// The previous record's timestamp.
        previous: u64,
        /// This record's.
        found: u64,
    },
    /// A timeout claimed before the deadline passed.
    #[error("timeout claimed at {found} ms, but the deadline only passes at {deadline} ms")]
    TimeoutTooEarly {
        /// When the deadline passes.
        deadline: u64,
        /// When it was claimed.
        found: u64,
    },
    /// A timeout claim naming the wrong move.
    #[error("timeout claim for move {found}, expected move {expected}")]
    TimeoutWrongMove {
        /// The move in progress.
        expected: u32,
        /// The move number the claim names.
        found: u32,
    },
}

/// A player as the genesis names them, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Player {
    /// Display name.
    pub name: String,
    /// Public key.
    pub key: PublicKey,
}

/// A move as the log records it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LoggedMove {
    /// The square the move was played on.
    pub square: Square,
    /// The colour that played it.
    pub color: Color,
    /// The record's number.
    pub record: usize,
    /// The author's timestamp.
    pub timestamp_ms: u64,
}

/// How and where the game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MatchEnd {
    /// Who won (if anyone), the score and what ended the game.
    pub outcome: Outcome,
    /// The record that ended it.
    pub record: usize,
}

/// The coin flip once both nonces are revealed, and what was chosen after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CoinFlip {
    /// SHA-256 of both nonces.
    pub seed: Digest,
    /// The seat that plays Black: the seed's pick, replaced by a colour
    /// choice under the draw rule decided by lot.
    pub black: Seat,
    /// Under the draw rule decided by lot, the seat the seed names to choose
    /// the colour an equal count wins for.
    pub tie_chooser: Option<Seat>,
    /// The colour an equal count wins for, when decided by lot (once chosen).
    pub tie_goes_to: Option<Color>,
    /// The rules in force (an equal count a draw until the choice is made).
    pub rules: Rules,
}

/// A colour a player signed a choice of, under the draw rule decided by lot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Choice {
    /// Who chose.
    pub seat: Seat,
    /// The colour chosen.
    pub color: Color,
    /// The record that says so.
    pub record: usize,
}

/// The two choices of the draw rule decided by lot, as far as they are made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Choices {
    /// The colour an equal count wins for, chosen by the seat the lot names.
    pub tie_winner: Option<Choice>,
    /// The colour the other seat chose to play.
    pub seat_color: Option<Choice>,
}

/// Where the log stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Waiting for the guest's acceptance.
    AwaitAccept,
    /// Waiting for the host's reveal.
    AwaitHostReveal,
    /// Waiting for the guest's reveal.
    AwaitGuestReveal,
    /// Waiting for the seat the lot names to choose who wins an equal count.
    AwaitTieWinner,
    /// Waiting for the other seat to choose its colour.
    AwaitSeatColor,
    /// Moves are being played.
    Playing,
    /// The game is over.
    Ended,
}

/// The state a verified log prefix has established.
#[derive(Debug, Clone)]
pub struct MatchVerifier {
    game_id: Digest,
    /// The game a rematch follows.
    previous: Option<Digest>,
    proposal: RulesProposal,
    deadline_secs: u32,
    host: Player,
    /// `None` while an open genesis awaits its acceptance.
    guest: Option<Player>,
    /// The protocol version of the genesis, which every record keeps.
    version: u16,
    /// The invitation an open genesis asks its acceptance to prove.
    invite: Option<Invitation>,
    host_commitment: Digest,
    guest_commitment: Option<Digest>,
    host_nonce: Option<[u8; 32]>,
    guest_nonce: Option<[u8; 32]>,
    coin_flip: Option<CoinFlip>,
    choices: Choices,
    position: Option<Position>,
    moves: Vec<LoggedMove>,
    end: Option<MatchEnd>,
    records: usize,
    last_hash: Digest,
    last_timestamp: u64,
    /// Set while appending records whose signatures were verified as a batch.
    signatures_checked: bool,
}

/// What a checked record changes, applied only once all checks pass.
enum Effect {
    Accept(Digest),
    OpenAccept(Player, Digest),
    Reveal(Seat, [u8; 32], Option<CoinFlip>),
    TieWinner(Choice, Rules),
    SeatColor(Choice),
    Move(LoggedMove, Position, Option<Outcome>),
    End(Outcome),
}

fn fail(record: usize, violation: Violation) -> VerifyError {
    VerifyError { record, violation }
}

/// Verifies a whole log.
///
/// All signatures are first checked together as one batch (same verdict as
/// checking each strictly, about twice as fast); if that passes, the
/// records are checked in order without checking signatures again. If it
/// fails, each record's signature is checked in order, so the error names
/// the first bad record exactly as record-by-record verification would.
pub fn verify_log(records: &[Record]) -> Result<MatchVerifier, VerifyError> {
    let (genesis, rest) = records.split_first().ok_or(fail(0, Violation::EmptyLog))?;
    let mut verifier = MatchVerifier::start(genesis)?;
    let messages: Vec<Vec<u8>> = rest.iter().map(Record::signed_message).collect();
    // An open genesis names the guest's key only in the acceptance.
    let guest_key = verifier.guest.as_ref().map(|g| g.key).or_else(|| {
        rest.iter().find_map(|r| match &r.content().body {
            Body::OpenAccept(a) => PublicKey::from_bytes(&a.guest.key),
            _ => None,
        })
    });
    let items: Option<Vec<_>> = rest
        .iter()
        .zip(&messages)
        .map(|(r, m)| {
            let key = match r.content().author {
                Seat::Host => Some(verifier.host.key),
                Seat::Guest => guest_key,
            };
            key.map(|key| (key, m.as_slice(), r.signature()))
        })
        .collect();
    verifier.signatures_checked = items.is_some_and(|items| verify_batch_strict(&items));
    for record in rest {
        verifier.append(record)?;
    }
    verifier.signatures_checked = false;
    Ok(verifier)
}

fn check_name(seat: Seat, name: &str) -> Result<(), Violation> {
    if name.is_empty() || name.len() > MAX_NAME_BYTES || name.chars().any(char::is_control) {
        return Err(Violation::BadName {
            seat,
            max: MAX_NAME_BYTES,
            found: name.to_string(),
        });
    }
    Ok(())
}

/// A player named in a record, checked.
fn check_player(seat: Seat, info: &PlayerInfo) -> Result<Player, Violation> {
    let key = PublicKey::from_bytes(&info.key).ok_or(Violation::InvalidKey { seat })?;
    check_name(seat, &info.name)?;
    Ok(Player {
        name: info.name.clone(),
        key,
    })
}

/// What both kinds of genesis propose.
fn check_terms(rules: &WireRules, deadline_secs: u32) -> Result<RulesProposal, Violation> {
    if !(MIN_DEADLINE_SECS..=MAX_DEADLINE_SECS).contains(&deadline_secs) {
        return Err(Violation::Deadline {
            min: MIN_DEADLINE_SECS,
            max: MAX_DEADLINE_SECS,
            found: deadline_secs,
        });
    }
    RulesProposal::from_wire(rules).map_err(Violation::Rules)
}

fn check_genesis(genesis: &Genesis) -> Result<(Player, Player, RulesProposal), Violation> {
    let host = check_player(Seat::Host, &genesis.host)?;
    let guest = check_player(Seat::Guest, &genesis.guest)?;
    if host.key == guest.key {
        return Err(Violation::SameKey);
    }
    let proposal = check_terms(&genesis.rules, genesis.deadline_secs)?;
    Ok((host, guest, proposal))
}

/// What the acceptance of an open genesis must prove.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Invitation {
    /// Version 1: the commitment to a room name, which the acceptance shows.
    RoomName(Digest),
    /// Version 2: the binding of an invite key to the host, whose
    /// signature the acceptance carries.
    Bound(Digest),
}

fn check_open_genesis(genesis: &OpenGenesis) -> Result<(Player, RulesProposal), Violation> {
    let host = check_player(Seat::Host, &genesis.host)?;
    let proposal = check_terms(&genesis.rules, genesis.deadline_secs)?;
    Ok((host, proposal))
}

impl MatchVerifier {
    /// Checks a genesis record and starts a log from it.
    pub fn start(record: &Record) -> Result<MatchVerifier, VerifyError> {
        let content = record.content();
        let at = |v| fail(0, v);
        if !(OLDEST_PROTOCOL_VERSION..=PROTOCOL_VERSION).contains(&content.version) {
            return Err(at(Violation::Version {
                expected: PROTOCOL_VERSION,
                found: content.version,
            }));
        }
        if content.seq != 0 {
            return Err(at(Violation::Sequence {
                expected: 0,
                found: content.seq,
            }));
        }
        if content.prev != [0; 32] {
            return Err(at(Violation::BrokenChain {
                expected: hex(&[0; 32]),
                found: hex(&content.prev),
            }));
        }
        if content.game_id != [0; 32] {
            return Err(at(Violation::WrongGame {
                expected: hex(&[0; 32]),
                found: hex(&content.game_id),
            }));
        }
        let (host_info, host_commitment, deadline_secs) = match &content.body {
            Body::Genesis(g) | Body::RematchGenesis(RematchGenesis { genesis: g, .. }) => {
                (&g.host, g.host_commitment, g.deadline_secs)
            }
            Body::OpenGenesis(g) => (&g.host, g.host_commitment, g.deadline_secs),
            other => {
                return Err(at(Violation::UnexpectedBody {
                    expected: "genesis",
                    found: other.kind(),
                }));
            }
        };
        if content.author != Seat::Host {
            return Err(at(Violation::WrongAuthor {
                expected: Seat::Host,
                found: content.author,
            }));
        }
        // The signature first: nothing in an unsigned proposal is worth judging.
        let host_key = PublicKey::from_bytes(&host_info.key)
            .ok_or(at(Violation::InvalidKey { seat: Seat::Host }))?;
        if !host_key.verify(&record.signed_message(), record.signature()) {
            return Err(at(Violation::BadSignature {
                author: Seat::Host,
                fingerprint: host_key.fingerprint().to_string(),
            }));
        }
        let (host, guest, invite, proposal) = match &content.body {
            Body::Genesis(g) | Body::RematchGenesis(RematchGenesis { genesis: g, .. }) => {
                let (host, guest, proposal) = check_genesis(g).map_err(at)?;
                (host, Some(guest), None, proposal)
            }
            Body::OpenGenesis(g) => {
                let (host, proposal) = check_open_genesis(g).map_err(at)?;
                let invite = match content.version {
                    1 => Invitation::RoomName(g.invite),
                    _ => Invitation::Bound(g.invite),
                };
                (host, None, Some(invite), proposal)
            }
            _ => unreachable!("matched above"),
        };
        let previous = match &content.body {
            Body::RematchGenesis(r) => Some(r.previous),
            _ => None,
        };
        Ok(MatchVerifier {
            previous,
            game_id: record.hash(),
            proposal,
            deadline_secs,
            host,
            guest,
            version: content.version,
            invite,
            host_commitment,
            guest_commitment: None,
            host_nonce: None,
            guest_nonce: None,
            coin_flip: None,
            choices: Choices::default(),
            position: None,
            moves: Vec::new(),
            end: None,
            records: 1,
            last_hash: record.hash(),
            last_timestamp: content.timestamp_ms,
            signatures_checked: false,
        })
    }

    /// Checks `record` as the next one and, only if it is valid, applies it.
    pub fn append(&mut self, record: &Record) -> Result<(), VerifyError> {
        let effect = self.check(record).map_err(|v| fail(self.records, v))?;
        match effect {
            Effect::Accept(c) => self.guest_commitment = Some(c),
            Effect::OpenAccept(guest, c) => {
                self.guest = Some(guest);
                self.guest_commitment = Some(c);
            }
            Effect::Reveal(Seat::Host, nonce, _) => self.host_nonce = Some(nonce),
            Effect::Reveal(Seat::Guest, nonce, flip) => {
                self.guest_nonce = Some(nonce);
                self.coin_flip = flip;
                self.position = flip.map(|f| f.rules.start_position());
            }
            Effect::TieWinner(choice, rules) => {
                self.choices.tie_winner = Some(choice);
                if let Some(flip) = &mut self.coin_flip {
                    flip.tie_goes_to = Some(choice.color);
                    flip.rules = rules;
                }
                self.position = Some(rules.start_position());
            }
            Effect::SeatColor(choice) => {
                self.choices.seat_color = Some(choice);
                if let Some(flip) = &mut self.coin_flip {
                    flip.black = match choice.color {
                        Color::Black => choice.seat,
                        Color::White => choice.seat.other(),
                    };
                }
            }
            Effect::Move(logged, position, outcome) => {
                self.moves.push(logged);
                self.position = Some(position);
                self.end = outcome.map(|outcome| MatchEnd {
                    outcome,
                    record: self.records,
                });
            }
            Effect::End(outcome) => {
                self.end = Some(MatchEnd {
                    outcome,
                    record: self.records,
                })
            }
        }
        self.records += 1;
        self.last_hash = record.hash();
        self.last_timestamp = record.content().timestamp_ms;
        Ok(())
    }

    /// All checks of the next record, without changing anything.
    fn check(&self, record: &Record) -> Result<Effect, Violation> {
        let content = record.content();
        if self.records >= MAX_LOG_RECORDS {
            return Err(Violation::TooManyRecords {
                max: MAX_LOG_RECORDS,
            });
        }
        if content.version != self.version {
            return Err(Violation::Version {
                expected: self.version,
                found: content.version,
            });
        }
        if content.seq as usize != self.records {
            return Err(Violation::Sequence {
                expected: self.records as u32,
                found: content.seq,
            });
        }
        if content.game_id != self.game_id {
            return Err(Violation::WrongGame {
                expected: hex(&self.game_id),
                found: hex(&content.game_id),
            });
        }
        if content.prev != self.last_hash {
            return Err(Violation::BrokenChain {
                expected: hex(&self.last_hash),
                found: hex(&content.prev),
            });
        }
        if let Some(end) = self.end {
            return Err(Violation::AfterEnd {
                ended_at: end.record,
            });
        }
        let (expected_body, expected_author) = self.expected_next(&content.body);
        if let Some(expected) = expected_body {
            return Err(Violation::UnexpectedBody {
                expected,
                found: content.body.kind(),
            });
        }
        if let Some(expected) = expected_author.filter(|&a| a != content.author) {
            return Err(Violation::WrongAuthor {
                expected,
                found: content.author,
            });
        }
        let key = match &content.body {
            Body::OpenAccept(accept) => self.check_open_accept(accept)?.key,
            _ => {
                self.player(content.author)
                    .expect("only an open acceptance comes before the guest is known")
                    .key
            }
        };
        if !self.signatures_checked && !key.verify(&record.signed_message(), record.signature()) {
            return Err(Violation::BadSignature {
                author: content.author,
                fingerprint: key.fingerprint().to_string(),
            });
        }
        if content.timestamp_ms < self.last_timestamp {
            return Err(Violation::TimeBackwards {
                previous: self.last_timestamp,
                found: content.timestamp_ms,
            });
        }
        match &content.body {
            Body::Genesis(_) | Body::OpenGenesis(_) | Body::RematchGenesis(_) => {
                unreachable!("refused by expected_next")
            }
            Body::Accept(accept) => Ok(Effect::Accept(accept.guest_commitment)),
            Body::OpenAccept(accept) => Ok(Effect::OpenAccept(
                self.check_open_accept(accept)?,
                accept.guest_commitment,
            )),
            Body::Reveal(reveal) => self.check_reveal(content.author, &reveal.nonce),
            Body::TieWinner(choice) => {
                let choice = self.check_choice(content.author, choice)?;
                Ok(Effect::TieWinner(
                    choice,
                    self.proposal.with_tie_winner(choice.color),
                ))
            }
            Body::SeatColor(choice) => Ok(Effect::SeatColor(
                self.check_choice(content.author, choice)?,
            )),
            Body::Move(body) => self.check_move(record, body.square, &body.position_hash),
            Body::Resign => {
                let color = self.color_of(content.author);
                Ok(Effect::End(
                    self.position()
                        .outcome_with(Ending::Resignation { resigned: color }),
                ))
            }
            Body::TimeoutClaim(claim) => {
                let expected = match self.phase() {
                    Phase::AwaitTieWinner | Phase::AwaitSeatColor => 0,
                    _ => self.moves.len() as u32 + 1,
                };
                if claim.move_number != expected {
                    return Err(Violation::TimeoutWrongMove {
                        expected,
                        found: claim.move_number,
                    });
                }
                let deadline = self
                    .last_timestamp
                    .saturating_add(u64::from(self.deadline_secs) * 1000);
                if content.timestamp_ms < deadline {
                    return Err(Violation::TimeoutTooEarly {
                        deadline,
                        found: content.timestamp_ms,
                    });
                }
                let late = match self.phase() {
                    // Before the colours are chosen, the seed's stand.
                    Phase::AwaitTieWinner | Phase::AwaitSeatColor => {
                        self.color_of(self.seat_to_write().expect("a choice is due"))
                    }
                    _ => self.position().to_move().expect("the game is not over"),
                };
                Ok(Effect::End(
                    self.position().outcome_with(Ending::Timeout { late }),
                ))
            }
        }
    }

    /// For a body, the body kind expected instead (if it may not come now),
    /// and the author it must have (if only one may write it).
    fn expected_next(&self, body: &Body) -> (Option<&'static str>, Option<Seat>) {
        match (self.phase(), body) {
            (Phase::AwaitAccept, Body::Accept(_)) if self.invite.is_none() => {
                (None, Some(Seat::Guest))
            }
            (Phase::AwaitAccept, Body::OpenAccept(_)) if self.invite.is_some() => {
                (None, Some(Seat::Guest))
            }
            (Phase::AwaitAccept, _) if self.invite.is_some() => (Some("open accept"), None),
            (Phase::AwaitAccept, _) => (Some("accept"), None),
            (Phase::AwaitHostReveal, Body::Reveal(_)) => (None, Some(Seat::Host)),
            (Phase::AwaitGuestReveal, Body::Reveal(_)) => (None, Some(Seat::Guest)),
            (Phase::AwaitHostReveal | Phase::AwaitGuestReveal, _) => (Some("reveal"), None),
            (Phase::AwaitTieWinner, Body::TieWinner(_)) => (None, self.tie_chooser()),
            (Phase::AwaitSeatColor, Body::SeatColor(_)) => {
                (None, self.tie_chooser().map(Seat::other))
            }
            (Phase::AwaitTieWinner | Phase::AwaitSeatColor, Body::Resign) => (None, None),
            (Phase::AwaitTieWinner | Phase::AwaitSeatColor, Body::TimeoutClaim(_)) => {
                (None, self.seat_to_write().map(Seat::other))
            }
            (Phase::AwaitTieWinner, _) => {
                (Some("tie winner choice, resign or timeout claim"), None)
            }
            (Phase::AwaitSeatColor, _) => (Some("colour choice, resign or timeout claim"), None),
            (Phase::Playing, Body::Move(_)) => (None, Some(self.seat_to_move())),
            (Phase::Playing, Body::Resign) => (None, None),
            (Phase::Playing, Body::TimeoutClaim(_)) => (None, Some(self.seat_to_move().other())),
            (Phase::Playing, _) => (Some("move, resign or timeout claim"), None),
            (Phase::Ended, _) => (Some("nothing"), None),
        }
    }

    /// The guest an open acceptance names, checked against the genesis.
    fn check_open_accept(&self, accept: &OpenAccept) -> Result<Player, Violation> {
        let guest = check_player(Seat::Guest, &accept.guest)?;
        if guest.key == self.host.key {
            return Err(Violation::SameKey);
        }
        let shown = match &self.invite {
            Some(Invitation::RoomName(commitment)) => {
                accept.invite_proof.len() <= MAX_INVITE_SECRET_BYTES
                    && *commitment == invite_commitment(&accept.invite_proof)
            }
            Some(Invitation::Bound(binding)) => {
                accept.invite_proof.len() == ACCEPT_PROOF_BYTES
                    && AcceptProof::from_bytes(&accept.invite_proof).is_some_and(|proof| {
                        proof.holds(binding, &self.host.key, &self.game_id, &guest.key)
                    })
            }
            None => false,
        };
        if !shown {
            return Err(Violation::WrongInvite);
        }
        Ok(guest)
    }

    fn check_reveal(&self, seat: Seat, nonce: &[u8; 32]) -> Result<Effect, Violation> {
        let expected = match seat {
            Seat::Host => self.host_commitment,
            Seat::Guest => self.guest_commitment.expect("accept comes before reveals"),
        };
        let found = commitment(nonce);
        if found != expected {
            return Err(Violation::CommitmentMismatch {
                seat,
                expected: hex(&expected),
                found: hex(&found),
            });
        }
        let flip = match (seat, self.host_nonce) {
            (Seat::Guest, Some(host_nonce)) => {
                let seed = game_seed(&host_nonce, nonce);
                let (tie_chooser, tie_goes_to, rules) = match self.proposal.draw {
                    DrawAgreement::Fixed(_) => (None, None, self.proposal.rules),
                    DrawAgreement::ByLot => (Some(tie_chooser(&seed)), None, self.proposal.rules),
                    DrawAgreement::SeedPicks => {
                        let winner = seed_tie_winner(&seed);
                        (None, Some(winner), self.proposal.with_tie_winner(winner))
                    }
                };
                Some(CoinFlip {
                    seed,
                    black: black_seat(&seed),
                    tie_chooser,
                    tie_goes_to,
                    rules,
                })
            }
            _ => None,
        };
        Ok(Effect::Reveal(seat, *nonce, flip))
    }

    fn check_choice(&self, seat: Seat, choice: &ColorChoice) -> Result<Choice, Violation> {
        let color = match choice.color {
            0 => Color::Black,
            1 => Color::White,
            found => return Err(Violation::BadColor { found }),
        };
        Ok(Choice {
            seat,
            color,
            record: self.records,
        })
    }

    fn tie_chooser(&self) -> Option<Seat> {
        self.coin_flip.and_then(|f| f.tie_chooser)
    }

    fn check_move(
        &self,
        record: &Record,
        square: u8,
        claimed: &Digest,
    ) -> Result<Effect, Violation> {
        let square = Square::new(square).ok_or(Violation::SquareOutOfRange { found: square })?;
        let number = self.moves.len() + 1;
        let position = self.position();
        let color = position.to_move().expect("the game is not over");
        let next = position
            .play(square)
            .map_err(|reason| Violation::IllegalMove {
                number,
                square,
                reason,
            })?;
        let expected = next.hash().0;
        if &expected != claimed {
            return Err(Violation::PositionHash {
                number,
                square,
                expected: hex(&expected),
                found: hex(claimed),
            });
        }
        let logged = LoggedMove {
            square,
            color,
            record: self.records,
            timestamp_ms: record.content().timestamp_ms,
        };
        Ok(Effect::Move(logged, next, next.outcome()))
    }

    /// Where the log stands.
    pub fn phase(&self) -> Phase {
        if self.end.is_some() {
            Phase::Ended
        } else if self.guest_commitment.is_none() {
            Phase::AwaitAccept
        } else if self.host_nonce.is_none() {
            Phase::AwaitHostReveal
        } else if self.guest_nonce.is_none() {
            Phase::AwaitGuestReveal
        } else if self.tie_chooser().is_some() && self.choices.tie_winner.is_none() {
            Phase::AwaitTieWinner
        } else if self.tie_chooser().is_some() && self.choices.seat_color.is_none() {
            Phase::AwaitSeatColor
        } else {
            Phase::Playing
        }
    }

    fn position(&self) -> &Position {
        self.position.as_ref().expect("play has begun")
    }

    /// The seat of a colour (once the coin is flipped).
    pub fn seat_of(&self, color: Color) -> Option<Seat> {
        self.coin_flip.map(|d| match color {
            Color::Black => d.black,
            Color::White => d.black.other(),
        })
    }

    /// The colour of a seat (once the coin is flipped).
    fn color_of(&self, seat: Seat) -> Color {
        match self.coin_flip {
            Some(d) if d.black == seat => Color::Black,
            _ => Color::White,
        }
    }

    fn seat_to_move(&self) -> Seat {
        let color = self.position().to_move().expect("the game is not over");
        self.seat_of(color).expect("play has begun")
    }

    /// The player in a seat: the guest of an open genesis is known only
    /// once the acceptance names them.
    pub fn player(&self, seat: Seat) -> Option<&Player> {
        match seat {
            Seat::Host => Some(&self.host),
            Seat::Guest => self.guest.as_ref(),
        }
    }

    /// The host, whom every genesis names.
    pub fn host(&self) -> &Player {
        &self.host
    }

    /// Whether the game began as an open invitation (see [`Body::OpenGenesis`]).
    pub fn is_open(&self) -> bool {
        self.invite.is_some()
    }

    /// The protocol version of the game's records (its genesis's).
    pub fn version(&self) -> u16 {
        self.version
    }

    /// The game id: the hash of the genesis record.
    pub fn game_id(&self) -> Digest {
        self.game_id
    }

    /// The game this one is a rematch of, as its genesis names it.
    pub fn previous_game(&self) -> Option<Digest> {
        self.previous
    }

    /// The rules the genesis proposes, and how an equal count is to be scored.
    pub fn proposal(&self) -> &RulesProposal {
        &self.proposal
    }

    /// Per-move deadline in seconds.
    pub fn deadline_secs(&self) -> u32 {
        self.deadline_secs
    }

    /// Commitments: the host's, and the guest's once accepted.
    pub fn commitments(&self) -> (Digest, Option<Digest>) {
        (self.host_commitment, self.guest_commitment)
    }

    /// Revealed nonces so far.
    pub fn nonces(&self) -> (Option<[u8; 32]>, Option<[u8; 32]>) {
        (self.host_nonce, self.guest_nonce)
    }

    /// The coin flip, once both nonces are revealed.
    pub fn coin_flip(&self) -> Option<&CoinFlip> {
        self.coin_flip.as_ref()
    }

    /// The seat that plays Black, once the colours are settled (not while
    /// they are being chosen under the draw rule decided by lot).
    pub fn black_seat(&self) -> Option<Seat> {
        match self.phase() {
            Phase::AwaitTieWinner | Phase::AwaitSeatColor => None,
            _ => self.coin_flip.map(|f| f.black),
        }
    }

    /// The choices made under the draw rule decided by lot.
    pub fn choices(&self) -> &Choices {
        &self.choices
    }

    /// The current position, once play has begun.
    pub fn current_position(&self) -> Option<&Position> {
        self.position.as_ref()
    }

    /// The moves so far.
    pub fn moves(&self) -> &[LoggedMove] {
        &self.moves
    }

    /// How the game ended, if it has.
    pub fn end(&self) -> Option<&MatchEnd> {
        self.end.as_ref()
    }

    /// Records verified so far.
    pub fn record_count(&self) -> usize {
        self.records
    }

    /// Hash of the last verified record.
    pub fn last_hash(&self) -> Digest {
        self.last_hash
    }

    /// Timestamp of the last verified record.
    pub fn last_timestamp(&self) -> u64 {
        self.last_timestamp
    }

    /// The seat whose turn it is to write a move, while playing.
    pub fn seat_to_write(&self) -> Option<Seat> {
        match self.phase() {
            Phase::AwaitAccept | Phase::AwaitGuestReveal => Some(Seat::Guest),
            Phase::AwaitHostReveal => Some(Seat::Host),
            Phase::AwaitTieWinner => self.tie_chooser(),
            Phase::AwaitSeatColor => self.tie_chooser().map(Seat::other),
            Phase::Playing => Some(self.seat_to_move()),
            Phase::Ended => None,
        }
    }
}

#[cfg(test)]
mod deadline_tests {
    use super::*;

    #[test]
    fn deadlines_are_read_within_five_minutes_to_a_week() {
        assert_eq!(parse_deadline("5m"), Ok(300));
        assert_eq!(parse_deadline("7days"), Ok(MAX_DEADLINE_SECS));
        assert!(matches!(
            parse_deadline("4m"),
            Err(DeadlineError::OutOfRange { found }) if found == "4m"
        ));
        assert!(matches!(
            parse_deadline("8days"),
            Err(DeadlineError::OutOfRange { .. })
        ));
        let unreadable = parse_deadline("soon").unwrap_err();
        assert!(unreadable.to_string().contains("try 5m"), "{unreadable}");
    }
}
