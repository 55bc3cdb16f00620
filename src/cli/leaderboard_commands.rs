//! `reversi submit LOG` and `reversi leaderboard`: a signaling server's
//! opt-in leaderboard from the command line.

use std::path::{Path, PathBuf};

use clap::Args;

use super::CliError;
use super::correspondence_commands::clock_ms;
use super::network_commands::{parse_server, runtime};
use crate::data_dir::DataDir;
use crate::match_log::log_file::read_bounded;
use crate::match_log::record::hex;
use crate::membership::Membership;
use crate::net::leaderboard::Leaderboard;
use crate::net::room_file::RoomFile;
use crate::net::server_url::ServerUrl;

/// Arguments of `reversi submit`.
#[derive(Debug, Clone, Args)]
pub struct SubmitArgs {
    /// A finished game's log.
    log: PathBuf,
    /// The signaling server whose leaderboard to use (default: the game's).
    #[arg(long)]
    server: Option<String>,
}

/// Arguments of `reversi leaderboard`.
#[derive(Debug, Clone, Args)]
pub struct LeaderboardArgs {
    /// The signaling server (ws://HOST:PORT, wss://, http:// or https://).
    #[arg(long)]
    server: String,
    /// Let this server count your finished games (signs a statement with your key).
    #[arg(long, conflicts_with_all = ["leave", "download"])]
    join: bool,
    /// Stop it counting them.
    #[arg(long, conflicts_with = "download")]
    leave: bool,
    /// Download every counted log into this folder (for `reversi ratings`).
    #[arg(long, value_name = "DIR")]
    download: Option<PathBuf>,
    /// Print the table as JSON.
    #[arg(long)]
    json: bool,
}

fn server_of(flag: Option<&str>, log: &Path) -> Result<ServerUrl, CliError> {
    match flag {
        Some(url) => parse_server(url),
        None => RoomFile::read(log)
            .server()
            .ok_or_else(|| CliError::NothingRecorded {
                what: "server",
                log: log.to_path_buf(),
            }),
    }
}

/// Runs `reversi submit`.
pub fn submit(args: &SubmitArgs) -> Result<String, CliError> {
    let server = server_of(args.server.as_deref(), &args.log)?;
    let bytes = read_bounded(&args.log).map_err(CliError::LogFile)?;
    // The server audits it too; refusing here first says why without a trip.
    crate::match_log::audit::audit_log_bytes(&bytes)?;
    let board = Leaderboard::new(server.clone());
    let game_id = runtime()?.block_on(board.submit(&bytes))?;
    Ok(format!("counted on {server}: game {game_id}\n"))
}

/// Runs `reversi leaderboard`.
pub fn leaderboard(args: &LeaderboardArgs, data_dir: &DataDir) -> Result<String, CliError> {
    let server = parse_server(&args.server)?;
    let board = Leaderboard::new(server.clone());
    let runtime = runtime()?;
    if args.join || args.leave {
        let identity = data_dir.identity()?;
        let membership = if args.join {
            Membership::Join
        } else {
            Membership::Leave
        };
        let member = runtime.block_on(board.set_membership(&identity, membership, clock_ms()?))?;
        let key = identity.public_key().fingerprint();
        return Ok(if member {
            format!(
                "key {key} joined the leaderboard of {server}: your finished games with other members count once submitted (`reversi submit LOG`)\n"
            )
        } else {
            format!("key {key} left the leaderboard of {server}: your games no longer count\n")
        });
    }
    if let Some(dir) = &args.download {
        std::fs::create_dir_all(dir).map_err(|source| CliError::File {
            path: dir.clone(),
            source,
        })?;
        let games = runtime.block_on(board.games())?;
        for game_id in &games {
            let log = runtime.block_on(board.log(game_id))?;
            let path = dir.join(format!("{}.log", hex(game_id)));
            std::fs::write(&path, log).map_err(|source| CliError::File {
                path: path.clone(),
                source,
            })?;
        }
        return Ok(format!(
            "downloaded {} logs into {}; `reversi ratings {}/*.log` recomputes the table\n",
            games.len(),
            dir.display(),
            dir.display()
        ));
    }
    let table = runtime.block_on(board.table())?;
    if args.json {
        return Ok(format!("{table}\n"));
    }
    Ok(table_text(&table))
}

/// The server's table in the same columns as `reversi ratings`.
fn table_text(table: &serde_json::Value) -> String {
    let mut out = format!("{} games counted\n", table["games"]);
    out.push_str(&format!(
        "{:>4}  {:<24} {:<19} {:>7} {:>6} {:>8}  {:>5}  won-drawn-lost\n",
        "rank", "name", "key", "rating", "RD", "vol", "games"
    ));
    for p in table["players"].as_array().into_iter().flatten() {
        let number = |field: &str| p[field].as_f64().unwrap_or(f64::NAN);
        out.push_str(&format!(
            "{:>4}  {:<24} {:<19} {:>7.1} {:>6.1} {:>8.5}  {:>5}  {}-{}-{}\n",
            p["rank"],
            p["name"]
                .as_str()
                .unwrap_or("")
                .chars()
                .take(48)
                .collect::<String>(),
            p["fingerprint"].as_str().unwrap_or(""),
            number("rating"),
            number("deviation"),
            number("volatility"),
            p["games"],
            p["wins"],
            p["draws"],
            p["losses"]
        ));
    }
    out
}
