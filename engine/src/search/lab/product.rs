//! The lab's hooks in the product build: nothing. Each is the empty twin
//! of the one in `hooks.rs` (and `switches.rs`), so that the search reads
//! the same in both builds and the product pays for none of it.

use crate::game::Game;
use crate::moves::Move;
use crate::position::Position;
use crate::search::worker::{Shared, Worker, WorkerResult};
use crate::search::Searcher;
use crate::search::{SearchControl, SearchInfo, SearchLimits, SearchOptions, SearchOutcome};

/// The lab's switches of the node search: none outside the lab build.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LabSwitches {}

/// The lab's options of a search: none outside the lab build.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LabOptions {}

/// The node search's counters: none outside the lab build.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats;

pub(in crate::search) struct SharedLab;

impl SharedLab {
    #[inline(always)]
    pub fn of(_: &SearchOptions) -> SharedLab {
        SharedLab
    }

    #[inline(always)]
    fn baseline(&self) -> bool {
        false
    }
}

pub(in crate::search) struct WorkerLab;

impl WorkerLab {
    #[inline(always)]
    pub fn new() -> WorkerLab {
        WorkerLab
    }

    #[inline(always)]
    fn counts(&self) -> SearchStats {
        SearchStats
    }
}

pub(in crate::search) type Counts = SearchStats;

#[inline(always)]
pub(in crate::search) fn summed(results: &[WorkerResult]) -> SearchStats {
    results.first().map_or(SearchStats, |r| r.counts)
}

impl SearchOptions {
    /// Whether the lab's baseline search plays: never in the product.
    #[inline(always)]
    pub fn baseline(&self) -> bool {
        false
    }
}

impl Shared<'_> {
    #[inline(always)]
    pub(in crate::search) fn baseline(&self) -> bool {
        self.lab.baseline()
    }
}

/// No exempt sacrifice is counted in the product.
pub(in crate::search) struct Exempt;

impl Worker<'_> {
    #[inline(always)]
    pub(in crate::search) fn counts(&self) -> Counts {
        self.lab.counts()
    }

    #[inline(always)]
    pub(in crate::search) fn by_safety(&self, _: bool, _: i32) -> bool {
        false
    }

    #[inline(always)]
    pub(in crate::search) fn enter_exempt(&mut self, _: bool) -> Exempt {
        Exempt
    }

    #[inline(always)]
    pub(in crate::search) fn leave_exempt(&mut self, _: Exempt) {}

    #[inline(always)]
    pub(in crate::search) fn baseline_child(
        &mut self,
        _: &Position,
        _: i32,
        _: i32,
        _: i32,
    ) -> Option<i32> {
        None
    }

    #[inline(always)]
    pub(in crate::search) fn probcut(
        &mut self,
        _: &Position,
        _: i32,
        _: i32,
        _: usize,
    ) -> Option<i32> {
        None
    }

    #[inline(always)]
    pub(in crate::search) fn extension(&mut self, _: bool, _: usize, _: bool, _: usize) -> i32 {
        0
    }

    #[inline(always)]
    pub(in crate::search) fn shot_guard(&self, _: &Position) -> bool {
        false
    }
}

impl Searcher {
    #[inline(always)]
    pub(in crate::search) fn other_search(
        &self,
        _: &Game,
        _: &[Move],
        _: &SearchLimits,
        _: bool,
        _: &SearchControl,
        _: &mut dyn FnMut(&SearchInfo),
    ) -> Option<SearchOutcome> {
        None
    }
}
