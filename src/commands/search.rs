//! `tama search`: one search from the command line.

use super::position;
use crate::cli::SearchArgs;
use anyhow::Result;
use std::time::Duration;
use tama_engine::search::{SearchControl, SearchInfo, SearchLimits, Searcher};
use tama_engine::{Game, Position};

/// `tama search`: one search, printing the progress lines and the best
/// move (for measurements and debugging).
pub fn run(a: &SearchArgs) -> Result<()> {
    let pos = position(a.fen.as_deref(), a.rules.rules())?;
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
    let o = searcher.options_mut();
    o.threads = a.threads.max(1);
    o.multipv = a.multipv.max(1);
    o.move_overhead = Duration::ZERO;
    let game = Game::new(pos);
    let out = searcher.search(&game, &limits, &SearchControl::new(), &mut |info| {
        println!("{}", info_line(&pos, info));
    });
    println!(
        "bestmove {} ponder {} score {:?} depth {} nodes {}",
        out.best_move.map_or("(none)".into(), |m| pos.move_text(&m)),
        out.ponder_move
            .zip(out.best_move)
            .map_or("(none)".into(), |(pm, m)| pos.play(&m).move_text(&pm)),
        out.score,
        out.depth,
        out.nodes
    );
    Ok(())
}

/// One progress line of `tama search`, its principal variation as move
/// text from `pos`.
fn info_line(pos: &Position, info: &SearchInfo) -> String {
    let mut p = *pos;
    let pv: Vec<String> = info
        .pv
        .iter()
        .map(|m| {
            let t = p.move_text(m);
            p = p.play(m);
            t
        })
        .collect();
    format!(
        "info depth {} seldepth {} multipv {} score {:?} {:?} nodes {} nps {} hashfull {} time {} pv {}",
        info.depth,
        info.seldepth,
        info.multipv,
        info.score,
        info.bound,
        info.nodes,
        info.nps,
        info.hashfull,
        info.time.as_millis(),
        pv.join(" ")
    )
}
