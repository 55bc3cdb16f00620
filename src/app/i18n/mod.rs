//! The app's words in four languages — English, German, French and
//! Japanese, the languages of the sources of the rules this game plays —
//! with Project Fluent (`*.ftl` beside this file, one per language). The
//! window draws on one thread, so the language in force is kept there
//! ([`set_language`], once a frame from the settings) and `t!` looks
//! words up without every drawing function carrying a translator. A
//! message missing in one language falls back to English (a test keeps
//! the four files in step).

use std::cell::{Cell, RefCell};

use fluent_bundle::{FluentArgs, FluentBundle, FluentResource, FluentValue};
use serde::{Deserialize, Serialize};

use crate::engine::{Color, Ending, Outcome, Preset};

/// A language the app speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum Language {
    /// English.
    #[default]
    English,
    /// German.
    German,
    /// French.
    French,
    /// Japanese.
    Japanese,
}

impl Language {
    /// Every language, in the order Settings lists them.
    pub const ALL: [Language; 4] = [
        Language::English,
        Language::German,
        Language::French,
        Language::Japanese,
    ];

    /// The BCP 47 tag.
    pub fn tag(self) -> &'static str {
        match self {
            Language::English => "en",
            Language::German => "de",
            Language::French => "fr",
            Language::Japanese => "ja",
        }
    }

    /// The language's name in itself.
    pub fn name(self) -> &'static str {
        match self {
            Language::English => "English",
            Language::German => "Deutsch",
            Language::French => "Français",
            Language::Japanese => "日本語",
        }
    }

    /// The language a tag such as `de-CH` or `ja_JP.UTF-8` asks for, if
    /// the app speaks it.
    pub fn from_tag(tag: &str) -> Option<Language> {
        let primary = tag
            .split(['-', '_', '.'])
            .next()
            .unwrap_or_default()
            .to_ascii_lowercase();
        Language::ALL.into_iter().find(|l| l.tag() == primary)
    }

    /// The system's (natively) or the browser's language, or English.
    pub fn of_system() -> Language {
        sys_locale::get_locales()
            .find_map(|tag| Language::from_tag(&tag))
            .unwrap_or_default()
    }

    /// The Fluent source of the language's messages.
    pub(crate) fn source(self) -> &'static str {
        match self {
            Language::English => include_str!("en.ftl"),
            Language::German => include_str!("de.ftl"),
            Language::French => include_str!("fr.ftl"),
            Language::Japanese => include_str!("ja.ftl"),
        }
    }
}

thread_local! {
    static CURRENT: Cell<Language> = const { Cell::new(Language::English) };
    static BUNDLES: RefCell<Vec<(Language, FluentBundle<FluentResource>)>> =
        const { RefCell::new(Vec::new()) };
}

/// Makes `language` the one `t!` uses on this thread.
pub fn set_language(language: Language) {
    CURRENT.with(|c| c.set(language));
}

/// The language `t!` uses on this thread.
pub fn language() -> Language {
    CURRENT.with(Cell::get)
}

/// The bundle of `language`'s messages.
fn bundle(language: Language) -> FluentBundle<FluentResource> {
    let tag: unic_langid::LanguageIdentifier = language.tag().parse().unwrap_or_default();
    let mut bundle = FluentBundle::new(vec![tag]);
    // egui would draw the isolation marks around placeables as boxes.
    bundle.set_use_isolating(false);
    // A file that does not parse whole keeps the messages that do (the
    // test refuses such a file long before a player sees it).
    let resource = FluentResource::try_new(language.source().to_string())
        .unwrap_or_else(|(partial, _)| partial);
    let _ = bundle.add_resource(resource);
    bundle
}

/// Message `id` in `language`, if that language has it.
fn format_in(language: Language, id: &str, args: Option<&FluentArgs>) -> Option<String> {
    BUNDLES.with(|bundles| {
        let mut bundles = bundles.borrow_mut();
        if !bundles.iter().any(|(l, _)| *l == language) {
            bundles.push((language, bundle(language)));
        }
        let (_, bundle) = bundles.iter().find(|(l, _)| *l == language)?;
        let pattern = bundle.get_message(id)?.value()?;
        let mut errors = Vec::new();
        Some(
            bundle
                .format_pattern(pattern, args, &mut errors)
                .into_owned(),
        )
    })
}

/// Message `id` in the language in force, with `args`; English when that
/// language lacks it, the id itself when English does too.
pub fn translate(id: &str, args: &[(&str, FluentValue<'_>)]) -> String {
    let args = (!args.is_empty()).then(|| {
        let mut fluent = FluentArgs::new();
        for (name, value) in args {
            fluent.set(*name, value.clone());
        }
        fluent
    });
    format_in(language(), id, args.as_ref())
        .or_else(|| format_in(Language::English, id, args.as_ref()))
        .unwrap_or_else(|| id.to_string())
}

/// Message `id` in the language in force: `t!("home-title")`, or with
/// arguments `t!("moves-count", count = 12)`.
macro_rules! t {
    ($id:literal) => {
        $crate::app::i18n::translate($id, &[])
    };
    ($id:literal, $($name:ident = $value:expr),+ $(,)?) => {
        $crate::app::i18n::translate(
            $id,
            &[$((stringify!($name), fluent_bundle::FluentValue::from($value))),+],
        )
    };
}
pub(crate) use t;

/// A colour's name, capitalised (`Black`).
pub fn color_name(color: Color) -> String {
    match color {
        Color::Black => t!("color-black"),
        Color::White => t!("color-white"),
    }
}

/// A colour's name inside a sentence (`black`).
pub fn color_word(color: Color) -> String {
    match color {
        Color::Black => t!("color-black-lower"),
        Color::White => t!("color-white-lower"),
    }
}

/// How a game ended, in a few words.
pub fn ending(ending: Ending) -> String {
    match ending {
        Ending::BoardFinished => t!("ending-board-finished"),
        Ending::Resignation { resigned } => t!("ending-resigned", color = color_word(resigned)),
        Ending::Timeout { late } => t!("ending-timeout", color = color_word(late)),
    }
}

/// A result in one line: who won, the score, how it ended.
pub fn outcome(outcome: &Outcome) -> String {
    let (black, white) = (outcome.score.black, outcome.score.white);
    let how = ending(outcome.ending);
    match outcome.winner {
        Some(winner) => t!(
            "outcome-win",
            color = color_word(winner),
            black = black,
            white = white,
            how = how
        ),
        None => t!("outcome-draw", black = black, white = white, how = how),
    }
}

/// What a rules preset stands for, in one line.
pub fn preset_summary(preset: Preset) -> String {
    match preset {
        Preset::Othello => t!("preset-othello"),
        Preset::Reversi => t!("preset-reversi"),
        Preset::Classic => t!("preset-classic"),
        Preset::Ravensburger => t!("preset-ravensburger"),
        Preset::Torus => t!("preset-torus"),
    }
}

/// A rule option's value as the custom-rules editor shows it (the value
/// itself, as the command line spells it, when it is a number).
pub fn option_value(value: &str) -> String {
    match value {
        "preset" => t!("option-preset"),
        "free" => t!("option-free"),
        "double" => t!("option-double"),
        "unlimited" => t!("option-unlimited"),
        "count" => t!("option-count"),
        "empties" => t!("option-empties"),
        "draw" => t!("option-draw"),
        "black" => t!("color-black-lower"),
        "white" => t!("color-white-lower"),
        "plane" => t!("option-plane"),
        "torus" => t!("option-torus"),
        other => other.to_string(),
    }
}

/// A time left, in its two largest units (`2 d 3 h`, `5 min 10 s`).
pub fn duration(secs: u64) -> String {
    let units = [(86_400, "d"), (3_600, "h"), (60, "min"), (1, "s")];
    let mut parts = Vec::new();
    let mut left = secs;
    for (size, unit) in units {
        let n = left / size;
        left %= size;
        if (n > 0 || (size == 1 && parts.is_empty())) && parts.len() < 2 {
            parts.push(match unit {
                "d" => t!("unit-days", n = n),
                "h" => t!("unit-hours", n = n),
                "min" => t!("unit-minutes", n = n),
                _ => t!("unit-seconds", n = n),
            });
        } else if !parts.is_empty() {
            // Two units at most, and adjacent ones: 2 d 0 h is 2 d.
            break;
        }
    }
    parts.join(" ")
}

/// The computer's level's name (`Novice` … `Champion`).
pub fn level_name(level: u8) -> String {
    match level {
        1 => t!("level-1"),
        2 => t!("level-2"),
        3 => t!("level-3"),
        4 => t!("level-4"),
        5 => t!("level-5"),
        6 => t!("level-6"),
        7 => t!("level-7"),
        8 => t!("level-8"),
        9 => t!("level-9"),
        _ => t!("level-10"),
    }
}

#[cfg(test)]
mod tests;
