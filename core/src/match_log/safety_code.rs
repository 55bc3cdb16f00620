//! The safety code of two players: twenty digits derived from both keys,
//! the same on both screens, for the players to compare by voice.
//!
//! Whoever stands between two players (a signaling server answering as the
//! host to the guest and as the guest to the host) holds keys of its own,
//! so each player's screen shows the code of a different pair of keys: the
//! codes differ. The code does not depend on who is host, and has about
//! 66 bits, so an impostor cannot search for keys that make the two codes
//! agree.

use sha2::{Digest as _, Sha256};

use super::identity::PublicKey;

/// Twenty digits in four groups of five.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SafetyCode([u32; 4]);

impl SafetyCode {
    /// The code of the pair `a`, `b` (in either order).
    pub fn of(a: &PublicKey, b: &PublicKey) -> SafetyCode {
        let (a, b) = (a.to_bytes(), b.to_bytes());
        let (low, high) = if a <= b { (a, b) } else { (b, a) };
        let digest = Sha256::new()
            .chain_update(b"reversi/safety-code/v1\0")
            .chain_update(low)
            .chain_update(high)
            .finalize();
        let mut groups = [0; 4];
        for (group, bytes) in groups.iter_mut().zip(digest.chunks_exact(8)) {
            let value = u64::from_le_bytes(bytes.try_into().expect("8 bytes"));
            *group = (value % 100_000) as u32;
        }
        SafetyCode(groups)
    }
}

impl std::fmt::Display for SafetyCode {
    /// `04821 39130 55271 09388`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let [a, b, c, d] = self.0;
        write!(f, "{a:05} {b:05} {c:05} {d:05}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::match_log::Identity;

    fn key(n: u8) -> PublicKey {
        Identity::from_secret_bytes(&[n; 32]).public_key()
    }

    #[test]
    fn both_players_see_the_same_code_and_another_pair_another() {
        let (ann, ben, eve) = (key(1), key(2), key(3));
        assert_eq!(SafetyCode::of(&ann, &ben), SafetyCode::of(&ben, &ann));
        // A server between them pairs each with a key of its own.
        assert_ne!(SafetyCode::of(&ann, &eve), SafetyCode::of(&eve, &ben));
        let text = SafetyCode::of(&ann, &ben).to_string();
        assert_eq!(text.len(), 23);
        assert!(
            text.split(' ')
                .all(|g| g.len() == 5 && g.chars().all(|c| c.is_ascii_digit()))
        );
    }

    #[test]
    fn the_code_is_fixed_for_a_pair_of_keys() {
        // Golden: a change here changes every player's code.
        let golden = SafetyCode::of(&key(1), &key(2)).to_string();
        assert_eq!(golden, GOLDEN);
    }

    const GOLDEN: &str = "76893 35770 25669 52577";
}
