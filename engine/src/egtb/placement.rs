//! A position as the tables see it: from the side to move, turned so that
//! it moves up the board (`Placement`), with the two symmetries the index
//! uses (the board turned over, the files mirrored).

use super::signature::Signature;
use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::rules::{Color, Rules};

/// Ranks 2-7: where a man of either colour can stand.
pub const MAN_SQUARES: Bitboard = Bitboard(0x00FF_FFFF_FFFF_FF00);

/// The ranks reversed: a1 <-> a8.
#[inline(always)]
fn flip_ranks(b: Bitboard) -> Bitboard {
    Bitboard(b.0.swap_bytes())
}

/// The files reversed: a1 <-> h1.
#[inline(always)]
fn mirror_files(b: Bitboard) -> Bitboard {
    Bitboard(b.0.reverse_bits().swap_bytes())
}

/// A position from the side to move's point of view: "us" moves up the
/// board (as White does). Whether "us" is to move depends on where the
/// placement comes from; a table entry always has "us" to move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Placement {
    /// The pieces of the side the placement is seen from.
    pub us: Bitboard,
    /// The other side's pieces.
    pub them: Bitboard,
    /// The kings of both sides.
    pub kings: Bitboard,
}

impl Placement {
    /// The position seen from its side to move.
    pub fn of(pos: &Position) -> Placement {
        let p = Placement {
            us: pos.pieces(Color::White),
            them: pos.pieces(Color::Black),
            kings: pos.all_kings(),
        };
        match pos.side_to_move() {
            Color::White => p,
            Color::Black => p.flipped(),
        }
    }

    /// The position with "us" as White, to move.
    pub fn to_position(&self, rules: Rules) -> Position {
        Position::from_parts(self.us, self.them, self.kings, Color::White, rules)
    }

    /// The board turned over and the colours swapped: the same position
    /// from the other side's point of view.
    #[inline]
    pub fn flipped(&self) -> Placement {
        Placement {
            us: flip_ranks(self.them),
            them: flip_ranks(self.us),
            kings: flip_ranks(self.kings),
        }
    }

    /// The mirror image (files a <-> h), which has the same value.
    #[inline]
    pub fn mirrored(&self) -> Placement {
        Placement {
            us: mirror_files(self.us),
            them: mirror_files(self.them),
            kings: mirror_files(self.kings),
        }
    }

    /// Our men, their men, our kings, their kings: the index's class order.
    #[inline]
    pub fn classes(&self) -> [Bitboard; 4] {
        [
            self.us & !self.kings,
            self.them & !self.kings,
            self.us & self.kings,
            self.them & self.kings,
        ]
    }

    /// The material on the board.
    pub fn signature(&self) -> Signature {
        let [um, tm, uk, tk] = self.classes().map(|c| c.count() as u8);
        Signature::new(um, uk, tm, tk)
    }

    /// Whether every man stands where men can (the index has no number for
    /// a man on its own first rank, which no game reaches).
    pub fn men_on_man_squares(&self) -> bool {
        ((self.us | self.them) & !self.kings & !MAN_SQUARES).is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    #[test]
    fn placement_symmetries() {
        let mut rng = Rng::new(3);
        for _ in 0..200 {
            let pos = crate::testutil::random_position(&mut rng, Rules::default());
            let p = Placement::of(&pos);
            assert_eq!(p.flipped().flipped(), p);
            assert_eq!(p.mirrored().mirrored(), p);
            assert_eq!(p.signature().flipped(), p.flipped().signature());
        }
        // h2 mirrors to a2; d2 turned over is d7.
        let sq = |s: &str| Bitboard::from_square(crate::Square::parse(s).unwrap());
        assert_eq!(mirror_files(sq("h2")), sq("a2"));
        assert_eq!(flip_ranks(sq("d2")), sq("d7"));
    }
}
