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

/// The score of a database win at the root reached in no plies: database
/// scores sit just below every found win (`MATE_BOUND`), so the search
/// prefers a win it sees through to one a table promises.
pub const TB_WIN: i32 = MATE_BOUND - 1;

/// The distance given to a database win whose table keeps none (win/draw/
/// loss only): longer than every distance a table holds, so that a known
/// distance ranks first. Distances beyond it are cut to it.
pub const TB_UNKNOWN_DISTANCE: u32 = 1000;

/// Scores at or beyond this in absolute value are database or found wins
/// and losses: no evaluation comes near it (the largest is a board of
/// kings, a few thousand centi-men).
pub const TB_BOUND: i32 = TB_WIN - MAX_PLY as i32 - TB_UNKNOWN_DISTANCE as i32;

/// The score of a database win at `ply` from the root, the table saying it
/// ends the game `distance` plies later (`None`: the table keeps no
/// distance).
#[inline(always)]
pub fn tb_win_in(ply: usize, distance: Option<u32>) -> i32 {
    let d = distance.map_or(TB_UNKNOWN_DISTANCE, |d| d.min(TB_UNKNOWN_DISTANCE));
    TB_WIN - ply as i32 - d as i32
}

/// The score of a database loss (the mirror of `tb_win_in`).
#[inline(always)]
pub fn tb_loss_in(ply: usize, distance: Option<u32>) -> i32 {
    -tb_win_in(ply, distance)
}

/// The score of a draw (a repetition, a drawn database position) at `ply`
/// from the root, for the side to move there: `contempt` centi-men below
/// even for the root's side, which would rather play on against a weaker
/// opponent (negative: it would rather draw), as much above for the other.
#[inline(always)]
pub fn draw_score(contempt: i32, ply: usize) -> i32 {
    if ply % 2 == 0 {
        -contempt
    } else {
        contempt
    }
}

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
    ///
    /// A database win or loss with a known distance is a forced end of the
    /// game just the same (the distance counts plies until the loser has no
    /// move) and is reported in moves too; one without a distance stays a
    /// (very large) centi-man score.
    pub fn from_internal(v: i32) -> Score {
        if v >= MATE_BOUND {
            Score::Mate((MATE - v + 1) / 2)
        } else if v <= -MATE_BOUND {
            Score::Mate(-(MATE + v) / 2)
        } else if v >= TB_BOUND && TB_WIN - v < TB_UNKNOWN_DISTANCE as i32 {
            Score::Mate((TB_WIN - v + 1) / 2)
        } else if v <= -TB_BOUND && TB_WIN + v < TB_UNKNOWN_DISTANCE as i32 {
            Score::Mate(-(TB_WIN + v) / 2)
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

/// A score to store in the transposition table: wins and losses (found or
/// from a database) become relative to the node at `ply` (so that the
/// entry holds wherever the position is met again), other scores are left
/// alone.
#[inline]
pub fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= TB_BOUND {
        score + ply as i32
    } else if score <= -TB_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// A score read back from the table at `ply`: wins and losses become
/// relative to the root again (the inverse of `score_to_tt`).
#[inline]
pub fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= TB_BOUND {
        score - ply as i32
    } else if score <= -TB_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_draw_costs_the_root_side_its_contempt() {
        // Even plies have the root's side to move: the draw is worth
        // -contempt to it; odd plies the opponent's: +contempt. Negative
        // contempt (a wish to draw) turns both round; 0 is a plain draw.
        assert_eq!(draw_score(25, 0), -25);
        assert_eq!(draw_score(25, 1), 25);
        assert_eq!(draw_score(25, 8), -25);
        assert_eq!(draw_score(25, 13), 25);
        assert_eq!(draw_score(-25, 2), 25);
        assert_eq!(draw_score(-25, 3), -25);
        assert_eq!(draw_score(0, 4), 0);
        assert_eq!(draw_score(0, 5), 0);
    }

    #[test]
    fn wins_and_losses_in_moves() {
        // A win on the next ply (our move ends it) is a win in 1 move; a
        // loss after our move and the opponent's winning reply: in 1 move.
        assert_eq!(Score::from_internal(mate_in(1)), Score::Mate(1));
        assert_eq!(Score::from_internal(mate_in(3)), Score::Mate(2));
        assert_eq!(Score::from_internal(mated_in(2)), Score::Mate(-1));
        assert_eq!(Score::from_internal(mated_in(0)), Score::Mate(0));
        assert_eq!(Score::from_internal(TB_BOUND - 1), Score::Cp(TB_BOUND - 1));
        assert!(is_mate(mate_in(MAX_PLY)) && is_mate(mated_in(MAX_PLY)));
        assert!(!is_mate(MATE_BOUND - 1) && !is_mate(-MATE_BOUND + 1));
    }

    #[test]
    fn database_scores_rank_below_found_wins_and_above_evaluations() {
        // A table's win in 3 plies, probed at ply 4: the game ends at ply
        // 7, a win in 4 moves; a found win at ply 99 still ranks higher.
        let tb = tb_win_in(4, Some(3));
        assert_eq!(Score::from_internal(tb), Score::Mate(4));
        assert_eq!(
            Score::from_internal(tb_loss_in(4, Some(4))),
            Score::Mate(-4)
        );
        assert!(tb < mate_in(99) && !is_mate(tb));
        // Quicker wins rank higher; a win with no distance below them all,
        // and reported as centi-men.
        assert!(tb_win_in(4, Some(3)) > tb_win_in(4, Some(5)));
        let unknown = tb_win_in(MAX_PLY, None);
        assert!(unknown < tb_win_in(MAX_PLY, Some(999)) && unknown >= TB_BOUND);
        assert_eq!(Score::from_internal(unknown), Score::Cp(unknown));
        assert!(tb_loss_in(MAX_PLY, None) <= -TB_BOUND);
        // The table stores them relative to the node, like found wins.
        assert_eq!(score_from_tt(score_to_tt(tb, 4), 6), tb_win_in(6, Some(3)));
        assert_eq!(
            score_from_tt(score_to_tt(tb_loss_in(3, None), 3), 1),
            tb_loss_in(1, None)
        );
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
