//! A verified game in other programs' formats.

use super::record::Seat;
use super::verify::MatchVerifier;
use crate::engine::{Color, Ending, Outcome, Rules};

/// GGF text must not contain its delimiters.
fn ggf_text(text: &str) -> String {
    text.chars()
        .filter(|c| !matches!(c, '[' | ']' | '\\'))
        .collect()
}

/// The `BO` value: size, 8 rows of cells (`*` black, `O` white, `-` empty,
/// `#` wall — an extension), and the side to move.
fn ggf_board(rules: &Rules) -> String {
    let start = rules.start();
    let text = start.board_text().replace('X', "*");
    let rows: Vec<&str> = (0..8).map(|r| &text[r * 8..r * 8 + 8]).collect();
    let side = match start.to_move {
        Color::Black => '*',
        Color::White => 'O',
    };
    format!("8 {} {side}", rows.join(" "))
}

/// The game of a verified log in the Generic Game Format (GGS, NBoard):
/// the players' names, the result, the deadline as time, the rules as a
/// comment when they are not the standard ones, the start board and the
/// moves with passes written out.
pub fn ggf(v: &MatchVerifier) -> String {
    let rules = v.coin_flip().map_or(v.proposal().rules, |d| d.rules);
    let name = |color| {
        v.seat_of(color)
            .and_then(|s: Seat| v.player(s))
            .map_or(String::new(), |p| ggf_text(&p.name))
    };
    let mut out = format!(
        "(;GM[Othello]PC[reversi]PB[{}]PW[{}]",
        name(Color::Black),
        name(Color::White)
    );
    if let Some(end) = v.end() {
        let diff = i32::from(end.outcome.score.black) - i32::from(end.outcome.score.white);
        let suffix = match end.outcome.ending {
            Ending::BoardFinished => "",
            Ending::Resignation { .. } => ":r",
            Ending::Timeout { .. } => ":t",
        };
        out.push_str(&format!("RE[{diff:+}.00{suffix}]"));
    }
    out.push_str(&format!("TI[{}]TY[8]", v.deadline_secs()));
    if rules.options() != Default::default() {
        out.push_str(&format!(
            "C[rules: {}]",
            ggf_text(&rules.options().to_string())
        ));
    }
    out.push_str(&format!("BO[{}]", ggf_board(&rules)));
    // GGF writes passes explicitly; our log leaves them to the engine, so
    // a move by the side that just moved means the other side passed.
    let mut expected = rules.start().to_move;
    for m in v.moves() {
        if m.color != expected {
            out.push_str(if expected == Color::Black {
                "B[PA]"
            } else {
                "W[PA]"
            });
        }
        let tag = if m.color == Color::Black { 'B' } else { 'W' };
        out.push_str(&format!("{tag}[{}]", m.square));
        expected = !m.color;
    }
    out.push_str(";)");
    out
}

/// The outcome as JSON, as `reversi board --json`, `reversi audit --json`
/// and the browser's status give it: winner (or "draw"), score, how it ended.
pub fn outcome_json(outcome: &Outcome) -> serde_json::Value {
    serde_json::json!({
        "winner": outcome.winner.map_or("draw", Color::name),
        "score": { "black": outcome.score.black, "white": outcome.score.white },
        "ending": outcome.ending.describe(),
    })
}
