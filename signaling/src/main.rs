//! `reversi-signaling`: the signaling server as a stand-alone program.

use std::net::SocketAddr;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, ValueEnum};
use reversi_signaling::ice::IceConfig;
use reversi_signaling::mailbox::MailboxConfig;
use reversi_signaling::{Config, TlsFiles, TlsReloader, start};

use tracing::{error, info};

/// The system allocator, counting bytes in use so `/health` can show that
/// memory returns to its baseline when rooms close.
#[global_allocator]
static ALLOCATOR: cap::Cap<std::alloc::System> = cap::Cap::new(std::alloc::System, usize::MAX);

fn heap_bytes() -> usize {
    ALLOCATOR.allocated()
}

/// Log output format.
#[derive(Debug, Clone, Copy, ValueEnum)]
enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object per line.
    Json,
}

/// A signaling server for peer-to-peer Reversi: two players per room.
#[derive(Debug, Parser)]
#[command(name = "reversi-signaling", version, about)]
struct Args {
    /// Address and port to listen on.
    #[arg(long, default_value = "0.0.0.0:3536")]
    bind: SocketAddr,
    /// Most connections at once.
    #[arg(long, default_value_t = Config::default().max_connections)]
    max_connections: usize,
    /// Most connections from one IP address.
    #[arg(long, default_value_t = Config::default().max_per_ip)]
    max_per_ip: usize,
    /// Close connections silent this long (e.g. 60s, 5m).
    #[arg(long, default_value = "60s", value_parser = humantime::parse_duration)]
    idle_timeout: Duration,
    /// A member of a full room silent this long gives its place to a newcomer.
    #[arg(long, default_value = "8s", value_parser = humantime::parse_duration)]
    stale_after: Duration,
    /// Largest signaling message, in bytes.
    #[arg(long, default_value_t = Config::default().max_message_bytes)]
    max_message_bytes: usize,
    /// A STUN server URL handed to clients at /ice (repeatable), e.g. stun:turn.example.org:3478.
    #[arg(long = "stun", value_name = "URL")]
    stun: Vec<String>,
    /// A TURN server URL handed to clients at /ice (repeatable), e.g.
    /// turn:turn.example.org:3478?transport=udp; needs --turn-secret.
    #[arg(long = "turn", value_name = "URL")]
    turn: Vec<String>,
    /// The TURN server's static-auth-secret (coturn's use-auth-secret), to
    /// make short-lived credentials with. Or set REVERSI_TURN_SECRET.
    #[arg(long, env = "REVERSI_TURN_SECRET", hide_env_values = true)]
    turn_secret: Option<String>,
    /// How long a TURN credential is valid (e.g. 1d, 12h).
    #[arg(long, default_value = "1d", value_parser = humantime::parse_duration)]
    turn_ttl: Duration,
    /// Serve https:// and wss:// with this PEM certificate chain (with --tls-key);
    /// SIGHUP reloads both files.
    #[arg(long, value_name = "PEM", requires = "tls_key")]
    tls_cert: Option<std::path::PathBuf>,
    /// The PEM private key for --tls-cert.
    #[arg(long, value_name = "PEM", requires = "tls_cert")]
    tls_key: Option<std::path::PathBuf>,
    /// Serve the browser client from this directory (the output of
    /// `web/build.sh`) at /play/; an invite is then http(s)://HOST/play/#CODE.
    #[arg(long, value_name = "DIR")]
    web_dir: Option<std::path::PathBuf>,
    /// The mailbox's database: a SQLite file, `:memory:`, or a
    /// postgres:// URL (several servers may share one PostgreSQL database).
    #[arg(
        long,
        env = "REVERSI_MAILBOX_DB",
        default_value = "reversi-mailbox.sqlite3",
        hide_env_values = true
    )]
    db: String,
    /// Run without the mailbox (no records are kept).
    #[arg(long, conflicts_with = "db")]
    no_mailbox: bool,
    /// Most games the mailbox keeps.
    #[arg(long, default_value_t = MailboxConfig::default().max_games)]
    mailbox_max_games: u64,
    /// Most unfinished games one host key may keep in the mailbox.
    #[arg(long, default_value_t = MailboxConfig::default().max_games_per_key)]
    mailbox_max_per_key: u64,
    /// How long the mailbox keeps a game after it ends or after its
    /// deadline passed unanswered (e.g. 30d).
    #[arg(long, default_value = "30d", value_parser = humantime::parse_duration)]
    mailbox_keep: Duration,
    /// Mailbox requests one address may make per second (bursts of ten times as many).
    #[arg(long, default_value_t = 100)]
    mailbox_rate: u32,
    /// Run without the opt-in leaderboard (`/games`, `/leaderboard`), which
    /// otherwise lives in the mailbox's database.
    #[arg(long)]
    no_leaderboard: bool,
    /// A proxy in front of this server (repeatable, an IP address, e.g.
    /// 127.0.0.1): for connections from it, the client's address (for the
    /// per-address limits) is the one it appends to X-Forwarded-For.
    #[arg(long = "trusted-proxy", value_name = "IP")]
    trusted_proxies: Vec<std::net::IpAddr>,
    /// Log format.
    #[arg(long, value_enum, default_value_t = LogFormat::Text)]
    log_format: LogFormat,
}

async fn terminated() {
    let interrupt = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = interrupt => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                let _ = interrupt.await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = interrupt.await;
    }
}

/// Reloads the certificate on every SIGHUP (after a renewal), keeping the
/// old one if the new files are unusable.
async fn reload_on_hangup(reloader: TlsReloader) {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let Ok(mut hangups) = signal(SignalKind::hangup()) else {
            error!("cannot listen for SIGHUP: the certificate will not be reloaded");
            return;
        };
        while hangups.recv().await.is_some() {
            match reloader.reload().await {
                Ok(()) => info!("TLS certificate reloaded"),
                Err(e) => error!("{e}; still serving the previous certificate"),
            }
        }
    }
    #[cfg(not(unix))]
    let _ = reloader;
}

fn main() -> ExitCode {
    let args = Args::parse();
    let filter = tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| {
        tracing_subscriber::EnvFilter::new(reversi_signaling::DEFAULT_LOG_FILTER)
    });
    let subscriber = tracing_subscriber::fmt().with_env_filter(filter);
    match args.log_format {
        LogFormat::Text => subscriber.init(),
        LogFormat::Json => subscriber.json().init(),
    }
    let mut config = Config {
        max_connections: args.max_connections,
        max_per_ip: args.max_per_ip,
        idle_timeout: args.idle_timeout,
        max_message_bytes: args.max_message_bytes,
        stale_after: args.stale_after,
        heap_bytes: Some(heap_bytes),
        ice: IceConfig {
            stun: args.stun,
            turn: args.turn,
            turn_secret: args.turn_secret,
            turn_ttl: args.turn_ttl,
        },
        tls: match (args.tls_cert, args.tls_key) {
            (Some(cert), Some(key)) => Some(TlsFiles { cert, key }),
            _ => None,
        },
        mailbox: (!args.no_mailbox).then(|| MailboxConfig {
            db: args.db,
            max_games: args.mailbox_max_games,
            max_games_per_key: args.mailbox_max_per_key,
            keep: args.mailbox_keep,
            rate: reversi_signaling::rate_limit::Rate {
                burst: args.mailbox_rate.max(1).saturating_mul(10),
                refill: Duration::from_secs(1) / args.mailbox_rate.max(1),
            },
        }),
        leaderboard: !args.no_leaderboard,
        trusted_proxies: args.trusted_proxies,
        ..Config::default()
    };
    if let Some(dir) = &args.web_dir {
        match reversi_signaling::web_assets::WebAssets::load(dir) {
            Ok(web) => {
                // What a careful player compares with a build of the source
                // (`reversi verify-page URL` does it file by file).
                eprintln!(
                    "serving the browser client from {}: bundle sha256 {}",
                    dir.display(),
                    web.bundle_sha256()
                );
                config.web = Some(web);
            }
            Err(e) => {
                eprintln!("error: --web-dir: {e}");
                return ExitCode::from(2);
            }
        }
    }
    if let Err(e) = config.ice.validate() {
        eprintln!("error: {e}");
        return ExitCode::from(2);
    }
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("error: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    runtime.block_on(async {
        let server = match start(args.bind, config).await {
            Ok(server) => server,
            Err(e) => {
                error!("{e}");
                return ExitCode::FAILURE;
            }
        };
        let handle = server.shutdown_handle();
        if let Some(reloader) = server.tls_reloader() {
            tokio::spawn(reload_on_hangup(reloader));
        }
        terminated().await;
        info!("shutting down");
        handle.shutdown();
        server.stopped().await;
        info!("stopped");
        ExitCode::SUCCESS
    })
}
