//! Legal move generation.
//!
//! Captures are compulsory and only the sequences taking the most pieces are
//! legal, so generation first looks for captures (`capture`), and only when
//! there are none produces the quiet moves (`quiet`) by whole-board shifts.

mod capture;
mod quiet;

pub use capture::{capture_routes, CaptureRoute};
pub(crate) use quiet::{king_step_count, king_steps, man_step_count, man_steps};

use crate::moves::{Move, MoveList};
use crate::position::Position;
use arrayvec::ArrayVec;

/// All legal moves, each distinct move exactly once.
pub fn generate(pos: &Position, list: &mut MoveList) {
    list.clear();
    // The capture search starts only from pieces that can jump, so running it
    // first costs no more than asking whether a capture exists.
    capture::search(pos, &mut capture::DistinctMoves { list });
    if list.is_empty() {
        quiet::generate(pos, list);
    }
}

/// The legal moves as a fresh list.
pub fn legal_moves(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    generate(pos, &mut list);
    list
}

/// Number of legal moves, without building the quiet list (bulk counting).
pub fn count(pos: &Position) -> usize {
    let mut list = MoveList::new();
    capture::search(pos, &mut capture::DistinctMoves { list: &mut list });
    if list.is_empty() {
        quiet::count(pos)
    } else {
        list.len()
    }
}

/// Whether the side to move must capture.
#[inline]
pub fn has_capture(pos: &Position) -> bool {
    capture::has_capture(pos)
}

/// Legal moves with the number of distinct jump routes behind each (1 for a
/// quiet move): what route-counting perft (the way kish counts) multiplies by.
pub fn generate_with_routes(pos: &Position) -> ArrayVec<(Move, u32), { crate::moves::MAX_MOVES }> {
    let mut out = ArrayVec::new();
    if capture::has_capture(pos) {
        let mut sink = capture::RouteCounts { moves: &mut out };
        capture::search(pos, &mut sink);
    } else {
        let mut list = MoveList::new();
        quiet::generate(pos, &mut list);
        out.extend(list.into_iter().map(|m| (m, 1)));
    }
    out
}

#[cfg(test)]
mod tests;
