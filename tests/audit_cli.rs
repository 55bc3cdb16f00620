//! `reversi selfplay`, `audit` and `export` as a user runs them.

mod support;

use support::TempDir;

use std::path::{Path, PathBuf};
use std::process::Output;

use reversi::match_log::log_file::write_log;
use serde_json::Value;
use support::logs::{equivocating_fork, finished_game};

fn reversi(home: &Path, args: &[&str]) -> Output {
    support::reversi()
        .args(args)
        .env("REVERSI_HOME", home)
        .output()
        .expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn selfplay(dir: &TempDir, name: &str, extra: &[&str]) -> PathBuf {
    let out = dir.path(name);
    let mut args = vec!["selfplay", "--seed", "11", "--out", out.to_str().unwrap()];
    args.extend_from_slice(extra);
    let output = reversi(&dir.0, &args);
    assert!(output.status.success(), "{}", text(&output.stderr));
    out
}

#[test]
fn selfplay_writes_a_log_that_audits_clean() {
    let dir = TempDir::new("clean");
    let log = selfplay(
        &dir,
        "game.log",
        &["--host-name", "Ann", "--guest-name", "Ben"],
    );
    let output = reversi(&dir.0, &["audit", log.to_str().unwrap()]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let report = text(&output.stdout);
    for expected in [
        "host        Ann",
        "guest       Ben",
        "✓ revealed nonce matches",
        "seed",
        "colours     black:",
        "transcript",
        "result",
        "verdict     ✓",
    ] {
        assert!(
            report.contains(expected),
            "missing {expected:?} in\n{report}"
        );
    }
    assert!(
        dir.path("identity.key").exists(),
        "the host key was created in REVERSI_HOME"
    );
}

#[test]
fn audit_json_agrees_with_export() {
    let dir = TempDir::new("json");
    let log = selfplay(&dir, "game.log", &["--rules", "classic", "--draw-by-lot"]);
    let output = reversi(&dir.0, &["audit", log.to_str().unwrap(), "--json"]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["verified"], true);
    assert_eq!(json["rules"]["discs"], "32");
    assert_eq!(json["rules"]["draw"], "chosen by lot");
    assert!(json["tie_chooser"].is_string());
    assert!(json["tie_goes_to"].is_string());
    assert_eq!(json["choices"]["tie_winner"]["seat"], json["tie_chooser"]);
    assert_eq!(json["choices"]["tie_winner"]["color"], json["tie_goes_to"]);
    assert_eq!(json["choices"]["seat_color"]["color"], json["tie_goes_to"]);
    assert!(json["seed"].as_str().unwrap().len() == 64);
    assert!(json["result"]["winner"].is_string());
    let transcript = reversi(
        &dir.0,
        &["export", log.to_str().unwrap(), "--format", "transcript"],
    );
    assert_eq!(
        text(&transcript.stdout).trim(),
        json["transcript"].as_str().unwrap()
    );
    let ggf = text(
        &reversi(
            &dir.0,
            &["export", log.to_str().unwrap(), "--format", "ggf"],
        )
        .stdout,
    );
    assert!(
        ggf.starts_with("(;GM[Othello]") && ggf.trim_end().ends_with(";)"),
        "{ggf}"
    );
    assert!(ggf.contains("RE["));
}

#[test]
fn the_same_seed_plays_the_same_game() {
    let dir = TempDir::new("seed");
    let a = selfplay(&dir, "a.log", &[]);
    let b = selfplay(&dir, "b.log", &[]);
    let export = |p: &Path| {
        text(
            &reversi(
                &dir.0,
                &["export", p.to_str().unwrap(), "--format", "transcript"],
            )
            .stdout,
        )
    };
    assert_eq!(export(&a), export(&b));
}

#[test]
fn damaged_files_exit_1_naming_the_record_and_never_panic() {
    let dir = TempDir::new("damaged");
    let log = selfplay(&dir, "game.log", &[]);
    let original = std::fs::read(&log).unwrap();
    let damaged = dir.path("damaged.log");
    let step = original.len() / 97;
    for i in (0..original.len()).step_by(step.max(1)) {
        let mut bytes = original.clone();
        bytes[i] ^= 0x20;
        std::fs::write(&damaged, &bytes).unwrap();
        let output = reversi(&dir.0, &["audit", damaged.to_str().unwrap()]);
        let err = text(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "byte {i}: {err}");
        assert!(err.contains("record "), "byte {i}: {err}");
        assert!(!err.contains("panicked"), "byte {i}: {err}");
    }
    for junk in [
        &b""[..],
        b"\n",
        b"{}\n",
        b"not json\n",
        &[0xff, 0xfe, b'\n'],
    ] {
        std::fs::write(&damaged, junk).unwrap();
        let output = reversi(&dir.0, &["audit", damaged.to_str().unwrap()]);
        assert_eq!(output.status.code(), Some(1), "{junk:?}");
        assert!(
            text(&output.stderr).contains("record 0:"),
            "{}",
            text(&output.stderr)
        );
    }
    let missing = reversi(&dir.0, &["audit", dir.path("nope.log").to_str().unwrap()]);
    assert_eq!(missing.status.code(), Some(1));
}

#[test]
fn comparing_two_files_reports_prefix_and_equivocation() {
    let dir = TempDir::new("compare");
    let game = finished_game(30);
    let full = game.records();
    let a = dir.path("a.log");
    let b = dir.path("b.log");
    write_log(&a, full).unwrap();
    write_log(&b, &full[..15]).unwrap();
    let output = reversi(&dir.0, &["audit", a.to_str().unwrap(), b.to_str().unwrap()]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert!(text(&output.stdout).starts_with("prefix: the second log (15 records)"));

    // A fork at record 10, validly signed by the same player.
    let forked = equivocating_fork(&game, 10);
    let c = dir.path("c.log");
    write_log(&c, &forked).unwrap();
    let output = reversi(&dir.0, &["audit", a.to_str().unwrap(), c.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    let report = text(&output.stderr);
    assert!(
        report.contains("diverge at record 10: EQUIVOCATION"),
        "{report}"
    );
    assert_eq!(
        report.matches("{\"record\":").count(),
        2,
        "both records printed as proof"
    );
}

#[test]
fn data_dir_flag_overrides_the_environment() {
    let dir = TempDir::new("datadir");
    let other = dir.path("elsewhere");
    let out = dir.path("g.log");
    let output = reversi(
        &dir.0,
        &[
            "selfplay",
            "--data-dir",
            other.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
    );
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert!(other.join("identity.key").exists());
    assert!(!dir.path("identity.key").exists());
}

#[test]
fn bad_selfplay_arguments_are_refused_clearly() {
    let dir = TempDir::new("badargs");
    let out = dir.path("x.log");
    let short = reversi(
        &dir.0,
        &[
            "selfplay",
            "--deadline",
            "1m",
            "--out",
            out.to_str().unwrap(),
        ],
    );
    assert_eq!(short.status.code(), Some(2));
    assert!(text(&short.stderr).contains("5 minutes to 7 days"));
    let out_str = out.to_str().unwrap();
    assert!(
        reversi(&dir.0, &["selfplay", "--out", out_str])
            .status
            .success()
    );
    let again = reversi(&dir.0, &["selfplay", "--out", out_str]);
    assert_eq!(
        again.status.code(),
        Some(1),
        "an existing log is never overwritten"
    );
}
