//! Perft: the number of move sequences of a given length, to check and time
//! move generation.
//!
//! Conventions: a forced pass is one ply; a finished game is one leaf at
//! every greater depth. Under the double opening the second player's
//! automatic placements are part of the first player's second move (they
//! are not written in transcripts either).

use std::marker::PhantomData;

use super::position::{OPENING_PLACEMENTS, Position, UNLIMITED_SUPPLY};
use super::topology::{Geometry, Plane, Topology, Torus};

/// Counts the leaves `depth` plies below `position`.
pub fn perft(position: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let Some(mover) = position.to_move() else {
        return 1;
    };
    let plain = position.placements == OPENING_PLACEMENTS
        && position.supply.black == UNLIMITED_SUPPLY
        && position.supply.white == UNLIMITED_SUPPLY;
    if plain {
        let (p, o, walls) = (position.bits(mover), position.bits(!mover), position.walls);
        return match position.options.topology {
            Topology::Plane => perft_bitboards::<Plane>(p, o, walls, depth),
            Topology::Torus => perft_bitboards::<Torus>(p, o, walls, depth),
        };
    }
    perft_general(position, depth)
}

/// Perft on any position through the full [`Position::play`], which handles
/// disc supplies and openings. `depth` ≥ 1.
fn perft_general(position: &Position, depth: u32) -> u64 {
    if depth == 0 || position.is_over() {
        return 1;
    }
    if depth == 1 {
        // The side to move always has a move (passes are applied at once).
        return u64::from(position.legal_moves().count());
    }
    position
        .legal_moves()
        .squares()
        .map(|square| {
            let report = position
                .play_with_report(square)
                .expect("a generated move is legal");
            match (report.skipped, depth) {
                // `perft` again, so a game that leaves the opening with
                // unlimited discs continues on the fast path.
                (None, _) => perft(&report.position, depth - 1),
                // The pass is the leaf.
                (Some(_), 1) => 1,
                (Some(_), _) => perft(&report.position, depth - 2),
            }
        })
        .sum()
}

/// Perft over raw bitboards for unlimited discs after the opening, with bulk
/// counting at the last ply. `player` is to move; `depth` ≥ 1.
fn perft_bitboards<G: LastTwoPlies>(player: u64, opponent: u64, walls: u64, depth: u32) -> u64 {
    let empty = !(player | opponent | walls);
    let moves = G::moves(player, opponent, empty);
    if depth == 1 {
        // A pass and a finished game are both one leaf.
        return u64::from(moves.count_ones()).max(1);
    }
    if depth == 2 && moves != 0 {
        return G::leaves_two_plies(player, opponent, walls, moves);
    }
    if moves == 0 {
        if G::moves(opponent, player, empty) == 0 {
            return 1;
        }
        return perft_bitboards::<G>(opponent, player, walls, depth - 1);
    }
    let mut total = 0;
    for (next, other) in children::<G>(player, opponent, moves) {
        total += perft_bitboards::<G>(next, other, walls, depth - 1);
    }
    total
}

/// The positions after each of `moves`, as (side to move next, the other).
struct Children<G> {
    player: u64,
    opponent: u64,
    rest: u64,
    geometry: PhantomData<G>,
}

#[inline(always)]
fn children<G: Geometry>(player: u64, opponent: u64, moves: u64) -> Children<G> {
    Children {
        player,
        opponent,
        rest: moves,
        geometry: PhantomData,
    }
}

impl<G: Geometry> Iterator for Children<G> {
    type Item = (u64, u64);

    #[inline(always)]
    fn next(&mut self) -> Option<(u64, u64)> {
        if self.rest == 0 {
            return None;
        }
        let index = self.rest.trailing_zeros() as u8;
        self.rest &= self.rest - 1;
        let flips = G::flips(self.player, self.opponent, index);
        Some((self.opponent & !flips, self.player | flips | (1 << index)))
    }
}

/// The two plies above the leaves, where nearly all of perft's time goes,
/// compiled once per instruction set and chosen at run time.
trait LastTwoPlies: Geometry {
    /// Leaves two plies below a position where `player` has `moves` (≠ 0).
    fn leaves_two_plies(player: u64, opponent: u64, walls: u64, moves: u64) -> u64;
}

/// For each move: play it, then count the replies (a pass or a finished game
/// is one leaf).
#[inline(always)]
fn leaves_two_plies<G: Geometry>(player: u64, opponent: u64, walls: u64, moves: u64) -> u64 {
    let mut total = 0;
    for (next, other) in children::<G>(player, opponent, moves) {
        let replies = G::moves(next, other, !(next | other | walls));
        total += u64::from(replies.count_ones()).max(1);
    }
    total
}

// Runtime dispatch: an AVX2 build of the movegen is about 1.5 times faster
// (measured with `reversi perft 11`), but a portable binary must still run on
// CPUs without it.
#[multiversion::multiversion(targets("x86_64+avx2+bmi1+bmi2+popcnt+lzcnt", "x86_64+popcnt"))]
fn plane_leaves_two_plies(player: u64, opponent: u64, walls: u64, moves: u64) -> u64 {
    leaves_two_plies::<Plane>(player, opponent, walls, moves)
}

#[multiversion::multiversion(targets("x86_64+avx2+bmi1+bmi2+popcnt+lzcnt", "x86_64+popcnt"))]
fn torus_leaves_two_plies(player: u64, opponent: u64, walls: u64, moves: u64) -> u64 {
    leaves_two_plies::<Torus>(player, opponent, walls, moves)
}

impl LastTwoPlies for Plane {
    fn leaves_two_plies(player: u64, opponent: u64, walls: u64, moves: u64) -> u64 {
        plane_leaves_two_plies(player, opponent, walls, moves)
    }
}

impl LastTwoPlies for Torus {
    fn leaves_two_plies(player: u64, opponent: u64, walls: u64, moves: u64) -> u64 {
        torus_leaves_two_plies(player, opponent, walls, moves)
    }
}
