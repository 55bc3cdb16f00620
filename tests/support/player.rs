//! One player of the command-line tests: a data directory, and the
//! `reversi` commands run on it, one program at a time.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

use super::TempDir;
use super::hostile_server::HostileServer;
use super::signaling_server::Server;

/// What names a server to a player: a running test server, or its URL.
pub trait Url {
    /// `ws://HOST:PORT`.
    fn url(&self) -> String;
}

impl Url for Server {
    fn url(&self) -> String {
        Server::url(self)
    }
}

impl Url for HostileServer {
    fn url(&self) -> String {
        HostileServer::url(self)
    }
}

impl Url for str {
    fn url(&self) -> String {
        self.to_string()
    }
}

impl Url for String {
    fn url(&self) -> String {
        self.clone()
    }
}

/// One player: a data directory.
pub struct Player {
    /// The data directory.
    pub dir: PathBuf,
}

impl Player {
    /// The player whose data directory is `dir/name`.
    pub fn new(dir: &TempDir, name: &str) -> Player {
        Player {
            dir: dir.path(name),
        }
    }

    /// `reversi --data-dir DIR ARGS`, to run (or start beside others).
    pub fn command(&self, args: &[&str]) -> Command {
        let mut command = super::reversi();
        command
            .arg("--data-dir")
            .arg(&self.dir)
            .args(args)
            .stdin(Stdio::null());
        command
    }

    /// `reversi --data-dir DIR ARGS`, run to its end.
    pub fn run(&self, args: &[&str]) -> Output {
        let output = self.command(args).output().unwrap();
        // Shown when a test fails.
        eprint!("{}", String::from_utf8_lossy(&output.stderr));
        output
    }

    /// As [`Player::run`], which must succeed: its standard output.
    pub fn ok(&self, args: &[&str]) -> String {
        let output = self.run(args);
        assert!(
            output.status.success(),
            "reversi {args:?} failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8(output.stdout).unwrap()
    }

    /// The one unfinished game `reversi games --json --server URL` lists.
    pub fn game(&self, server: &(impl Url + ?Sized)) -> Option<Value> {
        let (games, _) = self.games(server);
        assert!(games.len() <= 1, "one game at a time here: {games:?}");
        games.first().cloned()
    }

    /// `reversi games --json --server URL`: the games listed, and what was
    /// said on the way.
    pub fn games(&self, server: &(impl Url + ?Sized)) -> (Vec<Value>, String) {
        let output = self.run(&["games", "--json", "--server", &server.url()]);
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let listed: Value = serde_json::from_slice(&output.stdout).unwrap();
        (
            listed.as_array().unwrap().clone(),
            String::from_utf8_lossy(&output.stderr).into_owned(),
        )
    }

    /// `reversi join CODE --server URL --detach --log LOG`.
    pub fn join_detached(&self, code: &str, server: &(impl Url + ?Sized), log: &Path) {
        self.ok(&[
            "join",
            code,
            "--server",
            &server.url(),
            "--detach",
            "--log",
            log.to_str().unwrap(),
        ]);
    }

    /// The player's logs in `games/`.
    pub fn logs(&self) -> Vec<PathBuf> {
        let Ok(entries) = std::fs::read_dir(self.dir.join("games")) else {
            return Vec::new();
        };
        entries
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "log"))
            .collect()
    }

    /// The player's one log.
    pub fn log(&self) -> PathBuf {
        let logs = self.logs();
        assert_eq!(logs.len(), 1, "{logs:?}");
        logs[0].clone()
    }

    /// `reversi move LOG SQUARE --server URL`.
    pub fn mv(&self, server: &(impl Url + ?Sized), square: &str) -> Output {
        let log = self.log();
        self.run(&[
            "move",
            log.to_str().unwrap(),
            square,
            "--server",
            &server.url(),
        ])
    }
}
