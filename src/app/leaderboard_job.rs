//! The window's leaderboard requests — join, leave, submit a log — each on
//! a background thread, so the window never waits for a server. The answer
//! is a line for the player.

use std::path::PathBuf;
use std::sync::mpsc::{Receiver, channel};

use crate::match_log::Identity;
use crate::match_log::log_file::read_bounded;
use crate::membership::Membership;
use crate::net::leaderboard::Leaderboard;
use crate::net::server_url::ServerUrl;

/// What to ask the leaderboard.
#[derive(Debug, Clone)]
pub enum Request {
    /// Sign and send a join or leave statement.
    Membership(Box<Identity>, Membership),
    /// Submit this finished log.
    Submit(PathBuf),
}

/// One request under way.
pub struct LeaderboardJob {
    answer: Receiver<Result<Answer, String>>,
}

impl LeaderboardJob {
    /// Starts the request; `repaint` is called when the answer is in.
    pub fn start(
        server: ServerUrl,
        request: Request,
        repaint: impl Fn() + Send + 'static,
    ) -> LeaderboardJob {
        let (tx, answer) = channel();
        let sender = tx.clone();
        let spawned = crate::background::spawn("leaderboard", move || {
            let result = run(&server, request);
            let _ = sender.send(result);
            repaint();
        });
        if let Err(e) = spawned {
            let _ = tx.send(Err(format!("cannot start the request: {e}")));
        }
        LeaderboardJob { answer }
    }

    /// The answer, once it is in (or why it failed).
    pub fn poll(&self) -> Option<Result<Answer, String>> {
        match self.answer.try_recv() {
            Ok(answer) => Some(answer),
            Err(std::sync::mpsc::TryRecvError::Empty) => None,
            Err(std::sync::mpsc::TryRecvError::Disconnected) => {
                Some(Err("the request stopped without an answer".into()))
            }
        }
    }
}

/// What the leaderboard answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// This server counts the player's games now.
    Joined(String),
    /// This server no longer does.
    Left(String),
    /// The game was counted on this server, under this id.
    Counted {
        /// The server that counted it, written as its URL.
        server: String,
        /// The start of the game's id.
        game: String,
    },
}

impl Answer {
    /// The answer in the player's language.
    fn words(&self) -> String {
        use super::i18n::t;
        match self {
            Answer::Joined(server) => t!("leaderboard-joined", server = server.as_str()),
            Answer::Left(server) => t!("leaderboard-left", server = server.as_str()),
            Answer::Counted { server, game } => t!(
                "leaderboard-counted",
                server = server.as_str(),
                game = game.as_str()
            ),
        }
    }
}

fn run(server: &ServerUrl, request: Request) -> Result<Answer, String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let board = Leaderboard::new(server.clone());
    match request {
        Request::Membership(identity, membership) => {
            let member = runtime
                .block_on(board.set_membership(&identity, membership, crate::platform::now_ms()))
                .map_err(|e| e.to_string())?;
            Ok(if member {
                Answer::Joined(server.to_string())
            } else {
                Answer::Left(server.to_string())
            })
        }
        Request::Submit(log) => {
            let bytes = read_bounded(&log).map_err(|e| e.to_string())?;
            let game_id = runtime
                .block_on(board.submit(&bytes))
                .map_err(|e| e.to_string())?;
            let short: String = game_id.chars().take(16).collect();
            Ok(Answer::Counted {
                server: server.to_string(),
                game: short,
            })
        }
    }
}

/// The window's side of the leaderboard: the request under way, its last
/// answer, and the membership to put back if the server refuses a change.
#[derive(Default)]
pub(super) struct LeaderboardState {
    job: Option<LeaderboardJob>,
    /// The last answer, for the player.
    pub said: Option<String>,
    /// The membership setting before a join or leave under way.
    before: Option<bool>,
}

impl LeaderboardState {
    /// Sends `request` to the leaderboard of the server at `server_url`.
    pub fn request(&mut self, ctx: &egui::Context, server_url: &str, request: Request) {
        let server = match ServerUrl::parse(server_url) {
            Ok(server) => server,
            Err(e) => {
                self.said = Some(super::i18n::t!(
                    "leaderboard-no-server",
                    why = e.to_string()
                ));
                return;
            }
        };
        let ctx = ctx.clone();
        self.said = Some(super::i18n::t!("leaderboard-asking"));
        self.job = Some(LeaderboardJob::start(server, request, move || {
            ctx.request_repaint()
        }));
    }

    /// Whether no request is under way.
    pub fn idle(&self) -> bool {
        self.job.is_none()
    }

    /// Remembers the membership before a change just requested, to put
    /// it back if the server does not take the change.
    pub fn changing_from(&mut self, was: bool) {
        self.before = Some(was);
    }

    /// Takes the answer, once it is in; a membership the server did not
    /// take is put back in `membership`.
    pub fn poll(&mut self, membership: &mut bool) {
        if let Some(answer) = self.job.as_ref().and_then(|j| j.poll()) {
            self.job = None;
            let before = self.before.take();
            self.said = Some(match answer {
                Ok(answer) => answer.words(),
                Err(e) => {
                    if let Some(before) = before {
                        *membership = before;
                    }
                    super::i18n::t!("leaderboard-failed", why = e)
                }
            });
        }
    }
}
