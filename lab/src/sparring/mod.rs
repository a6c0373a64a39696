//! The sparring opponent: a searcher of another design than Tama's main
//! search, to measure against (self-play cannot see a blind spot that both
//! sides share) and the oracle that the shot suite is harvested with.
//!
//! Full-width alpha-beta under iterative deepening, on one thread: no
//! forward pruning, no reductions, no aspiration windows. Depth is spent
//! only on choices: a node whose side to move has a single legal move
//! (usually a compulsory capture) hands its depth on unchanged, at most
//! `forced_cap` times on one line so that the tree stays finite. At the
//! horizon a position where a capture is due is searched on (capturing is
//! compulsory, so there is no standing pat); a quiet position is a leaf,
//! valued by an evaluation of its own (material and a little advancement,
//! not Tama's evaluation). So a quiet sacrifice that forces the reply,
//! followed by captures, costs one ply however long the captures run: a
//! shot of N sacrifices is seen at depth N.
//!
//! It shares with the main search only the transposition table (a plain
//! cache of results and best moves), the limits and the report types.

use arrayvec::ArrayVec;
use std::time::Instant;
use tama_engine::bitboard::Bitboard;
use tama_engine::game::Game;
use tama_engine::movegen;
use tama_engine::moves::{Move, MoveList, MAX_MOVES};
use tama_engine::position::Position;
use tama_engine::rules::{Color, Variant};
use tama_engine::search::lab::SearchStats;
use tama_engine::search::score::draw_score;
use tama_engine::search::tt::{self, TranspositionTable};
use tama_engine::search::{
    Bound, Score, SearchControl, SearchInfo, SearchLimits, SearchOptions, SearchOutcome,
    TimeBudget, TimePlan, MATE, MAX_PLY,
};

const INF: i32 = MATE + 1;
const POLL_INTERVAL: u64 = 1024;

/// The evaluation's values in centi-men: a king flies (like a queen in
/// Armenian, like a rook in Turkish), so it is worth a few men; a man
/// gains a little for each rank it has advanced from its own back rank.
const MAN: i32 = 100;
const KING_ARMENIAN: i32 = 300;
const KING_TURKISH: i32 = 250;
const ADVANCE_PER_RANK: i32 = 3;

/// The sparring evaluation of `pos` from the side to move's point of view.
pub fn evaluate(pos: &Position) -> i32 {
    let king = match pos.rules().variant {
        Variant::Armenian => KING_ARMENIAN,
        Variant::Turkish => KING_TURKISH,
    };
    let side = |c: Color| {
        let men = pos.men(c);
        let mut v = men.count() as i32 * MAN + pos.kings(c).count() as i32 * king;
        for rank in 0..8u8 {
            let advanced = match c {
                Color::White => rank,
                Color::Black => 7 - rank,
            };
            v += (men & Bitboard::rank(rank)).count() as i32 * advanced as i32 * ADVANCE_PER_RANK;
        }
        v
    };
    let us = pos.side_to_move();
    side(us) - side(us.opponent())
}

/// How many single-reply nodes on one line may keep their depth, for a
/// search of nominal `depth`: as many as the depth itself (at least four),
/// so no line runs longer than about twice the nominal depth before the
/// captures at its end.
fn forced_cap(depth: i32) -> i32 {
    depth.max(4)
}

/// Searches `root_moves` (the legal moves of the game's position, or the
/// ones a `searchmoves` restriction leaves; not empty) within `limits`,
/// calling `info` after every completed iteration. Blocking, on the
/// calling thread; the per-ply move lists live on the heap, so a small
/// stack does. Answers a ponder or infinite search only once stopped.
pub fn search(
    tt: &TranspositionTable,
    game: &Game,
    root_moves: &[Move],
    limits: &SearchLimits,
    options: &SearchOptions,
    control: &SearchControl,
    info: &mut dyn FnMut(&SearchInfo),
) -> SearchOutcome {
    assert!(
        !root_moves.is_empty(),
        "the sparring search needs a root move"
    );
    tt.new_search();
    let root = *game.position();
    let mut s = Sparring::new(tt, game, limits, options, control);
    let max_depth = limits.depth.map_or(MAX_PLY as i32 - 1, |d| {
        d.clamp(1, MAX_PLY as u32 - 1) as i32
    });
    let mut moves: Vec<Move> = root_moves.to_vec();
    let mut best: Option<(i32, Vec<Move>)> = None;
    let mut completed = 0;
    for depth in 1..=max_depth {
        let Some((score, pv)) = s.root(&root, &mut moves, depth) else {
            break;
        };
        completed = depth;
        let changed = best.as_ref().map(|b| b.1[0]) != Some(pv[0]);
        let elapsed = s.started.elapsed();
        info(&SearchInfo {
            depth: depth as u32,
            seldepth: (s.seldepth as u32).max(depth as u32),
            multipv: 1,
            score: Score::from_internal(score),
            bound: Bound::Exact,
            nodes: s.nodes,
            nps: (s.nodes as f64 / elapsed.as_secs_f64().max(1e-6)) as u64,
            hashfull: tt.hashfull(),
            time: elapsed,
            pv: pv.clone(),
            tbhits: 0,
        });
        best = Some((score, pv));
        if s.time_to_stop(score, depth, changed) {
            break;
        }
    }
    SearchOutcome {
        best_move: Some(best.as_ref().map_or(moves[0], |b| b.1[0])),
        ponder_move: best.as_ref().and_then(|b| b.1.get(1).copied()),
        score: best.as_ref().map(|b| Score::from_internal(b.0)),
        depth: completed as u32,
        nodes: s.nodes,
        thread_nodes: vec![s.nodes],
        // Its iterations' lines are the report: the sparring opponent
        // adds no final one.
        last: None,
        // Another search: it has none of the counted steps.
        stats: SearchStats::default(),
        // The searcher that called it fills in its own plan (its clock
        // keeps back `Move Overhead` only).
        plan: TimePlan::default(),
    }
}

struct Sparring<'a> {
    tt: &'a TranspositionTable,
    control: &'a SearchControl,
    node_limit: u64,
    budget: TimeBudget,
    infinite: bool,
    started: Instant,
    /// Where our own clock started: the start, or the ponder hit.
    time_base: Instant,
    pondering: bool,
    nodes: u64,
    next_poll: u64,
    stopped: bool,
    seldepth: usize,
    /// Position keys of the game since its last irreversible move, then of
    /// the search path, and per ply how many plies back a repetition may be.
    keys: Vec<u64>,
    reversible: [usize; MAX_PLY + 2],
    /// One move list and its ordering scores per ply (on the heap).
    lists: Vec<MoveList>,
    order: Vec<ArrayVec<i32, MAX_MOVES>>,
    killers: [[Option<Move>; 2]; MAX_PLY + 2],
    /// Quiet moves' cut-off merit by side, from and to square.
    history: Vec<i32>,
    pv: Vec<[Option<Move>; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 2],
    /// What a draw is worth to the root's side (`score::draw_score`).
    contempt: i32,
}

impl<'a> Sparring<'a> {
    fn new(
        tt: &'a TranspositionTable,
        game: &Game,
        limits: &SearchLimits,
        options: &SearchOptions,
        control: &'a SearchControl,
    ) -> Sparring<'a> {
        let history = game.reversible_keys();
        let mut keys = Vec::with_capacity(history.len() + MAX_PLY + 2);
        keys.extend_from_slice(history);
        let mut reversible = [0; MAX_PLY + 2];
        reversible[0] = history.len().saturating_sub(1);
        let node_limit = limits.nodes.unwrap_or(u64::MAX).max(1);
        let now = Instant::now();
        Sparring {
            tt,
            control,
            node_limit,
            budget: limits.time_budget(game.position().side_to_move(), options.move_overhead),
            infinite: limits.infinite,
            started: now,
            time_base: now,
            pondering: control.is_pondering(),
            nodes: 0,
            next_poll: POLL_INTERVAL.min(node_limit),
            stopped: false,
            seldepth: 0,
            keys,
            reversible,
            lists: vec![MoveList::new(); MAX_PLY + 1],
            order: vec![ArrayVec::new(); MAX_PLY + 1],
            killers: [[None; 2]; MAX_PLY + 2],
            history: vec![0; 2 * 64 * 64],
            pv: vec![[None; MAX_PLY + 1]; MAX_PLY + 2],
            pv_len: [0; MAX_PLY + 2],
            contempt: limits.contempt(options),
        }
    }

    #[inline(always)]
    fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes >= self.next_poll {
            self.poll();
        }
    }

    #[cold]
    fn poll(&mut self) {
        self.next_poll = (self.nodes + POLL_INTERVAL).min(self.node_limit.max(self.nodes + 1));
        if self.control.is_stopped() || self.nodes >= self.node_limit {
            self.stopped = true;
            return;
        }
        self.note_ponder_hit();
        if let (false, Some(hard)) = (self.pondering, self.budget.hard) {
            if self.time_base.elapsed() >= hard {
                self.stopped = true;
            }
        }
    }

    /// Once the opponent played the expected move, our clock runs from
    /// when the hit was read.
    fn note_ponder_hit(&mut self) {
        if self.pondering && !self.control.is_pondering() {
            self.pondering = false;
            self.time_base = self.control.ponder_hit_at().unwrap_or_else(Instant::now);
        }
    }

    /// After a completed iteration: whether the search is over.
    fn time_to_stop(&mut self, score: i32, depth: i32, best_changed: bool) -> bool {
        if self.control.is_stopped() {
            return true;
        }
        self.note_ponder_hit();
        if self.infinite || self.pondering {
            return false;
        }
        // Every line was searched at least `depth` plies deep: a win or
        // loss within that distance cannot get shorter (or longer).
        if score.abs() >= MATE - MAX_PLY as i32 && MATE - score.abs() <= depth {
            return true;
        }
        !self
            .budget
            .allows_next_iteration(self.time_base.elapsed(), best_changed)
    }

    /// One iteration over the root moves, the previous best first. `None`
    /// when stopped before it completed; otherwise the score and the
    /// principal variation, and the best move is moved to the front.
    fn root(
        &mut self,
        root: &Position,
        moves: &mut [Move],
        depth: i32,
    ) -> Option<(i32, Vec<Move>)> {
        self.seldepth = 0;
        let mut alpha = -INF;
        let mut best = 0;
        let mut pv = Vec::new();
        for (i, &mv) in moves.iter().enumerate() {
            let child = root.play(&mv);
            self.push(root, &mv, &child, 0);
            let v = -self.node(&child, -INF, -alpha, depth - 1, 1, forced_cap(depth));
            self.keys.pop();
            if self.stopped {
                return None;
            }
            if v > alpha {
                alpha = v;
                best = i;
                pv.clear();
                pv.push(mv);
                pv.extend(self.pv[1][1..self.pv_len[1].max(1)].iter().flatten());
            }
        }
        moves[..=best].rotate_right(1);
        Some((alpha, pv))
    }

    /// Pushes the child's key and how many reversible plies lead to it.
    fn push(&mut self, pos: &Position, mv: &Move, child: &Position, ply: usize) {
        // A capture, or a man's step to another rank, can never be undone.
        let man = !pos.all_kings().contains(mv.from);
        let irreversible = mv.is_capture() || (man && mv.from.rank() != mv.to.rank());
        self.reversible[ply + 1] = if irreversible {
            0
        } else {
            self.reversible[ply] + 1
        };
        self.keys.push(child.key());
    }

    /// Whether the position at `ply` (its key last in `keys`) occurred
    /// before, in the game or on the path: a draw.
    fn is_repetition(&self, ply: usize) -> bool {
        let n = self.keys.len();
        let key = self.keys[n - 1];
        (4..=self.reversible[ply])
            .step_by(2)
            .any(|back| self.keys[n - 1 - back] == key)
    }

    /// Fail-soft alpha-beta of `pos` at `ply` with `depth` plies to go;
    /// `forced_left`: how many more single-reply nodes on this line may
    /// keep their depth.
    fn node(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
        forced_left: i32,
    ) -> i32 {
        self.count_node();
        if self.stopped {
            return 0;
        }
        self.pv_len[ply] = ply;
        self.seldepth = self.seldepth.max(ply);
        if self.is_repetition(ply) {
            return draw_score(self.contempt, ply);
        }
        if ply >= MAX_PLY - 1 {
            return evaluate(pos);
        }
        movegen::generate(pos, &mut self.lists[ply]);
        let count = self.lists[ply].len();
        if count == 0 {
            return -MATE + ply as i32;
        }
        let captures = self.lists[ply][0].is_capture();
        if depth <= 0 && !captures {
            return evaluate(pos);
        }
        // Below the horizon only captures are searched: they all share
        // draft 0 in the table.
        let draft = depth.max(0);
        let key = pos.key();
        let mut tt_move = tt::PackedMove::pack(&self.lists[ply][0]);
        let mut have_tt_move = false;
        if let Some(hit) = self.tt.probe(key, ply) {
            if hit.depth >= draft {
                let cut = match hit.bound {
                    Bound::Exact => true,
                    Bound::Lower => hit.score >= beta,
                    Bound::Upper => hit.score <= alpha,
                };
                if cut {
                    return hit.score;
                }
            }
            if !hit.mv.is_none() {
                tt_move = hit.mv;
                have_tt_move = true;
            }
        }
        let forced = count == 1 && depth > 0 && forced_left > 0;
        let (child_depth, child_forced) = if forced {
            (depth, forced_left - 1)
        } else {
            (depth - 1, forced_left)
        };
        self.score_moves(pos, ply, have_tt_move.then_some(tt_move));

        let orig_alpha = alpha;
        let mut best = -INF;
        let mut best_move = None;
        for i in 0..count {
            let mv = self.next_move(ply, i);
            let child = pos.play(&mv);
            self.push(pos, &mv, &child, ply);
            let v = -self.node(&child, -beta, -alpha, child_depth, ply + 1, child_forced);
            self.keys.pop();
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
            }
            if v > alpha {
                alpha = v;
                best_move = Some(mv);
                self.pv[ply][ply] = Some(mv);
                let end = self.pv_len[ply + 1].max(ply + 1);
                let (here, below) = self.pv.split_at_mut(ply + 1);
                here[ply][ply + 1..end].copy_from_slice(&below[0][ply + 1..end]);
                self.pv_len[ply] = end;
                if v >= beta {
                    if !captures {
                        self.reward_quiet(pos, &mv, ply, depth);
                    }
                    break;
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt
            .store(key, ply, best_move.as_ref(), best, draft, bound);
        best
    }

    fn history_index(pos: &Position, mv: &Move) -> usize {
        (pos.side_to_move() as usize) << 12 | mv.from.index() << 6 | mv.to.index()
    }

    /// Ordering: the table's move, then the captures taking most kings,
    /// then promotions, the killers and the quiet moves by history.
    fn score_moves(&mut self, pos: &Position, ply: usize, tt_move: Option<tt::PackedMove>) {
        let killers = self.killers[ply];
        let order = &mut self.order[ply];
        order.clear();
        for mv in &self.lists[ply] {
            order.push(if tt_move.is_some_and(|t| t.matches(mv)) {
                i32::MAX
            } else if mv.is_capture() {
                (mv.captures & pos.all_kings()).count() as i32
            } else if mv.promotes {
                1 << 30
            } else if killers[0] == Some(*mv) {
                1 << 29
            } else if killers[1] == Some(*mv) {
                1 << 28
            } else {
                self.history[Self::history_index(pos, mv)]
            });
        }
    }

    /// The best-ordered move not yet searched, swapped into place `i`.
    fn next_move(&mut self, ply: usize, i: usize) -> Move {
        let (list, order) = (&mut self.lists[ply], &mut self.order[ply]);
        let mut b = i;
        for j in i + 1..list.len() {
            if order[j] > order[b] {
                b = j;
            }
        }
        list.swap(i, b);
        order.swap(i, b);
        list[i]
    }

    fn reward_quiet(&mut self, pos: &Position, mv: &Move, ply: usize, depth: i32) {
        if self.killers[ply][0] != Some(*mv) {
            self.killers[ply] = [Some(*mv), self.killers[ply][0]];
        }
        let h = &mut self.history[Self::history_index(pos, mv)];
        *h = (*h + depth * depth).min(1 << 27);
    }
}

#[cfg(test)]
mod tests;
