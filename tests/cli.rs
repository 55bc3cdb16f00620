//! The `reversi` binary's commands, run as a user runs them.

mod support;

use std::process::Output;

use serde_json::Value;

fn reversi(args: &[&str]) -> Output {
    support::reversi()
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn board_json(args: &[&str]) -> Value {
    let mut all = vec!["board", "--json"];
    all.extend_from_slice(args);
    let output = reversi(&all);
    assert!(output.status.success(), "{}", stderr(&output));
    serde_json::from_slice(&output.stdout).expect("one JSON object")
}

#[test]
fn board_json_describes_the_standard_start() {
    let json = board_json(&[]);
    assert_eq!(json["black"], 2);
    assert_eq!(json["white"], 2);
    assert_eq!(json["empty"], 60);
    assert_eq!(json["to_move"], "black");
    assert_eq!(json["legal"], serde_json::json!(["d3", "c4", "f5", "e6"]));
    assert_eq!(json["over"], false);
    assert_eq!(json["result"], Value::Null);
}

#[test]
fn board_json_reports_a_finished_game_and_its_score() {
    let json = board_json(&["--moves", "F5D6C5F4E3F6G5E6E7"]);
    assert_eq!(json["over"], true);
    assert_eq!(json["to_move"], Value::Null);
    assert_eq!(json["legal"], serde_json::json!([]));
    assert_eq!(json["result"]["winner"], "black");
    assert_eq!(json["result"]["score"]["black"], 13);
    assert_eq!(json["result"]["score"]["white"], 0);
    assert_eq!(json["moves"], "f5d6c5f4e3f6g5e6e7");
    let empties = board_json(&[
        "--moves",
        "f5d6c5f4e3f6g5e6e7",
        "--rules",
        "reversi",
        "--opening",
        "preset",
    ]);
    assert_eq!(empties["result"]["score"]["black"], 64);
}

#[test]
fn board_text_shows_walls_and_legal_moves() {
    let output = reversi(&["board", "--walls", "a1,h8"]);
    let text = stdout(&output);
    assert!(output.status.success());
    let rows: Vec<&str> = text.lines().collect();
    assert_eq!(rows[1], "1  # - - - - - - -");
    assert_eq!(rows[3], "3  - - - * - - - -");
    assert_eq!(rows[8], "8  - - - - - - - #");
    assert!(text.contains("legal: d3 c4 f5 e6"));
}

#[test]
fn an_illegal_move_exits_1_naming_the_move_and_its_number() {
    let output = reversi(&["board", "--moves", "f5d6a1"]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        stderr(&output).trim(),
        "error: illegal move: move 3 (a1): a1 flips nothing"
    );
    assert!(output.stdout.is_empty());
}

#[test]
fn a_malformed_transcript_exits_1_naming_the_text_and_move_number() {
    let output = reversi(&["board", "--moves", "f5d6x9"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("move 3: expected a square from a1 to h8, found \"x9\""));
}

#[test]
fn invalid_rules_exit_1_with_the_reason() {
    let output = reversi(&["board", "--walls", "d4"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("square d4 holds a wall and a disc"),
        "{}",
        stderr(&output)
    );

    let output = reversi(&[
        "board",
        "--opening",
        "free",
        "--setup",
        &format!("{} X", "-".repeat(27) + "X" + &"-".repeat(36)),
    ]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output)
            .contains("the free opening needs the centre squares empty, but d4 is occupied")
    );
}

#[test]
fn perft_prints_the_count_alone_on_the_first_line() {
    let output = reversi(&["perft", "6"]);
    assert!(output.status.success());
    let text = stdout(&output);
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("8200"));
    assert!(lines.next().unwrap().contains("leaves per second"));
    let torus = stdout(&reversi(&["perft", "7", "--rules", "torus"]));
    assert_eq!(torus.lines().next(), Some("55180"));
}

#[test]
fn bad_input_gets_a_clear_error_and_never_a_panic() {
    let long = "a1".repeat(5000);
    let control = "f5\u{1}\u{7f}";
    let bad: Vec<Vec<&str>> = vec![
        vec!["board", "--moves", "zz"],
        vec!["board", "--moves", &long],
        vec!["board", "--moves", control],
        vec!["board", "--moves", "é5ü6"],
        vec!["board", "--setup", "X"],
        vec!["board", "--setup", ""],
        vec![
            "board",
            "--setup",
            "######################################################################## X",
        ],
        vec!["board", "--walls", ",,,"],
        vec!["board", "--walls", "a1,,zz"],
        vec!["board", "--discs", "0"],
        vec!["board", "--discs", "99999999999999999999"],
        vec!["board", "--rules", "chess"],
        vec!["board", "--opening", "free", "--discs", "1"],
        vec!["perft", "-1"],
        vec!["perft", "99"],
        vec!["perft", "3", "--moves", "f5f5"],
        vec!["unknown-command"],
    ];
    for args in &bad {
        let output = reversi(args);
        let code = output.status.code();
        assert!(
            matches!(code, Some(1) | Some(2)),
            "{args:?} exited with {code:?}"
        );
        let err = stderr(&output);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(err.contains("error"), "{args:?} explains itself: {err}");
    }
}
