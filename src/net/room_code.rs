//! Room codes and invite links: what the host reads out or sends, and the
//! guest types or opens.
//!
//! A code of version 2, `K7QF-M2XA-PZ4R-TB6H-ANNK-C`, is 20 base32
//! characters and a check character: the invitation secret (16
//! characters, 80 bits from the OS random generator), the first 4
//! characters of the host's key fingerprint, and a check character over
//! both. The secret never reaches a server: the room name the signaling
//! server sees is derived from it (see [`crate::match_log::invite`]), and
//! each side proves it holds the secret before anything is signed, so a
//! server that answers in the room, or joins it first, is refused.
//!
//! An invite link carries the code and the host's whole public key in its
//! fragment (`https://SERVER/play/#CODE.KEY`), which browsers do not send
//! to the server: a guest who opens it accepts no other host key at all.
//!
//! Input is case-insensitive; dashes and spaces are ignored, and the
//! look-alike digits 0, 1 and 8 are read as O, I and B. A code may name
//! its signaling server after an `@`: `@ADDRESS:PORT` for a host's
//! embedded server, or a URL such as `@wss://play.example.org`.
//!
//! Codes of version 1 (17 characters: a room name the server sees, and 5
//! characters of the host's fingerprint) still read, for accepting an
//! open game made with one; a live game needs a code of version 2.

use std::fmt;
use std::net::SocketAddr;
use std::str::FromStr;

use super::server_url::ServerUrl;
use crate::match_log::PublicKey;
use crate::match_log::invite::{INVITE_SECRET_BYTES, InviteSecret};

use data_encoding::BASE32_NOPAD;

/// Characters of a version 1 room name.
pub const LEGACY_ROOM_CHARS: usize = 11;
/// Characters of a version 1 host fingerprint prefix.
pub const LEGACY_FINGERPRINT_CHARS: usize = 5;
/// Characters of the invitation secret in a version 2 code.
pub const SECRET_CHARS: usize = 16;
/// Characters of the host fingerprint prefix in a version 2 code.
pub const FINGERPRINT_CHARS: usize = 4;

/// Characters of a version 1 code, check character included.
const LEGACY_LEN: usize = LEGACY_ROOM_CHARS + LEGACY_FINGERPRINT_CHARS + 1;
/// Characters of a version 2 code, check character included.
const CODE_LEN: usize = SECRET_CHARS + FINGERPRINT_CHARS + 1;
/// Base32 characters of a public key in a link.
const KEY_CHARS: usize = 52;

const ALPHABET: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/// What a typed code protects against, and what it does not: shown beside
/// every code a host is given.
pub const WHAT_A_CODE_PROTECTS: &str = "The code's secret never reaches the server: \
neither the server nor anyone on the network can join in your friend's place or answer \
in yours. Anyone who hears or sees the code can, so give it only to your friend. \
The link also carries your whole key; once connected, compare the safety code \
if you want to be sure.";

/// How a guest recognises the host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExpectedHost {
    /// A typed code: the first characters of the host's fingerprint.
    Prefix(String),
    /// An invite link: the host's whole key.
    Key(PublicKey),
}

impl ExpectedHost {
    /// Whether `key` is a host this code admits.
    pub fn admits(&self, key: &PublicKey) -> bool {
        match self {
            ExpectedHost::Prefix(prefix) => key.fingerprint().as_compact().starts_with(prefix),
            ExpectedHost::Key(expected) => expected == key,
        }
    }

    /// Whether the code names the host's whole key.
    pub fn is_exact(&self) -> bool {
        matches!(self, ExpectedHost::Key(_))
    }
}

impl fmt::Display for ExpectedHost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExpectedHost::Prefix(prefix) => write!(f, "a fingerprint starting {prefix}"),
            ExpectedHost::Key(key) => write!(f, "the key {}", key.fingerprint()),
        }
    }
}

/// What a code invites to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Invitation {
    /// A code of version 1: the room name is the invitation secret (the
    /// server sees it), and the host is checked against 5 characters of
    /// its fingerprint.
    Legacy {
        /// The room name, which an open genesis of version 1 asks for.
        room: String,
        /// The host's fingerprint prefix.
        host_prefix: String,
    },
    /// A code of version 2.
    Secret {
        /// The secret the code carries, from which the room name is derived.
        secret: InviteSecret,
        /// The room name derived from it.
        room: String,
        /// The host the code names.
        host: ExpectedHost,
    },
}

impl Invitation {
    /// The room name on the signaling server.
    pub fn room(&self) -> &str {
        match self {
            Invitation::Legacy { room, .. } | Invitation::Secret { room, .. } => room,
        }
    }

    /// The host this invitation names.
    pub fn host(&self) -> ExpectedHost {
        match self {
            Invitation::Legacy { host_prefix, .. } => ExpectedHost::Prefix(host_prefix.clone()),
            Invitation::Secret { host, .. } => host.clone(),
        }
    }

    /// What a guest who typed the host's code holds: the secret and the
    /// start of the host's fingerprint.
    pub fn typed(secret: InviteSecret, host_key: &PublicKey) -> Invitation {
        let fingerprint = host_key.fingerprint();
        let prefix = fingerprint.as_compact()[..FINGERPRINT_CHARS].to_string();
        Invitation::secret(secret, ExpectedHost::Prefix(prefix))
    }

    /// What a guest who opened the host's link holds: the secret and the
    /// host's whole key.
    pub fn linked(secret: InviteSecret, host_key: &PublicKey) -> Invitation {
        Invitation::secret(secret, ExpectedHost::Key(*host_key))
    }

    fn secret(secret: InviteSecret, host: ExpectedHost) -> Invitation {
        Invitation::Secret {
            room: secret.room(),
            secret,
            host,
        }
    }
}

/// A parsed room code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoomCode {
    invitation: Invitation,
    server: Option<ServerUrl>,
}

/// Why text is not a room code.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RoomCodeError {
    /// Neither 21 nor (an older code) 17 code characters.
    #[error("a room code has 21 characters (like K7QF-M2XA-PZ4R-TB6H-ANNK-C), found {found}")]
    Length {
        /// Characters found.
        found: usize,
    },
    /// A character outside the code alphabet.
    #[error(
        "a room code uses only the letters A–Z and the digits 2–7; {found:?} is not one of them"
    )]
    Character {
        /// The character that is not in the code alphabet.
        found: char,
    },
    /// The check character does not match: a typo.
    #[error("the room code has a typo: its check character does not match (re-read it carefully)")]
    Checksum,
    /// The part after `@` is not an address and port, nor a server URL.
    #[error(
        "the server after @ must be IP:PORT or a ws://, wss://, http:// or https:// URL, found {found:?}"
    )]
    Address {
        /// The text after `@` (its first 80 characters).
        found: String,
    },
    /// The key after the code in a link is not a public key.
    #[error("the key in the invite link is damaged: {found} characters, not a public key")]
    Key {
        /// Characters found.
        found: usize,
    },
    /// The link's key is not the one the code's fingerprint names.
    #[error(
        "the invite link was altered: its key's fingerprint {found} does not start with the code's {expected}"
    )]
    KeyMismatch {
        /// The code's fingerprint characters.
        expected: String,
        /// The key's fingerprint.
        found: String,
    },
}

/// Multiplication in GF(32) with the primitive polynomial x⁵ + x² + 1.
fn gf32_mul(a: u8, b: u8) -> u8 {
    let mut product = 0u16;
    for bit in 0..5 {
        if b >> bit & 1 == 1 {
            product ^= u16::from(a) << bit;
        }
    }
    for bit in (5..9).rev() {
        if product >> bit & 1 == 1 {
            product ^= 0b100101 << (bit - 5);
        }
    }
    product as u8
}

/// The check character: Σ αⁱ·vᵢ in GF(32) (α = x). Since the field has no
/// zero divisors, any single wrong character changes the sum, and so does a
/// swap of two neighbours (the sum changes by αⁱ(1+α)(vᵢ−vᵢ₊₁) ≠ 0); the
/// weights αⁱ differ for up to 31 characters.
fn check_char(payload: &[u8]) -> u8 {
    let mut weight = 2u8;
    let mut sum = 0u8;
    for &c in payload {
        let value = ALPHABET.iter().position(|&a| a == c).unwrap_or(0) as u8;
        sum ^= gf32_mul(weight, value);
        weight = gf32_mul(weight, 2);
    }
    ALPHABET[usize::from(sum)]
}

impl RoomCode {
    /// A new code: a fresh invitation secret for the host with this key.
    pub fn generate(
        host_key: &PublicKey,
        server: Option<ServerUrl>,
    ) -> Result<RoomCode, getrandom::Error> {
        let mut bytes = [0u8; INVITE_SECRET_BYTES];
        getrandom::fill(&mut bytes)?;
        Ok(RoomCode {
            invitation: Invitation::secret(
                InviteSecret::from_bytes(bytes),
                ExpectedHost::Key(*host_key),
            ),
            server,
        })
    }

    /// The room name on the signaling server.
    pub fn room(&self) -> &str {
        self.invitation.room()
    }

    /// What the code invites to: the secret (or, for an old code, the
    /// room name) and the host it names.
    pub fn invitation(&self) -> &Invitation {
        &self.invitation
    }

    /// The invitation secret; `None` for a code of version 1.
    pub fn secret(&self) -> Option<&InviteSecret> {
        match &self.invitation {
            Invitation::Secret { secret, .. } => Some(secret),
            Invitation::Legacy { .. } => None,
        }
    }

    /// Whether this is a code of version 1.
    pub fn is_legacy(&self) -> bool {
        matches!(self.invitation, Invitation::Legacy { .. })
    }

    /// The signaling server, if the code names one.
    pub fn server(&self) -> Option<&ServerUrl> {
        self.server.as_ref()
    }

    /// The code without its server.
    fn bare(&self) -> RoomCode {
        RoomCode {
            server: None,
            ..self.clone()
        }
    }

    /// The invite link a friend opens in a browser: the server's page
    /// `/play/` with the code, and the host's whole key when the code
    /// knows it, in the fragment (which browsers never send to a server);
    /// `None` when the code names no server.
    pub fn invite_link(&self) -> Option<String> {
        let server = self.server.as_ref()?;
        let scheme = if server.is_tls() { "https" } else { "http" };
        let key = match &self.invitation {
            Invitation::Secret {
                host: ExpectedHost::Key(key),
                ..
            } => format!(".{}", BASE32_NOPAD.encode(&key.to_bytes())),
            _ => String::new(),
        };
        Some(format!(
            "{scheme}://{}/play/#{}{key}",
            server.authority(),
            self.bare()
        ))
    }

    /// The code with the host's whole key when known (`CODE.KEY@SERVER`):
    /// what a program keeps and passes on, which reads back as this code.
    /// [`fmt::Display`] gives the form a person reads out.
    pub fn full(&self) -> String {
        let text = self.to_string();
        match &self.invitation {
            Invitation::Secret {
                host: ExpectedHost::Key(key),
                ..
            } => {
                let key = BASE32_NOPAD.encode(&key.to_bytes());
                match text.split_once('@') {
                    Some((code, server)) => format!("{code}.{key}@{server}"),
                    None => format!("{text}.{key}"),
                }
            }
            _ => text,
        }
    }

    /// Whether `key` is a host this code admits.
    pub fn matches_host(&self, key: &PublicKey) -> bool {
        self.invitation.host().admits(key)
    }
}

impl fmt::Display for RoomCode {
    /// The form a person reads out: the code, then `@SERVER` if it names
    /// one (the host's whole key, if known, goes only into the link).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let payload = match &self.invitation {
            Invitation::Legacy { room, host_prefix } => format!("{room}{host_prefix}"),
            Invitation::Secret { secret, host, .. } => {
                let prefix = match host {
                    ExpectedHost::Prefix(prefix) => prefix.clone(),
                    ExpectedHost::Key(key) => {
                        key.fingerprint().as_compact()[..FINGERPRINT_CHARS].to_string()
                    }
                };
                format!("{}{prefix}", BASE32_NOPAD.encode(&secret.to_bytes()))
            }
        };
        let check = check_char(payload.as_bytes()) as char;
        let groups: Vec<&str> = (0..payload.len())
            .step_by(4)
            .map(|i| &payload[i..payload.len().min(i + 4)])
            .collect();
        write!(f, "{}-{check}", groups.join("-"))?;
        match self.server.as_ref().map(|s| (s, s.socket_addr())) {
            Some((_, Some(addr))) => write!(f, "@{addr}")?,
            Some((server, None)) => write!(f, "@{server}")?,
            None => {}
        }
        Ok(())
    }
}

/// The code in an invite link (`http(s)://SERVER/play/#CODE[.KEY]&…`),
/// with the link's server unless the code names one; `None` when `text`
/// is no link.
fn code_of_link(text: &str) -> Option<Result<RoomCode, RoomCodeError>> {
    let lower = text.to_ascii_lowercase();
    if !(lower.starts_with("http://") || lower.starts_with("https://")) {
        return None;
    }
    let (page, fragment) = text.split_once('#')?;
    let code = fragment.split('&').next().unwrap_or_default();
    if code.contains('@') {
        return Some(code.parse());
    }
    let server = page
        .rsplit_once("/play")
        .map_or(page, |(before, _)| before)
        .trim_end_matches('/');
    Some(format!("{code}@{server}").parse())
}

/// The server after `@`: an address and port, or a URL.
fn parse_server(address: &str) -> Result<ServerUrl, RoomCodeError> {
    let address = address.trim();
    let server = if address.contains("://") {
        ServerUrl::parse(address).ok()
    } else {
        address
            .parse::<SocketAddr>()
            .ok()
            .map(ServerUrl::from_socket_addr)
    };
    server.ok_or_else(|| RoomCodeError::Address {
        found: address.chars().take(80).collect(),
    })
}

/// The code characters of `code`, upper-cased, look-alikes forgiven.
fn code_chars(code: &str) -> Result<Vec<u8>, RoomCodeError> {
    let mut chars = Vec::new();
    for c in code.chars().filter(|c| !matches!(c, '-' | ' ')) {
        let c = match c.to_ascii_uppercase() {
            '0' => 'O',
            '1' => 'I',
            '8' => 'B',
            c => c,
        };
        if !c.is_ascii() || !ALPHABET.contains(&(c as u8)) {
            return Err(RoomCodeError::Character { found: c });
        }
        chars.push(c as u8);
        if chars.len() > CODE_LEN {
            // Bounded: no more is ever needed to say what is wrong.
            return Err(RoomCodeError::Length {
                found: code.chars().filter(|c| !matches!(c, '-' | ' ')).count(),
            });
        }
    }
    Ok(chars)
}

/// The host key a link carries after the code.
fn parse_key(text: &str) -> Result<PublicKey, RoomCodeError> {
    let found = text.chars().count();
    let upper = text.trim().to_ascii_uppercase();
    if upper.len() != KEY_CHARS {
        return Err(RoomCodeError::Key { found });
    }
    let bytes = BASE32_NOPAD
        .decode(upper.as_bytes())
        .map_err(|_| RoomCodeError::Key { found })?;
    let bytes: [u8; 32] = bytes.try_into().map_err(|_| RoomCodeError::Key { found })?;
    PublicKey::from_bytes(&bytes).ok_or(RoomCodeError::Key { found })
}

impl FromStr for RoomCode {
    type Err = RoomCodeError;

    /// Reads `CODE`, `CODE.KEY`, either followed by `@HOST:PORT` or
    /// `@ws(s)://SERVER`, or an invite link `http(s)://SERVER/play/#CODE[.KEY][&…]`,
    /// whose server is the link's.
    fn from_str(text: &str) -> Result<RoomCode, RoomCodeError> {
        if let Some(code) = code_of_link(text.trim()) {
            return code;
        }
        let (code, server) = match text.trim().split_once('@') {
            Some((code, address)) => (code, Some(parse_server(address)?)),
            None => (text.trim(), None),
        };
        let (code, key) = match code.split_once('.') {
            Some((code, key)) => (code, Some(parse_key(key)?)),
            None => (code, None),
        };
        let chars = code_chars(code)?;
        if chars.len() != CODE_LEN && !(chars.len() == LEGACY_LEN && key.is_none()) {
            return Err(RoomCodeError::Length { found: chars.len() });
        }
        let (payload, check) = chars.split_at(chars.len() - 1);
        if check_char(payload) != check[0] {
            return Err(RoomCodeError::Checksum);
        }
        let payload = String::from_utf8(payload.to_vec()).expect("ASCII");
        if chars.len() == LEGACY_LEN {
            return Ok(RoomCode {
                invitation: Invitation::Legacy {
                    room: payload[..LEGACY_ROOM_CHARS].to_string(),
                    host_prefix: payload[LEGACY_ROOM_CHARS..].to_string(),
                },
                server,
            });
        }
        let secret: [u8; INVITE_SECRET_BYTES] = BASE32_NOPAD
            .decode(&payload.as_bytes()[..SECRET_CHARS])
            .ok()
            .and_then(|bytes| bytes.try_into().ok())
            // 16 characters are exactly 80 bits: every one decodes.
            .ok_or(RoomCodeError::Checksum)?;
        let prefix = payload[SECRET_CHARS..].to_string();
        let host = match key {
            Some(key) if !key.fingerprint().as_compact().starts_with(&prefix) => {
                return Err(RoomCodeError::KeyMismatch {
                    expected: prefix,
                    found: key.fingerprint().to_string(),
                });
            }
            Some(key) => ExpectedHost::Key(key),
            None => ExpectedHost::Prefix(prefix),
        };
        Ok(RoomCode {
            invitation: Invitation::secret(InviteSecret::from_bytes(secret), host),
            server,
        })
    }
}

/// The room a rematch of a game meets in: derived from the previous
/// game's room name and its id, so both players find it without a new
/// code. Anyone who knew the room (the server) can find it too; the
/// rematch admits only the previous game's opponent, by key.
pub fn rematch_room(
    previous_room: &str,
    previous_game: &crate::match_log::record::Digest,
) -> String {
    use sha2::{Digest as _, Sha256};
    let mut hasher = Sha256::new();
    hasher.update(b"reversi/rematch-room/v1\0");
    hasher.update(previous_room.as_bytes());
    hasher.update([0]);
    hasher.update(previous_game);
    BASE32_NOPAD.encode(&hasher.finalize())[..16].to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::match_log::Identity;

    fn host_key() -> PublicKey {
        Identity::from_secret_bytes(&[1; 32]).public_key()
    }

    fn lan() -> ServerUrl {
        ServerUrl::from_socket_addr("192.168.1.5:3536".parse().unwrap())
    }

    fn code() -> RoomCode {
        RoomCode::generate(&host_key(), Some(lan())).unwrap()
    }

    /// What a guest gets from the typed code: the prefix, not the key.
    fn typed(code: &RoomCode) -> RoomCode {
        code.to_string().parse().unwrap()
    }

    #[test]
    fn a_typed_code_reads_back_with_the_same_secret_room_and_host_prefix() {
        let with = code();
        let text = with.to_string();
        assert!(text.ends_with("@192.168.1.5:3536"), "{text}");
        let read = typed(&with);
        assert_eq!(read.room(), with.room());
        assert_eq!(read.secret(), with.secret());
        assert_eq!(read.server(), with.server());
        let fingerprint = host_key().fingerprint();
        let prefix = &fingerprint.as_compact()[..FINGERPRINT_CHARS];
        assert_eq!(
            read.invitation().host(),
            ExpectedHost::Prefix(prefix.to_string())
        );
        assert!(read.matches_host(&host_key()));
        let bare = with.bare().to_string();
        assert_eq!(bare.len(), 26, "{bare}");
        assert_eq!(
            bare.to_lowercase().replace('-', " ").parse::<RoomCode>(),
            Ok(typed(&with.bare()))
        );
    }

    #[test]
    fn the_room_the_server_sees_holds_nothing_of_the_code() {
        let code = code();
        let text = code.bare().to_string().replace('-', "");
        assert_eq!(code.room().len(), 16);
        for window in text.as_bytes().windows(4) {
            let window = std::str::from_utf8(window).unwrap();
            assert!(!code.room().contains(window), "{window} in {}", code.room());
        }
        assert_ne!(
            code.room(),
            crate::match_log::invite::InviteSecret::from_bytes([0; 10]).room()
        );
    }

    #[test]
    fn a_link_carries_the_whole_host_key_and_admits_no_other() {
        let code = code();
        let link = code.invite_link().unwrap();
        assert!(link.starts_with("http://192.168.1.5:3536/play/#"), "{link}");
        assert!(
            !link.contains('@'),
            "the link names the server once: {link}"
        );
        let read: RoomCode = link.parse().unwrap();
        assert_eq!(read, code);
        assert_eq!(code.full().parse::<RoomCode>().unwrap(), code);
        assert_eq!(code.bare().full().parse::<RoomCode>().unwrap(), code.bare());
        assert_eq!(read.invitation().host(), ExpectedHost::Key(host_key()));
        // A key that shares the fingerprint's first characters is not it.
        let other = Identity::from_secret_bytes(&[2; 32]).public_key();
        assert!(!read.matches_host(&other));
        // A link whose key was swapped for another is refused.
        let swapped = link.replace(
            &BASE32_NOPAD.encode(&host_key().to_bytes()),
            &BASE32_NOPAD.encode(&other.to_bytes()),
        );
        assert!(matches!(
            swapped.parse::<RoomCode>(),
            Err(RoomCodeError::KeyMismatch { .. })
        ));
        let cut = &link[..link.len() - 3];
        assert!(matches!(
            cut.parse::<RoomCode>(),
            Err(RoomCodeError::Key { .. })
        ));
        let public = RoomCode::generate(
            &host_key(),
            Some(ServerUrl::parse("wss://reversi.example").unwrap()),
        )
        .unwrap();
        let link = public.invite_link().unwrap();
        assert!(link.starts_with("https://reversi.example/play/#"), "{link}");
        assert_eq!(link.parse::<RoomCode>().unwrap(), public);
        assert_eq!(
            RoomCode::generate(&host_key(), None).unwrap().invite_link(),
            None
        );
    }

    #[test]
    fn an_invite_link_gives_its_code_and_its_server() {
        let code = code();
        let bare = code.bare().to_string();
        let lan: RoomCode = format!("http://192.168.1.5:3536/play/#{bare}&autojoin&name=Ben")
            .parse()
            .unwrap();
        assert_eq!(lan, typed(&code));
        let public: RoomCode = format!("https://play.example.org/play/#{bare}")
            .parse()
            .unwrap();
        assert_eq!(
            public.server().unwrap().to_string(),
            "wss://play.example.org"
        );
        assert_eq!(public.room(), code.room());
        // A code that names its server keeps it.
        let named: RoomCode = format!("https://elsewhere.example/play/#{code}")
            .parse()
            .unwrap();
        assert_eq!(named, typed(&code));
        assert!(
            "https://play.example.org/play/"
                .parse::<RoomCode>()
                .is_err()
        );
        assert!(
            "https://play.example.org/play/#NOT-A-CODE"
                .parse::<RoomCode>()
                .is_err()
        );
    }

    #[test]
    fn codes_may_name_a_public_server() {
        let server = ServerUrl::parse("wss://play.example.org").unwrap();
        let with = RoomCode {
            server: Some(server.clone()),
            ..typed(&code())
        };
        let text = with.to_string();
        assert!(text.ends_with("@wss://play.example.org"), "{text}");
        assert_eq!(text.parse::<RoomCode>(), Ok(with.clone()));
        let https = text.replace("wss://", "https://");
        assert_eq!(https.parse::<RoomCode>().unwrap().server(), Some(&server));
        assert!(matches!(
            text.replace("wss://", "ftp://").parse::<RoomCode>(),
            Err(RoomCodeError::Address { .. })
        ));
    }

    #[test]
    fn secrets_and_rooms_are_random() {
        let a = code();
        let b = code();
        assert_ne!(a.room(), b.room());
        assert_ne!(a.secret(), b.secret());
        assert!(a.room().chars().all(|c| c.is_ascii_alphanumeric()));
    }

    #[test]
    fn a_code_of_version_1_still_reads() {
        // Made by the previous version: room K7QFM2XAPZ4, host prefix MFRGG.
        let payload = b"K7QFM2XAPZ4MFRGG";
        let check = check_char(payload) as char;
        let text = format!("K7QF-M2XA-PZ4M-FRGG-{check}@192.168.1.5:3536");
        let read: RoomCode = text.parse().unwrap();
        assert!(read.is_legacy());
        assert_eq!(read.room(), "K7QFM2XAPZ4");
        assert_eq!(read.secret(), None);
        assert_eq!(
            read.invitation().host(),
            ExpectedHost::Prefix("MFRGG".into())
        );
        assert_eq!(read.to_string(), text);
        assert!(matches!(
            format!("K7QF-M2XA-PZ4M-FRGG-{check}.{}", "A".repeat(52)).parse::<RoomCode>(),
            Err(RoomCodeError::Key { .. } | RoomCodeError::Length { .. })
        ));
    }

    #[test]
    fn every_single_typo_and_neighbour_swap_is_caught() {
        let text = code().bare().to_string();
        let chars: Vec<char> = text.chars().collect();
        for i in 0..chars.len() {
            if chars[i] == '-' {
                continue;
            }
            for &replacement in ALPHABET {
                let replacement = replacement as char;
                if replacement == chars[i] {
                    continue;
                }
                let mut typo = chars.clone();
                typo[i] = replacement;
                let typo: String = typo.into_iter().collect();
                assert!(typo.parse::<RoomCode>().is_err(), "{typo} accepted");
            }
        }
        let compact: Vec<char> = text.chars().filter(|c| *c != '-').collect();
        for i in 0..compact.len() - 1 {
            if compact[i] == compact[i + 1] {
                continue;
            }
            let mut swapped = compact.clone();
            swapped.swap(i, i + 1);
            let swapped: String = swapped.into_iter().collect();
            assert!(swapped.parse::<RoomCode>().is_err(), "{swapped} accepted");
        }
    }

    #[test]
    fn malformed_codes_say_why() {
        assert_eq!(
            "ABC".parse::<RoomCode>(),
            Err(RoomCodeError::Length { found: 3 })
        );
        assert_eq!(
            "ABC!".parse::<RoomCode>(),
            Err(RoomCodeError::Character { found: '!' })
        );
        assert!(matches!(
            "AAAA@nowhere".parse::<RoomCode>(),
            Err(RoomCodeError::Address { .. })
        ));
        assert!(matches!(
            "A".repeat(10_000).parse::<RoomCode>(),
            Err(RoomCodeError::Length { found: 10_000 })
        ));
        // Look-alike digits are forgiven.
        let text = code().bare().to_string();
        let sloppy = text.replace('O', "0").replace('I', "1").replace('B', "8");
        assert_eq!(sloppy.parse::<RoomCode>().map(|c| c.to_string()), Ok(text));
    }

    proptest::proptest! {
        #[test]
        fn no_text_makes_the_reader_panic(text in "\\PC{0,120}") {
            let _ = text.parse::<RoomCode>();
        }

        #[test]
        fn any_secret_round_trips(bytes in proptest::array::uniform10(proptest::prelude::any::<u8>())) {
            let code = RoomCode {
                invitation: Invitation::secret(InviteSecret::from_bytes(bytes), ExpectedHost::Key(host_key())),
                server: None,
            };
            let read = typed(&code);
            proptest::prop_assert_eq!(read.secret(), code.secret());
            proptest::prop_assert_eq!(read.room(), code.room());
        }
    }
}
