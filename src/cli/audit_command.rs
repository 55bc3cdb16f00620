//! `reversi audit`: verify a match log and show what it proves; or compare
//! two logs of one game.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use clap::Args;
use serde_json::{Value, json};

use super::CliError;
use super::board_command::{grid_text, outcome_json};
use crate::engine::{Color, format_transcript};
use crate::match_log::audit::audit_log_bytes;
use crate::match_log::compare::{Comparison, compare_logs};
use crate::match_log::log_file::{format_timestamp, parse_log, read_bounded, record_line};
use crate::match_log::record::{Record, Seat, hex};
use crate::match_log::rules_proposal::DrawAgreement;
use crate::match_log::verify::{MatchVerifier, verify_log};

/// Arguments of `reversi audit`.
#[derive(Debug, Clone, Args)]
pub struct AuditArgs {
    /// The log to verify.
    file: PathBuf,
    /// A second log of the same game, to compare with the first.
    other: Option<PathBuf>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// Reads and verifies a log file (bounded read; torn tails refused).
fn audit_file(path: &Path) -> Result<(Vec<Record>, MatchVerifier), CliError> {
    let bytes = read_bounded(path).map_err(CliError::LogFile)?;
    Ok(audit_log_bytes(&bytes)?)
}

/// Runs `reversi audit`.
pub fn run(args: &AuditArgs) -> Result<String, CliError> {
    let (records, verifier) = audit_file(&args.file)?;
    match &args.other {
        None if args.json => Ok(format!("{}\n", report_json(&verifier))),
        None => Ok(report_text(&args.file, &verifier)),
        Some(other) => {
            // The second log may fail on its own where it diverges: compare anyway.
            let bytes = read_bounded(other).map_err(CliError::LogFile)?;
            let loaded = parse_log(&bytes).map_err(CliError::LogFile)?;
            compare(&records, &loaded.records, args.json)
        }
    }
}

fn seat_label(verifier: &MatchVerifier, seat: Seat) -> String {
    match verifier.player(seat) {
        Some(player) => format!("{} ({seat}, {})", player.name, player.key.fingerprint()),
        None => format!("({seat} not yet known)"),
    }
}

fn color_label(verifier: &MatchVerifier, color: Color) -> String {
    match verifier.seat_of(color) {
        Some(seat) => format!("{color} {}", seat_label(verifier, seat)),
        None => color.to_string(),
    }
}

fn deadline_text(secs: u32) -> String {
    humantime::format_duration(std::time::Duration::from_secs(u64::from(secs))).to_string()
}

fn report_text(path: &Path, v: &MatchVerifier) -> String {
    let mut out = String::new();
    let proposal = v.proposal();
    let (host_commitment, guest_commitment) = v.commitments();
    let (host_nonce, guest_nonce) = v.nonces();
    let _ = writeln!(
        out,
        "match log   {} ({} records)",
        path.display(),
        v.record_count()
    );
    let _ = writeln!(out, "game id     {}", hex(&v.game_id()));
    if let Some(previous) = v.previous_game() {
        let _ = writeln!(out, "rematch of  {}", hex(&previous));
    }
    for seat in [Seat::Host, Seat::Guest] {
        match v.player(seat) {
            Some(p) => {
                let _ = writeln!(
                    out,
                    "{:<11} {}  key {}",
                    seat.name(),
                    p.name,
                    p.key.fingerprint()
                );
            }
            None => {
                let _ = writeln!(
                    out,
                    "{:<11} (open invitation: whoever holds the room code)",
                    seat.name()
                );
            }
        }
    }
    let _ = writeln!(out, "rules       {}", proposal.rules.options());
    match proposal.draw {
        DrawAgreement::ByLot => {
            let _ = writeln!(
                out,
                "draw rule   decided by lot: the player the seed names chooses which colour wins an equal count, then the other chooses a colour"
            );
        }
        DrawAgreement::SeedPicks => {
            let _ = writeln!(
                out,
                "draw rule   an equal count goes to a colour drawn by lot"
            );
        }
        DrawAgreement::Fixed(_) => {}
    }
    if !proposal.rules.is_standard_start() {
        let _ = writeln!(out, "start       {}", proposal.rules.start());
    }
    let _ = writeln!(
        out,
        "deadline    {} per move",
        deadline_text(v.deadline_secs())
    );
    let commitment_line = |c: Option<[u8; 32]>, n: Option<[u8; 32]>| match (c, n) {
        (Some(c), Some(_)) => format!("{} ✓ revealed nonce matches", hex(&c)),
        (Some(c), None) => format!("{} (not revealed yet)", hex(&c)),
        (None, _) => "(not yet committed)".to_string(),
    };
    let _ = writeln!(
        out,
        "commitment  host  {}",
        commitment_line(Some(host_commitment), host_nonce)
    );
    let _ = writeln!(
        out,
        "commitment  guest {}",
        commitment_line(guest_commitment, guest_nonce)
    );
    if let Some(flip) = v.coin_flip() {
        let _ = writeln!(
            out,
            "seed        {} ✓ SHA-256(host nonce ‖ guest nonce)",
            hex(&flip.seed)
        );
        let parity = |byte: u8| if byte & 1 == 0 { "even" } else { "odd" };
        match flip.tie_chooser {
            Some(chooser) => {
                let _ = writeln!(
                    out,
                    "lot         seed byte 1 is {}: {} chooses which colour wins an equal count",
                    parity(flip.seed[1]),
                    seat_label(v, chooser)
                );
                let choices = v.choices();
                let chosen = |c: Option<crate::match_log::verify::Choice>, what: &str| match c {
                    Some(c) => format!(
                        "{} chose {} {what} (record {})",
                        seat_label(v, c.seat),
                        c.color,
                        c.record
                    ),
                    None => "(not chosen yet)".to_string(),
                };
                let _ = writeln!(
                    out,
                    "tie winner  {}",
                    chosen(choices.tie_winner, "to win an equal count")
                );
                let _ = writeln!(out, "colour      {}", chosen(choices.seat_color, "to play"));
                if choices.seat_color.is_some() {
                    let _ = writeln!(
                        out,
                        "colours     black: {}; white: {}",
                        seat_label(v, flip.black),
                        seat_label(v, flip.black.other()),
                    );
                }
            }
            None => {
                let _ = writeln!(
                    out,
                    "colours     black: {}; white: {} (seed byte 0 is {}: {} plays black)",
                    seat_label(v, flip.black),
                    seat_label(v, flip.black.other()),
                    parity(flip.seed[0]),
                    if flip.seed[0] & 1 == 0 {
                        "host"
                    } else {
                        "guest"
                    },
                );
                if let (DrawAgreement::SeedPicks, Some(winner)) = (proposal.draw, flip.tie_goes_to)
                {
                    let _ = writeln!(
                        out,
                        "draw lot    an equal count goes to {winner} (seed byte 1)"
                    );
                }
            }
        }
    }
    if !v.moves().is_empty() {
        let _ = writeln!(out, "moves");
        for (i, m) in v.moves().iter().enumerate() {
            let name = v
                .seat_of(m.color)
                .and_then(|s| v.player(s))
                .map_or("", |p| p.name.as_str());
            let _ = writeln!(
                out,
                "  {:>3}. {}  {:<5}  {}  {name}",
                i + 1,
                m.square,
                m.color.name(),
                format_timestamp(m.timestamp_ms),
            );
        }
        let squares: Vec<_> = v.moves().iter().map(|m| m.square).collect();
        let _ = writeln!(out, "transcript  {}", format_transcript(&squares));
    }
    if let Some(position) = v.current_position() {
        let _ = writeln!(out, "final position");
        out.push_str(&grid_text(position));
    }
    match (v.end(), v.current_position().and_then(|p| p.to_move())) {
        (Some(end), _) => {
            let winner = end.outcome.winner.map_or(String::new(), |c| {
                format!(" — winner {}", color_label(v, c))
            });
            let _ = writeln!(out, "result      {}{winner}", end.outcome);
        }
        (None, Some(color)) => {
            let _ = writeln!(
                out,
                "result      unfinished: {} to move",
                color_label(v, color)
            );
        }
        (None, None) => {
            let _ = writeln!(out, "result      unfinished: the coin flip is not complete");
        }
    }
    let _ = writeln!(
        out,
        "verdict     ✓ all {} records verify: signatures, chain, game id, commitments, moves, position hashes",
        v.record_count()
    );
    out
}

fn seat_json(v: &MatchVerifier, seat: Seat) -> Value {
    let Some(p) = v.player(seat) else {
        return Value::Null;
    };
    json!({
        "name": p.name,
        "key": hex(&p.key.to_bytes()),
        "fingerprint": p.key.fingerprint().to_string(),
        "color": v.coin_flip().map(|d| if d.black == seat { "black" } else { "white" }),
    })
}

fn choice_json(choice: Option<crate::match_log::verify::Choice>) -> Value {
    choice.map_or(
        Value::Null,
        |c| json!({ "seat": c.seat.name(), "color": c.color.name(), "record": c.record }),
    )
}

fn report_json(v: &MatchVerifier) -> Value {
    let proposal = v.proposal();
    let o = proposal.rules.options();
    let (host_commitment, guest_commitment) = v.commitments();
    let (host_nonce, guest_nonce) = v.nonces();
    let moves: Vec<Value> = v
        .moves()
        .iter()
        .enumerate()
        .map(|(i, m)| {
            json!({
                "number": i + 1,
                "square": m.square.to_string(),
                "color": m.color.name(),
                "seat": v.seat_of(m.color).map(Seat::name),
                "record": m.record,
                "timestamp_ms": m.timestamp_ms,
                "time": format_timestamp(m.timestamp_ms),
            })
        })
        .collect();
    let squares: Vec<_> = v.moves().iter().map(|m| m.square).collect();
    json!({
        "verified": true,
        "records": v.record_count(),
        "game_id": hex(&v.game_id()),
        "previous_game": v.previous_game().map(|p| hex(&p)),
        "host": seat_json(v, Seat::Host),
        "guest": seat_json(v, Seat::Guest),
        "rules": {
            "opening": o.opening.to_string(),
            "discs": o.discs.to_string(),
            "scoring": o.scoring.to_string(),
            "draw": match proposal.draw {
                DrawAgreement::ByLot => "chosen by lot".to_string(),
                DrawAgreement::SeedPicks => "lot".to_string(),
                DrawAgreement::Fixed(rule) => rule.to_string(),
            },
            "topology": o.topology.to_string(),
            "start": proposal.rules.start().to_string(),
        },
        "deadline_secs": v.deadline_secs(),
        "commitments": {
            "host": { "commitment": hex(&host_commitment), "nonce": host_nonce.map(|n| hex(&n)) },
            "guest": { "commitment": guest_commitment.map(|c| hex(&c)), "nonce": guest_nonce.map(|n| hex(&n)) },
        },
        "seed": v.coin_flip().map(|d| hex(&d.seed)),
        "black": v.coin_flip().map(|d| d.black.name()),
        "tie_goes_to": v.coin_flip().and_then(|d| d.tie_goes_to).map(Color::name),
        "tie_chooser": v.coin_flip().and_then(|d| d.tie_chooser).map(Seat::name),
        "choices": {
            "tie_winner": choice_json(v.choices().tie_winner),
            "seat_color": choice_json(v.choices().seat_color),
        },
        "moves": moves,
        "transcript": format_transcript(&squares),
        "final_position": v.current_position().map(|p| json!({
            "board": p.to_setup().map_or_else(|| p.discs(Color::Black).count().to_string(), |s| s.to_string()),
            "black": p.counts().black,
            "white": p.counts().white,
            "to_move": p.to_move().map(Color::name),
            "hash": p.hash().to_hex(),
        })),
        "result": v.end().map(|e| {
            let mut result = outcome_json(&e.outcome);
            result["record"] = json!(e.record);
            result["winner_seat"] = json!(e.outcome.winner.and_then(|c| v.seat_of(c)).map(Seat::name));
            result
        }),
    })
}

fn compare(first: &[Record], second: &[Record], as_json: bool) -> Result<String, CliError> {
    // Each log on its own must verify, except where the logs diverge.
    let second_status = verify_log(second).err();
    let comparison = compare_logs(first, second);
    let (summary, disputed) = match &comparison {
        Comparison::Identical { records } => (
            format!("identical: both logs hold the same {records} records"),
            false,
        ),
        Comparison::Prefix {
            shorter,
            longer,
            first_is_shorter,
        } => (
            format!(
                "prefix: the {} log ({shorter} records) is the start of the {} ({longer} records)",
                if *first_is_shorter { "first" } else { "second" },
                if *first_is_shorter { "second" } else { "first" },
            ),
            false,
        ),
        Comparison::Diverge {
            record,
            proof: None,
        } => (
            format!(
                "diverge at record {record}: the logs agree on records 0 to {} and differ there",
                record - 1
            ),
            true,
        ),
        Comparison::Diverge {
            record,
            proof: Some(proof),
        } => (
            format!(
                "diverge at record {record}: EQUIVOCATION — the {} (key {}) signed two different records for the same place in the chain; the two records below are a portable proof",
                proof.seat,
                proof.key.fingerprint()
            ),
            true,
        ),
        Comparison::DifferentGames => (
            "different games: the genesis records differ".to_string(),
            true,
        ),
    };
    let proof_lines = match &comparison {
        Comparison::Diverge { proof: Some(p), .. } => {
            vec![record_line(&p.first), record_line(&p.second)]
        }
        _ => vec![],
    };
    let text = if as_json {
        let proof: Vec<Value> = proof_lines
            .iter()
            .filter_map(|l| serde_json::from_str(l.trim_end()).ok())
            .collect();
        format!(
            "{}\n",
            json!({
                "comparison": summary,
                "disputed": disputed,
                "second_log_verifies": second_status.is_none(),
                "second_log_error": second_status.as_ref().map(ToString::to_string),
                "equivocation_proof": if proof.is_empty() { Value::Null } else { json!(proof) },
            })
        )
    } else {
        let mut out = format!("{summary}\n");
        match &second_status {
            None => out.push_str("second log: ✓ verifies on its own\n"),
            Some(e) => {
                let _ = writeln!(out, "second log: ✗ {e}");
            }
        }
        for line in &proof_lines {
            out.push_str(line);
        }
        out
    };
    if disputed {
        Err(CliError::Disputed { report: text })
    } else {
        Ok(text)
    }
}
