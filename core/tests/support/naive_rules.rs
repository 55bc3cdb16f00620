//! A deliberately simple second implementation of the rules, walking squares
//! by coordinates, to check the bitboard engine against. Slow and obvious.

#![allow(dead_code)]

use reversi_core::engine::{Color, Discs, Opening, Position, RuleOptions, Square, Topology};

/// A cell of the naive board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cell {
    Empty,
    Wall,
    Disc(Color),
}

/// The naive game state.
#[derive(Debug, Clone)]
pub struct NaiveGame {
    pub cells: [Cell; 64],
    pub to_move: Option<Color>,
    /// `None` when unlimited.
    pub supply: [Option<u32>; 2],
    pub placements: u32,
    pub options: RuleOptions,
}

const CENTRE: [usize; 4] = [27, 28, 35, 36];

impl NaiveGame {
    /// Copies an engine position.
    pub fn from_position(position: &Position) -> NaiveGame {
        let mut cells = [Cell::Empty; 64];
        for sq in Square::all() {
            let i = sq.index() as usize;
            if position.walls().contains(sq) {
                cells[i] = Cell::Wall;
            } else if position.discs(Color::Black).contains(sq) {
                cells[i] = Cell::Disc(Color::Black);
            } else if position.discs(Color::White).contains(sq) {
                cells[i] = Cell::Disc(Color::White);
            }
        }
        NaiveGame {
            cells,
            to_move: position.to_move(),
            supply: [
                position.supply(Color::Black).map(u32::from),
                position.supply(Color::White).map(u32::from),
            ],
            placements: 4 - u32::from(position.opening_placements_left()),
            options: position.options(),
        }
    }

    /// Discs `mover` would flip at `index`, walking each direction.
    pub fn flips(&self, mover: Color, index: usize) -> Vec<usize> {
        let mut all = Vec::new();
        for (dc, dr) in [
            (1, 0),
            (-1, 0),
            (0, 1),
            (0, -1),
            (1, 1),
            (-1, -1),
            (1, -1),
            (-1, 1),
        ] {
            let (mut c, mut r) = ((index % 8) as i32, (index / 8) as i32);
            let mut line = Vec::new();
            for _ in 0..7 {
                c += dc;
                r += dr;
                if self.options.topology == Topology::Torus {
                    c = c.rem_euclid(8);
                    r = r.rem_euclid(8);
                } else if !(0..8).contains(&c) || !(0..8).contains(&r) {
                    break;
                }
                let i = (r * 8 + c) as usize;
                match self.cells[i] {
                    Cell::Disc(color) if color == !mover => line.push(i),
                    Cell::Disc(_) => {
                        all.extend(line.iter().copied());
                        break;
                    }
                    _ => break,
                }
            }
        }
        all.sort_unstable();
        // On the torus a disc can lie on two flanked lines (one each way round a circle).
        all.dedup();
        all
    }

    fn has_supply(&self, color: Color) -> bool {
        self.supply[color.index()] != Some(0)
    }

    /// Legal squares for `color`, sorted.
    pub fn moves_for(&self, color: Color) -> Vec<usize> {
        if !self.has_supply(color) {
            return vec![];
        }
        if self.placements < 4 {
            return CENTRE
                .iter()
                .copied()
                .filter(|&i| self.cells[i] == Cell::Empty)
                .collect();
        }
        (0..64)
            .filter(|&i| self.cells[i] == Cell::Empty && !self.flips(color, i).is_empty())
            .collect()
    }

    /// Legal squares for the side to move.
    pub fn moves(&self) -> Vec<usize> {
        self.to_move.map_or(vec![], |c| self.moves_for(c))
    }

    fn put(&mut self, color: Color, index: usize) {
        self.cells[index] = Cell::Disc(color);
        if let Some(n) = &mut self.supply[color.index()] {
            *n -= 1;
        }
    }

    fn hand_over(&mut self, mover: Color) -> bool {
        if !self.moves_for(!mover).is_empty() {
            self.to_move = Some(!mover);
            false
        } else if !self.moves_for(mover).is_empty() {
            self.to_move = Some(mover);
            true
        } else {
            self.to_move = None;
            false
        }
    }

    /// Plays a legal move; returns whether the next player was skipped.
    pub fn play(&mut self, index: usize) -> bool {
        let mover = self.to_move.expect("game not over");
        assert!(self.moves().contains(&index), "naive: illegal move {index}");
        if self.placements < 4 {
            self.put(mover, index);
            self.placements += 1;
            if self.options.opening == Opening::Double {
                if self.placements == 1 {
                    return false;
                }
                for i in CENTRE {
                    if self.cells[i] == Cell::Empty {
                        self.put(!mover, i);
                    }
                }
                self.placements = 4;
                return self.hand_over(!mover);
            }
            return self.hand_over(mover);
        }
        for i in self.flips(mover, index) {
            self.cells[i] = Cell::Disc(mover);
        }
        self.put(mover, index);
        self.hand_over(mover)
    }

    /// Perft with the same conventions as the engine.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 || self.to_move.is_none() {
            return 1;
        }
        let mut total = 0;
        for m in self.moves() {
            let mut child = self.clone();
            let skipped = child.play(m);
            total += if !skipped {
                child.perft(depth - 1)
            } else if depth == 1 {
                1
            } else {
                child.perft(depth - 2)
            };
        }
        total
    }

    /// Whether the options limit discs.
    pub fn limited(&self) -> bool {
        matches!(self.options.discs, Discs::PerPlayer(_))
    }
}
