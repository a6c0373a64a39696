//! Non-capturing moves, generated a direction at a time for all men at once.

use crate::bitboard::{open_ray, Bitboard, Direction};
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::rules::{Color, Variant};
use crate::square::Square;

/// Directions a man of `color` may step in (also what mobility counts).
#[inline(always)]
pub(crate) fn man_steps(color: Color, variant: Variant) -> &'static [Direction] {
    use Direction::*;
    match (color, variant) {
        (Color::White, Variant::Armenian) => &[North, NorthEast, NorthWest, East, West],
        (Color::Black, Variant::Armenian) => &[South, SouthEast, SouthWest, East, West],
        (Color::White, Variant::Turkish) => &[North, East, West],
        (Color::Black, Variant::Turkish) => &[South, East, West],
    }
}

#[inline(always)]
pub(crate) fn king_steps(variant: Variant) -> &'static [Direction] {
    match variant {
        Variant::Armenian => &Direction::ALL,
        Variant::Turkish => &Direction::ORTHOGONAL,
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

pub(super) fn count(pos: &Position) -> usize {
    let us = pos.side_to_move();
    let variant = pos.rules().variant;
    let empty = pos.empty();
    let occupied = pos.occupied();
    let men = pos.men(us);
    let mut n = 0;
    for &dir in man_steps(us, variant) {
        n += (men.shift(dir) & empty).count();
    }
    for from in pos.kings(us) {
        let mut targets = Bitboard::EMPTY;
        for &dir in king_steps(variant) {
            targets |= open_ray(dir, from, occupied);
        }
        n += targets.count();
    }
    n as usize
}
