//! The computer player: ten levels over one search (see [`crate::search`]).
//!
//! A level fixes the search depth, how many empties are solved exactly, a
//! node budget, and how much seeded noise spoils its judgement. Given the
//! game seed, a level always plays the same move in the same position (the
//! tables are cleared before every move), so a game against the bot can be
//! replayed exactly — on one thread, as [`Bot::new`] makes it. The
//! front-ends' bots ([`Bot::for_play`]) think on every core at the two
//! strongest levels, where a deeper search in the same time matters more
//! than replaying a game move for move. A time limit ([`Bot::choose_within`]) only ever cuts
//! the search short; the node budgets are set so that it rarely does.
//! [`Bot::think_for`] instead spends the time, the budgets lifted: the
//! desktop client's level 10 and `reversi nboard --use-time` think so.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::engine::{Position, Square, Topology};
#[cfg(not(target_arch = "wasm32"))]
use crate::search::Stops;
use crate::search::board::Board;
use crate::search::{Limits, Score, Searcher, Thought};

/// The weakest and strongest levels.
pub const LEVELS: std::ops::RangeInclusive<u8> = 1..=10;

/// The weakest level [`Bot::for_play`] runs on every core.
pub const PARALLEL_LEVEL: u8 = 9;

/// The weakest level that plays from the opening book
/// ([`crate::search::book`]) while the game is in it.
pub const BOOK_LEVEL: u8 = 8;

/// The default time limit per move of the strongest level in the client.
pub const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(1);

/// What one level does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LevelSpec {
    /// 1–10.
    pub level: u8,
    /// Its name for people.
    pub name: &'static str,
    /// Deepest midgame iteration.
    pub depth: u32,
    /// Solve exactly from this many empties.
    pub exact_empties: u32,
    /// Midgame node budget per move.
    pub nodes: u64,
    /// Exact-solve node budget per move.
    pub solve_nodes: u64,
    /// Noise on each root move's value, in hundredths of a disc.
    pub noise: i32,
    /// Transposition table size (log2 of entries).
    pub table_bits: u32,
}

#[allow(clippy::too_many_arguments)]
const fn spec(
    level: u8,
    name: &'static str,
    depth: u32,
    exact_empties: u32,
    nodes: u64,
    solve_nodes: u64,
    noise: i32,
    table_bits: u32,
) -> LevelSpec {
    LevelSpec {
        level,
        name,
        depth,
        exact_empties,
        nodes,
        solve_nodes,
        noise,
        table_bits,
    }
}

impl LevelSpec {
    /// The search limits of this level, its noise following `seed`.
    pub fn limits(&self, seed: u64) -> Limits {
        Limits {
            depth: self.depth,
            exact_empties: self.exact_empties,
            nodes: self.nodes,
            solve_nodes: self.solve_nodes,
            noise: self.noise,
            seed,
            selectivity: crate::search::probcut::SELECTIVITY,
        }
    }
}

/// The ten levels, weakest first.
pub const LEVEL_SPECS: [LevelSpec; 10] = [
    spec(1, "Novice", 1, 0, 10_000, 10_000, 1_500, 10),
    spec(2, "Beginner", 1, 4, 10_000, 10_000, 600, 10),
    spec(3, "Casual", 2, 6, 50_000, 50_000, 300, 12),
    spec(4, "Club player", 3, 8, 100_000, 100_000, 120, 14),
    spec(5, "Intermediate", 4, 10, 200_000, 200_000, 40, 16),
    spec(6, "Advanced", 6, 12, 500_000, 1_000_000, 0, 18),
    spec(7, "Expert", 8, 14, 1_000_000, 3_000_000, 0, 19),
    spec(8, "Master", 10, 16, 2_000_000, 8_000_000, 0, 20),
    spec(9, "Grandmaster", 12, 18, 3_000_000, 12_000_000, 0, 20),
    spec(10, "Champion", 60, 20, 5_000_000, 20_000_000, 0, 21),
];

/// The description of a level (clamped to 1–10).
pub fn level_spec(level: u8) -> &'static LevelSpec {
    let clamped = level.clamp(*LEVELS.start(), *LEVELS.end());
    &LEVEL_SPECS[usize::from(clamped - 1)]
}

/// A computer player of a given level.
pub struct Bot {
    spec: LevelSpec,
    seed: u64,
    searcher: Searcher,
    /// Whether to play book moves (levels from [`BOOK_LEVEL`] only).
    book: bool,
}

impl std::fmt::Debug for Bot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Bot")
            .field("level", &self.spec.level)
            .field("seed", &self.seed)
            .field("book", &self.book)
            .finish()
    }
}

impl Bot {
    /// A bot of `level` (clamped to 1–10) whose noise follows `seed`,
    /// without the opening book.
    pub fn new(level: u8, seed: u64) -> Bot {
        let spec = *level_spec(level);
        Bot {
            spec,
            seed,
            searcher: Searcher::new(spec.table_bits),
            book: false,
        }
    }

    /// A bot of `level` as the game's front-ends use it: levels 9 and 10
    /// think on every core ([`Bot::set_threads`]), and levels 8–10 play
    /// from the opening book ([`Bot::set_book`]).
    pub fn for_play(level: u8, seed: u64) -> Bot {
        let mut bot = Bot::new(level, seed);
        if bot.spec.level >= PARALLEL_LEVEL {
            bot.set_threads(crate::search::all_cores());
        }
        bot.set_book(true);
        bot
    }

    /// Plays book moves while the game is in the opening book, if `on` and
    /// the level is [`BOOK_LEVEL`] or stronger; searches every move
    /// otherwise (`--no-book`).
    pub fn set_book(&mut self, on: bool) {
        self.book = on && self.spec.level >= BOOK_LEVEL;
    }

    /// Whether this bot plays book moves.
    pub fn uses_book(&self) -> bool {
        self.book
    }

    /// Thinks on `threads` threads from now on (see
    /// [`Searcher::set_threads`]): deeper in the same time, but no longer
    /// the same move every time.
    pub fn set_threads(&mut self, threads: usize) {
        self.searcher.set_threads(threads);
    }

    /// The threads this bot thinks on.
    pub fn threads(&self) -> usize {
        self.searcher.threads()
    }

    /// The level's description.
    pub fn spec(&self) -> &LevelSpec {
        &self.spec
    }

    /// The search limits of this bot.
    pub fn limits(&self) -> Limits {
        self.spec.limits(self.seed)
    }

    /// The move for the side to move, or `None` when the game is over.
    pub fn choose(&mut self, position: &Position) -> Option<Square> {
        self.think(position, None).map(|t| t.best)
    }

    /// The move with its score and search statistics; `cancel` stops the
    /// search early (the deepest finished iteration's move is returned, or
    /// one the unfinished iteration had already proved better).
    pub fn think(
        &mut self,
        position: &Position,
        cancel: Option<Arc<AtomicBool>>,
    ) -> Option<Thought> {
        if self.book
            && let Some(thought) = book_move(position)
        {
            return Some(thought);
        }
        self.searcher.clear();
        self.searcher.think(position, &self.limits(), cancel)
    }

    /// Like [`think`](Self::think), stopping after `limit` at the latest
    /// (a timer thread: native only; the browser bounds a search by its
    /// node budget).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn choose_within(&mut self, position: &Position, limit: Duration) -> Option<Thought> {
        timed(limit, limit, |stops| {
            self.think(position, stops.now.clone())
        })
    }

    /// Spends up to `limit` on the move instead of the level's node
    /// budgets: no iteration of the search starts after half of it, and
    /// an exact solve may run to its end (see [`Stops`]). Deeper where the
    /// machine is faster, so not the same move every time.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn think_for(&mut self, position: &Position, limit: Duration) -> Option<Thought> {
        if self.book
            && let Some(thought) = book_move(position)
        {
            return Some(thought);
        }
        let limits = self.limits().without_budgets();
        // The tables are kept from the last move: they only help, and this
        // search was never going to repeat itself.
        timed(limit, wind_down_after(limit), |stops| {
            self.searcher.think_until(position, &limits, stops)
        })
    }
}

/// When a search that spends `limit` starts no further iteration: at half
/// of it, as an iteration costs two to three times the one before, so
/// one started later would most likely be cut short.
pub fn wind_down_after(limit: Duration) -> Duration {
    limit / 2
}

/// Runs `search` with a timer thread that winds it down after
/// `wind_down` and stops it after `limit`, and returns at once when the
/// search finishes first.
#[cfg(not(target_arch = "wasm32"))]
fn timed<T>(limit: Duration, wind_down: Duration, search: impl FnOnce(&Stops) -> T) -> T {
    use std::sync::atomic::Ordering;
    use std::sync::mpsc::RecvTimeoutError;
    let (winding, stopping) = (
        Arc::new(AtomicBool::new(false)),
        Arc::new(AtomicBool::new(false)),
    );
    let stops = Stops {
        now: Some(Arc::clone(&stopping)),
        wind_down: Some(Arc::clone(&winding)),
    };
    let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
    let timer = std::thread::spawn(move || {
        let started = std::time::Instant::now();
        for (at, flag) in [(wind_down, winding), (limit, stopping)] {
            let wait = at.saturating_sub(started.elapsed());
            match done_rx.recv_timeout(wait) {
                Err(RecvTimeoutError::Timeout) => flag.store(true, Ordering::Relaxed),
                // The search finished (its sender dropped).
                _ => return,
            }
        }
    });
    let result = search(&stops);
    drop(done_tx);
    let _ = timer.join();
    result
}

/// The opening book's move in `position`, as a thought of no search (depth
/// and nodes 0); `None` off the plain board or out of the book.
pub(crate) fn book_move(position: &Position) -> Option<Thought> {
    if position.options().topology != Topology::Plane {
        return None;
    }
    let board = Board::from_position(position)?;
    let chosen = crate::search::book::book()?.choose(&board)?;
    Some(Thought {
        best: Square::new(chosen.square)?,
        score: Score::Estimate(chosen.value),
        depth: 0,
        nodes: 0,
    })
}

#[cfg(not(target_arch = "wasm32"))]
/// Where a thinking bot hands itself back with its answer.
type Answer = std::sync::mpsc::Receiver<(Bot, Option<Square>)>;

#[cfg(not(target_arch = "wasm32"))]
/// A bot that thinks on a background thread at a lower priority
/// (`crate::background`), so whoever polls it (a network loop, a
/// window) keeps running meanwhile.
#[derive(Debug)]
pub struct BackgroundBot {
    level: u8,
    seed: u64,
    threads: usize,
    book: bool,
    /// The bot, while it is not thinking.
    bot: Option<Bot>,
    /// The position being thought about and where the answer will arrive.
    thinking: Option<(Position, Answer)>,
}

#[cfg(not(target_arch = "wasm32"))]
impl BackgroundBot {
    /// Wraps `bot`.
    pub fn new(bot: Bot) -> BackgroundBot {
        BackgroundBot {
            level: bot.spec().level,
            seed: bot.seed,
            threads: bot.threads(),
            book: bot.uses_book(),
            bot: Some(bot),
            thinking: None,
        }
    }

    /// A bot like the one wrapped, for when that one was lost with its thread.
    fn fresh_bot(&self) -> Bot {
        let mut bot = Bot::new(self.level, self.seed);
        bot.set_threads(self.threads);
        bot.set_book(self.book);
        bot
    }

    /// The bot's move in `position` once it has thought about it; `None`
    /// while it thinks (the first call starts the thinking). An answer for
    /// a position that is no longer current is dropped.
    pub fn poll(&mut self, position: &Position) -> Option<Square> {
        if let Some((asked, rx)) = &self.thinking {
            let (bot, answer) = match rx.try_recv() {
                Ok(done) => done,
                Err(std::sync::mpsc::TryRecvError::Empty) => return None,
                Err(std::sync::mpsc::TryRecvError::Disconnected) => {
                    // The thread died: think again with a fresh bot.
                    self.thinking = None;
                    self.bot = Some(self.fresh_bot());
                    return None;
                }
            };
            let asked = *asked;
            self.thinking = None;
            self.bot = Some(bot);
            if asked == *position {
                return answer;
            }
        }
        let mut bot = self.bot.take()?;
        let (tx, rx) = std::sync::mpsc::channel();
        let mine = *position;
        let spawned = crate::background::spawn("reversi-bot", move || {
            let answer = bot.choose(&mine);
            let _ = tx.send((bot, answer));
        });
        match spawned {
            Ok(_) => self.thinking = Some((*position, rx)),
            // No thread to be had: try again on the next poll.
            Err(_) => self.bot = Some(self.fresh_bot()),
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Color, Rules};

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
    fn a_searching_bot_beats_the_novice() {
        let mut wins = 0;
        for seed in 0..4 {
            if play_match(5, 1, seed) == Some(Color::Black) {
                wins += 1;
            }
            if play_match(1, 5, seed) == Some(Color::White) {
                wins += 1;
            }
        }
        assert!(wins >= 7, "level 5 won only {wins} of 8 against level 1");
    }

    #[test]
    fn the_same_seed_and_level_choose_the_same_moves() {
        let mut position = Rules::default().start_position();
        for _ in 0..12 {
            for level in [1, 4, 7] {
                let a = Bot::new(level, 9).choose(&position);
                // A bot that has already searched other positions agrees.
                let mut used = Bot::new(level, 9);
                used.choose(&Rules::default().start_position());
                assert_eq!(a, used.choose(&position), "level {level}");
            }
            let mv = Bot::new(3, 1).choose(&position).unwrap();
            position = position.play(mv).unwrap();
        }
    }

    #[test]
    fn levels_have_distinct_names_and_grow_stronger() {
        for pair in LEVEL_SPECS.windows(2) {
            assert_ne!(pair[0].name, pair[1].name);
            assert!(pair[0].nodes <= pair[1].nodes);
            assert!(pair[0].solve_nodes <= pair[1].solve_nodes);
            assert!(pair[0].exact_empties <= pair[1].exact_empties);
            assert!(pair[0].noise >= pair[1].noise);
            assert!(pair[0].depth <= pair[1].depth);
        }
        assert_eq!(level_spec(0).level, 1);
        assert_eq!(level_spec(99).level, 10);
    }

    #[test]
    fn a_background_bot_answers_what_the_same_bot_would_and_drops_stale_answers() {
        let start = Rules::default().start_position();
        let mut background = BackgroundBot::new(Bot::new(3, 5));
        let answer = loop {
            if let Some(square) = background.poll(&start) {
                break square;
            }
            std::thread::sleep(Duration::from_millis(1));
        };
        assert_eq!(Some(answer), Bot::new(3, 5).choose(&start));
        // An answer that arrives for a position no longer current is not played.
        let next = start.play(answer).unwrap();
        assert_eq!(
            background.poll(&start),
            None,
            "thinking again about the start"
        );
        std::thread::sleep(Duration::from_millis(200));
        let reply = loop {
            if let Some(square) = background.poll(&next) {
                break square;
            }
            std::thread::sleep(Duration::from_millis(1));
        };
        assert!(next.is_legal(reply));
    }

    #[test]
    fn levels_8_to_10_open_from_the_book_in_play_and_never_unasked() {
        let start = Rules::default().start_position();
        for level in LEVELS {
            assert!(!Bot::new(level, 1).uses_book(), "level {level}");
            let mut played = Bot::for_play(level, 1);
            assert_eq!(played.uses_book(), level >= BOOK_LEVEL, "level {level}");
            played.set_book(false);
            assert!(!played.uses_book(), "level {level} with --no-book");
        }
        // The book's first move comes without a search, with the value the
        // book gives it.
        let thought = Bot::for_play(10, 1).think(&start, None).unwrap();
        assert_eq!((thought.depth, thought.nodes), (0, 0));
        let board = Board::from_position(&start).unwrap();
        let chosen = crate::search::book::book().unwrap().choose(&board).unwrap();
        assert_eq!(thought.best.index(), chosen.square);
        assert_eq!(thought.score, Score::Estimate(chosen.value));
        // Not on the torus, whose start is the same discs.
        let torus = crate::engine::Rules::from_options(crate::engine::RuleOptions {
            topology: Topology::Torus,
            ..Default::default()
        })
        .unwrap()
        .start_position();
        assert_eq!(book_move(&torus), None);
    }

    #[test]
    fn the_book_is_left_when_the_game_leaves_it() {
        // From the start, the book's own line: a book move at every ply
        // until the first position with none, which comes within the
        // book's 14 plies, and not before a few.
        let mut position = Rules::default().start_position();
        let mut in_book = 0;
        while let Some(thought) = book_move(&position) {
            position = position.play(thought.best).unwrap();
            in_book += 1;
            assert!(in_book <= 14, "a book line {in_book} plies deep");
        }
        assert!(in_book >= 4, "the book's main line is {in_book} plies");
    }

    #[test]
    fn a_cancelled_search_still_answers_with_a_legal_move() {
        let position = Rules::default().start_position();
        let mut bot = Bot::new(10, 0);
        let thought = bot.choose_within(&position, Duration::ZERO).unwrap();
        assert!(position.is_legal(thought.best));
    }

    #[test]
    fn the_timer_winds_a_search_down_before_it_stops_it_and_never_outlives_it() {
        use std::sync::atomic::Ordering;
        let set = |flag: &Option<Arc<AtomicBool>>| flag.as_ref().unwrap().load(Ordering::Relaxed);
        let order = timed(
            Duration::from_millis(300),
            Duration::from_millis(100),
            |stops| {
                let mut seen = Vec::new();
                while !set(&stops.now) {
                    if set(&stops.wind_down) && seen.is_empty() {
                        seen.push("wind down");
                    }
                    std::thread::sleep(Duration::from_millis(1));
                }
                seen.push("stop");
                seen
            },
        );
        assert_eq!(order, ["wind down", "stop"]);
        // A search that finishes first is not held for the hour.
        let started = std::time::Instant::now();
        assert_eq!(
            timed(
                Duration::from_secs(3_600),
                Duration::from_secs(1_800),
                |_| 7
            ),
            7
        );
        assert!(started.elapsed() < Duration::from_secs(60));
    }

    #[test]
    fn a_bot_spending_its_time_answers_with_a_legal_searched_move() {
        let position = Rules::default().start_position();
        // Without the book the start is searched, its budgets lifted.
        let mut bot = Bot::new(10, 0);
        let thought = bot
            .think_for(&position, Duration::from_millis(200))
            .unwrap();
        assert!(position.is_legal(thought.best));
        assert!(thought.nodes > 0 && thought.depth >= 1, "{thought:?}");
        // With it, the book answers at once.
        bot.set_book(true);
        assert_eq!(
            bot.think_for(&position, Duration::from_secs(3_600))
                .unwrap()
                .nodes,
            0
        );
    }
}
