//! The Hub dialect from the client's side: the lines the client writes
//! (`pos_line`, `level_line`, `set_param_line`, `GO`) and how it reads what
//! an engine writes (parameter announcements, scores, errors, the move).
//! The engine's side of the same grammar is `tama_protocol::hub`; both
//! split lines with `tama_engine::notation::hub::tokenize`.

use super::command::EngineCommand;
use super::fault::{move_fault, Fault};
use super::go::{EngineScore, GoLimits};
use super::Engine;
use std::sync::atomic::AtomicBool;
use std::time::Duration;
use tama_engine::notation::hub;
use tama_engine::{Color, Move, Position, Rules};

/// The line that starts a search.
pub const GO: &str = "go think";

/// `hub` ... `wait` (noting the parameters announced), the variant and the
/// rule parameters the engine knows, the user's, then `init` ... `ready`.
/// As in UCI, a user's parameter the engine does not announce, or an error
/// it reports before `ready`, is a start failure.
pub(super) fn handshake(
    e: &mut Engine,
    command: &EngineCommand,
    rules: Rules,
    abort: &AtomicBool,
) -> Result<(), Fault> {
    e.send("hub")?;
    e.await_line("wait", abort, |e, l| {
        if let Some(name) = param_name(l) {
            e.announced.push(name.to_ascii_lowercase());
        }
    })?;
    // The variant always (as pydraughts does); the two rule options when
    // the engine announces them (Tama's Hub names).
    let rule_params = rules
        .options()
        .map(|(n, value)| (n.hub, value, n == Rules::VARIANT_OPTION));
    for (name, value, always) in rule_params {
        let announced = e.announced.iter().any(|a| a == name);
        if !command.sets(name) && (always || announced) {
            e.send(&set_param_line(name, &value))?;
        }
    }
    e.check_announced(command)?;
    for (name, value) in &command.options {
        e.send(&set_param_line(name, value))?;
    }
    e.send("init")?;
    e.await_line_checked("ready", abort)
}

/// The name of a `param name=NAME ...` announcement, if the line is one.
pub fn param_name(line: &str) -> Option<String> {
    let a = args(line);
    if a.first().map(|a| a.0.as_str()) != Some("param") {
        return None;
    }
    a.into_iter().find(|(k, _)| k == "name").map(|(_, n)| n)
}

/// `set-param name=NAME value=VALUE`, quoted where the text needs it.
pub fn set_param_line(name: &str, value: &str) -> String {
    format!(
        "set-param name={} value={}",
        hub::quote_value(name),
        hub::quote_value(value)
    )
}

/// `pos pos=POSITION [moves="M..."]`: the start and the moves since, in
/// the Hub notation.
pub fn pos_line(start: &Position, moves: &[Move]) -> String {
    let mut line = format!("pos pos={}", hub::encode_position(start));
    if !moves.is_empty() {
        let texts: Vec<String> = moves.iter().map(hub::move_text).collect();
        line.push_str(&format!(" moves=\"{}\"", texts.join(" ")));
    }
    line
}

fn secs(d: Duration) -> String {
    let v = d.as_secs_f64();
    let s = format!("{v:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s.is_empty() {
        "0".into()
    } else {
        s.to_string()
    }
}

/// The `level` line for these limits (`None`: nothing to say).
/// Like pydraughts, the time sent is the remaining time minus the increment
/// (Hub engines add the increment first).
pub fn level_line(limits: &GoLimits, side: Color) -> Option<String> {
    let mut parts = Vec::new();
    if let Some(t) = limits.time {
        let inc = limits.increment[side as usize];
        if let Some(n) = limits.moves_to_go {
            parts.push(format!("moves={n}"));
        }
        parts.push(format!(
            "time={}",
            secs(t[side as usize].saturating_sub(inc))
        ));
        if !inc.is_zero() {
            parts.push(format!("inc={}", secs(inc)));
        }
    }
    if let Some(mt) = limits.movetime {
        parts.push(format!("move-time={}", secs(mt)));
    }
    if let Some(d) = limits.depth {
        parts.push(format!("depth={d}"));
    }
    if let Some(n) = limits.nodes {
        parts.push(format!("nodes={n}"));
    }
    if parts.is_empty() {
        None
    } else {
        Some(format!("level {}", parts.join(" ")))
    }
}

/// A Hub line as (name, value) pairs: the command itself first with an
/// empty value, then each argument (a bare flag with an empty value). A
/// line that is not Hub (see `notation::hub::tokenize`) gives no pairs.
pub fn args(line: &str) -> Vec<(String, String)> {
    let Ok(l) = hub::tokenize(line) else {
        return Vec::new();
    };
    std::iter::once((l.command, String::new()))
        .chain(l.args.into_iter().map(|(k, v)| (k, v.unwrap_or_default())))
        .collect()
}

/// The score of an `info` line, if it has one.
pub fn parse_score(line: &str) -> Option<EngineScore> {
    let args = args(line);
    if args.first().map(|a| a.0.as_str()) != Some("info") {
        return None;
    }
    let (_, v) = args.iter().find(|(k, _)| k == "score")?;
    let men: f64 = v.parse().ok()?;
    if !men.is_finite() {
        return None;
    }
    let cp = (men * 100.0).round().clamp(-1e6, 1e6) as i32;
    // Scan's convention: a win in n plies is 10000 - n centi-men.
    Some(if cp > 9000 {
        EngineScore::Mate((10_000 - cp + 1) / 2)
    } else if cp < -9000 {
        EngineScore::Mate(-((10_000 + cp + 1) / 2))
    } else {
        EngineScore::Cp(cp)
    })
}

/// The message of an `error [message=MSG]` line.
pub fn parse_error(line: &str) -> Option<String> {
    let args = args(line);
    if args.first().map(|a| a.0.as_str()) != Some("error") {
        return None;
    }
    let msg = args.iter().find(|(k, _)| k == "message");
    Some(msg.map_or_else(|| "error".to_string(), |(_, v)| v.clone()))
}

/// The move text of a `done` line (empty when it has none; the whole line
/// when it is not Hub, as the garbage to report).
pub fn parse_bestmove(line: &str) -> Option<String> {
    if line.split_whitespace().next() != Some("done") {
        return None;
    }
    Some(match hub::tokenize(line) {
        Ok(l) => l
            .args
            .into_iter()
            .find(|(k, _)| k == "move")
            .and_then(|(_, v)| v)
            .unwrap_or_default(),
        Err(_) => line.trim().to_string(),
    })
}

/// Reads Hub move text against the legal moves of `pos`.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, Fault> {
    hub::parse_move(pos, text).map_err(move_fault)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_moves_are_read_as_faults() {
        // Black's only move in this pydraughts position: 60x12x20x36x52
        // (d8 takes d7, d5, d3); the captured squares may come in any order.
        let pos = Position::from_fen("B:WKa1,d3,d5,c6,d7,h2:Bd8,a7,Kh8", Rules::TURKISH).unwrap();
        let mv = parse_move(&pos, "60x12x52x36x20").unwrap();
        assert_eq!(pos.move_text(&mv), "d8xd6xd4xd2");
        let quiet = Position::startpos(Rules::TURKISH);
        assert_eq!(
            quiet.move_text(&parse_move(&quiet, "19-27").unwrap()),
            "c3-c4"
        );
        // Well-formed but not legal: the engine played an illegal move;
        // not a move at all: garbage.
        assert!(matches!(
            parse_move(&quiet, "19-35"),
            Err(Fault::Illegal(_))
        ));
        assert!(matches!(
            parse_move(&quiet, "a3-a4"),
            Err(Fault::Garbage(_))
        ));
        assert!(matches!(parse_move(&quiet, "99-1"), Err(Fault::Garbage(_))));
        let e = parse_move(&quiet, "19-35").unwrap_err().reason();
        assert!(e.starts_with("illegal move \"19-35\""), "{e}");
    }

    #[test]
    fn hub_args_split_quotes() {
        let a = args("info depth=3 score=-0.25 pv=\"19-27 41-33\" flag");
        assert_eq!(a[0], ("info".into(), "".into()));
        assert_eq!(a[2], ("score".into(), "-0.25".into()));
        assert_eq!(a[3], ("pv".into(), "19-27 41-33".into()));
        assert_eq!(a[4], ("flag".into(), "".into()));
        // A line that is not Hub (unbalanced quotes, stray '=') has no
        // arguments to read.
        assert!(args("done move=\"19-27").is_empty());
        assert!(args("= = =\"").is_empty());
    }
}
