//! `reversi host`, `reversi join` and `reversi resume`: a game over the
//! network without a window. The host prints the room code alone on the
//! first line of standard output; moves come from `--bot LEVEL` or from
//! standard input (transcript notation, a prompt on standard error).

use std::io::{BufRead, Write};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::mpsc;
use std::time::Duration;

use clap::Args;

use super::CliError;
use super::rule_args::RuleArgs;
use crate::bot::{BackgroundBot, Bot};
use crate::data_dir::DataDir;
use crate::engine::{Color, Outcome, parse_transcript};
use crate::match_log::Identity;
use crate::match_log::rules_proposal::RulesProposal;
use crate::net::driver::{Action, Driver, DriverConfig, DriverError, Mover};
use crate::net::game_setup;
use crate::net::link::LinkStatus;
use crate::net::native_game::{self, GameStart, GameStartError, StartedGame};
use crate::net::room_code::RoomCode;
use crate::net::server_url::ServerUrl;
use crate::net::session::{ColorQuestion, Event, HaltReason, HostTerms, Session};
use crate::net::transport::IceServers;

fn parse_duration(text: &str) -> Result<Duration, String> {
    humantime::parse_duration(text)
        .map_err(|e| format!("{e} (write durations like 300ms, 90s, 5m, 2h, 7d)"))
}

fn parse_level(text: &str) -> Result<u8, String> {
    text.parse::<u8>()
        .ok()
        .filter(|l| crate::bot::LEVELS.contains(l))
        .ok_or_else(|| "the bot's level is a number from 1 to 10".to_string())
}

/// Flags shared by `host`, `join` and `resume`.
#[derive(Debug, Clone, Args)]
pub struct PlayFlags {
    /// Let the computer play this side, at this level (1–10); without it,
    /// moves are read from standard input.
    #[arg(long, value_parser = parse_level)]
    bot: Option<u8>,
    /// The bot searches every move, even where levels 8–10 would play from
    /// the opening book.
    #[arg(long)]
    no_book: bool,
    /// Wait this long before each of this side's moves (e.g. 300ms).
    #[arg(long, default_value = "0s", value_parser = parse_duration)]
    move_delay: Duration,
    /// A STUN or TURN server URL for ICE (repeatable), added to those the
    /// signaling server hands out.
    #[arg(long = "ice", value_name = "URL")]
    ice_urls: Vec<String>,
    /// Do not ask the signaling server for its STUN and TURN servers.
    #[arg(long)]
    no_server_ice: bool,
    /// TURN user name (with your own --ice turn: URL; replaces the server's relay).
    #[arg(long)]
    turn_user: Option<String>,
    /// TURN password.
    #[arg(long)]
    turn_password: Option<String>,
}

impl PlayFlags {
    /// The driver's settings for a room and a log.
    fn driver_config(
        &self,
        room_url: String,
        log_path: PathBuf,
        first_peer_timeout: Option<Duration>,
    ) -> DriverConfig {
        DriverConfig {
            room_url,
            ice: self.ice(),
            ice_from_server: !self.no_server_ice,
            log_path,
            move_delay: self.move_delay,
            first_peer_timeout,
        }
    }

    fn ice(&self) -> IceServers {
        IceServers {
            urls: self.ice_urls.clone(),
            username: self.turn_user.clone(),
            credential: self.turn_password.clone(),
        }
    }
}

/// Arguments of `reversi host`.
#[derive(Debug, Clone, Args)]
pub struct HostArgs {
    #[command(flatten)]
    rules: RuleArgs,
    /// The Japanese draw rule: the player the game seed names chooses which
    /// colour wins an equal count, then the other chooses a colour.
    #[arg(long)]
    draw_by_lot: bool,
    /// Per-move deadline, 5m to 7d.
    #[arg(long, default_value = "1day", value_parser = crate::match_log::verify::parse_deadline)]
    deadline: u32,
    /// Signaling server (ws://HOST:PORT); without it an embedded server is started.
    #[arg(long)]
    server: Option<String>,
    /// Where the embedded signaling server listens.
    #[arg(long, default_value = "0.0.0.0:3536")]
    listen: SocketAddr,
    /// Your name as the opponent will see it.
    #[arg(long, default_value = "Host")]
    name: String,
    /// The log file (default: DATA_DIR/games/ROOM.log).
    #[arg(long)]
    log: Option<PathBuf>,
    /// Create the game in the server's mailbox, print the code and exit;
    /// the game goes on with `reversi games` and `reversi move` (needs --server).
    #[arg(long)]
    detach: bool,
    #[command(flatten)]
    play: PlayFlags,
}

/// Arguments of `reversi join`.
#[derive(Debug, Clone, Args)]
pub struct JoinArgs {
    /// The room code from the host.
    code: String,
    /// Signaling server (ws://HOST:PORT), when the code carries no address.
    #[arg(long)]
    server: Option<String>,
    /// Your name as the opponent will see it.
    #[arg(long, default_value = "Guest")]
    name: String,
    /// The log file (default: DATA_DIR/games/ROOM.log).
    #[arg(long)]
    log: Option<PathBuf>,
    /// Give up if the host does not answer within this long.
    #[arg(long, default_value = "30s", value_parser = parse_duration)]
    wait: Duration,
    /// Accept the game waiting in the server's mailbox and exit; the game
    /// goes on with `reversi games` and `reversi move`.
    #[arg(long)]
    detach: bool,
    #[command(flatten)]
    play: PlayFlags,
}

/// Arguments of `reversi resume`.
#[derive(Debug, Clone, Args)]
pub struct ResumeArgs {
    /// The game's log file.
    log: PathBuf,
    /// Signaling server (ws://HOST:PORT), instead of the one the game used.
    #[arg(long)]
    server: Option<String>,
    #[command(flatten)]
    play: PlayFlags,
}

/// Arguments of `reversi rematch`.
#[derive(Debug, Clone, Args)]
pub struct RematchArgs {
    /// The finished game's log.
    log: PathBuf,
    /// Wait for the opponent's proposal instead of proposing.
    #[arg(long)]
    wait: bool,
    /// With --wait: accept the proposal without asking.
    #[arg(long, requires = "wait", conflicts_with = "decline")]
    accept: bool,
    /// With --wait: decline it without asking.
    #[arg(long, requires = "wait")]
    decline: bool,
    /// Where to write the new game's log (must not exist; default: beside the old one).
    #[arg(long = "new-log", value_name = "PATH")]
    new_log: Option<PathBuf>,
    #[command(flatten)]
    play: PlayFlags,
}

/// What the safety code is for, in a line.
const SAFETY_CODE_HINT: &str = "your opponent sees the same words if nobody stands between you; compare them by voice if it matters";

/// A `--server` value, checked (`https://` becomes `wss://`).
pub(super) fn parse_server(text: &str) -> Result<ServerUrl, CliError> {
    Ok(ServerUrl::parse(text)?)
}

/// Starts a game through [`native_game::start`], in `runtime`.
fn start(
    runtime: &tokio::runtime::Runtime,
    how: GameStart,
    identity: Identity,
    data_dir: &DataDir,
) -> Result<StartedGame, CliError> {
    Ok(runtime.block_on(native_game::start(how, identity, data_dir))?)
}

/// Runs `reversi host`.
pub fn host(args: &HostArgs, data_dir: &DataDir) -> Result<String, CliError> {
    let rules = args.rules.rules()?;
    let proposal = if args.draw_by_lot {
        RulesProposal::draw_by_lot(rules).map_err(super::rule_args::RuleArgsError::from)?
    } else {
        RulesProposal::fixed(rules)
    };
    let terms = HostTerms {
        proposal,
        deadline_secs: args.deadline,
    };
    if args.detach {
        return super::correspondence_commands::host_detached(
            data_dir,
            args.server.as_deref(),
            terms,
            &args.name,
            args.log.as_deref(),
        );
    }
    let server = args.server.as_deref().map(parse_server).transpose()?;
    let runtime = runtime()?;
    let how = GameStart::Host {
        name: args.name.clone(),
        terms,
        server,
        listen: args.listen,
        log: args.log.clone(),
    };
    let identity = data_dir.identity()?;
    let fingerprint = identity.public_key().fingerprint();
    let game = start(&runtime, how, identity, data_dir)?;
    let code = game.code.clone().expect("a hosted game has a code");
    let mut stdout = std::io::stdout();
    let _ = writeln!(stdout, "{code}");
    let _ = stdout.flush();
    eprintln!("room code {code} — waiting for the opponent (your key {fingerprint})");
    if let Some(link) = code.invite_link() {
        eprintln!("invite link (carries your whole key): {link}");
    }
    eprintln!("{}", crate::net::room_code::WHAT_A_CODE_PROTECTS);
    // Spectators follow the game in a stand-alone server's mailbox.
    let watch = game.watch_server.clone();
    play_started(&runtime, game, &args.play, None, watch, None)
}

/// Runs `reversi join`.
pub fn join(args: &JoinArgs, data_dir: &DataDir) -> Result<String, CliError> {
    let code: RoomCode = args.code.parse()?;
    let server = args.server.as_deref().map(parse_server).transpose()?;
    if args.detach {
        let server = game_setup::join_server(&code, server, None, NO_SERVER)?;
        return super::correspondence_commands::join_detached(
            data_dir,
            &code,
            server,
            &args.name,
            args.log.as_deref(),
        );
    }
    let runtime = runtime()?;
    let how = GameStart::Join {
        name: args.name.clone(),
        code,
        server,
        no_server_hint: NO_SERVER,
        log: args.log.clone(),
    };
    let game = start(&runtime, how, data_dir.identity()?, data_dir)?;
    play_started(&runtime, game, &args.play, Some(args.wait), None, None)
}

/// Where `join` names a server when the code names none.
const NO_SERVER: &str = "pass --server ws://HOST:PORT (the host's signaling server)";

/// `reversi rematch LOG`: proposes a new game with the same rules to the
/// opponent of a finished game (or, with `--wait`, answers theirs), in a
/// room both derive from the old one, and plays it.
pub fn rematch(args: &RematchArgs, data_dir: &DataDir) -> Result<String, CliError> {
    let runtime = runtime()?;
    let how = GameStart::Rematch {
        old_log: args.log.clone(),
        new_log: args.new_log.clone(),
        propose: !args.wait,
    };
    let game = start(&runtime, how, data_dir.identity()?, data_dir)?;
    eprintln!(
        "{} a rematch with {}",
        if args.wait {
            "waiting for"
        } else {
            "proposing"
        },
        game.opponent.as_deref().unwrap_or_default()
    );
    let log = game.log.clone();
    let answer = match (args.accept, args.decline) {
        (true, _) => Some(true),
        (_, true) => Some(false),
        _ => None,
    };
    match play_started(&runtime, game, &args.play, None, None, answer) {
        Ok(text) => Ok(format!("{text}log: {}\n", log.display())),
        Err(CliError::Game(DriverError::Halted(HaltReason::RematchDeclined))) => {
            // A proposal nobody accepted is no game.
            crate::net::rematch::discard(&log);
            if args.wait {
                Ok("you declined the rematch\n".to_string())
            } else {
                Err(CliError::RematchDeclined)
            }
        }
        Err(e) => Err(e),
    }
}

/// Runs `reversi resume`.
pub fn resume(args: &ResumeArgs, data_dir: &DataDir) -> Result<String, CliError> {
    // Checked like host's and join's (`https://` becomes `wss://`).
    let server = args.server.as_deref().map(parse_server).transpose()?;
    let runtime = runtime()?;
    let how = GameStart::Resume {
        log: args.log.clone(),
        server,
    };
    let game = match start(&runtime, how, data_dir.identity()?, data_dir) {
        Err(CliError::Start(GameStartError::NoRoom(_))) => {
            return Err(CliError::NothingRecorded {
                what: "room",
                log: args.log.clone(),
            });
        }
        other => other?,
    };
    if let Some(seq) = game.put_back {
        eprintln!(
            "record {seq} was signed and registered, but the program stopped before logging it: put back"
        );
    }
    // A finished game is resumed too: to deliver the last records to an
    // opponent who may not have them (the driver leaves once they are
    // confirmed, or after a minute).
    if let Some(outcome) = game.session.outcome() {
        eprintln!(
            "the game is over ({}): making sure the opponent has every record",
            outcome
        );
    }
    play_started(&runtime, game, &args.play, None, None, None)
}

/// Plays a started game to its end on `runtime` (see [`play`]), then stops
/// the signaling server this program ran for it, if any.
fn play_started(
    runtime: &tokio::runtime::Runtime,
    game: StartedGame,
    flags: &PlayFlags,
    first_peer_timeout: Option<Duration>,
    watch: Option<ServerUrl>,
    rematch_answer: Option<bool>,
) -> Result<String, CliError> {
    let config = flags.driver_config(game.room_url, game.log, first_peer_timeout);
    let driver = Driver::new(game.session, game.writer, config);
    let result = runtime.block_on(play(driver, flags, watch, rematch_answer));
    StartedGame::stop_server(game.embedded);
    result
}

/// The async runtime the network commands run in.
pub(super) fn runtime() -> Result<tokio::runtime::Runtime, CliError> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(CliError::Runtime)
}

/// Plays the game to its end, reporting on standard error; with `watch`,
/// says the watch code once the game exists; `rematch_answer` answers a
/// rematch offer without asking (accept or decline).
async fn play(
    mut driver: Driver,
    flags: &PlayFlags,
    watch: Option<ServerUrl>,
    rematch_answer: Option<bool>,
) -> Result<String, CliError> {
    driver.set_clock_offset(super::correspondence_commands::clock_offset_ms()?);
    // Says each change of the connection once (every reconnection attempt).
    let mut said = None;
    let mut said_route = None;
    let mut watch = watch;
    driver.set_observer(move |session, link, route| {
        if let Some(first) = session.records().first()
            && let Some(server) = watch.take()
        {
            let code = crate::net::watch::WatchCode {
                game_id: first.hash(),
                server,
            };
            eprintln!("watch code for spectators: {code}");
        }
        let line = match link {
            LinkStatus::Connected => Some("connected to the opponent".to_string()),
            LinkStatus::Reconnecting { .. } => Some(link.describe(std::time::Instant::now())),
            LinkStatus::Connecting => None,
        };
        if line.is_some() && line != said {
            if let Some(line) = &line {
                eprintln!("{line}");
            }
            said = line;
        }
        // Said once per connection, when the WebRTC stack knows it.
        if *link == LinkStatus::Connected && route.is_some() && route != said_route {
            if let Some(route) = route {
                eprintln!("connection: {route}");
            }
            said_route = route;
        }
        if *link != LinkStatus::Connected {
            said_route = None;
        }
    });
    let inner: Box<dyn Mover> = match flags.bot {
        Some(level) => {
            let mut bot = Bot::for_play(level, driver::seed());
            bot.set_book(!flags.no_book);
            Box::new(BotMover(BackgroundBot::new(bot)))
        }
        None => Box::new(StdinMover::new()),
    };
    let mut mover: Box<dyn Mover> = Box::new(Answering {
        answer: rematch_answer,
        inner,
    });
    let mut report = |event: &Event| match event {
        Event::PeerIdentified {
            name,
            fingerprint,
            safety_code,
            safety_words,
        } => {
            eprintln!("opponent: {name} (key {fingerprint})");
            eprintln!("safety words: {safety_words} — {SAFETY_CODE_HINT}");
            eprintln!("safety code: {safety_code} (the same as digits)");
        }
        Event::Started { color } => eprintln!("the colours are settled: you play {color}"),
        Event::Chose {
            mine,
            question,
            color,
        } => eprintln!("{}", chose_text(*mine, *question, *color)),
        Event::Rejected(reason) => eprintln!("rejected from the opponent: {reason}"),
        Event::MoveRefused(reason) => eprintln!("not played: {reason}"),
        Event::PeerRejected(reason) => eprintln!("the opponent rejected: {reason}"),
        Event::Halted(reason) => eprintln!("game halted: {reason}"),
        Event::Ended(outcome) => eprintln!("game over: {outcome}"),
        Event::RematchOffered => eprintln!("the opponent proposes a rematch"),
        Event::Recorded { .. } | Event::Acknowledged(_) => {}
    };
    let outcome: Outcome = driver.run(mover.as_mut(), &mut report).await?;
    if !driver.delivered() {
        eprintln!(
            "the opponent has not confirmed your last move: they get it when you both run `reversi resume` on this game's log"
        );
    }
    let mine = driver.session().my_color();
    let verdict = match (outcome.winner, mine) {
        (None, _) => "draw".to_string(),
        (Some(w), Some(m)) if w == m => "you win".to_string(),
        (Some(_), Some(_)) => "you lose".to_string(),
        (Some(w), None) => format!("{w} wins"),
    };
    Ok(format!("{} — {verdict}\n", outcome))
}

mod driver {
    /// A seed for the bot from the clock: bot games need not repeat.
    pub fn seed() -> u64 {
        crate::platform::now_ms()
    }
}

/// Whose clock runs and how long is left, e.g. `your clock: 23h 59m left`.
fn clock_text(session: &Session) -> String {
    match session.deadline() {
        Some((seat, at)) => {
            let left = at.saturating_sub(crate::platform::now_ms()) / 1000;
            let left = humantime::format_duration(Duration::from_secs(left));
            let whose = if seat == session.seat() {
                "your clock"
            } else {
                "opponent's clock"
            };
            format!("{whose}: {left} left")
        }
        None => "no clock running".to_string(),
    }
}

/// The bot as a mover: it thinks in the background so the network loop
/// keeps answering the peer meanwhile.
struct BotMover(BackgroundBot);

/// Answers a rematch offer as told, else lets the inner mover answer.
struct Answering {
    answer: Option<bool>,
    inner: Box<dyn Mover>,
}

impl Mover for Answering {
    fn poll(&mut self, session: &Session) -> Option<Action> {
        match self.answer {
            Some(true) if session.rematch_offered() => Some(Action::AcceptRematch),
            Some(false) if session.rematch_offered() => Some(Action::DeclineRematch),
            _ => self.inner.poll(session),
        }
    }
}

impl Mover for BotMover {
    fn poll(&mut self, session: &Session) -> Option<Action> {
        // A bot plays any rematch it is offered.
        if session.rematch_offered() {
            return Some(Action::AcceptRematch);
        }
        if let Some(question) = session.my_question() {
            return Some(Action::Choose(bot_choice(session, question)));
        }
        self.0.poll(session.position()?).map(Action::Play)
    }
}

/// The bot's answer to a colour question: White wins an equal count (it
/// moves second, so it also sees the last move before the count); asked
/// for a colour, it takes the one that wins an equal count.
fn bot_choice(session: &Session, question: ColorQuestion) -> Color {
    match question {
        ColorQuestion::TieWinner => Color::White,
        ColorQuestion::SeatColor => session
            .verifier()
            .and_then(|v| v.coin_flip())
            .and_then(|f| f.tie_goes_to)
            .unwrap_or(Color::White),
    }
}

/// A line about a colour choice, for either side.
fn chose_text(mine: bool, question: ColorQuestion, color: Color) -> String {
    let who = if mine { "you" } else { "the opponent" };
    match question {
        ColorQuestion::TieWinner => {
            format!("{who} chose: an equal count wins for {color}")
        }
        ColorQuestion::SeatColor => format!("{who} chose to play {color}"),
    }
}

/// Moves typed on standard input, read by a thread so the game loop never blocks.
struct StdinMover {
    lines: mpsc::Receiver<String>,
    queued: std::collections::VecDeque<Action>,
    prompted_at: Option<usize>,
}

impl StdinMover {
    fn new() -> StdinMover {
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in std::io::stdin().lock().lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        StdinMover {
            lines: rx,
            queued: Default::default(),
            prompted_at: None,
        }
    }

    /// Asks whether to play the rematch offered and reads `yes` or `no`.
    fn answer_rematch(&mut self, session: &Session) -> Option<Action> {
        let ply = session.records().len();
        if self.prompted_at != Some(ply) {
            self.prompted_at = Some(ply);
            eprintln!("play the rematch? type yes or no:");
        }
        while let Ok(line) = self.lines.try_recv() {
            match line.trim().to_ascii_lowercase().as_str() {
                "yes" | "y" => return Some(Action::AcceptRematch),
                "no" | "n" => return Some(Action::DeclineRematch),
                other => eprintln!("expected yes or no, found {other:?}"),
            }
        }
        None
    }

    /// Asks a colour question and reads `black` or `white` (or `resign`).
    fn answer(&mut self, session: &Session, question: ColorQuestion) -> Option<Action> {
        let ply = session.records().len();
        if self.prompted_at != Some(ply) {
            self.prompted_at = Some(ply);
            self.queued.clear();
            eprintln!(
                "{} ({}) type black or white, or 'resign':",
                question.prompt(),
                clock_text(session)
            );
        }
        while let Ok(line) = self.lines.try_recv() {
            let text = line.trim();
            match text.to_ascii_lowercase().as_str() {
                "black" | "b" => return Some(Action::Choose(Color::Black)),
                "white" | "w" => return Some(Action::Choose(Color::White)),
                "resign" => return Some(Action::Resign),
                _ => eprintln!("expected black or white, found {text:?}"),
            }
        }
        None
    }
}

impl Mover for StdinMover {
    fn poll(&mut self, session: &Session) -> Option<Action> {
        if let Some(question) = session.my_question() {
            return self.answer(session, question);
        }
        if session.rematch_offered() {
            return self.answer_rematch(session);
        }
        let position = session.position()?;
        let ply = session.records().len();
        if self.prompted_at != Some(ply) {
            self.prompted_at = Some(ply);
            let color = position.to_move().map_or("?", Color::name);
            let legal: Vec<String> = position
                .legal_moves()
                .squares()
                .map(|s| s.to_string())
                .collect();
            eprintln!(
                "your move ({color}, {}; legal: {}), or 'resign':",
                clock_text(session),
                legal.join(" ")
            );
        }
        while let Ok(line) = self.lines.try_recv() {
            let text = line.trim();
            if text.eq_ignore_ascii_case("resign") {
                self.queued.push_back(Action::Resign);
                continue;
            }
            match parse_transcript(text) {
                Ok(squares) => self.queued.extend(squares.into_iter().map(Action::Play)),
                Err(e) => eprintln!("{e}"),
            }
        }
        self.queued.pop_front()
    }
}
