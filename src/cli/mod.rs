//! The command line: argument types (clap) and one module per command.

pub(crate) mod analyze_command;
pub(crate) mod audit_command;
pub(crate) mod bench_command;
pub(crate) mod board_command;
pub(crate) mod correspondence_commands;
mod error;
pub(crate) mod export_command;
pub(crate) mod identity_command;
pub mod ladder_command;
pub(crate) mod leaderboard_commands;
pub(crate) mod nboard_command;
pub(crate) mod network_commands;
pub(crate) mod perft_command;
pub(crate) mod play_command;
pub(crate) mod ratings_command;
pub mod rule_args;
pub(crate) mod selfplay_command;
pub mod solve_command;
pub(crate) mod verify_page_command;
pub(crate) mod watch_command;

use clap::{Parser, Subcommand};

pub use error::{CliError, NotSigned, WeightsRefused};

/// Peer-to-peer Reversi in all its historic forms.
#[derive(Debug, Parser)]
#[command(name = "reversi", version, about)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Data directory (keys, logs); default $REVERSI_HOME, else the platform's data directory.
    #[arg(long, global = true, value_name = "DIR")]
    pub data_dir: Option<std::path::PathBuf>,
}

/// What `reversi` can do: one variant per subcommand.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play a transcript and print the board, legal moves, counts and result.
    Board(board_command::BoardArgs),
    /// Count leaf nodes to a depth (move generator check and speed).
    Perft(perft_command::PerftArgs),
    /// Play the computer in the terminal (without a command, the window opens).
    Play(play_command::PlayArgs),
    /// Play a whole game between two local players and write its signed log.
    Selfplay(selfplay_command::SelfplayArgs),
    /// Verify a match log (or compare two logs of one game).
    Audit(audit_command::AuditArgs),
    /// Export a verified log as a transcript or GGF.
    Export(export_command::ExportArgs),
    /// Host a game over the network: prints the room code, then plays.
    Host(network_commands::HostArgs),
    /// Join a hosted game with its room code.
    Join(network_commands::JoinArgs),
    /// Resume a networked game from its log after a crash or restart.
    Resume(network_commands::ResumeArgs),
    /// Propose a rematch of a finished game to its opponent (or --wait for theirs).
    Rematch(network_commands::RematchArgs),
    /// List your unfinished games, brought up to date with the mailbox.
    Games(correspondence_commands::GamesArgs),
    /// Make a move (a square, `resign` or `claim`) in a game and deliver it to the mailbox.
    Move(correspondence_commands::MoveArgs),
    /// Keep one log of a game found in several places (`reversi games`
    /// lists them); the others are set aside as `LOG.superseded`.
    Keep(correspondence_commands::KeepArgs),
    /// Show your key's fingerprint, or export it under a passphrase and
    /// import it elsewhere (another machine, the browser).
    Identity(identity_command::IdentityArgs),
    /// Check that the page a server serves is the one this source builds:
    /// every file of its bundle, fetched and compared with a local build.
    VerifyPage(verify_page_command::VerifyPageArgs),
    /// Speed figures: perft, midgame nodes per second, FFO 40–49 solve time.
    Bench(bench_command::BenchArgs),
    /// Play each bot level against the one below and print the table.
    Ladder(ladder_command::LadderArgs),
    /// Solve positions exactly (an .obf file): best move, score, nodes, time.
    Solve(solve_command::SolveArgs),
    /// Glicko-2 ratings from finished logs, each audited and counted once.
    Ratings(ratings_command::RatingsArgs),
    /// Submit a finished log to a signaling server's leaderboard.
    Submit(leaderboard_commands::SubmitArgs),
    /// A server's leaderboard: the table, or --join, --leave, --download DIR.
    Leaderboard(leaderboard_commands::LeaderboardArgs),
    /// Follow a game as a spectator, from its watch code.
    Watch(watch_command::WatchArgs),
    /// Analyse a game (a log, a GGF file or a transcript): each move's value, the best, the loss.
    Analyze(analyze_command::AnalyzeArgs),
    /// The engine for other programs: the NBoard protocol on stdin/stdout.
    Nboard(nboard_command::NboardArgs),
}

/// Runs a parsed command line's `command`, returning what to print on
/// success. (Without a command, the program opens its window instead.)
pub fn run(cli: &Cli, command: &Command) -> Result<String, CliError> {
    let data_dir = || crate::data_dir::DataDir::resolve(cli.data_dir.as_deref());
    match command {
        Command::Selfplay(args) => selfplay_command::run(args, &data_dir()?),
        Command::Audit(args) => audit_command::run(args),
        Command::Export(args) => export_command::run(args),
        Command::Host(args) => network_commands::host(args, &data_dir()?),
        Command::Join(args) => network_commands::join(args, &data_dir()?),
        Command::Resume(args) => network_commands::resume(args, &data_dir()?),
        Command::Rematch(args) => network_commands::rematch(args, &data_dir()?),
        Command::Games(args) => correspondence_commands::games(args, &data_dir()?),
        Command::Move(args) => correspondence_commands::make_move(args, &data_dir()?),
        Command::Keep(args) => correspondence_commands::keep(args, &data_dir()?),
        Command::Identity(args) => identity_command::run(args, &data_dir()?),
        Command::VerifyPage(args) => verify_page_command::run(args),
        Command::Board(args) => board_command::run(args),
        Command::Perft(args) => perft_command::run(args),
        Command::Play(args) => play_command::run(args),
        Command::Solve(args) => solve_command::run(args),
        Command::Ladder(args) => ladder_command::run(args),
        Command::Bench(args) => bench_command::run(args),
        Command::Nboard(args) => nboard_command::run(args),
        Command::Analyze(args) => analyze_command::run(args),
        Command::Ratings(args) => ratings_command::run(args),
        Command::Submit(args) => leaderboard_commands::submit(args),
        Command::Watch(args) => watch_command::run(args),
        Command::Leaderboard(args) => leaderboard_commands::leaderboard(args, &data_dir()?),
    }
}
