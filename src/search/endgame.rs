//! The exact endgame solver: the final disc difference under perfect play.
//!
//! Layers, from the leaves up:
//! - one empty square: count the flips (by table lookup on a board without
//!   walls, see [`last_flips`](super::last_flips)), no move generation;
//! - two to `FEW` empties: the empty squares listed once, in the order of
//!   the layer above, and tried in that order, with two empties written
//!   out;
//! - at 5 empties: plain alpha-beta over the empty squares, odd
//!   quadrants first, and within each parity the holes (no empty
//!   neighbour) first, then the squares away from the corners, with the
//!   local table (below);
//! - at 6 ([`SMALL`]) empties: alpha-beta with the moves ordered fastest
//!   first (fewest replies for the opponent);
//! - above that: principal-variation search, the best move of an earlier
//!   visit first, then fastest-first ordering, stability cut-offs, and
//!   enhanced transposition cut-offs (the children's bounds looked up
//!   before any is searched);
//! - bounds in a small table of the solver's own at 5–8 empties, which
//!   stays in the cache, and in the shared transposition table above;
//! - from 12 empties, the pattern evaluation of each child joins that
//!   ordering (an evaluation counts as a node);
//! - from 18 empties, moves are ordered by a shallow midgame search
//!   ([`Midgame`], with a small table of its own, stopping 8 discs below
//!   alpha), and its nodes count with the solver's, so node counts
//!   compare with other programs'.
//!
//! A root with many empties is first searched selectively, four times: a
//! node whose shallow midgame search lies far outside the window is cut
//! there (Multi-ProbCut at the endgame), first at a narrow margin, then at
//! wider ones. Those passes are cheap; what they leave in the table (each
//! node's best move, its entry as deep as an exact one would be, so that
//! it lasts until the exact pass reaches it, and its bounds marked with
//! the pass, so that they never pass for exact ones) and their value
//! (the exact pass's first window) make the exact pass, which alone
//! decides the score, much smaller.
//!
//! Scores follow the FFO/Edax convention: disc difference for the side to
//! move, empty squares credited to the winner.

use std::ops::ControlFlow;

use multiversion::{inherit_target, multiversion, target::match_target};

use super::board::Board;
use super::eval::{evaluate, evaluate_with};
use super::midgame::{self, Midgame};
use super::pattern_readings::Readings;
use super::transposition::{self, NO_MOVE, Table};
use super::{Budget, BudgetCheck, SearchGeometry};

/// Up to this many empties, the fast layers without the shared table are
/// used.
pub const SMALL: u32 = 6;
/// At this many empties, the top of the table-less layers, the moves are
/// ordered fastest first and bounds kept in the local table: over FFO
/// #40–#49, 10 % fewer nodes than the parity order alone, in the same time
/// (from 5 empties: 17 % fewer, but 8–12 % slower).
const SORTED: u32 = SMALL;
/// Up to this many empties, the empty squares are listed once and tried in
/// that order, with no move generation.
const FEW: u32 = 4;
/// From this many empties, move ordering uses the (slower) potential
/// mobility too and enhanced transposition cut-offs look up the children
/// in the shared table (below, in the local table).
const DEEP: u32 = 10;
/// Up to this many empties the table is not used: probing costs more than
/// the rare transposition saves.
const NO_TABLE: u32 = 8;
/// From this many empties, moves are ordered by a shallow midgame search.
const ORDER_BY_SEARCH: u32 = 18;
/// The depth of the shallow search that orders moves at `empties` (at
/// least [`ORDER_BY_SEARCH`]): 1 ply at 18–19 empties, 4 at 24.
#[inline(always)]
fn ordering_depth(empties: u32) -> u32 {
    (empties - ORDER_BY_SEARCH) / 2 + 1
}
/// How far below `alpha`, in discs, the shallow searches that order moves
/// still tell moves apart.
const ORDER_MARGIN: i32 = 8;
/// From this many empties (below [`ORDER_BY_SEARCH`]), the pattern
/// evaluation of each child joins the fastest-first priority.
const ORDER_BY_EVALUATION: u32 = 12;
/// From this many empties at the root, selective passes come first.
const SELECTIVE_ROOT: u32 = 18;
/// From this many empties, a selective pass tries a cut.
const SELECTIVE_NODE: u32 = 8;
/// The selective passes: each one's table tag (never 0, the exact
/// pass's; a later pass's entries are trusted over an earlier's) and its
/// margin in hundredths of [`ENDGAME_SIGMA`]. The pass at 1.5 spreads
/// took FFO #40–#59 from 16.80 G nodes to 16.55 G in the same time.
const PASSES: [(u8, i32); 4] = [(1, 50), (2, 100), (3, 150), (4, 200)];
const _: () = {
    let mut k = 0;
    while k < PASSES.len() {
        assert!(
            PASSES[k].0 == k as u8 + 1,
            "tags 1, 2, … in the order of the passes"
        );
        k += 1;
    }
};
/// The spread, in hundredths of a disc, of an exact score around a
/// shallow search's value (a few plies with the pattern evaluation).
const ENDGAME_SIGMA: i32 = 700;
/// Half the first window of the exact pass around the selective value.
const ASPIRATION: i32 = 2;
/// Scores lie within ±64.
pub const SCORE_MAX: i32 = 64;
/// The shallow searches' own table: 2^this entries (1 MiB), made on the
/// first shallow search. Their entries count plies, not empties, so they
/// must never meet the exact ones.
const SHALLOW_TABLE_BITS: u32 = 16;

const CORNERS: u64 = 0x8100_0000_0000_0081;
/// The four 4×4 quadrants, for parity ordering.
const QUADRANTS: [u64; 4] = [
    0x0000_0000_0F0F_0F0F,
    0x0000_0000_F0F0_F0F0,
    0x0F0F_0F0F_0000_0000,
    0xF0F0_F0F0_0000_0000,
];

/// Empty squares in quadrants holding an odd number of empties.
#[inline(always)]
fn odd_quadrants(empty: u64) -> u64 {
    let mut odd = 0;
    for q in QUADRANTS {
        if (empty & q).count_ones() & 1 == 1 {
            odd |= q;
        }
    }
    odd & empty
}

/// The squares beside a corner on its edges (C squares): a move there
/// often gives the corner away, so the small layers try it late.
const C_SQUARES: u64 = 0x4281_0000_0000_8142;
/// The squares diagonally next to a corner (X squares), tried last of all.
const X_SQUARES: u64 = 0x0042_0000_0000_4200;

/// The empty squares in the order the small layers try them: odd
/// quadrants first (parity), and within each parity the holes (empty
/// squares with no empty neighbour: whoever can play there, the other side
/// cannot answer beside it) first, then the squares away from the corners,
/// then the C squares, then the X squares. Against parity alone, 2.8 %
/// fewer nodes over FFO #40–#49 before the holes came first.
#[inline(always)]
fn parity_groups(empty: u64) -> [u64; 8] {
    let odd = odd_quadrants(empty);
    let holes = empty & !beside(empty);
    let even = empty & !odd;
    let late = C_SQUARES | X_SQUARES;
    [
        odd & holes,
        odd & !late & !holes,
        odd & C_SQUARES & !holes,
        odd & X_SQUARES & !holes,
        even & holes,
        even & !late & !holes,
        even & C_SQUARES & !holes,
        even & X_SQUARES & !holes,
    ]
}

/// The squares next to any of `bits` on the plane board (not `bits`
/// themselves unless next to another): for ordering only.
#[inline(always)]
fn beside(bits: u64) -> u64 {
    use super::{FILE_A, FILE_H};
    let row = ((bits << 1) & !FILE_A) | ((bits >> 1) & !FILE_H);
    let wide = row | bits;
    row | (wide << 8) | (wide >> 8)
}

/// From this many empties up to [`NO_TABLE`], where the shared table is
/// not used, the solver keeps exact bounds in a small table of its own,
/// which stays in the cache (Egaroucid's local table). The selective
/// passes use it too below [`SELECTIVE_NODE`], where their values are exact.
/// At 5 empties too (the layer below [`SORTED`], which it serves alone):
/// FFO #40–#49 in 3.8 % fewer nodes, in the same time.
const LOCAL_FROM: u32 = FEW + 1;
const _: () = assert!(
    LOCAL_FROM < SELECTIVE_NODE && FEW + 2 == SORTED && SORTED <= SMALL,
    "one layer between the listed squares and the sorted moves, with the local table"
);
/// The local table's entries for each number of empties: 2^this.
const LOCAL_BITS: u32 = 11;
const LOCAL_SIZE: usize = ((NO_TABLE - LOCAL_FROM + 1) as usize) << LOCAL_BITS;

/// The local table's slot for a board with `empties` empties hashed as `key`.
#[inline(always)]
fn local_slot(key: u64, empties: u32) -> usize {
    (((empties - LOCAL_FROM) as usize) << LOCAL_BITS) | (key >> (64 - LOCAL_BITS)) as usize
}

/// Bounds on one board's exact value, in the local table. The last board
/// stored in a slot replaces whatever it held.
#[derive(Clone, Copy, Default)]
struct LocalEntry {
    /// The board's hash with its lowest bit set (0: empty).
    key: u64,
    lower: i8,
    upper: i8,
}

impl LocalEntry {
    /// What the entry knows of `key`'s value within (`alpha`, `beta`):
    /// `Break` with the value when that settles the search, else the
    /// window narrowed.
    #[inline(always)]
    fn narrow(&self, key: u64, alpha: i32, beta: i32) -> ControlFlow<i32, (i32, i32)> {
        match self.bounds(key) {
            Some((lower, upper)) => transposition::narrow(lower, upper, alpha, beta),
            None => ControlFlow::Continue((alpha, beta)),
        }
    }

    /// The bounds (lower, upper) the entry holds for `key`, if it is
    /// `key`'s.
    #[inline(always)]
    fn bounds(&self, key: u64) -> Option<(i32, i32)> {
        (self.key == key | 1).then(|| (self.lower.into(), self.upper.into()))
    }

    /// Records that a search of `key` within (`alpha`, `beta`) returned
    /// `value` (fail-soft), merged with the bounds known before.
    #[inline(always)]
    fn store(&mut self, key: u64, alpha: i32, beta: i32, value: i32) {
        let key = key | 1;
        let (mut lower, mut upper) = (-SCORE_MAX, SCORE_MAX);
        if value > alpha {
            lower = value;
        }
        if value < beta {
            upper = value;
        }
        if self.key == key {
            let (l, u) = (lower.max(self.lower.into()), upper.min(self.upper.into()));
            if l <= u {
                (lower, upper) = (l, u);
            }
        }
        *self = LocalEntry {
            key,
            lower: lower as i8,
            upper: upper as i8,
        };
    }
}

/// A solver with its table and node counter; one per thread.
pub struct Solver<'a, G> {
    /// The table for exact values.
    pub table: &'a Table,

    /// Nodes visited, those of the shallow searches included.
    pub nodes: u64,
    /// Set when the budget ran out; the values found since are meaningless.
    pub aborted: bool,
    /// The budget this solver works within.
    pub(crate) budget: &'a Budget,
    /// When the budget is next looked at.
    check: BudgetCheck,
    /// The selective pass under way: its table tag and margin (`None`:
    /// exact).
    pass: Option<(u8, i32)>,
    /// The table of the shallow midgame searches that order moves and
    /// decide the selective passes' cuts.
    shallow_table: Option<Table>,
    /// The exact bounds of recent boards of [`LOCAL_FROM`] to [`NO_TABLE`]
    /// empties (see [`LocalEntry`]).
    local: Box<[LocalEntry]>,
    /// The last finished selective pass's value and root move: the best
    /// answer known when the exact pass runs out of budget.
    selective: Option<(i32, u8)>,
    geometry: std::marker::PhantomData<G>,
}

impl<'a, G: SearchGeometry> Solver<'a, G> {
    /// A solver using `table` within `budget`.
    pub fn new(table: &'a Table, budget: &'a Budget) -> Self {
        Solver {
            table,
            nodes: 0,
            aborted: false,
            budget,
            check: BudgetCheck::new(0),
            pass: None,
            shallow_table: None,
            local: vec![LocalEntry::default(); LOCAL_SIZE].into_boxed_slice(),
            selective: None,
            geometry: std::marker::PhantomData,
        }
    }

    /// A midgame search of `board` to `depth` plies within (`alpha`,
    /// `beta`), in hundredths of a disc, its nodes counted with the
    /// solver's and within its budget.
    pub(crate) fn shallow(&mut self, board: &Board, depth: u32, alpha: i32, beta: i32) -> i32 {
        if self.aborted {
            return 0;
        }
        let table = self
            .shallow_table
            .get_or_insert_with(|| Table::new(SHALLOW_TABLE_BITS));
        let mut search = Midgame::<G>::new(table, self.budget, self.nodes);
        let value = search.pvs(board, depth, alpha, beta);
        self.nodes = search.nodes;
        self.aborted |= search.aborted;
        value
    }

    /// The exact value of `board` and a best move (`None` when the side to
    /// move must pass or the game is over), or `None` when the budget ran out.
    pub fn solve(&mut self, board: &Board) -> Option<(i32, Option<u8>)> {
        self.table.next_generation();
        self.selective = None;
        let moves = board.moves::<G>();
        if moves == 0 {
            let value = self.search(board, -SCORE_MAX, SCORE_MAX);
            return (!self.aborted).then_some((value, None));
        }
        let value = self.search_from_guess(board)?;
        // The root's best move is in the table unless the root was small.
        let best = match self.stored_move(board, moves) {
            Some(m) => m,
            None => self.best_move_by_research(board, value)?,
        };
        Some((value, Some(best)))
    }

    /// The exact value of `board`, after selective passes when it has many
    /// empties (`None` when the budget ran out).
    fn search_from_guess(&mut self, board: &Board) -> Option<i32> {
        let Some(guess) = self.selective_passes(board) else {
            let value = self.search(board, -SCORE_MAX, SCORE_MAX);
            return (!self.aborted).then_some(value);
        };
        if self.aborted {
            return None;
        }
        // The exact pass, around the last selective pass's value.
        let value = self.around(board, guess);
        (!self.aborted).then_some(value)
    }

    /// The value of `board` searched first within a narrow window around
    /// `guess`, then again on the side where the value fell (fail-soft:
    /// the first search's value bounds the second's window).
    fn around(&mut self, board: &Board, guess: i32) -> i32 {
        let (alpha, beta) = (
            (guess - ASPIRATION).max(-SCORE_MAX),
            (guess + ASPIRATION).min(SCORE_MAX),
        );
        let mut value = self.search(board, alpha, beta);
        if value <= alpha && alpha > -SCORE_MAX {
            value = self.search(board, -SCORE_MAX, value + 1);
        } else if value >= beta && beta < SCORE_MAX {
            value = self.search(board, value - 1, SCORE_MAX);
        }
        value
    }

    /// The selective passes over a root with at least [`SELECTIVE_ROOT`]
    /// empties (and no limit on discs), which leave their best moves in
    /// the table; the last pass's value, or `None` for a root too small
    /// for them. When the budget runs out the solver is `aborted`.
    pub(crate) fn selective_passes(&mut self, board: &Board) -> Option<i32> {
        self.selective = None;
        if board.empties() < SELECTIVE_ROOT || !board.unlimited() {
            return None;
        }
        let moves = board.moves::<G>();
        let mut guess = 0;
        for (k, pass) in PASSES.into_iter().enumerate() {
            self.pass = Some(pass);
            // The first pass over the full window, each later one around
            // the value of the one before, as the exact pass is.
            guess = if k == 0 {
                self.search(board, -SCORE_MAX, SCORE_MAX)
            } else {
                self.around(board, guess)
            };
            if self.aborted {
                break;
            }
            // The root's entry holds the move of the last pass that
            // stored one: a node stores the move of its best value
            // however its search ends, unless a probable cut settles the
            // root itself (a narrow window allows that, the full one not).
            self.selective = self.stored_move(board, moves).map(|m| (guess, m));
        }
        self.pass = None;
        Some(guess)
    }

    /// The value and move of the last selective pass that finished (see
    /// [`Solver::selective_passes`]), for a solve that ran out of budget
    /// before its exact pass ended: a search to the end of the game that
    /// cut the moves a shallow search judged hopeless, so an estimate, but
    /// a deeper one than a midgame search reaches in the same time.
    pub fn selective_estimate(&self) -> Option<(i32, u8)> {
        self.selective
    }

    /// The move the table holds for `board`, if it is one of its legal
    /// `moves`.
    pub(crate) fn stored_move(&self, board: &Board, moves: u64) -> Option<u8> {
        self.table
            .probe(board.hash())
            .map(|e| e.best)
            .filter(|&m| m != NO_MOVE && moves & (1 << m) != 0)
    }

    /// Finds a move achieving `value` by searching each child with a null
    /// window (for roots the table did not record).
    fn best_move_by_research(&mut self, board: &Board, value: i32) -> Option<u8> {
        let mut moves = board.moves::<G>();
        while moves != 0 {
            let index = moves.trailing_zeros() as u8;
            moves &= moves - 1;
            let child = board.play(index, G::flips(board.player, board.opponent, index));
            let v = -self.search(&child, -value - 1, -value + 1);
            if self.aborted {
                return None;
            }
            if v == value {
                return Some(index);
            }
        }
        None
    }

    /// Checks the budget now and then; true when the search must stop.
    #[inline(always)]
    fn out_of_budget(&mut self) -> bool {
        if self.check.due(self.nodes) && self.budget.exhausted(self.nodes) {
            self.aborted = true;
        }
        self.aborted
    }

    /// The exact value of `board` within (`alpha`, `beta`), fail-soft.
    pub fn search(&mut self, board: &Board, alpha: i32, beta: i32) -> i32 {
        exact_value(self, board, alpha, beta)
    }
}

/// A solve that ran out of budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutOfBudget {
    /// The last finished selective pass's value and move (see
    /// [`Solver::selective_estimate`]), if one finished.
    pub estimate: Option<(i32, u8)>,
}

/// Fills `list` with the children of `board` (whose legal moves are
/// `moves`), best first: the table's move, then by a shallow search or by
/// the ordering heuristics. Inlined into each of the solver's copies (see
/// [`exact_value`]). Used by the parallel root, which the browser lacks.
#[cfg(not(target_arch = "wasm32"))]
#[inline(always)]
pub(crate) fn order_moves<G: SearchGeometry>(
    s: &mut Solver<'_, G>,
    list: &mut MoveList,
    board: &Board,
    moves: u64,
    empties: u32,
    hash_move: u8,
) {
    list_children::<G>(list, board, moves);
    rank_moves(s, list, board, empties, -SCORE_MAX, hash_move);
}

/// Fills `list` with the children of `board` (whose legal moves are
/// `moves`), in square order and not yet ranked.
// Filled in place: returning the list copied it (`memcpy`) at every node.
#[inline(always)]
fn list_children<G: SearchGeometry>(list: &mut MoveList, board: &Board, moves: u64) {
    let mut rest = moves;
    while rest != 0 {
        let index = rest.trailing_zeros() as u8;
        rest &= rest - 1;
        let flips = G::flips(board.player, board.opponent, index);
        list.push(index, board.play(index, flips), 0);
    }
}

/// Ranks the children in `list` (of `board`, with `empties` empties),
/// best first: `hash_move`, then by a shallow search or by the ordering
/// heuristics.
#[inline(always)]
fn rank_moves<G: SearchGeometry>(
    s: &mut Solver<'_, G>,
    list: &mut MoveList,
    board: &Board,
    empties: u32,
    alpha: i32,
    hash_move: u8,
) {
    // Moves worth less than `alpha` less a margin are ranked among
    // themselves by bounds only: their shallow searches stop at the bound.
    let floor = ((alpha - ORDER_MARGIN) * 100).max(-midgame::INFINITY);
    // The children's pattern readings are the parent's updated by each
    // move, read once for all of them.
    let readings = (G::PLANE && (ORDER_BY_EVALUATION..ORDER_BY_SEARCH).contains(&empties))
        .then(|| Readings::new(board.player, board.opponent));
    for candidate in &mut list.items {
        let (index, child) = (candidate.index, &candidate.child);
        candidate.priority = if index == hash_move {
            1 << 30
        } else if empties >= ORDER_BY_SEARCH {
            -s.shallow(child, ordering_depth(empties), -midgame::INFINITY, -floor)
        } else if empties >= ORDER_BY_EVALUATION {
            // An evaluation is a node, as a shallow search's leaf is. One
            // reply fewer for the opponent weighs as much as 4.6 discs of
            // the evaluation (4096 / 9 hundredths): with the ten-square
            // families, the fewest nodes over FFO #40–#49 (design chapter).
            s.nodes += 1;
            let value = match &readings {
                Some(r) => evaluate_with::<G>(child, &r.play(index, board.flips_to(child))),
                None => evaluate::<G>(child),
            };
            order_priority::<G>(child, index, empties) / 9 - value
        } else {
            order_priority::<G>(child, index, empties)
        };
    }
    list.sort();
}

/// The exact value of `board` within (`alpha`, `beta`), fail-soft: the
/// recursion of [`Solver::search`], compiled once per instruction set and
/// chosen at run time (with AVX2, BMI and POPCNT the flips, move
/// generation and counting compile to fewer instructions), so one
/// portable binary runs everywhere at the speed of the machine it runs on.
#[multiversion(targets("x86_64+avx2+bmi1+bmi2+popcnt+lzcnt", "x86_64+popcnt"))]
fn exact_value<G: SearchGeometry>(
    solver: &mut Solver<'_, G>,
    board: &Board,
    alpha: i32,
    beta: i32,
) -> i32 {
    /// The exact value of `board` within (`alpha`, `beta`), fail-soft.
    #[inherit_target]
    fn search<G: SearchGeometry>(
        s: &mut Solver<'_, G>,
        board: &Board,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let empties = board.empties();
        if empties <= SMALL && board.unlimited() {
            return small(s, board, alpha, beta, empties);
        }
        s.nodes += 1;
        if s.out_of_budget() {
            return 0;
        }
        let moves = board.moves::<G>();
        if moves == 0 {
            if board.opponent_moves::<G>() == 0 {
                return board.final_score();
            }
            return -search(s, &board.pass(), -beta, -alpha);
        }
        table_search(s, board, moves, alpha, beta, empties)
    }

    #[inherit_target]
    fn table_search<G: SearchGeometry>(
        s: &mut Solver<'_, G>,
        board: &Board,
        moves: u64,
        mut alpha: i32,
        mut beta: i32,
        empties: u32,
    ) -> i32 {
        if let Some(upper) = stability_bound::<G>(board, alpha, empties) {
            if upper <= alpha {
                return upper;
            }
            beta = beta.min(upper);
        }
        let key = board.hash();
        let depth = empties as u8;
        // A selective pass's entries carry its tag, so the exact pass
        // takes their moves but never their bounds (a pass takes the exact
        // entries' bounds, which hold everywhere).
        let tag = s.pass.map_or(0, |(tag, _)| tag);
        let mut hash_move = NO_MOVE;
        let use_table = empties > NO_TABLE;
        if use_table && let Some(entry) = s.table.probe(key) {
            hash_move = entry.best;
            if entry.depth == depth && (entry.pass == 0 || entry.pass == tag) {
                match entry.narrow(alpha, beta) {
                    ControlFlow::Break(value) => return value,
                    ControlFlow::Continue(window) => (alpha, beta) = window,
                }
            }
        }
        let exact = s.pass.is_none() || empties < SELECTIVE_NODE;
        let local =
            (!use_table && empties >= LOCAL_FROM && exact).then(|| local_slot(key, empties));
        if let Some(slot) = local {
            match s.local[slot].narrow(key, alpha, beta) {
                ControlFlow::Break(value) => return value,
                ControlFlow::Continue(window) => (alpha, beta) = window,
            }
        }
        let (alpha_in, beta_in) = (alpha, beta);
        if let Some((_, margin)) = s.pass
            && empties >= SELECTIVE_NODE
            && let Some(cut) = probable_cut(s, board, empties, alpha, beta, margin)
        {
            return cut;
        }
        let mut list = MoveList::default();
        list_children::<G>(&mut list, board, moves);
        let mut best = -SCORE_MAX - 1;
        let mut best_move = NO_MOVE;
        // Enhanced transposition cut-offs: the children's bounds, in the
        // shared table from [`DEEP`] empties, in the local one (which is
        // in the cache) for children of [`LOCAL_FROM`] to [`NO_TABLE`]
        // empties. A child known to refute ends the search here; one known
        // not to raise `alpha` is not searched (Egaroucid's local table).
        let below = empties - 1;
        let refuted = if empties >= DEEP {
            // Each bucket read into the cache first, while the other
            // children are made (a prefetch waits for nothing).
            match_target! {
                "x86_64+avx2" => for candidate in &list.items {
                    s.table.prefetch(candidate.child.hash());
                },
                _ => {},
            }
            let table = s.table;
            known_children(&mut list, alpha, beta, &mut best, &mut best_move, |child| {
                table
                    .probe(child.hash())
                    .filter(|e| u32::from(e.depth) == below && (e.pass == 0 || e.pass == tag))
                    .map(|e| (e.lower.into(), e.upper.into()))
            })
        } else if (LOCAL_FROM..=NO_TABLE).contains(&below)
            && (s.pass.is_none() || below < SELECTIVE_NODE)
        {
            let entries = &s.local;
            known_children(&mut list, alpha, beta, &mut best, &mut best_move, |child| {
                let key = child.hash();
                entries[local_slot(key, below)].bounds(key)
            })
        } else {
            None
        };
        if let Some((value, index)) = refuted {
            if use_table {
                s.table
                    .store_in_pass(key, depth, tag, alpha_in, beta_in, value, index);
            } else if let Some(slot) = local {
                s.local[slot].store(key, alpha_in, beta_in, value);
            }
            return value;
        }
        // The table's move first, and the others ranked only when it does
        // not refute: when it refutes, as it mostly does, ranking them (a
        // shallow search each from [`ORDER_BY_SEARCH`] empties) is wasted.
        let mut ranked_from = 0;
        if let Some(at) = list.items.iter().position(|c| c.index == hash_move) {
            list.items[..=at].rotate_right(1);
            ranked_from = 1;
        }
        for k in 0..list.items.len() {
            if k == ranked_from {
                rank_moves(s, &mut list, board, empties, alpha, hash_move);
            }
            let candidate = list.items[k];
            let child = candidate.child;
            let value = if k == 0 {
                -search(s, &child, -beta, -alpha)
            } else {
                let probe = -search(s, &child, -alpha - 1, -alpha);
                if probe > alpha && probe < beta {
                    -search(s, &child, -beta, -probe)
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
        if use_table {
            s.table
                .store_in_pass(key, depth, tag, alpha_in, beta_in, best, best_move);
        } else if let Some(slot) = local {
            s.local[slot].store(key, alpha_in, beta_in, best);
        }
        best
    }

    /// Multi-ProbCut in a selective pass: `alpha` or `beta` when a shallow
    /// search says, by more than `margin` hundredths of the spread, that
    /// the exact value lies outside (`alpha`, `beta`).
    #[inherit_target]
    fn probable_cut<G: SearchGeometry>(
        s: &mut Solver<'_, G>,
        board: &Board,
        empties: u32,
        alpha: i32,
        beta: i32,
        margin: i32,
    ) -> Option<i32> {
        let margin = ENDGAME_SIGMA * margin / 100;
        // As deep as the ordering search (4 plies at 24 empties), and at
        // least 2 plies. A ply more everywhere took longer over FFO
        // #40–#49 (design chapter).
        let depth = if empties >= ORDER_BY_SEARCH {
            ordering_depth(empties).max(2)
        } else {
            2
        };
        let high = beta * 100 + margin;
        if beta < SCORE_MAX && s.shallow(board, depth, high - 1, high) >= high {
            return Some(beta);
        }
        let low = alpha * 100 - margin;
        if alpha > -SCORE_MAX && s.shallow(board, depth, low, low + 1) <= low {
            return Some(alpha);
        }
        None
    }

    /// Alpha-beta up to [`SMALL`] empties (unlimited discs): the layers
    /// of [`few`] and [`sorted`], and between them, at [`LOCAL_FROM`]
    /// empties, the moves in the parity order with the local table.
    #[inherit_target]
    fn small<G: SearchGeometry>(
        s: &mut Solver<'_, G>,
        board: &Board,
        alpha: i32,
        beta: i32,
        empties: u32,
    ) -> i32 {
        if empties <= FEW {
            return few(s, board, alpha, beta);
        }
        if empties >= SORTED {
            return sorted(s, board, alpha, beta, empties);
        }
        let (key, slot, mut alpha, beta) = match local_node(s, board, alpha, beta, empties) {
            ControlFlow::Break(value) => return value,
            ControlFlow::Continue(node) => node,
        };
        let (alpha_in, beta_in) = (alpha, beta);
        let value = 'search: {
            let mut best = -SCORE_MAX - 1;
            for group in parity_groups(board.empty) {
                let mut rest = group;
                while rest != 0 {
                    let index = rest.trailing_zeros() as u8;
                    rest &= rest - 1;
                    let Some(child) = play_if_legal::<G>(board, index) else {
                        continue;
                    };
                    let value = -small(s, &child, -beta, -alpha, empties - 1);
                    if value > best {
                        best = value;
                        if value > alpha {
                            alpha = value;
                            if alpha >= beta {
                                break 'search best;
                            }
                        }
                    }
                }
            }
            if best > -SCORE_MAX - 1 {
                break 'search best;
            }
            // No move: pass if the other side can move, else the game is over.
            if board.opponent_moves::<G>() == 0 {
                break 'search board.final_score();
            }
            -small(s, &board.pass(), -beta, -alpha, empties)
        };
        s.local[slot].store(key, alpha_in, beta_in, value);
        value
    }

    /// Alpha-beta from [`SORTED`] empties (unlimited discs): the moves
    /// fastest first (fewest replies for the opponent, corners counted
    /// twice; ties in the parity order), with the local table. No
    /// selective cut reaches this deep, so its values are exact in every
    /// pass.
    #[inherit_target]
    fn sorted<G: SearchGeometry>(
        s: &mut Solver<'_, G>,
        board: &Board,
        alpha: i32,
        beta: i32,
        empties: u32,
    ) -> i32 {
        let (key, slot, mut alpha, beta) = match local_node(s, board, alpha, beta, empties) {
            ControlFlow::Break(value) => return value,
            ControlFlow::Continue(node) => node,
        };
        let (alpha_in, beta_in) = (alpha, beta);
        let mut children = [(0i32, *board); SMALL as usize];
        let mut n = 0;
        let mut moved = false;
        let mut best = -SCORE_MAX - 1;
        for group in parity_groups(board.empty) {
            let mut rest = group;
            while rest != 0 {
                let index = rest.trailing_zeros() as u8;
                rest &= rest - 1;
                let Some(child) = play_if_legal::<G>(board, index) else {
                    continue;
                };
                moved = true;
                // The child's bounds in the local table, before it is
                // valued (an enhanced transposition cut-off).
                let child_key = child.hash();
                let known = s.local[local_slot(child_key, empties - 1)].bounds(child_key);
                match judge(known, alpha, beta) {
                    Known::Refutes(value) => {
                        s.local[slot].store(key, alpha_in, beta_in, value);
                        return value;
                    }
                    Known::CannotRaise(upper) => {
                        best = best.max(upper);
                        continue;
                    }
                    Known::Unsettled => {}
                }
                let priority = -weighted_replies(child.moves::<G>());
                let mut j = n;
                while j > 0 && children[j - 1].0 < priority {
                    children[j] = children[j - 1];
                    j -= 1;
                }
                children[j] = (priority, child);
                n += 1;
            }
        }
        if !moved {
            if board.opponent_moves::<G>() == 0 {
                return board.final_score();
            }
            return -sorted(s, &board.pass(), -beta, -alpha, empties);
        }
        for (_, child) in &children[..n] {
            let value = -small(s, child, -beta, -alpha, empties - 1);
            if value > best {
                best = value;
                if value > alpha {
                    alpha = value;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        s.local[slot].store(key, alpha_in, beta_in, best);
        best
    }

    /// The exact value of `board` with at most [`FEW`] empties (unlimited
    /// discs): the squares are listed once, odd quadrants first, and
    /// searched without move generation.
    #[inherit_target]
    fn few<G: SearchGeometry>(s: &mut Solver<'_, G>, board: &Board, alpha: i32, beta: i32) -> i32 {
        let mut squares = [0u8; FEW as usize];
        let mut n = 0;
        for group in parity_groups(board.empty) {
            let mut rest = group;
            while rest != 0 {
                squares[n] = rest.trailing_zeros() as u8;
                rest &= rest - 1;
                n += 1;
            }
        }
        match n {
            0 => {
                s.nodes += 1;
                board.final_score()
            }
            1 => {
                s.nodes += 1;
                last_empty::<G>(board, squares[0])
            }
            _ => listed(s, board, squares, n, alpha, beta),
        }
    }

    /// The exact value of `board`, whose `n` (2 to [`FEW`]) empty squares
    /// are `squares[..n]`, tried in that order.
    #[inherit_target]
    fn listed<G: SearchGeometry>(
        s: &mut Solver<'_, G>,
        board: &Board,
        squares: [u8; FEW as usize],
        n: usize,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        if n == 2 {
            return two(s, board, squares[0], squares[1], alpha, beta);
        }
        s.nodes += 1;
        if let Some(upper) = stability_bound::<G>(board, alpha, n as u32)
            && upper <= alpha
        {
            return upper;
        }
        let mut best = -SCORE_MAX - 1;
        for i in 0..n {
            let Some(child) = play_if_legal::<G>(board, squares[i]) else {
                continue;
            };
            // The others, in the same order.
            // Element by element: a shift (`copy_within`, or a loop LLVM
            // turns into one) calls `memmove` for these few bytes.
            let rest: [u8; FEW as usize] =
                std::array::from_fn(|j| squares[if j < i { j } else { (j + 1).min(n - 1) }]);
            let value = -listed(s, &child, rest, n - 1, -beta, -alpha);
            if value > best {
                best = value;
                if value > alpha {
                    alpha = value;
                    if alpha >= beta {
                        return best;
                    }
                }
            }
        }
        if best > -SCORE_MAX - 1 {
            return best;
        }
        let passed = board.pass();
        if squares[..n]
            .iter()
            .any(|&x| play_if_legal::<G>(&passed, x).is_some())
        {
            return -listed(s, &passed, squares, n, -beta, -alpha);
        }
        board.final_score()
    }

    /// The exact value of `board` with the two empty squares `x1` and `x2`.
    #[inherit_target]
    fn two<G: SearchGeometry>(
        s: &mut Solver<'_, G>,
        board: &Board,
        x1: u8,
        x2: u8,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        s.nodes += 1;
        let mut best = -SCORE_MAX - 1;
        if let Some(child) = play_if_legal::<G>(board, x1) {
            s.nodes += 1;
            best = -last_empty::<G>(&child, x2);
            if best >= beta {
                return best;
            }
        }
        if let Some(child) = play_if_legal::<G>(board, x2) {
            s.nodes += 1;
            best = best.max(-last_empty::<G>(&child, x1));
        }
        if best > -SCORE_MAX - 1 {
            return best;
        }
        let passed = board.pass();
        if play_if_legal::<G>(&passed, x1).is_some() || play_if_legal::<G>(&passed, x2).is_some() {
            return -two(s, &passed, x1, x2, -beta, -alpha);
        }
        board.final_score()
    }

    search(solver, board, alpha, beta)
}

/// The start of a node of the layers that keep their bounds in the local
/// table ([`LOCAL_FROM`] to [`SORTED`] empties): counts it, then tries the
/// stability cut-off and the board's local entry. `Break` with the value
/// when they settle it; else the board's key, its slot and the window
/// (`alpha`, `beta`) narrowed.
#[inline(always)]
fn local_node<G: SearchGeometry>(
    s: &mut Solver<'_, G>,
    board: &Board,
    alpha: i32,
    mut beta: i32,
    empties: u32,
) -> ControlFlow<i32, (u64, usize, i32, i32)> {
    s.nodes += 1;
    if let Some(upper) = stability_bound::<G>(board, alpha, empties) {
        if upper <= alpha {
            return ControlFlow::Break(upper);
        }
        beta = beta.min(upper);
    }
    let key = board.hash();
    let slot = local_slot(key, empties);
    let (alpha, beta) = s.local[slot].narrow(key, alpha, beta)?;
    ControlFlow::Continue((key, slot, alpha, beta))
}

/// Enhanced transposition cut-offs over `list`, the children of a node
/// searched within (`alpha`, `beta`): `bounds` gives what a table knows of
/// a child's value (lower, upper; from the child's side). The first child
/// known to refute is returned with its value; the children known not to
/// raise `alpha` leave the list, their bound kept in `best` (fail-soft).
#[inline(always)]
fn known_children(
    list: &mut MoveList,
    alpha: i32,
    beta: i32,
    best: &mut i32,
    best_move: &mut u8,
    mut bounds: impl FnMut(&Board) -> Option<(i32, i32)>,
) -> Option<(i32, u8)> {
    let mut k = 0;
    while k < list.items.len() {
        let candidate = list.items[k];
        match judge(bounds(&candidate.child), alpha, beta) {
            Known::Refutes(value) => return Some((value, candidate.index)),
            Known::CannotRaise(upper) => {
                if upper > *best {
                    (*best, *best_move) = (upper, candidate.index);
                }
                list.items.remove(k);
            }
            Known::Unsettled => k += 1,
        }
    }
    None
}

/// What a table's bounds on a child's value say at its parent.
enum Known {
    /// The child refutes the parent's window: the parent is worth at
    /// least this much, and need search no further.
    Refutes(i32),
    /// The child cannot raise the parent's `alpha`: it is worth at most
    /// this much to the parent, and need not be searched.
    CannotRaise(i32),
    /// The child must be searched.
    Unsettled,
}

/// Judges a child by `bounds` (lower, upper; from the child's side, `None`
/// when the table knows nothing), its parent searched within (`alpha`,
/// `beta`).
#[inline(always)]
fn judge(bounds: Option<(i32, i32)>, alpha: i32, beta: i32) -> Known {
    let Some((child_lower, child_upper)) = bounds else {
        return Known::Unsettled;
    };
    let (lower, upper) = (-child_upper, -child_lower);
    if lower >= beta {
        Known::Refutes(lower)
    } else if upper <= alpha {
        Known::CannotRaise(upper)
    } else {
        Known::Unsettled
    }
}

/// Stability cut-off: the other side keeps its stable discs, so the side
/// to move scores at most the squares less twice those. Computing them
/// costs more than most nodes, so it is done only where the bound may
/// reach `alpha`: from an `alpha` that grows with the empties (2 at 4
/// empties, where a cut saves the three below, to 12 at 9; twice the
/// empties from 10). Over FFO #40–#49 this took the nodes from 913 M to
/// 667 M and the time down by 12 % (design chapter); the thresholds
/// lowered from Edax's (6 at 4 empties, 16 at 9), 2.6 % fewer nodes in
/// the same time.
#[inline(always)]
fn stability_bound<G: SearchGeometry>(board: &Board, alpha: i32, empties: u32) -> Option<i32> {
    const FROM_ALPHA: [i32; 10] = [99, 99, 99, 99, 2, 4, 6, 8, 10, 12];
    let from = FROM_ALPHA
        .get(empties as usize)
        .copied()
        .unwrap_or(2 * empties as i32);
    // On a board with walls, the same margin below its own maximum.
    let squares = (board.player | board.opponent | board.empty).count_ones() as i32;
    if alpha < squares - 64 + from {
        return None;
    }
    let stable = G::stable(board.opponent, board.player, board.empty).count_ones() as i32;
    Some(squares - 2 * stable)
}

/// The board after the side to move plays `index`, if that flips anything.
#[inline(always)]
fn play_if_legal<G: SearchGeometry>(board: &Board, index: u8) -> Option<Board> {
    if G::adjacent(index) & board.opponent == 0 {
        return None;
    }
    let flips = G::flips(board.player, board.opponent, index);
    (flips != 0).then(|| board.play(index, flips))
}

/// The exact value with one empty square left, `index` (unlimited discs).
#[inline(always)]
fn last_empty<G: SearchGeometry>(board: &Board, index: u8) -> i32 {
    let diff = board.disc_difference();
    // Without walls every other square holds a disc: count by lookup. (Two
    // branches written out: as a closure called twice, the count was not
    // inlined.)
    if board.player | board.opponent | board.empty == u64::MAX {
        let mine = G::last_flip_count(board.player, index) as i32;
        if mine > 0 {
            return diff + 2 * mine + 1;
        }
        let theirs = G::last_flip_count(board.opponent, index) as i32;
        if theirs > 0 {
            return diff - 2 * theirs - 1;
        }
    } else if G::adjacent(index) & board.opponent != 0
        && let mine @ 1.. = G::flips(board.player, board.opponent, index).count_ones() as i32
    {
        return diff + 2 * mine + 1;
    } else if G::adjacent(index) & board.player != 0
        && let theirs @ 1.. = G::flips(board.opponent, board.player, index).count_ones() as i32
    {
        return diff - 2 * theirs - 1;
    }
    match diff.signum() {
        1 => diff + 1,
        -1 => diff - 1,
        _ => 0,
    }
}

/// The opponent's `replies` counted for fastest-first ordering (fewer
/// first), corners twice.
#[inline(always)]
fn weighted_replies(replies: u64) -> i32 {
    (replies.count_ones() + (replies & CORNERS).count_ones()) as i32
}

/// Move-ordering priority after playing `index` (higher first): few replies
/// for the opponent (counting corners twice), corners, then parity and, deep
/// in the tree, few empty squares next to our discs.
#[inline(always)]
fn order_priority<G: SearchGeometry>(child: &Board, index: u8, empties: u32) -> i32 {
    let replies = child.moves::<G>();
    if replies == 0 && child.opponent_moves::<G>() == 0 {
        // The move ends the game: try wins first, losses last.
        return (1 << 28) + child.final_score().signum() * -(1 << 20);
    }
    let mut priority = -(weighted_replies(replies) << 12);
    if CORNERS & (1 << index) != 0 {
        priority += 1 << 10;
    }
    if empties >= DEEP {
        // Our discs (now the child's opponent) facing empty squares.
        let frontier = (G::neighbours(child.opponent) & child.empty).count_ones() as i32;
        priority -= frontier << 6;
    }
    // Parity: playing into an odd quadrant is usually better.
    if odd_quadrants(child.empty | (1 << index)) & (1 << index) != 0 {
        priority += 1 << 5;
    }
    priority
}

/// A move with the board it leads to and its ordering priority.
#[derive(Clone, Copy)]
pub(crate) struct Candidate {
    pub(crate) index: u8,
    pub(crate) priority: i32,
    pub(crate) child: Board,
}

/// The moves of a node, for sorting (at most 64: one per square, so never
/// full; nothing is initialised beyond the moves pushed).
#[derive(Default)]
pub(crate) struct MoveList {
    pub(crate) items: arrayvec::ArrayVec<Candidate, 64>,
}

impl MoveList {
    #[inline(always)]
    pub(crate) fn push(&mut self, index: u8, child: Board, priority: i32) {
        self.items.push(Candidate {
            index,
            priority,
            child,
        });
    }

    /// Insertion sort by priority, highest first; stable, so ties keep
    /// square order and the search stays deterministic.
    #[inline(always)]
    pub(crate) fn sort(&mut self) {
        let items = self.items.as_mut_slice();
        for i in 1..items.len() {
            let mut j = i;
            while j > 0 && items[j - 1].priority < items[j].priority {
                items.swap(j - 1, j);
                j -= 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Rules;
    use crate::engine::topology::{Geometry, Plane};
    use crate::random_player::random_opening;

    /// Positions with `empties` empty squares after random play.
    fn boards(empties: u32, seeds: std::ops::RangeInclusive<u64>) -> Vec<Board> {
        let rules = Rules::default();
        seeds
            .filter_map(|seed| {
                let mut position = rules.start_position();
                for square in random_opening(&rules, seed, 60 - empties as usize) {
                    position = position.play(square).ok()?;
                }
                let board = Board::from_position(&position)?;
                (board.empties() == empties && board.moves::<Plane>() != 0).then_some(board)
            })
            .collect()
    }

    #[test]
    fn known_children_refute_or_leave_the_list_by_their_bounds() {
        let board = boards(20, 1..=40)
            .into_iter()
            .find(|b| b.moves::<Plane>().count_ones() >= 4)
            .expect("a board with four moves");
        let mut list = MoveList::default();
        list_children::<Plane>(&mut list, &board, board.moves::<Plane>());
        let squares: Vec<u8> = list.items.iter().map(|c| c.index).collect();
        let child_of = |index: u8| list.items.iter().find(|c| c.index == index).unwrap().child;
        // From the children's side: the first two cannot raise alpha 0 (their
        // values are at least 4 and 2 for the opponent), the third is unknown.
        let bounds = [(4, 10), (2, 64)];
        let known = |child: &Board| {
            (0..2)
                .find(|&k| child_of(squares[k]) == *child)
                .map(|k| bounds[k])
        };
        let (mut best, mut best_move) = (-SCORE_MAX - 1, NO_MOVE);
        let mut pruned = MoveList {
            items: list.items.clone(),
        };
        assert_eq!(
            known_children(&mut pruned, 0, 8, &mut best, &mut best_move, known),
            None
        );
        assert_eq!(pruned.items.len(), squares.len() - 2);
        assert!(
            pruned
                .items
                .iter()
                .all(|c| c.index != squares[0] && c.index != squares[1])
        );
        // The best bound so far is the larger upper bound, -2, by the second.
        assert_eq!((best, best_move), (-2, squares[1]));

        // A child worth at most -8 for the opponent refutes beta 6.
        let refuting = |child: &Board| (child_of(squares[2]) == *child).then_some((-64, -8));
        let (mut best, mut best_move) = (-SCORE_MAX - 1, NO_MOVE);
        let mut all = MoveList {
            items: list.items.clone(),
        };
        assert_eq!(
            known_children(&mut all, 0, 6, &mut best, &mut best_move, refuting),
            Some((8, squares[2]))
        );
    }

    /// The value of a plain exact search, without selective passes.
    fn plain_value(board: &Board) -> i32 {
        let (table, budget) = (Table::new(16), Budget::nodes(0));
        Solver::<Plane>::new(&table, &budget).search(board, -SCORE_MAX, SCORE_MAX)
    }

    #[test]
    fn selective_passes_leave_the_exact_value_and_a_move_achieving_it() {
        let positions = boards(SELECTIVE_ROOT + 1, 1..=8);
        assert!(positions.len() >= 3, "only {} positions", positions.len());
        for board in positions {
            let (table, budget) = (Table::new(16), Budget::nodes(0));
            let mut solver = Solver::<Plane>::new(&table, &budget);
            let (value, best) = solver.solve(&board).unwrap();
            assert_eq!(value, plain_value(&board));
            let best = best.unwrap();
            let child = board.play(best, Plane::flips(board.player, board.opponent, best));
            assert_eq!(-plain_value(&child), value, "the move {best} falls short");
        }
    }

    #[test]
    fn a_solve_out_of_budget_in_its_exact_pass_keeps_the_last_selective_pass() {
        let mut checked = 0;
        for board in boards(SELECTIVE_ROOT + 2, 1..=8) {
            // The passes' own cost, then a budget that lets them finish but
            // stops the exact pass halfway.
            let (table, budget) = (Table::new(16), Budget::nodes(0));
            let mut passes = Solver::<Plane>::new(&table, &budget);
            let guess = passes.selective_passes(&board).expect("a root with passes");
            let passes_nodes = passes.nodes;
            let (table, budget) = (Table::new(16), Budget::nodes(0));
            let mut full = Solver::<Plane>::new(&table, &budget);
            full.solve(&board).expect("no budget");
            let (estimate, move_found) = full.selective_estimate().expect("passes finished");
            assert_eq!(estimate, guess, "the last pass's value");
            assert!(
                board.moves::<Plane>() & (1 << move_found) != 0,
                "a legal move"
            );
            let exact_nodes = full.nodes - passes_nodes;
            if exact_nodes < 8 * crate::search::CHECK_EVERY {
                continue; // too quick to stop halfway
            }
            let (table, budget) = (
                Table::new(16),
                Budget::nodes(passes_nodes + exact_nodes / 2),
            );
            let mut cut_short = Solver::<Plane>::new(&table, &budget);
            assert_eq!(cut_short.solve(&board), None, "the exact pass runs out");
            assert_eq!(cut_short.selective_estimate(), Some((estimate, move_found)));
            checked += 1;
        }
        assert!(checked >= 2, "only {checked} positions long enough");
        // Below the passes' range there is nothing to fall back on.
        let small = boards(SELECTIVE_ROOT - 2, 1..=1)
            .into_iter()
            .next()
            .expect("a position");
        let (table, budget) = (Table::new(16), Budget::nodes(0));
        let mut solver = Solver::<Plane>::new(&table, &budget);
        assert!(solver.solve(&small).is_some());
        assert_eq!(solver.selective_estimate(), None);
    }

    #[test]
    fn the_shallow_searches_count_their_nodes_and_stay_within_the_budget() {
        // At 26 empties most of the work is in the shallow searches that
        // order moves and decide cuts: a small budget must stop them too.
        let board = boards(26, 1..=4).into_iter().next().expect("a position");
        let table = Table::new(16);
        let budget = Budget::nodes(20_000);
        let mut solver = Solver::<Plane>::new(&table, &budget);
        assert_eq!(solver.solve(&board), None, "the budget stops the solve");
        assert!(
            (20_000..22_100).contains(&solver.nodes),
            "stopped within about one check of the budget: {}",
            solver.nodes
        );
        // And a shallow search adds exactly the midgame search's nodes.
        let (table, budget) = (Table::new(16), Budget::nodes(0));
        let mut solver = Solver::<Plane>::new(&table, &budget);
        let value = solver.shallow(&board, 4, -midgame::INFINITY, midgame::INFINITY);
        let other = Table::new(SHALLOW_TABLE_BITS);
        let mut search = Midgame::<Plane>::new(&other, &budget, 0);
        assert_eq!(
            search.pvs(&board, 4, -midgame::INFINITY, midgame::INFINITY),
            value
        );
        assert_eq!(solver.nodes, search.nodes);
        assert!(solver.nodes > 100, "{} nodes for 4 plies", solver.nodes);
    }

    #[test]
    fn a_local_entry_merges_bounds_and_settles_or_narrows_a_window() {
        use std::ops::ControlFlow::{Break, Continue};
        let mut entry = LocalEntry::default();
        assert_eq!(entry.narrow(42, -5, 5), Continue((-5, 5)), "empty");
        // A fail-high at beta 4: the value is at least 6.
        entry.store(42, -4, 4, 6);
        assert_eq!(entry.narrow(42, -4, 4), Break(6));
        assert_eq!(entry.narrow(42, 0, 20), Continue((6, 20)));
        assert_eq!(entry.narrow(44, 0, 20), Continue((0, 20)), "another board");
        // Then a fail-low at alpha 10: between 6 and 8.
        entry.store(42, 10, 12, 8);
        assert_eq!(entry.narrow(42, 0, 20), Continue((6, 8)));
        // An exact value settles any window; another board replaces it.
        entry.store(42, 0, 20, 7);
        assert_eq!(entry.narrow(42, -64, 64), Break(7));
        entry.store(44, -64, 64, -3);
        assert_eq!(entry.narrow(42, -64, 64), Continue((-64, 64)));
        assert_eq!(entry.narrow(44, -64, 64), Break(-3));
    }

    #[test]
    fn a_selective_entry_lends_its_move_but_never_its_bounds() {
        for board in boards(SELECTIVE_ROOT + 1, 9..=12) {
            let exact = plain_value(&board);
            let (table, budget) = (Table::new(16), Budget::nodes(0));
            // A selective pass's entry claiming a value far from the truth.
            let claim = if exact > 0 { -60 } else { 60 };
            table.store_in_pass(
                board.hash(),
                board.empties() as u8,
                PASSES[1].0,
                -SCORE_MAX,
                SCORE_MAX,
                claim,
                NO_MOVE,
            );
            let mut solver = Solver::<Plane>::new(&table, &budget);
            assert_eq!(solver.search(&board, -SCORE_MAX, SCORE_MAX), exact);
        }
    }
}
