//! Home: the two things people come for (the computer, a friend) as large
//! cards, the rules a new game gets, and the games under way.

#[cfg(not(target_arch = "wasm32"))]
use std::path::PathBuf;

use super::Screen;
use super::join::JoinScreen;
use crate::app::i18n::{level_name, option_value, preset_summary, t};
use crate::app::network_game::NetStart;
use crate::app::settings::{ColorChoice, Settings, rules_from_strings};
use crate::app::shared::Shared;
use crate::app::widgets::{CARD_WIDTH, ERROR, big_button, card};
#[cfg(not(target_arch = "wasm32"))]
use crate::app::your_games;
use crate::engine::{Color, Preset, Setup, Square};

/// Home's own state: the name being typed on a first run (the rest of
/// what Home shows is in the settings).
#[derive(Default)]
pub(in crate::app) struct HomeScreen {
    name: String,
}

/// The longest name, in characters (as a link may carry).
const MAX_NAME: usize = 40;

impl HomeScreen {
    /// Draws Home.
    pub fn ui(&mut self, ui: &mut egui::Ui, shared: &mut Shared) -> Option<Screen> {
        if !shared.settings.asked_name {
            self.ask_name(ui, shared);
        }
        ui.vertical_centered(|ui| {
            ui.add_space(12.0);
            ui.label(egui::RichText::new(t!("app-name")).size(40.0).strong());
            ui.label(t!("home-tagline"));
            ui.add_space(12.0);
        });
        // The two things people come for, large; side by side when there
        // is room, one above the other on a phone.
        let mut next = None;
        let wide = ui.available_width() >= 2.0 * CARD_WIDTH + 24.0;
        if wide {
            ui.columns(2, |columns| {
                columns[0].vertical_centered(|ui| card(ui, |ui| next = computer_card(ui, shared)));
                columns[1].vertical_centered(|ui| {
                    card(ui, |ui| next = next.take().or(friend_card(ui, shared)))
                });
            });
        } else {
            ui.vertical_centered(|ui| {
                card(ui, |ui| next = computer_card(ui, shared));
                card(ui, |ui| next = next.take().or(friend_card(ui, shared)));
            });
        }
        ui.add_space(12.0);
        ui.separator();
        let settings = &mut shared.settings;
        egui::CollapsingHeader::new(t!("home-rules", rules = settings.rules_name()))
            .id_salt("rules")
            .show(ui, |ui| {
                ui.horizontal(|ui| {
                    ui.label(t!("home-preset"));
                    egui::ComboBox::from_id_salt("preset")
                        .selected_text(settings.preset.clone())
                        .show_ui(ui, |ui| {
                            for preset in Preset::ALL {
                                ui.selectable_value(
                                    &mut settings.preset,
                                    preset.name().to_string(),
                                    preset.name(),
                                )
                                .on_hover_text(preset_summary(preset));
                            }
                        });
                });
                if let Ok(preset) = settings.preset.parse::<Preset>() {
                    ui.small(preset_summary(preset));
                }
                custom_rules(settings, ui);
            });
        ui.horizontal_wrapped(|ui| {
            if ui.button(t!("home-open-log")).clicked() {
                next = Some(Screen::Viewer(Box::default()));
            }
            if ui.button(t!("home-settings")).clicked() {
                next = Some(Screen::Settings(Box::default()));
            }
        });
        let opened = ongoing_games(ui, shared);
        next.or(opened)
    }
}

impl HomeScreen {
    /// On a first run: the name opponents will see, once (skippable; it
    /// can be changed in Settings).
    fn ask_name(&mut self, ui: &mut egui::Ui, shared: &mut Shared) {
        ui.vertical_centered(|ui| {
            card(ui, |ui| {
                ui.label(egui::RichText::new(t!("first-run-question")).size(18.0));
                let label = ui.label(t!("first-run-name"));
                let edit = ui
                    .add(
                        egui::TextEdit::singleline(&mut self.name)
                            .char_limit(MAX_NAME)
                            .desired_width(CARD_WIDTH - 40.0),
                    )
                    .labelled_by(label.id);
                let name = self.name.trim();
                let entered = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                ui.horizontal(|ui| {
                    let ok =
                        ui.add_enabled(!name.is_empty(), egui::Button::new(t!("first-run-ok")));
                    if (ok.clicked() || entered) && !name.is_empty() {
                        shared.settings.name = name.to_string();
                        shared.settings.asked_name = true;
                    }
                    if ui.button(t!("first-run-skip")).clicked() {
                        shared.settings.asked_name = true;
                    }
                });
                ui.small(t!("first-run-why"));
            });
        });
    }
}

/// Home's *Play the computer*: the big button, the level and colour.
fn computer_card(ui: &mut egui::Ui, shared: &mut Shared) -> Option<Screen> {
    let mut next = None;
    if big_button(ui, &t!("home-play-computer")).clicked() {
        next = shared.play_the_computer();
    }
    let settings = &mut shared.settings;
    ui.add_space(6.0);
    ui.add(egui::Slider::new(&mut settings.level, 1..=10).text(t!("home-level")));
    ui.label(level_name(settings.level));
    ui.horizontal(|ui| {
        ui.label(t!("home-you-play"));
        ui.selectable_value(&mut settings.color, ColorChoice::Black, t!("color-black"));
        ui.selectable_value(&mut settings.color, ColorChoice::White, t!("color-white"));
        ui.selectable_value(&mut settings.color, ColorChoice::Random, t!("home-random"));
    });
    if let Some(saved) = settings.saved_game.clone()
        && ui.button(t!("home-resume")).clicked()
    {
        next = shared.resume_local(&saved);
    }
    next
}

/// Home's *Play a friend*: host, join, watch, and the options of a
/// hosted game (deadline, draw by lot) one step away.
fn friend_card(ui: &mut egui::Ui, shared: &mut Shared) -> Option<Screen> {
    let mut next = None;
    ui.label(
        egui::RichText::new(t!("home-play-friend"))
            .size(24.0)
            .strong(),
    );
    ui.label(t!("home-friend-how"));
    ui.add_space(6.0);
    let wide = egui::vec2(CARD_WIDTH, 44.0);
    if ui
        .add(egui::Button::new(t!("home-host")).min_size(wide))
        .clicked()
    {
        next = shared.host_as_set(ui.ctx());
    }
    if ui
        .add(egui::Button::new(t!("home-join")).min_size(wide))
        .clicked()
    {
        next = Some(Screen::Join(JoinScreen::default()));
    }
    #[cfg(not(target_arch = "wasm32"))]
    if ui.button(t!("home-watch")).clicked() {
        next = Some(Screen::Watch(Box::default()));
    }
    let settings = &mut shared.settings;
    egui::CollapsingHeader::new(t!("home-host-options"))
        .id_salt("friend-options")
        .show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.label(t!("home-deadline"));
                ui.add(egui::TextEdit::singleline(&mut settings.deadline).desired_width(80.0));
            });
            ui.checkbox(&mut settings.draw_by_lot, t!("home-draw-by-lot"))
                .on_hover_text(t!("home-draw-by-lot-why"));
        });
    next
}

/// The individual options and the start-position editor.
fn custom_rules(settings: &mut Settings, ui: &mut egui::Ui) {
    ui.checkbox(&mut settings.custom, t!("rules-custom"));
    if !settings.custom {
        return;
    }
    let choices: [(String, &[&str]); 5] = [
        (t!("rules-opening"), &["preset", "free", "double"]),
        (t!("rules-discs"), &["unlimited", "32", "20", "12"]),
        (t!("rules-scoring"), &["count", "empties"]),
        (t!("rules-equal-count"), &["draw", "black", "white"]),
        (t!("rules-board"), &["plane", "torus"]),
    ];
    egui::Grid::new("options").num_columns(2).show(ui, |ui| {
        for (i, (label, values)) in choices.into_iter().enumerate() {
            ui.label(label);
            ui.horizontal(|ui| {
                for value in values {
                    ui.selectable_value(
                        &mut settings.options[i],
                        value.to_string(),
                        option_value(value),
                    );
                }
            });
            ui.end_row();
        }
    });
    ui.label(t!("rules-editor"));
    let opening = settings.options[0].parse().unwrap_or_default();
    let mut setup = settings
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
        ui.label(t!("rules-first-to-move"));
        changed |= ui
            .selectable_value(&mut setup.to_move, Color::Black, t!("color-black"))
            .changed();
        changed |= ui
            .selectable_value(&mut setup.to_move, Color::White, t!("color-white"))
            .changed();
        if ui.button(t!("rules-standard-start")).clicked() {
            settings.setup.clear();
            changed = false;
        }
    });
    if changed {
        settings.setup = setup.to_string();
    }
    if let Err(e) = rules_from_strings(&settings.options, &settings.setup) {
        ui.colored_label(ERROR, e);
    }
}

#[cfg(target_arch = "wasm32")]
/// *Your games* in the browser: the games stored in this browser;
/// *Open* goes on with one (it reconnects, and signs nothing until
/// the opponent has confirmed where the game stands), *Download*
/// saves its signed log.
fn ongoing_games(ui: &mut egui::Ui, shared: &mut Shared) -> Option<Screen> {
    let rooms = crate::browser_data::rooms();
    if rooms.is_empty() {
        return None;
    }
    ui.separator();
    ui.strong(t!("home-browser-games"));
    let mut open = None;
    egui::Grid::new("stored-games")
        .striped(true)
        .show(ui, |ui| {
            for room in &rooms {
                let (opponent, state, unfinished) = stored_game(room, &shared.settings.name);
                ui.label(opponent);
                ui.label(state);
                if unfinished && ui.button(t!("home-open")).clicked() {
                    open = Some(room.clone());
                }
                if ui.button(t!("home-download")).clicked()
                    && let Some(bytes) = crate::browser_data::log_bytes(room)
                    && let Err(e) = crate::platform::web::download(&format!("{room}.log"), &bytes)
                {
                    shared.message = Some(e.to_string());
                }
                ui.end_row();
            }
        });
    let room = open?;
    shared.start_network(ui.ctx(), NetStart::Resume(std::path::PathBuf::from(room)))
}

#[cfg(not(target_arch = "wasm32"))]
/// *Your games*: opponent, rules, whose turn, time left; *Open* shows
/// the position at once and plays on (live, and through the mailbox).
fn ongoing_games(ui: &mut egui::Ui, shared: &mut Shared) -> Option<Screen> {
    shared.start_your_games(ui.ctx());
    let listing = shared.your_games.as_ref().and_then(|g| g.listing())?;
    if listing.games.is_empty() {
        return None;
    }
    let games = listing.games.clone();
    ui.separator();
    ui.horizontal(|ui| {
        ui.strong(t!("home-your-games"));
        if ui.small_button(t!("home-refresh")).clicked()
            && let Some(list) = &shared.your_games
        {
            list.refresh();
        }
    });
    let mut open = None;
    egui::Grid::new("your-games").striped(true).show(ui, |ui| {
        for game in &games {
            ui.label(
                game.opponent
                    .clone()
                    .unwrap_or_else(|| t!("home-not-accepted")),
            );
            ui.label(game.rules.as_deref().unwrap_or(""))
                .on_hover_text(game.log.as_str());
            let turn = your_games::turn_words(game);
            if game.my_turn {
                ui.strong(turn);
            } else {
                ui.label(turn);
            }
            ui.label(your_games::time_left(game));
            if ui.button(t!("home-open")).clicked() {
                open = Some(PathBuf::from(&game.log));
            }
            ui.end_row();
        }
    });
    let path = open?;
    shared.start_network(ui.ctx(), NetStart::Resume(path))
}

/// A stored game's opponent, state in words, and whether it goes on;
/// kept per room and log length, since checking a log's signatures on
/// every frame would cost the page its frame rate.
#[cfg(target_arch = "wasm32")]
fn stored_game(room: &str, my_name: &str) -> (String, String, bool) {
    use crate::platform::Instant;
    use std::cell::RefCell;
    use std::collections::HashMap;
    type Seen = HashMap<String, (usize, Instant, (String, String, bool))>;
    thread_local! {
        static SEEN: RefCell<Seen> = RefCell::default();
    }
    // Looked at again once a second: reading the storage is a copy of
    // the whole log.
    let now = Instant::now();
    let recent = SEEN.with(|s| {
        s.borrow()
            .get(room)
            .filter(|(_, at, _)| now.duration_since(*at) < std::time::Duration::from_secs(1))
            .map(|(_, _, k)| k.clone())
    });
    if let Some(known) = recent {
        return known;
    }
    let length = crate::browser_data::log_bytes(room).map_or(0, |b| b.len());
    if let Some(known) = SEEN.with(|s| {
        let mut seen = s.borrow_mut();
        let entry = seen.get_mut(room).filter(|(l, _, _)| *l == length)?;
        entry.1 = now;
        Some(entry.2.clone())
    }) {
        return known;
    }
    let loaded = crate::browser_data::read_log(room);
    let verifier = match &loaded {
        Ok(Some(log)) => crate::match_log::verify_log(&log.records).ok(),
        _ => None,
    };
    let opponent = verifier
        .as_ref()
        .and_then(|v| {
            [crate::match_log::Seat::Host, crate::match_log::Seat::Guest]
                .into_iter()
                .filter_map(|seat| v.player(seat))
                .map(|p| p.name.clone())
                .find(|name| name != my_name)
        })
        .unwrap_or_else(|| room.to_string());
    let state = match (&loaded, &verifier) {
        (Err(e), _) => e.to_string(),
        (_, Some(v)) => match v.end() {
            Some(end) => end.outcome.to_string(),
            None => t!("home-moves-count", count = v.moves().len()),
        },
        (Ok(Some(_)), None) => t!("home-does-not-verify"),
        (Ok(None), None) => t!("home-not-started"),
    };
    let unfinished = verifier.as_ref().is_some_and(|v| v.end().is_none());
    let found = (opponent, state, unfinished);
    SEEN.with(|s| {
        s.borrow_mut()
            .insert(room.to_string(), (length, now, found.clone()))
    });
    found
}
