//! Setting a network game up: the code, the session and the room it is
//! played in, decided in one place for `reversi host`, `join` and
//! `resume`, the desktop window and the browser page. What differs
//! between them stays with them: where the records are kept (a log file,
//! the page's storage) and whether an embedded server is started.

use std::time::Duration;

use super::room_code::RoomCode;
use super::server_url::ServerUrl;
use super::session::{HostTerms, ResumeError, Session};
use crate::match_log::{Identity, Record};

/// How long a guest waits for the host to appear in the room before it
/// says the code or the host is wrong.
pub const JOIN_WAIT: Duration = Duration::from_secs(30);

/// Why a game could not be set up.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// A joining side knows no signaling server to meet the host through.
    #[error("this code names no server: {hint}")]
    NoServer {
        /// Where the player can name one (a flag, a setting).
        hint: &'static str,
    },
    /// No random room name could be drawn.
    #[error("no random room name: {0}")]
    Random(getrandom::Error),
    /// The stored log cannot be played on.
    #[error(transparent)]
    Resume(#[from] ResumeError),
    /// A code of version 1 for a live game: its host runs an older
    /// version, and such a code lets the signaling server answer in the
    /// host's place.
    #[error(
        "this room code comes from an older version of Reversi (17 characters; codes are now 21): ask the host to update and send a new code"
    )]
    OldCode,
}

/// A game hosted in a fresh room.
#[derive(Debug)]
pub struct Hosted {
    /// The code the friend joins with (naming `advertised`).
    pub code: RoomCode,
    /// The host's session, waiting for the guest.
    pub session: Session,
    /// `ws(s)://SERVER/ROOM`, as this side connects to it.
    pub room_url: String,
}

/// Hosts a game on `server`: a fresh room, and a code that names
/// `advertised` (how the friend reaches the server, which for an
/// embedded server is not the address this side uses).
pub fn host(
    identity: Identity,
    name: &str,
    terms: HostTerms,
    server: &ServerUrl,
    advertised: Option<ServerUrl>,
) -> Result<Hosted, SetupError> {
    let code =
        RoomCode::generate(&identity.public_key(), advertised).map_err(SetupError::Random)?;
    let room_url = server.room_url(code.room());
    let secret = code.secret().expect("a new code is of version 2");
    let session = Session::host(identity, name.to_string(), terms, secret);
    Ok(Hosted {
        code,
        session,
        room_url,
    })
}

/// The server a guest meets the host through: the one the player chose
/// (a flag, a setting) before the one the code names, and `fallback`
/// (in a browser, the server the page came from) last.
pub fn join_server(
    code: &RoomCode,
    chosen: Option<ServerUrl>,
    fallback: Option<ServerUrl>,
    hint: &'static str,
) -> Result<ServerUrl, SetupError> {
    chosen
        .or_else(|| code.server().cloned())
        .or(fallback)
        .ok_or(SetupError::NoServer { hint })
}

/// A guest's new session for `code`, and the room's URL on `server`.
pub fn join(
    identity: Identity,
    name: &str,
    code: &RoomCode,
    server: &ServerUrl,
) -> Result<(Session, String), SetupError> {
    if code.is_legacy() {
        return Err(SetupError::OldCode);
    }
    let session = Session::guest(identity, name.to_string(), code.invitation().clone());
    Ok((session, server.room_url(code.room())))
}

/// A session that goes on from stored records. `held`: the store may have
/// lost this side's last record (a browser's storage, a crash between
/// signing and writing), so nothing is signed until the peer has said
/// where the game stands; a record signed twice differently would be an
/// equivocation.
pub fn resume(identity: Identity, records: Vec<Record>, held: bool) -> Result<Session, SetupError> {
    let mut session = Session::resume(identity, records)?;
    if held {
        session.hold_until_heads_agree();
    }
    Ok(session)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Rules;
    use crate::match_log::rules_proposal::RulesProposal;

    fn server(text: &str) -> ServerUrl {
        ServerUrl::parse(text).unwrap()
    }

    #[test]
    fn a_hosted_code_names_the_advertised_server_and_the_host_key() {
        let terms = HostTerms {
            proposal: RulesProposal::fixed(Rules::default()),
            deadline_secs: 60,
        };
        let local = server("ws://127.0.0.1:3536");
        let lan = server("ws://192.168.1.5:3536");
        let hosted = host(
            Identity::from_seed(1),
            "Ann",
            terms,
            &local,
            Some(lan.clone()),
        )
        .unwrap();
        assert_eq!(hosted.code.server(), Some(&lan));
        assert!(
            hosted
                .code
                .matches_host(&Identity::from_seed(1).public_key())
        );
        assert_eq!(
            hosted.room_url,
            format!("ws://127.0.0.1:3536/{}", hosted.code.room())
        );
        // The guest's session for that code meets the host in the same room.
        let code: RoomCode = hosted.code.to_string().parse().unwrap();
        let (_, url) = join(Identity::from_seed(2), "Ben", &code, &local).unwrap();
        assert_eq!(url, hosted.room_url);
    }

    #[test]
    fn a_guest_meets_the_host_through_the_chosen_server_then_the_codes_then_the_fallback() {
        let ann = Identity::from_seed(1).public_key();
        let named: RoomCode = RoomCode::generate(&ann, Some(server("ws://10.0.0.1:1")))
            .unwrap()
            .to_string()
            .parse()
            .unwrap();
        let bare: RoomCode = RoomCode::generate(&ann, None)
            .unwrap()
            .to_string()
            .parse()
            .unwrap();
        let chosen = server("wss://play.example.org");
        let page = server("ws://10.0.0.9:2");
        let pick = |code: &RoomCode, chosen: Option<&ServerUrl>, page: Option<&ServerUrl>| {
            join_server(code, chosen.cloned(), page.cloned(), "pass --server")
        };
        assert_eq!(pick(&named, Some(&chosen), Some(&page)), Ok(chosen.clone()));
        assert_eq!(
            pick(&named, None, Some(&page)),
            Ok(server("ws://10.0.0.1:1"))
        );
        assert_eq!(pick(&bare, None, Some(&page)), Ok(page));
        assert_eq!(
            pick(&bare, None, None),
            Err(SetupError::NoServer {
                hint: "pass --server"
            })
        );
    }
}
