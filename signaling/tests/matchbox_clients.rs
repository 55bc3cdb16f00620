//! matchbox's own native clients meet through this server and exchange a
//! packet over a real WebRTC data channel on loopback.

use std::time::{Duration, Instant};

use matchbox_socket::{PeerState, RtcIceServerConfig, WebRtcSocket};
use reversi_signaling::{Config, start};

/// No ICE servers: on loopback the host candidates are enough, and the
/// library's default public STUN hosts do not answer offline.
fn socket(url: &str) -> (WebRtcSocket, matchbox_socket::MessageLoopFuture) {
    WebRtcSocket::builder(url)
        .ice_server(RtcIceServerConfig {
            urls: vec![],
            username: None,
            credential: None,
        })
        .add_reliable_channel()
        .build()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_matchbox_sockets_exchange_a_packet_over_webrtc() {
    let server = start("127.0.0.1:0".parse().unwrap(), Config::default())
        .await
        .unwrap();
    let url = format!("ws://{}/webrtc-room", server.addr);
    let (mut a, a_loop) = socket(&url);
    let (mut b, b_loop) = socket(&url);
    tokio::spawn(a_loop);
    tokio::spawn(b_loop);

    let deadline = Instant::now() + Duration::from_secs(20);
    let mut b_peer = None;
    let mut received = None;
    while received.is_none() {
        assert!(
            Instant::now() < deadline,
            "no WebRTC connection within 20 s"
        );
        for (peer, state) in a.update_peers() {
            if state == PeerState::Connected {
                a.channel_mut(0).send(b"f5"[..].into(), peer);
            }
        }
        for (peer, state) in b.update_peers() {
            if state == PeerState::Connected {
                b_peer = Some(peer);
            }
        }
        for (from, packet) in b.channel_mut(0).receive() {
            received = Some((from, packet));
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let (from, packet) = received.unwrap();
    assert_eq!(&packet[..], b"f5");
    assert_eq!(
        Some(from),
        b_peer,
        "the packet came from the connected peer"
    );
}
