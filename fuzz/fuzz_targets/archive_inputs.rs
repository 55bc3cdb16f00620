//! The readers of real-game archives (WTHOR files and Logistello's book)
//! must never panic, and every game they accept must replay legally from
//! the standard start to the position they report.
#![no_main]

use libfuzzer_sys::fuzz_target;
use reversi::engine::game_archive::{read_gam, read_wthor};

fuzz_target!(|data: &[u8]| {
    if let Ok(archive) = read_wthor(data) {
        for game in archive.games().take(256).flatten() {
            assert_eq!(game.positions().last(), Some(game.last));
        }
    }
    if let Ok(text) = std::str::from_utf8(data) {
        for game in read_gam(text).take(256).flatten() {
            assert_eq!(game.positions().last(), Some(game.last));
        }
    }
});
