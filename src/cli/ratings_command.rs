//! `reversi ratings LOG...`: Glicko-2 ratings recomputed from signed logs;
//! every log is audited first, and what does not count is listed with why.

use std::collections::BTreeMap;
use std::path::PathBuf;

use clap::Args;
use serde_json::json;

use super::CliError;
use crate::match_log::audit::audit_log_bytes;
use crate::match_log::log_file::read_bounded;
use crate::match_log::record::hex;
use crate::ratings::{Ledger, Unrated, table_json, table_text};

/// Arguments of `reversi ratings`.
#[derive(Debug, Clone, Args)]
pub struct RatingsArgs {
    /// The logs (finished games; each game counts once).
    #[arg(required = true, value_name = "LOG")]
    logs: Vec<PathBuf>,
    /// Print one JSON object (the signaling server's leaderboard format).
    #[arg(long)]
    json: bool,
}

/// Runs `reversi ratings`.
pub fn run(args: &RatingsArgs) -> Result<String, CliError> {
    let mut ledger = Ledger::new();
    let mut skipped: Vec<(String, String)> = Vec::new();
    let mut files_of: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for path in &args.logs {
        let file = path.display().to_string();
        let audited = read_bounded(path)
            .map_err(|e| e.to_string())
            .and_then(|bytes| audit_log_bytes(&bytes).map_err(|e| format!("audit failed: {e}")));
        let (records, verifier) = match audited {
            Ok(audited) => audited,
            Err(reason) => {
                skipped.push((file, reason));
                continue;
            }
        };
        let game_id = hex(&verifier.game_id());
        match ledger.add(&records, &verifier) {
            Ok(()) => files_of.entry(game_id).or_default().push(file),
            Err(reason @ Unrated::Conflict { .. }) => {
                // The copy counted before is out too.
                for earlier in files_of.remove(&game_id).unwrap_or_default() {
                    skipped.push((earlier, reason.to_string()));
                }
                skipped.push((file, reason.to_string()));
            }
            Err(reason) => skipped.push((file, reason.to_string())),
        }
    }
    let table = ledger.ratings();
    let games = ledger.games().count();
    if args.json {
        let mut value = table_json(&table, games);
        value["skipped"] = skipped
            .iter()
            .map(|(file, reason)| json!({ "file": file, "reason": reason }))
            .collect();
        return Ok(format!("{value}\n"));
    }
    let mut out = format!(
        "{games} game{} counted, {} player{}\n",
        if games == 1 { "" } else { "s" },
        table.len(),
        if table.len() == 1 { "" } else { "s" }
    );
    out.push_str(&table_text(&table));
    for (file, reason) in &skipped {
        out.push_str(&format!("skipped {file}: {reason}\n"));
    }
    Ok(out)
}
