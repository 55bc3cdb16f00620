//! Builds valid logs with both players' keys at hand: for `reversi
//! selfplay` and for tests (which then tamper with the result).

use super::coin_flip::commitment;
use super::identity::Identity;
use super::record::{
    Accept, Body, ColorChoice, Genesis, MoveBody, PlayerInfo, Record, RecordContent, Reveal, Seat,
    TimeoutClaim,
};
use super::rules_proposal::RulesProposal;
use super::verify::{MatchVerifier, Phase, VerifyError};
use crate::engine::{Color, Square};

/// What the host proposes.
#[derive(Debug, Clone)]
pub struct MatchTerms {
    /// Rules and start position.
    pub proposal: RulesProposal,
    /// Per-move deadline in seconds.
    pub deadline_secs: u32,
    /// The host's display name.
    pub host_name: String,
    /// The guest's display name.
    pub guest_name: String,
}

/// Both players' secrets.
#[derive(Debug, Clone)]
pub struct Players {
    /// The host's key.
    pub host: Identity,
    /// The guest's key.
    pub guest: Identity,
    /// The host's secret nonce.
    pub host_nonce: [u8; 32],
    /// The guest's secret nonce.
    pub guest_nonce: [u8; 32],
}

/// A log under construction; every record is verified as it is added.
#[derive(Debug, Clone)]
pub struct MatchBuilder {
    players: Players,
    records: Vec<Record>,
    verifier: MatchVerifier,
}

impl MatchBuilder {
    /// Writes the genesis, the acceptance and both reveals, all at `now_ms`.
    pub fn new(
        terms: &MatchTerms,
        players: Players,
        now_ms: u64,
    ) -> Result<MatchBuilder, VerifyError> {
        let genesis = Genesis {
            rules: terms.proposal.to_wire(),
            deadline_secs: terms.deadline_secs,
            host: PlayerInfo {
                name: terms.host_name.clone(),
                key: players.host.public_key().to_bytes(),
            },
            guest: PlayerInfo {
                name: terms.guest_name.clone(),
                key: players.guest.public_key().to_bytes(),
            },
            host_commitment: commitment(&players.host_nonce),
        };
        let content = RecordContent::genesis(genesis, now_ms);
        let record = Record::sign(content, &players.host);
        let verifier = MatchVerifier::start(&record)?;
        let mut builder = MatchBuilder {
            records: vec![record],
            verifier,
            players,
        };
        let guest_commitment = commitment(&builder.players.guest_nonce);
        builder.push(
            Seat::Guest,
            now_ms,
            Body::Accept(Accept { guest_commitment }),
        )?;
        let nonce = builder.players.host_nonce;
        builder.push(Seat::Host, now_ms, Body::Reveal(Reveal { nonce }))?;
        let nonce = builder.players.guest_nonce;
        builder.push(Seat::Guest, now_ms, Body::Reveal(Reveal { nonce }))?;
        Ok(builder)
    }

    /// The content the next record would have, for `author` and `body`.
    pub fn next_content(&self, author: Seat, timestamp_ms: u64, body: Body) -> RecordContent {
        RecordContent {
            version: self.verifier.version(),
            game_id: self.verifier.game_id(),
            seq: self.records.len() as u32,
            prev: self.verifier.last_hash(),
            author,
            timestamp_ms,
            body,
        }
    }

    /// Signs a record as `author`, verifies it and appends it.
    pub fn push(
        &mut self,
        author: Seat,
        timestamp_ms: u64,
        body: Body,
    ) -> Result<&Record, VerifyError> {
        let content = self.next_content(author, timestamp_ms, body);
        let record = Record::sign(content, self.identity(author));
        self.verifier.append(&record)?;
        self.records.push(record);
        Ok(self.records.last().expect("just pushed"))
    }

    /// Plays `square` for the side to move.
    pub fn play(&mut self, square: Square, timestamp_ms: u64) -> Result<&Record, VerifyError> {
        let seat = self.verifier.seat_to_write().unwrap_or(Seat::Host);
        let position_hash = self
            .verifier
            .current_position()
            .and_then(|p| p.play(square).ok())
            .map_or([0; 32], |p| p.hash().0);
        let body = Body::Move(MoveBody {
            square: square.index(),
            position_hash,
        });
        self.push(seat, timestamp_ms, body)
    }

    /// Answers the colour question pending under the draw rule decided by
    /// lot, for the seat it is asked of: which colour wins an equal count,
    /// then which colour the other seat plays.
    pub fn choose(&mut self, color: Color, timestamp_ms: u64) -> Result<&Record, VerifyError> {
        let seat = self.verifier.seat_to_write().unwrap_or(Seat::Host);
        let choice = ColorChoice {
            color: color.index() as u8,
        };
        let body = match self.verifier.phase() {
            Phase::AwaitSeatColor => Body::SeatColor(choice),
            _ => Body::TieWinner(choice),
        };
        self.push(seat, timestamp_ms, body)
    }

    /// `seat` resigns.
    pub fn resign(&mut self, seat: Seat, timestamp_ms: u64) -> Result<&Record, VerifyError> {
        self.push(seat, timestamp_ms, Body::Resign)
    }

    /// `seat` claims the win on time for the move (or colour choice) in progress.
    pub fn claim_timeout(&mut self, seat: Seat, timestamp_ms: u64) -> Result<&Record, VerifyError> {
        let move_number = match self.verifier.phase() {
            Phase::AwaitTieWinner | Phase::AwaitSeatColor => 0,
            _ => self.verifier.moves().len() as u32 + 1,
        };
        self.push(
            seat,
            timestamp_ms,
            Body::TimeoutClaim(TimeoutClaim { move_number }),
        )
    }

    /// The key of a seat.
    pub fn identity(&self, seat: Seat) -> &Identity {
        match seat {
            Seat::Host => &self.players.host,
            Seat::Guest => &self.players.guest,
        }
    }

    /// The records so far.
    pub fn records(&self) -> &[Record] {
        &self.records
    }

    /// The verifier, which has checked every record added so far.
    pub fn verifier(&self) -> &MatchVerifier {
        &self.verifier
    }
}
