//! The font that draws Japanese. egui's own fonts have no kana or kanji,
//! and a whole CJK font is megabytes, so the app ships a subset of Noto
//! Sans CJK JP (SIL Open Font License 1.1) holding the characters of
//! `i18n/ja.ftl` (made by `tools/subset-font.sh`; a test checks it
//! covers them). It is added only while Japanese is in force: natively
//! from the program's own bytes; in the browser fetched from beside the
//! page when Japanese is first chosen (so the page's first frame and
//! bundle stay as they are for everyone else), and checked against its
//! SHA-256 before use.

use std::cell::Cell;

use super::i18n::Language;

/// The font's file name (beside the page in the browser).
#[cfg(target_arch = "wasm32")]
pub const FILE: &str = "NotoSansJP-subset.otf";

/// The SHA-256 of the font file, hex; `tools/subset-font.sh` writes it
/// here, and a test checks it.
#[cfg(any(test, target_arch = "wasm32"))]
pub const SHA256: &str = "a8d01893441083b6c5519c1057e39666ca44656fd49a45ef4a6fd114d4708d34";

/// The name egui knows the font by.
const NAME: &str = "noto-sans-jp-subset";

thread_local! {
    /// Whether the Japanese font is in the context's fonts.
    static INSTALLED: Cell<bool> = const { Cell::new(false) };
}

/// Adds the Japanese font when `language` needs it and it is at hand.
pub fn follow_language(ctx: &egui::Context, language: Language) {
    if language != Language::Japanese || INSTALLED.with(Cell::get) {
        return;
    }
    let Some(bytes) = font_bytes(ctx) else {
        return;
    };
    let mut fonts = egui::FontDefinitions::default();
    fonts.font_data.insert(
        NAME.to_string(),
        std::sync::Arc::new(egui::FontData::from_owned(bytes)),
    );
    // After egui's own fonts: Latin text keeps its look, and only what
    // they lack comes from this one.
    for family in [egui::FontFamily::Proportional, egui::FontFamily::Monospace] {
        fonts
            .families
            .entry(family)
            .or_default()
            .push(NAME.to_string());
    }
    ctx.set_fonts(fonts);
    INSTALLED.with(|i| i.set(true));
}

/// The font's bytes: the program's own natively.
#[cfg(not(target_arch = "wasm32"))]
fn font_bytes(_ctx: &egui::Context) -> Option<Vec<u8>> {
    Some(include_bytes!("i18n/NotoSansJP-subset.otf").to_vec())
}

/// The font's bytes in the browser, once fetched (the first call starts
/// the fetch; the frame after it arrives installs it).
#[cfg(target_arch = "wasm32")]
fn font_bytes(ctx: &egui::Context) -> Option<Vec<u8>> {
    use std::cell::RefCell;
    thread_local! {
        static FETCHED: RefCell<Option<Vec<u8>>> = const { RefCell::new(None) };
        static ASKED: Cell<bool> = const { Cell::new(false) };
    }
    if let Some(bytes) = FETCHED.with(|f| f.borrow_mut().take()) {
        return Some(bytes);
    }
    if !ASKED.with(|a| a.replace(true)) {
        let ctx = ctx.clone();
        wasm_bindgen_futures::spawn_local(async move {
            match crate::platform::web::fetch_checked(FILE, SHA256, MAX_BYTES).await {
                Ok(bytes) => {
                    FETCHED.with(|f| *f.borrow_mut() = Some(bytes));
                    ctx.request_repaint();
                }
                Err(e) => web_sys::console::warn_1(
                    &format!("the Japanese font is not available: {e}").into(),
                ),
            }
        });
    }
    None
}

/// The most a fetched font may weigh.
#[cfg(target_arch = "wasm32")]
const MAX_BYTES: usize = 4 << 20;

#[cfg(test)]
mod tests {
    use super::*;

    const BYTES: &[u8] = include_bytes!("i18n/NotoSansJP-subset.otf");

    #[test]
    fn the_font_draws_every_character_of_the_japanese_texts() {
        let face = ttf_parser::Face::parse(BYTES, 0).expect("an OpenType font");
        let missing: String = Language::Japanese
            .source()
            .lines()
            .filter(|line| !line.starts_with('#'))
            .flat_map(str::chars)
            .filter(|c| !c.is_ascii() && face.glyph_index(*c).is_none())
            .collect();
        assert!(missing.is_empty(), "the font lacks {missing:?}");
        assert!(BYTES.len() < 1 << 20, "{} bytes", BYTES.len());
    }

    #[test]
    fn the_recorded_hash_is_the_fonts() {
        use sha2::Digest as _;
        let hash = data_encoding::HEXLOWER.encode(&sha2::Sha256::digest(BYTES));
        assert_eq!(SHA256, hash, "run tools/subset-font.sh");
    }
}
