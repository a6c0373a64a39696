//! One search as the worker thread runs it, and what happens when it
//! fails: the fault policy (strict or not, faults injected for the tests),
//! the check of the moves it answers, the answer printed exactly once.

use crate::output::{Out, Reporter};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tama_engine::movegen::legal_moves;
use tama_engine::search::{
    SearchControl, SearchInfo, SearchLimits, SearchOutcome, Searcher, TimePlan,
};
use tama_engine::{Game, Move, Position};

/// A deliberately broken search, for the tests that check a failing search
/// is reported. Only the test fixture `tama-fake-engine` sets one (through
/// `run_stdio_with`); the shipped programs read no switch for it, so the
/// binary the protocol tests drive is the one that ships.
/// docs/protocol.md, docs/testing.md.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InjectedFault {
    /// The search thread panics.
    Panic,
    /// The search answers a move that is not legal.
    Illegal,
}

/// How a session treats a search that fails (panics, or answers an illegal
/// move): either way the error is printed and counted; `strict` then ends
/// the session (and the program, with status 3) instead of playing the
/// first legal move.
#[derive(Clone, Debug, Default)]
pub struct FaultPolicy {
    /// `TAMA_STRICT=1`: a failing search is fatal (tests and the match
    /// runner's referee set it).
    pub strict: bool,
    /// Break every search this way (the test fixture only; never read from
    /// the environment).
    pub inject: Option<InjectedFault>,
}

impl FaultPolicy {
    /// The policy the environment asks for: `TAMA_STRICT`, and no fault.
    pub fn from_env() -> FaultPolicy {
        let strict = std::env::var("TAMA_STRICT").is_ok_and(|v| !v.is_empty() && v != "0");
        FaultPolicy {
            strict,
            inject: None,
        }
    }
}

/// The exit status of a strict session whose search failed.
pub const STRICT_FAULT_STATUS: i32 = 3;

/// How a strict session's failed search reaches the main loop, which may be
/// waiting for input when the search thread fails: a flag it checks, and a
/// call that wakes it.
#[derive(Clone)]
pub(crate) struct FatalFault {
    raised: Arc<AtomicBool>,
    wake: Arc<dyn Fn() + Send + Sync>,
}

impl FatalFault {
    /// Not raised, waking nobody.
    pub(crate) fn new() -> FatalFault {
        FatalFault {
            raised: Arc::new(AtomicBool::new(false)),
            wake: Arc::new(|| {}),
        }
    }

    pub(crate) fn set_wake(&mut self, wake: impl Fn() + Send + Sync + 'static) {
        self.wake = Arc::new(wake);
    }

    pub(crate) fn is_raised(&self) -> bool {
        self.raised.load(Ordering::SeqCst)
    }

    pub(crate) fn raise(&self) {
        self.raised.store(true, Ordering::SeqCst);
        (self.wake)();
    }
}

/// One search, as the worker thread runs it.
pub(crate) struct SearchJob {
    pub(crate) root: Position,
    pub(crate) game: Game,
    pub(crate) limits: SearchLimits,
    pub(crate) control: Arc<SearchControl>,
    pub(crate) out: Out,
    pub(crate) reporter: Arc<dyn Reporter>,
    /// For a fresh searcher, should the search panic.
    pub(crate) hash_mb: usize,
    pub(crate) faults: Arc<AtomicU64>,
    pub(crate) policy: FaultPolicy,
    pub(crate) fatal: FatalFault,
    /// `debug on` was given: after a search on time, what it planned and
    /// took (and in the lab, the search's counters, `SearchStats`).
    pub(crate) debug: bool,
}

impl SearchJob {
    /// Searches, waits for `stop` or `ponderhit` when the search must not
    /// answer by itself, prints the answer (always exactly one) and hands
    /// the searcher back. A failing search (a panic, an illegal move) is
    /// reported as an error and counted; it is answered with the first
    /// legal move, or in strict mode answered with nothing and the session
    /// ended (`FatalFault`). A panicking searcher
    /// is replaced by a fresh one of the same settings.
    pub(crate) fn run(self, mut searcher: Searcher) -> Searcher {
        let (root, out, reporter) = (self.root, &self.out, &self.reporter);
        let options = searcher.options().clone();
        let tuning = searcher.tuning().clone();
        let inject = self.policy.inject;
        // The depth and nodes of the last line printed.
        let reported = std::cell::Cell::new(None);
        let result = catch_unwind(AssertUnwindSafe(|| {
            if inject == Some(InjectedFault::Panic) {
                panic!("injected fault (tama-fake-engine)");
            }
            let mut report = |info: &SearchInfo| {
                if let Some(line) = reporter.info(&root, info) {
                    out.line(&line);
                    reported.set(Some((info.depth, info.nodes)));
                }
            };
            searcher.search(&self.game, &self.limits, &self.control, &mut report)
        }));
        let (mut outcome, searcher, mut fault) = match result {
            Ok(outcome) => (outcome, searcher, None),
            Err(payload) => {
                let mut fresh = Searcher::new(self.hash_mb);
                *fresh.options_mut() = options;
                *fresh.tuning_mut() = tuning;
                let why = panic_text(payload.as_ref());
                (
                    SearchOutcome::default(),
                    fresh,
                    Some(format!("the search failed ({why})")),
                )
            }
        };
        if inject == Some(InjectedFault::Illegal) {
            outcome.best_move = Some(Move::NONE);
        }
        if fault.is_some() {
            // The search holds its own answer until it is told; a failed
            // one did not get that far.
            self.control.wait_until_released(self.limits.infinite);
        }
        let (outcome, problem) = sanitize(&root, outcome);
        if fault.is_none() {
            fault = problem;
        }
        let failed = fault.is_some();
        if let Some(why) = fault {
            self.faults.fetch_add(1, Ordering::Relaxed);
            let answer = outcome.best_move.map_or("no move".to_string(), |m| {
                format!("the first legal move, {}", root.move_text(&m))
            });
            if self.policy.strict {
                out.line(&reporter.error(&format!(
                    "{why}; strict mode (TAMA_STRICT): exiting with status {STRICT_FAULT_STATUS}"
                )));
                self.fatal.raise();
                return searcher;
            }
            out.line(&reporter.error(&format!("{why}; playing {answer}")));
        }
        // The totals at the end, unless the last line printed has them
        // already: an unfinished iteration's nodes and time are in no line.
        let last = outcome
            .last
            .as_ref()
            .filter(|i| !failed && reported.get() != Some((i.depth, i.nodes)));
        if let Some(line) = last.and_then(|i| reporter.info(&root, i)) {
            out.line(&line);
        }
        if self.debug && !failed {
            if let Some(line) = clock_line(&outcome.plan).and_then(|l| reporter.remark(&l)) {
                out.line(&line);
            }
        }
        #[cfg(feature = "lab")]
        if self.debug && !failed {
            if let Some(line) = reporter.remark(&format!("stats {}", outcome.stats)) {
                out.line(&line);
            }
        }
        out.finish(&reporter.best(&root, &outcome));
        searcher
    }
}

/// What a search on time (a clock or a move time) planned, for `debug
/// on`; `None` for a search with no time limit.
fn clock_line(plan: &TimePlan) -> Option<String> {
    let ms = |d: Duration| d.as_millis();
    let (soft, hard) = (plan.budget.soft?, plan.budget.hard?);
    let took = plan
        .took
        .map_or(String::new(), |t| format!(", took {} ms", ms(t)));
    Some(format!(
        "clock: think {} ms, at most {} ms{took}; kept back {} ms (Move Overhead {} ms, answer lag {} ms)",
        ms(soft),
        ms(hard),
        ms(plan.move_overhead + plan.lag),
        ms(plan.move_overhead),
        ms(plan.lag)
    ))
}

/// What a panic said, for the error line.
fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".to_string())
}

/// Checks the reported moves: an illegal (or missing) best move is replaced
/// by the first legal one, an illegal ponder move dropped; the second value
/// says what was wrong, for the error line.
fn sanitize(root: &Position, mut outcome: SearchOutcome) -> (SearchOutcome, Option<String>) {
    let legal = legal_moves(root);
    let problem = match outcome.best_move {
        Some(m) if legal.contains(&m) => {
            let ponder_ok = outcome
                .ponder_move
                .is_none_or(|p| legal_moves(&root.play(&m)).contains(&p));
            if ponder_ok {
                None
            } else {
                outcome.ponder_move = None;
                Some("the search answered an illegal ponder move (dropped)".to_string())
            }
        }
        None if legal.is_empty() => None,
        other => {
            outcome.best_move = legal.first().copied();
            outcome.ponder_move = None;
            Some(match other {
                Some(m) => format!(
                    "the search answered an illegal move (from {} to {})",
                    m.from, m.to
                ),
                None => "the search answered no move".to_string(),
            })
        }
    };
    (outcome, problem)
}
