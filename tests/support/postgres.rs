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
}

impl Postgres {
    /// Starts a new server (initdb, then pg_ctl start) in a folder named after `name`.
    pub fn start(name: &str) -> Postgres {
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
        let data = dir.path("data");
        let port = free_port();
        // PostgreSQL refuses to run as root: run it as its own user.
        let as_postgres = |program: &Path, args: &[&str]| {
            let root = std::process::Command::new("id")
                .arg("-u")
                .output()
                .map(|o| o.stdout == b"0\n")
                .unwrap_or(false);
            let mut command = if root {
                let mut c = Command::new("runuser");
                c.args(["-u", "postgres", "--"]).arg(program);
                c
            } else {
                Command::new(program)
            };
            let output = command.args(args).output().unwrap();
            assert!(
                output.status.success(),
                "{} {args:?}: {}",
                program.display(),
                String::from_utf8_lossy(&output.stderr)
            );
        };
        let _ = Command::new("chown")
            .args(["postgres:postgres", dir.0.to_str().unwrap()])
            .status();
        as_postgres(
            &bin.join("initdb"),
            &[
                "-D",
                data.to_str().unwrap(),
                "-U",
                "reversi",
                "--auth=trust",
            ],
        );
        as_postgres(
            &bin.join("pg_ctl"),
            &[
                "-D",
                data.to_str().unwrap(),
                "-l",
                dir.path("server.log").to_str().unwrap(),
                "-o",
                &format!(
                    "-p {port} -c listen_addresses=127.0.0.1 -k {}",
                    dir.0.display()
                ),
                "-w",
                "start",
            ],
        );
        Postgres { dir, bin, port }
    }

    /// Its URL.
    pub fn url(&self) -> String {
        format!("postgres://reversi@127.0.0.1:{}/postgres", self.port)
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        let data = self.dir.path("data");
        let mut command = Command::new("runuser");
        command
            .args(["-u", "postgres", "--"])
            .arg(self.bin.join("pg_ctl"))
            .args(["-D", data.to_str().unwrap(), "-m", "immediate", "stop"]);
        let _ = command.output();
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
