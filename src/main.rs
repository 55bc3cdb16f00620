//! The `reversi` binary: parses the command line and runs it.

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;
use reversi::cli::{Cli, run};

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(&cli) {
        Ok(text) => {
            // A closed stdout (e.g. piped into `head`) is not an error worth a panic.
            let _ = std::io::stdout().write_all(text.as_bytes());
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}
