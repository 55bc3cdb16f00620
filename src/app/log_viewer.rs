//! Opening a match log: the audit verdict (the same checks as `reversi
//! audit`) and the game step by step.

use super::i18n::t;
use crate::engine::{Position, Rules, Square};
use crate::match_log::audit::audit_log_bytes;

/// A verified log, ready to step through.
#[derive(Debug, Clone)]
pub struct ViewedLog {
    /// Players, rules and result in words.
    pub summary: Vec<String>,
    /// The position before the first move and after each move.
    pub positions: Vec<Position>,
    /// The squares played, in order: one for each position after the first.
    pub moves: Vec<Square>,
    /// The rules the game was played under.
    pub rules: Rules,
}

impl ViewedLog {
    /// A game that has no log (one against the computer), to step through
    /// and analyse.
    pub fn from_game(rules: Rules, moves: &[Square], summary: Vec<String>) -> ViewedLog {
        let mut position = rules.start_position();
        let mut positions = vec![position];
        let mut played = Vec::new();
        for &square in moves {
            let Ok(next) = position.play(square) else {
                break;
            };
            position = next;
            positions.push(position);
            played.push(square);
        }
        ViewedLog {
            summary,
            positions,
            moves: played,
            rules,
        }
    }
}

/// Reads, audits and prepares a log file; the error is the audit's
/// `record N: reason`.
#[cfg(not(target_arch = "wasm32"))]
pub fn open_log(path: &std::path::Path) -> Result<ViewedLog, String> {
    let bytes = crate::match_log::log_file::read_bounded(path).map_err(|e| e.to_string())?;
    view_log(&bytes)
}

/// Audits and prepares a log's bytes (a dropped file's, in the browser).
pub fn view_log(bytes: &[u8]) -> Result<ViewedLog, String> {
    let (_, verifier) = audit_log_bytes(bytes).map_err(|e| e.to_string())?;
    let draw = verifier
        .coin_flip()
        .ok_or("the log ends before the coin flip")?;
    let mut position = draw.rules.start_position();
    let mut positions = vec![position];
    let moves: Vec<Square> = verifier.moves().iter().map(|m| m.square).collect();
    for &square in &moves {
        position = position.play(square).map_err(|e| e.to_string())?;
        positions.push(position);
    }
    let name = |seat| {
        verifier
            .player(seat)
            .map_or_else(String::new, |p| p.name.clone())
    };
    let black = draw.black;
    let mut summary = vec![
        t!("viewer-verified", records = verifier.record_count()),
        t!(
            "viewer-players",
            black = name(black),
            white = name(black.other())
        ),
        t!("viewer-rules", rules = draw.rules.options().to_string()),
    ];
    summary.push(match verifier.end() {
        Some(end) => t!("viewer-result", result = super::i18n::outcome(&end.outcome)),
        None => t!("viewer-unfinished"),
    });
    Ok(ViewedLog {
        summary,
        positions,
        moves,
        rules: draw.rules,
    })
}
