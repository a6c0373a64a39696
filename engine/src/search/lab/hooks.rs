//! The hooks of the lab build, as the search calls them (their empty
//! twins, for the product, are `product.rs`).

use super::style::{self, Style};
use crate::game::Game;
use crate::moves::Move;
use crate::position::Position;
use crate::search::score::MAX_PLY;
use crate::search::worker::{Shared, Worker, WorkerResult};
use crate::search::Searcher;
use crate::search::{SearchControl, SearchInfo, SearchLimits, SearchOptions, SearchOutcome};

pub use super::stats::SearchStats;
pub use super::switches::LabSwitches;

/// The lab's options of a search (`SearchOptions::lab`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LabOptions {
    /// Plain fixed-depth alpha-beta with a material-only evaluation, the
    /// baseline that measurements compare the real search against.
    pub baseline: bool,
    /// Which search plays (`Style`).
    pub style: Style,
}

/// What the threads of one search share of the lab.
pub(in crate::search) struct SharedLab {
    baseline: bool,
}

impl SharedLab {
    pub fn of(options: &SearchOptions) -> SharedLab {
        SharedLab {
            baseline: options.lab.baseline,
        }
    }
}

/// One thread's lab state.
pub(in crate::search) struct WorkerLab {
    /// Extended plies on the line from the root to each ply.
    pub extended: [u8; MAX_PLY + 2],
    /// The node search's counters.
    pub stats: SearchStats,
}

impl WorkerLab {
    pub fn new() -> WorkerLab {
        WorkerLab {
            extended: [0; MAX_PLY + 2],
            stats: SearchStats::default(),
        }
    }
}

/// What a thread counted (`WorkerResult::counts`).
pub(in crate::search) type Counts = SearchStats;

/// The threads' counts, summed (`SearchOutcome::stats`).
pub(in crate::search) fn summed(results: &[WorkerResult]) -> SearchStats {
    results.iter().fold(SearchStats::default(), |mut sum, r| {
        sum.add(&r.counts);
        sum
    })
}

impl SearchOptions {
    /// Whether the lab's baseline search plays.
    #[inline(always)]
    pub fn baseline(&self) -> bool {
        self.lab.baseline
    }
}

impl Shared<'_> {
    /// Whether the lab's baseline search plays.
    #[inline(always)]
    pub(in crate::search) fn baseline(&self) -> bool {
        self.lab.baseline
    }
}

/// An exempt sacrifice being searched: the nodes counted when it began.
pub(in crate::search) type Exempt = Option<u64>;

impl Worker<'_> {
    /// What this thread counted, for its result.
    #[inline(always)]
    pub(in crate::search) fn counts(&self) -> Counts {
        self.lab.stats.with_nodes(self.nodes)
    }

    /// Whether quiet moves that allow a capture are ordered after the
    /// safe ones at this node (`safety_order_depth`).
    #[inline(always)]
    pub(in crate::search) fn by_safety(&self, capture: bool, depth: i32) -> bool {
        !capture && depth >= self.sh.tuning.lab.safety_order_depth
    }

    /// A move is about to be searched; `sacrifice`: in full, as an exempt
    /// sacrifice (counted in `exempt_moves` and `exempt_nodes`).
    #[inline(always)]
    pub(in crate::search) fn enter_exempt(&mut self, sacrifice: bool) -> Exempt {
        sacrifice.then(|| self.lab.stats.enter_exempt(self.nodes))
    }

    /// The move entered with `enter_exempt` is searched.
    #[inline(always)]
    pub(in crate::search) fn leave_exempt(&mut self, exempt: Exempt) {
        if let Some(start) = exempt {
            self.lab.stats.leave_exempt(start, self.nodes);
        }
    }

    /// The baseline's score of a root move's `child`, when the baseline
    /// plays.
    #[inline(always)]
    pub(in crate::search) fn baseline_child(
        &mut self,
        child: &Position,
        depth: i32,
        alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        self.sh
            .baseline()
            .then(|| -self.plain(child, depth - 1, -beta, -alpha, 1))
    }
}

impl Searcher {
    /// The sparring search's answer, when it plays (`Style::Sparring`,
    /// not overruled by the baseline), on the root `moves` (depth 1 when
    /// the move is `forced`).
    #[allow(clippy::too_many_arguments)]
    pub(in crate::search) fn other_search(
        &self,
        game: &Game,
        moves: &[Move],
        limits: &SearchLimits,
        forced: bool,
        control: &SearchControl,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> Option<SearchOutcome> {
        let o = &self.options;
        if o.lab.style != Style::Sparring || o.lab.baseline {
            return None;
        }
        let search = style::sparring().expect(
            "Style=sparring: no sparring search is installed (tama-lab installs it at start)",
        );
        let mut limits = limits.clone();
        if forced {
            limits.depth = Some(1);
        }
        Some(search(&self.tt, game, moves, &limits, o, control, info))
    }
}
