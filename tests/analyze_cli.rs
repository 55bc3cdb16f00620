//! `reversi analyze` on a log, a GGF file and a transcript, as a user runs it.

mod support;

use std::path::Path;
use std::process::Output;

use serde_json::Value;
use support::TempDir;

const FINISHED: &str = "tests/data/nboard/finished_game.ggf";

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

fn analysis(home: &Path, args: &[&str]) -> Value {
    let output = reversi(home, args);
    assert!(output.status.success(), "{}", text(&output.stderr));
    serde_json::from_slice(&output.stdout).expect("one JSON object")
}

fn discs(score: &Value) -> f64 {
    score["discs"].as_f64().unwrap()
}

#[test]
fn a_finished_game_is_analysed_move_by_move_exactly_at_the_end() {
    let dir = TempDir::new("analyze-ggf");
    let json = analysis(
        &dir.0,
        &[
            "analyze", FINISHED, "--depth", "4", "--exact", "14", "--json",
        ],
    );
    assert_eq!(json["source"], "ggf");
    let moves = json["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 60);
    for (i, m) in moves.iter().enumerate() {
        assert_eq!(m["number"], i + 1);
        let loss = m["loss"].as_f64().unwrap();
        assert!(loss >= 0.0, "{m}");
        assert!(
            (discs(&m["best_score"]) - discs(&m["score"]) - loss).abs() < 1e-9,
            "{m}"
        );
        let mark = m["mark"].as_str();
        assert_eq!(mark.is_some(), loss >= 2.0, "{m}");
        if m["move"] == m["best"] {
            assert_eq!(loss, 0.0);
        }
    }
    // The last 14 moves start from 14 empties or fewer: exact, and each
    // move's exact value is the next position's best value for its mover.
    let late = &moves[46..];
    assert!(late.iter().all(|m| m["best_score"]["exact"] == true));
    for w in late.windows(2) {
        let same = w[0]["color"] == w[1]["color"];
        let played = discs(&w[0]["score"]);
        let next = discs(&w[1]["best_score"]);
        assert_eq!(
            next,
            if same { played } else { -played },
            "{} {}",
            w[0],
            w[1]
        );
    }
    // The game ended 7–57 with nothing left empty: the last move's value.
    assert_eq!(discs(&moves[59]["score"]), 50.0);
    assert_eq!(moves[59]["color"], "white");
    let marked = json["black"]["marked"].as_array().unwrap();
    assert!(!marked.is_empty(), "a game lost by 50 has marked mistakes");
}

#[test]
fn a_log_and_its_transcript_give_the_same_analysis() {
    let dir = TempDir::new("analyze-log");
    let log = dir.path("game.log");
    let played = reversi(
        &dir.0,
        &[
            "selfplay",
            "--seed",
            "5",
            "--black",
            "2",
            "--white",
            "3",
            "--out",
            log.to_str().unwrap(),
        ],
    );
    assert!(played.status.success(), "{}", text(&played.stderr));
    let transcript = reversi(
        &dir.0,
        &["export", log.to_str().unwrap(), "--format", "transcript"],
    );
    let transcript = text(&transcript.stdout).trim().to_string();
    let flags = ["--depth", "3", "--exact", "12", "--json"];
    let mut args = vec!["analyze", log.to_str().unwrap()];
    args.extend(flags);
    let from_log = analysis(&dir.0, &args);
    let mut args = vec!["analyze", transcript.as_str()];
    args.extend(flags);
    let from_transcript = analysis(&dir.0, &args);
    assert_eq!(from_log["source"], "log");
    assert_eq!(from_transcript["source"], "transcript");
    assert_eq!(from_log["moves"], from_transcript["moves"]);
    // The table names the same mistakes.
    let table = reversi(
        &dir.0,
        &[
            "analyze",
            log.to_str().unwrap(),
            "--depth",
            "3",
            "--exact",
            "12",
        ],
    );
    let table = text(&table.stdout);
    for number in from_log["black"]["marked"].as_array().unwrap() {
        assert!(table.contains(&format!("{number} ")), "{table}");
    }
    // A row for every move, after the two header lines.
    let moves = from_log["moves"].as_array().unwrap().len();
    assert!(moves > 40, "a whole game was played");
    assert!(table.lines().count() >= moves + 2, "{table}");
}

#[test]
fn bad_games_are_refused_clearly() {
    let dir = TempDir::new("analyze-bad");
    let output = reversi(&dir.0, &["analyze", "f5a1"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        text(&output.stderr).contains("move 2 (a1)"),
        "{}",
        text(&output.stderr)
    );
    let output = reversi(&dir.0, &["analyze", FINISHED, "--rules", "torus"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(text(&output.stderr).contains("rule flags are for a transcript"));
    let damaged = dir.path("damaged.ggf");
    std::fs::write(&damaged, "(;GM[Othello]BO[8 --- *];)").unwrap();
    let output = reversi(&dir.0, &["analyze", damaged.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        text(&output.stderr).contains("board:"),
        "{}",
        text(&output.stderr)
    );
}
