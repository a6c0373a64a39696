//! What `tama perft`, `tama bench`, `tama search`, `tama tactics`, `tama gui`,
//! `tama datagen` and `tama train` do once their flags are read (`cli`):
//! each returns a one-line error for bad input (a FEN that does not parse),
//! which the caller prints with status 2.

use crate::cli::{
    tuning, BenchArgs, DatagenArgs, GuiArgs, PerftArgs, SearchArgs, TacticsArgs, TrainArgs,
};
use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};
use tama_engine::perft::{divide, perft, perft_routes};
use tama_engine::search::{SearchControl, SearchInfo, SearchLimits, Searcher};
use tama_engine::{Game, Position, Rules};
use tama_train::{datagen, train};

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
    let report = tama_engine::search::bench::run_with(
        a.depth,
        threads,
        &tuning(&a.set)?,
        &tama_engine::eval::Weights::DEFAULT,
    );
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

/// A progress line on stderr: rewritten in place on a terminal, one line
/// each otherwise (a log file).
fn progress_line(line: &str) {
    let mut err = std::io::stderr().lock();
    let _ = if err.is_terminal() {
        write!(err, "\r{line}\x1b[K")
    } else {
        writeln!(err, "{line}")
    };
    let _ = err.flush();
}

/// `tama datagen`: plays until the file holds `--games` games or Ctrl-C;
/// returns the exit status (130 after Ctrl-C, the file complete up to the
/// last finished game).
pub fn datagen_command(a: &DatagenArgs) -> Result<i32, String> {
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
        threads: a.threads as usize,
        hash_mb: a.hash as usize,
        weights: match &a.eval_file {
            Some(value) => Some(
                tama_protocol::options::read_weights(value)
                    .map_err(|e| format!("--eval-file {value}: {e}"))?,
            ),
            None => None,
        },
    };
    tama_match::signal::install();
    let s = datagen::run(
        &settings,
        &tama_match::signal::interrupted,
        &mut progress_line,
    )?;
    if std::io::stderr().is_terminal() {
        eprintln!();
    }
    println!(
        "{}: {} games, {} positions ({} games, {} positions new, {:.0} positions/s, {:.1} s){}",
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

/// `tama train`: fits the weights and writes them (or, with `--show`,
/// prints a weights file).
pub fn train_command(a: &TrainArgs) -> Result<(), String> {
    if let Some(path) = &a.show {
        print!("{}", train::show(path)?);
        return Ok(());
    }
    let out = a
        .out
        .clone()
        .ok_or("give the weights file to write: --out FILE")?;
    let settings = train::Settings {
        data: a.data.clone(),
        out,
        // Read first: a bad --init is refused before the data is read.
        init: match &a.init {
            Some(value) => Some((
                value.clone(),
                tama_protocol::options::read_weights(value)
                    .map_err(|e| format!("--init {value}: {e}"))?,
            )),
            None => None,
        },
        valid_percent: a.valid_percent,
        fit: tama_train::trainer::Settings {
            model: a.model,
            epochs: a.epochs as usize,
            lambda: a.lambda,
            learning_rate: a.lr,
            batch: a.batch as usize,
            l2: a.l2,
            threads: a.threads as usize,
            seed: a.seed,
            freeze_hand: a.freeze_hand,
            fixed: a.fix.iter().map(|f| (f.term, f.centi_men)).collect(),
        },
        command: std::env::args().collect::<Vec<_>>().join(" "),
    };
    let r = train::run(&settings, &mut |l| eprintln!("{l}"))?;
    println!(
        "{}: {} training + {} validation positions, K {:.1}, validation loss {:.6} -> {:.6} (epoch {}), {:.1} s",
        r.variant,
        r.train_positions,
        r.valid_positions,
        r.k,
        r.valid_loss_before,
        r.valid_loss_after,
        r.best_epoch,
        r.seconds
    );
    Ok(())
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
