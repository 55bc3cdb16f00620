//! The value of every legal move of a position, each searched alike: what
//! hints (the NBoard `hint` command) and game analysis need, where the
//! ordinary search only proves the best move.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use super::{Limits, Score, Searcher};
use crate::engine::{Position, Square};

/// The value of one move for the side that plays it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveValue {
    /// The square the move plays on.
    pub square: Square,
    /// Its value for the side that plays it.
    pub score: Score,
    /// The search depth behind it, the move included (the empties count
    /// when exact).
    pub depth: u32,
}

impl Score {
    /// The score in hundredths of a disc, so exact and estimated scores
    /// compare.
    pub fn centidiscs(self) -> i32 {
        match self {
            Score::Exact(v) => v * 100,
            Score::Estimate(v) => v,
        }
    }
}

/// The final margin of a finished position for its last mover's opponent
/// view turned around: `me`'s discs minus the other side's, empties to the
/// winner (the solver's convention).
fn final_margin(position: &Position, me: crate::engine::Color) -> i32 {
    let counts = position.counts();
    let raw = i32::from(counts[me]) - i32::from(counts[!me]);
    raw + raw.signum() * position.empty().count() as i32
}

impl Searcher {
    /// Every legal move of `position` valued by a search of the position
    /// after it, one ply shallower than `limits` (and exact where a search
    /// of `position` under `limits` would be), best first. Empty when the
    /// game is over. `cancel` stops early: the moves finished by then are
    /// returned.
    pub fn value_moves(
        &mut self,
        position: &Position,
        limits: &Limits,
        cancel: Option<&Arc<AtomicBool>>,
    ) -> (Vec<MoveValue>, u64) {
        let Some(me) = position.to_move() else {
            return (Vec::new(), 0);
        };
        let child_limits = Limits {
            depth: limits.depth.saturating_sub(1).max(1),
            exact_empties: limits.exact_empties.saturating_sub(1),
            noise: 0,
            ..limits.clone()
        };
        let mut nodes = 0;
        let mut values = Vec::new();
        for square in position.legal_moves().squares() {
            if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
                break;
            }
            let Ok(child) = position.play(square) else {
                continue;
            };
            let value = match child.to_move() {
                None => MoveValue {
                    square,
                    score: Score::Exact(final_margin(&child, me)),
                    depth: 1,
                },
                Some(next) => {
                    let Some(t) = self.think(&child, &child_limits, cancel.cloned()) else {
                        continue;
                    };
                    if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
                        break;
                    }
                    nodes += t.nodes;
                    // The child's value is for its side to move: the same
                    // side again after a pass.
                    let sign = if next == me { 1 } else { -1 };
                    MoveValue {
                        square,
                        score: match t.score {
                            Score::Exact(v) => Score::Exact(sign * v),
                            Score::Estimate(v) => Score::Estimate(sign * v),
                        },
                        depth: t.depth + 1,
                    }
                }
            };
            values.push(value);
        }
        // Best first; among equals, exact before estimated, then by square.
        values.sort_by_key(|m| {
            (
                std::cmp::Reverse(m.score.centidiscs()),
                !matches!(m.score, Score::Exact(_)),
                m.square,
            )
        });
        (values, nodes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Rules;
    use crate::engine::Topology;
    use crate::search::Budget;
    use crate::search::board::Board;

    #[test]
    fn in_the_endgame_every_move_is_exact_and_the_best_is_the_solvers() {
        let rules = Rules::default();
        for seed in 0..6 {
            let mut position = rules.start_position();
            for square in crate::random_player::random_opening(&rules, seed, 50) {
                position = position.play(square).unwrap();
            }
            if position.is_over() {
                continue;
            }
            let limits = Limits {
                exact_empties: 12,
                ..Limits::analysis(0)
            };
            let mut searcher = Searcher::new(16);
            let (values, _) = searcher.value_moves(&position, &limits, None);
            assert_eq!(values.len() as u32, position.legal_moves().count());
            assert!(values.iter().all(|v| matches!(v.score, Score::Exact(_))));
            let board = Board::from_position(&position).unwrap();
            let solved = searcher
                .solve(&board, Topology::Plane, &Budget::nodes(0))
                .unwrap();
            assert_eq!(values[0].score, Score::Exact(solved.score), "seed {seed}");
            // Each value is the solver's value of the position after it.
            for v in &values {
                let child = position.play(v.square).unwrap();
                let exact = match child.to_move() {
                    None => final_margin(&child, position.to_move().unwrap()),
                    Some(next) => {
                        let b = Board::from_position(&child).unwrap();
                        let s = searcher.solve(&b, Topology::Plane, &Budget::nodes(0));
                        let s = s.unwrap().score;
                        if Some(next) == position.to_move() {
                            s
                        } else {
                            -s
                        }
                    }
                };
                assert_eq!(v.score, Score::Exact(exact));
            }
        }
    }

    #[test]
    fn a_cancelled_valuation_stops_at_once() {
        let position = Rules::default().start_position();
        let cancel = Arc::new(AtomicBool::new(true));
        let (values, _) =
            Searcher::new(10).value_moves(&position, &Limits::analysis(0), Some(&cancel));
        assert!(values.is_empty());
    }
}
