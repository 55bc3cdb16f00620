//! The first record: checking a genesis against the room code and the
//! host, and signing one; the nonces of the coin flip.

use super::{HostTerms, Peer, Session, Start};
use crate::match_log::coin_flip::commitment;
use crate::match_log::invite::host_binding;
use crate::match_log::record::{
    Body, Digest, Genesis, OpenGenesis, PlayerInfo, Record, RecordContent, RematchGenesis, Seat,
};
use crate::match_log::verify::MatchVerifier;
use crate::match_log::{Identity, PublicKey};
use crate::net::refusal::Refusal;
use crate::net::room_code::{ExpectedHost, Invitation};
use crate::net::signing_register::RegisterError;
use sha2::Digest as _;
use sha2::Sha256;

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
pub(super) fn check_genesis_host(
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
pub(super) fn check_relayed_genesis(
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

pub(super) fn derive_nonce(domain: &[u8], identity: &Identity, context: &[u8]) -> [u8; 32] {
    // Secret (it needs our key) yet recomputable from the log on resume,
    // so no nonce file is needed; fixed by data chosen before our
    // commitment, so it cannot be steered after seeing the other's.
    let mut hasher = Sha256::new();
    hasher.update(domain);
    hasher.update(identity.secret_bytes());
    hasher.update(context);
    hasher.finalize().into()
}

pub(super) fn host_nonce(identity: &Identity, genesis: &Genesis, timestamp_ms: u64) -> [u8; 32] {
    let mut context = Vec::new();
    context.extend_from_slice(&genesis.guest.key);
    context.extend_from_slice(&timestamp_ms.to_le_bytes());
    context.extend_from_slice(&postcard::to_allocvec(&genesis.rules).expect("in memory"));
    context.extend_from_slice(&genesis.deadline_secs.to_le_bytes());
    derive_nonce(b"reversi/nonce/host\0", identity, &context)
}

pub(super) fn open_host_nonce(
    identity: &Identity,
    genesis: &OpenGenesis,
    timestamp_ms: u64,
) -> [u8; 32] {
    let mut context = Vec::new();
    context.extend_from_slice(&genesis.invite);
    context.extend_from_slice(&timestamp_ms.to_le_bytes());
    context.extend_from_slice(&postcard::to_allocvec(&genesis.rules).expect("in memory"));
    context.extend_from_slice(&genesis.deadline_secs.to_le_bytes());
    derive_nonce(b"reversi/nonce/open-host\0", identity, &context)
}

pub(super) fn guest_nonce(identity: &Identity, genesis_hash: &Digest) -> [u8; 32] {
    derive_nonce(b"reversi/nonce/guest\0", identity, genesis_hash)
}

impl Session {
    /// Checks a genesis from the host: valid, from the host we are talking
    /// to (or, relayed, the host the room code names), and naming us (or
    /// open to us).
    pub(super) fn check_genesis(&self, record: &Record) -> Result<MatchVerifier, Refusal> {
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

    pub(super) fn genesis(
        &self,
        terms: HostTerms,
        peer: Peer,
        now_ms: u64,
    ) -> Result<Record, RegisterError> {
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
}
