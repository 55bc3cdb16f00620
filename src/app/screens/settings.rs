//! Settings: the name, the server and TURN, the look, the computer's
//! time, notifications, the leaderboard, and the player's key.

use super::Screen;
use crate::app::i18n::{Language, t};
use crate::app::key_transfer::{KeyHome, KeyTransfer};
#[cfg(not(target_arch = "wasm32"))]
use crate::app::leaderboard_job;
use crate::app::settings::Settings;
use crate::app::shared::Shared;
use crate::app::status::AppStatus;

/// The settings screen's state: the key's export or import.
#[derive(Default)]
pub(in crate::app) struct SettingsScreen {
    /// *Your key*: an export or import under way, and what the last one did.
    pub key_transfer: KeyTransfer,
}

impl SettingsScreen {
    /// Draws Settings; Home when the player goes back.
    pub fn ui(&mut self, ui: &mut egui::Ui, shared: &mut Shared) -> Option<Screen> {
        ui.heading(t!("home-settings"));
        let system = shared.system_language();
        language_choice(ui, &mut shared.settings, system);
        let settings = &mut shared.settings;
        egui::Grid::new("settings").num_columns(2).show(ui, |ui| {
            ui.label(t!("settings-name"));
            ui.text_edit_singleline(&mut settings.name);
            ui.end_row();
            ui.label(t!("settings-server"));
            ui.text_edit_singleline(&mut settings.server_url);
            ui.end_row();
            ui.label(t!("settings-ice"));
            ui.text_edit_singleline(&mut settings.ice_urls);
            ui.end_row();
            ui.label(t!("settings-turn-user"));
            ui.text_edit_singleline(&mut settings.turn_user);
            ui.end_row();
            ui.label(t!("settings-turn-password"));
            ui.add(egui::TextEdit::singleline(&mut settings.turn_password).password(true));
            ui.end_row();
        });
        ui.checkbox(&mut settings.animations, t!("settings-animations"));
        ui.add(
            egui::Slider::new(&mut settings.move_time_secs, 1..=30).text(t!("settings-move-time")),
        );
        ui.checkbox(&mut settings.book, t!("settings-book"));
        ui.add(
            egui::Slider::new(&mut settings.pace_ms, 0..=2000)
                .step_by(100.0)
                .text(t!("settings-pace")),
        );
        ui.checkbox(&mut settings.sound, t!("settings-sound"));
        ui.checkbox(&mut settings.dark, t!("settings-dark"));
        ui.checkbox(&mut settings.notify_your_move, t!("settings-notify"));
        #[cfg(not(target_arch = "wasm32"))]
        leaderboard_setting(ui, shared);
        ui.separator();
        #[cfg(not(target_arch = "wasm32"))]
        let home = crate::data_dir::DataDir::resolve(shared.data_dir.as_deref()).map(KeyHome::Dir);
        #[cfg(target_arch = "wasm32")]
        let home: Result<_, String> = Ok(KeyHome::Browser);
        match home {
            Ok(home) => self.key_transfer.ui(ui, &home),
            Err(e) => {
                ui.label(t!("settings-key-error", why = e.to_string()));
            }
        }
        if ui.button(t!("back")).clicked() {
            return Some(Screen::home());
        }
        None
    }

    /// The settings' part of the status.
    pub fn status(&self, status: &mut AppStatus) {
        status.screen = "settings";
        status.key = self.key_transfer.fingerprint().map(str::to_string);
        status.key_said = self.key_transfer.said().map(|said| match said {
            Ok(said) | Err(said) => said.clone(),
        });
    }
}

/// Settings' leaderboard membership: joining or leaving asks the server,
/// and the box shows what it answered.
#[cfg(not(target_arch = "wasm32"))]
fn leaderboard_setting(ui: &mut egui::Ui, shared: &mut Shared) {
    let was = shared.settings.leaderboard;
    ui.checkbox(&mut shared.settings.leaderboard, t!("settings-leaderboard"));
    if shared.settings.leaderboard != was {
        let membership = if shared.settings.leaderboard {
            crate::membership::Membership::Join
        } else {
            crate::membership::Membership::Leave
        };
        let identity = crate::data_dir::DataDir::resolve(shared.data_dir.as_deref())
            .and_then(|d| d.identity())
            .map_err(|e| e.to_string());
        match identity {
            Ok(identity) => shared.leaderboard_request(
                ui.ctx(),
                leaderboard_job::Request::Membership(Box::new(identity), membership),
            ),
            Err(e) => shared.leaderboard.said = Some(e),
        }
        if shared.leaderboard.idle() {
            shared.settings.leaderboard = was;
        } else {
            shared.leaderboard.changing_from(was);
        }
    }
    if let Some(said) = &shared.leaderboard.said {
        ui.label(said);
    }
}

/// The language: the system's (or the browser's), or one chosen.
fn language_choice(ui: &mut egui::Ui, settings: &mut Settings, system: Language) {
    let shown = |choice: Option<Language>| match choice {
        None => t!("settings-language-system", name = system.name()),
        Some(language) => language.name().to_string(),
    };
    egui::ComboBox::new("language", t!("settings-language"))
        .selected_text(shown(settings.language))
        .show_ui(ui, |ui| {
            ui.selectable_value(&mut settings.language, None, shown(None));
            for language in Language::ALL {
                ui.selectable_value(
                    &mut settings.language,
                    Some(language),
                    shown(Some(language)),
                );
            }
        });
}
