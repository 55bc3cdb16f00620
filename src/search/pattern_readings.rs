//! The pattern readings of a board, kept up to date move by move, as the
//! strongest programs keep theirs: a move changes only the readings that
//! contain the squares it places and flips, so a search updates them with
//! a few vector additions instead of reading every pattern again from the
//! bitboards at each evaluation.
//!
//! A reading's configuration number is linear in its squares' digits
//! (empty 0, the side to move's 1, the other side's 2), so a square adds
//! its digit times a fixed power of three to every reading that contains
//! it. [`SquareDigits`] holds those powers, one vector per square, derived
//! from [`patterns::indices`] itself so the two can never disagree.
//! Readings are kept from both sides' points of view, because a move hands
//! the turn over and the digits 1 and 2 trade meaning.

use std::sync::OnceLock;

use super::patterns::{self, READINGS};

/// Lanes of a reading vector: the readings, padded to whole vectors of
/// sixteen so the additions compile to full-width vector instructions.
const LANES: usize = READINGS.div_ceil(16) * 16;

/// For each square, the power of three it carries in each reading (0 in
/// the readings without it).
struct SquareDigits([[u16; LANES]; 64]);

fn square_digits() -> &'static SquareDigits {
    static DIGITS: OnceLock<SquareDigits> = OnceLock::new();
    DIGITS.get_or_init(|| {
        let empty = patterns::indices(0, 0);
        let mut out = [[0u16; LANES]; 64];
        for (square, lanes) in out.iter_mut().enumerate() {
            let one = patterns::indices(1 << square, 0);
            for (lane, (&with, &without)) in lanes.iter_mut().zip(one.iter().zip(&empty)) {
                // A reading holds at most ten squares: 3^9 fits a u16.
                *lane = (with - without) as u16;
            }
        }
        SquareDigits(out)
    })
}

/// `to += times × from`, lane by lane (wrapping: a lane's true value never
/// leaves 0..3^10, but a negative step passes through the wrap).
#[inline(always)]
fn add(to: &mut [u16; LANES], from: &[u16; LANES], times: u16) {
    for (t, &f) in to.iter_mut().zip(from) {
        *t = t.wrapping_add(f.wrapping_mul(times));
    }
}

/// The configuration numbers of a board's pattern readings, from the side
/// to move's point of view and from the other side's.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Readings {
    mine: [u16; LANES],
    theirs: [u16; LANES],
}

impl std::fmt::Debug for Readings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Readings")
            .field("mine", &&self.mine[..READINGS])
            .field("theirs", &&self.theirs[..READINGS])
            .finish()
    }
}

impl Readings {
    /// The readings of a board with `player` to move and `opponent`'s
    /// discs, read from scratch.
    #[inline(always)]
    pub fn new(player: u64, opponent: u64) -> Readings {
        let digits = square_digits();
        let (mut mine, mut theirs) = ([0u16; LANES], [0u16; LANES]);
        for (side, owner) in [player, opponent].into_iter().enumerate() {
            let mut rest = owner;
            while rest != 0 {
                let square = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let digit = side as u16 + 1;
                add(&mut mine, &digits.0[square], digit);
                add(&mut theirs, &digits.0[square], 3 - digit);
            }
        }
        Readings { mine, theirs }
    }

    /// The readings after the side to move places a disc on `square` and
    /// turns `flips`, from the new side to move's point of view.
    #[inline(always)]
    pub fn play(&self, square: u8, flips: u64) -> Readings {
        let digits = square_digits();
        // The mover's digit is 1 in `mine` and 2 in `theirs`; a flipped
        // disc goes from the other digit to the mover's.
        let (mut mover, mut next) = (self.mine, self.theirs);
        let placed = &digits.0[usize::from(square)];
        add(&mut mover, placed, 1);
        add(&mut next, placed, 2);
        let mut rest = flips;
        while rest != 0 {
            let flipped = &digits.0[rest.trailing_zeros() as usize];
            rest &= rest - 1;
            add(&mut mover, flipped, u16::MAX); // 2 → 1: minus one
            add(&mut next, flipped, 1); // 1 → 2
        }
        Readings {
            mine: next,
            theirs: mover,
        }
    }

    /// The readings after the side to move passes.
    #[inline(always)]
    pub fn pass(&self) -> Readings {
        Readings {
            mine: self.theirs,
            theirs: self.mine,
        }
    }

    /// The full-table entries of the readings for the side to move, as
    /// [`patterns::indices`] gives them.
    #[inline(always)]
    pub fn indices(&self) -> [u32; READINGS] {
        let mut out = [0u32; READINGS];
        for ((o, &offset), &number) in out
            .iter_mut()
            .zip(&patterns::READING_OFFSET)
            .zip(&self.mine)
        {
            *o = offset + u32::from(number);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Rules;
    use crate::engine::topology::{Geometry, Plane};
    use crate::random_player::random_opening;
    use crate::search::board::Board;
    use proptest::prelude::*;

    fn check(board: &Board, readings: &Readings) {
        assert_eq!(
            readings.indices(),
            patterns::indices(board.player, board.opponent),
            "{board:?}"
        );
        assert_eq!(
            *readings,
            Readings::new(board.player, board.opponent),
            "{board:?}"
        );
    }

    proptest! {
        /// Updated move by move through a whole game, passes included,
        /// the readings equal the ones read from scratch at every ply.
        #[test]
        fn updates_match_a_fresh_reading_through_whole_games(seed in any::<u64>()) {
            let rules = Rules::default();
            let start = rules.start_position();
            let mut board = Board::from_position(&start).unwrap();
            let mut readings = Readings::new(board.player, board.opponent);
            check(&board, &readings);
            let mut position = start;
            for square in random_opening(&rules, seed, 60) {
                let index = square.index();
                let flips = Plane::flips(board.player, board.opponent, index);
                let before = board;
                board = board.play(index, flips);
                prop_assert_eq!(before.flips_to(&board), flips);
                readings = readings.play(index, flips);
                position = position.play(square).unwrap();
                let Some(expected) = Board::from_position(&position) else { break };
                if expected.player != board.player {
                    board = board.pass();
                    readings = readings.pass();
                }
                prop_assert_eq!(board, expected);
                check(&board, &readings);
            }
        }
    }

    #[test]
    fn every_square_sits_in_some_reading_and_its_powers_are_powers_of_three() {
        let powers: Vec<u16> = (0..10).map(|k| 3u16.pow(k)).collect();
        for (square, lanes) in square_digits().0.iter().enumerate() {
            assert!(lanes.iter().any(|&d| d != 0), "square {square}");
            for &d in lanes {
                assert!(d == 0 || powers.contains(&d), "square {square}: {d}");
            }
            assert!(lanes[READINGS..].iter().all(|&d| d == 0));
        }
    }
}
