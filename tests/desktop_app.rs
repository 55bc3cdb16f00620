//! The desktop client driven through egui_kittest: widgets found by their
//! accessible labels, real clicks, real threads, a few image snapshots.

mod support;

use support::TempDir;

use std::time::{Duration, Instant};

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use reversi::app::i18n::Language;
use reversi::app::{ReversiApp, Settings};
use reversi::engine::{Color, Discs, RuleOptions, Rules, Setup};
use reversi::match_log::rules_proposal::RulesProposal;

fn app(dir: &TempDir, settings: Settings) -> Harness<'static, ReversiApp> {
    let dir = dir.0.clone();
    Harness::builder()
        .with_size([1000.0, 720.0])
        .wgpu()
        .build_eframe(move |_| {
            ReversiApp::with_settings(settings).with_data_dir(dir, "127.0.0.1:0".parse().unwrap())
        })
}

/// Whether the game screen's player lines show these counts.
fn shows_score(harness: &Harness<'_, ReversiApp>, black: u8, white: u8) -> bool {
    harness.query_by_label(&format!("Black: {black}")).is_some()
        && harness.query_by_label(&format!("White: {white}")).is_some()
}

/// The app on a phone held upright (390×844 points).
fn phone(dir: TempDir) -> Harness<'static, ReversiApp> {
    Harness::builder()
        .with_size([390.0, 844.0])
        .wgpu()
        .build_eframe(move |_| {
            ReversiApp::with_settings(light())
                .with_data_dir(dir.0.clone(), "127.0.0.1:0".parse().unwrap())
        })
}

/// From Home, a game against the computer with the settings' rules.
fn play_the_computer(harness: &mut Harness<'_, ReversiApp>) {
    harness.run();
    harness.get_by_label("Play the computer").click();
    harness.run();
}

/// Steps the app until `done` holds (threads report asynchronously).
fn wait_for(
    harness: &mut Harness<'_, ReversiApp>,
    what: &str,
    done: impl Fn(&Harness<'_, ReversiApp>) -> bool,
) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !done(harness) {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        harness.step();
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn light() -> Settings {
    Settings {
        dark: false,
        animations: false,
        level: 1,
        pace_ms: 0,
        asked_name: true,
        sound: false,
        language: Some(Language::English),
        ..Settings::default()
    }
}

/// A signaling server with its mailbox (and its leaderboard if asked).
fn mailbox_server(
    runtime: &tokio::runtime::Runtime,
    leaderboard: bool,
) -> reversi_signaling::RunningServer {
    runtime.block_on(support::signaling_server::in_process(
        reversi_signaling::Config {
            mailbox: Some(reversi_signaling::mailbox::MailboxConfig::default()),
            leaderboard,
            ..Default::default()
        },
    ))
}

/// `reversi --data-dir DIR/DATA ARGS`, which must succeed: its stdout.
fn reversi_cli(dir: &TempDir, data: &str, args: &[&str]) -> String {
    let out = support::reversi()
        .arg("--data-dir")
        .arg(dir.path(data))
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Ann (`DIR/host`) hosts a game in the mailbox of `url` and Ben
/// (`DIR/guest`) accepts it, each program exiting at once.
fn detached_game(dir: &TempDir, url: &str) {
    let code = reversi_cli(
        dir,
        "host",
        &["host", "--detach", "--server", url, "--name", "Ann"],
    );
    reversi_cli(
        dir,
        "guest",
        &["join", code.trim(), "--detach", "--name", "Ben"],
    );
}

/// Held by tests that keep a core busy (the hint's search) and by the
/// two-instance network game, whose WebRTC handshake must not be starved of
/// CPU on a two-core machine.
static CPU_HEAVY: std::sync::Mutex<()> = std::sync::Mutex::new(());

#[test]
fn the_hint_button_names_a_legal_move_with_its_score() {
    let _cpu = CPU_HEAVY.lock().unwrap_or_else(|e| e.into_inner());
    let dir = TempDir::new("hint");
    let mut harness = app(&dir, light());
    play_the_computer(&mut harness);
    harness.get_by_label("Hint").click();
    wait_for(&mut harness, "the hint", |h| {
        h.query_by_label_contains("Hint: ").is_some()
    });
    let text = harness
        .query_by_label_contains("Hint: ")
        .and_then(|node| {
            use egui_kittest::kittest::NodeT;
            node.accesskit_node().label().or_else(|| node.value())
        })
        .unwrap_or_default();
    let square = text.trim_start_matches("Hint: ").split(' ').next().unwrap();
    assert!(
        ["d3", "c4", "f5", "e6"].contains(&square),
        "{text:?} is not an opening move"
    );
    assert!(text.contains("(estimate)"), "{text:?}");
}

#[test]
fn a_game_against_the_computer_takes_a_legal_click_and_ignores_an_illegal_one() {
    let dir = TempDir::new("local");
    let mut harness = app(&dir, light());
    harness.run();
    harness.snapshot("home");
    harness.get_by_label("Play the computer").click();
    harness.run();
    assert!(shows_score(&harness, 2, 2));
    harness.snapshot("game_start");

    // a1 is not a legal move: nothing is played, and the player is told why.
    harness.get_by_role_and_label(Role::Button, "a1").click();
    harness.run();
    assert!(
        shows_score(&harness, 2, 2),
        "an illegal square does nothing"
    );
    assert!(
        harness.query_by_label("a1 flips nothing").is_some(),
        "the refusal is explained"
    );

    harness.get_by_role_and_label(Role::Button, "f5").click();
    harness.run();
    assert!(!shows_score(&harness, 2, 2), "the counts changed");
    wait_for(&mut harness, "the computer's reply", |h| {
        h.query_by_label("Your move (black)").is_some()
    });
    let moves = harness.state().status().moves;
    assert!(moves.starts_with("f5") && moves.len() == 4, "{moves}");
    // Each move is in the list as well as a square of the board.
    for played in [&moves[..2], &moves[2..]] {
        assert_eq!(
            harness.get_all_by_label(played).count(),
            2,
            "the move list shows {played}"
        );
    }
}

#[test]
fn a_forced_pass_shows_its_notice() {
    let dir = TempDir::new("pass");
    let mut harness = app(&dir, light());
    // White cannot move at first, so after black's f3 white is skipped.
    let setup: Setup = "-------------------O-------O--O---X----X-O-------------X---O---- X"
        .parse()
        .unwrap();
    let options = RuleOptions {
        discs: Discs::PerPlayer(3),
        ..RuleOptions::default()
    };
    harness
        .state_mut()
        .start_local(Rules::new(options, setup).unwrap(), Color::Black);
    harness.run();
    harness.get_by_role_and_label(Role::Button, "f3").click();
    harness.run();
    assert!(
        harness
            .query_by_label("The computer has no legal move: white is skipped.")
            .is_some()
    );
    assert!(
        harness.query_by_label("pass").is_some(),
        "the move list shows the pass in White's column"
    );
}

#[test]
fn a_first_run_asks_for_the_name_once_and_a_skip_keeps_the_default() {
    let dir = TempDir::new("first-run");
    let mut harness = app(
        &dir,
        Settings {
            asked_name: false,
            ..light()
        },
    );
    harness.run();
    assert!(
        harness
            .query_by_label("What should opponents call you?")
            .is_some()
    );
    type_into(&mut harness, "Your name", "Ada");
    harness.get_by_label("OK").click();
    harness.run();
    assert_eq!(harness.state().settings().name, "Ada");
    assert!(harness.state().settings().asked_name);
    assert!(
        harness
            .query_by_label("What should opponents call you?")
            .is_none(),
        "asked once"
    );
    let dir = TempDir::new("first-run-skip");
    let mut skipped = app(
        &dir,
        Settings {
            asked_name: false,
            ..light()
        },
    );
    skipped.run();
    skipped.get_by_label("Skip").click();
    skipped.run();
    assert_eq!(skipped.state().settings().name, Settings::default().name);
    assert!(skipped.state().settings().asked_name);
}

#[test]
fn the_computer_waits_for_the_pace_before_its_reply_appears() {
    let dir = TempDir::new("pace");
    let mut harness = app(
        &dir,
        Settings {
            pace_ms: 900,
            ..light()
        },
    );
    play_the_computer(&mut harness);
    let played = Instant::now();
    harness.get_by_role_and_label(Role::Button, "f5").click();
    harness.step();
    harness.step();
    assert!(
        harness.query_by_label_contains("is thinking").is_some(),
        "the panel says the computer is thinking"
    );
    wait_for(&mut harness, "the computer's reply", |h| {
        let status = h.state().status();
        status.my_turn && status.moves.len() == 4
    });
    // A lower bound only: a slow machine makes it later, never sooner.
    assert!(
        played.elapsed() >= Duration::from_millis(900),
        "the reply came after {:?}",
        played.elapsed()
    );
}

#[test]
fn the_move_list_looks_back_and_the_game_goes_on() {
    let dir = TempDir::new("look-back");
    let mut harness = app(&dir, light());
    play_the_computer(&mut harness);
    harness.get_by_role_and_label(Role::Button, "f5").click();
    wait_for(&mut harness, "the computer's reply", |h| {
        let status = h.state().status();
        status.my_turn && status.moves.len() == 4
    });
    harness.run();
    assert!(harness.query_by_label("1.").is_some(), "moves are numbered");
    // The left arrow shows the position after Black's f5 (4 black, 1 white).
    harness.key_press(egui::Key::ArrowLeft);
    harness.run();
    assert!(
        harness
            .query_by_label("Looking back: after move 1 of 2")
            .is_some()
    );
    assert!(
        shows_score(&harness, 3, 3),
        "the panel keeps the game's count"
    );
    // A square legal in the live game plays nothing while looking back.
    let before = harness.state().status();
    let legal = before
        .legal
        .iter()
        .find(|s| !before.moves.contains(s.as_str()))
        .expect("a legal square that is not in the move list")
        .clone();
    harness.get_by_role_and_label(Role::Button, &legal).click();
    harness.run();
    assert_eq!(
        harness.state().status().moves,
        before.moves,
        "nothing is played while looking back"
    );
    harness.key_press(egui::Key::ArrowLeft);
    harness.run();
    assert!(
        harness
            .query_by_label("Looking back: after move 0 of 2")
            .is_some()
    );
    harness.get_by_label("Back to the game").click();
    harness.run();
    assert!(harness.query_by_label_contains("Looking back").is_none());
    assert!(harness.state().status().my_turn, "the game is live again");
}

#[test]
fn the_end_of_a_game_is_a_banner_with_its_actions_in_reach_on_a_phone() {
    let dir = TempDir::new("end-banner");
    let mut harness = phone(dir);
    play_the_computer(&mut harness);
    harness.get_by_label("Resign").click();
    harness.run();
    harness.get_by_label("Yes, resign").click();
    harness.run();
    assert!(harness.query_by_label("You lose").is_some());
    assert!(harness.query_by_label("black resigned").is_some());
    for label in ["Rematch (colours swap)", "Analyse the game", "Home"] {
        let rect = harness
            .get_all_by_label(label)
            .next()
            .unwrap_or_else(|| panic!("{label} is there"))
            .rect();
        assert!(
            rect.bottom() <= 844.0 && rect.right() <= 390.0,
            "{label} is on the screen: {rect:?}"
        );
    }
    harness.snapshot("phone_game_over");
    harness.get_by_label("Rematch (colours swap)").click();
    harness.run();
    assert_eq!(harness.state().status().my_color, Some("white"));
    assert!(!harness.state().status().over);
}

#[test]
fn hosting_shows_a_code_and_a_copy_button() {
    let dir = TempDir::new("host");
    let settings = Settings {
        name: "Ann Lee".into(),
        ..light()
    };
    let mut harness = app(&dir, settings);
    harness.run();
    harness.get_by_label("Host a game").click();
    wait_for(&mut harness, "the room code", |h| {
        h.query_by_label("Copy code").is_some()
    });
    let code = harness
        .state()
        .network_snapshot()
        .and_then(|s| s.code)
        .expect("a code");
    assert!(
        code.parse::<reversi::net::room_code::RoomCode>().is_ok(),
        "{code}"
    );
    // Shown as a person reads it out (the host's whole key goes only
    // into the link), with what it protects against.
    let typed = code
        .parse::<reversi::net::room_code::RoomCode>()
        .unwrap()
        .to_string();
    let without_server = |text: &str| text.split('@').next().unwrap_or_default().to_string();
    assert!(
        !without_server(&typed).contains('.') && without_server(&code).contains('.'),
        "{typed} / {code}"
    );
    let shown = harness.get_by_label(&typed).rect();
    assert!(
        shown.center().x < 1000.0 - 240.0 && shown.height() >= 30.0,
        "the code is shown large, in the middle: {shown:?}"
    );
    assert!(
        harness
            .query_by_label_contains("The code's secret never reaches the server")
            .is_some()
    );
    assert!(
        harness
            .query_by_label("Status: waiting for the opponent")
            .is_some()
    );
    // The invite link a browser opens: the embedded server's page, with
    // the host's name for the friend's join screen.
    let link = code
        .parse::<reversi::net::room_code::RoomCode>()
        .unwrap()
        .invite_link()
        .expect("the embedded server's code names it")
        + "&from=Ann%20Lee";
    assert!(link.contains("/play/#"), "{link}");
    let link_shown = harness.get_by_label(&link).rect();
    // The QR code beside it reads back as that link (as a phone's camera
    // would read it off the screen).
    let image = harness.render().expect("the window renders");
    let mut prepared = rqrr::PreparedImage::prepare_from_greyscale(
        image.width() as usize,
        image.height() as usize,
        |x, y| {
            let [r, g, b, _] = image.get_pixel(x as u32, y as u32).0;
            ((u32::from(r) + u32::from(g) + u32::from(b)) / 3) as u8
        },
    );
    let grids = prepared.detect_grids();
    assert_eq!(grids.len(), 1, "one QR code on the hosting screen");
    let (_, decoded) = grids[0].decode().expect("the QR code decodes");
    assert_eq!(decoded, link);
    // The link, its QR code and the code (and the address in them, of
    // varying length) differ from run to run: their rows are masked.
    harness.mask(egui::Rect::from_x_y_ranges(
        0.0..=780.0,
        link_shown.min.y..=shown.max.y,
    ));
    harness.snapshot("hosting");
}

#[test]
fn an_invite_link_names_the_host_on_the_join_screen() {
    let dir = TempDir::new("invited");
    let mut harness = app(&dir, light());
    harness.run();
    let ann = reversi::match_log::Identity::from_seed(1).public_key();
    let code = reversi::net::room_code::RoomCode::generate(&ann, None)
        .unwrap()
        .full();
    let fragment = format!("{code}&from=Ann%20Lee&name=Ben");
    harness.state_mut().open_link(&fragment).unwrap();
    harness.run();
    assert_eq!(harness.state().status().screen, "join");
    assert!(
        harness
            .query_by_label("Ann Lee invites you to a game of Reversi")
            .is_some()
    );
    assert!(
        harness
            .query_by_label_contains(&format!("The host must have the key {}", ann.fingerprint()))
            .is_some(),
        "and their whole key, which the connection checks"
    );
}

#[test]
fn joining_with_a_malformed_code_shows_the_error() {
    let dir = TempDir::new("join");
    let mut harness = app(&dir, light());
    harness.run();
    harness.get_by_label("Join a game").click();
    harness.run();
    // The first field is the code (the second, the player's name).
    let code_field = || Role::TextInput;
    harness
        .get_all_by_role(code_field())
        .next()
        .unwrap()
        .focus();
    harness.run();
    harness
        .get_all_by_role(code_field())
        .next()
        .unwrap()
        .type_text("K7QF-M2XA");
    harness.run();
    harness.get_by_label("Join").click();
    harness.run();
    assert!(
        harness
            .query_by_label_contains("a room code has 21 characters")
            .is_some()
    );
}

/// From Home, opens the log at `path` in the viewer, typed as a user would.
fn open_in_viewer(harness: &mut Harness<'_, ReversiApp>, path: &std::path::Path) {
    harness.run();
    harness.get_by_label("Open a match log").click();
    harness.run();
    harness.get_by_role(Role::TextInput).focus();
    harness.run();
    harness
        .get_by_role(Role::TextInput)
        .type_text(path.to_str().unwrap());
    harness.run();
    harness.get_by_label("Open").click();
    harness.run();
}

#[test]
fn the_log_viewer_steps_through_a_selfplay_game() {
    let dir = TempDir::new("viewer");
    let log = dir.0.join("game.log");
    let status = support::reversi()
        .args([
            "--data-dir",
            dir.0.to_str().unwrap(),
            "selfplay",
            "--seed",
            "5",
            "--out",
            log.to_str().unwrap(),
        ])
        .status()
        .unwrap();
    assert!(status.success());
    let mut harness = app(&dir, light());
    open_in_viewer(&mut harness, &log);
    if let Some(error) = harness.query_by_label_contains("Does not verify") {
        panic!("the log did not open: {error:?}");
    }
    assert!(harness.query_by_label_contains("records verify").is_some());
    assert!(harness.query_by_label_contains("move 0 of").is_some());
    harness.get_by_label("Next ▶").click();
    harness.run();
    assert!(harness.query_by_label_contains("move 1 of").is_some());
    assert!(
        harness.query_by_label("Black 4 — White 1").is_some(),
        "the first move is on the board"
    );
    // The file path (a temporary folder) differs from run to run.
    let path_field = harness.get_by_role(Role::TextInput).rect();
    harness.mask(path_field);
    harness.snapshot("log_viewer");
    harness.get_by_label("◀ Previous").click();
    harness.run();
    assert!(harness.query_by_label("Black 2 — White 2").is_some());
}

#[test]
fn the_viewer_analyses_a_game_in_the_background_as_reversi_analyze_does() {
    let dir = TempDir::new("viewer-analysis");
    let log = dir.0.join("game.log");
    let made = reversi_cli(
        &dir,
        "cli",
        &["selfplay", "--seed", "5", "--out", log.to_str().unwrap()],
    );
    assert!(log.exists(), "selfplay wrote no log: {made}");
    let cli: serde_json::Value = serde_json::from_str(&reversi_cli(
        &dir,
        "cli",
        &[
            "analyze",
            log.to_str().unwrap(),
            "--depth",
            "6",
            "--exact",
            "16",
            "--json",
        ],
    ))
    .expect("reversi analyze --json prints JSON");
    let moves = cli["moves"].as_array().unwrap();
    let marked = moves
        .iter()
        .find(|m| !m["mark"].is_null())
        .expect("a random selfplay game has a mistake");
    let number = marked["number"].as_u64().unwrap();
    let best = marked["best"].as_str().unwrap();

    let mut harness = app(&dir, light());
    open_in_viewer(&mut harness, &log);
    harness.get_by_label("Analyse the game").click();
    // The window keeps drawing while the moves are searched.
    wait_for(&mut harness, "the analysis to start", |h| {
        h.query_by_label_contains("Analysing move").is_some()
    });
    wait_for(&mut harness, "the analysis", |h| {
        h.query_by_label_contains("Analysis done").is_some()
    });
    let button = format!(
        "{number} {} {}",
        marked["move"].as_str().unwrap(),
        marked["mark"].as_str().unwrap()
    );
    harness.get_by_label_contains(&button).click();
    harness.run();
    assert!(
        harness
            .query_by_label_contains(&format!("move {} of", number - 1))
            .is_some(),
        "a click on a marked move shows the position before it"
    );
    let said = format!("Move {number}: ");
    let description = harness
        .query_by_label_contains(&said)
        .and_then(|node| {
            use egui_kittest::kittest::NodeT;
            node.accesskit_node().label().or_else(|| node.value())
        })
        .expect("the move is described");
    assert!(
        description.contains(&format!("best {best} ")),
        "the window's best move is the CLI's: {description} / {marked}"
    );
    let path_field = harness.get_by_role(Role::TextInput).rect();
    harness.mask(path_field);
    harness.snapshot("log_viewer_analysis");
}

#[test]
fn a_damaged_log_dropped_on_the_viewer_shows_the_audit_error() {
    let dir = TempDir::new("viewer-drop");
    let log = dir.0.join("game.log");
    let reversi = |args: &[&str]| {
        support::reversi()
            .arg("--data-dir")
            .arg(&dir.0)
            .args(args)
            .output()
            .unwrap()
    };
    let made = reversi(&["selfplay", "--seed", "5", "--out", log.to_str().unwrap()]);
    assert!(made.status.success());
    // One character of record 6's signature changed.
    let text = std::fs::read_to_string(&log).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let at = lines[6].find("\",\"view\"").unwrap() - 4;
    let old = lines[6].as_bytes()[at];
    lines[6].replace_range(at..at + 1, if old == b'A' { "B" } else { "A" });
    let damaged = format!("{}\n", lines.join("\n"));
    let damaged_path = dir.0.join("damaged.log");
    std::fs::write(&damaged_path, &damaged).unwrap();
    let audit = reversi(&["audit", damaged_path.to_str().unwrap()]);
    assert!(!audit.status.success(), "the damaged log fails the audit");
    let audit_said = String::from_utf8_lossy(&audit.stderr).to_string();
    let mut harness = app(&dir, light());
    harness.run();
    // Dropped on Home, as the browser delivers a file: its name and bytes,
    // no path. The viewer opens with it.
    harness.input_mut().dropped_files.push(egui::DroppedFile {
        name: "damaged.log".into(),
        bytes: Some(damaged.into_bytes().into()),
        ..Default::default()
    });
    harness.run();
    let shown = harness
        .query_by_label_contains("Does not verify")
        .and_then(|node| {
            use egui_kittest::kittest::NodeT;
            node.accesskit_node().label().or_else(|| node.value())
        })
        .expect("the viewer shows the audit's verdict");
    let reason = shown.trim_start_matches("Does not verify: ");
    assert!(reason.starts_with("record 6"), "{shown}");
    assert!(
        audit_said.contains(reason),
        "the viewer says what `reversi audit` says: {shown:?} / {audit_said:?}"
    );
}

#[test]
fn a_link_starts_a_game_against_the_computer_and_a_bad_link_says_why() {
    let dir = TempDir::new("link");
    let mut harness = app(&dir, light());
    harness.run();
    let refused = harness.state_mut().open_link("#computer&level=11");
    assert!(refused.unwrap_err().to_string().contains("1–10"));
    harness.run();
    assert!(
        harness.query_by_label_contains("1–10").is_some(),
        "Home shows why"
    );
    assert_eq!(harness.state().status().screen, "home");
    harness
        .state_mut()
        .open_link("#computer&level=2&color=white")
        .unwrap();
    wait_for(&mut harness, "the computer's first move", |h| {
        h.state().status().my_turn
    });
    let status = harness.state().status();
    assert_eq!(status.screen, "game");
    assert_eq!(
        status.moves.len(),
        2,
        "the computer (Black) moved: {status:?}"
    );
    assert!(!status.legal.is_empty());
    assert!(harness.query_by_label_contains("level 2").is_some());
}

#[test]
fn on_a_phone_held_upright_the_board_fills_the_width_and_controls_fit_a_finger() {
    let dir = TempDir::new("phone");
    let mut harness = phone(dir);
    harness.run();
    // Home's two cards, one above the other, each within the screen.
    let play = harness.get_by_label("Play the computer").rect();
    let host = harness.get_by_label("Host a game").rect();
    assert!(
        host.top() > play.bottom(),
        "stacked: {play:?} then {host:?}"
    );
    assert!(play.right() <= 390.0 && host.right() <= 390.0);
    harness.get_by_label("Play the computer").click();
    wait_for(&mut harness, "the board", |h| {
        h.query_by_label("d3").is_some()
    });
    harness.run();
    let a1 = harness.get_by_label("a1").rect();
    let h8 = harness.get_by_label("h8").rect();
    let board_width = h8.right() - a1.left();
    // The squares, and around them a margin with the coordinates.
    assert!(
        board_width >= 350.0 && a1.left() <= 20.0 && h8.right() >= 370.0,
        "the board spans the width: {board_width} from {}",
        a1.left()
    );
    assert!(
        a1.width() >= 44.0,
        "a square fits a fingertip: {}",
        a1.width()
    );
    for label in ["Hint", "Resign", "Home"] {
        let rect = harness.get_by_label(label).rect();
        assert!(rect.height() >= 44.0, "{label} is {} high", rect.height());
        assert!(rect.top() >= h8.bottom(), "{label} is under the board");
    }
    harness.snapshot("phone_game");
    // A tap plays.
    harness.get_by_label("d3").click();
    wait_for(&mut harness, "the move", |h| !shows_score(h, 2, 2));
}

#[derive(Default)]
struct MemoryStorage(std::collections::HashMap<String, String>);

impl eframe::Storage for MemoryStorage {
    fn get_string(&self, key: &str) -> Option<String> {
        self.0.get(key).cloned()
    }
    fn set_string(&mut self, key: &str, value: String) {
        self.0.insert(key.to_string(), value);
    }
    fn flush(&mut self) {}
}

#[test]
fn settings_survive_a_restart() {
    let dir = TempDir::new("settings");
    let mut harness = app(&dir, light());
    harness.run();
    harness.get_by_label("Settings").click();
    harness.run();
    harness.get_by_label("Dark theme").click();
    harness.run();
    let mut storage = MemoryStorage::default();
    eframe::App::save(harness.state_mut(), &mut storage);
    let restored: Settings = eframe::get_value(&storage, reversi::app::SETTINGS_KEY).unwrap();
    assert!(restored.dark, "the theme choice was saved");
    assert_eq!(restored, harness.state().settings().clone());
}

#[ignore = "a real WebRTC game (slow): tests/all.sh runs it"]
#[test]
fn two_app_instances_play_a_short_game_through_a_real_signaling_server() {
    let _cpu = CPU_HEAVY.lock().unwrap_or_else(|e| e.into_inner());
    let dir_a = TempDir::new("e2e-host");
    let dir_b = TempDir::new("e2e-guest");
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let server = runtime.block_on(support::signaling_server::in_process(Default::default()));
    let settings = Settings {
        server_url: format!("ws://{}", server.addr),
        ..light()
    };
    let mut host = app(
        &dir_a,
        Settings {
            name: "Ann".into(),
            ..settings.clone()
        },
    );
    let mut guest = app(
        &dir_b,
        Settings {
            name: "Ben".into(),
            ..settings
        },
    );
    // A short game: three discs each.
    let setup: Setup = "-------------------O-------O--O---X----X-O-------------X---O---- X"
        .parse()
        .unwrap();
    let options = RuleOptions {
        discs: Discs::PerPlayer(3),
        ..RuleOptions::default()
    };
    let rules = Rules::new(options, setup).unwrap();
    let ctx = host.ctx.clone();
    host.state_mut()
        .start_host(&ctx, RulesProposal::fixed(rules), 3600);
    wait_for(&mut host, "the code", |h| {
        h.state().network_snapshot().and_then(|s| s.code).is_some()
    });
    let code = host
        .state()
        .network_snapshot()
        .unwrap()
        .code
        .unwrap()
        .parse()
        .unwrap();
    let ctx = guest.ctx.clone();
    guest.state_mut().start_join(&ctx, code);
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        assert!(Instant::now() < deadline, "the game did not finish");
        let mut finished = 0;
        for harness in [&mut host, &mut guest] {
            harness.step();
            let snap = harness.state().network_snapshot().unwrap();
            assert!(snap.error.is_none(), "{:?}", snap.error);
            if snap.outcome.is_some() {
                finished += 1;
            } else if snap.my_turn {
                let square = snap
                    .position
                    .unwrap()
                    .legal_moves()
                    .squares()
                    .next()
                    .unwrap();
                // The snapshot is the game thread's, and may be ahead of
                // the last frame drawn: draw it, then click if the square
                // is there (else next round).
                harness.step();
                if let Some(button) =
                    harness.query_by_role_and_label(Role::Button, &square.to_string())
                {
                    button.click();
                    harness.step();
                }
            }
        }
        if finished == 2 {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let a = host.state().network_snapshot().unwrap();
    let b = guest.state().network_snapshot().unwrap();
    assert_eq!(a.outcome, b.outcome);
    assert_ne!(a.my_color, b.my_color);
    assert!(a.safety_code.is_some());
    assert_eq!(
        a.safety_code, b.safety_code,
        "both windows show one safety code"
    );
    assert!(
        a.safety_words
            .as_ref()
            .is_some_and(|w| w.split(' ').count() == 6)
    );
    assert_eq!(
        a.safety_words, b.safety_words,
        "and the same six safety words"
    );
    let first_log = a.log.clone().unwrap();
    let log_a = std::fs::read(a.log.unwrap()).unwrap();
    let log_b = std::fs::read(b.log.unwrap()).unwrap();
    assert_eq!(log_a, log_b, "both windows wrote the same signed log");
    wait_for(&mut host, "the result", |h| {
        ["You win", "You lose", "Draw"]
            .iter()
            .any(|verdict| h.query_by_label(verdict).is_some())
    });
    // A rematch: Ann proposes, Ben waits, is asked and accepts; a new game
    // with the same rules begins, its genesis naming the first game.
    guest.get_by_label("Wait for a rematch").click();
    guest.step();
    host.get_by_label("Rematch").click();
    let deadline = Instant::now() + Duration::from_secs(60);
    while !guest
        .state()
        .network_snapshot()
        .is_some_and(|s| s.rematch_offered)
    {
        assert!(Instant::now() < deadline, "no rematch offer arrived");
        host.step();
        guest.step();
        std::thread::sleep(Duration::from_millis(10));
    }
    guest.run();
    guest.get_by_label("Accept").click();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        assert!(Instant::now() < deadline, "the rematch did not start");
        host.step();
        guest.step();
        let (a, b) = (
            host.state().network_snapshot().unwrap(),
            guest.state().network_snapshot().unwrap(),
        );
        assert!(
            a.error.is_none() && b.error.is_none(),
            "{:?} {:?}",
            a.error,
            b.error
        );
        if a.position.is_some() && b.position.is_some() && a.my_color.is_some() {
            let log = a.log.unwrap();
            assert_ne!(log, first_log, "a new log");
            let (_, verifier) =
                reversi::match_log::audit::audit_log_bytes(&std::fs::read(&log).unwrap()).unwrap();
            let first =
                reversi::match_log::audit::audit_log_bytes(&std::fs::read(&first_log).unwrap())
                    .unwrap()
                    .1;
            assert_eq!(verifier.previous_game(), Some(first.game_id()));
            assert_eq!(verifier.proposal(), first.proposal());
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn custom_rules_and_a_start_position_edited_on_the_board() {
    let dir = TempDir::new("custom");
    let mut harness = app(&dir, light());
    harness.run();
    // The rules are one step away from Home.
    harness.get_by_label_contains("Rules: ").click();
    harness.run();
    harness
        .get_by_label("Custom rules (individual options, own start position)")
        .click();
    harness.run();
    harness.get_by_label("torus").click();
    harness.run();
    // The editor starts from the standard position; a1 becomes black, then white, then a wall.
    let empty_before = harness_node_count(&harness, "·");
    harness.get_all_by_label("·").next().unwrap().click();
    harness.run();
    assert_eq!(harness_node_count(&harness, "·"), empty_before - 1);
    assert!(
        harness.state().settings().setup.starts_with('X'),
        "a1 is black now: {}",
        harness.state().settings().setup
    );
    harness
        .get_by_role_and_label(Role::Button, "Play the computer")
        .click();
    harness.run();
    assert!(
        shows_score(&harness, 3, 2),
        "the game starts from the edited position"
    );
}

fn harness_node_count(harness: &Harness<'_, ReversiApp>, label: &str) -> usize {
    harness.get_all_by_label(label).count()
}

#[test]
fn an_unfinished_game_against_the_computer_is_resumed_after_a_restart() {
    let dir = TempDir::new("resume-local");
    let mut harness = app(&dir, light());
    harness.run();
    harness
        .get_by_role_and_label(Role::Button, "Play the computer")
        .click();
    harness.run();
    harness.get_by_role_and_label(Role::Button, "f5").click();
    harness.run();
    wait_for(&mut harness, "the computer's reply", |h| {
        h.query_by_label("Your move (black)").is_some()
    });
    let mut storage = MemoryStorage::default();
    eframe::App::save(harness.state_mut(), &mut storage);
    let settings: Settings = eframe::get_value(&storage, reversi::app::SETTINGS_KEY).unwrap();
    let saved = settings.saved_game.clone().expect("the game was saved");
    assert_eq!(saved.moves.len(), 4);

    let mut restarted = app(&dir, settings);
    restarted.run();
    restarted
        .get_by_label("Resume the game against the computer")
        .click();
    restarted.run();
    assert!(restarted.query_by_label("Your move (black)").is_some());
    let position = reversi::engine::replay(
        &Rules::default().start_position(),
        &reversi::engine::parse_transcript(&saved.moves).unwrap(),
    )
    .unwrap();
    let counts = position.counts();
    assert!(shows_score(&restarted, counts.black, counts.white));
}

#[test]
fn your_games_lists_a_correspondence_game_and_opens_it() {
    let dir = TempDir::new("your-games");
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let server = mailbox_server(&runtime, false);
    let url = format!("ws://{}", server.addr);
    let cli = |data: &str, args: &[&str]| reversi_cli(&dir, data, args);
    detached_game(&dir, &url);
    cli("host", &["games", "--server", &url]);
    let dir_guest = TempDir(dir.path("guest"));
    let settings = Settings {
        server_url: url.clone(),
        ..light()
    };
    let mut harness = app(&dir_guest, settings);
    wait_for(&mut harness, "the game in Your games", |h| {
        h.query_by_label("Your games").is_some() && h.query_by_label("Ann").is_some()
    });
    // The guest's visit revealed: the coin is flipped, a clock runs.
    wait_for(&mut harness, "whose move it is", |h| {
        h.query_by_label_contains("move (").is_some() && h.query_by_label_contains("left").is_some()
    });
    harness.get_by_label("Open").click();
    wait_for(&mut harness, "the position", |h| {
        h.query_by_label("Resign").is_some()
    });
    drop(harness);
}

/// The window's *Your games* and the command line on one game whose log
/// the player put elsewhere (`--log`): both find that log, neither makes a
/// second copy, and nothing is signed twice.
#[test]
fn your_games_and_the_command_line_use_the_log_named_with_log() {
    use reversi::match_log::log_file::read_log;
    let dir = TempDir::new("your-games-named-log");
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let server = mailbox_server(&runtime, false);
    let url = format!("ws://{}", server.addr);
    let g_log = dir.path("g.log");
    let code = reversi_cli(
        &dir,
        "host",
        &["host", "--detach", "--server", &url, "--name", "Ann"],
    );
    reversi_cli(
        &dir,
        "guest",
        &[
            "join",
            code.trim(),
            "--detach",
            "--name",
            "Ben",
            "--log",
            g_log.to_str().unwrap(),
        ],
    );
    reversi_cli(&dir, "host", &["games", "--server", &url]);
    let guest_dir = dir.path("guest");
    let settings = Settings {
        server_url: url.clone(),
        ..light()
    };
    let guest_home = TempDir(guest_dir.clone());
    let mut harness = app(&guest_home, settings);
    // The window's visit reveals from g.log: the coin is flipped.
    wait_for(&mut harness, "the game in Your games, under way", |h| {
        h.query_by_label("Ann").is_some() && h.query_by_label_contains("move (").is_some()
    });
    drop(harness);
    let copies: Vec<_> = std::fs::read_dir(guest_dir.join("games"))
        .map(|d| d.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default();
    assert!(copies.is_empty(), "no second copy: {copies:?}");
    // The command line goes on from the same log.
    let listed: serde_json::Value = serde_json::from_str(&reversi_cli(
        &dir,
        "guest",
        &["games", "--json", "--server", &url],
    ))
    .unwrap();
    let game = &listed[0];
    assert_eq!(
        std::path::Path::new(game["log"].as_str().unwrap()),
        std::fs::canonicalize(&g_log).unwrap()
    );
    let before = read_log(&g_log).unwrap().records.len();
    if game["my_turn"] == true {
        let square = game["legal"][0].as_str().unwrap();
        reversi_cli(
            &dir,
            "guest",
            &["move", g_log.to_str().unwrap(), square, "--server", &url],
        );
        assert_eq!(read_log(&g_log).unwrap().records.len(), before + 1);
    }
    let audit = support::reversi()
        .arg("audit")
        .arg(&g_log)
        .output()
        .unwrap();
    assert!(
        audit.status.success(),
        "{}",
        String::from_utf8_lossy(&audit.stdout)
    );
}

#[test]
fn resuming_a_hosted_game_from_the_window_brings_its_embedded_server_back() {
    use reversi::match_log::builder::{MatchBuilder, MatchTerms, Players};
    use reversi::match_log::{Identity, log_file::write_log};
    let dir = TempDir::new("window-resume");
    // A LAN game this data directory hosted, three moves in, whose window
    // (and with it the embedded server) has gone.
    let host = reversi::data_dir::DataDir::resolve(Some(&dir.0))
        .unwrap()
        .identity()
        .unwrap();
    let terms = MatchTerms {
        proposal: RulesProposal::fixed(Rules::preset(reversi::engine::Preset::Othello)),
        deadline_secs: 86_400,
        host_name: "Ann".into(),
        guest_name: "Ben".into(),
    };
    let players = Players {
        host,
        guest: Identity::generate().unwrap(),
        host_nonce: [1; 32],
        guest_nonce: [2; 32],
    };
    let now = reversi::platform::now_ms();
    let mut game = MatchBuilder::new(&terms, players, now).unwrap();
    for _ in 0..3 {
        let position = *game.verifier().current_position().unwrap();
        let square = position.legal_moves().squares().next().unwrap();
        game.play(square, now).unwrap();
    }
    let games = dir.0.join("games");
    std::fs::create_dir_all(&games).unwrap();
    let log = games.join("LANROOM0001.log");
    write_log(&log, game.records()).unwrap();
    let port = support::free_port();
    let room = format!(
        "{{\"embedded_server\":\"127.0.0.1:{port}\",\"mailbox\":null,\"room_url\":\"ws://127.0.0.1:{port}/LANROOM0001\"}}\n"
    );
    let room_path = games.join("LANROOM0001.log.room");
    std::fs::write(&room_path, &room).unwrap();
    let listening = || std::net::TcpStream::connect(("127.0.0.1", port)).is_ok();
    assert!(!listening());
    let mut harness = app(&dir, light());
    wait_for(&mut harness, "the game in Your games", |h| {
        h.query_by_label("Your games").is_some() && h.query_by_label("Ben").is_some()
    });
    harness.get_by_label("Open").click();
    let deadline = Instant::now() + Duration::from_secs(20);
    while !listening() {
        assert!(
            Instant::now() < deadline,
            "the resumed game's embedded server is back on port {port}"
        );
        harness.step();
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(
        std::fs::read_to_string(&room_path).unwrap(),
        room,
        "the room file still names the server"
    );
    // Leaving the game stops its connection and its server.
    drop(harness);
    let deadline = Instant::now() + Duration::from_secs(20);
    while listening() {
        assert!(
            Instant::now() < deadline,
            "the closed window's server stopped"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn the_leaderboard_setting_signs_a_join_and_a_leave_on_the_server() {
    let dir = TempDir::new("leaderboard-setting");
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let server = mailbox_server(&runtime, true);
    let url = format!("ws://{}", server.addr);
    let key = reversi::data_dir::DataDir::resolve(Some(&dir.0))
        .unwrap()
        .identity()
        .unwrap()
        .public_key();
    let board = reversi::net::leaderboard::Leaderboard::new(
        reversi::net::server_url::ServerUrl::parse(&url).unwrap(),
    );
    let member = || runtime.block_on(board.is_member(&key)).unwrap();
    assert!(!member());
    let settings = Settings {
        server_url: url.clone(),
        ..light()
    };
    let mut harness = app(&dir, settings);
    harness.get_by_label("Settings").click();
    harness.run();
    let label = "Count my finished games on this signaling server's leaderboard (with players who joined too)";
    harness.get_by_label(label).click();
    wait_for(&mut harness, "the join", |h| {
        h.query_by_label_contains("Joined the leaderboard")
            .is_some()
    });
    assert!(member(), "the server holds the signed join");
    assert!(harness.state().settings().leaderboard);
    harness.get_by_label(label).click();
    wait_for(&mut harness, "the leave", |h| {
        h.query_by_label_contains("Left the leaderboard").is_some()
    });
    assert!(!member());
    assert!(!harness.state().settings().leaderboard);
    drop(harness);
    server.shutdown_handle().shutdown();
}

#[test]
fn the_watch_screen_follows_a_game_from_its_watch_code() {
    let dir = TempDir::new("watch-screen");
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let server = mailbox_server(&runtime, false);
    let url = format!("ws://{}", server.addr);
    let cli = |data: &str, args: &[&str]| reversi_cli(&dir, data, args);
    detached_game(&dir, &url);
    let listed: serde_json::Value =
        serde_json::from_str(&cli("host", &["games", "--json", "--server", &url])).unwrap();
    let watch = listed[0]["watch"].as_str().unwrap().to_string();
    cli("guest", &["games", "--server", &url]);
    let mut harness = app(&TempDir(dir.path("spectator")), light());
    harness.get_by_label("Watch a game").click();
    harness.run();
    harness.get_by_role(Role::TextInput).focus();
    harness.run();
    harness.get_by_role(Role::TextInput).type_text(&watch);
    harness.run();
    harness.get_by_label("Watch").click();
    wait_for(&mut harness, "the players and their colours", |h| {
        h.query_by_label_contains("Black: ").is_some()
            && h.query_by_label_contains("White: ").is_some()
    });
    assert!(harness.query_by_label_contains("clock:").is_some());
    assert!(harness.query_by_label("Black 2 — White 2").is_some());
    drop(harness);
    server.shutdown_handle().shutdown();
}

fn type_into(harness: &mut Harness<'_, ReversiApp>, label: &str, text: &str) {
    harness.get_by_label(label).focus();
    harness.run();
    harness.get_by_label(label).type_text(text);
    harness.run();
}

#[test]
fn a_key_exported_in_the_window_is_the_same_key_on_the_command_line_and_back() {
    let dir = TempDir::new("key-window");
    let home = reversi::data_dir::DataDir::resolve(Some(&dir.0)).unwrap();
    let original = home.identity().unwrap().public_key();
    let mut harness = app(&dir, light());
    harness.run();
    harness.get_by_label("Settings").click();
    harness.run();
    assert!(
        harness
            .query_by_label_contains(&original.fingerprint().to_string())
            .is_some(),
        "the panel names the key"
    );
    let passphrase = "correct horse battery staple";
    type_into(
        &mut harness,
        "Passphrase (at least 10 characters)",
        passphrase,
    );
    type_into(&mut harness, "The passphrase again (to export)", passphrase);
    harness.get_by_label("Export your key").click();
    wait_for(&mut harness, "the export", |h| {
        h.query_by_label_contains("exported to").is_some()
    });
    let file = dir.0.join(format!(
        "reversi-identity-{}.txt",
        original.fingerprint().as_compact()
    ));
    assert!(file.is_file(), "{}", file.display());
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&file).unwrap().permissions().mode();
        assert_eq!(mode & 0o077, 0, "owner-only: {mode:o}");
    }
    // The command line takes it into another data directory.
    let pass_file = dir.0.join("passphrase");
    std::fs::write(&pass_file, format!("{passphrase}\n")).unwrap();
    let elsewhere = dir.0.join("elsewhere");
    reversi_cli(
        &dir,
        "elsewhere",
        &[
            "identity",
            "import",
            file.to_str().unwrap(),
            "--passphrase-file",
            pass_file.to_str().unwrap(),
        ],
    );
    let imported = reversi::data_dir::DataDir::resolve(Some(&elsewhere))
        .unwrap()
        .identity()
        .unwrap()
        .public_key();
    assert_eq!(imported, original);

    // And back: a key the command line exported elsewhere, pasted into
    // the window. A wrong passphrase is told and changes nothing.
    let third = dir.0.join("third");
    let exported = dir.0.join("export.txt");
    reversi_cli(
        &dir,
        "third",
        &[
            "identity",
            "export",
            exported.to_str().unwrap(),
            "--passphrase-file",
            pass_file.to_str().unwrap(),
        ],
    );
    let theirs = reversi::data_dir::DataDir::resolve(Some(&third))
        .unwrap()
        .identity()
        .unwrap()
        .public_key();
    let text = std::fs::read_to_string(&exported).unwrap();
    let paste =
        "Or paste a key exported elsewhere (a file reversi-identity-….txt) to make it yours here:";
    type_into(
        &mut harness,
        "Passphrase (at least 10 characters)",
        "not the passphrase",
    );
    type_into(&mut harness, paste, &text);
    harness.get_by_label("Import the key").click();
    wait_for(&mut harness, "the refusal", |h| {
        h.query_by_label_contains("wrong passphrase").is_some()
    });
    assert_eq!(home.identity().unwrap().public_key(), original);
    // The right passphrase, but a key is here already: refused until the
    // player says to replace it.
    type_into(
        &mut harness,
        "Passphrase (at least 10 characters)",
        passphrase,
    );
    harness.get_by_label("Import the key").click();
    wait_for(&mut harness, "the refusal", |h| {
        h.query_by_label_contains("already holds another key")
            .is_some()
    });
    assert_eq!(home.identity().unwrap().public_key(), original);
    harness
        .get_by_label("Replace the key here (it is kept aside, not deleted)")
        .click();
    type_into(
        &mut harness,
        "Passphrase (at least 10 characters)",
        passphrase,
    );
    harness.get_by_label("Import the key").click();
    wait_for(&mut harness, "the import", |h| {
        h.query_by_label_contains("your key is now").is_some()
    });
    assert_eq!(home.identity().unwrap().public_key(), theirs);
    let kept = dir.0.join(format!(
        "identity.key.{}",
        original.fingerprint().as_compact()
    ));
    assert!(kept.is_file(), "the previous key is kept aside");
}

/// A message's text in a language's Fluent file (one-line messages only).
fn message(language: &str, id: &str) -> String {
    let path = format!("{}/src/app/i18n/{language}.ftl", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .find_map(|line| line.strip_prefix(&format!("{id} = ")))
        .unwrap_or_else(|| panic!("{language}.ftl has no {id}"))
        .to_string()
}

#[test]
fn the_language_chosen_in_settings_is_spoken_on_every_screen() {
    let dir = TempDir::new("language");
    let mut harness = app(&dir, light());
    harness.run();
    harness.get_by_label("Settings").click();
    harness.run();
    harness
        .get_by_role_and_label(Role::ComboBox, "Language")
        .click();
    harness.run();
    harness.get_by_label("Deutsch").click();
    harness.run();
    assert_eq!(harness.state().status().language, "de");
    assert_eq!(harness.state().settings().language, Some(Language::German));
    harness.get_by_label(&message("de", "back")).click();
    harness.run();
    assert!(
        harness
            .query_by_label(&message("de", "home-play-computer"))
            .is_some(),
        "Home speaks German"
    );
    harness
        .get_by_label(&message("de", "home-play-computer"))
        .click();
    harness.run();
    assert!(
        harness
            .query_by_label(&message("de", "game-resign"))
            .is_some()
    );
}

#[test]
fn japanese_is_drawn_with_its_own_font() {
    let dir = TempDir::new("japanese");
    let mut harness = app(
        &dir,
        Settings {
            language: Some(Language::Japanese),
            ..light()
        },
    );
    harness.run();
    assert_eq!(harness.state().status().language, "ja");
    assert!(
        harness
            .query_by_label(&message("ja", "home-play-computer"))
            .is_some()
    );
    harness.snapshot("home_japanese");
}
