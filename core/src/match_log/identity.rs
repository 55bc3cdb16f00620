//! Player identities: ed25519 key pairs and their readable fingerprints.

use std::fmt;

use data_encoding::BASE32_NOPAD;
use ed25519_dalek::{Signer, SigningKey, VerifyingKey};
use sha2::{Digest as _, Sha256};

/// A player's public key.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PublicKey(pub(crate) VerifyingKey);

impl PublicKey {
    /// Parses 32 bytes as an ed25519 public key; `None` if they are not a
    /// valid curve point or are a weak (small-order) key.
    pub fn from_bytes(bytes: &[u8; 32]) -> Option<PublicKey> {
        VerifyingKey::from_bytes(bytes)
            .ok()
            .filter(|key| !key.is_weak())
            .map(PublicKey)
    }

    /// The 32 key bytes.
    pub fn to_bytes(&self) -> [u8; 32] {
        self.0.to_bytes()
    }

    /// A short readable form of the key's SHA-256: 16 base32 characters in 4
    /// groups (80 bits), e.g. `MFRG-GZDF-MZTW-Q2LK`.
    pub fn fingerprint(&self) -> Fingerprint {
        let digest = Sha256::digest(self.0.as_bytes());
        let text = BASE32_NOPAD.encode(&digest[..10]);
        Fingerprint(text)
    }

    /// Whether `signature` is a valid strict ed25519 signature of `message`.
    pub fn verify(&self, message: &[u8], signature: &[u8; 64]) -> bool {
        let signature = ed25519_dalek::Signature::from_bytes(signature);
        self.0.verify_strict(message, &signature).is_ok()
    }
}

/// Whether a signature's `R` (its first 32 bytes) is a canonical encoding of
/// a point that is not of small order: the checks `verify_strict` makes on
/// `R` beyond the signature equation.
fn strict_r(signature: &[u8; 64]) -> bool {
    let r: [u8; 32] = signature[..32].try_into().expect("32 bytes");
    // y must be below p = 2^255 - 19 (the sign bit aside). The other
    // non-canonical form, x = 0 with the sign bit set, only occurs for
    // y = ±1, which are small-order points and refused below.
    let y_at_least_p = r[0] >= 0xed && r[1..31].iter().all(|&b| b == 0xff) && r[31] & 0x7f == 0x7f;
    if y_at_least_p {
        return false;
    }
    curve25519_dalek::edwards::CompressedEdwardsY(r)
        .decompress()
        .is_some_and(|point| !point.is_small_order())
}

/// Verifies many signatures at once, with the same verdict as
/// [`PublicKey::verify`] on each (`verify_strict`), but about twice as
/// fast. Returns `false` if any one fails; the caller then checks them one
/// by one to name it.
///
/// Why it agrees with `verify_strict`: ed25519-dalek's batch equation holds
/// (with overwhelming probability) only if every signature's own equation
/// `[s]B = R + [k]A` holds and every `s` is canonical; `verify_strict` adds
/// that `R` is canonical and not of small order (checked here) and that `A`
/// is not of small order (checked when keys are parsed,
/// [`PublicKey::from_bytes`]).
pub fn verify_batch_strict(items: &[(PublicKey, &[u8], &[u8; 64])]) -> bool {
    if !items.iter().all(|(_, _, signature)| strict_r(signature)) {
        return false;
    }
    let messages: Vec<&[u8]> = items.iter().map(|(_, m, _)| *m).collect();
    let signatures: Vec<ed25519_dalek::Signature> = items
        .iter()
        .map(|(_, _, s)| ed25519_dalek::Signature::from_bytes(s))
        .collect();
    let keys: Vec<VerifyingKey> = items.iter().map(|(k, _, _)| k.0).collect();
    ed25519_dalek::verify_batch(&messages, &signatures, &keys).is_ok()
}

impl fmt::Debug for PublicKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PublicKey({})", self.fingerprint())
    }
}

/// The readable fingerprint of a public key (16 base32 characters).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Fingerprint(String);

impl Fingerprint {
    /// The 16 characters without separators.
    pub fn as_compact(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Fingerprint {
    /// Four groups of four, separated by `-`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let groups: Vec<&str> = (0..self.0.len())
            .step_by(4)
            .map(|i| &self.0[i..(i + 4).min(self.0.len())])
            .collect();
        f.write_str(&groups.join("-"))
    }
}

/// A player's secret signing key. Its `Debug` shows only the fingerprint.
#[derive(Clone)]
pub struct Identity {
    signing: SigningKey,
}

impl Identity {
    /// An identity from 32 secret bytes (from the OS random generator, a
    /// key file, or a test seed).
    pub fn from_secret_bytes(secret: &[u8; 32]) -> Identity {
        Identity {
            signing: SigningKey::from_bytes(secret),
        }
    }

    /// A fixed identity for tests, fixtures and benchmarks: the same seed
    /// always gives the same key. Never a player's key (the seed is far
    /// too short to be secret), so it exists only with the `test-utils`
    /// feature.
    #[cfg(any(test, feature = "test-utils"))]
    pub fn from_seed(seed: u64) -> Identity {
        Identity::from_secret_bytes(&crate::random_player::SplitMix64::new(seed).bytes32())
    }

    /// A new identity from the operating system's random generator.
    pub fn generate() -> Result<Identity, getrandom::Error> {
        let mut secret = [0u8; 32];
        getrandom::fill(&mut secret)?;
        Ok(Identity::from_secret_bytes(&secret))
    }

    /// The 32 secret bytes, for the key file.
    pub fn secret_bytes(&self) -> [u8; 32] {
        self.signing.to_bytes()
    }

    /// The public half.
    pub fn public_key(&self) -> PublicKey {
        PublicKey(self.signing.verifying_key())
    }

    /// Signs `message`.
    pub fn sign(&self, message: &[u8]) -> [u8; 64] {
        self.signing.sign(message).to_bytes()
    }
}

impl fmt::Debug for Identity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Identity({}, secret hidden)",
            self.public_key().fingerprint()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_never_shows_the_secret() {
        let identity = Identity::from_secret_bytes(&[7; 32]);
        let text = format!("{identity:?}");
        assert!(text.contains("secret hidden"));
        let secret_hex: String = identity
            .secret_bytes()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert!(!text.contains(&secret_hex[..8]));
        assert!(!text.contains("[7, 7"));
    }

    #[test]
    fn fingerprints_are_four_groups_of_four() {
        let key = Identity::from_secret_bytes(&[1; 32]).public_key();
        let text = key.fingerprint().to_string();
        assert_eq!(text.len(), 19);
        assert_eq!(text.split('-').count(), 4);
        assert!(
            text.chars()
                .all(|c| c == '-' || c.is_ascii_uppercase() || ('2'..='7').contains(&c))
        );
        let other = Identity::from_secret_bytes(&[2; 32]).public_key();
        assert_ne!(other.fingerprint(), key.fingerprint());
    }

    #[test]
    fn signatures_verify_only_for_their_key_and_message() {
        let alice = Identity::from_secret_bytes(&[3; 32]);
        let bob = Identity::from_secret_bytes(&[4; 32]);
        let signature = alice.sign(b"f5");
        assert!(alice.public_key().verify(b"f5", &signature));
        assert!(!alice.public_key().verify(b"d6", &signature));
        assert!(!bob.public_key().verify(b"f5", &signature));
    }

    #[test]
    fn batch_verification_agrees_with_single_verification() {
        let alice = Identity::from_secret_bytes(&[3; 32]);
        let bob = Identity::from_secret_bytes(&[4; 32]);
        let messages: Vec<Vec<u8>> = (0..10u8).map(|i| vec![i; 40]).collect();
        let signed: Vec<(PublicKey, [u8; 64])> = messages
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let who = if i % 2 == 0 { &alice } else { &bob };
                (who.public_key(), who.sign(m))
            })
            .collect();
        let items: Vec<(PublicKey, &[u8], &[u8; 64])> = signed
            .iter()
            .zip(&messages)
            .map(|((k, s), m)| (*k, m.as_slice(), s))
            .collect();
        assert!(verify_batch_strict(&items));
        for i in 0..items.len() {
            let mut bad = items.clone();
            bad[i].0 = if i % 2 == 0 {
                bob.public_key()
            } else {
                alice.public_key()
            };
            assert!(!verify_batch_strict(&bad), "wrong key at {i}");
        }
        // A small-order R (the identity point, y = 1) is refused as verify_strict does.
        let mut forged = *items[0].2;
        forged[..32].copy_from_slice(&{
            let mut identity = [0u8; 32];
            identity[0] = 1;
            identity
        });
        let mut bad = items.clone();
        bad[0].2 = &forged;
        assert!(!verify_batch_strict(&bad));
        assert!(!items[0].0.verify(items[0].1, &forged));
        // A non-canonical y (y = p) is refused.
        let mut non_canonical = *items[1].2;
        non_canonical[0] = 0xed;
        non_canonical[1..31].fill(0xff);
        non_canonical[31] = 0x7f;
        assert!(!strict_r(&non_canonical));
    }

    #[test]
    fn weak_and_invalid_keys_are_refused() {
        assert!(
            PublicKey::from_bytes(&[0; 32]).is_none(),
            "small-order point"
        );
        let valid = Identity::from_secret_bytes(&[5; 32])
            .public_key()
            .to_bytes();
        assert!(PublicKey::from_bytes(&valid).is_some());
    }
}
