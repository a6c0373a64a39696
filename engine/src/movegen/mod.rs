//! Legal move generation.
//!
//! Captures are compulsory and only the sequences taking the most pieces are
//! legal, so generation first looks for captures (`capture`), and only when
//! there are none produces the quiet moves (`quiet`) by whole-board shifts.
//! The men's first jumps are read off the whole board too: a position
//! without captures, or whose captures are all single jumps of men, never
//! enters the route search.

mod capture;
mod quiet;

use capture::Captures;
pub use capture::{capture_routes, CaptureRoute};
pub(crate) use quiet::{king_step_count, king_steps, man_step_count, man_steps};

use crate::moves::{Move, MoveList};
use crate::position::Position;
use arrayvec::ArrayVec;

/// All legal moves, each distinct move exactly once.
pub fn generate(pos: &Position, list: &mut MoveList) {
    list.clear();
    match capture::classify(pos) {
        Captures::None => quiet::generate(pos, list),
        Captures::Single(single) => single.push_all(pos, list),
        Captures::Search { first, .. } => {
            capture::search_from(pos, first.origins, &mut capture::DistinctMoves { list });
            // Kings that turned out to have no capture.
            if list.is_empty() {
                quiet::generate(pos, list);
            }
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
    match capture::classify(pos) {
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
                &mut capture::DistinctMoves { list: &mut list },
            );
            if list.is_empty() {
                quiet::count(pos)
            } else {
                list.len()
            }
        }
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
    let mut list = MoveList::new();
    match capture::classify(pos) {
        Captures::Search { first, .. } => {
            capture::search_from(
                pos,
                first.origins,
                &mut capture::RouteCounts { moves: &mut out },
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
