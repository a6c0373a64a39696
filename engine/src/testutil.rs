//! Unit-test helpers: random positions for the tests that sweep many
//! (the integration tests have their own, built on the naive board).

use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::rng::Rng;
use crate::rules::{Color, Rules};
use crate::square::Square;

/// A random position with up to 16 pieces a side, many kings, no man on its
/// own far rank; the side to move is random.
pub fn random_position(rng: &mut Rng, rules: Rules) -> Position {
    let mut pieces = [Bitboard::EMPTY; 2];
    let mut kings = Bitboard::EMPTY;
    let king_share = rng.below(4); // 0: no kings .. 3: mostly kings
    for color in [Color::White, Color::Black] {
        let n = 1 + rng.below(12);
        for _ in 0..n {
            let sq = Square::new(rng.below(64) as u8).unwrap();
            if (pieces[0] | pieces[1]).contains(sq) {
                continue;
            }
            let king = rng.below(4) < king_share || color.promotion_rank().contains(sq);
            pieces[color as usize] = pieces[color as usize].with(sq);
            if king {
                kings = kings.with(sq);
            }
        }
    }
    let side = if rng.below(2) == 0 {
        Color::White
    } else {
        Color::Black
    };
    Position::from_parts(pieces[0], pieces[1], kings, side, rules)
}
