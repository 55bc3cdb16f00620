//! The position as the search sees it: the side to move's discs, the other
//! side's, the empty squares, and the discs each has left in hand.
//!
//! Smaller than [`Position`] and without pass handling: the search decides
//! itself when a side passes, which lets it count a pass as a ply without
//! replaying the move generator.

use crate::engine::Position;
use crate::engine::topology::Geometry;

/// Discs in hand when the supply is unlimited (never decremented).
pub const UNLIMITED: u8 = u8::MAX;

/// A position from the side to move's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    /// Discs of the side to move.
    pub player: u64,
    /// Discs of the other side.
    pub opponent: u64,
    /// Empty squares (walls are in none of the three sets).
    pub empty: u64,
    /// Discs left in the side to move's hand, or [`UNLIMITED`].
    pub player_supply: u8,
    /// Discs left in the other side's hand, or [`UNLIMITED`].
    pub opponent_supply: u8,
}

impl Board {
    /// The search board of a position after its opening placements, from
    /// the side to move's view; `None` when the game is over or the free or
    /// double opening is still being placed.
    pub fn from_position(position: &Position) -> Option<Board> {
        let mover = position.to_move()?;
        if position.opening_placements_left() > 0 {
            return None;
        }
        let supply = |c| position.supply(c).unwrap_or(UNLIMITED);
        let board = Board {
            player: position.discs(mover).0,
            opponent: position.discs(!mover).0,
            empty: position.empty().0,
            player_supply: supply(mover),
            opponent_supply: supply(!mover),
        };
        Some(board.without_idle_supply())
    }

    /// The same board with a supply that cannot run out before the board
    /// fills replaced by [`UNLIMITED`], so the fast paths apply.
    pub fn without_idle_supply(mut self) -> Board {
        let empties = self.empties() as u8;
        if self.player_supply >= empties {
            self.player_supply = UNLIMITED;
        }
        if self.opponent_supply >= empties {
            self.opponent_supply = UNLIMITED;
        }
        self
    }

    /// Whether neither side can run out of discs.
    #[inline(always)]
    pub fn unlimited(&self) -> bool {
        (self.player_supply & self.opponent_supply) == UNLIMITED
    }

    /// The number of empty squares.
    #[inline(always)]
    pub fn empties(&self) -> u32 {
        self.empty.count_ones()
    }

    /// Legal moves of the side to move.
    #[inline(always)]
    pub fn moves<G: Geometry>(&self) -> u64 {
        if self.player_supply == 0 {
            return 0;
        }
        G::moves(self.player, self.opponent, self.empty)
    }

    /// Legal moves of the other side, as if it were to move.
    #[inline(always)]
    pub fn opponent_moves<G: Geometry>(&self) -> u64 {
        if self.opponent_supply == 0 {
            return 0;
        }
        G::moves(self.opponent, self.player, self.empty)
    }

    /// The board after the side to move plays `index`, which flips `flips`
    /// (non-zero); the other side is then to move.
    #[inline(always)]
    pub fn play(&self, index: u8, flips: u64) -> Board {
        let bit = 1u64 << index;
        Board {
            player: self.opponent & !flips,
            opponent: self.player | flips | bit,
            empty: self.empty & !bit,
            player_supply: self.opponent_supply,
            opponent_supply: if self.player_supply == UNLIMITED {
                UNLIMITED
            } else {
                self.player_supply - 1
            },
        }
    }

    /// The discs that a move from this board to `child` (a board
    /// [`play`](Self::play) made from it) flipped: the other side's discs
    /// that are the mover's in `child`.
    #[inline(always)]
    pub fn flips_to(&self, child: &Board) -> u64 {
        self.opponent & !child.player
    }

    /// The board with the turn handed over without a move.
    #[inline(always)]
    pub fn pass(&self) -> Board {
        Board {
            player: self.opponent,
            opponent: self.player,
            empty: self.empty,
            player_supply: self.opponent_supply,
            opponent_supply: self.player_supply,
        }
    }

    /// The final score for the side to move when neither side can move:
    /// the disc difference, with the empty squares credited to the winner
    /// (the convention of the FFO test suite and Edax).
    #[inline(always)]
    pub fn final_score(&self) -> i32 {
        let diff = self.player.count_ones() as i32 - self.opponent.count_ones() as i32;
        let empties = self.empties() as i32;
        match diff.signum() {
            1 => diff + empties,
            -1 => diff - empties,
            _ => 0,
        }
    }

    /// The disc difference for the side to move.
    #[inline(always)]
    pub fn disc_difference(&self) -> i32 {
        self.player.count_ones() as i32 - self.opponent.count_ones() as i32
    }

    /// A 64-bit hash of the board for transposition tables. The supplies are
    /// mixed in so boards that differ only in discs in hand never collide in
    /// meaning.
    #[inline(always)]
    pub fn hash(&self) -> u64 {
        // Two rounds of a multiply-xorshift mix (constants from SplitMix64).
        let supplies = (u64::from(self.player_supply) << 8) | u64::from(self.opponent_supply);
        let mut h = self.player.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ self
                .opponent
                .rotate_left(29)
                .wrapping_mul(0xBF58_476D_1CE4_E5B9)
            ^ self.empty.rotate_left(41)
            ^ supplies.wrapping_mul(0x94D0_49BB_1331_11EB);
        h ^= h >> 31;
        h = h.wrapping_mul(0x94D0_49BB_1331_11EB);
        h ^ (h >> 29)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::topology::Plane;
    use crate::engine::{Rules, Square};

    #[test]
    fn playing_on_the_board_matches_the_engine() {
        let start = Rules::default().start_position();
        let board = Board::from_position(&start).unwrap();
        assert_eq!(board.moves::<Plane>(), start.legal_moves().0);
        let f5: Square = "f5".parse().unwrap();
        let flips = Plane::flips(board.player, board.opponent, f5.index());
        let next = board.play(f5.index(), flips);
        let engine = Board::from_position(&start.play(f5).unwrap()).unwrap();
        assert_eq!(next, engine);
    }

    #[test]
    fn final_score_credits_empties_to_the_winner() {
        let board = Board {
            player: 0b111,
            opponent: 0b1000,
            empty: 0b1111_0000,
            player_supply: UNLIMITED,
            opponent_supply: UNLIMITED,
        };
        assert_eq!(board.final_score(), 2 + 4);
        assert_eq!(board.pass().final_score(), -6);
    }

    #[test]
    fn supplies_that_cannot_run_out_become_unlimited() {
        let board = Board {
            player: 1,
            opponent: 2,
            empty: 0b1100,
            player_supply: 2,
            opponent_supply: 1,
        }
        .without_idle_supply();
        assert_eq!(board.player_supply, UNLIMITED);
        assert_eq!(board.opponent_supply, 1);
        assert!(!board.unlimited());
    }
}
