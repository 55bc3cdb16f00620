//! Reading the public archives of real games that the evaluation learns
//! from: the French Othello federation's WTHOR files (`.wtb`, tournament
//! games since 1977, each with the theoretical score of its position at 24
//! empties) and Logistello's game book (`.gam`, one game a line).
//!
//! Both are untrusted input. A reader is bounded (a file claims at most
//! [`MAX_ARCHIVE_GAMES`] games, a line at most [`MAX_GAM_LINE`] bytes) and
//! replays every game through the rules engine from the standard start:
//! a game with an unreadable or illegal move is reported with its number,
//! as [`GameError`], and the reader goes on with the next; only a file
//! whose header or size is wrong fails as a whole ([`ArchiveError`]).
//! Decompression (`.gam.gz`) is the caller's: this module reads bytes and
//! text, and knows nothing of files.
//!
//! WTHOR (little-endian): a 16-byte header (creation date in 4 bytes, the
//! number of games as u32 at 4, of records as u16 at 8, the games' year as
//! u16 at 10, the board size at 12 (8, or 0 for 8), the game type at 13,
//! the depth of the theoretical scores at 14, a reserved byte), then 68
//! bytes a game: tournament, Black's and White's player numbers (u16
//! each), Black's discs at the end, the theoretical score (Black's discs
//! with perfect play from the position at `depth` empties), then 60 moves
//! of one byte, `10 × row + column` (rows and columns 1–8: 11 is a1, 88 is
//! h8), 0 after the last. Passes are not written.
//!
//! Logistello's book: `+d3-c3+c4…: -04 10`: each move is its side (`+`
//! Black, `-` White) and a square, passes left out, then `: `, the final
//! disc difference from Black's side, and a count.

use super::color::Color;
use super::position::{PlayError, Position};
use super::setup::Rules;
use super::square::Square;

/// The most games one archive may hold (the whole WTHOR archive is under
/// 200,000; Logistello's book 121,123).
pub const MAX_ARCHIVE_GAMES: usize = 2_000_000;

/// The longest line of a `.gam` book (a game of 60 moves is 188 bytes).
pub const MAX_GAM_LINE: usize = 512;

/// WTHOR's header and game sizes.
const WTHOR_HEADER: usize = 16;
const WTHOR_GAME: usize = 68;

/// Why a whole archive cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ArchiveError {
    /// Shorter than the WTHOR header.
    #[error("not a WTHOR file: {found} bytes, shorter than the {expected}-byte header")]
    Short {
        /// The header's size.
        expected: usize,
        /// The file's size.
        found: usize,
    },
    /// A board size other than 8 (WTHOR also has a 10×10 variant).
    #[error("a WTHOR file of {found}×{found} games; only 8×8 is read")]
    BoardSize {
        /// The size the header gives.
        found: u8,
    },
    /// More games than [`MAX_ARCHIVE_GAMES`].
    #[error("{found} games claimed, more than the {limit} read")]
    TooMany {
        /// The most games read from one archive ([`MAX_ARCHIVE_GAMES`]).
        limit: usize,
        /// The number claimed.
        found: usize,
    },
    /// The size does not hold the games the header counts.
    #[error("the header counts {declared} games ({expected} bytes), the file has {found} bytes")]
    Size {
        /// Games the header counts.
        declared: usize,
        /// The size they need.
        expected: usize,
        /// The file's size.
        found: usize,
    },
}

/// What is wrong with one game of an archive.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameProblem {
    /// A WTHOR move byte that is no square.
    #[error("move {ply}: byte {found} is no square (expected 11–88, row and column 1–8)")]
    NotASquare {
        /// The 1-based move number.
        ply: usize,
        /// The byte found where a move (11–88) was expected.
        found: u8,
    },
    /// A WTHOR move after the end marker.
    #[error("move {ply}: byte {found} after the end of the game (0)")]
    AfterEnd {
        /// The 1-based move number.
        ply: usize,
        /// The non-zero move byte found after the 0 that ends the game.
        found: u8,
    },
    /// A disc count or theoretical score above 64.
    #[error("{what} {found}: expected 0–64 discs")]
    Count {
        /// Which count.
        what: &'static str,
        /// The count as read, above 64.
        found: u8,
    },
    /// A move the rules refuse.
    #[error("move {ply} ({square}): {error}")]
    Illegal {
        /// The 1-based move number.
        ply: usize,
        /// The square the record names.
        square: Square,
        /// Why.
        error: PlayError,
    },
    /// A `.gam` move by the side not to move.
    #[error("move {ply} ({square}): {found} played, but {expected} is to move")]
    WrongSide {
        /// The 1-based move number.
        ply: usize,
        /// The square the record names.
        square: Square,
        /// The side to move.
        expected: Color,
        /// The side written.
        found: Color,
    },
    /// A `.gam` line longer than [`MAX_GAM_LINE`].
    #[error("a line of {found} bytes, more than {limit}")]
    LineTooLong {
        /// The longest line read, in bytes ([`MAX_GAM_LINE`]).
        limit: usize,
        /// The line's length in bytes.
        found: usize,
    },
    /// A `.gam` line that does not follow the format.
    #[error("at byte {at}: expected {expected}, found {found:?}")]
    Syntax {
        /// Where.
        at: usize,
        /// What the format has there.
        expected: &'static str,
        /// What was found.
        found: String,
    },
}

/// A game of an archive that could not be read: its 1-based number in the
/// archive (the line, for a book) and why. Shown as `game N: why`; a
/// caller adds the file's name in front.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("game {game}: {problem}")]
pub struct GameError {
    /// The 1-based number of the game.
    pub game: usize,
    /// What is wrong with it.
    pub problem: GameProblem,
}

/// The theoretical score a WTHOR game carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Theoretical {
    /// Black's discs at the end with perfect play by both sides…
    pub black_discs: u8,
    /// …from the position with this many empty squares.
    pub empties: u8,
}

/// A game read from an archive and replayed: legal from the standard start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArchivedGame {
    /// The moves, passes left out.
    pub moves: Vec<Square>,
    /// The position after the last move.
    pub last: Position,
    /// The final disc difference (Black − White) the archive records:
    /// WTHOR's Black count made a difference, or the book's score. As the
    /// players recorded it (a game may have been adjudicated or resigned).
    pub recorded_difference: i8,
    /// The theoretical score (WTHOR tournament files only).
    pub theoretical: Option<Theoretical>,
}

impl ArchivedGame {
    /// The positions of the game in order, from the start to the last.
    pub fn positions(&self) -> impl Iterator<Item = Position> + '_ {
        let start = Rules::default().start_position();
        std::iter::once(start).chain(self.moves.iter().scan(start, |position, &square| {
            // Every move was legal when the game was read.
            *position = position.play(square).ok()?;
            Some(*position)
        }))
    }

    /// The position with `empties` empty squares, if the game reached it.
    pub fn at_empties(&self, empties: u32) -> Option<Position> {
        self.positions().find(|p| p.empty().count() == empties)
    }

    /// The position the theoretical score was computed from and that score
    /// as the side to move's disc difference under perfect play (empties to
    /// the winner): an exact label. `None` without a theoretical score, or
    /// when the game never reached its depth with a side to move.
    pub fn theoretical_label(&self) -> Option<(Position, i32)> {
        let theoretical = self.theoretical?;
        let position = self.at_empties(u32::from(theoretical.empties))?;
        let black = 2 * i32::from(theoretical.black_discs) - 64;
        let label = match position.to_move()? {
            Color::Black => black,
            Color::White => -black,
        };
        Some((position, label))
    }
}

/// A WTHOR file's header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WthorHeader {
    /// Games in the file.
    pub games: usize,
    /// The year of the games.
    pub year: u16,
    /// The empties of the theoretical scores' positions (0: none).
    pub depth: u8,
}

/// A WTHOR file, checked as a whole; its games are read one by one.
#[derive(Debug, Clone)]
pub struct Wthor<'a> {
    header: WthorHeader,
    games: &'a [u8],
}

/// Reads a WTHOR file's header and checks its size.
pub fn read_wthor(bytes: &[u8]) -> Result<Wthor<'_>, ArchiveError> {
    if bytes.len() < WTHOR_HEADER {
        return Err(ArchiveError::Short {
            expected: WTHOR_HEADER,
            found: bytes.len(),
        });
    }
    let u16_at = |at: usize| u16::from_le_bytes([bytes[at], bytes[at + 1]]);
    let games = u32::from_le_bytes([bytes[4], bytes[5], bytes[6], bytes[7]]) as usize;
    let size = match bytes[12] {
        0 => 8,
        n => n,
    };
    if size != 8 {
        return Err(ArchiveError::BoardSize { found: size });
    }
    if games > MAX_ARCHIVE_GAMES {
        return Err(ArchiveError::TooMany {
            limit: MAX_ARCHIVE_GAMES,
            found: games,
        });
    }
    let expected = WTHOR_HEADER + games * WTHOR_GAME;
    if bytes.len() != expected {
        return Err(ArchiveError::Size {
            declared: games,
            expected,
            found: bytes.len(),
        });
    }
    Ok(Wthor {
        header: WthorHeader {
            games,
            year: u16_at(10),
            depth: bytes[14],
        },
        games: &bytes[WTHOR_HEADER..],
    })
}

impl Wthor<'_> {
    /// What the 16-byte header gives: game count, year and the theoretical scores' depth.
    pub fn header(&self) -> WthorHeader {
        self.header
    }

    /// Every game in order, each replayed or the reason it cannot be.
    pub fn games(&self) -> impl Iterator<Item = Result<ArchivedGame, GameError>> + '_ {
        self.games
            .chunks_exact(WTHOR_GAME)
            .enumerate()
            .map(|(i, record)| {
                wthor_game(record, self.header.depth).map_err(|problem| GameError {
                    game: i + 1,
                    problem,
                })
            })
    }
}

fn wthor_game(record: &[u8], depth: u8) -> Result<ArchivedGame, GameProblem> {
    let (black, theoretical) = (record[6], record[7]);
    for (what, found) in [
        ("Black's discs", black),
        ("the theoretical score", theoretical),
    ] {
        if found > 64 {
            return Err(GameProblem::Count { what, found });
        }
    }
    let mut squares = Vec::with_capacity(60);
    let mut ended = false;
    for (i, &byte) in record[8..].iter().enumerate() {
        let ply = i + 1;
        if byte == 0 {
            ended = true;
            continue;
        }
        if ended {
            return Err(GameProblem::AfterEnd { ply, found: byte });
        }
        let (row, column) = (byte / 10, byte % 10);
        let square = (1..=8)
            .contains(&row)
            .then_some(())
            .filter(|()| (1..=8).contains(&column))
            .and_then(|()| Square::from_coords(column - 1, row - 1))
            .ok_or(GameProblem::NotASquare { ply, found: byte })?;
        squares.push(square);
    }
    let last = replay(&squares, |_, _| Ok(()))?;
    Ok(ArchivedGame {
        moves: squares,
        last,
        recorded_difference: (2 * i16::from(black) - 64).clamp(-64, 64) as i8,
        theoretical: (depth > 0).then_some(Theoretical {
            black_discs: theoretical,
            empties: depth,
        }),
    })
}

/// Plays `moves` from the standard start, asking `check` about each move
/// before it is played (with the side to move).
fn replay(
    moves: &[Square],
    mut check: impl FnMut(usize, Color) -> Result<(), GameProblem>,
) -> Result<Position, GameProblem> {
    let mut position = Rules::default().start_position();
    for (i, &square) in moves.iter().enumerate() {
        let ply = i + 1;
        if let Some(to_move) = position.to_move() {
            check(ply, to_move)?;
        }
        position = position
            .play(square)
            .map_err(|error| GameProblem::Illegal { ply, square, error })?;
    }
    Ok(position)
}

/// Reads one line of Logistello's book.
pub fn read_gam_line(line: &str) -> Result<ArchivedGame, GameProblem> {
    if line.len() > MAX_GAM_LINE {
        return Err(GameProblem::LineTooLong {
            limit: MAX_GAM_LINE,
            found: line.len(),
        });
    }
    let syntax = |at: usize, expected: &'static str| GameProblem::Syntax {
        at,
        expected,
        found: line.get(at..).unwrap_or("").chars().take(12).collect(),
    };
    let (moves_text, score_text) = line
        .split_once(':')
        .ok_or_else(|| syntax(line.len(), "`:` and the score"))?;
    let bytes = moves_text.as_bytes();
    if bytes.len() % 3 != 0 || bytes.len() > 60 * 3 {
        return Err(syntax(
            bytes.len() - bytes.len() % 3,
            "moves of 3 characters (+d3)",
        ));
    }
    let mut moves = Vec::with_capacity(bytes.len() / 3);
    let mut sides = Vec::with_capacity(bytes.len() / 3);
    for (i, chunk) in bytes.chunks_exact(3).enumerate() {
        let at = 3 * i;
        let side = match chunk[0] {
            b'+' => Color::Black,
            b'-' => Color::White,
            _ => return Err(syntax(at, "`+` or `-`")),
        };
        let square = std::str::from_utf8(&chunk[1..])
            .ok()
            .and_then(|name| name.parse::<Square>().ok())
            .ok_or_else(|| syntax(at + 1, "a square (a1–h8)"))?;
        moves.push(square);
        sides.push(side);
    }
    let last = replay(&moves, |ply, to_move| {
        let found = sides[ply - 1];
        if found == to_move {
            Ok(())
        } else {
            Err(GameProblem::WrongSide {
                ply,
                square: moves[ply - 1],
                expected: to_move,
                found,
            })
        }
    })?;
    let at = moves_text.len() + 1;
    let difference = score_text
        .split_whitespace()
        .next()
        .and_then(|score| score.parse::<i8>().ok())
        .filter(|d| (-64..=64).contains(d))
        .ok_or_else(|| syntax(at, "the disc difference (-64 to +64)"))?;
    Ok(ArchivedGame {
        moves,
        last,
        recorded_difference: difference,
        theoretical: None,
    })
}

/// Reads a whole book, one game a line (empty lines are skipped but
/// counted, so a game's number is its line).
pub fn read_gam(text: &str) -> impl Iterator<Item = Result<ArchivedGame, GameError>> + '_ {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .take(MAX_ARCHIVE_GAMES)
        .map(|(i, line)| {
            read_gam_line(line.trim_end()).map_err(|problem| GameError {
                game: i + 1,
                problem,
            })
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A WTHOR file of these games: (black discs, theoretical, moves).
    fn wthor(depth: u8, games: &[(u8, u8, &[u8])]) -> Vec<u8> {
        let mut bytes = vec![20, 26, 12, 5];
        bytes.extend((games.len() as u32).to_le_bytes());
        bytes.extend(0u16.to_le_bytes());
        bytes.extend(2026u16.to_le_bytes());
        bytes.extend([8, 0, depth, 0]);
        for (black, theoretical, moves) in games {
            bytes.extend([1, 0, 2, 0, 3, 0, *black, *theoretical]);
            let mut all = moves.to_vec();
            all.resize(60, 0);
            bytes.extend(all);
        }
        bytes
    }

    #[test]
    fn a_wthor_game_is_replayed_and_a_bad_one_is_named_and_skipped() {
        // f5 d6 c3 d3 c4: a legal opening; then a game whose 2nd move is illegal.
        let bytes = wthor(
            24,
            &[
                (33, 32, &[56, 64, 33, 34, 43]),
                (40, 30, &[56, 11]),
                (40, 30, &[56, 0, 64]),
                (40, 30, &[56, 99]),
            ],
        );
        let file = read_wthor(&bytes).unwrap();
        assert_eq!(file.header().games, 4);
        assert_eq!(file.header().year, 2026);
        let games: Vec<_> = file.games().collect();
        let first = games[0].as_ref().unwrap();
        let names: Vec<String> = first.moves.iter().map(|s| s.to_string()).collect();
        assert_eq!(names, ["f5", "d6", "c3", "d3", "c4"]);
        assert_eq!(first.recorded_difference, 2);
        assert_eq!(
            first.theoretical,
            Some(Theoretical {
                black_discs: 32,
                empties: 24
            })
        );
        assert_eq!(first.positions().count(), 6);
        assert_eq!(first.at_empties(57).map(|p| p.empty().count()), Some(57));
        assert!(
            games[1]
                .as_ref()
                .unwrap_err()
                .to_string()
                .starts_with("game 2: move 2 (a1): "),
            "{:?}",
            games[1]
        );
        assert!(matches!(
            games[1],
            Err(GameError {
                game: 2,
                problem: GameProblem::Illegal { ply: 2, .. }
            })
        ));
        assert!(matches!(
            games[2],
            Err(GameError {
                game: 3,
                problem: GameProblem::AfterEnd { ply: 3, found: 64 }
            })
        ));
        assert!(matches!(
            games[3],
            Err(GameError {
                game: 4,
                problem: GameProblem::NotASquare { ply: 2, found: 99 }
            })
        ));
    }

    #[test]
    fn the_theoretical_score_becomes_the_side_to_moves_difference_at_its_depth() {
        // f5 d6 c3: 57 empties with White to move, 58 with Black to move.
        let moves: &[u8] = &[56, 64, 33];
        for (depth, label) in [(57, -16), (58, 16)] {
            let bytes = wthor(depth, &[(40, 40, moves)]);
            let game = read_wthor(&bytes).unwrap().games().next().unwrap().unwrap();
            let (position, found) = game.theoretical_label().unwrap();
            assert_eq!(position.empty().count(), u32::from(depth));
            assert_eq!(found, label, "at {depth} empties");
        }
        // A game that stopped before its depth has no label.
        let bytes = wthor(24, &[(40, 40, moves)]);
        let game = read_wthor(&bytes).unwrap().games().next().unwrap().unwrap();
        assert_eq!(game.theoretical_label(), None);
    }

    #[test]
    fn a_wthor_file_that_lies_about_its_size_is_refused_whole() {
        let mut bytes = wthor(24, &[(33, 32, &[56])]);
        bytes.pop();
        assert!(matches!(
            read_wthor(&bytes),
            Err(ArchiveError::Size { declared: 1, .. })
        ));
        assert!(matches!(
            read_wthor(&bytes[..10]),
            Err(ArchiveError::Short { .. })
        ));
        let mut big = wthor(24, &[]);
        big[4..8].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(matches!(
            read_wthor(&big),
            Err(ArchiveError::TooMany { .. })
        ));
        let mut ten = wthor(24, &[]);
        ten[12] = 10;
        assert_eq!(
            read_wthor(&ten).unwrap_err(),
            ArchiveError::BoardSize { found: 10 }
        );
    }

    #[test]
    fn a_book_line_with_a_pass_is_read_and_sides_are_checked() {
        let game = read_gam_line("+f5-d6+c3-d3+c4: +02 10").unwrap();
        assert_eq!(game.moves.len(), 5);
        assert_eq!(game.recorded_difference, 2);
        assert_eq!(
            read_gam_line("+f5+d6: +00 1").unwrap_err(),
            GameProblem::WrongSide {
                ply: 2,
                square: "d6".parse().unwrap(),
                expected: Color::White,
                found: Color::Black
            }
        );
        for bad in [
            "+f5-d6",
            "+f5*d6: +0 1",
            "+f5-z9: +0 1",
            "+f5-d6: x 1",
            "+f5-d6: +99 1",
        ] {
            assert!(
                matches!(read_gam_line(bad), Err(GameProblem::Syntax { .. })),
                "{bad}"
            );
        }
        let long = "+f5".repeat(200);
        assert!(matches!(
            read_gam_line(&long),
            Err(GameProblem::LineTooLong { .. })
        ));
        let book: Vec<_> = read_gam("+f5-d6: +0 1\n\n+f5-f5: +0 1\n").collect();
        assert!(book[0].is_ok());
        assert_eq!(book[1].as_ref().unwrap_err().game, 3, "lines are counted");
    }

    /// A game of random legal moves (`picks` choose among the legal ones),
    /// to the end or as far as the picks go.
    fn random_game(picks: &[u8]) -> (Vec<Square>, Position) {
        let mut position = Rules::default().start_position();
        let mut moves = Vec::new();
        for &pick in picks {
            let legal: Vec<Square> = position.legal_moves().squares().collect();
            if legal.is_empty() {
                break;
            }
            let square = legal[usize::from(pick) % legal.len()];
            position = position.play(square).unwrap();
            moves.push(square);
        }
        (moves, position)
    }

    proptest::proptest! {
        #[test]
        fn a_legal_game_is_read_back_from_both_formats(picks in proptest::collection::vec(0u8.., 0..70)) {
            let (moves, last) = random_game(&picks);
            let bytes: Vec<u8> = moves
                .iter()
                .map(|s| 10 * (s.row() + 1) + s.column() + 1)
                .collect();
            let file = wthor(24, &[(32, 32, &bytes)]);
            let read = read_wthor(&file).unwrap().games().next().unwrap().unwrap();
            proptest::prop_assert_eq!(&read.moves, &moves);
            proptest::prop_assert_eq!(read.last, last);
            let mut position = Rules::default().start_position();
            let mut line = String::new();
            for &square in &moves {
                let sign = if position.to_move() == Some(Color::Black) { '+' } else { '-' };
                line.push_str(&format!("{sign}{square}"));
                position = position.play(square).unwrap();
            }
            line.push_str(": +00 1");
            let read = read_gam_line(&line).unwrap();
            proptest::prop_assert_eq!(&read.moves, &moves);
            proptest::prop_assert_eq!(read.positions().last(), Some(last));
        }

        #[test]
        fn any_bytes_are_read_or_refused_without_panicking(bytes in proptest::collection::vec(0u8.., 0..400)) {
            if let Ok(archive) = read_wthor(&bytes) {
                for game in archive.games().flatten() {
                    proptest::prop_assert_eq!(game.positions().count(), game.moves.len() + 1);
                }
            }
            let mut file = wthor(24, &[]);
            file[4] = (bytes.len() / WTHOR_GAME) as u8;
            file.extend(&bytes[..bytes.len() / WTHOR_GAME * WTHOR_GAME]);
            for game in read_wthor(&file).unwrap().games().flatten() {
                proptest::prop_assert_eq!(game.positions().count(), game.moves.len() + 1);
            }
            let text = String::from_utf8_lossy(&bytes);
            for game in read_gam(&text).flatten() {
                proptest::prop_assert_eq!(game.positions().count(), game.moves.len() + 1);
            }
        }
    }
}
