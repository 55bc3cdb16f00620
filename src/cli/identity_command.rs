//! `reversi identity`: show this data directory's key, or carry it to
//! another program (another machine, the browser) sealed under a
//! passphrase, so that a player's games and ratings follow them.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};

use super::CliError;
use crate::data_dir::DataDir;
use crate::identity_export::{self, Cost, MAX_EXPORT_BYTES};

/// Arguments of `reversi identity`.
#[derive(Debug, Clone, Args)]
pub struct IdentityArgs {
    /// What to do (without one: show the key's fingerprint).
    #[command(subcommand)]
    action: Option<IdentityAction>,
}

/// What `reversi identity` does.
#[derive(Debug, Clone, Subcommand)]
enum IdentityAction {
    /// Write the key, sealed under a passphrase, to a new file.
    Export {
        /// The file to write (must not exist).
        file: PathBuf,
        /// Read the passphrase from the first line of this file (else it
        /// is asked for on the terminal, twice).
        #[arg(long, value_name = "FILE")]
        passphrase_file: Option<PathBuf>,
    },
    /// Make an exported key this data directory's.
    Import {
        /// The file `reversi identity export` wrote.
        file: PathBuf,
        /// Read the passphrase from the first line of this file.
        #[arg(long, value_name = "FILE")]
        passphrase_file: Option<PathBuf>,
        /// Replace a different key already here (it is kept beside, renamed).
        #[arg(long)]
        replace: bool,
    },
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> CliError + '_ {
    move |source| CliError::File {
        path: path.to_path_buf(),
        source,
    }
}

/// The passphrase: the file's first line, else typed on the terminal
/// (twice when `confirm`).
fn passphrase(file: Option<&Path>, confirm: bool) -> Result<String, CliError> {
    if let Some(path) = file {
        let text = std::fs::read_to_string(path).map_err(io_error(path))?;
        return Ok(text.lines().next().unwrap_or_default().to_string());
    }
    if !std::io::stdin().is_terminal() {
        return Err(CliError::NoPassphrase);
    }
    let first = rpassword::prompt_password("passphrase: ").map_err(CliError::Terminal)?;
    if confirm {
        let again = rpassword::prompt_password("again: ").map_err(CliError::Terminal)?;
        if again != first {
            return Err(CliError::PassphrasesDiffer);
        }
    }
    Ok(first)
}

/// Runs `reversi identity`.
pub fn run(args: &IdentityArgs, data_dir: &DataDir) -> Result<String, CliError> {
    match &args.action {
        None => {
            let identity = data_dir.identity()?;
            Ok(format!("{}\n", identity.public_key().fingerprint()))
        }
        Some(IdentityAction::Export {
            file,
            passphrase_file,
        }) => {
            let identity = data_dir.identity()?;
            let passphrase = passphrase(passphrase_file.as_deref(), true)?;
            let mut salt = [0; 16];
            let mut nonce = [0; 24];
            getrandom::fill(&mut salt).and_then(|()| getrandom::fill(&mut nonce))?;
            let text = identity_export::seal(&identity, &passphrase, salt, nonce, Cost::DEFAULT)
                .map_err(CliError::Seal)?;
            write_owner_only(file, &text)?;
            Ok(format!(
                "exported {} to {}: import it with `reversi identity import` or in the browser's settings; anyone with the file and the passphrase can play as you\n",
                identity.public_key().fingerprint(),
                file.display()
            ))
        }
        Some(IdentityAction::Import {
            file,
            passphrase_file,
            replace,
        }) => {
            let text = read_bounded(file)?;
            let passphrase = passphrase(passphrase_file.as_deref(), false)?;
            let identity =
                identity_export::open(&text, &passphrase).map_err(|source| CliError::Unseal {
                    path: file.clone(),
                    source,
                })?;
            let outcome = data_dir.adopt_identity(&identity, *replace)?;
            Ok(format!("{outcome}\n"))
        }
    }
}

fn read_bounded(path: &Path) -> Result<String, CliError> {
    use std::io::Read;
    let file = std::fs::File::open(path).map_err(io_error(path))?;
    let mut text = String::new();
    file.take(MAX_EXPORT_BYTES as u64 + 1)
        .read_to_string(&mut text)
        .map_err(|source| CliError::NotAnExport {
            path: path.to_path_buf(),
            source,
        })?;
    Ok(text)
}

/// Writes a new file readable by its owner only.
fn write_owner_only(path: &Path, text: &str) -> Result<(), CliError> {
    let mut file = crate::data_dir::create_private(path).map_err(io_error(path))?;
    file.write_all(text.as_bytes())
        .and_then(|()| file.sync_all())
        .map_err(io_error(path))
}
