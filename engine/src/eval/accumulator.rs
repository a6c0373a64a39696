//! The pattern sums of a board kept up to date from the ranks that
//! change, rather than read again from all 35 regions
//! (`PatternTable::sums`), in the manner of NNUE accumulators or Scan's
//! patterns.
//!
//! The unit is a band (two ranks, its five regions: `band_sums`): an
//! `Accumulator` holds a board's men, each band's sums and their total, and
//! moving it to other men reads again the bands from the one below the
//! lowest changed rank to the one on the highest. A step of a man changes
//! one or two ranks and so two or three of the seven bands. A finer unit
//! (the regions a changed square lies in, their configurations and weights
//! kept) read a third of the table entries, took 4% fewer instructions and
//! ran 4% slower: its time went to waiting on the loads of the weights, in
//! loops of variable length, where the whole board's read is one straight,
//! unrolled run of independent loads. A band keeps the straight run.
//!
//! The sums are integers and every step exact: an accumulator's sums are
//! always those `PatternTable::sums` gives for its men.

use super::pattern::{PatternTable, Sums, CORNER_RANKS};

/// A board's men with the pattern sums of each band and of the board.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Accumulator {
    /// White's and Black's men.
    men: (u64, u64),
    sums: Sums,
    /// Each band's sums (`PatternTable::band_sums`).
    bands: [Sums; CORNER_RANKS],
}

impl Accumulator {
    /// No board: a man of each colour on every square, which differs from
    /// every board on every rank, so that an update from it reads every
    /// band.
    pub const NONE: Accumulator = Accumulator {
        men: (!0, !0),
        sums: Sums {
            opening: 0,
            endgame: 0,
        },
        bands: [Sums {
            opening: 0,
            endgame: 0,
        }; CORNER_RANKS],
    };

    /// The pattern sums of its men.
    #[inline(always)]
    pub fn sums(&self) -> Sums {
        self.sums
    }

    /// The squares where its men and `men` differ.
    #[inline(always)]
    pub fn changed(&self, men: (u64, u64)) -> u64 {
        (self.men.0 ^ men.0) | (self.men.1 ^ men.1)
    }

    /// Moves it to the men `to` (White's, Black's) of `table`, the table
    /// its sums were read from: the bands with a changed square are read
    /// again.
    #[inline(always)]
    pub fn update(&mut self, table: &PatternTable, to: (u64, u64)) {
        let changed = self.changed(to);
        if changed == 0 {
            return;
        }
        // The bands from the one below the lowest changed rank to the one
        // on the highest: a step of a man touches two or three, one
        // stretch of bands rather than a branch per band.
        let lowest = changed.trailing_zeros() as usize / 8;
        let highest = (63 - changed.leading_zeros() as usize) / 8;
        let mut sums = self.sums;
        for band in lowest.saturating_sub(1)..=highest.min(CORNER_RANKS - 1) {
            let s = table.band_sums(band, to.0, to.1);
            let old = self.bands[band];
            sums.opening += s.opening - old.opening;
            sums.endgame += s.endgame - old.endgame;
            self.bands[band] = s;
        }
        self.sums = sums;
        self.men = to;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::pattern::{Layout, PatternParams};
    use crate::eval::{named, NAMED};
    use crate::rng::Rng;

    /// Every weight random and non-zero-ish, so that a region read wrong
    /// or missed shows in the sums.
    fn random_table(seed: u64) -> PatternTable {
        let mut rng = Rng::new(seed);
        let n = Layout::get().params();
        let mut r = || rng.below(6001) as i16 - 3000;
        let opening = (0..n).map(|_| r()).collect();
        let endgame = (0..n).map(|_| r()).collect();
        PatternTable::new(PatternParams { opening, endgame })
    }

    /// Random men of random density (White's, Black's).
    fn random_men(rng: &mut Rng) -> (u64, u64) {
        let density = rng.below(65);
        let (mut white, mut black) = (0u64, 0u64);
        for square in 0..64 {
            if rng.below(64) < density {
                match rng.below(2) {
                    0 => white |= 1 << square,
                    _ => black |= 1 << square,
                }
            }
        }
        (white, black)
    }

    /// `men` with `n` random squares set to a random content (empty, a
    /// white man, a black man; possibly what was there).
    fn with_changes(rng: &mut Rng, men: (u64, u64), n: u64) -> (u64, u64) {
        let (mut white, mut black) = men;
        for _ in 0..n {
            let bit = 1u64 << rng.below(64);
            (white, black) = (white & !bit, black & !bit);
            match rng.below(3) {
                0 => {}
                1 => white |= bit,
                _ => black |= bit,
            }
        }
        (white, black)
    }

    #[test]
    fn bands_add_up_to_the_board() {
        // The regions are the seven bands' five each, so the bands' sums
        // add up to the board's, on 2000 random boards.
        let table = random_table(3);
        let mut rng = Rng::new(4);
        for _ in 0..2000 {
            let (white, black) = random_men(&mut rng);
            let mut total = Sums::default();
            for band in 0..CORNER_RANKS {
                let s = table.band_sums(band, white, black);
                total.opening += s.opening;
                total.endgame += s.endgame;
            }
            assert_eq!(total, table.sums(white, black));
        }
    }

    #[test]
    fn updates_equal_the_whole_board_read() {
        // Chains of updates over random boards, each 0 to 13 squares
        // changed anywhere (the first and last ranks too), and updates from
        // no board: after each, the accumulator is exactly the one read
        // from the whole board (every band's sums and the total), and its
        // sums those of `PatternTable::sums`. A random table and the
        // built-in learned ones.
        let mut tables = vec![random_table(1)];
        for (name, _) in NAMED {
            tables.push(named(name).unwrap().patterns.unwrap());
        }
        let mut rng = Rng::new(7);
        for table in &tables {
            for _ in 0..200 {
                let mut men = random_men(&mut rng);
                let mut a = Accumulator::NONE;
                a.update(table, men);
                assert_eq!(a.sums(), table.sums(men.0, men.1));
                for _ in 0..50 {
                    let n = rng.below(14);
                    men = with_changes(&mut rng, men, n);
                    a.update(table, men);
                    let mut whole = Accumulator::NONE;
                    whole.update(table, men);
                    assert_eq!(a, whole, "{men:x?}");
                    assert_eq!(a.sums(), table.sums(men.0, men.1));
                }
            }
        }
    }
}
