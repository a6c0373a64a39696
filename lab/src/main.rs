//! `tama-lab`: the engine with the lab on (the sparring opponent, the
//! baseline, the search switches by name and the counters), for
//! measurements; see docs/testing.md, "The lab build".

use anyhow::{anyhow, Result};
use clap::error::ErrorKind;
use clap::{Args, Parser, Subcommand};
use std::io::Write;
use std::time::Duration;
use tama_engine::search::{SearchControl, SearchLimits, Searcher, Tuning};
use tama_engine::{CaptureRemoval, Game, Position, Rules, Variant};
use tama_lab::errors::{self, ErrorsArgs};
use tama_lab::tactics::{self, name_value, Setting, TacticsArgs};
use tama_protocol::session::Dialect;

/// tama-lab: Tama's engine with the lab on, for measurements.
///
/// With no command, tama-lab reads protocol commands on stdin as `tama`
/// does (the first line chooses the dialect), with the lab's options
/// (`Style`, `Baseline`) and the search switches given by `--set`.
#[derive(Parser, Debug)]
#[command(
    name = "tama-lab",
    version,
    args_conflicts_with_subcommands = true,
    verbatim_doc_comment
)]
struct Cli {
    /// Change a search switch (repeatable; docs/testing.md)
    #[arg(long = "set", value_name = "NAME=VALUE", value_parser = setting)]
    set: Vec<Setting>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Read protocol commands on stdin, in the UCI dialect from the start
    Uci(Switches),
    /// Read protocol commands on stdin, in the Hub dialect from the start
    Hub(Switches),
    /// The search's signature with the switches; last line `<nodes> nodes <nps> nps`
    Bench(BenchArgs),
    /// One search with the switches (1 s when no limit is given)
    Search(SearchArgs),
    /// The shot suite: solved/total per node budget
    Tactics(TacticsArgs),
    /// Moves that change the endgame databases' value, per node budget
    Errors(ErrorsArgs),
}

#[derive(Args, Debug)]
struct Switches {
    /// Change a search switch (repeatable)
    #[arg(long = "set", value_name = "NAME=VALUE", value_parser = setting)]
    set: Vec<Setting>,
}

#[derive(Args, Debug)]
#[command(allow_negative_numbers = true, args_override_self = true)]
struct BenchArgs {
    /// Search threads
    #[arg(long, value_name = "N", default_value_t = 1)]
    threads: usize,
    #[command(flatten)]
    switches: Switches,
    /// Plies, 1 to 64
    #[arg(value_parser = clap::value_parser!(u32).range(1..=64),
          default_value_t = tama_engine::search::bench::DEFAULT_DEPTH)]
    depth: u32,
}

#[derive(Args, Debug)]
#[command(args_override_self = true)]
struct SearchArgs {
    /// The game
    #[arg(long, value_name = "armenian|turkish", default_value_t = Rules::default().variant)]
    variant: Variant,
    /// When captured pieces leave the board
    #[arg(long, value_name = "immediate|deferred", default_value_t = Rules::default().capture_removal)]
    capture_removal: CaptureRemoval,
    /// Search this position instead of the start position
    #[arg(long)]
    fen: Option<String>,
    /// Plies
    #[arg(long, value_name = "D")]
    depth: Option<u32>,
    /// Milliseconds
    #[arg(long, value_name = "MS")]
    movetime: Option<u64>,
    /// Nodes
    #[arg(long, value_name = "N")]
    nodes: Option<u64>,
    /// Search threads
    #[arg(long, value_name = "N", default_value_t = 1)]
    threads: usize,
    /// Transposition table size in MB
    #[arg(long, value_name = "MB", default_value_t = Searcher::DEFAULT_HASH_MB)]
    hash: usize,
    /// Plain fixed-depth alpha-beta, material-only evaluation
    #[arg(long)]
    baseline: bool,
    #[command(flatten)]
    switches: Switches,
}

/// `NAME=VALUE`, refused at once when the search has no such switch or
/// the value does not fit it.
fn setting(text: &str) -> Result<Setting, String> {
    let (name, value) = name_value(text)?;
    Tuning::default()
        .set(&name, &value)
        .map_err(|e| e.to_string())?;
    Ok((name, value))
}

/// The search switches with these settings applied (each checked by
/// `setting` already).
fn tuning(settings: &[Setting]) -> Result<Tuning> {
    let mut tuning = Tuning::default();
    for (name, value) in settings {
        tuning.set(name, value)?;
    }
    Ok(tuning)
}

fn main() {
    tama_lab::install();
    let status = match Cli::try_parse() {
        Ok(cli) => dispatch(cli).unwrap_or_else(|e| {
            eprintln!("error: {e:#}");
            2
        }),
        Err(e) => {
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                let _ = e.print();
            } else {
                // One line, as `tama` gives its errors.
                let text = e.render().to_string();
                let first = text.lines().next().unwrap_or("error: bad arguments");
                eprintln!("{first} (--help for more)");
            }
            e.exit_code()
        }
    };
    std::process::exit(status);
}

fn dispatch(cli: Cli) -> Result<i32> {
    match cli.command {
        None => Ok(tama_protocol::run_stdio(None, tuning(&cli.set)?)),
        Some(Command::Uci(s)) => Ok(tama_protocol::run_stdio(
            Some(Dialect::Uci),
            tuning(&s.set)?,
        )),
        Some(Command::Hub(s)) => Ok(tama_protocol::run_stdio(
            Some(Dialect::Hub),
            tuning(&s.set)?,
        )),
        Some(Command::Bench(a)) => bench(&a).map(|()| 0),
        Some(Command::Search(a)) => search(&a).map(|()| 0),
        Some(Command::Tactics(a)) => tactics::command(&a).map(|()| 0),
        Some(Command::Errors(a)) => errors::command(&a).map(|()| 0),
    }
}

/// `tama-lab bench`: `tama bench` with the switches.
fn bench(a: &BenchArgs) -> Result<()> {
    let threads = a.threads.max(1);
    let report = tama_engine::search::bench::run_with(
        a.depth,
        threads,
        &tuning(&a.switches.set)?,
        &tama_engine::eval::Weights::DEFAULT,
    );
    let mut out = std::io::stdout().lock();
    for line in &report.lines {
        writeln!(out, "{line}")?;
    }
    writeln!(out, "{} nodes {} nps", report.nodes, report.nps)?;
    Ok(())
}

/// `tama-lab search`: one search with the switches (and the baseline),
/// its progress lines, the best move and the node search's counters.
fn search(a: &SearchArgs) -> Result<()> {
    let rules = Rules {
        variant: a.variant,
        capture_removal: a.capture_removal,
        ..Rules::default()
    };
    let pos = match &a.fen {
        Some(f) => Position::from_fen(f, rules).map_err(|e| anyhow!("{e}"))?,
        None => Position::startpos(rules),
    };
    let mut limits = SearchLimits {
        depth: a.depth,
        movetime: a.movetime.map(Duration::from_millis),
        nodes: a.nodes,
        ..SearchLimits::default()
    };
    if limits.depth.is_none() && limits.movetime.is_none() && limits.nodes.is_none() {
        limits.movetime = Some(Duration::from_millis(1000));
    }
    let mut searcher = Searcher::new(a.hash);
    *searcher.tuning_mut() = tuning(&a.switches.set)?;
    let o = searcher.options_mut();
    o.threads = a.threads.max(1);
    o.lab.baseline = a.baseline;
    o.move_overhead = Duration::ZERO;
    let game = Game::new(pos);
    let out = searcher.search(&game, &limits, &SearchControl::new(), &mut |info| {
        println!(
            "info depth {} score {:?} nodes {} time {}",
            info.depth,
            info.score,
            info.nodes,
            info.time.as_millis()
        );
    });
    println!(
        "bestmove {} score {:?} depth {} nodes {}",
        out.best_move.map_or("(none)".into(), |m| pos.move_text(&m)),
        out.score,
        out.depth,
        out.nodes
    );
    println!("stats {}", out.stats);
    Ok(())
}
