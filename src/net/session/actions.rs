//! What the local player does: play, choose a colour, resign, claim a
//! timeout, answer a rematch.

use super::{ActionError, ColorQuestion, Event, HaltReason, Output, Session, message};
use crate::engine::{Color, Square};
use crate::match_log::record::{Body, ColorChoice, MoveBody, TimeoutClaim};
use crate::match_log::verify::{Phase, VerifyError};
use crate::net::wire::WireMessage;

impl Session {
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

    /// Whether the game is under way: colours being chosen, or moves played.
    pub(super) fn check_in_game(&self) -> Result<(), ActionError> {
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
pub(super) fn in_game(phase: Phase) -> bool {
    matches!(
        phase,
        Phase::AwaitTieWinner | Phase::AwaitSeatColor | Phase::Playing
    )
}
