//! The data directory: the key file, the games' logs and the register of
//! what the key signed in each game (see [`register`]).
//!
//! Where: `--data-dir DIR` if given, else `$REVERSI_HOME`, else the
//! platform's data directory (for example `~/.local/share/reversi` on Linux).

use std::fs::{self, File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use crate::match_log::log_file::{LogFileError, LogWriter};
use crate::match_log::{Identity, PublicKey, Record};
use crate::net::native_game::{GameFiles, GameFolderError};
use crate::net::signing_register::SharedRegister;

pub mod register;

/// The environment variable that overrides the data directory.
pub const HOME_VARIABLE: &str = "REVERSI_HOME";

/// The key file's name inside the data directory.
pub const KEY_FILE: &str = "identity.key";

/// Why the data directory or the key file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum DataDirError {
    /// No flag, no variable, and the platform has no data directory.
    #[error("no data directory: pass --data-dir DIR or set {HOME_VARIABLE}")]
    NoDirectory,
    /// The file system failed.
    #[error("{path}: {source}")]
    Io {
        /// The file or folder that failed.
        path: PathBuf,
        /// What failed.
        source: std::io::Error,
    },
    /// The key file does not hold a key.
    #[error("{path}: expected 64 hex digits (a 32-byte secret key); the file was left untouched")]
    BadKeyFile {
        /// The key file's path (`identity.key` in the data directory).
        path: PathBuf,
    },
    /// The OS random generator failed.
    #[error("cannot get random bytes for a new key: {0}")]
    Random(getrandom::Error),
    /// Others than its owner can read the key file: the key is not used.
    #[error(
        "{path} can be read by other users (mode {mode:03o}), so the key may be known to them and is not used; if that is a mistake, make it yours alone (chmod 600 {path}); if others may have read it, make a new identity"
    )]
    KeyExposed {
        /// The key file's path (`identity.key` in the data directory).
        path: PathBuf,
        /// Its Unix permission bits (`mode & 0o777`).
        mode: u32,
    },
    /// A different key is here already.
    #[error(
        "this data directory already holds another key ({found}); replace it to use {imported} (--replace on the command line; the old key is put aside, not deleted)"
    )]
    OtherIdentity {
        /// The key already here.
        found: String,
        /// The key being imported.
        imported: String,
    },
}

/// What importing an identity did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Adopted {
    /// The key is now this data directory's.
    New(String),
    /// It was already.
    Same(String),
    /// It replaced another, kept at the path given.
    Replaced {
        /// The imported key's fingerprint.
        fingerprint: String,
        /// Where the previous key file went.
        previous: PathBuf,
    },
}

impl std::fmt::Display for Adopted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Adopted::New(fingerprint) => {
                write!(f, "this data directory now plays as {fingerprint}")
            }
            Adopted::Same(fingerprint) => {
                write!(f, "this data directory already plays as {fingerprint}")
            }
            Adopted::Replaced {
                fingerprint,
                previous,
            } => write!(
                f,
                "this data directory now plays as {fingerprint}; the previous key is kept in {}",
                previous.display()
            ),
        }
    }
}

/// The resolved data directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataDir {
    path: PathBuf,
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> DataDirError + '_ {
    move |source| DataDirError::Io {
        path: path.to_path_buf(),
        source,
    }
}

impl DataDir {
    /// The flag's directory, else `$REVERSI_HOME`, else the platform default.
    pub fn resolve(flag: Option<&Path>) -> Result<DataDir, DataDirError> {
        let path = match flag {
            Some(path) => path.to_path_buf(),
            None => match std::env::var_os(HOME_VARIABLE).filter(|v| !v.is_empty()) {
                Some(value) => PathBuf::from(value),
                None => directories::ProjectDirs::from("", "", "reversi")
                    .ok_or(DataDirError::NoDirectory)?
                    .data_dir()
                    .to_path_buf(),
            },
        };
        Ok(DataDir { path })
    }

    /// The directory's path (from the flag, `$REVERSI_HOME` or the platform default).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Where games' logs go unless the player names another place.
    pub fn games_dir(&self) -> PathBuf {
        self.path.join("games")
    }

    /// The folder of the registers of what each identity signed
    /// (`DATA_DIR/register/`, one folder a key inside).
    pub fn register_dir(&self) -> PathBuf {
        self.path.join(register::REGISTER_DIR)
    }

    /// The log of a new game in `room`: `DATA_DIR/games/ROOM.log`, the
    /// folder made if needed. Every new game's log that the player does not
    /// place themselves goes here.
    pub fn new_game_log(&self, room: &str) -> Result<PathBuf, GameFolderError> {
        let dir = self.games_dir();
        fs::create_dir_all(&dir).map_err(|source| GameFolderError {
            path: dir.clone(),
            source,
        })?;
        Ok(dir.join(format!("{room}.log")))
    }

    /// The register of `key`'s games: their homes and what it signed.
    pub fn register(&self, key: &PublicKey) -> register::GameRegister {
        register::GameRegister::open(self, key)
    }

    /// The register a session of `key` on the log at `log` signs through.
    pub fn register_for(&self, key: &PublicKey, log: &Path) -> SharedRegister {
        self.register(key).for_log(log)
    }

    /// The player's identity, created (and saved) on first use.
    pub fn identity(&self) -> Result<Identity, DataDirError> {
        let path = self.path.join(KEY_FILE);
        match File::open(&path) {
            Ok(file) => {
                refuse_exposed(&path, &file)?;
                read_key(&path, file)
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let identity = Identity::generate().map_err(DataDirError::Random)?;
                fs::create_dir_all(&self.path).map_err(io_error(&self.path))?;
                write_key_atomically(&path, &identity)?;
                Ok(identity)
            }
            Err(e) => Err(io_error(&path)(e)),
        }
    }

    /// Makes `identity` (imported from another program) this data
    /// directory's: a different key already here is refused, or with
    /// `replace` renamed aside (never deleted).
    pub fn adopt_identity(
        &self,
        identity: &Identity,
        replace: bool,
    ) -> Result<Adopted, DataDirError> {
        let path = self.path.join(KEY_FILE);
        let fingerprint = identity.public_key().fingerprint().to_string();
        if path.exists() {
            let current = self.identity()?;
            if current.public_key() == identity.public_key() {
                return Ok(Adopted::Same(fingerprint));
            }
            let found = current.public_key().fingerprint().to_string();
            if !replace {
                return Err(DataDirError::OtherIdentity {
                    found,
                    imported: fingerprint,
                });
            }
            let previous = self.path.join(format!(
                "{KEY_FILE}.{}",
                current.public_key().fingerprint().as_compact()
            ));
            fs::rename(&path, &previous).map_err(io_error(&path))?;
            write_key_atomically(&path, identity)?;
            return Ok(Adopted::Replaced {
                fingerprint,
                previous,
            });
        }
        fs::create_dir_all(&self.path).map_err(io_error(&self.path))?;
        write_key_atomically(&path, identity)?;
        Ok(Adopted::New(fingerprint))
    }
}

/// Refuses a key file that others than its owner can read or write.
fn refuse_exposed(path: &Path, file: &File) -> Result<(), DataDirError> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = file
            .metadata()
            .map_err(io_error(path))?
            .permissions()
            .mode()
            & 0o777;
        if mode & 0o077 != 0 {
            return Err(DataDirError::KeyExposed {
                path: path.to_path_buf(),
                mode,
            });
        }
    }
    #[cfg(not(unix))]
    let _ = (path, file);
    Ok(())
}

fn read_key(path: &Path, file: File) -> Result<Identity, DataDirError> {
    let mut text = String::new();
    // A key file is 65 bytes; read a little more to notice a wrong file.
    file.take(256)
        .read_to_string(&mut text)
        .map_err(|_| DataDirError::BadKeyFile {
            path: path.to_path_buf(),
        })?;
    let bad = || DataDirError::BadKeyFile {
        path: path.to_path_buf(),
    };
    let bytes = data_encoding::HEXLOWER_PERMISSIVE
        .decode(text.trim().as_bytes())
        .map_err(|_| bad())?;
    let secret: [u8; 32] = bytes.try_into().map_err(|_| bad())?;
    Ok(Identity::from_secret_bytes(&secret))
}

/// Creates a new file (never one that exists) readable and writable by its
/// owner only: for keys, and keys sealed for export.
pub fn create_private(path: &Path) -> std::io::Result<File> {
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    options.open(path)
}

/// Writes the key to a temporary file readable by the owner only, flushes
/// it, then renames it into place: a crash leaves either no key or a whole one.
fn write_key_atomically(path: &Path, identity: &Identity) -> Result<(), DataDirError> {
    let temporary = path.with_extension(format!("tmp-{}", std::process::id()));
    let mut file = create_private(&temporary).map_err(io_error(&temporary))?;
    let text = format!(
        "{}\n",
        data_encoding::HEXLOWER.encode(&identity.secret_bytes())
    );
    file.write_all(text.as_bytes())
        .map_err(io_error(&temporary))?;
    file.sync_all().map_err(io_error(&temporary))?;
    drop(file);
    fs::rename(&temporary, path).map_err(io_error(path))?;
    if let Some(parent) = path.parent()
        && let Ok(dir) = File::open(parent)
    {
        let _ = dir.sync_all();
    }
    Ok(())
}

impl GameFiles for DataDir {
    fn new_game_log(&self, room: &str) -> Result<PathBuf, GameFolderError> {
        DataDir::new_game_log(self, room)
    }

    fn register_for(&self, key: &PublicKey, log: &Path) -> SharedRegister {
        DataDir::register_for(self, key, log)
    }

    fn put_back_lost(
        &self,
        key: &PublicKey,
        log: &Path,
        records: &mut Vec<Record>,
        writer: &mut LogWriter,
    ) -> Result<Option<u32>, LogFileError> {
        self.register(key).put_back_lost(log, records, writer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("reversi-test-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn the_identity_is_created_once_and_kept() {
        let dir = temp_dir("identity");
        let data = DataDir::resolve(Some(&dir)).unwrap();
        let first = data.identity().unwrap();
        let second = data.identity().unwrap();
        assert_eq!(first.public_key(), second.public_key());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(dir.join(KEY_FILE))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600, "owner-only key file");
        }
        let leftovers: Vec<_> = fs::read_dir(&dir).unwrap().collect();
        assert_eq!(leftovers.len(), 1, "no temporary file left behind");
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_damaged_key_file_is_reported_and_left_alone() {
        let dir = temp_dir("damaged");
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join(KEY_FILE), "not a key").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(dir.join(KEY_FILE), fs::Permissions::from_mode(0o600)).unwrap();
        }
        let err = DataDir::resolve(Some(&dir))
            .unwrap()
            .identity()
            .unwrap_err();
        assert!(matches!(err, DataDirError::BadKeyFile { .. }));
        assert_eq!(fs::read_to_string(dir.join(KEY_FILE)).unwrap(), "not a key");
        fs::remove_dir_all(dir).unwrap();
    }
}
