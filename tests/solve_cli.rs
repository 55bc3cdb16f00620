//! `reversi solve`, `bench`, `ladder` and the bot flags, run as a user runs them.

mod support;

use std::process::Output;

use support::TempDir;

fn reversi(args: &[&str]) -> Output {
    support::reversi()
        .args(args)
        .output()
        .expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn solve_file(dir: &TempDir, name: &str, contents: &str, extra: &[&str]) -> Output {
    let path = dir.path(name);
    std::fs::write(&path, contents).unwrap();
    let mut args = vec!["solve", path.to_str().unwrap()];
    args.extend_from_slice(extra);
    reversi(&args)
}

const FFO_1_3: &str = "\
--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18;
-XXXXXX---XOOOO--XOXXOOX-OOOOOOOOOOOXXOOOOOXXOOX--XXOO----XXXXX- X; A4:+10;

----OX----OOXX---OOOXX-XOOXXOOOOOXXOXXOOOXXXOOOOOXXXXOXO--OOOOOX X; D1:+2;
";

#[test]
fn solve_prints_line_move_and_score_then_a_summary() {
    let dir = TempDir::new("solve-ffo");
    let output = solve_file(&dir, "ffo.obf", FFO_1_3, &[]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let out = text(&output.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert!(lines[0].starts_with("1 g8 +18 "), "{out}");
    assert!(lines[1].starts_with("2 a4 +10 "), "{out}");
    // The blank line 3 is skipped; numbering follows the file.
    assert!(lines[2].starts_with("4 d1 +2 "), "{out}");
    assert!(
        lines[0].contains("nodes ") && lines[0].contains("time "),
        "{out}"
    );
    assert!(lines[3].starts_with("solved 3 positions: "), "{out}");
    // Several positions at once print the same answers in file order.
    let jobs = solve_file(&dir, "ffo2.obf", FFO_1_3, &["--jobs", "2"]);
    let answers = |o: &str, fields: &[usize]| -> Vec<String> {
        o.lines()
            .take(3)
            .map(|l| {
                let words: Vec<&str> = l.split_whitespace().collect();
                fields
                    .iter()
                    .map(|&f| words[f])
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    };
    assert_eq!(
        answers(&text(&jobs.stdout), &[0, 1, 2]),
        answers(&out, &[0, 1, 2])
    );
    // Each position on two threads: the same scores (of two equally good
    // moves, either may be named).
    let threaded = solve_file(&dir, "ffo3.obf", FFO_1_3, &["--threads", "2"]);
    let threaded = text(&threaded.stdout);
    assert_eq!(answers(&threaded, &[0, 2]), answers(&out, &[0, 2]));
    assert!(threaded.contains(" 2 threads)"), "{threaded}");
}

#[test]
fn the_table_size_never_changes_a_score_and_is_checked() {
    let dir = TempDir::new("solve-table-bits");
    let default = solve_file(&dir, "a.obf", FFO_1_3, &[]);
    let small = solve_file(&dir, "b.obf", FFO_1_3, &["--table-bits", "16"]);
    assert!(small.status.success(), "{}", text(&small.stderr));
    let scores = |o: &Output| -> Vec<String> {
        text(&o.stdout)
            .lines()
            .take(3)
            .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
            .collect()
    };
    assert_eq!(scores(&small), scores(&default));
    // Outside 16–27 the command refuses, naming the flag, and solves nothing.
    for bits in ["15", "28", "many"] {
        let refused = solve_file(&dir, "c.obf", FFO_1_3, &["--table-bits", bits]);
        assert!(!refused.status.success(), "--table-bits {bits} was taken");
        assert!(refused.stdout.is_empty(), "{}", text(&refused.stdout));
        assert!(
            text(&refused.stderr).contains("--table-bits"),
            "{}",
            text(&refused.stderr)
        );
    }
}

#[test]
fn a_malformed_line_is_named_and_nothing_is_solved() {
    let dir = TempDir::new("solve-bad");
    let cases = [
        (
            "short.obf",
            format!("{}\n---- X\n", FFO_1_3.lines().next().unwrap()),
            "line 2",
        ),
        ("side.obf", format!("{} Z\n", "-".repeat(64)), "line 1"),
        ("cell.obf", format!("{}Q X\n", "-".repeat(63)), "line 1"),
        ("empty.obf", String::new(), "no positions"),
        (
            "free.obf",
            format!(
                "{} X\n",
                FFO_1_3.lines().next().unwrap().split(' ').next().unwrap()
            ),
            "",
        ),
    ];
    for (name, contents, expected) in &cases[..4] {
        let output = solve_file(&dir, name, contents, &[]);
        assert_eq!(output.status.code(), Some(1), "{name}");
        let err = text(&output.stderr);
        assert!(err.contains(expected), "{name}: {err}");
        assert!(!err.contains("panicked"), "{name}: {err}");
        assert!(text(&output.stdout).is_empty(), "{name}: nothing solved");
    }
    // Rules that cannot hold the position are an error naming the line.
    let (name, contents, _) = &cases[4];
    let output = solve_file(&dir, name, contents, &["--opening", "free"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        text(&output.stderr).contains("line 1"),
        "{}",
        text(&output.stderr)
    );
    // A missing file.
    let output = reversi(&["solve", dir.path("missing.obf").to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    assert!(text(&output.stderr).contains("missing.obf"));
}

#[test]
fn solve_reports_passes_finished_games_and_rule_flags() {
    let dir = TempDir::new("solve-pass");
    // X to move cannot move (a1 O, b1 X); O then takes c1 and wins 3-0
    // with 61 empties: -64 for X. Then a finished game: 1-1, a draw.
    let pass = format!("OX{} X\n", "-".repeat(62));
    let over = format!("X{}O X\n", "-".repeat(62));
    let output = solve_file(&dir, "pass.obf", &format!("{pass}{over}"), &[]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let out = text(&output.stdout);
    assert!(
        out.lines().next().unwrap().starts_with("1 pass -64 "),
        "{out}"
    );
    assert!(
        out.lines().nth(1).unwrap().starts_with("2 none +0 "),
        "{out}"
    );
    // On the torus O's a1 lies between X's b1 and the empty h1 across the
    // edge, so X is no longer stuck: X plays h1 and wins 3-0, +64.
    let torus = solve_file(&dir, "torus.obf", &pass, &["--topology", "torus"]);
    assert!(torus.status.success(), "{}", text(&torus.stderr));
    assert!(
        text(&torus.stdout).starts_with("1 h1 +64 "),
        "{}",
        text(&torus.stdout)
    );
    // Walls in the file are walls.
    let walls = format!("#OX{} X\n", "-".repeat(61));
    let output = solve_file(&dir, "walls.obf", &walls, &[]);
    assert!(output.status.success(), "{}", text(&output.stderr));
}

#[test]
fn bench_reports_perft_midgame_and_ffo_figures() {
    let output = reversi(&[
        "bench",
        "--runs",
        "1",
        "--perft-depth",
        "6",
        "--depth",
        "4",
        "--ffo",
        "1",
    ]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let out = text(&output.stdout);
    assert!(
        out.contains("perft 6 (standard start): 8200 leaves"),
        "{out}"
    );
    assert!(
        out.contains("midgame search, depth 4 on 10 positions"),
        "{out}"
    );
    assert!(out.contains("FFO #40: a2 +38"), "{out}");
    assert!(out.contains("M nodes/s (one thread)"), "{out}");

    let output = reversi(&[
        "bench",
        "--runs",
        "1",
        "--perft-depth",
        "1",
        "--depth",
        "6",
        "--ffo",
        "1",
        "--threads",
        "2",
    ]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let out = text(&output.stdout);
    assert!(
        out.contains("midgame search, depth 6 on 10 positions, 2 threads"),
        "{out}"
    );
    assert!(out.contains("FFO #40: a2 +38"), "{out}");
    assert!(out.contains("M nodes/s (2 threads)"), "{out}");
}

#[test]
fn selfplay_takes_bot_levels_for_each_colour() {
    let dir = TempDir::new("selfplay-bot");
    let log = dir.path("game.log");
    let data = dir.path("data");
    let output = reversi(&[
        "selfplay",
        "--black",
        "6",
        "--white",
        "random",
        "--seed",
        "3",
        "--out",
        log.to_str().unwrap(),
        "--data-dir",
        data.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let audit = reversi(&["audit", log.to_str().unwrap()]);
    assert!(audit.status.success(), "{}", text(&audit.stdout));
    // Level 6 beats the random player from this seed.
    assert!(
        text(&audit.stdout).contains("black wins"),
        "{}",
        text(&audit.stdout)
    );
    for bad in ["11", "0", "strong"] {
        let output = reversi(&["selfplay", "--black", bad, "--out", "x.log"]);
        assert_eq!(output.status.code(), Some(2), "{bad}");
        assert!(text(&output.stderr).contains("bot level from 1 to 10"));
    }
}

#[test]
fn ladder_prints_the_table() {
    let output = reversi(&["ladder", "--games", "4", "--from", "1", "--to", "3"]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let out = text(&output.stdout);
    assert!(out.contains(" 2 Beginner      vs  1 Novice"), "{out}");
    assert!(out.contains(" 3 Casual        vs  2 Beginner"), "{out}");
}
