//! Non-capturing moves, generated a direction at a time for all men at once.

use crate::bitboard::{open_ray, Bitboard, Direction};
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::rules::{Color, Variant};
use crate::square::Square;

use Direction::*;
const WHITE_ARMENIAN: [Direction; 5] = [North, NorthEast, NorthWest, East, West];
const BLACK_ARMENIAN: [Direction; 5] = [South, SouthEast, SouthWest, East, West];
const WHITE_TURKISH: [Direction; 3] = [North, East, West];
const BLACK_TURKISH: [Direction; 3] = [South, East, West];

/// Directions a man of `color` may step in (also what mobility counts).
#[inline(always)]
pub(crate) fn man_steps(color: Color, variant: Variant) -> &'static [Direction] {
    match (color, variant) {
        (Color::White, Variant::Armenian) => &WHITE_ARMENIAN,
        (Color::Black, Variant::Armenian) => &BLACK_ARMENIAN,
        (Color::White, Variant::Turkish) => &WHITE_TURKISH,
        (Color::Black, Variant::Turkish) => &BLACK_TURKISH,
    }
}

#[inline(always)]
pub(crate) fn king_steps(variant: Variant) -> &'static [Direction] {
    match variant {
        Variant::Armenian => &Direction::ALL,
        Variant::Turkish => &Direction::ORTHOGONAL,
    }
}

/// The steps `men` of `color` have onto `empty`, one per man and
/// direction (the men's share of mobility and of bulk counting). Each
/// colour and variant has its own arm, so that every shift is by a
/// constant direction: a shift by a direction known only at run time is
/// a jump table (measured with cachegrind).
#[inline(always)]
pub(crate) fn man_step_count(
    men: Bitboard,
    empty: Bitboard,
    color: Color,
    variant: Variant,
) -> u32 {
    #[inline(always)]
    fn count<const N: usize>(men: Bitboard, empty: Bitboard, dirs: [Direction; N]) -> u32 {
        dirs.iter()
            .map(|&dir| (men.shift(dir) & empty).count())
            .sum()
    }
    match (color, variant) {
        (Color::White, Variant::Armenian) => count(men, empty, WHITE_ARMENIAN),
        (Color::Black, Variant::Armenian) => count(men, empty, BLACK_ARMENIAN),
        (Color::White, Variant::Turkish) => count(men, empty, WHITE_TURKISH),
        (Color::Black, Variant::Turkish) => count(men, empty, BLACK_TURKISH),
    }
}

/// The quiet moves of a king on `from` (the king's share of mobility and
/// of bulk counting), the directions constant as in `man_step_count`.
#[inline(always)]
pub(crate) fn king_step_count(from: Square, occupied: Bitboard, variant: Variant) -> u32 {
    #[inline(always)]
    fn count<const N: usize>(from: Square, occupied: Bitboard, dirs: [Direction; N]) -> u32 {
        dirs.iter()
            .fold(Bitboard::EMPTY, |seen, &dir| {
                seen | open_ray(dir, from, occupied)
            })
            .count()
    }
    match variant {
        Variant::Armenian => count(from, occupied, Direction::ALL),
        Variant::Turkish => count(from, occupied, Direction::ORTHOGONAL),
    }
}

pub(super) fn generate(pos: &Position, list: &mut MoveList) {
    let us = pos.side_to_move();
    let variant = pos.rules().variant;
    let empty = pos.empty();
    let occupied = pos.occupied();
    let far = us.promotion_rank();
    let men = pos.men(us);
    for &dir in man_steps(us, variant) {
        let offset = dir.offset() as i32;
        for to in men.shift(dir) & empty {
            let from = Square::from_index_unchecked((to.index() as i32 - offset) as u32);
            // An arrayvec push cannot fail here: see MAX_MOVES.
            let _ = list.try_push(Move::quiet(from, to, far.contains(to)));
        }
    }
    for from in pos.kings(us) {
        for &dir in king_steps(variant) {
            for to in open_ray(dir, from, occupied) {
                let _ = list.try_push(Move::quiet(from, to, false));
            }
        }
    }
}

#[inline(always)]
pub(super) fn count(pos: &Position) -> usize {
    let us = pos.side_to_move();
    let variant = pos.rules().variant;
    let empty = pos.empty();
    let occupied = pos.occupied();
    let mut n = man_step_count(pos.men(us), empty, us, variant);
    for from in pos.kings(us) {
        n += king_step_count(from, occupied, variant);
    }
    n as usize
}

/// Whether a man of the side to move can step onto its promotion rank:
/// the promotions `generate` would list, by whole-board shifts (the
/// directions constant, as in `man_step_count`).
#[inline(always)]
pub(super) fn promotion(pos: &Position) -> bool {
    #[inline(always)]
    fn any<const N: usize>(men: Bitboard, target: Bitboard, dirs: [Direction; N]) -> bool {
        dirs.iter().any(|&dir| (men.shift(dir) & target).any())
    }
    let us = pos.side_to_move();
    let men = pos.men(us);
    let target = pos.empty() & us.promotion_rank();
    match (us, pos.rules().variant) {
        (Color::White, Variant::Armenian) => any(men, target, WHITE_ARMENIAN),
        (Color::Black, Variant::Armenian) => any(men, target, BLACK_ARMENIAN),
        (Color::White, Variant::Turkish) => any(men, target, WHITE_TURKISH),
        (Color::Black, Variant::Turkish) => any(men, target, BLACK_TURKISH),
    }
}
