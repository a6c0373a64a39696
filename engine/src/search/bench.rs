//! `bench`: a fixed search over fixed positions; its node count is the
//! search's signature and must be identical on every run and machine.

use super::{SearchControl, SearchLimits, Searcher};
use crate::game::Game;
use crate::position::Position;
use crate::rules::Rules;
use std::time::Instant;

pub const DEFAULT_DEPTH: u32 = 6;

pub struct BenchReport {
    /// One line per position, ready to print.
    pub lines: Vec<String>,
    pub nodes: u64,
    pub nps: u64,
}

/// (rules, FEN) of the bench positions.
pub fn positions() -> Vec<(Rules, String)> {
    vec![(Rules::ARMENIAN, Position::startpos(Rules::ARMENIAN).fen())]
}

pub fn run(depth: u32) -> BenchReport {
    let started = Instant::now();
    let mut lines = Vec::new();
    let mut total = 0;
    for (i, (rules, fen)) in positions().into_iter().enumerate() {
        let pos = Position::from_fen(&fen, rules).expect("bench FEN is valid");
        let mut searcher = Searcher::new(16);
        let limits = SearchLimits {
            depth: Some(depth),
            ..SearchLimits::default()
        };
        let out = searcher.search(&Game::new(pos), &limits, &SearchControl::new(), &mut |_| {});
        total += out.nodes;
        lines.push(format!(
            "position {:>2} {:<8} nodes {:>10} {}",
            i + 1,
            rules.variant,
            out.nodes,
            fen
        ));
    }
    let secs = started.elapsed().as_secs_f64().max(1e-6);
    BenchReport {
        lines,
        nodes: total,
        nps: (total as f64 / secs) as u64,
    }
}
