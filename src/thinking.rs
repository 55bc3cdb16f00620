//! A search to run away from the window: the computer's move or a hint, as
//! a self-contained job. Natively a job runs on a background thread; in the
//! browser it crosses to a Web Worker as bytes (see
//! [`crate::platform::think`]), so the job and its answer have a bounded
//! binary form and the worker checks everything it is given.

use serde::{Deserialize, Serialize};

use crate::bot::Bot;
use crate::engine::{Position, Rules, Square, replay};
use crate::match_log::record::WireRules;
use crate::match_log::rules_proposal::{RulesProposal, WireRulesError};
use crate::search::{Score, Thought};

/// The most bytes a job or an answer may take (a job is the rules and at
/// most a few hundred moves).
pub const MAX_JOB_BYTES: usize = 1024;

/// What to think about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Task {
    /// The computer's move at a level.
    Move {
        /// 1–10.
        level: u8,
        /// The bot's seed (its choice among equal moves).
        seed: u64,
        /// The longest it may think, in milliseconds (natively; the browser
        /// bounds a search by the level's node budget). Level 10 spends
        /// it; the others stop sooner, at their node budgets.
        limit_ms: u64,
        /// Whether levels 8–10 may play from the opening book.
        book: bool,
    },
    /// The best move for the person, within a node budget.
    Hint {
        /// Nodes the search may visit.
        nodes: u64,
    },
    /// Every move valued alike, for game analysis: the answer is the
    /// best move and its value, and the value of the move `played`.
    Values {
        /// Midgame depth (1–30).
        depth: u8,
        /// Exact from this many empties (at most 26).
        exact_empties: u8,
        /// The square of the move played in the game.
        played: u8,
    },
}

/// A job: the position as rules plus the moves from their start, and the
/// task.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ThinkJob {
    rules: WireRules,
    moves: Vec<u8>,
    task: Task,
}

/// The answer to a job (a [`Thought`] in a form that crosses to the page).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ThinkAnswer {
    /// The move, or `None` when there is none (the game is over).
    pub best: Option<u8>,
    /// Whether `score` is exact (discs) or an estimate (hundredths).
    pub exact: bool,
    /// The score for the side to move.
    pub score: i32,
    /// The deepest completed iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// For [`Task::Values`]: whether the played move's value is exact, and
    /// the value for the mover.
    pub played: Option<(bool, i32)>,
}

/// Why a job cannot be run or read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ThinkError {
    /// The bytes are not a job or an answer.
    #[error("not a search job or answer ({len} bytes): {reason}")]
    Decode {
        /// How many bytes came.
        len: usize,
        /// What postcard said.
        reason: String,
    },
    /// The rules do not check.
    #[error("the job's rules: {0}")]
    Rules(#[from] WireRulesError),
    /// A move of the job is not legal from the rules' start.
    #[error("the job's move {index} is not legal")]
    Move {
        /// Which move (from 0).
        index: usize,
    },
    /// An analysis depth out of range.
    #[error("analysis depth 1–30 and exact from at most 26 empties, found {depth} and {exact}")]
    Depth {
        /// The depth asked for.
        depth: u8,
        /// The exact empties asked for.
        exact: u8,
    },
    /// The level is not 1–10.
    #[error("the computer's level is 1–10, found {found}")]
    Level {
        /// What came.
        found: u8,
    },
    /// The worker refused the job.
    #[error("the search worker: {said}")]
    Worker {
        /// What it said.
        said: String,
    },
    /// The worker that runs searches could not be started or failed.
    #[error("the search could not run: {reason}")]
    Unavailable {
        /// What went wrong.
        reason: String,
    },
}

impl ThinkJob {
    /// A job for the position reached by `moves` under `rules`.
    pub fn new(rules: &Rules, moves: &[Square], task: Task) -> ThinkJob {
        ThinkJob {
            rules: RulesProposal::fixed(*rules).to_wire(),
            moves: moves.iter().map(|s| s.index()).collect(),
            task,
        }
    }

    /// The job as bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        postcard::to_allocvec(self).expect("a job always encodes")
    }

    /// Reads a job (bounded; the content is checked by [`run`](Self::run)).
    pub fn from_bytes(bytes: &[u8]) -> Result<ThinkJob, ThinkError> {
        decode(bytes)
    }

    /// The position the job names, checked move by move.
    pub fn position(&self) -> Result<Position, ThinkError> {
        let rules = RulesProposal::from_wire(&self.rules)?.rules;
        let mut squares = Vec::with_capacity(self.moves.len());
        for (index, &m) in self.moves.iter().enumerate() {
            squares.push(Square::new(m).ok_or(ThinkError::Move { index })?);
        }
        replay(&rules.start_position(), &squares).map_err(|e| ThinkError::Move {
            index: e.number - 1,
        })
    }

    /// Runs the search here and now (on whatever thread calls it).
    pub fn run(&self) -> Result<ThinkAnswer, ThinkError> {
        let position = self.position()?;
        let thought = match self.task {
            Task::Move {
                level,
                seed,
                limit_ms,
                book,
            } => {
                if !(1..=10).contains(&level) {
                    return Err(ThinkError::Level { found: level });
                }
                let mut bot = Bot::for_play(level, seed);
                bot.set_book(book);
                think_within(&mut bot, &position, limit_ms)
            }
            Task::Hint { nodes } => crate::search::hint(&position, nodes),
            Task::Values {
                depth,
                exact_empties,
                played,
            } => return self.values(&position, depth, exact_empties, played),
        };
        Ok(ThinkAnswer::from(thought))
    }

    fn values(
        &self,
        position: &Position,
        depth: u8,
        exact: u8,
        played: u8,
    ) -> Result<ThinkAnswer, ThinkError> {
        if !(1..=30).contains(&depth) || exact > 26 {
            return Err(ThinkError::Depth { depth, exact });
        }
        let square = Square::new(played)
            .filter(|&sq| position.is_legal(sq))
            .ok_or(ThinkError::Move {
                index: self.moves.len(),
            })?;
        let limits = crate::search::Limits {
            depth: depth.into(),
            exact_empties: exact.into(),
            ..crate::search::Limits::analysis(0)
        };
        let (values, nodes) = crate::search::Searcher::new(18).value_moves(position, &limits, None);
        let split = |score| match score {
            Score::Exact(v) => (true, v),
            Score::Estimate(v) => (false, v),
        };
        let best = values.first();
        let mine = values.iter().find(|v| v.square == square);
        let (exact, score) = best.map_or((true, 0), |b| split(b.score));
        Ok(ThinkAnswer {
            best: best.map(|b| b.square.index()),
            exact,
            score,
            depth: best.map_or(0, |b| b.depth),
            nodes,
            played: mine.map(|m| split(m.score)),
        })
    }
}

/// The strongest level spends the move time (deeper on a faster machine);
/// the others stop at their node budgets, the time only a cap.
#[cfg(not(target_arch = "wasm32"))]
fn think_within(bot: &mut Bot, position: &Position, limit_ms: u64) -> Option<Thought> {
    let limit = std::time::Duration::from_millis(limit_ms);
    if bot.spec().level == *crate::bot::LEVELS.end() {
        bot.think_for(position, limit)
    } else {
        bot.choose_within(position, limit)
    }
}

// A worker cannot be interrupted from outside: the level's node budget
// bounds the search.
#[cfg(target_arch = "wasm32")]
fn think_within(bot: &mut Bot, position: &Position, _limit_ms: u64) -> Option<Thought> {
    bot.think(position, None)
}

impl ThinkAnswer {
    /// The answer as bytes.
    pub fn to_bytes(self) -> Vec<u8> {
        postcard::to_allocvec(&self).expect("an answer always encodes")
    }

    /// Reads an answer (bounded, and its move checked to be a square).
    pub fn from_bytes(bytes: &[u8]) -> Result<ThinkAnswer, ThinkError> {
        decode::<ThinkAnswer>(bytes)?.checked(bytes.len())
    }

    /// The answer, if its move is a square (`len`: the bytes it came in).
    fn checked(self, len: usize) -> Result<ThinkAnswer, ThinkError> {
        match self.best {
            Some(m) if Square::new(m).is_none() => Err(ThinkError::Decode {
                len,
                reason: format!("square {m}"),
            }),
            _ => Ok(self),
        }
    }

    /// The search's result, if it found a move.
    pub fn thought(&self) -> Option<Thought> {
        Some(Thought {
            best: Square::new(self.best?)?,
            score: if self.exact {
                Score::Exact(self.score)
            } else {
                Score::Estimate(self.score)
            },
            depth: self.depth,
            nodes: self.nodes,
        })
    }
}

impl From<Option<Thought>> for ThinkAnswer {
    fn from(thought: Option<Thought>) -> ThinkAnswer {
        let (exact, score) = match thought.map(|t| t.score) {
            Some(Score::Exact(s)) => (true, s),
            Some(Score::Estimate(s)) => (false, s),
            None => (true, 0),
        };
        ThinkAnswer {
            best: thought.map(|t| t.best.index()),
            exact,
            score,
            depth: thought.map_or(0, |t| t.depth),
            nodes: thought.map_or(0, |t| t.nodes),
            played: None,
        }
    }
}

/// The worker's side: runs the job in `bytes` and returns the reply's
/// bytes (the answer, or why the job could not run).
#[cfg(any(test, target_arch = "wasm32"))]
pub fn serve(bytes: &[u8]) -> Vec<u8> {
    let reply: Result<ThinkAnswer, String> = ThinkJob::from_bytes(bytes)
        .and_then(|job| job.run())
        .map_err(|e| e.to_string());
    postcard::to_allocvec(&reply).expect("a reply always encodes")
}

/// The page's side: reads a reply of [`serve`].
#[cfg(any(test, target_arch = "wasm32"))]
pub fn read_reply(bytes: &[u8]) -> Result<ThinkAnswer, ThinkError> {
    let reply: Result<ThinkAnswer, String> = decode(bytes)?;
    reply
        .map_err(|said| ThinkError::Worker { said })?
        .checked(bytes.len())
}

fn decode<T: for<'a> Deserialize<'a>>(bytes: &[u8]) -> Result<T, ThinkError> {
    let error = |reason: String| ThinkError::Decode {
        len: bytes.len(),
        reason,
    };
    if bytes.len() > MAX_JOB_BYTES {
        return Err(error(format!("more than {MAX_JOB_BYTES} bytes")));
    }
    match postcard::take_from_bytes::<T>(bytes) {
        Ok((value, [])) => Ok(value),
        Ok((_, rest)) => Err(error(format!("{} bytes after the end", rest.len()))),
        Err(e) => Err(error(e.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Preset, parse_transcript};

    fn rules() -> Rules {
        Rules::preset(Preset::Othello)
    }

    #[test]
    fn a_job_crosses_as_bytes_and_runs_to_the_same_move_as_the_bot() {
        let moves = parse_transcript("f5d6c3d3c4").unwrap();
        let job = ThinkJob::new(
            &rules(),
            &moves,
            Task::Move {
                level: 3,
                seed: 7,
                limit_ms: 60_000,
                book: true,
            },
        );
        let back = ThinkJob::from_bytes(&job.to_bytes()).unwrap();
        assert_eq!(back, job);
        let answer = ThinkAnswer::from_bytes(&back.run().unwrap().to_bytes()).unwrap();
        let position = replay(&rules().start_position(), &moves).unwrap();
        let direct = Bot::new(3, 7).think(&position, None).unwrap();
        assert_eq!(answer.thought(), Some(direct));
    }

    #[test]
    fn a_move_job_plays_from_the_book_only_when_asked() {
        let job = |book| {
            ThinkJob::new(
                &rules(),
                &[],
                Task::Move {
                    level: 10,
                    seed: 1,
                    limit_ms: 200,
                    book,
                },
            )
            .run()
            .unwrap()
            .thought()
            .unwrap()
        };
        // A book move takes no search; without the book the start is searched.
        assert_eq!(job(true).nodes, 0);
        assert!(job(false).nodes > 0);
    }

    #[test]
    fn a_hint_and_a_finished_game_answer() {
        let job = ThinkJob::new(&rules(), &[], Task::Hint { nodes: 10_000 });
        let thought = job.run().unwrap().thought().unwrap();
        assert!(
            rules()
                .start_position()
                .legal_moves()
                .contains(thought.best)
        );
        // A finished game has no answer, and says so.
        let mut position = rules().start_position();
        let mut moves = Vec::new();
        let mut bot = Bot::new(1, 3);
        while let Some(square) = bot.choose(&position) {
            position = position.play(square).unwrap();
            moves.push(square);
        }
        assert!(position.outcome().is_some());
        let answer = ThinkJob::new(&rules(), &moves, Task::Hint { nodes: 10 })
            .run()
            .unwrap();
        assert_eq!(answer.best, None);
        assert_eq!(answer.thought(), None);
    }

    #[test]
    fn bad_jobs_are_named_and_never_run() {
        let illegal = ThinkJob::new(
            &rules(),
            &[Square::new(0).unwrap()],
            Task::Hint { nodes: 10 },
        );
        assert_eq!(illegal.run(), Err(ThinkError::Move { index: 0 }));
        let level = ThinkJob::new(
            &rules(),
            &[],
            Task::Move {
                level: 11,
                seed: 0,
                limit_ms: 1,
                book: true,
            },
        );
        assert_eq!(level.run(), Err(ThinkError::Level { found: 11 }));
        let bytes = ThinkJob::new(&rules(), &[], Task::Hint { nodes: 1 }).to_bytes();
        for cut in 0..bytes.len() {
            assert!(ThinkJob::from_bytes(&bytes[..cut]).is_err(), "cut at {cut}");
        }
        let mut long = bytes.clone();
        long.push(0);
        assert!(matches!(
            ThinkJob::from_bytes(&long),
            Err(ThinkError::Decode { .. })
        ));
        assert!(ThinkJob::from_bytes(&vec![1; MAX_JOB_BYTES + 1]).is_err());
        // The worker's replies, good and bad.
        let good = ThinkJob::new(&rules(), &[], Task::Hint { nodes: 1000 });
        assert_eq!(read_reply(&serve(&good.to_bytes())), good.run());
        assert!(matches!(
            read_reply(&serve(&illegal.to_bytes())),
            Err(ThinkError::Worker { said }) if said.contains("move 0")
        ));
        assert!(matches!(
            read_reply(&[0xff; 3]),
            Err(ThinkError::Decode { .. })
        ));
        let mut off_board = ThinkAnswer::from(None);
        off_board.best = Some(64);
        assert!(ThinkAnswer::from_bytes(&off_board.to_bytes()).is_err());
    }

    #[test]
    fn a_values_job_answers_as_the_analysis_does() {
        let rules = rules();
        let moves = crate::random_player::random_opening(&rules, 4, 46);
        let (before, played) = moves.split_at(45);
        let job = ThinkJob::new(
            &rules,
            before,
            Task::Values {
                depth: 3,
                exact_empties: 16,
                played: played[0].index(),
            },
        );
        let answer = read_reply(&serve(&job.to_bytes())).unwrap();
        let position = replay(&rules.start_position(), before).unwrap();
        let limits = crate::search::Limits {
            depth: 3,
            exact_empties: 16,
            ..crate::search::Limits::analysis(0)
        };
        let direct = crate::analysis::analyze(
            &mut crate::search::Searcher::new(18),
            &position,
            played,
            &limits,
            None,
            &mut |_, _| {},
        )
        .unwrap();
        let m = direct.moves[0];
        assert_eq!(answer.best, Some(m.best.index()));
        assert_eq!(answer.thought().unwrap().score, m.best_score);
        let Score::Exact(v) = m.score else {
            panic!("15 empties are exact")
        };
        assert_eq!(answer.played, Some((true, v)));
        // A move that is not legal there, or a depth out of range, is refused.
        let bad = |task| ThinkJob::new(&rules, before, task).run();
        let illegal = position.empty().squares().find(|&s| !position.is_legal(s));
        assert_eq!(
            bad(Task::Values {
                depth: 3,
                exact_empties: 16,
                played: illegal.unwrap().index()
            }),
            Err(ThinkError::Move { index: 45 })
        );
        assert!(matches!(
            bad(Task::Values {
                depth: 0,
                exact_empties: 16,
                played: played[0].index()
            }),
            Err(ThinkError::Depth { .. })
        ));
    }
}
