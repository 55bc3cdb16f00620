//! One player of the command-line tests: a data directory, and the
//! `reversi` commands run on it, one program at a time.

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

use super::TempDir;

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

    /// `reversi --data-dir DIR ARGS`.
    pub fn run(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_reversi"))
            .arg("--data-dir")
            .arg(&self.dir)
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap()
    }

    /// As [`Player::run`], which must succeed: its standard output.
    pub fn ok(&self, args: &[&str]) -> String {
        let output = self.run(args);
        // Shown when a test fails.
        eprint!("{}", String::from_utf8_lossy(&output.stderr));
        assert!(
            output.status.success(),
            "reversi {args:?} failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8(output.stdout).unwrap()
    }

    /// The one unfinished game `reversi games --json --server URL` lists.
    pub fn game(&self, server: &str) -> Option<Value> {
        let listed: Value =
            serde_json::from_str(&self.ok(&["games", "--json", "--server", server])).unwrap();
        let games = listed.as_array().unwrap();
        assert!(games.len() <= 1, "one game at a time here: {listed}");
        games.first().cloned()
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
    pub fn mv(&self, server: &str, square: &str) -> Output {
        let log = self.log();
        self.run(&["move", log.to_str().unwrap(), square, "--server", server])
    }
}
