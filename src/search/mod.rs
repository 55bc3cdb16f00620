//! The computer player's search, pure like the engine: no clock, no I/O, no
//! randomness beyond a seed the caller passes. A caller that wants a time
//! limit sets the [`Budget`]'s cancel flag from its own timer.
//!
//! - [`board`]: the compact board the search plays on;
//! - [`eval`]: the static evaluation: [`patterns`] on the plane, a linear
//!   model on the torus and with walls;
//! - `stability`: discs that can never flip;
//! - [`midgame`]: one fixed-depth PVS (iterative deepening, with its
//!   aspiration windows, is [`Searcher`]'s, in this file);
//! - `endgame`: the exact solver;
//! - [`transposition`]: the transposition table.
//!
//! [`Searcher::think`] is the entry point for a game position; [`hint`]
//! answers the client's "what would you play here?":
//!
//! ```
//! use reversi::engine::{Rules, replay};
//! use reversi::random_player::RandomPlayer;
//! use reversi::search::{Score, hint};
//!
//! let start = Rules::default().start_position();
//! let thought = hint(&start, 20_000).expect("the start has legal moves");
//! assert!(start.is_legal(thought.best));
//! // Sixty empties: an estimate, in hundredths of a disc.
//! assert!(matches!(thought.score, Score::Estimate(_)));
//!
//! // Near the end the search is exact: a random game, four moves from its end.
//! let moves = RandomPlayer::new(7).play_game(&start);
//! let late = replay(&start, &moves[..moves.len() - 4])?;
//! let thought = hint(&late, 100_000).expect("a move is left");
//! assert!(matches!(thought.score, Score::Exact(_)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod benchmark;
pub mod board;
pub mod book;
pub(crate) mod endgame;
pub mod eval;
pub(crate) mod last_flips;
pub mod midgame;
pub(crate) mod move_values;
#[cfg(not(target_arch = "wasm32"))]
pub(crate) mod parallel_solve;
pub(crate) mod pattern_readings;
pub mod patterns;
pub mod probcut;
pub(crate) mod stability;
pub mod symmetry;
pub mod transposition;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

use crate::engine::topology::{Geometry, Plane, Torus, torus_shift};
use crate::engine::{Color, Position, Square, Topology};
use board::Board;
use endgame::{OutOfBudget, Solver};
use midgame::{EXACT_SCALE, INFINITY, Midgame};
use transposition::Table;

/// The most threads a [`Searcher`] uses.
pub const MAX_THREADS: usize = 64;

/// The threads this machine runs at once (1 where unknown, and on the web).
pub fn all_cores() -> usize {
    #[cfg(not(target_arch = "wasm32"))]
    {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    }
    #[cfg(target_arch = "wasm32")]
    {
        1
    }
}

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = 0x8080_8080_8080_8080;

/// What the search needs of a topology beyond move generation.
pub trait SearchGeometry: Geometry {
    /// Whether this is the plane (edges and corners exist).
    const PLANE: bool;
    /// The squares next to any of `bits` (and `bits` themselves).
    fn neighbours(bits: u64) -> u64;
    /// Discs of `own` that can never flip (see `stability`).
    fn stable(own: u64, other: u64, empty: u64) -> u64;
    /// The squares next to square `index`: a move there can flip only if
    /// one of them holds an opponent disc.
    fn adjacent(index: u8) -> u64;
    /// Discs flipped when `mover`'s side plays `index` on a board whose
    /// every other square holds a disc (no walls, one empty square).
    fn last_flip_count(mover: u64, index: u8) -> u32;
}

/// `ADJACENT[0][sq]` on the plane, `ADJACENT[1][sq]` on the torus.
static ADJACENT: [[u64; 64]; 2] = build_adjacent();

const fn build_adjacent() -> [[u64; 64]; 2] {
    let mut out = [[0u64; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        let (col, row) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut dr = -1;
        while dr <= 1 {
            let mut dc = -1;
            while dc <= 1 {
                if dr != 0 || dc != 0 {
                    let (c, r) = (col + dc, row + dr);
                    if c >= 0 && c < 8 && r >= 0 && r < 8 {
                        out[0][sq] |= 1 << (r * 8 + c);
                    }
                    let (c, r) = ((c + 8) % 8, (r + 8) % 8);
                    out[1][sq] |= 1 << (r * 8 + c);
                }
                dc += 1;
            }
            dr += 1;
        }
        sq += 1;
    }
    out
}

impl SearchGeometry for Plane {
    const PLANE: bool = true;
    #[inline(always)]
    fn neighbours(bits: u64) -> u64 {
        let row = bits | ((bits << 1) & !FILE_A) | ((bits >> 1) & !FILE_H);
        row | (row << 8) | (row >> 8)
    }
    #[inline(always)]
    fn stable(own: u64, other: u64, empty: u64) -> u64 {
        stability::plane_stable(own, other, empty)
    }
    #[inline(always)]
    fn adjacent(index: u8) -> u64 {
        ADJACENT[0][usize::from(index)]
    }
    #[inline(always)]
    fn last_flip_count(mover: u64, index: u8) -> u32 {
        last_flips::count(mover, index)
    }
}

impl SearchGeometry for Torus {
    const PLANE: bool = false;
    #[inline(always)]
    fn neighbours(bits: u64) -> u64 {
        let row = bits | torus_shift(bits, 0) | torus_shift(bits, 1);
        row | row.rotate_left(8) | row.rotate_right(8)
    }
    #[inline(always)]
    fn stable(own: u64, other: u64, empty: u64) -> u64 {
        stability::torus_stable(own, other, empty)
    }
    #[inline(always)]
    fn adjacent(index: u8) -> u64 {
        ADJACENT[1][usize::from(index)]
    }
    #[inline(always)]
    fn last_flip_count(mover: u64, index: u8) -> u32 {
        Torus::flips(mover, !mover & !(1 << index), index).count_ones()
    }
}

/// How much a search may do: a node limit, and a flag the caller may set
/// from another thread (a timer, a cancel button) to stop it at once.
#[derive(Debug, Clone, Default)]
pub struct Budget {
    /// Stop after this many nodes (0: no limit).
    pub max_nodes: u64,
    /// Stop when this becomes true.
    pub cancel: Option<Arc<AtomicBool>>,
}

impl Budget {
    /// A budget of `max_nodes` nodes (0: unlimited), not cancellable.
    pub fn nodes(max_nodes: u64) -> Budget {
        Budget {
            max_nodes,
            cancel: None,
        }
    }

    /// Whether a search that has visited `nodes` must stop.
    #[inline]
    pub fn exhausted(&self, nodes: u64) -> bool {
        (self.max_nodes != 0 && nodes >= self.max_nodes)
            || self
                .cancel
                .as_ref()
                .is_some_and(|c| c.load(Ordering::Relaxed))
    }
}

/// How a caller stops a search from another thread, for example a timer
/// that bounds it by the clock instead of by nodes.
#[derive(Debug, Clone, Default)]
pub struct Stops {
    /// Once set, the search stops at once and answers with the deepest
    /// iteration it finished, or a move the unfinished one had proved
    /// better (or its exact solve's last selective pass).
    pub now: Option<Arc<AtomicBool>>,
    /// Once set, iterative deepening starts no further iteration: the one
    /// running finishes (within the other limits) and its answer stands,
    /// or the exact solve starts if the position is within its reach. An
    /// iteration costs two to three times the one before, so a caller
    /// with a time per move sets this well before the end, where starting
    /// one more would most likely be wasted.
    pub wind_down: Option<Arc<AtomicBool>>,
}

/// How many nodes a search visits between two looks at its [`Budget`].
const CHECK_EVERY: u64 = 1024;

/// When a search next looks at its budget. Nodes may be counted several
/// at a time (a shallow search's, a node's leaves), so the due count is
/// kept rather than tested by a mask, which such a jump would skip.
#[derive(Debug, Clone, Copy)]
pub(crate) struct BudgetCheck {
    at: u64,
}

impl BudgetCheck {
    /// The check for a search that has counted `nodes` so far.
    pub(crate) fn new(nodes: u64) -> BudgetCheck {
        BudgetCheck {
            at: (nodes | (CHECK_EVERY - 1)) + 1,
        }
    }

    /// Whether the budget is due for a look at `nodes`.
    #[inline(always)]
    pub(crate) fn due(&mut self, nodes: u64) -> bool {
        if nodes < self.at {
            return false;
        }
        self.at = nodes + CHECK_EVERY;
        true
    }
}

/// What a search is allowed and asked to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Deepest midgame iteration.
    pub depth: u32,
    /// Solve exactly from this many empties down.
    pub exact_empties: u32,
    /// Node budget of the midgame search per move (0: unlimited).
    pub nodes: u64,
    /// Node budget of the exact solve per move (0: unlimited). Kept apart
    /// because a solver node costs about a quarter of a midgame node.
    pub solve_nodes: u64,
    /// Each root move's value is shifted by a seeded amount up to ± this
    /// (hundredths of a disc), so weak levels make human-like mistakes.
    pub noise: i32,
    /// Seed for the noise.
    pub seed: u64,
    /// Multi-ProbCut's confidence in hundredths of a standard error (see
    /// [`probcut`]): 0 searches every move fully; larger cuts less.
    pub selectivity: u32,
}

impl Limits {
    /// The seeded shift, within ±`noise`, of the root move described by
    /// `salt` (0 when there is no noise).
    fn noise_for(&self, salt: u64) -> i32 {
        if self.noise <= 0 {
            return 0;
        }
        let span = 2 * self.noise as u64 + 1;
        (mix(self.seed ^ salt) % span) as i32 - self.noise
    }

    /// The same limits without node budgets, for a caller whose clock
    /// stops the search instead (see [`Stops`]).
    pub fn without_budgets(&self) -> Limits {
        Limits {
            nodes: 0,
            solve_nodes: 0,
            ..self.clone()
        }
    }

    /// Limits for a midgame search alone to `depth`, without budgets,
    /// noise or exact solve, cutting with `selectivity`.
    pub fn midgame_only(depth: u32, selectivity: u32) -> Limits {
        Limits {
            depth,
            exact_empties: 0,
            nodes: 0,
            solve_nodes: 0,
            noise: 0,
            seed: 0,
            selectivity,
        }
    }

    /// Limits for a full-strength analysis with a node budget.
    pub fn analysis(nodes: u64) -> Limits {
        Limits {
            depth: 60,
            exact_empties: 24,
            nodes,
            solve_nodes: nodes.saturating_mul(4),
            noise: 0,
            seed: 0,
            selectivity: probcut::SELECTIVITY,
        }
    }
}

/// A score: exact (a finished game under perfect play) or an estimate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    /// The final disc difference under perfect play (empties to the winner).
    Exact(i32),
    /// The expected disc difference, in hundredths of a disc.
    Estimate(i32),
}

impl std::fmt::Display for Score {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Score::Exact(v) => write!(f, "{v:+} (exact)"),
            Score::Estimate(v) => write!(f, "{:+.1} (estimate)", f64::from(v) / 100.0),
        }
    }
}

/// The result of thinking about a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Thought {
    /// The move chosen.
    pub best: Square,
    /// Its value for the side to move.
    pub score: Score,
    /// Deepest completed midgame iteration (the empties count when exact).
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
}

/// The result of an exact solve.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Solution {
    /// The exact score for the side to move.
    pub score: i32,
    /// A best move, or `None` when the side to move must pass.
    pub best: Option<Square>,
    /// Nodes searched.
    pub nodes: u64,
}

/// A search with its transposition tables, reused from move to move.
pub struct Searcher {
    midgame_table: Table,
    endgame_table: Table,
    /// Threads searching together (1 on the web).
    threads: usize,
}

/// What one iterative deepening works on.
#[derive(Clone, Copy)]
struct Deepening<'a> {
    board: &'a Board,
    limits: &'a Limits,
    budget: &'a Budget,
    /// Once set, no iteration past the first starts.
    wind_down: Option<&'a AtomicBool>,
    max_depth: u32,
    noise: &'a (dyn Fn(u8) -> i32 + Sync),
}

impl std::fmt::Debug for Searcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Searcher")
    }
}

impl Default for Searcher {
    fn default() -> Self {
        Searcher::new(20)
    }
}

/// SplitMix64 finaliser: a seeded, platform-independent hash.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

impl Searcher {
    /// A searcher whose two tables hold `2^bits` entries each (16 bytes per entry).
    pub fn new(bits: u32) -> Searcher {
        Searcher {
            midgame_table: Table::new(bits),
            endgame_table: Table::new(bits),
            threads: 1,
        }
    }

    /// A searcher for exact solves ([`Searcher::solve`],
    /// [`Searcher::solve_on_threads`]): its solver's table holds `2^bits`
    /// entries, and the midgame table it never uses is minimal.
    pub fn for_solving(bits: u32) -> Searcher {
        Searcher {
            midgame_table: Table::new(2),
            endgame_table: Table::new(bits),
            threads: 1,
        }
    }

    /// Thinks on `threads` threads from now on (clamped to
    /// 1–[`MAX_THREADS`]; always one on the web). One thread is
    /// deterministic: the same position and limits give the same move and
    /// node count every time; more search deeper in the same time, but
    /// their moves may vary from run to run.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = if cfg!(target_arch = "wasm32") {
            1
        } else {
            threads.clamp(1, MAX_THREADS)
        };
    }

    /// The threads this searcher thinks on.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Forgets everything learned, so the next search depends only on its
    /// position and limits.
    pub fn clear(&mut self) {
        self.midgame_table.clear();
        self.endgame_table.clear();
    }

    /// The exact value of `board` under `topology` and a best move, or
    /// `None` when the budget ran out.
    pub fn solve(
        &mut self,
        board: &Board,
        topology: Topology,
        budget: &Budget,
    ) -> Option<Solution> {
        match topology {
            Topology::Plane => self.solve_on::<Plane>(board, budget),
            Topology::Torus => self.solve_on::<Torus>(board, budget),
        }
    }

    /// [`Searcher::solve`] on `threads` threads (see `parallel_solve`):
    /// the same value; a node limit applies to each thread. Not on the
    /// web, which has no threads here.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn solve_on_threads(
        &mut self,
        board: &Board,
        topology: Topology,
        budget: &Budget,
        threads: usize,
    ) -> Option<Solution> {
        let board = board.without_idle_supply();
        let solved = match topology {
            Topology::Plane => {
                parallel_solve::solve::<Plane>(&self.endgame_table, budget, &board, threads)
            }
            Topology::Torus => {
                parallel_solve::solve::<Torus>(&self.endgame_table, budget, &board, threads)
            }
        }
        .ok()?;
        Some(Solution {
            score: solved.value,
            best: solved.best.and_then(Square::new),
            nodes: solved.nodes,
        })
    }

    fn solve_on<G: SearchGeometry>(&mut self, board: &Board, budget: &Budget) -> Option<Solution> {
        let mut solver = Solver::<G>::new(&self.endgame_table, budget);
        let (score, best) = solver.solve(&board.without_idle_supply())?;
        Some(Solution {
            score,
            best: best.and_then(Square::new),
            nodes: solver.nodes,
        })
    }

    /// Chooses a move for the side to move within `limits`; `None` when the
    /// game is over. `cancel` stops the search early (the best move of the
    /// deepest finished iteration is returned, or one the unfinished
    /// iteration had already proved better).
    pub fn think(
        &mut self,
        position: &Position,
        limits: &Limits,
        cancel: Option<Arc<AtomicBool>>,
    ) -> Option<Thought> {
        self.think_until(
            position,
            limits,
            &Stops {
                now: cancel,
                wind_down: None,
            },
        )
    }

    /// Like [`think`](Self::think), stopped by `stops`: a caller that
    /// bounds the search by a clock rather than by nodes sets
    /// [`Stops::wind_down`] part of the way through its time and
    /// [`Stops::now`] at its end, so the search stays free of clocks.
    pub fn think_until(
        &mut self,
        position: &Position,
        limits: &Limits,
        stops: &Stops,
    ) -> Option<Thought> {
        position.to_move()?;
        let budget = Budget {
            max_nodes: limits.nodes,
            cancel: stops.now.clone(),
        };
        let Some(board) = Board::from_position(position) else {
            return self.opening_placement(position, limits);
        };
        let wind_down = stops.wind_down.as_deref();
        match position.options().topology {
            Topology::Plane => self.think_on::<Plane>(&board, limits, &budget, wind_down),
            Topology::Torus => self.think_on::<Torus>(&board, limits, &budget, wind_down),
        }
    }

    fn think_on<G: SearchGeometry>(
        &mut self,
        board: &Board,
        limits: &Limits,
        budget: &Budget,
        wind_down: Option<&AtomicBool>,
    ) -> Option<Thought> {
        let empties = board.empties();
        let mut rest = board.moves::<G>();
        let mut moves: Vec<(u8, i32)> = Vec::new();
        while rest != 0 {
            let index = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            let child = board.play(index, G::flips(board.player, board.opponent, index));
            moves.push((index, -eval::evaluate::<G>(&child)));
        }
        moves.sort_by_key(|&(_, v)| std::cmp::Reverse(v));
        let noise = |index: u8| limits.noise_for((u64::from(index) << 56) ^ mix(board.hash()));
        let thought = Thought {
            best: Square::new(moves[0].0)?,
            score: Score::Estimate(moves[0].1 + noise(moves[0].0)),
            depth: 0,
            nodes: 0,
        };
        if moves.len() == 1 && limits.noise == 0 && empties > limits.exact_empties {
            return Some(thought);
        }
        let solve = empties <= limits.exact_empties;
        // Before an exact solve, ten plies of midgame search at most: their
        // answer stands if the solve does not finish within its budget.
        let max_depth = if solve {
            limits.depth.min(10)
        } else {
            limits.depth
        }
        .min(empties)
        .max(1);
        self.midgame_table.next_generation();
        let plan = Deepening {
            board,
            limits,
            budget,
            wind_down,
            max_depth,
            noise: &noise,
        };
        let (mut thought, nodes) = self.deepen_on_threads::<G>(&plan, moves, thought)?;
        thought.nodes = nodes;
        let solve_budget = Budget {
            max_nodes: limits.solve_nodes,
            cancel: budget.cancel.clone(),
        };
        if solve && !matches!(thought.score, Score::Exact(_)) && !solve_budget.exhausted(0) {
            let (solved, solve_nodes) = self.solve_with_threads::<G>(board, &solve_budget);
            let total = nodes + solve_nodes;
            thought.nodes = total;
            match solved {
                Ok((value, Some(best))) => {
                    thought = Thought {
                        best: Square::new(best)?,
                        score: Score::Exact(value),
                        depth: empties,
                        nodes: total,
                    };
                }
                // Out of budget after a selective pass: its move, found by
                // a search to the end, beats the shallower midgame one's.
                Err(OutOfBudget {
                    estimate: Some((value, best)),
                }) => {
                    thought = Thought {
                        best: Square::new(best)?,
                        score: Score::Estimate(value * 100),
                        depth: empties,
                        nodes: total,
                    };
                }
                // A pass at the root, or nothing finished: the midgame's.
                Ok((_, None)) | Err(OutOfBudget { estimate: None }) => {}
            }
        }
        Some(thought)
    }

    /// Iterative deepening as [`Searcher::deepen`] does it, with the other
    /// threads (if any) searching the same board into the shared table
    /// meanwhile ("lazy SMP"): they fill it with results the main search
    /// then finds, one ply ahead every other thread so that their work
    /// differs. Only the main search's answer counts, so a node limit
    /// means what it means on one thread; the helpers' nodes are added.
    fn deepen_on_threads<G: SearchGeometry>(
        &self,
        plan: &Deepening<'_>,
        moves: Vec<(u8, i32)>,
        thought: Thought,
    ) -> Option<(Thought, u64)> {
        let reached = AtomicU32::new(0);
        #[cfg(not(target_arch = "wasm32"))]
        if self.threads > 1 && plan.max_depth > 2 {
            let stop = Arc::new(AtomicBool::new(false));
            let helper_budget = Budget {
                max_nodes: 0,
                cancel: Some(Arc::clone(&stop)),
            };
            return std::thread::scope(|scope| {
                // A thread the system cannot give only means less help.
                let helpers: Vec<_> = (1..self.threads)
                    .filter_map(|helper| {
                        let (reached, helper_budget) = (&reached, &helper_budget);
                        parallel_solve::helper_thread()
                            .spawn_scoped(scope, move || {
                                self.help::<G>(plan, helper_budget, reached, helper as u32 % 2)
                            })
                            .ok()
                    })
                    .collect();
                let result = self.deepen::<G>(plan, moves, thought, &reached);
                stop.store(true, Ordering::Relaxed);
                // A helper that panicked only helped less.
                let helped: u64 = helpers.into_iter().map(|h| h.join().unwrap_or(0)).sum();
                result.map(|(mut thought, nodes)| {
                    thought.nodes += helped;
                    (thought, nodes + helped)
                })
            });
        }
        self.deepen::<G>(plan, moves, thought, &reached)
    }

    /// A helper thread of [`Searcher::deepen_on_threads`]: searches the
    /// board one depth after another, never behind the main search (plus
    /// `ahead`), until stopped. Returns its nodes.
    #[cfg(not(target_arch = "wasm32"))]
    fn help<G: SearchGeometry>(
        &self,
        plan: &Deepening<'_>,
        budget: &Budget,
        reached: &AtomicU32,
        ahead: u32,
    ) -> u64 {
        let mut search =
            Midgame::<G>::new(&self.midgame_table, budget, 0).selective(plan.limits.selectivity);
        let mut depth = 1;
        loop {
            depth = depth.max(reached.load(Ordering::Relaxed) + ahead);
            if depth > plan.max_depth {
                // Nothing deeper to prepare.
                return search.nodes;
            }
            search.pvs(plan.board, depth, -INFINITY, INFINITY);
            if search.aborted {
                return search.nodes;
            }
            depth += 1;
        }
    }

    /// Iterative deepening of `plan.board` from depth 1, aspiration windows
    /// around the previous depth's value, until the budget runs out or the
    /// deepest iteration is done; each iteration's start is posted in
    /// `reached`. Returns the deepest finished iteration's thought (else
    /// `thought`, the static choice), or a move the iteration cut short
    /// had proved better than it, and the nodes searched.
    fn deepen<G: SearchGeometry>(
        &self,
        plan: &Deepening<'_>,
        mut moves: Vec<(u8, i32)>,
        mut thought: Thought,
        reached: &AtomicU32,
    ) -> Option<(Thought, u64)> {
        let Deepening {
            board,
            limits,
            budget,
            wind_down,
            max_depth,
            noise,
        } = *plan;
        let empties = board.empties();
        let mut nodes = 0;
        let mut previous = 0;
        for depth in 1..=max_depth {
            if depth > 1 && wind_down.is_some_and(|w| w.load(Ordering::Relaxed)) {
                break;
            }
            reached.store(depth, Ordering::Relaxed);
            let mut search =
                Midgame::<G>::new(&self.midgame_table, budget, nodes).selective(limits.selectivity);
            let mut window = if depth >= 3 {
                (previous - 60, previous + 60)
            } else {
                (-INFINITY, INFINITY)
            };
            let result = loop {
                let Some((value, index, values)) =
                    search.root(board, &moves, depth, window.0, window.1, noise)
                else {
                    break None;
                };
                if value <= window.0 && window.0 > -INFINITY {
                    window.0 = -INFINITY;
                } else if value >= window.1 && window.1 < INFINITY {
                    window.1 = INFINITY;
                } else {
                    break Some((value, index, values));
                }
            };
            nodes = search.nodes;
            let Some((value, index, values)) = result else {
                // Stopped mid-iteration: a move that had already proved
                // better than the last iteration's best is the better bet.
                if let Some((index, value)) = search.interrupted_best {
                    thought = Thought {
                        best: Square::new(moves[index].0)?,
                        score: Score::Estimate(value),
                        depth,
                        nodes,
                    };
                }
                break;
            };
            previous = value;
            let exact = depth >= empties && limits.noise == 0;
            thought = Thought {
                best: Square::new(moves[index].0)?,
                score: if exact {
                    Score::Exact(value / EXACT_SCALE)
                } else {
                    Score::Estimate(value)
                },
                depth,
                nodes,
            };
            // Best first next time; the rest by this iteration's values.
            let mut ranked: Vec<(usize, (u8, i32))> = moves.iter().copied().enumerate().collect();
            ranked.sort_by_key(|&(k, _)| {
                (
                    std::cmp::Reverse(if k == index { INFINITY } else { values[k] }),
                    k,
                )
            });
            moves = ranked.into_iter().map(|(_, m)| m).collect();
            if exact {
                break;
            }
        }
        Some((thought, nodes))
    }

    /// The exact value and best move of `board` within `budget` (on every
    /// thread this searcher has), and the nodes searched.
    fn solve_with_threads<G: SearchGeometry>(
        &self,
        board: &Board,
        budget: &Budget,
    ) -> (Result<(i32, Option<u8>), OutOfBudget>, u64) {
        let board = board.without_idle_supply();
        #[cfg(not(target_arch = "wasm32"))]
        if self.threads > 1 {
            return match parallel_solve::solve::<G>(
                &self.endgame_table,
                budget,
                &board,
                self.threads,
            ) {
                Ok(s) => (Ok((s.value, s.best)), s.nodes),
                // An aborted parallel solve reports no nodes; the budget's
                // are spent.
                Err(out) => (Err(out), budget.max_nodes),
            };
        }
        let mut solver = Solver::<G>::new(&self.endgame_table, budget);
        let solved = solver.solve(&board).ok_or(OutOfBudget {
            estimate: solver.selective_estimate(),
        });
        (solved, solver.nodes)
    }

    /// A placement during the free or double opening: every way of filling
    /// the centre is tried and the resulting positions evaluated.
    fn opening_placement(&mut self, position: &Position, limits: &Limits) -> Option<Thought> {
        let me = position.to_move().unwrap_or(Color::Black);
        let mut nodes = 0u64;
        let mut best: Option<(Square, i32)> = None;
        for square in position.legal_moves().squares() {
            let Ok(child) = position.play(square) else {
                continue;
            };
            let value =
                opening_value(&child, me, &mut nodes) + limits.noise_for(u64::from(square.index()));
            if best.is_none_or(|(_, b)| value > b) {
                best = Some((square, value));
            }
        }
        let (best, value) = best?;
        Some(Thought {
            best,
            score: Score::Estimate(value),
            depth: position.opening_placements_left().into(),
            nodes,
        })
    }
}

/// Minimax over the rest of the opening placements; then the static
/// evaluation, from `me`'s view.
fn opening_value(position: &Position, me: Color, nodes: &mut u64) -> i32 {
    *nodes += 1;
    let Some(mover) = position.to_move() else {
        let outcome = position.outcome_with(crate::engine::Ending::BoardFinished);
        let diff = i32::from(outcome.score[me]) - i32::from(outcome.score[!me]);
        return diff * EXACT_SCALE;
    };
    if let Some(board) = Board::from_position(position) {
        let value = match position.options().topology {
            Topology::Plane => eval::evaluate::<Plane>(&board),
            Topology::Torus => eval::evaluate::<Torus>(&board),
        };
        return if mover == me { value } else { -value };
    }
    let values = position
        .legal_moves()
        .squares()
        .filter_map(|sq| position.play(sq).ok())
        .map(|child| opening_value(&child, me, nodes));
    if mover == me {
        values.max().unwrap_or(0)
    } else {
        values.min().unwrap_or(0)
    }
}

/// The client's hint: the best move for the side to move and its score,
/// searched within `nodes` nodes (exact when the endgame is solved in time).
pub fn hint(position: &Position, nodes: u64) -> Option<Thought> {
    Searcher::new(18).think(position, &Limits::analysis(nodes), None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_budget_check_falls_due_even_when_the_count_jumps_past_it() {
        let mut check = BudgetCheck::new(5);
        assert!(!check.due(1_000));
        // Nodes added several at a time skip 1,024 itself.
        assert!(check.due(1_030));
        assert!(!check.due(1_031));
        assert!(!check.due(2_053));
        assert!(check.due(2_054));
        // A search resuming another's count keeps the cadence.
        let mut resumed = BudgetCheck::new(2_054);
        assert!(!resumed.due(3_071));
        assert!(resumed.due(3_072));
    }

    #[test]
    fn a_search_told_to_wind_down_finishes_its_first_iteration_and_no_more() {
        let start = crate::engine::Rules::default().start_position();
        let limits = Limits::midgame_only(6, 0);
        let mut searcher = Searcher::new(16);
        let full = searcher.think(&start, &limits, None).unwrap();
        assert_eq!(full.depth, 6);
        let stops = Stops {
            now: None,
            wind_down: Some(Arc::new(AtomicBool::new(true))),
        };
        let wound_down = searcher.think_until(&start, &limits, &stops).unwrap();
        assert_eq!(wound_down.depth, 1);
        assert!(start.is_legal(wound_down.best));
        // Unset, the flag changes nothing.
        let unset = Stops {
            now: None,
            wind_down: Some(Arc::new(AtomicBool::new(false))),
        };
        let again = Searcher::new(16)
            .think_until(&start, &limits, &unset)
            .unwrap();
        assert_eq!((again.depth, again.best), (6, full.best));
    }
}
