//! Helpers shared by the integration tests.

#![allow(dead_code)]

pub mod cluster_lab;
pub mod hostile_server;
#[path = "../../core/tests/support/logs.rs"]
pub mod logs;
pub mod nat_lab;
pub mod player;
pub mod postgres;
pub mod signaling_server;
#[path = "../../core/tests/support/words.rs"]
mod words;

#[path = "../../core/tests/support/board_names.rs"]
pub mod board_names;
// Not every test file uses all three.
#[allow(unused_imports)]
pub use board_names::{grid, names, sq};

pub use words::split_quoted;

use reversi::cli::rule_args::RuleArgs;
use reversi::engine::Rules;

/// The `reversi` program of this build, to add arguments to: the one way
/// the tests run it.
pub fn reversi() -> std::process::Command {
    std::process::Command::new(reversi_binary())
}

/// Where the `reversi` program of this build is (for tests that start it
/// in a network namespace).
pub fn reversi_binary() -> &'static std::path::Path {
    std::path::Path::new(env!("CARGO_BIN_EXE_reversi"))
}

/// The last `lines` lines of a text file (empty if it cannot be read), for
/// a failure's message.
pub fn file_tail(path: &std::path::Path, lines: usize) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let mut tail: Vec<&str> = text.lines().rev().take(lines).collect();
    tail.reverse();
    tail.join("\n")
}

/// Parses rule flags as the command line does, e.g. `--rules torus --walls a1`.
pub fn rules_from_flags(flags: &str) -> Rules {
    use clap::Parser;
    #[derive(Parser)]
    struct Flags {
        #[command(flatten)]
        rules: RuleArgs,
    }
    let mut argv = vec!["test".to_string()];
    argv.extend(split_quoted(flags));
    let parsed = Flags::try_parse_from(argv).unwrap_or_else(|e| panic!("flags {flags:?}: {e}"));
    parsed
        .rules
        .rules()
        .unwrap_or_else(|e| panic!("flags {flags:?}: {e}"))
}

/// A free TCP port on loopback (free when asked).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A temporary folder, removed when dropped.
pub struct TempDir(pub std::path::PathBuf);

impl TempDir {
    /// A fresh folder named after the test and this process.
    pub fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("reversi-test-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temporary folder");
        TempDir(dir)
    }

    /// A path inside the folder.
    pub fn path(&self, name: &str) -> std::path::PathBuf {
        self.0.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A child process that is killed and reaped when dropped, so a failing
/// test (whose panic unwinds through it) leaves no program running.
pub struct KillOnDrop(pub std::process::Child);

impl std::ops::Deref for KillOnDrop {
    type Target = std::process::Child;
    fn deref(&self) -> &std::process::Child {
        &self.0
    }
}

impl std::ops::DerefMut for KillOnDrop {
    fn deref_mut(&mut self) -> &mut std::process::Child {
        &mut self.0
    }
}

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        if let Ok(None) = self.0.try_wait() {
            let _ = self.0.kill();
        }
        let _ = self.0.wait();
    }
}
