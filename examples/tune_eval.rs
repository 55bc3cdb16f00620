//! Tunes the evaluation weights (`src/search/eval_weights.txt`) from
//! self-play games labelled by exact endgame solves.
//!
//! ```text
//! cargo run --release --example tune_eval -- --games 6000 --out src/search/eval_weights.txt
//! ```
//!
//! How:
//! 1. Games: a random opening of 2–24 plies (so positions vary), then the
//!    level-6 bot plays both sides until `--solve-at` empties remain.
//! 2. Labels: that position is solved exactly and its perfect continuation
//!    played out with the solver. Every position of the game gets the exact
//!    final disc difference of that line (for its side to move); positions
//!    after the solve point lie on the perfect line, so their label is
//!    exact, and earlier ones get the result of good play from there.
//! 3. Fit: for each game phase (ten empties), the scalar weights and the
//!    edge table are fitted to the labels by least squares (Adam on the full
//!    batch, a small L2 penalty on the edge table, whose entries are seen
//!    rarely), then rounded to integers (hundredths of a disc).
//! 4. The torus gets its own scalar weights from torus games the same way.
//!
//! Deterministic: the same arguments produce the same file.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use reversi::bot::Bot;
use reversi::bot_match::random_opening;
use reversi::engine::topology::{Plane, Torus};
use reversi::engine::{Position, Rules, Topology};
use reversi::search::board::Board;
use reversi::search::eval::{
    CORNER_CONFIGS, EDGE_CONFIGS, Features, PHASES, SCALARS, Weights, features,
};
use reversi::search::{Budget, Searcher};

struct Args {
    games: u64,
    torus_games: u64,
    solve_at: u32,
    epochs: u32,
    threads: usize,
    level: u8,
    out: Option<String>,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        games: 4000,
        torus_games: 1500,
        solve_at: 16,
        epochs: 400,
        threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        level: 6,
        out: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        let number = |v: String| v.parse::<u64>().map_err(|e| format!("{flag}: {e}"));
        match flag.as_str() {
            "--games" => args.games = number(value()?)?,
            "--torus-games" => args.torus_games = number(value()?)?,
            "--solve-at" => args.solve_at = number(value()?)? as u32,
            "--epochs" => args.epochs = number(value()?)? as u32,
            "--threads" => args.threads = number(value()?)?.max(1) as usize,
            "--level" => args.level = number(value()?)?.clamp(1, 10) as u8,
            "--out" => args.out = Some(value()?),
            other => return Err(format!("unknown argument {other}")),
        }
    }
    Ok(args)
}

/// A training sample: features and the exact label (hundredths of a disc).
struct Sample {
    features: Features,
    label: f64,
}

fn board_features(board: &Board, topology: Topology) -> Features {
    match topology {
        Topology::Plane => features::<Plane>(board),
        Topology::Torus => features::<Torus>(board),
    }
}

/// One labelled game.
fn game_samples(rules: &Rules, seed: u64, args: &Args, searcher: &mut Searcher) -> Vec<Sample> {
    let topology = rules.options().topology;
    let plies = 2 + (seed % 23) as usize;
    let mut position: Position = rules.start_position();
    for sq in random_opening(rules, seed, plies) {
        position = position.play(sq).expect("opening move is legal");
    }
    let mut bot = Bot::new(args.level, seed);
    // (board, colour to move) along the game.
    let mut trail = Vec::new();
    while let Some(mover) = position.to_move() {
        let Some(board) = Board::from_position(&position) else {
            break;
        };
        trail.push((board, mover));
        // The torus solves more slowly (more moves, hardly any stable discs).
        let solve_at = match topology {
            Topology::Plane => args.solve_at,
            Topology::Torus => args.solve_at.saturating_sub(4),
        };
        let square = if board.empties() > solve_at {
            bot.choose(&position)
        } else {
            searcher
                .solve(&board, topology, &Budget::nodes(0))
                .and_then(|s| s.best)
        };
        let Some(square) = square else { break };
        position = position.play(square).expect("chosen move is legal");
    }
    // The final result, Black's view, empties to the winner.
    let counts = position.counts();
    let raw = i32::from(counts.black) - i32::from(counts.white);
    let black_margin = raw + raw.signum() * position.empty().count() as i32;
    trail
        .into_iter()
        .map(|(board, mover)| {
            let margin = if mover == reversi::engine::Color::Black {
                black_margin
            } else {
                -black_margin
            };
            Sample {
                features: board_features(&board, topology),
                label: f64::from(margin * 100),
            }
        })
        .collect()
}

fn generate(rules: &Rules, games: u64, first_seed: u64, args: &Args) -> Vec<Sample> {
    let next = AtomicU64::new(0);
    let out = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..args.threads {
            scope.spawn(|| {
                let mut searcher = Searcher::new(20);
                loop {
                    let game = next.fetch_add(1, Ordering::Relaxed);
                    if game >= games {
                        break;
                    }
                    let samples = game_samples(rules, first_seed + game, args, &mut searcher);
                    let mut out = out.lock().unwrap_or_else(|e| e.into_inner());
                    // Keep game order so the fit is deterministic.
                    out.push((game, samples));
                    if out.len() % 500 == 0 {
                        eprintln!("  {} games", out.len());
                    }
                }
            });
        }
    });
    let mut games = out.into_inner().unwrap_or_else(|e| e.into_inner());
    games.sort_by_key(|(g, _)| *g);
    games.into_iter().flat_map(|(_, s)| s).collect()
}

/// The pattern parameters a sample touches (offsets after the scalars).
fn pattern_slots(s: &Sample) -> Option<[usize; 8]> {
    let p = s.features.patterns?;
    let e = |i: usize| SCALARS + usize::from(p.edges[i]);
    let c = |i: usize| SCALARS + EDGE_CONFIGS + usize::from(p.corners[i]);
    Some([e(0), e(1), e(2), e(3), c(0), c(1), c(2), c(3)])
}

/// Fits one phase's scalars (and the pattern tables when `with_patterns`)
/// by Adam; returns scalars, edge table, corner table and the rms error.
fn fit_phase(
    samples: &[&Sample],
    with_patterns: bool,
    epochs: u32,
) -> (Vec<f64>, Vec<f64>, Vec<f64>, f64) {
    let n_patterns = if with_patterns {
        EDGE_CONFIGS + CORNER_CONFIGS
    } else {
        0
    };
    let n = SCALARS + n_patterns;
    let mut w = vec![0.0f64; n];
    let (mut m, mut v) = (vec![0.0f64; n], vec![0.0f64; n]);
    let (beta1, beta2, rate, l2): (f64, f64, f64, f64) = (0.9, 0.999, 4.0, 1e-3);
    let count = samples.len().max(1) as f64;
    let mut rmse = 0.0;
    for epoch in 1..=epochs {
        let mut grad = vec![0.0f64; n];
        let mut loss = 0.0;
        for s in samples {
            let mut pred = 0.0;
            for (k, &f) in s.features.scalars.iter().enumerate() {
                pred += w[k] * f64::from(f);
            }
            let slots = if with_patterns {
                pattern_slots(s)
            } else {
                None
            };
            for &k in slots.iter().flatten() {
                pred += w[k];
            }
            let err = pred - s.label;
            loss += err * err;
            for (k, &f) in s.features.scalars.iter().enumerate() {
                grad[k] += 2.0 * err * f64::from(f) / count;
            }
            for &k in slots.iter().flatten() {
                grad[k] += 2.0 * err / count;
            }
        }
        for k in SCALARS..n {
            grad[k] += 2.0 * l2 * w[k];
        }
        // Adam's bias correction.
        let (c1, c2) = (
            1.0 - beta1.powi(epoch as i32),
            1.0 - beta2.powi(epoch as i32),
        );
        for k in 0..n {
            m[k] = beta1 * m[k] + (1.0 - beta1) * grad[k];
            v[k] = beta2 * v[k] + (1.0 - beta2) * grad[k] * grad[k];
            w[k] -= rate * (m[k] / c1) / ((v[k] / c2).sqrt() + 1e-8);
        }
        rmse = (loss / count).sqrt();
    }
    let mut edges = w.split_off(SCALARS);
    let corners = if with_patterns {
        edges.split_off(EDGE_CONFIGS)
    } else {
        Vec::new()
    };
    (w, edges, corners, rmse)
}

fn main() {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("tune_eval: {e}");
            std::process::exit(2);
        }
    };
    let mut weights = Weights::zero();
    let mut report = Vec::new();
    for (topology, games, seed) in [
        (Topology::Plane, args.games, 1u64),
        (Topology::Torus, args.torus_games, 1_000_000u64),
    ] {
        if games == 0 {
            continue;
        }
        let rules = match topology {
            Topology::Plane => Rules::default(),
            Topology::Torus => Rules::preset(reversi::engine::Preset::Torus),
        };
        eprintln!("{topology:?}: playing {games} games");
        let samples = generate(&rules, games, seed, &args);
        eprintln!("{topology:?}: {} positions; fitting", samples.len());
        for phase in 0..PHASES {
            let subset: Vec<&Sample> = samples
                .iter()
                .filter(|s| s.features.phase == phase)
                .collect();
            let with_patterns = topology == Topology::Plane;
            let (scalars, edges, corners, rmse) = fit_phase(&subset, with_patterns, args.epochs);
            let target = match topology {
                Topology::Plane => &mut weights.plane[phase],
                Topology::Torus => &mut weights.torus[phase],
            };
            for (t, w) in target.iter_mut().zip(&scalars) {
                *t = w.round() as i32;
            }
            if with_patterns {
                for (t, w) in weights.edge[phase].iter_mut().zip(&edges) {
                    *t = w.round().clamp(-30_000.0, 30_000.0) as i16;
                }
                for (t, w) in weights.corner[phase].iter_mut().zip(&corners) {
                    *t = w.round().clamp(-30_000.0, 30_000.0) as i16;
                }
            }
            report.push(format!(
                "{topology:?} phase {phase}: {} positions, rms error {:.2} discs",
                subset.len(),
                rmse / 100.0
            ));
            eprintln!("{}", report.last().map_or("", String::as_str));
        }
    }
    let header = format!(
        "Evaluation weights, hundredths of a disc, written by\n\
         cargo run --release --example tune_eval -- --games {} --torus-games {} --solve-at {} --epochs {} --level {}\n\
         (see examples/tune_eval.rs for the method)\n{}",
        args.games,
        args.torus_games,
        args.solve_at,
        args.epochs,
        args.level,
        report.join("\n")
    );
    let text = weights.to_text(&header);
    match &args.out {
        Some(path) => {
            if let Err(e) = std::fs::write(path, text) {
                eprintln!("tune_eval: {path}: {e}");
                std::process::exit(1);
            }
        }
        None => print!("{text}"),
    }
}
