//! The desktop client (eframe/egui). `main.rs` opens it; the app lives
//! here, one screen at a time. Networking and bot thinking run on their own
//! threads; the window repaints when they report and is idle otherwise.

mod analysis_view;
pub mod board_view;
mod game_screen;
mod key_transfer;
#[cfg(not(target_arch = "wasm32"))]
mod leaderboard_job;
pub mod local_game;
pub mod log_viewer;
pub mod network_game;
mod online;
mod qr_view;
#[cfg(not(target_arch = "wasm32"))]
pub mod watch_game;
#[cfg(not(target_arch = "wasm32"))]
pub mod your_games;

#[cfg(not(target_arch = "wasm32"))]
use std::net::SocketAddr;
#[cfg(not(target_arch = "wasm32"))]
use std::path::PathBuf;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::engine::{
    Color, Outcome, Position, Preset, RuleOptions, Rules, Setup, Square, format_transcript,
    parse_transcript, replay,
};
use crate::net::room_code::RoomCode;
use board_view::{BoardMarks, board};
use game_screen::{GameInput, Part};
use local_game::LocalGame;
use log_viewer::ViewedLog;
use network_game::NetworkGame;

/// How long a flip animation takes.
const FLIP_TIME: Duration = Duration::from_millis(300);

/// The colour the person asks for against the computer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum ColorChoice {
    /// Black moves first.
    #[default]
    Black,
    /// White.
    White,
    /// Drawn at random.
    Random,
}

/// What the app remembers between runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// The name opponents see.
    pub name: String,
    /// Signaling server URL; empty means the embedded server (LAN play).
    pub server_url: String,
    /// STUN/TURN URLs, separated by spaces.
    pub ice_urls: String,
    /// TURN user name.
    pub turn_user: String,
    /// TURN password.
    pub turn_password: String,
    /// Animate flipping discs.
    pub animations: bool,
    /// Dark theme.
    pub dark: bool,
    /// Computer level, 1–10.
    pub level: u8,
    /// The longest the computer thinks per move, in seconds.
    pub move_time_secs: u32,
    /// Colour against the computer.
    pub color: ColorChoice,
    /// The rules preset for new games.
    pub preset: String,
    /// Per-move deadline for hosted games, e.g. `1day`.
    pub deadline: String,
    /// Use the individual options below instead of the preset.
    pub custom: bool,
    /// Custom options, as on the command line: opening, discs, scoring,
    /// draw, topology.
    pub options: [String; 5],
    /// Custom start position (`<64 cells> X|O`); empty for the standard one.
    pub setup: String,
    /// A game against the computer left unfinished, to resume from Home.
    pub saved_game: Option<SavedGame>,
    /// Ask for attention when one of your games becomes your move.
    pub notify_your_move: bool,
    /// Count my finished games on the signaling server's leaderboard (a
    /// signed statement is sent when this changes).
    pub leaderboard: bool,
    /// Host games under the Japanese draw rule: the player the lot names
    /// chooses which colour wins an equal count, the other a colour.
    pub draw_by_lot: bool,
}

/// A game against the computer, as remembered between runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedGame {
    /// Options as on the command line: opening, discs, scoring, draw, topology.
    pub options: [String; 5],
    /// The start position text.
    pub setup: String,
    /// The moves so far, in transcript notation.
    pub moves: String,
    /// Whether the person plays Black.
    pub human_black: bool,
    /// The computer's level.
    pub level: u8,
}

/// Options as strings (the form settings keep them in).
fn option_strings(options: RuleOptions) -> [String; 5] {
    [
        options.opening.to_string(),
        options.discs.to_string(),
        options.scoring.to_string(),
        options.draw.to_string(),
        options.topology.to_string(),
    ]
}

/// Rules from option strings and setup text, with the reason if they are not valid.
fn rules_from_strings(options: &[String; 5], setup: &str) -> Result<Rules, String> {
    let options = RuleOptions {
        opening: options[0]
            .parse()
            .map_err(|e: crate::engine::ParseOptionError| e.to_string())?,
        discs: options[1]
            .parse()
            .map_err(|e: crate::engine::ParseOptionError| e.to_string())?,
        scoring: options[2]
            .parse()
            .map_err(|e: crate::engine::ParseOptionError| e.to_string())?,
        draw: options[3]
            .parse()
            .map_err(|e: crate::engine::ParseOptionError| e.to_string())?,
        topology: options[4]
            .parse()
            .map_err(|e: crate::engine::ParseOptionError| e.to_string())?,
    };
    let setup = if setup.trim().is_empty() {
        Setup::for_opening(options.opening)
    } else {
        setup.parse::<Setup>().map_err(|e| e.to_string())?
    };
    Rules::new(options, setup).map_err(|e| e.to_string())
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            name: "Player".into(),
            server_url: String::new(),
            ice_urls: String::new(),
            turn_user: String::new(),
            turn_password: String::new(),
            animations: true,
            dark: true,
            level: 3,
            move_time_secs: 1,
            color: ColorChoice::Black,
            preset: "othello".into(),
            deadline: "1day".into(),
            custom: false,
            options: option_strings(RuleOptions::default()),
            setup: String::new(),
            saved_game: None,
            notify_your_move: true,
            draw_by_lot: false,
            leaderboard: false,
        }
    }
}

/// The key under which settings are stored.
pub const SETTINGS_KEY: &str = "reversi-settings";

enum Screen {
    Home,
    Local(Box<LocalGame>),
    Network(Box<NetworkGame>),
    Join {
        code: String,
        /// The host's name, as their invite link gives it (unchecked: the
        /// code's key is what the connection checks).
        host_name: Option<String>,
        error: Option<String>,
    },
    Viewer {
        path: String,
        log: Option<Result<ViewedLog, String>>,
        step: usize,
        analysis: Option<Box<analysis_view::AnalysisJob>>,
    },
    Settings,
    #[cfg(not(target_arch = "wasm32"))]
    Watch {
        code: String,
        error: Option<String>,
        game: Option<Box<watch_game::WatchGame>>,
    },
}

/// The desktop client.
pub struct ReversiApp {
    /// Remembered settings.
    pub settings: Settings,
    screen: Screen,
    #[cfg(not(target_arch = "wasm32"))]
    data_dir: Option<PathBuf>,
    #[cfg(not(target_arch = "wasm32"))]
    listen: SocketAddr,
    confirm_resign: bool,
    /// Whether the join screen joins at once (a link said `autojoin`).
    pending_join: bool,
    /// Whether to host a game at once (a link said `host`).
    pending_host: bool,
    /// The last network position seen, and the discs its move turned (for the flip animation).
    seen: Option<(Position, crate::engine::Bitboard, crate::platform::Instant)>,
    typed: String,
    message: Option<String>,
    seed: u64,
    /// Home's list of network games, refreshed in the background.
    #[cfg(not(target_arch = "wasm32"))]
    your_games: Option<your_games::YourGames>,
    /// Whether the title says it is your move.
    #[cfg(not(target_arch = "wasm32"))]
    titled_your_move: bool,
    /// A leaderboard request under way.
    #[cfg(not(target_arch = "wasm32"))]
    leaderboard_job: Option<leaderboard_job::LeaderboardJob>,
    /// The last leaderboard answer, for the player.
    #[cfg(not(target_arch = "wasm32"))]
    leaderboard_said: Option<String>,
    /// The membership setting before a join or leave under way, restored
    /// if the server does not take it.
    #[cfg(not(target_arch = "wasm32"))]
    leaderboard_before: Option<bool>,
    /// Settings' *Your key* panel: an export or import under way, and
    /// what the last one did.
    key_transfer: key_transfer::KeyTransfer,
}

impl ReversiApp {
    /// The app with remembered settings (if `storage` has them).
    pub fn new(cc: &eframe::CreationContext<'_>) -> ReversiApp {
        let settings = cc
            .storage
            .and_then(|s| eframe::get_value(s, SETTINGS_KEY))
            .unwrap_or_default();
        ReversiApp::with_settings(settings)
    }

    /// The app with these settings.
    pub fn with_settings(settings: Settings) -> ReversiApp {
        ReversiApp {
            settings,
            screen: Screen::Home,
            #[cfg(not(target_arch = "wasm32"))]
            data_dir: None,
            #[cfg(not(target_arch = "wasm32"))]
            listen: "0.0.0.0:3536".parse().expect("valid"),
            confirm_resign: false,
            pending_join: false,
            pending_host: false,
            seen: None,
            typed: String::new(),
            message: None,
            seed: crate::platform::now_ms(),
            #[cfg(not(target_arch = "wasm32"))]
            your_games: None,
            #[cfg(not(target_arch = "wasm32"))]
            titled_your_move: false,
            #[cfg(not(target_arch = "wasm32"))]
            leaderboard_job: None,
            #[cfg(not(target_arch = "wasm32"))]
            leaderboard_said: None,
            #[cfg(not(target_arch = "wasm32"))]
            leaderboard_before: None,
            key_transfer: key_transfer::KeyTransfer::default(),
        }
    }

    /// Uses this data directory (keys, logs) instead of the default, and
    /// this address for the embedded signaling server (tests use loopback).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn with_data_dir(mut self, dir: PathBuf, listen: SocketAddr) -> ReversiApp {
        self.data_dir = Some(dir);
        self.listen = listen;
        self
    }

    /// Starts a game against the computer with explicit rules (as the
    /// Play button does with the chosen preset).
    pub fn start_local(&mut self, rules: Rules, human: Color) {
        self.screen = Screen::Local(Box::new(LocalGame::new(
            rules,
            human,
            self.settings.level,
            self.seed,
        )));
    }

    fn resume_local(&mut self, saved: &SavedGame) {
        let restored = rules_from_strings(&saved.options, &saved.setup).and_then(|rules| {
            let moves = parse_transcript(&saved.moves).map_err(|e| e.to_string())?;
            replay(&rules.start_position(), &moves).map_err(|e| e.to_string())?;
            let human = if saved.human_black {
                Color::Black
            } else {
                Color::White
            };
            let mut game = LocalGame::new(rules, human, saved.level, self.seed);
            for square in moves {
                game.replay_move(square);
            }
            Ok(game)
        });
        match restored {
            Ok(game) => self.screen = Screen::Local(Box::new(game)),
            Err(e) => self.message = Some(format!("the saved game cannot be restored: {e}")),
        }
    }

    /// The rules chosen on Home: the preset, or the custom options.
    fn rules(&self) -> Result<Rules, String> {
        if self.settings.custom {
            return rules_from_strings(&self.settings.options, &self.settings.setup)
                .map_err(|e| format!("custom rules: {e}"));
        }
        let preset = self
            .settings
            .preset
            .parse::<Preset>()
            .unwrap_or(Preset::Othello);
        Ok(Rules::preset(preset))
    }

    /// The individual options and the start-position editor.
    fn custom_rules(&mut self, ui: &mut egui::Ui) {
        ui.checkbox(
            &mut self.settings.custom,
            "Custom rules (individual options, own start position)",
        );
        if !self.settings.custom {
            return;
        }
        let choices: [(&str, &[&str]); 5] = [
            ("Opening", &["preset", "free", "double"]),
            ("Discs", &["unlimited", "32", "20", "12"]),
            ("Scoring", &["count", "empties"]),
            ("Equal count", &["draw", "black", "white"]),
            ("Board", &["plane", "torus"]),
        ];
        egui::Grid::new("options").num_columns(2).show(ui, |ui| {
            for (i, (label, values)) in choices.into_iter().enumerate() {
                ui.label(label);
                ui.horizontal(|ui| {
                    for value in values {
                        ui.selectable_value(
                            &mut self.settings.options[i],
                            value.to_string(),
                            *value,
                        );
                    }
                });
                ui.end_row();
            }
        });
        ui.label("Start position — click a square to cycle empty, black, white, wall:");
        let opening = self.settings.options[0].parse().unwrap_or_default();
        let mut setup = self
            .settings
            .setup
            .parse::<Setup>()
            .unwrap_or_else(|_| Setup::for_opening(opening));
        let mut changed = false;
        egui::Grid::new("editor")
            .spacing([2.0, 2.0])
            .show(ui, |ui| {
                for row in 0..8 {
                    for column in 0..8 {
                        let square = Square::from_coords(column, row).expect("in range");
                        let (label, next) = if setup.walls.contains(square) {
                            ("#", 0)
                        } else if setup.black.contains(square) {
                            ("●", 2)
                        } else if setup.white.contains(square) {
                            ("○", 3)
                        } else {
                            ("·", 1)
                        };
                        let button = egui::Button::new(label).min_size(egui::vec2(22.0, 22.0));
                        if ui.add(button).on_hover_text(square.to_string()).clicked() {
                            let keep = !square.bit();
                            setup.black.0 &= keep;
                            setup.white.0 &= keep;
                            setup.walls.0 &= keep;
                            match next {
                                1 => setup.black = setup.black.with(square),
                                2 => setup.white = setup.white.with(square),
                                3 => setup.walls = setup.walls.with(square),
                                _ => {}
                            }
                            changed = true;
                        }
                    }
                    ui.end_row();
                }
            });
        ui.horizontal(|ui| {
            ui.label("First to move:");
            changed |= ui
                .selectable_value(&mut setup.to_move, Color::Black, "Black")
                .changed();
            changed |= ui
                .selectable_value(&mut setup.to_move, Color::White, "White")
                .changed();
            if ui.button("Standard start").clicked() {
                self.settings.setup.clear();
                changed = false;
            }
        });
        if changed {
            self.settings.setup = setup.to_string();
        }
        if let Err(e) = rules_from_strings(&self.settings.options, &self.settings.setup) {
            ui.colored_label(egui::Color32::from_rgb(0xe0, 0x60, 0x60), e);
        }
    }

    fn home(&mut self, ui: &mut egui::Ui) {
        ui.vertical_centered(|ui| {
            ui.add_space(12.0);
            ui.label(egui::RichText::new("Reversi").size(40.0).strong());
            ui.label("In all its historic forms, peer to peer, every move signed.");
            ui.add_space(12.0);
        });
        // The two things people come for, large; side by side when there
        // is room, one above the other on a phone.
        let wide = ui.available_width() >= 2.0 * CARD_WIDTH + 24.0;
        let cards = |app: &mut ReversiApp, ui: &mut egui::Ui| {
            card(ui, |ui| app.computer_card(ui));
            card(ui, |ui| app.friend_section(ui));
        };
        if wide {
            ui.columns(2, |columns| {
                columns[0].vertical_centered(|ui| card(ui, |ui| self.computer_card(ui)));
                columns[1].vertical_centered(|ui| card(ui, |ui| self.friend_section(ui)));
            });
        } else {
            ui.vertical_centered(|ui| cards(self, ui));
        }
        ui.add_space(12.0);
        ui.separator();
        egui::CollapsingHeader::new(format!("Rules: {}", self.rules_name()))
            .id_salt("rules")
            .show(ui, |ui| {
                ui.horizontal(|ui| {
                    ui.label("Preset:");
                    egui::ComboBox::from_id_salt("preset")
                        .selected_text(self.settings.preset.clone())
                        .show_ui(ui, |ui| {
                            for preset in Preset::ALL {
                                ui.selectable_value(
                                    &mut self.settings.preset,
                                    preset.name().to_string(),
                                    preset.name(),
                                )
                                .on_hover_text(preset.summary());
                            }
                        });
                });
                if let Ok(preset) = self.settings.preset.parse::<Preset>() {
                    ui.small(preset.summary());
                }
                self.custom_rules(ui);
            });
        ui.horizontal_wrapped(|ui| {
            if ui.button("Open a match log").clicked() {
                self.screen = Screen::Viewer {
                    path: String::new(),
                    log: None,
                    step: 0,
                    analysis: None,
                };
            }
            if ui.button("Settings").clicked() {
                self.screen = Screen::Settings;
            }
        });
        self.ongoing_games(ui);
    }

    /// The rules a new game gets, in a few words.
    fn rules_name(&self) -> String {
        if self.settings.custom {
            "custom".to_string()
        } else {
            self.settings.preset.clone()
        }
    }

    /// Home's *Play the computer*: the big button, the level and colour.
    fn computer_card(&mut self, ui: &mut egui::Ui) {
        if big_button(ui, "Play the computer").clicked() {
            self.play_the_computer();
        }
        ui.add_space(6.0);
        ui.add(egui::Slider::new(&mut self.settings.level, 1..=10).text("level"));
        ui.label(crate::bot::level_spec(self.settings.level).name);
        ui.horizontal(|ui| {
            ui.label("You play");
            ui.selectable_value(&mut self.settings.color, ColorChoice::Black, "Black");
            ui.selectable_value(&mut self.settings.color, ColorChoice::White, "White");
            ui.selectable_value(&mut self.settings.color, ColorChoice::Random, "Random");
        });
        if let Some(saved) = self.settings.saved_game.clone()
            && ui.button("Resume the game against the computer").clicked()
        {
            self.resume_local(&saved);
        }
    }

    fn settings_screen(&mut self, ui: &mut egui::Ui) -> Option<Screen> {
        ui.heading("Settings");
        egui::Grid::new("settings").num_columns(2).show(ui, |ui| {
            ui.label("Your name");
            ui.text_edit_singleline(&mut self.settings.name);
            ui.end_row();
            ui.label("Signaling server (empty: built in, for LAN play)");
            ui.text_edit_singleline(&mut self.settings.server_url);
            ui.end_row();
            ui.label("STUN/TURN servers");
            ui.text_edit_singleline(&mut self.settings.ice_urls);
            ui.end_row();
            ui.label("TURN user");
            ui.text_edit_singleline(&mut self.settings.turn_user);
            ui.end_row();
            ui.label("TURN password");
            ui.add(egui::TextEdit::singleline(&mut self.settings.turn_password).password(true));
            ui.end_row();
        });
        ui.checkbox(&mut self.settings.animations, "Animate flipping discs");
        ui.add(
            egui::Slider::new(&mut self.settings.move_time_secs, 1..=30)
                .text("seconds the computer may think per move"),
        );
        ui.checkbox(&mut self.settings.dark, "Dark theme");
        ui.checkbox(
            &mut self.settings.notify_your_move,
            "Ask for attention when it is your move in one of your games",
        );
        #[cfg(not(target_arch = "wasm32"))]
        self.leaderboard_setting(ui);
        ui.separator();
        #[cfg(not(target_arch = "wasm32"))]
        let home = crate::data_dir::DataDir::resolve(self.data_dir.as_deref())
            .map(key_transfer::KeyHome::Dir);
        #[cfg(target_arch = "wasm32")]
        let home: Result<_, String> = Ok(key_transfer::KeyHome::Browser);
        match home {
            Ok(home) => self.key_transfer.ui(ui, &home),
            Err(e) => {
                ui.label(format!("Your key: {e}"));
            }
        }
        if ui.button("Back").clicked() {
            return Some(Screen::Home);
        }
        None
    }

    fn viewer(&mut self, ui: &mut egui::Ui) -> Option<Screen> {
        let Screen::Viewer {
            path,
            log,
            step,
            analysis,
        } = &mut self.screen
        else {
            return None;
        };
        if let Some(job) = analysis.as_mut() {
            job.poll(ui.ctx());
        }
        ui.heading("Match log");
        #[cfg(not(target_arch = "wasm32"))]
        ui.horizontal(|ui| {
            ui.label("File:");
            ui.add(egui::TextEdit::singleline(path).desired_width(360.0));
            if ui.button("Open").clicked() {
                *log = Some(log_viewer::open_log(std::path::Path::new(path.trim())));
                *step = 0;
                *analysis = None;
            }
        });
        #[cfg(target_arch = "wasm32")]
        if !path.is_empty() {
            ui.label(format!("File: {path}"));
        }
        ui.label("Or drop a log file on this window.");
        let mut back = ui.button("Back").clicked();
        match log {
            None => {}
            Some(Err(e)) => {
                ui.colored_label(
                    egui::Color32::from_rgb(0xe0, 0x60, 0x60),
                    format!("Does not verify: {e}"),
                );
            }
            Some(Ok(viewed)) => {
                for line in &viewed.summary {
                    ui.label(line);
                }
                match analysis.as_deref() {
                    None => {
                        if !viewed.moves.is_empty() && ui.button("Analyse the game").clicked() {
                            let positions = viewed.positions[..viewed.moves.len()].to_vec();
                            *analysis = Some(Box::new(analysis_view::AnalysisJob::start(
                                viewed.rules,
                                viewed.moves.clone(),
                                positions,
                                ui.ctx(),
                            )));
                        }
                    }
                    Some(job) => {
                        if let Some(number) = analysis_view::graph(ui, job, Some(*step + 1)) {
                            *step = number - 1;
                        }
                    }
                }
                ui.horizontal(|ui| {
                    if ui
                        .add_enabled(*step > 0, egui::Button::new("◀ Previous"))
                        .clicked()
                    {
                        *step -= 1;
                    }
                    ui.label(format!("move {} of {}", *step, viewed.moves.len()));
                    if ui
                        .add_enabled(*step < viewed.moves.len(), egui::Button::new("Next ▶"))
                        .clicked()
                    {
                        *step += 1;
                    }
                });
                let position = viewed.positions[*step];
                let last = step.checked_sub(1).map(|i| viewed.moves[i]);
                counts_line(ui, &position);
                // The move played from here, as the analysis saw it.
                let here = analysis
                    .as_deref()
                    .and_then(|job| job.done.get(*step))
                    .copied();
                if let Some(m) = &here {
                    ui.label(analysis_view::describe(m));
                }
                board(
                    ui,
                    &position,
                    BoardMarks {
                        legal: Default::default(),
                        last,
                        best: here.map(|m| m.best),
                        flipping: None,
                    },
                );
            }
        }
        if std::mem::take(&mut back) {
            return Some(Screen::Home);
        }
        None
    }

    /// Squares typed on the keyboard (`f5`): a square once two characters
    /// name one.
    fn typed_square(&mut self, ctx: &egui::Context) -> Option<Square> {
        let typed: String = ctx.input(|i| {
            i.events
                .iter()
                .filter_map(|e| match e {
                    egui::Event::Text(t) => Some(t.clone()),
                    _ => None,
                })
                .collect()
        });
        for c in typed.chars().filter(|c| c.is_ascii_alphanumeric()) {
            self.typed.push(c);
            if self.typed.len() > 2 {
                self.typed.remove(0);
            }
        }
        let square = self.typed.parse::<Square>().ok();
        if square.is_some() {
            self.typed.clear();
        }
        square
    }

    fn local(&mut self, ctx: &egui::Context) -> Option<Screen> {
        let typed = self.typed_square(ctx);
        let animations = self.settings.animations;
        let Screen::Local(game) = &mut self.screen else {
            return None;
        };
        game.move_time =
            std::time::Duration::from_secs(self.settings.move_time_secs.clamp(1, 30).into());
        let wake = ctx.clone();
        game.poll_bot(move || wake.request_repaint());
        let outcome = game.outcome();
        let frame = game_screen::GameFrame {
            heading: "You vs the computer",
            position: Some(game.position),
            legal: if game.human_to_move() {
                game.position.legal_moves()
            } else {
                Default::default()
            },
            last: game.last_move(),
            flipped: game.flipped.map(|(b, t)| (b, t.elapsed())),
            outcome,
            me: Some(game.human),
            moves: game.moves.clone(),
            notices: game.notices.clone(),
            can_resign: outcome.is_none(),
        };
        let seed = self.seed;
        let mut next = None;
        let input = game_screen::game_screen(
            ctx,
            &frame,
            typed,
            animations,
            &mut self.confirm_resign,
            &mut |ui, part| match part {
                Part::Top => {
                    ui.label(format!(
                        "You play {} · level {} ({})",
                        game.human,
                        game.level,
                        crate::bot::level_spec(game.level).name
                    ));
                }
                Part::Turn => {
                    if game.bot_thinking() {
                        ui.label("The computer is thinking…");
                    }
                    if let Some(failure) = &game.failure {
                        ui.colored_label(
                            egui::Color32::from_rgb(0xe0, 0x60, 0x60),
                            format!("The computer cannot move: {failure}"),
                        );
                    }
                    if outcome.is_none() && game.human_to_move() {
                        if let Some(hint) = game.current_hint() {
                            ui.label(format!("Hint: {} {}", hint.best, hint.score));
                        } else if game.hint_pending() {
                            ui.label("Looking for a hint…");
                        } else if ui.button("Hint").clicked() {
                            let wake = ui.ctx().clone();
                            game.request_hint(move || wake.request_repaint());
                        }
                    }
                }
                Part::End => {
                    if ui.button("Analyse the game").clicked() {
                        let summary = vec![format!(
                            "You ({}) against the computer at level {}",
                            game.human, game.level
                        )];
                        let viewed = ViewedLog::from_game(game.rules, &game.moves, summary);
                        next = Some(analysed(viewed, String::new(), ui.ctx()));
                    }
                    if ui.button("Rematch (colours swap)").clicked() {
                        next = Some(Screen::Local(Box::new(LocalGame::new(
                            game.rules,
                            !game.human,
                            game.level,
                            seed.wrapping_add(1),
                        ))));
                    }
                }
                Part::NoBoard => {}
            },
        );
        match input {
            Some(GameInput::Play(square)) => {
                let _ = game.play(square);
            }
            Some(GameInput::Resign) => game.resign(),
            Some(GameInput::Home) => next = Some(Screen::Home),
            None => {}
        }
        next
    }
}

/// Below this width (in points) the app lays itself out for a phone held
/// upright: the board across the whole width, the game's panel under it,
/// and controls a finger can hit.
const NARROW: f32 = 600.0;

/// Whether the window (or the phone's screen) is narrow.
fn narrow(ctx: &egui::Context) -> bool {
    ctx.screen_rect().width() < NARROW
}

/// Controls at least 44 points high on a narrow (touch) screen, the usual
/// size otherwise.
fn fit_controls_to_screen(ctx: &egui::Context) {
    let (height, padding) = if narrow(ctx) {
        (44.0, egui::vec2(14.0, 12.0))
    } else {
        let default = egui::style::Spacing::default();
        (default.interact_size.y, default.button_padding)
    };
    if ctx.style().spacing.interact_size.y != height {
        ctx.style_mut(|style| {
            style.spacing.interact_size.y = height;
            style.spacing.button_padding = padding;
        });
    }
}

/// A game's panel of status and actions: beside the board, or under it on
/// a narrow screen (scrolling, in the height the board leaves).
fn status_panel(ctx: &egui::Context, contents: impl FnOnce(&mut egui::Ui)) {
    if narrow(ctx) {
        // What the board (as wide as the screen) leaves, but never less
        // than a third of the screen.
        let screen = ctx.screen_rect();
        let height = (screen.height() - screen.width() - 24.0).max(screen.height() / 3.0);
        egui::TopBottomPanel::bottom("status")
            .exact_height(height)
            .show(ctx, |ui| {
                egui::ScrollArea::vertical()
                    .auto_shrink(false)
                    .show(ui, contents);
            });
    } else {
        egui::SidePanel::right("status")
            .min_width(220.0)
            .show(ctx, contents);
    }
}

/// How wide one of Home's two cards is.
const CARD_WIDTH: f32 = 300.0;

/// One of Home's cards: a framed group of a fixed width.
fn card(ui: &mut egui::Ui, contents: impl FnOnce(&mut egui::Ui)) {
    egui::Frame::group(ui.style())
        .inner_margin(egui::Margin::same(16))
        .corner_radius(8.0)
        .show(ui, |ui| {
            ui.set_width(CARD_WIDTH);
            ui.vertical_centered(contents);
        });
    ui.add_space(8.0);
}

/// A button people cannot miss.
fn big_button(ui: &mut egui::Ui, text: &str) -> egui::Response {
    ui.add(
        egui::Button::new(egui::RichText::new(text).size(24.0).strong())
            .min_size(egui::vec2(CARD_WIDTH, 72.0)),
    )
}

/// The viewer showing a dropped log: its bytes in the browser, the file
/// its path names on the desktop.
fn dropped_log(file: &egui::DroppedFile) -> Screen {
    let (path, log) = match (&file.bytes, &file.path) {
        (Some(bytes), _) => (file.name.clone(), log_viewer::view_log(bytes)),
        #[cfg(not(target_arch = "wasm32"))]
        (None, Some(path)) => (path.display().to_string(), log_viewer::open_log(path)),
        _ => (
            file.name.clone(),
            Err("the dropped file could not be read".to_string()),
        ),
    };
    Screen::Viewer {
        path,
        log: Some(log),
        step: 0,
        analysis: None,
    }
}

/// The viewer on `viewed`, its analysis started.
fn analysed(viewed: ViewedLog, path: String, ctx: &egui::Context) -> Screen {
    let positions = viewed.positions[..viewed.moves.len()].to_vec();
    let job = analysis_view::AnalysisJob::start(viewed.rules, viewed.moves.clone(), positions, ctx);
    Screen::Viewer {
        path,
        log: Some(Ok(viewed)),
        step: 0,
        analysis: Some(Box::new(job)),
    }
}

fn counts_line(ui: &mut egui::Ui, position: &Position) {
    let counts = position.counts();
    ui.label(format!("Black {} — White {}", counts.black, counts.white));
}

fn supply_line(ui: &mut egui::Ui, position: &Position) {
    if let (Some(b), Some(w)) = (position.supply(Color::Black), position.supply(Color::White)) {
        ui.label(format!("Discs in hand: black {b}, white {w}"));
    }
}

fn turn_text(position: &Position, me: Option<Color>, outcome: Option<&Outcome>) -> String {
    match (position.to_move(), outcome) {
        (_, Some(_)) | (None, None) => "Game over".to_string(),
        (Some(c), None) if Some(c) == me => format!("Your move ({c})"),
        (Some(c), None) => format!("{c} to move"),
    }
}

/// Resign with a confirmation; true when confirmed.
fn resign_buttons(ui: &mut egui::Ui, confirming: &mut bool) -> bool {
    if !*confirming {
        if ui.button("Resign").clicked() {
            *confirming = true;
        }
        return false;
    }
    ui.label("Really resign?");
    let mut resigned = false;
    ui.horizontal(|ui| {
        if ui.button("Yes, resign").clicked() {
            resigned = true;
            *confirming = false;
        }
        if ui.button("Cancel").clicked() {
            *confirming = false;
        }
    });
    resigned
}

fn end_panel(ui: &mut egui::Ui, outcome: &Outcome, me: Option<Color>, moves: &[Square]) {
    let verdict = match (outcome.winner, me) {
        (None, _) => "Draw".to_string(),
        (Some(w), Some(m)) if w == m => "You win".to_string(),
        (Some(_), Some(_)) => "You lose".to_string(),
        (Some(w), None) => format!("{w} wins"),
    };
    ui.heading(verdict);
    ui.label(outcome.to_string());
    if ui.button("Copy transcript").clicked() {
        ui.ctx().copy_text(format_transcript(moves));
    }
}

/// The flip animation's progress, asking for frames while it runs.
fn flip_progress(
    flipped: Option<(crate::engine::Bitboard, Duration)>,
    animations: bool,
    ctx: &egui::Context,
) -> Option<(crate::engine::Bitboard, f32)> {
    let (discs, elapsed) = flipped?;
    if !animations || elapsed >= FLIP_TIME {
        return None;
    }
    ctx.request_repaint();
    Some((discs, elapsed.as_secs_f32() / FLIP_TIME.as_secs_f32()))
}

/// Where the app stands, in a form a test or an assistive tool can read
/// without looking at pixels (the browser mirrors it into the page).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct AppStatus {
    /// `home`, `game` (against the computer or over the network), `join`,
    /// `viewer`, `settings` or `watch`.
    pub screen: &'static str,
    /// Progress of a network game in words.
    pub status: String,
    /// The network game's room.
    pub room: Option<String>,
    /// The room code, while hosting.
    pub code: Option<String>,
    /// This side's colour in a game (`black`/`white`), once known.
    pub my_color: Option<&'static str>,
    /// The colour to move, while the game goes on.
    pub to_move: Option<&'static str>,
    /// Whether a move of the person's is awaited.
    pub my_turn: bool,
    /// The squares the person may play now.
    pub legal: Vec<String>,
    /// The moves so far, as a transcript.
    pub moves: String,
    /// Whether the computer is thinking.
    pub thinking: bool,
    /// The result in words, once the game is over.
    pub outcome: Option<String>,
    /// Whether the game is over.
    pub over: bool,
    /// The result as `reversi board --json` gives it, once over.
    pub result: Option<serde_json::Value>,
    /// What went wrong, if something did.
    pub error: Option<String>,
    /// The log viewer's verdict, when a log is open.
    pub viewed: Option<String>,
    /// The hex SHA-256 of the network game's log bytes, when there is one.
    pub log_sha256: Option<String>,
    /// The safety code of the network game's two keys, once known.
    pub safety_code: Option<String>,
    /// The same code as six words.
    pub safety_words: Option<String>,
    /// On Settings: the fingerprint of the player's key.
    pub key: Option<String>,
    /// On Settings: what the last export or import of the key did, or
    /// why it did not (`None` while one runs, or before any).
    pub key_said: Option<String>,
}

impl ReversiApp {
    /// Follows a link's fragment (the text after `#`): `computer` starts a
    /// game against the computer with the rules on Home, and takes
    /// `&level=1..10` and `&color=black|white|random`; `host` hosts a game
    /// with the rules on Home (`&name=NAME` too). A room code opens
    /// the join screen with it filled in; with `&autojoin` it joins at
    /// once, under the name `&name=NAME` if given (which is remembered).
    /// `key` opens Settings at *Your key*, its passphrase field ready (the
    /// way to import a key exported elsewhere).
    /// An empty fragment does nothing; anything else is refused with the
    /// reason, which Home shows too.
    pub fn open_link(&mut self, fragment: &str) -> Result<(), String> {
        let followed = self.follow_link(fragment);
        if let Err(e) = &followed {
            self.message = Some(e.clone());
        }
        followed
    }

    fn follow_link(&mut self, fragment: &str) -> Result<(), String> {
        let fragment = fragment.trim_start_matches('#');
        if fragment.is_empty() {
            return Ok(());
        }
        let mut parts = fragment.split('&');
        match parts.next() {
            Some("key") => {
                self.screen = Screen::Settings;
                self.key_transfer.focus_passphrase();
                return Ok(());
            }
            Some("computer") => {}
            Some("host") => {
                for part in parts {
                    match part.split_once('=') {
                        Some(("name", name)) => self.set_name_from_link(name)?,
                        _ => return Err(format!("the link has an unknown part: {part}")),
                    }
                }
                self.pending_host = true;
                return Ok(());
            }
            Some(code) => return self.follow_invite(code, parts),
            None => return Err(format!("the link names no game: #{fragment}")),
        }
        for part in parts {
            match part.split_once('=') {
                Some(("level", n)) => match n.parse::<u8>() {
                    Ok(level @ 1..=10) => self.settings.level = level,
                    _ => return Err(format!("the computer's level is 1–10, not {n}")),
                },
                Some(("color", c)) => {
                    self.settings.color = match c {
                        "black" => ColorChoice::Black,
                        "white" => ColorChoice::White,
                        "random" => ColorChoice::Random,
                        _ => return Err(format!("a colour is black, white or random, not {c}")),
                    }
                }
                _ => return Err(format!("the link has an unknown part: {part}")),
            }
        }
        self.play_the_computer();
        Ok(())
    }

    fn set_name_from_link(&mut self, name: &str) -> Result<(), String> {
        let name = percent_decoded(name);
        if name.trim().is_empty() || name.chars().count() > 40 {
            return Err("a name in a link is 1–40 characters".into());
        }
        self.settings.name = name.trim().to_string();
        Ok(())
    }

    /// An invite's fragment: the code, then `autojoin` and `name=NAME`.
    fn follow_invite<'a>(
        &mut self,
        code: &str,
        parts: impl Iterator<Item = &'a str>,
    ) -> Result<(), String> {
        let code = percent_decoded(code);
        if let Err(e) = code.parse::<RoomCode>() {
            return Err(format!("the link names no game: {e}"));
        }
        let mut autojoin = false;
        let mut host_name = None;
        for part in parts {
            match part.split_once('=') {
                None if part == "autojoin" => autojoin = true,
                Some(("name", name)) => self.set_name_from_link(name)?,
                Some(("from", name)) => {
                    let name = percent_decoded(name);
                    let name = name.trim();
                    if !name.is_empty() && name.chars().count() <= 40 {
                        host_name = Some(name.to_string());
                    }
                }
                _ => return Err(format!("the link has an unknown part: {part}")),
            }
        }
        self.screen = Screen::Join {
            code,
            host_name,
            error: None,
        };
        self.pending_join = autojoin;
        Ok(())
    }

    /// Starts a game against the computer as Home's button does.
    fn play_the_computer(&mut self) {
        let human = match self.settings.color {
            ColorChoice::Black => Color::Black,
            ColorChoice::White => Color::White,
            ColorChoice::Random if self.seed.is_multiple_of(2) => Color::Black,
            ColorChoice::Random => Color::White,
        };
        match self.rules() {
            Ok(rules) => self.start_local(rules, human),
            Err(e) => self.message = Some(e),
        }
    }

    /// Where the app stands now.
    pub fn status(&self) -> AppStatus {
        let mut status = AppStatus {
            screen: "home",
            error: self.message.clone(),
            ..AppStatus::default()
        };
        match &self.screen {
            Screen::Home => {}
            Screen::Local(game) => {
                let outcome = game.outcome();
                status.screen = "game";
                status.my_color = Some(game.human.name());
                status.to_move = game.position.to_move().map(Color::name);
                status.over = outcome.is_some();
                status.result = outcome.as_ref().map(crate::match_log::export::outcome_json);
                status.my_turn = outcome.is_none() && game.human_to_move();
                if status.my_turn {
                    status.legal = game
                        .position
                        .legal_moves()
                        .squares()
                        .map(|s| s.to_string())
                        .collect();
                }
                status.moves = format_transcript(&game.moves);
                status.thinking = game.bot_thinking();
                status.outcome = outcome.map(|o| o.to_string());
                if let Some(failure) = &game.failure {
                    status.error = Some(failure.clone());
                }
            }
            Screen::Network(game) => network_status(&mut status, &game.snapshot()),
            Screen::Join { code, error, .. } => {
                status.screen = "join";
                status.room = code.parse::<RoomCode>().ok().map(|c| c.room().to_string());
                if error.is_some() {
                    status.error = error.clone();
                }
            }
            #[cfg(not(target_arch = "wasm32"))]
            Screen::Watch { .. } => status.screen = "watch",
            Screen::Viewer { log, .. } => {
                status.screen = "viewer";
                status.viewed = log.as_ref().map(|log| match log {
                    Ok(viewed) => viewed.summary.join("\n"),
                    Err(e) => format!("Does not verify: {e}"),
                });
            }
            Screen::Settings => {
                status.screen = "settings";
                status.key = self.key_transfer.fingerprint().map(str::to_string);
                status.key_said = self.key_transfer.said().map(|said| match said {
                    Ok(said) | Err(said) => said.clone(),
                });
            }
        }
        status
    }
}

/// `link` with the host's name added (`&from=NAME`), so that the friend's
/// join screen can say who invites them.
fn invite_from(link: String, host_name: &str) -> String {
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

/// A network game's part of the status.
fn network_status(status: &mut AppStatus, snap: &network_game::NetSnapshot) {
    status.screen = "game";
    status.status = snap.status.clone();
    status.code = snap.code.clone();
    status.room = snap
        .log
        .as_ref()
        .and_then(|log| log.file_stem())
        .map(|room| room.to_string_lossy().into_owned());
    status.my_color = snap.my_color.map(Color::name);
    status.to_move = snap
        .position
        .as_ref()
        .and_then(|p| p.to_move())
        .filter(|_| snap.outcome.is_none())
        .map(Color::name);
    status.my_turn = snap.my_turn;
    if let (true, Some(position)) = (snap.my_turn, &snap.position) {
        status.legal = position
            .legal_moves()
            .squares()
            .map(|s| s.to_string())
            .collect();
    }
    status.moves = format_transcript(&snap.moves);
    status.over = snap.outcome.is_some();
    status.outcome = snap.outcome.as_ref().map(|o| o.to_string());
    status.result = snap
        .outcome
        .as_ref()
        .map(crate::match_log::export::outcome_json);
    if snap.error.is_some() {
        status.error = snap.error.clone();
    }
    status.log_sha256 = snap.log_sha256.as_ref().map(|(_, hash)| hash.clone());
    status.safety_code = snap.safety_code.clone();
    status.safety_words = snap.safety_words.clone();
}

/// Opens the desktop client's window and runs it until it is closed.
#[cfg(not(target_arch = "wasm32"))]
pub fn run_window() -> Result<(), eframe::Error> {
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Reversi")
            .with_inner_size([1000.0, 720.0])
            .with_min_inner_size([800.0, 600.0]),
        ..Default::default()
    };
    eframe::run_native(
        "reversi",
        options,
        Box::new(|cc| Ok(Box::new(ReversiApp::new(cc)))),
    )
}

impl eframe::App for ReversiApp {
    fn update(&mut self, ctx: &egui::Context, _frame: &mut eframe::Frame) {
        ctx.set_theme(if self.settings.dark {
            egui::Theme::Dark
        } else {
            egui::Theme::Light
        });
        fit_controls_to_screen(ctx);
        if std::mem::take(&mut self.pending_host) {
            self.host_as_set(ctx);
        }
        #[cfg(not(target_arch = "wasm32"))]
        self.notice_your_move(ctx);
        #[cfg(not(target_arch = "wasm32"))]
        self.poll_leaderboard();
        // A log file dropped anywhere but on a game opens in the viewer.
        let playing = matches!(&self.screen, Screen::Local(_) | Screen::Network(_));
        if !playing && let Some(file) = ctx.input(|i| i.raw.dropped_files.first().cloned()) {
            self.screen = dropped_log(&file);
            self.message = None;
        }
        let next = match &self.screen {
            Screen::Local(_) => self.local(ctx),
            Screen::Network(_) => self.network(ctx),
            _ => {
                egui::CentralPanel::default()
                    .show(ctx, |ui| {
                        egui::ScrollArea::vertical()
                            .show(ui, |ui| {
                                let next = match &self.screen {
                                    Screen::Home => {
                                        self.home(ui);
                                        None
                                    }
                                    Screen::Join { .. } => self.join(ui),
                                    Screen::Settings => self.settings_screen(ui),
                                    #[cfg(not(target_arch = "wasm32"))]
                                    Screen::Watch { .. } => self.watch(ui),
                                    Screen::Viewer { .. } => self.viewer(ui),
                                    _ => None,
                                };
                                if let Some(message) = &self.message {
                                    ui.colored_label(
                                        egui::Color32::from_rgb(0xe0, 0x60, 0x60),
                                        message,
                                    );
                                }
                                next
                            })
                            .inner
                    })
                    .inner
            }
        };
        if let Some(screen) = next {
            self.screen = screen;
            self.confirm_resign = false;
            self.message = None;
        }
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        if let Screen::Local(game) = &self.screen {
            self.settings.saved_game = game.outcome().is_none().then(|| SavedGame {
                options: option_strings(game.rules.options()),
                setup: game.rules.start().to_string(),
                moves: format_transcript(&game.moves),
                human_black: game.human == Color::Black,
                level: game.level,
            });
        }
        eframe::set_value(storage, SETTINGS_KEY, &self.settings);
    }
}
