//! A game against the computer on this machine. The bot thinks away from
//! the window (a background thread, or the browser's search worker: see
//! [`crate::platform::think`]); the window polls for its answer and never
//! waits.

use std::sync::mpsc;
use std::time::Duration;

use super::game_screen::Notice;
use crate::bot::DEFAULT_MOVE_TIME;
use crate::engine::{Bitboard, Color, Ending, Outcome, PlayError, Position, Rules, Square};
use crate::platform::{Instant, Thinking, think};
use crate::search::Thought;
use crate::thinking::{Task, ThinkJob};

/// A local game.
pub struct LocalGame {
    /// The rules the game is played under.
    pub rules: Rules,
    /// The position now.
    pub position: Position,
    /// Moves so far.
    pub moves: Vec<Square>,
    /// The person's colour.
    pub human: Color,
    /// The bot's level.
    pub level: u8,
    seed: u64,
    thinking: Option<Thinking>,
    /// Things to tell the player (passes, empty supplies), newest last.
    pub notices: Vec<Notice>,
    /// The discs the last move turned, and when.
    pub flipped: Option<(Bitboard, Instant)>,
    resigned: Option<Color>,
    hinting: Option<Thinking>,
    /// The latest hint and the number of moves played when it was asked.
    pub hint: Option<(usize, Thought)>,
    /// The longest the computer thinks per move.
    pub move_time: std::time::Duration,
    /// Whether levels 8–10 play from the opening book.
    pub book: bool,
    /// Why the computer could not think (it then stops trying).
    pub failure: Option<String>,
    /// The computer's answer, held until the person has seen their own
    /// move (see [`poll_bot`](Self::poll_bot)).
    reply: Option<Square>,
}

/// Nodes a hint may search (about a quarter of a second).
const HINT_NODES: u64 = 4_000_000;

impl LocalGame {
    /// A new game; the bot moves first if the person plays White.
    pub fn new(rules: Rules, human: Color, level: u8, seed: u64) -> LocalGame {
        LocalGame {
            rules,
            position: rules.start_position(),
            moves: Vec::new(),
            human,
            level,
            seed,
            thinking: None,
            notices: Vec::new(),
            flipped: None,
            resigned: None,
            hinting: None,
            hint: None,
            move_time: DEFAULT_MOVE_TIME,
            book: true,
            failure: None,
            reply: None,
        }
    }

    /// The result, once the board is finished or someone resigned.
    pub fn outcome(&self) -> Option<Outcome> {
        match self.resigned {
            Some(color) => Some(
                self.position
                    .outcome_with(Ending::Resignation { resigned: color }),
            ),
            None => self.position.outcome(),
        }
    }

    /// Whether the person may move now.
    pub fn human_to_move(&self) -> bool {
        self.resigned.is_none() && self.position.to_move() == Some(self.human)
    }

    /// Whether the bot is thinking (or holding its answer back).
    pub fn bot_thinking(&self) -> bool {
        self.thinking.is_some() || self.reply.is_some()
    }

    /// The last move played.
    pub fn last_move(&self) -> Option<Square> {
        self.moves.last().copied()
    }

    fn apply(&mut self, square: Square) -> Result<(), PlayError> {
        let report = self.position.play_with_report(square)?;
        self.position = report.position;
        self.moves.push(square);
        self.flipped = Some((report.flipped, Instant::now()));
        if let Some(skipped) = report.skipped {
            self.notices.push(Notice::Skipped {
                who: Some(skipped == self.human),
                color: skipped,
                no_discs: self.position.supply(skipped) == Some(0),
            });
        }
        Ok(())
    }

    /// Replays a move from a saved game, whoever made it.
    pub fn replay_move(&mut self, square: Square) {
        let _ = self.apply(square);
        self.flipped = None;
    }

    /// The person plays `square` (only on their turn and only if legal).
    pub fn play(&mut self, square: Square) -> Result<(), PlayError> {
        if !self.human_to_move() {
            return Err(PlayError::GameOver);
        }
        self.apply(square)
    }

    /// The person resigns.
    pub fn resign(&mut self) {
        if self.outcome().is_none() {
            self.resigned = Some(self.human);
        }
    }

    /// Asks the search for the best move for the person; the answer
    /// arrives through [`poll_bot`](Self::poll_bot). `wake` is called when
    /// it is ready.
    pub fn request_hint(&mut self, wake: impl Fn() + Send + 'static) {
        if self.hinting.is_some() || !self.human_to_move() {
            return;
        }
        let job = ThinkJob::new(&self.rules, &self.moves, Task::Hint { nodes: HINT_NODES });
        self.hinting = Some(think(job, wake));
    }

    /// Whether a hint is being computed.
    pub fn hint_pending(&self) -> bool {
        self.hinting.is_some()
    }

    /// The hint for the current position, if one was asked for.
    pub fn current_hint(&self) -> Option<&Thought> {
        self.hint
            .as_ref()
            .filter(|(moves, _)| *moves == self.moves.len())
            .map(|(_, t)| t)
    }

    /// Starts the bot when it is its turn and plays its answer when ready,
    /// but no sooner than `hold` after the move before it was played (so
    /// the person sees what their move did before the reply lands).
    /// `wake` is called from the bot's thread when it has answered. The
    /// time until a held answer is due, if one is held.
    pub fn poll_bot(
        &mut self,
        wake: impl Fn() + Send + 'static,
        hold: Duration,
    ) -> Option<Duration> {
        if self.resigned.is_some() {
            return None;
        }
        if let Some(rx) = &self.hinting {
            match rx.try_recv() {
                Ok(answer) => {
                    self.hinting = None;
                    self.hint = answer
                        .ok()
                        .and_then(|a| a.thought())
                        .map(|t| (self.moves.len(), t));
                }
                Err(mpsc::TryRecvError::Disconnected) => self.hinting = None,
                Err(mpsc::TryRecvError::Empty) => {}
            }
        }
        if let Some(rx) = &self.thinking {
            match rx.try_recv() {
                Ok(Ok(answer)) => {
                    self.thinking = None;
                    self.reply = answer.thought().map(|t| t.best);
                }
                Ok(Err(e)) => {
                    self.thinking = None;
                    self.failure = Some(e.to_string());
                }
                Err(mpsc::TryRecvError::Disconnected) => self.thinking = None,
                Err(mpsc::TryRecvError::Empty) => {}
            }
        }
        if let Some(square) = self.reply {
            let shown = self.flipped.map_or(Duration::MAX, |(_, at)| at.elapsed());
            if shown < hold {
                return Some(hold - shown);
            }
            self.reply = None;
            let _ = self.apply(square);
            return None;
        }
        if self.thinking.is_none()
            && self.failure.is_none()
            && self.position.to_move() == Some(!self.human)
        {
            let job = ThinkJob::new(
                &self.rules,
                &self.moves,
                Task::Move {
                    level: self.level,
                    seed: self.seed.wrapping_add(self.moves.len() as u64),
                    limit_ms: self.move_time.as_millis() as u64,
                    book: self.book,
                },
            );
            self.thinking = Some(think(job, wake));
        }
        None
    }
}
