//! A small computer player: level 1 plays at random (seeded); levels 2–10
//! search level − 1 plies with alpha-beta and a simple evaluation (discs,
//! mobility, corners). Deterministic for a given seed and level.

use crate::engine::{Bitboard, Color, Position, Square};
use crate::random_player::RandomPlayer;

/// The weakest and strongest levels.
pub const LEVELS: std::ops::RangeInclusive<u8> = 1..=10;

/// Nodes one move may search before the deepest finished iteration is used.
const NODE_BUDGET: u64 = 2_000_000;

const CORNERS: u64 = 0x8100_0000_0000_0081;

/// A computer player of a given level.
#[derive(Debug, Clone)]
pub struct Bot {
    level: u8,
    random: RandomPlayer,
}

/// Score of a finished game: far above any evaluation.
const WIN: i32 = 1_000_000;

fn evaluate(position: &Position, me: Color) -> i32 {
    if let Some(outcome) = position.outcome() {
        return match outcome.winner {
            Some(c) if c == me => WIN + i32::from(outcome.score[me]),
            Some(_) => -WIN - i32::from(outcome.score[!me]),
            None => 0,
        };
    }
    let mine = position.discs(me).0;
    let theirs = position.discs(!me).0;
    let mobility = |c: Color| -> i32 {
        // Mobility of a side as if it were to move: count its legal squares.
        let p = position.discs(c).0;
        let o = position.discs(!c).0;
        let empty = position.empty().0;
        position.options().topology.moves(p, o, empty).count_ones() as i32
    };
    let discs = mine.count_ones() as i32 - theirs.count_ones() as i32;
    let corners = (mine & CORNERS).count_ones() as i32 - (theirs & CORNERS).count_ones() as i32;
    discs + 10 * (mobility(me) - mobility(!me)) + 60 * corners
}

impl Bot {
    /// A bot of `level` (clamped to 1–10) whose random choices follow `seed`.
    pub fn new(level: u8, seed: u64) -> Bot {
        Bot {
            level: level.clamp(*LEVELS.start(), *LEVELS.end()),
            random: RandomPlayer::new(seed),
        }
    }

    /// The move for the side to move, or `None` when the game is over.
    pub fn choose(&mut self, position: &Position) -> Option<Square> {
        let me = position.to_move()?;
        if self.level == 1 {
            return self.random.choose(position);
        }
        let moves: Vec<Square> = position.legal_moves().squares().collect();
        let mut best = moves[0];
        let mut nodes = 0u64;
        for depth in 1..u32::from(self.level) {
            let mut alpha = -i32::MAX;
            let mut chosen = None;
            for &square in &moves {
                let child = position.play(square).expect("legal");
                let value = search(&child, me, depth - 1, -i32::MAX, i32::MAX, &mut nodes);
                if value > alpha || chosen.is_none() {
                    alpha = value;
                    chosen = Some(square);
                }
                if nodes > NODE_BUDGET {
                    break;
                }
            }
            if nodes > NODE_BUDGET {
                break;
            }
            best = chosen.unwrap_or(best);
        }
        Some(best)
    }
}

/// Minimax with alpha-beta, scored from `me`'s side (passes handled by the
/// engine: the side to move in `position` may be either colour).
fn search(
    position: &Position,
    me: Color,
    depth: u32,
    mut alpha: i32,
    mut beta: i32,
    nodes: &mut u64,
) -> i32 {
    *nodes += 1;
    let Some(to_move) = position.to_move() else {
        return evaluate(position, me);
    };
    if depth == 0 || *nodes > NODE_BUDGET {
        return evaluate(position, me);
    }
    let maximizing = to_move == me;
    let mut best = if maximizing { -i32::MAX } else { i32::MAX };
    for square in Bitboard::squares(position.legal_moves()) {
        let child = position.play(square).expect("legal");
        let value = search(&child, me, depth - 1, alpha, beta, nodes);
        if maximizing {
            best = best.max(value);
            alpha = alpha.max(value);
        } else {
            best = best.min(value);
            beta = beta.min(value);
        }
        if alpha >= beta {
            break;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Rules;

    fn play_match(black: u8, white: u8, seed: u64) -> Option<Color> {
        let mut bots = [Bot::new(black, seed), Bot::new(white, seed + 1)];
        let mut position = Rules::default().start_position();
        while let Some(color) = position.to_move() {
            let square = bots[color.index()].choose(&position).unwrap();
            position = position.play(square).unwrap();
        }
        position.outcome().unwrap().winner
    }

    #[test]
    fn a_searching_bot_beats_the_random_one() {
        let mut wins = 0;
        for seed in 0..6 {
            if play_match(4, 1, seed) == Some(Color::Black) {
                wins += 1;
            }
            if play_match(1, 4, seed) == Some(Color::White) {
                wins += 1;
            }
        }
        assert!(wins >= 10, "level 4 won only {wins} of 12 against level 1");
    }

    #[test]
    fn the_same_seed_and_level_choose_the_same_moves() {
        let start = Rules::default().start_position();
        for level in [1, 3] {
            assert_eq!(
                Bot::new(level, 9).choose(&start),
                Bot::new(level, 9).choose(&start)
            );
        }
    }
}
