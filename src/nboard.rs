//! The NBoard protocol (version 2): the engine as other programs use it —
//! the NBoard GUI and engine-versus-engine tools.
//!
//! The protocol is line-based text. From the GUI: `nboard 2`, `set depth N`,
//! `set game GGF`, `set contempt N`, `move SQ[/eval/time]` (`PA` for a
//! pass), `hint N`, `go`, `ping N`, `learn`, `quit`. To the GUI: `set myname`,
//! `pong N`, `status TEXT`, `search PV EVAL 0 DEPTH` (one per hinted move),
//! `nodestats NODES SECONDS`, `=== SQ/EVAL/SECONDS` and `learned`. Evals are
//! in discs for the side to move; a depth of `100%` means an exact score.
//! Lines the engine does not understand are ignored, as the protocol asks
//! (a malformed line of a known command answers with a `status`).
//!
//! This module is the protocol without I/O: [`NboardEngine::handle`] turns
//! a line into replies or a [`SearchJob`], which the caller runs (on a
//! thread, so a `ping` can cancel it) and whose [`SearchAnswer`] it prints.

use std::time::Duration;

use crate::engine::{Color, GgfError, Position, Rules, Square, parse_ggf};
use crate::search::move_values::MoveValue;
use crate::search::{Limits, Score, Searcher, Stops};

/// The name the engine gives itself.
pub const ENGINE_NAME: &str = "Reversi";
/// The deepest midgame depth accepted by `set depth`.
pub const MAX_DEPTH: u32 = 60;
/// Empties from which a search of depth `depth` solves exactly.
pub fn exact_empties(depth: u32) -> u32 {
    (depth * 3 / 2 + 2).min(24)
}

/// The game the GUI has told the engine about.
#[derive(Debug, Clone)]
struct Game {
    position: Position,
    /// The side the GUI expects to play next: it differs from the
    /// position's side to move when that side must pass.
    next: Color,
}

/// What a line asks of the caller.
#[derive(Debug)]
pub enum Request {
    /// Print these lines (perhaps none).
    Reply(Vec<String>),
    /// Run this search, then print its answer.
    Search(SearchJob),
    /// End the session.
    Quit,
}

/// The protocol's state: the game, the depth and the contempt, and how
/// searches are limited.
#[derive(Debug, Clone)]
pub struct NboardEngine {
    game: Option<Game>,
    depth: u32,
    contempt: i32,
    /// Search as this computer player's level instead of to `depth`.
    level: Option<u8>,
    /// Multi-ProbCut's threshold (see [`Limits::selectivity`]).
    selectivity: u32,
    /// Whether a level from [`crate::bot::BOOK_LEVEL`] plays book moves.
    book: bool,
    /// Whether `go` searches without node budgets, its caller's clock
    /// stopping it.
    clock_bound: bool,
}

impl Default for NboardEngine {
    fn default() -> Self {
        NboardEngine::new()
    }
}

/// What a search is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SearchKind {
    /// `go`: the move to play.
    Go,
    /// `hint N`: the values of the best N moves.
    Hint(usize),
}

/// A search the GUI asked for, ready to run.
#[derive(Debug, Clone)]
pub struct SearchJob {
    kind: SearchKind,
    position: Position,
    limits: Limits,
    contempt: i32,
    /// Whether `go` takes the opening book's move when there is one.
    book: bool,
    /// Whether `go` searches without node budgets (see
    /// [`NboardEngine::bind_to_clock`]).
    clock_bound: bool,
}

/// A finished (or cancelled) search.
#[derive(Debug, Clone)]
pub struct SearchAnswer {
    kind: SearchKind,
    /// The moves valued, best first (one for `go`).
    pub moves: Vec<MoveValue>,
    /// Nodes searched.
    pub nodes: u64,
}

impl NboardEngine {
    /// A session before `nboard`: the standard start, depth 12, no contempt.
    pub fn new() -> NboardEngine {
        let position = Rules::default().start_position();
        NboardEngine {
            game: Some(Game {
                position,
                next: Color::Black,
            }),
            depth: 12,
            contempt: 0,
            level: None,
            selectivity: crate::search::probcut::SELECTIVITY,
            book: false,
            clock_bound: false,
        }
    }

    /// Whether `go` plays the opening book's move while the game is in the
    /// book, when searching as a level from [`crate::bot::BOOK_LEVEL`]
    /// (off until this is called; `reversi nboard` turns it on unless
    /// given `--no-book`).
    pub fn use_book(&mut self, on: bool) {
        self.book = on;
    }

    /// Whether `go` spends the caller's time instead of the level's node
    /// budgets: its search then has no node limit (the depth still
    /// bounds it), and whoever runs the job stops it through
    /// [`Stops`]. Hints keep the budgets: they search every move in turn.
    pub fn bind_to_clock(&mut self, on: bool) {
        self.clock_bound = on;
    }

    /// Searches from now on as the computer player's `level` does (its
    /// depth, exact empties and node budgets; see [`crate::bot`]), not to
    /// the depth the GUI sets.
    pub fn play_as_level(&mut self, level: u8) {
        self.level = Some(level);
    }

    /// Sets Multi-ProbCut's threshold for the searches from now on
    /// (hundredths of a standard error; 0: every move searched fully).
    pub fn set_selectivity(&mut self, selectivity: u32) {
        self.selectivity = selectivity;
    }

    /// The limits of the next search.
    fn limits(&self) -> Limits {
        let limits = match self.level {
            Some(level) => crate::bot::level_spec(level).limits(0),
            None => Limits {
                exact_empties: exact_empties(self.depth),
                ..Limits::midgame_only(self.depth, 0)
            },
        };
        Limits {
            selectivity: self.selectivity,
            ..limits
        }
    }

    /// The position the next command relates to (`None` after a `set game`
    /// that could not be read).
    #[cfg(test)]
    pub fn position(&self) -> Option<&Position> {
        self.game.as_ref().map(|g| &g.position)
    }

    /// The midgame search depth `set depth` gave (12 until it is set).
    #[cfg(test)]
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// Handles one line from the GUI.
    pub fn handle(&mut self, line: &str) -> Request {
        let line = line.trim();
        let (command, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        let reply = |lines: Vec<String>| Request::Reply(lines);
        match command {
            "nboard" => reply(vec![format!("set myname {ENGINE_NAME}")]),
            "ping" => reply(vec![format!("pong {rest}")]),
            "quit" => Request::Quit,
            "learn" => reply(vec!["learned".into()]),
            "set" => {
                let (what, value) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
                reply(self.set(what, value.trim()))
            }
            "move" => reply(self.play(rest)),
            "go" => self.search(SearchKind::Go),
            "hint" => match rest.parse::<usize>() {
                Ok(n) if n >= 1 => self.search(SearchKind::Hint(n.min(64))),
                _ => reply(vec![format!(
                    "status hint: expected a number of moves, found {rest:?}"
                )]),
            },
            _ => reply(Vec::new()),
        }
    }

    fn set(&mut self, what: &str, value: &str) -> Vec<String> {
        match what {
            "depth" => match value.parse::<u32>() {
                Ok(d) if (1..=MAX_DEPTH).contains(&d) => {
                    self.depth = d;
                    Vec::new()
                }
                _ => vec![format!(
                    "status set depth: expected 1–{MAX_DEPTH}, found {value:?}"
                )],
            },
            "contempt" => match value.parse::<i32>() {
                Ok(c) if c.abs() <= 6400 => {
                    self.contempt = c;
                    Vec::new()
                }
                _ => vec![format!(
                    "status set contempt: expected centidiscs, found {value:?}"
                )],
            },
            "game" => match read_game(value) {
                Ok(game) => {
                    self.game = Some(game);
                    Vec::new()
                }
                Err(e) => {
                    // Nothing relates to a game we could not read: `go` and
                    // `hint` say so until the next good `set game`.
                    self.game = None;
                    vec![format!("status set game: {e}")]
                }
            },
            _ => Vec::new(),
        }
    }

    fn play(&mut self, text: &str) -> Vec<String> {
        let Some(game) = self.game.as_mut() else {
            return vec!["status move: no game (set game first)".into()];
        };
        let word = text.split('/').next().unwrap_or("").trim();
        let to_move = game.position.to_move();
        if word.eq_ignore_ascii_case("PA") {
            if to_move == Some(game.next) {
                return vec![format!("status move PA: {} has a legal move", game.next)];
            }
            game.next = !game.next;
            return Vec::new();
        }
        let square: Square = match word.parse() {
            Ok(sq) => sq,
            Err(e) => return vec![format!("status move: {e}")],
        };
        if to_move != Some(game.next) {
            return vec![format!("status move {square}: {} must pass", game.next)];
        }
        match game.position.play(square) {
            Ok(next) => {
                game.position = next;
                game.next = !game.next;
                Vec::new()
            }
            Err(e) => vec![format!("status move {square}: {e}")],
        }
    }

    fn search(&self, kind: SearchKind) -> Request {
        let Some(game) = &self.game else {
            return Request::Reply(vec!["status no game (set game first)".into()]);
        };
        if game.position.is_over() {
            return Request::Reply(vec!["status the game is over".into()]);
        }
        if game.position.to_move() != Some(game.next) {
            // The side the GUI asks about has no move.
            return match kind {
                SearchKind::Go => Request::Reply(vec!["=== PA".into()]),
                SearchKind::Hint(_) => {
                    Request::Reply(vec!["search PA 0.00 0 100%".into(), "status".into()])
                }
            };
        }
        Request::Search(SearchJob {
            kind,
            position: game.position,
            limits: self.limits(),
            contempt: self.contempt,
            book: self.book && self.level.is_some_and(|l| l >= crate::bot::BOOK_LEVEL),
            clock_bound: self.clock_bound,
        })
    }
}

fn read_game(ggf: &str) -> Result<Game, GgfError> {
    let game = parse_ggf(ggf)?;
    Ok(Game {
        position: game.position,
        next: game.next,
    })
}

impl SearchJob {
    /// The line to show while it runs.
    pub fn status(&self) -> String {
        match self.kind {
            SearchKind::Go => format!("status {ENGINE_NAME} is thinking"),
            SearchKind::Hint(_) => format!("status {ENGINE_NAME} is analysing"),
        }
    }

    /// The limits the search runs with: the node budgets lifted for a
    /// clock-bound `go`.
    fn search_limits(&self) -> Limits {
        if self.clock_bound && self.kind == SearchKind::Go {
            self.limits.without_budgets()
        } else {
            self.limits.clone()
        }
    }

    /// Runs the search; `stops` ends it early (the answer then holds
    /// what was finished).
    pub fn run(&self, searcher: &mut Searcher, stops: &Stops) -> SearchAnswer {
        let every_move = match self.kind {
            SearchKind::Hint(n) => n > 1,
            // With contempt, draws weigh differently: every move is valued.
            SearchKind::Go => self.contempt != 0,
        };
        let mut answer = SearchAnswer {
            kind: self.kind,
            moves: Vec::new(),
            nodes: 0,
        };
        if !every_move {
            let book = if self.book && self.kind == SearchKind::Go {
                crate::bot::book_move(&self.position)
            } else {
                None
            };
            let limits = self.search_limits();
            if let Some(t) = book.or_else(|| searcher.think_until(&self.position, &limits, stops)) {
                answer.nodes = t.nodes;
                answer.moves.push(MoveValue {
                    square: t.best,
                    score: t.score,
                    depth: t.depth,
                });
            }
            return answer;
        }
        let (moves, nodes) = searcher.value_moves(&self.position, &self.limits, stops.now.as_ref());
        answer.moves = moves;
        answer.nodes = nodes;
        let contempt = self.contempt;
        answer
            .moves
            .sort_by_key(|m| std::cmp::Reverse(centidiscs(m.score, contempt)));
        if self.kind == SearchKind::Go {
            answer.moves.truncate(1);
        }
        answer
    }
}

/// A score in hundredths of a disc, a draw worth `-contempt`.
fn centidiscs(score: Score, contempt: i32) -> i32 {
    match score {
        Score::Exact(0) => -contempt,
        other => other.centidiscs(),
    }
}

fn eval_text(score: Score) -> String {
    match score {
        Score::Exact(v) => format!("{v}.00"),
        Score::Estimate(v) => format!("{:.2}", f64::from(v) / 100.0),
    }
}

impl SearchAnswer {
    /// The lines to print for a search that took `elapsed`.
    pub fn lines(&self, elapsed: Duration) -> Vec<String> {
        let secs = elapsed.as_secs_f64();
        let mut out = vec![format!("nodestats {} {secs:.2}", self.nodes)];
        match self.kind {
            SearchKind::Go => match self.moves.first() {
                Some(m) => out.push(format!(
                    "=== {}/{}/{secs:.2}",
                    m.square.to_string().to_uppercase(),
                    eval_text(m.score)
                )),
                None => out.push("status no move found".into()),
            },
            SearchKind::Hint(n) => {
                for m in self.moves.iter().take(n) {
                    let depth = match m.score {
                        Score::Exact(_) => "100%".to_string(),
                        Score::Estimate(_) => m.depth.to_string(),
                    };
                    out.push(format!(
                        "search {} {} 0 {depth}",
                        m.square.to_string().to_uppercase(),
                        eval_text(m.score)
                    ));
                }
            }
        }
        out.push("status".into());
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "BO[8 ---------------------------O*------*O--------------------------- *]";

    fn replies(engine: &mut NboardEngine, line: &str) -> Vec<String> {
        match engine.handle(line) {
            Request::Reply(lines) => lines,
            other => panic!("{line}: expected a reply, got {other:?}"),
        }
    }

    fn run(engine: &mut NboardEngine, line: &str) -> SearchAnswer {
        match engine.handle(line) {
            Request::Search(job) => job.run(&mut Searcher::new(16), &Stops::default()),
            other => panic!("{line}: expected a search, got {other:?}"),
        }
    }

    #[test]
    fn a_clock_bound_go_lifts_the_levels_budgets_and_a_hint_keeps_them() {
        let mut e = NboardEngine::new();
        e.play_as_level(10);
        let limits = |e: &mut NboardEngine, line: &str| match e.handle(line) {
            Request::Search(job) => job.search_limits(),
            other => panic!("{line}: expected a search, got {other:?}"),
        };
        let level = crate::bot::level_spec(10);
        let budgets = |l: &Limits| (l.nodes, l.solve_nodes);
        assert_eq!(
            budgets(&limits(&mut e, "go")),
            (level.nodes, level.solve_nodes)
        );
        e.bind_to_clock(true);
        let go = limits(&mut e, "go");
        assert_eq!(budgets(&go), (0, 0));
        assert_eq!(
            (go.depth, go.exact_empties),
            (level.depth, level.exact_empties)
        );
        assert_eq!(
            budgets(&limits(&mut e, "hint 1")),
            (level.nodes, level.solve_nodes)
        );
    }

    #[test]
    fn the_handshake_and_ping_are_answered() {
        let mut e = NboardEngine::new();
        assert_eq!(replies(&mut e, "nboard 2"), ["set myname Reversi"]);
        assert_eq!(replies(&mut e, "ping 7"), ["pong 7"]);
        assert_eq!(replies(&mut e, "learn"), ["learned"]);
        assert!(replies(&mut e, "frobnicate 3").is_empty());
        assert!(matches!(e.handle("quit"), Request::Quit));
    }

    #[test]
    fn set_game_and_move_follow_the_gui() {
        let mut e = NboardEngine::new();
        assert!(
            replies(
                &mut e,
                &format!("set game (;GM[Othello]{START}B[F5]W[F6];)")
            )
            .is_empty()
        );
        assert!(replies(&mut e, "move D3/0.5/1.2").is_empty());
        let position = e.position().unwrap();
        assert_eq!(position.to_move(), Some(Color::White));
        assert_eq!((position.counts().black, position.counts().white), (5, 2));
        // An illegal move is refused and changes nothing.
        let before = *e.position().unwrap();
        let refused = replies(&mut e, "move A1");
        assert!(refused[0].starts_with("status move a1:"), "{refused:?}");
        assert_eq!(e.position(), Some(&before));
        let refused = replies(&mut e, "move PA");
        assert!(refused[0].contains("has a legal move"), "{refused:?}");
    }

    #[test]
    fn a_bad_game_is_named_and_searches_wait_for_a_good_one() {
        let mut e = NboardEngine::new();
        let r = replies(&mut e, "set game (;GM[Othello];)");
        assert_eq!(r, ["status set game: no board (BO tag)"]);
        assert_eq!(replies(&mut e, "go"), ["status no game (set game first)"]);
        assert!(replies(&mut e, "set depth 0")[0].starts_with("status set depth"));
        assert!(replies(&mut e, "set depth 61")[0].starts_with("status set depth"));
        assert!(replies(&mut e, "set depth 4").is_empty());
        assert_eq!(e.depth(), 4);
    }

    #[test]
    fn go_answers_a_legal_move_with_its_eval_and_time() {
        let mut e = NboardEngine::new();
        replies(&mut e, "set depth 4");
        replies(&mut e, &format!("set game (;{START}B[F5];)"));
        let answer = run(&mut e, "go");
        let lines = answer.lines(Duration::from_millis(1500));
        assert!(lines[0].starts_with("nodestats "), "{lines:?}");
        let played = lines[1].strip_prefix("=== ").unwrap();
        let mut parts = played.split('/');
        let square: Square = parts.next().unwrap().parse().unwrap();
        assert!(e.position().unwrap().is_legal(square));
        assert!(parts.next().unwrap().parse::<f64>().is_ok());
        assert_eq!(parts.next(), Some("1.50"));
        assert_eq!(lines.last().map(String::as_str), Some("status"));
    }

    #[test]
    fn go_takes_the_book_move_only_as_a_book_level_with_the_book_on() {
        let start = Rules::default().start_position();
        let book = crate::bot::book_move(&start).unwrap();
        let mut e = NboardEngine::new();
        e.use_book(true);
        e.play_as_level(10);
        let answer = run(&mut e, "go");
        assert_eq!(answer.nodes, 0, "a book move needs no search");
        assert_eq!(answer.moves[0].square, book.best);
        // A hint is searched, book or not.
        assert!(run(&mut e, "hint 1").nodes > 0);
        // Below level 8, or without the book, `go` searches.
        e.play_as_level(7);
        assert!(run(&mut e, "go").nodes > 0);
        e.play_as_level(8);
        assert_eq!(run(&mut e, "go").nodes, 0);
        e.use_book(false);
        assert!(run(&mut e, "go").nodes > 0);
    }

    /// GGF of a seeded random game of `plies` moves, passes written out.
    fn random_game(plies: usize, seed: u64) -> (String, Position) {
        let rules = Rules::default();
        let mut position = rules.start_position();
        let mut tags = String::new();
        let mut expected = Color::Black;
        for square in crate::random_player::random_opening(&rules, seed, plies) {
            let mover = position.to_move().unwrap();
            let tag = |c: Color| if c == Color::Black { 'B' } else { 'W' };
            if mover != expected {
                tags.push_str(&format!("{}[PA]", tag(expected)));
            }
            tags.push_str(&format!("{}[{square}]", tag(mover)));
            expected = !mover;
            position = position.play(square).unwrap();
        }
        (format!("(;GM[Othello]{START}{tags};)"), position)
    }

    #[test]
    fn hint_values_the_best_moves_best_first_and_exact_at_the_end() {
        let mut e = NboardEngine::new();
        replies(&mut e, "set depth 6");
        // 10 empties: within the exact range of depth 6.
        let (ggf, position) = (0..)
            .map(|seed| random_game(50, seed))
            .find(|(_, p)| p.to_move().is_some() && p.legal_moves().count() >= 2)
            .unwrap();
        assert!(replies(&mut e, &format!("set game {ggf}")).is_empty());
        assert_eq!(e.position(), Some(&position));
        let answer = run(&mut e, "hint 3");
        assert!(answer.moves.len() >= 2);
        let values: Vec<i32> = answer
            .moves
            .iter()
            .map(|m| match m.score {
                Score::Exact(v) => v,
                Score::Estimate(_) => panic!("{m:?} should be exact"),
            })
            .collect();
        assert!(values.windows(2).all(|w| w[0] >= w[1]), "{values:?}");
        // The best hint agrees with the solver.
        let board = crate::search::board::Board::from_position(e.position().unwrap()).unwrap();
        let solved = Searcher::new(16)
            .solve(
                &board,
                crate::engine::Topology::Plane,
                &crate::search::Budget::nodes(0),
            )
            .unwrap();
        assert_eq!(values[0], solved.score);
        let lines = answer.lines(Duration::ZERO);
        assert!(lines[1].starts_with("search ") && lines[1].ends_with(" 0 100%"));
    }

    #[test]
    fn a_side_that_must_pass_answers_pa() {
        let mut e = NboardEngine::new();
        // White has no move; Black does: the GUI asks White.
        let board =
            "BO[8 -O****** -------- -------- -------- -------- -------- -------- -------- O]";
        replies(&mut e, &format!("set game (;{board};)"));
        assert_eq!(replies(&mut e, "go"), ["=== PA"]);
        assert!(replies(&mut e, "move PA").is_empty());
        assert!(matches!(e.handle("go"), Request::Search(_)));
    }

    #[test]
    fn contempt_makes_the_engine_avoid_a_draw_it_could_choose() {
        assert!(centidiscs(Score::Exact(0), 300) < centidiscs(Score::Exact(-2), 300) + 100);
        assert_eq!(centidiscs(Score::Exact(0), 300), -300);
        assert_eq!(centidiscs(Score::Exact(0), -300), 300);
        let mut e = NboardEngine::new();
        assert!(replies(&mut e, "set contempt 150").is_empty());
        assert!(replies(&mut e, "set contempt lots")[0].starts_with("status set contempt"));
    }
}
