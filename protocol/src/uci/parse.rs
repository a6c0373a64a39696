//! The UCI grammar: a line to a `Command`, without touching any state
//! (the fuzz target and the randomized test call `parse`), and the game a
//! `position` command describes.

use std::fmt;
use tama_engine::notation::quote_short;
use tama_engine::{FenError, Game, MoveError, Position};

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
        // Nothing after `value`: the empty string (a `string` option's
        // "none"; the option says whether it takes it).
        assert_eq!(
            parse("setoption name Debug Log File value"),
            Ok(Command::SetOption {
                name: "Debug Log File".into(),
                value: Some("".into())
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
