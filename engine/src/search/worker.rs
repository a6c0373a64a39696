//! One search thread: iterative deepening over a PVS alpha-beta with
//! quiescence, sharing only the transposition table and the stop flag with
//! the other threads (Lazy SMP).

use super::limits::TimeBudget;
use super::score::{is_mate, mate_in, mated_in, Bound, Score, INF, MATE, MATE_BOUND, MAX_PLY};
use super::tt::{PackedMove, TranspositionTable};
use super::{SearchControl, SearchInfo};
use crate::eval::{self, Weights};
use crate::movegen;
use crate::moves::{Move, MoveList, MAX_MOVES};
use crate::position::Position;
use crate::square::Square;
use arrayvec::ArrayVec;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::Sender;
use std::time::{Duration, Instant};

const NO_MOVE: Move = Move::quiet(Square::A1, Square::A1, false);
const POLL_INTERVAL: u64 = 1024;
const HISTORY_MAX: i32 = 16_384;

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
    pub baseline: bool,
    pub infinite: bool,
    pub started: Instant,
    pub budget: TimeBudget,
    pub weights: Weights,
    pub tuning: Tuning,
}

/// Switches and margins of the selective search, so that each idea can be
/// measured in matches (on against off).
///
/// The defaults come from fixed-nodes self-play (engine example `selfplay`,
/// 40k nodes a move, random 6-ply openings, Armenian): threat probe off
/// +85 Elo (72/116); reverse futility on +44 (off scored 52.5/120); LMR
/// divisor 150 -32 and 130 -80, 260 level; forced-move extension off and
/// the rfp margin 70 / lmp depth 4 set level (80/160) but with smaller
/// trees, so they were kept for the depth per second; internal iterative
/// reduction when the table has no move +30 (87/160 against off). Checked
/// again with the final tree: threat probe on -108 (56/160), LMR divisor
/// 170 -15 and 240 -26, reverse futility to depth 5 +7 (all 160 games).
#[derive(Clone, Debug, PartialEq)]
pub struct Tuning {
    /// Quiescence looks one ply of quiet moves when the opponent threatens
    /// a capture (Scan's idea).
    pub threat_probe: bool,
    /// A forced reply (single legal move) on the principal variation costs
    /// no depth.
    pub forced_extension: bool,
    /// Reverse futility up to this depth (0: off), margin per ply.
    pub rfp_depth: i32,
    pub rfp_margin: i32,
    /// Late move pruning up to this depth (0: off).
    pub lmp_depth: i32,
    /// Internal iterative reduction: a node without a table move at this
    /// depth or more is searched one ply shallower (0: off).
    pub iir_depth: i32,
    /// From this depth on, quiet moves that allow a capture are ordered
    /// after the safe ones (large: off).
    pub safety_order_depth: i32,
    /// Late move reductions from this move number on (0-based).
    pub lmr_min_move: usize,
    /// Late move reduction: 0.5 + ln(depth) ln(move) / (this / 100).
    pub lmr_divisor: u32,
}

impl Default for Tuning {
    fn default() -> Tuning {
        Tuning {
            threat_probe: false,
            forced_extension: false,
            rfp_depth: 3,
            rfp_margin: 70,
            lmp_depth: 4,
            iir_depth: 4,
            safety_order_depth: 100,
            lmr_min_move: 2,
            lmr_divisor: 200,
        }
    }
}

impl Tuning {
    /// Sets one field by name (`threat_probe`, `rfp_depth`, ...) from text.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        let int = || {
            value
                .parse::<i32>()
                .map_err(|_| format!("{name}: expected a number, got {value:?}"))
        };
        let flag = || crate::rules::parse_bool(value).map_err(|e| format!("{name}: {e}"));
        match name {
            "threat_probe" => self.threat_probe = flag()?,
            "forced_extension" => self.forced_extension = flag()?,
            "rfp_depth" => self.rfp_depth = int()?,
            "rfp_margin" => self.rfp_margin = int()?,
            "lmp_depth" => self.lmp_depth = int()?,
            "iir_depth" => self.iir_depth = int()?,
            "safety_order_depth" => self.safety_order_depth = int()?,
            "lmr_min_move" => self.lmr_min_move = int()?.max(1) as usize,
            "lmr_divisor" => self.lmr_divisor = int()?.max(1) as u32,
            _ => return Err(format!("unknown tuning parameter {name:?}")),
        }
        Ok(())
    }
}

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
}

pub(super) struct Worker<'a> {
    id: usize,
    sh: &'a Shared<'a>,
    nodes: u64,
    next_poll: u64,
    stopped: bool,
    root_depth: i32,
    seldepth: usize,
    keys: Vec<u64>,
    /// Reversible plies before each ply (how far back a repetition may be).
    rev: [usize; MAX_PLY + 2],
    killers: [[Move; 2]; MAX_PLY + 2],
    history: Vec<i32>,
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 2],
    lmr: [[u8; 64]; 64],
    root_moves: Vec<RootMove>,
    /// Main thread only: still on the opponent's time, and where our own
    /// clock started.
    pondering: bool,
    time_base: Instant,
    info: Option<Sender<SearchInfo>>,
}

impl<'a> Worker<'a> {
    pub fn new(id: usize, sh: &'a Shared<'a>, info: Option<Sender<SearchInfo>>) -> Worker<'a> {
        let mut lmr = [[0u8; 64]; 64];
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                let v = 0.5
                    + (d as f64).ln() * (m as f64).ln() * 100.0
                        / sh.tuning.lmr_divisor.max(1) as f64;
                *r = v.max(0.0) as u8;
            }
        }
        let mut keys = Vec::with_capacity(sh.history.len() + MAX_PLY + 8);
        keys.extend_from_slice(sh.history);
        let mut rev = [0; MAX_PLY + 2];
        rev[0] = sh.history.len().saturating_sub(1);
        Worker {
            id,
            sh,
            nodes: 0,
            next_poll: POLL_INTERVAL.min(sh.node_limit),
            stopped: false,
            root_depth: 0,
            seldepth: 0,
            keys,
            rev,
            killers: [[NO_MOVE; 2]; MAX_PLY + 2],
            history: vec![0; 2 * 64 * 64],
            pv: vec![[NO_MOVE; MAX_PLY + 1]; MAX_PLY + 2],
            pv_len: [0; MAX_PLY + 2],
            lmr,
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

    fn is_main(&self) -> bool {
        self.id == 0
    }

    // ----- stopping -------------------------------------------------------

    #[inline(always)]
    fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes >= self.next_poll {
            self.poll();
        }
    }

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
        if self.pondering && !self.sh.control.is_pondering() {
            self.pondering = false;
            self.time_base = Instant::now();
        }
        if !self.pondering {
            if let Some(hard) = self.sh.budget.hard {
                if self.time_base.elapsed() >= hard {
                    self.abort();
                }
            }
        }
    }

    fn abort(&mut self) {
        self.stopped = true;
        self.sh.abort.store(true, Ordering::Relaxed);
    }

    // ----- iterative deepening ---------------------------------------------

    pub fn run(mut self) -> WorkerResult {
        let mut best: Option<RootMove> = None;
        let mut completed = 0u32;
        let multipv = if self.sh.baseline {
            1
        } else {
            self.sh.multipv.clamp(1, self.root_moves.len().max(1))
        };
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
            // A ponder or infinite search never answers before it is told.
            let c = self.sh.control;
            while !c.is_stopped() && (self.sh.infinite || c.is_pondering()) {
                std::thread::sleep(Duration::from_millis(1));
            }
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
        }
    }

    /// After a completed iteration: is there time for another?
    fn time_to_stop(&mut self, best_changed: bool) -> bool {
        if self.sh.control.is_stopped() {
            return true;
        }
        if self.pondering && !self.sh.control.is_pondering() {
            self.pondering = false;
            self.time_base = Instant::now();
        }
        if self.sh.infinite || self.pondering {
            return false;
        }
        let best = self.root_moves[0].score;
        if is_mate(best) && (MATE - best.abs()) <= self.root_depth {
            return true; // a proven mate: deeper will not change it
        }
        let Some(soft) = self.sh.budget.soft else {
            return false;
        };
        if self.sh.budget.hard == Some(soft) {
            return false; // move time: use it all
        }
        let elapsed = self.time_base.elapsed();
        // The next iteration takes a few times longer than this one: do not
        // start it past half of the target, unless the best move just changed.
        let target = if best_changed { soft } else { soft / 2 };
        elapsed >= target
    }

    fn search_line(&mut self, depth: i32, pv_idx: usize) {
        let prev = self.root_moves[pv_idx].prev_score;
        let mut delta = 30;
        let (mut alpha, mut beta) = if depth >= 5 && !self.sh.baseline && !is_mate(prev) {
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
            if delta > 600 {
                alpha = -INF;
                beta = INF;
            }
        }
        self.root_moves[..=pv_idx].sort_by_key(|m| std::cmp::Reverse(m.score));
    }

    fn root_search(&mut self, depth: i32, mut alpha: i32, beta: i32, pv_idx: usize) -> i32 {
        let root = self.sh.root;
        for rm in &mut self.root_moves[pv_idx + 1..] {
            rm.score = -INF;
        }
        let mut best = -INF;
        for i in pv_idx..self.root_moves.len() {
            let mv = self.root_moves[i].mv;
            let child = root.play(&mv);
            self.push(&root, &mv, &child, 0);
            let v = if self.sh.baseline {
                -self.plain(&child, depth - 1, -beta, -alpha, 1)
            } else if i == pv_idx {
                -self.search(&child, -beta, -alpha, depth - 1, 1, true)
            } else {
                let mut v = -self.search(&child, -alpha - 1, -alpha, depth - 1, 1, false);
                if v > alpha && v < beta && !self.stopped {
                    v = -self.search(&child, -beta, -alpha, depth - 1, 1, true);
                }
                v
            };
            self.keys.pop();
            if self.stopped {
                return best;
            }
            let rm = &mut self.root_moves[i];
            if i == pv_idx || v > alpha {
                rm.score = v;
                rm.seldepth = self.seldepth;
                rm.pv.clear();
                rm.pv.push(mv);
                if !self.sh.baseline {
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

    // ----- reporting (main thread) ----------------------------------------

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
        }
    }

    fn report_lines(&self, depth: i32, lines: usize) {
        if let Some(tx) = &self.info {
            for line in 0..lines {
                let _ = tx.send(self.info_for(depth, line, Bound::Exact));
            }
        }
    }

    fn report_bound(&self, depth: i32, line: usize, bound: Bound) {
        if let Some(tx) = &self.info {
            if self.sh.started.elapsed() >= Duration::from_millis(500) {
                let _ = tx.send(self.info_for(depth, line, bound));
            }
        }
    }

    // ----- the tree --------------------------------------------------------

    /// Pushes the child's key and its count of reversible plies.
    #[inline(always)]
    fn push(&mut self, pos: &Position, mv: &Move, child: &Position, ply: usize) {
        let irreversible = mv.is_capture() || !pos.all_kings().contains(mv.from);
        self.rev[ply + 1] = if irreversible { 0 } else { self.rev[ply] + 1 };
        self.keys.push(child.key());
    }

    /// Whether the position at `ply` (its key last in `keys`) occurred
    /// before, in the game or on the search path: a draw.
    #[inline(always)]
    fn is_repetition(&self, ply: usize) -> bool {
        let r = self.rev[ply];
        if r < 4 {
            return false;
        }
        let n = self.keys.len();
        let key = self.keys[n - 1];
        let mut i = 4;
        while i <= r {
            if self.keys[n - 1 - i] == key {
                return true;
            }
            i += 2;
        }
        false
    }

    #[inline(always)]
    fn history_index(pos: &Position, mv: &Move) -> usize {
        (pos.side_to_move() as usize) << 12 | mv.from.index() << 6 | mv.to.index()
    }

    fn update_history(&mut self, pos: &Position, mv: &Move, bonus: i32) {
        let h = &mut self.history[Self::history_index(pos, mv)];
        *h += bonus - *h * bonus.abs() / HISTORY_MAX;
    }

    fn search(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        pv_node: bool,
    ) -> i32 {
        if depth <= 0 {
            return self.qsearch(pos, alpha, beta, ply, true);
        }
        if !self.enter_node(ply) {
            return 0;
        }
        if self.is_repetition(ply) {
            return 0;
        }
        // Mate distance: nothing here can beat a faster mate found already.
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }
        if ply >= MAX_PLY - 1 {
            return eval::evaluate_with_mobility(pos, &self.sh.weights).0;
        }

        let key = pos.key();
        let mut tt_move = None;
        if let Some(hit) = self.sh.tt.probe(key, ply) {
            tt_move = (!hit.mv.is_none()).then_some(hit.mv);
            if !pv_node && hit.depth >= depth {
                let cut = match hit.bound {
                    Bound::Exact => true,
                    Bound::Lower => hit.score >= beta,
                    Bound::Upper => hit.score <= alpha,
                };
                if cut {
                    return hit.score;
                }
            }
        }

        let capture = movegen::has_capture(pos);
        let tuning = &self.sh.tuning;
        if tt_move.is_none() && tuning.iir_depth > 0 && depth >= tuning.iir_depth {
            depth -= 1;
        }
        // Reverse futility: a quiet position far above beta at low depth,
        // with no enemy capture pending, is taken at its static value.
        if !pv_node && !capture && depth <= tuning.rfp_depth && !is_mate(beta) {
            let (static_eval, moves) = eval::evaluate_with_mobility(pos, &self.sh.weights);
            if moves > 0
                && static_eval - tuning.rfp_margin * depth >= beta
                && !movegen::has_capture(&pos.with_side_to_move(pos.side_to_move().opponent()))
            {
                return static_eval;
            }
        }

        let mut list = MoveList::new();
        movegen::generate(pos, &mut list);
        if list.is_empty() {
            return mated_in(ply);
        }
        // A forced reply (usually a capture) costs no depth.
        let extension = (tuning.forced_extension
            && pv_node
            && list.len() == 1
            && (ply as i32) < 2 * self.root_depth) as i32;
        let new_depth = depth - 1 + extension;

        let mut scores: ArrayVec<i32, MAX_MOVES> = ArrayVec::new();
        let killers = self.killers[ply];
        let order_by_safety = !capture && depth >= self.sh.tuning.safety_order_depth;
        for mv in &list {
            let s = if tt_move.is_some_and(|t: PackedMove| t.matches(mv)) {
                2_000_000
            } else if capture {
                (mv.captures & pos.all_kings()).count() as i32 * 1000
                    + mv.promotes as i32 * 500
                    + self.history[Self::history_index(pos, mv)] / 64
            } else if mv.promotes {
                1_500_000
            } else if *mv == killers[0] {
                1_000_000
            } else if *mv == killers[1] {
                900_000
            } else if order_by_safety && movegen::has_capture(&pos.play(mv)) {
                // A move that gives the opponent a capture comes after the
                // safe ones (it may still be a shot, so it is searched).
                self.history[Self::history_index(pos, mv)] - 2 * HISTORY_MAX
            } else {
                self.history[Self::history_index(pos, mv)]
            };
            scores.push(s);
        }

        let orig_alpha = alpha;
        let mut best = -INF;
        let mut best_move: Option<Move> = None;
        let mut quiets: ArrayVec<Move, 64> = ArrayVec::new();
        let prefetch = new_depth > 0;
        select_best(&mut list, &mut scores, 0);
        if prefetch {
            self.sh.tt.prefetch(pos.play(&list[0]).key());
        }
        for i in 0..list.len() {
            // Move i was selected one round earlier; select the next one
            // now and fetch its table bucket while move i is searched.
            if i + 1 < list.len() {
                select_best(&mut list, &mut scores, i + 1);
                if prefetch {
                    self.sh.tt.prefetch(pos.play(&list[i + 1]).key());
                }
            }
            let mv = list[i];
            // Late move pruning: at low depth, quiet moves far down the
            // ordering are not searched once something was.
            if !pv_node
                && !capture
                && !mv.promotes
                && depth <= tuning.lmp_depth
                && i as i32 >= 3 + depth * depth
                && best > -MATE_BOUND
            {
                break;
            }
            let child = pos.play(&mv);
            self.push(pos, &mv, &child, ply);
            let v = if i == 0 {
                -self.search(&child, -beta, -alpha, new_depth, ply + 1, pv_node)
            } else {
                let mut r = 0;
                if depth >= 3 && !capture && !mv.promotes && i >= tuning.lmr_min_move {
                    r = self.lmr[depth.min(63) as usize][i.min(63)] as i32;
                    if pv_node {
                        r -= 1;
                    }
                    if mv == killers[0] || mv == killers[1] {
                        r -= 1;
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                let mut v = -self.search(&child, -alpha - 1, -alpha, new_depth - r, ply + 1, false);
                if v > alpha && r > 0 && !self.stopped {
                    v = -self.search(&child, -alpha - 1, -alpha, new_depth, ply + 1, false);
                }
                if v > alpha && v < beta && pv_node && !self.stopped {
                    v = -self.search(&child, -beta, -alpha, new_depth, ply + 1, true);
                }
                v
            };
            self.keys.pop();
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    best_move = Some(mv);
                    alpha = v;
                    if pv_node {
                        self.pv[ply][ply] = mv;
                        let child_len = self.pv_len[ply + 1].max(ply + 1);
                        for k in ply + 1..child_len {
                            self.pv[ply][k] = self.pv[ply + 1][k];
                        }
                        self.pv_len[ply] = child_len;
                    }
                    if v >= beta {
                        if !capture {
                            if killers[0] != mv {
                                self.killers[ply] = [mv, killers[0]];
                            }
                            let bonus = (depth * depth).min(1200);
                            self.update_history(pos, &mv, bonus);
                            for q in &quiets {
                                self.update_history(pos, q, -bonus);
                            }
                        }
                        break;
                    }
                }
            }
            if !capture && quiets.len() < quiets.capacity() {
                quiets.push(mv);
            }
        }

        let bound = if best >= beta {
            Bound::Lower
        } else if pv_node && best > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.sh
            .tt
            .store(key, ply, best_move.as_ref(), best, depth, bound);
        best
    }

    /// Resolves captures before evaluating: a position where the side to
    /// move must capture is never a leaf. In a quiet position where the
    /// opponent threatens a capture, one ply of quiet moves is looked at
    /// (`probe`, once per line) so that the threat is answered or suffered.
    /// What every node does first: count itself, reset its PV, track the
    /// selective depth. False once the search has been stopped.
    #[inline(always)]
    fn enter_node(&mut self, ply: usize) -> bool {
        self.count_node();
        if self.stopped {
            return false;
        }
        self.pv_len[ply] = ply;
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        true
    }

    fn qsearch(&mut self, pos: &Position, alpha: i32, beta: i32, ply: usize, probe: bool) -> i32 {
        if !self.enter_node(ply) {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return eval::evaluate_with_mobility(pos, &self.sh.weights).0;
        }
        if movegen::has_capture(pos) {
            return self.qsearch_moves(pos, alpha, beta, ply, probe);
        }
        let (eval, moves) = eval::evaluate_with_mobility(pos, &self.sh.weights);
        if moves == 0 {
            return mated_in(ply); // blocked: no capture and no move
        }
        if probe && self.sh.tuning.threat_probe && eval < beta + 300 && eval > alpha - 300 {
            let threatened =
                movegen::has_capture(&pos.with_side_to_move(pos.side_to_move().opponent()));
            if threatened {
                return self.qsearch_moves(pos, alpha, beta, ply, false);
            }
        }
        eval
    }

    /// Quiescence over every legal move of `pos` (fail-soft): used where the
    /// position may not be a leaf (a capture is due, or a threat is probed).
    fn qsearch_moves(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        probe: bool,
    ) -> i32 {
        let mut list = MoveList::new();
        movegen::generate(pos, &mut list);
        let mut best = -INF;
        for mv in &list {
            let child = pos.play(mv);
            let v = -self.qsearch(&child, -beta, -alpha, ply + 1, probe);
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// The baseline: plain fixed-depth alpha-beta (fail-hard), material only,
    /// captures resolved at the horizon; no table, no ordering, no pruning.
    fn plain(&mut self, pos: &Position, depth: i32, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.count_node();
        if self.stopped {
            return 0;
        }
        let mut list = MoveList::new();
        movegen::generate(pos, &mut list);
        if list.is_empty() {
            return mated_in(ply);
        }
        if (depth <= 0 && !list[0].is_capture()) || ply >= MAX_PLY - 1 {
            return eval::material(pos, &self.sh.weights);
        }
        for mv in &list {
            let v = -self.plain(&pos.play(mv), depth - 1, -beta, -alpha, ply + 1);
            if self.stopped {
                return 0;
            }
            if v > alpha {
                alpha = v;
                if alpha >= beta {
                    break;
                }
            }
        }
        alpha
    }
}

/// Selection step: moves the best-scored of `list[from..]` to `from` (the
/// first of equals, so the order is deterministic).
#[inline(always)]
fn select_best(list: &mut MoveList, scores: &mut ArrayVec<i32, MAX_MOVES>, from: usize) {
    let mut b = from;
    for j in from + 1..list.len() {
        if scores[j] > scores[b] {
            b = j;
        }
    }
    list.swap(from, b);
    scores.swap(from, b);
}
