//! The Hub grammar: a line to a `Command`, without touching any state,
//! each argument read by name with its own error, and the game a `pos`
//! command describes.

use std::fmt;
use tama_engine::notation::hub::{
    decode_position, parse_move, tokenize, HubLineError, HubPositionError, Line,
};
use tama_engine::notation::quote_short;
use tama_engine::{Game, MoveError, Position, Rules};

/// What `level` sets (times in seconds, as Hub sends them).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Level {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub move_time: Option<f64>,
    pub moves: Option<u32>,
    pub time: Option<f64>,
    pub inc: Option<f64>,
    pub infinite: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoMode {
    Think,
    Ponder,
    Analyze,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    Empty,
    Hub,
    SetParam {
        name: String,
        value: Option<String>,
    },
    Init,
    NewGame,
    Pos {
        pos: Option<String>,
        moves: Vec<String>,
    },
    Level(Level),
    Go(GoMode),
    Ping,
    PonderHit,
    Stop,
    Quit,
}

/// A line the Hub grammar does not take. `Display` says what was wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SyntaxError {
    /// Not a line of `name` / `name=value` words.
    Line(HubLineError),
    UnknownCommand(String),
    UnknownArgument {
        command: String,
        key: String,
    },
    /// `key` given bare where it needs `key=value`.
    NeedsValue {
        command: String,
        key: String,
    },
    /// A flag given a value.
    TakesNoValue {
        command: String,
        key: String,
    },
    NotWhole {
        command: String,
        key: String,
        got: String,
    },
    NotSeconds {
        command: String,
        key: String,
        got: String,
    },
    /// `pos=` that is not a Hub position.
    Position(HubPositionError),
    /// A command written other than its fixed form; the text says how.
    Usage(&'static str),
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SyntaxError::Line(e) => write!(f, "{e}"),
            SyntaxError::UnknownCommand(cmd) => write!(
                f,
                "unknown command {}; commands: hub set-param init new-game pos level go ping ponder-hit stop quit",
                quote_short(cmd)
            ),
            SyntaxError::UnknownArgument { command, key } => {
                write!(f, "{command}: unknown argument {}", quote_short(key))
            }
            SyntaxError::NeedsValue { command, key } => {
                write!(f, "{command}: {key} needs a value ({key}=...)")
            }
            SyntaxError::TakesNoValue { command, key } => {
                write!(f, "{command}: {key} takes no value")
            }
            SyntaxError::NotWhole { command, key, got } => write!(
                f,
                "{command}: {key} needs a whole number, got {}",
                quote_short(got)
            ),
            SyntaxError::NotSeconds { command, key, got } => write!(
                f,
                "{command}: {key} needs a number of seconds, got {}",
                quote_short(got)
            ),
            SyntaxError::Position(e) => write!(f, "{e}"),
            SyntaxError::Usage(text) => f.write_str(text),
        }
    }
}

impl std::error::Error for SyntaxError {}

/// Why a `pos` command was refused; the position is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    Position(HubPositionError),
    /// The move at `number` (from 1) is not legal or not a move.
    Move {
        number: usize,
        error: MoveError,
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Position(e) => write!(f, "{e}"),
            PositionError::Move { number, error } => write!(f, "move {number}: {error}"),
        }
    }
}

impl std::error::Error for PositionError {}

/// Parses one line into a command (no state is touched).
pub fn parse(text: &str) -> Result<Command, SyntaxError> {
    let line = tokenize(text).map_err(SyntaxError::Line)?;
    let cmd = line.command.as_str();
    let allowed: &[&str] = match cmd {
        "" => return Ok(Command::Empty),
        "hub" | "init" | "new-game" | "ping" | "ponder-hit" | "stop" | "quit" => &[],
        "set-param" => &["name", "value"],
        "pos" => &["start", "pos", "moves"],
        "level" => &[
            "depth",
            "nodes",
            "move-time",
            "moves",
            "time",
            "inc",
            "infinite",
            "ponder",
        ],
        "go" => &["think", "ponder", "analyze"],
        _ => return Err(SyntaxError::UnknownCommand(cmd.to_string())),
    };
    for (k, _) in &line.args {
        if !allowed.contains(&k.as_str()) {
            return Err(SyntaxError::UnknownArgument {
                command: cmd.to_string(),
                key: k.clone(),
            });
        }
    }
    let args = Args(&line);
    Ok(match cmd {
        "hub" => Command::Hub,
        "init" => Command::Init,
        "new-game" => Command::NewGame,
        "ping" => Command::Ping,
        "ponder-hit" => Command::PonderHit,
        "stop" => Command::Stop,
        "quit" => Command::Quit,
        "set-param" => Command::SetParam {
            name: args
                .value("name")?
                .ok_or(SyntaxError::Usage("set-param needs name=<param>"))?
                .to_string(),
            value: args.value("value")?.map(str::to_string),
        },
        "pos" => parse_pos(&args)?,
        "level" => Command::Level(parse_level(&args)?),
        "go" => Command::Go(parse_go(&args)?),
        _ => unreachable!("checked above"),
    })
}

/// The arguments of one command line, read by name (the last one given
/// counts), each kind with its own error message.
struct Args<'a>(&'a Line);

impl Args<'_> {
    fn get(&self, k: &str) -> Option<&Option<String>> {
        self.0
            .args
            .iter()
            .rev()
            .find(|(n, _)| n == k)
            .map(|(_, v)| v)
    }

    /// `k=value`, if given.
    fn value(&self, k: &str) -> Result<Option<&str>, SyntaxError> {
        match self.get(k) {
            None => Ok(None),
            Some(Some(v)) => Ok(Some(v.as_str())),
            Some(None) => Err(SyntaxError::NeedsValue {
                command: self.0.command.clone(),
                key: k.to_string(),
            }),
        }
    }

    /// A bare flag `k`: whether it is there.
    fn flag(&self, k: &str) -> Result<bool, SyntaxError> {
        match self.get(k) {
            None => Ok(false),
            Some(None) => Ok(true),
            Some(Some(_)) => Err(SyntaxError::TakesNoValue {
                command: self.0.command.clone(),
                key: k.to_string(),
            }),
        }
    }

    /// `k=N`, a whole number (a fraction is cut; a huge one saturates).
    fn whole(&self, k: &str) -> Result<Option<u64>, SyntaxError> {
        self.value(k)?
            .map(|v| {
                v.parse::<u64>()
                    .ok()
                    .or_else(|| {
                        v.parse::<f64>()
                            .ok()
                            .filter(|f| f.is_finite() && *f >= 0.0)
                            .map(|f| f.min(1e18) as u64)
                    })
                    .ok_or_else(|| SyntaxError::NotWhole {
                        command: self.0.command.clone(),
                        key: k.to_string(),
                        got: v.to_string(),
                    })
            })
            .transpose()
    }

    /// `k=S`, seconds.
    fn seconds(&self, k: &str) -> Result<Option<f64>, SyntaxError> {
        self.value(k)?
            .map(|v| {
                v.parse::<f64>()
                    .ok()
                    .filter(|f| !f.is_nan())
                    .ok_or_else(|| SyntaxError::NotSeconds {
                        command: self.0.command.clone(),
                        key: k.to_string(),
                        got: v.to_string(),
                    })
            })
            .transpose()
    }
}

/// `pos [start | pos=<position>] [moves="<m1> <m2> ..."]`.
fn parse_pos(args: &Args) -> Result<Command, SyntaxError> {
    let start = args.flag("start")?;
    let pos = args.value("pos")?.map(str::to_string);
    if start && pos.is_some() {
        return Err(SyntaxError::Usage("pos: give start or pos=..., not both"));
    }
    if let Some(p) = &pos {
        decode_position(p, Rules::default()).map_err(SyntaxError::Position)?;
    }
    let moves = args
        .value("moves")?
        .map(|m| m.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default();
    Ok(Command::Pos { pos, moves })
}

/// `level [depth=N] [nodes=N] [move-time=S] [moves=N time=S inc=S] [infinite]`.
fn parse_level(args: &Args) -> Result<Level, SyntaxError> {
    let saturate = |n: u64| n.min(u32::MAX as u64) as u32;
    let level = Level {
        depth: args.whole("depth")?.map(saturate),
        nodes: args.whole("nodes")?,
        move_time: args.seconds("move-time")?,
        moves: args.whole("moves")?.map(saturate),
        time: args.seconds("time")?,
        inc: args.seconds("inc")?,
        infinite: args.flag("infinite")?,
    };
    // `ponder` is accepted and means nothing here (`go ponder` does).
    args.flag("ponder")?;
    if level.depth == Some(0) {
        return Err(SyntaxError::Usage("level: depth must be at least 1"));
    }
    Ok(level)
}

/// `go [think | ponder | analyze]` (think when none is given).
fn parse_go(args: &Args) -> Result<GoMode, SyntaxError> {
    let mut modes = Vec::new();
    for (k, mode) in [
        ("think", GoMode::Think),
        ("ponder", GoMode::Ponder),
        ("analyze", GoMode::Analyze),
    ] {
        if args.flag(k)? {
            modes.push(mode);
        }
    }
    match modes.as_slice() {
        [m] => Ok(*m),
        [] => Ok(GoMode::Think),
        _ => Err(SyntaxError::Usage("go: give one of think, ponder, analyze")),
    }
}

/// Builds the game a `pos` command describes.
pub fn build_game(
    rules: Rules,
    pos: Option<&str>,
    moves: &[String],
) -> Result<Game, PositionError> {
    let start = match pos {
        Some(p) => decode_position(p, rules).map_err(PositionError::Position)?,
        None => Position::startpos(rules),
    };
    let mut game = Game::new(start);
    for (i, m) in moves.iter().enumerate() {
        let mv = parse_move(game.position(), m).map_err(|error| PositionError::Move {
            number: i + 1,
            error,
        })?;
        game.play(mv);
    }
    Ok(game)
}
