//! The search: what the protocol layer drives.
//!
//! Contract (the protocol crate depends on exactly this surface):
//! - `Searcher` owns the transposition table and the options; `search` is
//!   blocking (the protocol runs it on a worker thread and keeps reading
//!   input). The tree search itself runs on `threads` threads of its own
//!   (big stacks: a move list lives on each ply's frame); the calling
//!   thread meanwhile hands their reports to `info`.
//! - `SearchControl` is shared (`Arc`) between the reader and the search:
//!   `stop()` ends the search within milliseconds; `ponder_hit()` turns a
//!   ponder search into a normal timed one. A ponder or infinite search
//!   with a legal move returns only after one of them.
//! - `info` is called after every completed iteration (and on aspiration
//!   fail-high/low) with what to report; the caller formats it.
//!
//! The search: iterative deepening with aspiration windows from depth 5
//! (`iterate.rs`); negamax principal variation search (`node.rs`, its
//! steps numbered as Stockfish numbers them); a shared transposition table (`tt/`, scores and
//! bounds in `score.rs`); quiescence that resolves every pending capture (a
//! position where the side to move must capture is never a leaf); move
//! ordering by table move, promotions, two killers per ply and a history
//! table (`picker.rs`, `history.rs`); late move reductions (never for
//! captures or promotions), reverse futility and late move pruning at low
//! depth, internal iterative reduction and ProbCut (off by default: its
//! screening is in CHANGELOG.md), each a named function in
//! `node.rs` and switchable in `Tuning` (`params.rs`, with every other
//! number the search is tuned by); no null move
//! (zugzwang is common in draughts). Repetition of a position of the game
//! (since its last irreversible move) or of the search path is a draw
//! (`repetition.rs`); no legal move is a loss at that ply. Lazy SMP: every
//! thread (`worker.rs`) runs its own iterative deepening on the shared
//! table, odd helpers one ply deeper; the main thread keeps time and
//! decides. In the lab build (`lab/`, the engine's `lab` feature), the
//! `baseline` option replaces all of this with plain fixed-depth
//! alpha-beta on material, and `Style` with the sparring opponent the lab
//! crate installs; the product reaches the lab only through the empty
//! hooks of `lab/mod.rs`.

pub mod bench;
mod control;
mod eval_stack;
mod history;
mod iterate;
pub mod lab;
mod lag;
mod limits;
mod node;
mod params;
mod picker;
mod repetition;
pub mod score;
mod shot;
pub mod skill;
mod tablebase;
pub mod tt;
mod worker;

pub use control::SearchControl;
pub use limits::{Clock, SearchLimits, TimeBudget};
pub use score::{Bound, Score, MATE, MAX_DEPTH, MAX_PLY};

use crate::egtb::Tablebase;
use crate::eval::Weights;
use crate::game::Game;
use crate::movegen;
use crate::moves::Move;
use crate::position::Position;
use lag::AnswerLag;
pub use params::Tuning;
use score::INF;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};
use tt::TranspositionTable;
use worker::{Shared, Worker, WorkerResult};

/// What the search reports after an iteration (or an aspiration failure), for
/// the protocol to format.
#[derive(Clone, Debug)]
pub struct SearchInfo {
    /// The iteration's depth in plies.
    pub depth: u32,
    /// The deepest ply reached (quiescence included).
    pub seldepth: u32,
    /// 1-based line number (MultiPV).
    pub multipv: u32,
    /// The line's score, from the side to move's view.
    pub score: Score,
    /// Exact, or the bound an aspiration failure gives.
    pub bound: Bound,
    /// Nodes searched so far, all threads.
    pub nodes: u64,
    /// Nodes per second so far.
    pub nps: u64,
    /// Per mille of the transposition table in use.
    pub hashfull: u32,
    /// Time since the search started.
    pub time: Duration,
    /// The principal variation, from the root.
    pub pv: Vec<Move>,
    /// Positions found in the endgame databases so far, all threads.
    pub tbhits: u64,
}

/// What a finished search answers.
#[derive(Clone, Debug, Default)]
pub struct SearchOutcome {
    /// `None` only when the side to move has no legal move.
    pub best_move: Option<Move>,
    /// The expected reply to `best_move`, to ponder on.
    pub ponder_move: Option<Move>,
    /// The best move's score (`None` when no iteration completed).
    pub score: Option<Score>,
    /// The deepest completed iteration.
    pub depth: u32,
    /// Nodes searched, all threads.
    pub nodes: u64,
    /// Nodes searched by each thread, the main thread first (for
    /// measuring Lazy SMP: with a core per thread, the time to a depth
    /// follows the busiest thread).
    pub thread_nodes: Vec<u64>,
    /// The search's last report: the best line of the deepest completed
    /// iteration with the totals at the end (all nodes, the whole time,
    /// the table's use, the database hits), for the final `info` line.
    /// `None` when no iteration completed.
    pub last: Option<SearchInfo>,
    /// Lab: what the node search counted, all threads (`lab::SearchStats`;
    /// empty outside the lab build).
    pub stats: lab::SearchStats,
    /// What the search planned for its time, and what it took.
    pub plan: TimePlan,
}

/// A search's time: what it planned (UCI `debug on` shows it) and took.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimePlan {
    /// How long to think, measured from when the clock started (no limit
    /// when neither a clock nor a move time was given).
    pub budget: TimeBudget,
    /// The `Move Overhead` option kept back.
    pub move_overhead: Duration,
    /// The answer lag kept back on top (`lag.rs`): the estimate on a
    /// clock, nothing otherwise.
    pub lag: Duration,
    /// What the search took on its own clock (from the `go` line, or the
    /// `ponderhit` line, to the answer); `None` for a ponder search
    /// stopped before its hit, which never ran on its clock.
    pub took: Option<Duration>,
}

/// The protocol's options that shape a search (set between searches).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    /// Search threads (Lazy SMP); 1 to `Searcher::MAX_THREADS`.
    pub threads: usize,
    /// How many best lines to report (MultiPV).
    pub multipv: usize,
    /// Kept back from the clock for the time the move takes to reach the GUI.
    pub move_overhead: Duration,
    /// The lab's options (`lab::LabOptions`: the baseline, the style);
    /// empty outside the lab build.
    pub lab: lab::LabOptions,
    /// Positions of up to this many pieces are looked up in the endgame
    /// databases (`Searcher::set_tablebase`), when those are complete for
    /// that many; 0: never.
    pub egtb_pieces: u32,
    /// How much worse than even a draw is for the side the engine plays
    /// (centi-men; `score::draw_score`), outside analysis.
    pub contempt: i32,
    /// The strength played (`skill`): a level from 0, the weakest, to
    /// `skill::MAX_SKILL_LEVEL`, full strength, or a point between two
    /// (`UCI_Elo`).
    pub skill_level: skill::Skill,
}

impl Default for SearchOptions {
    fn default() -> SearchOptions {
        SearchOptions {
            threads: 1,
            multipv: 1,
            move_overhead: Duration::from_millis(30),
            lab: lab::LabOptions::default(),
            egtb_pieces: crate::egtb::MAX_PIECES,
            contempt: 0,
            skill_level: skill::Skill::FULL,
        }
    }
}

/// Stack of each search thread: the tree keeps a move list (8 KB) per ply.
const SEARCH_STACK_BYTES: usize = 64 << 20;

/// The search as the protocol holds it: the table, the options, the weights and
/// the switches, kept from one search to the next.
pub struct Searcher {
    options: SearchOptions,
    tt: TranspositionTable,
    weights: Weights,
    tuning: Tuning,
    tablebase: Option<Arc<Tablebase>>,
    /// How late the GUI's clock says our answers come, beyond our own.
    lag: AnswerLag,
    /// What limited levels draw their moves with (`skill`).
    skill_rng: crate::rng::Rng,
}

impl Searcher {
    /// The table size a new engine starts with.
    pub const DEFAULT_HASH_MB: usize = TranspositionTable::DEFAULT_MB;
    /// The largest table the `Hash` option allows.
    pub const MAX_HASH_MB: usize = TranspositionTable::MAX_MB;
    /// The most search threads. More than the CPUs is allowed (a GUI's
    /// saved setting may come from a bigger machine, and other UCI engines
    /// allow as many); beyond this the threads' stacks alone would take
    /// gigabytes.
    pub const MAX_THREADS: usize = 256;

    /// A searcher with a cleared table of `hash_mb` megabytes and default
    /// options.
    pub fn new(hash_mb: usize) -> Searcher {
        Searcher {
            options: SearchOptions::default(),
            tt: TranspositionTable::new(hash_mb),
            weights: Weights::DEFAULT,
            tuning: Tuning::default(),
            tablebase: None,
            lag: AnswerLag::default(),
            skill_rng: crate::rng::Rng::new(skill::seed_from_time()),
        }
    }

    /// The options the next search uses.
    pub fn options(&self) -> &SearchOptions {
        &self.options
    }

    /// Changes the options of the next search.
    pub fn options_mut(&mut self) -> &mut SearchOptions {
        &mut self.options
    }

    /// The evaluation weights the search uses.
    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    /// Replaces the evaluation weights.
    pub fn set_weights(&mut self, weights: Weights) {
        self.weights = weights;
    }

    /// The selective-search switches (for measuring each idea).
    pub fn tuning(&self) -> &Tuning {
        &self.tuning
    }

    /// Changes the selective-search switches.
    pub fn tuning_mut(&mut self) -> &mut Tuning {
        &mut self.tuning
    }

    /// The endgame databases the search probes (`None`: none). Tables of
    /// other rules than the searched position's are never probed.
    pub fn set_tablebase(&mut self, tables: Option<Arc<Tablebase>>) {
        self.tablebase = tables;
    }

    /// The endgame databases set, if any.
    pub fn tablebase(&self) -> Option<&Arc<Tablebase>> {
        self.tablebase.as_ref()
    }

    /// The databases a search of `root` probes, and up to how many pieces:
    /// none for the baseline, for tables of other rules, or when
    /// `egtb_pieces` is below the smallest tables.
    fn probing(&self, root: &Position) -> Option<tablebase::Probing<'_>> {
        let tables = self.tablebase.as_deref()?;
        let pieces = self.options.egtb_pieces.min(tables.complete_pieces());
        (!self.options.baseline() && tables.rules() == root.rules() && pieces >= 2)
            .then_some(tablebase::Probing { tables, pieces })
    }

    /// Builds, while the engine is idle, what the first search would
    /// otherwise build on its clock: the evaluation's tables (the weights
    /// decoded, once a process, for both variants) and the pages of a table
    /// small enough to be touched whole. The protocol calls it on `isready`
    /// and Hub `init`; it changes no search.
    pub fn prepare(&self) {
        for variant in [crate::Variant::Armenian, crate::Variant::Turkish] {
            self.weights.get(variant);
        }
        self.tt.prepare();
    }

    /// Resizes (and clears) the transposition table. When the system cannot
    /// give that much memory the table is smaller: `hash_mb()` tells.
    pub fn set_hash_mb(&mut self, mb: usize) {
        let mb = mb.clamp(TranspositionTable::MIN_MB, Self::MAX_HASH_MB);
        if mb != self.tt.size_mb() {
            // Free the old table before allocating the new one.
            self.tt = TranspositionTable::new(1);
            self.tt = TranspositionTable::new(mb);
        } else {
            self.tt.clear();
        }
    }

    /// The table's actual size in megabytes.
    pub fn hash_mb(&self) -> usize {
        self.tt.size_mb()
    }

    /// Forgets everything learned: the table (history and killers live
    /// only as long as one search).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.lag.new_game();
    }

    /// What a search of `game` within `limits` plans for its time now.
    fn time_plan(&self, game: &Game, limits: &SearchLimits) -> TimePlan {
        let us = game.position().side_to_move();
        let lag = if limits.on_clock(us) {
            self.lag.estimate()
        } else {
            Duration::ZERO
        };
        let move_overhead = self.options.move_overhead;
        TimePlan {
            budget: limits.time_budget_with_lag(us, move_overhead, lag),
            move_overhead,
            lag,
            took: None,
        }
    }

    /// Per mille of the table written by the last search.
    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// Searches the game's current position within `limits`. Blocking; the
    /// work runs on `threads` search threads while the calling thread
    /// passes their reports to `info`. Below full strength
    /// (`SearchOptions::skill_level`) the level's limits and choice apply
    /// (`skill`).
    pub fn search(
        &mut self,
        game: &Game,
        limits: &SearchLimits,
        control: &SearchControl,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchOutcome {
        let started = limits.received.unwrap_or_else(Instant::now);
        let limits = &SearchLimits {
            received: Some(started),
            ..limits.clone()
        };
        self.lag.observe(game, limits);
        let skill = self.options.skill_level;
        let mut outcome = if !skill.is_full() && !self.options.baseline() {
            self.search_at_skill(skill, game, limits, started, control, info)
        } else {
            self.search_full(game, limits, started, control, info)
        };
        if outcome.best_move.is_some() {
            // With no legal move the game is over: nothing to wait for.
            control.wait_until_released(limits.infinite);
        }
        let took = if limits.ponder {
            control.ponder_hit_at().map(|hit| hit.elapsed())
        } else {
            Some(started.elapsed())
        };
        // Early answers (a forced move, the tables' one move) too.
        outcome.plan = TimePlan {
            took,
            ..self.time_plan(game, limits)
        };
        self.lag.record(game, limits, took);
        outcome
    }

    /// The search at full strength, on a clock that started at `started`
    /// (when `limits` were received).
    fn search_full(
        &mut self,
        game: &Game,
        limits: &SearchLimits,
        started: Instant,
        control: &SearchControl,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchOutcome {
        let root = *game.position();
        let mut moves = movegen::legal_moves(&root);
        if moves.is_empty() {
            return SearchOutcome::default();
        }
        // A forced move (the position has one legal move) needs no thought:
        // one iteration, so that the GUI still gets a line with a score. A
        // restriction to one move (`searchmoves`) is a question about that
        // move and is searched like any other.
        let waits = limits.infinite || control.is_pondering();
        let forced = moves.len() == 1 && !waits;
        if !limits.searchmoves.is_empty() && moves.iter().any(|m| limits.searchmoves.contains(m)) {
            moves.retain(|m| limits.searchmoves.contains(m));
        }
        let probing = self.probing(&root);
        let root_probe = probing.and_then(|p| tablebase::root_moves(p, &root, &moves));
        if let Some(r) = &root_probe {
            moves = r.moves.iter().copied().collect();
            if moves.len() == 1 && !waits {
                // The tables keep one move: no search, the tables' score.
                return SearchOutcome {
                    best_move: Some(moves[0]),
                    score: Some(Score::from_internal(r.score)),
                    ..SearchOutcome::default()
                };
            }
        }
        if let Some(out) = self.other_search(game, &moves, limits, forced, control, info) {
            return out;
        }
        self.tt.new_search();
        let baseline = self.options.baseline();
        let threads = if baseline {
            1
        } else {
            self.options.threads.clamp(1, Self::MAX_THREADS)
        };
        let mut max_depth = if forced {
            1
        } else {
            limits.depth.map_or(MAX_DEPTH, |d| d.clamp(1, MAX_DEPTH))
        };
        if let Some(moves) = limits.mate {
            max_depth = max_depth.min(moves.saturating_mul(2).saturating_add(1).max(1));
        }
        let max_depth = max_depth as i32;
        let shared = Shared {
            tt: &self.tt,
            control,
            abort: AtomicBool::new(false),
            nodes: (0..threads).map(|_| AtomicU64::new(0)).collect(),
            root,
            history: game.reversible_keys(),
            root_moves: &moves,
            max_depth,
            node_limit: limits.nodes.unwrap_or(u64::MAX).max(1),
            multipv: if baseline {
                1
            } else {
                self.options.multipv.max(1)
            },
            lab: lab::SharedLab::of(&self.options),
            infinite: limits.infinite,
            started,
            budget: self.time_plan(game, limits).budget,
            weights: self.weights.clone(),
            tuning: self.tuning.clone(),
            egtb: probing,
            contempt: limits.contempt(&self.options),
            tbhits: AtomicU64::new(root_probe.map_or(0, |r| r.probes)),
        };
        let results = run_threads(&shared, threads, info);
        let tbhits = shared.tbhits.load(Ordering::Relaxed);
        self.outcome(&results, &root, moves[0], started, tbhits, info)
    }

    /// The answer from the threads' results. The deepest completed
    /// iteration wins (the main thread on a tie): with a depth limit, a
    /// helper may finish it first, and then its line is reported too.
    fn outcome(
        &self,
        results: &[WorkerResult],
        root: &Position,
        first_move: Move,
        started: Instant,
        tbhits: u64,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchOutcome {
        let nodes: u64 = results.iter().map(|r| r.nodes).sum();
        let mut main = &results[0];
        for r in &results[1..] {
            if r.depth > main.depth && r.best.is_some() {
                main = r;
            }
        }
        let best = main.best.as_ref();
        let elapsed = started.elapsed();
        let last = best
            .filter(|b| b.score > -INF && main.depth > 0)
            .map(|b| SearchInfo {
                depth: main.depth,
                seldepth: (b.seldepth as u32).max(main.depth),
                multipv: 1,
                score: Score::from_internal(b.score.clamp(-MATE, MATE)),
                bound: Bound::Exact,
                nodes,
                nps: (nodes as f64 / elapsed.as_secs_f64().max(1e-6)) as u64,
                hashfull: self.tt.hashfull(),
                time: elapsed,
                pv: b.pv.clone(),
                tbhits,
            });
        if !std::ptr::eq(main, &results[0]) {
            // A helper's line is the answer: it is reported as well.
            if let Some(l) = &last {
                info(l);
            }
        }
        let best_move = best.map(|b| b.mv).or(Some(first_move));
        let mut ponder_move = best.and_then(|b| b.pv.get(1).copied());
        if ponder_move.is_none() {
            if let Some(mv) = best_move {
                ponder_move = self.ponder_from_table(root, &mv);
            }
        }
        SearchOutcome {
            best_move,
            ponder_move,
            score: best
                .filter(|b| b.score > -INF && main.depth > 0)
                .map(|b| Score::from_internal(b.score)),
            depth: main.depth,
            nodes,
            thread_nodes: results.iter().map(|r| r.nodes).collect(),
            last,
            stats: lab::summed(results),
            plan: TimePlan::default(),
        }
    }

    /// The reply the table expects after `mv`, if it knows one.
    fn ponder_from_table(&self, root: &Position, mv: &Move) -> Option<Move> {
        let child = root.play(mv);
        let hit = self.tt.probe(child.key(), 1)?;
        movegen::legal_moves(&child)
            .into_iter()
            .find(|m| hit.mv.matches(m))
    }
}

/// Runs `threads` workers on `shared` (each on a big stack of its own)
/// while this thread hands the main worker's reports to `info`; returns
/// their results, the main thread's first.
fn run_threads(
    shared: &Shared,
    threads: usize,
    info: &mut dyn FnMut(&SearchInfo),
) -> Vec<WorkerResult> {
    let (tx, rx) = mpsc::channel::<SearchInfo>();
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|id| {
                let tx = (id == 0).then(|| tx.clone());
                std::thread::Builder::new()
                    .name(format!("tama-search-{id}"))
                    .stack_size(SEARCH_STACK_BYTES)
                    .spawn_scoped(s, move || Worker::new(id, shared, tx).run())
                    .expect("cannot start a search thread")
            })
            .collect();
        drop(tx);
        for report in rx {
            info(&report);
        }
        handles
            .into_iter()
            .map(|h| h.join().expect("search thread panicked"))
            .collect()
    })
}

#[cfg(test)]
mod tests;
