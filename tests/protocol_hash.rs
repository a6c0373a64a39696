//! A big transposition table does not freeze the engine: after any `Hash`
//! the engine answers `readyok` at once, `ucinewgame` and `Clear Hash` on a
//! table a search has filled are as quick, and the first search after each
//! plays normally. GUIs and match runners give up on an engine that stays
//! silent a few seconds after `isready`.
//!
//! The bound is generous (a second, where the engine takes about a
//! millisecond) so that a loaded machine does not fail the tests; writing
//! the table byte by byte takes longer than that from about a gigabyte up.

mod protocol_support;

use protocol_support::{bestmove, last_depth_and_nodes, Engine};
use std::time::{Duration, Instant};
use tama_engine::{movegen::legal_moves, Position, Rules};

const QUICK: Duration = Duration::from_secs(1);

/// Sends `commands`, then `isready`: how long `readyok` took, and the lines
/// before it.
fn readyok_after(e: &mut Engine, commands: &[&str]) -> (Duration, Vec<String>) {
    for c in commands {
        e.send(c);
    }
    let t = Instant::now();
    e.send("isready");
    let mut lines = e.read_until("readyok", |l| l == "readyok");
    lines.pop();
    (e.last_at.duration_since(t), lines)
}

/// Asserts that `readyok` came quickly after `commands`; returns the lines
/// before it.
fn quick_readyok(e: &mut Engine, commands: &[&str]) -> Vec<String> {
    let (took, lines) = readyok_after(e, commands);
    assert!(
        took < QUICK,
        "readyok {took:?} after {commands:?}:\n{}",
        e.transcript_tail()
    );
    lines
}

/// A search from the start position plays a legal move and counts nodes.
fn plays_normally(e: &mut Engine) {
    e.send("position startpos");
    e.send("go depth 4");
    let lines = e.until("bestmove");
    let start = Position::startpos(Rules::default());
    let mv = bestmove(lines.last().unwrap());
    assert!(
        legal_moves(&start).iter().any(|m| start.move_text(m) == mv),
        "{mv} is not legal: {lines:?}"
    );
    let (depth, nodes) = last_depth_and_nodes(&lines);
    assert!(depth >= 1 && nodes > 0, "{lines:?}");
}

/// Everything that may touch the whole table, at a gigabyte.
fn resize_search_and_clear(e: &mut Engine, hash: &str) -> Vec<String> {
    let notes = quick_readyok(e, &[&format!("setoption name Hash value {hash}")]);
    plays_normally(e);
    quick_readyok(e, &["ucinewgame"]);
    plays_normally(e);
    quick_readyok(e, &["setoption name Clear Hash"]);
    plays_normally(e);
    notes
}

#[test]
fn a_gigabyte_table_is_ready_at_once_and_cleared_at_once() {
    let mut e = Engine::start();
    e.send("uci");
    e.until("uciok");
    quick_readyok(&mut e, &[]);
    resize_search_and_clear(&mut e, "1024");
    let (status, _) = e.close();
    assert!(status.success());
}

/// The largest table this process may have (`Hash` at its maximum, capped
/// to half the address space of `ulimit -v`): said before `readyok`, and
/// as quick.
#[cfg(unix)]
#[test]
fn the_largest_table_under_ulimit_is_ready_at_once() {
    let mut e = Engine::start_under_ulimit(4_000_000);
    e.send("uci");
    e.until("uciok");
    let notes = resize_search_and_clear(&mut e, "65536");
    assert!(
        notes
            .iter()
            .any(|l| l.starts_with("info string Hash: 65536 MB asked for, ")),
        "no notice of the cap before readyok: {notes:?}"
    );
    let (status, _) = e.close();
    assert!(status.success());
}
