//! Room names: 4–64 characters of `A-Z a-z 0-9 -`.

/// Shortest room name.
pub const MIN_LEN: usize = 4;
/// Longest room name.
pub const MAX_LEN: usize = 64;

/// Why a path is not a room name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RoomNameError {
    /// No room in the path.
    #[error("a room name is required: ws://HOST:PORT/<room>")]
    Missing,
    /// Too short or too long.
    #[error("invalid room name: expected {MIN_LEN} to {MAX_LEN} characters, found {found}")]
    Length {
        /// Characters found.
        found: usize,
    },
    /// A character outside `A-Z a-z 0-9 -`.
    #[error("invalid room name: only A-Z, a-z, 0-9 and - are allowed")]
    Character,
}

/// Checks a room name.
pub fn check_room_name(name: Option<&str>) -> Result<(), RoomNameError> {
    let name = name
        .filter(|n| !n.is_empty())
        .ok_or(RoomNameError::Missing)?;
    if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
        return Err(RoomNameError::Character);
    }
    if !(MIN_LEN..=MAX_LEN).contains(&name.len()) {
        return Err(RoomNameError::Length { found: name.len() });
    }
    Ok(())
}

/// A short digest of a room name for logs: room names are bearer secrets
/// (whoever knows one can join), so logs never show them.
pub fn room_tag(name: &str) -> String {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(name.as_bytes());
    digest[..4].iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_and_invalid_names() {
        for good in ["abcd", "ABCD-1234", &"a".repeat(64), "9-9-"] {
            assert_eq!(check_room_name(Some(good)), Ok(()), "{good}");
        }
        assert_eq!(check_room_name(None), Err(RoomNameError::Missing));
        assert_eq!(check_room_name(Some("")), Err(RoomNameError::Missing));
        assert_eq!(
            check_room_name(Some("abc")),
            Err(RoomNameError::Length { found: 3 })
        );
        assert_eq!(
            check_room_name(Some(&"a".repeat(65))),
            Err(RoomNameError::Length { found: 65 })
        );
        for bad in ["ab_cd", "ab cd", "abcé", "ab/cd", "ab.cd", "%41bcd"] {
            assert_eq!(
                check_room_name(Some(bad)),
                Err(RoomNameError::Character),
                "{bad}"
            );
        }
    }

    #[test]
    fn tags_hide_the_name() {
        let tag = room_tag("secret-room");
        assert_eq!(tag.len(), 8);
        assert!(!tag.contains("secret"));
        assert_eq!(tag, room_tag("secret-room"));
    }
}
