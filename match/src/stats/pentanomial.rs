//! Pentanomial counts: the two games of an opening pair (same opening,
//! colours reversed) scored together, with the Elo estimate from the pair
//! scores' variance (which the pairing makes smaller than the games').

use crate::stats::elo::elo_with_error;

/// Pentanomial counts of game pairs, from one side's view: index k counts
/// the pairs in which that side scored k points out of 4 (a win is 2), i.e.
/// [LL, LD, DD or WL, WD, WW] = pair score 0, 0.5, 1, 1.5, 2.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Penta(pub [u64; 5]);

impl Penta {
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// Counts a pair from its two game results in points (0, 1 or 2 each).
    pub fn add_pair(&mut self, a: u32, b: u32) {
        let k = ((a + b) as usize).min(4);
        self.0[k] += 1;
    }

    pub fn add(&mut self, other: &Penta) {
        for k in 0..5 {
            self.0[k] += other.0[k];
        }
    }

    pub fn flipped(&self) -> Penta {
        let c = self.0;
        Penta([c[4], c[3], c[2], c[1], c[0]])
    }

    /// Mean and variance of the pair score (as a fraction in [0, 1]).
    pub fn mean_var(&self) -> Option<(f64, f64)> {
        let n = self.pairs() as f64;
        if n == 0.0 {
            return None;
        }
        let mean: f64 = (0..5)
            .map(|k| self.0[k] as f64 * k as f64 / 4.0)
            .sum::<f64>()
            / n;
        let var: f64 = (0..5)
            .map(|k| self.0[k] as f64 * (k as f64 / 4.0 - mean).powi(2))
            .sum::<f64>()
            / n;
        Some((mean, var))
    }

    /// Elo and 95% half width from the pair scores.
    pub fn elo(&self) -> Option<(f64, f64)> {
        let (mean, var) = self.mean_var()?;
        Some(elo_with_error(mean, var, self.pairs() as f64))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::elo::tests::close;
    use crate::stats::elo::{elo_of_score, Z95};

    #[test]
    fn pentanomial_counts_and_elo() {
        let mut p = Penta::default();
        p.add_pair(2, 0); // win + loss: pair score 1
        p.add_pair(2, 1); // win + draw
        p.add_pair(1, 1); // two draws
        p.add_pair(0, 0); // two losses
        p.add_pair(2, 2);
        assert_eq!(p.0, [1, 0, 2, 1, 1]);
        assert_eq!(p.flipped().0, [1, 1, 2, 0, 1]);
        // Pair scores 0, .5, .5, .75, 1: mean .55, variance .11 (by hand:
        // (.0025 + .04 + .0025 + .3025 + .2025) / 5).
        let (mean, var) = p.mean_var().unwrap();
        assert!(close(mean, 0.55, 1e-12) && close(var, 0.11, 1e-12));
        let (e, err) = p.elo().unwrap();
        assert!(close(e, elo_of_score(0.55), 1e-9));
        let se = (0.11f64 / 5.0).sqrt();
        let expect = (elo_of_score(0.55 + Z95 * se) - elo_of_score(0.55 - Z95 * se)) / 2.0;
        assert!(close(err, expect, 1e-9));
    }
}
