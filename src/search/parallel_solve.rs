//! An exact solve of one position on several threads ("young brothers
//! wait" at the root): the root's first move, the likely best, is solved
//! alone; then its younger brothers are shared out among the threads, all
//! sharing one table (so what one proves, the others reuse), and each is
//! proved no better with a null window around the best value so far, or
//! solved again when it is better.
//!
//! The value is exact whatever the timing; which of two equally good moves
//! is named, and the node count, may differ from run to run.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use super::board::Board;
use super::endgame::{Candidate, MoveList, OutOfBudget, SCORE_MAX, Solver, order_moves};
use super::transposition::{NO_MOVE, Table};
use super::{Budget, SearchGeometry};

/// Below this many empties one thread is faster than sharing out.
pub const MIN_PARALLEL_EMPTIES: u32 = 14;

/// What a solve found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Solved {
    /// The exact value for the side to move.
    pub value: i32,
    /// A best move (`None` when the side to move must pass or the game is over).
    pub best: Option<u8>,
    /// Nodes searched, all threads together.
    pub nodes: u64,
}

/// The exact value of `board` on `threads` threads (one when fewer would
/// do: a small position, a single move), or what was known when `budget`
/// ran out. A node limit in `budget` applies to each thread.
pub fn solve<G: SearchGeometry>(
    table: &Table,
    budget: &Budget,
    board: &Board,
    threads: usize,
) -> Result<Solved, OutOfBudget> {
    let moves = board.moves::<G>();
    let empties = board.empties();
    if threads <= 1 || moves.count_ones() < 2 || empties < MIN_PARALLEL_EMPTIES {
        let mut solver = Solver::<G>::new(table, budget);
        let Some((value, best)) = solver.solve(board) else {
            return Err(OutOfBudget {
                estimate: solver.selective_estimate(),
            });
        };
        return Ok(Solved {
            value,
            best,
            nodes: solver.nodes,
        });
    }
    table.next_generation();
    let mut main = Solver::<G>::new(table, budget);
    // The selective passes are cheap and fill the table with moves the
    // threads then try first.
    main.selective_passes(board);
    let out_of_budget = OutOfBudget {
        estimate: main.selective_estimate(),
    };
    if main.aborted {
        return Err(out_of_budget);
    }
    let hash_move = main.stored_move(board, moves).unwrap_or(NO_MOVE);
    let mut list = MoveList::default();
    order_moves(&mut main, &mut list, board, moves, empties, hash_move);
    let first = list.items[0];
    let (value, helper_nodes) = solve_first(&mut main, &first.child, threads);
    if main.aborted {
        return Err(out_of_budget);
    }
    let best = Mutex::new((value, first.index));
    let next = AtomicUsize::new(1);
    let brothers = &list.items[..];
    let mut nodes = helper_nodes;
    let mut aborted = false;
    std::thread::scope(|scope| {
        // A thread the system cannot give is simply not there: the
        // others take its share.
        let running: Vec<_> = (1..threads)
            .filter_map(|_| {
                let (best, next) = (&best, &next);
                helper_thread()
                    .spawn_scoped(scope, move || {
                        let mut solver = Solver::<G>::new(table, budget);
                        share_out(&mut solver, brothers, next, best);
                        (solver.nodes, solver.aborted)
                    })
                    .ok()
            })
            .collect();
        share_out(&mut main, brothers, &next, &best);
        nodes += main.nodes;
        aborted |= main.aborted;
        for helper in running {
            // A helper that panicked lost its part of the work: no answer.
            let (n, a) = helper.join().unwrap_or((0, true));
            nodes += n;
            aborted |= a;
        }
    });
    if aborted {
        return Err(out_of_budget);
    }
    let (value, best) = best.into_inner().unwrap_or_else(PoisonError::into_inner);
    main.table.store(
        board.hash(),
        empties as u8,
        -SCORE_MAX - 1,
        SCORE_MAX + 1,
        value,
        best,
    );
    Ok(Solved {
        value,
        best: Some(best),
        nodes,
    })
}

/// The exact value of the root's first move, `child`, from the root's
/// view, and the helpers' nodes. The main solver searches it as one thread
/// would; meanwhile the other threads solve `child`'s later replies
/// exactly, into the shared table, so that when the main search reaches
/// them it finds them solved. The helpers stop when the main search ends.
fn solve_first<G: SearchGeometry>(
    main: &mut Solver<'_, G>,
    child: &Board,
    threads: usize,
) -> (i32, u64) {
    let replies = child.moves::<G>();
    if replies.count_ones() < 2 {
        return (-main.search(child, -SCORE_MAX, SCORE_MAX), 0);
    }
    let mut list = MoveList::default();
    let hash_move = main.stored_move(child, replies).unwrap_or(NO_MOVE);
    order_moves(main, &mut list, child, replies, child.empties(), hash_move);
    let stop = Arc::new(AtomicBool::new(false));
    let helper_budget = Budget {
        max_nodes: main.budget.max_nodes,
        cancel: Some(Arc::clone(&stop)),
    };
    // The first reply is the main search's own first step.
    let next = AtomicUsize::new(1);
    let (table, replies) = (main.table, &list.items[..]);
    std::thread::scope(|scope| {
        let running: Vec<_> = (1..threads)
            .filter_map(|_| {
                let (next, helper_budget) = (&next, &helper_budget);
                helper_thread()
                    .spawn_scoped(scope, move || {
                        let mut solver = Solver::<G>::new(table, helper_budget);
                        while let Some(reply) = replies.get(next.fetch_add(1, Ordering::Relaxed)) {
                            solver.search(&reply.child, -SCORE_MAX, SCORE_MAX);
                            if solver.aborted {
                                break;
                            }
                        }
                        solver.nodes
                    })
                    .ok()
            })
            .collect();
        let value = -main.search(child, -SCORE_MAX, SCORE_MAX);
        stop.store(true, Ordering::Relaxed);
        // A helper that panicked only solved less in advance.
        let nodes = running.into_iter().map(|h| h.join().unwrap_or(0)).sum();
        (value, nodes)
    })
}

/// A builder for a helper thread, named for debuggers and panics.
pub(crate) fn helper_thread() -> std::thread::Builder {
    std::thread::Builder::new().name("reversi-search".into())
}

/// Takes root moves from `next` until none is left, raising `best` when a
/// move beats it.
fn share_out<G: SearchGeometry>(
    solver: &mut Solver<'_, G>,
    brothers: &[Candidate],
    next: &AtomicUsize,
    best: &Mutex<(i32, u8)>,
) {
    let lock = || best.lock().unwrap_or_else(PoisonError::into_inner);
    loop {
        let Some(candidate) = brothers.get(next.fetch_add(1, Ordering::Relaxed)) else {
            return;
        };
        let alpha = lock().0;
        if alpha >= SCORE_MAX {
            return;
        }
        // A stale (lower) alpha costs time, never correctness: a move that
        // beats it is solved exactly and compared under the lock.
        let probe = -solver.search(&candidate.child, -alpha - 1, -alpha);
        if solver.aborted {
            return;
        }
        if probe <= alpha {
            continue;
        }
        let value = -solver.search(&candidate.child, -SCORE_MAX, -alpha);
        if solver.aborted {
            return;
        }
        let mut best = lock();
        if value > best.0 {
            *best = (value, candidate.index);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::topology::{Geometry, Plane, Torus};
    use crate::engine::{Rules, Square};
    use crate::random_player::random_opening;

    fn board_after(rules: &Rules, seed: u64, plies: usize) -> Option<Board> {
        let mut position = rules.start_position();
        for square in random_opening(rules, seed, plies) {
            position = position.play(square).ok()?;
        }
        Board::from_position(&position)
    }

    fn one_thread<G: SearchGeometry>(board: &Board) -> (i32, Option<u8>) {
        let table = Table::new(16);
        let budget = Budget::nodes(0);
        Solver::<G>::new(&table, &budget).solve(board).unwrap()
    }

    #[test]
    fn two_and_three_threads_find_the_value_one_thread_finds_and_a_move_achieving_it() {
        let rules = Rules::default();
        let budget = Budget::nodes(0);
        // The larger ones begin with the selective passes.
        let sizes = (1..=6).map(|seed| (seed, 16)).chain([(7, 19), (8, 19)]);
        let mut large = 0;
        for (seed, empties) in sizes {
            let Some(board) = board_after(&rules, seed, 60 - empties) else {
                continue;
            };
            large += usize::from(empties == 19);
            let (value, _) = one_thread::<Plane>(&board);
            for threads in [2, 3] {
                let table = Table::new(16);
                let solved = solve::<Plane>(&table, &budget, &board, threads).unwrap();
                assert_eq!(solved.value, value, "seed {seed}, {threads} threads");
                let best = solved.best.expect("a move");
                let child = board.play(best, Plane::flips(board.player, board.opponent, best));
                assert_eq!(
                    -one_thread::<Plane>(&child).0,
                    value,
                    "the named move achieves the value (seed {seed})"
                );
                assert!(Square::new(best).is_some());
                assert!(board.moves::<Plane>() & (1 << best) != 0, "a legal move");
            }
        }
        assert!(
            large > 0,
            "no position large enough for the selective passes"
        );
    }

    #[test]
    fn the_torus_is_solved_alike_on_two_threads() {
        let rules = Rules::from_options(crate::engine::RuleOptions {
            topology: crate::engine::Topology::Torus,
            ..Default::default()
        })
        .unwrap();
        let budget = Budget::nodes(0);
        let board = board_after(&rules, 3, 60 - 15).unwrap();
        let (value, _) = one_thread::<Torus>(&board);
        let table = Table::new(16);
        assert_eq!(
            solve::<Torus>(&table, &budget, &board, 2).unwrap().value,
            value
        );
    }

    #[test]
    fn a_spent_budget_gives_no_answer() {
        let rules = Rules::default();
        let board = board_after(&rules, 2, 60 - 18).unwrap();
        let table = Table::new(16);
        assert_eq!(
            solve::<Plane>(&table, &Budget::nodes(1000), &board, 2),
            Err(OutOfBudget { estimate: None }),
            "not even the first selective pass finishes"
        );
    }
}
