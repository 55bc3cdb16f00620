//! Helpers shared by the core's integration tests: the reference rules
//! (an independent, naive implementation the engine is checked against)
//! and rule flags read the way the `reversi` command line reads them, so
//! the golden files can name their rules as a player would.

#![allow(dead_code)]

pub mod board_names;
pub mod logs;
pub mod naive_rules;
mod words;

pub use words::split_quoted;

use reversi_core::engine::{
    Bitboard, Discs, DrawRule, Opening, Preset, RuleOptions, Rules, Scoring, Setup, Square,
    Topology,
};

/// Rules from command-line rule flags, such as `--rules torus --walls a1`:
/// the preset's options with each flag applied over them, the start of
/// the opening (or `--setup`), and the walls added.
pub fn rules_from_flags(flags: &str) -> Rules {
    let words = split_quoted(flags);
    let mut preset = Preset::Othello;
    let (mut opening, mut discs, mut scoring, mut draw, mut topology) = (
        None::<Opening>,
        None::<Discs>,
        None::<Scoring>,
        None::<DrawRule>,
        None::<Topology>,
    );
    let mut walls = Bitboard::EMPTY;
    let mut setup = None::<Setup>;
    let bad =
        |what: &str, e: &dyn std::fmt::Display| -> ! { panic!("flags {flags:?}: {what}: {e}") };
    let mut pairs = words.chunks(2);
    for pair in &mut pairs {
        let [flag, value] = pair else {
            panic!("flags {flags:?}: a flag without a value")
        };
        match flag.as_str() {
            "--rules" => preset = value.parse().unwrap_or_else(|e| bad("--rules", &e)),
            "--opening" => opening = Some(value.parse().unwrap_or_else(|e| bad("--opening", &e))),
            "--discs" => discs = Some(value.parse().unwrap_or_else(|e| bad("--discs", &e))),
            "--scoring" => scoring = Some(value.parse().unwrap_or_else(|e| bad("--scoring", &e))),
            "--draw" => draw = Some(value.parse().unwrap_or_else(|e| bad("--draw", &e))),
            "--topology" => {
                topology = Some(value.parse().unwrap_or_else(|e| bad("--topology", &e)))
            }
            "--walls" => {
                for name in value.split(',') {
                    let square: Square = name.trim().parse().unwrap_or_else(|e| bad("--walls", &e));
                    walls = walls.with(square);
                }
            }
            "--setup" => setup = Some(value.parse().unwrap_or_else(|e| bad("--setup", &e))),
            other => panic!("flags {flags:?}: unknown flag {other}"),
        }
    }
    let base = preset.options();
    let options = RuleOptions {
        opening: opening.unwrap_or(base.opening),
        discs: discs.unwrap_or(base.discs),
        scoring: scoring.unwrap_or(base.scoring),
        draw: draw.unwrap_or(base.draw),
        topology: topology.unwrap_or(base.topology),
    };
    let mut start = setup.unwrap_or_else(|| Setup::for_opening(options.opening));
    start.walls = Bitboard(start.walls.0 | walls.0);
    Rules::new(options, start).unwrap_or_else(|e| bad("rules", &e))
}
