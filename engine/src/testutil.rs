//! Test helpers: a small deterministic PRNG and random legal-looking positions.

use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::rules::{Color, Rules};
use crate::square::Square;

/// xorshift64*: reproducible, dependency-free.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}

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
