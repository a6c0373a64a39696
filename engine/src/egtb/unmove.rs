//! Quiet moves played backwards: the positions from which one quiet,
//! non-crowning move leads to a given one. The retrograde build walks these
//! edges from decided positions to the ones that can reach them.
//!
//! Captures are never retracted: a position with a capture due is decided
//! from the smaller tables before the walk starts, and a capture always
//! leaves a smaller signature. Crowning moves lead to a signature with one
//! king more, decided earlier; they are never retracted either.

use super::placement::{Placement, MAN_SQUARES};
use crate::bitboard::{open_ray, Bitboard};
use crate::movegen::{king_steps, man_steps};
use crate::rules::{Color, Variant};

/// Calls `f` with every placement ("us" to move) whose side to move reaches
/// `after` by one quiet move that does not crown. `after` holds the mover
/// as "us" (moving up the board), now with the other side to move.
///
/// Whether such a predecessor really had that move (no capture due there)
/// is the caller's business: positions with a capture due are decided
/// before any predecessor is asked for.
#[inline]
pub fn quiet_predecessors(after: &Placement, variant: Variant, mut f: impl FnMut(Placement)) {
    let occupied = after.us | after.them;
    let empty = !occupied;
    let men = after.us & !after.kings;
    // A man on `to` came from `to - step`, an empty man square.
    for &dir in man_steps(Color::White, variant) {
        let back = dir.opposite();
        let origins = men.shift(back) & empty & MAN_SQUARES;
        for from in origins {
            let to = Bitboard::from_square(from).shift(dir);
            f(Placement {
                us: after.us ^ to ^ Bitboard::from_square(from),
                ..*after
            });
        }
    }
    for to in after.us & after.kings {
        let to_bb = Bitboard::from_square(to);
        // King steps are closed under reversal: every direction looks back too.
        for &dir in king_steps(variant) {
            for from in open_ray(dir, to, occupied) {
                let moved = to_bb | Bitboard::from_square(from);
                f(Placement {
                    us: after.us ^ moved,
                    them: after.them,
                    kings: after.kings ^ moved,
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen;
    use crate::rng::Rng;
    use crate::rules::Rules;

    /// The predecessors found backwards are exactly the positions whose
    /// quiet non-crowning moves, played forwards, reach the position: on
    /// random small positions, every backward edge is a forward move, and
    /// every forward quiet move from a random position is found backwards.
    #[test]
    fn retraction_inverts_the_quiet_moves() {
        for rules in [Rules::ARMENIAN, Rules::TURKISH] {
            let mut rng = Rng::new(11);
            for _ in 0..3000 {
                let p = random_small_placement(&mut rng);
                let pos = p.to_position(rules);
                let mut list = crate::moves::MoveList::new();
                movegen::generate(&pos, &mut list);
                if list.iter().any(|m| m.is_capture()) {
                    continue;
                }
                for mv in list.iter().filter(|m| !m.promotes) {
                    // `after` keeps the mover as "us": not flipped.
                    let next = pos.play(mv);
                    let after = Placement {
                        us: next.pieces(Color::White),
                        them: next.pieces(Color::Black),
                        kings: next.all_kings(),
                    };
                    let mut found = 0;
                    quiet_predecessors(&after, rules.variant, |q| {
                        found += usize::from(q == p);
                    });
                    assert_eq!(found, 1, "{} {mv:?} ({rules})", pos.fen());
                }
                // Backwards from p: each predecessor plays a move into p.
                quiet_predecessors(&p, rules.variant, |q| {
                    let prev = q.to_position(rules);
                    let reaches = movegen::legal_moves(&prev).iter().any(|m| {
                        !m.promotes && {
                            let n = prev.play(m);
                            n.pieces(Color::White) == p.us && n.all_kings() == p.kings
                        }
                    });
                    // A predecessor with a capture due has no quiet move at all.
                    assert!(
                        reaches || movegen::has_capture(&prev),
                        "{} from {}",
                        prev.fen(),
                        pos.fen()
                    );
                });
            }
        }
    }

    fn random_small_placement(rng: &mut Rng) -> Placement {
        loop {
            let mut us = Bitboard::EMPTY;
            let mut them = Bitboard::EMPTY;
            let mut kings = Bitboard::EMPTY;
            for i in 0..(2 + rng.below(4)) {
                let sq = crate::Square::new(rng.below(64) as u8).unwrap();
                if (us | them).contains(sq) {
                    continue;
                }
                let king = rng.below(2) == 0 || !MAN_SQUARES.contains(sq);
                if i % 2 == 0 {
                    us = us.with(sq);
                } else {
                    them = them.with(sq);
                }
                if king {
                    kings = kings.with(sq);
                }
            }
            if us.any() && them.any() {
                return Placement { us, them, kings };
            }
        }
    }
}
