//! The clock as a GUI keeps it, scripted. The engine plays White at 2+0.02
//! (Black's moves come from a second engine at depth 3, or when pondering
//! are the reply the engine expects), and the GUI charges each White move
//! what the engine says it took by its own clock (the `debug on` clock
//! line) plus a chosen delay: the reports are then exact whatever the
//! machine's load, and the tests assert on what the engine planned (the
//! clock line), never on how long it took.

mod protocol_support;

use protocol_support::{bestmove, Engine};
use std::time::Instant;

/// Milliseconds of the GUI's clock.
const START: u64 = 2000;
const INC: u64 = 20;
const MOVE_OVERHEAD: u64 = 30;
/// How many searches a lag reading is remembered for (`search/lag.rs`).
const WINDOW: usize = 8;

/// The `debug on` clock line of a search on time: `think T ms, at most H
/// ms[, took S ms]; kept back K ms (Move Overhead O ms, answer lag L ms)`.
#[derive(Debug, PartialEq, Eq)]
struct Plan {
    think: u64,
    most: u64,
    took: Option<u64>,
    lag: u64,
}

fn plan(lines: &[String]) -> Plan {
    let line = lines
        .iter()
        .find(|l| l.starts_with("info string clock: "))
        .unwrap_or_else(|| panic!("no clock line: {lines:?}"));
    let number = |after: &str| -> Option<u64> {
        let rest = line.split(after).nth(1)?;
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        Some(
            digits
                .parse()
                .unwrap_or_else(|_| panic!("{after:?} in {line}")),
        )
    };
    let need = |after: &str| number(after).unwrap_or_else(|| panic!("no {after:?} in {line}"));
    assert_eq!(need("Move Overhead "), MOVE_OVERHEAD, "{line}");
    assert_eq!(
        need("kept back "),
        MOVE_OVERHEAD + need("answer lag "),
        "{line}"
    );
    Plan {
        think: need("think "),
        most: need("at most "),
        took: number("took "),
        lag: need("answer lag "),
    }
}

fn engine() -> Engine {
    let mut e = Engine::start();
    e.send("uci");
    e.until("uciok");
    e.send("debug on");
    e.sync();
    e
}

/// A game in which the GUI keeps White's clock.
struct Gui {
    white: Engine,
    /// Plays Black at depth 3, and says what a searcher that never played
    /// on a clock plans for White's clock (`reference`).
    black: Engine,
    moves: Vec<String>,
    /// White's time left, as the GUI reports it.
    left: u64,
    /// The reply White's last answer expects (`bestmove ... ponder`).
    expected: Option<String>,
}

impl Gui {
    fn new() -> Gui {
        Gui {
            white: engine(),
            black: engine(),
            moves: Vec::new(),
            left: START,
            expected: None,
        }
    }

    fn position(&self) -> String {
        let mut p = "position startpos".to_string();
        if !self.moves.is_empty() {
            p = format!("{p} moves {}", self.moves.join(" "));
        }
        p
    }

    fn clock(&self) -> String {
        format!("wtime {} btime {START} winc {INC} binc {INC}", self.left)
    }

    /// White's answer to `go` (already sent): its plan, with the move
    /// played and charged what it took plus `delay`.
    fn answer(&mut self, delay: u64) -> Plan {
        let lines = self.white.until("bestmove");
        let p = plan(&lines);
        let last = lines.last().unwrap();
        self.moves.push(bestmove(last).to_string());
        self.expected = last.split(" ponder ").nth(1).map(str::to_string);
        let took = p
            .took
            .unwrap_or_else(|| panic!("a move on the clock says what it took: {lines:?}"));
        self.left = (self.left + INC)
            .checked_sub(took + delay)
            .unwrap_or_else(|| {
                panic!(
                    "White lost on time; transcript:\n{}",
                    self.white.transcript_tail()
                )
            });
        p
    }

    /// White moves on its clock, charged what it took plus `delay`.
    fn white(&mut self, delay: u64) -> Plan {
        let (position, go) = (self.position(), format!("go {}", self.clock()));
        self.white.send(&position);
        self.white.send(&go);
        self.answer(delay)
    }

    /// White ponders on the reply it expects, which Black plays at once:
    /// `go ponder`, then `ponderhit`. Without an expected reply, Black
    /// moves and White searches as usual.
    fn white_pondering(&mut self, delay: u64) -> Plan {
        let Some(reply) = self.expected.take() else {
            self.black();
            return self.white(delay);
        };
        self.moves.push(reply);
        let (position, go) = (self.position(), format!("go ponder {}", self.clock()));
        self.white.send(&position);
        self.white.send(&go);
        self.white.send("ponderhit");
        self.answer(delay)
    }

    fn black(&mut self) {
        let position = self.position();
        self.black.send(&position);
        self.black.send("go depth 3");
        let lines = self.black.until("bestmove");
        self.moves.push(bestmove(lines.last().unwrap()).to_string());
    }

    /// What a searcher that never played on a clock plans for White's
    /// clock now (the search is stopped at once: the plan is made first).
    fn reference(&mut self) -> Plan {
        let (position, go) = (self.position(), format!("go {}", self.clock()));
        self.black.send(&position);
        self.black.send(&go);
        self.black.send("stop");
        let p = plan(&self.black.until("bestmove"));
        assert_eq!(p.lag, 0, "the reference learned a lag");
        p
    }
}

/// One stall of 800 ms at White's fourth move, the report after it showing
/// it: the moves after it plan as a searcher that never saw it does.
#[test]
fn one_stall_is_followed_by_normal_budgets() {
    let mut gui = Gui::new();
    for i in 0..12 {
        let reference = gui.reference();
        let p = gui.white(if i == 3 { 800 } else { 0 });
        if i > 3 {
            assert_eq!(
                (p.lag, p.think, p.most),
                (0, reference.think, reference.most),
                "White's move {}: {p:?} after one stall; transcript:\n{}",
                i + 1,
                gui.white.transcript_tail()
            );
        }
        gui.black();
    }
}

/// A GUI 40 ms late on every move: from the second late report on, the
/// engine keeps the lag back and takes it off every move's share (each
/// move costs its thinking plus the lag; at most half the share), and what
/// this move may take at most leaves it on the clock.
#[test]
fn a_gui_late_on_every_move_is_planned_for() {
    let mut gui = Gui::new();
    for i in 0..10 {
        let reference = gui.reference();
        let left = gui.left;
        let p = gui.white(40);
        if i >= 2 {
            let transcript = gui.white.transcript_tail();
            assert!(
                (39..=40).contains(&p.lag),
                "{p:?}; transcript:\n{transcript}"
            );
            // Never more than half the share (as the clock runs down).
            let off = p.lag.min(reference.think / 2);
            assert!(
                p.think + off <= reference.think + 1 && p.think + off + 1 >= reference.think,
                "White's move {}: {p:?} against {reference:?}; transcript:\n{transcript}",
                i + 1
            );
            assert!(
                p.most + MOVE_OVERHEAD + p.lag <= left,
                "{p:?} with {left} ms left"
            );
        }
        gui.black();
    }
}

/// Two stalls of 300 ms are planned for; then the game goes on pondering
/// (`go ponder`, `ponderhit`), the GUI charging what the engine took since
/// the hit: the lag is forgotten as the window moves on, though a
/// ponder search is read only once it was hit.
#[test]
fn pondering_games_decay() {
    let mut gui = Gui::new();
    let mut planned = Vec::new();
    for (i, delay) in [0, 300, 300, 0].into_iter().enumerate() {
        if i > 0 {
            gui.black();
        }
        planned.push(gui.white(delay).lag);
    }
    assert!((299..=300).contains(&planned[3]), "{planned:?}");
    for _ in 0..WINDOW + 2 {
        let p = gui.white_pondering(0);
        assert!(p.took.is_some(), "{p:?}");
        planned.push(p.lag);
    }
    // The first late reading came with the third search: it leaves the
    // window `WINDOW` searches later.
    assert_eq!(
        &planned[2 + WINDOW..],
        &[0; 4],
        "lags planned: {planned:?}; transcript:\n{}",
        gui.white.transcript_tail()
    );
}

/// A lag learned on a clock (two stalls of 800 ms) is planned for on the
/// clock, kept by a new game (it belongs to the machine), and never cuts a
/// move time: `go movetime 300` thinks 270 ms (300 less `Move Overhead`).
/// Without `debug on` there is no clock line.
#[test]
fn movetime_is_never_cut_by_a_lag_learned_on_a_clock() {
    let mut gui = Gui::new();
    gui.left = 10_000;
    for delay in [0, 800, 800] {
        gui.white(delay);
        gui.black();
    }
    let p = gui.white(0);
    assert!((799..=800).contains(&p.lag), "{p:?}");
    // The start position: a move to think about (the game's may be forced).
    let e = &mut gui.white;
    e.send("position startpos");
    let sent = Instant::now();
    e.send("go movetime 300");
    let lines = e.until("bestmove");
    // Only a plan cut by the lag answers this soon.
    assert!(
        sent.elapsed().as_millis() >= 150,
        "go movetime 300 answered in {:?}: {lines:?}",
        sent.elapsed()
    );
    let line = lines.iter().find(|l| l.contains("clock:")).unwrap();
    assert!(
        line.starts_with("info string clock: think 270 ms, at most 270 ms, took ")
            && line.ends_with(" ms; kept back 30 ms (Move Overhead 30 ms, answer lag 0 ms)"),
        "{line}"
    );
    e.send("ucinewgame");
    e.send("position startpos");
    e.send("go wtime 10000 btime 10000");
    e.send("stop");
    assert!((799..=800).contains(&plan(&e.until("bestmove")).lag));
    e.send("debug off");
    e.send("go movetime 10");
    let lines = e.until("bestmove");
    assert!(!lines.iter().any(|l| l.contains("clock:")), "{lines:?}");
}
