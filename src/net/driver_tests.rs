//! The driver in memory: a room of sockets that can lose packets, drop a
//! data channel or refuse every connection, and a clock that moves only
//! while the drivers wait. Reconnection, backoff and the guest's socket
//! replacement are checked here to the millisecond; the real-WebRTC games
//! in `tests/network_faults.rs` check the same paths on real sockets.

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::pin::Pin;
use std::rc::Rc;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use futures::future::LocalBoxFuture;

use super::*;
use crate::engine::Rules;
use crate::match_log::rules_proposal::RulesProposal;
use crate::match_log::{Identity, Record, verify_log};
use crate::net::link::{BACKOFF_FIRST, BACKOFF_MAX, SILENCE_LIMIT};
use crate::net::session::HostTerms;
use crate::net::transport::RoomStatus;

const ROOM: &str = "memory://test/room";

/// A clock that moves only when someone sleeps on it.
#[derive(Clone)]
struct FakeClock {
    base: Instant,
    elapsed: Rc<Cell<Duration>>,
}

impl FakeClock {
    fn new() -> FakeClock {
        FakeClock {
            base: Instant::now(),
            elapsed: Rc::default(),
        }
    }

    fn elapsed(&self) -> Duration {
        self.elapsed.get()
    }

    fn advance(&self, by: Duration) {
        self.elapsed.set(self.elapsed.get() + by);
    }
}

impl Clock for FakeClock {
    fn now(&self) -> Instant {
        self.base + self.elapsed.get()
    }

    fn wall_ms(&self) -> u64 {
        1_796_000_000_000 + self.elapsed.get().as_millis() as u64
    }

    fn sleep(&self, duration: Duration) -> LocalBoxFuture<'static, ()> {
        self.advance(duration);
        Box::pin(YieldOnce(false))
    }
}

/// Lets the other futures of a `join` run once (the drivers share one
/// thread, and nothing here ever really waits).
struct YieldOnce(bool);

impl Future for YieldOnce {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.0 {
            return Poll::Ready(());
        }
        self.0 = true;
        cx.waker().wake_by_ref();
        Poll::Pending
    }
}

/// What happened to a socket, for the assertions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Happening {
    Opened,
    Closed,
}

struct Socket {
    id: PeerId,
    owner: &'static str,
    alive: bool,
    /// Whether the room let it in.
    admitted: bool,
    /// Why it failed, for the driver to take.
    failure: Option<String>,
    events: VecDeque<TransportEvent>,
    /// The sockets it has a data channel with.
    linked: Vec<PeerId>,
}

/// The signaling server, the room and the paths between its sockets.
struct World {
    clock: FakeClock,
    sockets: Vec<Socket>,
    /// Every packet is lost while the clock is in this span (a dead path
    /// that neither side is told about).
    blackhole: Option<(Duration, Duration)>,
    /// Every socket fails at once while the clock is before this.
    offline_until: Duration,
    log: Vec<(&'static str, Happening, Duration)>,
}

impl World {
    fn new(clock: &FakeClock) -> Rc<RefCell<World>> {
        Rc::new(RefCell::new(World {
            clock: clock.clone(),
            sockets: Vec::new(),
            blackhole: None,
            offline_until: Duration::ZERO,
            log: Vec::new(),
        }))
    }

    fn socket(&mut self, id: PeerId) -> Option<&mut Socket> {
        self.sockets.iter_mut().find(|s| s.id == id && s.alive)
    }

    fn live_in_room(&self) -> usize {
        self.sockets
            .iter()
            .filter(|s| s.alive && s.admitted)
            .count()
    }

    /// When each socket of `owner` opened.
    fn opened(&self, owner: &str) -> Vec<Duration> {
        self.happened(owner, Happening::Opened)
    }

    fn happened(&self, owner: &str, what: Happening) -> Vec<Duration> {
        self.log
            .iter()
            .filter(|(o, h, _)| *o == owner && *h == what)
            .map(|(_, _, at)| *at)
            .collect()
    }

    /// The data channel between the two players fails; both sockets stay
    /// in the room.
    fn drop_channels(&mut self) {
        let pairs: Vec<(PeerId, PeerId)> = self
            .sockets
            .iter()
            .filter(|s| s.alive)
            .flat_map(|s| s.linked.iter().map(move |&other| (s.id, other)))
            .collect();
        for (me, other) in pairs {
            if let Some(socket) = self.socket(me) {
                socket.linked.retain(|&p| p != other);
                socket.events.push_back(TransportEvent::Disconnected(other));
            }
        }
    }

    fn close(&mut self, id: PeerId) {
        let now = self.clock.elapsed();
        let Some(socket) = self.socket(id) else {
            return;
        };
        socket.alive = false;
        let (owner, linked) = (socket.owner, std::mem::take(&mut socket.linked));
        self.log.push((owner, Happening::Closed, now));
        for other in linked {
            if let Some(peer) = self.socket(other) {
                peer.linked.retain(|&p| p != id);
                peer.events.push_back(TransportEvent::Disconnected(id));
            }
        }
    }
}

/// One player's way into the world.
struct MemoryNetwork {
    world: Rc<RefCell<World>>,
    owner: &'static str,
}

impl Network for MemoryNetwork {
    fn open(&mut self, room_url: &str, _ice: &IceServers) -> Box<dyn Connection> {
        assert_eq!(room_url, ROOM);
        let mut world = self.world.borrow_mut();
        let now = world.clock.elapsed();
        let id = PeerId(uuid::Uuid::from_u128(world.sockets.len() as u128 + 1));
        world.log.push((self.owner, Happening::Opened, now));
        let failure = if now < world.offline_until {
            Some("network unreachable".to_string())
        } else if world.live_in_room() >= 2 {
            Some("the server refused the socket: room is full".to_string())
        } else {
            None
        };
        let admitted = failure.is_none();
        let mut socket = Socket {
            id,
            owner: self.owner,
            alive: admitted,
            admitted,
            failure,
            events: VecDeque::new(),
            linked: Vec::new(),
        };
        if admitted {
            // The handshake is instant here: whoever is in the room gets a
            // data channel with the newcomer.
            for other in world.sockets.iter_mut().filter(|s| s.alive) {
                other.linked.push(id);
                other.events.push_back(TransportEvent::Connected(id));
                socket.linked.push(other.id);
                socket.events.push_back(TransportEvent::Connected(other.id));
            }
        }
        world.sockets.push(socket);
        Box::new(MemoryConnection {
            world: Rc::clone(&self.world),
            id,
        })
    }

    fn room_status(&self, _room_url: &str) -> LocalBoxFuture<'static, Option<RoomStatus>> {
        let world = self.world.borrow();
        let answer = (world.clock.elapsed() >= world.offline_until).then(|| {
            let peers = world.live_in_room() as u64;
            RoomStatus {
                peers,
                full: peers >= 2,
            }
        });
        Box::pin(std::future::ready(answer))
    }
}

struct MemoryConnection {
    world: Rc<RefCell<World>>,
    id: PeerId,
}

impl Connection for MemoryConnection {
    fn wait(&mut self, timeout: Duration) -> LocalBoxFuture<'_, ()> {
        let world = self.world.borrow();
        let idle = world
            .sockets
            .iter()
            .find(|s| s.id == self.id)
            .is_none_or(|s| s.events.is_empty());
        if idle {
            world.clock.advance(timeout);
        }
        Box::pin(YieldOnce(false))
    }

    fn route(&self, _peer: PeerId) -> Option<Route> {
        Some(Route::Direct)
    }

    fn admitted(&mut self) -> bool {
        self.world
            .borrow_mut()
            .sockets
            .iter()
            .any(|s| s.id == self.id && s.admitted)
    }

    fn take_failure(&mut self) -> Option<String> {
        let mut world = self.world.borrow_mut();
        let socket = world.sockets.iter_mut().find(|s| s.id == self.id)?;
        socket.failure.take()
    }

    fn poll(&mut self) -> Vec<TransportEvent> {
        let mut world = self.world.borrow_mut();
        match world.socket(self.id) {
            Some(socket) => socket.events.drain(..).collect(),
            None => Vec::new(),
        }
    }

    fn send(&mut self, peer: PeerId, bytes: Vec<u8>) {
        let mut world = self.world.borrow_mut();
        let now = world.clock.elapsed();
        if world
            .blackhole
            .is_some_and(|(from, to)| from <= now && now < to)
        {
            return;
        }
        let me = self.id;
        let linked = world.socket(me).is_some_and(|s| s.linked.contains(&peer));
        if let (true, Some(to)) = (linked, world.socket(peer)) {
            to.events.push_back(TransportEvent::Received(me, bytes));
        }
    }
}

impl Drop for MemoryConnection {
    fn drop(&mut self) {
        self.world.borrow_mut().close(self.id);
    }
}

/// Records kept in memory, shared with the test.
#[derive(Clone, Default)]
struct MemoryStore(Arc<Mutex<Vec<Record>>>);

impl MemoryStore {
    fn records(&self) -> Vec<Record> {
        self.0.lock().unwrap().clone()
    }
}

impl GameStore for MemoryStore {
    fn append(&mut self, record: &Record) -> Result<(), StoreError> {
        self.0.lock().unwrap().push(record.clone());
        Ok(())
    }

    fn save_evidence(&mut self, _bytes: &[u8], reason: &str) {
        panic!("no evidence expected here: {reason}");
    }
}

/// Plays the first legal move; `on_record` is told how many records
/// there are each time it is asked (how a test injects a fault mid-game).
struct FirstLegal<F: FnMut(usize)> {
    on_record: F,
}

impl<F: FnMut(usize)> Mover for FirstLegal<F> {
    fn poll(&mut self, session: &Session) -> Option<Action> {
        (self.on_record)(session.records().len());
        if session.rematch_offered() {
            return Some(Action::DeclineRematch);
        }
        if session.my_question().is_some() {
            return Some(Action::Choose(Color::Black));
        }
        let square = session.position()?.legal_moves().squares().next()?;
        Some(Action::Play(square))
    }
}

fn config() -> DriverConfig {
    DriverConfig {
        room_url: ROOM.to_string(),
        ice: IceServers::default(),
        ice_from_server: false,
        log_path: PathBuf::from("unused.log"),
        move_delay: Duration::ZERO,
        first_peer_timeout: None,
    }
}

fn driver(
    session: Session,
    world: &Rc<RefCell<World>>,
    owner: &'static str,
    clock: &FakeClock,
) -> (Driver, MemoryStore) {
    driver_with(session, MemoryStore::default(), world, owner, clock)
}

fn driver_with(
    session: Session,
    store: MemoryStore,
    world: &Rc<RefCell<World>>,
    owner: &'static str,
    clock: &FakeClock,
) -> (Driver, MemoryStore) {
    let network = MemoryNetwork {
        world: Rc::clone(world),
        owner,
    };
    let driver = Driver::with_network(
        session,
        Box::new(store.clone()),
        config(),
        Box::new(network),
        Box::new(clock.clone()),
    );
    (driver, store)
}

fn host_session() -> Session {
    let terms = HostTerms {
        proposal: RulesProposal::fixed(Rules::default()),
        deadline_secs: 3600,
    };
    Session::host(Identity::from_seed(1), "Ann".into(), terms, &invite())
}

/// The secret of the code the host gives out.
fn invite() -> crate::match_log::invite::InviteSecret {
    crate::match_log::invite::InviteSecret::from_bytes(*b"K7QFM2XAPZ")
}

/// A guest of the host above, with its code.
fn guest_with(seed: u64, name: &str) -> Session {
    let code =
        crate::net::room_code::Invitation::typed(invite(), &Identity::from_seed(1).public_key());
    Session::guest(Identity::from_seed(seed), name.into(), code)
}

fn guest_session() -> Session {
    guest_with(2, "Ben")
}

/// A host and a guest in one room, the guest's mover calling `fault`
/// with the record count.
struct Game {
    clock: FakeClock,
    world: Rc<RefCell<World>>,
}

impl Game {
    fn new() -> Game {
        let clock = FakeClock::new();
        let world = World::new(&clock);
        Game { clock, world }
    }

    /// Plays to the end; returns both stores.
    fn play(&self, fault: impl FnMut(usize)) -> (MemoryStore, MemoryStore) {
        let (mut host, host_store) = driver(host_session(), &self.world, "host", &self.clock);
        let (mut guest, guest_store) = driver(guest_session(), &self.world, "guest", &self.clock);
        let mut host_mover = FirstLegal { on_record: |_| {} };
        let mut guest_mover = FirstLegal { on_record: fault };
        let (h, g) = futures::executor::block_on(futures::future::join(
            host.run(&mut host_mover, &mut |_| {}),
            guest.run(&mut guest_mover, &mut |_| {}),
        ));
        h.expect("the host's game ends");
        g.expect("the guest's game ends");
        assert_same_finished_logs(&host_store, &guest_store);
        (host_store, guest_store)
    }
}

fn assert_same_finished_logs(host: &MemoryStore, guest: &MemoryStore) {
    let (host, guest) = (host.records(), guest.records());
    assert_eq!(host, guest, "identical logs");
    let verified = verify_log(&host).expect("the log verifies");
    assert!(verified.end().is_some(), "the game completed");
}

/// The longest a backoff of `base` may be: a quarter more for jitter,
/// and the loop's tick on both sides of it.
fn at_most(base: Duration) -> Duration {
    base + base / 4 + 4 * TICK
}

#[test]
fn two_drivers_play_a_whole_game_in_memory_on_one_socket_each() {
    let game = Game::new();
    game.play(|_| {});
    let world = game.world.borrow();
    assert_eq!(world.opened("host").len(), 1);
    assert_eq!(world.opened("guest").len(), 1);
}

#[test]
fn a_dropped_data_channel_makes_the_guest_replace_its_socket_while_the_host_waits_in_its_room() {
    let game = Game::new();
    let (world, clock) = (Rc::clone(&game.world), game.clock.clone());
    let dropped_at = Rc::new(Cell::new(None));
    let dropped = Rc::clone(&dropped_at);
    game.play(move |records| {
        if records >= 10 && dropped.get().is_none() {
            dropped.set(Some(clock.elapsed()));
            world.borrow_mut().drop_channels();
        }
    });
    let world = game.world.borrow();
    let dropped_at = dropped_at.get().expect("the channel was dropped");
    assert_eq!(world.opened("host").len(), 1, "the host stays in its room");
    let guest = world.opened("guest");
    assert_eq!(guest.len(), 2, "the guest comes back once, on a new socket");
    let closed = world.happened("guest", Happening::Closed)[0];
    assert!(
        closed - dropped_at <= 2 * TICK,
        "the guest gives its socket up at once"
    );
    let wait = guest[1] - closed;
    assert!(
        wait >= BACKOFF_FIRST && wait <= at_most(BACKOFF_FIRST),
        "the first reconnection waits the first backoff: {wait:?}"
    );
}

#[test]
fn a_silent_link_is_given_up_after_the_silence_limit_and_the_game_goes_on() {
    let game = Game::new();
    let (world, clock) = (Rc::clone(&game.world), game.clock.clone());
    let silent_from = Rc::new(Cell::new(None));
    let from = Rc::clone(&silent_from);
    game.play(move |records| {
        if records >= 12 && from.get().is_none() {
            let now = clock.elapsed();
            from.set(Some(now));
            world.borrow_mut().blackhole = Some((now, now + Duration::from_secs(15)));
        }
    });
    let world = game.world.borrow();
    let silent_from = silent_from.get().expect("the link went silent");
    for side in ["host", "guest"] {
        let closed = world.happened(side, Happening::Closed);
        let first = *closed
            .first()
            .unwrap_or_else(|| panic!("the {side} gave up"));
        let after = first - silent_from;
        assert!(
            after > SILENCE_LIMIT - Duration::from_secs(1)
                && after <= SILENCE_LIMIT + Duration::from_secs(1),
            "the {side} gives the silent link up after about {SILENCE_LIMIT:?}: {after:?}"
        );
        assert!(world.opened(side).len() >= 2, "the {side} reconnected");
    }
}

#[test]
fn while_the_network_is_down_the_attempts_back_off_doubling_to_the_maximum() {
    let game = Game::new();
    let down = Duration::from_secs(20);
    game.world.borrow_mut().offline_until = down;
    game.play(|_| {});
    let world = game.world.borrow();
    for side in ["host", "guest"] {
        let opened = world.opened(side);
        let tries: Vec<Duration> = opened.iter().copied().filter(|&at| at < down).collect();
        assert!(tries.len() >= 8, "the {side} kept trying: {tries:?}");
        for (i, pair) in tries.windows(2).enumerate() {
            let base = (BACKOFF_FIRST * 2u32.pow(i as u32)).min(BACKOFF_MAX);
            let gap = pair[1] - pair[0];
            assert!(
                gap >= base && gap <= at_most(base),
                "the {side}'s attempt {} waits {base:?} and up to a quarter more: {gap:?}",
                i + 2
            );
        }
        let back = opened.iter().find(|&&at| at >= down).expect("tried again");
        assert!(
            *back - down <= at_most(BACKOFF_MAX),
            "the {side} is back within one longest backoff of the network"
        );
    }
}

#[test]
fn a_third_player_is_told_the_room_is_full() {
    let game = Game::new();
    let (mut host, _) = driver(host_session(), &game.world, "host", &game.clock);
    let (mut guest, _) = driver(guest_session(), &game.world, "guest", &game.clock);
    let third = guest_with(3, "Cy");
    let (mut third, third_store) = driver(third, &game.world, "third", &game.clock);
    let clock = game.clock.clone();
    let late = async {
        // In once the two are playing.
        clock.sleep(Duration::from_secs(1)).await;
        third
            .run(&mut FirstLegal { on_record: |_| {} }, &mut |_| {})
            .await
    };
    let mut host_mover = FirstLegal { on_record: |_| {} };
    let mut guest_mover = FirstLegal { on_record: |_| {} };
    let (h, g, t) = futures::executor::block_on(futures::future::join3(
        host.run(&mut host_mover, &mut |_| {}),
        guest.run(&mut guest_mover, &mut |_| {}),
        late,
    ));
    assert!(h.is_ok() && g.is_ok(), "the two play on");
    match t {
        Err(DriverError::RoomFull) => {}
        other => panic!("the third is told the room is full, not {other:?}"),
    }
    assert!(third_store.records().is_empty(), "and signs nothing");
}

#[test]
fn a_guest_that_crashed_comes_back_from_its_log_and_the_game_completes() {
    let game = Game::new();
    let (mut host, host_store) = driver(host_session(), &game.world, "host", &game.clock);
    let mut host_mover = FirstLegal { on_record: |_| {} };
    let clock = game.clock.clone();
    let world = Rc::clone(&game.world);
    let guest_side = async {
        let (mut first, store) = driver(guest_session(), &world, "guest", &clock);
        {
            let mut mover = FirstLegal { on_record: |_| {} };
            let mut events = |_: &Event| {};
            let playing = first.run(&mut mover, &mut events);
            let store = store.clone();
            let crash = async move {
                while store.records().len() < 10 {
                    YieldOnce(false).await;
                }
            };
            let playing = std::pin::pin!(playing);
            let crash = std::pin::pin!(crash);
            futures::future::select(playing, crash).await;
        }
        // The program is gone: its socket with it.
        drop(first);
        clock.sleep(Duration::from_secs(5)).await;
        let records = store.records();
        let session =
            crate::net::game_setup::resume(Identity::from_seed(2), records, true).unwrap();
        assert!(
            session.waiting_for_heads(),
            "a resumed side signs nothing yet"
        );
        let (mut again, store) = driver_with(session, store, &world, "guest", &clock);
        let result = again
            .run(&mut FirstLegal { on_record: |_| {} }, &mut |_| {})
            .await;
        (result, store)
    };
    let (h, (g, guest_store)) = futures::executor::block_on(futures::future::join(
        host.run(&mut host_mover, &mut |_| {}),
        guest_side,
    ));
    h.expect("the host's game ends");
    g.expect("the resumed guest's game ends");
    assert_same_finished_logs(&host_store, &guest_store);
    let world = game.world.borrow();
    assert_eq!(world.opened("host").len(), 1, "the host waited in its room");
    assert_eq!(world.opened("guest").len(), 2);
}
