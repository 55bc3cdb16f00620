//! `reversi export`: a verified log as a transcript or as GGF.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::CliError;
use crate::engine::format_transcript;
use crate::match_log::audit::audit_log_bytes;
use crate::match_log::export::ggf;
use crate::match_log::log_file::read_bounded;

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
    /// The match log file to export (it must verify).
    file: PathBuf,
    /// Output format.
    #[arg(long, value_enum)]
    format: Format,
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
