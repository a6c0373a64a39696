//! The UCI dialect: the grammar of the UCI specification, with draughts
//! positions (FEN `W:Wa2,b2:Bc7`) and moves (`d3-d4`, `d4xd6xf6`).
//!
//! `parse` turns a line into a `Command` without touching any state (the
//! fuzz target and the randomized test call it); `handle` executes it.

use crate::options::{definitions, Kind, OptionDef, Settings, UCI_EMPTY};
use crate::session::{checked_line, Reporter, Session, SetOptionError};
use crate::text::one_line;
use crate::Flow;
use std::fmt;
use std::time::{Duration, Instant};
use tama_engine::movegen::{capture_routes, legal_moves};
use tama_engine::notation::quote_short;
use tama_engine::perft::divide;
use tama_engine::search::{
    bench, Bound, Score, SearchInfo, SearchLimits, SearchOutcome, Tuning, MAX_DEPTH,
};
use tama_engine::{eval, Color, FenError, Game, GameStatus, MoveError, Piece, Position, Square};

/// Where a `position` command starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    StartPos,
    Fen(String),
}

/// The arguments of `go` (times in milliseconds, as UCI sends them).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoArgs {
    pub wtime: Option<i64>,
    pub btime: Option<i64>,
    pub winc: Option<i64>,
    pub binc: Option<i64>,
    pub movestogo: Option<u32>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<i64>,
    /// `go mate N`: a win in at most N moves.
    pub mate: Option<u32>,
    pub infinite: bool,
    pub ponder: bool,
    pub searchmoves: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// A blank line: nothing to do.
    Empty,
    Uci,
    Debug(bool),
    IsReady,
    SetOption {
        name: String,
        value: Option<String>,
    },
    Register,
    UciNewGame,
    Position {
        start: Start,
        moves: Vec<String>,
    },
    Go(GoArgs),
    Perft(u32),
    Stop,
    PonderHit,
    Quit,
    Display,
    LegalMoves,
    Eval,
    Bench(Option<u32>),
}

/// The longest time (ms) taken from `go`: a year.
pub const MAX_TIME_MS: i64 = 365 * 24 * 3600 * 1000;

/// The deepest `go perft` / `bench` accepted.
pub const MAX_PERFT_DEPTH: u32 = 64;

const GO_KEYWORDS: &[&str] = &[
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "movetime",
    "infinite",
    "ponder",
    "searchmoves",
    "mate",
];

/// A line the UCI grammar does not take. `Display` says what was wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SyntaxError {
    /// A command that takes no arguments, given some.
    TakesNoArguments {
        command: String,
        got: String,
    },
    /// A key with no number after it.
    NeedsNumber(String),
    /// A key with something other than a whole number after it.
    NotANumber {
        key: String,
        got: String,
    },
    /// A command written other than its fixed form; the text says how.
    Usage(&'static str),
    /// `bench` deeper than `MAX_PERFT_DEPTH`, or 0.
    BenchDepth,
    /// `go perft` deeper than `MAX_PERFT_DEPTH`.
    PerftDepth,
    /// `setoption name X value` with nothing after `value`.
    EmptyValue(String),
    /// Something other than `moves` after a `position`'s start.
    ExpectedMoves(String),
    UnknownGoArgument(String),
    UnknownCommand(String),
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SyntaxError::TakesNoArguments { command, got } => {
                write!(f, "{command} takes no arguments, got {}", quote_short(got))
            }
            SyntaxError::NeedsNumber(key) => write!(f, "{key} needs a number"),
            SyntaxError::NotANumber { key, got } => {
                write!(f, "{key} needs a whole number, got {}", quote_short(got))
            }
            SyntaxError::Usage(text) => f.write_str(text),
            SyntaxError::BenchDepth => write!(f, "bench depth must be 1..{MAX_PERFT_DEPTH}"),
            SyntaxError::PerftDepth => write!(f, "perft depth must be 0..{MAX_PERFT_DEPTH}"),
            SyntaxError::EmptyValue(name) => write!(f, "setoption {name}: value is empty"),
            SyntaxError::ExpectedMoves(got) => write!(f, "expected moves, got {}", quote_short(got)),
            SyntaxError::UnknownGoArgument(key) => {
                write!(f, "unknown go argument {}", quote_short(key))
            }
            SyntaxError::UnknownCommand(cmd) => write!(
                f,
                "unknown command {}; commands: uci isready setoption ucinewgame position go stop ponderhit quit d legalmoves eval bench",
                quote_short(cmd)
            ),
        }
    }
}

impl std::error::Error for SyntaxError {}

/// Why a `position` command was refused; the position is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    Fen(FenError),
    /// The move at `number` (from 1) is not legal or not a move.
    Move {
        number: usize,
        text: String,
        error: MoveError,
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Fen(e) => write!(f, "{e}"),
            PositionError::Move {
                number,
                text,
                error,
            } => write!(
                f,
                "move {number} ({}) rejected: {error}; position unchanged",
                quote_short(text)
            ),
        }
    }
}

impl std::error::Error for PositionError {}

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

fn number<T: std::str::FromStr>(key: &str, value: Option<&&str>) -> Result<T, SyntaxError> {
    let v = value.ok_or_else(|| SyntaxError::NeedsNumber(key.to_string()))?;
    v.parse().map_err(|_| SyntaxError::NotANumber {
        key: key.to_string(),
        got: v.to_string(),
    })
}

/// Parses one input line. Errors say what was wrong.
pub fn parse(line: &str) -> Result<Command, SyntaxError> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let Some((&cmd, rest)) = tokens.split_first() else {
        return Ok(Command::Empty);
    };
    let no_args = |c: Command| {
        if rest.is_empty() {
            Ok(c)
        } else {
            Err(SyntaxError::TakesNoArguments {
                command: cmd.to_string(),
                got: rest.join(" "),
            })
        }
    };
    match cmd {
        "uci" => no_args(Command::Uci),
        "isready" => no_args(Command::IsReady),
        "ucinewgame" => no_args(Command::UciNewGame),
        "stop" => no_args(Command::Stop),
        "ponderhit" => no_args(Command::PonderHit),
        "quit" => no_args(Command::Quit),
        "d" => no_args(Command::Display),
        "legalmoves" => no_args(Command::LegalMoves),
        "eval" => no_args(Command::Eval),
        "register" => Ok(Command::Register),
        "debug" => match rest {
            [] | ["on"] => Ok(Command::Debug(true)),
            ["off"] => Ok(Command::Debug(false)),
            _ => Err(SyntaxError::Usage("debug takes on or off")),
        },
        "setoption" => parse_setoption(rest),
        "position" => parse_position(rest),
        "go" => parse_go(rest),
        "bench" => match rest {
            [] => Ok(Command::Bench(None)),
            [d] => {
                let d: u32 = number("bench depth", Some(d))?;
                if d == 0 || d > MAX_PERFT_DEPTH {
                    return Err(SyntaxError::BenchDepth);
                }
                Ok(Command::Bench(Some(d)))
            }
            _ => Err(SyntaxError::Usage(
                "bench takes at most one argument, the depth",
            )),
        },
        _ => Err(SyntaxError::UnknownCommand(cmd.to_string())),
    }
}

fn parse_setoption(rest: &[&str]) -> Result<Command, SyntaxError> {
    if rest.first() != Some(&"name") {
        return Err(SyntaxError::Usage(
            "expected setoption name <id> [value <x>]",
        ));
    }
    let rest = &rest[1..];
    let (name, value) = match rest.iter().position(|t| *t == "value") {
        Some(i) => (&rest[..i], Some(rest[i + 1..].join(" "))),
        None => (rest, None),
    };
    if name.is_empty() {
        return Err(SyntaxError::Usage("setoption needs an option name"));
    }
    if value.as_deref() == Some("") {
        return Err(SyntaxError::EmptyValue(name.join(" ")));
    }
    Ok(Command::SetOption {
        name: name.join(" "),
        value,
    })
}

fn parse_position(rest: &[&str]) -> Result<Command, SyntaxError> {
    let (start, after) = match rest.split_first() {
        Some((&"startpos", after)) => (Start::StartPos, after),
        Some((&"fen", after)) => {
            let end = after
                .iter()
                .position(|t| *t == "moves")
                .unwrap_or(after.len());
            if end == 0 {
                return Err(SyntaxError::Usage(
                    "position fen needs a FEN, e.g. W:Wa2,b2:Bc7",
                ));
            }
            (Start::Fen(after[..end].join(" ")), &after[end..])
        }
        _ => {
            return Err(SyntaxError::Usage(
                "expected position startpos|fen <FEN> [moves <m1> <m2> ...]",
            ))
        }
    };
    let moves = match after.split_first() {
        None => Vec::new(),
        Some((&"moves", m)) => m.iter().map(|s| s.to_string()).collect(),
        Some((t, _)) => return Err(SyntaxError::ExpectedMoves(t.to_string())),
    };
    Ok(Command::Position { start, moves })
}

fn parse_go(rest: &[&str]) -> Result<Command, SyntaxError> {
    if rest.first() == Some(&"perft") {
        return match rest {
            [_, d] => {
                let d: u32 = number("perft", Some(d))?;
                if d > MAX_PERFT_DEPTH {
                    return Err(SyntaxError::PerftDepth);
                }
                Ok(Command::Perft(d))
            }
            _ => Err(SyntaxError::Usage("expected go perft <depth>")),
        };
    }
    let mut a = GoArgs::default();
    let mut i = 0;
    while i < rest.len() {
        let key = rest[i];
        let v = rest.get(i + 1);
        match key {
            "wtime" => a.wtime = Some(number(key, v)?),
            "btime" => a.btime = Some(number(key, v)?),
            "winc" => a.winc = Some(number(key, v)?),
            "binc" => a.binc = Some(number(key, v)?),
            "movestogo" => a.movestogo = Some(number(key, v)?),
            "depth" => a.depth = Some(number(key, v)?),
            "nodes" => a.nodes = Some(number(key, v)?),
            "movetime" => a.movetime = Some(number(key, v)?),
            "infinite" => {
                a.infinite = true;
                i += 1;
                continue;
            }
            "ponder" => {
                a.ponder = true;
                i += 1;
                continue;
            }
            "searchmoves" => {
                i += 1;
                while i < rest.len() && !GO_KEYWORDS.contains(&rest[i]) {
                    a.searchmoves.push(rest[i].to_string());
                    i += 1;
                }
                if a.searchmoves.is_empty() {
                    return Err(SyntaxError::Usage("searchmoves needs at least one move"));
                }
                continue;
            }
            "mate" => a.mate = Some(number(key, v)?),
            _ => return Err(SyntaxError::UnknownGoArgument(key.to_string())),
        }
        i += 2;
    }
    if a.depth == Some(0) {
        return Err(SyntaxError::Usage("depth must be at least 1"));
    }
    if a.mate == Some(0) {
        return Err(SyntaxError::Usage("mate must be at least 1 move"));
    }
    if a.movestogo == Some(0) {
        return Err(SyntaxError::Usage("movestogo must be at least 1"));
    }
    Ok(Command::Go(a))
}

/// Builds the game a `position` command describes, or says what is wrong.
pub fn build_game(
    rules: tama_engine::Rules,
    start: &Start,
    moves: &[String],
) -> Result<Game, PositionError> {
    let pos = match start {
        Start::StartPos => Position::startpos(rules),
        Start::Fen(f) => Position::from_fen(f, rules).map_err(PositionError::Fen)?,
    };
    let mut game = Game::new(pos);
    for (i, m) in moves.iter().enumerate() {
        game.play_text(m).map_err(|error| PositionError::Move {
            number: i + 1,
            text: m.clone(),
            error,
        })?;
    }
    Ok(game)
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

/// Formats search output the UCI way.
pub struct UciReporter;

fn score_text(score: Score, bound: Bound) -> String {
    let s = match score {
        Score::Cp(cp) => format!("score cp {cp}"),
        Score::Mate(n) => format!("score mate {n}"),
    };
    match bound {
        Bound::Exact => s,
        Bound::Lower => s + " lowerbound",
        Bound::Upper => s + " upperbound",
    }
}

impl Reporter for UciReporter {
    fn info(&self, root: &Position, i: &SearchInfo) -> Option<String> {
        let mut s = format!(
            "info depth {} seldepth {} multipv {} {} nodes {} nps {} hashfull {} tbhits {} time {}",
            i.depth,
            i.seldepth,
            i.multipv,
            score_text(i.score, i.bound),
            i.nodes,
            i.nps,
            i.hashfull,
            i.tbhits,
            i.time.as_millis()
        );
        let line = checked_line(root, &i.pv);
        if !line.is_empty() {
            s.push_str(" pv");
            for (p, m) in &line {
                s.push(' ');
                s.push_str(&p.move_text(m));
            }
        }
        Some(s)
    }

    fn error(&self, msg: &str) -> String {
        format!("info string error: {}", one_line(msg))
    }

    fn note(&self, msg: &str) -> String {
        format!("info string {}", one_line(msg))
    }

    fn remark(&self, msg: &str) -> Option<String> {
        Some(self.note(msg))
    }

    fn best(&self, root: &Position, o: &SearchOutcome) -> String {
        match o.best_move {
            None => "bestmove (none)".to_string(),
            Some(m) => {
                let mut s = format!("bestmove {}", root.move_text(&m));
                if let Some(p) = o.ponder_move {
                    s.push_str(&format!(" ponder {}", root.play(&m).move_text(&p)));
                }
                s
            }
        }
    }
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

/// The `option name ...` line `uci` prints for `d` (`default`: its value in a new engine).
pub fn option_line(d: &OptionDef, default: &str) -> String {
    let name = d.uci;
    match &d.kind {
        Kind::Spin { min, max } => {
            format!("option name {name} type spin default {default} min {min} max {max}")
        }
        Kind::Check => format!("option name {name} type check default {default}"),
        Kind::Combo { values } => {
            let vars: Vec<String> = values.iter().map(|v| format!("var {v}")).collect();
            format!(
                "option name {name} type combo default {default} {}",
                vars.join(" ")
            )
        }
        Kind::Button => format!("option name {name} type button"),
        Kind::Text => {
            let default = if default.is_empty() {
                UCI_EMPTY
            } else {
                default
            };
            format!("option name {name} type string default {default}")
        }
    }
}

/// `uci`: the engine's name, its options, `uciok`.
fn introduce(s: &Session) {
    s.out
        .line(&format!("id name Tama {}", env!("CARGO_PKG_VERSION")));
    s.out.line("id author The Tama developers");
    let defaults = Settings::default();
    for d in definitions() {
        s.out.line(&option_line(&d, &defaults.value_text(d.opt)));
    }
    s.out.line("uciok");
}

/// `go perft N`: the leaves below each move, then their sum.
fn perft(s: &Session, depth: u32) {
    let pos = *s.game.position();
    let started = Instant::now();
    let split = divide(&pos, depth, false);
    for (m, n) in &split.moves {
        s.out.line(&format!("{}: {n}", pos.move_text(m)));
    }
    s.out.line(&format!("Nodes searched: {}", split.total));
    if s.debug {
        s.out.line(&format!(
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
        s.out.line(l);
    }
    s.out
        .line(&format!("{} nodes {} nps", report.nodes, report.nps));
}

fn execute(s: &mut Session, cmd: Command) -> Result<Flow, Error> {
    match cmd {
        Command::Empty | Command::Register => {}
        Command::Uci => introduce(s),
        Command::Debug(on) => s.debug = on,
        Command::IsReady => {
            s.prepare();
            s.out.line("readyok");
        }
        Command::SetOption { name, value } => s.set_option(&name, value.as_deref())?,
        Command::UciNewGame => s.new_game(),
        Command::Position { start, moves } => {
            s.game = build_game(s.settings.rules(), &start, &moves)?;
        }
        Command::Go(args) => {
            if s.is_searching() {
                return Err(Error::SearchRunning);
            }
            let limits = limits_of(&s.game, &args, s.settings.analyse_mode)?;
            s.start_search(limits);
        }
        Command::Perft(depth) => perft(s, depth),
        Command::Stop => s.stop(),
        Command::PonderHit => s.ponder_hit(),
        Command::Quit => return Ok(Flow::Quit),
        Command::Display => s
            .out
            .line(&display(&s.game, &s.settings, s.search_faults())),
        Command::LegalMoves => s.out.line(&legal_moves_text(&s.game)),
        Command::Eval => {
            let pos = s.game.position();
            s.out
                .line(&eval::breakdown_with(pos, s.weights()).to_string());
        }
        Command::Bench(depth) => run_bench(s, depth),
    }
    Ok(Flow::Continue)
}

/// The `legalmoves` command, for a GUI that implements no rule itself: one
/// `legalmove <route> [captures <sq>..] [promotes]` line per way of playing
/// each legal move (every route of a capture, its victims in jump order),
/// then `legalmoves <n> state <state> fen <FEN>` with n distinct moves.
pub fn legal_moves_text(game: &Game) -> String {
    let pos = game.position();
    let legal = legal_moves(pos);
    let promotes = |yes: bool| if yes { " promotes" } else { "" };
    let mut out = String::new();
    if legal.first().is_some_and(|m| m.is_capture()) {
        for r in capture_routes(pos) {
            let victims: Vec<String> = r.victims().iter().map(|v| v.to_string()).collect();
            out.push_str(&format!(
                "legalmove {} captures {}{}\n",
                r.text(),
                victims.join(" "),
                promotes(r.mv.promotes)
            ));
        }
    } else {
        for m in &legal {
            out.push_str(&format!(
                "legalmove {}{}\n",
                pos.move_text(m),
                promotes(m.promotes)
            ));
        }
    }
    let state = match game.status() {
        GameStatus::Ongoing => "ongoing".to_string(),
        GameStatus::Won(c) => format!("won-by-{}", c.name()),
        GameStatus::DrawByRepetition => "drawn-by-repetition".to_string(),
    };
    out.push_str(&format!(
        "legalmoves {} state {state} fen {}",
        legal.len(),
        pos.fen()
    ));
    out
}

/// The `d` command: the board, FEN, side to move, rules, legal moves, state,
/// how many searches of the session failed (`faults`), the value of every
/// option but the buttons, and last the game's state.
pub fn display(game: &Game, settings: &Settings, faults: u64) -> String {
    let pos = game.position();
    let mut s = String::from("   +-----------------+\n");
    for rank in (0..8u8).rev() {
        s.push_str(&format!(" {} |", rank + 1));
        for file in 0..8u8 {
            let sq = Square::from_coords(file, rank).expect("on the board");
            let c = pos.piece_at(sq).map_or('.', Piece::letter);
            s.push(' ');
            s.push(c);
        }
        s.push_str(" |\n");
    }
    s.push_str("   +-----------------+\n     a b c d e f g h\n");
    let us = pos.side_to_move();
    s.push_str(&format!("Fen: {}\n", pos.fen()));
    s.push_str(&format!("Side to move: {}\n", us.name()));
    let r = pos.rules();
    s.push_str(&format!(
        "Rules: Variant {} CaptureRemoval {} MidCapturePromotion {}\n",
        r.variant, r.capture_removal, r.mid_capture_promotion
    ));
    let legal = legal_moves(pos);
    let names: Vec<String> = legal.iter().map(|m| pos.move_text(m)).collect();
    s.push_str(&format!(
        "Legal moves ({}): {}\n",
        names.len(),
        names.join(" ")
    ));
    s.push_str(&format!(
        "Moves played: {}, repetitions of this position: {}\n",
        game.moves().len(),
        game.repetitions()
    ));
    let state = match game.status() {
        GameStatus::Ongoing => "ongoing".to_string(),
        GameStatus::Won(c) => format!(
            "lost for {} (no legal move), won by {}",
            us.name(),
            c.name()
        ),
        GameStatus::DrawByRepetition => "threefold repetition (draw)".to_string(),
    };
    s.push_str(&format!(
        "Search faults: {faults} (searches that failed and were answered with the first legal move)\n"
    ));
    for d in definitions() {
        if d.kind != Kind::Button {
            let value = settings.value_text(d.opt);
            s.push_str(&format!("Option {}: {value}\n", d.uci));
        }
    }
    s.push_str(&format!("Game state: {state}"));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_grammar() {
        assert_eq!(parse("  \t "), Ok(Command::Empty));
        assert_eq!(parse("uci"), Ok(Command::Uci));
        assert_eq!(
            parse("setoption name Move Overhead value 100"),
            Ok(Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("100".into())
            })
        );
        assert_eq!(
            parse("setoption name Clear Hash"),
            Ok(Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            })
        );
        assert_eq!(
            parse("position fen W:Wa2:Bh7 moves a2-a3"),
            Ok(Command::Position {
                start: Start::Fen("W:Wa2:Bh7".into()),
                moves: vec!["a2-a3".into()]
            })
        );
        let Ok(Command::Go(g)) = parse(
            "go wtime 1000 btime -5 winc 10 binc 10 movestogo 5 searchmoves d3-d4 a3-a4 depth 3",
        ) else {
            panic!()
        };
        assert_eq!(g.wtime, Some(1000));
        assert_eq!(g.btime, Some(-5));
        assert_eq!(g.searchmoves, vec!["d3-d4", "a3-a4"]);
        assert_eq!(g.depth, Some(3));
        assert_eq!(parse("go perft 3"), Ok(Command::Perft(3)));
        for bad in [
            "go depth",
            "go depth x",
            "go depth 0",
            "go fast",
            "go perft",
            "go perft 99",
            "position",
            "position fen",
            "position startpos d3-d4",
            "setoption Hash 3",
            "setoption name Hash value",
            "uci now",
            "legalmoves now",
            "bench 0",
            "hello",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn rejected_position_names_the_move() {
        let e = build_game(
            Default::default(),
            &Start::StartPos,
            &["d3-d4".into(), "d4-d5".into()],
        )
        .unwrap_err();
        assert!(e.to_string().contains("move 2"), "{e}");
    }
}
