//! The pattern evaluation's state along the search path, so that the
//! learned evaluation does not read all 35 regions of every position it
//! scores: per ply, the last position evaluated there as an `Accumulator`
//! (its men and pattern sums, band by band). A position's sums are those
//! of a nearby entry (its own ply's, its parent's or grandparent's,
//! whichever differs on the fewest squares) with the bands over the ranks
//! where the men differ read again, as NNUE accumulators or Scan's
//! patterns are updated:
//! a step of a man changes two squares, a capture a few more. (`tama
//! bench`: 55% of the evaluations are two squares from their start, 11%
//! none, under 1% more than ten.)
//!
//! The entries are written only when a position is evaluated, not when a
//! move is made: most nodes of the tree are never evaluated (an interior
//! node only for reverse futility pruning, a capture node of quiescence
//! never), so the move loop pays nothing. Any entry is an exact starting
//! point, since an update only needs men whose sums are known: an entry
//! left by another branch is a worse start (more squares differ), never a
//! wrong one. That spares the stack any bookkeeping on entering or leaving
//! a node, a null move or a table probe. The position itself carries no
//! evaluation state.
//!
//! The scores are exactly those of `eval::evaluate_with_mobility` (the
//! sums are integers, and the update exact): the tree, and the bench
//! signature, do not change.

use super::score::MAX_PLY;
use crate::eval::accumulator::Accumulator;
use crate::eval::pattern::{PatternTable, Sums};
use crate::eval::{self, Weights};
use crate::position::Position;

/// The plies whose entries may start a position's update: the position's
/// own (the last position evaluated there, often a sibling) and its
/// parent's and grandparent's (its ancestors, when they were evaluated).
const STARTS: usize = 3;

/// One search thread's pattern sums by ply.
pub(super) struct EvalStack {
    entries: Box<[Accumulator; MAX_PLY + 1]>,
    /// The id of the table the entries were read from (`PatternTable::id`;
    /// 0: none): other weights make every entry void.
    table: u64,
}

impl EvalStack {
    /// No entry known.
    pub fn new() -> EvalStack {
        EvalStack {
            entries: Box::new([Accumulator::NONE; MAX_PLY + 1]),
            table: 0,
        }
    }

    /// `eval::evaluate_with_mobility(pos, w)` of `pos` at `ply`, its pattern
    /// sums updated from a nearby ply's.
    #[inline(always)]
    pub fn evaluate(&mut self, pos: &Position, ply: usize, w: &Weights) -> (i32, u32) {
        eval::evaluate_with_pattern_sums(pos, w, |table, white, black| {
            self.sums(table, ply, (white, black))
        })
    }

    /// The sums of the men `men` (White's, Black's) at `ply`, kept there.
    #[inline(always)]
    fn sums(&mut self, table: &PatternTable, ply: usize, men: (u64, u64)) -> Sums {
        if table.id() != self.table {
            self.entries.fill(Accumulator::NONE);
            self.table = table.id();
        }
        let mut start = ply;
        let mut changed = self.entries[ply].changed(men).count_ones();
        for p in ply.saturating_sub(STARTS - 1)..ply {
            let c = self.entries[p].changed(men).count_ones();
            if c < changed {
                (start, changed) = (p, c);
            }
        }
        if start != ply {
            self.entries[ply] = self.entries[start];
        }
        self.entries[ply].update(table, men);
        self.entries[ply].sums()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::pattern::{Layout, PatternParams};
    use crate::eval::{named, VariantWeights, HAND_NAMES, NAMED};
    use crate::movegen;
    use crate::moves::MoveList;
    use crate::rng::Rng;
    use crate::rules::{Rules, Variant};

    /// Every built-in set, learned and hand-set, as the weights of its
    /// variant.
    fn every_set() -> Vec<(Rules, Weights)> {
        let names = NAMED.iter().map(|(n, _)| *n);
        let names = names.chain(HAND_NAMES.iter().map(|(n, _)| *n));
        names
            .map(|name| {
                let set = named(name).unwrap();
                let rules = match set.variant {
                    Variant::Armenian => Rules::ARMENIAN,
                    Variant::Turkish => Rules::TURKISH,
                };
                let mut w = Weights::DEFAULT;
                w.replace(set);
                (rules, w)
            })
            .collect()
    }

    /// The moves of `pos`.
    fn moves(pos: &Position) -> MoveList {
        let mut list = MoveList::new();
        movegen::generate(pos, &mut list);
        list
    }

    /// Evaluates `pos` at `ply` and the positions `depth` moves below it
    /// at the plies below, depth first as a search visits them, and checks
    /// each score against the whole evaluation. Returns how many.
    fn check_tree(
        stack: &mut EvalStack,
        pos: &Position,
        ply: usize,
        depth: u32,
        w: &Weights,
    ) -> usize {
        let full = eval::evaluate_with_mobility(pos, w);
        assert_eq!(stack.evaluate(pos, ply, w), full, "{pos:?} at ply {ply}");
        if depth == 0 {
            return 1;
        }
        let mut n = 1;
        for mv in &moves(pos) {
            n += check_tree(stack, &pos.play(mv), ply + 1, depth - 1, w);
        }
        n
    }

    #[test]
    fn scores_equal_the_whole_evaluation_along_random_games() {
        // 40 random games a set, every built-in set: each position of a
        // game at the game's ply (modulo 64, so that entries are also left
        // from a game's earlier plies) and all its children at the next,
        // as a search evaluates a node and its moves.
        let mut rng = Rng::new(27);
        let mut checked = 0;
        for (rules, w) in every_set() {
            let mut stack = EvalStack::new();
            for _ in 0..40 {
                let mut pos = Position::startpos(rules);
                for ply in 0..200 {
                    checked += check_tree(&mut stack, &pos, ply % 64, 1, &w);
                    let list = moves(&pos);
                    if list.is_empty() {
                        break;
                    }
                    pos = pos.play(&list[rng.below(list.len() as u64) as usize]);
                }
            }
        }
        assert!(checked > 100_000, "{checked}");
    }

    #[test]
    fn scores_equal_the_whole_evaluation_on_the_bench_positions() {
        // Every bench position (both variants, men and kings) and all the
        // positions three moves below it, with every built-in set of its
        // variant, one stack a set as in one search after another.
        let bench = crate::search::bench::positions();
        let mut checked = 0;
        for (rules, w) in every_set() {
            let mut stack = EvalStack::new();
            for (r, fen) in bench.iter().filter(|(r, _)| r.variant == rules.variant) {
                let pos = Position::from_fen(fen, *r).unwrap();
                checked += check_tree(&mut stack, &pos, 1, 3, &w);
            }
        }
        assert!(checked > 50_000, "{checked}");
    }

    #[test]
    fn other_weights_void_the_entries() {
        // The same position at the same ply with other pattern weights
        // (random ones) scores as those weights say, not from the sums the
        // first weights left there.
        let mut rng = Rng::new(5);
        let n = Layout::get().params();
        let mut r = || rng.below(2001) as i16 - 1000;
        let params = PatternParams {
            opening: (0..n).map(|_| r()).collect(),
            endgame: (0..n).map(|_| r()).collect(),
        };
        let learned = named("armenian-learned").unwrap();
        let mut other = Weights::DEFAULT;
        other.replace(VariantWeights {
            patterns: Some(PatternTable::new(params)),
            ..learned.clone()
        });
        let mut w = Weights::DEFAULT;
        w.replace(learned);
        let start = Position::startpos(Rules::ARMENIAN);
        let pos = start.play(&moves(&start)[0]);
        let mut stack = EvalStack::new();
        assert_eq!(
            stack.evaluate(&pos, 3, &w),
            eval::evaluate_with_mobility(&pos, &w)
        );
        let theirs = eval::evaluate_with_mobility(&pos, &other);
        assert_ne!(theirs, eval::evaluate_with_mobility(&pos, &w));
        assert_eq!(stack.evaluate(&pos, 3, &other), theirs);
    }
}
