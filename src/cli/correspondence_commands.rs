//! Correspondence play from the command line: `reversi host --detach`,
//! `reversi join CODE --detach`, `reversi games` and `reversi move`. Each
//! visits the signaling server's mailbox and exits; the other player's
//! program need not be running.

use std::path::{Path, PathBuf};

use clap::Args;

use super::CliError;
use super::NotSigned;
use super::network_commands::{parse_server, runtime};
use crate::data_dir::DataDir;
use crate::engine::{Color, Square};
use crate::match_log::log_file::{LogWriter, write_log};
use crate::match_log::verify::Phase;
use crate::match_log::{Identity, Seat, verify_log};
use crate::net::correspondence::{OpenGame, Visit, apply_outputs, refresh_all};
use crate::net::mailbox::Mailbox;
use crate::net::room_code::RoomCode;
use crate::net::room_file::RoomFile;
use crate::net::server_url::ServerUrl;
use crate::net::session::{ActionError, HostTerms, Session, genesis_fits_code};

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
    /// A square (`f5`), `resign`, `claim` (the opponent's deadline passed),
    /// or `black`/`white` to answer a colour question (draw rule decided by lot).
    #[arg(name = "MOVE")]
    action: String,
    /// The signaling server whose mailbox to use (default: the game's).
    #[arg(long)]
    server: Option<String>,
}

/// Arguments of `reversi keep`.
#[derive(Debug, Clone, Args)]
pub struct KeepArgs {
    /// The log to keep as the game's only one.
    log: PathBuf,
}

/// `reversi keep LOG`: settles a game found in several logs on `LOG`.
pub fn keep(args: &KeepArgs, data_dir: &DataDir) -> Result<String, CliError> {
    let identity = data_dir.identity()?;
    let kept = data_dir
        .register(&identity.public_key())
        .keep(&args.log, &identity.public_key())?;
    let mut out = format!(
        "kept {} as the game's log; you can sign in it again\n",
        kept.log.display()
    );
    for (from, to) in &kept.set_aside {
        out.push_str(&format!(
            "set aside {} as {}\n",
            from.display(),
            to.display()
        ));
    }
    Ok(out)
}

/// How far `REVERSI_CLOCK_OFFSET` (a duration such as `8d`, or `-1h`)
/// moves the clock for deadlines, in milliseconds: so the deadline rules
/// can be tried and tested without waiting a week.
pub fn clock_offset_ms() -> Result<i64, CliError> {
    let Ok(text) = std::env::var("REVERSI_CLOCK_OFFSET") else {
        return Ok(0);
    };
    let (negative, magnitude) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.trim_start_matches('+')),
    };
    let offset = humantime::parse_duration(magnitude).map_err(|source| CliError::ClockOffset {
        text: text.clone(),
        source,
    })?;
    let offset = i64::try_from(offset.as_millis()).unwrap_or(i64::MAX);
    Ok(if negative { -offset } else { offset })
}

/// The wall clock for deadlines, moved by `REVERSI_CLOCK_OFFSET`.
pub fn clock_ms() -> Result<u64, CliError> {
    Ok(crate::platform::now_ms().saturating_add_signed(clock_offset_ms()?))
}

/// Opens a log for correspondence, signing through the data directory's
/// register: its session and the mailbox's server (`--server`, else the
/// one its room file names).
fn open_game(
    data_dir: &DataDir,
    path: &Path,
    identity: Identity,
    server_flag: Option<&str>,
) -> Result<(OpenGame, Option<ServerUrl>), CliError> {
    let register = data_dir.register(&identity.public_key());
    let (game, named) = OpenGame::open(path, identity, &register)?;
    let server = match server_flag {
        Some(url) => Some(parse_server(url)?),
        None => named,
    };
    Ok((game, server))
}

fn write_room_file(room_file: RoomFile, log: &Path) -> Result<(), CliError> {
    room_file.write(log).map_err(|source| CliError::File {
        path: RoomFile::path(log),
        source,
    })
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
    let server = parse_server(server.ok_or(CliError::DetachNeedsServer)?)?;
    let identity = data_dir.identity()?;
    let fingerprint = identity.public_key().fingerprint();
    let code = RoomCode::generate(&identity.public_key(), Some(server.clone()))?;
    let secret = code.secret().expect("a new code is of version 2");
    let log = match log {
        Some(path) => path.to_path_buf(),
        None => data_dir.new_game_log(code.room())?,
    };
    let now = clock_ms()?;
    let register = data_dir.register_for(&identity.public_key(), &log);
    let (session, outputs) =
        Session::host_open(identity, name.to_string(), terms, secret, now, register)?;
    let mut writer = LogWriter::create(&log).map_err(CliError::LogFile)?;
    write_room_file(RoomFile::new(server.room_url(code.room()), None), &log)?;
    let mut visit = Visit::default();
    apply_outputs(&log, &mut writer, outputs, &mut visit).map_err(CliError::LogFile)?;
    let game = OpenGame {
        path: log.clone(),
        session,
        writer,
        room: Some(code.room().to_string()),
        lock: None,
    };
    let mailbox = Mailbox::new(server.clone());
    runtime()?
        .block_on(game.deliver(&mailbox, 0))
        .map_err(|source| CliError::Undelivered {
            what: "the game is created",
            log: log.clone(),
            source,
        })?;
    eprintln!(
        "the game waits in the mailbox of {server}; send the code to your opponent (your key {fingerprint})"
    );
    if let Some(first) = game.session.records().first() {
        let watch = crate::net::watch::WatchCode {
            game_id: first.hash(),
            server: server.clone(),
        };
        eprintln!("watch code for spectators: {watch}");
    }
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
    let register = data_dir.register(&me);
    let log = match log {
        Some(path) => path.to_path_buf(),
        None => data_dir.new_game_log(code.room())?,
    };
    let mailbox = Mailbox::new(server.clone());
    let runtime = runtime()?;
    // Joined before: a visit brings its log up to date.
    let visit_log = |log: &Path| -> Result<String, CliError> {
        let (mut game, _) = open_game(data_dir, log, identity.clone(), None)?;
        let visit = runtime.block_on(game.visit(&mailbox, clock_ms()?))?;
        Ok(format!("{}\n", summary_line(&game.session, &visit, log)))
    };
    if log.exists() {
        return visit_log(&log);
    }
    let listed = runtime.block_on(mailbox.room(code.room()))?;
    let now = clock_ms()?;
    // Games in the room that the code does not admit, and why: what a
    // server (or anyone who learnt the room name) may have posted there.
    let mut refused = Vec::new();
    for game in listed {
        let Some((_, records)) = runtime.block_on(mailbox.records(&game.game_id, 0))? else {
            continue;
        };
        let Some(genesis) = records.first().cloned() else {
            continue;
        };
        if let Err(reason) = genesis_fits_code(&genesis, code.invitation()) {
            refused.push(reason.to_string());
            continue;
        }
        // The game has a home already (joined before from another log):
        // go on there, never in a second copy.
        let home = register.home(&game.game_id)?;
        if let Some(home) = home.as_ref().filter(|h| h.exists()) {
            eprintln!("you joined this game before; its log is {}", home.display());
            return visit_log(home);
        }
        let log = home.unwrap_or_else(|| log.clone());
        if records.len() > 1 {
            // Accepted already: by us (our log was lost), or by someone else.
            let verified = match verify_log(&records) {
                Ok(verified) => verified,
                Err(e) => {
                    refused.push(format!("its records in the mailbox do not verify: {e}"));
                    continue;
                }
            };
            if verified.player(Seat::Guest).map(|g| g.key) != Some(me) {
                return Err(CliError::AcceptedByAnother {
                    guest: verified
                        .player(Seat::Guest)
                        .map_or_else(String::new, |g| g.key.fingerprint().to_string()),
                });
            }
            write_log(&log, &records).map_err(CliError::LogFile)?;
            write_room_file(RoomFile::new(server.room_url(code.room()), None), &log)?;
            register.settle_home(&game.game_id, &log)?;
            return Ok(format!(
                "your log of this game was restored from the mailbox: {}\n",
                log.display()
            ));
        }
        let mut session = Session::guest(
            identity.clone(),
            name.to_string(),
            code.invitation().clone(),
        );
        session.set_register(register.for_log(&log));
        let Ok(outputs) = session.relayed(genesis, now) else {
            // Not the host the code names: someone else's game in this room.
            continue;
        };
        let mut writer = LogWriter::create(&log).map_err(CliError::LogFile)?;
        write_room_file(RoomFile::new(server.room_url(code.room()), None), &log)?;
        let mut visit = Visit::default();
        apply_outputs(&log, &mut writer, outputs, &mut visit).map_err(CliError::LogFile)?;
        if let Some(reason) = visit.halted {
            return Err(CliError::Halted(reason));
        }
        let open = OpenGame {
            path: log.clone(),
            session,
            writer,
            room: None,
            lock: None,
        };
        runtime
            .block_on(open.deliver(&mailbox, 1))
            .map_err(|source| CliError::Undelivered {
                what: "accepted",
                log: log.clone(),
                source,
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
    Err(CliError::NoOpenGame {
        server,
        room: code.room().to_string(),
        refused,
    })
}

/// `reversi games`: every unfinished game of this identity, brought up to
/// date with the mailbox first (and any game the mailbox has that no local
/// log holds is restored from it).
pub fn games(args: &GamesArgs, data_dir: &DataDir) -> Result<String, CliError> {
    let identity = data_dir.identity()?;
    let server = args.server.as_deref().map(parse_server).transpose()?;
    let now = clock_ms()?;
    let register = data_dir.register(&identity.public_key());
    let listing = runtime()?.block_on(refresh_all(
        &data_dir.games_dir(),
        &identity,
        server.as_ref(),
        now,
        &register,
    ));
    for note in &listing.notes {
        eprintln!("{note}");
    }
    if args.json {
        let rows = serde_json::to_value(&listing.games)?;
        return Ok(format!("{rows}\n"));
    }
    if listing.games.is_empty() {
        return Ok("no unfinished games\n".into());
    }
    let mut out = String::new();
    for game in &listing.games {
        let left = game.deadline_left_secs.map_or_else(
            || "-".to_string(),
            |secs| humantime::format_duration(std::time::Duration::from_secs(secs)).to_string(),
        );
        out.push_str(&format!(
            "{}  vs {}  {}  you: {}  {}  ({} left)  {}\n",
            game.room.as_deref().unwrap_or("-"),
            game.opponent.as_deref().unwrap_or("(not yet known)"),
            game.rules.as_deref().unwrap_or(""),
            game.my_color.unwrap_or("-"),
            game.status,
            left,
            game.log,
        ));
    }
    Ok(out)
}

fn summary_line(session: &Session, visit: &Visit, log: &Path) -> String {
    let mut parts = Vec::new();
    if visit.fetched > 0 {
        parts.push(format!("{} new from the mailbox", visit.fetched));
    }
    if let Some(outcome) = session.outcome() {
        parts.push(format!("game over: {}", outcome));
    } else if let Some(question) = session.my_question() {
        parts.push(format!(
            "{} (reversi move LOG black|white)",
            question.prompt()
        ));
    } else if session.question().is_some() {
        parts.push("the opponent is choosing a colour".into());
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
    let (mut game, server) = open_game(data_dir, &args.log, identity, args.server.as_deref())?;
    let server = server.ok_or_else(|| CliError::NothingRecorded {
        what: "server",
        log: args.log.clone(),
    })?;
    let mailbox = Mailbox::new(server.clone());
    let runtime = runtime()?;
    let now = clock_ms()?;
    // First what the opponent has done meanwhile: nothing is signed on an
    // old view of the game.
    let visit = runtime
        .block_on(game.visit(&mailbox, now))
        .map_err(CliError::VisitBeforeSigning)?;
    if let Some(reason) = visit.halted {
        return Err(CliError::Halted(reason));
    }
    let action = args.action.trim().to_ascii_lowercase();
    let result = match action.as_str() {
        "resign" => game.session.resign(now),
        "claim" => game.session.claim_timeout(now),
        "black" => game.session.choose(Color::Black, now),
        "white" => game.session.choose(Color::White, now),
        text => {
            let square: Square = text
                .parse()
                .map_err(|_| CliError::NotAnAction(args.action.clone()))?;
            game.session.play(square, now)
        }
    };
    let outputs = result.map_err(|e| action_error(e, &game.session, now))?;
    let held = game.session.records().len() as u32 - 1;
    let mut after = Visit::default();
    game.apply(outputs, &mut after).map_err(CliError::LogFile)?;
    runtime
        .block_on(game.deliver(&mailbox, held))
        .map_err(|source| CliError::Undelivered {
            what: "signed and logged",
            log: args.log.clone(),
            source,
        })?;
    let what = match action.as_str() {
        "resign" => "resigned".to_string(),
        "claim" => "claimed the win on time".to_string(),
        "black" | "white" => format!("chose {action}"),
        square => format!("played {square}"),
    };
    Ok(format!(
        "{what}; stored in the mailbox of {server}; {}\n",
        summary_line(&game.session, &Visit::default(), &args.log)
    ))
}

fn action_error(e: ActionError, session: &Session, now: u64) -> CliError {
    let why = match e {
        ActionError::NotYourTurn => NotSigned::NotYourTurn {
            whose: session
                .position()
                .and_then(|p| p.to_move())
                .map_or("the other player's".to_string(), |c| format!("{c}'s")),
        },
        ActionError::NotPlaying => match session.verifier().map(|v| v.phase()) {
            Some(Phase::Ended) => NotSigned::Over,
            _ => NotSigned::NotStarted,
        },
        ActionError::WaitingForHeads => NotSigned::WaitingForHeads,
        ActionError::DeadlineNotPassed => NotSigned::DeadlineNotPassed {
            left: std::time::Duration::from_secs(
                session
                    .deadline()
                    .map_or(0, |(_, at)| at.saturating_sub(now) / 1000),
            ),
        },
        ActionError::ColorsNotChosen => NotSigned::ColorsNotChosen,
        ActionError::Refused(e) => NotSigned::Refused(e.violation),
        ActionError::Register(e) => NotSigned::Register(e),
    };
    CliError::NotSigned(why)
}
