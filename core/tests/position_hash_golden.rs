//! Pins the canonical position encoding and the position hash.

mod support;

use reversi_core::engine::{CANONICAL_LEN, parse_transcript, replay};
use support::rules_from_flags;

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn canonical_bytes_and_hashes_match_the_golden_file() {
    let text = include_str!("data/position_hash.golden");
    let mut checked = 0;
    let mut position = None;
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        if let Some(flags) = line.strip_prefix("rules ") {
            position = Some(rules_from_flags(flags).start_position());
        } else if let Some(moves) = line.strip_prefix("moves ") {
            let start = position.expect("rules first");
            position = Some(replay(&start, &parse_transcript(moves).unwrap()).unwrap());
        } else if let Some(bytes) = line.strip_prefix("bytes ") {
            let actual = position.expect("rules first").canonical_bytes();
            assert_eq!(actual.len(), CANONICAL_LEN);
            assert_eq!(hex(&actual), bytes, "line {line_no}");
        } else if let Some(hash) = line.strip_prefix("hash ") {
            assert_eq!(
                position.expect("rules first").hash().to_hex(),
                hash,
                "line {line_no}"
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 10);
}

#[test]
fn the_standard_start_layout_is_as_documented() {
    let bytes = reversi_core::engine::Rules::default()
        .start_position()
        .canonical_bytes();
    assert_eq!(&bytes[0..4], b"RVP\x01");
    // White d4 (bit 27) and e5 (bit 36); black d5 (bit 35) and e4 (bit 28).
    assert_eq!(
        u64::from_le_bytes(bytes[4..12].try_into().unwrap()),
        (1 << 35) | (1 << 28)
    );
    assert_eq!(
        u64::from_le_bytes(bytes[12..20].try_into().unwrap()),
        (1 << 27) | (1 << 36)
    );
    assert_eq!(&bytes[20..28], &[0; 8], "no walls");
    assert_eq!(bytes[28], 0, "black to move");
    assert_eq!(&bytes[29..31], &[255, 255], "unlimited supplies");
    assert_eq!(bytes[31], 4, "opening complete");
    assert_eq!(&bytes[32..38], &[0; 6], "othello options, reserved byte");
}

#[test]
fn every_option_changes_the_hash() {
    let flags = [
        "--rules othello",
        "--draw black",
        "--draw white",
        "--scoring empties",
        "--discs 32",
        "--topology torus",
        "--walls a1",
        "--opening free",
        "--opening double",
        "--setup \"---------------------------OX------XO--------------------------- O\"",
    ];
    let mut hashes: Vec<String> = flags
        .iter()
        .map(|f| rules_from_flags(f).start_position().hash().to_hex())
        .collect();
    hashes.sort();
    hashes.dedup();
    assert_eq!(hashes.len(), flags.len());
}
