//! The four languages stay in step, and every message the code asks for
//! exists.

use std::collections::BTreeSet;

use fluent_bundle::FluentResource;
use fluent_syntax::ast;

use super::*;

/// The ids of the messages in a Fluent source, refusing one that does not
/// parse whole.
fn ids(language: Language) -> BTreeSet<String> {
    let resource = FluentResource::try_new(language.source().to_string())
        .unwrap_or_else(|(_, errors)| panic!("{}.ftl does not parse: {errors:?}", language.tag()));
    resource
        .entries()
        .filter_map(|entry| match entry {
            ast::Entry::Message(message) => Some(message.id.name.to_string()),
            _ => None,
        })
        .collect()
}

#[test]
fn every_language_has_every_message_and_no_other() {
    let english = ids(Language::English);
    assert!(english.len() > 100, "{} messages", english.len());
    for language in Language::ALL {
        let found = ids(language);
        let missing: Vec<_> = english.difference(&found).collect();
        let extra: Vec<_> = found.difference(&english).collect();
        assert!(
            missing.is_empty() && extra.is_empty(),
            "{}.ftl lacks {missing:?} and has {extra:?} besides English",
            language.tag()
        );
    }
}

/// The ids in `t!("…")` calls under `src/app`.
fn ids_in_code() -> BTreeSet<String> {
    fn walk(dir: &std::path::Path, out: &mut BTreeSet<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.ends_with("i18n") {
                // This module's own examples and tests.
                continue;
            }
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                // `t!("` not preceded by a letter (which would be
                // `format!("`, `assert!("` …).
                for (at, _) in text.match_indices("t!(\"") {
                    let before = text[..at].chars().next_back();
                    if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                        continue;
                    }
                    let rest = &text[at + 4..];
                    if let Some(id) = rest.split('"').next() {
                        out.insert(id.to_string());
                    }
                }
            }
        }
    }
    let mut out = BTreeSet::new();
    walk(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/app"),
        &mut out,
    );
    out
}

#[test]
fn every_message_the_code_asks_for_exists_in_english() {
    let english = ids(Language::English);
    let asked = ids_in_code();
    assert!(asked.len() > 100, "{} ids found in the code", asked.len());
    let missing: Vec<_> = asked.iter().filter(|id| !english.contains(*id)).collect();
    assert!(missing.is_empty(), "en.ftl lacks {missing:?}");
}

#[test]
fn words_follow_the_language_in_force_and_fall_back_to_english() {
    set_language(Language::German);
    assert_eq!(language(), Language::German);
    let german = t!("home-play-computer");
    set_language(Language::English);
    assert_eq!(t!("home-play-computer"), "Play the computer");
    assert_eq!(t!("no-such-message"), "no-such-message");
    assert_eq!(
        t!("game-looking-back", move = 3, of = 10),
        "Looking back: after move 3 of 10"
    );
    assert_eq!(t!("home-moves-count", count = 1), "1 move");
    assert_eq!(t!("home-moves-count", count = 7), "7 moves");
    assert_ne!(german, "", "German has the message");
}

#[test]
fn a_system_language_is_read_from_its_tag() {
    assert_eq!(Language::from_tag("de-CH"), Some(Language::German));
    assert_eq!(Language::from_tag("ja_JP.UTF-8"), Some(Language::Japanese));
    assert_eq!(Language::from_tag("FR"), Some(Language::French));
    assert_eq!(Language::from_tag("pt-BR"), None);
    assert_eq!(Language::from_tag(""), None);
}

#[test]
fn a_duration_reads_in_its_two_largest_units() {
    set_language(Language::English);
    assert_eq!(duration(0), "0 s");
    assert_eq!(duration(42), "42 s");
    assert_eq!(duration(5 * 60 + 10), "5 min 10 s");
    assert_eq!(duration(23 * 3600 + 53 * 60 + 7), "23 h 53 min");
    assert_eq!(
        duration(2 * 86_400 + 30),
        "2 d",
        "no hours: the seconds are dropped"
    );
    assert_eq!(duration(86_400 + 3 * 3600), "1 d 3 h");
    set_language(Language::Japanese);
    assert_eq!(duration(86_400 + 3 * 3600), "1日 3時間");
    set_language(Language::English);
}
