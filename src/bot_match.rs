//! Games between two bots from varied openings: the level ladder, and the
//! games the evaluation is tuned on.

use std::time::{Duration, Instant};

use crate::bot::Bot;
use crate::engine::{Color, Position, Rules, Square};

/// The result of one bot game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRecord {
    /// The moves played, opening included.
    pub moves: Vec<Square>,
    /// Final disc difference, Black minus White, empties to the winner.
    pub black_margin: i32,
    /// Winner (the draw rule applied).
    pub winner: Option<Color>,
    /// Time each colour spent thinking, and its number of moves.
    pub thinking: [(Duration, u32); 2],
}

pub use crate::random_player::random_opening;

/// Plays `opening`, then the bots to the end; `bots[0]` plays Black.
pub fn play_game(rules: &Rules, opening: &[Square], bots: [&mut Bot; 2]) -> GameRecord {
    let mut position: Position = rules.start_position();
    let mut moves = Vec::new();
    for &square in opening {
        match position.play(square) {
            Ok(next) => {
                position = next;
                moves.push(square);
            }
            Err(_) => break,
        }
    }
    let mut thinking = [(Duration::ZERO, 0u32); 2];
    let [black, white] = bots;
    while let Some(color) = position.to_move() {
        let bot = match color {
            Color::Black => &mut *black,
            Color::White => &mut *white,
        };
        let started = Instant::now();
        let Some(square) = bot.choose(&position) else {
            break;
        };
        let slot = &mut thinking[color.index()];
        slot.0 += started.elapsed();
        slot.1 += 1;
        let Ok(next) = position.play(square) else {
            break;
        };
        position = next;
        moves.push(square);
    }
    let counts = position.counts();
    let raw = i32::from(counts.black) - i32::from(counts.white);
    let empties = position.empty().count() as i32;
    let black_margin = raw + raw.signum() * empties;
    GameRecord {
        moves,
        black_margin,
        winner: position.outcome().and_then(|o| o.winner),
        thinking,
    }
}

/// The score of a match between a stronger and a weaker level.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PairResult {
    /// The higher level.
    pub upper: u8,
    /// The lower level.
    pub lower: u8,
    /// Games the higher level won, lost, and drew.
    pub wins: u32,
    /// Games lost by the higher level.
    pub losses: u32,
    /// Drawn games.
    pub draws: u32,
    /// Sum of the higher level's disc margins.
    pub margin_sum: i64,
    /// Thinking time and moves of the higher and the lower level.
    pub upper_time: (Duration, u32),
    /// See `upper_time`.
    pub lower_time: (Duration, u32),
}

impl PairResult {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// Whether the higher level won a majority of the games.
    pub fn upper_wins_majority(&self) -> bool {
        2 * self.wins > self.games()
    }
}

/// Plays `games` games between `upper` and `lower` (colours alternate; each
/// opening is played twice, once with each colour) on `threads` threads.
pub fn play_pair(rules: &Rules, upper: u8, lower: u8, games: u32, threads: usize) -> PairResult {
    let next = std::sync::atomic::AtomicU32::new(0);
    let results = std::sync::Mutex::new(PairResult {
        upper,
        lower,
        ..PairResult::default()
    });
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                loop {
                    let game = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if game >= games {
                        break;
                    }
                    let opening_seed = u64::from(game / 2) + 1;
                    let opening = random_opening(rules, opening_seed, 6);
                    let upper_black = game.is_multiple_of(2);
                    let mut hi = Bot::new(upper, opening_seed * 2);
                    let mut lo = Bot::new(lower, opening_seed * 2 + 1);
                    let record = if upper_black {
                        play_game(rules, &opening, [&mut hi, &mut lo])
                    } else {
                        play_game(rules, &opening, [&mut lo, &mut hi])
                    };
                    let upper_color = if upper_black {
                        Color::Black
                    } else {
                        Color::White
                    };
                    let margin = if upper_black {
                        record.black_margin
                    } else {
                        -record.black_margin
                    };
                    let mut r = results.lock().unwrap_or_else(|e| e.into_inner());
                    match record.winner {
                        Some(c) if c == upper_color => r.wins += 1,
                        Some(_) => r.losses += 1,
                        None => r.draws += 1,
                    }
                    r.margin_sum += i64::from(margin);
                    let (ut, lt) = (
                        record.thinking[upper_color.index()],
                        record.thinking[(!upper_color).index()],
                    );
                    r.upper_time = (r.upper_time.0 + ut.0, r.upper_time.1 + ut.1);
                    r.lower_time = (r.lower_time.0 + lt.0, r.lower_time.1 + lt.1);
                }
            });
        }
    });
    results.into_inner().unwrap_or_else(|e| e.into_inner())
}
