//! What every screen may read or change: the settings, where the data
//! lives, the message Home shows, and natively the list of network games
//! and the leaderboard's answers. Starting a game from any screen goes
//! through here, so each start is written once.

#[cfg(not(target_arch = "wasm32"))]
use std::net::SocketAddr;
#[cfg(not(target_arch = "wasm32"))]
use std::path::PathBuf;

use super::i18n::{Language, t};
use super::local_game::LocalGame;
use super::network_game::{NetSettings, NetStart, NetworkGame};
use super::screens::{LocalScreen, NetworkScreen, Screen};
use super::settings::{SavedGame, Settings, rules_from_strings};
#[cfg(not(target_arch = "wasm32"))]
use super::{leaderboard_job::LeaderboardState, your_games::YourGames};
#[cfg(not(target_arch = "wasm32"))]
use crate::data_dir::DataDir;
use crate::engine::{Color, Rules, parse_transcript, replay};
use crate::match_log::rules_proposal::RulesProposal;
use crate::net::transport::IceServers;

/// The app's state that outlives a screen.
pub(super) struct Shared {
    /// Remembered settings.
    pub settings: Settings,
    /// The data directory (keys, logs) when not the default one.
    #[cfg(not(target_arch = "wasm32"))]
    pub data_dir: Option<PathBuf>,
    /// Where the embedded signaling server listens.
    #[cfg(not(target_arch = "wasm32"))]
    pub listen: SocketAddr,
    /// What went wrong last, shown on the screens without a board.
    pub message: Option<String>,
    /// Seeds the computer's choices and a random colour.
    pub seed: u64,
    /// Home's list of network games, refreshed in the background.
    #[cfg(not(target_arch = "wasm32"))]
    pub your_games: Option<YourGames>,
    /// Whether the title says it is your move.
    titled_your_move: bool,
    /// The leaderboard's request under way and its last answer.
    #[cfg(not(target_arch = "wasm32"))]
    pub leaderboard: LeaderboardState,
    /// The system's (or the browser's) language, read once.
    system_language: Language,
}

impl Shared {
    /// With these settings and the default data directory.
    pub fn new(settings: Settings) -> Shared {
        Shared {
            settings,
            #[cfg(not(target_arch = "wasm32"))]
            data_dir: None,
            #[cfg(not(target_arch = "wasm32"))]
            listen: "0.0.0.0:3536".parse().expect("valid"),
            message: None,
            seed: crate::platform::now_ms(),
            #[cfg(not(target_arch = "wasm32"))]
            your_games: None,
            titled_your_move: false,
            #[cfg(not(target_arch = "wasm32"))]
            leaderboard: LeaderboardState::default(),
            system_language: Language::of_system(),
        }
    }

    /// The system's (or the browser's) language, as read at the start.
    pub fn system_language(&self) -> Language {
        self.system_language
    }

    /// The language the app speaks: the one chosen, or the system's.
    pub fn language(&self) -> Language {
        self.settings.language.unwrap_or(self.system_language)
    }

    /// A game against the computer with these rules.
    pub fn local(&self, rules: Rules, human: Color) -> Screen {
        let game = LocalGame::new(rules, human, self.settings.level, self.seed);
        Screen::Local(Box::new(LocalScreen::new(game)))
    }

    /// A game against the computer as Home's button starts it.
    pub fn play_the_computer(&mut self) -> Option<Screen> {
        let human = self.settings.human_color(self.seed);
        match self.settings.rules() {
            Ok(rules) => Some(self.local(rules, human)),
            Err(e) => {
                self.message = Some(e);
                None
            }
        }
    }

    /// The game against the computer left unfinished, replayed.
    pub fn resume_local(&mut self, saved: &SavedGame) -> Option<Screen> {
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
            Ok(game) => Some(Screen::Local(Box::new(LocalScreen::new(game)))),
            Err(e) => {
                self.message = Some(t!("saved-game-broken", why = e));
                None
            }
        }
    }

    /// What the network games are started with.
    pub fn net_settings(&self) -> Result<NetSettings, String> {
        #[cfg(not(target_arch = "wasm32"))]
        let data_dir = DataDir::resolve(self.data_dir.as_deref()).map_err(|e| e.to_string())?;
        let non_empty = |s: &str| (!s.trim().is_empty()).then(|| s.trim().to_string());
        let settings = &self.settings;
        Ok(NetSettings {
            name: settings.name.clone(),
            server_url: settings.server_url.clone(),
            ice: IceServers {
                urls: settings
                    .ice_urls
                    .split_whitespace()
                    .map(str::to_string)
                    .collect(),
                username: non_empty(&settings.turn_user),
                credential: non_empty(&settings.turn_password),
            },
            #[cfg(not(target_arch = "wasm32"))]
            listen: self.listen,
            #[cfg(not(target_arch = "wasm32"))]
            data_dir,
        })
    }

    /// A network game started and shown, or why not (in the message).
    pub fn start_network(&mut self, ctx: &egui::Context, start: NetStart) -> Option<Screen> {
        match self.net_settings() {
            Ok(settings) => {
                let ctx = ctx.clone();
                let game = NetworkGame::start(start, settings, move || ctx.request_repaint());
                Some(Screen::Network(Box::new(NetworkScreen::new(game))))
            }
            Err(e) => {
                self.message = Some(e);
                None
            }
        }
    }

    /// A game hosted with the rules and the deadline on Home.
    pub fn host_as_set(&mut self, ctx: &egui::Context) -> Option<Screen> {
        let proposal = crate::match_log::verify::parse_deadline(&self.settings.deadline)
            .map_err(|e| e.to_string())
            .and_then(|deadline| Ok((self.host_proposal()?, deadline)));
        match proposal {
            Ok((proposal, deadline)) => self.start_network(ctx, NetStart::Host(proposal, deadline)),
            Err(e) => {
                self.message = Some(e);
                None
            }
        }
    }

    /// What the Host button proposes: the rules, under the draw rule
    /// decided by lot when that is ticked.
    fn host_proposal(&self) -> Result<RulesProposal, String> {
        let rules = self.settings.rules()?;
        if self.settings.draw_by_lot {
            RulesProposal::draw_by_lot(rules).map_err(|e| e.to_string())
        } else {
            Ok(RulesProposal::fixed(rules))
        }
    }

    /// Starts Home's list of network games once this data directory has
    /// any (so a first run creates nothing).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn start_your_games(&mut self, ctx: &egui::Context) {
        if self.your_games.is_some() {
            return;
        }
        let Ok(data_dir) = DataDir::resolve(self.data_dir.as_deref()) else {
            return;
        };
        let games_dir = data_dir.games_dir();
        let register_dir = data_dir.register_dir();
        if !games_dir.is_dir() && !register_dir.is_dir() {
            return;
        }
        let Ok(identity) = data_dir.identity() else {
            return;
        };
        let register = data_dir.register(&identity.public_key());
        let server = crate::net::server_url::ServerUrl::parse(self.settings.server_url.trim()).ok();
        let ctx = ctx.clone();
        self.your_games = Some(YourGames::start(
            games_dir,
            register,
            identity,
            server,
            move || ctx.request_repaint(),
        ));
    }

    /// When a listed game becomes this side's move: the window asks for
    /// attention (the taskbar flashes).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn notice_your_move(&mut self, ctx: &egui::Context) {
        let Some(list) = &mut self.your_games else {
            return;
        };
        let newly = list.poll();
        if !newly.is_empty() && self.settings.notify_your_move {
            ctx.send_viewport_cmd(egui::ViewportCommand::RequestUserAttention(
                egui::UserAttentionType::Informational,
            ));
        }
    }

    /// The window's (or the browser tab's) title: "Your move" while it is
    /// the player's move on screen and the window is in the background,
    /// or natively while one of the listed games waits for their move.
    pub fn show_title(&mut self, ctx: &egui::Context, my_turn_on_screen: bool) {
        let background = !ctx.input(|i| i.focused);
        #[cfg(not(target_arch = "wasm32"))]
        let listed = self.your_games.as_ref().is_some_and(|l| l.any_my_turn());
        #[cfg(target_arch = "wasm32")]
        let listed = false;
        let your_move = (my_turn_on_screen && background) || listed;
        if your_move == self.titled_your_move {
            return;
        }
        self.titled_your_move = your_move;
        let title = if your_move {
            t!("title-your-move")
        } else {
            t!("app-name")
        };
        #[cfg(not(target_arch = "wasm32"))]
        ctx.send_viewport_cmd(egui::ViewportCommand::Title(title));
        #[cfg(target_arch = "wasm32")]
        crate::platform::web::set_title(&title);
    }

    /// Asks the leaderboard of the server in Settings.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn leaderboard_request(
        &mut self,
        ctx: &egui::Context,
        request: super::leaderboard_job::Request,
    ) {
        self.leaderboard
            .request(ctx, &self.settings.server_url, request);
    }
}
