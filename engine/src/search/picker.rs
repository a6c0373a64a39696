//! Move ordering: every move of a node gets a score once, and the move loop
//! takes them best first by selection (most nodes cut off after a move or
//! two, so sorting the whole list would be wasted work).
//!
//! Order: the table's move; then, when captures are due, the captures that
//! take most kings, crown, and have the best history; otherwise promotions,
//! the two killers, and the other quiet moves by history (with the moves
//! that give the opponent a capture last, from `safety_order_depth` on, in
//! the lab build).

use super::history::{History, HISTORY_MAX};
use super::tt::PackedMove;
use crate::movegen;
use crate::moves::{Move, MoveList, MAX_MOVES};
use crate::position::Position;
use arrayvec::ArrayVec;

const TT_MOVE: i32 = 2_000_000;
const PROMOTION: i32 = 1_500_000;
const FIRST_KILLER: i32 = 1_000_000;
const SECOND_KILLER: i32 = 900_000;

/// What a node knows that orders its moves.
pub(super) struct OrderHints<'h> {
    /// The move the transposition table remembers for this position.
    pub tt_move: Option<PackedMove>,
    /// Captures are due (then every legal move is a capture).
    pub capture: bool,
    pub killers: [Move; 2],
    pub history: &'h History,
    /// Lab: order quiet moves that allow a capture after the safe ones
    /// (always false in the product, where the test compiles away).
    pub by_safety: bool,
}

#[inline(always)]
fn order_score(pos: &Position, mv: &Move, h: &OrderHints) -> i32 {
    if h.tt_move.is_some_and(|t| t.matches(mv)) {
        TT_MOVE
    } else if h.capture {
        (mv.captures & pos.all_kings()).count() as i32 * 1000
            + mv.promotes as i32 * 500
            + h.history.get(pos, mv) / 64
    } else if mv.promotes {
        PROMOTION
    } else if *mv == h.killers[0] {
        FIRST_KILLER
    } else if *mv == h.killers[1] {
        SECOND_KILLER
    } else {
        if h.by_safety && movegen::has_capture(&pos.play(mv)) {
            // A move that gives the opponent a capture comes after the safe
            // ones (it may still be a shot, so it is searched).
            return h.history.get(pos, mv) - 2 * HISTORY_MAX;
        }
        h.history.get(pos, mv)
    }
}

/// The ordering scores of a node's moves, one per move of its list.
/// The node keeps them on its stack frame, beside the list.
pub(super) type MoveScores = ArrayVec<i32, MAX_MOVES>;

/// A node's moves with their ordering scores, handed out best first. It
/// borrows both (moving 10 KB of arrays around per node would cost).
pub(super) struct MovePicker<'l> {
    list: &'l mut MoveList,
    scores: &'l mut MoveScores,
}

impl<'l> MovePicker<'l> {
    /// Scores every move of `list` (the legal moves of `pos`) into the
    /// empty `scores`.
    #[inline(always)]
    pub fn new(
        list: &'l mut MoveList,
        scores: &'l mut MoveScores,
        pos: &Position,
        hints: &OrderHints,
    ) -> MovePicker<'l> {
        debug_assert!(scores.is_empty());
        for mv in list.iter() {
            scores.push(order_score(pos, mv, hints));
        }
        MovePicker { list, scores }
    }

    #[inline(always)]
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Selection step: brings the best-scored of the moves from `i` on to
    /// place `i` (the first of equals, so the order is deterministic) and
    /// returns it. Call with `i` = 0, 1, 2, ...
    #[inline(always)]
    pub fn select(&mut self, i: usize) -> Move {
        // The best score, then its first place: two scans over a slice,
        // with no bounds checks (this scan was 7% of the bench's
        // instructions; measured with cachegrind).
        let rest = &self.scores[i..];
        let best = rest.iter().copied().fold(i32::MIN, i32::max);
        let b = rest
            .iter()
            .position(|&s| s == best)
            .expect("a move from i on");
        self.list.swap(i, i + b);
        self.scores.swap(i, i + b);
        self.list[i]
    }
}
