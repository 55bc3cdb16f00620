//! The log file: append-only, one record per line. Each line is a JSON
//! object with the canonical record bytes (`record`, base64) and a readable
//! `view` of the same fields for people and `jq`. The bytes are the truth;
//! a reader checks that the view agrees with them.
//!
//! Every append is written and flushed to disk (fsync) before it returns,
//! so a record is durable before it is sent to the peer. A crash mid-write
//! leaves a last line without its newline: a torn tail, reported as such,
//! with the records before it intact.

use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, UNIX_EPOCH};

use data_encoding::BASE64;
use serde::Deserialize;
use serde_json::{Value, json};

use super::identity::PublicKey;
use super::record::{Body, DecodeError, MAX_LOG_RECORDS, MAX_RECORD_BYTES, Record, hex};
use super::rules_proposal::RulesProposal;
use crate::engine::Square;

/// The longest line a reader accepts (a maximal record in base64 plus its view).
pub const MAX_LINE_BYTES: usize = 4 * MAX_RECORD_BYTES;

/// The largest log file a reader accepts.
pub const MAX_FILE_BYTES: usize = MAX_LOG_RECORDS * MAX_LINE_BYTES;

/// What is wrong with one line of a log file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LineProblem {
    /// Longer than [`MAX_LINE_BYTES`].
    #[error("line is longer than {max} bytes")]
    TooLong {
        /// The most this decoder accepts.
        max: usize,
    },
    /// Not a JSON object with exactly `record` and `view`.
    #[error("not a log line: {0}")]
    Json(String),
    /// `record` is not canonical base64.
    #[error("record bytes are not valid base64")]
    Base64,
    /// The bytes are not a well-formed record.
    #[error("{0}")]
    Decode(#[from] DecodeError),
    /// The readable view says something the signed bytes do not.
    #[error("the readable view does not match the signed bytes (expected {expected})")]
    ViewMismatch {
        /// The view the bytes give.
        expected: String,
    },
}

/// Why a log file cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum LogFileError {
    /// The file system failed.
    #[error("{path}: {source}")]
    Io {
        /// The file, as named on the command line.
        path: PathBuf,
        /// What failed.
        source: std::io::Error,
    },
    /// The file is larger than any log.
    #[error("the file is {found} bytes, more than the {max} a log can take")]
    TooLarge {
        /// The size found (at least).
        found: usize,
        /// The most this decoder accepts.
        max: usize,
    },
    /// More lines than a log may hold.
    #[error("record {record}: more than {max} records", max = MAX_LOG_RECORDS)]
    TooManyRecords {
        /// The first record over the limit.
        record: usize,
    },
    /// A line is bad.
    #[error("record {record}: {problem}")]
    Line {
        /// The record (line) number, from 0.
        record: usize,
        /// What is wrong.
        problem: LineProblem,
    },
}

/// A last line cut off mid-write (no trailing newline).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TornTail {
    /// The number the record would have had.
    pub record: usize,
    /// Bytes of the incomplete line.
    pub bytes: usize,
}

/// The records read from a file, and a torn tail if there was one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadedLog {
    /// The complete records, in order.
    pub records: Vec<Record>,
    /// An incomplete last line, if any.
    pub torn_tail: Option<TornTail>,
    /// Byte length of the complete lines (where a repair would cut).
    pub intact_bytes: usize,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LogLine {
    record: String,
    view: Value,
}

/// A timestamp as RFC 3339 UTC with milliseconds, or the raw number when it
/// is beyond what that format can show.
pub fn format_timestamp(ms: u64) -> String {
    // RFC 3339 stops at the end of year 9999.
    const LAST_MS: u64 = 253_402_300_799_999;
    if ms > LAST_MS {
        return format!("{ms} ms after 1970 (beyond year 9999)");
    }
    humantime::format_rfc3339_millis(UNIX_EPOCH + Duration::from_millis(ms)).to_string()
}

fn key_view(key: &[u8; 32]) -> Value {
    json!({
        "key": hex(key),
        "fingerprint": PublicKey::from_bytes(key).map(|k| k.fingerprint().to_string()),
    })
}

/// A player as the records name them: key, fingerprint and name.
fn player_view(player: &super::record::PlayerInfo) -> Value {
    let mut view = key_view(&player.key);
    view["name"] = json!(player.name);
    view
}

/// The readable view of the proposed rules.
fn rules_view(rules: &super::record::WireRules) -> Value {
    match RulesProposal::from_wire(rules) {
        Ok(p) => {
            let o = p.rules.options();
            let draw = match p.draw {
                super::rules_proposal::DrawAgreement::Fixed(rule) => rule.to_string(),
                super::rules_proposal::DrawAgreement::ByLot => "chosen by lot".to_string(),
                // What files from before the choice records say.
                super::rules_proposal::DrawAgreement::SeedPicks => "lot".to_string(),
            };
            json!({
                "opening": o.opening.to_string(),
                "discs": o.discs.to_string(),
                "scoring": o.scoring.to_string(),
                "draw": draw,
                "topology": o.topology.to_string(),
                "start": p.rules.start().to_string(),
            })
        }
        Err(_) => json!({ "invalid": format!("{rules:?}") }),
    }
}

/// A colour number as read: its name, or the number when it has none.
fn color_view(color: u8) -> Value {
    match color {
        0 => json!("black"),
        1 => json!("white"),
        n => json!(n),
    }
}

/// The readable view of a record: every field of the signed bytes.
pub fn record_view(record: &Record) -> Value {
    let content = record.content();
    let body = match &content.body {
        Body::Genesis(g) => {
            let host = player_view(&g.host);
            let guest = player_view(&g.guest);
            json!({
                "kind": "genesis",
                "rules": rules_view(&g.rules),
                "deadline_secs": g.deadline_secs,
                "host": host,
                "guest": guest,
                "host_commitment": hex(&g.host_commitment),
            })
        }
        Body::RematchGenesis(r) => {
            let g = &r.genesis;
            json!({
                "kind": "rematch_genesis",
                "previous": hex(&r.previous),
                "rules": rules_view(&g.rules),
                "deadline_secs": g.deadline_secs,
                "host": player_view(&g.host),
                "guest": player_view(&g.guest),
                "host_commitment": hex(&g.host_commitment),
            })
        }
        Body::OpenGenesis(g) => {
            let host = player_view(&g.host);
            json!({
                "kind": "open_genesis",
                "rules": rules_view(&g.rules),
                "deadline_secs": g.deadline_secs,
                "host": host,
                "host_commitment": hex(&g.host_commitment),
                "invite": hex(&g.invite),
            })
        }
        Body::OpenAccept(a) => {
            let guest = player_view(&a.guest);
            // Version 1 showed the room name here, under its own name.
            let invite = if content.version == 1 {
                "invite_secret"
            } else {
                "invite_proof"
            };
            json!({
                "kind": "open_accept",
                "guest": guest,
                "guest_commitment": hex(&a.guest_commitment),
                invite: hex(&a.invite_proof),
            })
        }
        Body::Accept(a) => {
            json!({ "kind": "accept", "guest_commitment": hex(&a.guest_commitment) })
        }
        Body::Reveal(r) => json!({ "kind": "reveal", "nonce": hex(&r.nonce) }),
        Body::Move(m) => json!({
            "kind": "move",
            "square": Square::new(m.square).map_or(json!(m.square), |s| json!(s.to_string())),
            "position_hash": hex(&m.position_hash),
        }),
        Body::TieWinner(c) => json!({ "kind": "tie_winner", "color": color_view(c.color) }),
        Body::SeatColor(c) => json!({ "kind": "seat_color", "color": color_view(c.color) }),
        Body::Resign => json!({ "kind": "resign" }),
        Body::TimeoutClaim(t) => json!({ "kind": "timeout_claim", "move_number": t.move_number }),
    };
    json!({
        "version": content.version,
        "game_id": hex(&content.game_id),
        "seq": content.seq,
        "prev": hex(&content.prev),
        "author": content.author.name(),
        "timestamp_ms": content.timestamp_ms,
        "time": format_timestamp(content.timestamp_ms),
        "body": body,
        "signature": hex(record.signature()),
        "hash": hex(&record.hash()),
    })
}

/// One line of the file for a record, with its newline.
pub fn record_line(record: &Record) -> String {
    let line = json!({ "record": BASE64.encode(&record.to_bytes()), "view": record_view(record) });
    format!("{line}\n")
}

fn parse_line(line: &[u8], number: usize) -> Result<Record, LogFileError> {
    let problem = |problem| LogFileError::Line {
        record: number,
        problem,
    };
    if line.len() > MAX_LINE_BYTES {
        return Err(problem(LineProblem::TooLong {
            max: MAX_LINE_BYTES,
        }));
    }
    let parsed: LogLine =
        serde_json::from_slice(line).map_err(|e| problem(LineProblem::Json(e.to_string())))?;
    let bytes = BASE64
        .decode(parsed.record.as_bytes())
        .map_err(|_| problem(LineProblem::Base64))?;
    let record = Record::decode(&bytes).map_err(|e| problem(LineProblem::Decode(e)))?;
    let expected = record_view(&record);
    if parsed.view != expected {
        return Err(problem(LineProblem::ViewMismatch {
            expected: expected.to_string(),
        }));
    }
    Ok(record)
}

/// Parses the contents of a log file.
pub fn parse_log(bytes: &[u8]) -> Result<LoadedLog, LogFileError> {
    if bytes.len() > MAX_FILE_BYTES {
        return Err(LogFileError::TooLarge {
            found: bytes.len(),
            max: MAX_FILE_BYTES,
        });
    }
    let mut records = Vec::new();
    let mut rest = bytes;
    let mut intact_bytes = 0;
    while !rest.is_empty() {
        let number = records.len();
        let Some(end) = rest.iter().position(|&b| b == b'\n') else {
            return Ok(LoadedLog {
                records,
                torn_tail: Some(TornTail {
                    record: number,
                    bytes: rest.len(),
                }),
                intact_bytes,
            });
        };
        if number >= MAX_LOG_RECORDS {
            return Err(LogFileError::TooManyRecords { record: number });
        }
        records.push(parse_line(&rest[..end], number)?);
        intact_bytes += end + 1;
        rest = &rest[end + 1..];
    }
    Ok(LoadedLog {
        records,
        torn_tail: None,
        intact_bytes,
    })
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> LogFileError + '_ {
    move |source| LogFileError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Reads a file's bytes, no more than [`MAX_FILE_BYTES`] + 1 of them (so an
/// oversized file is noticed without reading it all).
pub fn read_bounded(path: &Path) -> Result<Vec<u8>, LogFileError> {
    let file = File::open(path).map_err(io_error(path))?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(io_error(path))?;
    Ok(bytes)
}

/// Reads and parses a log file.
pub fn read_log(path: &Path) -> Result<LoadedLog, LogFileError> {
    parse_log(&read_bounded(path)?)
}

/// Appends records to a log file, each one durable before `append` returns.
#[derive(Debug)]
pub struct LogWriter {
    file: File,
    path: PathBuf,
}

impl LogWriter {
    /// Creates a new log file (failing if it exists) and makes its directory
    /// entry durable.
    pub fn create(path: &Path) -> Result<LogWriter, LogFileError> {
        let file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)
            .map_err(io_error(path))?;
        sync_parent_dir(path)?;
        Ok(LogWriter {
            file,
            path: path.to_path_buf(),
        })
    }

    /// Opens an existing log for appending, first cutting off a torn tail.
    pub fn open_append(path: &Path, loaded: &LoadedLog) -> Result<LogWriter, LogFileError> {
        let file = OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(io_error(path))?;
        file.set_len(loaded.intact_bytes as u64)
            .map_err(io_error(path))?;
        file.sync_all().map_err(io_error(path))?;
        let mut writer = LogWriter {
            file,
            path: path.to_path_buf(),
        };
        use std::io::Seek;
        writer
            .file
            .seek(std::io::SeekFrom::End(0))
            .map_err(io_error(&writer.path))?;
        Ok(writer)
    }

    /// Writes one record line and flushes it to disk.
    pub fn append(&mut self, record: &Record) -> Result<(), LogFileError> {
        self.file
            .write_all(record_line(record).as_bytes())
            .map_err(io_error(&self.path))?;
        self.file.sync_data().map_err(io_error(&self.path))
    }
}

fn sync_parent_dir(path: &Path) -> Result<(), LogFileError> {
    let parent = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    // Directories can be opened and fsynced on Unix; elsewhere this is best effort.
    if let Ok(dir) = File::open(parent) {
        let _ = dir.sync_all();
    }
    Ok(())
}

/// Writes a complete log to a new file.
pub fn write_log(path: &Path, records: &[Record]) -> Result<(), LogFileError> {
    let mut writer = LogWriter::create(path)?;
    records.iter().try_for_each(|r| writer.append(r))
}
