//! Comparing two logs of the same game: prefix, divergence, and the
//! portable proof of cheating when one key signed two different records
//! for the same place in the chain.

use super::identity::PublicKey;
use super::record::{Body, Record, Seat};

/// Two different records, both validly signed by the same player for the
/// same place in the same game: proof that the player equivocated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EquivocationProof {
    /// Who signed both.
    pub seat: Seat,
    /// Their key.
    pub key: PublicKey,
    /// The record in the first log.
    pub first: Record,
    /// The record in the second log.
    pub second: Record,
}

/// How two logs relate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Comparison {
    /// Byte for byte the same.
    Identical {
        /// Records in each.
        records: usize,
    },
    /// One log is the start of the other.
    Prefix {
        /// Records of the shorter log.
        shorter: usize,
        /// Records of the longer log.
        longer: usize,
        /// Whether the first log is the shorter one.
        first_is_shorter: bool,
    },
    /// The logs agree up to `record` and differ there.
    Diverge {
        /// The first record that differs.
        record: usize,
        /// A proof of equivocation, if the two records are validly signed
        /// by the same key for the same place in the chain.
        proof: Option<Box<EquivocationProof>>,
    },
    /// The genesis records differ: these are two different games.
    DifferentGames,
}

/// The host's key as the genesis states it.
fn genesis_keys(genesis: &Record) -> Option<(PublicKey, PublicKey)> {
    match &genesis.content().body {
        Body::Genesis(g) => Some((
            PublicKey::from_bytes(&g.host.key)?,
            PublicKey::from_bytes(&g.guest.key)?,
        )),
        _ => None,
    }
}

/// Compares two logs record by record.
pub fn compare_logs(first: &[Record], second: &[Record]) -> Comparison {
    let common = first.iter().zip(second).take_while(|(a, b)| a == b).count();
    if common == first.len() && common == second.len() {
        return Comparison::Identical { records: common };
    }
    if common == first.len().min(second.len()) {
        return Comparison::Prefix {
            shorter: common,
            longer: first.len().max(second.len()),
            first_is_shorter: first.len() < second.len(),
        };
    }
    if common == 0 {
        return Comparison::DifferentGames;
    }
    let (a, b) = (&first[common], &second[common]);
    let proof = genesis_keys(&first[0]).and_then(|(host, guest)| {
        let (ca, cb) = (a.content(), b.content());
        let same_place = ca.author == cb.author
            && ca.seq == cb.seq
            && ca.prev == cb.prev
            && ca.game_id == cb.game_id;
        let key = match ca.author {
            Seat::Host => host,
            Seat::Guest => guest,
        };
        let both_signed = key.verify(&a.signed_message(), a.signature())
            && key.verify(&b.signed_message(), b.signature());
        (same_place && both_signed).then(|| {
            Box::new(EquivocationProof {
                seat: ca.author,
                key,
                first: a.clone(),
                second: b.clone(),
            })
        })
    });
    Comparison::Diverge {
        record: common,
        proof,
    }
}
