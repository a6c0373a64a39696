//! The `tama` command line, declared with clap: the sub-commands, their
//! flags and help texts, and the one-line form of clap's errors.
//!
//! `tama match` is the exception: clap hands its arguments over untouched,
//! since its cutechess-style single-dash grammar (`-engine cmd=...`) is the
//! match runner's own (`tama_match::args`, which also prints its help).

use clap::error::ErrorKind;
use clap::{Args, Parser, Subcommand};
use tama_engine::{CaptureRemoval, Rules, Variant};

/// Tama: an engine for Armenian (and Turkish) draughts.
///
/// With no command, tama reads protocol commands on stdin: the first line
/// chooses the dialect (`uci`, the default, or `hub`); see docs/protocol.md.
#[derive(Parser, Debug)]
#[command(
    name = "tama",
    version,
    args_conflicts_with_subcommands = true,
    verbatim_doc_comment,
    help_template = "{about-with-newline}\nusage: {usage}\n\n{all-args}"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Read protocol commands on stdin, in the UCI dialect from the start
    Uci,
    /// Read protocol commands on stdin, in the Hub dialect from the start
    Hub,
    /// Count the positions DEPTH plies deep; last line `Nodes searched: N`
    Perft(PerftArgs),
    /// The search's signature; last line `<nodes> nodes <nps> nps`
    Bench(BenchArgs),
    /// One search, for measurements (1 s when no limit is given)
    Search(SearchArgs),
    /// Engine-vs-engine matches; `tama match --help` lists its flags
    #[command(disable_help_flag = true)]
    Match(MatchArgs),
    /// Self-play games for training the evaluation (docs/evaluation.md)
    Datagen(DatagenArgs),
    /// Fit evaluation weights to datagen files (docs/evaluation.md)
    Train(TrainArgs),
    /// A board in the browser, served on 127.0.0.1 (docs/gui.md)
    Gui(GuiArgs),
    /// Endgame databases: build, probe, stats (docs/endgames.md)
    #[command(subcommand)]
    Egtb(EgtbCommand),
}

/// `tama egtb ...`: the endgame databases.
#[derive(Subcommand, Debug)]
pub enum EgtbCommand {
    /// Solve every signature of up to N pieces (missing files only)
    Build(EgtbBuildArgs),
    /// The build as jobs (one a pair) by dependency level, for a job system
    Jobs(EgtbJobsArgs),
    /// The value of one position; last line `win N`, `draw` or `loss N`
    Probe(EgtbProbeArgs),
    /// Per signature: positions, wins, draws, losses, longest win, bytes
    Stats(EgtbStatsArgs),
    /// Compress the tables in blocks (probed as they are, a fraction of the bytes)
    Compress(EgtbCompressArgs),
    /// Bytes per position and probes per second (random positions, one thread)
    Bench(EgtbBenchArgs),
    /// Database wins that games of a PDN file did not win; last line `audit: ...`
    Audit(EgtbAuditArgs),
    /// Balanced endgame starts (openings format) from the games of a PDN file
    Starts(EgtbStartsArgs),
}

/// Where the tables are, and for which rules.
#[derive(Args, Debug)]
pub struct EgtbPlace {
    #[command(flatten)]
    pub rules: RuleFlags,
    /// Directory of the table files
    #[arg(long, value_name = "D", default_value = "egtb")]
    pub dir: std::path::PathBuf,
}

#[derive(Args, Debug)]
pub struct EgtbBuildArgs {
    #[command(flatten)]
    pub place: EgtbPlace,
    /// Pieces on the board, 2 to 6 (6 needs about 17 GB and 16 GB of disk)
    #[arg(long, value_name = "N", value_parser = egtb_pieces,
          default_value_t = tama_engine::egtb::BuildOptions::DEFAULT_PIECES)]
    pub pieces: u32,
    /// Threads (default: every core)
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Print what would be built (positions, bytes, memory) and stop
    #[arg(long)]
    pub plan: bool,
    /// Build only this job's pair (`tama egtb jobs`), its inputs in --dir
    #[arg(long, value_name = "PAIR", conflicts_with = "plan")]
    pub job: Option<String>,
    /// Write the tables compressed, the bytes `tama egtb compress` makes of
    /// the plain ones
    #[arg(long, conflicts_with = "plan")]
    pub compress: bool,
    /// With --compress: zstd level, 1 to 22
    #[arg(long, value_name = "L", requires = "compress",
          value_parser = clap::value_parser!(i32).range(1..=22),
          default_value_t = tama_engine::egtb::CompressOptions::DEFAULT_LEVEL)]
    pub level: i32,
    /// With --compress: plain payload bytes a block holds
    #[arg(long, value_name = "B", requires = "compress",
          value_parser = clap::value_parser!(u32).range(1..=1 << 20),
          default_value_t = tama_engine::egtb::CompressOptions::DEFAULT_BLOCK_BYTES)]
    pub block_bytes: u32,
}

#[derive(Args, Debug)]
pub struct EgtbJobsArgs {
    /// Pieces on the board, 2 to 6
    #[arg(long, value_name = "N", value_parser = egtb_pieces,
          default_value_t = tama_engine::egtb::BuildOptions::DEFAULT_PIECES)]
    pub pieces: u32,
    /// Print only the names of this level's jobs, one a line
    #[arg(long, value_name = "L")]
    pub level: Option<u32>,
}

#[derive(Args, Debug)]
pub struct EgtbProbeArgs {
    #[command(flatten)]
    pub place: EgtbPlace,
    /// The position
    #[arg(long)]
    pub fen: String,
}

#[derive(Args, Debug)]
pub struct EgtbStatsArgs {
    #[command(flatten)]
    pub place: EgtbPlace,
}

#[derive(Args, Debug)]
pub struct EgtbCompressArgs {
    #[command(flatten)]
    pub place: EgtbPlace,
    /// Where to write the compressed tables (default: replace those in --dir)
    #[arg(long, value_name = "D2")]
    pub out: Option<std::path::PathBuf>,
    /// zstd level, 1 to 22
    #[arg(long, value_name = "L", value_parser = clap::value_parser!(i32).range(1..=22),
          default_value_t = tama_engine::egtb::CompressOptions::DEFAULT_LEVEL)]
    pub level: i32,
    /// Plain payload bytes a block holds (a probe decompresses one block)
    #[arg(long, value_name = "B",
          default_value_t = tama_engine::egtb::CompressOptions::DEFAULT_BLOCK_BYTES)]
    pub block_bytes: u32,
    /// Threads (default: every core)
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
}

#[derive(Args, Debug)]
pub struct EgtbBenchArgs {
    #[command(flatten)]
    pub place: EgtbPlace,
    /// Only the tables of this many pieces (default: every table)
    #[arg(long, value_name = "N", value_parser = egtb_pieces)]
    pub pieces: Option<u32>,
    /// Random positions probed
    #[arg(long, value_name = "N", default_value_t = 1_000_000)]
    pub probes: u64,
    /// Seed of the random positions
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
}

#[derive(Args, Debug)]
pub struct EgtbAuditArgs {
    #[command(flatten)]
    pub place: EgtbPlace,
    /// The games (PDN, e.g. `tama match -pdnout`)
    #[arg(long, value_name = "FILE")]
    pub pdn: std::path::PathBuf,
}

#[derive(Args, Debug)]
pub struct EgtbStartsArgs {
    #[command(flatten)]
    pub rules: RuleFlags,
    /// The games to take positions from (PDN)
    #[arg(long, value_name = "FILE")]
    pub pdn: std::path::PathBuf,
    /// Depth of the search that scores each candidate
    #[arg(long, value_name = "D", value_parser = bench_depth, default_value_t = 10)]
    pub depth: u32,
    /// Keep starts whose score lies within this many centi-men of 0
    #[arg(long, value_name = "CP", default_value_t = 150)]
    pub max_score: i32,
    /// Fewest pieces of a start
    #[arg(long, value_name = "N", default_value_t = 6)]
    pub min_pieces: u32,
    /// Most pieces of a start
    #[arg(long, value_name = "N", default_value_t = 8)]
    pub max_pieces: u32,
}

/// The rule options shared by `perft` and `search`.
#[derive(Args, Debug)]
pub struct RuleFlags {
    /// The game
    #[arg(long, value_name = "armenian|turkish", default_value_t = Rules::default().variant)]
    pub variant: Variant,
    /// When captured pieces leave the board
    #[arg(long, value_name = "immediate|deferred", default_value_t = Rules::default().capture_removal)]
    pub capture_removal: CaptureRemoval,
    /// Whether a man crowned during a capture goes on as a king
    #[arg(long, value_name = "false|true", value_parser = tama_engine::rules::parse_bool,
          action = clap::ArgAction::Set,
          default_value_t = Rules::default().mid_capture_promotion)]
    pub mid_capture_promotion: bool,
}

impl RuleFlags {
    pub fn rules(&self) -> Rules {
        Rules {
            variant: self.variant,
            capture_removal: self.capture_removal,
            mid_capture_promotion: self.mid_capture_promotion,
        }
    }
}

#[derive(Args, Debug)]
#[command(allow_negative_numbers = true)]
pub struct PerftArgs {
    #[command(flatten)]
    pub rules: RuleFlags,
    /// Start from this position instead of the start position
    #[arg(long)]
    pub fen: Option<String>,
    /// One line per root move, `<move>: <count>`
    #[arg(long)]
    pub divide: bool,
    /// Count each route of a capture (kish's convention)
    #[arg(long)]
    pub routes: bool,
    /// Plies, 0 to 64
    #[arg(value_parser = perft_depth)]
    pub depth: u32,
}

#[derive(Args, Debug)]
#[command(allow_negative_numbers = true, args_override_self = true)]
pub struct BenchArgs {
    /// Search threads
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub threads: usize,
    /// Plies, 1 to 64
    #[arg(value_parser = bench_depth, default_value_t = tama_engine::search::bench::DEFAULT_DEPTH)]
    pub depth: u32,
}

#[derive(Args, Debug)]
#[command(args_override_self = true)]
pub struct SearchArgs {
    #[command(flatten)]
    pub rules: RuleFlags,
    /// Search this position instead of the start position
    #[arg(long)]
    pub fen: Option<String>,
    /// Plies
    #[arg(long, value_name = "D")]
    pub depth: Option<u32>,
    /// Milliseconds
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// Nodes
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,
    /// Search threads
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub threads: usize,
    /// Best lines to report
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub multipv: usize,
    /// Transposition table size in MB
    #[arg(long, value_name = "MB", default_value_t = tama_engine::search::Searcher::DEFAULT_HASH_MB)]
    pub hash: usize,
}

#[derive(Args, Debug)]
pub struct MatchArgs {
    /// The match runner's flags, as given.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
    pub args: Vec<String>,
}

#[derive(Args, Debug)]
pub struct GuiArgs {
    /// Port on 127.0.0.1 (default 0: any free port)
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub port: u16,
    /// Print the address only; do not open the browser
    #[arg(long)]
    pub no_open: bool,
}

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
    #[arg(long, value_name = "K/N", value_parser = shard, requires = "games")]
    pub shard: Option<tama_train::shard::Shard>,
    /// Merge the files of the shards of one run into --out, a new file
    #[arg(long, value_name = "SHARD", num_args = 1..,
          conflicts_with_all = ["games", "shard", "nodes", "depth", "random_plies", "seed",
                                "threads", "hash", "eval_file", "variant", "capture_removal",
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
    #[arg(long, value_name = "hand|patterns", default_value = "patterns")]
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
    /// Threads computing the gradient
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub threads: u64,
    /// Shuffles the batches
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub seed: u64,
}

fn shard(text: &str) -> Result<tama_train::shard::Shard, String> {
    tama_train::shard::Shard::parse(text)
}

/// A hand term held at a value (`tama train --fix`).
#[derive(Clone, Debug)]
pub struct FixedTerm {
    /// Index in `hand::NAMES`.
    pub term: usize,
    pub centi_men: f64,
}

fn fixed_term(text: &str) -> Result<FixedTerm, String> {
    use tama_engine::eval::hand;
    let (name, value) = text
        .split_once('=')
        .ok_or_else(|| format!("{text:?}: expected TERM=CM, e.g. tempo=4"))?;
    let term = hand::term_index(name).ok_or_else(|| {
        format!(
            "{name:?} is not a hand term (the terms: {})",
            hand::NAMES.join(", ")
        )
    })?;
    let centi_men = number(value)?;
    if centi_men.abs() > 1000.0 {
        return Err(format!("{value}: at most 1000 centi-men either way"));
    }
    Ok(FixedTerm { term, centi_men })
}

fn number(text: &str) -> Result<f64, String> {
    text.parse::<f64>()
        .ok()
        .filter(|x| x.is_finite())
        .ok_or_else(|| format!("expected a number, got {text:?}"))
}

fn unit_interval(text: &str) -> Result<f64, String> {
    Some(number(text)?)
        .filter(|x| (0.0..=1.0).contains(x))
        .ok_or_else(|| format!("expected a number from 0 to 1, got {text:?}"))
}

fn positive(text: &str) -> Result<f64, String> {
    Some(number(text)?)
        .filter(|&x| x > 0.0)
        .ok_or_else(|| format!("expected a number above 0, got {text:?}"))
}

fn non_negative(text: &str) -> Result<f64, String> {
    Some(number(text)?)
        .filter(|&x| x >= 0.0)
        .ok_or_else(|| format!("expected a number, 0 or above, got {text:?}"))
}

fn perft_depth(text: &str) -> Result<u32, String> {
    let d: u32 = text
        .parse()
        .map_err(|_| format!("DEPTH must be a whole number, got {text:?}"))?;
    if d > 64 {
        return Err(format!("DEPTH {d} is too deep (at most 64)"));
    }
    Ok(d)
}

fn egtb_pieces(text: &str) -> Result<u32, String> {
    let max = tama_engine::egtb::MAX_PIECES;
    let n: u32 = text
        .parse()
        .map_err(|_| format!("N must be a whole number, got {text:?}"))?;
    if !(2..=max).contains(&n) {
        return Err(format!("{n} pieces: the tables hold 2 to {max}"));
    }
    Ok(n)
}

fn bench_depth(text: &str) -> Result<u32, String> {
    text.parse()
        .ok()
        .filter(|d| (1..=64).contains(d))
        .ok_or_else(|| format!("DEPTH must be 1..64, got {text:?}"))
}

/// Parses the command line. Help and version go to stdout (status 0);
/// an error is one line on stderr (status 2), as for every other bad input.
pub fn parse(args: impl IntoIterator<Item = std::ffi::OsString>) -> Result<Cli, i32> {
    Cli::try_parse_from(args).map_err(|e| {
        if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
            let _ = e.print();
        } else {
            eprintln!("{}", one_line(&e.render().to_string()));
        }
        e.exit_code()
    })
}

/// clap's error text as one line. clap writes paragraphs separated by
/// blank lines: the error (a list of missing arguments on lines of its
/// own), tips, the usage (one line per form), a pointer to --help.
fn one_line(text: &str) -> String {
    let mut parts: Vec<String> = Vec::new();
    for paragraph in text.split("\n\n") {
        let lines: Vec<&str> = paragraph
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        match lines.first() {
            None => {}
            Some(l) if l.starts_with("For more information") => {}
            Some(l) if l.starts_with("Usage: ") => {
                let forms = lines.join(" | ");
                let forms = forms.trim_start_matches("Usage: ");
                parts.push(format!("usage: {forms} (--help for more)"));
            }
            Some(_) => parts.push(lines.join(" ")),
        }
    }
    parts.join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_declaration_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn clap_errors_become_one_line() {
        let text = "error: the following required arguments were not provided:\n  <DEPTH>\n\nUsage: tama perft <DEPTH>\n\nFor more information, try '--help'.\n";
        assert_eq!(
            one_line(text),
            "error: the following required arguments were not provided: <DEPTH>; \
             usage: tama perft <DEPTH> (--help for more)"
        );
        let text = "error: unrecognized subcommand 'x'\n\nUsage: tama [OPTIONS]\n       tama <COMMAND>\n\nFor more information, try '--help'.\n";
        assert_eq!(
            one_line(text),
            "error: unrecognized subcommand 'x'; usage: tama [OPTIONS] | tama <COMMAND> (--help for more)"
        );
        let text = "error: unexpected argument '--bogus' found\n\n  tip: to pass '--bogus' as a value, use '-- --bogus'\n\nUsage: tama perft [OPTIONS] <DEPTH>\n\nFor more information, try '--help'.\n";
        assert_eq!(
            one_line(text),
            "error: unexpected argument '--bogus' found; tip: to pass '--bogus' as a value, \
             use '-- --bogus'; usage: tama perft [OPTIONS] <DEPTH> (--help for more)"
        );
    }
}
