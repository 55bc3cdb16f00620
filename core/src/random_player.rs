//! A seeded random player: the same seed in the same position sequence always
//! chooses the same moves. Used by tests, self-play and the weakest bot level.

use crate::engine::{Position, Rules, Square};

/// The SplitMix64 generator (Steele, Lea, Flood 2014), written out here
/// rather than taken from `rand` so that the mapping from seed to game is
/// fixed by this file alone and cannot change with a dependency upgrade:
/// recorded games must replay identically forever.
#[derive(Debug, Clone)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator whose output is fixed by `seed`.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// The next 64 bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// 32 bytes, for reproducible test nonces.
    pub fn bytes32(&mut self) -> [u8; 32] {
        let mut out = [0u8; 32];
        for chunk in out.chunks_mut(8) {
            chunk.copy_from_slice(&self.next_u64().to_le_bytes());
        }
        out
    }
}

/// Chooses uniformly among the legal moves with a seeded generator.
#[derive(Debug, Clone)]
pub struct RandomPlayer {
    generator: SplitMix64,
}

impl RandomPlayer {
    /// A player whose choices are fixed by `seed`.
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            generator: SplitMix64::new(seed),
        }
    }

    /// A legal move for the side to move, or `None` when the game is over.
    pub fn choose(&mut self, position: &Position) -> Option<Square> {
        let moves = position.legal_moves();
        let count = u64::from(moves.count());
        if count == 0 {
            return None;
        }
        // Multiply-shift maps 64 random bits onto 0..count without division.
        let pick = ((u128::from(self.generator.next_u64()) * u128::from(count)) >> 64) as usize;
        moves.squares().nth(pick)
    }

    /// Plays a whole game from `start`, returning the moves in order.
    pub fn play_game(&mut self, start: &Position) -> Vec<Square> {
        let mut position = *start;
        let mut moves = Vec::new();
        while let Some(square) = self.choose(&position) {
            position = position.play(square).expect("chosen from the legal moves");
            moves.push(square);
        }
        moves
    }
}

/// A varied opening: `plies` random moves from the start, chosen by `seed`
/// (fewer if the game ends).
pub fn random_opening(rules: &Rules, seed: u64, plies: usize) -> Vec<Square> {
    let mut random = RandomPlayer::new(seed);
    let mut position = rules.start_position();
    let mut moves = Vec::new();
    while moves.len() < plies {
        let Some(square) = random.choose(&position) else {
            break;
        };
        let Ok(next) = position.play(square) else {
            break;
        };
        moves.push(square);
        position = next;
    }
    moves
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Rules, format_transcript};

    #[test]
    fn same_seed_same_game_different_seed_different_game() {
        let start = Rules::default().start_position();
        let a = RandomPlayer::new(7).play_game(&start);
        let b = RandomPlayer::new(7).play_game(&start);
        let c = RandomPlayer::new(8).play_game(&start);
        assert_eq!(a, b);
        assert_ne!(format_transcript(&a), format_transcript(&c));
        assert!(
            a.len() >= 50,
            "a random game usually fills most of the board"
        );
    }
}
