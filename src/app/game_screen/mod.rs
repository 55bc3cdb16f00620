//! The game screen, one for a game against the computer and for a game
//! over the network: the board in the middle (with a banner over it once
//! the game is over), and beside it (under it on a phone) the panel: a
//! line per player with their disc, name and count, whose turn it is, what
//! happened, the numbered moves (a click shows that position; the arrow
//! keys step through them), resignation and Home. What only one kind of
//! game shows (the computer's level and hints; the room, the opponent,
//! the clocks) it adds at four places.

mod end_banner;
mod moves;
mod notice;

use std::time::Duration;

use end_banner::{banner_tab, end_banner};
use moves::{History, looking_back_bar, move_list, step_with_keys};
pub use notice::Notice;
use notice::notices;

use super::board_view::{BoardClick, BoardMarks, board_at};
use super::i18n::{color_name, color_word, t};
use super::widgets::{ERROR, narrow};
use crate::engine::{Bitboard, Color, Outcome, PlayError, Position, Square};
use crate::platform::sound::Sound;
use crate::search::Score;

/// One player's line in the panel.
#[derive(Debug, Clone, Default)]
pub(super) struct PlayerLine {
    /// Who plays this colour.
    pub name: String,
    /// A clock or a level, under the name.
    pub detail: Option<String>,
    /// Whether this player is thinking now (their disc pulses).
    pub thinking: bool,
}

/// What the screen shows of a game, this frame.
pub(super) struct GameFrame {
    /// The panel's title.
    pub heading: String,
    /// The position the game started from (the move list replays from it).
    pub start: Option<Position>,
    /// The position, once there is one (a network game has none until
    /// the coin is flipped).
    pub position: Option<Position>,
    /// The squares a click plays now (none when it is not this player's turn).
    pub legal: Bitboard,
    /// The last move, marked on the board.
    pub last: Option<Square>,
    /// The discs the last move turned, and how long ago.
    pub flipped: Option<(Bitboard, Duration)>,
    /// The result, once over.
    pub outcome: Option<Outcome>,
    /// This player's colour, once known.
    pub me: Option<Color>,
    /// The players, Black then White.
    pub players: [PlayerLine; 2],
    /// The moves so far.
    pub moves: Vec<Square>,
    /// What happened, newest last.
    pub notices: Vec<Notice>,
    /// Whether the player may resign now.
    pub can_resign: bool,
    /// A hint to draw on the board.
    pub hint: Option<(Square, Score)>,
    /// Whether things move: flips turn, a thinking player's disc pulses.
    pub animations: bool,
    /// Whether moves, your turn and the end make a sound.
    pub sound: bool,
}

/// Where a kind of game adds what only it shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Part {
    /// Under the title.
    Top,
    /// Under the players and whose turn it is.
    Turn,
    /// In the banner over the board, once the game is over.
    End,
    /// In the middle, while there is no board yet.
    NoBoard,
}

/// What the player did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum GameInput {
    /// Played a square (clicked or typed).
    Play(Square),
    /// Confirmed resignation.
    Resign,
    /// Went back to Home.
    Home,
}

/// What the game screen keeps between frames.
#[derive(Default)]
pub(super) struct GameView {
    typed: TypedSquare,
    confirm_resign: bool,
    /// The number of moves of the position looked back at, while the
    /// player looks back.
    viewing: Option<usize>,
    /// Why the last click played nothing, until the next move.
    refused: Option<(usize, String)>,
    /// Whether the end banner was put aside to see the board.
    banner_hidden: bool,
    /// The number of moves and whether the game was over when last
    /// drawn (for the sounds of what changed since).
    heard: Option<(usize, bool)>,
}

/// A control's size a mouse and a thumb both find.
const BUTTON: egui::Vec2 = egui::vec2(120.0, 36.0);

/// Draws the screen; `extra` adds a kind of game's own parts.
pub(super) fn game_screen(
    ctx: &egui::Context,
    frame: &GameFrame,
    view: &mut GameView,
    extra: &mut dyn FnMut(&mut egui::Ui, Part),
) -> Option<GameInput> {
    let history = frame
        .start
        .map(|start| History::replay(start, &frame.moves))
        .unwrap_or_default();
    let live = history.positions.len().saturating_sub(1);
    view.viewing = view.viewing.filter(|&v| v < live);
    step_with_keys(ctx, view, live);
    let last_mover = history
        .entries
        .iter()
        .rev()
        .find(|e| e.1.is_some())
        .map(|e| e.0);
    if let Some(sound) = view.news(frame, last_mover) {
        crate::platform::sound::play(sound);
    }
    let typed = view.typed.take(ctx);
    let mut input = None;
    status_panel(ctx, |ui| {
        ui.heading(frame.heading.as_str());
        extra(ui, Part::Top);
        if let Some(position) = &frame.position {
            player_lines(ui, frame, position);
            turn_line(ui, frame, position);
        }
        if let Some((_, why)) = view.refused.as_ref().filter(|(at, _)| *at == live) {
            ui.colored_label(ERROR, why);
        }
        extra(ui, Part::Turn);
        notices(ui, &frame.notices);
        if !history.entries.is_empty() {
            ui.separator();
            move_list(ui, &history, view);
        }
        ui.separator();
        if frame.outcome.is_none()
            && frame.can_resign
            && resign_buttons(ui, &mut view.confirm_resign)
        {
            input = Some(GameInput::Resign);
        }
        if ui
            .add(egui::Button::new(t!("game-home")).min_size(BUTTON))
            .clicked()
        {
            input = Some(GameInput::Home);
        }
    });
    // On a phone the board takes the whole width, its coordinates in a
    // thin margin of their own.
    let inner = if narrow(ctx) { 2 } else { 8 };
    let central = egui::Frame::central_panel(&ctx.style()).inner_margin(inner);
    egui::CentralPanel::default()
        .frame(central)
        .show(ctx, |ui| {
            let Some(position) = &frame.position else {
                extra(ui, Part::NoBoard);
                return;
            };
            if let Some(k) = view.viewing {
                looking_back_bar(ui, view, k, live);
            }
            let marks = match view.viewing {
                Some(k) => BoardMarks {
                    last: k.checked_sub(1).and_then(|i| frame.moves.get(i).copied()),
                    ..BoardMarks::default()
                },
                None => BoardMarks {
                    legal: frame.legal,
                    last: frame.last,
                    hint: frame.hint,
                    flipping: frame.flipped,
                    explain_refusals: frame.outcome.is_none() && frame.me.is_some(),
                    ..BoardMarks::default()
                },
            };
            let shown = view
                .viewing
                .and_then(|k| history.positions.get(k))
                .unwrap_or(position);
            let (clicked, board_rect) = board_at(ui, shown, marks);
            match clicked {
                Some(BoardClick::Play(square)) => input = Some(GameInput::Play(square)),
                Some(BoardClick::Refused(square)) => {
                    let why = match position.to_move() {
                        Some(c) if Some(c) == frame.me => {
                            let square_name = square.to_string();
                            match position.play_with_report(square) {
                                Err(PlayError::FlipsNothing { .. }) => {
                                    t!("refused-flips-nothing", square = square_name)
                                }
                                Err(PlayError::Occupied { .. }) => {
                                    t!("refused-occupied", square = square_name)
                                }
                                Err(PlayError::Wall { .. }) => {
                                    t!("refused-wall", square = square_name)
                                }
                                Err(PlayError::OutsideCentre { .. }) => {
                                    t!("refused-outside-centre", square = square_name)
                                }
                                Err(PlayError::GameOver) => t!("game-over"),
                                Ok(_) => t!("refused-not-now", square = square_name),
                            }
                        }
                        _ => t!("refused-not-your-move"),
                    };
                    view.refused = Some((live, why));
                }
                None => {}
            }
            if view.viewing.is_none()
                && let Some(square) = typed.filter(|s| frame.legal.contains(*s))
            {
                input = Some(GameInput::Play(square));
            }
            if let (Some(outcome), None) = (&frame.outcome, view.viewing) {
                if view.banner_hidden {
                    let show = egui::Button::new(t!("game-show-result")).min_size(BUTTON);
                    if ui.put(banner_tab(board_rect), show).clicked() {
                        view.banner_hidden = false;
                    }
                } else if let Some(home) = end_banner(ui, board_rect, outcome, frame, view, extra) {
                    input = Some(home);
                }
            }
        });
    if matches!(input, Some(GameInput::Play(_))) {
        view.refused = None;
    }
    if input == Some(GameInput::Resign) {
        view.banner_hidden = false;
    }
    input
}

impl GameView {
    /// The sound for what changed since the last frame, if `frame` asks
    /// for sounds: the end of the game, your turn after the opponent's
    /// move, or a disc placed. Nothing on the first frame (a game
    /// resumed is not news).
    fn news(&mut self, frame: &GameFrame, last_mover: Option<Color>) -> Option<Sound> {
        let now = (frame.moves.len(), frame.outcome.is_some());
        let before = self.heard.replace(now)?;
        if !frame.sound || before == now {
            return None;
        }
        if now.1 && !before.1 {
            return Some(Sound::GameOver);
        }
        if now.0 <= before.0 {
            return None;
        }
        let my_turn = frame
            .position
            .and_then(|p| p.to_move())
            .is_some_and(|c| Some(c) == frame.me);
        let opponent_moved = last_mover.is_some() && last_mover != frame.me;
        Some(if opponent_moved && my_turn {
            Sound::YourTurn
        } else {
            Sound::Place
        })
    }
}

/// A line per player: their disc, name and count, the one to move marked.
fn player_lines(ui: &mut egui::Ui, frame: &GameFrame, position: &Position) {
    let counts = position.counts();
    let to_move = position.to_move().filter(|_| frame.outcome.is_none());
    for (color, player, count) in [
        (Color::Black, &frame.players[0], counts.black),
        (Color::White, &frame.players[1], counts.white),
    ] {
        let turn = to_move == Some(color);
        let fill = if turn {
            ui.visuals().selection.bg_fill.gamma_multiply(0.35)
        } else {
            egui::Color32::TRANSPARENT
        };
        egui::Frame::new()
            .fill(fill)
            .corner_radius(6.0)
            .inner_margin(egui::Margin::symmetric(8, 4))
            .show(ui, |ui| {
                ui.set_width(ui.available_width());
                ui.horizontal(|ui| {
                    disc_icon(ui, color, player.thinking, frame.animations);
                    ui.vertical(|ui| {
                        let you = if frame.me == Some(color) {
                            t!("game-you-suffix")
                        } else {
                            String::new()
                        };
                        let name = egui::RichText::new(format!("{}{you}", player.name)).size(16.0);
                        ui.label(if turn { name.strong() } else { name });
                        if let Some(detail) = &player.detail {
                            ui.small(detail);
                        }
                    });
                    ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                        let shown =
                            ui.label(egui::RichText::new(count.to_string()).size(28.0).strong());
                        // Read out with its colour, not as a bare number.
                        let name = color_name(color);
                        shown.widget_info(|| {
                            egui::WidgetInfo::labeled(
                                egui::WidgetType::Label,
                                true,
                                format!("{name}: {count}"),
                            )
                        });
                    });
                });
            });
    }
    if let (Some(b), Some(w)) = (position.supply(Color::Black), position.supply(Color::White)) {
        ui.label(t!("game-discs-in-hand", black = b, white = w));
    }
}

/// A disc of `color`, pulsing while its player thinks (ringed instead
/// when nothing may move).
fn disc_icon(ui: &mut egui::Ui, color: Color, thinking: bool, animations: bool) {
    let (rect, _) = ui.allocate_exact_size(egui::vec2(26.0, 26.0), egui::Sense::hover());
    let fill = match color {
        Color::Black => egui::Color32::from_gray(24),
        Color::White => egui::Color32::from_gray(238),
    };
    let mut alpha = 1.0;
    if thinking && animations {
        let t = ui.input(|i| i.time) as f32;
        alpha = 0.45 + 0.55 * (0.5 + 0.5 * (t * 5.0).sin());
        ui.ctx().request_repaint_after(Duration::from_millis(50));
    }
    let painter = ui.painter();
    painter.circle_filled(rect.center(), 11.0, fill.gamma_multiply(alpha));
    let ring = if thinking && !animations {
        egui::Stroke::new(3.0, ui.visuals().selection.stroke.color)
    } else {
        egui::Stroke::new(1.0, egui::Color32::from_gray(128))
    };
    painter.circle_stroke(rect.center(), 11.0, ring);
}

/// Whose turn it is, in words a player cannot miss on their own turn.
fn turn_line(ui: &mut egui::Ui, frame: &GameFrame, position: &Position) {
    match (position.to_move(), &frame.outcome) {
        (_, Some(_)) | (None, None) => {
            ui.strong(t!("game-over"));
        }
        (Some(c), None) if Some(c) == frame.me => {
            ui.label(
                egui::RichText::new(t!("game-your-move", color = color_word(c)))
                    .size(20.0)
                    .strong(),
            );
        }
        (Some(c), None) => {
            let player = &frame.players[usize::from(c == Color::White)];
            ui.label(if player.thinking {
                t!("game-thinking", name = player.name.as_str())
            } else {
                t!("game-to-move", color = color_name(c))
            });
        }
    }
}

/// Squares typed on the keyboard (`f5`), the last two characters kept.
#[derive(Default)]
struct TypedSquare(String);

impl TypedSquare {
    /// A square once two typed characters name one.
    fn take(&mut self, ctx: &egui::Context) -> Option<Square> {
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
            self.0.push(c);
            if self.0.len() > 2 {
                self.0.remove(0);
            }
        }
        let square = self.0.parse::<Square>().ok();
        if square.is_some() {
            self.0.clear();
        }
        square
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
            .min_width(300.0)
            .default_width(320.0)
            .show(ctx, |ui| {
                egui::ScrollArea::vertical()
                    .auto_shrink(false)
                    .show(ui, contents);
            });
    }
}

/// Resign with a confirmation; true when confirmed.
fn resign_buttons(ui: &mut egui::Ui, confirming: &mut bool) -> bool {
    if !*confirming {
        if ui
            .add(egui::Button::new(t!("game-resign")).min_size(BUTTON))
            .clicked()
        {
            *confirming = true;
        }
        return false;
    }
    ui.label(t!("game-really-resign"));
    let mut resigned = false;
    ui.horizontal(|ui| {
        if ui
            .add(egui::Button::new(t!("game-yes-resign")).min_size(BUTTON))
            .clicked()
        {
            resigned = true;
            *confirming = false;
        }
        if ui
            .add(egui::Button::new(t!("game-cancel")).min_size(BUTTON))
            .clicked()
        {
            *confirming = false;
        }
    });
    resigned
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Rules, parse_transcript};

    fn frame(position: Position, moves: &[Square], outcome: Option<Outcome>) -> GameFrame {
        GameFrame {
            heading: String::new(),
            start: None,
            position: Some(position),
            legal: position.legal_moves(),
            last: moves.last().copied(),
            flipped: None,
            outcome,
            me: Some(Color::Black),
            players: Default::default(),
            moves: moves.to_vec(),
            notices: Vec::new(),
            can_resign: true,
            hint: None,
            animations: false,
            sound: true,
        }
    }

    #[test]
    fn a_move_clicks_the_opponents_move_chimes_and_the_end_sounds_once() {
        let rules = Rules::preset(crate::engine::Preset::Othello);
        let start = rules.start_position();
        let f5 = parse_transcript("f5").unwrap();
        let f5d6 = parse_transcript("f5d6").unwrap();
        let after = |m: &[Square]| crate::engine::replay(&start, m).unwrap();
        let mut view = GameView::default();
        assert_eq!(
            view.news(&frame(start, &[], None), None),
            None,
            "first frame"
        );
        assert_eq!(
            view.news(&frame(start, &[], None), None),
            None,
            "nothing new"
        );
        let mine = frame(after(&f5), &f5, None);
        assert_eq!(view.news(&mine, Some(Color::Black)), Some(Sound::Place));
        let theirs = frame(after(&f5d6), &f5d6, None);
        assert_eq!(
            view.news(&theirs, Some(Color::White)),
            Some(Sound::YourTurn)
        );
        let end = after(&f5d6).outcome_with(crate::engine::Ending::Resignation {
            resigned: Color::White,
        });
        let over = frame(after(&f5d6), &f5d6, Some(end));
        assert_eq!(view.news(&over, Some(Color::White)), Some(Sound::GameOver));
        assert_eq!(view.news(&over, Some(Color::White)), None);
        let mut quiet = GameView::default();
        let mut silent = frame(start, &[], None);
        silent.sound = false;
        quiet.news(&silent, None);
        silent.moves = f5.clone();
        assert_eq!(quiet.news(&silent, Some(Color::Black)), None);
    }
}
