//! The hello each side sends when it connects: writing ours, and taking
//! the peer's (its protocol, key, seat, invitation proof and log head).

use super::{
    DisconnectReason, Divergence, Event, EvidenceReason, HaltReason, Output, Peer, Session, Start,
    message,
};
use crate::match_log::PublicKey;
use crate::match_log::invite::{check_hello_proof, hello_proof};
use crate::match_log::record::{Record, Seat};
use crate::net::refusal::Refusal;
use crate::net::room_code::Invitation;
use crate::net::wire::{Hello, PEER_PROTOCOL, WireMessage};

impl Session {
    pub(super) fn hello(&self) -> WireMessage {
        WireMessage::Hello(Hello {
            protocol: PEER_PROTOCOL,
            seat: self.me,
            name: self.name.clone(),
            key: self.identity.public_key().to_bytes(),
            records: self.records.len() as u32,
            head: self.records.last().map_or([0; 32], Record::hash),
            invite_proof: self
                .invite_key
                .as_ref()
                .map(|k| hello_proof(k, self.me, &self.identity.public_key()).to_vec()),
        })
    }

    pub(super) fn on_hello(&mut self, bytes: &[u8], hello: Hello, now_ms: u64) -> Vec<Output> {
        if hello.protocol != PEER_PROTOCOL {
            let refusal = Refusal::Version {
                found: hello.protocol,
            };
            let mut out = self.reject(bytes, refusal.clone());
            out.push(Output::Disconnect(DisconnectReason::Refused(refusal)));
            return out;
        }
        if hello.seat == self.me {
            let refusal = Refusal::SameSeat(self.me);
            let mut out = self.reject(bytes, refusal.clone());
            out.push(Output::Disconnect(DisconnectReason::Refused(refusal)));
            return out;
        }
        let Some(key) = PublicKey::from_bytes(&hello.key) else {
            let mut out = self.reject(bytes, Refusal::InvalidKey);
            out.push(Output::Disconnect(DisconnectReason::Refused(
                Refusal::InvalidKey,
            )));
            return out;
        };
        let fingerprint = key.fingerprint();
        // The peer must be the one the code or the log names.
        let expected = match (&self.verifier, &self.start) {
            // An open game not yet accepted: any guest with the room code
            // may accept (the acceptance must show the room secret).
            (Some(v), _) if v.player(hello.seat).is_none() => {
                (v.player(Seat::Host).is_some_and(|h| h.key != key))
                    .then_some(())
                    .ok_or(Refusal::GuestIsHost)
            }
            (Some(v), _) => (v.player(hello.seat).is_some_and(|p| p.key == key))
                .then_some(())
                .ok_or_else(|| Refusal::NotThePlayer {
                    fingerprint: fingerprint.to_string(),
                    seat: hello.seat,
                }),
            (None, Start::Guest { host, .. }) if !host.admits(&key) => {
                Err(Refusal::NotTheCodesHost {
                    fingerprint: fingerprint.to_string(),
                    expected: Box::new(host.clone()),
                })
            }
            // A typed code names only the start of the host's fingerprint,
            // which a server can match with a key of its own: the host
            // must also show that it holds the code's secret.
            (
                None,
                Start::Guest {
                    host,
                    invitation: Some(invitation),
                },
            ) if matches!(**invitation, Invitation::Secret { .. })
                && !host.is_exact()
                && !self.proves_invitation(&hello, &key) =>
            {
                Err(Refusal::HostWithoutCode {
                    fingerprint: fingerprint.to_string(),
                })
            }
            (None, Start::Guest { .. }) => Ok(()),
            (None, Start::Host(_)) => match &self.rematch {
                Some(r) if r.opponent != key => Err(Refusal::NotTheRematchOpponent {
                    fingerprint: fingerprint.to_string(),
                }),
                Some(_) => Ok(()),
                None if !self.proves_invitation(&hello, &key) => Err(Refusal::GuestWithoutCode {
                    fingerprint: fingerprint.to_string(),
                }),
                None => Ok(()),
            },
            (None, _) => Ok(()),
        };
        if let Err(refusal) = expected {
            let mut out = self.reject(bytes, refusal.clone());
            out.push(Output::Disconnect(DisconnectReason::Refused(refusal)));
            return out;
        }
        // A repeated hello (see `heartbeat`) is not news.
        let known = self
            .peer
            .as_ref()
            .is_some_and(|p| p.key == key && p.name == hello.name);
        self.peer = Some(Peer {
            key,
            name: hello.name.clone(),
        });
        let mut out = Vec::new();
        if !known {
            let safety =
                crate::match_log::safety_code::SafetyCode::of(&self.identity.public_key(), &key);
            out.push(Output::Event(Event::PeerIdentified {
                name: hello.name.clone(),
                fingerprint: fingerprint.to_string(),
                safety_code: safety.to_string(),
                safety_words: safety.words(),
            }));
        }
        // Bring the peer up to date, or notice that the logs disagree.
        let theirs = hello.records as usize;
        let ours = self.records.len();
        if theirs <= ours {
            let agrees = theirs == 0 || self.records[theirs - 1].hash() == hello.head;
            if !agrees {
                let reason = HaltReason::Diverged(Divergence::Head {
                    records: theirs as u32,
                    theirs: hello.head,
                    ours: self.records[theirs - 1].hash(),
                });
                let evidence = vec![Output::Evidence {
                    bytes: bytes.to_vec(),
                    reason: EvidenceReason::Halted(reason.clone()),
                }];
                return self.halt(reason, evidence);
            }
            for record in &self.records[theirs..] {
                out.push(message(&WireMessage::Record(record.to_bytes())));
            }
        }
        // The peer's head is ours (or it is ahead and sends what we
        // lack): signing may go on.
        self.held_for_heads = false;
        out.extend(self.advance(now_ms));
        out
    }

    /// Whether `hello` carries the invite key's signature over the peer's
    /// seat and key (never, when this side holds no code).
    pub(super) fn proves_invitation(&self, hello: &Hello, key: &PublicKey) -> bool {
        match (&self.invite_key, hello.invite_proof()) {
            (Some(invite), Some(proof)) => {
                check_hello_proof(&invite.public_key(), hello.seat, key, &proof)
            }
            _ => false,
        }
    }
}
