//! Home's *Your games*: every unfinished network game of this identity,
//! brought up to date with the mailbox on a background thread (every 30 s,
//! or at once on request), so the window never waits for a server.

use std::path::PathBuf;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::Duration;

use crate::data_dir::register::GameRegister;
use crate::match_log::Identity;
use crate::net::correspondence::{GameSummary, Listing, refresh_all};
use crate::net::server_url::ServerUrl;

/// How often the list is refreshed from the mailbox.
const EVERY: Duration = Duration::from_secs(30);

/// The list and the thread that keeps it current.
pub struct YourGames {
    listing: Option<Listing>,
    updates: Receiver<Listing>,
    refresh: Sender<()>,
    /// Games that were this side's move at the last update.
    my_turn: Vec<String>,
}

impl YourGames {
    /// Starts the thread: the logs in `games_dir` and wherever `register`
    /// says a game lives, this identity, and the signaling server from the
    /// settings (besides those the logs name).
    pub fn start(
        games_dir: PathBuf,
        register: GameRegister,
        identity: Identity,
        server: Option<ServerUrl>,
        repaint: impl Fn() + Send + 'static,
    ) -> YourGames {
        let (updates_tx, updates) = channel();
        let (refresh, refresh_rx) = channel::<()>();
        let spawned = crate::background::spawn("your-games", move || {
            let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            else {
                return;
            };
            loop {
                let listing = runtime.block_on(refresh_all(
                    &games_dir,
                    &identity,
                    server.as_ref(),
                    crate::platform::now_ms(),
                    &register,
                ));
                if updates_tx.send(listing).is_err() {
                    return;
                }
                repaint();
                match refresh_rx.recv_timeout(EVERY) {
                    Ok(()) | Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
                    Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => return,
                }
            }
        });
        if let Err(e) = spawned {
            tracing::warn!("cannot list your games in the background: {e}");
        }
        YourGames {
            listing: None,
            updates,
            refresh,
            my_turn: Vec::new(),
        }
    }

    /// Asks for a refresh now.
    pub fn refresh(&self) {
        let _ = self.refresh.send(());
    }

    /// Takes the latest update; returns the games that have just become
    /// this side's move (for a notification).
    pub fn poll(&mut self) -> Vec<GameSummary> {
        let mut newly = Vec::new();
        while let Ok(listing) = self.updates.try_recv() {
            let now: Vec<String> = listing
                .games
                .iter()
                .filter(|g| g.my_turn)
                .map(|g| g.log.clone())
                .collect();
            newly = listing
                .games
                .iter()
                .filter(|g| g.my_turn && !self.my_turn.contains(&g.log))
                .cloned()
                .collect();
            // The first listing is not news: those were waiting already.
            if self.listing.is_none() {
                newly.clear();
            }
            self.my_turn = now;
            self.listing = Some(listing);
        }
        newly
    }

    /// The latest list, once the first refresh is done.
    pub fn listing(&self) -> Option<&Listing> {
        self.listing.as_ref()
    }

    /// Whether any game waits for this side's move.
    pub fn any_my_turn(&self) -> bool {
        !self.my_turn.is_empty()
    }
}

/// Whose turn, in words, for a row.
pub fn turn_words(game: &GameSummary) -> String {
    match (game.my_turn, game.to_move) {
        (true, Some(color)) => super::i18n::t!("games-your-move", color = color_in_words(color)),
        (false, Some(color)) => {
            super::i18n::t!("games-their-move", color = color_in_words(color))
        }
        _ => game.status.clone(),
    }
}

/// A colour as the listing gives it (`black`), in the player's language.
fn color_in_words(color: &str) -> String {
    super::i18n::color_word(if color == "black" {
        crate::engine::Color::Black
    } else {
        crate::engine::Color::White
    })
}

/// The time left, in words.
pub fn time_left(game: &GameSummary) -> String {
    match game.deadline_left_secs {
        Some(0) => super::i18n::t!("games-time-up"),
        Some(secs) => {
            // Minutes are enough for a clock that runs for days.
            let rounded = if secs >= 3600 { secs / 60 * 60 } else { secs };
            let time = super::i18n::duration(rounded);
            super::i18n::t!("games-left", time = time)
        }
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(log: &str, my_turn: bool) -> GameSummary {
        GameSummary {
            room: None,
            game_id: None,
            log: log.into(),
            opponent: Some("Ann".into()),
            opponent_fingerprint: None,
            rules: None,
            my_color: Some("white"),
            to_move: Some(if my_turn { "white" } else { "black" }),
            my_turn,
            watch: None,
            legal: Vec::new(),
            deadline_left_secs: Some(86_000),
            deadline_passed: false,
            status: String::new(),
            records: 5,
            copies: Vec::new(),
        }
    }

    #[test]
    fn a_game_that_becomes_your_move_is_news_once_and_the_first_list_is_not() {
        let (updates_tx, updates) = channel();
        let (refresh, _refresh_rx) = channel();
        let mut list = YourGames {
            listing: None,
            updates,
            refresh,
            my_turn: Vec::new(),
        };
        let send = |games| {
            updates_tx
                .send(Listing {
                    games,
                    notes: Vec::new(),
                })
                .unwrap()
        };
        send(vec![game("a.log", true), game("b.log", false)]);
        assert!(list.poll().is_empty(), "waiting already at start: not news");
        assert!(list.any_my_turn());
        send(vec![game("a.log", true), game("b.log", true)]);
        let newly = list.poll();
        assert_eq!(newly.len(), 1);
        assert_eq!(newly[0].log, "b.log");
        send(vec![game("a.log", true), game("b.log", true)]);
        assert!(list.poll().is_empty(), "told once");
        send(vec![game("a.log", false), game("b.log", false)]);
        assert!(list.poll().is_empty());
        assert!(!list.any_my_turn());
        assert_eq!(time_left(&game("a.log", true)), "23 h 53 min left");
    }
}
