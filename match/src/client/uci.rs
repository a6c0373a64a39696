//! The UCI dialect from the client's side: the lines the client writes
//! (`position_line`, `go_line`, `setoption_line`) and how it reads what an
//! engine writes (option announcements, scores, errors, the best move).
//! The engine's side of the same grammar is `tama_protocol::uci`.

use super::command::EngineCommand;
use super::fault::{move_fault, Fault};
use super::go::{EngineScore, GoLimits};
use super::Engine;
use std::sync::atomic::AtomicBool;
use std::time::Duration;
use tama_engine::{Move, Position, Rules};

/// `uci` ... `uciok` (noting the options announced), the rule options the
/// engine knows, the user's options, then `isready`. A user's option the
/// engine does not announce, or an error it reports before `readyok`, is a
/// start failure: a misspelt option must not go unnoticed through a match.
pub(super) fn handshake(
    e: &mut Engine,
    command: &EngineCommand,
    rules: Rules,
    abort: &AtomicBool,
) -> Result<(), Fault> {
    e.send("uci")?;
    e.await_line("uciok", abort, |e, l| {
        if let Some(name) = option_name(l) {
            e.announced.push(name.to_ascii_lowercase());
        }
    })?;
    let rule_options = rules.options().map(|(name, value)| (name.uci, value));
    for (name, value) in rule_options {
        if !command.sets(name) && e.announced.contains(&name.to_ascii_lowercase()) {
            e.send(&setoption_line(name, &value))?;
        }
    }
    e.check_announced(command)?;
    for (name, value) in &command.options {
        e.send(&setoption_line(name, value))?;
    }
    e.send("isready")?;
    e.await_line_checked("readyok", abort)
}

/// The name of an `option name NAME type ...` announcement, if the line
/// is one.
pub fn option_name(line: &str) -> Option<String> {
    let mut t = line.split_whitespace();
    if t.next() == Some("option") && t.next() == Some("name") {
        let name: Vec<&str> = t.take_while(|w| *w != "type").collect();
        Some(name.join(" "))
    } else {
        None
    }
}

/// `setoption name NAME value VALUE`.
pub fn setoption_line(name: &str, value: &str) -> String {
    format!("setoption name {name} value {value}")
}

/// `position fen FEN [moves M...]`: the start and the moves since, in
/// algebraic notation.
pub fn position_line(start: &Position, moves: &[Move]) -> String {
    let mut line = format!("position fen {}", start.fen());
    if !moves.is_empty() {
        line.push_str(" moves");
        let mut p = *start;
        for m in moves {
            line.push(' ');
            line.push_str(&p.move_text(m));
            p = p.play(m);
        }
    }
    line
}

fn ms(d: Duration) -> u128 {
    d.as_millis()
}

/// The `go` line for these limits (`go infinite` when there are none).
pub fn go_line(limits: &GoLimits) -> String {
    let mut s = String::from("go");
    if let Some(t) = limits.time {
        s.push_str(&format!(
            " wtime {} btime {} winc {} binc {}",
            ms(t[0]),
            ms(t[1]),
            ms(limits.increment[0]),
            ms(limits.increment[1])
        ));
        if let Some(n) = limits.moves_to_go {
            s.push_str(&format!(" movestogo {n}"));
        }
    }
    if let Some(mt) = limits.movetime {
        s.push_str(&format!(" movetime {}", ms(mt)));
    }
    if let Some(d) = limits.depth {
        s.push_str(&format!(" depth {d}"));
    }
    if let Some(n) = limits.nodes {
        s.push_str(&format!(" nodes {n}"));
    }
    if s == "go" {
        s.push_str(" infinite");
    }
    s
}

/// The score of an `info` line, if it has one.
pub fn parse_score(line: &str) -> Option<EngineScore> {
    let t: Vec<&str> = line.split_whitespace().collect();
    // (`info string ...` is free text, never a score.)
    if t.first() != Some(&"info") || t.get(1) == Some(&"string") {
        return None;
    }
    let i = t.iter().position(|w| *w == "score")?;
    let v: i32 = t.get(i + 2)?.parse().ok()?;
    match *t.get(i + 1)? {
        "cp" => Some(EngineScore::Cp(v)),
        "mate" => Some(EngineScore::Mate(v)),
        _ => None,
    }
}

/// The message of an `info string error: MSG` line.
pub fn parse_error(line: &str) -> Option<String> {
    line.trim_start()
        .strip_prefix("info string error:")
        .map(|m| m.trim().to_string())
}

/// The move text of a `bestmove` line (empty when it has none).
pub fn parse_bestmove(line: &str) -> Option<String> {
    let mut t = line.split_whitespace();
    (t.next() == Some("bestmove")).then(|| t.next().unwrap_or("").to_string())
}

/// Reads algebraic move text against the legal moves of `pos`.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, Fault> {
    pos.parse_move(text).map_err(move_fault)
}
