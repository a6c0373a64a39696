//! The learned king terms of the `kings` model: what the men's patterns
//! cannot see. Most of the search's errors against the endgame databases
//! at 5 pieces are endings with kings on both sides (KKM v KK, KMM v KK,
//! ...), where the hand terms count a king as a fixed number of men
//! wherever it stands and whatever else is on the board.
//!
//! Two groups of weights, both linear, so the trainer fits them as it fits
//! the patterns:
//!
//! - a material term per side, learned per (own kings, own men, enemy
//!   kings, enemy men) while at most `MATERIAL_PIECES` pieces are on the
//!   board: the databases know each of these balances exactly, and a
//!   weight per balance can learn what they know (KK v K is not KKM v KK
//!   minus a man). White's view adds White's balance's weight and
//!   subtracts Black's, so equal material scores 0 and the term is
//!   colour-symmetric;
//! - a king square table, opening and endgame weights blended by the
//!   number of pieces as the patterns are, read from each king's own side
//!   (Black's board turned over) and mirrored left to right, so 32 squares
//!   a phase.
//!
//! Units: 1/32 centi-men (`hand::ONE`), as the pattern weights; the score
//! is in 1/(32 * `PHASES`) centi-men, the unit the evaluation sums in.

use super::pattern::PHASES;

/// The most pieces on the board for which the material term applies.
pub const MATERIAL_PIECES: u32 = 6;

/// Counts per side and kind run 0..=`MATERIAL_PIECES`.
const BASE: usize = MATERIAL_PIECES as usize + 1;

/// Material weights: one per (own kings, own men, enemy kings, enemy men),
/// most unused (only balances of at most `MATERIAL_PIECES` pieces are).
pub const MATERIAL: usize = BASE * BASE * BASE * BASE;

/// King squares a phase: ranks by half files.
pub const SQUARES: usize = 32;

/// Weights of the `kings` model beyond the patterns.
pub const PARAMS: usize = MATERIAL + 2 * SQUARES;

/// The index of one side's balance.
#[inline(always)]
pub fn material_index(own_kings: u32, own_men: u32, enemy_kings: u32, enemy_men: u32) -> usize {
    ((own_kings as usize * BASE + own_men as usize) * BASE + enemy_kings as usize) * BASE
        + enemy_men as usize
}

/// The table index of a king on `square` (a1 = 0 ... h8 = 63) of `white`'s
/// side or Black's: rank from its own side, file folded onto a-d.
#[inline(always)]
pub fn square_index(square: u32, white: bool) -> usize {
    let (rank, file) = (square / 8, square % 8);
    let rank = if white { rank } else { 7 - rank };
    (rank * 4 + file.min(7 - file)) as usize
}

/// A position's king features: White's less Black's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Features {
    /// White's balance and Black's (`material_index`), or `None` with more
    /// than `MATERIAL_PIECES` pieces.
    pub material: Option<(usize, usize)>,
    /// Per square index: White's kings there less Black's.
    pub squares: [i32; SQUARES],
}

/// The king features of a board given as bitboards of each side's men and
/// kings.
pub fn features(men: [u64; 2], kings: [u64; 2]) -> Features {
    let mut squares = [0; SQUARES];
    for (side, sign) in [(0, 1), (1, -1)] {
        let mut k = kings[side];
        while k != 0 {
            squares[square_index(k.trailing_zeros(), side == 0)] += sign;
            k &= k - 1;
        }
    }
    Features {
        material: material_of(men, kings),
        squares,
    }
}

#[inline(always)]
fn material_of(men: [u64; 2], kings: [u64; 2]) -> Option<(usize, usize)> {
    let (wk, wm) = (kings[0].count_ones(), men[0].count_ones());
    let (bk, bm) = (kings[1].count_ones(), men[1].count_ones());
    (wk + wm + bk + bm <= MATERIAL_PIECES).then(|| {
        (
            material_index(wk, wm, bk, bm),
            material_index(bk, bm, wk, wm),
        )
    })
}

/// The learned king weights, 1/32 centi-men.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KingTable {
    material: Vec<i16>,
    opening: [i16; SQUARES],
    endgame: [i16; SQUARES],
    /// Every weight is zero: the score is 0 without reading the board.
    zero: bool,
}

impl KingTable {
    /// Every weight zero (the start of a fit).
    pub fn zero() -> KingTable {
        KingTable::new(vec![0; MATERIAL], [0; SQUARES], [0; SQUARES])
    }

    /// The table of these weights. `material` must have `MATERIAL` entries.
    pub fn new(material: Vec<i16>, opening: [i16; SQUARES], endgame: [i16; SQUARES]) -> KingTable {
        assert_eq!(material.len(), MATERIAL, "material weights");
        let zero = material
            .iter()
            .chain(&opening)
            .chain(&endgame)
            .all(|&x| x == 0);
        KingTable {
            material,
            opening,
            endgame,
            zero,
        }
    }

    /// The material weights (`material_index` order).
    pub fn material(&self) -> &[i16] {
        &self.material
    }

    /// The king square weights, opening then endgame (`square_index` order).
    pub fn squares(&self) -> (&[i16; SQUARES], &[i16; SQUARES]) {
        (&self.opening, &self.endgame)
    }

    /// Every weight, in the file's order: material, opening, endgame.
    pub fn params(&self) -> impl Iterator<Item = i16> + '_ {
        self.material
            .iter()
            .chain(&self.opening)
            .chain(&self.endgame)
            .copied()
    }

    /// The score of the king terms, White's view, in 1/(32 * `PHASES`)
    /// centi-men, with `pieces` on the board. No allocation; nothing read
    /// when every weight is zero.
    #[inline(always)]
    pub fn score(&self, men: [u64; 2], kings: [u64; 2], pieces: u32) -> i64 {
        if self.zero {
            return 0;
        }
        let mut total = 0i64;
        if let Some((w, b)) = material_of(men, kings) {
            total += (self.material[w] as i64 - self.material[b] as i64) * PHASES;
        }
        if kings[0] | kings[1] != 0 {
            let phase = (pieces as i64).min(PHASES);
            let (mut opening, mut endgame) = (0i64, 0i64);
            for (side, sign) in [(0, 1i64), (1, -1i64)] {
                let mut k = kings[side];
                while k != 0 {
                    let i = square_index(k.trailing_zeros(), side == 0);
                    opening += sign * self.opening[i] as i64;
                    endgame += sign * self.endgame[i] as i64;
                    k &= k - 1;
                }
            }
            total += opening * phase + endgame * (PHASES - phase);
        }
        total
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_indexes_mirror_colours_and_files() {
        // a1 for White is a8 for Black, and h1 is a1 folded.
        assert_eq!(square_index(0, true), square_index(56, false));
        assert_eq!(square_index(7, true), square_index(0, true));
        assert_eq!(square_index(3, true), square_index(4, true));
        assert_ne!(square_index(3, true), square_index(2, true));
        assert_eq!(square_index(60, true), 31); // e8
        assert_eq!(square_index(63, true), 28); // h8, a8 folded
        let all: std::collections::BTreeSet<_> = (0..64).map(|s| square_index(s, true)).collect();
        assert_eq!(all.len(), SQUARES);
    }

    #[test]
    fn material_applies_up_to_six_pieces_and_is_colour_symmetric() {
        let mut material = vec![0; MATERIAL];
        material[material_index(2, 1, 2, 0)] = 320; // KKM v KK: 10 cm
        let t = KingTable::new(material, [0; SQUARES], [0; SQUARES]);
        let (a1, b1, c1, d8, e8) = (1u64, 1 << 1, 1 << 2, 1 << 59, 1 << 60);
        // White KKM v Black KK: +10 cm; colours swapped: -10 cm.
        let white = t.score([c1 << 8, 0], [a1 | b1, d8 | e8], 5);
        assert_eq!(white, 320 * PHASES);
        let black = t.score([0, d8 >> 8], [d8 | e8, a1 | b1], 5);
        assert_eq!(black, -320 * PHASES);
        // Seven pieces: beyond the term.
        assert_eq!(
            t.score([c1 << 8 | c1 << 16, 1 << 40], [a1 | b1, d8 | e8], 7),
            0
        );
    }

    #[test]
    fn king_squares_blend_by_phase() {
        let mut opening = [0; SQUARES];
        let mut endgame = [0; SQUARES];
        opening[square_index(27, true)] = 64; // d4
        endgame[square_index(27, true)] = 32;
        let t = KingTable::new(vec![0; MATERIAL], opening, endgame);
        // A white king on d4 and a black one on d5 (d4 from Black's side)
        // cancel; alone, the white king scores by the phase.
        assert_eq!(t.score([0, 0], [1 << 27, 1 << 35], 2), 0);
        let pieces = 10;
        let expected = 64 * pieces + 32 * (PHASES - pieces);
        assert_eq!(t.score([0, 1 << 50], [1 << 27, 0], pieces as u32), expected);
        let f = features([0, 1 << 50], [1 << 27 | 1 << 28, 0]);
        assert_eq!(f.squares[square_index(27, true)], 2);
        assert_eq!(
            f.material,
            Some((material_index(2, 0, 0, 1), material_index(0, 1, 2, 0)))
        );
    }
}
