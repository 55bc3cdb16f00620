//! `reversi export`: a verified log as a transcript or as GGF.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::CliError;
use crate::engine::{Color, Ending, Position, Rules, format_transcript};
use crate::match_log::audit::audit_log_bytes;
use crate::match_log::log_file::read_bounded;
use crate::match_log::record::Seat;
use crate::match_log::verify::MatchVerifier;

/// Export formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Squares concatenated, e.g. f5d6c3.
    Transcript,
    /// Generic Game Format, as used by GGS and NBoard.
    Ggf,
}

/// Arguments of `reversi export`.
#[derive(Debug, Clone, Args)]
pub struct ExportArgs {
    /// The log.
    file: PathBuf,
    /// Output format.
    #[arg(long, value_enum)]
    format: Format,
}

/// GGF text of the log at `path` (which must audit clean).
pub fn ggf_of_log(path: &std::path::Path) -> Result<String, CliError> {
    let bytes = read_bounded(path).map_err(CliError::LogFile)?;
    let (_, verifier) = audit_log_bytes(&bytes)?;
    Ok(ggf(&verifier))
}

/// Runs `reversi export`: the log must verify first.
pub fn run(args: &ExportArgs) -> Result<String, CliError> {
    let bytes = read_bounded(&args.file).map_err(CliError::LogFile)?;
    let (_, verifier) = audit_log_bytes(&bytes)?;
    let squares: Vec<_> = verifier.moves().iter().map(|m| m.square).collect();
    Ok(match args.format {
        Format::Transcript => format!("{}\n", format_transcript(&squares)),
        Format::Ggf => format!("{}\n", ggf(&verifier)),
    })
}

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

fn ggf(v: &MatchVerifier) -> String {
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
    // GGF writes passes explicitly; our log leaves them to the engine.
    let mut position: Position = rules.start_position();
    for m in v.moves() {
        if position.to_move() != Some(m.color) {
            out.push_str(if m.color == Color::Black {
                "W[PA]"
            } else {
                "B[PA]"
            });
        }
        let tag = if m.color == Color::Black { 'B' } else { 'W' };
        out.push_str(&format!("{tag}[{}]", m.square));
        position = position.play(m.square).expect("verified move");
    }
    out.push_str(";)");
    out
}
