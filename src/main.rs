//! The `reversi` binary: opens the window, or runs the command given.

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;
use reversi::cli::{Cli, run};

fn main() -> ExitCode {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    reversi::platform::huge_pages::restart_with_huge_pages();
    let cli = Cli::parse();
    // Diagnostics go to standard error, quiet unless RUST_LOG asks for more.
    let filter = tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| {
        tracing_subscriber::EnvFilter::new("error,reversi=warn,reversi_signaling=warn")
    });
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .init();
    let Some(command) = &cli.command else {
        return match reversi::app::run_window() {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!(
                    "error: cannot open a window ({e}); `reversi play` plays in the terminal"
                );
                ExitCode::FAILURE
            }
        };
    };
    match run(&cli, command) {
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
