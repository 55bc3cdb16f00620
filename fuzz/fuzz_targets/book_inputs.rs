//! The opening book's reader must never panic, and a book it accepts must
//! answer every lookup and choose only legal moves, with values within
//! ±64 discs. The input is also tried with a fresh digest, so the fuzzer
//! reaches the checks behind it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use reversi::engine::Rules;
use reversi::engine::topology::Plane;
use reversi::search::board::Board;
use reversi::search::book::OpeningBook;
use sha2::{Digest, Sha256};

fuzz_target!(|data: &[u8]| {
    let _ = OpeningBook::decode(data);
    let mut sealed = data.to_vec();
    if sealed.len() >= 32 {
        let body = sealed.len() - 32;
        let digest = Sha256::digest(&sealed[..body]);
        sealed[body..].copy_from_slice(&digest);
    }
    let Ok(book) = OpeningBook::decode(&sealed) else {
        return;
    };
    let mut position = Rules::default().start_position();
    while let Some(board) = Board::from_position(&position) {
        let Some(chosen) = book.choose(&board) else {
            break;
        };
        assert!(chosen.value.abs() <= 6400);
        assert!(board.moves::<Plane>() & (1 << chosen.square) != 0);
        let Some(square) = reversi::engine::Square::new(chosen.square) else {
            break;
        };
        position = position.play(square).expect("a legal book move");
    }
});
