//! `Move` and `MoveList`.
//!
//! A move is identified by where the piece starts and ends, the set of pieces
//! it captures and whether it ends as a (new) king. Different jump routes
//! with the same identity are one move; the route is only needed for text,
//! and `Position::move_text` reconstructs one.

use crate::bitboard::Bitboard;
use crate::square::Square;
use arrayvec::ArrayVec;

/// A legal move's identity (see the module comment): enough to play it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    /// Where the piece starts.
    pub from: Square,
    /// Where it ends (the start square again for a king's capture round trip).
    pub to: Square,
    /// True when a man ends the move crowned.
    pub promotes: bool,
    /// The pieces it captures (empty for a quiet move).
    pub captures: Bitboard,
}

impl Move {
    /// No move: a man or king staying on a1, which no position allows. It
    /// fills empty killer and principal-variation slots, and stands for an
    /// illegal answer where one is needed on purpose.
    pub const NONE: Move = Move::quiet(Square::A1, Square::A1, false);

    /// A move without capture.
    pub const fn quiet(from: Square, to: Square, promotes: bool) -> Move {
        Move {
            from,
            to,
            promotes,
            captures: Bitboard::EMPTY,
        }
    }

    /// Whether it captures (then every legal move of the position does).
    #[inline(always)]
    pub const fn is_capture(&self) -> bool {
        self.captures.any()
    }

    /// How many pieces it captures.
    #[inline(always)]
    pub const fn capture_count(&self) -> u32 {
        self.captures.count()
    }
}

/// Enough for any position with at most 16 pieces a side: quiet moves are
/// bounded by 8 per empty target square (the nearest piece in each
/// direction), i.e. < 512, and maximal capture sets are far fewer.
pub const MAX_MOVES: usize = 512;

/// The legal moves of a position, on the stack (no allocation in the search).
pub type MoveList = ArrayVec<Move, MAX_MOVES>;
