//! One search thread's state. The thread runs its own iterative deepening
//! (`iterate.rs`) over the node searches (`node.rs`), sharing only the
//! transposition table, the stop flag and the node counts with the other
//! threads (Lazy SMP).

use super::eval_stack::EvalStack;
use super::history::{History, Killers};
use super::limits::TimeBudget;
use super::params::LmrTable;
use super::repetition::Repetitions;
use super::score::{draw_score, INF, MAX_PLY};
use super::tablebase::{score_of, Probing};
use super::tt::TranspositionTable;
use super::{SearchControl, SearchInfo, Tuning};
use crate::egtb::Wdl;
use crate::eval::Weights;
use crate::moves::Move;
use crate::position::Position;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::Sender;
use std::time::Instant;

/// Nodes between two looks at the clock and the stop flag.
pub(super) const POLL_INTERVAL: u64 = 1024;

/// What every thread of one search shares.
pub(super) struct Shared<'a> {
    pub tt: &'a TranspositionTable,
    pub control: &'a SearchControl,
    /// Set by the main thread when the search is over (time, stop, depth).
    pub abort: AtomicBool,
    /// Nodes per thread, published every poll.
    pub nodes: Vec<AtomicU64>,
    pub root: Position,
    /// Keys of the game since the last irreversible move, the root last.
    pub history: &'a [u64],
    pub root_moves: &'a [Move],
    pub max_depth: i32,
    pub node_limit: u64,
    pub multipv: usize,
    /// The lab's share (the baseline; read through `Shared::baseline`).
    pub lab: super::lab::SharedLab,
    pub infinite: bool,
    pub started: Instant,
    pub budget: TimeBudget,
    pub weights: Weights,
    pub tuning: Tuning,
    /// The endgame databases to probe, if any.
    pub egtb: Option<Probing<'a>>,
    /// What a draw is worth to the root's side (`score::draw_score`).
    pub contempt: i32,
    /// Database probes that found their position, all threads.
    pub tbhits: AtomicU64,
}

/// A move of the root with what the last iterations found for it.
#[derive(Clone, Debug)]
pub(super) struct RootMove {
    pub mv: Move,
    pub score: i32,
    pub prev_score: i32,
    pub pv: Vec<Move>,
    pub seldepth: usize,
}

/// What a thread hands back when it is done.
pub(super) struct WorkerResult {
    pub best: Option<RootMove>,
    pub depth: u32,
    pub nodes: u64,
    /// Lab: what the node search counted (nothing in the product).
    pub counts: super::lab::Counts,
}

/// One search thread (id 0 is the main thread: it keeps time and reports).
pub(super) struct Worker<'a> {
    pub(super) id: usize,
    pub(super) sh: &'a Shared<'a>,
    pub(super) nodes: u64,
    pub(super) next_poll: u64,
    pub(super) stopped: bool,
    pub(super) root_depth: i32,
    pub(super) seldepth: usize,
    pub(super) path: Repetitions,
    pub(super) killers: Killers,
    pub(super) history: History,
    /// The pattern sums of the positions evaluated, by ply.
    pub(super) eval_stack: EvalStack,
    /// The principal variation found at each ply (triangular table).
    pub(super) pv: Vec<[Move; MAX_PLY + 1]>,
    pub(super) pv_len: [usize; MAX_PLY + 2],
    /// Searching without reductions or pruning (and without table cutoffs
    /// from searches that had them): the proof that a mate is shortest.
    pub(super) full_width: bool,
    /// The lab's state: its extensions and counters (nothing in the
    /// product).
    pub(super) lab: super::lab::WorkerLab,
    pub(super) lmr: LmrTable,
    pub(super) root_moves: Vec<RootMove>,
    /// Main thread only: still on the opponent's time, and where our own
    /// clock started.
    pub(super) pondering: bool,
    pub(super) time_base: Instant,
    pub(super) info: Option<Sender<SearchInfo>>,
}

impl<'a> Worker<'a> {
    pub fn new(id: usize, sh: &'a Shared<'a>, info: Option<Sender<SearchInfo>>) -> Worker<'a> {
        Worker {
            id,
            sh,
            nodes: 0,
            next_poll: POLL_INTERVAL.min(sh.node_limit),
            stopped: false,
            root_depth: 0,
            seldepth: 0,
            path: Repetitions::new(sh.history),
            killers: Killers::new(),
            history: History::new(),
            eval_stack: EvalStack::new(),
            pv: vec![[Move::NONE; MAX_PLY + 1]; MAX_PLY + 2],
            pv_len: [0; MAX_PLY + 2],
            full_width: false,
            lab: super::lab::WorkerLab::new(),
            lmr: LmrTable::new(sh.tuning.lmr_divisor),
            root_moves: sh
                .root_moves
                .iter()
                .map(|&mv| RootMove {
                    mv,
                    score: -INF,
                    prev_score: -INF,
                    pv: vec![mv],
                    seldepth: 0,
                })
                .collect(),
            pondering: sh.control.is_pondering(),
            time_base: sh.started,
            info,
        }
    }

    pub(super) fn is_main(&self) -> bool {
        self.id == 0
    }
}

impl Worker<'_> {
    /// Step 3b of the node search: the database's score of `pos`, if it
    /// holds the position and the score is taken (counted in `tbhits`).
    ///
    /// A win or loss without a distance is not taken after a reversible
    /// move. It says who wins but not how: were it taken there, every
    /// reversible line of a won ending would score alike, the search would
    /// end one ply below the root and play the first winning move of its
    /// order, blind to the opponent's reply that repeats the position a
    /// third time (a draw the tables do not see). After a reversible move
    /// the search goes on as without tables, its evaluation and repetition
    /// checks choosing, and takes the tables' word after a capture, a
    /// crowning or a man's step forward: finitely many, each one progress.
    /// Only a root inside such tables reaches them by a reversible move (a
    /// larger root enters them by a capture), so deeper roots search as
    /// before; tables with distances are always taken (the distance
    /// shrinks with every winning move).
    #[inline]
    pub(super) fn probe_tablebase(&mut self, pos: &Position, ply: usize) -> Option<i32> {
        let value = self.sh.egtb?.probe(pos)?;
        if value.wdl != Wdl::Draw && value.plies.is_none() && self.path.reversible_into(ply) {
            return None;
        }
        self.sh.tbhits.fetch_add(1, Ordering::Relaxed);
        Some(score_of(value, ply, draw_score(self.sh.contempt, ply)))
    }
}
