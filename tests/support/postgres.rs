//! A PostgreSQL server of its own, from Debian's package, in a temporary
//! folder: for the mailbox's tests and benchmark.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::{TempDir, free_port};

/// A PostgreSQL server of its own in a temporary folder, stopped when dropped.
pub struct Postgres {
    dir: TempDir,
    bin: PathBuf,
    port: u16,
    /// The network namespace it runs in, if not this process's.
    netns: Option<String>,
}

/// Whether this process runs as root (PostgreSQL refuses to).
fn root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|o| o.stdout == b"0\n")
        .unwrap_or(false)
}

/// Runs a PostgreSQL program, as the `postgres` user when we are root,
/// in network namespace `netns` if given.
fn as_postgres(netns: Option<&str>, program: &Path, args: &[&str]) -> std::process::Output {
    let mut words: Vec<std::ffi::OsString> = Vec::new();
    if let Some(ns) = netns {
        words.extend(["ip", "netns", "exec", ns].map(Into::into));
    }
    if root() {
        words.extend(["runuser", "-u", "postgres", "--"].map(Into::into));
    }
    words.push(program.into());
    Command::new(&words[0])
        .args(&words[1..])
        .args(args)
        .output()
        .unwrap()
}

fn succeeded(program: &Path, args: &[&str]) {
    let output = as_postgres(None, program, args);
    assert!(
        output.status.success(),
        "{} {args:?}: {}",
        program.display(),
        String::from_utf8_lossy(&output.stderr)
    );
}

impl Postgres {
    /// Starts a new server (initdb, then pg_ctl start) in a folder named after `name`.
    pub fn start(name: &str) -> Postgres {
        Postgres::start_in(name, None)
    }

    /// The same, listening on loopback inside network namespace `netns`.
    pub fn start_in(name: &str, netns: Option<&str>) -> Postgres {
        let bin = std::fs::read_dir("/usr/lib/postgresql")
            .ok()
            .and_then(|versions| {
                versions
                    .filter_map(Result::ok)
                    .map(|v| v.path().join("bin"))
                    .find(|b| b.join("initdb").exists())
            })
            .expect("PostgreSQL is not installed (Debian: postgresql); tests/all.sh installs it");
        let dir = TempDir::new(name);
        let port = free_port();
        let _ = Command::new("chown")
            .args(["postgres:postgres", dir.0.to_str().unwrap()])
            .status();
        succeeded(
            &bin.join("initdb"),
            &[
                "-D",
                dir.path("data").to_str().unwrap(),
                "-U",
                "reversi",
                "--auth=trust",
            ],
        );
        let postgres = Postgres {
            dir,
            bin,
            port,
            netns: netns.map(str::to_string),
        };
        postgres.start_again();
        postgres
    }

    /// Its URL.
    pub fn url(&self) -> String {
        format!("postgres://reversi@127.0.0.1:{}/postgres", self.port)
    }

    /// `pg_ctl ARGS` on this server's data.
    fn pg_ctl(&self, args: &[&str]) -> std::process::Output {
        let data = self.dir.path("data");
        let mut all = vec!["-D", data.to_str().unwrap()];
        all.extend_from_slice(args);
        as_postgres(self.netns.as_deref(), &self.bin.join("pg_ctl"), &all)
    }

    /// Starts the server (again, after [`Postgres::stop`]) on the same
    /// port and data, and waits until it accepts connections.
    pub fn start_again(&self) {
        let log = self.dir.path("server.log");
        let options = format!(
            "-p {} -c listen_addresses=127.0.0.1 -k {}",
            self.port,
            self.dir.0.display()
        );
        let output = self.pg_ctl(&["-l", log.to_str().unwrap(), "-o", &options, "-w", "start"]);
        assert!(
            output.status.success(),
            "pg_ctl start: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }

    /// Stops the server as an operator would (`pg_ctl stop -m fast`: open
    /// connections are cut).
    pub fn stop(&self) {
        let output = self.pg_ctl(&["-m", "fast", "-w", "stop"]);
        assert!(
            output.status.success(),
            "pg_ctl stop: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        let _ = self.pg_ctl(&["-m", "immediate", "stop"]);
    }
}

impl Postgres {
    /// Bytes of the cluster's databases on disk.
    pub fn disk_bytes(&self) -> u64 {
        fn walk(path: &Path) -> u64 {
            std::fs::read_dir(path).map_or(0, |entries| {
                entries
                    .filter_map(Result::ok)
                    .map(|e| {
                        let p = e.path();
                        if p.is_dir() {
                            walk(&p)
                        } else {
                            e.metadata().map_or(0, |m| m.len())
                        }
                    })
                    .sum()
            })
        }
        walk(&self.dir.path("data").join("base"))
    }
}
