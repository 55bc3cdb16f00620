//! The app's state as data ([`AppStatus`]): what tests and the browser
//! page read instead of pixels.

use serde::Serialize;

use super::network_game::NetSnapshot;
use crate::engine::{Color, format_transcript};

/// Where the app stands, in a form a test or an assistive tool can read
/// without looking at pixels (the browser mirrors it into the page).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct AppStatus {
    /// The language the app speaks (`en`, `de`, `fr` or `ja`).
    pub language: &'static str,
    /// `home`, `game` (against the computer or over the network), `join`,
    /// `viewer`, `settings` or `watch`.
    pub screen: &'static str,
    /// Progress of a network game in words.
    pub status: String,
    /// The network game's room.
    pub room: Option<String>,
    /// The room code, while hosting.
    pub code: Option<String>,
    /// This side's colour in a game (`black`/`white`), once known.
    pub my_color: Option<&'static str>,
    /// The colour to move, while the game goes on.
    pub to_move: Option<&'static str>,
    /// Whether a move of the person's is awaited.
    pub my_turn: bool,
    /// The squares the person may play now.
    pub legal: Vec<String>,
    /// The moves so far, as a transcript.
    pub moves: String,
    /// Whether the computer is thinking.
    pub thinking: bool,
    /// The result in words, once the game is over.
    pub outcome: Option<String>,
    /// Whether the game is over.
    pub over: bool,
    /// The result as `reversi board --json` gives it, once over.
    pub result: Option<serde_json::Value>,
    /// What went wrong, if something did.
    pub error: Option<String>,
    /// The log viewer's verdict, when a log is open.
    pub viewed: Option<String>,
    /// The hex SHA-256 of the network game's log bytes, when there is one.
    pub log_sha256: Option<String>,
    /// The safety code of the network game's two keys, once known.
    pub safety_code: Option<String>,
    /// The same code as six words.
    pub safety_words: Option<String>,
    /// On Settings: the fingerprint of the player's key.
    pub key: Option<String>,
    /// On Settings: what the last export or import of the key did, or
    /// why it did not (`None` while one runs, or before any).
    pub key_said: Option<String>,
}

/// A network game's part of the status.
pub(super) fn network_status(status: &mut AppStatus, snap: &NetSnapshot) {
    status.screen = "game";
    status.status = snap.status.to_string();
    status.code = snap.code.clone();
    status.room = snap
        .log
        .as_ref()
        .and_then(|log| log.file_stem())
        .map(|room| room.to_string_lossy().into_owned());
    status.my_color = snap.my_color.map(Color::name);
    status.to_move = snap
        .position
        .as_ref()
        .and_then(|p| p.to_move())
        .filter(|_| snap.outcome.is_none())
        .map(Color::name);
    status.my_turn = snap.my_turn;
    if let (true, Some(position)) = (snap.my_turn, &snap.position) {
        status.legal = position
            .legal_moves()
            .squares()
            .map(|s| s.to_string())
            .collect();
    }
    status.moves = format_transcript(&snap.moves);
    status.over = snap.outcome.is_some();
    status.outcome = snap.outcome.as_ref().map(|o| o.to_string());
    status.result = snap
        .outcome
        .as_ref()
        .map(crate::match_log::export::outcome_json);
    if snap.error.is_some() {
        status.error = snap.error.clone();
    }
    status.log_sha256 = snap.log_sha256.as_ref().map(|(_, hash)| hash.clone());
    status.safety_code = snap.safety_code.clone();
    status.safety_words = snap.safety_words.clone();
}
