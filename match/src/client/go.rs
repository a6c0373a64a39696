//! One search asked of an engine and what comes back: the limits of a
//! `go` (`GoLimits`), the move with the engine's last score (`Reply`,
//! `EngineScore`).

use std::time::Duration;
use tama_engine::Move;

/// A score as the engine reported it, from the side to move's view.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum EngineScore {
    Cp(i32),
    /// Moves to a forced win (negative: to a forced loss).
    Mate(i32),
}

impl EngineScore {
    /// In centi-men, mates as +-(100000 - distance).
    pub fn as_cp(self) -> i32 {
        match self {
            EngineScore::Cp(c) => c,
            EngineScore::Mate(n) if n > 0 => 100_000 - n,
            EngineScore::Mate(n) => -100_000 - n,
        }
    }
}

/// What an engine may spend on one move; the runner fills it from the clocks.
#[derive(Clone, Debug, Default)]
pub struct GoLimits {
    /// Remaining time of White and Black.
    pub time: Option<[Duration; 2]>,
    pub increment: [Duration; 2],
    pub moves_to_go: Option<u32>,
    pub movetime: Option<Duration>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
}

/// An engine's answer to `go`.
#[derive(Clone, Debug)]
pub struct Reply {
    pub mv: Move,
    /// The move as the engine wrote it.
    pub text: String,
    /// From sending `go` to reading the move.
    pub elapsed: Duration,
    /// The last score the engine reported during this search.
    pub score: Option<EngineScore>,
    /// The move only came after `stop` was sent at the deadline.
    pub after_stop: bool,
}
