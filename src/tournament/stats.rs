//! Match statistics: Elo difference with its 95% error bar, likelihood of
//! superiority, draw ratio, pentanomial counts of paired games, and the
//! sequential probability ratio test (SPRT).
//!
//! Conventions (those of cutechess-cli and fastchess):
//! - score s = (W + D/2) / N; Elo = -400 log10(1/s - 1) (logistic Elo);
//! - the error bar comes from the variance of the per-game score (trinomial),
//!   or of the per-pair score when games are paired (pentanomial), mapped
//!   through the Elo function at s +- 1.96 standard errors, halved;
//! - LOS = P(true W > true L) = (1 + erf((W - L) / sqrt(2 (W + L)))) / 2;
//! - SPRT: the generalised SPRT of Michel Van den Bergh (as in fishtest and
//!   fastchess, "logistic" Elo): LLR = N ((x - s0)^2 - (x - s1)^2) / (2 var),
//!   with x and var the mean and variance of the game (or pair) scores and
//!   s0, s1 the scores expected at elo0 and elo1; bounds ln(beta/(1-alpha))
//!   and ln((1-beta)/alpha).

/// The 97.5% quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Wins, draws, losses from one side's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl Wdl {
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// The other side's view.
    pub fn flipped(&self) -> Wdl {
        Wdl {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
        }
    }

    pub fn add(&mut self, other: &Wdl) {
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
    }

    /// Points in draughts units: 2 for a win, 1 for a draw.
    pub fn points(&self) -> u64 {
        2 * self.wins + self.draws
    }

    /// Score fraction in [0, 1] (None without games).
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (self.wins as f64 + self.draws as f64 / 2.0) / n as f64)
    }

    pub fn draw_ratio(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.draws as f64 / n as f64)
    }

    /// Elo difference and the half width of its 95% interval.
    pub fn elo(&self) -> Option<(f64, f64)> {
        let n = self.games() as f64;
        let s = self.score()?;
        let var = (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n;
        Some(elo_with_error(s, var, n))
    }

    /// Likelihood of superiority, in [0, 1].
    pub fn los(&self) -> Option<f64> {
        let decisive = (self.wins + self.losses) as f64;
        if decisive == 0.0 {
            return None;
        }
        Some(0.5 * (1.0 + erf((self.wins as f64 - self.losses as f64) / (2.0 * decisive).sqrt())))
    }
}

/// Elo of a score fraction; infinite at 0 and 1.
pub fn elo_of_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// The score fraction expected at an Elo difference.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Elo and 95% half width from the mean score, the per-sample variance and
/// the number of samples.
fn elo_with_error(s: f64, var: f64, n: f64) -> (f64, f64) {
    let se = (var / n).sqrt();
    let (lo, hi) = (s - Z95 * se, s + Z95 * se);
    if lo <= 0.0 || hi >= 1.0 {
        // The interval reaches a score of 0 or 1: no finite bound.
        return (elo_of_score(s), f64::INFINITY);
    }
    (elo_of_score(s), (elo_of_score(hi) - elo_of_score(lo)) / 2.0)
}

/// The error function (Abramowitz and Stegun 7.1.26, |error| < 1.5e-7).
pub fn erf(x: f64) -> f64 {
    let sign = if x < 0.0 { -1.0 } else { 1.0 };
    let x = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let y = 1.0
        - (((((1.061_405_429 * t - 1.453_152_027) * t) + 1.421_413_741) * t - 0.284_496_736) * t
            + 0.254_829_592)
            * t
            * (-x * x).exp();
    sign * y
}

/// Pentanomial counts of game pairs (same opening, colours reversed), from
/// one side's view: index k = the pair's points in half-points / ... i.e.
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
    fn mean_var(&self) -> Option<(f64, f64)> {
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

/// "12m05s"-style duration for the progress line.
pub fn fmt_duration(secs: f64) -> String {
    if !secs.is_finite() || secs < 0.0 {
        return "?".into();
    }
    let s = secs.round() as u64;
    if s >= 3600 {
        format!("{}h{:02}m", s / 3600, (s % 3600) / 60)
    } else if s >= 60 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{s}s")
    }
}

/// "12.3 +/- 45.6" with infinities spelt out.
pub fn fmt_elo(e: Option<(f64, f64)>) -> String {
    match e {
        None => "-".into(),
        Some((elo, err)) => {
            let f = |v: f64| {
                if v.is_finite() {
                    // (+ 0.0 turns -0.0 into 0.0)
                    format!("{:.1}", v + 0.0)
                } else if v > 0.0 {
                    "inf".into()
                } else {
                    "-inf".into()
                }
            };
            format!("{} +/- {}", f(elo), f(err))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    fn wdl(wins: u64, draws: u64, losses: u64) -> Wdl {
        Wdl {
            wins,
            draws,
            losses,
        }
    }

    #[test]
    fn elo_and_error_bar_known_values() {
        // Reference values computed independently (Python, same formulas as
        // cutechess-cli: trinomial variance, 1.959964 standard errors).
        let (e, err) = wdl(60, 20, 20).elo().unwrap();
        assert!(close(e, 147.190_714, 1e-4), "{e}");
        assert!(close(err, 66.013_381, 1e-4), "{err}");
        let (e, err) = wdl(30, 40, 30).elo().unwrap();
        assert!(close(e, 0.0, 1e-9));
        assert!(close(err, 53.157_980, 1e-4), "{err}");
        let (e, err) = wdl(120, 60, 20).elo().unwrap();
        assert!(close(e, 190.848_502, 1e-4), "{e}");
        assert!(close(err, 43.461_753, 1e-4), "{err}");
        // Symmetry: the loser's view is the negative.
        let (e2, err2) = wdl(20, 60, 120).elo().unwrap();
        assert!(close(e2, -190.848_502, 1e-4) && close(err2, 43.461_753, 1e-4));
        assert_eq!(Wdl::default().elo(), None);
        // A perfect score, or an interval reaching it: no finite error bar.
        assert_eq!(wdl(5, 0, 0).elo().unwrap().1, f64::INFINITY);
        assert_eq!(wdl(6, 0, 2).elo().unwrap().1, f64::INFINITY);
        assert_eq!(fmt_elo(wdl(5, 0, 0).elo()), "inf +/- inf");
    }

    #[test]
    fn los_known_values() {
        assert!(close(wdl(33, 10, 30).los().unwrap(), 0.647_271_5, 1e-6));
        assert!(close(wdl(60, 20, 20).los().unwrap(), 0.999_996_1, 1e-6));
        assert!(close(wdl(10, 5, 10).los().unwrap(), 0.5, 1e-9));
        assert_eq!(wdl(0, 7, 0).los(), None);
    }

    #[test]
    fn elo_score_round_trip() {
        for e in [-400.0, -35.0, 0.0, 10.0, 250.0] {
            assert!(close(elo_of_score(score_of_elo(e)), e, 1e-9));
        }
        assert!(close(score_of_elo(0.0), 0.5, 1e-12));
    }

    #[test]
    fn erf_known_values() {
        assert!(close(erf(0.0), 0.0, 1e-7));
        assert!(close(erf(0.5), 0.520_499_877_8, 2e-7));
        assert!(close(erf(1.0), 0.842_700_792_9, 2e-7));
        assert!(close(erf(-2.0), -0.995_322_265_0, 2e-7));
    }

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
