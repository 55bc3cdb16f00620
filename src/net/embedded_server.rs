//! The signaling server a host runs inside itself when no server is
//! configured, so two machines on one LAN need nothing else. When the
//! program was built with the browser bundle (`web/build.sh` before
//! `cargo build`), the server also serves the page at `/play/`, so a
//! friend on the LAN opens the invite link on a phone and plays.

use std::net::{IpAddr, SocketAddr};

use reversi_signaling::{RunningServer, StartError};

use super::server_url::ServerUrl;

/// A running embedded server and the addresses to reach it.
#[derive(Debug)]
pub struct EmbeddedServer {
    /// The server (shut it down when the game ends).
    pub server: RunningServer,
    /// The address this program connects to.
    pub local: ServerUrl,
    /// The address to put in the room code for the guest.
    pub advertised: SocketAddr,
}

/// The first IPv4 address of this machine that is not loopback.
pub fn lan_address() -> IpAddr {
    if_addrs::get_if_addrs()
        .ok()
        .and_then(|ifaces| {
            ifaces
                .into_iter()
                .map(|i| i.ip())
                .find(|ip| ip.is_ipv4() && !ip.is_loopback())
        })
        .unwrap_or(IpAddr::from([127, 0, 0, 1]))
}

include!(concat!(env!("OUT_DIR"), "/web_bundle.rs"));

/// The browser bundle built into this program, if it was.
pub fn built_in_bundle() -> Option<reversi_signaling::web_assets::WebAssets> {
    reversi_signaling::web_assets::WebAssets::from_files(
        WEB_BUNDLE
            .iter()
            .map(|(name, bytes)| (name.to_string(), bytes.to_vec())),
    )
}

/// Starts the server on `listen` or, if that port is taken, on any free
/// port of the same address. With an unspecified address (`0.0.0.0`) the
/// code advertises this machine's LAN address.
pub async fn start_embedded(listen: SocketAddr) -> Result<EmbeddedServer, StartError> {
    let config = reversi_signaling::Config {
        web: built_in_bundle(),
        ..reversi_signaling::Config::default()
    };
    let retry = config.clone();
    let server = match reversi_signaling::start(listen, config).await {
        Ok(server) => server,
        Err(_) => reversi_signaling::start(SocketAddr::new(listen.ip(), 0), retry).await?,
    };
    let port = server.addr.port();
    let (local, advertised) = if listen.ip().is_unspecified() {
        (IpAddr::from([127, 0, 0, 1]), lan_address())
    } else {
        (listen.ip(), listen.ip())
    };
    Ok(EmbeddedServer {
        local: ServerUrl::from_socket_addr(SocketAddr::new(local, port)),
        advertised: SocketAddr::new(advertised, port),
        server,
    })
}

/// Starts the embedded server again on the port a game's room file
/// recorded (on every interface), so the opponent's code still reaches it:
/// for a host resuming a game, or meeting its opponent for a rematch.
pub async fn restart_embedded(
    was: Option<SocketAddr>,
) -> Result<Option<RunningServer>, StartError> {
    match was {
        Some(addr) => Ok(Some(
            start_embedded(SocketAddr::new(IpAddr::from([0, 0, 0, 0]), addr.port()))
                .await?
                .server,
        )),
        None => Ok(None),
    }
}
