//! The register of signed records and the index of game homes, through
//! the real programs and a real `reversi-signaling` mailbox: an identity
//! never signs two different records at one place of one game, whatever
//! the files, the commands or the timing.

#![cfg(unix)]

mod support;

use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};

use reversi::match_log::Record;
use reversi::match_log::log_file::read_log;
use serde_json::Value;
use support::TempDir;
use support::player::Player;
use support::signaling_server::Server;

fn text(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

fn records(log: &Path) -> Vec<Record> {
    read_log(log).unwrap().records
}

/// No two records of one author share a place with different bytes,
/// across every log given.
fn assert_no_equivocation(logs: &[&Path]) {
    let mut seen: std::collections::BTreeMap<(u32, u8), Record> = Default::default();
    for log in logs {
        let Ok(loaded) = read_log(log) else {
            continue;
        };
        for record in loaded.records {
            let key = (record.content().seq, record.content().author as u8);
            if let Some(earlier) = seen.get(&key) {
                assert_eq!(
                    earlier,
                    &record,
                    "two different records at place {} ({})",
                    key.0,
                    log.display()
                );
            } else {
                seen.insert(key, record);
            }
        }
    }
}

/// Whoever is to move plays their first legal square from their own log,
/// `count` times at most; returns the moves played.
fn play(server: &Server, sides: [(&Player, &Path); 2], count: usize) -> usize {
    for played in 0..count {
        let views: Vec<Option<Value>> = sides
            .iter()
            .map(|(p, _)| p.games(server).0.first().cloned())
            .collect();
        let mover = views
            .iter()
            .position(|v| v.as_ref().is_some_and(|v| v["my_turn"] == true));
        let Some(mover) = mover else {
            return played;
        };
        let view = views[mover].as_ref().unwrap();
        assert_eq!(
            Path::new(view["log"].as_str().unwrap()),
            std::fs::canonicalize(sides[mover].1).unwrap(),
            "the game is listed at its home"
        );
        let square = view["legal"][0].as_str().unwrap().to_string();
        let (player, log) = sides[mover];
        player.ok(&[
            "move",
            log.to_str().unwrap(),
            &square,
            "--server",
            &server.url(),
        ]);
    }
    count
}

/// Both sides visit the mailbox; their logs then hold one chain.
fn assert_one_chain(server: &Server, sides: [(&Player, &Path); 2]) {
    for (player, _) in sides {
        player.games(server);
    }
    assert_eq!(records(sides[0].1), records(sides[1].1));
}

/// The legal squares `player`'s one game lists.
fn legal(player: &Player, server: &Server) -> Vec<String> {
    player.games(server).0[0]["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_game_joined_with_a_named_log_is_found_there_and_never_signed_in_a_second_copy() {
    let dir = TempDir::new("register-named-logs");
    let server = Server::start(":memory:");
    let (host, guest) = (Player::new(&dir, "h"), Player::new(&dir, "g"));
    let (h_log, g_log) = (dir.path("h.log"), dir.path("g.log"));
    let url = server.url();
    let code = host.ok(&[
        "host",
        "--server",
        &url,
        "--detach",
        "--deadline",
        "1d",
        "--log",
        h_log.to_str().unwrap(),
    ]);
    guest.join_detached(code.trim(), &url, &g_log);
    // Before the register, this restored a second copy into g/games and
    // signed the guest's setup step there.
    let (listed, said) = guest.games(&server);
    assert!(!said.contains("restored"), "{said}");
    assert!(guest.logs().is_empty(), "{:?}", guest.logs());
    assert_eq!(listed.len(), 1);
    assert_eq!(
        Path::new(listed[0]["log"].as_str().unwrap()),
        std::fs::canonicalize(&g_log).unwrap()
    );
    // The move the issue tried: either played, or refused because the
    // setup is not finished, but never an equivocation.
    let tried = guest.run(&["move", g_log.to_str().unwrap(), "d3", "--server", &url]);
    assert!(!text(&tried).contains("equivocation"), "{}", text(&tried));
    host.games(&server);
    guest.games(&server);
    let played = play(&server, [(&host, &h_log), (&guest, &g_log)], 12);
    assert_eq!(played, 12, "the game goes on from the named logs");
    assert!(guest.logs().is_empty() && host.logs().is_empty());
    assert_no_equivocation(&[&h_log, &g_log]);
    // Each side's log holds the other's records too: one chain.
    assert_one_chain(&server, [(&host, &h_log), (&guest, &g_log)]);
}

#[test]
fn a_setup_step_signed_from_another_data_directory_is_taken_from_the_mailbox_not_signed_again() {
    let dir = TempDir::new("register-two-machines");
    let server = Server::start(":memory:");
    let url = server.url();
    let (host, guest) = (Player::new(&dir, "h"), Player::new(&dir, "g"));
    let g_log = dir.path("g.log");
    let code = host.ok(&["host", "--server", &url, "--detach", "--deadline", "1d"]);
    guest.join_detached(code.trim(), &url, &g_log);
    host.games(&server);
    // The same key on a second machine (a copied data directory, or an
    // older program's copy of the game): it visits first and signs the
    // guest's reveal there.
    let other = Player::new(&dir, "g2");
    std::fs::create_dir_all(other.dir.join("games")).unwrap();
    std::fs::copy(
        guest.dir.join("identity.key"),
        other.dir.join("identity.key"),
    )
    .unwrap();
    std::fs::copy(&g_log, other.dir.join("games").join("copy.log")).unwrap();
    other.games(&server);
    let theirs = records(&other.dir.join("games").join("copy.log"));
    assert_eq!(theirs.len(), 4, "the other copy revealed");
    // This machine's visit takes that reveal with the host's: it does not
    // sign its own (which was an equivocation before).
    let (listed, said) = guest.games(&server);
    assert!(
        !said.contains("equivocation") && !said.contains("halted"),
        "{said}"
    );
    assert_eq!(listed.len(), 1);
    assert_eq!(records(&g_log), theirs);
    assert_no_equivocation(&[&g_log, &other.dir.join("games").join("copy.log")]);
}

/// A game of two default logs, set up and a few moves in; returns the
/// players and their logs.
fn game_in_progress(dir: &TempDir, server: &Server) -> (Player, Player, PathBuf, PathBuf) {
    let (host, guest) = (Player::new(dir, "host"), Player::new(dir, "guest"));
    let url = server.url();
    let code = host.ok(&["host", "--server", &url, "--detach", "--deadline", "1d"]);
    guest.ok(&["join", code.trim(), "--server", &url, "--detach"]);
    host.games(server);
    guest.games(server);
    let (h_log, g_log) = (host.logs()[0].clone(), guest.logs()[0].clone());
    play(server, [(&host, &h_log), (&guest, &g_log)], 2);
    (host, guest, h_log, g_log)
}

#[test]
fn two_moves_started_at_the_same_moment_sign_once() {
    let dir = TempDir::new("register-concurrent");
    let server = Server::start(":memory:");
    let (host, guest, h_log, g_log) = game_in_progress(&dir, &server);
    let (mover, log) = {
        let (h, _) = host.games(&server);
        if h[0]["my_turn"] == true {
            (&host, h_log.clone())
        } else {
            (&guest, g_log.clone())
        }
    };
    let legal = legal(mover, &server);
    let second = legal.last().unwrap().clone();
    let url = server.url();
    let start = |square: &str| {
        mover
            .command(&["move", log.to_str().unwrap(), square, "--server", &url])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let (a, b) = (start(&legal[0]), start(&second));
    let (a, b) = (a.wait_with_output().unwrap(), b.wait_with_output().unwrap());
    let succeeded = [&a, &b].iter().filter(|o| o.status.success()).count();
    assert_eq!(
        succeeded,
        1,
        "one signs, the other is refused:\n{}\n{}",
        text(&a),
        text(&b)
    );
    let refused = if a.status.success() { &b } else { &a };
    assert!(
        text(refused).contains("not your turn") || text(refused).contains("refused to sign"),
        "{}",
        text(refused)
    );
    for output in [&a, &b] {
        assert!(!text(output).contains("equivocation"), "{}", text(output));
    }
    // The log holds each record once, and the game goes on.
    let held = records(&log);
    let places: Vec<u32> = held.iter().map(|r| r.content().seq).collect();
    assert_eq!(places, (0..held.len() as u32).collect::<Vec<_>>());
    assert_eq!(play(&server, [(&host, &h_log), (&guest, &g_log)], 4), 4);
    assert_one_chain(&server, [(&host, &h_log), (&guest, &g_log)]);
}

#[test]
fn a_log_copied_to_a_second_path_and_both_used_never_equivocates() {
    let dir = TempDir::new("register-copied");
    let server = Server::start(":memory:");
    let (host, guest, h_log, g_log) = game_in_progress(&dir, &server);
    let url = server.url();
    if guest.games(&server).0[0]["my_turn"] != true {
        let square = host.games(&server).0[0]["legal"][0]
            .as_str()
            .unwrap()
            .to_string();
        host.ok(&["move", h_log.to_str().unwrap(), &square, "--server", &url]);
    }
    // The guest copies their log elsewhere (a backup, another folder),
    // then moves in the original.
    let copy = dir.path("backup.log");
    std::fs::copy(&g_log, &copy).unwrap();
    let legal = legal(&guest, &server);
    guest.ok(&["move", g_log.to_str().unwrap(), &legal[0], "--server", &url]);
    // The copy, a move behind, is asked for another move at that place:
    // refused, and nothing is signed.
    let tried = guest.run(&[
        "move",
        copy.to_str().unwrap(),
        legal.last().unwrap(),
        "--server",
        &url,
    ]);
    assert!(!tried.status.success(), "{}", text(&tried));
    assert!(!text(&tried).contains("equivocation"), "{}", text(&tried));
    // The host answers; the guest plays on from the copy, then from the
    // original again: each catches up before it signs.
    let square = host.games(&server).0[0]["legal"][0]
        .as_str()
        .unwrap()
        .to_string();
    host.ok(&["move", h_log.to_str().unwrap(), &square, "--server", &url]);
    let view = guest.games(&server).0[0].clone();
    if view["my_turn"] == true {
        let square = view["legal"][0].as_str().unwrap();
        guest.ok(&["move", copy.to_str().unwrap(), square, "--server", &url]);
    }
    assert_eq!(play(&server, [(&host, &h_log), (&guest, &g_log)], 2), 2);
    assert_no_equivocation(&[&h_log, &g_log, &copy]);
}

#[test]
fn two_copies_from_before_the_register_are_reported_and_nothing_is_signed_until_one_is_kept() {
    let dir = TempDir::new("register-legacy-copies");
    let server = Server::start(":memory:");
    let (host, guest, h_log, g_log) = game_in_progress(&dir, &server);
    // A data directory as an older version left it: two copies of one
    // game in the games folder, one a move shorter, and no register.
    let short = guest.dir.join("games").join("older-copy.log");
    let mut older = records(&g_log);
    older.pop();
    reversi::match_log::log_file::write_log(&short, &older).unwrap();
    std::fs::remove_dir_all(guest.dir.join("register")).unwrap();
    let (listed, said) = guest.games(&server);
    assert_eq!(listed.len(), 1, "{listed:?}");
    let copies = listed[0]["copies"].as_array().unwrap();
    assert_eq!(copies.len(), 2, "{listed:?}");
    let longest: Vec<&str> = copies
        .iter()
        .filter(|c| c["longest"] == true)
        .map(|c| c["log"].as_str().unwrap())
        .collect();
    assert_eq!(longest, [g_log.to_str().unwrap()]);
    assert_eq!(listed[0]["my_turn"], false);
    for log in [&g_log, &short] {
        assert!(said.contains(log.to_str().unwrap()), "{said}");
    }
    assert!(said.contains("reversi keep"), "{said}");
    // Neither copy signs until the player chooses (a visit may still
    // bring the opponent's records from the mailbox).
    let guests = |log: &Path| -> Vec<Record> {
        records(log)
            .into_iter()
            .filter(|r| r.content().author == reversi::match_log::Seat::Guest)
            .collect()
    };
    let signed_before = guests(&g_log);
    for log in [&g_log, &short] {
        let tried = guest.run(&[
            "move",
            log.to_str().unwrap(),
            "resign",
            "--server",
            &server.url(),
        ]);
        assert!(!tried.status.success());
        assert!(text(&tried).contains("reversi keep"), "{}", text(&tried));
    }
    for log in [&g_log, &short] {
        let signed = guests(log);
        assert!(
            signed.iter().all(|r| signed_before.contains(r)),
            "nothing new signed in {}",
            log.display()
        );
    }
    // Keeping the shorter one is refused only if the longer holds a
    // record of the guest's that the shorter lacks; keep the longer.
    let kept = guest.ok(&["keep", g_log.to_str().unwrap()]);
    assert!(kept.contains("set aside"), "{kept}");
    assert!(!short.exists());
    assert_eq!(guest.logs(), std::slice::from_ref(&g_log));
    assert_eq!(play(&server, [(&host, &h_log), (&guest, &g_log)], 2), 2);
    assert_no_equivocation(&[&h_log, &g_log]);
}

/// The front-ends' operations on one identity's games, without a server:
/// a mailbox modelled as the one chain it keeps (a record is stored only
/// when it extends it).
mod operations {
    use std::path::PathBuf;

    use proptest::prelude::*;
    use reversi::data_dir::DataDir;
    use reversi::data_dir::register::GameRegister;
    use reversi::engine::{Preset, Rules};
    use reversi::match_log::builder::{MatchBuilder, MatchTerms, Players};
    use reversi::match_log::log_file::write_log;
    use reversi::match_log::record::hex;
    use reversi::match_log::rules_proposal::RulesProposal;
    use reversi::match_log::{Identity, Record, Seat};
    use reversi::net::correspondence::{OpenGame, Visit};
    use reversi::net::session::{Output, Session};

    use super::support::TempDir;

    #[derive(Debug, Clone)]
    enum Op {
        /// Copy log `i` to a new path (a backup, another folder).
        Copy(usize),
        /// Open log `i` as `reversi move` does and play the `n`th legal move.
        Move(usize, usize),
        /// The same, but the mailbox fails to store the move (the
        /// player's log has it; the next visit from that log delivers it).
        MoveUndelivered(usize, usize),
        /// Open log `i` as `games`, the window or `resume` do: bring it up
        /// to date with the mailbox, write any setup step, post.
        Visit(usize),
        /// The opponent moves on the mailbox's chain.
        Opponent(usize),
        /// The register's files are lost (an older program's data
        /// directory, or a backup of the folder restored without them).
        ForgetRegister,
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            (0usize..4).prop_map(Op::Copy),
            (0usize..4, 0usize..8).prop_map(|(i, n)| Op::Move(i, n)),
            (0usize..4, 0usize..8).prop_map(|(i, n)| Op::MoveUndelivered(i, n)),
            (0usize..4).prop_map(Op::Visit),
            (0usize..8).prop_map(Op::Opponent),
            Just(Op::ForgetRegister),
        ]
    }

    struct World {
        _dir: TempDir,
        data: DataDir,
        me: Identity,
        opponent: Identity,
        logs: Vec<PathBuf>,
        mailbox: Vec<Record>,
        /// Every record of mine that left a session, in order.
        signed: Vec<Record>,
        now: u64,
    }

    impl World {
        fn new(case: u64) -> World {
            let dir = TempDir::new(&format!("register-ops-{case}"));
            let data = DataDir::resolve(Some(&dir.path("data"))).unwrap();
            let me = data.identity().unwrap();
            let opponent = Identity::from_seed(case ^ 0x5a);
            let terms = MatchTerms {
                proposal: RulesProposal::fixed(Rules::preset(Preset::Othello)),
                deadline_secs: 86_400,
                host_name: "Ann".into(),
                guest_name: "Ben".into(),
            };
            let players = Players {
                host: opponent.clone(),
                guest: me.clone(),
                host_nonce: [1; 32],
                guest_nonce: [2; 32],
            };
            let now = 1_796_000_000_000;
            let game = MatchBuilder::new(&terms, players, now).unwrap();
            // In the games folder, where a data directory that lost its
            // register is searched for what was signed.
            let first = data.games_dir().join("first.log");
            std::fs::create_dir_all(data.games_dir()).unwrap();
            write_log(&first, game.records()).unwrap();
            World {
                data,
                me,
                opponent,
                logs: vec![first],
                mailbox: game.records().to_vec(),
                signed: game
                    .records()
                    .iter()
                    .filter(|r| r.content().author == Seat::Guest)
                    .cloned()
                    .collect(),
                now,
                _dir: dir,
            }
        }

        fn register(&self) -> GameRegister {
            self.data.register(&self.me.public_key())
        }

        fn post(&mut self, records: &[Record]) {
            for record in records {
                let seq = record.content().seq as usize;
                if seq == self.mailbox.len()
                    && self.mailbox.last().map(Record::hash) == Some(record.content().prev)
                {
                    self.mailbox.push(record.clone());
                }
            }
        }

        /// Carries out outputs on an open log, keeping what was signed.
        fn apply(&mut self, game: &mut OpenGame, outputs: Vec<Output>) {
            for output in &outputs {
                if let Output::Persist(record) = output
                    && record.content().author == Seat::Guest
                    && !self.signed.contains(record)
                {
                    self.signed.push((**record).clone());
                }
            }
            game.apply(outputs, &mut Visit::default()).unwrap();
        }

        fn open(&self, i: usize) -> Option<OpenGame> {
            let path = &self.logs[i % self.logs.len()];
            OpenGame::open(path, self.me.clone(), &self.register())
                .ok()
                .map(|(game, _)| game)
        }

        /// What a visit does: the mailbox's records, then our setup step.
        fn catch_up(&mut self, game: &mut OpenGame) {
            let held = game.session.records().len();
            for record in self.mailbox.clone().into_iter().skip(held) {
                match game.session.relayed(record, self.now) {
                    Ok(outputs) => self.apply(game, outputs),
                    Err(_) => break,
                }
            }
            let outputs = game.session.catch_up(self.now);
            self.apply(game, outputs);
        }

        fn run(&mut self, op: &Op) {
            self.now += 1_000;
            match *op {
                Op::Copy(i) => {
                    if self.logs.len() < 4 {
                        let to =
                            self.logs[0].with_file_name(format!("copy{}.log", self.logs.len()));
                        std::fs::copy(&self.logs[i % self.logs.len()], &to).unwrap();
                        self.logs.push(to);
                    }
                }
                Op::Move(i, n) | Op::MoveUndelivered(i, n) => {
                    let Some(mut game) = self.open(i) else { return };
                    self.catch_up(&mut game);
                    let Some(position) = game.session.position().copied() else {
                        return;
                    };
                    let legal: Vec<_> = position.legal_moves().squares().collect();
                    if !game.session.my_turn() || legal.is_empty() {
                        return;
                    }
                    if let Ok(outputs) = game.session.play(legal[n % legal.len()], self.now) {
                        self.apply(&mut game, outputs);
                    }
                    if matches!(op, Op::Move(..)) {
                        let records = game.session.records().to_vec();
                        self.post(&records);
                    }
                }
                Op::Visit(i) => {
                    let Some(mut game) = self.open(i) else { return };
                    self.catch_up(&mut game);
                    let records = game.session.records().to_vec();
                    self.post(&records);
                }
                Op::Opponent(n) => {
                    let Ok(mut them) = Session::resume(self.opponent.clone(), self.mailbox.clone())
                    else {
                        return;
                    };
                    let Some(position) = them.position().copied() else {
                        return;
                    };
                    let legal: Vec<_> = position.legal_moves().squares().collect();
                    if them.my_turn()
                        && !legal.is_empty()
                        && let Ok(outputs) = them.play(legal[n % legal.len()], self.now)
                    {
                        for output in outputs {
                            if let Output::Persist(record) = output {
                                self.mailbox.push(*record);
                            }
                        }
                    }
                }
                Op::ForgetRegister => {
                    let _ = std::fs::remove_dir_all(self.data.path().join("register"));
                }
            }
        }

        /// No two records of mine at one place with different bytes,
        /// among all signed and all held anywhere.
        fn assert_no_equivocation(&self) {
            let mut held: Vec<Record> = self.signed.clone();
            for log in &self.logs {
                if let Ok(loaded) = reversi::match_log::log_file::read_log(log) {
                    held.extend(loaded.records);
                }
            }
            held.extend(self.mailbox.iter().cloned());
            let mut at = std::collections::BTreeMap::new();
            for record in held.iter().filter(|r| r.content().author == Seat::Guest) {
                let earlier = at
                    .entry(record.content().seq)
                    .or_insert_with(|| record.clone());
                assert_eq!(
                    hex(&earlier.to_bytes()),
                    hex(&record.to_bytes()),
                    "two records of mine at place {}",
                    record.content().seq
                );
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(32))]

        /// Whatever the order of copies, moves, visits and the opponent's
        /// replies, one identity never signs two different records at one
        /// place of one game.
        #[test]
        fn no_sequence_of_operations_makes_an_identity_equivocate(
            case in 0u64..1_000_000,
            ops in proptest::collection::vec(op(), 1..28),
        ) {
            let mut world = World::new(case);
            for op in &ops {
                world.run(op);
                world.assert_no_equivocation();
            }
        }
    }
}

#[test]
fn a_game_another_program_is_playing_is_listed_but_not_visited() {
    let dir = TempDir::new("register-live-lock");
    let server = Server::start(":memory:");
    let (host, guest, h_log, _) = game_in_progress(&dir, &server);
    // The host's turn comes; meanwhile a live program holds the host's log.
    if host.games(&server).0[0]["my_turn"] != true {
        let view = guest.games(&server).0[0].clone();
        let square = view["legal"][0].as_str().unwrap();
        guest.ok(&[
            "move",
            view["log"].as_str().unwrap(),
            square,
            "--server",
            &server.url(),
        ]);
    }
    let before = std::fs::read(&h_log).unwrap();
    let held =
        reversi::net::correspondence::LogLock::acquire(&h_log, std::time::Duration::ZERO).unwrap();
    let (listed, _) = host.games(&server);
    assert_eq!(listed.len(), 1);
    assert!(
        listed[0]["status"]
            .as_str()
            .unwrap()
            .contains("in play in another program"),
        "{listed:?}"
    );
    assert_eq!(
        std::fs::read(&h_log).unwrap(),
        before,
        "the log was left to its program"
    );
    drop(held);
    let (listed, _) = host.games(&server);
    assert!(
        !listed[0]["status"]
            .as_str()
            .unwrap()
            .contains("another program")
    );
}
