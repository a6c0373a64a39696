//! The baseline: plain fixed-depth alpha-beta (fail-hard) on material,
//! captures resolved at the horizon; no table, no ordering, no pruning.
//! The `Baseline` option plays it in place of the search, with one thread
//! and no endgame databases, so that measurements have a floor.

use crate::eval;
use crate::movegen;
use crate::moves::MoveList;
use crate::position::Position;
use crate::search::score::{mated_in, MAX_PLY};
use crate::search::worker::Worker;

impl Worker<'_> {
    /// The baseline: plain fixed-depth alpha-beta (fail-hard), material only,
    /// captures resolved at the horizon; no table, no ordering, no pruning.
    pub(in crate::search) fn plain(
        &mut self,
        pos: &Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
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
