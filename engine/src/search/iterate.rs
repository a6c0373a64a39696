//! Iterative deepening: one thread's loop over depths, the aspiration
//! window around each root line, the root search, the stop checks (nodes,
//! time, `stop`, ponder hit) and, on the main thread, the reports.

use super::lab::count;
use super::params::{ASPIRATION_DELTA, ASPIRATION_MAX_DELTA, ASPIRATION_MIN_DEPTH};
use super::score::{is_mate, mate_in, Bound, Score, INF, MATE};
use super::worker::{RootMove, Worker, WorkerResult, POLL_INTERVAL};
use super::SearchInfo;
use crate::position::Position;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

impl<'a> Worker<'a> {
    // ----- stopping -------------------------------------------------------

    /// Counts a node; every `POLL_INTERVAL` nodes, looks at the clock.
    #[inline(always)]
    pub(super) fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes >= self.next_poll {
            self.poll();
        }
    }

    /// The stop checks: the shared flags on every thread; the node limit,
    /// the ponder hit and the hard time limit on the main thread.
    #[cold]
    fn poll(&mut self) {
        self.next_poll = (self.nodes + POLL_INTERVAL).min(self.sh.node_limit.max(self.nodes + 1));
        self.sh.nodes[self.id].store(self.nodes, Ordering::Relaxed);
        if self.sh.abort.load(Ordering::Relaxed) || self.sh.control.is_stopped() {
            self.stopped = true;
            return;
        }
        if !self.is_main() {
            return;
        }
        if self.nodes >= self.sh.node_limit {
            self.abort();
            return;
        }
        self.notice_ponder_hit();
        if !self.pondering {
            if let Some(hard) = self.sh.budget.hard {
                if self.time_base.elapsed() >= hard {
                    self.abort();
                }
            }
        }
    }

    /// After the opponent played the expected move, our own clock runs
    /// from when the hit was read.
    fn notice_ponder_hit(&mut self) {
        if self.pondering && !self.sh.control.is_pondering() {
            self.pondering = false;
            self.time_base = self.sh.control.ponder_hit_at().unwrap_or_else(Instant::now);
        }
    }

    /// Ends the search on every thread.
    fn abort(&mut self) {
        self.stopped = true;
        self.sh.abort.store(true, Ordering::Relaxed);
    }

    // ----- iterative deepening ---------------------------------------------

    /// Iterative deepening until the depth, the time or `stop` ends it.
    pub fn run(mut self) -> WorkerResult {
        let mut best: Option<RootMove> = None;
        let mut completed = 0u32;
        let multipv = self.sh.multipv.clamp(1, self.root_moves.len().max(1));
        let helper_offset = if self.is_main() {
            0
        } else {
            (self.id & 1) as i32
        };
        let mut depth = 1;
        while depth <= self.sh.max_depth {
            let d = (depth + helper_offset).min(self.sh.max_depth);
            self.root_depth = d;
            for rm in &mut self.root_moves {
                rm.prev_score = rm.score;
            }
            for pv_idx in 0..multipv {
                self.seldepth = 0;
                self.search_line(d, pv_idx);
                if self.stopped {
                    break;
                }
            }
            if self.stopped {
                break;
            }
            completed = d as u32;
            let previous = best.as_ref().map(|b| b.mv);
            best = Some(self.root_moves[0].clone());
            if d >= self.sh.max_depth {
                // The depth asked for is done (by whichever thread first):
                // the search is over.
                if self.is_main() {
                    self.report_lines(d, multipv);
                }
                self.sh.abort.store(true, Ordering::Relaxed);
                break;
            }
            if self.is_main() {
                self.report_lines(d, multipv);
                if self.time_to_stop(previous != best.as_ref().map(|b| b.mv)) {
                    break;
                }
            }
            depth += 1;
        }
        if self.is_main() {
            // The helpers end with the main thread (`Searcher::search`
            // holds the answer of a ponder or infinite search until it is
            // told).
            self.sh.abort.store(true, Ordering::Relaxed);
        }
        self.sh.nodes[self.id].store(self.nodes, Ordering::Relaxed);
        if best.is_none() {
            // Stopped before depth 1 completed: any legal move.
            best = self.root_moves.first().cloned();
        }
        WorkerResult {
            best,
            depth: completed,
            nodes: self.nodes,
            counts: self.counts(),
        }
    }

    /// After a completed iteration: is there time for another?
    fn time_to_stop(&mut self, best_changed: bool) -> bool {
        if self.sh.control.is_stopped() {
            return true;
        }
        self.notice_ponder_hit();
        if self.sh.infinite || self.pondering {
            return false;
        }
        let best = self.root_moves[0].score;
        if is_mate(best) && (MATE - best.abs()) <= self.root_depth && self.mate_is_shortest(best) {
            return true; // a proven mate: deeper will not change it
        }
        !self
            .sh
            .budget
            .allows_next_iteration(self.time_base.elapsed(), best_changed)
    }

    /// Whether `best`, a win (or loss) found within the iteration's depth,
    /// is the quickest win (the slowest loss): reductions and pruning may
    /// have hidden a quicker one, so a full-width search asks whether any
    /// root move wins two plies sooner (loses later). A move that does is
    /// put first with what it was found to score, and the iterations go on.
    fn mate_is_shortest(&mut self, best: i32) -> bool {
        let plies = MATE - best.abs();
        let (alpha, depth) = if best > 0 {
            if plies <= 2 {
                return true; // nothing is quicker than a win at ply 1
            }
            (mate_in(plies as usize - 2) - 1, plies - 2)
        } else {
            (best, plies)
        };
        let root = self.sh.root;
        self.full_width = true;
        let mut found = None;
        for i in 0..self.root_moves.len() {
            let mv = self.root_moves[i].mv;
            let child = root.play(&mv);
            self.path.push(&root, &mv, &child, 0);
            let v = -self.search(&child, -alpha - 1, -alpha, depth - 1, 1, false);
            self.path.pop();
            if self.stopped {
                break;
            }
            if v > alpha {
                found = Some((i, v));
                break;
            }
        }
        self.full_width = false;
        match found {
            Some((i, v)) => {
                let rm = &mut self.root_moves[i];
                rm.score = v;
                rm.pv.truncate(1);
                self.root_moves[..=i].rotate_right(1);
                false
            }
            None => !self.stopped,
        }
    }

    /// Searches root line `pv_idx` (MultiPV) at `depth` within an
    /// aspiration window around its last score, widened on each failure.
    fn search_line(&mut self, depth: i32, pv_idx: usize) {
        let prev = self.root_moves[pv_idx].prev_score;
        let mut delta = ASPIRATION_DELTA;
        let (mut alpha, mut beta) =
            if depth >= ASPIRATION_MIN_DEPTH && !self.sh.baseline() && !is_mate(prev) {
                ((prev - delta).max(-INF), (prev + delta).min(INF))
            } else {
                (-INF, INF)
            };
        loop {
            let v = self.root_search(depth, alpha, beta, pv_idx);
            self.root_moves[pv_idx..].sort_by_key(|m| std::cmp::Reverse(m.score));
            if self.stopped {
                return;
            }
            if v <= alpha && alpha > -INF {
                self.report_bound(depth, pv_idx, Bound::Upper);
                beta = (alpha + beta) / 2;
                alpha = (v - delta).max(-INF);
            } else if v >= beta && beta < INF {
                self.report_bound(depth, pv_idx, Bound::Lower);
                beta = (v + delta).min(INF);
            } else {
                break;
            }
            delta += delta / 2;
            if delta > ASPIRATION_MAX_DELTA {
                alpha = -INF;
                beta = INF;
            }
        }
        self.root_moves[..=pv_idx].sort_by_key(|m| std::cmp::Reverse(m.score));
    }

    /// Searches the root moves from `pv_idx` on: the first with the full
    /// window, the others with a null window first.
    fn root_search(&mut self, depth: i32, mut alpha: i32, beta: i32, pv_idx: usize) -> i32 {
        let root = self.sh.root;
        for rm in &mut self.root_moves[pv_idx + 1..] {
            rm.score = -INF;
        }
        let mut best = -INF;
        for i in pv_idx..self.root_moves.len() {
            let mv = self.root_moves[i].mv;
            let child = root.play(&mv);
            self.path.push(&root, &mv, &child, 0);
            let v = self.root_child(&child, i == pv_idx, depth, alpha, beta);
            self.path.pop();
            if self.stopped {
                return best;
            }
            let rm = &mut self.root_moves[i];
            if i == pv_idx || v > alpha {
                rm.score = v;
                rm.seldepth = self.seldepth;
                rm.pv.clear();
                rm.pv.push(mv);
                if !self.sh.baseline() {
                    rm.pv
                        .extend_from_slice(&self.pv[1][1..self.pv_len[1].max(1)]);
                }
            } else {
                rm.score = -INF;
            }
            best = best.max(v);
            if v > alpha {
                alpha = v;
                if v >= beta {
                    break;
                }
            }
        }
        best
    }

    /// The score of a root move's `child`: the first move (`first`) with
    /// the full window, the others with a null window first.
    fn root_child(
        &mut self,
        child: &Position,
        first: bool,
        depth: i32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        if let Some(v) = self.baseline_child(child, depth, alpha, beta) {
            return v;
        }
        if first {
            return -self.search(child, -beta, -alpha, depth - 1, 1, true);
        }
        let mut v = -self.search(child, -alpha - 1, -alpha, depth - 1, 1, false);
        if v > alpha && v < beta && !self.stopped {
            count!(self, pvs_researches += 1);
            v = -self.search(child, -beta, -alpha, depth - 1, 1, true);
        }
        v
    }

    // ----- reporting (main thread) ----------------------------------------

    /// Nodes of all threads (this one's own count is the freshest).
    fn total_nodes(&self) -> u64 {
        self.sh
            .nodes
            .iter()
            .enumerate()
            .map(|(i, n)| {
                if i == self.id {
                    self.nodes
                } else {
                    n.load(Ordering::Relaxed)
                }
            })
            .sum()
    }

    fn info_for(&self, depth: i32, line: usize, bound: Bound) -> SearchInfo {
        let rm = &self.root_moves[line];
        let elapsed = self.sh.started.elapsed();
        let nodes = self.total_nodes();
        let score = if rm.score == -INF {
            rm.prev_score
        } else {
            rm.score
        };
        SearchInfo {
            depth: depth as u32,
            seldepth: rm.seldepth.max(depth as usize) as u32,
            multipv: line as u32 + 1,
            score: Score::from_internal(score.clamp(-MATE, MATE)),
            bound,
            nodes,
            nps: (nodes as f64 / elapsed.as_secs_f64().max(1e-6)) as u64,
            hashfull: self.sh.tt.hashfull(),
            time: elapsed,
            pv: rm.pv.clone(),
            tbhits: self.sh.tbhits.load(Ordering::Relaxed),
        }
    }

    /// Reports every line of a completed iteration.
    fn report_lines(&self, depth: i32, lines: usize) {
        if let Some(tx) = &self.info {
            for line in 0..lines {
                let _ = tx.send(self.info_for(depth, line, Bound::Exact));
            }
        }
    }

    /// Reports an aspiration failure (only after half a second: the early
    /// iterations are too quick to be worth a line).
    fn report_bound(&self, depth: i32, line: usize, bound: Bound) {
        if let Some(tx) = &self.info {
            if self.sh.started.elapsed() >= Duration::from_millis(500) {
                let _ = tx.send(self.info_for(depth, line, bound));
            }
        }
    }
}
