//! The browser client's files, served at `/play/` (`--web-dir DIR`): the
//! page, its script and its wasm, loaded once at start.
//!
//! An invite is `http(s)://HOST/play/#CODE`: the code stays in the URL's
//! fragment, which browsers never send, so it reaches no server log. Every
//! answer carries `Cache-Control: no-cache` and an `ETag` (SHA-256 of the
//! bytes): a browser keeps its copy but asks each time whether it is still
//! current, so an old client never meets a newer host. `/play` redirects
//! to `/play/`, where the page's relative addresses resolve.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use axum::Router;
use axum::extract::Path as UrlPath;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use sha2::{Digest, Sha256};

/// The most files a bundle may have.
pub const MAX_FILES: usize = 64;
/// The largest file of a bundle (a release wasm is a few MiB).
pub const MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// Why a bundle could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum WebAssetsError {
    /// The directory or a file in it could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// What could not be read.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// No `index.html`.
    #[error("{dir} has no index.html: is it the output of web/build.sh?")]
    NoIndex {
        /// The bundle's directory, as named on the command line.
        dir: PathBuf,
    },
    /// More files than a bundle has.
    #[error("{dir} holds more than {MAX_FILES} files: is it the bundle's directory?")]
    TooManyFiles {
        /// The bundle's directory, as named on the command line.
        dir: PathBuf,
    },
    /// A file larger than a bundle's.
    #[error("{path} is {bytes} bytes, more than the {MAX_FILE_BYTES} a bundle's file may have")]
    TooLarge {
        /// The file, as named on the command line.
        path: PathBuf,
        /// Its size in bytes.
        bytes: u64,
    },
}

/// The file of a bundle that lists the others' SHA-256.
pub const CHECKSUMS: &str = "SHA256SUMS";

/// The checksum list of a bundle's files, as `web/build.sh` writes
/// [`CHECKSUMS`] (and `sha256sum` prints it): `HEX  NAME` a line, by name.
pub fn checksums<'a>(files: impl IntoIterator<Item = (&'a str, &'a [u8])>) -> String {
    let mut lines: Vec<(&str, String)> = files
        .into_iter()
        .map(|(name, bytes)| (name, data_encoding::HEXLOWER.encode(&Sha256::digest(bytes))))
        .collect();
    lines.sort();
    lines
        .into_iter()
        .map(|(name, hex)| format!("{hex}  {name}\n"))
        .collect()
}

/// A bundle's name: SHA-256 of its checksum list, which `web/build.sh`
/// prints, `reversi-signaling` prints at start, the page shows in its
/// footer and `reversi verify-page` compares.
pub fn bundle_sha256(checksums: &str) -> String {
    data_encoding::HEXLOWER.encode(&Sha256::digest(checksums.as_bytes()))
}

/// One file: its bytes, type and entity tag.
#[derive(Debug)]
struct Asset {
    bytes: axum::body::Bytes,
    content_type: &'static str,
    etag: HeaderValue,
}

/// The loaded bundle, by file name.
#[derive(Debug, Clone)]
pub struct WebAssets {
    files: Arc<BTreeMap<String, Asset>>,
}

/// The content type of a file, by its extension.
fn content_type(name: &str) -> &'static str {
    match name.rsplit_once('.').map(|(_, ext)| ext) {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        // Without it, WebAssembly.instantiateStreaming refuses the file.
        Some("wasm") => "application/wasm",
        Some("json") => "application/json",
        Some("css") => "text/css; charset=utf-8",
        Some("png") => "image/png",
        Some("svg") => "image/svg+xml",
        Some("ico") => "image/x-icon",
        Some("txt") => "text/plain; charset=utf-8",
        Some("otf") => "font/otf",
        _ => "application/octet-stream",
    }
}

impl WebAssets {
    /// The files directly in `dir` (not its subdirectories), which must
    /// hold an `index.html`.
    pub fn load(dir: &Path) -> Result<WebAssets, WebAssetsError> {
        let read = |path: &Path, source| WebAssetsError::Read {
            path: path.to_path_buf(),
            source,
        };
        let mut files = Vec::new();
        for entry in std::fs::read_dir(dir).map_err(|e| read(dir, e))? {
            let entry = entry.map_err(|e| read(dir, e))?;
            let path = entry.path();
            let meta = entry.metadata().map_err(|e| read(&path, e))?;
            if !meta.is_file() {
                continue;
            }
            if files.len() == MAX_FILES {
                return Err(WebAssetsError::TooManyFiles {
                    dir: dir.to_path_buf(),
                });
            }
            if meta.len() > MAX_FILE_BYTES {
                return Err(WebAssetsError::TooLarge {
                    path,
                    bytes: meta.len(),
                });
            }
            // Names that are not UTF-8 cannot be asked for by URL.
            let Some(name) = entry.file_name().to_str().map(str::to_string) else {
                continue;
            };
            let bytes = std::fs::read(&path).map_err(|e| read(&path, e))?;
            files.push((name, bytes));
        }
        WebAssets::from_files(files).ok_or_else(|| WebAssetsError::NoIndex {
            dir: dir.to_path_buf(),
        })
    }

    /// A bundle from named files (a program that embeds its bundle);
    /// `None` without an `index.html`.
    pub fn from_files(files: impl IntoIterator<Item = (String, Vec<u8>)>) -> Option<WebAssets> {
        let files: BTreeMap<String, Asset> = files
            .into_iter()
            .map(|(name, bytes)| {
                let digest = data_encoding::HEXLOWER.encode(&Sha256::digest(&bytes));
                let etag = HeaderValue::from_str(&format!("\"{digest}\""))
                    .expect("hex digits are a valid header value");
                let asset = Asset {
                    content_type: content_type(&name),
                    bytes: bytes.into(),
                    etag,
                };
                (name, asset)
            })
            .collect();
        files.contains_key("index.html").then(|| WebAssets {
            files: Arc::new(files),
        })
    }

    /// The bundle's name (see [`bundle_sha256`]), from the files served
    /// other than their checksum list.
    pub fn bundle_sha256(&self) -> String {
        bundle_sha256(&checksums(self.files()))
    }

    /// The bundle's files and their bytes, by name, without their
    /// checksum list.
    pub fn files(&self) -> impl Iterator<Item = (&str, &[u8])> {
        self.files
            .iter()
            .filter(|(name, _)| name.as_str() != CHECKSUMS)
            .map(|(name, asset)| (name.as_str(), &asset.bytes[..]))
    }

    /// The names of the files served.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.files.keys().map(String::as_str)
    }

    /// `GET /play` (a redirect), `/play/` (the page) and `/play/FILE`.
    pub fn routes<S: Clone + Send + Sync + 'static>(&self) -> Router<S> {
        let page = self.clone();
        let file = self.clone();
        Router::new()
            .route(
                "/play",
                get(|| async {
                    (
                        StatusCode::PERMANENT_REDIRECT,
                        [(header::LOCATION, "/play/")],
                    )
                }),
            )
            .route(
                "/play/",
                get(move |headers: HeaderMap| async move { page.answer("index.html", &headers) }),
            )
            .route(
                "/play/{file}",
                get(
                    move |UrlPath(name): UrlPath<String>, headers: HeaderMap| async move {
                        file.answer(&name, &headers)
                    },
                ),
            )
    }

    /// The file `name`, or `304` when the browser's copy is current.
    fn answer(&self, name: &str, headers: &HeaderMap) -> Response {
        let Some(asset) = self.files.get(name) else {
            return (
                StatusCode::NOT_FOUND,
                [(header::CACHE_CONTROL, "no-cache")],
                "no such file in the web client\n",
            )
                .into_response();
        };
        let current = headers
            .get(header::IF_NONE_MATCH)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|tags| {
                tags.split(',')
                    .any(|t| t.trim() == "*" || t.trim().as_bytes() == asset.etag.as_bytes())
            });
        let common = [
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
            (header::ETAG, asset.etag.clone()),
        ];
        if current {
            return (StatusCode::NOT_MODIFIED, common).into_response();
        }
        (
            StatusCode::OK,
            common,
            [(
                header::CONTENT_TYPE,
                HeaderValue::from_static(asset.content_type),
            )],
            asset.bytes.clone(),
        )
            .into_response()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bundle_needs_its_page_and_types_follow_the_extension() {
        assert!(WebAssets::from_files([("reversi.js".to_string(), vec![1])]).is_none());
        let assets = WebAssets::from_files([
            ("index.html".to_string(), b"<html>".to_vec()),
            ("reversi_bg.wasm".to_string(), vec![0, 97, 115, 109]),
        ])
        .expect("has a page");
        assert_eq!(
            assets.names().collect::<Vec<_>>(),
            ["index.html", "reversi_bg.wasm"]
        );
        assert_eq!(content_type("reversi_bg.wasm"), "application/wasm");
        assert_eq!(content_type("reversi.js"), "text/javascript; charset=utf-8");
        assert_eq!(content_type("README"), "application/octet-stream");
        assert_eq!(content_type("NotoSansJP-subset.otf"), "font/otf");
    }

    #[test]
    fn a_directory_without_a_page_is_named_in_the_error() {
        let dir = std::env::temp_dir().join(format!("reversi-web-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("reversi.js"), "x").unwrap();
        let error = WebAssets::load(&dir).unwrap_err();
        assert!(matches!(error, WebAssetsError::NoIndex { .. }), "{error}");
        std::fs::write(dir.join("index.html"), "<html>").unwrap();
        assert!(WebAssets::load(&dir).is_ok());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
