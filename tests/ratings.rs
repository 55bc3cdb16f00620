//! `reversi ratings`: Glicko-2 from finished, verified logs, each game once,
//! against values computed by hand for a small case.

mod support;

use std::path::PathBuf;

use reversi::match_log::log_file::write_log;
use serde_json::Value;
use support::TempDir;
use support::logs::{DAY_MS, Decided, T0, decided_game, new_game, person, play_random};

fn ratings(args: &[PathBuf], json: bool) -> (bool, String, String) {
    let mut command = support::reversi();
    command.arg("ratings").args(args);
    if json {
        command.arg("--json");
    }
    let output = command.output().unwrap();
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn json_of(args: &[PathBuf]) -> Value {
    let (ok, out, err) = ratings(args, true);
    assert!(ok, "{err}");
    serde_json::from_str(&out).unwrap()
}

/// Day 1: Ann beats Ben. Day 2: Ben and Cy draw; Ann does not play.
fn small_case(dir: &TempDir) -> Vec<PathBuf> {
    let (ann, ben, cy) = (person(1), person(2), person(3));
    let games = [
        decided_game((&ann, "Ann"), (&ben, "Ben"), T0, Decided::HostWins),
        decided_game((&ben, "Ben"), (&cy, "Cy"), T0 + DAY_MS, Decided::Draw),
    ];
    games
        .iter()
        .enumerate()
        .map(|(i, game)| {
            let path = dir.path(&format!("game{i}.log"));
            write_log(&path, game.records()).unwrap();
            path
        })
        .collect()
}

fn player<'a>(json: &'a Value, name: &str) -> &'a Value {
    json["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == name)
        .unwrap_or_else(|| panic!("{name} in {json}"))
}

fn close(value: &Value, expected: f64) -> bool {
    (value.as_f64().unwrap() - expected).abs() < 1e-6
}

#[test]
fn a_small_case_gives_the_values_computed_by_hand() {
    let dir = TempDir::new("ratings-small");
    let logs = small_case(&dir);
    let json = json_of(&logs);
    assert_eq!(json["games"], 2);
    // By hand from Glickman's paper (τ = 0.5, ε = 1e-6), all starting at
    // 1500 / 350 / 0.06. Day 1, a win between two new players: ±162.3108939,
    // deviation 290.3189637. Day 2: Ben (1337.69 / 290.32) draws Cy (new);
    // Ann, idle, only grows less certain: √(φ² + σ²).
    let expected = [
        (
            "Ann",
            1662.3108939062977,
            290.5060065906196,
            0.05999967537233814,
            (1, 0, 0),
        ),
        (
            "Cy",
            1442.3785136867991,
            286.9272058793522,
            0.05999899836136578,
            (0, 1, 0),
        ),
        (
            "Ben",
            1376.003515424265,
            256.3451684359266,
            0.05999869083062934,
            (0, 1, 1),
        ),
    ];
    for (rank, (name, rating, deviation, volatility, (w, d, l))) in expected.iter().enumerate() {
        let p = player(&json, name);
        assert_eq!(p["rank"], rank + 1, "{name}: {p}");
        assert!(close(&p["rating"], *rating), "{name}: {p}");
        assert!(close(&p["deviation"], *deviation), "{name}: {p}");
        assert!(close(&p["volatility"], *volatility), "{name}: {p}");
        assert_eq!(
            (p["wins"].clone(), p["draws"].clone(), p["losses"].clone()),
            ((*w).into(), (*d).into(), (*l).into()),
            "{name}"
        );
    }
    let (ok, text, _) = ratings(&logs, false);
    assert!(ok);
    assert!(text.starts_with("2 games counted, 3 players"), "{text}");
    assert!(text.contains("Ann") && text.contains("1662.3"), "{text}");
}

#[test]
fn a_game_counts_once_and_bad_or_unfinished_logs_are_skipped_with_the_reason() {
    let dir = TempDir::new("ratings-skips");
    let logs = small_case(&dir);
    let baseline = json_of(&logs);
    // A copy of game 0, an unfinished game, a tampered log, a missing file.
    let copy = dir.path("copy.log");
    std::fs::copy(&logs[0], &copy).unwrap();
    let mut unfinished = new_game(9);
    play_random(&mut unfinished, 9, 4);
    let open = dir.path("open.log");
    write_log(&open, unfinished.records()).unwrap();
    let tampered = dir.path("tampered.log");
    let text = std::fs::read_to_string(&logs[1]).unwrap();
    std::fs::write(
        &tampered,
        text.replacen("\"record\":\"", "\"record\":\"A", 1),
    )
    .unwrap();
    let missing = dir.path("missing.log");
    let mut all = logs.clone();
    all.extend([
        copy.clone(),
        open.clone(),
        tampered.clone(),
        missing.clone(),
    ]);
    let json = json_of(&all);
    assert_eq!(json["players"], baseline["players"], "the same table");
    assert_eq!(json["games"], 2);
    let reason = |path: &PathBuf| {
        json["skipped"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["file"] == path.display().to_string())
            .map(|s| s["reason"].as_str().unwrap().to_string())
            .unwrap_or_else(|| panic!("{} skipped in {json}", path.display()))
    };
    assert!(reason(&copy).contains("counted once"), "{}", reason(&copy));
    assert!(reason(&open).starts_with("unfinished"), "{}", reason(&open));
    assert!(
        reason(&tampered).starts_with("audit failed"),
        "{}",
        reason(&tampered)
    );
    assert!(!reason(&missing).is_empty());
    // Any order, the same table.
    let mut reversed = all.clone();
    reversed.reverse();
    assert_eq!(json_of(&reversed)["players"], json["players"]);
}

#[test]
fn two_different_endings_of_one_game_count_neither() {
    let dir = TempDir::new("ratings-fork");
    let (ann, ben) = (person(1), person(2));
    let won = decided_game((&ann, "Ann"), (&ben, "Ben"), T0, Decided::HostWins);
    let lost = decided_game((&ann, "Ann"), (&ben, "Ben"), T0, Decided::GuestWins);
    assert_eq!(won.records()[0], lost.records()[0], "one game");
    let (a, b) = (dir.path("won.log"), dir.path("lost.log"));
    write_log(&a, won.records()).unwrap();
    write_log(&b, lost.records()).unwrap();
    let json = json_of(&[a.clone(), b.clone()]);
    assert_eq!(json["games"], 0);
    assert_eq!(json["players"], Value::Array(vec![]));
    let skipped = json["skipped"].as_array().unwrap();
    assert_eq!(skipped.len(), 2, "{json}");
    assert!(skipped.iter().all(|s| {
        s["reason"]
            .as_str()
            .unwrap()
            .contains("two different finished logs")
    }));
}
