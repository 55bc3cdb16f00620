//! `reversi verify-page URL`: is the page a server serves the page this
//! source builds? It fetches every file of the served bundle and compares
//! each with a local build's (a `web/dist` made by `web/build.sh`, or the
//! bundle built into this program), then the bundle's name, the SHA-256
//! of its checksum list, which the page shows in its footer and
//! `reversi-signaling` prints at start.

use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::Args;
use reversi_signaling::web_assets::{CHECKSUMS, MAX_FILE_BYTES, WebAssets};
use sha2::{Digest as _, Sha256};

use super::CliError;
use super::network_commands::runtime;
use crate::net::http_client::http_get_bytes;
use crate::net::server_url::ServerUrl;

/// How long one file may take to arrive.
const FETCH_TIMEOUT: Duration = Duration::from_secs(60);

/// Arguments of `reversi verify-page`.
#[derive(Debug, Args)]
pub struct VerifyPageArgs {
    /// The page as players open it: `https://SERVER/play/` (an invite
    /// link works too; its fragment never leaves this program).
    pub url: String,
    /// The local build to compare with: the `web/dist` that `web/build.sh`
    /// made from this source (default: the bundle built into this program).
    #[arg(long, value_name = "DIR")]
    pub dist: Option<PathBuf>,
}

/// The local build: `--dist DIR` (loaded, and bounded, as the server
/// loads a bundle), or the bundle built into this program.
fn local_bundle(dist: Option<&Path>) -> Result<WebAssets, CliError> {
    match dist {
        Some(dir) => Ok(WebAssets::load(dir)?),
        None => crate::net::embedded_server::built_in_bundle().ok_or(CliError::NoBundle),
    }
}

/// The server and the page's folder (`/play/` when the URL names none).
fn page_of(url: &str) -> Result<(ServerUrl, String), CliError> {
    let url = url.trim();
    let server = ServerUrl::parse(url)?;
    let without_fragment = url.split(['#', '?']).next().unwrap_or_default();
    let after_scheme = without_fragment
        .split_once("://")
        .map_or(without_fragment, |(_, rest)| rest);
    let path = after_scheme
        .find('/')
        .map_or("/", |slash| &after_scheme[slash..]);
    let folder = match path {
        "" | "/" => "/play/".to_string(),
        path if path.ends_with('/') => path.to_string(),
        // A file of the page (`/play/index.html`): its folder.
        path => format!("{}/", path.rsplit_once('/').map_or("", |(dir, _)| dir)),
    };
    Ok((server, folder))
}

fn sha256_hex(bytes: &[u8]) -> String {
    data_encoding::HEXLOWER.encode(&Sha256::digest(bytes))
}

/// Runs `reversi verify-page`: `Ok` with the bundle's name when every
/// served file is the local build's, the per-file report otherwise.
pub fn run(args: &VerifyPageArgs) -> Result<String, CliError> {
    let bundle = local_bundle(args.dist.as_deref())?;
    let (server, folder) = page_of(&args.url)?;
    let runtime = runtime()?;
    let fetch = |name: &str| {
        runtime.block_on(http_get_bytes(
            &server,
            &format!("{folder}{name}"),
            MAX_FILE_BYTES as usize,
            FETCH_TIMEOUT,
        ))
    };
    let mut report = String::new();
    let mut differs = 0;
    for (name, bytes) in bundle.files() {
        let built = sha256_hex(bytes);
        let line = match fetch(name) {
            Ok((200, served)) if sha256_hex(&served) == built => {
                format!("{name:<16} same      sha256 {built}")
            }
            Ok((200, served)) => {
                differs += 1;
                format!(
                    "{name:<16} DIFFERS   served sha256 {}, this build's {built}",
                    sha256_hex(&served)
                )
            }
            Ok((status, _)) => {
                differs += 1;
                format!("{name:<16} MISSING   the server answered {status}")
            }
            Err(source) => {
                return Err(CliError::PageFetch {
                    name: name.to_string(),
                    source,
                });
            }
        };
        report.push_str(&line);
        report.push('\n');
    }
    let ours = bundle.bundle_sha256();
    match fetch(CHECKSUMS) {
        Ok((200, served)) if sha256_hex(&served) == ours => {}
        Ok((200, served)) => {
            differs += 1;
            report.push_str(&format!(
                "{CHECKSUMS:<16} DIFFERS   the page names itself bundle sha256 {}\n",
                sha256_hex(&served)
            ));
        }
        Ok((status, _)) => {
            differs += 1;
            report.push_str(&format!(
                "{CHECKSUMS:<16} MISSING   the server answered {status}\n"
            ));
        }
        Err(source) => {
            return Err(CliError::PageFetch {
                name: CHECKSUMS.to_string(),
                source,
            });
        }
    }
    let page = format!("{server}{folder}")
        .replacen("wss://", "https://", 1)
        .replacen("ws://", "http://", 1);
    if differs == 0 {
        Ok(format!(
            "{report}the page at {page} is this build: bundle sha256 {ours}\n"
        ))
    } else {
        Err(CliError::PageDiffers {
            report: format!(
                "{report}the page at {page} is NOT this build ({differs} file(s) differ; this build is bundle sha256 {ours}): do not enter anything into it"
            ),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_folder_comes_from_the_url_and_the_fragment_stays_here() {
        let (server, folder) = page_of("https://play.example.org/play/#K7QF-SECRET").unwrap();
        assert_eq!(server.to_string(), "wss://play.example.org");
        assert_eq!(folder, "/play/");
        assert_eq!(page_of("http://10.0.0.5:3536").unwrap().1, "/play/");
        assert_eq!(
            page_of("http://10.0.0.5:3536/games/play/index.html")
                .unwrap()
                .1,
            "/games/play/"
        );
        assert!(page_of("ftp://nowhere").is_err());
    }

    #[test]
    fn a_folder_without_a_page_is_refused_clearly() {
        let dir = std::env::temp_dir().join(format!("verify-page-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("reversi.js"), b"x").unwrap();
        let why = local_bundle(Some(&dir)).unwrap_err().to_string();
        assert!(why.contains("has no index.html"), "{why}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
