//! The operator's files in `deploy/` are what the programs they configure
//! accept: the systemd unit verifies clean and is hardened, the proxy
//! configurations parse, and every metric the alert rules name is one the
//! server serves. (tests/cluster.rs runs the proxies for real.)

#![cfg(unix)]

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;

use support::TempDir;
use support::signaling_server::{Server, server_binary};

fn deploy(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("deploy")
        .join(name)
}

/// Whether `tool` can be run here; says so when it cannot.
fn have(tool: &str) -> bool {
    let found = Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        eprintln!("skipped: {tool} is not installed here (tests/all.sh installs it)");
    }
    found
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        let kind = entry.file_type().unwrap();
        if kind.is_symlink() {
            let link = std::fs::read_link(entry.path()).unwrap();
            std::os::unix::fs::symlink(link, target).unwrap();
        } else if kind.is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

#[test]
fn the_systemd_unit_verifies_clean_and_is_hardened() {
    if !have("systemd-analyze") || !Path::new("/usr/lib/systemd/system").is_dir() {
        return;
    }
    // A root of its own: the system's units, the program where the unit
    // expects it, and the unit.
    let dir = TempDir::new("deploy-systemd");
    let root = dir.path("root");
    copy_tree(
        Path::new("/usr/lib/systemd/system"),
        &root.join("usr/lib/systemd/system"),
    );
    std::fs::create_dir_all(root.join("usr/local/bin")).unwrap();
    std::fs::copy(
        server_binary(),
        root.join("usr/local/bin/reversi-signaling"),
    )
    .unwrap();
    std::fs::create_dir_all(root.join("etc/systemd/system")).unwrap();
    std::fs::copy(
        deploy("reversi-signaling@.service"),
        root.join("etc/systemd/system/reversi-signaling@.service"),
    )
    .unwrap();
    let root_arg = format!("--root={}", root.display());
    let verify = Command::new("systemd-analyze")
        .args(["verify", &root_arg, "reversi-signaling@3541.service"])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&verify.stderr);
    assert!(verify.status.success(), "{said}");
    assert!(
        !said.contains("reversi-signaling"),
        "no warning about the unit: {said}"
    );
    // systemd's own score of what the service could do if taken over:
    // 0 is locked down, 10 is unprotected; "OK" is below 5.
    let security = Command::new("systemd-analyze")
        .args([
            "security",
            "--offline=true",
            &root_arg,
            "--threshold=20",
            "reversi-signaling@3541.service",
        ])
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&security.stdout);
    assert!(
        security.status.success(),
        "exposure above 2.0: {report}{}",
        String::from_utf8_lossy(&security.stderr)
    );
}

#[test]
fn the_proxy_configurations_parse() {
    if have("haproxy") {
        let check = Command::new("haproxy")
            .arg("-c")
            .arg("-f")
            .arg(deploy("haproxy.cfg"))
            .output()
            .unwrap();
        assert!(
            check.status.success(),
            "{}{}",
            String::from_utf8_lossy(&check.stdout),
            String::from_utf8_lossy(&check.stderr)
        );
    }
    if have("nginx") {
        // Inside `http { }`, as an operator includes it.
        let dir = TempDir::new("deploy-nginx");
        let main = dir.path("nginx.conf");
        std::fs::write(
            &main,
            format!(
                "pid {d}/nginx.pid;\nerror_log {d}/error.log;\nevents {{}}\nhttp {{ include {}; }}\n",
                deploy("nginx.conf").display(),
                d = dir.0.display()
            ),
        )
        .unwrap();
        let check = Command::new("nginx")
            .arg("-t")
            .arg("-c")
            .arg(&main)
            .arg("-p")
            .arg(&dir.0)
            .output()
            .unwrap();
        assert!(
            check.status.success(),
            "{}",
            String::from_utf8_lossy(&check.stderr)
        );
    }
}

#[test]
fn every_metric_the_alert_rules_name_is_served() {
    let rules = std::fs::read_to_string(deploy("reversi-alerts.yml")).unwrap();
    let scrape = std::fs::read_to_string(deploy("prometheus.yml")).unwrap();
    assert!(
        scrape.contains("reversi-alerts.yml"),
        "the rules are loaded"
    );
    assert!(
        scrape.contains("job_name: reversi-signaling")
            && rules.contains("job=\"reversi-signaling\""),
        "the instance-down rule watches the scraped job"
    );
    let named: std::collections::BTreeSet<&str> = rules
        .match_indices("reversi_signaling_")
        .map(|(at, _)| {
            let rest = &rules[at..];
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            &rest[..end]
        })
        .collect();
    assert!(named.len() >= 3, "{named:?}");
    let dir = TempDir::new("deploy-metrics");
    let server = Server::start(dir.path("mailbox.sqlite3").to_str().unwrap());
    let (status, served) = server.get("/metrics").unwrap();
    assert_eq!(status, 200);
    for name in named {
        assert!(
            served
                .lines()
                .any(|l| l.starts_with(&format!("# TYPE {name} "))),
            "{name} is not served:\n{served}"
        );
    }
}
