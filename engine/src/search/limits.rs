//! What a search may spend: depth, nodes, time, or a clock.

use super::SearchOptions;
use crate::moves::Move;
use crate::rules::Color;
use std::time::{Duration, Instant};

/// Both players' clocks as a GUI reports them (`wtime btime winc binc movestogo`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    pub time: [Option<Duration>; 2],
    pub increment: [Duration; 2],
    pub moves_to_go: Option<u32>,
}

#[derive(Clone, Debug, Default)]
pub struct SearchLimits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    /// Search until told to stop.
    pub infinite: bool,
    /// Start as a ponder search (on the opponent's time) until `ponder_hit`.
    pub ponder: bool,
    pub clock: Clock,
    /// Restrict the root to these moves (empty: all).
    pub searchmoves: Vec<Move>,
}

impl SearchLimits {
    /// The moment the search must stop at the latest, if any.
    pub fn hard_deadline(
        &self,
        started: Instant,
        us: Color,
        options: &SearchOptions,
    ) -> Option<Instant> {
        if self.infinite {
            return None;
        }
        if let Some(mt) = self.movetime {
            return Some(
                started
                    + mt.saturating_sub(options.move_overhead)
                        .max(Duration::from_millis(1)),
            );
        }
        let left = self.clock.time[us as usize]?;
        let inc = self.clock.increment[us as usize];
        let usable = left.saturating_sub(options.move_overhead);
        let mtg = self.clock.moves_to_go.unwrap_or(30).clamp(1, 50);
        let budget = usable / mtg + inc * 3 / 4;
        Some(started + budget.min(usable / 2).max(Duration::from_millis(1)))
    }
}
