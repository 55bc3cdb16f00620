//! The safety code of two players: derived from both keys, the same on
//! both screens, for the players to compare by voice, as six words
//! (`ability garden …`, from the BIP-39 English list, whose words are
//! told apart by their first four letters) or twenty digits.
//!
//! Whoever stands between two players (a signaling server answering as the
//! host to the guest and as the guest to the host) holds keys of its own,
//! so each player's screen shows the code of a different pair of keys: the
//! codes differ. The code does not depend on who is host, and has about
//! 66 bits, so an impostor cannot search for keys that make the two codes
//! agree.

use sha2::{Digest as _, Sha256};

use super::identity::PublicKey;

/// The code of a pair of keys: SHA-256 of both, shown as words or digits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SafetyCode([u8; 32]);

/// How many safety words are shown: 66 bits, as many as the digits.
pub const SAFETY_WORDS: usize = 6;

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
        SafetyCode(digest.into())
    }

    /// Six words, each 11 bits of the code, for comparing by voice.
    pub fn words(&self) -> String {
        let list = bip39::Language::English.word_list();
        let bits = u128::from_be_bytes(self.0[..16].try_into().expect("16 bytes"));
        (0..SAFETY_WORDS)
            .map(|i| list[((bits >> (128 - 11 * (i + 1))) & 0x7ff) as usize])
            .collect::<Vec<_>>()
            .join(" ")
    }
}

impl std::fmt::Display for SafetyCode {
    /// `04821 39130 55271 09388`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut groups = self
            .0
            .chunks_exact(8)
            .map(|bytes| u64::from_le_bytes(bytes.try_into().expect("8 bytes")) % 100_000);
        let mut next = || groups.next().unwrap_or_default();
        write!(f, "{:05} {:05} {:05} {:05}", next(), next(), next(), next())
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
        let code = SafetyCode::of(&key(1), &key(2));
        assert_eq!(code.to_string(), GOLDEN);
        assert_eq!(code.words(), GOLDEN_WORDS);
    }

    #[test]
    fn six_words_from_the_list_differ_for_another_pair() {
        let (ann, ben, eve) = (key(1), key(2), key(3));
        let words = SafetyCode::of(&ann, &ben).words();
        assert_eq!(words, SafetyCode::of(&ben, &ann).words());
        assert_ne!(words, SafetyCode::of(&ann, &eve).words());
        let list = bip39::Language::English.word_list();
        assert_eq!(words.split(' ').count(), SAFETY_WORDS);
        assert!(words.split(' ').all(|w| list.contains(&w)), "{words}");
    }

    const GOLDEN: &str = "76893 35770 25669 52577";
    const GOLDEN_WORDS: &str = "talk derive warfare library donor crash";
}
