//! The sequential probability ratio test (SPRT): the generalised SPRT of
//! Michel Van den Bergh (as in fishtest and fastchess, "logistic" Elo):
//! LLR = N ((x - s0)^2 - (x - s1)^2) / (2 var), with x and var the mean and
//! variance of the game (trinomial) or pair (pentanomial) scores and s0, s1
//! the scores expected at elo0 and elo1; bounds ln(beta/(1-alpha)) and
//! ln((1-beta)/alpha).

use super::elo::{score_of_elo, Wdl};
use super::pentanomial::Penta;

/// Mean and variance of scores 0, 1/(k-1), ..., 1 seen `counts` times, and
/// the number of samples. An outcome never seen counts half a game (the
/// weight a Jeffreys prior gives each outcome), so that one-sided runs (all
/// wins, all draws) still have a variance and the test can decide, but not
/// after a game or two: all wins decide H1 after 16 games (trinomial, elo1
/// = 10) or 19 pairs (pentanomial), all draws H0 after 84 games. With no
/// samples at all the result is (0.5, 0, 0).
fn regularized(counts: &[f64]) -> (f64, f64, f64) {
    let n_real: f64 = counts.iter().sum();
    if n_real == 0.0 {
        return (0.5, 0.0, 0.0);
    }
    let c: Vec<f64> = counts
        .iter()
        .map(|&x| if x == 0.0 { 0.5 } else { x })
        .collect();
    let n: f64 = c.iter().sum();
    let k = (c.len() - 1) as f64;
    let mean = c
        .iter()
        .enumerate()
        .map(|(i, x)| x * i as f64 / k)
        .sum::<f64>()
        / n;
    let var = c
        .iter()
        .enumerate()
        .map(|(i, x)| x * (i as f64 / k - mean).powi(2))
        .sum::<f64>()
        / n;
    (mean, var, n)
}

/// SPRT parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// H1 (elo >= elo1) accepted.
    H1,
    /// H0 (elo <= elo0) accepted.
    H0,
    Continue,
}

impl Sprt {
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    pub fn validate(&self) -> Result<(), String> {
        if self.elo0.partial_cmp(&self.elo1) != Some(std::cmp::Ordering::Less) {
            return Err("-sprt: elo0 must be below elo1".into());
        }
        for (n, v) in [("alpha", self.alpha), ("beta", self.beta)] {
            if !(v > 0.0 && v < 0.5) {
                return Err(format!("-sprt: {n} must be in (0, 0.5)"));
            }
        }
        Ok(())
    }

    fn llr_from(&self, mean: f64, var: f64, n: f64) -> f64 {
        if n == 0.0 || var <= 0.0 {
            return 0.0;
        }
        let s0 = score_of_elo(self.elo0);
        let s1 = score_of_elo(self.elo1);
        n * ((mean - s0).powi(2) - (mean - s1).powi(2)) / (2.0 * var)
    }

    /// Log-likelihood ratio from game results (trinomial).
    pub fn llr_wdl(&self, wdl: &Wdl) -> f64 {
        let counts = [wdl.losses as f64, wdl.draws as f64, wdl.wins as f64];
        let (mean, var, n) = regularized(&counts);
        self.llr_from(mean, var, n)
    }

    /// Log-likelihood ratio from pair results (pentanomial).
    pub fn llr_penta(&self, penta: &Penta) -> f64 {
        let counts = penta.0.map(|c| c as f64);
        let (mean, var, n) = regularized(&counts);
        self.llr_from(mean, var, n)
    }

    pub fn decide(&self, llr: f64) -> SprtDecision {
        if llr >= self.upper_bound() {
            SprtDecision::H1
        } else if llr <= self.lower_bound() {
            SprtDecision::H0
        } else {
            SprtDecision::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::elo::tests::{close, wdl};
    use super::*;

    #[test]
    fn sprt_bounds() {
        let s = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        assert!(close(s.upper_bound(), 2.944_438_979, 1e-8));
        assert!(close(s.lower_bound(), -2.944_438_979, 1e-8));
        let t = Sprt {
            alpha: 0.05,
            beta: 0.10,
            ..s
        };
        assert!(close(t.upper_bound(), (0.9f64 / 0.05).ln(), 1e-12));
        assert!(close(t.lower_bound(), (0.1f64 / 0.95).ln(), 1e-12));
        assert!(s.validate().is_ok());
        assert!(Sprt { elo1: -5.0, ..s }.validate().is_err());
    }

    /// Feeds a fixed sequence of results (2 win, 1 draw, 0 loss) and returns
    /// the number of games at which the test decided, and the decision.
    fn run_sequence(s: &Sprt, seq: impl Iterator<Item = u32>) -> (u64, SprtDecision) {
        let mut w = Wdl::default();
        for r in seq {
            match r {
                2 => w.wins += 1,
                1 => w.draws += 1,
                _ => w.losses += 1,
            }
            let d = s.decide(s.llr_wdl(&w));
            if d != SprtDecision::Continue {
                return (w.games(), d);
            }
        }
        (w.games(), SprtDecision::Continue)
    }

    #[test]
    fn sprt_decisions_on_fixed_sequences() {
        let s = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        // Known value: 60 W, 20 D, 20 L: s = 0.7, var = 0.16,
        // s0 = 0.5, s1 = 1/(1+10^(-1/40)) = 0.514387...;
        // LLR = 100 ((0.2)^2 - (0.185613)^2) / 0.32 = 1.733... (by hand).
        let s1 = score_of_elo(10.0);
        let expect = 100.0 * ((0.7f64 - 0.5).powi(2) - (0.7 - s1).powi(2)) / (2.0 * 0.16);
        let llr = s.llr_wdl(&wdl(60, 20, 20));
        assert!(close(llr, expect, 1e-9));
        assert!(close(llr, 1.733_7, 1e-3), "{llr}");
        assert_eq!(s.decide(llr), SprtDecision::Continue);
        // Repeating W W D L (score 0.625) decides for H1; its mirror
        // L L D W decides for H0 after the same number of games.
        let up = run_sequence(&s, [2, 2, 1, 0].into_iter().cycle().take(10_000));
        let down = run_sequence(&s, [0, 0, 1, 2].into_iter().cycle().take(10_000));
        assert_eq!(up.1, SprtDecision::H1);
        assert_eq!(down.1, SprtDecision::H0);
        assert!(up.0 > 20 && up.0 < 400, "{up:?}");
        // Even results (W D L repeated) sit between the hypotheses' scores
        // closer to elo0: H0 after a long run, never H1.
        let even = run_sequence(&s, [2, 1, 0].into_iter().cycle().take(100_000));
        assert_eq!(even.1, SprtDecision::H0);
        assert!(even.0 > up.0);
        // All wins decide H1 within a few games; all draws (Elo exactly 0,
        // that of H0) decide H0.
        // (Numbers computed independently in Python.)
        let wins = run_sequence(&s, [2u32; 500].into_iter());
        assert_eq!(wins, (16, SprtDecision::H1));
        let draws = run_sequence(&s, [1u32; 500].into_iter());
        assert_eq!(draws, (84, SprtDecision::H0));
        let mut pairs = Penta::default();
        let mut decided_at = 0;
        for n in 1..100 {
            pairs.add_pair(2, 2);
            if s.decide(s.llr_penta(&pairs)) == SprtDecision::H1 {
                decided_at = n;
                break;
            }
        }
        assert_eq!(decided_at, 19);
    }

    #[test]
    fn sprt_pentanomial_llr() {
        let s = Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        };
        // 100 pairs: 10 LL-ish... counts chosen by hand, mean/var by hand:
        // [5, 20, 45, 25, 5]: mean = (20*.25 + 45*.5 + 25*.75 + 5)/100 = .5125
        let p = Penta([5, 20, 45, 25, 5]);
        let (mean, var) = p.mean_var().unwrap();
        assert!(close(mean, 0.5125, 1e-12));
        let s0 = 0.5;
        let s1 = score_of_elo(5.0);
        let expect = 100.0 * ((mean - s0).powi(2) - (mean - s1).powi(2)) / (2.0 * var);
        assert!(close(s.llr_penta(&p), expect, 1e-12));
        assert!(s.llr_penta(&p) > 0.0);
        assert_eq!(s.llr_penta(&Penta::default()), 0.0);
        // A trinomial count with more wins than losses leans the same way.
        assert!(
            s.llr_wdl(&Wdl {
                wins: 55,
                draws: 110,
                losses: 35
            }) > 0.0
        );
    }
}
