//! Reads the perft golden file and checks every count, and cross-checks the
//! smaller counts against the naive reference rules.

mod support;

use reversi_core::engine::{Position, parse_transcript, perft, replay};
use support::naive_rules::NaiveGame;
use support::rules_from_flags;

/// Leaf counts up to this are also computed by the (slow) naive rules.
const NAIVE_BUDGET: u64 = 100_000;

struct Case {
    line: usize,
    description: String,
    start: Position,
    counts: Vec<(u32, u64)>,
}

fn read_cases() -> Vec<Case> {
    let text = include_str!("data/perft/perft.golden");
    let mut cases: Vec<Case> = Vec::new();
    let mut description = String::new();
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        if let Some(comment) = line.strip_prefix("# ") {
            description = comment.to_string();
        } else if let Some(flags) = line.strip_prefix("rules ") {
            cases.push(Case {
                line: line_no,
                description: description.clone(),
                start: rules_from_flags(flags).start_position(),
                counts: Vec::new(),
            });
        } else if let Some(moves) = line.strip_prefix("moves ") {
            let case = cases.last_mut().expect("moves after rules");
            let moves = parse_transcript(moves).expect("golden transcript parses");
            case.start =
                replay(&case.start, &moves).unwrap_or_else(|e| panic!("line {line_no}: {e}"));
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let (depth, leaves) = rest.split_once(' ').expect("perft DEPTH LEAVES");
            let case = cases.last_mut().expect("perft after rules");
            case.counts
                .push((depth.parse().unwrap(), leaves.parse().unwrap()));
        } else {
            assert!(
                line.trim().is_empty() || line.starts_with('#'),
                "line {line_no}: {line:?}"
            );
        }
    }
    cases
}

#[test]
fn perft_counts_match_the_golden_file() {
    let cases = read_cases();
    assert!(cases.len() >= 10, "the golden file has all its cases");
    for case in &cases {
        assert!(
            !case.counts.is_empty(),
            "case at line {} has counts",
            case.line
        );
        for &(depth, expected) in &case.counts {
            assert_eq!(
                perft(&case.start, depth),
                expected,
                "{} (line {}), depth {depth}",
                case.description,
                case.line
            );
        }
    }
}

#[test]
fn golden_counts_agree_with_the_naive_rules() {
    for case in read_cases() {
        let naive = NaiveGame::from_position(&case.start);
        for &(depth, expected) in case.counts.iter().filter(|(_, n)| *n <= NAIVE_BUDGET) {
            assert_eq!(
                naive.perft(depth),
                expected,
                "{} (line {}), depth {depth}",
                case.description,
                case.line
            );
        }
    }
}

#[test]
fn standard_perft_is_the_published_sequence() {
    let published = [
        4u64, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284, 212258800,
    ];
    let othello = read_cases()
        .into_iter()
        .next()
        .expect("first case is the standard start");
    let golden: Vec<u64> = othello.counts.iter().map(|&(_, n)| n).collect();
    assert_eq!(golden, published);
}
