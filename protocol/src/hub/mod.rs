//! The Hub dialect: Scan's Hub protocol version 2, on the 8x8 board the way
//! pydraughts' `HubEngine` speaks it for its `turkish` variant: the
//! commands, what they do, and how search output is written. The notation
//! itself (lines, squares, moves, positions) is `tama_engine::notation::hub`.

mod parse;
mod report;

pub use parse::{build_game, parse, Command, GoMode, Level, PositionError, SyntaxError};
pub use report::{score_text, HubReporter};

use crate::options::definitions;
use crate::session::{Session, SetOptionError};
use crate::Flow;
use report::param_line;
use std::fmt;
use std::time::Duration;
use tama_engine::notation::quote_short;
use tama_engine::search::{SearchLimits, MAX_DEPTH};
use tama_engine::Color;

/// Why a Hub line was not carried out; the state is as it was. `Display`
/// gives the text of the `error message="..."` line.
#[derive(Debug)]
pub enum Error {
    Syntax(SyntaxError),
    /// `set-param` of a name that is no Hub parameter.
    UnknownParameter(String),
    Option(SetOptionError),
    Position(PositionError),
    /// `go` while a search runs.
    SearchRunning,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Syntax(e) => write!(f, "{e}"),
            Error::UnknownParameter(name) => {
                let names: Vec<&str> = definitions().iter().filter_map(|d| d.hub).collect();
                write!(
                    f,
                    "unknown parameter {}; the parameters are: {}",
                    quote_short(name),
                    names.join(" ")
                )
            }
            Error::Option(e) => write!(f, "{e}"),
            Error::Position(e) => write!(f, "{e}"),
            Error::SearchRunning => f.write_str(
                "a search is already running; this go is ignored (send stop first, then wait for done)",
            ),
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

/// The search limits a `level` line (plus `go ponder|analyze`) asks for.
pub fn limits_of(level: &Level, mode: GoMode, us: Color) -> SearchLimits {
    let dur = |s: f64| {
        Duration::from_secs_f64(if s.is_finite() {
            s.clamp(0.0, 3.15e7) // a year at most: no deadline overflows
        } else {
            0.0
        })
    };
    let mut l = SearchLimits {
        depth: level.depth.map(|d| d.min(MAX_DEPTH)),
        nodes: level.nodes,
        movetime: level.move_time.map(dur),
        infinite: level.infinite || mode == GoMode::Analyze,
        ponder: mode == GoMode::Ponder,
        analysis: mode == GoMode::Analyze,
        ..SearchLimits::default()
    };
    if let Some(t) = level.time {
        // Hub engines add the increment first (pydraughts subtracts it).
        let inc = level.inc.unwrap_or(0.0).max(0.0);
        l.clock.time[us as usize] = Some(dur(t + inc));
        l.clock.increment[us as usize] = dur(inc);
        l.clock.moves_to_go = level.moves.filter(|&m| m > 0);
    }
    l
}

/// The Hub state beyond the session: the current `level`.
#[derive(Default)]
pub struct HubState {
    pub level: Level,
}

/// Executes one line. Errors are printed as `error message="..."` and leave
/// the state as it was.
pub fn handle(session: &mut Session, state: &mut HubState, line: &str) -> Flow {
    let result = parse(line)
        .map_err(Error::Syntax)
        .and_then(|cmd| execute(session, state, cmd));
    match result {
        Ok(flow) => flow,
        Err(e) => {
            session.error(&e.to_string());
            Flow::Continue
        }
    }
}

fn execute(s: &mut Session, state: &mut HubState, cmd: Command) -> Result<Flow, Error> {
    match cmd {
        Command::Empty => {}
        Command::Hub => {
            s.line(&format!(
                "id name=Tama version={} author=\"The Tama developers\"",
                env!("CARGO_PKG_VERSION")
            ));
            for d in definitions() {
                if let Some(hub) = d.hub {
                    if let Some(l) = param_line(&d, hub, s.settings().value_text(d.opt)) {
                        s.line(&l);
                    }
                }
            }
            s.line("wait");
        }
        Command::SetParam { name, value } => {
            let known = crate::options::find(&name).is_some_and(|d| d.hub.is_some());
            if !known {
                return Err(Error::UnknownParameter(name));
            }
            s.set_option(&name, value.as_deref())?;
        }
        Command::Init => {
            s.prepare();
            s.line("ready");
        }
        Command::NewGame => s.new_game(),
        Command::Pos { pos, moves } => {
            s.set_game(|rules| build_game(rules, pos.as_deref(), &moves))?;
            state.level = Level::default();
        }
        Command::Level(l) => {
            let old = std::mem::take(&mut state.level);
            state.level = Level {
                depth: l.depth.or(old.depth),
                nodes: l.nodes.or(old.nodes),
                move_time: l.move_time.or(old.move_time),
                moves: l.moves.or(old.moves),
                time: l.time.or(old.time),
                inc: l.inc.or(old.inc),
                infinite: l.infinite || old.infinite,
            };
        }
        Command::Go(mode) => {
            if s.is_searching() {
                return Err(Error::SearchRunning);
            }
            let limits = limits_of(&state.level, mode, s.game().position().side_to_move());
            s.start_search(limits);
        }
        Command::Ping => s.line("pong"),
        Command::PonderHit => s.ponder_hit(),
        Command::Stop => s.stop(),
        Command::Quit => return Ok(Flow::Quit),
    }
    Ok(Flow::Continue)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tama_engine::movegen::legal_moves;
    use tama_engine::notation::hub::{move_text, parse_move};
    use tama_engine::search::Score;
    use tama_engine::{Position, Rules, Square};

    #[test]
    fn pydraughts_game_replays() {
        // From the pydraughts transcripts (hub.md section 9).
        let g = build_game(
            Rules::TURKISH,
            None,
            &[
                "19-27",
                "44-36",
                "22-30",
                "48-40",
                "27-28",
                "46-38",
                "28x64x36x45x47x56",
                "38x6x14x30",
                "64x32x40",
                "6-14",
            ]
            .map(String::from),
        )
        .unwrap();
        assert_eq!(g.moves().len(), 10);
    }

    /// A king's quiet move that passes over a piece (pydraughts 0.6.7
    /// generates these for Turkish kings; they are not legal).
    fn through_pieces(p: &Position, t: &str) -> bool {
        let Some((a, b)) = t.split_once('-') else {
            return false;
        };
        let (Ok(a), Ok(b)) = (a.parse::<u8>(), b.parse::<u8>()) else {
            return false;
        };
        let (Some(from), Some(to)) = (Square::new(a - 1), Square::new(b - 1)) else {
            return false;
        };
        if !p.piece_at(from).is_some_and(|pc| pc.king) {
            return false;
        }
        let (df, dr) = (
            (to.file() as i32 - from.file() as i32).signum(),
            (to.rank() as i32 - from.rank() as i32).signum(),
        );
        let (mut f, mut r) = (from.file() as i32 + df, from.rank() as i32 + dr);
        let mut blocked = false;
        while (f, r) != (to.file() as i32, to.rank() as i32) {
            if !(0..8).contains(&f) || !(0..8).contains(&r) {
                return false;
            }
            blocked |= p
                .piece_at(Square::from_coords(f as u8, r as u8).unwrap())
                .is_some();
            f += df;
            r += dr;
        }
        blocked
    }

    /// A position as the vectors write it: the side to move, then
    /// `square=piece` for every occupied square (sorted).
    fn board_of(p: &Position) -> Vec<String> {
        let mut found: Vec<String> = Square::all()
            .filter_map(|sq| p.piece_at(sq).map(|pc| (sq, pc)))
            .map(|(sq, pc)| format!("{sq}={}", pc.letter()))
            .collect();
        found.sort();
        let side = if p.side_to_move() == Color::White {
            "W"
        } else {
            "B"
        };
        std::iter::once(side.to_string()).chain(found).collect()
    }

    #[test]
    fn pydraughts_test_vectors() {
        // Vectors recorded from pydraughts (tests/data/hub_vectors.txt,
        // committed): every vector's position and moves decode, and our
        // legal list equals pydraughts' legal list. A missing file is a
        // failure, not a pass.
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/hub_vectors.txt");
        let text = std::fs::read_to_string(path)
            .unwrap_or_else(|e| panic!("cannot read the pydraughts vectors {path}: {e}"));
        let (mut checked, mut skipped, mut pydraughts_bug, mut cut) = (0, 0, 0, 0);
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        {
            let parts: Vec<&str> = line.split('|').collect();
            let (pos, moves, legal) = (parts[0], parts[1], parts[2]);
            let moves: Vec<String> = moves.split_whitespace().map(String::from).collect();
            // pydraughts accepts men standing on their own far rank in a
            // set-up position; Tama refuses them (such a man would be a king).
            let far_rank_man = pos[57..65].contains('b') || pos[1..9].contains('w');
            let mut g = match build_game(Rules::TURKISH, Some(pos), &[]) {
                Err(e) if far_rank_man => {
                    assert!(e.to_string().contains("far rank"), "{e}");
                    skipped += 1;
                    continue;
                }
                r => r.unwrap(),
            };
            let mut followed = true;
            for m in &moves {
                match parse_move(g.position(), m) {
                    Ok(mv) => g.play(mv),
                    Err(e) => {
                        // Only pydraughts' king-through-pieces moves may fail.
                        assert!(through_pieces(g.position(), m), "{line}: {e}");
                        followed = false;
                        break;
                    }
                }
            }
            if !followed {
                cut += 1;
                continue;
            }
            let p = g.position();
            let mut expected: Vec<String> = parts[3].split_whitespace().map(String::from).collect();
            expected[1..].sort();
            assert_eq!(board_of(p), expected, "{line}");
            let mut ours: Vec<String> = legal_moves(p).iter().map(move_text).collect();
            let mut theirs: Vec<String> = legal.split_whitespace().map(String::from).collect();
            ours.sort();
            theirs.sort();
            theirs.dedup();
            // pydraughts 0.6.7 lets a Turkish king slide through pieces
            // (b1-b8 over its own men on b6 and b7): such moves are the only
            // difference allowed, and only on pydraughts' side.
            let missing: Vec<&String> = ours.iter().filter(|m| !theirs.contains(m)).collect();
            let extra: Vec<&String> = theirs.iter().filter(|m| !ours.contains(m)).collect();
            assert!(missing.is_empty(), "{line}: pydraughts lacks {missing:?}");
            assert!(
                extra.iter().all(|m| through_pieces(p, m)),
                "{line}: pydraughts also has {extra:?}"
            );
            pydraughts_bug += extra.len();
            checked += 1;
        }
        assert!(checked >= 70, "{checked} {skipped}");
        eprintln!(
            "{checked} vectors agree; {skipped} set-ups refused (man on its far rank), {cut} games left at a pydraughts king move through pieces, {pydraughts_bug} such moves in the legal lists"
        );
    }

    #[test]
    fn parse_rejects_junk() {
        for bad in [
            "pos pos=Wxx",
            "pos start pos=".to_string().as_str(),
            "level depth=x",
            "level depth=0",
            "level time",
            "go think ponder",
            "go fast",
            "set-param value=3",
            "frobnicate",
            "ping me=1",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
        assert_eq!(parse("go"), Ok(Command::Go(GoMode::Think)));
        assert_eq!(parse(""), Ok(Command::Empty));
    }

    #[test]
    fn scores() {
        assert_eq!(score_text(Score::Cp(12)), "0.12");
        assert_eq!(score_text(Score::Cp(-250)), "-2.50");
        assert_eq!(score_text(Score::Mate(2)), "99.97");
        assert_eq!(score_text(Score::Mate(-2)), "-99.96");
    }
}
