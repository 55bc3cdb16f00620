//! What a command can fail with: the error of the command line's layer,
//! wrapping the typed errors of the layers below (`#[from]`). Text is made
//! only here, where it is printed.

use std::path::PathBuf;
use std::time::Duration;

use super::rule_args::RuleArgsError;
use crate::engine::{ReplayError, TranscriptError};
use crate::match_log::verify::Violation;
use crate::net::correspondence::CorrespondenceError;
use crate::net::game_setup::SetupError;
use crate::net::leaderboard::LeaderboardError;
use crate::net::mailbox::MailboxError;
use crate::net::native_game::{GameFolderError, GameStartError};
use crate::net::room_code::RoomCodeError;
use crate::net::server_url::{ServerUrl, ServerUrlError};
use crate::net::session::HaltReason;
use crate::net::signing_register::RegisterError;
use crate::net::watch::{WatchCodeError, WatchError};

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
    /// The data directory or key file failed.
    #[error(transparent)]
    DataDir(#[from] crate::data_dir::DataDirError),
    /// The OS random generator failed.
    #[error("no random bytes from the operating system: {0}")]
    Random(#[from] getrandom::Error),
    /// A log file cannot be read or written.
    #[error(transparent)]
    LogFile(crate::match_log::log_file::LogFileError),
    /// A log file does not pass the audit.
    #[error(transparent)]
    Audit(#[from] crate::match_log::audit::AuditError),
    /// A record does not verify.
    #[error(transparent)]
    Verify(crate::match_log::VerifyError),
    /// A server address (a flag, a room file) is not a signaling server URL.
    #[error(transparent)]
    ServerUrl(#[from] ServerUrlError),
    /// The room code is malformed.
    #[error(transparent)]
    RoomCode(#[from] RoomCodeError),
    /// A game cannot be set up (no server, an old code, a bad log).
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// A networked game could not start.
    #[error(transparent)]
    Start(#[from] GameStartError),
    /// The games folder cannot be made.
    #[error(transparent)]
    GameFolder(#[from] GameFolderError),
    /// A file beside a log, or a downloaded log, cannot be written.
    #[error("{}: {source}", path.display())]
    File {
        /// The file or folder.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The async runtime the network commands run in cannot start.
    #[error("cannot start the async runtime: {0}")]
    Runtime(std::io::Error),
    /// A log has no room or server recorded beside it, and none was given.
    #[error("no {what} is recorded beside the log ({}); pass --server", log.display())]
    NothingRecorded {
        /// `room` or `server`.
        what: &'static str,
        /// The game's log file.
        log: PathBuf,
    },
    /// The opponent declined the rematch this side proposed.
    #[error("the opponent declined the rematch")]
    RematchDeclined,
    /// `REVERSI_CLOCK_OFFSET` is set to something that is not a duration.
    #[error("REVERSI_CLOCK_OFFSET={text:?} is not a duration: {source}")]
    ClockOffset {
        /// The variable's value.
        text: String,
        /// Why it does not parse.
        source: humantime::DurationError,
    },
    /// `--detach` without `--server`.
    #[error(
        "--detach needs --server: the game waits in that server's mailbox, which must outlive this program"
    )]
    DetachNeedsServer,
    /// The mailbox cannot be reached, or refused a request.
    #[error(transparent)]
    Mailbox(#[from] MailboxError),
    /// A visit to the mailbox failed (the log, the mailbox, another program).
    #[error(transparent)]
    Correspondence(#[from] CorrespondenceError),
    /// A visit before signing failed: nothing was signed.
    #[error("cannot reach the mailbox, nothing signed: {0}")]
    VisitBeforeSigning(CorrespondenceError),
    /// A record is signed and logged, but the mailbox has not stored it.
    #[error("{what} ({}), but the mailbox has not stored it yet: {source}; `reversi games` delivers it", log.display())]
    Undelivered {
        /// What was done ("the game is created", ...).
        what: &'static str,
        /// The game's log.
        log: PathBuf,
        /// Why the mailbox did not store it.
        source: MailboxError,
    },
    /// The open game in the mailbox was accepted by someone else.
    #[error("this game was already accepted by another player ({guest})")]
    AcceptedByAnother {
        /// The other guest's key fingerprint.
        guest: String,
    },
    /// The game halted during a visit (the reason is the session's).
    #[error("the game is halted: {0}")]
    Halted(HaltReason),
    /// The mailbox holds no game the code admits.
    #[error(
        "the mailbox of {server} holds no game in room {room} from the host the code names{}; the host may be waiting live (join without --detach)",
        refused_note(refused)
    )]
    NoOpenGame {
        /// The server asked.
        server: ServerUrl,
        /// The room name on the signaling server.
        room: String,
        /// Why the games in the room were refused.
        refused: Vec<String>,
    },
    /// `reversi move` was given something that is no move or action.
    #[error("{0:?} is not a square (like f5), `resign`, `claim`, `black` or `white`")]
    NotAnAction(String),
    /// `reversi move` signed nothing.
    #[error("{0}; nothing signed")]
    NotSigned(#[from] NotSigned),
    /// JSON output cannot be written.
    #[error("cannot write JSON: {0}")]
    Json(#[from] serde_json::Error),
    /// A watch code is malformed.
    #[error(transparent)]
    WatchCode(#[from] WatchCodeError),
    /// Following a game failed.
    #[error(transparent)]
    Watch(#[from] WatchError),
    /// The mailbox holds no record of the watched game.
    #[error("the mailbox holds no record of this game")]
    NothingToWatch,
    /// The leaderboard refused a request or cannot be reached.
    #[error(transparent)]
    Leaderboard(#[from] LeaderboardError),
    /// A networked game did not end normally (halted, disconnected, its
    /// log not written).
    #[error(transparent)]
    Game(#[from] crate::net::driver::DriverError),
    /// The register of signed records refuses, or cannot be used.
    #[error(transparent)]
    Register(#[from] crate::net::signing_register::RegisterError),
    /// A copy of a game cannot be kept.
    #[error(transparent)]
    Keep(#[from] crate::data_dir::register::KeepError),
    /// The local browser bundle (`--dist DIR`) cannot be read.
    #[error(transparent)]
    Bundle(#[from] reversi_signaling::web_assets::WebAssetsError),
    /// This program was built without the browser bundle, and no `--dist`
    /// was given.
    #[error(
        "this program has no browser bundle built in: run web/build.sh and pass --dist web/dist"
    )]
    NoBundle,
    /// A file of the served page cannot be fetched.
    #[error("{name}: {source}")]
    PageFetch {
        /// The file of the bundle.
        name: String,
        /// Why the request failed.
        source: crate::net::http_client::HttpError,
    },
    /// The served page is not this build (the report says which files
    /// differ).
    #[error("{report}")]
    PageDiffers {
        /// The file-by-file comparison, as printed.
        report: String,
    },
    /// `--passphrase-file` is missing and there is no terminal to ask on.
    #[error("no passphrase: pass --passphrase-file FILE, or run this on a terminal")]
    NoPassphrase,
    /// The passphrase typed twice differs.
    #[error("the two passphrases differ")]
    PassphrasesDiffer,
    /// An identity cannot be sealed for export.
    #[error(transparent)]
    Seal(crate::identity_export::ExportError),
    /// An exported identity cannot be opened.
    #[error("{}: {source}", path.display())]
    Unseal {
        /// The file given to `reversi identity import`.
        path: PathBuf,
        /// Why it cannot be opened.
        source: crate::identity_export::ExportError,
    },
    /// A file given as an exported identity cannot be read as one.
    #[error("{}: not an exported identity ({source})", path.display())]
    NotAnExport {
        /// The file, as named on the command line.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// A positions file has a line that is not a position, or that the
    /// rules refuse.
    #[error("{}: {source}", path.display())]
    Positions {
        /// The file, as named on the command line.
        path: PathBuf,
        /// What is wrong.
        source: crate::engine::obf::ObfError,
    },
    /// Positions text (not from a named file) is refused.
    #[error(transparent)]
    Obf(#[from] crate::engine::obf::ObfError),
    /// A file that should be text is not UTF-8.
    #[error("{}: not UTF-8 text", path.display())]
    NotText {
        /// The file, as named on the command line.
        path: PathBuf,
    },
    /// `reversi solve --setup`: the positions come from the file.
    #[error("--setup does not apply to solve: the positions come from the file")]
    SetupInSolve,
    /// A position of the free or double opening, still placing discs.
    #[error(
        "the free and double openings place discs without flipping; solve positions after the opening"
    )]
    SolveInOpening,
    /// A file was given with rule flags, but a file carries its own rules.
    #[error("{}: a file carries its rules; the rule flags are for a transcript", path.display())]
    RulesWithFile {
        /// The file, as named on the command line.
        path: PathBuf,
    },
    /// A GGF file cannot be read.
    #[error("{}: {source}", path.display())]
    Ggf {
        /// The file, as named on the command line.
        path: PathBuf,
        /// What is wrong.
        source: crate::engine::GgfError,
    },
    /// `reversi ladder --from` is not below `--to`.
    #[error("--from must be below --to")]
    LadderRange,
    /// Two logs of one game disagree.
    #[error("{report}")]
    Disputed {
        /// The comparison, as printed.
        report: String,
    },
    /// An evaluation weights file cannot be read or is refused.
    #[error("--eval {path}: {source}")]
    Weights {
        /// The weights file as given to `--eval`.
        path: String,
        /// Why it cannot be used.
        source: WeightsRefused,
    },
}

/// Why `reversi move` signed nothing, with what the player needs to know.
#[derive(Debug, thiserror::Error)]
pub enum NotSigned {
    /// It is the other side's turn.
    #[error("not your turn: it is {whose} move")]
    NotYourTurn {
        /// Whose move it is ("Black's", "the other player's").
        whose: String,
    },
    /// The game has ended.
    #[error("the game is over")]
    Over,
    /// The game has not begun.
    #[error("the game has not started: the coin flip waits for the other player's visit")]
    NotStarted,
    /// A timeout claim before the opponent's deadline.
    #[error("the opponent's deadline has not passed: {} left", humantime::format_duration(*left))]
    DeadlineNotPassed {
        /// The opponent's time left.
        left: Duration,
    },
    /// A move before the colours are chosen.
    #[error("the colours are not chosen yet (draw rule decided by lot)")]
    ColorsNotChosen,
    /// The session waits for the opponent to confirm where the game stands.
    #[error("waiting for the opponent to confirm where the game stands")]
    WaitingForHeads,
    /// The rules or the protocol refuse it.
    #[error("{0}")]
    Refused(Violation),
    /// The register of signed records refuses it.
    #[error(transparent)]
    Register(RegisterError),
}

/// How a list of refused games reads after "from the host the code names".
fn refused_note(refused: &[String]) -> String {
    match refused.first() {
        None => String::new(),
        Some(first) => format!(
            " ({} other game(s) there refused, not made with this code: {first})",
            refused.len()
        ),
    }
}

/// Why an evaluation weights file (`--eval FILE`) is not used.
#[derive(Debug, thiserror::Error)]
pub enum WeightsRefused {
    /// The file cannot be read.
    #[error(transparent)]
    Read(std::io::Error),
    /// The file is not pattern weights.
    #[error(transparent)]
    Decode(crate::search::patterns::PatternWeightsError),
    /// A search has already chosen this process's evaluation.
    #[error(transparent)]
    InUse(crate::search::patterns::EvaluationInUse),
}
