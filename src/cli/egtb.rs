//! The flags of `tama egtb` and its sub-commands: build (whole, planned or
//! one job), jobs, probe, stats, compress, bench, audit, starts.

use super::{bench_depth, InvalidValue, RuleFlags};
use clap::{Args, Subcommand};

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

fn egtb_pieces(text: &str) -> Result<u32, InvalidValue> {
    let max = tama_engine::egtb::MAX_PIECES;
    let n: u32 = text
        .parse()
        .map_err(|_| format!("N must be a whole number, got {text:?}"))?;
    if !(2..=max).contains(&n) {
        return Err(format!("{n} pieces: the tables hold 2 to {max}").into());
    }
    Ok(n)
}
