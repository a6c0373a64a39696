//! Legal move generation.
//!
//! Captures are compulsory and only the sequences taking the most pieces are
//! legal, so generation first looks for captures (`capture`), and only when
//! there are none produces the quiet moves (`quiet`) by whole-board shifts.
//! The men's first jumps are read off the whole board too: a position
//! without captures, or whose captures are all single jumps of men, never
//! enters the route search.

mod capture;
mod outline;
mod quiet;
mod routes;

pub use capture::capture_routes;
use outline::Captures;
pub(crate) use quiet::{king_step_count, king_steps, man_step_count, man_steps};
pub use routes::CaptureRoute;

use crate::bitboard::Bitboard;
use crate::moves::{Move, MoveList};
use crate::position::Position;
use arrayvec::ArrayVec;

/// All legal moves, each distinct move exactly once.
pub fn generate(pos: &Position, list: &mut MoveList) {
    generate_from(pos, outline::classify(pos), list);
}

/// `generate` from what `captures_due` said of `pos` (not read again):
/// its captures, or (`None`) its quiet moves.
pub(crate) fn generate_as_due(pos: &Position, due: Option<CapturesDue>, list: &mut MoveList) {
    generate_from(pos, due.map_or(Captures::None, |d| d.0), list);
}

#[inline(always)]
fn generate_from(pos: &Position, captures: Captures, list: &mut MoveList) {
    list.clear();
    match captures {
        Captures::None => quiet::generate(pos, list),
        Captures::Single(single) => single.push_all(pos, list),
        Captures::Search { first, .. } => {
            capture::search_from(pos, first.origins, &mut routes::DistinctMoves { list });
            debug_assert!(!list.is_empty(), "the route search finds the captures");
        }
    }
}

/// The legal moves as a fresh list.
pub fn legal_moves(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    generate(pos, &mut list);
    list
}

/// Number of legal moves, without building the list where the whole
/// board tells (bulk counting).
pub fn count(pos: &Position) -> usize {
    match outline::classify(pos) {
        Captures::None => quiet::count(pos),
        Captures::Single(single) => single.count(),
        Captures::Search {
            first,
            men_only: true,
        } => capture::count_men_routes(pos, &first),
        Captures::Search { first, .. } => {
            let mut list = MoveList::new();
            capture::search_from(
                pos,
                first.origins,
                &mut routes::DistinctMoves { list: &mut list },
            );
            list.len()
        }
    }
}

/// Whether the side to move must capture.
#[inline(always)]
pub fn has_capture(pos: &Position) -> bool {
    outline::has_capture(pos)
}

/// The captures the side to move must make, in outline: what
/// `captures_due` read off the whole board, for `forced_capture`.
pub(crate) struct CapturesDue(Captures);

/// The outline of the side to move's captures, or `None` when it has no
/// capture: `has_capture` and the start of `forced_capture` in one
/// reading, for callers that ask both (the shot test, of millions of
/// positions).
#[inline(always)]
pub(crate) fn captures_due(pos: &Position) -> Option<CapturesDue> {
    match outline::classify(pos) {
        Captures::None => None,
        captures => Some(CapturesDue(captures)),
    }
}

/// The one legal move of `pos` when it is a capture (a forced capture),
/// else `None`, from the outline of its captures (`captures_due`). Reads
/// it off the whole board when the captures are single jumps of men, the
/// common case, and builds the move list (into `scratch`) only when the
/// route search must decide.
pub(crate) fn forced_capture(
    pos: &Position,
    due: CapturesDue,
    scratch: &mut MoveList,
) -> Option<Move> {
    match due.0 {
        Captures::None => None,
        Captures::Single(single) => {
            if single.count() != 1 {
                return None;
            }
            scratch.clear();
            single.push_all(pos, scratch);
            scratch.first().copied()
        }
        Captures::Search { first, .. } => {
            // The route search straight from the outline already read (as
            // `generate` does, without reading it again).
            scratch.clear();
            capture::search_from(
                pos,
                first.origins,
                &mut routes::DistinctMoves { list: scratch },
            );
            match scratch.as_slice() {
                [m] if m.is_capture() => Some(*m),
                _ => None,
            }
        }
    }
}

/// What the side to move's captures are, as far as the whole board tells
/// without a route search (`capture_outline`).
pub(crate) enum CaptureOutline {
    /// No capture: the legal moves are the quiet ones.
    None,
    /// Every capture is a single jump of a man, and every one is legal.
    SingleJumps {
        /// The pieces they take, one each.
        victims: Bitboard,
        /// Whether one of them ends on the promotion rank (and crowns).
        promotes: bool,
    },
    /// A king captures, or a man may jump on: the route search decides
    /// (`generate`).
    Routes,
}

/// The side to move's captures in outline (`CaptureOutline`).
#[inline]
pub(crate) fn capture_outline(pos: &Position) -> CaptureOutline {
    match outline::classify(pos) {
        Captures::None => CaptureOutline::None,
        Captures::Single(single) => {
            let us = pos.side_to_move();
            CaptureOutline::SingleJumps {
                victims: single.victims(us),
                promotes: single.reaches(us.promotion_rank()),
            }
        }
        Captures::Search { .. } => CaptureOutline::Routes,
    }
}

/// Whether a man of the side to move can step onto its promotion rank
/// (which quiet move crowns), without listing the moves.
#[inline]
pub(crate) fn quiet_promotion(pos: &Position) -> bool {
    quiet::promotion(pos)
}

/// Legal moves with the number of distinct jump routes behind each (1 for a
/// quiet move): what route-counting perft (the way kish counts) multiplies by.
pub fn generate_with_routes(pos: &Position) -> ArrayVec<(Move, u32), { crate::moves::MAX_MOVES }> {
    let mut out = ArrayVec::new();
    let mut list = MoveList::new();
    match outline::classify(pos) {
        Captures::Search { first, .. } => {
            capture::search_from(
                pos,
                first.origins,
                &mut routes::RouteCounts { moves: &mut out },
            );
            if !out.is_empty() {
                return out;
            }
            quiet::generate(pos, &mut list);
        }
        // Quiet moves and single jumps: one route each.
        Captures::None | Captures::Single(_) => generate(pos, &mut list),
    }
    out.extend(list.into_iter().map(|m| (m, 1)));
    out
}

#[cfg(test)]
mod tests;
