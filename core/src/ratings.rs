//! Glicko-2 ratings that anyone can recompute from signed logs.
//!
//! Only verified, finished logs count, each game once however many copies
//! are given. A rating period is one day of play (UTC, by the timestamp of
//! the record that ended the game): on each day with at least one game,
//! every player who played is rated on that day's games against the
//! ratings everyone had before it (Glickman's algorithm, τ = 0.5), and
//! every player known from earlier days who did not play grows less
//! certain. New players start at 1500, deviation 350, volatility 0.06.
//! Players are their keys; names come from the latest game they played.
//!
//! The computation has no clock and no randomness: the same logs give the
//! same table, bit for bit, in any order.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Value, json};
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2_rating_period};

use crate::match_log::identity::PublicKey;
use crate::match_log::record::{Digest, Record, Seat, hex};
use crate::match_log::verify::MatchVerifier;

const MS_PER_DAY: u64 = 24 * 60 * 60 * 1000;

/// Why a log does not count.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unrated {
    /// The game has not ended.
    #[error("unfinished: the game has not ended ({records} records)")]
    Unfinished {
        /// Records in the log.
        records: usize,
    },
    /// A copy of a game already counted.
    #[error("a copy of game {game_id}, which is counted once")]
    Duplicate {
        /// The game id (hex).
        game_id: String,
    },
    /// Two different finished logs of one game: someone signed two
    /// endings, so neither is counted.
    #[error("two different finished logs of game {game_id}: neither is counted")]
    Conflict {
        /// The game id (hex).
        game_id: String,
    },
}

/// A finished game as the ratings see it.
#[derive(Debug, Clone, PartialEq)]
pub struct RatedGame {
    /// The game id: the hash of the log's genesis record.
    pub game_id: Digest,
    /// Hash of the record that ended it (tells copies from forks).
    pub last: Digest,
    /// The rating period: days since the Unix epoch (UTC) of the last record.
    pub day: u64,
    /// The host's key and name.
    pub host: (PublicKey, String),
    /// The guest's key and name.
    pub guest: (PublicKey, String),
    /// The host's score: 1 a win, ½ a draw, 0 a loss.
    pub host_score: f64,
}

impl RatedGame {
    /// The game a verified log records, if it is finished.
    pub fn of(records: &[Record], verifier: &MatchVerifier) -> Result<RatedGame, Unrated> {
        let unfinished = Unrated::Unfinished {
            records: records.len(),
        };
        let end = verifier.end().ok_or(unfinished.clone())?;
        let last = records.get(end.record).ok_or(unfinished.clone())?;
        let player = |seat| {
            verifier
                .player(seat)
                .map(|p| (p.key, p.name.clone()))
                .ok_or(unfinished.clone())
        };
        let winner = end.outcome.winner.and_then(|c| verifier.seat_of(c));
        Ok(RatedGame {
            game_id: verifier.game_id(),
            last: last.hash(),
            day: last.content().timestamp_ms / MS_PER_DAY,
            host: player(Seat::Host)?,
            guest: player(Seat::Guest)?,
            host_score: match winner {
                Some(Seat::Host) => 1.0,
                Some(Seat::Guest) => 0.0,
                None => 0.5,
            },
        })
    }
}

/// One player's line in the table.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayerRating {
    /// The player's key.
    pub key: PublicKey,
    /// The name in their latest game.
    pub name: String,
    /// Glicko-2 rating (on the familiar 1500 scale).
    pub rating: f64,
    /// Rating deviation: about 95 % of the time the true strength is
    /// within two deviations of the rating.
    pub deviation: f64,
    /// Volatility: how erratic the player's results are.
    pub volatility: f64,
    /// Games counted.
    pub games: u32,
    /// Of which won.
    pub wins: u32,
    /// Drawn.
    pub draws: u32,
    /// Lost.
    pub losses: u32,
}

/// The games to rate, each once.
#[derive(Debug, Clone, Default)]
pub struct Ledger {
    games: BTreeMap<Digest, RatedGame>,
    conflicts: BTreeSet<Digest>,
}

impl Ledger {
    /// An empty ledger.
    pub fn new() -> Ledger {
        Ledger::default()
    }

    /// Adds the game of a verified log. A second copy of a game is refused
    /// as a duplicate; a different ending for a game already given removes
    /// the game (a conflict) whichever came first.
    pub fn add(&mut self, records: &[Record], verifier: &MatchVerifier) -> Result<(), Unrated> {
        self.add_game(RatedGame::of(records, verifier)?)
    }

    /// Adds a finished game (as [`Ledger::add`] does with a log's).
    pub fn add_game(&mut self, game: RatedGame) -> Result<(), Unrated> {
        let game_id = hex(&game.game_id);
        if self.conflicts.contains(&game.game_id) {
            return Err(Unrated::Conflict { game_id });
        }
        match self.games.get(&game.game_id) {
            Some(known) if known.last == game.last => Err(Unrated::Duplicate { game_id }),
            Some(_) => {
                self.games.remove(&game.game_id);
                self.conflicts.insert(game.game_id);
                Err(Unrated::Conflict { game_id })
            }
            None => {
                self.games.insert(game.game_id, game);
                Ok(())
            }
        }
    }

    /// Games removed because two different endings were given.
    pub fn conflicts(&self) -> impl Iterator<Item = &Digest> {
        self.conflicts.iter()
    }

    /// The games counted, by game id.
    pub fn games(&self) -> impl Iterator<Item = &RatedGame> {
        self.games.values()
    }

    /// The ratings, best first (ties by key).
    pub fn ratings(&self) -> Vec<PlayerRating> {
        rate(self.games.values())
    }
}

#[derive(Debug, Clone)]
struct Standing {
    rating: Glicko2Rating,
    name: String,
    named_on: (u64, Digest),
    wins: u32,
    draws: u32,
    losses: u32,
}

/// Rates games period by period (see the module's description).
fn rate<'a>(games: impl Iterator<Item = &'a RatedGame>) -> Vec<PlayerRating> {
    let config = Glicko2Config::new();
    let mut by_day: BTreeMap<u64, Vec<&RatedGame>> = BTreeMap::new();
    for game in games {
        by_day.entry(game.day).or_default().push(game);
    }
    let mut standings: BTreeMap<[u8; 32], Standing> = BTreeMap::new();
    for (day, games) in by_day {
        for game in &games {
            for (key, name) in [&game.host, &game.guest] {
                let standing = standings.entry(key.to_bytes()).or_insert_with(|| Standing {
                    rating: Glicko2Rating::new(),
                    name: name.clone(),
                    named_on: (day, game.game_id),
                    wins: 0,
                    draws: 0,
                    losses: 0,
                });
                if (day, game.game_id) >= standing.named_on {
                    standing.name = name.clone();
                    standing.named_on = (day, game.game_id);
                }
            }
        }
        // Everyone's results this period, against the ratings before it
        // (games in game-id order, so the sums never depend on input order).
        let mut results: BTreeMap<[u8; 32], Vec<(Glicko2Rating, Outcomes)>> = BTreeMap::new();
        for game in &games {
            let host = game.host.0.to_bytes();
            let guest = game.guest.0.to_bytes();
            let (host_outcome, guest_outcome) = match game.host_score {
                s if s > 0.75 => (Outcomes::WIN, Outcomes::LOSS),
                s if s < 0.25 => (Outcomes::LOSS, Outcomes::WIN),
                _ => (Outcomes::DRAW, Outcomes::DRAW),
            };
            let before = |key: &[u8; 32]| standings[key].rating;
            results
                .entry(host)
                .or_default()
                .push((before(&guest), host_outcome));
            results
                .entry(guest)
                .or_default()
                .push((before(&host), guest_outcome));
        }
        let next: Vec<([u8; 32], Glicko2Rating)> = standings
            .iter()
            .map(|(key, standing)| {
                let played = results.get(key).map_or(&[][..], Vec::as_slice);
                (
                    *key,
                    glicko2_rating_period(&standing.rating, played, &config),
                )
            })
            .collect();
        for (key, rating) in next {
            let standing = standings.get_mut(&key).expect("rated above");
            standing.rating = rating;
            for (_, outcome) in results.get(&key).map_or(&[][..], Vec::as_slice) {
                match outcome {
                    Outcomes::WIN => standing.wins += 1,
                    Outcomes::DRAW => standing.draws += 1,
                    Outcomes::LOSS => standing.losses += 1,
                }
            }
        }
    }
    let mut table: Vec<PlayerRating> = standings
        .into_iter()
        .filter_map(|(key, s)| {
            Some(PlayerRating {
                key: PublicKey::from_bytes(&key)?,
                name: s.name,
                rating: s.rating.rating,
                deviation: s.rating.deviation,
                volatility: s.rating.volatility,
                games: s.wins + s.draws + s.losses,
                wins: s.wins,
                draws: s.draws,
                losses: s.losses,
            })
        })
        .collect();
    table.sort_by(|a, b| {
        b.rating
            .total_cmp(&a.rating)
            .then_with(|| a.key.to_bytes().cmp(&b.key.to_bytes()))
    });
    table
}

/// The table as JSON, exactly as `reversi ratings --json` and the
/// signaling server's leaderboard give it.
pub fn table_json(table: &[PlayerRating], games: usize) -> Value {
    let players: Vec<Value> = table
        .iter()
        .enumerate()
        .map(|(i, p)| {
            json!({
                "rank": i + 1,
                "name": p.name,
                "key": hex(&p.key.to_bytes()),
                "fingerprint": p.key.fingerprint().to_string(),
                "rating": p.rating,
                "deviation": p.deviation,
                "volatility": p.volatility,
                "games": p.games,
                "wins": p.wins,
                "draws": p.draws,
                "losses": p.losses,
            })
        })
        .collect();
    json!({
        "system": "Glicko-2, tau 0.5, one rating period per UTC day of play; start 1500 / 350 / 0.06",
        "games": games,
        "players": players,
    })
}

/// The table as text: one line a player, best first.
pub fn table_text(table: &[PlayerRating]) -> String {
    let mut out = format!(
        "{:>4}  {:<24} {:<19} {:>7} {:>6} {:>8}  {:>5}  {:>11}\n",
        "rank", "name", "key", "rating", "RD", "vol", "games", "won-drawn-lost"
    );
    for (i, p) in table.iter().enumerate() {
        out.push_str(&format!(
            "{:>4}  {:<24} {:<19} {:>7.1} {:>6.1} {:>8.5}  {:>5}  {}-{}-{}\n",
            i + 1,
            p.name,
            p.key.fingerprint().to_string(),
            p.rating,
            p.deviation,
            p.volatility,
            p.games,
            p.wins,
            p.draws,
            p.losses
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glickmans_worked_example_comes_out_as_in_the_paper() {
        // Glickman, "Example of the Glicko-2 system" (2013): a 1500/200
        // player beats a 1400/30 player and loses to 1550/100 and 1700/300.
        let player = Glicko2Rating {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let opponent = |rating, deviation| Glicko2Rating {
            rating,
            deviation,
            volatility: 0.06,
        };
        let results = [
            (opponent(1400.0, 30.0), Outcomes::WIN),
            (opponent(1550.0, 100.0), Outcomes::LOSS),
            (opponent(1700.0, 300.0), Outcomes::LOSS),
        ];
        let after = glicko2_rating_period(&player, &results, &Glicko2Config::new());
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
    }
}
