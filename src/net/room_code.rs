//! Room codes: what the host reads out and the guest types.
//!
//! `K7QF-M2XA-PZ4R-TB6H-C` is 16 base32 characters and a check character:
//! the room name (11 characters, 55 bits from the OS random generator), the
//! first 5 characters of the host's key fingerprint (so the guest notices if
//! anyone else answers in the room), and a check character over both. When
//! the host runs the embedded signaling server, `@ADDRESS:PORT` follows.
//! Input is case-insensitive; dashes and spaces are ignored, and the
//! look-alike digits 0, 1 and 8 are read as O, I and B.
//!
//! A code may name its signaling server after an `@`: `@ADDRESS:PORT` for
//! a host's embedded server, or a URL such as `@wss://play.example.org`,
//! so the guest needs nothing but the code.

use std::fmt;
use std::net::SocketAddr;
use std::str::FromStr;

use super::server_url::ServerUrl;

use data_encoding::BASE32_NOPAD;

/// Characters of the room name.
pub const ROOM_CHARS: usize = 11;
/// Characters of the host fingerprint prefix.
pub const FINGERPRINT_CHARS: usize = 5;

const ALPHABET: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/// A parsed room code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoomCode {
    room: String,
    host_fingerprint: String,
    server: Option<ServerUrl>,
}

/// Why text is not a room code.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RoomCodeError {
    /// Not 17 code characters.
    #[error("a room code has 17 characters (like K7QF-M2XA-PZ4R-TB6H-C), found {found}")]
    Length {
        /// Characters found.
        found: usize,
    },
    /// A character outside the code alphabet.
    #[error(
        "a room code uses only the letters A–Z and the digits 2–7; {found:?} is not one of them"
    )]
    Character {
        /// The character.
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
        /// The text found.
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
/// swap of two neighbours (the sum changes by αⁱ(1+α)(vᵢ−vᵢ₊₁) ≠ 0).
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
    /// A new code: a fresh random room for a host with this fingerprint.
    pub fn generate(
        host_fingerprint: &str,
        server: Option<ServerUrl>,
    ) -> Result<RoomCode, getrandom::Error> {
        let mut bytes = [0u8; 7];
        getrandom::fill(&mut bytes)?;
        let room = BASE32_NOPAD.encode(&bytes)[..ROOM_CHARS].to_string();
        Ok(RoomCode {
            room,
            host_fingerprint: host_fingerprint
                .chars()
                .filter(|c| *c != '-')
                .take(FINGERPRINT_CHARS)
                .collect(),
            server,
        })
    }

    /// The room name on the signaling server.
    pub fn room(&self) -> &str {
        &self.room
    }

    /// The start of the host's key fingerprint (compact form).
    pub fn host_fingerprint_prefix(&self) -> &str {
        &self.host_fingerprint
    }

    /// The signaling server, if the code names one.
    pub fn server(&self) -> Option<&ServerUrl> {
        self.server.as_ref()
    }

    /// The invite link a friend opens in a browser: the server's page
    /// `/play/` with the code in the fragment (which never reaches a
    /// server's log); `None` when the code names no server.
    pub fn invite_link(&self) -> Option<String> {
        let server = self.server.as_ref()?;
        let scheme = if server.is_tls() { "https" } else { "http" };
        let short = RoomCode {
            server: None,
            ..self.clone()
        };
        Some(format!("{scheme}://{}/play/#{short}", server.authority()))
    }

    /// Whether a full compact fingerprint begins with this code's prefix.
    pub fn matches_host(&self, compact_fingerprint: &str) -> bool {
        compact_fingerprint.starts_with(&self.host_fingerprint)
    }
}

impl fmt::Display for RoomCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let payload = format!("{}{}", self.room, self.host_fingerprint);
        let check = check_char(payload.as_bytes()) as char;
        let groups: Vec<&str> = (0..16).step_by(4).map(|i| &payload[i..i + 4]).collect();
        write!(f, "{}-{check}", groups.join("-"))?;
        match self.server.as_ref().map(|s| (s, s.socket_addr())) {
            Some((_, Some(addr))) => write!(f, "@{addr}")?,
            Some((server, None)) => write!(f, "@{server}")?,
            None => {}
        }
        Ok(())
    }
}

/// The code in an invite link (`http(s)://SERVER/play/#CODE&…`), with the
/// link's server unless the code names one; `None` when `text` is no link.
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

impl FromStr for RoomCode {
    type Err = RoomCodeError;

    /// Reads `CODE`, `CODE@HOST:PORT`, `CODE@ws(s)://SERVER`, or an invite
    /// link `http(s)://SERVER/play/#CODE[&…]`, whose server is the link's.
    fn from_str(text: &str) -> Result<RoomCode, RoomCodeError> {
        if let Some(code) = code_of_link(text.trim()) {
            return code;
        }
        let (code, server) = match text.trim().split_once('@') {
            Some((code, address)) => {
                let address = address.trim();
                let server = if address.contains("://") {
                    ServerUrl::parse(address).ok()
                } else {
                    address
                        .parse::<SocketAddr>()
                        .ok()
                        .map(ServerUrl::from_socket_addr)
                };
                let server = server.ok_or_else(|| RoomCodeError::Address {
                    found: address.chars().take(80).collect(),
                })?;
                (code, Some(server))
            }
            None => (text.trim(), None),
        };
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
        }
        if chars.len() != ROOM_CHARS + FINGERPRINT_CHARS + 1 {
            return Err(RoomCodeError::Length { found: chars.len() });
        }
        let (payload, check) = chars.split_at(16);
        if check_char(payload) != check[0] {
            return Err(RoomCodeError::Checksum);
        }
        let payload = String::from_utf8(payload.to_vec()).expect("ASCII");
        Ok(RoomCode {
            room: payload[..ROOM_CHARS].to_string(),
            host_fingerprint: payload[ROOM_CHARS..].to_string(),
            server,
        })
    }
}

/// The room a rematch of a game meets in: derived from the previous
/// game's room name (which only its players hold, not its spectators) and
/// its id, so both players find it without a new code.
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

    fn code() -> RoomCode {
        RoomCode::generate(
            "MFRG-GZDF-MZTW-Q2LK",
            Some(ServerUrl::from_socket_addr(
                "192.168.1.5:3536".parse().unwrap(),
            )),
        )
        .unwrap()
    }

    #[test]
    fn codes_round_trip_with_and_without_an_address() {
        let with = code();
        let text = with.to_string();
        assert!(text.ends_with("@192.168.1.5:3536"), "{text}");
        assert_eq!(text.parse::<RoomCode>(), Ok(with.clone()));
        assert_eq!(with.host_fingerprint_prefix(), "MFRGG");
        assert!(with.matches_host("MFRGGZDFMZTWQ2LK"));
        let without = RoomCode {
            server: None,
            ..with
        };
        assert_eq!(without.to_string().len(), 21);
        assert_eq!(
            without
                .to_string()
                .to_lowercase()
                .replace('-', " ")
                .parse::<RoomCode>(),
            Ok(without)
        );
    }

    #[test]
    fn a_code_with_a_server_makes_an_invite_link_that_reads_back_as_it() {
        let lan = RoomCode::generate(
            "MFRGGZDFMZTWQ2LK",
            Some(ServerUrl::from_socket_addr(
                "192.168.1.20:3536".parse().unwrap(),
            )),
        )
        .unwrap();
        let link = lan.invite_link().unwrap();
        assert!(
            link.starts_with("http://192.168.1.20:3536/play/#"),
            "{link}"
        );
        assert!(
            !link.contains('@'),
            "the link names the server once: {link}"
        );
        assert_eq!(link.parse::<RoomCode>().unwrap(), lan);
        let public = RoomCode::generate(
            "MFRGGZDFMZTWQ2LK",
            Some(ServerUrl::parse("wss://reversi.example").unwrap()),
        )
        .unwrap();
        let link = public.invite_link().unwrap();
        assert!(link.starts_with("https://reversi.example/play/#"), "{link}");
        assert_eq!(link.parse::<RoomCode>().unwrap(), public);
        assert_eq!(
            RoomCode::generate("MFRGGZDFMZTWQ2LK", None)
                .unwrap()
                .invite_link(),
            None
        );
    }

    #[test]
    fn an_invite_link_gives_its_code_and_its_server() {
        let code = code();
        let bare = RoomCode {
            server: None,
            ..code.clone()
        }
        .to_string();
        let lan: RoomCode = format!("http://192.168.1.5:3536/play/#{bare}&autojoin&name=Ben")
            .parse()
            .unwrap();
        assert_eq!(lan, code);
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
        assert_eq!(named, code);
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
            ..code()
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
    fn rooms_are_random_and_valid_room_names() {
        let a = code();
        let b = code();
        assert_ne!(a.room(), b.room());
        assert_eq!(a.room().len(), 11);
        assert!(a.room().chars().all(|c| c.is_ascii_alphanumeric()));
    }

    #[test]
    fn every_single_typo_and_neighbour_swap_is_caught() {
        let text = RoomCode {
            server: None,
            ..code()
        }
        .to_string();
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
        // Look-alike digits are forgiven.
        let text = RoomCode {
            server: None,
            ..code()
        }
        .to_string();
        let sloppy = text.replace('O', "0").replace('I', "1").replace('B', "8");
        assert_eq!(sloppy.parse::<RoomCode>().map(|c| c.to_string()), Ok(text));
    }
}
