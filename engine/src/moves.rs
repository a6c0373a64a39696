//! `Move` and `MoveList`.
//!
//! A move is identified by where the piece starts and ends, the set of pieces
//! it captures and whether it ends as a (new) king. Different jump routes
//! with the same identity are one move; the route is only needed for text,
//! and `Position::move_text` reconstructs one.

use crate::bitboard::Bitboard;
use crate::square::Square;
use arrayvec::ArrayVec;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    pub from: Square,
    pub to: Square,
    /// True when a man ends the move crowned.
    pub promotes: bool,
    pub captures: Bitboard,
}

impl Move {
    pub const fn quiet(from: Square, to: Square, promotes: bool) -> Move {
        Move {
            from,
            to,
            promotes,
            captures: Bitboard::EMPTY,
        }
    }

    #[inline(always)]
    pub const fn is_capture(&self) -> bool {
        self.captures.any()
    }

    #[inline(always)]
    pub const fn capture_count(&self) -> u32 {
        self.captures.count()
    }
}

/// Enough for any position with at most 16 pieces a side: quiet moves are
/// bounded by 8 per empty target square (the nearest piece in each
/// direction), i.e. < 512, and maximal capture sets are far fewer.
pub const MAX_MOVES: usize = 512;

pub type MoveList = ArrayVec<Move, MAX_MOVES>;
