//! The node searches: `search` (principal variation search with its
//! pruning and reductions, each a named step) and `qsearch` (the captures
//! resolved before a position is evaluated). The lab build adds the steps
//! that are off by default (`lab/switches.rs`).
//!
//! Scores are fail-soft negamax from the side to move's point of view.
//! Nothing here allocates: move lists and ordering scores live on the stack
//! (each search thread has a big one).

use super::lab::count;
use super::params::{LMP_BASE, LMR_MIN_DEPTH};
use super::picker::{MovePicker, MoveScores, OrderHints};
use super::score::{draw_score, is_mate, mate_in, mated_in, Bound, INF, MATE_BOUND, MAX_PLY};
use super::shot::{self, ShotTest};
use super::tt::PackedMove;
use super::worker::Worker;
use crate::movegen::{self, CapturesDue};
use crate::moves::{Move, MoveList};
use crate::position::Position;
use arrayvec::ArrayVec;
use std::ops::ControlFlow;

/// What the move loop of a node needs to know about the node.
#[derive(Clone, Copy)]
struct NodeFacts {
    ply: usize,
    /// The node's depth (after internal iterative reduction).
    depth: i32,
    /// The depth its children are searched to (extension included).
    new_depth: i32,
    pv_node: bool,
    /// Captures are due: every move is a capture.
    capture: bool,
    killers: [Move; 2],
}

impl<'a> Worker<'a> {
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

    /// The principal variation search of the node `pos` at `ply`, `depth`
    /// plies above the horizon, within (`alpha`, `beta`). Returns 0 once
    /// stopped (the caller discards it).
    pub(super) fn search(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        pv_node: bool,
    ) -> i32 {
        // Step 1. At the horizon, quiescence resolves the pending captures.
        if depth <= 0 {
            return self.qsearch(pos, alpha, beta, ply);
        }

        // Step 2. Node entry: stopped, repetition (a draw), mate distance
        // pruning (no win here beats one found nearer the root), last ply.
        if !self.enter_node(ply) {
            return 0;
        }
        if self.path.is_repetition(ply) {
            return draw_score(self.sh.contempt, ply);
        }
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(pos, ply).0;
        }

        // Step 3. Transposition table: its move, or a cutoff.
        let key = pos.key();
        let tt_move = match self.probe_table(key, ply, depth, alpha, beta, pv_node) {
            ControlFlow::Break(score) => return score,
            ControlFlow::Continue(tt_move) => tt_move,
        };

        // Step 3b. Endgame databases: a position they hold is decided.
        if let Some(score) = self.probe_tablebase(pos, ply) {
            return score;
        }

        // Step 4. Internal iterative reduction. (Whether captures are due
        // is read once, for the move list of step 6 too.)
        let due = movegen::captures_due(pos);
        let capture = due.is_some();
        depth -= self.internal_iterative_reduction(tt_move, depth);

        // Step 5. Reverse futility pruning.
        if !pv_node && !capture {
            if let Some(score) = self.reverse_futility(pos, depth, beta, ply) {
                return score;
            }
        }

        // Step 5b. ProbCut (lab builds only).
        if !pv_node {
            if let Some(score) = self.probcut(pos, depth, beta, ply) {
                return score;
            }
        }

        // Step 6. The moves: a side without one has lost.
        let mut list = MoveList::new();
        movegen::generate_as_due(pos, due, &mut list);
        if list.is_empty() {
            return mated_in(ply);
        }

        // Step 7. Extension (lab builds only).
        let new_depth = depth - 1 + self.extension(pv_node, list.len(), capture, ply);

        // Step 8. Move ordering.
        let node = NodeFacts {
            ply,
            depth,
            new_depth,
            pv_node,
            capture,
            killers: self.killers.get(ply),
        };
        let mut scores = MoveScores::new();
        let mut picker = self.order_moves(&mut list, &mut scores, pos, tt_move, &node);

        // Steps 9-12. The move loop.
        let Some((best, best_move)) = self.move_loop(pos, &mut picker, alpha, beta, node) else {
            return 0;
        };

        // Step 13. Store the result.
        let bound = Bound::of_result(best, alpha, beta, pv_node);
        self.sh
            .tt
            .store(key, ply, best_move.as_ref(), best, depth, bound);
        best
    }

    /// Step 3: the table's move for `key` (if any), or its score when the
    /// stored result is deep enough and its bound decides this window
    /// (never on the principal variation, whose line must be searched).
    #[inline(always)]
    fn probe_table(
        &self,
        key: u64,
        ply: usize,
        depth: i32,
        alpha: i32,
        beta: i32,
        pv_node: bool,
    ) -> ControlFlow<i32, Option<PackedMove>> {
        let Some(hit) = self.sh.tt.probe(key, ply) else {
            return ControlFlow::Continue(None);
        };
        if !pv_node && !self.full_width && hit.depth >= depth {
            let cut = match hit.bound {
                Bound::Exact => true,
                Bound::Lower => hit.score >= beta,
                Bound::Upper => hit.score <= alpha,
            };
            if cut {
                return ControlFlow::Break(hit.score);
            }
        }
        ControlFlow::Continue((!hit.mv.is_none()).then_some(hit.mv))
    }

    /// Step 4: a node the table knows no move for, at `iir_depth` or more,
    /// is searched one ply shallower (its ordering is poor, and the next
    /// iteration finds it with a move).
    #[inline(always)]
    fn internal_iterative_reduction(&self, tt_move: Option<PackedMove>, depth: i32) -> i32 {
        let iir_depth = self.sh.tuning.iir_depth;
        (tt_move.is_none() && iir_depth > 0 && depth >= iir_depth && !self.full_width) as i32
    }

    /// Step 5: a quiet position (no capture due for either side) far above
    /// `beta` at low depth is taken at its static value. Only off the
    /// principal variation and with no capture due (the caller checks).
    #[inline(always)]
    fn reverse_futility(
        &mut self,
        pos: &Position,
        depth: i32,
        beta: i32,
        ply: usize,
    ) -> Option<i32> {
        let t = &self.sh.tuning;
        if depth > t.rfp_depth || is_mate(beta) || self.full_width {
            return None;
        }
        let (static_eval, moves) = self.evaluate(pos, ply);
        let prune = moves > 0
            && static_eval - t.rfp_margin * depth >= beta
            && !movegen::has_capture(&pos.with_side_to_move(pos.side_to_move().opponent()));
        (prune && !self.shot_guard(pos)).then_some(static_eval)
    }

    /// Step 8: scores the moves for the move loop.
    #[inline(always)]
    fn order_moves<'l>(
        &self,
        list: &'l mut MoveList,
        scores: &'l mut MoveScores,
        pos: &Position,
        tt_move: Option<PackedMove>,
        node: &NodeFacts,
    ) -> MovePicker<'l> {
        let hints = OrderHints {
            tt_move,
            capture: node.capture,
            killers: node.killers,
            history: &self.history,
            by_safety: self.by_safety(node.capture, node.depth),
        };
        MovePicker::new(list, scores, pos, &hints)
    }

    /// Steps 9-12: the moves best first; returns the best score and the
    /// move that raised alpha last, or `None` once the search is stopped.
    #[inline(always)]
    fn move_loop(
        &mut self,
        pos: &Position,
        picker: &mut MovePicker,
        mut alpha: i32,
        beta: i32,
        node: NodeFacts,
    ) -> Option<(i32, Option<Move>)> {
        let mut best = -INF;
        let mut best_move: Option<Move> = None;
        let mut quiets: ArrayVec<Move, 64> = ArrayVec::new();
        let prefetch = node.new_depth > 0;
        let n = picker.len();
        let mut next = picker.select(0);
        // The child of `next` when it was made early for the prefetch (it
        // is not made twice).
        let mut next_child = None;
        if prefetch {
            let child = pos.play(&next);
            self.sh.tt.prefetch(child.key());
            next_child = Some(child);
        }
        for i in 0..n {
            // Step 9. The next move is selected now, and its table bucket
            // fetched while this one is searched.
            let mv = next;
            let child = next_child.take().unwrap_or_else(|| pos.play(&mv));
            if i + 1 < n {
                next = picker.select(i + 1);
                if prefetch {
                    let ahead = pos.play(&next);
                    self.sh.tt.prefetch(ahead.key());
                    next_child = Some(ahead);
                }
            }

            // Step 10. Late move pruning (never of a sacrifice: it may be
            // a shot). Whether the move is a sacrifice is asked only where
            // the answer counts: a late move, or one that would be reduced.
            let late = self.late_move_prune(pos, node, &mv, i, best);
            // A late move is pruned or, as a sacrifice, searched in full:
            // its reduction would never be used.
            let reduction = if late {
                0
            } else {
                self.reduction(node, &mv, i)
            };
            let sacrifice = (late || reduction > 0) && self.is_sacrifice(&child, node.depth);
            if late && !sacrifice {
                if self.sh.tuning.sacrifice_exempt == 0 {
                    break;
                }
                continue;
            }

            // Step 11. Search the move.
            self.path.push(pos, &mv, &child, node.ply);
            let r = if sacrifice { 0 } else { reduction };
            let exempt = self.enter_exempt(sacrifice);
            let v = self.search_move(&child, i, alpha, beta, node, r);
            self.leave_exempt(exempt);
            self.path.pop();
            if self.stopped {
                return None;
            }

            // Step 12. A better move: the PV; a cutoff: killers and history.
            if v > best {
                best = v;
                if v > alpha {
                    best_move = Some(mv);
                    alpha = v;
                    if node.pv_node {
                        self.update_pv(node.ply, mv);
                    }
                    if v >= beta {
                        count!(self, fail_highs += 1);
                        count!(self, first_move_fail_highs += (i == 0) as u64);
                        if !node.capture {
                            self.killers.store(node.ply, mv);
                            self.history.reward_cutoff(pos, &mv, &quiets, node.depth);
                        }
                        break;
                    }
                }
            }
            if !node.capture && quiets.len() < quiets.capacity() {
                quiets.push(mv);
            }
        }
        Some((best, best_move))
    }

    /// Step 10: at low depth, off the principal variation, quiet moves far
    /// down the ordering are not searched once a move scored above a loss.
    /// Not while the side to move has a king: a king has up to 28 quiet
    /// moves, and the one that wins is often far down the ordering (with
    /// the learned evaluation, three of the suite's short wins with kings
    /// were missed at depth N+2 because of it).
    #[inline(always)]
    fn late_move_prune(
        &self,
        pos: &Position,
        node: NodeFacts,
        mv: &Move,
        i: usize,
        best: i32,
    ) -> bool {
        !node.pv_node
            && !self.full_width
            && !node.capture
            && !mv.promotes
            && node.depth <= self.sh.tuning.lmp_depth
            && i as i32 >= LMP_BASE + node.depth * node.depth
            && pos.kings(pos.side_to_move()).is_empty()
            && best > -MATE_BOUND
    }

    /// Step 11: the child of the `i`-th move. The first move gets the
    /// node's window; a later one a null window, at depth reduced by `r`
    /// (late move reduction), then again at full depth and with the full
    /// window for as long as it beats alpha.
    #[inline(always)]
    fn search_move(
        &mut self,
        child: &Position,
        i: usize,
        alpha: i32,
        beta: i32,
        node: NodeFacts,
        r: i32,
    ) -> i32 {
        let (ply, depth) = (node.ply + 1, node.new_depth);
        if i == 0 {
            return -self.search(child, -beta, -alpha, depth, ply, node.pv_node);
        }
        let mut v = -self.search(child, -alpha - 1, -alpha, depth - r, ply, false);
        if v > alpha && r > 0 && !self.stopped {
            count!(self, lmr_researches += 1);
            v = -self.search(child, -alpha - 1, -alpha, depth, ply, false);
        }
        if v > alpha && v < beta && node.pv_node && !self.stopped {
            count!(self, pvs_researches += 1);
            v = -self.search(child, -beta, -alpha, depth, ply, true);
        }
        v
    }

    /// Whether the `i`-th move may be reduced at all (`reduction` says by
    /// how much): a quiet move from `lmr_min_move` on, from `LMR_MIN_DEPTH`.
    #[inline(always)]
    fn may_reduce(&self, node: NodeFacts, mv: &Move, i: usize) -> bool {
        !self.full_width
            && node.depth >= LMR_MIN_DEPTH
            && !node.capture
            && !mv.promotes
            && i >= self.sh.tuning.lmr_min_move
    }

    /// Whether the quiet move that led to `child` is a sacrifice the search
    /// must see in full (`sacrifice_exempt`): the opponent must capture
    /// (and, from 2, has no other move; at 3, the exchange can pay).
    #[inline(always)]
    fn is_sacrifice(&self, child: &Position, depth: i32) -> bool {
        let t = &self.sh.tuning;
        match t.sacrifice_exempt {
            0 => false,
            1 => movegen::has_capture(child),
            2 => movegen::has_capture(child) && movegen::count(child) == 1,
            // Most quiet moves leave no capture, which the shot test reads
            // first, inline.
            _ => shot::may_be_shot(
                child,
                depth,
                ShotTest {
                    kings: t.shot_kings,
                    chain_depth: t.shot_chain_depth,
                },
            ),
        }
    }

    /// Late move reduction of the `i`-th move (0-based): quiet moves from
    /// `lmr_min_move` on, from `LMR_MIN_DEPTH`, by the table; one ply less on the
    /// principal variation and for a killer; never into the horizon.
    #[inline(always)]
    fn reduction(&self, node: NodeFacts, mv: &Move, i: usize) -> i32 {
        if !self.may_reduce(node, mv, i) {
            return 0;
        }
        let mut r = self.lmr.get(node.depth, i);
        if node.pv_node {
            r -= 1;
        }
        if *mv == node.killers[0] || *mv == node.killers[1] {
            r -= 1;
        }
        r.clamp(0, node.new_depth - 1)
    }

    /// The static evaluation of `pos` at `ply` and its side to move's
    /// non-capturing moves (`eval::evaluate_with_mobility`), the pattern
    /// sums kept by ply.
    #[inline(always)]
    fn evaluate(&mut self, pos: &Position, ply: usize) -> (i32, u32) {
        self.eval_stack.evaluate(pos, ply, &self.sh.weights)
    }

    /// `mv` raised alpha at `ply`: the PV there is `mv` and the child's PV.
    #[inline(always)]
    fn update_pv(&mut self, ply: usize, mv: Move) {
        self.pv[ply][ply] = mv;
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        for k in ply + 1..child_len {
            self.pv[ply][k] = self.pv[ply + 1][k];
        }
        self.pv_len[ply] = child_len;
    }

    /// Resolves captures before evaluating: a position where the side to
    /// move must capture is never a leaf.
    pub(super) fn qsearch(&mut self, pos: &Position, alpha: i32, beta: i32, ply: usize) -> i32 {
        if !self.enter_node(ply) {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(pos, ply).0;
        }
        if let Some(due) = movegen::captures_due(pos) {
            return self.qsearch_captures(pos, due, alpha, beta, ply);
        }
        let (eval, moves) = self.evaluate(pos, ply);
        if moves == 0 {
            return mated_in(ply); // blocked: no capture and no move
        }
        eval
    }

    /// Quiescence over the captures of `pos`, which must capture (`due`;
    /// so they are all its legal moves; fail-soft).
    fn qsearch_captures(
        &mut self,
        pos: &Position,
        due: CapturesDue,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        let mut list = MoveList::new();
        movegen::generate_as_due(pos, Some(due), &mut list);
        let mut best = -INF;
        for mv in &list {
            let child = pos.play(mv);
            let v = -self.qsearch(&child, -beta, -alpha, ply + 1);
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
}
