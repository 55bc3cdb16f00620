//! Correspondence play from the command line: `reversi host --detach`,
//! `reversi join CODE --detach`, `reversi games` and `reversi move`. Each
//! visits the signaling server's mailbox and exits; the other player's
//! program need not be running.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use clap::Args;
use serde_json::{Value, json};

use super::CliError;
use super::network_commands::{RoomFile, default_log, games_dir, parse_server};
use crate::data_dir::DataDir;
use crate::engine::{Color, Square};
use crate::match_log::log_file::{LogWriter, read_log, write_log};
use crate::match_log::record::{Digest, hex};
use crate::match_log::verify::Phase;
use crate::match_log::{Identity, Seat, verify_log};
use crate::net::correspondence::{CorrespondenceError, OpenGame, Visit, apply_outputs, room_of};
use crate::net::mailbox::Mailbox;
use crate::net::mailbox::MailboxError;
use crate::net::room_code::RoomCode;
use crate::net::server_url::ServerUrl;
use crate::net::session::{ActionError, HostTerms, Session};

/// Arguments of `reversi games`.
#[derive(Debug, Clone, Args)]
pub struct GamesArgs {
    /// Print JSON (an array of objects) instead of a table.
    #[arg(long)]
    json: bool,
    /// The signaling server whose mailbox to ask (default: the servers the
    /// games were played on).
    #[arg(long)]
    server: Option<String>,
}

/// Arguments of `reversi move`.
#[derive(Debug, Clone, Args)]
pub struct MoveArgs {
    /// The game's log file.
    log: PathBuf,
    /// A square (`f5`), `resign`, or `claim` (the opponent's deadline passed).
    #[arg(name = "MOVE")]
    action: String,
    /// The signaling server whose mailbox to use (default: the game's).
    #[arg(long)]
    server: Option<String>,
}

/// The wall clock for deadlines. `REVERSI_CLOCK_OFFSET` (a duration such
/// as `8d`, or `-1h`) moves it, so the deadline rules can be tried and
/// tested without waiting a week.
pub fn clock_ms() -> Result<u64, CliError> {
    let now = crate::net::driver::now_ms();
    let Ok(text) = std::env::var("REVERSI_CLOCK_OFFSET") else {
        return Ok(now);
    };
    let (negative, magnitude) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.trim_start_matches('+')),
    };
    let offset = humantime::parse_duration(magnitude).map_err(|e| {
        CliError::Network(format!(
            "REVERSI_CLOCK_OFFSET={text:?} is not a duration: {e}"
        ))
    })?;
    let offset = offset.as_millis() as u64;
    Ok(if negative {
        now.saturating_sub(offset)
    } else {
        now.saturating_add(offset)
    })
}

fn runtime() -> Result<tokio::runtime::Runtime, CliError> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::Network(format!("cannot start the async runtime: {e}")))
}

fn mailbox_error(e: impl std::fmt::Display) -> CliError {
    CliError::Network(e.to_string())
}

/// Opens a log for correspondence: its session and the mailbox's server.
fn open_game(
    path: &Path,
    identity: Identity,
    server_flag: Option<&str>,
) -> Result<(OpenGame, Option<ServerUrl>), CliError> {
    let loaded = read_log(path).map_err(CliError::LogFile)?;
    let session = Session::resume(identity, loaded.records.clone())
        .map_err(|e| CliError::Network(format!("{}: {e}", path.display())))?;
    let writer = LogWriter::open_append(path, &loaded).map_err(CliError::LogFile)?;
    let room_file = RoomFile::read(path);
    let server = match server_flag {
        Some(url) => Some(parse_server(url)?),
        None => room_file.server(),
    };
    Ok((
        OpenGame {
            path: path.to_path_buf(),
            session,
            writer,
            room: room_file.room(),
        },
        server,
    ))
}

/// `reversi host --detach`: signs an open genesis, files it in the
/// mailbox under a new room, prints the code and exits.
pub fn host_detached(
    data_dir: &DataDir,
    server: Option<&str>,
    terms: HostTerms,
    name: &str,
    log: Option<&Path>,
) -> Result<String, CliError> {
    let server = parse_server(server.ok_or_else(|| {
        CliError::Network(
            "--detach needs --server: the game waits in that server's mailbox, which must outlive this program"
                .into(),
        )
    })?)?;
    let identity = data_dir.identity()?;
    let fingerprint = identity.public_key().fingerprint();
    let code = RoomCode::generate(fingerprint.as_compact(), Some(server.clone()))
        .map_err(|e| CliError::Random(e.to_string()))?;
    let log = match log {
        Some(path) => path.to_path_buf(),
        None => default_log(data_dir, code.room())?,
    };
    let now = clock_ms()?;
    let (session, outputs) = Session::host_open(
        identity,
        name.to_string(),
        terms,
        code.room().as_bytes(),
        now,
    );
    let mut writer = LogWriter::create(&log).map_err(CliError::LogFile)?;
    RoomFile::new(server.room_url(code.room()), None).write(&log)?;
    let mut visit = Visit::default();
    apply_outputs(&log, &mut writer, outputs, &mut visit).map_err(CliError::LogFile)?;
    let game = OpenGame {
        path: log.clone(),
        session,
        writer,
        room: Some(code.room().to_string()),
    };
    let mailbox = Mailbox::new(server.clone());
    runtime()?
        .block_on(game.deliver(&mailbox, 0))
        .map_err(|e| {
            CliError::Network(format!(
                "the game is created ({}) but not yet in the mailbox: {e}; `reversi games` delivers it",
                log.display()
            ))
        })?;
    eprintln!(
        "the game waits in the mailbox of {server}; send the code to your opponent (your key {fingerprint})"
    );
    eprintln!("log: {}", log.display());
    Ok(format!("{code}\n"))
}

/// `reversi join CODE --detach`: finds the host's open game in the
/// mailbox, accepts it, delivers the acceptance and exits.
pub fn join_detached(
    data_dir: &DataDir,
    code: &RoomCode,
    server: ServerUrl,
    name: &str,
    log: Option<&Path>,
) -> Result<String, CliError> {
    let identity = data_dir.identity()?;
    let me = identity.public_key();
    let log = match log {
        Some(path) => path.to_path_buf(),
        None => default_log(data_dir, code.room())?,
    };
    let mailbox = Mailbox::new(server.clone());
    let runtime = runtime()?;
    if log.exists() {
        // Joined before: a visit brings it up to date.
        let (mut game, _) = open_game(&log, identity, None)?;
        let visit = runtime
            .block_on(game.visit(&mailbox, clock_ms()?))
            .map_err(mailbox_error)?;
        return Ok(format!("{}\n", summary_line(&game.session, &visit, &log)));
    }
    let listed = runtime
        .block_on(mailbox.room(code.room()))
        .map_err(mailbox_error)?;
    let now = clock_ms()?;
    for game in listed {
        let Some((_, records)) = runtime
            .block_on(mailbox.records(&game.game_id, 0))
            .map_err(mailbox_error)?
        else {
            continue;
        };
        let Some(genesis) = records.first().cloned() else {
            continue;
        };
        if records.len() > 1 {
            // Accepted already: by us (our log was lost), or by someone else.
            let Ok(verified) = verify_log(&records) else {
                continue;
            };
            if verified.player(Seat::Guest).map(|g| g.key) != Some(me) {
                return Err(CliError::Network(format!(
                    "this game was already accepted by another player ({})",
                    verified
                        .player(Seat::Guest)
                        .map_or_else(String::new, |g| g.key.fingerprint().to_string())
                )));
            }
            write_log(&log, &records).map_err(CliError::LogFile)?;
            RoomFile::new(server.room_url(code.room()), None).write(&log)?;
            return Ok(format!(
                "your log of this game was restored from the mailbox: {}\n",
                log.display()
            ));
        }
        let mut session = Session::guest(
            identity.clone(),
            name.to_string(),
            code.host_fingerprint_prefix().to_string(),
            code.room().as_bytes().to_vec(),
        );
        let Ok(outputs) = session.relayed(genesis, now) else {
            // Not the host the code names: someone else's game in this room.
            continue;
        };
        let mut writer = LogWriter::create(&log).map_err(CliError::LogFile)?;
        RoomFile::new(server.room_url(code.room()), None).write(&log)?;
        let mut visit = Visit::default();
        apply_outputs(&log, &mut writer, outputs, &mut visit).map_err(CliError::LogFile)?;
        if let Some(reason) = visit.halted {
            return Err(CliError::Network(format!("cannot accept: {reason}")));
        }
        let open = OpenGame {
            path: log.clone(),
            session,
            writer,
            room: None,
        };
        runtime
            .block_on(open.deliver(&mailbox, 1))
            .map_err(|e| {
                CliError::Network(format!(
                    "accepted ({}) but the acceptance is not yet in the mailbox: {e}; `reversi games` delivers it",
                    log.display()
                ))
            })?;
        let host = open
            .session
            .verifier()
            .and_then(|v| v.player(Seat::Host))
            .map_or_else(String::new, |h| {
                format!("{} (key {})", h.name, h.key.fingerprint())
            });
        eprintln!("log: {}", log.display());
        return Ok(format!(
            "accepted the game of {host}; the host reveals next, then the coin is flipped\n"
        ));
    }
    Err(CliError::Network(format!(
        "the mailbox of {server} holds no game in room {} from the host the code names; the host may be waiting live (join without --detach)",
        code.room()
    )))
}

/// The log files in the data directory's games folder.
fn local_logs(data_dir: &DataDir) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(games_dir(data_dir)) else {
        return Vec::new();
    };
    let mut logs: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "log"))
        .collect();
    logs.sort();
    logs
}

/// `reversi games`: every unfinished game of this identity, brought up to
/// date with the mailbox first (and any game the mailbox has that no local
/// log holds is restored from it).
pub fn games(args: &GamesArgs, data_dir: &DataDir) -> Result<String, CliError> {
    let identity = data_dir.identity()?;
    let me = identity.public_key();
    let flag_server = args.server.as_deref().map(parse_server).transpose()?;
    let runtime = runtime()?;
    let now = clock_ms()?;
    // Local games by id.
    let mut local: BTreeMap<Digest, PathBuf> = BTreeMap::new();
    let mut servers: Vec<ServerUrl> = flag_server.iter().cloned().collect();
    for path in local_logs(data_dir) {
        let Ok(loaded) = read_log(&path) else {
            eprintln!("skipped {}: not a readable log", path.display());
            continue;
        };
        let Some(first) = loaded.records.first() else {
            continue;
        };
        local.insert(first.hash(), path.clone());
        if flag_server.is_none() {
            if let Some(server) = RoomFile::read(&path).server() {
                if !servers.contains(&server) {
                    servers.push(server);
                }
            }
        }
    }
    // Games the mailboxes know that no local log holds: restore them.
    for server in &servers {
        let mailbox = Mailbox::new(server.clone());
        let listed = match runtime.block_on(mailbox.games_of(&me)) {
            Ok(listed) => listed,
            Err(e) => {
                eprintln!("{server}: {e}");
                continue;
            }
        };
        for game in listed {
            if game.ended || local.contains_key(&game.game_id) {
                continue;
            }
            let Ok(Some((_, records))) = runtime.block_on(mailbox.records(&game.game_id, 0)) else {
                continue;
            };
            let mine = verify_log(&records).is_ok_and(|v| {
                [Seat::Host, Seat::Guest]
                    .iter()
                    .any(|&s| v.player(s).is_some_and(|p| p.key == me))
            });
            if !mine {
                continue;
            }
            let path = games_dir(data_dir).join(format!("{}.log", &hex(&game.game_id)[..16]));
            if path.exists() {
                continue;
            }
            if let Err(e) = std::fs::create_dir_all(games_dir(data_dir))
                .map_err(|e| e.to_string())
                .and_then(|()| write_log(&path, &records).map_err(|e| e.to_string()))
            {
                eprintln!("cannot restore {}: {e}", path.display());
                continue;
            }
            match room_of(&records) {
                Some(room) => RoomFile::new(server.room_url(&room), None).write(&path)?,
                None => RoomFile::mailbox_only(server).write(&path)?,
            }
            eprintln!("restored from the mailbox: {}", path.display());
            local.insert(game.game_id, path);
        }
    }
    let mut rows = Vec::new();
    for path in local.values() {
        let (mut game, server) = match open_game(path, identity.clone(), args.server.as_deref()) {
            Ok(opened) => opened,
            Err(e) => {
                eprintln!("skipped {}: {e}", path.display());
                continue;
            }
        };
        let finished = game.session.outcome().is_some() && game.session.mine_acknowledged();
        if !finished {
            if let Some(server) = server {
                let mailbox = Mailbox::new(server);
                match runtime.block_on(game.visit(&mailbox, now)) {
                    Ok(visit) => {
                        for refused in &visit.refused {
                            eprintln!("{}: {refused}", path.display());
                        }
                    }
                    // A LAN game's embedded server keeps no mailbox.
                    Err(CorrespondenceError::Mailbox(MailboxError::NoMailbox { .. })) => {}
                    Err(e) => eprintln!("{}: {e}", path.display()),
                }
            }
        }
        if game.session.outcome().is_none() && game.session.halted().is_none() {
            rows.push(game_row(&game, now));
        }
    }
    if args.json {
        return Ok(format!("{}\n", Value::Array(rows)));
    }
    if rows.is_empty() {
        return Ok("no unfinished games\n".into());
    }
    let mut out = String::new();
    for row in rows {
        let left = match row["deadline_left_secs"].as_u64() {
            Some(secs) => {
                humantime::format_duration(std::time::Duration::from_secs(secs)).to_string()
            }
            None => "-".into(),
        };
        out.push_str(&format!(
            "{}  vs {}  {}  you: {}  {}  ({} left)  {}\n",
            row["room"].as_str().unwrap_or("-"),
            row["opponent"].as_str().unwrap_or("(not yet known)"),
            row["rules"].as_str().unwrap_or(""),
            row["my_color"].as_str().unwrap_or("-"),
            row["status"].as_str().unwrap_or(""),
            left,
            row["log"].as_str().unwrap_or(""),
        ));
    }
    Ok(out)
}

fn color_name(color: Option<Color>) -> Value {
    color.map_or(Value::Null, |c| json!(c.name()))
}

/// What a game's row says (see `reversi games --json`).
fn game_row(game: &OpenGame, now: u64) -> Value {
    let session = &game.session;
    let verifier = session.verifier();
    let me = session.seat();
    let opponent = verifier.and_then(|v| v.player(me.other()));
    let phase = verifier.map(|v| v.phase());
    let rules = verifier.map(|v| {
        v.draw()
            .map_or(v.proposal().rules, |d| d.rules)
            .options()
            .to_string()
    });
    let to_move = session.position().and_then(|p| p.to_move());
    let deadline_left = session
        .deadline()
        .map(|(_, at)| at.saturating_sub(now) / 1000);
    let status = match (phase, session.my_turn()) {
        (Some(Phase::AwaitAccept), _) => "waiting for the guest to accept".to_string(),
        (Some(Phase::AwaitHostReveal), _) if me == Seat::Host => "your reveal is due".into(),
        (Some(Phase::AwaitHostReveal), _) => "waiting for the host's reveal".into(),
        (Some(Phase::AwaitGuestReveal), _) if me == Seat::Guest => "your reveal is due".into(),
        (Some(Phase::AwaitGuestReveal), _) => "waiting for the guest's reveal".into(),
        (Some(Phase::Playing), true) => "your move".into(),
        (Some(Phase::Playing), false) => "their move".into(),
        _ => "over".into(),
    };
    json!({
        "room": game
            .room
            .clone()
            .or_else(|| RoomFile::read(&game.path).room())
            .or_else(|| room_of(session.records())),
        "game_id": session.records().first().map(|r| hex(&r.hash())),
        "log": game.path.display().to_string(),
        "opponent": opponent.map(|p| p.name.clone()),
        "opponent_fingerprint": opponent.map(|p| p.key.fingerprint().to_string()),
        "rules": rules,
        "my_color": color_name(session.my_color()),
        "to_move": color_name(to_move),
        "my_turn": session.my_turn(),
        "legal": session
            .position()
            .filter(|_| session.my_turn())
            .map_or_else(Vec::new, |p| p.legal_moves().squares().map(|s| s.to_string()).collect()),
        "deadline_left_secs": deadline_left,
        "deadline_passed": session.deadline().is_some_and(|(_, at)| at <= now),
        "status": status,
        "records": session.records().len(),
    })
}

fn summary_line(session: &Session, visit: &Visit, log: &Path) -> String {
    let mut parts = Vec::new();
    if visit.fetched > 0 {
        parts.push(format!("{} new from the mailbox", visit.fetched));
    }
    if let Some(outcome) = session.outcome() {
        parts.push(format!(
            "game over: {}",
            super::board_command::outcome_text(&outcome)
        ));
    } else if session.my_turn() {
        parts.push("your move".into());
    } else if session.position().is_some() {
        parts.push("their move".into());
    } else {
        parts.push("the setup continues when the other player visits".into());
    }
    format!("{} ({})", parts.join("; "), log.display())
}

/// `reversi move LOG MOVE`: signs the move in that game and delivers it
/// to the mailbox; exits 0 once the mailbox has stored it.
pub fn make_move(args: &MoveArgs, data_dir: &DataDir) -> Result<String, CliError> {
    let identity = data_dir.identity()?;
    let (mut game, server) = open_game(&args.log, identity, args.server.as_deref())?;
    let server = server.ok_or_else(|| {
        CliError::Network(format!(
            "no server is recorded beside the log ({}); pass --server",
            args.log.display()
        ))
    })?;
    let mailbox = Mailbox::new(server.clone());
    let runtime = runtime()?;
    let now = clock_ms()?;
    // First what the opponent has done meanwhile: nothing is signed on an
    // old view of the game.
    let visit = runtime
        .block_on(game.visit(&mailbox, now))
        .map_err(|e| CliError::Network(format!("cannot reach the mailbox, nothing signed: {e}")))?;
    if let Some(reason) = &visit.halted {
        return Err(CliError::Network(format!("the game is halted: {reason}")));
    }
    let action = args.action.trim().to_ascii_lowercase();
    let result = match action.as_str() {
        "resign" => game.session.resign(now),
        "claim" => game.session.claim_timeout(now),
        text => {
            let square: Square = text.parse().map_err(|_| {
                CliError::Network(format!(
                    "{:?} is not a square (like f5), `resign` or `claim`",
                    args.action
                ))
            })?;
            game.session.play(square, now)
        }
    };
    let outputs = result.map_err(|e| action_error(e, &game.session, now))?;
    let held = game.session.records().len() as u32 - 1;
    let mut after = Visit::default();
    game.apply(outputs, &mut after).map_err(CliError::LogFile)?;
    runtime
        .block_on(game.deliver(&mailbox, held))
        .map_err(|e| {
            CliError::Network(format!(
                "signed and logged, but the mailbox did not store it: {e}; the next `reversi move`, `reversi games` or `reversi resume` delivers it"
            ))
        })?;
    let what = match action.as_str() {
        "resign" => "resigned".to_string(),
        "claim" => "claimed the win on time".to_string(),
        square => format!("played {square}"),
    };
    Ok(format!(
        "{what}; stored in the mailbox of {server}; {}\n",
        summary_line(&game.session, &Visit::default(), &args.log)
    ))
}

fn action_error(e: ActionError, session: &Session, now: u64) -> CliError {
    let text = match e {
        ActionError::NotYourTurn => {
            let whose = session
                .position()
                .and_then(|p| p.to_move())
                .map_or("the other player's".to_string(), |c| format!("{c}'s"));
            format!("not your turn: it is {whose} move; nothing signed")
        }
        ActionError::NotPlaying => {
            let phase = session.verifier().map(|v| v.phase());
            match phase {
                Some(Phase::Ended) => "the game is over; nothing signed".into(),
                _ => "the game has not started: the coin flip waits for the other player's visit; nothing signed".into(),
            }
        }
        ActionError::DeadlineNotPassed => {
            let left = session
                .deadline()
                .map_or(0, |(_, at)| at.saturating_sub(now) / 1000);
            format!(
                "the opponent's deadline has not passed: {} left; nothing signed",
                humantime::format_duration(std::time::Duration::from_secs(left))
            )
        }
        ActionError::Refused(e) => format!("{}; nothing signed", e.violation),
    };
    CliError::Network(text)
}
