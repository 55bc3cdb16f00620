//! The desktop client (eframe/egui), also the browser's page. `main.rs`
//! opens it; the app shows one screen at a time (`screens/`, one struct
//! each) and only dispatches to it. Networking and the computer's thinking
//! run on their own threads (the browser: tasks and a worker); the window
//! repaints when they report and is idle otherwise.

mod analysis_view;
pub(crate) mod board_view;
mod fonts;
mod game_screen;
pub mod i18n;
mod key_transfer;
#[cfg(not(target_arch = "wasm32"))]
mod leaderboard_job;
mod link;
pub(crate) mod local_game;
pub(crate) mod log_viewer;
pub(crate) mod network_game;
mod qr_view;
mod screens;
mod settings;
mod shared;
mod status;
#[cfg(not(target_arch = "wasm32"))]
pub(crate) mod watch_game;
mod widgets;
#[cfg(not(target_arch = "wasm32"))]
pub(crate) mod your_games;

#[cfg(not(target_arch = "wasm32"))]
use std::net::SocketAddr;
#[cfg(not(target_arch = "wasm32"))]
use std::path::PathBuf;

use crate::engine::{Color, Rules};
use crate::match_log::rules_proposal::RulesProposal;
use crate::net::room_code::RoomCode;
use link::Link;
pub use link::LinkError;
use network_game::NetStart;
use screens::{JoinScreen, Screen, SettingsScreen, ViewerScreen};
pub use settings::{ColorChoice, SETTINGS_KEY, SavedGame, Settings};
use shared::Shared;
pub use status::AppStatus;

/// The egui app: the desktop window, and the browser's page; one screen at a time.
pub struct ReversiApp {
    shared: Shared,
    screen: Screen,
    /// Whether to host a game at once (a link said `host`); done on the
    /// next frame, which has the context a network game needs.
    pending_host: bool,
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
            shared: Shared::new(settings),
            screen: Screen::home(),
            pending_host: false,
        }
    }

    /// Uses this data directory (keys, logs) instead of the default, and
    /// this address for the embedded signaling server (tests use loopback).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn with_data_dir(mut self, dir: PathBuf, listen: SocketAddr) -> ReversiApp {
        self.shared.data_dir = Some(dir);
        self.shared.listen = listen;
        self
    }

    /// The settings as they stand (what `save` stores).
    pub fn settings(&self) -> &Settings {
        &self.shared.settings
    }

    /// Starts a game against the computer with explicit rules (as the
    /// Play button does with the chosen preset).
    pub fn start_local(&mut self, rules: Rules, human: Color) {
        self.screen = self.shared.local(rules, human);
    }

    /// Hosts a game with explicit rules and deadline (as the Host button does).
    pub fn start_host(&mut self, ctx: &egui::Context, proposal: RulesProposal, deadline_secs: u32) {
        let started = self
            .shared
            .start_network(ctx, NetStart::Host(proposal, deadline_secs));
        self.go(started);
    }

    /// Joins with a code (as the Join screen does after checking it).
    pub fn start_join(&mut self, ctx: &egui::Context, code: RoomCode) {
        let started = self.shared.start_network(ctx, NetStart::Join(code));
        self.go(started);
    }

    /// The current network game's state, if one is on screen.
    pub fn network_snapshot(&self) -> Option<network_game::NetSnapshot> {
        match &self.screen {
            Screen::Network(screen) => Some(screen.snapshot()),
            _ => None,
        }
    }

    /// Follows a link's fragment (the text after `#`; the grammar is in
    /// `link.rs`): a game against the computer, a hosted game, the join
    /// screen with a code, or Settings at *Your key*. An empty fragment
    /// does nothing; a link that does not parse is refused with the
    /// reason, which Home shows too.
    pub fn open_link(&mut self, fragment: &str) -> Result<(), LinkError> {
        let link = fragment.parse::<Link>().inspect_err(|e| {
            self.shared.message = Some(e.words());
        })?;
        let settings = &mut self.shared.settings;
        match link {
            Link::Nothing => {}
            Link::Key => {
                let mut screen = SettingsScreen::default();
                screen.key_transfer.focus_passphrase();
                self.screen = Screen::Settings(Box::new(screen));
            }
            Link::Computer { level, color } => {
                settings.level = level.unwrap_or(settings.level);
                settings.color = color.unwrap_or(settings.color);
                let started = self.shared.play_the_computer();
                self.go(started);
            }
            Link::Host { name } => {
                if let Some(name) = name {
                    settings.name = name;
                }
                self.pending_host = true;
            }
            Link::Invite {
                code,
                autojoin,
                name,
                from,
            } => {
                if let Some(name) = name {
                    settings.name = name;
                }
                self.screen = Screen::Join(JoinScreen::invited(code, from, autojoin));
            }
        }
        Ok(())
    }

    /// Where the app stands now.
    pub fn status(&self) -> AppStatus {
        let mut status = AppStatus {
            language: self.shared.language().tag(),
            screen: "home",
            error: self.shared.message.clone(),
            ..AppStatus::default()
        };
        self.screen.status(&mut status);
        status
    }

    /// Shows `next`, if there is one; a new screen starts without the
    /// last one's message.
    fn go(&mut self, next: Option<Screen>) {
        if let Some(screen) = next {
            self.screen = screen;
            self.shared.message = None;
        }
    }
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
        i18n::set_language(self.shared.language());
        fonts::follow_language(ctx, i18n::language());
        ctx.set_theme(if self.shared.settings.dark {
            egui::Theme::Dark
        } else {
            egui::Theme::Light
        });
        widgets::fit_controls_to_screen(ctx);
        if std::mem::take(&mut self.pending_host) {
            let hosted = self.shared.host_as_set(ctx);
            self.go(hosted);
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            self.shared.notice_your_move(ctx);
            self.shared
                .leaderboard
                .poll(&mut self.shared.settings.leaderboard);
        }
        // A log file dropped anywhere but on a game opens in the viewer.
        if !self.screen.playing()
            && let Some(file) = ctx.input(|i| i.raw.dropped_files.first().cloned())
        {
            self.go(Some(Screen::Viewer(Box::new(ViewerScreen::dropped(&file)))));
        }
        let next = self.screen.ui(ctx, &mut self.shared);
        self.go(next);
        let my_turn = self.screen.my_turn();
        self.shared.show_title(ctx, my_turn);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        if let Screen::Local(screen) = &self.screen {
            self.shared.settings.saved_game = screen.saved();
        }
        eframe::set_value(storage, SETTINGS_KEY, &self.shared.settings);
    }
}
