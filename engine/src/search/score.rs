//! Scores: the search's internal integers, what they mean, and how they are
//! reported. Kept apart from the search (as Scan's `score.hpp` and
//! Stockfish's `types.h` do) so that the transposition table and the search
//! both read them from here, and neither imports the other for them.
//!
//! An internal score is in centi-men from the side to move's point of view.
//! A position whose side to move has no legal move is lost: `mated_in(ply)`
//! = `-MATE + ply`, so a quicker win scores higher. Everything beyond
//! `MATE_BOUND` in absolute value is such a win or loss, found within
//! `MAX_PLY` plies.

/// The score of a win at the root (a loss is `-MATE`); a win `n` plies away
/// is `MATE - n`.
pub const MATE: i32 = 30_000;

/// The deepest ply the search reaches: its per-ply arrays have this size.
pub const MAX_PLY: usize = 128;

/// The deepest iteration a search may be asked for (a depth limit above is
/// cut to this).
pub const MAX_DEPTH: u32 = MAX_PLY as u32 - 1;

/// Scores at or beyond this in absolute value are wins or losses: no
/// evaluation comes near it, and no win is further than `MAX_PLY` plies.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;

/// Above any score: the initial "nothing found yet" and the open window.
pub(crate) const INF: i32 = MATE + 1;

/// Whether `v` is a proven win or loss rather than an evaluation.
#[inline(always)]
pub fn is_mate(v: i32) -> bool {
    v.abs() >= MATE_BOUND
}

/// The score of a win `ply` plies from the root.
#[inline(always)]
pub fn mate_in(ply: usize) -> i32 {
    MATE - ply as i32
}

/// The score of a loss `ply` plies from the root (the side to move at that
/// ply has no legal move).
#[inline(always)]
pub fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

/// A search score as the protocol reports it, from the side to move's
/// point of view.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Score {
    /// Centi-men: a man is worth 100.
    Cp(i32),
    /// A forced win in this many moves of the side to move (negative: forced loss).
    Mate(i32),
}

impl Score {
    /// Reads an internal score: beyond `MATE_BOUND` it is a win or loss in
    /// moves (a move is two plies, the winner's last one included).
    pub fn from_internal(v: i32) -> Score {
        if v >= MATE_BOUND {
            Score::Mate((MATE - v + 1) / 2)
        } else if v <= -MATE_BOUND {
            Score::Mate(-(MATE + v) / 2)
        } else {
            Score::Cp(v)
        }
    }
}

/// What a score says about the true value: the one bound type of the
/// transposition table (a stored result) and of the reports (an aspiration
/// window that failed).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The true value is at most the score (a fail-low).
    Upper = 1,
    /// The true value is at least the score (a fail-high).
    Lower = 2,
    /// The score is the true value (at that depth).
    Exact = 3,
}

impl Bound {
    /// What the best score `best` of a search in the window (`alpha`,
    /// `beta`) is: a fail-high is a lower bound, a score inside the window
    /// exact (on the principal variation only: elsewhere the window is
    /// null), anything else an upper bound.
    #[inline(always)]
    pub fn of_result(best: i32, alpha: i32, beta: i32, pv_node: bool) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if pv_node && best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

/// A score to store in the transposition table: wins and losses become
/// relative to the node at `ply` (so that the entry holds wherever the
/// position is met again), other scores are left alone.
#[inline]
pub fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// A score read back from the table at `ply`: wins and losses become
/// relative to the root again (the inverse of `score_to_tt`).
#[inline]
pub fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wins_and_losses_in_moves() {
        // A win on the next ply (our move ends it) is a win in 1 move; a
        // loss after our move and the opponent's winning reply: in 1 move.
        assert_eq!(Score::from_internal(mate_in(1)), Score::Mate(1));
        assert_eq!(Score::from_internal(mate_in(3)), Score::Mate(2));
        assert_eq!(Score::from_internal(mated_in(2)), Score::Mate(-1));
        assert_eq!(Score::from_internal(mated_in(0)), Score::Mate(0));
        assert_eq!(
            Score::from_internal(MATE_BOUND - 1),
            Score::Cp(MATE_BOUND - 1)
        );
        assert!(is_mate(mate_in(MAX_PLY)) && is_mate(mated_in(MAX_PLY)));
        assert!(!is_mate(MATE_BOUND - 1) && !is_mate(-MATE_BOUND + 1));
    }

    #[test]
    fn table_scores_are_relative_to_the_node() {
        // A win 5 plies from the root, stored at ply 3, is 2 plies from the
        // node; read back at ply 7 (a transposition) it is 9 from the root.
        let stored = score_to_tt(mate_in(5), 3);
        assert_eq!(stored, mate_in(2));
        assert_eq!(score_from_tt(stored, 7), mate_in(9));
        assert_eq!(score_from_tt(score_to_tt(mated_in(6), 2), 0), mated_in(4));
        assert_eq!(score_to_tt(250, 10), 250);
        assert_eq!(score_from_tt(-250, 10), -250);
    }
}
