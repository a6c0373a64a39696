//! Squares of the 8x8 board: a1 = 0, b1 = 1, ..., h8 = 63 (index = rank * 8 + file).

use std::fmt;

/// One of the 64 squares. Always valid: the constructors check the range.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The first square (index 0).
    pub const A1: Square = Square(0);
    /// The last square (index 63).
    pub const H8: Square = Square(63);

    /// The square with this index, if it is on the board.
    pub const fn new(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// Callers guarantee `index < 64` (bit positions of a non-empty u64).
    #[inline(always)]
    pub(crate) const fn from_index_unchecked(index: u32) -> Square {
        debug_assert!(index < 64);
        Square(index as u8)
    }

    /// File 0..8 (a..h) and rank 0..8 (1..8).
    pub const fn from_coords(file: u8, rank: u8) -> Option<Square> {
        if file < 8 && rank < 8 {
            Some(Square(rank * 8 + file))
        } else {
            None
        }
    }

    /// 0 (a1) to 63 (h8): rank * 8 + file.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// 0 for the a-file .. 7 for the h-file.
    #[inline(always)]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    /// 0 for rank 1 .. 7 for rank 8.
    #[inline(always)]
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    /// The square's bit in a bitboard.
    #[inline(always)]
    pub const fn bit(self) -> u64 {
        1u64 << self.0
    }

    /// Parses `a1` .. `h8` (lower or upper case file letter).
    pub fn parse(text: &str) -> Option<Square> {
        let bytes = text.as_bytes();
        if bytes.len() != 2 {
            return None;
        }
        let file = bytes[0].to_ascii_lowercase().wrapping_sub(b'a');
        let rank = bytes[1].wrapping_sub(b'1');
        Square::from_coords(file, rank)
    }

    /// The 64 squares, a1 first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for sq in Square::all() {
            assert_eq!(Square::parse(&sq.to_string()), Some(sq));
        }
        assert_eq!(Square::parse("a1"), Some(Square::A1));
        assert_eq!(Square::parse("H8"), Some(Square::H8));
        assert_eq!(Square::parse("d4").map(Square::index), Some(27));
        for bad in ["", "a", "a0", "a9", "i1", "a10", "é1", "1a"] {
            assert_eq!(Square::parse(bad), None, "{bad:?}");
        }
    }
}
