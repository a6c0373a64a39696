//! `bench`: a fixed search over fixed positions; its node count is the
//! search's signature and must be identical on every run and machine.
//!
//! Each position is searched to the same fixed depth with a fresh 16 MB
//! table, one thread and no time limit: nothing that depends on the clock
//! or on thread timing shapes the tree.

use super::{SearchControl, SearchLimits, Searcher, Tuning};
use crate::eval::Weights;
use crate::game::Game;
use crate::position::Position;
use crate::rules::{CaptureRemoval, Rules};
use std::time::{Duration, Instant};

/// The depth of `tama bench` without an argument: its signature is at this
/// depth.
pub const DEFAULT_DEPTH: u32 = 15;
/// The table each position is searched with (fresh for each).
pub const HASH_MB: usize = 16;

/// The result of a bench run.
pub struct BenchReport {
    /// One line per position, ready to print.
    pub lines: Vec<String>,
    /// Nodes over all positions: the signature.
    pub nodes: u64,
    /// Nodes per second over the run (machine-dependent).
    pub nps: u64,
    /// Wall-clock time of the run.
    pub time: Duration,
    /// Sum over the positions of the busiest thread's nodes (equal to
    /// `nodes` with one thread): with a core per thread, time to depth is
    /// proportional to it.
    pub critical_nodes: u64,
}

const ARMENIAN_DEFERRED: Rules = Rules {
    capture_removal: CaptureRemoval::Deferred,
    mid_capture_promotion: true,
    ..Rules::ARMENIAN
};

/// (rules, FEN) of the bench positions: openings, middlegames with and
/// without kings, endgames; Armenian and Turkish.
const POSITIONS: [(Rules, &str); 18] = [
    // Start positions.
    (Rules::ARMENIAN, "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3:Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7"),
    (Rules::TURKISH, "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3:Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7"),
    // Openings.
    (Rules::ARMENIAN, "B:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d4,e3,f3,g3,h3:Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7"),
    (Rules::ARMENIAN, "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e4,f3,g3,h3:Ba6,b6,c6,d5,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7"),
    (Rules::TURKISH, "B:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e4,f3,g3,h3:Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7"),
    // Middlegames.
    (Rules::ARMENIAN, "W:Wa3,b3,c3,d4,e3,f3,g3,h3,b2,g2:Ba6,b6,c6,e6,f6,g6,h6,b7,g7,d7"),
    (Rules::ARMENIAN, "W:Wa2,b3,c3,d3,e4,f3,g3,h2,c2,f2:Ba6,b6,c6,d5,f5,g6,h7,d7,e7,c7"),
    (Rules::TURKISH, "W:Wa3,b3,c4,d3,f3,g4,h3,e2:Ba6,b6,c6,d6,f6,g6,h5,e7"),
    // Middlegames with kings.
    (Rules::ARMENIAN, "W:Wa3,b4,c3,e3,f4,g3,Kd1:Ba6,b6,c6,e6,g5,h6,Ke8"),
    (Rules::ARMENIAN, "B:Wb2,c3,d3,f3,g2,Ke4:Bb6,c6,e7,f6,g6,Kd8"),
    (Rules::TURKISH, "W:Wa2,c3,d4,Kh1:Bb7,c6,e6,f5,Ka8"),
    (ARMENIAN_DEFERRED, "W:Wc6,e6,b3,g3,Kb1:Bb7,d7,f7,g6,Ka8"),
    // Endgames.
    (Rules::ARMENIAN, "W:WKa1,Kc3:BKh8"),
    (Rules::ARMENIAN, "W:Wc5,d4,f3:Be7,f6,b7"),
    (Rules::ARMENIAN, "B:Wa5,b4,Kh1:Bc7,d6,Ka8"),
    (Rules::ARMENIAN, "W:WKd4:Ba6,b6,c7"),
    (Rules::TURKISH, "W:Wb5,e4,Kg1:Bc7,f6,Kb8"),
    (Rules::TURKISH, "B:Wd3,e3,Kh4:Bd6,g6,h7"),
];

/// (rules, FEN) of the bench positions.
pub fn positions() -> Vec<(Rules, String)> {
    POSITIONS.iter().map(|&(r, f)| (r, f.to_string())).collect()
}

/// The bench: one thread, fresh 16 MB table per position, fixed depth.
pub fn run(depth: u32) -> BenchReport {
    run_with(depth, 1, &Tuning::default(), &Weights::DEFAULT)
}

/// The bench with `threads` search threads (for time-to-depth
/// measurements; with more than one thread the node count varies), other
/// selective-search settings and other evaluation weights (for experiments:
/// the speed of a learned evaluation is measured on the same tree shapes).
pub fn run_with(depth: u32, threads: usize, tuning: &Tuning, weights: &Weights) -> BenchReport {
    let started = Instant::now();
    let mut lines = Vec::new();
    let mut total = 0;
    let mut critical = 0;
    for (i, (rules, fen)) in positions().into_iter().enumerate() {
        let pos = Position::from_fen(&fen, rules).expect("bench FEN is valid");
        let mut searcher = Searcher::new(HASH_MB);
        searcher.options_mut().threads = threads;
        *searcher.tuning_mut() = tuning.clone();
        searcher.set_weights(weights.clone());
        let limits = SearchLimits {
            depth: Some(depth),
            ..SearchLimits::default()
        };
        let t = Instant::now();
        let out = searcher.search(&Game::new(pos), &limits, &SearchControl::new(), &mut |_| {});
        let ms = t.elapsed().as_millis();
        total += out.nodes;
        critical += out.thread_nodes.iter().copied().max().unwrap_or(0);
        let best = out
            .best_move
            .map_or_else(|| "(none)".to_string(), |m| pos.move_text(&m));
        lines.push(format!(
            "position {:>2} {:<8} nodes {:>10} time {:>6} ms best {:<10} {}",
            i + 1,
            rules.variant,
            out.nodes,
            ms,
            best,
            fen
        ));
    }
    let time = started.elapsed();
    BenchReport {
        lines,
        nodes: total,
        nps: (total as f64 / time.as_secs_f64().max(1e-6)) as u64,
        time,
        critical_nodes: critical,
    }
}
