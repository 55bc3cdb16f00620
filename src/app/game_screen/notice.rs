//! What happened in a game, for the player: kept as data (the network
//! thread makes it without knowing the player's language) and put into
//! words where it is shown, each notice once.

use super::super::i18n::{color_word, t};
use super::super::widgets::ERROR;
use crate::engine::Color;
use crate::net::refusal::Refusal;
use crate::net::session::{ActionError, HaltReason};

/// Notices shown at once.
const NOTICES_SHOWN: usize = 3;

/// Something that happened, for the player; its words are made when it
/// is shown, in the player's language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notice {
    /// A player had no legal move (or no discs left) and was skipped.
    Skipped {
        /// Whether it was the person (`Some(true)`) or the computer
        /// (`Some(false)`); `None` says only the colour.
        who: Option<bool>,
        /// The colour skipped.
        color: Color,
        /// Whether it had no discs left rather than no legal move.
        no_discs: bool,
    },
    /// The coin has settled the colours.
    ColoursSettled(Color),
    /// A choice under the draw rule decided by lot.
    Chose {
        /// Whether the person chose.
        mine: bool,
        /// Which colour wins an equal count (else: the colour to play).
        tie_winner: bool,
        /// The colour chosen.
        color: Color,
    },
    /// A message from the opponent was refused, and why (its detail is
    /// put in words by the layer that refused it, in English).
    Rejected(Refusal),
    /// The opponent refused one of ours, in its own words.
    PeerRejected(String),
    /// A move of the person's was not played, and why.
    MoveRefused(ActionError),
    /// The game stopped, and why.
    Halted(HaltReason),
    /// The opponent proposes a rematch.
    RematchOffered,
}

impl Notice {
    /// Whether something went wrong (shown in red; the rest is plain).
    pub fn problem(&self) -> bool {
        matches!(
            self,
            Notice::Rejected(_)
                | Notice::PeerRejected(_)
                | Notice::MoveRefused(_)
                | Notice::Halted(_)
        )
    }

    /// What happened, in a sentence of the player's language.
    pub fn text(&self) -> String {
        match self {
            Notice::Skipped {
                who,
                color,
                no_discs,
            } => {
                let color = color_word(*color);
                match (who, no_discs) {
                    (Some(true), false) => t!("notice-you-no-move", color = color),
                    (Some(true), true) => t!("notice-you-no-discs", color = color),
                    (Some(false), false) => t!("notice-computer-no-move", color = color),
                    (Some(false), true) => t!("notice-computer-no-discs", color = color),
                    (None, _) => t!("notice-skipped", color = color_name_of(color)),
                }
            }
            Notice::ColoursSettled(color) => {
                t!("notice-colours-settled", color = color_word(*color))
            }
            Notice::Chose {
                mine,
                tie_winner,
                color,
            } => {
                let color = color_word(*color);
                match (mine, tie_winner) {
                    (true, true) => t!("notice-you-chose-tie", color = color),
                    (true, false) => t!("notice-you-chose-color", color = color),
                    (false, true) => t!("notice-they-chose-tie", color = color),
                    (false, false) => t!("notice-they-chose-color", color = color),
                }
            }
            Notice::Rejected(why) => t!("notice-rejected", why = why.to_string()),
            Notice::PeerRejected(why) => t!("notice-peer-rejected", why = why.as_str()),
            Notice::MoveRefused(why) => t!("notice-move-refused", why = why.to_string()),
            Notice::Halted(why) => t!("notice-halted", why = why.to_string()),
            Notice::RematchOffered => t!("notice-rematch-offered"),
        }
    }
}

/// A colour's word capitalised to start a sentence.
fn color_name_of(word: String) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

/// The latest notices, each once, oldest first.
fn latest_once(notices: &[Notice]) -> Vec<&Notice> {
    let mut shown: Vec<&Notice> = Vec::new();
    for notice in notices.iter().rev() {
        if shown.len() == NOTICES_SHOWN {
            break;
        }
        if !shown.contains(&notice) {
            shown.push(notice);
        }
    }
    shown.reverse();
    shown
}

/// The latest notices, each once; problems in red, the rest plain.
pub(super) fn notices(ui: &mut egui::Ui, notices: &[Notice]) {
    for notice in latest_once(notices) {
        if notice.problem() {
            ui.colored_label(ERROR, notice.text());
        } else {
            ui.label(notice.text());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_notice_repeated_is_shown_once_and_only_the_latest_few() {
        let pass = Notice::Skipped {
            who: Some(true),
            color: Color::Black,
            no_discs: false,
        };
        let refused = Notice::Rejected(Refusal::InvalidKey);
        let all = vec![
            Notice::RematchOffered,
            pass.clone(),
            pass.clone(),
            refused.clone(),
            pass.clone(),
            Notice::ColoursSettled(Color::White),
        ];
        // Each where it last happened.
        assert_eq!(
            latest_once(&all),
            [&refused, &pass, &Notice::ColoursSettled(Color::White)]
        );
        assert!(refused.problem() && !pass.problem());
        assert_eq!(pass.text(), "You have no legal move: black is skipped.");
    }
}
