//! `Bitboard`: a set of squares in one u64 (bit i = square i, a1 = bit 0).
//!
//! Shifts respect the board edge: a piece on the h-file shifted east falls off
//! the board instead of wrapping onto the a-file of the next rank.

use crate::square::Square;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares: bit i is square i (a1 = bit 0, h8 = bit 63).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub struct Bitboard(pub u64);

/// The eight directions a piece can look in. The first four are orthogonal
/// (the only capture directions); `opposite()` is what the 180-degree ban uses.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
pub enum Direction {
    /// Towards rank 8 (White's forward).
    North = 0,
    /// Towards the h-file.
    East = 1,
    /// Towards rank 1 (Black's forward).
    South = 2,
    /// Towards the a-file.
    West = 3,
    /// Up and towards the h-file.
    NorthEast = 4,
    /// Down and towards the h-file.
    SouthEast = 5,
    /// Down and towards the a-file.
    SouthWest = 6,
    /// Up and towards the a-file.
    NorthWest = 7,
}

impl Direction {
    /// The capture directions, and the only king directions in Turkish.
    pub const ORTHOGONAL: [Direction; 4] = [
        Direction::North,
        Direction::East,
        Direction::South,
        Direction::West,
    ];
    /// The directions Armenian adds for kings (and, forward, for men's steps).
    pub const DIAGONAL: [Direction; 4] = [
        Direction::NorthEast,
        Direction::SouthEast,
        Direction::SouthWest,
        Direction::NorthWest,
    ];
    /// All eight: the orthogonal ones first.
    pub const ALL: [Direction; 8] = [
        Direction::North,
        Direction::East,
        Direction::South,
        Direction::West,
        Direction::NorthEast,
        Direction::SouthEast,
        Direction::SouthWest,
        Direction::NorthWest,
    ];

    /// The reverse direction (what the 180-degree ban of a capture forbids).
    #[inline(always)]
    pub const fn opposite(self) -> Direction {
        match self {
            Direction::North => Direction::South,
            Direction::East => Direction::West,
            Direction::South => Direction::North,
            Direction::West => Direction::East,
            Direction::NorthEast => Direction::SouthWest,
            Direction::SouthEast => Direction::NorthWest,
            Direction::SouthWest => Direction::NorthEast,
            Direction::NorthWest => Direction::SouthEast,
        }
    }

    /// (file step, rank step).
    pub const fn delta(self) -> (i8, i8) {
        match self {
            Direction::North => (0, 1),
            Direction::East => (1, 0),
            Direction::South => (0, -1),
            Direction::West => (-1, 0),
            Direction::NorthEast => (1, 1),
            Direction::SouthEast => (1, -1),
            Direction::SouthWest => (-1, -1),
            Direction::NorthWest => (-1, 1),
        }
    }

    /// How far the square index moves for one step (rank * 8 + file).
    #[inline(always)]
    pub const fn offset(self) -> i8 {
        let (df, dr) = self.delta();
        dr * 8 + df
    }

    /// Directions that increase the square index: the nearest piece on a ray
    /// is then its lowest bit, otherwise its highest.
    #[inline(always)]
    pub const fn is_ascending(self) -> bool {
        matches!(
            self,
            Direction::North | Direction::East | Direction::NorthEast | Direction::NorthWest
        )
    }
}

impl Bitboard {
    /// No square.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// Every square.
    pub const FULL: Bitboard = Bitboard(!0);
    /// The a-file (what an eastward shift must not wrap onto).
    pub const FILE_A: Bitboard = Bitboard(0x0101_0101_0101_0101);
    /// The h-file (what a westward shift must not wrap onto).
    pub const FILE_H: Bitboard = Bitboard(0x8080_8080_8080_8080);
    /// Rank 1: where Black's men are crowned.
    pub const RANK_1: Bitboard = Bitboard(0xff);
    /// Rank 8: where White's men are crowned.
    pub const RANK_8: Bitboard = Bitboard(0xff << 56);

    /// The set holding `sq` alone.
    #[inline(always)]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(sq.bit())
    }

    /// The squares of a rank, 0 (rank 1) to 7 (rank 8).
    #[inline(always)]
    pub const fn rank(rank: u8) -> Bitboard {
        Bitboard(0xff << (8 * rank))
    }

    /// No square in the set.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// At least one square in the set.
    #[inline(always)]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// How many squares.
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether `sq` is in the set.
    #[inline(always)]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & sq.bit() != 0
    }

    /// The set with `sq` added.
    #[inline(always)]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | sq.bit())
    }

    /// The set with `sq` removed.
    #[inline(always)]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !sq.bit())
    }

    /// Lowest square, if any.
    #[inline(always)]
    pub const fn lsb(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_unchecked(self.0.trailing_zeros()))
        }
    }

    /// Highest square, if any.
    #[inline(always)]
    pub const fn msb(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_unchecked(63 - self.0.leading_zeros()))
        }
    }

    /// Moves every square one step in `dir`; squares that would leave the
    /// board (or wrap around an edge file) disappear.
    #[inline(always)]
    pub const fn shift(self, dir: Direction) -> Bitboard {
        let b = self.0;
        let not_a = !Bitboard::FILE_A.0;
        let not_h = !Bitboard::FILE_H.0;
        Bitboard(match dir {
            Direction::North => b << 8,
            Direction::South => b >> 8,
            Direction::East => (b << 1) & not_a,
            Direction::West => (b >> 1) & not_h,
            Direction::NorthEast => (b << 9) & not_a,
            Direction::NorthWest => (b << 7) & not_h,
            Direction::SouthEast => (b >> 7) & not_a,
            Direction::SouthWest => (b >> 9) & not_h,
        })
    }

    /// The squares from a1 towards h8 (ascending index).
    #[inline(always)]
    pub fn iter(self) -> BitboardIter {
        BitboardIter(self.0)
    }
}

/// Squares of a bitboard from a1 towards h8.
pub struct BitboardIter(u64);

impl Iterator for BitboardIter {
    type Item = Square;

    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let sq = Square::from_index_unchecked(self.0.trailing_zeros());
        self.0 &= self.0 - 1;
        Some(sq)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for BitboardIter {}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = BitboardIter;
    fn into_iter(self) -> BitboardIter {
        self.iter()
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        iter.into_iter().fold(Bitboard::EMPTY, Bitboard::with)
    }
}

macro_rules! bit_ops {
    ($($tr:ident $f:ident $op:tt $tra:ident $fa:ident),*) => {$(
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, rhs: Bitboard) -> Bitboard { Bitboard(self.0 $op rhs.0) }
        }
        impl $tra for Bitboard {
            #[inline(always)]
            fn $fa(&mut self, rhs: Bitboard) { self.0 = self.0 $op rhs.0; }
        }
    )*};
}
bit_ops!(BitAnd bitand & BitAndAssign bitand_assign,
         BitOr bitor | BitOrAssign bitor_assign,
         BitXor bitxor ^ BitXorAssign bitxor_assign);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

/// `RAYS[dir][sq]`: the squares seen from `sq` looking in `dir` on an empty
/// board, `sq` itself excluded. Built at compile time.
static RAYS: [[u64; 64]; 8] = build_rays();

const fn build_rays() -> [[u64; 64]; 8] {
    let mut rays = [[0u64; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let (df, dr) = Direction::ALL[d].delta();
        let mut sq = 0;
        while sq < 64 {
            let mut f = (sq % 8) as i8 + df;
            let mut r = (sq / 8) as i8 + dr;
            let mut ray = 0u64;
            while f >= 0 && f < 8 && r >= 0 && r < 8 {
                ray |= 1u64 << (r * 8 + f);
                f += df;
                r += dr;
            }
            rays[d][sq] = ray;
            sq += 1;
        }
        d += 1;
    }
    rays
}

/// The squares from `sq` (excluded) to the board edge in `dir`: what a flying
/// king sees on an empty board.
#[inline(always)]
pub fn ray(dir: Direction, sq: Square) -> Bitboard {
    Bitboard(RAYS[dir as usize][sq.index()])
}

/// The first occupied square looking from `sq` in `dir`, if any.
#[inline(always)]
pub fn first_blocker(dir: Direction, sq: Square, occupied: Bitboard) -> Option<Square> {
    let hits = ray(dir, sq) & occupied;
    if dir.is_ascending() {
        hits.lsb()
    } else {
        hits.msb()
    }
}

/// The empty squares from `sq` in `dir` up to (not including) the first
/// occupied square.
#[inline(always)]
pub fn open_ray(dir: Direction, sq: Square, occupied: Bitboard) -> Bitboard {
    let full = ray(dir, sq);
    match first_blocker(dir, sq, occupied) {
        Some(b) => full & !ray(dir, b) & !Bitboard::from_square(b),
        None => full,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    #[test]
    fn shifts_do_not_wrap_around_edges() {
        let h4 = Bitboard::from_square(sq("h4"));
        assert!(h4.shift(Direction::East).is_empty());
        assert!(h4.shift(Direction::NorthEast).is_empty());
        assert_eq!(h4.shift(Direction::West), Bitboard::from_square(sq("g4")));
        let a4 = Bitboard::from_square(sq("a4"));
        assert!(a4.shift(Direction::West).is_empty());
        assert!(a4.shift(Direction::SouthWest).is_empty());
        assert_eq!(
            a4.shift(Direction::NorthEast),
            Bitboard::from_square(sq("b5"))
        );
        assert!(Bitboard::RANK_8.shift(Direction::North).is_empty());
        assert!(Bitboard::RANK_1.shift(Direction::South).is_empty());
    }

    #[test]
    fn rays_and_blockers() {
        assert_eq!(ray(Direction::North, sq("d4")).count(), 4);
        assert_eq!(ray(Direction::SouthWest, sq("d4")).count(), 3);
        let occ = Bitboard::from_square(sq("d7")) | Bitboard::from_square(sq("d2"));
        assert_eq!(
            first_blocker(Direction::North, sq("d4"), occ),
            Some(sq("d7"))
        );
        assert_eq!(
            first_blocker(Direction::South, sq("d4"), occ),
            Some(sq("d2"))
        );
        assert_eq!(
            open_ray(Direction::North, sq("d4"), occ),
            [sq("d5"), sq("d6")].into_iter().collect()
        );
        assert_eq!(open_ray(Direction::East, sq("d4"), occ).count(), 4);
    }
}
