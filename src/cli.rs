//! The `tama` command line, declared with clap: the sub-commands, their
//! flags and help texts, and the one-line form of clap's errors.
//!
//! `tama match` is the exception: clap hands its arguments over untouched,
//! since its cutechess-style single-dash grammar (`-engine cmd=...`) is the
//! match runner's own (`tama_match::cli::args`, which also prints its help).

use clap::error::ErrorKind;
use clap::{Args, Parser, Subcommand};
use tama_engine::{CaptureRemoval, Rules, Variant};

mod egtb;
mod training;

pub use egtb::{
    EgtbAuditArgs, EgtbBenchArgs, EgtbBuildArgs, EgtbCommand, EgtbCompressArgs, EgtbJobsArgs,
    EgtbPlace, EgtbProbeArgs, EgtbStartsArgs, EgtbStatsArgs,
};
pub use training::{DatagenArgs, TrainArgs};

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
    /// Review games: annotated PDN with scores, marks and better lines (docs/gui.md)
    Analyse(AnalyseArgs),
    /// Endgame databases: build, probe, stats (docs/endgames.md)
    #[command(subcommand)]
    Egtb(EgtbCommand),
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
    /// Endgame databases for the board, its engine and its reviews
    #[arg(long, value_name = "DIR")]
    pub egtb: Option<std::path::PathBuf>,
}

#[derive(Args, Debug)]
#[command(args_override_self = true)]
pub struct AnalyseArgs {
    /// The PDN file of the games
    #[arg(value_name = "GAMES.pdn")]
    pub games: std::path::PathBuf,
    /// Milliseconds a position (the default, 1000, when no limit is given)
    #[arg(long, value_name = "MS", conflicts_with_all = ["nodes", "depth"],
          value_parser = clap::value_parser!(u64).range(1..))]
    pub movetime: Option<u64>,
    /// Nodes a position
    #[arg(long, value_name = "N", conflicts_with = "depth",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Plies a position
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: Option<u32>,
    /// Search threads
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..=256))]
    pub threads: u64,
    /// Transposition table size in MB
    #[arg(long, value_name = "MB", default_value_t = tama_engine::search::Searcher::DEFAULT_HASH_MB)]
    pub hash: usize,
    /// Endgame databases: the positions they hold are judged by them
    #[arg(long, value_name = "DIR")]
    pub egtb: Option<std::path::PathBuf>,
    /// Write the annotated games here (default: standard output)
    #[arg(long, value_name = "FILE")]
    pub out: Option<std::path::PathBuf>,
    /// Only the K-th game of the file (from 1)
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..))]
    pub game: Option<u64>,
}

/// A value a flag's parser refuses; clap prints its message after its own
/// "invalid value" line start.
#[derive(Debug)]
pub struct InvalidValue(String);

impl From<String> for InvalidValue {
    fn from(message: String) -> InvalidValue {
        InvalidValue(message)
    }
}

impl std::fmt::Display for InvalidValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for InvalidValue {}

fn perft_depth(text: &str) -> Result<u32, InvalidValue> {
    let d: u32 = text
        .parse()
        .map_err(|_| format!("DEPTH must be a whole number, got {text:?}"))?;
    if d > 64 {
        return Err(format!("DEPTH {d} is too deep (at most 64)").into());
    }
    Ok(d)
}

fn bench_depth(text: &str) -> Result<u32, InvalidValue> {
    text.parse()
        .ok()
        .filter(|d| (1..=64).contains(d))
        .ok_or_else(|| InvalidValue::from(format!("DEPTH must be 1..64, got {text:?}")))
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
