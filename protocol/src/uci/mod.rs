//! The UCI dialect: the grammar of the UCI specification, with draughts
//! positions (FEN `W:Wa2,b2:Bc7`) and moves (`d3-d4`, `d4xd6xf6`).
//!
//! `parse` turns a line into a `Command` without touching any state (the
//! fuzz target and the randomized test call it); `handle` executes it.

mod parse;
mod report;

pub use parse::{
    build_game, parse, Command, GoArgs, PositionError, Start, SyntaxError, MAX_PERFT_DEPTH,
    MAX_TIME_MS,
};
pub use report::{display, legal_moves_text, option_line, UciReporter};

use crate::options::{definitions, Settings};
use crate::session::{Session, SetOptionError};
use crate::Flow;
use std::fmt;
use std::time::{Duration, Instant};
use tama_engine::notation::quote_short;
use tama_engine::perft::divide;
use tama_engine::search::{bench, SearchLimits, Tuning, MAX_DEPTH};
use tama_engine::{eval, Color, Game, MoveError};

/// Why a UCI line was not carried out; the state is as it was. `Display`
/// gives the text of the `info string error:` line.
#[derive(Debug)]
pub enum Error {
    Syntax(SyntaxError),
    Option(SetOptionError),
    Position(PositionError),
    /// `go` while a search runs.
    SearchRunning,
    /// A `searchmoves` move that is not legal here.
    SearchMove {
        text: String,
        error: MoveError,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Syntax(e) => write!(f, "{e}"),
            Error::Option(e) => write!(f, "{e}"),
            Error::Position(e) => write!(f, "{e}"),
            Error::SearchRunning => f.write_str(
                "a search is already running; this go is ignored (send stop first, then wait for bestmove)",
            ),
            Error::SearchMove { text, error } => {
                write!(f, "searchmoves {}: {error}", quote_short(text))
            }
        }
    }
}

impl std::error::Error for Error {}

impl From<SyntaxError> for Error {
    fn from(e: SyntaxError) -> Error {
        Error::Syntax(e)
    }
}

impl From<SetOptionError> for Error {
    fn from(e: SetOptionError) -> Error {
        Error::Option(e)
    }
}

impl From<PositionError> for Error {
    fn from(e: PositionError) -> Error {
        Error::Position(e)
    }
}

/// The limits of `go` with `a` in `game`; `analysis` is `UCI_AnalyseMode`.
fn limits_of(game: &Game, a: &GoArgs, analysis: bool) -> Result<SearchLimits, Error> {
    // Negative times count as 0; absurd ones are cut to a year, so that no
    // deadline computed from them can overflow.
    let ms = |v: i64| Duration::from_millis(v.clamp(0, MAX_TIME_MS) as u64);
    let mut limits = SearchLimits {
        depth: a.depth.map(|d| d.min(MAX_DEPTH)),
        nodes: a.nodes,
        movetime: a.movetime.map(ms),
        mate: a.mate.map(|n| n.min(MAX_DEPTH / 2)),
        infinite: a.infinite,
        ponder: a.ponder,
        analysis,
        ..SearchLimits::default()
    };
    limits.clock.time[Color::White as usize] = a.wtime.map(ms);
    limits.clock.time[Color::Black as usize] = a.btime.map(ms);
    limits.clock.increment[Color::White as usize] = a.winc.map(ms).unwrap_or_default();
    limits.clock.increment[Color::Black as usize] = a.binc.map(ms).unwrap_or_default();
    limits.clock.moves_to_go = a.movestogo;
    let pos = game.position();
    for m in &a.searchmoves {
        let mv = pos.parse_move(m).map_err(|error| Error::SearchMove {
            text: m.clone(),
            error,
        })?;
        if !limits.searchmoves.contains(&mv) {
            limits.searchmoves.push(mv);
        }
    }
    Ok(limits)
}

/// Executes one line. Errors are printed as `info string error: ...` and
/// leave the state as it was.
pub fn handle(session: &mut Session, line: &str) -> Flow {
    match parse(line) {
        Ok(cmd) => match execute(session, cmd) {
            Ok(flow) => flow,
            Err(e) => {
                session.error(&e.to_string());
                Flow::Continue
            }
        },
        Err(e) => {
            session.error(&e.to_string());
            Flow::Continue
        }
    }
}

/// `uci`: the engine's name, its options, `uciok`.
fn introduce(s: &Session) {
    s.line(&format!("id name Tama {}", env!("CARGO_PKG_VERSION")));
    s.line("id author The Tama developers");
    let defaults = Settings::default();
    for d in definitions() {
        s.line(&option_line(&d, &defaults.value_text(d.opt)));
    }
    s.line("uciok");
}

/// `go perft N`: the leaves below each move, then their sum.
fn perft(s: &Session, depth: u32) {
    let pos = *s.game().position();
    let started = Instant::now();
    let split = divide(&pos, depth, false);
    for (m, n) in &split.moves {
        s.line(&format!("{}: {n}", pos.move_text(m)));
    }
    s.line(&format!("Nodes searched: {}", split.total));
    if s.debug() {
        s.line(&format!(
            "info string perft time {} ms",
            started.elapsed().as_millis()
        ));
    }
}

/// `bench [DEPTH]`: the search's signature, as `tama bench` prints it,
/// with the `EvalFile` weights in use (the default ones give the signature),
/// so that a learned evaluation's speed is measured on the bench positions.
fn run_bench(s: &Session, depth: Option<u32>) {
    let depth = depth.unwrap_or(bench::DEFAULT_DEPTH);
    let report = bench::run_with(depth, 1, &Tuning::default(), s.weights());
    for l in &report.lines {
        s.line(l);
    }
    s.line(&format!("{} nodes {} nps", report.nodes, report.nps));
}

fn execute(s: &mut Session, cmd: Command) -> Result<Flow, Error> {
    match cmd {
        Command::Empty | Command::Register => {}
        Command::Uci => introduce(s),
        Command::Debug(on) => s.set_debug(on),
        Command::IsReady => {
            s.prepare();
            s.line("readyok");
        }
        Command::SetOption { name, value } => s.set_option(&name, value.as_deref())?,
        Command::UciNewGame => s.new_game(),
        Command::Position { start, moves } => {
            s.set_game(|rules| build_game(rules, &start, &moves))?;
        }
        Command::Go(args) => {
            if s.is_searching() {
                return Err(Error::SearchRunning);
            }
            let limits = limits_of(s.game(), &args, s.settings().analyse_mode)?;
            s.start_search(limits);
        }
        Command::Perft(depth) => perft(s, depth),
        Command::Stop => s.stop(),
        Command::PonderHit => s.ponder_hit(),
        Command::Quit => return Ok(Flow::Quit),
        Command::Display => s.line(&display(s.game(), s.settings(), s.search_faults())),
        Command::LegalMoves => s.line(&legal_moves_text(s.game())),
        Command::Eval => {
            let pos = s.game().position();
            s.line(&eval::breakdown_with(pos, s.weights()).to_string());
        }
        Command::Bench(depth) => run_bench(s, depth),
    }
    Ok(Flow::Continue)
}
