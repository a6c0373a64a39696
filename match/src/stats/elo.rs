//! Elo difference with its 95% error bar, likelihood of superiority and
//! draw ratio, from win/draw/loss counts.
//!
//! Conventions (those of cutechess-cli and fastchess):
//! - score s = (W + D/2) / N; Elo = -400 log10(1/s - 1) (logistic Elo);
//! - the error bar comes from the variance of the per-game score (trinomial),
//!   or of the per-pair score when games are paired (pentanomial, see
//!   `pentanomial`), mapped through the Elo function at s +- 1.96 standard
//!   errors, halved;
//! - LOS = P(true W > true L) = (1 + erf((W - L) / sqrt(2 (W + L)))) / 2.

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
pub(super) fn elo_with_error(s: f64, var: f64, n: f64) -> (f64, f64) {
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
pub(super) mod tests {
    use super::*;

    pub(crate) fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    pub(crate) fn wdl(wins: u64, draws: u64, losses: u64) -> Wdl {
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
}
