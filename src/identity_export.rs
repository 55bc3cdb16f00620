//! An identity carried between programs (desktop ↔ browser, one machine
//! to another) so that a player's games and ratings follow them: the
//! secret key sealed under a passphrase.
//!
//! The file is text, so it can be mailed or pasted:
//!
//! ```text
//! reversi-identity 1
//! fingerprint ABCD-EFGH-IJKL-MNOP
//! kdf argon2id m=65536 t=3 p=1
//! salt BASE64
//! nonce BASE64
//! secret BASE64
//! ```
//!
//! The passphrase is stretched by Argon2id (memory-hard, so guessing it
//! costs 64 MiB and some tenths of a second per try) into the key of
//! XChaCha20-Poly1305, which seals the 32-byte secret; the first three
//! lines are authenticated with it, so neither the fingerprint nor the
//! cost can be changed unseen. Sealing takes its salt and nonce from the
//! caller (from the system's random generator), so this module stays
//! pure and testable.

use argon2::{Algorithm, Argon2, Params, Version};
use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};
use data_encoding::BASE64;

use crate::match_log::Identity;

/// The first line of an exported identity.
const MAGIC: &str = "reversi-identity 1";

/// A file longer than this is not an exported identity.
pub const MAX_EXPORT_BYTES: usize = 4096;

/// The shortest passphrase an export accepts.
pub const MIN_PASSPHRASE_CHARS: usize = 10;

/// Argon2id's cost: memory in KiB, passes, lanes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cost {
    /// Memory, KiB.
    pub memory_kib: u32,
    /// Passes over it.
    pub passes: u32,
    /// Lanes.
    pub lanes: u32,
}

impl Cost {
    /// What exports are sealed with: 64 MiB, 3 passes, 1 lane (OWASP's
    /// second recommended setting for Argon2id).
    pub const DEFAULT: Cost = Cost {
        memory_kib: 64 * 1024,
        passes: 3,
        lanes: 1,
    };

    /// The most a file may ask for: enough for any sane export, too
    /// little for a crafted one to exhaust the machine.
    const MAX: Cost = Cost {
        memory_kib: 256 * 1024,
        passes: 16,
        lanes: 8,
    };
}

/// Why an identity cannot be sealed or opened.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExportError {
    /// The passphrase is too short to protect a key.
    #[error("the passphrase has {found} characters; use at least {min}")]
    WeakPassphrase {
        /// Characters given.
        found: usize,
        /// The least accepted.
        min: usize,
    },
    /// Not an exported identity (or too long to be one).
    #[error("not an exported reversi identity: {0}")]
    Malformed(String),
    /// The file asks for more work than any export needs.
    #[error("the file asks for Argon2id with {found}, more than the {max} allowed")]
    TooCostly {
        /// What the file asks.
        found: String,
        /// The most accepted, as written.
        max: String,
    },
    /// The passphrase is wrong, or the file was changed.
    #[error("wrong passphrase, or the file was changed since it was exported")]
    WrongPassphrase,
    /// The sealed key is not the one the file names.
    #[error("the key inside is {found}, not {expected} as the file says")]
    WrongKey {
        /// The fingerprint the file names.
        expected: String,
        /// The fingerprint of the key inside.
        found: String,
    },
}

impl std::fmt::Display for Cost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "m={} t={} p={}",
            self.memory_kib, self.passes, self.lanes
        )
    }
}

fn stretch(passphrase: &str, salt: &[u8], cost: Cost) -> Result<[u8; 32], ExportError> {
    let params = Params::new(cost.memory_kib, cost.passes, cost.lanes, Some(32))
        .map_err(|e| ExportError::Malformed(format!("argon2id parameters: {e}")))?;
    let mut key = [0; 32];
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
        .hash_password_into(passphrase.as_bytes(), salt, &mut key)
        .map_err(|e| ExportError::Malformed(format!("argon2id: {e}")))?;
    Ok(key)
}

fn header(fingerprint: &str, cost: Cost) -> String {
    format!("{MAGIC}\nfingerprint {fingerprint}\nkdf argon2id {cost}\n")
}

/// Seals `identity` under `passphrase` with `salt` and `nonce` (fresh
/// random bytes for each export) at `cost`.
pub fn seal(
    identity: &Identity,
    passphrase: &str,
    salt: [u8; 16],
    nonce: [u8; 24],
    cost: Cost,
) -> Result<String, ExportError> {
    let found = passphrase.chars().count();
    if found < MIN_PASSPHRASE_CHARS {
        return Err(ExportError::WeakPassphrase {
            found,
            min: MIN_PASSPHRASE_CHARS,
        });
    }
    let header = header(&identity.public_key().fingerprint().to_string(), cost);
    let key = stretch(passphrase, &salt, cost)?;
    let sealed = XChaCha20Poly1305::new((&key).into())
        .encrypt(
            XNonce::from_slice(&nonce),
            Payload {
                msg: &identity.secret_bytes(),
                aad: header.as_bytes(),
            },
        )
        .map_err(|_| ExportError::Malformed("sealing failed".into()))?;
    Ok(format!(
        "{header}salt {}\nnonce {}\nsecret {}\n",
        BASE64.encode(&salt),
        BASE64.encode(&nonce),
        BASE64.encode(&sealed)
    ))
}

/// The value of the line `name VALUE`.
fn field<'a>(line: Option<&'a str>, name: &str) -> Result<&'a str, ExportError> {
    line.and_then(|l| l.strip_prefix(name))
        .and_then(|rest| rest.strip_prefix(' '))
        .ok_or_else(|| ExportError::Malformed(format!("expected a line `{name} …`")))
}

fn decode<const N: usize>(text: &str, name: &str) -> Result<[u8; N], ExportError> {
    BASE64
        .decode(text.trim().as_bytes())
        .ok()
        .and_then(|bytes| bytes.try_into().ok())
        .ok_or_else(|| ExportError::Malformed(format!("{name}: expected {N} bytes in base64")))
}

fn parse_cost(text: &str) -> Result<Cost, ExportError> {
    let rest = text
        .strip_prefix("argon2id ")
        .ok_or_else(|| ExportError::Malformed("only argon2id is known".into()))?;
    let mut cost = Cost {
        memory_kib: 0,
        passes: 0,
        lanes: 0,
    };
    let mut seen = 0;
    for part in rest.split(' ') {
        let (name, value) = part
            .split_once('=')
            .ok_or_else(|| ExportError::Malformed(format!("argon2id parameter {part:?}")))?;
        let value: u32 = value
            .parse()
            .map_err(|_| ExportError::Malformed(format!("argon2id parameter {part:?}")))?;
        match name {
            "m" => cost.memory_kib = value,
            "t" => cost.passes = value,
            "p" => cost.lanes = value,
            _ => {
                return Err(ExportError::Malformed(format!(
                    "argon2id parameter {part:?}"
                )));
            }
        }
        seen += 1;
    }
    if seen != 3 {
        return Err(ExportError::Malformed("expected m=, t= and p=".into()));
    }
    let max = Cost::MAX;
    if cost.memory_kib > max.memory_kib || cost.passes > max.passes || cost.lanes > max.lanes {
        return Err(ExportError::TooCostly {
            found: cost.to_string(),
            max: max.to_string(),
        });
    }
    Ok(cost)
}

/// Opens an exported identity with `passphrase`. The file is checked
/// before any work is done; a wrong passphrase and a changed file are
/// told apart from a malformed one, never from each other.
pub fn open(text: &str, passphrase: &str) -> Result<Identity, ExportError> {
    if text.len() > MAX_EXPORT_BYTES {
        return Err(ExportError::Malformed(format!(
            "{} bytes, more than the {MAX_EXPORT_BYTES} an export has",
            text.len()
        )));
    }
    let mut lines = text.lines();
    if lines.next().map(str::trim_end) != Some(MAGIC) {
        return Err(ExportError::Malformed(format!(
            "the first line is not `{MAGIC}`"
        )));
    }
    let fingerprint = field(lines.next(), "fingerprint")?.trim_end();
    let cost = parse_cost(field(lines.next(), "kdf")?.trim_end())?;
    let salt: [u8; 16] = decode(field(lines.next(), "salt")?, "salt")?;
    let nonce: [u8; 24] = decode(field(lines.next(), "nonce")?, "nonce")?;
    let sealed: [u8; 48] = decode(field(lines.next(), "secret")?, "secret")?;
    if lines.any(|l| !l.trim().is_empty()) {
        return Err(ExportError::Malformed(
            "unexpected lines after the secret".into(),
        ));
    }
    let key = stretch(passphrase, &salt, cost)?;
    let secret = XChaCha20Poly1305::new((&key).into())
        .decrypt(
            XNonce::from_slice(&nonce),
            Payload {
                msg: &sealed,
                aad: header(fingerprint, cost).as_bytes(),
            },
        )
        .map_err(|_| ExportError::WrongPassphrase)?;
    let secret: [u8; 32] = secret
        .try_into()
        .map_err(|_| ExportError::Malformed("the sealed secret is not 32 bytes".into()))?;
    let identity = Identity::from_secret_bytes(&secret);
    let found = identity.public_key().fingerprint().to_string();
    if found != fingerprint {
        return Err(ExportError::WrongKey {
            expected: fingerprint.to_string(),
            found,
        });
    }
    Ok(identity)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Cheap enough for tests; the format is the same.
    const TEST_COST: Cost = Cost {
        memory_kib: 64,
        passes: 1,
        lanes: 1,
    };

    fn alice() -> Identity {
        Identity::from_secret_bytes(&[7; 32])
    }

    fn sealed() -> String {
        seal(
            &alice(),
            "correct horse battery",
            [1; 16],
            [2; 24],
            TEST_COST,
        )
        .unwrap()
    }

    #[test]
    fn an_identity_comes_back_with_its_passphrase_only() {
        let text = sealed();
        assert!(text.starts_with("reversi-identity 1\nfingerprint "));
        let back = open(&text, "correct horse battery").unwrap();
        assert_eq!(back.public_key(), alice().public_key());
        assert_eq!(
            open(&text, "correct horse batterY").unwrap_err(),
            ExportError::WrongPassphrase
        );
    }

    #[test]
    fn the_header_cannot_be_changed_unseen() {
        let text = sealed();
        let other = Identity::from_secret_bytes(&[8; 32])
            .public_key()
            .fingerprint()
            .to_string();
        let mine = alice().public_key().fingerprint().to_string();
        let renamed = text.replace(&mine, &other);
        assert_eq!(
            open(&renamed, "correct horse battery").unwrap_err(),
            ExportError::WrongPassphrase
        );
        let cheaper = text.replace("m=64 ", "m=32 ");
        assert_eq!(
            open(&cheaper, "correct horse battery").unwrap_err(),
            ExportError::WrongPassphrase
        );
    }

    #[test]
    fn a_short_passphrase_and_a_costly_file_are_refused() {
        assert!(matches!(
            seal(&alice(), "short", [1; 16], [2; 24], TEST_COST),
            Err(ExportError::WeakPassphrase { found: 5, .. })
        ));
        let costly = sealed().replace("m=64 t=1", "m=4000000 t=1");
        assert!(matches!(
            open(&costly, "correct horse battery"),
            Err(ExportError::TooCostly { .. })
        ));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Whatever the bytes, opening says why and never panics (and a
        /// file that is not an export costs no key stretching).
        #[test]
        fn any_text_is_refused_with_a_reason(text in "(?s).{0,600}") {
            prop_assert!(open(&text, "correct horse battery").is_err());
        }

        /// A sealed file with one line damaged is refused.
        #[test]
        fn a_damaged_export_is_refused(line in 0usize..6, at in 0usize..40, byte in 33u8..127) {
            let text = sealed();
            let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
            let target = &mut lines[line];
            let at = at % target.len();
            let mut bytes = target.clone().into_bytes();
            prop_assume!(bytes[at] != byte);
            bytes[at] = byte;
            *target = String::from_utf8(bytes).unwrap();
            let damaged = lines.join("\n") + "\n";
            prop_assert!(open(&damaged, "correct horse battery").is_err());
        }
    }
}
