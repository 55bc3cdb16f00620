//! `reversi selfplay`: two local players, each with its own key, play a
//! complete game and write the signed log a networked game would write.

use std::path::PathBuf;

use clap::Args;

use super::CliError;
use super::rule_args::RuleArgs;
use crate::bot::Bot;
use crate::data_dir::DataDir;
use crate::engine::Color;
use crate::match_log::Identity;
use crate::match_log::builder::{MatchBuilder, MatchTerms, Players};
use crate::match_log::log_file::write_log;
use crate::match_log::rules_proposal::RulesProposal;
use crate::match_log::verify::Phase;
use crate::platform::now_ms;
use crate::random_player::{RandomPlayer, SplitMix64};

/// Who chooses a side's moves: `random`, or a bot level 1–10.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mover {
    /// The seeded random player.
    #[default]
    Random,
    /// The bot at this level.
    Bot(u8),
}

impl std::str::FromStr for Mover {
    type Err = String;

    fn from_str(text: &str) -> Result<Mover, String> {
        if text.eq_ignore_ascii_case("random") {
            return Ok(Mover::Random);
        }
        text.parse::<u8>()
            .ok()
            .filter(|l| crate::bot::LEVELS.contains(l))
            .map(Mover::Bot)
            .ok_or_else(|| format!("{text:?}: expected `random` or a bot level from 1 to 10"))
    }
}

/// A mover ready to play.
enum Player {
    Random(RandomPlayer),
    Bot(Box<Bot>),
}

impl Player {
    fn new(mover: Mover, seed: u64) -> Player {
        match mover {
            Mover::Random => Player::Random(RandomPlayer::new(seed)),
            Mover::Bot(level) => Player::Bot(Box::new(Bot::new(level, seed))),
        }
    }

    fn choose(&mut self, position: &crate::engine::Position) -> Option<crate::engine::Square> {
        match self {
            Player::Random(p) => p.choose(position),
            Player::Bot(b) => b.choose(position),
        }
    }
}

/// Arguments of `reversi selfplay`.
#[derive(Debug, Clone, Args)]
pub struct SelfplayArgs {
    #[command(flatten)]
    rules: RuleArgs,
    /// The Japanese draw rule (instead of --draw): the player the game seed
    /// names chooses which colour wins an equal count (here at random from
    /// --seed), then the other takes that colour.
    #[arg(long)]
    draw_by_lot: bool,
    /// Who plays Black: `random` or a bot level 1–10.
    #[arg(long, default_value = "random", value_name = "random|LEVEL")]
    black: Mover,
    /// Who plays White: `random` or a bot level 1–10.
    #[arg(long, default_value = "random", value_name = "random|LEVEL")]
    white: Mover,
    /// Seed for the players and the coin flip (default: random).
    #[arg(long)]
    seed: Option<u64>,
    /// Per-move deadline, 5m to 7d (e.g. 10m, 1h, 2days).
    #[arg(long, default_value = "1day", value_parser = crate::match_log::verify::parse_deadline)]
    deadline: u32,
    /// The host's name (the host's key is yours, from the data directory).
    #[arg(long, default_value = "Host")]
    host_name: String,
    /// The guest's name (the guest gets a fresh key).
    #[arg(long, default_value = "Guest")]
    guest_name: String,
    /// Where to write the log (must not exist).
    #[arg(long)]
    out: PathBuf,
}

fn random_bytes() -> Result<[u8; 32], CliError> {
    let mut out = [0u8; 32];
    getrandom::fill(&mut out)?;
    Ok(out)
}

/// Runs `reversi selfplay`.
pub fn run(args: &SelfplayArgs, data_dir: &DataDir) -> Result<String, CliError> {
    let rules = args.rules.rules()?;
    let proposal = if args.draw_by_lot {
        RulesProposal::draw_by_lot(rules).map_err(super::rule_args::RuleArgsError::from)?
    } else {
        RulesProposal::fixed(rules)
    };
    let (host_nonce, guest_nonce) = match args.seed {
        Some(seed) => {
            let mut generator = SplitMix64::new(seed ^ 0x5EED_C0DE);
            (generator.bytes32(), generator.bytes32())
        }
        None => (random_bytes()?, random_bytes()?),
    };
    let seed = args
        .seed
        .unwrap_or_else(|| u64::from_le_bytes(host_nonce[..8].try_into().expect("8 bytes")));
    let players = Players {
        host: data_dir.identity()?,
        guest: Identity::generate()?,
        host_nonce,
        guest_nonce,
    };
    let terms = MatchTerms {
        proposal,
        deadline_secs: args.deadline,
        host_name: args.host_name.clone(),
        guest_name: args.guest_name.clone(),
    };
    let mut clock = now_ms();
    let mut game = MatchBuilder::new(&terms, players, clock).map_err(CliError::Verify)?;
    let mut movers = [
        Player::new(args.black, seed),
        Player::new(args.white, seed.wrapping_add(1)),
    ];
    if game.verifier().phase() == Phase::AwaitTieWinner {
        let mut generator = SplitMix64::new(seed ^ 0x7153);
        let winner = if generator.next_u64() & 1 == 0 {
            Color::Black
        } else {
            Color::White
        };
        game.choose(winner, clock).map_err(CliError::Verify)?;
        game.choose(winner, clock).map_err(CliError::Verify)?;
    }
    while let Some(position) = game.verifier().current_position().copied() {
        let Some(color) = position.to_move() else {
            break;
        };
        let square = movers[color.index()]
            .choose(&position)
            .expect("the side to move has a move");
        clock = clock.max(now_ms());
        game.play(square, clock).map_err(CliError::Verify)?;
    }
    write_log(&args.out, game.records()).map_err(CliError::LogFile)?;
    let verifier = game.verifier();
    let end = verifier
        .end()
        .map_or("unfinished".to_string(), |e| e.outcome.to_string());
    Ok(format!(
        "wrote {} ({} records, {} moves): {end}\n",
        args.out.display(),
        game.records().len(),
        verifier.moves().len()
    ))
}
