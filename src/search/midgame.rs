//! The midgame search: negamax with alpha-beta and principal-variation
//! search, a transposition table, and move ordering (the table's best move,
//! then the children's static evaluation, which favours few replies for the
//! opponent, corners and stable discs), optionally with Multi-ProbCut (see
//! [`probcut`]). Values are in hundredths of a disc; a finished game scores
//! its exact result × 100.

use std::ops::ControlFlow;

use multiversion::{inherit_target, multiversion, target::match_target};

use super::board::Board;
use super::endgame::MoveList;
use super::eval::evaluate_with;
use super::pattern_readings::Readings;
use super::probcut;
use super::transposition::{NO_MOVE, Table};
use super::{Budget, BudgetCheck, SearchGeometry};

/// A finished game's value is its score times this.
pub const EXACT_SCALE: i32 = 100;
/// Wider than any value.
pub const INFINITY: i32 = 65 * EXACT_SCALE;

/// One midgame search: its table, counter and budget.
pub struct Midgame<'a, G> {
    table: &'a Table,
    /// Nodes visited (including any counted before this search began).
    pub nodes: u64,
    /// Set when the budget ran out.
    pub aborted: bool,
    /// When the budget ran out during [`root`](Self::root): the index
    /// and value of a move that had by then proved better than the first
    /// (its search finished), the best such; `None` if none had.
    pub interrupted_best: Option<(usize, i32)>,
    budget: &'a Budget,
    /// When the budget is next looked at.
    check: BudgetCheck,
    /// Multi-ProbCut's threshold in hundredths of a spread (0: no cuts).
    selectivity: u32,
    geometry: std::marker::PhantomData<G>,
}

impl<'a, G: SearchGeometry> Midgame<'a, G> {
    /// A search using `table` within `budget`, having already used `nodes`.
    pub fn new(table: &'a Table, budget: &'a Budget, nodes: u64) -> Self {
        Midgame {
            table,
            nodes,
            aborted: false,
            interrupted_best: None,
            budget,
            check: BudgetCheck::new(nodes),
            selectivity: 0,
            geometry: std::marker::PhantomData,
        }
    }

    /// The same search with Multi-ProbCut at `selectivity` hundredths of a
    /// spread (see [`probcut`]); 0 searches every move fully.
    pub fn selective(mut self, selectivity: u32) -> Self {
        self.selectivity = selectivity;
        self
    }

    /// Values of the root moves `moves` searched to `depth` within
    /// (`alpha`, `beta`), in the given order; the first is searched with the
    /// full window, the others with a null window first (PVS). Returns the
    /// best value and its index in `moves`, or `None` when aborted (see
    /// [`interrupted_best`](Self::interrupted_best) for what it had found).
    pub fn root(
        &mut self,
        board: &Board,
        moves: &[(u8, i32)],
        depth: u32,
        mut alpha: i32,
        beta: i32,
        noise: &dyn Fn(u8) -> i32,
    ) -> Option<(i32, usize, Vec<i32>)> {
        let mut best = -INFINITY;
        let mut best_index = 0;
        let mut values = vec![-INFINITY; moves.len()];
        let readings = Readings::new(board.player, board.opponent);
        for (k, &(index, _)) in moves.iter().enumerate() {
            let flips = G::flips(board.player, board.opponent, index);
            let child = board.play(index, flips);
            let child_readings = next_readings::<G>(&readings, index, flips);
            let shift = noise(index);
            // Noise shifts this move's value, so search it against a shifted window.
            let (a, b) = (alpha - shift, beta - shift);
            let value = if k == 0 {
                -midgame_value(self, &child, &child_readings, depth - 1, -b, -a)
            } else {
                let probe = -midgame_value(self, &child, &child_readings, depth - 1, -a - 1, -a);
                if probe > a && probe < b {
                    -midgame_value(self, &child, &child_readings, depth - 1, -b, -probe)
                } else {
                    probe
                }
            };
            if self.aborted {
                // Only finished searches set `best`; a later move's beat
                // the first's value, which was a bound at worst.
                self.interrupted_best = (best_index != 0).then_some((best_index, best));
                return None;
            }
            let value = value + shift;
            values[k] = value;
            if value > best {
                best = value;
                best_index = k;
                alpha = alpha.max(value);
                if alpha >= beta {
                    break;
                }
            }
        }
        Some((best, best_index, values))
    }

    /// The value of `board` searched to `depth` within (`alpha`, `beta`).
    pub fn pvs(&mut self, board: &Board, depth: u32, alpha: i32, beta: i32) -> i32 {
        let readings = Readings::new(board.player, board.opponent);
        midgame_value(self, board, &readings, depth, alpha, beta)
    }
}

/// The pattern readings after a move, kept only on the plane (the other
/// geometries use the linear evaluation, which reads none).
#[inline(always)]
fn next_readings<G: SearchGeometry>(readings: &Readings, index: u8, flips: u64) -> Readings {
    if G::PLANE {
        readings.play(index, flips)
    } else {
        *readings
    }
}

/// The recursion of [`Midgame::pvs`] (with Multi-ProbCut's shallow
/// searches), compiled once per instruction set and chosen at run time, as
/// the exact solver's is (see `endgame::exact_value`).
#[multiversion(targets("x86_64+avx2+bmi1+bmi2+popcnt+lzcnt", "x86_64+popcnt"))]
fn midgame_value<G: SearchGeometry>(
    search: &mut Midgame<'_, G>,
    board: &Board,
    readings: &Readings,
    depth: u32,
    alpha: i32,
    beta: i32,
) -> i32 {
    /// Whether a shallow search predicts, with the chosen confidence, that
    /// this node fails high (`Some(beta)`) or low (`Some(alpha)`). Only
    /// where the search is not exact anyway: a node whose depth covers its
    /// empties keeps its exact value.
    #[inherit_target]
    fn probcut<G: SearchGeometry>(
        s: &mut Midgame<'_, G>,
        board: &Board,
        readings: &Readings,
        depth: u32,
        alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        let empties = board.empties();
        if s.selectivity == 0 || depth < probcut::MIN_DEPTH || depth >= empties {
            return None;
        }
        let margin = probcut::sigma(empties, depth) * s.selectivity as i32 / 100;
        let shallow = probcut::shallow_depth(depth);
        let high = beta + margin;
        if high <= probcut::MAX_VALUE {
            let value = pvs(s, board, readings, shallow, high - 1, high);
            if value >= high {
                return Some(beta);
            }
        }
        let low = alpha - margin;
        if low >= -probcut::MAX_VALUE {
            let value = pvs(s, board, readings, shallow, low, low + 1);
            if value <= low {
                return Some(alpha);
            }
        }
        None
    }

    /// The value of `board` searched to `depth` within (`alpha`, `beta`).
    #[inherit_target]
    fn pvs<G: SearchGeometry>(
        s: &mut Midgame<'_, G>,
        board: &Board,
        readings: &Readings,
        depth: u32,
        mut alpha: i32,
        mut beta: i32,
    ) -> i32 {
        s.nodes += 1;
        if s.check.due(s.nodes) && s.budget.exhausted(s.nodes) {
            s.aborted = true;
        }
        if s.aborted {
            return 0;
        }
        let moves = board.moves::<G>();
        if moves == 0 {
            if board.opponent_moves::<G>() == 0 {
                return board.final_score() * EXACT_SCALE;
            }
            // A pass costs no depth: it is forced.
            return -pvs(s, &board.pass(), &readings.pass(), depth, -beta, -alpha);
        }
        if depth == 0 {
            return static_value::<G>(board, readings);
        }
        if depth == 1 {
            // The leaves' parent: no table, no ordering.
            let mut best = -INFINITY;
            let mut rest = moves;
            while rest != 0 {
                let index = rest.trailing_zeros() as u8;
                rest &= rest - 1;
                let flips = G::flips(board.player, board.opponent, index);
                let child = board.play(index, flips);
                s.nodes += 1;
                let value = if child.moves::<G>() == 0 && child.opponent_moves::<G>() == 0 {
                    -child.final_score() * EXACT_SCALE
                } else {
                    -static_value::<G>(&child, &next_readings::<G>(readings, index, flips))
                };
                if value > best {
                    best = value;
                    if value >= beta {
                        break;
                    }
                }
            }
            return best;
        }

        let key = board.hash();
        let mut hash_move = NO_MOVE;
        if let Some(entry) = s.table.probe(key) {
            hash_move = entry.best;
            if u32::from(entry.depth) >= depth {
                match entry.narrow(alpha, beta) {
                    ControlFlow::Break(value) => return value,
                    ControlFlow::Continue(window) => (alpha, beta) = window,
                }
            }
        }
        if let Some(cut) = probcut(s, board, readings, depth, alpha, beta) {
            return cut;
        }
        if s.aborted {
            return 0;
        }
        let (alpha_in, beta_in) = (alpha, beta);

        let mut best = -INFINITY;
        let mut best_move = NO_MOVE;
        let mut list = MoveList::default();
        let hash_bit = moves & 1u64.checked_shl(u32::from(hash_move)).unwrap_or(0);
        if hash_bit != 0 {
            let child = board.play(hash_move, G::flips(board.player, board.opponent, hash_move));
            list.push(hash_move, child, i32::MAX);
        }
        // The table's move first, and the others made and ranked only when
        // it does not refute: when it refutes, as it mostly does, their
        // evaluations are wasted.
        let ranked_from = list.items.len();
        for k in 0.. {
            if k == ranked_from {
                list_ranked::<G>(
                    s.table,
                    &mut list,
                    board,
                    readings,
                    moves & !hash_bit,
                    depth,
                );
            }
            let Some(&candidate) = list.items.get(k) else {
                break;
            };
            let child = candidate.child;
            let flips = board.flips_to(&child);
            let child_readings = next_readings::<G>(readings, candidate.index, flips);
            let value = if k == 0 {
                -pvs(s, &child, &child_readings, depth - 1, -beta, -alpha)
            } else {
                let probe = -pvs(s, &child, &child_readings, depth - 1, -alpha - 1, -alpha);
                if probe > alpha && probe < beta {
                    -pvs(s, &child, &child_readings, depth - 1, -beta, -probe)
                } else {
                    probe
                }
            };
            if s.aborted {
                return 0;
            }
            if value > best {
                best = value;
                best_move = candidate.index;
                if value > alpha {
                    alpha = value;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        s.table
            .store(key, depth as u8, alpha_in, beta_in, best, best_move);
        best
    }

    /// Adds the children of `board` by `moves` to `list`, ranked, for a
    /// search to `depth`: by their static evaluation from depth 3, nearer
    /// the leaves (where it costs more than it saves) fewest replies first.
    #[inherit_target]
    fn list_ranked<G: SearchGeometry>(
        table: &Table,
        list: &mut MoveList,
        board: &Board,
        readings: &Readings,
        moves: u64,
        depth: u32,
    ) {
        let mut rest = moves;
        while rest != 0 {
            let index = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            let flips = G::flips(board.player, board.opponent, index);
            let child = board.play(index, flips);
            if depth >= 3 {
                // The child will probe the table: its bucket is read into
                // the cache while the others are made and evaluated.
                match_target! {
                    "x86_64+avx2" => table.prefetch(child.hash()),
                    // The portable copy goes without.
                    _ => { let _ = table; },
                }
            }
            let priority = if depth >= 3 {
                -static_value::<G>(&child, &next_readings::<G>(readings, index, flips))
            } else {
                -(child.moves::<G>().count_ones() as i32)
            };
            list.push(index, child, priority);
        }
        list.sort();
    }

    /// The static evaluation, compiled with this copy's instruction set.
    #[inherit_target]
    fn static_value<G: SearchGeometry>(board: &Board, readings: &Readings) -> i32 {
        evaluate_with::<G>(board, readings)
    }

    pvs(search, board, readings, depth, alpha, beta)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Rules;
    use crate::engine::topology::{Geometry, Plane};
    use crate::random_player::random_opening;
    use crate::search::eval::evaluate;

    /// The value the search defines, written out without a table, windows
    /// or ordering: a pass costs no depth, and the leaves' parent values a
    /// child that ends the game by its score, any other by its evaluation.
    fn reference(board: &Board, depth: u32) -> i32 {
        let moves = board.moves::<Plane>();
        if moves == 0 {
            if board.opponent_moves::<Plane>() == 0 {
                return board.final_score() * EXACT_SCALE;
            }
            return -reference(&board.pass(), depth);
        }
        if depth == 0 {
            return evaluate::<Plane>(board);
        }
        let mut best = -INFINITY;
        let mut rest = moves;
        while rest != 0 {
            let index = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            let child = board.play(index, Plane::flips(board.player, board.opponent, index));
            let value = if depth == 1 {
                if child.moves::<Plane>() == 0 && child.opponent_moves::<Plane>() == 0 {
                    -child.final_score() * EXACT_SCALE
                } else {
                    -evaluate::<Plane>(&child)
                }
            } else {
                -reference(&child, depth - 1)
            };
            best = best.max(value);
        }
        best
    }

    /// The board after a random opening of `plies` (seeded), if the game
    /// is still on.
    fn opening_board(seed: u64, plies: usize) -> Option<Board> {
        let rules = Rules::default();
        let mut position = rules.start_position();
        for square in random_opening(&rules, seed, plies) {
            position = position.play(square).expect("a legal opening move");
        }
        Board::from_position(&position)
    }

    #[test]
    fn the_search_with_its_table_moves_first_finds_the_plain_value() {
        let mut checked = 0;
        for seed in 1..=12u64 {
            let Some(board) = opening_board(seed, 16 + seed as usize) else {
                continue;
            };
            // One table for the whole deepening, as the levels use it:
            // from the second depth on, most nodes have a stored move,
            // which is searched before the others are valued.
            let table = Table::new(16);
            let budget = Budget::default();
            for depth in 1..=4 {
                // A shallower search's entries are shallower at every
                // node, so they lend their moves but never their bounds.
                let mut search = Midgame::<Plane>::new(&table, &budget, 0);
                let value = search.pvs(&board, depth, -INFINITY, INFINITY);
                assert_eq!(
                    value,
                    reference(&board, depth),
                    "seed {seed}, depth {depth}"
                );
                checked += 1;
            }
        }
        assert!(checked >= 40, "only {checked} searches checked");
    }

    #[test]
    fn a_root_search_stopped_midway_names_only_a_move_it_proved_better_than_the_first() {
        let mut interrupted = 0;
        for seed in 1..=6u64 {
            let Some(board) = opening_board(seed, 20) else {
                continue;
            };
            // Worst first by the evaluation, so later moves beat the first.
            let mut moves: Vec<(u8, i32)> = Vec::new();
            let mut rest = board.moves::<Plane>();
            while rest != 0 {
                let index = rest.trailing_zeros() as u8;
                rest &= rest - 1;
                let child = board.play(index, Plane::flips(board.player, board.opponent, index));
                moves.push((index, -evaluate::<Plane>(&child)));
            }
            moves.sort_by_key(|&(_, v)| v);
            let depth = 5;
            let root = |budget: &Budget| {
                let table = Table::new(16);
                let mut search = Midgame::<Plane>::new(&table, budget, 0);
                let found = search.root(&board, &moves, depth, -INFINITY, INFINITY, &|_| 0);
                (found, search.interrupted_best, search.nodes)
            };
            let (Some((_, _, values)), None, total) = root(&Budget::default()) else {
                panic!("seed {seed}: an unlimited search finishes");
            };
            for step in 1..20 {
                // The same search up to the stop: the values it finished
                // are the full search's.
                let (found, best, _) = root(&Budget::nodes(total * step / 20));
                if found.is_some() {
                    continue;
                }
                if let Some((k, value)) = best {
                    assert!(k != 0, "seed {seed}");
                    assert_eq!(value, values[k], "seed {seed}, step {step}");
                    assert!(value > values[0], "seed {seed}, step {step}");
                    interrupted += 1;
                }
            }
        }
        assert!(
            interrupted >= 10,
            "only {interrupted} stops after a better move"
        );
    }
}
