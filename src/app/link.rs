//! The links that open the app at a place (the text after `#` in the
//! browser's address, or what a test hands the window): parsed into a
//! [`Link`] first, then followed, so the grammar is tested without a
//! window.
//!
//! - `computer[&level=1..10][&color=black|white|random]`: a game against
//!   the computer with the rules on Home;
//! - `host[&name=NAME]`: host a game with the rules on Home;
//! - `CODE[&autojoin][&name=NAME][&from=HOST]`: the join screen with the
//!   code filled in (joining at once with `autojoin`); `from` is the
//!   host's name, shown, never trusted;
//! - `key`: Settings at *Your key*, its passphrase field ready.

use std::str::FromStr;

use super::settings::ColorChoice;
use crate::net::room_code::RoomCode;

/// The longest name a link may carry, in characters.
const MAX_NAME: usize = 40;

/// A parsed link.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Link {
    /// The empty fragment: stay where the app is.
    Nothing,
    /// Settings at *Your key*.
    Key,
    /// A game against the computer; what is not given stays as set.
    Computer {
        /// The computer's level.
        level: Option<u8>,
        /// The person's colour.
        color: Option<ColorChoice>,
    },
    /// Host a game at once.
    Host {
        /// The name to play under (remembered).
        name: Option<String>,
    },
    /// Join a game.
    Invite {
        /// The room code, as the link gave it (checked to parse).
        code: String,
        /// Join at once rather than show the join screen's button.
        autojoin: bool,
        /// The name to play under (remembered).
        name: Option<String>,
        /// The host's name, as their invite gave it.
        from: Option<String>,
    },
}

/// Why a link was refused; the text is what the player reads.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LinkError {
    /// A `key=value` or word the grammar does not have.
    #[error("the link has an unknown part: {0}")]
    UnknownPart(String),
    /// `level=` outside 1–10.
    #[error("the computer's level is 1–10, not {0}")]
    Level(String),
    /// `color=` other than the three choices.
    #[error("a colour is black, white or random, not {0}")]
    Color(String),
    /// `name=` empty or too long.
    #[error("a name in a link is 1–{MAX_NAME} characters")]
    Name,
    /// The first part is no room code.
    #[error("the link names no game: {0}")]
    NoGame(String),
}

impl LinkError {
    /// The reason in the player's language.
    pub fn words(&self) -> String {
        use super::i18n::t;
        match self {
            LinkError::UnknownPart(part) => t!("link-unknown-part", part = part.as_str()),
            LinkError::Level(found) => t!("link-level", found = found.as_str()),
            LinkError::Color(found) => t!("link-color", found = found.as_str()),
            LinkError::Name => t!("link-name", max = MAX_NAME),
            LinkError::NoGame(why) => t!("link-no-game", why = why.as_str()),
        }
    }
}

impl FromStr for Link {
    type Err = LinkError;

    fn from_str(fragment: &str) -> Result<Link, LinkError> {
        let fragment = fragment.trim_start_matches('#');
        if fragment.is_empty() {
            return Ok(Link::Nothing);
        }
        let mut parts = fragment.split('&');
        let first = parts.next().unwrap_or_default();
        let unknown = |part: &str| LinkError::UnknownPart(part.to_string());
        match first {
            "key" => match parts.next() {
                None => Ok(Link::Key),
                Some(part) => Err(unknown(part)),
            },
            "computer" => {
                let (mut level, mut color) = (None, None);
                for part in parts {
                    match part.split_once('=') {
                        Some(("level", n)) => match n.parse::<u8>() {
                            Ok(l @ 1..=10) => level = Some(l),
                            _ => return Err(LinkError::Level(n.to_string())),
                        },
                        Some(("color", c)) => {
                            color = Some(match c {
                                "black" => ColorChoice::Black,
                                "white" => ColorChoice::White,
                                "random" => ColorChoice::Random,
                                _ => return Err(LinkError::Color(c.to_string())),
                            })
                        }
                        _ => return Err(unknown(part)),
                    }
                }
                Ok(Link::Computer { level, color })
            }
            "host" => {
                let mut name = None;
                for part in parts {
                    match part.split_once('=') {
                        Some(("name", n)) => name = Some(checked_name(n)?),
                        _ => return Err(unknown(part)),
                    }
                }
                Ok(Link::Host { name })
            }
            code => {
                let code = percent_decoded(code);
                if let Err(e) = code.parse::<RoomCode>() {
                    return Err(LinkError::NoGame(e.to_string()));
                }
                let (mut autojoin, mut name, mut from) = (false, None, None);
                for part in parts {
                    match part.split_once('=') {
                        None if part == "autojoin" => autojoin = true,
                        Some(("name", n)) => name = Some(checked_name(n)?),
                        // The host's name is only shown: one that does not
                        // fit is left out rather than refusing the invite.
                        Some(("from", n)) => from = checked_name(n).ok(),
                        _ => return Err(unknown(part)),
                    }
                }
                Ok(Link::Invite {
                    code,
                    autojoin,
                    name,
                    from,
                })
            }
        }
    }
}

/// A name from a link, decoded and trimmed: 1–40 characters.
fn checked_name(encoded: &str) -> Result<String, LinkError> {
    let name = percent_decoded(encoded);
    let name = name.trim();
    if name.is_empty() || name.chars().count() > MAX_NAME {
        return Err(LinkError::Name);
    }
    Ok(name.to_string())
}

/// `link` with the host's name added (`&from=NAME`), so that the friend's
/// join screen can say who invites them.
pub(super) fn invite_from(link: String, host_name: &str) -> String {
    let name = host_name.trim();
    if name.is_empty() {
        return link;
    }
    let mut out = link;
    out.push_str("&from=");
    for byte in name.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'_' | b'.' | b'~') {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// `%XX` escapes and `+` decoded, as in a link's fragment (what does not
/// decode is kept as it is).
fn percent_decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let escaped = (bytes[i] == b'%')
            .then(|| bytes.get(i + 1..i + 3))
            .flatten()
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], escaped) {
            (_, Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (b'+', None) => {
                out.push(b' ');
                i += 1;
            }
            (byte, None) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_computer_link_takes_a_level_and_a_colour() {
        assert_eq!(
            "#computer&level=7&color=white".parse(),
            Ok(Link::Computer {
                level: Some(7),
                color: Some(ColorChoice::White)
            })
        );
        assert_eq!(
            "computer".parse(),
            Ok(Link::Computer {
                level: None,
                color: None
            })
        );
        assert_eq!(
            "computer&level=11".parse::<Link>(),
            Err(LinkError::Level("11".into()))
        );
        assert_eq!(
            "computer&color=red".parse::<Link>(),
            Err(LinkError::Color("red".into()))
        );
        assert_eq!(
            "computer&speed=3".parse::<Link>(),
            Err(LinkError::UnknownPart("speed=3".into()))
        );
    }

    #[test]
    fn names_are_decoded_and_bounded() {
        assert_eq!(
            "host&name=Ada%20L.".parse(),
            Ok(Link::Host {
                name: Some("Ada L.".into())
            })
        );
        assert_eq!("host&name=+".parse::<Link>(), Err(LinkError::Name));
        let long = "x".repeat(41);
        assert_eq!(
            format!("host&name={long}").parse::<Link>(),
            Err(LinkError::Name)
        );
        assert_eq!(percent_decoded("%E5%B0%86%zz+a"), "将%zz a");
    }

    #[test]
    fn an_invite_link_round_trips_the_host_name_and_refuses_a_bad_code() {
        let key = crate::match_log::Identity::from_secret_bytes(&[1; 32]).public_key();
        let code = RoomCode::generate(&key, None).unwrap();
        let link = invite_from(format!("{code}&autojoin"), "Zoë & co");
        match link.parse::<Link>() {
            Ok(Link::Invite {
                code: parsed,
                autojoin,
                name,
                from,
            }) => {
                assert_eq!(parsed, code.to_string());
                assert!(autojoin);
                assert_eq!(name, None);
                assert_eq!(from.as_deref(), Some("Zoë & co"));
            }
            other => panic!("not an invite: {other:?}"),
        }
        assert!(matches!(
            "NOT-A-CODE".parse::<Link>(),
            Err(LinkError::NoGame(_))
        ));
        assert_eq!("".parse(), Ok(Link::Nothing));
        assert_eq!("#key".parse(), Ok(Link::Key));
    }
}
