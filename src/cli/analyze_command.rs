//! `reversi analyze LOG|GGF|TRANSCRIPT`: every move's value, the best
//! move's value, the loss and the mistakes (see [`crate::analysis`]).

use std::fmt::Write as _;
use std::path::Path;

use clap::Args;
use serde_json::{Value, json};

use super::CliError;
use super::rule_args::RuleArgs;
use crate::analysis::{GameAnalysis, analyze};
use crate::engine::{Color, Position, Rules, Square, parse_ggf, parse_transcript};
use crate::match_log::audit::audit_log_bytes;
use crate::match_log::log_file::read_bounded;
use crate::search::{Limits, Score, Searcher};

/// Arguments of `reversi analyze`.
#[derive(Debug, Clone, Args)]
pub struct AnalyzeArgs {
    /// The game: a match log file, a GGF file, or a transcript (e.g.
    /// f5d6c3; with the rule flags).
    game: String,
    #[command(flatten)]
    rules: RuleArgs,
    /// Midgame search depth for each move.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=30))]
    depth: u32,
    /// Values are exact from this many empties on (larger takes longer).
    #[arg(long, default_value_t = 18, value_parser = clap::value_parser!(u32).range(0..=26))]
    exact: u32,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    json: bool,
}

/// Where the game came from, for the report.
enum Source {
    Log,
    Ggf,
    Transcript,
}

fn read_game(args: &AnalyzeArgs) -> Result<(Rules, Vec<Square>, Source), CliError> {
    let path = Path::new(&args.game);
    if !path.is_file() {
        let moves = parse_transcript(&args.game)?;
        return Ok((args.rules.rules()?, moves, Source::Transcript));
    }
    if args.rules.rules()? != Rules::default() {
        return Err(CliError::RulesWithFile {
            path: path.to_path_buf(),
        });
    }
    let bytes = read_bounded(path).map_err(CliError::LogFile)?;
    if bytes.trim_ascii_start().starts_with(b"(;") {
        let text = String::from_utf8_lossy(&bytes);
        let game = parse_ggf(&text).map_err(|source| CliError::Ggf {
            path: path.to_path_buf(),
            source,
        })?;
        return Ok((game.rules, game.moves, Source::Ggf));
    }
    let (_, verifier) = audit_log_bytes(&bytes)?;
    let rules = verifier
        .coin_flip()
        .map_or(verifier.proposal().rules, |d| d.rules);
    let moves = verifier.moves().iter().map(|m| m.square).collect();
    Ok((rules, moves, Source::Log))
}

fn score_text(score: Score) -> String {
    match score {
        Score::Exact(v) => format!("{v:+}"),
        Score::Estimate(v) => format!("{:+.1}", f64::from(v) / 100.0),
    }
}

fn score_json(score: Score) -> Value {
    match score {
        Score::Exact(v) => json!({ "discs": v, "exact": true }),
        Score::Estimate(v) => json!({ "discs": f64::from(v) / 100.0, "exact": false }),
    }
}

/// Runs `reversi analyze`, returning what to print.
pub fn run(args: &AnalyzeArgs) -> Result<String, CliError> {
    let (rules, moves, source) = read_game(args)?;
    let limits = Limits {
        exact_empties: args.exact,
        ..Limits::midgame_only(args.depth, crate::search::probcut::SELECTIVITY)
    };
    let start: Position = rules.start_position();
    let mut searcher = Searcher::new(21);
    let analysis = analyze(&mut searcher, &start, &moves, &limits, None, &mut |_, _| {})?;
    Ok(if args.json {
        let mut text = report_json(&analysis, &limits, &source).to_string();
        text.push('\n');
        text
    } else {
        report_text(&analysis, &limits)
    })
}

fn report_text(analysis: &GameAnalysis, limits: &Limits) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Depth {}, exact from {} empties; scores in discs for the mover (exact ones without a decimal).",
        limits.depth, limits.exact_empties
    );
    let _ = writeln!(out, "  #  side   move  score   best  score   loss");
    for m in &analysis.moves {
        let mark = m.mark.map_or("", |k| k.name());
        let line = format!(
            "{:>3}  {:<5}  {:<4}  {:>6}  {:<4}  {:>6}  {:>5.1}  {mark}",
            m.number,
            m.color.name(),
            m.square.to_string(),
            score_text(m.score),
            m.best.to_string(),
            score_text(m.best_score),
            f64::from(m.loss) / 100.0,
        );
        let _ = writeln!(out, "{}", line.trim_end());
    }
    for color in [Color::Black, Color::White] {
        let (loss, marked) = analysis.summary(color);
        let list: Vec<String> = marked
            .iter()
            .map(|m| {
                let kind = m.mark.map_or("", |k| k.name());
                format!("{} {} ({kind})", m.number, m.square)
            })
            .collect();
        let _ = writeln!(
            out,
            "{}: lost {:.1} discs in all; {}",
            color.name(),
            f64::from(loss) / 100.0,
            if list.is_empty() {
                "no mistakes".to_string()
            } else {
                list.join(", ")
            }
        );
    }
    out
}

fn report_json(analysis: &GameAnalysis, limits: &Limits, source: &Source) -> Value {
    let moves: Vec<Value> = analysis
        .moves
        .iter()
        .map(|m| {
            json!({
                "number": m.number,
                "color": m.color.name(),
                "move": m.square.to_string(),
                "score": score_json(m.score),
                "best": m.best.to_string(),
                "best_score": score_json(m.best_score),
                "loss": f64::from(m.loss) / 100.0,
                "mark": m.mark.map(|k| k.name()),
                "choices": m.choices,
                "black_view": score_json(m.black_view()),
            })
        })
        .collect();
    let side = |color| {
        let (loss, marked) = analysis.summary(color);
        json!({
            "loss": f64::from(loss) / 100.0,
            "marked": marked.iter().map(|m| m.number).collect::<Vec<_>>(),
        })
    };
    json!({
        "source": match source { Source::Log => "log", Source::Ggf => "ggf", Source::Transcript => "transcript" },
        "depth": limits.depth,
        "exact_empties": limits.exact_empties,
        "nodes": analysis.nodes,
        "moves": moves,
        "black": side(Color::Black),
        "white": side(Color::White),
    })
}
