//! What `tama perft`, `tama bench`, `tama search`, `tama tactics` and `tama gui` do once their flags
//! are read (`cli`): each returns a one-line error for bad input (a FEN
//! that does not parse), which the caller prints with status 2.

use crate::cli::{tuning, BenchArgs, GuiArgs, PerftArgs, SearchArgs, TacticsArgs};
use std::io::Write;
use std::time::{Duration, Instant};
use tama_engine::perft::{divide, perft, perft_routes};
use tama_engine::search::{SearchControl, SearchInfo, SearchLimits, Searcher};
use tama_engine::{Game, Position, Rules};

/// The start position, or the given FEN under these rules.
fn position(fen: Option<&str>, rules: Rules) -> Result<Position, String> {
    match fen {
        Some(f) => Position::from_fen(f, rules).map_err(|e| e.to_string()),
        None => Ok(Position::startpos(rules)),
    }
}

/// `tama perft`: the node count last (`Nodes searched: N`), the speed on
/// stderr.
pub fn perft_command(a: &PerftArgs) -> Result<(), String> {
    let pos = position(a.fen.as_deref(), a.rules.rules())?;
    let started = Instant::now();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let total = if a.divide {
        let split = divide(&pos, a.depth, a.routes);
        for (mv, n) in &split.moves {
            let _ = writeln!(out, "{}: {n}", pos.move_text(mv));
        }
        split.total
    } else if a.routes {
        perft_routes(&pos, a.depth)
    } else {
        perft(&pos, a.depth)
    };
    let elapsed = started.elapsed();
    let _ = writeln!(out, "Nodes searched: {total}");
    eprintln!(
        "info time {} ms, {:.1} Mnodes/s",
        elapsed.as_millis(),
        total as f64 / elapsed.as_secs_f64().max(1e-9) / 1e6
    );
    Ok(())
}

/// `tama bench`: the search's signature. One line per position, then
/// exactly `<nodes> nodes <nps> nps` as the last line.
pub fn bench_command(a: &BenchArgs) -> Result<(), String> {
    let threads = a.threads.max(1);
    let report = tama_engine::search::bench::run_with(a.depth, threads, &tuning(&a.set)?);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for line in &report.lines {
        let _ = writeln!(out, "{line}");
    }
    eprintln!(
        "info depth {} threads {threads} time {} ms busiest-thread nodes {}",
        a.depth,
        report.time.as_millis(),
        report.critical_nodes
    );
    let _ = writeln!(out, "{} nodes {} nps", report.nodes, report.nps);
    Ok(())
}

/// `tama search`: one search, printing the progress lines and the best
/// move (for measurements and debugging).
pub fn search_command(a: &SearchArgs) -> Result<(), String> {
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
    *searcher.tuning_mut() = tuning(&a.set)?;
    let o = searcher.options_mut();
    o.threads = a.threads.max(1);
    o.multipv = a.multipv.max(1);
    o.baseline = a.baseline;
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

/// `tama gui`: the board server, until the process is ended (docs/gui.md).
pub fn gui_command(a: &GuiArgs) -> Result<(), String> {
    tama::gui::run(a.port, !a.no_open)
}

/// `tama tactics`: the shot suite's score, a line per variant and budget
/// as each is done (`tactics`).
pub fn tactics_command(a: &TacticsArgs) -> Result<(), String> {
    let stdout = std::io::stdout();
    crate::tactics::run(a, &mut |line| {
        let _ = writeln!(stdout.lock(), "{line}");
    })
}
