//! `tama datagen`: self-play games for training, appended to a data file
//! (`tama_train::datagen`).

use super::progress_line;
use crate::cli::DatagenArgs;
use anyhow::{Context, Result};
use std::io::IsTerminal;
use tama_train::{datagen, shard};

/// `tama datagen`: plays until the file holds `--games` games (a shard's
/// part of them) or Ctrl-C; returns the exit status (130 after Ctrl-C, the
/// file complete up to the last finished game). With `--merge`, merges
/// shards' files instead.
pub fn run(a: &DatagenArgs) -> Result<i32> {
    if !a.merge.is_empty() {
        let m = shard::merge(&a.out, &a.merge)?;
        println!(
            "{}: {} games, {} positions, {} bytes, merged from {} shards ({})",
            a.out.display(),
            m.games,
            m.positions,
            m.bytes,
            m.shards,
            m.header
        );
        return Ok(0);
    }
    let settings = datagen::Settings {
        out: a.out.clone(),
        rules: a.rules.rules(),
        nodes: match (a.nodes, a.depth) {
            (None, None) => Some(datagen::Settings::DEFAULT_NODES),
            (nodes, _) => nodes,
        },
        depth: a.depth,
        random_plies: a.random_plies,
        seed: a.seed,
        games: a.games.unwrap_or(u64::MAX),
        shard: a.shard,
        threads: a.threads as usize,
        hash_mb: a.hash as usize,
        weights: match &a.eval_file {
            Some(value) => Some(
                tama_protocol::options::read_weights(value)
                    .with_context(|| format!("--eval-file {value}"))?,
            ),
            None => None,
        },
        egtb: a.egtb.clone(),
    };
    tama_os::signal::install();
    let s = datagen::run(&settings, &tama_os::signal::interrupted, &mut progress_line)?;
    if std::io::stderr().is_terminal() {
        eprintln!();
    }
    let part = a.shard.map_or(String::new(), |s| format!(" (shard {s})"));
    println!(
        "{}{part}: {} games, {} positions ({} games, {} positions new, {:.0} positions/s, {:.1} s){}",
        a.out.display(),
        s.games,
        s.positions,
        s.new_games,
        s.new_positions,
        s.new_positions as f64 / s.seconds.max(1e-3),
        s.seconds,
        if s.interrupted { ", interrupted" } else { "" }
    );
    Ok(if s.interrupted { 130 } else { 0 })
}
