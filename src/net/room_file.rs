//! `LOG.room`: what a game's log needs beside it to find the opponent
//! again: the room on its signaling server, the embedded server's address
//! when the host ran one, or only the server whose mailbox holds the game.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use serde_json::json;

use super::server_url::ServerUrl;

/// The room a log belongs to, kept beside it (`LOG.room`) so `resume`
/// can find the opponent again.
fn room_file(log: &Path) -> PathBuf {
    let mut name = log.file_name().unwrap_or_default().to_os_string();
    name.push(".room");
    log.with_file_name(name)
}

/// What `LOG.room` says: the room's URL on its signaling server, the
/// embedded server's address when the host ran one, and the server whose
/// mailbox holds the game when the room is unknown (a log restored from
/// the mailbox).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RoomFile {
    room_url: Option<String>,
    embedded: Option<SocketAddr>,
    mailbox: Option<String>,
}

impl RoomFile {
    /// A room on a server.
    pub fn new(room_url: String, embedded: Option<SocketAddr>) -> RoomFile {
        RoomFile {
            room_url: Some(room_url),
            embedded,
            mailbox: None,
        }
    }

    /// Only the server whose mailbox holds the game.
    pub fn mailbox_only(server: &ServerUrl) -> RoomFile {
        RoomFile {
            mailbox: Some(server.to_string()),
            ..RoomFile::default()
        }
    }

    /// Reads the file beside a log (empty if there is none or it is unreadable).
    pub fn read(log: &Path) -> RoomFile {
        let value: serde_json::Value = std::fs::read(room_file(log))
            .ok()
            .filter(|bytes| bytes.len() <= 4096)
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .unwrap_or_default();
        RoomFile {
            room_url: value["room_url"].as_str().map(str::to_string),
            embedded: value["embedded_server"]
                .as_str()
                .and_then(|a| a.parse().ok()),
            mailbox: value["mailbox"].as_str().map(str::to_string),
        }
    }

    /// Writes it beside a log.
    pub fn write(&self, log: &Path) -> std::io::Result<()> {
        let text = json!({
            "room_url": self.room_url,
            "embedded_server": self.embedded.map(|a| a.to_string()),
            "mailbox": self.mailbox,
        });
        std::fs::write(room_file(log), format!("{text}\n"))
    }

    /// The room's URL on its signaling server.
    pub fn room_url(&self) -> Option<&str> {
        self.room_url.as_deref()
    }

    /// Where the host's embedded signaling server listened.
    pub fn embedded(&self) -> Option<SocketAddr> {
        self.embedded
    }

    /// The file's path beside a log.
    pub fn path(log: &Path) -> PathBuf {
        room_file(log)
    }

    /// The room's name: the last path segment of the room URL, when there is one.
    pub fn room(&self) -> Option<String> {
        let url = self.room_url.as_deref()?;
        url.rsplit_once('/').map(|(_, room)| room.to_string())
    }

    /// The signaling server (whose mailbox holds the game, if it keeps one).
    pub fn server(&self) -> Option<ServerUrl> {
        let text = match (&self.room_url, &self.mailbox) {
            (Some(url), _) => url.rsplit_once('/').map(|(server, _)| server.to_string())?,
            (None, Some(server)) => server.clone(),
            (None, None) => return None,
        };
        ServerUrl::parse(&text).ok()
    }
}
