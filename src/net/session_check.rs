//! The session's safety property, checked against any sequence of inputs:
//! whatever arrives from the network, in whatever order, mixed with
//! connects, disconnects, local actions and the passing of time, the
//! session never panics, never rewrites or drops a record it holds, and
//! changes its verified state only by appending records that verify. The
//! fuzz target `session_inputs` and a property test run [`check_inputs`].

use super::session::{HostTerms, Output, Session};
use crate::engine::{Rules, Square};
use crate::match_log::rules_proposal::RulesProposal;
use crate::match_log::{Identity, verify_log};
use crate::random_player::SplitMix64;

/// The clock at the start of a checked run (ms since the epoch).
const T0: u64 = 1_796_000_000_000;

/// Delivers `outputs` of one side to the other, and what that one answers
/// back, until both are quiet (bounded: an honest exchange settles fast).
fn deliver(from: &mut Session, to: &mut Session, outputs: Vec<Output>, now: u64) {
    exchange(from, to, outputs, Vec::new(), now);
}

/// Delivers what each side has to say to the other until both are quiet.
fn exchange(a: &mut Session, b: &mut Session, a_says: Vec<Output>, b_says: Vec<Output>, now: u64) {
    let (mut to_b, mut to_a) = (sends(a_says), sends(b_says));
    for _ in 0..64 {
        if to_a.is_empty() && to_b.is_empty() {
            return;
        }
        for bytes in std::mem::take(&mut to_b) {
            to_a.extend(sends(b.receive(&bytes, now)));
        }
        for bytes in std::mem::take(&mut to_a) {
            to_b.extend(sends(a.receive(&bytes, now)));
        }
    }
}

fn sends(outputs: Vec<Output>) -> Vec<Vec<u8>> {
    outputs
        .into_iter()
        .filter_map(|o| match o {
            Output::Send(bytes) => Some(bytes),
            _ => None,
        })
        .collect()
}

/// A byte reader that yields zeros once the input runs out.
struct Input<'a>(&'a [u8]);

impl Input<'_> {
    fn byte(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }

    fn bytes(&mut self, n: usize) -> Vec<u8> {
        let n = n.min(self.0.len());
        let (taken, rest) = self.0.split_at(n);
        self.0 = rest;
        taken.to_vec()
    }

    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// What must hold between two states of the session under test.
fn check_step(before: &Session, after: &Session, what: &str) {
    let (old, new) = (before.records(), after.records());
    assert!(
        new.len() >= old.len() && new[..old.len()] == *old,
        "{what}: a record the session held was changed or dropped"
    );
    if new.len() > old.len() {
        verify_log(new)
            .unwrap_or_else(|e| panic!("{what}: the session appended a bad record: {e}"));
    } else {
        let phase = |s: &Session| s.verifier().map(|v| v.phase());
        assert_eq!(
            phase(before),
            phase(after),
            "{what}: the phase changed without a record"
        );
        assert_eq!(
            before.position(),
            after.position(),
            "{what}: the position changed without a record"
        );
    }
}

/// Runs one sequence of inputs against a session and checks its safety
/// property after every step; panics with the broken rule otherwise.
///
/// The first byte picks the side under test, the second how far an honest
/// game has gone before; each following byte is an input: connect,
/// disconnect, raw bytes from the peer, an honest message bent at one byte,
/// the next honest move of whoever's turn it is, a local move or
/// resignation, a record relayed another way (the mailbox: the peer's as
/// it is, or bent), or the clock jumping ahead (with a timeout claim).
/// Returns how many records the
/// session appended during the inputs.
pub fn check_inputs(data: &[u8]) -> usize {
    let mut input = Input(data);
    let host_id = Identity::from_seed(1);
    let terms = HostTerms {
        proposal: RulesProposal::fixed(Rules::default()),
        deadline_secs: 300,
    };
    let invite = crate::match_log::invite::InviteSecret::from_bytes(*b"K7QFM2XAPZ");
    let code = super::room_code::Invitation::typed(invite.clone(), &host_id.public_key());
    let mut host = Session::host(host_id, "Ann".into(), terms, &invite);
    let mut guest = Session::guest(Identity::from_seed(2), "Ben".into(), code);
    let mut now = T0;
    let (h, g) = (host.connected(), guest.connected());
    exchange(&mut host, &mut guest, h, g, now);
    let mut moves = SplitMix64::new(u64::from(input.byte()));
    let test_host = moves.next_u64().is_multiple_of(2);
    for _ in 0..(input.byte() % 40) {
        now += 1000;
        let mover = if host.my_turn() {
            &mut host
        } else if guest.my_turn() {
            &mut guest
        } else {
            break;
        };
        let legal: Vec<Square> = mover
            .position()
            .map(|p| p.legal_moves().squares().collect())
            .unwrap_or_default();
        let Some(&square) = legal.get(moves.next_u64() as usize % legal.len().max(1)) else {
            break;
        };
        let outputs = mover.play(square, now).expect("a legal move on its turn");
        if test_host {
            deliver(&mut host, &mut guest, outputs, now);
        } else {
            deliver(&mut guest, &mut host, outputs, now);
        }
    }
    let (mut victim, mut peer) = if test_host {
        (host, guest)
    } else {
        (guest, host)
    };
    // Honest messages to bend: the peer's hello and its records.
    let mut honest: Vec<Vec<u8>> = sends(peer.clone().connected());
    honest.extend(
        peer.records()
            .iter()
            .map(|r| super::wire::WireMessage::Record(r.to_bytes()).encode()),
    );

    let held = victim.records().len();
    let mut steps = 0;
    while !input.is_empty() && steps < 256 {
        steps += 1;
        let before = victim.clone();
        let op = input.byte();
        let what = format!("step {steps} (op {})", op % 8);
        match op % 8 {
            0 => {
                let (v, p) = (victim.connected(), peer.connected());
                exchange(&mut victim, &mut peer, v, p, now);
            }
            1 => victim.disconnected(),
            2 => {
                let n = usize::from(input.byte());
                let bytes = input.bytes(n);
                let _ = victim.receive(&bytes, now);
            }
            3 => {
                let pick = usize::from(input.byte()) % honest.len().max(1);
                if let Some(message) = honest.get(pick) {
                    let mut bent = message.clone();
                    let at = usize::from(input.byte()) % bent.len().max(1);
                    if let Some(b) = bent.get_mut(at) {
                        *b ^= input.byte() | 1;
                    }
                    let _ = victim.receive(&bent, now);
                }
            }
            4 => {
                now += u64::from(input.byte()) * 10_000;
                if let Ok(outputs) = victim.claim_timeout(now) {
                    deliver(&mut victim, &mut peer, outputs, now);
                }
            }
            5 => {
                // The game moves on honestly: whoever's turn it is plays
                // its first legal move.
                now += 1000;
                let first =
                    |s: &Session| s.position().and_then(|p| p.legal_moves().squares().next());
                if let (true, Some(square)) = (peer.my_turn(), first(&peer)) {
                    let outputs = peer.play(square, now).expect("legal");
                    honest.extend(sends(outputs.clone()));
                    deliver(&mut peer, &mut victim, outputs, now);
                } else if let (true, Some(square)) = (victim.my_turn(), first(&victim)) {
                    let outputs = victim.play(square, now).expect("legal");
                    deliver(&mut victim, &mut peer, outputs, now);
                }
            }
            6 => {
                now += 1000;
                if let Some(square) = Square::new(input.byte() % 64)
                    && let Ok(outputs) = victim.play(square, now)
                {
                    deliver(&mut victim, &mut peer, outputs, now);
                }
            }
            _ => match input.byte() % 16 {
                0 => {
                    if let Ok(outputs) = victim.resign(now) {
                        deliver(&mut victim, &mut peer, outputs, now);
                    }
                }
                // A record relayed another way (the mailbox): one of the
                // peer's, as it is or bent at one byte.
                sub @ (1 | 2) => {
                    let records = peer.records();
                    let pick = usize::from(input.byte()) % records.len().max(1);
                    if let Some(record) = records.get(pick) {
                        let mut bytes = record.to_bytes();
                        if sub == 2 {
                            let at = usize::from(input.byte()) % bytes.len().max(1);
                            bytes[at] ^= input.byte() | 1;
                        }
                        if let Ok(relayed) = crate::match_log::Record::decode(&bytes)
                            && let Ok(outputs) = victim.relayed(relayed, now)
                        {
                            deliver(&mut victim, &mut peer, outputs, now);
                        }
                    }
                }
                _ => {}
            },
        }
        check_step(&before, &victim, &what);
    }
    victim.records().len() - held
}

#[cfg(test)]
mod tests {
    use super::check_inputs;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        #[test]
        fn any_inputs_leave_the_session_sound(data in proptest::collection::vec(any::<u8>(), 0..600)) {
            check_inputs(&data);
        }
    }

    #[test]
    fn bent_records_relayed_another_way_change_nothing() {
        // Side, depth, then the peer's records relayed bent (7, 2, pick,
        // place, mask) and as they are (7, 1, pick): nothing new to take.
        let bent_only = check_inputs(&[0, 6, 7, 2, 0, 10, 4, 7, 2, 1, 40, 8, 7, 2, 3, 70, 2]);
        assert_eq!(bent_only, 0, "a bent record appends nothing");
    }

    #[test]
    fn honest_moves_under_the_check_grow_the_log_and_garbage_does_not() {
        // Side, depth, then the game moves on honestly (op 5) four times,
        // with a reconnect (op 0) between: every move reaches the session.
        let grown = check_inputs(&[1, 10, 5, 8, 0, 13, 5, 5, 21]);
        assert!(grown >= 2, "only {grown} records appended");
        // Raw garbage (op 2) and bent honest messages (op 3) append nothing.
        let garbage = [
            1, 10, 2, 5, 1, 2, 3, 4, 5, 3, 0, 7, 9, 3, 1, 2, 3, 2, 3, 0xff, 0, 1,
        ];
        assert_eq!(check_inputs(&garbage), 0);
    }
}
