//! One struct per screen, each owning its own state and drawing itself
//! (egui_demo_app's way): a screen's `ui` returns the screen to go to, and
//! the app only dispatches. What outlives a screen is in [`Shared`].
//!
//! [`Shared`]: super::shared::Shared

mod home;
mod join;
mod local;
mod network;
mod settings;
mod viewer;
#[cfg(not(target_arch = "wasm32"))]
mod watch;

pub(super) use home::HomeScreen;
pub(super) use join::JoinScreen;
pub(super) use local::LocalScreen;
pub(super) use network::NetworkScreen;
pub(super) use settings::SettingsScreen;
pub(super) use viewer::ViewerScreen;
#[cfg(not(target_arch = "wasm32"))]
pub(super) use watch::WatchScreen;

use super::shared::Shared;
use super::status::AppStatus;

/// The screen on show.
pub(super) enum Screen {
    /// Home: play the computer, play a friend, the rules, your games.
    Home(HomeScreen),
    /// A game against the computer.
    Local(Box<LocalScreen>),
    /// A game over the network.
    Network(Box<NetworkScreen>),
    /// Join with a code.
    Join(JoinScreen),
    /// A match log, step by step, and its analysis.
    Viewer(Box<ViewerScreen>),
    /// Settings.
    Settings(Box<SettingsScreen>),
    /// A game followed as a spectator.
    #[cfg(not(target_arch = "wasm32"))]
    Watch(Box<WatchScreen>),
}

impl Screen {
    /// Home.
    pub fn home() -> Screen {
        Screen::Home(HomeScreen::default())
    }

    /// Whether a game is on screen (a dropped file is then not opened).
    pub fn playing(&self) -> bool {
        matches!(self, Screen::Local(_) | Screen::Network(_))
    }

    /// Draws the screen; the screen to go to, if it changes.
    pub fn ui(&mut self, ctx: &egui::Context, shared: &mut Shared) -> Option<Screen> {
        match self {
            Screen::Local(screen) => return screen.ui(ctx, shared),
            Screen::Network(screen) => return screen.ui(ctx, shared),
            _ => {}
        }
        egui::CentralPanel::default()
            .show(ctx, |ui| {
                egui::ScrollArea::vertical()
                    .show(ui, |ui| {
                        let next = match self {
                            Screen::Home(screen) => screen.ui(ui, shared),
                            Screen::Join(screen) => screen.ui(ui, shared),
                            Screen::Settings(screen) => screen.ui(ui, shared),
                            #[cfg(not(target_arch = "wasm32"))]
                            Screen::Watch(screen) => screen.ui(ui),
                            Screen::Viewer(screen) => screen.ui(ui),
                            Screen::Local(_) | Screen::Network(_) => None,
                        };
                        if let Some(message) = &shared.message {
                            ui.colored_label(super::widgets::ERROR, message);
                        }
                        next
                    })
                    .inner
            })
            .inner
    }

    /// Whether a game on screen waits for the player's move.
    pub fn my_turn(&self) -> bool {
        match self {
            Screen::Local(screen) => screen.my_turn(),
            Screen::Network(screen) => screen.my_turn(),
            _ => false,
        }
    }

    /// Where the app stands, for tests and assistive tools.
    pub fn status(&self, status: &mut AppStatus) {
        match self {
            Screen::Home(_) => {}
            Screen::Local(screen) => screen.status(status),
            Screen::Network(screen) => super::status::network_status(status, &screen.snapshot()),
            Screen::Join(screen) => screen.status(status),
            #[cfg(not(target_arch = "wasm32"))]
            Screen::Watch(_) => status.screen = "watch",
            Screen::Viewer(screen) => screen.status(status),
            Screen::Settings(screen) => screen.status(status),
        }
    }
}
