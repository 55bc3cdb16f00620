//! The command line: argument types (clap) and one module per command.

pub mod board_command;
pub mod perft_command;
pub mod play_command;
pub mod rule_args;

use clap::{Parser, Subcommand};

use crate::engine::{ReplayError, TranscriptError};
use rule_args::RuleArgsError;

/// Peer-to-peer Reversi in all its historic forms.
#[derive(Debug, Parser)]
#[command(name = "reversi", version, about)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play a transcript and print the board, legal moves, counts and result.
    Board(board_command::BoardArgs),
    /// Count leaf nodes to a depth (move generator check and speed).
    Perft(perft_command::PerftArgs),
    /// Play the computer in the terminal (the default without a command).
    Play(play_command::PlayArgs),
}

/// Everything a command can fail with; printed as one line, exit status 1.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// The rule flags are invalid.
    #[error(transparent)]
    Rules(#[from] RuleArgsError),
    /// The transcript text is malformed.
    #[error("--moves: {0}")]
    Transcript(#[from] TranscriptError),
    /// A transcript move is illegal.
    #[error("illegal move: {0}")]
    Replay(#[from] ReplayError),
    /// Reading or writing the terminal failed.
    #[error("terminal: {0}")]
    Terminal(std::io::Error),
}

/// Runs a parsed command line, returning what to print on success.
pub fn run(cli: &Cli) -> Result<String, CliError> {
    match &cli.command {
        Some(Command::Board(args)) => board_command::run(args),
        Some(Command::Perft(args)) => perft_command::run(args),
        Some(Command::Play(args)) => play_command::run(args),
        None => play_command::run(&play_command::PlayArgs::default()),
    }
}
