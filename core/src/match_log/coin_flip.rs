//! The fair coin flip: both players commit to a secret nonce, then reveal
//! it; the game seed is SHA-256 of both nonces (host's first). Everything
//! decided by chance comes from the seed, so anyone can recompute it.
//!
//! - Black (who moves first) is the host when bit 0 of seed byte 0 is 0,
//!   else the guest.
//! - Under the draw rule decided by lot, the host chooses the colour an
//!   equal count wins for when bit 0 of seed byte 1 is 0, else the guest;
//!   the other then chooses a colour, which replaces the seed's.
//! - In logs from before those choices were signed, the same bit gave an
//!   equal count to Black (0) or White (1).

use sha2::{Digest as _, Sha256};

use super::record::{Digest, Seat};
use crate::engine::Color;

/// SHA-256 of a nonce: the commitment published before any reveal.
pub fn commitment(nonce: &[u8; 32]) -> Digest {
    Sha256::digest(nonce).into()
}

/// The game seed from both revealed nonces.
pub fn game_seed(host_nonce: &[u8; 32], guest_nonce: &[u8; 32]) -> Digest {
    let mut hasher = Sha256::new();
    hasher.update(host_nonce);
    hasher.update(guest_nonce);
    hasher.finalize().into()
}

/// The seat that plays Black.
pub fn black_seat(seed: &Digest) -> Seat {
    if seed[0] & 1 == 0 {
        Seat::Host
    } else {
        Seat::Guest
    }
}

/// The seat that chooses which colour an equal count wins for.
pub fn tie_chooser(seed: &Digest) -> Seat {
    if seed[1] & 1 == 0 {
        Seat::Host
    } else {
        Seat::Guest
    }
}

/// The colour an equal count went to in logs whose seed decided it.
pub fn seed_tie_winner(seed: &Digest) -> Color {
    if seed[1] & 1 == 0 {
        Color::Black
    } else {
        Color::White
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seed_depends_on_both_nonces_in_order() {
        let a = [1u8; 32];
        let b = [2u8; 32];
        assert_ne!(game_seed(&a, &b), game_seed(&b, &a));
        assert_ne!(game_seed(&a, &b), game_seed(&a, &a));
    }

    #[test]
    fn both_seats_and_colours_occur() {
        let seats: Vec<Seat> = (0u8..16)
            .map(|i| black_seat(&game_seed(&[i; 32], &[0; 32])))
            .collect();
        assert!(seats.contains(&Seat::Host) && seats.contains(&Seat::Guest));
        let colours: Vec<Color> = (0u8..16)
            .map(|i| seed_tie_winner(&game_seed(&[i; 32], &[0; 32])))
            .collect();
        assert!(colours.contains(&Color::Black) && colours.contains(&Color::White));
        let choosers: Vec<Seat> = (0u8..16)
            .map(|i| tie_chooser(&game_seed(&[i; 32], &[0; 32])))
            .collect();
        assert!(choosers.contains(&Seat::Host) && choosers.contains(&Seat::Guest));
    }
}
