//! Invitations the signaling server cannot answer (protocol version 2).
//!
//! The host draws an [`InviteSecret`] (80 bits) that travels only in the
//! room code and the invite link's fragment, never to a server. From it
//! both players derive the same *invite key*, an ed25519 key pair that
//! stands for "whoever holds the code":
//! - the room name the server sees is a hash of the invite key's public
//!   half ([`InviteSecret::room`]), so the server learns neither the
//!   secret nor the key, and cannot search the secret offline for less
//!   than an ed25519 key generation per guess;
//! - each side opens the live connection with the invite key's signature
//!   over its own key ([`hello_proof`]), so a server that answers in the
//!   room, with whatever key, is refused by both;
//! - an open (correspondence) genesis binds the invite key to the host's
//!   key ([`host_binding`]), and its acceptance carries the invite key's
//!   signature over the game and the guest's key ([`AcceptProof`]), which
//!   anyone can verify from the log, and only a holder of the code can
//!   make.
//!
//! Everything here is pure: the caller draws the random bytes.

use sha2::{Digest as _, Sha256};

use super::identity::{Identity, PublicKey};
use super::record::{Digest, Seat};

/// Bytes of an invitation secret: 80 bits, 16 base32 characters.
pub const INVITE_SECRET_BYTES: usize = 10;

/// Characters of a version 2 room name.
pub const ROOM_NAME_CHARS: usize = 16;

/// Bytes of an [`AcceptProof`]: the invite key and its signature.
pub const ACCEPT_PROOF_BYTES: usize = 96;

/// The secret a room code carries: only the host and whoever the host
/// gave the code to hold it.
#[derive(Clone, PartialEq, Eq)]
pub struct InviteSecret([u8; INVITE_SECRET_BYTES]);

impl InviteSecret {
    /// The secret from its bytes (drawn from the OS generator by the
    /// caller, or read from a code).
    pub fn from_bytes(bytes: [u8; INVITE_SECRET_BYTES]) -> InviteSecret {
        InviteSecret(bytes)
    }

    /// The secret's bytes, for the code.
    pub fn to_bytes(&self) -> [u8; INVITE_SECRET_BYTES] {
        self.0
    }

    /// The invite key both players derive from the secret.
    pub fn invite_key(&self) -> Identity {
        let mut hasher = Sha256::new();
        hasher.update(b"reversi/invite/v2/key\0");
        hasher.update(self.0);
        Identity::from_secret_bytes(&hasher.finalize().into())
    }

    /// The room name on the signaling server: 16 base32 characters of a
    /// hash of the invite key's public half.
    pub fn room(&self) -> String {
        room_of(&self.invite_key().public_key())
    }
}

impl std::fmt::Debug for InviteSecret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("InviteSecret(..)")
    }
}

/// The room name for an invite key (see [`InviteSecret::room`]).
pub fn room_of(invite_key: &PublicKey) -> String {
    let mut hasher = Sha256::new();
    hasher.update(b"reversi/invite/v2/room\0");
    hasher.update(invite_key.to_bytes());
    data_encoding::BASE32_NOPAD.encode(&hasher.finalize())[..ROOM_NAME_CHARS].to_string()
}

/// What the invite key signs when a player says hello: its seat and key.
fn hello_message(seat: Seat, key: &PublicKey) -> Vec<u8> {
    let mut message = b"reversi/invite/v2/hello\0".to_vec();
    message.push(match seat {
        Seat::Host => 0,
        Seat::Guest => 1,
    });
    message.extend_from_slice(&key.to_bytes());
    message
}

/// The proof a player sends with its hello: the invite key's signature
/// over the player's seat and key.
pub fn hello_proof(invite_key: &Identity, seat: Seat, key: &PublicKey) -> [u8; 64] {
    invite_key.sign(&hello_message(seat, key))
}

/// Whether `proof` is the invite key's signature over `seat` and `key`.
pub fn check_hello_proof(
    invite_key: &PublicKey,
    seat: Seat,
    key: &PublicKey,
    proof: &[u8; 64],
) -> bool {
    invite_key.verify(&hello_message(seat, key), proof)
}

/// What an open genesis of version 2 carries in place of the version 1
/// commitment: a hash of the invite key and the host's key. Only one who
/// knows the invite key can make it for a given host key, so a server
/// cannot post an open game in the host's name under a code it has
/// never seen.
pub fn host_binding(invite_key: &PublicKey, host_key: &PublicKey) -> Digest {
    let mut hasher = Sha256::new();
    hasher.update(b"reversi/invite/v2/host\0");
    hasher.update(invite_key.to_bytes());
    hasher.update(host_key.to_bytes());
    hasher.finalize().into()
}

fn accept_message(game_id: &Digest, guest_key: &PublicKey) -> Vec<u8> {
    let mut message = b"reversi/invite/v2/accept\0".to_vec();
    message.extend_from_slice(game_id);
    message.extend_from_slice(&guest_key.to_bytes());
    message
}

/// The proof an acceptance of a version 2 open genesis carries: the
/// invite key, and its signature over the game and the guest's key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AcceptProof {
    /// The invite key's public half (its hash is the genesis's binding).
    pub invite_key: PublicKey,
    /// Its signature over the game id and the guest's key.
    pub signature: [u8; 64],
}

impl AcceptProof {
    /// The proof that the holder of `invite_key` accepts `game_id` as
    /// the guest with `guest_key`.
    pub fn sign(invite_key: &Identity, game_id: &Digest, guest_key: &PublicKey) -> AcceptProof {
        AcceptProof {
            invite_key: invite_key.public_key(),
            signature: invite_key.sign(&accept_message(game_id, guest_key)),
        }
    }

    /// The 96 bytes the acceptance record carries.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = self.invite_key.to_bytes().to_vec();
        bytes.extend_from_slice(&self.signature);
        bytes
    }

    /// Reads the 96 bytes of a record; `None` when they are not a key
    /// and a signature.
    pub fn from_bytes(bytes: &[u8]) -> Option<AcceptProof> {
        let (key, signature) = bytes.split_first_chunk::<32>()?;
        let signature: [u8; 64] = signature.try_into().ok()?;
        Some(AcceptProof {
            invite_key: PublicKey::from_bytes(key)?,
            signature,
        })
    }

    /// Whether this proof accepts `game_id` for `guest_key` under the
    /// genesis's `binding` of the invite key to `host_key`.
    pub fn holds(
        &self,
        binding: &Digest,
        host_key: &PublicKey,
        game_id: &Digest,
        guest_key: &PublicKey,
    ) -> bool {
        host_binding(&self.invite_key, host_key) == *binding
            && self
                .invite_key
                .verify(&accept_message(game_id, guest_key), &self.signature)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(seed: u8) -> Identity {
        Identity::from_secret_bytes(&[seed; 32])
    }

    #[test]
    fn both_sides_derive_the_same_room_and_key_and_the_room_hides_the_secret() {
        let secret = InviteSecret::from_bytes([7; INVITE_SECRET_BYTES]);
        let again = InviteSecret::from_bytes([7; INVITE_SECRET_BYTES]);
        assert_eq!(secret.room(), again.room());
        assert_eq!(
            secret.invite_key().public_key(),
            again.invite_key().public_key()
        );
        assert_eq!(secret.room().len(), ROOM_NAME_CHARS);
        let other = InviteSecret::from_bytes([8; INVITE_SECRET_BYTES]);
        assert_ne!(secret.room(), other.room());
        let encoded = data_encoding::BASE32_NOPAD.encode(&secret.to_bytes());
        assert!(!secret.room().contains(&encoded[..8]));
        assert_eq!(format!("{secret:?}"), "InviteSecret(..)");
    }

    #[test]
    fn a_hello_proof_holds_only_for_its_seat_and_key_and_invite() {
        let invite = InviteSecret::from_bytes([1; INVITE_SECRET_BYTES]).invite_key();
        let ann = key(1).public_key();
        let proof = hello_proof(&invite, Seat::Host, &ann);
        assert!(check_hello_proof(
            &invite.public_key(),
            Seat::Host,
            &ann,
            &proof
        ));
        assert!(!check_hello_proof(
            &invite.public_key(),
            Seat::Guest,
            &ann,
            &proof
        ));
        assert!(!check_hello_proof(
            &invite.public_key(),
            Seat::Host,
            &key(2).public_key(),
            &proof
        ));
        let stranger = InviteSecret::from_bytes([2; INVITE_SECRET_BYTES]).invite_key();
        assert!(!check_hello_proof(
            &stranger.public_key(),
            Seat::Host,
            &ann,
            &proof
        ));
    }

    #[test]
    fn an_accept_proof_round_trips_and_holds_only_for_its_game_guest_and_binding() {
        let invite = InviteSecret::from_bytes([3; INVITE_SECRET_BYTES]).invite_key();
        let host = key(1).public_key();
        let guest = key(2).public_key();
        let binding = host_binding(&invite.public_key(), &host);
        let game = [9; 32];
        let proof = AcceptProof::sign(&invite, &game, &guest);
        let bytes = proof.to_bytes();
        assert_eq!(bytes.len(), ACCEPT_PROOF_BYTES);
        let read = AcceptProof::from_bytes(&bytes).unwrap();
        assert_eq!(read, proof);
        assert!(read.holds(&binding, &host, &game, &guest));
        assert!(!read.holds(&binding, &host, &[8; 32], &guest));
        assert!(!read.holds(&binding, &host, &game, &key(3).public_key()));
        assert!(!read.holds(&binding, &key(3).public_key(), &game, &guest));
        // Another invite key, with its own valid signature, does not match
        // the genesis's binding.
        let forged = AcceptProof::sign(
            &InviteSecret::from_bytes([4; INVITE_SECRET_BYTES]).invite_key(),
            &game,
            &guest,
        );
        assert!(!forged.holds(&binding, &host, &game, &guest));
        assert_eq!(AcceptProof::from_bytes(&bytes[..95]), None);
        assert_eq!(
            AcceptProof::from_bytes(&[bytes.clone(), vec![0]].concat()),
            None
        );
    }
}
