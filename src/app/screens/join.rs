//! *Join a game*: the code (or the invite link), the player's name, and
//! what the code promises about the host.

use super::Screen;
use crate::app::i18n::t;
use crate::app::network_game::NetStart;
use crate::app::shared::Shared;
use crate::app::status::AppStatus;
use crate::app::widgets::ERROR;
use crate::net::room_code::RoomCode;

/// The join screen's state.
#[derive(Default)]
pub(in crate::app) struct JoinScreen {
    /// The code as typed or as the link gave it.
    code: String,
    /// The host's name, as their invite link gives it (unchecked: the
    /// code's key is what the connection checks).
    host_name: Option<String>,
    /// Why the last attempt was refused.
    error: Option<String>,
    /// Join at once (a link said `autojoin`).
    autojoin: bool,
}

impl JoinScreen {
    /// The screen with an invite's code, and its host's name if given.
    pub fn invited(code: String, host_name: Option<String>, autojoin: bool) -> JoinScreen {
        JoinScreen {
            code,
            host_name,
            error: None,
            autojoin,
        }
    }

    /// Draws the screen; a network game once the player joins.
    pub fn ui(&mut self, ui: &mut egui::Ui, shared: &mut Shared) -> Option<Screen> {
        let autojoin = std::mem::take(&mut self.autojoin);
        match &self.host_name {
            Some(host) => {
                ui.heading(t!("join-invited", host = host.as_str()));
                ui.label(t!("join-code-from-link"));
            }
            None => {
                ui.heading(t!("home-join"));
                ui.label(t!("join-type-code"));
            }
        }
        let edit = ui.add(
            egui::TextEdit::singleline(&mut self.code)
                .hint_text("K7QF-M2XA-PZ4R-TB6H-C")
                .desired_width(320.0),
        );
        if let Ok(checked) = self.code.parse::<RoomCode>() {
            let host = checked.invitation().host().to_string();
            ui.label(match checked.server() {
                Some(server) => t!(
                    "join-promise-server",
                    host = host,
                    server = server.to_string()
                ),
                None => t!("join-promise", host = host),
            });
        }
        ui.horizontal(|ui| {
            ui.label(t!("join-your-name"));
            ui.add(egui::TextEdit::singleline(&mut shared.settings.name).desired_width(200.0));
        });
        let submit = autojoin
            || ui
                .add(egui::Button::new(t!("join-join")).min_size(egui::vec2(120.0, 44.0)))
                .clicked()
            || (edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)));
        if let Some(e) = &self.error {
            ui.colored_label(ERROR, e.as_str());
        }
        if ui.button(t!("back")).clicked() {
            return Some(Screen::home());
        }
        if !submit {
            return None;
        }
        match self.code.parse::<RoomCode>() {
            Err(e) => self.error = Some(e.to_string()),
            Ok(code) => {
                let started = shared.start_network(ui.ctx(), NetStart::Join(code));
                // Why it could not start is this screen's to show.
                self.error = shared.message.take();
                return started;
            }
        }
        None
    }

    /// The join screen's part of the status.
    pub fn status(&self, status: &mut AppStatus) {
        status.screen = "join";
        status.room = self
            .code
            .parse::<RoomCode>()
            .ok()
            .map(|c| c.room().to_string());
        if self.error.is_some() {
            status.error = self.error.clone();
        }
    }
}
