//! Game analysis: for every move of a game, its value, the best move's
//! value and what the move lost, with the mistakes marked.
//!
//! Each position's legal moves are all valued by the same search
//! ([`Searcher::value_moves`]), so the played move and the best one are
//! compared on equal terms and a loss is never negative. Pure: no clock, no
//! I/O; the caller may cancel and is told of progress.

// In the browser only part of this module is used: the whole-game analysis is the command line's.
#![cfg_attr(target_arch = "wasm32", allow(dead_code))]

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crate::engine::{Color, Position, ReplayError, Square};
use crate::search::{Limits, Score, Searcher};

/// How bad a move was, by the discs it lost.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Mark {
    /// Lost at least [`INACCURACY`] discs.
    Inaccuracy,
    /// Lost at least [`MISTAKE`] discs.
    Mistake,
    /// Lost at least [`BLUNDER`] discs.
    Blunder,
}

/// The loss, in hundredths of a disc, from which a move is an inaccuracy.
pub const INACCURACY: i32 = 200;
/// The loss from which a move is a mistake.
pub const MISTAKE: i32 = 400;
/// The loss from which a move is a blunder.
pub const BLUNDER: i32 = 800;

impl Mark {
    /// The mark of a move that lost `loss` hundredths of a disc.
    pub fn for_loss(loss: i32) -> Option<Mark> {
        match loss {
            l if l >= BLUNDER => Some(Mark::Blunder),
            l if l >= MISTAKE => Some(Mark::Mistake),
            l if l >= INACCURACY => Some(Mark::Inaccuracy),
            _ => None,
        }
    }

    /// The mark's name.
    pub fn name(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        }
    }
}

/// One move of the game, analysed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveAnalysis {
    /// 1-based move number (passes are not moves).
    pub number: usize,
    /// Who played it.
    pub color: Color,
    /// The square the move was played on.
    pub square: Square,
    /// Its value for the mover.
    pub score: Score,
    /// The legal move the search values highest for the mover (may be the one played).
    pub best: Square,
    /// The best move's value for the mover.
    pub best_score: Score,
    /// What the move lost against the best, in hundredths of a disc.
    pub loss: i32,
    /// The mark, when the loss is large enough.
    pub mark: Option<Mark>,
    /// Legal moves there were.
    pub choices: u32,
}

impl MoveAnalysis {
    /// The best score from Black's view: the evaluation of the position
    /// before the move, for a graph of the game.
    pub fn black_view(&self) -> Score {
        let sign = if self.color == Color::Black { 1 } else { -1 };
        match self.best_score {
            Score::Exact(v) => Score::Exact(sign * v),
            Score::Estimate(v) => Score::Estimate(sign * v),
        }
    }
}

impl MoveAnalysis {
    /// Move `number` (1-based), `square` played from `position` with
    /// value `score`, where the best move `best` is worth `best_score`;
    /// `None` when the game was already over there.
    pub fn new(
        number: usize,
        position: &Position,
        square: Square,
        score: Score,
        best: Square,
        best_score: Score,
    ) -> Option<MoveAnalysis> {
        let loss = (best_score.centidiscs() - score.centidiscs()).max(0);
        Some(MoveAnalysis {
            number,
            color: position.to_move()?,
            square,
            score,
            best,
            best_score,
            loss,
            mark: Mark::for_loss(loss),
            choices: position.legal_moves().count(),
        })
    }
}

/// A whole game analysed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameAnalysis {
    /// Every move in order (fewer when cancelled).
    pub moves: Vec<MoveAnalysis>,
    /// Nodes searched.
    pub nodes: u64,
}

impl GameAnalysis {
    /// One side's total loss (hundredths of a disc) and its marked moves.
    pub fn summary(&self, color: Color) -> (i32, Vec<&MoveAnalysis>) {
        let mine = self.moves.iter().filter(|m| m.color == color);
        let loss = mine.clone().map(|m| m.loss).sum();
        (loss, mine.filter(|m| m.mark.is_some()).collect())
    }
}

/// Analyses `moves` played from `start`, every position searched under
/// `limits`. `progress(done, total)` is called after each move; `cancel`
/// stops after the move being analysed (the analysis so far is returned).
/// A move that is illegal is an error and nothing is analysed.
pub fn analyze(
    searcher: &mut Searcher,
    start: &Position,
    moves: &[Square],
    limits: &Limits,
    cancel: Option<&Arc<AtomicBool>>,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<GameAnalysis, ReplayError> {
    // Replay first, so a bad game is refused before any search.
    let mut positions = Vec::with_capacity(moves.len());
    let mut position = *start;
    for (i, &square) in moves.iter().enumerate() {
        positions.push(position);
        position = position.play(square).map_err(|error| ReplayError {
            number: i + 1,
            square,
            error,
            position,
        })?;
    }
    let mut analysis = GameAnalysis {
        moves: Vec::new(),
        nodes: 0,
    };
    for (i, (position, &square)) in positions.iter().zip(moves).enumerate() {
        if cancel.is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed)) {
            break;
        }
        if position.to_move().is_none() {
            break;
        }
        let (values, nodes) = searcher.value_moves(position, limits, cancel);
        analysis.nodes += nodes;
        let (Some(best), Some(played)) =
            (values.first(), values.iter().find(|v| v.square == square))
        else {
            // Cancelled part-way through this position.
            break;
        };
        let Some(analysed) = MoveAnalysis::new(
            i + 1,
            position,
            square,
            played.score,
            best.square,
            best.score,
        ) else {
            break;
        };
        analysis.moves.push(analysed);
        progress(i + 1, moves.len());
    }
    Ok(analysis)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Rules;

    #[test]
    fn marks_follow_the_loss() {
        assert_eq!(Mark::for_loss(0), None);
        assert_eq!(Mark::for_loss(199), None);
        assert_eq!(Mark::for_loss(200), Some(Mark::Inaccuracy));
        assert_eq!(Mark::for_loss(400), Some(Mark::Mistake));
        assert_eq!(Mark::for_loss(800), Some(Mark::Blunder));
    }

    #[test]
    fn a_random_endgame_is_analysed_exactly_and_its_losses_add_up() {
        let rules = Rules::default();
        let moves = crate::random_player::random_opening(&rules, 11, 60);
        let start = rules.start_position();
        let limits = Limits {
            depth: 2,
            exact_empties: 12,
            ..Limits::analysis(0)
        };
        let mut calls = 0;
        let analysis = analyze(
            &mut Searcher::new(16),
            &start,
            &moves,
            &limits,
            None,
            &mut |done, total| {
                calls += 1;
                assert_eq!(total, moves.len());
                assert_eq!(done, calls);
            },
        )
        .unwrap();
        assert_eq!(analysis.moves.len(), moves.len());
        for m in &analysis.moves {
            assert!(m.loss >= 0, "{m:?}");
            if m.square == m.best {
                assert_eq!(m.loss, 0, "{m:?}");
            }
            assert!(m.choices >= 1);
        }
        // From 12 empties on, every value is exact, and along the game the
        // exact best value of each position is the played value of the
        // one before turned to the next mover's view.
        let late: Vec<_> = analysis
            .moves
            .iter()
            .filter(|m| matches!(m.best_score, Score::Exact(_)))
            .collect();
        assert!(late.len() >= 10);
        for w in late.windows(2) {
            let same = w[0].color == w[1].color;
            let played = w[0].score.centidiscs();
            let next_best = w[1].best_score.centidiscs();
            assert_eq!(next_best, if same { played } else { -played }, "{w:?}");
        }
        // Random play loses discs somewhere.
        assert!(analysis.moves.iter().any(|m| m.mark.is_some()));
    }

    #[test]
    fn an_illegal_move_is_refused_before_any_search() {
        let rules = Rules::default();
        let start = rules.start_position();
        let moves = ["f5", "a1"].map(|s| s.parse::<Square>().unwrap());
        let err = analyze(
            &mut Searcher::new(10),
            &start,
            &moves,
            &Limits::analysis(0),
            None,
            &mut |_, _| panic!("no progress for a bad game"),
        )
        .unwrap_err();
        assert_eq!(err.number, 2);
    }
}
