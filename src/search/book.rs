//! The opening book: the positions of the first plies that tournament
//! players and Logistello reached, each with a value from a deep search of
//! this program, backed up through the book by negamax
//! (`examples/opening_book.rs` builds it from the WTHOR and Logistello
//! archives).
//!
//! A position's stored value is the best of its book children's (negated),
//! or its own deep search's value when that search's move leaves the book
//! and is worth more (or when it has no book children). So at a book
//! position the best book move keeps the stored value exactly when no move
//! outside the book looked better to the deep search:
//! [`OpeningBook::choose`] plays it then, and leaves the book (returns
//! `None`) otherwise.
//!
//! Positions are stored once under the board's eight symmetries, in their
//! smallest orientation, sorted, so a lookup is a binary search. The book
//! applies to the plain 8×8 board; the torus and boards with walls never
//! reach it. This module only reads books: no files, no clock.

use std::sync::OnceLock;

use sha2::{Digest, Sha256};

use super::board::Board;
use super::symmetry::canonical;
#[cfg(test)]
use super::symmetry::{mirror, transpose};
use crate::engine::topology::{Geometry, Plane};

const MAGIC: &[u8; 8] = b"RVBOOK01";
/// Bytes of one entry: the side to move's discs, the other side's (each a
/// little-endian `u64`), and the value (`i16`, hundredths of a disc).
const ENTRY: usize = 18;
const HEADER: usize = MAGIC.len() + 4;
const DIGEST: usize = 32;
/// Most entries a book may hold (the shipped one has far fewer).
pub const MAX_ENTRIES: usize = 1 << 20;
/// The largest file a book of [`MAX_ENTRIES`] makes.
pub const MAX_FILE: usize = HEADER + ENTRY * MAX_ENTRIES + DIGEST;
/// Largest stored value: a disc difference never exceeds 64.
const LIMIT: i16 = 6400;

/// Why a book file cannot be used.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum BookError {
    /// The file does not start with the format's magic.
    #[error("not an opening book (expected magic {expected:?})")]
    Magic {
        /// The 8 bytes a book starts with.
        expected: &'static str,
    },
    /// The file's length does not match the entry count in its header.
    #[error("{found} bytes, but a book of {entries} entries has {expected}")]
    Length {
        /// The count the header gives.
        entries: usize,
        /// The length that count implies.
        expected: usize,
        /// The file's length.
        found: usize,
    },
    /// The header counts more entries than any book may hold.
    #[error("{found} entries, more than the {limit} a book may hold")]
    TooLarge {
        /// The largest count accepted.
        limit: usize,
        /// The header's count.
        found: usize,
    },
    /// The digest at the end does not match the contents.
    #[error("the SHA-256 digest does not match: the book is damaged")]
    Digest,
    /// An entry is not a position a book can hold.
    #[error("entry {index}: {problem}")]
    Entry {
        /// The entry, from 0.
        index: usize,
        /// What is wrong with it.
        problem: EntryProblem,
    },
}

/// What can be wrong with one entry of a book.
#[derive(Debug, thiserror::Error, Clone, Copy, PartialEq, Eq)]
pub enum EntryProblem {
    /// A square holds discs of both sides.
    #[error("a square holds both sides' discs")]
    Overlap,
    /// The position is not stored in its smallest orientation.
    #[error("the position is not in its canonical orientation")]
    NotCanonical,
    /// The entries are not in strictly increasing order.
    #[error("out of order, or the same position twice")]
    Order,
    /// The value is outside ±64 discs.
    #[error("value {found} is outside ±{LIMIT} hundredths of a disc")]
    Value {
        /// The stored value.
        found: i16,
    },
}

/// A book move: where, and its backed-up value for the side to move, in
/// hundredths of a disc.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BookMove {
    /// The square, 0 (a1) to 63 (h8).
    pub square: u8,
    /// The move's value for the side to move.
    pub value: i32,
}

/// A checked opening book.
#[derive(Clone, PartialEq, Eq)]
pub struct OpeningBook {
    /// Canonical (side to move, other side) pairs, strictly increasing.
    keys: Vec<(u64, u64)>,
    /// Each key's value for its side to move, in hundredths of a disc.
    values: Vec<i16>,
}

impl std::fmt::Debug for OpeningBook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpeningBook")
            .field("positions", &self.keys.len())
            .finish()
    }
}

impl OpeningBook {
    /// A book of `entries` (any order, any orientation; a position given
    /// twice keeps its first value). Values are clamped to ±64 discs.
    pub fn from_entries(entries: impl IntoIterator<Item = ((u64, u64), i32)>) -> OpeningBook {
        let mut all: Vec<((u64, u64), i16)> = entries
            .into_iter()
            .filter(|&((p, o), _)| p & o == 0)
            .map(|((p, o), v)| {
                let clamped = v.clamp(-i32::from(LIMIT), i32::from(LIMIT));
                (canonical(p, o), clamped as i16)
            })
            .collect();
        all.sort_by_key(|&(key, _)| key);
        all.dedup_by_key(|&mut (key, _)| key);
        all.truncate(MAX_ENTRIES);
        OpeningBook {
            keys: all.iter().map(|&(k, _)| k).collect(),
            values: all.iter().map(|&(_, v)| v).collect(),
        }
    }

    /// Positions in the book.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether the book holds no position.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The book's value of a position for its side to move, in hundredths
    /// of a disc, in whatever orientation it is given.
    pub fn value(&self, player: u64, opponent: u64) -> Option<i32> {
        let key = canonical(player, opponent);
        let at = self.keys.binary_search(&key).ok()?;
        Some(i32::from(self.values[at]))
    }

    /// The book move in `board`, if the position is in the book and its
    /// best move is: the book child with the best value (the lowest square
    /// on a tie), provided it keeps the position's stored value. `None` on
    /// boards with walls, and once the game has left the book.
    pub fn choose(&self, board: &Board) -> Option<BookMove> {
        if board.player | board.opponent | board.empty != u64::MAX {
            return None;
        }
        let own = self.value(board.player, board.opponent)?;
        let mut best: Option<BookMove> = None;
        let mut rest = board.moves::<Plane>();
        while rest != 0 {
            let square = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            let child = board.play(square, Plane::flips(board.player, board.opponent, square));
            // A child whose side to move must pass is never in the book:
            // the games store each position under the side that moves.
            if child.moves::<Plane>() == 0 {
                continue;
            }
            let Some(v) = self.value(child.player, child.opponent) else {
                continue;
            };
            if best.is_none_or(|b| -v > b.value) {
                best = Some(BookMove { square, value: -v });
            }
        }
        best.filter(|b| b.value >= own)
    }

    /// The book in its file format (see [`OpeningBook::decode`]).
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER + ENTRY * self.len() + DIGEST);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&(self.len() as u32).to_le_bytes());
        for (&(p, o), &v) in self.keys.iter().zip(&self.values) {
            out.extend_from_slice(&p.to_le_bytes());
            out.extend_from_slice(&o.to_le_bytes());
            out.extend_from_slice(&v.to_le_bytes());
        }
        let digest = Sha256::digest(&out);
        out.extend_from_slice(&digest);
        out
    }

    /// Reads and checks a book: the magic, the length, the digest, and that
    /// every entry is a canonical position in strictly increasing order
    /// with a value within ±64 discs.
    pub fn decode(bytes: &[u8]) -> Result<OpeningBook, BookError> {
        if bytes.len() < HEADER || &bytes[..MAGIC.len()] != MAGIC {
            return Err(BookError::Magic {
                expected: "RVBOOK01",
            });
        }
        let mut count = [0u8; 4];
        count.copy_from_slice(&bytes[MAGIC.len()..HEADER]);
        let entries = u32::from_le_bytes(count) as usize;
        if entries > MAX_ENTRIES {
            return Err(BookError::TooLarge {
                limit: MAX_ENTRIES,
                found: entries,
            });
        }
        let expected = HEADER + ENTRY * entries + DIGEST;
        if bytes.len() != expected {
            return Err(BookError::Length {
                entries,
                expected,
                found: bytes.len(),
            });
        }
        let (body, digest) = bytes.split_at(expected - DIGEST);
        if Sha256::digest(body).as_slice() != digest {
            return Err(BookError::Digest);
        }
        let mut keys = Vec::with_capacity(entries);
        let mut values = Vec::with_capacity(entries);
        for (index, raw) in body[HEADER..].chunks_exact(ENTRY).enumerate() {
            let word = |at: usize| {
                let mut b = [0u8; 8];
                b.copy_from_slice(&raw[at..at + 8]);
                u64::from_le_bytes(b)
            };
            let (p, o) = (word(0), word(8));
            let value = i16::from_le_bytes([raw[16], raw[17]]);
            let problem = if p & o != 0 {
                Some(EntryProblem::Overlap)
            } else if canonical(p, o) != (p, o) {
                Some(EntryProblem::NotCanonical)
            } else if keys.last().is_some_and(|&last| last >= (p, o)) {
                Some(EntryProblem::Order)
            } else if !(-LIMIT..=LIMIT).contains(&value) {
                Some(EntryProblem::Value { found: value })
            } else {
                None
            };
            if let Some(problem) = problem {
                return Err(BookError::Entry { index, problem });
            }
            keys.push((p, o));
            values.push(value);
        }
        Ok(OpeningBook { keys, values })
    }
}

static BOOK: OnceLock<Option<OpeningBook>> = OnceLock::new();

/// The shipped book; the browser build leaves it out of its module, and
/// its search worker fetches the file beside the page and [`install`]s it.
#[cfg(not(target_arch = "wasm32"))]
const SHIPPED: &[u8] = include_bytes!("opening_book.bin");
#[cfg(target_arch = "wasm32")]
const SHIPPED: &[u8] = &[];

/// The book in use: the one [`install`]ed before the first lookup, else
/// the shipped file (`None` if it does not read, which a unit test rules
/// out for the shipped one).
pub fn book() -> Option<&'static OpeningBook> {
    BOOK.get_or_init(|| OpeningBook::decode(SHIPPED).ok())
        .as_ref()
}

/// Makes `book` (or, with `None`, no book) the one this process uses; it
/// must come before the first lookup.
pub fn install(book: Option<OpeningBook>) -> Result<(), BookInUse> {
    BOOK.set(book).map_err(|_| BookInUse)
}

/// [`install`] came after the process had begun to use a book.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("the process is already using another opening book")]
pub struct BookInUse;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Position, Rules, Square};

    fn board(position: &Position) -> Board {
        Board::from_position(position).unwrap()
    }

    fn key(position: &Position) -> (u64, u64) {
        let b = board(position);
        (b.player, b.opponent)
    }

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    #[test]
    fn canonical_is_the_same_for_all_eight_orientations() {
        let start = Rules::default().start_position();
        let after = start.play(sq("f5")).unwrap().play(sq("d6")).unwrap();
        let (p, o) = key(&after);
        let mut pair = (p, o);
        for turn in 0..8 {
            assert_eq!(canonical(pair.0, pair.1), canonical(p, o), "turn {turn}");
            pair = if turn % 2 == 0 {
                (mirror(pair.0), mirror(pair.1))
            } else {
                (transpose(pair.0), transpose(pair.1))
            };
        }
        // The four first moves are one position under symmetry.
        let firsts: Vec<_> = ["f5", "e6", "d3", "c4"]
            .iter()
            .map(|m| {
                let (p, o) = key(&start.play(sq(m)).unwrap());
                canonical(p, o)
            })
            .collect();
        assert!(firsts.windows(2).all(|w| w[0] == w[1]));
    }

    /// A book of the start, its first move (any orientation) and the three
    /// replies to f5, each valued for its side to move, so that d6 (the
    /// perpendicular opening) is best for White.
    fn small_book(start_value: i32) -> OpeningBook {
        let start = Rules::default().start_position();
        let f5 = start.play(sq("f5")).unwrap();
        let mut entries = vec![(key(&start), start_value), (key(&f5), -40)];
        for (reply, value) in [("d6", 40), ("f6", 300), ("f4", 100)] {
            entries.push((key(&f5.play(sq(reply)).unwrap()), value));
        }
        OpeningBook::from_entries(entries)
    }

    #[test]
    fn choose_plays_the_best_book_child_while_it_keeps_the_value() {
        let book = small_book(40);
        let start = Rules::default().start_position();
        // At the start every first move is the same book position: the
        // lowest square of the four (d3) is played.
        let first = book.choose(&board(&start)).unwrap();
        assert_eq!(
            first,
            BookMove {
                square: sq("d3").index(),
                value: 40
            }
        );
        // After f5, White's best book reply is d6, worth -0.40 to White.
        let f5 = start.play(sq("f5")).unwrap();
        let reply = book.choose(&board(&f5)).unwrap();
        assert_eq!(
            reply,
            BookMove {
                square: sq("d6").index(),
                value: -40
            }
        );
        // Out of the book: no move.
        let d6 = f5.play(sq("d6")).unwrap();
        assert_eq!(book.choose(&board(&d6)), None);
    }

    #[test]
    fn choose_leaves_the_book_when_a_move_outside_it_was_better() {
        // The start's own search said +0.60: better than the book's 0.40.
        let book = small_book(60);
        let start = Rules::default().start_position();
        assert_eq!(book.choose(&board(&start)), None);
    }

    #[test]
    fn boards_with_walls_never_use_the_book() {
        let book = small_book(40);
        let start = Rules::default().start_position();
        let mut b = board(&start);
        b.empty &= !1;
        assert_eq!(book.choose(&b), None);
    }

    #[test]
    fn encode_and_decode_round_trip() {
        let book = small_book(40);
        let bytes = book.encode();
        assert_eq!(bytes.len(), HEADER + 5 * ENTRY + DIGEST);
        assert_eq!(OpeningBook::decode(&bytes), Ok(book));
    }

    /// `bytes` with its digest made right again after an edit.
    fn resealed(mut bytes: Vec<u8>) -> Vec<u8> {
        let body = bytes.len() - DIGEST;
        let digest = Sha256::digest(&bytes[..body]);
        bytes[body..].copy_from_slice(&digest);
        bytes
    }

    #[test]
    fn decode_names_what_is_wrong() {
        let good = small_book(40).encode();
        assert!(matches!(
            OpeningBook::decode(b"RVPATT01"),
            Err(BookError::Magic { .. })
        ));
        assert!(matches!(
            OpeningBook::decode(&good[..good.len() - 1]),
            Err(BookError::Length { entries: 5, .. })
        ));
        let mut huge = good.clone();
        huge[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(matches!(
            OpeningBook::decode(&huge),
            Err(BookError::TooLarge { .. })
        ));
        let mut flipped = good.clone();
        flipped[HEADER] ^= 1;
        assert_eq!(OpeningBook::decode(&flipped), Err(BookError::Digest));
        // A value of 100 discs.
        let mut value = good.clone();
        value[HEADER + 16..HEADER + 18].copy_from_slice(&10_000i16.to_le_bytes());
        assert_eq!(
            OpeningBook::decode(&resealed(value)),
            Err(BookError::Entry {
                index: 0,
                problem: EntryProblem::Value { found: 10_000 }
            })
        );
        // The second entry copied over the first: out of order.
        let mut order = good.clone();
        order.copy_within(HEADER + ENTRY..HEADER + 2 * ENTRY, HEADER);
        assert_eq!(
            OpeningBook::decode(&resealed(order)),
            Err(BookError::Entry {
                index: 1,
                problem: EntryProblem::Order
            })
        );
        // The first position mirrored: no longer canonical (or overlapping).
        let mut turned = good.clone();
        let p = u64::from_le_bytes(turned[HEADER..HEADER + 8].try_into().unwrap());
        let o = u64::from_le_bytes(turned[HEADER + 8..HEADER + 16].try_into().unwrap());
        turned[HEADER..HEADER + 8].copy_from_slice(&mirror(p).to_le_bytes());
        turned[HEADER + 8..HEADER + 16].copy_from_slice(&mirror(o).to_le_bytes());
        assert!(mirror(p) != p || mirror(o) != o);
        assert!(matches!(
            OpeningBook::decode(&resealed(turned)),
            Err(BookError::Entry { index: 0, .. })
        ));
        let mut overlap = good;
        overlap[HEADER..HEADER + 8].copy_from_slice(&o.to_le_bytes());
        assert_eq!(
            OpeningBook::decode(&resealed(overlap)),
            Err(BookError::Entry {
                index: 0,
                problem: EntryProblem::Overlap
            })
        );
    }

    proptest::proptest! {
        #[test]
        fn decoding_arbitrary_or_damaged_bytes_never_panics(
            bytes in proptest::collection::vec(0u8..=255, 0..300),
            at in 0usize..200,
            byte in 0u8..=255,
        ) {
            let _ = OpeningBook::decode(&bytes);
            // A real book with one byte changed and its digest made right:
            // refused or read, never a panic, and a book read chooses only
            // legal moves.
            let mut damaged = small_book(40).encode();
            let at = at % damaged.len();
            damaged[at] = byte;
            if let Ok(book) = OpeningBook::decode(&resealed(damaged)) {
                let start = Rules::default().start_position();
                if let Some(chosen) = book.choose(&board(&start)) {
                    proptest::prop_assert!(start.legal_moves().0 & (1 << chosen.square) != 0);
                }
            }
        }

        #[test]
        fn any_set_of_positions_round_trips(
            raw in proptest::collection::vec((0u64..u64::MAX, 0u64..u64::MAX, -7000i32..7000), 0..40),
        ) {
            let book = OpeningBook::from_entries(
                raw.iter().map(|&(p, o, v)| ((p, o & !p), v)),
            );
            proptest::prop_assert_eq!(OpeningBook::decode(&book.encode()), Ok(book.clone()));
            // Any orientation finds the value first given for its
            // position, clamped to ±64 discs.
            let mut first = std::collections::HashMap::new();
            for &(p, o, v) in &raw {
                first.entry(canonical(p, o & !p)).or_insert(v.clamp(-6400, 6400));
            }
            for &(p, o, _) in &raw {
                let expected = first[&canonical(p, o & !p)];
                proptest::prop_assert_eq!(book.value(mirror(p), mirror(o & !p)), Some(expected));
            }
        }
    }

    #[test]
    fn the_shipped_book_reads_and_knows_the_start() {
        let book = OpeningBook::decode(SHIPPED).expect("the shipped book is damaged");
        let start = Rules::default().start_position();
        let b = board(&start);
        assert!(book.value(b.player, b.opponent).is_some());
        assert!(book.len() > 1000, "{} positions", book.len());
    }
}
