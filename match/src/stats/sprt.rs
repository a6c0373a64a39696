//! The sequential probability ratio test (SPRT): the generalised SPRT of
//! Michel Van den Bergh (as in fishtest and fastchess, "logistic" Elo):
//! LLR = N ((x - s0)^2 - (x - s1)^2) / (2 var), with x and var the mean and
//! variance of the game (trinomial) or pair (pentanomial) scores and s0, s1
//! the scores expected at elo0 and elo1; bounds ln(beta/(1-alpha)) and
//! ln((1-beta)/alpha).

use crate::error::UsageError;
use crate::stats::elo::{score_of_elo, Wdl};
use crate::stats::pentanomial::Penta;

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

/// Which counts the test reads. Pentanomial (the default whenever games
/// are paired by `-repeat`): the two games of an opening pair are not
/// independent (the opening favours one colour, and each engine gets it
/// once), so the pair is the sample; the trinomial model would treat them
/// as independent games and misjudge the variance. Trinomial: games not in
/// pairs, each game a sample.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtModel {
    Trinomial,
    Pentanomial,
}

impl SprtModel {
    pub fn name(self) -> &'static str {
        match self {
            SprtModel::Trinomial => "trinomial",
            SprtModel::Pentanomial => "pentanomial",
        }
    }
}

/// The state of the test: the model it decides with, the LLR of that model
/// and, beside it, the trinomial LLR of the same games.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtState {
    pub model: SprtModel,
    pub llr: f64,
    pub llr_trinomial: f64,
    pub decision: SprtDecision,
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

    pub fn validate(&self) -> Result<(), UsageError> {
        if self.elo0.partial_cmp(&self.elo1) != Some(std::cmp::Ordering::Less) {
            return Err("-sprt: elo0 must be below elo1".into());
        }
        for (n, v) in [("alpha", self.alpha), ("beta", self.beta)] {
            if !(v > 0.0 && v < 0.5) {
                return Err(format!("-sprt: {n} must be in (0, 0.5)").into());
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

    /// The test on a pairing's counts, pentanomial when `paired`.
    pub fn state(&self, wdl: &Wdl, penta: &Penta, paired: bool) -> SprtState {
        let llr_trinomial = self.llr_wdl(wdl);
        let (model, llr) = if paired {
            (SprtModel::Pentanomial, self.llr_penta(penta))
        } else {
            (SprtModel::Trinomial, llr_trinomial)
        };
        SprtState {
            model,
            llr,
            llr_trinomial,
            decision: self.decide(llr),
        }
    }

    /// `elo0=0 elo1=5 alpha=0.05 beta=0.05`, as on the command line.
    pub fn describe(&self) -> String {
        format!(
            "elo0={} elo1={} alpha={} beta={}",
            self.elo0, self.elo1, self.alpha, self.beta
        )
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
    use super::*;
    use crate::stats::elo::tests::{close, wdl};

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

    /// LLR values computed independently (Python, double precision) from
    /// the generalised SPRT's normal approximation for logistic Elo, as
    /// fishtest and fastchess document it (M. Van den Bergh's GSPRT):
    /// LLR = N/2 (s1 - s0)(2 mu - s0 - s1) / var, s_i = 1/(1 + 10^(-elo_i/400)),
    /// mu and var the mean and variance of the sample scores (a game:
    /// 0, 1/2, 1; a pair: 0, 1/4, 1/2, 3/4, 1) and N the number of samples.
    /// Every count is non-zero, so the half-game regularisation plays no
    /// part. By hand for the first: N = 200 pairs, mu = 107.5/200 = 0.5375,
    /// E[x^2] = 70.625/200, var = 0.353125 - 0.5375^2 = 0.06421875,
    /// s1 = 0.507195..., LLR = 100 * 0.0071951 * 0.0678049 / 0.06421875
    /// = 0.7597.
    #[test]
    fn llr_matches_independently_computed_values() {
        let sprt = |elo0, elo1| Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
        };
        for (counts, elo0, elo1, expect) in [
            ([10, 40, 80, 50, 20], 0.0, 5.0, 0.759_687_672_804),
            ([30, 150, 420, 220, 80], 0.0, 5.0, 5.229_442_974_261),
            ([3, 20, 50, 18, 9], -5.0, 5.0, 0.677_184_160_852),
        ] {
            let llr = sprt(elo0, elo1).llr_penta(&Penta(counts));
            assert!(close(llr, expect, 1e-9), "{counts:?}: {llr}");
        }
        // Trinomial: [losses, draws, wins].
        for (l, d, w, elo0, elo1, expect) in [
            (40, 30, 30, 0.0, 5.0, -0.223_558_658_465),
            (300, 500, 250, 0.0, 10.0, -3.592_040_217_413),
        ] {
            let llr = sprt(elo0, elo1).llr_wdl(&wdl(w, d, l));
            assert!(close(llr, expect, 1e-9), "{w} {d} {l}: {llr}");
        }
        // The 400 games of the first 200 pairs (the DD+WL slot as 50 DD and
        // 30 WL): W 120 D 190 L 90, trinomial LLR 0.751460008478 (Python).
        // With -repeat the pairs decide, and the trinomial LLR is shown
        // beside it.
        let st = sprt(0.0, 5.0).state(&wdl(120, 190, 90), &Penta([10, 40, 80, 50, 20]), true);
        assert_eq!(st.model, SprtModel::Pentanomial);
        assert!(close(st.llr, 0.759_687_672_804, 1e-9));
        assert!(close(st.llr_trinomial, 0.751_460_008_478, 1e-9));
        let st = sprt(0.0, 5.0).state(&wdl(120, 190, 90), &Penta::default(), false);
        assert_eq!(st.model, SprtModel::Trinomial);
        assert_eq!(st.llr, st.llr_trinomial);
    }
}
