//! The flags of `tama datagen` and `tama train`, and the readers of their
//! numbers and hand terms.

use super::{InvalidValue, RuleFlags};
use clap::Args;

#[derive(Args, Debug)]
#[command(args_override_self = true)]
pub struct DatagenArgs {
    #[command(flatten)]
    pub rules: RuleFlags,
    /// The data file; an existing one is resumed (same settings only)
    #[arg(long, value_name = "FILE")]
    pub out: std::path::PathBuf,
    /// Games of the run (default: until Ctrl-C)
    #[arg(long, value_name = "N")]
    pub games: Option<u64>,
    /// Play the K-th of N parts of the run's games (needs --games)
    #[arg(long, value_name = "K/N", value_parser = tama_shard::Shard::parse, requires = "games")]
    pub shard: Option<tama_shard::Shard>,
    /// Merge the files of the shards of one run into --out, a new file
    #[arg(long, value_name = "SHARD", num_args = 1..,
          conflicts_with_all = ["games", "shard", "nodes", "depth", "random_plies", "seed",
                                "threads", "hash", "eval_file", "egtb", "variant", "capture_removal",
                                "mid_capture_promotion"])]
    pub merge: Vec<std::path::PathBuf>,
    /// Nodes per move (the default budget, 5000, when no --depth is given)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Plies per move
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: Option<u32>,
    /// Random plies after the opening
    #[arg(long, value_name = "N", default_value_t = tama_train::datagen::Settings::DEFAULT_RANDOM_PLIES)]
    pub random_plies: u8,
    /// Fixes every game of the file
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub seed: u64,
    /// Games played at once, one per thread
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub threads: u64,
    /// Transposition table size per thread in MB
    #[arg(long, value_name = "MB", default_value_t = 16, value_parser = clap::value_parser!(u64).range(1..=65536))]
    pub hash: u64,
    /// The weights the games are played with, as the EvalFile option takes
    /// them: a weights file or builtin:NAME (default: the built-in set)
    #[arg(long, value_name = "FILE|builtin:NAME")]
    pub eval_file: Option<String>,
    /// Endgame databases: a game ends with their value at the first
    /// position they hold (that position kept, the rest not played)
    #[arg(long, value_name = "DIR")]
    pub egtb: Option<std::path::PathBuf>,
}

#[derive(Args, Debug)]
#[command(args_override_self = true)]
pub struct TrainArgs {
    /// A datagen file (repeatable; one variant)
    #[arg(long, value_name = "FILE", required_unless_present = "show")]
    pub data: Vec<std::path::PathBuf>,
    /// The weights file to write
    #[arg(long, value_name = "FILE", required_unless_present = "show")]
    pub out: Option<std::path::PathBuf>,
    /// Print a weights file (description, hand weights) and exit
    #[arg(long, value_name = "FILE", conflicts_with_all = ["data", "out"])]
    pub show: Option<std::path::PathBuf>,
    /// What to fit
    #[arg(long, value_name = "hand|patterns|kings", default_value = "patterns")]
    pub model: tama_engine::eval::Model,
    /// Start from these weights, as the EvalFile option takes them: a
    /// weights file or builtin:NAME (default: the hand-set weights)
    #[arg(long, value_name = "FILE|builtin:NAME")]
    pub init: Option<String>,
    /// Passes over the training set
    #[arg(long, value_name = "N", default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=10000))]
    pub epochs: u64,
    /// Weight of the game result in the target, the rest the search score
    #[arg(long, value_name = "X", default_value_t = 0.5, value_parser = unit_interval)]
    pub lambda: f64,
    /// Adam's step in centi-men (falls to a tenth by the last epoch)
    #[arg(long, value_name = "X", default_value_t = 1.0, value_parser = positive)]
    pub lr: f64,
    /// Positions per step
    #[arg(long, value_name = "N", default_value_t = 16384, value_parser = clap::value_parser!(u64).range(1..))]
    pub batch: u64,
    /// L2 pull of the pattern weights towards zero, per position
    #[arg(long, value_name = "X", default_value_t = 1e-7, value_parser = non_negative)]
    pub l2: f64,
    /// Keep the hand weights as they start; fit the patterns only
    #[arg(long)]
    pub freeze_hand: bool,
    /// Hold a hand term at a value in centi-men while the rest is fitted
    /// (repeatable; the names are those of `--show`), e.g. `--fix tempo=4`
    #[arg(long, value_name = "TERM=CM", value_parser = fixed_term)]
    pub fix: Vec<FixedTerm>,
    /// Percent of the games held out for validation
    #[arg(long, value_name = "P", default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=50))]
    pub valid_percent: u32,
    /// position: games split by their first position, every position once;
    /// file-order: split by file and game number, every occurrence (0.2.0)
    #[arg(long, value_name = "position|file-order", default_value = "position")]
    pub split: tama_train::dataset::Split,
    /// Endgame databases (`tama egtb build`): every position they hold is
    /// fitted to their exact value (win 1, draw 1/2, loss 0 for the side
    /// to move) instead of the blend of search score and result
    #[arg(long, value_name = "DIR")]
    pub egtb: Option<std::path::PathBuf>,
    /// With --egtb: also train on N positions drawn at random from those
    /// tables (3 pieces up to the most they hold whole), each fitted to
    /// its exact value
    #[arg(long, value_name = "N", default_value_t = 0, requires = "egtb")]
    pub egtb_positions: u64,
    /// Keep the pattern weights as they start (with --freeze-hand and
    /// --model kings: fit the king terms alone)
    #[arg(long)]
    pub freeze_patterns: bool,
    /// Threads computing the gradient
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub threads: u64,
    /// Shuffles the batches
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub seed: u64,
}

/// A hand term held at a value (`tama train --fix`).
#[derive(Clone, Debug)]
pub struct FixedTerm {
    /// Index in `hand::NAMES`.
    pub term: usize,
    pub centi_men: f64,
}

fn fixed_term(text: &str) -> Result<FixedTerm, InvalidValue> {
    use tama_engine::eval::hand;
    let (name, value) = text
        .split_once('=')
        .ok_or_else(|| InvalidValue::from(format!("{text:?}: expected TERM=CM, e.g. tempo=4")))?;
    let term = hand::term_index(name).ok_or_else(|| {
        format!(
            "{name:?} is not a hand term (the terms: {})",
            hand::NAMES.join(", ")
        )
    })?;
    let centi_men = number(value)?;
    if centi_men.abs() > 1000.0 {
        return Err(format!("{value}: at most 1000 centi-men either way").into());
    }
    Ok(FixedTerm { term, centi_men })
}

fn number(text: &str) -> Result<f64, InvalidValue> {
    text.parse::<f64>()
        .ok()
        .filter(|x| x.is_finite())
        .ok_or_else(|| InvalidValue::from(format!("expected a number, got {text:?}")))
}

fn unit_interval(text: &str) -> Result<f64, InvalidValue> {
    Some(number(text)?)
        .filter(|x| (0.0..=1.0).contains(x))
        .ok_or_else(|| InvalidValue::from(format!("expected a number from 0 to 1, got {text:?}")))
}

fn positive(text: &str) -> Result<f64, InvalidValue> {
    Some(number(text)?)
        .filter(|&x| x > 0.0)
        .ok_or_else(|| InvalidValue::from(format!("expected a number above 0, got {text:?}")))
}

fn non_negative(text: &str) -> Result<f64, InvalidValue> {
    Some(number(text)?)
        .filter(|&x| x >= 0.0)
        .ok_or_else(|| InvalidValue::from(format!("expected a number, 0 or above, got {text:?}")))
}
