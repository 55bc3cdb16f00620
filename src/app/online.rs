//! Playing friends: hosting, joining and resuming network games, and
//! natively also watching them, *Your games* on Home, and the
//! leaderboard (the browser has its own list of stored games).

#[cfg(not(target_arch = "wasm32"))]
use std::path::PathBuf;
use std::time::Duration;

#[cfg(not(target_arch = "wasm32"))]
use super::board_view::{BoardMarks, board};
use super::game_screen::{GameFrame, GameInput, Part, game_screen};
use super::network_game::{NetSettings, NetStart, NetworkGame};
use super::{ReversiApp, Screen};
#[cfg(not(target_arch = "wasm32"))]
use super::{leaderboard_job, watch_game, your_games};
#[cfg(not(target_arch = "wasm32"))]
use crate::data_dir::DataDir;
use crate::engine::Color;
use crate::match_log::rules_proposal::RulesProposal;
use crate::net::room_code::RoomCode;
use crate::net::transport::IceServers;

impl ReversiApp {
    /// Home's *Play a friend*: host, join, watch, and the options of a
    /// hosted game (deadline, draw by lot) one step away.
    pub(super) fn friend_section(&mut self, ui: &mut egui::Ui) {
        ui.label(egui::RichText::new("Play a friend").size(24.0).strong());
        ui.label("Host and send the code, or join with a friend's code.");
        ui.add_space(6.0);
        let wide = egui::vec2(super::CARD_WIDTH, 44.0);
        if ui
            .add(egui::Button::new("Host a game").min_size(wide))
            .clicked()
        {
            self.host_as_set(ui.ctx());
        }
        if ui
            .add(egui::Button::new("Join a game").min_size(wide))
            .clicked()
        {
            self.screen = Screen::Join {
                code: String::new(),
                host_name: None,
                error: None,
            };
        }
        #[cfg(not(target_arch = "wasm32"))]
        if ui.button("Watch a game").clicked() {
            self.screen = Screen::Watch {
                code: String::new(),
                error: None,
                game: None,
            };
        }
        egui::CollapsingHeader::new("Options for hosted games")
            .id_salt("friend-options")
            .show(ui, |ui| {
                ui.horizontal(|ui| {
                    ui.label("Per-move deadline:");
                    ui.add(
                        egui::TextEdit::singleline(&mut self.settings.deadline).desired_width(80.0),
                    );
                });
                ui.checkbox(&mut self.settings.draw_by_lot, "Equal count decided by lot")
                    .on_hover_text(
                        "One of you, drawn by lot, chooses which colour wins an equal count; \
                         the other chooses a colour",
                    );
            });
    }

    /// *Your games* in the browser: the games stored in this browser;
    /// *Open* goes on with one (it reconnects, and signs nothing until
    /// the opponent has confirmed where the game stands), *Download*
    /// saves its signed log.
    #[cfg(target_arch = "wasm32")]
    pub(super) fn ongoing_games(&mut self, ui: &mut egui::Ui) {
        let rooms = crate::browser_data::rooms();
        if rooms.is_empty() {
            return;
        }
        ui.separator();
        ui.strong("Your games in this browser");
        let mut open = None;
        egui::Grid::new("stored-games")
            .striped(true)
            .show(ui, |ui| {
                for room in &rooms {
                    let (opponent, state, unfinished) = stored_game(room, &self.settings.name);
                    ui.label(opponent);
                    ui.label(state);
                    if unfinished && ui.button("Open").clicked() {
                        open = Some(room.clone());
                    }
                    if ui.button("Download").clicked()
                        && let Some(bytes) = crate::browser_data::log_bytes(room)
                        && let Err(e) =
                            crate::platform::web::download(&format!("{room}.log"), &bytes)
                    {
                        self.message = Some(e);
                    }
                    ui.end_row();
                }
            });
        if let Some(room) = open {
            let start = NetStart::Resume(std::path::PathBuf::from(room));
            self.start_network(ui.ctx(), start);
        }
    }

    #[cfg(not(target_arch = "wasm32"))]
    /// Settings' leaderboard membership: joining or leaving asks the
    /// server, and the box shows what it answered.
    pub(super) fn leaderboard_setting(&mut self, ui: &mut egui::Ui) {
        let was = self.settings.leaderboard;
        ui.checkbox(
            &mut self.settings.leaderboard,
            "Count my finished games on this signaling server's leaderboard (with players who joined too)",
        );
        if self.settings.leaderboard != was {
            let membership = if self.settings.leaderboard {
                crate::membership::Membership::Join
            } else {
                crate::membership::Membership::Leave
            };
            let identity = DataDir::resolve(self.data_dir.as_deref())
                .and_then(|d| d.identity())
                .map_err(|e| e.to_string());
            match identity {
                Ok(identity) => self.leaderboard_request(
                    ui.ctx(),
                    leaderboard_job::Request::Membership(Box::new(identity), membership),
                ),
                Err(e) => self.leaderboard_said = Some(e),
            }
            if self.leaderboard_job.is_none() {
                self.settings.leaderboard = was;
            } else {
                self.leaderboard_before = Some(was);
            }
        }
        self.leaderboard_status(ui);
    }

    /// Hosts a game with the rules and the deadline on Home.
    pub(super) fn host_as_set(&mut self, ctx: &egui::Context) {
        match crate::match_log::verify::parse_deadline(&self.settings.deadline) {
            Ok(deadline) => match self.host_proposal() {
                Ok(proposal) => self.start_host(ctx, proposal, deadline),
                Err(e) => self.message = Some(e),
            },
            Err(e) => self.message = Some(e.to_string()),
        }
    }

    /// Hosts a game with explicit rules and deadline (as the Host button does).
    pub fn start_host(&mut self, ctx: &egui::Context, proposal: RulesProposal, deadline_secs: u32) {
        self.start_network(ctx, NetStart::Host(proposal, deadline_secs));
    }

    /// Starts a network game and shows it.
    pub(super) fn start_network(&mut self, ctx: &egui::Context, start: NetStart) {
        match self.net_settings() {
            Ok(settings) => {
                let ctx = ctx.clone();
                let game = NetworkGame::start(start, settings, move || ctx.request_repaint());
                self.screen = Screen::Network(Box::new(game));
                self.seen = None;
                self.confirm_resign = false;
            }
            Err(e) => self.message = Some(e),
        }
    }

    /// The current network game's state, if one is on screen.
    pub fn network_snapshot(&self) -> Option<super::network_game::NetSnapshot> {
        match &self.screen {
            Screen::Network(game) => Some(game.snapshot()),
            _ => None,
        }
    }

    /// Joins with a code (as the Join screen does after checking it).
    pub fn start_join(&mut self, ctx: &egui::Context, code: RoomCode) {
        match self.net_settings() {
            Ok(settings) => {
                let ctx = ctx.clone();
                let game = NetworkGame::start(NetStart::Join(code), settings, move || {
                    ctx.request_repaint()
                });
                self.screen = Screen::Network(Box::new(game));
            }
            Err(e) => self.message = Some(e),
        }
    }

    pub(super) fn net_settings(&self) -> Result<NetSettings, String> {
        #[cfg(not(target_arch = "wasm32"))]
        let data_dir = DataDir::resolve(self.data_dir.as_deref()).map_err(|e| e.to_string())?;
        let non_empty = |s: &str| (!s.trim().is_empty()).then(|| s.trim().to_string());
        Ok(NetSettings {
            name: self.settings.name.clone(),
            server_url: self.settings.server_url.clone(),
            ice: IceServers {
                urls: self
                    .settings
                    .ice_urls
                    .split_whitespace()
                    .map(str::to_string)
                    .collect(),
                username: non_empty(&self.settings.turn_user),
                credential: non_empty(&self.settings.turn_password),
            },
            #[cfg(not(target_arch = "wasm32"))]
            listen: self.listen,
            #[cfg(not(target_arch = "wasm32"))]
            data_dir,
        })
    }

    /// What the Host button proposes: the rules, under the draw rule
    /// decided by lot when that is ticked.
    pub(super) fn host_proposal(&self) -> Result<RulesProposal, String> {
        let rules = self.rules()?;
        if self.settings.draw_by_lot {
            RulesProposal::draw_by_lot(rules).map_err(|e| e.to_string())
        } else {
            Ok(RulesProposal::fixed(rules))
        }
    }

    #[cfg(not(target_arch = "wasm32"))]
    /// Starts Home's list of network games once this data directory has
    /// any (so a first run creates nothing).
    pub(super) fn start_your_games(&mut self, ctx: &egui::Context) {
        if self.your_games.is_some() {
            return;
        }
        let Ok(data_dir) = DataDir::resolve(self.data_dir.as_deref()) else {
            return;
        };
        let games_dir = data_dir.games_dir();
        let register_dir = data_dir
            .path()
            .join(crate::data_dir::register::REGISTER_DIR);
        if !games_dir.is_dir() && !register_dir.is_dir() {
            return;
        }
        let Ok(identity) = data_dir.identity() else {
            return;
        };
        let register = data_dir.register(&identity.public_key());
        let server = crate::net::server_url::ServerUrl::parse(self.settings.server_url.trim()).ok();
        let ctx = ctx.clone();
        self.your_games = Some(your_games::YourGames::start(
            games_dir,
            register,
            identity,
            server,
            move || ctx.request_repaint(),
        ));
    }

    #[cfg(not(target_arch = "wasm32"))]
    /// *Your games*: opponent, rules, whose turn, time left; *Open* shows
    /// the position at once and plays on (live, and through the mailbox).
    pub(super) fn ongoing_games(&mut self, ui: &mut egui::Ui) {
        self.start_your_games(ui.ctx());
        let Some(listing) = self.your_games.as_ref().and_then(|g| g.listing()) else {
            return;
        };
        if listing.games.is_empty() {
            return;
        }
        let games = listing.games.clone();
        ui.separator();
        ui.horizontal(|ui| {
            ui.strong("Your games");
            if ui.small_button("Refresh").clicked()
                && let Some(list) = &self.your_games
            {
                list.refresh();
            }
        });
        let mut open = None;
        egui::Grid::new("your-games").striped(true).show(ui, |ui| {
            for game in &games {
                ui.label(game.opponent.as_deref().unwrap_or("(not yet accepted)"));
                ui.label(game.rules.as_deref().unwrap_or(""))
                    .on_hover_text(game.log.as_str());
                let turn = your_games::turn_words(game);
                if game.my_turn {
                    ui.strong(turn);
                } else {
                    ui.label(turn);
                }
                ui.label(your_games::time_left(game));
                if ui.button("Open").clicked() {
                    open = Some(PathBuf::from(&game.log));
                }
                ui.end_row();
            }
        });
        if let Some(path) = open {
            match self.net_settings() {
                Ok(settings) => {
                    let ctx = ui.ctx().clone();
                    let game = NetworkGame::start(NetStart::Resume(path), settings, move || {
                        ctx.request_repaint()
                    });
                    self.screen = Screen::Network(Box::new(game));
                }
                Err(e) => self.message = Some(e),
            }
        }
    }

    pub(super) fn join(&mut self, ui: &mut egui::Ui) -> Option<Screen> {
        let settings = self.net_settings();
        let autojoin = std::mem::take(&mut self.pending_join);
        let Screen::Join {
            code,
            host_name,
            error,
        } = &mut self.screen
        else {
            return None;
        };
        match host_name {
            Some(host) => {
                ui.heading(format!("{host} invites you to a game of Reversi"));
                ui.label("The code from their link:");
            }
            None => {
                ui.heading("Join a game");
                ui.label("Type or paste the code (or the invite link) from the host:");
            }
        }
        let edit = ui.add(
            egui::TextEdit::singleline(code)
                .hint_text("K7QF-M2XA-PZ4R-TB6H-C")
                .desired_width(320.0),
        );
        if let Ok(checked) = code.parse::<RoomCode>() {
            ui.label(format!(
                "The host must have {} and prove it made this code when you connect{}.",
                checked.invitation().host(),
                checked
                    .server()
                    .map_or(String::new(), |s| format!("; you meet through {s}"))
            ));
        }
        ui.horizontal(|ui| {
            ui.label("Your name:");
            ui.add(egui::TextEdit::singleline(&mut self.settings.name).desired_width(200.0));
        });
        let submit = autojoin
            || ui
                .add(egui::Button::new("Join").min_size(egui::vec2(120.0, 44.0)))
                .clicked()
            || (edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)));
        if let Some(e) = error {
            ui.colored_label(egui::Color32::from_rgb(0xe0, 0x60, 0x60), e.as_str());
        }
        if ui.button("Back").clicked() {
            return Some(Screen::Home);
        }
        if submit {
            match code.parse::<RoomCode>() {
                Err(e) => *error = Some(e.to_string()),
                Ok(code) => match settings {
                    Err(e) => *error = Some(e),
                    Ok(settings) => {
                        let ctx = ui.ctx().clone();
                        let game = NetworkGame::start(NetStart::Join(code), settings, move || {
                            ctx.request_repaint()
                        });
                        return Some(Screen::Network(Box::new(game)));
                    }
                },
            }
        }
        None
    }

    #[cfg(not(target_arch = "wasm32"))]
    /// The *Watch* screen: a code, then the game as a spectator sees it.
    pub(super) fn watch(&mut self, ui: &mut egui::Ui) -> Option<Screen> {
        let Screen::Watch { code, error, game } = &mut self.screen else {
            return None;
        };
        ui.heading("Watch a game");
        if ui.button("Back").clicked() {
            return Some(Screen::Home);
        }
        let Some(watched) = game else {
            ui.label("Paste the watch code a player shared (GAME_ID@SERVER):");
            let edit = ui.add(egui::TextEdit::singleline(code).desired_width(640.0));
            let submit = ui.button("Watch").clicked()
                || (edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)));
            if let Some(e) = error {
                ui.colored_label(egui::Color32::from_rgb(0xe0, 0x60, 0x60), e.as_str());
            }
            if submit {
                match code.parse::<crate::net::watch::WatchCode>() {
                    Ok(parsed) => {
                        let ctx = ui.ctx().clone();
                        *game = Some(Box::new(watch_game::WatchGame::start(parsed, move || {
                            ctx.request_repaint()
                        })));
                    }
                    Err(e) => *error = Some(e.to_string()),
                }
            }
            return None;
        };
        ui.label(format!("Watching {}", watched.code()));
        let snap = watched.snapshot();
        ui.label(format!("Status: {}", snap.status));
        if let Some(e) = &snap.error {
            ui.colored_label(egui::Color32::from_rgb(0xe0, 0x60, 0x60), e);
        }
        let Some(v) = &snap.verifier else {
            return None;
        };
        let name = |seat| {
            v.player(seat)
                .map_or("(not yet known)".to_string(), |p| p.name.clone())
        };
        match v.black_seat() {
            Some(black) => {
                ui.label(format!("Black: {}", name(black)));
                ui.label(format!("White: {}", name(black.other())));
            }
            None if v.coin_flip().is_some() => {
                ui.label("The colours are being chosen (draw rule decided by lot).");
            }
            None => {
                ui.label(format!(
                    "{} hosts; {} joins; the coin is not flipped yet",
                    name(crate::match_log::Seat::Host),
                    name(crate::match_log::Seat::Guest)
                ));
            }
        }
        if let Some(position) = v.current_position() {
            super::counts_line(ui, position);
            if let Some(seat) = v.seat_to_write().filter(|_| v.end().is_none()) {
                let at = v
                    .last_timestamp()
                    .saturating_add(u64::from(v.deadline_secs()) * 1000);
                let left = at.saturating_sub(crate::platform::now_ms()) / 1000;
                ui.label(format!(
                    "{}'s clock: {} left",
                    name(seat),
                    humantime::format_duration(Duration::from_secs(left))
                ));
                ui.ctx().request_repaint_after(Duration::from_secs(1));
            }
        }
        if let Some(end) = v.end() {
            let winner = end.outcome.winner.and_then(|c| v.seat_of(c)).map(name);
            ui.strong(match winner {
                Some(w) => format!("Game over: {w} wins ({})", end.outcome.ending.describe()),
                None => format!("Game over: a draw ({})", end.outcome.ending.describe()),
            });
        }
        let moves: Vec<crate::engine::Square> = v.moves().iter().map(|m| m.square).collect();
        if !moves.is_empty() {
            ui.monospace(crate::engine::format_transcript(&moves));
        }
        if let Some(position) = v.current_position() {
            let marks = BoardMarks {
                legal: Default::default(),
                last: moves.last().copied(),
                best: None,
                flipping: None,
            };
            // A spectator's clicks do nothing.
            let _ = board(ui, position, marks);
        }
        None
    }

    #[cfg(not(target_arch = "wasm32"))]
    /// Sends a request to the leaderboard of the server in Settings.
    pub(super) fn leaderboard_request(
        &mut self,
        ctx: &egui::Context,
        request: leaderboard_job::Request,
    ) {
        let server = match crate::net::server_url::ServerUrl::parse(&self.settings.server_url) {
            Ok(server) => server,
            Err(e) => {
                self.leaderboard_said = Some(format!(
                    "The leaderboard lives on a signaling server: set one above ({e})."
                ));
                return;
            }
        };
        let ctx = ctx.clone();
        self.leaderboard_said = Some("Asking the leaderboard…".into());
        self.leaderboard_job = Some(leaderboard_job::LeaderboardJob::start(
            server,
            request,
            move || ctx.request_repaint(),
        ));
    }

    #[cfg(not(target_arch = "wasm32"))]
    /// The leaderboard's last answer, shown.
    pub(super) fn leaderboard_status(&mut self, ui: &mut egui::Ui) {
        if let Some(said) = &self.leaderboard_said {
            ui.label(said);
        }
    }

    #[cfg(not(target_arch = "wasm32"))]
    /// Takes the leaderboard's answer, once it is in.
    pub(super) fn poll_leaderboard(&mut self) {
        if let Some(answer) = self.leaderboard_job.as_ref().and_then(|j| j.poll()) {
            self.leaderboard_job = None;
            let before = self.leaderboard_before.take();
            self.leaderboard_said = Some(match answer {
                Ok(line) => line,
                Err(e) => {
                    // A membership the server did not take is not shown as changed.
                    if let Some(before) = before {
                        self.settings.leaderboard = before;
                    }
                    format!("The leaderboard: {e}")
                }
            });
        }
    }

    pub(super) fn network(&mut self, ctx: &egui::Context) -> Option<Screen> {
        let typed = self.typed_square(ctx);
        let host_name = self.settings.name.clone();
        let Screen::Network(game) = &mut self.screen else {
            return None;
        };
        let snap = game.snapshot();
        // Discs that changed colour since the last position seen turn over.
        if let Some(position) = &snap.position
            && self.seen.as_ref().is_none_or(|(p, _, _)| p != position)
        {
            let flipped = self.seen.as_ref().map_or(0, |(before, _, _)| {
                (before.discs(Color::Black).0 & position.discs(Color::White).0)
                    | (before.discs(Color::White).0 & position.discs(Color::Black).0)
            });
            self.seen = Some((
                *position,
                crate::engine::Bitboard(flipped),
                crate::platform::Instant::now(),
            ));
        }
        let frame = GameFrame {
            heading: "Online game",
            position: snap.position,
            legal: match &snap.position {
                Some(position) if snap.my_turn => position.legal_moves(),
                _ => Default::default(),
            },
            last: snap.moves.last().copied(),
            flipped: self
                .seen
                .as_ref()
                .map(|(_, flipped, at)| (*flipped, at.elapsed())),
            outcome: snap.outcome,
            me: snap.my_color,
            moves: snap.moves.clone(),
            notices: snap.notices.clone(),
            can_resign: snap.position.is_some() && snap.error.is_none(),
        };
        let mut submit: Option<std::path::PathBuf> = None;
        let mut rematch: Option<(std::path::PathBuf, bool)> = None;
        let mut analyse: Option<super::log_viewer::ViewedLog> = None;
        let message = &mut self.message;
        #[cfg(not(target_arch = "wasm32"))]
        let (leaderboard, leaderboard_idle, leaderboard_said) = (
            self.settings.leaderboard,
            self.leaderboard_job.is_none(),
            self.leaderboard_said.as_deref(),
        );
        let input = game_screen(
            ctx,
            &frame,
            typed,
            self.settings.animations,
            &mut self.confirm_resign,
            &mut |ui, part| match part {
                Part::Top => {
                    // Before the board, the code has the middle of the window.
                    if let Some(code) = snap.code.as_ref().filter(|_| snap.position.is_some()) {
                        let code = typed_code(code);
                        ui.label("Room code:");
                        ui.add(
                            egui::Label::new(egui::RichText::new(code).monospace())
                                .selectable(true),
                        );
                    }
                    ui.label(format!("Status: {}", snap.status));
                    if let Some(watch) = &snap.watch_code
                        && ui
                            .button("Copy watch code")
                            .on_hover_text(watch.as_str())
                            .clicked()
                    {
                        ui.ctx().copy_text(watch.clone());
                    }
                    if let Some((name, fingerprint)) = &snap.opponent {
                        ui.label(format!("Opponent: {name} ({fingerprint})"));
                        if let (Some(code), Some(words)) = (&snap.safety_code, &snap.safety_words) {
                            ui.label(format!("Safety words: {words}"))
                                .on_hover_text(format!(
                                    "Your opponent sees the same words (and the same code, {code}) if nobody stands between you. Compare them by voice if it matters."
                                ));
                        }
                        ui.label(match (snap.connected(), snap.route) {
                            (true, Some(route)) => format!("connected ({route})"),
                            (true, None) => "connected".to_string(),
                            (false, _) => "opponent offline".to_string(),
                        });
                    }
                    if let Some(link @ crate::net::link::LinkStatus::Reconnecting { .. }) =
                        snap.link
                    {
                        ui.label(link.describe(crate::platform::Instant::now()));
                        ui.ctx().request_repaint_after(Duration::from_millis(500));
                    }
                }
                Part::Turn => {
                    if snap.rematch_offered {
                        ui.strong(
                            "The opponent proposes a rematch: the same rules, a new coin flip.",
                        );
                        ui.horizontal(|ui| {
                            if ui.button("Accept").clicked() {
                                game.answer_rematch(true);
                            }
                            if ui.button("Decline").clicked() {
                                game.answer_rematch(false);
                            }
                        });
                    }
                    if let Some(question) = snap.question {
                        ui.strong(question.prompt());
                        ui.horizontal(|ui| {
                            for color in Color::ALL {
                                if ui.button(color.to_string()).clicked() {
                                    game.choose(color);
                                }
                            }
                        });
                    } else if snap.opponent_choosing {
                        ui.label("The opponent is choosing under the draw rule decided by lot.");
                    }
                    if let Some((mine, at)) = snap.deadline.filter(|_| snap.outcome.is_none()) {
                        let left = at.saturating_sub(crate::platform::now_ms()) / 1000;
                        let whose = if mine {
                            "Your clock"
                        } else {
                            "Opponent's clock"
                        };
                        ui.label(format!(
                            "{whose}: {} left",
                            humantime::format_duration(Duration::from_secs(left))
                        ));
                        ui.ctx().request_repaint_after(Duration::from_secs(1));
                    }
                    if let Some(error) = &snap.error {
                        ui.colored_label(egui::Color32::from_rgb(0xe0, 0x60, 0x60), error);
                    }
                }
                Part::End => {
                    let Some(log) = &snap.log else {
                        return;
                    };
                    #[cfg(not(target_arch = "wasm32"))]
                    {
                        ui.label(format!("Signed log saved: {}", log.display()));
                        if leaderboard
                            && leaderboard_idle
                            && ui.button("Submit to the leaderboard").clicked()
                        {
                            submit = Some(log.clone());
                        }
                        if let Some(said) = leaderboard_said {
                            ui.label(said);
                        }
                        ui.horizontal(|ui| {
                            if ui.button("Rematch").clicked() {
                                rematch = Some((log.clone(), true));
                            }
                            if ui.button("Wait for a rematch").clicked() {
                                rematch = Some((log.clone(), false));
                            }
                        });
                    }
                    // Read on a click only: the log is a file (or the
                    // page's storage), not something to copy every frame.
                    if ui.button("Analyse the game").clicked() {
                        match log_bytes(log).as_deref().map(super::log_viewer::view_log) {
                            Some(Ok(viewed)) => analyse = Some(viewed),
                            Some(Err(e)) => *message = Some(e),
                            None => *message = Some("the log is not there".into()),
                        }
                    }
                    if ui.button("Copy GGF").clicked() {
                        match log_bytes(log).as_deref().map(ggf_of_log) {
                            Some(Ok(ggf)) => ui.ctx().copy_text(ggf),
                            Some(Err(e)) => *message = Some(e),
                            None => *message = Some("the log is not there".into()),
                        }
                    }
                    #[cfg(target_arch = "wasm32")]
                    if ui.button("Download the signed log").clicked() {
                        let name = format!("{}.log", log.display());
                        if let Some(Err(e)) =
                            log_bytes(log).map(|b| crate::platform::web::download(&name, &b))
                        {
                            *message = Some(e);
                        }
                    }
                }
                Part::NoBoard => invite(ui, snap.code.as_deref(), &host_name),
            },
        );
        let mut next = None;
        if let Some(viewed) = analyse {
            let path = snap
                .log
                .as_ref()
                .map_or(String::new(), |l| l.display().to_string());
            next = Some(super::analysed(viewed, path, ctx));
        }
        match input {
            Some(GameInput::Play(square)) => game.play(square),
            Some(GameInput::Resign) => game.resign(),
            Some(GameInput::Home) => next = Some(Screen::Home),
            None => {}
        }
        #[cfg(not(target_arch = "wasm32"))]
        if let Some(log) = submit {
            self.leaderboard_request(ctx, leaderboard_job::Request::Submit(log));
        }
        #[cfg(not(target_arch = "wasm32"))]
        if let Some((log, propose)) = rematch {
            self.start_network(ctx, NetStart::Rematch { log, propose });
        }
        #[cfg(target_arch = "wasm32")]
        let _ = (submit.take(), rematch.take());
        next
    }

    #[cfg(not(target_arch = "wasm32"))]
    /// When a listed game becomes this side's move: the window asks for
    /// attention (the taskbar flashes) and its title says so.
    pub(super) fn notice_your_move(&mut self, ctx: &egui::Context) {
        let Some(list) = &mut self.your_games else {
            return;
        };
        let newly = list.poll();
        if !newly.is_empty() && self.settings.notify_your_move {
            ctx.send_viewport_cmd(egui::ViewportCommand::RequestUserAttention(
                egui::UserAttentionType::Informational,
            ));
        }
        let your_move = list.any_my_turn();
        if your_move != self.titled_your_move {
            self.titled_your_move = your_move;
            let title = if your_move {
                "Reversi — your move"
            } else {
                "Reversi"
            };
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.into()));
        }
    }
}

/// Before the board: the invite where the eye goes, the link (with a
/// QR code of it) and the code, large in the middle.
fn invite(ui: &mut egui::Ui, code: Option<&str>, host_name: &str) {
    ui.vertical_centered(|ui| {
        ui.add_space(ui.available_height() / 5.0);
        let Some(code) = code else {
            ui.label("The board appears once both players are connected and the coin is flipped.");
            return;
        };
        let link = code
            .parse::<RoomCode>()
            .ok()
            .and_then(|c| c.invite_link())
            .map(|link| super::invite_from(link, host_name));
        let code = typed_code(code);
        let code = code.as_str();
        if let Some(link) = &link {
            ui.label(egui::RichText::new("Send your friend this link:").size(18.0));
            ui.add_space(8.0);
            ui.add(
                egui::Label::new(egui::RichText::new(link).size(20.0).monospace().strong())
                    .selectable(true)
                    .wrap(),
            );
            ui.add_space(8.0);
            super::qr_view::qr_code(ui, link, 200.0);
            ui.small("A phone on this network opens it from the camera.");
            ui.add_space(8.0);
            ui.label("or read them the code:");
        } else {
            ui.label(egui::RichText::new("Read this code to your friend, or send it:").size(18.0));
        }
        ui.add_space(8.0);
        ui.add(
            egui::Label::new(egui::RichText::new(code).size(28.0).monospace().strong())
                .selectable(true),
        );
        ui.add_space(8.0);
        ui.horizontal(|ui| {
            // Centred: the two buttons' width is known.
            ui.add_space((ui.available_width() - 220.0).max(0.0) / 2.0);
            let button = |text| egui::Button::new(text).min_size(egui::vec2(100.0, 44.0));
            if ui.add(button("Copy code")).clicked() {
                ui.ctx().copy_text(code.to_string());
            }
            if ui.add(button("Copy invite")).clicked() {
                ui.ctx().copy_text(link.clone().unwrap_or_else(|| {
                    format!("Play Reversi with me: open Reversi, choose Join a game and enter {code}")
                }));
            }
        });
        ui.add_space(16.0);
        ui.label(if link.is_some() {
            "The link opens the game in a browser, with nothing to install; with Reversi installed they can also paste it into Join a game. The board appears once you are connected and the coin is flipped."
        } else {
            "They join from Reversi's Join a game. The board appears once you are connected and the coin is flipped."
        });
        ui.add_space(8.0);
        ui.small(crate::net::room_code::WHAT_A_CODE_PROTECTS);
    });
}

/// The form of a kept code (see [`RoomCode::full`]) a person reads out.
fn typed_code(code: &str) -> String {
    code.parse::<RoomCode>()
        .map_or_else(|_| code.to_string(), |c| c.to_string())
}

/// The bytes of a network game's log: natively the file, in the browser
/// the room's stored log.
pub(super) fn log_bytes(log: &std::path::Path) -> Option<Vec<u8>> {
    #[cfg(not(target_arch = "wasm32"))]
    return crate::match_log::log_file::read_bounded(log).ok();
    #[cfg(target_arch = "wasm32")]
    return crate::browser_data::log_bytes(&log.to_string_lossy());
}

/// The GGF text of a log, which must audit clean.
fn ggf_of_log(bytes: &[u8]) -> Result<String, String> {
    let (_, verifier) =
        crate::match_log::audit::audit_log_bytes(bytes).map_err(|e| e.to_string())?;
    Ok(crate::match_log::export::ggf(&verifier))
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
            None => format!("{} moves", v.moves().len()),
        },
        (Ok(Some(_)), None) => "does not verify".to_string(),
        (Ok(None), None) => "not started".to_string(),
    };
    let unfinished = verifier.as_ref().is_some_and(|v| v.end().is_none());
    let found = (opponent, state, unfinished);
    SEEN.with(|s| {
        s.borrow_mut()
            .insert(room.to_string(), (length, now, found.clone()))
    });
    found
}
