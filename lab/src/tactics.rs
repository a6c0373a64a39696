//! `tama-lab tactics`: the shot suite (`shots`) scored per variant and
//! node budget, with the engine set up as a match would set it up (engine
//! options as `setoption` gives them, search switches as `--set`).

use crate::shots::{self, Shot, SuiteScore};
use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use std::io::Write;
use tama_engine::search::{Searcher, Tuning};
use tama_engine::Variant;
use tama_protocol::options::{self, Effect, Settings};

/// `NAME=VALUE`, as given.
pub type Setting = (String, String);

#[derive(Args, Debug)]
#[command(args_override_self = true)]
pub struct TacticsArgs {
    /// The variant's shots only (default: both, each scored apart)
    #[arg(long, value_name = "armenian|turkish")]
    pub variant: Option<Variant>,
    /// Node budgets per shot, comma-separated
    #[arg(long, value_name = "LIST", value_delimiter = ',', value_parser = node_budget,
          default_values_t = shots::BUDGETS)]
    pub nodes: Vec<u64>,
    /// An engine option (`Style=sparring`, as in `setoption`) or a search
    /// switch (`forced_extension=true`, as `--set`); repeatable
    #[arg(long = "option", value_name = "NAME=VALUE", value_parser = name_value)]
    pub options: Vec<Setting>,
    /// A suite file instead of the built-in one (lab/data/shots.txt)
    #[arg(long, value_name = "FILE")]
    pub file: Option<std::path::PathBuf>,
    /// Also list each shot missed: position, move played, winning moves
    #[arg(long)]
    pub verbose: bool,
}

/// `NAME=VALUE`, split (what the name means is checked by its user).
pub fn name_value(text: &str) -> Result<Setting, String> {
    let (name, value) = text
        .split_once('=')
        .ok_or_else(|| format!("expected NAME=VALUE, got {text:?}"))?;
    Ok((name.to_string(), value.to_string()))
}

/// A node budget: a whole number of at least 1.
fn node_budget(text: &str) -> Result<u64, String> {
    text.parse()
        .ok()
        .filter(|n| *n >= 1)
        .ok_or_else(|| format!("a node budget is a whole number from 1, got {text:?}"))
}

/// The searcher `options` ask for: a NAME the search switches know
/// (`Tuning`) sets that switch, any other is an engine option (`Style`,
/// `Contempt`, `Hash`, ...). Options that do not shape a search of a given
/// position (the rules, the tables, `Clear Hash`) are refused.
pub fn searcher(options: &[Setting]) -> Result<Searcher> {
    let mut tuning = Tuning::default();
    let mut settings = Settings {
        hash_mb: shots::HASH_MB,
        ..Settings::default()
    };
    for (name, value) in options {
        if tuning.try_set(name, value)? {
            continue;
        }
        if options::find(name).is_none() {
            bail!(
                "{name:?} is neither an engine option (`tama uci`, then `uci`, lists them) \
                 nor a search switch (engine/src/search/params.rs, lab/switches.rs)"
            );
        }
        match settings.set(name, Some(value)).map_err(|e| anyhow!(e))? {
            Effect::None => {}
            _ => {
                bail!(
                    "option {name} means nothing to tama-lab tactics (each shot carries its rules; \
                     --variant chooses the shots)"
                )
            }
        }
    }
    let mut searcher = Searcher::new(settings.hash_mb);
    settings.apply(searcher.options_mut());
    *searcher.tuning_mut() = tuning;
    Ok(searcher)
}

/// The suite (the built-in one or `file`), split by variant; only
/// `variant`'s shots when one is given.
fn suites(a: &TacticsArgs) -> Result<Vec<(Variant, Vec<Shot>)>> {
    let all = match &a.file {
        Some(f) => {
            let text = std::fs::read_to_string(f).with_context(|| f.display().to_string())?;
            let all = shots::parse_suite(&text).with_context(|| f.display().to_string())?;
            if all.is_empty() {
                bail!("{}: no shot in the file", f.display());
            }
            all
        }
        None => shots::suite(),
    };
    let variants = match a.variant {
        Some(v) => vec![v],
        None => vec![Variant::Armenian, Variant::Turkish],
    };
    let split: Vec<(Variant, Vec<Shot>)> = variants
        .into_iter()
        .map(|v| {
            let of_v = all.iter().filter(|s| s.position.rules().variant == v);
            (v, of_v.cloned().collect::<Vec<Shot>>())
        })
        .filter(|(_, s)| !s.is_empty())
        .collect();
    if split.is_empty() {
        bail!("the suite holds no shot of that variant");
    }
    Ok(split)
}

/// Runs the suite at each budget and hands over the report a line at a
/// time: `<variant> <nodes> nodes: <solved>/<total>`, with `--verbose`
/// each miss below its line, and an `all` line when both variants ran.
pub fn run(a: &TacticsArgs, line: &mut dyn FnMut(&str)) -> Result<()> {
    let mut searcher = searcher(&a.options)?;
    let suites = suites(a)?;
    for &nodes in &a.nodes {
        let (mut solved, mut total) = (0, 0);
        for (variant, shots) in &suites {
            let score = shots::score(&mut searcher, shots, nodes);
            line(&format!(
                "{variant} {nodes} nodes: {}/{}",
                score.solved, score.total
            ));
            if a.verbose {
                misses(shots, &score, line);
            }
            solved += score.solved;
            total += score.total;
        }
        if suites.len() > 1 {
            line(&format!("all {nodes} nodes: {solved}/{total}"));
        }
    }
    Ok(())
}

/// One line per shot missed: the position, what was played, what wins.
fn misses(shots: &[Shot], score: &SuiteScore, line: &mut dyn FnMut(&str)) {
    for miss in &score.misses {
        let shot = &shots[miss.index];
        let pos = &shot.position;
        let wins: Vec<String> = shot.winning.iter().map(|m| pos.move_text(m)).collect();
        line(&format!(
            "  miss {} played {} wins {} depth={}",
            pos.fen(),
            miss.played.map_or("(none)".into(), |m| pos.move_text(&m)),
            wins.join(","),
            shot.depth
        ));
    }
}

/// `tama-lab tactics`: the shot suite's score, a line per variant and budget
/// as each is done (`tactics`).
pub fn command(a: &TacticsArgs) -> Result<()> {
    let stdout = std::io::stdout();
    run(a, &mut |line| {
        let _ = writeln!(stdout.lock(), "{line}");
    })
}
