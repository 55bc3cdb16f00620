//! Why the session refused what arrived: a message, a record, a peer. The
//! session keeps the bytes as evidence with this reason, tells the peer,
//! and reports it as [`super::session::Event::Rejected`]; the front-ends
//! show it. Nothing refused changes the game.

use super::room_code::ExpectedHost;
use super::session::HaltReason;
use super::wire::{PEER_PROTOCOL, WireError};
use crate::match_log::{DecodeError, Seat, VerifyError};

/// Why the session refused something from the peer or the mailbox.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// The peer's program speaks another protocol version.
    #[error(
        "version mismatch: the peer speaks protocol {found}, this program speaks {PEER_PROTOCOL}; both players need the same version of Reversi"
    )]
    Version {
        /// The peer's protocol version.
        found: u16,
    },
    /// The bytes are not a message.
    #[error(transparent)]
    Wire(WireError),
    /// The peer says it sits in this side's seat.
    #[error("the peer claims to be the {0} too")]
    SameSeat(Seat),
    /// The peer's key is not an ed25519 public key.
    #[error("the peer's key is not a valid ed25519 key")]
    InvalidKey,
    /// An open game's guest arrives with the host's own key.
    #[error("the guest's key is the host's")]
    GuestIsHost,
    /// The peer's key is not the one the log names for its seat.
    #[error("the peer's key {fingerprint} is not the {seat}'s key in this game")]
    NotThePlayer {
        /// The peer's key fingerprint.
        fingerprint: String,
        /// The seat it claims.
        seat: Seat,
    },
    /// The host's key is not the one the room code names.
    #[error("the host's key {fingerprint} does not match the room code (expected {expected})")]
    NotTheCodesHost {
        /// The peer's key fingerprint.
        fingerprint: String,
        /// The host the code names.
        expected: Box<ExpectedHost>,
    },
    /// A host who cannot show the code's secret: someone who knows only
    /// the room name.
    #[error(
        "the peer in the room (key {fingerprint}) cannot prove it holds this room code: it is not the host who made it, but someone who knows only the room name, such as the signaling server; nothing was signed"
    )]
    HostWithoutCode {
        /// The peer's key fingerprint.
        fingerprint: String,
    },
    /// A guest who cannot show the code's secret.
    #[error(
        "someone without the room code (key {fingerprint}) tried to join: only the room name reached them, so it is not the friend you gave the code to (the signaling server, or whoever it told); refused, nothing was signed"
    )]
    GuestWithoutCode {
        /// The peer's key fingerprint.
        fingerprint: String,
    },
    /// A rematch's peer is not the old game's opponent.
    #[error("the peer's key {fingerprint} is not the opponent this rematch is for")]
    NotTheRematchOpponent {
        /// The peer's key fingerprint.
        fingerprint: String,
    },
    /// A rematch refusal where none is proposed.
    #[error("a rematch refusal where no rematch is proposed")]
    UnexpectedDecline,
    /// The bytes of a record are not a record.
    #[error("record: {0}")]
    Undecodable(DecodeError),
    /// A record ahead of the next place in the log.
    #[error("record {seq} arrived out of order: expected record {expected}")]
    OutOfOrder {
        /// The record's place.
        seq: usize,
        /// The next place in our log.
        expected: usize,
    },
    /// A record of another game, for a place our log fills.
    #[error("record {seq} belongs to another game")]
    OtherGame {
        /// The record's place.
        seq: usize,
    },
    /// A record, for a place our log fills, not signed by its author.
    #[error("record {seq}: the signature is not valid for the {author}'s key")]
    BadSignature {
        /// The record's place.
        seq: usize,
        /// The seat it claims to come from.
        author: Seat,
    },
    /// The record does not verify: the rules or the protocol refuse it.
    #[error("{0}")]
    Invalid(VerifyError),
    /// The game is halted: nothing more is taken.
    #[error("the game is halted: {0}")]
    Halted(HaltReason),
    /// A genesis signed by another key than the peer's.
    #[error("record 0: the genesis is not signed by the host we are talking to")]
    GenesisNotFromPeer,
    /// A genesis signed by another host than the room code names.
    #[error("record 0: the genesis is not signed by the host the room code names ({expected})")]
    GenesisNotFromCodesHost {
        /// The host the code names.
        expected: Box<ExpectedHost>,
    },
    /// A genesis where this side asked for none (it hosts, or resumed).
    #[error("record 0: a genesis this side did not ask for")]
    GenesisNotAsked,
    /// A genesis for another guest.
    #[error("record 0: the genesis names another guest key than ours")]
    GenesisForAnotherGuest,
    /// A rematch genesis that does not follow our game, or not from its
    /// opponent.
    #[error("record 0: not a rematch of our game from its opponent")]
    NotOurRematch,
    /// A rematch genesis with other rules or another deadline.
    #[error("record 0: the rematch does not keep the rules and deadline of our game")]
    RematchChangesTerms,
    /// An open game in the mailbox not made with this code's secret.
    #[error(
        "record 0: this open game was not made with your code's secret: someone other than the host who gave you the code posted it in the room"
    )]
    NotMadeWithCode,
    /// An open game of version 1 for a code of version 2.
    #[error("record 0: an open game of version 1 cannot be accepted with a code of version 2")]
    OldGameNewCode,
    /// An open game of version 2 for a code of version 1.
    #[error(
        "record 0: an open game of version 2 needs the code it was made with, not a code of version 1"
    )]
    NewGameOldCode,
    /// A relayed genesis from a host a typed code names only in part.
    #[error("record 0: a genesis from a host that has not yet proved it holds the room code")]
    HostNotProved,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_says_what_was_expected_and_what_was_found() {
        let version = Refusal::Version { found: 1 }.to_string();
        assert!(version.contains("protocol 1") && version.contains(&PEER_PROTOCOL.to_string()));
        let order = Refusal::OutOfOrder {
            seq: 9,
            expected: 4,
        };
        assert_eq!(
            order.to_string(),
            "record 9 arrived out of order: expected record 4"
        );
    }
}
